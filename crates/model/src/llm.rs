//! Strong and weak scaling sweeps of LLM training (MODEL.md §2–3, §6; the seed's tables).
//!
//! Strong scaling fixes the global batch `B` and adds GPUs, so tokens per rank `T` fall;
//! weak scaling fixes `T` and adds data-parallel replicas, so `B` grows. Both use the same step
//! time `t_step = t_compute + t_exposed` from [`super::step`].

use super::fit::StepFit;
use super::memory::Memory;
use super::step::{
    bubble_fraction, compute_ms_from_flops, n_max_gpus, t_crit_tokens, ExposedTable, FsdpComm,
    Layout,
};
use super::walls::{Traffic, WallPoint, Walls};
use serde::Serialize;

/// Samples per dense chart curve.
pub const CURVE_SAMPLES: usize = 96;

/// Where compute time comes from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ComputeSource {
    /// `6 · P_a · B / (N · F_eff)` from the model size and achieved FLOP/s.
    Flops,
    /// A measured compute time at the baseline `N₀` and batch `B₀`, scaled as `(B/B₀)·(N₀/N)`.
    AtBaseline { compute_ms: f64 },
}

/// The FLOPs an MFU counts per token (PaLM's convention when the shape is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MfuConvention {
    /// `6·P_a`: the weights only (no shape, so no attention to count).
    WeightsOnly,
    /// `6·P_a + 12·L·h·s`: the weights and attention's score and value products, as PaLM
    /// (Appendix B), Megatron-LM and NeMo, torchtitan and llm-foundry report MFU.
    WithAttention,
}

/// Where exposed time comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExposedSource {
    /// Exposed ms tabulated at some `N` (the seed's table), interpolated in `log N`.
    Table(ExposedTable),
    /// Measured step times at some `N` for batch `B₀`; exposed = step − compute there, then
    /// interpolated like a table. The fitted exposed values are reported.
    StepTimes(ExposedTable),
    /// The mechanistic FSDP / ZeRO-3 model ([`FsdpComm`]).
    Fsdp,
    /// A constant `K` ms fitted with the compute part from measured step times
    /// ([`super::fit`]): what does not shrink with `N`; with `per_doubling_of: Some(M)` (a
    /// fitted weak sweep) `K·log₂(N/M)`, growing per doubling of data-parallel replicas.
    Fitted {
        constant_ms: f64,
        per_doubling_of: Option<f64>,
    },
}

/// Every input of the LLM sweeps, validated by the scenario layer (`scaling_core::scenario`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmInputs {
    /// `B₀`: global batch in tokens (fixed in the strong sweep; the baseline in the weak one).
    pub global_batch_tokens: f64,
    /// The layout; its `A` is the accumulation at every GPU count unless the microbatch is
    /// held fixed ([`LlmInputs::layout_at`]).
    pub layout: Layout,
    /// `m`: tokens per replica per microbatch, held fixed as `N` grows (`mbs · sq`, Megatron's
    /// micro-batch size); `A` then follows from `B` and `D` ([`Layout::with_microbatch`]).
    /// `None`: `A` is fixed and the microbatch shrinks (the seed's model).
    pub microbatch_tokens: Option<f64>,
    /// `P`: total parameters (what FSDP moves).
    pub total_params: f64,
    /// The parameters a GPU's memory holds a share of, when they differ from what FSDP moves
    /// (the expert-parallel lever moves `P_a` but every expert is still held somewhere,
    /// [`super::levers::Lever::ExpertParallel`]); `None`: [`Self::total_params`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held_params: Option<f64>,
    /// `P_a`: active parameters per token (what compute costs; `< P` for MoE).
    pub active_params: f64,
    /// `F_eff`: achieved FLOP/s per GPU (at the baseline `N₀` when kernels shrink).
    pub flops_per_gpu: f64,
    /// The GPU's peak FLOP/s: MFU = model FLOPs / (step time · `N` · peak).
    pub peak_flops_per_gpu: f64,
    pub comm: FsdpComm,
    pub compute: ComputeSource,
    pub exposed: ExposedSource,
    /// `N₀`: the baseline GPU count efficiencies are relative to.
    pub baseline_gpus: f64,
    /// GPU counts of the table rows (increasing; all multiples of `M`).
    pub gpus: Vec<f64>,
    /// Token budget for the optimizer-step count of the weak sweep.
    pub token_budget: f64,
    /// Multiplies tabulated or fitted exposed times (1 as measured). Levers set it to their
    /// effect on communication time (`T_crit` after / before), treating the whole measured
    /// exposed time as communication — an upper bound on what a lever can save.
    pub exposed_scale: f64,
    /// The fit of measured step times when compute and exposed time come from it
    /// (`em=fit`); reported with the sweep.
    pub fit: Option<StepFit>,
    /// Memory, shrinking kernels and model-parallel traffic, when the scenario gives the
    /// model's shape ([`Walls`]); `None` is the article's model.
    pub walls: Option<Walls>,
    /// With `lay=best`, the layouts searched at every table row ([`super::layouts`]); `None`
    /// keeps the scenario's own layout only.
    pub search: Option<super::layouts::SearchSpace>,
}

