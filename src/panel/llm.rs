//! The strong- and weak-scaling panels' text: the seed's tables, key figures, chart summaries,
//! badges and hover readouts. The walls' columns and figures are in [`super::walls`], the
//! fit's in [`super::fit`].

use super::nearest;
use super::table::{Cell, Columns, Table};
use super::walls::{memory_summary, mfu_summary, strong_wall_figures, wall_columns, wall_figures};
use crate::chart::llm::LlmChart;
use crate::i18n::tr;
use crate::model::llm::{BestLayout, LlmSweep, MfuConvention, StrongRow, WeakRow};
use crate::model::walls::WallPoint;
use crate::text::units::{
    format_count, format_exposed, format_ms, format_percent, format_rate, format_si, format_sig,
    format_steps,
};

/// The strong-scaling table with the seed's columns, plus `T/T_crit`. Exposed times from
/// outside a tabulated range are marked with `*`.
pub fn strong_table(sweep: &LlmSweep) -> Table {
    let t_crit = sweep.summary.t_crit_tokens;
    let columns = Columns::<StrongRow>::new()
        .column(("GPUs", "GPU 数"), |r| Cell::num(r.gpus, format_count))
        .column_if(fixed_microbatch(sweep), ACCUMULATION, |r| {
            Cell::num(r.accumulation as f64, format_count)
        })
        .minor()
        .column(("tokens/replica T", "每副本 tokens T"), |r| {
            Cell::num(r.tokens_per_replica, |v| format_si(v, 4))
        })
        .minor()
        .column_if(per_gpu_column(sweep), PER_GPU, |r| {
            Cell::num(r.tokens_per_gpu, |v| format_si(v, 4))
        })
        .minor()
        .column(("compute (ms)", "计算 (ms)"), |r| {
            Cell::num(r.compute_ms, format_ms)
        })
        .minor()
        .column(("exposed (ms)", "暴露 (ms)"), |r| {
            exposed_cell(r.exposed_ms, r.extrapolated)
        })
        .minor()
        .column(("step (ms)", "单步 (ms)"), |r| {
            Cell::num(r.step_ms, format_ms)
        })
        .column(("ideal (ms)", "理想 (ms)"), |r| {
            Cell::num(r.ideal_ms, format_ms)
        })
        .minor()
        .column(("efficiency", "效率"), |r| {
            Cell::num(r.efficiency, |v| format_percent(v, 1))
        })
        .column(("throughput (tok/s)", "吞吐 (tok/s)"), |r| {
            Cell::num(r.throughput_tokens_per_s, format_rate)
        })
        .column(("T / T_crit", "T / T_crit"), move |r| {
            Cell::num(r.tokens_per_replica / t_crit, |v| format_sig(v, 3))
        })
        .minor();
    let columns = wall_columns(columns, sweep, |r: &StrongRow| (r.walls, r.mfu));
    let columns = best_columns(columns, &sweep.strong, |r: &StrongRow| r.best_layout);
    let caption = trf!(
        "Strong scaling at fixed B_global = {} tokens",
        "强扩展：固定 B_global = {} tokens",
        format_si(sweep.summary.global_batch_tokens, 4)
    );
    Table::from_columns("strong", caption, &columns, &sweep.strong)
}

/// With `lay=best`, the search's answer after a sweep's columns: the fastest layout that fits
/// at the row (`TP8·PP4·DP128·A8`, its schedule, ZeRO and recomputation), its step time and
/// MFU, or why there is none.
fn best_columns<'a, R: 'a>(
    columns: Columns<'a, R>,
    rows: &[R],
    best: impl Fn(&R) -> Option<BestLayout> + Copy + 'a,
) -> Columns<'a, R> {
    // The table's own rows: a panel searches only the sweep it shows (`SearchSpace::rows`).
    let shown = rows.iter().any(|r| best(r).is_some());
    let na = || Cell::words("–");
    columns
        .words_if(shown, ("best layout", "最佳布局"), move |r| match best(r) {
            Some(BestLayout::Layout(l)) => Cell::words(crate::text::layout::layout_summary(&l)),
            Some(BestLayout::NoneFits) => Cell::words(tr("none fits", "都放不下")),
            Some(BestLayout::NoLayout) => Cell::words(tr("no layout", "没有布局")),
            None => na(),
        })
        .column_if(shown, ("best step (ms)", "最佳单步 (ms)"), move |r| {
            best(r)
                .and_then(|b| b.layout().map(|l| l.step_ms))
                .map_or_else(na, |v| Cell::num(v, format_ms))
        })
        .column_if(shown, ("best MFU", "最佳 MFU"), move |r| {
            best(r)
                .and_then(|b| b.layout().map(|l| l.mfu))
                .map_or_else(na, |v| Cell::num(v, |v| format_percent(v, 1)))
        })
        // At a laptop's width the best layout and its step stay; its MFU folds away.
        .minor()
}

