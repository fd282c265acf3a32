// 4. A URL restores its scenario: on load, on reload and in a new page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, assertCanvasesDrawn, tableData } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const QUERY = '?v=1&f=0.1&n=65536';

async function state(page) {
  return {
    f: await page.locator('#f-input').inputValue(),
    n: await page.locator('#n-input').inputValue(),
    figures: (await page.locator('#laws-figures').textContent()).replace(/\s+/g, ' ').trim(),
    speedup: await tableData(page, '#laws-speedup-table table'),
    efficiency: await tableData(page, '#laws-efficiency-table table'),
  };
}

function checkState(st, label) {
  assert.equal(st.f, '0.1', `${label}: #f-input`);
  assert.equal(st.n, '65536', `${label}: #n-input`);
  assert.match(st.figures, /(^|[^0-9.])10(\.0+)?\s?x/, `${label}: #laws-figures mentions the 10x Amdahl ceiling: ${st.figures}`);
  assert.ok(st.speedup && st.speedup.rows.length > 0, `${label}: speedup table has rows`);
  assert.match(st.speedup.rows[0][0], /^1(\D|$)/, `${label}: first row starts with N = 1: ${JSON.stringify(st.speedup.rows[0])}`);
}

test(`${QUERY} restores f and N, survives reload and opens the same in a new page`, async () => {
  const page = await s.newPage();
  await page.goto(s.url + QUERY);
  await waitReady(page);
  const first = await state(page);
  checkState(first, 'first load');
  await assertCanvasesDrawn(assert, page);
  await assertClean(assert, page, 'first load');

  await page.reload();
  await waitReady(page);
  const reloaded = await state(page);
  checkState(reloaded, 'reload');
  assert.deepEqual(reloaded, first, 'reload shows the same state');

  // The address bar as the page left it (it may have normalised the query) opens the same.
  const url = page.url();
  const other = await s.newPage();
  await other.goto(url);
  await waitReady(other);
  const fresh = await state(other);
  checkState(fresh, 'new page');
  assert.deepEqual(fresh.speedup, first.speedup, 'new page: same speedup table');
  assert.deepEqual(fresh.efficiency, first.efficiency, 'new page: same efficiency table');
  assert.equal(fresh.figures, first.figures, 'new page: same key figures');
  await assertClean(assert, other, 'new page');
  await assertClean(assert, page, 'first page, after its reload');
});