impl LlmInputs {
    /// The layout at `gpus` GPUs and global batch `batch`: [`Self::layout`], with `A` from the
    /// fixed microbatch when there is one.
    pub fn layout_at(&self, gpus: f64, batch: f64) -> Layout {
        match self.microbatch_tokens {
            Some(m) => self.layout.with_microbatch(batch, gpus, m),
            None => self.layout,
        }
    }

    /// `T = B/(D·A)` at `gpus` and `batch`, with the `A` of [`Self::layout_at`].
    pub fn tokens_per_rank(&self, gpus: f64, batch: f64) -> f64 {
        self.layout_at(gpus, batch).tokens_per_rank(batch, gpus)
    }

    /// The weak sweep's global batch at `gpus`: the baseline's tokens per replica and
    /// accumulation steps on every replica, `B(N) = T₀ · D(N) · A₀`.
    pub fn weak_batch(&self, gpus: f64) -> f64 {
        let base = self.layout_at(self.baseline_gpus, self.global_batch_tokens);
        base.global_batch(
            base.tokens_per_rank(self.global_batch_tokens, self.baseline_gpus),
            gpus,
        )
    }

    /// The smallest global batch at `gpus`: one token per replica per microbatch, `D · A`
    /// (`D` with a fixed microbatch, whose `A` falls to 1 first).
    pub fn min_batch(&self, gpus: f64) -> f64 {
        match self.microbatch_tokens {
            Some(_) => self.layout.data_parallel(gpus),
            None => self.layout.global_batch(1.0, gpus),
        }
    }

    /// The strong-scaling knee `N_max` ([`n_max_gpus`]) for this `T_crit`.
    pub fn n_max(&self, t_crit: f64) -> f64 {
        n_max_gpus(
            &self.layout,
            self.global_batch_tokens,
            t_crit,
            self.microbatch_tokens,
        )
    }

    /// Compute ms per step at `gpus` GPUs for global batch `batch` tokens. When kernels
    /// shrink ([`Walls::kernels`]), `F_eff` is the rate at the baseline and the compute time
    /// is divided by `η(N, B)/η(N₀, B₀)` ([`super::kernel`]).
    pub fn compute_ms(&self, gpus: f64, batch: f64) -> f64 {
        self.constant_rate_compute_ms(gpus, batch) / self.kernel_ratio(gpus, batch)
    }

    /// `η(N, B)/η(N₀, B₀)`: the GEMM rate at `gpus` and `batch` relative to the baseline's
    /// (1 when kernels do not shrink).
    pub fn kernel_ratio(&self, gpus: f64, batch: f64) -> f64 {
        match &self.walls {
            Some(w) if w.kernels.is_some() => {
                let at = |n: f64, b: f64| {
                    w.gemm_efficiency(&self.layout_at(n, b), self.tokens_per_rank(n, b))
                };
                at(gpus, batch) / at(self.baseline_gpus, self.global_batch_tokens)
            }
            _ => 1.0,
        }
    }

    /// `F_tok`: training FLOPs per token, `6·P_a` for the weights plus, with a shape,
    /// attention's `12·L·h·s` ([`super::shape::Shape::attention_flops_per_token`]). What
    /// compute time ([`compute_ms_from_flops`]), `T_crit` and MFU count.
    pub fn flops_per_token(&self) -> f64 {
        6.0 * self.active_params
            + self
                .walls
                .map_or(0.0, |w| w.shape.attention_flops_per_token())
    }

