// The first view written at build time (src/panel/prerender.rs): runs
// `scaling prerender` (the same crate as the page, built natively) and writes its fragments
// into index.html at the ids the page itself writes to — the default scenario's key figures,
// tables and chart summaries inside their (empty) elements, each chart's SVG right after its
// canvas, where the style sheet lays it over the canvas until the page has drawn it; and the
// inputs' values. With JavaScript off the page then reads: figures, tables and charts of the
// default scenario, with the inputs that make it.
//
//   import { prerender, injectPrerender } from './prerender.mjs'
//
// post-build.mjs calls prerender(dir) before minifying index.html.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const gz = (s) => gzipSync(Buffer.from(s), { level: constants.Z_BEST_COMPRESSION }).length;

/** The fragments of the default scenario's first view, from the CLI. */
export function fragments() {
  const out = execFileSync('cargo', ['run', '--quiet', '--bin', 'scaling', '--', 'prerender'],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out);
}

/** Writes `frags` into `html`; an id that is missing, or not empty for an `inside` piece, is an error. */
export function injectPrerender(html, frags) {
  let out = html;
  // What goes after or at the end of an element first, while the elements to fill are empty.
  const order = { after: 0, append: 1, inside: 2, value: 3, 'value-text': 4 };
  for (const f of [...frags].sort((a, b) => order[a.place] - order[b.place])) {
    const open = `<([a-z]+)\\b[^>]*\\bid="${escapeRe(f.id)}"[^>]*>`;
    if (f.place === 'value' || f.place === 'value-text') {
      out = setControl(out, f);
    } else if (f.place === 'append') {
      const re = new RegExp(`(${open}[\\s\\S]*?)(</\\2>)`);
      if (!re.test(out)) throw new Error(`prerender: no #${f.id} in index.html`);
      out = out.replace(re, (_, start, _tag, end) => start + f.html + end);
    } else if (f.place === 'inside') {
      const re = new RegExp(`(${open})(</\\2>)`);
      if (!re.test(out)) throw new Error(`prerender: #${f.id} is not an empty element of index.html`);
      out = out.replace(re, (_, start, _tag, end) => start + f.html + end);
    } else {
      const re = new RegExp(`(${open}(?:</\\2>)?)`);
      if (!re.test(out)) throw new Error(`prerender: no #${f.id} in index.html`);
      out = out.replace(re, (element) => element + f.html);
    }
  }
  return out;
}

/**
 * A control's value (`value`: a box's value attribute, a menu's selected option, a checkbox
 * checked for "1"; a text area must stay empty) or a slider's spoken value (`value-text`), as
 * the page's start writes them (crates/web/src/inputs.rs). A key the page has no control for
 * (the view, the language…) is skipped, as the page skips it.
 */
function setControl(html, f) {
  const re = new RegExp(`<(input|textarea|select)\\b[^>]*\\bid="${escapeRe(f.id)}"[^>]*>`);
  const m = re.exec(html);
  if (!m) return html;
  const [tag, name] = m;
  const at = m.index + tag.length - 1; // before the open tag's '>'
  const add = (attr) => html.slice(0, at) + attr + html.slice(at);
  if (f.place === 'value-text') {
    if (/\baria-valuetext=/.test(tag)) throw new Error(`prerender: #${f.id} already has an aria-valuetext in index.html`);
    return add(` aria-valuetext="${f.html}"`);
  }
  if (/\b(value|checked)[= >]/.test(tag)) throw new Error(`prerender: #${f.id} already has a value in index.html`);
  if (name === 'textarea') {
    if (f.html !== '') throw new Error(`prerender: #${f.id} is a text area; its text "${f.html}" is not written at build time`);
    return html;
  }
  if (name === 'select') {
    const end = html.indexOf('</select>', at);
    const body = html.slice(at, end);
    const option = new RegExp(`<option value="${escapeRe(f.html)}"`);
    if (!option.test(body)) {
      // The preset menu's options are written by the page; its default is the first, empty one.
      if (f.html === '') return html;
      throw new Error(`prerender: #${f.id} has no option "${f.html}"`);
    }
    return html.slice(0, at) + body.replace(option, (o) => `${o} selected`) + html.slice(end);
  }
  if (/\btype="checkbox"/.test(tag)) return f.html === '1' ? add(' checked') : html;
  return add(` value="${f.html}"`);
}

/** Prerenders dir/index.html; returns its gzipped bytes before and after. */
export function prerender(dir) {
  const indexPath = path.join(dir, 'index.html');
  const before = readFileSync(indexPath, 'utf8');
  const after = injectPrerender(before, fragments());
  writeFileSync(indexPath, after);
  return { before: gz(before), after: gz(after) };
}
