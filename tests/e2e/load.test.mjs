// 2. Load: the page starts, draws all three charts and logs no error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  openSession, waitReady, assertClean, assertCanvasesDrawn, tableData, DIST, assertDist,
} from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

test('/ becomes ready, draws every canvas, fills the tables, no errors', async () => {
  const page = await s.newPage();
  const response = await page.goto(s.url);
  assert.equal(response.status(), 200);
  await waitReady(page);
  await assertCanvasesDrawn(assert, page);
  for (const sel of ['#laws-speedup-table table', '#laws-efficiency-table table']) {
    const t = await tableData(page, sel);
    assert.ok(t, `${sel} missing`);
    assert.ok(t.headers.length >= 2, `${sel}: headers ${JSON.stringify(t.headers)}`);
    assert.ok(t.rows.length >= 2, `${sel}: ${t.rows.length} rows`);
  }
  const figures = await page.locator('#laws-figures').textContent();
  assert.ok(figures.trim().length > 0, '#laws-figures is empty');
  assert.equal(await page.locator('#f-input').inputValue(), '0.05', 'default f');
  await assertClean(assert, page, '/');
});

test('index.html declares an icon (else Chromium logs a /favicon.ico 404 console error)', () => {
  assertDist();
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  assert.match(html, /<link\b[^>]*\brel=["']?(shortcut )?icon\b/i,
    'add e.g. <link rel="icon" href="data:,"> (or a real icon) to www/index.html');
});
