//! The layout search's text: a layout written as `TP8·PP4·DP128·A8`, why a layout loses, the
//! ranked table and the key figures of one GPU count (`scaling layouts`, the layout explorer).

use super::table::{Cell, Columns, Table};
use crate::i18n::tr;
use crate::model::layouts::{Loss, MemoryPart, Scored, Search, SearchError, TimePart};
use crate::text::units::{format_count, format_gib, format_ms, format_percent, format_rate};

pub use crate::text::layout::{layout_name, layout_summary, recompute_text, schedule_name};

fn memory_part(part: MemoryPart) -> &'static str {
    match part {
        MemoryPart::Weights => tr("weights", "权重"),
        MemoryPart::Gathered => tr("gathered weights", "已 gather 的权重"),
        MemoryPart::Grads => tr("gradients", "梯度"),
        MemoryPart::Optimizer => tr("optimizer state", "优化器状态"),
        MemoryPart::Activations => tr("activations", "激活"),
    }
}

fn time_part(part: TimePart) -> &'static str {
    match part {
        TimePart::Kernels => tr("small kernels", "kernel 变小"),
        TimePart::Stages => tr("the last stage's output layer", "末级流水线上的输出层"),
        TimePart::Recompute => tr("recomputation", "重计算"),
        TimePart::Bubble => tr("pipeline bubble", "流水线气泡"),
        TimePart::DataParallel => tr("exposed data-parallel traffic", "暴露的数据并行通信"),
        TimePart::Tp => tr("TP traffic", "TP 通信"),
        TimePart::Cp => tr("CP traffic", "CP 通信"),
        TimePart::Ep => tr("EP all-to-all", "EP all-to-all 通信"),
        TimePart::Pp => tr("pipeline sends", "流水线点对点发送"),
        TimePart::Optimizer => tr("the optimizer step", "优化器更新"),
        TimePart::Offload => tr("activation offloading", "激活卸载"),
    }
}

/// Why a layout loses, in words: "does not fit: 12.3 GiB over (activations)", "fastest", or
/// the whole gap to the fastest and the part that loses the most, with what the other parts
/// add or give back: "+121.44 ms: TP traffic +687.19 ms, the rest −565.75 ms" (one part's
/// excess alone would read as the gap).
pub fn why_text(why: &Loss) -> String {
    match why {
        Loss::Best => tr("fastest", "最快").to_string(),
        Loss::Tie => tr(
            "as fast (more GPUs per replica or memory)",
            "一样快（但每副本占卡更多或显存更多，故排在后面）",
        )
        .to_string(),
        Loss::DoesNotFit { over_bytes, part } => trf!(
            "does not fit: {} GiB over ({})",
            "放不下：超出 {} GiB（{}）",
            format_gib(*over_bytes),
            memory_part(*part)
        ),
        Loss::Slower {
            part,
            by_ms,
            gap_ms,
        } => {
            let rest = gap_ms - by_ms;
            let rest_text = format_ms(rest.abs());
            if rest_text == format_ms(0.0) {
                return trf!(
                    "+{0} ms: {1}",
                    "慢 {0} ms：全在{1}",
                    format_ms(*gap_ms),
                    time_part(*part)
                );
            }
            let (sign, more) = if rest < 0.0 {
                ("−", "少")
            } else {
                ("+", "多")
            };
            trf!(
                "+{0} ms: {1} +{2} ms, the rest {3}{4} ms",
                "慢 {0} ms：{1}多 {2} ms，其余{5} {4} ms",
                format_ms(*gap_ms),
                time_part(*part),
                format_ms(*by_ms),
                sign,
                rest_text,
                more
            )
        }
    }
}

/// The search at `gpus` GPUs of `scenario`: at the strong sweep's batch, or at the weak
/// sweep's batch there when the scenario opens on the weak panel; the message names why it
/// cannot run.
pub fn search_at(scenario: &crate::scenario::Scenario, gpus: f64) -> Result<Search, String> {
    let inputs = scenario.llm_inputs();
    let batch = scenario.search_batch_tokens(&inputs, gpus);
    let space = scenario.llm.search_space();
    Search::run(&inputs, &space, gpus, batch).map_err(|e| error_text(&e))
}

