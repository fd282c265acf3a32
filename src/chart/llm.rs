//! The strong and weak panels' charts, described as [`LineChart`]s from an [`LlmSweep`], and
//! the seed's "boxes" figure (one batch split over more GPUs vs one batch per group).

use super::line::{y_extent, Callout, LineChart, Series, SeriesKind, VMarker};
use super::{ChartError, ChartStyle, PALETTE};
use crate::i18n::tr;
use crate::model::llm::LlmSweep;
use crate::text::units::{format_count, format_si};
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
    let x_range = sweep.gpu_range;
    let x_desc = tr("GPUs N (log scale)", "GPU 数 N（对数坐标）").to_string();
    let strong = &sweep.strong_curves;
    let weak = &sweep.weak_curves;
    let (markers, shade) = knee(sweep);
    let mut chart = LineChart {
        title: String::new(),
        x_desc,
        y_desc: String::new(),
        x_range,
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
    };
    match which {
        LlmChart::StrongStep | LlmChart::WeakStep => {
            let (curves, rows): (_, Vec<(f64, f64)>) = if which == LlmChart::StrongStep {
                (
                    strong,
                    sweep.strong.iter().map(|r| (r.gpus, r.step_ms)).collect(),
                )
            } else {
                (
                    weak,
                    sweep.weak.iter().map(|r| (r.gpus, r.step_ms)).collect(),
                )
            };
            chart.title = if which == LlmChart::StrongStep {
                tr(
                    "Strong scaling: step time at fixed B_global",
                    "强扩展：固定 B_global 时的 step time",
                )
                .to_string()
            } else {
                tr(
                    "Weak scaling: step time at fixed tokens per replica",
                    "弱扩展：固定每副本 tokens 时的 step time",
                )
                .to_string()
            };
            chart.y_desc = tr("Step time (ms)", "Step time（ms）").to_string();
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
                    label: if which == LlmChart::StrongStep {
                        tr("ideal t(N₀)·N₀/N", "理想 t(N₀)·N₀/N").to_string()
                    } else {
                        tr("ideal: constant", "理想：不变").to_string()
                    },
                    color: IDEAL,
                    kind: SeriesKind::Dashed,
                    points: curves.ideal_ms.clone(),
                },
                Series {
                    label: tr("table rows", "表格行").to_string(),
                    color: ROWS,
                    kind: SeriesKind::Points,
                    points: rows,
                },
            ];
            // The measured step times a fit was made from, over the model's curve: a weak sweep
            // (per-point batches at one number of tokens per GPU) on the weak chart, others on
            // the strong one.
            let fit = sweep
                .fit
                .as_ref()
                .filter(|f| f.per_doubling_of.is_some() == (which == LlmChart::WeakStep));
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
            chart.legend_upper_left = false;
            if which == LlmChart::StrongStep {
                chart.markers = markers;
                chart.shade_from = shade;
            }
        }
        LlmChart::StrongEfficiency | LlmChart::WeakEfficiency => {
            let is_strong = which == LlmChart::StrongEfficiency;
            chart.title = if is_strong {
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
            let (curve, rows): (_, Vec<(f64, f64)>) = if is_strong {
                (
                    &strong.efficiency,
                    sweep
                        .strong
                        .iter()
                        .map(|r| (r.gpus, r.efficiency))
                        .collect(),
                )
            } else {
                (
                    &weak.efficiency,
                    sweep.weak.iter().map(|r| (r.gpus, r.efficiency)).collect(),
                )
            };
            chart.series = vec![
                Series {
                    label: tr("efficiency", "并行效率").to_string(),
                    color: if is_strong { COMPUTE } else { GOOD },
                    kind: SeriesKind::Solid,
                    points: curve.clone(),
                },
                Series {
                    label: tr("table rows", "表格行").to_string(),
                    color: ROWS,
                    kind: SeriesKind::Points,
                    points: rows,
                },
            ];
            chart.y_range = (0.0, 1.08);
            if is_strong {
                chart.markers = markers;
                chart.shade_from = shade;
            }
        }
        LlmChart::StrongThroughput | LlmChart::WeakThroughput => {
            let is_strong = which == LlmChart::StrongThroughput;
            chart.title = if is_strong {
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
            let (curves, rows): (_, Vec<(f64, f64)>) = if is_strong {
                (
                    strong,
                    sweep
                        .strong
                        .iter()
                        .map(|r| (r.gpus, r.throughput_tokens_per_s))
                        .collect(),
                )
            } else {
                (
                    weak,
                    sweep
                        .weak
                        .iter()
                        .map(|r| (r.gpus, r.throughput_tokens_per_s))
                        .collect(),
                )
            };
            // Linear throughput from the baseline: what perfect scaling would give.
            let base = curves
                .throughput
                .iter()
                .zip(&curves.step_ms)
                .find(|((n, _), _)| *n >= sweep.summary.baseline_gpus)
                .map_or(0.0, |((n, t), _)| t / n);
            let ideal: Vec<(f64, f64)> = curves
                .throughput
                .iter()
                .map(|&(n, _)| (n, base * n))
                .collect();
            chart.series = vec![
                Series {
                    label: tr("throughput", "吞吐").to_string(),
                    color: if is_strong { COMPUTE } else { GOOD },
                    kind: SeriesKind::Solid,
                    points: curves.throughput.clone(),
                },
                Series {
                    label: tr("table rows", "表格行").to_string(),
                    color: ROWS,
                    kind: SeriesKind::Points,
                    points: rows,
                },
            ];
            chart.y_range = y_extent(&chart.series, false, 1.0);
            chart.series.insert(
                1,
                Series {
                    label: tr("linear from N₀", "从 N₀ 起线性").to_string(),
                    color: IDEAL,
                    kind: SeriesKind::Dashed,
                    points: ideal,
                },
            );
            chart.legend_upper_left = true;
            if is_strong {
                if let Some(peak) = sweep
                    .strong
                    .iter()
                    .find(|r| r.gpus == sweep.summary.peak_throughput_gpus)
                {
                    chart.callouts.push(Callout {
                        at: (peak.gpus, peak.throughput_tokens_per_s),
                        label: trf!(
                            "peak {} tok/s at {}",
                            "峰值 {} tok/s，{} 卡",
                            format_si(peak.throughput_tokens_per_s, 3),
                            format_count(peak.gpus)
                        ),
                        color: KNEE,
                    });
                }
                chart.markers = markers;
                chart.shade_from = shade;
            }
        }
        LlmChart::WeakSteps => {
            chart.title = tr(
                "Weak scaling: global batch and optimizer steps for the budget",
                "弱扩展：global batch 与预算内的优化器步数",
            )
            .to_string();
            chart.y_desc =
                tr("Tokens / steps (log scale)", "tokens / 步数（对数坐标）").to_string();
            chart.y_format = count_label;
            chart.y_log = true;
            let budget_steps: Vec<(f64, f64)> = sweep
                .weak
                .iter()
                .map(|r| (r.gpus, r.optimizer_steps))
                .collect();
            chart.series = vec![
                Series {
                    label: tr("global batch B (tokens)", "global batch B（tokens）").to_string(),
                    color: EXPOSED,
                    kind: SeriesKind::Solid,
                    points: weak.global_batch.clone(),
                },
                Series {
                    label: tr("optimizer steps for the budget", "预算内的优化器步数").to_string(),
                    color: COMPUTE,
                    kind: SeriesKind::Solid,
                    points: weak
                        .global_batch
                        .iter()
                        .map(|&(n, b)| (n, sweep.summary.token_budget / b))
                        .collect(),
                },
                Series {
                    label: tr("table rows (steps)", "表格行（步数）").to_string(),
                    color: ROWS,
                    kind: SeriesKind::Points,
                    points: budget_steps,
                },
            ];
            chart.y_range = y_extent(&chart.series, true, 1.0);
            chart.legend_upper_left = false;
        }
    }
    chart
}

