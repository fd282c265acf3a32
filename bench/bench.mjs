#!/usr/bin/env node
// `make bench`: how fast the page loads and redraws, in headless Debian Chromium, next to the
// same speedup chart drawn with uPlot and with Plotly.js. Prints the figures and PASS/FAIL
// against the targets of docs/performance.md (and the soak of 10,000 slider steps); writes
// everything, with the commit and the machine, to test-results/bench.json, from which
// bench/results.mjs writes the results section of docs/performance.md. The redraw targets are
// judged in the CPU columns (main-thread time per update), which a busy machine inflates less;
// wall-clock figures are printed beside them. The updates at 4× CPU throttling (p95 ≤ 33 ms,
// top of each tab) stand for a phone; our chart against uPlot's (ours/uPlot ≤ 1, median and
// p95); the Plotly.js ratio is printed for reference only.
//
// Each section is one function (`benchSizes` … `benchSoak`, listed in SECTIONS) that reads and
// writes a shared context (options, servers, browser, results); `main` sets it up, runs the
// sections `--only` allows and `judgeTargets` after a full run.
//
//   node bench/bench.mjs [--dist DIR] [--bindgen-dir DIR] [--updates 200] [--warmup 20] [--loads 12]
//                        [--profile-updates 30] [--no-profile] [--soak-steps 10000] [--quick] [--strict] [--json FILE]
//
// Needs a release build in --dist (default dist/, or $BENCH_DIST): `make build`. The CPU
// profile (function names) uses --bindgen-dir (default target/wasm-bindgen/release, or
// $BENCH_BINDGEN_DIR): Trunk's unoptimised wasm-bindgen output of the same build, re-optimised
// with the same wasm-opt flags plus -g (keeps the names) and checked against the shipped wasm.

import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, copyFileSync, readdirSync, existsSync, rmSync, renameSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { spawnSync, execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../scripts/serve.mjs';
import { CHROMIUM_ARGS } from '../tests/e2e/harness.mjs';
import { wasmImports, setIntegrity } from '../scripts/post-build.mjs';
import { BUDGETS, prerenderedBytes, lazySizes } from '../scripts/size.mjs';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { summary, ms, kib, table, traceSelfTimes, traceBreakdown, BREAKDOWN_LABELS, loadBreakdown, LOAD_LABELS, cpuPerUpdate, profileSelfTimes } from './analyse.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const PROBE = readFileSync(path.join(REPO, 'bench', 'page-probe.js'), 'utf8');
const VIEWPORT = { width: 1200, height: 900 };

// Targets: p95 of an update with the top of each tab on screen, and with a whole
// tab on screen (one 60 Hz frame); median first full draw of cold loads.
const TARGET_P95_MS = 8;
const TARGET_ALL_VISIBLE_MS = 16.7;
const TARGET_FIRST_DRAW_MS = 150;
// The soak: slider steps, and the share of them that is warm-up (memory and p95 compared after).
const SOAK_STEPS = 10_000;
const SOAK_WARMUP = 1_000;
// p95 of the last thousand steps at most this much above the first thousand after warm-up.
const SOAK_P95_DRIFT = 1.1;
// The budgets of scripts/size.mjs, which tests/e2e/size.test.mjs enforces (same files, same zlib
// level 9): the English first view, and the prerendered first view counted apart.
const TARGET_GZIP_BYTES = BUDGETS.english;
const TARGET_PRERENDERED_BYTES = BUDGETS.prerendered;
// "≥ 5× faster than Plotly.js", no longer a gate (the ratio says more about the machine than the
// page): printed for reference, never PASS/FAIL.
const REFERENCE_PLOTLY_RATIO = 5;
// The top of each tab at phone speed, Lighthouse's mobile CPU slowdown (4×) applied
// with the DevTools protocol's CPU throttling; p95 within two 60 Hz frames (30 frames a second).
const THROTTLE_RATE = 4;
// How fast the host is, as Lighthouse measures it (`computeBenchmarkIndex`, the figure its
// reports give as `environment.benchmarkIndex`), so that runs on different machines can be
// compared: a throttling rate slows the host, not to a fixed device. DevTools's CPU
// calibration (front_end/panels/mobile_throttling/CalibrationController.ts) scores its
// mid-tier phone (a Pixel 5) 1,000 and its low-tier one (a Moto G Power 2022) 264.
const BENCHMARK_INDEX_RUNS = 3;
const MID_TIER_PHONE_INDEX = 1000;
const LOW_TIER_PHONE_INDEX = 264;
const TARGET_THROTTLED_P95_MS = 33;
// What a reader pays on the first input after a load at phone speed. Each page loads
// with the 4× CPU slowdown already on, is left to finish its start, then gets one key press on
// an input; the Event Timing API's duration of that interaction (input delay, handlers and the
// next paint: what INP measures; entries under 16 ms are not reported) is judged, the median
// of FIRST_INPUT_LOADS loads, against Web Vitals' "good" INP.
const TARGET_FIRST_INPUT_MS = 200;
const FIRST_INPUT_LOADS = 3;
const FIRST_INPUT_PAGES = [
  { label: '?v=1', query: 'v=1', target: '#f-range', key: 'ArrowRight' },
  { label: '?v=1&view=strong', query: 'v=1&view=strong', target: '#b-range', key: 'ArrowRight' },
  { label: '?v=1&view=learn', query: 'v=1&view=learn', target: '#q2 input', key: '3' },
  { label: '?v=1&embed=strong', query: 'v=1&embed=strong', target: '#b-range', key: 'ArrowRight' },
];

// ---- options ----------------------------------------------------------------------------------

function parseArgs(argv) {
  const o = {
    dist: process.env.BENCH_DIST || path.join(REPO, 'dist'),
    updates: 200,
    warmup: 20,
    loads: 12,
    profileUpdates: 30,
    profile: true,
    soakSteps: SOAK_STEPS,
    json: path.join(REPO, 'test-results', 'bench.json'),
    only: null,
    // Trunk's intermediate wasm-bindgen output of the same build (for the CPU profile's names).
    bindgenDir: process.env.BENCH_BINDGEN_DIR || path.join(REPO, 'target', 'wasm-bindgen', 'release'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--dist': o.dist = path.resolve(next()); break;
      case '--bindgen-dir': o.bindgenDir = path.resolve(next()); break;
      case '--updates': o.updates = Number(next()); break;
      case '--warmup': o.warmup = Number(next()); break;
      case '--loads': o.loads = Number(next()); break;
      case '--profile-updates': o.profileUpdates = Number(next()); break;
      case '--no-profile': o.profile = false; break;
      // Exit 1 when a target is missed (the default only reports).
      case '--strict': o.strict = true; break;
      case '--soak-steps': o.soakSteps = Number(next()); break;
      case '--quick': o.updates = 60; o.warmup = 10; o.loads = 4; o.profileUpdates = 20; o.soakSteps = 1000; break;
      case '--json': o.json = path.resolve(next()); break;
      // Development: run some sections only (sizes,loads,updates,throttled,plotly,uplot,profile,soak); no targets table.
      case '--only': o.only = new Set(next().split(',')); break;
      // Development: a style sheet added to every page of the updates section (A/B experiments).
      case '--css': o.css = next(); break;
      // Development: the top-of-tab update rows only (unthrottled and throttled), for these panels (laws,strong,weak,plan,strong-best,drag).
      case '--panels': o.panels = new Set(next().split(',')); break;
      case '-h': case '--help':
        console.log('usage: node bench/bench.mjs [--dist DIR] [--bindgen-dir DIR] [--updates N] [--warmup N] [--loads N] [--profile-updates N] [--no-profile] [--soak-steps N] [--quick] [--strict] [--json FILE]\n  development: [--only sizes,loads,updates,throttled,first-input,plotly,uplot,profile,soak] [--panels laws,strong,weak,plan,strong-best,drag] [--css RULES]');
        process.exit(0);
        break;
      default: throw new Error(`unknown argument ${a}`);
    }
  }
  return o;
}

// ---- what is measured -------------------------------------------------------------------------

// Typed values: every step differs from the previous one, all are valid inputs.
const typedF = (i) => (i % 5 === 0 ? `${(0.2 + ((i * 1.37) % 40)).toFixed(2)}%` : (0.002 + ((i * 0.0137) % 0.4)).toFixed(4));
const typedBeff = (i) => `${20 + ((i * 13) % 380)}G`;
const typedBcrit = (i) => `${(0.5 + ((i * 3.7) % 60)).toFixed(1)}e6`;

const PANELS = [
  { key: 'laws', label: 'laws', query: 'v=1', slider: '#f-range', input: '#f-input', msg: '#f-msg', typed: typedF, canvases: 3 },
  { key: 'strong', label: 'strong', query: 'v=1&preset=seed-strong', slider: '#beff-range', input: '#beff-input', msg: '#beff-msg', typed: typedBeff, canvases: 4 },
  { key: 'weak', label: 'weak', query: 'v=1&preset=seed-weak', slider: '#beff-range', input: '#beff-input', msg: '#beff-msg', typed: typedBeff, canvases: 5 },
  { key: 'plan', label: 'plan', query: 'v=1&preset=seed-weak&view=plan', slider: '#bcrit-range', input: '#bcrit-input', msg: '#bcrit-msg', typed: typedBcrit, canvases: 2 },
];
// The layout search on every input change. The Strong tab of a 16,384-GPU sweep with
// `lay=best`: every layout at each of the five table rows is scored
// per update. Target: p95 within one 60 Hz frame, with the top of the tab on screen.
const SEARCH_PANEL = {
  key: 'strong-best', label: 'strong, lay=best, 1,024…16,384 GPUs (top of tab)',
  query: 'v=1&preset=gpt3-175b-walls&lay=best&ns=1024,2048,4096,8192,16384',
  slider: '#beff-range', input: '#beff-input', msg: '#beff-msg', typed: typedBeff, canvases: 4,
};
const TARGET_SEARCH_P95_MS = 16.7;
// The heaviest drag: Mixtral 8x7B with `lay=best` and the layout explorer open and on screen,
// the slider dragged (one slider move a frame, each within the page's 150 ms drag window).
// Target: each move painted within 100 ms at 1× CPU (p95 of the latency, event to frame
// produced, as the Event Timing API measures an interaction); the explorer's own search may
// finish after the pointer rests.
const DRAG_PANEL = {
  key: 'drag', label: 'drag: Mixtral 8x7B, lay=best, explorer at 512 GPUs on screen',
  query: 'v=1&preset=mixtral-8x7b-walls&view=strong&lay=best&lx=512',
  slider: '#beff-range', input: '#beff-input', msg: '#beff-msg', typed: typedBeff, canvases: 4,
  sliderOnly: true, scrollTo: '#strong-layouts-table',
};
const TARGET_DRAG_MS = 100;

/**
 * The layouts one update of `query` scores: the search space's size at each table row, from
 * the CLI (`scaling layouts --format json`'s `searched`), which runs the same search.
 */
function layoutsPerUpdate(query) {
  const bin = ['release', 'debug'].map((p) => path.join(REPO, 'target', p, 'scaling')).find((f) => existsSync(f));
  if (!bin) return null;
  const ns = new URLSearchParams(query).get('ns').split(',').map(Number);
  const perRow = ns.map((n) => JSON.parse(execFileSync(bin, ['layouts', '--query', query, '--n', String(n), '--top', '1', '--format', 'json'], { encoding: 'utf8' })).searched);
  return { ns, perRow, total: perRow.reduce((a, b) => a + b, 0) };
}

// Like for like with the Plotly page: only the speedup chart displayed (draw_chart skips a
// canvas whose figure is display:none), the key figures and the speedup table still update.
const SPEEDUP_ONLY_CSS = '#laws-efficiency, #laws-karp-flatt { display: none !important; }';
// Chart against chart with uPlot: only the speedup chart on screen. As above, and the
// speedup figure's data table and text summary hidden too (still rewritten, but neither laid out
// nor painted); scrolled to the chart, the key figures above it stay on screen.
const CHART_ONLY_CSS = '#laws-efficiency, #laws-karp-flatt, #laws-speedup-table, #laws-speedup-summary { display: none !important; }';
// The same page without the chart: the canvas hidden too (draw_chart skips a canvas of size 0).
// What is left of that update: handler, model, number box, key figures. Printed, not judged.
const NO_CHART_CSS = '#laws-efficiency, #laws-karp-flatt, #laws-speedup-table, #laws-speedup-summary, #laws-speedup-canvas { display: none !important; }';
// Chart against chart: our speedup chart's own share of an update (the update with the chart
// on screen less the same update without it) against uPlot's (bench/uplot.html, the same
// curves, less its page without the chart); ours may cost at most 1.2 times as much (median
// and p95, CPU). The whole updates' ratio is printed beside it, not judged.
const TARGET_UPLOT_RATIO = 1.2;
// uPlot and ours alternate in this many rounds (a drift in the machine's load hits both).
const UPLOT_ROUNDS = 2;

// ---- helpers ----------------------------------------------------------------------------------

const log = (...a) => console.log(...a);
const benchStarted = Date.now();
const section = (title) => {
  const at = ((Date.now() - benchStarted) / 1000).toFixed(0).padStart(3);
  log(`\n== ${title} ${'='.repeat(Math.max(0, 80 - title.length))} t=${at} s`);
};

function assertDist(dist) {
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error(`${dist}/index.html is missing: run \`make build\` (or pass --dist)`);
  }
  const files = readdirSync(dist);
  if (!files.some((f) => f.endsWith('.wasm'))) throw new Error(`no .wasm file in ${dist}`);
  return files;
}

