// The first view written at build time (issue 24, item 1; src/panel/prerender.rs): runs
// `scaling prerender` (the same crate as the page, built natively) and writes its fragments
// into index.html at the ids the page itself writes to — the default scenario's key figures,
// tables and chart summaries inside their (empty) elements, each chart's SVG right after its
// canvas, where the style sheet lays it over the canvas until the page has drawn it. With
// JavaScript off the page then reads: figures, tables and charts of the default scenario.
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
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
  const order = { after: 0, append: 1, inside: 2 };
  for (const f of [...frags].sort((a, b) => order[a.place] - order[b.place])) {
    const open = `<([a-z]+)\\b[^>]*\\bid="${escapeRe(f.id)}"[^>]*>`;
    if (f.place === 'append') {
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

/** Prerenders dir/index.html; returns its gzipped bytes before and after. */
export function prerender(dir) {
  const indexPath = path.join(dir, 'index.html');
  const before = readFileSync(indexPath, 'utf8');
  const after = injectPrerender(before, fragments());
  writeFileSync(indexPath, after);
  return { before: gz(before), after: gz(after) };
}
