//! The strong and weak panels' charts, described as [`LineChart`]s from an [`LlmSweep`], and
//! the seed's "boxes" figure (one batch split over more GPUs vs one batch per group).

use super::line::{y_extent, Callout, LineChart, Series, SeriesKind, VMarker};
use super::{ChartError, ChartStyle, PALETTE};
use crate::i18n::tr;
use crate::model::llm::{LlmSweep, MfuConvention, StrongRow, SweepCurves, WeakRow};
use crate::text::units::{format_count, format_si, format_sig};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const COMPUTE: RGBColor = PALETTE[0];
const EXPOSED: RGBColor = PALETTE[1];
const IDEAL: RGBColor = RGBColor(0x5F, 0x66, 0x6D);
const ROWS: RGBColor = PALETTE[6];
const KNEE: RGBColor = PALETTE[5];
const GOOD: RGBColor = PALETTE[2];
const MEASURED: RGBColor = PALETTE[3];
pub(super) const BEST: RGBColor = PALETTE[4];

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

fn ms_label(v: f64) -> String {
    format!("{} ms", format_si(v, 3))
}
fn percent_label(v: f64) -> String {
    format!("{}%", crate::text::units::fixed(v * 100.0, 0))
}
fn tokens_per_s_label(v: f64) -> String {
    format_si(v, 3)
}
fn count_label(v: f64) -> String {
    format_si(v, 3)
}

