//! The search over parallel layouts at one GPU count: the article's "two ways to spend GPUs"
//! (more data-parallel replicas is weak scaling; more TP/PP/CP/EP degree is strong scaling)
//! asked of every layout at once. Calculon (Isaev et al., "Calculon: a Methodology and Tool for
//! High-Level Codesign of Systems and Large Language Models", SC 2023) searches the same space
//! offline; here each layout is scored with the walls model of [`super::walls`] and the step
//! time of [`super::llm`].
//!
//! At `N` GPUs and global batch `B`, a layout is TP (a power of two dividing the heads, up to
//! one doubling past the NVLink domain), PP (a power of two up to the layers, with its schedule and virtual
//! chunks), CP (a power of two dividing the sequence), EP (a power of two dividing the experts
//! and the data-parallel degree), the microbatch in sequences, the ZeRO stage and the
//! recomputation; `D = N/(TP·PP·CP)` must be whole, and every replica needs at least one
//! sequence per step (`D · sq ≤ B`). `A = ⌈B/(D·m)⌉` follows ([`Layout::with_microbatch`]).
//!
//! **Scored relative to the scenario's own layout.** `F_eff` is the rate the scenario's own
//! layout reaches at its baseline (`N₀`, `B₀`), so a candidate's compute is
//!
//! `t_compute = C(N, B) · η(scenario at N₀, B₀)/η(candidate at N, B) · r(candidate)/r(scenario)`
//!
//! with `C` the scenario's constant-rate compute, `η` the GEMM efficiency of
//! [`super::kernel`] (always on in the search, at the scenario's half-lengths or
//! [`HalfLengths::H100_BF16`]) and `r` the recomputation's extra forward pass
//! ([`recompute_factor`]). The exposed time is the mechanistic one whatever `em` says (a
//! measured or fitted exposed time belongs to the scenario's own layout only): the bubble,
//! FSDP's or ZeRO's data-parallel traffic and the TP/CP/EP traffic of [`super::walls`].
//!
//! Nothing is allocated per layout: one scratch copy of the inputs is re-pointed at each.

use super::inputs::{ExposedSource, LlmInputs};
pub use super::inputs::{SearchSpace, SearchedRows};
use super::kernel::HalfLengths;
use super::memory::{Memory, Recompute};
use super::step::{bubble_fraction, Layout, PassShares, PipelineSchedule};
use super::walls::{Traffic, Walls};
use serde::Serialize;
use std::cmp::Reverse;

mod enumerate;
mod score;
mod search;
#[cfg(test)]
mod tests;

pub use enumerate::{enumerate, MAX_SHORT_LAYERS};
pub use score::{recompute_factor, Scorer};
pub use search::{best_layout, rank, Search};
use {enumerate::*, score::*};

/// One parallel layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LayoutChoice {
    pub tp: u32,
    pub pp: u32,
    pub cp: u32,
    /// Expert-parallel degree (1 for a dense model).
    pub ep: u32,
    /// The routed experts' TP degree when it is below TP (`etp`; 1: whole experts, the EP
    /// group folded over the TP ranks, so EP may exceed `D`); `0`: the experts split as TP
    /// splits the dense layers.
    #[serde(rename = "etp")]
    pub expert_tp: u32,
    /// Sequences per microbatch; `0` keeps the scenario's `A` instead (its own layout when
    /// `mbs=0`).
    pub microbatch_sequences: u32,
    #[serde(rename = "sched")]
    pub schedule: PipelineSchedule,
    /// Virtual chunks per stage (interleaved only; 1 otherwise).
    #[serde(rename = "vc")]
    pub chunks: u32,
    pub zero: u8,
    #[serde(rename = "ac")]
    pub recompute: Recompute,
    /// With full recomputation, the layers of a stage recomputed (`0`: all of them;
    /// Megatron-LM's `--recompute-num-layers`).
    #[serde(rename = "acn")]
    pub recompute_layers: u32,
    /// Layers whose activations are offloaded to host memory (`0`: none; Megatron-Core's
    /// `cpu_offloading_num_layers`, only without a pipeline or recomputation).
    #[serde(rename = "ofl")]
    pub offload_layers: u32,
}

impl LayoutChoice {
    /// `TP·PP·CP`: the GPUs of one replica.
    pub fn model_parallel(&self) -> u32 {
        self.tp * self.pp * self.cp
    }
}

impl Scored {
    /// This layout's strong-scaling knee at global batch `batch` ([`super::step::n_max_gpus`]):
    /// `N_max = M·B/max(m, T_crit)` with its microbatch of `m = sq·seq` tokens, or
    /// `M·B/(A·T_crit)` when it keeps the scenario's `A` (`mbs=0`). `T_crit` is the same for
    /// every layout: the FSDP gathers and the compute of a replica's shard both scale as
    /// `1/(TP·PP)`, so their ratio does not depend on the layout (§3).
    pub fn n_max_gpus(&self, batch: f64, t_crit: f64, seq_len: f64) -> f64 {
        let layout = Layout {
            tp: self.choice.tp,
            pp: self.choice.pp,
            cp: self.choice.cp,
            accumulation: self.accumulation,
        };
        let microbatch = (self.choice.microbatch_sequences > 0)
            .then_some(self.choice.microbatch_sequences as f64 * seq_len);
        super::step::n_max_gpus(&layout, batch, t_crit, microbatch)
    }
}

