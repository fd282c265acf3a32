//! The Laws panel's text: Amdahl, Gustafson and Sun–Ni tables, key figures, chart summaries,
//! hover readouts, and the measured points' Karp–Flatt table.

use super::nearest;
use super::table::{Cell, Columns, Table};
use crate::i18n::tr;
use crate::model::measured::{MeasuredKind, MeasuredRow};
use crate::model::sweep::{LawsRow, LawsSweep};
use crate::text::units::{
    format_count, format_fraction, format_percent, format_sig, format_speedup,
};

/// Speedup table under the speedup chart: one row per processor count.
pub fn speedup_table(sweep: &LawsSweep) -> Table {
    let f = format_fraction(sweep.serial_fraction);
    let mut columns = Columns::<LawsRow>::new()
        .titled("N".to_string(), |r| Cell::num(r.processors, format_count))
        .titled(trf!("Amdahl S (f={})", "Amdahl 加速比 (f={})", f), |r| {
            Cell::num(r.amdahl_speedup, format_speedup)
        })
        .titled(
            trf!("Gustafson S (f={})", "Gustafson 加速比 (f={})", f),
            |r| Cell::num(r.gustafson_speedup, format_speedup),
        )
        .titled(
            trf!(
                "Sun–Ni S (g={})",
                "Sun–Ni 加速比 (g={})",
                format_sig(sweep.growth_exponent, 3)
            ),
            |r| Cell::num(r.sun_ni_speedup, format_speedup),
        );
    for (i, &fc) in sweep.compare_fractions.iter().enumerate() {
        let header = trf!(
            "Amdahl S (f={})",
            "Amdahl 加速比 (f={})",
            format_fraction(fc)
        );
        columns = columns.titled(header, move |r| Cell::num(compared(r, i), format_speedup));
    }
    let caption = tr("Speedup S(N)", "加速比 S(N)").to_string();
    Table::from_columns("laws-speedup", caption, &columns, &sweep.rows)
}

/// The speedup of the `i`-th compared serial fraction in row `r`.
fn compared(r: &LawsRow, i: usize) -> f64 {
    r.compare_speedups.get(i).copied().unwrap_or(f64::NAN)
}

/// Efficiency table under the efficiency chart.
pub fn efficiency_table(sweep: &LawsSweep) -> Table {
    let f = format_fraction(sweep.serial_fraction);
    let percent = |v: f64| format_percent(v, 1);
    let mut columns = Columns::<LawsRow>::new()
        .titled("N".to_string(), |r| Cell::num(r.processors, format_count))
        .titled(
            trf!("Amdahl E (f={})", "Amdahl 效率 (f={})", f),
            move |r| Cell::num(r.amdahl_efficiency, percent),
        )
        .titled(
            trf!("Gustafson E (f={})", "Gustafson 效率 (f={})", f),
            move |r| Cell::num(r.gustafson_efficiency, percent),
        )
        .titled(
            trf!(
                "Sun–Ni E (g={})",
                "Sun–Ni 效率 (g={})",
                format_sig(sweep.growth_exponent, 3)
            ),
            move |r| Cell::num(r.sun_ni_efficiency, percent),
        );
    for (i, &fc) in sweep.compare_fractions.iter().enumerate() {
        let header = trf!("Amdahl E (f={})", "Amdahl 效率 (f={})", format_fraction(fc));
        columns = columns.titled(header, move |r| {
            Cell::num(compared(r, i) / r.processors, percent)
        });
    }
    let caption = tr(
        "Parallel efficiency E(N) = S(N)/N",
        "并行效率 E(N) = S(N)/N",
    )
    .to_string();
    Table::from_columns("laws-efficiency", caption, &columns, &sweep.rows)
}

/// Karp–Flatt table for measured points; `None` when nothing was measured.
pub fn measured_table(sweep: &LawsSweep) -> Option<Table> {
    let m = sweep.measured.as_ref()?;
    let columns = Columns::<MeasuredRow>::new()
        .titled("N".to_string(), |r| Cell::num(r.processors, format_count))
        .column(("Speedup S", "加速比 S"), |r| {
            Cell::num(r.speedup, format_speedup)
        })
        .column(("Efficiency E", "效率 E"), |r| {
            Cell::num(r.efficiency, |v| format_percent(v, 1))
        })
        .titled("Karp–Flatt e(N)".to_string(), |r| {
            r.karp_flatt.map_or_else(
                || Cell::words("–"),
                |e| Cell::num(e, |v| format_percent(v, 2)),
            )
        });
    let caption = tr(
        "Measured points and Karp–Flatt e(N)",
        "实测点与 Karp–Flatt e(N)",
    )
    .to_string();
    Some(Table::from_columns(
        "laws-measured",
        caption,
        &columns,
        &m.rows,
    ))
}

