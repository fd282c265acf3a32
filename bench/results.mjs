#!/usr/bin/env node
// The results section of docs/performance.md, generated from a `make bench` run: reads
// test-results/bench.json and rewrites what lies between `<!-- results:begin -->` and
// `<!-- results:end -->` with the commit, the machine and one table row per target.
// `make bench` runs it after the bench; run it alone to regenerate the section from a kept json.
//
//   node bench/results.mjs [--json test-results/bench.json] [--doc docs/performance.md] [--print]
//
// --print writes the section to stdout and leaves the doc alone.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BEGIN = '<!-- results:begin -->';
const END = '<!-- results:end -->';

// The targets as bench/bench.mjs judges them, for a bench.json written before it recorded them.
const DEFAULT_LIMITS = {
  p95Ms: 8, allVisibleMs: 16.7, firstDrawMs: 150, gzipBytes: 250_000, prerenderedBytes: 20_000,
  throttledP95Ms: 33, throttleRate: 4, firstInputMs: 200, firstInputLoads: 3, searchP95Ms: 16.7,
  uplotRatio: 1.2, plotlyRatio: 5, soakSteps: 10_000, soakP95Drift: 1.1, dragMs: 100,
};

function parseArgs(argv) {
  const opts = { json: path.join(REPO, 'test-results', 'bench.json'), doc: path.join(REPO, 'docs', 'performance.md'), print: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') opts.json = path.resolve(argv[++i]);
    else if (argv[i] === '--doc') opts.doc = path.resolve(argv[++i]);
    else if (argv[i] === '--print') opts.print = true;
    else throw new Error(`unknown argument ${argv[i]} (--json FILE, --doc FILE, --print)`);
  }
  return opts;
}

const ms = (x, digits = 1) => (Number.isFinite(x) ? `${x.toFixed(digits)} ms` : 'not run');
const bytes = (x) => `${x.toLocaleString('en-US')} B`;
const verdict = (pass) => (pass ? 'PASS' : '**FAIL**');
const ratio = (x) => `${x.toFixed(2)}×`;

/** The rows of the results table: [target, measured, result]. */
function rows(r) {
  const t = r.targets;
  const lim = { ...DEFAULT_LIMITS, ...(r.limits ?? {}) };
  const cpuP95 = (key) => r.updates?.[key]?.stats?.cpu?.p95;
  const out = [];
  for (const p of t.p95) out.push([`update p95 ≤ ${lim.p95Ms} ms, top of the tab: ${p.panel}`, `CPU ${ms(cpuP95(p.panel))} (wall ${ms(p.p95)})`, verdict(p.pass)]);
  if (r.allVisible) {
    out.push([`update p95 ≤ ${lim.allVisibleMs} ms, whole tab on screen (worst: ${r.allVisible.worstPanel.replace(/-on-screen$/, '')})`,
      `CPU ${ms(r.allVisible.cpuP95)} (wall ${ms(r.allVisible.p95)})`, verdict(t.allVisible.pass)]);
  }
  if (r.search) {
    out.push([`update p95 ≤ ${lim.searchP95Ms} ms, Strong tab with \`lay=best\` (${(r.search.layoutsPerUpdate ?? 0).toLocaleString('en-US')} layouts an update)`,
      `CPU ${ms(r.search.cpuP95)} (wall ${ms(r.search.p95)})`, verdict(r.search.pass)]);
  }
  if (r.drag) {
    out.push([`heaviest drag (Mixtral 8x7B, \`lay=best\`, the explorer at 512 GPUs on screen): move → painted p95 ≤ ${lim.dragMs} ms`,
      `${ms(r.drag.p95)} (median ${ms(r.drag.median)}, CPU p95 ${ms(r.drag.cpuP95)})`, verdict(r.drag.pass)]);
  }
  for (const p of t.throttled) {
    const name = p.panel === 'strong-best' ? 'strong, `lay=best`' : p.panel;
    out.push([`update p95 ≤ ${lim.throttledP95Ms} ms at ${lim.throttleRate}× CPU: ${name}`, `CPU ${ms(p.cpuP95)}`, verdict(p.pass)]);
  }
  for (const p of t.firstInput) {
    out.push([`first input (INP) ≤ ${lim.firstInputMs} ms at ${lim.throttleRate}× CPU, median of ${lim.firstInputLoads}: \`${p.page}\``, ms(p.median, 0), verdict(p.pass)]);
  }
  const loads = r.loads?.['laws (default)']?.ready?.n;
  out.push([`first full draw ≤ ${lim.firstDrawMs} ms, median of ${loads ?? '?'} cold loads`, ms(t.firstDraw.median, 0), verdict(t.firstDraw.pass)]);
  out.push([`gzipped first view ≤ ${bytes(lim.gzipBytes)} + prerendered HTML ≤ ${bytes(lim.prerenderedBytes)}`,
    `${bytes(t.gzip.total - t.gzip.prerendered)} + ${bytes(t.gzip.prerendered)}`, verdict(t.gzip.pass)]);
  out.push(...sizeRows(r.sizes, lim.budgets));
  if (r.uplot) {
    const own = (s, rest) => `${ms(s.cpu.median - rest.cpu.median)} / ${ms(s.cpu.p95 - rest.cpu.p95)}`;
    out.push([`our chart's share of an update / uPlot's ≤ ${lim.uplotRatio}, CPU median and p95`,
      `${ratio(r.uplot.chartOnly.median)}, ${ratio(r.uplot.chartOnly.p95)} (ours ${own(r.uplot.ours, r.uplot.noChart)}, uPlot ${own(r.uplot.uplot, r.uplot.uplotNoChart)}; whole updates ${ratio(r.uplot.ratio.median)}, ${ratio(r.uplot.ratio.p95)})`,
      verdict(r.uplot.pass)]);
  }
  if (t.plotly) out.push(['Plotly.js time / ours, median and p95 (reference, no target)', `${ratio(t.plotly.median)}, ${ratio(t.plotly.p95)}`, 'reference']);
  if (t.soak?.first) {
    out.push([`soak of ${t.soak.steps.toLocaleString('en-US')} steps: no wasm memory growth, p95 drift ≤ ${Math.round((lim.soakP95Drift - 1) * 100)}%`,
      `${(t.soak.memoryAtWarmup / 1024).toFixed(0)} → ${(t.soak.memoryAtEnd / 1024).toFixed(0)} KiB; p95 ${ms(t.soak.first.p95)} → ${ms(t.soak.last.p95)}${soakCounters(t.soak)}`, verdict(t.soak.pass)]);
  }
  return out;
}