/// The time of one step, part by part, ms.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct StepParts {
    /// Compute with every GEMM at the scenario's baseline rate and no recomputation.
    pub ideal_compute_ms: f64,
    /// What smaller (or larger) GEMMs add to it: `C·(η_ref/η − 1)`, below 0 when the
    /// candidate's kernels are larger than the scenario's.
    pub kernels_ms: f64,
    /// What the pipeline's slowest stage adds against the scenario's own
    /// ([`super::shape::Shape::slowest_stage_share`]: the last stage's output layer), below 0
    /// when the candidate's stages are more even.
    pub stages_ms: f64,
    /// The recomputation's extra forward pass.
    pub recompute_ms: f64,
    pub bubble_ms: f64,
    /// FSDP's per-microbatch gathers, or ZeRO 0–2's once-per-step traffic, left exposed.
    pub data_parallel_ms: f64,
    pub traffic: Traffic,
    /// The scenario's fixed exposed time (`fix`), the same for every layout.
    pub fixed_ms: f64,
    /// The optimizer's step on the GPU's shard ([`crate::walls::Walls::optimizer_step_ms`]).
    pub optimizer_ms: f64,
}

impl StepParts {
    pub fn compute_ms(&self) -> f64 {
        self.ideal_compute_ms + self.kernels_ms + self.stages_ms + self.recompute_ms
    }
    pub fn step_ms(&self) -> f64 {
        self.compute_ms()
            + self.bubble_ms
            + self.data_parallel_ms
            + self.traffic.total_ms()
            + self.fixed_ms
            + self.optimizer_ms
    }
}

/// Why a layout is slower than the fastest one, or does not fit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "reason")]
pub enum Loss {
    /// It is the fastest layout that fits.
    Best,
    /// Its memory exceeds the GPU's by `over_bytes`, most of it in `part`.
    DoesNotFit { over_bytes: f64, part: MemoryPart },
    /// How much slower its step is than the fastest layout's, `gap_ms`, and the part of the
    /// step in which it loses the most time, `part`, with that part's own excess `by_ms`. The
    /// parts' excesses sum to the gap, so one part's can exceed it when others are smaller
    /// than the fastest layout's (more TP traffic, a smaller bubble): a reader needs both.
    Slower {
        part: TimePart,
        by_ms: f64,
        gap_ms: f64,
    },
    /// As fast as the fastest layout (to a part in 10⁹); ranked after it for more GPUs per
    /// replica or more memory.
    Tie,
}

/// A part of the memory per GPU ([`Memory`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MemoryPart {
    Weights,
    Gathered,
    Grads,
    Optimizer,
    Activations,
}

/// A part of the step time ([`StepParts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimePart {
    Kernels,
    /// The slowest pipeline stage ([`StepParts::stages_ms`]).
    Stages,
    Recompute,
    Bubble,
    DataParallel,
    Tp,
    Cp,
    Ep,
    Pp,
    /// The optimizer's step ([`StepParts::optimizer_ms`]).
    Optimizer,
    /// Offloaded activations' copies ([`Traffic::offload_ms`]).
    Offload,
}

impl MemoryPart {
    /// The largest part of `memory`.
    pub fn largest(memory: &Memory) -> MemoryPart {
        [
            (MemoryPart::Weights, memory.weights),
            (MemoryPart::Gathered, memory.gathered),
            (MemoryPart::Grads, memory.grads),
            (MemoryPart::Optimizer, memory.optimizer),
            (MemoryPart::Activations, memory.activations),
        ]
        .into_iter()
        .fold((MemoryPart::Weights, f64::NEG_INFINITY), |best, p| {
            if p.1 > best.1 {
                p
            } else {
                best
            }
        })
        .0
    }
}

/// One layout, scored.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scored {
    /// Nested (not flattened: serde's flatten costs the page's wasm several KB);
    /// `scaling layouts --format json` lifts its fields into each entry.
    pub choice: LayoutChoice,
    /// `D = N/(TP·PP·CP)`.
    pub dp: f64,
    /// `A`, microbatches per step per replica.
    #[serde(rename = "a")]
    pub accumulation: u32,
    /// `T`, tokens per replica per microbatch.
    pub tokens_per_microbatch: f64,
    pub step_ms: f64,
    pub parts: StepParts,
    pub mfu: f64,
    pub tokens_per_s: f64,
    pub memory: Memory,
    pub fits: bool,
    /// `memory.total −` the GPU's memory: above 0 by what does not fit.
    pub over_bytes: f64,
    /// Tokens one expert gets per microbatch (MoE only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_per_expert: Option<f64>,
    pub why: Loss,
}

