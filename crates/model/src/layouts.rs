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
use super::step::{bubble_fraction, Layout, PipelineSchedule};
use super::walls::{Traffic, Walls};
use serde::Serialize;
use std::cmp::Reverse;

/// One parallel layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LayoutChoice {
    pub tp: u32,
    pub pp: u32,
    pub cp: u32,
    /// Expert-parallel degree (1 for a dense model).
    pub ep: u32,
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

/// The recomputation's compute relative to none (Korthikanti et al. 2022, §5): full
/// recomputation runs every layer's forward twice, `(6 + 2)/6` of the training FLOPs; `k` of a
/// stage's `L_s` layers (`recompute_layers`, Megatron-LM's `--recompute-num-layers`) rerun
/// `k/L_s` of it, `1 + (k/L_s)/3`; selective recomputation reruns the attention's `QKᵀ` and
/// `·V`, `4·s·h` FLOPs per token per layer forward (`2·s·h` each), against `6·P_a + 12·L·h·s`
/// per token for the whole step ([`super::shape::Shape::attention_flops_per_token`]); with
/// flash attention the backward recomputes the scores anyway (Dao et al. 2022), so selective
/// costs nothing more. `pp` gives the stage's layers, `L_s = ⌈L/PP⌉`.
pub fn recompute_factor(
    walls: &Walls,
    recompute: Recompute,
    recompute_layers: u32,
    pp: u32,
    active_params: f64,
) -> f64 {
    match recompute {
        Recompute::None => 1.0,
        Recompute::Selective if walls.memory.activations.flash_attention => 1.0,
        Recompute::Selective => {
            let s = walls.shape;
            1.0 + 4.0 * s.seq_len * s.hidden * s.layers
                / (6.0 * active_params + s.attention_flops_per_token())
        }
        Recompute::Full => {
            let stage = walls.shape.layers_per_stage(pp);
            let k = if recompute_layers == 0 {
                stage
            } else {
                (recompute_layers as f64).min(stage)
            };
            1.0 + k / stage / 3.0
        }
    }
}

/// The partial recomputations the search tries on a stage of `stage_layers` layers: a quarter,
/// half and three quarters of them (rounded up), each at least one and short of all.
fn partial_recompute_layers(stage_layers: u32) -> impl Iterator<Item = u32> {
    let mut last = 0;
    [1, 2, 3].into_iter().filter_map(move |q| {
        let k = (q * stage_layers).div_ceil(4);
        let new = k > last && k < stage_layers;
        last = k;
        new.then_some(k)
    })
}

/// How many layers the pipeline stages may be short of `⌈L/PP⌉ · PP` in all.
pub const MAX_SHORT_LAYERS: f64 = 2.0;

/// Powers of two from 1 to `max`.
fn powers_of_two(max: f64) -> impl Iterator<Item = u32> {
    (0..31)
        .map(|i| 1u32 << i)
        .take_while(move |&v| v as f64 <= max)
}

/// The recomputations the search tries: with flash attention selective keeps what none keeps,
/// at the same cost, so only none and full.
fn recomputes(walls: &Walls) -> &'static [Recompute] {
    if walls.memory.activations.flash_attention {
        &[Recompute::None, Recompute::Full]
    } else {
        &[Recompute::None, Recompute::Selective, Recompute::Full]
    }
}

/// Every layout of `space` for `walls`'s shape at `gpus` GPUs and batch `batch` tokens, in a
/// fixed order (TP, PP, CP, EP, microbatch, schedule, ZeRO, recomputation).
pub fn enumerate(
    walls: &Walls,
    space: &SearchSpace,
    gpus: f64,
    batch: f64,
    visit: &mut dyn FnMut(LayoutChoice),
) {
    enumerate_groups(walls, space, gpus, batch, &mut |group| {
        for_each_in_group(walls, space, group, &mut *visit)
    });
}

/// The layouts of one group ([`enumerate_groups`]): its ZeRO stages and recomputations, in
/// the order of [`enumerate`].
fn for_each_in_group(
    walls: &Walls,
    space: &SearchSpace,
    group: LayoutChoice,
    visit: &mut dyn FnMut(LayoutChoice),
) {
    let stage_layers = walls.shape.layers_per_stage(group.pp) as u32;
    for &zero in &space.zero_stages {
        for &recompute in recomputes(walls) {
            visit(LayoutChoice {
                zero,
                recompute,
                recompute_layers: 0,
                ..group
            });
            if recompute == Recompute::Full && space.partial_recompute {
                for k in partial_recompute_layers(stage_layers) {
                    visit(LayoutChoice {
                        zero,
                        recompute,
                        recompute_layers: k,
                        ..group
                    });
                }
            }
        }
    }
}

