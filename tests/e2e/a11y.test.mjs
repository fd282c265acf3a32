// Accessibility: axe-core (WCAG 2.0/2.1 A and AA plus axe's best practices) finds no violation
// on any panel, in either language and either theme, nor in embedded mode; the keyboard reaches
// every control of the visible panel and the tab strip follows the arrow keys.
//
// axe-core runs inside the page (its axe.min.js added as an inline script), so this test uses
// the plain session without a Content-Security-Policy; csp.test.mjs covers the strict one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openSession, waitReady, assertClean, waitFor, closeQuietly } from './harness.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const AXE_OPTIONS = { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } };

const VIEWS = ['laws', 'strong', 'weak', 'plan'];
const CASES = [];
for (const lang of ['en', 'zh']) {
  for (const theme of ['light', 'dark']) {
    for (const view of VIEWS) CASES.push(`?v=1&view=${view}&lang=${lang}&theme=${theme}`);
  }
}
CASES.push('?v=1&embed=strong&lang=zh');
// The Learn view, its texts fetched on opening, in both languages.
for (const lang of ['en', 'zh']) CASES.push(`?v=1&view=learn&lang=${lang}&theme=${lang === 'en' ? 'light' : 'dark'}`);
// Measured points (the Karp–Flatt table and chart) and a bad value (the link's error list).
CASES.push('?v=1&view=laws&m=1:100,2:52,4:28,8:16&f=oops');

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

/** Opens `query`, waits for the first full draw and returns the page. */
async function open(query) {
  const page = await s.newPage();
  await page.goto(s.url + query);
  await waitReady(page);
  if (query.includes('view=learn')) await page.waitForSelector('#learn-content[data-drawn] article.learn');
  return page;
}

/**
 * Runs axe-core on the whole document with every <details> open (a closed group's controls
 * are hidden, so axe would skip them); returns its violations, compacted for printing.
 */
async function axeViolations(page) {
  await page.evaluate(() => new Promise((resolve) => {
    document.querySelectorAll('details:not([open])').forEach((d) => { d.open = true; });
    requestAnimationFrame(() => requestAnimationFrame(resolve));
  }));
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ content: AXE_SOURCE });
  }
  const result = await page.evaluate((options) => window.axe.run(document, options), AXE_OPTIONS);
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
  }));
}

/** One line per violation and one per offending node: id, impact, help text, selector. */
function describeViolations(violations) {
  return violations.map((v) => [
    `  ${v.id} (${v.impact}): ${v.help} — ${v.nodes.length} node(s)`,
    ...v.nodes.slice(0, 8).map((n) => `      ${n.target}\n        ${String(n.summary).replace(/\n/g, '\n        ')}`),
    ...(v.nodes.length > 8 ? [`      … and ${v.nodes.length - 8} more`] : []),
  ].join('\n')).join('\n');
}

for (const query of CASES) {
  test(`axe-core: no WCAG 2.1 A/AA or best-practice violation at ${query}`, async () => {
    const page = await open(query);
    try {
      const violations = await axeViolations(page);
      assert.equal(violations.length, 0, `${query}: ${violations.length} axe violation(s):\n${describeViolations(violations)}`);
      await assertClean(assert, page, query);
    } finally {
      await closeQuietly(page);
    }
  });
}

// ---- keyboard -------------------------------------------------------------------------------

/** The parts of the page a reader of `view` sees: the toolbar, the panel, the LLM inputs. */
const ROOTS = (view) => ['.toolbar', `#panel-${view}`, ...(view === 'laws' ? [] : ['#llm-controls'])];

/**
 * Marks every control a reader can see in the shown panel (and the toolbar, and the LLM inputs
 * beside the LLM panels) with data-kbd="<n>"; returns their descriptions. Controls inside a
 * closed <details> are not shown, so they are not expected; its <summary> is.
 */
function markControls(page, view) {
  return page.evaluate((selectors) => {
    const roots = selectors.map((s) => document.querySelector(s));
    // checkVisibility() also sees content-visibility (how Chromium hides a closed <details>).
    const shown = (el) => el.checkVisibility({ visibilityProperty: true }) && el.getClientRects().length > 0;
    const out = [];
    for (const root of roots) {
      for (const el of root.querySelectorAll('input, select, textarea, button, summary, [tabindex]')) {
        // Only the unselected tabs may leave the Tab order (the tabs pattern's roving tabindex).
        if (!shown(el) || el.disabled || (el.tabIndex < 0 && el.getAttribute('role') === 'tab')) continue;
        el.dataset.kbd = String(out.length);
        const name = el.id ? `#${el.id}` : el.dataset.export ? `[data-export=${el.dataset.export}]`
          : el.getAttribute('aria-labelledby') ? `[aria-labelledby=${el.getAttribute('aria-labelledby')}]`
          : `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}"`;
        out.push(`${name}${el.type ? ` (${el.type})` : ''}`);
      }
    }
    return out;
  }, ROOTS(view));
}

