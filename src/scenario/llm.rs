//! The LLM sweeps' inputs (strong and weak panels): batch, layout, model, hardware, and where
//! compute and exposed time come from. Defaults are the seed's strong-scaling table.

use super::machines::{Machine, Precision};
use super::parse::{parse_positive, parse_small_count};
use super::walls::WallSettings;
use super::{parse_count, parse_in_range, Key};
use crate::i18n::tr;
use crate::model::fit::{fit_sweep, FitError, StepFit};
use crate::model::measured::MeasuredPoint;
use crate::model::shape::{params_mismatch, PARAMS_TOLERANCE};
use crate::model::stack::Stack;
use crate::model::step::{Layout, PipelineSchedule};
use crate::text::messages::{fit_error, measured_error};
use crate::text::pairs::{format_batched, parse_batched_pairs, parse_pairs};
use crate::text::units::{
    canonical, canonical_si, clip, format_count, format_params, format_si, parse_duration_ms,
    quote_number,
};

/// At most this many GPU counts in the tables (`ns`).
pub const MAX_ROWS: usize = 32;

/// Where compute time comes from (`cm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComputeMode {
    /// [`ComputeMode::Physics`] once the shape is given and agrees with `P`
    /// ([`LlmSettings::shape_given`]), else [`ComputeMode::Time`]: a reader who types a model
    /// gets a step from its FLOPs without finding the switch, and the seed's table stays the
    /// seed's. Presets name their mode ([`super::presets`]).
    Auto,
    /// `tc` ms at the baseline `n0` (the seed's "900 ms at 1,024").
    Time,
    /// `F_tok·B/(N·F_eff)`, `F_tok = 6·P_a`, plus attention's `12·L·h·s` with a shape.
    Flops,
    /// `F_tok·B/(N·F_eff)` with `F_eff = r∞ · peak · η(own layout at N₀)` from the stack's
    /// `r∞` (`stack`, `rinf`; [`crate::model::layouts::physics_inputs`]): no measured rate.
    Physics,
}

/// Where exposed time comes from (`em`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExposedMode {
    /// [`ExposedMode::Fsdp`] once the shape is given and agrees with `P`, else
    /// [`ExposedMode::Table`] (as [`ComputeMode::Auto`]).
    Auto,
    /// The `ex` table of exposed ms.
    Table,
    /// The `st` table of measured step times (exposed = step − compute).
    Step,
    /// Mechanistic FSDP / ZeRO-3.
    Fsdp,
    /// The `st` step times fitted to `t(N) = W/N + K`: compute and exposed time both come from
    /// the fit (calibrate, then predict; [`crate::model::fit`]).
    Fit,
}

