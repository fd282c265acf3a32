//! Decoder fuzzing: 100,000 random and mutated query strings through the path the
//! page takes — `decode` → the sweeps → report tables and key figures → chart descriptions —
//! checking that nothing panics, every number is finite, no cell or figure shows `NaN`, `inf`
//! or a stray `–` where a number belongs, every message names its key (and stays short),
//! every decoded scenario obeys the cross-input rules and survives `to_query` → `decode`
//! unchanged, and decoding any one input is fast (< 50 ms in release, best of five).
//!
//! Inputs: valid scenarios (`Scenario::set` with random values on a preset or the defaults)
//! written by `to_query`, as is or with 1–4 mutations (bit flips, inserted / deleted bytes,
//! repeated keys, percent-escape garbage, truncation, hostile values: NaN, inf, -0, 1e308,
//! subnormals, 10,000-item lists, RTL / combining / emoji text, markup, 30,000-character
//! strings), plus pure noise. Mutated inputs are cut at 64 KiB (the decoder reads 16 KiB).
//!
//! Deterministic: a small xorshift PRNG seeded per case from a fixed seed (printed), so a
//! failure names the case that reproduces it. Sizes: `cargo test --release --test
//! fuzz_decode` (what `make test` runs) checks 100,000 cases; a debug `cargo test` checks
//! 10,000 (a debug case is several times slower). Environment:
//!
//! - `FUZZ_SEED=<u64>`   another seed (decimal or 0x-hex)
//! - `FUZZ_CASES=<n>`    cases in total, split over [`SHARDS`] tests that `cargo test` runs on
//!   all cores
//! - `FUZZ_CASE=<i>`     run only case `i` with every stage, print its input and, per kind of
//!   finding, a reduced input that still shows it
//! - `FUZZ_INPUT=<query>` run every check on one query (test `check_input`)
//!
//! Every panel is checked by the shared panel checker (`tests/common`: every number of every
//! row through serde, every shown text, every chart description). The Plan panel is the
//! slowest (a best-batch search of ~130 step-time evaluations per GPU count, over the table
//! rows and 72 curve samples, and seven more for the lever table), so it runs on every
//! [`PLAN_EVERY`]th case of a shard, and drawing the visible panel through plotters' SVG backend (the same
//! drawing code as the page's canvas, on a worker thread with a time limit, since a chart that
//! never finishes drawing freezes the tab) on every [`DRAW_EVERY`]th. Everything else runs on
//! every case.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

mod common;

use scaling_core::panel::Panel;
use scaling_core::scenario::{decode, Key, Preset, Scenario, UrlError, View};
use scaling_model::levers::Lever;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const DEFAULT_SEED: u64 = 0x5CA1_AB1E_F0CC_0006;
/// Cases in a release test build (`cargo test --release --test fuzz_decode`, run by
/// `make test`) and in a debug one (`cargo test`, which must stay within ~1 minute on two
/// cores; a debug case is several times slower).
const DEFAULT_CASES: usize = if cfg!(debug_assertions) {
    10_000
} else {
    100_000
};
const SHARDS: usize = 4;
/// The Plan panel on every PLAN_EVERY-th case of a shard, drawing on every DRAW_EVERY-th. In
/// release (what `make test` runs): every case and 20%, as often as keeps the run under its
/// ~150 s budget on two cores (measured: 1.55× the time of the former 2% and 0.2%, so ~75 s
/// becomes ~115 s). In debug (`cargo test`, about a minute): 10% and 2% (4% more time).
const PLAN_EVERY: usize = if cfg!(debug_assertions) { 10 } else { 1 };
const DRAW_EVERY: usize = if cfg!(debug_assertions) { 50 } else { 5 };
/// Mutated inputs are cut here (4× the decoder's 16 KiB limit, so the cut is exercised).
const MAX_INPUT_BYTES: usize = 64 * 1024;
/// A reader's message must stay readable, whatever was pasted.
const MAX_MESSAGE_CHARS: usize = 600;

// ---- PRNG ----------------------------------------------------------------------------------

/// xorshift64* (Vigna 2016): tiny, fast, good enough to pick fuzz inputs.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so neighbouring case seeds give unrelated streams.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit()).exp()
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

fn seed() -> u64 {
    env_u64("FUZZ_SEED").unwrap_or(DEFAULT_SEED)
}

fn cases() -> usize {
    env_u64("FUZZ_CASES").map_or(DEFAULT_CASES, |n| n as usize)
}

fn case_rng(seed: u64, index: usize) -> Rng {
    Rng::new(seed ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407))
}

// ---- values --------------------------------------------------------------------------------

/// Numbers as a reader (or a paper) writes them, some of them at the edges of a range.
fn number_text(rng: &mut Rng, v: f64) -> String {
    match rng.below(8) {
        0 => format!("{v:e}"),
        1 if v >= 1e3 => scaling_core::text::units::format_si(v, 1 + rng.below(6)),
        2 if v.fract() == 0.0 && v < 1e15 => {
            scaling_core::text::units::format_count(v) // "1,024"
        }
        _ => format!("{v}"),
    }
}

