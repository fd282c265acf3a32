//! Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
//! (MLSys 2023, arXiv:2205.05198), Table 5: the end-to-end iteration time of four GPT models
//! on Selene's A100s, with full recomputation and with sequence parallelism plus selective
//! recomputation, held against the model (`scaling layouts --published`, the doc's
//! `recompute-runs` table) and against Calculon's figure for the same rows.
//!
//! Every input comes from the paper or from the Calculon configuration that reproduces it:
//!
//! - the shapes and layouts: Table 3 (heads, hidden, layers, TP, PP, GPUs, global batch,
//!   microbatch), a 2,048-token sequence and a 51,200-token vocabulary (§6), GPT's `4h` MLP;
//!   "no data parallelism is used" (§6);
//! - the interleaved schedule with three chunks a stage for 175B and 530B (§6), none for 1T
//!   (Calculon's `validation/seqsel/tab5/*.json`: `pipeline_interleaving` 3, 3 and 1);
//! - the two modes: full recomputation without sequence parallelism, and sequence
//!   parallelism with selective recomputation (Table 5's "Full recompute" and "Present
//!   work"; Calculon's `activation_recompute` `full` and `attn_only`);
//! - no TP overlap (`tpo=0`, Calculon's `tensor_par_overlap: none`) and no FlashAttention
//!   (`fa=0`: selective recomputation is what the paper does instead);
//! - dropout (`drop=1`): the runs train with it, their activation memory counting its masks
//!   (§4.1), and Calculon's block holds its dropout layers (`calculon/llm/llm.py`, `DropOut`);
//! - the machine: A100 SXM 80GB (`mach=a100`) at its BF16 peak, the paper's "half precision";
//! - the published iteration times: Table 5, as Calculon's validation quotes them
//!   (`calculon/llm/validation.py`, `seqsel_tab5`);
//! - Calculon's figures: `calculon lv` run at `caa4b11` (`calculon-ai/calculon`), its A100
//!   system `systems/a100_80g.json`, which it validates at 3.65% mean |error| over the eight.
//!
//! `r∞` is fitted on the first row (22B, full recomputation), as each group of
//! [`super::machine_runs`] is fitted on its first; the other seven are predicted.

use super::machine_runs::{own_step_ms, r_inf_for_step};
use super::table::{signed_percent, Cell, Columns, Table};
use crate::i18n::tr;
use crate::scenario::decode;
use crate::text::units::{format_count, format_sig};

/// Full recomputation, or sequence parallelism with selective recomputation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Full,
    SequenceSelective,
}

impl Mode {
    pub fn key(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::SequenceSelective => "sequence + selective",
        }
    }

    fn text(self) -> &'static str {
        match self {
            Mode::Full => tr("full recomputation", "完全重计算"),
            Mode::SequenceSelective => {
                tr("sequence parallel + selective", "序列并行 + 选择性重计算")
            }
        }
    }

    /// `ac` and `sp` of the row's link.
    fn query(self) -> &'static str {
        match self {
            Mode::Full => "ac=full&sp=0",
            Mode::SequenceSelective => "ac=selective&sp=1",
        }
    }
}

/// One row of Table 5 with its layout from Table 3.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecomputeRun {
    pub model: &'static str,
    /// `nl`, `hd`, `nh` of Table 3.
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    pub pp: u32,
    /// Interleaved chunks a stage (1: plain 1F1B).
    pub chunks: u32,
    pub gpus: u32,
    /// Global batch and microbatch, sequences.
    pub gbs: u32,
    pub mbs: u32,
    pub mode: Mode,
    /// Table 5's iteration time, s.
    pub published_s: f64,
    /// Calculon's iteration time for the row, s.
    pub calculon_s: f64,
}

/// Every model runs TP 8 (Table 3).
const TP: u32 = 8;
/// Sequence and vocabulary (§6).
const SEQ: u32 = 2048;
const VOCAB: u32 = 51_200;

const fn run(
    model: &'static str,
    (layers, hidden, heads): (u32, u32, u32),
    (pp, chunks, gpus, gbs, mbs): (u32, u32, u32, u32, u32),
    mode: Mode,
    published_s: f64,
    calculon_s: f64,
) -> RecomputeRun {
    RecomputeRun {
        model,
        layers,
        hidden,
        heads,
        pp,
        chunks,
        gpus,
        gbs,
        mbs,
        mode,
        published_s,
        calculon_s,
    }
}