/// Whether the tables show tokens per GPU beside tokens per replica: only when the `M =
/// TP·PP·CP` GPUs of a replica share its tokens (`M > 1`); otherwise the two are equal.
fn per_gpu_column(sweep: &LlmSweep) -> bool {
    sweep.summary.model_parallel > 1.0
}

/// Whether the strong table shows `A` per row: only when the microbatch is held fixed
/// (`mbs`), so that `A` falls with `N`; otherwise it is the input `a` on every row.
fn fixed_microbatch(sweep: &LlmSweep) -> bool {
    sweep.summary.microbatch_tokens.is_some()
}

/// The header of the accumulation column, before "tokens/replica T".
const ACCUMULATION: (&str, &str) = ("microbatches A", "梯度累积步数 A");

/// The header of the tokens-per-GPU column, after "tokens/replica T".
const PER_GPU: (&str, &str) = ("tokens/GPU (T/M)", "每卡 tokens (T/M)");

/// Exposed time, marked when it is extrapolated beyond the table.
fn exposed_cell(exposed_ms: f64, extrapolated: bool) -> Cell {
    Cell {
        text: format_exposed(exposed_ms, extrapolated),
        value: exposed_ms,
    }
}

/// The weak-scaling table: the seed's columns plus compute/exposed and optimizer steps.
pub fn weak_table(sweep: &LlmSweep) -> Table {
    let columns = Columns::<WeakRow>::new()
        .column(("GPUs", "GPU 数"), |r| Cell::num(r.gpus, format_count))
        .column(("tokens/replica T", "每副本 tokens T"), |r| {
            Cell::num(r.tokens_per_replica, |v| format_si(v, 4))
        })
        .minor()
        .column_if(per_gpu_column(sweep), PER_GPU, |r| {
            Cell::num(r.tokens_per_gpu, |v| format_si(v, 4))
        })
        .minor()
        .column(("global batch", "global batch"), |r| {
            Cell::num(r.global_batch_tokens, |v| format_si(v, 4))
        })
        .column(("compute (ms)", "计算 (ms)"), |r| {
            Cell::num(r.compute_ms, format_ms)
        })
        .minor()
        .column(("exposed (ms)", "暴露 (ms)"), |r| {
            exposed_cell(r.exposed_ms, r.extrapolated)
        })
        .minor()
        .column(("step (ms)", "单步 (ms)"), |r| {
            Cell::num(r.step_ms, format_ms)
        })
        .column(("weak efficiency", "弱扩展效率"), |r| {
            Cell::num(r.efficiency, |v| format_percent(v, 1))
        })
        .column(("throughput (tok/s)", "吞吐 (tok/s)"), |r| {
            Cell::num(r.throughput_tokens_per_s, format_rate)
        })
        .column(("optimizer steps", "optimizer step 数"), |r| {
            Cell::num(r.optimizer_steps, format_steps)
        });
    let columns = wall_columns(columns, sweep, |r: &WeakRow| (r.walls, r.mfu));
    let columns = best_columns(columns, &sweep.weak, |r: &WeakRow| r.best_layout);
    let caption = trf!(
        "Weak scaling at fixed T = {} tokens per replica; budget {} tokens",
        "弱扩展：固定每副本 T = {} tokens；预算 {} tokens",
        format_si(sweep.weak.first().map_or(0.0, |r| r.tokens_per_replica), 4),
        format_si(sweep.summary.token_budget, 3)
    );
    Table::from_columns("weak", caption, &columns, &sweep.weak)
}