/// The groups of [`enumerate`]: every `(TP, PP, CP, EP, microbatch, schedule)` in its order,
/// with ZeRO 0 and no recomputation standing for the layouts that differ from it only in those
/// two ([`for_each_in_group`]). A group shares its compute and bubble but for the
/// recomputation's factor, which is what [`best_layout`] bounds.
fn enumerate_groups(
    walls: &Walls,
    space: &SearchSpace,
    gpus: f64,
    batch: f64,
    // `dyn`: one copy of the loops for every caller (the page's wasm is size-budgeted).
    visit: &mut dyn FnMut(LayoutChoice),
) {
    let s = walls.shape;
    let divides = |n: f64, d: u32| n > 0.0 && n % d as f64 == 0.0;
    // TP up to one doubling past the NVLink domain, so that the explorer can show why it loses.
    let max_tp = 2.0 * space.nvlink_domain_gpus as f64;
    for tp in powers_of_two(max_tp).filter(|&t| divides(s.heads, t)) {
        // Stages as equal as real runs make them: at most two layers short in all (Llama 3
        // 405B: 126 layers on 16 stages of 8, the first and last one short).
        // PP: the divisors of L (Megatron's 177B on 6 stages) and the powers of two, whose
        // stages are at most two layers short in all.
        for pp in (1..=s.layers as u32)
            .filter(|&p| s.layers % p as f64 == 0.0 || p.is_power_of_two())
            .filter(|&p| s.layers_per_stage(p) * p as f64 - s.layers <= MAX_SHORT_LAYERS)
        {
            let stage_layers = s.layers_per_stage(pp) as u32;
            let mut schedules = vec![(PipelineSchedule::OneFOneB, 1)];
            if pp > 1 {
                schedules.extend(
                    space
                        .interleaved_chunks
                        .iter()
                        .filter(|&&v| v > 1 && stage_layers.is_multiple_of(v))
                        .map(|&v| (PipelineSchedule::Interleaved, v)),
                );
                if space.zero_bubble {
                    schedules.push((PipelineSchedule::ZeroBubble, 1));
                }
            }
            for cp in powers_of_two(space.max_cp as f64).filter(|&c| divides(s.seq_len, c)) {
                // In f64: a shared link's TP, PP and CP can each be near u32's top.
                let m = tp as f64 * pp as f64 * cp as f64;
                let dp = gpus / m;
                if dp < 1.0 || dp.fract() != 0.0 || dp * s.seq_len > batch {
                    continue;
                }
                let eps = powers_of_two(s.experts)
                    .filter(|&e| divides(s.experts, e) && divides(dp, e))
                    .collect::<Vec<_>>();
                for &ep in if s.is_moe() { &eps[..] } else { &[1][..] } {
                    for &mbs in &space.microbatch_sequences {
                        // A microbatch larger than a replica's share of the batch is the
                        // same as the share: keep the first such size only.
                        if mbs > 1 && dp * s.seq_len * (mbs / 2) as f64 >= batch {
                            continue;
                        }
                        for &(schedule, chunks) in &schedules {
                            visit(LayoutChoice {
                                tp,
                                pp,
                                cp,
                                ep,
                                microbatch_sequences: mbs,
                                schedule,
                                chunks,
                                zero: 0,
                                recompute: Recompute::None,
                                recompute_layers: 0,
                            });
                        }
                    }
                }
            }
        }
    }
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
        inputs.layout.pp,
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
    }
}

/// Scores layouts of one scenario at one GPU count and batch. Built once per search (one copy
/// of the inputs, the reference rate); [`Scorer::score`] then allocates nothing.
pub struct Scorer<'a> {
    base: &'a LlmInputs,
    walls: Walls,
    scratch: LlmInputs,
    gpus: f64,
    batch: f64,
    /// `C(N, B)`: the scenario's compute at a constant rate.
    constant_compute_ms: f64,
    /// `η` and `r` of the scenario's own layout at its baseline, and its slowest stage's
    /// share (which `η` holds).
    reference_eta: f64,
    reference_stage_share: f64,
    reference_recompute: f64,
    /// `r` of none, selective and full recomputation (it depends on the shape alone).
    recompute_factors: [f64; 3],
    /// The last layout's `(tp, pp, cp, ep, microbatch)` and what follows from them alone: the
    /// layout at this `N`, its tokens per microbatch and `η`. ZeRO and recomputation are the
    /// innermost loops of [`enumerate`], so six layouts in a row share them.
    last: Option<Shared>,
}

/// What the layouts of one `(tp, pp, cp, ep, microbatch)` share ([`Scorer::score_below`]).
#[derive(Clone, Copy)]
struct Shared {
    key: (u32, u32, u32, u32, u32),
    layout: Layout,
    tokens: f64,
    eta: f64,
    /// The slowest stage against the average ([`super::shape::Shape::slowest_stage_share`]),
    /// which `eta` divides by.
    stage_share: f64,
    /// The least traffic and data-parallel time of [`Scorer::group_bound_ms`], once asked.
    comm_floor_ms: Option<f64>,
}

