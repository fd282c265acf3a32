//! How sliders map to values. Browser-free so the mapping is tested natively; the page only
//! moves positions in and values out.
//!
//! A slider is an integer position `0 ..= max_position`. Wide ranges use log scales (the
//! serial fraction spans 0.01% … 100%, processor counts snap to powers of two), as PRODUCT.md
//! asks; the value a slider produces is rounded to a readable number so the URL stays short.

use crate::scenario::{Key, Scenario};
use crate::text::units::format_fraction;
use crate::text::units::{canonical, canonical_si, format_count, format_si, format_sig};

/// Every slider of the page (declared with its key in `crate::scenario::Key`'s table) and the
/// types that describe one.
pub use crate::scenario::{linear, log, pow2, SliderRange, SliderScale, SliderSpec, SLIDERS};

/// `value` rounded to `digits` significant digits, as the double nearest that decimal. The
/// power of ten is always applied as an exact integer power (10^k for k ≥ 0 is exact up to
/// 10^22): multiplying by an inexact 10^−5 instead of dividing by 10^5 wrote
/// `31599999.999999996` for 31.6M into the box and the link.
fn round_sig(value: f64, digits: i32) -> f64 {
    if value == 0.0 || !value.is_finite() {
        return value;
    }
    let k = digits - 1 - value.abs().log10().floor() as i32;
    if k >= 0 {
        let factor = 10f64.powi(k);
        (value * factor).round() / factor
    } else {
        let factor = 10f64.powi(-k);
        (value / factor).round() * factor
    }
}

