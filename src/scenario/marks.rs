//! Where each input of a measured preset and of a published run comes from: one mark per key,
//! `source: …` (a datasheet, recipe file or paper section), `fitted on …` (the run whose
//! outcome set it) or, for a teaching preset's own choice, `assumed: …`. A value chosen
//! because it moved a rank or an error has no mark of its own to give.
//! `tests/core/marks.rs` holds every measured preset (a preset with a `source`), every row of
//! `panel::published` and every row of `panel::machine_runs` to it: each key they set, and
//! the hardware keys of a preset with a shape, needs a mark, and the published rows' marks
//! may not be `assumed`. Native only: the page never shows them.

/// `(key, mark)` pairs.
pub type Marks = &'static [(&'static str, &'static str)];

const H100_PEAK: &str = "source: H100 SXM dense BF16, 989 TFLOP/s (NVIDIA/dgxc-benchmarking README; `scaling machines`)";
const H100_FP8_PEAK: &str =
    "source: H100 SXM dense FP8, 1,979 TFLOP/s (NVIDIA/dgxc-benchmarking README)";
const H100_NIC: &str = "source: one 400 Gb/s ConnectX-7 per GPU, 50 GB/s (NVIDIA/dgxc-benchmarking README, the H100 reference architecture; `scaling machines`)";
const H100_HBM: &str = "source: H100 SXM 80 GB (NVIDIA datasheet)";
const HGX_DOMAIN: &str =
    "source: an HGX H100 node, 8 GPUs on NVSwitch (NVIDIA/dgxc-benchmarking README)";
const NVLINK_BUS: &str =
    "source: NCCL's bus bandwidth on NVLink 4, 370–450 GB/s (MODEL.md §3, the seed's lever table)";
const RESERVE: &str = "fitted on torchtitan's published reserved peaks against the model's count (docs/model/12-walls.md §12.2)";
const BF16_WEIGHTS: &str = "source: bf16 parameters on the wire (the recipes' `bf16: true`)";
const MEGATRON_GRADS: &str = "source: Megatron-LM reduces fp32 main gradients in bf16 training (`accumulate_allreduce_grads_in_fp32`, megatron/training/arguments.py)";
const DGX_GRADS: &str = "source: the recipe reduces gradients in bf16 (nemo_megatron/gpt3_175b_hydra.yaml, `grad_sync_dtype: bf16`)";
const GPT3_SHAPE: &str =
    "source: Brown et al. 2020, Table 2.1 (96 layers, 12,288 wide, 96 heads, 2,048-token context)";
const GPT2_VOCAB: &str =
    "source: GPT-2's 50,257-token BPE vocabulary, which GPT-3 uses (Brown et al. 2020, §2.1)";
const LLAMA_CONFIG: &str =
    "source: the model's config.json (meta-llama; ../shared/fixtures/import/hf)";
const DISTRIBUTED_OPTIMIZER: &str = "source: Megatron-Core's distributed optimizer (`mcore_distributed_optim` in NeMo's launcher configs), ZeRO-1";
const SEQUENCE_PARALLEL: &str =
    "source: `sequence_parallel: true` with TP (NeMo's launcher configs)";
const TE_OVERLAP: &str = "source: `ub_tp_comm_overlap: true`; userbuffers' ring exchange leaves the first of TP chunks exposed, 1 − 1/TP hidden (NeMo 'Communication Overlap')";
const DGX_GPT3_LAYOUT: &str = "source: NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md: TP 4, PP 8, VP 12, microbatch 1";
const DGX_GPT3_BATCH: &str = "source: NVIDIA/dgxc-benchmarking nemo_megatron/README_175b.md: GBS = 2 × GPUs sequences of 2,048 tokens";
const DGX_STEPS: &str =
    "source: the step times NVIDIA/dgxc-benchmarking publishes for 128 → 2,048 GPUs";
const FIT_POINTS: &str =
    "source: the sweep's two published ends, the rest predicted (calibrate, then predict)";
const FIT_MODE: &str = "source: calibrate-then-predict on the published step times (`em=fit`)";
const TIME_MODE: &str =
    "source: compute from the fit of the published step times (`cm=time` under `em=fit`)";
const SWEEP_COUNTS: &str = "source: the GPU counts the source publishes";
const LLAMA3_BUDGET: &str =
    "source: Llama 3 was pretrained on 15.6T tokens (Dubey et al. 2024, §3)";

