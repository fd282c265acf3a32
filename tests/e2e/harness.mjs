// Shared set-up for the end-to-end tests: serve dist/ on 127.0.0.1 (random port), drive
// Debian's chromium through playwright-core, and record everything that went wrong on a page.
//
//   const ctx = await openSession();            // or openSession({ base: '/docs/x/' })
//   const page = await ctx.newPage();            // page.problems: console errors, page errors,
//   await page.goto(ctx.url + '?v=1&f=0.1');     //   failed requests, HTTP errors
//   await waitReady(page);
//   ...                                          // interactions
//   await assertClean(assert, page);             // LAST: waits for what they scheduled, then
//   await ctx.close();                           //   checks errors and #app-status
//
// Run with `node --test tests/e2e/` after `make build` (dist/ must exist).

import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DIST = process.env.E2E_DIST ? path.resolve(process.env.E2E_DIST) : path.join(REPO, 'dist');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** Generous default for every wait: a 2-core CI machine running cargo next door is slow. */
export const TIMEOUT = Number(process.env.E2E_TIMEOUT_MS || 20_000);

export const CHROMIUM_ARGS = [
  '--no-sandbox', // root on CI
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * The strict Content-Security-Policy the page must run under (tests/e2e/csp.test.mjs) and that
 * docs/embedding.md tells hosts to send: no 'unsafe-inline', no 'unsafe-eval'.
 */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:";

/** The canvases the Laws panel draws. */
export const CANVASES = ['#laws-speedup-canvas', '#laws-efficiency-canvas', '#laws-karp-flatt-canvas'];

/** Fails early with a useful message when the build output is missing. */
export function assertDist() {
  if (!existsSync(path.join(DIST, 'index.html'))) {
    throw new Error(`${DIST}/index.html is missing: run \`make build\` (trunk build --release --offline) first`);
  }
  const files = readdirSync(DIST);
  if (!files.some((f) => f.endsWith('.wasm'))) throw new Error(`no .wasm file in ${DIST}`);
  return files;
}

// Helpers injected into every page before its own scripts (window.__e2e). Kept as plain
// functions so waitForFunction can poll them cheaply. A test that makes its own browser
// context adds them with context.addInitScript({ content: PAGE_HELPERS }).
export const PAGE_HELPERS = `
(() => {
  const fnv = (bytes) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < bytes.length; i++) { h ^= bytes[i]; h = Math.imul(h, 0x01000193); }
    return (h >>> 0).toString(16).padStart(8, '0');
  };
  const canvasStats = (selector) => {
    const c = document.querySelector(selector);
    if (!c) return { found: false };
    const w = c.width, h = c.height;
    if (!w || !h) return { found: true, width: w, height: h, total: 0, differing: 0, fraction: 0, hash: '' };
    const data = c.getContext('2d').getImageData(0, 0, w, h).data;
    const r = data[0], g = data[1], b = data[2], a = data[3];
    let differing = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i] !== r || data[i + 1] !== g || data[i + 2] !== b || data[i + 3] !== a) differing++;
    }
    const total = w * h;
    return { found: true, width: w, height: h, total, differing, fraction: differing / total, hash: fnv(data) };
  };
  // A cell's own text: a .fold note under it (the explorer's settings, repeated from columns
  // a narrow screen hides) is not the cell's value, which the CLI prints alone.
  const ownText = (c) => Array.from(c.childNodes)
    .filter((n) => !(n.nodeType === 1 && n.classList.contains('fold')))
    .map((n) => n.textContent).join('').trim();
  const cellTexts = (row) => Array.from(row.cells).map(ownText);
  const tableData = (selector) => {
    const t = document.querySelector(selector);
    if (!t) return null;
    const headRow = t.tHead && t.tHead.rows[0];
    const headers = headRow ? cellTexts(headRow) : [];
    const bodies = Array.from(t.tBodies);
    const rows = bodies.flatMap((b) => Array.from(b.rows).map(cellTexts));
    const firstCellTags = bodies.flatMap((b) => Array.from(b.rows).map((r) => (r.cells[0] ? r.cells[0].tagName : '')));
    return { headers, rows, firstCellTags, text: t.textContent };
  };
  // Animation frames and short timers (<= 1 s) the page has asked for and that have not run
  // yet, so a test can wait for everything an interaction set off (a redraw, a throttled
  // replaceState) to have run before it checks for errors: an error thrown there is late, not
  // absent. The originals are kept for settled() itself, which must not count its own polls.
  const origSetTimeout = window.setTimeout;
  const origClearTimeout = window.clearTimeout;
  const origRaf = window.requestAnimationFrame;
  const origCancelRaf = window.cancelAnimationFrame;
  const timers = new Set();
  const frames = new Set();
  const SHORT_MS = 1000;
  window.setTimeout = function setTimeout(handler, delay, ...args) {
    if (typeof handler !== 'function' || (Number(delay) || 0) > SHORT_MS) {
      return origSetTimeout.call(window, handler, delay, ...args);
    }
    const id = origSetTimeout.call(window, function () { timers.delete(id); return handler.apply(this, arguments); }, delay, ...args);
    timers.add(id);
    return id;
  };
  window.clearTimeout = function clearTimeout(id) { timers.delete(id); return origClearTimeout.call(window, id); };
  window.requestAnimationFrame = function requestAnimationFrame(callback) {
    if (typeof callback !== 'function') return origRaf.call(window, callback);
    const id = origRaf.call(window, (time) => { frames.delete(id); return callback(time); });
    frames.add(id);
    return id;
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(id) { frames.delete(id); return origCancelRaf.call(window, id); };
  const pending = () => ({ timers: timers.size, frames: frames.size });
  /** Resolves once no frame or short timer is pending (true), or after maxMs (false). */
  const settled = (maxMs = 3000) => new Promise((resolve) => {
    const start = performance.now();
    const poll = () => {
      if (timers.size === 0 && frames.size === 0) resolve(true);
      else if (performance.now() - start > maxMs) resolve(false);
      else origSetTimeout.call(window, poll, 10);
    };
    poll();
  });
  window.__e2e = { canvasStats, tableData, fnv, pending, settled };
})();
`;

/**
 * Starts a static server over dist/ (optionally under `base`, with a CSP header) and a
 * headless chromium. Returns { url, browser, server, newPage, close }.
 */
export async function openSession({ base = '/', csp } = {}) {
  assertDist();
  const server = await startServer({ dir: DIST, port: 0, host: '127.0.0.1', base, csp });
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  } catch (e) {
    await server.close();
    throw new Error(`cannot launch ${CHROMIUM} (apt-get install chromium; scripts/bootstrap.sh does): ${e.message}`);
  }
  const contexts = [];
  const session = {
    url: server.url,
    origin: new URL(server.url).origin,
    browser,
    server,
    /** A fresh page (own context) that records its problems in page.problems. */
    async newPage({ viewport = { width: 1200, height: 900 }, deviceScaleFactor = 1 } = {}) {
      const context = await browser.newContext({ viewport, deviceScaleFactor });
      contexts.push(context);
      context.setDefaultTimeout(TIMEOUT);
      context.setDefaultNavigationTimeout(TIMEOUT);
      await context.addInitScript({ content: PAGE_HELPERS });
      const page = await context.newPage();
      return recordProblems(page);
    },
    /**
     * One browser context for many pages (robustness runs open hundreds of pages; a context
     * each would be slow). Returns { context, newPage, close }; its pages record problems like
     * newPage()'s. `initScript` is added after the page helpers (e.g. a CSP violation recorder).
     */
    async newContext({ viewport = { width: 1200, height: 900 }, initScript } = {}) {
      const context = await browser.newContext({ viewport });
      contexts.push(context);
      context.setDefaultTimeout(TIMEOUT);
      context.setDefaultNavigationTimeout(TIMEOUT);
      await context.addInitScript({ content: PAGE_HELPERS });
      if (initScript) await context.addInitScript({ content: initScript });
      return {
        context,
        newPage: async () => recordProblems(await context.newPage()),
        close: () => context.close().catch(() => {}),
      };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await server.close();
    },
  };
  return session;
}

