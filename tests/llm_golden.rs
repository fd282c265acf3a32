//! The seed's two tables (MODEL.md §6), every cell, from the model directly.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

mod common;

use common::tol;
use scaling_model::llm::{ComputeSource, ExposedSource, LlmInputs, LlmSweep};
use scaling_model::step::{ExposedTable, FsdpComm, Layout, PipelineSchedule};

/// Table values are exact arithmetic on the seed's inputs; allow float noise only.
const EXACT: f64 = 1e-9;

fn seed_inputs() -> LlmInputs {
    LlmInputs {
        global_batch_tokens: 32e6,
        layout: Layout {
            tp: 1,
            pp: 1,
            cp: 1,
            accumulation: 1,
        },
        microbatch_tokens: None,
        search: None,
        total_params: 1.0,
        held_params: None,
        active_params: 1.0,
        flops_per_gpu: 370e12,
        peak_flops_per_gpu: 989e12,
        comm: FsdpComm {
            gathers: 3.0,
            wire_bytes_per_param: 2.0,
            gather_bytes_per_param: 2.0,
            bus_bytes_per_s: 100e9,
            fixed_ms: 0.0,
            schedule: PipelineSchedule::OneFOneB,
            chunks: 1,
        },
        compute: ComputeSource::AtBaseline { compute_ms: 900.0 },
        exposed: ExposedSource::Table(
            ExposedTable::new(vec![
                (1024.0, 100.0),
                (4096.0, 150.0),
                (8192.0, 220.0),
                (16384.0, 300.0),
            ])
            .unwrap(),
        ),
        baseline_gpus: 1024.0,
        gpus: vec![1024.0, 4096.0, 8192.0, 16384.0],
        token_budget: 1e12,
        exposed_scale: 1.0,
        fit: None,
        walls: None,
    }
}

#[test]
fn seed_strong_table() {
    let s = LlmSweep::compute(&seed_inputs());
    // GPUs, tokens/GPU, compute, exposed, step, ideal, efficiency, throughput (tok/s)
    let expected = [
        (1024.0, 31_250.0, 900.0, 100.0, 1000.0, 1000.0, 1.0, 32.0e6),
        (
            4096.0,
            7_812.5,
            225.0,
            150.0,
            375.0,
            250.0,
            250.0 / 375.0,
            32e6 / 0.375,
        ),
        (
            8192.0,
            3_906.25,
            112.5,
            220.0,
            332.5,
            125.0,
            125.0 / 332.5,
            32e6 / 0.3325,
        ),
        (
            16384.0,
            1_953.125,
            56.25,
            300.0,
            356.25,
            62.5,
            62.5 / 356.25,
            32e6 / 0.35625,
        ),
    ];
    assert_eq!(s.strong.len(), 4);
    for (row, e) in s.strong.iter().zip(expected) {
        assert_eq!(row.gpus, e.0);
        assert!((row.tokens_per_replica - e.1).abs() < EXACT);
        assert!((row.compute_ms - e.2).abs() < EXACT);
        assert!((row.exposed_ms - e.3).abs() < EXACT);
        assert!((row.step_ms - e.4).abs() < EXACT);
        assert!((row.ideal_ms - e.5).abs() < EXACT);
        assert!((row.efficiency - e.6).abs() < EXACT);
        assert!((row.throughput_tokens_per_s - e.7).abs() < tol::MILLI);
        assert!(!row.extrapolated);
    }
    // The seed's rounded figures: 66.7%, 37.6%, 17.5%; 85.3M, 96.2M, 89.8M tok/s.
    assert_eq!((s.strong[1].efficiency * 1000.0).round(), 667.0);
    assert_eq!((s.strong[2].efficiency * 1000.0).round(), 376.0);
    assert_eq!((s.strong[3].efficiency * 1000.0).round(), 175.0);
    assert_eq!((s.strong[2].throughput_tokens_per_s / 1e5).round(), 962.0);
    assert_eq!((s.strong[3].throughput_tokens_per_s / 1e5).round(), 898.0);
    // Throughput peaks at 8,192 and falls at 16,384; N_max = 32M / 3.7k ≈ 8,649.
    assert_eq!(s.summary.peak_throughput_gpus, 8192.0);
    assert!((s.summary.t_crit_tokens - 3700.0).abs() < EXACT);
    assert_eq!(s.summary.n_max.round(), 8649.0);
    // T = 3.9k at 8,192 is just above T_crit = 3.7k ("near"); 1.95k at 16,384 is below.
    assert!(!s.strong[2].below_t_crit && s.strong[3].below_t_crit);
}

