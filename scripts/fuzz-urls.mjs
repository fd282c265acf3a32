#!/usr/bin/env node
// Random and mutated page links for the in-browser robustness test (tests/e2e/robustness.test.mjs),
// made like tests/fuzz_decode.rs makes its cases: plausible values for random keys on a preset
// or the defaults, then 0–3 mutations (hostile values: NaN, inf, -0, 1e308, subnormals, long
// lists, RTL / combining / emoji text, markup, percent-escape garbage, repeated keys, bit
// flips, truncation). Deterministic for a seed.
//
//   node scripts/fuzz-urls.mjs [--seed 0x5ca1ab1e] [--count 20]   prints one query per line
//
// Also a module: urlKeys(), presetNames(), PRESETS, makeRng(seed), randomQuery(rng, keys), randomBoxText(rng),
// HOSTILE.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The URL keys in URL order, from docs/keys.json (the key table of src/scenario/key.rs as the
 * core's registry test writes it): each with its name, message label and group.
 */
export function urlKeys(repo = REPO) {
  const table = JSON.parse(readFileSync(path.join(repo, 'docs', 'keys.json'), 'utf8'));
  const keys = table.map((k) => ({ name: k.name, label: k.label, group: k.group }));
  if (keys.length < 10) throw new Error(`could not read the URL keys from docs/keys.json (found ${keys.length})`);
  return keys;
}

/** The preset names in menu order, read from the `PRESETS` table of src/scenario/presets.rs. */
export function presetNames(repo = REPO) {
  const src = readFileSync(path.join(repo, 'src', 'scenario', 'presets.rs'), 'utf8');
  const table = /pub const PRESETS: \[PresetSpec; (\d+)\] = \[([\s\S]*?)\n\];/.exec(src);
  const names = table ? [...table[2].matchAll(/^\s*name: "([^"]+)",/gm)].map((m) => m[1]) : [];
  if (!table || names.length !== Number(table[1])) {
    throw new Error(`could not read the presets from src/scenario/presets.rs (found ${names.length})`);
  }
  return names;
}

export const PRESETS = presetNames();

/** xorshift32; returns an object with the helpers the generators use. */
export function makeRng(seed) {
  let x = (Number(BigInt.asUintN(32, BigInt(seed))) || 0x9e3779b9) >>> 0;
  const next = () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
  const r = {
    next,
    unit: () => next() / 4294967296,
    below: (n) => Math.floor(r.unit() * Math.max(1, n)),
    chance: (p) => r.unit() < p,
    pick: (a) => a[r.below(a.length)],
    logUniform: (lo, hi) => Math.exp(Math.log(lo) + (Math.log(hi) - Math.log(lo)) * r.unit()),
  };
  return r;
}

const pow2 = (r, maxExp) => 2 ** r.below(maxExp + 1);

function num(r, v) {
  switch (r.below(6)) {
    case 0: return v.toExponential();
    case 1: return String(v).replace(/(\.\d{0,4})\d*/, '$1');
    default: return String(v);
  }
}

function fraction(r) {
  const f = r.chance(0.2) ? r.pick([0, 1, 1e-12, 0.5, 0.05]) : r.unit();
  return r.chance(0.2) ? `${f * 100}%` : num(r, f);
}

function pairs(r, min, allowZero) {
  const len = min + r.below(r.chance(0.1) ? 65 : 8);
  const out = [];
  let n = 0;
  for (let i = 0; i < len; i++) {
    n += 1 + (r.chance(0.5) ? r.below(4) : n);
    if (n > 2 ** 30) break;
    let v = allowZero && r.chance(0.1) ? 0 : r.logUniform(1e-3, 1e6);
    out.push(`${n}:${num(r, v)}${r.pick(['', '', 'ms', 's', 'x'])}`);
  }
  return out.join(r.pick([',', ',', ';', ', ']));
}