/// A count in `lo ..= hi`, biased to powers of two and small values.
fn count(rng: &mut Rng, lo: u64, hi: u64) -> u64 {
    match rng.below(4) {
        0 => {
            let max_exp = 63 - hi.leading_zeros() as u64;
            (1u64 << rng.range(0, max_exp)).clamp(lo, hi)
        }
        1 => *rng.pick(&[lo, hi, lo + 1, hi.saturating_sub(1).max(lo)]),
        _ => rng
            .log_uniform(lo as f64, hi as f64 + 1.0)
            .floor()
            .clamp(lo as f64, hi as f64) as u64,
    }
}

fn fraction_text(rng: &mut Rng) -> String {
    let f = match rng.below(6) {
        0 => *rng.pick(&[0.0, 1.0, 1e-12, 0.5, 0.05, 1.0 - 1e-12, 5e-324]),
        1 => rng.log_uniform(1e-9, 1.0),
        _ => rng.unit(),
    };
    if rng.chance(0.2) {
        format!("{}%", f * 100.0)
    } else {
        number_text(rng, f)
    }
}

/// `N:value` pairs with increasing `N`; values span everyday and extreme magnitudes.
fn pairs_text(rng: &mut Rng, min_len: usize, allow_zero: bool) -> String {
    let spread = if rng.chance(0.1) { 65 } else { 8 };
    let len = min_len + rng.below(spread);
    let mut n = 0u64;
    let mut out = Vec::new();
    let extreme = rng.chance(0.1);
    for _ in 0..len {
        n += 1 + if rng.chance(0.5) {
            rng.below(4) as u64
        } else {
            n
        };
        if n > 1 << 30 {
            break;
        }
        let v = if extreme {
            *rng.pick(&[1e-300, 5e-324, 1e300, 1.7e308, 1e-9, 1e15, 0.0])
        } else if allow_zero && rng.chance(0.1) {
            0.0
        } else {
            rng.log_uniform(1e-3, 1e6)
        };
        let v = if v == 0.0 && !allow_zero { 1.0 } else { v };
        let unit = *rng.pick(&["", "", "", "ms", "s", "x"]);
        out.push(format!("{n}:{}{unit}", number_text(rng, v)));
    }
    let sep = *rng.pick(&[",", ",", ";", "\n", ", "]);
    out.join(sep)
}

