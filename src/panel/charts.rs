//! Every chart of the page, declared once: [`CHARTS`] holds a row per chart — its id, the panel
//! it belongs to, its accessible name in both languages and what it draws. The page (canvas,
//! readout, summary, export), the CLI (`--chart`, its usage text), the docs' lists and the
//! tests all read this table; `tests/core/registry.rs` checks the markup and the docs against it.
//!
//! Adding a chart: a `describe_*` (or `draw_*`) function in the chart file of its panel
//! (`src/chart/`), a [`ChartId`] variant and its row here (with a [`Drawing`] variant if it
//! draws something new), and its `<figure>` in `www/index.html`.

use crate::chart::llm::LlmChart;
use crate::chart::plan::PlanChart;
use crate::i18n::tr;
use crate::scenario::View;

/// A chart of the page. The variants are in page order, the order of [`CHARTS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ChartId {
    LawsSpeedup,
    LawsEfficiency,
    LawsKarpFlatt,
    StrongStep,
    StrongEfficiency,
    StrongThroughput,
    StrongMemory,
    StrongMfu,
    StrongBoxes,
    WeakStep,
    WeakEfficiency,
    WeakThroughput,
    WeakSteps,
    WeakMemory,
    WeakBoxes,
    PlanTimeToQuality,
    PlanGpuHours,
}

/// What a chart draws: one drawing function of `src/chart` each. The panel dispatches on it
/// with exhaustive `match`es, so a new drawing cannot fall into another chart's arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Drawing {
    /// Amdahl, Gustafson and Sun–Ni speedup against `N` (`chart::laws::describe_speedup`).
    LawsSpeedup,
    /// Their efficiency against `N` (`chart::laws::describe_efficiency`).
    LawsEfficiency,
    /// The Karp–Flatt serial fraction of the measured points (`chart::laws::describe_karp_flatt`).
    KarpFlatt,
    /// A line chart of the LLM sweep (`chart::llm::describe`).
    Llm(LlmChart),
    /// The boxes figure: one global batch split among more GPUs against the same batch per
    /// group of GPUs (`chart::boxes::draw_boxes`); not a line chart.
    Boxes,
    /// A chart of the planner's sweep (`chart::plan::describe`).
    Plan(PlanChart),
}

/// One chart: everything the page, the CLI and the tests need to know about it.
#[derive(Debug)]
pub struct ChartSpec {
    pub chart: ChartId,
    /// The id everywhere: `#<id>` (its `<figure>`), `#<id>-canvas`, `-readout`, `-name`, the
    /// CLI's `--chart <id>`, export file names, the tests.
    pub id: &'static str,
    /// `#<id>-summary`: its text alternative (the panel writes it).
    pub summary_id: &'static str,
    /// The panel it belongs to.
    pub view: View,
    /// Its accessible name (`#<id>-name`, `data-i18n="chart-<id>"`), in the thread's language.
    /// The markup holds the English; the page writes the Chinese from here.
    pub name: fn() -> &'static str,
    pub drawing: Drawing,
}

/// One row of [`CHARTS`]; the summary id is the id with `-summary`, by construction.
macro_rules! chart {
    ($chart:ident, $id:literal, $view:ident, $drawing:expr, $en:literal, $zh:literal) => {
        ChartSpec {
            chart: ChartId::$chart,
            id: $id,
            summary_id: concat!($id, "-summary"),
            view: View::$view,
            name: || tr($en, $zh),
            drawing: $drawing,
        }
    };
}

