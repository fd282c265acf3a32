//! Built-in scenarios, named in the URL (`preset=`) and on the CLI (`--preset`): one row of
//! [`PRESETS`] each — its name, the panel it opens on, its one-line description, where its
//! numbers come from and its inputs. The page's menu, `scaling presets`, the browser fuzzer's
//! list (`scripts/fuzz-urls.mjs` reads this file), the CLI snapshot test and the docs' lists
//! (`tests/core/registry.rs`) all follow the table: adding a preset is adding a row.
//!
//! Hardware figures and their sources (also in `docs/model/06-presets.md`):
//! - NVIDIA H100 SXM and H200 SXM: 989 TFLOP/s dense BF16 (NVIDIA datasheets; the often quoted
//!   1,979 is with 2:4 sparsity). `F_eff = 400T` is ≈ 40% MFU, the range Meta reports for
//!   Llama 3 405B on H100 (38–43% BF16 MFU, "The Llama 3 Herd of Models", Table 4).
//! - 400 Gb/s InfiniBand NDR (one ConnectX-7 per GPU): 50 GB/s per GPU, so `B_eff = 50G`.
//!   NVLink 4 inside an HGX node: 900 GB/s bidirectional per GPU; NCCL bus bandwidth of
//!   ≈ 370–450 GB/s (MODEL.md §3) is what the NVLink lever uses.
//! - Llama 3 8B: 8.03B parameters, trained on ≈ 15T tokens. Mixtral 8x7B: 46.7B total,
//!   12.9B active parameters per token (Jiang et al. 2024).

use super::llm::LlmSettings;
use super::llm::{ComputeMode, ExposedMode};
use super::walls::WallSettings;
use super::{Scenario, View};
use crate::i18n::tr;
use crate::model::measured::{MeasuredKind, MeasuredPoint};
use crate::model::memory::Recompute;
use crate::model::step::PipelineSchedule;
use crate::model::walls::CpOverlap;
use crate::text::pairs::parse_points;

/// A built-in scenario: everything about it in one row.
#[derive(Debug)]
pub struct PresetSpec {
    /// The name in the URL (`preset=`), on the CLI (`--preset`) and in the menu.
    pub name: &'static str,
    /// The panel a link with only `preset=` opens on.
    pub view: View,
    /// One line for the preset menu and `scaling presets`, in the thread's language.
    pub description: fn() -> &'static str,
    /// Where a measured preset's numbers come from (shown under its chart), in the thread's
    /// language; `None` for the illustrative ones.
    pub source: Option<fn() -> &'static str>,
    /// Its inputs, written over the defaults.
    pub inputs: fn(&mut Scenario),
}

