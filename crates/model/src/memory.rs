//! Memory per GPU: the model states ZeRO shards, the FSDP gathered working set, and the
//! activations a pipeline stage holds (the seed's lever table: "the last two levers buy
//! communication with peak memory, while strong scaling frees activation memory as `T` falls").
//!
//! Bytes everywhere, for the busiest GPU: the first pipeline stage, which holds the most
//! microbatches in flight.

use super::shape::Shape;
use super::step::PipelineSchedule;
use serde::Serialize;

/// Bytes per parameter of the bf16 weights and of the bf16 gradients (mixed-precision
/// training, Micikevicius et al. 2018; ZeRO's `2Ψ + 2Ψ`).
pub const WEIGHT_BYTES: f64 = 2.0;
pub const GRADIENT_BYTES: f64 = 2.0;

/// Bytes per parameter of the fp32 master weight, part of Adam's `K = 12` (with its two
/// moments) unless the weights are the master ([`MemorySettings::master_in_weights`]).
pub const MASTER_BYTES: f64 = 4.0;

/// Activation recomputation (Korthikanti et al. 2022, "Reducing Activation Recomputation in
/// Large Transformer Models", arXiv:2205.05198).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Recompute {
    /// Every activation is kept for the backward pass.
    None,
    /// Selective: the attention's `QKᵀ`, softmax and dropout are recomputed (§5), which drops
    /// the `5as/h` term.
    Selective,
    /// Full: only each layer's input is kept, and the layer is recomputed in backward.
    Full,
}

impl Recompute {
    pub fn key(self) -> &'static str {
        match self {
            Recompute::None => "none",
            Recompute::Selective => "selective",
            Recompute::Full => "full",
        }
    }
    pub fn from_key(key: &str) -> Option<Self> {
        [Recompute::None, Recompute::Selective, Recompute::Full]
            .into_iter()
            .find(|r| r.key() == key.trim())
    }
}

/// How activations are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ActivationSettings {
    pub recompute: Recompute,
    /// Sequence parallelism (Korthikanti et al. 2022, §4.2.2): the layer norms' and dropouts'
    /// activations are split over the TP ranks too.
    pub sequence_parallel: bool,
    /// Flash attention (Dao et al. 2022) never stores the `s × s` attention matrices: the
    /// `5as/h` term goes, as with selective recomputation.
    pub flash_attention: bool,
    /// With [`Recompute::Full`], how many of a stage's layers are recomputed: `0` for all of
    /// them, `k` for Megatron-LM's `--recompute-method block --recompute-num-layers k` (the
    /// first `k` layers of each stage keep only their input; the rest keep everything).
    pub recompute_layers: u32,
    /// Layers whose activations wait in host memory between their forward and backward
    /// (Megatron-Core's `cpu_offloading_num_layers`, Transformer Engine's
    /// `get_cpu_offload_context`): the copies overlap with the other layers' compute
    /// ([`super::walls::Walls::offload_ms`]). Megatron-Core refuses it with a pipeline or
    /// with recomputation (`TransformerConfig.__post_init__`), and it must leave one layer
    /// on the GPU, so [`Self::offloaded_layers`] counts it only there.
    pub offload_layers: u32,
}

impl ActivationSettings {
    /// The layers of a stage of `stage_layers` whose activations are offloaded to host
    /// memory: `min(ofl, L_s − 1)` without a pipeline (`pp = 1`) and without recomputation,
    /// none otherwise (Megatron-Core allows no other case).
    pub fn offloaded_layers(&self, stage_layers: f64, pp: u32) -> f64 {
        if pp > 1 || self.recompute != Recompute::None {
            return 0.0;
        }
        (self.offload_layers as f64).min((stage_layers - 1.0).max(0.0))
    }

    /// The layers of a stage of `stage_layers` whose activations are recomputed: all of them
    /// with [`Recompute::Full`] and `recompute_layers` 0 or at least the stage's, `k` below
    /// it, none otherwise.
    pub fn recomputed_layers(&self, stage_layers: f64) -> f64 {
        match self.recompute {
            Recompute::Full if self.recompute_layers > 0 => {
                (self.recompute_layers as f64).min(stage_layers)
            }
            Recompute::Full => stage_layers,
            _ => 0.0,
        }
    }
}

/// Activation bytes of one transformer layer for one microbatch on one GPU (Korthikanti et al.
/// 2022, Table 2), with `sb` the tokens the GPU's microbatch has (sequence × microbatch
/// sequences, after context parallelism), `s` the sequence length it attends over, `h`
/// hidden, `a` heads, `t` the TP degree:
///
/// | | bytes |
/// |---|---|
/// | TP | `sbh · (10 + 24/t + 5as/(ht))` |
/// | TP + sequence parallel | `sbh · (34/t + 5as/(ht))` |
/// | TP + selective recomputation | `sbh · (10 + 24/t)` |
/// | TP + SP + selective | `sbh · 34/t` |
/// | full recomputation | `2sbh` (`2sbh/t` with SP) |
///
/// (`t = 1` gives the paper's unparallelised `sbh · (34 + 5as/h)`.) Flash attention drops the
/// `5as/(ht)` term as selective recomputation does. The 34 counts GPT's layer, whose MLP is
/// `4h` wide: its `16` bytes per `sbh` are the MLP's (`4 · 4h/h`, Korthikanti §4.1). For an
/// MLP `ffn` wide (`mlp_width`; a gated MLP's intermediate size) it is `18 + 4·ffn/h`, as
/// Megatron-LM's estimator counts it (`megatron/training/theoretical_memory_usage.py`,
/// `compute_activation_memory`): 34 for GPT, 31 for Llama 3 405B (`ffn/h = 3.25`). The `10`
/// that sequence parallelism splits too are the layer norms' and dropouts' (§4.2.2), so
/// without it the TP-split part is `8 + 4·ffn/h`.
pub fn activation_bytes_per_layer(
    tokens: f64,
    seq_len: f64,
    hidden: f64,
    heads: f64,
    mlp_width: f64,
    tp: f64,
    settings: ActivationSettings,
) -> f64 {
    let sbh = tokens * hidden;
    let split = if settings.sequence_parallel { tp } else { 1.0 };
    if settings.recompute == Recompute::Full {
        return 2.0 * sbh / split;
    }
    let mlp = 4.0 * mlp_width / hidden;
    let kept = if settings.sequence_parallel {
        (18.0 + mlp) / tp
    } else {
        10.0 + (8.0 + mlp) / tp
    };
    let scores = if settings.recompute == Recompute::Selective || settings.flash_attention {
        0.0
    } else {
        5.0 * heads * seq_len / (hidden * tp)
    };
    sbh * (kept + scores)
}