async function newPage(browser, { deviceScaleFactor = 1 } = {}) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor });
  context.setDefaultTimeout(60_000);
  await context.addInitScript({ content: PROBE });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.errors = errors;
  return { context, page };
}

async function waitReady(page) {
  await page.waitForFunction(() => document.body && document.body.dataset.ready === '1', null, { polling: 20, timeout: 60_000 });
  // Let the first frame finish and the URL throttle timer settle.
  await page.waitForTimeout(300);
}

/**
 * One load of `url` with the CPU slowdown on from the navigation, then one key press on
 * `spec.target` once the start is done: the interaction's longest Event Timing entry.
 */
async function firstInput(browser, url, spec) {
  const { context, page } = await newPage(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE_RATE });
  await page.goto(url);
  await waitReady(page);
  // The start's own tasks (charts drawn one a task) at 4×: a reader's first touch comes after.
  await page.waitForTimeout(3000);
  await page.evaluate(() => {
    window.__events = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.interactionId) window.__events.push({ name: e.name, duration: e.duration, delay: e.processingStart - e.startTime, processing: e.processingEnd - e.processingStart });
      }
    }).observe({ type: 'event', durationThreshold: 16 });
  });
  await page.focus(spec.target);
  await page.keyboard.press(spec.key);
  // The entry is reported after the next paint.
  await page.waitForTimeout(1500);
  const events = await page.evaluate(() => window.__events);
  const errors = page.errors.slice();
  await context.close();
  const worst = events.reduce((a, e) => (e.duration > a.duration ? e : a), { duration: 0, delay: 0, processing: 0 });
  return { ...worst, events: events.length, errors };
}

/** Derived per-update figures (ms) from the raw page timestamps. */
function derive(r) {
  const handler = r.tH - r.t0;
  const frame = r.tFe - r.tFs;
  const render = r.tP - r.tFe;
  return {
    kind: r.kind,
    rejected: r.rejected,
    late: r.late,
    handler,
    wait: r.tFs - r.tH,
    frame,
    render,
    cost: handler + (r.tP - r.tFs),
    latency: r.tP - r.t0,
    script: handler + frame,
    urlWrites: r.urlWrites,
    urlWrite: r.urlWrite,
    costWithoutUrl: handler + (r.tP - r.tFs) - r.urlWrite,
    // Inside the page's frame: before the first chart (the model, the first canvas size read
    // and the layout it forces), each chart from its getContext to the next one's, then the
    // tables and text (from the first textContent write after the charts to the frame's end).
    prologue: r.charts.length ? r.charts[0][1] - r.tFs : NaN,
    charts: r.charts.map(([id, t], k) => [id, (k + 1 < r.charts.length ? r.charts[k + 1][1] : (r.textAt ?? r.tFe)) - t]),
    text: r.charts.length && r.textAt != null ? r.tFe - r.textAt : NaN,
  };
}

/**
 * Runs the updates in the page. With `browser`, a light Chrome trace (toplevel tasks and the
 * probe's marks) runs alongside and each row gets `cpu`: the main thread's CPU time for it.
 */
async function runUpdates(page, spec, count, warmup, { browser } = {}) {
  const typed = Array.from({ length: warmup + count }, (_, i) => spec.typed(i));
  const arg = { slider: spec.slider, input: spec.input, msg: spec.msg, typed, count, warmup, traced: !!browser, sliderOnly: !!spec.sliderOnly };
  if (browser) await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  const raw = await page.evaluate(async (a) => {
    performance.mark('bench-begin');
    const r = await window.__bench.run(a);
    performance.mark('bench-end');
    return r;
  }, arg);
  const rows = raw.map(derive);
  if (browser) {
    const buf = await browser.stopTracing();
    const cpu = cpuPerUpdate(JSON.parse(buf.toString('utf8')).traceEvents).slice(warmup);
    if (cpu.length === rows.length) rows.forEach((r, i) => { r.cpu = cpu[i]; });
  }
  return rows;
}

function stats(rows) {
  const ok = rows.filter((r) => !r.rejected);
  const pick = (k) => summary(ok.map((r) => r[k]));
  const chartIds = [...new Set(ok.flatMap((r) => r.charts.map((c) => c[0])))];
  const perChart = chartIds.map((id) => [id, summary(ok.map((r) => r.charts.find((c) => c[0] === id)?.[1] ?? NaN)).median]);
  return {
    n: ok.length,
    rejected: rows.length - ok.length,
    late: ok.filter((r) => r.late).length,
    cost: pick('cost'),
    latency: pick('latency'),
    script: pick('script'),
    handler: pick('handler'),
    frame: pick('frame'),
    render: pick('render'),
    wait: pick('wait'),
    prologue: pick('prologue'),
    text: pick('text'),
    withUrlWrite: ok.filter((r) => r.urlWrites > 0).length,
    urlWrite: summary(ok.filter((r) => r.urlWrites > 0).map((r) => r.urlWrite / r.urlWrites)),
    costWithoutUrl: pick('costWithoutUrl'),
    cpu: pick('cpu'),
    slider: summary(ok.filter((r) => r.kind === 'slider').map((r) => r.cost)),
    typed: summary(ok.filter((r) => r.kind === 'typed').map((r) => r.cost)),
    perChart,
  };
}

const passFail = (ok) => (ok ? 'PASS' : 'FAIL');

/** The layout search's rows: layouts scored per update, the time per layout, the p95 target. */
function printSearch(r) {
  if (!r) return;
  log(table([
    ['layout search (lay=best)', 'measured', 'result'],
    ['layouts scored per update (five rows)', r.layoutsPerUpdate === null ? 'no CLI binary' : `${r.layoutsPerUpdate.toLocaleString('en-US')} (${r.perRow.join(' + ')})`, ''],
    ['time per layout (script median / layouts)', r.usPerLayout === null ? '' : `${r.usPerLayout.toFixed(3)} µs`, ''],
    [`update p95 ≤ ${TARGET_SEARCH_P95_MS} ms, top of the Strong tab`, `${ms(r.p95)} ms (CPU ${ms(r.cpuP95)} ms)`, passFail(r.pass)],
  ]));
}

/** The heaviest drag's row: the p95 latency of a slider move against its target. */
function printDrag(r) {
  if (!r) return;
  log(table([
    ['heaviest drag', 'measured', 'result'],
    [`${DRAG_PANEL.label}: move → painted p95 ≤ ${TARGET_DRAG_MS} ms`, `${ms(r.p95)} ms (median ${ms(r.median)} ms, CPU p95 ${ms(r.cpuP95)} ms)`, passFail(r.pass)],
  ]));
}

/**
 * Linux only (null elsewhere): CPU time used by the whole machine and by this process with its
 * descendants (Chromium and its renderers; exited ones count once reaped into their parent's
 * cutime), in clock ticks. Between two snapshots, the difference is what *other* processes
 * took while the benchmark ran — the load average cannot tell, since the benchmark's own
 * Chromium processes raise it.
 */