/// Every preset, in menu order.
pub const PRESETS: [PresetSpec; 15] = [
    PresetSpec {
        // The teaching default: f = 5% (the seed's 20x ceiling) against 1%, 10%, 25%.
        name: "classroom",
        view: View::Laws,
        description: || {
            tr(
                "Amdahl vs Gustafson at f = 5% (ceiling 20x), compared with 1%, 10%, 25%",
                "f = 5% 时的 Amdahl 与 Gustafson（上限 20 倍），对比 1%、10%、25%",
            )
        },
        source: None,
        inputs: |_| {},
    },
    PresetSpec {
        // An illustrative strong-scaling measurement whose Karp–Flatt `e(N)` falls from
        // `N = 2` to 4, then rises from 4 to 64.
        name: "karp-flatt",
        view: View::Laws,
        description: || {
            tr(
                "Illustrative measured run times on 1–64 processors; Karp–Flatt e(N) falls from N = 2 to 4, then rises from 4 to 64",
                "1–64 个处理器上的示意实测运行时间；Karp–Flatt e(N) 从 N = 2 到 4 下降，再从 4 到 64 上升",
            )
        },
        source: None,
        inputs: |s| {
            s.laws.serial_fraction = 0.02;
            s.laws.compare_fractions = vec![];
            s.laws.max_processors = 256;
            s.laws.measured_kind = MeasuredKind::Time;
            s.laws.measured = parse_points("1:1000, 2:515, 4:270, 8:150, 16:92, 32:64, 64:52")
                .unwrap_or_default();
        },
    },
    PresetSpec {
        // The seed's strong-scaling table (MODEL.md §6): the defaults.
        name: "seed-strong",
        view: View::Strong,
        description: || {
            tr(
                "The article's strong-scaling table: 32M tokens on 1,024 → 16,384 GPUs",
                "原文的强扩展表格：32M tokens，1,024 → 16,384 卡",
            )
        },
        source: None,
        inputs: |_| {},
    },
    PresetSpec {
        // The seed's weak-scaling table: 1,024 → 4,096 GPUs at 31.25k tokens per GPU.
        name: "seed-weak",
        view: View::Weak,
        description: || {
            tr(
                "The article's weak-scaling table: 31.25k tokens per GPU, 1,024 → 4,096 GPUs",
                "原文的弱扩展表格：每卡 31.25k tokens，1,024 → 4,096 卡",
            )
        },
        source: None,
        inputs: |s| s.llm.gpus = vec![1024.0, 4096.0],
    },
    PresetSpec {
        // A dense 8B model (Llama-3-8B class) with FSDP over 400G InfiniBand on H100s.
        name: "dense-8b-h100",
        view: View::Strong,
        description: || {
            tr(
                "Dense 8B, FSDP over 400G InfiniBand on H100 (400 TFLOP/s achieved), 4M-token batch",
                "稠密 8B，H100 上经 400G InfiniBand 做 FSDP（实际 400 TFLOP/s），batch 4M tokens",
            )
        },
        source: None,
        inputs: |s| {
            let l = &mut s.llm;
            l.global_batch_tokens = 4e6;
            l.total_params = 8.03e9;
            l.active_params = 8.03e9;
            fsdp_on_infiniband(l);
            l.fixed_ms = 20.0;
            l.baseline_gpus = 64.0;
            l.gpus = vec![64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0];
            l.token_budget = 15e12;
            // Llama 3.1 8B's shape. With A = 1 a replica's whole share of the batch (62,500
            // tokens at 64 GPUs) is one microbatch: only full recomputation keeps it in 80 GiB.
            llama31_shape(&mut l.walls, 32.0, 4096.0, 32.0, 14336.0);
            l.walls.recompute = Recompute::Full;
        },
    },
    PresetSpec {
        // A 47B-total / 13B-active MoE (Mixtral-8x7B class) with FSDP over InfiniBand on H200s.
        name: "moe-47b-h200",
        view: View::Strong,
        description: || {
            tr(
                "MoE 47B total / 13B active, FSDP over InfiniBand on H200, 8M-token batch",
                "MoE 总参数 47B / 激活 13B，H200 上经 InfiniBand 做 FSDP，batch 8M tokens",
            )
        },
        source: None,
        inputs: |s| {
            let l = &mut s.llm;
            l.global_batch_tokens = 8e6;
            l.total_params = 46.7e9;
            l.active_params = 12.9e9;
            fsdp_on_infiniband(l);
            l.fixed_ms = 40.0;
            l.baseline_gpus = 32.0;
            l.gpus = vec![32.0, 64.0, 128.0, 256.0, 512.0, 1024.0];
            l.token_budget = 2e12;
            // Mixtral 8x7B's shape on a 141 GB H200, 4,096-token sequences; as dense-8b-h100,
            // A = 1 needs full recomputation to fit at 32 GPUs.
            mixtral_shape(&mut l.walls);
            l.walls.seq_len = 4096.0;
            l.walls.recompute = Recompute::Full;
            l.walls.hbm_bytes = 141e9;
        },
    },
    PresetSpec {
        // The MoE walls from the model's shape: Mixtral 8x7B (Jiang et al. 2024: 32 layers,
        // h = 4,096, 32 heads, 8 KV heads, 8 experts of FFN 14,336, top 2, vocabulary 32,000)
        // with EP 8 inside the node, ZeRO-1, at a fixed 4M-token batch of 4,096-token
        // sequences, 64 → 512 GPUs: tokens per expert fall with T, the experts' GEMMs shrink,
        // the all-to-alls stay exposed. F_eff is an assumption.
        name: "mixtral-8x7b-walls",
        view: View::Strong,
        description: || {
            tr(
                "Mixtral 8x7B, H100, EP 8 at a fixed 4M-token batch, 64 → 512 GPUs: tokens per expert, expert all-to-alls and memory from the model's shape",
                "Mixtral 8x7B，H100，EP 8，固定 4M tokens 的 batch，64 → 512 卡：由模型形状计算每专家 tokens、专家 all-to-all 与显存",
            )
        },
        source: Some(|| {
            tr(
                "Shape: Jiang et al. 2024, \"Mixtral of Experts\" (32 layers, h = 4,096, 8 \
                 experts, top 2; 46.7B total, 12.9B active). Layout, batch and F_eff = 450 \
                 TFLOP/s at 64 GPUs are assumptions, not a published run",
                "形状：Jiang 等 2024，“Mixtral of Experts”（32 层，h = 4,096，8 个专家，\
                 top 2；总参数 46.7B，激活 12.9B）。并行布局、batch 与 64 卡时 F_eff = 450 \
                 TFLOP/s 是假设值，不是公布的实测",
            )
        }),
        inputs: |s| {
            let l = &mut s.llm;
            l.global_batch_tokens = 1024.0 * 4096.0;
            l.accumulation = 2;
            l.total_params = 46.7e9;
            l.active_params = 12.9e9;
            mechanistic_on_h100(l, 450e12);
            l.baseline_gpus = 64.0;
            l.gpus = vec![64.0, 128.0, 256.0, 512.0];
            l.token_budget = 2e12;
            let w = &mut l.walls;
            mixtral_shape(w);
            w.seq_len = 4096.0;
            w.ep = 8;
            w.zero = 1;
            w.kernels_shrink = true;
        },
    },
    PresetSpec {
        // A measured run: Megatron-Core's GPT 177B strong-scaling sweep on H100, 96 → 4,608
        // GPUs at a fixed global batch of 1,152 × 4,096 tokens, TP 8, PP 6 (NVIDIA/Megatron-LM
        // README and its `images/strong_scaling.png`; step times from the published aggregate
        // PFLOP/s as `F_tok·4,718,592 / FLOP/s` with attention's FLOPs in `F_tok`, as
        // Megatron-LM counts them; shared/data/published-runs.md §1 counts `6·P` only).
        // `em=fit` on the first and last points; the six between are predictions.
        name: "megatron-177b-h100",
        view: View::Strong,
        description: || {
            tr(
                "Measured: Megatron-Core GPT 177B on H100, 96 → 4,608 GPUs at a fixed batch; fit on 2 points, 6 predicted",
                "实测：Megatron-Core GPT 177B，H100，固定 batch 下 96 → 4,608 卡；用 2 个点拟合，预测 6 个",
            )
        },
        source: Some(|| {
            tr(
                "NVIDIA/Megatron-LM README, strong scaling of GPT 177B on H100 (96 → 4,608 GPUs, \
                 batch 1,152 sequences, MFU 47% → 42%) and images/strong_scaling.png; step times \
                 = (6·177e9 + 12·L·h·s FLOPs per token)·4,718,592 tokens / published aggregate \
                 FLOP/s",
                "NVIDIA/Megatron-LM README 中 GPT 177B 在 H100 上的强扩展（96 → 4,608 卡，\
                 batch 1,152 条序列，MFU 47% → 42%）及 images/strong_scaling.png；单步时间 \
                 = （每 token 6·177e9 + 12·L·h·s FLOPs）·4,718,592 tokens / 公布的总 FLOP/s",
            )
        }),
        inputs: |s| {
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
            // Seconds per step = F_tok·4,718,592 / (aggregate PFLOP/s · 1e15), from the
            // published 44.5, 66.6, 132.4, 263.0, 517.5, 1,003.9, 1,307.9, 1,912.5 PFLOP/s,
            // with Megatron-LM's own count of FLOPs per token (`num_floating_point_operations`:
            // the weights and attention's `12·L·h·s`), F_tok = 6·177e9 + 12·96·12,288·4,096 =
            // 1.1200e12, so that the rows' MFU is the README's 47% → 42%.
            l.step_table = points(&[
                (96.0, 118_758.0),
                (144.0, 79_350.0),
                (288.0, 39_915.0),
                (576.0, 20_094.0),
                (1152.0, 10_212.0),
                (2304.0, 5_264.0),
                (3072.0, 4_041.0),
                (4608.0, 2_763.0),
            ]);
            l.fit_on = vec![96.0, 4608.0];
            l.peak_flops_per_gpu = 989e12;
            // GPT-3's shape with 4,096-token sequences and the "larger vocabulary" the README
            // names: 131,072 entries (inferred, not published) make it 177.2B. One sequence
            // per microbatch (assumed), so A = 1,152/D falls 576 → 12 across the sweep.
            gpt3_175b_shape(&mut l.walls);
            l.walls.seq_len = 4096.0;
            l.walls.vocab = 131_072.0;
            l.microbatch_sequences = 1;
            // The README gives neither schedule nor links. The fit's constant (280 ms, all
            // that does not shrink) is below 1F1B's bubble at 4,608 GPUs ((6 − 1)/12 of the
            // compute, about 975 ms), so the run interleaved: ×8, two of a stage's 16 layers
            // a chunk (inferred). 400 Gb/s NICs, one per GPU: 50 GB/s.
            l.schedule = PipelineSchedule::Interleaved;
            l.chunks = 8;
            l.bus_bytes_per_s = 50e9;
            l.gradient_bytes_per_param = MEGATRON_GRADIENT_BYTES;
            // The README runs Megatron-Core with `--tp-comm-overlap` (its training example):
            // userbuffers' ring exchange at TP 8.
            l.walls.tp_overlap = te_tp_overlap(8);
        },
    },
    PresetSpec {
        // The walls of strong scaling, from the model's shape (MODEL.md "The other walls"):
        // GPT-3 175B on H100 in the DGX Cloud recipe's layout (TP 4, PP 8, interleaved with
        // VP 12, one 2,048-token sequence per microbatch at the largest count; ZeRO-1 as
        // Megatron-Core's distributed optimizer, sequence parallelism, flash attention) at
        // MLPerf's fixed GBS of 2,048 sequences, 256 → 4,096 GPUs. The mechanistic model: no
        // measured time, kernels shrink (Hockney), TP traffic over NVLink, data-parallel
        // traffic once per step over 400G InfiniBand.
        name: "gpt3-175b-walls",
        view: View::Strong,
        description: || {
            tr(
                "GPT-3 175B, H100, TP 4 · PP 8 at a fixed 4M-token batch, 256 → 4,096 GPUs: memory per GPU, shrinking kernels and TP traffic from the model's shape",
                "GPT-3 175B，H100，TP 4 · PP 8，固定 4M tokens 的 batch，256 → 4,096 卡：由模型形状计算单卡显存、变小的 kernel 与 TP 通信",
            )
        },
        source: Some(|| {
            tr(
                "Shape: Brown et al. 2020, Table 2.1 (96 layers, h = 12,288, 96 heads, sequence \
                 2,048). Layout: NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md (TP 4, \
                 PP 8, VP 12); batch: MLPerf Training v3.1 GPT-3 (GBS 2,048). F_eff = 600 \
                 TFLOP/s at 256 GPUs is an assumption (61% of the H100's 989 TFLOP/s)",
                "形状：Brown 等 2020，表 2.1（96 层，h = 12,288，96 个头，序列 2,048）。\
                 并行布局：NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md（TP 4，PP 8，\
                 VP 12）；batch：MLPerf Training v3.1 GPT-3（GBS 2,048）。256 卡时 F_eff = 600 \
                 TFLOP/s 是假设值（H100 989 TFLOP/s 的 61%）",
            )
        }),
        inputs: |s| {
            let l = &mut s.llm;
            l.global_batch_tokens = 2048.0 * 2048.0;
            l.accumulation = 16;
            l.tp = 4;
            l.pp = 8;
            l.total_params = 175e9;
            l.active_params = 175e9;
            mechanistic_on_h100(l, 600e12);
            l.schedule = PipelineSchedule::Interleaved;
            l.chunks = 12;
            l.baseline_gpus = 256.0;
            l.gpus = vec![256.0, 512.0, 1024.0, 2048.0, 4096.0];
            l.token_budget = 300e9;
            gpt3_175b_shape(&mut l.walls);
            l.walls.kernels_shrink = true;
        },
    },
    PresetSpec {
        // Llama 3.1 405B pre-training on H100 (A. Dubey et al., "The Llama 3 Herd of Models",
        // arXiv:2407.21783, 2024, Table 4): 16M-token batches of 8,192-token sequences, TP 8,
        // PP 16, 8,192 GPUs (DP 64) at 430 TFLOP/s per GPU (43% BF16 MFU) and 16,384 GPUs
        // (DP 128) at 400 (41%): a published strong-scaling pair. The mechanistic model from
        // the shape, one sequence per microbatch (A = 32 → 16), F_eff calibrated on the
        // 8,192-GPU row; the 16,384-GPU row is predicted (docs/model/12-walls.md §12.8).
        name: "llama31-405b-h100",
        view: View::Strong,
        description: || {
            tr(
                "Llama 3.1 405B, H100, TP 8 · PP 16 at Meta's 16M-token batch, 2,048 → 16,384 GPUs: one sequence per microbatch, so A falls and the bubble grows; 43% → 41% MFU published",
                "Llama 3.1 405B，H100，TP 8 · PP 16，Meta 的 16M tokens batch，2,048 → 16,384 卡：每个 microbatch 一条序列，A 减小、气泡变大；公布的 MFU 43% → 41%",
            )
        },
        source: Some(|| {
            tr(
                "Dubey et al. 2024, \"The Llama 3 Herd of Models\", Table 3 (126 layers, \
                 h = 16,384, 128 heads, 8 KV heads, FFN 53,248, vocabulary 128,256) and \
                 Table 4 (TP 8, CP 1, PP 16, sequence 8,192, 16M tokens per batch; 8,192 \
                 GPUs: 430 TFLOP/s, 43% MFU; 16,384 GPUs: 400 TFLOP/s, 41%) and §3.3.2 (8K \
                 sequences without activation checkpointing; all-gather context \
                 parallelism; the first chunk of the first stage holds only the embedding, \
                 so one layer a chunk: vc = 8). F_eff is calibrated on the 8,192-GPU row's \
                 12.565 s step; the links are assumptions",
                "Dubey 等 2024，“The Llama 3 Herd of Models”，表 3（126 层，h = 16,384，\
                 128 个头，8 个 KV 头，FFN 53,248，词表 128,256）与表 4（TP 8，CP 1，PP 16，\
                 序列 8,192，每个 batch 16M tokens；8,192 卡 430 TFLOP/s，MFU 43%；\
                 16,384 卡 400 TFLOP/s，41%）与 §3.3.2（8K 序列不做激活重计算；上下文并行用\
                 AllGather；第一个流水线 stage 的第一个 chunk 只有嵌入层，故每个 chunk 一层：vc = 8）。\
                 F_eff 按 8,192 卡一行 12.565 s 的单步时间标定；链路是假设值",
            )
        }),
        inputs: |s| {
            let l = &mut s.llm;
            l.global_batch_tokens = 2048.0 * 8192.0;
            l.microbatch_sequences = 1;
            l.tp = 8;
            l.pp = 16;
            l.total_params = 405.8e9;
            l.active_params = 405.8e9;
            mechanistic_on_h100(l, LLAMA_405B_FEFF);
            l.schedule = PipelineSchedule::Interleaved;
            l.chunks = 8;
            l.baseline_gpus = 8192.0;
            l.gpus = vec![2048.0, 4096.0, 8192.0, 16384.0];
            l.token_budget = 15.6e12;
            let w = &mut l.walls;
            llama31_shape(w, 126.0, 16384.0, 128.0, 53248.0);
            // FSDP without resharding the weights after the forward (Dubey et al. §3.3.2):
            // optimizer state and gradients sharded, as ZeRO-2.
            w.zero = 2;
            w.sequence_parallel = true;
            w.recompute = Recompute::None;
            w.cp_overlap = CpOverlap::AllGather;
            l.gradient_bytes_per_param = MEGATRON_GRADIENT_BYTES;
        },
    },
    PresetSpec {
        // A measured weak sweep with published memory: torchtitan, Llama 3.1 8B on H100 with
        // FSDP only, 2 × 8,192 tokens per GPU, selective activation checkpointing, 8 → 128
        // GPUs (pytorch/torchtitan docs/performance.md for tokens/s per GPU,
        // benchmarks/llama3_h100_202412_torchtitan.md for peak memory; shared/data/
        // published-runs.md §4). Step = 16,384 tokens / (tokens/s per GPU). The memory rows
        // are held against the published peaks in docs/model/12-walls.md §12.2.
        name: "torchtitan-llama3-8b",
        view: View::Weak,
        description: || {
            tr(
                "Measured: torchtitan Llama 3.1 8B, FSDP on H100, weak 8 → 128 GPUs at 16k tokens per GPU; memory per GPU against the published peak",
                "实测：torchtitan Llama 3.1 8B，H100 上 FSDP，弱扩展 8 → 128 卡，每卡 16k tokens；单卡显存对照公布的峰值",
            )
        },
        source: Some(|| {
            tr(
                "pytorch/torchtitan docs/performance.md (Llama 3.1 8B, FSDP, 2 × 8,192 tokens \
                 per GPU: 5,762 tokens/s per GPU on 8 GPUs, 5,605 on 128) and \
                 benchmarks/llama3_h100_202412_torchtitan.md (selective AC, peak reserved \
                 memory 82.4 GiB on 8 GPUs, 67.0 GiB on 128; H100 96 GB)",
                "pytorch/torchtitan docs/performance.md（Llama 3.1 8B，FSDP，每卡 2 × 8,192 \
                 tokens：8 卡每卡 5,762 tokens/s，128 卡 5,605）与 \
                 benchmarks/llama3_h100_202412_torchtitan.md（选择性重计算，峰值保留显存 \
                 8 卡 82.4 GiB，128 卡 67.0 GiB；H100 96 GB）",
            )
        }),
        inputs: |s| {
            let l = &mut s.llm;
            l.global_batch_tokens = 8.0 * 16384.0;
            l.total_params = 8.03e9;
            l.active_params = 8.03e9;
            l.peak_flops_per_gpu = 989e12;
            l.baseline_gpus = 8.0;
            l.gpus = vec![8.0, 16.0, 32.0, 64.0, 128.0];
            l.exposed_mode = ExposedMode::Fit;
            // 16,384 tokens / 5,762 and / 5,605 tokens/s, in ms.
            l.step_table = points(&[(8.0, 2_843.4), (128.0, 2_923.1)]);
            l.step_batches = vec![Some(8.0 * 16384.0), Some(128.0 * 16384.0)];
            l.fit_on = vec![8.0, 128.0];
            l.token_budget = 15e12;
            // Llama 3.1 8B (Meta's config; torchtitan's llama3 8B ModelArgs).
            llama31_shape(&mut l.walls, 32.0, 4096.0, 32.0, 14336.0);
            l.walls.recompute = Recompute::Selective;
            l.walls.hbm_bytes = 96e9;
            // FSDP2's mixed precision: fp32 sharded weights (the master), fp32 gradients
            // reduced and held (`mixed_precision_reduce = "float32"`).
            l.walls.master_in_weights = true;
            l.gradient_bytes_per_param = 4.0;
            // "400 Gb/s per GPU" (published-runs.md §4).
            l.bus_bytes_per_s = 50e9;
        },
    },
    PresetSpec {
        // A measured run: MLPerf Training v3.1 GPT-3 175B on NVIDIA Eos (DGX H100, FP8, TP 4,
        // PP 8; mlcommons/training_results_v3.1, shared/data/published-runs.md §2). The step
        // time is `em=fit` on the two system sizes at GBS 2,048 (512 and 4,096 GPUs); `B_crit`
        // is fitted to the published steps to the quality target at GBS 2,048 and 4,096
        // (docs/model/08-critical-batch.md §8.5); the Plan panel then shows weak scaling
        // 4,096 → 8,192 GPUs as it happened.
        name: "mlperf-gpt3-175b-h100",
        view: View::Plan,
        description: || {
            tr(
                "Measured: MLPerf v3.1 GPT-3 175B, H100: weak scaling 4,096 → 8,192 GPUs keeps the step time, not the steps to the target",
                "实测：MLPerf v3.1 GPT-3 175B，H100，弱扩展 4,096 → 8,192 卡保住了单步时间，却保不住达标步数；B_crit 按公布的步数拟合",
            )
        },
        source: Some(|| {
            tr(
                "mlcommons/training_results_v3.1, NVIDIA Eos GPT-3 175B (H100, FP8, TP 4, PP 8): \
                 step 11.051 s on 512 GPUs, 1.609 s on 4,096 at GBS 2,048; steps to the target 288 \
                 at GBS 2,048, 200 at 3,072, 156 to 162 at 4,096 (±4%). Measured 4,096 → 8,192 \
                 GPUs: 99.4% weak efficiency, run 1.74x faster",
                "mlcommons/training_results_v3.1，NVIDIA Eos 上的 GPT-3 175B（H100，FP8，TP 4，PP 8）：\
                 GBS 2,048 时 512 卡 step 11.051 s、4,096 卡 1.609 s；达标步数 GBS 2,048 为 288，\
                 3,072 为 200，4,096 为 156 至 162（±4%）。实测 4,096 → 8,192 卡：弱扩展效率 \
                 99.4%，整个训练的速度为原来的 1.74 倍",
            )
        }),
        inputs: |s| {
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
            l.step_table = points(&[(512.0, 11_051.0), (4096.0, 1_609.0)]);
            // FP8 dense.
            l.peak_flops_per_gpu = 1979e12;
            // 1.208e9 tokens (288 steps) to the target at GBS 2,048; B_crit from that and
            // GBS 4,096's 1.309 to 1.359e9 (docs/model/08-critical-batch.md §8.5).
            l.token_budget = 1.208e9;
            s.plan.critical_batch_tokens = 36e6;
        },
    },
    PresetSpec {
        // Measured weak sweeps: NVIDIA DGX Cloud benchmarking recipes, GPT-3 175B on H100,
        // TP 4, PP 8, VP 12, sequence 2,048, GBS = 2 × GPUs sequences, 128 → 2,048 GPUs
        // (NVIDIA/dgxc-benchmarking `nemo_megatron/README_175b.md`, docs/model/03-step-time.md
        // §3.2(d)). `em=fit` with per-point batches on 128 and 2,048 GPUs; 256, 512, 1,024 are
        // predictions.
        name: "dgxc-gpt3-175b-bf16",
        view: View::Weak,
        description: || {
            tr(
                "Measured: DGX Cloud GPT-3 175B, H100 BF16, weak 128 → 2,048 GPUs; fit on 128 and 2,048, 3 predicted",
                "实测：DGX Cloud GPT-3 175B，H100 BF16，弱扩展 128 → 2,048 卡；用 128 和 2,048 拟合，预测 3 个",
            )
        },
        source: Some(dgxc_source),
        inputs: |s| {
            dgxc_gpt3(
                &mut s.llm,
                [8_309.0, 8_408.0, 8_420.0, 8_453.0, 8_490.0],
                989e12,
            )
        },
    },
    PresetSpec {
        // Measured weak sweep: NVIDIA DGX Cloud benchmarking, Llama 3.1 70B on H100 in BF16,
        // TP 4, PP 4, CP 2, VP 5, sequence 8,192, GBS = 2 × GPUs sequences, 64 → 2,048 GPUs
        // (NVIDIA/dgxc-benchmarking `llama3.1/README_70b.md`, v25.03; shared/data/
        // published-runs.md §3). `em=fit` on the two published ends; the shape gives memory
        // per GPU under the recipe's distributed optimizer and sequence parallelism.
        name: "dgxc-llama3-70b-bf16",
        view: View::Weak,
        description: || {
            tr(
                "Measured: DGX Cloud Llama 3.1 70B, H100 BF16, TP 4 · PP 4 · CP 2, weak 64 → 2,048 GPUs; memory per GPU from its shape",
                "实测：DGX Cloud Llama 3.1 70B，H100 BF16，TP 4 · PP 4 · CP 2，弱扩展 64 → 2,048 卡；由形状计算单卡显存",
            )
        },
        source: Some(|| {
            tr(
                "NVIDIA/dgxc-benchmarking llama3.1/README_70b.md (v25.03): Llama 3.1 70B on \
                 H100 BF16, TP 4, PP 4, CP 2, VP 5, GBS = 2 × GPUs sequences of 8,192 tokens; \
                 step 14.61 s on 64 GPUs, 14.84 s on 2,048 (MFU 54.5% → 53.7%)",
                "NVIDIA/dgxc-benchmarking llama3.1/README_70b.md（v25.03）：H100 BF16 上的 \
                 Llama 3.1 70B，TP 4，PP 4，CP 2，VP 5，GBS = 2 × 卡数 条 8,192 tokens 的序列；\
                 64 卡 step 14.61 s，2,048 卡 14.84 s（MFU 54.5% → 53.7%）",
            )
        }),
        inputs: |s| {
            let l = &mut s.llm;
            // GBS 128 sequences of 8,192 tokens at 64 GPUs; TP 4 × PP 4 × CP 2 = 32 GPUs per
            // replica, micro-batch 1: 2 replicas × 64 microbatches of 8,192 tokens.
            l.global_batch_tokens = 128.0 * 8192.0;
            l.accumulation = 64;
            l.tp = 4;
            l.pp = 4;
            l.cp = 2;
            l.total_params = 70.6e9;
            l.active_params = 70.6e9;
            l.peak_flops_per_gpu = 989e12;
            l.schedule = PipelineSchedule::Interleaved;
            l.chunks = 5;
            l.baseline_gpus = 64.0;
            l.gpus = vec![64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0];
            l.exposed_mode = ExposedMode::Fit;
            l.step_table = points(&[(64.0, 14_610.0), (2048.0, 14_840.0)]);
            l.step_batches = vec![Some(64.0 * 16384.0), Some(2048.0 * 16384.0)];
            l.fit_on = vec![64.0, 2048.0];
            l.token_budget = 15e12;
            // Llama 3.1 70B (Meta's config; NVIDIA NeMo Llama31Config70B).
            llama31_shape(&mut l.walls, 80.0, 8192.0, 64.0, 28672.0);
            l.walls.zero = 1;
            l.walls.sequence_parallel = true;
            l.walls.tp_overlap = te_tp_overlap(4);
            l.gradient_bytes_per_param = MEGATRON_GRADIENT_BYTES;
            // DGX H100: one 400 Gb/s ConnectX-7 per GPU (dgxc-benchmarking README, the H100
            // reference architecture; `mach=h100`).
            l.bus_bytes_per_s = 50e9;
        },
    },
    PresetSpec {
        // The same recipe in FP8.
        name: "dgxc-gpt3-175b-fp8",
        view: View::Weak,
        description: || {
            tr(
                "Measured: the same in FP8: faster compute, more exposed; fit on 128 and 2,048, 3 predicted",
                "实测：同一模型的 FP8：计算更快，暴露更多；用 128 和 2,048 拟合，预测 3 个",
            )
        },
        source: Some(dgxc_source),
        inputs: |s| {
            dgxc_gpt3(
                &mut s.llm,
                [5_626.0, 5_725.0, 5_774.0, 5_820.0, 5_960.0],
                1979e12,
            );
            // The FP8 recipe gathers its parameters in FP8 (`fp8_params: true`).
            s.llm.wire_bytes_per_param = 1.0;
        },
    },
];

