// Plan panel (time to quality): the seed-weak contrast (95.2% reported vs 1.52x / 38.1% to the
// same loss) with no interaction, levers moving T_crit / N_max / the plots together in every LLM
// panel, the loss-curve flag in the reporting checklist, bad input, the CLI printing the same
// tables and report, and the copy buttons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  openSession, waitReady, assertClean, canvasStats, tableData, waitForSearch, waitFor, waitCanvasChange, waitQuiet,
  REPO,
} from './harness.mjs';

const VIEWS = ['laws', 'strong', 'weak', 'plan'];
const PLAN_CANVASES = ['#plan-ttq-canvas', '#plan-gpu-hours-canvas'];
const PLAN_TABLE = '#plan-table table';
const LEVER_TABLE = '#levers-table table';
const FP8_LABEL = 'fp8 parameter communication';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

// ---- helpers ------------------------------------------------------------------------------

async function open(query, options) {
  const page = await s.newPage(options);
  await page.goto(`${s.url}?${query}`);
  await waitReady(page);
  return page;
}

/** Which tab is selected, which panels are visible and whether the LLM inputs are shown. */
function viewState(page) {
  return page.evaluate((views) => {
    // checkVisibility(), not getClientRects(): what is below the fold may sit in a
    // `content-visibility: auto` wrapper, whose skipped contents have no boxes until painted.
    const shown = (el) => !!el && !el.hidden && el.checkVisibility();
    const out = { search: location.search, tabs: {}, panels: {} };
    for (const v of views) {
      out.tabs[v] = document.getElementById(`tab-${v}`)?.getAttribute('aria-selected') ?? null;
      out.panels[v] = shown(document.getElementById(`panel-${v}`));
    }
    out.panels.llmControls = shown(document.getElementById('llm-controls'));
    return out;
  }, VIEWS);
}

function checkView(st, view, label) {
  const dump = JSON.stringify(st);
  for (const v of VIEWS) {
    assert.equal(st.tabs[v], v === view ? 'true' : 'false', `${label}: #tab-${v} aria-selected: ${dump}`);
    assert.equal(st.panels[v], v === view, `${label}: #panel-${v} ${v === view ? 'visible' : 'hidden'}: ${dump}`);
  }
  assert.equal(st.panels.llmControls, view !== 'laws', `${label}: #llm-controls visible iff an LLM view: ${dump}`);
}

/** Key figures as [label, value] rows plus the whole text (whitespace collapsed). */
function figures(page, selector) {
  return page.evaluate((sel) => {
    const t = document.querySelector(sel);
    if (!t) return null;
    const norm = (x) => x.textContent.replace(/\s+/g, ' ').trim();
    return { rows: Array.from(t.rows).map((r) => Array.from(r.cells).map(norm)), text: norm(t) };
  }, selector);
}

function figure(figs, label) {
  const row = figs.rows.find((r) => r[0].includes(label));
  assert.ok(row, `a key figure labelled ${JSON.stringify(label)}: ${JSON.stringify(figs.rows)}`);
  return row[row.length - 1];
}

/** The leading integer of a value ("17,297 GPUs" → 17297). */
function leadingInt(text) {
  const m = /^([\d,]+)/.exec(text);
  assert.ok(m, `a leading integer in ${JSON.stringify(text)}`);
  return Number(m[1].replace(/,/g, ''));
}

/** Polls until every canvas has more than `minFraction` non-background pixels; then asserts it. */
async function assertDrawn(page, selectors, minFraction = 0.02) {
  for (const sel of selectors) {
    await waitFor(
      page,
      ([c, m]) => { const st = window.__e2e.canvasStats(c); return st.found && st.fraction > m; },
      [sel, minFraction],
      `${sel} to be drawn (> ${minFraction * 100}% non-background pixels)`,
      async () => JSON.stringify(await canvasStats(page, sel)),
    );
    const st = await canvasStats(page, sel);
    assert.ok(st.total > 0 && st.fraction > minFraction, `${sel}: ${JSON.stringify(st)}`);
  }
}

