// The page's two modules (crates/web/src/handover.rs): the first view's module has no Learn
// view and no exports; a link to the Learn view starts the full module instead of it, and a
// reader of another view who opens Learn or exports is handed over to the full module through
// the link, keeping every input.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, closeQuietly, openRecording, TIMEOUT } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const FIRST = /\/scaling-explorer-page-[0-9a-f]+(_bg\.wasm|\.js)$/;
const FULL = /\/full-[0-9a-f]+(_bg\.wasm|\.js)$/;

const open = (query) => openRecording(s, query);

const wasm = (requests, re) => requests.filter((p) => re.test(p) && p.endsWith('.wasm'));

test("a link to a panel downloads the first view's module only", async () => {
  for (const query of ['', '?v=1&view=strong', '?v=1&preset=llama31-405b-h100&view=plan&lang=zh']) {
    const { page, requests } = await open(query);
    try {
      assert.equal(wasm(requests, FIRST).length, 1, `${query}: ${requests.join('\n')}`);
      assert.deepEqual(requests.filter((p) => FULL.test(p)), [], `${query}: no full module`);
      await assertClean(assert, page, query || 'the default link');
    } finally {
      await closeQuietly(page);
    }
  }
});

test("a link to the Learn view downloads the full module only, JS and wasm", async () => {
  for (const query of ['?v=1&view=learn', '?v=1&view=strong&view=learn+&lang=zh']) {
    const { page, requests } = await open(query);
    try {
      await page.waitForSelector('#learn-content[data-drawn] article.learn');
      assert.equal(wasm(requests, FULL).length, 1, `${query}: ${requests.join('\n')}`);
      assert.deepEqual(requests.filter((p) => FIRST.test(p)), [], `${query}: not the first view's JS or wasm`);
      assert.equal(await page.getAttribute('#tab-learn', 'aria-selected'), 'true');
      await assertClean(assert, page, query);
    } finally {
      await closeQuietly(page);
    }
  }
});

test('opening Learn hands the page over to the full module, which keeps every input and answers them', async () => {
  const { page, requests } = await open('?v=1&view=strong');
  try {
    await page.fill('#b-input', '2M');
    await page.waitForFunction(() => new URLSearchParams(location.search).has('b'), null, { timeout: TIMEOUT });
    const typed = new URLSearchParams(await page.evaluate(() => location.search)).get('b');
    const shown = await page.inputValue('#b-input');
    await page.evaluate(() => { window.keptApi = window.scalingExplorer; });
    await page.click('#tab-learn');
    await page.waitForSelector('#learn-content[data-drawn] article.learn', { timeout: TIMEOUT });
    await waitReady(page);
    assert.equal(wasm(requests, FULL).length, 1, requests.join('\n'));
    assert.equal(wasm(requests, FIRST).length, 1, 'the first view came first');
    const query = new URLSearchParams(await page.evaluate(() => location.search));
    assert.equal(query.get('view'), 'learn');
    assert.equal(query.get('b'), typed, 'the typed input is in the link');
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-then')), false);
    assert.match(await page.evaluate(() => window.keptApi.query()), /view=learn/, "a host's kept scalingExplorer answers for the full module");
    await page.click('#tab-strong');
    await page.waitForFunction(() => document.getElementById('tab-strong')?.getAttribute('aria-selected') === 'true');
    assert.equal(await page.inputValue('#b-input'), shown, 'the box keeps what the reader typed');
    // The full module answers the inputs; the first view's listeners do nothing (one change,
    // one frame: the preset menu has each preset once).
    const before = await page.textContent('#strong-table');
    await page.fill('#b-input', '1M');
    await page.waitForFunction((b) => new URLSearchParams(location.search).get('b') !== b, typed, { timeout: TIMEOUT });
    await page.waitForFunction((t) => document.getElementById('strong-table')?.textContent !== t, before, { timeout: TIMEOUT });
    const names = await page.$$eval('#preset-input option', (os) => os.map((o) => o.value));
    assert.equal(names.length, new Set(names).size, `each preset once: ${names.join(', ')}`);
    await assertClean(assert, page, 'after the hand-over');
  } finally {
    await closeQuietly(page);
  }
});