/// The knee marker and the shaded region where `T < T_crit`, common to the strong charts.
fn knee(sweep: &LlmSweep) -> (Vec<VMarker>, Option<(f64, String)>) {
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

/// Memory ticks: the number alone, the unit is in the axis title (a suffix made the labels
/// run into the title).
fn gib_label(v: f64) -> String {
    format_si(v, 3)
}

/// Memory per GPU (the first pipeline stage's) against `N`: weights, gathered weights,
/// gradients, optimizer state and activations stacked, the GPU's memory as a dashed line,
/// and the table rows that do not fit marked. Without a shape, a note says what it needs.
fn memory_chart(sweep: &LlmSweep, strong: bool) -> LineChart {
    let curves = if strong {
        &sweep.strong_curves
    } else {
        &sweep.weak_curves
    };
    let mut chart = empty_chart(sweep);
    chart.title = if strong {
        tr(
            "Strong scaling: memory per GPU at fixed B_global",
            "强扩展：固定 B_global 时的单卡显存",
        )
    } else {
        tr(
            "Weak scaling: memory per GPU at fixed tokens per replica",
            "弱扩展：固定每副本 tokens 时的单卡显存",
        )
    }
    .to_string();
    chart.y_desc = tr("Memory per GPU (GiB)", "单卡显存（GiB）").to_string();
    chart.y_format = gib_label;
    let Some(hbm) = sweep.summary.hbm_bytes else {
        chart.note = Some(
            tr(
                "Give the model's shape (nl, hd, nh, sq, voc) to compute memory",
                "给出模型形状（nl、hd、nh、sq、voc）才能计算显存",
            )
            .to_string(),
        );
        return chart;
    };
    let gib = crate::text::units::GIB_BYTES;
    // Cumulative tops, largest first: each area fills down to the next.
    type Part = fn(&crate::model::memory::Memory) -> f64;
    let parts: [(&str, &str, RGBColor, Part); 5] = [
        ("activations", "激活", PALETTE[1], |m| m.total),
        ("optimizer state", "优化器状态", PALETTE[4], |m| {
            m.total - m.activations
        }),
        ("gradients", "梯度", PALETTE[2], |m| {
            m.weights + m.gathered + m.grads
        }),
        (
            "gathered weights (FSDP)",
            "已 gather 的权重（FSDP）",
            PALETTE[3],
            |m| m.weights + m.gathered,
        ),
        ("weights", "权重", PALETTE[0], |m| m.weights),
    ];
    chart.series = parts
        .iter()
        .map(|&(en, zh, color, top)| Series {
            label: tr(en, zh).to_string(),
            color,
            kind: SeriesKind::Area,
            points: curves
                .memory
                .iter()
                .map(|(n, m)| (*n, top(m) / gib))
                .collect(),
        })
        .collect();
    let usable = sweep.summary.usable_bytes.unwrap_or(hbm);
    chart.series.push(Series {
        label: if usable < hbm {
            trf!(
                "GPU memory {} GiB less {} GiB reserved",
                "单卡显存 {} GiB 减预留 {} GiB",
                crate::text::units::fixed(hbm / gib, 0),
                format_sig((hbm - usable) / gib, 2)
            )
        } else {
            trf!(
                "GPU memory {} GiB",
                "单卡显存 {} GiB",
                crate::text::units::fixed(hbm / gib, 0)
            )
        },
        color: IDEAL,
        kind: SeriesKind::Dashed,
        points: vec![
            (sweep.gpu_range.0, usable / gib),
            (sweep.gpu_range.1, usable / gib),
        ],
    });
    chart.series.extend(memory_rows(sweep, strong));
    let top = chart.series[0]
        .points
        .iter()
        .map(|p| p.1)
        .fold(hbm / gib, f64::max);
    chart.y_range = (0.0, top * 1.08);
    chart.legend_upper_left = !strong;
    chart
}

/// The table rows on the memory chart, and those that do not fit marked again.
fn memory_rows(sweep: &LlmSweep, strong: bool) -> Vec<Series> {
    let gib = crate::text::units::GIB_BYTES;
    let rows: Vec<(f64, f64, bool)> = if strong {
        sweep
            .strong
            .iter()
            .filter_map(|r| r.walls.map(|w| (r.gpus, w.memory.total / gib, w.fits)))
            .collect()
    } else {
        sweep
            .weak
            .iter()
            .filter_map(|r| r.walls.map(|w| (r.gpus, w.memory.total / gib, w.fits)))
            .collect()
    };
    let mut out = vec![Series {
        label: tr("table rows", "表格行").to_string(),
        color: ROWS,
        kind: SeriesKind::Points,
        points: rows.iter().map(|&(n, m, _)| (n, m)).collect(),
    }];
    if rows.iter().any(|r| !r.2) {
        out.push(Series {
            label: tr("does not fit", "放不下").to_string(),
            color: MEASURED,
            kind: SeriesKind::Points,
            points: rows
                .iter()
                .filter(|r| !r.2)
                .map(|&(n, m, _)| (n, m))
                .collect(),
        });
    }
    out
}

/// MFU against `N` at fixed `B_global`: falls as exposed time grows and, when kernels
/// shrink, as each GPU's GEMMs get smaller.
fn mfu_chart(sweep: &LlmSweep) -> LineChart {
    let mut chart = empty_chart(sweep);
    chart.title = tr(
        "Strong scaling: MFU at fixed B_global",
        "强扩展：固定 B_global 时的 MFU",
    )
    .to_string();
    chart.y_desc = tr("MFU", "MFU").to_string();
    chart.y_format = percent_label;
    chart.series = vec![
        Series {
            // The FLOPs counted are a formula, the same in every language.
            label: trf!(
                "MFU = {}·B / (N · step · peak)",
                "MFU = {}·B / (N · step · 峰值)",
                match sweep.summary.mfu_convention {
                    MfuConvention::WeightsOnly => "6·P_a",
                    MfuConvention::WithAttention => "(6·P_a + 12·L·h·s)",
                }
            ),
            color: COMPUTE,
            kind: SeriesKind::Solid,
            points: sweep.strong_curves.mfu.clone(),
        },
        table_rows(sweep, true, |r| r.mfu, |r| r.mfu),
    ];
    let top = sweep
        .strong_curves
        .mfu
        .iter()
        .map(|p| p.1)
        .fold(0.0, f64::max);
    chart.y_range = (0.0, (top * 1.15).clamp(0.05, 1.0));
    mark_knee(&mut chart, sweep);
    chart
}

/// What every LLM chart shares: the GPU axis; each chart fills in the rest.
fn empty_chart(sweep: &LlmSweep) -> LineChart {
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
fn table_rows(
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
fn searched_rows(
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

/// With `lay=best`, the fastest layout at each table row where one fits, written at its step
/// (`TP2·PP16·DP32·A64`): right of the point, above the falling curve; left of it at the
/// last row, so that the label stays inside the plot.
fn best_labels(sweep: &LlmSweep, strong: bool) -> Vec<Callout> {
    let rows = searched_rows(sweep, strong);
    let last = rows.last().map(|r| r.0);
    rows.iter()
        .filter_map(|(n, b)| b.as_ref().and_then(|b| b.layout()).map(|l| (*n, l)))
        .map(|(n, l)| Callout {
            at: (n, l.step_ms),
            label: format!(" {} ", crate::text::layout::layout_name(&l)),
            color: BEST,
            ends_at_point: Some(n) == last,
        })
        .collect()
}

/// With `lay=best`, the fastest layout's value at each table row where one fits, as a dotted
/// line over the fixed layout's curves (`None` without `lay=best`).
fn best_rows(
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
fn mark_knee(chart: &mut LineChart, sweep: &LlmSweep) {
    let (markers, shade) = knee(sweep);
    chart.markers = markers;
    chart.shade_from = shade;
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
    // With lay=best, each row's layout written at its point.
    chart.callouts.extend(best_labels(sweep, strong));
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
            "强扩展：吞吐 B_global / step",
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

/// The seed's boxes figure, from the current inputs: strong scaling splits one global batch
/// over `k = N/N₀` groups; weak scaling gives each of the `k` groups a whole batch.
/// The larger GPU count shown is the strong table's last row. Every group gets a box while
/// the boxes stay wide enough for their label; past that the row shows the first groups, a
/// "…" gap and the last group, and the weak title says how many there are. A title wider than
/// the canvas breaks after its dash.
pub fn draw_boxes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LlmSweep,
    pinned: Option<&LlmSweep>,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    root.fill(&style.theme.background)?;
    let (width, height) = root.dim_in_pixel();
    let (w, h) = (width as i32, height as i32);
    let (n0, n1) = baseline_and_last_gpus(sweep);
    let batch = sweep.summary.global_batch_tokens;
    let groups = (n1 / n0).round().max(1.0);
    let px = |v: f64| style.px(v) as i32;
    let pad = px(12.0);
    let gap = pad / 3;
    let line = px(18.0);
    let font = style.font(13.0);
    let small = style.font(12.0);
    let title = style.font(14.0);
    let text_w = |text: &str, f: &TextStyle| {
        root.estimate_text_size(text, f)
            .map_or(0, |(tw, _)| tw as i32)
    };
    let (gpus0, gpus1) = (
        trf!("{} GPUs", "{} 卡", format_count(n0)),
        trf!("{} GPUs", "{} 卡", format_count(n1)),
    );
    let left = pad * 2 + text_w(&gpus0, &small).max(text_w(&gpus1, &small));
    let full_w = w - left - pad;
    let (part, whole) = (format_si(batch / groups, 3), format_si(batch, 3));
    // As many box slots as keep a label inside its box; at least three (first, gap, last).
    let min_box = text_w(&part, &font).max(text_w(&whole, &font)) + px(12.0);
    let slots = groups.min(((full_w + gap) / (min_box + gap)).max(3) as f64) as i32;
    let box_w = (full_w - (slots - 1) * gap) / slots;
    let weak_title = weak_boxes_title(batch, groups, (slots as f64) < groups);
    // One line, or two broken after the dash when one would run off the canvas.
    let cut = weak_title.rfind('—').map_or(0, |i| i + '—'.len_utf8());
    let weak_lines = if text_w(&weak_title, &title) > w - 2 * pad {
        vec![weak_title[..cut].trim(), weak_title[cut..].trim()]
    } else {
        vec![weak_title.as_str()]
    };
    let fixed = 6 * pad + line * (1 + weak_lines.len() as i32 + pinned.is_some() as i32);
    let rows = BoxRows {
        pad,
        left,
        gap,
        height: (h - fixed) / 4,
        groups,
        font: &font,
        small: &small,
        style,
    };
    // Strong: one batch, then the same batch split into `groups` parts.
    root.draw(&Text::new(
        tr(
            "Strong scaling: fixed global batch",
            "强扩展：固定 global batch",
        ),
        (pad, pad / 2),
        title.clone(),
    ))?;
    let y1 = pad + line;
    rows.label(root, y1, &gpus0)?;
    rows.draw(root, y1, 1, full_w, &format!("{whole} tokens"), COMPUTE)?;
    let y2 = y1 + rows.height + pad;
    rows.label(root, y2, &gpus1)?;
    rows.draw(root, y2, slots, box_w, &part, COMPUTE)?;
    // Weak: one batch per group.
    let mut y = y2 + rows.height + pad * 2;
    for text in &weak_lines {
        root.draw(&Text::new(*text, (pad, y), title.clone()))?;
        y += line;
    }
    let y4 = y + pad / 2;
    rows.label(root, y4, &gpus0)?;
    rows.draw(root, y4, 1, box_w, &whole, GOOD)?;
    let y5 = y4 + rows.height + pad;
    rows.label(root, y5, &gpus1)?;
    rows.draw(root, y5, slots, box_w, &whole, GOOD)?;
    if let Some(a) = pinned {
        draw_pinned_note(root, a, y5 + rows.height + line / 2, style)?;
    }
    root.present()?;
    Ok(())
}

/// The baseline GPU count `N₀` and the largest one shown (the strong table's last row).
fn baseline_and_last_gpus(sweep: &LlmSweep) -> (f64, f64) {
    let n0 = sweep.summary.baseline_gpus;
    (n0, sweep.strong.last().map_or(n0, |r| r.gpus).max(n0))
}

/// The weak half's title: how the global batch grows, and the number of groups when not
/// every group gets a box (`elided`).
fn weak_boxes_title(batch: f64, groups: f64, elided: bool) -> String {
    let more = if elided {
        trf!(" (×{} groups)", "（×{} 组）", format_count(groups))
    } else {
        String::new()
    };
    trf!(
        "Weak scaling: fixed tokens per replica — global batch {} → {}{}",
        "弱扩展：固定每副本 tokens——global batch {} → {}{}",
        format_si(batch, 3),
        format_si(batch * groups, 3),
        more
    )
}

/// The geometry shared by the boxes figure's four rows.
struct BoxRows<'a> {
    pad: i32,
    /// Where the boxes start, right of the rows' GPU-count labels.
    left: i32,
    gap: i32,
    height: i32,
    groups: f64,
    font: &'a TextStyle<'a>,
    small: &'a TextStyle<'a>,
    style: &'a ChartStyle,
}

impl BoxRows<'_> {
    /// `n` boxes of width `box_w` labelled `text`; when the row holds fewer boxes than groups,
    /// the one before last is a "…".
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        y: i32,
        n: i32,
        box_w: i32,
        text: &str,
        color: RGBColor,
    ) -> Result<(), ChartError> {
        let centered = self.font.pos(Pos::new(HPos::Center, VPos::Center));
        for i in 0..n {
            let x = self.left + i * (box_w + self.gap);
            let at = (x + box_w / 2, y + self.height / 2);
            if n > 2 && n < self.groups as i32 && i == n - 2 {
                root.draw(&Text::new("…", at, centered.clone()))?;
                continue;
            }
            let corners = [(x, y), (x + box_w, y + self.height)];
            root.draw(&Rectangle::new(corners, color.mix(0.25).filled()))?;
            root.draw(&Rectangle::new(
                corners,
                color.stroke_width(self.style.px(1.5)),
            ))?;
            root.draw(&Text::new(text, at, centered.clone()))?;
        }
        Ok(())
    }

    /// A row's GPU count, left of its boxes.
    fn label<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        y: i32,
        text: &str,
    ) -> Result<(), ChartError> {
        root.draw(&Text::new(
            text,
            (self.pad, y + self.height / 2),
            self.small.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        Ok(())
    }
}

/// A pinned scenario A under the boxes: its batch and GPU counts beside a faded swatch.
fn draw_pinned_note<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &LlmSweep,
    y: i32,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let px = |v: f64| style.px(v) as i32;
    let pad = px(12.0);
    let (n0, n1) = baseline_and_last_gpus(a);
    let faded = super::line::fade(COMPUTE, &style.theme);
    root.draw(&Rectangle::new(
        [(pad, y - px(5.0)), (pad + px(22.0), y + px(5.0))],
        faded.filled(),
    ))?;
    root.draw(&Text::new(
        trf!(
            "A: B_global {} tokens, {} → {} GPUs",
            "A：B_global {} tokens，{} → {} 卡",
            format_si(a.summary.global_batch_tokens, 3),
            format_count(n0),
            format_count(n1)
        ),
        (pad * 2 + px(22.0), y),
        style
            .font(12.0)
            .color(&style.theme.muted)
            .pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
}
