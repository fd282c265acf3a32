//! The strong-scaling walls in the strong and weak panels' text: the memory, MFU and
//! tokens-per-expert columns, the memory key figure and the charts' memory summary.

use super::table::{Cell, Columns};
use crate::i18n::tr;
use crate::model::llm::LlmSweep;
use crate::model::walls::WallPoint;
use crate::text::units::{
    format_count, format_gib, format_params, format_percent, format_si, format_sig, GIB_BYTES,
};

/// The memory cell: GiB on the busiest GPU and, when it does not fit, by how much.
pub(super) fn memory_cell(p: &WallPoint) -> Cell {
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
/// MFU and, for a mixture of experts, tokens per expert (a minor column).
pub(super) fn wall_columns<'a, R: 'a>(
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
        .minor()
}

/// With `mbs=0` (`A` fixed), the microbatch of the first row when it holds more than one
/// sequence: its tokens and sequences, for the memory figure to point at `mbs` where memory
/// does not fit (the seed's `A = 1` makes a whole replica batch one microbatch, and its
/// activations most of the memory).
pub(super) fn large_microbatch(sweep: &LlmSweep, first: Option<(u32, f64)>) -> Option<String> {
    let s = &sweep.summary;
    let (a, tokens) = first?;
    let seq = s.seq_len?;
    (s.microbatch_tokens.is_none() && tokens > seq).then(|| {
        trf!(
            "; each microbatch holds {} tokens ({} sequences, A = {}): Microbatch size (mbs) sets fewer",
            "；每个 microbatch 有 {} tokens（{} 条序列，A = {}）：可用“microbatch 大小（mbs）”减少每个 microbatch 的序列数",
            format_si(tokens, 4),
            format_sig(tokens / seq, 3),
            a
        )
    })
}

/// The walls' key figures, with a shape: the parameter count the shape implies against `P`
/// (flagged beyond 10%), and memory per GPU from the first to the last row with where it fits
/// (and a microbatch of many sequences pointed out, [`large_microbatch`]).
pub(super) fn wall_figures(
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
                format_params(implied),
                format_percent(off, 1),
                format_params(s.total_params)
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
                "{} → {} GiB（可用 {}）；放得下：{}{}{}",
                format_gib(first.1.memory.total),
                format_gib(last.1.memory.total),
                usable_text(s),
                if fits.is_empty() {
                    tr("no row", "无").to_string()
                } else if fits.len() == walls.len() {
                    tr("every row", "所有行").to_string()
                } else {
                    fits.join(tr(", ", "、"))
                },
                if off > crate::model::shape::PARAMS_TOLERANCE {
                    String::new()
                } else {
                    trf!(
                        " (shape: {} parameters)",
                        "（形状推出 {} 参数）",
                        format_params(implied)
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
pub(super) fn strong_wall_figures(sweep: &LlmSweep) -> Vec<(String, String)> {
    let rows: Vec<_> = sweep.strong.iter().map(|r| (r.gpus, r.walls)).collect();
    let first = sweep.strong.first();
    wall_figures(
        sweep,
        &rows,
        first.map(|r| (r.accumulation, r.tokens_per_replica)),
    )
}

/// With a shape, what the memory chart shows, for its text alternative: memory per GPU from
/// the first table row to the last, and the rows that do not fit. `rows` are `(N, walls,
/// MFU)` of the rows with walls.
pub(super) fn memory_summary(rows: Vec<(f64, WallPoint, f64)>) -> String {
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return String::new();
    };
    let over: Vec<String> = rows
        .iter()
        .filter(|r| !r.1.fits)
        .map(|r| format_count(r.0))
        .collect();
    let fit = if over.is_empty() {
        tr("every row fits", "每一行都放得下").to_string()
    } else {
        trf!(
            "does not fit at {} GPUs",
            "{} 卡时放不下",
            over.join(crate::text::list_sep())
        )
    };
    trf!(
        "Memory per GPU {} → {} GiB ({}).",
        "单卡显存 {} → {} GiB（{}）。",
        format_gib(first.1.memory.total),
        format_gib(last.1.memory.total),
        fit
    )
}

/// With a shape, what the MFU chart shows, for its text alternative: MFU from the first
/// table row to the last (`rows` as in [`memory_summary`]).
pub(super) fn mfu_summary(rows: Vec<(f64, WallPoint, f64)>) -> String {
    let (Some(first), Some(last)) = (rows.first(), rows.last()) else {
        return String::new();
    };
    trf!(
        "MFU {} → {}.",
        "MFU {} → {}。",
        format_percent(first.2, 1),
        format_percent(last.2, 1)
    )
}

/// The memory a layout's tensors can have, as the key figure names it: "80.0 GiB", or with a
/// reserve "77.5 GiB (80.0 GiB less 2.5 GiB reserved)".
pub(super) fn usable_text(s: &crate::model::llm::LlmSummary) -> String {
    let hbm = s.hbm_bytes.unwrap_or(0.0);
    let usable = s.usable_bytes.unwrap_or(hbm);
    if usable < hbm {
        trf!(
            "{} GiB ({} GiB less {} GiB reserved)",
            "{} GiB：{} GiB 减预留 {} GiB",
            format_gib(usable),
            format_gib(hbm),
            format_gib(hbm - usable)
        )
    } else {
        format!("{} GiB", format_gib(hbm))
    }
}