/// Inputs of the LLM panels, always valid (see [`LlmSettings::check`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LlmSettings {
    /// `b`: global batch, tokens.
    pub global_batch_tokens: f64,
    /// `a`: gradient-accumulation steps.
    pub accumulation: u32,
    /// `mbs`: sequences per microbatch held fixed as `N` grows (`A` then follows from the
    /// batch); `0` holds `a` fixed instead (the seed's model). Needs the shape's `sq`.
    pub microbatch_sequences: u32,
    /// `lay`: `best` searches every layout at each table row ([`crate::model::layouts`]);
    /// `fixed` (the default) keeps the scenario's own layout only.
    pub best_layout: bool,
    /// `lx`: the GPU count the layout explorer ranks every layout at; `0` hides it.
    pub explorer_gpus: f64,
    pub tp: u32,
    pub pp: u32,
    pub cp: u32,
    /// `p`: total parameters.
    pub total_params: f64,
    /// `pa`: active parameters per token.
    pub active_params: f64,
    /// `mach`: the machine whose datasheet values were typed into the hardware inputs
    /// ([`super::machines`]); `None`: the values as typed.
    pub machine: Option<&'static Machine>,
    /// `prec`: the GEMMs' number format, which of the machine's peaks `peak` holds.
    pub precision: Precision,
    /// `feff`: achieved FLOP/s per GPU.
    pub flops_per_gpu: f64,
    /// `peak`: the GPU's peak FLOP/s, for MFU = F_eff / peak.
    pub peak_flops_per_gpu: f64,
    /// `beff`: bus bandwidth per GPU, bytes/s.
    pub bus_bytes_per_s: f64,
    /// `c`: parameter transfers per microbatch (3, or 2 without resharding).
    pub gathers: f64,
    /// `sw`: bytes per parameter on the wire.
    pub wire_bytes_per_param: f64,
    /// `gw`: bytes per parameter of the gradients, held and reduce-scattered (4 for fp32 main
    /// gradients, as Megatron-LM keeps them in bf16 training and Llama 3 reduces them); `0`
    /// takes `sw` on the wire and bf16 in memory.
    pub gradient_bytes_per_param: f64,
    pub compute_mode: ComputeMode,
    /// `stack`: the software stack whose `r∞` sets the rate with `cm=physics`.
    pub stack: Stack,
    /// `rinf`: `r∞` itself, in `(0, 1]`; `0` takes the stack's.
    pub large_gemm_fraction: f64,
    /// `tc`: compute ms at `n0` (for `cm=time`).
    pub compute_ms: f64,
    /// `n0`: baseline GPUs.
    pub baseline_gpus: f64,
    pub exposed_mode: ExposedMode,
    /// `ex`: exposed ms at some N.
    pub exposed_table: Vec<MeasuredPoint>,
    /// `st`: measured step ms at some N.
    pub step_table: Vec<MeasuredPoint>,
    /// `st`'s `@B`: the global batch (tokens) each step time was measured at; `None` (or a
    /// short list) means `b`. Read by `em=fit` only.
    pub step_batches: Vec<Option<f64>>,
    /// `fp`: the `st` GPU counts `em=fit` fits on (empty: all); the others are predicted.
    pub fit_on: Vec<f64>,
    /// `fix`: fixed exposed ms per step (FSDP mode).
    pub fixed_ms: f64,
    /// `sched`: pipeline schedule.
    pub schedule: PipelineSchedule,
    /// `vc`: virtual chunks per stage (interleaved).
    pub chunks: u32,
    /// `ns`: GPU counts of the table rows.
    pub gpus: Vec<f64>,
    /// `tb`: token budget for the optimizer-step count.
    pub token_budget: f64,
    /// The walls' inputs: shape, memory, kernels, traffic (`nl`, `hd`, … `lat`).
    pub walls: WallSettings,
}

fn pts(pairs: &[(f64, f64)]) -> Vec<MeasuredPoint> {
    pairs
        .iter()
        .map(|&(processors, value)| MeasuredPoint { processors, value })
        .collect()
}

impl Default for LlmSettings {
    /// The seed's strong-scaling table: `B = 32M`, `A = 1`, pure DP, 900 ms of compute at
    /// 1,024 GPUs, exposed 100/150/220/300 ms; `T_crit = 3.7k` from 370 TFLOP/s, 100 GB/s,
    /// bf16, `c = 3`, dense. `P = P_a = 1.776B` is exactly what 900 ms at 370 TFLOP/s implies
    /// (`0.9 s · 1,024 · 370e12 / (6 · 32M)`), so `cm=flops` reproduces the same table.
    fn default() -> Self {
        LlmSettings {
            global_batch_tokens: 32e6,
            accumulation: 1,
            microbatch_sequences: 0,
            best_layout: false,
            explorer_gpus: 0.0,
            tp: 1,
            pp: 1,
            cp: 1,
            total_params: 1.776e9,
            active_params: 1.776e9,
            machine: None,
            precision: Precision::Bf16,
            flops_per_gpu: 370e12,
            // H100 SXM dense BF16 (NVIDIA H100 datasheet).
            peak_flops_per_gpu: 989e12,
            bus_bytes_per_s: 100e9,
            gathers: 3.0,
            wire_bytes_per_param: 2.0,
            gradient_bytes_per_param: 0.0,
            compute_mode: ComputeMode::Auto,
            stack: Stack::Megatron,
            large_gemm_fraction: 0.0,
            compute_ms: 900.0,
            baseline_gpus: 1024.0,
            exposed_mode: ExposedMode::Auto,
            exposed_table: pts(&[
                (1024.0, 100.0),
                (4096.0, 150.0),
                (8192.0, 220.0),
                (16384.0, 300.0),
            ]),
            fit_on: Vec::new(),
            step_batches: Vec::new(),
            step_table: pts(&[
                (1024.0, 1000.0),
                (4096.0, 375.0),
                (8192.0, 332.5),
                (16384.0, 356.25),
            ]),
            fixed_ms: 0.0,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 2,
            gpus: vec![1024.0, 4096.0, 8192.0, 16384.0],
            token_budget: 1e12,
            walls: WallSettings::default(),
        }
    }
}

