// Embedding in a docs site on ANOTHER origin, as docs/embedding.md tells hosts to do:
// - the page runs in the frame under the headers "What a host should send" lists (the strict
//   CSP plus frame-ancestors naming the host), with no violation and no error;
// - Copy link inside the frame needs allow="clipboard-write" on the iframe: with it the link is
//   copied, without it the browser refuses and the page shows the link to copy by hand;
// - the host script of docs/embedding.md ("Sizing the iframe to its content"), run as written,
//   sizes the iframe from the frame's {type: "scaling:size", height} messages: every panel
//   shows whole, first chart above its inputs, with no scrolling inside the frame, and follows
//   the content when it grows; every embed links to the full page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openSession, assertClean, CSP_RECORDER, STRICT_CSP, TIMEOUT, REPO } from './harness.mjs';

/** The host script docs/embedding.md gives, as written there. */
function docsSizingScript() {
  const doc = readFileSync(path.join(REPO, 'docs', 'embedding.md'), 'utf8');
  const section = doc.split('#### Sizing the iframe to its content')[1];
  const m = /```html\n(<script>[\s\S]*?<\/script>)\n```/.exec(section ?? '');
  assert.ok(m, 'docs/embedding.md has the sizing script under "Sizing the iframe to its content"');
  return m[1];
}

let s;
let host;
let hostOrigin;
before(async () => {
  // The docs site: localhost instead of 127.0.0.1, another port. /?frame=<src>&allow=<allow>
  host = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const q = url.searchParams;
    const allow = q.get('allow') ? ` allow="${q.get('allow')}"` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (url.pathname === '/sized') {
      // A docs column 720 px wide, the frame 300 px high until the page says otherwise.
      const script = docsSizingScript().replace("'https://scaling.example.org'", JSON.stringify(new URL(q.get('frame')).origin));
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title></head><body>
<h1>A docs page</h1><p>Some prose before the figure.</p>
<iframe id="scaling" title="Interactive model" width="720" height="300" src="${q.get('frame')}"></iframe>
${script}
<p>Prose after the figure.</p></body></html>`);
      return;
    }
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>docs</title></head><body>
<h1>A docs page</h1>
<iframe id="frame" title="Interactive model" width="900" height="700"${allow} src="${q.get('frame')}"></iframe>
</body></html>`);
  });
  await new Promise((resolve) => host.listen(0, 'localhost', resolve));
  hostOrigin = `http://localhost:${host.address().port}`;
  // dist/ with the headers docs/embedding.md gives, the host's origin in frame-ancestors.
  s = await openSession({ csp: `${STRICT_CSP}; frame-ancestors 'self' ${hostOrigin}` });
});
after(async () => {
  await s?.close();
  await new Promise((resolve) => host?.close(resolve));
});

/** Opens the host page with the frame at `query`; returns { page, frame }. */
async function hostPage(ctx, query, allow = '') {
  const page = await ctx.newPage();
  const src = `${s.url}?${query}`;
  await page.goto(`${hostOrigin}/?frame=${encodeURIComponent(src)}&allow=${encodeURIComponent(allow)}`);
  const frame = await (await page.waitForSelector('#frame')).contentFrame();
  await frame.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: TIMEOUT, polling: 50 });
  return { page, frame };
}

test('in a frame of another origin, under the CSP docs/embedding.md gives a host: no violation, no error', async () => {
  const ctx = await s.newContext({ initScript: CSP_RECORDER });
  const { page, frame } = await hostPage(ctx, 'v=1&lang=en&embed=strong&preset=seed-strong');
  assert.notEqual(new URL(page.url()).origin, new URL(frame.url()).origin, 'the host is another origin');
  const drawn = await frame.evaluate(() => window.__e2e.canvasStats('#strong-step-canvas'));
  assert.ok(drawn.fraction > 0.02, `the first chart is drawn: ${JSON.stringify(drawn)}`);
  assert.deepEqual(await frame.evaluate(() => window.__csp), [], 'CSP violations in the frame');
  await assertClean(assert, page, 'cross-origin frame under the documented CSP');
  await ctx.close();
});

test('Copy link in a frame of another origin: copied with allow="clipboard-write", shown to copy by hand without', async () => {
  for (const allow of ['clipboard-write', '']) {
    const ctx = await s.newContext();
    await ctx.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.origin });
    await ctx.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hostOrigin });
    const { page, frame } = await hostPage(ctx, 'v=1&lang=en&embed=laws&f=0.1', allow);
    await frame.click('#copy-link');
    await frame.waitForFunction(() => document.getElementById('copy-status').textContent !== '', null, { timeout: TIMEOUT });
    const status = await frame.locator('#copy-status').textContent();
    if (allow) {
      assert.equal(status, 'Link copied.', `with allow="${allow}"`);
      // Read back in the host page (the frame may write, not read).
      const copied = await page.evaluate(() => navigator.clipboard.readText()).catch((e) => `(cannot read: ${e.message})`);
      assert.equal(copied, `${s.url}?v=1&lang=en&f=0.1`, 'the standalone link, without embed=');
      await assertClean(assert, page, 'copy link, allowed');
    } else {
      assert.equal(status, `Copy this: ${s.url}?v=1&lang=en&f=0.1`, 'without allow: the link to copy by hand');
      // The browser's refusal is a console message, not an error of the page.
      assert.deepEqual(page.problems.pageErrors, []);
    }
    await ctx.close();
  }
});

