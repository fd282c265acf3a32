//! The layout search (crates/model/src/layouts.rs, docs/model/14-layout-search.md) on small cases
//! whose answer is derived by hand from the formulas of docs/model/12-walls.md — literals, never
//! the code's own output.

use scaling_core::scenario::decode;
use scaling_model::layouts::{Loss, MemoryPart, Search, SearchSpace, TimePart};
use scaling_model::memory::Recompute;

fn search(query: &str, space: &SearchSpace, gpus: f64) -> Search {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{query}: {:?}", d.errors);
    let inputs = d.scenario.llm_inputs();
    Search::run(&inputs, space, gpus, inputs.global_batch_tokens).expect("searchable")
}

/// Memory forces PP ≥ 2. 8 layers, h = 4,096, 2 heads (so TP ≤ 2), GPT MLP, vocabulary
/// 32,000: P = 12·8·4,096² + 2·32,000·4,096 = 1,610,612,736 + 262,144,000 = 1,872,756,736.
/// 8 GPUs, a 5 GB GPU, ZeRO 1 or 2, K = 12.
///
/// Without a pipeline, TP ≤ 2 leaves Ψ ≥ P/2 = 936,378,368 on a GPU, and D·CP = 8/TP ranks
/// share the optimizer state. ZeRO-1 at TP 2, D 4, full recomputation, one sequence:
/// weights 2Ψ = 1,872,756,736, gradients 2Ψ = 1,872,756,736, optimizer 12Ψ/4 = 2,809,135,104,
/// activations 2·s·b·h = 2·2,048·4,096 = 16,777,216 per layer × 8 layers × 1 in flight =
/// 134,217,728: 6,688,866,304 B, over 5e9 by 1,688,866,304. ZeRO-2 (gradients sharded too):
/// 1,872,756,736 + 14Ψ/4 = 3,277,324,288 → 5,150,081,024 + activations, over as well. With TP 1
/// Ψ = P, more still. So every PP = 1 layout is over, most of it in the optimizer state, and the
/// fastest layout that fits has PP ≥ 2 (TP 2 · PP 2, ZeRO-1: Ψ = P/4, 4Ψ = 1,872,756,736,
/// 12Ψ/2 = 2,809,135,104, under 5e9 with its activations). No reserve (`hres=0`): the GPU's
/// 5e9 bytes are all the tensors'.
#[test]
fn memory_forces_a_pipeline() {
    let query = "v=1&b=65536&n0=8&ns=8&p=1872756736&pa=1872756736&cm=flops&em=fsdp\
                 &nl=8&hd=4096&nh=2&sq=2048&voc=32000&hbm=5G&hres=0&ac=full";
    let space = SearchSpace {
        zero_stages: vec![1, 2],
        zero_bubble: true,
        ..SearchSpace::default()
    };
    let s = search(query, &space, 8.0);
    // The space, counted by hand (docs/model/14-layout-search.md): TP ∈ {1, 2} (2 heads);
    // PP ∈ {1, 2, 4, 8} (8 layers, equal stages); schedules 1 at PP 1, 4 at PP 2 (1F1B, interleaved
    // ×2 and ×4 on 4-layer stages, zero-bubble), 3 at PP 4 (×4 does not divide 2 layers), 2 at
    // PP 8; CP ∈ {1, 2, 4, 8} (it divides 2,048) with TP·PP·CP ≤ 8; microbatches 1, 2, 4, 8
    // sequences except 8 when D = 8 (8·2,048·4 ≥ 65,536: past a replica's share); ZeRO 1, 2; no or
    // full recomputation (flash attention), and full recomputation of a quarter, half and three
    // quarters of a stage's L_s layers, rounded up, each at least one and short of all:
    // L_s = 8 → 2, 4, 6; 4 → 1, 2, 3; 2 → 1; 1 → none. Schedules × microbatches over
    // (TP, PP, CP): TP 1: PP 1 → D 8, 4, 2, 1: 3+4+4+4 = 15; PP 2 → D 4, 2, 1: 12 × 4 = 48;
    // PP 4 → D 2, 1: 8 × 3 = 24; PP 8 → D 1: 4 × 2 = 8. TP 2: PP 1 → D 4, 2, 1: 12; PP 2 →
    // D 2, 1: 8 × 4 = 32; PP 4 → D 1: 4 × 3 = 12. Recomputations: 5 at PP 1 and 2, 3 at PP 4,
    // 2 at PP 8: (15 + 12)·5 + (48 + 32)·5 + (24 + 12)·3 + 8·2 = 659, × 2 ZeRO stages = 1,318.
    assert_eq!(s.layouts.len(), 1318);
    let best = s.best().expect("a layout fits");
    assert!(best.choice.pp >= 2, "{:?}", best.choice);
    // Throughput is the batch over the step; full recomputation adds a third of the compute,
    // k of a stage's 8/PP layers (k/L_s)/3 of it.
    assert_eq!(best.tokens_per_s, 65536.0 / (best.step_ms / 1e3));
    for l in &s.layouts {
        assert!((l.parts.step_ms() - l.step_ms).abs() <= 1e-9 * l.step_ms);
        let compute = l.parts.ideal_compute_ms + l.parts.kernels_ms + l.parts.stages_ms;
        let stage_layers = 8.0 / l.choice.pp as f64;
        let extra = match (l.choice.recompute, l.choice.recompute_layers) {
            (Recompute::Full, 0) => compute / 3.0,
            (Recompute::Full, k) => compute / 3.0 * k as f64 / stage_layers,
            _ => 0.0,
        };
        assert!(
            (l.parts.recompute_ms - extra).abs() <= 1e-9 * compute,
            "{:?}",
            l.choice
        );
    }
    let flat: Vec<_> = s.layouts.iter().filter(|l| l.choice.pp == 1).collect();
    assert!(!flat.is_empty());
    for l in &flat {
        assert!(!l.fits, "{:?} fits", l.choice);
        assert!(matches!(l.why, Loss::DoesNotFit { .. }), "{:?}", l.why);
    }
    let one = flat
        .iter()
        .find(|l| {
            l.choice.tp == 2
                && l.choice.cp == 1
                && l.choice.zero == 1
                && l.choice.recompute == Recompute::Full
                && l.choice.microbatch_sequences == 1
        })
        .expect("TP 2 · DP 4, ZeRO-1, full recomputation");
    assert_eq!(one.memory.total, 6_688_866_304.0);
    assert_eq!(
        one.why,
        Loss::DoesNotFit {
            over_bytes: 1_688_866_304.0,
            part: MemoryPart::Optimizer
        }
    );
    // The default reserve, 2.5 GiB = 2,684,354,560 B, comes off the 5e9: the same layout is
    // over by 1,688,866,304 + 2,684,354,560 = 4,373,220,864.
    let reserved = search(&query.replace("&hres=0", ""), &space, 8.0);
    let one = reserved
        .layouts
        .iter()
        .find(|l| l.choice == one.choice)
        .unwrap();
    assert_eq!(one.over_bytes, 4_373_220_864.0);
}

