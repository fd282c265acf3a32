//! The reporting checklist (MODEL.md §5; the seed's "报告扩容结果时应该说清楚的事"): for the
//! current scenario, a paragraph in English and Chinese that states the four points a scaling
//! claim needs, and warnings where the scenario breaks one.
//!
//! 1. what is fixed, `B_global` or `T` (strong or weak scaling);
//! 2. the baseline GPU count the efficiency is relative to;
//! 3. whether the parallel configuration changed (then it is neither pure strong nor weak);
//! 4. whether a validation loss–token curve backs it.

use crate::i18n::fill;
use crate::model::llm::{LlmSweep, StrongRow, WeakRow};
use crate::model::plan::{PlanRow, PlanSweep};
use crate::scenario::llm::ComputeMode;
use crate::scenario::{LlmSettings, Scenario};
use crate::text::units::format_rate;
use crate::text::units::{format_count, format_percent, format_si, format_sig};
use serde::Serialize;

/// One warning in both languages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Warning {
    pub en: String,
    pub zh: String,
}

/// The generated report.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    pub en: String,
    pub zh: String,
    pub warnings: Vec<Warning>,
}

/// Builds the report for a scenario from its sweeps.
pub fn report(scenario: &Scenario, llm: &LlmSweep, plan: &PlanSweep) -> Report {
    let (Some(strong_first), Some(strong_last)) = (llm.strong.first(), llm.strong.last()) else {
        return Report::default();
    };
    // The throughput starts where the efficiency does: at the baseline's row, or at the
    // first row when `N₀` is not one of the table's counts (the sentence names the count).
    let strong_start = llm
        .strong
        .iter()
        .find(|row| row.gpus == llm.summary.baseline_gpus)
        .unwrap_or(strong_first);
    let mut text = strong_sentence(
        scenario.llm.global_batch_tokens,
        llm,
        strong_start,
        strong_last,
    );
    if let (Some(weak_last), Some(plan_last)) = (llm.weak.last(), plan.rows.last()) {
        text.append(weak_sentence(llm, plan, weak_last, plan_last));
    }
    text.append(configuration_sentence(&scenario.llm, llm));
    text.append(loss_curve_sentence(scenario.plan.loss_curve));
    let warnings = [
        batch_warning(scenario, llm, plan),
        knee_warning(llm, strong_last),
        extrapolation_warning(llm, strong_first),
        levers_warning(scenario),
        experts_warning(scenario),
    ]
    .into_iter()
    .flatten()
    .collect();
    Report {
        en: text.en,
        zh: text.zh,
        warnings,
    }
}

/// The report's paragraph as it is written, sentence by sentence, in both languages.
struct Paragraph {
    en: String,
    zh: String,
}

impl Paragraph {
    fn append(&mut self, next: Paragraph) {
        self.en.push_str(&next.en);
        self.zh.push_str(&next.zh);
    }
}

/// Point 1 and 2 for strong scaling: the fixed global batch, the baseline, the efficiency and
/// throughput at the last GPU count, and where the knee is. The throughput goes from `start`'s
/// row to the last, each named with its GPU count, so every number is one the table shows.
fn strong_sentence(
    global_batch_tokens: f64,
    llm: &LlmSweep,
    start: &StrongRow,
    last: &StrongRow,
) -> Paragraph {
    let b = format_si(global_batch_tokens, 4);
    let n0 = format_count(llm.summary.baseline_gpus);
    let n1 = format_count(last.gpus);
    // Both languages fill the same arguments (one code path: the size budget counts).
    let eff = format_percent(last.efficiency, 1);
    let (tp0, tp1) = (
        format_rate(start.throughput_tokens_per_s),
        format_rate(last.throughput_tokens_per_s),
    );
    let n_start = format_count(start.gpus);
    let peak = format_count(llm.summary.peak_throughput_gpus);
    let (t_crit, n_max) = (
        format_si(llm.summary.t_crit_tokens, 3),
        format_si(llm.summary.n_max, 2),
    );
    let strong: [&dyn std::fmt::Display; 10] = [
        &b, &n0, &n1, &eff, &tp0, &tp1, &peak, &t_crit, &n_max, &n_start,
    ];
    Paragraph {
        en: fill(
            "Strong scaling (global batch fixed at {0} tokens): from a baseline of {1} GPUs to {2} GPUs, \
             parallel efficiency is {3} and throughput goes from {4} tokens/s at {9} GPUs to {5} at {2} (peak at {6} GPUs; T_crit = {7} \
             tokens per replica puts the knee near {8} GPUs). ",
            &strong,
        ),
        zh: fill(
            "强扩展（固定 global batch = {0} tokens）：以 {1} 卡为基线扩到 {2} 卡，并行效率 {3}，吞吐从 {9} 卡的 {4} \
             到 {2} 卡的 {5} tokens/s（峰值在 {6} 卡；T_crit = {7} tokens/副本，拐点约在 {8} 卡）。",
            &strong,
        ),
    }
}