    /// Which FLOPs MFU counts: attention's too when the shape gives them.
    pub fn mfu_convention(&self) -> MfuConvention {
        if self.walls.is_some() {
            MfuConvention::WithAttention
        } else {
            MfuConvention::WeightsOnly
        }
    }

    /// MFU `= F_tok · B / (N · t_step · peak)`: the model's FLOPs per step over what the GPUs
    /// could have done in the step (Chowdhery et al. 2022, "PaLM", Appendix B), with
    /// `F_tok` of [`Self::flops_per_token`] ([`Self::mfu_convention`] names which).
    pub fn mfu(&self, gpus: f64, batch: f64, step_ms: f64) -> f64 {
        self.flops_per_token() * batch / (gpus * step_ms / 1e3 * self.peak_flops_per_gpu)
    }

    fn constant_rate_compute_ms(&self, gpus: f64, batch: f64) -> f64 {
        match self.compute {
            ComputeSource::Flops => {
                compute_ms_from_flops(self.flops_per_token(), batch, gpus, self.flops_per_gpu)
            }
            ComputeSource::AtBaseline { compute_ms } => {
                compute_ms * (batch / self.global_batch_tokens) * (self.baseline_gpus / gpus)
            }
        }
    }

    /// Step time at `gpus` GPUs for global batch `batch`: compute plus exposed.
    pub fn step_ms(&self, gpus: f64, batch: f64) -> f64 {
        let compute = self.compute_ms(gpus, batch);
        compute + self.exposed_ms(gpus, batch, compute).0
    }

    /// The model-parallel traffic exposed at `gpus` and `batch` (FSDP mode with a shape;
    /// measured or tabulated exposed times already contain it).
    pub fn traffic(&self, gpus: f64, batch: f64, compute_ms: f64) -> Option<Traffic> {
        match (&self.walls, &self.exposed) {
            (Some(w), ExposedSource::Fsdp) => Some(w.traffic(
                &self.layout_at(gpus, batch),
                self.comm.bus_bytes_per_s,
                self.tokens_per_rank(gpus, batch),
                compute_ms,
                self.comm.virtual_stages(),
            )),
            _ => None,
        }
    }

    /// Memory, fit and tokens per expert at `gpus` and `batch` (with a shape).
    pub fn wall_point(&self, gpus: f64, batch: f64) -> Option<WallPoint> {
        self.walls.as_ref().map(|w| {
            w.at(
                &self.layout_at(gpus, batch),
                &self.comm,
                self.held_params(),
                gpus,
                self.tokens_per_rank(gpus, batch),
            )
        })
    }

    /// The parameters memory holds ([`Self::held_params`] or `P`).
    pub fn held_params(&self) -> f64 {
        self.held_params.unwrap_or(self.total_params)
    }

    /// `T_crit` from the communication inputs ([`t_crit_tokens`]).
    pub fn t_crit_tokens(&self) -> f64 {
        t_crit_tokens(
            self.comm.bytes_per_param(),
            self.flops_per_gpu,
            self.comm.bus_bytes_per_s,
            self.total_params,
            self.flops_per_token(),
            self.layout.cp as f64,
        )
    }

    /// The exposed-time table implied by measured step times: `exposed = step − compute(N, B₀)`,
    /// floored at 0. `None` unless the source is [`ExposedSource::StepTimes`].
    pub fn fitted_exposed(&self) -> Option<Vec<(f64, f64)>> {
        match &self.exposed {
            ExposedSource::StepTimes(steps) => Some(
                steps
                    .points()
                    .iter()
                    .map(|&(n, step)| {
                        (
                            n,
                            (step - self.compute_ms(n, self.global_batch_tokens)).max(0.0),
                        )
                    })
                    .collect(),
            ),
            _ => None,
        }
    }

