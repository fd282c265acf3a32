//! Tables and key figures: the model's rows turned into the text a reader sees.
//!
//! The page, the CLI's text/CSV/Markdown output and the tests all go through these
//! functions, so a number is formatted one way everywhere.

use crate::i18n::tr;
use crate::model::levers::Lever;
use crate::model::llm::LlmSweep;
use crate::model::measured::MeasuredKind;
use crate::model::plan::{PlanPoint, PlanSweep};
use crate::model::sweep::LawsSweep;
use crate::scenario::{plan_inputs_for, Scenario};
use crate::text::units::{
    format_count, format_decimals, format_percent, format_si, format_sig, format_speedup,
};
use serde::Serialize;

/// A table as shown under a chart: headers and formatted cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Stable id (`laws-speedup`), used for DOM ids and file names.
    pub id: &'static str,
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// Plain text with aligned columns (numbers right-aligned), for the terminal.
    pub fn to_text(&self) -> String {
        let columns = self.headers.len();
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate().take(columns) {
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let line = |cells: &[String]| {
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| format!("{:>w$}", c, w = widths[i]))
                .collect::<Vec<_>>()
                .join("  ")
        };
        let mut out = format!("{}\n{}\n", self.caption, line(&self.headers));
        out.push_str(
            &widths
                .iter()
                .map(|w| "-".repeat(*w))
                .collect::<Vec<_>>()
                .join("  "),
        );
        out.push('\n');
        for row in &self.rows {
            out.push_str(&line(row));
            out.push('\n');
        }
        out
    }

    /// RFC 4180 CSV (fields with `,`, `"` or newlines quoted).
    pub fn to_csv(&self) -> String {
        let field = |s: &String| {
            if s.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.clone()
            }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            out.push_str(&row.iter().map(field).collect::<Vec<_>>().join(","));
            out.push_str("\r\n");
        }
        out
    }

    /// A GitHub-flavoured Markdown table (pipes escaped).
    pub fn to_markdown(&self) -> String {
        let cell = |s: &String| s.replace('|', "\\|");
        let mut out = format!(
            "| {} |\n|{}|\n",
            self.headers
                .iter()
                .map(cell)
                .collect::<Vec<_>>()
                .join(" | "),
            self.headers
                .iter()
                .enumerate()
                .map(|(i, _)| if i == 0 { "---" } else { "---:" })
                .collect::<Vec<_>>()
                .join("|")
        );
        for row in &self.rows {
            out.push_str(&format!(
                "| {} |\n",
                row.iter().map(cell).collect::<Vec<_>>().join(" | ")
            ));
        }
        out
    }
}

/// Column headers in the thread's language.
fn tr_headers(pairs: &[(&'static str, &'static str)]) -> Vec<String> {
    pairs
        .iter()
        .map(|(en, zh)| tr(en, zh).to_string())
        .collect()
}

/// `f` as a reader writes it: `5%`, `0.5%`, `12.5%`.
pub fn format_fraction(f: f64) -> String {
    format!("{}%", format_sig(f * 100.0, 3))
}

/// Speedup table under the speedup chart: one row per processor count.
pub fn laws_speedup_table(sweep: &LawsSweep) -> Table {
    let f = format_fraction(sweep.serial_fraction);
    let mut headers = vec![
        "N".to_string(),
        trf!("Amdahl S (f={})", "Amdahl 加速比 (f={})", f),
        trf!("Gustafson S (f={})", "Gustafson 加速比 (f={})", f),
        trf!(
            "Sun–Ni S (g={})",
            "Sun–Ni 加速比 (g={})",
            format_sig(sweep.growth_exponent, 3)
        ),
    ];
    headers.extend(sweep.compare_fractions.iter().map(|&fc| {
        trf!(
            "Amdahl S (f={})",
            "Amdahl 加速比 (f={})",
            format_fraction(fc)
        )
    }));
    let rows = sweep
        .rows
        .iter()
        .map(|r| {
            let mut cells = vec![
                format_count(r.processors),
                format_speedup(r.amdahl_speedup),
                format_speedup(r.gustafson_speedup),
                format_speedup(r.sun_ni_speedup),
            ];
            cells.extend(r.compare_speedups.iter().map(|&s| format_speedup(s)));
            cells
        })
        .collect();
    Table {
        id: "laws-speedup",
        caption: tr("Speedup S(N)", "加速比 S(N)").to_string(),
        headers,
        rows,
    }
}