/// Microbatches whose activations the first pipeline stage holds at its peak, for `p` stages
/// and `A` microbatches per step:
///
/// - no pipeline (`p = 1`): one;
/// - 1F1B: `min(p, A)` — the first stage runs `p` forwards before its first backward
///   (Narayanan et al. 2021, §2.2.1; Korthikanti et al. 2022, §4.2.3);
/// - interleaved with `v` chunks: `min(p, A) · (1 + (p − 1)/(p·v))` (Korthikanti et al.
///   2022, §4.2.3);
/// - zero bubble (ZB-H2): `min(2p − 1, A)` — it fills the bubble with up to `2p − 1` forwards
///   before the first backward, twice 1F1B's peak (Qi et al. 2023, "Zero Bubble Pipeline
///   Parallelism", §3.1–3.2 and Table 1: ZB-H2's `(2p − 1)·M_B`).
pub fn microbatches_in_flight(
    schedule: PipelineSchedule,
    stages: u32,
    accumulation: u32,
    chunks: u32,
) -> f64 {
    if stages <= 1 {
        return 1.0;
    }
    let p = stages as f64;
    let a = accumulation.max(1) as f64;
    match schedule {
        PipelineSchedule::OneFOneB => p.min(a),
        PipelineSchedule::Interleaved => p.min(a) * (1.0 + (p - 1.0) / (p * chunks.max(1) as f64)),
        PipelineSchedule::ZeroBubble => (2.0 * p - 1.0).min(a),
    }
}

/// The model states of `Ψ` parameters on `N_d` data-parallel ranks (Rajbhandari et al. 2020,
/// "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", §5 and Fig. 1):
/// `2Ψ` bf16 weights, `GΨ` gradients (`G = 2` in bf16, ZeRO's count; `4` for Megatron's fp32
/// main gradients) and `KΨ` optimizer state (`K = 12` for Adam with fp32 master weights,
/// momentum and variance). Stage 1 shards the optimizer state over `N_d`, stage 2 the
/// gradients too, stage 3 (FSDP) the weights too:
/// `(2 + G + K)Ψ`, `(2 + G)Ψ + KΨ/N_d`, `2Ψ + (G + K)Ψ/N_d`, `(2 + G + K)Ψ/N_d`. With
/// `G = 4`, stage 1 is Megatron-LM's distributed optimizer, `6 + 12/d` bytes per parameter
/// (`megatron/training/theoretical_memory_usage.py`), and stage 0 its 18.
///
/// With `master_in_weights` the weights are the fp32 master (PyTorch FSDP's mixed precision
/// keeps the sharded parameters in fp32 and casts them to bf16 as it gathers them, Zhao et
/// al. 2023, "PyTorch FSDP", §4.4; FSDP2's `MixedPrecisionPolicy(param_dtype)`): the weights
/// hold [`MASTER_BYTES`] and the optimizer `K − 4`, the two moments, so torchtitan's FSDP2 with
/// fp32 gradients holds `(4 + 4 + 8)Ψ/N_d`, where `2 + G + K` would count 18.
///
/// Returns `(weights, gradients, optimizer)` bytes.
pub fn model_states(
    params: f64,
    shards: f64,
    zero: u8,
    gradient_bytes: f64,
    optimizer_bytes: f64,
    master_in_weights: bool,
) -> (f64, f64, f64) {
    let over = |stage: u8| if zero >= stage { shards } else { 1.0 };
    let (weight_bytes, optimizer_bytes) = if master_in_weights {
        (MASTER_BYTES, (optimizer_bytes - MASTER_BYTES).max(0.0))
    } else {
        (WEIGHT_BYTES, optimizer_bytes)
    };
    (
        weight_bytes * params / over(3),
        gradient_bytes * params / over(2),
        optimizer_bytes * params / over(1),
    )
}

/// `Ψ`: the parameters on one GPU's shard before ZeRO, for a model of `params` parameters
/// split into dense and expert weights in the shape's proportion: the dense part over the
/// `TP·PP` model-parallel shards (`weight_shards`), the routed experts over their own
/// `ETP·PP·EP` (`expert_shards`):
///
/// `Ψ = P_dense/(TP·PP) + P_experts/(ETP·PP·EP)`
///
/// Megatron-Core's MoE parallel folding (`expert_tensor_parallel_size`, which defaults to TP;
/// NVIDIA's MoE recipes set 1, so each GPU holds `E/EP` whole experts).
pub fn params_per_gpu(shape: &Shape, params: f64, weight_shards: f64, expert_shards: f64) -> f64 {
    let expert_share = shape.expert_params() / shape.total_params();
    params * (1.0 - expert_share) / weight_shards + params * expert_share / expert_shards
}

