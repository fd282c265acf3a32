//! The Learn view's exercises: predict, then reveal. Each is a scenario (a link), one number
//! the reader guesses, the model's answer computed from that scenario — never a stored
//! result — and the chart that shows it. The questions and the sentence of why are texts of
//! the Learn view (`www/learn/*.html`, loaded when the view opens); a teacher links one or a
//! set with `view=learn&q=3` or `q=1,4,7`, and the link says nothing of the answer.

use super::ChartId;
use crate::i18n::tr;
use crate::model::laws::{
    amdahl_ceiling, amdahl_half_efficiency_processors, gustafson_speedup, karp_flatt,
};
use crate::model::llm::LlmSweep;
use crate::model::plan::PlanSweep;
use crate::scenario::{decode, Scenario};
use crate::text::units::{format_count, format_ms, format_percent, format_sig, parse_quantity};

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
}

/// One exercise.
#[derive(Debug, Clone, Copy)]
pub struct Exercise {
    /// The scenario the question is about and the chart shows.
    pub query: &'static str,
    pub chart: ChartId,
    pub unit: Unit,
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

/// The eight exercises, in the Learn view's order (`q=1` is the first).
pub const EXERCISES: [Exercise; crate::scenario::EXERCISES as usize] = [
    // Amdahl's ceiling 1/f (Amdahl 1967): 1/0.05 = 20.
    Exercise {
        query: "v=1&view=laws&f=0.05&n=4096",
        chart: ChartId::LawsSpeedup,
        unit: Unit::Times,
        answer: |s| amdahl_ceiling(s.laws.serial_fraction),
        measured: None,
    },
    // E(N) = 1/(f·N + 1 − f) = 1/2 at N = (1 + f)/f = 21.
    Exercise {
        query: "v=1&view=laws&f=0.05&n=256",
        chart: ChartId::LawsEfficiency,
        unit: Unit::Count,
        answer: |s| amdahl_half_efficiency_processors(s.laws.serial_fraction),
        measured: None,
    },
    // Gustafson (1988): f + (1 − f)·N = 0.05 + 0.95·1,024 = 972.85.
    Exercise {
        query: "v=1&view=laws&f=0.05&n=1024",
        chart: ChartId::LawsSpeedup,
        unit: Unit::Times,
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
        answer: |s| {
            let last = s.laws.measured.last()?;
            karp_flatt(last.value, last.processors)
        },
        measured: None,
    },
    // The seed's strong table: throughput peaks at a table row.
    Exercise {
        query: "v=1&preset=seed-strong&view=strong",
        chart: ChartId::StrongThroughput,
        unit: Unit::Count,
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
    // 6·177e9·4,718,592 / 170.8 PFLOP/s (published-runs.md §1).
    Exercise {
        query: "v=1&preset=megatron-177b-h100&view=strong",
        chart: ChartId::StrongStep,
        unit: Unit::Ms,
        answer: |s| step_at(s, 1152.0),
        measured: Some(9683.0),
    },
    // MLPerf v3.1 GPT-3: 4,096 → 8,192 GPUs ran 8.58 → 4.93 min to the target, 1.74×.
    Exercise {
        query: "v=1&preset=mlperf-gpt3-175b-h100&view=plan",
        chart: ChartId::PlanTimeToQuality,
        unit: Unit::Times,
        answer: |s| {
            let plan = PlanSweep::compute(&s.plan_inputs());
            plan.rows
                .iter()
                .find(|r| r.gpus == 8192.0)
                .map(|r| r.weak_ttq_speedup)
        },
        measured: Some(8.58 / 4.93),
    },
    // T_crit ∝ F_eff (MODEL.md §3): twice the achieved FLOP/s (FP8 GEMMs, 370T → 740T) at
    // the same communication doubles the tokens a replica needs to hide it.
    Exercise {
        query: "v=1&preset=seed-strong&view=strong&feff=740T",
        chart: ChartId::StrongEfficiency,
        unit: Unit::Times,
        answer: |s| {
            let base = decode("v=1&preset=seed-strong").scenario;
            Some(s.llm_inputs().t_crit_tokens() / base.llm_inputs().t_crit_tokens())
        },
        measured: None,
    },
];

/// Exercise `number` (1-based), if there is one.
pub fn exercise(number: u8) -> Option<&'static Exercise> {
    EXERCISES.get(usize::from(number).checked_sub(1)?)
}

/// A number in the exercise's unit, as the page writes it.
pub fn format(unit: Unit, value: f64) -> String {
    match unit {
        Unit::Times => format!("{}×", format_sig(value, 3)),
        Unit::Count => format_count(value.round()),
        Unit::Percent => format_percent(value, 2),
        Unit::Ms => format_ms(value),
    }
}

/// Reads a guess typed into the exercise's box: a number (percent for a `Percent` exercise:
/// `3.6` and `3.6%` are the same guess). The message names the box.
pub fn read_guess(unit: Unit, text: &str) -> Result<f64, String> {
    let trimmed = text.trim().trim_end_matches(['×', 'x', 'X']);
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
        verdict(guess, answer)
    );
    if let Some(measured) = exercise.measured {
        text.push(' ');
        text.push_str(&trf!(
            "Measured: {}.",
            "实测：{}。",
            format(exercise.unit, measured)
        ));
    }
    Ok(text)
}

/// How close a guess is: within 10% of the answer, within a factor of 2, or off by a factor.
pub fn verdict(guess: f64, answer: f64) -> String {
    let ratio = if guess > answer {
        guess / answer
    } else {
        answer / guess
    };
    if (guess - answer).abs() <= 0.1 * answer {
        tr("Within 10%: well predicted.", "误差在 10% 以内：预测得好。").to_string()
    } else if ratio <= 2.0 {
        tr("Within a factor of 2.", "在 2 倍以内。").to_string()
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