/// Efficiency table under the efficiency chart.
pub fn laws_efficiency_table(sweep: &LawsSweep) -> Table {
    let f = format_fraction(sweep.serial_fraction);
    let mut headers = vec![
        "N".to_string(),
        trf!("Amdahl E (f={})", "Amdahl 效率 (f={})", f),
        trf!("Gustafson E (f={})", "Gustafson 效率 (f={})", f),
        trf!(
            "Sun–Ni E (g={})",
            "Sun–Ni 效率 (g={})",
            format_sig(sweep.growth_exponent, 3)
        ),
    ];
    headers.extend(
        sweep
            .compare_fractions
            .iter()
            .map(|&fc| trf!("Amdahl E (f={})", "Amdahl 效率 (f={})", format_fraction(fc))),
    );
    let rows = sweep
        .rows
        .iter()
        .map(|r| {
            let mut cells = vec![
                format_count(r.processors),
                format_percent(r.amdahl_efficiency, 1),
                format_percent(r.gustafson_efficiency, 1),
                format_percent(r.sun_ni_efficiency, 1),
            ];
            cells.extend(
                r.compare_speedups
                    .iter()
                    .map(|&s| format_percent(s / r.processors, 1)),
            );
            cells
        })
        .collect();
    Table {
        id: "laws-efficiency",
        caption: tr(
            "Parallel efficiency E(N) = S(N)/N",
            "并行效率 E(N) = S(N)/N",
        )
        .to_string(),
        headers,
        rows,
    }
}

/// Karp–Flatt table for measured points; `None` when nothing was measured.
pub fn laws_measured_table(sweep: &LawsSweep) -> Option<Table> {
    let m = sweep.measured.as_ref()?;
    Some(Table {
        id: "laws-measured",
        caption: tr(
            "Measured points and Karp–Flatt e(N)",
            "实测点与 Karp–Flatt e(N)",
        )
        .to_string(),
        headers: vec![
            "N".to_string(),
            tr("Speedup S", "加速比 S").to_string(),
            tr("Efficiency E", "效率 E").to_string(),
            "Karp–Flatt e(N)".to_string(),
        ],
        rows: m
            .rows
            .iter()
            .map(|r| {
                vec![
                    format_count(r.processors),
                    format_speedup(r.speedup),
                    format_percent(r.efficiency, 1),
                    r.karp_flatt
                        .map_or_else(|| "–".to_string(), |e| format_percent(e, 2)),
                ]
            })
            .collect(),
    })
}