/// Every chart, in page order (the order of [`ChartId`]'s variants).
#[rustfmt::skip]
pub const CHARTS: [ChartSpec; 17] = [
    chart!(LawsSpeedup, "laws-speedup", Laws, Drawing::LawsSpeedup,
        "Speedup S(N) against processors N: Amdahl, Gustafson and Sun–Ni",
        "加速比随处理器数 N 的变化：Amdahl、Gustafson 与 Sun–Ni"),
    chart!(LawsEfficiency, "laws-efficiency", Laws, Drawing::LawsEfficiency,
        "Parallel efficiency against processors N: Amdahl, Gustafson and Sun–Ni",
        "并行效率随处理器数 N 的变化：Amdahl、Gustafson 与 Sun–Ni"),
    chart!(LawsKarpFlatt, "laws-karp-flatt", Laws, Drawing::KarpFlatt,
        "Karp–Flatt serial fraction e(N) of the measured points",
        "实测点的 Karp–Flatt 串行比例 e(N)"),
    chart!(StrongStep, "strong-step", Strong, Drawing::Llm(LlmChart::StrongStep),
        "Strong scaling: step time at fixed B_global",
        "强扩展：固定 B_global 时的单步时间"),
    chart!(StrongEfficiency, "strong-efficiency", Strong, Drawing::Llm(LlmChart::StrongEfficiency),
        "Strong-scaling efficiency = ideal / step",
        "强扩展效率 = 理想 / 实际"),
    chart!(StrongThroughput, "strong-throughput", Strong, Drawing::Llm(LlmChart::StrongThroughput),
        "Strong scaling: throughput B_global / step",
        "强扩展：吞吐 B_global / t_step"),
    chart!(StrongMemory, "strong-memory", Strong, Drawing::Llm(LlmChart::StrongMemory),
        "Strong scaling: memory per GPU at fixed B_global, by part, against the GPU's memory",
        "强扩展：固定 B_global 时按组成划分的单卡显存与显存上限"),
    chart!(StrongMfu, "strong-mfu", Strong, Drawing::Llm(LlmChart::StrongMfu),
        "Strong scaling: MFU at fixed B_global",
        "强扩展：固定 B_global 时的 MFU"),
    chart!(StrongBoxes, "strong-boxes", Strong, Drawing::Boxes,
        "Strong vs weak scaling: the global batch over the GPUs",
        "同一 global batch 分到更多 GPU（强扩展）与每组 GPU 保持相同 batch（弱扩展）"),
    chart!(WeakStep, "weak-step", Weak, Drawing::Llm(LlmChart::WeakStep),
        "Weak scaling: step time at fixed tokens per replica",
        "弱扩展：固定每副本 tokens 时的单步时间"),
    chart!(WeakEfficiency, "weak-efficiency", Weak, Drawing::Llm(LlmChart::WeakEfficiency),
        "Weak-scaling efficiency = t(N₀) / t(N)",
        "弱扩展效率 = t(N₀) / t(N)"),
    chart!(WeakThroughput, "weak-throughput", Weak, Drawing::Llm(LlmChart::WeakThroughput),
        "Weak scaling: throughput",
        "弱扩展：吞吐"),
    chart!(WeakSteps, "weak-steps", Weak, Drawing::Llm(LlmChart::WeakSteps),
        "Weak scaling: global batch and optimizer steps for the budget",
        "弱扩展：global batch 与预算内的 optimizer step 数"),
    chart!(WeakMemory, "weak-memory", Weak, Drawing::Llm(LlmChart::WeakMemory),
        "Weak scaling: memory per GPU at fixed tokens per replica, by part, against the GPU's memory",
        "弱扩展：固定每副本 tokens 时按组成划分的单卡显存与显存上限"),
    chart!(WeakBoxes, "weak-boxes", Weak, Drawing::Boxes,
        "Strong vs weak scaling: the global batch over the GPUs",
        "同一 global batch 分到更多 GPU（强扩展）与每组 GPU 保持相同 batch（弱扩展）"),
    chart!(PlanTimeToQuality, "plan-ttq", Plan, Drawing::Plan(PlanChart::TimeToQuality),
        "Time to the target loss against GPUs",
        "达到目标 loss 的时间随 GPU 数的变化"),
    chart!(PlanGpuHours, "plan-gpu-hours", Plan, Drawing::Plan(PlanChart::GpuHours),
        "GPU-hours to the target loss against GPUs",
        "达到目标 loss 所需 GPU 小时随 GPU 数的变化"),
];

impl ChartId {
    /// Every chart, in page order.
    pub const ALL: [ChartId; CHARTS.len()] = {
        let mut all = [ChartId::LawsSpeedup; CHARTS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = CHARTS[i].chart;
            i += 1;
        }
        all
    };

    /// The chart's row of [`CHARTS`] (the table is in variant order; a test checks it).
    pub fn spec(self) -> &'static ChartSpec {
        &CHARTS[self as usize]
    }

    /// The DOM id stem, the CLI's `--chart` name, the export file name.
    pub fn id(self) -> &'static str {
        self.spec().id
    }

    pub fn from_id(id: &str) -> Option<ChartId> {
        CHARTS.iter().find(|c| c.id == id).map(|c| c.chart)
    }

    /// The panel the chart belongs to.
    pub fn view(self) -> View {
        self.spec().view
    }

    /// Its accessible name in the thread's language.
    pub fn name(self) -> &'static str {
        (self.spec().name)()
    }

    pub fn drawing(self) -> Drawing {
        self.spec().drawing
    }

    /// The charts of a panel, in page order.
    pub fn of(view: View) -> impl Iterator<Item = ChartId> {
        ChartId::ALL.into_iter().filter(move |c| c.view() == view)
    }
}

/// `#<chart>-summary`: the chart's text alternative.
pub fn summary_id(chart: ChartId) -> &'static str {
    chart.spec().summary_id
}

/// The `--chart` choices of a CLI command, as the usage text lists them (`a|b|c`).
pub fn cli_choices(view: View) -> String {
    ChartId::of(view)
        .map(ChartId::id)
        .collect::<Vec<_>>()
        .join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_variant_order_and_ids_round_trip() {
        for (i, spec) in CHARTS.iter().enumerate() {
            assert_eq!(spec.chart as usize, i, "{}", spec.id);
            assert_eq!(ChartId::from_id(spec.id), Some(spec.chart));
            assert!(spec.id.starts_with(spec.view.key()), "{}", spec.id);
            assert_eq!(spec.summary_id, format!("{}-summary", spec.id));
            assert!(CHARTS[..i].iter().all(|c| c.id != spec.id));
        }
        assert_eq!(ChartId::from_id("nope"), None);
        assert_eq!(ChartId::of(View::Weak).count(), 6);
        assert_eq!(cli_choices(View::Plan), "plan-ttq|plan-gpu-hours");
    }

    /// A drawing of the LLM sweep belongs to the panel its chart says, so the strong panel
    /// never draws a weak chart.
    #[test]
    fn llm_drawings_match_their_panel() {
        for spec in &CHARTS {
            if let Drawing::Llm(which) = spec.drawing {
                let strong = matches!(
                    which,
                    LlmChart::StrongStep
                        | LlmChart::StrongEfficiency
                        | LlmChart::StrongThroughput
                        | LlmChart::StrongMemory
                        | LlmChart::StrongMfu
                );
                assert_eq!(strong, spec.view == View::Strong, "{}", spec.id);
            }
        }
    }
}
