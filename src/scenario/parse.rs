//! Parsers shared by the inputs of several panels: fractions, counts, ranges, exercise lists.

use super::*;
use crate::text::units::format_si;

/// `0 ≤ f ≤ 1`, written `0.05` or `5%`.
pub(crate) fn parse_unit_fraction(text: &str) -> Result<f64, String> {
    let value = parse_fraction(text).map_err(|e| e.to_string())?;
    if value > 0.0 && value < 1e-12 {
        // 1/f must stay finite (the ceiling); nothing this small is a measurable serial part.
        Err(trf!(
            "{} is below 1e-12; write 0 for no serial part",
            "{} 小于 1e-12；没有串行部分请写 0",
            quote_number(value)
        ))
    } else if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(trf!(
            "{} is outside 0 … 1 (write 0.05 or 5%)",
            "{} 超出 0 … 1 的范围（写 0.05 或 5%）",
            quote_number(value)
        ))
    }
}

/// A whole number of processors (or a parallel degree) in `min ..= 2^30`.
pub(crate) fn parse_count(text: &str, min: f64) -> Result<f64, String> {
    let value = parse_quantity(text).map_err(|e| e.to_string())?;
    if value.fract() != 0.0 {
        return Err(trf!(
            "{} is not a whole number",
            "{} 不是整数",
            quote_number(value)
        ));
    }
    if !(min..=MAX_PROCESSORS).contains(&value) {
        return Err(trf!(
            "{} is outside {} … 2^30 (1,073,741,824)",
            "{} 超出 {} … 2^30（1,073,741,824）的范围",
            quote_number(value),
            format_count(min)
        ));
    }
    Ok(value)
}

/// `q=`: exercise numbers, e.g. `3` or `1,4,7` (each once, in the teacher's order).
pub(super) fn parse_quiz(text: &str) -> Result<Vec<u8>, String> {
    let mut numbers = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<u8>() {
            Ok(n) if (1..=EXERCISES).contains(&n) => {
                if !numbers.contains(&n) {
                    numbers.push(n);
                }
            }
            _ => {
                return Err(trf!(
                    "“{}” is not an exercise number 1 … {}",
                    "“{}” 不是练习编号 1 … {}",
                    clip(part),
                    EXERCISES
                ))
            }
        }
    }
    Ok(numbers)
}

/// A number in `lo ..= hi`; `hint` explains the range in the message: a note in parentheses,
/// or else the unit of the bounds (which Chinese writes before 的范围).
pub(crate) fn parse_in_range(text: &str, lo: f64, hi: f64, hint: &str) -> Result<f64, String> {
    let value = parse_quantity(text).map_err(|e| e.to_string())?;
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        let (unit, note) = if hint.starts_with(['(', '（']) {
            ("", hint)
        } else {
            (hint, "")
        };
        Err(trf!(
            "{} is outside {} … {} {}{}",
            "{} 超出 {} … {} {}的范围{}",
            quote_number(value),
            canonical(lo),
            canonical(hi),
            unit,
            note
        )
        .trim_end()
        .to_string())
    }
}

pub(crate) fn parse_positive(text: &str, min: f64, max: f64) -> Result<f64, String> {
    let v = parse_quantity(text).map_err(|e| e.to_string())?;
    if v > 0.0 && v >= min && v <= max {
        Ok(v)
    } else if v <= 0.0 {
        Err(trf!("{} must be above 0", "{} 必须大于 0", quote_number(v)))
    } else {
        Err(trf!(
            "{} is outside {} … {}",
            "{} 超出 {} … {} 的范围",
            quote_number(v),
            format_si(min, 3),
            format_si(max, 3)
        ))
    }
}

/// A whole number from 1 to a bound far below 2^30 (`a`, `tp`, `pp`, `cp`, `vc`). A value below 1
/// or above 2^30 gets `outside`, which names the range in force, rather than [`parse_count`]'s
/// "outside 1 … 2^30"; the caller checks its own upper bound.
pub(crate) fn parse_small_count(
    text: &str,
    outside: impl Fn(f64) -> String,
) -> Result<f64, String> {
    let v = parse_quantity(text).map_err(|e| e.to_string())?;
    if !(1.0..=MAX_PROCESSORS).contains(&v) {
        return Err(outside(v));
    }
    parse_count(text, 1.0)
}

/// The largest parallel degree or count of microbatches a key takes (`a`, `tp`, `pp`, `cp`,
/// `mbs`).
pub(crate) const MAX_DEGREE: f64 = 65_536.0;

pub(crate) fn parse_degree(text: &str) -> Result<u32, String> {
    let v = parse_small_count(text, |v| {
        trf!(
            "{} is outside 1 … {}",
            "{} 超出 1 … {} 的范围",
            quote_number(v),
            format_count(MAX_DEGREE)
        )
    })?;
    if v > MAX_DEGREE {
        return Err(trf!(
            "{} is above {}",
            "{} 大于 {}",
            format_count(v),
            format_count(MAX_DEGREE)
        ));
    }
    Ok(v as u32)
}
