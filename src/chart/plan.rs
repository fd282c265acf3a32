//! The Plan panel's charts: time to quality and GPU-hours against GPUs for the four batch
//! strategies, with the weak→strong switch, the knee `N_max` and the fastest point marked.

use super::line::{draw_line_chart, y_extent, Callout, LineChart, Series, SeriesKind, VMarker};
use super::{ChartError, ChartStyle, PlotArea, PALETTE};
use crate::model::plan::{PlanPoint, PlanSweep, Strategy};
use crate::model::units::{format_count, format_si};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Which Plan chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanChart {
    TimeToQuality,
    GpuHours,
}

impl PlanChart {
    pub const ALL: [PlanChart; 2] = [PlanChart::TimeToQuality, PlanChart::GpuHours];
    pub fn id(self) -> &'static str {
        match self {
            PlanChart::TimeToQuality => "plan-ttq",
            PlanChart::GpuHours => "plan-gpu-hours",
        }
    }
}

fn style_of(s: Strategy) -> (&'static str, RGBColor, SeriesKind) {
    match s {
        Strategy::Weak => ("weak (fixed T)", PALETTE[1], SeriesKind::Dashed),
        Strategy::Strong => ("strong (fixed B)", PALETTE[0], SeriesKind::Dotted),
        Strategy::WeakThenStrong => (
            "weak, then strong at the cap",
            PALETTE[2],
            SeriesKind::Solid,
        ),
        Strategy::BestBatch => ("best B at each N", PALETTE[6], SeriesKind::Thin),
    }
}

fn hours_label(v: f64) -> String {
    format!("{} h", format_si(v, 2))
}

/// The chart description.
pub fn describe(plan: &PlanSweep, n_max: f64, which: PlanChart) -> LineChart {
    let value = |p: &PlanPoint| match which {
        PlanChart::TimeToQuality => p.hours_to_quality,
        PlanChart::GpuHours => p.gpu_hours,
    };
    let series: Vec<Series> = plan
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
    let (title, y_desc) = match which {
        PlanChart::TimeToQuality => ("Time to the target loss", "Hours (log scale)"),
        PlanChart::GpuHours => ("GPU-hours to the target loss", "GPU-hours (log scale)"),
    };
    LineChart {
        title: title.to_string(),
        x_desc: "GPUs N (log scale)".to_string(),
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
                label: format!(" switch to strong: {}", format_count(plan.switch_gpus)),
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
                label: format!("fastest: {} GPUs ", format_si(*n, 2)),
                color: PALETTE[2],
            })
            .into_iter()
            .collect(),
        legend_upper_left: which == PlanChart::GpuHours,
        note: None,
    }
}

/// Draws one Plan chart.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plan: &PlanSweep,
    n_max: f64,
    which: PlanChart,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    draw_line_chart(root, &describe(plan, n_max, which), style)
}
