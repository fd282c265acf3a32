// The first view is the real page before any script runs (scripts/prerender.mjs,
// src/panel/prerender.rs): with JavaScript off the page shows the
// default scenario's key figures, tables and charts, its inputs' values, and says the inputs
// need JavaScript; with
// it on, the page's first frame writes the same figures and tables over them, and each chart's
// canvas takes its SVG's place in the same box.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, tableData, closeQuietly } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const CHARTS = ['laws-speedup', 'laws-efficiency', 'laws-karp-flatt'];
const figures = (page) => page.evaluate(() => Array.from(document.querySelectorAll('#laws-figures tr'))
  .map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
const boxes = (page) => page.evaluate((ids) => ids.map((id) => {
  const r = document.getElementById(`${id}-canvas`).getBoundingClientRect();
  return [Math.round(r.top), Math.round(r.height)];
}), CHARTS);

test('with JavaScript off the page reads: figures, tables and charts of the default scenario', async () => {
  const context = await s.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1200, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(s.url + '?v=1');
    const noscript = await page.locator('noscript + p, .msg').first().textContent().catch(() => '');
    const html = await page.content();
    assert.match(html, /The inputs need JavaScript/, 'a line says the inputs need JavaScript');
    assert.ok(noscript !== null);
    const rows = await figures(page);
    assert.ok(rows.length >= 3, `key figures: ${JSON.stringify(rows)}`);
    assert.ok(rows.every(([label, value]) => label && value), JSON.stringify(rows));
    const table = await tableData(page, '#laws-speedup-table table').catch(() => null);
    const count = await page.locator('#laws-speedup-table tbody tr').count();
    assert.ok(count >= 5, `the speedup table has its rows: ${count} ${JSON.stringify(table)}`);
    for (const id of CHARTS) {
      const svg = page.locator(`#${id} svg.prerendered`);
      assert.equal(await svg.count(), 1, `#${id} has its prerendered chart`);
      assert.ok(await svg.isVisible(), `#${id}'s chart is visible`);
      assert.ok((await svg.locator('polyline, path, line').count()) > 0, `#${id}'s chart draws lines`);
      assert.ok((await page.locator(`#${id}-summary`).textContent()).length > 20, `#${id} has its summary`);
    }
    // The inputs show the scenario that makes these numbers (src/panel/prerender.rs,
    // `controls`): f's box as its link writes it; its slider on the log scale of 10^-4 … 1
    // over positions 1 … 1000 at 1 + 999·ln(0.05/1e-4)/ln(1e4) = 675; the bf16 default of the
    // bytes-per-parameter menu (the option of value 2, not the first option).
    const inputs = await page.evaluate(() => ({
      f: document.getElementById('f-input').value,
      range: document.getElementById('f-range').value,
      spoken: document.getElementById('f-range').getAttribute('aria-valuetext'),
      sw: document.getElementById('sw-input').value,
    }));
    assert.deepEqual(inputs, { f: '0.05', range: '675', spoken: 'f = 5%', sw: '2' });
  } finally {
    await context.close().catch(() => {});
  }
});

test('with JavaScript on the page writes the same figures over them, and the canvases take the charts\' place in the same boxes', async () => {
  const page = await s.newPage();
  try {
    // Hold the wasm back: the first paint is the prerendered page with the scripts running.
    let release;
    const gate = new Promise((r) => { release = r; });
    await page.route(/_bg\.wasm$/, async (route) => { await gate; await route.continue(); });
    await page.goto(s.url + '?v=1');
    await page.waitForSelector('#laws-speedup svg.prerendered');
    const before = { figures: await figures(page), boxes: await boxes(page) };
    assert.ok(before.figures.length >= 3, JSON.stringify(before.figures));
    release();
    await waitReady(page);
    assert.deepEqual(await figures(page), before.figures, 'the prerendered key figures are the page\'s');
    assert.deepEqual(await boxes(page), before.boxes, 'every chart box is where and as tall as it was prerendered');
    // The charts on screen were drawn, and their SVG is gone.
    assert.equal(await page.locator('#laws-speedup svg.prerendered').count(), 0);
    await assertClean(assert, page, 'prerendered first view');
  } finally {
    await closeQuietly(page);
  }
});

