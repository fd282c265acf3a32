#!/usr/bin/env node
// Trunk's one post_build hook (Trunk.toml). Trunk may run several hooks of a stage at the same
// time, and these steps all rewrite index.html, so they run here, in order, on the staging
// directory (TRUNK_STAGING_DIR) before it replaces dist/:
//
//   1. shorten the names each wasm and its JavaScript share (binaryen's
//      --minify-imports-and-exports-and-modules: ~150 imports such as
//      `__wbg_setAttribute_f75317b2b5cabfb4` become `Ab`), rewrite the
//      wasm-bindgen JavaScript to match, minify that JavaScript with terser,
//      and update both files' integrity="sha384-…" in index.html. The page's size budget
//      (BUDGET in tests/e2e/size.test.mjs) holds everything an English reader downloads,
//      gzipped (docs/performance.md); then name the full module's and the runs module's files
//      by their content (hashModule: full-<hash>_loader.js and runs-<hash>_loader.js, which
//      the page adds when they are needed, crates/full and crates/runs);
//   2. minify the stylesheet (comments and whitespace) and index.html (comments, runs of
//      whitespace outside <pre>/<textarea>; attributes are left alone — Trunk's own minifier
//      drops type="text", which the stylesheet selects on), fixing the CSS's integrity;
//   3. make Trunk's loader say which file failed (guardLoader: a missing or blocked wasm-bindgen
//      JS or .wasm shows "… could not be loaded" in #app-status instead of an endless "Loading
//      the model…"), then move it into loader-<hash>.js (scripts/extract-loader.mjs), so a
//      strict Content-Security-Policy without 'unsafe-inline' runs the page;
//   4. write the Chinese catalogue zh-<hash>.txt (scripts/zh-catalogue.mjs).
//   5. write the Learn view's texts learn-<lang>-<hash>.html (scripts/learn-files.mjs).
//   0. (first) prerender the default scenario's first view into index.html: key figures,
//      tables, chart summaries and the charts as SVG (scripts/prerender.mjs).
//
//   node scripts/post-build.mjs [--dir DIR]
//
// Also a module: wasmImports(bytes), setIntegrity(html, file, bytes), minifyCss, minifyHtml.

import { readFileSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { extractInDir } from './extract-loader.mjs';
import { writeCatalogue } from './zh-catalogue.mjs';
import { writeLearnFiles } from './learn-files.mjs';
import { prerender } from './prerender.mjs';

const sri = (bytes) => 'sha384-' + createHash('sha384').update(bytes).digest('base64');

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WASM_OPT = path.join(REPO, 'node_modules', '.bin', 'wasm-opt');

/** The (module, field) names of a wasm binary's imports. */
export function wasmImports(bytes) {
  let i = 8;
  const leb = () => {
    let r = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[i++];
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return r;
    }
  };
  const name = () => {
    const n = leb();
    const s = bytes.subarray(i, i + n).toString('utf8');
    i += n;
    return s;
  };
  while (i < bytes.length) {
    const id = bytes[i++];
    const size = leb();
    const end = i + size;
    if (id === 2) {
      const out = [];
      for (let count = leb(); count > 0; count--) {
        const module = name();
        const field = name();
        const kind = bytes[i++];
        // Skip the descriptor: func (type index), table (reftype + limits), memory (limits),
        // global (valtype + mutability), tag (attribute + type index).
        if (kind === 0) leb();
        else if (kind === 1) { i++; const flags = leb(); leb(); if (flags & 1) leb(); }
        else if (kind === 2) { const flags = leb(); leb(); if (flags & 1) leb(); }
        else if (kind === 3) { i += 2; }
        else if (kind === 4) { i++; leb(); }
        out.push({ module, field });
      }
      return out;
    }
    i = end;
  }
  return [];
}

const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Shortens the wasm's import, export and module names and rewrites `js` to match. */
function shortenNames(wasmPath, js) {
  const before = wasmImports(readFileSync(wasmPath));
  const map = JSON.parse(execFileSync(WASM_OPT, [wasmPath, '--minify-imports-and-exports-and-modules', '-o', wasmPath], { encoding: 'utf8' }));
  const after = wasmImports(readFileSync(wasmPath));
  const modules = new Map();
  before.forEach((imp, k) => modules.set(imp.module, after[k].module));
  let out = js;
  for (const [module, field, short] of map.imports) {
    // wasm-bindgen's import object: `name: function(…)` inside `const import0 = {…}`.
    const key = new RegExp(`(?<![\\w$])${escapeRe(field)}(?=\\s*:)`, 'g');
    if (!key.test(out)) throw new Error(`post-build: import ${module} ${field} not found in the JS`);
    out = out.replace(key, JSON.stringify(short));
  }
  for (const [module, short] of modules) {
    const key = JSON.stringify(module);
    if (!out.includes(`${key}:`)) throw new Error(`post-build: import module ${key} not found in the JS`);
    out = out.split(`${key}:`).join(`${JSON.stringify(short)}:`);
  }
  for (const [name, short] of map.exports) {
    out = out.replace(new RegExp(`\\bwasm\\.${escapeRe(name)}\\b`, 'g'), `wasm[${JSON.stringify(short)}]`);
  }
  const left = out.match(/\bwasm\.(?!(?:buffer|exports)\b)[A-Za-z_$][\w$]*/g);
  if (left) throw new Error(`post-build: the JS still names wasm exports ${[...new Set(left)].join(', ')}`);
  return { js: out, imports: map.imports.length, exports: map.exports.length };
}

