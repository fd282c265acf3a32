// Charts and tables below the fold during a drag (crates/web/src/offscreen.rs): frames that follow
// each other within 150 ms draw only the charts and write only the tables on screen; the
// others are brought up to date once the inputs are still.
// What a reader sees must not change: a chart scrolled into view after a drag shows the new
// scenario, pixel for pixel what a fresh load of the same link draws.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, canvasStats, settle, assertClean, waitFor, waitQuiet } from './harness.mjs';

let session;
before(async () => { session = await openSession(); });
after(async () => { await session?.close(); });

/** The ids of the visible panel's canvases whose top is below the viewport. */
const belowFold = (page) => page.evaluate(() => Array.from(document.querySelectorAll('canvas'))
  .filter((c) => c.offsetParent !== null && c.getBoundingClientRect().top >= window.innerHeight)
  .map((c) => '#' + c.id));

/**
 * Drags `slider` with the pointer from 30% of its width in twelve moves of `step` of it, then
 * waits for the address bar to leave `?query` and for the whole frame after the drag.
 */
async function pointerDrag(page, slider, query, step) {
  await page.locator(slider).scrollIntoViewIfNeeded();
  const box = await page.locator(slider).boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width * 0.3, y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + box.width * (0.3 + step * i), y);
  await page.mouse.up();
  await waitFor(page, (q) => location.search !== `?${q}`, query, 'the address bar to follow the drag');
  await waitQuiet(page, 'the whole frame after the drag');
}

async function scrolledHash(page, selector) {
  await page.locator(selector).scrollIntoViewIfNeeded();
  await settle(page);
  return (await canvasStats(page, selector)).hash;
}

for (const view of ['strong', 'plan']) {
  test(`${view}: after a slider drag, a chart scrolled into view shows the new scenario`, async () => {
    const page = await session.newPage();
    await page.goto(`${session.url}?v=1&preset=seed-strong&view=${view}`);
    await waitReady(page);
    const below = await belowFold(page);
    assert.ok(below.length > 0, `${view}: some chart starts below the fold at 1200×900`);
    const target = below[below.length - 1];
    const before = (await canvasStats(page, target)).hash;
    // A drag: key presses on the batch slider, each one a frame, less than 150 ms apart.
    await page.focus('#b-range');
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => new URLSearchParams(location.search).has('b'));
    const after = await scrolledHash(page, target);
    const query = await page.evaluate(() => location.search); // after the URL's throttle
    assert.notEqual(after, before, `${target} changed with the batch (${query})`);

    // The same link loaded fresh and scrolled the same way draws the same pixels.
    const fresh = await session.newPage();
    await fresh.goto(`${session.url}${query}`);
    await waitReady(fresh);
    assert.equal(await scrolledHash(fresh, target), after, `${target} after the drag = a fresh load of ${query}`);
    // Tables below the fold are written once the inputs are still: every table of the panel
    // reads as the fresh load's.
    const tables = (p) => p.evaluate((v) => Array.from(document.querySelectorAll(`#panel-${v} table`))
      .map((t) => `${t.id}: ${t.textContent}`), view);
    assert.deepEqual(await tables(page), await tables(fresh), `${view}: tables after the drag = a fresh load`);
    await assertClean(assert, page, `${view} after the drag`);
    await assertClean(assert, fresh, `${view} fresh`);
  });
}

// A chart that comes into view while the drag goes on is drawn by the drag's own frames (the
// IntersectionObserver says it is on screen), not only once the inputs are still: read two
// frames after the last key press, well inside the 150 ms the drag's end waits for.
test('strong: a chart scrolled into view during a drag shows each new value at once', async () => {
  const page = await session.newPage();
  await page.goto(`${session.url}?v=1&preset=seed-strong&view=strong`);
  await waitReady(page);
  const below = await belowFold(page);
  const target = below[below.length - 1];
  // Key presses 30 ms apart: each its own frame, all within a drag. These fixed waits are the
  // input's own timing (a drag at a pointer's pace), not a wait for the page.
  const drag = async () => {
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('ArrowRight');
      await page.waitForTimeout(30);
    }
  };
  const search0 = await page.evaluate(() => location.search);
  await page.focus('#b-range');
  await drag();
  await page.evaluate(async (sel) => {
    document.querySelector(sel).scrollIntoView({ block: 'center' });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  }, target);
  await drag();
  const during = await page.evaluate(async (sel) => {
    const pressed = performance.now();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return { hash: window.__e2e.canvasStats(sel).hash, ms: performance.now() - pressed };
  }, target);
  assert.ok(during.ms < 150, `read ${during.ms.toFixed(0)} ms after the last key: still inside the drag`);
  // The address bar is written by the whole frame after the drag (none during it): once the
  // inputs are still it holds the last value, and that frame has changed nothing on this chart.
  await waitFor(page, (q) => location.search !== q && /[?&]b=/.test(location.search), search0,
    'the address bar to follow the drag', async () => page.evaluate(() => location.search));
  await waitQuiet(page, 'the whole frame after the drag');
  const query = await page.evaluate(() => location.search);
  assert.equal((await canvasStats(page, target)).hash, during.hash, `${target}: the frame after the drag changed nothing`);
  const fresh = await session.newPage();
  await fresh.goto(`${session.url}${query}`);
  await waitReady(fresh);
  assert.equal(await scrolledHash(fresh, target), during.hash, `${target} during the drag = a fresh load of ${query}`);
  await assertClean(assert, page, 'strong during the drag');
  await fresh.close();
  await page.close();
});

