// LLM panels (strong and weak scaling): presets pinned to the seed article's tables, B_eff
// moving T_crit / N_max / the chart together, bad inputs keeping the last valid value, the tab
// strip, and the CLI printing the same tables as the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  openSession, waitReady, assertClean, canvasStats, tableData, waitCanvasChange, waitForSearch, waitFor, waitQuiet,
  REPO, TIMEOUT,
} from './harness.mjs';

const STRONG_CANVASES = ['#strong-step-canvas', '#strong-efficiency-canvas', '#strong-throughput-canvas', '#strong-boxes-canvas'];
const WEAK_CANVASES = ['#weak-step-canvas', '#weak-efficiency-canvas', '#weak-throughput-canvas', '#weak-steps-canvas', '#weak-boxes-canvas'];
const STRONG_TABLE = '#strong-table table';
const WEAK_TABLE = '#weak-table table';
const VIEWS = ['laws', 'strong', 'weak'];

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

// ---- helpers ------------------------------------------------------------------------------

/** Which tab is selected, which panels are visible, focus and the URL: one snapshot. */
function viewState(page) {
  return page.evaluate((views) => {
    // checkVisibility(), not getClientRects(): what is below the fold may sit in a
    // `content-visibility: auto` wrapper, whose skipped contents have no boxes until painted.
    const shown = (el) => !!el && !el.hidden && el.checkVisibility();
    const out = { search: location.search, focus: document.activeElement?.id ?? '', tabs: {}, panels: {} };
    for (const v of views) {
      const tab = document.getElementById(`tab-${v}`);
      out.tabs[v] = { selected: tab?.getAttribute('aria-selected'), tabIndex: tab?.tabIndex };
      out.panels[v] = shown(document.getElementById(`panel-${v}`));
    }
    out.panels.llmControls = shown(document.getElementById('llm-controls'));
    return out;
  }, VIEWS);
}

/** Asserts `view` is the selected tab, its panel the only visible one, and the LLM inputs shown iff LLM. */
function checkView(st, view, label) {
  const dump = JSON.stringify(st);
  for (const v of VIEWS) {
    assert.equal(st.tabs[v].selected, v === view ? 'true' : 'false', `${label}: #tab-${v} aria-selected: ${dump}`);
    assert.equal(st.panels[v], v === view, `${label}: #panel-${v} ${v === view ? 'visible' : 'hidden'}: ${dump}`);
  }
  assert.equal(st.panels.llmControls, view !== 'laws', `${label}: #llm-controls ${view !== 'laws' ? 'visible' : 'hidden'}: ${dump}`);
}

/** Key figures as [label, value] pairs plus the whole text (whitespace collapsed). */
function figures(page, selector) {
  return page.evaluate((sel) => {
    const t = document.querySelector(sel);
    if (!t) return null;
    const norm = (x) => x.textContent.replace(/\s+/g, ' ').trim();
    return { rows: Array.from(t.rows).map((r) => Array.from(r.cells).map(norm)), text: norm(t) };
  }, selector);
}

/** The value cell of the key-figure row whose label contains `label`. */
function figure(figs, label) {
  const row = figs.rows.find((r) => r[0].includes(label));
  assert.ok(row, `a key figure labelled ${JSON.stringify(label)}: ${JSON.stringify(figs.rows)}`);
  return row[row.length - 1];
}

/** Polls until every canvas has more than `minFraction` non-background pixels; then asserts it. */
async function assertDrawn(page, selectors, minFraction = 0.02) {
  for (const sel of selectors) {
    await waitFor(
      page,
      ([s, m]) => { const st = window.__e2e.canvasStats(s); return st.found && st.fraction > m; },
      [sel, minFraction],
      `${sel} to be drawn (> ${minFraction * 100}% non-background pixels)`,
      async () => JSON.stringify(await canvasStats(page, sel)),
    );
    const st = await canvasStats(page, sel);
    assert.ok(st.total > 0 && st.fraction > minFraction, `${sel}: ${JSON.stringify(st)}`);
  }
}

