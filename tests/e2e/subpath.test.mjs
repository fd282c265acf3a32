// 6. The build works from a sub-path (assets are referenced relatively).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, assertCanvasesDrawn } from './harness.mjs';

const BASE = '/docs/deep/path/scaling/';
let s;
before(async () => { s = await openSession({ base: BASE }); });
after(async () => { await s?.close(); });

test(`served under ${BASE}: loads, draws, no failed requests`, async () => {
  assert.ok(s.url.endsWith(BASE));
  const page = await s.newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(s.url + '?v=1&f=0.1');
  await waitReady(page);
  await assertCanvasesDrawn(assert, page);
  const outside = requests.filter((u) => u.startsWith(s.origin) && !new URL(u).pathname.startsWith(BASE));
  assert.deepEqual(outside, [], 'every same-origin request stays under the base path');
  assert.ok(new URL(page.url()).pathname === BASE, `URL stays under the base: ${page.url()}`);
  await assertClean(assert, page, 'sub-path');
});
