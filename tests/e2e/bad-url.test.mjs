// 5 + 8. Bad URL values and bad typed values: clear messages, defaults, never an error or
// injected markup.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  openSession, waitReady, assertClean, assertCanvasesDrawn, tableData, waitForSearch, waitQuiet, TIMEOUT,
} from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

async function urlMessages(page) {
  const box = page.locator('#url-messages');
  return {
    hidden: await box.evaluate((el) => el.hidden || getComputedStyle(el).display === 'none'),
    visible: await box.isVisible(),
    items: await page.locator('#url-messages-list li').allTextContents(),
    text: (await box.textContent()).replace(/\s+/g, ' '),
  };
}

test('?f=abc&n=banana&g=9: messages name f, n and g; defaults are used; no errors', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&f=abc&n=banana&g=9');
  await waitReady(page);
  const msgs = await urlMessages(page);
  assert.ok(msgs.visible && !msgs.hidden, `#url-messages is visible: ${JSON.stringify(msgs)}`);
  const listText = msgs.items.join('\n');
  for (const key of ['f', 'n', 'g']) {
    assert.match(listText, new RegExp(`(^|[^a-z])${key}([^a-z]|$)`, 'm'), `a message names "${key}": ${listText}`);
  }
  assert.ok(msgs.items.length >= 3, `one message per bad key: ${JSON.stringify(msgs.items)}`);
  assert.equal(await page.locator('#f-input').inputValue(), '0.05', 'f falls back to the default');
  await assertCanvasesDrawn(assert, page);
  await assertClean(assert, page, 'bad URL');
});

// A box applies each valid text as it is typed, but a refused one puts back the value from
// before the edit: never a fragment of the new one ("1" of "150%", "1e1" of "1e12", "-0" of "-0.1").
for (const [box, key, text] of [['#f-input', 'f', '150%'], ['#n-input', 'n', '1e12'], ['#f-input', 'f', '-0.1']]) {
  test(`typing ${text} into ${box} key by key keeps the value from before the edit`, async () => {
    const page = await s.newPage();
    await page.goto(s.url + '?v=1&f=0.1&n=2048');
    await waitReady(page);
    await waitForSearch(page, key, key === 'f' ? '0.1' : '2048');
    await waitQuiet(page, 'the first frame');
    const tableBefore = await tableData(page, '#laws-speedup-table table');
    const searchBefore = await page.evaluate(() => location.search);
    await page.locator(box).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.locator(box).pressSequentially(text, { delay: 60 });
    await page.waitForFunction((k) => document.getElementById(`${k}-msg`).textContent.trim() !== '', key, { timeout: TIMEOUT });
    await waitQuiet(page, `the redraws while typing ${text}`);
    const msg = (await page.locator(`#${key}-msg`).textContent()).trim();
    const previous = key === 'f' ? '0.1' : '2,048';
    assert.ok(msg.endsWith(`still using ${previous}`) || msg.endsWith(`still using ${previous.replace(',', '')}`), `#${key}-msg names the value before the edit: ${msg}`);
    assert.deepEqual(await tableData(page, '#laws-speedup-table table'), tableBefore, 'the table is as before the edit');
    assert.equal(await page.evaluate(() => location.search), searchBefore, 'the address is as before the edit');
    assert.equal(await page.locator(box).inputValue(), text, 'the typed text stays for editing');
    await assertClean(assert, page, `typing ${text}`);
  });
}

test('typing abc into #f-input shows #f-msg and keeps the table and URL', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&f=0.1');
  await waitReady(page);
  await waitForSearch(page, 'f', '0.1');
  const tableBefore = await tableData(page, '#laws-speedup-table table');
  await page.fill('#f-input', 'abc');
  await page.waitForFunction(() => document.querySelector('#f-msg').textContent.trim() !== '', null, { timeout: TIMEOUT });
  const msg = (await page.locator('#f-msg').textContent()).trim();
  assert.ok(msg.length > 0, '#f-msg explains the problem');
  // Whatever the input set off (a redraw, a throttled replaceState) has run before checking.
  await waitQuiet(page, 'a (wrong) redraw or address write after typing abc');
  assert.deepEqual(await tableData(page, '#laws-speedup-table table'), tableBefore, 'table unchanged');
  assert.equal(new URL(page.url()).searchParams.get('f'), '0.1', 'URL keeps the last valid f');
  assert.equal(await page.locator('#f-input').inputValue(), 'abc', 'the typed text stays for editing');
  await assertClean(assert, page, 'typing abc');
});

