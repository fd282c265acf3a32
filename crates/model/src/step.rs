//! Step time of data-parallel LLM training (MODEL.md §2–3; the seed's "映射到 LLM 训练" and
//! "Strong Scaling 的实际衰减").
//!
//! `t_step(N) = t_compute(N) + t_exposed(N)`: the part that shrinks with `N` and the part that
//! does not (exposed communication, pipeline bubble, optimizer and other fixed work).
//!
//! Notation: `B` global batch (tokens per optimizer step), `A` gradient-accumulation steps,
//! `M = TP × PP × CP` the model-parallel degree, `D = N / M` the data-parallel degree,
//! `T = B / (D · A)` tokens per DP rank per microbatch.

use serde::Serialize;

/// Bytes per second, FLOP/s, tokens and milliseconds are plain `f64`s with unit-named fields.
/// The parallel layout of a run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Layout {
    /// Tensor-parallel degree.
    pub tp: u32,
    /// Pipeline-parallel degree (stages).
    pub pp: u32,
    /// Context-parallel degree.
    pub cp: u32,
    /// Gradient-accumulation steps `A` (microbatches per optimizer step per DP rank).
    pub accumulation: u32,
}

impl Layout {
    /// `M = TP × PP × CP`; EP reuses DP ranks and does not enter `M`.
    pub fn model_parallel(&self) -> f64 {
        self.tp as f64 * self.pp as f64 * self.cp as f64
    }

    /// `TP × PP`: the ways the weights are split (CP splits tokens, not weights).
    pub fn weight_shards(&self) -> f64 {
        self.tp as f64 * self.pp as f64
    }

    /// `D = N / M`.
    pub fn data_parallel(&self, gpus: f64) -> f64 {
        gpus / self.model_parallel()
    }

    /// `T = B / (D · A)`: tokens per DP rank per microbatch, for global batch `B` at `N` GPUs.
    pub fn tokens_per_rank(&self, global_batch_tokens: f64, gpus: f64) -> f64 {
        global_batch_tokens / (self.data_parallel(gpus) * self.accumulation as f64)
    }

    /// `B = T · D · A`.
    pub fn global_batch(&self, tokens_per_rank: f64, gpus: f64) -> f64 {
        tokens_per_rank * self.data_parallel(gpus) * self.accumulation as f64
    }

    /// The layout with the microbatch held at `microbatch_tokens` (`m`, tokens per replica)
    /// instead of `A`: `A = ⌈B / (D · m)⌉`, at least 1, so that `T = B/(D·A) ≤ m`.
    ///
    /// This is how real runs strong-scale (Megatron-LM's `--micro-batch-size` with a fixed
    /// `--global-batch-size`: `A = GBS/(DP · MBS)`, Narayanan et al. 2021, §2.2 and §5): the
    /// microbatch stays, the accumulation steps fall as `D` grows, and once `A = 1` the
    /// microbatch itself shrinks. When `B/(D·m)` is not a whole number (Megatron refuses such
    /// a batch), the microbatch is the largest `T ≤ m` that divides it.
    pub fn with_microbatch(
        self,
        global_batch_tokens: f64,
        gpus: f64,
        microbatch_tokens: f64,
    ) -> Layout {
        let ratio = global_batch_tokens / (self.data_parallel(gpus) * microbatch_tokens);
        // Ratios that are whole numbers up to rounding (1152·4096/(2·4096) = 576) stay whole.
        let steps = (ratio * (1.0 - 1e-12)).ceil();
        let accumulation = if steps.is_finite() {
            steps.clamp(1.0, u32::MAX as f64) as u32
        } else {
            1
        };
        Layout {
            accumulation,
            ..self
        }
    }
}

/// Compute time per optimizer step on all `N` GPUs:
///
/// `t_compute = F_tok · B / (N · F_eff)`
///
/// with `F_tok` the training FLOPs per token: `6 · P_a` for the weights (forward + backward;
/// Kaplan et al. 2020, §2.1), plus attention's `12·L·h·s` when the shape is known
/// ([`super::shape::Shape::attention_flops_per_token`]; [`super::llm::LlmInputs::flops_per_token`]).
/// Returns milliseconds.
pub fn compute_ms_from_flops(
    flops_per_token: f64,
    global_batch_tokens: f64,
    gpus: f64,
    flops_per_gpu: f64,
) -> f64 {
    flops_per_token * global_batch_tokens / (gpus * flops_per_gpu) * 1e3
}

