#!/usr/bin/env node
// Offline single-file build: turns a Trunk dist/ into ONE self-contained HTML file that opens
// straight from disk (file://), where browsers refuse to fetch a separate .wasm.
//
//   node scripts/single-file.mjs [--dist dist] [--out dist-single/scaling-explorer.html]
//   make single-file
//
// What it does to dist/index.html:
// - drops Trunk's loader (the inline <script type="module"> that imports the wasm-bindgen JS, or
//   an external loader script that does) and the modulepreload / preload links, and puts in its
//   place an inline module script that does what Trunk's loader does:
//     import init, * as bindings from '<the wasm-bindgen JS as a data: URL>';
//     const wasm = await init({ module_or_path: <the wasm bytes, decoded from base64> });
//     window.wasmBindings = bindings;
//     dispatchEvent(new CustomEvent('TrunkApplicationStarted', { detail: { wasm } }));
//   (the app's #[wasm_bindgen(start)] runs inside init);
// - inlines every stylesheet as <style> (url(...) references to dist files become data: URLs);
// - turns every other attribute that points at a dist file (the favicon, images) into a data: URL;
// - drops `integrity` / `crossorigin` attributes of what it inlined;
// - writes the runs module (crates/runs, which the page adds on first use) into its
//   <meta name="runs-module"> as a data: URL module that starts it on its embedded wasm;
// - fails if any dist file name is still referenced afterwards, so nothing is fetched at run time.
//
// No dependencies beyond Node >= 20. Also a module:
//   buildSingleFile({ dist, out }) -> { out, bytes, gzipBytes, wasmBytes, jsBytes }

import { readFileSync, readdirSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync, constants } from 'node:zlib';
import { createHash } from 'node:crypto';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const MIME = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.txt': 'text/plain',
  '.webmanifest': 'application/manifest+json',
};

function fail(msg) {
  const e = new Error(msg);
  e.singleFile = true;
  throw e;
}

/** All files under dir, as posix paths relative to dir. */
function listFiles(dir, rel = '') {
  const out = [];
  for (const ent of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${ent.name}` : ent.name;
    if (ent.isDirectory()) out.push(...listFiles(dir, r));
    else if (ent.isFile()) out.push(r);
  }
  return out;
}

/**
 * The dist file a reference in index.html (or in a CSS file at `fromDir`) points to, or null
 * when it is not a relative reference to an existing file (absolute URL, data:, #frag, ?query).
 */
function distFile(files, ref, fromDir = '') {
  if (!ref) return null;
  const r = ref.trim();
  if (r === '' || r.startsWith('#') || r.startsWith('?') || r.startsWith('//')) return null;
  if (/^[a-z][a-z0-9+.-]*:/i.test(r)) return null; // http:, data:, blob:, mailto:, ...
  const clean = r.replace(/[?#].*$/, '');
  let p;
  try {
    p = decodeURIComponent(clean);
  } catch {
    return null;
  }
  p = path.posix.normalize(path.posix.join(fromDir, p.startsWith('/') ? p.slice(1) : p));
  return files.includes(p) ? p : null;
}

function dataUrl(dist, file) {
  const type = MIME[path.extname(file).toLowerCase()] || 'application/octet-stream';
  return `data:${type};base64,${readFileSync(path.join(dist, file)).toString('base64')}`;
}

/** Reads one attribute of a start tag (quoted or bare), or undefined. */
function attr(tag, name) {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

function dropAttrs(tag, names) {
  let t = tag;
  for (const n of names) t = t.replace(new RegExp(`\\s${n}(?:\\s*=\\s*(?:"[^"]*"|'[^']*'|[^\\s"'>]+))?(?=[\\s/>])`, 'ig'), '');
  return t;
}

function setAttr(tag, name, value) {
  const re = new RegExp(`(\\s${name}\\s*=\\s*)(?:"[^"]*"|'[^']*'|[^\\s"'>]+)`, 'i');
  return tag.replace(re, (_, pre) => `${pre}"${value.replace(/"/g, '&quot;')}"`);
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** CSS with url(...) references to dist files replaced by data: URLs. */
function inlineCssUrls(dist, files, css, cssFile) {
  const fromDir = path.posix.dirname(cssFile) === '.' ? '' : path.posix.dirname(cssFile);
  return css.replace(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s]*))\s*\)/g, (whole, a, b, c) => {
    const f = distFile(files, a ?? b ?? c, fromDir);
    return f ? `url("${dataUrl(dist, f)}")` : whole;
  });
}

