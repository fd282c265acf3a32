// Robustness in the browser: random and mutated links (scripts/fuzz-urls.mjs, a
// fixed seed), each loaded as a new document into a page of one shared browser context, and
// random text typed into every number box. For every link:
// - no uncaught exception, no console error, no wasm panic or trap in the console, and no
//   chart-draw failure in #app-status, checked at the end of the link's session once the page
//   has run what it scheduled (an error in a late redraw counts);
// - no text the reader can see (the page's text, the boxes' values, the sliders'
//   aria-valuetext) shows NaN, ∞, Infinity, inf or undefined as a word, after load and after
//   typing — except inside the “quotes” with which messages echo what the link or the reader
//   wrote, and in the boxes the test typed into;
// - the page becomes ready (a link that freezes the tab fails here, with its URL);
// - every canvas the reader can see is drawn (> 1% of pixels differ from the background);
// - the selected tab and the visible panel agree;
// - `scaling laws --query <the address the page wrote> --format json` reads back the same
//   canonical query and the same f as the #f-input box;
// - typing text no box accepts shows a message next to the box (as text, never markup), and
//   the charts stay drawn;
// - (every REOPEN_EVERY-th link) the address the page wrote, opened again, shows the same tab,
//   inputs and tables with no messages, and is not rewritten.
//
// E2E_SEED (default 0x5ca1ab1e) and E2E_URLS (default 200) change the seed and the count;
// E2E_TYPE_EVERY (default 5) types into the boxes of every n-th link; E2E_REOPEN_EVERY
// (default 4) reopens the written link of every n-th link.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  openSession, waitReady, visibleCanvasStats, closeQuietly, settle, appStatusProblems, PANIC_PATTERN, REPO,
} from './harness.mjs';
import { urlKeys, makeRng, randomQuery, randomBoxText } from '../../scripts/fuzz-urls.mjs';

const SEED = Number(process.env.E2E_SEED || 0x5ca1ab1e);
const COUNT = Number(process.env.E2E_URLS || 200);
const TYPE_EVERY = Number(process.env.E2E_TYPE_EVERY || 5);
const REOPEN_EVERY = Number(process.env.E2E_REOPEN_EVERY || 4);
/** A page that is not ready after this long counts as frozen. */
const READY_MS = 15_000;
const MIN_DRAWN = 0.01;
/** Text that no number box accepts (each box names the problem next to it). */
const ALWAYS_BAD = ['1e400', '-5', '1e400 1e400'];

let s;
let cli;
before(async () => {
  s = await openSession();
  // The CLI of the same sources: built once, then run directly (cargo run per link is slow).
  execFileSync('cargo', ['build', '--quiet', '--bin', 'scaling'], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], timeout: 900_000 });
  const meta = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20 }));
  cli = path.join(meta.target_directory, 'debug', 'scaling');
});
after(async () => { await s?.close(); });

/** Where two snapshots' values differ: the first differing entry (of an array or object) of each, whole. */
function differences(a, b) {
  const keys = Array.isArray(a) || Array.isArray(b)
    ? Array.from({ length: Math.max(a?.length ?? 0, b?.length ?? 0) }, (_, i) => i)
    : [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])];
  const k = keys.find((key) => JSON.stringify(a?.[key]) !== JSON.stringify(b?.[key]));
  return k === undefined ? JSON.stringify(a).slice(0, 400) : `[${k}] ${JSON.stringify(a?.[k])} vs ${JSON.stringify(b?.[k])}`;
}

/** What the reader sees: tab, inputs, visible tables and figures, messages, address. */
function snapshot(page) {
  return page.evaluate(() => {
    // checkVisibility(), not getClientRects(): what is below the fold may sit in a
    // `content-visibility: auto` wrapper, whose skipped contents have no boxes until painted.
    const shown = (el) => !!el && !el.hidden && el.checkVisibility();
    const norm = (t) => (t || '').replace(/\s+/g, ' ').trim();
    const tabs = Array.from(document.querySelectorAll('[role=tab]'));
    const selected = tabs.filter((t) => t.getAttribute('aria-selected') === 'true').map((t) => t.dataset.view || t.id);
    const panels = Array.from(document.querySelectorAll('.panel')).filter(shown).map((p) => p.id);
    const inputs = {};
    for (const el of document.querySelectorAll('input, select, textarea')) {
      if (!el.id || el.type === 'range') continue;
      inputs[el.id] = el.type === 'checkbox' ? el.checked : el.value;
    }
    const tables = Array.from(document.querySelectorAll('table')).filter(shown).map((t) => `${t.closest('[id]')?.id}: ${norm(t.textContent)}`);
    const messages = Array.from(document.querySelectorAll('#url-messages-list li')).map((li) => norm(li.textContent));
    return {
      search: location.search,
      selected,
      panels,
      inputs,
      tables,
      urlMessagesShown: shown(document.getElementById('url-messages')),
      messages,
    };
  });
}

