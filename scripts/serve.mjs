#!/usr/bin/env node
// A tiny dependency-free static file server for dist/ (the Trunk release build).
//
//   node scripts/serve.mjs [--dir dist] [--port 8080] [--host 127.0.0.1]
//                          [--base /some/sub/path/] [--csp 'header value']
//
// - correct MIME types (application/wasm for .wasm, so streaming compilation works)
// - 404 for anything else, 403/400 for traversal or malformed paths; never leaves --dir
// - --base serves the directory under a sub-path (to check that asset URLs are relative);
//   requests outside the base are 404, the bare base without a trailing slash redirects
// - --csp sets a Content-Security-Policy header on every response
// - text, scripts, styles and wasm go gzipped to a client that accepts it, as a static host
//   sends them (so Lighthouse and make bench measure what a reader downloads)
//
// Also a module: `startServer({ dir, port: 0, host, base, csp })` resolves to
// `{ url, port, close }`, where url is the page URL (including base, ending in '/').

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat, realpath, readFile } from 'node:fs/promises';
import { gzipSync, constants } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

function normaliseBase(base) {
  let b = base || '/';
  if (!b.startsWith('/')) b = '/' + b;
  if (!b.endsWith('/')) b += '/';
  return b.replace(/\/{2,}/g, '/');
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
  res.end(body);
}

/** Resolves a request to a file under root, or returns an HTTP status for the failure. */
async function resolveFile(root, base, rawUrl) {
  let pathname;
  try {
    pathname = new URL(rawUrl, 'http://localhost').pathname;
  } catch {
    return { status: 400 };
  }
  if (!pathname.startsWith(base)) {
    return pathname + '/' === base ? { status: 301, location: base } : { status: 404 };
  }
  let rel;
  try {
    rel = decodeURIComponent(pathname.slice(base.length));
  } catch {
    return { status: 400 };
  }
  if (rel.includes('\0') || rel.includes('\\')) return { status: 400 };
  // Reject any '..' segment outright rather than normalising it away.
  if (rel.split('/').some((seg) => seg === '..')) return { status: 403 };
  let file = path.resolve(root, '.' + path.posix.sep + rel);
  if (file !== root && !file.startsWith(root + path.sep)) return { status: 403 };
  try {
    let st = await stat(file);
    if (st.isDirectory()) {
      if (rel !== '' && !rel.endsWith('/')) {
        return { status: 301, location: pathname + '/' };
      }
      file = path.join(file, 'index.html');
      st = await stat(file);
    }
    if (!st.isFile()) return { status: 404 };
    // Symlinks must not lead out of root either.
    const real = await realpath(file);
    if (real !== root && !real.startsWith(root + path.sep)) return { status: 403 };
    return { status: 200, file, size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return { status: 404 };
  }
}

/** The types a static host compresses: text, scripts, styles, data and wasm. */
const COMPRESSIBLE = /^(text\/|application\/(json|wasm|xml|manifest\+json)|image\/svg\+xml)/;
const gzipCache = new Map();

/** `file` gzipped at level 9, kept while its modification time stays the same. */
async function gzipped(file, mtimeMs) {
  const hit = gzipCache.get(file);
  if (hit && hit.mtimeMs === mtimeMs) return hit.body;
  const body = gzipSync(await readFile(file), { level: constants.Z_BEST_COMPRESSION });
  gzipCache.set(file, { mtimeMs, body });
  return body;
}

/**
 * Starts the server. Resolves to { url, port, close } once listening.
 * @param {{dir?: string, port?: number, host?: string, base?: string, csp?: string, quiet?: boolean}} opts
 */
export async function startServer({
  dir = 'dist',
  port = 0,
  host = '127.0.0.1',
  base = '/',
  csp,
  quiet = true,
} = {}) {
  const root = await realpath(path.resolve(dir));
  const b = normaliseBase(base);
  const extra = csp ? { 'Content-Security-Policy': csp } : {};

  const server = createServer(async (req, res) => {
    const log = (status) => {
      if (!quiet) console.log(`${status} ${req.method} ${req.url}`);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      log(405);
      return send(res, 405, 'method not allowed\n', { Allow: 'GET, HEAD', ...extra });
    }
    const r = await resolveFile(root, b, req.url || '/');
    log(r.status);
    if (r.status === 301) {
      return send(res, 301, '', { Location: r.location, ...extra });
    }
    if (r.status !== 200) {
      const text = { 400: 'bad request', 403: 'forbidden', 404: 'not found' }[r.status] || 'error';
      return send(res, r.status, text + '\n', extra);
    }
    const type = MIME[path.extname(r.file).toLowerCase()] || 'application/octet-stream';
    const headers = {
      'Content-Type': type,
      'Content-Length': r.size,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      ...extra,
    };
    // Gzip, as every static host serves text (GitHub Pages, Netlify, a CDN): a page measured
    // uncompressed (Lighthouse, make bench) would load as no reader's does. Level 9, the one
    // the size budget is counted in (tests/e2e/size.test.mjs).
    if (COMPRESSIBLE.test(type) && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      const body = await gzipped(r.file, r.mtimeMs);
      res.writeHead(200, { ...headers, 'Content-Length': body.length, 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' });
      return res.end(req.method === 'HEAD' ? undefined : body);
    }
    res.writeHead(200, { ...headers, ...(COMPRESSIBLE.test(type) ? { Vary: 'Accept-Encoding' } : {}) });
    if (req.method === 'HEAD') return res.end();
    const stream = createReadStream(r.file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = server.address().port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${actual}${b}`;
  const close = () =>
    new Promise((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    });
  return { url, port: actual, close, server };
}

function parseArgs(argv) {
  const opts = { dir: 'dist', port: 8080, host: '127.0.0.1', base: '/', csp: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    switch (flag) {
      case '--dir': opts.dir = value(); break;
      case '--port': {
        const v = value();
        opts.port = Number(v);
        if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error(`bad --port ${v}`);
        break;
      }
      case '--host': opts.host = value(); break;
      case '--base': opts.base = value(); break;
      case '--csp': opts.csp = value(); break;
      case '-h':
      case '--help':
        console.log('usage: node scripts/serve.mjs [--dir dist] [--port 8080] [--host 127.0.0.1] [--base /sub/path/] [--csp VALUE]');
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${a}`);
    }
  }
  return opts;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`serve: ${e.message}`);
    process.exit(2);
  }
  try {
    const { url, close } = await startServer({ ...opts, quiet: false });
    console.log(`serving ${path.resolve(opts.dir)} at ${url}`);
    const stop = () => close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (e) {
    console.error(`serve: ${e.message}`);
    process.exit(1);
  }
}