/** The pixel hash of each canvas, by selector. */
async function hashes(page, selectors) {
  const out = {};
  for (const sel of selectors) {
    const st = await canvasStats(page, sel);
    assert.ok(st.found && st.hash, `${sel} has pixels: ${JSON.stringify(st)}`);
    out[sel] = st.hash;
  }
  return out;
}

/** Waits until every canvas of `before` (selector → hash) shows other pixels, still drawn. */
async function assertRedrawn(page, before, label, minFraction = 0.02) {
  for (const [sel, hash] of Object.entries(before)) {
    let st;
    try {
      st = await waitCanvasChange(page, sel, hash);
    } catch (e) {
      throw new Error(`${label}: ${sel} was not redrawn (its pixels did not change): ${e.message.split('\n')[0]}`);
    }
    assert.ok(st.fraction > minFraction, `${label}: ${sel} redrawn but nearly empty: ${JSON.stringify(st)}`);
  }
}

/** Waits for a non-empty message in `#<key>-msg` and returns it. */
async function waitMessage(page, key) {
  const sel = `#${key}-msg`;
  await waitFor(page, (s) => (document.querySelector(s)?.textContent ?? '').trim() !== '', sel,
    `${sel} to show a message`, async () => JSON.stringify({
      input: await page.locator(`#${key}-input`).inputValue(), search: await page.evaluate(() => location.search),
    }));
  return (await page.locator(sel).textContent()).trim();
}

async function open(query) {
  const page = await s.newPage();
  await page.goto(`${s.url}?${query}`);
  await waitReady(page);
  return page;
}

/** The leading integer of a key-figure value ("17,297 (≈ 17k)" → 17297). */
function leadingInt(text) {
  const m = /^([\d,]+)/.exec(text);
  assert.ok(m, `a leading integer in ${JSON.stringify(text)}`);
  return Number(m[1].replace(/,/g, ''));
}

/** "190G" → 1.9e11 (SI suffixes the number boxes use). */
function parseSi(text) {
  // B is a billion, as parameter counts are written (the p and pa boxes: 1.776B).
  const m = /^\s*([\d.]+(?:[eE][+-]?\d+)?)\s*([kKMGBTP]?)\s*$/.exec(text);
  assert.ok(m, `an SI number: ${JSON.stringify(text)}`);
  const mult = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, B: 1e9, T: 1e12, P: 1e15 }[m[2]];
  return Number(m[1]) * mult;
}

// The seed article's strong-scaling table (B_global = 32M tokens, 1.8B dense model, 100 GB/s):
// GPUs, tokens/replica, compute, exposed, step, ideal, efficiency, throughput.
const SEED_STRONG = [
  ['1,024', '31.25k', '900', '100', '1000', '1000', '100%', '32M'],
  ['4,096', '7.813k', '225', '150', '375', '250', '66.7%', '85.33M'],
  ['8,192', '3.906k', '112.5', '220', '332.5', '125', '37.6%', '96.24M'],
  ['16,384', '1.953k', '56.25', '300', '356.25', '62.5', '17.5%', '89.82M'],
];
const STRONG_HEADERS = ['GPUs', 'tokens/replica T', 'compute (ms)', 'exposed (ms)', 'step (ms)', 'ideal (ms)', 'efficiency', 'throughput (tok/s)'];

// The seed's weak-scaling table (T = 31.25k tokens per replica = per GPU here, 1T-token budget).
const SEED_WEAK = [
  ['1,024', '31.25k', '32M', '900', '100', '1000', '100%', '32M', '31,250'],
  ['4,096', '31.25k', '128M', '900', '150', '1050', '95.2%', '121.9M', '7,812.5'],
];
const WEAK_HEADERS = ['GPUs', 'tokens/replica T', 'global batch', 'compute (ms)', 'exposed (ms)', 'step (ms)', 'weak efficiency', 'throughput (tok/s)', 'optimizer steps'];

// ---- 1. strong preset ---------------------------------------------------------------------