/// A "why the search cannot run" message.
pub fn error_text(e: &SearchError) -> String {
    match e {
        SearchError::NoShape => tr(
            "the layout search needs the model's shape (nl, hd, nh, sq, voc)",
            "布局搜索需要模型形状（nl、hd、nh、sq、voc）",
        )
        .to_string(),
        SearchError::NoLayout { gpus } => trf!(
            "no layout divides {} GPUs with at least one sequence per replica",
            "没有布局能把 {} 卡分开并使每个副本至少有一条序列",
            format_count(*gpus)
        ),
    }
}

/// The ranked layouts in groups that tie: consecutive layouts that fit with the same step
/// (to `10⁻¹²`), each group `(first index, length)` in the ranking. The scenario's own layout
/// always leads a group of its own, so its row and its "Use" reproduce it. A tie differs
/// only in what the step does not charge (a CP degree whose traffic hides, a ZeRO stage whose
/// data-parallel traffic hides), so one row and one "Use" link stand for it.
pub fn tie_groups(search: &Search) -> Vec<(usize, usize)> {
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for (i, s) in search.layouts.iter().enumerate() {
        let joins = groups.last().is_some_and(|&(first, _)| {
            let lead = &search.layouts[first];
            lead.fits
                && s.fits
                && search.current_rank != Some(i)
                && search.current_rank != Some(first)
                && (s.step_ms - lead.step_ms).abs() <= 1e-12 * lead.step_ms
        });
        match groups.last_mut() {
            Some(g) if joins => g.1 += 1,
            _ => groups.push((i, 1)),
        }
    }
    groups
}

