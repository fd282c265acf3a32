//! The layouts of the search space, in a fixed order, and their groups.

use super::*;

/// The partial counts the search tries on a stage of `stage_layers` layers, of layers
/// recomputed and of layers offloaded to host memory: a quarter, half and three quarters of
/// them (rounded up), each at least one and short of all.
pub(super) fn partial_recompute_layers(stage_layers: u32) -> impl Iterator<Item = u32> {
    let mut last = 0;
    [1, 2, 3].into_iter().filter_map(move |q| {
        let k = (q * stage_layers).div_ceil(4);
        let new = k > last && k < stage_layers;
        last = k;
        new.then_some(k)
    })
}

/// How many layers the pipeline stages may be short of `⌈L/PP⌉ · PP` in all.
pub const MAX_SHORT_LAYERS: f64 = 2.0;

/// Powers of two from 1 to `max`.
pub(super) fn powers_of_two(max: f64) -> impl Iterator<Item = u32> {
    (0..31)
        .map(|i| 1u32 << i)
        .take_while(move |&v| v as f64 <= max)
}

/// The recomputations the search tries: with flash attention selective keeps what none keeps,
/// at the same cost, so only none and full.
pub(super) fn recomputes(walls: &Walls) -> &'static [Recompute] {
    if walls.memory.activations.flash_attention {
        &[Recompute::None, Recompute::Full]
    } else {
        &[Recompute::None, Recompute::Selective, Recompute::Full]
    }
}

/// Every layout of `space` for `walls`'s shape at `gpus` GPUs and batch `batch` tokens, in a
/// fixed order (TP, PP, CP, EP, microbatch, schedule, ZeRO, recomputation).
pub fn enumerate(
    walls: &Walls,
    space: &SearchSpace,
    gpus: f64,
    batch: f64,
    visit: &mut dyn FnMut(LayoutChoice),
) {
    enumerate_groups(walls, space, gpus, batch, &mut |group| {
        for_each_in_group(walls, space, group, &mut *visit)
    });
}

/// The layouts of one group ([`enumerate_groups`]): its ZeRO stages and recomputations, in
/// the order of [`enumerate`].
pub(super) fn for_each_in_group(
    walls: &Walls,
    space: &SearchSpace,
    group: LayoutChoice,
    visit: &mut dyn FnMut(LayoutChoice),
) {
    let stage_layers = walls.shape.layers_per_stage(group.pp) as u32;
    for &zero in &space.zero_stages {
        for &recompute in recomputes(walls) {
            visit(LayoutChoice {
                zero,
                recompute,
                recompute_layers: 0,
                offload_layers: 0,
                ..group
            });
            if space.offload
                && recompute == Recompute::None
                && group.pp == 1
                && walls.host_bytes_per_s > 0.0
            {
                for k in partial_recompute_layers(stage_layers) {
                    visit(LayoutChoice {
                        zero,
                        recompute,
                        recompute_layers: 0,
                        offload_layers: k,
                        ..group
                    });
                }
            }
            if recompute == Recompute::Full && space.partial_recompute {
                for k in partial_recompute_layers(stage_layers) {
                    visit(LayoutChoice {
                        zero,
                        recompute,
                        recompute_layers: k,
                        ..group
                    });
                }
            }
        }
    }
}

/// The groups of [`enumerate`]: every `(TP, PP, CP, EP, microbatch, schedule)` in its order,
/// with ZeRO 0 and no recomputation standing for the layouts that differ from it only in those
/// two ([`for_each_in_group`]). A group shares its compute and bubble but for the
/// recomputation's factor, which is what [`best_layout`] bounds.
pub(super) fn enumerate_groups(
    walls: &Walls,
    space: &SearchSpace,
    gpus: f64,
    batch: f64,
    // `dyn`: one copy of the loops for every caller (the page's wasm is size-budgeted).
    visit: &mut dyn FnMut(LayoutChoice),
) {
    let s = walls.shape;
    let divides = |n: f64, d: u32| n > 0.0 && n % d as f64 == 0.0;
    // TP up to one doubling past the NVLink domain, so that the explorer can show why it loses.
    let max_tp = 2.0 * space.nvlink_domain_gpus as f64;
    for tp in powers_of_two(max_tp).filter(|&t| divides(s.heads, t)) {
        // Stages as equal as real runs make them: at most two layers short in all (Llama 3
        // 405B: 126 layers on 16 stages of 8, the first and last one short).
        // PP: the divisors of L (Megatron's 177B on 6 stages) and the powers of two, whose
        // stages are at most two layers short in all.
        for pp in (1..=s.layers as u32)
            .filter(|&p| s.layers % p as f64 == 0.0 || p.is_power_of_two())
            .filter(|&p| s.layers_per_stage(p) * p as f64 - s.layers <= MAX_SHORT_LAYERS)
        {
            let stage_layers = s.layers_per_stage(pp) as u32;
            let mut schedules = vec![(PipelineSchedule::OneFOneB, 1)];
            if pp > 1 {
                schedules.extend(
                    space
                        .interleaved_chunks
                        .iter()
                        .filter(|&&v| v > 1 && stage_layers.is_multiple_of(v))
                        .map(|&v| (PipelineSchedule::Interleaved, v)),
                );
                if space.zero_bubble {
                    schedules.push((PipelineSchedule::ZeroBubble, 1));
                }
            }
            for cp in powers_of_two(space.max_cp as f64).filter(|&c| divides(s.seq_len, c)) {
                // In f64: a shared link's TP, PP and CP can each be near u32's top.
                let m = tp as f64 * pp as f64 * cp as f64;
                let dp = gpus / m;
                if dp < 1.0 || dp.fract() != 0.0 || dp * s.seq_len > batch {
                    continue;
                }
                // EP over the data-parallel ranks with the experts split as TP splits the
                // dense layers; with whole experts (ETP 1, at TP > 1) over TP·D, folded over
                // the TP ranks as Megatron-Core folds it.
                let mut eps = Vec::new();
                if s.is_moe() {
                    for expert_tp in if tp > 1 { &[0, 1][..] } else { &[0][..] } {
                        let ranks = if *expert_tp == 1 { dp * tp as f64 } else { dp };
                        eps.extend(
                            powers_of_two(s.experts)
                                .filter(|&e| divides(s.experts, e) && divides(ranks, e))
                                .map(|e| (e, *expert_tp)),
                        );
                    }
                } else {
                    eps.push((1, 0));
                }
                for &(ep, expert_tp) in &eps {
                    for &mbs in &space.microbatch_sequences {
                        // A microbatch larger than a replica's share of the batch is the
                        // same as the share: keep the first such size only.
                        if mbs > 1 && dp * s.seq_len * (mbs / 2) as f64 >= batch {
                            continue;
                        }
                        for &(schedule, chunks) in &schedules {
                            visit(LayoutChoice {
                                tp,
                                pp,
                                cp,
                                ep,
                                expert_tp,
                                microbatch_sequences: mbs,
                                schedule,
                                chunks,
                                zero: 0,
                                recompute: Recompute::None,
                                recompute_layers: 0,
                                offload_layers: 0,
                            });
                        }
                    }
                }
            }
        }
    }
}
