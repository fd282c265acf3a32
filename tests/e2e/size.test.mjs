// Size budget (the developers' guide): everything an English reader downloads for the first
// view — HTML, CSS, the loader, the wasm-bindgen JS, the wasm, the icon — is at most BUDGET
// bytes gzipped; a Chinese reader, who also downloads the catalogue zh-<hash>.txt
// (src/i18n.rs), at most ZH_TOTAL_BUDGET (docs/performance.md, "Targets and their gates"). The
// catalogue is held to its own small budget, ZH_BUDGET, so it cannot quietly grow into a second
// bundle; the Chinese total, ZH_TOTAL_BUDGET, is the budget that binds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { DIST, assertDist } from './harness.mjs';
import { escapeRe } from '../../scripts/prerender.mjs';
import { BUDGETS, prerenderedBytes, isCatalogue, isLearn, isRuns, isFull } from '../../scripts/size.mjs';

const BUDGET = BUDGETS.english;
// The first view prerendered into index.html (scripts/prerender.mjs) may add up to
// PRERENDER_BUDGET gzipped to the budgets above; the first paint needs only index.html and the
// stylesheet, and those two stay within FIRST_PAINT_BUDGET gzipped.
const PRERENDER_BUDGET = BUDGETS.prerendered;
const FIRST_PAINT_BUDGET = BUDGETS.firstPaint;

let prerendered;
const added = () => (prerendered ??= prerenderedBytes(DIST));
const ZH_TOTAL_BUDGET = BUDGETS.zhTotal;
const ZH_BUDGET = BUDGETS.zhCatalogue;
// The Learn view's texts are fetched when view=learn opens (crates/web/src/learn.rs): not part of
// any other first view; held to their own budget below: the texts and
// their sixteen live figures prerendered as SVG (scripts/learn-files.mjs), so that a link to
// the view reads before the model is in, and the table of published runs (91 rows, each with
// the link that opens it; docs/performance.md has the files' sizes).
const LEARN_BUDGET = BUDGETS.learn;
// The runs module (crates/runs: "Your run", "Copy as", scalingExplorer.import, with the
// importers of every format but the YAML ones, the TOML parser, the exporters and the
// scenario layer they read and write) is added when a reader first uses one of them: not part
// of any first view. Its loader, JS and wasm are held to their own budget below
// (docs/performance.md, "Targets and their gates").
const RUNS_BUDGET = BUDGETS.runs;
// The full module (crates/full: the page's glue with the Learn view and the exports) is the
// first view's module for a link to the Learn view, and is added when a reader of another view
// opens Learn or exports (crates/web/src/handover.rs). Its loader, JS and wasm are held to
// their own budget, FULL_BUDGET: about the size of the one module the page had before it was
// split in two, which filled the English first view's budget, with a little room.
const FULL_BUDGET = BUDGETS.full;

function gzipped(files) {
  return files.map((f) => {
    const raw = readFileSync(path.join(DIST, f));
    return { f, raw: raw.length, gz: gzipSync(raw, { level: constants.Z_BEST_COMPRESSION }).length };
  });
}

/** What an English reader downloads: every top-level file of dist/ but the catalogue. */
function englishFiles() {
  return assertDist().filter((f) => !f.includes('/') && !isCatalogue(f) && !isLearn(f) && !isRuns(f) && !isFull(f)).sort();
}

/** The first view's module: its wasm-bindgen JS and wasm (the pair that is not full's). */
const isFirstModule = (f) => /_bg\.wasm$/.test(f) || (f.endsWith('.js') && assertDist().includes(f.replace(/\.js$/, '_bg.wasm')));

test('an English reader downloads at most 250,000 B gzipped in total', () => {
  const files = englishFiles();
  for (const kind of ['.html', '.css', '.js', '.wasm']) {
    assert.ok(files.some((f) => f.endsWith(kind)), `no ${kind} file in ${DIST}`);
  }
  const sizes = gzipped(files);
  const total = sizes.reduce((a, s) => a + s.gz, 0);
  const pre = added();
  const summary = `gzipped total: ${total} B, of which the prerendered first view ${pre} B ` +
    `(budget ${BUDGET} B + up to ${PRERENDER_BUDGET} B prerendered, ${BUDGET + Math.min(pre, PRERENDER_BUDGET) - total} B left)`;
  console.log([...sizes.map((s) => `  ${s.f}: ${s.raw} B raw, ${s.gz} B gzip`), summary].join('\n'));
  assert.ok(pre <= PRERENDER_BUDGET, `the prerendered first view adds ${pre} B gzipped (budget ${PRERENDER_BUDGET} B)`);
  assert.ok(total - pre <= BUDGET, summary);
  const paint = sizes.filter((s) => s.f.endsWith('.html') || s.f.endsWith('.css')).reduce((a, s) => a + s.gz, 0);
  console.log(`  the first paint (HTML and CSS): ${paint} B gzipped (budget ${FIRST_PAINT_BUDGET} B)`);
  assert.ok(paint <= FIRST_PAINT_BUDGET, `the first paint needs ${paint} B gzipped of HTML and CSS (budget ${FIRST_PAINT_BUDGET} B)`);
});