/// A plausible value for `key` (valid alone most of the time). `m` is the model-parallel
/// degree the GPU counts should be multiples of.
// One arm per URL key: the generator is the list of keys and their plausible values.
#[allow(clippy::too_many_lines)]
fn valid_text(rng: &mut Rng, key: Key, m: u64) -> String {
    let multiple = |rng: &mut Rng| {
        let k = count(rng, 1, (1u64 << 30) / m);
        (k * m).to_string()
    };
    match key {
        Key::View => rng
            .pick(&["laws", "strong", "weak", "plan", "learn"])
            .to_string(),
        // Exercise numbers: mostly 1 … 8, now and then one out of range or repeated.
        Key::Quiz => (0..rng.below(4))
            .map(|_| count(rng, 1, 9).to_string())
            .collect::<Vec<_>>()
            .join(","),
        // Scenario A: a preset with one value changed, encoded as one value (`pin=`).
        Key::Pin => {
            let a = format!(
                "v=1&preset={}&f={}",
                rng.pick(&Preset::ALL).name(),
                fraction_text(rng)
            );
            a.replace('%', "%25")
                .replace('&', "%26")
                .replace('=', "%3D")
        }
        Key::SerialFraction => fraction_text(rng),
        Key::CompareFractions => (0..rng.below(9))
            .map(|_| fraction_text(rng))
            .collect::<Vec<_>>()
            .join(","),
        Key::MaxProcessors => count(rng, 2, 1 << 30).to_string(),
        Key::GrowthExponent => {
            let v = rng.uniform(0.0, 2.0);
            number_text(rng, v)
        }
        Key::MeasuredKind => rng.pick(&["time", "speedup", "t", "s"]).to_string(),
        Key::Measured => pairs_text(rng, 0, false),
        Key::GlobalBatch => {
            let v = rng.log_uniform(1.0, 1e15).round();
            number_text(rng, v)
        }
        Key::Accumulation => count(rng, 1, 65_536).to_string(),
        Key::Microbatch => count(rng, 0, 64).to_string(),
        Key::LayoutExplorer => rng
            .pick(&["0", "0", "0", "0", "0", "0", "0", "64", "1000", "1e9"])
            .to_string(),
        Key::LayoutSearch => rng
            .pick(&["fixed", "fixed", "fixed", "best", ""])
            .to_string(),
        Key::NvlinkDomain => count(rng, 1, 2048).to_string(),
        Key::Tp | Key::Pp | Key::Cp => count(rng, 1, 64).to_string(),
        Key::TotalParams | Key::ActiveParams => {
            let v = rng.log_uniform(1.0, 1e15);
            number_text(rng, v)
        }
        Key::Flops => {
            let v = rng.log_uniform(1.0, 1e18);
            number_text(rng, v)
        }
        Key::Bandwidth => {
            let v = rng.log_uniform(1.0, 1e15);
            number_text(rng, v)
        }
        Key::Gathers => {
            let v = rng.uniform(1.0, 4.0);
            number_text(rng, v)
        }
        Key::WireBytes => {
            let v = rng.uniform(0.5, 8.0);
            number_text(rng, v)
        }
        Key::ComputeMode => rng.pick(&["time", "flops"]).to_string(),
        Key::ComputeMs => {
            format!("{}ms", {
                let v = rng.log_uniform(1e-6, 3.6e6).min(3.6e6);
                number_text(rng, v)
            })
        }
        Key::BaselineGpus => multiple(rng),
        Key::ExposedMode => rng.pick(&["table", "step", "fsdp"]).to_string(),
        Key::ExposedTable | Key::StepTable => pairs_text(rng, 2, true),
        Key::FixedMs => {
            let v = rng.uniform(0.0, 3.6e6) * rng.unit().powi(4);
            number_text(rng, v)
        }
        Key::Schedule => rng
            .pick(&["1f1b", "interleaved", "zero-bubble", "zb"])
            .to_string(),
        Key::Chunks => count(rng, 1, 64).to_string(),
        Key::Gpus => {
            let mut v: Vec<u64> = (0..1 + rng.below(32))
                .map(|_| count(rng, 1, (1u64 << 30) / m) * m)
                .collect();
            v.sort_unstable();
            v.dedup();
            v.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
        }
        Key::TokenBudget => {
            let v = rng.log_uniform(1.0, 1e18);
            number_text(rng, v)
        }
        Key::CriticalBatch => {
            let v = rng.log_uniform(1.0, 1e15).round().max(1.0);
            number_text(rng, v)
        }
        Key::BatchCap => {
            if rng.chance(0.3) {
                String::new()
            } else {
                {
                    let v = rng.log_uniform(1.0, 1e15).round().max(1.0);
                    number_text(rng, v)
                }
            }
        }
        Key::Levers => Lever::ALL
            .iter()
            .filter(|_| rng.chance(0.4))
            .map(|l| l.key())
            .collect::<Vec<_>>()
            .join(","),
        Key::NvlinkBandwidth => {
            let v = rng.log_uniform(1e9, 1e13);
            number_text(rng, v)
        }
        Key::LossCurve => rng.pick(&["0", "1", "yes", "no"]).to_string(),
        // Keys added after this test was written (language, theme, embedding, …): a mix of
        // the words such keys take.
        _ => rng
            .pick(&[
                "", "en", "zh", "light", "dark", "laws", "strong", "weak", "plan", "1", "0",
            ])
            .to_string(),
    }
}

/// A random valid scenario: a preset or the defaults, then random settings through
/// `Scenario::set` (which refuses what breaks a cross-input rule), in two passes so that a
/// value refused before its partner was set gets a second chance.
fn random_scenario(rng: &mut Rng) -> Scenario {
    let mut s = if rng.chance(0.5) {
        Scenario::default()
    } else {
        rng.pick(&Preset::ALL).scenario()
    };
    let m = *rng.pick(&[1u64, 1, 1, 2, 4, 8, 16, 64, 512, 4096]);
    let p = rng.unit().powi(2); // how many keys to touch
    for _pass in 0..2 {
        for &key in Key::ALL {
            if rng.chance(p) {
                let text = valid_text(rng, key, m);
                let _ = s.set(key, &text);
            }
        }
    }
    s
}

// ---- hostile values and mutations ------------------------------------------------------------

fn list_of(n: usize, item: impl Fn(usize) -> String) -> String {
    (0..n).map(item).collect::<Vec<_>>().join(",")
}

static LIST_10K: OnceLock<String> = OnceLock::new();
static PAIRS_10K: OnceLock<String> = OnceLock::new();

