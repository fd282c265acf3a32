//! The published layouts held against the layout search from physics alone
//! (docs/model/14-layout-search.md, "From physics alone"): each run's preset with the layout the
//! run used, its compute rate from `r∞ · peak · η` instead of the run's own measurement, and the
//! search at the run's GPU count. `scaling layouts --published` prints the table.

use super::table::{Cell, Columns, Table};
use crate::i18n::tr;
use crate::model::fit::median;
use crate::model::layouts::{best_layout, physics_inputs, LayoutChoice, Scored, Search};
use crate::model::stack::Stack;
use crate::scenario::{decode, Scenario};
use crate::text::units::{format_count, format_percent, format_sig};

/// One published run: the link that sets its model, hardware and layout, where it ran, and
/// the MFU it published, counted with attention as the model counts it (`F_tok·B` over the
/// step: `6·P` plus `12·L·h·s` per token, PaLM's convention; shared/data/published-runs.md).
#[derive(Debug, Clone, Copy)]
pub struct PublishedRun {
    pub label: &'static str,
    pub query: &'static str,
    pub gpus: f64,
    pub published_mfu: f64,
    /// The software stack it ran on, whose `r∞` sets the compute rate.
    pub stack: Stack,
    /// This run calibrated its stack's `r∞` (its error is 0 by construction and left out of
    /// the median).
    pub calibration: bool,
}

