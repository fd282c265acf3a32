//! The LLM panels through the URL and the CLI: presets reproduce the seed, bad input is named.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use crate::common::tol;
use scaling_core::panel::llm;
use scaling_core::scenario::{decode, Key, Scenario, UrlError, View};
use scaling_model::llm::LlmSweep;

fn sweep(query: &str) -> LlmSweep {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    LlmSweep::compute(&d.scenario.llm_inputs())
}

#[test]
fn seed_strong_preset_shows_the_seed_table() {
    let d = decode("?v=1&preset=seed-strong");
    assert_eq!(d.scenario.view, View::Strong);
    let t = llm::strong_table(&LlmSweep::compute(&d.scenario.llm_inputs()));
    let cells: Vec<Vec<&str>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    assert_eq!(
        cells[0][..8],
        ["1,024", "31.25k", "900", "100", "1000", "1000", "100%", "32M"]
    );
    assert_eq!(
        cells[1][..8],
        ["4,096", "7.813k", "225", "150", "375", "250", "66.7%", "85.33M"]
    );
    assert_eq!(
        cells[2][..8],
        ["8,192", "3.906k", "112.5", "220", "332.5", "125", "37.6%", "96.24M"]
    );
    assert_eq!(
        cells[3][..8],
        ["16,384", "1.953k", "56.25", "300", "356.25", "62.5", "17.5%", "89.82M"]
    );
}

#[test]
fn seed_weak_preset_shows_95_percent_and_the_step_counts() {
    let s = sweep("v=1&preset=seed-weak");
    let t = llm::weak_table(&s);
    assert_eq!(t.rows.len(), 2);
    assert_eq!(t.rows[0][2], "32M");
    assert_eq!(t.rows[1][2], "128M");
    assert_eq!(t.rows[1][5], "1050");
    assert_eq!(t.rows[1][6], "95.2%");
    assert_eq!(t.rows[0][8], "31,250");
    assert_eq!(t.rows[1][8], "7,812.5");
    let figures = llm::weak_key_figures(&s);
    assert!(figures.iter().any(|(_, v)| v == "31,250 → 7,812.5"));
}

#[test]
fn bandwidth_moves_t_crit_and_n_max_together() {
    let base = sweep("v=1&preset=seed-strong");
    let doubled = sweep("v=1&preset=seed-strong&beff=200G");
    assert!((doubled.summary.t_crit_tokens - base.summary.t_crit_tokens / 2.0).abs() < tol::CHAIN);
    assert!((doubled.summary.n_max - base.summary.n_max * 2.0).abs() < tol::PRINTED);
    let fp8 = sweep("v=1&preset=seed-strong&sw=1");
    assert!((fp8.summary.t_crit_tokens - 1850.0).abs() < tol::CHAIN);
    let no_reshard = sweep("v=1&preset=seed-strong&c=2");
    assert!((no_reshard.summary.t_crit_tokens - 3700.0 * 2.0 / 3.0).abs() < tol::CHAIN);
    let figures = llm::strong_key_figures(&doubled);
    assert!(figures[0].1.starts_with("1.85k"), "{figures:?}");
}

#[test]
fn moe_preset_needs_far_more_tokens_per_replica() {
    let moe = sweep("v=1&preset=moe-47b-h200");
    // T_crit = 6·P·(F/B)/F_tok, F_tok = 6·P_a + 12·L·h·s: 6·46.7e9·8,000/(6·12.9e9 +
    // 12·32·4,096·4,096) = 26,735.86 (3.4 times the dense one).
    let moe_t_crit = 6.0 * 46.7e9 * 8000.0 / (6.0 * 12.9e9 + 12.0 * 32.0 * 4096.0 * 4096.0);
    assert!((moe.summary.t_crit_tokens - moe_t_crit).abs() < tol::PRINTED);
    let dense = sweep("v=1&preset=dense-8b-h100");
    // 6·8.03e9·8,000/(6·8.03e9 + 12·32·4,096·8,192) = 6,311.97; N_max = 4M/T_crit = 633.72.
    let dense_t_crit = 6.0 * 8.03e9 * 8000.0 / (6.0 * 8.03e9 + 12.0 * 32.0 * 4096.0 * 8192.0);
    assert!((dense.summary.t_crit_tokens - dense_t_crit).abs() < tol::CHAIN);
    assert!((dense.summary.n_max - 4e6 / dense_t_crit).abs() < tol::CHAIN);
    assert!((dense_t_crit - 6311.97).abs() < 0.01);
    for row in dense.strong.iter().chain(&moe.strong) {
        assert!(row.step_ms.is_finite() && row.step_ms > 0.0);
    }
}