function cpuSnapshot() {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = cpu[3] + (cpu[4] || 0);
    const total = cpu.reduce((a, b) => a + b, 0);
    const procs = new Map();
    for (const d of readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        // f[1] = ppid; utime, stime, cutime, cstime are fields 14–17 of stat (f[11..14]).
        procs.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
      } catch { /* exited meanwhile */ }
    }
    const mine = new Set([process.pid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [pid, p] of procs) if (!mine.has(pid) && mine.has(p.ppid)) { mine.add(pid); grew = true; }
    }
    let own = 0;
    for (const pid of mine) own += procs.get(pid)?.ticks ?? 0;
    return { busy: total - idle, total, own };
  } catch {
    return null;
  }
}

// ---- 1. sizes ---------------------------------------------------------------------------------

async function measureSizes(browser, url, dist) {
  const { context, page } = await newPage(browser);
  const seen = [];
  page.on('response', (r) => seen.push({ url: r.url(), status: r.status(), type: r.request().resourceType() }));
  await page.goto(url + '?v=1');
  await waitReady(page);
  await context.close();
  const base = new URL(url);
  const files = [];
  for (const s of seen) {
    const u = new URL(s.url);
    if (u.origin !== base.origin || s.status !== 200) continue;
    let rel = decodeURIComponent(u.pathname.slice(base.pathname.length));
    if (rel === '' || rel.endsWith('/')) rel += 'index.html';
    const file = path.join(dist, rel);
    if (!existsSync(file) || files.some((f) => f.rel === rel)) continue;
    const raw = readFileSync(file);
    files.push({ rel, type: s.type, raw: raw.length, gzip: gzipSync(raw, { level: constants.Z_BEST_COMPRESSION }).length });
  }
  const total = files.reduce((a, f) => a + f.gzip, 0);
  const wasmJs = files.filter((f) => /\.(wasm|js)$/.test(f.rel)).reduce((a, f) => a + f.gzip, 0);
  return { files, total, wasmJs, rawTotal: files.reduce((a, f) => a + f.raw, 0) };
}

// ---- 2. loads ---------------------------------------------------------------------------------

async function measureLoads(browser, url, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const { context, page } = await newPage(browser); // fresh context: empty HTTP cache
    await page.goto(url);
    await page.waitForFunction(() => window.__bench.load.readyFrameDoneAt !== null, null, { polling: 20, timeout: 60_000 });
    const r = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'));
      return {
        ...window.__bench.load,
        htmlEnd: nav?.responseEnd,
        domContentLoaded: nav?.domContentLoadedEventEnd,
        wasmEnd: wasm?.responseEnd,
      };
    });
    await context.close();
    out.push(r);
  }
  return out;
}

// ---- 3. profiling build (wasm with function names) ----------------------------------------------


/**
 * A copy of dist/ whose wasm keeps its name section; null with a reason if not possible.
 *
 * dist/ holds Trunk's output after scripts/post-build.mjs: wasm-opt'd, import/export names
 * shortened, the wasm-bindgen JS minified. The profiling copy re-optimises Trunk's
 * intermediate `<bindgenDir>/*_bg.wasm` with the flags in www/index.html plus -g (keeps the
 * function names) and serves it with the intermediate, unminified JS (whose import names match
 * it, and whose glue functions keep their `__wbg_<method>_…` names for the profile). It checks
 * that this is the code being measured: the -g wasm with its names stripped (and, when dist's
 * imports were shortened, shortened the same way) must equal dist's wasm byte for byte.
 */
function buildProfilingDist(dist, files, bindgenDir) {
  const pre = bindgenDir;
  // The first view's module (crates/page), not the full or the runs module beside it.
  const preWasm = existsSync(pre) && readdirSync(pre).find((f) => f === 'scaling-explorer-page_bg.wasm');
  const preJs = existsSync(pre) && readdirSync(pre).find((f) => f === 'scaling-explorer-page.js');
  if (!preWasm || !preJs) return { reason: `no ${pre}/*_bg.wasm (run trunk build --release)` };
  const distWasm = files.find((f) => /^scaling-explorer-page-[0-9a-f]+_bg\.wasm$/.test(f));
  const distJs = distWasm && distWasm.replace(/_bg\.wasm$/, '.js');
  if (!distWasm || !files.includes(distJs)) return { reason: `no <name>_bg.wasm with its <name>.js in ${dist}` };
  const html = readFileSync(path.join(REPO, 'www', 'index.html'), 'utf8');
  const level = /data-wasm-opt="([^"]+)"/.exec(html)?.[1] ?? 'z';
  const params = (/data-wasm-opt-params="([^"]*)"/.exec(html)?.[1] ?? '').split(/\s+/).filter(Boolean);
  const env = { ...process.env, PATH: `${path.join(REPO, 'node_modules', '.bin')}:${process.env.PATH}` };
  // Cached in target/bench/ by the input wasm and flags: a second run on the same build is quick.
  const cacheDir = path.join(REPO, 'target', 'bench');
  const preBytes = readFileSync(path.join(pre, preWasm));
  const preJsText = readFileSync(path.join(pre, preJs));
  const key = createHash('sha256').update(preBytes).update(`${level} ${params.join(' ')} -g`).digest('hex').slice(0, 24);
  const cached = path.join(cacheDir, `profiling-${key}.wasm`);
  const t = Date.now();
  mkdirSync(cacheDir, { recursive: true });
  if (!existsSync(cached)) {
    // Optimise a copy: a concurrent build may rewrite the intermediate meanwhile.
    const input = `${cached}.in`;
    writeFileSync(input, preBytes);
    const args = [input, `-O${level}`, ...params, '-g', '-o', `${cached}.tmp`];
    const r = spawnSync('wasm-opt', args, { env, encoding: 'utf8' });
    rmSync(input, { force: true });
    if (r.status !== 0) return { reason: `wasm-opt failed: ${r.stderr || r.error}` };
    renameSync(`${cached}.tmp`, cached);
  }
  // Is it the shipped code? Strip the names (and shorten imports/exports as post-build does).
  const shipped = readFileSync(path.join(dist, distWasm));
  const check = `${cached}.check`;
  let same = false;
  for (const extra of [[], ['--minify-imports-and-exports-and-modules']]) {
    const r = spawnSync('wasm-opt', [cached, '--strip-debug', ...extra, '-o', check], { env, encoding: 'utf8' });
    if (r.status === 0 && existsSync(check) && readFileSync(check).equals(shipped)) same = true;
    rmSync(check, { force: true });
    if (same) break;
  }
  if (!same) return { reason: `${pre} is not the build in ${dist} (its wasm, optimised, differs from the shipped one); rebuild` };
  // The JS must provide every import the wasm asks for.
  const jsText = preJsText.toString('utf8');
  const missing = wasmImports(readFileSync(cached)).map((imp) => imp.field).filter((f) => !jsText.includes(`${f}:`));
  if (missing.length) return { reason: `${pre}/${preJs} lacks ${missing.length} of the wasm's imports (${missing.slice(0, 3).join(', ')}); rebuild` };
  // …and call only exports the wasm has.
  const exported = new Set(WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(cached))).map((e) => e.name));
  const called = [...new Set([...jsText.matchAll(/\bwasm\.([A-Za-z_$][\w$]*)/g)].map((m) => m[1]))];
  const absent = called.filter((n) => !exported.has(n));
  if (absent.length) return { reason: `${pre}/${preJs} calls ${absent.length} exports the wasm lacks (${absent.slice(0, 3).join(', ')}); rebuild` };
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-profile-'));
  for (const f of files) copyFileSync(path.join(dist, f), path.join(tmp, f));
  copyFileSync(cached, path.join(tmp, distWasm));
  writeFileSync(path.join(tmp, distJs), preJsText);
  // The preload links carry subresource-integrity hashes of the shipped files.
  let index = readFileSync(path.join(tmp, 'index.html'), 'utf8');
  index = setIntegrity(index, distWasm, readFileSync(path.join(tmp, distWasm)));
  index = setIntegrity(index, distJs, preJsText);
  writeFileSync(path.join(tmp, 'index.html'), index);
  return { dir: tmp, seconds: (Date.now() - t) / 1000, command: `wasm-opt ${preWasm} -O${level} ${params.join(' ')} -g, with the unminified ${preJs}` };
}

/** The commit the bench ran on (`git describe`-like: short hash, `-dirty` with local changes), or null. */
function gitCommit() {
  const git = (...a) => spawnSync('git', a, { cwd: REPO, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return null;
  const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';
  return { hash: head.stdout.trim(), dirty, subject: git('log', '-1', '--format=%s').stdout.trim() };
}

// ---- main -------------------------------------------------------------------------------------
/**
 * One page of ours, `updates` timed updates after the warm-up, with the CPU trace. `throttle`:
 * the DevTools protocol's CPU throttling rate (Emulation.setCPUThrottlingRate on the page's
 * CDP session), set after the load, before the warm-up. The laws panel's speedup canvas size
 * is kept in `ctx.speedupCanvasSize` for the reference pages.
 */
async function runPanel(ctx, spec, { deviceScaleFactor = 1, css = null, updates = ctx.opts.updates, fullHeight = false, scrollTo = null, throttle = null } = {}) {
  const { opts, browser, server } = ctx;
  const { context, page } = await newPage(browser, { deviceScaleFactor });
  await page.goto(`${server.url}?${spec.query}`);
  await waitReady(page);
  if (css) await page.addStyleTag({ content: css });
  if (opts.css) await page.addStyleTag({ content: opts.css });
  let viewport = VIEWPORT;
  if (fullHeight) {
    // A viewport as tall as the page: every chart and table of the tab on screen. Twice,
    // since the new size can change the layout (no scrollbar, wider canvases).
    for (let k = 0; k < 2; k++) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      viewport = { width: VIEWPORT.width, height };
      await page.setViewportSize(viewport);
      await page.waitForTimeout(300);
    }
  }
  if (scrollTo) {
    await page.evaluate((sel) => document.querySelector(sel).scrollIntoView({ block: 'start' }), scrollTo);
    await page.waitForTimeout(300);
  }
  const canvas = spec.key === 'laws' ? await page.evaluate(() => {
    const c = document.querySelector('#laws-speedup-canvas');
    return { w: c.clientWidth, h: c.clientHeight };
  }) : null;
  if (canvas && !css) ctx.speedupCanvasSize = canvas;
  if (throttle) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  }
  const rows = await runUpdates(page, spec, updates, opts.warmup, { browser });
  const errors = page.errors.slice();
  await context.close();
  return { rows, stats: stats(rows), errors, viewport, canvas };
}