test('markup in URL values is shown as text, never run', async () => {
  const page = await s.newPage();
  const f = '<img src=x onerror=window.__pwned=1>';
  const m = '<script>window.__pwned=1</script>';
  const q = new URLSearchParams({ v: '1', f, m }).toString();
  await page.goto(s.url + '?' + q);
  await waitReady(page);
  // A fixed wait that proves something does NOT happen: any injected handler would have had
  // time to fire by now; there is no event to wait for when it does not.
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined', 'window.__pwned is not set');
  assert.equal(await page.locator('img[src="x"]').count(), 0, 'no injected <img>');
  assert.equal(await page.locator('body script:not([src])').evaluateAll(
    (els) => els.filter((e) => e.textContent.includes('__pwned')).length), 0, 'no injected <script>');
  const msgs = await urlMessages(page);
  assert.ok(msgs.visible, `#url-messages is visible: ${JSON.stringify(msgs)}`);
  assert.ok(msgs.items.length >= 1, 'at least one message');
  await assertCanvasesDrawn(assert, page);
  await assertClean(assert, page, 'markup URL');
});

test('raw (unencoded) markup in the query is handled too', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&f=<img src=x onerror=window.__pwned=1>&m=<script>window.__pwned=1</script>');
  await waitReady(page);
  // A fixed wait that proves something does NOT happen: an injected handler never fires.
  await page.waitForTimeout(300);
  assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined');
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.ok(await page.locator('#url-messages').isVisible(), '#url-messages is visible');
  await assertClean(assert, page, 'raw markup URL');
});

test('?lay=best&lx=1024: the best-layout columns, the explorer and the rest of the link are there', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&preset=gpt3-175b-walls&view=strong&lay=best&lx=1024');
  await waitReady(page);
  const msgs = await urlMessages(page);
  assert.ok(!msgs.visible, `no link message: ${JSON.stringify(msgs)}`);
  // The preset's own inputs are kept: TP 4, PP 8, and the strong table has its rows and the
  // search's columns.
  assert.equal(await page.locator('#tp-input').inputValue(), '4');
  assert.equal(await page.locator('#pp-input').inputValue(), '8');
  assert.equal(await page.locator('#lay-input').inputValue(), 'best');
  assert.equal(await page.locator('#lx-input').inputValue(), '1024');
  const table = await tableData(page, '#strong-table table');
  assert.equal(table.rows.length, 5, 'the strong table has its five rows');
  assert.ok(table.headers.some((h) => /best layout/.test(h)), `a best-layout column: ${table.headers}`);
  const best = table.headers.findIndex((h) => /best layout/.test(h));
  assert.match(table.rows[0][best], /TP\d+·PP\d+/, `a layout is written at the row: ${table.rows[0]}`);
  const explorer = await tableData(page, '#strong-layouts-table table');
  assert.ok(explorer.rows.length >= 10, `the explorer ranks layouts at 1,024 GPUs: ${explorer.rows.length}`);
  // The knee of the best layouts beside the own layout's (GPT-3 175B: 718 GPUs, and 5,747
  // with the layout the search picks at 256; docs/model/14-layout-search.md).
  const figures = await page.evaluate(() => Array.from(document.querySelectorAll('#strong-figures tr'))
    .map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
  const knee = figures.find(([label]) => /^N_max with the best layouts/.test(label));
  assert.ok(knee, `a best-layout knee among the key figures: ${JSON.stringify(figures)}`);
  assert.match(knee[1], /^5,747 /, JSON.stringify(knee));
  await assertClean(assert, page, 'layout search on the page');
});

test('turning lay to best adds the best layout in place; a use link types a layout in', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&preset=gpt3-175b-walls&view=strong&tp=8&lx=2048');
  await waitReady(page);
  await page.locator('details:has(#lay-input) > summary').click();
  await page.selectOption('#lay-input', 'best');
  await page.waitForFunction(() => [...document.querySelectorAll('#strong-table th')].some((th) => /best layout/.test(th.textContent)), null, { timeout: TIMEOUT });
  await waitForSearch(page, 'lay', 'best');
  assert.equal(new URL(page.url()).searchParams.get('tp'), '8', 'the typed TP stays');
  // The explorer's first "use" link opens the scenario with the fastest layout typed in.
  const use = page.locator('#strong-layout-use-1');
  assert.ok(await use.isVisible(), 'a use link is shown');
  const explorer = await tableData(page, '#strong-layouts-table table');
  const fastest = explorer.rows[0][1];
  assert.match(await use.textContent(), new RegExp(fastest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the link names the fastest layout');
  await use.click();
  await page.waitForURL((u) => u.searchParams.get('tp') !== '8', { timeout: TIMEOUT });
  await waitReady(page);
  const own = await page.locator('#strong-figures').textContent();
  assert.match(own, new RegExp(`own layout[\\s\\S]*${fastest.split('·')[0]}`), `the scenario's own layout is now the fastest's: ${own}`);
  // Back to fixed: the columns go.
  await page.locator('details:has(#lay-input) > summary').click();
  await page.selectOption('#lay-input', 'fixed');
  await page.waitForFunction(() => ![...document.querySelectorAll('#strong-table th')].some((th) => /best layout/.test(th.textContent)), null, { timeout: TIMEOUT });
  await assertClean(assert, page, 'lay=best from the page');
});