/** A plausible value for a key (valid alone most of the time). */
function plausible(r, name, m) {
  const multiple = () => String(pow2(r, Math.max(0, 30 - Math.log2(m) | 0)) * m);
  switch (name) {
    case 'view': case 'embed': return r.pick(['laws', 'strong', 'weak', 'plan']);
    case 'lang': return r.pick(['en', 'zh', '']);
    case 'theme': return r.pick(['light', 'dark', '']);
    case 'show': return r.pick(['charts', '']);
    case 'f': return fraction(r);
    case 'fs': return Array.from({ length: r.below(9) }, () => fraction(r)).join(',');
    case 'n': return String(Math.max(2, pow2(r, 30)));
    case 'g': return num(r, r.unit() * 2);
    case 'mk': return r.pick(['time', 'speedup']);
    case 'm': return pairs(r, 0, false);
    case 'b': return num(r, Math.round(r.logUniform(1e4, 1e12)));
    case 'a': return String(pow2(r, 8));
    case 'tp': case 'pp': case 'cp': return String(r.chance(0.6) ? 1 : pow2(r, 6));
    case 'p': case 'pa': return r.pick(['1.776G', '8B', '46.7G', '12.9G', num(r, r.logUniform(1e6, 1e12))]);
    case 'feff': return r.pick(['370T', '400 TFLOP/s', num(r, r.logUniform(1e12, 1e16))]);
    case 'beff': return r.pick(['100G', '50G', '400 GB/s', num(r, r.logUniform(1e9, 1e13))]);
    case 'c': return num(r, 1 + r.unit() * 3);
    case 'sw': return r.pick(['4', '2', '1', '0.5', '8']);
    case 'cm': return r.pick(['time', 'flops']);
    case 'tc': return r.pick(['900', '900ms', '1.2s', num(r, r.logUniform(1, 1e5))]);
    case 'n0': return multiple();
    case 'em': return r.pick(['table', 'step', 'fsdp']);
    case 'ex': case 'st': return pairs(r, 2, true);
    case 'fix': return r.pick(['0', '20', '40ms', num(r, r.unit() * 1000)]);
    case 'sched': return r.pick(['1f1b', 'interleaved', 'zero-bubble', 'zb']);
    case 'vc': return String(1 + r.below(64));
    case 'ns': {
      const v = [...new Set(Array.from({ length: 1 + r.below(8) }, () => Number(multiple())))].sort((a, b) => a - b);
      return v.join(',');
    }
    case 'tb': return r.pick(['1T', '15T', '2T', num(r, r.logUniform(1e10, 1e16))]);
    case 'bcrit': return r.pick(['32M', '4M', num(r, Math.round(r.logUniform(1e5, 1e10)))]);
    case 'bcap': return r.pick(['', '32M', '1G', num(r, Math.round(r.logUniform(1e6, 1e11)))]);
    case 'lv': return ['nvlink', 'ep', 'noreshard', 'fp8', 'zb'].filter(() => r.chance(0.4)).join(',');
    case 'bnv': return r.pick(['400G', '900G', num(r, r.logUniform(1e9, 1e13))]);
    case 'lc': return r.pick(['0', '1']);
    default: return r.pick(['', '1', '0', 'en', 'dark', 'laws']);
  }
}

/** Values no box should accept, or should survive: numbers at and past every edge, markup, text. */
export const HOSTILE = [
  'NaN', '-NaN', 'inf', '-inf', 'Infinity', '-0', '+0', '-1', '1e308', '1e309', '-1e308', '5e-324',
  '1e-400', '0x10', '1e', '.', '..5', '1.2.3', '--1', '1_000_000', ',,,,', ':::', '%', '100%%',
  '1e15', '1000P', '4Ki', '4 Mi tokens', '1073741825', '65537', '1e300ms', '3亿', '１２３', '٣',
  '\u202E1', '1\u200B', '\uFEFF1', 'a\u0301\u0301\u0301', '👩‍👩‍👧‍👦', '🚀1e6', 'مرحبا', 'שלום 5%',
  '<b>x</b>', '"><img src=x onerror=window.__pwned=1>', '<script>window.__pwned=1</script>',
  '${7*7}', '\r\n', '\t1\t', ' 1 ', '1:1,1:1', '2:1,1:2', '1:-1', '1:NaN', '1:1e308,2:1e-308',
  '1:1e300,2:1e-300', '1024:1e308,4096:1.7e308',
];

