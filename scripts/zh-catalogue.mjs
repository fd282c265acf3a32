#!/usr/bin/env node
// Trunk post_build hook: writes the Chinese catalogue the page loads only when a reader asks for
// Chinese (lang=zh, a zh browser, or the 中文 button), so English readers do not download it.
//
// Why a separate file: every reader-facing string is written in the Rust source next to its
// translation — `tr("en", "中文")`, `trf!("en {}", "中文 {}", …)`, `("en", "中文")` header pairs
// and `("data-i18n key", "中文")` rows of i18n::UI. Natively (CLI, tests) both are compiled in.
// In the WebAssembly bundle the Chinese half would be a sizeable share of the size budget that
// every reader pays, so the bundle is built without it (src/i18n.rs) and looks each English
// text up in this catalogue instead.
//
// The catalogue is read from the source, not from a running program, so it cannot miss a
// string that no test happens to display: every string literal containing CJK text that
// directly follows another string literal and a comma is the translation of that literal (and
// every `("key", "text")` row in src/i18n.rs); the key table (docs/keys.json, written from
// src/scenario/key.rs) gives the page's inputs their texts under their `data-i18n` keys
// (keyTableTexts).
// A build keeps of these only what its wasm can look up (forWasm): a text found by its English
// whose English is not in the page's wasm belongs to code the first view does not carry (the
// runs module's importers and exporters, which compile their Chinese in; the CLI's tables).
// Output lines are `<key>\t<Chinese>`, with `\n` and `\\` escaped, sorted by the fnv1a-32 hash of
// the English, each key written in hex as the hash's difference from the previous line's (the
// first from 0): sorted hashes differ by little, so the keys gzip to about a kilobyte less than
// full hashes would; src/i18n.rs parses the same format and hashes with the same function. Two different
// translations of one English text, or two English texts with one hash, fail the build.
//
// The file is `zh-<content hash>.txt` next to index.html, named in
// `<meta name="zh-catalogue" content="./zh-<hash>.txt">` (a data: URL in the single-file build).
//
//   node scripts/zh-catalogue.mjs [--dir DIR] [--print]    (default DIR: $TRUNK_STAGING_DIR)
//
// Also a module: buildCatalogue(srcDirs) -> { entries: Map(hash -> zh), text }.

import { readFileSync, writeFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/** FNV-1a, 32 bits, over the UTF-8 bytes (src/i18n.rs `key_hash`). */
export function keyHash(text) {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The string literals, identifiers and punctuation of a Rust source, comments and char literals skipped. */
export function tokens(src) {
  const out = [];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === '/' && src[i + 1] === '/') {
      while (i < n && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      i = src.indexOf('*/', i + 2);
      i = i < 0 ? n : i + 2;
    } else if (c === '"') {
      const [value, end] = readString(src, i + 1);
      out.push({ str: value });
      i = end;
    } else if (c === 'r' && /[#"]/.test(src[i + 1] ?? '') && !/[\w]/.test(src[i - 1] ?? '')) {
      let j = i + 1;
      while (src[j] === '#') j++;
      if (src[j] !== '"') { i++; continue; }
      const close = '"' + '#'.repeat(j - i - 1);
      const end = src.indexOf(close, j + 1);
      out.push({ str: src.slice(j + 1, end < 0 ? n : end) });
      i = end < 0 ? n : end + close.length;
    } else if (c === "'") {
      // A char literal ('x', '\n', '\u{..}', '"') or a lifetime ('static).
      if (src[i + 1] === '\\') {
        i = src.indexOf("'", i + 2) + 1 || n;
      } else if (src[i + 2] === "'") {
        i += 3;
      } else {
        i++;
      }
    } else if (/\s/.test(c)) {
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      const id = /^\w+/.exec(src.slice(i, i + 64))[0];
      out.push({ ident: id });
      i += id.length;
    } else {
      out.push({ punct: c });
      i++;
    }
  }
  return out;
}

/** Reads a Rust "…" literal body starting at `i`; returns [value, index after the quote]. */
function readString(src, i) {
  let value = '';
  while (i < src.length && src[i] !== '"') {
    if (src[i] !== '\\') {
      value += src[i++];
      continue;
    }
    const e = src[i + 1];
    i += 2;
    if (e === 'n') value += '\n';
    else if (e === 't') value += '\t';
    else if (e === 'r') value += '\r';
    else if (e === '0') value += '\0';
    else if (e === '\\' || e === '"' || e === "'") value += e;
    else if (e === '\n') while (/\s/.test(src[i] ?? '')) i++; // line continuation
    else if (e === 'u') {
      const close = src.indexOf('}', i);
      value += String.fromCodePoint(parseInt(src.slice(i + 1, close), 16));
      i = close + 1;
    } else if (e === 'x') {
      value += String.fromCharCode(parseInt(src.slice(i, i + 2), 16));
      i += 2;
    } else value += e;
  }
  return [value, i + 1];
}

function rustFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return rustFiles(p);
    return name.endsWith('.rs') ? [p] : [];
  });
}