/// The overlap threshold: tokens per DP rank per microbatch at which compute equals FSDP
/// communication (MODEL.md §3; the seed's `T_crit`):
///
/// `T_crit = b_w · P · F_eff · CP / (F_tok · B_eff)`
///
/// with `b_w` the bytes per parameter a GPU moves per microbatch ([`FsdpComm::bytes_per_param`]:
/// `c · s_w` when every transfer has the same precision) and `F_tok` the training FLOPs per
/// token ([`compute_ms_from_flops`]). Derivation: per microbatch a GPU computes `F_tok · T / M`
/// FLOPs (`M = TP·PP·CP` share the rank's tokens) and moves `b_w · P / (TP·PP)` bytes for the
/// weights of its TP/PP shard — context parallelism splits the sequence, not the weights, so
/// it does not shrink the bytes. Equal times give the formula. With `F_tok = 6·P_a` (no
/// shape), `c = 3`, `s_w = 2` (bf16) and `CP = 1` it is the seed's `(F_eff/B_eff)·(P/P_a)`.
/// (MODEL.md writes `P/M` for the bytes, which is the same at `CP = 1`.)
pub fn t_crit_tokens(
    bytes_per_param: f64,
    flops_per_gpu: f64,
    bus_bytes_per_s: f64,
    total_params: f64,
    flops_per_token: f64,
    context_parallel: f64,
) -> f64 {
    bytes_per_param * total_params * flops_per_gpu * context_parallel
        / (flops_per_token * bus_bytes_per_s)
}

/// The useful GPU count at fixed global batch (the strong-scaling knee):
///
/// `N_max = M · B / (A · T_crit)`
///
/// — the `N` at which `T` falls to `T_crit` (seed, with `M = A = 1`: `N_max ≈ B / T_crit`).
/// It assumes that every microbatch re-gathers the weights (FSDP with resharding, §3), and
/// that `A` stays fixed as `N` grows.
///
/// With the microbatch held at `m` tokens instead ([`Layout::with_microbatch`]), `T = m` while
/// `A > 1` and `T = B/D` after, so `T` falls below `max(m, T_crit)` only once `A = 1`:
///
/// `N_max = M · B / max(m, T_crit)`
///
/// When `m < T_crit` the communication is exposed at every `N` (each microbatch is below the
/// threshold), but the step still shrinks as `1/N` until `A` reaches 1 at `N = M·B/m`.
pub fn n_max_gpus(
    layout: &Layout,
    global_batch_tokens: f64,
    t_crit: f64,
    microbatch_tokens: Option<f64>,
) -> f64 {
    match microbatch_tokens {
        Some(m) => layout.model_parallel() * global_batch_tokens / m.max(t_crit),
        None => {
            layout.model_parallel() * global_batch_tokens / (layout.accumulation as f64 * t_crit)
        }
    }
}

/// Pipeline schedules and their bubble fraction of compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PipelineSchedule {
    /// 1F1B (PipeDream-Flush / Megatron): bubble `(p − 1)/m` of compute
    /// (Narayanan et al. 2021, "Efficient large-scale language model training…", §2.2).
    OneFOneB,
    /// Interleaved 1F1B with `v` model chunks per stage: bubble `(p − 1)/(v · m)` when `p`
    /// divides `m` (same paper), more when it does not ([`bubble_fraction`]).
    Interleaved,
    /// Zero-bubble schedules (Qi et al. 2024, "Zero Bubble Pipeline Parallelism", ICLR):
    /// the backward split into its input and weight gradients, the weight gradients filling
    /// the bubble. Its bubble reaches 0 only with `2p − 1` microbatches or more
    /// ([`bubble_fraction`]).
    ZeroBubble,
}

impl PipelineSchedule {
    pub fn key(self) -> &'static str {
        match self {
            PipelineSchedule::OneFOneB => "1f1b",
            PipelineSchedule::Interleaved => "interleaved",
            PipelineSchedule::ZeroBubble => "zero-bubble",
        }
    }
    pub fn from_key(key: &str) -> Option<Self> {
        match key.trim() {
            "1f1b" => Some(PipelineSchedule::OneFOneB),
            "interleaved" => Some(PipelineSchedule::Interleaved),
            "zero-bubble" | "zb" => Some(PipelineSchedule::ZeroBubble),
            _ => None,
        }
    }
}

