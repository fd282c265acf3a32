//! The Plan panel's text: time to quality per strategy, the lever table, key figures,
//! DeepSeek's empirical batch as a reference, the activation-memory note, readouts.

use super::nearest;
use super::table::{Cell, Columns, Table};
use crate::chart::plan::PlanChart;
use crate::i18n::tr;
use crate::model::levers::Lever;
use crate::model::llm::LlmInputs;
use crate::model::llm::{BestLayout, LlmSweep};
use crate::model::plan::{PlanPoint, PlanRow, PlanSweep, Strategy};
use crate::scenario::{plan_inputs_for, Scenario};
use crate::text::units::{
    format_count, format_hours, format_percent, format_si, format_sig, format_speedup, format_steps,
};
use serde::Serialize;

/// A strategy's number at a row, or "–" where the strategy has no point there.
fn plan_cell(
    point: Option<PlanPoint>,
    value: fn(&PlanPoint) -> f64,
    format: impl FnOnce(f64) -> String,
) -> Cell {
    point.map_or_else(|| Cell::words("–"), |p| Cell::num(value(&p), format))
}

fn batch(p: &PlanPoint) -> f64 {
    p.batch_tokens
}

fn hours(p: &PlanPoint) -> f64 {
    p.hours_to_quality
}

/// The planner table: per GPU count, the weak headline next to time to quality, and each
/// strategy's batch and time to quality.
pub fn table(plan: &PlanSweep) -> Table {
    let si4 = |v: f64| format_si(v, 4);
    let percent = |v: f64| format_percent(v, 1);
    let columns = Columns::<PlanRow>::new()
        .column(("GPUs", "GPU 数"), |r| Cell::num(r.gpus, format_count))
        .column(("weak: B", "弱扩展：B"), move |r| {
            plan_cell(r.weak, batch, si4)
        })
        .column(
            ("weak efficiency (headline)", "弱扩展效率（报告值）"),
            move |r| Cell::num(r.vanity_weak_efficiency, percent),
        )
        .column(("weak: time to quality", "弱扩展：达标时间"), |r| {
            plan_cell(r.weak, hours, format_hours)
        })
        .column(
            ("weak: speedup to quality", "弱扩展：达标加速比"),
            |r| Cell::num(r.weak_ttq_speedup, format_speedup),
        )
        .column(
            ("weak: true efficiency", "弱扩展：真实效率"),
            move |r| Cell::num(r.weak_true_efficiency, percent),
        )
        .column(
            ("strong: time to quality", "强扩展：达标时间"),
            |r| plan_cell(r.strong, hours, format_hours),
        )
        .column(("weak→strong: B", "先弱后强：B"), move |r| {
            plan_cell(r.weak_then_strong, batch, si4)
        })
        .column(
            ("weak→strong: time to quality", "先弱后强：达标时间"),
            |r| plan_cell(r.weak_then_strong, hours, format_hours),
        )
        .column(("best B", "最优 B"), |r| {
            plan_cell(r.best, batch, |v| format_si(v, 3))
        })
        .column(("best: time to quality", "最优：达标时间"), |r| {
            plan_cell(r.best, hours, format_hours)
        })
        .column(
            ("weak→strong: GPU-hours", "先弱后强：GPU 小时"),
            |r| plan_cell(r.weak_then_strong, |p| p.gpu_hours, format_count),
        );
    // With a shape: the weak-then-strong batch's memory per GPU, marked where it does not
    // fit (the recommended GPU count is never such a row's).
    let shown = plan
        .rows
        .iter()
        .any(|r| r.weak_then_strong.is_some_and(|p| p.memory_bytes.is_some()));
    let columns = columns.column_if(
        shown,
        ("weak→strong: memory/GPU (GiB)", "先弱后强：单卡显存 (GiB)"),
        |r| match r
            .weak_then_strong
            .and_then(|p| p.memory_bytes.map(|m| (m, p.fits)))
        {
            Some((m, fits)) => Cell {
                text: if fits == Some(false) {
                    format!("{} ✗", crate::text::units::format_gib(m))
                } else {
                    crate::text::units::format_gib(m)
                },
                value: m / crate::text::units::GIB_BYTES,
            },
            None => Cell::words("–"),
        },
    );
    // With lay=best: weak-then-strong with the fastest layout that fits at each row.
    let searched = plan.rows.iter().any(|r| r.weak_then_strong_best.is_some());
    let best_point = |r: &PlanRow| r.weak_then_strong_best.and_then(|b| b.point);
    let columns = columns
        .words_if(
            searched,
            ("weak→strong: best layout", "先弱后强：最佳布局"),
            |r| match r.weak_then_strong_best.map(|b| b.best_layout) {
                Some(BestLayout::Layout(l)) => Cell::words(super::layouts::layout_summary(&l)),
                Some(BestLayout::NoneFits) => Cell::words(tr("none fits", "都放不下")),
                Some(BestLayout::NoLayout) => Cell::words(tr("no layout", "没有布局")),
                None => Cell::words("–"),
            },
        )
        .column_if(
            searched,
            (
                "weak→strong, best layout: time to quality",
                "先弱后强、最佳布局：达标时间",
            ),
            move |r| plan_cell(best_point(r), hours, format_hours),
        );
    let caption = trf!(
        "Time to quality with B_crit = {} tokens (S_min = {} steps); weak-then-strong caps B at {}",
        "达到目标质量的时间：B_crit = {} tokens（S_min = {} 步）；先弱后强时 B 上限为 {}",
        format_si(plan.critical_batch_tokens, 3),
        format_steps(plan.min_steps),
        format_si(plan.batch_cap_tokens, 3)
    );
    Table::from_columns("plan", caption, &columns, &plan.rows)
}

