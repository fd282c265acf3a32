// A Chinese reader: the page in Chinese (the catalogue is a separate download that only
// Chinese readers fetch), embedded in an iframe and served from a deep sub-path, operated with
// the keyboard alone, exporting the chart and the table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  openSession, waitReady, assertClean, canvasStats, waitCanvasChange, appStatusProblems, PANIC_PATTERN, TIMEOUT,
} from './harness.mjs';

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
  await page.goto(`${s.url}?v=1&lang=zh&f=2&hbm=5&nvd=2000`);
  await waitReady(page);
  const banner = await page.locator('#url-messages-list').textContent();
  assert.match(banner, /串行比例/, `the link's problem names the input in Chinese: ${banner}`);
  assert.match(banner, /超出/, banner);
  // The notes a key's row gives its codec (src/scenario/key.rs) are in the catalogue too.
  assert.match(banner, /（写 80Gi 或 141G）/, banner);
  assert.match(banner, /（HGX 节点为 8，NVL72 机柜为 72）/, banner);
  await page.fill('#n-input', '3.5');
  await page.waitForFunction(() => /不是整数/.test(document.getElementById('n-msg')?.textContent ?? ''), null, { timeout: TIMEOUT });
  const msg = await page.locator('#n-msg').textContent();
  assert.match(msg, /仍使用/, `the last valid value is kept and said so: ${msg}`);
  await assertClean(assert, page, 'zh messages');
});

// ---- No English left for a Chinese reader -----------------------------------------------------
//
// Every text a Chinese reader can see or hear — visible text nodes, aria-label / title /
// placeholder / alt / aria-valuetext of every element, the options of every menu (a closed
// <select> renders none), the document title — after hovering every chart, Copy link, the
// report's copy button and the preset menu, must contain no English word except these.
//
// Allowed, because Chinese texts on this subject write them in Latin letters too:
const LATIN_OK = new Set([
  // people, laws, companies, products, projects
  'Amdahl', 'Gustafson', 'Sun', 'Ni', 'Karp', 'Flatt', 'Shi', 'McCandlish', 'DeepSeek', 'Megatron',
  'Megatron-Core', 'Megatron-LM', 'NVIDIA', 'GPT', 'Llama', 'Mixtral', 'MLPerf', 'DGX', 'Cloud', 'InfiniBand', 'NVLink',
  'Rust', 'WebAssembly', 'README', 'Grama', 'Gupta', 'Kumar',
  'Hockney', 'Brown', 'Adam', 'SwiGLU', 'FlashAttention', 'torchtitan', 'Meta', 'HGX', 'NeMo', 'SXM',
  'llm-foundry', 'CUDA', 'Scout', 'PyTorch', 'DeepSpeed', 'Megatron-Bridge',
  'Chowdhery', 'Thakur', 'Rabenseifner', 'Gropp', 'Carpentry',
  // abbreviations and parallelism / collective names
  'GPU', 'GPUs', 'TP', 'PP', 'CP', 'DP', 'EP', 'FSDP', 'HSDP', 'ZeRO', 'MoE', 'MFU', 'FLOP', 'TFLOP',
  'FLOPs', 'LLM', 'NCCL', 'AllGather', 'ReduceScatter', 'all-gather', 'reduce-scatter', 'all-to-all',
  'DDP', 'GQA', 'MLP', 'VP', 'ETP', 'top-k', 'KV',
  // file formats, units, language codes
  'CSV', 'SVG', 'PNG', 'TXT', 'Markdown', 'URL', 'ms', 'tok', 'en', 'zh', 'GiB', 'TOML', 'config', 'json',
  'Hugging', 'Face',
  // training jargon the Chinese texts keep in English (as Chinese ML writing does)
  'token', 'tokens', 'batch', 'microbatch', 'loss', 'validation', 'expert', 'rank', 'stage',
  'reshard', 'unshard', 'gather', 'reduce', 'group', 'log', 'optimizer', 'overlap', 'dense', 'GEMM',
  'HPC', 'scaling', 'kernel', 'Dropout',
  // the Learn view gives a term's English original in parentheses: 等效率（isoefficiency）
  'isoefficiency',
  // code the texts quote: URL keys and values (st=, em=fit, em=step, the preset names in the
  // preset menu), Python's False
  'st', 'em', 'fit', 'step', 'classroom', 'karp-flatt', 'seed-strong', 'seed-weak', 'False',
  // the walls' URL keys the model-shape texts name, and the step model's inputs the notes of
  // unused inputs name
  'nl', 'hd', 'nh', 'kvh', 'ffn', 'sq', 'voc', 'ne', 'ke', 'ex', 'tc', 'feff', 'cm', 'kvr', 'dl',
  // the fixed microbatch's and the NVLink domain's keys
  'mbs', 'nvd', 'bnv',
].map((w) => w.toLowerCase()));
// Allowed phrases (removed before the words are checked).
// "weak scaling 效率" is the checklist quoting the headline figure by its English name.
const LATIN_PHRASES = [/\bstrong scaling\b/gi, /\bweak scaling\b/gi, /\bscaling laws?\b/gi,
  /\bcritical batch size\b/gi, /\bMLPerf Training\b/g, /\bstep time\b/gi, /\bglobal batch\b/gi, /\btime-to-quality\b/gi, /\bweak scaling 效率/g];
