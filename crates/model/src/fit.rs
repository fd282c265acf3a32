//! Calibrate, then predict: measured step times of one model at a fixed global batch, fitted to
//!
//! `t(N) = W / N + K`
//!
//! `W/N` is the work that shrinks with the GPU count (compute, and whatever communication hides
//! behind it); `K` is what does not shrink (exposed communication, pipeline bubbles, the
//! optimizer) — Amdahl's serial term, with serial fraction `f = K / t(N₀)`. Published
//! strong-scaling sweeps follow this form closely: Megatron-Core's 177B sweep from 96 to 4,608
//! H100s (NVIDIA/Megatron-LM README, `shared/data/published-runs.md` §1), fitted on its first
//! and last points, predicts the six points between within 1–4%.
//!
//! The fit minimises the squared **relative** error, `Σ ((W/Nᵢ + K − tᵢ) / tᵢ)²` (weighted least
//! squares with weights `1/tᵢ²`), because the step times of a sweep span two orders of
//! magnitude and an absolute fit would ignore the large-`N` points where `K` matters. With two
//! points the fit passes through both.
//!
//! **Per-point batches (a weak sweep).** A point may carry its own global batch `B` (relative
//! to the baseline `B₀`); the shrinking part is then `W·(B/B₀)/N` (compute scales with the
//! tokens per GPU, MODEL.md §3). When every fitted point has the same tokens per GPU `B/N` — a
//! weak sweep — `W·(B/B₀)/N` is the same number at every point and a constant `K` cannot be
//! told apart from it, so the fit reads the exposed part as growing per doubling of
//! data-parallel replicas `D = N/M` (`M = TP·PP·CP`):
//!
//! `t(N, B) = W·(B/B₀)/N + κ·log₂(N/M)`
//!
//! Source of the form: the data-parallel gradient all-reduce is the communication a weak sweep
//! adds (MODEL.md §2–3: the batch grows with `D`, nothing else changes); NCCL's tree all-reduce
//! has a latency term `∝ log₂ D` (S. Jeaugey, "Massively Scale Your Deep Learning Training with
//! NCCL 2.4", NVIDIA blog 2019: double binary trees give logarithmic latency), and the exposed
//! time of this project's tables grows per doubling of `N` (docs/model/03-step-time.md §3.2(a)).
//! One replica (`D = 1`) exposes no data-parallel communication, so the growing part starts at 0
//! there; whatever else does not shrink (bubble, optimizer) stays inside `W`. Two points determine
//! `W` and `κ`; a falling weak sweep (`κ < 0`) is refused.

use super::laws::karp_flatt;
use serde::Serialize;

/// One measured point and how the fit reads it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FitPoint {
    pub gpus: f64,
    pub measured_ms: f64,
    /// `W/N + K` at this point.
    pub fitted_ms: f64,
    /// Whether the fit used this point; the others are predictions held against measurement.
    pub in_fit: bool,
    /// `fitted / measured − 1`.
    pub error: f64,
    /// The same error with this point left out of the fit (three points or more): a
    /// prediction, not a fit.
    pub leave_one_out_error: Option<f64>,
    /// Karp–Flatt `e` of this point against the first (`p = N/N₁`, `S = t₁/t`); `None` for the
    /// first point. Constant `e` is Amdahl's serial fraction (Karp & Flatt 1990).
    pub karp_flatt: Option<f64>,
}

/// The fitted step-time model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepFit {
    /// `W`, ms·GPUs: the step's shrinking part is `W/N` ms at `N` GPUs.
    pub work_ms_gpus: f64,
    /// `K`, ms: the part that does not shrink; with [`StepFit::per_doubling_of`] it is `κ`,
    /// ms per doubling of the data-parallel replicas.
    pub constant_ms: f64,
    /// `Some(M)` when the fitted points are a weak sweep (the same tokens per GPU): the exposed
    /// part is `κ·log₂(N/M)`, `M` GPUs per replica.
    pub per_doubling_of: Option<f64>,
    pub points: Vec<FitPoint>,
    /// The largest and the median absolute error over the points the fit did not use (the
    /// predictions), or over all points when it used all of them.
    pub max_error: f64,
    pub median_error: f64,
}

