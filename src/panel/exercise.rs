//! The Learn view's exercises: predict, then reveal. Each is a scenario (a link), one number
//! the reader guesses, the model's answer computed from that scenario — never a stored
//! result — and the chart that shows it. The questions and the sentence of why are texts of
//! the Learn view (`www/learn/*.html`, loaded when the view opens); a teacher links one or a
//! set with `view=learn&q=3` or `q=1,4,7`, and the link says nothing of the answer.

use super::ChartId;
use crate::i18n::tr;
use crate::model::laws::{
    amdahl_ceiling, amdahl_half_efficiency_processors, amdahl_speedup, efficiency,
    gustafson_speedup, isoefficiency_work, karp_flatt, shi_amdahl_from_gustafson,
};
use crate::model::llm::LlmSweep;
use crate::model::mode::{scaling_mode, ReportedRun, ScalingMode};
use crate::model::plan::PlanSweep;
use crate::scenario::{decode, Scenario};
use crate::text::units::{format_count, format_fraction, format_sig, parse_quantity};

/// What the guessed number is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// A ratio such as a speedup: `20×`.
    Times,
    /// Processors or GPUs.
    Count,
    /// A fraction, guessed in percent (`3.6` or `3.6%`).
    Percent,
    /// Milliseconds.
    Ms,
    /// A kind of scaling, guessed as a word (`strong`, `weak`, `mixed`; 强、弱、混合).
    Mode,
}

/// How a guess is judged: each exercise has its own tolerance, because "no change" is not
/// "within a factor of 2" of a doubling, and a naive guess must not pass for a fitted one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Judge {
    /// Right within `right` of the answer (relative), close within `close`; else off.
    Near { right: f64, close: f64 },
    /// A pick among the question's choices (table rows, kinds): right or wrong.
    Exact,
}

/// One exercise.
#[derive(Debug, Clone, Copy)]
pub struct Exercise {
    /// The scenario the question is about and the chart shows.
    pub query: &'static str,
    pub chart: ChartId,
    pub unit: Unit,
    pub judge: Judge,
    /// The model's answer for the scenario.
    answer: fn(&Scenario) -> Option<f64>,
    /// The published measurement the answer is held against, where there is one.
    pub measured: Option<f64>,
}

impl Exercise {
    /// The model's answer, computed now from the exercise's scenario.
    pub fn answer(&self) -> Option<f64> {
        (self.answer)(&self.scenario()).filter(|v| v.is_finite())
    }

    pub fn scenario(&self) -> Scenario {
        decode(self.query).scenario
    }
}

/// The strong-sweep step time at `gpus` (a row of the scenario's table).
fn step_at(s: &Scenario, gpus: f64) -> Option<f64> {
    LlmSweep::compute(&s.llm_inputs())
        .strong
        .iter()
        .find(|r| r.gpus == gpus)
        .map(|r| r.step_ms)
}

/// The weak-scaling speedup to quality at `gpus` (a row of the scenario's Plan table).
fn weak_ttq_speedup_at(s: &Scenario, gpus: f64) -> Option<f64> {
    PlanSweep::compute(&s.plan_inputs())
        .rows
        .iter()
        .find(|r| r.gpus == gpus)
        .map(|r| r.weak_ttq_speedup)
}

/// [`ScalingMode`] as the number an exercise's answer is (its order in the enum).
fn mode_number(mode: ScalingMode) -> f64 {
    match mode {
        ScalingMode::Strong => 0.0,
        ScalingMode::Weak => 1.0,
        ScalingMode::Mixed => 2.0,
    }
}

/// The reported sweep of exercise 13: 1,024 GPUs at TP 8 · PP 4 and a 4M-token batch, then
/// 4,096 GPUs at TP 8 · PP 8 and 16M tokens, "90% efficiency".
const REPORT_13: [ReportedRun; 2] = [
    ReportedRun {
        gpus: 1024.0,
        global_batch_tokens: 4_194_304.0,
        model_parallel: 32.0,
        expert_parallel: 1.0,
    },
    ReportedRun {
        gpus: 4096.0,
        global_batch_tokens: 16_777_216.0,
        model_parallel: 64.0,
        expert_parallel: 1.0,
    },
];