/// TP past the NVLink domain loses to TP traffic. `nvd=2`, 4 heads: TP 4 is one doubling past
/// the domain and talks at B_eff = 50 GB/s. 4 GPUs, 4 layers, h = 4,096, sequence 2,048,
/// B = 8,192 tokens (4 sequences). TP 4 · PP 1 · DP 1 with one sequence per microbatch:
/// A = 8,192/(1·2,048) = 4, T = 2,048. Its TP bytes per layer per microbatch are
/// 16·2,048·4,096·3/4 = 100,663,296, 2.01326592 ms at 50e9, × 4 microbatches × 4 layers =
/// 32.21225472 ms per step, not overlapped. No other layout pays TP traffic off the domain, so
/// TP is where it loses most.
#[test]
fn tp_past_the_nvlink_domain_loses_to_its_traffic() {
    let query = "v=1&b=8192&n0=4&ns=4&p=1e9&pa=1e9&cm=flops&em=fsdp&feff=400T&beff=50G\
                 &nl=4&hd=4096&nh=4&sq=2048&voc=32000&nvd=2";
    let space = SearchSpace {
        nvlink_domain_gpus: 2,
        ..SearchSpace::default()
    };
    let s = search(query, &space, 4.0);
    let wide = s
        .layouts
        .iter()
        .find(|l| {
            l.choice.tp == 4
                && l.choice.microbatch_sequences == 1
                && l.choice.zero == 1
                && l.choice.recompute == Recompute::None
        })
        .expect("TP 4 is searched");
    assert_eq!(wide.accumulation, 4);
    assert!((wide.parts.traffic.tp_ms - 32.212_254_72).abs() < 1e-9);
    assert!(
        matches!(
            wide.why,
            Loss::Slower {
                part: TimePart::Tp,
                ..
            }
        ),
        "{:?}",
        wide.why
    );
    let best = s.best().unwrap();
    assert!(best.choice.tp <= 2, "{:?}", best.choice);
}

/// At a small `T` the microbatch that keeps the kernels efficient wins. 2 layers, h = 1,024,
/// sequence 128, P = P_a = 12·2·1,024² + 2·1,000·1,024 = 27,213,824; 8 GPUs, B = 8,192 tokens
/// (8 sequences per replica at D = 8), the scenario's own microbatch 8 sequences (`mbs=8`),
/// `m½ = k½ = 128`. One sequence per microbatch runs its GEMMs at η_m = 128/256 = 0.5, eight at
/// 1,024/1,152 = 0.888…; the `k` term (TP 1, k = 1,024) is the same for both. `F_eff` is the
/// rate of the scenario's own layout (eight sequences), so with C = F_tok·B/(N·F_eff) (F_tok =
/// 6·P_a + 12·L·h·s = 163,282,944 + 3,145,728 = 166,428,672 FLOPs per token) the
/// smaller microbatch's kernels cost C·(η₈/η₁ − 1) = C·(0.888…/0.5 − 1) more. B_eff = 2 TB/s
/// hides FSDP's gathers, so the eight-sequence ZeRO-3 layout is the fastest. ZeRO 1–2 reduce
/// the gradients once per step in one chunk per layer, and the last chunk stays exposed:
/// (2 + 2)·Ψ·7/8 = 95,248,384 B at 2 TB/s = 0.047624192 ms, half of it (2 layers), so the
/// scenario's own ZeRO-1 is 0.023812096 ms behind.
#[test]
fn at_a_small_t_the_larger_microbatch_wins() {
    // `sched=interleaved` without a pipeline is no schedule at all: the scenario's own layout
    // is still found among the searched ones (as 1F1B).
    let query = "v=1&b=8192&n0=8&ns=8&p=27213824&pa=27213824&cm=flops&em=fsdp&feff=100T\
                 &beff=2T&mbs=8&nl=2&hd=1024&nh=8&sq=128&voc=1000&zero=1&sched=interleaved";
    let space = SearchSpace {
        microbatch_sequences: vec![1, 8],
        ..SearchSpace::default()
    };
    let s = search(query, &space, 8.0);
    let best = s.best().unwrap();
    assert_eq!(
        (
            best.choice.tp,
            best.choice.pp,
            best.choice.cp,
            best.choice.microbatch_sequences
        ),
        (1, 1, 1, 8),
        "{:?}",
        best.choice
    );
    // Ranked by step time; among equal steps, fewer GPUs per replica, then less memory.
    for w in s.layouts.windows(2).filter(|w| w[0].fits && w[1].fits) {
        assert!(w[0].step_ms <= w[1].step_ms);
        if w[0].step_ms == w[1].step_ms {
            let (a, b) = (w[0].choice.model_parallel(), w[1].choice.model_parallel());
            assert!(a < b || (a == b && w[0].memory.total <= w[1].memory.total));
        }
    }
    // The scenario's own (ZeRO-1) is one data-parallel chunk behind.
    assert!(s.current_rank.is_some());
    assert_eq!(best.choice.zero, 3);
    let behind = s.current.step_ms - best.step_ms;
    assert!((behind - 0.023_812_096).abs() < 1e-12, "{behind}");
    // The whole gap is the data-parallel chunk: the part's excess and the gap are one number.
    let Loss::Slower {
        part: TimePart::DataParallel,
        by_ms,
        gap_ms,
    } = s.current.why
    else {
        panic!("{:?}", s.current.why)
    };
    assert!((gap_ms - 0.023_812_096).abs() < 1e-12, "{gap_ms}");
    assert!((by_ms - 0.023_812_096).abs() < 1e-12, "{by_ms}");
    let small = s
        .layouts
        .iter()
        .find(|l| {
            (
                l.choice.tp,
                l.choice.pp,
                l.choice.cp,
                l.choice.microbatch_sequences,
            ) == (1, 1, 1, 1)
                && l.choice.zero == best.choice.zero
                && l.choice.recompute == Recompute::None
        })
        .unwrap();
    assert_eq!(small.accumulation, 8);
    let c = (6.0 * 27_213_824.0 + 12.0 * 2.0 * 1024.0 * 128.0) * 8192.0 / (8.0 * 100e12) * 1e3;
    let extra = c * ((1024.0 / 1152.0) / 0.5 - 1.0);
    let got = small.parts.kernels_ms - best.parts.kernels_ms;
    assert!((got - extra).abs() < 1e-9 * extra, "{got} against {extra}");
    assert!(
        matches!(
            small.why,
            Loss::Slower {
                part: TimePart::Kernels,
                ..
            }
        ),
        "{:?}",
        small.why
    );
}

/// `lay=best`: every table row carries the search's fastest fitting layout, the same one the
/// full ranking puts first — so the pruning of [`scaling_model::layouts::best_layout`] (a
/// bound on the step, fitting layouts only) loses nothing — on the presets with a shape, in the
/// strong and the weak sweep; `lay=fixed` carries none; without a shape `lay=best` is refused,
/// naming `lay`.
#[test]
fn lay_best_adds_the_fastest_layout_to_every_row() {
    for preset in [
        "mixtral-8x7b-walls",
        "gpt3-175b-walls",
        "llama31-405b-h100",
        "dgxc-llama3-70b-bf16",
        "dense-8b-h100",
    ] {
        let d = decode(&format!("v=1&preset={preset}&lay=best"));
        assert!(d.errors.is_empty(), "{preset}: {:?}", d.errors);
        let inputs = d.scenario.llm_inputs();
        let sweep = scaling_model::llm::LlmSweep::compute(&inputs);
        let rows = sweep
            .strong
            .iter()
            .map(|r| (r.gpus, inputs.global_batch_tokens, r.best_layout))
            .chain(
                sweep
                    .weak
                    .iter()
                    .map(|r| (r.gpus, inputs.weak_batch(r.gpus), r.best_layout)),
            );
        for (gpus, batch, best) in rows {
            let best = best.expect("searched").layout();
            let full = Search::run(&inputs, &SearchSpace::default(), gpus, batch).unwrap();
            assert_eq!(
                best.map(|b| b.choice),
                full.best().map(|b| b.choice),
                "{preset} at {gpus} GPUs"
            );
            assert_eq!(best.map(|b| b.step_ms), full.best().map(|b| b.step_ms));
        }
    }
    let fixed = scaling_model::llm::LlmSweep::compute(
        &decode("v=1&preset=mixtral-8x7b-walls")
            .scenario
            .llm_inputs(),
    );
    assert!(fixed.strong.iter().all(|r| r.best_layout.is_none()));
    let refused = decode("v=1&lay=best");
    assert_eq!(refused.errors.len(), 1, "{:?}", refused.errors);
    let message = refused.errors[0].to_string();
    assert!(
        message.contains("(lay)") && message.contains("needs the model's shape"),
        "{message}"
    );
}