/** The lever table row whose label (first cell) is `label`, as { lever, on, tcrit, nmax, best, cost }. */
async function leverRow(page, label) {
  const t = await tableData(page, LEVER_TABLE);
  assert.ok(t, `${LEVER_TABLE} exists`);
  const col = (name) => {
    const i = t.headers.findIndex((h) => h.includes(name));
    assert.ok(i >= 0, `lever table has a "${name}" column: ${JSON.stringify(t.headers)}`);
    return i;
  };
  const row = t.rows.find((r) => r[0] === label);
  assert.ok(row, `lever table has a row "${label}": ${JSON.stringify(t.rows.map((r) => r[0]))}`);
  return { on: row[col('on')], tcrit: row[col('T_crit')], nmax: row[col('N_max')], row, headers: t.headers };
}

/** Waits for a non-empty message in `#<id>` and returns it. */
async function waitMessage(page, id) {
  const sel = `#${id}`;
  await waitFor(page, (q) => (document.querySelector(q)?.textContent ?? '').trim() !== '', sel,
    `${sel} to show a message`, async () => JSON.stringify({ search: await page.evaluate(() => location.search) }));
  return (await page.locator(sel).textContent()).trim();
}

const hasKey = (search, key) => new URLSearchParams(search).has(key);

// ---- 1. seed-weak in the plan view, no interaction -----------------------------------------

test('?v=1&preset=seed-weak&view=plan: the 95.2% headline vs 1.52x / 38.1% to quality, table, plots, report', async () => {
  const page = await open('v=1&preset=seed-weak&view=plan');
  checkView(await viewState(page), 'plan', 'seed-weak plan');

  const figs = await figures(page, 'table#plan-figures');
  assert.ok(figs && figs.rows.length >= 2, `#plan-figures filled: ${JSON.stringify(figs)}`);
  assert.match(figs.rows[0][0], /reported efficiency/, `first figure is the reported weak efficiency: ${JSON.stringify(figs.rows[0])}`);
  assert.equal(figs.rows[0][1], '95.2%', `reported weak efficiency: ${JSON.stringify(figs.rows[0])}`);
  assert.match(figs.rows[1][0], /time to the same loss falls only/, `second figure: ${JSON.stringify(figs.rows[1])}`);
  assert.equal(figs.rows[1][1], '1.52x — true efficiency 38.1%', `time-to-quality figure: ${JSON.stringify(figs.rows[1])}`);

  const t = await tableData(page, PLAN_TABLE);
  assert.ok(t, `${PLAN_TABLE} exists`);
  const row = t.rows.find((r) => r[0] === '4,096');
  assert.ok(row, `a 4,096-GPU row: ${JSON.stringify(t.rows)}`);
  const cell = (name) => {
    const i = t.headers.indexOf(name);
    assert.ok(i >= 0, `plan table column "${name}": ${JSON.stringify(t.headers)}`);
    return row[i];
  };
  assert.equal(cell('weak efficiency (headline)'), '95.2%', `4,096 row: ${JSON.stringify(row)}`);
  assert.equal(cell('weak: speedup to quality'), '1.52x', `4,096 row: ${JSON.stringify(row)}`);
  assert.equal(cell('weak: true efficiency'), '38.1%', `4,096 row: ${JSON.stringify(row)}`);
  assert.ok(t.firstCellTags.every((tag) => tag === 'TH'), `first cell of each row is a <th>: ${t.firstCellTags}`);

  await assertDrawn(page, PLAN_CANVASES);

  const bopt = (await page.locator('#plan-bopt').textContent()).trim();
  assert.match(bopt, /DeepSeek/, `#plan-bopt gives the DeepSeek reference: ${bopt}`);
  assert.match(bopt, /\d(\.\d+)?[kMG]? tokens/, `#plan-bopt gives a batch in tokens: ${bopt}`);
  const memory = (await page.locator('#plan-memory').textContent()).trim();
  assert.ok(memory.length > 0, '#plan-memory is filled');

  const en = (await page.locator('#report-en').textContent()).trim();
  for (const want of ['32M', '31.25k', '1,024', 'TP=1', 'loss–token']) {
    assert.ok(en.includes(want), `#report-en mentions ${JSON.stringify(want)}: ${en}`);
  }
  const zh = (await page.locator('#report-zh').textContent()).trim();
  assert.match(zh, /[\u4e00-\u9fff]/, `#report-zh holds Chinese text: ${zh}`);
  for (const want of ['基线', '并行配置']) assert.ok(zh.includes(want), `#report-zh mentions ${want}: ${zh}`);
  const warnings = await page.locator('#report-warnings li').allTextContents();
  assert.ok(warnings.length >= 1, `#report-warnings has an item: ${JSON.stringify(warnings)}`);
  assert.ok(warnings.every((w) => w.trim() !== ''), `no empty warning: ${JSON.stringify(warnings)}`);

  await assertClean(assert, page, 'seed-weak plan');
});

