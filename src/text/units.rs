//! Parsing and formatting of quantities the way the article writes them.
//!
//! Decimal SI by default (`32M` = 32,000,000, `3.7k` = 3,700, `1T` = 10^12, `400T` FLOP/s,
//! `100G` B/s); binary suffixes `Ki`, `Mi`, `Gi`, `Ti`, `Pi` are accepted on input (`4Mi` =
//! 4,194,304) and never produced. Chinese readers' `万` (10^4) and `亿` (10^8) are accepted too.
//! Durations accept `ns`, `us`/`µs`, `ms`, `s`, `min`, `h` and are returned in milliseconds.
//!
//! Every parser returns a finite number or a [`UnitError`] whose message names what was wrong;
//! nothing here can produce NaN or ∞.

use crate::i18n::tr;
use std::fmt;

/// Why a piece of text is not a quantity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnitError {
    /// Nothing was typed.
    Empty,
    /// The text does not start with a number (`abc`, `--3`).
    NotANumber(String),
    /// A number followed by a suffix we do not know (`3x`, `5 apples`).
    UnknownSuffix(String),
    /// The number is NaN, infinite or overflows `f64` once the suffix is applied.
    NotFinite(String),
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnitError::Empty => f.write_str(tr("enter a number", "请输入一个数")),
            UnitError::NotANumber(s) => {
                f.write_str(&trf!("“{}” is not a number", "“{}” 不是数字", clip(s)))
            }
            UnitError::UnknownSuffix(s) => f.write_str(&trf!(
                "unknown unit suffix “{}” (use k, M, G, T, P, Ki, Mi, Gi, % or a plain number)",
                "未知的单位后缀 “{}”（可用 k、M、G、T、P、Ki、Mi、Gi、% 或纯数字）",
                clip(s)
            )),
            UnitError::NotFinite(s) => f.write_str(&trf!(
                "“{}” is not a finite number",
                "“{}” 不是有限的数",
                clip(s)
            )),
        }
    }
}

impl std::error::Error for UnitError {}

/// Shortens user text quoted back in an error message, so a 10,000-character paste
/// does not become a 10,000-character message.
pub fn clip(s: &str) -> String {
    const MAX_CHARS: usize = 40;
    if s.chars().count() <= MAX_CHARS {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX_CHARS).collect();
        format!("{head}…")
    }
}

/// Splits `text` into the leading numeric literal and the rest (trimmed).
/// Accepts `_` and thousands commas (`32,000`) inside the number.
fn split_number(text: &str) -> Result<(f64, &str), UnitError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(UnitError::Empty);
    }
    let bytes = t.as_bytes();
    let mut end = 0;
    let mut seen_digit = false;
    let mut seen_e = false;
    while end < bytes.len() {
        let c = bytes[end] as char;
        let ok = match c {
            '0'..='9' => {
                seen_digit = true;
                true
            }
            '+' | '-' => end == 0 || matches!(bytes[end - 1] as char, 'e' | 'E'),
            '.' | '_' => true,
            ',' => {
                // thousands separator only: followed by exactly three digits
                let rest = &t[end + 1..];
                rest.len() >= 3
                    && rest.as_bytes()[..3].iter().all(u8::is_ascii_digit)
                    && !rest.as_bytes().get(3).is_some_and(|b| b.is_ascii_digit())
            }
            'e' | 'E' => {
                // exponent only if followed by a digit (or sign + digit): "1e6" yes, "1E" (exa?) no
                let rest = &t[end + 1..];
                let rest = rest.strip_prefix(['+', '-']).unwrap_or(rest);
                let ok = seen_digit && !seen_e && rest.starts_with(|c: char| c.is_ascii_digit());
                if ok {
                    seen_e = true;
                }
                ok
            }
            _ => false,
        };
        if !ok {
            break;
        }
        end += 1;
    }
    let literal: String = t[..end]
        .chars()
        .filter(|c| *c != '_' && *c != ',')
        .collect();
    if !seen_digit {
        return Err(UnitError::NotANumber(text.trim().to_string()));
    }
    let value = super::decimal::parse_decimal(&literal)
        .ok_or_else(|| UnitError::NotANumber(text.trim().to_string()))?;
    if !value.is_finite() {
        return Err(UnitError::NotFinite(text.trim().to_string()));
    }
    Ok((value, t[end..].trim()))
}