impl<'a> Scorer<'a> {
    pub fn new(base: &'a LlmInputs, gpus: f64, batch: f64) -> Result<Scorer<'a>, SearchError> {
        let mut walls = base.walls.ok_or(SearchError::NoShape)?;
        walls.kernels = Some(walls.kernels.unwrap_or(HalfLengths::H100_BF16));
        let reference = {
            let layout = base.layout_at(base.baseline_gpus, base.global_batch_tokens);
            let tokens = layout.tokens_per_rank(base.global_batch_tokens, base.baseline_gpus);
            walls.rate_efficiency(&layout, tokens)
        };
        let mut scratch = base.clone();
        scratch.exposed = ExposedSource::Fsdp;
        scratch.walls = Some(walls);
        Ok(Scorer {
            base,
            walls,
            scratch,
            gpus,
            batch,
            constant_compute_ms: base.compute_ms(gpus, batch) * base.kernel_ratio(gpus, batch),
            reference_eta: reference,
            reference_stage_share: walls.shape.slowest_stage_share(base.layout.pp),
            reference_recompute: recompute_factor(
                &walls,
                walls.memory.activations.recompute,
                walls.memory.activations.recompute_layers,
                base.layout.pp,
                base.active_params,
            ),
            recompute_factors: [Recompute::None, Recompute::Selective, Recompute::Full]
                .map(|r| recompute_factor(&walls, r, 0, 1, base.active_params)),
            last: None,
        })
    }

    /// What `choice`'s `(tp, pp, cp, ep, microbatch)` decides: its layout at this `N`, tokens
    /// per microbatch and `η`. Kept from the last call when the key is the same; the scratch's
    /// layout and microbatch are set with it, so the two always agree.
    fn shared(&mut self, choice: &LayoutChoice) -> Shared {
        let key = (
            choice.tp,
            choice.pp,
            choice.cp,
            choice.ep,
            choice.microbatch_sequences,
        );
        if let Some(m) = self.last.filter(|m| m.key == key) {
            return m;
        }
        let (n, b) = (self.gpus, self.batch);
        self.point_scratch_at(choice);
        let s = &self.scratch;
        let mut walls = self.walls;
        walls.expert_parallel = choice.ep as f64;
        let layout = s.layout_at(n, b);
        let tokens = layout.tokens_per_rank(b, n);
        let shared = Shared {
            key,
            layout,
            tokens,
            eta: walls.rate_efficiency(&layout, tokens),
            stage_share: walls.shape.slowest_stage_share(layout.pp),
            comm_floor_ms: None,
        };
        self.last = Some(shared);
        shared
    }

    /// The scratch's layout and microbatch for `choice`'s key (what [`Self::shared`] keeps).
    fn point_scratch_at(&mut self, choice: &LayoutChoice) {
        let s = &mut self.scratch;
        s.layout = Layout {
            tp: choice.tp,
            pp: choice.pp,
            cp: choice.cp,
            accumulation: self.base.layout.accumulation,
        };
        s.microbatch_tokens = (choice.microbatch_sequences > 0)
            .then_some(choice.microbatch_sequences as f64 * self.walls.shape.seq_len);
    }

    /// Makes `shared`, computed earlier for `choice` by [`Self::shared`], the last one again.
    fn restore_shared(&mut self, choice: &LayoutChoice, shared: Shared) {
        self.point_scratch_at(choice);
        self.last = Some(shared);
    }

    /// `r` of `recompute` over all of a stage's layers ([`recompute_factor`]).
    fn recompute_factor(&self, recompute: Recompute) -> f64 {
        self.recompute_factors[match recompute {
            Recompute::None => 0,
            Recompute::Selective => 1,
            Recompute::Full => 2,
        }]
    }

    /// `r` of `choice`'s recomputation, `k` of a stage's layers included.
    fn choice_recompute_factor(&self, choice: &LayoutChoice) -> f64 {
        match choice.recompute {
            Recompute::Full if choice.recompute_layers > 0 => recompute_factor(
                &self.walls,
                choice.recompute,
                choice.recompute_layers,
                choice.pp,
                self.base.active_params,
            ),
            other => self.recompute_factor(other),
        }
    }

    /// `choice`'s compute with the recomputation factor `recompute` and its bubble:
    /// `(shared, ideal, with kernels, compute, bubble)`, ms. `ideal = C·η_ref/r_ref`, with
    /// kernels `ideal/η`, `compute = ideal/η · r`, `bubble = bubble_fraction · compute`.
    fn compute_and_bubble(
        &mut self,
        choice: &LayoutChoice,
        recompute: f64,
    ) -> (Shared, f64, f64, f64, f64) {
        let shared = self.shared(choice);
        let ideal = self.constant_compute_ms * self.reference_eta / self.reference_recompute;
        let with_kernels = ideal / shared.eta;
        let compute = with_kernels * recompute;
        let bubble = bubble_fraction(
            choice.schedule,
            choice.pp,
            shared.layout.accumulation,
            choice.chunks,
        ) * compute;
        (shared, ideal, with_kernels, compute, bubble)
    }

    /// A lower bound of the step of every layout of `group` ([`enumerate_groups`]), and what
    /// the group shares. The step of a layout is `compute·(1 + bubble fraction) + fixed +
    /// traffic(compute) + data-parallel(compute)` (§12.4), whose last two never grow with the
    /// compute (more compute hides more of them), so with `r_min` and `r_max` the smallest and
    /// largest recomputation factors of the space (recomputing never shortens a step):
    ///
    /// `bound = C_k·r_min·(1 + bubble fraction) + fixed + traffic(C_k·r_max) +
    /// min over the ZeRO stages of data-parallel(C_k·r_max)`
    ///
    /// with `C_k` the group's compute without recomputation. It is at most the step of each
    /// of the group's layouts, fitting or not.
    fn group_bound_ms(&mut self, group: &LayoutChoice, space: &SearchSpace) -> (f64, Shared) {
        let (least, most) = recomputes(&self.walls)
            .iter()
            .map(|&r| self.recompute_factor(r))
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), r| {
                (lo.min(r), hi.max(r))
            });
        let (shared, _, with_kernels, compute, bubble) = self.compute_and_bubble(group, least);
        // The schedule is the innermost loop of the groups: the groups of one key share this.
        let comm_floor_ms = shared
            .comm_floor_ms
            .unwrap_or_else(|| self.comm_floor_ms(group, &shared, with_kernels * most, space));
        let shared = Shared {
            comm_floor_ms: Some(comm_floor_ms),
            ..shared
        };
        self.last = Some(shared);
        let bound = compute + bubble + self.scratch.comm.fixed_ms + comm_floor_ms;
        (bound, shared)
    }

    /// The traffic and data-parallel time of `group`'s key at `compute_ms` of compute, the
    /// least over the ZeRO stages of `space` (each has its own formula).
    fn comm_floor_ms(
        &mut self,
        group: &LayoutChoice,
        shared: &Shared,
        compute_ms: f64,
        space: &SearchSpace,
    ) -> f64 {
        let mut walls = self.walls;
        walls.expert_parallel = group.ep as f64;
        let (n, layout) = (self.gpus, shared.layout);
        let bus = self.scratch.comm.bus_bytes_per_s;
        // One virtual stage: the fewest pipeline sends of any schedule of the key.
        let traffic = walls.traffic(&layout, bus, shared.tokens, compute_ms, 1);
        // The data-parallel time of ZeRO 0–2 leaves one chunk exposed: one per virtual stage
        // interleaved (the most chunks of the space give the least), one per layer of the
        // stage without interleaving; the least of the two.
        let comm = self.scratch.comm;
        let most_chunks = space.interleaved_chunks.iter().copied().max().unwrap_or(1);
        let mut data_parallel = f64::INFINITY;
        for (schedule, chunks) in [
            (PipelineSchedule::Interleaved, most_chunks),
            (PipelineSchedule::OneFOneB, 1),
        ] {
            self.scratch.comm.schedule = schedule;
            self.scratch.comm.chunks = chunks;
            for &zero in &space.zero_stages {
                walls.memory.zero = zero;
                self.scratch.walls = Some(walls);
                let ms = self
                    .scratch
                    .data_parallel_exposed_ms(&layout, n, compute_ms);
                data_parallel = data_parallel.min(ms);
            }
        }
        self.scratch.comm = comm;
        traffic.total_ms() + data_parallel
    }

    /// The step, memory and MFU of `choice` (its `why` is [`Loss::Best`] until ranked).
    pub fn score(&mut self, choice: LayoutChoice) -> Scored {
        self.score_below(choice, f64::INFINITY, false)
            .expect("an infinite bound prunes nothing")
    }

    /// [`Self::score`], or `None` as soon as `choice` cannot be what [`best_layout`] keeps:
    /// when a lower bound of its step is above `bound_ms` (the fastest so far), or, with
    /// `fitting_only`, when it does not fit. The bound is `compute + bubble + fixed`: with the
    /// mechanistic exposed time (§12.4) the step is that plus exposed data-parallel time and
    /// model-parallel traffic, both ≥ 0, so a pruned layout is slower than the fastest so far
    /// and would rank after it. Pruning skips the traffic and memory of most layouts, which
    /// is what lets the search run on every input change (`make bench`, "layout search").
    pub fn score_below(
        &mut self,
        choice: LayoutChoice,
        bound_ms: f64,
        fitting_only: bool,
    ) -> Option<Scored> {
        let (shared, ideal, with_kernels, compute, bubble) =
            self.compute_and_bubble(&choice, self.choice_recompute_factor(&choice));
        let (n, b, layout, tokens) = (self.gpus, self.batch, shared.layout, shared.tokens);
        let fixed = self.scratch.comm.fixed_ms;
        // A relative slack, so that rounding in the bound never prunes an exact tie.
        if compute + bubble + fixed > bound_ms * (1.0 + 1e-12) {
            return None;
        }
        let mut walls = self.walls;
        walls.expert_parallel = choice.ep as f64;
        walls.memory.zero = choice.zero;
        walls.memory.activations.recompute = choice.recompute;
        walls.memory.activations.recompute_layers = choice.recompute_layers;
        let s = &mut self.scratch;
        s.walls = Some(walls);
        s.comm.schedule = choice.schedule;
        s.comm.chunks = choice.chunks;
        let point = walls.at(&layout, &s.comm, s.held_params(), n, tokens);
        if fitting_only && !point.fits {
            return None;
        }
        let (exposed, _) = s.exposed_ms(n, b, compute);
        let traffic = s.traffic(n, b, compute).unwrap_or_default();
        // `with_kernels = ideal · (η_ref/η)·(share/share_ref)` on GEMM rates: the stages'
        // part is what the candidate's slowest stage adds over the scenario's.
        let stages = with_kernels * (1.0 - self.reference_stage_share / shared.stage_share);
        let parts = StepParts {
            ideal_compute_ms: ideal,
            kernels_ms: with_kernels - stages - ideal,
            stages_ms: stages,
            recompute_ms: compute - with_kernels,
            bubble_ms: bubble,
            data_parallel_ms: (exposed - bubble - traffic.total_ms() - fixed).max(0.0),
            traffic,
            fixed_ms: fixed,
        };
        let step = compute + exposed;
        Some(Scored {
            choice,
            dp: layout.data_parallel(n),
            accumulation: layout.accumulation,
            tokens_per_microbatch: tokens,
            step_ms: step,
            parts,
            mfu: s.mfu(n, b, step),
            tokens_per_s: b / (step / 1e3),
            memory: point.memory,
            fits: point.fits,
            over_bytes: point.over_bytes,
            tokens_per_expert: point.tokens_per_expert,
            why: Loss::Best,
        })
    }
}