#[test]
fn seed_weak_table() {
    let mut inputs = seed_inputs();
    inputs.gpus = vec![1024.0, 4096.0];
    let s = LlmSweep::compute(&inputs);
    let (a, b) = (&s.weak[0], &s.weak[1]);
    assert!(
        (a.tokens_per_replica - 31_250.0).abs() < EXACT
            && (b.tokens_per_replica - 31_250.0).abs() < EXACT
    );
    assert!((a.global_batch_tokens - 32e6).abs() < EXACT);
    assert!((b.global_batch_tokens - 128e6).abs() < EXACT);
    assert!((a.step_ms - 1000.0).abs() < EXACT);
    assert!((b.step_ms - 1050.0).abs() < EXACT);
    assert!((b.efficiency - 1000.0 / 1050.0).abs() < EXACT);
    assert_eq!((b.efficiency * 1000.0).round(), 952.0);
    assert!((a.throughput_tokens_per_s - 32e6).abs() < tol::MILLI);
    assert_eq!((b.throughput_tokens_per_s / 1e5).round(), 1219.0);
    assert!((a.optimizer_steps - 31_250.0).abs() < EXACT);
    assert!((b.optimizer_steps - 7_812.5).abs() < EXACT);
}

#[test]
fn compute_from_flops_matches_the_baseline_form() {
    // 900 ms at 1,024 GPUs for 32M tokens at 370 TFLOP/s means P_a = 0.9·1024·370e12/(6·32e6).
    let mut inputs = seed_inputs();
    inputs.active_params = 0.9 * 1024.0 * 370e12 / (6.0 * 32e6);
    inputs.total_params = inputs.active_params;
    inputs.compute = ComputeSource::Flops;
    let s = LlmSweep::compute(&inputs);
    assert!((s.strong[0].compute_ms - 900.0).abs() < tol::PRINTED);
    assert!((s.strong[3].compute_ms - 56.25).abs() < tol::PRINTED);
}

#[test]
fn fsdp_exposure_starts_below_t_crit() {
    let mut inputs = seed_inputs();
    inputs.active_params = 0.9 * 1024.0 * 370e12 / (6.0 * 32e6);
    inputs.total_params = inputs.active_params;
    inputs.compute = ComputeSource::Flops;
    inputs.exposed = ExposedSource::Fsdp;
    inputs.gpus = vec![1024.0, 2048.0, 4096.0, 8192.0, 16384.0, 32768.0];
    let s = LlmSweep::compute(&inputs);
    for row in &s.strong {
        // Exposed communication appears only once T < T_crit (the ring factor makes it a
        // hair later), and then grows as compute shrinks.
        if row.tokens_per_replica > s.summary.t_crit_tokens {
            assert!(row.exposed_ms < tol::CHAIN, "{row:?}");
        }
    }
    assert!(s.strong[4].exposed_ms > 0.0 && s.strong[5].exposed_ms > s.strong[4].exposed_ms);
}

/// MFU `= 6 · P_a · B / (N · t_step · peak)` on the seed's table (P_a = 1.776B, the count 900 ms
/// at 370 TFLOP/s implies; peak 989 TFLOP/s): 3.40992e17 model FLOPs per step, over
/// 1,024 · 1.0 s · 989e12 at 1,024 GPUs and 16,384 · 0.35625 s · 989e12 at 16,384.
#[test]
fn mfu_of_the_seed_rows() {
    let s = scaling_core::scenario::decode("v=1&preset=seed-strong").scenario;
    let sweep = scaling_core::panel::Panel::compute(&s, scaling_core::scenario::View::Strong);
    let json = sweep.json(&[]);
    let rows = json["rows"].as_array().unwrap();
    let mfu = |i: usize| rows[i]["mfu"].as_f64().unwrap();
    assert!((mfu(0) - 3.40992e17 / (1024.0 * 1.0 * 989e12)).abs() < EXACT);
    assert!((mfu(3) - 3.40992e17 / (16384.0 * 0.35625 * 989e12)).abs() < EXACT);
}