/// The scenario's own layout, scored by the search, is the sweep's own row when the search and
/// the sweep see the same model (`gpt3-175b-walls`: kernels shrink, no recomputation, the
/// mechanistic exposed time), also with `A` fixed (`mbs=0`).
#[test]
fn the_current_layout_scores_as_its_own_row() {
    let d = decode("v=1&preset=gpt3-175b-walls");
    let inputs = d.scenario.llm_inputs();
    let sweep = scaling_model::llm::LlmSweep::compute(&inputs);
    for row in &sweep.strong {
        let s = Search::run(
            &inputs,
            &SearchSpace::default(),
            row.gpus,
            inputs.global_batch_tokens,
        )
        .unwrap();
        assert_eq!(s.current.accumulation, 16);
        assert!(
            (s.current.step_ms - row.step_ms).abs() <= 1e-9 * row.step_ms,
            "{}: {} against {}",
            row.gpus,
            s.current.step_ms,
            row.step_ms
        );
        assert_eq!(s.current_rank, None, "a fixed A is not in the search space");
        // TP goes one doubling past the 8-GPU domain (16 divides 96 heads), not two; 64
        // stages would leave 32 of 128 layer slots empty, beyond the two allowed.
        assert!(s.layouts.iter().any(|l| l.choice.tp == 16));
        assert!(s
            .layouts
            .iter()
            .all(|l| l.choice.tp <= 16 && l.choice.pp != 64));
        assert!(s.layouts.iter().any(|l| l.choice.pp == 32));
    }
}

/// Megatron-Core's 177B (one sequence per microbatch) searched at 4,704 GPUs.
fn megatron_at_4704() -> Search {
    let inputs = decode("v=1&preset=megatron-177b-h100&mbs=1")
        .scenario
        .llm_inputs();
    Search::run(
        &inputs,
        &SearchSpace::default(),
        4704.0,
        inputs.global_batch_tokens,
    )
    .unwrap()
}

/// The pipeline degrees are the layers' divisors and the powers of two: Megatron-Core's 177B
/// (96 layers) at 4,704 GPUs (2⁵·3·7²) can take 6 stages (a divisor; 4,704/(8·6) = 98), but
/// not 7, although 4,704 divides by 7 and 7 stages of 14 layers would be only 2 short.
#[test]
fn pipeline_degrees_divide_the_layers_or_are_powers_of_two() {
    let s = megatron_at_4704();
    assert!(s.layouts.iter().any(|l| l.choice.pp == 6));
    assert!(s.layouts.iter().any(|l| l.choice.pp == 3));
    assert!(s.layouts.iter().all(|l| l.choice.pp != 7));
}

/// What the enumeration admits: a whole data-parallel degree, a sequence per replica
/// (`D · sq ≤ B`), EP dividing both the experts and `D`; and the scenario's own layout is
/// found with selective recomputation written as none under flash attention (and kept as
/// selective without it).
#[test]
fn the_space_holds_only_layouts_that_can_run() {
    // Megatron's 177B at 4,704 GPUs: TP 16 · PP 32 would leave D = 9.1875.
    let s = megatron_at_4704();
    for l in &s.layouts {
        assert!(
            l.dp >= 1.0 && l.dp.fract() == 0.0,
            "{:?}: D = {}",
            l.choice,
            l.dp
        );
        assert!(l.dp * 4096.0 <= s.batch_tokens);
    }
    // 8 GPUs and a batch of 4 sequences of 2,048: D = 8 has no sequence for half the
    // replicas, D = 4 exactly one each.
    let small = decode(
        "v=1&b=8192&n0=8&ns=8&p=1872756736&pa=1872756736&cm=flops&em=fsdp\
         &nl=8&hd=4096&nh=2&sq=2048&voc=32000",
    )
    .scenario
    .llm_inputs();
    let s = Search::run(&small, &SearchSpace::default(), 8.0, 8192.0).unwrap();
    assert!(s.layouts.iter().all(|l| l.dp <= 4.0));
    assert!(s.layouts.iter().any(|l| l.dp == 4.0));
    // Mixtral (8 experts) at 96 GPUs: TP 4 · PP 8 leaves D = 3, where only EP 1 divides when
    // the experts are split as TP splits the dense layers; whole experts (ETP 1) fold EP over
    // TP·D = 12 ranks, so EP 4 divides there, and ETP 1 is tried only at TP > 1.
    let moe = decode("v=1&preset=mixtral-8x7b-walls")
        .scenario
        .llm_inputs();
    let s = Search::run(&moe, &SearchSpace::default(), 96.0, moe.global_batch_tokens).unwrap();
    for l in &s.layouts {
        let ranks = match l.choice.expert_tp {
            0 => l.dp as u32,
            _ => l.dp as u32 * l.choice.tp,
        };
        assert!(
            8u32.is_multiple_of(l.choice.ep)
                && ranks.is_multiple_of(l.choice.ep)
                && (l.choice.expert_tp == 0 || (l.choice.expert_tp == 1 && l.choice.tp > 1)),
            "{:?}",
            l.choice
        );
    }
    assert!(s.layouts.iter().any(|l| l.choice.ep == 8));
    assert!(s.layouts.iter().any(|l| l.choice.ep as f64 > l.dp));
    // torchtitan's selective recomputation with flash attention is "none" in the space.
    let tt = decode("v=1&preset=torchtitan-llama3-8b&mbs=2")
        .scenario
        .llm_inputs();
    let s = Search::run(&tt, &SearchSpace::default(), 128.0, tt.weak_batch(128.0)).unwrap();
    assert!(s.current_rank.is_some());
    assert_eq!(s.current.choice.recompute, Recompute::None);
    let plain = decode("v=1&preset=torchtitan-llama3-8b&mbs=2&fa=0")
        .scenario
        .llm_inputs();
    let s = Search::run(
        &plain,
        &SearchSpace::default(),
        128.0,
        plain.weak_batch(128.0),
    )
    .unwrap();
    assert!(s.current_rank.is_some());
    assert_eq!(s.current.choice.recompute, Recompute::Selective);
}

/// A scenario that recomputes (`llama31-405b-h100` with `ac=full`): its `F_eff` already pays
/// for the recomputation, so its own layout scores exactly its sweep rows (the search divides
/// the reference factor 8/6 out and multiplies the candidate's back in).
#[test]
fn the_own_recomputation_is_not_charged_twice() {
    let inputs = decode("v=1&preset=llama31-405b-h100&ac=full")
        .scenario
        .llm_inputs();
    let sweep = scaling_model::llm::LlmSweep::compute(&inputs);
    for row in &sweep.strong {
        let s = Search::run(
            &inputs,
            &SearchSpace::default(),
            row.gpus,
            inputs.global_batch_tokens,
        )
        .unwrap();
        assert!(s.current_rank.is_some());
        assert!(
            (s.current.step_ms - row.step_ms).abs() <= 1e-9 * row.step_ms,
            "{}",
            row.gpus
        );
        let p = s.current.parts;
        let compute = p.ideal_compute_ms + p.kernels_ms;
        assert!((p.recompute_ms - compute / 3.0).abs() <= 1e-9 * compute);
    }
}

