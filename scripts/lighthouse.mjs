#!/usr/bin/env node
// Lighthouse (npm lighthouse@12.2.3, Debian's chromium) against the release build: the
// accessibility and best-practices scores of the page's main views. `make lighthouse` runs it
// after a build; docs/accessibility.md records the scores.
//
//   node scripts/lighthouse.mjs [--dir dist] [--min 95] [QUERY ...]
//
// Serves --dir on a free port of 127.0.0.1 (scripts/serve.mjs), then for each query (default
// `?v=1`, `?v=1&view=strong`, `?v=1&view=plan`) runs
//
//   CHROME_PATH=/usr/bin/chromium lighthouse 'http://127.0.0.1:PORT/?v=1' \
//     --only-categories=accessibility,best-practices \
//     --chrome-flags="--headless=new --no-sandbox" --output=json
//
// writes each report to test-results/lighthouse/<n>.json, prints one line of scores per page
// and every audit that did not pass, and exits 1 if a score is below --min (default 95).

import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServer } from './serve.mjs';

const run = promisify(execFile);
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CATEGORIES = ['accessibility', 'best-practices'];
const DEFAULT_QUERIES = ['?v=1', '?v=1&view=strong', '?v=1&view=plan'];

const args = process.argv.slice(2);
let dir = path.join(REPO, 'dist');
let min = 95;
const queries = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--dir') dir = path.resolve(args[++i]);
  else if (args[i] === '--min') min = Number(args[++i]);
  else if (args[i] === '-h' || args[i] === '--help') {
    console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 16).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
    process.exit(0);
  } else queries.push(args[i]);
}
if (!queries.length) queries.push(...DEFAULT_QUERIES);
if (!existsSync(path.join(dir, 'index.html'))) {
  console.error(`lighthouse: ${dir}/index.html is missing: run \`make build\` first`);
  process.exit(2);
}
const lighthouse = path.join(REPO, 'node_modules', '.bin', 'lighthouse');
if (!existsSync(lighthouse)) {
  console.error('lighthouse: node_modules/.bin/lighthouse is missing: run scripts/bootstrap.sh');
  process.exit(2);
}
const env = { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' };
const outDir = path.join(REPO, 'test-results', 'lighthouse');
rmSync(outDir, { recursive: true, force: true }); // no report of an earlier run left beside these
mkdirSync(outDir, { recursive: true });

const server = await startServer({ dir, port: 0, host: '127.0.0.1' });
let failed = false;
try {
  console.log(`lighthouse 12 (${env.CHROME_PATH}) against ${dir} at ${server.url}; minimum score ${min}`);
  for (const [i, query] of queries.entries()) {
    const url = server.url + query;
    const out = path.join(outDir, `${i + 1}.json`);
    const flags = [
      url,
      `--only-categories=${CATEGORIES.join(',')}`,
      '--chrome-flags=--headless=new --no-sandbox',
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
    ];
    try {
      await run(lighthouse, flags, { env, maxBuffer: 64 << 20, timeout: 300_000 });
    } catch (e) {
      console.error(`lighthouse: ${query}: ${e.message}`);
      failed = true;
      continue;
    }
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const scores = CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? 0) * 100)]);
    console.log(`${query.padEnd(24)} ${scores.map(([c, s]) => `${c} ${s}`).join('  ')}  (${path.relative(REPO, out)})`);
    for (const c of CATEGORIES) {
      for (const ref of report.categories[c]?.auditRefs ?? []) {
        const audit = report.audits[ref.id];
        if (audit && audit.score !== null && audit.score < 1) {
          console.log(`    not passed: ${ref.id} (weight ${ref.weight}): ${audit.title}`);
        }
      }
    }
    if (scores.some(([, s]) => s < min)) failed = true;
  }
} finally {
  await server.close();
}
if (failed) {
  console.error(`lighthouse: FAIL (a score below ${min}, or a run that did not finish)`);
  process.exit(1);
}
console.log('lighthouse: PASS');