fn input_errors(query: &str) -> Vec<(Key, String)> {
    decode(query)
        .errors
        .into_iter()
        .filter_map(|e| match e {
            UrlError::Input(i) => Some((i.key, i.to_string())),
            _ => None,
        })
        .collect()
}

#[test]
fn bad_llm_links_are_named_and_the_rest_is_kept() {
    // Less than one token per GPU at 16,384 GPUs.
    let e = input_errors("v=1&view=strong&b=1k&tc=800");
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].0, Key::GlobalBatch);
    assert!(
        e[0].1.contains("less than one token per DP rank"),
        "{}",
        e[0].1
    );
    assert_eq!(
        decode("v=1&view=strong&b=1k&tc=800")
            .scenario
            .llm
            .compute_ms,
        800.0
    );
    // Active above total parameters.
    // pa falls back first; the default pa still exceeds p = 1B, so p falls back too.
    let e = input_errors("v=1&p=1B&pa=2B");
    assert_eq!(e[0].0, Key::ActiveParams);
    assert!(e.iter().all(|(_, m)| m.contains("exceed")), "{e:?}");
    let e = input_errors("v=1&pa=20B");
    assert_eq!(e.len(), 1);
    // GPU counts not divisible by TP×PP×CP.
    let e = input_errors("v=1&tp=3");
    assert!(
        e.iter().any(|(_, m)| m.contains("multiple of TP×PP×CP")),
        "{e:?}"
    );
    // Zero bandwidth, one-point and unsorted tables.
    assert!(input_errors("v=1&beff=0")[0].1.contains("above 0"));
    assert!(input_errors("v=1&ex=1024:100")[0].1.contains("two"));
    assert!(input_errors("v=1&ex=4096:100,1024:50")[0]
        .1
        .contains("increase"));
    assert!(input_errors("v=1&ns=4096,1024")[0].1.contains("increase"));
    // Whatever was rejected, the sweep is finite.
    for q in [
        "v=1&b=1k",
        "v=1&beff=0",
        "v=1&p=1&pa=1e15",
        "v=1&tp=3",
        "v=1&ns=1",
    ] {
        let d = decode(q);
        let s = LlmSweep::compute(&d.scenario.llm_inputs());
        for r in &s.strong {
            assert!(
                r.step_ms.is_finite()
                    && r.efficiency.is_finite()
                    && r.throughput_tokens_per_s.is_finite(),
                "{q}"
            );
        }
    }
}

#[test]
fn set_rejects_a_breaking_value_and_keeps_the_last() {
    let mut s = Scenario::default();
    s.set(Key::Bandwidth, "50G").unwrap();
    let err = s.set(Key::GlobalBatch, "100").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Global batch B_global (tokens) (b)"),
        "{err}"
    );
    assert_eq!(s.llm.global_batch_tokens, 32e6);
    assert_eq!(s.llm.bus_bytes_per_s, 50e9);
}

#[test]
fn flops_mode_reproduces_the_seed_compute_and_cp_scales_t_crit() {
    let s = sweep("v=1&preset=seed-strong&cm=flops");
    assert!((s.strong[0].compute_ms - 900.0).abs() < tol::CHAIN);
    assert!((s.strong[3].compute_ms - 56.25).abs() < tol::CHAIN);
    // CP splits tokens, not weights: the same bytes over a quarter of the compute per rank.
    let cp = sweep("v=1&preset=seed-strong&cp=4");
    assert!((cp.summary.t_crit_tokens - 4.0 * 3700.0).abs() < tol::CHAIN);
}

#[test]
fn a_baseline_beyond_the_batch_is_blamed_on_n0() {
    let e = input_errors("v=1&n0=1073741824");
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(e[0].0, Key::BaselineGpus);
}