/// The mechanistic model on H100s (the walls presets): `F_eff` as given, the 989 TFLOP/s dense
/// BF16 peak for MFU, 400G InfiniBand (50 GB/s per GPU) between nodes.
fn mechanistic_on_h100(l: &mut LlmSettings, flops_per_gpu: f64) {
    l.flops_per_gpu = flops_per_gpu;
    l.peak_flops_per_gpu = 989e12;
    l.bus_bytes_per_s = 50e9;
    l.compute_mode = ComputeMode::Flops;
    l.exposed_mode = ExposedMode::Fsdp;
}

/// The two illustrative LLM presets' system: FSDP over 400G InfiniBand (50 GB/s per GPU) at
/// 400 TFLOP/s achieved per GPU.
fn fsdp_on_infiniband(l: &mut LlmSettings) {
    l.flops_per_gpu = 400e12;
    l.bus_bytes_per_s = 50e9;
    l.compute_mode = ComputeMode::Flops;
    l.exposed_mode = ExposedMode::Fsdp;
}

fn points(list: &[(f64, f64)]) -> Vec<MeasuredPoint> {
    list.iter()
        .map(|&(processors, value)| MeasuredPoint { processors, value })
        .collect()
}

fn dgxc_source() -> &'static str {
    tr(
        "NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md (v25.03): GPT-3 175B on \
         H100, TP 4, PP 8, VP 12, GBS = 2 × GPUs sequences of 2,048 tokens; its step times \
         are the measured points of the fit table",
        "NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md（v25.03）：H100 上的 \
         GPT-3 175B，TP 4，PP 8，VP 12，GBS = 2 × 卡数 条 2,048 tokens 的序列；\
         其单步时间即拟合表中的实测点",
    )
}

