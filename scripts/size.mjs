// What the prerendered first view adds to index.html, gzipped: the page's size budget counts
// it apart (BUDGET for the rest, PRERENDER_BUDGET for it). Shared by the size test
// (tests/e2e/size.test.mjs, where both budgets are), which is the gate, and `make bench`,
// which prints it.
//
//   import { prerenderedBytes } from './size.mjs'

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { minifyHtml } from './post-build.mjs';
import { fragments, escapeRe } from './prerender.mjs';

const gz = (s) => gzipSync(Buffer.from(s), { level: constants.Z_BEST_COMPRESSION }).length;

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