function consoleProblems(page) {
  const p = page.problems;
  return [
    ...p.pageErrors.map((e) => `uncaught: ${e}`),
    ...p.consoleErrors.map((e) => `console error: ${e}`),
    ...p.console.filter((m) => PANIC_PATTERN.test(m)).map((m) => `panic/trap: ${m}`),
    // Loading the next document into the page aborts what the last one still fetched (the
    // favicon, typically): net::ERR_ABORTED is that, not a failure.
    ...p.failedRequests.filter((e) => !/net::ERR_ABORTED/.test(e)).map((e) => `failed request: ${e}`),
    ...p.httpErrors.map((e) => `HTTP: ${e}`),
  ];
}

async function drawnProblems(page, label) {
  const stats = await visibleCanvasStats(page);
  const out = [];
  if (stats.length === 0) out.push(`${label}: no visible canvas`);
  for (const st of stats) {
    if (!(st.total > 0 && st.fraction > MIN_DRAWN)) {
      out.push(`${label}: #${st.id} ${(st.fraction * 100).toFixed(2)}% drawn (${st.width}x${st.height})`);
    }
  }
  return out;
}

/**
 * A number gone wrong, as a whole token: NaN, Infinity (JS), inf (Rust's f64 Display),
 * undefined (a missing JS value), each perhaps followed by a unit the page writes after
 * numbers ("NaNx", "infms", "NaN%"), or ∞ anywhere. A token must not touch a letter or an
 * underscore on its left, nor a letter, digit or underscore on its right (after the unit):
 * "infinite", "inference", "info" are words, not numbers.
 */
const BAD_NUMBER = /(?<![\p{L}_])(?:NaN|Infinity|inf|undefined)(?:x|ms|s|h|k|M|G|T|P|B|Ki|Mi|Gi)?(?![\p{L}\p{N}_])|∞/gu;

/**
 * Every text the reader can see — document.body.innerText, the values of the displayed boxes
 * (except `skipIds`, which hold what the test typed) and aria-valuetext — with the “…”
 * quotations removed (messages quote the link's or the reader's own text there). Returns the
 * offending pieces, each with a little context.
 */
async function badNumberTexts(page, label, skipIds = []) {
  const texts = await page.evaluate((skip) => {
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const out = [['body text', document.body.innerText]];
    for (const el of document.querySelectorAll('input, textarea, select')) {
      if (!shown(el) || skip.includes(el.id) || el.type === 'checkbox' || el.type === 'radio') continue;
      const v = el.tagName === 'SELECT' ? (el.selectedOptions[0]?.textContent ?? '') : el.value;
      out.push([`#${el.id || el.name || el.tagName.toLowerCase()} value`, v]);
    }
    for (const el of document.querySelectorAll('[aria-valuetext]')) {
      if (shown(el)) out.push([`#${el.id} aria-valuetext`, el.getAttribute('aria-valuetext')]);
    }
    return out;
  }, skipIds);
  const found = [];
  for (const [where, raw] of texts) {
    let text = (raw || '').replace(/“[^”]*”/g, '“…”');
    for (const m of text.matchAll(BAD_NUMBER)) {
      const from = Math.max(0, m.index - 60);
      const context = text.slice(from, m.index + m[0].length + 60).replace(/\s+/g, ' ').trim();
      found.push(`${label}: ${where} shows ${JSON.stringify(m[0])}: …${context}…`);
      if (found.length >= 10) return found;
    }
  }
  return found;
}

/**
 * Console, page, request and #app-status problems, once the page has run what it scheduled
 * (so an error thrown in a late redraw or timer is counted).
 */
async function settledProblems(page) {
  await settle(page, 2_000);
  return [...consoleProblems(page), ...(await appStatusProblems(page))];
}

/** Empties a page's problem lists (the page is reused from link to link). */
function clearProblems(page) {
  for (const list of Object.values(page.problems)) list.length = 0;
}

/**
 * Loads `url` as a new document in `page`; returns the problems found (console, canvases).
 * Throws when the page does not become ready (frozen, or failed to start).
 */
async function load(page, url) {
  clearProblems(page);
  await page.goto(url, { timeout: READY_MS });
  await waitReady(page, READY_MS);
  // data-ready is set at the end of the first frame, after the address bar was written.
  return drawnProblems(page, 'load');
}