// The frame after a drag rests is a full-quality frame: with a pointer dragging a slider on a
// screen of pixel ratio 2, once the inputs are still every chart of the panel, on screen or
// below the fold, is pixel for pixel what a whole redraw of the same scenario draws (every
// canvas cleared, then the link set again through the API). Not a fresh load: under a busy
// machine a fresh load's first draw can differ from a later draw of the same link (seen in one
// load of ten with three busy processes beside it), which is the load's, not the drag's.
for (const [view, query, slider] of [
  ['laws', 'v=1', '#f-range'],
  ['strong', 'v=1&preset=seed-strong&view=strong', '#b-range'],
  ['weak', 'v=1&preset=seed-weak&view=weak', '#beff-range'],
  ['plan', 'v=1&preset=seed-weak&view=plan', '#bcrit-range'],
]) {
  test(`${view}: after a pointer drag at pixel ratio 2, every chart equals a whole redraw`, async () => {
    const hashes = (p) => p.evaluate((v) => Array.from(document.querySelectorAll(`#panel-${v} canvas`))
      .filter((c) => c.offsetParent !== null)
      .map((c) => [c.id, window.__e2e.canvasStats('#' + c.id).hash]), view);
    const page = await session.newPage({ deviceScaleFactor: 2 });
    await page.goto(`${session.url}?${query}`);
    await waitReady(page);
    await waitQuiet(page, 'the first frame');
    const before = await hashes(page);
    await pointerDrag(page, slider, query, 0.03);
    const after = await hashes(page);
    const link = await page.evaluate(() => location.search);
    assert.ok(after.length > 0, `${view}: charts to compare`);
    assert.notDeepEqual(after, before, `${view}: the drag changed the charts (${link})`);
    // Every canvas blank, then the same scenario drawn whole: a canvas the redraw missed stays
    // blank and fails the comparison.
    await page.evaluate((v) => {
      for (const c of document.querySelectorAll(`#panel-${v} canvas`)) c.getContext('2d').clearRect(0, 0, c.width, c.height);
    }, view);
    await page.evaluate((q) => scalingExplorer.set(q), link);
    await waitQuiet(page, 'the whole redraw');
    assert.deepEqual(await hashes(page), after, `${view}: every chart after the drag = a whole redraw of ${link}`);
    await assertClean(assert, page, `${view} after the drag`);
    await page.close();
  });
}

// The layout search waits for the pointer to rest: with the explorer open, a drag's frames
// keep the last search's table, marked pending (`data-pending`, dimmed), and the whole frame
// after the drag searches again (Panel::compute_keeping_search, page::Frame::defers_search).
test('strong, explorer open: a drag keeps the last search, marked pending, then searches', async () => {
  const page = await session.newPage();
  const query = 'v=1&preset=mixtral-8x7b-walls&view=strong&lay=best&lx=512';
  await page.goto(`${session.url}?${query}`);
  await waitReady(page);
  await waitQuiet(page, 'the first frame');
  const table = '#strong-layouts-table';
  const first = await page.locator(table).textContent();
  assert.ok(first.includes('TP1'), 'the explorer lists layouts');
  // How often a frame marks the table pending, and how often its rows change while marked.
  await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    window.__search = { marks: 0, rewrites: 0 };
    new MutationObserver((records) => {
      const pending = el.hasAttribute('data-pending');
      if (pending && records.some((r) => r.type === 'attributes')) window.__search.marks++;
      if (pending && records.some((r) => r.type !== 'attributes')) window.__search.rewrites++;
    }).observe(el, { attributes: true, attributeFilter: ['data-pending'], childList: true, subtree: true, characterData: true });
  }, table);
  await pointerDrag(page, '#beff-range', query, 0.04);
  const seen = await page.evaluate(() => window.__search);
  assert.ok(seen.marks > 0, 'a drag frame marked the explorer pending');
  assert.equal(seen.rewrites, 0, 'no frame rewrote the table while it was pending');
  assert.equal(await page.locator(table).getAttribute('data-pending'), null, 'no mark once the inputs are still');
  const after = await page.locator(table).textContent();
  const link = await page.evaluate(() => location.search);
  assert.notEqual(after, first, `the search follows the NIC (${link})`);
  const fresh = await session.newPage();
  await fresh.goto(`${session.url}${link}`);
  await waitReady(fresh);
  assert.equal(await fresh.locator(table).textContent(), after, `the table after the drag = a fresh load of ${link}`);
  await assertClean(assert, page, 'the explorer after the drag');
  await fresh.close();
  await page.close();
});
