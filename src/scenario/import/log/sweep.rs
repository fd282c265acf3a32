//! Logs read ([`super::RunLog`]) as an import: per log its steady step time; the run's
//! shape, layout and batch from the log at the fewest GPUs; and, from two logs or more, the
//! measured points (`st`, each with its batch when the batches differ), `em=fit` on all of
//! them, the sweep's GPU counts (the logs' and one doubling past the largest, a prediction)
//! and, at one batch (strong scaling), Karp–Flatt's points (`m`, run times).

use super::super::{Entry, Format, Import, ImportError, Outcome};
use super::{Contradiction, Field, LogError, RunLog};
use crate::i18n::tr;
use crate::scenario::Key;
use crate::text::units::canonical;

/// At most this many logs in one sweep: the measured points `st` holds.
pub const MAX_LOGS: usize = 64;

/// What the report says of one log's step times.
#[derive(Debug, Clone, PartialEq)]
pub struct StepReport {
    pub gpus: Option<u64>,
    pub median_ms: f64,
    pub quartiles_ms: (f64, f64),
    /// Records used, and the steps they cover.
    pub used: usize,
    pub steps: (u64, u64),
    /// Records left out as warm-up.
    pub warmup: usize,
    /// Steps per record when every record is a window of more than one step.
    pub window: Option<u64>,
    /// Slow records: how many, and the slowest (its first step, ms, line).
    pub slow: (usize, Option<(u64, f64, usize)>),
    /// Tokens per second per GPU: the step's tokens over the median step time and the GPUs.
    pub tokens_per_s_per_gpu: Option<f64>,
    /// The median of what the step lines print as tokens/s and TFLOP/s per GPU.
    pub printed_tokens_per_s_per_gpu: Option<f64>,
    pub printed_tflops_per_gpu: Option<f64>,
    /// The run stopped early: at this step of so many (if printed), at this line, saying this.
    pub crash: Option<(u64, Option<u64>, usize, String)>,
}

/// The median of the used records' printed values.
fn printed(log: &RunLog, value: fn(&super::Record) -> Option<f64>) -> Option<f64> {
    let mut values: Vec<f64> = log
        .steady
        .used
        .iter()
        .filter_map(|&i| value(&log.records[i]))
        .collect();
    (!values.is_empty()).then(|| scaling_model::fit::median(&mut values))
}

impl StepReport {
    fn of(log: &RunLog) -> StepReport {
        let used = &log.steady.used;
        let first = used
            .first()
            .map_or(0, |&i| log.records[i].record.first_step);
        let last = used.last().map_or(0, |&i| log.records[i].record.last_step);
        let widths: Vec<u64> = used
            .iter()
            .map(|&i| {
                let r = log.records[i].record;
                r.last_step - r.first_step + 1
            })
            .collect();
        let window = widths
            .first()
            .copied()
            .filter(|&w| w > 1 && widths.iter().all(|&x| x == w));
        let slowest = log
            .steady
            .slow
            .iter()
            .max_by(|&&a, &&b| {
                log.records[a]
                    .record
                    .step_ms
                    .total_cmp(&log.records[b].record.step_ms)
            })
            .map(|&i| {
                let r = &log.records[i];
                (r.record.first_step, r.record.step_ms, r.line)
            });
        let gpus = log.gpus().map(|g| g.0);
        StepReport {
            gpus,
            median_ms: log.steady.median_ms,
            quartiles_ms: log.steady.quartiles_ms,
            used: used.len(),
            steps: (first, last),
            warmup: log.steady.warmup,
            window,
            slow: (log.steady.slow.len(), slowest),
            tokens_per_s_per_gpu: log
                .tokens_per_step()
                .zip(gpus)
                .map(|(t, g)| t / (log.steady.median_ms / 1000.0) / g as f64),
            printed_tokens_per_s_per_gpu: printed(log, |r| r.tokens_per_s_per_gpu),
            printed_tflops_per_gpu: printed(log, |r| r.tflops_per_gpu),
            crash: log.crash.clone().map(|(line, text)| {
                let last_step = log.records.last().map_or(0, |r| r.record.last_step);
                (last_step, log.of_steps, line, text)
            }),
        }
    }
}

fn gpus_of(log: &RunLog) -> u64 {
    log.gpus().map_or(0, |g| g.0)
}