/// A positive quantity up to `max`. Values below `min` are refused too: they are no real
/// setting and would drive the step time to 0 or ∞ (`min` is far below any real hardware).
/// The global batch, in tokens (`32M`, `4Mi`, `32M tokens`) or in whole sequences of the
/// shape's `sq` (`2048 sequences`, `2048 seq`, `2048 条序列`): a launch's `--global-batch-size`
/// as it is written. Without `sq` a count of sequences is refused, naming what it needs.
fn parse_batch(text: &str, seq_len: f64) -> Result<f64, String> {
    let trimmed = text.trim();
    // ASCII only: `to_lowercase` would bring Unicode's case tables into the wasm.
    let lower = trimmed.to_ascii_lowercase();
    let count = ["sequences", "sequence", "seqs", "seq", "条序列"]
        .iter()
        .find_map(|unit| lower.strip_suffix(unit))
        .map(str::trim);
    let Some(count) = count else {
        return parse_positive(text, 1.0, 1e15);
    };
    if seq_len <= 0.0 {
        return Err(trf!(
            "“{}” counts sequences: give the sequence length sq first, or write tokens (32M)",
            "“{}” 是序列条数：请先给出序列长度 sq，或直接写 token 数（32M）",
            clip(trimmed)
        ));
    }
    let n = parse_positive(count, 1.0, 1e15)?;
    if n.fract() != 0.0 {
        return Err(trf!(
            "{} sequences is not a whole number of sequences",
            "{} 条序列不是整数条",
            quote_number(n)
        ));
    }
    parse_positive(&canonical(n * seq_len), 1.0, 1e15)
}

pub(super) fn parse_table(text: &str) -> Result<Vec<MeasuredPoint>, String> {
    check_table(parse_pairs(text, true).map_err(|e| measured_error(&e))?)
}

fn check_table(points: Vec<MeasuredPoint>) -> Result<Vec<MeasuredPoint>, String> {
    if points.len() < 2 {
        return Err(tr(
            "needs at least two “N:ms” points to interpolate",
            "至少需要两个 “N:ms” 点才能插值",
        )
        .to_string());
    }
    Ok(points)
}

pub(super) fn parse_gpu_list(text: &str) -> Result<Vec<f64>, String> {
    let items: Vec<&str> = text
        .split([',', ';', ' ', '\n', '\t'])
        .filter(|s| !s.trim().is_empty())
        .take(MAX_ROWS + 1)
        .collect();
    if items.is_empty() {
        return Err(tr("list at least one GPU count", "请至少列出一个 GPU 数").to_string());
    }
    if items.len() > MAX_ROWS {
        return Err(trf!("at most {} GPU counts", "最多 {} 个 GPU 数", MAX_ROWS));
    }
    let mut out: Vec<f64> = Vec::with_capacity(items.len());
    for item in items {
        let n = parse_count(item, 1.0)?;
        if out.last().is_some_and(|&last| last >= n) {
            return Err(trf!(
                "GPU counts must increase; {} comes out of order",
                "GPU 数必须递增；{} 的顺序不对",
                format_count(n)
            ));
        }
        out.push(n);
    }
    Ok(out)
}