/// The runs of shared/data/published-runs.md whose layout is known, in its order.
pub const PUBLISHED_RUNS: [PublishedRun; 16] = [
    // §3: TP 4 · PP 8 · VP 12, microbatch 1, GBS = 2 × GPUs sequences of 2,048.
    run(
        "DGX Cloud GPT-3 175B BF16",
        "v=1&preset=dgxc-gpt3-175b-bf16&mbs=1",
        128.0,
        0.535,
        Stack::Megatron,
        true,
    ),
    run(
        "DGX Cloud GPT-3 175B BF16",
        "v=1&preset=dgxc-gpt3-175b-bf16&mbs=1",
        2048.0,
        0.524,
        Stack::Megatron,
        false,
    ),
    run(
        "DGX Cloud GPT-3 175B FP8",
        "v=1&preset=dgxc-gpt3-175b-fp8&mbs=1",
        128.0,
        0.395,
        Stack::MegatronFp8,
        true,
    ),
    run(
        "DGX Cloud GPT-3 175B FP8",
        "v=1&preset=dgxc-gpt3-175b-fp8&mbs=1",
        2048.0,
        0.373,
        Stack::MegatronFp8,
        false,
    ),
    // §3: TP 4 · PP 4 · CP 2 · VP 5, microbatch 1, sequence 8,192.
    run(
        "DGX Cloud Llama 3.1 70B BF16",
        "v=1&preset=dgxc-llama3-70b-bf16&mbs=1",
        64.0,
        0.545,
        Stack::Megatron,
        false,
    ),
    run(
        "DGX Cloud Llama 3.1 70B BF16",
        "v=1&preset=dgxc-llama3-70b-bf16&mbs=1",
        2048.0,
        0.537,
        Stack::Megatron,
        false,
    ),
    // §2: MLPerf Training v3.1 GPT-3 175B on Eos, FP8, TP 4 · PP 8, microbatch 1, sequence
    // 2,048, at a fixed GBS of 2,048 sequences (and 2,560 at 10,240 GPUs): the DGX Cloud
    // recipe's shape and layout (the same NeMo stack; the virtual chunks, 12, are the recipe's:
    // MLPerf's config files give TP, PP and the microbatch only). MFU as F_tok·B over the
    // published step, F_tok = 6·175e9 + 12·96·12,288·2,048 = 1.0790e12 FLOPs per token:
    // 1.0790e12·4,194,304 / (11.051 s · 512 · 1,979e12) = 40.42%; / (1.609 s · 4,096 · …) =
    // 34.70%; 1.0790e12·5,242,880 / (0.926 s · 10,240 · …) = 30.15%.
    run(
        "MLPerf v3.1 GPT-3 175B FP8",
        "v=1&preset=dgxc-gpt3-175b-fp8&mbs=1&view=strong&b=4194304",
        512.0,
        0.4042,
        Stack::MegatronFp8,
        false,
    ),
    run(
        "MLPerf v3.1 GPT-3 175B FP8",
        "v=1&preset=dgxc-gpt3-175b-fp8&mbs=1&view=strong&b=4194304",
        4096.0,
        0.3470,
        Stack::MegatronFp8,
        false,
    ),
    run(
        "MLPerf v3.1 GPT-3 175B FP8",
        "v=1&preset=dgxc-gpt3-175b-fp8&mbs=1&view=strong&b=5242880",
        10240.0,
        0.3015,
        Stack::MegatronFp8,
        false,
    ),
    // §1: TP 8 · PP 6 at GBS 1,152 (the preset's microbatch and schedule are assumptions).
    run(
        "Megatron-Core GPT 177B",
        "v=1&preset=megatron-177b-h100",
        96.0,
        0.469,
        Stack::Megatron,
        false,
    ),
    run(
        "Megatron-Core GPT 177B",
        "v=1&preset=megatron-177b-h100",
        4608.0,
        0.421,
        Stack::Megatron,
        false,
    ),
    // Dubey et al. 2024, Tables 3–4: TP 8 · PP 16, 16M tokens; 430 / 400 TFLOP/s per GPU,
    // counted with attention: 430/989 = 43.48%, 400/989 = 40.44%.
    run(
        "Llama 3.1 405B",
        "v=1&preset=llama31-405b-h100",
        8192.0,
        0.4348,
        Stack::Meta,
        true,
    ),
    run(
        "Llama 3.1 405B",
        "v=1&preset=llama31-405b-h100",
        16384.0,
        0.4044,
        Stack::Meta,
        false,
    ),
    // §4: FSDP only, 2 × 8,192 tokens per GPU, 5,605 tokens/s per GPU at 128: F_tok =
    // 6·8.03e9 + 12·32·4,096·8,192 = 6.1065e10, MFU 6.1065e10·5,605 / 989e12 = 34.61%.
    run(
        "torchtitan Llama 3.1 8B (FSDP)",
        "v=1&preset=torchtitan-llama3-8b&mbs=2",
        128.0,
        0.3461,
        Stack::Torchtitan,
        true,
    ),
    // §4: MosaicML llm-foundry MPT-13B, FULL_SHARD (ZeRO-3, no TP or PP), sequence 2,048,
    // microbatch 2 (4,096 tokens per GPU), H100 BF16, FSDP mixed precision DEFAULT (the
    // README's "MP Mode": gradients reduced in fp32, gw = 4); the README gives no network, so the
    // H100 machine's own NIC, 400 Gb/s = 50 GB/s per GPU (`scaling machines`, h100). MPT-13B's shape (llm-foundry yamls: 40 layers, d_model 5,120,
    // 40 heads, a 4h MLP, vocabulary 50,368); P = 12·40·5,120² + 2·50,368·5,120 = 13.10e9 as
    // the model counts it (untied). F_tok = 6·13.10e9 + 12·40·5,120·2,048 = 8.3633e10, MFU
    // = 8.3633e10·4,792 / 989e12 = 40.52% on 8 GPUs, 8.3633e10·4,800 / 989e12 = 40.59% on 64.
    run(
        "llm-foundry MPT-13B (FSDP)",
        LLM_FOUNDRY_13B,
        8.0,
        0.4052,
        Stack::Foundry,
        true,
    ),
    run(
        "llm-foundry MPT-13B (FSDP)",
        LLM_FOUNDRY_13B,
        64.0,
        0.4059,
        Stack::Foundry,
        false,
    ),
];

