// The harness's clean-check: an error that arrives after load — in a timer, in the
// redraw an input change asks for — and a chart-draw failure shown in #app-status fail a test
// that ends with `await assertClean(...)`; a page with none of them passes. Every test file
// awaits its clean-checks (an un-awaited async check would never fail anything).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSession, waitReady, assertClean, settle, recordProblems } from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

async function open(query = '?v=1') {
  const page = await s.newPage();
  await page.goto(s.url + query);
  await waitReady(page);
  return page;
}

test('a clean page passes the clean-check, after an input change too', async () => {
  const page = await open();
  await page.fill('#f-input', '0.3');
  await assertClean(assert, page, 'clean page');
  await page.close();
});

test('an error thrown 50 ms after load (setTimeout) fails the clean-check', async () => {
  const page = await open();
  await assertClean(assert, page, 'before the late error'); // clean so far
  await page.evaluate(() => setTimeout(() => { throw new Error('late'); }, 50));
  await assert.rejects(assertClean(assert, page, 'late error'), (e) => {
    assert.match(e.message, /uncaught page errors/, e.message);
    assert.match(e.message, /Error: late/, e.message);
    return true;
  });
  await page.close();
});

test('an error thrown in a requestAnimationFrame after an input change fails the clean-check', async () => {
  const page = await open();
  // The next frame after the input (the one the page redraws in) throws.
  await page.evaluate(() => {
    document.getElementById('f-input').addEventListener('input', () => {
      requestAnimationFrame(() => { throw new Error('late in a frame after the input'); });
    }, { once: true });
  });
  await page.fill('#f-input', '0.2');
  await assert.rejects(assertClean(assert, page, 'late frame error'), /late in a frame after the input/);
  await page.close();
});

test('a console error logged after a delay fails the clean-check', async () => {
  const page = await open();
  await page.evaluate(() => setTimeout(() => console.error('late console error'), 300));
  await assert.rejects(assertClean(assert, page, 'late console error'), /console errors[\s\S]*late console error/);
  await page.close();
});

test('a chart-draw failure shown in #app-status fails the clean-check', async () => {
  const page = await open();
  await settle(page);
  // What crates/web/src/lib.rs frame() does when a chart fails to draw.
  await page.evaluate(() => {
    const el = document.getElementById('app-status');
    el.textContent = 'laws-speedup: the chart could not be drawn';
    el.hidden = false;
  });
  await assert.rejects(assertClean(assert, page, 'draw failure'), /#app-status[\s\S]*could not be drawn/);
  // Hidden again (as after a successful redraw), the page is clean.
  await page.evaluate(() => { document.getElementById('app-status').hidden = true; });
  await assertClean(assert, page, 'status hidden again');
  await page.close();
});

test('a page without the harness helpers fails the clean-check instead of skipping its waits', async () => {
  const context = await s.browser.newContext();
  try {
    const page = recordProblems(await context.newPage());
    await page.goto(s.url + '?v=1');
    await waitReady(page);
    await assert.rejects(assertClean(assert, page, 'bare page'), /no harness helpers/);
  } finally {
    await context.close();
  }
});

test('every test file awaits its clean-checks', () => {
  const offenders = [];
  for (const f of readdirSync(HERE).filter((n) => n.endsWith('.test.mjs'))) {
    const lines = readFileSync(path.join(HERE, f), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/\bassertClean\s*\(/.test(line) && !/\bawait\s+assertClean\s*\(|assert\.rejects\(\s*assertClean\(/.test(line)
        && !/^\s*(import|\/\/|\*)/.test(line) && !/function assertClean/.test(line)) {
        offenders.push(`${f}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  assert.deepEqual(offenders, [], 'assertClean is async: call it as `await assertClean(...)`');
});