impl LlmSettings {
    pub(super) fn get_text(&self, key: Key) -> Option<String> {
        if key.is_walls() {
            return self.walls.get_text(key);
        }
        Some(match key {
            Key::GlobalBatch => canonical_si(self.global_batch_tokens),
            Key::Machine => self.machine.map_or("", |m| m.name).to_string(),
            Key::Precision => self.precision.name().to_string(),
            Key::GradientBytes => canonical(self.gradient_bytes_per_param),
            Key::LargeGemmFraction => canonical(self.large_gemm_fraction),
            Key::ComputeMs => canonical(self.compute_ms),
            Key::StepTable => format_batched(&self.step_table, &self.step_batches),
            Key::FixedMs => canonical(self.fixed_ms),
            Key::Chunks => self.chunks.to_string(),
            _ => return None,
        })
    }

    /// Parses and stores one input (range checks only; [`LlmSettings::check`] does the rest).
    pub(super) fn set(&mut self, key: Key, text: &str) -> Option<Result<(), String>> {
        if key.is_walls() {
            return self.walls.set(key, text);
        }
        key.is_llm().then(|| self.set_llm(key, text))
    }

    // One arm per URL key of the LLM panels, each a parse and a range: read whole, the match
    // is the list of inputs; split, the same arms would only be scattered.
    #[allow(clippy::too_many_lines)]
    fn set_llm(&mut self, key: Key, text: &str) -> Result<(), String> {
        match key {
            Key::GlobalBatch => {
                self.global_batch_tokens = parse_batch(text, self.walls.seq_len)?;
            }
            Key::GradientBytes => {
                let v = parse_in_range(
                    text,
                    0.0,
                    8.0,
                    tr(
                        "(0 = as s_w, 4 fp32, 2 bf16)",
                        "（0 = 同 s_w，4 = FP32，2 = BF16）",
                    ),
                )?;
                if v > 0.0 && v < 0.5 {
                    return Err(trf!(
                        "{} bytes is below 0.5 (write 0 for the same as s_w)",
                        "{} 字节小于 0.5（与 s_w 相同请写 0）",
                        quote_number(v)
                    ));
                }
                self.gradient_bytes_per_param = v
            }
            Key::LargeGemmFraction => {
                self.large_gemm_fraction = if text.trim().is_empty() {
                    0.0
                } else {
                    parse_in_range(
                        text,
                        0.0,
                        1.0,
                        tr("(0 = the stack's r_inf)", "（0 = 用软件栈的 r_inf）"),
                    )?
                }
            }
            Key::ComputeMs => {
                let v = parse_duration_ms(text).map_err(|e| e.to_string())?;
                // 1 µs floor: a step of ~0 ms would make the throughput B/t_step overflow.
                if !(1e-3..=3.6e6).contains(&v) {
                    return Err(trf!(
                        "{} ms is outside 1 µs … an hour",
                        "{} ms 超出 1 µs … 1 小时的范围",
                        quote_number(v)
                    ));
                }
                self.compute_ms = v;
            }
            Key::StepTable => {
                let (points, batches) =
                    parse_batched_pairs(text).map_err(|e| measured_error(&e))?;
                self.step_table = check_table(points)?;
                self.step_batches = if batches.iter().any(Option::is_some) {
                    batches
                } else {
                    Vec::new()
                };
            }
            Key::FixedMs => {
                let v = parse_duration_ms(text).map_err(|e| e.to_string())?;
                if !(0.0..=3.6e6).contains(&v) {
                    return Err(trf!(
                        "{} ms must be 0 … an hour",
                        "{} ms 必须在 0 … 1 小时之间",
                        quote_number(v)
                    ));
                }
                self.fixed_ms = v;
            }
            Key::Chunks => {
                let v = parse_small_count(text, |v| {
                    trf!(
                        "{} chunks is outside 1 … 64",
                        "{} 个 chunk 超出 1 … 64 的范围",
                        quote_number(v)
                    )
                })?;
                if v > 64.0 {
                    return Err(trf!(
                        "{} chunks is above 64",
                        "{} 个 chunk 超过 64",
                        format_count(v)
                    ));
                }
                self.chunks = v as u32;
            }
            _ => return Err(format!("{} is not an LLM input", key.name())),
        }
        Ok(())
    }