/// The key figures shown above the charts, as (label, value) pairs.
pub fn laws_key_figures(sweep: &LawsSweep, measured_kind: MeasuredKind) -> Vec<(String, String)> {
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
pub fn laws_readout(sweep: &LawsSweep, processors: f64) -> Option<String> {
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
pub fn laws_chart_summary(sweep: &LawsSweep) -> String {
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
pub fn laws_efficiency_summary(sweep: &LawsSweep) -> String {
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
pub fn laws_measured_summary(sweep: &LawsSweep) -> String {
    let Some(m) = &sweep.measured else {
        return tr(
            "No measured points yet: paste N and run time (or speedup) pairs above to see \
             their Karp–Flatt serial fraction.",
            "还没有实测点：在上方粘贴 N 与运行时间（或加速比），即可看到 Karp–Flatt 串行比例。",
        )
        .to_string();
    };
    let values: Vec<f64> = m.rows.iter().filter_map(|r| r.karp_flatt).collect();
    let trend = match (values.first(), values.last()) {
        (Some(a), Some(b)) if values.len() > 1 && b > a => tr(
            "e(N) rises with N: overhead grows with the processor count.",
            "e(N) 随 N 上升：开销随处理器数增长。",
        ),
        (Some(_), Some(_)) if values.len() > 1 => tr(
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

/// Milliseconds as the seed writes them: up to two decimals, trailing zeros trimmed
/// (`112.5`, `56.25`, `1000`).
pub fn format_ms(ms: f64) -> String {
    format_decimals(ms, 2)
}

/// Exposed ms, starred when extrapolated beyond the tabulated GPU counts.
pub fn format_exposed(ms: f64, extrapolated: bool) -> String {
    format!("{}{}", format_ms(ms), if extrapolated { "*" } else { "" })
}

/// Tokens per second with an SI suffix: `96.24M`, `121.9M`.
pub fn format_rate(tokens_per_s: f64) -> String {
    format_si(tokens_per_s, 4)
}

/// The strong-scaling table with the seed's columns, plus `T/T_crit`. Exposed times from
/// outside a tabulated range are marked with `*`.
pub fn strong_table(sweep: &LlmSweep) -> Table {
    let t_crit = sweep.summary.t_crit_tokens;
    Table {
        id: "strong",
        caption: trf!(
            "Strong scaling at fixed B_global = {} tokens",
            "强扩展：固定 B_global = {} tokens",
            format_si(sweep.summary.global_batch_tokens, 4)
        ),
        headers: tr_headers(&[
            ("GPUs", "GPU 数"),
            ("tokens/GPU T", "每卡 tokens T"),
            ("compute (ms)", "计算 (ms)"),
            ("exposed (ms)", "暴露 (ms)"),
            ("step (ms)", "step (ms)"),
            ("ideal (ms)", "理想 (ms)"),
            ("efficiency", "并行效率"),
            ("throughput (tok/s)", "吞吐 (tok/s)"),
            ("T / T_crit", "T / T_crit"),
        ]),
        rows: sweep
            .strong
            .iter()
            .map(|r| {
                vec![
                    format_count(r.gpus),
                    format_si(r.tokens_per_gpu, 4),
                    format_ms(r.compute_ms),
                    format_exposed(r.exposed_ms, r.extrapolated),
                    format_ms(r.step_ms),
                    format_ms(r.ideal_ms),
                    format_percent(r.efficiency, 1),
                    format_rate(r.throughput_tokens_per_s),
                    format_sig(r.tokens_per_gpu / t_crit, 3),
                ]
            })
            .collect(),
    }
}

/// The weak-scaling table: the seed's columns plus compute/exposed and optimizer steps.
pub fn weak_table(sweep: &LlmSweep) -> Table {
    Table {
        id: "weak",
        caption: trf!(
            "Weak scaling at fixed T = {} tokens per GPU; budget {} tokens",
            "弱扩展：固定每卡 T = {} tokens；预算 {} tokens",
            format_si(sweep.weak.first().map_or(0.0, |r| r.tokens_per_gpu), 4),
            format_si(sweep.summary.token_budget, 3)
        ),
        headers: tr_headers(&[
            ("GPUs", "GPU 数"),
            ("tokens/GPU T", "每卡 tokens T"),
            ("global batch", "global batch"),
            ("compute (ms)", "计算 (ms)"),
            ("exposed (ms)", "暴露 (ms)"),
            ("step (ms)", "step (ms)"),
            ("weak efficiency", "弱扩展效率"),
            ("throughput (tok/s)", "吞吐 (tok/s)"),
            ("optimizer steps", "优化器步数"),
        ]),
        rows: sweep
            .weak
            .iter()
            .map(|r| {
                vec![
                    format_count(r.gpus),
                    format_si(r.tokens_per_gpu, 4),
                    format_si(r.global_batch_tokens, 4),
                    format_ms(r.compute_ms),
                    format_exposed(r.exposed_ms, r.extrapolated),
                    format_ms(r.step_ms),
                    format_percent(r.efficiency, 1),
                    format_rate(r.throughput_tokens_per_s),
                    format_steps(r.optimizer_steps),
                ]
            })
            .collect(),
    }
}

/// Optimizer steps with thousands separators and the seed's half step: `7,812.5`.
pub fn format_steps(steps: f64) -> String {
    if steps >= 1e6 {
        return format_si(steps, 4);
    }
    let whole = steps.trunc();
    let frac = format_decimals(steps - whole, 2);
    match frac.as_str() {
        "0" => format_count(whole),
        "1" => format_count(whole + 1.0),
        f => format!("{}{}", format_count(whole), f.trim_start_matches('0')),
    }
}

/// Key figures above the strong panel.
pub fn strong_key_figures(sweep: &LlmSweep) -> Vec<(String, String)> {
    let s = &sweep.summary;
    let mut out = vec![
        (
            tr(
                "Overlap threshold T_crit = (c·s_w/6)·(F_eff/B_eff)·(P/P_a)",
                "通信掩盖阈值 T_crit = (c·s_w/6)·(F_eff/B_eff)·(P/P_a)",
            )
            .to_string(),
            trf!(
                "{} tokens per GPU",
                "{} tokens/卡",
                format_si(s.t_crit_tokens, 3)
            ),
        ),
        (
            tr(
                "Useful GPUs N_max = M·B_global/(A·T_crit)",
                "可用卡数上限 N_max = M·B_global/(A·T_crit)",
            )
            .to_string(),
            format!("{} (≈ {})", format_count(s.n_max), format_si(s.n_max, 2)),
        ),
        (
            tr("Throughput peaks (table rows) at", "吞吐峰值（表格行）在").to_string(),
            trf!("{} GPUs", "{} 卡", format_count(s.peak_throughput_gpus)),
        ),
    ];
    if let Some(last) = sweep.strong.last() {
        out.push((
            trf!(
                "Efficiency at {} GPUs",
                "{} 卡时的并行效率",
                format_count(last.gpus)
            ),
            format_percent(last.efficiency, 1),
        ));
    }
    if sweep.strong.iter().any(|r| r.extrapolated) {
        out.push((
            tr("* exposed time", "* 暴露时间").to_string(),
            tr(
                "extrapolated beyond the tabulated GPU counts",
                "超出表中卡数范围，为外推值",
            )
            .to_string(),
        ));
    }
    if let Some(fitted) = &sweep.fitted_exposed {
        out.push((
            tr(
                "Exposed time fitted from step times",
                "由 step time 拟合的暴露时间",
            )
            .to_string(),
            fitted
                .iter()
                .map(|(n, ms)| format!("{}: {} ms", format_count(*n), format_ms(*ms)))
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    out
}

/// Key figures above the weak panel.
pub fn weak_key_figures(sweep: &LlmSweep) -> Vec<(String, String)> {
    let (Some(first), Some(last)) = (sweep.weak.first(), sweep.weak.last()) else {
        return Vec::new();
    };
    vec![
        (
            tr("Global batch grows", "global batch 增大").to_string(),
            format!(
                "{} → {} tokens",
                format_si(first.global_batch_tokens, 4),
                format_si(last.global_batch_tokens, 4)
            ),
        ),
        (
            trf!(
                "Weak efficiency at {} GPUs",
                "{} 卡时的弱扩展效率",
                format_count(last.gpus)
            ),
            format_percent(last.efficiency, 1),
        ),
        (
            trf!(
                "Optimizer steps for {} tokens",
                "{} tokens 预算下的优化器步数",
                format_si(sweep.summary.token_budget, 3)
            ),
            format!(
                "{} → {}",
                format_steps(first.optimizer_steps),
                format_steps(last.optimizer_steps)
            ),
        ),
        (
            tr("Throughput", "吞吐").to_string(),
            format!(
                "{} → {} tok/s",
                format_rate(first.throughput_tokens_per_s),
                format_rate(last.throughput_tokens_per_s)
            ),
        ),
    ]
}

/// Hover readout on a strong chart: the row nearest `gpus` (log scale).
pub fn strong_readout(sweep: &LlmSweep, gpus: f64) -> Option<String> {
    let r = nearest(&sweep.strong, gpus, |r| r.gpus)?;
    Some(trf!(
        "{} GPUs: T = {}, step {} ms (compute {} + exposed {}), efficiency {}, {} tok/s",
        "{} 卡：T = {}，step {} ms（计算 {} + 暴露 {}），效率 {}，{} tok/s",
        format_count(r.gpus),
        format_si(r.tokens_per_gpu, 4),
        format_ms(r.step_ms),
        format_ms(r.compute_ms),
        format_ms(r.exposed_ms),
        format_percent(r.efficiency, 1),
        format_rate(r.throughput_tokens_per_s)
    ))
}

/// Hover readout on a weak chart.
pub fn weak_readout(sweep: &LlmSweep, gpus: f64) -> Option<String> {
    let r = nearest(&sweep.weak, gpus, |r| r.gpus)?;
    Some(trf!(
        "{} GPUs: B = {}, step {} ms, weak efficiency {}, {} tok/s, {} optimizer steps",
        "{} 卡：B = {}，step {} ms，弱扩展效率 {}，{} tok/s，{} 个优化器步",
        format_count(r.gpus),
        format_si(r.global_batch_tokens, 4),
        format_ms(r.step_ms),
        format_percent(r.efficiency, 1),
        format_rate(r.throughput_tokens_per_s),
        format_steps(r.optimizer_steps)
    ))
}

fn nearest<T>(rows: &[T], x: f64, key: impl Fn(&T) -> f64) -> Option<&T> {
    let target = x.max(1.0).ln();
    rows.iter().min_by(|a, b| {
        (key(a).ln() - target)
            .abs()
            .total_cmp(&(key(b).ln() - target).abs())
    })
}

/// Text alternative of the strong charts.
pub fn strong_summary(sweep: &LlmSweep) -> String {
    let s = &sweep.summary;
    trf!(
        "With B_global fixed at {} tokens, step time falls less than 1/N because exposed time does \
         not shrink; throughput peaks at {} GPUs. Tokens per GPU fall below T_crit = {} beyond \
         N_max ≈ {} GPUs (shaded).",
        "B_global 固定为 {} tokens 时，暴露时间不随卡数缩小，step time 的下降慢于 1/N；吞吐在 {} 卡达到峰值。\
         超过 N_max ≈ {3} 卡（阴影区）后每卡 tokens 低于 T_crit = {2}。",
        format_si(s.global_batch_tokens, 4),
        format_count(s.peak_throughput_gpus),
        format_si(s.t_crit_tokens, 3),
        format_si(s.n_max, 2)
    )
}

/// Text alternative of the weak charts.
pub fn weak_summary(sweep: &LlmSweep) -> String {
    let (Some(first), Some(last)) = (sweep.weak.first(), sweep.weak.last()) else {
        return String::new();
    };
    trf!(
        "With {} tokens per GPU fixed, {} → {} GPUs keeps {} weak efficiency, but the global batch \
         grows {} → {} and the same {} tokens buy {} → {} optimizer steps.",
        "每卡固定 {} tokens，{} → {} 卡保持 {} 的弱扩展效率，但 global batch 从 {} 增大到 {}，\
         同样 {} tokens 只能做 {} → {} 个优化器步。",
        format_si(first.tokens_per_gpu, 4),
        format_count(first.gpus),
        format_count(last.gpus),
        format_percent(last.efficiency, 1),
        format_si(first.global_batch_tokens, 4),
        format_si(last.global_batch_tokens, 4),
        format_si(sweep.summary.token_budget, 3),
        format_steps(first.optimizer_steps),
        format_steps(last.optimizer_steps)
    )
}

/// Hours with a readable precision: `8.68 h`, `125 h`, `0.52 h`.
pub fn format_hours(hours: f64) -> String {
    format!("{} h", format_sig(hours, 3))
}

fn plan_cell(point: Option<PlanPoint>, pick: impl Fn(&PlanPoint) -> String) -> String {
    point.map_or_else(|| "–".to_string(), |p| pick(&p))
}

/// The planner table: per GPU count, the weak headline next to time to quality, and each
/// strategy's batch and time to quality.
pub fn plan_table(plan: &PlanSweep) -> Table {
    Table {
        id: "plan",
        caption: trf!(
            "Time to quality with B_crit = {} tokens (S_min = {} steps); weak-then-strong caps B at {}",
            "达到目标质量的时间：B_crit = {} tokens（S_min = {} 步）；先弱后强时 B 上限为 {}",
            format_si(plan.critical_batch_tokens, 3),
            format_steps(plan.min_steps),
            format_si(plan.batch_cap_tokens, 3)
        ),
        headers: tr_headers(&[
            ("GPUs", "GPU 数"),
            ("weak: B", "弱扩展：B"),
            ("weak efficiency (headline)", "弱扩展效率（标题数字）"),
            ("weak: time to quality", "弱扩展：达标时间"),
            ("weak: speedup to quality", "弱扩展：达标加速比"),
            ("weak: true efficiency", "弱扩展：真实效率"),
            ("strong: time to quality", "强扩展：达标时间"),
            ("weak→strong: B", "先弱后强：B"),
            ("weak→strong: time to quality", "先弱后强：达标时间"),
            ("best B", "最优 B"),
            ("best: time to quality", "最优：达标时间"),
            ("weak→strong: GPU-hours", "先弱后强：GPU 时"),
        ]),
        rows: plan
            .rows
            .iter()
            .map(|r| {
                vec![
                    format_count(r.gpus),
                    plan_cell(r.weak, |p| format_si(p.batch_tokens, 4)),
                    format_percent(r.vanity_weak_efficiency, 1),
                    plan_cell(r.weak, |p| format_hours(p.hours_to_quality)),
                    format!("{}x", format_sig(r.weak_ttq_speedup, 3)),
                    format_percent(r.weak_true_efficiency, 1),
                    plan_cell(r.strong, |p| format_hours(p.hours_to_quality)),
                    plan_cell(r.weak_then_strong, |p| format_si(p.batch_tokens, 4)),
                    plan_cell(r.weak_then_strong, |p| format_hours(p.hours_to_quality)),
                    plan_cell(r.best, |p| format_si(p.batch_tokens, 3)),
                    plan_cell(r.best, |p| format_hours(p.hours_to_quality)),
                    plan_cell(r.weak_then_strong, |p| format_count(p.gpu_hours)),
                ]
            })
            .collect(),
    }
}

/// Key figures above the Plan panel: the vanity-vs-true contrast at the last row first.
pub fn plan_key_figures(plan: &PlanSweep, llm: &LlmSweep) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let n0 = llm.summary.baseline_gpus;
    if let Some(last) = plan.rows.last() {
        out.push((
            trf!(
                "Weak scaling {} → {} GPUs ({}x): reported efficiency",
                "弱扩展 {} → {} 卡（{} 倍）：报告的效率",
                format_count(n0),
                format_count(last.gpus),
                format_sig(last.gpus / n0, 3)
            ),
            format_percent(last.vanity_weak_efficiency, 1),
        ));
        out.push((
            tr(
                "…but time to the same loss falls only",
                "……但达到相同 loss 的时间只缩短",
            )
            .to_string(),
            trf!(
                "{}x — true efficiency {}",
                "{} 倍——真实效率 {}",
                format_sig(last.weak_ttq_speedup, 3),
                format_percent(last.weak_true_efficiency, 1)
            ),
        ));
        if let Some(w) = last.weak {
            out.push((
                trf!(
                    "Token efficiency at B = {}",
                    "B = {} 时的 token 效率",
                    format_si(w.batch_tokens, 4)
                ),
                format_percent(w.token_efficiency, 1),
            ));
        }
    }
    out.push((
        tr(
            "Weak-then-strong switches at (B reaches the cap)",
            "先弱后强的切换点（B 达到上限）",
        )
        .to_string(),
        trf!("{} GPUs", "{} 卡", format_count(plan.switch_gpus)),
    ));
    out.push((
        tr("Strong-scaling knee N_max", "强扩展拐点 N_max").to_string(),
        trf!("{} GPUs", "{} 卡", format_count(llm.summary.n_max)),
    ));
    // The fastest point is searched within the chart's range; at its right edge time to
    // quality is still falling, so say "beyond".
    let best = plan.best_gpus_weak_then_strong;
    let at_edge = best >= plan.gpu_range.1 * 0.999;
    out.push((
        tr(
            "Adding GPUs stops paying (weak→strong, fastest) at",
            "继续加卡不再划算（先弱后强最快）的位置",
        )
        .to_string(),
        if at_edge {
            trf!(
                "beyond {} GPUs (still faster there)",
                "超过 {} 卡（仍在变快）",
                format_si(best, 2)
            )
        } else {
            trf!("≈ {} GPUs", "≈ {} 卡", format_si(best, 2))
        },
    ));
    out
}

/// One row of the lever table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeverRow {
    pub lever: &'static str,
    pub label: &'static str,
    pub on: bool,
    pub t_crit_tokens: f64,
    pub n_max: f64,
    /// Fastest weak-then-strong time to quality over the table's GPU counts, hours.
    pub best_hours: f64,
    pub cost: &'static str,
}

/// Each lever alone against the inputs as typed, then all switched-on levers together.
pub fn lever_rows(scenario: &Scenario) -> Vec<LeverRow> {
    let evaluate = |levers: &[Lever]| {
        let mut inputs = scenario.llm_inputs_without_levers();
        Lever::apply_all(levers, &mut inputs, scenario.plan.nvlink_bytes_per_s);
        let sweep = LlmSweep::compute(&inputs);
        let plan = PlanSweep::compute(&plan_inputs_for(inputs, &scenario.plan, &scenario.llm));
        let best = plan
            .rows
            .iter()
            .filter_map(|r| r.weak_then_strong.map(|p| p.hours_to_quality))
            .fold(f64::INFINITY, f64::min);
        (sweep.summary.t_crit_tokens, sweep.summary.n_max, best)
    };
    let mut rows = Vec::new();
    let (t, n, h) = evaluate(&[]);
    rows.push(LeverRow {
        lever: "none",
        label: tr("inputs as typed", "按输入值"),
        on: scenario.plan.levers.is_empty(),
        t_crit_tokens: t,
        n_max: n,
        best_hours: h,
        cost: "",
    });
    for lever in Lever::ALL {
        let (t, n, h) = evaluate(&[lever]);
        rows.push(LeverRow {
            lever: lever.key(),
            label: crate::text::messages::lever_label(lever),
            on: scenario.plan.levers.contains(&lever),
            t_crit_tokens: t,
            n_max: n,
            best_hours: h,
            cost: crate::text::messages::lever_cost(lever),
        });
    }
    if scenario.plan.levers.len() > 1 {
        let (t, n, h) = evaluate(&scenario.plan.levers);
        rows.push(LeverRow {
            lever: "all-on",
            label: tr("all switched-on levers together", "所有已开启手段合计"),
            on: true,
            t_crit_tokens: t,
            n_max: n,
            best_hours: h,
            cost: "",
        });
    }
    rows
}

/// The lever table as shown.
pub fn lever_table(rows: &[LeverRow]) -> Table {
    Table {
        id: "levers",
        caption: tr(
            "Levers that lower T_crit (each alone, against the inputs as typed)",
            "降低 T_crit 的手段（逐项单独作用，相对输入值）",
        )
        .to_string(),
        headers: tr_headers(&[
            ("lever", "手段"),
            ("on", "已开启"),
            ("T_crit (tokens)", "T_crit（tokens）"),
            ("N_max (GPUs)", "N_max（卡）"),
            ("fastest time to quality", "最快达标时间"),
            ("cost", "代价"),
        ]),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.label.to_string(),
                    if r.on { "✓" } else { "" }.to_string(),
                    format_si(r.t_crit_tokens, 3),
                    format_count(r.n_max),
                    if r.best_hours.is_finite() {
                        format_hours(r.best_hours)
                    } else {
                        "–".to_string()
                    },
                    r.cost.to_string(),
                ]
            })
            .collect(),
    }
}

/// Activation memory per GPU relative to the baseline as strong scaling shrinks `T`
/// (activations scale with tokens per microbatch): the room the memory-hungry levers can use.
pub fn activation_memory_note(llm: &LlmSweep) -> Option<String> {
    let (first, last) = (llm.strong.first()?, llm.strong.last()?);
    Some(trf!(
        "Strong scaling {} → {} GPUs cuts activation memory per GPU to {} of the baseline \
         (T {} → {} tokens), room that no-reshard and zero-bubble schedules can spend.",
        "强扩展 {} → {} 卡把每卡激活显存降到基线的 {}（T {} → {} tokens），\
         这部分空间正好可以留给不 reshard 和零气泡调度。",
        format_count(first.gpus),
        format_count(last.gpus),
        format_percent(last.tokens_per_gpu / first.tokens_per_gpu, 1),
        format_si(first.tokens_per_gpu, 4),
        format_si(last.tokens_per_gpu, 4)
    ))
}

/// Hover readout on a Plan chart: the table row nearest `gpus`.
pub fn plan_readout(plan: &PlanSweep, gpus: f64) -> Option<String> {
    let r = nearest(&plan.rows, gpus, |r| r.gpus)?;
    let h = |p: Option<PlanPoint>| {
        p.map_or_else(|| "–".to_string(), |p| format_hours(p.hours_to_quality))
    };
    Some(trf!(
        "{} GPUs: weak {} (headline {}, true {}), strong {}, weak→strong {}, best B {}",
        "{} 卡：弱扩展 {}（标题效率 {}，真实 {}），强扩展 {}，先弱后强 {}，最优 B {}",
        format_count(r.gpus),
        h(r.weak),
        format_percent(r.vanity_weak_efficiency, 1),
        format_percent(r.weak_true_efficiency, 1),
        h(r.strong),
        h(r.weak_then_strong),
        h(r.best)
    ))
}

/// Text alternative of the Plan charts.
pub fn plan_summary(plan: &PlanSweep) -> String {
    trf!(
        "Time to the target loss against GPUs for four ways of choosing the batch. Weak scaling keeps growing the batch past B_crit = {} and gains little; weak-then-strong switches at {} GPUs and is fastest near {} GPUs.",
        "四种 batch 选法下达到目标 loss 的时间随卡数的变化。弱扩展让 batch 越过 B_crit = {} 继续增大，收益很小；先弱后强在 {} 卡切换，在约 {} 卡时最快。",
        format_si(plan.critical_batch_tokens, 3),
        format_count(plan.switch_gpus),
        format_si(plan.best_gpus_weak_then_strong, 2)
    )
}