/// The exercises, in the Learn view's order (`q=1` is the first).
pub const EXERCISES: [Exercise; crate::scenario::EXERCISES as usize] = [
    // Amdahl's ceiling 1/f (Amdahl 1967): 1/0.05 = 20.
    Exercise {
        query: "v=1&view=laws&f=0.05&n=4096&fs=",
        chart: ChartId::LawsSpeedup,
        unit: Unit::Times,
        judge: Judge::Near {
            right: 0.05,
            close: 0.25,
        },
        answer: |s| amdahl_ceiling(s.laws.serial_fraction),
        measured: None,
    },
    // E(N) = 1/(f·N + 1 − f) = 1/2 at N = (1 + f)/f = 21: a count, right within one.
    Exercise {
        query: "v=1&view=laws&f=0.05&n=256&fs=",
        chart: ChartId::LawsEfficiency,
        unit: Unit::Count,
        judge: Judge::Near {
            right: 0.05,
            close: 0.25,
        },
        answer: |s| amdahl_half_efficiency_processors(s.laws.serial_fraction),
        measured: None,
    },
    // Gustafson (1988): f + (1 − f)·N = 0.05 + 0.95·1,024 = 972.85; N itself (1,024) is 5%
    // high and only close.
    Exercise {
        query: "v=1&view=laws&f=0.05&n=1024&fs=",
        chart: ChartId::LawsSpeedup,
        unit: Unit::Times,
        judge: Judge::Near {
            right: 0.01,
            close: 0.1,
        },
        answer: |s| {
            Some(gustafson_speedup(
                s.laws.serial_fraction,
                s.laws.max_processors as f64,
            ))
        },
        measured: None,
    },
    // Karp–Flatt (1990): e = (1/6.4 − 1/8)/(1 − 1/8) = 0.03125/0.875 = 3.57%.
    Exercise {
        query: "v=1&view=laws&mk=speedup&m=1:1,8:6.4",
        chart: ChartId::LawsKarpFlatt,
        unit: Unit::Percent,
        judge: Judge::Near {
            right: 0.05,
            close: 0.25,
        },
        answer: |s| {
            let last = s.laws.measured.last()?;
            karp_flatt(last.value, last.processors)
        },
        measured: None,
    },
    // The seed's strong table with twice its exposed column (200, 300, 440, 600 ms): steps
    // 1,100, 525, 552.5, 656.25 ms, throughput 29.1M, 61.0M, 57.9M, 48.8M tok/s; it peaks at
    // 4,096, a pick among four rows.
    Exercise {
        query: "v=1&preset=seed-strong&view=strong&ex=1024:200,4096:300,8192:440,16384:600",
        chart: ChartId::StrongThroughput,
        unit: Unit::Count,
        judge: Judge::Exact,
        answer: |s| {
            Some(
                LlmSweep::compute(&s.llm_inputs())
                    .summary
                    .peak_throughput_gpus,
            )
        },
        measured: None,
    },
    // Megatron-Core 177B, fitted on 96 and 4,608 GPUs; measured at 1,152 GPUs:
    // F_tok·4,718,592 / 517.5 PFLOP/s = 10,212 ms (published-runs.md §1, with attention's FLOPs
    // in F_tok = 1.1200e12 as Megatron-LM counts them). Ideal scaling from 96 GPUs
    // (9,896 ms) is 2.7% low: close, not right; 11,050 ms (8.7% high) is off.
    Exercise {
        query: "v=1&preset=megatron-177b-h100&view=strong",
        chart: ChartId::StrongStep,
        unit: Unit::Ms,
        judge: Judge::Near {
            right: 0.015,
            close: 0.05,
        },
        answer: |s| step_at(s, 1152.0),
        measured: Some(10212.0),
    },
    // MLPerf v3.1 GPT-3: the model's steps × step time, 4,096 → 8,192 GPUs; the run measured
    // 8.58 → 4.93 min to the target, 1.74×. Twice the GPUs (2×) is 10% high: off.
    Exercise {
        query: "v=1&preset=mlperf-gpt3-175b-h100&view=plan",
        chart: ChartId::PlanTimeToQuality,
        unit: Unit::Times,
        judge: Judge::Near {
            right: 0.04,
            close: 0.08,
        },
        answer: |s| weak_ttq_speedup_at(s, 8192.0),
        measured: Some(8.58 / 4.93),
    },
    // T_crit ∝ F_eff (MODEL.md §3): twice the achieved FLOP/s (FP8 GEMMs, 370T → 740T) at
    // the same communication doubles the tokens a replica needs to hide it. `cm=flops` so that
    // the compute, and with it the chart, follows F_eff. "No change" (1×) is off.
    Exercise {
        query: "v=1&preset=seed-strong&view=strong&cm=flops&feff=740T",
        chart: ChartId::StrongEfficiency,
        unit: Unit::Times,
        judge: Judge::Near {
            right: 0.02,
            close: 0.1,
        },
        answer: |s| {
            let base = decode("v=1&preset=seed-strong&cm=flops").scenario;
            Some(s.llm_inputs().t_crit_tokens() / base.llm_inputs().t_crit_tokens())
        },
        measured: None,
    },
    // The seed's knee at half its batch: N_max = B/T_crit = 16M/3,700 = 4,324.3 GPUs
    // (M = A = 1).
    Exercise {
        query: "v=1&preset=seed-strong&view=strong&b=16M",
        chart: ChartId::StrongThroughput,
        unit: Unit::Count,
        judge: Judge::Near {
            right: 0.02,
            close: 0.25,
        },
        answer: |s| Some(LlmSweep::compute(&s.llm_inputs()).summary.n_max),
        measured: None,
    },
    // The seed's weak table past the critical batch (docs/model/08-critical-batch.md §8.3):
    // B_crit = 32M, 1,024 → 4,096 GPUs, 32M → 128M: (2 × 1,000)/(1.25 × 1,050) = 1.52×.
    Exercise {
        query: "v=1&preset=seed-weak&view=plan",
        chart: ChartId::PlanTimeToQuality,
        unit: Unit::Times,
        judge: Judge::Near {
            right: 0.03,
            close: 0.1,
        },
        answer: |s| weak_ttq_speedup_at(s, 4096.0),
        measured: None,
    },
    // Shi (1996): f_G = 10% on 100 processors is f_A = 0.1/(0.1 + 0.9·100) = 0.1/90.1 = 0.111%.
    Exercise {
        query: "v=1&view=laws&f=0.1&n=100&fs=",
        chart: ChartId::LawsSpeedup,
        unit: Unit::Percent,
        judge: Judge::Near {
            right: 0.03,
            close: 0.25,
        },
        answer: |s| {
            Some(shi_amdahl_from_gustafson(
                s.laws.serial_fraction,
                s.laws.max_processors as f64,
            ))
        },
        measured: None,
    },
    // Isoefficiency (Grama et al. 1993) under Amdahl-type overhead: W = K·(N − 1)·W_s, so
    // holding E from 64 to 256 processors needs (256 − 1)/(64 − 1) = 255/63 = 4.05× the work.
    Exercise {
        query: "v=1&view=laws&f=0.01&n=256&fs=",
        chart: ChartId::LawsEfficiency,
        unit: Unit::Times,
        judge: Judge::Near {
            right: 0.02,
            close: 0.1,
        },
        answer: |s| {
            let f = s.laws.serial_fraction;
            let e = efficiency(amdahl_speedup(f, 64.0), 64.0);
            let n = s.laws.max_processors as f64;
            Some(isoefficiency_work(e, n, f)? / isoefficiency_work(e, 64.0, f)?)
        },
        measured: None,
    },
    // A report's four points (the article): 4M → 16M tokens on 1,024 → 4,096 GPUs while PP
    // went 4 → 8. T = 4,194,304·32/1,024 = 131,072 → 16,777,216·64/4,096 = 262,144, neither
    // B nor T held, and the layout changed: mixed.
    Exercise {
        query: "v=1&preset=seed-strong&view=plan&bcap=64M",
        chart: ChartId::PlanTimeToQuality,
        unit: Unit::Mode,
        judge: Judge::Exact,
        answer: |_| Some(mode_number(scaling_mode(&REPORT_13[0], &REPORT_13[1]))),
        measured: None,
    },
    // Measure your own program: HPC Carpentry's `amdahl` lesson, 33.3 / 13.6 / 9.5 s on 1 / 4 /
    // 8 CPUs: S(8) = 33.3/9.5 = 3.5053, e = (1/3.5053 − 1/8)/(7/8) = 0.18318.
    Exercise {
        query: "v=1&view=laws&mk=time&m=1:33.3,4:13.6,8:9.5",
        chart: ChartId::LawsKarpFlatt,
        unit: Unit::Percent,
        judge: Judge::Near {
            right: 0.05,
            close: 0.25,
        },
        answer: |s| {
            let first = s.laws.measured.first()?;
            let last = s.laws.measured.last()?;
            karp_flatt(first.value / last.value, last.processors)
        },
        measured: None,
    },
];

