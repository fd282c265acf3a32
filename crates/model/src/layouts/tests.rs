use super::search::total_order_key;
use super::*;
use crate::memory::{ActivationSettings, MemorySettings};
use crate::walls::NVLINK_DOMAIN_GPUS;

fn gpt3(flash_attention: bool) -> Walls {
    Walls {
        shape: crate::shape::GPT3,
        memory: MemorySettings {
            zero: 1,
            optimizer_bytes_per_param: 12.0,
            gradient_bytes_per_param: 2.0,
            master_in_weights: false,
            activations: ActivationSettings {
                recompute: Recompute::None,
                sequence_parallel: true,
                flash_attention,
                recompute_layers: 0,
                offload_layers: 0,
            },
            hbm_bytes: 80e9,
            reserve_bytes: 0.0,
            shard_group_gpus: None,
        },
        expert_parallel: 1.0,
        expert_tensor_parallel: 0.0,
        kernels: None,
        nvlink_bytes_per_s: 400e9,
        tp_overlap: 0.0,
        latency_s: 0.0,
        nvlink_domain_gpus: NVLINK_DOMAIN_GPUS,
        hbm_bytes_per_s: 0.0,
        host_bytes_per_s: 0.0,
        gemm_flops_per_s: 0.0,
        quantized_bytes_per_element: 0.0,
        cp_overlap: crate::walls::CpOverlap::Ring,
        dropout: false,
    }
}

/// GPT-3 175B on H100s at 50 GB/s with the mechanistic exposed time and shrinking
/// kernels: TP 8 · PP 8, `A` = 16 at 1,024 GPUs, 1,536 sequences of 2,048 tokens.
fn gpt3_inputs(flash_attention: bool) -> LlmInputs {
    use crate::inputs::ComputeSource;
    use crate::step::FsdpComm;
    let mut walls = gpt3(flash_attention);
    walls.kernels = Some(HalfLengths::H100_BF16);
    LlmInputs {
        global_batch_tokens: 1536.0 * 2048.0,
        layout: Layout {
            tp: 8,
            pp: 8,
            cp: 1,
            accumulation: 16,
        },
        microbatch_tokens: None,
        search: None,
        total_params: 175e9,
        held_params: None,
        active_params: 175e9,
        flops_per_gpu: 400e12,
        peak_flops_per_gpu: 989e12,
        comm: FsdpComm {
            gathers: 3.0,
            wire_bytes_per_param: 2.0,
            gather_bytes_per_param: 2.0,
            bus_bytes_per_s: 50e9,
            fixed_ms: 20.0,
            schedule: PipelineSchedule::Interleaved,
            chunks: 4,
        },
        compute: ComputeSource::Flops,
        exposed: ExposedSource::Fsdp,
        baseline_gpus: 1024.0,
        gpus: vec![1024.0],
        token_budget: 1e12,
        exposed_scale: 1.0,
        fit: None,
        walls: Some(walls),
    }
}