/// Why no layout can be searched.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "error")]
pub enum SearchError {
    /// The search needs the model's shape (layers, heads, sequence).
    NoShape,
    /// No layout divides `gpus` GPUs with at least one sequence per replica.
    NoLayout { gpus: f64 },
}

/// The scenario's inputs with the compute rate from physics alone (`r∞` of its stack,
/// [`super::stack::Stack`]), for the published-runs table and `cm=physics`:
/// `F_eff = r∞ · peak · η(own layout at N₀, T₀) / r(own)` (Hockney's `η`, §12.3, with the
/// scenario's half-lengths or H100's; `r` the own layout's recomputation,
/// [`recompute_factor`]), the step from `6·P_a·B/(N·F_eff)` with the kernels shrinking and the
/// mechanistic exposed time (§12.4) — no measured time, table or fit of the run. `F_eff`
/// counts the model's FLOPs only (the MFU convention), so a recomputed forward lowers it:
/// the sweeps then charge the own layout's recomputation as the search charges every
/// candidate's (`t = C·η₀/η·r/r₀` with `C` holding `r₀`), and a layout typed in from the
/// search shows the step it was listed with. With the machine's HBM bandwidth set, `η` carries
/// the elementwise kernels' memory time weighed against `r∞·peak` ([`Walls::rate_efficiency`]).
/// `None` without a shape.
pub fn physics_inputs(base: &LlmInputs, large_gemm_fraction: f64) -> Option<LlmInputs> {
    let mut walls = base.walls?;
    walls.kernels = Some(walls.kernels.unwrap_or(HalfLengths::H100_BF16));
    walls.gemm_flops_per_s = large_gemm_fraction * base.peak_flops_per_gpu;
    let mut inputs = base.clone();
    inputs.walls = Some(walls);
    inputs.fit = None;
    inputs.compute = super::inputs::ComputeSource::Flops;
    inputs.exposed = ExposedSource::Fsdp;
    let layout = inputs.layout_at(inputs.baseline_gpus, inputs.global_batch_tokens);
    let tokens = layout.tokens_per_rank(inputs.global_batch_tokens, inputs.baseline_gpus);
    let recompute = recompute_factor(
        &walls,
        walls.memory.activations.recompute,
        walls.memory.activations.recompute_layers,
        &layout,
        tokens,
        inputs.active_params,
    );
    inputs.flops_per_gpu =
        large_gemm_fraction * inputs.peak_flops_per_gpu * walls.rate_efficiency(&layout, tokens)
            / recompute;
    Some(inputs)
}

/// The scenario's own layout as a [`LayoutChoice`].
pub fn current(inputs: &LlmInputs, walls: &Walls) -> LayoutChoice {
    let sequences = inputs
        .microbatch_tokens
        .map_or(0, |m| (m / walls.shape.seq_len).round() as u32);
    // Without a pipeline the schedule does not matter, and only interleaving has chunks:
    // written as the enumeration writes them, so that the search finds the scenario's own.
    let schedule = if inputs.layout.pp > 1 {
        inputs.comm.schedule
    } else {
        PipelineSchedule::OneFOneB
    };
    let chunks = if schedule == PipelineSchedule::Interleaved {
        inputs.comm.chunks
    } else {
        1
    };
    LayoutChoice {
        tp: inputs.layout.tp,
        pp: inputs.layout.pp,
        cp: inputs.layout.cp,
        ep: walls.expert_parallel as u32,
        // Written 0 when it is TP's, as the enumeration writes it.
        expert_tp: match walls.expert_tp(&inputs.layout) as u32 {
            etp if etp < inputs.layout.tp => etp,
            _ => 0,
        },
        microbatch_sequences: sequences,
        schedule,
        chunks,
        zero: walls.memory.zero,
        // With flash attention selective recomputation keeps and costs what none does, and
        // the enumeration lists only none.
        recompute: match walls.memory.activations.recompute {
            Recompute::Selective if walls.memory.activations.flash_attention => Recompute::None,
            other => other,
        },
        // All of a stage's layers is written 0, as the enumeration writes it.
        recompute_layers: match walls.memory.activations.recompute {
            Recompute::Full
                if (walls.memory.activations.recompute_layers as f64)
                    < walls.shape.layers_per_stage(inputs.layout.pp) =>
            {
                walls.memory.activations.recompute_layers
            }
            _ => 0,
        },
        // Counted only where Megatron-Core allows it, and written 0 elsewhere, as the
        // enumeration writes it.
        offload_layers: walls.memory.activations.offloaded_layers(
            walls.shape.layers_per_stage(inputs.layout.pp),
            inputs.layout.pp,
        ) as u32,
    }
}
