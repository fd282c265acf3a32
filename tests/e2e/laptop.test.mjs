// A laptop's width (1280×900): the Strong table and the layout explorer show their key columns
// without a sideways scroll, the minor ones (panel::table::Table::minor_columns) folded away
// until "Show every column" is ticked; the explorer's rows stay about two lines tall (the
// "why" wraps inside its column, the layout's schedule, ZeRO and recomputation under its
// name); the preset menu shows the whole preset name. In print, table headers wrap between
// words only, and a teacher's set prints a lead written for paper and no orphan footer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const VIEWPORT = { width: 1280, height: 900 };

/** The table in `#id`: its box's widths, its headers (shown or not, and whether inside the
 * box), its rows' heights and a line's height. */
async function measure(page, id) {
  await page.locator('#' + id).scrollIntoViewIfNeeded();
  return page.evaluate((id) => {
    const region = document.querySelector(`#${id} [role="region"]`);
    const table = region.querySelector('table');
    const box = region.getBoundingClientRect();
    const headers = Array.from(table.tHead.rows[0].cells, (c) => {
      const r = c.getBoundingClientRect();
      return { text: c.textContent, shown: c.getClientRects().length > 0, inside: r.left >= box.left - 1 && r.right <= box.right + 1 };
    });
    return {
      clientWidth: region.clientWidth,
      scrollWidth: region.scrollWidth,
      headers,
      line: parseFloat(getComputedStyle(table.tBodies[0].rows[0].cells[0]).lineHeight),
      heights: Array.from(table.tBodies[0].rows, (r) => r.getBoundingClientRect().height),
    };
  }, id);
}

const shownHeaders = (m) => m.headers.filter((h) => h.shown).map((h) => h.text);

function assertKeyColumnsFit(m, key, what) {
  assert.ok(m.scrollWidth <= m.clientWidth + 1, `${what}: ${m.scrollWidth} px of table in a ${m.clientWidth} px box`);
  for (const k of key) {
    const h = m.headers.find((h) => h.text === k);
    assert.ok(h, `${what}: a column "${k}" (${m.headers.map((h) => h.text).join(' | ')})`);
    assert.ok(h.shown && h.inside, `${what}: "${k}" is on screen`);
  }
}

const STRONG_KEY = ['GPUs', 'step (ms)', 'efficiency', 'throughput (tok/s)', 'memory/GPU (GiB)', 'MFU'];
const EXPLORER_KEY = ['rank', 'layout', 'step (ms)', 'MFU', 'memory/GPU (GiB)', 'why'];

for (const query of ['?v=1&preset=llama31-405b-h100&view=strong&lx=8192', '?v=1&preset=gpt3-175b-walls&view=strong', '?v=1&preset=llama31-405b-h100&view=strong&lay=best', '?v=1&preset=mixtral-8x7b-walls&view=strong&lay=best']) {
  test(`1280 px, ${query}: the Strong table's key columns fit without a sideways scroll, a row one line (its layout wrapped with lay=best)`, async () => {
    const page = await s.newPage({ viewport: VIEWPORT });
    await page.goto(s.url + query);
    await waitReady(page);
    const m = await measure(page, 'strong-table');
    // With lay=best the search's answer is a key column too (its MFU folds away); its layout
    // wraps: the name, then its schedule, ZeRO and recomputation on one or two lines.
    const best = query.includes('lay=best');
    assertKeyColumnsFit(m, best ? [...STRONG_KEY, 'best layout', 'best step (ms)'] : STRONG_KEY, 'strong table');
    assert.ok(!shownHeaders(m).includes('ideal (ms)'), 'a minor column is folded away');
    for (const h of m.heights) assert.ok(h < m.line * (best ? 3.6 : 1.8), `a row is ${h} px tall, a line ${m.line} px`);

    // "Show every column" brings the minor columns back (the box then scrolls sideways).
    assert.ok(await page.isVisible('#strong-all-columns'), 'the control to show every column');
    await page.check('#strong-all-columns');
    const all = await measure(page, 'strong-table');
    assert.equal(shownHeaders(all).length, all.headers.length, `every column shown: ${shownHeaders(all).join(' | ')}`);
    assert.ok(shownHeaders(all).includes('ideal (ms)') && shownHeaders(all).includes('T / T_crit'));
    await page.uncheck('#strong-all-columns');
    assert.ok(!shownHeaders(await measure(page, 'strong-table')).includes('ideal (ms)'), 'folded again');
    await assertClean(assert, page);
  });
}

test('1280 px: the layout explorer shows rank, layout, step, MFU, memory and why without a sideways scroll', async () => {
  const page = await s.newPage({ viewport: VIEWPORT });
  await page.goto(s.url + '?v=1&preset=llama31-405b-h100&view=strong&lx=8192');
  await waitReady(page);
  await page.waitForSelector('#strong-layouts-table table');
  const m = await measure(page, 'strong-layouts-table');
  assertKeyColumnsFit(m, EXPLORER_KEY, 'explorer');
  assert.ok(!shownHeaders(m).includes('schedule'), 'the schedule column is folded away');
  // Its words are under each layout's name instead: rows of one name stay apart.
  const fold = await page.evaluate(() => Array.from(document.querySelectorAll('#strong-layouts-table tbody tr'),
    (r) => { const f = r.cells[1].querySelector('.fold'); return f && f.getClientRects().length > 0 ? f.textContent : null; }));
  assert.match(fold[0], /^interleaved×\d+, ZeRO \d, none$/, `the first row's schedule, ZeRO and recomputation: ${fold[0]}`);
  // Two lines at most: the layout over its schedule, or a "why" wrapped once (it was 3).
  for (const h of m.heights) assert.ok(h < m.line * 2.6, `a row is ${h} px tall, a line ${m.line} px`);

  await page.check('#strong-layouts-all-columns');
  const all = await measure(page, 'strong-layouts-table');
  assert.equal(shownHeaders(all).length, all.headers.length, 'every column shown');
  assert.ok(await page.isHidden('#strong-layouts-table tbody tr .fold'), 'the folded words go with their columns back');
  // The CSV export keeps every column.
  const headers = await page.evaluate(() => document.querySelector('#strong-layouts-table thead tr').cells.length);
  assert.equal(headers, 11);
  await assertClean(assert, page);
});

