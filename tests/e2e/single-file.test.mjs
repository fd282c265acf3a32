// Offline single-file build (scripts/single-file.mjs, `make single-file`): the one HTML file,
// built here from E2E_DIST (or dist/) into a temp dir where it is the only file, opens straight
// from disk (file://), initialises the embedded wasm, draws, and fetches nothing over http(s).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import {
  DIST, CHROMIUM, CHROMIUM_ARGS, CANVASES, TIMEOUT, PAGE_HELPERS, assertDist, recordProblems, describeProblems,
  waitReady, waitForSearch, assertClean, canvasStats, waitCanvasChange,
} from './harness.mjs';
import { buildSingleFile } from '../../scripts/single-file.mjs';

const STRONG_CANVASES = ['#strong-step-canvas', '#strong-efficiency-canvas', '#strong-throughput-canvas', '#strong-boxes-canvas'];
const LOCAL_SCHEMES = ['file:', 'data:', 'blob:'];

let tmp;
let built;
let fileUrl;
let browser;
const contexts = [];

before(async () => {
  assertDist();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'scaling-single-'));
  built = buildSingleFile({ dist: DIST, out: path.join(tmp, 'scaling-explorer.html') });
  fileUrl = pathToFileURL(built.out).href;
  console.log(`single file: ${built.bytes} B raw (${(built.bytes / 1024).toFixed(1)} KiB), ` +
    `${built.gzipBytes} B gzip (${(built.gzipBytes / 1024).toFixed(1)} KiB); ` +
    `embeds ${built.wasmBytes} B wasm + ${built.jsBytes} B JS`);
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
});

after(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close().catch(() => {});
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Opens the single file with `query`; records every request and aborts any http(s) one. */
async function open(query) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  contexts.push(context);
  context.setDefaultTimeout(TIMEOUT);
  context.setDefaultNavigationTimeout(TIMEOUT);
  // The harness's page helpers (canvas hashes; what assertClean waits on before it checks).
  await context.addInitScript({ content: PAGE_HELPERS });
  const blocked = [];
  await context.route(/^(https?|wss?):/i, (route) => {
    blocked.push(route.request().url());
    return route.abort();
  });
  const page = recordProblems(await context.newPage());
  page.requests = [];
  page.blocked = blocked;
  page.on('request', (r) => page.requests.push(r.url()));
  await page.goto(`${fileUrl}?${query}`);
  await waitReady(page);
  return page;
}

/** Asserts that every request the page made was file:, data: or blob:. */
function assertNoNetwork(page, what) {
  const remote = page.requests.filter((u) => !LOCAL_SCHEMES.includes(new URL(u).protocol));
  assert.deepEqual(remote, [], `${what}: requests other than file:/data:/blob:\n${page.requests.map((u) => u.slice(0, 120)).join('\n')}`);
  assert.deepEqual(page.blocked, [], `${what}: http(s) requests (aborted)`);
}

/** Fraction of pixels that differ from the top-left one, per canvas. */
function drawnFractions(page, selectors) {
  return page.evaluate((sels) => sels.map((s) => {
    const c = document.querySelector(s);
    if (!c || !c.width || !c.height) return { s, fraction: 0, size: c ? `${c.width}x${c.height}` : 'missing' };
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let differing = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2] || d[i + 3] !== d[3]) differing++;
    }
    return { s, fraction: differing / (c.width * c.height), size: `${c.width}x${c.height}` };
  }), selectors);
}

async function assertDrawn(page, selectors, minFraction = 0.02) {
  for (const st of await drawnFractions(page, selectors)) {
    assert.ok(st.fraction > minFraction, `${st.s} (${st.size}): only ${(st.fraction * 100).toFixed(2)}% of pixels drawn`);
  }
}

const text = (page, sel) => page.evaluate((s) => document.querySelector(s)?.textContent.replace(/\s+/g, ' ').trim() ?? null, sel);

test('the single file is the only file and references nothing outside itself', () => {
  assert.deepEqual(readdirSync(tmp), ['scaling-explorer.html']);
  assert.ok(built.bytes > built.wasmBytes, 'the wasm is embedded');
});

test('file://…?v=1&f=0.1: initialises from the embedded wasm, draws, key figures show 10x, no network', async () => {
  const page = await open('v=1&f=0.1');
  assert.equal(new URL(page.url()).protocol, 'file:');
  await assertDrawn(page, CANVASES);
  const figures = await text(page, '#laws-figures');
  assert.ok(figures && figures.includes('10x'), `#laws-figures shows the 1/f ceiling "10x": ${figures}`);
  assert.equal(await page.locator('#f-input').inputValue(), '0.1');
  assert.ok(await page.evaluate(() => typeof window.wasmBindings === 'object' && window.wasmBindings !== null),
    'window.wasmBindings is set, as with Trunk\'s loader');
  assertNoNetwork(page, 'f=0.1');
  await assertClean(assert, page, 'file:// f=0.1');
});

test('file://: history.replaceState keeps the address bar in step (query on a file: URL)', async () => {
  const page = await open('v=1&f=0.1');
  const speedup0 = await canvasStats(page, CANVASES[0]);
  await page.fill('#f-input', '0.2');
  await page.press('#f-input', 'Enter');
  try {
    await waitForSearch(page, 'f', '0.2');
  } catch (e) {
    throw new Error(`location.search never became f=0.2 on file:// (${await page.evaluate(() => location.href)}); ` +
      `recorded: ${describeProblems(page)}; ${e.message}`);
  }
  const url = new URL(page.url());
  assert.equal(url.protocol, 'file:');
  assert.equal(url.pathname, new URL(fileUrl).pathname, 'same file');
  const figures = await text(page, '#laws-figures');
  assert.ok(figures.includes('5x'), `ceiling follows f=0.2: ${figures}`);
  const speedup1 = await waitCanvasChange(page, CANVASES[0], speedup0.hash);
  assert.ok(speedup1.fraction > 0.02, `${CANVASES[0]} redrawn for f = 0.2: ${JSON.stringify(speedup1)}`);
  assertNoNetwork(page, 'replaceState');
  await assertClean(assert, page, 'file:// replaceState');
});

test('file://…?v=1&preset=seed-strong: strong panel, N_max 8,649, four charts drawn, no network', async () => {
  const page = await open('v=1&preset=seed-strong');
  assert.equal(await page.getAttribute('#tab-strong', 'aria-selected'), 'true');
  await assertDrawn(page, STRONG_CANVASES);
  const figures = await text(page, '#strong-figures');
  assert.ok(figures && figures.includes('8,649'), `#strong-figures shows N_max 8,649: ${figures}`);
  const rows = await page.evaluate(() => document.querySelectorAll('#strong-table table tbody tr').length);
  assert.ok(rows >= 2, `#strong-table has rows (${rows})`);
  assertNoNetwork(page, 'seed-strong');
  await assertClean(assert, page, 'file:// seed-strong');
});
