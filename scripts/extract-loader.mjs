#!/usr/bin/env node
// Trunk post_build hook: moves every inline <script> of the staged HTML into its own file, so
// the page runs under a strict Content-Security-Policy without 'unsafe-inline' or hashes:
//
//   default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:
//
// Trunk writes its wasm loader as an inline `<script type="module">…</script>`, which such a
// policy blocks. Registered in Trunk.toml:
//
//   [[hooks]]
//   stage = "post_build"
//   command = "node"
//   command_arguments = ["scripts/extract-loader.mjs"]
//
// Trunk runs post_build hooks after it has written index.html into its staging directory and
// before that directory replaces dist/; it passes TRUNK_STAGING_DIR and TRUNK_PUBLIC_URL.
// Each inline script (module or classic; data blocks such as application/json are left alone)
// becomes `<prefix>-<hash>.js` next to index.html — `loader-` for module scripts, `inline-`
// for classic ones — referenced as `<script type="module" src="./loader-<hash>.js"
// integrity="sha384-…">`, with the public URL as the prefix (Trunk.toml's `./`, so the page
// still works from any sub-path). Relative imports inside a moved module resolve the same way
// as before, since the file sits next to index.html. The content hash keeps long-term caching
// safe. Running it twice is harmless: the second run finds no inline script.
//
//   node scripts/extract-loader.mjs [--dir DIR]    (default: $TRUNK_STAGING_DIR)
//
// Also a module: extractInlineScripts(html, { publicUrl }) -> { html, files: [{ name, content }] }.

import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const JS_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'javascript']);

function attrValue(attrs, name) {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attrs);
  if (m) return m[1] ?? m[2] ?? m[3] ?? '';
  return new RegExp(`(?:^|\\s)${name}(?=\\s|$)`, 'i').test(attrs) ? '' : null;
}

function normalisePublicUrl(url) {
  let u = (url ?? '').trim() || './';
  if (!u.endsWith('/')) u += '/';
  return u;
}

/**
 * Moves each inline JavaScript <script> of `html` into a file. Returns the new HTML and the
 * files to write (names relative to the HTML file's directory).
 */
export function extractInlineScripts(html, { publicUrl = './' } = {}) {
  const prefix = normalisePublicUrl(publicUrl);
  const files = [];
  const out = html.replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (whole, attrs, body) => {
    if (attrValue(attrs, 'src') !== null) return whole; // already external
    const type = (attrValue(attrs, 'type') ?? '').trim().toLowerCase();
    if (!JS_TYPES.has(type)) return whole; // a data block (JSON, template): never executed
    if (body.trim() === '') return ''; // nothing to run
    const content = body.replace(/^\s*\n/, '').replace(/\s+$/, '') + '\n';
    // A classic script that does not parse would never run, silently: the build fails instead
    // (a `//` comment in an inline script swallows the rest once the page is minified).
    if (type !== 'module') {
      try {
        new Script(content);
      } catch (e) {
        throw new Error(`an inline script does not parse (${e.message}): ${content.slice(0, 120)}…`);
      }
    }
    const hash = createHash('sha256').update(content).digest('hex').slice(0, 16);
    const name = `${type === 'module' ? 'loader' : 'inline'}-${hash}.js`;
    const integrity = 'sha384-' + createHash('sha384').update(content).digest('base64');
    if (!files.some((f) => f.name === name)) files.push({ name, content });
    // Keep the other attributes (type, nonce, data-*); a classic script keeps its blocking,
    // in-order semantics as a parser-inserted external script without async/defer.
    const kept = attrs.replace(/\s+(integrity|crossorigin)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '').trimEnd();
    return `<script${kept} src="${prefix}${name}" integrity="${integrity}"></script>`;
  });
  return { html: out, files };
}

/** Rewrites every .html file directly in `dir`; returns what was moved. */
export function extractInDir(dir, { publicUrl } = {}) {
  const moved = [];
  for (const entry of readdirSync(dir)) {
    if (!entry.toLowerCase().endsWith('.html')) continue;
    const file = path.join(dir, entry);
    const html = readFileSync(file, 'utf8');
    const { html: out, files } = extractInlineScripts(html, { publicUrl });
    if (files.length === 0 && out === html) continue;
    for (const f of files) writeFileSync(path.join(dir, f.name), f.content);
    writeFileSync(file, out);
    moved.push({ html: entry, scripts: files.map((f) => f.name) });
  }
  return moved;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  let dir = process.env.TRUNK_STAGING_DIR;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--dir') dir = args[++i];
    else if (args[i].startsWith('--dir=')) dir = args[i].slice(6);
    else {
      console.error(`extract-loader: unknown argument ${args[i]}`);
      process.exit(2);
    }
  }
  if (!dir) {
    console.error('extract-loader: no directory (run as a Trunk post_build hook, or pass --dir DIR)');
    process.exit(2);
  }
  try {
    const moved = extractInDir(dir, { publicUrl: process.env.TRUNK_PUBLIC_URL });
    for (const m of moved) console.log(`extract-loader: ${m.html}: inline script(s) → ${m.scripts.join(', ')}`);
    if (moved.length === 0) console.log(`extract-loader: no inline script in ${dir}`);
  } catch (e) {
    console.error(`extract-loader: ${e.message}`);
    process.exit(1);
  }
}
