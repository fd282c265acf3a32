// Wide tables: at 1400 px every table either fits its column or scrolls inside its
// own box (overflow-x auto) with its first column sticky; columns of words and marks (a
// lever's name, ✓, a cost: panel::table::Table::text_columns) align left, numbers right; in
// print no table is clipped, whatever the paper's width.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean } from './harness.mjs';

const QUERIES = [
  '?v=1&preset=karp-flatt',
  '?v=1&preset=megatron-177b-h100&view=strong',
  '?v=1&preset=seed-weak&view=weak',
  '?v=1&preset=seed-weak&view=plan&lv=fp8',
];

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

/** Every table of the visible panel, measured once it is on screen (they skip layout off it). */
async function measureTables(page) {
  const ids = await page.evaluate(() => Array.from(document.querySelectorAll('.panel:not([hidden]) .table-wrap'))
    .filter((w) => w.querySelector('table')).map((w) => w.id));
  const out = [];
  for (const id of ids) {
    await page.locator('#' + id).scrollIntoViewIfNeeded();
    out.push(await page.evaluate((id) => {
      const wrap = document.getElementById(id);
      const region = wrap.querySelector('[role="region"]');
      const table = region.querySelector('table');
      const first = table.tBodies[0].rows[0].cells[0];
      const st = getComputedStyle(region);
      // Scrolled to the far right, a sticky first cell stays at the box's left edge.
      region.scrollLeft = region.scrollWidth;
      const stuck = Math.abs(first.getBoundingClientRect().left - region.getBoundingClientRect().left) < 1.5;
      const scrolled = region.scrollLeft;
      region.scrollLeft = 0;
      return {
        id,
        clientWidth: region.clientWidth,
        scrollWidth: region.scrollWidth,
        overflowX: st.overflowX,
        tableRight: table.getBoundingClientRect().right,
        regionRight: region.getBoundingClientRect().right,
        position: getComputedStyle(first).position,
        left: getComputedStyle(first).left,
        background: getComputedStyle(first).backgroundColor,
        stuck,
        scrolled,
        // [header, align] of each column, from its first body row
        align: Array.from(table.tBodies[0].rows[0].cells).map((c, i) => [table.tHead.rows[0].cells[i].textContent, getComputedStyle(c).textAlign]),
      };
    }, id));
  }
  return out;
}

for (const query of QUERIES) {
  test(`1400 px, ${query}: each table fits or scrolls in its own box, first column sticky`, async () => {
    const page = await s.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(s.url + query);
    await waitReady(page);
    const tables = await measureTables(page);
    assert.ok(tables.length > 0, 'the panel shows tables');
    for (const t of tables) {
      if (t.scrollWidth > t.clientWidth + 1) {
        assert.match(t.overflowX, /^(auto|scroll)$/, `${t.id}: ${t.scrollWidth} px in ${t.clientWidth} px, overflow-x ${t.overflowX}`);
        assert.ok(t.scrolled > 0, `${t.id} scrolls sideways`);
        assert.ok(t.stuck, `${t.id}: the first column stays put while the table scrolls`);
      }
      assert.equal(t.position, 'sticky', `${t.id}: first column position`);
      assert.equal(t.left, '0px', `${t.id}: first column left`);
      assert.notEqual(t.background, 'rgba(0, 0, 0, 0)', `${t.id}: the sticky column has a background (the scrolled cells pass under it)`);
    }
    await assertClean(assert, page);
  });
}

test('text columns align left, number columns right (levers, the fit, the plan)', async () => {
  const expect = {
    'levers-table': { lever: 'left', on: 'left', cost: 'left', 'T_crit (tokens)': 'right', 'N_max (GPUs)': 'right', 'fastest time to quality': 'right' },
    'strong-fit-table': { GPUs: 'right', 'in the fit': 'left', 'measured (ms)': 'right', error: 'right' },
    'plan-table': { GPUs: 'right', 'weak: B': 'right', 'weak: true efficiency': 'right' },
    'strong-table': { GPUs: 'right', 'step (ms)': 'right' },
  };
  const page = await s.newPage({ viewport: { width: 1400, height: 900 } });
  let seen = 0;
  for (const query of ['?v=1&preset=megatron-177b-h100&view=strong', '?v=1&preset=seed-weak&view=plan&lv=fp8']) {
    await page.goto(s.url + query);
    await waitReady(page);
    for (const t of await measureTables(page)) {
      const want = expect[t.id];
      if (!want) continue;
      seen++;
      const got = Object.fromEntries(t.align.filter(([h]) => h in want));
      assert.deepEqual(got, want, `${t.id}: column alignment`);
    }
  }
  assert.equal(seen, Object.keys(expect).length, 'every table checked was shown');
  await assertClean(assert, page);
});

test('1400 px, lay=best: the best-layout column is on screen, its layout wrapped, a row at most three lines', async () => {
  const page = await s.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(s.url + '?v=1&preset=llama31-405b-h100&view=strong&lay=best');
  await waitReady(page);
  await page.locator('#strong-table').scrollIntoViewIfNeeded();
  const rows = await page.evaluate(() => {
    const region = document.querySelector('#strong-table [role="region"]');
    const table = region.querySelector('table');
    const line = parseFloat(getComputedStyle(table.tBodies[0].rows[0].cells[0]).lineHeight);
    return {
      line,
      heights: Array.from(table.tBodies[0].rows, (r) => r.getBoundingClientRect().height),
      scrollWidth: region.scrollWidth,
      clientWidth: region.clientWidth,
    };
  });
  assert.ok(rows.heights.length >= 4, 'the strong table has its rows');
  assert.ok(rows.scrollWidth <= rows.clientWidth + 1, `${rows.scrollWidth} px of table in a ${rows.clientWidth} px box`);
  for (const h of rows.heights) assert.ok(h < rows.line * 3.6, `a row is ${h} px tall, a line ${rows.line} px`);
  await assertClean(assert, page);
});

for (const width of [1400, 720]) {
  test(`print at ${width} px: no table is clipped`, async () => {
    const page = await s.newPage({ viewport: { width, height: 900 } });
    for (const query of QUERIES) {
      await page.goto(s.url + query);
      await waitReady(page);
      await page.emulateMedia({ media: 'print' });
      for (const t of await measureTables(page)) {
        assert.equal(t.overflowX, 'visible', `${query} ${t.id}: overflow-x in print`);
        assert.ok(t.scrollWidth <= t.clientWidth + 1, `${query} ${t.id}: ${t.scrollWidth} px wide in ${t.clientWidth} px`);
        assert.ok(t.tableRight <= t.regionRight + 1, `${query} ${t.id}: the table ends at ${t.tableRight}, its box at ${t.regionRight}`);
      }
      await page.emulateMedia({ media: 'screen' });
    }
    await assertClean(assert, page);
  });
}