/// `logs` as an import (see the module's doc).
pub fn import(mut logs: Vec<RunLog>) -> Result<Import, ImportError> {
    let several = logs.len() > 1;
    if logs.len() > MAX_LOGS {
        return Err(LogError::TooMany { count: logs.len() }.into());
    }
    if several {
        for log in &logs {
            if log.gpus().is_none() {
                return Err(LogError::NoGpus {
                    name: log.name.clone(),
                }
                .into());
            }
        }
        // By GPU count (insertion: at most MAX_LOGS).
        for i in 1..logs.len() {
            let mut j = i;
            while j > 0 && gpus_of(&logs[j - 1]) > gpus_of(&logs[j]) {
                logs.swap(j - 1, j);
                j -= 1;
            }
        }
        for pair in logs.windows(2) {
            let (a, b) = (pair[0].gpus(), pair[1].gpus());
            if let (Some(a), Some(b)) = (a, b) {
                if a.0 == b.0 {
                    return Err(LogError::SameGpus {
                        first: pair[0].name.clone(),
                        second: pair[1].name.clone(),
                        gpus: a.0,
                    }
                    .into());
                }
            }
        }
        mixed(&logs)?;
    }
    for log in &logs {
        check_layout(log)?;
    }
    let mut entries = Vec::new();
    for log in &logs {
        entries.push(Entry {
            source: prefixed(log, log.framework.label()),
            line: log.steady.used.first().map_or(0, |&i| log.records[i].line),
            outcome: Outcome::Steps(Box::new(StepReport::of(log))),
        });
    }
    entries.extend(layout(&logs[0], !several));
    if several {
        entries.extend(points(&logs));
    } else if let Some((gpus, line, name)) = logs[0].gpus() {
        entries.push(set(
            prefixed(&logs[0], &name),
            line,
            Key::Gpus,
            doublings(&[gpus]),
        ));
    }
    Ok(Import {
        format: Format::Logs,
        entries,
    })
}

fn set(source: String, line: usize, key: Key, value: String) -> Entry {
    Entry {
        source,
        line,
        outcome: Outcome::Set(key, value),
    }
}

/// `name` after the log's file name, when it has one.
fn prefixed(log: &RunLog, name: &str) -> String {
    if log.name.is_empty() {
        name.to_string()
    } else {
        format!("{} · {name}", log.name)
    }
}

/// A step time as `st` writes it: 0.1 ms.
fn ms(value: f64) -> String {
    canonical((value * 10.0).round() / 10.0)
}