/// What one GPU holds, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Memory {
    /// Its bf16 weights (a `1/N_d` shard under ZeRO-3).
    pub weights: f64,
    /// ZeRO-3's gathered weights: the working set of two layers (the one computing and the one
    /// prefetched), or the stage's whole gathered copy without resharding.
    pub gathered: f64,
    pub grads: f64,
    pub optimizer: f64,
    pub activations: f64,
    pub total: f64,
}

/// The memory inputs of a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MemorySettings {
    /// ZeRO stage 0–3 (3 = FSDP).
    pub zero: u8,
    /// `K`: optimizer bytes per parameter.
    pub optimizer_bytes_per_param: f64,
    /// `G`: bytes per parameter of the gradients held ([`GRADIENT_BYTES`] in bf16, 4 for fp32
    /// main gradients).
    pub gradient_bytes_per_param: f64,
    /// Whether the weights are the fp32 master ([`model_states`]; PyTorch FSDP), not a
    /// 2-byte copy beside the optimizer's (Megatron-LM, DeepSpeed).
    pub master_in_weights: bool,
    pub activations: ActivationSettings,
    /// The GPU's memory, bytes.
    pub hbm_bytes: f64,
    /// What the process holds outside the tensors counted here (the CUDA context and library
    /// workspaces, NCCL's buffers, the caching allocator's fragmentation), bytes: a layout
    /// fits when its [`Memory::total`] is at most [`Self::usable_bytes`]. ZeRO saw
    /// fragmentation alone cause out-of-memory errors "with over 30% of memory still
    /// available" (Rajbhandari et al. 2020, §3.2).
    pub reserve_bytes: f64,
    /// HSDP (PyTorch FSDP's `HYBRID_SHARD`, Zhao et al. 2023, "PyTorch FSDP", §3.2.1): the
    /// model states are sharded inside groups of this many GPUs (an NVLink domain) and
    /// replicated across them, so a GPU holds `1/min(N_d·CP, ⌊G/TP⌋)` of them rather than
    /// `1/(N_d·CP)`: a domain holds whole TP groups (`⌊72/16⌋ = 4` in an NVL72 rack at TP 16).
    /// `None`: sharded over every data-parallel rank.
    pub shard_group_gpus: Option<f64>,
}

impl MemorySettings {
    /// `N_d`: the ranks ZeRO shards the model states over, the `D·CP` data- and
    /// context-parallel ranks (Megatron-Core's distributed optimizer shards over both), or
    /// with HSDP the `⌊G/TP⌋` of them in a shard group ([`Self::shard_group_gpus`]).
    pub fn state_shards(&self, tp: f64, data_parallel: f64, cp: f64) -> f64 {
        let all_ranks = (data_parallel * cp).max(1.0);
        self.shard_group_gpus
            .map_or(all_ranks, |g| all_ranks.min((g / tp).floor().max(1.0)))
    }

    /// The bytes the tensors can have: `hbm − reserve`.
    pub fn usable_bytes(&self) -> f64 {
        self.hbm_bytes - self.reserve_bytes
    }
}

/// Where the GPU sits and how much it works on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub tp: f64,
    pub pp: u32,
    pub cp: f64,
    pub ep: f64,
    /// `ETP`: the routed experts' TP degree, a divisor of `tp` (`tp` when they are split as the
    /// dense layers, `1` when each GPU holds whole experts).
    pub expert_tp: f64,
    /// `D`: data-parallel replicas.
    pub data_parallel: f64,
    pub accumulation: u32,
    pub schedule: PipelineSchedule,
    pub chunks: u32,
    /// `T`: tokens per replica per microbatch.
    pub tokens_per_replica: f64,
    /// Weights kept gathered across microbatches (`reshard_after_forward=False`, `c = 2`).
    pub no_reshard: bool,
}

