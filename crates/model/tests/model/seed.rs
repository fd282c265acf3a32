//! The seed's two tables (MODEL.md §6), every cell, from the model directly.
use crate::tol;
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