/// The explorer's "use" links type a ranked layout into the scenario: five links, the `k`th
/// naming the first layout of the `k`th fastest tie group (fitting ones only; a group holds
/// the layouts of one step, and the next group is strictly slower), each decoding without an error into a
/// scenario whose own layout is that one — from physics alone scoring exactly what the search
/// scored it. A layout that
/// breaks another rule of the scenario (a GPU row not a multiple of `TP·PP·CP`) gets no link.
#[test]
fn a_use_link_types_the_layout_in() {
    use scaling_core::panel::layouts::{
        layout_summary, search_at, tie_groups, use_links, use_query,
    };
    use scaling_core::scenario::Key;
    use scaling_model::layouts::physics_inputs;
    use scaling_model::stack::Stack;
    let d = decode("v=1&preset=gpt3-175b-walls&view=strong&lx=2048");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let search = search_at(&d.scenario, 2048.0).unwrap();
    let links = use_links(&d.scenario, Some(&Ok(search.clone())));
    assert_eq!(links.len(), 5);
    let groups = tie_groups(&search);
    for pair in groups.windows(2).take(5) {
        let (w, g) = (pair[0], pair[1]);
        let (a, b) = (&search.layouts[w.0], &search.layouts[g.0]);
        assert!(
            b.step_ms > a.step_ms || !b.fits,
            "{} then {}",
            a.step_ms,
            b.step_ms
        );
        let tied = &search.layouts[w.0..w.0 + w.1];
        assert!(tied.iter().all(|t| t.step_ms == a.step_ms));
    }
    for (i, (text, query)) in links.iter().enumerate() {
        let first = groups[i].0;
        let s = &search.layouts[first];
        assert!(s.fits);
        assert_eq!(text, &format!("Use #{}: {}", first + 1, layout_summary(s)));
        let next = decode(query);
        assert!(next.errors.is_empty(), "{query}: {:?}", next.errors);
        let again = search_at(&next.scenario, 2048.0).unwrap();
        assert_eq!(again.current.choice, s.choice, "{query}");
        // Not the same step with the scenario's own `F_eff`, the rate of its own layout at
        // `N₀` (§14): typing another layout in re-references `η` and `r`. From physics alone
        // (`F_eff = r∞ · peak · η` of each layout) the step does not depend on which layout is
        // the scenario's own: the typed-in layout scores exactly what the search gave it.
        let physics = |sc: &scaling_core::scenario::Scenario| {
            let inputs =
                physics_inputs(&sc.llm_inputs(), Stack::Megatron.large_gemm_fraction()).unwrap();
            Search::run(
                &inputs,
                &SearchSpace::default(),
                2048.0,
                inputs.global_batch_tokens,
            )
            .unwrap()
        };
        let before = physics(&d.scenario);
        let there = before
            .layouts
            .iter()
            .find(|l| l.choice == s.choice)
            .unwrap();
        let after = physics(&next.scenario).current;
        let rel = (after.step_ms - there.step_ms).abs() / there.step_ms;
        assert!(
            rel < 1e-12,
            "{query}: {} vs {}",
            after.step_ms,
            there.step_ms
        );
    }
    // No explorer, or no ranking: five hidden links.
    assert!(use_links(&d.scenario, None).iter().all(|l| l.1.is_empty()));
    let none: Result<Search, String> = Err("no shape".into());
    assert!(use_links(&d.scenario, Some(&none))
        .iter()
        .all(|l| l.1.is_empty()));
    // TP 8 · PP 64 = 512 does not divide the 256-GPU row: no link for it.
    let mut wide = search.layouts[0];
    wide.choice.tp = 8;
    wide.choice.pp = 64;
    assert_eq!(use_query(&d.scenario, &wide), None);
    // Values set together are checked together; a refused value refuses them all.
    assert!(d
        .scenario
        .with_values(&[(Key::Tp, "8".into()), (Key::Pp, "2".into())])
        .is_some_and(|s| s.llm.tp == 8 && s.llm.pp == 2));
    assert_eq!(
        d.scenario
            .with_values(&[(Key::Tp, "8".into()), (Key::Pp, "abc".into())]),
        None
    );
}

/// A panel searches only the rows it shows: with `SearchedRows::Strong` the weak rows carry no
/// best layout, with `Weak` the strong rows none; `Both` (the sweep's default) searches both.
#[test]
fn a_panel_searches_only_its_own_rows() {
    use scaling_model::layouts::SearchedRows;
    let d = decode("v=1&preset=mixtral-8x7b-walls&lay=best");
    let mut inputs = d.scenario.llm_inputs();
    for (rows, strong, weak) in [
        (SearchedRows::Both, true, true),
        (SearchedRows::Strong, true, false),
        (SearchedRows::Weak, false, true),
    ] {
        inputs.search.as_mut().unwrap().rows = rows;
        let sweep = scaling_model::llm::LlmSweep::compute(&inputs);
        assert!(
            sweep
                .strong
                .iter()
                .all(|r| r.best_layout.is_some() == strong),
            "{rows:?}"
        );
        assert!(
            sweep.weak.iter().all(|r| r.best_layout.is_some() == weak),
            "{rows:?}"
        );
    }
}

/// With `lay=best`, the Strong and the Weak panel's tables each show the best-layout columns
/// over their own rows, every row with a layout, and the Plan panel's tables none.
#[test]
fn each_panel_shows_the_best_layout_of_its_own_rows() {
    use scaling_core::panel::Panel;
    use scaling_core::scenario::View;
    let d = decode("v=1&preset=gpt3-175b-walls&lay=best");
    for (view, id) in [(View::Strong, "strong"), (View::Weak, "weak")] {
        let panel = Panel::compute(&d.scenario, view);
        let tables = panel.tables();
        let table = tables
            .iter()
            .find(|s| s.id == id)
            .and_then(|s| s.table.as_ref())
            .unwrap();
        let col = table
            .headers
            .iter()
            .position(|h| h == "best layout")
            .unwrap_or_else(|| panic!("{id}: {:?}", table.headers));
        assert!(
            table.rows.iter().all(|r| r[col].starts_with("TP")),
            "{id}: {:?}",
            table.rows
        );
    }
    let plan = Panel::compute(&d.scenario, View::Plan);
    assert!(plan
        .tables()
        .iter()
        .filter_map(|s| s.table.as_ref())
        .all(|t| !t.headers.iter().any(|h| h == "best layout")));
}

/// `F_eff` from physics alone, by hand: the DGX Cloud GPT-3 175B recipe at `N₀` = 128 GPUs,
/// one sequence of 2,048 tokens per microbatch, TP 4: `η = 2,048/(2,048 + 128) · 3,072/(3,072
/// + 128) = 0.941176… · 0.96 = 0.9035294…`, over the slowest of its 8 stages (12 layers and
/// the output layer against the average: 137,788,858,368 / 134,546,678,784, shape.rs's
/// golden), `F_eff = 0.6285 · 989T · η / 1.0240971 = 548.4066949T`; the compute is
/// `F_tok·B/(N·F_eff)`, the exposed time the mechanistic one, no fit.
#[test]
fn the_rate_from_physics_alone() {
    use scaling_model::layouts::physics_inputs;
    use scaling_model::llm::{ComputeSource, ExposedSource};
    use scaling_model::stack::Stack;
    let d = decode("v=1&preset=dgxc-gpt3-175b-bf16&mbs=1");
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let own = d.scenario.llm_inputs();
    assert!(own.fit.is_some(), "the preset fits its measured steps");
    let p = physics_inputs(&own, Stack::Megatron.large_gemm_fraction()).unwrap();
    let expected = 548_406_694_889_928.4;
    assert!(
        (p.flops_per_gpu - expected).abs() < 1e-6 * expected,
        "{}",
        p.flops_per_gpu
    );
    assert!(p.fit.is_none());
    assert_eq!(p.compute, ComputeSource::Flops);
    assert_eq!(p.exposed, ExposedSource::Fsdp);
    // Without a shape there is nothing to compute η from.
    assert!(physics_inputs(&decode("v=1&preset=seed-strong").scenario.llm_inputs(), 0.6).is_none());
}

