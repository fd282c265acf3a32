//! The panel layer (`src/panel/`) as the page, the CLI and `scalingExplorer.compute` see it:
//! which element ids get which texts, which charts a panel draws and reads out, the lever
//! rows, the memory note, the reporting checklist's conditions and the Laws tables. Every
//! expected value is derived by hand from docs/model.md and the presets' inputs (derivations
//! in the comments).
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use crate::common;

use scaling_core::chart::svg::{render, SIZE};
use scaling_core::chart::ChartStyle;
use scaling_core::i18n::{set_lang, Lang};
use scaling_core::panel::{self, step_model, ChartId, Panel};
use scaling_core::scenario::{decode, Key, Preset, Scenario, View};

fn scenario(query: &str) -> Scenario {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{query}: {:?}", d.errors);
    d.scenario
}

fn panel(query: &str, view: View) -> Panel {
    Panel::compute(&scenario(query), view)
}

/// The table `id` of a panel (`strong`, `strong-fit`, `laws-efficiency`, …).
fn table(p: &Panel, id: &str) -> scaling_core::panel::table::Table {
    p.tables()
        .into_iter()
        .find(|s| s.id == id)
        .and_then(|s| s.table)
        .unwrap_or_else(|| panic!("no {id} table"))
}

fn text<'a>(texts: &'a [(&'static str, String)], id: &str) -> Option<&'a str> {
    texts
        .iter()
        .find(|(k, _)| *k == id)
        .map(|(_, v)| v.as_str())
}

const SEED_STRONG: &str = "v=1&preset=seed-strong";
const SEED_WEAK: &str = "v=1&preset=seed-weak";

/// The key figures land in the page's figures table of the panel's own section: in
/// www/index.html each of `panel-laws`, `panel-strong`, `panel-weak` and `panel-plan` holds one
/// `<table class="figures">`, and `figures_id` must name that table's id (read from the markup
/// here, not from the code). Each of those panels has figures to put there for the seed; the
/// Learn view's section has no such table.
#[test]
fn figures_id_names_each_panels_element() {
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/index.html"))
        .expect("www/index.html");
    let section = |id: &str| {
        let start = html
            .find(&format!("<section id=\"{id}\""))
            .unwrap_or_else(|| panic!("no section {id}"));
        let rest = &html[start + 1..];
        &html[start..start + 1 + rest.find("<section id=\"panel-").unwrap_or(rest.len())]
    };
    let figures_table_id = |section: &str| -> Option<String> {
        let at = section.find("<table class=\"figures\"")?;
        let tag = &section[at..at + section[at..].find('>')?];
        let id = &tag[tag.find(" id=\"")? + 5..];
        Some(id[..id.find('"')?].to_string())
    };
    for (view, section_id) in [
        (View::Laws, "panel-laws"),
        (View::Strong, "panel-strong"),
        (View::Weak, "panel-weak"),
        (View::Plan, "panel-plan"),
    ] {
        let p = panel(SEED_STRONG, view);
        let in_markup = figures_table_id(section(section_id));
        assert_eq!(in_markup.as_deref(), Some(p.figures_id()), "{section_id}");
        assert!(!p.figures().is_empty(), "{section_id} shows no key figure");
    }
    assert_eq!(figures_table_id(section("panel-learn")), None);
}

#[test]
fn plan_levers_are_none_plus_five_with_hand_derived_t_crit() {
    // Seed defaults: c = 3 transfers, s_w = 2 bytes, P = P_a = 1.776e9, F_eff = 370 TFLOP/s,
    // B_eff = 100 GB/s, CP = 1: T_crit = (c·s_w/6)·(F_eff/B_eff)·(P/P_a) = 1·3,700·1 = 3,700.
    let p = panel(SEED_STRONG, View::Plan);
    let rows = p.levers();
    assert_eq!(
        rows.len(),
        6,
        "none + 5 levers (only one row per lever when none is on)"
    );
    let row = |key: &str| rows.iter().find(|r| r.lever == key).unwrap();
    assert_eq!(rows[0].lever, "none");
    assert!(
        rows[0].on,
        "no lever switched on: the inputs as typed are what is shown"
    );
    assert!((rows[0].t_crit_tokens - 3700.0).abs() < 1e-9);
    // fp8 all-gathers: 2 gathers × 1 byte + 1 reduce-scatter × 2 bytes = 4 bytes instead of 6.
    assert!((row("fp8").t_crit_tokens - 3700.0 * 4.0 / 6.0).abs() < 1e-9);
    // NVLink domain: B_eff 100 GB/s → 400 GB/s, T_crit ∝ 1/B_eff: 3,700/4 = 925.
    assert!((row("nvlink").t_crit_tokens - 925.0).abs() < 1e-9);
    // N_max = B/T_crit = 32M / 925 = 34,594.6 GPUs.
    assert!((row("nvlink").n_max - 32e6 / 925.0).abs() < 1e-6);
    // ep: P = P_a already; zb changes no transfer: both stay at 3,700.
    assert!((row("ep").t_crit_tokens - 3700.0).abs() < 1e-9);
    assert!((row("zb").t_crit_tokens - 3700.0).abs() < 1e-9);
    assert!(rows.iter().skip(1).all(|r| !r.on));
    // Other panels have no lever table.
    assert!(panel(SEED_STRONG, View::Strong).levers().is_empty());
}

#[test]
fn plan_memory_note_states_the_activation_memory_ratio() {
    // Strong scaling at B = 32M: T = 32M/1,024 = 31,250 → 32M/16,384 = 1,953.125 tokens per
    // replica; activations scale with T: 1,953.125/31,250 = 6.25% → "6.3%" (1 decimal,
    // half away from zero); T printed with 4 significant digits: 31.25k → 1.953k.
    let p = panel(SEED_STRONG, View::Plan);
    assert_eq!(
        p.memory_note().as_deref(),
        Some(
            "Strong scaling 1,024 → 16,384 GPUs cuts activation memory per GPU to 6.3% of the \
             baseline (T 31.25k → 1.953k tokens), room that no-reshard and zero-bubble schedules \
             can spend."
        )
    );
    assert_eq!(
        text(&p.shown().texts, "plan-memory"),
        p.memory_note().as_deref()
    );
    assert_eq!(panel(SEED_STRONG, View::Strong).memory_note(), None);
}

#[test]
fn strong_panel_says_each_thing_under_the_chart_that_shows_it() {
    let p = panel(SEED_STRONG, View::Strong);
    let texts = p.shown().texts;
    // B = 32M; step times 1,000 / 375 / 332.5 / 356.25 ms at 1,024 … 16,384 GPUs → throughput
    // B/step peaks at the 8,192 row; T_crit = 3,700 → "3.7k"; N_max = 32M/3,700 = 8,648.6 →
    // "8.6k". No row is above 100% (N₀ is the first row), and between the rows the curve is
    // not higher than the 8,192 row, so neither adds a sentence.
    for (id, expected) in [
        (
            "strong-step-summary",
            "With B_global fixed at 32M tokens, step time falls less than 1/N because exposed \
             time does not shrink.",
        ),
        (
            "strong-efficiency-summary",
            "Tokens per replica fall below T_crit = 3.7k beyond N_max ≈ 8.6k GPUs (shaded).",
        ),
        (
            "strong-throughput-summary",
            "Throughput peaks at 8,192 GPUs (table rows).",
        ),
    ] {
        assert_eq!(text(&texts, id), Some(expected), "{id}");
    }
    // Rows at 64 and 128 GPUs: N_max ≈ 8.6k is past 8 × 128, so the axis stays on the rows,
    // no region is shaded and the sentence does not point to one.
    let short = panel(&format!("{SEED_STRONG}&n0=64&ns=64,128"), View::Strong);
    assert_eq!(
        text(&short.shown().texts, "strong-efficiency-summary"),
        Some("Tokens per replica fall below T_crit = 3.7k beyond N_max ≈ 8.6k GPUs.")
    );
    // Without a shape the walls' charts have nothing to say.
    assert_eq!(text(&texts, "strong-memory-summary"), Some(""));
    assert_eq!(text(&texts, "strong-boxes-summary"), None);
    assert!(texts.iter().all(|(k, _)| !k.starts_with("weak-")));
    assert!(texts.iter().all(|(k, _)| !k.starts_with("plan-")));
}

#[test]
fn strong_efficiency_above_100_percent_says_why() {
    // Llama 3.1 405B (PP16, mbs = 1 sequence of 8,192 tokens): B = 16,777,216 tokens, so
    // A = B/(DP·m) with DP = N/(TP·PP) = N/128: 2,048 GPUs → DP 16 → A = 128; N₀ = 8,192 →
    // DP 64 → A = 32.
    let p = panel("v=1&preset=llama31-405b-h100", View::Strong);
    let texts = p.shown().texts;
    let s = text(&texts, "strong-efficiency-summary").unwrap();
    assert!(
        s.ends_with(
            " Above 100% at 2,048, 4,096 GPUs: a step there takes less GPU-time than at N₀ = \
             8,192; at 2,048 GPUs, with the microbatch fixed, A = 128 microbatches per step (32 \
             at N₀) shrink the pipeline bubble."
        ),
        "{s}"
    );
    // The throughput curve runs past the table's last row and keeps rising (a fixed
    // microbatch's steps): the peak the text names is the rows'.
    assert_eq!(
        text(&texts, "strong-throughput-summary"),
        Some("Throughput peaks at 16,384 GPUs (table rows).")
    );
}

#[test]
fn weak_panel_says_each_thing_under_the_chart_that_shows_it() {
    let p = panel(SEED_WEAK, View::Weak);
    let texts = p.shown().texts;
    // Weak, T = 32M/1,024 = 31,250 fixed: at 4,096 GPUs compute stays 900 ms, exposed 150 ms
    // (100 ms at 1,024): step 1,000 → 1,050 ms; efficiency 1,000/1,050 = 95.2%; throughput
    // 32M/1 s = 32M and 128M/1.05 s = 121.9M tokens/s; B = 4,096·31,250 = 128M; steps
    // 1T/32M = 31,250 and 1T/128M = 7,812.5.
    for (id, expected) in [
        ("weak-step-summary", "Step time 1000 → 1050 ms."),
        (
            "weak-efficiency-summary",
            "With 31.25k tokens per replica fixed, 1,024 → 4,096 GPUs keeps 95.2% weak efficiency.",
        ),
        (
            "weak-throughput-summary",
            "Throughput 32M → 121.9M tokens/s.",
        ),
        (
            "weak-steps-summary",
            "The global batch grows 32M → 128M and the same 1T tokens buy 31,250 → 7,812.5 \
             optimizer steps.",
        ),
    ] {
        assert_eq!(text(&texts, id), Some(expected), "{id}");
    }
    assert_eq!(text(&texts, "weak-boxes-summary"), None);
    assert!(texts.iter().all(|(k, _)| !k.starts_with("strong-")));
    // The strong panel of the same scenario says something else.
    let strong = panel(SEED_WEAK, View::Strong).shown().texts;
    assert!(text(&strong, "strong-step-summary")
        .unwrap()
        .starts_with("With B_global fixed at 32M tokens"));
}

#[test]
fn plan_panel_summarises_each_plan_chart() {
    let p = panel(SEED_STRONG, View::Plan);
    let texts = p.shown().texts;
    let ttq = text(&texts, "plan-ttq-summary").unwrap();
    // B_crit = 32M (the seed's default), 3 significant digits.
    assert!(
        ttq.starts_with("Time to the target loss against GPUs for four ways of choosing the batch. Weak scaling keeps growing the batch past B_crit = 32M and gains little"),
        "{ttq}"
    );
    assert_eq!(
        text(&texts, "plan-gpu-hours-summary"),
        Some("GPU-hours: N × the time to the target loss, for the same four batches.")
    );
    assert!(texts
        .iter()
        .all(|(k, _)| !k.starts_with("strong-") && !k.starts_with("weak-")));
}

#[test]
fn draw_and_describe_only_the_panels_own_charts() {
    let style = ChartStyle::default();
    let strong = panel(SEED_STRONG, View::Strong);
    for (chart, own) in [
        (ChartId::StrongStep, true),
        (ChartId::StrongEfficiency, true),
        (ChartId::WeakStep, false),
        (ChartId::LawsSpeedup, false),
        (ChartId::PlanTimeToQuality, false),
    ] {
        let mut area = None;
        let svg = render(SIZE, |root| {
            area = Some(strong.draw(chart, root, &style)?.is_some());
            Ok(())
        })
        .unwrap();
        assert_eq!(area, Some(own), "{chart:?}");
        assert_eq!(strong.describe(chart).is_some(), own, "{chart:?}");
        if own {
            assert!(
                svg.contains("<path") || svg.contains("<polyline"),
                "{chart:?}"
            );
        }
    }
    // The Laws and Plan panels too.
    let laws = panel(SEED_STRONG, View::Laws);
    assert!(laws.describe(ChartId::LawsSpeedup).is_some());
    assert!(laws.describe(ChartId::StrongStep).is_none());
    let plan = panel(SEED_STRONG, View::Plan);
    assert!(plan.describe(ChartId::PlanGpuHours).is_some());
    assert!(plan.describe(ChartId::WeakSteps).is_none());
    let mut area = None;
    render(SIZE, |root| {
        area = Some(plan.draw(ChartId::LawsEfficiency, root, &style)?.is_some());
        Ok(())
    })
    .unwrap();
    assert_eq!(area, Some(false));
}

#[test]
fn strong_readout_names_the_nearest_row_on_a_log_axis() {
    let p = panel(SEED_STRONG, View::Strong);
    // At 4,096 GPUs: compute 900·1,024/4,096 = 225 ms + exposed 150 ms = 375 ms; T =
    // 32M/4,096 = 7,812.5; efficiency 1,000·1,024/(375·4,096) = 66.7%; throughput
    // 32M/0.375 s = 85.33M tok/s.
    let at_4096 = p.readout(ChartId::StrongStep, 4096.0).unwrap();
    assert!(at_4096.starts_with("4,096 GPUs: T = 7.81"), "{at_4096}");
    assert!(
        at_4096.contains("step 375 ms (compute 225 + exposed 150), efficiency 66.7%, 85.33M tok/s"),
        "{at_4096}"
    );
    // Nearest in ln N: |ln 3,000 − ln 4,096| = 0.31 < |ln 3,000 − ln 1,024| = 1.07.
    let at_3000 = p.readout(ChartId::StrongEfficiency, 3000.0).unwrap();
    assert_eq!(at_3000, at_4096);
    // ln 1,500 is 0.38 from ln 1,024 and 1.0 from ln 4,096.
    assert!(p
        .readout(ChartId::StrongStep, 1500.0)
        .unwrap()
        .starts_with("1,024 GPUs: T = 31.25k, step 1000 ms"));
    // 8,000 is 0.024 from 8,192 in ln; 20,000 is 0.2 from 16,384 (the last row).
    // 8,192: 112.5 + 220 = 332.5 ms; 16,384: 56.25 + 300 = 356.25 ms.
    assert!(p
        .readout(ChartId::StrongThroughput, 8000.0)
        .unwrap()
        .starts_with("8,192 GPUs: T = 3.906k, step 332.5 ms"));
    assert!(p
        .readout(ChartId::StrongStep, 20000.0)
        .unwrap()
        .starts_with("16,384 GPUs: T = 1.953k, step 356.25 ms"));
    // Not a finite count, or a chart of another panel: nothing.
    assert_eq!(p.readout(ChartId::StrongStep, f64::NAN), None);
    assert_eq!(p.readout(ChartId::StrongStep, f64::INFINITY), None);
    assert_eq!(p.readout(ChartId::WeakStep, 4096.0), None);
    assert_eq!(p.readout(ChartId::LawsSpeedup, 4096.0), None);
    assert_eq!(p.readout(ChartId::PlanTimeToQuality, 4096.0), None);
}

#[test]
fn strong_readout_names_the_best_layout_the_chart_rings() {
    // With lay=best the step chart rings each row's fastest layout without writing its name
    // over the curves; the readout names it, as the table's best-layout column does.
    let query = "v=1&preset=llama31-405b-h100&lay=best";
    let p = panel(query, View::Strong);
    let read = p.readout(ChartId::StrongStep, 16384.0).unwrap();
    let strong = table(&p, "strong");
    let col = strong
        .headers
        .iter()
        .position(|h| h == "best layout")
        .unwrap();
    let step = strong
        .headers
        .iter()
        .position(|h| h == "best step (ms)")
        .unwrap();
    let last = strong.rows.last().unwrap();
    // The table writes "TP4·PP16·… (schedule, ZeRO, recompute)": the readout its name.
    let name = last[col].split(" (").next().unwrap();
    assert!(
        read.ends_with(&format!("; best {name}: step {} ms", last[step])),
        "{read}"
    );
    // Without lay=best the readout has no best layout.
    let plain = panel("v=1&preset=llama31-405b-h100", View::Strong)
        .readout(ChartId::StrongStep, 16384.0)
        .unwrap();
    assert!(!plain.contains("best"), "{plain}");
}

#[test]
fn weak_readout_differs_from_the_strong_one() {
    let weak = panel(SEED_WEAK, View::Weak);
    // Weak at 4,096: B = 4,096·31,250 = 128M, step 900 + 150 = 1,050 ms, efficiency
    // 1,000/1,050 = 95.2%, throughput 128M/1.05 s = 121.9M tok/s, 1T/128M = 7,812.5 steps.
    assert_eq!(
        weak.readout(ChartId::WeakStep, 4096.0).as_deref(),
        Some(
            "4,096 GPUs: B = 128M, step 1050 ms, weak efficiency 95.2%, 121.9M tok/s, \
             7,812.5 optimizer steps"
        )
    );
    // Nearest in ln N again: 3,000 → 4,096, 1,500 → 1,024.
    assert!(weak
        .readout(ChartId::WeakEfficiency, 3000.0)
        .unwrap()
        .starts_with("4,096 GPUs: B = 128M"));
    assert!(weak
        .readout(ChartId::WeakSteps, 1500.0)
        .unwrap()
        .starts_with("1,024 GPUs: B = 32M, step 1000 ms"));
    assert_eq!(weak.readout(ChartId::StrongStep, 4096.0), None);
    assert_eq!(weak.readout(ChartId::WeakStep, f64::NAN), None);
    let strong = panel(SEED_WEAK, View::Strong);
    assert_ne!(
        strong.readout(ChartId::StrongStep, 4096.0),
        weak.readout(ChartId::WeakStep, 4096.0)
    );
    // The Plan and Laws panels read out their own charts only.
    let plan = panel(SEED_WEAK, View::Plan);
    assert!(plan.readout(ChartId::PlanTimeToQuality, 4096.0).is_some());
    assert_eq!(plan.readout(ChartId::WeakStep, 4096.0), None);
    let laws = panel("v=1&preset=classroom", View::Laws);
    // f = 5%, N = 4,096: Amdahl S = 1/(0.05 + 0.95/4,096) = 19.9.
    assert!(laws
        .readout(ChartId::LawsSpeedup, 4096.0)
        .unwrap()
        .starts_with("N = 4,096: Amdahl 19.9x"));
}

#[test]
fn document_decodes_the_link_and_reports_its_problems() {
    // f = 2 is outside [0, 1]: one message naming the input, the default Laws panel.
    let doc = panel::document("v=1&f=2", None);
    assert_eq!(doc["panel"], "laws");
    let messages = doc["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0]
            .as_str()
            .unwrap()
            .starts_with("Serial fraction f (f): "),
        "{messages:?}"
    );
    let doc = panel::document(SEED_WEAK, None);
    assert_eq!(doc["panel"], "weak");
    assert_eq!(doc["messages"].as_array().unwrap().len(), 0);
    // 1T tokens at 32M per step at the baseline.
    assert_eq!(
        panel::document(SEED_WEAK, Some(View::Plan))["panel"],
        "plan"
    );
}

fn checklist(query: &str) -> scaling_core::panel::checklist::Report {
    panel(query, View::Plan).checklist().unwrap()
}

fn has_warning(r: &scaling_core::panel::checklist::Report, start: &str) -> bool {
    r.warnings.iter().any(|w| w.en.starts_with(start))
}

#[test]
fn checklist_states_the_weak_batch_over_b_crit() {
    // seed-weak: weak last row 4,096 GPUs × 31,250 = 128M tokens; B_crit = 32M: 128M/32M = 4.
    let r = checklist(SEED_WEAK);
    assert!(
        r.en.contains("the global batch grows to 128M tokens (4× B_crit = 32M)"),
        "{}",
        r.en
    );
    // Over 2× B_crit without a loss curve: a warning with token efficiency 1/(1 + 4) = 20%.
    assert!(
        r.warnings.iter().any(|w| w.en.starts_with(
            "Weak scaling reaches 128M tokens per step, 4× the critical batch, and is reported \
             only as throughput: token efficiency is 20%"
        )),
        "{:?}",
        r.warnings
    );
    // B_crit = 64M: exactly 2× — not over 2, no warning.
    let r = checklist("v=1&preset=seed-weak&bcrit=64M");
    assert!(r.en.contains("(2× B_crit = 64M)"), "{}", r.en);
    assert!(!has_warning(&r, "Weak scaling reaches"), "{:?}", r.warnings);
    // A loss curve backs it: no warning either.
    let r = checklist("v=1&preset=seed-weak&lc=1");
    assert!(!has_warning(&r, "Weak scaling reaches"), "{:?}", r.warnings);
}

#[test]
fn checklist_warns_past_n_max_only_when_strictly_past() {
    // Seed: N_max = 32M/3,700 = 8,648.6 < 16,384 (the last strong row): warned.
    let r = checklist(SEED_STRONG);
    assert!(
        has_warning(&r, "Strong scaling goes past N_max ≈ 8.6k GPUs"),
        "{:?}",
        r.warnings
    );
    // B = 3,700 × 8,192 = 30,310,400: N_max = 8,192 exactly, the last row: not past it.
    let r = checklist("v=1&preset=seed-strong&b=30310400&ns=1024,4096,8192");
    assert!(
        !has_warning(&r, "Strong scaling goes past"),
        "{:?}",
        r.warnings
    );
    // Last row 4,096 < N_max = 8,648.6: not past either.
    let r = checklist("v=1&preset=seed-strong&ns=1024,4096");
    assert!(
        !has_warning(&r, "Strong scaling goes past"),
        "{:?}",
        r.warnings
    );
}

#[test]
fn checklist_warns_about_levers_only_when_one_is_on() {
    let r = checklist(SEED_STRONG);
    assert!(
        !has_warning(&r, "Levers are switched on"),
        "{:?}",
        r.warnings
    );
    let r = checklist("v=1&preset=seed-strong&lv=fp8");
    assert!(
        r.warnings.iter().any(|w| w.en
            == "Levers are switched on (fp8): the numbers are a projection, not the measured configuration."),
        "{:?}",
        r.warnings
    );
}

/// A mixture of experts computed from the peak carries the published rows' shortfall; one
/// computed from a measured rate, or a dense model from the peak, does not.
#[test]
fn checklist_warns_about_experts_only_from_the_peak() {
    let warned = "This mixture of experts is computed from the peak (cm=physics). On NVIDIA's \
                  published runs the model's step came out short: for Qwen3 and DeepSeek-V3 (128 \
                  and 256 experts) in 18 of 19 rows, by 34% at the median; for Mixtral 8x7B and \
                  Llama 4 Scout (8 and 16 experts) by 4% to 11%.";
    let r = checklist("v=1&preset=mixtral-8x7b-walls&cm=physics&stack=megatron");
    assert!(
        r.warnings
            .iter()
            .any(|w| w.en.starts_with(warned) && w.zh.contains("19 行中有 18 行偏短，中位数短 34%")),
        "{:?}",
        r.warnings
    );
    for query in [
        "v=1&preset=mixtral-8x7b-walls",
        "v=1&preset=llama31-405b-h100&cm=physics&stack=meta",
    ] {
        let r = checklist(query);
        assert!(
            !has_warning(&r, "This mixture of experts"),
            "{query}: {:?}",
            r.warnings
        );
    }
}

#[test]
fn laws_efficiency_table_compare_columns_are_amdahl_s_over_n() {
    // Classroom: f = 5%, compare f = 1%, 10%, 25%. At N = 4,096, f = 1%:
    // S = 1/(0.01 + 0.99/4,096) = 97.64, E = S/4,096 = 2.38% → "2.4%";
    // f = 10%: S = 1/(0.1 + 0.9/4,096) = 9.978, E = 0.24% → "0.2%".
    let p = panel("v=1&preset=classroom", View::Laws);
    let t = table(&p, "laws-efficiency");
    assert_eq!(t.headers[4], "Amdahl E (f=1%)");
    assert_eq!(t.headers[5], "Amdahl E (f=10%)");
    let row = t.rows.iter().find(|r| r[0] == "4,096").unwrap();
    assert_eq!(row[4], "2.4%");
    assert_eq!(row[5], "0.2%");
    // N = 1: S = 1, E = 100% for every f.
    let row = t.rows.iter().find(|r| r[0] == "1").unwrap();
    assert_eq!(&row[4..], ["100%", "100%", "100%"]);
}

#[test]
fn laws_key_figures_name_the_baseline_of_timed_points_only_past_one() {
    let label = "Speedups relative to";
    let has = |q: &str| {
        panel(q, View::Laws)
            .figures()
            .into_iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v)
    };
    // Times measured from N = 2: speedups are relative to N = 2.
    assert_eq!(
        has("v=1&mk=time&m=2:515,4:270,8:150").as_deref(),
        Some("N = 2 (assumed ideal up to there)")
    );
    // Karp–Flatt preset: times measured from N = 1 — nothing to say.
    assert_eq!(has("v=1&preset=karp-flatt"), None);
    // Speedups given directly, from N = 2: no baseline to name.
    assert_eq!(has("v=1&mk=speedup&m=2:1.9,4:3.5,8:6"), None);
}

#[test]
fn laws_summaries_state_the_classroom_numbers() {
    // Classroom: f = 5%, N up to 4,096. Amdahl ceiling 1/f = 20x; at N = 4,096 Amdahl
    // S = 1/(0.05 + 0.95/4,096) = 19.91 → "19.9x", Gustafson S = N − f(N − 1) = 3,891.25 →
    // "3891x". Amdahl E = 1/(fN + 1 − f) = 50% at N = (1 + f)/f = 21; at 4,096 E = 0.49% →
    // "0.5%", Gustafson E = 3,891.25/4,096 = 95.0% → "95%".
    let texts = panel("v=1&preset=classroom", View::Laws).shown().texts;
    assert_eq!(
        text(&texts, "laws-speedup-summary"),
        Some(
            "Speedup against N on log axes for f = 5%: Amdahl flattens towards its ceiling of \
             20x. At N = 4,096, Amdahl gives 19.9x and Gustafson 3891x."
        )
    );
    let eff = text(&texts, "laws-efficiency-summary").unwrap();
    assert!(
        eff.starts_with(
            "Efficiency against N (log axis). Amdahl efficiency falls to 50% at N = 21. At N = \
             4,096: Amdahl 0.5%, Gustafson 95%, Sun–Ni "
        ),
        "{eff}"
    );
    assert!(text(&texts, "laws-karp-flatt-summary")
        .unwrap()
        .starts_with("No measured points yet"));
    // Speedups 1.9, 3.4, 5.5 at N = 2, 4, 8: Karp–Flatt e = (1/S − 1/N)/(1 − 1/N) =
    // 0.0526, 0.0588, 0.0649 — rising at every step.
    let texts = panel("v=1&mk=speedup&m=2:1.9,4:3.4,8:5.5", View::Laws)
        .shown()
        .texts;
    let kf = text(&texts, "laws-karp-flatt-summary").unwrap();
    assert!(
        kf.starts_with("Karp–Flatt e(N) for 3 measured points."),
        "{kf}"
    );
    assert!(
        kf.ends_with(" e(N) rises with N: overhead grows with the processor count."),
        "{kf}"
    );
}

#[test]
fn plan_panel_draws_and_describes_the_chart_asked_for() {
    // The GPU-hours chart plots N × hours, the time-to-quality chart hours: different titles
    // and y axes, so the two charts' descriptions and drawings differ.
    let p = panel(SEED_STRONG, View::Plan);
    let hours = p.describe(ChartId::PlanGpuHours).unwrap();
    let ttq = p.describe(ChartId::PlanTimeToQuality).unwrap();
    assert_eq!(hours.title, "GPU-hours to the target loss");
    assert_eq!(hours.y_desc, "GPU-hours (log scale)");
    assert_ne!(ttq.title, hours.title);
    let style = ChartStyle::default();
    let draw = |chart| {
        render(SIZE, |root| {
            assert!(p.draw(chart, root, &style)?.is_some());
            Ok(())
        })
        .unwrap()
    };
    let svg = draw(ChartId::PlanGpuHours);
    assert!(
        svg.contains("GPU-hours to the target loss"),
        "GPU-hours title missing"
    );
    assert!(!draw(ChartId::PlanTimeToQuality).contains("GPU-hours to the target loss"));
}

/// The Karp–Flatt summary reads the trend of e(N): S = N gives e = 0 at every N (no rise);
/// the karp-flatt preset's e(N) dips at N = 4 then rises (3.00%, 2.67%, 2.86% … 3.70%: "rises
/// overall"); Amdahl-shaped speedups with growing overhead rise at every step.
#[test]
fn the_karp_flatt_summary_reads_the_trend() {
    let summary = |q: &str| {
        let p = panel(q, View::Laws);
        text(&p.shown().texts, "laws-karp-flatt-summary")
            .unwrap()
            .to_string()
    };
    let flat = summary("v=1&mk=speedup&m=1:1,2:2,4:4,8:8");
    assert!(flat.contains("does not rise"), "{flat}");
    let dip = summary("v=1&preset=karp-flatt");
    assert!(dip.contains("rises overall"), "{dip}");
    // S(2) = 1.9, S(4) = 3.4, S(8) = 5.5: e = 5.3%, 5.9%, 6.2% — up at every step.
    let rising = summary("v=1&mk=speedup&m=1:1,2:1.9,4:3.4,8:5.5");
    assert!(
        rising.contains("rises with N") && !rising.contains("overall"),
        "{rising}"
    );
    // e = 0 at N = 2 and 4 (S = N), then (1/7 − 1/8)/(7/8) = 2.04% at 8: an equal step then
    // a rise — up overall, not at every step.
    let level_then_up = summary("v=1&mk=speedup&m=1:1,2:2,4:4,8:7");
    assert!(level_then_up.contains("rises overall"), "{level_then_up}");
    // One measured point, or one e(N) beside the baseline: no trend to read.
    let one = summary("v=1&mk=speedup&m=2:1.9");
    assert!(!one.contains("rise"), "{one}");
    let one_e = summary("v=1&mk=speedup&m=1:1,2:1.9");
    assert!(!one_e.contains("rise"), "{one_e}");
}

/// The Karp–Flatt chart's readout names the nearest measured point: karp-flatt preset at
/// N = 4 (t = 270 ms against 1,000 at N = 1): S = 3.7x, e(N) = (1/3.7037 − 1/4)/(3/4) = 2.67%.
#[test]
fn the_karp_flatt_readout_names_the_measured_point() {
    let p = panel("v=1&preset=karp-flatt", View::Laws);
    let r = p.readout(ChartId::LawsKarpFlatt, 4.2).unwrap();
    assert!(r.starts_with("N = 4: S = 3.7x"), "{r}");
    assert!(r.contains("e(N) = 2.67%"), "{r}");
    let none = panel("v=1", View::Laws);
    assert_eq!(none.readout(ChartId::LawsKarpFlatt, 4.0), None);
}

/// With TP·PP·CP > 1 the strong and weak tables add tokens per GPU (T/M) after T: tp=8&pp=8,
/// 32M at 4,096 GPUs is 500k per replica and 7,812.5 ("7.813k") per GPU; without model
/// parallelism the column is not there.
#[test]
fn tokens_per_gpu_column_only_with_model_parallelism() {
    let p = panel("v=1&preset=seed-strong&tp=8&pp=8", View::Strong);
    let t = p.tables()[0].table.clone().unwrap();
    assert_eq!(t.headers[1], "tokens/replica T");
    assert_eq!(t.headers[2], "tokens/GPU (T/M)");
    assert_eq!(t.rows[1][1], "500k");
    assert_eq!(t.rows[1][2], "7.813k");
    let w = panel("v=1&preset=seed-weak&tp=8&pp=8", View::Weak).tables()[0]
        .table
        .clone()
        .unwrap();
    assert_eq!(w.headers[2], "tokens/GPU (T/M)");
    let plain = panel("v=1&preset=seed-strong", View::Strong).tables()[0]
        .table
        .clone()
        .unwrap();
    assert!(!plain.headers.iter().any(|h| h.contains("T/M")));
}

/// The fit table's error column carries its sign: st = 100:1000, 200:500, 400:300, 800:200
/// fitted on 100 and 400 GPUs: W·(1/100 − 1/400) = 700 → W = 93,333.3 ms·GPU, K = 1,000 −
/// 933.33 = 66.67 ms. At 200 GPUs t = 466.67 + 66.67 = 533.33 against 500 measured: error =
/// fitted/measured − 1 = +6.67%; at 800, 116.67 + 66.67 = 183.33 against 200: −8.33%; the two
/// points of the fit: exactly 0, shown without a sign.
#[test]
fn the_fit_table_signs_its_errors() {
    let p = panel(
        "v=1&em=fit&st=100:1000,200:500,400:300,800:200&fp=100,400",
        View::Strong,
    );
    let fit = table(&p, "strong-fit");
    let col = fit.headers.iter().position(|h| h == "error").unwrap();
    let errors: Vec<&str> = fit.rows.iter().map(|r| r[col].as_str()).collect();
    assert_eq!(errors, ["0%", "+6.67%", "0%", "-8.33%"]);
    let fitted: Vec<&str> = fit.rows.iter().map(|r| r[col - 1].as_str()).collect();
    assert_eq!(fitted, ["1000", "533.33", "300", "183.33"]);
    assert!(
        fit.caption.contains("93.33k ms·GPU / N + 66.67 ms"),
        "{}",
        fit.caption
    );
    // Without em=fit there is no fit table.
    assert!(panel(SEED_STRONG, View::Strong)
        .tables()
        .iter()
        .all(|s| s.id != "strong-fit" || s.table.is_none()));
}

/// The planner table at the seed (B = 32M on 1,024 GPUs, 32k tokens per GPU under weak
/// scaling, cap B_max = B = 32M): weak B grows with N (512M at 16,384 = 16 × 32M), the
/// weak-then-strong B stops at the cap; the baseline row's efficiencies are 100% by definition.
#[test]
fn plan_table_cells_follow_each_strategy() {
    let p = panel(SEED_STRONG, View::Plan);
    let t = p.tables()[0].table.clone().unwrap();
    let col = |name: &str| t.headers.iter().position(|h| h == name).unwrap();
    let (first, last) = (&t.rows[0], t.rows.last().unwrap());
    assert_eq!(first[0], "1,024");
    assert_eq!(first[col("weak: B")], "32M");
    assert_eq!(last[0], "16,384");
    assert_eq!(last[col("weak: B")], "512M");
    assert_eq!(last[col("weak→strong: B")], "32M");
    assert_eq!(first[col("weak efficiency (headline)")], "100%");
    assert_eq!(first[col("weak: true efficiency")], "100%");
    assert_eq!(first[col("weak: speedup to quality")], "1x");
}

/// The Plan readout names the nearest row with each strategy's time; at the baseline (1,024
/// GPUs) the headline and true weak efficiencies are both 100% by definition.
#[test]
fn plan_readout_names_the_nearest_row() {
    let p = panel(SEED_STRONG, View::Plan);
    let r = p.readout(ChartId::PlanTimeToQuality, 1100.0).unwrap();
    assert!(r.starts_with("1,024 GPUs: weak "), "{r}");
    assert!(r.contains("(headline 100%, true 100%)"), "{r}");
    assert!(
        r.contains(", strong ") && r.contains(", weak→strong "),
        "{r}"
    );
    assert!(r.contains(" h") || r.contains(" d"), "hours or days: {r}");
}

/// "Adding GPUs stops paying" names an interior optimum with ≈ and says "beyond" at the right
/// edge of the range. Seed: the weak-then-strong time is fastest near N_max = 32M/3,700 =
/// 8,649 GPUs, inside 1,024 … 16,384. Megatron 177B: the fitted serial part K = 280 ms is small
/// next to W/N = 10.78M/18k ≈ 600 ms at the range's end, so time to quality still falls there.
#[test]
fn plan_key_figure_says_beyond_only_at_the_edge() {
    let last = |q: &str| panel(q, View::Plan).figures().last().unwrap().1.clone();
    let inside = last(SEED_STRONG);
    assert!(inside.starts_with("≈ 8."), "{inside}");
    assert!(inside.ends_with("k GPUs"), "{inside}");
    let edge = last("v=1&preset=megatron-177b-h100");
    assert!(edge.starts_with("beyond "), "{edge}");
    assert!(edge.ends_with("GPUs (still faster there)"), "{edge}");
}

/// The lever table adds an "all switched-on levers together" row only when two or more levers
/// are on. nvlink + fp8 at the seed: T_crit = 3,700 × (4 bytes / 6 bytes) / 4 = 616.67 tokens,
/// N_max = 32M / 616.67 = 51,892 GPUs.
#[test]
fn lever_table_combines_levers_only_when_two_are_on() {
    let one = panel("v=1&preset=seed-strong&lv=nvlink", View::Plan);
    assert_eq!(one.levers().len(), 6, "none + 5 levers, no combined row");
    assert!(
        one.levers()
            .iter()
            .find(|r| r.lever == "nvlink")
            .unwrap()
            .on
    );
    assert!(
        !one.levers()[0].on,
        "a lever is on: the typed inputs are not what is shown"
    );
    let two = panel("v=1&preset=seed-strong&lv=nvlink,fp8", View::Plan);
    let rows = two.levers();
    assert_eq!(rows.len(), 7);
    let all = rows.last().unwrap();
    assert_eq!(all.lever, "all-on");
    assert!(all.on);
    assert!((all.t_crit_tokens - 3700.0 * 4.0 / 6.0 / 4.0).abs() < 1e-9);
    assert!((all.n_max - 32e6 / (3700.0 * 4.0 / 6.0 / 4.0)).abs() < 1e-6);
}

/// DeepSeek LLM's B_opt = 0.2920·C^0.3271 (arXiv:2401.02954 §3.1) with C = 6·P_a·tb. Seed:
/// C = 6 × 1.776e9 × 1e12 = 1.0656e22; ln C = 0.063538 + 22·2.302585 = 50.72041; × 0.3271 =
/// 16.59065; e^16.59065 = 1.60401e7; × 0.292 = 4.6839M tokens. tb = 2e12 doubles C: × 2^0.3271
/// = × 1.25450 → 5.8759M.
#[test]
fn deepseek_reference_is_the_empirical_fit_at_this_runs_compute() {
    let b = panel::plan::deepseek_reference(&scenario(SEED_STRONG));
    assert!((b / 4.6839e6 - 1.0).abs() < 1e-4, "{b}");
    let b2 = panel::plan::deepseek_reference(&scenario("v=1&preset=seed-strong&tb=2T"));
    assert!((b2 / 5.8759e6 - 1.0).abs() < 1e-4, "{b2}");
    let p = panel(SEED_STRONG, View::Plan);
    let note = text(&p.shown().texts, "plan-bopt").unwrap().to_string();
    assert!(note.contains(" gives 4.68M tokens "), "{note}");
}

/// Columns of words or marks (`Table::text_columns`) are those whose cells are not numbers:
/// the lever's name, ✓ and the cost in the lever table, ✓ in the fit table; every other
/// column of every panel's tables holds numbers (or "–"). Markdown aligns them left, the
/// terminal pads them on the right, the page marks their cells `class="text"`.
#[test]
fn text_columns_are_the_columns_without_numbers() {
    let number = |c: &str| {
        c.is_empty()
            || c == "–"
            || c.starts_with(|ch: char| ch.is_ascii_digit() || ch == '-' || ch == '+')
    };
    for (query, view) in [
        ("v=1&preset=karp-flatt", View::Laws),
        ("v=1&preset=megatron-177b-h100", View::Strong),
        (SEED_WEAK, View::Weak),
        ("v=1&preset=seed-weak&lv=fp8,ep", View::Plan),
    ] {
        for t in panel(query, view)
            .tables()
            .into_iter()
            .filter_map(|s| s.table)
        {
            for col in 0..t.headers.len() {
                let numeric = t.rows.iter().all(|r| number(&r[col]));
                assert_eq!(
                    t.text_columns.contains(&col),
                    !numeric,
                    "{} column {col} ({})",
                    t.id,
                    t.headers[col]
                );
            }
        }
    }
    let levers = panel("v=1&preset=seed-weak&lv=fp8", View::Plan).tables();
    let levers = levers
        .iter()
        .find_map(|s| s.table.as_ref().filter(|t| t.id == "levers"))
        .unwrap();
    assert_eq!(levers.text_columns, &[0, 1, 5]);
    assert!(levers
        .to_markdown()
        .contains("\n|---|---|---:|---:|---:|---|\n"));
    let text = levers.to_text();
    let line = text.lines().find(|l| l.contains("fp8 parameter")).unwrap();
    assert!(line.starts_with("fp8 parameter communication "), "{line:?}");
}

/// Plan charts: when the cap is the baseline batch (seed-weak: B = B_crit = 32M, the default
/// cap), weak-then-strong never grows B and its curve is the strong one. The legend then has one
/// entry saying so, not an entry for a line hidden under another; a cap above the batch keeps
/// the four strategies apart.
#[test]
fn plan_legend_merges_the_strong_curve_when_the_cap_is_the_batch() {
    for chart in [ChartId::PlanTimeToQuality, ChartId::PlanGpuHours] {
        let labels = |query: &str| -> Vec<String> {
            let c = panel(query, View::Plan).describe(chart).unwrap();
            c.series.into_iter().map(|s| s.label).collect()
        };
        for query in [SEED_WEAK, "v=1&preset=seed-weak&bcap=32M&bcrit=64M"] {
            assert_eq!(
                labels(query)[1],
                "weak, then strong = strong (fixed B): the cap is the batch",
                "{chart:?} {query}"
            );
        }
        assert_eq!(
            labels(SEED_WEAK),
            [
                "weak (fixed T)",
                "weak, then strong = strong (fixed B): the cap is the batch",
                "best B at each N"
            ],
            "{chart:?}"
        );
        assert_eq!(
            labels("v=1&preset=seed-weak&bcap=64M"),
            [
                "weak (fixed T)",
                "strong (fixed B)",
                "weak, then strong at the cap",
                "best B at each N"
            ],
            "{chart:?}"
        );
    }
}

/// The throughput peak's callout sits above its point (a peak has the curve below it on both
/// sides): seed-strong peaks at 8,192 GPUs, 32M / 332.5 ms = 96.2M tok/s; in the SVG the
/// label's baseline is above the circle's centre.
#[test]
fn the_peak_callout_is_written_above_the_peak() {
    let p = panel(SEED_STRONG, View::Strong);
    let style = ChartStyle::default();
    let svg = render(SIZE, |root| {
        p.draw(ChartId::StrongThroughput, root, &style)?;
        Ok(())
    })
    .unwrap();
    let attr = |tag: &str, name: &str| -> f64 {
        let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        tag[start..].split('"').next().unwrap().parse().unwrap()
    };
    let label_at = svg.find("peak 96.2M tok/s at 8,192").expect("the callout");
    let text_tag = &svg[svg[..label_at].rfind("<text ").unwrap()..label_at];
    let circle_at = svg.find("<circle").unwrap();
    let circle = svg[circle_at..]
        .split("/>")
        .find(|c| c.contains("r=\"6\""))
        .expect("the callout's circle");
    assert!(
        attr(text_tag, "y") < attr(circle, "cy"),
        "{text_tag} above {circle}"
    );
}

/// Each LLM panel says which quantities its sweep holds fixed. The seed's tables
/// (MODEL.md §6): 32M tokens over 1,024 → 16,384 GPUs is 31.25k → 1.953k tokens per replica
/// (pure DP: a replica is a GPU); weak, 31.25k per replica over 1,024 → 4,096 GPUs is
/// 32M → 128M tokens; the Plan panel grows the batch until the 32M cap, reached at
/// 32M / 31.25k = 1,024 GPUs.
#[test]
fn every_llm_panel_badge_says_what_its_sweep_holds_fixed() {
    scaling_core::i18n::set_lang(scaling_core::i18n::Lang::En);
    let text = |query: &str, view: View, id: &str| {
        let scenario = scaling_core::scenario::decode(query).scenario;
        Panel::compute(&scenario, view)
            .shown()
            .texts
            .into_iter()
            .find(|(k, _)| *k == id)
            .map(|(_, t)| t)
            .unwrap_or_default()
    };
    assert_eq!(
        text("v=1&preset=seed-strong", View::Strong, "strong-mode"),
        "Strong scaling: B_global fixed at 32M tokens; T per replica 31.25k → 1.953k as N goes 1,024 → 16,384"
    );
    assert_eq!(
        text("v=1&preset=seed-weak", View::Weak, "weak-mode"),
        "Weak scaling: T fixed at 31.25k tokens per replica; B_global 32M → 128M as N goes 1,024 → 4,096"
    );
    assert_eq!(
        text("v=1&preset=seed-weak", View::Plan, "plan-mode"),
        "Mixed scaling: weak (T fixed) up to 1,024 GPUs, where B_global reaches the cap of 32M \
         tokens; strong (B_global fixed) beyond"
    );
}

/// The trial's engineer (../shared/reviews/ux-trial.md, task A): a Llama-3-70B-like shape and
/// `P` typed on the default page, 1,024 H100s, TP8·PP4, one sequence per microbatch.
const TRIAL: &str = "v=1&view=strong&b=16M&mbs=1&tp=8&pp=4&p=70.6G&pa=70.6G&nl=80&hd=8192\
&nh=64&kvh=8&ffn=28672&sq=8192&voc=128256&ns=1024";

/// Every preset's own link.
fn preset_queries() -> Vec<String> {
    Preset::ALL
        .iter()
        .map(|p| format!("v=1&preset={}", p.name()))
        .collect()
}

fn figure(p: &Panel, label: &str) -> Option<String> {
    p.figures()
        .into_iter()
        .find(|(l, _)| l == label)
        .map(|(_, v)| v)
}

#[test]
fn a_typed_shape_and_p_turn_the_step_model_to_physics_and_say_so() {
    // With cm=auto (the default) the shape and P agree (70.55G against 70.6G, 0.07% off), so
    // compute comes from physics: MFU = F_eff/peak·(compute/step) ≤ r_inf < 1 — no 771%.
    let p = panel(TRIAL, View::Strong);
    let row = &p.llm().unwrap().strong[0];
    assert!(row.mfu > 0.2 && row.mfu < 0.7, "MFU {}", row.mfu);
    let model = figure(&p, "Step model in force").expect("the step model is named");
    assert!(
        model.contains("physics") && model.contains("FSDP") && model.contains("auto"),
        "{model}"
    );
    assert_eq!(figure(&p, "MFU above 100%"), None);
    // P still the default 1.776G: the shape is off by 3,872%, the seed's time stays.
    let typing = panel(&TRIAL.replace("&p=70.6G&pa=70.6G", ""), View::Strong);
    let model = figure(&typing, "Step model in force").unwrap();
    assert!(model.contains("measured time") && model.contains("once the shape agrees"));
}

#[test]
fn an_mfu_above_peak_names_the_inputs_behind_it() {
    // cm=time keeps the seed's 900 ms at N₀ = 1,024: F_tok·B/(N·t·peak) with
    // F_tok = 6·70.6e9 + 12·80·8192·8192 = 4.880e11, B = 16M = 1.6e7:
    // 4.880e11·1.6e7/(1024·1.0 s·989e12) = 7.71 → 771%.
    let p = panel(&format!("{TRIAL}&cm=time&em=table"), View::Strong);
    let warning = figure(&p, "MFU above 100%").expect("flagged");
    assert!(warning.starts_with("771% at 1,024 GPUs"), "{warning}");
    assert!(
        warning.contains("tc = 900 ms") && warning.contains("cm"),
        "{warning}"
    );
    let w = panel(&format!("{TRIAL}&cm=time&em=table"), View::Weak);
    assert!(figure(&w, "MFU above 100%").is_some());
    // cm=flops: F_eff above the peak is the cause, and named.
    let f = panel(
        &format!("{TRIAL}&cm=flops&em=table&feff=1.2P"),
        View::Strong,
    );
    let warning = figure(&f, "MFU above 100%").expect("flagged");
    assert!(
        warning.contains("feff") && warning.contains("989T"),
        "{warning}"
    );
    // The seed itself (37.4% = 370/989 at 1,024 GPUs) is not flagged.
    assert_eq!(
        figure(&panel("v=1&view=strong", View::Strong), "MFU above 100%"),
        None
    );
}

/// A different valid text for each input the unused notes can name.
fn other_value(key: Key) -> &'static str {
    match key {
        Key::Accumulation => "3",
        Key::ComputeMs => "1234",
        Key::Flops => "123T",
        Key::Stack => "torchtitan",
        Key::LargeGemmFraction => "0.3",
        Key::ExposedTable => "1024:11,16384:99",
        Key::StepTable => "1024:2000,16384:300",
        Key::FitOn => "",
        Key::FixedMs => "17",
        Key::Chunks => "3",
        _ => unreachable!("{key:?}"),
    }
}

