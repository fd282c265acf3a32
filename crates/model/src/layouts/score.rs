//! One layout's step, memory and parts: the recomputation's cost and the [`Scorer`].

use super::*;

/// The recomputation's compute relative to none (Korthikanti et al. 2022, §5): full
/// recomputation runs every layer's forward twice, `(6 + 2)/6` of the training FLOPs; `k` of a
/// stage's `L_s` layers (`recompute_layers`, Megatron-LM's `--recompute-num-layers`) rerun
/// `k/L_s` of it, `1 + (k/L_s)/3`; selective recomputation reruns the attention core's forward,
/// `1 + ` [`Walls::selective_recompute_share`] at `layout` and `tokens_per_replica` (its FLOPs,
/// and without flash attention its scores' traffic; with flash attention the backward
/// recomputes the scores anyway, so selective costs nothing more). `L_s = ⌈L/PP⌉`.
pub fn recompute_factor(
    walls: &Walls,
    recompute: Recompute,
    recompute_layers: u32,
    layout: &Layout,
    tokens_per_replica: f64,
    active_params: f64,
) -> f64 {
    match recompute {
        Recompute::None => 1.0,
        Recompute::Selective => {
            1.0 + walls.selective_recompute_share(layout, tokens_per_replica, active_params)
        }
        Recompute::Full => {
            let stage = walls.shape.layers_per_stage(layout.pp);
            let k = if recompute_layers == 0 {
                stage
            } else {
                (recompute_layers as f64).min(stage)
            };
            1.0 + k / stage / 3.0
        }
    }
}

/// Scores layouts of one scenario at one GPU count and batch. Built once per search (one copy
/// of the inputs, the reference rate); [`Scorer::score`] then allocates nothing.
pub struct Scorer<'a> {
    base: &'a LlmInputs,
    pub(super) walls: Walls,
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
    /// `r` of full recomputation of all of a stage's layers (it depends on the shape alone).
    full_recompute: f64,
    /// The last layout's `(tp, pp, cp, ep, etp, microbatch)` and what follows from them alone: the
    /// layout at this `N`, its tokens per microbatch and `η`. ZeRO and recomputation are the
    /// innermost loops of [`enumerate`], so six layouts in a row share them.
    last: Option<Shared>,
}

/// What the layouts of one `(tp, pp, cp, ep, etp, microbatch)` share ([`Scorer::score_below`]).
#[derive(Clone, Copy)]
pub(super) struct Shared {
    key: (u32, u32, u32, u32, u32, u32),
    layout: Layout,
    tokens: f64,
    eta: f64,
    /// The slowest stage against the average ([`crate::shape::Shape::slowest_stage_share`]),
    /// which `eta` divides by.
    stage_share: f64,
    /// `r` of selective recomputation ([`recompute_factor`]), which the layout's `η` and
    /// memory time weigh.
    selective: f64,
    /// The least traffic and data-parallel time of [`Scorer::group_bound_ms`], once asked.
    comm_floor_ms: Option<f64>,
    /// The passes' shares of a microbatch's compute ([`Walls::pass_shares`]), what a
    /// zero-bubble schedule's bubble weighs.
    passes: PassShares,
}