/// The published MFU of each run whose step time or throughput was published is the model's
/// own count of it: with attention, over the step (docs/model/14-layout-search.md).
#[test]
fn the_published_mfu_counts_attention() {
    use scaling_core::panel::published::published_rows;
    let rows: Vec<_> = published_rows().into_iter().map(Result::unwrap).collect();
    // The published MFU of the runs whose step time or throughput was published, counted with
    // attention (PaLM's F_tok = 6·P + 12·L·h·s per token, over the step): MLPerf v3.1 at 512
    // and 4,096 GPUs (GBS 2,048 × 2,048) and 10,240 (GBS 2,560), GPT-3's 96 layers of 12,288
    // at 2,048 tokens, FP8 peak; llm-foundry's tokens/s per GPU on 8 and 64 GPUs (40 layers of
    // 5,120 at 2,048) and torchtitan's on 128 (32 layers of 4,096 at 8,192), BF16 peak; Meta's
    // 430 TFLOP/s per GPU, BF16 peak.
    let mfu =
        |p: f64, (l, h, s): (f64, f64, f64), tokens: f64, step_s: f64, gpus: f64, peak: f64| {
            (6.0 * p + 12.0 * l * h * s) * tokens / (step_s * gpus * peak)
        };
    let gpt3 = (96.0, 12288.0, 2048.0);
    let mpt = (40.0, 5120.0, 2048.0);
    let derived = [
        (
            "MLPerf v3.1 GPT-3 175B FP8",
            512.0,
            mfu(175e9, gpt3, 4_194_304.0, 11.051, 512.0, 1979e12),
        ),
        (
            "MLPerf v3.1 GPT-3 175B FP8",
            4096.0,
            mfu(175e9, gpt3, 4_194_304.0, 1.609, 4096.0, 1979e12),
        ),
        (
            "MLPerf v3.1 GPT-3 175B FP8",
            10240.0,
            mfu(175e9, gpt3, 5_242_880.0, 0.926, 10240.0, 1979e12),
        ),
        (
            "llm-foundry MPT-13B (FSDP)",
            8.0,
            mfu(13.1e9, mpt, 4792.0, 1.0, 1.0, 989e12),
        ),
        (
            "llm-foundry MPT-13B (FSDP)",
            64.0,
            mfu(13.1e9, mpt, 4800.0, 1.0, 1.0, 989e12),
        ),
        (
            "torchtitan Llama 3.1 8B (FSDP)",
            128.0,
            mfu(8.03e9, (32.0, 4096.0, 8192.0), 5605.0, 1.0, 1.0, 989e12),
        ),
        ("Llama 3.1 405B", 8192.0, 430e12 / 989e12),
        ("Llama 3.1 405B", 16384.0, 400e12 / 989e12),
    ];
    for (label, gpus, published) in derived {
        let r = rows
            .iter()
            .find(|r| r.run.label == label && r.run.gpus == gpus)
            .unwrap_or_else(|| panic!("{label} at {gpus}"));
        assert!(
            (r.run.published_mfu - published).abs() < 5e-5,
            "{label} at {gpus}"
        );
    }
}

/// The published layouts of shared/data/published-runs.md from physics alone
/// (`scaling layouts --published`, docs/model/14-layout-search.md): every run searches, each
/// stack's calibration run comes out within 0.5 points (it sets its stack's `r∞`), of the others
/// the median error is at most 3 points of MFU and all but one within 8, and at least twelve of
/// the sixteen layouts step within 5% of the search's fastest.
#[test]
fn the_published_layouts_from_physics_alone() {
    use scaling_core::panel::published::{published_figures, published_rows, published_table};
    let rows: Vec<_> = published_rows().into_iter().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 16);
    for r in rows.iter().filter(|r| r.run.calibration) {
        assert!(r.error().abs() < 0.005, "{}: {}", r.run.label, r.error());
    }
    let mut errors: Vec<f64> = rows
        .iter()
        .filter(|r| !r.run.calibration)
        .map(|r| r.error().abs())
        .collect();
    errors.sort_by(f64::total_cmp);
    // Eleven runs that did not calibrate their stack's r∞: the median is the 6th. At most 3
    // points of MFU; all but one within 8. The one is MPT-13B on 64 GPUs at its NIC's 50 GB/s
    // (`beff` from the H100 machine, the README naming no network): FSDP over 8 nodes that the
    // run hid (its MFU is flat from 8 to 64 GPUs) is charged whole, with its gradients reduced
    // in fp32 (the README's MP Mode DEFAULT), about 24 points.
    assert_eq!(errors.len(), 11);
    let median = errors[5];
    assert!(median <= 0.03, "median {median}: {errors:?}");
    assert!(errors[9] <= 0.08, "the second worst run: {errors:?}");
    assert!(errors[10] <= 0.25, "the worst run: {errors:?}");
    // The experts' layouts against the search: at least three quarters of the sixteen step
    // within 5% of the fastest layout it finds (`t_own ≤ 1.05·t_best`, by the rows' own step
    // times).
    let close = rows
        .iter()
        .filter(|r| {
            let best = r.search.layouts.iter().find(|l| l.fits).unwrap();
            r.search.current.step_ms <= 1.05 * best.step_ms
        })
        .count();
    assert!(close >= 12, "{close} of 16 within 5%");
    assert_eq!(
        rows.iter().filter(|r| r.within_five_percent()).count(),
        close
    );
    let table = published_table(&rows);
    assert_eq!(table.rows.len(), 16);
    // The error column: points of MFU, signed.
    let col = table
        .headers
        .iter()
        .position(|h| h == "error (points)")
        .unwrap();
    for (r, cells) in rows.iter().zip(&table.rows) {
        let shown: f64 = cells[col].parse().unwrap();
        // Two significant figures.
        let v = 100.0 * r.error();
        assert!(
            (shown - v).abs() <= 0.06f64.max(0.05 * v.abs()),
            "{}: {}",
            r.run.label,
            cells[col]
        );
        assert_eq!(
            cells[col].starts_with('+'),
            r.error() > 0.0,
            "{}",
            cells[col]
        );
    }
    // The figure: the median of the eleven and how many are within 5 points.
    let within = errors.iter().filter(|&&e| e <= 0.05).count();
    let figures = published_figures(&rows);
    let expected = format!(
        "{} points; {within} of 11 within 5 points",
        scaling_core::text::units::format_sig(100.0 * median, 2)
    );
    assert_eq!(figures[0].1, expected);
    assert_eq!(figures[1].1, format!("{close} of 16"));
    // In Chinese the count of runs comes first: "11 个中 9 个", of the eleven, nine.
    use scaling_core::i18n::{set_lang, Lang};
    set_lang(Lang::Zh);
    let zh = published_figures(&rows);
    set_lang(Lang::En);
    assert!(
        zh[0]
            .1
            .contains(&format!("；11 个中 {within} 个在 5 个百分点内")),
        "{}",
        zh[0].1
    );
}