/**
 * Section 1: the transfer size, gzip -9 of every file the page loads.
 */
async function benchSizes(ctx) {
  const { opts, files, results, browser, server, plotlyJs } = ctx;
  section('Transfer size (gzip -9 of every file the page loads)');
  const sizes = await measureSizes(browser, server.url, opts.dist);
  ctx.sizes = sizes;
  results.sizes = sizes;
  log(table([
    ['file', 'type', 'raw B', 'gzip B'],
    ...sizes.files.map((f) => [f.rel, f.type, f.raw, f.gzip]),
    ['total', '', sizes.rawTotal, sizes.total],
  ]));
  sizes.prerendered = prerenderedBytes(opts.dist);
  log(`total ${sizes.total} B = ${kib(sizes.total)}, of which the prerendered first view ${sizes.prerendered} B (budget ${TARGET_GZIP_BYTES} B + up to ${TARGET_PRERENDERED_BYTES} B prerendered, ${TARGET_GZIP_BYTES + Math.min(sizes.prerendered, TARGET_PRERENDERED_BYTES) - sizes.total} B left); wasm + js ${sizes.wasmJs} B = ${kib(sizes.wasmJs)}`);
  // Chinese readers (lang=zh or a zh browser) also fetch the catalogue zh-<hash>.txt.
  const zh = files.find((f) => /^zh-[0-9a-f]+\.txt$/.test(f));
  if (zh) {
    const raw = readFileSync(path.join(opts.dist, zh));
    sizes.zhCatalogue = { rel: zh, raw: raw.length, gzip: gzipSync(raw, { level: constants.Z_BEST_COMPRESSION }).length };
    log(`a Chinese reader also downloads ${zh}: ${sizes.zhCatalogue.raw} B raw, ${sizes.zhCatalogue.gzip} B gzipped (total ${sizes.total + sizes.zhCatalogue.gzip} B)`);
  }
  // What no first view downloads: the Learn files, the full and the runs module.
  sizes.lazy = lazySizes(opts.dist);
  log(`fetched later: the Learn files ${Object.entries(sizes.lazy.learn).map(([l, b]) => `${l} ${b} B`).join(', ')} (budget ${BUDGETS.learn} B each); ` +
    `the full module ${sizes.lazy.full} B (budget ${BUDGETS.full} B); the runs module ${sizes.lazy.runs} B (budget ${BUDGETS.runs} B)`);
  const plotlyGzip = gzipSync(readFileSync(plotlyJs), { level: constants.Z_BEST_COMPRESSION }).length;
  results.plotlyGzip = plotlyGzip;
  log(`(for scale: plotly.min.js alone is ${plotlyGzip} B = ${kib(plotlyGzip)} gzipped)`);
}

/**
 * Section 2: load → first full draw, cold loads of our pages and the Plotly page.
 */
async function benchLoads(ctx) {
  const { opts, results, browser, server, plotlyServer } = ctx;
  section(`Load → first full draw (body[data-ready="1"]), ${opts.loads} cold loads each`);
  const loadRows = [['page', 'n', 'median', 'p95', 'min', 'max', 'html', 'wasm', 'app start', 'frame done']];
  for (const [key, query, n] of [
    ['laws (default)', 'v=1', opts.loads],
    ['strong', 'v=1&preset=seed-strong', Math.max(2, Math.round(opts.loads / 4))],
    ['plan', 'v=1&preset=seed-weak&view=plan', Math.max(2, Math.round(opts.loads / 4))],
  ]) {
    const loads = await measureLoads(browser, `${server.url}?${query}`, n);
    const s = summary(loads.map((l) => l.readyAt));
    const med = (k) => summary(loads.map((l) => l[k])).median;
    results.loads[key] = { loads, ready: s, frameDone: summary(loads.map((l) => l.readyFrameDoneAt)) };
    loadRows.push([key, s.n, ms(s.median, 0), ms(s.p95, 0), ms(s.min, 0), ms(s.max, 0),
      ms(med('htmlEnd'), 0), ms(med('wasmEnd'), 0), ms(med('appStartedAt'), 0), ms(med('readyFrameDoneAt'), 0)]);
  }
  {
    const loads = await measureLoads(browser, `${plotlyServer.url}?w=1166&h=438`, Math.max(2, Math.round(opts.loads / 4)));
    const s = summary(loads.map((l) => l.readyAt));
    results.loads.plotly = { loads, ready: s };
    loadRows.push(['Plotly.js page', s.n, ms(s.median, 0), ms(s.p95, 0), ms(s.min, 0), ms(s.max, 0),
      ms(summary(loads.map((l) => l.htmlEnd)).median, 0), '', '', ms(summary(loads.map((l) => l.readyFrameDoneAt)).median, 0)]);
  }
  log(table(loadRows));
  log('ms from navigation start; columns after max are medians: HTML received, wasm received, wasm instantiated + start(), first frame produced');
}

/**
 * Section 3: input → charts redrawn, per panel, at the top of each tab and with all of it on screen.
 */
async function benchUpdates(ctx) {
  const { opts, results } = ctx;
  section(`Input → charts redrawn, ${opts.updates} updates per panel (after ${opts.warmup} warm-up)`);
  const rows = [['panel', 'canvases', 'n', 'median', 'p95', 'max', 'script med', 'script p95', 'latency med', 'latency p95', 'CPU med', 'CPU p95', 'p95 ≤ 8 ms']];
  const addRow = (label, canvases, s) => rows.push([label, canvases, s.n, ms(s.cost.median), ms(s.cost.p95), ms(s.cost.max),
    ms(s.script.median), ms(s.script.p95), ms(s.latency.median), ms(s.latency.p95), ms(s.cpu.median), ms(s.cpu.p95), passFail(s.cpu.p95 <= TARGET_P95_MS)]);
  for (const spec of PANELS.filter((p) => !opts.panels || opts.panels.has(p.key))) {
    const r = await runPanel(ctx, spec);
    results.updates[spec.key] = { stats: r.stats, errors: r.errors, rows: r.rows };
    addRow(spec.label, spec.canvases, r.stats);
  }
  // The layout search: the top of the Strong tab with lay=best.
  if (!opts.panels || opts.panels.has(SEARCH_PANEL.key)) {
    const r = await runPanel(ctx, SEARCH_PANEL);
    const count = layoutsPerUpdate(SEARCH_PANEL.query);
    results.updates[SEARCH_PANEL.key] = { stats: r.stats, errors: r.errors, rows: r.rows, layouts: count };
    addRow(SEARCH_PANEL.label, SEARCH_PANEL.canvases, r.stats);
    results.search = {
      layoutsPerUpdate: count?.total ?? null,
      perRow: count?.perRow ?? null,
      cpuP95: r.stats.cpu.p95,
      p95: r.stats.cost.p95,
      usPerLayout: count ? (1000 * r.stats.script.median) / count.total : null,
      pass: r.stats.cpu.p95 <= TARGET_SEARCH_P95_MS,
    };
  }
  // The heaviest drag, the explorer on screen.
  if (!opts.panels || opts.panels.has(DRAG_PANEL.key)) {
    const r = await runPanel(ctx, DRAG_PANEL, { scrollTo: DRAG_PANEL.scrollTo });
    results.updates[DRAG_PANEL.key] = { stats: r.stats, errors: r.errors, rows: r.rows };
    addRow(DRAG_PANEL.label, DRAG_PANEL.canvases, r.stats);
    results.drag = {
      median: r.stats.latency.median,
      p95: r.stats.latency.p95,
      cpuP95: r.stats.cpu.p95,
      pass: r.stats.latency.p95 <= TARGET_DRAG_MS,
    };
  }
  if (opts.panels) {
    log(table(rows));
    printSearch(results.search);
    printDrag(results.drag);
    return;
  }
  // "Every panel visible": in the 1200x900 viewport most of a tab's charts and tables are
  // below the fold, where the browser skips part of the layout (content-visibility) and
  // paint. Here the viewport is as tall as the page: all of the tab on screen at once.
  // Half the updates, to keep `make bench` short.
  const fullUpdates = Math.max(20, Math.round(opts.updates / 2));
  for (const spec of PANELS) {
    const r = await runPanel(ctx, spec, { fullHeight: true, updates: fullUpdates });
    results.updates[`${spec.key}-on-screen`] = { stats: r.stats, errors: r.errors, rows: r.rows, viewport: r.viewport };
    addRow(`${spec.label}, whole tab on screen (${r.viewport.width}x${r.viewport.height})`, spec.canvases, r.stats);
  }
  // Only the active tab is computed and drawn (the others are hidden), so "all visible" is
  // the worst tab with all of it on screen.
  const worst = PANELS.map((p) => [`${p.key}-on-screen`, results.updates[`${p.key}-on-screen`].stats]).sort((a, b) => b[1].cost.p95 - a[1].cost.p95)[0];
  const sumMedian = PANELS.reduce((a, p) => a + results.updates[`${p.key}-on-screen`].stats.cost.median, 0);
  results.allVisible = { worstPanel: worst[0], median: worst[1].cost.median, p95: worst[1].cost.p95, cpuP95: worst[1].cpu.p95, sumOfPanelMedians: sumMedian };
  rows.push([`all visible = worst tab on screen (${worst[0].replace(/-on-screen$/, '')}), target ${TARGET_ALL_VISIBLE_MS} ms`, '', '', ms(worst[1].cost.median), ms(worst[1].cost.p95), '', '', '', '', '', ms(worst[1].cpu.median), ms(worst[1].cpu.p95), passFail(worst[1].cpu.p95 <= TARGET_ALL_VISIBLE_MS)]);
  // Like for like with the Plotly page (one chart, on screen): the other two figures hidden,
  // the speedup chart scrolled into view.
  const lawsSpeedup = await runPanel(ctx, PANELS[0], { css: SPEEDUP_ONLY_CSS, scrollTo: '#laws-speedup' });
  results.updates['laws-speedup-only'] = { stats: lawsSpeedup.stats, errors: lawsSpeedup.errors, rows: lawsSpeedup.rows };
  addRow('laws, speedup chart only (scrolled into view)', 1, lawsSpeedup.stats);
  // Informational (HiDPI screens): half the updates, to keep `make bench` short.
  const laws2x = await runPanel(ctx, PANELS[0], { deviceScaleFactor: 2, updates: Math.max(20, Math.round(opts.updates / 2)) });
  results.updates['laws-dpr2'] = { stats: laws2x.stats, errors: laws2x.errors, rows: laws2x.rows };
  addRow('laws at devicePixelRatio 2', 3, laws2x.stats);
  log(table(rows));
  printSearch(results.search);
  printDrag(results.drag);
  log('ms per update. median/p95/max: cost = event handler + the frame that redraws (rAF callbacks, style, layout,');
  log('paint, commit), without the wait for the next vsync. script = handler + the page\'s rAF callback (Rust/wasm and');
  log('the browser calls it makes). latency = dispatch → frame produced, including the vsync wait (0–16.7 ms).');
  log('CPU = main-thread CPU time in that interval (Chrome trace thread time): what the update costs when the');
  log('renderer has a core to itself; wall-clock figures grow with whatever else the machine runs.');
  log(`The first four rows use the ${VIEWPORT.width}x${VIEWPORT.height} viewport (the top of the tab on screen); "whole tab on screen" rows a viewport as tall as the page.`);
  log(`Only the active tab is computed and drawn; "all visible" is the worst tab on screen. If every tab were redrawn in one frame it would cost the sum of their medians, ${ms(sumMedian)} ms.`);
  log('');
  const phaseRows = [['panel', 'handler', 'vsync wait', 'rAF (page)', 'before 1st chart', 'tables+text', 'after rAF (render)', 'slider', 'typed', 'URL writes', 'per write', 'p95 w/o URL', 'rejected']];
  for (const [key, r] of Object.entries(results.updates)) {
    const s = r.stats;
    phaseRows.push([key, ms(s.handler.median, 2), ms(s.wait.median), ms(s.frame.median), ms(s.prologue.median), ms(s.text.median), ms(s.render.median),
      ms(s.slider.median), ms(s.typed.median), `${Math.round((100 * s.withUrlWrite) / s.n)}%`, ms(s.urlWrite.median), ms(s.costWithoutUrl.p95), s.rejected]);
  }
  log(table(phaseRows));
  log('medians, ms. "before 1st chart": model + the first canvas-size read (and the layout it forces). "tables+text": from the');
  log('first textContent write after the charts to the end of the page\'s rAF callback (tables, key figures, summaries, URL).');
  log('slider/typed: median cost of the two kinds of update. URL writes: share of updates that called history.replaceState');
  log('(throttled to one per 200 ms) and its median time; p95 w/o URL: the p95 cost with that time taken out.');
  for (const [key, r] of Object.entries(results.updates)) {
    log(`  ${key}: per chart (getContext → next, the last one → first text write) ${r.stats.perChart.map(([id, v]) => `${id.replace(/-canvas$/, '')} ${ms(v)}`).join(', ')}`);
    if (r.errors.length) log(`  ${key}: page errors: ${r.errors.slice(0, 3).join(' | ')}`);
  }
}

