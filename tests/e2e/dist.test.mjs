// What a build writes is what docs/embedding.md tells a host to copy: the table between its
// `<!-- dist:files -->` markers names every file of dist/, each hash written `<hash>`, and
// nothing else. A host that copied only the files a stale list named got a Learn view and an
// importer that could not load, with no word of which file was missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DIST, assertDist } from './harness.mjs';

const DOC = path.join(path.dirname(new URL(import.meta.url).pathname), '../../docs/embedding.md');

/** The file names of the docs' table, in order. */
function documented() {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf('<!-- dist:files -->');
  const end = text.indexOf('<!-- /dist:files -->');
  assert.ok(start >= 0 && end > start, 'docs/embedding.md has its dist:files markers');
  return [...text.slice(start, end).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
}

test('docs/embedding.md lists every file the build writes to dist/, and only those', () => {
  assertDist();
  const built = readdirSync(DIST)
    .map((f) => f.replace(/-[0-9a-f]{8,16}(?=[._])/, '-<hash>'))
    .sort();
  const listed = documented();
  assert.equal(new Set(listed).size, listed.length, 'no file listed twice');
  assert.deepEqual([...listed].sort(), built, 'dist/ against the docs table');
});