test('the docs\' host script sizes the iframe to the content: every panel whole, first chart above its inputs, no inner scrolling', async () => {
  const heights = {};
  for (const panel of ['laws', 'strong', 'weak', 'plan']) {
    const page = await s.newPage({ viewport: { width: 1000, height: 800 } });
    const query = `v=1&lang=en&embed=${panel}&preset=${panel === 'laws' ? 'classroom' : panel === 'strong' ? 'seed-strong' : 'seed-weak'}`;
    const src = `${s.url}?${query}`;
    await page.goto(`${hostOrigin}/sized?frame=${encodeURIComponent(src)}`);
    const iframe = await page.waitForSelector('#scaling');
    const frame = await iframe.contentFrame();
    await frame.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: TIMEOUT, polling: 50 });
    // The host's iframe height (set by the docs script) equals the frame's content height.
    const fits = () => page.waitForFunction(() => {
      const f = document.getElementById('scaling');
      const doc = f.contentDocument; // null: another origin; read the frame itself below
      return !doc && Number(f.height) > 300;
    }, null, { timeout: TIMEOUT, polling: 50 }).then(() => frame.waitForFunction(() => {
      const root = document.documentElement;
      return Math.abs(window.innerHeight - Math.ceil(root.getBoundingClientRect().height)) <= 1 && root.scrollHeight <= window.innerHeight + 1;
    }, null, { timeout: TIMEOUT, polling: 50 }));
    await fits();
    const seen = await frame.evaluate(() => {
      const visible = (el) => el && el.getClientRects().length > 0;
      const canvas = [...document.querySelectorAll('canvas')].find(visible);
      const inputs = [...document.querySelectorAll('input, select, textarea')].filter((e) => visible(e) && !e.closest('.toolbar'));
      const link = document.getElementById('full-page');
      return {
        height: window.innerHeight,
        scroll: document.scrollingElement.scrollHeight,
        chart: canvas.id,
        chartRect: canvas.getBoundingClientRect().toJSON(),
        firstInputTop: Math.min(...inputs.map((e) => e.getBoundingClientRect().top)),
        link: visible(link) ? { href: link.href, target: link.target, rel: link.rel, text: link.textContent } : null,
      };
    });
    heights[panel] = seen.height;
    assert.ok(seen.chartRect.top >= 0 && seen.chartRect.bottom <= seen.height, `${panel}: the first chart ${seen.chart} lies inside the frame: ${JSON.stringify(seen)}`);
    assert.ok(seen.chartRect.bottom <= seen.firstInputTop, `${panel}: the first chart ${seen.chart} is above the inputs: ${JSON.stringify(seen)}`);
    const chartInHost = await iframe.evaluate((f, id) => f.getBoundingClientRect().top, seen.chart);
    assert.ok(chartInHost + seen.chartRect.bottom < 2_000, `${panel}: the chart is near the top of the docs page`);
    // Open the full page: the same scenario without embed=, in a new tab.
    assert.ok(seen.link, `${panel}: the embed shows "Open the full page"`);
    const full = new URL(seen.link.href);
    assert.equal(full.searchParams.get('embed'), null, seen.link.href);
    assert.equal(full.searchParams.get('preset'), new URLSearchParams(query).get('preset'), seen.link.href);
    assert.equal(full.origin + full.pathname, new URL(s.url).origin + new URL(s.url).pathname);
    assert.equal(seen.link.target, '_blank');
    assert.match(seen.link.rel, /\bnoopener\b/);
    assert.equal(seen.link.text, 'Open the full page');
    await assertClean(assert, page, `sized embed=${panel}`);
    await page.close();
  }
  console.log(`embedded heights at 720 px: ${JSON.stringify(heights)}`);
  // docs/embedding.md's "Fixed heights" give these, rounded: each within 5% of the measured.
  const doc = readFileSync(path.join(REPO, 'docs', 'embedding.md'), 'utf8');
  for (const [panel, height] of Object.entries(heights)) {
    const m = new RegExp(`\\| \`${panel}\` \\| about ([\\d,]+) px \\|`).exec(doc);
    assert.ok(m, `docs/embedding.md gives the height of embed=${panel}`);
    const written = Number(m[1].replaceAll(',', ''));
    assert.ok(Math.abs(written - height) <= 0.05 * height, `docs/embedding.md: embed=${panel} is about ${written} px, measured ${height} px`);
  }
});

