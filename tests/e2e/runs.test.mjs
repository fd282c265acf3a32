// "Your run", "Copy as" and scalingExplorer.import (docs/import.md): the runs module
// (crates/runs) is not fetched until first used; a run's config.json, launch flags or TOML,
// pasted, chosen or dropped, changes the scenario as one change (the link, every control, a
// redraw) and reports each key; a text refused changes nothing; a model shape sets its inputs;
// an explorer row copies as Megatron-LM flags that import back to the same layout. The
// published configs are the corpus beside the project (../shared/fixtures/import, or
// $SCALING_FIXTURES/import); without it the tests that read one are skipped.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openSession, waitReady, waitForSearch, waitFor, waitQuiet, assertClean, tableData, REPO } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const CORPUS = path.join(process.env.SCALING_FIXTURES ?? path.join(REPO, '../shared/fixtures'), 'import');
// `false`, or why the tests that read the corpus are skipped (node:test's `skip` option).
const NO_CORPUS = existsSync(path.join(CORPUS, 'expected.json')) ? false : `skipped: no ${CORPUS}/expected.json (the corpus beside the project)`;
const config = (name) => (NO_CORPUS ? '' : readFileSync(path.join(CORPUS, name), 'utf8'));
const LLAMA_70B = config('hf/llama-3.1-70b.config.json');
const TITAN_70B = config('torchtitan/llama3_70b.toml');
// The project's own launch script (tests/import-scripts).
const GPT3_175B = readFileSync(path.join(REPO, 'tests/import-scripts/gpt3_175b_flags.sh'), 'utf8');
const START = '?v=1&view=strong&sq=8192&b=16M&mbs=1&tp=8&pp=4';
// What the 70B config sets (docs/import.md; tests/core/import.rs holds the counts).
const LLAMA_SETS = { nl: '80', hd: '8192', nh: '64', kvh: '8', ffn: '28672', voc: '128256' };
// The layout keys an exported layout carries (src/scenario/export.rs).
const LAYOUT_KEYS = ['tp', 'pp', 'cp', 'ep', 'mbs', 'zero', 'ac', 'sched', 'vc', 'sp'];

const params = (page) => page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
const report = (page) => page.evaluate(() => ({
  message: document.getElementById('import-msg').textContent,
  format: document.getElementById('import-format').textContent,
  items: [...document.querySelectorAll('#import-list li')].map((li) => ({ kind: li.className, text: li.textContent })),
  invalid: document.getElementById('import-text').getAttribute('aria-invalid'),
}));
const runsFetched = (page) => page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\/runs-[0-9a-f]+/.test(n)));

/** The page at `query`, ready, with "Your run" opened and its module in. */
async function open(query = START) {
  const page = await s.newPage();
  await page.goto(`${s.url}${query}`);
  await waitReady(page);
  await page.click('#runs > summary');
  await waitFor(page, () => document.querySelectorAll('#shape-input option').length > 1, null, 'the runs module to fill the shape menu');
  await waitQuiet(page, 'the first frame and its address write');
  return page;
}

/** Imports `text` through the text area and the button, and waits for the report. */
async function paste(page, text) {
  await page.evaluate(() => { document.getElementById('import-format').textContent = ''; document.getElementById('import-msg').textContent = ''; });
  await page.fill('#import-text', text);
  await page.click('#import-button');
  await waitFor(page, () => document.getElementById('import-format').textContent !== '' || document.getElementById('import-msg').textContent !== '', null, 'the import report');
}

/** No "MFU above 100%" on the Strong tab, and its table equal to the CLI's for the page's query,
 * cell by cell. */
async function assertStrongAsTheCli(page) {
  const text = await page.evaluate(() => document.getElementById('panel-strong').innerText);
  assert.ok(!/MFU above 100%/.test(text), 'no MFU above 100% once P follows the shape');
  // The numbers are the CLI's for the same query, cell by cell.
  const query = await page.evaluate(() => location.search.slice(1));
  const json = JSON.parse(execFileSync(
    'cargo',
    ['run', '--quiet', '--bin', 'scaling', '--', 'strong', '--query', query, '--format', 'json'],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 600_000, stdio: ['ignore', 'pipe', 'inherit'] },
  ));
  const cli = json.tables.find((t) => t.id === 'strong');
  const web = await tableData(page, '#strong-table table');
  assert.deepEqual(web.headers, cli.headers);
  assert.deepEqual(web.rows, cli.rows);
}