test('?v=1&preset=seed-strong: strong tab, the seed table, T_crit / N_max figures, four charts drawn', async () => {
  const page = await open('v=1&preset=seed-strong');
  checkView(await viewState(page), 'strong', 'seed-strong');

  const t = await tableData(page, STRONG_TABLE);
  assert.ok(t, `${STRONG_TABLE} exists`);
  assert.deepEqual(t.headers.slice(0, 8), STRONG_HEADERS, 'strong table headers');
  assert.equal(t.rows.length, SEED_STRONG.length, `one row per GPU count: ${JSON.stringify(t.rows)}`);
  SEED_STRONG.forEach((want, i) => assert.deepEqual(t.rows[i].slice(0, 8), want, `strong row ${i} (${want[0]} GPUs)`));
  assert.ok(t.firstCellTags.every((tag) => tag === 'TH'), `first cell of each row is a <th>: ${t.firstCellTags}`);

  const figs = await figures(page, '#strong-figures');
  assert.ok(figs, '#strong-figures exists');
  assert.ok(figs.text.includes('3.7k tokens'), `T_crit = 3.7k tokens: ${figs.text}`);
  assert.equal(leadingInt(figure(figs, 'N_max')), 8649, `N_max = 32M / 3.7k ≈ 8,649: ${figs.text}`);
  assert.ok(figs.text.includes('8,649'), `figures show "8,649": ${figs.text}`);
  assert.ok(figs.text.includes('8,192 GPUs'), `throughput peaks at 8,192 GPUs: ${figs.text}`);

  await assertDrawn(page, STRONG_CANVASES);
  await assertClean(assert, page, 'seed-strong');
});

// ---- 2. weak preset -----------------------------------------------------------------------

test('?v=1&preset=seed-weak: weak tab, the seed table (32M → 128M, 95.2%), five charts drawn', async () => {
  const page = await open('v=1&preset=seed-weak');
  checkView(await viewState(page), 'weak', 'seed-weak');

  const t = await tableData(page, WEAK_TABLE);
  assert.ok(t, `${WEAK_TABLE} exists`);
  assert.deepEqual(t.headers, WEAK_HEADERS, 'weak table headers');
  assert.deepEqual(t.rows, SEED_WEAK, 'weak table rows');
  assert.ok(t.firstCellTags.every((tag) => tag === 'TH'), `first cell of each row is a <th>: ${t.firstCellTags}`);

  const figs = await figures(page, '#weak-figures');
  assert.ok(figs && figs.text.includes('32M → 128M'), `global batch grows 32M → 128M: ${figs?.text}`);
  assert.ok(figs.text.includes('95.2%'), `weak efficiency 95.2%: ${figs.text}`);

  await assertDrawn(page, WEAK_CANVASES);
  await assertClean(assert, page, 'seed-weak');
});

// ---- 3. B_eff moves T_crit, N_max and the chart together ----------------------------------