// Mostly a list of hostile literals, one per line.
#[allow(clippy::too_many_lines)]
fn hostile_value(rng: &mut Rng) -> String {
    const FIXED: &[&str] = &[
        "NaN",
        "nan",
        "-NaN",
        "inf",
        "-inf",
        "Infinity",
        "-Infinity",
        "infinity",
        "INF",
        "-0",
        "-0.0",
        "+0",
        "0",
        "-1",
        "1e308",
        "1e309",
        "-1e308",
        "1.7976931348623157e308",
        "2e308",
        "5e-324",
        "1e-400",
        "4.9e-324",
        "0x10",
        "0b1",
        "1e",
        "1e+",
        "e5",
        ".",
        "..5",
        "5.",
        "1.2.3",
        "--1",
        "+-1",
        "1_000_000",
        "1,,000",
        "1,0000",
        ",,,,",
        ":::",
        ";;;",
        "%",
        "%%",
        "100%%",
        "1e6%",
        "1e15",
        "1e15+1",
        "1000000000000001",
        "1P",
        "1000P",
        "1E",
        "1Ei",
        "4Ki",
        "4KiB",
        "4 Mi tokens",
        "1.5e3k",
        "9007199254740993",
        "1073741824",
        "1073741825",
        "2147483648",
        "4294967296",
        "18446744073709551616",
        "65536",
        "65537",
        "0.1e-5%",
        "1e-7%",
        "1e300ms",
        "1e300h",
        "1e-300ns",
        "3.6e6",
        "3600001",
        "1h",
        "61min",
        "3亿",
        "1e6万",
        "１２３",
        "٣",
        "一",
        "\u{202E}1",
        "1\u{200B}",
        "\u{FEFF}1",
        "1\u{0301}\u{0301}\u{0301}",
        "👩‍👩‍👧‍👦",
        "🚀1e6",
        "مرحبا",
        "שלום 5%",
        "a\u{0300}\u{0301}\u{0302}\u{0303}\u{0304}",
        "\u{0000}",
        "\u{0007}",
        "\r\n",
        "\t1\t",
        " 1 ",
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "javascript:alert(1)",
        "${7*7}",
        "{{7*7}}",
        "%00",
        "%ZZ",
        "%E2%80%AE",
        "%C3%28",
        "%F0%9F",
        "%ED%A0%80",
        "%FF%FE",
        "+",
        "++",
        "&",
        "=",
        "==",
        "?",
        "#",
        "\\",
        "/",
        "1:1",
        "1:",
        ":1",
        "1:0",
        "0:1",
        "2:1,1:2",
        "1:1,1:1",
        "1:-1",
        "1:NaN",
        "NaN:1",
        "1:inf",
        "1e309:1",
        "1:1e-320",
        "1:1e308,2:1e-308",
        "1:5e-324,2:1.7e308",
        "1073741824:1,1073741825:1",
    ];
    match rng.below(12) {
        0 => "9".repeat(1 + rng.below(2_000)),
        1 => format!("0.{}1", "0".repeat(rng.below(400))),
        2 => LIST_10K
            .get_or_init(|| list_of(10_000, |i| (i + 1).to_string()))
            .clone(),
        3 => PAIRS_10K
            .get_or_init(|| list_of(10_000, |i| format!("{}:{}", i + 1, 1000 - i % 1000)))
            .clone(),
        4 => "\u{0301}".repeat(rng.below(5_000)),
        5 => "🚀".repeat(rng.below(3_000)),
        6 => "x".repeat(10_000 + rng.below(20_000)),
        7 => {
            let n = 1 + rng.below(100);
            (0..n)
                .map(|_| fraction_text(rng))
                .collect::<Vec<_>>()
                .join(",")
        }
        _ => rng.pick(FIXED).to_string(),
    }
}

