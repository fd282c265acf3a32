// Compare: "Pin as A", then tick the fp8 lever for B. Every chart of the
// panel redraws with both, every table has B / A / Δ rows, the key figures show both, the link
// carries A in `pin=` and reopens the same page; "Unpin A" drops it; the CLI's --compare prints
// the same rows as the pinned page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  openSession, waitReady, assertClean, canvasStats, tableData, waitCanvasChange, waitForSearch, waitFor, REPO,
} from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const START = 'v=1&preset=seed-strong&view=plan';
const PINNED = 'v=1&preset=seed-strong&view=plan&lv=fp8&pin=v%3D1%26preset%3Dseed-strong';
const PLAN_CANVASES = ['#plan-ttq-canvas', '#plan-gpu-hours-canvas'];
const STRONG_CANVASES = ['#strong-step-canvas', '#strong-efficiency-canvas', '#strong-throughput-canvas', '#strong-boxes-canvas'];

const text = (page, sel) => page.evaluate((q) => document.querySelector(q)?.textContent ?? '', sel);

/**
 * Every body row of the table is B, A, Δ in turn, and (`differs`) some Δ cell holds a signed
 * percent. (The lever table compares each lever against the inputs as typed, which fp8 does
 * not change: its Δ rows read 0%.)
 */
async function assertTriplets(page, id, differs = true) {
  const t = await tableData(page, `#${id}-table table`);
  assert.ok(t, `#${id}-table has a table`);
  assert.equal(t.headers[0], 'scenario', `${id}: first header`);
  assert.ok(t.rows.length >= 3 && t.rows.length % 3 === 0, `${id}: ${t.rows.length} rows`);
  t.rows.forEach((r, i) => assert.equal(r[0], ['B', 'A', 'Δ'][i % 3], `${id}: row ${i} is ${r[0]}`));
  if (differs) assert.ok(t.rows.some((r) => r[0] === 'Δ' && r.some((c) => /^[+-]\d/.test(c))), `${id}: a Δ row with a difference`);
  return t;
}

test('pin as A, tick fp8: every chart and table shows A and B; the link round-trips; unpin', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?${START}`);
  await waitReady(page);
  assert.ok(await page.isHidden('#unpin-a'), 'Unpin A is hidden while nothing is pinned');
  assert.ok(await page.isHidden('#pin-status'));
  const before = {};
  for (const c of PLAN_CANVASES) before[c] = (await canvasStats(page, c)).hash;

  await page.click('#pin-a');
  await waitForSearch(page, 'pin', 'v=1&preset=seed-strong');
  await waitFor(page, () => document.querySelector('#pin-status')?.textContent === 'Comparing with A: the same inputs',
    null, '#pin-status after pinning', () => text(page, '#pin-status'));
  const pinned = {};
  // A's faded curves and the "(A)"/"(B)" legend appear.
  for (const c of PLAN_CANVASES) pinned[c] = (await waitCanvasChange(page, c, before[c])).hash;

  await page.check('#lv-fp8');
  await waitForSearch(page, 'lv', 'fp8');
  for (const c of PLAN_CANVASES) await waitCanvasChange(page, c, pinned[c]);
  assert.equal(await page.evaluate(() => location.search), `?${PINNED}`);
  await waitFor(page, () => document.querySelector('#pin-status')?.textContent === 'Comparing with A: lv=(no levers)',
    null, '#pin-status after fp8', () => text(page, '#pin-status'));
  assert.ok(await page.isVisible('#unpin-a'));
  await assertTriplets(page, 'plan');
  await assertTriplets(page, 'levers', false);
  assert.match(await text(page, '#plan-figures'), /\(A: /);
  assert.match(await text(page, '#cli-command'),
    /^scaling plan --query 'v=1&preset=seed-strong' --compare 'v=1&preset=seed-strong&lv=fp8'$/);

  // The strong panel of the same state: every chart drawn, the table tripled.
  await page.click('#tab-strong');
  await waitFor(page, () => (document.querySelector('#strong-table table')?.tBodies[0]?.rows.length ?? 0) === 12,
    null, 'the strong table in triplets', () => text(page, '#strong-table'));
  const strong = await assertTriplets(page, 'strong');
  assert.equal(strong.rows[11][0], 'Δ');
  assert.ok(strong.rows[11].includes('-28.1%'), `Δ step at 16,384 GPUs: ${strong.rows[11]}`);
  for (const c of STRONG_CANVASES) assert.ok((await canvasStats(page, c)).fraction > 0.02, `${c} drawn`);

  // The link reopens the same comparison.
  // seed-strong opens on the strong panel, so the link drops view=.
  await waitFor(page, () => location.search === '?v=1&preset=seed-strong&lv=fp8&pin=v%3D1%26preset%3Dseed-strong',
    null, 'the link of the strong panel', () => page.evaluate(() => location.search));
  const link = page.url();
  const again = await s.newPage();
  await again.goto(link);
  await waitReady(again);
  assert.ok(await again.isChecked('#lv-fp8'));
  assert.equal(await text(again, '#pin-status'), 'Comparing with A: lv=(no levers)');
  assert.deepEqual((await tableData(again, '#strong-table table')).rows, strong.rows);
  assert.equal(await again.evaluate(() => location.search), await page.evaluate(() => location.search));

  // Unpin: A leaves the link, the tables and the charts.
  const hash = (await canvasStats(again, '#strong-step-canvas')).hash;
  await again.click('#unpin-a');
  await waitFor(again, () => !new URLSearchParams(location.search).has('pin'), null, 'pin= to leave the link',
    () => again.evaluate(() => location.search));
  await waitCanvasChange(again, '#strong-step-canvas', hash);
  await waitFor(again, () => (document.querySelector('#strong-table table')?.tBodies[0]?.rows.length ?? 0) === 4,
    null, 'the strong table without A', () => text(again, '#strong-table'));
  assert.ok(await again.isHidden('#unpin-a'));
  assert.ok(await again.isHidden('#pin-status'));
  await assertClean(assert, page, 'pinned page');
  await assertClean(assert, again, 'reopened and unpinned page');
});

test("scaling strong --compare prints the pinned page's table cell by cell", async () => {
  const out = execFileSync(
    'cargo',
    ['run', '--quiet', '--bin', 'scaling', '--', 'strong', '--preset', 'seed-strong',
      '--compare', 'v=1&preset=seed-strong&lv=fp8', '--format', 'json'],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const json = JSON.parse(out);
  assert.equal(json.compare.a.query, 'v=1&preset=seed-strong');
  const page = await s.newPage();
  await page.goto(`${s.url}?${json.query}`);
  await waitReady(page);
  const web = await tableData(page, '#strong-table table');
  const cli = json.tables.find((t) => t.id === 'strong');
  assert.deepEqual(web.headers, cli.headers);
  assert.deepEqual(web.rows, cli.rows);
  await assertClean(assert, page, `?${json.query}`);
});
