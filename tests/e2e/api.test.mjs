// The page's API for docs sites and the design card's packages doing real work:
// - window.scalingExplorer.compute(query) returns what `scaling <panel> --query … --format json`
//   prints, as plain objects (serde-wasm-bindgen), and computeAsync(query) a promise of it;
// - an embedded panel in a host page on ANOTHER origin takes {type: "scaling:set", query} and
//   posts {type: "scaling:changed", query, panel, figures} after every change;
// - the page's SVG export equals the CLI's --svg for the same link (one SVG writer);
// - a panic prints its message and location in the console (console_error_panic_hook).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSession, waitReady, tableData, describeProblems, TIMEOUT, REPO } from './harness.mjs';

let s;
let host;
before(async () => {
  s = await openSession();
  // The host page: another origin (localhost instead of 127.0.0.1, another port), as a docs
  // site would be. It embeds the panel and records what the frame tells it.
  host = createServer((req, res) => {
    const frameSrc = new URL(req.url, 'http://x').searchParams.get('frame');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body>
<h1>A docs page</h1>
<iframe id="panel" title="Strong scaling" width="1000" height="1400" src="${frameSrc}"></iframe>
<script>
  window.received = [];
  const frame = document.getElementById('panel');
  window.addEventListener('message', (e) => {
    if (e.source !== frame.contentWindow) return;
    if (e.data && e.data.type === 'scaling:changed') window.received.push({ origin: e.origin, data: e.data });
  });
  window.setScenario = (query) => frame.contentWindow.postMessage({ type: 'scaling:set', query }, '*');
</script></body></html>`);
  });
  await new Promise((resolve) => host.listen(0, 'localhost', resolve));
});
after(async () => {
  await s?.close();
  await new Promise((resolve) => host?.close(resolve));
});

function cli(args) {
  return execFileSync('cargo', ['run', '--quiet', '--bin', 'scaling', '--', ...args], {
    cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000, stdio: ['ignore', 'pipe', 'inherit'],
  });
}

test('scalingExplorer.compute(query) and computeAsync return what the CLI prints as JSON, as plain objects', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1`);
  await waitReady(page);
  const cases = [
    ['laws', 'v=1&f=0.05'],
    ['strong', 'v=1&preset=seed-strong&view=strong'],
    ['weak', 'v=1&preset=seed-weak&view=weak'],
    ['plan', 'v=1&preset=seed-weak&view=plan&lv=fp8'],
  ];
  for (const [panel, query] of cases) {
    const expected = JSON.parse(cli([panel, '--query', query, '--format', 'json']));
    const got = await page.evaluate((q) => {
      const doc = window.scalingExplorer.compute(q);
      const plain = (v) => v === null || typeof v !== 'object' || ((Array.isArray(v) || Object.getPrototypeOf(v) === Object.prototype) && Object.values(v).every(plain));
      return { doc, plain: plain(doc) };
    }, query);
    assert.ok(got.plain, `${query}: only plain objects and arrays (no Map)`);
    assert.deepEqual(got.doc, expected, `${query}: compute() equals \`scaling ${panel} --format json\``);
  }
  // Another panel of the same link, and the link's problems as messages (the page's banner).
  const other = await page.evaluate(() => window.scalingExplorer.compute('v=1&f=0.05', 'strong').panel);
  assert.equal(other, 'strong');
  const bad = await page.evaluate(() => window.scalingExplorer.compute('?v=1&f=2&n=abc'));
  assert.equal(bad.messages.length, 2, JSON.stringify(bad.messages));
  assert.ok(bad.messages.some((m) => m.includes('(f)')) && bad.messages.some((m) => m.includes('(n)')), bad.messages.join(' | '));
  const thrown = await page.evaluate(() => { try { window.scalingExplorer.compute(42); return null; } catch (e) { return e.name; } });
  assert.equal(thrown, 'TypeError');
  // computeAsync: a promise of the same document, and of the same TypeError.
  for (const [panel, query] of cases) {
    const expected = JSON.parse(cli([panel, '--query', query, '--format', 'json']));
    const got = await page.evaluate(async (q) => {
      const answer = window.scalingExplorer.computeAsync(q);
      return { promise: answer instanceof Promise, doc: await answer };
    }, query);
    assert.ok(got.promise, `${query}: computeAsync returns a promise`);
    assert.deepEqual(got.doc, expected, `${query}: computeAsync() equals \`scaling ${panel} --format json\``);
  }
  const rejected = await page.evaluate(() => window.scalingExplorer.computeAsync('v=1', 'nope').then(() => null, (e) => e.name));
  assert.equal(rejected, 'TypeError');
  assert.equal(page.problems.pageErrors.length, 0, describeProblems(page));
  await page.close();
});

test('a host page on another origin drives an embedded panel by postMessage', async () => {
  const page = await s.newPage();
  const frameSrc = `${s.url}?v=1&embed=strong&preset=seed-strong`;
  const hostUrl = `http://localhost:${host.address().port}/?frame=${encodeURIComponent(frameSrc)}`;
  assert.notEqual(new URL(hostUrl).origin, new URL(frameSrc).origin, 'the host is another origin');
  await page.goto(hostUrl);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => document.body?.dataset.ready === '1', null, { timeout: TIMEOUT, polling: 50 });
  // The first frame already tells the host what its reader sees.
  await page.waitForFunction(() => window.received.length >= 1, null, { timeout: TIMEOUT });
  const first = await page.evaluate(() => window.received[0]);
  assert.equal(first.origin, new URL(frameSrc).origin);
  assert.equal(first.data.panel, 'strong');
  assert.match(first.data.query, /preset=seed-strong/);
  assert.ok(first.data.figures.length >= 3 && first.data.figures.every((f) => typeof f.label === 'string' && typeof f.value === 'string'), JSON.stringify(first.data.figures));
  const tableBefore = await frame.evaluate(() => document.querySelector('#strong-table table')?.textContent);

  // The host changes the scenario: the panel (still the strong one) redraws and reports back.
  await page.evaluate(() => window.setScenario('v=1&preset=seed-strong&b=64M'));
  await page.waitForFunction(() => window.received.some((m) => /b=64M/.test(m.data.query)), null, { timeout: TIMEOUT });
  const changed = await page.evaluate(() => window.received.find((m) => /b=64M/.test(m.data.query)).data);
  assert.equal(changed.panel, 'strong', 'a host that sends only inputs keeps the embedded panel');
  assert.equal(await frame.evaluate(() => document.getElementById('b-input').value), '64M', 'the input shows the new value');
  await frame.waitForFunction((old) => document.querySelector('#strong-table table')?.textContent !== old, tableBefore, { timeout: TIMEOUT });
  assert.ok(changed.figures.some((f) => /64M/.test(f.value) || /N_max/.test(f.label)), JSON.stringify(changed.figures));

  // A reader's own change inside the frame is reported too.
  const count = await page.evaluate(() => window.received.length);
  await frame.fill('#b-input', '16M');
  await page.waitForFunction((n) => window.received.length > n && /b=16M/.test(window.received.at(-1).data.query), count, { timeout: TIMEOUT });

  // Bad values from a host are refused like bad values in a link, and named.
  await page.evaluate(() => window.setScenario('v=1&preset=seed-strong&b=-3'));
  await frame.waitForFunction(() => !document.getElementById('url-messages').hidden, null, { timeout: TIMEOUT });
  assert.match(await frame.evaluate(() => document.getElementById('url-messages').textContent), /\(b\)/);

  // Only the parent may set the scenario: a message the frame posts to itself (asking for the
  // Laws panel) is ignored — the strong panel stays.
  await frame.evaluate(() => window.postMessage({ type: 'scaling:set', query: 'v=1&view=laws' }, '*'));
  // A fixed wait that proves something does NOT happen: an ignored message sets off nothing to wait for.
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(await frame.evaluate(() => document.getElementById('panel-strong').hidden), false, 'the strong panel is still shown');
  assert.equal(await frame.evaluate(() => document.getElementById('panel-laws').hidden), true, 'a message from the frame itself changed nothing');
  assert.equal(page.problems.pageErrors.length, 0, describeProblems(page));
  await page.close();
});

