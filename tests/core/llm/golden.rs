//! Independent golden values for the mechanistic model.
//!
//! Every expected number below is a literal derived by hand from the formulas in
//! `docs/model/` (§1 laws, §2 layout, §3 step time and FSDP, §4 `T_crit`/`N_max`, §8 critical
//! batch, §9 planner), with python3 used only as a calculator on the written-out formula. None
//! is obtained by calling the crate. The derivation (inputs, formula, intermediate values) sits
//! next to each literal so that a reviewer can redo it by hand.
//!
//! `dense-8b-h100` and `moe-47b-h200` carry their models' shapes, which add TP, CP and
//! pipeline traffic (docs/model/12-walls.md §12.4). The goldens with TP, CP or PP above 1 were
//! derived for the FSDP model alone, so their queries drop the shape with `nl=0`.
//!
//! The code is read through the public API only: `decode(query).scenario`, then
//! `LlmSweep::compute(&scenario.llm_inputs())`, `PlanSweep::compute(&scenario.plan_inputs())`
//! and `Panel::compute(..).describe(..)`.
//!
//! The FSDP communication time per microbatch, `t_comm`, has no accessor of its own. It is
//! read as `LlmInputs::exposed_ms(N, B, 0.0)`: with zero compute, the bubble `β·0` is 0 and
//! `A·max(0, t_comm − 0) + t_fixed` is what remains, so `t_comm = (exposed − t_fixed)/A`,
//! where `t_fixed` is the scenario's literal `fix`.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use scaling_core::panel::{ChartId, Panel};
use scaling_core::scenario::{decode, Scenario, View};
use scaling_model::llm::{LlmInputs, LlmSweep};
use scaling_model::plan::{PlanPoint, PlanRow, PlanSweep};

/// Exact formulas evaluated in double precision: allow float noise only.
const REL: f64 = 1e-9;
/// The best-batch search is a grid plus golden-section refinement in `ln B`
/// (docs/model/09-planner.md §9.1); its bracket ends below 1e-6 in `ln B`, so the batch it finds
/// and the point there agree with the closed-form optimum to well within this.
const SEARCH: f64 = 1e-5;
/// An expected value of exactly 0 (hidden communication, no bubble) is checked absolutely, in
/// the quantity's own unit (ms).
const ZERO_ABS: f64 = 1e-9;

fn assert_close(actual: f64, expected: f64, rel: f64, what: &str) {
    let ok = if expected == 0.0 {
        actual.abs() <= ZERO_ABS
    } else {
        (actual - expected).abs() <= rel * expected.abs()
    };
    assert!(
        ok,
        "{what}: got {actual}, expected {expected} (relative tolerance {rel})"
    );
}

/// The scenario of a link; the link must be read without any message.
fn scenario(query: &str) -> Scenario {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{query}: {:?}", d.errors);
    d.scenario
}

/// The code's FSDP communication time per GPU per microbatch (see the module comment).
fn comm_ms(inputs: &LlmInputs, gpus: f64, fixed_ms: f64) -> f64 {
    let (exposed, _) = inputs.exposed_ms(gpus, inputs.global_batch_tokens, 0.0);
    (exposed - fixed_ms) / inputs.layout.accumulation as f64
}

/// One row of expected FSDP values.
struct Fsdp {
    gpus: f64,
    /// `T`, tokens per DP rank per microbatch.
    tokens: f64,
    compute_ms: f64,
    /// `t_comm` per GPU per microbatch, ring factor included.
    comm_ms: f64,
    exposed_ms: f64,
}

fn check_strong(query: &str, fixed_ms: f64, expected: &[Fsdp]) {
    let s = scenario(query);
    let inputs = s.llm_inputs();
    let sweep = LlmSweep::compute(&inputs);
    for e in expected {
        let what = |col: &str| format!("{query}: strong N = {}: {col}", e.gpus);
        let row = sweep
            .strong
            .iter()
            .find(|r| r.gpus == e.gpus)
            .unwrap_or_else(|| panic!("{}", what("no such row")));
        assert_close(row.tokens_per_replica, e.tokens, REL, &what("T"));
        assert_close(row.compute_ms, e.compute_ms, REL, &what("compute ms"));
        assert_close(
            comm_ms(&inputs, e.gpus, fixed_ms),
            e.comm_ms,
            REL,
            &what("communication ms"),
        );
        assert_close(row.exposed_ms, e.exposed_ms, REL, &what("exposed ms"));
        assert_close(
            row.step_ms,
            e.compute_ms + e.exposed_ms,
            REL,
            &what("step ms"),
        );
        assert!(!row.extrapolated, "{}", what("FSDP is never extrapolated"));
    }
}

