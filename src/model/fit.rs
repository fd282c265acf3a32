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
    /// `K`, ms: the part that does not shrink.
    pub constant_ms: f64,
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
}

impl StepFit {
    /// `t(N) = W/N + K`, ms.
    pub fn step_ms(&self, gpus: f64) -> f64 {
        self.work_ms_gpus / gpus + self.constant_ms
    }

    /// Amdahl's serial fraction at `N₀`: `f = K / t(N₀)`.
    pub fn serial_fraction(&self, baseline_gpus: f64) -> f64 {
        self.constant_ms / self.step_ms(baseline_gpus)
    }

    /// The achieved FLOP/s per GPU the shrinking part implies, if it is all compute of
    /// `6·P_a` FLOPs per token for `batch_tokens` tokens: `W/N` ms = `6·P_a·B/(N·F)` s, so
    /// `F = 6·P_a·B·1000 / W`.
    pub fn flops_per_gpu(&self, active_params: f64, batch_tokens: f64) -> f64 {
        6.0 * active_params * batch_tokens * 1e3 / self.work_ms_gpus
    }
}

/// Weighted least squares of `t = W·x + K` with `x = 1/N` and weights `1/t²`; `None` when the
/// points do not determine a line (fewer than two distinct `N`).
fn solve(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let (mut s, mut sx, mut sy, mut sxx, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for &(n, t) in points {
        let (x, w) = (1.0 / n, 1.0 / (t * t));
        s += w;
        sx += w * x;
        sy += w * t;
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
    let used = |n: f64| fit_on.is_empty() || fit_on.contains(&n);
    let points: Vec<(f64, f64)> = all.iter().copied().filter(|&(n, _)| used(n)).collect();
    if points.len() < 2 {
        return Err(FitError::TooFewPoints {
            count: points.len(),
        });
    }
    if let Some(w) = points.windows(2).find(|w| w[1].1 >= w[0].1) {
        return Err(FitError::NotFalling { gpus: w[1].0 });
    }
    let (work, constant) = solve(&points).ok_or(FitError::TooFewPoints {
        count: points.len(),
    })?;
    if work <= 0.0 {
        return Err(FitError::NegativeWork);
    }
    // Points exactly on W/N give K = 0 up to rounding (−8e-14 ms for 100, 50 at 1, 2 GPUs):
    // only a K below a billionth of the shortest step is "falling faster than 1/N".
    let rounding = 1e-9 * points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    if constant < -rounding {
        return Err(FitError::NegativeConstant {
            constant_ms: constant,
        });
    }
    let constant = constant.max(0.0);
    let (n1, t1) = all[0];
    let fitted: Vec<FitPoint> = all
        .iter()
        .enumerate()
        .map(|(i, &(n, t))| {
            let fitted_ms = work / n + constant;
            let in_fit = used(n);
            let leave_one_out_error = (in_fit && points.len() >= 3)
                .then(|| {
                    let rest: Vec<(f64, f64)> =
                        points.iter().copied().filter(|p| p.0 != n).collect();
                    solve(&rest).map(|(w, k)| (w / n + k) / t - 1.0)
                })
                .flatten();
            FitPoint {
                gpus: n,
                measured_ms: t,
                fitted_ms,
                in_fit,
                error: fitted_ms / t - 1.0,
                leave_one_out_error,
                karp_flatt: (i > 0).then(|| karp_flatt(t1 / t, n / n1)).flatten(),
            }
        })
        .collect();
    let held_out = fitted.iter().any(|p| !p.in_fit);
    let mut errors: Vec<f64> = fitted
        .iter()
        .filter(|p| !held_out || !p.in_fit)
        .map(|p| p.error.abs())
        .collect();
    errors.sort_by(f64::total_cmp);
    let median_error = if errors.len() % 2 == 1 {
        errors[errors.len() / 2]
    } else {
        (errors[errors.len() / 2 - 1] + errors[errors.len() / 2]) / 2.0
    };
    Ok(StepFit {
        work_ms_gpus: work,
        constant_ms: constant,
        max_error: errors.last().copied().unwrap_or(0.0),
        median_error,
        points: fitted,
    })
}

#[cfg(test)]
mod tests {
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
        assert!((fit.flops_per_gpu(1e9, 1.6e6) - 1e14).abs() < 1.0);
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