test('the Chinese catalogue is one small extra file', () => {
  const files = assertDist().filter(isCatalogue);
  assert.equal(files.length, 1, `exactly one zh-<hash>.txt in ${DIST}: ${files}`);
  const [{ f, raw, gz }] = gzipped(files);
  console.log(`  ${f}: ${raw} B raw, ${gz} B gzip (a Chinese reader's extra download)`);
  assert.ok(gz <= ZH_BUDGET, `${f} is ${gz} B gzipped (budget ${ZH_BUDGET} B)`);
  const total = gzipped(englishFiles()).reduce((a, s) => a + s.gz, 0) + gz - added();
  console.log(`  a Chinese reader: ${total} B gzipped without the prerendered first view (budget ${ZH_TOTAL_BUDGET} B)`);
  assert.ok(total <= ZH_TOTAL_BUDGET, `a Chinese reader downloads ${total} B gzipped (budget ${ZH_TOTAL_BUDGET} B)`);
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  assert.ok(html.includes(`content="./${f}"`), 'index.html names the catalogue in <meta name="zh-catalogue">');
});

test("the Learn view's texts are one lazily fetched file per language, each small", () => {
  const files = assertDist().filter(isLearn);
  assert.equal(files.length, 2, `learn-en-<hash>.html and learn-zh-<hash>.html in ${DIST}: ${files}`);
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  for (const { f, raw, gz } of gzipped(files)) {
    console.log(`  ${f}: ${raw} B raw, ${gz} B gzip (fetched when view=learn opens)`);
    assert.ok(gz <= LEARN_BUDGET, `${f} is ${gz} B gzipped (budget ${LEARN_BUDGET} B)`);
    assert.ok(html.includes(`content="./${f}"`), `index.html names ${f} in a <meta name="learn-…">`);
  }
});

test('the full module is one loader, one JS and one wasm within its budget; a Learn link starts it instead of the first view\'s', () => {
  const full = assertDist().filter(isFull).sort();
  assert.equal(full.length, 3, `full-<hash>_loader.js, full-<hash>.js and full-<hash>_bg.wasm in ${DIST}: ${full}`);
  const first = englishFiles().filter(isFirstModule);
  assert.equal(first.length, 2, `the first view's JS and wasm: ${first}`);
  // A Learn link starts full-<hash>.js itself (the loader), not full-<hash>_loader.js.
  const files = [...englishFiles().filter((f) => !first.includes(f)), ...full.filter((f) => !f.endsWith('_loader.js'))];
  const sizes = gzipped(files);
  const total = sizes.reduce((a, s) => a + s.gz, 0);
  const pre = added();
  const firstWasm = gzipped(first.filter((f) => f.endsWith('.wasm')))[0].gz;
  const fullWasm = gzipped(full.filter((f) => f.endsWith('_bg.wasm')))[0].gz;
  const module = gzipped(full).reduce((a, s) => a + s.gz, 0);
  console.log(`  the full module: ${module} B gzipped (budget ${FULL_BUDGET} B); its wasm ${fullWasm} B against the first view's ${firstWasm} B ` +
    `(${fullWasm - firstWasm} B for the Learn view and the exports)`);
  console.log(`  a Learn link: ${total} B gzipped, of which the prerendered first view ${pre} B`);
  assert.ok(module <= FULL_BUDGET, `the full module is ${module} B gzipped (budget ${FULL_BUDGET} B)`);
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const loader = full.find((f) => f.endsWith('_loader.js'));
  assert.ok(html.includes(`content="./${loader}"`), 'index.html names the loader in <meta name="full-module">');
  for (const f of [...full, ...first]) {
    assert.ok(!new RegExp(`src="\\./${escapeRe(f)}"|href="\\./${escapeRe(f)}"`).test(html), `index.html does not load ${f} itself (the loader chooses)`);
  }
});

test('the runs module is one loader, one JS and one wasm, fetched on first use, within its budget', () => {
  const files = assertDist().filter(isRuns).sort();
  assert.equal(files.length, 3, `runs-<hash>_loader.js, runs-<hash>.js and runs-<hash>_bg.wasm in ${DIST}: ${files}`);
  const sizes = gzipped(files);
  const total = sizes.reduce((a, s) => a + s.gz, 0);
  for (const s of sizes) console.log(`  ${s.f}: ${s.raw} B raw, ${s.gz} B gzip (added on first use of "Your run" or "Copy as")`);
  console.log(`  the runs module: ${total} B gzipped (budget ${RUNS_BUDGET} B)`);
  assert.ok(total <= RUNS_BUDGET, `the runs module is ${total} B gzipped (budget ${RUNS_BUDGET} B)`);
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const loader = files.find((f) => f.endsWith('_loader.js'));
  assert.ok(html.includes(`content="./${loader}"`), 'index.html names the loader in <meta name="runs-module">');
  for (const f of files) {
    assert.ok(!new RegExp(`src="\\./${escapeRe(f)}"|href="\\./${escapeRe(f)}"`).test(html), `index.html does not load ${f} itself`);
  }
});