/// Why measured step times cannot be fitted.
#[derive(Debug, Clone, PartialEq)]
pub enum FitError {
    /// Fewer than two points.
    TooFewPoints { count: usize },
    /// The step time does not fall from one GPU count to the next (at `gpus`).
    NotFalling { gpus: f64 },
    /// The fitted shrinking part `W` is not positive.
    NegativeWork,
    /// The fitted constant `K` is negative (the points fall faster than `1/N`).
    NegativeConstant { constant_ms: f64 },
    /// A weak sweep (the same tokens per GPU at every fitted point) whose step time falls as
    /// GPUs are added: `κ < 0`.
    WeakStepFalls { per_doubling_ms: f64 },
}

impl StepFit {
    /// The part that does not shrink at `N` GPUs, ms: `K`, or `κ·log₂(N/M)` for a weak sweep.
    pub fn exposed_ms(&self, gpus: f64) -> f64 {
        self.constant_ms * growth(self.per_doubling_of, gpus)
    }

    /// `t(N) = W/N + K` (or `+ κ·log₂(N/M)`) at the baseline batch, ms.
    pub fn step_ms(&self, gpus: f64) -> f64 {
        self.work_ms_gpus / gpus + self.exposed_ms(gpus)
    }

    /// Amdahl's serial fraction at `N₀`: `f = K / t(N₀)` (the exposed part's share).
    pub fn serial_fraction(&self, baseline_gpus: f64) -> f64 {
        self.exposed_ms(baseline_gpus) / self.step_ms(baseline_gpus)
    }

    /// The achieved FLOP/s per GPU the shrinking part implies, if it is all compute of
    /// `F_tok` FLOPs per token (`6·P_a`, plus attention's with a shape:
    /// [`super::llm::LlmInputs::flops_per_token`]) for `batch_tokens` tokens:
    /// `W/N` ms = `F_tok·B/(N·F)` s, so `F = F_tok·B·1000 / W`.
    pub fn flops_per_gpu(&self, flops_per_token: f64, batch_tokens: f64) -> f64 {
        flops_per_token * batch_tokens * 1e3 / self.work_ms_gpus
    }
}

/// What multiplies the fitted `K`: 1, or `log₂(N/M)` (floored at 0) for a weak sweep.
pub fn growth(per_doubling_of: Option<f64>, gpus: f64) -> f64 {
    per_doubling_of.map_or(1.0, |m| (gpus / m).log2().max(0.0))
}