test('B_eff: typing 200G halves T_crit, doubles N_max, redraws and writes the URL; the slider does too', async () => {
  const page = await open('v=1&preset=seed-strong');
  const STEP = '#strong-step-canvas';
  await assertDrawn(page, [STEP]);
  const canvas0 = await canvasStats(page, STEP);
  // B_eff sets the exposed communication: the step, efficiency and throughput charts follow it
  // (the boxes chart shows the batch split, which B_eff does not touch).
  const follow0 = await hashes(page, ['#strong-efficiency-canvas', '#strong-throughput-canvas']);
  const figs0 = await figures(page, '#strong-figures');
  assert.ok(figs0.text.includes('3.7k tokens'), `starts at T_crit = 3.7k: ${figs0.text}`);

  await page.fill('#beff-input', '200G');
  await waitFor(page, () => document.querySelector('#strong-figures')?.textContent.includes('1.85k tokens'), null,
    'T_crit to become 1.85k tokens', async () => (await figures(page, '#strong-figures')).text);
  const figs1 = await figures(page, '#strong-figures');
  assert.ok(figs1.text.includes('1.85k tokens'), `T_crit = 3.7k / 2: ${figs1.text}`);
  assert.equal(leadingInt(figure(figs1, 'N_max')), 17297, `N_max = 32M / 1850 ≈ 17,297: ${figs1.text}`);
  const canvas1 = await waitCanvasChange(page, STEP, canvas0.hash);
  assert.ok(canvas1.fraction > 0.02, `${STEP} still drawn after B_eff = 200G: ${JSON.stringify(canvas1)}`);
  await assertRedrawn(page, follow0, 'B_eff = 200G');
  await waitForSearch(page, 'beff', '200G');
  assert.match(await page.evaluate(() => location.search), /(^\?|&)beff=200G(&|$)/);
  assert.equal((await page.locator('#beff-msg').textContent()).trim(), '', '#beff-msg stays empty for 200G');
  // The table's T / T_crit column follows T_crit (8.45 → 16.9 at 1,024 GPUs); the step times do not.
  const t1 = await tableData(page, STRONG_TABLE);
  SEED_STRONG.forEach((want, i) => assert.deepEqual(t1.rows[i].slice(0, 8), want, `row ${i}: step model unchanged`));
  assert.equal(t1.rows[0][8], '16.9', `T / T_crit at 1,024 GPUs doubles: ${JSON.stringify(t1.rows[0])}`);

  // The slider: a few ArrowLeft presses lower B_eff; the URL, T_crit, N_max and the chart follow.
  const search1 = await page.evaluate(() => location.search);
  await page.focus('#beff-range');
  const trail = [];
  const snap = () => page.evaluate(() => `${document.querySelector('#beff-range').value}/${document.querySelector('#beff-input').value}/${location.search}`);
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('ArrowLeft');
    trail.push(await snap());
  }
  await waitFor(page, (old) => location.search !== old && /(^\?|&)beff=/.test(location.search), search1,
    'the URL to change after ArrowLeft on #beff-range', async () => `trail ${trail.join(' | ')}; now ${await snap()}`);
  // Let the throttled replaceState settle, then check everything agrees with the box.
  await waitFor(page, () => new URLSearchParams(location.search).get('beff') === document.querySelector('#beff-input').value,
    null, 'URL beff to equal #beff-input', snap);
  const beffText = await page.locator('#beff-input').inputValue();
  const beff = parseSi(beffText);
  assert.ok(beff < 200e9, `ArrowLeft lowers B_eff below 200G: ${beffText}`);
  const wantNmax = (32e6 * beff) / (3700 * 100e9); // N_max ∝ B_eff (T_crit = 3.7k at 100G)
  await waitFor(page, (n) => {
    const row = Array.from(document.querySelector('#strong-figures').rows).find((r) => r.cells[0].textContent.includes('N_max'));
    const v = row && Number((/^[\d,]+/.exec(row.cells[row.cells.length - 1].textContent.trim()) || ['NaN'])[0].replace(/,/g, ''));
    return Math.abs(v - n) <= 1;
  }, wantNmax, `N_max to become ≈ ${Math.round(wantNmax)} for B_eff = ${beffText}`,
  async () => (await figures(page, '#strong-figures')).text);
  await waitCanvasChange(page, STEP, canvas1.hash);
  await assertClean(assert, page, 'B_eff');
});

// ---- 4. bad LLM inputs keep the last valid value ------------------------------------------

