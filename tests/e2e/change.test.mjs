// 3. Changing an input redraws the chart, rewrites the table and the URL.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  openSession, waitReady, assertClean, canvasStats, tableData, waitCanvasChange, waitForSearch, waitFor, TIMEOUT,
} from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const SPEEDUP = '#laws-speedup-canvas';
const TABLE = '#laws-speedup-table table';

test('typing f = 0.2 changes the speedup chart, its table and the URL', async () => {
  const page = await s.newPage();
  await page.goto(s.url);
  await waitReady(page);
  const before = await canvasStats(page, SPEEDUP);
  const tableBefore = await tableData(page, TABLE);
  assert.ok(before.hash, 'speedup canvas has pixels');

  await page.fill('#f-input', '0.2');
  const after = await waitCanvasChange(page, SPEEDUP, before.hash);
  assert.notEqual(after.hash, before.hash);
  await page.waitForFunction(
    ([sel, text]) => document.querySelector(sel)?.textContent !== text,
    [TABLE, tableBefore.text],
    { timeout: TIMEOUT, polling: 50 },
  );
  const tableAfter = await tableData(page, TABLE);
  assert.notDeepEqual(tableAfter.rows, tableBefore.rows, 'table rows changed');
  await waitForSearch(page, 'f', '0.2');
  assert.match(await page.evaluate(() => location.search), /(^\?|&)f=0\.2(&|$)/);
  assert.equal(await page.locator('#f-msg').textContent().then((t) => t.trim()), '', '#f-msg stays empty for a valid value');
  assertClean(assert, page, 'after typing f');
});

test('moving the f slider with the keyboard updates #f-input and the URL', async () => {
  const page = await s.newPage();
  await page.goto(s.url);
  await waitReady(page);
  const inputBefore = await page.locator('#f-input').inputValue();
  const rangeBefore = await page.locator('#f-range').inputValue();
  const searchBefore = await page.evaluate(() => location.search);
  const canvasBefore = await canvasStats(page, SPEEDUP);

  const state = () => page.evaluate(() => JSON.stringify({
    range: document.querySelector('#f-range').value,
    input: document.querySelector('#f-input').value,
    search: location.search,
  }));
  await page.focus('#f-range');
  const trail = [];
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('ArrowRight');
    trail.push(await state());
  }
  const explain = async () => `after each ArrowRight: ${trail.join(' ')}; now ${await state()}`;
  await waitFor(page, (v) => document.querySelector('#f-range').value !== v, rangeBefore,
    `#f-range to move from position ${rangeBefore}`, explain);
  await waitFor(page, (v) => document.querySelector('#f-input').value !== v, inputBefore,
    `#f-input to change from ${inputBefore}`, explain);
  const inputAfter = await page.locator('#f-input').inputValue();
  // The URL carries the new f (throttled replaceState: poll for it).
  await page.waitForFunction(
    ([old, f]) => location.search !== old && new URLSearchParams(location.search).get('f') === f,
    [searchBefore, inputAfter],
    { timeout: TIMEOUT, polling: 50 },
  );
  await waitCanvasChange(page, SPEEDUP, canvasBefore.hash);
  assert.notEqual(inputAfter, inputBefore);
  assert.ok(Number.isFinite(Number(inputAfter)) || /%$/.test(inputAfter), `#f-input shows a number: ${inputAfter}`);
  assertClean(assert, page, 'after slider');
});