/** Types random text (and always-bad text) into every visible number box and text area. */
async function typeIntoBoxes(page, r) {
  const problems = [];
  const boxes = await page.evaluate(() => Array.from(document.querySelectorAll('.controls input[type=text], .controls textarea'))
    .filter((el) => el.id && el.getClientRects().length > 0 && !el.disabled)
    .map((el) => el.id));
  // show=charts (in an embed) shows no input by design.
  const chartsOnly = await page.evaluate(() => document.documentElement.classList.contains('charts-only'));
  if (boxes.length === 0 && !chartsOnly) problems.push('no visible number box to type into');
  const typed = [];
  for (const id of boxes) {
    const key = id.replace(/-input$/, '');
    const loc = page.locator(`#${id}`);
    // Typing into one box can hide another (a mode that no longer uses it): skip those.
    if (!(await loc.isVisible())) continue;
    typed.push(id);
    await loc.fill(randomBoxText(r), { timeout: 5_000 });
    const bad = r.pick(ALWAYS_BAD);
    await loc.fill(bad, { timeout: 5_000 });
    try {
      await page.waitForFunction((k) => (document.getElementById(`${k}-msg`)?.textContent ?? '').trim() !== '', key, { timeout: 3_000, polling: 50 });
    } catch {
      problems.push(`typing ${JSON.stringify(bad)} into #${id} shows no message in #${key}-msg`);
    }
    const markup = await page.evaluate((k) => document.getElementById(`${k}-msg`)?.children.length ?? 0, key);
    if (markup) problems.push(`#${key}-msg holds ${markup} element(s): text was inserted as markup`);
  }
  // Two frames for the redraw of the last valid values.
  await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
  problems.push(...await drawnProblems(page, 'after typing'));
  return { problems, boxes: boxes.length, typed };
}

