//! The strong- and weak-scaling panels' text: the seed's tables, key figures, chart summaries
//! and hover readouts.

use super::nearest;
use super::table::{Cell, Columns, Table};
use crate::i18n::tr;
use crate::model::fit::{FitPoint, StepFit};
use crate::model::llm::{BestLayout, LlmSweep, MfuConvention, StrongRow, WeakRow};
use crate::model::walls::WallPoint;
use crate::text::units::{
    format_count, format_exposed, format_gib, format_ms, format_percent, format_rate, format_si,
    format_sig, format_speedup, format_steps, GIB_BYTES,
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
        .column(("tokens/replica T", "每副本 tokens T"), |r| {
            Cell::num(r.tokens_per_replica, |v| format_si(v, 4))
        })
        .column_if(per_gpu_column(sweep), PER_GPU, |r| {
            Cell::num(r.tokens_per_gpu, |v| format_si(v, 4))
        })
        .column(("compute (ms)", "计算 (ms)"), |r| {
            Cell::num(r.compute_ms, format_ms)
        })
        .column(("exposed (ms)", "暴露 (ms)"), |r| {
            exposed_cell(r.exposed_ms, r.extrapolated)
        })
        .column(("step (ms)", "step (ms)"), |r| {
            Cell::num(r.step_ms, format_ms)
        })
        .column(("ideal (ms)", "理想 (ms)"), |r| {
            Cell::num(r.ideal_ms, format_ms)
        })
        .column(("efficiency", "效率"), |r| {
            Cell::num(r.efficiency, |v| format_percent(v, 1))
        })
        .column(("throughput (tok/s)", "吞吐 (tok/s)"), |r| {
            Cell::num(r.throughput_tokens_per_s, format_rate)
        })
        .column(("T / T_crit", "T / T_crit"), move |r| {
            Cell::num(r.tokens_per_replica / t_crit, |v| format_sig(v, 3))
        });
    let columns = wall_columns(columns, sweep, |r: &StrongRow| (r.walls, r.mfu));
    let columns = best_columns(columns, &sweep.strong, |r: &StrongRow| r.best_layout);
    let caption = trf!(
        "Strong scaling at fixed B_global = {} tokens",
        "强扩展：固定 B_global = {} tokens",
        format_si(sweep.summary.global_batch_tokens, 4)
    );
    Table::from_columns("strong", caption, &columns, &sweep.strong)
}

/// The memory cell: GiB on the busiest GPU and, when it does not fit, by how much.
fn memory_cell(p: &WallPoint) -> Cell {
    let gib = format_gib(p.memory.total);
    Cell {
        text: if p.fits {
            gib
        } else {
            trf!(
                "{} ✗ over by {}",
                "{} ✗ 超出 {}",
                gib,
                format_gib(p.over_bytes)
            )
        },
        value: p.memory.total / GIB_BYTES,
    }
}

