// The machine and precision menus (mach, prec; docs/machines.md): choosing a machine types its
// datasheet values into the hardware boxes and the link says only the machine; a precision the
// machine lacks is refused with a message naming the key, and the last valid values stay; an
// NVL72 rack's 72-GPU domain is taken from a link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, waitForSearch, waitFor } from './harness.mjs';

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
