//! The Plan panel's inputs: critical batch, the weak-then-strong cap, levers, and whether a
//! loss–token curve backs the numbers (for the reporting checklist).

use super::{parse_in_range, Key};
use crate::i18n::tr;
use crate::model::levers::Lever;
use crate::text::units::{canonical_si, clip, format_si, parse_quantity};

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

fn parse_tokens(text: &str, what: &str) -> Result<f64, String> {
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
            Key::CriticalBatch => canonical_si(self.critical_batch_tokens),
            Key::BatchCap => self.batch_cap_tokens.map(canonical_si).unwrap_or_default(),
            Key::Levers => Lever::ALL
                .iter()
                .filter(|l| self.levers.contains(l))
                .map(|l| l.key())
                .collect::<Vec<_>>()
                .join(","),
            Key::NvlinkBandwidth => canonical_si(self.nvlink_bytes_per_s),
            Key::LossCurve => if self.loss_curve { "1" } else { "0" }.to_string(),
            _ => return None,
        })
    }

    pub(super) fn set(&mut self, key: Key, text: &str) -> Option<Result<(), String>> {
        key.is_plan().then(|| self.set_plan(key, text))
    }

    fn set_plan(&mut self, key: Key, text: &str) -> Result<(), String> {
        match key {
            Key::CriticalBatch => {
                self.critical_batch_tokens =
                    parse_tokens(text, tr("the critical batch B_crit", "临界批量 B_crit"))?
            }
            Key::BatchCap => {
                self.batch_cap_tokens = if text.trim().is_empty() {
                    None
                } else {
                    Some(parse_tokens(text, tr("the batch cap", "批量上限"))?)
                }
            }
            Key::Levers => {
                let mut levers = Vec::new();
                for item in text
                    .split([',', ' ', ';'])
                    .filter(|s| !s.trim().is_empty())
                    .take(16)
                {
                    let lever = Lever::from_key(item).ok_or_else(|| {
                        trf!(
                            "“{}” is not a lever (use {})",
                            "“{}” 不是可用的手段（可用 {}）",
                            clip(item),
                            Lever::ALL.map(|l| l.key()).join(crate::text::list_sep())
                        )
                    })?;
                    if !levers.contains(&lever) {
                        levers.push(lever);
                    }
                }
                self.levers = levers;
            }
            Key::NvlinkBandwidth => {
                self.nvlink_bytes_per_s = parse_in_range(text, 1e9, 1e13, tr("bytes/s", "字节/秒"))?
            }
            Key::LossCurve => {
                self.loss_curve = match text.trim() {
                    "1" | "yes" | "true" => true,
                    "0" | "no" | "false" | "" => false,
                    other => {
                        return Err(trf!(
                            "“{}” is neither 1 nor 0",
                            "“{}” 既不是 1 也不是 0",
                            clip(other)
                        ))
                    }
                }
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
