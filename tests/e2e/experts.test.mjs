// The experts' TP degree (etp; docs/model/12-walls.md §12.2): whole experts (etp=1) hold the
// routed experts over PP·EP only, so a GPU's memory rises by their share; a degree that does not
// divide TP is refused with a message naming the key, and the last valid value stays.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  openSession, waitReady, assertClean, waitForSearch, waitFor, strongMemoryGiB, openGroupOf,
} from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

test('whole experts hold the experts over EP alone; an ETP that does not divide TP is refused', async () => {
  const page = await s.newPage();
  // Mixtral 8x7B on TP 2 with EP 4, ZeRO-1, 64 GPUs (D = 32).
  const base = 'v=1&view=strong&mach=h100&cm=physics&em=fsdp&nl=32&hd=4096&nh=32&kvh=8&ffn=14336'
    + '&voc=32000&ne=8&ke=2&sq=4096&p=46.7B&pa=12.9B&b=4194304&mbs=1&tp=2&pp=1&ep=4&zero=1&ns=64&n0=64';
  await page.goto(`${s.url}?${base}`);
  await waitReady(page);
  const memory = () => strongMemoryGiB(page);
  const split = await memory();
  // The control sits in a closed group, as a reader finds it.
  await openGroupOf(page, 'etp');
  await page.fill('#etp-input', '1');
  await page.press('#etp-input', 'Enter');
  await waitForSearch(page, 'etp', '1');
  await waitFor(page, (b) => {
    const t = window.__e2e.tableData('#strong-table table');
    const col = t.headers.indexOf('memory/GPU (GiB)');
    return parseFloat(t.rows[0][col].replace(/,/g, '')) > b;
  }, split, 'the memory to rise', () => memory());
  const whole = await memory();
  // By hand: the experts' 46.7B · 45,097,156,608/46,701,477,888 parameters over EP 4 instead of
  // TP 2 · EP 4, 5.637e9 more a GPU, at 2 + 2 + 12/32 bytes each: 24.66e9 B = 22.97 GiB.
  assert.ok(Math.abs(whole - split - 22.97) < 0.1, `whole experts: ${split} → ${whole} GiB`);
  assert.equal((await page.locator('#etp-msg').textContent()).trim(), '');
  await page.fill('#etp-input', '3');
  await page.press('#etp-input', 'Enter');
  await waitFor(page, () => document.querySelector('#etp-msg')?.textContent.includes('does not divide'),
    null, 'the ETP message', () => page.locator('#etp-msg').textContent());
  assert.match((await page.locator('#etp-msg').textContent()).trim(), /ETP 3 does not divide the TP degree 2/);
  const query = new URLSearchParams(await page.evaluate(() => location.search));
  assert.equal(query.get('etp'), '1', 'the last valid degree stays in the link');
  assert.equal(await memory(), whole, 'and in the table');
  await assertClean(assert, page, 'after whole experts and a refused degree');
});
