//! The charts' curves and axis ranges (LLM, Plan, Laws sweeps), pinned by hand. The LLM charts:
//! the x axis runs from the smallest row (or `N₀`) to the largest of the last row, `N₀`,
//! `1.25·N_max` when `N_max ≤ 8·last` (so the knee shows; a knee farther out is not drawn and
//! the axis stays on the rows) and `2·first`;
//! the curves sample it at 96 points evenly spaced in `ln N`.

use crate::common::tol;
use scaling_core::scenario::decode;
use scaling_model::llm::{LlmSweep, CURVE_SAMPLES};

fn sweep(query: &str) -> LlmSweep {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{query}: {:?}", d.errors);
    LlmSweep::compute(&d.scenario.llm_inputs())
}

/// N_max = 32M / 3,700 = 8,648.648…
const SEED_N_MAX: f64 = 32e6 / 3700.0;

#[test]
fn the_axis_shows_the_knee_but_not_far_beyond_the_rows() {
    // Rows up to 16,384: the last row is the end (1.25 · 8,648.6 = 10,810.8 is less).
    assert_eq!(sweep("v=1&preset=seed-strong").gpu_range, (1024.0, 16384.0));
    // Rows up to 2,048: the knee is within 8× the last row, so the axis ends at 1.25 · N_max.
    let (lo, hi) = sweep("v=1&preset=seed-strong&ns=1024,2048").gpu_range;
    assert_eq!(lo, 1024.0);
    assert!((hi - 1.25 * SEED_N_MAX).abs() < tol::PRINTED, "{hi}");
    // One row at 1,024: 8 · 1,024 = 8,192 < N_max, so the knee is not drawn and the axis
    // stays on the rows: 2 · first = 2,048.
    assert_eq!(
        sweep("v=1&preset=seed-strong&ns=1024").gpu_range,
        (1024.0, 2048.0)
    );
    // A knee far below the rows: 2 · first when nothing else reaches it. With b = 1,024 tokens
    // N_max = 1,024/3,700 ≈ 0.28, the one row is 1 GPU (N₀ = 1): the axis is 1 → 2.
    let (lo, hi) = sweep("v=1&b=1024&n0=1&ns=1&tc=900ms&ex=1:100,2:150").gpu_range;
    assert_eq!((lo, hi), (1.0, 2.0));
}

#[test]
fn curves_sample_the_axis_evenly_in_log_n() {
    let s = sweep("v=1&preset=seed-strong");
    let (lo, hi) = s.gpu_range;
    let c = &s.strong_curves.compute_ms;
    assert_eq!(c.len(), CURVE_SAMPLES);
    assert_eq!(CURVE_SAMPLES, 96);
    assert_eq!(c[0].0, lo);
    assert_eq!(c[95].0, hi);
    // Sample i is lo · (hi/lo)^(i/95): 1,024 · 16^(1/95) at i = 1, 1,024 · 16^(47/95) at 47.
    for i in [1usize, 47, 94] {
        let want = 1024.0 * 16f64.powf(i as f64 / 95.0);
        assert!(
            (c[i].0 - want).abs() < tol::CHAIN * want,
            "sample {i}: {}",
            c[i].0
        );
        // The seed's compute is 900 ms at 1,024 GPUs, ∝ 1/N: 900 · 1,024 / N.
        assert!(
            (c[i].1 - 900.0 * 1024.0 / want).abs() < tol::CHAIN,
            "sample {i}"
        );
    }
    // Weak curves share the axis; their global batch grows ∝ N: 32M · N / 1,024.
    let w = &s.weak_curves.global_batch;
    assert!((w[47].1 - 32e6 * w[47].0 / 1024.0).abs() < tol::PRINTED);
}

/// A row is "below T_crit" only strictly below: b = 3,700 · 1,024 puts T exactly at T_crit =
/// 3,700 at 1,024 GPUs (not below) and at 1,850 at 2,048 (below).
#[test]
fn below_t_crit_is_strict() {
    let s = sweep("v=1&preset=seed-strong&b=3788800&ns=1024,2048&n0=1024");
    assert_eq!(s.strong[0].tokens_per_replica, 3700.0);
    assert!(!s.strong[0].below_t_crit);
    assert!(s.strong[1].below_t_crit);
}

