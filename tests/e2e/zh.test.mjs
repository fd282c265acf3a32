// A Chinese reader: the page in Chinese (the catalogue is a separate download that only
// Chinese readers fetch), embedded in an iframe and served from a deep sub-path, operated with
// the keyboard alone, exporting the chart and the table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openSession, waitReady, assertClean, canvasStats, waitCanvasChange, TIMEOUT } from './harness.mjs';

const BASE = '/docs/zh/guide/scaling/';
const CJK = /[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]/;
let s;
before(async () => { s = await openSession({ base: BASE }); });
after(async () => { await s?.close(); });

const catalogueRequests = (requests) => requests.filter((u) => /\/zh-[0-9a-f]+\.txt$/.test(new URL(u).pathname));

test('English readers never download the Chinese catalogue', async () => {
  const page = await s.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(s.url + '?v=1&lang=en&view=strong');
  await waitReady(page);
  assert.deepEqual(catalogueRequests(requests), []);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await assertClean(assert, page, 'lang=en');
});

test('lang=zh: every keyed text, header, figure and summary of every panel is Chinese', async () => {
  const requests = [];
  for (const view of ['laws', 'strong', 'weak', 'plan']) {
    // A page each: navigating away mid-load would abort its icon request.
    const page = await s.newPage();
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(`${s.url}?v=1&lang=zh&view=${view}&preset=seed-${view === 'laws' ? 'strong' : view === 'plan' ? 'weak' : view}`);
    await waitReady(page);
    const seen = await page.evaluate((panel) => {
      const visible = (el) => el.getClientRects().length > 0;
      const texts = (sel) => [...document.querySelectorAll(sel)].filter(visible).map((e) => e.textContent.trim()).filter(Boolean);
      return {
        lang: document.documentElement.lang,
        title: document.title,
        keyed: [...document.querySelectorAll('[data-i18n]')].map((e) => [e.dataset.i18n, e.textContent.trim()]),
        headers: texts(`#panel-${panel} thead th`),
        summaries: texts(`#panel-${panel} figcaption`),
        figures: texts(`#panel-${panel} table.figures td:first-child, #panel-${panel} table.figures th`),
        // Sliders are named by their visible (translated) labels.
        sliderNames: [...document.querySelectorAll('input[type=range]')].map((r) =>
          (r.getAttribute('aria-labelledby') ?? '').split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim() || r.getAttribute('aria-label') || ''),
      };
    }, view);
    assert.equal(seen.lang, 'zh-Hans', `${view}: <html lang>`);
    assert.match(seen.title, CJK, `${view}: document title`);
    // Keys whose Chinese has no CJK text (the toggle says "English").
    const latin = new Set(['lang']);
    const english = seen.keyed.filter(([k, t]) => t && !latin.has(k) && !CJK.test(t));
    assert.deepEqual(english, [], `${view}: data-i18n texts left in English`);
    // Column headers that are symbols in both languages (T / T_crit, step (ms), global batch).
    const symbolic = /^(T \/ T_crit|step \(ms\)|global batch|N|f|S\(N\)|E\(N\)|e\(N\).*|[A-Za-z_ ]{1,3})$/;
    const untranslated = seen.headers.filter((h) => !CJK.test(h) && !symbolic.test(h));
    assert.deepEqual(untranslated, [], `${view}: table headers left in English: ${JSON.stringify(seen.headers)}`);
    assert.ok(seen.summaries.length > 0 && seen.summaries.every((t) => CJK.test(t)), `${view}: chart summaries ${JSON.stringify(seen.summaries)}`);
    assert.ok(seen.figures.every((t) => CJK.test(t) || /^[\w\s/=·()_.,≈-]+$/.test(t)), `${view}: key figures ${JSON.stringify(seen.figures)}`);
    const unnamed = seen.sliderNames.filter((n) => !CJK.test(n));
    assert.deepEqual(unnamed, [], `${view}: sliders whose accessible name is not Chinese`);
    await assertClean(assert, page, `lang=zh view=${view}`);
    await page.close();
  }
  // One download, cached afterwards (or at most once per navigation), under the sub-path.
  const zh = catalogueRequests(requests);
  assert.ok(zh.length >= 1, 'the catalogue was requested');
  assert.ok(zh.every((u) => new URL(u).pathname.startsWith(BASE)), `catalogue under the sub-path: ${zh}`);
});