#[test]
fn an_input_marked_unused_changes_nothing_and_its_box_says_so() {
    let mut queries = preset_queries();
    queries.extend([
        TRIAL.to_string(),
        format!("{TRIAL}&cm=time&em=table"),
        format!("{TRIAL}&cm=flops&em=step"),
        "v=1".to_string(),
    ]);
    let mut checked = 0;
    for q in &queries {
        let s = scenario(q);
        let unused = step_model::unused_inputs(&s.llm);
        for view in [View::Strong, View::Weak, View::Plan] {
            let before = Panel::compute(&s, view);
            let notes = before.shown().texts;
            for &(key, id) in &step_model::NOTE_IDS {
                let note = text(&notes, id).unwrap();
                let marked = unused.iter().any(|(k, _)| *k == key);
                assert_eq!(!note.is_empty(), marked, "{q}: {id} = {note:?}");
            }
            let body = |p: &Panel| {
                let mut j = p.json(&[]);
                j.as_object_mut().unwrap().remove("query");
                j
            };
            let b = body(&before);
            for &(key, _) in &unused {
                let Some(next) = s.with_values(&[(key, other_value(key).to_string())]) else {
                    continue;
                };
                if next == s {
                    continue;
                }
                checked += 1;
                assert_eq!(
                    body(&Panel::compute(&next, view)),
                    b,
                    "{q} on {view:?}: {} is marked unused, yet changing it changes the panel",
                    key.name()
                );
            }
        }
    }
    assert!(checked > 100, "only {checked} changes tried");
}

