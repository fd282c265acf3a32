//! The strong and weak panels' line charts, described as [`LineChart`]s from an [`LlmSweep`].
//! The walls' charts (memory, MFU) are in `chart::walls`, the marks they share in
//! `chart::marks`, the seed's "boxes" figure in [`super::boxes`].

use super::colors::{COMPUTE, EXPOSED, GOOD, IDEAL, KNEE, MEASURED, ROWS};
use super::line::{y_extent, Callout, LineChart, Series, SeriesKind};
use super::marks::{
    best_rings, best_rows, count_label, empty_chart, mark_knee, percent_label, table_rows,
    tokens_per_s_label,
};
use super::walls::{memory_chart, mfu_chart};
use crate::i18n::tr;
use crate::model::llm::{LlmSweep, SweepCurves};
use crate::text::units::{format_count, format_si};

/// Which chart of the LLM panels (the panel layer names them: `crate::panel::ChartId`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlmChart {
    StrongStep,
    StrongEfficiency,
    StrongThroughput,
    WeakStep,
    WeakEfficiency,
    WeakThroughput,
    WeakSteps,
    /// Memory per GPU against `N`, stacked by part, with the GPU's memory as a line.
    StrongMemory,
    WeakMemory,
    /// MFU against `N`.
    StrongMfu,
}

/// The chart description for `which`.
pub fn describe(sweep: &LlmSweep, which: LlmChart) -> LineChart {
    match which {
        LlmChart::StrongStep => step_chart(sweep, true),
        LlmChart::WeakStep => step_chart(sweep, false),
        LlmChart::StrongEfficiency => efficiency_chart(sweep, true),
        LlmChart::WeakEfficiency => efficiency_chart(sweep, false),
        LlmChart::StrongThroughput => throughput_chart(sweep, true),
        LlmChart::WeakThroughput => throughput_chart(sweep, false),
        LlmChart::WeakSteps => weak_steps_chart(sweep),
        LlmChart::StrongMemory => memory_chart(sweep, true),
        LlmChart::WeakMemory => memory_chart(sweep, false),
        LlmChart::StrongMfu => mfu_chart(sweep),
    }
}

/// Step time split into exposed time and compute, stacked, against the ideal, with the
/// table rows and any measured step times a fit was made from.
fn step_chart(sweep: &LlmSweep, strong: bool) -> LineChart {
    let curves = if strong {
        &sweep.strong_curves
    } else {
        &sweep.weak_curves
    };
    let mut chart = empty_chart(sweep);
    chart.title = if strong {
        tr(
            "Strong scaling: step time at fixed B_global",
            "强扩展：固定 B_global 时的单步时间",
        )
        .to_string()
    } else {
        tr(
            "Weak scaling: step time at fixed tokens per replica",
            "弱扩展：固定每副本 tokens 时的单步时间",
        )
        .to_string()
    };
    chart.y_desc = tr("Step time (ms)", "单步时间（ms）").to_string();
    chart.series = vec![
        Series {
            label: tr(
                "exposed (comm + bubble + fixed)",
                "暴露（通信 + 气泡 + 固定）",
            )
            .to_string(),
            color: EXPOSED,
            kind: SeriesKind::Area,
            points: curves.step_ms.clone(),
        },
        Series {
            label: tr("compute", "计算").to_string(),
            color: COMPUTE,
            kind: SeriesKind::Area,
            points: curves.compute_ms.clone(),
        },
        Series {
            label: if strong {
                tr("ideal t(N₀)·N₀/N", "理想 t(N₀)·N₀/N").to_string()
            } else {
                tr("ideal: constant", "理想：不变").to_string()
            },
            color: IDEAL,
            kind: SeriesKind::Dashed,
            points: curves.ideal_ms.clone(),
        },
        table_rows(sweep, strong, |r| r.step_ms, |r| r.step_ms),
    ];
    chart.series.extend(best_rows(sweep, strong, |l| l.step_ms));
    // With lay=best, each row's fastest layout ringed at its point.
    chart.callouts.extend(best_rings(sweep, strong));
    // The measured step times a fit was made from, over the model's curve: a weak sweep
    // (per-point batches at one number of tokens per GPU) on the weak chart, others on
    // the strong one.
    let fit = sweep
        .fit
        .as_ref()
        .filter(|f| f.per_doubling_of.is_some() != strong);
    if let Some(fit) = fit {
        chart.series.push(Series {
            label: tr("measured (st)", "实测（st）").to_string(),
            color: MEASURED,
            kind: SeriesKind::Points,
            points: fit.points.iter().map(|p| (p.gpus, p.measured_ms)).collect(),
        });
    }
    chart.y_range = y_extent(&chart.series[..1], false, 1.0);
    if let Some(fit) = fit {
        let top = fit.points.iter().map(|p| p.measured_ms).fold(0.0, f64::max);
        chart.y_range.1 = chart.y_range.1.max(top * 1.05);
    }
    if strong {
        mark_knee(&mut chart, sweep);
    }
    chart
}

