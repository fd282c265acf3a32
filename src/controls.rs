//! How sliders map to values. Browser-free so the mapping is tested natively; the page only
//! moves positions in and values out.
//!
//! A slider is an integer position `0 ..= max_position`. Wide ranges use log scales (the
//! serial fraction spans 0.01% … 100%, processor counts snap to powers of two), as PRODUCT.md
//! asks; the value a slider produces is rounded to a readable number so the URL stays short.

use crate::model::units::{canonical, format_count, format_sig};
use crate::report::format_fraction;
use crate::scenario::{Key, Scenario};

/// The mapping of one slider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SliderScale {
    /// Position 0 is exactly 0; positions `1..=max` are log-spaced from `min` to `max_value`.
    LogWithZero { min: f64, max_value: f64 },
    /// Position `p` is `2^p`.
    PowerOfTwo,
    /// Position `p` is `p · step`.
    Linear { step: f64 },
}

/// A slider bound to a scenario key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SliderSpec {
    pub key: Key,
    pub min_position: u32,
    pub max_position: u32,
    pub scale: SliderScale,
}

/// The sliders of the Laws panel (positions match `www/index.html`'s `min`/`max`).
pub const SLIDERS: [SliderSpec; 3] = [
    SliderSpec {
        key: Key::SerialFraction,
        min_position: 0,
        max_position: 1000,
        scale: SliderScale::LogWithZero {
            min: 1e-4,
            max_value: 1.0,
        },
    },
    SliderSpec {
        key: Key::MaxProcessors,
        min_position: 1,
        max_position: 30,
        scale: SliderScale::PowerOfTwo,
    },
    SliderSpec {
        key: Key::GrowthExponent,
        min_position: 0,
        max_position: 200,
        scale: SliderScale::Linear { step: 0.01 },
    },
];

fn round_sig(value: f64, digits: i32) -> f64 {
    if value == 0.0 {
        return 0.0;
    }
    let factor = 10f64.powi(digits - 1 - value.abs().log10().floor() as i32);
    (value * factor).round() / factor
}

impl SliderSpec {
    pub fn for_key(key: Key) -> Option<&'static SliderSpec> {
        SLIDERS.iter().find(|s| s.key == key)
    }

    /// The value at a slider position (clamped to the slider's range), rounded to 2
    /// significant digits on log scales so dragging writes `0.052`, not `0.0518…`.
    pub fn value_at(&self, position: u32) -> f64 {
        let p = position.clamp(self.min_position, self.max_position);
        match self.scale {
            SliderScale::LogWithZero { min, max_value } => {
                if p == 0 {
                    0.0
                } else {
                    let t = (p - 1) as f64 / (self.max_position - 1) as f64;
                    round_sig(min * (max_value / min).powf(t), 2).min(max_value)
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
            SliderScale::LogWithZero { min, max_value } => {
                if value <= 0.0 {
                    0.0
                } else {
                    let t = (value.max(min) / min).ln() / (max_value / min).ln();
                    1.0 + t * (self.max_position - 1) as f64
                }
            }
            SliderScale::PowerOfTwo => value.max(1.0).log2(),
            SliderScale::Linear { step } => value / step,
        };
        (raw.round().max(0.0) as u32).clamp(self.min_position, self.max_position)
    }

    /// What a screen reader says for the slider (`aria-valuetext`): the value, not the position.
    pub fn value_text(&self, value: f64) -> String {
        match self.key {
            Key::SerialFraction => format!("f = {}", format_fraction(value)),
            Key::MaxProcessors => format!("{} processors", format_count(value)),
            Key::GrowthExponent => format!("g = {}", format_sig(value, 3)),
            _ => canonical(value),
        }
    }

    /// The scenario's current value for this slider.
    pub fn current(&self, scenario: &Scenario) -> f64 {
        match self.key {
            Key::SerialFraction => scenario.serial_fraction,
            Key::MaxProcessors => scenario.max_processors as f64,
            Key::GrowthExponent => scenario.growth_exponent,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_gives_a_value_the_scenario_accepts() {
        for spec in SLIDERS {
            let mut s = Scenario::default();
            for p in spec.min_position..=spec.max_position {
                let v = spec.value_at(p);
                s.set(spec.key, &canonical(v))
                    .unwrap_or_else(|e| panic!("{:?} at {p}: {e}", spec.key));
            }
        }
    }

    #[test]
    fn positions_round_trip_for_default_values() {
        let f = SliderSpec::for_key(Key::SerialFraction).unwrap();
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