/// The DGX Cloud GPT-3 175B weak sweep with the measured step times (ms) at 128, 256, 512,
/// 1,024 and 2,048 GPUs and the GPU's dense peak in this precision.
fn dgxc_gpt3(l: &mut LlmSettings, steps_ms: [f64; 5], peak_flops_per_gpu: f64) {
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
    // GBS = 2 × GPUs sequences of 2,048 tokens: 4,096 tokens per GPU.
    l.step_table = l
        .gpus
        .iter()
        .zip(steps_ms)
        .map(|(&processors, value)| MeasuredPoint { processors, value })
        .collect();
    l.step_batches = l.gpus.iter().map(|n| Some(n * 4096.0)).collect();
    l.fit_on = vec![128.0, 2048.0];
    l.peak_flops_per_gpu = peak_flops_per_gpu;
    l.schedule = PipelineSchedule::Interleaved;
    l.chunks = 12;
    // The recipe reduces the gradients in bf16 (`gpt3_175b_hydra.yaml`,
    // `grad_sync_dtype: bf16`).
    l.gradient_bytes_per_param = 2.0;
    gpt3_175b_shape(&mut l.walls);
    l.walls.tp_overlap = te_tp_overlap(4);
    // DGX H100: one 400 Gb/s ConnectX-7 per GPU (dgxc-benchmarking README; `mach=h100`).
    l.bus_bytes_per_s = 50e9;
}