// ---- 2. levers move T_crit, N_max and the plots together ---------------------------------

test('lever fp8: T_crit 3.7k → 2.47k, N_max 12,973, plots and URL in one frame; strong tab follows; untick restores', async () => {
  const page = await open('v=1&preset=seed-strong&view=plan');
  checkView(await viewState(page), 'plan', 'seed-strong plan');
  await assertDrawn(page, PLAN_CANVASES);
  await waitQuiet(page, 'the first frame\'s address write, before the baseline');
  const search0 = await page.evaluate(() => location.search);
  assert.ok(!hasKey(search0, 'lv'), `no lv in the starting URL: ${search0}`);

  const typed = await leverRow(page, 'inputs as typed');
  assert.equal(typed.tcrit, '3.7k', `T_crit as typed: ${JSON.stringify(typed.row)}`);
  assert.equal(typed.on, '✓', `"inputs as typed" is the row in force: ${JSON.stringify(typed.row)}`);
  const fp8 = await leverRow(page, FP8_LABEL);
  // fp8 parameter all-gathers, bf16 gradients: (2·1 + 2)/(3·2) = 2/3 of 3.7k.
  assert.equal(fp8.tcrit, '2.47k', `fp8 alone: T_crit × 2/3: ${JSON.stringify(fp8.row)}`);
  assert.equal(leadingInt(fp8.nmax), 12973, `fp8 alone: N_max = 32M / 2,466.7: ${JSON.stringify(fp8.row)}`);
  assert.equal(fp8.on, '', `fp8 not on yet: ${JSON.stringify(fp8.row)}`);

  const figs0 = await figures(page, 'table#plan-figures');
  assert.equal(leadingInt(figure(figs0, 'N_max')), 8649, `plan figures: N_max as typed: ${figs0.text}`);
  const ttq0 = await canvasStats(page, '#plan-ttq-canvas');
  const gh0 = await canvasStats(page, '#plan-gpu-hours-canvas');

  // Sample the page every animation frame from now on: a frame must never show the new N_max
  // with the old plot (or the reverse) — the figures, tables and canvases change together.
  await page.evaluate(([oldTtq, oldGh]) => {
    const samples = [];
    window.__planSamples = samples;
    const nmax = () => {
      const row = Array.from(document.querySelector('#plan-figures').rows).find((r) => r.cells[0].textContent.includes('N_max'));
      return row ? row.cells[row.cells.length - 1].textContent.trim() : '';
    };
    const tick = () => {
      const ttq = window.__e2e.canvasStats('#plan-ttq-canvas').hash;
      const gh = window.__e2e.canvasStats('#plan-gpu-hours-canvas').hash;
      samples.push({ nmax: nmax(), ttqChanged: ttq !== oldTtq, ghChanged: gh !== oldGh });
      if (samples.length < 600) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, [ttq0.hash, gh0.hash]);

  await page.check('#lv-fp8');
  await waitForSearch(page, 'lv', 'fp8');
  await waitFor(page, () => {
    const row = Array.from(document.querySelector('#plan-figures').rows).find((r) => r.cells[0].textContent.includes('N_max'));
    return row && row.cells[row.cells.length - 1].textContent.includes('12,973');
  }, null, 'plan figures: N_max to become 12,973', async () => (await figures(page, 'table#plan-figures')).text);
  const ttq1 = await canvasStats(page, '#plan-ttq-canvas');
  assert.notEqual(ttq1.hash, ttq0.hash, 'the time-to-quality plot is redrawn for fp8');
  assert.ok(ttq1.fraction > 0.02, `plan-ttq still drawn: ${JSON.stringify(ttq1)}`);
  const samples = await page.evaluate(() => window.__planSamples.slice());
  assert.ok(samples.some((x) => !x.ttqChanged) && samples.some((x) => x.ttqChanged),
    `the sampler saw the frame before and after the tick: ${JSON.stringify(samples.slice(0, 3))} … (${samples.length})`);
  const gh1 = await canvasStats(page, '#plan-gpu-hours-canvas');
  assert.notEqual(gh1.hash, gh0.hash, 'the GPU-hours plot is redrawn for fp8');
  const mixed = samples.filter((x) => x.nmax.includes('12,973') !== x.ttqChanged || x.ttqChanged !== x.ghChanged);
  assert.deepEqual(mixed, [], `no frame shows N_max and the two plots out of step (${samples.length} samples)`);

  const fp8On = await leverRow(page, FP8_LABEL);
  assert.equal(fp8On.on, '✓', `lever table marks fp8 on: ${JSON.stringify(fp8On.row)}`);
  assert.equal((await leverRow(page, 'inputs as typed')).on, '', '"inputs as typed" no longer in force');
  assert.equal((await page.locator('#lv-msg').textContent()).trim(), '', '#lv-msg stays empty');
  const warnings = await page.locator('#report-warnings li').allTextContents();
  assert.ok(warnings.some((w) => w.includes('fp8')), `a warning says the fp8 lever is a projection: ${JSON.stringify(warnings)}`);

  // The lever applies to every LLM panel: the strong panel's T_crit and N_max follow.
  await page.click('#tab-strong');
  await waitFor(page, () => document.querySelector('#tab-strong').getAttribute('aria-selected') === 'true', null,
    '#tab-strong to be selected', async () => JSON.stringify(await viewState(page)));
  await waitFor(page, () => document.querySelector('#strong-figures')?.textContent.includes('2.47k tokens'), null,
    'strong figures: T_crit 2.47k tokens', async () => (await figures(page, 'table#strong-figures')).text);
  const sf = await figures(page, 'table#strong-figures');
  assert.ok(sf.text.includes('2.47k tokens'), `strong T_crit with fp8: ${sf.text}`);
  assert.equal(leadingInt(figure(sf, 'N_max')), 12973, `strong N_max with fp8: ${sf.text}`);
  assert.equal(new URLSearchParams(await page.evaluate(() => location.search)).get('lv'), 'fp8', 'lv stays in the URL');

  // Back in the plan view the box is still ticked; unticking removes lv from the URL.
  await page.click('#tab-plan');
  await waitFor(page, () => document.querySelector('#tab-plan').getAttribute('aria-selected') === 'true', null,
    '#tab-plan to be selected', async () => JSON.stringify(await viewState(page)));
  checkView(await viewState(page), 'plan', 'back in plan');
  assert.ok(await page.isChecked('#lv-fp8'), '#lv-fp8 is still ticked after the tab round trip');
  await page.uncheck('#lv-fp8');
  await waitFor(page, () => !new URLSearchParams(location.search).has('lv'), null, 'lv to leave the URL',
    async () => page.evaluate(() => location.search));
  await waitFor(page, () => {
    const row = Array.from(document.querySelector('#plan-figures').rows).find((r) => r.cells[0].textContent.includes('N_max'));
    return row && row.cells[row.cells.length - 1].textContent.includes('8,649');
  }, null, 'plan figures: N_max back to 8,649', async () => (await figures(page, 'table#plan-figures')).text);
  assert.equal((await leverRow(page, 'inputs as typed')).on, '✓', '"inputs as typed" in force again');
  await assertClean(assert, page, 'levers');
});

// ---- 3. the loss-curve flag --------------------------------------------------------------

test('lc: ticking #lc-input writes lc=1 and the report says a loss–token curve backs the numbers', async () => {
  const page = await open('v=1&preset=seed-weak&view=plan');
  const en0 = await page.locator('#report-en').textContent();
  assert.ok(en0.includes('No validation loss–token curve backs these numbers'), `starts without a curve: ${en0}`);
  const warn0 = await page.locator('#report-warnings li').allTextContents();
  assert.ok(warn0.some((w) => w.includes('only as throughput')), `throughput-only warning first: ${JSON.stringify(warn0)}`);

  await page.check('#lc-input');
  await waitForSearch(page, 'lc', '1');
  await waitFor(page, () => document.querySelector('#report-en').textContent.includes('A validation loss–token curve backs'),
    null, '#report-en to say a loss–token curve backs the numbers', async () => page.locator('#report-en').textContent());
  const en = await page.locator('#report-en').textContent();
  assert.ok(!en.includes('No validation loss–token curve'), `the "no curve" sentence is gone: ${en}`);
  const zh = await page.locator('#report-zh').textContent();
  assert.ok(zh.includes('有 validation loss–token 曲线支撑'), `#report-zh says so too: ${zh}`);
  const warn1 = await page.locator('#report-warnings li').allTextContents();
  assert.ok(!warn1.some((w) => w.includes('only as throughput')), `throughput-only warning dropped: ${JSON.stringify(warn1)}`);
  assert.equal((await page.locator('#lc-msg').textContent()).trim(), '', '#lc-msg stays empty');

  await page.uncheck('#lc-input');
  await waitFor(page, () => !new URLSearchParams(location.search).has('lc'), null, 'lc to leave the URL',
    async () => page.evaluate(() => location.search));
  await assertClean(assert, page, 'lc');
});

// ---- 4. bad input ------------------------------------------------------------------------

test('bad input: bcrit=0 is refused with a message, table and URL kept; bad bcap and lv in the URL are named', async () => {
  const page = await open('v=1&preset=seed-weak&view=plan');
  await waitQuiet(page, 'the first frame\'s address write, before the baseline');
  const search0 = await page.evaluate(() => location.search);
  const table0 = await tableData(page, PLAN_TABLE);
  const figs0 = await figures(page, 'table#plan-figures');
  const bcrit0 = await page.locator('#bcrit-input').inputValue();
  assert.equal(bcrit0, '32M', 'seed-weak B_crit = 32M');

  await page.fill('#bcrit-input', '0');
  const msg = await waitMessage(page, 'bcrit-msg');
  assert.match(msg, /critical batch/i, `#bcrit-msg names the critical batch: ${msg}`);
  await waitQuiet(page, 'a (wrong) redraw or address write after bcrit=0');
  assert.deepEqual(await tableData(page, PLAN_TABLE), table0, 'plan table unchanged after bcrit=0');
  assert.deepEqual(await figures(page, 'table#plan-figures'), figs0, 'plan figures unchanged after bcrit=0');
  assert.equal(await page.evaluate(() => location.search), search0, 'URL unchanged after bcrit=0');
  assert.equal(await page.locator('#bcrit-input').inputValue(), '0', 'the typed text stays for editing');

  // A valid value clears the message and is applied: both plots are redrawn (their pixels
  // change, not only stay inked).
  const plots0 = {};
  for (const sel of PLAN_CANVASES) plots0[sel] = (await canvasStats(page, sel)).hash;
  await page.fill('#bcrit-input', '64M');
  await waitFor(page, () => document.querySelector('#bcrit-msg').textContent.trim() === '', null, '#bcrit-msg to clear',
    async () => page.locator('#bcrit-msg').textContent());
  await waitForSearch(page, 'bcrit', '64M');
  await waitFor(page, (old) => document.querySelector('#plan-table table')?.textContent !== old, table0.text,
    'the plan table to change for B_crit = 64M');
  for (const [sel, hash] of Object.entries(plots0)) {
    const st = await waitCanvasChange(page, sel, hash);
    assert.ok(st.fraction > 0.02, `${sel} redrawn for B_crit = 64M and still drawn: ${JSON.stringify(st)}`);
  }
  await assertClean(assert, page, 'bad bcrit');

  const bad = await open('v=1&view=plan&bcap=10&lv=fp8,warp');
  await waitFor(bad, () => !document.querySelector('#url-messages').hidden, null, '#url-messages to show');
  assert.ok(await bad.locator('#url-messages').isVisible(), '#url-messages is visible');
  const items = await bad.locator('#url-messages-list li').allTextContents();
  const all = items.join('\n');
  assert.match(all, /(^|[^a-z])bcap([^a-z]|$)/m, `a message names bcap: ${JSON.stringify(items)}`);
  assert.match(all, /(^|[^a-z])lv([^a-z]|$)/m, `a message names lv: ${JSON.stringify(items)}`);
  assert.match(all, /warp/, `the lv message quotes the bad lever: ${JSON.stringify(items)}`);
  checkView(await viewState(bad), 'plan', 'view=plan with bad bcap and lv');
  const bt = await tableData(bad, PLAN_TABLE);
  assert.ok(bt && bt.rows.length >= 2, `plan table drawn with defaults: ${JSON.stringify(bt?.rows)}`);
  await assertDrawn(bad, PLAN_CANVASES);
  await waitQuiet(bad, 'the address write after a bad bcap / lv');
  const badSearch = await bad.evaluate(() => location.search);
  assert.ok(!/warp/.test(badSearch) && !/bcap=10(&|$)/.test(badSearch), `rejected values do not stay in the URL: ${badSearch}`);
  await assertClean(assert, bad, 'bad bcap / lv in the URL');
});

// ---- 5. CLI agreement --------------------------------------------------------------------

const TARGET = process.env.CARGO_TARGET_DIR ? path.resolve(REPO, process.env.CARGO_TARGET_DIR) : path.join(REPO, 'target');
let scalingBin = process.env.SCALING_BIN;

/** target/debug/scaling, (re)built first so it is never older than the sources (unless SCALING_BIN is set). */
function scaling(args) {
  if (!scalingBin) {
    execFileSync('cargo', ['build', '--quiet', '--bin', 'scaling'],
      { cwd: REPO, timeout: 600_000, stdio: ['ignore', 'inherit', 'inherit'] });
    scalingBin = path.join(TARGET, 'debug', 'scaling');
  }
  const out = execFileSync(scalingBin, args,
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 120_000, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out);
}

function assertSameTable(web, cli, what) {
  assert.ok(web, `page has the ${what} table`);
  assert.deepEqual(web.headers, cli.headers, `${what}: headers`);
  assert.equal(web.rows.length, cli.rows.length, `${what}: row count (page ${JSON.stringify(web.rows)})`);
  for (let r = 0; r < cli.rows.length; r++) {
    assert.equal(web.rows[r].length, cli.rows[r].length, `${what}: row ${r} cell count`);
    for (let c = 0; c < cli.rows[r].length; c++) {
      assert.equal(web.rows[r][c], cli.rows[r][c], `${what}: row ${r} "${cli.headers[c]}"`);
    }
  }
  assert.ok(web.firstCellTags.every((tag) => tag === 'TH'), `${what}: first cell of each body row is a <th>`);
}

for (const query of ['v=1&preset=seed-weak', 'v=1&preset=seed-strong&lv=fp8,noreshard&bcrit=16M']) {
  test(`scaling plan / report --query '${query}' agree with the page's plan tables and report`, async () => {
    const json = scaling(['plan', '--query', query, '--format', 'json']);
    assert.ok(Array.isArray(json.tables) && json.tables.length >= 2, `CLI JSON has two tables: ${Object.keys(json)}`);
    assert.equal(json.tables[0].id, 'plan', 'tables[0] is the plan table');
    const rep = scaling(['report', '--query', query, '--format', 'json']);
    assert.equal(typeof rep.en, 'string', 'report JSON has en');
    assert.equal(typeof rep.zh, 'string', 'report JSON has zh');

    const page = await open(`${query}&view=plan`);
    checkView(await viewState(page), 'plan', query);
    for (const [i, sel] of [[0, PLAN_TABLE], [1, LEVER_TABLE]]) {
      const cli = json.tables[i];
      const web = await tableData(page, sel);
      assertSameTable(web, cli, `${sel} (tables[${i}], id ${cli.id})`);
      if (cli.caption !== undefined) {
        const caption = await page.evaluate((q) => document.querySelector(q)?.caption?.textContent ?? null, sel);
        assert.equal(caption, cli.caption, `${sel}: caption`);
      }
    }
    assert.equal(await page.locator('#report-en').textContent(), rep.en, '#report-en equals `scaling report` en');
    assert.equal(await page.locator('#report-zh').textContent(), rep.zh, '#report-zh equals `scaling report` zh');
    if (Array.isArray(rep.warnings)) {
      const items = await page.locator('#report-warnings li').allTextContents();
      assert.deepEqual(items, rep.warnings.map((w) => `${w.en} / ${w.zh}`), '#report-warnings equal the CLI warnings');
    }
    await assertClean(assert, page, `plan page for ${query}`);
  });
}

// ---- 6. copy buttons ---------------------------------------------------------------------

test('#report-copy-en / -zh: a status ("Copied." or a "Copy this:" fallback), no error', async () => {
  const page = await open('v=1&preset=seed-weak&view=plan');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.origin });
  const en = await page.locator('#report-en').textContent();
  assert.equal((await page.locator('#report-status').textContent()).trim(), '', 'no status before clicking');

  await page.click('#report-copy-en');
  await waitFor(page, () => document.querySelector('#report-status').textContent.trim() !== '', null,
    '#report-status to show a status after #report-copy-en');
  const status = (await page.locator('#report-status').textContent()).trim();
  if (status === 'Copied.') {
    const clip = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(clip, en, 'the clipboard holds the English report');
  } else {
    assert.equal(status, `Copy this: ${en}`.trim(), `fallback shows the English report: ${status}`);
  }

  // The Chinese button copies the Chinese paragraph.
  const zh = await page.locator('#report-zh').textContent();
  await page.evaluate(() => { document.querySelector('#report-status').textContent = ''; });
  await page.click('#report-copy-zh');
  await waitFor(page, () => document.querySelector('#report-status').textContent.trim() !== '', null,
    '#report-status to show a status after #report-copy-zh');
  const status2 = (await page.locator('#report-status').textContent()).trim();
  if (status2 === 'Copied.') {
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), zh, 'the clipboard holds the Chinese report');
  } else {
    assert.equal(status2, `Copy this: ${zh}`.trim(), `fallback shows the Chinese report: ${status2}`);
  }
  await assertClean(assert, page, 'copy');
});

