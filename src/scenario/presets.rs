//! Built-in scenarios, named in the URL (`preset=`) and on the CLI (`--preset`).
//!
//! Hardware figures and their sources (also in `docs/model.md`):
//! - NVIDIA H100 SXM and H200 SXM: 989 TFLOP/s dense BF16 (NVIDIA datasheets; the often quoted
//!   1,979 is with 2:4 sparsity). `F_eff = 400T` is ≈ 40% MFU, the range Meta reports for
//!   Llama 3 405B on H100 (38–43% BF16 MFU, "The Llama 3 Herd of Models", Table 4).
//! - 400 Gb/s InfiniBand NDR (one ConnectX-7 per GPU): 50 GB/s per GPU, so `B_eff = 50G`.
//!   NVLink 4 inside an HGX node: 900 GB/s bidirectional per GPU; NCCL bus bandwidth of
//!   ≈ 370–450 GB/s (MODEL.md §3) is what the NVLink lever uses.
//! - Llama 3 8B: 8.03B parameters, trained on ≈ 15T tokens. Mixtral 8x7B: 46.7B total,
//!   12.9B active parameters per token (Jiang et al. 2024).

use super::llm::{ComputeMode, ExposedMode};
use super::{Scenario, View};
use crate::i18n::tr;
use crate::model::measured::{MeasuredKind, MeasuredPoint};
use crate::text::pairs::parse_points;

/// A named scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// The teaching default: f = 5% (the seed's 20x ceiling) against 1%, 10%, 25%.
    Classroom,
    /// An illustrative strong-scaling measurement whose Karp–Flatt `e(N)` falls from `N = 2` to 4,
    /// then rises from 4 to 64.
    KarpFlatt,
    /// The seed's strong-scaling table (MODEL.md §6).
    SeedStrong,
    /// The seed's weak-scaling table: 1,024 → 4,096 GPUs at 31.25k tokens per GPU.
    SeedWeak,
    /// A dense 8B model (Llama-3-8B class) with FSDP over 400G InfiniBand on H100s.
    Dense8bH100,
    /// A 47B-total / 13B-active MoE (Mixtral-8x7B class) with FSDP over InfiniBand on H200s.
    Moe47bH200,
    /// A measured run: Megatron-Core's GPT 177B strong-scaling sweep on H100, 96 → 4,608 GPUs at
    /// a fixed global batch of 1,152 × 4,096 tokens, TP 8, PP 6 (NVIDIA/Megatron-LM README and
    /// its `images/strong_scaling.png`; step times from the published aggregate PFLOP/s as
    /// `6·177e9·4,718,592 / FLOP/s`, shared/data/published-runs.md §1). `em=fit` on the first
    /// and last points; the six between are predictions.
    Megatron177bH100,
    /// A measured run: MLPerf Training v3.1 GPT-3 175B on NVIDIA Eos (DGX H100, FP8, TP 4, PP 8;
    /// mlcommons/training_results_v3.1, shared/data/published-runs.md §2). The step time is
    /// `em=fit` on the two system sizes at GBS 2,048 (512 and 4,096 GPUs); `B_crit` is fitted to
    /// the published steps to the quality target at GBS 2,048 and 4,096 (docs/model.md §5.3);
    /// the Plan panel then shows weak scaling 4,096 → 8,192 GPUs as it happened.
    MlperfGpt3H100,
    /// Measured weak sweeps: NVIDIA DGX Cloud benchmarking recipes, GPT-3 175B on H100, TP 4,
    /// PP 8, VP 12, sequence 2,048, GBS = 2 × GPUs sequences, 128 → 2,048 GPUs, BF16 and FP8
    /// (NVIDIA/dgxc-benchmarking `nemo_megatron/README_175b.md`, docs/model.md §3.2(d)).
    /// `em=fit` with per-point batches on 128 and 2,048 GPUs; 256, 512, 1,024 are predictions.
    DgxcGpt3Bf16,
    DgxcGpt3Fp8,
}