/// Memory of the first pipeline stage's GPU for a model of `params` parameters (`P`, split
/// into dense and expert weights in the shape's proportion):
///
/// - parameters on the GPU's shard: `Ψ = P_dense/(TP·PP) + P_experts/(ETP·PP·EP)`;
/// - model states by [`model_states`] over `N_d = D · CP` ranks (context-parallel ranks hold
///   the same weights, and Megatron-Core's distributed optimizer shards over the data- and
///   context-parallel group);
/// - gathered (ZeRO-3 only): `2 · 2Ψ/(L/PP)` for two layers in flight (FSDP's rate limiter,
///   Zhao et al. 2023, "PyTorch FSDP", §4.3), or `2Ψ` kept whole without resharding;
/// - activations: [`activation_bytes_per_layer`] at `T/CP` tokens, times the first stage's
///   layers ([`Shape::first_stage_layers`]), times [`microbatches_in_flight`]; with `k` of a
///   stage's `L_s` layers recomputed ([`ActivationSettings::recompute_layers`]), those `k` keep
///   the full recomputation's input and the other `L_s − k` what no recomputation keeps
///   (Korthikanti et al. 2022, §5: `(L_s − k)·a_layer + k·2sbh/t`); the layers offloaded to
///   host memory ([`ActivationSettings::offloaded_layers`]) keep nothing on the GPU (the
///   buffer of the one layer whose copy is in flight is left out).
pub fn memory_per_gpu(
    shape: &Shape,
    params: f64,
    settings: &MemorySettings,
    at: &Placement,
) -> Memory {
    let psi = params_per_gpu(
        shape,
        params,
        at.tp * at.pp as f64,
        at.expert_tp * at.pp as f64 * at.ep,
    );
    let shards = settings.state_shards(at.tp, at.data_parallel, at.cp);
    let (weights, grads, optimizer) = model_states(
        psi,
        shards,
        settings.zero,
        settings.gradient_bytes_per_param,
        settings.optimizer_bytes_per_param,
        settings.master_in_weights,
    );
    let layers_per_stage = shape.layers_per_stage(at.pp);
    let gathered = match (settings.zero >= 3, at.no_reshard) {
        (false, _) => 0.0,
        (true, false) => 2.0 * WEIGHT_BYTES * psi / layers_per_stage.max(1.0),
        (true, true) => WEIGHT_BYTES * psi,
    };
    let per_layer = |activations: ActivationSettings| {
        activation_bytes_per_layer(
            at.tokens_per_replica / at.cp,
            shape.seq_len / at.cp,
            shape.hidden,
            shape.heads,
            shape.mlp_width(),
            at.tp,
            activations,
        )
    };
    let stage_layers = shape.first_stage_layers(at.pp);
    let recomputed = settings.activations.recomputed_layers(stage_layers);
    let kept = ActivationSettings {
        recompute: Recompute::None,
        ..settings.activations
    };
    let full = ActivationSettings {
        recompute: Recompute::Full,
        ..settings.activations
    };
    let offloaded = settings.activations.offloaded_layers(stage_layers, at.pp);
    let stage = if settings.activations.recompute == Recompute::Full {
        per_layer(full) * recomputed + per_layer(kept) * (stage_layers - recomputed)
    } else {
        per_layer(settings.activations) * (stage_layers - offloaded)
    };
    let activations =
        stage * microbatches_in_flight(at.schedule, at.pp, at.accumulation, at.chunks);
    Memory {
        weights,
        gathered,
        grads,
        optimizer,
        activations,
        total: weights + gathered + grads + optimizer + activations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SP_SELECTIVE: ActivationSettings = ActivationSettings {
        recompute: Recompute::Selective,
        sequence_parallel: true,
        flash_attention: false,
        recompute_layers: 0,
        offload_layers: 0,
    };

    /// ZeRO Fig. 1: Ψ = 7.5B, N_d = 64, K = 12: 120, 31.4, 16.6 and 1.9 GB for stages 0–3
    /// (by hand: 16Ψ = 120e9; 4Ψ + 12Ψ/64 = 31.40625e9; 2Ψ + 14Ψ/64 = 16.640625e9;
    /// 16Ψ/64 = 1.875e9).
    #[test]
    fn zero_figure_1() {
        let total = |zero| {
            let (w, g, o) = model_states(7.5e9, 64.0, zero, GRADIENT_BYTES, 12.0, false);
            w + g + o
        };
        assert_eq!(total(0), 120e9);
        assert_eq!(total(1), 31.40625e9);
        assert_eq!(total(2), 16.640625e9);
        assert_eq!(total(3), 1.875e9);
        assert_eq!(
            model_states(7.5e9, 64.0, 3, GRADIENT_BYTES, 12.0, false),
            (0.234375e9, 0.234375e9, 1.40625e9)
        );
    }

    /// PyTorch FSDP, the weights the fp32 master: torchtitan's Llama 3.1 8B shard on 8 GPUs,
    /// `Ψ` = 8.03e9, fp32 gradients, Adam: weights `4Ψ/8` = 4.015e9, gradients `4Ψ/8` =
    /// 4.015e9, optimizer `(12 − 4)Ψ/8` = 8.03e9, 16.06e9 in all (the 2-byte weights beside a
    /// master would hold 2.0075e9 + 4.015e9 + 12.045e9 = 18.0675e9). Under ZeRO 1 the weights
    /// stay whole: `4Ψ` = 32.12e9.
    #[test]
    fn fsdp_weights_are_the_master() {
        assert_eq!(
            model_states(8.03e9, 8.0, 3, 4.0, 12.0, true),
            (4.015e9, 4.015e9, 8.03e9)
        );
        let (w, g, o) = model_states(8.03e9, 8.0, 3, 4.0, 12.0, false);
        assert_eq!(w + g + o, 18.0675e9);
        assert_eq!(model_states(8.03e9, 8.0, 1, 4.0, 12.0, true).0, 32.12e9);
    }

    /// Korthikanti et al. Table 2 for GPT-3 175B (s = 2,048, b = 1, h = 12,288, a = 96,
    /// t = 8): sbh = 25,165,824.
    /// SP + selective: 34 · sbh / 8 = 106,954,752 B per layer.
    /// SP, no recomputation: sbh · (34/8 + 5·96·2,048/(12,288·8)) = sbh · (4.25 + 10) =
    /// 358,612,992 B.
    /// TP only: sbh · (10 + 3 + 10) = 578,813,952 B; TP + selective: sbh · 13 = 327,155,712 B.
    /// Full: 2·sbh = 50,331,648 B; with SP 6,291,456 B.
    #[test]
    fn korthikanti_table_2() {
        let at = |settings| {
            activation_bytes_per_layer(2048.0, 2048.0, 12288.0, 96.0, 4.0 * 12288.0, 8.0, settings)
        };
        assert_eq!(at(SP_SELECTIVE), 106_954_752.0);
        let sp = ActivationSettings {
            recompute: Recompute::None,
            ..SP_SELECTIVE
        };
        assert_eq!(at(sp), 358_612_992.0);
        let tp_only = ActivationSettings {
            sequence_parallel: false,
            ..sp
        };
        assert_eq!(at(tp_only), 578_813_952.0);
        let tp_selective = ActivationSettings {
            recompute: Recompute::Selective,
            ..tp_only
        };
        assert_eq!(at(tp_selective), 327_155_712.0);
        let flash = ActivationSettings {
            flash_attention: true,
            ..tp_only
        };
        assert_eq!(at(flash), 327_155_712.0);
        let full = ActivationSettings {
            recompute: Recompute::Full,
            ..tp_only
        };
        assert_eq!(at(full), 50_331_648.0);
        assert_eq!(
            at(ActivationSettings {
                sequence_parallel: true,
                ..full
            }),
            6_291_456.0
        );
    }

    /// The recomputation modes' URL names (`ac=`) are the documented ones and read back.
    #[test]
    fn recompute_keys_are_stable_and_read_back() {
        for (mode, key) in [
            (Recompute::None, "none"),
            (Recompute::Selective, "selective"),
            (Recompute::Full, "full"),
        ] {
            assert_eq!(mode.key(), key);
            assert_eq!(Recompute::from_key(key), Some(mode));
            assert_eq!(Recompute::from_key(&format!(" {key} ")), Some(mode));
        }
        assert_eq!(Recompute::from_key("partial"), None);
    }

    /// Expert weights split over TP · PP · EP, dense weights over TP · PP: a Mixtral-like
    /// model (expert share 45,097,156,608 of 46,701,477,888) on TP 2 · PP 4 · EP 4, ZeRO-0:
    /// Ψ = 1,604,321,280/8 + 45,097,156,608/32 = 200,540,160 + 1,409,286,144 = 1,609,826,304.
    #[test]
    fn experts_split_over_ep_and_the_model_parallel_shards() {
        let shape = crate::shape::MIXTRAL;
        let settings = MemorySettings {
            zero: 0,
            optimizer_bytes_per_param: 12.0,
            gradient_bytes_per_param: 2.0,
            master_in_weights: false,
            activations: SP_SELECTIVE,
            hbm_bytes: 80e9,
            reserve_bytes: 0.0,
            shard_group_gpus: None,
        };
        let at = Placement {
            tp: 2.0,
            pp: 4,
            cp: 1.0,
            ep: 4.0,
            expert_tp: 2.0,
            data_parallel: 4.0,
            accumulation: 8,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
            tokens_per_replica: 4096.0,
            no_reshard: false,
        };
        let m = memory_per_gpu(&shape, 46_701_477_888.0, &settings, &at);
        assert!(
            (m.weights - 2.0 * 1_609_826_304.0).abs() < 1e-2,
            "{}",
            m.weights
        );
        assert!((m.optimizer - 12.0 * 1_609_826_304.0).abs() < 1e-1);
        // 8 layers a stage, 4 microbatches in flight, (18 + 4·14,336/4,096)·sbh/2 = 32·sbh/2
        // per layer (Megatron's constant for an MLP 3.5h wide).
        assert_eq!(m.activations, 32.0 * 4096.0 * 4096.0 / 2.0 * 8.0 * 4.0);
        // Experts whole on each GPU (ETP 1, the experts folded over the TP ranks): the routed
        // experts over PP · EP only, Ψ = 200,540,160 + 45,097,156,608/16 = 3,019,112,448.
        let whole = memory_per_gpu(
            &shape,
            46_701_477_888.0,
            &settings,
            &Placement {
                expert_tp: 1.0,
                ..at
            },
        );
        assert!((whole.weights - 2.0 * 3_019_112_448.0).abs() < 1e-2);
        assert_eq!(whole.activations, m.activations);
    }

    #[test]
    fn in_flight_per_schedule() {
        use PipelineSchedule::*;
        assert_eq!(microbatches_in_flight(OneFOneB, 1, 64, 1), 1.0);
        assert_eq!(microbatches_in_flight(OneFOneB, 8, 64, 1), 8.0);
        assert_eq!(microbatches_in_flight(OneFOneB, 8, 4, 1), 4.0);
        // 8 · (1 + 7/(8·2)) = 8 + 3.5.
        assert_eq!(microbatches_in_flight(Interleaved, 8, 64, 2), 11.5);
        assert_eq!(microbatches_in_flight(ZeroBubble, 8, 64, 1), 15.0);
        assert_eq!(microbatches_in_flight(ZeroBubble, 8, 10, 1), 10.0);
    }

    /// GPT-3 175B on TP 8 · PP 8 (12 layers a stage), 1F1B with A = 64, one 2,048-token
    /// sequence per microbatch, SP + selective: 8 microbatches × 12 layers × 106,954,752 B =
    /// 10,267,656,192 B = 10.27 GB (the same at any PP: `p · L/p = L` layers' worth). Without
    /// recomputation or flash attention: 96 × 358,612,992 = 34,426,847,232 B = 34.43 GB.
    /// Model states (ZeRO-1, K = 12, D = 16): Ψ = 175e9/64 = 2,734,375,000;
    /// 4Ψ = 10,937,500,000 and 12Ψ/16 = 2,050,781,250.
    #[test]
    fn gpt3_first_stage() {
        let shape = crate::shape::GPT3;
        let mut settings = MemorySettings {
            zero: 1,
            optimizer_bytes_per_param: 12.0,
            gradient_bytes_per_param: 2.0,
            master_in_weights: false,
            activations: SP_SELECTIVE,
            hbm_bytes: 80e9,
            reserve_bytes: 0.0,
            shard_group_gpus: None,
        };
        let at = Placement {
            tp: 8.0,
            pp: 8,
            cp: 1.0,
            ep: 1.0,
            expert_tp: 8.0,
            data_parallel: 16.0,
            accumulation: 64,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
            tokens_per_replica: 2048.0,
            no_reshard: false,
        };
        let m = memory_per_gpu(&shape, 175e9, &settings, &at);
        assert_eq!(m.activations, 10_267_656_192.0);
        assert_eq!(m.weights, 5_468_750_000.0);
        assert_eq!(m.grads, 5_468_750_000.0);
        assert_eq!(m.optimizer, 2_050_781_250.0);
        assert_eq!(m.gathered, 0.0);
        assert_eq!(
            m.total,
            10_267_656_192.0 + 10_937_500_000.0 + 2_050_781_250.0
        );
        settings.activations.recompute = Recompute::None;
        let m = memory_per_gpu(&shape, 175e9, &settings, &at);
        assert_eq!(m.activations, 34_426_847_232.0);
        // ZeRO-3: weights sharded too, and two 12-layer stage's layers gathered:
        // 2 · 2Ψ/12 = 911,458,333.3…; without resharding the whole 2Ψ.
        settings.zero = 3;
        let m = memory_per_gpu(&shape, 175e9, &settings, &at);
        assert_eq!(m.weights, 5_468_750_000.0 / 16.0);
        assert!((m.gathered - 4.0 * 2_734_375_000.0 / 12.0).abs() < 1e-3);
        // HSDP inside an 8-GPU NVLink domain at TP 8: a group of 8/8 = 1 GPU, nothing sharded
        // (2Ψ of weights); a 64-GPU domain: 64/8 = 8 shards, 2Ψ/8 = 683,593,750; a 512-GPU
        // domain holds all D = 16 ranks: 2Ψ/16 as without.
        let hsdp = |g: f64| {
            let s = MemorySettings {
                shard_group_gpus: Some(g),
                ..settings
            };
            memory_per_gpu(&shape, 175e9, &s, &at)
        };
        assert_eq!(hsdp(8.0).weights, 5_468_750_000.0);
        assert_eq!(hsdp(8.0).optimizer, 12.0 * 2_734_375_000.0);
        assert_eq!(hsdp(64.0).weights, 683_593_750.0);
        assert_eq!(hsdp(512.0).weights, 5_468_750_000.0 / 16.0);
        // Whole TP groups per domain: an NVL72 rack holds ⌊72/8⌋ = 9 of them, 2Ψ/9 =
        // 607,638,888.9; a 100-GPU domain ⌊100/8⌋ = 12 (not 12.5), 2Ψ/12 = 455,729,166.7.
        assert!((hsdp(72.0).weights - 607_638_888.888_9).abs() < 1e-3);
        assert!((hsdp(100.0).weights - 455_729_166.666_7).abs() < 1e-3);
        let m = memory_per_gpu(
            &shape,
            175e9,
            &settings,
            &Placement {
                no_reshard: true,
                ..at
            },
        );
        assert_eq!(m.gathered, 5_468_750_000.0);
    }

    /// Context parallelism splits the tokens (and the attended sequence); expert parallelism
    /// splits the experts' weights. Mixtral-like: expert share 45,097,156,608 /
    /// 46,701,477,888 of P.
    #[test]
    fn cp_and_ep_split() {
        let shape = Shape {
            seq_len: 8192.0,
            ..crate::shape::MIXTRAL
        };
        let settings = MemorySettings {
            zero: 0,
            optimizer_bytes_per_param: 12.0,
            gradient_bytes_per_param: 2.0,
            master_in_weights: false,
            activations: SP_SELECTIVE,
            hbm_bytes: 80e9,
            reserve_bytes: 0.0,
            shard_group_gpus: None,
        };
        let at = Placement {
            tp: 1.0,
            pp: 1,
            cp: 2.0,
            ep: 8.0,
            expert_tp: 1.0,
            data_parallel: 8.0,
            accumulation: 1,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
            tokens_per_replica: 8192.0,
            no_reshard: false,
        };
        let m = memory_per_gpu(&shape, 46_701_477_888.0, &settings, &at);
        assert_eq!(
            m.total,
            m.weights + m.gathered + m.grads + m.optimizer + m.activations
        );
        // Without recomputation or flash attention, CP also shortens the sequence attended
        // over: s = 8,192/2, sbh · (32 + 5·32·4,096/4,096) = 4,096 · 4,096 · 192 per layer.
        let scores = MemorySettings {
            activations: ActivationSettings {
                recompute: Recompute::None,
                sequence_parallel: true,
                flash_attention: false,
                recompute_layers: 0,
                offload_layers: 0,
            },
            zero: 3,
            ..settings
        };
        let s = memory_per_gpu(&shape, 46_701_477_888.0, &scores, &at);
        assert_eq!(s.activations, 4096.0 * 4096.0 * 192.0 * 32.0);
        assert_eq!(
            s.total,
            s.weights + s.gathered + s.grads + s.optimizer + s.activations
        );
        assert!(s.gathered > 0.0);
        // Ψ = 1,604,321,280 dense + 45,097,156,608/8 = 7,241,465,856; weights 2Ψ.
        assert!((m.weights - 2.0 * 7_241_465_856.0).abs() < 1e-3);
        // 4,096 tokens × 4,096 × 32 per layer × 32 layers.
        assert_eq!(m.activations, 4096.0 * 4096.0 * 32.0 * 32.0);
        // ZeRO-1 shards the optimizer over D · CP = 8 · 2 ranks: 12Ψ/16.
        let zero1 = MemorySettings {
            zero: 1,
            ..settings
        };
        let m = memory_per_gpu(&shape, 46_701_477_888.0, &zero1, &at);
        assert!((m.optimizer - 12.0 * 7_241_465_856.0 / 16.0).abs() < 1e-2);
    }

    /// Megatron's constant for a gated MLP, and without sequence parallelism, by hand (one
    /// 8,192-token sequence, h = 16,384, t = 8, flash attention, Llama 3 405B's FFN 53,248):
    /// sbh = 134,217,728; SP: (18 + 4·3.25)/8 = 31/8 → 520,093,696 B;
    /// no SP: 10 + (8 + 13)/8 = 12.625 → 1,694,498,816 B.
    #[test]
    fn megatron_s_constant_for_a_gated_mlp() {
        let flash = ActivationSettings {
            recompute: Recompute::None,
            sequence_parallel: true,
            flash_attention: true,
            recompute_layers: 0,
            offload_layers: 0,
        };
        let at = |settings| {
            activation_bytes_per_layer(8192.0, 8192.0, 16384.0, 128.0, 53248.0, 8.0, settings)
        };
        assert_eq!(at(flash), 520_093_696.0);
        let no_sp = ActivationSettings {
            sequence_parallel: false,
            ..flash
        };
        assert_eq!(at(no_sp), 1_694_498_816.0);
    }

    /// Llama 3 405B's first stage as Meta ran it (Dubey et al. 2024 §3.3.2; the review's
    /// golden): TP 8 · PP 16, interleaved ×8, A = 16, SP, flash attention, no recomputation,
    /// ZeRO-2 over D = 128, one 8,192-token sequence a microbatch. The first stage holds 7 of
    /// ⌈126/16⌉ = 8 layers; in flight 16·(1 + 15/128) = 17.875 microbatches; per layer
    /// sbh·31/8 = 520,093,696 B (Megatron's constant): 520,093,696 × 7 × 17.875 =
    /// 65,076,723,712 B. Ψ = 405.8e9/128 = 3,170,312,500; ZeRO-2 states (2 + 14/128)·Ψ =
    /// 6,687,377,929.6875 B. Total 71,764,101,641.6875 B = 66.84 GiB (the review's 66.8).
    #[test]
    fn llama3_405b_first_stage_as_meta_ran_it() {
        let shape = crate::shape::LLAMA3_405B;
        let settings = MemorySettings {
            zero: 2,
            optimizer_bytes_per_param: 12.0,
            gradient_bytes_per_param: 2.0,
            master_in_weights: false,
            activations: ActivationSettings {
                recompute: Recompute::None,
                sequence_parallel: true,
                flash_attention: true,
                recompute_layers: 0,
                offload_layers: 0,
            },
            hbm_bytes: 80e9,
            reserve_bytes: 0.0,
            shard_group_gpus: None,
        };
        let at = Placement {
            tp: 8.0,
            pp: 16,
            cp: 1.0,
            ep: 1.0,
            expert_tp: 8.0,
            data_parallel: 128.0,
            accumulation: 16,
            schedule: PipelineSchedule::Interleaved,
            chunks: 8,
            tokens_per_replica: 8192.0,
            no_reshard: false,
        };
        let m = memory_per_gpu(&shape, 405.8e9, &settings, &at);
        assert_eq!(m.activations, 65_076_723_712.0);
        assert!((m.weights + m.grads + m.optimizer - 6_687_377_929.687_5).abs() < 1e-3);
        assert!((m.total - 71_764_101_641.687_5).abs() < 1e-2);
    }

    /// Full recomputation of 4 of a stage's 12 layers (Megatron's `--recompute-num-layers 4`),
    /// GPT-3 175B on TP 8 · PP 8, 1F1B with A = 64 (8 in flight), SP and flash attention:
    /// 8 layers keep 34·sbh/8 = 106,954,752 B, 4 keep 2·sbh/8 = 6,291,456 B:
    /// (8·106,954,752 + 4·6,291,456)·8 = 7,046,430,720 B. `acn` past the stage's layers is all
    /// of them: 12·6,291,456·8 = 603,979,776 B.
    #[test]
    fn part_of_a_stage_recomputed() {
        let settings = MemorySettings {
            zero: 1,
            optimizer_bytes_per_param: 12.0,
            gradient_bytes_per_param: 2.0,
            master_in_weights: false,
            activations: ActivationSettings {
                recompute: Recompute::Full,
                sequence_parallel: true,
                flash_attention: true,
                recompute_layers: 4,
                offload_layers: 0,
            },
            hbm_bytes: 80e9,
            reserve_bytes: 0.0,
            shard_group_gpus: None,
        };
        let at = Placement {
            tp: 8.0,
            pp: 8,
            cp: 1.0,
            ep: 1.0,
            expert_tp: 8.0,
            data_parallel: 16.0,
            accumulation: 64,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
            tokens_per_replica: 2048.0,
            no_reshard: false,
        };
        let shape = crate::shape::GPT3;
        let m = memory_per_gpu(&shape, 175e9, &settings, &at);
        assert_eq!(m.activations, 7_046_430_720.0);
        let mut all = settings;
        all.activations.recompute_layers = 40;
        assert_eq!(
            memory_per_gpu(&shape, 175e9, &all, &at).activations,
            603_979_776.0
        );
        all.activations.recompute_layers = 0;
        assert_eq!(
            memory_per_gpu(&shape, 175e9, &all, &at).activations,
            603_979_776.0
        );
    }

    /// Megatron-LM's CI memory tests (`tests/functional_tests/test_cases/gpt/gpt3_7b_*_memory_speed`,
    /// shared/data/pipeline-and-memory.md A2): a GPT of 32 layers, h = 4,096, 32 heads with 8
    /// key/value groups, a 4h GeLU MLP, untied embeddings, 8,192-token sequences, bf16 with
    /// Transformer Engine (flash attention), the distributed optimizer (ZeRO-1, fp32 main
    /// gradients: `6 + 12/d`), no recomputation, no sequence parallelism, 8 GPUs. By hand:
    /// a layer holds `2h² + 2·h·h/4 + 8h²` = 176,160,768 parameters, 32 of them
    /// 5,637,144,576.
    ///
    /// - TP 1 · PP 4 interleaved ×8, D = 2, A = 4: vocabulary 131,073, `P` = 5,637,144,576 +
    ///   2·131,073·4,096 = 6,710,894,592, `Ψ = P/4` = 1,677,723,648, states `12Ψ` =
    ///   20,132,683,776 B; a layer keeps `sbh·34` = 33,554,432·34 = 1,140,850,688 B, 8 layers ×
    ///   `4·(1 + 3/32)` = 4.375 microbatches: 39,929,774,080 B. Total 60,062,457,856 B against
    ///   the measured peaks 60,489,064,448 (A100), 60,720,852,992 (H100), 60,519,342,080
    ///   (GB200): −0.7%, −1.1%, −0.8%.
    /// - TP 4 · PP 1, D = 2, two sequences a microbatch: vocabulary 131,072, `P` =
    ///   6,710,886,400, `Ψ = P/4` = 1,677,721,600, states 20,132,659,200 B; a layer keeps
    ///   `sbh·(10 + 24/4)` = 67,108,864·16 = 1,073,741,824 B, × 32 layers: 34,359,738,368 B.
    ///   Total 54,492,397,568 B against 58,188,115,968, 57,143,791,616, 58,217,476,096:
    ///   −6.4%, −4.6%, −6.4% (the measured rank also holds the logits of the loss,
    ///   16,384 × 131,072 fp32 values over TP 4, 2.1 GB, which the model does not count).
    ///
    /// Each within 10% of what the GPUs measured.
    #[test]
    fn megatron_ci_memory_rows() {
        let shape = Shape {
            layers: 32.0,
            hidden: 4096.0,
            heads: 32.0,
            kv_heads: 8.0,
            ffn: 0.0,
            seq_len: 8192.0,
            vocab: 131_073.0,
            experts: 1.0,
            experts_per_token: 1.0,
            head_dim: 0.0,
            shared_experts: 0.0,
            kv_lora_rank: 0.0,
            q_lora_rank: 0.0,
            rope_dim: 0.0,
            dense_layers: 0.0,
            dense_ffn: 0.0,
        };
        let settings = MemorySettings {
            zero: 1,
            optimizer_bytes_per_param: 12.0,
            gradient_bytes_per_param: 4.0,
            master_in_weights: false,
            activations: ActivationSettings {
                recompute: Recompute::None,
                sequence_parallel: false,
                flash_attention: true,
                recompute_layers: 0,
                offload_layers: 0,
            },
            hbm_bytes: 80e9,
            reserve_bytes: 0.0,
            shard_group_gpus: None,
        };
        let pp4 = Placement {
            tp: 1.0,
            pp: 4,
            cp: 1.0,
            ep: 1.0,
            expert_tp: 1.0,
            data_parallel: 2.0,
            accumulation: 4,
            schedule: PipelineSchedule::Interleaved,
            chunks: 8,
            tokens_per_replica: 8192.0,
            no_reshard: false,
        };
        let m = memory_per_gpu(&shape, 6_710_894_592.0, &settings, &pp4);
        assert_eq!(m.weights + m.grads + m.optimizer, 20_132_683_776.0);
        assert_eq!(m.activations, 39_929_774_080.0);
        for measured in [60_489_064_448.0, 60_720_852_992.0, 60_519_342_080.0] {
            let error = m.total / measured - 1.0;
            assert!(error.abs() < 0.1, "TP1·PP4: {error}");
        }
        let tp4 = Placement {
            tp: 4.0,
            pp: 1,
            accumulation: 2,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
            tokens_per_replica: 16_384.0,
            ..pp4
        };
        let shape = Shape {
            vocab: 131_072.0,
            ..shape
        };
        let m = memory_per_gpu(&shape, 6_710_886_400.0, &settings, &tp4);
        assert_eq!(m.weights + m.grads + m.optimizer, 20_132_659_200.0);
        assert_eq!(m.activations, 34_359_738_368.0);
        for measured in [58_188_115_968.0, 57_143_791_616.0, 58_217_476_096.0] {
            let error = m.total / measured - 1.0;
            assert!(error.abs() < 0.1, "TP4·PP1: {error}");
        }
    }

    /// Megatron-Core offloads only without a pipeline or recomputation, and keeps one layer:
    /// `min(ofl, L_s − 1)`. Llama 3 70B's 80 layers at 16,384 tokens, TP 1, flash attention,
    /// no sequence parallelism, keep `32·sbh` = 4,294,967,296 B each: 343,597,383,680 B for all
    /// 80, 257,698,037,760 B with 20 offloaded, 4,294,967,296 B with 200 asked (79 offloaded).
    #[test]
    fn offloaded_layers_leave_the_gpu() {
        let none = ActivationSettings {
            recompute: Recompute::None,
            sequence_parallel: false,
            flash_attention: true,
            recompute_layers: 0,
            offload_layers: 20,
        };
        assert_eq!(none.offloaded_layers(80.0, 1), 20.0);
        assert_eq!(none.offloaded_layers(80.0, 2), 0.0);
        assert_eq!(none.offloaded_layers(10.0, 1), 9.0);
        assert_eq!(none.offloaded_layers(1.0, 1), 0.0);
        let full = ActivationSettings {
            recompute: Recompute::Full,
            ..none
        };
        assert_eq!(full.offloaded_layers(80.0, 1), 0.0);
        let shape = crate::shape::LLAMA3_70B;
        let at = |offload_layers| {
            let settings = MemorySettings {
                zero: 3,
                optimizer_bytes_per_param: 12.0,
                gradient_bytes_per_param: 2.0,
                master_in_weights: false,
                activations: ActivationSettings {
                    offload_layers,
                    ..none
                },
                hbm_bytes: 288e9,
                reserve_bytes: 0.0,
                shard_group_gpus: None,
            };
            let placement = Placement {
                tp: 1.0,
                pp: 1,
                cp: 1.0,
                ep: 1.0,
                expert_tp: 1.0,
                data_parallel: 64.0,
                accumulation: 1,
                schedule: PipelineSchedule::OneFOneB,
                chunks: 1,
                tokens_per_replica: 16384.0,
                no_reshard: false,
            };
            memory_per_gpu(&shape, 70.6e9, &settings, &placement).activations
        };
        assert_eq!(at(0), 343_597_383_680.0);
        assert_eq!(at(20), 257_698_037_760.0);
        assert_eq!(at(200), 4_294_967_296.0);
    }
}
