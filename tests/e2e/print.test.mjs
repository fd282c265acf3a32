// A printout names its scenario: in print, the top of the page shows the full link
// (without embed, like Copy link) and the link's key=value inputs; on screen neither shows.
// They follow the inputs, so what is printed after a change is the changed scenario.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, waitFor, waitForSearch, assertClean } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

/** What the print-only lines show, and whether they are displayed. */
const printed = (page) => page.evaluate(() => {
  const box = document.getElementById('print-scenario');
  const link = document.getElementById('print-link');
  return {
    shown: box.getClientRects().length > 0 && getComputedStyle(box).display !== 'none',
    top: box.getBoundingClientRect().top + window.scrollY,
    firstChartTop: [...document.querySelectorAll('canvas')].find((c) => c.getClientRects().length > 0)?.getBoundingClientRect().top ?? Infinity,
    link: link.textContent,
    href: link.href,
    inputs: document.getElementById('print-inputs').textContent,
  };
});

test('print shows the link and the inputs of the scenario; the screen does not', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&preset=seed-strong&view=plan&b=64M');
  await waitReady(page);
  const screen = await printed(page);
  assert.equal(screen.shown, false, 'not on screen');

  await page.emulateMedia({ media: 'print' });
  const paper = await printed(page);
  const want = `${s.url}?v=1&preset=seed-strong&view=plan&b=64M`;
  assert.equal(paper.shown, true, 'shown in print');
  assert.equal(paper.link, want, 'the full link');
  assert.equal(paper.href, want, 'a link a PDF reader can follow');
  assert.equal(paper.inputs, 'preset=seed-strong  view=plan  b=64M');
  assert.ok(paper.top < paper.firstChartTop, 'above the first chart');

  // A change on screen is what the next printout names.
  await page.emulateMedia({ media: 'screen' });
  await page.fill('#bcrit-input', '16M');
  await waitForSearch(page, 'bcrit', '16M');
  await page.emulateMedia({ media: 'print' });
  await waitFor(page, () => document.getElementById('print-inputs').textContent.includes('bcrit=16M'), null,
    'the printed inputs to follow the change', () => printed(page).then(JSON.stringify));
  const after = await printed(page);
  assert.equal(after.link, `${s.url}?v=1&preset=seed-strong&view=plan&b=64M&bcrit=16M`);
  await assertClean(assert, page);
});

test('an embedded panel prints the whole page\'s link; the defaults are named as such', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&embed=weak');
  await waitReady(page);
  await page.emulateMedia({ media: 'print' });
  const paper = await printed(page);
  assert.equal(paper.shown, true);
  assert.equal(paper.link, `${s.url}?v=1&view=weak`, 'without embed');
  assert.equal(paper.inputs, 'view=weak');
  await page.goto(s.url + '?v=1');
  await waitReady(page);
  assert.equal((await printed(page)).inputs, 'defaults');
  await assertClean(assert, page);
});

test('the Learn view prints its link, each exercise\'s link in full, and no button', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&view=learn');
  await waitReady(page);
  await page.waitForSelector('#learn-content[data-drawn] article.learn');
  await page.emulateMedia({ media: 'print' });
  const paper = await printed(page);
  assert.equal(paper.shown, true);
  assert.equal(paper.link, `${s.url}?v=1&view=learn`);
  assert.equal(paper.href, `${s.url}?v=1&view=learn`);
  assert.equal(paper.inputs, 'view=learn');
  // "Link to this exercise" is followed on paper by the address it links to.
  const after = await page.$eval('#q1 a.q-link', (a) => getComputedStyle(a, '::after').content);
  assert.equal(after, JSON.stringify(` ${s.url}?v=1&view=learn&q=1`));
  const buttons = await page.$$eval('button', (bs) => bs.filter((b) => b.getClientRects().length > 0)
    .map((b) => b.id || b.className || b.textContent));
  assert.deepEqual(buttons, [], 'no button on paper');
  await assertClean(assert, page);
});
