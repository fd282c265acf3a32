//! Calibrate, then predict (`em=fit`): measured step times at a fixed global batch
//! fitted to `t(N) = W/N + K`, then every `ns` predicted. Golden values are derived by hand from
//! the formula (two points determine the line: `W = (t₁ − t₂)/(1/N₁ − 1/N₂)`, `K = t₁ − W/N₁`).

use crate::common::tol;
use scaling_core::panel::{fit, ChartId, Panel};
use scaling_core::scenario::{decode, Key, UrlError, View};
use scaling_model::llm::LlmSweep;

/// Megatron-Core's 177B strong sweep on H100 (NVIDIA/Megatron-LM README; shared/data/
/// published-runs.md §1): GBS 1,152 × 4,096 = 4,718,592 tokens, TP 8, PP 6, step times derived
/// from the published aggregate PFLOP/s. Fitted on its first and last points only.
const MEGATRON: &str = "v=1&view=strong&b=4718592&tp=8&pp=6&p=177G&pa=177G&n0=96\
    &ns=96,144,288,576,1152,2304,3072,4608&em=fit&st=96:112.61s,4608:2.62s";

/// The six published points the fit did not see, ms.
const MEGATRON_INTERIOR: [(f64, f64); 6] = [
    (144.0, 75_240.0),
    (288.0, 37_850.0),
    (576.0, 19_050.0),
    (1152.0, 9_683.0),
    (2304.0, 4_992.0),
    (3072.0, 3_831.0),
];

/// The messages a link's errors give for `st` and `em` (the fit's inputs).
fn fit_messages(errors: &[UrlError]) -> Vec<String> {
    errors
        .iter()
        .filter(|e| matches!(e, UrlError::Input(i) if i.key == Key::StepTable || i.key == Key::ExposedMode))
        .map(|e| e.to_string())
        .collect()
}

fn sweep(query: &str) -> LlmSweep {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{query}: {:?}", d.errors);
    LlmSweep::compute(&d.scenario.llm_inputs())
}

#[test]
fn a_known_line_is_recovered_and_predicted_everywhere() {
    // W = 96,000 ms·GPUs, K = 50 ms: t(96) = 1,050, t(192) = 550, t(384) = 300.
    let s = sweep("v=1&view=strong&n0=96&ns=96,192,384,768,1536&em=fit&st=96:1050,192:550,384:300");
    let fit = s.fit.as_ref().expect("em=fit reports its fit");
    assert!((fit.work_ms_gpus - 96_000.0).abs() < tol::PRINTED);
    assert!((fit.constant_ms - 50.0).abs() < tol::CHAIN);
    // Predictions where nothing was measured: t(768) = 125 + 50, t(1,536) = 62.5 + 50.
    assert!((s.strong[3].step_ms - 175.0).abs() < tol::CHAIN);
    assert!((s.strong[4].step_ms - 112.5).abs() < tol::CHAIN);
    // The parts: compute is W/N, exposed is K.
    assert!((s.strong[4].compute_ms - 62.5).abs() < tol::CHAIN);
    assert!((s.strong[4].exposed_ms - 50.0).abs() < tol::CHAIN);
    // Strong-scaling efficiency against N₀ = 96: 1,050·96 / (1,536 · 112.5) = 0.583333…
    assert!((s.strong[4].efficiency - 1050.0 * 96.0 / (1536.0 * 112.5)).abs() < tol::EXACT);
    // Amdahl: f = K/t(N₀) = 50/1,050; the Laws link carries it to three digits.
    assert_eq!(
        fit::fit_laws_query(&s).as_deref(),
        Some("v=1&view=laws&f=0.0476")
    );
}