/// The measured presets' marks, by preset name: tables searched in order (a preset that
/// differs from another in a few inputs names its own first, then the other's).
pub const PRESET_MARKS: &[(&str, &[Marks])] = &[
    ("mixtral-8x7b-walls", &[&[
        ("b", "source: a 4M-token batch of 4,096-token sequences, Mixtral's training context (Jiang et al. 2024)"),
        ("a", "assumed: two microbatches a step, to show the experts' GEMMs shrink"),
        ("p", "source: Mixtral 8x7B, 46.7B parameters (Jiang et al. 2024)"),
        ("pa", "source: Mixtral 8x7B, 12.9B active parameters per token (Jiang et al. 2024)"),
        ("feff", "assumed: 450 TFLOP/s, 45% of the H100's peak"),
        ("peak", H100_PEAK),
        ("beff", H100_NIC),
        ("sw", BF16_WEIGHTS),
        ("gw", "assumed: gradients as the parameters, bf16"),
        ("cm", "assumed: compute from F_eff (the walls preset shows the model, not a run)"),
        ("em", "assumed: the mechanistic exposed time"),
        ("n0", "assumed: the sweep's first count"),
        ("nl", LLAMA_CONFIG), ("hd", LLAMA_CONFIG), ("nh", LLAMA_CONFIG), ("kvh", LLAMA_CONFIG),
        ("ffn", LLAMA_CONFIG), ("voc", LLAMA_CONFIG), ("ne", LLAMA_CONFIG), ("ke", LLAMA_CONFIG),
        ("sq", "source: 4,096-token sequences, below Mixtral's 32k context (Jiang et al. 2024)"),
        ("ep", "assumed: EP 8, one expert per GPU inside an 8-GPU node"),
        ("hbm", H100_HBM),
        ("hres", RESERVE),
        ("zero", DISTRIBUTED_OPTIMIZER),
        ("ks", "source: Hockney's kernel law, the walls this preset shows (docs/model/12-walls.md §12.3)"),
        ("tpo", "assumed: no TP in the layout, nothing to overlap"),
        ("nvd", HGX_DOMAIN),
        ("ns", "assumed: 64 → 512 GPUs"),
        ("tb", "assumed: a 2T-token budget"),
        ("bnv", NVLINK_BUS),
    ]]),
    ("megatron-177b-h100", &[&[
        ("b", "source: NVIDIA/Megatron-LM README, strong scaling at 1,152 sequences of 4,096 tokens"),
        ("mbs", "source: one sequence per microbatch, as the repository's own GPT-3 175B script sets it (NVIDIA/Megatron-LM examples/gpt3/train_gpt3_175b_distributed.sh, `--micro-batch-size 1`); the README names none for its sweep"),
        ("tp", "source: NVIDIA/Megatron-LM README, TP 8 · PP 6 for GPT 177B"),
        ("pp", "source: NVIDIA/Megatron-LM README, TP 8 · PP 6 for GPT 177B"),
        ("p", "source: NVIDIA/Megatron-LM README, GPT 177B"),
        ("pa", "source: NVIDIA/Megatron-LM README, GPT 177B (dense)"),
        ("peak", H100_PEAK),
        ("beff", H100_NIC),
        ("sw", BF16_WEIGHTS),
        ("gw", MEGATRON_GRADS),
        ("cm", TIME_MODE),
        ("n0", SWEEP_COUNTS),
        ("em", FIT_MODE),
        ("st", "source: the README's aggregate PFLOP/s as step times (F_tok · 4,718,592 / FLOP/s)"),
        ("fp", FIT_POINTS),
        ("sched", "fitted on megatron-177b-h100's measured steps: the fit's constant is below 1F1B's bubble"),
        ("vc", "fitted on megatron-177b-h100's measured steps: two of a stage's 16 layers a chunk"),
        ("nl", GPT3_SHAPE), ("hd", GPT3_SHAPE), ("nh", GPT3_SHAPE),
        ("sq", "source: NVIDIA/Megatron-LM README, 4,096-token sequences"),
        ("voc", "fitted on GPT 177B's parameter count: a 131,072-token vocabulary makes 177.2B"),
        ("hbm", H100_HBM),
        ("hres", RESERVE),
        ("zero", DISTRIBUTED_OPTIMIZER),
        ("sp", SEQUENCE_PARALLEL),
        ("tpo", TE_OVERLAP),
        ("nvd", HGX_DOMAIN),
        ("ns", SWEEP_COUNTS),
        ("bnv", NVLINK_BUS),
    ]]),
    ("gpt3-175b-walls", &[&[
        ("b", "source: MLPerf Training v3.1 GPT-3, GBS 2,048 sequences of 2,048 tokens"),
        ("a", "source: one sequence per microbatch at the largest count (DGX Cloud recipe's microbatch 1)"),
        ("tp", DGX_GPT3_LAYOUT), ("pp", DGX_GPT3_LAYOUT),
        ("p", GPT3_SHAPE), ("pa", GPT3_SHAPE),
        ("feff", "assumed: 600 TFLOP/s at 256 GPUs, 61% of the peak"),
        ("peak", H100_PEAK),
        ("beff", H100_NIC),
        ("sw", BF16_WEIGHTS),
        ("gw", DGX_GRADS),
        ("cm", "assumed: compute from F_eff (the walls preset shows the model, not a run)"),
        ("n0", "assumed: the sweep's first count"),
        ("em", "assumed: the mechanistic exposed time"),
        ("sched", DGX_GPT3_LAYOUT), ("vc", DGX_GPT3_LAYOUT),
        ("nl", GPT3_SHAPE), ("hd", GPT3_SHAPE), ("nh", GPT3_SHAPE), ("sq", GPT3_SHAPE),
        ("voc", GPT2_VOCAB),
        ("hbm", H100_HBM),
        ("hres", RESERVE),
        ("zero", DISTRIBUTED_OPTIMIZER),
        ("sp", SEQUENCE_PARALLEL),
        ("ks", "source: Hockney's kernel law, the walls this preset shows (docs/model/12-walls.md §12.3)"),
        ("tpo", "assumed: TP traffic charged whole, the wall this preset shows"),
        ("nvd", HGX_DOMAIN),
        ("ns", "source: MLPerf v3.1's system sizes, 256 → 4,096 GPUs"),
        ("tb", "source: GPT-3's 300B training tokens (Brown et al. 2020, §2.2)"),
        ("bnv", NVLINK_BUS),
    ]]),
    ("llama31-405b-h100", &[&[
        ("b", "source: Dubey et al. 2024, Table 4: 16M-token batches"),
        ("mbs", "source: Dubey et al. 2024, §3.3.2: one sequence per microbatch"),
        ("tp", "source: Dubey et al. 2024, Table 4: TP 8"),
        ("pp", "source: Dubey et al. 2024, Table 4: PP 16"),
        ("p", LLAMA_CONFIG), ("pa", LLAMA_CONFIG),
        ("feff", "fitted on llama31-405b-h100's 8,192-GPU row (Dubey et al. 2024, Table 4: 12.565 s a step)"),
        ("peak", H100_PEAK),
        ("beff", H100_NIC),
        ("sw", BF16_WEIGHTS),
        ("gw", "source: Dubey et al. 2024, §3.3.2: gradients reduce-scattered in fp32"),
        ("cm", "source: compute from F_eff fitted on the 8,192-GPU row"),
        ("n0", "source: Dubey et al. 2024, Table 4: 8,192 GPUs"),
        ("em", "source: the mechanistic exposed time, no measured table"),
        ("sched", "source: Dubey et al. 2024, §3.3.2: interleaved pipeline"),
        ("vc", "source: Dubey et al. 2024, §3.3.2: eight virtual stages"),
        ("nl", LLAMA_CONFIG), ("hd", LLAMA_CONFIG), ("nh", LLAMA_CONFIG), ("kvh", LLAMA_CONFIG),
        ("ffn", LLAMA_CONFIG), ("sq", LLAMA_CONFIG), ("voc", LLAMA_CONFIG),
        ("hbm", H100_HBM),
        ("hres", RESERVE),
        ("zero", "source: Dubey et al. 2024, §3.3.2: FSDP without resharding after the forward, read as ZeRO-2"),
        ("sp", "source: Dubey et al. 2024, §3.3.2: sequence parallelism with TP"),
        ("tpo", "assumed: Dubey et al. 2024 name no TP communication overlap"),
        ("cpm", "source: Dubey et al. 2024, §3.3.2: K and V all-gathered"),
        ("nvd", HGX_DOMAIN),
        ("ns", "source: Dubey et al. 2024, Table 4: 8,192 and 16,384 GPUs, and the counts below them"),
        ("tb", LLAMA3_BUDGET),
        ("bnv", NVLINK_BUS),
    ]]),
    ("torchtitan-llama3-8b", &[&[
        ("b", "source: pytorch/torchtitan docs/performance.md, 2 × 8,192 tokens per GPU"),
        ("p", LLAMA_CONFIG), ("pa", LLAMA_CONFIG),
        ("peak", H100_PEAK),
        ("beff", "source: 400 Gb/s per GPU (pytorch/torchtitan docs/performance.md)"),
        ("sw", BF16_WEIGHTS),
        ("gw", "source: torchtitan reduces the gradients in fp32 (`training.mixed_precision_reduce`, default `\"float32\"`, torchtitan/config/configs.py) into FSDP2's fp32 sharded gradients"),
        ("mw", "source: FSDP2 keeps the sharded parameters in fp32 and casts them to bf16 as it gathers them (`MixedPrecisionPolicy(param_dtype=bfloat16)` from torchtitan's `training.mixed_precision_param`; torchtitan/config/configs.py: \"without an extra copy of fp32 weights\" only in full bf16 training)"),
        ("cm", TIME_MODE),
        ("n0", SWEEP_COUNTS),
        ("em", FIT_MODE),
        ("st", "source: 16,384 tokens over 5,762 and 5,605 tokens/s per GPU (pytorch/torchtitan docs/performance.md)"),
        ("fp", FIT_POINTS),
        ("nl", LLAMA_CONFIG), ("hd", LLAMA_CONFIG), ("nh", LLAMA_CONFIG), ("kvh", LLAMA_CONFIG),
        ("ffn", LLAMA_CONFIG), ("sq", LLAMA_CONFIG), ("voc", LLAMA_CONFIG),
        ("hbm", "source: H100 96 GB (torchtitan benchmarks/llama3_h100_202412_torchtitan.md)"),
        ("hres", RESERVE),
        ("ac", "source: selective activation checkpointing (benchmarks/llama3_h100_202412_torchtitan.md)"),
        ("tpo", "source: FSDP only, TP 1: no TP traffic"),
        ("nvd", HGX_DOMAIN),
        ("ns", SWEEP_COUNTS),
        ("tb", LLAMA3_BUDGET),
        ("bnv", NVLINK_BUS),
    ]]),
    ("mlperf-gpt3-175b-h100", &[&[
        ("b", "source: MLPerf Training v3.1 GPT-3, GBS 2,048 sequences of 2,048 tokens"),
        ("tp", "source: MLPerf v3.1 NVIDIA config_DGXH100_*: TP 4"),
        ("pp", "source: MLPerf v3.1 NVIDIA config_DGXH100_*: PP 8"),
        ("p", GPT3_SHAPE), ("pa", GPT3_SHAPE),
        ("peak", H100_FP8_PEAK),
        ("cm", TIME_MODE),
        ("n0", "source: MLPerf v3.1's 4,096-GPU system"),
        ("em", FIT_MODE),
        ("st", "source: MLPerf v3.1 step times at 512 and 4,096 GPUs (published-runs.md §2)"),
        ("ns", "source: MLPerf v3.1 system sizes"),
        ("tb", "source: MLPerf GPT-3's token budget to the target (published-runs.md §2)"),
        ("bcrit", "fitted on MLPerf v3.1's steps to the target at two batches (docs/model/08-critical-batch.md)"),
    ]]),
    ("dgxc-gpt3-175b-bf16", &[DGX_GPT3_MARKS]),
    ("dgxc-gpt3-175b-fp8", &[DGX_GPT3_FP8_MARKS, DGX_GPT3_MARKS]),
    ("dgxc-llama3-70b-bf16", &[&[
        ("b", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: GBS = 2 × GPUs sequences of 8,192 tokens"),
        ("a", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: microbatch 1"),
        ("tp", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: TP 4, PP 4, CP 2, VP 5"),
        ("pp", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: TP 4, PP 4, CP 2, VP 5"),
        ("cp", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: TP 4, PP 4, CP 2, VP 5"),
        ("p", LLAMA_CONFIG), ("pa", LLAMA_CONFIG),
        ("peak", H100_PEAK),
        ("beff", H100_NIC),
        ("sw", BF16_WEIGHTS),
        ("gw", MEGATRON_GRADS),
        ("cm", TIME_MODE),
        ("n0", SWEEP_COUNTS),
        ("em", FIT_MODE),
        ("st", "source: step 14.61 s on 64 GPUs, 14.84 s on 2,048 (llama3.1/README_70b.md)"),
        ("fp", FIT_POINTS),
        ("sched", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: VP 5"),
        ("vc", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: VP 5"),
        ("nl", LLAMA_CONFIG), ("hd", LLAMA_CONFIG), ("nh", LLAMA_CONFIG), ("kvh", LLAMA_CONFIG),
        ("ffn", LLAMA_CONFIG), ("sq", LLAMA_CONFIG), ("voc", LLAMA_CONFIG),
        ("hbm", H100_HBM),
        ("hres", RESERVE),
        ("zero", DISTRIBUTED_OPTIMIZER),
        ("sp", SEQUENCE_PARALLEL),
        ("tpo", TE_OVERLAP),
        ("nvd", HGX_DOMAIN),
        ("ns", SWEEP_COUNTS),
        ("tb", LLAMA3_BUDGET),
        ("bnv", NVLINK_BUS),
    ]]),
];

const DGX_GPT3_MARKS: Marks = &[
    ("b", DGX_GPT3_BATCH),
    ("a", DGX_GPT3_LAYOUT),
    ("tp", DGX_GPT3_LAYOUT),
    ("pp", DGX_GPT3_LAYOUT),
    ("p", GPT3_SHAPE),
    ("pa", GPT3_SHAPE),
    ("peak", H100_PEAK),
    ("beff", H100_NIC),
    ("sw", BF16_WEIGHTS),
    ("gw", DGX_GRADS),
    ("cm", TIME_MODE),
    ("n0", SWEEP_COUNTS),
    ("em", FIT_MODE),
    ("st", DGX_STEPS),
    ("fp", FIT_POINTS),
    ("sched", DGX_GPT3_LAYOUT),
    ("vc", DGX_GPT3_LAYOUT),
    ("nl", GPT3_SHAPE),
    ("hd", GPT3_SHAPE),
    ("nh", GPT3_SHAPE),
    ("sq", GPT3_SHAPE),
    ("voc", GPT2_VOCAB),
    ("hbm", H100_HBM),
    ("hres", RESERVE),
    ("zero", DISTRIBUTED_OPTIMIZER),
    ("sp", SEQUENCE_PARALLEL),
    ("tpo", TE_OVERLAP),
    ("nvd", HGX_DOMAIN),
    ("ns", SWEEP_COUNTS),
    ("bnv", NVLINK_BUS),
];

/// The FP8 recipe's own marks; the rest are the BF16 recipe's ([`DGX_GPT3_MARKS`]).
const DGX_GPT3_FP8_MARKS: Marks = &[
    ("peak", H100_FP8_PEAK),
    (
        "sw",
        "source: the FP8 recipe gathers its parameters in FP8 (`fp8_params: true`)",
    ),
];

/// The keys the published runs (`panel::published`) add to their presets' (or, without a
/// preset, set), by the run's label.
pub const PUBLISHED_MARKS: &[(&str, Marks)] = &[
    ("DGX Cloud GPT-3 175B BF16", &[("mbs", DGX_GPT3_LAYOUT)]),
    ("DGX Cloud GPT-3 175B FP8", &[("mbs", DGX_GPT3_LAYOUT)]),
    ("DGX Cloud Llama 3.1 70B BF16", &[("mbs", "source: NVIDIA/dgxc-benchmarking llama3.1/README_70b.md: microbatch 1")]),
    ("MLPerf v3.1 GPT-3 175B FP8", &[
        ("mbs", "source: MLPerf v3.1 NVIDIA config_DGXH100_*: microbatch 1"),
        ("view", "source: a fixed batch at each system size"),
        ("b", "source: MLPerf v3.1 GPT-3, GBS 2,048 sequences (2,560 at 10,240 GPUs) of 2,048 tokens"),
    ]),
    ("torchtitan Llama 3.1 8B (FSDP)", &[("mbs", "source: pytorch/torchtitan docs/performance.md: local batch 2 of 8,192 tokens")]),
    ("llm-foundry MPT-13B (FSDP)", &[
        ("view", "source: llm-foundry's benchmark holds 4,096 tokens per GPU (weak scaling)"),
        ("b", "source: llm-foundry scripts/train/benchmarking/README.md: microbatch 2 of 2,048 tokens per GPU"),
        ("n0", "source: the README's smallest system, 8 GPUs"),
        ("ns", "source: the README's 8, 16, 32, 64 GPUs"),
        ("p", "source: MPT-13B's shape counted untied (llm-foundry yamls)"),
        ("pa", "source: MPT-13B's shape counted untied (llm-foundry yamls)"),
        ("cm", "source: compute from F_eff = r∞ · peak · η (the physics table's rule)"),
        ("em", "source: the mechanistic exposed time (the physics table's rule)"),
        ("nl", "source: llm-foundry's MPT-13B yaml: 40 layers"),
        ("hd", "source: llm-foundry's MPT-13B yaml: d_model 5,120"),
        ("nh", "source: llm-foundry's MPT-13B yaml: 40 heads"),
        ("sq", "source: llm-foundry scripts/train/benchmarking/README.md: sequence 2,048"),
        ("voc", "source: llm-foundry's MPT yamls: vocabulary 50,368"),
        ("mbs", "source: llm-foundry scripts/train/benchmarking/README.md: microbatch 2"),
        ("zero", "source: llm-foundry scripts/train/benchmarking/README.md: FULL_SHARD"),
        ("beff", "source: the H100 machine's NIC, 400 Gb/s per GPU (`scaling machines`); the README names H100 and no network"),
        ("peak", H100_PEAK),
        ("sw", BF16_WEIGHTS),
        ("gw", "source: the README's table runs these rows with MP Mode DEFAULT, which Composer defines as bf16 parameters and gradients reduced in fp32 (`get_mixed_precision` in composer/distributed; earlier Composer releases gathered the parameters in fp32 instead, more bytes still)"),
        ("hbm", H100_HBM),
        ("hres", RESERVE),
        ("tpo", "source: FULL_SHARD only, TP 1: no TP traffic"),
        ("nvd", HGX_DOMAIN),
        ("bnv", NVLINK_BUS),
    ]),
];

/// The keys every row of `panel::machine_runs` sets beyond its shape and its own columns.
pub const MACHINE_RUN_MARKS: Marks = &[
    ("view", "source: each row at its own GPU count and batch"),
    ("em", "source: the mechanistic exposed time (the physics table's rule)"),
    ("cm", "source: compute from F_eff = r∞ · peak · η (the physics table's rule)"),
    ("mach", "source: the row's system (machines-and-runs.md §1; `scaling machines`)"),
    ("prec", "source: the row's precision column (machines-and-runs.md §2, §3, §5)"),
    ("sq", "source: the row's seq column"),
    ("b", "source: the row's GBS × seq"),
    ("mbs", "source: the row's MBS column"),
    ("tp", "source: the row's TP column"),
    ("pp", "source: the row's PP column"),
    ("cp", "source: the row's CP column"),
    ("ep", "source: the row's EP column"),
    ("etp", "source: Megatron-Bridge's MoE performance recipes, `expert_tensor_parallel_size=1` (NVIDIA-NeMo/Megatron-Bridge v0.2.0, scripts/performance/configs/*/workload_base_configs.py)"),
    ("sched", "source: interleaved when the row's VP > 1 and PP > 1"),
    ("vc", "source: the row's VP column"),
    ("zero", "source: FSDP (ZeRO-3) when the row's FSDP > 0, else Megatron-Core's distributed optimizer (ZeRO-1, `mcore_distributed_optim`)"),
    ("sp", SEQUENCE_PARALLEL),
    ("tpo", TE_OVERLAP),
    ("ac", "source: `activations_checkpoint_granularity: null` (NeMo's launcher configs)"),
    ("fa", "source: `use_flash_attention: true` (NeMo's launcher configs)"),
    ("ofl", "source: `cpu_offloading_num_layers` of the row's Megatron-Bridge or NeMo performance recipe (`offloaded` in src/panel/machine_runs.rs names the files and commits)"),
    ("ns", "source: the row's GPUs column"),
    ("n0", "source: the row's GPUs column"),
    ("rinf", "fitted on the group's first row (machine × precision × release)"),
    ("nl", "source: the model's configuration (RUN_SHAPES)"),
    ("hd", "source: the model's configuration (RUN_SHAPES)"),
    ("nh", "source: the model's configuration (RUN_SHAPES)"),
    ("kvh", "source: the model's configuration (RUN_SHAPES)"),
    ("ffn", "source: the model's configuration (RUN_SHAPES)"),
    ("voc", "source: the model's configuration (RUN_SHAPES)"),
    ("ne", "source: the model's configuration (RUN_SHAPES)"),
    ("ke", "source: the model's configuration (RUN_SHAPES)"),
    ("hdim", "source: the model's configuration (RUN_SHAPES)"),
    ("nse", "source: the model's configuration (RUN_SHAPES)"),
    ("kvr", "source: the model's configuration (SHAPES' DeepSeek-V3, held to its config.json)"),
    ("qr", "source: the model's configuration (SHAPES' DeepSeek-V3, held to its config.json)"),
    ("rope", "source: the model's configuration (SHAPES' DeepSeek-V3, held to its config.json)"),
    ("dl", "source: the model's configuration (SHAPES' DeepSeek-V3, held to its config.json)"),
    ("dffn", "source: the model's configuration (SHAPES' DeepSeek-V3, held to its config.json)"),
    ("p", "source: the shape's parameter count (RUN_SHAPES)"),
    ("pa", "source: the shape's parameter count (RUN_SHAPES)"),
];

/// The keys every row of `panel::recompute_runs` (Korthikanti et al. 2022, Table 5) sets.
pub const RECOMPUTE_RUN_MARKS: Marks = &[
    ("view", "source: each row at its own GPU count and batch"),
    ("cm", "source: compute from F_eff = r∞ · peak · η (the physics table's rule)"),
    ("mach", "source: Selene's A100 SXM 80GB (Korthikanti et al. §6; `scaling machines`)"),
    ("prec", "source: half precision (Korthikanti et al. §6), the A100's BF16 peak"),
    ("nl", "source: Korthikanti et al. Table 3, layers"),
    ("hd", "source: Korthikanti et al. Table 3, hidden size"),
    ("nh", "source: Korthikanti et al. Table 3, attention heads"),
    ("kvh", "source: GPT's multi-head attention, as many K/V heads as heads"),
    ("ffn", "source: GPT's MLP of 4h (Korthikanti et al. §2)"),
    ("sq", "source: Korthikanti et al. §6, sequence length 2,048"),
    ("voc", "source: Korthikanti et al. §6, vocabulary 51,200"),
    ("p", "source: the shape's parameter count, 12·L·h² + 2·V·h"),
    ("pa", "source: the shape's parameter count, 12·L·h² + 2·V·h"),
    ("b", "source: Korthikanti et al. Table 3, global batch × 2,048"),
    ("mbs", "source: Korthikanti et al. Table 3, microbatch"),
    ("tp", "source: Korthikanti et al. Table 3, TP 8"),
    ("pp", "source: Korthikanti et al. Table 3, PP"),
    ("sched", "source: interleaved for 175B and 530B (§6); 1F1B for 22B (PP 1) and 1T (Calculon's validation/seqsel/tab5: pipeline_interleaving 1)"),
    ("vc", "source: three interleaved stages for 175B and 530B (§6)"),
    ("zero", "source: \"no data parallelism is used\" (§6): nothing to shard"),
    ("gw", MEGATRON_GRADS),
    ("ac", "source: Table 5, full recomputation or selective"),
    ("sp", "source: Table 5, sequence parallelism with selective recomputation only"),
    ("tpo", "source: no TP communication overlap (Calculon's tab5 files: tensor_par_overlap none)"),
    ("fa", "source: selective recomputation of attention, not FlashAttention (Korthikanti et al. §5)"),
    ("drop", "source: trained with dropout, whose masks the activation memory counts (Korthikanti et al. §4.1); Calculon's block holds the dropout layers"),
    ("ns", "source: Korthikanti et al. Table 3, GPUs"),
    ("n0", "source: Korthikanti et al. Table 3, GPUs"),
    ("rinf", "fitted on Table 5's first row (22B, full recomputation)"),
];

/// The mark of `key` in `marks`.
pub fn mark(marks: Marks, key: &str) -> Option<&'static str> {
    marks.iter().find(|(k, _)| *k == key).map(|&(_, m)| m)
}

/// The mark of `key` in a measured preset's tables ([`PRESET_MARKS`]), the first that has it.
pub fn preset_mark(preset: &str, key: &str) -> Option<&'static str> {
    PRESET_MARKS
        .iter()
        .find(|(name, _)| *name == preset)
        .and_then(|(_, tables)| tables.iter().find_map(|t| mark(t, key)))
}