/** No NaN, ∞ or "undefined" in anything the page shows. */
async function assertNoNonsense(page, what) {
  const text = await page.evaluate(() => document.body.innerText);
  for (const bad of ['NaN', 'Infinity', '∞', 'undefined']) {
    assert.ok(!text.includes(bad), `${what}: the page shows “${bad}”`);
  }
}

test('the runs module is fetched on first use only, and once', async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}${START}`);
  await waitReady(page);
  await waitQuiet(page, 'the first frame');
  assert.deepEqual(await runsFetched(page), [], 'nothing of the runs module before it is used');
  await page.click('#runs > summary');
  await waitFor(page, () => document.querySelectorAll('#shape-input option').length === 14, null, 'an empty entry and thirteen shapes');
  const fetched = await runsFetched(page);
  assert.equal(fetched.length, 3, `the loader, its JS and its wasm: ${fetched}`);
  await page.click('#runs > summary');
  await page.click('#runs > summary');
  await waitQuiet(page, 'opening again');
  assert.equal((await runsFetched(page)).length, 3, 'opening again fetches nothing');
  assert.equal(await page.evaluate(() => document.querySelectorAll('#shape-input option').length), 14, 'the menu is filled once');
  await assertClean(assert, page, 'after the module loaded');
});

test('a pasted config.json and torchtitan TOML set the run: the link, the controls, the report; the link restores it', { skip: NO_CORPUS }, async () => {
  const page = await open();
  await paste(page, LLAMA_70B);
  for (const [key, value] of Object.entries(LLAMA_SETS)) await waitForSearch(page, key, value);
  let r = await report(page);
  assert.equal(r.message, '');
  assert.equal(r.invalid, null);
  assert.equal(r.format, 'Hugging Face config.json');
  assert.ok(r.items.some((i) => i.kind === 'set' && i.text === 'line 17 · num_hidden_layers: sets Layers L (nl) = 80'), JSON.stringify(r.items));
  assert.ok(r.items.some((i) => i.kind === 'ignored' && i.text.includes('max_position_embeddings')), JSON.stringify(r.items));
  assert.equal(await page.inputValue('#nl-input'), '80', '#nl-input follows the import');
  assert.equal((await params(page)).b, '16M', 'what the config does not set keeps its value');

  // torchtitan's 70B job: TP 8, PP 1, FSDP over the rest, 8 sequences of 8,192 a rank, full recomputation.
  await paste(page, TITAN_70B);
  await waitForSearch(page, 'ac', 'full');
  r = await report(page);
  assert.equal(r.format, 'torchtitan TOML');
  assert.ok(r.items.some((i) => i.kind === 'set' && /parallelism\.tensor_parallel_degree: sets Tensor parallel TP \(tp\) = 8/.test(i.text)), JSON.stringify(r.items));
  const got = await params(page);
  assert.equal(got.tp, '8');
  assert.equal(got.mbs, '8');
  assert.equal(got.nl, '80', 'the shape from the config stays');
  await waitQuiet(page, 'the redraw');
  const figures = await page.evaluate(() => document.getElementById('strong-figures').innerText);
  assert.match(figures, /GiB/, 'memory per GPU is shown');
  await assertNoNonsense(page, 'after the imports');
  await assertClean(assert, page, 'after the imports');

  // The link is the imported run: a reload shows the same values and the same figures.
  const link = page.url();
  await page.goto(link);
  await waitReady(page);
  await waitQuiet(page, 'the reloaded page');
  assert.deepEqual(await params(page), got, 'the reloaded link keeps every value');
  assert.equal(await page.inputValue('#nl-input'), '80');
  assert.equal(await page.evaluate(() => document.getElementById('strong-figures').innerText), figures, 'the same figures');
  await assertClean(assert, page, 'after the reload');
});

test('a launch script dropped onto the text area, or chosen as a file, sets the layout', async (t) => {
  const page = await open('?v=1&view=strong');
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], 'gpt3_175b_flags.sh', { type: 'text/x-sh' }));
    const area = document.getElementById('import-text');
    area.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    area.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, GPT3_175B);
  await waitForSearch(page, 'tp', '8');
  await waitForSearch(page, 'pp', '16');
  assert.equal((await params(page)).nl, '96');
  assert.equal(await page.inputValue('#import-text'), GPT3_175B, 'the dropped file is shown in the text area');
  const r = await report(page);
  assert.equal(r.format, 'Megatron-LM flags');
  assert.ok(r.items.some((i) => i.kind === 'set' && i.text.includes('--pipeline-model-parallel-size') && i.text.includes('(pp) = 16')), JSON.stringify(r.items));
  await assertNoNonsense(page, 'after the drop');
  if (NO_CORPUS) {
    t.diagnostic(`${NO_CORPUS}: the file input's config`);
    await assertClean(assert, page, 'after the drop');
    return;
  }

  // The file input: the 70B config over the same page.
  await page.setInputFiles('#import-file', path.join(CORPUS, 'hf/llama-3.1-70b.config.json'));
  await waitForSearch(page, 'nl', '80');
  assert.equal((await params(page)).pp, '16', 'inputs the config does not set keep their values');
  await assertClean(assert, page, 'after the file input');
});

