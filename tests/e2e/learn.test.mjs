// The Learn view: definitions fetched when the view opens, live figures drawn by the
// model, links to the panels and back, and predict-then-reveal exercises a teacher links by
// number (`q=`), in English and Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSession, waitReady, assertClean, canvasStats, closeQuietly, openRecording } from './harness.mjs';

let s;
before(async () => { s = await openSession(); });
after(async () => { await s?.close(); });

const open = (query) => openRecording(s, query);

test('other panels never download the Learn texts', async () => {
  const { page, requests } = await open('?v=1');
  try {
    assert.ok(!requests.some((p) => /learn-(en|zh)-/.test(p)), requests.join('\n'));
    await assertClean(assert, page, 'laws');
  } finally {
    await closeQuietly(page);
  }
});

test('view=learn loads the definitions, draws every live figure and links to the panels', async () => {
  const { page, requests } = await open('?v=1&view=learn');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    assert.ok(requests.some((p) => /learn-en-[0-9a-f]+\.html$/.test(p)), requests.join('\n'));
    assert.equal(await page.getAttribute('#tab-learn', 'aria-selected'), 'true');
    assert.ok(await page.isHidden('#learn-status'));
    assert.ok(await page.isHidden('#llm-controls'), 'the LLM inputs belong to the LLM panels');
    assert.ok(await page.isVisible('.learn-lead'));
    assert.ok(await page.isHidden('.learn-lead-q'), "a teacher's set has the other lead");
    const figures = await page.$$eval('.learn-fig canvas', (cs) => cs.map((c, i) => {
      c.id = c.id || `learn-fig-${i}`;
      return c.id;
    }));
    assert.ok(figures.length >= 10, `${figures.length} live figures`);
    // The figures are drawn as they come near the screen (crates/web/src/learn.rs): at the top of
    // the view the last ones are still their prerendered charts, and each is drawn once the
    // reader scrolls to it.
    const last = figures[figures.length - 1];
    assert.ok((await canvasStats(page, `#${last}`)).fraction <= 0.01, `${last}, screens below, is not drawn at load`);
    assert.equal(await page.locator(`#${last} + svg.prerendered`).count(), 1, `${last}'s prerendered chart stands in`);
    for (const id of figures) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await page.waitForFunction((sel) => window.__e2e.canvasStats(sel).fraction > 0.01, `#${id}`, { timeout: 5_000 })
        .catch(() => {});
      assert.ok((await canvasStats(page, `#${id}`)).fraction > 0.01, `${id} is drawn once scrolled to`);
    }
    assert.equal(await page.locator('.learn-fig svg.prerendered').count(), 0, 'every prerendered chart has given way to its canvas');
    // From a definition to its live panel: the link opens the scenario.
    const href = await page.getAttribute('#d-karp-flatt a.learn-open', 'href');
    assert.match(href, /^\?v=1&.*view=laws/);
    await Promise.all([page.waitForURL(/view=laws/), page.click('#d-karp-flatt a.learn-open')]);
    await waitReady(page);
    assert.equal(await page.getAttribute('#tab-laws', 'aria-selected'), 'true');
    await assertClean(assert, page, 'learn → laws');
  } finally {
    await closeQuietly(page);
  }
});

test("the published runs: every row with its error, and Open loads NVIDIA's run as a scenario", async () => {
  const { page } = await open('?v=1&view=learn#d-published');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    const rows = page.locator('#d-published tbody tr');
    assert.ok((await rows.count()) >= 80, `${await rows.count()} published runs`);
    // The table scrolls inside its region at a reader's width; the page itself does not.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow} px`);
    const row = rows.filter({ hasText: 'GB300 NVL72 · FP8' }).filter({ hasText: 'Megatron-Bridge 25.11' })
      .filter({ hasText: 'Llama 3.1 405B' });
    assert.equal(await row.count(), 1);
    const cells = await row.locator('td').allTextContents();
    assert.match(cells.join(' | '), /TP2·PP8·CP2·DP8·A192/);
    assert.match(cells[6], /^[+-]\d+(\.\d)?%$/, `an error: ${cells[6]}`);
    await Promise.all([page.waitForURL(/mach=gb300/), row.locator('a.learn-open').click()]);
    await waitReady(page);
    assert.equal(await page.getAttribute('#tab-strong', 'aria-selected'), 'true');
    assert.equal(await page.inputValue('#tp-input'), '2');
    assert.equal(await page.inputValue('#pp-input'), '8');
    assert.equal(await page.inputValue('#mach-input'), 'gb300');
    await assertClean(assert, page, 'learn → a published run');
  } finally {
    await closeQuietly(page);
  }
});