// Where every element with an id is, and its text if it is a key figure or table cell: what
// a reader sees move (or change) when the page takes over.
const layout = (page) => page.evaluate(() => Object.fromEntries(Array.from(document.querySelectorAll('[id]'))
  // The status lines float over the page; the language button's Chinese label is laid out
  // after the first paint (style.css, in a box of fixed height); the footer's command is the
  // Laws one until the model writes the link's (on a line of its own: only its width changes).
  .filter((e) => !['app-status', 'load-hint', 'lang-toggle', 'copy-status', 'cli-command'].includes(e.id))
  .map((e) => {
    const r = e.getBoundingClientRect();
    return [e.id, [r.top, r.left, r.width, r.height].map(Math.round).join(' ')];
  })));

for (const [query, panel] of [['?v=1&view=strong', 'strong'], ['?v=1&view=weak', 'weak'], ['?v=1&embed=strong', 'strong']]) {
  test(`${query} paints its prerendered panel first, on a phone and wide, and nothing moves when the page takes over`, async () => {
    for (const viewport of [{ width: 412, height: 823 }, { width: 1280, height: 900 }]) {
      const context = await s.newContext({ viewport });
      const page = await context.newPage();
      try {
        let release;
        const gate = new Promise((r) => { release = r; });
        await page.route(/_bg\.wasm$/, async (route) => { await gate; await route.continue(); });
        await page.goto(s.url + query);
        await page.waitForSelector(`#${panel}-figures tr`);
        const shown = await page.evaluate((p) => ({
          panel: !document.getElementById(`panel-${p}`).hidden,
          laws: !document.getElementById('panel-laws').hidden,
          tab: document.getElementById(`tab-${p}`).getAttribute('aria-selected'),
          svg: document.querySelectorAll(`#panel-${p} svg.prerendered`).length,
          swap: document.documentElement.classList.contains('swap'),
        }), panel);
        assert.deepEqual(shown, { panel: true, laws: false, tab: 'true', svg: shown.svg, swap: false }, `${query} before the model`);
        assert.ok(shown.svg >= 4, `${query}: the panel's charts are prerendered (${shown.svg})`);
        const before = await layout(page);
        release();
        await waitReady(page);
        const after = await layout(page);
        const moved = Object.keys(after).filter((id) => before[id] !== after[id] && !(before[id] === undefined && after[id] === '0 0 0 0'))
          .map((id) => `${id}: ${before[id]} -> ${after[id]}`);
        assert.deepEqual(moved, [], `${query} at ${viewport.width} px: nothing moves`);
        assert.equal(await page.locator(`#panel-${panel} svg.prerendered`).count(), 0, 'the canvases are drawn');
        await assertClean(assert, page, query);
      } finally {
        await context.close().catch(() => {});
      }
    }
  });
}

// A slow phone (4× CPU, as Lighthouse's mobile run): the parser yields and the browser paints
// the page piece by piece. Phones lay a panel out with `order` (its first figure above the
// inputs, which come first in the document), so a piece painted before the figure is parsed
// showed the inputs where the figure then went (CLS 0.24 on ?v=1, 0.29 on view=strong, 0.76
// on embed=strong, about one load in two); and the first script, whose `//` comments the
// minifier had joined into one line, did not run at all. The inputs now wait for the figure
// (html.hold-inputs, www/index.html). Each page twice, since a paint between the two pieces
// depends on timing.
const SHIFTS = `window.__shifts = [];
new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__shifts.push([e.value, e.sources.map((s) => s.node && (s.node.id || s.node.nodeName)).join(' ')]); })
  .observe({ type: 'layout-shift', buffered: true });`;
for (const query of ['?v=1', '?v=1&view=strong', '?v=1&view=weak', '?v=1&embed=strong']) {
  test(`${query} on a slow phone: nothing moves while the page is parsed and the model takes over (CLS < 0.02)`, async () => {
    for (let load = 0; load < 2; load++) {
      const ctx = await s.newContext({ viewport: { width: 412, height: 823 }, initScript: SHIFTS });
      try {
        const page = await ctx.newPage();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.goto(s.url + query);
        await waitReady(page);
        const shifts = await page.evaluate(() => window.__shifts);
        const cls = shifts.reduce((a, [v]) => a + v, 0);
        assert.ok(cls < 0.02, `${query}, load ${load + 1}: CLS ${cls.toFixed(3)}: ${JSON.stringify(shifts)}`);
        assert.equal(await page.evaluate(() => document.documentElement.classList.contains('hold-inputs')), false, 'the inputs are shown');
        await assertClean(assert, page, query);
      } finally {
        await ctx.close();
      }
    }
  });
}