/// With a shape, compute, `T_crit` and MFU count attention's FLOPs (PaLM's convention), by
/// hand for GPT-3 175B at 2,048 tokens: `F_tok = 6·175e9 + 12·96·12,288·2,048 =
/// 1,050e9 + 28,991,029,248 = 1,078,991,029,248`; compute at 1,024 GPUs, 400 TFLOP/s and
/// 1,536 sequences: `F_tok·3,145,728/(1,024·400e12)` = 8,286.65110462464 ms (8,064 ms as
/// `6·P_a`); at 32,768 tokens a sequence `F_tok = 1,513,856,467,968`, 1.40303× the compute
/// for the same tokens; `T_crit = 6·175e9·400e12/(F_tok·50e9)` = 7,785.0508 tokens; an MFU
/// at a step of the compute alone is `F_eff/peak` = 400/989. Without a shape, `6·P_a`.
#[test]
fn compute_and_mfu_count_attention_with_a_shape() {
    let inputs = gpt3_inputs(true);
    let batch = inputs.global_batch_tokens;
    assert_eq!(inputs.flops_per_token(), 1_078_991_029_248.0);
    assert_eq!(
        inputs.mfu_convention(),
        crate::inputs::MfuConvention::WithAttention
    );
    let compute = inputs.compute_ms(1024.0, batch);
    assert!((compute - 8_286.651_104_624_64).abs() < 1e-6, "{compute}");
    assert!((inputs.t_crit_tokens() - 7_785.050_822_762).abs() < 1e-6);
    let mfu = inputs.mfu(1024.0, batch, compute);
    assert!((mfu - 400.0 / 989.0).abs() < 1e-12, "{mfu}");
    let mut long = inputs.clone();
    if let Some(w) = long.walls.as_mut() {
        w.shape.seq_len = 32_768.0;
    }
    assert_eq!(long.flops_per_token(), 1_513_856_467_968.0);
    let ratio = long.compute_ms(1024.0, batch) / compute;
    assert!((ratio - 1_513_856_467_968.0 / 1_078_991_029_248.0).abs() < 1e-12);
    let mut bare = inputs.clone();
    bare.walls = None;
    assert_eq!(bare.flops_per_token(), 1050e9);
    assert_eq!(
        bare.mfu_convention(),
        crate::inputs::MfuConvention::WeightsOnly
    );
    assert!((bare.compute_ms(1024.0, batch) - 8064.0).abs() < 1e-9);
}

/// The bound of a group never exceeds the step of any of its layouts, fitting or not (else
/// [`best_layout`] could stop before the fastest), over every group of GPT-3 175B at 1,024
/// and 12,288 GPUs, with and without flash attention (two or three recomputations) and
/// with ZeRO 0–3 (both data-parallel formulas).
#[test]
fn a_group_s_bound_is_below_each_of_its_steps() {
    let space = SearchSpace {
        zero_stages: vec![0, 1, 2, 3],
        ..SearchSpace::default()
    };
    for flash_attention in [false, true] {
        let inputs = gpt3_inputs(flash_attention);
        for gpus in [1024.0, 12288.0] {
            let batch = inputs.global_batch_tokens;
            let mut scorer = Scorer::new(&inputs, gpus, batch).unwrap();
            let walls = scorer.walls;
            let mut groups = Vec::new();
            enumerate_groups(&walls, &space, gpus, batch, &mut |g| groups.push(g));
            assert!(groups.len() > 100, "{}", groups.len());
            for g in groups {
                let (bound, _) = scorer.group_bound_ms(&g, &space);
                let mut least = f64::INFINITY;
                for_each_in_group(&walls, &space, g, &mut |c| {
                    least = least.min(scorer.score(c).step_ms)
                });
                assert!(bound <= least * (1.0 + 1e-12), "{g:?}: {bound} > {least}");
            }
        }
    }
}

/// The integer keys sort as `f64::total_cmp` does, negative values included.
#[test]
fn total_order_keys_sort_as_the_numbers() {
    let xs = [
        f64::NEG_INFINITY,
        -2.5,
        -1.0,
        -0.0,
        0.0,
        1e-300,
        1.0,
        2.5,
        f64::INFINITY,
    ];
    for pair in xs.windows(2) {
        assert!(
            total_order_key(pair[0]) < total_order_key(pair[1]),
            "{} before {}",
            pair[0],
            pair[1]
        );
    }
}

/// A batch of 1,000 tokens is less than one sequence of 2,048 for every replica: no layout
/// can run, and the search says so rather than "none fits" (`Ok(None)`).
#[test]
fn no_layout_when_no_replica_gets_a_sequence() {
    let inputs = gpt3_inputs(true);
    let space = SearchSpace::default();
    assert_eq!(
        best_layout(&inputs, &space, 1024.0, 1000.0),
        Err(SearchError::NoLayout { gpus: 1024.0 })
    );
    assert!(best_layout(&inputs, &space, 1024.0, 2048.0 * 1024.0)
        .unwrap()
        .is_some());
}

/// GPT-3's TP 8 layout on `pp` stages, one microbatch.
fn at_pp(pp: u32) -> Layout {
    Layout {
        tp: 8,
        pp,
        cp: 1,
        accumulation: 1,
    }
}