/** Replaces the integrity of every tag of `html` that names `file`. */
export function setIntegrity(html, file, bytes) {
  const value = sri(bytes);
  // Attribute values may be unquoted: Trunk minifies index.html in release builds.
  return html.replace(
    new RegExp(`(<[^>]*${escapeRe(file)}[^>]*\\bintegrity=)("[^"]*"|'[^']*'|[^\\s>]+)`, 'g'),
    `$1"${value}"`,
  );
}

/** Shortens names, minifies each wasm-bindgen module (X.js next to X_bg.wasm), fixes SRI. */
export async function minifyBindgen(dir) {
  const out = [];
  const files = readdirSync(dir);
  let html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  for (const wasm of files.filter((f) => f.endsWith('_bg.wasm'))) {
    const js = wasm.replace(/_bg\.wasm$/, '.js');
    if (!files.includes(js)) continue;
    const wasmPath = path.join(dir, wasm);
    const source = readFileSync(path.join(dir, js), 'utf8');
    const oldWasm = readFileSync(wasmPath);
    const renamed = shortenNames(wasmPath, source);
    // Module scope: exports keep their names (the loader imports them; tests call
    // window.wasmBindings.*); everything else may be renamed.
    const { code } = await minify(renamed.js, { module: true, ecma: 2020, compress: { passes: 2 }, mangle: true });
    writeFileSync(path.join(dir, js), code);
    const newWasm = readFileSync(wasmPath);
    html = setIntegrity(html, js, code);
    html = setIntegrity(html, wasm, newWasm);
    for (const stale of [sri(source), sri(oldWasm)]) {
      if (html.includes(stale)) throw new Error(`post-build: index.html still has a stale integrity hash ${stale}`);
    }
    out.push({ js, bytes: Buffer.byteLength(source), minified: Buffer.byteLength(code), wasm, imports: renamed.imports, exports: renamed.exports });
  }
  writeFileSync(path.join(dir, 'index.html'), html);
  return out;
}

/**
 * Names a second module's files by their content: Trunk builds the full module (crates/full)
 * and the runs module (crates/runs) as "workers" — `<name>.js`, `<name>_bg.wasm` and the loader
 * shim `<name>_loader.js`, unhashed — and they become `<prefix>-<hash>…`, so that a cache
 * never pairs a new page with an old module; the loader's name goes where the page reads it,
 * `<meta name="<prefix>-module" content="…">`.
 */
export function hashModule(dir, name, prefix) {
  const names = { js: `${name}.js`, wasm: `${name}_bg.wasm`, loader: `${name}_loader.js` };
  const read = (f) => readFileSync(path.join(dir, f));
  const hash = createHash('sha256').update(read(names.js)).update(read(names.wasm)).digest('hex').slice(0, 16);
  const to = { js: `${prefix}-${hash}.js`, wasm: `${prefix}-${hash}_bg.wasm`, loader: `${prefix}-${hash}_loader.js` };
  const swap = (text, from, into) => {
    if (!text.includes(from)) throw new Error(`post-build: ${from} not named where expected (has Trunk's worker output changed?)`);
    return text.split(from).join(into);
  };
  writeFileSync(path.join(dir, to.wasm), read(names.wasm));
  writeFileSync(path.join(dir, to.js), swap(read(names.js).toString(), `"${names.wasm}"`, `"${to.wasm}"`));
  writeFileSync(path.join(dir, to.loader), swap(read(names.loader).toString(), `'./${names.js}'`, `'./${to.js}'`));
  for (const f of Object.values(names)) rmSync(path.join(dir, f));
  const indexPath = path.join(dir, 'index.html');
  const meta = `<meta name="${prefix}-module" content="${names.loader}">`;
  writeFileSync(indexPath, swap(readFileSync(indexPath, 'utf8'), meta, meta.replace(names.loader, `./${to.loader}`)));
  return to;
}

