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
}

impl Preset {
    pub const ALL: [Preset; 7] = [
        Preset::Classroom,
        Preset::KarpFlatt,
        Preset::SeedStrong,
        Preset::SeedWeak,
        Preset::Dense8bH100,
        Preset::Moe47bH200,
        Preset::Megatron177bH100,
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
        }
        s
    }
}
