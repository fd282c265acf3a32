//! Measured step times in the strong and weak panels' text: what the fit `t(N) = W/N + K`
//! (`em=fit`) found, its table, the Laws panel at its serial fraction, and the measured times
//! that lie below the model's compute time (`em=step`).

use super::table::{Cell, Columns, Table};
use crate::i18n::tr;
use crate::model::fit::{FitPoint, StepFit};
use crate::model::llm::LlmSweep;
use crate::model::llm::WeakRow;
use crate::text::units::{format_count, format_ms, format_percent, format_si, format_speedup};

/// What the fit of measured step times (`em=fit`) found, for the strong panel's key figures:
/// the two parts of `t(N) = W/N + K`, the `F_eff` and MFU that `W` implies, Amdahl's serial
/// fraction `K/t(N₀)` and how well the fit matches its points.
pub fn fit_figures(sweep: &LlmSweep, peak_flops_per_gpu: f64) -> Vec<(String, String)> {
    let Some(fit) = &sweep.fit else {
        return Vec::new();
    };
    let n0 = sweep.summary.baseline_gpus;
    let flops = fit.flops_per_gpu(
        sweep.summary.flops_per_token,
        sweep.summary.global_batch_tokens,
    );
    let f = fit.serial_fraction(n0);
    let weak = weak_fit_figures(sweep, fit);
    let mut out = vec![
        (
            trf!(
                "Fitted to st: t(N) = W/N + K, at N₀ = {}",
                "由 st 拟合：t(N) = W/N + K，N₀ = {} 时",
                format_count(n0)
            ),
            trf!(
                "W/N₀ = {} ms + K = {} ms",
                "W/N₀ = {} ms + K = {} ms",
                format_ms(fit.work_ms_gpus / n0),
                format_ms(fit.constant_ms)
            ),
        ),
        (
            tr(
                "F_eff implied by W (the FLOPs per step MFU counts)",
                "W 对应的 F_eff（每步 FLOPs 按 MFU 的口径）",
            )
            .to_string(),
            trf!(
                "{}FLOP/s per GPU = MFU {} of {}FLOP/s peak",
                "每卡 {0}FLOP/s，即峰值 {2}FLOP/s 的 {1}",
                format_si(flops, 3),
                format_percent(flops / peak_flops_per_gpu, 1),
                format_si(peak_flops_per_gpu, 3)
            ),
        ),
        (
            tr(
                "Serial fraction f = K / t(N₀) (Amdahl)",
                "串行比例 f = K / t(N₀)（Amdahl）",
            )
            .to_string(),
            trf!(
                "{}: speedup at most {} over N₀ whatever the GPU count",
                "{}：无论加多少卡，相对 N₀ 的加速比至多 {}",
                format_percent(f, 2),
                format_speedup(1.0 / f.max(1e-12))
            ),
        ),
        (
            if fit.points.iter().any(|p| !p.in_fit) {
                tr(
                    "Prediction error at the GPU counts the fit did not use (max / median)",
                    "拟合未使用的卡数上的预测误差（最大 / 中位）",
                )
            } else {
                tr(
                    "Fit error over the measured points (max / median)",
                    "拟合在实测点上的误差（最大 / 中位）",
                )
            }
            .to_string(),
            format!(
                "{} / {}",
                format_percent(fit.max_error, 1),
                format_percent(fit.median_error, 1)
            ),
        ),
    ];
    if let Some([model, exposed]) = weak {
        // A weak sweep: the fitted form and the exposed share replace W/N + K and Amdahl's f.
        out[0] = model;
        out[2] = exposed;
    }
    out
}

/// A weak sweep's fit figures (`st` with `@B`): the fitted form `W·(B/B₀)/N + κ·log₂(N/M)` and
/// the exposed share of the step from the first to the last row; they replace `W/N + K` and
/// Amdahl's `f` of a strong sweep's fit.
pub(super) fn weak_fit_figures(sweep: &LlmSweep, fit: &StepFit) -> Option<[(String, String); 2]> {
    let n0 = sweep.summary.baseline_gpus;
    let (m, first) = fit.per_doubling_of.zip(sweep.weak.first())?;
    let last = sweep.weak.last().unwrap_or(first);
    let part = |r: &WeakRow| {
        format!(
            "{} ms ({})",
            format_ms(r.exposed_ms),
            format_percent(r.exposed_ms / r.step_ms, 1)
        )
    };
    Some([
        (
            trf!(
                "Fitted to st: t = W·(B/B₀)/N + κ·log₂(N/{}), at N₀ = {}",
                "由 st 拟合：t = W·(B/B₀)/N + κ·log₂(N/{})，N₀ = {} 时",
                format_count(m),
                format_count(n0)
            ),
            trf!(
                "W/N₀ = {} ms, κ = {} ms per doubling of replicas",
                "W/N₀ = {} ms，副本数每翻倍 κ = {} ms",
                format_ms(fit.work_ms_gpus / n0),
                format_ms(fit.constant_ms)
            ),
        ),
        (
            tr(
                "Exposed part of the step (first → last row)",
                "单步时间中的暴露部分（首行 → 末行）",
            )
            .to_string(),
            format!("{} → {}", part(first), part(last)),
        ),
    ])
}

