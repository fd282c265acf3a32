// Calibrate, then predict: a reader opens the measured Megatron-Core preset, sees the
// fit, its predictions and errors and the measured points; follows the link to Amdahl's law at
// the fitted serial fraction; pastes a sweep of their own; and is told, next to `st`, when it
// cannot be fitted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, tableData, waitFor, assertClean, canvasStats, TIMEOUT } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

test('preset=megatron-177b-h100: 8 measured points, 6 predicted within 1.1%, the source, MFU and f', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&preset=megatron-177b-h100`);
  await waitReady(page);
  const fit = await tableData(page, '#strong-fit-table table');
  assert.ok(fit, 'a fit table');
  assert.equal(fit.rows.length, 8, JSON.stringify(fit.rows));
  assert.equal(fit.rows.filter((r) => r[1] === '✓').length, 2, 'fitted on two points');
  const errors = fit.rows.filter((r) => r[1] !== '✓').map((r) => Math.abs(parseFloat(r[4])));
  assert.ok(errors.every((e) => e <= 1.1), `predictions within 1.1%: ${errors}`);
  const figures = await page.evaluate(() => document.getElementById('strong-figures').textContent);
  assert.match(figures, /MFU 47(\.\d)?%/, figures);
  assert.match(figures, /0\.25%/, `serial fraction K/t(N₀): ${figures}`);
  assert.match(await page.evaluate(() => document.getElementById('strong-source').textContent), /Megatron-LM/);
  assert.ok((await canvasStats(page, '#strong-step-canvas')).fraction > 0.01, 'the step chart is drawn');

  // The Amdahl reading of K: the link opens the Laws panel at f = K / t(N₀).
  const href = await page.evaluate(() => document.getElementById('strong-fit-laws').getAttribute('href'));
  assert.match(href ?? '', /view=laws&f=0\.00248/);
  await Promise.all([page.waitForNavigation(), page.click('#strong-fit-laws')]);
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.getElementById('f-input').value), '0.00248');
  assert.equal(await page.evaluate(() => document.getElementById('panel-laws').hidden), false);
  await assertClean(assert, page, 'megatron preset');
  await page.close();
});

test('preset=mlperf-gpt3-175b-h100: the Plan panel shows weak scaling 4,096 → 8,192 at a flat step but 1.81x to quality, with its source', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&preset=mlperf-gpt3-175b-h100`);
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.getElementById('panel-plan').hidden), false, 'opens on the Plan panel');
  const figures = await page.evaluate(() => document.getElementById('plan-figures').textContent);
  assert.match(figures, /4,096 → 8,192 GPUs \(2x\)/, figures);
  assert.match(figures, /1\.81x — true efficiency 90\.6%/, figures);
  const source = await page.evaluate(() => document.getElementById('plan-source').textContent);
  assert.match(source, /^Source: mlcommons\/training_results_v3\.1/, source);
  assert.match(source, /99\.4% weak efficiency/, source);
  const plan = await tableData(page, '#plan-table table');
  assert.deepEqual(plan.rows.map((r) => r[0]), ['4,096', '6,144', '8,192']);
  await assertClean(assert, page, 'mlperf preset');
  await page.close();
});

test('preset=dgxc-gpt3-175b-bf16 / -fp8: the Weak panel fits 128 and 2,048 GPUs, predicts 3, cites the source; FP8 exposes a larger share', async () => {
  const page = await s.newPage();
  const shares = [];
  for (const [dtype, maxError] of [['bf16', 0.7], ['fp8', 1.0]]) {
    await page.goto(`${s.url}?v=1&preset=dgxc-gpt3-175b-${dtype}`);
    await waitReady(page);
    assert.equal(await page.evaluate(() => document.getElementById('panel-weak').hidden), false, 'opens on the Weak panel');
    const fit = await tableData(page, '#weak-fit-table table');
    assert.ok(fit, `${dtype}: a fit table`);
    assert.deepEqual(fit.rows.map((r) => r[0]), ['128', '256', '512', '1,024', '2,048']);
    assert.deepEqual(fit.rows.filter((r) => r[1] === '✓').map((r) => r[0]), ['128', '2,048'], 'fitted on the end points');
    const errors = fit.rows.filter((r) => r[1] !== '✓').map((r) => Math.abs(parseFloat(r[4])));
    assert.ok(errors.every((e) => e <= maxError), `${dtype}: predictions within ${maxError}%: ${errors}`);
    const figures = await page.evaluate(() => document.getElementById('weak-figures').textContent);
    assert.match(figures, /Prediction error/, figures);
    const share = figures.match(/→ [\d.,]+ ms \(([\d.]+)%\)/);
    assert.ok(share, `the exposed share at 2,048 GPUs: ${figures}`);
    shares.push(parseFloat(share[1]));
    const source = await page.evaluate(() => document.getElementById('weak-source').textContent);
    assert.match(source, /^Source: NVIDIA\/dgxc-benchmarking/, source);
    assert.ok((await canvasStats(page, '#weak-step-canvas')).fraction > 0.01, 'the step chart is drawn');
    await assertClean(assert, page, `dgxc ${dtype} preset`);
  }
  // 271.5 ms of 8,490 (3.2%) against 501 ms of 5,960 (8.4%).
  assert.ok(shares[1] > 2 * shares[0], `FP8 exposes a larger share: ${shares}`);
  await page.close();
});

test('em=fit on a pasted sweep predicts every GPU count; an unfittable one is refused next to st', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&view=strong&n0=96&ns=96,192,384,768&em=fit&st=96:1050,192:550,384:300`);
  await waitReady(page);
  // W = 96,000 ms·GPU, K = 50 ms: 768 GPUs (not measured) is predicted at 125 + 50 ms.
  const strong = await tableData(page, '#strong-table table');
  const row = strong.rows.find((r) => r[0] === '768');
  assert.ok(row, JSON.stringify(strong.rows));
  assert.ok(row.includes('175'), `t(768) = 175 ms: ${JSON.stringify(row)}`);
  // Step times that do not fall: refused, named, the last valid sweep kept. (The input sits in
  // the closed "Step-time model" group: open it as a reader would.)
  await page.evaluate(() => document.querySelector('[data-key="st"]').closest('details').open = true);
  await page.fill('#st-input', '96:1050\n192:1100');
  await waitFor(page, () => document.getElementById('st-msg').textContent.length > 0, null, 'a message under st');
  const msg = await page.evaluate(() => document.getElementById('st-msg').textContent);
  assert.match(msg, /\(st\)/, msg);
  assert.match(msg, /fall/, msg);
  const again = await tableData(page, '#strong-table table');
  assert.deepEqual(again.rows, strong.rows, 'the table keeps the last valid fit');
  await assertClean(assert, page, 'em=fit');
  await page.close();
});

test('em=step says when a measured step time is below the compute time', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&preset=seed-strong&em=step&st=1024:1000,16384:50`);
  await waitReady(page);
  await waitFor(page, () => document.getElementById('st-note').textContent.includes('16,384'), null, 'a note under st',
    () => page.evaluate(() => document.getElementById('st-note').textContent), TIMEOUT);
  await assertClean(assert, page, 'em=step clamp');
  await page.close();
});
