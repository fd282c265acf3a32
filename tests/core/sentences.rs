//! Every number a sentence prints is one the table beside it shows, at the row the sentence
//! names. The report's and the badges' sentences are what readers copy into their own reports:
//! a throughput taken from the first row while the sentence names the baseline (a 2,048-GPU
//! figure printed as 8,192's), or "T falls from 8.192k to 8.192k" where `T` stays and `A`
//! falls, contradicts the table next to it. Each check here reads the sentence as a reader
//! does, in both languages and for every preset, and looks the numbers up in the Strong table.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use scaling_core::i18n::{set_lang, Lang};
use scaling_core::panel::checklist::report;
use scaling_core::panel::llm::{strong_badge, strong_table};
use scaling_core::panel::table::Table;
use scaling_core::scenario::Preset;
use scaling_model::llm::LlmSweep;
use scaling_model::plan::PlanSweep;

/// The text between `before` and the next `after` in `text`.
fn between<'a>(text: &'a str, before: &str, after: &str) -> Option<&'a str> {
    let start = text.find(before)? + before.len();
    let len = text[start..].find(after)?;
    Some(&text[start..start + len])
}

/// The cell of `column` (a header that starts with one of `headers`) in the row whose GPU
/// count cell is `gpus`.
fn cell<'a>(table: &'a Table, gpus: &str, headers: &[&str]) -> Option<&'a str> {
    let column = table
        .headers
        .iter()
        .position(|h| headers.iter().any(|name| h.starts_with(name)))?;
    let row = table.rows.iter().find(|row| row[0] == gpus)?;
    Some(&row[column])
}

/// Runs `check` for every preset in both languages with the preset's sweeps and Strong table.
fn each_preset(check: impl Fn(&str, &Table, &str, &str, Lang)) {
    for preset in Preset::ALL {
        let scenario = preset.scenario();
        let llm = LlmSweep::compute(&scenario.llm_inputs());
        let plan = PlanSweep::compute(&scenario.plan_inputs());
        for lang in [Lang::En, Lang::Zh] {
            set_lang(lang);
            let table = strong_table(&llm);
            let r = report(&scenario, &llm, &plan);
            let text = if lang == Lang::En { r.en } else { r.zh };
            check(preset.name(), &table, &text, &strong_badge(&llm), lang);
        }
        set_lang(Lang::En);
    }
}

#[test]
fn the_reports_throughput_is_the_tables_at_the_counts_it_names() {
    each_preset(|preset, table, text, _, lang| {
        // "throughput goes from 1.336M tokens/s at 8,192 GPUs to 2.506M at 16,384 (peak …"
        // "吞吐从 8,192 卡的 1.336M 到 16,384 卡的 2.506M tokens/s（峰值 …"
        let (n_from, from, n_to, to, efficiency) = if lang == Lang::En {
            let span = between(text, "throughput goes from ", " (peak").unwrap();
            let (from, rest) = span.split_once(" tokens/s at ").unwrap();
            let (n_from, rest) = rest.split_once(" GPUs to ").unwrap();
            let (to, n_to) = rest.split_once(" at ").unwrap();
            let efficiency = between(text, "parallel efficiency is ", " and").unwrap();
            (n_from, from, n_to, to, efficiency)
        } else {
            let span = between(text, "吞吐从 ", " tokens/s（峰值").unwrap();
            let (n_from, rest) = span.split_once(" 卡的 ").unwrap();
            let (from, rest) = rest.split_once(" 到 ").unwrap();
            let (n_to, to) = rest.split_once(" 卡的 ").unwrap();
            let efficiency = between(text, "并行效率 ", "，").unwrap();
            (n_from, from, n_to, to, efficiency)
        };
        let throughput = ["throughput", "吞吐"];
        assert_eq!(
            cell(table, n_from, &throughput),
            Some(from),
            "{preset} {lang:?}: {text}"
        );
        assert_eq!(
            cell(table, n_to, &throughput),
            Some(to),
            "{preset} {lang:?}: {text}"
        );
        let eff = cell(table, n_to, &["efficiency", "效率"]);
        assert_eq!(eff, Some(efficiency), "{preset} {lang:?}: {text}");
    });
}

#[test]
fn the_report_starts_the_throughput_at_the_baseline_when_the_table_has_it() {
    // llama31-405b-h100: rows 2,048 … 16,384 GPUs, N₀ = 8,192 (Meta's published run).
    each_preset(|preset, table, text, _, lang| {
        if preset != "llama31-405b-h100" {
            return;
        }
        assert!(table.rows.iter().any(|row| row[0] == "8,192"));
        let expected = ["at 8,192 GPUs to", "吞吐从 8,192 卡的"][lang as usize];
        assert!(text.contains(expected), "{lang:?}: {text}");
    });
}

#[test]
fn the_strong_badge_says_what_the_table_shows_of_t_and_a() {
    each_preset(|preset, table, _, badge, lang| {
        let first = &table.rows[0][0];
        let last = &table.rows[table.rows.len() - 1][0];
        let t = ["tokens/replica", "每副本 tokens"];
        let (t0, t1) = (
            cell(table, first, &t).unwrap(),
            cell(table, last, &t).unwrap(),
        );
        let a = ["microbatches A", "梯度累积步数 A"];
        if t0 == t1 {
            // T stays: the badge says so and gives A's fall from the table's A column.
            let (a0, a1) = (
                cell(table, first, &a).unwrap(),
                cell(table, last, &a).unwrap(),
            );
            let expected = if lang == Lang::En {
                format!("T per replica stays {t0} and A {a0} → {a1}")
            } else {
                format!("每副本 T 保持 {t0}，A 从 {a0} 减到 {a1}")
            };
            assert!(badge.contains(&expected), "{preset} {lang:?}: {badge}");
        } else {
            let expected = if lang == Lang::En {
                format!("T per replica {t0} → {t1}")
            } else {
                format!("每副本 T：{t0} → {t1}")
            };
            assert!(badge.contains(&expected), "{preset} {lang:?}: {badge}");
        }
        assert!(!badge.contains("降到"), "{preset}: {badge}");
    });
}