/// Megatron-LM's gradients in bf16 training: fp32 main gradients, accumulated and
/// reduce-scattered in fp32 (`accumulate_allreduce_grads_in_fp32`, which Megatron-LM sets
/// for bf16), so its distributed optimizer holds `6 + 12/d` bytes per parameter
/// (`megatron/training/theoretical_memory_usage.py`). Llama 3 reduce-scatters its gradients in
/// fp32 too (Dubey et al. 2024, §3.3.2).
const MEGATRON_GRADIENT_BYTES: f64 = 4.0;

/// The share of TP traffic that Transformer Engine's userbuffers overlap hides at TP degree
/// `tp`, as NeMo's recipes run it (`tp_comm_overlap`; NeMo's "Communication Overlap" page and
/// its `userbuffers_bf16_h100_h12288_tp4_mbs1_seqlen2048`, the GPT-3 175B recipe's): each
/// collective is ring-exchanged in `tp` chunks pipelined with its GEMM's, so the first of the
/// `tp` stays exposed: `1 − 1/tp` hidden (0.75 at TP 4, 0.875 at TP 8; docs/model/ §12.4, §14).
fn te_tp_overlap(tp: u32) -> f64 {
    1.0 - 1.0 / tp as f64
}

/// GPT-3 175B's shape (Brown et al. 2020, Table 2.1: 96 layers, `d_model` 12,288, 96 heads,
/// context 2,048; GPT-2's 50,257-token vocabulary) as trained by Megatron-Core: ZeRO-1 (the
/// distributed optimizer), sequence parallelism, flash attention, selective recomputation off.
fn gpt3_175b_shape(w: &mut WallSettings) {
    w.layers = 96.0;
    w.hidden = 12288.0;
    w.heads = 96.0;
    w.seq_len = 2048.0;
    w.vocab = 50257.0;
    w.zero = 1;
    w.sequence_parallel = true;
    w.flash_attention = true;
}

