// The byte budgets of what a reader downloads, and what the prerendered first view adds to
// index.html, gzipped: the page's size budget counts it apart (BUDGETS.english for the rest,
// BUDGETS.prerendered for it). Shared by the size test (tests/e2e/size.test.mjs, which says
// what each budget holds), which is the gate, and `make bench`, which prints the sizes and
// writes them into docs/performance.md.
//
//   import { BUDGETS, prerenderedBytes, lazySizes } from './size.mjs'

import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { minifyHtml } from './post-build.mjs';
import { fragments, escapeRe } from './prerender.mjs';

const gz = (s) => gzipSync(Buffer.from(s), { level: constants.Z_BEST_COMPRESSION }).length;

/** Bytes gzipped at level 9 (docs/performance.md, "Targets and their gates"). */
export const BUDGETS = Object.freeze({
  english: 250_000,
  prerendered: 20_000,
  firstPaint: 40_000,
  zhTotal: 268_000,
  zhCatalogue: 24_000,
  learn: 36_000,
  runs: 209_000,
  full: 238_000,
});

/** The files of dist/ that no first view downloads, by name. */
export const isCatalogue = (f) => /^zh-[0-9a-f]+\.txt$/.test(f);
export const isLearn = (f) => /^learn-(en|zh)-[0-9a-f]+\.html$/.test(f);
export const isRuns = (f) => /^runs-[0-9a-f]+(_loader\.js|\.js|_bg\.wasm)$/.test(f);
export const isFull = (f) => /^full-[0-9a-f]+(_loader\.js|\.js|_bg\.wasm)$/.test(f);

/**
 * The lazily fetched files of `dist`, gzipped: each Learn file by language, and the full and
 * the runs module (loader, JS and wasm together), as the size test counts them.
 */
export function lazySizes(dist) {
  const files = readdirSync(dist);
  const size = (f) => gzipSync(readFileSync(path.join(dist, f)), { level: constants.Z_BEST_COMPRESSION }).length;
  const sum = (pick) => files.filter(pick).reduce((a, f) => a + size(f), 0);
  const learn = {};
  for (const f of files.filter(isLearn)) learn[/^learn-(en|zh)-/.exec(f)[1]] = size(f);
  return { learn, full: sum(isFull), runs: sum(isRuns) };
}

/**
 * index.html without a prerendered input value (scripts/prerender.mjs, setControl): the
 * attribute it added to the element `f.id` — `value`, `aria-valuetext`, `checked`, or a menu's
 * `selected` option. Nothing for what setControl leaves alone (no such element, an empty text
 * area, an unticked checkbox, the preset menu's empty default).
 */
function withoutControl(html, f) {
  const m = new RegExp(`<(input|textarea|select)\\b[^>]*\\bid="${escapeRe(f.id)}"[^>]*>`).exec(html);
  if (!m || m[1] === 'textarea') return html;
  const [tag, name] = m;
  const end = m.index + tag.length;
  const cut = (from, to, piece) => {
    const i = html.indexOf(piece, from);
    assert.ok(i >= 0 && i < to, `index.html holds the prerendered ${piece.trim()} of #${f.id}`);
    return html.slice(0, i) + html.slice(i + piece.length);
  };
  if (f.place === 'value-text') return cut(m.index, end, ` aria-valuetext="${f.html}"`);
  if (name === 'select') {
    const close = html.indexOf('</select>', end);
    const option = `<option value="${f.html}" selected`;
    if (!html.slice(end, close).includes(option)) {
      assert.equal(f.html, '', `#${f.id} has its option "${f.html}" selected`);
      return html;
    }
    return cut(end, close, ' selected');
  }
  if (/\btype="checkbox"/.test(tag)) return f.html === '1' ? cut(m.index, end, ' checked') : html;
  return cut(m.index, end, ` value="${f.html}"`);
}

/** What the prerendered fragments add to index.html, gzipped: the page with and without them. */
export function prerenderedBytes(dist) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  let bare = html;
  for (const f of fragments()) {
    if (f.place === 'value' || f.place === 'value-text') {
      bare = withoutControl(bare, f);
      continue;
    }
    const piece = minifyHtml(f.html);
    assert.ok(bare.includes(piece), `index.html holds the prerendered #${f.id}`);
    bare = bare.replace(piece, '');
  }
  return gz(html) - gz(bare);
}