/// MPT-13B on llm-foundry's benchmark: the weak sweep at 4,096 tokens per GPU from 8 GPUs.
const LLM_FOUNDRY_13B: &str = "v=1&view=weak&b=32768&n0=8&ns=8,16,32,64&p=13.1G&pa=13.1G\
    &cm=flops&em=fsdp&nl=40&hd=5120&nh=40&sq=2048&voc=50368&mbs=2&zero=3&beff=50G&gw=4";

const fn run(
    label: &'static str,
    query: &'static str,
    gpus: f64,
    published_mfu: f64,
    stack: Stack,
    calibration: bool,
) -> PublishedRun {
    PublishedRun {
        label,
        query,
        gpus,
        published_mfu,
        stack,
        calibration,
    }
}

/// A published run against the search: its own layout scored from physics alone, its rank,
/// and the fastest layout.
#[derive(Debug, Clone)]
pub struct PublishedRow {
    pub run: PublishedRun,
    pub search: Search,
    /// The plausible changes of one input (`CHANGES`: ±10% of the bandwidths and `r∞`,
    /// `beff` doubled, `tpo` 0 or 1) after which the search's fastest layout is another.
    pub flips: Vec<&'static str>,
}

/// One input changed as far as it is plausibly unknown (the fidelity audit's sensitivity
/// set): a scenario change, or a factor on `r∞`.
enum Change {
    Scenario(fn(&mut Scenario)),
    RInf(f64),
}

/// The changes the order is held against: ±10% of the NIC and NVLink bandwidths and of
/// `r∞`, the NIC bandwidth doubled (a bus bandwidth against a line rate), TP overlap off or
/// whole.
const CHANGES: [(&str, Change); 9] = [
    (
        "beff ×0.9",
        Change::Scenario(|s| s.llm.bus_bytes_per_s *= 0.9),
    ),
    (
        "beff ×1.1",
        Change::Scenario(|s| s.llm.bus_bytes_per_s *= 1.1),
    ),
    (
        "beff ×2",
        Change::Scenario(|s| s.llm.bus_bytes_per_s *= 2.0),
    ),
    (
        "bnv ×0.9",
        Change::Scenario(|s| s.plan.nvlink_bytes_per_s *= 0.9),
    ),
    (
        "bnv ×1.1",
        Change::Scenario(|s| s.plan.nvlink_bytes_per_s *= 1.1),
    ),
    ("tpo 0", Change::Scenario(|s| s.llm.walls.tp_overlap = 0.0)),
    ("tpo 1", Change::Scenario(|s| s.llm.walls.tp_overlap = 1.0)),
    ("r∞ ×0.9", Change::RInf(0.9)),
    ("r∞ ×1.1", Change::RInf(1.1)),
];

/// The search's fastest layout that fits for `scenario` at `r∞`, at the run's GPU count.
fn fastest(scenario: &Scenario, r_inf: f64, gpus: f64) -> Option<LayoutChoice> {
    let inputs = physics_inputs(&scenario.llm_inputs(), r_inf)?;
    let batch = scenario.search_batch_tokens(&inputs, gpus);
    best_layout(&inputs, &scenario.llm.search_space(), gpus, batch)
        .ok()
        .flatten()
        .map(|s| s.choice)
}

/// The key figure of how many runs' fastest layout one plausible change flips, from each run's
/// flips ([`flips`]).
pub(super) fn flips_figure<'a>(
    flips: impl ExactSizeIterator<Item = &'a [&'static str]>,
) -> (String, String) {
    let runs = flips.len();
    let flipped = flips.filter(|f| !f.is_empty()).count();
    (
        tr(
            "Runs whose fastest layout one plausible change flips (±10% of beff, bnv, r∞; beff ×2; tpo 0 or 1)",
            "某一输入的合理变动即改变最快布局的训练任务（beff、bnv、r∞ ±10%；beff ×2；tpo 为 0 或 1）",
        )
        .to_string(),
        trf!("{} of {}", "{} 个（共 {} 个）", flipped, runs),
    )
}