/// The seed's boxes figure, from the current inputs: strong scaling splits one global batch
/// over `k = N/N₀` groups; weak scaling gives each of the `k` groups a whole batch.
/// `gpus` is the larger GPU count shown (the last table row). Every group gets a box while
/// the boxes stay wide enough for their label; past that the row shows the first groups, a
/// "…" gap and the last group, and the weak title says how many there are. A title wider than
/// the canvas breaks after its dash.
pub fn draw_boxes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LlmSweep,
    pinned: Option<&LlmSweep>,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let theme = style.theme;
    root.fill(&theme.background)?;
    let (width, height) = root.dim_in_pixel();
    let (w, h) = (width as i32, height as i32);
    let n0 = sweep.summary.baseline_gpus;
    let n1 = sweep.strong.last().map_or(n0, |r| r.gpus).max(n0);
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
    let more = if (slots as f64) < groups {
        trf!(" (×{} groups)", "（×{} 组）", format_count(groups))
    } else {
        String::new()
    };
    let weak_title = trf!(
        "Weak scaling: fixed tokens per replica — global batch {} → {}{}",
        "弱扩展：固定每副本 tokens——global batch {} → {}{}",
        whole,
        format_si(batch * groups, 3),
        more
    );
    // One line, or two broken after the dash when one would run off the canvas.
    let cut = weak_title.rfind('—').map_or(0, |i| i + '—'.len_utf8());
    let weak_lines = if text_w(&weak_title, &title) > w - 2 * pad {
        vec![weak_title[..cut].trim(), weak_title[cut..].trim()]
    } else {
        vec![weak_title.as_str()]
    };
    let fixed = 6 * pad + line * (1 + weak_lines.len() as i32 + pinned.is_some() as i32);
    let row_h = (h - fixed) / 4;
    let draw_row = |y: i32, n: i32, box_w: i32, text: &str, color: RGBColor| {
        for i in 0..n {
            let x = left + i * (box_w + gap);
            let cx = x + box_w / 2;
            let at = (cx, y + row_h / 2);
            if n > 2 && n < groups as i32 && i == n - 2 {
                root.draw(&Text::new(
                    "…",
                    at,
                    font.pos(Pos::new(HPos::Center, VPos::Center)),
                ))?;
                continue;
            }
            root.draw(&Rectangle::new(
                [(x, y), (x + box_w, y + row_h)],
                color.mix(0.25).filled(),
            ))?;
            root.draw(&Rectangle::new(
                [(x, y), (x + box_w, y + row_h)],
                color.stroke_width(style.px(1.5)),
            ))?;
            root.draw(&Text::new(
                text,
                at,
                font.pos(Pos::new(HPos::Center, VPos::Center)),
            ))?;
        }
        Ok::<(), ChartError>(())
    };
    let row_label = |y: i32, text: &str| {
        root.draw(&Text::new(
            text,
            (pad, y + row_h / 2),
            small.pos(Pos::new(HPos::Left, VPos::Center)),
        ))
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
    row_label(y1, &gpus0)?;
    draw_row(y1, 1, full_w, &format!("{whole} tokens"), COMPUTE)?;
    let y2 = y1 + row_h + pad;
    row_label(y2, &gpus1)?;
    draw_row(y2, slots, box_w, &part, COMPUTE)?;
    // Weak: one batch per group.
    let mut y = y2 + row_h + pad * 2;
    for text in &weak_lines {
        root.draw(&Text::new(*text, (pad, y), title.clone()))?;
        y += line;
    }
    let y4 = y + pad / 2;
    row_label(y4, &gpus0)?;
    draw_row(y4, 1, box_w, &whole, GOOD)?;
    let y5 = y4 + row_h + pad;
    row_label(y5, &gpus1)?;
    draw_row(y5, slots, box_w, &whole, GOOD)?;
    // A pinned scenario A: its batch and GPU counts, faded, under the boxes.
    if let Some(a) = pinned {
        let n0 = a.summary.baseline_gpus;
        let n1 = a.strong.last().map_or(n0, |r| r.gpus).max(n0);
        let y = y5 + row_h + line / 2;
        let faded = super::line::fade(COMPUTE, &theme);
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
            small
                .color(&theme.muted)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    root.present()?;
    Ok(())
}