#[test]
fn megatron_core_interior_points_are_predicted_within_one_percent_and_a_half() {
    let s = sweep(MEGATRON);
    let fit = s.fit.as_ref().unwrap();
    // W = (112,610 − 2,620)/(1/96 − 1/4,608) = 10,783,700.43 ms·GPUs; K = 112,610 − W/96 =
    // 279.787 ms.
    assert!((fit.work_ms_gpus - 10_783_700.425_531_914).abs() < tol::PRINTED);
    assert!((fit.constant_ms - 279.787_234_042_552_9).abs() < tol::PRINTED);
    // Hand-computed predictions W/N + K and their errors against the published points:
    // −0.10%, −0.34%, −0.25%, −0.44%, −0.64%, −1.07%.
    let want = [
        75_166.595_744_680_85,
        37_723.191_489_361_7,
        19_001.489_361_702_126,
        9_640.638_297_872_34,
        4_960.212_765_957_446,
        3_790.106_382_978_723,
    ];
    for ((n, measured), want) in MEGATRON_INTERIOR.iter().zip(want) {
        let row = s.strong.iter().find(|r| r.gpus == *n).unwrap();
        assert!(
            (row.step_ms - want).abs() < tol::PRINTED,
            "{n}: {}",
            row.step_ms
        );
        assert!((row.step_ms / measured - 1.0).abs() < 0.011, "{n} GPUs");
    }
    // F_eff = 6·P_a·B·1000/W = 6 · 177e9 · 4,718,592 · 1000 / W = 464.7 TFLOP/s: MFU 47.0% of
    // 989T, the 47% Megatron-LM reports at 96 GPUs.
    let scenario = decode(MEGATRON).scenario;
    let flops = fit.flops_per_gpu(
        6.0 * scenario.llm.active_params,
        scenario.llm.global_batch_tokens,
    );
    assert!((flops - 464_696_208_746_249.7).abs() < 1.0);
    // T_crit uses the fitted rate: (3·2/6)·(F/100e9)·1 = 4,646.96 tokens per replica.
    assert!((s.summary.t_crit_tokens - flops / 100e9).abs() < tol::PRINTED);
}

#[test]
fn the_panel_shows_the_fit_its_errors_and_the_measured_points() {
    let scenario =
        decode("v=1&view=strong&n0=96&ns=96,192,384,768&em=fit&st=96:1050,192:550,384:310")
            .scenario;
    let panel = Panel::compute(&scenario, View::Strong);
    let tables = panel.tables();
    let fit_table = tables
        .iter()
        .find(|t| t.id == "strong-fit")
        .and_then(|t| t.table.clone())
        .expect("a fit table");
    assert_eq!(fit_table.rows.len(), 3);
    // Three points: each has a leave-one-out prediction error; the first has no Karp–Flatt.
    assert!(fit_table.rows.iter().all(|r| r[5] != "–"));
    assert_eq!(fit_table.rows[0][6], "–");
    let figures = panel.figures();
    assert!(figures
        .iter()
        .any(|(l, v)| l.starts_with("Serial fraction") && v.contains('%')));
    assert!(figures.iter().any(|(_, v)| v.contains("MFU")));
    let step = panel.describe(ChartId::StrongStep).unwrap();
    let measured = step
        .series
        .iter()
        .find(|s| s.label.starts_with("measured"))
        .expect("the measured points are drawn");
    assert_eq!(
        measured.points,
        vec![(96.0, 1050.0), (192.0, 550.0), (384.0, 310.0)]
    );
    let shown = panel.shown();
    assert!(shown
        .links
        .iter()
        .any(|(id, q)| *id == "strong-fit-laws" && q.starts_with("v=1&view=laws&f=")));
    let json = panel.json(&[]);
    assert_eq!(json["fit"]["points"].as_array().map(Vec::len), Some(3));
}

#[test]
fn tables_that_cannot_be_fitted_are_refused_naming_st() {
    for (query, says) in [
        ("v=1&em=fit&st=1024:900", "at least two"),
        ("v=1&em=fit&st=1024:900,2048:900", "fall"),
        ("v=1&em=fit&st=1024:900,2048:300", "faster than 1/N"),
    ] {
        let d = decode(query);
        let named = fit_messages(&d.errors);
        assert!(
            named.iter().any(|m| m.contains(says) && m.contains("st")),
            "{query}: {named:?}"
        );
        assert!(d.scenario.check().is_empty());
    }
}