/// Full recomputation runs the forward twice: (6 + 2)/6. Selective, without flash
/// attention, reruns QKᵀ and ·V: GPT-3 (s = 2,048, h = 12,288, L = 96, P_a = 175e9) adds
/// 4·2,048·12,288·96 / (6·175e9 + 12·96·12,288·2,048) = 9,663,676,416 / 1,078,991,029,248
/// = 0.0089562157…; with flash attention nothing.
#[test]
fn recomputation_costs_its_extra_forward() {
    let plain = gpt3(false);
    assert_eq!(
        recompute_factor(&plain, Recompute::None, 0, &at_pp(8), 2048.0, 175e9),
        1.0
    );
    assert_eq!(
        recompute_factor(&plain, Recompute::Full, 0, &at_pp(8), 2048.0, 175e9),
        8.0 / 6.0
    );
    let selective = recompute_factor(&plain, Recompute::Selective, 0, &at_pp(8), 2048.0, 175e9);
    assert!(
        (selective - 1.008_956_215_718_248_3).abs() < 1e-15,
        "{selective}"
    );
    assert_eq!(
        recompute_factor(
            &gpt3(true),
            Recompute::Selective,
            0,
            &at_pp(8),
            2048.0,
            175e9
        ),
        1.0
    );
    // k of a stage's L/PP layers: 2 of 96/12 = 8 add (2/8)/3, 1.083333…; more than the
    // stage's layers is all of them.
    let partial = recompute_factor(&plain, Recompute::Full, 2, &at_pp(12), 2048.0, 175e9);
    assert!((partial - (1.0 + 1.0 / 12.0)).abs() < 1e-15, "{partial}");
    assert_eq!(
        recompute_factor(&plain, Recompute::Full, 9, &at_pp(12), 2048.0, 175e9),
        8.0 / 6.0
    );
    assert_eq!(
        partial_recompute_layers(8).collect::<Vec<_>>(),
        vec![2, 4, 6]
    );
    assert_eq!(partial_recompute_layers(2).collect::<Vec<_>>(), vec![1]);
    assert_eq!(partial_recompute_layers(1).count(), 0);
}

/// The layouts of one group, each with its own ZeRO stage and recomputed layers, by hand:
/// GPT-3 on PP 8 has stages of L_s = ⌈96/8⌉ = 12 layers, whose partial recomputations are
/// ⌈12/4⌉ = 3, ⌈24/4⌉ = 6 and ⌈36/4⌉ = 9 layers. With flash attention the recomputations
/// are none and full; ZeRO 1 and 2: per stage none, full (all, written 0), full of 3, 6
/// and 9 layers — 2 × 5 = 10 layouts, the group's own ZeRO 0 in none of them. Without the
/// partial recomputations, 2 × 2 = 4.
#[test]
fn a_group_s_layouts_carry_their_zero_and_recomputed_layers() {
    let walls = gpt3(true);
    let group = LayoutChoice {
        tp: 8,
        pp: 8,
        cp: 1,
        ep: 1,
        expert_tp: 0,
        microbatch_sequences: 1,
        schedule: PipelineSchedule::OneFOneB,
        chunks: 1,
        zero: 0,
        recompute: Recompute::None,
        recompute_layers: 0,
        offload_layers: 0,
    };
    let space = SearchSpace {
        zero_stages: vec![1, 2],
        ..SearchSpace::default()
    };
    let mut seen = Vec::new();
    for_each_in_group(&walls, &space, group, &mut |c| {
        assert_eq!(
            (c.tp, c.pp, c.cp, c.microbatch_sequences),
            (8, 8, 1, 1),
            "{c:?}"
        );
        seen.push((c.zero, c.recompute, c.recompute_layers));
    });
    let mut expected = Vec::new();
    for zero in [1, 2] {
        expected.push((zero, Recompute::None, 0));
        for k in [0, 3, 6, 9] {
            expected.push((zero, Recompute::Full, k));
        }
    }
    assert_eq!(seen, expected);
    let whole = SearchSpace {
        partial_recompute: false,
        offload: false,
        ..space
    };
    let mut seen = Vec::new();
    for_each_in_group(&walls, &whole, group, &mut |c| {
        seen.push((c.zero, c.recompute, c.recompute_layers))
    });
    assert_eq!(
        seen,
        vec![
            (1, Recompute::None, 0),
            (1, Recompute::Full, 0),
            (2, Recompute::None, 0),
            (2, Recompute::Full, 0),
        ]
    );
    // Offloading where the space asks for it and the machine has a host link: without a
    // pipeline and without recomputation, a quarter, half and three quarters of GPT-3's 96
    // layers (24, 48, 72); a pipeline's group offloads nothing.
    let mut walls = walls;
    walls.host_bytes_per_s = 55.4e9;
    let offloading = SearchSpace {
        offload: true,
        ..whole
    };
    let flat = LayoutChoice { pp: 1, ..group };
    let mut seen = Vec::new();
    for_each_in_group(&walls, &offloading, flat, &mut |c| {
        seen.push((c.zero, c.recompute, c.recompute_layers, c.offload_layers))
    });
    let mut expected = Vec::new();
    for zero in [1, 2] {
        expected.push((zero, Recompute::None, 0, 0));
        for k in [24, 48, 72] {
            expected.push((zero, Recompute::None, 0, k));
        }
        expected.push((zero, Recompute::Full, 0, 0));
    }
    assert_eq!(seen, expected);
    let mut piped = 0;
    for_each_in_group(&walls, &offloading, group, &mut |c| {
        piped += c.offload_layers
    });
    assert_eq!(piped, 0);
    walls.host_bytes_per_s = 0.0;
    let mut unlinked = 0;
    for_each_in_group(&walls, &offloading, flat, &mut |c| {
        unlinked += c.offload_layers
    });
    assert_eq!(unlinked, 0);
}