/// Kernels that shrink (`ks=1`): compute at `N` is the constant-rate time divided by
/// `η(N)/η(N₀)`. `gpt3-175b-walls` (TP 4, CP 1, m½ = k½ = 128) has `T` = 32,768 tokens at
/// N₀ = 256 and 2,048 at 4,096; `h/TP` = 3,072 at both, so `η(4,096)/η(256)` =
/// (2,048/2,176) / (32,768/32,896). Constant-rate compute at 4,096 GPUs:
/// F_tok · 4,194,304 / (4,096 · 600e12) s, with F_tok = 6 · 175e9 + 12 · 96 · 12,288 · 2,048
/// FLOPs per token (the weights and attention).
#[test]
fn kernels_shrink_with_tokens_per_gpu() {
    let s = scaling_core::scenario::decode("v=1&preset=gpt3-175b-walls").scenario;
    let sweep = scaling_core::panel::Panel::compute(&s, scaling_core::scenario::View::Strong);
    let json = sweep.json(&[]);
    let rows = json["rows"].as_array().unwrap();
    let flops_per_token = 6.0 * 175e9 + 12.0 * 96.0 * 12288.0 * 2048.0;
    let constant = flops_per_token * 4_194_304.0 / (4096.0 * 600e12) * 1e3;
    let ratio = (2048.0 / 2176.0) / (32768.0 / 32896.0);
    let compute = rows[4]["compute_ms"].as_f64().unwrap();
    assert_eq!(rows[4]["gpus"], 4096.0);
    assert!((compute - constant / ratio).abs() < 1e-6, "{compute}");
    let eta = rows[4]["gemm_efficiency"].as_f64().unwrap();
    assert!(
        (eta - 2048.0 / 2176.0 * 3072.0 / 3200.0).abs() < EXACT,
        "{eta}"
    );
    // The baseline runs at F_eff as typed: F_tok · 4,194,304 / (256 · 600e12) s.
    let base = rows[0]["compute_ms"].as_f64().unwrap();
    assert!((base - flops_per_token * 4_194_304.0 / (256.0 * 600e12) * 1e3).abs() < 1e-6);
    // Exposed at 4,096 GPUs (em=fsdp with a shape): the interleaved bubble 7/(12·16) of
    // compute; TP's 16 · 2,048 · 12,288 · 3/4 bytes per layer per microbatch over NVLink
    // (400 GB/s, TP 4 inside the node), 16 microbatches × 12 layers, not overlapped; ZeRO-1's
    // data-parallel 2 · 2 · (175e9/32) · 127/128 bytes at 50 GB/s, less what the last group of
    // p = 8 microbatches through 11 of the 12 chunks hides (8 · 11/12 · compute/16), but at
    // least one of its 12 chunks; the pipeline's
    // fill and drain, 2·(8·12 − 1) = 190 sends of 2,048 · 12,288 · 2/4 bytes at 50 GB/s (the
    // 32 GPUs of a pipeline span four nodes).
    let bubble = 7.0 / (12.0 * 16.0) * compute;
    let tp = 16.0 * 2048.0 * 12288.0 * 0.75 / 400e9 * 1e3 * 16.0 * 12.0;
    let dp_ms: f64 = 2.0 * 2.0 * 175e9 / 32.0 * 127.0 / 128.0 / 50e9 * 1e3;
    let dp = (dp_ms / 12.0).max(dp_ms - 8.0 * 11.0 / 12.0 * compute / 16.0);
    let pp = 190.0 * 2048.0 * 12288.0 * 2.0 / 4.0 / 50e9 * 1e3;
    let exposed = rows[4]["exposed_ms"].as_f64().unwrap();
    assert!(
        (exposed - (bubble + tp + dp + pp)).abs() < 1e-6,
        "{exposed}"
    );
    assert!((rows[4]["traffic"]["pp_ms"].as_f64().unwrap() - pp).abs() < 1e-9);
    assert!((rows[4]["traffic"]["tp_ms"].as_f64().unwrap() - tp).abs() < 1e-6);
    // Without ks the rate is constant: the seed's article model.
    let flat = scaling_core::scenario::decode("v=1&preset=gpt3-175b-walls&ks=0").scenario;
    let flat = scaling_core::panel::Panel::compute(&flat, scaling_core::scenario::View::Strong);
    let flat = flat.json(&[]);
    let c = flat["rows"][4]["compute_ms"].as_f64().unwrap();
    assert!((c - constant).abs() < 1e-6);
}