impl SliderSpec {
    pub fn for_key(key: Key) -> Option<&'static SliderSpec> {
        SLIDERS.iter().find(|s| s.key == key)
    }

    /// The value at a slider position (clamped to the slider's range), on log scales rounded
    /// to the fewest significant digits (at least 2) that map back to the same position, so
    /// dragging writes `32M`, not `31.99…M`, and no position repeats its neighbour's value.
    pub fn value_at(&self, position: u32) -> f64 {
        let p = position.clamp(self.min_position, self.max_position);
        match self.scale {
            SliderScale::Log {
                min,
                max_value,
                zero,
            } => {
                if p == 0 && zero {
                    0.0
                } else {
                    let first = if zero { 1 } else { 0 };
                    let t = p.saturating_sub(first) as f64 / (self.max_position - first) as f64;
                    let exact = min * (max_value / min).powf(t);
                    // The shortest rounding that still lands on this position: short URLs
                    // (`32M`), yet every keyboard step changes the value.
                    (2..=6)
                        .map(|digits| round_sig(exact, digits).max(min).min(max_value))
                        .find(|&v| self.position_of(v) == p)
                        .unwrap_or(exact)
                }
            }
            SliderScale::PowerOfTwo => 2f64.powi(p as i32),
            SliderScale::Linear { step } => {
                // Round away the float noise of p·step (0.57 rather than 0.5700000000000001).
                (p as f64 * step * 1e9).round() / 1e9
            }
        }
    }

    /// The slider position closest to a value (values off the grid land on the nearest).
    pub fn position_of(&self, value: f64) -> u32 {
        let raw = match self.scale {
            SliderScale::Log {
                min,
                max_value,
                zero,
            } => {
                if value <= 0.0 && zero {
                    0.0
                } else {
                    let first = if zero { 1.0 } else { 0.0 };
                    let t = (value.max(min) / min).ln() / (max_value / min).ln();
                    first + t * (self.max_position as f64 - first)
                }
            }
            SliderScale::PowerOfTwo => value.max(1.0).log2(),
            SliderScale::Linear { step } => value / step,
        };
        (raw.round().max(0.0) as u32).clamp(self.min_position, self.max_position)
    }

    /// What a screen reader says for the slider (`aria-valuetext`): the value, not the position,
    /// in this thread's language.
    pub fn value_text(&self, value: f64) -> String {
        match self.key {
            Key::SerialFraction => format!("f = {}", format_fraction(value)),
            Key::MaxProcessors => trf!("{} processors", "{} 个处理器", format_count(value)),
            Key::GrowthExponent => format!("g = {}", format_sig(value, 3)),
            Key::GlobalBatch | Key::CriticalBatch => format!("{} tokens", format_si(value, 3)),
            Key::TokenBudget => format!("{} tokens", format_si(value, 3)),
            Key::TotalParams | Key::ActiveParams => {
                trf!("{} parameters", "{} 个参数", format_si(value, 3))
            }
            Key::Flops => format!("{}FLOP/s", format_si(value, 3)),
            Key::Bandwidth => format!("{}B/s", format_si(value, 3)),
            Key::ComputeMs | Key::FixedMs => format!("{} ms", format_sig(value, 4)),
            _ => format_count(value),
        }
    }

    /// The scenario's current value for this slider.
    pub fn current(&self, scenario: &Scenario) -> f64 {
        (self.get)(scenario)
    }

    /// The text a slider position writes into the number box (and the URL).
    pub fn text_at(&self, position: u32) -> String {
        let v = self.value_at(position);
        match self.scale {
            // Durations stay in plain ms ("1200", not "1.2k").
            SliderScale::Log { .. } if v >= 1e3 && self.key != Key::ComputeMs => canonical_si(v),
            _ => canonical(v),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position of every slider writes a short value: no float noise such as
    /// `31599999.999999996` in the box or the link (at most 6 significant digits), and the text
    /// reads back as the value.
    #[test]
    fn every_slider_position_writes_a_short_value() {
        for spec in SLIDERS.iter() {
            for p in spec.min_position..=spec.max_position {
                let v = spec.value_at(p);
                let text = canonical(v);
                let digits = text
                    .chars()
                    .filter(char::is_ascii_digit)
                    .collect::<String>()
                    .trim_start_matches('0')
                    .trim_end_matches('0')
                    .len();
                // Log sliders round to at most 6 significant digits; powers of two and linear
                // steps are exact by construction.
                let short = match spec.scale {
                    SliderScale::Log { .. } => digits <= 6,
                    SliderScale::PowerOfTwo => v == 2f64.powi(p as i32),
                    SliderScale::Linear { .. } => digits <= 9,
                };
                assert!(
                    short,
                    "{} position {p}: {v} written as {text}",
                    spec.key.name()
                );
                assert_eq!(text.parse::<f64>().ok(), Some(v));
            }
        }
        assert_eq!(round_sig(31_599_999.999_999_996, 3), 31_600_000.0);
    }

    #[test]
    fn every_position_gives_a_value_the_scenario_accepts() {
        // Alone (from the defaults) every position is a valid value, except the cross-input
        // rules (P_a ≤ P, divisibility) which the page reports like typed text.
        for spec in SLIDERS {
            if matches!(
                spec.key,
                Key::ActiveParams
                    | Key::TotalParams
                    | Key::Tp
                    | Key::Pp
                    | Key::Cp
                    | Key::GlobalBatch
                    | Key::Accumulation
            ) {
                continue;
            }
            for p in spec.min_position..=spec.max_position {
                let mut s = Scenario::default();
                s.set(spec.key, &spec.text_at(p))
                    .unwrap_or_else(|e| panic!("{:?} at {p}: {e}", spec.key));
            }
        }
    }

    #[test]
    fn positions_round_trip_for_default_values() {
        let f = SliderSpec::for_key(Key::SerialFraction).unwrap();
        let b = SliderSpec::for_key(Key::GlobalBatch).unwrap();
        assert_eq!(b.text_at(b.position_of(32e6)), "32M");
        // Every keyboard step moves the value (no dead positions on log sliders).
        for spec in SLIDERS {
            for p in spec.min_position..spec.max_position {
                assert_ne!(
                    spec.value_at(p),
                    spec.value_at(p + 1),
                    "{:?} at {p}",
                    spec.key
                );
            }
        }
        let p = f.position_of(0.05);
        assert!((f.value_at(p) - 0.05).abs() < 0.003, "{}", f.value_at(p));
        assert_eq!(f.value_at(0), 0.0);
        assert_eq!(f.value_at(1000), 1.0);
        let n = SliderSpec::for_key(Key::MaxProcessors).unwrap();
        assert_eq!(n.position_of(4096.0), 12);
        assert_eq!(n.value_at(12), 4096.0);
        let g = SliderSpec::for_key(Key::GrowthExponent).unwrap();
        assert_eq!(g.value_at(57), 0.57);
        assert_eq!(g.position_of(0.5), 50);
    }
}