/// The scenario's own recomputed layers as the enumeration writes them: GPT-3 on TP 8 ·
/// PP 8 has stages of ⌈96/8⌉ = 12 layers, so full recomputation of 4 is 4, of 12 (the
/// whole stage) or 40 (past it) is written 0, "all of them"; selective recomputation has
/// no recomputed layers whatever `acn` says.
#[test]
fn the_current_layout_writes_its_recomputed_layers() {
    let inputs = gpt3_inputs(true);
    let at = |recompute, recompute_layers| {
        let mut walls = gpt3(true);
        walls.memory.activations.recompute = recompute;
        walls.memory.activations.recompute_layers = recompute_layers;
        let c = current(&inputs, &walls);
        (c.recompute, c.recompute_layers)
    };
    assert_eq!(at(Recompute::Full, 4), (Recompute::Full, 4));
    assert_eq!(at(Recompute::Full, 12), (Recompute::Full, 0));
    assert_eq!(at(Recompute::Full, 40), (Recompute::Full, 0));
    assert_eq!(at(Recompute::Full, 0), (Recompute::Full, 0));
    assert_eq!(at(Recompute::Selective, 4), (Recompute::None, 0));
}

/// `TP·PP·CP` = 8·4·2 = 64; a step is the sum of its parts.
#[test]
fn a_layout_s_gpus_and_a_step_s_parts() {
    let c = LayoutChoice {
        tp: 8,
        pp: 4,
        cp: 2,
        ep: 1,
        expert_tp: 0,
        microbatch_sequences: 1,
        schedule: PipelineSchedule::OneFOneB,
        chunks: 1,
        zero: 1,
        recompute: Recompute::None,
        recompute_layers: 0,
        offload_layers: 0,
    };
    assert_eq!(c.model_parallel(), 64);
    let p = StepParts {
        ideal_compute_ms: 1000.0,
        kernels_ms: 100.0,
        stages_ms: 20.0,
        recompute_ms: 10.0,
        bubble_ms: 1.0,
        data_parallel_ms: 0.5,
        traffic: Traffic {
            tp_ms: 0.25,
            cp_ms: 0.125,
            ep_ms: 0.0625,
            pp_ms: 0.5,
            offload_ms: 0.015625,
        },
        fixed_ms: 2.0,
        optimizer_ms: 0.03125,
    };
    assert_eq!(p.compute_ms(), 1130.0);
    assert_eq!(p.step_ms(), 1134.484375);
}

