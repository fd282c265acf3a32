//! The Plan panel's charts: time to quality and GPU-hours against GPUs for the four batch
//! strategies, with the weak→strong switch, the knee `N_max` and the fastest point marked.

use super::line::{y_extent, Callout, LineChart, Series, SeriesKind, VMarker};
use super::PALETTE;
use crate::i18n::tr;
use crate::model::plan::{PlanPoint, PlanSweep, Strategy};
use crate::text::units::{format_count, format_si};
use plotters::prelude::*;

/// Which Plan chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanChart {
    TimeToQuality,
    GpuHours,
}

fn style_of(s: Strategy) -> (&'static str, RGBColor, SeriesKind) {
    match s {
        Strategy::Weak => (
            tr("weak (fixed T)", "弱扩展（固定 T）"),
            PALETTE[1],
            SeriesKind::Dashed,
        ),
        Strategy::Strong => (
            tr("strong (fixed B)", "强扩展（固定 B）"),
            PALETTE[0],
            SeriesKind::Dotted,
        ),
        Strategy::WeakThenStrong => (
            tr("weak, then strong at the cap", "先弱扩展，到上限后强扩展"),
            PALETTE[2],
            SeriesKind::Solid,
        ),
        Strategy::BestBatch => (
            tr("best B at each N", "每个 N 的最优 B"),
            PALETTE[6],
            SeriesKind::Thin,
        ),
    }
}

fn hours_label(v: f64) -> String {
    format!("{} h", format_si(v, 2))
}

/// With `lay=best`: weak-then-strong with the fastest layout at each table row, dotted.
fn best_layout_series(plan: &PlanSweep, value: impl Fn(&PlanPoint) -> f64) -> Option<Series> {
    let points: Vec<(f64, f64)> = plan
        .rows
        .iter()
        .filter_map(|r| Some((r.gpus, value(&r.weak_then_strong_best?.point?))))
        .collect();
    (!points.is_empty()).then(|| Series {
        label: tr(
            "weak, then strong, best layout at each row (lay=best)",
            "先弱后强，每行取最佳布局（lay=best）",
        )
        .to_string(),
        color: super::colors::BEST,
        kind: SeriesKind::Dotted,
        points,
    })
}

/// The table rows whose weak-then-strong layout does not fit in GPU memory, marked on its
/// curve: a time to quality there is of a run that cannot start.
fn over_memory_series(plan: &PlanSweep, value: impl Fn(&PlanPoint) -> f64) -> Option<Series> {
    let points: Vec<(f64, f64)> = plan
        .rows
        .iter()
        .filter_map(|r| {
            let p = r.weak_then_strong?;
            (p.fits == Some(false)).then(|| (r.gpus, value(&p)))
        })
        .collect();
    (!points.is_empty()).then(|| Series {
        label: tr(
            "✗ does not fit in GPU memory (weak, then strong)",
            "✗ 单卡显存放不下（先弱后强）",
        )
        .to_string(),
        color: super::colors::MEASURED,
        kind: SeriesKind::Crosses,
        points,
    })
}

/// The chart description.
pub fn describe(plan: &PlanSweep, n_max: f64, which: PlanChart) -> LineChart {
    let value = |p: &PlanPoint| match which {
        PlanChart::TimeToQuality => p.hours_to_quality,
        PlanChart::GpuHours => p.gpu_hours,
    };
    let mut series: Vec<Series> = plan
        .curves
        .iter()
        .map(|(s, pts)| {
            let (label, color, kind) = style_of(*s);
            Series {
                label: label.to_string(),
                color,
                kind,
                points: pts.iter().map(|(n, p)| (*n, value(p))).collect(),
            }
        })
        .collect();
    // A cap at the baseline batch means weak-then-strong never grows B: its curve is the strong
    // one, drawn over it. One legend entry says so, instead of an entry for a hidden line.
    let at = |k: Strategy| plan.curves.iter().position(|(s, _)| *s == k);
    if let (Some(strong), Some(both)) = (at(Strategy::Strong), at(Strategy::WeakThenStrong)) {
        if series[strong].points == series[both].points {
            series[both].label = tr(
                "weak, then strong = strong (fixed B): the cap is the batch",
                "先弱后强 = 强扩展（固定 B）：上限就是 batch",
            )
            .to_string();
            series.remove(strong);
        }
    }
    series.extend(best_layout_series(plan, value));
    series.extend(over_memory_series(plan, value));
    let (title, y_desc) = match which {
        PlanChart::TimeToQuality => (
            tr("Time to the target loss", "达到目标 loss 的时间"),
            tr("Hours (log scale)", "小时（对数坐标）"),
        ),
        PlanChart::GpuHours => (
            tr("GPU-hours to the target loss", "达到目标 loss 的 GPU 小时"),
            tr("GPU-hours (log scale)", "GPU 小时（对数坐标）"),
        ),
    };
    LineChart {
        title: title.to_string(),
        x_desc: tr("GPUs N (log scale)", "GPU 数 N（对数坐标）").to_string(),
        y_desc: y_desc.to_string(),
        x_range: plan.gpu_range,
        y_range: y_extent(&series, true, 1.0),
        y_log: true,
        y_format: hours_label,
        series,
        shade_from: None,
        markers: vec![
            VMarker {
                x: plan.switch_gpus,
                label: trf!(
                    " switch to strong: {}",
                    " 转为强扩展：{}",
                    format_count(plan.switch_gpus)
                ),
                color: PALETTE[2],
            },
            VMarker {
                x: n_max,
                label: format!(" N_max ≈ {}", format_si(n_max, 2)),
                color: PALETTE[5],
            },
        ],
        callouts: plan
            .curves
            .iter()
            .find(|(s, _)| *s == Strategy::WeakThenStrong)
            .and_then(|(_, pts)| {
                pts.iter()
                    .find(|(n, _)| *n == plan.best_gpus_weak_then_strong)
            })
            .map(|(n, p)| Callout {
                at: (*n, value(p)),
                label: trf!("fastest: {} GPUs ", "最快：{} 卡 ", format_si(*n, 2)),
                color: PALETTE[2],
                ends_at_point: true,
            })
            .into_iter()
            .collect(),
        legend_upper_left: which == PlanChart::GpuHours,
        faded: 0,
        note: None,
    }
}
