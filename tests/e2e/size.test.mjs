// 1. Size budget: the gzipped wasm + JS that a visitor downloads stays under 150 KiB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, constants } from 'node:zlib';
import { DIST, assertDist } from './harness.mjs';

const BUDGET = 150 * 1024;

test('gzipped dist/*.wasm + dist/*.js is at most 150 KiB', () => {
  const files = assertDist().filter((f) => f.endsWith('.wasm') || f.endsWith('.js')).sort();
  assert.ok(files.some((f) => f.endsWith('.js')), `no .js file in ${DIST}`);
  let total = 0;
  const lines = [];
  for (const f of files) {
    const raw = readFileSync(path.join(DIST, f));
    const gz = gzipSync(raw, { level: constants.Z_BEST_COMPRESSION }).length;
    total += gz;
    lines.push(`  ${f}: ${raw.length} B raw, ${gz} B gzip`);
  }
  const summary = `gzipped wasm+js: ${total} B = ${(total / 1024).toFixed(1)} KiB (budget ${BUDGET / 1024} KiB)`;
  console.log([...lines, summary].join('\n'));
  assert.ok(total <= BUDGET, summary);
});
