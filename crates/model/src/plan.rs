//! The time-to-quality planner (MODEL.md §4; the seed's "大规模训练几乎总是先 weak scale、再被迫
//! strong scale"): for each GPU count, how long the run takes to reach its target loss and how
//! many GPU-hours it burns, under four ways of choosing the global batch:
//!
//! - **weak**: fixed tokens per rank `T₀`, so `B = T₀ · D · A` grows with `N`;
//! - **strong**: fixed `B = B₀`;
//! - **weak then strong**: weak until `B` reaches a cap (near `B_crit`), then strong;
//! - **best batch**: the `B` that minimises time to quality at that `N`.
//!
//! Time to quality `= S(B) · t_step(N, B)` with `S(B)` from [`CriticalBatch`] and `t_step` from
//! the same step-time model as the sweeps ([`LlmInputs::step_ms`]). With `lay=best` the table
//! rows also get weak-then-strong with the fastest layout that fits at each `N` and batch
//! ([`super::layouts::best_layout`]), and the GPU count where it stops paying.

use super::batch::CriticalBatch;
use super::llm::LlmInputs;
use serde::Serialize;

/// Samples per dense plan curve.
pub const CURVE_SAMPLES: usize = 72;
/// Largest batch the best-batch search considers (10^13 tokens: far past any real run).
const MAX_BATCH_TOKENS: f64 = 1e13;

/// How the global batch is chosen at each GPU count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    Weak,
    Strong,
    WeakThenStrong,
    BestBatch,
}

impl Strategy {
    pub const ALL: [Strategy; 4] = [
        Strategy::Weak,
        Strategy::Strong,
        Strategy::WeakThenStrong,
        Strategy::BestBatch,
    ];
}

/// One strategy at one GPU count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PlanPoint {
    pub batch_tokens: f64,
    /// `S(B)`: optimizer steps to the target.
    pub steps: f64,
    pub step_ms: f64,
    /// `S(B) · t_step`, hours.
    pub hours_to_quality: f64,
    /// `N · hours`.
    pub gpu_hours: f64,
    /// `1 / (1 + B/B_crit)`.
    pub token_efficiency: f64,
    /// With a shape: whether the busiest GPU's memory fits at this batch; the recommended
    /// GPU count is never one that does not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fits: Option<bool>,
    /// With a shape: the busiest GPU's memory at this batch, bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<f64>,
}

/// All strategies at one GPU count, plus the weak-scaling headline next to the truth.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanRow {
    pub gpus: f64,
    pub weak: Option<PlanPoint>,
    pub strong: Option<PlanPoint>,
    pub weak_then_strong: Option<PlanPoint>,
    pub best: Option<PlanPoint>,
    /// Weak-scaling efficiency `t_step(N₀)/t_step(N)` — the number usually reported.
    pub vanity_weak_efficiency: f64,
    /// Time-to-quality speedup of weak scaling over the baseline.
    pub weak_ttq_speedup: f64,
    /// That speedup divided by `N/N₀`: the efficiency that matters.
    pub weak_true_efficiency: f64,
    /// With `lay=best`: weak-then-strong with the fastest layout that fits at this row's `N`
    /// and batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weak_then_strong_best: Option<BestLayoutPoint>,
}

/// Weak-then-strong at one row with the search's layout: its answer, and the point with that
/// layout's step (`None` when no layout fits or none divides `N`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BestLayoutPoint {
    pub best_layout: super::llm::BestLayout,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<PlanPoint>,
}

/// Inputs of the planner.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanInputs {
    pub llm: LlmInputs,
    pub critical: CriticalBatch,
    /// Where weak scaling stops growing the batch (tokens).
    pub batch_cap_tokens: f64,
}

/// Everything the Plan panel shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlanSweep {
    pub rows: Vec<PlanRow>,
    /// `N` where weak-then-strong switches: `T₀·D·A = cap`.
    pub switch_gpus: f64,
    /// `N` (dense sweep) with the least time to quality under weak-then-strong: beyond it,
    /// adding GPUs no longer pays. Only counts whose memory fits compete (all of them when
    /// none fits, and the panels then say that no row fits).
    pub best_gpus_weak_then_strong: f64,
    /// With `lay=best`: the table row with the least weak-then-strong time to quality with the
    /// fastest layout at each row (rows only: the search is too slow for the dense curves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_gpus_best_layout: Option<f64>,
    pub critical_batch_tokens: f64,
    pub min_steps: f64,
    pub batch_cap_tokens: f64,
    pub curves: Vec<(Strategy, Vec<(f64, PlanPoint)>)>,
    pub gpu_range: (f64, f64),
}