test('a config that contradicts itself is refused naming the key, and nothing changes', async () => {
  const page = await open();
  const before = await page.evaluate(() => location.search);
  const nl = await page.inputValue('#nl-input');
  await paste(page, '{"num_attention_heads": 64, "num_key_value_heads": 6}');
  await waitQuiet(page, 'anything the refusal could have set off');
  const r = await report(page);
  assert.match(r.message, /num_key_value_heads/);
  assert.match(r.message, /line 1/);
  assert.equal(r.invalid, 'true');
  assert.deepEqual(r.items, []);
  assert.equal(await page.evaluate(() => location.search), before, 'the link is unchanged');
  assert.equal(await page.inputValue('#nl-input'), nl);
  // Text in no format.
  await paste(page, 'hello world');
  assert.match((await report(page)).message, /not a Hugging Face config\.json, Megatron-LM flags, NeMo overrides, a torchtitan TOML, a DeepSpeed config, a NeMo launcher YAML, a GPT-NeoX config or a training log/);
  assert.equal(await page.evaluate(() => location.search), before);
  await assertNoNonsense(page, 'after the refusal');
  await assertClean(assert, page, 'after the refusal');
});

test('a DeepSpeed config sets the microbatch and ZeRO stage; a NeMo launcher YAML is named as the command line\'s', { skip: NO_CORPUS }, async () => {
  const page = await open();
  await paste(page, config('other/deepspeed_bf16_full_zero3.json'));
  await waitForSearch(page, 'mbs', '4');
  const r = await report(page);
  assert.equal(r.format, 'DeepSpeed config');
  assert.ok(r.items.some((i) => i.kind === 'set' && /zero_optimization\.stage: sets ZeRO stage \(zero\) = 3/.test(i.text)), JSON.stringify(r.items));
  assert.ok(r.items.some((i) => /optimizer\.params\.lr: ignored: changes neither memory, traffic nor FLOPs/.test(i.text)), JSON.stringify(r.items));
  // ZeRO-3 is the scenario's default, so the link leaves it out; the control says it.
  assert.equal((await params(page)).zero, undefined);
  assert.equal(await page.inputValue('#zero-input'), '3');
  const before = await page.evaluate(() => location.search);
  await paste(page, config('nemo-yaml/launcher_llama3_1_70b.yaml'));
  assert.match((await report(page)).message, /a NeMo launcher YAML is read by the command line: scaling import FILE/);
  assert.equal(await page.evaluate(() => location.search), before, 'the link is unchanged');
  await assertNoNonsense(page, 'after the YAML');
  await assertClean(assert, page, 'DeepSpeed, then a YAML');
});