/// Table 5 in the paper's order.
pub const TABLE5: [RecomputeRun; 8] = [
    run(
        "22B",
        (48, 6144, 64),
        (1, 1, 8, 4, 4),
        Mode::Full,
        1.42,
        1.40,
    ),
    run(
        "22B",
        (48, 6144, 64),
        (1, 1, 8, 4, 4),
        Mode::SequenceSelective,
        1.10,
        1.14,
    ),
    run(
        "175B",
        (96, 12288, 96),
        (8, 3, 64, 64, 1),
        Mode::Full,
        18.13,
        18.03,
    ),
    run(
        "175B",
        (96, 12288, 96),
        (8, 3, 64, 64, 1),
        Mode::SequenceSelective,
        13.75,
        13.64,
    ),
    run(
        "530B",
        (105, 20480, 128),
        (35, 3, 280, 280, 1),
        Mode::Full,
        49.05,
        49.89,
    ),
    run(
        "530B",
        (105, 20480, 128),
        (35, 3, 280, 280, 1),
        Mode::SequenceSelective,
        37.83,
        34.47,
    ),
    run(
        "1T",
        (128, 25600, 160),
        (64, 1, 512, 512, 1),
        Mode::Full,
        94.42,
        90.08,
    ),
    run(
        "1T",
        (128, 25600, 160),
        (64, 1, 512, 512, 1),
        Mode::SequenceSelective,
        71.49,
        66.04,
    ),
];

impl RecomputeRun {
    /// `P` of the shape: `12·L·h² + 2·V·h` (the model's count, [`crate::model::shape::Shape`]).
    fn params(&self) -> f64 {
        let (l, h) = (self.layers as f64, self.hidden as f64);
        12.0 * l * h * h + 2.0 * VOCAB as f64 * h
    }

    /// The row's link at `r∞`: shape, machine, layout, mode and the physics step model at its
    /// own GPU count.
    pub fn query(&self, r_inf: f64) -> String {
        let schedule = if self.chunks > 1 {
            format!("sched=interleaved&vc={}", self.chunks)
        } else {
            "sched=1f1b".to_string()
        };
        format!(
            "v=1&view=strong&cm=physics&mach=a100&prec=bf16&nl={}&hd={}&nh={}&kvh={}&ffn=0&sq={SEQ}&voc={VOCAB}&p={p}&pa={p}&b={}&mbs={}&tp={TP}&pp={}&{schedule}&zero=0&gw=4&{}&tpo=0&fa=0&drop=1&ns={}&n0={}&rinf={}",
            self.layers,
            self.hidden,
            self.heads,
            self.heads,
            self.gbs as u64 * SEQ as u64,
            self.mbs,
            self.pp,
            self.mode.query(),
            self.gpus,
            self.gpus,
            format_sig(r_inf, 6),
            p = self.params(),
        )
    }

    /// The model's step of the row's layout, ms, at `r∞`.
    fn step_ms(&self, r_inf: f64) -> Result<f64, String> {
        let d = decode(&self.query(r_inf));
        if let Some(e) = d.errors.first() {
            return Err(e.to_string());
        }
        let batch = self.gbs as f64 * SEQ as f64;
        own_step_ms(&d.scenario, self.gpus as f64, batch, r_inf).ok_or_else(|| {
            format!(
                "{} {}: the layout cannot be scored",
                self.model,
                self.mode.key()
            )
        })
    }
}

/// A row held against the model: its `r∞` (the first row's), the model's step and whether
/// the row set `r∞`.
#[derive(Debug, Clone, Copy)]
pub struct RecomputeRow {
    pub run: RecomputeRun,
    pub calibration: bool,
    pub r_inf: f64,
    pub model_s: f64,
}

impl RecomputeRow {
    /// The model's step over the published one, minus 1.
    pub fn error(&self) -> f64 {
        self.model_s / self.run.published_s - 1.0
    }

    /// Calculon's step over the published one, minus 1.
    pub fn calculon_error(&self) -> f64 {
        self.run.calculon_s / self.run.published_s - 1.0
    }
}

/// The eight rows, `r∞` fitted on the first.
pub fn recompute_rows() -> Result<Vec<RecomputeRow>, String> {
    let first = TABLE5[0];
    let r_inf = r_inf_for_step(1e3 * first.published_s, |r| first.step_ms(r).ok()).ok_or_else(
        || {
            tr(
                "Korthikanti et al. Table 5: no fraction of the A100's peak gives the first row's step",
                "Korthikanti 等表 5：A100 峰值的任何比例都给不出第一行的单步时间",
            )
            .to_string()
        },
    )?;
    TABLE5
        .iter()
        .enumerate()
        .map(|(i, run)| {
            Ok(RecomputeRow {
                run: *run,
                calibration: i == 0,
                r_inf,
                model_s: run.step_ms(r_inf)? / 1e3,
            })
        })
        .collect()
}

/// Mean |error| of the predicted rows: the model's and Calculon's.
pub fn mean_errors(rows: &[RecomputeRow]) -> (f64, f64) {
    let predicted: Vec<&RecomputeRow> = rows.iter().filter(|r| !r.calibration).collect();
    let n = predicted.len().max(1) as f64;
    (
        predicted.iter().map(|r| r.error().abs()).sum::<f64>() / n,
        predicted
            .iter()
            .map(|r| r.calculon_error().abs())
            .sum::<f64>()
            / n,
    )
}