/// The Plan with `lay=best`: each row's weak-then-strong with the search's layout is the
/// fastest fitting layout at the weak-then-strong batch `min(B_weak(N), cap)`, its time to
/// quality `S(B) · t_step / 3.6·10⁶` h with that layout's step, and the recommended row the
/// one with the least such time; without `lay=best` there is none.
#[test]
fn the_plan_with_the_best_layout() {
    use scaling_model::layouts::{best_layout, SearchSpace};
    use scaling_model::plan::PlanSweep;
    let d = decode("v=1&preset=gpt3-175b-walls&lay=best");
    let inputs = d.scenario.plan_inputs();
    let plan = PlanSweep::compute(&inputs);
    let mut least = (f64::INFINITY, 0.0);
    for row in &plan.rows {
        let b = row.weak_then_strong_best.expect("searched");
        let batch = inputs.llm.weak_batch(row.gpus).min(inputs.batch_cap_tokens);
        let space = SearchSpace::default();
        let own = best_layout(&inputs.llm, &space, row.gpus, batch).unwrap();
        assert_eq!(
            b.best_layout.layout().map(|l| l.choice),
            own.map(|l| l.choice)
        );
        if let (Some(p), Some(l)) = (b.point, own) {
            assert_eq!(p.batch_tokens, batch);
            assert_eq!(p.step_ms, l.step_ms);
            let hours = inputs.critical.steps(batch) * l.step_ms / 3.6e6;
            assert!((p.hours_to_quality - hours).abs() < 1e-12 * hours);
            assert!((p.gpu_hours - hours * row.gpus).abs() < 1e-9 * hours * row.gpus);
            assert_eq!(p.fits, Some(true));
            if hours < least.0 {
                least = (hours, row.gpus);
            }
        }
    }
    assert_eq!(plan.best_gpus_best_layout, Some(least.1));
    // The key figure names that row, its time and its layout.
    let llm = scaling_model::llm::LlmSweep::compute(&d.scenario.llm_inputs());
    let figures = scaling_core::panel::plan::key_figures(&plan, &llm);
    let (_, text) = figures
        .iter()
        .find(|(label, _)| label.starts_with("With the best layout at each row"))
        .unwrap();
    let row = plan.rows.iter().find(|r| r.gpus == least.1).unwrap();
    let layout = row
        .weak_then_strong_best
        .unwrap()
        .best_layout
        .layout()
        .unwrap();
    assert!(
        text.contains(&scaling_core::panel::layouts::layout_summary(&layout)),
        "{text}"
    );
    let hours = scaling_core::text::units::format_hours(
        row.weak_then_strong_best
            .unwrap()
            .point
            .unwrap()
            .hours_to_quality,
    );
    assert!(
        text.starts_with(&format!(
            "{} GPUs: {hours} (",
            scaling_core::text::units::format_count(least.1)
        )),
        "{text}"
    );
    let fixed = PlanSweep::compute(&decode("v=1&preset=gpt3-175b-walls").scenario.plan_inputs());
    assert!(fixed.rows.iter().all(|r| r.weak_then_strong_best.is_none()));
    assert_eq!(fixed.best_gpus_best_layout, None);
}

/// Every scored layout's parts add up to its step (`compute + bubble + exposed data-parallel +
/// traffic + fixed`, what the "why" column compares part by part), and none is negative but
/// the kernels' (larger GEMMs than the scenario's own run faster); the explorer keeps TP within
/// twice the NVLink domain of `nvd`.
#[test]
fn the_parts_add_up_to_the_step() {
    for query in [
        "v=1&preset=gpt3-175b-walls",
        "v=1&preset=mixtral-8x7b-walls&fix=40",
        "v=1&preset=llama31-405b-h100",
    ] {
        let d = decode(query);
        let inputs = d.scenario.llm_inputs();
        let n = inputs.gpus[1];
        let s = Search::run(
            &inputs,
            &SearchSpace::default(),
            n,
            inputs.global_batch_tokens,
        )
        .unwrap();
        for l in &s.layouts {
            let p = &l.parts;
            assert!(
                (p.step_ms() - l.step_ms).abs() <= 1e-9 * l.step_ms,
                "{query}: {l:?}"
            );
            // The bubble (§3.2): (p − 1)/A of the compute with 1F1B; interleaved,
            // [(p − 1) + (v − 1)·(p − A mod p)]/(v·A), the second term only when p does not
            // divide A; zero bubble, max(0, 2p − 1 − A)/(3A).
            let c = &l.choice;
            let (stages, a, v) = (c.pp as f64, l.accumulation as f64, c.chunks as f64);
            let fraction = match c.schedule {
                _ if c.pp == 1 => 0.0,
                scaling_model::step::PipelineSchedule::Interleaved => {
                    let partial = l.accumulation % c.pp;
                    let idle = if partial == 0 {
                        0.0
                    } else {
                        (v - 1.0) * (c.pp - partial) as f64
                    };
                    (stages - 1.0 + idle) / (v * a)
                }
                scaling_model::step::PipelineSchedule::OneFOneB => (stages - 1.0) / a,
                scaling_model::step::PipelineSchedule::ZeroBubble => {
                    (2.0 * stages - 1.0 - a).max(0.0) / (3.0 * a)
                }
            };
            let bubble = fraction * p.compute_ms();
            assert!(
                (p.bubble_ms - bubble).abs() <= 1e-9 * l.step_ms,
                "{query}: {l:?}"
            );
            for v in [
                p.recompute_ms,
                p.bubble_ms,
                p.data_parallel_ms,
                p.traffic.total_ms(),
                p.fixed_ms,
            ] {
                assert!(v >= 0.0, "{query}: {p:?}");
            }
        }
    }
    let narrow = decode("v=1&preset=gpt3-175b-walls&nvd=4");
    let s = scaling_core::panel::layouts::search_at(&narrow.scenario, 1024.0).unwrap();
    assert!(s.layouts.iter().all(|l| l.choice.tp <= 8));
    let wide = decode("v=1&preset=gpt3-175b-walls");
    let s = scaling_core::panel::layouts::search_at(&wide.scenario, 1024.0).unwrap();
    assert!(s.layouts.iter().any(|l| l.choice.tp == 16));
}