/** CSS without comments and optional whitespace (strings and selectors keep their spaces). */
export function minifyCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
}

/** HTML without comments, whitespace runs collapsed to one space outside <pre>/<textarea>. */
export function minifyHtml(html) {
  return html
    .split(/(<(?:pre|textarea)\b[\s\S]*?<\/(?:pre|textarea)>)/i)
    .map((part, i) => (i % 2 ? part : part.replace(/<!--(?!\[)[\s\S]*?-->/g, '').replace(/\s+/g, ' ').replace(/> </g, '>\n<')))
    .join('');
}

/**
 * Rewrites Trunk's inline loader (`<script type="module">import init, * as bindings from
 * './X.js'; const wasm = await init({ module_or_path: './X_bg.wasm' }); …`):
 *
 * - A failure names its file in #app-status: the static import becomes a dynamic one (a failed
 *   static import never runs the module), and both steps are caught, reported and rethrown
 *   (the console still shows the error).
 * - The wasm compiles while the page is still being parsed and laid out (which shortens the
 *   first draw): the script is `async` and starts `WebAssembly.compileStreaming` at once,
 *   then waits for the DOM before the app starts. A response the streaming compiler refuses
 *   (a server that does not send `application/wasm`, a 404) is handed to wasm-bindgen as it
 *   is, whose own fallback and error apply as before.
 * - `blocking="render"`: the browser does not lay out and paint the page before this small
 *   script has arrived, so the first layout does not run between the document and the
 *   script. Only the script's own download blocks rendering, not the wasm's.
 * - A link to the Learn view (`view=learn`) starts the full module (`full`, the names
 *   hashModule gave it) instead of the first view's; the JS of the module it starts is asked
 *   for at once, and Trunk's modulepreload of the first view's JS goes.
 *
 * Fails the build if Trunk's loader has another shape, rather than shipping a page that
 * cannot say why it did not start. The loader itself, a few hundred bytes next to index.html,
 * is not covered.
 */
export function guardLoader(html, full) {
  const re = /<script type="module">(\s*)import init, \* as bindings from '([^']+)';\s*const wasm = await init\(\s*\{\s*module_or_path:\s*'([^']+)'\s*\}\s*\);/;
  const m = re.exec(html);
  if (!m) throw new Error("post-build: Trunk's wasm loader not found in index.html (has its output changed?)");
  const [, space, firstJs, firstWasm] = m;
  // A link to the Learn view starts the full module (crates/full) instead of the first view's,
  // which would only hand the page over to it (crates/web/src/handover.rs): one module
  // downloaded, as for any other link. The view is read as the page decodes a link: the last
  // `view`, trimmed.
  const pick = (first, other) => `(L?${JSON.stringify(`./${other}`)}:${JSON.stringify(first)})`;
  const js = pick(firstJs, full.js);
  const wasm = pick(firstWasm, full.wasm);
  const name = (f) => `${f}.replace(/^.*\\//,"")`;
  const guarded = `<script type="module" async>${space}` +
    'const L=(new URLSearchParams(location.search).getAll("view").pop()||"").trim()=="learn";' +
    // The module's JS is asked for at once, in place of Trunk's <link rel="modulepreload">
    // (dropped below), which would fetch the first view's JS for a Learn link too.
    `const j=import(${js}).then(b=>({b}),e=>({e}));` +
    // The wasm is fetched once the prerendered first view is painted, so that on a slow link
    // or a slow phone the page's first paint shares neither the network nor the main thread
    // with the wasm (index.html has no preload of it, see below): after the
    // first contentful paint (Paint Timing) and one more frame; two frames where the browser
    // has no paint entries; at once in a hidden tab (no paint comes) or a page that waits
    // hidden for the model (html.swap: its first paint is the model's); at most 3 s. Frames
    // alone are not enough: a slow device runs them before the first paint is on screen
    // (in Lighthouse's mobile run the wasm was then requested before the first contentful
    // paint, so its simulated LCP waited for the wasm). A link to the Learn view paints its texts
    // first: index.html's first script fetches them and says when they are in
    // (scaling:texts; at most 3 s), which is known once the page is parsed (this module is
    // async: it may run before that script).
    'const w=new Promise(r=>document.readyState=="loading"?addEventListener("DOMContentLoaded",r):r())' +
    '.then(()=>document.documentElement.hasAttribute("data-texts")&&new Promise(r=>{addEventListener("scaling:texts",r);setTimeout(r,3000)}))' +
    '.then(()=>document.visibilityState=="hidden"||document.documentElement.classList.contains("swap")||new Promise(r=>{' +
    // A browser without Paint Timing (or without PerformanceObserver, or its list of entry
    // types) throws in the try: it waits for two frames instead, never fails the load.
    'const next=()=>requestAnimationFrame(()=>setTimeout(r));setTimeout(r,3000);' +
    'try{if(!(PerformanceObserver.supportedEntryTypes||[]).includes("paint"))throw 0;' +
    'new PerformanceObserver((l,o)=>{if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();next()}}).observe({type:"paint",buffered:true})}' +
    'catch(e){requestAnimationFrame(next)}}))' +
    `.then(()=>fetch(${wasm})).then(r=>WebAssembly.compileStreaming(r.clone()).catch(()=>r)),` +
    'fail=(f,e)=>{document.documentElement.classList.remove("swap");const s=document.getElementById("app-status");' +
    's.hidden=false;s.textContent=`The model could not start: ${f} could not be loaded (${e&&e.message||e}). ' +
    'Reload the page; if this persists, the site is missing this file.`;throw e};' +
    'document.readyState=="loading"&&await new Promise(r=>addEventListener("DOMContentLoaded",r));' +
    // Written by the loader, not the HTML: without JavaScript nothing is loading (the
    // <noscript> line says so), and the empty status takes no room (www/style.css).
    'document.getElementById("app-status").textContent="Loading the model…";' +
    `let bindings,wasm;const J=await j;J.e?fail(${name(js)},J.e):bindings=J.b;` +
    `try{wasm=await bindings.default({module_or_path:w})}catch(e){fail(${name(wasm)},e)}`;
  // Trunk's <link rel="preload"> of the wasm would start its download while the page is parsed.
  const preload = /<link rel="preload" href="[^"]*_bg\.wasm"[^>]*>/;
  if (!preload.test(html)) throw new Error("post-build: Trunk's preload of the wasm not found in index.html");
  const modulePreload = new RegExp(`<link rel="modulepreload" href="${escapeRe(firstJs)}"[^>]*>`);
  if (!modulePreload.test(html)) throw new Error("post-build: Trunk's modulepreload of the first view's JS not found in index.html");
  return html.replace(re, guarded).replace(preload, '').replace(modulePreload, '');
}