function cliLaws(search) {
  const query = search.replace(/^\?/, '');
  try {
    const out = execFileSync(cli, ['laws', '--query', query, '--format', 'json'], { encoding: 'utf8', maxBuffer: 64 << 20, timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return { json: JSON.parse(out) };
  } catch (e) {
    return { error: `${e.status ?? ''} ${(e.stderr || e.message || '').toString().slice(0, 400)}` };
  }
}

test('the visible-text scan finds NaN / ∞ / Infinity / inf / undefined the page shows, and nothing in quotes, words or typed boxes', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&f=NaN`);
  await waitReady(page);
  // The link's own "NaN" is echoed in quotes in #url-messages: not a finding.
  assert.deepEqual(await badNumberTexts(page, 'f=NaN'), [], 'a quoted echo of the link is not a finding');
  await page.fill('#n-input', 'Infinity');
  await page.waitForFunction(() => document.getElementById('n-msg').textContent.trim() !== '');
  assert.deepEqual(await badNumberTexts(page, 'typed', ['n-input']), [], 'what the test typed, and its quoted echo, are not findings');
  await page.evaluate(() => {
    const p = document.createElement('p');
    p.textContent = 'an infinite loop; inference; information';
    document.querySelector('#laws-figures').after(p);
  });
  assert.deepEqual(await badNumberTexts(page, 'words', ['n-input']), [], 'words are not numbers');
  const planted = ['speedup NaNx', 'N → ∞', 'Infinity GPUs', 'step inf ms', 'value undefined'];
  await page.evaluate((texts) => {
    for (const t of texts) {
      const p = document.createElement('p');
      p.textContent = t;
      document.querySelector('#laws-figures').after(p);
    }
    const range = document.querySelector('input[type=range]');
    range.setAttribute('aria-valuetext', 'NaN');
  }, planted);
  const found = await badNumberTexts(page, 'planted', ['n-input']);
  for (const token of ['NaNx', '∞', 'Infinity', 'inf', 'undefined']) {
    assert.ok(found.some((f) => f.includes(`shows ${JSON.stringify(token)}`)), `finds ${token}: ${JSON.stringify(found)}`);
  }
  assert.ok(found.some((f) => /aria-valuetext shows "NaN"/.test(f)), `reads aria-valuetext: ${JSON.stringify(found)}`);
  await page.close();
});

// Found by the text scan (seed 0x7, link #177: v=1:NaN): the link-version message echoed the
// link's value unquoted, so a hostile v= put NaN / Infinity / undefined into the page's text as
// if the page had computed it. It now quotes it (“…”) like every other message.
test('?v=NaN / v=Infinity / v=undefined: the link-version message shows the value in quotes, not as a bare NaN', async () => {
  for (const v of ['NaN', 'Infinity', 'undefined', '1:NaN']) {
    const page = await s.newPage();
    await page.goto(`${s.url}?${new URLSearchParams({ v })}`);
    await waitReady(page);
    assert.deepEqual(await badNumberTexts(page, `v=${v}`, []), [], `?v=${v}`);
    await page.close();
  }
});

test(`${COUNT} random links (seed ${'0x' + SEED.toString(16)}): no exception or panic, charts drawn, the written link restores the same view`, { timeout: 900_000 }, async () => {
  const started = Date.now();
  const r = makeRng(SEED);
  const keys = urlKeys();
  // One context; one page, each link loaded into it as a new document (a fresh page per
  // link costs a renderer each, ~2× slower). A page that freezes is replaced.
  let ctx = await s.newContext();
  let page = await ctx.newPage();
  const failures = [];
  let typedPages = 0;
  let typedBoxes = 0;
  let reopened = 0;
  const ms = { open: 0, reopen: 0, cli: 0, type: 0 };
  const tick = () => Date.now();
  for (let i = 0; i < COUNT; i++) {
    const query = randomQuery(r, keys);
    const label = `#${i} ?${query.length > 300 ? query.slice(0, 300) + `… (${query.length} chars)` : query}`;
    const problems = [];
    let t0 = tick();
    try {
      problems.push(...await load(page, `${s.url}?${query}`));
    } catch (e) {
      problems.push(`not ready within ${READY_MS} ms (a frozen or failed page): ${e.message.split('\n')[0].slice(0, 300)}`);
      problems.push(...consoleProblems(page));
      failures.push({ label, problems });
      // A renderer stuck in a loop: start afresh.
      await closeQuietly(page);
      await ctx.close();
      ctx = await s.newContext();
      page = await ctx.newPage();
      continue;
    }
    ms.open += tick() - t0;
    const first = await snapshot(page);
    problems.push(...await badNumberTexts(page, 'after load'));
    // The selected tab's panel is the one shown.
    if (first.selected.length !== 1) problems.push(`selected tabs: ${JSON.stringify(first.selected)}`);
    else if (!first.panels.includes(`panel-${first.selected[0]}`)) problems.push(`tab ${first.selected[0]} selected but panels shown: ${JSON.stringify(first.panels)}`);

    // The CLI reads the written link the same way.
    t0 = tick();
    const c = cliLaws(first.search);
    ms.cli += tick() - t0;
    if (c.error) problems.push(`scaling laws --query ${first.search}: ${c.error}`);
    else {
      if ('?' + c.json.query !== first.search) problems.push(`CLI canonical query ${c.json.query} ≠ page ${first.search}`);
      const f = Number(first.inputs['f-input']);
      if (!(f === c.json.summary.serial_fraction)) problems.push(`#f-input ${first.inputs['f-input']} ≠ CLI serial_fraction ${c.json.summary.serial_fraction}`);
    }

    if (i % TYPE_EVERY === 0) {
      t0 = tick();
      const t = await typeIntoBoxes(page, r);
      ms.type += tick() - t0;
      problems.push(...t.problems);
      typedPages++;
      typedBoxes += t.boxes;
      problems.push(...await badNumberTexts(page, 'after typing', t.typed));
    }
    // The end of this link's session: what it scheduled has run; nothing went wrong since load.
    problems.push(...await settledProblems(page));

    // The address bar the page wrote (before any typing) opens the same view, with no messages.
    if (i % REOPEN_EVERY === 0) {
      t0 = tick();
      try {
        problems.push(...(await load(page, `${s.url}${first.search}`)).map((p) => `reopened: ${p}`));
        const second = await snapshot(page);
        if (second.search !== first.search) problems.push(`reopened link rewrites itself: ${first.search} → ${second.search}`);
        if (second.urlMessagesShown || second.messages.length) problems.push(`the written link has messages: ${JSON.stringify(second.messages)}`);
        for (const k of ['selected', 'panels', 'inputs', 'tables']) {
          try { assert.deepEqual(second[k], first[k]); } catch { problems.push(`reopened link shows different ${k}: ${differences(first[k], second[k])}`); }
        }
        problems.push(...await badNumberTexts(page, 'reopened'));
        problems.push(...(await settledProblems(page)).map((p) => `reopened: ${p}`));
        reopened++;
      } catch (e) {
        problems.push(`reopened link not ready within ${READY_MS} ms: ${e.message.split('\n')[0].slice(0, 300)}`);
      }
      ms.reopen += tick() - t0;
    }
    if (problems.length) failures.push({ label, problems });
  }
  await closeQuietly(page);
  await ctx.close();
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`robustness: ${COUNT} links (seed 0x${SEED.toString(16)}), ${reopened} reopened from the written link, typed into ${typedBoxes} boxes on ${typedPages} pages, in ${seconds} s (open ${ms.open / 1000} s, reopen ${ms.reopen / 1000} s, CLI ${ms.cli / 1000} s, typing ${ms.type / 1000} s); ${failures.length} link(s) with problems`);
  const report = failures.slice(0, 15).map((f) => `${f.label}\n    ${f.problems.slice(0, 8).join('\n    ')}`).join('\n');
  assert.equal(failures.length, 0, `${failures.length} of ${COUNT} links had problems:\n${report}`);
});