/// The key figures shown above the charts, as (label, value) pairs.
pub fn key_figures(sweep: &LawsSweep, measured_kind: MeasuredKind) -> Vec<(String, String)> {
    let f = format_fraction(sweep.serial_fraction);
    let mut out = vec![
        (
            trf!(
                "Amdahl ceiling 1/f (f = {})",
                "Amdahl 加速比上限 1/f（f = {}）",
                f
            ),
            sweep.amdahl_ceiling.map_or_else(
                || tr("none (f = 0: S = N)", "无（f = 0：S = N）").to_string(),
                format_speedup,
            ),
        ),
        (
            tr(
                "Amdahl efficiency falls to 50% at N = (1+f)/f",
                "Amdahl 效率降到 50% 时 N = (1+f)/f",
            )
            .to_string(),
            sweep.half_efficiency_processors.map_or_else(
                || tr("never (f = 0)", "不会（f = 0）").to_string(),
                |n| format_sig(n, 4),
            ),
        ),
        (
            trf!(
                "Gustafson speedup at N = {}",
                "N = {} 时的 Gustafson 加速比",
                format_count(sweep.max_processors)
            ),
            format_speedup(sweep.shi.speedup),
        ),
        (
            trf!(
                "Shi: Gustafson's f = {0} at N = {1} equals Amdahl's f of",
                "Shi：N = {1} 时 Gustafson 的 f = {0} 相当于 Amdahl 的 f",
                f,
                format_count(sweep.shi.processors)
            ),
            format_fraction(sweep.shi.amdahl_fraction),
        ),
    ];
    if let Some(m) = &sweep.measured {
        let fitted = m.fitted_serial_fraction.map_or_else(
            || tr("needs a point with N > 1", "需要 N > 1 的点").to_string(),
            format_fraction,
        );
        out.push((
            tr(
                "Fitted serial fraction (least squares)",
                "拟合的串行比例（最小二乘）",
            )
            .to_string(),
            fitted,
        ));
        if measured_kind == MeasuredKind::Time && m.baseline_processors > 1.0 {
            out.push((
                tr("Speedups relative to", "加速比的基准").to_string(),
                trf!(
                    "N = {} (assumed ideal up to there)",
                    "N = {}（假设此前理想扩展）",
                    format_count(m.baseline_processors)
                ),
            ));
        }
    }
    out
}

/// The hover readout for the speedup and efficiency charts at processor count `n`.
pub fn readout(sweep: &LawsSweep, processors: f64) -> Option<String> {
    let r = sweep.nearest_row(processors)?;
    Some(format!(
        "N = {}: Amdahl {} ({}), Gustafson {} ({}), Sun–Ni {} ({})",
        format_count(r.processors),
        format_speedup(r.amdahl_speedup),
        format_percent(r.amdahl_efficiency, 1),
        format_speedup(r.gustafson_speedup),
        format_percent(r.gustafson_efficiency, 1),
        format_speedup(r.sun_ni_speedup),
        format_percent(r.sun_ni_efficiency, 1),
    ))
}

/// A one-sentence text alternative for the speedup chart (screen readers, the live summary).
pub fn speedup_summary(sweep: &LawsSweep) -> String {
    let at_max = sweep.rows.last().map_or_else(String::new, |r| {
        trf!(
            "At N = {}, Amdahl gives {} and Gustafson {}.",
            "N = {} 时，Amdahl 为 {}，Gustafson 为 {}。",
            format_count(r.processors),
            format_speedup(r.amdahl_speedup),
            format_speedup(r.gustafson_speedup)
        )
    });
    let f = format_fraction(sweep.serial_fraction);
    match sweep.amdahl_ceiling {
        Some(c) => trf!(
            "Speedup against N on log axes for f = {}: Amdahl flattens towards its ceiling of {}. {}",
            "f = {} 时加速比随 N 的变化（对数坐标）：Amdahl 逐渐逼近上限 {}。{}",
            f,
            format_speedup(c),
            at_max
        ),
        None => trf!(
            "Speedup against N for f = 0: every law gives S = N. {}",
            "f = 0 时所有定律都给出 S = N。{}",
            at_max
        ),
    }
}