/// Percent-encodes like `URLSearchParams` (spaces as `+`), or not at all (a raw paste).
fn encode(rng: &mut Rng, text: &str) -> String {
    if rng.chance(0.3) {
        return text.to_string();
    }
    // application/x-www-form-urlencoded, as URLSearchParams writes it.
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

const SPECIAL_BYTES: &[u8] = b"&=%?#+;,: \x00\x7f\xff\xc3\xe2";

fn mutate(rng: &mut Rng, query: &mut Vec<u8>) {
    let len = query.len();
    match rng.below(11) {
        0 if len > 0 => {
            let i = rng.below(len);
            query[i] ^= 1 << rng.below(8);
        }
        1 => {
            let i = rng.below(len + 1);
            let b = if rng.chance(0.5) {
                *rng.pick(SPECIAL_BYTES)
            } else {
                rng.next() as u8
            };
            query.insert(i, b);
        }
        2 if len > 0 => {
            let i = rng.below(len);
            let n = 1 + rng.below((len - i).min(16));
            query.drain(i..i + n);
        }
        3 => {
            // Repeat a `key=value` segment (the last one wins).
            let text = String::from_utf8_lossy(query).into_owned();
            let parts: Vec<&str> = text.split('&').collect();
            let seg = rng.pick(&parts).to_string();
            query.extend_from_slice(format!("&{seg}").as_bytes());
        }
        4..=6 => {
            // A hostile value for a real key (or a version / preset / unknown key).
            let key = match rng.below(10) {
                0 => "v".to_string(),
                1 => "preset".to_string(),
                2 => rng
                    .pick(&["zz", "", "F", "f ", " f", "f[]", "%66"])
                    .to_string(),
                _ => rng.pick(Key::ALL).name().to_string(),
            };
            let value = hostile_value(rng);
            let value = encode(rng, &value);
            query.extend_from_slice(format!("&{key}={value}").as_bytes());
        }
        7 => {
            // Percent-escape garbage at a random place.
            let i = rng.below(len + 1);
            let junk = rng.pick(&[
                "%",
                "%G",
                "%1",
                "%C3%28",
                "%F0%9F%98",
                "%25",
                "%00",
                "%%%",
                "%E2%80%AE",
            ]);
            let tail = query.split_off(i);
            query.extend_from_slice(junk.as_bytes());
            query.extend_from_slice(&tail);
        }
        8 if len > 0 => query.truncate(rng.below(len)),
        9 => {
            // Replace a value in place with a valid value of another key.
            let text = String::from_utf8_lossy(query).into_owned();
            let mut parts: Vec<String> = text.split('&').map(String::from).collect();
            let i = rng.below(parts.len());
            let key = *rng.pick(Key::ALL);
            let other_key = *rng.pick(Key::ALL);
            let other = valid_text(rng, other_key, 1);
            parts[i] = format!("{}={}", key.name(), encode(rng, &other));
            *query = parts.join("&").into_bytes();
        }
        _ => {
            // Lots of repeats: a link that is mostly noise.
            let key = rng.pick(Key::ALL).name();
            let value = hostile_value(rng);
            let seg = format!("&{key}={}", encode(rng, &value));
            let reps = 1 + rng.below((MAX_INPUT_BYTES / seg.len().max(1)).clamp(1, 200));
            for _ in 0..reps {
                query.extend_from_slice(seg.as_bytes());
            }
        }
    }
}

fn random_text(rng: &mut Rng) -> String {
    const ALPHABETS: &[&str] = &[
        "0123456789.eE+-%kMGTPi,:;&=? ",
        "abcdefghijklmnopqrstuvwxyz=&",
        "\u{202E}\u{200F}\u{0301}\u{0300}👩‍🚀🚀مرحباשלום万亿",
        "%0123456789ABCDEFabcdef",
        "\u{0}\u{1}\u{7f}\t\r\n\\\"'<>/",
    ];
    let max = if rng.chance(0.05) { 20_000 } else { 200 };
    let len = rng.below(max);
    let mut out = String::new();
    for _ in 0..len {
        let a: Vec<char> = rng.pick(ALPHABETS).chars().collect();
        out.push(*rng.pick(&a));
    }
    out
}

/// The input of case `index`: a valid scenario's query, mutated or not, or noise.
fn make_case(seed: u64, index: usize) -> (String, Option<Scenario>) {
    let mut rng = case_rng(seed, index);
    match rng.below(20) {
        0 | 1 => (random_text(&mut rng), None),
        2 => {
            // key=value soup
            let n = rng.below(40);
            let q = (0..n)
                .map(|_| {
                    let key = rng.pick(Key::ALL).name();
                    let v = if rng.chance(0.5) {
                        let k = *rng.pick(Key::ALL);
                        valid_text(&mut rng, k, 1)
                    } else {
                        hostile_value(&mut rng)
                    };
                    format!("{key}={}", encode(&mut rng, &v))
                })
                .collect::<Vec<_>>()
                .join("&");
            (q, None)
        }
        3..=7 => {
            let s = random_scenario(&mut rng);
            let q = s.to_query();
            let prefix = *rng.pick(&["", "?", "https://example.org/x/?", "/a/b?"]);
            // A fragment may hold `?` and `=` only after a real `?` (see the report: a bare
            // query followed by `#a?b=c` is read from the fragment's `?`).
            let suffix = if prefix.is_empty() {
                *rng.pick(&["", "", "#frag"])
            } else {
                *rng.pick(&["", "", "#frag", "#a?b=c&f=0.9"])
            };
            (format!("{prefix}{q}{suffix}"), Some(s))
        }
        _ => {
            let s = random_scenario(&mut rng);
            let mut q = s.to_query().into_bytes();
            for _ in 0..1 + rng.below(4) {
                mutate(&mut rng, &mut q);
            }
            // Past 16 KiB the decoder reads nothing more; keep the inputs (and the run) bounded.
            q.truncate(MAX_INPUT_BYTES);
            (String::from_utf8_lossy(&q).into_owned(), None)
        }
    }
}

// ---- checks --------------------------------------------------------------------------------

/// Failures grouped by kind; a few examples of each are kept.
#[derive(Default)]
struct Findings {
    by_kind: BTreeMap<String, (usize, Vec<(usize, String)>)>,
}

impl Findings {
    fn add(&mut self, kind: impl Into<String>, index: usize, detail: String) {
        let entry = self.by_kind.entry(kind.into()).or_default();
        entry.0 += 1;
        if entry.1.len() < 3 {
            entry.1.push((index, detail));
        }
    }
    fn merge(&mut self, other: Findings) {
        for (k, (n, examples)) in other.by_kind {
            let entry = self.by_kind.entry(k).or_default();
            entry.0 += n;
            for e in examples {
                if entry.1.len() < 3 {
                    entry.1.push(e);
                }
            }
        }
    }
}

/// What one case looked at, for the findings.
struct Ctx<'a> {
    index: usize,
    input: &'a str,
    findings: &'a mut Findings,
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        format!("{s:?}")
    } else {
        let head: String = s.chars().take(n).collect();
        format!("{head:?}… ({} chars)", s.chars().count())
    }
}

