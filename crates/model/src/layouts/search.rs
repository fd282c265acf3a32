//! The ranking: the fastest fitting layout by branch and bound, and every layout ranked.

use super::*;

/// `a` before `b` in the ranking of [`rank`]: fitting first; among those, by step time, then
/// fewer GPUs per replica, then less memory; among the others, by memory.
fn ranks_before(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.fits.cmp(&a.fits).then_with(|| {
        if a.fits {
            a.step_ms
                .total_cmp(&b.step_ms)
                .then_with(|| a.choice.model_parallel().cmp(&b.choice.model_parallel()))
                .then_with(|| a.memory.total.total_cmp(&b.memory.total))
        } else {
            a.memory.total.total_cmp(&b.memory.total)
        }
    })
}

/// The fastest layout that fits at `gpus` and `batch` (`Ok(None)` when none fits), without
/// keeping the others: what the sweeps' "best layout" rows need. The same layout as the first
/// of [`Search::run`]'s ranking (exact ties: the first in [`enumerate`]'s order).
///
/// Best first, branch and bound: every group of layouts that differ only in ZeRO and
/// recomputation (`enumerate_groups`) gets a lower bound of its step
/// (`Scorer::group_bound_ms`); the groups are then scored in the order of their bounds, and
/// the search stops at the first whose bound is above the fastest step found. The fastest
/// layouts come first, so only a few groups are scored whole — their memory, traffic and
/// exposed time — and the bound is computed once per group, not per layout.
pub fn best_layout(
    inputs: &LlmInputs,
    space: &SearchSpace,
    gpus: f64,
    batch: f64,
) -> Result<Option<Scored>, SearchError> {
    let mut scorer = Scorer::new(inputs, gpus, batch)?;
    let walls = scorer.walls;
    let mut groups: Vec<(LayoutChoice, Shared)> = Vec::new();
    // (the bound's place in the total order of f64, the group's place in the enumeration):
    // integers, which sort fast.
    let mut order: Vec<Reverse<(i64, u32)>> = Vec::new();
    enumerate_groups(&walls, space, gpus, batch, &mut |g| {
        let (bound_ms, shared) = scorer.group_bound_ms(&g, space);
        order.push(Reverse((total_order_key(bound_ms), groups.len() as u32)));
        groups.push((g, shared));
    });
    if groups.is_empty() || space.zero_stages.is_empty() {
        return Err(SearchError::NoLayout { gpus });
    }
    // Only the groups up to the fastest step are taken out, in order: a heap (built in linear
    // time) rather than a sort of them all.
    let mut order = std::collections::BinaryHeap::from(order);
    // The fastest so far, with its group's place: of two layouts that rank alike, the one
    // [`enumerate`] visits first.
    let mut best: Option<(Scored, u32)> = None;
    while let Some(Reverse((bound_key, place))) = order.pop() {
        let best_ms = best.map_or(f64::INFINITY, |b| b.0.step_ms);
        // The slack of [`Scorer::score_below`]: rounding never stops the search at a tie.
        if bound_key > total_order_key(best_ms * (1.0 + 1e-12)) {
            break;
        }
        let (group, shared) = groups[place as usize];
        scorer.restore_shared(&group, shared);
        for_each_in_group(&walls, space, group, &mut |c| {
            let bound_ms = best.map_or(f64::INFINITY, |b| b.0.step_ms);
            if let Some(s) = scorer.score_below(c, bound_ms, true) {
                let before = best.is_none_or(|(b, b_place)| {
                    ranks_before(&s, &b).then(place.cmp(&b_place)).is_lt()
                });
                if before {
                    best = Some((s, place));
                }
            }
        });
    }
    Ok(best.map(|b| b.0))
}

/// `x`'s place in [`f64::total_cmp`]'s order, as an integer (the same mapping `total_cmp`
/// makes: negative values' other bits flipped).
pub(super) fn total_order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