/**
 * Finds the wasm-bindgen pair the single file starts: the full module's (crates/full,
 * full-<hash>.js next to full-<hash>_bg.wasm), which holds everything the first view's module
 * holds and the Learn view and the exports besides, so a file that embeds it never hands over
 * (crates/web/src/handover.rs) and needs no second copy of the page.
 */
function findBindgen(files) {
  const wasm = files.filter((f) => /^full-[0-9a-f]+_bg\.wasm$/.test(f));
  const pairs = wasm.map((w) => ({ wasm: w, js: w.replace(/_bg\.wasm$/, '.js') })).filter((p) => files.includes(p.js));
  if (pairs.length !== 1) {
    fail(`expected exactly one full-<hash>.js + full-<hash>_bg.wasm pair in the dist dir, found ${pairs.length}: ${JSON.stringify(wasm)}`);
  }
  return pairs[0];
}

/**
 * The runs module's loader as a data: URL module: its wasm-bindgen JS imported from a data:
 * URL and started on the embedded wasm, as the loader the page adds on first use does from
 * files (crates/web/src/runs.rs reads the URL from <meta name="runs-module">).
 */
function runsLoaderUrl(dist, files) {
  const js = files.find((f) => /^runs-[0-9a-f]+\.js$/.test(f));
  const wasm = js && js.replace(/\.js$/, '_bg.wasm');
  if (!js || !files.includes(wasm)) fail(`no runs-<hash>.js with its runs-<hash>_bg.wasm in ${dist}`);
  const jsUrl = `data:text/javascript;base64,${readFileSync(path.join(dist, js)).toString('base64')}`;
  const module = `import init from '${jsUrl}';
const bin = atob('${readFileSync(path.join(dist, wasm)).toString('base64')}');
const bytes = new Uint8Array(bin.length);
for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
await init({ module_or_path: bytes });
`;
  return `data:text/javascript;base64,${Buffer.from(module, 'utf8').toString('base64')}`;
}

/** The loader that replaces Trunk's: same calls, but from embedded bytes. */
function loaderScript(jsSource, wasmBytes) {
  const jsUrl = `data:text/javascript;base64,${Buffer.from(jsSource, 'utf8').toString('base64')}`;
  const wasmB64 = wasmBytes.toString('base64');
  return `<script type="module">
// Offline single-file build (scripts/single-file.mjs): the wasm-bindgen module and the wasm are
// embedded; this does what Trunk's loader does, from the embedded bytes instead of fetches.
import init, * as bindings from '${jsUrl}';
const b64 = '${wasmB64}';
const bin = atob(b64);
const bytes = new Uint8Array(bin.length);
for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
const wasm = await init({ module_or_path: bytes });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));
</script>`;
}

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * If index.html carries <meta http-equiv="Content-Security-Policy">, adds what the single file
 * needs: the hashes of the inline scripts and styles plus `data:` for the embedded module
 * (script-src) and for icons/images (img-src). Directives that are absent fall back to
 * default-src as CSP does, so they are only written when default-src exists.
 */
function amendMetaCsp(html) {
  const scripts = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script\s*>/gi)].map((m) => sha256(m[1]));
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi)].map((m) => sha256(m[1]));
  const need = { 'script-src': [...scripts, 'data:'], 'style-src': styles, 'img-src': ['data:'] };
  let amended = false;
  const out = html.replace(/<meta\b[^>]*http-equiv\s*=\s*["']?content-security-policy["']?[^>]*>/gi, (tag) => {
    const content = attr(tag, 'content');
    if (content === undefined) return tag;
    const dirs = content.replace(/&#39;|&apos;/g, "'").replace(/&quot;/g, '"').split(';').map((d) => d.trim()).filter(Boolean)
      .map((d) => d.split(/\s+/));
    const find = (name) => dirs.find((d) => d[0].toLowerCase() === name);
    const dflt = find('default-src');
    for (const [name, add] of Object.entries(need)) {
      let d = find(name);
      if (!d) {
        if (!dflt) continue;
        d = [name, ...dflt.slice(1)];
        dirs.push(d);
      }
      if (d.includes("'none'")) d.splice(d.indexOf("'none'"), 1);
      // A hash switches 'unsafe-inline' off (style="" attributes would break), so where
      // 'unsafe-inline' is allowed already only the non-hash sources are added.
      const inline = d.includes("'unsafe-inline'");
      for (const src of add) if (!d.includes(src) && !(inline && src.startsWith("'sha"))) d.push(src);
    }
    amended = true;
    return setAttr(tag, 'content', dirs.map((d) => d.join(' ')).join('; '));
  });
  return { html: out, amended };
}