impl Ctx<'_> {
    fn fail(&mut self, kind: &str, detail: String) {
        let d = format!("input {} — {detail}", clip(self.input, 300));
        self.findings.add(kind, self.index, d);
    }
}

/// Every problem the shared panel checker (tests/common) finds in `panel`.
fn check_panel(ctx: &mut Ctx, panel: &Panel) {
    for p in common::check(panel) {
        ctx.fail(&p.kind, p.detail);
    }
}

/// How long drawing one panel may take before it counts as a frozen page.
const DRAW_TIMEOUT: Duration = Duration::from_secs(10);

/// Draws the visible panel's charts as the page does (through plotters, here into SVG), on a
/// worker thread: a chart that never finishes drawing (a frozen tab on the page) is reported
/// instead of hanging the test. The thread of such a chart is left spinning until the test
/// process exits.
fn draw_visible(ctx: &mut Ctx, s: &Scenario) {
    let scenario = s.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let panel = Panel::compute(&scenario, scenario.view);
        let mut results: Vec<(String, Result<(), String>)> = Vec::new();
        for chart in panel.charts() {
            let _ = tx.send((chart.id().to_string(), None));
            results.push((
                chart.id().to_string(),
                common::draw_svg(&panel, chart).map(drop),
            ));
        }
        let _ = tx.send((String::new(), Some(results)));
    });
    let mut current = String::from("(start)");
    loop {
        match rx.recv_timeout(DRAW_TIMEOUT) {
            Ok((id, None)) => current = id,
            Ok((_, Some(results))) => {
                for (id, r) in results {
                    if let Err(e) = r {
                        ctx.fail(&format!("chart {id} not drawn"), e);
                    }
                }
                return;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                ctx.fail(
                    &format!("chart {current} never finishes drawing (frozen page)"),
                    format!("still drawing after {} s", DRAW_TIMEOUT.as_secs()),
                );
                return;
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                ctx.fail(
                    &format!("chart {current} panicked while drawing"),
                    String::new(),
                );
                return;
            }
        }
    }
}

/// Time spent per stage, summed over the cases.
#[derive(Default, Clone, Copy)]
struct Timings {
    decode: Duration,
    round_trip: Duration,
    laws: Duration,
    llm: Duration,
    plan: Duration,
    draw: Duration,
}

impl Timings {
    fn add(&mut self, o: &Timings) {
        self.decode += o.decode;
        self.round_trip += o.round_trip;
        self.laws += o.laws;
        self.llm += o.llm;
        self.plan += o.plan;
        self.draw += o.draw;
    }
}

/// Which of the heavy stages to run regardless of the case index.
#[derive(Clone, Copy)]
struct Stages {
    /// Plan sweep and lever table.
    all: bool,
    /// Drawing (with `all`).
    draw: bool,
}

const BY_INDEX: Stages = Stages {
    all: false,
    draw: false,
};

/// Runs every check on one input. Returns how long each stage took.
fn run_case(
    index: usize,
    input: &str,
    original: Option<&Scenario>,
    stages: Stages,
    findings: &mut Findings,
) -> Timings {
    let mut t = Timings::default();
    let mut ctx = Ctx {
        index,
        input,
        findings,
    };
    let started = Instant::now();
    let decoded = decode(input);
    t.decode = started.elapsed();
    let started = Instant::now();
    let s = &decoded.scenario;

    for e in &decoded.errors {
        let msg = e.to_string();
        if msg.trim().is_empty() {
            ctx.fail("empty error message", format!("{e:?}"));
        }
        if msg.chars().count() > MAX_MESSAGE_CHARS {
            ctx.fail(
                "overlong error message",
                format!("{} chars: {}", msg.chars().count(), clip(&msg, 200)),
            );
        }
        if let UrlError::Input(ie) = e {
            if !msg.contains(&format!("({})", ie.key.name())) || ie.reason.trim().is_empty() {
                ctx.fail("input error without its key", format!("{msg:?}"));
            }
        }
    }
    if !s.check().is_empty() {
        ctx.fail("decoded scenario breaks a rule", format!("{:?}", s.check()));
    }
    if let Some(original) = original {
        if !decoded.errors.is_empty() || s != original {
            ctx.fail(
                "valid scenario's query does not decode to itself",
                format!(
                    "errors {:?}; scenario differs: {}",
                    decoded.errors,
                    s != original
                ),
            );
        }
    }
    let query = s.to_query();
    let again = decode(&query);
    if !again.errors.is_empty() || &again.scenario != s {
        ctx.fail(
            "round trip to_query → decode changes the scenario",
            format!("query {query:?}: errors {:?}", again.errors),
        );
    }
    if again.scenario.to_query() != query {
        ctx.fail(
            "to_query is not stable",
            format!("{query:?} → {:?}", again.scenario.to_query()),
        );
    }

    t.round_trip = started.elapsed();
    let started = Instant::now();
    check_panel(&mut ctx, &Panel::compute(s, View::Laws));
    t.laws = started.elapsed();
    let started = Instant::now();
    check_panel(&mut ctx, &Panel::compute(s, View::Strong));
    check_panel(&mut ctx, &Panel::compute(s, View::Weak));
    t.llm = started.elapsed();
    let started = Instant::now();
    // Heavy stages on every PLAN_EVERY-th / LEVERS_EVERY-th / DRAW_EVERY-th case of each shard
    // (so the shards stay balanced); a case run alone (FUZZ_CASE) gets every stage.
    let every = |n: usize| (index / SHARDS).is_multiple_of(n);
    if stages.all || every(PLAN_EVERY) {
        // The Plan panel includes the lever table (seven more Plan sweeps).
        check_panel(&mut ctx, &Panel::compute(s, View::Plan));
    }
    t.plan = started.elapsed();
    let started = Instant::now();
    if (stages.all && stages.draw) || every(DRAW_EVERY) {
        draw_visible(&mut ctx, s);
    }
    t.draw = started.elapsed();
    t
}

