//! The seed's and the walls presets' LLM rows through the scenario and the panel layer: MFU,
//! shrinking kernels, a fixed microbatch's bubble and a long context's attention, by hand.

/// Table values are exact arithmetic on the seed's inputs; allow float noise only.
const EXACT: f64 = 1e-9;

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