/// The fit's table: each measured point, the fitted value, its error, the error when the point
/// is left out of the fit (a true prediction), and Karp–Flatt `e(N)` against the first point.
pub fn fit_table(sweep: &LlmSweep, id: &'static str) -> Option<Table> {
    let fit = sweep.fit.as_ref()?;
    let signed = |e: f64| super::table::signed_percent(e, 2);
    let columns = Columns::<FitPoint>::new()
        .column(("GPUs", "GPU 数"), |p| Cell::num(p.gpus, format_count))
        .words(("in the fit", "用于拟合"), |p| {
            Cell::words(if p.in_fit { "✓" } else { "" })
        })
        .column(("measured (ms)", "实测 (ms)"), |p| {
            Cell::num(p.measured_ms, format_ms)
        })
        .column(("fitted (ms)", "拟合 (ms)"), |p| {
            Cell::num(p.fitted_ms, format_ms)
        })
        .column(("error", "误差"), |p| Cell::num(p.error, signed))
        .column(("left out of the fit", "留一预测误差"), |p| {
            p.leave_one_out_error
                .map_or_else(|| Cell::words("–"), |e| Cell::num(e, signed))
        })
        .column(("Karp–Flatt e(N)", "Karp–Flatt e(N)"), |p| {
            p.karp_flatt.map_or_else(
                || Cell::words("–"),
                |e| Cell::num(e, |v| format_percent(v, 2)),
            )
        });
    let caption = match fit.per_doubling_of {
        Some(m) => trf!(
            "Measured step times (st) and the fit t = {} ms·GPU · (B/B₀) / N + {} ms · log₂(N/{})",
            "实测单步时间（st）与拟合 t = {} ms·GPU · (B/B₀) / N + {} ms · log₂(N/{})",
            format_si(fit.work_ms_gpus, 4),
            format_ms(fit.constant_ms),
            format_count(m)
        ),
        None => trf!(
            "Measured step times (st) and the fit t(N) = {} ms·GPU / N + {} ms",
            "实测单步时间（st）与拟合 t(N) = {} ms·GPU / N + {} ms",
            format_si(fit.work_ms_gpus, 4),
            format_ms(fit.constant_ms)
        ),
    };
    Some(Table::from_columns(id, caption, &columns, &fit.points))
}

/// The Laws panel at the fit's serial fraction: `f = K/t(N₀)` read as Amdahl's law.
pub fn fit_laws_query(sweep: &LlmSweep) -> Option<String> {
    let fit = sweep.fit.as_ref()?;
    let f = fit.serial_fraction(sweep.summary.baseline_gpus);
    Some(format!(
        "v=1&view=laws&f={}",
        crate::text::units::canonical(crate::text::units::round_sig(f, 3))
    ))
}

/// With `em=step`, the measured step times that lie below the model's compute time: their
/// exposed time is shown as 0 (a negative exposed time has no meaning).
pub fn step_below_compute_note(sweep: &LlmSweep) -> Option<String> {
    let below = sweep.fitted_exposed.as_ref()?;
    let clamped: Vec<String> = below
        .iter()
        .filter(|(_, ms)| *ms == 0.0)
        .map(|(n, _)| format_count(*n))
        .collect();
    (!clamped.is_empty()).then(|| {
        trf!(
            "At {} GPUs the measured step time is not above the compute time, so the exposed time there is taken as 0 ms: lower tc or feff, or use em=fit to fit both parts.",
            "在 {} 卡时实测单步时间不高于计算时间，因此该处暴露时间按 0 ms 计：请调低 tc 或 feff，或用 em=fit 同时拟合两部分。",
            clamped.join(crate::text::list_sep())
        )
    })
}
