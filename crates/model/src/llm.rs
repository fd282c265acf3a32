//! Strong and weak scaling sweeps of LLM training (MODEL.md §2–3, §6; the seed's tables).
//!
//! Strong scaling fixes the global batch `B` and adds GPUs, so tokens per rank `T` fall;
//! weak scaling fixes `T` and adds data-parallel replicas, so `B` grows. Both use the same step
//! time `t_step = t_compute + t_exposed` from [`super::step`].

use super::fit::StepFit;
use super::memory::Memory;
use super::walls::{Traffic, WallPoint};
use serde::Serialize;

pub use super::inputs::{ComputeSource, ExposedSource, LlmInputs, MfuConvention};

/// Samples per dense chart curve.
pub const CURVE_SAMPLES: usize = 96;

/// One row of the strong-scaling table (the seed's columns).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StrongRow {
    pub gpus: f64,
    /// `A`: microbatches per step per replica (falls with `N` when the microbatch is fixed).
    pub accumulation: u32,
    /// `T = B/(D·A)`: tokens per data-parallel replica per microbatch — the `M = TP·PP·CP`
    /// GPUs of a replica share them. `T_crit` is in the same unit.
    pub tokens_per_replica: f64,
    /// `T / M`: tokens per GPU per microbatch (= `T` when `TP = PP = CP = 1`).
    pub tokens_per_gpu: f64,
    pub compute_ms: f64,
    pub exposed_ms: f64,
    pub step_ms: f64,
    /// `t_step(N₀) · N₀ / N`.
    pub ideal_ms: f64,
    /// `ideal / step`.
    pub efficiency: f64,
    /// `B / t_step`, tokens per second.
    pub throughput_tokens_per_s: f64,
    /// The exposed time lies outside the tabulated range.
    pub extrapolated: bool,
    /// `T < T_crit`: communication no longer hides behind compute.
    pub below_t_crit: bool,
    /// Model FLOPs utilisation ([`LlmInputs::mfu`]).
    pub mfu: f64,
    /// Memory, fit, tokens per expert and GEMM efficiency, with a shape.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub walls: Option<WallPoint>,
    /// Model-parallel traffic exposed per step, with a shape in FSDP mode.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traffic: Option<Traffic>,
    /// With `lay=best`: the fastest layout that fits at this row's GPU count and batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_layout: Option<BestLayout>,
}

/// The layout search's answer at one row ([`super::layouts::best_layout`]). In JSON it is
/// the summary of [`BestLayoutJson`] (the whole scored layout is `scaling layouts`'s).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(into = "BestLayoutJson")]
// One per table row, copied into the panels' cells: a box would allocate for nothing.
#[allow(clippy::large_enum_variant)]
pub enum BestLayout {
    /// The fastest layout that fits.
    Layout(super::layouts::Scored),
    /// Layouts divide the GPUs, but none fits in the GPU's memory.
    NoneFits,
    /// No layout divides the GPU count with a sequence per replica.
    NoLayout,
}

/// A row's best layout in JSON: the layout, its step, MFU and memory, or `found: false`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BestLayoutJson {
    /// A layout fits (`false`: none fits, or none divides the GPU count).
    pub found: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tp: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pp: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ep: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dp: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub microbatch_sequences: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sched: Option<super::step::PipelineSchedule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zero: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ac: Option<super::memory::Recompute>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mfu: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<f64>,
}

impl From<BestLayout> for BestLayoutJson {
    fn from(b: BestLayout) -> Self {
        let l = b.layout();
        let c = l.map(|l| l.choice);
        BestLayoutJson {
            found: l.is_some(),
            tp: c.map(|c| c.tp),
            pp: c.map(|c| c.pp),
            cp: c.map(|c| c.cp),
            ep: c.map(|c| c.ep),
            dp: l.map(|l| l.dp),
            a: l.map(|l| l.accumulation),
            microbatch_sequences: c.map(|c| c.microbatch_sequences),
            sched: c.map(|c| c.schedule),
            vc: c.map(|c| c.chunks),
            zero: c.map(|c| c.zero),
            ac: c.map(|c| c.recompute),
            step_ms: l.map(|l| l.step_ms),
            mfu: l.map(|l| l.mfu),
            memory_bytes: l.map(|l| l.memory.total),
        }
    }
}

impl BestLayout {
    /// The search at `gpus` and `batch` of the strong (`strong`) or weak sweep, when `inputs`
    /// asks for it there.
    fn at(inputs: &LlmInputs, gpus: f64, batch: f64, strong: bool) -> Option<BestLayout> {
        let space = inputs.search.as_ref().filter(|s| s.rows.includes(strong))?;
        Some(
            match super::layouts::best_layout(inputs, space, gpus, batch) {
                Ok(Some(s)) => BestLayout::Layout(s),
                Ok(None) => BestLayout::NoneFits,
                Err(_) => BestLayout::NoLayout,
            },
        )
    }