/// Point 1 for weak scaling: the fixed tokens per replica, the weak-scaling efficiency, and
/// what the grown global batch costs in time to quality (the critical-batch model).
fn weak_sentence(
    llm: &LlmSweep,
    plan: &PlanSweep,
    last: &WeakRow,
    plan_last: &PlanRow,
) -> Paragraph {
    let t = format_si(llm.weak.first().map_or(0.0, |r| r.tokens_per_replica), 4);
    let n0 = format_count(llm.summary.baseline_gpus);
    let (gpus, weff, batch) = (
        format_count(last.gpus),
        format_percent(last.efficiency, 1),
        format_si(last.global_batch_tokens, 4),
    );
    let over = format_sig(last.global_batch_tokens / plan.critical_batch_tokens, 3);
    let crit = format_si(plan.critical_batch_tokens, 3);
    let (speedup, true_eff) = (
        format_sig(plan_last.weak_ttq_speedup, 3),
        format_percent(plan_last.weak_true_efficiency, 1),
    );
    let weak: [&dyn std::fmt::Display; 9] = [
        &t, &n0, &gpus, &weff, &batch, &over, &crit, &speedup, &true_eff,
    ];
    Paragraph {
        en: fill(
            "Weak scaling (tokens per replica fixed at {0}): from {1} to {2} GPUs, weak-scaling efficiency \
             is {3}, but the global batch grows to {4} tokens ({5}× B_crit = {6}); with the critical-batch \
             model the time to the same loss falls only {7}× (true efficiency {8}). ",
            &weak,
        ),
        zh: fill(
            "弱扩展（固定每副本 {0} tokens）：从 {1} 卡到 {2} 卡，弱扩展效率 {3}，但 global batch 增大到 {4} \
             tokens（临界批量 B_crit = {6} 的 {5} 倍）；按临界批量模型，达到相同 loss 的速度只提高到 {7} 倍（真实效率 {8}）。",
            &weak,
        ),
    }
}

/// Point 3: the parallel configuration. The layout (TP, PP, CP) is the scenario's at every
/// GPU count; the accumulation `A` is too unless a fixed microbatch (`mbs`) sets it from the
/// tokens per replica, and then the sentence says how it moves in each sweep — read from the
/// rows the tables show, so the words cannot contradict them.
fn configuration_sentence(s: &LlmSettings, llm: &LlmSweep) -> Paragraph {
    let layout = format!("TP={}, PP={}, CP={}", s.tp, s.pp, s.cp);
    let span = |a: &[u32]| -> Option<(u32, u32)> { Some((*a.first()?, *a.last()?)) };
    let strong: Vec<u32> = llm.strong.iter().map(|r| r.accumulation).collect();
    let weak: Vec<u32> = llm.weak.iter().map(|r| r.accumulation).collect();
    let all = || strong.iter().chain(&weak);
    let first = all().next().copied().unwrap_or(s.accumulation);
    if all().all(|&a| a == first) {
        let config = format!("{layout}, A={first}");
        return Paragraph {
            en: format!(
                "The parallel configuration ({config}) is the same at every GPU count, so these are pure \
                 strong and weak scaling. "
            ),
            zh: format!("所有卡数下并行配置（{config}）不变，因此是纯粹的强扩展和弱扩展。"),
        };
    }
    let moves = |a: &[u32], en: &str, zh: &str| {
        span(a).map(|(from, to)| {
            let a = if from == to {
                format!("A = {from}")
            } else {
                format!("A = {from} → {to}")
            };
            (format!("{a} {en}"), format!("{zh} {a}"))
        })
    };
    let (en, zh): (Vec<String>, Vec<String>) = [
        moves(&strong, "in strong scaling", "强扩展时"),
        moves(&weak, "in weak scaling", "弱扩展时"),
    ]
    .into_iter()
    .flatten()
    .unzip();
    Paragraph {
        en: format!(
            "The layout ({layout}) is the same at every GPU count, but with the microbatch fixed the \
             gradient accumulation is not: {}. ",
            en.join(", ")
        ),
        zh: format!(
            "所有卡数下布局（{layout}）不变，但 microbatch 固定，梯度累积步数随卡数变化：{}。",
            zh.join("，")
        ),
    }
}