/// What the layouts of a tie group differ in, `"CP 2, 4, 8; ZeRO 1, 2"`: each dimension with
/// more than one value among them, its values in ranking order.
pub fn tie_text(search: &Search, (first, len): (usize, usize)) -> String {
    let group = &search.layouts[first..first + len];
    type Dimension = (&'static str, fn(&Scored) -> String);
    let dims: [Dimension; 9] = [
        ("TP", |s| s.choice.tp.to_string()),
        ("PP", |s| s.choice.pp.to_string()),
        ("CP", |s| s.choice.cp.to_string()),
        ("EP", |s| s.choice.ep.to_string()),
        ("ETP", |s| match s.choice.expert_tp {
            0 => s.choice.tp.to_string(),
            etp => etp.to_string(),
        }),
        ("mbs", |s| s.choice.microbatch_sequences.to_string()),
        ("ZeRO", |s| s.choice.zero.to_string()),
        ("sched", schedule_name),
        ("ac", recompute_text),
    ];
    dims.iter()
        .filter_map(|(name, value)| {
            let mut values: Vec<String> = Vec::new();
            for v in group.iter().map(value) {
                if !values.contains(&v) {
                    values.push(v);
                }
            }
            (values.len() > 1).then(|| format!("{name} {}", values.join(tr(", ", "、"))))
        })
        .collect::<Vec<_>>()
        .join(tr("; ", "；"))
}

/// The ranked layouts, the first `top` tie groups ([`tie_groups`]) one row each, and the
/// scenario's own (marked) if it is not among them.
pub fn layouts_table(search: &Search, top: usize) -> Table {
    /// A row: the rank of its first layout (0: not searched), how many tie, whether it is
    /// the scenario's own, the layout, and what the tied ones differ in.
    type Row = (usize, usize, bool, Scored, String);
    let mut rows: Vec<Row> = tie_groups(search)
        .into_iter()
        .take(top)
        .map(|(first, len)| {
            let ties = if len > 1 {
                trf!(
                    "; {} more as fast ({})",
                    "；另有 {} 个一样快（{}）",
                    len - 1,
                    tie_text(search, (first, len))
                )
            } else {
                String::new()
            };
            (
                first + 1,
                len,
                search.current_rank == Some(first),
                search.layouts[first],
                ties,
            )
        })
        .collect();
    if !rows.iter().any(|r| r.2) {
        let rank = search.current_rank.map_or(0, |r| r + 1);
        // Not searched: said in the wide "why" column, so the narrow rank column stays a word.
        let note = if rank == 0 {
            tr("; not in the search space", "；不在搜索空间内").to_string()
        } else {
            String::new()
        };
        rows.push((rank, 1, true, search.current, note));
    }
    let columns = Columns::<Row>::new()
        .words(("rank", "排名"), |r| {
            Cell::words(match (r.0, r.1, r.2) {
                (0, _, _) => tr("current", "当前").to_string(),
                (n, _, true) => trf!("{} (current)", "{}（当前）", n),
                (n, 1, false) => n.to_string(),
                (n, len, false) => format!("{n}…{}", n + len - 1),
            })
        })
        .words(("layout", "布局"), |r| Cell::words(layout_name(&r.3)))
        .column(("microbatch (tokens)", "microbatch (tokens)"), |r| {
            Cell::num(r.3.tokens_per_microbatch, |v| {
                crate::text::units::format_si(v, 4)
            })
        })
        .minor()
        .words(("schedule", "调度"), |r| Cell::words(schedule_name(&r.3)))
        .minor()
        .column(("ZeRO", "ZeRO"), |r| {
            Cell::num(r.3.choice.zero as f64, format_count)
        })
        .minor()
        .words(("recompute", "重计算"), |r| {
            Cell::words(recompute_text(&r.3))
        })
        .minor()
        .column(("step (ms)", "单步 (ms)"), |r| {
            Cell::num(r.3.step_ms, format_ms)
        })
        .column(("MFU", "MFU"), |r| {
            Cell::num(r.3.mfu, |v| format_percent(v, 1))
        })
        .column(("tokens/s", "tokens/s"), |r| {
            Cell::num(r.3.tokens_per_s, format_rate)
        })
        .minor()
        .column(("memory/GPU (GiB)", "单卡显存 (GiB)"), |r| {
            Cell::num(r.3.memory.total / crate::text::units::GIB_BYTES, |v| {
                crate::text::units::fixed(v, 1)
            })
        })
        .words(("why", "原因"), |r| {
            Cell::words(format!("{}{}", why_text(&r.3.why), r.4))
        });
    let caption = trf!(
        "Layouts at {} GPUs, fastest first ({} searched, {} fit)",
        "{} 卡的布局，从快到慢（搜索 {} 个，{} 个放得下）",
        format_count(search.gpus),
        format_count(search.layouts.len() as f64),
        format_count(search.layouts.iter().filter(|s| s.fits).count() as f64)
    );
    let mut table = Table::from_columns("layouts", caption, &columns, &rows);
    table.fold = Some((
        1,
        rows.iter()
            .map(|r| crate::text::layout::layout_choices(&r.3))
            .collect(),
    ));
    table
}

/// What the search's steps are relative to, when choosing a layout would not reproduce them:
/// with a constant-rate compute (`cm` not physics) `F_eff` is the rate of the scenario's *own*
/// layout at `N₀` and the search charges each layout's kernels and recomputation against it
/// (docs/model/14-layout-search.md), so a layout typed in becomes the new reference and every step
/// moves; and the search's exposed time is always the layout model's, while the panel's rows follow
/// `em`. `None` when a chosen layout shows the step it was listed with (`cm=physics`,
/// `em=fsdp`: each layout's rate is `r_inf·peak·η` of its own).
pub fn ranking_basis(l: &crate::scenario::LlmSettings) -> Option<(String, String)> {
    use crate::scenario::llm::{ComputeMode, ExposedMode};
    let (cm, em) = (l.compute_in_force(), l.exposed_in_force());
    let relative = cm != ComputeMode::Physics || em == ExposedMode::Fit;
    let text = match (relative, em == ExposedMode::Fsdp) {
        (false, true) => return None,
        (true, true) => tr(
            "relative to the scenario's own layout: F_eff is its rate at N₀, so after \"Use\" the new layout is the reference and the steps move; cm=physics rates each layout on its own",
            "以场景自身的布局为基准：F_eff 是该布局在 N₀ 时的实际算力，点“使用”后新布局成为基准，各单步时间随之变化；cm=physics 按每个布局自身的实际算力计算",
        ),
        (false, false) => tr(
            "exposed time from the layout model (em=fsdp), while the rows use em; with em=fsdp a chosen layout shows the step it was listed with",
            "暴露时间来自布局模型（em=fsdp），而表格各行按 em 计算；em=fsdp 时选中的布局与列出的单步时间一致",
        ),
        (true, false) => tr(
            "relative to the scenario's own layout (F_eff is its rate at N₀), with exposed time from the layout model; cm=physics and em=fsdp make a chosen layout show the step it was listed with",
            "以场景自身的布局为基准（F_eff 是该布局在 N₀ 时的实际算力），暴露时间来自布局模型；cm=physics 与 em=fsdp 时选中的布局与列出的单步时间一致",
        ),
    };
    Some((
        tr("Layout steps are", "布局单步时间的基准").to_string(),
        text.to_string(),
    ))
}

/// The key figures of a search: the fastest layout, and where the scenario's own stands.
/// The step difference the model cannot resolve between two layouts: its median |step
/// error| on the published runs of the same model at another scale or layout
/// (`panel::machine_runs`, docs/model/14-layout-search.md; `tests/core/machines.rs` holds the
/// constant to that figure).
pub const LAYOUT_RESOLUTION: f64 = 0.014;

pub fn layouts_figures(search: &Search) -> Vec<(String, String)> {
    let mut out = Vec::new();
    match search.best() {
        Some(best) => out.push((
            tr("Fastest layout that fits", "放得下的最快布局").to_string(),
            trf!(
                "{}: {} ms, MFU {}",
                "{}：{} ms，MFU {}",
                layout_summary(best),
                format_ms(best.step_ms),
                format_percent(best.mfu, 1)
            ),
        )),
        None => out.push((
            tr("Fastest layout that fits", "放得下的最快布局").to_string(),
            trf!(
                "none of the {} layouts fits in the GPU's memory",
                "{} 个布局都放不进单卡显存",
                format_count(search.layouts.len() as f64)
            ),
        )),
    }
    if let Some(best) = search.best() {
        let band = search
            .layouts
            .iter()
            .filter(|l| l.fits && l.step_ms <= (1.0 + LAYOUT_RESOLUTION) * best.step_ms)
            .count();
        out.push((
            trf!(
                "Within the model's resolution ({} of the fastest)",
                "在模型分辨率之内（距最快 {} 以内）",
                format_percent(LAYOUT_RESOLUTION, 1)
            ),
            trf!(
                "{} layouts: their order is finer than the model's error on published runs",
                "{} 个布局：它们之间的先后比模型在公布的训练任务上的误差还细",
                format_count(band as f64)
            ),
        ));
    }
    let c = &search.current;
    let rank = search.current_rank.map_or_else(
        || tr("not in the search space", "不在搜索空间内").to_string(),
        |r| trf!("rank {}", "第 {} 名", format_count(r as f64 + 1.0)),
    );
    out.push((
        tr("The scenario's own layout", "场景自身的布局").to_string(),
        trf!(
            "{}: {} ms, MFU {}, {}; {}",
            "{}：{} ms，MFU {}，{}；{}",
            layout_name(c),
            format_ms(c.step_ms),
            format_percent(c.mfu, 1),
            rank,
            why_text(&c.why)
        ),
    ));
    out
}

/// `scaling layouts --format json`: the first `top` layouts, each with its `rank` (1 = the
/// fastest) and `current: true` on the scenario's own, then the scenario's own layout with
/// its rank (`null` when the search space does not hold it).
pub fn layouts_json(search: &Search, top: usize) -> serde_json::Value {
    let entry = |s: &Scored, rank: Option<usize>, current: bool| {
        let mut v = serde_json::to_value(s).unwrap_or_default();
        if let Some(o) = v.as_object_mut() {
            // The layout's own fields (tp, pp, cp, ep, sched, vc, zero, ac, …) at the top.
            if let Some(serde_json::Value::Object(choice)) = o.remove("choice") {
                o.extend(choice);
            }
            o.insert("rank".into(), serde_json::json!(rank.map(|r| r + 1)));
            o.insert("current".into(), serde_json::json!(current));
            o.insert("layout".into(), serde_json::json!(layout_name(s)));
        }
        v
    };
    serde_json::json!({
        "gpus": search.gpus,
        "batch_tokens": search.batch_tokens,
        "searched": search.layouts.len(),
        "fitting": search.layouts.iter().filter(|s| s.fits).count(),
        "layouts": search
            .layouts
            .iter()
            .take(top)
            .enumerate()
            .map(|(i, s)| entry(s, Some(i), search.current_rank == Some(i)))
            .collect::<Vec<_>>(),
        "current": entry(&search.current, search.current_rank, true),
    })
}

/// Rows of the layout explorer (`lx`): the fastest this many, then the scenario's own.
pub const EXPLORER_ROWS: usize = 10;

/// The explorer's "use this layout" links (`www/index.html`), one per fastest layout.
pub const USE_IDS: [&str; 5] = [
    "strong-layout-use-1",
    "strong-layout-use-2",
    "strong-layout-use-3",
    "strong-layout-use-4",
    "strong-layout-use-5",
];

/// The scenario with `s`'s layout typed in (`tp`, `pp`, `cp`, `ep`, `etp`, `mbs`, `sched`, `vc`,
/// `zero`, `ac`, `acn`): the query a "use" link opens, or `None` when that layout breaks one of the
/// scenario's other rules (its GPU counts are not multiples of the new TP·PP·CP, say).
pub fn use_query(scenario: &crate::scenario::Scenario, s: &Scored) -> Option<String> {
    use crate::scenario::Key;
    let c = &s.choice;
    let values = [
        (Key::Tp, c.tp.to_string()),
        (Key::Pp, c.pp.to_string()),
        (Key::Cp, c.cp.to_string()),
        (Key::Ep, c.ep.to_string()),
        (Key::Etp, c.expert_tp.to_string()),
        (Key::Microbatch, c.microbatch_sequences.to_string()),
        (Key::Schedule, c.schedule.key().to_string()),
        (Key::Chunks, c.chunks.to_string()),
        (Key::Zero, c.zero.to_string()),
        (Key::Recompute, c.recompute.key().to_string()),
        (Key::RecomputeLayers, c.recompute_layers.to_string()),
        (Key::OffloadLayers, c.offload_layers.to_string()),
    ];
    scenario.with_values(&values).map(|next| next.to_query())
}

/// The explorer's "use" links, `(text, query)`, one per [`USE_IDS`]: the first layout of each of
/// the fastest tie groups ([`tie_groups`]) that fit, each typed into the scenario and named by
/// its rank (an empty query hides the link).
pub fn use_links(
    scenario: &crate::scenario::Scenario,
    explorer: Option<&Result<Search, String>>,
) -> Vec<(String, String)> {
    let search = explorer.and_then(|e| e.as_ref().ok());
    let groups = search.map(tie_groups).unwrap_or_default();
    (0..USE_IDS.len())
        .map(|i| {
            search
                .zip(groups.get(i))
                .map(|(search, &(first, _))| (first, search.layouts[first]))
                .filter(|(_, s)| s.fits)
                .and_then(|(first, s)| {
                    let query = use_query(scenario, &s)?;
                    Some((
                        trf!(
                            "Use #{}: {}",
                            "使用第 {} 名：{}",
                            first + 1,
                            layout_summary(&s)
                        ),
                        query,
                    ))
                })
                .unwrap_or_default()
        })
        .collect()
}

/// The first `top` tie groups' layouts ([`tie_groups`], one each as the explorer's rows and
/// "Use" links) as `tool`'s launch settings: each its rank and name in a comment, then the
/// settings of the scenario with it typed in ([`use_query`]); a layout the scenario cannot
/// take (another of its rules) says so.
pub fn rows_launch_settings(
    scenario: &crate::scenario::Scenario,
    search: &Search,
    top: usize,
    tool: crate::scenario::export::Tool,
) -> String {
    let mut out = String::new();
    for (first, _) in tie_groups(search).into_iter().take(top) {
        let s = &search.layouts[first];
        out.push_str(&format!("# {}: {}\n", first + 1, layout_summary(s)));
        match use_query(scenario, s).map(|q| crate::scenario::decode(&q).scenario) {
            Some(next) => out.push_str(&crate::scenario::export::launch_settings(
                &next,
                tool,
                search.gpus,
            )),
            None => out.push_str("# not a layout this scenario can take\n"),
        }
        out.push('\n');
    }
    out
}

/// The explorer's key figures (`lx`): the fastest layout and the scenario's own, or why there
/// is no ranking (the message names the shape or the GPU count).
pub fn explorer_figures(
    explorer: &Result<Search, String>,
    l: &crate::scenario::LlmSettings,
) -> Vec<(String, String)> {
    match explorer {
        Ok(search) => layouts_figures(search)
            .into_iter()
            .chain(ranking_basis(l))
            .collect(),
        Err(message) => vec![(
            tr("Layout explorer (lx)", "布局搜索（lx）").to_string(),
            message.clone(),
        )],
    }
}
