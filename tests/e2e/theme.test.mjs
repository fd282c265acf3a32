// theme= takes effect: with ?theme=dark the page's background and the charts'
// backgrounds are dark, with ?theme=light they are light — whatever the reader's system
// prefers (prefers-color-scheme is emulated the other way round); without theme= the page
// follows prefers-color-scheme.
//
// The page paints its background on <html> (:root); <body> is transparent, so "the page's
// background" is the first non-transparent background-color from <body> up to <html> (what
// the reader sees behind the body), and <body>'s own colour, when it has one, must agree.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, visibleCanvasStats } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

/** WCAG relative luminance of [r, g, b] (0–255): 0 is black, 1 is white. */
function luminance([r, g, b]) {
  const lin = (c) => { const v = c / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Background colours: <body>'s own, the effective page background, and each visible canvas's top-left pixel. */
async function colours(page) {
  const page_ = await page.evaluate(() => {
    const parse = (c) => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[,/\s]+/).filter(Boolean).map(Number);
      return { rgb: [r, g, b], a, css: c };
    };
    const own = parse(getComputedStyle(document.body).backgroundColor);
    let effective = null;
    for (let el = document.body; el && !effective; el = el.parentElement) {
      const c = parse(getComputedStyle(el).backgroundColor);
      if (c && c.a > 0) effective = { ...c, from: el.tagName.toLowerCase() };
    }
    return {
      theme: document.documentElement.dataset.theme ?? null,
      body: own,
      effective: effective ?? { rgb: [255, 255, 255], a: 1, css: '(none: the default white canvas)', from: 'default' },
      text: parse(getComputedStyle(document.body).color),
    };
  });
  const canvases = [];
  for (const st of await visibleCanvasStats(page)) {
    const corner = await page.evaluate((id) => {
      const c = document.getElementById(id);
      return Array.from(c.getContext('2d').getImageData(0, 0, 1, 1).data);
    }, st.id);
    canvases.push({ id: st.id, corner, fraction: st.fraction });
  }
  return { ...page_, canvases };
}

function checkTheme(c, dark, label) {
  const dump = JSON.stringify(c);
  const isDark = (rgb) => luminance(rgb) < 0.1;
  const isLight = (rgb) => luminance(rgb) > 0.8;
  const want = dark ? isDark : isLight;
  const word = dark ? 'dark' : 'light';
  assert.equal(c.theme, word, `${label}: <html data-theme>: ${dump}`);
  assert.ok(want(c.effective.rgb), `${label}: the page background (${c.effective.css} on <${c.effective.from}>) is ${word}: ${dump}`);
  if (c.body && c.body.a > 0) assert.ok(want(c.body.rgb), `${label}: <body>'s background ${c.body.css} is ${word}: ${dump}`);
  // The text stays readable on it: the other end of the scale.
  assert.ok(dark ? isLight(c.text.rgb) || luminance(c.text.rgb) > 0.5 : luminance(c.text.rgb) < 0.2,
    `${label}: body text ${c.text.css} contrasts with the ${word} background: ${dump}`);
  assert.ok(c.canvases.length >= 2, `${label}: visible charts: ${dump}`);
  for (const cv of c.canvases) {
    assert.equal(cv.corner[3], 255, `${label}: #${cv.id}'s corner pixel is opaque (the chart paints its background): ${JSON.stringify(cv)}`);
    assert.ok(want(cv.corner.slice(0, 3)), `${label}: #${cv.id}'s corner pixel rgb(${cv.corner.slice(0, 3)}) is ${word}`);
    assert.ok(cv.fraction > 0.01, `${label}: #${cv.id} is drawn: ${JSON.stringify(cv)}`);
  }
}

for (const { query, prefers, dark } of [
  { query: '?v=1&theme=dark', prefers: 'light', dark: true },
  { query: '?v=1&theme=light', prefers: 'dark', dark: false },
  { query: '?v=1&theme=dark&view=strong&preset=seed-strong', prefers: 'light', dark: true },
  { query: '?v=1&theme=light&view=plan&preset=seed-weak', prefers: 'dark', dark: false },
  { query: '?v=1', prefers: 'dark', dark: true },
  { query: '?v=1', prefers: 'light', dark: false },
]) {
  test(`${query} with prefers-color-scheme: ${prefers}: page and charts are ${dark ? 'dark' : 'light'}`, async () => {
    const page = await s.newPage();
    await page.emulateMedia({ colorScheme: prefers });
    await page.goto(s.url + query);
    await waitReady(page);
    checkTheme(await colours(page), dark, `${query} (prefers ${prefers})`);
    await assertClean(assert, page, query);
    await page.close();
  });
}