test('2 MB of text is refused at once, a file that long unread, and the page stays responsive', async () => {
  const page = await open();
  const before = await page.evaluate(() => location.search);
  const big = '{"x": "' + 'a'.repeat(2 << 20) + '"}';
  const refusal = new RegExp(`the text has ${Buffer.byteLength(big)} bytes; at most 1048576 are read`);
  const ms = await page.evaluate((text) => {
    document.getElementById('import-text').value = text;
    const t0 = performance.now();
    document.getElementById('import-button').click();
    return performance.now() - t0;
  }, big);
  assert.ok(ms < 1_000, `the click took ${ms.toFixed(0)} ms`);
  assert.match((await report(page)).message, refusal);
  await page.evaluate(() => { document.getElementById('import-msg').textContent = ''; });
  await page.setInputFiles('#import-file', { name: 'big.json', mimeType: 'application/json', buffer: Buffer.from(big) });
  await waitFor(page, () => document.getElementById('import-msg').textContent !== '', null, 'the refused file');
  assert.match((await report(page)).message, refusal);
  // Deep nesting: refused by the JSON reader's depth limit, no crash.
  await paste(page, '['.repeat(100_000));
  assert.notEqual((await report(page)).message, '');
  assert.equal(await page.evaluate(() => 1 + 1), 2, 'the page answers');
  assert.equal(await page.evaluate(() => location.search), before);
  await assertClean(assert, page, 'after hostile text');
});

test('a model shape sets its inputs, sq and P; one that breaks a rule says why and changes nothing', async () => {
  const page = await open('?v=1&view=strong&b=16M&mbs=1&tp=8&pp=4');
  const options = await page.evaluate(() => Array.from(document.querySelectorAll('#shape-input option'), (o) => o.textContent));
  assert.equal(options.length, 14, `an empty entry and thirteen shapes: ${options}`);
  assert.ok(options.includes('Llama 3.1 70B (70.6B)'), `${options}`);
  await page.selectOption('#shape-input', 'Llama 3.1 70B');
  await waitForSearch(page, 'p', '70.552387584B');
  const search = await params(page);
  assert.equal(search.nl, '80');
  assert.equal(search.sq, '8192');
  assert.equal(search.tp, '8', 'the layout stays');
  assert.equal(await page.inputValue('#nl-input'), '80', 'the boxes follow');
  assert.match(await page.locator('#shape-source').textContent(), /meta-llama\/Llama-3\.1-70B config\.json/);
  assert.equal(await page.inputValue('#shape-input'), 'Llama 3.1 70B');
  // Another input of the shape: the menu no longer names a published model.
  await page.evaluate(() => { document.getElementById('nl-input').closest('details').open = true; });
  await page.fill('#nl-input', '40');
  await waitForSearch(page, 'nl', '40');
  await waitFor(page, () => document.getElementById('shape-input').value === '', null, 'the menu to show no shape');
  await assertClean(assert, page, 'Llama 3.1 70B');

  // Mixtral 8x7B's 8 experts over EP = 16: refused, the link kept.
  const refused = await open('?v=1&view=strong&b=16M&mbs=1&tp=8&pp=4&ne=16&ke=2&ep=16');
  const before = await refused.evaluate(() => location.search);
  await refused.selectOption('#shape-input', 'Mixtral 8x7B');
  await waitFor(refused, () => document.getElementById('shape-msg').textContent !== '', null, '#shape-msg to say why');
  assert.equal(await refused.locator('#shape-msg').textContent(), 'Mixtral 8x7B: EP degree 16 does not divide the 8 experts');
  await waitQuiet(refused, 'anything the choice set off');
  assert.equal(await refused.evaluate(() => location.search), before, 'the link is kept');
  assert.equal(await refused.inputValue('#shape-input'), '', 'the menu goes back');
  await assertClean(assert, refused, 'Mixtral 8x7B refused');
});

/** Clicks `button` and returns what it copied (the clipboard), checking the text shown under it. */
async function copied(page, button) {
  await page.evaluate(() => { document.getElementById('layout-copy-status').textContent = ''; });
  await page.click(button);
  await waitFor(page, () => document.getElementById('layout-copy-status').textContent !== '', null, '#layout-copy-status to show a status');
  assert.equal(await page.locator('#layout-copy-status').textContent(), 'Copied.');
  const text = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(await page.locator('#layout-copy-text').textContent(), text, 'the copied text is shown');
  return text;
}