/// `a` before `b` in the ranking of [`rank`]: fitting first; among those, by step time, then
/// fewer GPUs per replica, then less memory; among the others, by memory.
fn ranks_before(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.fits.cmp(&a.fits).then_with(|| {
        if a.fits {
            a.step_ms
                .total_cmp(&b.step_ms)
                .then_with(|| a.choice.model_parallel().cmp(&b.choice.model_parallel()))
                .then_with(|| a.memory.total.total_cmp(&b.memory.total))
        } else {
            a.memory.total.total_cmp(&b.memory.total)
        }
    })
}

/// The fastest layout that fits at `gpus` and `batch` (`Ok(None)` when none fits), without
/// keeping the others: what the sweeps' "best layout" rows need. The same layout as the first
/// of [`Search::run`]'s ranking (exact ties: the first in [`enumerate`]'s order).
///
/// Best first, branch and bound: every group of layouts that differ only in ZeRO and
/// recomputation (`enumerate_groups`) gets a lower bound of its step
/// (`Scorer::group_bound_ms`); the groups are then scored in the order of their bounds, and
/// the search stops at the first whose bound is above the fastest step found. The fastest
/// layouts come first, so only a few groups are scored whole — their memory, traffic and
/// exposed time — and the bound is computed once per group, not per layout.
pub fn best_layout(
    inputs: &LlmInputs,
    space: &SearchSpace,
    gpus: f64,
    batch: f64,
) -> Result<Option<Scored>, SearchError> {
    let mut scorer = Scorer::new(inputs, gpus, batch)?;
    let walls = scorer.walls;
    let mut groups: Vec<(LayoutChoice, Shared)> = Vec::new();
    // (the bound's place in the total order of f64, the group's place in the enumeration):
    // integers, which sort fast.
    let mut order: Vec<Reverse<(i64, u32)>> = Vec::new();
    enumerate_groups(&walls, space, gpus, batch, &mut |g| {
        let (bound_ms, shared) = scorer.group_bound_ms(&g, space);
        order.push(Reverse((total_order_key(bound_ms), groups.len() as u32)));
        groups.push((g, shared));
    });
    if groups.is_empty() || space.zero_stages.is_empty() {
        return Err(SearchError::NoLayout { gpus });
    }
    // Only the groups up to the fastest step are taken out, in order: a heap (built in linear
    // time) rather than a sort of them all.
    let mut order = std::collections::BinaryHeap::from(order);
    // The fastest so far, with its group's place: of two layouts that rank alike, the one
    // [`enumerate`] visits first.
    let mut best: Option<(Scored, u32)> = None;
    while let Some(Reverse((bound_key, place))) = order.pop() {
        let best_ms = best.map_or(f64::INFINITY, |b| b.0.step_ms);
        // The slack of [`Scorer::score_below`]: rounding never stops the search at a tie.
        if bound_key > total_order_key(best_ms * (1.0 + 1e-12)) {
            break;
        }
        let (group, shared) = groups[place as usize];
        scorer.restore_shared(&group, shared);
        for_each_in_group(&walls, space, group, &mut |c| {
            let bound_ms = best.map_or(f64::INFINITY, |b| b.0.step_ms);
            if let Some(s) = scorer.score_below(c, bound_ms, true) {
                let before = best.is_none_or(|(b, b_place)| {
                    ranks_before(&s, &b).then(place.cmp(&b_place)).is_lt()
                });
                if before {
                    best = Some((s, place));
                }
            }
        });
    }
    Ok(best.map(|b| b.0))
}