/// Key figures above the strong panel.
pub fn strong_key_figures(sweep: &LlmSweep) -> Vec<(String, String)> {
    let s = &sweep.summary;
    let mut out = vec![
        (
            // The formula is the same in every language; only its name is translated.
            trf!(
                "Overlap threshold T_crit = {}",
                "通信掩盖阈值 T_crit = {}",
                match s.mfu_convention {
                    MfuConvention::WeightsOnly => "(c·s_w/6)·(F_eff/B_eff)·(P/P_a)·CP",
                    MfuConvention::WithAttention => {
                        "c·s_w·P·(F_eff/B_eff)·CP / (6·P_a + 12·L·h·s)"
                    }
                }
            ),
            trf!(
                "{} tokens per replica",
                "{} tokens/副本",
                format_si(s.t_crit_tokens, 3)
            ),
        ),
        (
            if s.microbatch_tokens.is_some() {
                tr(
                    "Useful GPUs N_max = M·B_global/max(m, T_crit)",
                    "可用卡数上限 N_max = M·B_global/max(m, T_crit)",
                )
            } else {
                tr(
                    "Useful GPUs N_max = M·B_global/(A·T_crit)",
                    "可用卡数上限 N_max = M·B_global/(A·T_crit)",
                )
            }
            .to_string(),
            format!("{} (≈ {})", format_count(s.n_max), format_si(s.n_max, 2)),
        ),
        (
            tr("Throughput peaks (table rows) at", "吞吐最高的表格行").to_string(),
            trf!("{} GPUs", "{} 卡", format_count(s.peak_throughput_gpus)),
        ),
    ];
    if let Some(knee) = s.best_layout_n_max {
        out.insert(
            2,
            (
                trf!(
                    "N_max with the best layouts (of the one at {} GPUs)",
                    "最佳布局的 N_max（{} 卡那一行的布局）",
                    format_count(knee.at_gpus)
                ),
                format!(
                    "{} (≈ {})",
                    format_count(knee.n_max),
                    format_si(knee.n_max, 2)
                ),
            ),
        );
    }
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
    out.extend(strong_wall_figures(sweep));
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
                "由单步时间拟合的暴露时间",
            )
            .to_string(),
            fitted
                .iter()
                .map(|(n, ms)| trf!("{}: {} ms", "{} 卡 {} ms", format_count(*n), format_ms(*ms)))
                .collect::<Vec<_>>()
                .join(tr("; ", "；")),
        ));
    }
    out
}

/// Key figures above the weak panel.
pub fn weak_key_figures(sweep: &LlmSweep) -> Vec<(String, String)> {
    let (Some(first), Some(last)) = (sweep.weak.first(), sweep.weak.last()) else {
        return Vec::new();
    };
    let mut out = vec![
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
                "{} tokens 预算下的 optimizer step 数",
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
    ];
    out.extend(wall_figures(
        sweep,
        &sweep
            .weak
            .iter()
            .map(|r| (r.gpus, r.walls))
            .collect::<Vec<_>>(),
        sweep
            .weak
            .first()
            .map(|r| (r.accumulation, r.tokens_per_replica)),
    ));
    out
}

/// Hover readout on a strong chart: the row nearest `gpus` (log scale).
pub fn strong_readout(sweep: &LlmSweep, gpus: f64) -> Option<String> {
    let r = nearest(&sweep.strong, gpus, |r| r.gpus)?;
    // With lay=best, the row's fastest layout: the charts ring its point, and its name is
    // read here rather than written over the curves.
    let best = r
        .best_layout
        .and_then(|b| b.layout())
        .map(|l| {
            trf!(
                "; best {}: step {} ms",
                "；最佳 {}：单步 {} ms",
                crate::text::layout::layout_name(&l),
                format_ms(l.step_ms)
            )
        })
        .unwrap_or_default();
    Some(trf!(
        "{} GPUs: T = {}, step {} ms (compute {} + exposed {}), efficiency {}, {} tok/s{}",
        "{} 卡：T = {}，单步 {} ms（计算 {} + 暴露 {}），效率 {}，{} tok/s{}",
        format_count(r.gpus),
        format_si(r.tokens_per_replica, 4),
        format_ms(r.step_ms),
        format_ms(r.compute_ms),
        format_ms(r.exposed_ms),
        format_percent(r.efficiency, 1),
        format_rate(r.throughput_tokens_per_s),
        best
    ))
}

/// Hover readout on a weak chart.
pub fn weak_readout(sweep: &LlmSweep, gpus: f64) -> Option<String> {
    let r = nearest(&sweep.weak, gpus, |r| r.gpus)?;
    Some(trf!(
        "{} GPUs: B = {}, step {} ms, weak efficiency {}, {} tok/s, {} optimizer steps",
        "{} 卡：B = {}，step {} ms，弱扩展效率 {}，{} tok/s，{} 个 optimizer step",
        format_count(r.gpus),
        format_si(r.global_batch_tokens, 4),
        format_ms(r.step_ms),
        format_percent(r.efficiency, 1),
        format_rate(r.throughput_tokens_per_s),
        format_steps(r.optimizer_steps)
    ))
}

