//! Decimal text to `f64`, correctly rounded (round half to even), without tables.
//!
//! Why not `str::parse::<f64>`: Rust's parser (Eisel–Lemire with a big-decimal fallback)
//! carries a table of 128-bit powers of five for speed, which barely compresses in the page's
//! WebAssembly, a cost the size budget cannot spare. The page parses a handful of numbers per
//! keystroke, so exact big-integer arithmetic is fast enough: the value `D · 10^E` is the ratio
//! of two integers, and 65 bits of their quotient plus whether a remainder is left decide the
//! rounding (Clinger 1990, "How to read floating point numbers accurately", AlgorithmM's idea
//! without the iteration). Tests compare every result with `str::parse` bit for bit.

/// A non-negative big integer, little-endian 32-bit limbs, no trailing zero limbs.
#[derive(Clone, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    fn bits(&self) -> u32 {
        self.0
            .last()
            .map_or(0, |top| 32 * self.0.len() as u32 - top.leading_zeros())
    }

    /// `self = self · m + a`.
    fn mul_add(&mut self, m: u32, a: u32) {
        let mut carry = u64::from(a);
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn shl(&self, n: u32) -> Big {
        let (limbs, bits) = ((n / 32) as usize, n % 32);
        let mut out = vec![0; limbs];
        let mut carry = 0u32;
        for &limb in &self.0 {
            out.push(if bits == 0 {
                limb
            } else {
                (limb << bits) | carry
            });
            carry = if bits == 0 { 0 } else { limb >> (32 - bits) };
        }
        out.push(carry);
        let mut b = Big(out);
        b.trim();
        b
    }

    fn cmp(&self, other: &Big) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }

    /// `self -= other` (`other ≤ self`).
    fn sub(&mut self, other: &Big) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let v = i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = i64::from(v < 0);
            *limb = (v + (borrow << 32)) as u32;
        }
        self.trim();
    }
}

/// The most digits read; later digits only decide rounding, recorded as "more non-zero".
/// 800 covers every double exactly (the longest exact decimal of one has 767 significant
/// digits), so this cap never changes a result.
const MAX_DIGITS: usize = 800;

/// Parses `[+-]digits[.digits][(e|E)[+-]digits]` (at least one digit) into the nearest `f64`,
/// ties to even — the same value as `str::parse::<f64>` for that syntax. Overflow gives ±∞
/// (as `str::parse` does); anything else is `None`.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], parse_exponent(&body[i + 1..])?),
        None => (body, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let magnitude = magnitude(int, frac, exponent);
    Some(if negative { -magnitude } else { magnitude })
}

/// An exponent, saturated far beyond any double's range (so `1e99999999999` is ∞, not an error).
fn parse_exponent(text: &str) -> Option<i64> {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = digits
        .bytes()
        .fold(0i64, |v, b| (v * 10 + i64::from(b - b'0')).min(1 << 40));
    Some(if negative { -value } else { value })
}

fn magnitude(int: &str, frac: &str, exponent: i64) -> f64 {
    // The significant digits and the power of ten of the last one.
    let all = int.bytes().chain(frac.bytes()).skip_while(|&b| b == b'0');
    let mut digits = Big(Vec::new());
    let (mut count, mut sticky, mut small) = (0usize, false, 0u64);
    for b in all.clone() {
        if count < MAX_DIGITS {
            digits.mul_add(10, u32::from(b - b'0'));
            small = small.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            count += 1;
        } else {
            sticky |= b != b'0';
        }
    }
    if count == 0 {
        return 0.0;
    }
    let total = all.count() as i64;
    // value = digits · 10^(exponent − frac.len() + total − count)
    let power = exponent - frac.len() as i64 + (total - count as i64);
    // Beyond these the value is 0 or ∞ whatever the digits (≤ 800 of them).
    if power + count as i64 > 310 {
        return f64::INFINITY;
    }
    if power + (count as i64) < -330 {
        return 0.0;
    }
    // Clinger's fast path: an integer below 2^53 and a power of ten up to 10^22 are both exact
    // doubles, so one IEEE multiplication or division rounds the value correctly. It covers
    // almost every number a reader types; the exact division below does the rest.
    const POWERS: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    if count <= 19 && small <= 1 << 53 && power.abs() <= 22 {
        let exact = POWERS[power.unsigned_abs() as usize];
        return if power >= 0 {
            small as f64 * exact
        } else {
            small as f64 / exact
        };
    }
    let (mut num, mut den) = (digits, Big::from_u64(1));
    for _ in 0..power.unsigned_abs() {
        (if power > 0 { &mut num } else { &mut den }).mul_add(10, 0);
    }
    round(&num, &den, sticky)
}