test("the page's SVG export equals the CLI's --svg for the same link", async () => {
  const query = 'v=1&preset=seed-strong&view=strong&theme=light';
  const dir = mkdtempSync(path.join(tmpdir(), 'svg-'));
  const file = path.join(dir, 'cli.svg');
  cli(['strong', '--query', query, '--svg', file, '--chart', 'strong-step']);
  const expected = readFileSync(file, 'utf8');
  const page = await s.newPage();
  await page.goto(`${s.url}?${query}`);
  await waitReady(page);
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: TIMEOUT }),
    page.locator('#strong-step button[data-export^="svg:"]').click(),
  ]);
  const got = readFileSync(await download.path(), 'utf8');
  assert.ok(expected.length > 1000, 'the CLI wrote an SVG');
  assert.equal(got, expected, 'same bytes from the page and the CLI');
  await page.close();
});

test('a panic prints its message and source location in the console', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1`);
  await waitReady(page);
  await page.evaluate(() => { try { window.wasmBindings.scalingTestPanic(); } catch (e) { /* the abort */ } });
  await page.waitForFunction(() => true);
  const printed = page.problems.consoleErrors.join('\n');
  assert.match(printed, /scaling-explorer test panic/, `the panic message is printed: ${printed}`);
  assert.match(printed, /crates[\\/]web[\\/]src[\\/]lib\.rs:\d+/, `with its source location: ${printed}`);
  await page.close();
});

test('the table on the page equals the CLI after the API and bridge are installed', async () => {
  // The API must not change what the page shows: one table, cell for cell.
  const page = await s.newPage();
  await page.goto(`${s.url}?v=1&preset=seed-weak&view=weak`);
  await waitReady(page);
  const web = await tableData(page, '#weak-table table');
  const json = JSON.parse(cli(['weak', '--query', 'v=1&preset=seed-weak&view=weak', '--format', 'json']));
  assert.deepEqual(web.rows, json.tables[0].rows);
  await page.close();
});
