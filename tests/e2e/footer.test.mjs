// The footer's command-line hint: the command that prints the visible panel for the
// current scenario (page::PageState::cli_command), following tabs and inputs, with a copy
// button; and the command, run as shown, prints what the page shows.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openSession, waitReady, waitFor, waitForSearch, assertClean, REPO } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const hint = (page) => page.locator('#cli-command').textContent();
async function waitHint(page, want) {
  await waitFor(page, (w) => document.getElementById('cli-command').textContent === w, want,
    `#cli-command to read ${want}`, () => hint(page));
}

test('the hint names the panel and the query, following tabs and inputs; copy copies it', async () => {
  const page = await s.newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.origin });
  await page.goto(s.url + '?v=1&preset=seed-strong&view=strong');
  await waitReady(page);
  assert.equal(await hint(page), "scaling strong --query 'v=1&preset=seed-strong'");

  await page.click('#tab-weak');
  await waitHint(page, "scaling weak --query 'v=1&preset=seed-strong'");
  await page.fill('#b-input', '64M');
  await waitForSearch(page, 'b', '64M');
  await waitHint(page, "scaling weak --query 'v=1&preset=seed-strong&b=64M'");
  await page.click('#tab-plan');
  await waitHint(page, "scaling plan --query 'v=1&preset=seed-strong&b=64M'");
  await page.click('#tab-laws');
  await page.fill('#f-input', '10%');
  await waitHint(page, "scaling laws --query 'v=1&preset=seed-strong&f=0.1&b=64M'");
  // The address bar says the same (its throttled write comes last).
  await waitForSearch(page, 'f', '0.1');

  const shown = await hint(page);
  await page.click('#cli-copy');
  await waitFor(page, () => document.getElementById('cli-status').textContent.trim() !== '', null, '#cli-status to show a status');
  const status = (await page.locator('#cli-status').textContent()).trim();
  if (status === 'Copied.') {
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown, 'the clipboard holds the command');
  } else {
    assert.equal(status, `Copy this: ${shown}`, `fallback shows the command: ${status}`);
  }
  await assertClean(assert, page);
});

test('lang=zh: the copy button is translated, the command is not', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&lang=zh&view=plan');
  await waitReady(page);
  assert.equal((await page.locator('#cli-copy').textContent()).trim(), '复制命令');
  assert.equal(await hint(page), "scaling plan --query 'v=1&lang=zh'");
  await assertClean(assert, page);
});

test('the hint, run as shown, prints the key figures the page shows', async () => {
  const page = await s.newPage();
  await page.goto(s.url + '?v=1&preset=seed-weak&view=plan&lv=fp8');
  await waitReady(page);
  const command = await hint(page);
  const m = /^scaling (\w+) --query '([^']*)'$/.exec(command);
  assert.ok(m, `a command with one quoted query: ${command}`);
  const out = execFileSync('cargo', ['run', '--quiet', '--bin', 'scaling', '--', m[1], '--query', m[2], '--format', 'json'],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000, stdio: ['ignore', 'pipe', 'inherit'] });
  const json = JSON.parse(out);
  const figures = await page.evaluate(() => Array.from(document.querySelectorAll('#plan-figures tr'))
    .map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
  assert.ok(figures.length > 0, 'the page shows key figures');
  assert.deepEqual(json.figures.map((f) => [f.label, f.value]), figures, 'the CLI prints the same key figures');
  await assertClean(assert, page);
});