impl PlanInputs {
    fn point(&self, gpus: f64, batch: f64) -> Option<PlanPoint> {
        // At least one token per DP rank per microbatch.
        let min_batch = self.llm.min_batch(gpus);
        if !(batch >= min_batch && batch.is_finite()) {
            return None;
        }
        let steps = self.critical.steps(batch);
        let step_ms = self.llm.step_ms(gpus, batch);
        let hours = steps * step_ms / 3.6e6;
        let walls = self.llm.wall_point(gpus, batch);
        Some(PlanPoint {
            batch_tokens: batch,
            steps,
            step_ms,
            hours_to_quality: hours,
            gpu_hours: hours * gpus,
            token_efficiency: self.critical.token_efficiency(batch),
            fits: walls.map(|w| w.fits),
            memory_bytes: walls.map(|w| w.memory.total),
        })
    }

    fn weak_batch(&self, gpus: f64) -> f64 {
        self.llm.weak_batch(gpus)
    }

    /// Weak-then-strong at `gpus` with the fastest layout that fits at its batch, when the
    /// inputs search (`lay=best`): `S(B) · t_step` of that layout, which fits by construction.
    pub fn weak_then_strong_best(&self, gpus: f64) -> Option<BestLayoutPoint> {
        let space = self.llm.search.as_ref()?;
        let batch = self.weak_batch(gpus).min(self.batch_cap_tokens);
        let best_layout = match super::layouts::best_layout(&self.llm, space, gpus, batch) {
            Ok(Some(s)) => super::llm::BestLayout::Layout(s),
            Ok(None) => super::llm::BestLayout::NoneFits,
            Err(_) => super::llm::BestLayout::NoLayout,
        };
        let point = best_layout.layout().map(|s| {
            let steps = self.critical.steps(batch);
            let hours = steps * s.step_ms / 3.6e6;
            PlanPoint {
                batch_tokens: batch,
                steps,
                step_ms: s.step_ms,
                hours_to_quality: hours,
                gpu_hours: hours * gpus,
                token_efficiency: self.critical.token_efficiency(batch),
                fits: Some(true),
                memory_bytes: Some(s.memory.total),
            }
        });
        Some(BestLayoutPoint { best_layout, point })
    }

    /// The batch and point of `strategy` at `gpus`; `None` when the strategy's batch gives
    /// less than one token per rank.
    pub fn evaluate(&self, strategy: Strategy, gpus: f64) -> Option<PlanPoint> {
        match strategy {
            Strategy::Weak => self.point(gpus, self.weak_batch(gpus)),
            Strategy::Strong => self.point(gpus, self.llm.global_batch_tokens),
            Strategy::WeakThenStrong => {
                let batch = self.weak_batch(gpus).min(self.batch_cap_tokens);
                self.point(gpus, batch)
            }
            Strategy::BestBatch => self.best_point(gpus),
        }
    }

    /// Minimises time to quality over `B` (log grid, then golden-section refinement in log B).
    fn best_point(&self, gpus: f64) -> Option<PlanPoint> {
        let lo = self.llm.min_batch(gpus).max(1.0);
        if lo >= MAX_BATCH_TOKENS {
            return None;
        }
        let (ln_lo, ln_hi) = (lo.ln(), MAX_BATCH_TOKENS.ln());
        let hours = |ln_b: f64| {
            self.point(gpus, ln_b.exp())
                .map_or(f64::INFINITY, |p| p.hours_to_quality)
        };
        const GRID: usize = 24;
        let step = (ln_hi - ln_lo) / GRID as f64;
        // Each point evaluated once (this runs for every sample of the planner's curves on
        // every input change, so evaluations are the redraw's main model cost).
        let best_i = (0..=GRID)
            .map(|i| (i, hours(ln_lo + i as f64 * step)))
            .fold(
                (0, f64::INFINITY),
                |best, p| if p.1 < best.1 { p } else { best },
            )
            .0;
        let (mut a, mut b) = (
            (ln_lo + (best_i as f64 - 1.0) * step).max(ln_lo),
            (ln_lo + (best_i as f64 + 1.0) * step).min(ln_hi),
        );
        // Golden-section search, reusing the surviving interior point: one evaluation per
        // iteration; 32 iterations shrink the bracket by φ^32 ≈ 2·10⁻⁷.
        let phi = (5f64.sqrt() - 1.0) / 2.0;
        let (mut c, mut d) = (b - phi * (b - a), a + phi * (b - a));
        let (mut hc, mut hd) = (hours(c), hours(d));
        for _ in 0..32 {
            if hc <= hd {
                b = d;
                (d, hd) = (c, hc);
                c = b - phi * (b - a);
                hc = hours(c);
            } else {
                a = c;
                (c, hc) = (d, hd);
                d = a + phi * (b - a);
                hd = hours(d);
            }
        }
        self.point(gpus, ((a + b) / 2.0).exp())
    }
}