/// Exercise `number` (1-based), if there is one.
pub fn exercise(number: u8) -> Option<&'static Exercise> {
    EXERCISES.get(usize::from(number).checked_sub(1)?)
}

/// A number in the exercise's unit, as the page writes it, with its unit and separators.
pub fn format(unit: Unit, value: f64) -> String {
    match unit {
        Unit::Times => crate::trf!("{}×", "{} 倍", format_sig(value, 3)),
        Unit::Count => format_count(value.round()),
        Unit::Percent => format!("{}%", format_sig(value * 100.0, 3)),
        Unit::Ms => format!("{} ms", format_count(value.round())),
        Unit::Mode => match value as u8 {
            0 => tr("strong scaling", "强扩展"),
            1 => tr("weak scaling", "弱扩展"),
            _ => tr("mixed", "混合"),
        }
        .to_string(),
    }
}

/// Reads a guess typed into the exercise's box: a number (percent for a `Percent` exercise:
/// `3.6` and `3.6%` are the same guess), or a kind of scaling for a `Mode` exercise. The
/// message names the box.
pub fn read_guess(unit: Unit, text: &str) -> Result<f64, String> {
    if unit == Unit::Mode {
        return read_mode(text);
    }
    let trimmed = text.trim().trim_end_matches(['×', 'x', 'X', '倍']);
    let trimmed = trimmed.strip_suffix("ms").map_or(trimmed, str::trim_end);
    // The units the Chinese prompts show: （倍）, （个处理器）, and GPUs as 卡 or 张卡.
    let trimmed = "个处理器 张卡 卡 个"
        .split(' ')
        .find_map(|u| trimmed.strip_suffix(u))
        .map_or(trimmed, str::trim_end);
    let percent = trimmed.strip_suffix('%');
    let value = parse_quantity(percent.unwrap_or(trimmed))
        .map_err(|e| trf!("Your guess: {}", "你的猜测：{}", e.to_string()))?;
    if !value.is_finite() || value < 0.0 {
        return Err(tr(
            "Your guess: write a number of 0 or more",
            "你的猜测：请写一个不小于 0 的数",
        )
        .to_string());
    }
    Ok(if unit == Unit::Percent || percent.is_some() {
        value / 100.0
    } else {
        value
    })
}