/**
 * Section 3b: the same updates at phone speed (4× CPU throttling), the layout search included.
 *
 * screen (the 1200x900 viewport), the layout search's row included.
 */
async function benchThrottled(ctx) {
  const { opts, results } = ctx;
  section(`At ${THROTTLE_RATE}× CPU throttling: input → charts redrawn, ${opts.updates} updates per panel (after ${opts.warmup} warm-up)`);
  results.throttled = {};
  const rows = [['panel (top of tab)', 'canvases', 'n', 'median', 'p95', 'max', 'script med', 'script p95', 'CPU med', 'CPU p95', `p95 ≤ ${TARGET_THROTTLED_P95_MS} ms`]];
  for (const spec of [...PANELS, SEARCH_PANEL].filter((p) => !opts.panels || opts.panels.has(p.key))) {
    const r = await runPanel(ctx, spec, { throttle: THROTTLE_RATE });
    const s = r.stats;
    results.throttled[spec.key] = { stats: s, errors: r.errors, rows: r.rows, rate: THROTTLE_RATE, pass: s.cpu.p95 <= TARGET_THROTTLED_P95_MS };
    rows.push([spec.label, spec.canvases, s.n, ms(s.cost.median), ms(s.cost.p95), ms(s.cost.max), ms(s.script.median), ms(s.script.p95),
      ms(s.cpu.median), ms(s.cpu.p95), passFail(results.throttled[spec.key].pass)]);
    if (r.errors.length) log(`  ${spec.key}: page errors: ${r.errors.slice(0, 3).join(' | ')}`);
  }
  log(table(rows));
  log(`ms per update, as in the table above, with Emulation.setCPUThrottlingRate { rate: ${THROTTLE_RATE} } on the page's CDP session`);
  log(`(Lighthouse's mobile CPU slowdown). Judged on CPU p95 ≤ ${TARGET_THROTTLED_P95_MS} ms (30 frames a second); viewport ${VIEWPORT.width}x${VIEWPORT.height}.`);
}

/**
 * Section 3c: the first input after a load, at 4× CPU.
 */
async function benchFirstInput(ctx) {
  const { results, browser, server } = ctx;
  section(`At ${THROTTLE_RATE}× CPU throttling from the navigation on: the first input after the start, ${FIRST_INPUT_LOADS} loads per page`);
  results.firstInput = {};
  const rows = [['page', 'input', 'n', 'median', 'max', 'input delay (worst)', 'handlers (worst)', `median ≤ ${TARGET_FIRST_INPUT_MS} ms`]];
  for (const spec of FIRST_INPUT_PAGES) {
    const runs = [];
    for (let k = 0; k < FIRST_INPUT_LOADS; k++) runs.push(await firstInput(browser, `${server.url}?${spec.query}`, spec));
    const s = summary(runs.map((r) => r.duration));
    const worst = runs.reduce((a, r) => (r.duration >= a.duration ? r : a));
    results.firstInput[spec.label] = { runs, median: s.median, max: s.max, pass: s.median <= TARGET_FIRST_INPUT_MS };
    rows.push([spec.label, `${spec.key} on ${spec.target}`, s.n, ms(s.median, 0), ms(s.max, 0), ms(worst.delay, 0), ms(worst.processing, 0), passFail(results.firstInput[spec.label].pass)]);
  }
  log(table(rows));
  log('ms: the longest Event Timing entry of the interaction (0 = under 16 ms, which the API does not report), after the load\'s own work is done');
}

/**
 * Section 4: Plotly.js drawing the speedup chart, same events.
 */
async function benchPlotly(ctx) {
  const { opts, results, browser, plotlyServer, plotlyVersion } = ctx;
  section(`Plotly.js ${plotlyVersion}: the speedup chart, same events (${opts.updates} updates)`);
  {
    const { context, page } = await newPage(browser);
    await page.goto(`${plotlyServer.url}?w=${ctx.speedupCanvasSize.w}&h=${ctx.speedupCanvasSize.h}`);
    await waitReady(page);
    const spec = { ...PANELS[0], msg: null };
    const prow = await runUpdates(page, spec, opts.updates, opts.warmup, { browser });
    const s = stats(prow);
    results.plotly = { stats: s, rows: prow, errors: page.errors.slice(), size: ctx.speedupCanvasSize };
    await context.close();
    const none = { n: 0, cost: {}, script: {}, render: {}, latency: {}, cpu: {} };
    const ours = results.updates.laws?.stats ?? none;
    const like = results.updates['laws-speedup-only']?.stats ?? none;
    const ratio = (a, b) => a / b;
    results.plotlyRatio = {
      panel: { median: ratio(s.cost.median, ours.cost.median), p95: ratio(s.cost.p95, ours.cost.p95) },
      speedupOnly: { median: ratio(s.cost.median, like.cost.median), p95: ratio(s.cost.p95, like.cost.p95) },
      script: { median: ratio(s.script.median, ours.script.median), p95: ratio(s.script.p95, ours.script.p95) },
      cpu: { median: ratio(s.cpu.median, ours.cpu.median), p95: ratio(s.cpu.p95, ours.cpu.p95) },
      cpuSpeedupOnly: { median: ratio(s.cpu.median, like.cpu.median), p95: ratio(s.cpu.p95, like.cpu.p95) },
    };
    log(table([
      ['page', 'n', 'median', 'p95', 'max', 'script med', 'script p95', 'render med', 'latency med', 'CPU med', 'CPU p95', 'late redraws'],
      [`Plotly.react, 1 chart (${ctx.speedupCanvasSize.w}x${ctx.speedupCanvasSize.h})`, s.n, ms(s.cost.median), ms(s.cost.p95), ms(s.cost.max), ms(s.script.median), ms(s.script.p95), ms(s.render.median), ms(s.latency.median), ms(s.cpu.median), ms(s.cpu.p95), s.late],
      ['ours, laws panel (3 charts + tables)', ours.n, ms(ours.cost.median), ms(ours.cost.p95), ms(ours.cost.max), ms(ours.script.median), ms(ours.script.p95), ms(ours.render.median), ms(ours.latency.median), ms(ours.cpu.median), ms(ours.cpu.p95), ''],
      ['ours, speedup chart only', like.n, ms(like.cost.median), ms(like.cost.p95), ms(like.cost.max), ms(like.script.median), ms(like.script.p95), ms(like.render.median), ms(like.latency.median), ms(like.cpu.median), ms(like.cpu.p95), ''],
    ]));
    const pr = results.plotlyRatio;
    log(`Plotly time / our time: laws panel ${pr.panel.median.toFixed(2)}x (median), ${pr.panel.p95.toFixed(2)}x (p95); ` +
      `speedup chart only ${pr.speedupOnly.median.toFixed(2)}x (median), ${pr.speedupOnly.p95.toFixed(2)}x (p95); script only ${pr.script.median.toFixed(2)}x (median); ` +
      `main-thread CPU ${pr.cpu.median.toFixed(2)}x (median), ${pr.cpu.p95.toFixed(2)}x (p95), speedup chart only ${pr.cpuSpeedupOnly.median.toFixed(2)}x, ${pr.cpuSpeedupOnly.p95.toFixed(2)}x`);
  }
}

/**
 * Section 4b: uPlot, chart against chart.
 */