fn finite(value: f64, text: &str) -> Result<f64, UnitError> {
    if value.is_finite() {
        // -0 is normalised so "-0" never shows up in a URL or a table.
        Ok(if value == 0.0 { 0.0 } else { value })
    } else {
        Err(UnitError::NotFinite(text.trim().to_string()))
    }
}

/// Multiplier of a count/size suffix: decimal SI, binary IEC, or the Chinese 万/亿.
fn multiplier(suffix: &str) -> Option<f64> {
    Some(match suffix {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" => 1e6,
        // "B" (billion) is how parameter counts are written: 8B.
        "G" | "B" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "Ki" => 1024.0,
        "Mi" => 1024.0 * 1024.0,
        "Gi" => 1024.0 * 1024.0 * 1024.0,
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "万" => 1e4,
        "亿" => 1e8,
        _ => return None,
    })
}

/// Bytes per GiB (2^30): memory is shown in GiB, the unit `nvidia-smi` and PyTorch's memory
/// reports use.
pub const GIB_BYTES: f64 = 1024.0 * 1024.0 * 1024.0;

/// Memory in GiB, one decimal.
pub fn format_gib(bytes: f64) -> String {
    fixed(bytes / GIB_BYTES, 1)
}

/// Parses a count or size: `32M`, `3.7k`, `1e6`, `4Mi`, `400T`, `100G`, `8B`, `1,024`, `3.2万`.
///
/// A trailing unit word after the suffix is tolerated when it is one of the units the page
/// shows (`100 GB/s`, `400 TFLOP/s`, `32M tokens`), so pasted values from papers work.
///
/// Sizes as people write them are read too: a byte `B` after a scale (`80GB` = 80·10⁹ bytes,
/// `80 GiB` = 80·2³⁰, `16 MB`), and counts in words (`70 billion`, `70 bn`, `1.2 million`).
pub fn parse_quantity(text: &str) -> Result<f64, UnitError> {
    let (value, rest) = split_number(text)?;
    let rest = strip_unit_words(rest);
    if let Some(m) = word_multiplier(rest) {
        return finite(value * m, text);
    }
    let (suffix, tail) = split_suffix(rest);
    // "B" alone is a billion (8B parameters); after another scale it is the byte (80GB).
    let bytes = tail == "B" && !suffix.is_empty() && suffix != "B";
    match multiplier(suffix) {
        Some(m) if tail.is_empty() || bytes => finite(value * m, text),
        _ => Err(UnitError::UnknownSuffix(rest.to_string())),
    }
}

/// A count's scale written as a word, in any case: `thousand`, `million` (`mn`), `billion`
/// (`bn`), `trillion` (`tn`) — the short scale, as model cards write parameter counts.
fn word_multiplier(word: &str) -> Option<f64> {
    Some(match word.to_ascii_lowercase().as_str() {
        "thousand" => 1e3,
        "million" | "mn" => 1e6,
        "billion" | "bn" => 1e9,
        "trillion" | "tn" => 1e12,
        _ => return None,
    })
}

/// Separates an SI/IEC suffix from what follows it.
fn split_suffix(rest: &str) -> (&str, &str) {
    for candidate in ["Ki", "Mi", "Gi", "Ti", "Pi", "万", "亿"] {
        if let Some(tail) = rest.strip_prefix(candidate) {
            return (candidate, tail);
        }
    }
    match rest.chars().next() {
        Some(c) if "kKMGTPB".contains(c) => rest.split_at(1),
        _ => ("", rest),
    }
}

