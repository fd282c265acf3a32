//! NVIDIA's published runs on H100, H200, B200, GB200 and GB300, held against the model
//! (`scaling layouts --published`, docs/model/14-layout-search.md, "Many runs per machine").
//!
//! The rows are `../shared/data/machines-and-runs.md` §2, §3 and §5 as printed there: the
//! release, model, system, GPUs, precision, sequence, global batch, microbatch, TP, PP, CP,
//! VP, EP, FSDP and the measured tokens per second per GPU (or MLPerf's median step). The MoE
//! rows are NVIDIA's force-balanced, token-dropless benchmarks (note 4 there), which is the
//! model's balanced routing ([`crate::model::shape::Shape::tokens_per_expert`]); the MoE rows
//! the model cannot hold are left out and named at [`MACHINE_RUNS`].
//!
//! **Method.** The rows fall in groups of one machine × precision × software release
//! (software moves the same layout between releases, note 6 there). In each group the first
//! row as the source prints it calibrates `r∞`, the one free constant: the fraction of the
//! peak that makes the model's step of that row's own layout equal the published step. Every
//! other row of the group is predicted with that `r∞` and no further tuning; its role says
//! how far it is from the calibration: the same model at another scale or batch, or another
//! model. Everything else is the same for every row and comes from a source:
//!
//! - the machine's datasheet values (`mach`, [`crate::scenario::machines`]) at the row's
//!   precision (`prec`);
//! - the NeMo and Megatron-Bridge recipes' settings (`NVIDIA/NeMo-Framework-Launcher`,
//!   `conf/training/llama/llama3_1_405b.yaml`, `../shared/fixtures/import/nemo-yaml`):
//!   sequence parallelism with TP (`sequence_parallel: true`), Megatron-Core's distributed
//!   optimizer (`mcore_distributed_optim`, ZeRO-1) or FSDP (ZeRO-3) where the row says so,
//!   no recomputation (`activations_checkpoint_granularity: null`), flash attention, the
//!   interleaved schedule with VP > 1, TP communication overlap on (`ub_tp_comm_overlap`);
//! - the share of TP traffic that overlaps, `1 − 1/tp`: userbuffers' ring exchange sends
//!   `tp − 1` of a collective's `tp` chunks behind the GEMM of the one before, and the first
//!   stays exposed (docs/model/12-walls.md §12.4);
//! - the model's defaults for the rest (`hres`, the kernels' half-lengths of §12.3).
//!
//! The published TFLOP/s are not used: their FLOP count changed between releases (note 5).

use super::table::{Cell, Columns, Table};
use crate::i18n::tr;
use crate::model::fit::median;
use crate::model::layouts::{current, physics_inputs, Scorer, Search};
use crate::scenario::shapes::{ModelShape, SHAPES};
use crate::scenario::{decode, Scenario};
use crate::text::units::{format_count, format_percent, format_sig};

/// What a row published: tokens per second per GPU (NVIDIA's performance summaries) or the
/// median step (MLPerf's logs, `machines-and-runs.md` §5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measured {
    TokensPerGpuPerS(f64),
    StepS(f64),
}

/// One published run, as `machines-and-runs.md` prints it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MachineRun {
    /// The software release: the group's third part.
    pub release: &'static str,
    /// The model's name in [`RUN_SHAPES`], or in the model-shape menu's [`SHAPES`]
    /// (DeepSeek-V3).
    pub model: &'static str,
    /// `mach=`.
    pub machine: &'static str,
    /// `prec=`.
    pub precision: &'static str,
    pub gpus: u32,
    pub seq: u32,
    /// Global batch, sequences.
    pub gbs: u32,
    pub mbs: u32,
    pub tp: u32,
    pub pp: u32,
    pub cp: u32,
    /// Virtual stages per pipeline stage (1: not interleaved).
    pub vp: u32,
    /// FSDP (ZeRO-3) rather than the distributed optimizer (ZeRO-1).
    pub fsdp: bool,
    /// Expert-parallel degree (1 for a dense model).
    pub ep: u32,
    /// The routed experts' TP degree (`etp=`): `0` as TP (Megatron-Core's default), `1` for
    /// whole experts, the EP group folded over the TP ranks.
    pub etp: u32,
    /// Layers whose activations the recipe offloads to host memory (`ofl`; 0: none).
    pub offload_layers: u32,
    pub measured: Measured,
    /// The section of `machines-and-runs.md` and the source's own place.
    pub source: &'static str,
}

impl MachineRun {
    /// The published step, s: MLPerf's median, or `GBS · seq / (GPUs · tokens/s/GPU)`.
    pub fn published_step_s(&self) -> f64 {
        match self.measured {
            Measured::StepS(s) => s,
            Measured::TokensPerGpuPerS(t) => {
                self.gbs as f64 * self.seq as f64 / (self.gpus as f64 * t)
            }
        }
    }

    /// The group: machine × precision × release.
    pub fn group(&self) -> Group {
        (self.machine, self.precision, self.release)
    }

    /// The row's link: its model, machine, precision, batch and layout, the recipes' settings
    /// and `r∞`, with the physics step model at its own GPU count.
    pub fn query(&self, r_inf: f64) -> Option<String> {
        let shape = RUN_SHAPES
            .iter()
            .chain(SHAPES.iter())
            .find(|s| s.name == self.model)?;
        let offload = match self.offload_layers {
            0 => String::new(),
            k => format!("ofl={k}&"),
        };
        let etp = match self.etp {
            0 => String::new(),
            k => format!("etp={k}&"),
        };
        let schedule = if self.pp > 1 && self.vp > 1 {
            format!("sched=interleaved&vc={}", self.vp)
        } else {
            "sched=1f1b".to_string()
        };
        // The run's own sequence replaces the config's: a link names each key once.
        let shape_query = shape.query_with_params();
        let shape_keys: Vec<&str> = shape_query
            .split('&')
            .filter(|pair| !pair.starts_with("sq="))
            .collect();
        let shape_keys = shape_keys.join("&");
        Some(format!(
            "v=1&view=strong&em=fsdp&cm=physics&mach={}&prec={}&{}&sq={}&b={}&mbs={}&tp={}&pp={}&cp={}&ep={}&{etp}{schedule}&zero={}&sp={}&tpo={}&ac=none&{offload}fa=1&ns={}&n0={}&rinf={}",
            self.machine,
            self.precision,
            shape_keys,
            self.seq,
            self.gbs as u64 * self.seq as u64,
            self.mbs,
            self.tp,
            self.pp,
            self.cp,
            self.ep,
            if self.fsdp { 3 } else { 1 },
            u8::from(self.tp > 1),
            format_sig(1.0 - 1.0 / self.tp as f64, 6),
            self.gpus,
            self.gpus,
            format_sig(r_inf, 6),
        ))
    }
}

