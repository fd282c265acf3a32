//! The step-time records of a log, by the lines each framework prints per step (or per
//! window of steps). Each reader returns nothing when the log has none of its lines; the
//! first reader that finds records names the framework.

use scaling_model::steady::StepRecord;

/// The framework whose step lines a log holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framework {
    /// Megatron-LM, Megatron-Bridge, Megatron-DeepSpeed: `iteration  10/ 100 | … elapsed time
    /// per iteration (ms): 451.3 |` (Megatron-LM `megatron/training/training.py`,
    /// `training_log`): the mean over the `--log-interval` iterations since the last line.
    Megatron,
    /// NeMo 1.x / 2.0 (PyTorch Lightning): the DLLogger line per step, `global_step : 5.0 …
    /// train_step_timing in s : 3.93`; `global_step` counts from 0.
    Nemo,
    /// MLPerf Training's `:::MLLOG` JSON lines: `tracked_stats` with `train_step_time` (s)
    /// and the window's last `step` (from 0).
    Mlperf,
    /// torchtitan: `step: 10  loss: …  tps: 9,323  tflops: …  mfu: …%` (tps per GPU).
    Torchtitan,
    /// The Hugging Face Trainer's logged dicts, `{'loss': …, 'train_runtime': 30.83, …}`
    /// (with `--include-tokens-per-second`; cumulative seconds since training began).
    HfTrainer,
    /// MaxText: `completed step: 9, seconds: 1.234, TFLOP/s/device: …, Tokens/s/device: …`.
    Maxtext,
    /// Megatron-LM's functional-test golden values: JSON, `"iteration-time": {"values":
    /// {"2": 8.99, …}}` in seconds.
    MegatronGolden,
}

impl Framework {
    /// What its step lines call the step time (the report's source).
    pub fn label(self) -> &'static str {
        match self {
            Framework::Megatron => "elapsed time per iteration (ms)",
            Framework::Nemo => "train_step_timing in s",
            Framework::Mlperf => "train_step_time",
            Framework::Torchtitan => "tps",
            Framework::HfTrainer => "train_runtime",
            Framework::Maxtext => "seconds",
            Framework::MegatronGolden => "iteration-time",
        }
    }
}

/// One record and the line it is on (from 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Record {
    pub record: StepRecord,
    pub line: usize,
    /// Tokens per second per GPU as the line prints it, if it does.
    pub tokens_per_s_per_gpu: Option<f64>,
    /// Model TFLOP/s per GPU as the line prints it, if it does (a sentinel `-1` is not).
    pub tflops_per_gpu: Option<f64>,
}

/// What the step lines say besides the records.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Steps {
    pub records: Vec<Record>,
    /// The step count the run was launched for, where the step lines print it
    /// (`iteration 470/ 171661`).
    pub of_steps: Option<u64>,
}

/// A number that may carry thousands separators (`9,323`). Out of line: the readers call it
/// at some twenty sites, and the runs module's size budget counts each inlined copy.
#[inline(never)]
fn number(text: &str) -> Option<f64> {
    let t = text.trim_start();
    let n = t
        .bytes()
        .take_while(|c| c.is_ascii_digit() || matches!(c, b'.' | b',' | b'e' | b'E' | b'-' | b'+'))
        .count();
    t[..n]
        .replace(',', "")
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

/// The text after `label` in `line`, if `label` is in it.
#[inline(never)]
fn after<'a>(line: &'a str, label: &str) -> Option<&'a str> {
    line.find(label).map(|at| &line[at + label.len()..])
}

fn positive(v: Option<f64>) -> Option<f64> {
    v.filter(|&v| v > 0.0 && v.is_finite())
}

/// Megatron's iteration lines.
pub fn megatron(lines: &[String]) -> Steps {
    let mut steps = Steps::default();
    let mut previous = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(ms) = after(line, "elapsed time per iteration (ms):").and_then(number) else {
            continue;
        };
        let Some(head) = after(line, "iteration") else {
            continue;
        };
        let mut parts = head.split('|').next().unwrap_or("").split('/');
        let Some(iteration) = parts.next().and_then(number).map(|v| v as u64) else {
            continue;
        };
        steps.of_steps = parts.next().and_then(number).map(|v| v as u64);
        if ms > 0.0 && iteration > previous {
            steps.records.push(Record {
                record: StepRecord {
                    first_step: previous + 1,
                    last_step: iteration,
                    step_ms: ms,
                },
                line: i + 1,
                tokens_per_s_per_gpu: None,
                tflops_per_gpu: positive(
                    after(line, "throughput per GPU (TFLOP/s/GPU):").and_then(number),
                ),
            });
        }
        previous = iteration;
    }
    steps
}

