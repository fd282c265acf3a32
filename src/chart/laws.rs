//! The Laws panel's charts: speedup, efficiency and Karp–Flatt `e(N)` against `N` (log axis),
//! described as [`LineChart`]s and drawn by the shared [`draw_line_chart`].
//!
//! Axes depend only on `N_max` and the measured points, never on `f`, so the frame stays
//! still while a reader drags the `f` slider and only the curves move.

use super::line::{draw_line_chart, Callout, LineChart, Series, SeriesKind};
use super::{ChartError, ChartStyle, PlotArea, PALETTE};
use crate::i18n::tr;
use crate::model::sweep::{Curve, LawsSweep};
use crate::text::units::format_fraction;
use crate::text::units::{format_count, format_si, format_sig, format_speedup};
use plotters::coord::Shift;
use plotters::prelude::*;

const AMDAHL: RGBColor = PALETTE[0];
const GUSTAFSON: RGBColor = PALETTE[1];
const SUN_NI: RGBColor = PALETTE[2];
const MEASURED: RGBColor = PALETTE[6];
const IDEAL: RGBColor = RGBColor(0x5F, 0x66, 0x6D);
/// Colours for the comparison `f` curves (after the three laws' own colours).
const COMPARE: [RGBColor; 4] = [
    PALETTE[3],
    PALETTE[4],
    PALETTE[5],
    RGBColor(0x8A, 0x8A, 0x8A),
];

fn speedup_label(v: f64) -> String {
    format_si(v, 2)
}
fn percent_label(v: f64) -> String {
    format!("{}%", crate::text::units::fixed(v * 100.0, 0))
}
fn fraction_label(v: f64) -> String {
    format!("{}%", format_sig(v * 100.0, 3))
}

fn base(title: &str, y_desc: &str, x_max: f64) -> LineChart {
    LineChart {
        title: title.to_string(),
        x_desc: tr("Processors N (log scale)", "处理器数 N（对数坐标）").to_string(),
        y_desc: y_desc.to_string(),
        x_range: (1.0, x_max),
        y_range: (0.0, 1.0),
        y_log: false,
        y_format: speedup_label,
        series: Vec::new(),
        shade_from: None,
        markers: Vec::new(),
        callouts: Vec::new(),
        legend_upper_left: true,
        faded: 0,
        note: None,
    }
}

/// The laws' curves for one chart: comparisons (thin), Sun–Ni, Gustafson, Amdahl (on top).
fn law_series(sweep: &LawsSweep, efficiency: bool) -> Vec<Series> {
    let c = &sweep.curves;
    let f = format_fraction(sweep.serial_fraction);
    let compare = if efficiency {
        &c.compare_efficiency
    } else {
        &c.compare
    };
    let mut out: Vec<Series> = sweep
        .compare_fractions
        .iter()
        .zip(compare)
        .enumerate()
        .map(|(i, (fc, curve))| Series {
            label: format!("Amdahl f={}", format_fraction(*fc)),
            color: COMPARE[i % COMPARE.len()],
            kind: SeriesKind::Thin,
            points: curve.points.clone(),
        })
        .collect();
    let pick = |speedup: &Curve, eff: &Curve| {
        if efficiency {
            eff.points.clone()
        } else {
            speedup.points.clone()
        }
    };
    out.push(Series {
        label: format!("Sun–Ni f={f}, g={}", format_sig(sweep.growth_exponent, 3)),
        color: SUN_NI,
        kind: SeriesKind::Dotted,
        points: pick(&c.sun_ni, &c.sun_ni_efficiency),
    });
    out.push(Series {
        label: format!("Gustafson f={f}"),
        color: GUSTAFSON,
        kind: SeriesKind::Dashed,
        points: pick(&c.gustafson, &c.gustafson_efficiency),
    });
    out.push(Series {
        label: format!("Amdahl f={f}"),
        color: AMDAHL,
        kind: SeriesKind::Solid,
        points: pick(&c.amdahl, &c.amdahl_efficiency),
    });
    out
}

/// The speedup chart: ideal `S = N`, the laws, the `1/f` ceiling, the 50%-efficiency point
/// and measured speedups.
pub fn describe_speedup(sweep: &LawsSweep) -> LineChart {
    let n_max = sweep.max_processors;
    let measured = sweep.measured.as_ref().map_or(&[][..], |m| &m.rows[..]);
    let y_top = measured.iter().map(|r| r.speedup).fold(n_max, f64::max) * 1.15;
    let y_bottom = measured.iter().map(|r| r.speedup).fold(1.0, f64::min) * 0.9;
    let mut chart = base(
        tr("Speedup S(N)", "加速比 S(N)"),
        tr("Speedup (log scale)", "加速比（对数坐标）"),
        n_max,
    );
    chart.y_log = true;
    chart.y_range = (y_bottom, y_top);
    chart.series.push(Series {
        label: tr("ideal S = N", "理想 S = N").to_string(),
        color: IDEAL,
        kind: SeriesKind::Dashed,
        points: vec![(1.0, 1.0), (n_max, n_max)],
    });
    if let Some(ceiling) = sweep.amdahl_ceiling.filter(|c| *c <= y_top) {
        chart.series.push(Series {
            label: trf!("ceiling 1/f = {}", "上限 1/f = {}", format_speedup(ceiling)),
            color: AMDAHL,
            kind: SeriesKind::Dashed,
            points: vec![(1.0, ceiling), (n_max, ceiling)],
        });
    }
    chart.series.extend(law_series(sweep, false));
    if let Some(n_half) = sweep.half_efficiency_processors.filter(|n| *n <= n_max) {
        chart.callouts.push(Callout {
            at: (n_half, n_half / 2.0),
            label: trf!(
                "E = 50% at N = {}",
                "N = {} 时 E = 50%",
                format_sig(n_half, 4)
            ),
            color: AMDAHL,
            ends_at_point: true,
        });
    }
    if !measured.is_empty() {
        chart.series.push(Series {
            label: tr("measured", "实测").to_string(),
            color: MEASURED,
            kind: SeriesKind::Points,
            points: measured.iter().map(|r| (r.processors, r.speedup)).collect(),
        });
    }
    chart
}

