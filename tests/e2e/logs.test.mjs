// Training logs into "Your run" (docs/import.md, "Training logs"): two real NeMo logs of one
// model at 16 and 32 GPUs, dropped together, become the Strong panel's measured points, fitted,
// with a third count (64) predicted; the link restores it; the same in Chinese through the file
// input; a pair at one GPU count is refused naming both files, and nothing changes. The logs
// are ../shared/fixtures/logs (or $SCALING_FIXTURES/logs); without them the tests skip.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { openSession, waitReady, waitForSearch, waitFor, waitQuiet, assertClean, tableData, REPO } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const LOGS = path.join(process.env.SCALING_FIXTURES ?? path.join(REPO, '../shared/fixtures'), 'logs');
const NO_LOGS = existsSync(path.join(LOGS, 'expected.json')) ? false : `skipped: no ${LOGS}/expected.json (the logs beside the project)`;
const A = 'nemo/qwen3-30b-a3b_a.log';
const B = 'nemo/qwen3-30b-a3b_b.log';
const text = (name) => readFileSync(path.join(LOGS, name), 'utf8');

const params = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
const report = (page) => page.evaluate(() => ({
  message: document.getElementById('import-msg').textContent,
  format: document.getElementById('import-format').textContent,
  items: [...document.querySelectorAll('#import-list li')].map((li) => ({ kind: li.className, text: li.textContent })),
}));

async function open(query) {
  const page = await s.newPage();
  await page.goto(`${s.url}${query}`);
  await waitReady(page);
  await page.click('#runs > summary');
  await waitFor(page, () => document.querySelectorAll('#shape-input option').length > 1, null, 'the runs module');
  await waitQuiet(page, 'the first frame and its address write');
  return page;
}

/** Drops `files` ({name, text}) onto the text area together, as a reader drags them. */
async function drop(page, files) {
  await page.evaluate((list) => {
    const data = new DataTransfer();
    for (const f of list) data.items.add(new File([f.text], f.name, { type: 'text/plain' }));
    const area = document.getElementById('import-text');
    area.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    area.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, files);
}

// W/16 + K = 3931.1 and W/32 + K = 2025.8 ms: W = 60,969.6 ms·GPU, K = 120.5 ms, so 64 GPUs
// (not measured) are predicted at 952.65 + 120.5 = 1,073.15 ms.
const MEASURED = { view: 'strong', st: '16:3931.1,32:2025.8', em: 'fit', n0: '16', ns: '16,32,64', ep: '8', nl: '48' };

async function assertSweep(page, what) {
  const got = await params(page);
  for (const [k, v] of Object.entries(MEASURED)) assert.equal(got[k], v, `${what}: ${k}`);
  const strong = await tableData(page, '#strong-table table');
  const row = strong.rows.find((r) => r[0] === '64');
  assert.ok(row && row.includes('1073.15'), `${what}: t(64) = 1,073.15 ms: ${JSON.stringify(strong.rows)}`);
  const fit = await tableData(page, '#strong-fit-table table');
  assert.deepEqual(fit.rows.map((r) => [r[0], r[2]]), [['16', '3931.1'], ['32', '2025.8']], `${what}: the measured points`);
  return strong;
}

test('two logs of one model dropped together: measured points, the fit, a third count predicted; the link restores it', { skip: NO_LOGS }, async () => {
  const page = await open('?v=1&view=strong');
  await drop(page, [{ name: 'a.log', text: text(A) }, { name: 'b.log', text: text(B) }]);
  await waitForSearch(page, 'em', 'fit');
  await waitQuiet(page, 'the redraw');
  const strong = await assertSweep(page, 'after the drop');
  const r = await report(page);
  assert.equal(r.message, '');
  assert.equal(r.format, 'training logs');
  const measured = r.items.filter((i) => i.kind === 'measured');
  assert.equal(measured.length, 2, JSON.stringify(r.items));
  assert.match(measured[0].text, /^line 2988 · a\.log · train_step_timing in s: step times: median 3931\.09 ms per step over steps 3–20/);
  assert.match(measured[0].text, /16 GPUs/);
  assert.ok(r.items.some((i) => i.kind === 'set' && i.text.includes('a.log · cfg/expert_model_parallel_size: sets Expert parallel EP (ep) = 8')), JSON.stringify(r.items));
  assert.ok((await page.inputValue('#import-text')).startsWith('==> a.log <==\n'), 'the text area shows both files, each named');
  await assertClean(assert, page, 'after the drop');

  const link = page.url();
  await page.goto(link);
  await waitReady(page);
  await waitQuiet(page, 'the reloaded page');
  const again = await assertSweep(page, 'after the reload');
  assert.deepEqual(again.rows, strong.rows, 'the same table from the link');
  await assertClean(assert, page, 'after the reload');
  await page.close();
});

test('the same in Chinese, through the file input', { skip: NO_LOGS }, async () => {
  const page = await open('?v=1&view=strong&lang=zh');
  await page.setInputFiles('#import-file', [path.join(LOGS, B), path.join(LOGS, A)]);
  await waitForSearch(page, 'em', 'fit');
  await waitQuiet(page, 'the redraw');
  await assertSweep(page, 'in Chinese');
  const r = await report(page);
  assert.equal(r.format, '训练日志');
  const measured = r.items.filter((i) => i.kind === 'measured');
  assert.equal(measured.length, 2, JSON.stringify(r.items));
  assert.match(measured[0].text, /单步时间：中位数 3931\.09 ms\/步/);
  assert.match(measured[0].text, /16 卡/);
  await assertClean(assert, page, 'in Chinese');
  await page.close();
});

test('two logs at one GPU count are refused naming both, and nothing changes', { skip: NO_LOGS }, async () => {
  const page = await open('?v=1&view=strong');
  const before = await page.evaluate(() => location.search);
  await drop(page, [{ name: 'a.log', text: text(A) }, { name: 'again.log', text: text(A) }]);
  await waitFor(page, () => document.getElementById('import-msg').textContent !== '', null, 'the refusal');
  const r = await report(page);
  assert.equal(r.message, 'a.log and again.log are both at 16 GPUs: a sweep needs one log per GPU count');
  assert.deepEqual(r.items, []);
  await waitQuiet(page, 'anything the refusal could have set off');
  assert.equal(await page.evaluate(() => location.search), before, 'the link is unchanged');
  await assertClean(assert, page, 'after the refusal');
  await page.close();
});