#[test]
fn a_measured_step_below_compute_is_said_not_hidden() {
    // em=step with the seed's compute (900 ms at 1,024 GPUs, 56.25 ms at 16,384): a measured
    // 50 ms at 16,384 GPUs is below compute, so its exposed time is taken as 0 — and said.
    let s = sweep("v=1&preset=seed-strong&em=step&st=1024:1000,16384:50");
    let note = fit::step_below_compute_note(&s).expect("a note");
    assert!(note.contains("16,384"), "{note}");
    assert!(fit::step_below_compute_note(&sweep("v=1&preset=seed-strong&em=step")).is_none());
}

/// The gallery's Megatron-Core preset: eight measured points on the strong step chart, fitted on
/// the first and last (`fp=96,4608`), the six between predicted. The preset's step times
/// count attention's FLOPs as Megatron-LM does (`F_tok·B` over the published aggregate rate:
/// 118,758, 79,350, 39,915, 20,094, 10,212, 5,264, 4,041, 2,763 ms), so by hand
/// `W = (118,758 − 2,763)/(1/96 − 1/4,608)` = 11,372,445.957 ms·GPUs, `K = 118,758 − W/96` =
/// 295.021 ms, and the errors of `W/N + K` at 144 … 3,072 GPUs are 0.100%, 0.332%, 0.274%,
/// 0.441%, 0.627%, 1.089% — max 1.089%, median (0.332% + 0.441%)/2 = 0.386%.
#[test]
fn the_megatron_preset_predicts_six_measured_points() {
    let scenario = decode("v=1&preset=megatron-177b-h100").scenario;
    assert_eq!(scenario.to_query(), "v=1&preset=megatron-177b-h100");
    let panel = Panel::compute(&scenario, View::Strong);
    let s = panel.llm().unwrap();
    let fit = s.fit.as_ref().unwrap();
    assert_eq!(fit.points.len(), 8);
    assert_eq!(fit.points.iter().filter(|p| p.in_fit).count(), 2);
    assert!((fit.max_error - 0.010_891_026_552_304_45).abs() < tol::CHAIN);
    assert!((fit.work_ms_gpus - 11_372_445.957_446_808).abs() < tol::PRINTED);
    assert!((fit.constant_ms - 295.021_276_595_755).abs() < tol::PRINTED);
    assert!(
        (fit.median_error - (0.003_315_023_147_592_688_3 + 0.004_412_830_962_321_257) / 2.0).abs()
            < tol::CHAIN
    );
    let step = panel.describe(ChartId::StrongStep).unwrap();
    let measured = step
        .series
        .iter()
        .find(|s| s.label.starts_with("measured"))
        .unwrap();
    assert_eq!(measured.points.len(), 8);
    // A point of fp that st does not measure is refused naming fp.
    let d = decode("v=1&preset=megatron-177b-h100&fp=96,5000");
    assert!(d
        .errors
        .iter()
        .any(|e| matches!(e, UrlError::Input(i) if i.key == Key::FitOn)));
}