/// Bubble time as a fraction of compute for `p` pipeline stages, `m` microbatches per step
/// (`A`) and `v` virtual chunks per stage (interleaved only). `0` without pipelining (`p = 1`).
///
/// - **1F1B**: `(p − 1)/m` (Narayanan et al. 2021, §2.2.1).
/// - **Interleaved**: `[(p − 1) + (v − 1)·(p − m mod p)·[m mod p ≠ 0]]/(v·m)`. With `p`
///   dividing `m` it is the paper's `(p − 1)/(v·m)` (§2.2.2). Megatron-Core refuses any other
///   `m` (`forward_backward_pipelining_with_interleaving` raises when
///   `num_microbatches % pipeline_parallel_size ≠ 0`; Llama 3 §3.3.2 calls it the "batch
///   size constraint"); the model charges it as Calculon does (Isaev et al. 2023,
///   `calculon/llm/llm.py`, `_compute_batch_stats`): the last, partial round of `m mod p`
///   microbatches leaves `p − m mod p` slots idle in each of the `v − 1` chunks after the
///   first, so a layout the framework would refuse loses to the ones it runs. When `v` does
///   not divide the stage's `L_s` layers (Megatron-Core runs such chunks only from an
///   explicit `pipeline_model_parallel_layout`), the chunks are uneven and the largest,
///   `⌈L_s/v⌉` layers, sets the pace of every slot: each of the bubble's slots is
///   `⌈L_s/v⌉/L_s` of a microbatch's compute instead of `1/v`, `v` replaced by `L_s/⌈L_s/v⌉`
///   ([`even_chunks`]; `stage_layers` 0 when the shape is unknown: even chunks).
/// - **Zero bubble**: `max(0, (p − m)·F + (p − 1)·B)/m`, with `F`, `B` and `W` the
///   forward's, the input gradient's and the weight gradient's shares of a microbatch's
///   compute ([`PassShares`]; Qi et al. 2024, §2–3, and the first stage's wait with unequal
///   pass times, `((p − m)·T_F + (p − 1)·T_B)/(m·(T_F + T_B + T_W))`). The first stage
///   cannot run its first backward before the first microbatch has gone forward through `p`
///   stages and back through `p − 1`, a wait of `p·T_F + (p − 1)·T_B`, which its `m`
///   forwards fill at most; the weight-gradient passes are deferred into the rest. With
///   Qi et al.'s `T_F = T_B = T_W` it is `max(0, 2p − 1 − m)/(3m)`: ZB-H1's `(p − 1)/(3m)`
///   at `m = p`, ZB-H2's 0 from `m = 2p − 1`, whose `2p − 1` microbatches in flight
///   [`super::memory::microbatches_in_flight`] charges. ZB-H2 also needs the optimizer's
///   post-validation (an eager step rolled back on a NaN or a clipped norm); the model assumes
///   it, as the schedule's authors ship it (without it they report about 8% lost).
pub fn bubble_fraction(
    schedule: PipelineSchedule,
    stages: u32,
    microbatches: u32,
    chunks: u32,
    stage_layers: f64,
    passes: PassShares,
) -> f64 {
    if stages <= 1 {
        return 0.0;
    }
    let p = stages as f64;
    let microbatches = microbatches.max(1);
    let m = microbatches as f64;
    match schedule {
        PipelineSchedule::OneFOneB => (p - 1.0) / m,
        PipelineSchedule::Interleaved => {
            let v = chunks.max(1) as f64;
            let partial = microbatches % stages;
            let idle = if partial == 0 {
                0.0
            } else {
                (v - 1.0) * (stages - partial) as f64
            };
            (p - 1.0 + idle) / (even_chunks(stage_layers, chunks) * m)
        }
        PipelineSchedule::ZeroBubble => {
            ((p - m) * passes.forward + (p - 1.0) * passes.input_gradient).max(0.0) / m
        }
    }
}