/// Key figures above the Plan panel: the vanity-vs-true contrast at the last row first, after
/// a warning when the weak-then-strong layout does not fit in memory at some rows (its times to
/// quality are then of a run that cannot start there).
pub fn key_figures(plan: &PlanSweep, llm: &LlmSweep) -> Vec<(String, String)> {
    let mut out = Vec::new();
    out.extend(fit_figure(plan, llm));
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
                "……但达到相同 loss 的速度只提高到",
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
    // With lay=best: the same question with the fastest layout at each table row.
    if let Some(n) = plan.best_gpus_best_layout {
        let row = plan.rows.iter().find(|r| r.gpus == n);
        let layout = row
            .and_then(|r| r.weak_then_strong_best)
            .and_then(|b| b.best_layout.layout());
        let hours_text = row
            .and_then(|r| r.weak_then_strong_best)
            .and_then(|b| b.point)
            .map(|p| format_hours(p.hours_to_quality))
            .unwrap_or_default();
        out.push((
            tr(
                "With the best layout at each row, time to quality is least at",
                "每行取最佳布局时，达标时间最短的位置",
            )
            .to_string(),
            trf!(
                "{} GPUs: {} ({})",
                "{} 卡：{}（{}）",
                format_count(n),
                hours_text,
                layout.map_or_else(String::new, |l| super::layouts::layout_summary(&l))
            ),
        ));
    }
    out
}

/// With a shape, when the weak-then-strong batch's layout does not fit at some table rows:
/// how many, and the first one's memory against what the GPU offers (`hbm − hres`).
fn fit_figure(plan: &PlanSweep, llm: &LlmSweep) -> Option<(String, String)> {
    let over: Vec<(f64, f64)> = plan
        .rows
        .iter()
        .filter_map(|r| {
            let p = r.weak_then_strong?;
            (p.fits == Some(false)).then_some((r.gpus, p.memory_bytes?))
        })
        .collect();
    let &(gpus, bytes) = over.first()?;
    let usable = llm.summary.usable_bytes?;
    let gib = crate::text::units::format_gib;
    Some((
        tr(
            "Memory per GPU (weak→strong, this layout)",
            "单卡显存（先弱后强，当前布局）",
        )
        .to_string(),
        trf!(
            "does not fit at {0} of {1} rows: {2} GiB of {3} GiB at {4} GPUs (✗ on the charts)",
            "{1} 行中有 {0} 行放不下：{4} 卡时需 {2} GiB，可用 {3} GiB（图中以 ✗ 标出）",
            format_count(over.len() as f64),
            format_count(plan.rows.len() as f64),
            gib(bytes),
            gib(usable),
            format_count(gpus)
        ),
    ))
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
    /// With a shape: what the lever adds to the busiest GPU's memory, bytes, at the baseline
    /// `N₀` and at the knee `N_max` of the inputs as typed (negative: it saves memory).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_cost_bytes: Option<(f64, f64)>,
}