// Not checked: <code> (commands, formulas), anything inside lang="en" (the English report, the
// "English" button), #report-warnings (the checklist's warnings are bilingual by design:
// "English / 中文", for a report in either language).
const SKIP = 'script, style, code, #report-warnings';

/** English words in `text` that are not allowed: symbols (digits, _), single letters, URLs and
 *  paths (a/b) do not count. */
function englishWords(text) {
  let t = text.replace(/https?:\/\/\S+/g, ' ').replace(/[\w.-]+\/[\w./-]+/g, ' ').replace(/\b\w+=\w+/g, ' ');
  for (const p of LATIN_PHRASES) t = t.replace(p, ' ');
  return [...t.matchAll(/[A-Za-z0-9_]+(?:['’-][A-Za-z0-9_]+)*/g)].map((m) => m[0])
    .filter((w) => w.length > 1 && !/[\d_]/.test(w) && !LATIN_OK.has(w.toLowerCase()));
}

/** What the page shows and says, as [where, text]. */
function collectTexts(page, skip) {
  return page.evaluate((skip) => {
    const out = [];
    const english = (el) => /^en\b/i.test(el.closest('[lang]')?.getAttribute('lang') ?? '');
    const skipped = (el) => !!el.closest(skip) || english(el);
    const where = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''} in #${el.closest('[id]')?.id ?? ''}`;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !n.textContent.trim() || skipped(el) || el.getClientRects().length === 0) continue;
      out.push([where(el), n.textContent.trim()]);
    }
    for (const el of document.querySelectorAll('*')) {
      if (skipped(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext']) {
        const v = el.getAttribute(a);
        if (v) out.push([`${where(el)} @${a}`, v]);
      }
    }
    for (const o of document.querySelectorAll('option')) out.push([`${where(o.parentElement)} option`, o.textContent.trim()]);
    out.push(['<title>', document.title]);
    return out;
  }, skip);
}

/** Hovers the middle of every visible chart, records its readout, then leaves it. */
async function hoverCharts(page) {
  const seen = [];
  const ids = await page.evaluate(() => [...document.querySelectorAll('canvas')]
    .filter((c) => c.getClientRects().length > 0 && c.clientWidth > 0).map((c) => c.id.replace(/-canvas$/, '')));
  assert.ok(ids.length > 0, 'no visible chart');
  for (const id of ids) {
    const canvas = page.locator(`#${id}-canvas`);
    await canvas.scrollIntoViewIfNeeded();
    const idle = await page.locator(`#${id}-readout`).textContent();
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.5, { steps: 2 });
    await page.waitForFunction(([r, t]) => document.getElementById(r).textContent !== t, [`${id}-readout`, idle], { timeout: TIMEOUT })
      .catch(() => {}); // a chart with nothing under the pointer keeps its idle text: scanned anyway
    seen.push([`#${id}-readout (hovered)`, await page.locator(`#${id}-readout`).textContent()]);
    await page.mouse.move(box.x + box.width * 0.55, Math.max(0, box.y - 40));
    await page.waitForFunction(([r, t]) => document.getElementById(r).textContent === t, [`${id}-readout`, idle], { timeout: TIMEOUT });
  }
  return seen;
}

const ZH_VIEWS = [
  ['laws', 'karp-flatt'],
  ['strong', 'seed-strong'],
  ['strong', 'megatron-177b-h100'], // em=fit: the fit table, the source line, the Laws link
  ['weak', 'seed-weak'],
  ['plan', 'moe-47b-h200'],
];

test('lang=zh: no English word left anywhere on any panel, after hovering, copying and the preset menu', async () => {
  const left = [];
  for (const [view, preset] of ZH_VIEWS) {
    const page = await s.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(s.url).origin });
    await page.goto(`${s.url}?v=1&lang=zh&view=${view}&preset=${preset}`);
    await waitReady(page);
    const texts = await hoverCharts(page);
    await page.click('#copy-link');
    await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '', null, { timeout: TIMEOUT });
    if (view === 'plan') {
      for (const b of ['#report-copy-en', '#report-copy-zh']) {
        await page.evaluate(() => { document.getElementById('report-status').textContent = ''; });
        await page.click(b);
        await page.waitForFunction(() => document.getElementById('report-status').textContent !== '', null, { timeout: TIMEOUT });
        texts.push([`#report-status after ${b}`, await page.locator('#report-status').textContent()]);
      }
    }
    await page.click('#preset-input');
    await page.keyboard.press('Escape');
    texts.push(...await collectTexts(page, SKIP));
    for (const [where, text] of texts) {
      const words = englishWords(text);
      if (words.length) left.push(`${view}/${preset} ${where}: ${JSON.stringify(words)} in ${JSON.stringify(text.slice(0, 160))}`);
    }
    assert.match(await page.locator('#copy-status').textContent(), /链接已复制/, 'Copy link says so in Chinese');
    await assertClean(assert, page, `lang=zh ${view}/${preset}`);
    await page.close();
  }
  assert.deepEqual([...new Set(left)], [], 'English left on the Chinese page');
});