/// How many chunks of the largest of `v` virtual chunks a stage's `L_s` layers make,
/// `L_s/⌈L_s/v⌉`: the bubble's slots are that largest chunk's time. `v` when `v` divides
/// `L_s`, and when `L_s` is unknown (0) or smaller than `v`.
pub fn even_chunks(stage_layers: f64, chunks: u32) -> f64 {
    let v = chunks.max(1) as f64;
    if stage_layers < v {
        return v;
    }
    stage_layers / (stage_layers / v).ceil()
}

/// The forward's, the input gradient's and the weight gradient's shares of a microbatch's
/// compute time, which the zero-bubble schedule runs as three passes (Qi et al. 2024, §2):
/// they sum to 1. A weight GEMM runs the same FLOPs in each pass; attention has no weights,
/// and its backward runs twice its forward's FLOPs (the model's `12·h·s` a token and layer,
/// `4·h·s` forward); the elementwise kernels' memory time goes to the forward and the input
/// gradient, 2 to 3, as Calculon counts an operator's accesses (forward: read the input and
/// write the output; backward: read the saved input and the gradient, write a gradient;
/// Isaev et al. 2023, `calculon/llm/layers.py`). So with `f` attention's FLOP share and
/// `ε = μ·η/(1 + μ·η)` the elementwise share of the time ([`super::walls::Walls::pass_shares`]):
///
/// `W = (1 − f)·(1 − ε)/3`, `F = W + f·(1 − ε)/3 + 2ε/5`, `B = W + 2·f·(1 − ε)/3 + 3ε/5`.
///
/// Qi et al. profile `T_W` at 0.50–0.75 of `T_F` (Appendix D, Table 6); from the FLOPs alone
/// this form gives 0.93 for their 1.5B model (`f = s/(6h + s)` = 1,024/14,848), the rest of
/// the gap being kernels and overheads it leaves out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PassShares {
    pub forward: f64,
    pub input_gradient: f64,
    pub weight_gradient: f64,
}

impl PassShares {
    /// Qi et al.'s equal thirds: what the schedule's formulas in their §3 assume, and the
    /// model's split without a shape.
    pub const EQUAL: PassShares = PassShares {
        forward: 1.0 / 3.0,
        input_gradient: 1.0 / 3.0,
        weight_gradient: 1.0 / 3.0,
    };

    /// The split of [`PassShares`] for attention's FLOP share `attention` and the
    /// elementwise kernels' share of the time `elementwise`, each in `[0, 1]`.
    pub fn from_shares(attention: f64, elementwise: f64) -> PassShares {
        let (f, e) = (attention.clamp(0.0, 1.0), elementwise.clamp(0.0, 1.0));
        let weight_gradient = (1.0 - f) * (1.0 - e) / 3.0;
        PassShares {
            forward: weight_gradient + f * (1.0 - e) / 3.0 + 0.4 * e,
            input_gradient: weight_gradient + 2.0 * f * (1.0 - e) / 3.0 + 0.6 * e,
            weight_gradient,
        }
    }
}

/// The mechanistic FSDP / ZeRO-3 exposed-time model (MODEL.md §3, way 2).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FsdpComm {
    /// `c`: parameter transfers per microbatch — 3 (AllGather fwd, AllGather bwd,
    /// ReduceScatter grads), 2 with `reshard_after_forward=False`.
    pub gathers: f64,
    /// `s_w`: bytes per parameter on the wire — 4 fp32, 2 bf16, 1 fp8 — for the gradient
    /// reduce-scatter, and for the all-gathers unless `gather_bytes_per_param` says otherwise.
    pub wire_bytes_per_param: f64,
    /// `s_g`: bytes per parameter of the parameter all-gathers; equals `s_w` unless the
    /// parameters travel in a narrower type than the gradients (the fp8 lever: fp8
    /// parameters, bf16 gradients).
    pub gather_bytes_per_param: f64,
    /// `B_eff`: achieved bus bandwidth per GPU, bytes/s.
    pub bus_bytes_per_s: f64,
    /// Fixed exposed time per step (optimizer, first gather / last reduce-scatter), ms.
    pub fixed_ms: f64,
    pub schedule: PipelineSchedule,
    /// Virtual chunks per stage for the interleaved schedule.
    pub chunks: u32,
}

