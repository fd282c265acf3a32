//! The software stack a run trains with, and `r∞`: the fraction of the GPU's peak its step
//! reaches when the GEMMs are as large as Hockney's law allows (`η → 1`, §12.3). It stands for
//! the GEMMs' own asymptote and everything a step spends outside them (norms, softmax, the
//! optimizer, launch overheads, the implementation's own costs), in one number per stack,
//! calibrated on one published run of that stack and held against the others
//! (docs/model/14-layout-search.md, "From physics alone"). With it a reader who does not know
//! `F_eff` gets it from the peak and the layout: `F_eff = r∞ · peak · η(own layout at N₀, T₀)`
//! ([`super::layouts::physics_inputs`]).

use serde::Serialize;

/// A software stack with a calibrated `r∞` (against the peak of the precision its GEMMs run
/// in).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stack {
    /// NVIDIA NeMo / Megatron-Core with Transformer Engine, BF16: calibrated on the DGX Cloud
    /// GPT-3 175B BF16 recipe at 128 GPUs (TP 4 · PP 8 · VP 12, 53.5% MFU;
    /// shared/data/published-runs.md §3).
    Megatron,
    /// The same stack in FP8, against the FP8 peak: the same recipe in FP8 at 128 GPUs (39.5%
    /// MFU). Lower than BF16's because only the GEMMs run in FP8.
    MegatronFp8,
    /// Meta's Llama 3 training stack, BF16: Llama 3.1 405B at 8,192 GPUs (TP 8 · PP 16, 12.565 s
    /// a step, 40.0% MFU as `6·P·B`; Dubey et al. 2024, Table 4).
    Meta,
    /// PyTorch torchtitan, eager FSDP2, BF16: Llama 3.1 8B at 128 GPUs (5,605 tokens/s per GPU,
    /// 27.3% MFU; published-runs.md §4).
    Torchtitan,
    /// MosaicML llm-foundry (PyTorch FSDP, FULL_SHARD), BF16: MPT-13B at 8 GPUs (38.1% MFU;
    /// published-runs.md §4).
    Foundry,
}

impl Stack {
    pub const ALL: [Stack; 5] = [
        Stack::Megatron,
        Stack::MegatronFp8,
        Stack::Meta,
        Stack::Torchtitan,
        Stack::Foundry,
    ];

    pub fn key(self) -> &'static str {
        match self {
            Stack::Megatron => "megatron",
            Stack::MegatronFp8 => "megatron-fp8",
            Stack::Meta => "meta",
            Stack::Torchtitan => "torchtitan",
            Stack::Foundry => "foundry",
        }
    }

    pub fn from_key(key: &str) -> Option<Self> {
        Stack::ALL.into_iter().find(|s| s.key() == key.trim())
    }

    /// `r∞`, each calibrated on the run its variant names.
    pub fn large_gemm_fraction(self) -> f64 {
        match self {
            Stack::Megatron => 0.6285,
            Stack::MegatronFp8 => 0.4695,
            Stack::Meta => 0.5661,
            Stack::Torchtitan => 0.3597,
            Stack::Foundry => 0.4283,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The URL names are the documented ones and read back; a name no stack has reads as none.
    #[test]
    fn keys_read_back() {
        for s in Stack::ALL {
            assert_eq!(Stack::from_key(s.key()), Some(s));
            assert!(s.large_gemm_fraction() > 0.0 && s.large_gemm_fraction() <= 1.0);
        }
        assert_eq!(Stack::from_key(" meta "), Some(Stack::Meta));
        assert_eq!(Stack::from_key("deepspeed"), None);
    }
}