/**
 * Builds the single file. Returns sizes; `out` is written (its directory created).
 * @param {{dist?: string, out?: string, quiet?: boolean}} opts
 */
export function buildSingleFile({ dist = path.join(REPO, 'dist'), out = path.join(REPO, 'dist-single', 'scaling-explorer.html') } = {}) {
  dist = path.resolve(dist);
  out = path.resolve(out);
  let files;
  try {
    if (!statSync(path.join(dist, 'index.html')).isFile()) throw new Error();
    files = listFiles(dist);
  } catch {
    fail(`${dist}/index.html is missing: run \`make build\` (trunk build --release --offline) first`);
  }
  const { js, wasm } = findBindgen(files);
  const jsSource = readFileSync(path.join(dist, js), 'utf8');
  const wasmBytes = readFileSync(path.join(dist, wasm));

  // A data: URL module cannot resolve relative imports (wasm-bindgen snippets / inline_js).
  const relImport = /(?:^|[;\s])(?:import|export)\s[^;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/m.exec(jsSource);
  if (relImport) {
    fail(`${js} imports ${relImport[1] ?? relImport[2]}: wasm-bindgen snippets are not supported by the single-file build`);
  }

  let html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const jsRe = new RegExp(escapeRe(path.posix.basename(js)));
  const wasmRe = new RegExp(escapeRe(path.posix.basename(wasm)));

  // 1. Trunk's loader: inline module scripts importing the bindgen JS, or external scripts
  //    (an extracted loader, or the bindgen JS itself) that do. The first one found is replaced
  //    by our loader; any further ones are dropped.
  let loaderPlaced = false;
  const removedScripts = [];
  html = html.replace(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi, (whole, attrs, body) => {
    const src = attr(`<script${attrs}>`, 'src');
    let isLoader = false;
    if (src) {
      const f = distFile(files, src);
      if (f === js) isLoader = true;
      else if (f && /\.m?js$/.test(f)) {
        const text = readFileSync(path.join(dist, f), 'utf8');
        isLoader = jsRe.test(text) || wasmRe.test(text);
        if (!isLoader) return `<script${dropAttrs(setAttr(attrs, 'src', dataUrl(dist, f)), ['integrity', 'crossorigin'])}>${body}</script>`;
      }
    } else {
      isLoader = jsRe.test(body) || wasmRe.test(body);
    }
    if (!isLoader) return whole;
    removedScripts.push(src || '(inline)');
    if (loaderPlaced) return '';
    loaderPlaced = true;
    return loaderScript(jsSource, wasmBytes);
  });
  if (!loaderPlaced) {
    fail(`no loader script importing ${js} found in ${dist}/index.html (has Trunk's output format changed?)`);
  }

  // 2. <link> tags: preloads of the JS / wasm go; stylesheets become <style>; anything else that
  //    points at a dist file (icons) gets a data: URL.
  html = html.replace(/<link\b[^>]*>/gi, (tag) => {
    const rel = (attr(tag, 'rel') || '').toLowerCase().split(/\s+/);
    const f = distFile(files, attr(tag, 'href'));
    if (!f) return tag;
    if (rel.includes('modulepreload') || rel.includes('preload') || rel.includes('prefetch')) {
      // The first view's module among them: the single file starts the full one.
      if (/\.(m?js|wasm)$/.test(f)) return '';
    }
    if (rel.includes('stylesheet')) {
      const css = inlineCssUrls(dist, files, readFileSync(path.join(dist, f), 'utf8'), f);
      const media = attr(tag, 'media');
      return `<style${media ? ` media="${media}"` : ''}>\n${css.replace(/<\/style/gi, '<\\/style')}\n</style>`;
    }
    return dropAttrs(setAttr(tag, 'href', dataUrl(dist, f)), ['integrity', 'crossorigin']);
  });

  // 2b. The Chinese catalogue (scripts/zh-catalogue.mjs) the page fetches for Chinese readers,
  //     and the Learn view's texts (scripts/learn-files.mjs): data: URLs, which fetch() reads
  //     from a file:// page too.
  html = html.replace(/<meta\b[^>]*name="(zh-catalogue|learn-en|learn-zh)"[^>]*>/gi, (tag, name) => {
    const f = distFile(files, attr(tag, 'content'));
    if (!f) return tag;
    const text = readFileSync(path.join(dist, f));
    return `<meta name="${name}" content="data:text/plain;charset=utf-8;base64,${text.toString('base64')}">`;
  });

  // 2c. The full module is the one this file starts: nothing to hand over to.
  html = html.replace(/<meta\b[^>]*name="full-module"[^>]*>/gi, '');
  // 2d. The runs module (crates/runs), which the page adds as a module script on first use.
  html = html.replace(/<meta\b[^>]*name="runs-module"[^>]*>/gi, () => `<meta name="runs-module" content="${runsLoaderUrl(dist, files)}">`);

  // 3. Inline <style> blocks and style="" with url(...), and src=/poster= attributes (images).
  html = html.replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, (_, open, css, close) =>
    `${open}${inlineCssUrls(dist, files, css, 'index.html')}${close}`);
  html = html.replace(/<(img|source|video|audio|input|image|use)\b[^>]*>/gi, (tag) => {
    let t = tag;
    for (const name of ['src', 'poster', 'href', 'xlink:href']) {
      const f = distFile(files, attr(t, name));
      if (f) t = setAttr(t, name, dataUrl(dist, f));
    }
    return t;
  });

  // 4. Nothing may still point at a dist file.
  const leftovers = files
    .filter((f) => f !== 'index.html')
    .filter((f) => new RegExp(`["'(/]\\.?/?${escapeRe(f)}["')?#]`).test(html));
  if (leftovers.length) {
    fail(`still referenced after inlining (would be fetched at run time): ${leftovers.join(', ')}`);
  }

  // 5. A <meta> Content-Security-Policy (if the build has one) must now allow what was inlined.
  const csp = amendMetaCsp(html);
  html = csp.html;

  html = html.replace(/^(<!doctype html>\s*)?/i, (m) => `${m || '<!doctype html>\n'}<!-- Offline single-file build of ${path.basename(dist)}/index.html (scripts/single-file.mjs); opens from disk. -->\n`);

  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, html);
  const buf = Buffer.from(html, 'utf8');
  return {
    out,
    bytes: buf.length,
    gzipBytes: gzipSync(buf, { level: constants.Z_BEST_COMPRESSION }).length,
    wasmBytes: wasmBytes.length,
    jsBytes: Buffer.byteLength(jsSource),
    removedScripts,
    cspAmended: csp.amended,
  };
}

function parseArgs(argv) {
  const opts = { dist: path.join(REPO, 'dist'), out: path.join(REPO, 'dist-single', 'scaling-explorer.html') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const eq = a.indexOf('=');
    const [flag, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`);
      return argv[++i];
    };
    switch (flag) {
      case '--dist': opts.dist = value(); break;
      case '--out': opts.out = value(); break;
      case '-h':
      case '--help':
        console.log('usage: node scripts/single-file.mjs [--dist dist] [--out dist-single/scaling-explorer.html]');
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
  try {
    const r = buildSingleFile(parseArgs(process.argv.slice(2)));
    const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
    const shown = path.relative(process.cwd(), r.out);
    console.log(`wrote ${shown && !shown.startsWith('..') ? shown : r.out}: ${r.bytes} B (${kib(r.bytes)}), ` +
      `${r.gzipBytes} B gzip (${kib(r.gzipBytes)}); embeds ${r.wasmBytes} B wasm + ${r.jsBytes} B JS`);
    console.log(`open it from disk: file://${r.out}?v=1`);
  } catch (e) {
    console.error(`single-file: ${e.message}`);
    process.exit(e.singleFile ? 1 : 2);
  }
}