/// The GPU counts measured and one doubling past the largest (a count the fit predicts); a
/// single count and three doublings.
fn doublings(gpus: &[u64]) -> String {
    let mut counts = gpus.to_vec();
    let largest = *counts.last().unwrap_or(&1);
    let more = if counts.len() == 1 { 3 } else { 1 };
    counts.extend((1..=more).map(|k| largest << k));
    counts
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Shape fields two logs of one model print alike.
const SHAPE: [(Field, &str); 7] = [
    (Field::Layers, "layers"),
    (Field::Hidden, "hidden size"),
    (Field::Heads, "attention heads"),
    (Field::KvHeads, "key-value heads"),
    (Field::Ffn, "MLP width"),
    (Field::Experts, "experts"),
    (Field::MoeFfn, "expert MLP width"),
];

/// Refused when two logs print different values of a shape field.
fn mixed(logs: &[RunLog]) -> Result<(), ImportError> {
    let first = &logs[0];
    for other in &logs[1..] {
        for (field, what) in SHAPE {
            if let (Some(a), Some(b)) = (first.get(field), other.get(field)) {
                if a.value != b.value {
                    return Err(LogError::Mixed {
                        field: what.to_string(),
                        first: (first.name.clone(), a.line, a.value),
                        second: (other.name.clone(), b.line, b.value),
                    }
                    .into());
                }
            }
        }
    }
    Ok(())
}

/// Refused when the GPU count is not a multiple of TP·PP·CP, or the global batch not a
/// multiple of micro-batch × data-parallel ranks (Megatron-LM asserts both at start-up).
fn check_layout(log: &RunLog) -> Result<(), ImportError> {
    let Some((gpus, line, _)) = log.gpus() else {
        return Ok(());
    };
    let degree = |f| log.get(f).map_or(1, |f: &super::Fact| f.value);
    let model = degree(Field::Tp) * degree(Field::Pp) * degree(Field::Cp);
    if gpus % model != 0 {
        return Err(LogError::Layout {
            name: log.name.clone(),
            line,
            what: Contradiction::Gpus {
                gpus,
                replica: model,
            },
        }
        .into());
    }
    let dp = gpus / model;
    if let (Some(batch), Some(micro)) = (log.get(Field::GlobalBatch), log.get(Field::MicroBatch)) {
        if log.framework != super::Framework::Torchtitan && batch.value % (micro.value * dp) != 0 {
            return Err(LogError::Layout {
                name: log.name.clone(),
                line: batch.line,
                what: Contradiction::Batch {
                    batch: batch.value,
                    micro: micro.value,
                    dp,
                },
            }
            .into());
        }
    }
    Ok(())
}

/// The shape, layout and batch `log` prints, as settings; `n0` too when `single`.
fn layout(log: &RunLog, single: bool) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut put = |field: Field, key: Key, value: Option<String>| {
        if let Some(f) = log.get(field) {
            let value = value.unwrap_or_else(|| f.value.to_string());
            out.push(set(prefixed(log, &f.name), f.line, key, value));
        }
    };
    let moe = log.get(Field::Experts).is_some_and(|f| f.value > 1);
    put(Field::Layers, Key::Layers, None);
    put(Field::Hidden, Key::Hidden, None);
    put(Field::Heads, Key::Heads, None);
    put(Field::KvHeads, Key::KvHeads, None);
    if moe {
        put(Field::Experts, Key::Experts, None);
        put(Field::TopK, Key::ExpertsPerToken, None);
        put(Field::MoeFfn, Key::Ffn, None);
    } else {
        put(Field::Ffn, Key::Ffn, None);
    }
    put(Field::Vocab, Key::Vocab, None);
    put(Field::SeqLen, Key::SeqLen, None);
    put(Field::Tp, Key::Tp, None);
    put(Field::Pp, Key::Pp, None);
    put(Field::Cp, Key::Cp, None);
    put(Field::Ep, Key::Ep, None);
    if moe {
        put(Field::Etp, Key::Etp, None);
    }
    put(Field::MicroBatch, Key::Microbatch, None);
    let seq = log.get(Field::SeqLen).is_some();
    if seq {
        put(Field::GlobalBatch, Key::GlobalBatch, None);
    }
    // A global batch in sequences, as launches count it: after the sequence length.
    for entry in &mut out {
        if let Outcome::Set(Key::GlobalBatch, value) = &mut entry.outcome {
            *value = format!("{value} sequences");
        }
    }
    if let Some(v) = log.get(Field::Vpp).filter(|f| f.value > 1) {
        out.push(set(
            prefixed(log, &v.name),
            v.line,
            Key::Schedule,
            "interleaved".into(),
        ));
        out.push(set(
            prefixed(log, &v.name),
            v.line,
            Key::Chunks,
            v.value.to_string(),
        ));
    }
    if let Some(e) = log.get(Field::Etp).filter(|_| !moe) {
        out.push(Entry {
            source: prefixed(log, &e.name),
            line: e.line,
            outcome: Outcome::Ignored(crate::i18n::tr(
                "a dense model has no experts to split",
                "稠密模型没有可切分的专家",
            )),
        });
    }
    if single {
        if let Some((gpus, line, name)) = log.gpus() {
            out.push(set(
                prefixed(log, &name),
                line,
                Key::BaselineGpus,
                gpus.to_string(),
            ));
        }
    }
    out
}