/// The kinds of finding `input` produces (every stage run, as for case 0).
fn kinds_of(input: &str, draw: bool) -> Vec<String> {
    let mut f = Findings::default();
    let stages = Stages { all: true, draw };
    let r = catch_unwind(AssertUnwindSafe(|| {
        run_case(1, input, None, stages, &mut f)
    }));
    if r.is_err() {
        f.add("panic", 0, String::new());
    }
    f.by_kind.into_keys().collect()
}

/// Greedy delta debugging over the `key=value` pairs, then over each value's characters
/// (from the end), keeping every step that still produces `kind`. Returns the canonical
/// query of what is left when that still fails the same way, else the reduced text.
fn minimize(input: &str, kind: &str) -> String {
    let query = input.split_once('?').map_or(input, |(_, q)| q);
    let mut pairs: Vec<String> = query.split('&').map(String::from).collect();
    let draw = kind.contains("draw");
    let fails = |pairs: &[String]| kinds_of(&pairs.join("&"), draw).iter().any(|k| k == kind);
    if !fails(&pairs) {
        return input.to_string();
    }
    let mut i = 0;
    while i < pairs.len() {
        let mut fewer = pairs.clone();
        fewer.remove(i);
        if fails(&fewer) {
            pairs = fewer;
        } else {
            i += 1;
        }
    }
    // Shorten list values: drop items one at a time while the finding stays.
    let shorter = |pairs: &[String], i: usize| -> Option<Vec<String>> {
        let (k, v) = pairs[i].split_once('=')?;
        let items: Vec<&str> = v.split(',').collect();
        if items.len() < 2 {
            return None;
        }
        (0..items.len()).find_map(|j| {
            let mut rest = items.clone();
            rest.remove(j);
            let mut cand = pairs.to_vec();
            cand[i] = format!("{k}={}", rest.join(","));
            fails(&cand).then_some(cand)
        })
    };
    for i in 0..pairs.len() {
        while let Some(c) = shorter(&pairs, i) {
            pairs = c;
        }
    }
    let reduced = pairs.join("&");
    let canonical = decode(&reduced).scenario.to_query();
    if canonical.len() < reduced.len() && kinds_of(&canonical, draw).iter().any(|k| k == kind) {
        canonical
    } else {
        reduced
    }
}

struct ShardResult {
    findings: Findings,
    /// The slowest decode (best of five re-runs): time, case index, input length.
    slowest: (Duration, usize, usize),
    timings: Timings,
    cases: usize,
}

fn run_shard(shard: usize) -> ShardResult {
    let seed = seed();
    let total = cases();
    let only = env_u64("FUZZ_CASE").map(|i| i as usize);
    let mut findings = Findings::default();
    let mut slowest = (Duration::ZERO, 0, 0);
    let mut slow: Vec<(Duration, usize)> = Vec::new();
    let mut timings = Timings::default();
    let mut n = 0;
    // Quiet the default hook: a panic is recorded as a finding with its input instead.
    let indices: Vec<usize> = match only {
        Some(i) if i % SHARDS == shard => vec![i],
        Some(_) => vec![],
        None => (shard..total).step_by(SHARDS).collect(),
    };
    for index in indices {
        let (input, original) = make_case(seed, index);
        if only.is_some() {
            println!("case {index} (seed {seed:#x}) input: {input:?}");
        }
        let mut local = Findings::default();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let stages = if only.is_some() {
                Stages {
                    all: true,
                    draw: true,
                }
            } else {
                BY_INDEX
            };
            run_case(index, &input, original.as_ref(), stages, &mut local)
        }));
        match outcome {
            Ok(t) => {
                timings.add(&t);
                // Keep the five slowest decodes; they are timed again below.
                slow.push((t.decode, index));
                slow.sort_by_key(|s| std::cmp::Reverse(s.0));
                slow.truncate(5);
            }
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                local.add(
                    "panic",
                    index,
                    format!("{msg} — input {}", clip(&input, 300)),
                );
            }
        }
        findings.merge(local);
        n += 1;
    }
    // A first measurement can be inflated by a busy machine (the other shards, a compiler next
    // door): time the slowest inputs again, five times each, and keep the best of each.
    for (first, index) in slow {
        let (input, _) = make_case(seed, index);
        let best = (0..5)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(decode(std::hint::black_box(&input)));
                t.elapsed()
            })
            .min()
            .unwrap_or(first);
        if best > slowest.0 {
            slowest = (best, index, input.len());
        }
    }
    ShardResult {
        findings,
        slowest,
        timings,
        cases: n,
    }
}