/// The gallery's MLPerf v3.1 GPT-3 175B preset (mlcommons/training_results_v3.1, NVIDIA Eos;
/// shared/data/published-runs.md §2), by hand:
/// - step fit through the two published sizes at GBS 2,048 × 2,048 tokens: W = (11,051 −
///   1,609)/(1/512 − 1/4,096) = 9,442/0.001708984375 = 5,524,918.9 ms·GPU, K = 1,609 −
///   W/4,096 = 260.14 ms; weak scaling at 1,024 tokens per GPU keeps W·(B/B₀)/N = 1,348.9 ms, so
///   the step stays 1,609 ms (measured: 1,609 → 1,619 ms, 99.4%);
/// - critical batch: tb = 1.208e9 tokens (288 steps) at B₀ = 4,194,304 and B_crit = 36M give
///   E_min = 1.208e9/(1 + 4.194304/36) = 1.081944e9, S_min = 30.054 steps;
///   S(8,388,608) = 30.054 × (1 + 4.291534) = 159.03 (published 156 to 162); time to quality
///   288.0 × 1.609 s = 0.1287 h at 4,096 GPUs, 159.03 × 1.609 s = 0.07108 h at 8,192: 1.811x
///   for 2x the GPUs (measured run time: 1.74x, with ~22–26 evaluations in it).
/// - predictions on published batches the B_crit fit did not use: S(3,072 × 2,048) = 202.02
///   (published 200, +1.0%), S(2,560 × 2,048) = 236.42 (230, +2.8%), S(2,688 × 2,048) = 226.59
///   (220, +3.0%): within the ±4% the ~50M-token evaluation interval allows.
#[test]
fn the_mlperf_preset_shows_the_weak_scaling_trap_as_measured() {
    let scenario = decode("v=1&preset=mlperf-gpt3-175b-h100").scenario;
    assert_eq!(scenario.to_query(), "v=1&preset=mlperf-gpt3-175b-h100");
    assert_eq!(scenario.view, View::Plan);
    let strong = Panel::compute(&scenario, View::Strong);
    let fit = strong.llm().unwrap().fit.clone().unwrap();
    assert!((fit.work_ms_gpus - 5_524_918.857_142_857).abs() < 1e-6);
    assert!((fit.constant_ms - 260.142_857_142_857_1).abs() < 1e-9);

    let panel = Panel::compute(&scenario, View::Plan);
    let plan = panel.plan().unwrap();
    assert!((plan.min_steps - 30.054_009_642_759_336).abs() < 1e-9);
    let rows = &plan.rows;
    assert_eq!(
        rows.iter().map(|r| r.gpus).collect::<Vec<_>>(),
        [4096.0, 6144.0, 8192.0]
    );
    let weak = |i: usize| rows[i].weak.unwrap();
    assert!((weak(0).hours_to_quality - 0.128_72).abs() < 1e-4);
    assert!((weak(2).hours_to_quality - 0.071_078_391).abs() < 1e-6);
    assert!((rows[2].weak_ttq_speedup - 1.811_018_899).abs() < 1e-6);
    // The headline: flat step time, so 100% "weak efficiency" against 1.81x to quality.
    assert!((rows[2].vanity_weak_efficiency - 1.0).abs() < 1e-9);
    let figures = panel.figures();
    assert_eq!(
        figures[0].0,
        "Weak scaling 4,096 → 8,192 GPUs (2x): reported efficiency"
    );
    assert_eq!(figures[1].1, "1.81x — true efficiency 90.6%");
    // Predictions of the published steps at batches the B_crit fit did not use.
    let critical = scaling_model::batch::CriticalBatch::from_reference(36e6, 1.208e9, 4_194_304.0);
    for (sequences, published, predicted) in [
        (3072.0, 200.0, 202.024_432_250_711_47),
        (2560.0, 230.0, 236.418_516_772_301_9),
        (2688.0, 220.0, 226.591_635_480_418_92),
    ] {
        let steps = critical.steps(sequences * 2048.0);
        assert!((steps - predicted).abs() < 1e-6, "{sequences}: {steps}");
        assert!(
            (steps / published - 1.0).abs() < 0.04,
            "{sequences}: within ±4%"
        );
    }
    // The source is cited on the panel the preset opens on.
    let source = panel
        .shown()
        .texts
        .iter()
        .find(|(id, _)| *id == "plan-source")
        .map(|(_, t)| t.clone())
        .unwrap();
    assert!(
        source.starts_with("Source: mlcommons/training_results_v3.1"),
        "{source}"
    );
}