#[test]
fn no_panel_of_a_preset_contradicts_itself_in_either_language() {
    for lang in [Lang::En, Lang::Zh] {
        set_lang(lang);
        for p in Preset::ALL {
            for q in [
                format!("v=1&preset={}", p.name()),
                format!("v=1&preset={}&cm=auto&em=auto", p.name()),
            ] {
                let problems = common::check_scenario(&scenario(&q));
                assert!(problems.is_empty(), "{lang:?} {q}: {problems:#?}");
            }
        }
        let problems = common::check_scenario(&scenario(&format!("{TRIAL}&cm=time&em=table")));
        assert!(problems.is_empty(), "{lang:?}: {problems:#?}");
    }
    set_lang(Lang::En);
}

#[test]
fn a_microbatch_of_many_sequences_is_pointed_out_at_the_memory_figure() {
    // mbs = 0 keeps A = 1: D = 1,024/(8·4) = 32 replicas, T = 16M/32 = 500,000 tokens in one
    // microbatch, 500,000/8,192 = 61.04 sequences.
    let p = panel(&TRIAL.replace("&mbs=1", ""), View::Strong);
    let memory = figure(&p, "Memory per GPU (first pipeline stage)").unwrap();
    assert!(
        memory.ends_with("each microbatch holds 500k tokens (61 sequences, A = 1): Microbatch size (mbs) sets fewer"),
        "{memory}"
    );
    let p = panel(TRIAL, View::Strong);
    let memory = figure(&p, "Memory per GPU (first pipeline stage)").unwrap();
    assert!(!memory.contains("microbatch holds"), "{memory}");
}