/** The soak's DOM and JavaScript counters after warm-up and at the end, when recorded. */
function soakCounters(soak) {
  const a = soak.countersAtWarmup;
  const b = soak.countersAtEnd;
  if (!a || !b) return '';
  return `; DOM nodes ${a.nodes} → ${b.nodes}, layout objects ${a.layoutObjects} → ${b.layoutObjects}, ` +
    `JavaScript heap ${(a.jsHeapBytes / 1024).toFixed(0)} → ${(b.jsHeapBytes / 1024).toFixed(0)} KiB`;
}

/**
 * The Chinese reader's download and the lazily fetched files against their budgets (the size
 * test's gates, scripts/size.mjs), for a bench.json that recorded them.
 */
function sizeRows(sizes, budgets) {
  if (!sizes?.lazy || !budgets) return [];
  const under = (x, budget) => verdict(x <= budget);
  const out = [];
  if (sizes.zhCatalogue) {
    const zh = sizes.total - sizes.prerendered + sizes.zhCatalogue.gzip;
    out.push([`Chinese first view ≤ ${bytes(budgets.zhTotal)} (the catalogue alone ≤ ${bytes(budgets.zhCatalogue)})`,
      `${bytes(zh)} (catalogue ${bytes(sizes.zhCatalogue.gzip)})`, verdict(zh <= budgets.zhTotal && sizes.zhCatalogue.gzip <= budgets.zhCatalogue)]);
  }
  const learn = Object.entries(sizes.lazy.learn);
  out.push([`each Learn file ≤ ${bytes(budgets.learn)}`, learn.map(([lang, b]) => `${lang} ${bytes(b)}`).join(', '),
    verdict(learn.length > 0 && learn.every(([, b]) => b <= budgets.learn))]);
  out.push([`the full module ≤ ${bytes(budgets.full)}`, bytes(sizes.lazy.full), under(sizes.lazy.full, budgets.full)]);
  out.push([`the runs module ≤ ${bytes(budgets.runs)}`, bytes(sizes.lazy.runs), under(sizes.lazy.runs, budgets.runs)]);
  return out;
}

function section(r) {
  if (!r.targets) throw new Error('the json has no targets: a partial run (--only, --panels) writes none; run `make bench`');
  const c = r.commit;
  const commit = c ? `\`${c.hash}\`${c.dirty ? ' with local changes' : ''} (${c.subject})` : 'not recorded';
  const m = r.machine ?? {};
  const others = m.otherCores === undefined ? '' : `; other processes used ${m.otherCores} of ${m.cpus} cores during the run`;
  const lines = [
    BEGIN,
    '<!-- Generated by bench/results.mjs from test-results/bench.json; `make bench` rewrites it. -->',
    '',
    `Commit ${commit}. Machine: ${m.cpuModel ?? '?'}, ${m.nproc ?? m.cpus} cores, ${m.memGiB ?? '?'} GiB${m.benchmarkIndex ? `, Lighthouse's benchmarkIndex ${m.benchmarkIndex.toLocaleString('en-US')} (at ${r.limits?.throttleRate ?? 4}× CPU about ${Math.round(m.benchmarkIndex / (r.limits?.throttleRate ?? 4))}; DevTools scores a Pixel 5 1,000)` : ''}; Chromium ${m.chromium ?? '?'}, Node ${m.node ?? '?'}${others}. The run took ${Math.round(r.seconds ?? 0)} s.`,
    '',
    '| target | measured | result |',
    '|---|---|---|',
    ...rows(r).map((row) => `| ${row.join(' | ')} |`),
    '',
    END,
  ];
  return lines.join('\n');
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const r = JSON.parse(readFileSync(opts.json, 'utf8'));
  const text = section(r);
  if (opts.print) {
    console.log(text);
    return;
  }
  const doc = readFileSync(opts.doc, 'utf8');
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${opts.doc} has no ${BEGIN} … ${END} section`);
  writeFileSync(opts.doc, doc.slice(0, a) + text + doc.slice(b + END.length));
  console.log(`results: ${path.relative(process.cwd(), opts.doc)} rewritten from ${path.relative(process.cwd(), opts.json)}`);
}

try {
  main();
} catch (e) {
  console.error(`results: ${e.message}`);
  process.exit(1);
}
