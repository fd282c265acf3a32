// 3. Changing an input redraws the chart, rewrites the table and the URL. "Redraws" means the
// canvas's pixels change (their hash before and after), not only that some pixels are inked.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  openSession, waitReady, assertClean, canvasStats, tableData, waitCanvasChange, waitForSearch, waitFor, TIMEOUT,
} from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const SPEEDUP = '#laws-speedup-canvas';
const EFFICIENCY = '#laws-efficiency-canvas';
const KARP_FLATT = '#laws-karp-flatt-canvas';
const TABLE = '#laws-speedup-table table';

test('typing f = 0.2 changes the speedup chart, its table and the URL', async () => {
  const page = await s.newPage();
  await page.goto(s.url);
  await waitReady(page);
  const before = await canvasStats(page, SPEEDUP);
  const effBefore = await canvasStats(page, EFFICIENCY);
  const tableBefore = await tableData(page, TABLE);
  assert.ok(before.hash, 'speedup canvas has pixels');
  assert.ok(effBefore.hash, 'efficiency canvas has pixels');

  await page.fill('#f-input', '0.2');
  const after = await waitCanvasChange(page, SPEEDUP, before.hash);
  assert.notEqual(after.hash, before.hash);
  assert.ok(after.fraction > 0.02, `speedup chart still drawn after the change: ${JSON.stringify(after)}`);
  // S(N) and E(N) both depend on f: the efficiency chart is redrawn too.
  const effAfter = await waitCanvasChange(page, EFFICIENCY, effBefore.hash);
  assert.ok(effAfter.fraction > 0.02, `efficiency chart still drawn after the change: ${JSON.stringify(effAfter)}`);
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
  await assertClean(assert, page, 'after typing f');
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
  await assertClean(assert, page, 'after slider');
});

test('pasting measured points into #m-input redraws the Karp–Flatt chart and writes m to the URL', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1');
  await waitReady(page);
  const before = await canvasStats(page, KARP_FLATT);
  assert.ok(before.found && before.hash, `Karp–Flatt canvas has pixels: ${JSON.stringify(before)}`);

  await page.fill('#m-input', '1 100\n2 52\n4 28\n8 16');
  const after = await waitCanvasChange(page, KARP_FLATT, before.hash);
  assert.ok(after.fraction > 0.02, `Karp–Flatt chart drawn with the points: ${JSON.stringify(after)}`);
  await waitFor(page, () => new URLSearchParams(location.search).has('m'), null, 'm to reach the URL',
    async () => page.evaluate(() => location.search));
  assert.equal((await page.locator('#m-msg').textContent()).trim(), '', '#m-msg stays empty for four valid points');
  await assertClean(assert, page, 'after pasting points');
});