/// Ties go to the first part listed: weights before gradients.
#[test]
fn the_largest_part_of_memory() {
    let m = Memory {
        weights: 2.0,
        gathered: 0.0,
        grads: 2.0,
        optimizer: 1.0,
        activations: 1.5,
        total: 6.5,
    };
    assert_eq!(MemoryPart::largest(&m), MemoryPart::Weights);
    let m = Memory {
        activations: 3.0,
        ..m
    };
    assert_eq!(MemoryPart::largest(&m), MemoryPart::Activations);
}

/// The optimizer's step joins the mechanistic step with the HBM's bandwidth, by hand: GPT-3
/// 175B on TP 8 · PP 8, `Ψ` = 175e9/64 = 2,734,375,000, ZeRO 1 over `D` = 16 at 1,024 GPUs
/// steps 170,898,437.5 parameters at `3·2 + 2·12 + 6` = 36 bytes, 6,152,343,750 B at 0.9 of
/// 3.35 TB/s: 2.040578358 ms, in the exposed time and nowhere else. Without a machine, or with
/// a measured exposed time, nothing.
#[test]
fn the_optimizer_step_joins_the_mechanistic_step() {
    let plain = gpt3_inputs(true);
    let batch = plain.global_batch_tokens;
    assert_eq!(plain.optimizer_ms(1024.0, batch), 0.0);
    let mut with = plain.clone();
    if let Some(w) = with.walls.as_mut() {
        w.hbm_bytes_per_s = 3.35e12;
    }
    let ms = with.optimizer_ms(1024.0, batch);
    assert!((ms - 2.040_578_358).abs() < 1e-8, "{ms}");
    let compute = plain.compute_ms(1024.0, batch);
    let exposed = |i: &LlmInputs| i.exposed_ms(1024.0, batch, compute).0;
    assert!((exposed(&with) - exposed(&plain) - ms).abs() < 1e-9);
    let measured = LlmInputs {
        exposed: ExposedSource::Table(
            crate::step::ExposedTable::new(vec![(512.0, 4.0), (1024.0, 5.0)]).unwrap(),
        ),
        ..with
    };
    assert_eq!(measured.optimizer_ms(1024.0, batch), 0.0);
}

/// The panel's zero-bubble bubble weighs the shape's passes: at `A` 8 on PP 8 its exposed
/// time exceeds 1F1B's by `(β_ZB − β_1F1B)·compute`, with `β_ZB = (0·F + 7·B)/8` for `B` of
/// [`Walls::pass_shares`] (pinned in `walls.rs`) and `β_1F1B = 7/8`; everything else the
/// two schedules share (one virtual stage each).
#[test]
fn zero_bubble_panel_weighs_the_shapes_passes() {
    let mut inputs = gpt3_inputs(true);
    inputs.layout.accumulation = 8;
    let (n, b) = (1024.0, inputs.global_batch_tokens);
    let layout = inputs.layout_at(n, b);
    let compute = inputs.compute_ms(n, b);
    let exposed = |schedule| {
        let mut i = inputs.clone();
        i.comm.schedule = schedule;
        i.exposed_ms(n, b, compute).0
    };
    let walls = inputs.walls.unwrap();
    let passes = walls.pass_shares(&layout, layout.tokens_per_rank(b, n));
    assert!(passes.input_gradient > 1.0 / 3.0 + 0.005);
    let zero_bubble = 7.0 * passes.input_gradient / 8.0;
    let gap = exposed(PipelineSchedule::ZeroBubble) - exposed(PipelineSchedule::OneFOneB);
    assert!(
        (gap - (zero_bubble - 7.0 / 8.0) * compute).abs() < 1e-9 * compute,
        "{gap}"
    );
    let equal = inputs.pass_shares(PipelineSchedule::OneFOneB, &layout, n, b);
    assert_eq!(equal, PassShares::EQUAL);
}