#[test]
fn what_this_means_keeps_the_scenario() {
    let q = "v=1&view=strong&b=16M&tp=8&lang=zh&embed=strong";
    for (view, id, anchor) in [
        (View::Strong, "strong-learn", "#d-strong"),
        (View::Weak, "weak-learn", "#d-weak"),
        (View::Plan, "plan-learn", "#d-mixed"),
        (View::Laws, "laws-learn", ""),
    ] {
        let links = panel(q, view).shown().links;
        let link = links
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, l)| l.as_str());
        // The reader's inputs and language stay; the embed does not (the link opens the page).
        assert_eq!(
            link,
            Some(format!("v=1&view=learn&lang=zh&b=16M&tp=8{anchor}").as_str()),
            "{id}"
        );
    }
}

/// Choosing an explorer row ("Use #k") shows the step and MFU it was listed with — in the
/// explorer's own-layout figure and, with the layout model's exposed time, in the Strong
/// table's row — or the explorer states, next to its ranking, what its steps are relative to.
#[test]
fn a_chosen_layout_shows_its_listed_step_or_the_explorer_says_why_not() {
    use scaling_core::panel::layouts::{search_at, tie_groups, use_links};
    let mut queries: Vec<String> = Preset::ALL
        .iter()
        .flat_map(|p| {
            [
                format!("v=1&preset={}&view=strong", p.name()),
                format!("v=1&preset={}&view=strong&cm=physics&em=fsdp", p.name()),
            ]
        })
        .collect();
    queries.push(TRIAL.to_string());
    queries.push(format!("{TRIAL}&cm=flops&em=fsdp"));
    let (mut reproduced, mut explained) = (0, 0);
    for q in &queries {
        let s = scenario(q);
        if !s.llm.walls.has_shape() {
            continue;
        }
        let n = s.llm.baseline_gpus;
        let s = scenario(&format!("{q}&lx={n}"));
        let Ok(search) = search_at(&s, n) else {
            continue;
        };
        let basis = figure(&Panel::compute(&s, View::Strong), "Layout steps are");
        for (k, (_, query)) in use_links(&s, Some(&Ok(search.clone())))
            .iter()
            .enumerate()
            .filter(|(_, (_, query))| !query.is_empty())
        {
            let listed = &search.layouts[tie_groups(&search)[k].0];
            let next = scenario(query);
            let again = search_at(&next, n).unwrap().current;
            let row = Panel::compute(&next, View::Strong).llm().and_then(|l| {
                l.strong
                    .iter()
                    .find(|r| r.gpus == n)
                    .map(|r| (r.step_ms, r.mfu))
            });
            let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs();
            let shown = same(again.step_ms, listed.step_ms)
                && same(again.mfu, listed.mfu)
                && row
                    .is_none_or(|(step, mfu)| same(step, listed.step_ms) && same(mfu, listed.mfu));
            if shown {
                reproduced += 1;
            } else {
                explained += 1;
                assert!(
                    basis.is_some(),
                    "{q}: Use #{} listed {} ms, shows {} ms (table {:?}) with no word of why",
                    k + 1,
                    listed.step_ms,
                    again.step_ms,
                    row
                );
            }
        }
        // With both from the layout model, nothing is relative: the figure is absent.
        if s.llm.compute_in_force() == scaling_core::scenario::llm::ComputeMode::Physics
            && s.llm.exposed_in_force() == scaling_core::scenario::llm::ExposedMode::Fsdp
        {
            assert_eq!(basis, None, "{q}");
        }
    }
    assert!(
        reproduced > 20 && explained > 20,
        "{reproduced} reproduced, {explained} explained"
    );
}

