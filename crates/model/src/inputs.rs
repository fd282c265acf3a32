//! The inputs of the LLM sweeps and of the layout search: what the scenario layer lowers a
//! scenario to (`scaling_core::scenario`'s `lower`), read by [`super::llm`]'s sweeps and
//! [`super::layouts`]' search. Both read these types and neither defines them for the other,
//! so the sweep may call the search without the search depending on the sweep.

use super::fit::StepFit;
use super::step::{
    bubble_fraction, compute_ms_from_flops, n_max_gpus, t_crit_tokens, ExposedTable, FsdpComm,
    Layout, PassShares, PipelineSchedule,
};
use super::walls::{Traffic, WallPoint, Walls};
use serde::Serialize;

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
    pub search: Option<SearchSpace>,
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
                    w.rate_efficiency(&self.layout_at(n, b), self.tokens_per_rank(n, b))
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

    /// The optimizer's step at `gpus` and `batch` ([`Walls::optimizer_step_ms`]; FSDP mode
    /// with a shape and a machine, 0 otherwise: measured or tabulated exposed times hold it).
    pub fn optimizer_ms(&self, gpus: f64, batch: f64) -> f64 {
        match (&self.walls, &self.exposed) {
            (Some(w), ExposedSource::Fsdp) => {
                w.optimizer_step_ms(&self.layout_at(gpus, batch), self.held_params(), gpus)
            }
            _ => 0.0,
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
    /// (`fix`), the optimizer's step ([`Self::optimizer_ms`]) and the pipeline bubble
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
                    self.walls
                        .map_or(0.0, |w| w.shape.layers_per_stage(layout.pp)),
                    self.pass_shares(self.comm.schedule, &layout, gpus, batch),
                ) * compute_ms;
                let traffic = self
                    .traffic(gpus, batch, compute_ms)
                    .map_or(0.0, |t| t.total_ms());
                let optimizer = self.optimizer_ms(gpus, batch);
                (
                    exposed_comm + self.comm.fixed_ms + bubble + traffic + optimizer,
                    false,
                )
            }
        }
    }

    /// The passes' shares of a microbatch's compute that `schedule`'s bubble weighs: the
    /// zero-bubble schedule's from the shape ([`Walls::pass_shares`]), equal thirds without
    /// one or for the other schedules (whose bubble does not depend on them).
    pub fn pass_shares(
        &self,
        schedule: PipelineSchedule,
        layout: &Layout,
        gpus: f64,
        batch: f64,
    ) -> PassShares {
        match (schedule, &self.walls) {
            (PipelineSchedule::ZeroBubble, Some(w)) => {
                w.pass_shares(layout, layout.tokens_per_rank(batch, gpus))
            }
            _ => PassShares::EQUAL,
        }
    }

    /// The data-parallel communication of the mechanistic exposed time ([`Self::exposed_ms`])
    /// at `layout` on `gpus` GPUs with `compute_ms` of compute per step: FSDP's gathers per
    /// microbatch, `A · max(0, t_comm − compute/A)` with `t_comm = b_w · Ψ / B_eff · (D − 1)/D`
    /// (with a shape, at NVLink when the group fits in the domain,
    /// [`Walls::data_parallel_bytes_per_s`]), or with a shape and ZeRO 0–2 the once-per-step
    /// traffic of [`Walls::data_parallel_ms`].
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
        let link = self.walls.map_or(self.comm.bus_bytes_per_s, |w| {
            w.data_parallel_bytes_per_s(layout, gpus, self.comm.bus_bytes_per_s)
        });
        let comm_ms = bytes / link * ring * 1e3;
        let fsdp = || a * (comm_ms - compute_ms / a).max(0.0);
        self.walls
            .and_then(|w| {
                w.data_parallel_ms(layout, &self.comm, self.total_params, gpus, compute_ms)
            })
            .unwrap_or_else(fsdp)
    }
}

/// What the search may choose from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchSpace {
    /// GPUs per NVLink domain: TP goes up to twice it (past it, TP talks at `B_eff`).
    pub nvlink_domain_gpus: u32,
    /// The largest CP degree tried.
    pub max_cp: u32,
    /// Microbatch sizes tried, in sequences.
    pub microbatch_sequences: Vec<u32>,
    /// Virtual chunks tried with the interleaved schedule.
    pub interleaved_chunks: Vec<u32>,
    pub zero_stages: Vec<u8>,
    /// Whether the zero-bubble schedule is tried. Off by default: no published run of
    /// docs/model/14-layout-search.md uses it, and the model charges only its bubble
    /// (`max(0, (p − A)·F + (p − 1)·B)/A`, [`bubble_fraction`]) and its memory, not its split
    /// backward's smaller kernels
    /// or the optimizer's post-validation.
    pub zero_bubble: bool,
    /// Whether full recomputation of part of each stage's layers is tried (a quarter, half
    /// and three quarters of them, Megatron-LM's `--recompute-num-layers`) besides all of them.
    pub partial_recompute: bool,
    /// Whether offloading a quarter, half and three quarters of the layers' activations to
    /// host memory is tried (without a pipeline or recomputation, where Megatron-Core allows
    /// it; a machine's host link known). Off unless the scenario offloads (`ofl > 0`): with
    /// it on everywhere, the search ranks FSDP without a pipeline over hundreds of ranks
    /// first for Llama 3.1 405B on H100 and GB200 (TP 4 · DP 512 on 2,048 H100s), a layout
    /// no published run uses, on the strength of an FSDP model that charges nothing for the
    /// ring's length (docs/model/12-walls.md §12.5); the published runs' top band falls from
    /// 45 of 83 to 37.
    pub offload: bool,
    /// The sweeps whose table rows are searched: a panel shows one of them, and the search is
    /// most of an update's time (`make bench`), so the Strong panel does not search the weak
    /// rows, nor the Weak panel the strong ones.
    pub rows: SearchedRows,
}

/// Which sweeps' table rows [`SearchSpace`] is searched at (`lay=best`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SearchedRows {
    #[default]
    Both,
    Strong,
    Weak,
}

impl SearchedRows {
    /// Whether the strong (`true`) or weak (`false`) sweep's rows are searched.
    pub fn includes(self, strong: bool) -> bool {
        match self {
            SearchedRows::Both => true,
            SearchedRows::Strong => strong,
            SearchedRows::Weak => !strong,
        }
    }
}

impl Default for SearchSpace {
    /// Megatron-Core's usual choices: microbatches of 1–8 sequences, interleaving with 2 to 12
    /// chunks (the DGX Cloud recipes use 5 and 12), ZeRO 1 (the distributed optimizer), 2 and
    /// 3 (FSDP), CP up to 16.
    fn default() -> Self {
        SearchSpace {
            nvlink_domain_gpus: 8,
            max_cp: 16,
            microbatch_sequences: vec![1, 2, 4, 8],
            interleaved_chunks: vec![2, 3, 4, 5, 6, 8, 12],
            zero_stages: vec![1, 2, 3],
            zero_bubble: false,
            partial_recompute: true,
            offload: false,
            rows: SearchedRows::Both,
        }
    }
}