test("an explorer row copies as Megatron-LM flags that import back to the row's layout; torchtitan and the scenario's own", async () => {
  const page = await s.newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.origin });
  await page.goto(`${s.url}?v=1&preset=gpt3-175b-walls&view=strong&lx=2048`);
  await waitReady(page);
  await waitFor(page, () => !document.getElementById('strong-layout-use-1').hidden, null, "the explorer's first row link");
  assert.ok(await page.locator('#strong-layout-copy-1').isVisible(), 'row 1 has a Copy button');
  assert.deepEqual(await runsFetched(page), [], 'the module is not in before the first Copy');

  await page.selectOption('#copy-tool', 'megatron');
  const megatron = await copied(page, '#strong-layout-copy-1');
  assert.match(megatron, /^--tensor-model-parallel-size \d+\n--pipeline-model-parallel-size \d+\n/);
  const useLink = new URLSearchParams((await page.getAttribute('#strong-layout-use-1', 'href')).replace(/^\?/, ''));

  // The flags pasted back give the row's layout.
  await page.click('#runs > summary');
  await paste(page, megatron);
  assert.equal((await report(page)).format, 'Megatron-LM flags');
  await waitQuiet(page, 'the imported layout');
  const got = await params(page);
  for (const key of LAYOUT_KEYS) {
    assert.equal(got[key] ?? '', useLink.get(key) ?? '', `${key}: the import of row 1's flags (${JSON.stringify(got)}) against its Use link (${useLink})`);
  }

  await page.selectOption('#copy-tool', 'torchtitan');
  const titan = await copied(page, '#strong-layout-copy-1');
  assert.ok(titan.includes('[parallelism]\n'), titan);
  await page.selectOption('#copy-tool', 'nemo');
  const nemo = await copied(page, '#copy-own');
  assert.match(nemo, /^trainer\.strategy\.tensor_model_parallel_size=\d+\n/);
  await assertClean(assert, page, 'copy as');
});

test('scalingExplorer.import(text, query) resolves to the link and the report, before and after the module is in, and changes nothing', { skip: NO_CORPUS }, async () => {
  const page = await s.newPage();
  await page.goto(`${s.url}${START}`);
  await waitReady(page);
  await waitQuiet(page, 'the first frame');
  const before = await page.evaluate(() => location.search);
  const out = await page.evaluate((text) => scalingExplorer.import(text), LLAMA_70B);
  assert.equal(out.kind, 'imported');
  const query = new URLSearchParams(out.query);
  for (const [key, value] of Object.entries(LLAMA_SETS)) assert.equal(query.get(key), value, out.query);
  assert.equal(query.get('tp'), '8', "over the page's scenario");
  assert.equal(out.format, 'Hugging Face config.json');
  assert.deepEqual(out.entries.find((e) => e.source === 'num_hidden_layers'),
    { source: 'num_hidden_layers', line: 17, outcome: 'set', text: 'sets Layers L (nl) = 80' });
  const over = await page.evaluate((text) => scalingExplorer.import(text, 'v=1&preset=seed-strong'), GPT3_175B);
  assert.equal(new URLSearchParams(over.query).get('preset'), 'seed-strong');
  assert.equal(new URLSearchParams(over.query).get('pp'), '16');
  const bad = await page.evaluate(() => scalingExplorer.import('{"num_attention_heads": 64, "num_key_value_heads": 6}'));
  assert.deepEqual(bad, { kind: 'refused', error: 'line 1: num_attention_heads is not a multiple of num_key_value_heads' });
  const thrown = await page.evaluate(async () => { try { await scalingExplorer.import(42); return null; } catch (e) { return e.name; } });
  assert.equal(thrown, 'TypeError');
  await waitQuiet(page, 'anything the API could have set off');
  assert.equal(await page.evaluate(() => location.search), before, 'the page keeps its scenario');
  await assertClean(assert, page, 'after the API');
});

test('in Chinese the report and the refusals are Chinese', { skip: NO_CORPUS }, async () => {
  const page = await open(`${START}&lang=zh`);
  await paste(page, LLAMA_70B);
  await waitForSearch(page, 'nl', '80');
  const r = await report(page);
  assert.ok(r.items.some((i) => i.text === '第 17 行 · num_hidden_layers：设置 层数 L（nl）= 80'), JSON.stringify(r.items.slice(0, 3)));
  await paste(page, '{"num_attention_heads": 64, "num_key_value_heads": 6}');
  assert.match((await report(page)).message, /第 1 行/);
  await assertClean(assert, page, 'in Chinese');
});