test('lang=zh: the Learn view has no English word, before and after revealing exercises', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&lang=zh&view=learn`);
  await waitReady(page);
  await page.waitForSelector('#learn-content[data-drawn] article.learn');
  await page.fill('#q1 .guess input', '很多');
  await page.click('#q1 .reveal');
  await page.fill('#q3 .guess input', '1000');
  await page.click('#q3 .reveal');
  await page.fill('#q6 .guess input', '9.5k');
  await page.click('#q6 .reveal');
  const left = [];
  // Subscripts and variables are symbols: B<sub>global</sub>, T<sub>crit</sub>.
  for (const [where, text] of await collectTexts(page, `${SKIP}, sub, var`)) {
    const words = englishWords(text);
    if (words.length) left.push(`learn ${where}: ${JSON.stringify(words)} in ${JSON.stringify(text.slice(0, 160))}`);
  }
  assert.deepEqual([...new Set(left)], [], 'English left on the Chinese Learn view');
  assert.match(await page.locator('#q6 .answer').textContent(), /^答案：.*实测：/);
  await assertClean(assert, page, 'lang=zh view=learn');
  await page.close();
});

test('lang=zh: where the clipboard refuses, the link to copy by hand is introduced in Chinese', async () => {
  const page = await s.newPage();
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'clipboard', {
      configurable: true, get: () => ({ writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) }),
    });
  });
  await page.goto(`${s.url}?v=1&lang=zh&view=plan&preset=seed-weak`);
  await waitReady(page);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copy-status').textContent !== '', null, { timeout: TIMEOUT });
  const status = await page.locator('#copy-status').textContent();
  assert.match(status, /^请手动复制：http:\/\/127\.0\.0\.1:\d+\/docs\/zh\/guide\/scaling\/\?v=1&/, status);
  assert.deepEqual(englishWords(status), [], status);
  await assertClean(assert, page, 'zh clipboard refused');
});

test('lang=zh: the DeepSeek reference note under the Plan chart is Chinese', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&lang=zh&view=plan&preset=seed-weak`);
  await waitReady(page);
  const note = await page.locator('#plan-bopt').textContent();
  assert.deepEqual(englishWords(note), [], note);
  await page.close();
});

test('lang=zh when the Chinese catalogue cannot be loaded (404): an English page that says so, lang="en", no panic', async () => {
  const page = await s.newPage();
  await page.route(/\/zh-[0-9a-f]+\.txt$/, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
  await page.goto(`${s.url}?v=1&lang=zh&view=strong&preset=seed-strong`);
  await waitReady(page);
  const seen = await page.evaluate(() => {
    const status = document.getElementById('lang-status');
    return {
      lang: document.documentElement.lang,
      status: status.getClientRects().length > 0 ? status.textContent : '(hidden)',
      heading: document.getElementById('strong-title').textContent,
      header: [...document.querySelectorAll('#strong-table th')].map((t) => t.textContent)[0],
    };
  });
  assert.equal(seen.lang, 'en', '<html lang> follows the texts shown, not the link');
  assert.match(seen.status, /^The Chinese texts could not be loaded, so the page is in English\./, seen.status);
  assert.equal(seen.heading, 'Strong scaling: fixed global batch');
  assert.equal(seen.header, 'GPUs');
  // The 404 itself is the only problem: no panic, no other error, #app-status not showing.
  const p = page.problems;
  assert.deepEqual(p.pageErrors, [], JSON.stringify(p));
  assert.ok(p.consoleErrors.every((e) => /404/.test(e) && !PANIC_PATTERN.test(e)), JSON.stringify(p.consoleErrors));
  assert.ok(p.httpErrors.length === 1 && /\/zh-[0-9a-f]+\.txt$/.test(p.httpErrors[0]), JSON.stringify(p.httpErrors));
  assert.deepEqual(await appStatusProblems(page), []);
  await page.close();
});

test('lang=zh with the catalogue in: the "could not be loaded" line stays hidden', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&lang=zh`);
  await waitReady(page);
  assert.equal(await page.evaluate(() => document.getElementById('lang-status').hidden), true);
  await assertClean(assert, page, 'zh catalogue loaded');
});
