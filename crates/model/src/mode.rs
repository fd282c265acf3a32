//! Which kind of scaling a reported result is (the article's "报告扩容结果时应该说清楚的事":
//! what was held fixed, and whether the parallel layout changed). Strong scaling holds the
//! global batch; weak scaling holds the tokens per replica `T = B/D`, `D = N/M`; a sweep
//! that changes its layout (`M = TP·PP·CP`, or EP) or holds neither is mixed, and no single
//! efficiency of it means strong or weak.

/// One end of a reported sweep.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReportedRun {
    pub gpus: f64,
    pub global_batch_tokens: f64,
    /// `M = TP·PP·CP`, the GPUs of one replica.
    pub model_parallel: f64,
    pub expert_parallel: f64,
}

impl ReportedRun {
    /// `T = B/D = B·M/N`, tokens per replica per step.
    pub fn tokens_per_replica(&self) -> f64 {
        self.global_batch_tokens * self.model_parallel / self.gpus
    }
}

/// The kind of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalingMode {
    Strong,
    Weak,
    Mixed,
}

/// The kind of the sweep from `first` to `last`: the same layout and the same global batch is
/// strong; the same layout and the same tokens per replica is weak; anything else is mixed
/// (equal within a relative `1e-9`).
pub fn scaling_mode(first: &ReportedRun, last: &ReportedRun) -> ScalingMode {
    let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
    let same_layout = same(first.model_parallel, last.model_parallel)
        && same(first.expert_parallel, last.expert_parallel);
    if !same_layout {
        ScalingMode::Mixed
    } else if same(first.global_batch_tokens, last.global_batch_tokens) {
        ScalingMode::Strong
    } else if same(first.tokens_per_replica(), last.tokens_per_replica()) {
        ScalingMode::Weak
    } else {
        ScalingMode::Mixed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(gpus: f64, batch: f64, m: f64) -> ReportedRun {
        ReportedRun {
            gpus,
            global_batch_tokens: batch,
            model_parallel: m,
            expert_parallel: 1.0,
        }
    }

    #[test]
    fn what_is_held_names_the_kind() {
        // The seed's tables: 32M on 1,024 and 4,096 GPUs is strong; 31.25k per GPU, 32M → 128M,
        // is weak.
        assert_eq!(
            scaling_mode(&run(1024.0, 32e6, 1.0), &run(4096.0, 32e6, 1.0)),
            ScalingMode::Strong
        );
        assert_eq!(
            scaling_mode(&run(1024.0, 32e6, 1.0), &run(4096.0, 128e6, 1.0)),
            ScalingMode::Weak
        );
        // T = 4M·32/1,024 = 131,072 → 16M·64/4,096 = 262,144 and M 32 → 64: mixed twice over.
        assert_eq!(
            scaling_mode(&run(1024.0, 4e6, 32.0), &run(4096.0, 16e6, 64.0)),
            ScalingMode::Mixed
        );
        // The same batch with a new layout is mixed, not strong.
        assert_eq!(
            scaling_mode(&run(1024.0, 32e6, 8.0), &run(4096.0, 32e6, 16.0)),
            ScalingMode::Mixed
        );
        // Neither held: 32M → 64M on 4× the GPUs.
        assert_eq!(
            scaling_mode(&run(1024.0, 32e6, 1.0), &run(4096.0, 64e6, 1.0)),
            ScalingMode::Mixed
        );
        // T = B·M/N: 4,194,304 · 32 / 1,024 = 131,072 tokens per replica.
        assert_eq!(
            run(1024.0, 4_194_304.0, 32.0).tokens_per_replica(),
            131_072.0
        );
        // Equal within rounding (a batch written 32M and 32e6·(1 + 10⁻¹²)) is held.
        assert_eq!(
            scaling_mode(
                &run(1024.0, 32e6, 1.0),
                &run(4096.0, 32e6 * (1.0 + 1e-12), 1.0)
            ),
            ScalingMode::Strong
        );
        let mut ep = run(4096.0, 32e6, 1.0);
        ep.expert_parallel = 8.0;
        assert_eq!(
            scaling_mode(&run(1024.0, 32e6, 1.0), &ep),
            ScalingMode::Mixed
        );
    }
}