const escape = (s) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

/** The sources of the texts the page shows: the core (src/) and the page's glue (crates/web/src/). */
const SOURCES = [path.join(REPO, 'src'), path.join(REPO, 'crates', 'web', 'src')];

/** The file of the key table, whose texts docs/keys.json holds (keyTableTexts). */
const KEY_TABLE = path.join('scenario', 'key.rs');

/**
 * The `data-i18n` keys and Chinese of the key table (docs/keys.json, written from
 * src/scenario/key.rs's `keys!` by the core's registry test): `label_zh` gives
 * `label-<name>`, the help's Chinese `help-<name>` and each menu option `[value, …, 中文]`
 * `<name>-<value>`. An empty Chinese gives nothing.
 */
export function keyTableTexts(table) {
  const out = [];
  for (const k of table) {
    if (k.label_zh) out.push([`label-${k.name}`, k.label_zh]);
    if (k.help[1]) out.push([`help-${k.name}`, k.help[1]]);
    for (const [value, , zh] of k.options) if (zh) out.push([`${k.name}-${value}`, zh]);
  }
  return out;
}

/** The (English, Chinese) arguments of every `tr("…", "…")` call among the tokens `t`. */
export function trCalls(t) {
  const out = [];
  for (let k = 0; k + 5 < t.length; k++) {
    if (t[k].ident === 'tr' && t[k + 1].punct === '(' && t[k + 2].str !== undefined &&
        t[k + 3].punct === ',' && t[k + 4].str !== undefined && t[k + 5].punct === ')') {
      out.push([t[k + 2].str, t[k + 4].str]);
    }
  }
  return out;
}

/** Every (English, Chinese) pair of those sources, as the page's catalogue. */
export function buildCatalogue(srcDirs = SOURCES) {
  const byEnglish = new Map();
  const problems = [];
  const files = [srcDirs].flat().flatMap((dir) => rustFiles(dir)).sort();
  // `looked up`: the texts the page finds by their English (tr, trf!, header pairs), which a
  // build can keep only where its wasm holds that English; the UI rows and the key table's
  // texts are found by their data-i18n key, which the wasm builds at run time.
  const byKey = new Set();
  const add = (en, zh, file, lookedUp = true) => {
    const seen = byEnglish.get(en);
    if (seen !== undefined && seen !== zh) {
      problems.push(`${path.relative(REPO, file)}: “${en}” has two translations: “${seen}” and “${zh}”`);
    }
    byEnglish.set(en, zh);
    if (!lookedUp) byKey.add(en);
  };
  for (const file of files) {
    const t = tokens(readFileSync(file, 'utf8'));
    if (file.endsWith(KEY_TABLE)) {
      const table = JSON.parse(readFileSync(path.join(REPO, 'docs', 'keys.json'), 'utf8'));
      for (const [id, zh] of keyTableTexts(table)) add(id, zh, file, false);
      // A row's codec may carry a note for its messages, `tr("en", "中文")`, found by its
      // English as every other `tr`.
      for (const [en, zh] of trCalls(t)) add(en, zh, file);
      continue;
    }
    // Whether each token's innermost open bracket is `[`.
    const inArray = [];
    const open = [];
    for (const tok of t) {
      if (tok.punct === '(' || tok.punct === '[' || tok.punct === '{') open.push(tok.punct);
      if (tok.punct === ')' || tok.punct === ']' || tok.punct === '}') open.pop();
      inArray.push(open[open.length - 1] === '[');
    }
    for (let k = 2; k < t.length; k++) {
      const [a, comma, b] = [t[k - 2], t[k - 1], t[k]];
      if (a.str === undefined || comma.punct !== ',' || b.str === undefined) continue;
      // Two neighbours in an array (the units' suffixes `["Pi", "万", "亿"]`, the words `b`
      // takes) are not a translation, nor is a literal that is itself Chinese.
      if (inArray[k - 2] || CJK.test(a.str)) continue;
      // i18n::UI rows are all translations, even without CJK text (the toggle's "English").
      const uiRow = file.endsWith('i18n.rs') && t[k - 3]?.punct === '(' && t[k + 1]?.punct === ')';
      if (!(CJK.test(b.str) || uiRow) || a.str === b.str) continue;
      add(a.str, b.str, file, !uiRow);
    }
  }
  const entries = new Map();
  for (const [en, zh] of byEnglish) {
    const h = keyHash(en);
    if (entries.has(h) && entries.get(h).en !== en) {
      problems.push(`hash collision ${h}: “${entries.get(h).en}” and “${en}”`);
    }
    entries.set(h, { en, zh, byKey: byKey.has(en) });
  }
  if (problems.length) throw new Error(`zh catalogue:\n  ${problems.join('\n  ')}`);
  return { entries, text: catalogueText(entries) };
}

