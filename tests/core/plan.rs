//! The time-to-quality planner, the levers and the reporting checklist, as a reader sees them.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use crate::common::tol;
use scaling_core::panel::checklist::report;
use scaling_core::panel::plan;
use scaling_core::scenario::{decode, Key, Scenario, UrlError, View};
use scaling_model::llm::LlmSweep;
use scaling_model::plan::PlanSweep;

fn scenario(query: &str) -> Scenario {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    d.scenario
}

#[test]
fn seed_weak_plan_shows_95_percent_against_38_percent() {
    let s = scenario("?v=1&preset=seed-weak&view=plan");
    assert_eq!(s.view, View::Plan);
    let plan = PlanSweep::compute(&s.plan_inputs());
    let last = plan.rows.last().unwrap();
    assert_eq!(last.gpus, 4096.0);
    assert!((last.vanity_weak_efficiency - 1000.0 / 1050.0).abs() < tol::EXACT);
    // Steps 2·S_min → 1.25·S_min at 1000 → 1050 ms: 2000 / 1312.5 = 1.5238×.
    assert!((last.weak_ttq_speedup - 2000.0 / 1312.5).abs() < tol::EXACT);
    assert_eq!((last.weak_true_efficiency * 1000.0).round(), 381.0);
    let table = plan::table(&plan);
    assert_eq!(table.rows[1][2], "95.2%");
    assert_eq!(table.rows[1][4], "1.52x");
    assert_eq!(table.rows[1][5], "38.1%");
    let figures = plan::key_figures(&plan, &LlmSweep::compute(&s.llm_inputs()));
    assert_eq!(figures[0].1, "95.2%");
    assert_eq!(figures[1].1, "1.52x — true efficiency 38.1%");
}

#[test]
fn levers_move_t_crit_by_their_factor() {
    let t_crit = |q: &str| {
        LlmSweep::compute(&scenario(q).llm_inputs())
            .summary
            .t_crit_tokens
    };
    let base = t_crit("v=1&preset=seed-strong");
    // fp8 parameter all-gathers, bf16 gradient reduce-scatter: b_w = (c−1)·s_g + s_w
    // = 2·1 + 2 = 4 bytes per parameter instead of 3·2 = 6, so T_crit × 4/6.
    assert!((t_crit("v=1&preset=seed-strong&lv=fp8") - base * 4.0 / 6.0).abs() < tol::CHAIN);
    assert!((t_crit("v=1&preset=seed-strong&lv=noreshard") - base * 2.0 / 3.0).abs() < tol::CHAIN);
    // 8× bandwidth: 100 GB/s → 800 GB/s inside the NVLink domain.
    assert!((t_crit("v=1&preset=seed-strong&lv=nvlink&bnv=800G") - base / 8.0).abs() < tol::CHAIN);
    // EP: FSDP moves only the active parameters, P/P_a → 1.
    let moe = t_crit("v=1&preset=moe-47b-h200");
    let moe_ep = t_crit("v=1&preset=moe-47b-h200&lv=ep");
    assert!((moe / moe_ep - 46.7 / 12.9).abs() < tol::CHAIN);
    // fp8 (T_crit × 2/3) raises N_max 1.5-fold and, with a tabulated exposed time, scales it
    // by 2/3: the seed's 300 ms at 4,096 GPUs becomes 200 ms.
    let a = LlmSweep::compute(&scenario("v=1&preset=seed-strong").llm_inputs());
    let b = LlmSweep::compute(&scenario("v=1&preset=seed-strong&lv=fp8").llm_inputs());
    assert!((b.summary.n_max - 1.5 * a.summary.n_max).abs() < tol::PRINTED);
    assert!((b.strong[3].exposed_ms - 200.0).abs() < tol::CHAIN);
    assert!(b.summary.peak_throughput_gpus >= a.summary.peak_throughput_gpus);
}