// ---- the Plan charts -----------------------------------------------------------------------

use scaling_model::plan::{PlanSweep, Strategy, CURVE_SAMPLES as PLAN_SAMPLES};

fn plan(query: &str) -> PlanSweep {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{query}: {:?}", d.errors);
    PlanSweep::compute(&d.scenario.plan_inputs())
}

/// The Plan axis runs from the first row (or N₀) to the largest of 4 × the last row,
/// 2 × min(switch, 64 × last) and 2 × first; 72 samples evenly spaced in ln N.
#[test]
fn the_plan_axis_and_samples() {
    assert_eq!(PLAN_SAMPLES, 72);
    // seed-weak: rows 1,024 and 4,096; the cap (B_crit = 32M) is reached at 32M / 31,250 =
    // 1,024 GPUs: hi = max(16,384, 2,048, 2,048) = 16,384.
    let p = plan("v=1&preset=seed-weak");
    assert_eq!(p.gpu_range, (1024.0, 16384.0));
    assert!((p.switch_gpus - 1024.0).abs() < tol::CHAIN);
    let (_, weak) = p.curves.iter().find(|(s, _)| *s == Strategy::Weak).unwrap();
    assert_eq!(weak.len(), 72);
    assert_eq!(weak[0].0, 1024.0);
    for i in [1usize, 35, 71] {
        let want = 1024.0 * 16f64.powf(i as f64 / 71.0);
        assert!(
            (weak[i].0 - want).abs() < tol::CHAIN * want,
            "sample {i}: {}",
            weak[i].0
        );
    }
    // A cap of 512M is reached at 512M / 31,250 = 16,384 GPUs: hi = 2 × 16,384 = 32,768.
    let p = plan("v=1&preset=seed-weak&bcap=512M");
    assert!(
        (p.gpu_range.1 - 32_768.0).abs() < tol::PRINTED,
        "{:?}",
        p.gpu_range
    );
}

/// The fastest weak-then-strong GPU count is the weak-then-strong curve's minimum (README: about
/// 8.1k GPUs for seed-weak), not another strategy's.
#[test]
fn the_fastest_point_is_on_the_weak_then_strong_curve() {
    let p = plan("v=1&preset=seed-weak");
    let (_, wts) = p
        .curves
        .iter()
        .find(|(s, _)| *s == Strategy::WeakThenStrong)
        .unwrap();
    let fastest = wts
        .iter()
        .min_by(|a, b| a.1.hours_to_quality.total_cmp(&b.1.hours_to_quality))
        .unwrap()
        .0;
    assert_eq!(p.best_gpus_weak_then_strong, fastest);
    assert!((7_500.0..9_000.0).contains(&fastest), "{fastest}");
}

// ---- the Laws charts -----------------------------------------------------------------------

use scaling_model::sweep::{table_processors, LawsSweep};

/// Laws curves sample 1 … N_max at 96 points evenly spaced in ln N: N_i = 4,096^(i/95); Amdahl
/// at f = 5% is 1/(0.05 + 0.95/N).
#[test]
fn laws_curves_sample_one_to_n_max() {
    let s = LawsSweep::compute(&decode("v=1&f=0.05").scenario.laws_inputs());
    let pts = &s.curves.amdahl.points;
    assert_eq!(pts.len(), 96);
    assert_eq!(pts[0].0, 1.0);
    assert_eq!(pts[95].0, 4096.0);
    for i in [1usize, 48, 94] {
        let n = 4096f64.powf(i as f64 / 95.0);
        assert!((pts[i].0 - n).abs() < tol::CHAIN * n, "sample {i}");
        assert!(
            (pts[i].1 - 1.0 / (0.05 + 0.95 / n)).abs() < tol::CHAIN,
            "sample {i}"
        );
    }
    assert_eq!(table_processors(8.0), vec![1.0, 2.0, 4.0, 8.0]);
    assert_eq!(table_processors(6.0), vec![1.0, 2.0, 4.0, 6.0]);
}