test('the first view answers while the full module downloads, and the full module starts from what it shows', async () => {
  const page = await s.newPage();
  try {
    // The full module's files arrive late, as on a slow link.
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route(/\/full-[0-9a-f]+(_loader\.js|\.js|_bg\.wasm)$/, async (route) => { await held; await route.continue(); });
    await page.goto(`${s.url}?v=1&view=laws`);
    await waitReady(page);
    await page.click('#tab-learn');
    // Still the first view: the reader goes on to the Strong tab and types a batch.
    await page.click('#tab-strong');
    await page.waitForFunction(() => document.getElementById('panel-strong')?.hidden === false);
    await page.fill('#b-input', '2M');
    await page.waitForFunction(() => new URLSearchParams(location.search).has('b'), null, { timeout: TIMEOUT });
    const typed = new URLSearchParams(await page.evaluate(() => location.search)).get('b');
    release();
    await page.waitForFunction(() => document.body.dataset.ready === '1' && !document.getElementById('app-status')?.textContent,
      null, { timeout: TIMEOUT });
    const query = new URLSearchParams(await page.evaluate(() => location.search));
    assert.equal(query.get('view'), 'strong', 'the full module shows the panel the reader went to');
    assert.equal(query.get('b'), typed);
    assert.equal(await page.getAttribute('#tab-strong', 'aria-selected'), 'true');
    assert.ok(await page.isHidden('#panel-learn'));
    // And it answers: the next tab is the full module's.
    await page.click('#tab-learn');
    await page.waitForSelector('#learn-content[data-drawn] article.learn', { timeout: TIMEOUT });
    await assertClean(assert, page, 'a slow hand-over');
  } finally {
    await closeQuietly(page);
  }
});

test("an export in the first view hands over, then downloads what was asked", async () => {
  const { page, requests } = await open('?v=1&preset=seed-strong&view=strong&theme=light');
  try {
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: TIMEOUT }),
      page.locator('#strong-step button[data-export^="csv:"], #strong-table + .exports button[data-export^="csv:"]').first().click(),
    ]);
    assert.match(download.suggestedFilename(), /\.csv$/);
    assert.equal(wasm(requests, FULL).length, 1, requests.join('\n'));
    await waitReady(page);
    // A second export is the full module's own, at once.
    const [png] = await Promise.all([
      page.waitForEvent('download', { timeout: TIMEOUT }),
      page.locator('#strong-step button[data-export^="png:"]').click(),
    ]);
    assert.match(png.suggestedFilename(), /strong-step\.png$/);
    await assertClean(assert, page, 'exports after the hand-over');
  } finally {
    await closeQuietly(page);
  }
});

test('a missing full module is named, and the first view goes on', async () => {
  const page = await s.newPage();
  try {
    await page.route(/\/full-[0-9a-f]+_loader\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${s.url}?v=1&view=laws`);
    await waitReady(page);
    await page.click('#tab-learn');
    await page.waitForFunction(() => (document.getElementById('app-status')?.textContent ?? '').includes('could not be loaded'));
    assert.match(await page.textContent('#app-status'), /^the Learn view and the exports could not be loaded: full-[0-9a-f]+_loader\.js/);
    await page.click('#tab-strong');
    await page.waitForFunction(() => document.getElementById('tab-strong')?.getAttribute('aria-selected') === 'true');
    await waitReady(page);
  } finally {
    await closeQuietly(page);
  }
});

test('the runs module, in before the hand-over, stays in after it', async () => {
  const { page } = await open('?v=1&view=strong');
  try {
    await page.click('#runs summary');
    await page.waitForFunction(() => typeof window.scalingExplorer?.runs === 'function', null, { timeout: TIMEOUT });
    await page.click('#tab-learn');
    await page.waitForSelector('#learn-content[data-drawn] article.learn', { timeout: TIMEOUT });
    await waitReady(page);
    assert.equal(await page.evaluate(() => typeof window.scalingExplorer.runs), 'function');
    const answer = await page.evaluate(() => window.scalingExplorer.import('{"num_hidden_layers": 32}'));
    assert.equal(answer.kind, 'imported', JSON.stringify(answer));
    await assertClean(assert, page, 'the runs module after the hand-over');
  } finally {
    await closeQuietly(page);
  }
});