test('?lang=zh&embed=strong in an iframe: a Chinese panel, keyboard-operable, exports', async () => {
  const page = await s.newPage();
  const src = `${s.url}?v=1&lang=zh&embed=strong`;
  await page.goto(s.url + '?v=1'); // same origin as the frame, so downloads and focus behave as on a docs page
  await waitReady(page);
  await page.evaluate((url) => {
    document.body.innerHTML = '';
    const f = document.createElement('iframe');
    f.src = url;
    f.title = 'scaling';
    f.width = '900';
    f.height = '1400';
    document.body.append(f);
  }, src);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: TIMEOUT, polling: 50 });
  const info = await frame.evaluate(() => ({
    lang: document.documentElement.lang,
    embedded: document.documentElement.classList.contains('embedded') || document.body.classList.contains('embedded'),
    title: document.getElementById('strong-title')?.textContent,
    otherPanels: ['laws', 'weak', 'plan'].map((p) => document.getElementById(`panel-${p}`)).filter((e) => e && e.getClientRects().length > 0).length,
    header: [...document.querySelectorAll('#strong-table th')].map((t) => t.textContent),
  }));
  assert.equal(info.lang, 'zh-Hans');
  assert.match(info.title ?? '', CJK, 'panel heading in Chinese');
  assert.equal(info.otherPanels, 0, 'only the strong panel is shown');
  assert.ok(info.header.includes('GPU 数'), `table header in Chinese: ${info.header}`);

  // Keyboard only: Tab until the global-batch slider has focus, then ArrowRight moves it.
  const before = await frame.evaluate(() => document.getElementById('b-input').value);
  const step0 = await canvasStats(frame, '#strong-step-canvas');
  assert.ok(step0.found && step0.fraction > 0.02, `the step chart is drawn in the frame: ${JSON.stringify(step0)}`);
  let reached = false;
  for (let i = 0; i < 80 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await frame.evaluate(() => document.activeElement?.id === 'b-range');
  }
  assert.ok(reached, 'Tab reaches the global-batch slider inside the iframe');
  await page.keyboard.press('ArrowRight');
  await frame.waitForFunction((b) => document.getElementById('b-input').value !== b, before, { timeout: TIMEOUT });
  const after = await frame.evaluate(() => document.getElementById('b-input').value);
  assert.notEqual(after, before, 'ArrowRight changed B_global');
  // …and the chart in the frame is redrawn for it.
  const step1 = await waitCanvasChange(frame, '#strong-step-canvas', step0.hash);
  assert.ok(step1.fraction > 0.02, `the step chart is redrawn for B_global = ${after}: ${JSON.stringify(step1)}`);
  // The address is written at most every 200 ms (history.replaceState is rate-limited).
  await frame.waitForFunction((b) => new URLSearchParams(location.search).get('b') === b, after, { timeout: TIMEOUT });

  // Exports: the strong table as CSV (UTF-8 with BOM, Chinese header), the step chart as PNG.
  const csvButton = frame.locator('#strong-table + .exports button[data-export^="csv:"]');
  const [csv] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), csvButton.click()]);
  const csvText = readFileSync(await csv.path(), 'utf8');
  assert.equal(csvText.charCodeAt(0), 0xfeff, 'CSV starts with a BOM');
  assert.match(csvText.split('\n')[0], /GPU 数/, 'CSV header in Chinese');
  const pngButton = frame.locator('#strong-step button[data-export^="png:"]');
  const [png] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), pngButton.click()]);
  const bytes = readFileSync(await png.path());
  assert.deepEqual([...bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  // SVG: recorded by the same chart code; well-formed, with the Chinese title as text.
  const svgButton = frame.locator('#strong-step button[data-export^="svg:"]');
  const [svg] = await Promise.all([page.waitForEvent('download', { timeout: TIMEOUT }), svgButton.click()]);
  const svgText = readFileSync(await svg.path(), 'utf8');
  assert.match(svgText, /^<svg[^>]* xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svgText, /<\/svg>\s*$/);
  assert.match(svgText, /<text[^>]*>\s*强扩展[^<]*<\/text>/, 'the chart title, in Chinese, as SVG text');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { error: doc.querySelector('parsererror')?.textContent ?? null, paths: doc.querySelectorAll('path, polyline, polygon, line, rect, circle').length, texts: doc.querySelectorAll('text').length };
  }, svgText);
  assert.equal(parsed.error, null, 'the SVG parses as XML');
  assert.ok(parsed.paths > 5 && parsed.texts > 5, `the SVG has shapes and labels: ${JSON.stringify(parsed)}`);
  // Errors of the frame reach the page's records; #app-status is read in every frame.
  await assertClean(assert, page, 'zh iframe');
});

test('lang=zh: messages about bad input are Chinese, and name the input', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&lang=zh&f=2`);
  await waitReady(page);
  const banner = await page.locator('#url-messages-list').textContent();
  assert.match(banner, /串行比例/, `the link's problem names the input in Chinese: ${banner}`);
  assert.match(banner, /超出/, banner);
  await page.fill('#n-input', '3.5');
  await page.waitForFunction(() => /不是整数/.test(document.getElementById('n-msg')?.textContent ?? ''), null, { timeout: TIMEOUT });
  const msg = await page.locator('#n-msg').textContent();
  assert.match(msg, /仍使用/, `the last valid value is kept and said so: ${msg}`);
  await assertClean(assert, page, 'zh messages');
});
