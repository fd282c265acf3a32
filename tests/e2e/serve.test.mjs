// scripts/serve.mjs itself: MIME types, 404s, path traversal, sub-path base, CSP header.
// No browser and no dist/ needed (it serves a temporary directory).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { startServer } from '../../scripts/serve.mjs';

let root;
let outside;
before(() => {
  const top = mkdtempSync(path.join(tmpdir(), 'serve-test-'));
  root = path.join(top, 'site');
  outside = top;
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><p>home');
  writeFileSync(path.join(root, 'app.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  writeFileSync(path.join(root, 'app.js'), 'export {}');
  writeFileSync(path.join(root, 'style.css'), 'p{}');
  writeFileSync(path.join(root, 'sub', 'index.html'), 'sub');
  writeFileSync(path.join(top, 'secret.txt'), 'secret');
});
after(() => rmSync(outside, { recursive: true, force: true }));

// Raw request (no client-side URL normalisation, so '..' reaches the server as sent).
function get(port, rawPath) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { body += c; });
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('serves files with the right MIME types and 404s the rest', async () => {
  const srv = await startServer({ dir: root, port: 0 });
  try {
    assert.match(srv.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const cases = [
      ['/', 200, /^text\/html/],
      ['/index.html', 200, /^text\/html/],
      ['/app.wasm', 200, /^application\/wasm$/],
      ['/app.js', 200, /^text\/javascript/],
      ['/style.css', 200, /^text\/css/],
      ['/sub/', 200, /^text\/html/],
      ['/missing.js', 404, /^text\/plain/],
    ];
    for (const [p, status, type] of cases) {
      const r = await get(srv.port, p);
      assert.equal(r.status, status, p);
      assert.match(r.type, type, `${p}: ${r.type}`);
    }
    assert.equal((await get(srv.port, '/sub')).status, 301, 'directory without slash redirects');
  } finally {
    await srv.close();
  }
});

test('never serves files outside the directory', async () => {
  const srv = await startServer({ dir: root, port: 0 });
  try {
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/sub/..%2f..%2fsecret.txt', '/%2e%2e%5csecret.txt', '/%00']) {
      const r = await get(srv.port, p);
      assert.ok([400, 403, 404].includes(r.status), `${p} -> ${r.status}`);
      assert.ok(!r.body.includes('secret'), `${p} leaked the file`);
    }
  } finally {
    await srv.close();
  }
});

test('--base serves under a sub-path only; --csp sets the header', async () => {
  const csp = "default-src 'self'";
  const srv = await startServer({ dir: root, port: 0, base: '/docs/deep/', csp });
  try {
    assert.ok(srv.url.endsWith('/docs/deep/'));
    const home = await get(srv.port, '/docs/deep/');
    assert.equal(home.status, 200);
    assert.equal(home.headers['content-security-policy'], csp);
    assert.equal((await get(srv.port, '/docs/deep/app.wasm')).type, 'application/wasm');
    assert.equal((await get(srv.port, '/app.wasm')).status, 404, 'outside the base');
    assert.equal((await get(srv.port, '/docs/deep')).status, 301, 'bare base redirects to base/');
    assert.equal((await get(srv.port, '/docs/deep/../../secret.txt')).status, 404);
  } finally {
    await srv.close();
  }
});