test('bad B_global and P_a show a message and keep the table and URL; a bad ex in the URL is named', async () => {
  const page = await open('v=1&preset=seed-strong');
  await waitQuiet(page, 'the first frame\'s address write, before the baseline');
  const search0 = await page.evaluate(() => location.search);
  const table0 = await tableData(page, STRONG_TABLE);
  const figs0 = await figures(page, '#strong-figures');

  // 1k tokens over 16,384 GPUs is less than one token per GPU.
  await page.fill('#b-input', '1k');
  const bMsg = await waitMessage(page, 'b');
  assert.match(bMsg, /token/i, `#b-msg explains the token shortfall: ${bMsg}`);
  await waitQuiet(page, 'a (wrong) redraw or address write after b=1k');
  assert.deepEqual(await tableData(page, STRONG_TABLE), table0, 'strong table unchanged after b=1k');
  assert.deepEqual(await figures(page, '#strong-figures'), figs0, 'key figures unchanged after b=1k');
  assert.equal(await page.evaluate(() => location.search), search0, 'URL unchanged after b=1k');
  assert.equal(await page.locator('#b-input').inputValue(), '1k', 'the typed text stays for editing');

  // Active parameters above the total (the seed's P is 1.776B).
  const pText = await page.locator('#p-input').inputValue();
  assert.ok(parseSi(pText) < 3e9, `seed P = ${pText} is below the 3B typed as P_a`);
  await page.fill('#pa-input', '3B');
  const paMsg = await waitMessage(page, 'pa');
  assert.match(paMsg, /exceed/i, `#pa-msg says P_a exceeds P: ${paMsg}`);
  await waitQuiet(page, 'a (wrong) redraw or address write after pa=3B');
  assert.deepEqual(await tableData(page, STRONG_TABLE), table0, 'strong table unchanged after pa=3B');
  assert.deepEqual(await figures(page, '#strong-figures'), figs0, 'key figures unchanged after pa=3B');
  assert.equal(await page.evaluate(() => location.search), search0, 'URL unchanged after pa=3B');

  // A valid value clears the message and is applied: every chart of the panel is redrawn.
  const charts0 = await hashes(page, STRONG_CANVASES);
  await page.fill('#b-input', '64M');
  await waitFor(page, () => document.querySelector('#b-msg').textContent.trim() === '', null, '#b-msg to clear for 64M',
    async () => (await page.locator('#b-msg').textContent()).trim());
  await waitForSearch(page, 'b', '64M');
  const table1 = await tableData(page, STRONG_TABLE);
  assert.equal(table1.rows[0][1], '62.5k', `tokens/GPU at 1,024 GPUs doubles with B = 64M: ${JSON.stringify(table1.rows[0])}`);
  await assertRedrawn(page, charts0, 'strong, B_global = 64M');
  await assertClean(assert, page, 'bad LLM inputs');

  // A one-point exposed-time table in the URL: named in #url-messages, defaults used, table drawn.
  const bad = await open('v=1&view=strong&ex=1024:100');
  await waitFor(bad, () => !document.querySelector('#url-messages').hidden, null, '#url-messages to show');
  assert.ok(await bad.locator('#url-messages').isVisible(), '#url-messages is visible');
  const items = await bad.locator('#url-messages-list li').allTextContents();
  assert.ok(items.some((m) => /(^|[^a-z])ex([^a-z]|$)/.test(m)), `a message names "ex": ${JSON.stringify(items)}`);
  checkView(await viewState(bad), 'strong', 'view=strong with a bad ex');
  const t = await tableData(bad, STRONG_TABLE);
  assert.ok(t && t.rows.length === SEED_STRONG.length, `strong table drawn: ${JSON.stringify(t?.rows)}`);
  SEED_STRONG.forEach((want, i) => assert.deepEqual(t.rows[i].slice(0, 8), want, `default ex used: row ${i}`));
  await assertDrawn(bad, STRONG_CANVASES);
  await assertClean(assert, bad, 'bad ex in the URL');
});

// ---- 4b. the weak panel redraws when its input changes -------------------------------------

test('weak panel: B_global 32M → 64M redraws all five charts, the table and the URL', async () => {
  const page = await open('v=1&preset=seed-weak');
  checkView(await viewState(page), 'weak', 'seed-weak');
  await assertDrawn(page, WEAK_CANVASES);
  const charts0 = await hashes(page, WEAK_CANVASES);
  const table0 = await tableData(page, WEAK_TABLE);
  assert.equal(await page.locator('#b-input').inputValue(), '32M', 'seed-weak B_global');

  await page.fill('#b-input', '64M');
  await waitForSearch(page, 'b', '64M');
  await waitFor(page, (old) => document.querySelector('#weak-table table')?.textContent !== old, table0.text,
    'the weak table to change for B_global = 64M');
  await assertRedrawn(page, charts0, 'weak, B_global = 64M');
  const t1 = await tableData(page, WEAK_TABLE);
  assert.equal(t1.rows[0][1], '62.5k', `tokens/GPU at 1,024 GPUs doubles with B = 64M: ${JSON.stringify(t1.rows[0])}`);
  assert.equal((await page.locator('#b-msg').textContent()).trim(), '', '#b-msg stays empty for 64M');

  // B_eff changes the exposed time only: the step, efficiency, throughput and steps charts follow.
  const follow = ['#weak-step-canvas', '#weak-efficiency-canvas', '#weak-throughput-canvas', '#weak-steps-canvas'];
  const charts1 = await hashes(page, follow);
  await page.fill('#beff-input', '200G');
  await waitForSearch(page, 'beff', '200G');
  await assertRedrawn(page, charts1, 'weak, B_eff = 200G');
  await assertClean(assert, page, 'weak panel inputs');
});