/// `x`'s place in [`f64::total_cmp`]'s order, as an integer (the same mapping `total_cmp`
/// makes: negative values' other bits flipped).
fn total_order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

/// Ranks scored layouts: those that fit by step time (ties: fewer GPUs per replica, then less
/// memory, then the enumeration order), then those that do not, by how much they are over. Each gets its
/// [`Loss`] against the fastest fitting layout.
pub fn rank(scored: &mut [Scored]) {
    // Unstable: smaller code for the page's wasm; exact ties keep no particular order.
    scored.sort_unstable_by(ranks_before);
    let best = scored.first().filter(|s| s.fits).map(|s| s.parts);
    for s in scored.iter_mut() {
        s.why = loss(s, best.as_ref());
    }
    if let Some(first) = scored.first_mut().filter(|s| s.fits) {
        first.why = Loss::Best;
    }
}

/// Why `s` loses against the fastest fitting layout's parts `best`.
fn loss(s: &Scored, best: Option<&StepParts>) -> Loss {
    if !s.fits {
        return Loss::DoesNotFit {
            over_bytes: s.over_bytes,
            part: MemoryPart::largest(&s.memory),
        };
    }
    let Some(b) = best else {
        return Loss::Best;
    };
    let gap_ms = s.step_ms - b.step_ms();
    if gap_ms <= 1e-9 * s.step_ms {
        return Loss::Tie;
    }
    let p = &s.parts;
    [
        (TimePart::Kernels, p.kernels_ms - b.kernels_ms),
        (TimePart::Stages, p.stages_ms - b.stages_ms),
        (TimePart::Recompute, p.recompute_ms - b.recompute_ms),
        (TimePart::Bubble, p.bubble_ms - b.bubble_ms),
        (
            TimePart::DataParallel,
            p.data_parallel_ms - b.data_parallel_ms,
        ),
        (TimePart::Tp, p.traffic.tp_ms - b.traffic.tp_ms),
        (TimePart::Cp, p.traffic.cp_ms - b.traffic.cp_ms),
        (TimePart::Ep, p.traffic.ep_ms - b.traffic.ep_ms),
        (TimePart::Pp, p.traffic.pp_ms - b.traffic.pp_ms),
    ]
    .into_iter()
    .fold(
        None,
        |best: Option<(TimePart, f64)>, (part, by)| match best {
            Some((_, b)) if b >= by => best,
            _ => Some((part, by)),
        },
    )
    .map_or(Loss::Best, |(part, by_ms)| Loss::Slower {
        part,
        by_ms,
        gap_ms,
    })
}

