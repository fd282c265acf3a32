// 7. The CLI and the page print the same tables for the same query.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openSession, waitReady, tableData, assertClean, REPO } from './harness.mjs';

const QUERY = 'v=1&f=0.05';
let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

function cliJson() {
  // `cargo run` rebuilds the binary if the sources changed (a stale target/debug/scaling
  // would compare the page against old code).
  const out = execFileSync(
    'cargo',
    ['run', '--quiet', '--bin', 'scaling', '--', 'laws', '--query', QUERY, '--format', 'json'],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return JSON.parse(out);
}

test(`scaling laws --query '${QUERY}' --format json matches the page's tables cell by cell`, async () => {
  const json = cliJson();
  assert.ok(Array.isArray(json.tables), 'CLI JSON has a tables array');
  const page = await s.newPage();
  await page.goto(`${s.url}?${QUERY}`);
  await waitReady(page);
  for (const id of ['laws-speedup', 'laws-efficiency']) {
    const cli = json.tables.find((t) => t.id === id);
    assert.ok(cli, `CLI JSON has table ${id}: ids ${json.tables.map((t) => t.id).join(', ')}`);
    const web = await tableData(page, `#${id}-table table`);
    assert.ok(web, `page has #${id}-table table`);
    assert.deepEqual(web.headers, cli.headers, `${id}: headers`);
    assert.equal(web.rows.length, cli.rows.length, `${id}: row count`);
    for (let r = 0; r < cli.rows.length; r++) {
      assert.deepEqual(web.rows[r], cli.rows[r], `${id}: row ${r}`);
    }
    assert.ok(web.firstCellTags.every((t) => t === 'TH'), `${id}: first cell of each body row is a <th>`);
  }
  await assertClean(assert, page, `?${QUERY}`);
});