    /// Exposed ms at `gpus` and global batch `batch` with `compute_ms` of compute per step,
    /// and whether the value was extrapolated beyond a table.
    ///
    /// FSDP (mechanistic): per microbatch each GPU moves `b_w · P / (TP·PP)` bytes (the
    /// weights of its shard — with a shape, [`Walls::params_per_gpu`], whose experts are
    /// split by EP too; CP does not split weights; `b_w = (c − 1)·s_g + s_w`,
    /// [`FsdpComm::bytes_per_param`]) at `B_eff`,
    /// times the ring factor `(D − 1)/D`; it hides behind that microbatch's compute
    /// (`compute/A`), so `exposed_comm = A · max(0, t_comm − compute/A)`. Add the fixed part
    /// (optimizer, first gather / last reduce-scatter) and the pipeline bubble
    /// (`bubble_fraction · compute`, with the `A` microbatches in flight). With a shape and
    /// ZeRO stage 0–2 the data-parallel traffic is once per step instead
    /// ([`Walls::data_parallel_ms`]). Latency (alpha)
    /// terms are ignored for FSDP's large messages. With a shape, the model-parallel traffic
    /// of [`LlmInputs::traffic`] is added.
    pub fn exposed_ms(&self, gpus: f64, batch: f64, compute_ms: f64) -> (f64, bool) {
        match &self.exposed {
            ExposedSource::Table(t) => {
                let v = t.at(gpus);
                (v.value * self.exposed_scale, v.extrapolated)
            }
            ExposedSource::StepTimes(_) => {
                let fitted = self.fitted_exposed().unwrap_or_default();
                match ExposedTable::new(fitted) {
                    Ok(t) => {
                        let v = t.at(gpus);
                        (v.value * self.exposed_scale, v.extrapolated)
                    }
                    Err(_) => (0.0, true),
                }
            }
            ExposedSource::Fitted {
                constant_ms,
                per_doubling_of,
            } => {
                let g = super::fit::growth(*per_doubling_of, gpus);
                (constant_ms * g * self.exposed_scale, false)
            }
            ExposedSource::Fsdp => {
                let layout = self.layout_at(gpus, batch);
                let exposed_comm = self.data_parallel_exposed_ms(&layout, gpus, compute_ms);
                let bubble = bubble_fraction(
                    self.comm.schedule,
                    layout.pp,
                    layout.accumulation,
                    self.comm.chunks,
                ) * compute_ms;
                let traffic = self
                    .traffic(gpus, batch, compute_ms)
                    .map_or(0.0, |t| t.total_ms());
                (exposed_comm + self.comm.fixed_ms + bubble + traffic, false)
            }
        }
    }

    /// The data-parallel communication of the mechanistic exposed time ([`Self::exposed_ms`])
    /// at `layout` on `gpus` GPUs with `compute_ms` of compute per step: FSDP's gathers per
    /// microbatch, `A · max(0, t_comm − compute/A)` with `t_comm = b_w · Ψ / B_eff · (D − 1)/D`,
    /// or with a shape and ZeRO 0–2 the once-per-step traffic of [`Walls::data_parallel_ms`].
    /// Never below 0, and never larger for more compute (what [`super::layouts`]' bound needs).
    pub fn data_parallel_exposed_ms(&self, layout: &Layout, gpus: f64, compute_ms: f64) -> f64 {
        let shards = layout.weight_shards();
        let d = layout.data_parallel(gpus);
        let a = layout.accumulation as f64;
        let ring = if d > 1.0 { (d - 1.0) / d } else { 0.0 };
        // With a shape, the GPU's own shard: EP divides the experts' share too.
        let params = self.walls.map_or(self.total_params / shards, |w| {
            w.params_per_gpu(layout, self.total_params)
        });
        let bytes = self.comm.bytes_per_param() * params;
        let comm_ms = bytes / self.comm.bus_bytes_per_s * ring * 1e3;
        let fsdp = || a * (comm_ms - compute_ms / a).max(0.0);
        self.walls
            .and_then(|w| {
                w.data_parallel_ms(layout, &self.comm, self.total_params, gpus, compute_ms)
            })
            .unwrap_or_else(fsdp)
    }
}

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
    /// ([`n_max_gpus`]).
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
        // Show the knee even when the rows stop short of it (but not 1000× beyond them) —
        // unless the step time is a fit of measured points: then `N_max` is FSDP's knee at the
        // default bandwidth, which says nothing of the run that was fitted, and the charts
        // stay on the data (docs/learn review D-23).
        let knee_range = match inputs.exposed {
            ExposedSource::Fitted { .. } => 0.0,
            _ => n_max.min(last * 8.0) * 1.25,
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