async function benchUplot(ctx) {
  const { opts, results, browser, plotlyServer, uplotVersion } = ctx;
  const per = Math.max(20, Math.round(opts.updates / UPLOT_ROUNDS));
  section(`uPlot ${uplotVersion}: our speedup chart against uPlot's, ${UPLOT_ROUNDS} interleaved rounds of ${per} updates each`);
  const runReference = async (url) => {
    const { context, page } = await newPage(browser);
    await page.goto(url);
    await waitReady(page);
    const rows = await runUpdates(page, { ...PANELS[0], msg: null }, per, opts.warmup, { browser });
    const errors = page.errors.slice();
    await context.close();
    return { rows, errors };
  };
  const oursRows = [];
  const uplotRows = [];
  const errors = [];
  let size = null;
  for (let k = 0; k < UPLOT_ROUNDS; k++) {
    const o = await runPanel(ctx, PANELS[0], { css: CHART_ONLY_CSS, scrollTo: '#laws-speedup', updates: per });
    size ??= o.canvas;
    oursRows.push(...o.rows);
    errors.push(...o.errors);
    const u = await runReference(`${plotlyServer.url}uplot.html?w=${size.w}&h=${size.h}`);
    uplotRows.push(...u.rows);
    errors.push(...u.errors.map((e) => `uPlot page: ${e}`));
  }
  const rest = await runPanel(ctx, PANELS[0], { css: NO_CHART_CSS, scrollTo: '#laws-speedup', updates: per });
  const uplotRest = await runReference(`${plotlyServer.url}uplot.html?w=${size.w}&h=${size.h}&nochart=1`);
  errors.push(...uplotRest.errors.map((e) => `uPlot page without its chart: ${e}`));
  const ours = stats(oursRows);
  const up = stats(uplotRows);
  const upRest = stats(uplotRest.rows);
  const ratio = { median: ours.cpu.median / up.cpu.median, p95: ours.cpu.p95 / up.cpu.p95 };
  // A reference without a gate: each chart's own share, the page's update less the same
  // update without its chart (differences of medians and of p95s).
  const chartOnly = {
    median: (ours.cpu.median - rest.stats.cpu.median) / (up.cpu.median - upRest.cpu.median),
    p95: (ours.cpu.p95 - rest.stats.cpu.p95) / (up.cpu.p95 - upRest.cpu.p95),
  };
  results.uplot = {
    version: uplotVersion, size, rounds: UPLOT_ROUNDS, updatesPerRound: per,
    ours, uplot: up, noChart: rest.stats, uplotNoChart: upRest, chartOnly, ratio, errors,
    pass: chartOnly.median <= TARGET_UPLOT_RATIO && chartOnly.p95 <= TARGET_UPLOT_RATIO,
  };
  const row = (label, s) => [label, s.n, ms(s.cost.median), ms(s.cost.p95), ms(s.cost.max), ms(s.script.median), ms(s.script.p95), ms(s.render.median), ms(s.cpu.median), ms(s.cpu.p95)];
  log(table([
    ['page', 'n', 'median', 'p95', 'max', 'script med', 'script p95', 'render med', 'CPU med', 'CPU p95'],
    row(`uPlot, speedup chart (${size.w}x${size.h})`, up),
    row(`ours, speedup chart alone on screen (${size.w}x${size.h})`, ours),
    row('ours, the same without the chart (the rest of the update)', rest.stats),
    row('uPlot page, the same without its chart', upRest),
  ]));
  log(`the charts alone (each page less itself without its chart), ours / uPlot, main-thread CPU: ${chartOnly.median.toFixed(2)}x (median), ${chartOnly.p95.toFixed(2)}x (p95); target ≤ ${TARGET_UPLOT_RATIO.toFixed(1)}: ${passFail(results.uplot.pass)}`);
  log(`reference, no gate: the whole updates, ours / uPlot ${ratio.median.toFixed(2)}x (median), ${ratio.p95.toFixed(2)}x (p95)`);
  log('Both draw the same 8 series (2 two-point lines, 6 curves of 96 samples), axes, grid, tick labels, title, callout and');
  log('legend box into one canvas of that size (bench/uplot.html says how), after the same input events; both rewrite the');
  log('number box. Ours also writes its key figures (on screen) and the hidden table and summary: the last row is that part.');
  for (const e of errors.slice(0, 3)) log(`  page error: ${e}`);
}

/** Section 5a: canvas calls and geometry reads per update, counted in a separate pass. */
async function profileCanvasCalls(ctx) {
  const { results, browser, server } = ctx;
  const countRows = [['panel', 'canvas calls', 'geometry reads', 'top canvas calls']];
  results.canvasCalls = {};
  for (const spec of PANELS) {
    const { context, page } = await newPage(browser);
    await page.goto(`${server.url}?${spec.query}`);
    await waitReady(page);
    await page.evaluate(() => window.__bench.countCanvasCalls());
    await runUpdates(page, spec, 4, 2);
    await page.evaluate(() => window.__bench.takeCanvasCounts());
    await runUpdates(page, spec, 20, 0);
    const counts = await page.evaluate(() => window.__bench.takeCanvasCounts());
    await context.close();
    const all = Object.entries(counts).map(([k, v]) => [k, v / 20]).sort((a, b) => b[1] - a[1]);
    const per = all.filter(([k]) => !k.startsWith('(element).'));
    const geometry = all.filter(([k]) => k.startsWith('(element).'));
    results.canvasCalls[spec.key] = { canvas: per, geometry };
    countRows.push([spec.key, Math.round(per.reduce((a, [, v]) => a + v, 0)),
      geometry.map(([k, v]) => `${k.slice(10)} ${Math.round(v)}`).join(', '),
      per.slice(0, 6).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')]);
  }
  log(table(countRows));
  log('per update, counted in a separate pass: CanvasRenderingContext2D method calls and property writes (name=),');
  log('and element geometry reads (each forces style+layout if the DOM changed since the last one).');
}

/** Section 5b: a Chrome trace of updates: main-thread time split into script, forced layout, rendering, raster. */
async function profileTraces(ctx) {
  const { opts, results, browser, server, plotlyServer } = ctx;
  log('');
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc', 'blink.user_timing', 'toplevel', 'v8.execute'];
  results.trace = {};
  const traceTargets = [...PANELS.map((p) => [p.key, `${server.url}?${p.query}`, p]),
    ['plotly', `${plotlyServer.url}?w=${ctx.speedupCanvasSize.w}&h=${ctx.speedupCanvasSize.h}`, { ...PANELS[0], msg: null }],
    ['uplot', `${plotlyServer.url}uplot.html?w=${ctx.speedupCanvasSize.w}&h=${ctx.speedupCanvasSize.h}`, { ...PANELS[0], msg: null }]];
  const traceRows = [['page', 'busy', ...Object.values(BREAKDOWN_LABELS), 'forced layouts', 'text shapings']];
  for (const [key, url, spec] of traceTargets) {
    const { context, page } = await newPage(browser);
    await page.goto(url);
    await waitReady(page);
    if (opts.css && key !== 'plotly' && key !== 'uplot') await page.addStyleTag({ content: opts.css });
    await runUpdates(page, spec, 10, 0);
    await browser.startTracing(page, { categories });
    const n = opts.profileUpdates;
    await runUpdates(page, spec, n, 0);
    const buf = await browser.stopTracing();
    await context.close();
    const parsed = JSON.parse(buf.toString('utf8'));
    const events = parsed.traceEvents || parsed;
    const b = traceBreakdown(events);
    const self = traceSelfTimes(events);
    if (!b) { log(`  ${key}: no trace marks found`); continue; }
    const per = (v) => v / n;
    results.trace[key] = {
      updates: n,
      busyPerUpdate: per(b.busy),
      partsPerUpdate: Object.fromEntries(Object.entries(b.parts).map(([k, v]) => [k, per(v)])),
      countsPerUpdate: Object.fromEntries(Object.entries(b.counts).map(([k, v]) => [k, per(v)])),
      selfPerUpdate: self ? self.perName.slice(0, 30).map(([name, v]) => [name, per(v)]) : [],
    };
    traceRows.push([key, ms(per(b.busy)), ...Object.keys(BREAKDOWN_LABELS).map((k) => ms(per(b.parts[k]))),
      Math.round(per(b.counts.forcedLayouts)), Math.round(per(b.counts.textShapes))]);
  }
  log(table(traceRows));
  log(`Main-thread ms per update from a Chrome trace of ${opts.profileUpdates} updates (tracing inflates times; compare the shares).`);
  log('forced style+layout: recalculated because script read geometry (clientWidth, offsetWidth/Height) after a DOM change.');
  log('canvas raster: the canvases\' recorded 2D calls rasterised for the frame (software, main thread).');
}

/** Section 5c: one traced cold load, three times: what the main thread does before the first full draw. */
async function profileColdLoad(ctx) {
  const { results, browser, server } = ctx;
  const loadTraces = [];
  for (let i = 0; i < 3; i++) {
    const context = await browser.newContext({ viewport: VIEWPORT });
    await context.addInitScript({ content: `${PROBE};performance.mark('bench-begin');` });
    const page = await context.newPage();
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'blink.user_timing', 'toplevel', 'v8.execute', 'v8.wasm', 'loading'] });
    await page.goto(`${server.url}?v=1`);
    await page.waitForFunction(() => window.__bench.load.readyFrameDoneAt !== null, null, { polling: 20, timeout: 60_000 });
    const load = await page.evaluate(() => { performance.mark('bench-end'); return { ...window.__bench.load }; });
    const buf = await browser.stopTracing();
    await context.close();
    const b = loadBreakdown(JSON.parse(buf.toString('utf8')).traceEvents);
    if (b) loadTraces.push({ ...b, load });
  }
  if (loadTraces.length) {
    const med = (f) => summary(loadTraces.map(f)).median;
    const sums = Object.fromEntries(Object.keys(LOAD_LABELS).map((k) => [k, med((t) => t.sums[k])]));
    const counts = Object.fromEntries(Object.keys(LOAD_LABELS).map((k) => [k, med((t) => t.counts[k])]));
    results.loadTrace = { traces: loadTraces.length, readyAt: med((t) => t.load.readyAt), busy: med((t) => t.busy), sums, counts };
    log('');
    log(`cold load, traced (median of ${loadTraces.length}): data-ready at ${ms(results.loadTrace.readyAt, 0)} ms, main thread busy ${ms(results.loadTrace.busy, 0)} ms until the first frame is done:`);
    log('  ' + Object.entries(LOAD_LABELS).map(([k, label]) => `${label} ${ms(sums[k], 0)}${k === 'wasmLazyCompile' ? ` (${Math.round(counts[k])} functions)` : ''}`).join(' · '));
  }
}