    /// `M = TP × PP × CP`.
    pub fn model_parallel(&self) -> f64 {
        self.tp as f64 * self.pp as f64 * self.cp as f64
    }

    /// The layout search's rule: `lay=best` needs the model's shape.
    fn check_layouts(&self, out: &mut Vec<(Vec<Key>, String)>) {
        if self.best_layout && !self.walls.has_shape() {
            out.push((
                vec![Key::LayoutSearch, Key::Layers],
                tr(
                    "the layout search needs the model's shape (nl, hd, nh, sq, voc)",
                    "布局搜索需要模型形状（nl、hd、nh、sq、voc）",
                )
                .to_string(),
            ));
        }
    }

    /// Cross-input rules. Each violation names the inputs involved and says why.
    pub fn check(&self) -> Vec<(Vec<Key>, String)> {
        let mut out = self.walls.check(self.tp, self.pp, self.cp);
        self.check_layouts(&mut out);
        if self.microbatch_sequences > 0 && self.walls.seq_len <= 0.0 {
            out.push((
                vec![Key::Microbatch, Key::SeqLen],
                trf!(
                    "a microbatch of {} sequences needs the sequence length sq",
                    "{} 条序列的 microbatch 需要序列长度 sq",
                    self.microbatch_sequences
                ),
            ));
        }
        let measured = |n: f64| self.step_table.iter().any(|p| p.processors == n);
        if let Some(&n) = self.fit_on.iter().find(|&&n| !measured(n)) {
            out.push((
                vec![Key::FitOn, Key::StepTable],
                trf!(
                    "fp names {} GPUs, which st does not measure",
                    "fp 中的 {} 卡在 st 里没有实测值",
                    format_count(n)
                ),
            ));
        } else if let Some(Err(e)) = self.step_fit() {
            out.push((
                vec![Key::ExposedMode, Key::StepTable, Key::FitOn],
                fit_error(&e),
            ));
        }
        if self.active_params > self.total_params {
            out.push((
                vec![Key::ActiveParams, Key::TotalParams],
                trf!(
                    "active parameters P_a = {} exceed total parameters P = {}",
                    "激活参数 P_a = {} 超过总参数 P = {}",
                    format_params(self.active_params),
                    format_params(self.total_params)
                ),
            ));
        }
        let m = self.model_parallel();
        if let Some(&n) = self
            .gpus
            .iter()
            .chain(std::iter::once(&self.baseline_gpus))
            .find(|&&n| n % m != 0.0)
        {
            out.push((
                vec![Key::Gpus, Key::BaselineGpus, Key::Tp, Key::Pp, Key::Cp],
                trf!(
                    "{} GPUs is not a multiple of TP×PP×CP = {}",
                    "{} 卡不是 TP×PP×CP = {} 的整数倍",
                    format_count(n),
                    format_count(m)
                ),
            ));
        } else {
            let largest = self.gpus.iter().copied().fold(self.baseline_gpus, f64::max);
            let layout = self.layout_at(largest, self.global_batch_tokens);
            let tokens = layout.tokens_per_rank(self.global_batch_tokens, largest);
            if tokens < 1.0 {
                out.push((
                    vec![Key::GlobalBatch, Key::Gpus, Key::BaselineGpus, Key::Accumulation],
                    trf!(
                        "B_global = {} tokens gives less than one token per DP rank per microbatch at {} GPUs",
                        "B_global = {} tokens 在 {} 卡时每个 DP rank 每个 microbatch 不足一个 token",
                        format_si(self.global_batch_tokens, 4),
                        format_count(largest)
                    ),
                ));
            }
        }
        if self.token_budget < self.global_batch_tokens {
            out.push((
                vec![Key::TokenBudget, Key::GlobalBatch],
                trf!(
                    "a token budget of {} is less than one optimizer step of B_global = {} tokens",
                    "token 预算 {} 不足一个 optimizer step（B_global = {} tokens）",
                    format_si(self.token_budget, 3),
                    format_si(self.global_batch_tokens, 4)
                ),
            ));
        }
        out
    }