/// `T` per replica and per GPU: with `tp=8&pp=8` (M = 64) and a 32M batch, 4,096 GPUs are 64
/// replicas of 500k tokens, 7,812.5 tokens per GPU (the example).
#[test]
fn tokens_per_replica_and_per_gpu() {
    let s = sweep("v=1&preset=seed-strong&tp=8&pp=8");
    let r = s.strong.iter().find(|r| r.gpus == 4096.0).unwrap();
    assert!((r.tokens_per_replica - 500_000.0).abs() < tol::CHAIN);
    assert!((r.tokens_per_gpu - 7_812.5).abs() < tol::CHAIN);
    let w = &s.weak[0];
    assert!((w.tokens_per_gpu - w.tokens_per_replica / 64.0).abs() < tol::CHAIN);
}

/// Levers scale a measured or fitted exposed time by their effect on T_crit (fp8: × 2/3).
#[test]
fn levers_scale_measured_and_fitted_exposed_times() {
    // em=step on the seed: exposed = step − compute = 375 − 225 = 150 ms at 4,096 GPUs;
    // with fp8, 150 · 2/3 = 100 ms.
    let s = sweep("v=1&preset=seed-strong&em=step&lv=fp8");
    assert!((s.strong[1].exposed_ms - 100.0).abs() < tol::CHAIN);
    // em=fit with K = 50 ms (W = 96,000, see tests/core/fit.rs): with fp8, 50 · 2/3 ms.
    let s = sweep("v=1&view=strong&n0=96&ns=96,192,384&em=fit&st=96:1050,192:550,384:300&lv=fp8");
    assert!((s.strong[0].exposed_ms - 50.0 * 2.0 / 3.0).abs() < tol::CHAIN);
}

/// The boxes figure draws what its title says: seed-strong splits 32M over 16 groups (1,024 →
/// 16,384 GPUs). 900 px wide: sixteen boxes of 2M, no gap, no "(×16 groups)". 360 px wide: the
/// first groups, a "…" and the last, the title naming the 16 groups on a second line; every
/// label narrower than its box.
#[test]
fn boxes_draw_every_group_or_say_which_are_left_out() {
    use scaling_core::chart::{boxes::draw_boxes, svg, ChartStyle};
    let s = sweep("v=1&preset=seed-strong");
    let draw = |size| {
        svg::render(size, |root| {
            draw_boxes(root, &s, None, &ChartStyle::default())
        })
        .unwrap()
    };
    let texts = |doc: &str| -> Vec<String> {
        doc.split("<text")
            .skip(1)
            .map(|t| {
                t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()]
                    .trim()
                    .to_string()
            })
            .collect()
    };
    let rect_widths = |doc: &str| -> Vec<f64> {
        doc.split("<rect")
            .skip(2) // the background
            .filter_map(|r| r.split(" width=\"").nth(1))
            .map(|w| w[..w.find('"').unwrap()].parse().unwrap())
            .collect()
    };
    let wide = draw(svg::SIZE);
    let t = texts(&wide);
    assert_eq!(t.iter().filter(|x| *x == "2M").count(), 16, "{t:?}");
    assert_eq!(t.iter().filter(|x| *x == "32M").count(), 17, "{t:?}");
    assert!(!t.iter().any(|x| x == "…" || x.contains("groups")), "{t:?}");

    let narrow = draw((360, 400));
    let t = texts(&narrow);
    let parts = t.iter().filter(|x| *x == "2M").count();
    assert!((3..16).contains(&parts), "{parts} boxes of 2M: {t:?}");
    assert_eq!(
        t.iter().filter(|x| *x == "…").count(),
        2,
        "a gap in each split row: {t:?}"
    );
    assert!(
        t.contains(&"global batch 32M → 512M (×16 groups)".to_string()),
        "{t:?}"
    );
    assert!(
        t.contains(&"Weak scaling: fixed tokens per replica —".to_string()),
        "{t:?}"
    );
    // 13 px text at ~0.6 em a character: "32M" is about 23 px; boxes hold it with room.
    let narrowest = rect_widths(&narrow)
        .into_iter()
        .fold(f64::INFINITY, f64::min);
    assert!(narrowest >= 30.0, "the narrowest box is {narrowest} px");
}
