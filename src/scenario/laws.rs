//! The Laws panel's inputs: `f`, `fs`, `n`, `g`, `mk`, `m`.

use super::Key;
use crate::model::measured::{MeasuredKind, MeasuredPoint};
use crate::model::sweep::LawsInputs;
use crate::text::units::clip;

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
    pub max_processors: u32,
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
            Key::MeasuredKind => self.measured_kind.key().to_string(),
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
                Key::MeasuredKind => {
                    self.measured_kind = MeasuredKind::from_key(text).ok_or_else(|| {
                        trf!(
                            "“{}” is neither “speedup” nor “time”",
                            "“{}” 既不是 “speedup” 也不是 “time”",
                            clip(text)
                        )
                    })?
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
