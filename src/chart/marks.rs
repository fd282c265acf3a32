//! Marks shared by the LLM sweep charts: the knee `N_max` with its shaded region, the table's
//! rows as points, the layout search's best layouts, and the chart drawn when there is nothing
//! to plot; the axes' tick labels.

use super::colors::{BEST, KNEE, ROWS};
use super::line::{Callout, LineChart, Series, SeriesKind, VMarker};
use crate::i18n::tr;
use crate::model::llm::{LlmSweep, StrongRow, WeakRow};
use crate::text::units::format_si;

/// The knee marker and the shaded region where `T < T_crit`, common to the strong charts.
pub(super) fn knee(sweep: &LlmSweep) -> (Vec<VMarker>, Option<(f64, String)>) {
    let n_max = sweep.summary.n_max;
    (
        vec![VMarker {
            x: n_max,
            label: format!(" N_max ≈ {}", format_si(n_max, 2)),
            color: KNEE,
        }],
        Some((
            n_max,
            format!(
                "T < T_crit = {} tokens ",
                format_si(sweep.summary.t_crit_tokens, 3)
            ),
        )),
    )
}

/// What every LLM chart shares: the GPU axis; each chart fills in the rest.
pub(super) fn empty_chart(sweep: &LlmSweep) -> LineChart {
    LineChart {
        title: String::new(),
        x_desc: tr("GPUs N (log scale)", "GPU 数 N（对数坐标）").to_string(),
        y_desc: String::new(),
        x_range: sweep.gpu_range,
        y_range: (0.0, 1.0),
        y_log: false,
        y_format: ms_label,
        series: Vec::new(),
        shade_from: None,
        markers: Vec::new(),
        callouts: Vec::new(),
        legend_upper_left: false,
        faded: 0,
        note: None,
    }
}

/// The table rows of the strong or the weak sweep as points, `value` of each against its GPUs.
pub(super) fn table_rows(
    sweep: &LlmSweep,
    strong: bool,
    strong_value: impl Fn(&StrongRow) -> f64,
    weak_value: impl Fn(&WeakRow) -> f64,
) -> Series {
    let points = if strong {
        sweep
            .strong
            .iter()
            .map(|r| (r.gpus, strong_value(r)))
            .collect()
    } else {
        sweep.weak.iter().map(|r| (r.gpus, weak_value(r))).collect()
    };
    Series {
        label: tr("table rows", "表格行").to_string(),
        color: ROWS,
        kind: SeriesKind::Points,
        points,
    }
}

/// Each table row's GPU count and, with `lay=best`, the search's answer there.
pub(super) fn searched_rows(
    sweep: &LlmSweep,
    strong: bool,
) -> Vec<(f64, Option<crate::model::llm::BestLayout>)> {
    if strong {
        sweep
            .strong
            .iter()
            .map(|r| (r.gpus, r.best_layout))
            .collect()
    } else {
        sweep.weak.iter().map(|r| (r.gpus, r.best_layout)).collect()
    }
}

/// With `lay=best`, a ring on each table row's fastest layout that fits, unlabelled: the
/// hover readout names the layout, so no text covers the curves.
pub(super) fn best_rings(sweep: &LlmSweep, strong: bool) -> Vec<Callout> {
    searched_rows(sweep, strong)
        .iter()
        .filter_map(|(n, b)| b.as_ref().and_then(|b| b.layout()).map(|l| (*n, l)))
        .map(|(n, l)| Callout {
            at: (n, l.step_ms),
            label: String::new(),
            color: BEST,
            ends_at_point: false,
        })
        .collect()
}

/// With `lay=best`, the fastest layout's value at each table row where one fits, as a dotted
/// line over the fixed layout's curves (`None` without `lay=best`).
pub(super) fn best_rows(
    sweep: &LlmSweep,
    strong: bool,
    value: impl Fn(&crate::model::layouts::Scored) -> f64,
) -> Option<Series> {
    let rows = searched_rows(sweep, strong);
    if rows.iter().all(|r| r.1.is_none()) {
        return None;
    }
    Some(Series {
        label: tr("best layout (lay=best)", "最佳布局（lay=best）").to_string(),
        color: BEST,
        kind: SeriesKind::Dotted,
        points: rows
            .iter()
            .filter_map(|(n, b)| b.as_ref().and_then(|b| b.layout()).map(|l| (*n, value(&l))))
            .collect(),
    })
}

/// Marks the knee and shades `T < T_crit` (the strong charts).
pub(super) fn mark_knee(chart: &mut LineChart, sweep: &LlmSweep) {
    let (markers, shade) = knee(sweep);
    chart.markers = markers;
    chart.shade_from = shade;
}

pub(super) fn ms_label(v: f64) -> String {
    format!("{} ms", format_si(v, 3))
}

pub(super) fn percent_label(v: f64) -> String {
    format!("{}%", crate::text::units::fixed(v * 100.0, 0))
}

pub(super) fn tokens_per_s_label(v: f64) -> String {
    format_si(v, 3)
}

pub(super) fn count_label(v: f64) -> String {
    format_si(v, 3)
}