/// The shapes of the models these runs train, each from its configuration (the three Llama
/// 3.1 shapes are `scaling shapes`' own). DeepSeek-V3's is taken from the model-shape menu
/// ([`SHAPES`]), which `tests/core/import.rs` holds equal to its `config.json`.
pub const RUN_SHAPES: [ModelShape; 14] = [
    ModelShape {
        name: "Qwen3 30B-A3B",
        card_params: "30.5B / 3.3B active",
        query: "nl=48&hd=2048&nh=32&kvh=4&hdim=128&ffn=768&voc=151936&ne=128&ke=8&sq=4096",
        source: || {
            tr(
                "Qwen/Qwen3-30B-A3B config.json (../shared/fixtures/import/hf/qwen3-30b-a3b.config.json): 48 layers, 2,048 wide, 32 heads of 128, 4 KV heads, 128 experts of 768, 8 routed a token",
                "来源：Qwen/Qwen3-30B-A3B config.json（../shared/fixtures/import/hf/qwen3-30b-a3b.config.json）：48 层，宽 2,048，32 个宽 128 的头，4 个 KV 头，128 个宽 768 的专家，每个 token 路由到 8 个",
            )
        },
    },
    ModelShape {
        name: "Qwen3 235B-A22B",
        card_params: "235B / 22B active",
        query: "nl=94&hd=4096&nh=64&kvh=4&hdim=128&ffn=1536&voc=151936&ne=128&ke=8&sq=4096",
        source: || {
            tr(
                "Qwen/Qwen3-235B-A22B config.json (../shared/fixtures/import/hf/qwen3-235b-a22b.config.json): 94 layers, 4,096 wide, 64 heads of 128, 4 KV heads, 128 experts of 1,536, 8 routed a token",
                "来源：Qwen/Qwen3-235B-A22B config.json（../shared/fixtures/import/hf/qwen3-235b-a22b.config.json）：94 层，宽 4,096，64 个宽 128 的头，4 个 KV 头，128 个宽 1,536 的专家，每个 token 路由到 8 个",
            )
        },
    },
    ModelShape {
        name: "Mixtral 8x7B",
        card_params: "46.7B / 12.9B active",
        query: "nl=32&hd=4096&nh=32&kvh=8&ffn=14336&voc=32000&ne=8&ke=2&sq=4096",
        source: || {
            tr(
                "mistralai/Mixtral-8x7B-v0.1 config.json (../shared/fixtures/import/hf/mixtral-8x7b-v0.1.config.json)",
                "来源：mistralai/Mixtral-8x7B-v0.1 config.json（../shared/fixtures/import/hf/mixtral-8x7b-v0.1.config.json）",
            )
        },
    },
    ModelShape {
        name: "Llama 4 Scout",
        card_params: "109B / 17B active",
        query: "nl=48&hd=5120&nh=40&kvh=8&ffn=8192&voc=202048&ne=16&ke=1&nse=1&sq=8192",
        source: || {
            tr(
                "meta-llama/Llama-4-Scout-17B-16E config.json text_config (../shared/fixtures/import/hf/llama-4-scout-17b-16e.trimmed.config.json) and its one shared expert (Hugging Face transformers' Llama4TextMoe); chunked attention over 8,192 tokens is full attention at the row's 8,192",
                "来源：meta-llama/Llama-4-Scout-17B-16E config.json 的 text_config（../shared/fixtures/import/hf/llama-4-scout-17b-16e.trimmed.config.json）及其 1 个共享专家（Hugging Face transformers 的 Llama4TextMoe）；按 8,192 tokens 分块的注意力在该行的 8,192 tokens 下就是完整注意力",
            )
        },
    },
    ModelShape {
        name: "Llama 3 8B",
        card_params: "8.03B",
        query: "nl=32&hd=4096&nh=32&kvh=8&ffn=14336&voc=128256&ne=1&ke=1&sq=8192",
        source: || {
            "meta-llama/Llama-3.1-8B config.json (../shared/fixtures/import/hf/llama-3.1-8b.config.json); Llama 3 and 3.1 share the shape"
        },
    },
    ModelShape {
        name: "Llama 3 70B",
        card_params: "70.6B",
        query: "nl=80&hd=8192&nh=64&kvh=8&ffn=28672&voc=128256&ne=1&ke=1&sq=8192",
        source: || {
            "meta-llama/Llama-3.1-70B config.json (../shared/fixtures/import/hf/llama-3.1-70b.config.json)"
        },
    },
    ModelShape {
        name: "Llama 3.1 405B",
        card_params: "405B",
        query: "nl=126&hd=16384&nh=128&kvh=8&ffn=53248&voc=128256&ne=1&ke=1&sq=8192",
        source: || {
            "meta-llama/Llama-3.1-405B config.json (../shared/fixtures/import/hf/llama-3.1-405b.config.json)"
        },
    },
    ModelShape {
        name: "Llama 2 7B",
        card_params: "6.74B",
        query: "nl=32&hd=4096&nh=32&kvh=32&ffn=11008&voc=32000&ne=1&ke=1&sq=4096",
        source: || {
            "meta-llama/Llama-2-7b-hf config.json (../shared/fixtures/import/hf/llama-2-7b-hf.config.json)"
        },
    },
    ModelShape {
        name: "Llama 2 13B",
        card_params: "13.0B",
        query: "nl=40&hd=5120&nh=40&kvh=40&ffn=13824&voc=32000&ne=1&ke=1&sq=4096",
        source: || {
            "Llama-2-13b config.json (../shared/fixtures/import/hf/llama-2-13b.aws-neuron.config.json)"
        },
    },
    ModelShape {
        name: "Llama 2 70B",
        card_params: "69.0B",
        query: "nl=80&hd=8192&nh=64&kvh=8&ffn=28672&voc=32000&ne=1&ke=1&sq=4096",
        source: || {
            "NeMo-Framework-Launcher conf/training/llama/llama2_70b.yaml (../shared/fixtures/import/nemo-yaml/launcher_llama2_70b.yaml)"
        },
    },
    ModelShape {
        name: "GPT-3 5B",
        card_params: "5B",
        query: "nl=24&hd=4096&nh=32&kvh=32&ffn=0&voc=50257&ne=1&ke=1&sq=2048",
        source: || {
            "NeMo-Framework-Launcher conf/training/gpt3/5b.yaml (../shared/fixtures/import/nemo-yaml/launcher_gpt3_5b.5aeb4ab8.yaml): 24 layers, 4,096 wide, 32 heads, a 4h MLP; GPT-2's 50,257-token vocabulary"
        },
    },
    ModelShape {
        name: "GPT-3 175B",
        card_params: "175B",
        query: "nl=96&hd=12288&nh=96&kvh=96&ffn=0&voc=50257&ne=1&ke=1&sq=2048",
        source: || {
            "Brown et al. 2020, Table 2.1; NeMo-Framework-Launcher conf/training/gpt3/175b.yaml (../shared/fixtures/import/nemo-yaml/launcher_gpt3_175b.yaml)"
        },
    },
    ModelShape {
        name: "Nemotron-4 15B",
        card_params: "15.6B",
        query: "nl=32&hd=6144&nh=48&kvh=8&ffn=0&voc=256000&ne=1&ke=1&sq=4096",
        source: || {
            "Parmar et al. 2024, \"Nemotron-4 15B Technical Report\", arXiv:2402.16819, Table 1: 32 layers, 6,144 wide, 48 heads, 8 KV heads, 256,000 tokens, a squared-ReLU MLP of 4h"
        },
    },
    ModelShape {
        name: "Nemotron-4 340B",
        card_params: "341B",
        query: "nl=96&hd=18432&nh=96&kvh=8&ffn=0&voc=256000&ne=1&ke=1&sq=4096",
        source: || {
            "NeMo-Framework-Launcher conf/training/nemotron/nemotron_340b.yaml (../shared/fixtures/import/nemo-yaml/launcher_nemotron_340b.yaml): 96 layers, 18,432 wide, 96 heads, 8 query groups, squared ReLU of 4h; NVIDIA 2024, arXiv:2406.11704: 256,000 tokens"
        },
    },
];