test('show=charts: an embed of the figure alone — every chart with data drawn, no input, no table, the full-page link; sized by the host', async () => {
  const page = await s.newPage({ viewport: { width: 1000, height: 800 } });
  const src = `${s.url}?v=1&lang=en&embed=strong&show=charts&preset=seed-strong`;
  await page.goto(`${hostOrigin}/sized?frame=${encodeURIComponent(src)}`);
  const frame = await (await page.waitForSelector('#scaling')).contentFrame();
  await frame.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: TIMEOUT, polling: 50 });
  await frame.waitForFunction(() => document.documentElement.scrollHeight <= window.innerHeight + 1 && window.innerHeight > 300,
    null, { timeout: TIMEOUT, polling: 50 });
  const seen = await frame.evaluate(() => {
    const visible = (el) => !!el && el.getClientRects().length > 0;
    const canvases = [...document.querySelectorAll('#panel-strong canvas')];
    return {
      canvases: canvases.map((c) => [c.id, visible(c)]),
      drawn: canvases.map((c) => window.__e2e.canvasStats('#' + c.id).fraction),
      inputs: [...document.querySelectorAll('input, select, textarea, button')].filter(visible).map((e) => e.id || e.tagName),
      tables: [...document.querySelectorAll('table')].filter(visible).map((t) => t.id || t.parentElement.id),
      captions: [...document.querySelectorAll('#panel-strong figcaption')].filter(visible).length,
      link: visible(document.getElementById('full-page')) ? document.getElementById('full-page').href : null,
    };
  });
  // Step, efficiency, throughput, MFU and the boxes figure (panel::charts::CHARTS); the memory
  // chart has nothing to plot without the model's shape, so the figure leaves it out.
  assert.deepEqual(seen.canvases.filter(([, v]) => !v).map(([id]) => id), ['strong-memory-canvas'],
    `every chart with data shows, the empty memory chart does not: ${JSON.stringify(seen)}`);
  assert.equal(seen.canvases.length, 6, JSON.stringify(seen));
  const shown = seen.drawn.filter((_, i) => seen.canvases[i][1]);
  assert.ok(shown.every((f) => f > 0.01), `every chart shown is drawn: ${JSON.stringify(seen.drawn)}`);
  assert.deepEqual(seen.inputs, [], `no input or button: ${JSON.stringify(seen)}`);
  assert.deepEqual(seen.tables, [], `no table: ${JSON.stringify(seen)}`);
  assert.equal(seen.captions, 5, 'each chart shown keeps its caption (its text alternative)');
  const full = new URL(seen.link);
  assert.equal(full.searchParams.get('embed'), null, seen.link);
  assert.equal(full.searchParams.get('show'), null, `the full page shows everything: ${seen.link}`);
  await assertClean(assert, page, 'show=charts');
  await page.close();
});

test('the sized iframe follows its content: a <details> opened, a message under an input; an input keeps the link current', async () => {
  const page = await s.newPage({ viewport: { width: 1000, height: 800 } });
  const src = `${s.url}?v=1&lang=en&embed=strong&preset=seed-strong`;
  await page.goto(`${hostOrigin}/sized?frame=${encodeURIComponent(src)}`);
  const iframe = await page.waitForSelector('#scaling');
  const frame = await iframe.contentFrame();
  await frame.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: TIMEOUT, polling: 50 });
  await page.waitForFunction(() => Number(document.getElementById('scaling').height) > 300, null, { timeout: TIMEOUT });
  const before = Number(await iframe.getAttribute('height'));
  // The step-time model's inputs are folded by default.
  const closed = frame.locator('#llm-controls details:not([open]) > summary').first();
  await closed.click();
  await page.waitForFunction((h) => Number(document.getElementById('scaling').height) > h + 50, before, { timeout: TIMEOUT });
  const after = Number(await iframe.getAttribute('height'));
  assert.equal(after, await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height)));
  // A message under an input makes the content taller without a redraw: followed too.
  const withDetails = after;
  await frame.fill('#tp-input', 'three');
  await frame.waitForFunction(() => document.getElementById('tp-msg').textContent !== '', null, { timeout: TIMEOUT });
  await page.waitForFunction((h) => Number(document.getElementById('scaling').height) > h, withDetails, { timeout: TIMEOUT });
  assert.equal(Number(await iframe.getAttribute('height')), await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height)));
  await frame.fill('#tp-input', '1');
  await frame.fill('#b-input', '64M');
  await frame.waitForFunction(() => new URL(document.getElementById('full-page').href).searchParams.get('b') === '64M', null, { timeout: TIMEOUT });
  await assertClean(assert, page, 'sized embed, details opened');
});