/// A fixed microbatch (`mbs`): `llama31-405b-h100`, one 8,192-token sequence per microbatch,
/// B = 2,048 sequences, TP 8 · PP 16 (M = 128), interleaved with v = 8, 126 layers (8 on the
/// busiest stage), F_eff = 513.5T, ZeRO-2 over 50 GB/s, TP over NVLink at 400 GB/s.
///
/// 8,192 GPUs: D = 64, A = 2,048/64 = 32; 16,384: D = 128, A = 16; 2,048: D = 16, A = 128.
/// T = 8,192 at every count. Compute (kernels constant) = F_tok · 16,777,216 / (N · 513.5e12),
/// with F_tok = 6 · 405.8e9 + 12 · 126 · 16,384 · 8,192 FLOPs per token (the weights and
/// attention's score and value products, PaLM's count).
/// Exposed = bubble (p − 1)/(v·A) · compute + TP 16 · 8,192 · 16,384 · 7/8 bytes per layer per
/// microbatch / 400e9 × 8 layers × A + the pipeline's fill and drain, 2·(16·8 − 1) = 254 sends
/// of 8,192 · 16,384 · 2/8 bytes at 50e9 (0.67108864 ms each: 170.45651456 ms) + one of the
/// data-parallel (4 + 2) · (405.8e9/128) · (D − 1)/D bytes at 50e9 (fp32 gradients
/// reduce-scattered, bf16 weights gathered) that the last group of min(16, A) microbatches
/// through 7 of the 8 chunks does not hide, and at least one of its 8 chunks:
/// max(t_DP/8, t_DP − min(16, A) · 7/8 · compute/A). N_max = M·B/max(m, T_crit), T_crit with
/// b_w = 2·2 + 4 = 8.
#[test]
fn a_fixed_microbatch_makes_the_bubble_grow() {
    let s = scaling_core::scenario::decode("v=1&preset=llama31-405b-h100").scenario;
    let sweep = scaling_core::panel::Panel::compute(&s, scaling_core::scenario::View::Strong);
    let json = sweep.json(&[]);
    let rows = json["rows"].as_array().unwrap();
    let b = 2048.0 * 8192.0;
    let flops_per_token = 6.0 * 405.8e9 + 12.0 * 126.0 * 16384.0 * 8192.0;
    for (i, n, a) in [(0, 2048.0, 128.0), (2, 8192.0, 32.0), (3, 16384.0, 16.0)] {
        let row = &rows[i];
        assert_eq!(row["gpus"], n);
        assert_eq!(row["accumulation"], a);
        assert_eq!(row["tokens_per_replica"], 8192.0);
        let compute = flops_per_token * b / (n * 513.5e12) * 1e3;
        let got = row["compute_ms"].as_f64().unwrap();
        assert!((got - compute).abs() < 1e-6 * compute, "{n}: {got}");
        let d = n / 128.0;
        let bubble = 15.0 / (8.0 * a) * compute;
        let tp = 16.0 * 8192.0 * 16384.0 * 7.0 / 8.0 / 400e9 * 1e3 * 8.0 * a;
        let dp: f64 = 6.0 * 405.8e9 / 128.0 * (d - 1.0) / d / 50e9 * 1e3;
        let pp = 170.456_514_56;
        let exposed = row["exposed_ms"].as_f64().unwrap();
        let window = 16.0_f64.min(a) * 7.0 / 8.0 * compute / a;
        let expected = bubble + tp + pp + (dp / 8.0).max(dp - window);
        assert!(
            (exposed - expected).abs() < 1e-6 * exposed,
            "{n}: {exposed} against {expected}"
        );
    }
    // The 16,384-GPU row: compute 5,260.06…, bubble 15/128 of it, TP 601.3 ms, the fill and
    // drain's 170.46 ms and one of the eight chunks of the 377.4 ms of 6·(405.8e9/128)·127/128 B
    // at 50 GB/s (the last group's 16 · 7/8 microbatches of compute hide the rest).
    let step = rows[3]["step_ms"].as_f64().unwrap();
    let compute = flops_per_token * b / (16384.0 * 513.5e12) * 1e3;
    let expected = compute * (1.0 + 15.0 / 128.0)
        + 16.0 * 8192.0 * 16384.0 * 0.875 / 400e9 * 1e3 * 128.0
        + 170.456_514_56
        + 6.0 * 405.8e9 / 128.0 * 127.0 / 128.0 / 50e9 * 1e3 / 8.0;
    assert!((step - expected).abs() < 1e-6 * step, "{step}");
    // The knee: m = 8,192 < T_crit = b_w·P·F_eff/(F_tok·B_eff) = 8·405.8e9·513.5e12/(F_tok·50e9)
    // = 12,639.8, so M·B/T_crit.
    let t_crit = 8.0 * 405.8e9 * 513.5e12 / (flops_per_token * 50e9);
    assert!((t_crit - 12_639.8).abs() < 0.05, "{t_crit}");
    let n_max = json["summary"]["n_max"].as_f64().unwrap();
    assert!((n_max - 128.0 * b / t_crit).abs() < 1e-6, "{n_max}");
}