/// Removes trailing unit words that carry no scale (`B/s`, `FLOP/s`, `tokens`, `GPUs`).
fn strip_unit_words(rest: &str) -> &str {
    const WORDS: [&str; 9] = [
        "B/s", "FLOP/s", "FLOPS", "flop/s", "tokens", "token", "tok", "GPUs", "GPU",
    ];
    let mut r = rest.trim();
    for w in WORDS {
        if let Some(head) = r.strip_suffix(w) {
            r = head.trim_end();
            break;
        }
    }
    r
}

/// Parses a fraction given as `0.05`, `5%` or `5 %`. The range is checked by the caller.
pub fn parse_fraction(text: &str) -> Result<f64, UnitError> {
    let (value, rest) = split_number(text)?;
    match rest {
        "" => finite(value, text),
        "%" => finite(value / 100.0, text),
        other => Err(UnitError::UnknownSuffix(other.to_string())),
    }
}

/// Parses a duration and returns milliseconds: `900ms`, `1.05s`, `250us`, `2min`, `900` (ms).
pub fn parse_duration_ms(text: &str) -> Result<f64, UnitError> {
    let (value, rest) = split_number(text)?;
    let scale_to_ms = match rest {
        "" | "ms" => 1.0,
        "ns" => 1e-6,
        "us" | "µs" | "μs" => 1e-3,
        "s" | "sec" => 1e3,
        "min" => 60e3,
        "h" => 3_600e3,
        other => return Err(UnitError::UnknownSuffix(other.to_string())),
    };
    finite(value * scale_to_ms, text)
}

/// Formats with decimal SI suffixes and at most `max_sig` significant digits, trailing zeros
/// trimmed: `31250 → "31.25k"`, `3.2e7 → "32M"`, `85333333 → "85.3M"` (with 3 digits).
/// Values below 1000 get no suffix. Non-finite input (never produced by the model) prints "–".
pub fn format_si(value: f64, max_sig: usize) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    const SUFFIXES: [(f64, &str); 5] =
        [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")];
    let abs = value.abs();
    for (scale, suffix) in SUFFIXES {
        // Round first so 999,950 becomes "1M" rather than "1000k".
        if round_sig(abs / scale, max_sig) >= 1.0 && abs >= scale * 0.9995 {
            return format!("{}{}", format_sig(value / scale, max_sig), suffix);
        }
    }
    format_sig(value, max_sig)
}

/// A parameter count as model names and the `p` box's examples write it, `B` for billions:
/// `8.03B`, `405.8B`, `46.7B` (4 significant digits; `k`, `M` and `T` as [`format_si`]).
pub fn format_params(count: f64) -> String {
    billions_as_b(format_si(count, 4))
}

/// `70.55G` → `70.55B`: the SI giga of a count written as model names write billions.
fn billions_as_b(mut text: String) -> String {
    if text.ends_with('G') {
        text.pop();
        text.push('B');
    }
    text
}

/// `value` rounded to `sig` significant digits.
pub fn round_sig(value: f64, sig: usize) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let digits = sig as i32 - 1 - value.abs().log10().floor() as i32;
    let factor = 10f64.powi(digits);
    (value * factor).round() / factor
}

/// Formats a plain number with at most `max_sig` significant digits, no exponent for
/// everyday magnitudes, trailing zeros trimmed: `19.627 → "19.6"` (3 digits), `1000 → "1000"`.
pub fn format_sig(value: f64, max_sig: usize) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    if value == 0.0 {
        return "0".to_string();
    }
    let magnitude = value.abs().log10().floor() as i32;
    if !(-6..15).contains(&magnitude) {
        // Scientific notation for magnitudes no reader types: mantissa with `max_sig` digits.
        // Two steps, so 10^magnitude never underflows for subnormal inputs (1e-320).
        let mut magnitude = magnitude;
        let mut mantissa =
            value / 10f64.powi(magnitude / 2) / 10f64.powi(magnitude - magnitude / 2);
        let digits = max_sig.saturating_sub(1);
        // log10 of a subnormal can be off by one: keep the mantissa in [1, 10).
        if round_sig(mantissa.abs(), max_sig) >= 10.0 {
            mantissa /= 10.0;
            magnitude += 1;
        }
        return format!("{}e{magnitude}", trim_zeros(fixed(mantissa, digits)));
    }
    let decimals = (max_sig as i32 - 1 - magnitude).max(0) as usize;
    trim_zeros(fixed(round_sig(value, max_sig), decimals))
}