/// Two logs or more as measured points: `st` (with each point's batch in tokens unless all
/// are at one batch), `em=fit` on every point, `n0` the fewest GPUs, `ns` the counts and one
/// doubling past them; at one batch also Karp–Flatt's run times (`m`, `mk=time`).
fn points(logs: &[RunLog]) -> Vec<Entry> {
    let gpus: Vec<u64> = logs.iter().map(|l| l.gpus().map_or(0, |g| g.0)).collect();
    let batches: Vec<Option<f64>> = logs.iter().map(RunLog::tokens_per_step).collect();
    let one_batch = batches.windows(2).all(|w| w[0] == w[1]) || batches.iter().any(Option::is_none);
    let st = logs
        .iter()
        .zip(&gpus)
        .zip(&batches)
        .map(|((log, n), b)| match b {
            Some(b) if !one_batch => format!("{n}:{}@{}", ms(log.steady.median_ms), canonical(*b)),
            _ => format!("{n}:{}", ms(log.steady.median_ms)),
        })
        .collect::<Vec<_>>()
        .join(",");
    let source = || {
        logs.iter()
            .map(|l| l.name.as_str())
            .collect::<Vec<_>>()
            .join(" + ")
    };
    let line = logs[0].first_record_line;
    let mut out = vec![
        set(source(), line, Key::BaselineGpus, gpus[0].to_string()),
        set(source(), line, Key::Gpus, doublings(&gpus)),
        set(source(), line, Key::StepTable, st),
        set(source(), line, Key::FitOn, String::new()),
        set(source(), line, Key::ExposedMode, "fit".into()),
    ];
    // Which scaling the logs are, said by the panel they open on: one batch is strong scaling;
    // one number of tokens per GPU (the batch grown with the GPUs) is weak.
    let per_gpu = |i: usize| batches[i].map(|b| b / gpus[i] as f64);
    if one_batch {
        out.push(set(source(), line, Key::View, "strong".into()));
    } else if (1..logs.len()).all(|i| per_gpu(i) == per_gpu(0)) {
        out.push(set(source(), line, Key::View, "weak".into()));
    }
    if one_batch {
        let m = logs
            .iter()
            .zip(&gpus)
            .map(|(log, n)| format!("{n}:{}ms", ms(log.steady.median_ms)))
            .collect::<Vec<_>>()
            .join(",");
        out.push(set(source(), line, Key::MeasuredKind, "time".into()));
        out.push(set(source(), line, Key::Measured, m));
    }
    out
}

impl From<LogError> for ImportError {
    fn from(e: LogError) -> Self {
        ImportError::Log(e)
    }
}