fn report_shard(shard: usize, started: Instant) {
    let r = run_shard(shard);
    let seed = seed();
    let elapsed = started.elapsed();
    let t = &r.timings;
    println!(
        "fuzz_decode shard {shard}/{SHARDS}: seed {seed:#x}, {} cases in {:.1} s (decode {:.1} s, \
         round trip {:.1} s, laws {:.1} s, llm {:.1} s, plan {:.1} s, draw {:.1} s); decode mean {:.1} µs, \
         slowest {:.2} ms (case {}, {} bytes)",
        r.cases,
        elapsed.as_secs_f64(),
        t.decode.as_secs_f64(),
        t.round_trip.as_secs_f64(),
        t.laws.as_secs_f64(),
        t.llm.as_secs_f64(),
        t.plan.as_secs_f64(),
        t.draw.as_secs_f64(),
        t.decode.as_secs_f64() * 1e6 / r.cases.max(1) as f64,
        r.slowest.0.as_secs_f64() * 1e3,
        r.slowest.1,
        r.slowest.2,
    );
    // Release builds must decode any single input in < 50 ms; debug builds are ~10–30× slower,
    // so there the bound only catches pathological (super-linear) cases.
    let limit = if cfg!(debug_assertions) {
        Duration::from_millis(1_000)
    } else {
        Duration::from_millis(50)
    };
    let mut problems = Vec::new();
    for (kind, (count, examples)) in &r.findings.by_kind {
        let mut s = format!("{kind}: {count} case(s)");
        for (i, d) in examples {
            s.push_str(&format!(
                "\n    case {i} (FUZZ_SEED={seed:#x} FUZZ_CASE={i}): {d}"
            ));
        }
        problems.push(s);
    }
    if r.slowest.0 > limit {
        problems.push(format!(
            "slow decode: case {} took {:.1} ms (limit {} ms)",
            r.slowest.1,
            r.slowest.0.as_secs_f64() * 1e3,
            limit.as_millis()
        ));
    }
    if env_u64("FUZZ_CASE").is_some() && !r.findings.by_kind.is_empty() {
        let (input, _) = make_case(seed, env_u64("FUZZ_CASE").unwrap_or(0) as usize);
        for kind in r.findings.by_kind.keys() {
            println!("minimal input for {kind:?}: {:?}", minimize(&input, kind));
        }
    }
    assert!(
        problems.is_empty(),
        "fuzz_decode shard {shard} found:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn fuzz_shard_0() {
    report_shard(0, Instant::now());
}

#[test]
fn fuzz_shard_1() {
    report_shard(1, Instant::now());
}

#[test]
fn fuzz_shard_2() {
    report_shard(2, Instant::now());
}

#[test]
fn fuzz_shard_3() {
    report_shard(3, Instant::now());
}

/// The generator itself: valid scenarios really are valid and varied, so the fuzzing
/// exercises more than the defaults.
#[test]
fn generator_makes_varied_valid_scenarios() {
    let seed = seed();
    let mut views = BTreeMap::new();
    let mut non_default = 0;
    for i in 0..400 {
        let mut rng = case_rng(seed, i);
        let s = random_scenario(&mut rng);
        assert!(s.check().is_empty(), "{s:?}");
        *views.entry(s.view.key()).or_insert(0) += 1;
        if s.to_query() != "v=1" {
            non_default += 1;
        }
    }
    assert!(
        views.len() == View::ALL.len(),
        "every view is generated: {views:?}"
    );
    assert!(
        non_default > 300,
        "{non_default} of 400 scenarios differ from the defaults"
    );
}

/// `FUZZ_INPUT='v=1&…' cargo test --test fuzz_decode check_input -- --nocapture` runs every
/// check (Plan, levers and drawing included) on one input and prints what it finds; without
/// `FUZZ_INPUT` it does nothing.
#[test]
fn check_input() {
    let Ok(input) = std::env::var("FUZZ_INPUT") else {
        return;
    };
    let mut findings = Findings::default();
    let stages = Stages {
        all: true,
        draw: true,
    };
    let r = catch_unwind(AssertUnwindSafe(|| {
        run_case(0, &input, None, stages, &mut findings)
    }));
    if r.is_err() {
        findings.add("panic", 0, String::new());
    }
    for (kind, (_, examples)) in &findings.by_kind {
        println!("{kind}: {}", examples.first().map_or("", |e| e.1.as_str()));
    }
    assert!(
        findings.by_kind.is_empty(),
        "{} kind(s) of finding",
        findings.by_kind.len()
    );
}