/// The `f64` nearest to `num / den` (plus a little more when `sticky`), ties to even.
fn round(num: &Big, den: &Big, sticky: bool) -> f64 {
    // Scale so the quotient has exactly 65 bits: q = ⌊num·2^s / den⌋ ∈ [2^64, 2^65).
    let mut shift = 64 - (num.bits() as i64 - den.bits() as i64);
    let q = loop {
        let (n, d) = if shift >= 0 {
            (num.shl(shift as u32), den.clone())
        } else {
            (num.clone(), den.shl((-shift) as u32))
        };
        let (q, rest) = divide(n, &d);
        if q >> 64 == 0 {
            shift += 1;
            continue;
        }
        break q | u128::from(rest || sticky);
    };
    // q·2^−shift: the top bit is 2^(64 − shift); a double keeps 53 bits, fewer when subnormal.
    let top = 64 - shift;
    if top > 1023 {
        return f64::INFINITY;
    }
    let kept_bits = if top >= -1022 { 53 } else { 53 - (-1022 - top) };
    if kept_bits < 0 {
        return 0.0;
    }
    // Round q (65 bits + sticky in bit 0) to `kept_bits` bits, half to even.
    let drop = 65 - kept_bits as u32;
    let mut kept = (q >> drop) as u64;
    let rest = q & ((1u128 << drop) - 1);
    let half = 1u128 << (drop - 1);
    if rest > half || rest == half && kept & 1 == 1 {
        kept += 1;
    }
    if top >= -1022 {
        // Normal: 53 bits with the implicit one; a carry to 2^53 moves to the next binade.
        let (kept, top) = if kept >> 53 == 1 {
            (kept >> 1, top + 1)
        } else {
            (kept, top)
        };
        if top > 1023 {
            return f64::INFINITY;
        }
        f64::from_bits((((top + 1023) as u64) << 52) | (kept & ((1 << 52) - 1)))
    } else {
        // Subnormal: units of 2^−1074; a carry into bit 52 is the smallest normal, as wanted.
        f64::from_bits(kept)
    }
}

/// `⌊n / d⌋` (known to be below 2^66) and whether a remainder is left.
fn divide(mut n: Big, d: &Big) -> (u128, bool) {
    let mut q = 0u128;
    for i in (0..66).rev() {
        let t = d.shl(i);
        if n.cmp(&t) != std::cmp::Ordering::Less {
            n.sub(&t);
            q |= 1 << i;
        }
    }
    (q, !n.0.is_empty())
}

#[cfg(test)]
mod tests {
    use super::parse_decimal;

    fn same(text: &str) {
        let ours = parse_decimal(text);
        let std = text.parse::<f64>().ok();
        assert_eq!(
            ours.map(f64::to_bits),
            std.map(f64::to_bits),
            "{text}: {ours:?} vs {std:?}"
        );
    }

    #[test]
    fn agrees_with_std_on_hard_cases() {
        for t in [
            "0",
            "0.0",
            "-0",
            "1",
            "5",
            "0.05",
            "0.1",
            "0.3",
            "1e6",
            "4096",
            "32e6",
            "1.5e-7",
            "0.30000000000000004",
            "1745750260155722.25",
            "1745750260155722.2",
            "9007199254740993",
            "9007199254740992.5",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "4.9406564584124654e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e309",
            "1e-400",
            "123456789012345678901234567890",
            ".5",
            "5.",
            "+3",
            "00012.5000",
            "1e+2",
            "7.038531e-26",
            "8.98846567431158e307",
            "0.000000000000000000000000000000000000001",
            "2.225073858507201136057409796709131975934819546351645648e-308",
        ] {
            same(t);
        }
        for bad in ["", ".", "e5", "1e", "1e+", "abc", "1.2.3", "--1", "1_0"] {
            assert_eq!(parse_decimal(bad), None, "{bad}");
        }
    }

    #[test]
    fn agrees_with_std_on_random_doubles_and_their_shortest_digits() {
        // A linear congruential generator: deterministic, no dependency.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state
        };
        for i in 0..6_000 {
            // Every fourth a subnormal or the smallest normals.
            let bits = if i % 4 == 0 {
                next() % (1 << 53)
            } else {
                next() & !(1 << 63)
            };
            let v = f64::from_bits(bits);
            if !v.is_finite() {
                continue;
            }
            same(&format!("{v:e}"));
            same(&format!("{:.17e}", v));
            same(&format!("{:.3e}", v));
            // Decimal strings of random digits and exponents, near and far from halfway.
            let digits = next() % 100_000_000_000_000_000;
            let exp = (next() % 700) as i64 - 350;
            same(&format!("{digits}e{exp}"));
            same(&format!("{digits}5e{exp}"));
            // The fast path's domain and its edges: below and just above 2^53, |power| ≤ 23.
            let small = next() % ((1 << 53) + 3);
            let power = (next() % 47) as i64 - 23;
            same(&format!("{small}e{power}"));
            same(&format!("{}e{power}", small % 100_000));
        }
    }
}
