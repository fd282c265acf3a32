// A phone, 390×844 CSS px: no panel scrolls sideways (the preset menu, the key
// figures and the tables fit or scroll inside their own box), and every panel shows its first
// chart within the first two screens, above the long column of inputs (www/style.css: the
// one-column order of the embedded view, for phones too), drawn, with its legend under the
// plot rather than over the curves (src/chart/line.rs; tests/core/charts_svg.rs checks where).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, canvasStats } from './harness.mjs';

const PHONE = { width: 390, height: 844 };
const PANELS = [
  ['laws', '?v=1&preset=karp-flatt'],
  ['strong', '?v=1&preset=seed-strong&view=strong'],
  ['weak', '?v=1&preset=seed-weak&view=weak'],
  ['plan', '?v=1&preset=seed-weak&view=plan'],
  // The longest key-figure labels (the fit's) and the widest strong table.
  ['strong', '?v=1&preset=megatron-177b-h100&view=strong'],
];

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

for (const [view, query] of PANELS) {
  test(`390×844, ${query}: no sideways scroll, the first chart within two screens`, async () => {
    const page = await s.newPage({ viewport: PHONE });
    await page.goto(s.url + query);
    await waitReady(page);
    const m = await page.evaluate((v) => {
      const canvas = document.querySelector(`#panel-${v} canvas`);
      const inputs = document.querySelector(v === 'laws' ? '#laws-controls' : '#llm-controls .controls');
      const top = (el) => el.getBoundingClientRect().top + window.scrollY;
      const wide = Array.from(document.querySelectorAll('body *'))
        .filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > window.innerWidth + 0.5)
        .filter((el) => el.parentElement.getBoundingClientRect().right <= window.innerWidth + 0.5)
        .map((el) => `${el.tagName.toLowerCase()}#${el.id}.${el.className}`);
      return {
        scrollWidth: document.documentElement.scrollWidth,
        // Whatever sticks out must be inside a box that scrolls (a table's region).
        wide: wide.filter((d) => !d.startsWith('table#')),
        canvasId: canvas.id,
        canvasTop: top(canvas),
        inputsTop: top(inputs),
      };
    }, view);
    assert.ok(m.scrollWidth <= PHONE.width, `the page is ${m.scrollWidth} px wide (sticking out: ${m.wide.join(', ')})`);
    assert.deepEqual(m.wide, [], 'elements wider than the screen outside a scrolling box');
    assert.ok(m.canvasTop < 2 * PHONE.height, `#${m.canvasId} starts at ${Math.round(m.canvasTop)} px (want < ${2 * PHONE.height})`);
    assert.ok(m.canvasTop < m.inputsTop, `#${m.canvasId} (${Math.round(m.canvasTop)} px) comes before the inputs (${Math.round(m.inputsTop)} px)`);
    const st = await canvasStats(page, '#' + m.canvasId);
    assert.ok(st.fraction > 0.02, `#${m.canvasId} is drawn (${(st.fraction * 100).toFixed(1)}% of pixels)`);
    await assertClean(assert, page);
  });
}

test('390×844: switching tabs keeps every panel within the screen width', async () => {
  const page = await s.newPage({ viewport: PHONE });
  await page.goto(s.url + '?v=1');
  await waitReady(page);
  for (const view of ['strong', 'weak', 'plan', 'laws']) {
    await page.click(`#tab-${view}`);
    await page.waitForFunction((v) => !document.getElementById(`panel-${v}`).hidden, view);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `${view}: the page is ${width} px wide`);
  }
  await assertClean(assert, page);
});