/// Point 4: whether a validation loss–token curve backs the numbers.
fn loss_curve_sentence(loss_curve: bool) -> Paragraph {
    let (en, zh) = if loss_curve {
        (
            "A validation loss–token curve backs these numbers.",
            "以上结论有 validation loss–token 曲线支撑。",
        )
    } else {
        (
            "No validation loss–token curve backs these numbers: they are throughput, not time to quality.",
            "以上数字没有 validation loss–token 曲线支撑：它们是吞吐，不是 time-to-quality。",
        )
    };
    Paragraph {
        en: en.to_string(),
        zh: zh.to_string(),
    }
}

/// Weak scaling far past the critical batch, reported as throughput only.
fn batch_warning(scenario: &Scenario, llm: &LlmSweep, plan: &PlanSweep) -> Option<Warning> {
    let w = llm.weak.last()?;
    let over = w.global_batch_tokens / plan.critical_batch_tokens;
    (over > 2.0 && !scenario.plan.loss_curve).then(|| Warning {
        en: format!(
            "Weak scaling reaches {} tokens per step, {}× the critical batch, and is reported \
             only as throughput: token efficiency is {}; report time to quality with a loss–token curve.",
            format_si(w.global_batch_tokens, 4),
            format_sig(over, 3),
            format_percent(1.0 / (1.0 + over), 1)
        ),
        zh: format!(
            "弱扩展的 global batch 达到 {} tokens，是临界批量的 {} 倍，却只报告了吞吐：token 效率只有 {}；\
             应报告 time-to-quality 并给出 loss–token 曲线。",
            format_si(w.global_batch_tokens, 4),
            format_sig(over, 3),
            format_percent(1.0 / (1.0 + over), 1)
        ),
    })
}

/// Strong scaling past the knee, where exposed communication sets the step time.
fn knee_warning(llm: &LlmSweep, strong_last: &StrongRow) -> Option<Warning> {
    (strong_last.gpus > llm.summary.n_max).then(|| Warning {
        en: format!(
            "Strong scaling goes past N_max ≈ {} GPUs: tokens per replica ({}) fall below T_crit ({}), \
             so exposed communication, not compute, sets the step time.",
            format_si(llm.summary.n_max, 2),
            format_si(strong_last.tokens_per_replica, 3),
            format_si(llm.summary.t_crit_tokens, 3)
        ),
        zh: format!(
            "强扩展超过了 N_max ≈ {} 卡：每副本 tokens（{}）低于 T_crit（{}），单步时间由暴露的通信而不是计算决定。",
            format_si(llm.summary.n_max, 2),
            format_si(strong_last.tokens_per_replica, 3),
            format_si(llm.summary.t_crit_tokens, 3)
        ),
    })
}

/// Exposed times beyond the measured GPU counts (the tables star them).
fn extrapolation_warning(llm: &LlmSweep, strong_first: &StrongRow) -> Option<Warning> {
    let extrapolated = llm
        .strong
        .iter()
        .chain([strong_first])
        .any(|r| r.extrapolated);
    extrapolated.then(|| Warning {
        en: "Some exposed times are extrapolated beyond the measured GPU counts (marked *)."
            .to_string(),
        zh: "部分暴露时间是在实测卡数范围之外外推的（标 *）。".to_string(),
    })
}

/// Levers switched on: the numbers are a projection.
fn levers_warning(scenario: &Scenario) -> Option<Warning> {
    if scenario.plan.levers.is_empty() {
        return None;
    }
    let names: Vec<&str> = scenario.plan.levers.iter().map(|l| l.key()).collect();
    Some(Warning {
        en: format!(
            "Levers are switched on ({}): the numbers are a projection, not the measured configuration.",
            names.join(", ")
        ),
        zh: format!("已开启降低 T_crit 的手段（{}）：数字是推算，不是实测配置。", names.join("、")),
    })
}

