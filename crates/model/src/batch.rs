//! Weak scaling's hidden cost: the critical batch size and time-to-quality (MODEL.md §4; the
//! seed's "Weak Scaling 的假效率").
//!
//! McCandlish, Kaplan, Amodei et al. 2018, "An Empirical Model of Large-Batch Training"
//! (arXiv:1812.06162), eq. 2.11–2.12: to reach a given loss,
//!
//! - optimizer steps `S(B) = S_min · (1 + B_crit / B)`
//! - tokens processed `E(B) = E_min · (1 + B / B_crit)`, with `E_min = S_min · B_crit`
//!
//! so a batch far above `B_crit` buys few extra steps per token and wastes tokens; far below,
//! it needs many more steps. Time to quality at `N` GPUs is `S(B) · t_step(N, B)`, the metric
//! MLPerf Training uses precisely because throughput can be bought with batch size.

use serde::Serialize;

/// The critical-batch model of one training target.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CriticalBatch {
    /// `B_crit`, tokens.
    pub critical_batch_tokens: f64,
    /// `S_min`: steps to the target with an infinitely large batch.
    pub min_steps: f64,
}

impl CriticalBatch {
    /// The model from "the run needs `tokens` tokens at batch `reference_batch`":
    /// `E(B_ref) = tokens` gives `E_min = tokens / (1 + B_ref/B_crit)`, `S_min = E_min / B_crit`.
    ///
    /// With the seed's 1T tokens at 32M and `B_crit = 32M`: `S(32M) = 31,250` steps, the seed's
    /// count, and `S(128M) = 19,531.25`.
    pub fn from_reference(critical_batch_tokens: f64, tokens: f64, reference_batch: f64) -> Self {
        let min_tokens = tokens / (1.0 + reference_batch / critical_batch_tokens);
        CriticalBatch {
            critical_batch_tokens,
            min_steps: min_tokens / critical_batch_tokens,
        }
    }

    /// `S(B) = S_min · (1 + B_crit/B)`.
    pub fn steps(&self, batch: f64) -> f64 {
        self.min_steps * (1.0 + self.critical_batch_tokens / batch)
    }

    /// `E(B) = E_min · (1 + B/B_crit) = S(B) · B`.
    pub fn tokens(&self, batch: f64) -> f64 {
        self.min_steps * self.critical_batch_tokens * (1.0 + batch / self.critical_batch_tokens)
    }

    /// Token efficiency `E_min / E(B) = 1 / (1 + B/B_crit)`.
    pub fn token_efficiency(&self, batch: f64) -> f64 {
        1.0 / (1.0 + batch / self.critical_batch_tokens)
    }
}

/// DeepSeek LLM's empirical fit of the optimal batch size (DeepSeek-AI 2024, "DeepSeek LLM:
/// Scaling Open-Source Language Models with Longtermism", arXiv:2401.02954, §3.1):
///
/// `B_opt ≈ 0.2920 · C^0.3271` tokens, for compute `C = 6 · P_a · D` FLOPs (`D` training tokens)
///
/// ≈ 21M tokens at `C = 10^24`. An empirical fit on their data and hyper-parameters, not a law;
/// and the critical batch grows during training as the loss falls (McCandlish et al. §3), so one
/// constant is a simplification.
pub fn deepseek_optimal_batch_tokens(compute_flops: f64) -> f64 {
    0.2920 * compute_flops.powf(0.3271)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_worked_example() {
        let cb = CriticalBatch::from_reference(32e6, 1e12, 32e6);
        assert!((cb.steps(32e6) - 31_250.0).abs() < 1e-9);
        assert!((cb.steps(128e6) - 19_531.25).abs() < 1e-9);
        // Steps 2·S_min → 1.25·S_min (MODEL.md §6).
        assert!((cb.steps(32e6) / cb.min_steps - 2.0).abs() < 1e-12);
        assert!((cb.steps(128e6) / cb.min_steps - 1.25).abs() < 1e-12);
        // 4× GPUs at 1000 → 1050 ms: 1.52× faster, 38% true efficiency.
        let speedup = cb.steps(32e6) * 1000.0 / (cb.steps(128e6) * 1050.0);
        assert!((speedup - 1.523_809_523_809_524).abs() < 1e-12);
        assert_eq!((speedup / 4.0 * 100.0).round(), 38.0);
        assert!((cb.token_efficiency(32e6) - 0.5).abs() < 1e-12);
        assert!((cb.tokens(128e6) - 2.5e12).abs() < 1e-3);
    }

    #[test]
    fn deepseek_reference_is_about_21m_at_1e24() {
        let b = deepseek_optimal_batch_tokens(1e24);
        assert!((b / 1e6 - 21.0).abs() < 1.0, "{b}");
    }
}