#[test]
fn lever_table_states_each_effect_and_cost() {
    let rows = plan::lever_rows(&scenario("v=1&preset=seed-strong&lv=fp8,noreshard"));
    let fp8 = rows.iter().find(|r| r.lever == "fp8").unwrap();
    // fp8 alone: 3,700 · (2·1 + 2)/(3·2) = 2,466.67 tokens.
    assert!(fp8.on && (fp8.t_crit_tokens - 3700.0 * 4.0 / 6.0).abs() < tol::CHAIN);
    assert!(rows
        .iter()
        .all(|r| r.lever == "none" || r.lever == "all-on" || !r.cost.is_empty()));
    let all = rows.iter().find(|r| r.lever == "all-on").unwrap();
    // fp8 and no-reshard together: c = 2, b_w = 1·1 + 2 = 3 bytes instead of 6: 1,850 tokens.
    assert!((all.t_crit_tokens - 3700.0 * 3.0 / 6.0).abs() < tol::CHAIN);
}

#[test]
fn the_report_names_the_four_points_in_both_languages() {
    let s = scenario("v=1&preset=seed-weak");
    let llm = LlmSweep::compute(&s.llm_inputs());
    let plan = PlanSweep::compute(&s.plan_inputs());
    let r = report(&s, &llm, &plan);
    for needle in [
        "global batch fixed at 32M",
        "tokens per replica fixed at 31.25k",
        "baseline of 1,024 GPUs",
        "TP=1, PP=1, CP=1, A=1",
        "No validation loss–token curve",
        "1.52×",
        "38.1%",
    ] {
        assert!(r.en.contains(needle), "en lacks {needle}: {}", r.en);
    }
    for needle in [
        "固定 global batch",
        "固定每副本",
        "基线",
        "并行配置",
        "loss–token 曲线",
    ] {
        assert!(r.zh.contains(needle), "zh lacks {needle}: {}", r.zh);
    }
    assert!(r
        .warnings
        .iter()
        .any(|w| w.en.contains("4× the critical batch")));
    let backed = scenario("v=1&preset=seed-weak&lc=1");
    let r = report(&backed, &llm, &plan);
    assert!(r.en.contains("A validation loss–token curve backs"));
    assert!(!r.warnings.iter().any(|w| w.en.contains("critical batch")));
}

#[test]
fn bad_plan_input_is_named() {
    let errors = |q: &str| -> Vec<(Key, String)> {
        decode(q)
            .errors
            .into_iter()
            .filter_map(|e| match e {
                UrlError::Input(i) => Some((i.key, i.to_string())),
                _ => None,
            })
            .collect()
    };
    let e = errors("v=1&bcrit=0");
    assert_eq!(e[0].0, Key::CriticalBatch);
    assert!(e[0].1.contains("critical batch"), "{}", e[0].1);
    let e = errors("v=1&bcap=10");
    assert_eq!(e[0].0, Key::BatchCap);
    assert!(e[0].1.contains("less than one token"), "{}", e[0].1);
    let e = errors("v=1&tb=1M");
    assert_eq!(e[0].0, Key::TokenBudget);
    assert!(
        e[0].1.contains("less than one optimizer step"),
        "{}",
        e[0].1
    );
    let e = errors("v=1&lv=fp8,warp");
    assert!(e[0].1.contains("warp"));
    // And the plan stays finite for odd but valid inputs.
    for q in [
        "v=1&bcrit=1&bcap=32M",
        "v=1&bcrit=1e15",
        "v=1&bcap=1e15",
        "v=1&preset=dense-8b-h100&view=plan",
    ] {
        let p = PlanSweep::compute(&scenario(q).plan_inputs());
        for r in &p.rows {
            for point in [r.weak, r.strong, r.weak_then_strong, r.best]
                .into_iter()
                .flatten()
            {
                assert!(
                    point.hours_to_quality.is_finite() && point.hours_to_quality > 0.0,
                    "{q}"
                );
            }
            assert!(r.weak_true_efficiency.is_finite());
        }
    }
}

#[test]
fn best_batch_is_never_slower_than_the_fixed_strategies() {
    let s = scenario("v=1&preset=dense-8b-h100&bcrit=8M");
    let p = PlanSweep::compute(&s.plan_inputs());
    for r in &p.rows {
        let best = r.best.unwrap().hours_to_quality;
        for other in [r.weak, r.strong, r.weak_then_strong].into_iter().flatten() {
            assert!(
                best <= other.hours_to_quality * (1.0 + tol::PRINTED),
                "{} GPUs",
                r.gpus
            );
        }
    }
}