/// Every MLPerf v3.1 GPT-3 system size (published-runs.md §2), five of them at batches other
/// than the fit's: the fit on 512 and 4,096 GPUs at GBS 2,048 predicts them through `@B`, the
/// compute scaling with the batch. By hand: W = (11,051 − 1,609)/(1/512 − 1/4,096)
/// = 9,442·4,096/7 = 5,524,918.857 ms·GPU, K = 1,609 − W/4,096 = 260.143 ms; then
/// 768 at 1.5× the batch: W·1.5/768 + K = 11,051.0 (measured 11,075, −0.22%);
/// 6,144 at 1.5×: W·1.5/6,144 + K = 1,609.0 (1,615, −0.37%); 8,192 at 2×: 1,609.0 (1,619,
/// −0.62%); 10,240 at 1.25×: W·1.25/10,240 + K = 934.571 (926, +0.93%); 10,752 at 1.3125×:
/// 934.571 (930, +0.49%).
#[test]
fn mlperf_points_at_other_batches_are_predicted_within_one_percent() {
    let close = |a: f64, b: f64, rel: f64| ((a - b) / b).abs() <= rel;
    let s = sweep(
        "v=1&preset=mlperf-gpt3-175b-h100&view=strong&fp=512,4096&st=512:11051,\
         768:11075@6291456,4096:1609,6144:1615@6291456,8192:1619@8388608,\
         10240:926@5242880,10752:930@5505024",
    );
    let fit = s.fit.as_ref().expect("the fit");
    let w = 9442.0 * 4096.0 / 7.0;
    let k = 1609.0 - w / 4096.0;
    assert!(close(fit.work_ms_gpus, w, tol::CHAIN));
    assert!(close(fit.constant_ms, k, tol::CHAIN));
    for (gpus, factor, measured) in [
        (768.0, 1.5, 11_075.0),
        (6144.0, 1.5, 1_615.0),
        (8192.0, 2.0, 1_619.0),
        (10_240.0, 1.25, 926.0),
        (10_752.0, 1.3125, 930.0),
    ] {
        let point = fit.points.iter().find(|p| p.gpus == gpus).unwrap();
        assert!(!point.in_fit, "{gpus} is a prediction");
        assert!(
            close(point.fitted_ms, w * factor / gpus + k, tol::CHAIN),
            "{gpus}"
        );
        assert!((point.error - (point.fitted_ms / measured - 1.0)).abs() < tol::CHAIN);
        assert!(point.error.abs() < 0.01, "{gpus}: {}", point.error);
    }
    assert!((fit.max_error - (934.571_428_571 / 926.0 - 1.0)).abs() < tol::PRINTED);
}

/// A weak sweep with per-point batches (`st=N:ms@B`): every point has 1,000 tokens per GPU, so
/// the fit is `t = W·(B/B₀)/N + κ·log₂(N/M)`. Synthetic data from known parts, `M = 8` (TP 8),
/// `B₀ = 16,000` at `N₀ = 16`: compute `W/N₀ = 1,000` ms (`W = 16,000 ms·GPU`), `κ = 20` ms per
/// doubling of `D = N/8`: t(16) = 1,000 + 20·1, t(32) = 1,000 + 20·2, t(64) = 1,000 + 20·3,
/// t(128) = 1,000 + 20·4.
const WEAK_SYNTHETIC: &str = "v=1&view=weak&tp=8&b=16000&n0=16&ns=16,32,64,128,1024&em=fit\
    &st=16:1020@16000,32:1040@32000,64:1060@64000,128:1080@128000";