impl FsdpComm {
    /// `v`: the model chunks each pipeline stage runs, the interleaved schedule's `chunks`,
    /// else 1.
    pub fn virtual_stages(&self) -> u32 {
        match self.schedule {
            PipelineSchedule::Interleaved => self.chunks.max(1),
            _ => 1,
        }
    }

    /// `b_w`: bytes per parameter a GPU moves per microbatch: `c − 1` all-gathers of the
    /// parameters at `s_g` and one reduce-scatter of the gradients at `s_w`,
    /// `b_w = (c − 1) · s_g + s_w` (= `c · s_w` when `s_g = s_w`). FSDP's transfers per
    /// microbatch are AllGather (forward), AllGather (backward), ReduceScatter (gradients):
    /// Zhao et al. 2023, "PyTorch FSDP", §3.2 and Fig. 5.
    pub fn bytes_per_param(&self) -> f64 {
        (self.gathers - 1.0) * self.gather_bytes_per_param + self.wire_bytes_per_param
    }
}

/// Why a step-time model cannot be evaluated.
#[derive(Debug, Clone, PartialEq)]
pub enum StepError {
    /// A tabulated exposed/step-time table needs at least two points.
    TooFewPoints,
    /// Table `N` must strictly increase.
    Unsorted { gpus: f64 },
}

/// Exposed time tabulated at some GPU counts, interpolated linearly in `log N`.
///
/// Linear in `log N` because exposed time grows with the number of doublings rather than with
/// `N` itself (the seed: 100 → 150 → 220 → 300 ms over ×4, ×2, ×2), and a log axis is how every
/// chart here shows `N`. Outside the table the end segments are extended (and flagged as
/// extrapolated), never below 0 ms.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExposedTable {
    points: Vec<(f64, f64)>,
}

/// An interpolated value and whether it lies outside the measured range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interpolated {
    pub value: f64,
    pub extrapolated: bool,
}

impl ExposedTable {
    /// `points` are `(N, exposed ms)`, `N` strictly increasing, at least two.
    pub fn new(points: Vec<(f64, f64)>) -> Result<Self, StepError> {
        if points.len() < 2 {
            return Err(StepError::TooFewPoints);
        }
        if let Some(w) = points.windows(2).find(|w| w[1].0 <= w[0].0) {
            return Err(StepError::Unsorted { gpus: w[1].0 });
        }
        Ok(ExposedTable { points })
    }

    pub fn points(&self) -> &[(f64, f64)] {
        &self.points
    }

    /// No exposed time at any `N` (the fallback for a table that failed validation).
    pub fn zero() -> Self {
        ExposedTable {
            points: vec![(1.0, 0.0), (2.0, 0.0)],
        }
    }

