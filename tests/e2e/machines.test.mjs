// The machine and precision menus (mach, prec; docs/machines.md): choosing a machine types its
// datasheet values into the hardware boxes and the link says only the machine; a precision the
// machine lacks is refused with a message naming the key, and the last valid values stay; an
// NVL72 rack's 72-GPU domain is taken from a link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  openSession, waitReady, assertClean, waitForSearch, waitFor, strongMemoryGiB, openGroupOf,
} from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const value = (page, id) => page.locator(`#${id}-input`).inputValue();

test('choosing GB200 NVL72 types its datasheet values and the link names the machine', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&view=strong`);
  await waitReady(page);
  await page.selectOption('#mach-input', 'gb200');
  await waitForSearch(page, 'mach', 'gb200');
  // 2,450 TFLOPS BF16, 189,471 MiB, 72 GPUs a domain, 900 GB/s each way of which NCCL's
  // collectives reach 0.8, a 400 Gb/s NIC.
  assert.equal(await value(page, 'peak'), '2.45P');
  assert.equal(await value(page, 'hbm'), '189471Mi');
  assert.equal(await value(page, 'nvd'), '72');
  assert.equal(await value(page, 'bnv'), '720G');
  assert.equal(await value(page, 'beff'), '50G');
  const query = new URLSearchParams(await page.evaluate(() => location.search));
  for (const key of ['peak', 'hbm', 'nvd', 'bnv', 'beff']) {
    assert.equal(query.get(key), null, `${key} follows the machine and stays out of the link`);
  }
  // FP8: the machine's FP8 peak.
  await page.selectOption('#prec-input', 'fp8');
  await waitForSearch(page, 'prec', 'fp8');
  assert.equal(await value(page, 'peak'), '4.9P');
  assert.equal((await page.locator('#mach-msg').textContent()).trim(), '');
  await assertClean(assert, page, 'after choosing a machine and a precision');
});

test('a precision the machine lacks is refused naming the key; the values stay', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&view=strong&mach=b200&prec=nvfp4`);
  await waitReady(page);
  assert.equal(await value(page, 'peak'), '9P');
  await page.selectOption('#mach-input', 'h100');
  await waitFor(
    page,
    () => document.querySelector('#mach-msg')?.textContent.includes('NVFP4'),
    null,
    'the machine message',
    () => page.locator('#mach-msg').textContent(),
  );
  const message = (await page.locator('#mach-msg').textContent()).trim();
  assert.match(message, /H100 SXM has no NVFP4 peak \(its formats: BF16, FP8\)/);
  assert.equal(await value(page, 'peak'), '9P', 'the last valid peak stays');
  const query = new URLSearchParams(await page.evaluate(() => location.search));
  assert.equal(query.get('mach'), 'b200');
  await assertClean(assert, page, 'after a refused machine');
});

test('a link with an NVL72 domain and a bad machine keeps working', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&view=strong&mach=gb300&nvd=72&beff=40G&lang=zh`);
  await waitReady(page);
  assert.equal(await value(page, 'nvd'), '72');
  assert.equal(await value(page, 'beff'), '40G');
  assert.equal(await value(page, 'peak'), '2.45P');
  assert.equal((await page.locator('label[for="mach-input"]').textContent()).trim(), '机型');
  const bad = await s.newPage();
  await bad.goto(`${s.url}?v=1&view=strong&mach=tpu-v5p&nvd=2000`);
  await waitReady(bad);
  // Both refused by name in the link's messages; the defaults stay and the page draws.
  const items = (await bad.locator('#url-messages-list li').allTextContents()).join('\n');
  assert.match(items, /\(mach\)[^\n]*tpu-v5p/);
  assert.match(items, /\(nvd\)[^\n]*2,000/);
  assert.equal(await value(bad, 'nvd'), '8');
  assert.equal(await value(bad, 'mach'), '');
  await assertClean(assert, page, 'an NVL72 link in Chinese');
  await assertClean(assert, bad, 'a link with a bad machine and domain');
});

// Llama 3 70B with FSDP on 64 GB200s, one 16,384-token microbatch a GPU (Megatron-Bridge's
// 25.11 recipe but for the offloading): a layer keeps 32·sbh = 4 GiB, so 40 layers offloaded to
// Grace's memory take exactly 160 GiB off the GPU; a count that is not one is refused naming
// the input, and the last valid count stays.
test('offloading 40 layers of activations to host memory frees their 160 GiB; a bad count is refused', async () => {
  const page = await s.newPage();
  const base = 'v=1&view=strong&mach=gb200&prec=fp8&cm=physics&em=fsdp&nl=80&hd=8192&nh=64&kvh=8&ffn=28672'
    + '&voc=128256&sq=8192&p=70.55B&pa=70.55B&b=1048576&mbs=2&tp=1&pp=1&zero=3&ns=64&n0=64';
  await page.goto(`${s.url}?${base}`);
  await waitReady(page);
  const memory = () => strongMemoryGiB(page);
  const before = await memory();
  assert.ok(before > 300, `all 80 layers on the GPU: ${before} GiB`);
  // The control sits in a closed group, as a reader finds it.
  await openGroupOf(page, 'ofl');
  await page.fill('#ofl-input', '40');
  await page.press('#ofl-input', 'Enter');
  await waitForSearch(page, 'ofl', '40');
  await waitFor(page, (b) => {
    const t = window.__e2e.tableData('#strong-table table');
    const col = t.headers.indexOf('memory/GPU (GiB)');
    return parseFloat(t.rows[0][col].replace(/,/g, '')) < b;
  }, before, 'the memory to fall', () => memory());
  const after = await memory();
  assert.ok(Math.abs(before - after - 160) < 0.15, `40 × 4 GiB leave the GPU: ${before} → ${after} GiB`);
  assert.equal((await page.locator('#ofl-msg').textContent()).trim(), '');
  await page.fill('#ofl-input', 'many');
  await waitFor(page, () => document.querySelector('#ofl-msg')?.textContent.trim() !== '', null,
    'the offload message', () => page.locator('#ofl-msg').textContent());
  const query = new URLSearchParams(await page.evaluate(() => location.search));
  assert.equal(query.get('ofl'), '40', 'the last valid count stays in the link');
  assert.equal(await memory(), after, 'and in the table');
  await assertClean(assert, page, 'after offloading and a refused count');
});