/// With a shape, the walls' columns after a sweep's own: memory per GPU (and whether it fits),
/// MFU and, for a mixture of experts, tokens per expert.
fn wall_columns<'a, R: 'a>(
    columns: Columns<'a, R>,
    sweep: &LlmSweep,
    walls: impl Fn(&R) -> (Option<WallPoint>, f64) + Copy + 'a,
) -> Columns<'a, R> {
    let shown = sweep.strong.iter().any(|r| r.walls.is_some());
    let moe = sweep
        .strong
        .iter()
        .any(|r| r.walls.is_some_and(|w| w.tokens_per_expert.is_some()));
    let na = || Cell::words("–");
    columns
        .column_if(
            shown,
            ("memory/GPU (GiB)", "单卡显存 (GiB)"),
            move |r| walls(r).0.map_or_else(na, |w| memory_cell(&w)),
        )
        .column_if(shown, ("MFU", "MFU"), move |r| {
            Cell::num(walls(r).1, |v| format_percent(v, 1))
        })
        .column_if(moe, ("tokens/expert", "每专家 tokens"), move |r| {
            walls(r)
                .0
                .and_then(|w| w.tokens_per_expert)
                .map_or_else(na, |t| Cell::num(t, |v| format_si(v, 4)))
        })
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
        .column_if(shown, ("best step (ms)", "最佳 step (ms)"), move |r| {
            best(r)
                .and_then(|b| b.layout().map(|l| l.step_ms))
                .map_or_else(na, |v| Cell::num(v, format_ms))
        })
        .column_if(shown, ("best MFU", "最佳 MFU"), move |r| {
            best(r)
                .and_then(|b| b.layout().map(|l| l.mfu))
                .map_or_else(na, |v| Cell::num(v, |v| format_percent(v, 1)))
        })
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
const ACCUMULATION: (&str, &str) = ("microbatches A", "microbatch 数 A");

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
        .column_if(per_gpu_column(sweep), PER_GPU, |r| {
            Cell::num(r.tokens_per_gpu, |v| format_si(v, 4))
        })
        .column(("global batch", "global batch"), |r| {
            Cell::num(r.global_batch_tokens, |v| format_si(v, 4))
        })
        .column(("compute (ms)", "计算 (ms)"), |r| {
            Cell::num(r.compute_ms, format_ms)
        })
        .column(("exposed (ms)", "暴露 (ms)"), |r| {
            exposed_cell(r.exposed_ms, r.extrapolated)
        })
        .column(("step (ms)", "step (ms)"), |r| {
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

/// With `mbs=0` (`A` fixed), the microbatch of the first row when it holds more than one
/// sequence: its tokens and sequences, for the memory figure to point at `mbs` where memory
/// does not fit (the seed's `A = 1` makes a whole replica batch one microbatch, and its
/// activations most of the memory).
fn large_microbatch(sweep: &LlmSweep, first: Option<(u32, f64)>) -> Option<String> {
    let s = &sweep.summary;
    let (a, tokens) = first?;
    let seq = s.seq_len?;
    (s.microbatch_tokens.is_none() && tokens > seq).then(|| {
        trf!(
            "; each microbatch holds {} tokens ({} sequences, A = {}): Microbatch size (mbs) sets fewer",
            "；每个 microbatch 有 {} tokens（{} 条序列，A = {}）：用 microbatch 大小（mbs）设得更少",
            format_si(tokens, 4),
            format_sig(tokens / seq, 3),
            a
        )
    })
}

/// The walls' key figures, with a shape: the parameter count the shape implies against `P`
/// (flagged beyond 10%), and memory per GPU from the first to the last row with where it fits
/// (and a microbatch of many sequences pointed out, [`large_microbatch`]).
fn wall_figures(
    sweep: &LlmSweep,
    rows: &[(f64, Option<WallPoint>)],
    first_microbatch: Option<(u32, f64)>,
) -> Vec<(String, String)> {
    let s = &sweep.summary;
    let (Some(implied), Some(off)) = (s.shape_params, s.shape_params_mismatch) else {
        return Vec::new();
    };
    // Within the tolerance the count goes with the memory line (the phone's first screen has
    // room for few figures); beyond it, it is a figure of its own that names both counts.
    let mut out = Vec::new();
    if off > crate::model::shape::PARAMS_TOLERANCE {
        out.push((
            tr(
                "Parameters implied by the shape (nl, hd, nh, kvh, ffn, voc, ne)",
                "由形状（nl、hd、nh、kvh、ffn、voc、ne）推出的参数量",
            )
            .to_string(),
            trf!(
                "{} — {} off the total parameters P = {}; check the shape or P",
                "{0}——与总参数 P = {2} 相差 {1}；请检查形状或 P",
                format_si(implied, 4),
                format_percent(off, 1),
                format_si(s.total_params, 4)
            ),
        ));
    }
    let walls: Vec<(f64, WallPoint)> = rows
        .iter()
        .filter_map(|&(n, w)| w.map(|w| (n, w)))
        .collect();
    if let (Some(first), Some(last)) = (walls.first(), walls.last()) {
        let fits = walls
            .iter()
            .filter(|(_, w)| w.fits)
            .map(|(n, _)| format_count(*n))
            .collect::<Vec<_>>();
        out.push((
            tr(
                "Memory per GPU (first pipeline stage)",
                "单卡显存（第一个流水线 stage）",
            )
            .to_string(),
            trf!(
                "{} → {} GiB of {}, fits at: {}{}{}",
                "{} → {} GiB，显存 {}，放得下的卡数：{}{}{}",
                format_gib(first.1.memory.total),
                format_gib(last.1.memory.total),
                usable_text(s),
                if fits.is_empty() {
                    tr("no row", "没有一行").to_string()
                } else if fits.len() == walls.len() {
                    tr("every row", "每一行").to_string()
                } else {
                    fits.join(", ")
                },
                if off > crate::model::shape::PARAMS_TOLERANCE {
                    String::new()
                } else {
                    trf!(
                        " (shape: {} parameters)",
                        "（形状：{} 参数）",
                        format_si(implied, 4)
                    )
                },
                // Where memory does not fit, a smaller microbatch is the first thing to try.
                (fits.len() < walls.len())
                    .then(|| large_microbatch(sweep, first_microbatch))
                    .flatten()
                    .unwrap_or_default()
            ),
        ));
    }
    out
}

/// [`wall_figures`] of the strong table's rows.
fn strong_wall_figures(sweep: &LlmSweep) -> Vec<(String, String)> {
    let rows: Vec<_> = sweep.strong.iter().map(|r| (r.gpus, r.walls)).collect();
    let first = sweep.strong.first();
    wall_figures(
        sweep,
        &rows,
        first.map(|r| (r.accumulation, r.tokens_per_replica)),
    )
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
            tr("Throughput peaks (table rows) at", "吞吐峰值（表格行）在").to_string(),
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
    Some(trf!(
        "{} GPUs: T = {}, step {} ms (compute {} + exposed {}), efficiency {}, {} tok/s",
        "{} 卡：T = {}，step {} ms（计算 {} + 暴露 {}），效率 {}，{} tok/s",
        format_count(r.gpus),
        format_si(r.tokens_per_replica, 4),
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
        "{} 卡：B = {}，step {} ms，弱扩展效率 {}，{} tok/s，{} 个 optimizer step",
        format_count(r.gpus),
        format_si(r.global_batch_tokens, 4),
        format_ms(r.step_ms),
        format_percent(r.efficiency, 1),
        format_rate(r.throughput_tokens_per_s),
        format_steps(r.optimizer_steps)
    ))
}

/// Text alternative of the strong charts.
pub fn strong_summary(sweep: &LlmSweep) -> String {
    let s = &sweep.summary;
    let walls = memory_summary(
        sweep
            .strong
            .iter()
            .map(|r| (r.gpus, r.walls, r.mfu))
            .collect(),
    );
    let text = trf!(
        "With B_global fixed at {} tokens, step time falls less than 1/N because exposed time does \
         not shrink; throughput peaks at {} GPUs. Tokens per replica fall below T_crit = {} beyond \
         N_max ≈ {} GPUs (shaded).",
        "B_global 固定为 {} tokens 时，暴露时间不随卡数缩小，单步时间的下降慢于 1/N；吞吐在 {} 卡达到峰值。\
         超过 N_max ≈ {3} 卡（阴影区）后每副本 tokens 低于 T_crit = {2}。",
        format_si(s.global_batch_tokens, 4),
        format_count(s.peak_throughput_gpus),
        format_si(s.t_crit_tokens, 3),
        format_si(s.n_max, 2)
    );
    text + &walls
}

/// With a shape, what the memory and MFU charts show, for the panels' text alternatives:
/// memory per GPU and MFU from the first row to the last, and the rows that do not fit.
fn memory_summary(rows: Vec<(f64, Option<WallPoint>, f64)>) -> String {
    let walls: Vec<(f64, WallPoint, f64)> = rows
        .into_iter()
        .filter_map(|(n, w, mfu)| w.map(|w| (n, w, mfu)))
        .collect();
    let (Some(first), Some(last)) = (walls.first(), walls.last()) else {
        return String::new();
    };
    let over: Vec<String> = walls
        .iter()
        .filter(|r| !r.1.fits)
        .map(|r| format_count(r.0))
        .collect();
    let fit = if over.is_empty() {
        tr("every row fits", "每一行都放得下").to_string()
    } else {
        trf!("does not fit at {} GPUs", "{} 卡时放不下", over.join(", "))
    };
    trf!(
        " Memory per GPU {} → {} GiB ({}); MFU {} → {}.",
        " 单卡显存 {} → {} GiB（{}）；MFU {} → {}。",
        format_gib(first.1.memory.total),
        format_gib(last.1.memory.total),
        fit,
        format_percent(first.2, 1),
        format_percent(last.2, 1)
    )
}

/// Text alternative of the weak charts.
pub fn weak_summary(sweep: &LlmSweep) -> String {
    let (Some(first), Some(last)) = (sweep.weak.first(), sweep.weak.last()) else {
        return String::new();
    };
    let text = trf!(
        "With {} tokens per replica fixed, {} → {} GPUs keeps {} weak efficiency, but the global batch \
         grows {} → {} and the same {} tokens buy {} → {} optimizer steps.",
        "每副本固定 {} tokens，{} → {} 卡保持 {} 的弱扩展效率，但 global batch 从 {} 增大到 {}，\
         同样 {} tokens 只能做 {} → {} 个 optimizer step。",
        format_si(first.tokens_per_replica, 4),
        format_count(first.gpus),
        format_count(last.gpus),
        format_percent(last.efficiency, 1),
        format_si(first.global_batch_tokens, 4),
        format_si(last.global_batch_tokens, 4),
        format_si(sweep.summary.token_budget, 3),
        format_steps(first.optimizer_steps),
        format_steps(last.optimizer_steps)
    );
    text + &memory_summary(
        sweep
            .weak
            .iter()
            .map(|r| (r.gpus, r.walls, r.mfu))
            .collect(),
    )
}

/// What the fit of measured step times (`em=fit`) found, for the strong panel's key figures:
/// the two parts of `t(N) = W/N + K`, the `F_eff` and MFU that `W` implies, Amdahl's serial
/// fraction `K/t(N₀)` and how well the fit matches its points.
pub fn fit_figures(sweep: &LlmSweep, peak_flops_per_gpu: f64) -> Vec<(String, String)> {
    let Some(fit) = &sweep.fit else {
        return Vec::new();
    };
    let n0 = sweep.summary.baseline_gpus;
    let flops = fit.flops_per_gpu(
        sweep.summary.flops_per_token,
        sweep.summary.global_batch_tokens,
    );
    let f = fit.serial_fraction(n0);
    let weak = weak_fit_figures(sweep, fit);
    let mut out = vec![
        (
            trf!(
                "Fitted to st: t(N) = W/N + K, at N₀ = {}",
                "由 st 拟合：t(N) = W/N + K，N₀ = {} 时",
                format_count(n0)
            ),
            trf!(
                "W/N₀ = {} ms + K = {} ms",
                "W/N₀ = {} ms + K = {} ms",
                format_ms(fit.work_ms_gpus / n0),
                format_ms(fit.constant_ms)
            ),
        ),
        (
            tr(
                "F_eff implied by W (the FLOPs per step MFU counts)",
                "W 对应的 F_eff（每步 FLOPs 按 MFU 的口径）",
            )
            .to_string(),
            trf!(
                "{}FLOP/s per GPU = MFU {} of {}FLOP/s peak",
                "每卡 {0}FLOP/s，即峰值 {2}FLOP/s 的 {1}",
                format_si(flops, 3),
                format_percent(flops / peak_flops_per_gpu, 1),
                format_si(peak_flops_per_gpu, 3)
            ),
        ),
        (
            tr(
                "Serial fraction f = K / t(N₀) (Amdahl)",
                "串行比例 f = K / t(N₀)（Amdahl）",
            )
            .to_string(),
            trf!(
                "{}: speedup at most {} over N₀ whatever the GPU count",
                "{}：无论加多少卡，相对 N₀ 的加速比至多 {}",
                format_percent(f, 2),
                format_speedup(1.0 / f.max(1e-12))
            ),
        ),
        (
            if fit.points.iter().any(|p| !p.in_fit) {
                tr(
                    "Prediction error at the GPU counts the fit did not use (max / median)",
                    "拟合未使用的卡数上的预测误差（最大 / 中位）",
                )
            } else {
                tr(
                    "Fit error over the measured points (max / median)",
                    "拟合在实测点上的误差（最大 / 中位）",
                )
            }
            .to_string(),
            format!(
                "{} / {}",
                format_percent(fit.max_error, 1),
                format_percent(fit.median_error, 1)
            ),
        ),
    ];
    if let Some([model, exposed]) = weak {
        // A weak sweep: the fitted form and the exposed share replace W/N + K and Amdahl's f.
        out[0] = model;
        out[2] = exposed;
    }
    out
}

/// A weak sweep's fit figures (`st` with `@B`): the fitted form `W·(B/B₀)/N + κ·log₂(N/M)` and
/// the exposed share of the step from the first to the last row; they replace `W/N + K` and
/// Amdahl's `f` of a strong sweep's fit.
fn weak_fit_figures(sweep: &LlmSweep, fit: &StepFit) -> Option<[(String, String); 2]> {
    let n0 = sweep.summary.baseline_gpus;
    let (m, first) = fit.per_doubling_of.zip(sweep.weak.first())?;
    let last = sweep.weak.last().unwrap_or(first);
    let part = |r: &WeakRow| {
        format!(
            "{} ms ({})",
            format_ms(r.exposed_ms),
            format_percent(r.exposed_ms / r.step_ms, 1)
        )
    };
    Some([
        (
            trf!(
                "Fitted to st: t = W·(B/B₀)/N + κ·log₂(N/{}), at N₀ = {}",
                "由 st 拟合：t = W·(B/B₀)/N + κ·log₂(N/{})，N₀ = {} 时",
                format_count(m),
                format_count(n0)
            ),
            trf!(
                "W/N₀ = {} ms, κ = {} ms per doubling of replicas",
                "W/N₀ = {} ms，副本数每翻倍 κ = {} ms",
                format_ms(fit.work_ms_gpus / n0),
                format_ms(fit.constant_ms)
            ),
        ),
        (
            tr(
                "Exposed part of the step (first → last row)",
                "step 中的暴露部分（首行 → 末行）",
            )
            .to_string(),
            format!("{} → {}", part(first), part(last)),
        ),
    ])
}

/// The fit's table: each measured point, the fitted value, its error, the error when the point
/// is left out of the fit (a true prediction), and Karp–Flatt `e(N)` against the first point.
pub fn fit_table(sweep: &LlmSweep, id: &'static str) -> Option<Table> {
    let fit = sweep.fit.as_ref()?;
    let signed = |e: f64| super::table::signed_percent(e, 2);
    let columns = Columns::<FitPoint>::new()
        .column(("GPUs", "GPU 数"), |p| Cell::num(p.gpus, format_count))
        .words(("in the fit", "用于拟合"), |p| {
            Cell::words(if p.in_fit { "✓" } else { "" })
        })
        .column(("measured (ms)", "实测 (ms)"), |p| {
            Cell::num(p.measured_ms, format_ms)
        })
        .column(("fitted (ms)", "拟合 (ms)"), |p| {
            Cell::num(p.fitted_ms, format_ms)
        })
        .column(("error", "误差"), |p| Cell::num(p.error, signed))
        .column(("left out of the fit", "留一预测误差"), |p| {
            p.leave_one_out_error
                .map_or_else(|| Cell::words("–"), |e| Cell::num(e, signed))
        })
        .column(("Karp–Flatt e(N)", "Karp–Flatt e(N)"), |p| {
            p.karp_flatt.map_or_else(
                || Cell::words("–"),
                |e| Cell::num(e, |v| format_percent(v, 2)),
            )
        });
    let caption = match fit.per_doubling_of {
        Some(m) => trf!(
            "Measured step times (st) and the fit t = {} ms·GPU · (B/B₀) / N + {} ms · log₂(N/{})",
            "实测单步时间（st）与拟合 t = {} ms·GPU · (B/B₀) / N + {} ms · log₂(N/{})",
            format_si(fit.work_ms_gpus, 4),
            format_ms(fit.constant_ms),
            format_count(m)
        ),
        None => trf!(
            "Measured step times (st) and the fit t(N) = {} ms·GPU / N + {} ms",
            "实测单步时间（st）与拟合 t(N) = {} ms·GPU / N + {} ms",
            format_si(fit.work_ms_gpus, 4),
            format_ms(fit.constant_ms)
        ),
    };
    Some(Table::from_columns(id, caption, &columns, &fit.points))
}

/// The Laws panel at the fit's serial fraction: `f = K/t(N₀)` read as Amdahl's law.
pub fn fit_laws_query(sweep: &LlmSweep) -> Option<String> {
    let fit = sweep.fit.as_ref()?;
    let f = fit.serial_fraction(sweep.summary.baseline_gpus);
    Some(format!(
        "v=1&view=laws&f={}",
        crate::text::units::canonical(crate::text::units::round_sig(f, 3))
    ))
}

/// With `em=step`, the measured step times that lie below the model's compute time: their
/// exposed time is shown as 0 (a negative exposed time has no meaning).
pub fn step_below_compute_note(sweep: &LlmSweep) -> Option<String> {
    let below = sweep.fitted_exposed.as_ref()?;
    let clamped: Vec<String> = below
        .iter()
        .filter(|(_, ms)| *ms == 0.0)
        .map(|(n, _)| format_count(*n))
        .collect();
    (!clamped.is_empty()).then(|| {
        trf!(
            "At {} GPUs the measured step time is not above the compute time, so the exposed time there is taken as 0 ms: lower tc or feff, or use em=fit to fit both parts.",
            "在 {} 卡时实测单步时间不高于计算时间，因此该处暴露时间按 0 ms 计：请调低 tc 或 feff，或用 em=fit 同时拟合两部分。",
            clamped.join(", ")
        )
    })
}

/// The Strong panel's badge: what its sweep holds fixed (the global batch) and what that
/// makes fall (tokens per replica), so a reader sees it is strong scaling.
pub fn strong_badge(sweep: &LlmSweep) -> String {
    let (first, last) = match (sweep.strong.first(), sweep.strong.last()) {
        (Some(a), Some(b)) => (a, b),
        _ => return String::new(),
    };
    trf!(
        "Strong scaling: B_global fixed at {0} tokens; T per replica {1} → {2} as N goes {3} → {4}",
        "强扩展：B_global 固定为 {0} tokens；N 从 {3} 到 {4} 时每副本 T 从 {1} 降到 {2}",
        format_si(sweep.summary.global_batch_tokens, 4),
        format_si(first.tokens_per_replica, 4),
        format_si(last.tokens_per_replica, 4),
        format_count(first.gpus),
        format_count(last.gpus)
    )
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

/// The memory a layout's tensors can have, as the key figure names it: "80.0 GiB", or with a
/// reserve "77.5 GiB (80.0 GiB less 2.5 GiB reserved)".
fn usable_text(s: &crate::model::llm::LlmSummary) -> String {
    let hbm = s.hbm_bytes.unwrap_or(0.0);
    let usable = s.usable_bytes.unwrap_or(hbm);
    if usable < hbm {
        trf!(
            "{} GiB ({} GiB less {} GiB reserved)",
            "{} GiB（{} GiB 减预留 {} GiB）",
            format_gib(usable),
            format_gib(hbm),
            format_gib(hbm - usable)
        )
    } else {
        format!("{} GiB", format_gib(hbm))
    }
}