/// The knee of the best layouts (docs/model/14-layout-search.md, "The knee of the best layouts"):
/// each strong row's best layout has `N_max = TP·PP·CP · B / max(sq·seq, T_crit)`, and the summary
/// holds the largest, with the first row whose layout reaches it. By hand on the small-`T`
/// case: one row at 8 GPUs whose best layout is TP 1 · PP 1 · CP 1 with 8 sequences of 128
/// tokens per microbatch, `B = 8,192`; `T_crit` is below `m = 1,024` (asserted), so
/// `N_max = 1 · 8,192/1,024 = 8`. On the presets, the formula
/// written out here against every row.
#[test]
fn the_knee_of_the_best_layouts() {
    let small = decode(
        "v=1&b=8192&n0=8&ns=8&p=27213824&pa=27213824&cm=flops&em=fsdp&feff=100T\
         &beff=2T&mbs=8&nl=2&hd=1024&nh=8&sq=128&voc=1000&zero=1&lay=best",
    );
    assert!(small.errors.is_empty(), "{:?}", small.errors);
    let sweep = scaling_model::llm::LlmSweep::compute(&small.scenario.llm_inputs());
    assert!(sweep.summary.t_crit_tokens < 1024.0);
    let knee = sweep.summary.best_layout_n_max.expect("a layout fits");
    assert_eq!((knee.n_max, knee.at_gpus), (8.0, 8.0));
    for preset in ["gpt3-175b-walls", "llama31-405b-h100", "dense-8b-h100"] {
        let d = decode(&format!("v=1&preset={preset}&lay=best"));
        let inputs = d.scenario.llm_inputs();
        let seq = inputs.walls.unwrap().shape.seq_len;
        let sweep = scaling_model::llm::LlmSweep::compute(&inputs);
        let t_crit = sweep.summary.t_crit_tokens;
        let b = inputs.global_batch_tokens;
        let by_hand: Vec<(f64, f64)> = sweep
            .strong
            .iter()
            .filter_map(|r| {
                let l = r.best_layout?.layout()?;
                let c = l.choice;
                let m = c.tp as f64 * c.pp as f64 * c.cp as f64;
                let n_max = if c.microbatch_sequences > 0 {
                    m * b / (c.microbatch_sequences as f64 * seq).max(t_crit)
                } else {
                    m * b / (l.accumulation as f64 * t_crit)
                };
                Some((n_max, r.gpus))
            })
            .collect();
        let largest = by_hand.iter().map(|p| p.0).fold(0.0, f64::max);
        let first = by_hand.iter().find(|p| p.0 == largest).unwrap();
        let knee = sweep.summary.best_layout_n_max.expect("searched");
        assert!((knee.n_max - largest).abs() <= 1e-9 * largest, "{preset}");
        assert_eq!(knee.at_gpus, first.1, "{preset}");
        // Past the own layout's knee: the search raises M where the own layout cannot.
        assert!(
            knee.n_max >= sweep.summary.n_max * (1.0 - 1e-12),
            "{preset}"
        );
    }
    let fixed = scaling_model::llm::LlmSweep::compute(
        &decode("v=1&preset=gpt3-175b-walls").scenario.llm_inputs(),
    );
    assert_eq!(fixed.summary.best_layout_n_max, None);
}

