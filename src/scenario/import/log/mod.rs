//! Training logs in: a log's steady step time, its GPU count, layout, batch and shape where
//! it prints them (`facts`), read from the lines its framework prints per step (`steps`);
//! several logs of one model at different GPU counts become measured points for the fit
//! (`st`, `em=fit`) and, at one batch, for Karp–Flatt (`m`).
//!
//! Several files are one text in `head`'s and `tail`'s convention: each starts with a line
//! `==> NAME <==`, so the page's text area, `scalingExplorer.import` and a pasted
//! `tail -n 2000 a.log b.log` read alike. A part without step lines (a test's
//! `model_config.yaml`, a typed `world_size: 16`) adds what it prints to every log; a log's own
//! lines come first. Nothing is applied unless every log is read whole: a log without step
//! times, two models mixed or a GPU count the layout cannot fill refuse the import, naming the
//! file and the line.

mod facts;
mod steps;
mod sweep;

pub use facts::{Fact, Field};
pub use steps::Framework;

use scaling_model::steady::{steady, Steady, SteadyError};
use steps::{Record, Steps};

/// The longest text of logs read: an MLPerf result with its Slurm output is 2.4 MB.
pub const MAX_LOG_BYTES: usize = 16 << 20;

/// One log read.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLog {
    /// The file's name (`==> NAME <==`), or `""` for a single text.
    pub name: String,
    pub framework: Framework,
    pub records: Vec<Record>,
    pub steady: Steady,
    /// Every value printed, with its line, in line order (this log's own, then the side
    /// files'; [`RunLog::get`] picks one).
    pub facts: Vec<Fact>,
    /// The line of the first record: values printed up to it configure the run.
    pub first_record_line: usize,
    /// The step count the run was launched for, if printed.
    pub of_steps: Option<u64>,
    /// Where the run stopped early: the line and its text (a traceback, a kill).
    pub crash: Option<(usize, String)>,
}

impl RunLog {
    /// The value of `field` that configured the run: the last printed up to the first step
    /// line (a recipe's defaults printed before the effective config are overridden), else the
    /// first printed after it; `None` when the log does not print it.
    pub fn get(&self, field: Field) -> Option<&Fact> {
        let mut best: Option<&Fact> = None;
        let mut after: Option<&Fact> = None;
        let rank = self
            .facts
            .iter()
            .filter(|f| f.field == field)
            .map(|f| f.rank)
            .min()?;
        for f in &self.facts {
            if f.field != field || f.rank != rank {
                continue;
            }
            if f.name == "nranks" {
                // NCCL prints every communicator's size; the world's is the largest.
                if best.is_none_or(|b| f.value > b.value) {
                    best = Some(f);
                }
            } else if f.line <= self.first_record_line {
                best = Some(f);
            } else if after.is_none() {
                after = Some(f);
            }
        }
        best.or(after)
    }

    /// The GPU count: the world size printed; else nodes × GPUs per node; else the product of
    /// torchtitan's mesh degrees (`dp_replicate·dp_shard·cp·tp·pp`); else an MLPerf system
    /// name's `<nodes>x…x<gpus><GPU>`. With the line that says it.
    pub fn gpus(&self) -> Option<(u64, usize, String)> {
        if let Some(f) = self.get(Field::Gpus) {
            return Some((f.value, f.line, f.name.clone()));
        }
        if let (Some(n), Some(g)) = (self.get(Field::Nodes), self.get(Field::GpusPerNode)) {
            return Some((
                n.value * g.value,
                n.line.max(g.line),
                format!("{} × {}", n.name, g.name),
            ));
        }
        if let (Some(shard), Some(tp)) = (self.get(Field::DpShard), self.get(Field::Tp)) {
            let degree = |field| self.get(field).map_or(1, |f| f.value);
            let product = shard.value
                * tp.value
                * degree(Field::DpReplicate)
                * degree(Field::Cp)
                * degree(Field::Pp);
            return Some((product, shard.line, "mesh".to_string()));
        }
        None
    }