/** Minifies dir's stylesheets and index.html, fixing the stylesheets' integrity. */
export function minifyPage(dir) {
  const indexPath = path.join(dir, 'index.html');
  let html = readFileSync(indexPath, 'utf8');
  const before = Buffer.byteLength(html);
  for (const css of readdirSync(dir).filter((f) => f.endsWith('.css'))) {
    const code = minifyCss(readFileSync(path.join(dir, css), 'utf8'));
    writeFileSync(path.join(dir, css), code);
    html = setIntegrity(html, css, code);
  }
  html = minifyHtml(html);
  writeFileSync(indexPath, html);
  return { before, after: Buffer.byteLength(html) };
}

// Run as a hook (or by hand); bench/bench.mjs imports the helpers above.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf('--dir');
  const dir = i >= 0 ? args[i + 1] : process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error('post-build: no --dir and no TRUNK_STAGING_DIR (run as a Trunk post_build hook)');
    process.exit(2);
  }
  try {
    for (const m of await minifyBindgen(dir)) {
      console.log(`post-build: ${m.wasm}: ${m.imports} imports and ${m.exports} exports renamed; ${m.js}: ${m.bytes} → ${m.minified} bytes`);
    }
    const full = hashModule(dir, 'scaling-explorer-full', 'full');
    console.log(`post-build: the full module → ${full.loader}, ${full.js}, ${full.wasm}`);
    const runs = hashModule(dir, 'scaling-runs', 'runs');
    console.log(`post-build: the runs module → ${runs.loader}, ${runs.js}, ${runs.wasm}`);
    const pre = prerender(dir);
    console.log(`post-build: the first view prerendered into index.html (+${pre.after - pre.before} B gzipped before minifying)`);
    const page = minifyPage(dir);
    console.log(`post-build: index.html ${page.before} → ${page.after} bytes, stylesheet minified`);
    const indexPath = path.join(dir, 'index.html');
    writeFileSync(indexPath, guardLoader(readFileSync(indexPath, 'utf8'), full));
    console.log('post-build: the loader reports a JS or wasm file that fails to load in #app-status');
    for (const m of extractInDir(dir, { publicUrl: process.env.TRUNK_PUBLIC_URL })) {
      console.log(`post-build: ${m.html}: inline script(s) → ${m.scripts.join(', ')}`);
    }
    const zh = writeCatalogue(dir);
    console.log(`post-build: ${zh.count} Chinese texts → ${zh.name} (${zh.bytes} bytes)`);
    for (const f of writeLearnFiles(dir)) console.log(`post-build: the Learn view's texts → ${f.name} (${f.bytes} bytes)`);
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