/// Every layout at one GPU count, ranked, and where the scenario's own layout stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Search {
    pub gpus: f64,
    pub batch_tokens: f64,
    /// Ranked by [`rank`]: the fitting layouts by step time, then the others.
    pub layouts: Vec<Scored>,
    /// The scenario's own layout, scored the same way (also when the search space does not
    /// hold it, or it does not fit).
    pub current: Scored,
    /// Its place in [`Self::layouts`] (0 = the fastest), when the search space holds it.
    pub current_rank: Option<usize>,
}

impl Search {
    /// Searches every layout of `space` at `gpus` GPUs and batch `batch` tokens.
    pub fn run(
        inputs: &LlmInputs,
        space: &SearchSpace,
        gpus: f64,
        batch: f64,
    ) -> Result<Search, SearchError> {
        let mut scorer = Scorer::new(inputs, gpus, batch)?;
        let walls = scorer.walls;
        let mut layouts = Vec::new();
        enumerate(&walls, space, gpus, batch, &mut |c| {
            layouts.push(scorer.score(c))
        });
        if layouts.is_empty() {
            return Err(SearchError::NoLayout { gpus });
        }
        rank(&mut layouts);
        let own = current(inputs, &walls);
        let mut current = scorer.score(own);
        let best = layouts.first().filter(|s| s.fits).map(|s| s.parts);
        current.why = loss(&current, best.as_ref());
        let current_rank = layouts.iter().position(|s| s.choice == own);
        if current_rank == Some(0) {
            current.why = Loss::Best;
        }
        Ok(Search {
            gpus,
            batch_tokens: batch,
            layouts,
            current,
            current_rank,
        })
    }