/// Weighted least squares of `t = W·x + K·g` with `x = (B/B₀)/N`, `g` from [`growth`] and
/// weights `1/t²`; `None` when the points do not determine both parts.
fn solve(points: &[(f64, f64, f64)], per_doubling_of: Option<f64>) -> Option<(f64, f64)> {
    let (mut s, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(n, b, t) in points {
        let (x, w, g) = (b / n, 1.0 / (t * t), growth(per_doubling_of, n));
        s += w * g * g;
        sx += w * x * g;
        sy += w * t * g;
        sxx += w * x * x;
        sxy += w * x * t;
    }
    let det = s * sxx - sx * sx;
    if det.is_nan() || det <= 0.0 || det.is_infinite() {
        return None;
    }
    let work = (s * sxy - sx * sy) / det;
    let constant = (sxx * sy - sx * sxy) / det;
    (work.is_finite() && constant.is_finite()).then_some((work, constant))
}

/// Fits `t(N) = W/N + K` to the `(N, step ms)` points with increasing `N` whose `N` is in
/// `fit_on` (all of them when `fit_on` is empty); every point is then held against the fit.
pub fn fit_step_times(all: &[(f64, f64)], fit_on: &[f64]) -> Result<StepFit, FitError> {
    let all: Vec<(f64, f64, f64)> = all.iter().map(|&(n, t)| (n, 1.0, t)).collect();
    fit_sweep(&all, fit_on, 1.0)
}

/// [`fit_step_times`] for `(N, B/B₀, step ms)` points, each at its own global batch `B`
/// (relative to the baseline `B₀`), with `M = replica_gpus` GPUs per replica: `t = W·(B/B₀)/N +
/// K`, or `t = W·(B/B₀)/N + κ·log₂(N/M)` when every fitted point has the same tokens per GPU
/// (a weak sweep; see the module's doc).
pub fn fit_sweep(
    all: &[(f64, f64, f64)],
    fit_on: &[f64],
    replica_gpus: f64,
) -> Result<StepFit, FitError> {
    let used = |n: f64| fit_on.is_empty() || fit_on.contains(&n);
    let points: Vec<(f64, f64, f64)> = all.iter().copied().filter(|p| used(p.0)).collect();
    if points.len() < 2 {
        return Err(FitError::TooFewPoints {
            count: points.len(),
        });
    }
    let same = |f: &dyn Fn(&(f64, f64, f64)) -> f64, set: &[(f64, f64, f64)]| {
        set.iter().all(|p| (f(p) / f(&set[0]) - 1.0).abs() < 1e-9)
    };
    let weak = same(&|p| p.1 / p.0, &points);
    let per_doubling_of = weak.then_some(replica_gpus);
    // One batch: the step time must fall with N (a strong sweep).
    if !weak && same(&|p| p.1, &points) {
        if let Some(w) = points.windows(2).find(|w| w[1].2 >= w[0].2) {
            return Err(FitError::NotFalling { gpus: w[1].0 });
        }
    }
    let (work, constant) = solve(&points, per_doubling_of).ok_or(FitError::TooFewPoints {
        count: points.len(),
    })?;
    if work <= 0.0 {
        return Err(FitError::NegativeWork);
    }
    // Points exactly on W/N give K = 0 up to rounding (−8e-14 ms for 100, 50 at 1, 2 GPUs):
    // only a K below a billionth of the shortest step is "falling faster than 1/N".
    let rounding = 1e-9 * points.iter().map(|p| p.2).fold(f64::INFINITY, f64::min);
    if constant < -rounding {
        return Err(if weak {
            FitError::WeakStepFalls {
                per_doubling_ms: constant,
            }
        } else {
            FitError::NegativeConstant {
                constant_ms: constant,
            }
        });
    }
    let constant = constant.max(0.0);
    let (n1, _, t1) = all[0];
    // Karp–Flatt reads `t₁/t` as a speedup: only for points at one batch.
    let one_batch = same(&|p| p.1, all);
    let fitted: Vec<FitPoint> = all
        .iter()
        .enumerate()
        .map(|(i, &(n, b, t))| {
            let at = |w: f64, k: f64| w * b / n + k * growth(per_doubling_of, n);
            let fitted_ms = at(work, constant);
            let in_fit = used(n);
            let leave_one_out_error = (in_fit && points.len() >= 3)
                .then(|| {
                    let rest: Vec<(f64, f64, f64)> =
                        points.iter().copied().filter(|p| p.0 != n).collect();
                    solve(&rest, per_doubling_of).map(|(w, k)| at(w, k) / t - 1.0)
                })
                .flatten();
            FitPoint {
                gpus: n,
                measured_ms: t,
                fitted_ms,
                in_fit,
                error: fitted_ms / t - 1.0,
                leave_one_out_error,
                karp_flatt: (i > 0 && one_batch)
                    .then(|| karp_flatt(t1 / t, n / n1))
                    .flatten(),
            }
        })
        .collect();
    let held_out = fitted.iter().any(|p| !p.in_fit);
    let mut errors: Vec<f64> = fitted
        .iter()
        .filter(|p| !held_out || !p.in_fit)
        .map(|p| p.error.abs())
        .collect();
    let median_error = median(&mut errors);
    Ok(StepFit {
        work_ms_gpus: work,
        constant_ms: constant,
        per_doubling_of,
        max_error: errors.last().copied().unwrap_or(0.0),
        median_error,
        points: fitted,
    })
}

/// The median of `values` (sorted in place): the middle one, or the mean of the two middle
/// ones; 0 for none.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn median_of_odd_even_and_no_values() {
        assert_eq!(super::median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(super::median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(super::median(&mut []), 0.0);
    }

    use super::*;

    /// Synthetic points from known `W = 96,000 ms·GPUs`, `K = 50 ms` are recovered exactly:
    /// t(96) = 1,000 + 50, t(192) = 500 + 50, t(384) = 250 + 50.
    #[test]
    fn recovers_a_known_line() {
        let fit = fit_step_times(&[(96.0, 1050.0), (192.0, 550.0), (384.0, 300.0)], &[]).unwrap();
        assert!((fit.work_ms_gpus - 96_000.0).abs() < 1e-6);
        assert!((fit.constant_ms - 50.0).abs() < 1e-9);
        assert!(fit.max_error < 1e-12);
        // f = K/t(N₀) at N₀ = 96: 50/1,050.
        assert!((fit.serial_fraction(96.0) - 50.0 / 1050.0).abs() < 1e-12);
        // Karp–Flatt of an exact Amdahl sweep is its serial fraction at the first point.
        let e = fit.points[2].karp_flatt.unwrap();
        assert!((e - 50.0 / 1050.0).abs() < 1e-12, "{e}");
        assert!(fit.points[1].leave_one_out_error.unwrap().abs() < 1e-12);
        // 6·P_a·B·1000/W: P_a = 1e9, B = 1.6e6 tokens → 6e9·1.6e6·1e3/96,000 = 1e14 FLOP/s.
        assert!((fit.flops_per_gpu(6e9, 1.6e6) - 1e14).abs() < 1.0);
    }

    /// Three points off any line: the fit minimises the relative error. By hand, with x = 1/N and
    /// weights 1/t² for (1, 110), (2, 50), (4, 30): the weighted normal equations give
    /// W = 99.476439790…, K = 4.188481675… (an unweighted fit would give W = 108.571…, K = 0).
    #[test]
    fn weights_the_fit_by_relative_error() {
        let fit = fit_step_times(&[(1.0, 110.0), (2.0, 50.0), (4.0, 30.0)], &[]).unwrap();
        assert!((fit.work_ms_gpus - 99.476_439_790_575_88).abs() < 1e-9);
        assert!((fit.constant_ms - 4.188_481_675_392_675_5).abs() < 1e-9);
    }

    /// Points exactly on `W/N` (K = 0: no serial part) are a valid fit, not "falls faster than
    /// 1/N"; a point the fit does not use has no leave-one-out error even when three others are
    /// fitted (W = 96,000, K = 50 again; 768 GPUs held out: 125 + 50 = 175 against 180).
    #[test]
    fn a_zero_constant_fits_and_held_out_points_have_no_leave_one_out() {
        let fit = fit_step_times(&[(1.0, 100.0), (2.0, 50.0)], &[]).unwrap();
        assert_eq!(fit.constant_ms, 0.0);
        let fit = fit_step_times(
            &[
                (96.0, 1050.0),
                (192.0, 550.0),
                (384.0, 300.0),
                (768.0, 180.0),
            ],
            &[96.0, 192.0, 384.0],
        )
        .unwrap();
        assert!(fit.points[0].leave_one_out_error.is_some());
        assert_eq!(fit.points[3].leave_one_out_error, None);
        assert!((fit.points[3].error - (175.0 / 180.0 - 1.0)).abs() < 1e-12);
    }

    #[test]
    fn refuses_what_cannot_be_fitted() {
        assert_eq!(
            fit_step_times(&[(8.0, 10.0)], &[]),
            Err(FitError::TooFewPoints { count: 1 })
        );
        assert_eq!(
            fit_step_times(&[(8.0, 10.0), (16.0, 10.0)], &[]),
            Err(FitError::NotFalling { gpus: 16.0 })
        );
        // Falls faster than 1/N: t(8) = 10, t(16) = 4 → W = 96, K = −2.
        assert!(matches!(
            fit_step_times(&[(8.0, 10.0), (16.0, 4.0)], &[]),
            Err(FitError::NegativeConstant { .. })
        ));
        // Fitting on one point of three is too few.
        assert_eq!(
            fit_step_times(&[(8.0, 10.0), (16.0, 6.0), (32.0, 4.0)], &[8.0]),
            Err(FitError::TooFewPoints { count: 1 })
        );
    }

    /// Fitted on two of three points, the third is a prediction and the errors are its own:
    /// W = 96,000, K = 50 from (96, 1,050) and (384, 300); at 192 the line gives 550, the
    /// measurement 540: +1.85%.
    #[test]
    fn held_out_points_are_predictions() {
        let fit = fit_step_times(
            &[(96.0, 1050.0), (192.0, 540.0), (384.0, 300.0)],
            &[96.0, 384.0],
        )
        .unwrap();
        assert!((fit.constant_ms - 50.0).abs() < 1e-9);
        assert!(!fit.points[1].in_fit && fit.points[0].in_fit);
        assert!((fit.points[1].error - (550.0 / 540.0 - 1.0)).abs() < 1e-12);
        assert_eq!(fit.max_error, fit.points[1].error.abs());
        assert_eq!(fit.points[1].leave_one_out_error, None);
    }
}