test("a teacher links one exercise: guess, reveal the model's answer, its why and its chart", async () => {
  const { page } = await open('?v=1&view=learn&q=2');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    // Only exercise 2 is shown, and nothing of the answer is on screen or in the link.
    assert.ok(await page.isVisible('#q2 .ask'));
    assert.ok(await page.isHidden('#q1'));
    assert.ok(await page.isHidden('#d-amdahl'));
    assert.ok(await page.isVisible('#learn-all'));
    assert.ok(await page.isHidden('#q2 .why'));
    // The link's query, not the whole address: the server's random port may hold "21".
    assert.ok(!new URL(page.url()).search.includes('21'), page.url());
    // A guess that is not a number: a message naming the box, nothing revealed.
    await page.fill('#q2 .guess input', 'many');
    await page.click('#q2 .reveal');
    assert.match(await page.textContent('#q2 .answer'), /^Your guess/);
    assert.ok(await page.isHidden('#q2 .why'));
    await page.fill('#q2 .guess input', '30');
    await page.click('#q2 .reveal');
    assert.equal(await page.textContent('#q2 .answer'), 'Answer: 21 (your guess 30). Off: 42.9% too high.');
    assert.ok(await page.isVisible('#q2 .why'));
    assert.ok((await canvasStats(page, '#q2 .q-fig canvas')).fraction > 0.01, 'the exercise chart is drawn');
    await assertClean(assert, page, 'exercise 2');
  } finally {
    await closeQuietly(page);
  }
});

test('Enter in a guess box does what the Reveal button does', async () => {
  const { page } = await open('?v=1&view=learn&q=2');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    await page.fill('#q2 .guess input', 'many');
    await page.press('#q2 .guess input', 'Enter');
    assert.match(await page.textContent('#q2 .answer'), /^Your guess/);
    assert.ok(await page.isHidden('#q2 .why'));
    await page.fill('#q2 .guess input', '30');
    await page.press('#q2 .guess input', 'Enter');
    assert.equal(await page.textContent('#q2 .answer'), 'Answer: 21 (your guess 30). Off: 42.9% too high.');
    assert.ok(await page.isVisible('#q2 .why'));
    await assertClean(assert, page, 'Enter in exercise 2');
  } finally {
    await closeQuietly(page);
  }
});

test("a teacher's link (q=) has a lead of its own and offers no answer key, in both languages", async () => {
  for (const [query, words] of [['?v=1&view=learn&q=3', /only the exercises/], ['?v=1&view=learn&q=3&lang=zh', /只显示/]]) {
    const { page } = await open(query);
    try {
      await page.waitForSelector('#learn-content[data-drawn] article.learn');
      assert.ok(await page.isHidden('.learn-lead'), `${query}: not the whole view's lead`);
      assert.ok(await page.isVisible('.learn-lead-q'), `${query}: the set's lead`);
      const lead = await page.textContent('.learn-lead-q');
      assert.match(lead, words);
      // The lead names the link back to the whole view as the page labels it.
      assert.ok(lead.includes(`“${await page.textContent('#learn-all')}”`), `${query}: ${lead}`);
      assert.ok(await page.isHidden('.print-key'), `${query}: no answer key for the students`);
      assert.ok(await page.isVisible('.print-sheet'));
      await assertClean(assert, page, query);
    } finally {
      await closeQuietly(page);
    }
  }
});

test('lang=zh: the Chinese definitions, exercises answered in Chinese, links keep the language', async () => {
  const { page, requests } = await open('?v=1&view=learn&lang=zh&q=7');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn[lang="zh-Hans"]');
    assert.ok(requests.some((p) => /learn-zh-[0-9a-f]+\.html$/.test(p)), requests.join('\n'));
    assert.ok(!requests.some((p) => /learn-en-/.test(p)), requests.join('\n'));
    await page.fill('#q7 .guess input', '2');
    await page.click('#q7 .reveal');
    assert.match(await page.textContent('#q7 .answer'), /^答案：1\.81 倍.*实测：1\.74 倍/);
    assert.match(await page.getAttribute('#q7 a.q-link', 'href'), /lang=zh$/);
    assert.match(await page.getAttribute('#learn-all', 'href'), /view=learn&lang=zh$/);
    await assertClean(assert, page, 'zh exercise 7');
  } finally {
    await closeQuietly(page);
  }
});

test('the Learn view prints as a handout: texts and figures, no controls', async () => {
  const { page } = await open('?v=1&view=learn');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.isHidden('#q1 .reveal'));
    assert.ok(await page.isVisible('#d-amdahl .formula'));
    assert.ok(await page.isVisible('#q1 .why'));
    assert.ok(await page.isHidden('.tabs'));
  } finally {
    await closeQuietly(page);
  }
});