/** Section 5d: a CPU profile with function names, on a copy of the build whose wasm keeps them. */
async function profileCpu(ctx) {
  const { opts, files, results, browser, plotlyServer } = ctx;
  log('');
  const profilingDist = buildProfilingDist(opts.dist, files, opts.bindgenDir);
  ctx.profilingDist = profilingDist;
  if (!profilingDist.dir) {
    log(`CPU profile skipped: ${profilingDist.reason}`);
    results.profile = { skipped: profilingDist.reason };
  } else {
    log(`CPU profile (V8 sampling profiler, 100 µs) on a copy of the build whose wasm keeps function names: ${profilingDist.command} (${profilingDist.seconds.toFixed(0)} s)`);
    const profServer = await startServer({ dir: profilingDist.dir, port: 0, host: '127.0.0.1' });
    results.profile = {};
    try {
      const targets = [...PANELS.map((p) => [p.key, `${profServer.url}?${p.query}`, p]), ['plotly', `${plotlyServer.url}?w=${ctx.speedupCanvasSize.w}&h=${ctx.speedupCanvasSize.h}`, { ...PANELS[0], msg: null }]];
      for (const [key, url, spec] of targets) {
        const { context, page } = await newPage(browser);
        await page.goto(url);
        await waitReady(page);
        await runUpdates(page, spec, 10, 0);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
        const n = opts.profileUpdates;
        await runUpdates(page, spec, n, 0);
        const { profile } = await cdp.send('Profiler.stop');
        await context.close();
        const p = profileSelfTimes(profile);
        const per = (list) => list.map(([k, v]) => [k, v / n]);
        const wasm = p.byBucket.filter(([k]) => k.startsWith('wasm:')).reduce((a, [, v]) => a + v, 0) / n;
        results.profile[key] = { updates: n, busyPerUpdate: p.busyMs / n, wasmPerUpdate: wasm, byBucket: per(p.byBucket), byFunction: per(p.byFunction).slice(0, 40) };
        log(`${key}: ${ms(p.busyMs / n, 2)} ms sampled per update, of which ${ms(wasm, 2)} ms in wasm code itself`);
        log('  by part: ' + per(p.byBucket).slice(0, 8).map(([k, v]) => `${k} ${ms(v, 2)}`).join(' · '));
        log('  top functions (self): ' + per(p.byFunction).slice(0, 8).map(([k, v]) => `${k} ${ms(v, 2)}`).join(' · '));
      }
    } finally {
      await profServer.close();
    }
  }
}

/** Section 5: where the time goes, in four parts. */
async function benchProfile(ctx) {
  section('Where the time goes');
  await profileCanvasCalls(ctx);
  await profileTraces(ctx);
  await profileColdLoad(ctx);
  await profileCpu(ctx);
}

/**
 * Section 6: soak, memory and p95 over many slider steps.
 */
async function benchSoak(ctx) {
  const { opts, results, browser, server } = ctx;
  const steps = opts.soakSteps;
  const warm = Math.min(SOAK_WARMUP, Math.floor(steps / 10));
  section(`Soak: ${steps} slider steps on the plan panel, one frame each`);
  const { context, page } = await newPage(browser);
  await page.goto(`${server.url}?${PANELS[PANELS.length - 1].query}`);
  await waitReady(page);
  // What else could accumulate, after a garbage collection: the DOM, its listeners and layout
  // objects, the JavaScript heap (Chrome's own counters, CDP Performance.getMetrics).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const counters = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const get = (name) => metrics.find((m) => m.name === name)?.value ?? NaN;
    return { nodes: get('Nodes'), listeners: get('JSEventListeners'), layoutObjects: get('LayoutObjects'), jsHeapBytes: get('JSHeapUsedSize') };
  };
  const args = { slider: PANELS[PANELS.length - 1].slider, steps, every: Math.max(1, Math.floor(steps / 20)) };
  const head = await page.evaluate((a) => window.__bench.soak(a), { ...args, to: warm });
  const countersAtWarmup = await counters();
  const tail = await page.evaluate((a) => window.__bench.soak(a), { ...args, from: warm });
  const countersAtEnd = await counters();
  await context.close();
  const r = { costs: [...head.costs, ...tail.costs], memory: [...head.memory, ...tail.memory] };
  const block = Math.max(1, Math.min(1000, Math.floor((steps - warm) / 2)));
  const first = summary(r.costs.slice(warm, warm + block));
  const last = summary(r.costs.slice(steps - block));
  const atWarm = r.memory.find(([i]) => i >= warm)?.[1] ?? NaN;
  const atEnd = r.memory[r.memory.length - 1]?.[1] ?? NaN;
  results.soak = { steps, warmup: warm, block, first, last, memory: r.memory, memoryAtWarmup: atWarm, memoryAtEnd: atEnd,
    countersAtWarmup, countersAtEnd,
    pass: atEnd <= atWarm && last.p95 <= first.p95 * SOAK_P95_DRIFT };
  log(`wasm memory: ${r.memory.map(([i, b]) => `${i}: ${(b / 1024).toFixed(0)} KiB`).join(', ')}`);
  const pair = (k, f = (x) => x) => `${f(countersAtWarmup[k])} → ${f(countersAtEnd[k])}`;
  log(`after warm-up → at the end, each after a garbage collection: DOM nodes ${pair('nodes')}, event listeners ${pair('listeners')}, ` +
    `layout objects ${pair('layoutObjects')}, JavaScript heap ${pair('jsHeapBytes', (b) => `${(b / 1024).toFixed(0)} KiB`)}`);
  log(`p95 of steps ${warm + 1}–${warm + block}: ${ms(first.p95)} ms (median ${ms(first.median)}); of the last ${block}: ${ms(last.p95)} ms (median ${ms(last.median)})`);
}

/**
 * Section 7: every target, judged on what the sections measured (a full run only).
 */
async function judgeTargets(ctx) {
  const { results, sizes } = ctx;
  section('Targets');
  const u = results.updates;
  const load = results.loads['laws (default)'].ready;
  const pr = results.plotlyRatio;
  results.targets = {
    // The targets are judged in the CPU columns (main-thread time of the update), which a
    // busy machine inflates less than wall-clock time; both are printed.
    p95: PANELS.map((p) => ({ panel: p.key, p95: u[p.key].stats.cost.p95, pass: u[p.key].stats.cpu.p95 <= TARGET_P95_MS })),
    allVisible: { p95: results.allVisible.p95, pass: results.allVisible.cpuP95 <= TARGET_ALL_VISIBLE_MS },
    firstDraw: { median: load.median, pass: load.median <= TARGET_FIRST_DRAW_MS },
    gzip: { total: sizes.total, prerendered: sizes.prerendered, pass: sizes.total - sizes.prerendered <= TARGET_GZIP_BYTES && sizes.prerendered <= TARGET_PRERENDERED_BYTES },
    // Reference only: no pass field, so --strict never counts it.
    plotly: { median: pr.panel.median, p95: pr.panel.p95, cpuMedian: pr.cpu.median, cpuP95: pr.cpu.p95, reference: REFERENCE_PLOTLY_RATIO },
    throttled: [...PANELS, SEARCH_PANEL].map((p) => ({ panel: p.key, cpuP95: results.throttled?.[p.key]?.stats.cpu.p95 ?? NaN, pass: results.throttled?.[p.key]?.pass ?? false })),
    uplot: results.uplot ? { median: results.uplot.chartOnly.median, p95: results.uplot.chartOnly.p95, whole: results.uplot.ratio, pass: results.uplot.pass } : { pass: false },
    firstInput: FIRST_INPUT_PAGES.map((p) => ({ page: p.label, median: results.firstInput?.[p.label]?.median ?? NaN, pass: results.firstInput?.[p.label]?.pass ?? false })),
    soak: results.soak ?? { pass: false },
    drag: results.drag ?? { pass: false },
  };
  results.limits = {
    p95Ms: TARGET_P95_MS, allVisibleMs: TARGET_ALL_VISIBLE_MS, firstDrawMs: TARGET_FIRST_DRAW_MS,
    gzipBytes: TARGET_GZIP_BYTES, prerenderedBytes: TARGET_PRERENDERED_BYTES, throttledP95Ms: TARGET_THROTTLED_P95_MS,
    throttleRate: THROTTLE_RATE, firstInputMs: TARGET_FIRST_INPUT_MS, firstInputLoads: FIRST_INPUT_LOADS,
    searchP95Ms: TARGET_SEARCH_P95_MS, uplotRatio: TARGET_UPLOT_RATIO, plotlyRatio: REFERENCE_PLOTLY_RATIO,
    soakSteps: SOAK_STEPS, soakP95Drift: SOAK_P95_DRIFT, dragMs: TARGET_DRAG_MS, budgets: BUDGETS,
  };
  const t = results.targets;
  log(table([
    ['target', 'measured', 'result'],
    ...t.p95.map((r) => [`update p95 ≤ ${TARGET_P95_MS} ms: ${r.panel}`, `${ms(r.p95)} ms (CPU ${ms(u[r.panel].stats.cpu.p95)} ms)`, passFail(r.pass)]),
    [`update p95 ≤ ${TARGET_ALL_VISIBLE_MS} ms: all visible (worst tab on screen, ${results.allVisible.worstPanel.replace(/-on-screen$/, '')})`, `${ms(t.allVisible.p95)} ms (CPU ${ms(u[results.allVisible.worstPanel].stats.cpu.p95)} ms)`, passFail(t.allVisible.pass)],
    [`first full draw ≤ ${TARGET_FIRST_DRAW_MS} ms (median of ${load.n} loads)`, `${ms(load.median, 0)} ms`, passFail(t.firstDraw.pass)],
    [`gzipped transfer ≤ ${TARGET_GZIP_BYTES / 1000} KB + ≤ ${TARGET_PRERENDERED_BYTES / 1000} KB prerendered`, `${sizes.total - sizes.prerendered} B + ${sizes.prerendered} B (wasm+js ${kib(sizes.wasmJs)})`, passFail(t.gzip.pass)],
    [`heaviest drag (${DRAG_PANEL.label}): move → painted p95 ≤ ${TARGET_DRAG_MS} ms`, results.drag ? `${ms(t.drag.p95)} ms (CPU ${ms(t.drag.cpuP95)} ms)` : 'not run', passFail(t.drag.pass)],
    ...t.throttled.map((r) => [`update p95 ≤ ${TARGET_THROTTLED_P95_MS} ms at ${THROTTLE_RATE}× CPU throttling: ${r.panel === SEARCH_PANEL.key ? 'strong, lay=best' : r.panel}`,
      results.throttled?.[r.panel] ? `${ms(results.throttled[r.panel].stats.cost.p95)} ms (CPU ${ms(r.cpuP95)} ms)` : 'not run', passFail(r.pass)]),
    ...t.firstInput.map((r) => [`first input after the start ≤ ${TARGET_FIRST_INPUT_MS} ms at ${THROTTLE_RATE}× CPU (INP, median of ${FIRST_INPUT_LOADS}): ${r.page}`,
      results.firstInput?.[r.page] ? `${ms(r.median, 0)} ms` : 'not run', passFail(r.pass)]),
    [`chart against chart: our chart's share of an update / uPlot's ≤ ${TARGET_UPLOT_RATIO.toFixed(1)} (CPU median, p95)`, results.uplot ? `${t.uplot.median.toFixed(2)}x, ${t.uplot.p95.toFixed(2)}x (whole updates ${t.uplot.whole.median.toFixed(2)}x, ${t.uplot.whole.p95.toFixed(2)}x)` : 'not run', passFail(t.uplot.pass)],
    [`reference, no gate: Plotly.js time / ours (median, p95; the former ${REFERENCE_PLOTLY_RATIO}x target)`, `${pr.panel.median.toFixed(2)}x, ${pr.panel.p95.toFixed(2)}x (CPU ${pr.cpu.median.toFixed(2)}x, ${pr.cpu.p95.toFixed(2)}x)`, 'reference'],
    ['  like for like: our speedup chart only vs Plotly', `${pr.speedupOnly.median.toFixed(2)}x, ${pr.speedupOnly.p95.toFixed(2)}x (CPU ${pr.cpuSpeedupOnly.median.toFixed(2)}x, ${pr.cpuSpeedupOnly.p95.toFixed(2)}x)`, 'reference'],
    [`soak of ${t.soak.steps ?? SOAK_STEPS} steps: no wasm memory growth after warm-up, p95 drift ≤ ${Math.round((SOAK_P95_DRIFT - 1) * 100)}%`,
      t.soak.first ? `${(t.soak.memoryAtWarmup / 1024).toFixed(0)} → ${(t.soak.memoryAtEnd / 1024).toFixed(0)} KiB; p95 ${ms(t.soak.first.p95)} → ${ms(t.soak.last.p95)} ms` : 'not run',
      passFail(t.soak.pass)],
  ]));
}