/// A Llama 3.1 shape (Meta's configs): `layers`, `hidden`, `heads` and the SwiGLU width
/// `ffn`, with the family's 8 key/value heads, 128,256-token vocabulary and 8,192-token
/// pre-training sequence (Mixtral shares the block; its preset then sets its own).
/// Mixtral 8x7B's shape (A. Q. Jiang et al., "Mixtral of Experts", arXiv:2401.04088, 2024,
/// Table 1: 32 layers, `dim` 4,096, 32 heads, 8 KV heads, 8 experts of `hidden_dim` 14,336,
/// top 2, vocabulary 32,000).
fn mixtral_shape(w: &mut WallSettings) {
    llama31_shape(w, 32.0, 4096.0, 32.0, 14336.0);
    w.vocab = 32000.0;
    w.experts = 8.0;
    w.experts_per_token = 2.0;
}

/// `F_eff` of `llama31-405b-h100`: calibrated so that the 8,192-GPU row's step is Meta's
/// 12.565 s (43.5% MFU, counted with attention as Meta counts its 430 TFLOP/s;
/// docs/model/12-walls.md §12.8). It counts attention's FLOPs too: the `6·P`-only rate that gives
/// the same step is 474T, times `F_tok/(6·P) = 1 + 12·126·16,384·8,192/(6·405.8e9) = 1.08335`.
const LLAMA_405B_FEFF: f64 = 513.5e12;