/// A long context costs its attention: `llama31-405b-h100` with CP 16 at 8,192 and 131,072
/// tokens a sequence, the same 16,777,216-token batch. `F_tok = 6·405.8e9 + 12·126·16,384·s`:
/// 2,637,737,204,736 at 8,192, 5,681,795,275,776 at 131,072 (attention 3,246,995,275,776 FLOPs
/// a token, more than the weights' 2,434,800,000,000). Compute at 16,384 GPUs (the rate
/// constant, F_eff = 513.5T): `F_tok·16,777,216/(16,384·513.5e12)` = 5,260.064 and
/// 11,330.396 ms, 2.154 times as much.
#[test]
fn a_long_context_costs_its_attention() {
    let compute = |sq: &str| {
        let q = format!("v=1&preset=llama31-405b-h100&cp=16&sq={sq}");
        let d = scaling_core::scenario::decode(&q);
        assert!(d.errors.is_empty(), "{q}: {:?}", d.errors);
        let json =
            scaling_core::panel::Panel::compute(&d.scenario, scaling_core::scenario::View::Strong)
                .json(&[]);
        let row = json["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["gpus"] == 16384.0)
            .unwrap()
            .clone();
        (
            row["compute_ms"].as_f64().unwrap(),
            json["summary"]["flops_per_token"].as_f64().unwrap(),
        )
    };
    let (short, short_flops) = compute("8192");
    let (long, long_flops) = compute("131072");
    assert_eq!(short_flops, 2_637_737_204_736.0);
    assert_eq!(long_flops, 5_681_795_275_776.0);
    let by_hand = |f: f64| f * 16_777_216.0 / (16384.0 * 513.5e12) * 1e3;
    assert!(
        (short - by_hand(2_637_737_204_736.0)).abs() < 1e-6,
        "{short}"
    );
    assert!((long - by_hand(5_681_795_275_776.0)).abs() < 1e-6, "{long}");
    assert!((long / short - 2.154).abs() < 0.001);
}