/// No layout near the top wins by a cost the model does not charge: for every preset with a
/// shape, at three of its GPU counts, with zero bubble in the space, each of the ten fastest
/// layouts pays at least the lower bound of each term, written out here from its source
/// (docs/model/ §3.2(c), §12.4, §12.5):
///
/// - bubble ≥ `(p − 1)/A` (1F1B), `(p − 1)/(v·A)` (interleaved), `max(0, 2p − 1 − A)/(3A)`
///   (zero bubble) of the compute, so positive whenever `A < 2p − 1`;
/// - CP ≥ `t_CP − f·compute` with ring attention (`f` the attention's FLOP share), all of
///   `t_CP` all-gathered: `t_CP = A·⌈L/PP⌉·3·(cp − 1)·2·(T/cp)·h·(kv/a)·2 B / link`;
/// - pipeline sends ≥ `2(p·v − 1)·(T/cp)·h·2/t B / link`, the link at most NVLink's;
/// - ZeRO 1–2 data parallelism ≥ one chunk of `(s_w + s_g)·Ψ·(N_d − 1)/N_d B / B_eff`, with
///   `Ψ = P_dense/(TP·PP) + P_experts/(TP·PP·EP)`.
#[test]
fn no_top_layout_wins_by_a_free_term() {
    let presets = [
        "gpt3-175b-walls",
        "llama31-405b-h100",
        "mixtral-8x7b-walls",
        "dgxc-llama3-70b-bf16",
        "megatron-177b-h100",
    ];
    let mut checked = 0;
    for preset in presets {
        let d = decode(&format!("v=1&preset={preset}&view=strong"));
        let inputs = d.scenario.llm_inputs();
        let walls = inputs.walls.expect("a walls preset has a shape");
        let n = inputs.gpus.len();
        let space = SearchSpace {
            zero_bubble: true,
            nvlink_domain_gpus: walls.nvlink_domain_gpus as u32,
            ..SearchSpace::default()
        };
        for gpus in [inputs.gpus[0], inputs.gpus[n / 2], inputs.gpus[n - 1]] {
            let s = Search::run(&inputs, &space, gpus, inputs.global_batch_tokens).unwrap();
            for l in s.layouts.iter().filter(|l| l.fits).take(10) {
                let what = format!("{preset} at {gpus}: {:?}", l.choice);
                assert_pays_every_term(&what, l, &inputs);
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "{checked} layouts checked");
}

/// The lower bounds of [`no_top_layout_wins_by_a_free_term`] for one scored layout.
fn assert_pays_every_term(
    what: &str,
    l: &scaling_model::layouts::Scored,
    inputs: &scaling_model::llm::LlmInputs,
) {
    use scaling_model::step::PipelineSchedule;
    use scaling_model::walls::CpOverlap;
    const SLACK: f64 = 1e-9;
    let walls = inputs.walls.expect("a shape");
    let shape = walls.shape;
    let c = &l.choice;
    let p = &l.parts;
    let (pp, a) = (c.pp as f64, l.accumulation as f64);
    let v = if c.schedule == PipelineSchedule::Interleaved {
        c.chunks as f64
    } else {
        1.0
    };
    let compute = p.compute_ms();
    let bubble = match c.schedule {
        _ if c.pp == 1 => 0.0,
        PipelineSchedule::OneFOneB => (pp - 1.0) / a,
        PipelineSchedule::Interleaved => (pp - 1.0) / (v * a),
        PipelineSchedule::ZeroBubble => (2.0 * pp - 1.0 - a).max(0.0) / (3.0 * a),
    } * compute;
    assert!(p.bubble_ms >= bubble * (1.0 - SLACK), "{what}: bubble");
    if c.pp > 1 && a < 2.0 * pp - 1.0 {
        assert!(
            p.bubble_ms > 0.0,
            "{what}: a bubble below 2p − 1 microbatches"
        );
    }
    // The fastest a link can be: NVLink.
    let nvlink = 400e9;
    let tokens = l.tokens_per_microbatch / c.cp as f64;
    let h = shape.hidden;
    if c.cp > 1 {
        let layers = (shape.layers / pp).ceil();
        let bytes =
            3.0 * (c.cp as f64 - 1.0) * 2.0 * tokens * h * shape.kv_heads / shape.heads * 2.0;
        let t_cp = a * layers * bytes / nvlink * 1e3;
        // Attention's 12·L·h·s FLOPs per token against the weights' 6·P_a (PaLM's count).
        let attention = 12.0 * shape.seq_len * h * shape.layers;
        let f = attention / (6.0 * shape.active_params() + attention);
        let hidden = match walls.cp_overlap {
            CpOverlap::Ring => f * compute,
            CpOverlap::AllGather => 0.0,
        };
        assert!(
            p.traffic.cp_ms >= (t_cp - hidden).max(0.0) * (1.0 - SLACK),
            "{what}: CP"
        );
        if walls.cp_overlap == CpOverlap::AllGather {
            assert!(p.traffic.cp_ms > 0.0, "{what}: all-gathered CP");
        }
    }
    if c.pp > 1 {
        let sends = 2.0 * (pp * v - 1.0);
        let t_pp = sends * tokens * h * 2.0 / c.tp as f64 / nvlink * 1e3;
        assert!(p.traffic.pp_ms >= t_pp * (1.0 - SLACK), "{what}: PP");
        assert!(p.traffic.pp_ms > 0.0, "{what}: pipeline sends");
    }
    if (1..=2).contains(&c.zero) && l.dp > 1.0 {
        // Experts split over EP too (docs/model/12-walls.md §12.2).
        let experts = shape.expert_params() / shape.total_params();
        let shards = c.tp as f64 * pp;
        let psi = inputs.total_params * (1.0 - experts) / shards
            + inputs.total_params * experts / (shards * c.ep as f64);
        let ranks = l.dp * c.cp as f64;
        let bytes = (inputs.comm.wire_bytes_per_param + inputs.comm.gather_bytes_per_param)
            * psi
            * (ranks - 1.0)
            / ranks;
        // Inside one NVLink domain (TP·CP·DP GPUs in it), the group talks at NVLink.
        let bus = inputs.comm.bus_bytes_per_s;
        let in_domain = c.tp as f64 * ranks <= walls.nvlink_domain_gpus;
        let link = if in_domain {
            walls.nvlink_bytes_per_s.max(bus)
        } else {
            bus
        };
        let t_dp = bytes / link * 1e3;
        // One chunk a layer without a pipeline or interleaving, one a virtual stage with it.
        let chunks = if c.pp == 1 {
            shape.layers
        } else if v > 1.0 {
            v
        } else {
            (shape.layers / pp).ceil()
        };
        assert!(
            p.data_parallel_ms >= t_dp / chunks * (1.0 - 1e-6),
            "{what}: data parallel {} < {}",
            p.data_parallel_ms,
            t_dp / chunks
        );
    }
}

/// `cm=physics`: the rate from the stack's `r∞`. Without a shape `η = 1`: the seed's
/// `P_a` = 1.776e9 and 32M tokens on 1,024 GPUs at `rinf=0.5` of 989 TFLOP/s take
/// 6 · 1.776e9 · 32e6 / (1,024 · 494.5e12) s = 673.4075…ms. With a shape the rate is
/// `physics_inputs`' (`r∞ · peak · η`, by hand in `the_rate_from_physics_alone`), `stack=meta`
/// takes Meta's `r∞`, `rinf` overrides the stack, and a fit keeps its own rate. Bad names and
/// values are refused naming the key.
#[test]
fn compute_from_physics_on_any_scenario() {
    use scaling_model::layouts::physics_inputs;
    use scaling_model::stack::Stack;
    let seed = decode("v=1&cm=physics&rinf=0.5").scenario.llm_inputs();
    let compute = seed.compute_ms(1024.0, 32e6);
    assert!((compute - 673.407_482_305_358_9).abs() < 1e-9, "{compute}");
    let walls = decode("v=1&preset=gpt3-175b-walls&cm=physics&stack=meta")
        .scenario
        .llm_inputs();
    let flops = decode("v=1&preset=gpt3-175b-walls&cm=flops")
        .scenario
        .llm_inputs();
    let expected = physics_inputs(&flops, Stack::Meta.large_gemm_fraction()).unwrap();
    assert_eq!(walls.flops_per_gpu, expected.flops_per_gpu);
    assert!(walls.walls.unwrap().kernels.is_some(), "kernels shrink");
    let own = decode("v=1&preset=gpt3-175b-walls&cm=physics&stack=meta&rinf=0.4")
        .scenario
        .llm_inputs();
    let at_04 = physics_inputs(&flops, 0.4).unwrap();
    assert_eq!(own.flops_per_gpu, at_04.flops_per_gpu);
    let fitted = decode("v=1&preset=megatron-177b-h100&cm=physics").scenario;
    let fit_rate = decode("v=1&preset=megatron-177b-h100")
        .scenario
        .llm_inputs();
    assert_eq!(fitted.llm_inputs().flops_per_gpu, fit_rate.flops_per_gpu);
    for (query, key) in [
        ("v=1&stack=deepspeed", "stack"),
        ("v=1&rinf=1.5", "rinf"),
        ("v=1&rinf=-0.1", "rinf"),
        ("v=1&cm=physx", "cm"),
        ("v=1&hres=-1", "hres"),
        ("v=1&hres=2T", "hres"),
        ("v=1&hres=lots", "hres"),
        ("v=1&cpm=ulysses", "cpm"),
    ] {
        let d = decode(query);
        assert_eq!(d.errors.len(), 1, "{query}: {:?}", d.errors);
        assert!(
            format!("{}", d.errors[0]).contains(&format!("({key})")),
            "{query}"
        );
    }
}

/// With compute from physics the own layout's recomputation is charged: `F_eff = r∞ · peak ·
/// η / r`, so every row's compute is `r` times the same layout's without recomputation (`η`
/// does not depend on it). By hand (Korthikanti et al. 2022, §5): full recomputation of all
/// of a stage's layers reruns the forward, `r = (6 + 2)/6 = 4/3`; of 8 of dense-8b's 32
/// layers (one stage), `r = 1 + (8/32)/3 = 13/12`.
#[test]
fn physics_charges_the_own_layouts_recomputation() {
    let compute = |q: &str| -> Vec<f64> {
        let d = decode(q);
        assert!(d.errors.is_empty(), "{q}: {:?}", d.errors);
        scaling_core::panel::Panel::compute(&d.scenario, scaling_core::scenario::View::Strong)
            .llm()
            .unwrap()
            .strong
            .iter()
            .map(|r| r.compute_ms)
            .collect()
    };
    let q = "v=1&preset=dense-8b-h100&cm=physics&em=fsdp&mbs=1";
    let none = compute(&format!("{q}&ac=none"));
    for (ac, r) in [("full&acn=0", 4.0 / 3.0), ("full&acn=8", 13.0 / 12.0)] {
        let with = compute(&format!("{q}&ac={ac}"));
        assert_eq!(with.len(), none.len());
        for (w, n) in with.iter().zip(&none) {
            assert!((w / n - r).abs() < 1e-12, "ac={ac}: {w} / {n} ≠ {r}");
        }
    }
}

/// The "why" of a slower layout gives the whole gap first, then the part that loses the most
/// and what the other parts add or give back: one part's excess alone read as the gap
/// ("TP traffic (+687.19 ms)" for a layout 121.44 ms behind).
#[test]
fn why_gives_the_whole_gap_then_the_part() {
    use scaling_core::i18n::{set_lang, Lang};
    use scaling_core::panel::layouts::why_text;
    let offset = Loss::Slower {
        part: TimePart::Tp,
        by_ms: 687.19,
        gap_ms: 121.44,
    };
    let added = Loss::Slower {
        part: TimePart::Bubble,
        by_ms: 80.0,
        gap_ms: 100.5,
    };
    let whole = Loss::Slower {
        part: TimePart::DataParallel,
        by_ms: 42.0,
        gap_ms: 42.0,
    };
    assert_eq!(
        why_text(&offset),
        "+121.44 ms: TP traffic +687.19 ms, the rest −565.75 ms"
    );
    assert_eq!(
        why_text(&added),
        "+100.5 ms: pipeline bubble +80 ms, the rest +20.5 ms"
    );
    assert_eq!(why_text(&whole), "+42 ms: exposed data-parallel traffic");
    set_lang(Lang::Zh);
    let zh = [why_text(&offset), why_text(&added), why_text(&whole)];
    set_lang(Lang::En);
    assert_eq!(zh[0], "慢 121.44 ms：TP 通信多 687.19 ms，其余少 565.75 ms");
    assert_eq!(zh[1], "慢 100.5 ms：流水线气泡多 80 ms，其余多 20.5 ms");
    assert_eq!(zh[2], "慢 42 ms：全在暴露的数据并行通信");
}

/// Every slower layout's gap is its step less the fastest's, on a published run's search.
#[test]
fn every_gap_is_the_step_difference() {
    let s = search(
        "v=1&preset=llama31-405b-h100",
        &SearchSpace::default(),
        8192.0,
    );
    let best = s.best().unwrap().step_ms;
    let mut slower = 0;
    for l in s.layouts.iter().filter(|l| l.fits) {
        if let Loss::Slower { gap_ms, by_ms, .. } = l.why {
            slower += 1;
            assert!((gap_ms - (l.step_ms - best)).abs() < 1e-9 * l.step_ms);
            assert!(by_ms > 0.0);
        }
    }
    assert!(slower > 1000, "{slower}");
}