/// The changes of [`CHANGES`] that make the fastest layout another than `best`.
pub(super) fn flips(
    scenario: &Scenario,
    r_inf: f64,
    gpus: f64,
    best: Option<LayoutChoice>,
) -> Vec<&'static str> {
    CHANGES
        .iter()
        .filter(|(_, change)| {
            let other = match change {
                Change::Scenario(apply) => {
                    let mut s = scenario.clone();
                    apply(&mut s);
                    fastest(&s, r_inf, gpus)
                }
                Change::RInf(factor) => fastest(scenario, (r_inf * factor).min(1.0), gpus),
            };
            other != best
        })
        .map(|&(name, _)| name)
        .collect()
}

impl PublishedRow {
    /// The model's MFU of the run's own layout minus the published one (points of MFU × 0.01).
    pub fn error(&self) -> f64 {
        self.search.current.mfu - self.run.published_mfu
    }

    /// The run's own layout steps within 5% of the search's fastest (`t_own ≤ 1.05·t_best`).
    pub fn within_five_percent(&self) -> bool {
        within_five_percent(&self.search)
    }
}

/// The own layout of `search` steps within 5% of its fastest (`t_own ≤ 1.05·t_best`).
pub(super) fn within_five_percent(search: &Search) -> bool {
    search
        .best()
        .is_some_and(|best| search.current.step_ms <= 1.05 * best.step_ms)
}

/// The own layout's place: `4 / 26,871`, or "not in the space".
pub(super) fn rank_text(search: &Search) -> String {
    match search.current_rank {
        Some(k) => format!(
            "{} / {}",
            format_count(k as f64 + 1.0),
            format_count(search.layouts.len() as f64)
        ),
        None => tr("not in the space", "不在搜索空间内").to_string(),
    }
}

/// Every published run searched from physics alone (a run whose link or search fails is left
/// out with its message: it cannot happen with the presets as they are, and a test says so).
pub fn published_rows() -> Vec<Result<PublishedRow, String>> {
    PUBLISHED_RUNS
        .iter()
        .map(|run| {
            let scenario = decode(run.query).scenario;
            let r_inf = run.stack.large_gemm_fraction();
            let inputs = physics_inputs(&scenario.llm_inputs(), r_inf).ok_or_else(|| {
                super::layouts::error_text(&crate::model::layouts::SearchError::NoShape)
            })?;
            let batch = scenario.search_batch_tokens(&inputs, run.gpus);
            let space = scenario.llm.search_space();
            let search = Search::run(&inputs, &space, run.gpus, batch)
                .map_err(|e| super::layouts::error_text(&e))?;
            let best = search.best().map(|s| s.choice);
            let flips = flips(&scenario, r_inf, run.gpus, best);
            Ok(PublishedRow {
                run: *run,
                search,
                flips,
            })
        })
        .collect()
}