/** The sections of a run, in order; `--only` picks some by name. */
const SECTIONS = [
  ['sizes', benchSizes],
  ['loads', benchLoads],
  ['updates', benchUpdates],
  ['throttled', benchThrottled],
  ['first-input', benchFirstInput],
  ['plotly', benchPlotly],
  ['uplot', benchUplot],
  ['profile', benchProfile],
  ['soak', benchSoak],
];

/** Lighthouse's benchmarkIndex of the host, in a blank page: the median of a few runs. */
async function hostBenchmarkIndex(browser) {
  const page = await browser.newPage();
  try {
    const runs = [];
    for (let i = 0; i < BENCHMARK_INDEX_RUNS; i++) runs.push(await page.evaluate(pageFunctions.computeBenchmarkIndex));
    return Math.round(runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)]);
  } finally {
    await page.close();
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = Date.now();
  const files = assertDist(opts.dist);
  const results = { date: new Date().toISOString(), options: opts };

  const server = await startServer({ dir: opts.dist, port: 0, host: '127.0.0.1' });
  // The reference pages (Plotly.js at index.html, uPlot at uplot.html) and their libraries,
  // copied from node_modules into a temporary directory and served from there (no CDN).
  const plotlyDir = mkdtempSync(path.join(os.tmpdir(), 'bench-reference-'));
  const plotlyJs = path.join(REPO, 'node_modules', 'plotly.js-dist-min', 'plotly.min.js');
  const uplotDist = path.join(REPO, 'node_modules', 'uplot', 'dist');
  for (const f of [plotlyJs, path.join(uplotDist, 'uPlot.iife.min.js')]) {
    if (!existsSync(f)) throw new Error(`${f} missing: npm ci (package.json devDependencies)`);
  }
  copyFileSync(plotlyJs, path.join(plotlyDir, 'plotly.min.js'));
  for (const f of ['uPlot.iife.min.js', 'uPlot.min.css']) copyFileSync(path.join(uplotDist, f), path.join(plotlyDir, f));
  copyFileSync(path.join(REPO, 'bench', 'plotly.html'), path.join(plotlyDir, 'index.html'));
  copyFileSync(path.join(REPO, 'bench', 'uplot.html'), path.join(plotlyDir, 'uplot.html'));
  copyFileSync(path.join(REPO, 'bench', 'laws-reference.js'), path.join(plotlyDir, 'laws-reference.js'));
  const plotlyServer = await startServer({ dir: plotlyDir, port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
  const plotlyVersion = JSON.parse(readFileSync(path.join(REPO, 'node_modules', 'plotly.js-dist-min', 'package.json'), 'utf8')).version;
  const uplotVersion = JSON.parse(readFileSync(path.join(REPO, 'node_modules', 'uplot', 'package.json'), 'utf8')).version;
  results.commit = gitCommit();
  results.machine = {
    hostname: os.hostname(),
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    cpus: os.cpus().length,
    nproc: spawnSync('nproc', { encoding: 'utf8' }).stdout?.trim(),
    cpuModel: os.cpus()[0]?.model,
    memGiB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadavg: os.loadavg().map((x) => +x.toFixed(2)),
    chromium: browser.version(),
    node: process.version,
    plotly: plotlyVersion,
    uplot: uplotVersion,
  };
  results.machine.benchmarkIndex = await hostBenchmarkIndex(browser);
  const cpuAtStart = cpuSnapshot();
  const want = (name) => !opts.only || opts.only.has(name);
  const ctx = {
    opts, files, results, browser, server, plotlyServer, plotlyJs, plotlyVersion, uplotVersion,
    speedupCanvasSize: { w: 1166, h: 438 }, sizes: null, profilingDist: null,
  };
  try {
    section('Machine');
    log(`nproc ${results.machine.nproc}, ${results.machine.cpuModel}, ${results.machine.memGiB} GiB; load average ${results.machine.loadavg.join(' ')}`);
    log(`Chromium ${results.machine.chromium} (headless, ${CHROMIUM}), Node ${process.version}, Plotly.js ${plotlyVersion}, uPlot ${uplotVersion}`);
    log(`dist: ${opts.dist}; viewport ${VIEWPORT.width}x${VIEWPORT.height}, deviceScaleFactor 1 unless noted`);
    log(`Lighthouse's benchmarkIndex of this host (median of ${BENCHMARK_INDEX_RUNS}): ${results.machine.benchmarkIndex.toLocaleString('en-US')}; ` +
      `at ${THROTTLE_RATE}× CPU the page runs as on a device of about ${Math.round(results.machine.benchmarkIndex / THROTTLE_RATE)} ` +
      `(DevTools's CPU calibration: a mid-tier phone, Pixel 5, scores ${MID_TIER_PHONE_INDEX.toLocaleString('en-US')}; a low-tier one ${LOW_TIER_PHONE_INDEX})`);

    results.loads = {};
    results.updates = {};
    for (const [name, run] of SECTIONS) {
      if (want(name) && (name !== 'profile' || opts.profile)) await run(ctx);
    }
    if (!opts.only) await judgeTargets(ctx);
    results.machine.loadavgEnd = os.loadavg().map((x) => +x.toFixed(2));
    const cpuAtEnd = cpuSnapshot();
    if (cpuAtStart && cpuAtEnd) {
      // Machine-wide busy time minus the benchmark's own (node + Chromium), in cores.
      const cores = os.cpus().length;
      const span = cpuAtEnd.total - cpuAtStart.total;
      const others = Math.max(0, (cpuAtEnd.busy - cpuAtStart.busy) - (cpuAtEnd.own - cpuAtStart.own));
      results.machine.otherCores = +((others / span) * cores).toFixed(2);
      results.machine.benchCores = +(((cpuAtEnd.own - cpuAtStart.own) / span) * cores).toFixed(2);
    }
    results.seconds = (Date.now() - started) / 1000;
    log(`\nbench finished in ${results.seconds.toFixed(0)} s (load average at the end ${results.machine.loadavgEnd.join(' ')}); raw figures in ${path.relative(process.cwd(), opts.json)}`);
    if (results.machine.otherCores !== undefined) {
      log(`CPU during the run: the benchmark (node + Chromium) ${results.machine.benchCores} cores on average, other processes ${results.machine.otherCores} of ${os.cpus().length}`);
    }
    // The load average includes the benchmark's own Chromium processes (about 1–3 while it
    // runs, and it decays over minutes), so the warning looks at the other processes' CPU
    // where it can.
    const busy = results.machine.otherCores !== undefined
      ? results.machine.otherCores > 0.25
      : Math.max(...results.machine.loadavg, ...results.machine.loadavgEnd) > 1.5;
    if (busy) {
      const why = results.machine.otherCores !== undefined
        ? `other processes used ${results.machine.otherCores} of ${os.cpus().length} cores on average`
        : `load average above 1.5 on ${results.machine.nproc} cores`;
      log(`warning: the machine was busy (${why}); wall-clock figures are pessimistic, the CPU columns less so`);
    }
  } finally {
    await browser.close().catch(() => {});
    await server.close();
    await plotlyServer.close();
    rmSync(plotlyDir, { recursive: true, force: true });
    if (ctx.profilingDist?.dir) rmSync(ctx.profilingDist.dir, { recursive: true, force: true });
  }
  mkdirSync(path.dirname(opts.json), { recursive: true });
  writeFileSync(opts.json, JSON.stringify(results, null, 1));
  if (opts.strict && results.targets) {
    const t = results.targets;
    const missed = [...t.p95.filter((r) => !r.pass), ...t.throttled.filter((r) => !r.pass), ...t.firstInput.filter((r) => !r.pass), ...[t.allVisible, t.firstDraw, t.gzip, t.uplot, t.soak, t.drag].filter((r) => !r.pass)];
    if (missed.length) process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(`bench: ${e.stack || e.message}`);
  process.exit(1);
});