/** The catalogue's lines, sorted by hash, each key the difference from the previous line's. */
const catalogueText = (entries) => {
  let previous = 0;
  return [...entries.keys()].sort().map((h) => {
    const key = parseInt(h, 16);
    const line = `${(key - previous).toString(16)}\t${escape(entries.get(h).zh)}`;
    previous = key;
    return line;
  }).join('\n') + '\n';
};

/**
 * `entries` without the texts the page's wasm cannot look up: a text found by its English is
 * looked up only if that English is in the wasm's bytes (the build drops the code, and its
 * literals, that no path of the first view reaches: the importers and exporters of the runs
 * module, which carries its own Chinese, and the CLI's tables). Texts found by a data-i18n
 * key all stay.
 */
export function forWasm(entries, wasm) {
  const kept = new Map();
  for (const [h, e] of entries) {
    if (e.byKey || wasm.includes(Buffer.from(e.en, 'utf8'))) kept.set(h, e);
  }
  return kept;
}

/**
 * The page's own wasm in `dir`, if the build has written it: the full module's (crates/full),
 * which holds every text of the first view's module and those of the Learn view and the
 * exports, so one catalogue serves both; the runs module's apart.
 */
function pageWasm(dir) {
  const files = readdirSync(dir);
  const name = files.find((f) => /^full-[0-9a-f]+_bg\.wasm$/.test(f)) ??
    files.find((f) => f.endsWith('_bg.wasm') && !f.startsWith('runs-'));
  return name ? readFileSync(path.join(dir, name)) : null;
}

/** Writes zh-<hash>.txt into `dir` and names it in dir/index.html's <head>. */
export function writeCatalogue(dir, srcDir) {
  const wasm = pageWasm(dir);
  const all = buildCatalogue(srcDir).entries;
  const entries = wasm ? forWasm(all, wasm) : all;
  const text = catalogueText(entries);
  for (const old of readdirSync(dir).filter((f) => /^zh-[0-9a-f]+\.txt$/.test(f))) unlinkSync(path.join(dir, old));
  const name = `zh-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.txt`;
  writeFileSync(path.join(dir, name), text);
  const indexPath = path.join(dir, 'index.html');
  let html = readFileSync(indexPath, 'utf8').replace(/<meta name="zh-catalogue"[^>]*>/g, '');
  // Right after <meta charset>: Trunk's release minifier drops optional tags such as </head>.
  const meta = `<meta name="zh-catalogue" content="./${name}">`;
  const charset = /<meta\b[^>]*\bcharset\b[^>]*>/i;
  if (!charset.test(html)) throw new Error(`zh-catalogue: ${indexPath} has no <meta charset> to follow`);
  html = html.replace(charset, (tag) => tag + meta);
  writeFileSync(indexPath, html);
  return { name, count: entries.size, bytes: Buffer.byteLength(text) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.includes('--print')) {
    process.stdout.write(buildCatalogue().text);
  } else {
    const i = args.indexOf('--dir');
    const dir = i >= 0 ? args[i + 1] : process.env.TRUNK_STAGING_DIR;
    if (!dir) {
      console.error('zh-catalogue: no --dir and no TRUNK_STAGING_DIR');
      process.exit(2);
    }
    try {
      const { name, count, bytes } = writeCatalogue(dir);
      console.log(`zh-catalogue: ${count} texts → ${name} (${bytes} bytes)`);
    } catch (e) {
      console.error(e.message);
      process.exit(1);
    }
  }
}
