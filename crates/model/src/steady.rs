//! A training log's step times reduced to one steady-state step time: which records are used,
//! their median and their spread. The log readers (`scaling_core::scenario::import::log`)
//! turn a log's lines into [`StepRecord`]s; this module sees numbers only.
//!
//! A record is one step, or the mean over a window of steps (Megatron-LM prints the mean over
//! `--log-interval` iterations; MLPerf's NeMo callback one per 32 steps). The first
//! [`WARMUP_STEPS`] steps of a run are not steady: they carry compilation (`torch.compile`,
//! CUDA graphs), the allocator's first growth, NCCL's communicator set-up and the first data
//! loads (torchtitan's step 1 runs at 4% of its later rate; Megatron-LM's iteration 1 is 29×
//! the median in `../shared/fixtures/logs`). A record whose window reaches into them is left
//! out. What remains is summarised by the median, not the mean, because a log's slow records
//! are real but not the steady state: an evaluation or a checkpoint save inside a window, a
//! garbage-collection stall (Megatron-Bridge's iteration 10 takes 20× the median). The
//! spread is the middle half (first to third quartile, Hyndman & Fan 1996, definition 7,
//! the default of R and NumPy), and records over [`SLOW_FACTOR`] × the median are counted.

use serde::Serialize;

/// Steps at the start of a run that are warm-up, not steady state: the first two. One is not
/// enough (torchtitan's step 2 and Megatron-LM's iteration 2 are still 1.7× the median in the
/// fixtures); the third step is steady in every log of `../shared/fixtures/logs`.
pub const WARMUP_STEPS: u64 = 2;

/// A record this many times the median is reported as slow (an evaluation, a save, a stall).
pub const SLOW_FACTOR: f64 = 1.5;

/// One step-time record of a log.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct StepRecord {
    /// The first step its time covers, counted from 1.
    pub first_step: u64,
    /// The last step it covers (= `first_step` for one step).
    pub last_step: u64,
    /// Milliseconds per step: the step's time, or the window's mean.
    pub step_ms: f64,
}

/// The steady-state step time of a log.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Steady {
    /// The median of the records used, ms.
    pub median_ms: f64,
    /// First and third quartiles of the records used, ms.
    pub quartiles_ms: (f64, f64),
    /// The records used: their indices in the input.
    pub used: Vec<usize>,
    /// Records left out as warm-up (their window reaches step [`WARMUP_STEPS`] or earlier).
    pub warmup: usize,
    /// Indices (in the input) of the used records over [`SLOW_FACTOR`] × the median.
    pub slow: Vec<usize>,
}

/// Why no steady step time can be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SteadyError {
    /// The log has no step-time record.
    NoRecords,
    /// Every record is warm-up: the log ends at this step.
    OnlyWarmup { last_step: u64 },
}

/// The steady state of `records`: those whose window starts after [`WARMUP_STEPS`], their
/// median and quartiles (definition 7: the `q·(n−1)`-th order statistic, interpolated), and
/// which are slow. Records with a step time that is not finite and positive are dropped by the
/// readers before they get here; this function does not check.
pub fn steady(records: &[StepRecord]) -> Result<Steady, SteadyError> {
    let last_step = records
        .iter()
        .map(|r| r.last_step)
        .max()
        .ok_or(SteadyError::NoRecords)?;
    let used: Vec<usize> = (0..records.len())
        .filter(|&i| records[i].first_step > WARMUP_STEPS)
        .collect();
    if used.is_empty() {
        return Err(SteadyError::OnlyWarmup { last_step });
    }
    let mut times: Vec<f64> = used.iter().map(|&i| records[i].step_ms).collect();
    times.sort_by(f64::total_cmp);
    let median_ms = quantile(&times, 0.5);
    let slow = used
        .iter()
        .copied()
        .filter(|&i| records[i].step_ms > SLOW_FACTOR * median_ms)
        .collect();
    Ok(Steady {
        median_ms,
        quartiles_ms: (quantile(&times, 0.25), quantile(&times, 0.75)),
        warmup: records.len() - used.len(),
        used,
        slow,
    })
}

/// The `q`-quantile of `sorted` (ascending, not empty) by Hyndman & Fan's definition 7:
/// `h = (n−1)·q`, then `x⌊h⌋ + (h − ⌊h⌋)·(x⌊h⌋+1 − x⌊h⌋)`.
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    let low = h.floor() as usize;
    let high = (low + 1).min(sorted.len() - 1);
    sorted[low] + (h - low as f64) * (sorted[high] - sorted[low])
}