#[test]
fn a_weak_sweep_recovers_known_compute_and_growth_per_doubling() {
    let s = sweep(WEAK_SYNTHETIC);
    let fit = s.fit.as_ref().unwrap();
    assert_eq!(fit.per_doubling_of, Some(8.0));
    assert!((fit.work_ms_gpus - 16_000.0).abs() < tol::PRINTED);
    assert!((fit.constant_ms - 20.0).abs() < tol::PRINTED);
    assert!(fit.max_error < tol::PRINTED);
    // Predicted where nothing was measured: 1,024 GPUs, D = 128 = 2^7: 1,000 + 20·7 = 1,140 ms
    // at 1,024,000 tokens (weak: B = 1,000·N).
    let last = s.weak.last().unwrap();
    assert!((last.global_batch_tokens - 1_024_000.0).abs() < tol::EXACT);
    assert!((last.compute_ms - 1000.0).abs() < tol::PRINTED);
    assert!((last.exposed_ms - 140.0).abs() < tol::PRINTED);
    assert!((last.step_ms - 1140.0).abs() < tol::PRINTED);
    // The same fit on the strong sweep (B₀ fixed): compute 16,000/1,024 = 15.625, exposed 140.
    let strong = s.strong.last().unwrap();
    assert!((strong.compute_ms - 15.625).abs() < tol::PRINTED);
    assert!((strong.exposed_ms - 140.0).abs() < tol::PRINTED);
    // Four points: each has a leave-one-out prediction (exact data: 0); Karp–Flatt reads t₁/t
    // as a speedup, which it is not when the batch changes, so it is left out.
    assert!(fit
        .points
        .iter()
        .all(|p| p.leave_one_out_error.unwrap().abs() < tol::PRINTED && p.karp_flatt.is_none()));
    // Measured points go on the weak step chart, not on the strong one.
    let weak_panel = Panel::compute(&decode(WEAK_SYNTHETIC).scenario, View::Weak);
    let measured = |panel: &Panel, chart| {
        panel
            .describe(chart)
            .unwrap()
            .series
            .iter()
            .any(|s| s.label.starts_with("measured"))
    };
    assert!(measured(&weak_panel, ChartId::WeakStep));
    let strong_panel = Panel::compute(&decode(WEAK_SYNTHETIC).scenario, View::Strong);
    assert!(!measured(&strong_panel, ChartId::StrongStep));
}

#[test]
fn per_point_batches_that_cannot_be_read_or_fitted_are_refused_naming_st() {
    for (query, says) in [
        ("v=1&em=fit&st=1024:900@x,2048:950", "not a number"),
        ("v=1&em=fit&st=1024@5:900,2048:950", "not a number"),
        ("v=1&em=fit&st=1024:900@,2048:950", "not a number"),
        // Weak (32,000 tokens per GPU at both) and falling: κ = −50 ms per doubling.
        (
            "v=1&em=fit&st=1024:900@32768000,2048:850@65536000",
            "falls as GPUs are added",
        ),
    ] {
        let d = decode(query);
        let named = fit_messages(&d.errors);
        assert!(
            named.iter().any(|m| m.contains(says) && m.contains("(st)")),
            "{query}: {named:?}"
        );
    }
}