/// Memory per GPU of `inputs` at `gpus` for their global batch, bytes (with a shape): what
/// the Strong table shows at that row (the EP lever's `P → P_a` is what FSDP moves, not what
/// a GPU holds: [`LlmInputs::held_params`]).
fn memory_at(inputs: &LlmInputs, gpus: f64) -> Option<f64> {
    inputs
        .wall_point(gpus, inputs.global_batch_tokens)
        .map(|w| w.memory.total)
}

/// The GPU counts the lever table's memory is read at: the baseline and the knee of the
/// inputs as typed (`N_max`, at least the baseline).
pub fn memory_points(scenario: &Scenario) -> (f64, f64) {
    let inputs = scenario.llm_inputs_without_levers();
    let n0 = inputs.baseline_gpus;
    let knee = inputs.n_max(inputs.t_crit_tokens());
    (n0, knee.max(n0))
}

/// Each lever alone against the inputs as typed, then all switched-on levers together.
pub fn lever_rows(scenario: &Scenario) -> Vec<LeverRow> {
    // Only what the row shows is computed: T_crit, N_max and the weak-then-strong time to
    // quality at the table's GPU counts — not the sweeps and the planner's curves.
    let typed = scenario.llm_inputs_without_levers();
    let (n0, knee) = memory_points(scenario);
    let memory_cost = |inputs: &LlmInputs| -> Option<(f64, f64)> {
        let cost = |n: f64| Some(memory_at(inputs, n)? - memory_at(&typed, n)?);
        Some((cost(n0)?, cost(knee)?))
    };
    let evaluate = |levers: &[Lever]| {
        let mut inputs = scenario.llm_inputs_without_levers();
        Lever::apply_all(levers, &mut inputs, scenario.plan.nvlink_bytes_per_s);
        let memory = memory_cost(&inputs);
        let t_crit = inputs.t_crit_tokens();
        let n_max = inputs.n_max(t_crit);
        let plan = plan_inputs_for(inputs, &scenario.plan, &scenario.llm);
        let best = plan
            .llm
            .gpus
            .iter()
            .filter_map(|&n| plan.evaluate(Strategy::WeakThenStrong, n))
            .map(|p| p.hours_to_quality)
            .fold(f64::INFINITY, f64::min);
        (t_crit, n_max, best, memory)
    };
    let mut rows = Vec::new();
    let (t, n, h, none) = evaluate(&[]);
    rows.push(LeverRow {
        lever: "none",
        label: tr("inputs as typed", "按输入值"),
        on: scenario.plan.levers.is_empty(),
        t_crit_tokens: t,
        n_max: n,
        best_hours: h,
        cost: "",
        memory_cost_bytes: none,
    });
    for lever in Lever::ALL {
        let (t, n, h, m) = evaluate(&[lever]);
        rows.push(LeverRow {
            lever: lever.key(),
            label: crate::text::messages::lever_label(lever),
            on: scenario.plan.levers.contains(&lever),
            t_crit_tokens: t,
            n_max: n,
            best_hours: h,
            cost: crate::text::messages::lever_cost(lever),
            memory_cost_bytes: m,
        });
    }
    if scenario.plan.levers.len() > 1 {
        let (t, n, h, m) = evaluate(&scenario.plan.levers);
        rows.push(LeverRow {
            lever: "all-on",
            label: tr("all switched-on levers together", "所有已开启手段合计"),
            on: true,
            t_crit_tokens: t,
            n_max: n,
            best_hours: h,
            cost: "",
            memory_cost_bytes: m,
        });
    }
    rows
}

/// A lever's memory cost in GiB, signed (`+3.2`, `−1.0`, `0`); a dash without a shape.
fn memory_cost_cell(bytes: Option<f64>) -> Cell {
    match bytes {
        Some(b) => {
            let gib = b / crate::text::units::GIB_BYTES;
            let text = crate::text::units::fixed(gib, 1);
            Cell {
                text: if gib > 0.05 { format!("+{text}") } else { text },
                value: gib,
            }
        }
        None => Cell::words("–"),
    }
}