impl Preset {
    pub const ALL: [Preset; 10] = [
        Preset::Classroom,
        Preset::KarpFlatt,
        Preset::SeedStrong,
        Preset::SeedWeak,
        Preset::Dense8bH100,
        Preset::Moe47bH200,
        Preset::Megatron177bH100,
        Preset::MlperfGpt3H100,
        Preset::DgxcGpt3Bf16,
        Preset::DgxcGpt3Fp8,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Classroom => "classroom",
            Preset::KarpFlatt => "karp-flatt",
            Preset::SeedStrong => "seed-strong",
            Preset::SeedWeak => "seed-weak",
            Preset::Dense8bH100 => "dense-8b-h100",
            Preset::Moe47bH200 => "moe-47b-h200",
            Preset::Megatron177bH100 => "megatron-177b-h100",
            Preset::MlperfGpt3H100 => "mlperf-gpt3-175b-h100",
            Preset::DgxcGpt3Bf16 => "dgxc-gpt3-175b-bf16",
            Preset::DgxcGpt3Fp8 => "dgxc-gpt3-175b-fp8",
        }
    }

    /// Where a measured preset's numbers come from (shown under its chart), in this thread's
    /// language; `None` for the illustrative ones.
    pub fn source(self) -> Option<&'static str> {
        match self {
            Preset::Megatron177bH100 => Some(tr(
                "NVIDIA/Megatron-LM README, strong scaling of GPT 177B on H100 (96 → 4,608 GPUs, \
                 batch 1,152 sequences, MFU 47% → 42%) and images/strong_scaling.png; step times \
                 = 6·177e9·4,718,592 tokens / published aggregate FLOP/s",
                "NVIDIA/Megatron-LM README 中 GPT 177B 在 H100 上的强扩展（96 → 4,608 卡，\
                 batch 1,152 条序列，MFU 47% → 42%）及 images/strong_scaling.png；step time \
                 = 6·177e9·4,718,592 tokens / 公布的总 FLOP/s",
            )),
            Preset::MlperfGpt3H100 => Some(tr(
                "mlcommons/training_results_v3.1, NVIDIA Eos GPT-3 175B (H100, FP8, TP 4, PP 8): \
                 step 11.051 s on 512 GPUs, 1.609 s on 4,096 at GBS 2,048; steps to the target 288 \
                 at GBS 2,048, 200 at 3,072, 156 to 162 at 4,096 (±4%). Measured 4,096 → 8,192 \
                 GPUs: 99.4% weak efficiency, run 1.74x faster",
                "mlcommons/training_results_v3.1，NVIDIA Eos 上的 GPT-3 175B（H100，FP8，TP 4，PP 8）：\
                 GBS 2,048 时 512 卡 step 11.051 s、4,096 卡 1.609 s；达标步数 GBS 2,048 为 288，\
                 3,072 为 200，4,096 为 156 至 162（±4%）。实测 4,096 → 8,192 卡：弱扩展效率 \
                 99.4%，整个训练只快 1.74 倍",
            )),
            Preset::DgxcGpt3Bf16 | Preset::DgxcGpt3Fp8 => Some(tr(
                "NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md (v25.03): GPT-3 175B on \
                 H100, TP 4, PP 8, VP 12, GBS = 2 × GPUs sequences of 2,048 tokens; its step times \
                 are the measured points of the fit table",
                "NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md（v25.03）：H100 上的 \
                 GPT-3 175B，TP 4，PP 8，VP 12，GBS = 2 × 卡数 条 2,048 tokens 的序列；\
                 其 step time 即拟合表中的实测点",
            )),
            _ => None,
        }
    }

    /// One line for the preset menu and `scaling presets`, in this thread's language.
    pub fn description(self) -> &'static str {
        match self {
            Preset::Classroom => tr(
                "Amdahl vs Gustafson at f = 5% (ceiling 20x), compared with 1%, 10%, 25%",
                "f = 5% 时的 Amdahl 与 Gustafson（上限 20 倍），对比 1%、10%、25%",
            ),
            Preset::KarpFlatt => tr(
                "Illustrative measured run times on 1–64 processors; Karp–Flatt e(N) falls from N = 2 to 4, then rises from 4 to 64",
                "1–64 个处理器上的示意实测运行时间；Karp–Flatt e(N) 从 N = 2 到 4 下降，再从 4 到 64 上升",
            ),
            Preset::SeedStrong => tr(
                "The article's strong-scaling table: 32M tokens on 1,024 → 16,384 GPUs",
                "原文的强扩展表格：32M tokens，1,024 → 16,384 卡",
            ),
            Preset::SeedWeak => tr(
                "The article's weak-scaling table: 31.25k tokens per GPU, 1,024 → 4,096 GPUs",
                "原文的弱扩展表格：每卡 31.25k tokens，1,024 → 4,096 卡",
            ),
            Preset::Dense8bH100 => tr(
                "Dense 8B, FSDP over 400G InfiniBand on H100 (400 TFLOP/s achieved), 4M-token batch",
                "稠密 8B，H100 上经 400G InfiniBand 做 FSDP（实际 400 TFLOP/s），batch 4M tokens",
            ),
            Preset::Moe47bH200 => tr(
                "MoE 47B total / 13B active, FSDP over InfiniBand on H200, 8M-token batch",
                "MoE 总参数 47B / 激活 13B，H200 上经 InfiniBand 做 FSDP，batch 8M tokens",
            ),
            Preset::Megatron177bH100 => tr(
                "Measured: Megatron-Core GPT 177B on H100, 96 → 4,608 GPUs at a fixed batch; fit on 2 points, 6 predicted",
                "实测：Megatron-Core GPT 177B，H100，固定 batch 下 96 → 4,608 卡；用 2 个点拟合，预测 6 个",
            ),
            Preset::MlperfGpt3H100 => tr(
                "Measured: MLPerf v3.1 GPT-3 175B, H100: weak scaling 4,096 → 8,192 GPUs keeps the step time, not the steps to the target",
                "实测：MLPerf v3.1 GPT-3 175B，H100，弱扩展 4,096 → 8,192 卡保住了 step time，却保不住达标步数；B_crit 按公布的步数拟合",
            ),
            Preset::DgxcGpt3Bf16 => tr(
                "Measured: DGX Cloud GPT-3 175B, H100 BF16, weak 128 → 2,048 GPUs; fit on 128 and 2,048, 3 predicted",
                "实测：DGX Cloud GPT-3 175B，H100 BF16，弱扩展 128 → 2,048 卡；用 128 和 2,048 拟合，预测 3 个",
            ),
            Preset::DgxcGpt3Fp8 => tr(
                "Measured: the same in FP8: faster compute, more exposed; fit on 128 and 2,048, 3 predicted",
                "实测：同一模型的 FP8：计算更快，暴露更多；用 128 和 2,048 拟合，预测 3 个",
            ),
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// The scenario the preset stands for (its `preset` field set to itself).
    pub fn scenario(self) -> Scenario {
        let mut s = Scenario {
            preset: Some(self),
            ..Scenario::default()
        };
        match self {
            Preset::Classroom => {}
            Preset::KarpFlatt => {
                s.laws.serial_fraction = 0.02;
                s.laws.compare_fractions = vec![];
                s.laws.max_processors = 256;
                s.laws.measured_kind = MeasuredKind::Time;
                s.laws.measured = parse_points("1:1000, 2:515, 4:270, 8:150, 16:92, 32:64, 64:52")
                    .unwrap_or_default();
            }
            Preset::SeedStrong => s.view = View::Strong,
            Preset::SeedWeak => {
                s.view = View::Weak;
                s.llm.gpus = vec![1024.0, 4096.0];
            }
            Preset::Dense8bH100 => {
                s.view = View::Strong;
                let l = &mut s.llm;
                l.global_batch_tokens = 4e6;
                l.total_params = 8.03e9;
                l.active_params = 8.03e9;
                l.flops_per_gpu = 400e12;
                l.bus_bytes_per_s = 50e9;
                l.compute_mode = ComputeMode::Flops;
                l.exposed_mode = ExposedMode::Fsdp;
                l.fixed_ms = 20.0;
                l.baseline_gpus = 64.0;
                l.gpus = vec![64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0];
                l.token_budget = 15e12;
            }
            Preset::Moe47bH200 => {
                s.view = View::Strong;
                let l = &mut s.llm;
                l.global_batch_tokens = 8e6;
                l.total_params = 46.7e9;
                l.active_params = 12.9e9;
                l.flops_per_gpu = 400e12;
                l.bus_bytes_per_s = 50e9;
                l.compute_mode = ComputeMode::Flops;
                l.exposed_mode = ExposedMode::Fsdp;
                l.fixed_ms = 40.0;
                l.baseline_gpus = 32.0;
                l.gpus = vec![32.0, 64.0, 128.0, 256.0, 512.0, 1024.0];
                l.token_budget = 2e12;
            }
            Preset::Megatron177bH100 => {
                s.view = View::Strong;
                let l = &mut s.llm;
                // GBS 1,152 sequences of 4,096 tokens; TP 8 × PP 6 = 48 GPUs per replica.
                l.global_batch_tokens = 1152.0 * 4096.0;
                l.tp = 8;
                l.pp = 6;
                l.total_params = 177e9;
                l.active_params = 177e9;
                l.baseline_gpus = 96.0;
                l.gpus = vec![96.0, 144.0, 288.0, 576.0, 1152.0, 2304.0, 3072.0, 4608.0];
                l.exposed_mode = ExposedMode::Fit;
                // Seconds per step = 6·177e9·4,718,592 / (aggregate PFLOP/s · 1e15), from the
                // published 44.5, 66.6, 132.4, 263.0, 517.5, 1,003.9, 1,307.9, 1,912.5 PFLOP/s.
                l.step_table = [
                    (96.0, 112_610.0),
                    (144.0, 75_240.0),
                    (288.0, 37_850.0),
                    (576.0, 19_050.0),
                    (1152.0, 9_683.0),
                    (2304.0, 4_992.0),
                    (3072.0, 3_831.0),
                    (4608.0, 2_620.0),
                ]
                .iter()
                .map(|&(processors, value)| MeasuredPoint { processors, value })
                .collect();
                l.fit_on = vec![96.0, 4608.0];
                l.peak_flops_per_gpu = 989e12;
            }
            Preset::MlperfGpt3H100 => {
                s.view = View::Plan;
                let l = &mut s.llm;
                // GBS 2,048 sequences of 2,048 tokens at 4,096 GPUs: 1,024 tokens per GPU, and
                // 32,768 per replica (TP 4 × PP 8 = 32 GPUs share one replica's tokens).
                l.global_batch_tokens = 2048.0 * 2048.0;
                l.tp = 4;
                l.pp = 8;
                l.total_params = 175e9;
                l.active_params = 175e9;
                l.baseline_gpus = 4096.0;
                // Weak scaling at 1,024 tokens per GPU: the published GBS 2,048, 3,072, 4,096.
                l.gpus = vec![4096.0, 6144.0, 8192.0];
                l.exposed_mode = ExposedMode::Fit;
                // The two published system sizes at GBS 2,048: 512 and 4,096 GPUs.
                l.step_table = vec![
                    MeasuredPoint {
                        processors: 512.0,
                        value: 11_051.0,
                    },
                    MeasuredPoint {
                        processors: 4096.0,
                        value: 1_609.0,
                    },
                ];
                // FP8 dense.
                l.peak_flops_per_gpu = 1979e12;
                // 1.208e9 tokens (288 steps) to the target at GBS 2,048; B_crit from that and
                // GBS 4,096's 1.309 to 1.359e9 (docs/model.md §5.3).
                l.token_budget = 1.208e9;
                s.plan.critical_batch_tokens = 36e6;
            }
            Preset::DgxcGpt3Bf16 | Preset::DgxcGpt3Fp8 => {
                s.view = View::Weak;
                let l = &mut s.llm;
                // GBS 256 sequences of 2,048 tokens at 128 GPUs; TP 4 × PP 8 = 32 GPUs per
                // replica, micro-batch 1: 4 replicas × 64 microbatches of 2,048 tokens.
                l.global_batch_tokens = 256.0 * 2048.0;
                l.accumulation = 64;
                l.tp = 4;
                l.pp = 8;
                l.total_params = 175e9;
                l.active_params = 175e9;
                l.baseline_gpus = 128.0;
                l.gpus = vec![128.0, 256.0, 512.0, 1024.0, 2048.0];
                l.exposed_mode = ExposedMode::Fit;
                let fp8 = self == Preset::DgxcGpt3Fp8;
                let steps = if fp8 {
                    [5_626.0, 5_725.0, 5_774.0, 5_820.0, 5_960.0]
                } else {
                    [8_309.0, 8_408.0, 8_420.0, 8_453.0, 8_490.0]
                };
                // GBS = 2 × GPUs sequences of 2,048 tokens: 4,096 tokens per GPU.
                l.step_table = l
                    .gpus
                    .iter()
                    .zip(steps)
                    .map(|(&processors, value)| MeasuredPoint { processors, value })
                    .collect();
                l.step_batches = l.gpus.iter().map(|n| Some(n * 4096.0)).collect();
                l.fit_on = vec![128.0, 2048.0];
                l.peak_flops_per_gpu = if fp8 { 1979e12 } else { 989e12 };
            }
        }
        s
    }
}