// ---- 5. tabs ------------------------------------------------------------------------------

test('tabs: clicking Weak shows the weak panel and writes view=weak; ArrowLeft moves to Strong', async () => {
  const page = await open('v=1');
  checkView(await viewState(page), 'laws', 'start');

  await page.click('#tab-weak');
  await waitFor(page, () => document.querySelector('#tab-weak').getAttribute('aria-selected') === 'true', null,
    '#tab-weak to be selected', async () => JSON.stringify(await viewState(page)));
  await waitForSearch(page, 'view', 'weak');
  const weak = await viewState(page);
  checkView(weak, 'weak', 'after clicking #tab-weak');
  assert.equal(weak.tabs.weak.tabIndex, 0, 'selected tab is in the tab order');
  assert.ok(weak.tabs.laws.tabIndex < 0 && weak.tabs.strong.tabIndex < 0, `other tabs are not: ${JSON.stringify(weak.tabs)}`);
  await assertDrawn(page, WEAK_CANVASES);
  assert.ok((await tableData(page, WEAK_TABLE))?.rows.length >= 2, 'weak table filled');

  await page.focus('#tab-weak');
  await page.keyboard.press('ArrowLeft');
  await waitFor(page, () => document.querySelector('#tab-strong').getAttribute('aria-selected') === 'true', null,
    '#tab-strong to be selected after ArrowLeft', async () => JSON.stringify(await viewState(page)));
  await waitForSearch(page, 'view', 'strong');
  const strong = await viewState(page);
  checkView(strong, 'strong', 'after ArrowLeft');
  assert.equal(strong.focus, 'tab-strong', 'focus follows the selected tab');
  assert.equal(strong.tabs.strong.tabIndex, 0, 'strong tab is in the tab order');
  await assertDrawn(page, STRONG_CANVASES);
  await assertClean(assert, page, 'tabs');
});

// ---- 6. CLI agreement ---------------------------------------------------------------------

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

for (const { view, query, table } of [
  { view: 'strong', query: 'v=1&preset=seed-strong', table: STRONG_TABLE },
  { view: 'weak', query: 'v=1&preset=seed-weak', table: WEAK_TABLE },
]) {
  test(`scaling ${view} --query '${query}' --format json matches the page's ${table} cell by cell`, async () => {
    const json = scaling([view, '--query', query, '--format', 'json']);
    assert.ok(Array.isArray(json.tables) && json.tables.length > 0, `CLI JSON has tables: ${Object.keys(json)}`);
    const cli = json.tables[0];
    assert.equal(cli.id, view, `tables[0] is the ${view} table`);
    assert.ok(cli.rows.length >= 2, `CLI prints rows: ${JSON.stringify(cli.rows)}`);

    const page = await open(query);
    const web = await tableData(page, table);
    assert.ok(web, `page has ${table}`);
    assert.deepEqual(web.headers, cli.headers, `${view}: headers`);
    assert.equal(web.rows.length, cli.rows.length, `${view}: row count (page ${JSON.stringify(web.rows)})`);
    for (let r = 0; r < cli.rows.length; r++) {
      assert.equal(web.rows[r].length, cli.rows[r].length, `${view}: row ${r} cell count`);
      for (let c = 0; c < cli.rows[r].length; c++) {
        assert.equal(web.rows[r][c], cli.rows[r][c], `${view}: row ${r} "${cli.headers[c]}"`);
      }
    }
    assert.ok(web.firstCellTags.every((tag) => tag === 'TH'), `${view}: first cell of each body row is a <th>`);
    if (cli.caption !== undefined) {
      const caption = await page.evaluate((sel) => document.querySelector(sel)?.caption?.textContent.trim() ?? null, table);
      assert.equal(caption, cli.caption, `${view}: caption`);
    }
    await assertClean(assert, page, `${view} page`);
  });
}