impl PlanSweep {
    pub fn compute(inputs: &PlanInputs) -> PlanSweep {
        let llm = &inputs.llm;
        let n0 = llm.baseline_gpus;
        let base_step = llm.step_ms(n0, llm.global_batch_tokens);
        let base_weak = inputs.evaluate(Strategy::Weak, n0);
        let rows: Vec<PlanRow> = llm
            .gpus
            .iter()
            .map(|&n| {
                let weak = inputs.evaluate(Strategy::Weak, n);
                let vanity = weak.map_or(0.0, |w| base_step / w.step_ms);
                let speedup = match (base_weak, weak) {
                    (Some(b), Some(w)) => b.hours_to_quality / w.hours_to_quality,
                    _ => 0.0,
                };
                PlanRow {
                    gpus: n,
                    weak,
                    strong: inputs.evaluate(Strategy::Strong, n),
                    weak_then_strong: inputs.evaluate(Strategy::WeakThenStrong, n),
                    best: inputs.evaluate(Strategy::BestBatch, n),
                    vanity_weak_efficiency: vanity,
                    weak_ttq_speedup: speedup,
                    weak_true_efficiency: speedup / (n / n0),
                    weak_then_strong_best: inputs.weak_then_strong_best(n),
                }
            })
            .collect();
        let first = llm.gpus.first().copied().unwrap_or(n0).min(n0);
        let last = llm.gpus.last().copied().unwrap_or(n0).max(n0);
        // The weak batch B(N) = T₀·D·A₀ reaches the cap at D = cap/(T₀·A₀).
        let switch_gpus = inputs.batch_cap_tokens * llm.layout.model_parallel()
            / llm.weak_batch(llm.layout.model_parallel());
        let hi = (last * 4.0)
            .max(switch_gpus.min(last * 64.0) * 2.0)
            .max(first * 2.0);
        let ln = |x: f64| x.ln();
        let samples: Vec<f64> = (0..CURVE_SAMPLES)
            .map(|i| {
                (ln(first) + (ln(hi) - ln(first)) * i as f64 / (CURVE_SAMPLES - 1) as f64).exp()
            })
            .collect();
        let curves: Vec<(Strategy, Vec<(f64, PlanPoint)>)> = Strategy::ALL
            .iter()
            .map(|&s| {
                (
                    s,
                    samples
                        .iter()
                        .filter_map(|&n| inputs.evaluate(s, n).map(|p| (n, p)))
                        .collect(),
                )
            })
            .collect();
        let best_gpus = curves
            .iter()
            .find(|(s, _)| *s == Strategy::WeakThenStrong)
            .and_then(|(_, pts)| {
                let fitting: Vec<&(f64, PlanPoint)> =
                    pts.iter().filter(|p| p.1.fits != Some(false)).collect();
                let candidates = if fitting.is_empty() {
                    pts.iter().collect()
                } else {
                    fitting
                };
                candidates
                    .into_iter()
                    .min_by(|a, b| a.1.hours_to_quality.total_cmp(&b.1.hours_to_quality))
                    .map(|p| p.0)
            })
            .unwrap_or(n0);
        let best_gpus_best_layout = rows
            .iter()
            .filter_map(|r| Some((r.gpus, r.weak_then_strong_best?.point?)))
            .min_by(|a, b| a.1.hours_to_quality.total_cmp(&b.1.hours_to_quality))
            .map(|(n, _)| n);
        PlanSweep {
            rows,
            switch_gpus,
            best_gpus_weak_then_strong: best_gpus,
            best_gpus_best_layout,
            critical_batch_tokens: inputs.critical.critical_batch_tokens,
            min_steps: inputs.critical.min_steps,
            batch_cap_tokens: inputs.batch_cap_tokens,
            curves,
            gpu_range: (first, hi),
        }
    }
}