/// A strategy whose batch gives less than one token per DP rank per microbatch has no point:
/// 32M tokens on 2^30 GPUs is 0.03 tokens per GPU.
#[test]
fn a_batch_below_one_token_per_rank_has_no_point() {
    use scaling_model::plan::Strategy;
    let inputs = scenario("v=1&preset=seed-strong").plan_inputs();
    assert!(inputs.evaluate(Strategy::Strong, 1024.0).is_some());
    assert!(inputs.evaluate(Strategy::Strong, 1_073_741_824.0).is_none());
}

/// The walls on the Plan panel: each lever's memory cost at N₀, derived by hand.
/// `gpt3-175b-walls` at N₀ = 256 holds `T` = 32,768 tokens per microbatch; with TP 4 and
/// sequence parallelism one layer keeps `34·sbh/t` = 34 · 32,768 · 12,288 / 4 = 3,422,552,064 B,
/// and a stage 12 layers. Interleaved (PP 8, v 12) holds `8·(1 + 7/96)` microbatches; ZB-H2
/// `min(2·8 − 1, A = 16)` = 15 (Qi et al. 2023). So zero bubble costs
/// `(15 − 8·(1 + 7/96)) · 12 · 3,422,552,064` B. No-reshard costs nothing under ZeRO-1 (the
/// weights are whole already); under ZeRO-3 it keeps the stage's `2Ψ` instead of two layers'
/// `2 · 2Ψ/12`, `Ψ = 175e9/32`.
#[test]
fn lever_memory_costs_are_the_walls_differences() {
    let cost = |query: &str, lever: &str| {
        plan::lever_rows(&scenario(query))
            .into_iter()
            .find(|r| r.lever == lever)
            .and_then(|r| r.memory_cost_bytes)
            .unwrap()
            .0
    };
    let walls = "v=1&preset=gpt3-175b-walls";
    let per_microbatch = 12.0 * 34.0 * 32768.0 * 12288.0 / 4.0;
    let zb = (15.0 - 8.0 * (1.0 + 7.0 / 96.0)) * per_microbatch;
    assert!(
        (cost(walls, "zb") - zb).abs() < 1.0,
        "{}",
        cost(walls, "zb")
    );
    assert_eq!(cost(walls, "noreshard"), 0.0);
    assert_eq!(cost(walls, "fp8"), 0.0);
    let psi = 175e9 / 32.0;
    let noreshard = 2.0 * psi - 2.0 * 2.0 * psi / 12.0;
    let fsdp = format!("{walls}&zero=3");
    assert!((cost(&fsdp, "noreshard") - noreshard).abs() < 1.0);
    // The article's model has no shape: no memory column, no cost.
    let rows = plan::lever_rows(&scenario("v=1&preset=seed-strong"));
    assert!(rows.iter().all(|r| r.memory_cost_bytes.is_none()));
}

/// A GPU count whose memory does not fit is never the recommended one: with a 60 GiB GPU and
/// no reserve, `gpt3-175b-walls` fits only where `T` is small, so the planner's pick moves
/// there.
#[test]
fn the_planner_never_recommends_a_count_that_does_not_fit() {
    let s = scenario("v=1&preset=gpt3-175b-walls&view=plan&hbm=60Gi&hres=0");
    let plan = PlanSweep::compute(&s.plan_inputs());
    let best = plan.best_gpus_weak_then_strong;
    let point = plan
        .curves
        .iter()
        .find(|(strategy, _)| *strategy == scaling_model::plan::Strategy::WeakThenStrong)
        .and_then(|(_, pts)| pts.iter().find(|p| p.0 == best))
        .unwrap();
    assert_eq!(point.1.fits, Some(true), "{best}");
    assert!(plan
        .curves
        .iter()
        .any(|(_, pts)| pts.iter().any(|p| p.1.fits == Some(false))));
}
