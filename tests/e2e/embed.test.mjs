// Embedding in a docs site on ANOTHER origin, as docs/embedding.md tells hosts to do (issue 15):
// - the page runs in the frame under the headers "What a host should send" lists (the strict
//   CSP plus frame-ancestors naming the host), with no violation and no error;
// - Copy link inside the frame needs allow="clipboard-write" on the iframe: with it the link is
//   copied, without it the browser refuses and the page shows the link to copy by hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { openSession, assertClean, CSP_RECORDER, STRICT_CSP, TIMEOUT } from './harness.mjs';

let s;
let host;
let hostOrigin;
before(async () => {
  // The docs site: localhost instead of 127.0.0.1, another port. /?frame=<src>&allow=<allow>
  host = createServer((req, res) => {
    const q = new URL(req.url, 'http://x').searchParams;
    const allow = q.get('allow') ? ` allow="${q.get('allow')}"` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
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