/// The table: each run, its layout's rank among the layouts searched, the fastest one, and the
/// model's MFU of the run's layout next to the published one.
pub fn published_table(rows: &[PublishedRow]) -> Table {
    let fastest = |r: &PublishedRow| r.search.best().copied();
    let columns = Columns::<PublishedRow>::new()
        .words(("run", "训练任务"), |r| Cell::words(r.run.label))
        .column(("GPUs", "GPU 数"), |r| Cell::num(r.run.gpus, format_count))
        .words(("its layout", "其布局"), |r| {
            Cell::words(super::layouts::layout_summary(&r.search.current))
        })
        .words(("rank / layouts", "排名 / 布局数"), |r| {
            Cell::words(rank_text(&r.search))
        })
        .words(("fastest in the search", "搜索中最快"), move |r| {
            Cell::words(fastest(r).map_or_else(
                || tr("none fits", "都放不下").to_string(),
                |s: Scored| super::layouts::layout_summary(&s),
            ))
        })
        .column(("its MFU", "最快布局的 MFU"), move |r| {
            fastest(r).map_or_else(
                || Cell::words("–"),
                |s| Cell::num(s.mfu, |v| format_percent(v, 1)),
            )
        })
        .column(("model MFU", "模型 MFU"), |r| {
            Cell::num(r.search.current.mfu, |v| format_percent(v, 1))
        })
        .column(("published MFU", "公布的 MFU"), |r| {
            Cell::num(r.run.published_mfu, |v| format_percent(v, 1))
        })
        .column(("error (points)", "误差（百分点）"), |r| {
            Cell::num(100.0 * r.error(), |v| {
                let t = format_sig(v, 2);
                if v > 0.0 {
                    format!("+{t}")
                } else {
                    t
                }
            })
        })
        .words(("#1 changes with", "第 1 名随之改变"), |r| {
            Cell::words(if r.flips.is_empty() {
                "–".to_string()
            } else {
                r.flips.join(crate::text::list_sep())
            })
        })
        .words(("r∞ from", "r∞ 来自"), |r| {
            let stack = r.run.stack.key();
            Cell::words(if r.run.calibration {
                trf!("{}: this run (calibration)", "{}：本任务（标定）", stack)
            } else {
                trf!("{}: its calibration run", "{}：其标定任务", stack)
            })
        });
    Table::from_columns(
        "published-layouts",
        tr(
            "Published layouts from physics alone: F_eff = r∞ · peak · η, the mechanistic exposed time",
            "仅由物理推得的公布布局：F_eff = r∞ · 峰值 · η，按机制推算的暴露时间",
        )
        .to_string(),
        &columns,
        rows,
    )
}

/// The key figures: the median error over the runs that did not calibrate `r∞`, and the two
/// constants.
pub fn published_figures(rows: &[PublishedRow]) -> Vec<(String, String)> {
    let mut errors: Vec<f64> = rows
        .iter()
        .filter(|r| !r.run.calibration)
        .map(|r| (100.0 * r.error()).abs())
        .collect();
    let n = errors.len();
    let within = errors.iter().filter(|&&e| e <= 5.0).count();
    vec![
        (
            tr(
                "Median MFU error (runs that did not calibrate r∞)",
                "MFU 误差中位数（未参与 r∞ 标定的训练任务）",
            )
            .to_string(),
            trf!(
                "{} points; {} of {} within 5 points",
                "{0} 个百分点；{2} 个中 {1} 个在 5 个百分点内",
                format_sig(median(&mut errors), 2),
                within,
                n
            ),
        ),
        (
            tr(
                "Published layouts within 5% of the search's fastest step",
                "单步时间在搜索最快者 5% 以内的公布布局",
            )
            .to_string(),
            trf!(
                "{} of {}",
                "{} 个（共 {} 个）",
                rows.iter().filter(|r| r.within_five_percent()).count(),
                rows.len()
            ),
        ),
        flips_figure(rows.iter().map(|r| r.flips.as_slice())),
        (
            tr("r∞ by stack (of the peak)", "各软件栈的 r∞（占峰值）").to_string(),
            Stack::ALL
                .iter()
                .map(|s| format!("{} {}", s.key(), format_sig(s.large_gemm_fraction(), 3)))
                .collect::<Vec<_>>()
                .join(", "),
        ),
    ]
}

/// The JSON of `scaling layouts --published`: one entry per run.
pub fn published_json(rows: &[PublishedRow]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "run": r.run.label,
                    "query": r.run.query,
                    "gpus": r.run.gpus,
                    "layout": super::layouts::layout_summary(&r.search.current),
                    "rank": r.search.current_rank.map(|k| k + 1),
                    "layouts": r.search.layouts.len(),
                    "fastest": r.search.best().map(super::layouts::layout_summary),
                    "fastest_mfu": r.search.best().map(|s| s.mfu),
                    "model_mfu": r.search.current.mfu,
                    "published_mfu": r.run.published_mfu,
                    "error": r.error(),
                    "calibration": r.run.calibration,
                    "stack": r.run.stack.key(),
                    "r_inf": r.run.stack.large_gemm_fraction(),
                    "fastest_changes_with": r.flips,
                })
            })
            .collect(),
    )
}