/// The text alternative of one of the strong panel's line charts: what that chart shows, so
/// that the tab says each thing once (the boxes figure describes itself). `pipeline_stages`
/// is the scenario's `PP`, which says whether more microbatches shrink a pipeline bubble.
pub fn strong_chart_summary(sweep: &LlmSweep, chart: LlmChart, pipeline_stages: u32) -> String {
    let s = &sweep.summary;
    let walls = || wall_rows(&sweep.strong, |r| (r.gpus, r.walls, r.mfu));
    match chart {
        LlmChart::StrongStep => trf!(
            "With B_global fixed at {} tokens, step time falls less than 1/N because exposed time does not shrink.",
            "B_global 固定为 {} tokens 时，暴露时间不随卡数缩小，单步时间的下降慢于 1/N。",
            format_si(s.global_batch_tokens, 4)
        ),
        LlmChart::StrongEfficiency => {
            // The chart shades the region beyond N_max only where its axis reaches it.
            let shaded = if s.n_max <= sweep.gpu_range.1 {
                tr(" (shaded)", "（阴影区）")
            } else {
                ""
            };
            trf!(
                "Tokens per replica fall below T_crit = {} beyond N_max ≈ {} GPUs{}.",
                "超过 N_max ≈ {1} 卡{2}后每副本 tokens 低于 T_crit = {0}。",
                format_si(s.t_crit_tokens, 3),
                format_si(s.n_max, 2),
                shaded
            ) + &above_ideal_note(sweep, pipeline_stages)
        }
        LlmChart::StrongThroughput => throughput_peak_text(sweep),
        LlmChart::StrongMemory => memory_summary(walls()),
        LlmChart::StrongMfu => mfu_summary(walls()),
        _ => String::new(),
    }
}

/// The text alternative of one of the weak panel's line charts (see [`strong_chart_summary`]).
pub fn weak_chart_summary(sweep: &LlmSweep, chart: LlmChart) -> String {
    let (Some(first), Some(last)) = (sweep.weak.first(), sweep.weak.last()) else {
        return String::new();
    };
    match chart {
        LlmChart::WeakStep => trf!(
            "Step time {} → {} ms.",
            "单步时间 {} → {} ms。",
            format_ms(first.step_ms),
            format_ms(last.step_ms)
        ),
        LlmChart::WeakEfficiency => trf!(
            "With {} tokens per replica fixed, {} → {} GPUs keeps {} weak efficiency.",
            "每副本固定 {} tokens，{} → {} 卡保持 {} 的弱扩展效率。",
            format_si(first.tokens_per_replica, 4),
            format_count(first.gpus),
            format_count(last.gpus),
            format_percent(last.efficiency, 1)
        ),
        LlmChart::WeakThroughput => trf!(
            "Throughput {} → {} tokens/s.",
            "吞吐 {} → {} tokens/s。",
            format_si(first.throughput_tokens_per_s, 4),
            format_si(last.throughput_tokens_per_s, 4)
        ),
        LlmChart::WeakSteps => trf!(
            "The global batch grows {} → {} and the same {} tokens buy {} → {} optimizer steps.",
            "global batch 从 {} 增大到 {}，同样 {} tokens 只能做 {} → {} 个 optimizer step。",
            format_si(first.global_batch_tokens, 4),
            format_si(last.global_batch_tokens, 4),
            format_si(sweep.summary.token_budget, 3),
            format_steps(first.optimizer_steps),
            format_steps(last.optimizer_steps)
        ),
        LlmChart::WeakMemory => {
            memory_summary(wall_rows(&sweep.weak, |r| (r.gpus, r.walls, r.mfu)))
        }
        _ => String::new(),
    }
}

/// `(N, walls, MFU)` of a sweep's table rows, for the walls' summaries.
fn wall_rows<R>(
    rows: &[R],
    row: impl Fn(&R) -> (f64, Option<WallPoint>, f64),
) -> Vec<(f64, WallPoint, f64)> {
    rows.iter()
        .map(row)
        .filter_map(|(n, w, mfu)| w.map(|w| (n, w, mfu)))
        .collect()
}

/// Where strong-scaling throughput peaks: among the table's rows, which the key figure names
/// too. The curve runs past them (to `N_max` or beyond the last row), so the sentence says
/// which it means.
fn throughput_peak_text(sweep: &LlmSweep) -> String {
    trf!(
        "Throughput peaks at {} GPUs (table rows).",
        "表中各行吞吐在 {} 卡最高。",
        format_count(sweep.summary.peak_throughput_gpus)
    )
}