fn check_weak(query: &str, fixed_ms: f64, batch: &[f64], expected: &[Fsdp]) {
    let s = scenario(query);
    let inputs = s.llm_inputs();
    let sweep = LlmSweep::compute(&inputs);
    for (e, &b) in expected.iter().zip(batch) {
        let what = |col: &str| format!("{query}: weak N = {}: {col}", e.gpus);
        let row = sweep
            .weak
            .iter()
            .find(|r| r.gpus == e.gpus)
            .unwrap_or_else(|| panic!("{}", what("no such row")));
        assert_close(row.tokens_per_replica, e.tokens, REL, &what("T"));
        assert_close(row.global_batch_tokens, b, REL, &what("global batch"));
        assert_close(row.compute_ms, e.compute_ms, REL, &what("compute ms"));
        assert_close(
            comm_ms(&inputs, e.gpus, fixed_ms),
            e.comm_ms,
            REL,
            &what("communication ms"),
        );
        assert_close(row.exposed_ms, e.exposed_ms, REL, &what("exposed ms"));
        assert_close(
            row.step_ms,
            e.compute_ms + e.exposed_ms,
            REL,
            &what("step ms"),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 1. FSDP / ZeRO-3 exposed time (docs/model/03-step-time.md §3.1 `cm=flops`, §3.2(c) `em=fsdp`)
//
//   t_compute    = F_tok·B/(N·F_eff)                      (cm=flops; F_tok = 6·P_a, plus
//                                                          12·L·h·s with a shape)
//                = t_c·(B/B₀)·(N₀/N)                      (cm=time)
//   t_comm       = c·s_w·P/(TP·PP) / B_eff · (D−1)/D      per GPU per microbatch, D = N/M
//   exposed      = A·max(0, t_comm − t_compute/A) + t_fixed + β·t_compute
//   β            = (p−1)/m (1f1b), (p−1)/(v·m) (interleaved), 0 (zero-bubble); m = A; 0 if p = 1
// ---------------------------------------------------------------------------------------------

/// dense-8b-h100: b = 4M, P = P_a = 8.03G, F_eff = 400T, B_eff = 50G, c = 3, s_w = 2,
/// fix = 20 ms, cm=flops, em=fsdp, M = A = 1 (so D = N, T = 4M/N); Llama 3.1 8B's shape, so
/// compute counts attention: F_tok = 6·8.03e9 + 12·32·4,096·8,192 = 61,064,901,888.
///
///   t_compute(N) = 61,064,901,888·4e6/(N·400e12) s = 610,649.01888/N ms
///   t_comm(N)    = 3·2·8.03e9/50e9 s · (N−1)/N = 963.6 ms · (N−1)/N
///
/// | N     | T        | compute        | comm                          | exposed = max(0, comm − compute) + 20 |
/// | 256   | 15,625   | 2385.34773     | 963.6·255/256  = 959.8359375  | 0 + 20 = 20                              |
/// | 512   | 7,812.5  | 1192.673865    | 963.6·511/512  = 961.71796875 | 0 + 20 = 20                              |
/// | 1,024 | 3,906.25 | 596.3369325    | 963.6·1023/1024 = 962.658984375 | 366.322051875 + 20 = 386.322051875    |
/// | 2,048 | 1,953.125| 298.16846625   | 963.6·2047/2048 = 963.1294921875 | 664.9610259375 + 20 = 684.9610259375 |
///
/// docs/model/06-presets.md's table prints the same (386.32, 684.96).
#[test]
fn fsdp_dense_8b_h100() {
    check_strong(
        "v=1&preset=dense-8b-h100",
        20.0,
        &[
            Fsdp {
                gpus: 256.0,
                tokens: 15_625.0,
                compute_ms: 2385.34773,
                comm_ms: 959.8359375,
                exposed_ms: 20.0,
            },
            Fsdp {
                gpus: 512.0,
                tokens: 7_812.5,
                compute_ms: 1192.673865,
                comm_ms: 961.71796875,
                exposed_ms: 20.0,
            },
            Fsdp {
                gpus: 1024.0,
                tokens: 3_906.25,
                compute_ms: 596.336_932_5,
                comm_ms: 962.658984375,
                exposed_ms: 386.322_051_875,
            },
            Fsdp {
                gpus: 2048.0,
                tokens: 1_953.125,
                compute_ms: 298.168_466_25,
                comm_ms: 963.1294921875,
                exposed_ms: 684.961_025_937_5,
            },
        ],
    );
}

/// A data-parallel group inside one NVLink domain talks at NVLink (docs/model/12-walls.md
/// §12.4): dense-8b-h100 on 8 GPUs, TP 1, so the 8 FSDP ranks fill one 8-GPU node and move
/// their `3·2·8.03e9` B at `bnv` = 400 GB/s: 120.45 ms · 7/8 = 105.39375 ms a microbatch. On
/// 16 GPUs the group spans two nodes: `B_eff` = 50 GB/s, 963.6 ms · 15/16 = 903.375 ms. In a
/// 72-GPU domain (`nvd=72`) 16 GPUs fit again: 120.45 · 15/16 = 112.921875 ms.
#[test]
fn fsdp_inside_the_nvlink_domain_talks_at_nvlink() {
    for (query, gpus, expected) in [
        ("v=1&preset=dense-8b-h100&ns=8,16&n0=8", 8.0, 105.393_75),
        ("v=1&preset=dense-8b-h100&ns=8,16&n0=8", 16.0, 903.375),
        (
            "v=1&preset=dense-8b-h100&ns=8,16&n0=8&nvd=72",
            16.0,
            112.921_875,
        ),
    ] {
        let inputs = scenario(query).llm_inputs();
        assert_close(
            comm_ms(&inputs, gpus, 20.0),
            expected,
            REL,
            &format!("{query} at {gpus}"),
        );
    }
}

/// moe-47b-h200: b = 8M, P = 46.7G (what FSDP moves), P_a = 12.9G (what compute costs),
/// F_eff = 400T, B_eff = 50G, c = 3, s_w = 2, fix = 40 ms, M = A = 1 (T = 8M/N); Mixtral's
/// shape at 4,096 tokens, so F_tok = 6·12.9e9 + 12·32·4,096·4,096 = 83,842,450,944.
///
///   t_compute(N) = 83,842,450,944·8e6/(N·400e12) s = 1,676,849.01888/N ms
///   t_comm(N)    = 3·2·46.7e9/50e9 s · (N−1)/N = 5,604 ms · (N−1)/N
///                  (with P_a instead of P it would be 1,548 ms·(N−1)/N, hidden everywhere here)
///
/// | N     | T       | compute     | comm                             | exposed                           |
/// | 256   | 31,250  | 6550.19148  | 5604·255/256   = 5582.109375     | 0 + 40 = 40                        |
/// | 512   | 15,625  | 3275.09574  | 5604·511/512   = 5593.0546875    | 2317.9589475 + 40 = 2357.9589475   |
/// | 1,024 | 7,812.5 | 1637.54787  | 5604·1023/1024 = 5598.52734375   | 3960.97947375 + 40 = 4000.97947375 |
#[test]
fn fsdp_moe_47b_h200_moves_all_parameters() {
    check_strong(
        "v=1&preset=moe-47b-h200",
        40.0,
        &[
            Fsdp {
                gpus: 256.0,
                tokens: 31_250.0,
                compute_ms: 6550.19148,
                comm_ms: 5582.109375,
                exposed_ms: 40.0,
            },
            Fsdp {
                gpus: 512.0,
                tokens: 15_625.0,
                compute_ms: 3275.09574,
                comm_ms: 5593.0546875,
                exposed_ms: 2_357.958_947_5,
            },
            Fsdp {
                gpus: 1024.0,
                tokens: 7_812.5,
                compute_ms: 1637.54787,
                comm_ms: 5598.52734375,
                exposed_ms: 4_000.979_473_75,
            },
        ],
    );
}

/// seed-strong with em=fsdp: b = 32M, cm=time with t_c = 900 ms at N₀ = 1,024,
/// P = P_a = 1.776G, B_eff = 100G, c = 3, s_w = 2, fix = 0, M = A = 1.
///
///   t_compute(N) = 900·(32M/32M)·(1024/N) ms
///   t_comm(N)    = 3·2·1.776e9/100e9 s · (N−1)/N = 106.56 ms · (N−1)/N
///
/// | N      | T         | compute | comm                                | exposed            |
/// | 1,024  | 31,250    | 900     | 106.56·1023/1024  = 106.4559375     | 0                  |
/// | 8,192  | 3,906.25  | 112.5   | 106.56·8191/8192  = 106.5469921875  | 0 (112.5 > 106.55) |
/// | 16,384 | 1,953.125 | 56.25   | 106.56·16383/16384 = 106.55349609375 | 50.30349609375    |
///
/// (docs/model/03-step-time.md §3.2(c) prints 50.3 at 16,384.)
#[test]
fn fsdp_seed_strong() {
    check_strong(
        "v=1&preset=seed-strong&em=fsdp",
        0.0,
        &[
            Fsdp {
                gpus: 1024.0,
                tokens: 31_250.0,
                compute_ms: 900.0,
                comm_ms: 106.4559375,
                exposed_ms: 0.0,
            },
            Fsdp {
                gpus: 8192.0,
                tokens: 3_906.25,
                compute_ms: 112.5,
                comm_ms: 106.5469921875,
                exposed_ms: 0.0,
            },
            Fsdp {
                gpus: 16384.0,
                tokens: 1_953.125,
                compute_ms: 56.25,
                comm_ms: 106.55349609375,
                exposed_ms: 50.30349609375,
            },
        ],
    );
}

/// seed-weak with em=fsdp (ns = 1024,4096), the weak sweep: T = T₀ = 32M·1/(1024·1) = 31,250
/// in every row, B = T·D·A = 32M → 128M, compute = 900·(B/32M)·(1024/N) = 900 ms in both rows.
///
///   t_comm(1,024) = 106.56·1023/1024 = 106.4559375 ms;  t_comm(4,096) = 106.56·4095/4096
///                 = 106.533984375 ms; both below 900 ms, so exposed = 0 + fix (0) = 0.
#[test]
fn fsdp_seed_weak() {
    check_weak(
        "v=1&preset=seed-weak&em=fsdp",
        0.0,
        &[32e6, 128e6],
        &[
            Fsdp {
                gpus: 1024.0,
                tokens: 31_250.0,
                compute_ms: 900.0,
                comm_ms: 106.4559375,
                exposed_ms: 0.0,
            },
            Fsdp {
                gpus: 4096.0,
                tokens: 31_250.0,
                compute_ms: 900.0,
                comm_ms: 106.533984375,
                exposed_ms: 0.0,
            },
        ],
    );
}

/// seed-weak, em=fsdp, with a pipeline: pp = 2, a = 4, beff = 10G (so that communication is
/// exposed), fix = 15 ms; the weak sweep under each schedule (vc = 2, the default).
///
///   M = 2, A = 4, D = N/2; T₀ = 32M·2/(1024·4) = 15,625; B = T₀·D·A = 32M (1,024), 128M (4,096)
///   compute = 900·(B/32M)·(1024/N) = 900 ms in both rows; per microbatch 900/4 = 225 ms
///   bytes   = 3·2·1.776e9/(TP·PP = 2) = 5.328e9 → 5.328e9/10e9 = 532.8 ms · (D−1)/D
///   t_comm(1,024) = 532.8·511/512   = 531.759375 ms
///   t_comm(4,096) = 532.8·2047/2048 = 532.53984375 ms
///   exposed_comm  = 4·(531.759375 − 225) = 1227.0375;  4·(532.53984375 − 225) = 1230.159375
///   bubble β·900: 1f1b (2−1)/4 → 225;  interleaved (2−1)/(2·4) → 112.5;  zero-bubble → 0
///
/// | sched       | exposed at 1,024                     | exposed at 4,096                        |
/// | 1f1b        | 1227.0375 + 15 + 225 = 1467.0375     | 1230.159375 + 15 + 225 = 1470.159375    |
/// | interleaved | 1227.0375 + 15 + 112.5 = 1354.5375   | 1230.159375 + 15 + 112.5 = 1357.659375  |
/// | zero-bubble | 1227.0375 + 15 = 1242.0375           | 1230.159375 + 15 = 1245.159375          |
#[test]
fn fsdp_seed_weak_pipelined_under_each_schedule() {
    for (sched, exposed) in [
        ("1f1b", [1467.0375, 1470.159375]),
        ("interleaved", [1354.5375, 1357.659375]),
        ("zero-bubble", [1242.0375, 1245.159375]),
    ] {
        check_weak(
            &format!("v=1&preset=seed-weak&em=fsdp&pp=2&a=4&beff=10G&fix=15&sched={sched}"),
            15.0,
            &[32e6, 128e6],
            &[
                Fsdp {
                    gpus: 1024.0,
                    tokens: 15_625.0,
                    compute_ms: 900.0,
                    comm_ms: 531.759375,
                    exposed_ms: exposed[0],
                },
                Fsdp {
                    gpus: 4096.0,
                    tokens: 15_625.0,
                    compute_ms: 900.0,
                    comm_ms: 532.53984375,
                    exposed_ms: exposed[1],
                },
            ],
        );
    }
}

/// dense-8b-h100 with pp = 4, a = 8 (docs/url.md: `pp`, `a`, `sched`, `vc`), strong sweep.
///
///   M = 4, A = 8, D = N/4, T = 4M·4/(N·8) = 2M/N: 1,953.125 (1,024), 976.5625 (2,048)
///   compute (layout-free): 470.5078125 (1,024), 235.25390625 (2,048); per microbatch /8:
///                          58.8134765625, 29.40673828125
///   bytes   = 3·2·8.03e9/(TP·PP = 4) = 12.045e9 → 12.045e9/50e9 = 240.9 ms · (D−1)/D
///   t_comm(1,024) = 240.9·255/256 = 239.958984375;  t_comm(2,048) = 240.9·511/512 = 240.4294921875
///   exposed_comm  = 8·(239.958984375 − 58.8134765625) = 1449.1640625
///                   8·(240.4294921875 − 29.40673828125) = 1688.18203125
///   bubble: 1f1b β = 3/8 → 176.4404296875, 88.22021484375
///           interleaved v = 2: β = 3/16 → 88.22021484375, 44.110107421875
///           interleaved v = 4: β = 3/32 → 44.110107421875 (1,024)
///           zero-bubble β = 0
///
/// | sched          | exposed at 1,024                                    | exposed at 2,048                                   |
/// | 1f1b           | 1449.1640625 + 20 + 176.4404296875 = 1645.6044921875 | 1688.18203125 + 20 + 88.22021484375 = 1796.40224609375 |
/// | interleaved v2 | 1449.1640625 + 20 + 88.22021484375 = 1557.38427734375 | 1688.18203125 + 20 + 44.110107421875 = 1752.292138671875 |
/// | zero-bubble    | 1449.1640625 + 20 = 1469.1640625                      | 1688.18203125 + 20 = 1708.18203125                    |
/// | interleaved v4 | 1449.1640625 + 20 + 44.110107421875 = 1513.274169921875 | —                                                |
#[test]
fn fsdp_dense_8b_pipelined_under_each_schedule() {
    for (query, exposed) in [
        ("sched=1f1b", [1645.6044921875, 1796.40224609375]),
        ("sched=interleaved", [1557.38427734375, 1752.292138671875]),
        ("sched=zero-bubble", [1469.1640625, 1708.18203125]),
        ("sched=zb", [1469.1640625, 1708.18203125]),
    ] {
        check_strong(
            &format!("v=1&preset=dense-8b-h100&nl=0&pp=4&a=8&{query}"),
            20.0,
            &[
                Fsdp {
                    gpus: 1024.0,
                    tokens: 1_953.125,
                    compute_ms: 470.5078125,
                    comm_ms: 239.958984375,
                    exposed_ms: exposed[0],
                },
                Fsdp {
                    gpus: 2048.0,
                    tokens: 976.5625,
                    compute_ms: 235.25390625,
                    comm_ms: 240.4294921875,
                    exposed_ms: exposed[1],
                },
            ],
        );
    }
    check_strong(
        "v=1&preset=dense-8b-h100&nl=0&pp=4&a=8&sched=interleaved&vc=4",
        20.0,
        &[Fsdp {
            gpus: 1024.0,
            tokens: 1_953.125,
            compute_ms: 470.5078125,
            comm_ms: 239.958984375,
            exposed_ms: 1513.274169921875,
        }],
    );
}

/// moe-47b-h200 with tp = 2, pp = 2, a = 4, strong sweep under each schedule.
///
///   M = 4, A = 4, D = N/4, T = 8M·4/(N·4) = 8M/N: 31,250 (256), 7,812.5 (1,024)
///   compute: 6046.875 (256), 1511.71875 (1,024); per microbatch /4: 1511.71875, 377.9296875
///   bytes   = 3·2·46.7e9/(TP·PP = 4) = 70.05e9 → 70.05e9/50e9 = 1,401 ms · (D−1)/D
///   t_comm(256)   = 1401·63/64   = 1379.109375   (< 1511.71875: hidden, exposed_comm = 0)
///   t_comm(1,024) = 1401·255/256 = 1395.52734375 → exposed_comm = 4·(1395.52734375 − 377.9296875)
///                 = 4070.390625
///   bubble: 1f1b β = 1/4 → 1511.71875, 377.9296875;  interleaved v = 2: β = 1/8 → 755.859375,
///           188.96484375;  zero-bubble 0
///
/// | sched       | exposed at 256                     | exposed at 1,024                               |
/// | 1f1b        | 0 + 40 + 1511.71875 = 1551.71875   | 4070.390625 + 40 + 377.9296875 = 4488.3203125  |
/// | interleaved | 0 + 40 + 755.859375 = 795.859375   | 4070.390625 + 40 + 188.96484375 = 4299.35546875 |
/// | zero-bubble | 40                                 | 4070.390625 + 40 = 4110.390625                 |
#[test]
fn fsdp_moe_pipelined_under_each_schedule() {
    for (sched, exposed) in [
        ("1f1b", [1551.71875, 4488.3203125]),
        ("interleaved", [795.859375, 4299.35546875]),
        ("zero-bubble", [40.0, 4110.390625]),
    ] {
        check_strong(
            &format!("v=1&preset=moe-47b-h200&nl=0&tp=2&pp=2&a=4&sched={sched}"),
            40.0,
            &[
                Fsdp {
                    gpus: 256.0,
                    tokens: 31_250.0,
                    compute_ms: 6046.875,
                    comm_ms: 1379.109375,
                    exposed_ms: exposed[0],
                },
                Fsdp {
                    gpus: 1024.0,
                    tokens: 7_812.5,
                    compute_ms: 1511.71875,
                    comm_ms: 1395.52734375,
                    exposed_ms: exposed[1],
                },
            ],
        );
    }
}

/// Context parallelism splits tokens, not weights (docs/model/03-step-time.md §3.2(c),
/// assumption 5): dense-8b-h100 with tp = 2, cp = 2, a = 2.
///
///   M = 4, A = 2, D = N/4, T = 4M·4/(N·2) = 8M/N: 15,625 (512), 7,812.5 (1,024)
///   bytes  = 3·2·8.03e9/(TP·PP = 2) = 24.09e9 → 24.09e9/50e9 = 481.8 ms · (D−1)/D
///   t_comm(512)   = 481.8·127/128 = 478.0359375;  per-microbatch compute 941.015625/2 = 470.5078125
///                 → exposed_comm = 2·(478.0359375 − 470.5078125) = 15.05625 → exposed 35.05625
///   t_comm(1,024) = 481.8·255/256 = 479.91796875;  per-microbatch compute 470.5078125/2 = 235.25390625
///                 → exposed_comm = 2·(479.91796875 − 235.25390625) = 489.328125 → exposed 509.328125
#[test]
fn fsdp_context_parallel_does_not_split_the_bytes() {
    check_strong(
        "v=1&preset=dense-8b-h100&nl=0&tp=2&cp=2&a=2",
        20.0,
        &[
            Fsdp {
                gpus: 512.0,
                tokens: 15_625.0,
                compute_ms: 941.015625,
                comm_ms: 478.0359375,
                exposed_ms: 35.05625,
            },
            Fsdp {
                gpus: 1024.0,
                tokens: 7_812.5,
                compute_ms: 470.5078125,
                comm_ms: 479.91796875,
                exposed_ms: 509.328125,
            },
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// 2. Layouts with TP·PP·CP > 1 and A > 1 (docs/model/ §2, §4, §9.4)
//
//   T       = B·M/(N·A)
//   T_crit  = (c·s_w/6)·(F_eff/B_eff)·(P/P_a)·CP
//   N_max   = M·B/(A·T_crit)
//   switch  = cap·M/(T₀·A) with T₀ = b·M/(N₀·A)   (= N₀·cap/b)
// ---------------------------------------------------------------------------------------------

struct LayoutGolden {
    query: &'static str,
    /// `(N, T)` pairs of the strong sweep.
    tokens: &'static [(f64, f64)],
    /// `T₀`, the weak sweep's tokens per DP rank per microbatch.
    weak_tokens: f64,
    t_crit: f64,
    n_max: f64,
    switch_gpus: f64,
}

fn check_layout(g: &LayoutGolden) {
    let s = scenario(g.query);
    let sweep = LlmSweep::compute(&s.llm_inputs());
    let q = g.query;
    for &(n, t) in g.tokens {
        let row = sweep.strong.iter().find(|r| r.gpus == n).unwrap();
        assert_close(row.tokens_per_replica, t, REL, &format!("{q}: T at {n}"));
    }
    for row in &sweep.weak {
        assert_close(
            row.tokens_per_replica,
            g.weak_tokens,
            REL,
            &format!("{q}: weak T at {}", row.gpus),
        );
    }
    assert_close(
        sweep.summary.t_crit_tokens,
        g.t_crit,
        REL,
        &format!("{q}: T_crit"),
    );
    assert_close(sweep.summary.n_max, g.n_max, REL, &format!("{q}: N_max"));
    let plan = PlanSweep::compute(&s.plan_inputs());
    assert_close(
        plan.switch_gpus,
        g.switch_gpus,
        REL,
        &format!("{q}: switch N"),
    );
}

/// seed-strong with tp = 4, pp = 2, cp = 2, a = 2, bcap = 128M: M = 16, A = 2, b = 32M,
/// N₀ = 1,024, F_eff = 370T, B_eff = 100G, P = P_a, c = 3, s_w = 2.
///
///   T(N)   = 32M·16/(N·2) = 256M/N: 250,000 (1,024), 62,500 (4,096), 15,625 (16,384)
///   T₀     = 250,000 (the weak sweep's T in every row)
///   T_crit = (3·2/6)·(370e12/100e9)·1·2 = 3,700·2 = 7,400
///   N_max  = 16·32M/(2·7,400) = 256M/7,400 = 34,594.594594…
///   switch = 128M·16/(250,000·2) = 4,096  (= 1,024·128M/32M)
#[test]
fn layout_seed_tp4_pp2_cp2_a2() {
    check_layout(&LayoutGolden {
        query: "v=1&preset=seed-strong&tp=4&pp=2&cp=2&a=2&bcap=128M",
        tokens: &[(1024.0, 250_000.0), (4096.0, 62_500.0), (16384.0, 15_625.0)],
        weak_tokens: 250_000.0,
        t_crit: 7_400.0,
        n_max: 34_594.594_594_594_59,
        switch_gpus: 4096.0,
    });
}

/// dense-8b-h100 with tp = 8, a = 4: M = 8, A = 4, b = 4M, N₀ = 64, F_eff = 400T, B_eff = 50G,
/// P = P_a, CP = 1; the cap is B_crit = 32M (bcap empty); F_tok = 61,064,901,888 (above).
///
///   T(N)   = 4M·8/(N·4) = 8M/N: 125,000 (64), 7,812.5 (1,024), 3,906.25 (2,048)
///   T₀     = 125,000
///   T_crit = c·s_w·P·F_eff/(F_tok·B_eff) = 6·8.03e9·8,000/61,064,901,888 = 6,311.9728…
///   N_max  = 8·4M/(4·6,311.9728…) = 1,267.4326…
///   switch = 32M·8/(125,000·4) = 512  (= 64·32M/4M)
#[test]
fn layout_dense_tp8_a4() {
    check_layout(&LayoutGolden {
        query: "v=1&preset=dense-8b-h100&tp=8&a=4",
        tokens: &[(64.0, 125_000.0), (1024.0, 7_812.5), (2048.0, 3_906.25)],
        weak_tokens: 125_000.0,
        t_crit: 6_311.972_804_065_762,
        n_max: 1_267.432_583_810_709_7,
        switch_gpus: 512.0,
    });
}

/// moe-47b-h200 with tp = 2, pp = 2, cp = 2, a = 2: M = 8, A = 2, b = 8M, N₀ = 32,
/// P = 46.7G, P_a = 12.9G, F_eff = 400T, B_eff = 50G; cap = B_crit = 32M.
///
///   T(N)   = 8M·8/(N·2) = 32M/N: 1,000,000 (32), 125,000 (256), 31,250 (1,024)
///   T₀     = 1,000,000
///   T_crit = c·s_w·P·F_eff·CP/(F_tok·B_eff) = 6·46.7e9·8,000·2/83,842,450,944 = 53,471.719…
///   N_max  = 8·8M/(2·53,471.719…) = 598.447187…
///   switch = 32M·8/(1,000,000·2) = 128  (= 32·32M/8M)
#[test]
fn layout_moe_tp2_pp2_cp2_a2() {
    check_layout(&LayoutGolden {
        query: "v=1&preset=moe-47b-h200&tp=2&pp=2&cp=2&a=2",
        tokens: &[(32.0, 1_000_000.0), (256.0, 125_000.0), (1024.0, 31_250.0)],
        weak_tokens: 1_000_000.0,
        t_crit: 53_471.719_272_548_65,
        n_max: 598.447_187_323_340_5,
        switch_gpus: 128.0,
    });
}

// ---------------------------------------------------------------------------------------------
// 3. The exposed-time table, between its points (docs/model/03-step-time.md §3.2(a))
//
//   exposed(N) = y₀ + (y₁ − y₀)·(ln N − ln N₀)/(ln N₁ − ln N₀)  on the neighbouring segment
//   (end segments extended below the first and above the last point, floored at 0)
//   The seed's table: 1,024:100, 4,096:150, 8,192:220, 16,384:300.
// ---------------------------------------------------------------------------------------------

/// | N      | segment          | (ln N − ln N₀)/(ln N₁ − ln N₀)                    | exposed                         |
/// | 512    | 1,024–4,096 (ext)| −ln 2/ln 4 = −0.5                                  | 100 − 25 = 75 (extrapolated)    |
/// | 1,024  | point            | 0                                                  | 100                             |
/// | 2,048  | 1,024–4,096      | ln 2/ln 4 = 0.5                                    | 100 + 50·0.5 = 125 (the article)|
/// | 3,000  | 1,024–4,096      | ln(3000/1024)/ln 4 = 1.07489576/1.38629436         | 138.76866963458107              |
/// | 4,096  | point            | —                                                  | 150                             |
/// | 6,000  | 4,096–8,192      | ln(6000/4096)/ln 2 = 0.38174858/0.69314718         | 150 + 70·0.55074679 = 188.55227497682702 |
/// | 12,000 | 8,192–16,384     | ln(12000/8192)/ln 2 = 0.38174858/0.69314718        | 220 + 80·0.55074679 = 264.05974283065945 |
/// | 32,768 | 8,192–16,384 (ext)| ln 4/ln 2 = 2                                     | 220 + 80·2 = 380 (extrapolated) |
///
/// Interpolating on the next segment (4,096–8,192, extended backwards) would give, at 2,048,
/// 150 + 70·(−1) = 80; interpolating linearly in N would give 116.67.
#[test]
fn exposed_table_between_points() {
    let expected: [(f64, f64, bool); 8] = [
        (512.0, 75.0, true),
        (1024.0, 100.0, false),
        (2048.0, 125.0, false),
        (3000.0, 138.768_669_634_581_07, false),
        (4096.0, 150.0, false),
        (6000.0, 188.552_274_976_827_02, false),
        (12000.0, 264.059_742_830_659_45, false),
        (32768.0, 380.0, true),
    ];
    // The same table typed as `ex` (em=table, the default) and fitted from the seed's step
    // times (em=step: 1000−900, 375−225, 332.5−112.5, 356.25−56.25 = 100, 150, 220, 300).
    for mode in ["", "&em=step"] {
        let query = format!("v=1&view=strong&ns=512,1024,2048,3000,4096,6000,12000,32768{mode}");
        let sweep = LlmSweep::compute(&scenario(&query).llm_inputs());
        for (n, ms, extrapolated) in expected {
            let row = sweep.strong.iter().find(|r| r.gpus == n).unwrap();
            assert_close(row.exposed_ms, ms, REL, &format!("{query}: exposed at {n}"));
            assert_eq!(row.extrapolated, extrapolated, "{query}: marked at {n}");
        }
    }
    // The article's own example, 2,048 GPUs, on the weak sweep too (the exposed table depends
    // on N only, §3.2(a)): weak compute stays 900 ms, so step = 900 + 125 = 1,025 ms.
    let sweep = LlmSweep::compute(&scenario("v=1&view=weak&ns=1024,2048").llm_inputs());
    assert_close(
        sweep.weak[1].exposed_ms,
        125.0,
        REL,
        "weak exposed at 2,048",
    );
    assert_close(sweep.weak[1].step_ms, 1025.0, REL, "weak step at 2,048");
    // A lever scales the interpolated value by T_crit after/before (§10.2): lv=noreshard sets
    // c = 3 → 2, so T_crit × 2/3 and 125·2/3 = 83.333… ms at 2,048.
    let sweep =
        LlmSweep::compute(&scenario("v=1&view=strong&ns=1024,2048&lv=noreshard").llm_inputs());
    assert_close(
        sweep.strong[1].exposed_ms,
        83.333_333_333_333_33,
        REL,
        "lv=noreshard exposed at 2,048",
    );
}

// ---------------------------------------------------------------------------------------------
// 4. The planner (docs/model/ §8–§9)
//
//   E_min = tb/(1 + b/B_crit),  S_min = E_min/B_crit,  S(B) = S_min·(1 + B_crit/B)
//   hours = S(B)·t_step(N, B)/3.6e6,  GPU-hours = N·hours,  token efficiency = 1/(1 + B/B_crit)
//   weak B = b·N/N₀;  strong B = b;  weak→strong B = min(b·N/N₀, cap);  best = argmin_B hours
// ---------------------------------------------------------------------------------------------

/// Expected planner point: batch, steps, step ms, hours, GPU-hours, token efficiency.
#[derive(Clone, Copy)]
struct Point(f64, f64, f64, f64, f64, f64);

fn check_point(actual: Option<PlanPoint>, e: Point, rel: f64, what: &str) {
    let p = actual.unwrap_or_else(|| panic!("{what}: no point"));
    assert_close(p.batch_tokens, e.0, rel, &format!("{what}: batch"));
    assert_close(p.steps, e.1, rel, &format!("{what}: steps"));
    assert_close(p.step_ms, e.2, rel, &format!("{what}: step ms"));
    assert_close(
        p.hours_to_quality,
        e.3,
        rel,
        &format!("{what}: hours to quality"),
    );
    assert_close(p.gpu_hours, e.4, rel, &format!("{what}: GPU-hours"));
    assert_close(
        p.token_efficiency,
        e.5,
        rel,
        &format!("{what}: token efficiency"),
    );
}

fn row(plan: &PlanSweep, gpus: f64) -> &PlanRow {
    plan.rows.iter().find(|r| r.gpus == gpus).unwrap()
}

/// seed-weak on the Plan panel: b = 32M, B_crit = 32M, cap = B_crit = 32M, tb = 1T,
/// cm=time (t_c = 900 ms at N₀ = 1,024), em=table (100 at 1,024, 150 at 4,096).
///
///   E_min = 1e12/(1 + 1) = 5e11, S_min = 5e11/32e6 = 15,625
///   t_step(N, B) = 900·(B/32M)·(1024/N) + exposed(N)
///
/// N = 1,024 (weak = strong = weak→strong: B = 32M):
///   S = 15,625·2 = 31,250; step = 900 + 100 = 1,000; hours = 31,250·1,000/3.6e6 = 8.680555…;
///   GPU-hours = 8,888.88…; token efficiency = 1/2
/// N = 4,096:
///   weak   B = 128M: S = 15,625·1.25 = 19,531.25; step = 900·4·¼ + 150 = 1,050;
///          hours = 19,531.25·1,050/3.6e6 = 5.696614583…; GPU-hours 23,333.33…; eff 1/5
///   strong B = 32M: S = 31,250; step = 225 + 150 = 375; hours = 3.2552083…; GPU-h 13,333.33…
///   weak→strong: min(128M, 32M) = 32M — the cap binds — so the strong point
/// Best batch (closed form, §9.1): t_step = k·B + e, k = 900·1024/(32M·N) ms/token,
///   B* = √(B_crit·e/k):
///   1,024: k = 900/32M, e = 100 → B* = 32M·√(100/900) = 10,666,666.67; S = 15,625·4 = 62,500;
///          step = 300 + 100 = 400; hours = 62,500·400/3.6e6 = 6.944…; GPU-h 7,111.11…; eff 3/4
///   4,096: k = 225/32M, e = 150 → B* = 32M·√(150/225) = 26,127,890.589687232;
///          S = 15,625·(1 + √1.5) = 34,761.63861549358; step = 225·√(2/3) + 150
///          = 333.71173070873834; hours = 3.2223240512911318; GPU-h 13,198.639314088476;
///          eff = 1/(1 + √(2/3)) = 0.5505102572168219
/// Headline at 4,096: 1,000/1,050 = 0.952380952…; speedup to quality 8.6805…/5.6966… =
///   2,000/1,312.5 = 1.523809523…; true efficiency /4 = 0.380952380…
/// Switch: 32M·1/(31,250·1) = 1,024.
#[test]
fn planner_seed_weak_every_column() {
    let s = scenario("v=1&preset=seed-weak&view=plan");
    let plan = PlanSweep::compute(&s.plan_inputs());
    let base = Point(
        32e6,
        31_250.0,
        1000.0,
        8.680_555_555_555_555,
        8_888.888_888_888_889,
        0.5,
    );
    let r = row(&plan, 1024.0);
    check_point(r.weak, base, REL, "1,024 weak");
    check_point(r.strong, base, REL, "1,024 strong");
    check_point(r.weak_then_strong, base, REL, "1,024 weak→strong");
    check_point(
        r.best,
        Point(
            10_666_666.666_666_666,
            62_500.0,
            400.0,
            6.944_444_444_444_445,
            7_111.111_111_111_111,
            0.75,
        ),
        SEARCH,
        "1,024 best",
    );
    assert_close(r.vanity_weak_efficiency, 1.0, REL, "1,024 headline");
    assert_close(r.weak_ttq_speedup, 1.0, REL, "1,024 speedup");
    assert_close(r.weak_true_efficiency, 1.0, REL, "1,024 true efficiency");

    let r = row(&plan, 4096.0);
    let strong = Point(
        32e6,
        31_250.0,
        375.0,
        3.255_208_333_333_333_5,
        13_333.333_333_333_334,
        0.5,
    );
    check_point(
        r.weak,
        Point(
            128e6,
            19_531.25,
            1050.0,
            5.696_614_583_333_333,
            23_333.333_333_333_332,
            0.2,
        ),
        REL,
        "4,096 weak",
    );
    check_point(r.strong, strong, REL, "4,096 strong");
    check_point(
        r.weak_then_strong,
        strong,
        REL,
        "4,096 weak→strong (cap binds)",
    );
    check_point(
        r.best,
        Point(
            26_127_890.589_687_232,
            34_761.638_615_493_58,
            333.711_730_708_738_34,
            3.222_324_051_291_131_8,
            13_198.639_314_088_476,
            0.550_510_257_216_821_9,
        ),
        SEARCH,
        "4,096 best",
    );
    assert_close(
        r.vanity_weak_efficiency,
        0.952_380_952_380_952_3,
        REL,
        "4,096 headline",
    );
    assert_close(
        r.weak_ttq_speedup,
        1.523_809_523_809_524,
        REL,
        "4,096 speedup",
    );
    assert_close(
        r.weak_true_efficiency,
        0.380_952_380_952_381,
        REL,
        "4,096 true efficiency",
    );
    assert_close(plan.switch_gpus, 1024.0, REL, "switch");
    assert_close(plan.min_steps, 15_625.0, REL, "S_min");
}

/// seed-weak with bcap = 64M and ns = 1024,2048,4096: the weak→strong column below, at and
/// above the cap.
///
///   1,024: B = min(32M, 64M) = 32M → the baseline point (step 1,000, 8.680555… h)
///   2,048: B = min(64M, 64M) = 64M: S = 15,625·1.5 = 23,437.5; exposed(2,048) = 125 (between
///          table points); step = 900·2·½ + 125 = 1,025; hours = 23,437.5·1,025/3.6e6
///          = 6.673177083333333; GPU-h = 13,666.66…; eff = 1/3
///   4,096: B = min(128M, 64M) = 64M (cap binds): S = 23,437.5; step = 900·2·¼ + 150 = 600;
///          hours = 23,437.5·600/3.6e6 = 3.90625; GPU-h = 16,000; eff = 1/3
///   strong at 2,048: S = 31,250, step = 450 + 125 = 575, hours = 4.991319444444445,
///          GPU-h = 10,222.22…
///   switch = 64M·1/(31,250·1) = 2,048
#[test]
fn planner_cap_above_the_baseline_batch() {
    let s = scenario("v=1&preset=seed-weak&view=plan&bcap=64M&ns=1024,2048,4096");
    let plan = PlanSweep::compute(&s.plan_inputs());
    check_point(
        row(&plan, 1024.0).weak_then_strong,
        Point(
            32e6,
            31_250.0,
            1000.0,
            8.680_555_555_555_555,
            8_888.888_888_888_889,
            0.5,
        ),
        REL,
        "1,024 weak→strong",
    );
    let at_cap = Point(
        64e6,
        23_437.5,
        1025.0,
        6.673_177_083_333_333,
        13_666.666_666_666_666,
        1.0 / 3.0,
    );
    check_point(
        row(&plan, 2048.0).weak_then_strong,
        at_cap,
        REL,
        "2,048 weak→strong",
    );
    check_point(row(&plan, 2048.0).weak, at_cap, REL, "2,048 weak");
    check_point(
        row(&plan, 2048.0).strong,
        Point(
            32e6,
            31_250.0,
            575.0,
            4.991_319_444_444_445,
            10_222.222_222_222_223,
            0.5,
        ),
        REL,
        "2,048 strong",
    );
    check_point(
        row(&plan, 4096.0).weak_then_strong,
        Point(64e6, 23_437.5, 600.0, 3.90625, 16_000.0, 1.0 / 3.0),
        REL,
        "4,096 weak→strong (cap binds)",
    );
    assert_close(plan.switch_gpus, 2048.0, REL, "switch");
}

/// dense-8b-h100 with tp = 8, a = 4 on the Plan panel (em=fsdp, M = 8, A = 4, b = 4M, N₀ = 64,
/// tb = 15T, B_crit = cap = 32M, fix = 20).
///
///   E_min = 15e12/(1 + 4/32) = 1.3333…e13, S_min = E_min/32M = 416,666.66…
///   compute(N, B) = 6·8.03e9·B/(N·400e12) s;  bytes = 3·2·8.03e9/8 = 6.0225e9 → 120.45 ms·(D−1)/D
///   step(N, B)    = compute + 4·max(0, t_comm − compute/4) + 20 = max(compute, 4·t_comm) + 20
///
/// N = 1,024 (D = 128, t_comm = 120.45·127/128 = 119.508984375, 4·t_comm = 478.0359375):
///   weak   B = 4M·1024/64 = 64M: S = S_min·1.5 = 625,000; compute 7,528.125 → step 7,548.125;
///          hours = 625,000·7,548.125/3.6e6 = 1,310.4383680555557; GPU-h 1,341,888.88…; eff 1/3
///   strong B = 4M: S = S_min·9 = 3,750,000; compute 470.5078125 (per microbatch 117.626953125)
///          → exposed 4·(119.508984375 − 117.626953125) + 20 = 27.528125, step 498.0359375;
///          hours 518.7874348958334; GPU-h 531,238.33…; eff 8/9
///   weak→strong B = min(64M, 32M) = 32M (cap binds): S = S_min·2 = 833,333.33…; compute
///          3,764.0625 → step 3,784.0625; hours 875.9403935185186; GPU-h 896,962.96…; eff 1/2
///   best: hours ∝ (1 + B_crit/B)·(max(k·B, 4·t_comm) + 20), k = 6·8.03e9/(1024·400e12)·1e3
///          = 1.17626953125e-4 ms/token. Below B₁ = 4·t_comm/k = 4,064,000 (T = 7,937.5
///          = T_crit·127/128) the step is constant and S falls, so hours fall; above B₁ the
///          unconstrained optimum √(B_crit·20/k) = 2,332,580 lies below B₁, so hours rise.
///          Best B = 4,064,000: S = S_min·(1 + 32/4.064) = 3,697,506.5616797903; step
///          = 478.0359375 + 20 = 498.0359375; hours 511.5253185718322; GPU-h 523,801.9262175562;
///          eff = 1/(1 + 4.064/32) = 0.8873114463176575
/// N = 64 (D = 8): best B = √(B_crit·20/k), k = 6·8.03e9/(64·400e12)·1e3 = 0.00188203125,
///          = 583,145.0209001027 (above B₁ = 8,000·7/8·8·4 = 224,000); T = 18,223.28 > T_crit,
///          so step = k·B + 20 = 1,117.4971526158963; S = 23,281,190.67949784;
///          hours 7,226.851192735161; GPU-h 462,518.4763350503; eff 0.9821028626755934
#[test]
fn planner_fsdp_layout_every_column() {
    let s = scenario("v=1&preset=dense-8b-h100&nl=0&tp=8&a=4&view=plan");
    let plan = PlanSweep::compute(&s.plan_inputs());
    let r = row(&plan, 1024.0);
    check_point(
        r.weak,
        Point(
            64e6,
            625_000.0,
            7548.125,
            1_310.438_368_055_555_7,
            1_341_888.888_888_889,
            1.0 / 3.0,
        ),
        REL,
        "1,024 weak",
    );
    check_point(
        r.strong,
        Point(
            4e6,
            3_750_000.0,
            498.035_937_5,
            518.787_434_895_833_4,
            531_238.333_333_333_4,
            8.0 / 9.0,
        ),
        REL,
        "1,024 strong",
    );
    check_point(
        r.weak_then_strong,
        Point(
            32e6,
            833_333.333_333_333_4,
            3784.0625,
            875.940_393_518_518_6,
            896_962.962_962_963,
            0.5,
        ),
        REL,
        "1,024 weak→strong (cap binds)",
    );
    check_point(
        r.best,
        Point(
            4_064_000.0,
            3_697_506.561_679_790_3,
            498.035_937_5,
            511.525_318_571_832_2,
            523_801.926_217_556_2,
            0.887_311_446_317_657_5,
        ),
        SEARCH,
        "1,024 best",
    );
    check_point(
        row(&plan, 64.0).best,
        Point(
            583_145.020_900_102_7,
            23_281_190.679_497_84,
            1_117.497_152_615_896_3,
            7_226.851_192_735_161,
            462_518.476_335_050_3,
            0.982_102_862_675_593_4,
        ),
        SEARCH,
        "64 best",
    );
}

// ---------------------------------------------------------------------------------------------
// 5. The Laws charts' curves (docs/model/01-laws.md)
//
//   Amdahl    S(N) = 1/(f + (1−f)/N)
//   Gustafson S(N) = f + (1−f)·N = N − f·(N−1)
//   E(N) = S(N)/N
// ---------------------------------------------------------------------------------------------

fn series<'a>(chart: &'a scaling_core::chart::line::LineChart, label: &str) -> &'a [(f64, f64)] {
    let found: Vec<_> = chart.series.iter().filter(|s| s.label == label).collect();
    assert_eq!(
        found.len(),
        1,
        "one series labelled {label:?}; labels: {:?}",
        chart.series.iter().map(|s| &s.label).collect::<Vec<_>>()
    );
    &found[0].points
}

/// f = 0.05, n = 64: the curves end exactly at N = 64.
///   Amdahl    1/(0.05 + 0.95/64) = 1/0.06484375 = 1280/83 = 15.421686746987952
///   Gustafson 64 − 0.05·63 = 60.85
///   efficiencies /64: 20/83 = 0.24096385542168675 and 0.95078125
/// At N = 1 both laws give 1.
#[test]
fn laws_chart_curves_at_64() {
    let s = scenario("v=1&f=0.05&n=64");
    let panel = Panel::compute(&s, View::Laws);
    for (chart, amdahl, gustafson) in [
        (ChartId::LawsSpeedup, 15.421_686_746_987_952, 60.85),
        (
            ChartId::LawsEfficiency,
            0.240_963_855_421_686_75,
            0.950_781_25,
        ),
    ] {
        let c = panel.describe(chart).expect("a Laws chart");
        let a = series(&c, "Amdahl f=5%");
        let g = series(&c, "Gustafson f=5%");
        for (name, pts, at_64) in [("Amdahl", a, amdahl), ("Gustafson", g, gustafson)] {
            let first = pts.first().unwrap();
            let last = pts.last().unwrap();
            assert_eq!(first.0, 1.0, "{chart:?} {name}: first N");
            assert_close(first.1, 1.0, REL, &format!("{chart:?} {name} at N = 1"));
            assert_eq!(last.0, 64.0, "{chart:?} {name}: last N");
            assert_close(last.1, at_64, REL, &format!("{chart:?} {name} at N = 64"));
        }
    }
}

/// f = 0.05 with the default axis (n = 4,096): every point of the two curves, at whatever N the
/// chart samples, follows its own law (formulas written out here, not the crate's), and the
/// right end N = 4,096 has Amdahl 1/(0.05 + 0.95/4096) = 19.907654921…, Gustafson
/// 4096 − 0.05·4095 = 3,891.25. The two laws agree only at N = 1.
#[test]
fn laws_chart_curves_follow_their_laws() {
    let f = 0.05;
    let amdahl = |n: f64| 1.0 / (f + (1.0 - f) / n);
    let gustafson = |n: f64| n - f * (n - 1.0);
    let s = scenario("v=1&f=0.05");
    let panel = Panel::compute(&s, View::Laws);
    let speed = panel.describe(ChartId::LawsSpeedup).unwrap();
    let eff = panel.describe(ChartId::LawsEfficiency).unwrap();
    for (chart, per_n) in [(&speed, false), (&eff, true)] {
        let scale = |n: f64, v: f64| if per_n { v / n } else { v };
        let a = series(chart, "Amdahl f=5%");
        let g = series(chart, "Gustafson f=5%");
        assert!(a.len() > 10 && g.len() > 10);
        for &(n, v) in a {
            assert_close(v, scale(n, amdahl(n)), REL, &format!("Amdahl at N = {n}"));
        }
        for &(n, v) in g {
            assert_close(
                v,
                scale(n, gustafson(n)),
                REL,
                &format!("Gustafson at N = {n}"),
            );
        }
        let (n, v) = *a.last().unwrap();
        assert_eq!(n, 4096.0);
        // 1/(0.05 + 0.95/4096) = 4096/(204.8 + 0.95) = 4096/205.75 = 19.907654921020654
        assert_close(v, scale(n, 19.907_654_921_020_654), REL, "Amdahl at 4,096");
        let (n, v) = *g.last().unwrap();
        assert_close(v, scale(n, 3_891.25), REL, "Gustafson at 4,096");
    }
}