test('print for a class: the answer key has every answer and why, the student sheet none', async () => {
  const { page } = await open('?v=1&view=learn');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    // The print dialog is the browser's; here it only records that it was asked for.
    await page.evaluate(() => { window.printed = 0; window.print = () => { window.printed += 1; }; });
    await page.click('.print-key');
    assert.equal(await page.evaluate(() => window.printed), 1);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.textContent('#q1 .key'), 'Answer: 20×.');
    assert.equal(await page.textContent('#q7 .key'), 'Answer: 1.81×. Measured: 1.74×.');
    assert.equal(await page.textContent('#q13 .key'), 'Answer: mixed.');
    assert.ok(await page.isVisible('#q14 .key'));
    assert.ok(await page.isVisible('#q5 .why'));
    assert.ok((await canvasStats(page, '#q5 .q-fig canvas')).fraction > 0.01, 'the key draws each exercise chart');
    assert.ok(await page.isHidden('#d-amdahl'), 'the key holds the exercises only');
    await page.emulateMedia({ media: 'screen' });
    await page.click('.print-sheet');
    assert.equal(await page.evaluate(() => window.printed), 2);
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.isVisible('#q1 .ask'));
    assert.ok(await page.isHidden('#q1 .why'), 'no why on the student sheet');
    assert.ok(await page.isHidden('#q1 .key'), 'no answer on the student sheet');
    assert.ok(await page.isVisible('#d-amdahl .formula'), 'the definitions are on the sheet');
    await assertClean(assert, page, 'print modes');
  } finally {
    await closeQuietly(page);
  }
});

test('a Learn file a host did not copy is named, and the page goes on', async () => {
  const page = await s.newPage();
  try {
    await page.route(/\/learn-en-[0-9a-f]+\.html$/, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${s.url}?v=1&view=strong`);
    await waitReady(page);
    await page.click('#tab-learn');
    await page.waitForFunction(() => (document.getElementById('learn-status')?.textContent ?? '').includes('could not be loaded'));
    const status = await page.locator('#learn-status').textContent();
    assert.match(status, /^The definitions could not be loaded: learn-en-[0-9a-f]+\.html is missing or blocked \(a copy of the page needs every file of dist\/\); reload the page once it is there\.$/);
    assert.ok(await page.isVisible('#learn-status'));
    await page.click('#tab-strong');
    await page.waitForFunction(() => document.getElementById('tab-strong')?.getAttribute('aria-selected') === 'true');
  } finally {
    await closeQuietly(page);
  }
});

test("a teacher ticks a set: its link, its student sheet and its answer key; the students' link offers no key", async () => {
  const { page } = await open('?v=1&view=learn&lang=zh');
  try {
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    await page.evaluate(() => { window.printed = 0; window.print = () => { window.printed += 1; }; });
    assert.ok(await page.isHidden('#learn-set-link'), 'no link before a tick');
    assert.ok(await page.isDisabled('.print-set-key'));
    for (const q of [7, 5, 13]) await page.check(`#q${q} .q-pick input`);
    const href = await page.getAttribute('#learn-set-link', 'href');
    const query = new URLSearchParams(href.replace(/^\?/, ''));
    assert.equal(query.get('view'), 'learn');
    assert.equal(query.get('q'), '5,7,13', 'in the exercises’ order');
    assert.equal(query.get('lang'), 'zh', "the reader's language goes with it");
    const shown = await page.textContent('#learn-set-link');
    assert.ok(shown.startsWith('http') && shown.endsWith(href), `the whole address to copy: ${shown}`);
    // The set's answer key: those three exercises, each with its answer; nothing else.
    await page.click('.print-set-key');
    assert.equal(await page.evaluate(() => window.printed), 1);
    await page.emulateMedia({ media: 'print' });
    for (const q of [5, 7, 13]) assert.ok(await page.isVisible(`#q${q} .key`), `exercise ${q}'s answer`);
    assert.match(await page.textContent('#q13 .key'), /^答案：/);
    for (const q of [1, 6, 14]) assert.ok(await page.isHidden(`#q${q}`), `exercise ${q} is not in the set`);
    assert.ok(await page.isHidden('#d-amdahl'));
    assert.ok(await page.isHidden('.learn-set'), 'no controls on paper');
    // The set's student sheet: the three questions, no answer.
    await page.emulateMedia({ media: 'screen' });
    await page.click('.print-set-sheet');
    await page.emulateMedia({ media: 'print' });
    assert.ok(await page.isVisible('#q7 .ask'));
    assert.ok(await page.isHidden('#q7 .key'));
    assert.ok(await page.isHidden('#q1'));
    // Unticking all disables the set again.
    await page.emulateMedia({ media: 'screen' });
    for (const q of [5, 7, 13]) await page.uncheck(`#q${q} .q-pick input`);
    assert.ok(await page.isHidden('#learn-set-link'));
    assert.ok(await page.isDisabled('.print-set-sheet'));
    // The students' link: the set's exercises, no key button, no set controls.
    await page.goto(`${s.url}${href}`);
    await waitReady(page);
    await page.waitForSelector('#learn-content[data-drawn] article.learn');
    assert.ok(await page.isVisible('#q7'));
    assert.ok(await page.isHidden('#q1'));
    for (const sel of ['.print-key', '.print-set-key', '.learn-set', '#q7 .q-pick']) {
      assert.ok(await page.isHidden(sel), `${sel} is not offered to students`);
    }
    await assertClean(assert, page, 'teacher set');
  } finally {
    await closeQuietly(page);
  }
});