/// `value` with exactly `decimals` decimals, rounded half away from zero.
///
/// Written with integer arithmetic instead of `format!("{:.*}")`: Rust's exact float
/// formatting pulls a second float-to-decimal engine into the WebAssembly bundle for what the
/// page needs only up to 15 significant digits. Values whose scaled
/// magnitude exceeds 2^53 fall back to the shortest representation.
pub fn fixed(value: f64, decimals: usize) -> String {
    let decimals = decimals.min(15);
    let scale = 10f64.powi(decimals as i32);
    let scaled = (value.abs() * scale).round();
    if !scaled.is_finite() || scaled >= 9_007_199_254_740_992.0 {
        return canonical(value);
    }
    let scaled = scaled as u64;
    let unit = 10u64.pow(decimals as u32);
    let sign = if value < 0.0 && scaled != 0 { "-" } else { "" };
    if decimals == 0 {
        format!("{sign}{scaled}")
    } else {
        let frac = (scaled % unit).to_string();
        format!(
            "{sign}{}.{}{frac}",
            scaled / unit,
            "0".repeat(decimals - frac.len())
        )
    }
}

fn trim_zeros(s: String) -> String {
    if s.contains('.') {
        let t = s.trim_end_matches('0').trim_end_matches('.');
        if t == "-0" {
            "0".to_string()
        } else {
            t.to_string()
        }
    } else {
        s
    }
}

/// Formats with a fixed number of decimals and trailing zeros trimmed: `(112.5, 2) → "112.5"`.
pub fn format_decimals(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    trim_zeros(fixed(value, decimals))
}