    /// The layout, when one fits.
    pub fn layout(self) -> Option<super::layouts::Scored> {
        match self {
            BestLayout::Layout(s) => Some(s),
            _ => None,
        }
    }
}

/// One row of the weak-scaling table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WeakRow {
    pub gpus: f64,
    /// `A`: microbatches per step per replica (the baseline's at every `N`).
    pub accumulation: u32,
    /// `T`, tokens per data-parallel replica per microbatch (fixed by weak scaling).
    pub tokens_per_replica: f64,
    /// `T / M`, tokens per GPU per microbatch.
    pub tokens_per_gpu: f64,
    pub global_batch_tokens: f64,
    pub compute_ms: f64,
    pub exposed_ms: f64,
    pub step_ms: f64,
    /// `t_step(N₀) / t_step(N)`.
    pub efficiency: f64,
    pub throughput_tokens_per_s: f64,
    /// Optimizer steps the token budget buys: `budget / B`.
    pub optimizer_steps: f64,
    pub extrapolated: bool,
    pub mfu: f64,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub walls: Option<WallPoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traffic: Option<Traffic>,
    /// With `lay=best`: the fastest layout that fits at this row's GPU count and batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_layout: Option<BestLayout>,
}

/// The strong-scaling knee when the layout may change with `N`: each strong row's best layout
/// has its own `N_max = M·B/max(m, T_crit)` ([`super::layouts::Scored::n_max_gpus`]); this is
/// the largest of them, and the row whose layout it is. Layouts with more model parallelism
/// (larger `M`) keep `T ≥ T_crit` to more GPUs, which is how real runs push the knee out
/// (the article's "push `T_crit` down", here "push `M` up").
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BestKnee {
    /// `N_max` of that layout.
    pub n_max: f64,
    /// The strong row whose best layout it is.
    pub at_gpus: f64,
}

impl BestKnee {
    /// The largest knee of the strong rows' best layouts (ties: the first row), or `None`
    /// without `lay=best` or when no row has a fitting layout.
    fn of(inputs: &LlmInputs, strong: &[StrongRow], t_crit: f64) -> Option<BestKnee> {
        let seq_len = inputs.walls.map_or(0.0, |w| w.shape.seq_len);
        strong
            .iter()
            .filter_map(|r| {
                let s = r.best_layout?.layout()?;
                Some(BestKnee {
                    n_max: s.n_max_gpus(inputs.global_batch_tokens, t_crit, seq_len),
                    at_gpus: r.gpus,
                })
            })
            .reduce(|a, b| if b.n_max > a.n_max { b } else { a })
    }
}

/// The summary numbers of both sweeps.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmSummary {
    pub t_crit_tokens: f64,
    /// `N_max = M · B / (A · T_crit)`, or `M · B / max(m, T_crit)` with a fixed microbatch
    /// ([`super::step::n_max_gpus`]).
    pub n_max: f64,
    /// `m`, the fixed microbatch in tokens per replica, when `A` follows from it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub microbatch_tokens: Option<f64>,
    /// The table row with the highest strong-scaling throughput (of the best layouts with
    /// `lay=best`).
    pub peak_throughput_gpus: f64,
    /// With `lay=best`: the knee of the best layouts, the largest `N_max` of the strong rows'
    /// best layouts ([`BestKnee`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_layout_n_max: Option<BestKnee>,
    pub baseline_gpus: f64,
    pub model_parallel: f64,
    /// `B₀`, the strong sweep's fixed batch and the weak sweep's baseline batch.
    pub global_batch_tokens: f64,
    /// `P`, the scenario's total parameters (what the shape's count is checked against).
    pub total_params: f64,
    pub token_budget: f64,
    /// `F_tok`, the training FLOPs per token that compute time and MFU count
    /// ([`LlmInputs::flops_per_token`]).
    pub flops_per_token: f64,
    /// Which FLOPs the MFU columns count ([`MfuConvention`]).
    pub mfu_convention: MfuConvention,
    /// The GPU's memory, with a shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hbm_bytes: Option<f64>,
    /// What a layout's tensors can have of it, with a shape: the GPU's memory less the
    /// reserve ([`super::memory::MemorySettings::usable_bytes`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub usable_bytes: Option<f64>,
    /// `P` implied by the shape ([`super::shape::Shape::total_params`]), with a shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape_params: Option<f64>,
    /// The shape's sequence length `s`, with a shape: how many sequences a microbatch holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq_len: Option<f64>,
    /// `|implied − P| / P` ([`super::shape::params_mismatch`]); above
    /// [`super::shape::PARAMS_TOLERANCE`] the panels report it, naming both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape_params_mismatch: Option<f64>,
}