impl StepReport {
    /// The report's line: the records used and why, the median and spread, what was slow,
    /// throughput, and where the run stopped.
    pub fn describe(&self) -> String {
        use crate::text::units::{format_count, format_ms};
        let mut parts = vec![trf!(
            "step times: median {} ms per step over steps {}–{} ({} records; middle half {}–{} ms)",
            "单步时间：中位数 {} ms/步，步 {}–{}（{} 条记录；四分位区间 {}–{} ms）",
            format_ms(self.median_ms),
            self.steps.0,
            self.steps.1,
            self.used,
            format_ms(self.quartiles_ms.0),
            format_ms(self.quartiles_ms.1)
        )];
        if let Some(w) = self.window {
            parts.push(trf!(
                "each record is the mean over {} steps",
                "每条记录是 {} 步的平均",
                w
            ));
        }
        if self.warmup > 0 {
            parts.push(trf!(
                "left out as warm-up (compilation, first allocations and data), the records reaching into steps 1–2: {}",
                "作为预热略去（编译、首次分配与数据加载）的涉及第 1–2 步的记录：{} 条",
                self.warmup
            ));
        }
        if let (n, Some((step, ms, line))) = self.slow {
            parts.push(trf!(
                "records over 1.5× the median (an evaluation, a save or a stall; the median keeps them from moving the step time): {}, the slowest at step {}: {} ms (line {})",
                "超过中位数 1.5 倍的记录（评估、保存或停顿；中位数使其不影响单步时间）：{} 条，最慢在第 {} 步：{} ms（第 {} 行）",
                n,
                step,
                format_ms(ms),
                line
            ));
        }
        match self.gpus {
            Some(g) => parts.push(trf!("{} GPUs", "{} 卡", g)),
            None => parts.push(
                tr(
                    "no GPU count printed: type N₀ (n0), or add a line world_size: N to the log",
                    "日志未给出 GPU 数：请输入 N₀（n0），或在日志中加一行 world_size: N",
                )
                .to_string(),
            ),
        }
        if let Some(t) = self.tokens_per_s_per_gpu {
            parts.push(trf!(
                "{} tokens/s per GPU (batch tokens ÷ median step ÷ GPUs)",
                "每 GPU {} tokens/s（batch tokens ÷ 单步中位数 ÷ GPU 数）",
                format_count(t.round())
            ));
        }
        if let Some(t) = self.printed_tokens_per_s_per_gpu {
            parts.push(trf!(
                "the log prints {} tokens/s per GPU (median)",
                "日志给出每 GPU {} tokens/s（中位数）",
                format_count(t.round())
            ));
        }
        if let Some(t) = self.printed_tflops_per_gpu {
            parts.push(trf!(
                "the log prints {} TFLOP/s per GPU (median)",
                "日志给出每 GPU {} TFLOP/s（中位数）",
                crate::text::units::format_sig(t, 4)
            ));
        }
        if let Some((last, of, line, text)) = &self.crash {
            parts.push(match of {
                Some(of) => trf!(
                    "the run stopped after step {} of {} (line {}: {}); the steps before it are read",
                    "运行在第 {} 步（共 {} 步）后中止（第 {} 行：{}）；此前的步骤已读取",
                    last,
                    format_count(*of as f64),
                    line,
                    text
                ),
                None => trf!(
                    "the run stopped after step {} (line {}: {}); the steps before it are read",
                    "运行在第 {} 步后中止（第 {} 行：{}）；此前的步骤已读取",
                    last,
                    line,
                    text
                ),
            });
        }
        parts.join(tr("; ", "；"))
    }
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let named = |name: &str| {
            if name.is_empty() {
                tr("the log", "日志").to_string()
            } else {
                name.to_string()
            }
        };
        let text = match self {
            LogError::NoSteps { name } => trf!(
                "{}: no step times (Megatron-LM's elapsed time per iteration, NeMo's train_step_timing, torchtitan's step lines, MLPerf's train_step_time, the Hugging Face Trainer's train_runtime, MaxText's completed step)",
                "{}：没有单步时间（Megatron-LM 的 elapsed time per iteration、NeMo 的 train_step_timing、torchtitan 的 step 行、MLPerf 的 train_step_time、Hugging Face Trainer 的 train_runtime、MaxText 的 completed step）",
                named(name)
            ),
            LogError::OnlyWarmup { name, last_step } => trf!(
                "{}: the log ends at step {}; steps 1–2 are warm-up, so no steady step time is printed",
                "{}：日志在第 {} 步结束；第 1–2 步是预热，没有稳定的单步时间",
                named(name),
                last_step
            ),
            LogError::Mixed {
                field,
                first,
                second,
            } => trf!(
                "two models mixed: {} line {} prints {} {}, {} line {} prints {}",
                "混入了两个模型：{} 第 {} 行的{}为 {}，{} 第 {} 行为 {}",
                named(&first.0),
                first.1,
                field,
                first.2,
                named(&second.0),
                second.1,
                second.2
            ),
            LogError::TooMany { count } => trf!(
                "{} logs; a sweep takes at most {}",
                "{} 份日志；一次扫描最多 {} 份",
                count,
                MAX_LOGS
            ),
            LogError::NoGpus { name } => trf!(
                "{}: no GPU count printed (world size, num_nodes × devices): add a line world_size: N to it",
                "{}：没有 GPU 数（world size、num_nodes × devices）：请在其中加一行 world_size: N",
                named(name)
            ),
            LogError::SameGpus {
                first,
                second,
                gpus,
            } => trf!(
                "{} and {} are both at {} GPUs: a sweep needs one log per GPU count",
                "{} 与 {} 都是 {} 块 GPU：扫描需要每个 GPU 数一份日志",
                named(first),
                named(second),
                gpus
            ),
            LogError::Layout { name, line, what } => {
                let what = match *what {
                    Contradiction::Gpus { gpus, replica } => trf!(
                        "{} GPUs are not a multiple of TP·PP·CP = {}",
                        "{} 块 GPU 不是 TP·PP·CP = {} 的整数倍",
                        gpus,
                        replica
                    ),
                    Contradiction::Batch { batch, micro, dp } => trf!(
                        "a global batch of {} is not a multiple of micro-batch {} × {} data-parallel ranks",
                        "global batch {} 不是 micro-batch {} × {} 个数据并行副本的整数倍",
                        batch,
                        micro,
                        dp
                    ),
                };
                trf!("{} line {}: {}", "{} 第 {} 行：{}", named(name), line, what)
            }
        };
        f.write_str(&text)
    }
}