/// The "Step model in force" figure writes the FLOPs per token the compute time counts: with a
/// shape, attention's `12·L·h·s` beside the weights' `6·P_a` (`LlmInputs::flops_per_token`).
#[test]
fn the_step_model_figure_names_the_flops_it_counts() {
    use scaling_core::panel::step_model::{step_model_figure, unused_text, Unused};
    use scaling_core::scenario::decode;
    let shaped = decode("v=1&preset=llama31-405b-h100&cm=flops").scenario;
    let (_, text) = step_model_figure(&shaped.llm).unwrap();
    assert!(
        text.contains("compute from (6·P_a + 12·L·h·s)·B/(N·F_eff)"),
        "{text}"
    );
    let flops = scaling_core::scenario::llm::ComputeMode::Flops;
    assert!(unused_text(Unused::ComputeFrom(flops, false)).contains("from 6·P_a·B/(N·F_eff)"));
    assert!(unused_text(Unused::ComputeFrom(flops, true)).contains("(6·P_a + 12·L·h·s)"));
}

/// The Plan warns when its weak-then-strong layout does not fit at some rows, with the numbers
/// of its own table (the rows marked ✗ and the first one's memory), and its charts mark them.
#[test]
fn the_plan_says_where_its_layout_does_not_fit() {
    use scaling_core::chart::plan::{describe, PlanChart};
    use scaling_core::panel::plan::{key_figures, table};
    let scenario = Preset::from_name("gpt3-175b-walls").unwrap().scenario();
    let llm = LlmSweep::compute(&scenario.llm_inputs());
    let plan = PlanSweep::compute(&scenario.plan_inputs());
    let t = table(&plan);
    let column = t
        .headers
        .iter()
        .position(|h| h.starts_with("weak→strong: memory/GPU"))
        .unwrap();
    let over: Vec<&Vec<String>> = t
        .rows
        .iter()
        .filter(|r| r[column].ends_with(" ✗"))
        .collect();
    assert!(!over.is_empty());
    let figures = key_figures(&plan, &llm);
    let (label, value) = &figures[0];
    assert_eq!(label, "Memory per GPU (weak→strong, this layout)");
    let expected = format!(
        "does not fit at {} of {} rows: {} GiB of 77.5 GiB at {} GPUs (✗ on the charts)",
        over.len(),
        t.rows.len(),
        over[0][column].trim_end_matches(" ✗"),
        over[0][0]
    );
    assert_eq!(value, &expected);
    for which in [PlanChart::TimeToQuality, PlanChart::GpuHours] {
        let chart = describe(&plan, llm.summary.n_max, which);
        let crosses = chart
            .series
            .iter()
            .find(|s| s.label.starts_with("✗ does not fit"))
            .unwrap();
        assert_eq!(crosses.points.len(), over.len());
    }
    // A layout that fits everywhere gets neither.
    let fits = Preset::from_name("llama31-405b-h100").unwrap().scenario();
    let llm = LlmSweep::compute(&fits.llm_inputs());
    let plan = PlanSweep::compute(&fits.plan_inputs());
    assert!(!key_figures(&plan, &llm)[0].0.starts_with("Memory"));
    let chart = describe(&plan, llm.summary.n_max, PlanChart::TimeToQuality);
    assert!(!chart.series.iter().any(|s| s.label.starts_with("✗")));
}

/// "MFU above 100%" names `P` first when the model's shape implies another size (ux-trial-2
/// H1: a config imported, `P` left at the page's 1.776G, the advice was to raise `tc`).
#[test]
fn mfu_above_peak_names_p_before_tc_when_the_shape_disagrees() {
    use scaling_core::panel::step_model::mfu_above_peak;
    use scaling_core::scenario::decode;
    let s =
        decode("v=1&view=strong&nl=80&hd=8192&nh=64&kvh=8&ffn=28672&voc=128256&sq=8192&cm=time")
            .scenario;
    let sweep = LlmSweep::compute(&s.llm_inputs());
    let (label, text) = mfu_above_peak(&sweep, &s.llm, false).expect("MFU above 100%");
    assert_eq!(label, "MFU above 100%");
    assert!(
        text.contains("P = 1.776B is not the 70.55B the model's shape implies"),
        "{text}"
    );
    // With P the shape's count the figure says nothing about P.
    let fixed = decode(
        "v=1&view=strong&nl=80&hd=8192&nh=64&kvh=8&ffn=28672&voc=128256&sq=8192&cm=time\
         &p=70552387584&pa=70552387584&tc=50ms",
    )
    .scenario;
    let sweep = LlmSweep::compute(&fixed.llm_inputs());
    if let Some((_, text)) = mfu_above_peak(&sweep, &fixed.llm, false) {
        assert!(!text.contains("P = "), "{text}");
    }
}