/// The lever table as shown; with a shape, each lever's memory cost at `N₀` and at the knee.
pub fn lever_table(rows: &[LeverRow], points: Option<(f64, f64)>) -> Table {
    let shown = points.is_some() && rows.iter().any(|r| r.memory_cost_bytes.is_some());
    let (n0, knee) = points.unwrap_or((0.0, 0.0));
    let columns = Columns::<LeverRow>::new()
        .words(("lever", "手段"), |r| Cell::words(r.label))
        .words(("on", "已开启"), |r| {
            Cell::words(if r.on { "✓" } else { "" })
        })
        .column(("T_crit (tokens)", "T_crit（tokens）"), |r| {
            Cell::num(r.t_crit_tokens, |v| format_si(v, 3))
        })
        .column(("N_max (GPUs)", "N_max（卡）"), |r| {
            Cell::num(r.n_max, format_count)
        })
        .column(("fastest time to quality", "最快达标时间"), |r| {
            if r.best_hours.is_finite() {
                Cell::num(r.best_hours, format_hours)
            } else {
                Cell {
                    text: "–".to_string(),
                    value: r.best_hours,
                }
            }
        })
        .words(("cost", "代价"), |r| Cell::words(r.cost));
    let columns = if shown {
        columns
            .titled(
                trf!(
                    "extra memory at N₀ = {} (GiB)",
                    "N₀ = {} 时多占的显存 (GiB)",
                    format_count(n0)
                ),
                |r| memory_cost_cell(r.memory_cost_bytes.map(|m| m.0)),
            )
            .titled(
                trf!(
                    "extra memory at N_max ≈ {} (GiB)",
                    "N_max ≈ {} 时多占的显存 (GiB)",
                    format_si(knee, 2)
                ),
                |r| memory_cost_cell(r.memory_cost_bytes.map(|m| m.1)),
            )
    } else {
        columns
    };
    let caption = tr(
        "Levers that lower T_crit (each alone, against the inputs as typed)",
        "降低 T_crit 的手段（逐项单独作用，相对输入值）",
    )
    .to_string();
    Table::from_columns("levers", caption, &columns, rows)
}

/// Activation memory per GPU relative to the baseline as strong scaling shrinks `T`
/// (activations scale with tokens per microbatch): the room the memory-hungry levers can use.
/// With a shape, in GiB: what strong scaling frees from `N₀` to the knee beside what the
/// memory-hungry levers cost there (the seed's "decide together", computed).
pub fn activation_memory_note(
    llm: &LlmSweep,
    scenario: &Scenario,
    levers: &[LeverRow],
) -> Option<String> {
    if let Some(note) = freed_memory_note(scenario, levers) {
        return Some(note);
    }
    let (first, last) = (llm.strong.first()?, llm.strong.last()?);
    Some(trf!(
        "Strong scaling {} → {} GPUs cuts activation memory per GPU to {} of the baseline \
         (T {} → {} tokens), room that no-reshard and zero-bubble schedules can spend.",
        "强扩展 {} → {} 卡把每卡激活显存降到基线的 {}（T {} → {} tokens），\
         这部分空间正好可以留给不 reshard 和零气泡调度。",
        format_count(first.gpus),
        format_count(last.gpus),
        format_percent(last.tokens_per_replica / first.tokens_per_replica, 1),
        format_si(first.tokens_per_replica, 4),
        format_si(last.tokens_per_replica, 4)
    ))
}

fn freed_memory_note(scenario: &Scenario, rows: &[LeverRow]) -> Option<String> {
    let typed = scenario.llm_inputs_without_levers();
    let (n0, knee) = memory_points(scenario);
    let activations = |n: f64| {
        typed
            .wall_point(n, typed.global_batch_tokens)
            .map(|w| w.memory.activations)
    };
    let freed = activations(n0)? - activations(knee)?;
    // Each lever's cost at the baseline and at the knee: a cost that vanishes at `N_max`
    // (a zero-bubble schedule's, with few microbatches left) can be most of the GPU at `N₀`.
    let cost = |key: &str| {
        rows.iter()
            .find(|r| r.lever == key)
            .and_then(|r| r.memory_cost_bytes)
            .unwrap_or((0.0, 0.0))
    };
    let gib = |b: f64| crate::text::units::fixed(b / crate::text::units::GIB_BYTES, 1);
    let (noreshard, zero_bubble) = (cost("noreshard"), cost("zb"));
    Some(trf!(
        "Strong scaling {0} → {1} GPUs (N_max) frees {2} GiB of activations per GPU; no-reshard costs {3} GiB at {0} GPUs and {4} GiB at N_max, a zero-bubble schedule {5} GiB and {6} GiB: decide them together.",
        "强扩展 {0} → {1} 卡（N_max）为每卡释放 {2} GiB 激活显存；不 reshard 在 {0} 卡时需要 {3} GiB、在 N_max 时需要 {4} GiB，零气泡调度分别需要 {5} GiB 和 {6} GiB：两者应一起决定。",
        format_count(n0),
        format_si(knee, 2),
        gib(freed),
        gib(noreshard.0),
        gib(noreshard.1),
        gib(zero_bubble.0),
        gib(zero_bubble.1)
    ))
}