/** Attaches listeners collecting console errors, uncaught exceptions and failed requests. */
export function recordProblems(page) {
  const problems = { consoleErrors: [], faviconErrors: [], pageErrors: [], failedRequests: [], httpErrors: [], console: [] };
  page.on('console', (msg) => {
    const loc = msg.location();
    const where = loc && loc.url ? ` (at ${loc.url}${loc.lineNumber ? ':' + loc.lineNumber : ''})` : '';
    problems.console.push(`${msg.type()}: ${msg.text()}${where}`);
    if (msg.type() !== 'error') return;
    // Chromium fetches /favicon.ico by itself when the page declares no icon, and logs its 404
    // as a console error some time after load (so whether a test sees it is a matter of timing).
    // load.test.mjs checks deterministically that index.html declares an icon; here it is kept
    // apart so it cannot make other tests flaky.
    if (loc && /\/favicon\.ico$/.test(loc.url || '')) problems.faviconErrors.push(msg.text());
    else problems.consoleErrors.push(`${msg.text()}${where}`);
  });
  page.on('pageerror', (err) => problems.pageErrors.push(String(err && err.stack ? err.stack : err)));
  page.on('requestfailed', (req) => {
    problems.failedRequests.push(`${req.method()} ${req.url()}: ${req.failure()?.errorText ?? 'failed'}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.httpErrors.push(`${res.status()} ${res.url()}`);
  });
  page.problems = problems;
  return page;
}

/** A readable dump of what a page recorded, for assertion messages. */
export function describeProblems(page) {
  return JSON.stringify(page.problems, null, 2);
}

/** Waits until the page says it has drawn everything once (body[data-ready="1"]). */
export async function waitReady(page, timeout = TIMEOUT) {
  try {
    await page.waitForFunction(() => document.body && document.body.dataset.ready === '1', null, { timeout, polling: 50 });
  } catch (e) {
    const status = await page.evaluate(() => document.getElementById('app-status')?.textContent ?? '').catch(() => '');
    throw new Error(`page never set data-ready="1" within ${timeout} ms (#app-status: ${JSON.stringify(status)}); ` +
      `recorded: ${describeProblems(page)}; ${e.message}`);
  }
}

export const canvasStats = (page, selector) => page.evaluate((s) => window.__e2e.canvasStats(s), selector);
export const tableData = (page, selector) => page.evaluate((s) => window.__e2e.tableData(s), selector);

/** Waits for a canvas's pixels to differ from `previousHash`; returns the new stats. */
export async function waitCanvasChange(page, selector, previousHash, timeout = TIMEOUT) {
  await page.waitForFunction(
    ([s, h]) => {
      const st = window.__e2e.canvasStats(s);
      return st.found && st.hash !== '' && st.hash !== h;
    },
    [selector, previousHash],
    { timeout, polling: 100 },
  );
  return canvasStats(page, selector);
}

/** Waits until the query parameter `key` of location.search equals `value`. */
export async function waitForSearch(page, key, value, timeout = TIMEOUT) {
  await page.waitForFunction(
    ([k, v]) => new URLSearchParams(location.search).get(k) === v,
    [key, value],
    { timeout, polling: 50 },
  );
}

/** The memory per GPU (GiB) of the strong table's first row. */
export async function strongMemoryGiB(page) {
  const t = await tableData(page, '#strong-table table');
  const col = t.headers.indexOf('memory/GPU (GiB)');
  if (col < 0) throw new Error(`no memory column: ${t.headers.join(' | ')}`);
  return parseFloat(t.rows[0][col].replace(/,/g, ''));
}

/** Opens the closed groups that hold the input `#id-input`, as a reader finds it: by the
 * groups' summaries. */
export async function openGroupOf(page, id) {
  for (const summary of await page.locator(`details:not([open]):has(#${id}-input) > summary`).all()) {
    await summary.click();
  }
}

/** A promise that resolves to `value` after `ms` (an unref'd timer: it never keeps node alive). */
function resolveAfter(ms, value) {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}

/**
 * Waits until every frame of `page` has run the animation frames and short timers (<= 1 s) it
 * had asked for (what an input change sets off: the redraw, the throttled address write), at
 * most `maxMs`; then makes one more round trip, so the errors they threw have reached
 * page.problems. Returns false when something was still pending after `maxMs` (a page that
 * animates for longer), true otherwise.
 */
export async function settle(page, maxMs = 3_000) {
  let quiet = true;
  const frames = typeof page.frames === 'function' ? page.frames() : [page];
  // A renderer stuck in a loop never answers: give up after maxMs and a margin (the caller's
  // own checks then report what was recorded).
  const bounded = (p) => Promise.race([p, resolveAfter(maxMs + 2_000, false)]);
  for (const frame of frames) {
    if (typeof frame.isDetached === 'function' && frame.isDetached()) continue;
    const done = await bounded(frame.evaluate((ms) => (window.__e2e && window.__e2e.settled ? window.__e2e.settled(ms) : true), maxMs)
      .catch(() => true)); // a detached or closing frame has nothing left to run
    quiet = quiet && done;
  }
  await bounded(page.evaluate(() => 0).catch(() => {}));
  return quiet;
}

/**
 * Waits, as settle() does, until the page has run every frame and short timer it asked for, and
 * fails naming `what` if it has not within `timeout`. The condition a test waits on before it
 * takes a baseline (the first frame's address write has run) or before it checks that an input
 * changed nothing (the redraw and the throttled address write it could have set off have run).
 */
export async function waitQuiet(page, what, timeout = TIMEOUT) {
  if (!(await settle(page, timeout))) {
    const pending = await page.evaluate(() => window.__e2e?.pending()).catch(() => null);
    throw new Error(`the page was still busy after ${timeout} ms (${what}); pending: ${JSON.stringify(pending)}`);
  }
}

/** The visible text of #app-status in every frame of `page` (chart-draw failures), one line per frame showing it. */
export async function appStatusProblems(page) {
  const out = [];
  const frames = typeof page.frames === 'function' ? page.frames() : [page];
  for (const frame of frames) {
    if (typeof frame.isDetached === 'function' && frame.isDetached()) continue;
    const text = await Promise.race([
      frame.evaluate(() => {
        const el = document.getElementById('app-status');
        if (!el || el.hidden || el.getClientRects().length === 0) return '';
        const st = getComputedStyle(el);
        return st.display === 'none' || st.visibility === 'hidden' ? '' : el.textContent.trim();
      }).catch(() => ''),
      resolveAfter(5_000, ''), // a frozen renderer: reported elsewhere
    ]);
    if (text) out.push(`#app-status in ${frame.url()}: ${text}`);
  }
  return out;
}

/**
 * Asserts no console errors, page errors, failed requests or HTTP errors were recorded and
 * #app-status (chart-draw failures) is not showing. Waits for the page to settle first (see
 * settle()), so call it at the END of a test, after its interactions: an error thrown in the
 * redraw an input change asked for arrives after the input change, and fails here.
 * Async: always `await assertClean(...)`.
 */
export async function assertClean(assert, page, what = 'page') {
  const helpers = await page.evaluate(() => !!(window.__e2e && window.__e2e.settled)).catch(() => false);
  assert.ok(helpers, `${what}: the page has no harness helpers (window.__e2e), so assertClean cannot wait for its late errors: ` +
    'open it with openSession().newPage() / newContext(), or add context.addInitScript({ content: PAGE_HELPERS })');
  await settle(page);
  const p = page.problems;
  assert.deepEqual(p.pageErrors, [], `${what}: uncaught page errors\n${describeProblems(page)}`);
  assert.deepEqual(p.consoleErrors, [], `${what}: console errors\n${describeProblems(page)}`);
  assert.deepEqual(p.failedRequests, [], `${what}: failed requests\n${describeProblems(page)}`);
  assert.deepEqual(p.httpErrors, [], `${what}: HTTP errors\n${describeProblems(page)}`);
  assert.deepEqual(await appStatusProblems(page), [], `${what}: the page shows a chart-draw failure in #app-status`);
}

/** Asserts every Laws canvas has a drawing: more than minFraction of pixels differ from the corner. */
export async function assertCanvasesDrawn(assert, page, minFraction = 0.02) {
  for (const sel of CANVASES) {
    const st = await canvasStats(page, sel);
    assert.ok(st.found, `${sel} not found`);
    assert.ok(st.total > 0, `${sel} has zero size (${st.width}x${st.height})`);
    assert.ok(
      st.fraction > minFraction,
      `${sel}: only ${(st.fraction * 100).toFixed(2)}% of ${st.width}x${st.height} pixels differ from the background (want > ${minFraction * 100}%)`,
    );
  }
}

/**
 * page.waitForFunction with a readable failure: on time-out, `describe()` (async) is called
 * and its result is added to the error message.
 */
export async function waitFor(page, fn, arg, what, describe, timeout = TIMEOUT) {
  try {
    await page.waitForFunction(fn, arg, { timeout, polling: 50 });
  } catch (e) {
    const state = describe ? await describe().catch((err) => `(state unavailable: ${err.message})`) : '';
    throw new Error(`timed out after ${timeout} ms waiting for ${what}${state ? `; state: ${state}` : ''}\n${e.message}`);
  }
}

// ---- robustness helpers ---------------------------------------------------------------------

/**
 * Records Content-Security-Policy violations in window.__csp (an init script: add it with
 * newContext({ initScript: CSP_RECORDER }) so it runs before the page's own scripts).
 */
export const CSP_RECORDER = `
(() => {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__csp.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: e.sourceFile, line: e.lineNumber });
  });
})();
`;

/** Console text of a wasm panic or trap (Rust panics reach the console as "panicked at …"
 *  with the panic hook, or as a RuntimeError "unreachable" without it). */
export const PANIC_PATTERN = /panicked|unreachable|RuntimeError|wasm trap|recursive use of an object/i;

/**
 * Every canvas the reader can see (displayed, non-zero size) with its pixel statistics: the
 * fraction of pixels that differ from the top-left pixel (the background).
 */
export function visibleCanvasStats(page) {
  return page.evaluate(() => Array.from(document.querySelectorAll('canvas'))
    .filter((c) => c.getClientRects().length > 0 && c.clientWidth > 0 && c.clientHeight > 0 && getComputedStyle(c).visibility !== 'hidden')
    .map((c) => ({ id: c.id, ...window.__e2e.canvasStats('#' + CSS.escape(c.id)) })));
}

/** Closes a page without waiting forever on a renderer that is stuck in a loop. */
export async function closeQuietly(page, ms = 5_000) {
  await Promise.race([page.close({ runBeforeUnload: false }).catch(() => {}), new Promise((r) => setTimeout(r, ms))]);
}

/** Opens `query` in a new page of session `s`, recording the path of every request, and waits
 * until it is ready. */
export async function openRecording(s, query) {
  const page = await s.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.goto(s.url + query);
  await waitReady(page);
  return { page, requests };
}