/// The key figures: `r∞` and where it came from, each mean |error|.
pub fn recompute_figures(rows: &[RecomputeRow]) -> Vec<(String, String)> {
    let (model, calculon) = mean_errors(rows);
    let all_calculon =
        rows.iter().map(|r| r.calculon_error().abs()).sum::<f64>() / rows.len().max(1) as f64;
    let r_inf = rows.first().map_or(0.0, |r| r.r_inf);
    vec![
        (
            tr(
                "Korthikanti et al. Table 5, r∞ fitted on 22B with full recomputation",
                "Korthikanti 等表 5，r∞ 以 22B 完全重计算一行标定",
            )
            .to_string(),
            format_sig(r_inf, 3),
        ),
        (
            tr(
                "Mean |step error| of the other seven rows: the model; Calculon",
                "其余七行的平均 |单步误差|：本模型；Calculon",
            )
            .to_string(),
            format!(
                "{}; {}",
                signed_percent(model, 1).trim_start_matches('+'),
                signed_percent(calculon, 1).trim_start_matches('+')
            ),
        ),
        (
            tr(
                "Calculon over all eight rows (its own validation)",
                "Calculon 在全部八行上（其自身的验证）",
            )
            .to_string(),
            signed_percent(all_calculon, 2)
                .trim_start_matches('+')
                .to_string(),
        ),
    ]
}

/// The table: model, mode, layout, published, the model's and Calculon's steps and errors.
pub fn recompute_table(rows: &[RecomputeRow]) -> Table {
    let columns = Columns::<RecomputeRow>::new()
        .words(("role", "角色"), |r| {
            Cell::words(if r.calibration {
                tr("calibration", "标定")
            } else {
                tr("predicted with row 1's r∞", "用第 1 行的 r∞ 预测")
            })
        })
        .words(("model", "模型"), |r| Cell::words(r.run.model))
        .words(("recomputation", "重计算"), |r| {
            Cell::words(r.run.mode.text())
        })
        .column(("GPUs", "GPU 数"), |r| {
            Cell::num(r.run.gpus as f64, format_count)
        })
        .words(("layout", "布局"), |r| {
            Cell::words(format!(
                "TP{TP}·PP{}{}·A{}",
                r.run.pp,
                if r.run.chunks > 1 {
                    format!(" ×{}", r.run.chunks)
                } else {
                    String::new()
                },
                r.run.gbs / r.run.mbs
            ))
        })
        .column(("published (s)", "公布（秒）"), |r| {
            Cell::num(r.run.published_s, |v| format_sig(v, 4))
        })
        .column(("model (s)", "模型（秒）"), |r| {
            Cell::num(r.model_s, |v| format_sig(v, 4))
        })
        .column(("model error", "模型误差"), |r| {
            Cell::num(r.error(), |v| signed_percent(v, 1))
        })
        .column(("Calculon (s)", "Calculon（秒）"), |r| {
            Cell::num(r.run.calculon_s, |v| format_sig(v, 4))
        })
        .column(("Calculon error", "Calculon 误差"), |r| {
            Cell::num(r.calculon_error(), |v| signed_percent(v, 1))
        });
    Table::from_columns(
        "recompute-runs",
        tr(
            "Korthikanti et al. 2022, Table 5 (A100, no data parallelism): r∞ fitted on the first row, the rest predicted, beside Calculon",
            "Korthikanti 等 2022 表 5（A100，无数据并行）：以第一行标定 r∞，其余为预测，并列 Calculon",
        )
        .to_string(),
        &columns,
        rows,
    )
}

/// The rows as JSON: each row's inputs, steps and errors, and the means.
pub fn recompute_json(rows: &[RecomputeRow]) -> serde_json::Value {
    let (model, calculon) = mean_errors(rows);
    serde_json::json!({
        "source": "Korthikanti et al. 2022, arXiv:2205.05198, Table 5",
        "r_inf": rows.first().map(|r| r.r_inf),
        "mean_abs_error": model,
        "calculon_mean_abs_error": calculon,
        "rows": rows.iter().map(|r| serde_json::json!({
            "model": r.run.model,
            "recompute": r.run.mode.key(),
            "role": if r.calibration { "calibration" } else { "predicted" },
            "gpus": r.run.gpus,
            "query": r.run.query(r.r_inf),
            "published_s": r.run.published_s,
            "model_s": r.model_s,
            "error": r.error(),
            "calculon_s": r.run.calculon_s,
            "calculon_error": r.calculon_error(),
        })).collect::<Vec<_>>(),
    })
}