/// Text alternative for the efficiency chart.
pub fn efficiency_summary(sweep: &LawsSweep) -> String {
    let at_max = sweep.rows.last().map_or_else(String::new, |r| {
        trf!(
            " At N = {}: Amdahl {}, Gustafson {}, Sun–Ni {}.",
            "N = {} 时：Amdahl {}，Gustafson {}，Sun–Ni {}。",
            format_count(r.processors),
            format_percent(r.amdahl_efficiency, 1),
            format_percent(r.gustafson_efficiency, 1),
            format_percent(r.sun_ni_efficiency, 1)
        )
    });
    let half = sweep.half_efficiency_processors.map_or_else(
        || {
            tr(
                "Amdahl efficiency stays at 100% (f = 0).",
                "Amdahl 效率保持 100%（f = 0）。",
            )
            .to_string()
        },
        |n| {
            trf!(
                "Amdahl efficiency falls to 50% at N = {}.",
                "Amdahl 效率在 N = {} 时降到 50%。",
                format_sig(n, 4)
            )
        },
    );
    trf!(
        "Efficiency against N (log axis). {}{}",
        "效率随 N 的变化（对数坐标）。{}{}",
        half,
        at_max
    )
}

/// Text alternative for the Karp–Flatt chart.
pub fn measured_summary(sweep: &LawsSweep) -> String {
    let Some(m) = &sweep.measured else {
        return tr(
            "No measured points yet: paste N and run time (or speedup) pairs above to see \
             their Karp–Flatt serial fraction.",
            "还没有实测点：在上方粘贴 N 与运行时间（或加速比），即可看到 Karp–Flatt 串行比例。",
        )
        .to_string();
    };
    let values: Vec<f64> = m.rows.iter().filter_map(|r| r.karp_flatt).collect();
    // Karp–Flatt's reading (Karp & Flatt 1990): a constant e(N) is a serial part, a rising
    // one overhead that grows with N. Said only of what every step shows, or "overall".
    let rising_steps = values.windows(2).filter(|w| w[1] > w[0]).count();
    let steps = values.len().saturating_sub(1);
    let trend = match (values.first(), values.last()) {
        (Some(a), Some(b)) if steps > 0 && rising_steps == steps && b > a => tr(
            "e(N) rises with N: overhead grows with the processor count.",
            "e(N) 随 N 上升：开销随处理器数增长。",
        ),
        (Some(a), Some(b)) if steps > 0 && b > a => tr(
            "e(N) rises overall with N, though not at every step: overhead grows with the \
             processor count.",
            "e(N) 总体随 N 上升（并非每一步都升）：开销随处理器数增长。",
        ),
        (Some(_), Some(_)) if steps > 0 => tr(
            "e(N) does not rise with N: the loss is a fixed serial part.",
            "e(N) 不随 N 上升：损失来自固定的串行部分。",
        ),
        _ => "",
    };
    let fitted = m.fitted_serial_fraction.map_or_else(String::new, |f| {
        trf!(
            " Fitted serial fraction {}.",
            "拟合串行比例 {}。",
            format_fraction(f)
        )
    });
    trf!(
        "Karp–Flatt e(N) for {} measured points.{} {}",
        "{} 个实测点的 Karp–Flatt e(N)。{}{}",
        m.rows.len(),
        fitted,
        trend
    )
}

/// Hover readout on the Karp–Flatt chart: the measured point nearest `processors` (log scale).
pub fn measured_readout(sweep: &LawsSweep, processors: f64) -> Option<String> {
    let m = sweep.measured.as_ref()?;
    let r = nearest(&m.rows, processors, |r| r.processors)?;
    Some(format!(
        "N = {}: S = {}, E = {}, e(N) = {}",
        format_count(r.processors),
        format_speedup(r.speedup),
        format_percent(r.efficiency, 1),
        r.karp_flatt
            .map_or_else(|| "–".to_string(), |e| format_percent(e, 2))
    ))
}