/// NeMo's DLLogger lines (full precision; the progress bar rounds to 10 ms).
pub fn nemo(lines: &[String]) -> Steps {
    let mut steps = Steps::default();
    for (i, line) in lines.iter().enumerate() {
        let Some(dll) = after(line, "DLL ") else {
            continue;
        };
        let seconds = after(dll, "train_step_timing in s :").and_then(number);
        let step = after(dll, "global_step :").and_then(number);
        if let (Some(s), Some(g)) = (positive(seconds), step) {
            let step = g as u64 + 1;
            steps.records.push(Record {
                record: StepRecord {
                    first_step: step,
                    last_step: step,
                    step_ms: s * 1000.0,
                },
                line: i + 1,
                tokens_per_s_per_gpu: None,
                tflops_per_gpu: positive(after(dll, "TFLOPS_per_GPU :").and_then(number)),
            });
        }
    }
    steps
}

/// MLPerf's `tracked_stats` records that carry the window's last step; the
/// block averages (`mlperf_common`'s logging callback, no `step`) are not per-step windows.
pub fn mlperf(lines: &[String]) -> Steps {
    let mut steps = Steps::default();
    let mut previous = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(json) = after(line, ":::MLLOG ") else {
            continue;
        };
        let Ok(value) = serde_json::from_str::<serde_json::Value>(json.trim()) else {
            continue;
        };
        if value["key"] != "tracked_stats" {
            continue;
        }
        let seconds = positive(value["value"]["train_step_time"].as_f64());
        let step = value["metadata"]["step"].as_f64();
        if let (Some(s), Some(step)) = (seconds, step) {
            let last = step as u64 + 1;
            if last > previous {
                steps.records.push(Record {
                    record: StepRecord {
                        first_step: previous + 1,
                        last_step: last,
                        step_ms: s * 1000.0,
                    },
                    line: i + 1,
                    tokens_per_s_per_gpu: None,
                    tflops_per_gpu: None,
                });
                previous = last;
            }
        }
    }
    steps
}

/// torchtitan's step lines. The step time is not printed: it is the global batch's tokens
/// over the printed per-GPU `tps` times the GPUs, where the log gives both
/// (`tokens_per_step`), else the time between consecutive step lines' timestamps.
pub fn torchtitan(lines: &[String], tokens_per_step: Option<f64>) -> Steps {
    let mut steps = Steps::default();
    let mut previous: Option<(u64, f64)> = None;
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = after(line, "step:") else {
            continue;
        };
        let (Some(step), Some(tps)) = (number(rest), after(line, "tps:").and_then(number)) else {
            continue;
        };
        let step = step as u64;
        let stamp = timestamp(line);
        let ms = match (tokens_per_step, previous, stamp) {
            (Some(tokens), _, _) if tps > 0.0 => Some(tokens / tps * 1000.0),
            (None, Some((s0, t0)), Some(t)) if step > s0 => Some((t - t0) / (step - s0) as f64),
            _ => None,
        };
        if let Some(ms) = positive(ms) {
            steps.records.push(Record {
                record: StepRecord {
                    first_step: step,
                    last_step: step,
                    step_ms: ms,
                },
                line: i + 1,
                tokens_per_s_per_gpu: positive(Some(tps)),
                tflops_per_gpu: positive(after(line, "tflops:").and_then(number)),
            });
        }
        previous = stamp.map(|t| (step, t));
    }
    steps
}

/// Milliseconds since midnight of a `HH:MM:SS,mmm` (or `.mmm`) time stamp in `line`.
fn timestamp(line: &str) -> Option<f64> {
    let bytes = line.as_bytes();
    (0..bytes.len().saturating_sub(11)).find_map(|i| {
        let s = &line.get(i..i + 12)?;
        let b = s.as_bytes();
        let shape = b[2] == b':' && b[5] == b':' && matches!(b[8], b',' | b'.');
        let digits = [0, 1, 3, 4, 6, 7, 9, 10, 11]
            .iter()
            .all(|&k| b[k].is_ascii_digit());
        if !(shape && digits) {
            return None;
        }
        let part = |a: usize, z: usize| s[a..z].parse::<f64>().ok();
        Some(((part(0, 2)? * 60.0 + part(3, 5)?) * 60.0 + part(6, 8)?) * 1000.0 + part(9, 12)?)
    })
}