/// Llama 3.1's shape family (Meta's configs): 8 KV heads, a gated MLP, 8,192-token sequences,
/// vocabulary 128,256.
fn llama31_shape(w: &mut WallSettings, layers: f64, hidden: f64, heads: f64, ffn: f64) {
    w.layers = layers;
    w.hidden = hidden;
    w.heads = heads;
    w.kv_heads = 8.0;
    w.ffn = ffn;
    w.seq_len = 8192.0;
    w.vocab = 128_256.0;
}

/// A preset: a row of [`PRESETS`], by position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset(u8);

impl Preset {
    /// Every preset, in menu order.
    pub const ALL: [Preset; PRESETS.len()] = {
        let mut all = [Preset(0); PRESETS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Preset(i as u8);
            i += 1;
        }
        all
    };

    /// The preset's row of [`PRESETS`].
    pub fn spec(self) -> &'static PresetSpec {
        &PRESETS[usize::from(self.0)]
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Where a measured preset's numbers come from, in this thread's language.
    pub fn source(self) -> Option<&'static str> {
        self.spec().source.map(|source| source())
    }

    /// One line for the preset menu and `scaling presets`, in this thread's language.
    pub fn description(self) -> &'static str {
        (self.spec().description)()
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// The scenario the preset stands for (its `preset` field set to itself). A preset names
    /// its step model: one it leaves at `auto` keeps the measured time and exposed table it
    /// was written with, whatever shape it gives (the page offers physics beside them).
    pub fn scenario(self) -> Scenario {
        let spec = self.spec();
        let mut s = Scenario {
            preset: Some(self),
            view: spec.view,
            ..Scenario::default()
        };
        (spec.inputs)(&mut s);
        if s.llm.compute_mode == ComputeMode::Auto {
            s.llm.compute_mode = ComputeMode::Time;
        }
        if s.llm.exposed_mode == ExposedMode::Auto {
            s.llm.exposed_mode = ExposedMode::Table;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_url_safe_and_found() {
        for (i, p) in Preset::ALL.into_iter().enumerate() {
            assert_eq!(Preset::from_name(p.name()), Some(p));
            assert!(p
                .name()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            assert!(Preset::ALL[..i].iter().all(|q| q.name() != p.name()));
            assert_eq!(p.scenario().view, p.spec().view);
        }
        assert_eq!(Preset::from_name("nope"), None);
    }
}