const B11: &str = "Megatron-Bridge 25.11";
const B09: &str = "Megatron-Bridge 25.09";
const N0724: &str = "NeMo 24.07";
const N0225: &str = "NeMo 25.02";
const N0425: &str = "NeMo 25.04";
const N0725: &str = "NeMo 25.07";
const MLPERF5: &str = "MLPerf v5.0";

/// A performance-summary row: tokens/s/GPU published.
#[allow(clippy::too_many_arguments)] // one per column of the source's table
const fn tok(
    release: &'static str,
    model: &'static str,
    machine: &'static str,
    precision: &'static str,
    gpus: u32,
    seq: u32,
    gbs: u32,
    mbs: u32,
    (tp, pp, cp, vp): (u32, u32, u32, u32),
    fsdp: bool,
    tokens_per_gpu_per_s: f64,
    source: &'static str,
) -> MachineRun {
    MachineRun {
        release,
        model,
        machine,
        precision,
        gpus,
        seq,
        gbs,
        mbs,
        tp,
        pp,
        cp,
        vp,
        fsdp,
        ep: 1,
        etp: 0,
        offload_layers: 0,
        measured: Measured::TokensPerGpuPerS(tokens_per_gpu_per_s),
        source,
    }
}

/// A mixture-of-experts performance-summary row: its [`tok`] row with the EP column (the
/// distributed optimizer; no such row uses FSDP).
const fn moe(run: MachineRun, ep: u32) -> MachineRun {
    let mut run = run;
    run.ep = ep;
    run
}

/// A Megatron-Bridge MoE row ([`moe`]) with whole experts: its performance recipes set
/// `expert_tensor_parallel_size=1` for every MoE model (`NVIDIA-NeMo/Megatron-Bridge` at
/// `v0.2.0`, `scripts/performance/configs/qwen3/workload_base_configs.py` and
/// `deepseek/workload_base_configs.py`), so the EP group folds over the TP ranks and EP may
/// exceed the data-parallel ranks (Qwen3 235B on H100: EP 32 over TP 2 · DP 16).
const fn folded(run: MachineRun, ep: u32) -> MachineRun {
    let mut run = moe(run, ep);
    run.etp = 1;
    run
}

/// A row whose recipe offloads `layers` layers' activations to host memory (Megatron-Core's
/// `cpu_offloading_num_layers`), as the Megatron-Bridge performance recipes of its release set
/// it: `NVIDIA-NeMo/Megatron-Bridge`, `scripts/performance/configs/llama3/llama3_70b_llm_pretrain.yaml`
/// and `llama31/llama31_405b_llm_pretrain.yaml` at `cac49dcd7` (25.09:
/// `gb200` `fp8_cs`: 40 and 95), `configs/llama3/workload_base_configs.py` at `bf75c658c`
/// (25.11: `LLAMA3_70B_PRETRAIN_CONFIG_GB300_FP8_CS`: 20, `…_GB200_FP8_CS`: 40),
/// and NeMo's for 25.07: `NVIDIA/NeMo` at `03bb2af4b9`,
/// `scripts/performance/recommended_model_configs/model_configs_gb200.csv`, row
/// `pre_train,llama31,405b,gb200,fp8` (TP 2, FSDP, `activation_offload_layers` 95).
const fn offloaded(run: MachineRun, layers: u32) -> MachineRun {
    let mut run = run;
    run.offload_layers = layers;
    run
}

/// An MLPerf Training v5.0 Llama 3.1 405B row (FP8, 8,192-token sequences, microbatch 1,
/// TP·PP·CP·VP as its config): the median step, s.
const fn mlperf(
    machine: &'static str,
    gpus: u32,
    gbs: u32,
    (tp, pp, cp, vp): (u32, u32, u32, u32),
    step_s: f64,
    source: &'static str,
) -> MachineRun {
    MachineRun {
        release: MLPERF5,
        model: "Llama 3.1 405B",
        machine,
        precision: "fp8",
        gpus,
        seq: 8192,
        gbs,
        mbs: 1,
        tp,
        pp,
        cp,
        vp,
        fsdp: false,
        ep: 1,
        etp: 0,
        offload_layers: 0,
        measured: Measured::StepS(step_s),
        source,
    }
}

const S2_11: &str = "machines-and-runs.md §2: Megatron-Bridge performance-summary-archive §25.11";
const S2_09: &str = "machines-and-runs.md §2: Megatron-Bridge performance-summary-archive §25.09";
const S3A: &str = "machines-and-runs.md §3(a): NeMo performance_summary.md, NeMo 24.07, DGX-H100";
const S3B: &str = "machines-and-runs.md §3(b): NeMo Framework performance summary (first rows)";
const S5: &str = "machines-and-runs.md §5: MLPerf Training v5.0 result logs";