    /// The fastest layout that fits, if any does.
    pub fn best(&self) -> Option<&Scored> {
        self.layouts.first().filter(|s| s.fits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{ActivationSettings, MemorySettings};
    use crate::walls::NVLINK_DOMAIN_GPUS;

    fn gpt3(flash_attention: bool) -> Walls {
        Walls {
            shape: crate::shape::GPT3,
            memory: MemorySettings {
                zero: 1,
                optimizer_bytes_per_param: 12.0,
                gradient_bytes_per_param: 2.0,
                activations: ActivationSettings {
                    recompute: Recompute::None,
                    sequence_parallel: true,
                    flash_attention,
                    recompute_layers: 0,
                },
                hbm_bytes: 80e9,
                reserve_bytes: 0.0,
                shard_group_gpus: None,
            },
            expert_parallel: 1.0,
            kernels: None,
            nvlink_bytes_per_s: 400e9,
            tp_overlap: 0.0,
            latency_s: 0.0,
            nvlink_domain_gpus: NVLINK_DOMAIN_GPUS,
            hbm_bytes_per_s: 0.0,
            gemm_flops_per_s: 0.0,
            quantized_bytes_per_element: 0.0,
            cp_overlap: crate::walls::CpOverlap::Ring,
            dropout: false,
        }
    }

    /// GPT-3 175B on H100s at 50 GB/s with the mechanistic exposed time and shrinking
    /// kernels: TP 8 · PP 8, `A` = 16 at 1,024 GPUs, 1,536 sequences of 2,048 tokens.
    fn gpt3_inputs(flash_attention: bool) -> LlmInputs {
        use crate::inputs::ComputeSource;
        use crate::step::FsdpComm;
        let mut walls = gpt3(flash_attention);
        walls.kernels = Some(HalfLengths::H100_BF16);
        LlmInputs {
            global_batch_tokens: 1536.0 * 2048.0,
            layout: Layout {
                tp: 8,
                pp: 8,
                cp: 1,
                accumulation: 16,
            },
            microbatch_tokens: None,
            search: None,
            total_params: 175e9,
            held_params: None,
            active_params: 175e9,
            flops_per_gpu: 400e12,
            peak_flops_per_gpu: 989e12,
            comm: FsdpComm {
                gathers: 3.0,
                wire_bytes_per_param: 2.0,
                gather_bytes_per_param: 2.0,
                bus_bytes_per_s: 50e9,
                fixed_ms: 20.0,
                schedule: PipelineSchedule::Interleaved,
                chunks: 4,
            },
            compute: ComputeSource::Flops,
            exposed: ExposedSource::Fsdp,
            baseline_gpus: 1024.0,
            gpus: vec![1024.0],
            token_budget: 1e12,
            exposed_scale: 1.0,
            fit: None,
            walls: Some(walls),
        }
    }

    /// With a shape, compute, `T_crit` and MFU count attention's FLOPs (PaLM's convention), by
    /// hand for GPT-3 175B at 2,048 tokens: `F_tok = 6·175e9 + 12·96·12,288·2,048 =
    /// 1,050e9 + 28,991,029,248 = 1,078,991,029,248`; compute at 1,024 GPUs, 400 TFLOP/s and
    /// 1,536 sequences: `F_tok·3,145,728/(1,024·400e12)` = 8,286.65110462464 ms (8,064 ms as
    /// `6·P_a`); at 32,768 tokens a sequence `F_tok = 1,513,856,467,968`, 1.40303× the compute
    /// for the same tokens; `T_crit = 6·175e9·400e12/(F_tok·50e9)` = 7,785.0508 tokens; an MFU
    /// at a step of the compute alone is `F_eff/peak` = 400/989. Without a shape, `6·P_a`.
    #[test]
    fn compute_and_mfu_count_attention_with_a_shape() {
        let inputs = gpt3_inputs(true);
        let batch = inputs.global_batch_tokens;
        assert_eq!(inputs.flops_per_token(), 1_078_991_029_248.0);
        assert_eq!(
            inputs.mfu_convention(),
            crate::inputs::MfuConvention::WithAttention
        );
        let compute = inputs.compute_ms(1024.0, batch);
        assert!((compute - 8_286.651_104_624_64).abs() < 1e-6, "{compute}");
        assert!((inputs.t_crit_tokens() - 7_785.050_822_762).abs() < 1e-6);
        let mfu = inputs.mfu(1024.0, batch, compute);
        assert!((mfu - 400.0 / 989.0).abs() < 1e-12, "{mfu}");
        let mut long = inputs.clone();
        if let Some(w) = long.walls.as_mut() {
            w.shape.seq_len = 32_768.0;
        }
        assert_eq!(long.flops_per_token(), 1_513_856_467_968.0);
        let ratio = long.compute_ms(1024.0, batch) / compute;
        assert!((ratio - 1_513_856_467_968.0 / 1_078_991_029_248.0).abs() < 1e-12);
        let mut bare = inputs.clone();
        bare.walls = None;
        assert_eq!(bare.flops_per_token(), 1050e9);
        assert_eq!(
            bare.mfu_convention(),
            crate::inputs::MfuConvention::WeightsOnly
        );
        assert!((bare.compute_ms(1024.0, batch) - 8064.0).abs() < 1e-9);
    }

    /// The bound of a group never exceeds the step of any of its layouts, fitting or not (else
    /// [`best_layout`] could stop before the fastest), over every group of GPT-3 175B at 1,024
    /// and 12,288 GPUs, with and without flash attention (two or three recomputations) and
    /// with ZeRO 0–3 (both data-parallel formulas).
    #[test]
    fn a_group_s_bound_is_below_each_of_its_steps() {
        let space = SearchSpace {
            zero_stages: vec![0, 1, 2, 3],
            ..SearchSpace::default()
        };
        for flash_attention in [false, true] {
            let inputs = gpt3_inputs(flash_attention);
            for gpus in [1024.0, 12288.0] {
                let batch = inputs.global_batch_tokens;
                let mut scorer = Scorer::new(&inputs, gpus, batch).unwrap();
                let walls = scorer.walls;
                let mut groups = Vec::new();
                enumerate_groups(&walls, &space, gpus, batch, &mut |g| groups.push(g));
                assert!(groups.len() > 100, "{}", groups.len());
                for g in groups {
                    let (bound, _) = scorer.group_bound_ms(&g, &space);
                    let mut least = f64::INFINITY;
                    for_each_in_group(&walls, &space, g, &mut |c| {
                        least = least.min(scorer.score(c).step_ms)
                    });
                    assert!(bound <= least * (1.0 + 1e-12), "{g:?}: {bound} > {least}");
                }
            }
        }
    }

    /// The integer keys sort as `f64::total_cmp` does, negative values included.
    #[test]
    fn total_order_keys_sort_as_the_numbers() {
        let xs = [
            f64::NEG_INFINITY,
            -2.5,
            -1.0,
            -0.0,
            0.0,
            1e-300,
            1.0,
            2.5,
            f64::INFINITY,
        ];
        for pair in xs.windows(2) {
            assert!(
                total_order_key(pair[0]) < total_order_key(pair[1]),
                "{} before {}",
                pair[0],
                pair[1]
            );
        }
    }

    /// A batch of 1,000 tokens is less than one sequence of 2,048 for every replica: no layout
    /// can run, and the search says so rather than "none fits" (`Ok(None)`).
    #[test]
    fn no_layout_when_no_replica_gets_a_sequence() {
        let inputs = gpt3_inputs(true);
        let space = SearchSpace::default();
        assert_eq!(
            best_layout(&inputs, &space, 1024.0, 1000.0),
            Err(SearchError::NoLayout { gpus: 1024.0 })
        );
        assert!(best_layout(&inputs, &space, 1024.0, 2048.0 * 1024.0)
            .unwrap()
            .is_some());
    }

    /// Full recomputation runs the forward twice: (6 + 2)/6. Selective, without flash
    /// attention, reruns QKᵀ and ·V: GPT-3 (s = 2,048, h = 12,288, L = 96, P_a = 175e9) adds
    /// 4·2,048·12,288·96 / (6·175e9 + 12·96·12,288·2,048) = 9,663,676,416 / 1,078,991,029,248
    /// = 0.0089562157…; with flash attention nothing.
    #[test]
    fn recomputation_costs_its_extra_forward() {
        let plain = gpt3(false);
        assert_eq!(recompute_factor(&plain, Recompute::None, 0, 8, 175e9), 1.0);
        assert_eq!(
            recompute_factor(&plain, Recompute::Full, 0, 8, 175e9),
            8.0 / 6.0
        );
        let selective = recompute_factor(&plain, Recompute::Selective, 0, 8, 175e9);
        assert!(
            (selective - 1.008_956_215_718_248_3).abs() < 1e-15,
            "{selective}"
        );
        assert_eq!(
            recompute_factor(&gpt3(true), Recompute::Selective, 0, 8, 175e9),
            1.0
        );
        // k of a stage's L/PP layers: 2 of 96/12 = 8 add (2/8)/3, 1.083333…; more than the
        // stage's layers is all of them.
        let partial = recompute_factor(&plain, Recompute::Full, 2, 12, 175e9);
        assert!((partial - (1.0 + 1.0 / 12.0)).abs() < 1e-15, "{partial}");
        assert_eq!(
            recompute_factor(&plain, Recompute::Full, 9, 12, 175e9),
            8.0 / 6.0
        );
        assert_eq!(
            partial_recompute_layers(8).collect::<Vec<_>>(),
            vec![2, 4, 6]
        );
        assert_eq!(partial_recompute_layers(2).collect::<Vec<_>>(), vec![1]);
        assert_eq!(partial_recompute_layers(1).count(), 0);
    }

    /// The layouts of one group, each with its own ZeRO stage and recomputed layers, by hand:
    /// GPT-3 on PP 8 has stages of L_s = ⌈96/8⌉ = 12 layers, whose partial recomputations are
    /// ⌈12/4⌉ = 3, ⌈24/4⌉ = 6 and ⌈36/4⌉ = 9 layers. With flash attention the recomputations
    /// are none and full; ZeRO 1 and 2: per stage none, full (all, written 0), full of 3, 6
    /// and 9 layers — 2 × 5 = 10 layouts, the group's own ZeRO 0 in none of them. Without the
    /// partial recomputations, 2 × 2 = 4.
    #[test]
    fn a_group_s_layouts_carry_their_zero_and_recomputed_layers() {
        let walls = gpt3(true);
        let group = LayoutChoice {
            tp: 8,
            pp: 8,
            cp: 1,
            ep: 1,
            microbatch_sequences: 1,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
            zero: 0,
            recompute: Recompute::None,
            recompute_layers: 0,
        };
        let space = SearchSpace {
            zero_stages: vec![1, 2],
            ..SearchSpace::default()
        };
        let mut seen = Vec::new();
        for_each_in_group(&walls, &space, group, &mut |c| {
            assert_eq!(
                (c.tp, c.pp, c.cp, c.microbatch_sequences),
                (8, 8, 1, 1),
                "{c:?}"
            );
            seen.push((c.zero, c.recompute, c.recompute_layers));
        });
        let mut expected = Vec::new();
        for zero in [1, 2] {
            expected.push((zero, Recompute::None, 0));
            for k in [0, 3, 6, 9] {
                expected.push((zero, Recompute::Full, k));
            }
        }
        assert_eq!(seen, expected);
        let whole = SearchSpace {
            partial_recompute: false,
            ..space
        };
        let mut seen = Vec::new();
        for_each_in_group(&walls, &whole, group, &mut |c| {
            seen.push((c.zero, c.recompute, c.recompute_layers))
        });
        assert_eq!(
            seen,
            vec![
                (1, Recompute::None, 0),
                (1, Recompute::Full, 0),
                (2, Recompute::None, 0),
                (2, Recompute::Full, 0),
            ]
        );
    }

    /// The scenario's own recomputed layers as the enumeration writes them: GPT-3 on TP 8 ·
    /// PP 8 has stages of ⌈96/8⌉ = 12 layers, so full recomputation of 4 is 4, of 12 (the
    /// whole stage) or 40 (past it) is written 0, "all of them"; selective recomputation has
    /// no recomputed layers whatever `acn` says.
    #[test]
    fn the_current_layout_writes_its_recomputed_layers() {
        let inputs = gpt3_inputs(true);
        let at = |recompute, recompute_layers| {
            let mut walls = gpt3(true);
            walls.memory.activations.recompute = recompute;
            walls.memory.activations.recompute_layers = recompute_layers;
            let c = current(&inputs, &walls);
            (c.recompute, c.recompute_layers)
        };
        assert_eq!(at(Recompute::Full, 4), (Recompute::Full, 4));
        assert_eq!(at(Recompute::Full, 12), (Recompute::Full, 0));
        assert_eq!(at(Recompute::Full, 40), (Recompute::Full, 0));
        assert_eq!(at(Recompute::Full, 0), (Recompute::Full, 0));
        assert_eq!(at(Recompute::Selective, 4), (Recompute::None, 0));
    }

    /// `TP·PP·CP` = 8·4·2 = 64; a step is the sum of its parts.
    #[test]
    fn a_layout_s_gpus_and_a_step_s_parts() {
        let c = LayoutChoice {
            tp: 8,
            pp: 4,
            cp: 2,
            ep: 1,
            microbatch_sequences: 1,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
            zero: 1,
            recompute: Recompute::None,
            recompute_layers: 0,
        };
        assert_eq!(c.model_parallel(), 64);
        let p = StepParts {
            ideal_compute_ms: 1000.0,
            kernels_ms: 100.0,
            stages_ms: 20.0,
            recompute_ms: 10.0,
            bubble_ms: 1.0,
            data_parallel_ms: 0.5,
            traffic: Traffic {
                tp_ms: 0.25,
                cp_ms: 0.125,
                ep_ms: 0.0625,
                pp_ms: 0.5,
            },
            fixed_ms: 2.0,
        };
        assert_eq!(p.compute_ms(), 1130.0);
        assert_eq!(p.step_ms(), 1134.4375);
    }

    /// Ties go to the first part listed: weights before gradients.
    #[test]
    fn the_largest_part_of_memory() {
        let m = Memory {
            weights: 2.0,
            gathered: 0.0,
            grads: 2.0,
            optimizer: 1.0,
            activations: 1.5,
            total: 6.5,
        };
        assert_eq!(MemoryPart::largest(&m), MemoryPart::Weights);
        let m = Memory {
            activations: 3.0,
            ..m
        };
        assert_eq!(MemoryPart::largest(&m), MemoryPart::Activations);
    }
}