impl<'a> Scorer<'a> {
    pub fn new(base: &'a LlmInputs, gpus: f64, batch: f64) -> Result<Scorer<'a>, SearchError> {
        let mut walls = base.walls.ok_or(SearchError::NoShape)?;
        walls.kernels = Some(walls.kernels.unwrap_or(HalfLengths::H100_BF16));
        let reference_layout = base.layout_at(base.baseline_gpus, base.global_batch_tokens);
        let reference_tokens =
            reference_layout.tokens_per_rank(base.global_batch_tokens, base.baseline_gpus);
        let reference = walls.rate_efficiency(&reference_layout, reference_tokens);
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
                &reference_layout,
                reference_tokens,
                base.active_params,
            ),
            full_recompute: recompute_factor(
                &walls,
                Recompute::Full,
                0,
                &reference_layout,
                reference_tokens,
                base.active_params,
            ),
            last: None,
        })
    }

    /// What `choice`'s `(tp, pp, cp, ep, etp, microbatch)` decides: its layout at this `N`, tokens
    /// per microbatch and `η`. Kept from the last call when the key is the same; the scratch's
    /// layout and microbatch are set with it, so the two always agree.
    fn shared(&mut self, choice: &LayoutChoice) -> Shared {
        let key = (
            choice.tp,
            choice.pp,
            choice.cp,
            choice.ep,
            choice.expert_tp,
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
        walls.expert_tensor_parallel = choice.expert_tp as f64;
        let layout = s.layout_at(n, b);
        let tokens = layout.tokens_per_rank(b, n);
        let shared = Shared {
            key,
            layout,
            tokens,
            eta: walls.rate_efficiency(&layout, tokens),
            stage_share: walls.shape.slowest_stage_share(layout.pp),
            selective: recompute_factor(
                &walls,
                Recompute::Selective,
                0,
                &layout,
                tokens,
                self.base.active_params,
            ),
            comm_floor_ms: None,
            passes: walls.pass_shares(&layout, tokens),
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
    pub(super) fn restore_shared(&mut self, choice: &LayoutChoice, shared: Shared) {
        self.point_scratch_at(choice);
        self.last = Some(shared);
    }

    /// `r` of `recompute` over all of a stage's layers ([`recompute_factor`]) at `shared`'s
    /// layout.
    fn recompute_factor(&self, recompute: Recompute, shared: &Shared) -> f64 {
        match recompute {
            Recompute::None => 1.0,
            Recompute::Selective => shared.selective,
            Recompute::Full => self.full_recompute,
        }
    }

    /// `r` of `choice`'s recomputation, `k` of a stage's layers included.
    fn choice_recompute_factor(&self, choice: &LayoutChoice, shared: &Shared) -> f64 {
        match choice.recompute {
            Recompute::Full if choice.recompute_layers > 0 => recompute_factor(
                &self.walls,
                choice.recompute,
                choice.recompute_layers,
                &shared.layout,
                shared.tokens,
                self.base.active_params,
            ),
            other => self.recompute_factor(other, shared),
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
        let passes = match choice.schedule {
            PipelineSchedule::ZeroBubble => shared.passes,
            _ => PassShares::EQUAL,
        };
        let bubble = bubble_fraction(
            choice.schedule,
            choice.pp,
            shared.layout.accumulation,
            choice.chunks,
            self.walls.shape.layers_per_stage(choice.pp),
            passes,
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
    pub(super) fn group_bound_ms(
        &mut self,
        group: &LayoutChoice,
        space: &SearchSpace,
    ) -> (f64, Shared) {
        let shared = self.shared(group);
        let (least, most) = recomputes(&self.walls)
            .iter()
            .map(|&r| self.recompute_factor(r, &shared))
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
        walls.expert_tensor_parallel = group.expert_tp as f64;
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
        let shared = self.shared(&choice);
        let recompute = self.choice_recompute_factor(&choice, &shared);
        let (shared, ideal, with_kernels, compute, bubble) =
            self.compute_and_bubble(&choice, recompute);
        let (n, b, layout, tokens) = (self.gpus, self.batch, shared.layout, shared.tokens);
        let fixed = self.scratch.comm.fixed_ms;
        // A relative slack, so that rounding in the bound never prunes an exact tie.
        if compute + bubble + fixed > bound_ms * (1.0 + 1e-12) {
            return None;
        }
        let mut walls = self.walls;
        walls.expert_parallel = choice.ep as f64;
        walls.expert_tensor_parallel = choice.expert_tp as f64;
        walls.memory.zero = choice.zero;
        walls.memory.activations.recompute = choice.recompute;
        walls.memory.activations.recompute_layers = choice.recompute_layers;
        walls.memory.activations.offload_layers = choice.offload_layers;
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
        let optimizer = s.optimizer_ms(n, b);
        // `with_kernels = ideal · (η_ref/η)·(share/share_ref)` on GEMM rates: the stages'
        // part is what the candidate's slowest stage adds over the scenario's.
        let stages = with_kernels * (1.0 - self.reference_stage_share / shared.stage_share);
        let parts = StepParts {
            ideal_compute_ms: ideal,
            kernels_ms: with_kernels - stages - ideal,
            stages_ms: stages,
            recompute_ms: compute - with_kernels,
            bubble_ms: bubble,
            data_parallel_ms: (exposed - bubble - traffic.total_ms() - fixed - optimizer).max(0.0),
            traffic,
            fixed_ms: fixed,
            optimizer_ms: optimizer,
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