function hostile(r) {
  switch (r.below(10)) {
    case 0: return '9'.repeat(1 + r.below(400));
    case 1: return Array.from({ length: 2000 }, (_, i) => i + 1).join(',');
    case 2: return '\u0301'.repeat(r.below(500));
    case 3: return '🚀'.repeat(r.below(300));
    case 4: return 'x'.repeat(1000 + r.below(20000));
    default: return r.pick(HOSTILE);
  }
}

const enc = (r, v) => (r.chance(0.25) ? v : encodeURIComponent(v));

function mutate(r, q, keys) {
  switch (r.below(8)) {
    case 0: { // flip a character
      if (!q) return q;
      const i = r.below(q.length);
      return q.slice(0, i) + String.fromCharCode(q.charCodeAt(i) ^ (1 << r.below(7))) + q.slice(i + 1);
    }
    case 1: { // insert a special character
      const i = r.below(q.length + 1);
      return q.slice(0, i) + r.pick(['&', '=', '%', '+', ';', ',', ':', ' ', '%00', '%C3%28', '%E2%80%AE']) + q.slice(i);
    }
    case 2: { // delete a run
      const i = r.below(q.length);
      return q.slice(0, i) + q.slice(i + 1 + r.below(16));
    }
    case 3: { // repeat a segment (the last one wins)
      const parts = q.split('&');
      return `${q}&${r.pick(parts)}`;
    }
    case 4: return q.slice(0, r.below(q.length + 1)); // truncate
    default: { // a hostile value for a real key (or v / preset / an unknown key)
      const key = r.chance(0.15) ? r.pick(['v', 'preset', 'zz', 'F', 'f ']) : r.pick(keys).name;
      return `${q}&${key}=${enc(r, hostile(r))}`;
    }
  }
}

/** One random query string (no leading `?`). */
export function randomQuery(r, keys) {
  const parts = ['v=1'];
  if (r.chance(0.4)) parts.push(`preset=${r.pick(PRESETS)}`);
  const m = r.pick([1, 1, 1, 2, 4, 8, 64]);
  const p = r.unit() ** 2;
  for (const k of keys) {
    // embed= hides the page's chrome; keep it to about one link in ten.
    if (k.name === 'embed' && r.chance(0.7)) continue;
    if (r.chance(p)) parts.push(`${k.name}=${encodeURIComponent(plausible(r, k.name, m))}`);
  }
  let q = parts.join('&');
  const mutations = r.chance(0.35) ? 0 : 1 + r.below(3);
  for (let i = 0; i < mutations; i++) q = mutate(r, q, keys);
  q = q.slice(0, MAX_QUERY_CHARS);
  // The cap is on the request as sent: raw non-ASCII (a mutation's emoji) is percent-encoded
  // on the wire, up to 12 characters each.
  while (new URL(`http://h/?${q}`).search.length > MAX_QUERY_CHARS) q = q.slice(0, Math.floor(q.length * 0.9));
  return q;
}

/**
 * Links are cut here: scripts/serve.mjs (Node's http) answers 431 to request heads over
 * 16 KiB, and real hosts limit URLs too (nginx: 8 KiB by default). The decoder's own 16 KiB
 * cut is fuzzed natively (tests/fuzz_decode.rs).
 */
export const MAX_QUERY_CHARS = 15_000;

/** Text to type into a number box: plausible, hostile, or noise. */
export function randomBoxText(r) {
  if (r.chance(0.3)) return plausible(r, r.pick(['f', 'n', 'b', 'beff', 'ns', 'm', 'ex', 'tc', 'bcap']), 1);
  if (r.chance(0.6)) return hostile(r).slice(0, 3000);
  const alphabet = '0123456789.eE+-%kMGTPi,:;  abcxyz<>"\'&#/\\\u202E\u0301🚀万亿';
  return Array.from({ length: r.below(60) }, () => r.pick([...alphabet])).join('');
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  let seed = 0x5ca1ab1e;
  let count = 20;
  const args = process.argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--seed') seed = Number(args[++i]);
    else if (args[i] === '--count') count = Number(args[++i]);
    else { console.error(`fuzz-urls: unknown argument ${args[i]}`); process.exit(2); }
  }
  const r = makeRng(seed);
  const keys = urlKeys();
  for (let i = 0; i < count; i++) console.log(randomQuery(r, keys));
}