test('lay=best on the Plan tab: weak-then-strong with the best layout at each row, and where it stops paying', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&preset=gpt3-175b-walls&view=plan&lay=best');
  await waitReady(page);
  const figures = await page.locator('#plan-figures').textContent();
  assert.match(figures, /With the best layout at each row, time to quality is least at\s*[\d,]+ GPUs: [\d.]+ h \(TP\d+·PP\d+/, figures);
  const table = await tableData(page, '#plan-table table');
  const col = table.headers.indexOf('weak→strong: best layout');
  assert.ok(col >= 0, `a best-layout column: ${table.headers}`);
  assert.ok(table.rows.every((r) => /^TP\d+·PP\d+/.test(r[col])), JSON.stringify(table.rows.map((r) => r[col])));
  await assertClean(assert, page, 'plan with lay=best');
});

test('a mixture of experts computed from the peak warns that the published MoE runs ran slower; cm=flops does not', async () => {
  const warned = (ws) => ws.find((w) => w.includes('This mixture of experts is computed from the peak'));
  const page = await open('v=1&preset=mixtral-8x7b-walls&cm=physics&stack=megatron&view=plan');
  const ws = await page.locator('#report-warnings li').allTextContents();
  const w = warned(ws);
  assert.ok(w, `#report-warnings has the MoE warning: ${JSON.stringify(ws)}`);
  assert.ok(w.includes('in 18 of 19 rows, by 34% at the median') && w.includes('19 行中有 18 行偏短，中位数短 34%'),
    `in both languages, with the published rows' figures: ${w}`);
  await assertClean(assert, page, 'MoE from the peak');
  // The preset's own measured rate: no such warning.
  const own = await open('v=1&preset=mixtral-8x7b-walls&view=plan');
  const ws2 = await own.locator('#report-warnings li').allTextContents();
  assert.equal(warned(ws2), undefined, `no MoE warning from a measured rate: ${JSON.stringify(ws2)}`);
  await assertClean(assert, own, 'MoE from F_eff');
});