    /// Tokens per optimizer step, where the log prints the global batch (in sequences) and
    /// the sequence length.
    pub fn tokens_per_step(&self) -> Option<f64> {
        let batch = self.get(Field::GlobalBatch)?.value;
        let seq = self.get(Field::SeqLen)?.value;
        Some(batch as f64 * seq as f64)
    }
}

/// Why logs were refused.
#[derive(Debug, Clone, PartialEq)]
pub enum LogError {
    /// A part with no step lines any reader knows, when no part has any.
    NoSteps { name: String },
    /// Every record is warm-up.
    OnlyWarmup { name: String, last_step: u64 },
    /// Two logs print different values of a shape field: two models.
    Mixed {
        field: String,
        first: (String, usize, u64),
        second: (String, usize, u64),
    },
    /// More logs than a sweep takes ([`MAX_LOGS`]).
    TooMany { count: usize },
    /// Several logs, and one prints no GPU count.
    NoGpus { name: String },
    /// Two logs at one GPU count.
    SameGpus {
        first: String,
        second: String,
        gpus: u64,
    },
    /// The GPU count is not a multiple of TP·PP·CP, or the batch not of micro-batch × DP.
    Layout {
        name: String,
        line: usize,
        what: Contradiction,
    },
}

/// What in a log's layout cannot hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contradiction {
    /// The GPUs are not a multiple of the ranks one model replica takes (TP·PP·CP).
    Gpus { gpus: u64, replica: u64 },
    /// The global batch is not a multiple of micro-batch × data-parallel ranks.
    Batch { batch: u64, micro: u64, dp: u64 },
}

/// Whether `text` is one or more training logs (by a step line of a framework read here, or
/// the `==> NAME <==` of several files).
pub fn is_log(text: &str) -> bool {
    const MARKS: [&str; 7] = [
        "elapsed time per iteration (ms)",
        "train_step_timing in s",
        ":::MLLOG",
        "completed step:",
        "'train_runtime'",
        "\"iteration-time\"",
        "tflops:",
    ];
    text.lines().next().is_some_and(|l| marker(l).is_some())
        || MARKS.iter().any(|m| text.contains(m))
}

/// Several files as one text: each after a line `==> NAME <==`; one file as it is.
pub fn bundle(files: &[(String, String)]) -> String {
    match files {
        [(_, text)] => text.clone(),
        _ => files
            .iter()
            .map(|(name, text)| format!("==> {name} <==\n{text}\n"))
            .collect(),
    }
}

/// The file name of a `==> NAME <==` line.
fn marker(line: &str) -> Option<&str> {
    line.trim_end()
        .strip_prefix("==> ")
        .and_then(|l| l.strip_suffix(" <=="))
}

/// The parts of a text of logs: a name and the lines, each cleaned ([`clean`]).
fn parts(text: &str) -> Vec<(String, &str)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(name) = marker(line) {
            out.push((name.to_string(), at + line.len()));
        }
        at += line.len();
    }
    if out.is_empty() {
        return vec![(String::new(), text)];
    }
    let mut parts = Vec::new();
    for (i, (name, start)) in out.iter().enumerate() {
        let end = out.get(i + 1).map_or(text.len(), |(_, next)| {
            // Back to the start of the next part's marker line.
            text[..*next - 1].rfind('\n').map_or(0, |n| n + 1)
        });
        parts.push((name.clone(), &text[*start..end.max(*start)]));
    }
    parts
}

/// A line as the readers see it: ANSI colour codes and carriage returns removed.
fn clean(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
        } else if c != '\r' {
            out.push(c);
        }
    }
    out
}