/// The Hugging Face Trainer's logged dicts: consecutive `train_runtime`s (cumulative s) over
/// the steps between them. The step is `num_input_tokens_seen / tokens_per_step` where both
/// are known (a log with lines left out, as an excerpt, then still counts right), else the
/// dict's position times `logging_steps`.
pub fn hf_trainer(lines: &[String], tokens_per_step: Option<f64>, logging_steps: u64) -> Steps {
    let mut steps = Steps::default();
    let mut previous: Option<(u64, f64)> = None;
    let mut index = 0;
    for (i, line) in lines.iter().enumerate() {
        let l = line.trim();
        if !(l.starts_with("{'loss'") && l.contains("'train_runtime'")) {
            continue;
        }
        let Some(runtime) = after(l, "'train_runtime':").and_then(number) else {
            continue;
        };
        index += 1;
        let seen = after(l, "'num_input_tokens_seen':").and_then(number);
        let step = match (seen, tokens_per_step) {
            (Some(seen), Some(per)) if per > 0.0 => (seen / per).round() as u64,
            _ => index * logging_steps.max(1),
        };
        let (first, ms) = match previous {
            Some((s0, r0)) if step > s0 => (s0 + 1, (runtime - r0) * 1000.0 / (step - s0) as f64),
            Some(_) => continue,
            None => (1, runtime * 1000.0 / step.max(1) as f64),
        };
        if let Some(ms) = positive(Some(ms)) {
            steps.records.push(Record {
                record: StepRecord {
                    first_step: first,
                    last_step: step,
                    step_ms: ms,
                },
                line: i + 1,
                tokens_per_s_per_gpu: None,
                tflops_per_gpu: None,
            });
        }
        previous = Some((step, runtime));
    }
    steps
}

/// MaxText's `completed step:` lines (`train.py`'s per-step log).
pub fn maxtext(lines: &[String]) -> Steps {
    let mut steps = Steps::default();
    for (i, line) in lines.iter().enumerate() {
        let Some(step) = after(line, "completed step:").and_then(number) else {
            continue;
        };
        let Some(seconds) = positive(after(line, "seconds:").and_then(number)) else {
            continue;
        };
        // MaxText counts steps from 0.
        let step = step as u64 + 1;
        steps.records.push(Record {
            record: StepRecord {
                first_step: step,
                last_step: step,
                step_ms: seconds * 1000.0,
            },
            line: i + 1,
            tokens_per_s_per_gpu: positive(after(line, "Tokens/s/device:").and_then(number)),
            tflops_per_gpu: positive(after(line, "TFLOP/s/device:").and_then(number)),
        });
    }
    steps
}

/// Megatron-LM's golden values (`tests/functional_tests/test_cases/…/golden_values_*.json`):
/// `iteration-time` in seconds, keyed by step.
pub fn golden(root: &serde_json::Value, text: &str) -> Steps {
    let mut steps = Steps::default();
    let Some(values) = root["iteration-time"]["values"].as_object() else {
        return steps;
    };
    // The keys in the text's order with their lines, in one pass from `"iteration-time"` (the
    // file writes them in step order; a lookup per key would rescan the text for each).
    let start = text.find("\"iteration-time\"").unwrap_or(0);
    let mut line = super::super::line_of(text, start);
    let mut rest = &text[start..];
    while steps.records.len() < values.len() {
        let Some(open) = rest.find('"') else {
            break;
        };
        line += rest[..open].matches('\n').count();
        rest = &rest[open + 1..];
        let Some(close) = rest.find('"') else {
            break;
        };
        let key = &rest[..close];
        line += key.matches('\n').count();
        rest = &rest[close + 1..];
        let Some(step) = key.parse::<u64>().ok().filter(|&s| s > 0) else {
            continue;
        };
        if let Some(seconds) = values.get(key).and_then(serde_json::Value::as_f64) {
            steps.records.push(Record {
                record: StepRecord {
                    first_step: step,
                    last_step: step,
                    step_ms: seconds * 1000.0,
                },
                line,
                tokens_per_s_per_gpu: None,
                tflops_per_gpu: None,
            });
        }
    }
    steps
        .records
        .retain(|r| r.record.step_ms > 0.0 && r.record.step_ms.is_finite());
    steps.of_steps = root["iteration-time"]["end_step"].as_u64();
    steps
}