/// Parallel efficiency against GPUs, from 0 to a little over 100%.
fn efficiency_chart(sweep: &LlmSweep, strong: bool) -> LineChart {
    let mut chart = empty_chart(sweep);
    chart.title = if strong {
        tr(
            "Strong-scaling efficiency = ideal / step",
            "强扩展效率 = 理想 / 实际",
        )
        .to_string()
    } else {
        tr(
            "Weak-scaling efficiency = t(N₀) / t(N)",
            "弱扩展效率 = t(N₀) / t(N)",
        )
        .to_string()
    };
    chart.y_desc = tr("Efficiency", "效率").to_string();
    chart.y_format = percent_label;
    let curve = if strong {
        &sweep.strong_curves.efficiency
    } else {
        &sweep.weak_curves.efficiency
    };
    chart.series = vec![
        Series {
            label: tr("efficiency", "效率").to_string(),
            color: if strong { COMPUTE } else { GOOD },
            kind: SeriesKind::Solid,
            points: curve.clone(),
        },
        table_rows(sweep, strong, |r| r.efficiency, |r| r.efficiency),
    ];
    chart.y_range = (0.0, 1.08);
    if strong {
        mark_knee(&mut chart, sweep);
    }
    chart
}

/// Tokens per second against GPUs and the linear growth perfect scaling would give; on the
/// strong chart, the peak is called out.
fn throughput_chart(sweep: &LlmSweep, strong: bool) -> LineChart {
    let curves = if strong {
        &sweep.strong_curves
    } else {
        &sweep.weak_curves
    };
    let mut chart = empty_chart(sweep);
    chart.title = if strong {
        tr(
            "Strong scaling: throughput B_global / step",
            "强扩展：吞吐 B_global / t_step",
        )
        .to_string()
    } else {
        tr("Weak scaling: throughput", "弱扩展：吞吐").to_string()
    };
    chart.y_desc = tr("Tokens per second", "每秒 tokens").to_string();
    chart.y_format = tokens_per_s_label;
    chart.series = vec![
        Series {
            label: tr("throughput", "吞吐").to_string(),
            color: if strong { COMPUTE } else { GOOD },
            kind: SeriesKind::Solid,
            points: curves.throughput.clone(),
        },
        table_rows(
            sweep,
            strong,
            |r| r.throughput_tokens_per_s,
            |r| r.throughput_tokens_per_s,
        ),
    ];
    chart
        .series
        .extend(best_rows(sweep, strong, |l| l.tokens_per_s));
    // The range covers the model's throughput, not the ideal line, which would flatten it.
    chart.y_range = y_extent(&chart.series, false, 1.0);
    chart.series.insert(
        1,
        Series {
            label: tr("linear from N₀", "从 N₀ 起线性").to_string(),
            color: IDEAL,
            kind: SeriesKind::Dashed,
            points: linear_throughput(curves, sweep.summary.baseline_gpus),
        },
    );
    chart.legend_upper_left = true;
    if strong {
        chart.callouts.extend(peak_callout(sweep));
        mark_knee(&mut chart, sweep);
    }
    chart
}

/// Linear throughput from the baseline: what perfect scaling would give.
fn linear_throughput(curves: &SweepCurves, baseline_gpus: f64) -> Vec<(f64, f64)> {
    let base = curves
        .throughput
        .iter()
        .zip(&curves.step_ms)
        .find(|((n, _), _)| *n >= baseline_gpus)
        .map_or(0.0, |((n, t), _)| t / n);
    curves
        .throughput
        .iter()
        .map(|&(n, _)| (n, base * n))
        .collect()
}

/// The strong sweep's throughput peak, labelled with its rate and GPU count.
fn peak_callout(sweep: &LlmSweep) -> Option<Callout> {
    let peak = sweep
        .strong
        .iter()
        .find(|r| r.gpus == sweep.summary.peak_throughput_gpus)?;
    Some(Callout {
        at: (peak.gpus, peak.throughput_tokens_per_s),
        label: trf!(
            "peak {} tok/s at {}",
            "峰值 {} tok/s，{} 卡",
            format_si(peak.throughput_tokens_per_s, 3),
            format_count(peak.gpus)
        ),
        color: KNEE,
        ends_at_point: true,
    })
}

/// Weak scaling's growing global batch and the optimizer steps a fixed token budget then
/// allows, on a log axis.
fn weak_steps_chart(sweep: &LlmSweep) -> LineChart {
    let mut chart = empty_chart(sweep);
    chart.title = tr(
        "Weak scaling: global batch and optimizer steps for the budget",
        "弱扩展：global batch 与预算内的 optimizer step 数",
    )
    .to_string();
    chart.y_desc = tr("Tokens / steps (log scale)", "tokens / 步数（对数坐标）").to_string();
    chart.y_format = count_label;
    chart.y_log = true;
    let global_batch = &sweep.weak_curves.global_batch;
    chart.series = vec![
        Series {
            label: tr("global batch B (tokens)", "global batch B（tokens）").to_string(),
            color: EXPOSED,
            kind: SeriesKind::Solid,
            points: global_batch.clone(),
        },
        Series {
            label: tr(
                "optimizer steps for the budget",
                "预算内的 optimizer step 数",
            )
            .to_string(),
            color: COMPUTE,
            kind: SeriesKind::Solid,
            points: global_batch
                .iter()
                .map(|&(n, b)| (n, sweep.summary.token_budget / b))
                .collect(),
        },
        Series {
            label: tr("table rows (steps)", "表格行（步数）").to_string(),
            color: ROWS,
            kind: SeriesKind::Points,
            points: sweep
                .weak
                .iter()
                .map(|r| (r.gpus, r.optimizer_steps))
                .collect(),
        },
    ];
    chart.y_range = y_extent(&chart.series, true, 1.0);
    chart
}