/// Dense curves of one sweep for the charts: `(N, value)`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SweepCurves {
    pub compute_ms: Vec<(f64, f64)>,
    pub step_ms: Vec<(f64, f64)>,
    pub ideal_ms: Vec<(f64, f64)>,
    pub efficiency: Vec<(f64, f64)>,
    pub throughput: Vec<(f64, f64)>,
    pub global_batch: Vec<(f64, f64)>,
    pub mfu: Vec<(f64, f64)>,
    /// Memory per GPU, with a shape (empty without).
    pub memory: Vec<(f64, Memory)>,
}

/// Everything the strong and weak panels show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmSweep {
    pub summary: LlmSummary,
    pub strong: Vec<StrongRow>,
    pub weak: Vec<WeakRow>,
    /// The exposed times fitted from measured step times, if that is the source.
    pub fitted_exposed: Option<Vec<(f64, f64)>>,
    /// The fit of measured step times (`em=fit`): `W`, `K`, each point's error.
    pub fit: Option<StepFit>,
    pub strong_curves: SweepCurves,
    pub weak_curves: SweepCurves,
    /// Range of the x axis, shared by both panels' charts.
    pub gpu_range: (f64, f64),
}

fn strong_row(inputs: &LlmInputs, gpus: f64, baseline_step_ms: f64, t_crit: f64) -> StrongRow {
    let batch = inputs.global_batch_tokens;
    let compute_ms = inputs.compute_ms(gpus, batch);
    let (exposed_ms, extrapolated) = inputs.exposed_ms(gpus, batch, compute_ms);
    let step_ms = compute_ms + exposed_ms;
    let ideal_ms = baseline_step_ms * inputs.baseline_gpus / gpus;
    let layout = inputs.layout_at(gpus, batch);
    let tokens_per_replica = layout.tokens_per_rank(batch, gpus);
    StrongRow {
        gpus,
        accumulation: layout.accumulation,
        tokens_per_replica,
        tokens_per_gpu: tokens_per_replica / inputs.layout.model_parallel(),
        compute_ms,
        exposed_ms,
        step_ms,
        ideal_ms,
        efficiency: ideal_ms / step_ms,
        throughput_tokens_per_s: batch / (step_ms / 1e3),
        extrapolated,
        below_t_crit: tokens_per_replica < t_crit,
        mfu: inputs.mfu(gpus, batch, step_ms),
        walls: inputs.wall_point(gpus, batch),
        traffic: inputs.traffic(gpus, batch, compute_ms),
        // Filled in for the table rows only (the curves' samples are not searched).
        best_layout: None,
    }
}

fn weak_row(inputs: &LlmInputs, gpus: f64, baseline_step_ms: f64) -> WeakRow {
    let batch = inputs.weak_batch(gpus);
    let tokens = inputs.tokens_per_rank(inputs.baseline_gpus, inputs.global_batch_tokens);
    let compute_ms = inputs.compute_ms(gpus, batch);
    let (exposed_ms, extrapolated) = inputs.exposed_ms(gpus, batch, compute_ms);
    let step_ms = compute_ms + exposed_ms;
    WeakRow {
        gpus,
        accumulation: inputs.layout_at(gpus, batch).accumulation,
        tokens_per_replica: tokens,
        tokens_per_gpu: tokens / inputs.layout.model_parallel(),
        global_batch_tokens: batch,
        compute_ms,
        exposed_ms,
        step_ms,
        efficiency: baseline_step_ms / step_ms,
        throughput_tokens_per_s: batch / (step_ms / 1e3),
        optimizer_steps: inputs.token_budget / batch,
        extrapolated,
        mfu: inputs.mfu(gpus, batch, step_ms),
        walls: inputs.wall_point(gpus, batch),
        traffic: inputs.traffic(gpus, batch, compute_ms),
        best_layout: None,
    }
}

fn log_space(lo: f64, hi: f64, samples: usize) -> impl Iterator<Item = f64> {
    let (a, b) = (lo.ln(), hi.ln());
    (0..samples).map(move |i| {
        if i + 1 == samples {
            hi
        } else {
            (a + (b - a) * i as f64 / (samples - 1) as f64).exp()
        }
    })
}

