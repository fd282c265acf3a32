//! Kernels that shrink (the seed's "GEMM 变小"): strong scaling cuts each GPU's matrix
//! multiplications smaller, and small GEMMs run further from peak.
//!
//! The form is Hockney's (Hockney & Jesshope, "Parallel Computers 2", 1988, §1.3.3): a vector
//! operation of length `n` runs at `r(n) = r∞ · n / (n + n½)`, where `n½` is the length that
//! reaches half the asymptotic rate `r∞`. A transformer's GEMMs have two lengths that
//! parallelism shortens: the tokens of a microbatch on one GPU (`T/CP`; every TP rank and every
//! pipeline stage sees all of them) and the hidden dimension a TP rank holds (`h/TP`). So
//!
//! `η(m, k) = m/(m + m½) · k/(k + k½)`
//!
//! and for a mixture of experts the expert MLPs see only the tokens routed to one expert, so
//! their share `φ` of the FLOPs runs at the tokens-per-expert efficiency instead (time-weighted:
//! `1/η_m → (1 − φ)/η_m + φ/η_e`).
//!
//! The scenario's `F_eff` is the rate measured at its baseline (`N₀`, its layout); other GPU
//! counts run at `F_eff · η(N)/η(N₀)`. The half-lengths are calibrated in `docs/model/12-walls.md`
//! §12.3.

use serde::Serialize;

/// Hockney's half-performance lengths of the two GEMM dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HalfLengths {
    /// `m½`: tokens per GEMM (rows of the activation matrix).
    pub tokens: f64,
    /// `k½`: the hidden dimension per TP rank.
    pub hidden: f64,
}

impl HalfLengths {
    /// H100 SXM BF16, calibrated in `docs/model/12-walls.md` ("Kernels that shrink"): `m½` from a
    /// cuBLAS `M` sweep, `k½` checked against the Megatron-LM README's model table.
    pub const H100_BF16: HalfLengths = HalfLengths {
        tokens: 128.0,
        hidden: 128.0,
    };
}

/// `n / (n + n½)`: the fraction of the asymptotic rate a kernel of length `n` reaches.
pub fn hockney(n: f64, n_half: f64) -> f64 {
    n / (n + n_half)
}

/// What the GEMMs of one GPU look like.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GemmSizes {
    /// `m = T/CP`: tokens of one microbatch on one GPU.
    pub tokens: f64,
    /// `k = h/TP`.
    pub hidden_per_tp: f64,
    /// `k_e = h/ETP`: the routed experts' hidden dimension per rank (only read when `φ > 0`).
    /// Equal to `k` when the experts are split as the dense layers are (ETP = TP, Megatron-Core's
    /// default); `h` when each GPU holds whole experts (ETP = 1).
    pub hidden_per_etp: f64,
    /// `φ`: the share of the weight FLOPs in expert MLPs (0 for a dense model).
    pub expert_share: f64,
    /// Tokens one expert gets per microbatch (only read when `φ > 0`).
    pub tokens_per_expert: f64,
}

/// `η = 1 / ((1 − φ)/(η_m·η_k) + φ/(η_e·η_ke))`, time-weighted over the dense and the expert
/// FLOPs, with `η_m = hockney(m, m½)`, `η_e = hockney(tokens per expert, m½)`,
/// `η_k = hockney(h/TP, k½)` and `η_ke = hockney(h/ETP, k½)`; with ETP = TP it is
/// `η_k / ((1 − φ)/η_m + φ/η_e)`, and for a dense model `η = η_m · η_k`.
pub fn gemm_efficiency(sizes: &GemmSizes, half: &HalfLengths) -> f64 {
    let eta_m = hockney(sizes.tokens, half.tokens);
    let eta_k = hockney(sizes.hidden_per_tp, half.hidden);
    if sizes.expert_share <= 0.0 {
        return eta_m * eta_k;
    }
    let eta_e = hockney(sizes.tokens_per_expert, half.tokens);
    let eta_ke = hockney(sizes.hidden_per_etp, half.hidden);
    // `η_k` factored out, so that ETP = TP computes the form above to the last bit.
    eta_k / ((1.0 - sizes.expert_share) / eta_m + sizes.expert_share * (eta_k / eta_ke) / eta_e)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HALF: HalfLengths = HalfLengths {
        tokens: 256.0,
        hidden: 512.0,
    };

    #[test]
    fn half_length_gives_half_the_rate() {
        assert_eq!(hockney(256.0, 256.0), 0.5);
        assert_eq!(hockney(768.0, 256.0), 0.75);
        assert_eq!(hockney(0.0, 256.0), 0.0);
    }

    /// Dense: m = 1,792, k = 1,536: 1,792/2,048 · 1,536/2,048 = 0.875 · 0.75 = 0.65625.
    /// MoE, φ = 0.5, 256 tokens per expert: η_e = 0.5; 0.75 / (0.5/0.875 + 0.5/0.5) =
    /// 0.75 / (4/7 + 1) = 0.75 · 7/11 = 0.477272…
    #[test]
    fn dense_and_expert_efficiency() {
        let dense = GemmSizes {
            tokens: 1792.0,
            hidden_per_tp: 1536.0,
            hidden_per_etp: 1536.0,
            expert_share: 0.0,
            tokens_per_expert: 0.0,
        };
        assert_eq!(gemm_efficiency(&dense, &HALF), 0.65625);
        let moe = GemmSizes {
            expert_share: 0.5,
            tokens_per_expert: 256.0,
            ..dense
        };
        assert!((gemm_efficiency(&moe, &HALF) - 0.75 * 7.0 / 11.0).abs() < 1e-15);
        // Whole experts (ETP 1) at k_e = 3,584: η_ke = 3,584/4,096 = 0.875, so
        // 1/(0.5/(0.875 · 0.75) + 0.5/(0.5 · 0.875)) = 1/(16/21 + 24/21) = 21/40.
        let whole = GemmSizes {
            hidden_per_etp: 3584.0,
            ..moe
        };
        assert!((gemm_efficiency(&whole, &HALF) - 0.525).abs() < 1e-15);
    }
}