/// Each lever's memory cost in the Plan's lever table, at `N₀`, is the difference the Strong
/// table shows at `N₀` with the lever switched on and without it — for every preset with a
/// shape and the trial's model, every lever.
#[test]
fn each_lever_costs_the_memory_the_strong_table_shows() {
    use scaling_core::panel::plan::lever_rows;
    use scaling_model::levers::Lever;
    let mut queries = preset_queries();
    queries.push(TRIAL.to_string());
    let mut checked = 0;
    for q in &queries {
        let s = scenario(q);
        if !s.llm.walls.has_shape() || !s.plan.levers.is_empty() {
            continue;
        }
        let n0 = s.llm.baseline_gpus;
        let memory = |sc: &Scenario| {
            Panel::compute(sc, View::Strong)
                .llm()
                .and_then(|l| l.strong.iter().find(|r| r.gpus == n0).and_then(|r| r.walls))
                .map(|w| w.memory.total)
        };
        let Some(without) = memory(&s) else {
            continue;
        };
        let rows = lever_rows(&s);
        for lever in Lever::ALL {
            let row = rows.iter().find(|r| r.lever == lever.key()).unwrap();
            let with = memory(&scenario(&format!("{q}&lv={}", lever.key()))).unwrap();
            let cost = row.memory_cost_bytes.unwrap().0;
            assert!(
                (cost - (with - without)).abs() <= 1e-6 * without,
                "{q}, {}: the lever table says {cost} B, the Strong table {} B",
                lever.key(),
                with - without
            );
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}

/// The checklist's sentence on the parallel configuration says what the tables show: the
/// same `A` at every GPU count, or how a fixed microbatch moves it in each sweep — never
/// "the same at every GPU count" over a table whose `A` changes.
#[test]
fn the_checklist_says_how_a_moves_as_the_tables_show() {
    let mut queries = preset_queries();
    queries.extend([
        TRIAL.to_string(),
        format!("{TRIAL}&ns=1024,4096,16384"),
        TRIAL.replace("&mbs=1", ""),
    ]);
    let (mut same, mut moving) = (0, 0);
    for q in &queries {
        let p = panel(q, View::Plan);
        let (Some(r), Some(llm)) = (p.checklist(), p.llm()) else {
            continue;
        };
        let strong: Vec<u32> = llm.strong.iter().map(|r| r.accumulation).collect();
        let weak: Vec<u32> = llm.weak.iter().map(|r| r.accumulation).collect();
        let a0 = strong[0];
        if strong.iter().chain(&weak).all(|&a| a == a0) {
            same += 1;
            assert!(
                r.en.contains(&format!(", A={a0}) is the same at every GPU count")),
                "{q}: {}",
                r.en
            );
        } else {
            moving += 1;
            assert!(!r.en.contains("pure strong and weak"), "{q}: {}", r.en);
            let span = |a: &[u32]| match (a[0], a[a.len() - 1]) {
                (x, y) if x == y => format!("A = {x}"),
                (x, y) => format!("A = {x} → {y}"),
            };
            for (a, en, zh) in [
                (&strong, "in strong scaling", "强扩展时"),
                (&weak, "in weak scaling", "弱扩展时"),
            ] {
                let a = span(a);
                assert!(r.en.contains(&format!("{a} {en}")), "{q}: {}", r.en);
                assert!(r.zh.contains(&format!("{zh} {a}")), "{q}: {}", r.zh);
            }
        }
    }
    assert!(same > 3 && moving > 2, "{same} the same, {moving} moving");
}

/// A chart with nothing to plot says so (`Panel::has_data`), so an embed of charts only can
/// leave it out: the memory chart of a shape-less preset has only its note; with a shape it
/// has its parts; the other charts of the panel have their rows.
#[test]
fn a_chart_without_data_says_so() {
    let seed = Panel::compute(
        &Preset::from_name("seed-strong").unwrap().scenario(),
        View::Strong,
    );
    let memory = seed.charts().find(|c| c.id() == "strong-memory").unwrap();
    assert!(!seed.has_data(memory));
    let others: Vec<ChartId> = seed
        .charts()
        .filter(|c| c.id() != "strong-memory")
        .collect();
    assert!(others.iter().all(|&c| seed.has_data(c)), "{others:?}");
    let walls = Preset::from_name("gpt3-175b-walls").unwrap().scenario();
    assert!(Panel::compute(&walls, View::Strong).has_data(memory));
}

/// A drag's frame keeps the last whole frame's layout explorer (the search over every layout
/// at `lx` GPUs, the heaviest part of a frame) and computes everything else; a change of `lx`
/// itself, or a last frame without an explorer, keeps nothing.
#[test]
fn a_drags_frame_keeps_the_last_search_and_computes_the_rest() {
    let at = |beff: &str, lx: &str| {
        scenario(&format!(
            "v=1&preset=mixtral-8x7b-walls&view=strong&beff={beff}&lx={lx}"
        ))
    };
    let last = Panel::compute(&at("50G", "512"), View::Strong);
    let moved = at("400G", "512");
    let kept = Panel::compute_keeping_search(&moved, View::Strong, &last).unwrap();
    let fresh = Panel::compute(&moved, View::Strong);
    // The explorer is the last frame's (eight times the NIC moves its steps), the Strong
    // table the new scenario's.
    assert_ne!(
        table(&fresh, "strong-layouts").rows,
        table(&last, "strong-layouts").rows
    );
    assert_eq!(
        table(&kept, "strong-layouts").rows,
        table(&last, "strong-layouts").rows
    );
    assert_eq!(table(&kept, "strong").rows, table(&fresh, "strong").rows);
    assert_ne!(table(&kept, "strong").rows, table(&last, "strong").rows);
    // Another explorer count, no explorer last time, or another panel: nothing to keep.
    assert!(Panel::compute_keeping_search(&at("400G", "256"), View::Strong, &last).is_none());
    let without = Panel::compute(&at("50G", "0"), View::Strong);
    assert!(Panel::compute_keeping_search(&moved, View::Strong, &without).is_none());
    assert!(Panel::compute_keeping_search(&moved, View::Weak, &last).is_none());
}

/// Dropout (`drop`) adds its masks' memory traffic to the elementwise time of `cm=physics`:
/// the same link steps slower with it, the link carries it, and a value that is neither on nor
/// off is refused naming the key, the default kept.
#[test]
fn dropout_slows_the_physics_step_and_rides_in_the_link() {
    let base = "v=1&preset=gpt3-175b-walls&view=strong&cm=physics&mach=h100&fa=0";
    let step = |q: &str| table(&panel(q, View::Strong), "strong").rows[0].clone();
    let with = scenario(&format!("{base}&drop=1"));
    assert!(with.to_query().contains("drop=1"), "{}", with.to_query());
    assert_ne!(step(base), step(&format!("{base}&drop=1")));
    let d = decode(&format!("{base}&drop=2"));
    assert_eq!(d.errors.len(), 1, "{:?}", d.errors);
    assert!(d.errors[0].to_string().contains("drop"), "{}", d.errors[0]);
    assert_eq!(d.scenario.get_text(Key::Dropout), "0");
}

/// The explorer's own layout outside the search space keeps its rank cell one word ("current",
/// in a narrow column) and says it was not searched in the wide "why" column; the rank column
/// read "current (not searched)", six lines tall in Chinese at a laptop's width.
#[test]
fn an_unsearched_own_layout_says_so_in_the_why_column() {
    // Mixtral's own layout (ZeRO 1, mbs 1 of A = 2 at 64 GPUs) is outside the default space.
    let p = panel(
        "v=1&preset=mixtral-8x7b-walls&view=strong&lx=64",
        View::Strong,
    );
    let t = table(&p, "strong-layouts");
    let why = t
        .headers
        .iter()
        .position(|h| h == "why")
        .expect("a why column");
    let own = t.rows.last().expect("rows");
    assert_eq!(own[0], "current");
    assert!(
        own[why].ends_with("; not in the search space"),
        "{}",
        own[why]
    );
    // A searched row says nothing of the kind.
    assert!(t.rows[0][why].starts_with("fastest"), "{}", t.rows[0][why]);
}