test('1280 px: the preset menu shows the whole preset name, its description under the toolbar', async () => {
  const page = await s.newPage({ viewport: VIEWPORT });
  await page.goto(s.url + '?v=1&preset=mlperf-gpt3-175b-h100');
  await waitReady(page);
  const menu = await page.evaluate(() => {
    const select = document.getElementById('preset-input');
    const option = select.options[select.selectedIndex];
    // The text's own width, measured with the select's font.
    const probe = document.createElement('span');
    probe.style.cssText = `font: ${getComputedStyle(select).font}; white-space: pre; position: absolute;`;
    probe.textContent = option.textContent;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    return { text, content: select.clientWidth, label: option.textContent, title: option.title, about: document.getElementById('preset-about').textContent };
  });
  assert.equal(menu.label, 'mlperf-gpt3-175b-h100');
  // The select's padding and arrow take about 30 px of its width.
  assert.ok(menu.text + 30 <= menu.content, `the name is ${menu.text} px wide in a ${menu.content} px menu`);
  assert.ok(menu.about.length > 20 && menu.about === menu.title, `the description: ${menu.about}`);
  assert.ok(await page.isVisible('#preset-about'));
  await page.selectOption('#preset-input', '');
  await page.waitForFunction(() => document.getElementById('preset-about').textContent === '');
  assert.ok(await page.isHidden('#preset-about'), 'no description for a custom scenario');
  await assertClean(assert, page);
});

test('print: the Plan table headers wrap between words only', async () => {
  const page = await s.newPage({ viewport: { width: 720, height: 900 } });
  await page.goto(s.url + '?v=1&preset=seed-weak&view=plan&lv=fp8');
  await waitReady(page);
  await page.evaluate(() => document.getElementById('pin-a').click());
  await page.waitForSelector('#plan-table th:text-is("scenario")');
  await page.emulateMedia({ media: 'print' });
  await page.locator('#plan-table').scrollIntoViewIfNeeded();
  // Each header's lines, as the browser broke them: every line ends at a word's end.
  const broken = await page.evaluate(() => Array.from(document.querySelectorAll('#plan-table thead th')).flatMap((th) => {
    // A word, or a piece of one that ends in "/" or "→" (where the page allows a break) or "-".
    const words = th.textContent.split(/\s+/).flatMap((w) => [w, ...w.split(/(?<=[/→-])/)]);
    const range = document.createRange();
    const lines = [''];
    let top = null;
    for (const text of Array.from(th.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE)) {
      for (let i = 0; i < text.length; i++) {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const t = range.getBoundingClientRect().top;
        if (top !== null && Math.abs(t - top) > 2) lines.push('');
        lines[lines.length - 1] += text.data[i];
        top = t;
      }
    }
    return lines.map((l) => l.trim()).filter((l) => l && !l.split(/\s+/).every((w) => words.includes(w)))
      .map((l) => `${th.textContent} → "${l}"`);
  }));
  assert.deepEqual(broken, [], 'no header broken inside a word');
  const t = await page.evaluate(() => { const r = document.querySelector('#plan-table [role="region"]'); return [r.scrollWidth, r.clientWidth]; });
  assert.ok(t[0] <= t[1] + 1, `the Plan table fits the paper: ${t[0]} px in ${t[1]} px`);
  await assertClean(assert, page);
});

test('print: a teacher\'s set prints its paper lead, not the screen\'s, and no footer without a command', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&view=learn&q=5,7,13&lang=zh');
  await waitReady(page);
  await page.waitForSelector('#learn-content[data-drawn] article.learn');
  assert.ok(await page.isVisible('.learn-lead-q'), 'the screen lead on screen');
  assert.ok(await page.isHidden('.learn-lead-paper'));
  await page.emulateMedia({ media: 'print' });
  assert.ok(await page.isHidden('.learn-lead-q'), 'the screen lead (it points at a link above) is not on paper');
  assert.ok(await page.isVisible('.learn-lead-paper'), 'a lead written for paper');
  assert.match(await page.textContent('.learn-lead-paper'), /横线/);
  assert.ok(await page.isHidden('.site-footer'), 'no footer that ends in a colon, alone on a page');
  // A panel's printout keeps its footer: it names the command that prints the same tables.
  await page.emulateMedia({ media: 'screen' });
  await page.goto(s.url + '?v=1&view=strong');
  await waitReady(page);
  await page.emulateMedia({ media: 'print' });
  assert.ok(await page.isVisible('.site-footer'));
  assert.ok(await page.isHidden('#strong-all-columns'), 'no checkbox on paper');
  await assertClean(assert, page);
});