/// Ranks scored layouts: those that fit by step time (ties: fewer GPUs per replica, then less
/// memory, then the enumeration order), then those that do not, by how much they are over. Each gets its
/// [`Loss`] against the fastest fitting layout.
pub fn rank(scored: &mut [Scored]) {
    // Unstable: smaller code for the page's wasm; exact ties keep no particular order.
    scored.sort_unstable_by(ranks_before);
    let best = scored.first().filter(|s| s.fits).map(|s| s.parts);
    for s in scored.iter_mut() {
        s.why = loss(s, best.as_ref());
    }
    if let Some(first) = scored.first_mut().filter(|s| s.fits) {
        first.why = Loss::Best;
    }
}

/// Why `s` loses against the fastest fitting layout's parts `best`.
fn loss(s: &Scored, best: Option<&StepParts>) -> Loss {
    if !s.fits {
        return Loss::DoesNotFit {
            over_bytes: s.over_bytes,
            part: MemoryPart::largest(&s.memory),
        };
    }
    let Some(b) = best else {
        return Loss::Best;
    };
    let gap_ms = s.step_ms - b.step_ms();
    if gap_ms <= 1e-9 * s.step_ms {
        return Loss::Tie;
    }
    let p = &s.parts;
    [
        (TimePart::Kernels, p.kernels_ms - b.kernels_ms),
        (TimePart::Stages, p.stages_ms - b.stages_ms),
        (TimePart::Recompute, p.recompute_ms - b.recompute_ms),
        (TimePart::Bubble, p.bubble_ms - b.bubble_ms),
        (
            TimePart::DataParallel,
            p.data_parallel_ms - b.data_parallel_ms,
        ),
        (TimePart::Tp, p.traffic.tp_ms - b.traffic.tp_ms),
        (TimePart::Cp, p.traffic.cp_ms - b.traffic.cp_ms),
        (TimePart::Ep, p.traffic.ep_ms - b.traffic.ep_ms),
        (TimePart::Pp, p.traffic.pp_ms - b.traffic.pp_ms),
        (TimePart::Optimizer, p.optimizer_ms - b.optimizer_ms),
        (
            TimePart::Offload,
            p.traffic.offload_ms - b.traffic.offload_ms,
        ),
    ]
    .into_iter()
    .fold(
        None,
        |best: Option<(TimePart, f64)>, (part, by)| match best {
            Some((_, b)) if b >= by => best,
            _ => Some((part, by)),
        },
    )
    .map_or(Loss::Best, |(part, by_ms)| Loss::Slower {
        part,
        by_ms,
        gap_ms,
    })
}

/// Every layout at one GPU count, ranked, and where the scenario's own layout stands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Search {
    pub gpus: f64,
    pub batch_tokens: f64,
    /// Ranked by [`rank`]: the fitting layouts by step time, then the others.
    pub layouts: Vec<Scored>,
    /// The scenario's own layout, scored the same way (also when the search space does not
    /// hold it, or it does not fit).
    pub current: Scored,
    /// Its place in [`Self::layouts`] (0 = the fastest), when the search space holds it.
    pub current_rank: Option<usize>,
}

impl Search {
    /// Searches every layout of `space` at `gpus` GPUs and batch `batch` tokens.
    pub fn run(
        inputs: &LlmInputs,
        space: &SearchSpace,
        gpus: f64,
        batch: f64,
    ) -> Result<Search, SearchError> {
        let mut scorer = Scorer::new(inputs, gpus, batch)?;
        let walls = scorer.walls;
        let mut layouts = Vec::new();
        enumerate(&walls, space, gpus, batch, &mut |c| {
            layouts.push(scorer.score(c))
        });
        if layouts.is_empty() {
            return Err(SearchError::NoLayout { gpus });
        }
        rank(&mut layouts);
        let own = current(inputs, &walls);
        let mut current = scorer.score(own);
        let best = layouts.first().filter(|s| s.fits).map(|s| s.parts);
        current.why = loss(&current, best.as_ref());
        let current_rank = layouts.iter().position(|s| s.choice == own);
        if current_rank == Some(0) {
            current.why = Loss::Best;
        }
        Ok(Search {
            gpus,
            batch_tokens: batch,
            layouts,
            current,
            current_rank,
        })
    }

    /// The fastest layout that fits, if any does.
    pub fn best(&self) -> Option<&Scored> {
        self.layouts.first().filter(|s| s.fits)
    }
}