/// How far the model's step fell short of NVIDIA's published mixture-of-experts runs
/// (`scaling layouts --published`, the rows predicted with another model's calibration,
/// docs/model/14-layout-search.md): the figures the report's MoE warning states.
/// `tests/core/machines.rs` holds them to the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpertsShortfall {
    /// Rows of the models with 64 experts or more (Qwen3, DeepSeek-V3).
    pub many_rows: usize,
    /// Of those, the rows whose modelled step is shorter than the published one.
    pub many_short: usize,
    /// Their median of `1 − model/published`.
    pub many_median: f64,
    /// The least and the most `1 − model/published` of the models with fewer experts
    /// (Mixtral 8x7B, Llama 4 Scout).
    pub few_least: f64,
    pub few_most: f64,
}

/// The published rows' figures (see [`ExpertsShortfall`]).
pub const EXPERTS_SHORTFALL: ExpertsShortfall = ExpertsShortfall {
    many_rows: 19,
    many_short: 18,
    many_median: 0.343,
    few_least: 0.041,
    few_most: 0.108,
};

/// A mixture of experts whose compute comes from the peak (`cm=physics`): the published MoE
/// runs ran slower than the model predicts, and the model has no time for what they pay
/// besides FLOPs and traffic.
fn experts_warning(scenario: &Scenario) -> Option<Warning> {
    let llm = &scenario.llm;
    if llm.walls.experts <= 1.0 || llm.compute_in_force() != ComputeMode::Physics {
        return None;
    }
    Some(experts_text(&EXPERTS_SHORTFALL))
}

/// The MoE warning's sentences for the figures `f`.
fn experts_text(f: &ExpertsShortfall) -> Warning {
    let pct = |x: f64| format_percent(x, 0);
    let (rows_en, rows_zh) = if f.many_short == f.many_rows {
        (
            format!("all {} rows", f.many_rows),
            format!("{} 行全部偏短", f.many_rows),
        )
    } else {
        (
            format!("{} of {} rows", f.many_short, f.many_rows),
            format!("{} 行中有 {} 行偏短", f.many_rows, f.many_short),
        )
    };
    Warning {
        en: format!(
            "This mixture of experts is computed from the peak (cm=physics). On NVIDIA's published \
             runs the model's step came out short: for Qwen3 and DeepSeek-V3 (128 and 256 experts) \
             in {rows_en}, by {} at the median; for Mixtral 8x7B and Llama 4 Scout (8 and 16 \
             experts) by {} to {}. The model has no time for the router, the grouped GEMMs' \
             per-expert launches or the token dispatcher's synchronisation: expect a slower step.",
            pct(f.many_median),
            pct(f.few_least),
            pct(f.few_most)
        ),
        zh: format!(
            "这个混合专家模型的计算时间由峰值算出（cm=physics）。对照 NVIDIA 公布的训练任务，模型给出的\
             单步时间偏短：Qwen3 和 DeepSeek-V3（128 和 256 个专家）{rows_zh}，中位数短 {}；\
             Mixtral 8x7B 和 Llama 4 Scout（8 和 16 个专家）短 {} 到 {}。模型没有计入路由、分组 GEMM \
             按专家的启动开销和 token 分发的同步时间：实际单步会更慢。",
            pct(f.many_median),
            pct(f.few_least),
            pct(f.few_most)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "all n rows" when every row ran slower, "k of n rows" otherwise.
    #[test]
    fn experts_text_counts_the_rows() {
        let f = ExpertsShortfall {
            many_rows: 19,
            many_short: 18,
            many_median: 0.3425,
            few_least: 0.041,
            few_most: 0.108,
        };
        let w = experts_text(&f);
        assert!(w.en.contains("in 18 of 19 rows, by 34% at the median; for Mixtral 8x7B and Llama 4 Scout (8 and 16 experts) by 4% to 11%."), "{}", w.en);
        assert!(
            w.zh.contains("19 行中有 18 行偏短，中位数短 34%"),
            "{}",
            w.zh
        );
        let w = experts_text(&ExpertsShortfall {
            many_short: 19,
            ..f
        });
        assert!(w.en.contains("in all 19 rows, by 34%"), "{}", w.en);
        assert!(w.zh.contains("19 行全部偏短，中位数短 34%"), "{}", w.zh);
    }
}
