//! The Plan panel's inputs: critical batch, the weak-then-strong cap, levers, and whether a
//! loss–token curve backs the numbers (for the reporting checklist).

use super::{parse_in_range, Key};
use crate::i18n::tr;
use crate::model::levers::Lever;
use crate::text::units::{canonical_si, format_si, parse_quantity};

/// Inputs of the planner, always valid.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanSettings {
    /// `bcrit`: critical batch, tokens.
    pub critical_batch_tokens: f64,
    /// `bcap`: where weak scaling stops growing the batch; `None` = at `B_crit`.
    pub batch_cap_tokens: Option<f64>,
    /// `lv`: levers switched on, in [`Lever::ALL`] order.
    pub levers: Vec<Lever>,
    /// `bnv`: the NVLink bus bandwidth the NVLink-domain lever uses, bytes/s.
    pub nvlink_bytes_per_s: f64,
    /// `lc`: a validation loss–token curve backs the claim.
    pub loss_curve: bool,
}

impl Default for PlanSettings {
    /// `B_crit = 32M` (the seed's worked example); NVLink 4 bus bandwidth ≈ 400 GB/s.
    fn default() -> Self {
        PlanSettings {
            critical_batch_tokens: 32e6,
            batch_cap_tokens: None,
            levers: Vec::new(),
            nvlink_bytes_per_s: 400e9,
            loss_curve: false,
        }
    }
}

pub(super) fn parse_tokens(text: &str, what: &str) -> Result<f64, String> {
    let v = parse_quantity(text).map_err(|e| e.to_string())?;
    if (1.0..=1e15).contains(&v) {
        Ok(v)
    } else {
        Err(trf!(
            "{} must be 1 … 10^15 tokens, got {}",
            "{} 必须在 1 … 10^15 tokens 之间，实际为 {}",
            what,
            format_si(v, 3)
        ))
    }
}

impl PlanSettings {
    pub(super) fn get_text(&self, key: Key) -> Option<String> {
        Some(match key {
            Key::NvlinkBandwidth => canonical_si(self.nvlink_bytes_per_s),
            _ => return None,
        })
    }

    pub(super) fn set(&mut self, key: Key, text: &str) -> Option<Result<(), String>> {
        key.is_plan().then(|| self.set_plan(key, text))
    }

    fn set_plan(&mut self, key: Key, text: &str) -> Result<(), String> {
        match key {
            Key::NvlinkBandwidth => {
                self.nvlink_bytes_per_s = parse_in_range(text, 1e9, 1e13, tr("bytes/s", "字节/秒"))?
            }
            _ => return Err(format!("{} is not a Plan input", key.name())),
        }
        Ok(())
    }

    /// The batch cap in force: `bcap`, or `B_crit` when unset.
    pub fn cap(&self) -> f64 {
        self.batch_cap_tokens.unwrap_or(self.critical_batch_tokens)
    }
}
