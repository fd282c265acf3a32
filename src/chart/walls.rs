//! The strong-scaling walls' charts of the LLM panels: memory per GPU stacked by part against
//! `N`, and MFU against `N`.

use super::colors::{COMPUTE, IDEAL, MEASURED, ROWS};
use super::line::{LineChart, Series, SeriesKind};
use super::marks::{empty_chart, mark_knee, percent_label, table_rows};
use super::PALETTE;
use crate::i18n::tr;
use crate::model::llm::{LlmSweep, MfuConvention};
use crate::text::units::{format_si, format_sig};
use plotters::style::RGBColor;

/// Memory ticks: the number alone, the unit is in the axis title (a suffix made the labels
/// run into the title).
fn gib_label(v: f64) -> String {
    format_si(v, 3)
}

/// Memory per GPU (the first pipeline stage's) against `N`: weights, gathered weights,
/// gradients, optimizer state and activations stacked, the GPU's memory as a dashed line,
/// and the table rows that do not fit marked. Without a shape, a note says what it needs.
pub(super) fn memory_chart(sweep: &LlmSweep, strong: bool) -> LineChart {
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
pub(super) fn mfu_chart(sweep: &LlmSweep) -> LineChart {
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
                "MFU = {}·B / (N · t_step · 峰值)",
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