/// `strong`, `weak` or `mixed` (any case, a prefix of two letters or more, with or without
/// "scaling"), or 强, 弱, 混合 (with or without 扩展).
fn read_mode(text: &str) -> Result<f64, String> {
    let t = text.trim().to_ascii_lowercase();
    let t = t
        .trim_end_matches("scaling")
        .trim_end_matches("扩展")
        .trim();
    let is = |word: &str| t.len() >= 2 && word.starts_with(t);
    let mode = if is("strong") || t == "强" {
        ScalingMode::Strong
    } else if is("weak") || t == "弱" {
        ScalingMode::Weak
    } else if is("mixed") || t == "混合" {
        ScalingMode::Mixed
    } else {
        return Err(tr(
            "Your guess: write strong, weak or mixed",
            "你的猜测：请写 强、弱 或 混合",
        )
        .to_string());
    };
    Ok(mode_number(mode))
}

/// The revealed answer: the model's value, how far the guess was, and the measurement.
pub fn reveal(number: u8, guess_text: &str) -> Result<String, String> {
    let exercise =
        exercise(number).ok_or_else(|| tr("No such exercise", "没有这道练习").to_string())?;
    let guess = read_guess(exercise.unit, guess_text)?;
    let answer = exercise
        .answer()
        .ok_or_else(|| tr("The model has no answer here", "模型在此没有答案").to_string())?;
    let mut text = trf!(
        "Answer: {} (your guess {}). {}",
        "答案：{}（你的猜测 {}）。{}",
        format(exercise.unit, answer),
        format(exercise.unit, guess),
        verdict(exercise.judge, guess, answer)
    );
    push_measured(&mut text, exercise);
    Ok(text)
}