    /// Exposed ms at `gpus`: piecewise linear in `ln N`.
    pub fn at(&self, gpus: f64) -> Interpolated {
        let pts = &self.points;
        let first = pts[0].0;
        let last = pts[pts.len() - 1].0;
        let i = pts
            .windows(2)
            .position(|w| gpus <= w[1].0)
            .unwrap_or(pts.len() - 2);
        let (n0, y0) = pts[i];
        let (n1, y1) = pts[i + 1];
        let t = (gpus.ln() - n0.ln()) / (n1.ln() - n0.ln());
        Interpolated {
            value: (y0 + t * (y1 - y0)).max(0.0),
            extrapolated: gpus < first || gpus > last,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedules' URL names are the documented ones and read back (`sched=`).
    #[test]
    fn schedule_keys_are_stable_and_read_back() {
        let all = [
            (PipelineSchedule::OneFOneB, "1f1b"),
            (PipelineSchedule::Interleaved, "interleaved"),
            (PipelineSchedule::ZeroBubble, "zero-bubble"),
        ];
        for (schedule, key) in all {
            assert_eq!(schedule.key(), key);
            assert_eq!(PipelineSchedule::from_key(key), Some(schedule));
        }
        assert_eq!(
            PipelineSchedule::from_key("zb"),
            Some(PipelineSchedule::ZeroBubble)
        );
        assert_eq!(PipelineSchedule::from_key("gpipe"), None);
    }

    #[test]
    fn t_crit_grows_with_context_parallelism_and_shrinks_with_attention_flops() {
        // 6 bytes per parameter, F_eff = 400 TFLOP/s, B_eff = 50 GB/s, P = 8e9, CP = 2, and
        // F_tok = 6·8e9 + 12·32·4,096·8,192 = 60.884901888e9 FLOPs per token (by hand):
        // 6·8e9·400e12·2 / (60.884901888e9·50e9) = 12,613.96 tokens.
        let t = t_crit_tokens(6.0, 400e12, 50e9, 8e9, 60.884_901_888e9, 2.0);
        assert!((t - 12_613.964_647_799_943).abs() < 1e-6, "{t}");
    }

    #[test]
    fn seed_t_crit_is_3700_tokens() {
        // Dense: F_eff = 370 TFLOP/s, B_eff = 100 GB/s, bf16, c = 3.
        let t = t_crit_tokens(3.0 * 2.0, 370e12, 100e9, 1.0, 6.0, 1.0);
        assert!((t - 3700.0).abs() < 1e-9);
        let layout = Layout {
            tp: 1,
            pp: 1,
            cp: 1,
            accumulation: 1,
        };
        assert!((n_max_gpus(&layout, 32e6, t, None) - 8648.648648648648).abs() < 1e-6);
        // A fixed microbatch: M·B/max(m, T_crit). 32e6/8,192 = 3,906.25; 32e6/3,700 again.
        assert_eq!(n_max_gpus(&layout, 32e6, t, Some(8192.0)), 3906.25);
        assert!((n_max_gpus(&layout, 32e6, t, Some(1024.0)) - 8648.648648648648).abs() < 1e-6);
    }

    #[test]
    fn a_fixed_microbatch_sets_the_accumulation_steps() {
        // Megatron-Core 177B: GBS 1,152 sequences of 4,096 tokens, TP 8 · PP 6 (M = 48),
        // micro-batch 1 sequence. 96 GPUs: D = 2, A = 1,152/2 = 576. 4,608 GPUs: D = 96,
        // A = 12. 110,592 GPUs: D = 2,304 > 1,152 sequences, so A = 1 and T = 2,048 tokens.
        let layout = Layout {
            tp: 8,
            pp: 6,
            cp: 1,
            accumulation: 1,
        };
        let b = 1152.0 * 4096.0;
        assert_eq!(layout.with_microbatch(b, 96.0, 4096.0).accumulation, 576);
        assert_eq!(layout.with_microbatch(b, 4608.0, 4096.0).accumulation, 12);
        let past = layout.with_microbatch(b, 110_592.0, 4096.0);
        assert_eq!(past.accumulation, 1);
        assert_eq!(past.tokens_per_rank(b, 110_592.0), 2048.0);
        // Not a whole number: 1,152/(7·1) = 164.6 → A = 165, T = 4,718,592/(7·165) ≤ 4,096.
        let odd = layout.with_microbatch(b, 336.0, 4096.0);
        assert_eq!(odd.accumulation, 165);
        assert_eq!(odd.tp, 8);
        assert_eq!(odd.pp, 6);
    }

    #[test]
    fn table_interpolates_in_log_n() {
        let t = ExposedTable::new(vec![(1024.0, 100.0), (4096.0, 150.0)]).unwrap();
        assert_eq!(t.at(1024.0).value, 100.0);
        assert!((t.at(2048.0).value - 125.0).abs() < 1e-12);
        assert!(t.at(8192.0).extrapolated);
        assert!((t.at(8192.0).value - 175.0).abs() < 1e-9);
        assert!(ExposedTable::new(vec![(1.0, 1.0)]).is_err());
        assert!(ExposedTable::new(vec![(2.0, 1.0), (1.0, 1.0)]).is_err());
    }

    #[test]
    fn bubbles() {
        assert_eq!(
            bubble_fraction(PipelineSchedule::OneFOneB, 1, 8, 1, 0.0, PassShares::EQUAL),
            0.0
        );
        assert_eq!(
            bubble_fraction(PipelineSchedule::OneFOneB, 4, 8, 1, 0.0, PassShares::EQUAL),
            3.0 / 8.0
        );
        assert_eq!(
            bubble_fraction(
                PipelineSchedule::Interleaved,
                4,
                8,
                2,
                0.0,
                PassShares::EQUAL
            ),
            3.0 / 16.0
        );
        assert_eq!(
            bubble_fraction(
                PipelineSchedule::ZeroBubble,
                1,
                1,
                1,
                0.0,
                PassShares::EQUAL
            ),
            0.0
        );
    }

    /// Interleaving when `p` does not divide `A` (Calculon's extra chunks), by hand:
    /// p 2, v 12, A 1: (1 + 11·(2 − 1))/(12·1) = 12/12 = 1 (the paper's formula gives 1/12);
    /// p 4, v 2, A 6: 6 mod 4 = 2, (3 + 1·2)/(2·6) = 5/12;
    /// p 16, v 8, A 16: 16 mod 16 = 0, 15/128 as the paper;
    /// p 4, v 3, A 9: 9 mod 4 = 1, (3 + 2·3)/(3·9) = 9/27 = 1/3.
    #[test]
    fn interleaving_a_partial_round_of_microbatches() {
        let f = |p, v, a| {
            bubble_fraction(
                PipelineSchedule::Interleaved,
                p,
                a,
                v,
                0.0,
                PassShares::EQUAL,
            )
        };
        assert_eq!(f(2, 12, 1), 1.0);
        assert!((f(4, 2, 6) - 5.0 / 12.0).abs() < 1e-15);
        assert_eq!(f(16, 8, 16), 15.0 / 128.0);
        assert!((f(4, 3, 9) - 1.0 / 3.0).abs() < 1e-15);
    }

    /// Uneven virtual chunks, by hand: 16 layers a stage in 7 chunks are 2 or 3 layers, the
    /// largest 3/16 of the stage; p 8, A 16: 7·(3/16)/16 = 21/256 = 0.08203125, against
    /// 7/(7·16) = 1/16 with even chunks. 16 in 8 chunks: 2/16 = 1/8, the paper's 7/(8·16).
    /// p 4, v 3, A 9 on 10 layers: (3 + 2·3)·(4/10)/9 = 0.4 (1/3 with even chunks).
    #[test]
    fn uneven_virtual_chunks_pace_the_bubble() {
        let f = |p, v, a, l| {
            bubble_fraction(PipelineSchedule::Interleaved, p, a, v, l, PassShares::EQUAL)
        };
        assert_eq!(f(8, 7, 16, 16.0), 21.0 / 256.0);
        assert_eq!(f(8, 8, 16, 16.0), 7.0 / 128.0);
        assert!((f(4, 3, 9, 10.0) - 0.4).abs() < 1e-15);
        assert_eq!(even_chunks(16.0, 7), 16.0 / 3.0);
        assert_eq!(even_chunks(0.0, 7), 7.0);
        assert_eq!(even_chunks(4.0, 8), 8.0);
        assert_eq!(even_chunks(8.0, 8), 8.0);
        assert_eq!(even_chunks(24.0, 12), 12.0);
    }

    /// Zero bubble: max(0, 2p − 1 − A)/(3A), by hand:
    /// p 32, A 1: (63 − 1)/3 = 62/3 = 20.666…, the winner the search used to pick;
    /// p 8, A 8: (15 − 8)/24 = 7/24 = 0.291666…, ZB-H1's (p − 1)/(3A);
    /// p 8, A 14: 1/42; p 8, A 15 (= 2p − 1): 0; p 4, A 8: 0.
    #[test]
    fn zero_bubble_needs_2p_minus_1_microbatches() {
        let f = |p, a| {
            bubble_fraction(
                PipelineSchedule::ZeroBubble,
                p,
                a,
                1,
                0.0,
                PassShares::EQUAL,
            )
        };
        assert!((f(32, 1) - 62.0 / 3.0).abs() < 1e-14);
        assert!((f(8, 8) - 7.0 / 24.0).abs() < 1e-15);
        assert!((f(8, 14) - 1.0 / 42.0).abs() < 1e-15);
        assert_eq!(f(8, 15), 0.0);
        assert_eq!(f(4, 8), 0.0);
    }

    /// Zero bubble with unequal passes, Qi et al.'s profiled times for their 1.5B model at
    /// p 8 (Appendix D, Table 6; shared/data/pipeline-and-memory.md §B2): `T_F` 18.522,
    /// `T_B` 18.086, `T_W` 9.337 ms, 45.945 ms a microbatch. By hand:
    /// A 8: (0 + 7·18.086)/(8·45.945) = 126.602/367.56 = 0.344439…;
    /// A 12: (−4·18.522 + 126.602)/(12·45.945) = 52.514/551.34 = 0.095247…;
    /// A 15: −7·18.522 + 126.602 = −3.052, so 0 (equal thirds would give 0 from A 15 too).
    #[test]
    fn zero_bubble_from_three_pass_times() {
        let total = 18.522 + 18.086 + 9.337;
        let passes = PassShares {
            forward: 18.522 / total,
            input_gradient: 18.086 / total,
            weight_gradient: 9.337 / total,
        };
        let f = |a| bubble_fraction(PipelineSchedule::ZeroBubble, 8, a, 1, 0.0, passes);
        assert!((f(8) - 0.344439).abs() < 1e-6, "{}", f(8));
        assert!((f(12) - 0.095247).abs() < 1e-6, "{}", f(12));
        assert_eq!(f(15), 0.0);
    }

    /// The split of the passes, by hand. Attention 1/4 of the FLOPs, elementwise 1/5 of the
    /// time: W = (3/4)(4/5)/3 = 0.2; F = 0.2 + (1/4)(4/5)/3 + 2/25 = 0.2 + 1/15 + 0.08 =
    /// 0.346666…; B = 0.2 + 2/15 + 0.12 = 0.453333…; they sum to 1. Then p 4, A 4:
    /// 3·0.453333…/4 = 0.34. Qi et al.'s 1.5B from its FLOPs alone (`f` = 1,024/14,848):
    /// W/F = (1 − f) = 0.931034…. Nothing: the equal thirds.
    #[test]
    fn pass_shares_from_attention_and_elementwise() {
        let p = PassShares::from_shares(0.25, 0.2);
        assert!((p.weight_gradient - 0.2).abs() < 1e-15);
        assert!((p.forward - 0.346_666_666_666_666_7).abs() < 1e-15);
        assert!((p.input_gradient - 0.453_333_333_333_333_3).abs() < 1e-15);
        let b = bubble_fraction(PipelineSchedule::ZeroBubble, 4, 4, 1, 0.0, p);
        assert!((b - 0.34).abs() < 1e-15, "{b}");
        let qi = PassShares::from_shares(1024.0 / 14848.0, 0.0);
        assert!((qi.weight_gradient / qi.forward - 0.931_034).abs() < 1e-6);
        assert_eq!(PassShares::from_shares(0.0, 0.0), PassShares::EQUAL);
    }

    /// Qi et al. 2024, Table 4 (shared/data/pipeline-and-memory.md §B2): samples per GPU per
    /// second of ZB-2p and 1F1B on A100s. Both run the same compute, so their ratio is
    /// `(1 + β_1F1B)/(1 + β_ZB)`; every row has `m ≥ 2p − 1`, where the zero-bubble bubble is
    /// 0. Within 10% of the measured ratio in all twelve rows (the model's is the larger: it
    /// leaves out the zero-bubble schedule's own costs, the split backward's smaller kernels
    /// and its optimizer post-validation).
    #[test]
    fn zero_bubble_against_1f1b_as_measured() {
        // (p, m, ZB-2p, 1F1B)
        let rows = [
            (8, 24, 14.5, 11.8),
            (8, 32, 14.8, 12.5),
            (8, 64, 14.9, 13.6),
            (8, 24, 4.32, 3.50),
            (8, 32, 4.35, 3.70),
            (8, 64, 4.39, 4.03),
            (16, 48, 1.81, 1.40),
            (16, 64, 1.83, 1.49),
            (16, 128, 1.85, 1.64),
            (32, 96, 0.99, 0.76),
            (32, 128, 1.00, 0.80),
            (32, 256, 1.00, 0.88),
        ];
        for (p, m, zb, one_f_one_b) in rows {
            let model = (1.0
                + bubble_fraction(PipelineSchedule::OneFOneB, p, m, 1, 0.0, PassShares::EQUAL))
                / (1.0
                    + bubble_fraction(
                        PipelineSchedule::ZeroBubble,
                        p,
                        m,
                        1,
                        0.0,
                        PassShares::EQUAL,
                    ));
            let measured = zb / one_f_one_b;
            assert!(
                (model / measured - 1.0).abs() <= 0.10,
                "p {p}, m {m}: model {model}, measured {measured}"
            );
        }
    }
}