    /// The smallest global batch at `gpus`: one token per replica per microbatch (`D · A`, or
    /// `D` with a fixed microbatch, whose `A` falls to 1 first; the model's `min_batch`).
    pub fn min_batch(&self, gpus: f64) -> f64 {
        if self.microbatch_tokens().is_some() {
            self.layout().data_parallel(gpus)
        } else {
            self.layout().global_batch(1.0, gpus)
        }
    }

    /// `m = mbs · sq`: the fixed microbatch in tokens per replica, when `mbs` and the shape's
    /// sequence length are given.
    pub fn microbatch_tokens(&self) -> Option<f64> {
        let m = self.microbatch_sequences as f64 * self.walls.seq_len;
        (m > 0.0).then_some(m)
    }

    /// The layout at `gpus` and `batch`, with `A` from the fixed microbatch when there is one
    /// (the model's `LlmInputs::layout_at`).
    pub fn layout_at(&self, gpus: f64, batch: f64) -> Layout {
        match self.microbatch_tokens() {
            Some(m) => self.layout().with_microbatch(batch, gpus, m),
            None => self.layout(),
        }
    }

    pub fn layout(&self) -> Layout {
        Layout {
            tp: self.tp,
            pp: self.pp,
            cp: self.cp,
            accumulation: self.accumulation,
        }
    }

    /// `r∞` in force: `rinf`, or the stack's when it is 0.
    pub fn large_gemm_fraction(&self) -> f64 {
        if self.large_gemm_fraction > 0.0 {
            self.large_gemm_fraction
        } else {
            self.stack.large_gemm_fraction()
        }
    }

    /// Whether the shape is given and implies `P` within [`PARAMS_TOLERANCE`]: what turns the
    /// `auto` step model to physics. A shape still off `P` is being typed (the panels name
    /// both counts), so the seed's measured time stays in force until they agree.
    pub fn shape_given(&self) -> bool {
        self.walls.shape().is_some_and(|shape| {
            params_mismatch(shape.total_params(), self.total_params) <= PARAMS_TOLERANCE
        })
    }

    /// `cm` in force: `auto` resolved ([`ComputeMode::Auto`]).
    pub fn compute_in_force(&self) -> ComputeMode {
        match self.compute_mode {
            ComputeMode::Auto if self.shape_given() => ComputeMode::Physics,
            ComputeMode::Auto => ComputeMode::Time,
            mode => mode,
        }
    }

    /// `em` in force: `auto` resolved ([`ExposedMode::Auto`]).
    pub fn exposed_in_force(&self) -> ExposedMode {
        match self.exposed_mode {
            ExposedMode::Auto if self.shape_given() => ExposedMode::Fsdp,
            ExposedMode::Auto => ExposedMode::Table,
            mode => mode,
        }
    }

    /// With `em=fit`, the fit of the `st` step times (or why it fails); `None` otherwise.
    pub fn step_fit(&self) -> Option<Result<StepFit, FitError>> {
        (self.exposed_mode == ExposedMode::Fit).then(|| {
            let b0 = self.global_batch_tokens;
            let points: Vec<(f64, f64, f64)> = self
                .step_table
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let b = self.step_batches.get(i).copied().flatten().unwrap_or(b0);
                    (p.processors, b / b0, p.value)
                })
                .collect();
            fit_sweep(&points, &self.fit_on, self.model_parallel())
        })
    }
}