/// The answer key's line for exercise `number`: the model's answer and the measurement, with
/// no guess (the teacher's print).
pub fn key(number: u8) -> Result<String, String> {
    let exercise =
        exercise(number).ok_or_else(|| tr("No such exercise", "没有这道练习").to_string())?;
    let answer = exercise
        .answer()
        .ok_or_else(|| tr("The model has no answer here", "模型在此没有答案").to_string())?;
    let mut text = trf!("Answer: {}.", "答案：{}。", format(exercise.unit, answer));
    push_measured(&mut text, exercise);
    Ok(text)
}

fn push_measured(text: &mut String, exercise: &Exercise) {
    if let Some(measured) = exercise.measured {
        text.push_str(tr(" ", ""));
        text.push_str(&trf!(
            "Measured: {}.",
            "实测：{}。",
            format(exercise.unit, measured)
        ));
    }
}

/// How close a guess is, by the exercise's own tolerance.
pub fn verdict(judge: Judge, guess: f64, answer: f64) -> String {
    match judge {
        Judge::Exact => {
            if guess == answer {
                tr("Right.", "正确。").to_string()
            } else {
                tr("Not this one.", "不是这个。").to_string()
            }
        }
        Judge::Near { right, close } => {
            let error = (guess - answer).abs() / answer.abs();
            let ratio = if guess > answer {
                guess / answer
            } else {
                answer / guess
            };
            if error <= right {
                trf!(
                    "Right: within {} of the answer.",
                    "正确：与答案相差不到 {}。",
                    format_fraction(right)
                )
            } else if error <= close {
                trf!(
                    "Close: within {}, not yet right.",
                    "接近：相差不到 {}，但还不对。",
                    format_fraction(close)
                )
            } else if ratio < 2.0 {
                if guess > answer {
                    trf!(
                        "Off: {} too high.",
                        "偏差：高了 {}。",
                        format_fraction(error)
                    )
                } else {
                    trf!(
                        "Off: {} too low.",
                        "偏差：低了 {}。",
                        format_fraction(error)
                    )
                }
            } else if ratio.is_finite() {
                trf!(
                    "Off by a factor of {}.",
                    "相差 {} 倍。",
                    format_sig(ratio, 2)
                )
            } else {
                tr("Off by far.", "相差甚远。").to_string()
            }
        }
    }
}