/// The gallery's DGX Cloud pair (NVIDIA/dgxc-benchmarking `nemo_megatron/README_175b.md`;
/// docs/model/03-step-time.md §3.2(d)): GPT-3 175B on H100, TP 4 × PP 8 = 32 GPUs per replica,
/// GBS = 2·N sequences of 2,048 tokens (4,096 tokens per GPU), fitted on 128 and 2,048 GPUs (D = 4
/// and 64: log₂ D = 2 and 6). By hand:
/// - BF16 8,309 → 8,490 ms: κ = (8,490 − 8,309)/(6 − 2) = 45.25 ms, W/N₀ = 8,309 − 2·45.25 =
///   8,218.5 ms (W = 8,218.5·128 = 1,051,968 ms·GPU). Predicted 256/512/1,024 (log₂ D = 3, 4, 5):
///   8,354.25, 8,399.5, 8,444.75 against 8,408, 8,420, 8,453: −0.639%, −0.243%, −0.098%; max
///   53.75/8,408 = 0.6393%, median 20.5/8,420 = 0.2435%.
/// - FP8 5,626 → 5,960 ms: κ = 334/4 = 83.5 ms, W/N₀ = 5,626 − 167 = 5,459 ms (W = 698,752).
///   Predicted 5,709.5, 5,793, 5,876.5 against 5,725, 5,774, 5,820: −0.271%, +0.329%, +0.971%;
///   max 56.5/5,820 = 0.9708%, median 19/5,774 = 0.3291%.
/// - F_eff = 6·175e9·524,288·1,000/W: BF16 5.505024e20/1,051,968 = 523.3 TFLOP/s (52.9% of 989T),
///   FP8 5.505024e20/698,752 = 787.8 TFLOP/s (39.8% of 1,979T). T_crit ∝ F_eff: FP8/BF16 =
///   1,051,968/698,752 = 1.5055.
/// - Exposed at 2,048 GPUs (6κ): BF16 271.5 ms = 3.20% of 8,490; FP8 501 ms = 8.41% of 5,960.
#[test]
fn the_dgxc_pair_predicts_its_interior_points_and_fp8_exposes_more() {
    let cases = [
        (
            "dgxc-gpt3-175b-bf16",
            1_051_968.0,
            45.25,
            [8354.25, 8399.5, 8444.75],
            53.75 / 8408.0,
            20.5 / 8420.0,
            271.5 / 8490.0,
        ),
        (
            "dgxc-gpt3-175b-fp8",
            698_752.0,
            83.5,
            [5709.5, 5793.0, 5876.5],
            56.5 / 5820.0,
            19.0 / 5774.0,
            501.0 / 5960.0,
        ),
    ];
    let mut t_crit = Vec::new();
    for (name, work, kappa, predicted, max, median, share) in cases {
        let query = format!("v=1&preset={name}");
        let scenario = decode(&query).scenario;
        assert_eq!(scenario.to_query(), query);
        assert_eq!(scenario.view, View::Weak);
        let panel = Panel::compute(&scenario, View::Weak);
        let s = panel.llm().unwrap();
        let fit = s.fit.as_ref().unwrap();
        assert_eq!(fit.per_doubling_of, Some(32.0), "{name}");
        assert!((fit.work_ms_gpus - work).abs() < tol::PRINTED, "{name}");
        assert!((fit.constant_ms - kappa).abs() < tol::PRINTED, "{name}");
        assert_eq!(fit.points.iter().filter(|p| p.in_fit).count(), 2);
        for (row, want) in s.weak[1..4].iter().zip(predicted) {
            assert!(
                (row.step_ms - want).abs() < tol::PRINTED,
                "{name} {}",
                row.gpus
            );
        }
        assert!((fit.max_error - max).abs() < tol::CHAIN, "{name}");
        assert!((fit.median_error - median).abs() < tol::CHAIN, "{name}");
        let last = s.weak.last().unwrap();
        assert!((last.exposed_ms / last.step_ms - share).abs() < tol::CHAIN);
        t_crit.push(s.summary.t_crit_tokens);
        // Shown: the source under the weak table, the fit table, the measured points.
        let shown = panel.shown();
        let source = shown
            .texts
            .iter()
            .find(|(id, _)| *id == "weak-source")
            .unwrap();
        assert!(
            source.1.starts_with("Source: NVIDIA/dgxc-benchmarking"),
            "{}",
            source.1
        );
        let fit_table = panel.tables().into_iter().find(|t| t.id == "weak-fit");
        assert_eq!(
            fit_table.and_then(|t| t.table).map(|t| t.rows.len()),
            Some(5)
        );
        let chart = panel.describe(ChartId::WeakStep).unwrap();
        let measured = chart
            .series
            .iter()
            .find(|s| s.label.starts_with("measured"))
            .unwrap();
        assert_eq!(measured.points.len(), 5);
        assert!(panel
            .figures()
            .iter()
            .any(|(l, _)| l.starts_with("Exposed part of the step")));
    }
    // FP8's faster compute moves T_crit up by W_bf16/W_fp8 = 1.5055 (T_crit ∝ F_eff), and its
    // parameters gathered in FP8 (`fp8_params: true`) move it down by the bytes a GPU moves,
    // b_w = 2·1 + 2 = 4 against 2·2 + 2 = 6 (T_crit ∝ b_w); its exposed share at 2,048 GPUs is
    // 8.41% against 3.20%.
    assert!((t_crit[1] / t_crit[0] - 1_051_968.0 / 698_752.0 * (4.0 / 6.0)).abs() < tol::CHAIN);
}