/// The logs of `text`, each read whole, or why not.
pub fn read(text: &str) -> Result<Vec<RunLog>, LogError> {
    let mut logs = Vec::new();
    let mut side = Vec::new();
    for (name, part) in parts(text) {
        let lines: Vec<String> = part.lines().map(clean).collect();
        let mut facts = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            facts::scan(line, i + 1, &mut facts);
        }
        match records(part, &lines, &facts) {
            Some((framework, steps)) => logs.push((name, framework, steps, facts, lines)),
            None => side.push((name, facts)),
        }
    }
    if logs.is_empty() {
        return Err(LogError::NoSteps {
            name: side.into_iter().next().map(|(n, _)| n).unwrap_or_default(),
        });
    }
    let mut read = Vec::with_capacity(logs.len());
    for (name, framework, steps, mut facts, lines) in logs {
        let first_record_line = steps.records.first().map_or(0, |r| r.line);
        // Side files' values count after the log's own: for the fields the log does not print.
        let own: Vec<Field> = facts.iter().map(|f| f.field).collect();
        let mut printed = [false; Field::COUNT];
        for field in own {
            printed[field as usize] = true;
        }
        for (side_name, extra) in &side {
            for f in extra {
                if !printed[f.field as usize] {
                    facts.push(Fact {
                        name: format!("{side_name}: {}", f.name),
                        ..f.clone()
                    });
                }
            }
        }
        let plain: Vec<_> = steps.records.iter().map(|r| r.record).collect();
        let steady = match steady(&plain) {
            Ok(s) => s,
            Err(SteadyError::NoRecords) => return Err(LogError::NoSteps { name }),
            Err(SteadyError::OnlyWarmup { last_step }) => {
                return Err(LogError::OnlyWarmup { name, last_step })
            }
        };
        let last_line = steps.records.last().map_or(0, |r| r.line);
        read.push(RunLog {
            crash: crash(&lines, last_line),
            name,
            framework,
            first_record_line,
            of_steps: steps.of_steps,
            records: steps.records,
            steady,
            facts,
        });
    }
    Ok(read)
}

/// The framework and records of one part, trying each reader; `None` when it has no records.
fn records(part: &str, lines: &[String], facts: &[Fact]) -> Option<(Framework, Steps)> {
    if part.trim_start().starts_with('{') {
        if let Ok(root) = serde_json::from_str::<serde_json::Value>(part) {
            let s = steps::golden(&root, part);
            return (!s.records.is_empty()).then_some((Framework::MegatronGolden, s));
        }
    }
    let pick = |field| {
        let of = || facts.iter().filter(move |f: &&Fact| f.field == field);
        of().next_back().map(|f| f.value)
    };
    let tokens = match (pick(Field::GlobalBatch), pick(Field::SeqLen)) {
        (Some(b), Some(s)) => Some((b * s) as f64),
        _ => None,
    };
    // torchtitan prints the per-rank batch (`local_batch_size`): a GPU's share of a step's
    // tokens is that batch over the ranks that split one sequence (TP·CP·PP).
    let per_gpu = match (pick(Field::MicroBatch), pick(Field::SeqLen)) {
        (Some(m), Some(s)) => {
            let split = [Field::Tp, Field::Cp, Field::Pp]
                .iter()
                .map(|&f| pick(f).unwrap_or(1))
                .product::<u64>();
            Some((m * s) as f64 / split as f64)
        }
        _ => None,
    };
    let tried: [(Framework, Steps); 6] = [
        (Framework::Mlperf, steps::mlperf(lines)),
        (Framework::Megatron, steps::megatron(lines)),
        (Framework::Nemo, steps::nemo(lines)),
        (Framework::Maxtext, steps::maxtext(lines)),
        (Framework::Torchtitan, steps::torchtitan(lines, per_gpu)),
        (Framework::HfTrainer, steps::hf_trainer(lines, tokens, 1)),
    ];
    tried.into_iter().find(|(_, s)| !s.records.is_empty())
}

/// The first line after the last step record that says the run died: a Python traceback, a
/// kill, an out-of-memory or NCCL error.
fn crash(lines: &[String], last_record_line: usize) -> Option<(usize, String)> {
    const SIGNS: [&str; 6] = [
        "Traceback (most recent call last)",
        "KeyboardInterrupt",
        "SIGTERM",
        "CUDA out of memory",
        "NCCL error",
        "Killed",
    ];
    lines
        .iter()
        .enumerate()
        .skip(last_record_line)
        .find(|(_, l)| SIGNS.iter().any(|s| l.contains(s)))
        .map(|(i, l)| (i + 1, super::super::clip(l.trim())))
}

pub use sweep::{import, StepReport, MAX_LOGS};