/** Opens every closed <details> of `view` from the keyboard (focus its summary, Enter). */
async function openDetailsByKeyboard(page, view) {
  const summaries = await page.evaluate((selectors) => selectors.flatMap((s) => Array.from(
    document.querySelectorAll(`${s} details:not([open]) > summary`),
    (el, i) => { el.dataset.kbdSummary = `${s}-${i}`; return el.dataset.kbdSummary; },
  )), ROOTS(view));
  for (const mark of summaries) {
    const sel = `summary[data-kbd-summary="${mark}"]`;
    await page.focus(sel);
    await page.keyboard.press('Enter');
    const open = await page.evaluate((q) => document.querySelector(q).parentElement.open, sel);
    assert.ok(open, `${view}: Enter on ${sel} did not open its <details>`);
  }
  return summaries.length;
}

/** What has the focus: its data-kbd mark, a description, and whether it draws a focus ring. */
function focusState(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { kbd: null, what: 'body', ring: false };
    const st = getComputedStyle(el);
    return {
      kbd: el.dataset.kbd ?? null,
      what: el.id ? `#${el.id}` : `${el.tagName.toLowerCase()} "${el.textContent.trim().slice(0, 40)}"`,
      ring: st.outlineStyle !== 'none' && parseFloat(st.outlineWidth) >= 2,
    };
  });
}

for (const view of VIEWS) {
  test(`keyboard: Tab reaches every control of the ${view} panel (closed groups opened with Enter), each with a visible focus ring`, async () => {
    const page = await open(`?v=1&view=${view}`);
    try {
      const opened = await openDetailsByKeyboard(page, view);
      if (view !== 'laws') assert.ok(opened >= 1, `${view}: expected the closed "Step-time model" group`);
      const controls = await markControls(page, view);
      assert.ok(controls.length >= (view === 'laws' ? 8 : 20), `${view}: only ${controls.length} controls found: ${controls.join(', ')}`);
      const reached = new Set();
      const noRing = [];
      const order = [];
      // From the top of the page: the header's controls and the tab strip come first. A bound
      // on the presses, since the browser wraps focus around the document.
      await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
      for (let i = 0; i < controls.length * 2 + 40; i++) {
        await page.keyboard.press('Tab');
        const f = await focusState(page);
        order.push(f.what);
        if (f.kbd !== null) {
          if (reached.has(f.kbd)) break; // wrapped around
          reached.add(f.kbd);
        }
        if (f.what !== 'body' && !f.ring) noRing.push(f.what);
        if (reached.size === controls.length) break;
      }
      const missed = controls.filter((_, i) => !reached.has(String(i)));
      assert.deepEqual(missed, [], `${view}: Tab never reached ${missed.length} of ${controls.length} controls; focus went: ${order.join(' → ')}`);
      assert.deepEqual(noRing, [], `${view}: focused without a visible focus ring (outline ≥ 2px)`);
      await assertClean(assert, page, view);
    } finally {
      await closeQuietly(page);
    }
  });
}

test('keyboard: the tab strip follows ArrowRight / ArrowLeft / Home / End, one tab stop, focus on the selected tab', async () => {
  const page = await open('?v=1&view=laws');
  try {
    const state = () => page.evaluate((views) => ({
      focus: document.activeElement?.id ?? '',
      view: new URLSearchParams(location.search).get('view') ?? 'laws',
      selected: views.filter((v) => document.getElementById(`tab-${v}`).getAttribute('aria-selected') === 'true'),
      tabStops: views.filter((v) => document.getElementById(`tab-${v}`).tabIndex === 0),
      shown: views.filter((v) => !document.getElementById(`panel-${v}`).hidden),
    }), [...VIEWS, 'learn']);
    const expectView = async (key, view) => {
      await page.keyboard.press(key);
      await waitFor(
        page,
        (v) => document.activeElement?.id === `tab-${v}` && document.getElementById(`panel-${v}`)?.hidden === false,
        view,
        `${key} to select and focus #tab-${view}`,
        async () => JSON.stringify(await state()),
      );
      const st = await state();
      assert.deepEqual(st.selected, [view], `${key}: aria-selected: ${JSON.stringify(st)}`);
      assert.deepEqual(st.tabStops, [view], `${key}: only the selected tab is a tab stop: ${JSON.stringify(st)}`);
      assert.deepEqual(st.shown, [view], `${key}: only its panel is shown: ${JSON.stringify(st)}`);
    };
    await page.focus('#tab-laws');
    await expectView('ArrowRight', 'strong');
    await expectView('ArrowRight', 'weak');
    await expectView('ArrowLeft', 'strong');
    await expectView('ArrowLeft', 'laws');
    await expectView('ArrowLeft', 'learn'); // wraps
    await expectView('ArrowLeft', 'plan');
    await expectView('ArrowRight', 'learn');
    await expectView('ArrowRight', 'laws'); // wraps back
    await expectView('End', 'learn');
    await expectView('Home', 'laws');
    // Tab leaves the strip for the panel instead of walking the other tabs.
    await page.keyboard.press('Tab');
    const after = await focusState(page);
    assert.ok(!/^#tab-/.test(after.what), `Tab from the selected tab went to another tab: ${after.what}`);
    await assertClean(assert, page, 'tab strip');
  } finally {
    await closeQuietly(page);
  }
});