impl LlmSweep {
    /// Evaluates the strong and weak sweeps over `inputs.gpus` (rows) and a dense range
    /// spanning the rows and `N_max` (charts).
    pub fn compute(inputs: &LlmInputs) -> LlmSweep {
        let t_crit = inputs.t_crit_tokens();
        let n_max = inputs.n_max(t_crit);
        let baseline = strong_row(inputs, inputs.baseline_gpus, 0.0, t_crit);
        let baseline_step_ms = baseline.step_ms;
        let strong: Vec<StrongRow> = inputs
            .gpus
            .iter()
            .map(|&n| StrongRow {
                best_layout: BestLayout::at(inputs, n, inputs.global_batch_tokens, true),
                ..strong_row(inputs, n, baseline_step_ms, t_crit)
            })
            .collect();
        let weak: Vec<WeakRow> = inputs
            .gpus
            .iter()
            .map(|&n| WeakRow {
                best_layout: BestLayout::at(inputs, n, inputs.weak_batch(n), false),
                ..weak_row(inputs, n, baseline_step_ms)
            })
            .collect();
        // With lay=best, the peak of the best layouts' throughput (rows where one fits).
        let throughput = |r: &StrongRow| match (&inputs.search, &r.best_layout) {
            (Some(_), Some(b)) => b.layout().map_or(0.0, |l| l.tokens_per_s),
            _ => r.throughput_tokens_per_s,
        };
        let peak_throughput_gpus = strong
            .iter()
            .max_by(|a, b| throughput(a).total_cmp(&throughput(b)))
            .map_or(inputs.baseline_gpus, |r| r.gpus);
        let best_layout_n_max = BestKnee::of(inputs, &strong, t_crit);
        let first = inputs.gpus.first().copied().unwrap_or(inputs.baseline_gpus);
        let last = inputs.gpus.last().copied().unwrap_or(inputs.baseline_gpus);
        let lo = first.min(inputs.baseline_gpus);
        // Show the knee when the rows stop short of it by at most 8× — unless the step time is
        // a fit of measured points: then `N_max` is FSDP's knee at the default bandwidth, which
        // says nothing of the run that was fitted, and the charts stay on the data (docs/learn
        // review D-23). A knee farther out is not drawn, so the axis stays on the rows.
        let knee_range = match inputs.exposed {
            ExposedSource::Fitted { .. } => 0.0,
            _ if n_max > last * 8.0 => 0.0,
            _ => n_max * 1.25,
        };
        let hi = last.max(inputs.baseline_gpus).max(knee_range).max(lo * 2.0);
        let mut strong_curves = SweepCurves::default();
        let mut weak_curves = SweepCurves::default();
        for n in log_space(lo, hi, CURVE_SAMPLES) {
            let s = strong_row(inputs, n, baseline_step_ms, t_crit);
            strong_curves.compute_ms.push((n, s.compute_ms));
            strong_curves.step_ms.push((n, s.step_ms));
            strong_curves.ideal_ms.push((n, s.ideal_ms));
            strong_curves.efficiency.push((n, s.efficiency));
            strong_curves
                .throughput
                .push((n, s.throughput_tokens_per_s));
            strong_curves
                .global_batch
                .push((n, inputs.global_batch_tokens));
            strong_curves.mfu.push((n, s.mfu));
            if let Some(w) = s.walls {
                strong_curves.memory.push((n, w.memory));
            }
            let w = weak_row(inputs, n, baseline_step_ms);
            weak_curves.compute_ms.push((n, w.compute_ms));
            weak_curves.step_ms.push((n, w.step_ms));
            weak_curves.ideal_ms.push((n, baseline_step_ms));
            weak_curves.efficiency.push((n, w.efficiency));
            weak_curves.throughput.push((n, w.throughput_tokens_per_s));
            weak_curves.global_batch.push((n, w.global_batch_tokens));
            weak_curves.mfu.push((n, w.mfu));
            if let Some(p) = w.walls {
                weak_curves.memory.push((n, p.memory));
            }
        }
        LlmSweep {
            summary: LlmSummary {
                t_crit_tokens: t_crit,
                n_max,
                microbatch_tokens: inputs.microbatch_tokens,
                peak_throughput_gpus,
                best_layout_n_max,
                baseline_gpus: inputs.baseline_gpus,
                model_parallel: inputs.layout.model_parallel(),
                global_batch_tokens: inputs.global_batch_tokens,
                total_params: inputs.total_params,
                token_budget: inputs.token_budget,
                hbm_bytes: inputs.walls.map(|w| w.memory.hbm_bytes),
                usable_bytes: inputs.walls.map(|w| w.memory.usable_bytes()),
                flops_per_token: inputs.flops_per_token(),
                mfu_convention: inputs.mfu_convention(),
                shape_params: inputs.walls.map(|w| w.shape.total_params()),
                seq_len: inputs.walls.map(|w| w.shape.seq_len),
                shape_params_mismatch: inputs.walls.map(|w| {
                    super::shape::params_mismatch(w.shape.total_params(), inputs.total_params)
                }),
            },
            strong,
            weak,
            fitted_exposed: inputs.fitted_exposed(),
            fit: inputs.fit.clone(),
            strong_curves,
            weak_curves,
            gpu_range: (lo, hi),
        }
    }
}