/// The efficiency chart: `E(N) = S(N)/N` for every law, the 50% line, measured efficiencies.
pub fn describe_efficiency(sweep: &LawsSweep) -> LineChart {
    let n_max = sweep.max_processors;
    let measured = sweep.measured.as_ref().map_or(&[][..], |m| &m.rows[..]);
    let y_top = measured
        .iter()
        .map(|r| r.efficiency * 1.05)
        .fold(1.05, f64::max)
        .min(10.0);
    let mut chart = base(
        tr(
            "Parallel efficiency E(N) = S(N)/N",
            "并行效率 E(N) = S(N)/N",
        ),
        tr("Efficiency", "效率"),
        n_max,
    );
    chart.y_range = (0.0, y_top);
    chart.y_format = percent_label;
    chart.legend_upper_left = false;
    chart.series.push(Series {
        label: "50%".to_string(),
        color: IDEAL,
        kind: SeriesKind::Dashed,
        points: vec![(1.0, 0.5), (n_max, 0.5)],
    });
    chart.series.extend(law_series(sweep, true));
    if let Some(n_half) = sweep.half_efficiency_processors.filter(|n| *n <= n_max) {
        chart.callouts.push(Callout {
            at: (n_half, 0.5),
            label: format!("N = {}", format_sig(n_half, 4)),
            color: AMDAHL,
            ends_at_point: true,
        });
    }
    if !measured.is_empty() {
        chart.series.push(Series {
            label: tr("measured", "实测").to_string(),
            color: MEASURED,
            kind: SeriesKind::Points,
            points: measured
                .iter()
                .map(|r| (r.processors, r.efficiency))
                .collect(),
        });
    }
    chart
}

/// Karp–Flatt `e(N)` of the measured points and the fitted serial fraction. With no measured
/// points the frame says how to add some.
pub fn describe_karp_flatt(sweep: &LawsSweep) -> LineChart {
    let rows = sweep.measured.as_ref().map_or(&[][..], |m| &m.rows[..]);
    let fitted = sweep
        .measured
        .as_ref()
        .and_then(|m| m.fitted_serial_fraction);
    let values: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| r.karp_flatt.map(|e| (r.processors, e)))
        .collect();
    let x_max = rows.last().map_or(2.0, |r| r.processors.max(2.0)) * 1.5;
    let e_max = values
        .iter()
        .map(|v| v.1)
        .chain(fitted)
        .fold(0.01, f64::max);
    let e_min = values.iter().map(|v| v.1).chain(fitted).fold(0.0, f64::min);
    let span = e_max - e_min;
    let mut chart = base(
        tr(
            "Karp–Flatt serial fraction e(N)",
            "Karp–Flatt 串行比例 e(N)",
        ),
        "e(N)",
        x_max,
    );
    chart.y_range = (e_min - 0.05 * span, e_max + 0.25 * span);
    chart.y_format = fraction_label;
    if values.is_empty() {
        chart.note = Some(
            tr(
                "Paste measured points (N and time or speedup) to see e(N)",
                "粘贴实测点（N 与时间或加速比）即可看到 e(N)",
            )
            .to_string(),
        );
        return chart;
    }
    if let Some(f_fit) = fitted {
        chart.series.push(Series {
            label: trf!("fitted f = {}", "拟合 f = {}", format_fraction(f_fit)),
            color: AMDAHL,
            kind: SeriesKind::Dashed,
            points: vec![(1.0, f_fit), (x_max, f_fit)],
        });
    }
    chart.series.push(Series {
        label: tr("measured e(N)", "实测 e(N)").to_string(),
        color: MEASURED,
        kind: SeriesKind::Thin,
        points: values.clone(),
    });
    chart.series.push(Series {
        label: tr("measured points", "实测点").to_string(),
        color: MEASURED,
        kind: SeriesKind::Points,
        points: values.clone(),
    });
    if let Some(&(n, e)) = values.last() {
        chart.callouts.push(Callout {
            at: (n, e),
            label: format!("N = {}: {}", format_count(n), format_fraction(e)),
            color: MEASURED,
            ends_at_point: true,
        });
    }
    chart
}

/// Draws the speedup chart.
pub fn draw_speedup<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LawsSweep,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    draw_line_chart(root, &describe_speedup(sweep), style)
}

/// Draws the efficiency chart.
pub fn draw_efficiency<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LawsSweep,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    draw_line_chart(root, &describe_efficiency(sweep), style)
}

/// Draws the Karp–Flatt chart.
pub fn draw_karp_flatt<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LawsSweep,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    draw_line_chart(root, &describe_karp_flatt(sweep), style)
}