/// The rows of `machines-and-runs.md` the model can express, in its order. A parenthesised
/// second value is the block-scaled run (`mxfp8`) and its own row; 25.07's second values are
/// left out (the page that names their recipe was cut off), as are the rows without a shape
/// source (Nemotron-8B and 22B), the MoE rows whose model or layout the model cannot hold
/// (DeepSeek-V3 with multi-token prediction, GPT-OSS's alternating sliding windows, expert
/// parallelism folded over tensor parallelism, Llama 4 Maverick's cut-off row) and
/// Mixtral 8x22B, whose batch and microbatch columns are printed swapped.
#[rustfmt::skip]
pub const MACHINE_RUNS: [MachineRun; 91] = [
    // §2, 25.11.
    tok(B11, "Llama 3 8B", "gb300", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 37556.0, S2_11),
    tok(B11, "Llama 3 8B", "gb300", "mxfp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 36108.0, S2_11),
    offloaded(tok(B11, "Llama 3 70B", "gb300", "fp8", 64, 8192, 256, 2, (1, 1, 1, 1), true, 4520.0, S2_11), 20),
    tok(B11, "Llama 3.1 405B", "gb300", "fp8", 256, 8192, 1536, 1, (2, 8, 2, 4), false, 999.0, S2_11),
    tok(B11, "Llama 3 8B", "gb200", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 31508.0, S2_11),
    tok(B11, "Llama 3 8B", "gb200", "mxfp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 29789.0, S2_11),
    offloaded(tok(B11, "Llama 3 70B", "gb200", "fp8", 64, 8192, 256, 2, (1, 1, 1, 1), true, 4312.0, S2_11), 40),
    tok(B11, "Llama 3.1 405B", "gb200", "fp8", 256, 8192, 1536, 1, (4, 16, 1, 4), false, 813.0, S2_11),
    tok(B11, "Llama 3 8B", "b200", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 30624.0, S2_11),
    tok(B11, "Llama 3 8B", "b200", "mxfp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 29521.0, S2_11),
    tok(B11, "Llama 3.1 405B", "b200", "fp8", 128, 8192, 64, 1, (4, 8, 2, 8), false, 661.0, S2_11),
    tok(B11, "Llama 3.1 405B", "b200", "mxfp8", 128, 8192, 64, 1, (4, 8, 2, 8), false, 624.0, S2_11),
    tok(B11, "Llama 3 8B", "h100", "fp8", 8, 8192, 128, 1, (1, 1, 1, 1), true, 14451.0, S2_11),
    tok(B11, "Llama 3 70B", "h100", "fp8", 64, 8192, 128, 1, (4, 8, 1, 5), false, 1602.0, S2_11),
    tok(B11, "Llama 3.1 405B", "h100", "fp8", 1024, 8192, 512, 1, (8, 8, 2, 8), false, 292.0, S2_11),
    // §2, 25.11, mixture of experts (force-balanced, dropless; DeepSeek-V3 with multi-token
    // prediction and GPT-OSS's sliding windows left out).
    folded(tok(B11, "Qwen3 30B-A3B", "gb300", "mxfp8", 8, 4096, 512, 4, (1, 1, 1, 1), false, 28934.0, S2_11), 8),
    folded(tok(B11, "Qwen3 235B-A22B", "gb300", "bf16", 256, 4096, 8192, 2, (1, 4, 1, 12), false, 6131.0, S2_11), 16),
    folded(tok(B11, "Qwen3 30B-A3B", "gb200", "mxfp8", 8, 4096, 512, 4, (1, 1, 1, 1), false, 23766.0, S2_11), 8),
    folded(tok(B11, "Qwen3 235B-A22B", "gb200", "bf16", 256, 4096, 8192, 1, (1, 8, 1, 3), false, 4916.0, S2_11), 32),
    folded(tok(B11, "Qwen3 30B-A3B", "b200", "mxfp8", 8, 4096, 512, 1, (1, 1, 1, 1), false, 9299.0, S2_11), 8),
    folded(tok(B11, "Qwen3 235B-A22B", "b200", "mxfp8", 64, 4096, 1024, 1, (1, 8, 1, 2), false, 3269.0, S2_11), 8),
    folded(tok(B11, "Qwen3 30B-A3B", "h100", "fp8", 16, 4096, 512, 2, (1, 2, 1, 24), false, 5275.0, S2_11), 8),
    folded(tok(B11, "Qwen3 235B-A22B", "h100", "fp8", 256, 4096, 2048, 1, (2, 8, 1, 4), false, 1575.0, S2_11), 32),
    folded(tok(B11, "DeepSeek-V3", "gb300", "bf16", 256, 4096, 4096, 1, (1, 2, 1, 4), false, 3848.0, S2_11), 32),
    folded(tok(B11, "DeepSeek-V3", "gb300", "mxfp8", 256, 4096, 4096, 1, (1, 2, 1, 4), false, 4357.0, S2_11), 32),
    folded(tok(B11, "DeepSeek-V3", "gb200", "bf16", 256, 4096, 4096, 1, (1, 4, 1, 4), false, 3139.0, S2_11), 64),
    folded(tok(B11, "DeepSeek-V3", "gb200", "mxfp8", 256, 4096, 4096, 1, (1, 8, 1, 4), false, 4018.0, S2_11), 32),
    // §2, 25.09 (FP8 per-tensor; the parenthesised runs block-scaled, read as MXFP8).
    tok(B09, "Llama 3 8B", "gb200", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 31357.0, S2_09),
    tok(B09, "Llama 3 8B", "gb200", "mxfp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 29925.0, S2_09),
    offloaded(tok(B09, "Llama 3 70B", "gb200", "fp8", 64, 8192, 128, 2, (1, 1, 1, 1), true, 3986.0, S2_09), 40),
    // The table prints one MBS, 2, for both runs, but this run's GA 16 on DP 8 with GBS 128 is
    // a microbatch of 1, as the 25.09 recipe sets it (Megatron-Bridge `cac49dcd7`,
    // `llama3_70b_llm_pretrain.yaml`, `gb200` `fp8_mx`: `mbs: 1`).
    tok(B09, "Llama 3 70B", "gb200", "mxfp8", 64, 8192, 128, 1, (2, 4, 1, 5), false, 3546.0, S2_09),
    offloaded(tok(B09, "Llama 3.1 405B", "gb200", "fp8", 128, 8192, 64, 1, (2, 1, 1, 1), true, 729.0, S2_09), 95),
    tok(B09, "Llama 3.1 405B", "gb200", "mxfp8", 128, 8192, 64, 1, (4, 8, 2, 8), false, 578.0, S2_09),
    tok(B09, "Llama 3 8B", "b200", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 29994.0, S2_09),
    tok(B09, "Llama 3 8B", "b200", "mxfp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 29388.0, S2_09),
    tok(B09, "Llama 3.1 405B", "b200", "fp8", 128, 8192, 64, 1, (4, 8, 2, 8), false, 664.0, S2_09),
    tok(B09, "Llama 3.1 405B", "b200", "mxfp8", 128, 8192, 64, 1, (4, 8, 2, 8), false, 622.0, S2_09),
    tok(B09, "Llama 3 8B", "h100", "fp8", 8, 8192, 128, 1, (1, 1, 1, 1), true, 14079.0, S2_09),
    tok(B09, "Llama 3 70B", "h100", "fp8", 64, 8192, 128, 1, (4, 8, 1, 5), false, 1619.0, S2_09),
    tok(B09, "Llama 3.1 405B", "h100", "fp8", 1024, 8192, 512, 1, (8, 8, 2, 8), false, 302.0, S2_09),
    // §2, 25.09, mixture of experts.
    // DeepSeek-V3's four runs are left out: that release's script ran it with one
    // multi-token-prediction layer on every machine (Megatron-Bridge `cac49dcd7`, the
    // performance scripts' `run_script.py`: the pipeline layout `Et|(tt|)*30mL`, whose `m` is
    // that layer, and the recipe's `mtp_num_layers = 1`), which the table does not mark as
    // 25.11 does, and recomputed the MLP on H100 and GB200.
    folded(tok(B09, "Qwen3 30B-A3B", "gb200", "fp8", 8, 4096, 512, 4, (1, 1, 1, 1), false, 22775.0, S2_09), 8),
    folded(tok(B09, "Qwen3 30B-A3B", "gb200", "mxfp8", 8, 4096, 512, 4, (1, 1, 1, 1), false, 23723.0, S2_09), 8),
    folded(tok(B09, "Qwen3 30B-A3B", "b200", "fp8", 8, 4096, 512, 1, (1, 1, 1, 1), false, 18066.0, S2_09), 8),
    folded(tok(B09, "Qwen3 235B-A22B", "b200", "fp8", 64, 4096, 1024, 1, (1, 8, 1, 2), false, 4104.0, S2_09), 8),
    folded(tok(B09, "Qwen3 235B-A22B", "b200", "mxfp8", 64, 4096, 1024, 1, (1, 8, 1, 2), false, 4275.0, S2_09), 8),
    folded(tok(B09, "Qwen3 30B-A3B", "h100", "fp8", 16, 4096, 512, 2, (1, 2, 1, 24), false, 10494.0, S2_09), 8),
    folded(tok(B09, "Qwen3 235B-A22B", "gb200", "fp8", 64, 4096, 1024, 1, (2, 1, 1, 1), false, 4452.0, S2_09), 64),
    folded(tok(B09, "Qwen3 235B-A22B", "gb200", "mxfp8", 64, 4096, 1024, 1, (2, 1, 1, 1), false, 4416.0, S2_09), 64),
    folded(tok(B09, "Qwen3 235B-A22B", "h100", "fp8", 256, 4096, 2048, 1, (2, 8, 1, 4), false, 1204.0, S2_09), 32),
    // §3(a), NeMo 24.07 on DGX-H100, FP8.
    tok(N0724, "GPT-3 5B", "h100", "fp8", 64, 2048, 2048, 4, (1, 1, 1, 1), false, 23406.0, S3A),
    tok(N0724, "GPT-3 175B", "h100", "fp8", 128, 2048, 256, 1, (4, 8, 1, 6), false, 716.0, S3A),
    tok(N0724, "GPT-3 175B", "h100", "fp8", 512, 2048, 2048, 2, (4, 8, 1, 6), false, 825.0, S3A),
    tok(N0724, "Llama 2 7B", "h100", "fp8", 8, 4096, 128, 1, (1, 1, 1, 1), false, 16934.0, S3A),
    tok(N0724, "Llama 2 13B", "h100", "fp8", 16, 4096, 128, 1, (1, 4, 1, 10), false, 8715.0, S3A),
    tok(N0724, "Llama 2 70B", "h100", "fp8", 64, 4096, 128, 1, (4, 4, 1, 20), false, 1728.0, S3A),
    tok(N0724, "Nemotron-4 340B", "h100", "fp8", 128, 4096, 32, 1, (8, 8, 1, 12), false, 326.0, S3A),
    tok(N0724, "Llama 3 8B", "h100", "fp8", 8, 8192, 128, 1, (1, 1, 2, 1), false, 12273.0, S3A),
    tok(N0724, "Llama 3 70B", "h100", "fp8", 64, 8192, 128, 1, (4, 4, 2, 5), false, 1524.0, S3A),
    // §3(b), NeMo 25.02, 25.04 and 25.07, FP8.
    tok(N0225, "GPT-3 175B", "b200", "fp8", 512, 2048, 2048, 2, (4, 4, 1, 6), false, 1600.0, S3B),
    tok(N0225, "Llama 3 8B", "b200", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 26006.0, S3B),
    tok(N0225, "Llama 3 70B", "b200", "fp8", 64, 8192, 128, 1, (2, 4, 2, 5), false, 3062.0, S3B),
    tok(N0225, "Llama 3.1 405B", "b200", "fp8", 128, 8192, 64, 1, (4, 8, 2, 8), false, 625.0, S3B),
    tok(N0225, "Nemotron-4 15B", "b200", "fp8", 64, 4096, 256, 2, (1, 1, 1, 1), false, 14760.0, S3B),
    tok(N0225, "Nemotron-4 340B", "b200", "fp8", 128, 4096, 32, 1, (8, 4, 1, 12), false, 602.0, S3B),
    moe(tok(N0225, "Mixtral 8x7B", "b200", "fp8", 64, 4096, 256, 2, (1, 1, 1, 1), false, 15457.0, S3B), 8),
    tok(N0225, "GPT-3 175B", "h100", "fp8", 512, 2048, 2048, 2, (4, 8, 1, 6), false, 866.0, S3B),
    tok(N0425, "GPT-3 175B", "gb200", "fp8", 128, 2048, 256, 2, (4, 4, 1, 12), false, 1804.0, S3B),
    tok(N0425, "Llama 3 8B", "gb200", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 33099.0, S3B),
    tok(N0425, "Llama 3 70B", "gb200", "fp8", 64, 8192, 128, 1, (1, 1, 1, 1), true, 4035.0, S3B),
    tok(N0425, "Llama 3.1 405B", "gb200", "fp8", 128, 8192, 64, 1, (4, 8, 2, 8), false, 665.0, S3B),
    tok(N0425, "Nemotron-4 15B", "gb200", "fp8", 64, 4096, 256, 2, (1, 1, 1, 1), false, 17809.0, S3B),
    tok(N0425, "Nemotron-4 340B", "gb200", "fp8", 128, 4096, 32, 1, (8, 4, 1, 12), false, 737.0, S3B),
    moe(tok(N0425, "Mixtral 8x7B", "gb200", "fp8", 64, 4096, 256, 2, (1, 1, 1, 1), false, 19275.0, S3B), 8),
    tok(N0725, "Llama 3 8B", "gb200", "fp8", 8, 8192, 128, 2, (1, 1, 1, 1), false, 31737.0, S3B),
    tok(N0725, "Llama 3 70B", "gb200", "fp8", 64, 8192, 128, 1, (1, 1, 1, 1), true, 4066.0, S3B),
    offloaded(tok(N0725, "Llama 3.1 405B", "gb200", "fp8", 128, 8192, 64, 1, (2, 1, 1, 1), true, 706.0, S3B), 95),
    moe(tok(N0725, "Llama 4 Scout", "gb200", "fp8", 64, 8192, 1024, 1, (1, 1, 1, 1), false, 13783.0, S3B), 16),
    // §5, MLPerf Training v5.0, Llama 3.1 405B.
    mlperf("gb200", 256, 448, (4, 8, 2, 8), 19.168, S5),
    mlperf("gb200", 512, 896, (4, 8, 2, 8), 19.278, S5),
    mlperf("gb200", 512, 896, (4, 8, 2, 8), 19.432, S5),
    mlperf("gb200", 1024, 768, (4, 8, 2, 8), 8.448, S5),
    mlperf("gb200", 1536, 1152, (4, 8, 2, 8), 8.499, S5),
    mlperf("gb200", 2048, 1280, (4, 8, 2, 8), 7.158, S5),
    mlperf("gb200", 2496, 1248, (4, 8, 2, 8), 5.823, S5),
    mlperf("h100", 512, 1152, (8, 8, 2, 8), 55.143, S5),
    mlperf("h100", 2048, 1152, (8, 8, 2, 8), 14.222, S5),
    mlperf("h100", 2432, 1216, (8, 8, 2, 8), 12.712, S5),
    mlperf("h100", 2560, 1120, (8, 8, 2, 8), 11.173, S5),
    mlperf("h100", 8192, 1536, (8, 8, 2, 8), 5.180, S5),
    mlperf("h200", 512, 1152, (4, 8, 2, 8), 50.013, S5),
    mlperf("h200", 1024, 1152, (4, 8, 2, 8), 25.356, S5),
];

/// A group of rows: machine × precision × release.
pub type Group = (&'static str, &'static str, &'static str);

/// A group's calibration: its `r∞` and the calibration row's model, or why it failed.
type Calibration = Result<(f64, &'static str), String>;

/// How far a row is from its group's calibration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Its step sets the group's `r∞`.
    Calibration,
    /// The calibration row's model at another GPU count, batch or layout.
    SameModel,
    /// Another model of the group.
    AnotherModel,
}

impl Role {
    pub fn key(self) -> &'static str {
        match self {
            Role::Calibration => "calibration",
            Role::SameModel => "same model at another scale",
            Role::AnotherModel => "another model",
        }
    }

    fn text(self) -> &'static str {
        match self {
            Role::Calibration => tr("calibration", "标定"),
            Role::SameModel => tr("same model, other scale", "同一模型，另一规模"),
            Role::AnotherModel => tr("another model", "另一模型"),
        }
    }
}

/// A row held against the model: its role, the group's `r∞`, and the search at its GPU
/// count with that `r∞`.
#[derive(Debug, Clone)]
pub struct HeldRow {
    pub run: MachineRun,
    pub role: Role,
    pub r_inf: f64,
    pub search: Search,
    /// The plausible changes of one input after which the search's fastest layout is another
    /// (the changes of `scaling layouts --published`'s runs: ±10% of the NIC and NVLink
    /// bandwidths and of `r∞`, the NIC doubled, TP overlap off or whole).
    pub flips: Vec<&'static str>,
}

impl HeldRow {
    /// The model's step of the row's own layout over the published one, minus 1.
    pub fn step_error(&self) -> f64 {
        self.search.current.step_ms / (1e3 * self.run.published_step_s()) - 1.0
    }

    /// The published layout steps within 5% of the search's fastest.
    pub fn within_five_percent(&self) -> bool {
        super::published::within_five_percent(&self.search)
    }
}

/// The row's scenario with `r∞`, decoded from its link; `None` (with the first error) if the
/// link does not decode whole.
fn scenario(run: &MachineRun, r_inf: f64) -> Result<Scenario, String> {
    let query = run
        .query(r_inf)
        .ok_or_else(|| format!("no shape for {}", run.model))?;
    let d = decode(&query);
    match d.errors.first() {
        Some(e) => Err(e.to_string()),
        None => Ok(d.scenario),
    }
}

/// The model's step of the scenario's own layout, ms, at `r∞`, at `gpus` GPUs and a global
/// batch of `batch` tokens.
pub fn own_step_ms(scenario: &Scenario, gpus: f64, batch: f64, r_inf: f64) -> Option<f64> {
    let inputs = physics_inputs(&scenario.llm_inputs(), r_inf)?;
    let walls = inputs.walls?;
    let mut scorer = Scorer::new(&inputs, gpus, batch).ok()?;
    Some(scorer.score(current(&inputs, &walls)).step_ms)
}

/// The `r∞` at which `step_ms(r∞)` is `target_ms`: the step falls as `r∞` rises (compute
/// is `∝ 1/r∞`, and what hides behind compute can only be exposed more when compute shrinks,
/// never by more than compute shrinks), so bisection on `0.01 … 1` finds it; `None` if even
/// the peak is too slow or no fraction is slow enough.
pub fn r_inf_for_step(target_ms: f64, step_ms: impl Fn(f64) -> Option<f64>) -> Option<f64> {
    let (mut lo, mut hi) = (0.01, 1.0);
    if step_ms(hi)? > target_ms || step_ms(lo)? < target_ms {
        return None;
    }
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if step_ms(mid)? > target_ms {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The `r∞` at which the model's step of the run's own layout is the published step
/// ([`r_inf_for_step`]).
pub fn calibrate(run: &MachineRun) -> Option<f64> {
    let scenario = scenario(run, 0.5).ok()?;
    let batch = run.gbs as f64 * run.seq as f64;
    r_inf_for_step(1e3 * run.published_step_s(), |r| {
        own_step_ms(&scenario, run.gpus as f64, batch, r)
    })
}

/// Every row of [`MACHINE_RUNS`] in its group's calibration, searched; a row (or a group)
/// the model cannot express is left out with its reason.
pub fn held_rows() -> Vec<Result<HeldRow, String>> {
    let mut out = Vec::new();
    let mut calibrated: Vec<(Group, Calibration)> = Vec::new();
    for run in MACHINE_RUNS.iter() {
        let group = run.group();
        let known = calibrated
            .iter()
            .find(|(g, _)| *g == group)
            .map(|(_, c)| c.clone());
        let (role, r_inf) = match known {
            Some(Ok((r, model))) => (
                if model == run.model {
                    Role::SameModel
                } else {
                    Role::AnotherModel
                },
                r,
            ),
            Some(Err(e)) => {
                out.push(Err(e));
                continue;
            }
            None => {
                let c = calibrate(run).map(|r| (r, run.model)).ok_or_else(|| {
                    trf!(
                        "{} {} on {} GPUs cannot calibrate r∞: no fraction of the peak gives its step",
                        "{} {}（{} 卡）无法标定 r∞：没有哪个峰值比例能给出其单步时间",
                        run.release,
                        run.model,
                        run.gpus
                    )
                });
                calibrated.push((group, c.clone()));
                match c {
                    Ok((r, _)) => (Role::Calibration, r),
                    Err(e) => {
                        out.push(Err(e));
                        continue;
                    }
                }
            }
        };
        out.push(search_row(run, role, r_inf));
    }
    out
}

fn search_row(run: &MachineRun, role: Role, r_inf: f64) -> Result<HeldRow, String> {
    let scenario = scenario(run, r_inf)?;
    let inputs = physics_inputs(&scenario.llm_inputs(), r_inf)
        .ok_or_else(|| super::layouts::error_text(&crate::model::layouts::SearchError::NoShape))?;
    let batch = run.gbs as f64 * run.seq as f64;
    let search = Search::run(
        &inputs,
        &scenario.llm.search_space(),
        run.gpus as f64,
        batch,
    )
    .map_err(|e| super::layouts::error_text(&e))?;
    let best = search.best().map(|s| s.choice);
    let flips = super::published::flips(&scenario, r_inf, run.gpus as f64, best);
    Ok(HeldRow {
        run: *run,
        role,
        r_inf,
        search,
        flips,
    })
}

/// The machine names as the rows' group column shows them.
fn machine_label(name: &str) -> &'static str {
    crate::scenario::machines::Machine::from_name(name).map_or("?", |m| m.label)
}

/// The table: each row's group, role, model, layout, published and modelled step, error,
/// and its layout's rank in the search.
/// The caption of the rows' table, in the CLI, the docs and the Learn view.
fn held_caption() -> &'static str {
    tr(
        "Published runs per machine: r∞ calibrated on each group's first row, every other row predicted",
        "各机型公布的训练任务：每组以第一行标定 r∞，其余各行均为预测",
    )
}

pub fn held_table(rows: &[HeldRow]) -> Table {
    let columns = Columns::<HeldRow>::new()
        .words(("group", "分组"), |r| {
            Cell::words(format!(
                "{} · {} · {}",
                machine_label(r.run.machine),
                r.run.precision.to_uppercase(),
                r.run.release
            ))
        })
        .words(("role", "角色"), |r| Cell::words(r.role.text()))
        .words(("model", "模型"), |r| Cell::words(r.run.model))
        .column(("GPUs", "GPU 数"), |r| {
            Cell::num(r.run.gpus as f64, format_count)
        })
        .words(("its layout", "其布局"), |r| {
            Cell::words(super::layouts::layout_summary(&r.search.current))
        })
        .column(
            ("published step (s)", "公布的单步时间（秒）"),
            |r| Cell::num(r.run.published_step_s(), |v| format_sig(v, 4)),
        )
        .column(("model step (s)", "模型单步时间（秒）"), |r| {
            Cell::num(r.search.current.step_ms / 1e3, |v| format_sig(v, 4))
        })
        .column(("error", "误差"), |r| {
            Cell::num(r.step_error(), |v| super::table::signed_percent(v, 1))
        })
        .words(("rank / layouts", "排名 / 布局数"), |r| {
            Cell::words(super::published::rank_text(&r.search))
        })
        .words(("within 5% of fastest", "距最快 5% 内"), |r| {
            Cell::words(if r.within_five_percent() {
                "✓"
            } else {
                "✗"
            })
        })
        .words(("fits (model)", "放得下（模型）"), |r| {
            Cell::words(if r.search.current.fits { "✓" } else { "✗" })
        })
        .words(("#1 changes with", "第 1 名随之改变"), |r| {
            Cell::words(if r.flips.is_empty() {
                "–".to_string()
            } else {
                r.flips.join(crate::text::list_sep())
            })
        })
        .column(("group's r∞", "分组的 r∞"), |r| {
            Cell::num(r.r_inf, |v| format_sig(v, 3))
        });
    Table::from_columns("machine-runs", held_caption().to_string(), &columns, rows)
}

/// The rows as the Learn view's table of published runs (`www/learn/*.html`, section
/// `d-published`, written by a test from here): the model, its group (machine, precision and
/// release), the GPUs, the layout's degrees, the published and the model's step, the error,
/// the role, and a link that opens the row's scenario (in Chinese with `&lang=zh`, as every link of the Chinese file). In this
/// thread's language.
pub fn learn_runs_html(rows: &[HeldRow]) -> String {
    use crate::text::html::escape;
    let zh = crate::i18n::lang() == crate::i18n::Lang::Zh;
    let heads = [
        (tr("model", "模型"), "text"),
        (tr("machine · precision", "机型 · 精度"), "text"),
        (tr("release", "软件版本"), "text"),
        (tr("GPUs", "GPU 数"), ""),
        (tr("its layout", "其布局"), "text"),
        (tr("published step (s)", "公布的单步时间（秒）"), ""),
        (tr("model step (s)", "模型单步时间（秒）"), ""),
        (tr("error", "误差"), ""),
        (tr("role", "角色"), "text"),
        (tr("scenario", "场景"), "text"),
    ];
    let class = |c: &str| match c {
        "" => String::new(),
        c => format!(" class=\"{c}\""),
    };
    let mut out = String::from(
        "<div class=\"table-wrap\"><div role=\"region\" tabindex=\"0\" aria-labelledby=\"learn-runs-caption\">\n<table>\n",
    );
    out.push_str(&format!(
        "<caption id=\"learn-runs-caption\">{}</caption>\n<thead><tr>",
        escape(held_caption())
    ));
    for (head, c) in heads {
        out.push_str(&format!(
            "<th scope=\"col\"{}>{}</th>",
            class(c),
            escape(head)
        ));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        let Some(query) = r.run.query(r.r_inf) else {
            continue;
        };
        let layout = super::layouts::layout_summary(&r.search.current);
        let degrees = layout.split(" (").next().unwrap_or(&layout);
        let href = if zh {
            format!("?{query}&lang=zh")
        } else {
            format!("?{query}")
        };
        out.push_str(&format!(
            "<tr><th scope=\"row\" class=\"text\">{}</th><td class=\"text\">{} · {}</td><td class=\"text\">{}</td><td>{}</td><td class=\"text\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"text\">{}</td><td class=\"text\"><a class=\"learn-open\" href=\"{}\">{}</a></td></tr>\n",
            escape(r.run.model),
            escape(machine_label(r.run.machine)),
            escape(&r.run.precision.to_uppercase()),
            escape(r.run.release),
            escape(&format_count(r.run.gpus as f64)),
            escape(degrees),
            escape(&format_sig(r.run.published_step_s(), 4)),
            escape(&format_sig(r.search.current.step_ms / 1e3, 4)),
            escape(&super::table::signed_percent(r.step_error(), 1)),
            escape(r.role.text()),
            escape(&href),
            escape(tr("Open", "打开")),
        ));
    }
    out.push_str("</tbody>\n</table>\n</div></div>\n");
    out
}

/// Software drift: each dense row that several releases publish with the same machine,
/// precision, model, GPUs, sequence, batch, microbatch, layout and offloading, and how far
/// apart their steps are, `max/min − 1` (`machines-and-runs.md` note 6). No model of the
/// hardware can predict another release's row closer than the software moves it. The MoE
/// rows are left out: 25.09 drops tokens where 25.11 does not (note 4), so two releases'
/// MoE rows are not the same run.
pub fn release_spreads(runs: &[MachineRun]) -> Vec<f64> {
    let same = |a: &MachineRun, b: &MachineRun| {
        MachineRun {
            release: "",
            measured: Measured::StepS(0.0),
            source: "",
            ..*a
        } == MachineRun {
            release: "",
            measured: Measured::StepS(0.0),
            source: "",
            ..*b
        }
    };
    let dense: Vec<&MachineRun> = runs.iter().filter(|r| r.ep <= 1).collect();
    let mut spreads = Vec::new();
    for (i, run) in dense.iter().enumerate() {
        // Each set once, at its first row.
        if dense[..i].iter().any(|r| same(r, run)) {
            continue;
        }
        let set: Vec<&&MachineRun> = dense[i..].iter().filter(|r| same(r, run)).collect();
        let mut releases: Vec<&str> = set.iter().map(|r| r.release).collect();
        releases.sort_unstable();
        releases.dedup();
        if releases.len() < 2 {
            continue;
        }
        let steps = set.iter().map(|r| r.published_step_s());
        let (low, high) = steps.fold((f64::INFINITY, 0.0f64), |(lo, hi), t| {
            (lo.min(t), hi.max(t))
        });
        spreads.push(high / low - 1.0);
    }
    spreads
}

/// The summary of one role: rows, median |step error|, the share within 10%.
fn role_summary(rows: &[HeldRow], role: Role) -> (usize, f64, usize) {
    let mut errors: Vec<f64> = rows
        .iter()
        .filter(|r| r.role == role)
        .map(|r| r.step_error().abs())
        .collect();
    let within = errors.iter().filter(|&&e| e <= 0.10).count();
    let n = errors.len();
    (n, if n > 0 { median(&mut errors) } else { 0.0 }, within)
}

/// The median |step error| of the rows of the same model as their group's calibration: the
/// model's resolution between two layouts of one model ([`super::layouts::LAYOUT_RESOLUTION`]).
pub fn same_model_median_error(rows: &[HeldRow]) -> f64 {
    role_summary(rows, Role::SameModel).1
}

/// The key figures: rows and machines, each role's median error and share within 10%, and
/// the published layouts within 5% of the search's fastest.
pub fn held_figures(rows: &[HeldRow], left_out: usize) -> Vec<(String, String)> {
    let mut machines: Vec<&str> = rows.iter().map(|r| r.run.machine).collect();
    machines.sort_unstable();
    machines.dedup();
    let groups = {
        let mut g: Vec<_> = rows.iter().map(|r| r.run.group()).collect();
        g.sort_unstable();
        g.dedup();
        g.len()
    };
    let mut out = vec![(
        tr("Published runs per machine", "各机型公布的训练任务").to_string(),
        trf!(
            "{} rows on {} machines in {} groups ({} left out)",
            "{} 行，{} 种机型，{} 组（{} 行未纳入）",
            rows.len(),
            machines.len(),
            groups,
            left_out
        ),
    )];
    for role in [Role::SameModel, Role::AnotherModel] {
        let (n, median_error, within) = role_summary(rows, role);
        out.push((
            trf!(
                "Step error, {} (median |error|; within 10%)",
                "单步时间误差，{}（|误差| 中位数；10% 以内）",
                role.text()
            ),
            trf!(
                "{}; {} of {}",
                "{}；{} 行中 {} 行",
                format_percent(median_error, 1),
                within,
                n
            ),
        ));
    }
    let mut spreads = release_spreads(&rows.iter().map(|r| r.run).collect::<Vec<_>>());
    let largest = spreads.iter().copied().fold(0.0, f64::max);
    out.push((
        tr(
            "Software drift: the same dense row in several releases (median spread of its step; largest)",
            "软件版本漂移：多个版本公布的同一稠密行（单步时间差异的中位数；最大值）",
        )
        .to_string(),
        trf!(
            "{}; {} ({} rows)",
            "{}；{}（{} 行）",
            format_percent(median(&mut spreads), 1),
            format_percent(largest, 1),
            spreads.len()
        ),
    ));
    // The model's resolution between layouts: its median error on the same model at another
    // scale, the closest the published rows come to two layouts of one model.
    let resolution = same_model_median_error(rows);
    let banded = rows
        .iter()
        .filter(|r| {
            r.search
                .best()
                .is_some_and(|b| r.search.current.step_ms <= (1.0 + resolution) * b.step_ms)
        })
        .count();
    out.push((
        trf!(
            "Published layouts in the search's top band (within {} of the fastest, the same-model median error)",
            "落在搜索最前一档内的公布布局（距最快 {} 以内，即同一模型的误差中位数）",
            format_percent(resolution, 1)
        ),
        trf!("{} of {}", "{} 个（共 {} 个）", banded, rows.len()),
    ));
    out.push((
        tr(
            "Published layouts within 5% of the search's fastest (all rows)",
            "距搜索最快 5% 以内的公布布局（全部行）",
        )
        .to_string(),
        trf!(
            "{} of {}",
            "{} 个（共 {} 个）",
            rows.iter().filter(|r| r.within_five_percent()).count(),
            rows.len()
        ),
    ));
    out.push(super::published::flips_figure(
        rows.iter().map(|r| r.flips.as_slice()),
    ));
    out
}

/// The JSON: one entry per row.
pub fn held_json(rows: &[HeldRow]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|r| {
                serde_json::json!({
                    "release": r.run.release,
                    "machine": r.run.machine,
                    "precision": r.run.precision,
                    "model": r.run.model,
                    "gpus": r.run.gpus,
                    "role": r.role.key(),
                    "r_inf": r.r_inf,
                    "query": r.run.query(r.r_inf),
                    "layout": super::layouts::layout_summary(&r.search.current),
                    "published_step_s": r.run.published_step_s(),
                    "model_step_s": r.search.current.step_ms / 1e3,
                    "step_error": r.step_error(),
                    "rank": r.search.current_rank.map(|k| k + 1),
                    "layouts": r.search.layouts.len(),
                    "fits": r.search.current.fits,
                    "within_five_percent": r.within_five_percent(),
                    "fastest": r.search.best().map(super::layouts::layout_summary),
                    "fastest_changes_with": r.flips,
                    "source": r.run.source,
                })
            })
            .collect(),
    )
}