/// Formats an integer-valued count with thousands separators: `16384 → "16,384"`.
pub fn format_count(value: f64) -> String {
    if !value.is_finite() {
        return "–".to_string();
    }
    if value.abs() >= 1e15 {
        return format_si(value, 4);
    }
    let rounded = value.round();
    let digits = format!("{}", rounded.abs() as u64);
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if rounded < 0.0 {
        out.push('-');
    }
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Formats a fraction as a percentage with `decimals` decimals: `0.6667 → "66.7%"`.
pub fn format_percent(fraction: f64, decimals: usize) -> String {
    if !fraction.is_finite() {
        return "–".to_string();
    }
    format!("{}%", format_decimals(fraction * 100.0, decimals))
}

/// Formats a speedup the way the article writes it: `20x`, `19.6x`, `3891x`; in Chinese
/// `20 倍`, as Chinese writes a multiple.
pub fn format_speedup(speedup: f64) -> String {
    if !speedup.is_finite() {
        return "–".to_string();
    }
    // Three significant digits, but never rounding away whole units: 3686.5 → "3687x".
    let sig = if speedup >= 1000.0 { 4 } else { 3 };
    crate::trf!("{}x", "{} 倍", format_sig(speedup, sig))
}

/// The canonical text of a number in a URL or a number box: Rust's `Display` for `f64` (the
/// shortest decimal that reads back as the same `f64`, without an exponent), with `-0`
/// written as `0` so it never shows up in a URL or a table.
pub fn canonical(value: f64) -> String {
    if value == 0.0 {
        "0".to_string()
    } else {
        format!("{value}")
    }
}

/// A number quoted back in a message: exact for everyday magnitudes, scientific with six
/// digits beyond them (so `1e-300` is not three hundred zeros).
pub fn quote_number(value: f64) -> String {
    if value == 0.0 || (1e-6..1e15).contains(&value.abs()) {
        canonical(value)
    } else {
        format_sig(value, 6)
    }
}

/// The shortest text that reads back as exactly `value`: SI-suffixed when that is exact
/// (`32M`, `370T`, `1.8G`), otherwise [`canonical`]. Used for URLs and number boxes of
/// large quantities, so `decode(encode(s)) == s` holds bit for bit.
pub fn canonical_si(value: f64) -> String {
    if value.abs() >= 1e3 {
        for sig in 1..=17 {
            let text = format_si(value, sig);
            if parse_quantity(&text) == Ok(value) {
                return text;
            }
        }
    }
    canonical(value)
}

/// A parameter count as the `p` and `pa` boxes and their links write it: [`canonical_si`]
/// with `B` for billions (`1.776B`, `70.55B`), as [`format_params`] shows counts.
pub fn canonical_params(count: f64) -> String {
    billions_as_b(canonical_si(count))
}

/// `f` as a reader writes it: `5%`, `0.5%`, `12.5%`.
pub fn format_fraction(f: f64) -> String {
    format!("{}%", format_sig(f * 100.0, 3))
}

/// Milliseconds as the seed writes them: up to two decimals, trailing zeros trimmed
/// (`112.5`, `56.25`, `1000`).
pub fn format_ms(ms: f64) -> String {
    format_decimals(ms, 2)
}

/// Exposed ms, starred when extrapolated beyond the tabulated GPU counts.
pub fn format_exposed(ms: f64, extrapolated: bool) -> String {
    format!("{}{}", format_ms(ms), if extrapolated { "*" } else { "" })
}

/// Tokens per second with an SI suffix: `96.24M`, `121.9M`.
pub fn format_rate(tokens_per_s: f64) -> String {
    format_si(tokens_per_s, 4)
}

/// Optimizer steps with thousands separators and the seed's half step: `7,812.5`.
pub fn format_steps(steps: f64) -> String {
    if steps >= 1e6 {
        return format_si(steps, 4);
    }
    let whole = steps.trunc();
    let frac = format_decimals(steps - whole, 2);
    match frac.as_str() {
        "0" => format_count(whole),
        "1" => format_count(whole + 1.0),
        f => format!("{}{}", format_count(whole), f.trim_start_matches('0')),
    }
}

/// Hours with a readable precision: `8.68 h`, `125 h`, `0.52 h`.
pub fn format_hours(hours: f64) -> String {
    format!("{} h", format_sig(hours, 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_products_examples() {
        assert_eq!(parse_quantity("32M"), Ok(32e6));
        assert_eq!(parse_quantity("3.7k"), Ok(3700.0));
        assert_eq!(parse_quantity("1e6"), Ok(1e6));
        assert_eq!(parse_quantity("4Mi"), Ok(4_194_304.0));
        assert_eq!(parse_quantity("400T"), Ok(400e12));
        assert_eq!(parse_quantity("100G"), Ok(100e9));
        assert_eq!(parse_quantity("100 GB/s"), Ok(100e9));
        assert_eq!(parse_quantity("1,024"), Ok(1024.0));
        assert_eq!(parse_quantity("3.2万"), Ok(32_000.0));
        assert_eq!(parse_quantity("70 亿"), Ok(7e9));
    }

    #[test]
    fn reads_bytes_after_a_scale_and_counts_in_words() {
        assert_eq!(parse_quantity("80GB"), Ok(80e9));
        assert_eq!(parse_quantity("80 GiB"), Ok(85_899_345_920.0));
        assert_eq!(parse_quantity("141 GB"), Ok(141e9));
        assert_eq!(parse_quantity("16MB"), Ok(16e6));
        assert_eq!(parse_quantity("2.5GiB"), Ok(2_684_354_560.0));
        assert_eq!(parse_quantity("70 billion"), Ok(70e9));
        assert_eq!(parse_quantity("70 Billion"), Ok(70e9));
        assert_eq!(parse_quantity("70bn"), Ok(70e9));
        assert_eq!(parse_quantity("1.2 million"), Ok(1.2e6));
        assert_eq!(parse_quantity("1 trillion tokens"), Ok(1e12));
        assert_eq!(parse_quantity("3 thousand"), Ok(3e3));
        // B alone stays a billion; a byte needs a scale before it; two bytes are no unit.
        assert_eq!(parse_quantity("8B"), Ok(8e9));
        assert_eq!(
            parse_quantity("8BB"),
            Err(UnitError::UnknownSuffix("BB".to_string()))
        );
        assert_eq!(
            parse_quantity("80GBB"),
            Err(UnitError::UnknownSuffix("GBB".to_string()))
        );
        assert_eq!(
            parse_quantity("70 billions"),
            Err(UnitError::UnknownSuffix("billions".to_string()))
        );
        assert_eq!(parse_duration_ms("900ms"), Ok(900.0));
        assert_eq!(parse_duration_ms("1.05s"), Ok(1050.0));
        assert_eq!(parse_fraction("5%"), Ok(0.05));
        assert_eq!(parse_fraction("0.05"), Ok(0.05));
    }

    #[test]
    fn rejects_with_named_reasons() {
        assert_eq!(parse_quantity(""), Err(UnitError::Empty));
        assert!(matches!(
            parse_quantity("abc"),
            Err(UnitError::NotANumber(_))
        ));
        assert!(matches!(
            parse_quantity("3x"),
            Err(UnitError::UnknownSuffix(_))
        ));
        assert!(matches!(
            parse_quantity("1e400"),
            Err(UnitError::NotFinite(_))
        ));
        assert!(matches!(
            parse_quantity("NaN"),
            Err(UnitError::NotANumber(_))
        ));
        assert!(matches!(
            parse_quantity("inf"),
            Err(UnitError::NotANumber(_))
        ));
        assert!(matches!(
            parse_fraction("5 apples"),
            Err(UnitError::UnknownSuffix(_))
        ));
        assert_eq!(parse_quantity("-0"), Ok(0.0));
        assert!(parse_quantity("-0").unwrap().is_sign_positive());
    }

    #[test]
    fn formats_like_the_article() {
        assert_eq!(format_si(31_250.0, 4), "31.25k");
        assert_eq!(format_si(32e6, 4), "32M");
        assert_eq!(format_si(3700.0, 4), "3.7k");
        assert_eq!(format_si(85_333_333.0, 3), "85.3M");
        assert_eq!(format_si(999_950.0, 3), "1M");
        assert_eq!(format_si(512.0, 4), "512");
        // Parameter counts in billions as model names write them; the rest as format_si.
        assert_eq!(format_params(8_030_261_248.0), "8.03B");
        assert_eq!(format_params(405_853_388_800.0), "405.9B");
        assert_eq!(format_params(1.2e12), "1.2T");
        assert_eq!(format_params(125e6), "125M");
        assert_eq!(canonical_params(1_776_000_000.0), "1.776B");
        assert_eq!(canonical_params(70_553_706_496.0), "70.553706496B");
        assert_eq!(format_count(16_384.0), "16,384");
        assert_eq!(format_count(1024.0), "1,024");
        assert_eq!(format_percent(2.0 / 3.0, 1), "66.7%");
        assert_eq!(format_speedup(20.0), "20x");
        assert_eq!(format_speedup(10.0), "10x");
        assert_eq!(format_speedup(19.627), "19.6x");
        assert_eq!(canonical(0.1), "0.1");
        assert_eq!(fixed(112.5, 2), "112.50");
        assert_eq!(fixed(-0.004, 2), "0.00");
        assert_eq!(fixed(2.0 / 3.0, 3), "0.667");
        assert_eq!(fixed(31.0, 0), "31");
        assert_eq!(format_sig(1.5e-9, 3), "1.5e-9");
        assert_eq!(format_sig(2.5e20, 3), "2.5e20");
        assert_eq!(format_sig(1e-320, 3), "1e-320");
        assert_eq!(canonical(-0.0), "0");
    }
}