/// Hover readout on a Plan chart: the table row nearest `gpus`.
pub fn readout(plan: &PlanSweep, gpus: f64) -> Option<String> {
    let r = nearest(&plan.rows, gpus, |r| r.gpus)?;
    // No point (the batch would give less than a token per rank): said in words, not a dash.
    let h = |p: Option<PlanPoint>| {
        p.map_or_else(
            || tr("no batch fits", "没有可行的 batch").to_string(),
            |p| format_hours(p.hours_to_quality),
        )
    };
    Some(trf!(
        "{} GPUs: weak {} (headline {}, true {}), strong {}, weak→strong {}, best B {}",
        "{} 卡：弱扩展 {}（表面效率 {}，真实 {}），强扩展 {}，先弱后强 {}，最优 B {}",
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
fn time_summary(plan: &PlanSweep) -> String {
    trf!(
        "Time to the target loss against GPUs for four ways of choosing the batch. Weak scaling keeps growing the batch past B_crit = {} and gains little; weak-then-strong switches at {} GPUs and is fastest near {} GPUs.",
        "四种 batch 选法下达到目标 loss 的时间随卡数的变化。弱扩展让 batch 越过 B_crit = {} 继续增大，收益很小；先弱后强在 {} 卡切换，在约 {} 卡时最快。",
        format_si(plan.critical_batch_tokens, 3),
        format_count(plan.switch_gpus),
        format_si(plan.best_gpus_weak_then_strong, 2)
    )
}

/// The text alternative of one Plan chart: the time to quality of the four ways of choosing
/// the batch, or what the GPU-hours chart plots.
pub fn chart_summary(plan: &PlanSweep, chart: PlanChart) -> String {
    match chart {
        PlanChart::TimeToQuality => time_summary(plan),
        PlanChart::GpuHours => tr(
            "GPU-hours: N × the time to the target loss, for the same four batches.",
            "GPU 小时：N × 达到目标 loss 的时间，四种 batch 同上。",
        )
        .to_string(),
    }
}

/// DeepSeek LLM's empirical optimal batch for this run's compute, `C = 6·P_a·E(B₀)` with
/// `E(B₀) = tb` the tokens the run needs (a reference, labelled as an empirical fit).
pub fn deepseek_reference(scenario: &Scenario) -> f64 {
    crate::model::batch::deepseek_optimal_batch_tokens(
        6.0 * scenario.llm.active_params * scenario.llm.token_budget,
    )
}

/// The note under the Plan chart that puts [`deepseek_reference`] beside `B_crit`.
pub fn deepseek_note(scenario: &Scenario) -> String {
    trf!(
        "Reference: DeepSeek LLM's empirical fit B_opt ≈ 0.292·C^0.3271 gives {} tokens for this run's compute C = 6·P_a·(token budget); an empirical fit, and the critical batch grows during training, so treat B_crit as a range, not a constant.",
        "参考：DeepSeek LLM 的经验拟合 B_opt ≈ 0.292·C^0.3271 在本次训练的算力 C = 6·P_a·（token 预算）下给出 {} tokens；这只是经验拟合，而且临界批量会随训练增大，所以应把 B_crit 看作一个范围，而不是常数。",
        format_si(deepseek_reference(scenario), 3)
    )
}

/// The Plan panel's badge: its weak-then-strong sweep holds tokens per replica until the
/// global batch reaches the cap, then the batch — mixed scaling.
pub fn mode_badge(plan: &PlanSweep) -> String {
    if !plan.switch_gpus.is_finite() {
        return tr(
            "Weak scaling throughout: no batch cap stops the global batch from growing",
            "全程弱扩展：没有 batch 上限阻止 global batch 增长",
        )
        .to_string();
    }
    trf!(
        "Mixed scaling: weak (T fixed) up to {0} GPUs, where B_global reaches the cap of {1} \
         tokens; strong (B_global fixed) beyond",
        "混合扩展：{0} 卡以内为弱扩展（T 固定），此时 B_global 达到上限 {1} tokens；\
         再往上为强扩展（B_global 固定）",
        format_count(plan.switch_gpus),
        format_si(plan.batch_cap_tokens, 4)
    )
}