test('a runs module that cannot be loaded is said where the reader looks, and the page goes on', async () => {
  const page = await s.newPage();
  await page.route(/\/runs-[0-9a-f]+_loader\.js$/, (route) => route.fulfill({ status: 404, body: '' }));
  await page.goto(`${s.url}${START}`);
  await waitReady(page);
  await page.click('#runs > summary');
  await waitFor(page, () => document.getElementById('import-msg').textContent !== '', null, 'the message under the Import box');
  // It names the file a host left out, which reloading cannot bring back.
  assert.match(await page.locator('#import-msg').textContent(),
    /^the importer could not be loaded: runs-[0-9a-f]+_loader\.js \(or the runs files beside it\) is missing or blocked; a copy of the page needs every file of dist\/$/);
  // The rest of the page still works.
  await page.evaluate(() => { document.getElementById('tp-input').closest('details').open = true; });
  await page.fill('#tp-input', '4');
  await waitForSearch(page, 'tp', '4');
});

test("a config.json without a sequence length says so first, and its button sets the menu model's", { skip: NO_CORPUS }, async () => {
  const page = await open('?v=1&view=strong');
  await paste(page, LLAMA_70B);
  await waitForSearch(page, 'nl', '80');
  const first = await page.evaluate(() => {
    const li = document.querySelector('#import-list li');
    return { kind: li.className, text: li.textContent, button: li.querySelector('button')?.textContent };
  });
  assert.equal(first.kind, 'missing');
  assert.match(first.text, /^Still to type: the sequence length \(sq\); P then follows the shape\. Llama 3\.1 70B's are sq=8192/);
  assert.equal(first.button, 'Set sq=8192');
  await page.click('#import-list li.missing button');
  await waitForSearch(page, 'sq', '8192');
  await waitForSearch(page, 'p', '70.552387584B');
  assert.equal(await page.inputValue('#sq-input'), '8192');
  await assertNoNonsense(page, 'after the button');
  await assertClean(assert, page, 'the missing line and its button');
});

test('a config.json without a sequence length, then sq typed: P follows the shape, MFU stays below 100%, as the CLI says', { skip: NO_CORPUS }, async () => {
  const page = await open('?v=1&view=strong');
  await paste(page, LLAMA_70B);
  await waitForSearch(page, 'nl', '80');
  assert.equal(await page.inputValue('#p-input'), '1.776B', 'the shape is not complete yet: P keeps its value');
  await page.evaluate(() => { for (const d of document.querySelectorAll('#llm-controls details')) d.open = true; });
  await page.fill('#sq-input', '8192');
  await page.press('#sq-input', 'Enter');
  await waitForSearch(page, 'sq', '8192');
  await waitForSearch(page, 'p', '70.552387584B');
  await assertStrongAsTheCli(page);
  await assertNoNonsense(page, 'after sq');
  await assertClean(assert, page, 'P follows the shape');
});

test('a config.json then a torchtitan TOML, and a Megatron script then voc typed: P follows the shape each time, as the CLI says', { skip: NO_CORPUS }, async () => {
  const page = await open('?v=1&view=strong');
  await paste(page, LLAMA_70B);
  await waitForSearch(page, 'nl', '80');
  await paste(page, TITAN_70B);
  await waitForSearch(page, 'sq', '8192');
  await waitForSearch(page, 'p', '70.552387584B');
  await assertStrongAsTheCli(page);

  const other = await open('?v=1&view=strong');
  await paste(other, GPT3_175B);
  await waitForSearch(other, 'nl', '96');
  const first = await other.evaluate(() => document.querySelector('#import-list li')?.textContent ?? '');
  assert.match(first, /^Still to type: the vocabulary \(voc\); P then follows the shape\./);
  await other.evaluate(() => { for (const d of document.querySelectorAll('#llm-controls details')) d.open = true; });
  await other.fill('#voc-input', '50257');
  await other.press('#voc-input', 'Enter');
  await waitForSearch(other, 'voc', '50257');
  // GPT-3 175B by hand: 96 · 12·12,288² + 2·50,257·12,288 = 175,181,291,520.
  await waitForSearch(other, 'p', '175.18129152B');
  await assertStrongAsTheCli(other);
  await assertNoNonsense(other, 'after voc');
  await assertClean(assert, page, 'config then TOML');
  await assertClean(assert, other, 'script then voc');
});
