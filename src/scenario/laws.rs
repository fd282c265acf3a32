//! The Laws panel's inputs: `f`, `fs`, `n`, `g`, `mk`, `m`.

use super::{parse_count, parse_in_range, parse_unit_fraction, Key};
use crate::model::measured::{MeasuredKind, MeasuredPoint};
use crate::model::sweep::LawsInputs;
use crate::text::messages::measured_error;
use crate::text::pairs::{format_points, parse_points};
use crate::text::units::{canonical, clip};

/// At most this many comparison fractions (`fs`).
pub const MAX_COMPARE_FRACTIONS: usize = 8;
/// Upper bound of `g`: beyond it the memory-bounded curve is off any useful chart.
pub const MAX_GROWTH_EXPONENT: f64 = 2.0;

/// Inputs of the Laws panel, always valid.
#[derive(Debug, Clone, PartialEq)]
pub struct LawsSettings {
    /// `f`, `0 ≤ f ≤ 1`.
    pub serial_fraction: f64,
    /// `fs`, each in `[0, 1]`, at most [`MAX_COMPARE_FRACTIONS`].
    pub compare_fractions: Vec<f64>,
    /// `n`, a whole number in `2 ..= 2^30`.
    pub max_processors: u64,
    /// `g`, `0 ≤ g ≤ 2`.
    pub growth_exponent: f64,
    pub measured_kind: MeasuredKind,
    /// `m`, at most 64 points with increasing `N`.
    pub measured: Vec<MeasuredPoint>,
}

impl Default for LawsSettings {
    fn default() -> Self {
        LawsSettings {
            serial_fraction: 0.05,
            compare_fractions: vec![0.01, 0.1, 0.25],
            max_processors: 4096,
            growth_exponent: 0.5,
            measured_kind: MeasuredKind::Time,
            measured: Vec::new(),
        }
    }
}

impl LawsSettings {
    pub(super) fn get_text(&self, key: Key) -> Option<String> {
        Some(match key {
            Key::SerialFraction => canonical(self.serial_fraction),
            Key::CompareFractions => self
                .compare_fractions
                .iter()
                .map(|&f| canonical(f))
                .collect::<Vec<_>>()
                .join(","),
            Key::MaxProcessors => self.max_processors.to_string(),
            Key::GrowthExponent => canonical(self.growth_exponent),
            Key::MeasuredKind => self.measured_kind.key().to_string(),
            Key::Measured => format_points(&self.measured),
            _ => return None,
        })
    }

    /// Parses and stores one input; `None` if the key is not a Laws key.
    pub(super) fn set(&mut self, key: Key, text: &str) -> Option<Result<(), String>> {
        key.is_laws().then(|| self.set_laws(key, text))
    }

    fn set_laws(&mut self, key: Key, text: &str) -> Result<(), String> {
        {
            match key {
                Key::SerialFraction => self.serial_fraction = parse_unit_fraction(text)?,
                Key::CompareFractions => {
                    let items: Vec<&str> = text
                        .split([',', ';', ' ', '\n', '\t'])
                        .filter(|s| !s.trim().is_empty())
                        .take(MAX_COMPARE_FRACTIONS + 1)
                        .collect();
                    if items.len() > MAX_COMPARE_FRACTIONS {
                        return Err(trf!(
                            "at most {} values can be compared",
                            "最多比较 {} 个值",
                            MAX_COMPARE_FRACTIONS
                        ));
                    }
                    self.compare_fractions = items
                        .iter()
                        .map(|item| parse_unit_fraction(item))
                        .collect::<Result<Vec<f64>, String>>()?;
                }
                Key::MaxProcessors => self.max_processors = parse_count(text, 2.0)? as u64,
                Key::GrowthExponent => {
                    self.growth_exponent = parse_in_range(
                        text,
                        0.0,
                        MAX_GROWTH_EXPONENT,
                        crate::i18n::tr(
                            "(0 = Amdahl, 1 = Gustafson)",
                            "（0 = Amdahl，1 = Gustafson）",
                        ),
                    )?
                }
                Key::MeasuredKind => {
                    self.measured_kind = MeasuredKind::from_key(text).ok_or_else(|| {
                        trf!(
                            "“{}” is neither “speedup” nor “time”",
                            "“{}” 既不是 “speedup” 也不是 “time”",
                            clip(text)
                        )
                    })?
                }
                Key::Measured => {
                    self.measured = parse_points(text).map_err(|e| measured_error(&e))?
                }
                _ => return Err(format!("{} is not a Laws input", key.name())),
            }
            Ok(())
        }
    }

    /// The Laws panel's model inputs.
    pub fn inputs(&self) -> LawsInputs {
        LawsInputs {
            serial_fraction: self.serial_fraction,
            compare_fractions: self.compare_fractions.clone(),
            max_processors: self.max_processors as f64,
            growth_exponent: self.growth_exponent,
            measured: self.measured.clone(),
            measured_kind: self.measured_kind,
        }
    }
}