/// Why strong-scaling efficiency is above 100% at some rows (fewer GPUs than `N₀`), when it is: there the step
/// takes fewer GPU-milliseconds than at `N₀`, in compute (each GPU's larger share runs in
/// larger, faster kernels) or in exposed time (with the microbatch fixed, more microbatches
/// `A` per step make the pipeline bubble a smaller share). Empty when no row is above 100%.
fn above_ideal_note(sweep: &LlmSweep, pipeline_stages: u32) -> String {
    let n0 = sweep.summary.baseline_gpus;
    let Some(base) = sweep.strong.iter().find(|r| r.gpus == n0) else {
        return String::new();
    };
    // Shown to one decimal: a row at 100.04% reads 100%, so it needs no word.
    let above: Vec<&StrongRow> = sweep
        .strong
        .iter()
        .filter(|r| r.efficiency >= 1.0005)
        .collect();
    let Some(first) = above.first() else {
        return String::new();
    };
    // With the microbatch fixed, more microbatches per step shrink a pipeline's bubble.
    let bubble = if first.accumulation > base.accumulation && pipeline_stages > 1 {
        trf!(
            "; at {} GPUs, with the microbatch fixed, A = {} microbatches per step ({} at N₀) shrink the pipeline bubble",
            "；{} 卡时 microbatch 固定，每步 A = {}（N₀ 时 {}），流水线气泡更小",
            format_count(first.gpus),
            first.accumulation,
            base.accumulation
        )
    } else {
        String::new()
    };
    trf!(
        " Above 100% at {} GPUs: a step there takes less GPU-time than at N₀ = {}{}.",
        "{} 卡时效率高于 100%：一步所用 GPU 时间少于 N₀ = {} 卡时{}。",
        above
            .iter()
            .map(|r| format_count(r.gpus))
            .collect::<Vec<_>>()
            .join(crate::text::list_sep()),
        format_count(n0),
        bubble
    )
}

/// The Strong panel's badge: what its sweep holds fixed (the global batch) and what that
/// makes fall, so a reader sees it is strong scaling. Tokens per replica fall unless the
/// microbatch is pinned (`mbs`); then `T` stays and the microbatches per step `A` fall, and the
/// badge says that instead of a fall from a value to itself.
pub fn strong_badge(sweep: &LlmSweep) -> String {
    let (first, last) = match (sweep.strong.first(), sweep.strong.last()) {
        (Some(a), Some(b)) => (a, b),
        _ => return String::new(),
    };
    let batch = format_si(sweep.summary.global_batch_tokens, 4);
    let (t0, t1) = (
        format_si(first.tokens_per_replica, 4),
        format_si(last.tokens_per_replica, 4),
    );
    let (n0, n1) = (format_count(first.gpus), format_count(last.gpus));
    if t0 == t1 && first.accumulation != last.accumulation {
        trf!(
            "Strong scaling: B_global fixed at {0} tokens; T per replica stays {1} and A {2} → {3} as N goes {4} → {5}",
            "强扩展：B_global 固定为 {0} tokens；N 从 {4} 到 {5}，每副本 T 保持 {1}，A 从 {2} 减到 {3}",
            batch,
            t0,
            format_count(first.accumulation as f64),
            format_count(last.accumulation as f64),
            n0,
            n1
        )
    } else {
        trf!(
            "Strong scaling: B_global fixed at {0} tokens; T per replica {1} → {2} as N goes {3} → {4}",
            "强扩展：B_global 固定为 {0} tokens；N 从 {3} 到 {4}，每副本 T：{1} → {2}",
            batch,
            t0,
            t1,
            n0,
            n1
        )
    }
}

/// The Weak panel's badge: tokens per replica held, the global batch growing.
pub fn weak_badge(sweep: &LlmSweep) -> String {
    let (first, last) = match (sweep.weak.first(), sweep.weak.last()) {
        (Some(a), Some(b)) => (a, b),
        _ => return String::new(),
    };
    trf!(
        "Weak scaling: T fixed at {0} tokens per replica; B_global {1} → {2} as N goes {3} → {4}",
        "弱扩展：每副本 T 固定为 {0} tokens；N 从 {3} 到 {4} 时 B_global 从 {1} 增到 {2}",
        format_si(first.tokens_per_replica, 4),
        format_si(first.global_batch_tokens, 3),
        format_si(last.global_batch_tokens, 3),
        format_count(first.gpus),
        format_count(last.gpus)
    )
}
