//! The scenario's layout, batch and recomputation as another tool's launch settings: the
//! reverse of [`super::import`], for a reader who found a layout here (the explorer's rows)
//! and wants to run it. Only what the tool names is written — the shape, data and optimiser
//! settings stay the reader's — and what the tool cannot express is said in a comment.
//!
//! Megatron-LM (`megatron/training/arguments.py`): `--global-batch-size` counts sequences;
//! the interleaved schedule is `--num-layers-per-virtual-pipeline-stage L/(PP·v)`; ZeRO-1 is
//! `--use-distributed-optimizer`, ZeRO-2 and 3 Megatron-FSDP's `optim_grads` and
//! `optim_grads_params` with the flags it requires; TP overlap `--tp-comm-overlap`; recomputing all layers is `--recompute-method uniform
//! --recompute-num-layers 1`, `k` of each stage's `block` with `k`.
//!
//! torchtitan (`torchtitan/config/job_config.py`): `global_batch_size` in sequences; FSDP is
//! `data_parallel_shard_degree = -1`, DDP `1`; the interleaved schedule `Interleaved1F1B`
//! with `pipeline_parallel_layers_per_stage`; zero bubble `ZBVZeroBubble`; recomputation
//! `activation_checkpoint.mode`, selective per op. ZeRO-1 and 2 and partial recomputation
//! have no torchtitan setting (a comment says so, in the reader's language).
//!
//! NeMo 2.0 (`nemo.lightning.MegatronStrategy`, `MockDataModule`/`PreTrainingDataModule`,
//! `model.config`): overrides `path=value`; the interleaved chunks are
//! `virtual_pipeline_model_parallel_size` itself; ZeRO-1 is the distributed optimizer, and
//! ZeRO-2 and 3 have no `MegatronStrategy` setting.

use super::Scenario;
use crate::i18n::tr;
use crate::model::memory::Recompute;
use crate::model::step::PipelineSchedule;

/// The tools a layout is written for (`megatron`, `torchtitan`, `nemo` in the page's
/// requests, [`crate::runs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tool {
    Megatron,
    Torchtitan,
    Nemo,
}

/// The scenario's layout, batch and recomputation in `tool`'s words, one setting a line, at
/// `gpus` GPUs (torchtitan's per-rank batch depends on the data-parallel degree there).
pub fn launch_settings(scenario: &Scenario, tool: Tool, gpus: f64) -> String {
    match tool {
        Tool::Megatron => megatron(scenario, gpus),
        Tool::Torchtitan => torchtitan(scenario, gpus),
        Tool::Nemo => nemo(scenario, gpus),
    }
}

/// NeMo 2.0 recipe overrides, one `path=value` a line (nemo-run's command line takes them
/// after the recipe): `MegatronStrategy`'s layout, the data module's batch, `model.config`'s
/// recomputation, the optimizer's distributed flag.
fn nemo(s: &Scenario, gpus: f64) -> String {
    let l = &s.llm;
    let w = &l.walls;
    let mut out = vec![
        format!("trainer.strategy.tensor_model_parallel_size={}", l.tp),
        format!("trainer.strategy.pipeline_model_parallel_size={}", l.pp),
    ];
    match (l.pp > 1, l.schedule) {
        (true, PipelineSchedule::Interleaved) => out.push(format!(
            "trainer.strategy.virtual_pipeline_model_parallel_size={}",
            l.chunks
        )),
        (true, PipelineSchedule::ZeroBubble) => out.push(
            tr(
                "# zero-bubble schedule: NeMo has no setting for it",
                "# 零气泡调度：NeMo 没有对应的设置",
            )
            .to_string(),
        ),
        _ => out.push("trainer.strategy.virtual_pipeline_model_parallel_size=None".to_string()),
    }
    out.push(format!("trainer.strategy.context_parallel_size={}", l.cp));
    out.push(format!(
        "trainer.strategy.expert_model_parallel_size={}",
        w.ep
    ));
    if w.etp > 0 && w.experts > 1.0 {
        out.push(format!(
            "trainer.strategy.expert_tensor_parallel_size={}",
            w.etp
        ));
    }
    out.push(format!(
        "trainer.strategy.sequence_parallel={}",
        if w.sequence_parallel { "True" } else { "False" }
    ));
    let set = |key: &str, value: String| format!("{key}={value}");
    out.push(micro_line(s, "data.micro_batch_size", set));
    out.extend(batch_lines(
        s,
        gpus,
        "data.global_batch_size",
        "data.seq_length",
        set,
    ));
    match w.zero {
        0 => out.push("optim.config.use_distributed_optimizer=False".to_string()),
        1 => out.push("optim.config.use_distributed_optimizer=True".to_string()),
        z => out.push(trf!(
            "# ZeRO-{}: NeMo's MegatronStrategy has no such mode (the distributed optimizer is ZeRO-1)",
            "# ZeRO-{}：NeMo 的 MegatronStrategy 没有这种模式（分布式优化器相当于 ZeRO-1）",
            z
        )),
    }
    match (w.recompute, w.recompute_layers) {
        (Recompute::None, _) => out.push("model.config.recompute_granularity=None".to_string()),
        (Recompute::Selective, _) => {
            out.push("model.config.recompute_granularity=selective".to_string())
        }
        (Recompute::Full, k) => {
            out.push("model.config.recompute_granularity=full".to_string());
            out.push(format!(
                "model.config.recompute_method={}",
                if k == 0 { "uniform" } else { "block" }
            ));
            out.push(format!("model.config.recompute_num_layers={}", k.max(1)));
        }
    }
    if let Some(k) = offloaded_layers(s) {
        out.push("model.config.cpu_offloading=True".to_string());
        out.push(format!("model.config.cpu_offloading_num_layers={k}"));
    }
    out.join("\n") + "\n"
}

/// A torchtitan job config's `[training]`, `[parallelism]` and `[activation_checkpoint]`
/// tables. With a pipeline, a rank's `local_batch_size` is the step's `A` microbatches of
/// `pipeline_parallel_microbatch_size` (one pipeline pass a step, as the model runs it).
fn torchtitan(s: &Scenario, gpus: f64) -> String {
    let l = &s.llm;
    let w = &l.walls;
    let mut training = Vec::new();
    let mut parallel = Vec::new();
    let mbs = l.microbatch_sequences;
    let layout = s.llm_inputs().layout_at(gpus, l.global_batch_tokens);
    let key = |key: &str, value: String| format!("{key} = {value}");
    if mbs == 0 || l.pp == 1 {
        training.push(micro_line(s, "local_batch_size", key));
    } else {
        training.push(format!(
            "local_batch_size = {}  # {} microbatches of {mbs} at {gpus} GPUs",
            u64::from(mbs) * u64::from(layout.accumulation),
            layout.accumulation
        ));
        parallel.push(format!("pipeline_parallel_microbatch_size = {mbs}"));
    }
    training.extend(batch_lines(s, gpus, "global_batch_size", "seq_len", key));
    match w.zero {
        0 => parallel.push(
            "data_parallel_shard_degree = 1  # data_parallel_replicate_degree: the DP degree"
                .to_string(),
        ),
        3 => parallel.push("data_parallel_shard_degree = -1".to_string()),
        z => parallel.push(trf!(
            "# ZeRO-{}: torchtitan has no such mode (FSDP is ZeRO-3, DDP ZeRO-0)",
            "# ZeRO-{}：torchtitan 没有这种模式（FSDP 相当于 ZeRO-3，DDP 相当于 ZeRO-0）",
            z
        )),
    }
    parallel.push(format!("tensor_parallel_degree = {}", l.tp));
    parallel.push(format!("pipeline_parallel_degree = {}", l.pp));
    parallel.push(format!("context_parallel_degree = {}", l.cp));
    parallel.push(format!("expert_parallel_degree = {}", w.ep));
    if w.experts > 1.0 {
        // torchtitan's default is 1, Megatron-Core's (the key's `0`) the TP degree.
        let etp = if w.etp > 0 { w.etp } else { l.tp };
        parallel.push(format!("expert_tensor_parallel_degree = {etp}"));
    }
    if l.pp > 1 {
        match l.schedule {
            PipelineSchedule::OneFOneB => {
                parallel.push("pipeline_parallel_schedule = \"1F1B\"".to_string())
            }
            PipelineSchedule::ZeroBubble => {
                parallel.push("pipeline_parallel_schedule = \"ZBVZeroBubble\"".to_string())
            }
            PipelineSchedule::Interleaved => {
                parallel.push("pipeline_parallel_schedule = \"Interleaved1F1B\"".to_string());
                let per = w.layers / (f64::from(l.pp) * f64::from(l.chunks));
                if per >= 1.0 && per.fract() == 0.0 {
                    parallel.push(format!("pipeline_parallel_layers_per_stage = {per}"));
                } else {
                    parallel.push(trf!(
                        "# {} chunks a stage: {} layers do not split evenly",
                        "# 每个 stage {} 个块：{} 层无法均分",
                        l.chunks,
                        w.layers
                    ));
                }
            }
        }
    }
    let checkpoint = match (w.recompute, w.recompute_layers) {
        (Recompute::None, _) => "mode = \"none\"".to_string(),
        (Recompute::Selective, _) => {
            "mode = \"selective\"\nselective_ac_option = \"op\"".to_string()
        }
        (Recompute::Full, 0) => "mode = \"full\"".to_string(),
        (Recompute::Full, k) => trf!(
            "# {} layers of each stage recomputed: torchtitan has no such mode (all or none)",
            "# 每个 stage 重计算 {} 层：torchtitan 没有这种模式（只能全部重计算或不重计算）",
            k
        ),
    };
    format!(
        "[training]\n{}\n\n[parallelism]\n{}\n\n[activation_checkpoint]\n{checkpoint}\n",
        training.join("\n"),
        parallel.join("\n")
    )
}

/// Megatron-LM flags, one a line (a script pastes them after `pretrain_gpt.py`).
fn megatron(s: &Scenario, gpus: f64) -> String {
    let l = &s.llm;
    let w = &l.walls;
    let mut out: Vec<String> = vec![
        format!("--tensor-model-parallel-size {}", l.tp),
        format!("--pipeline-model-parallel-size {}", l.pp),
    ];
    if l.pp > 1 && l.schedule == PipelineSchedule::Interleaved {
        let stages = f64::from(l.pp) * f64::from(l.chunks);
        let per = w.layers / stages;
        if per >= 1.0 && per.fract() == 0.0 {
            out.push(format!("--num-layers-per-virtual-pipeline-stage {per}"));
        } else {
            out.push(trf!(
                "# interleaved with {} chunks a stage: {} layers do not split evenly",
                "# 交错式，每个 stage {} 个块：{} 层无法均分",
                l.chunks,
                w.layers
            ));
        }
    }
    if l.pp > 1 && l.schedule == PipelineSchedule::ZeroBubble {
        out.push(
            tr(
                "# zero-bubble schedule: Megatron-LM has no flag for it",
                "# 零气泡调度：Megatron-LM 没有对应的参数",
            )
            .to_string(),
        );
    }
    if l.cp > 1 {
        out.push(format!("--context-parallel-size {}", l.cp));
    }
    if w.ep > 1 {
        out.push(format!("--expert-model-parallel-size {}", w.ep));
    }
    if w.etp > 0 && w.experts > 1.0 {
        out.push(format!("--expert-tensor-parallel-size {}", w.etp));
    }
    let flag = |key: &str, value: String| format!("{key} {value}");
    out.push(micro_line(s, "--micro-batch-size", flag));
    out.extend(batch_lines(
        s,
        gpus,
        "--global-batch-size",
        "--seq-length",
        flag,
    ));
    if w.sequence_parallel {
        out.push("--sequence-parallel".to_string());
    }
    match w.zero {
        0 => {}
        1 => out.push("--use-distributed-optimizer".to_string()),
        // Megatron-FSDP with the flags its guide requires beside it: the checkpoint format
        // (`docs/user-guide/features/megatron_fsdp.md` at d98e8a6), and the distributed
        // optimizer and no gradient-accumulation fusion, which the 2025 guide
        // (`docs/discussions/megatron-fsdp-user-guide`) also required; the current one sets
        // the first itself and supports the fusion, so both only cost a newer release a
        // fusion, and an older one launches.
        z => out.extend([
            format!(
                "--use-megatron-fsdp --data-parallel-sharding-strategy {}",
                if z == 2 {
                    "optim_grads"
                } else {
                    "optim_grads_params"
                }
            ),
            "--use-distributed-optimizer".to_string(),
            "--no-gradient-accumulation-fusion".to_string(),
            "--ckpt-format fsdp_dtensor".to_string(),
        ]),
    }
    // Transformer Engine's userbuffers overlap of TP, which the scenario's `tpo` assumes.
    if l.tp > 1 && w.tp_overlap > 0.0 {
        out.push("--tp-comm-overlap".to_string());
    }
    match (w.recompute, w.recompute_layers) {
        (Recompute::None, _) => {}
        (Recompute::Selective, _) => out.push("--recompute-granularity selective".to_string()),
        (Recompute::Full, 0) => out.push(
            "--recompute-granularity full --recompute-method uniform --recompute-num-layers 1"
                .to_string(),
        ),
        (Recompute::Full, k) => out.push(format!(
            "--recompute-granularity full --recompute-method block --recompute-num-layers {k}"
        )),
    }
    // Megatron-LM turns `cpu_offloading` on with a count above 0.
    if let Some(k) = offloaded_layers(s) {
        out.push(format!("--cpu-offloading-num-layers {k}"));
    }
    out.join("\n") + "\n"
}

/// The layers whose activations the scenario offloads to host memory, where Megatron-Core
/// allows it (no pipeline, no recomputation, one layer left on the GPU): what the model counts
/// (`ActivationSettings::offloaded_layers`), `None` for none.
fn offloaded_layers(s: &Scenario) -> Option<u32> {
    let w = &s.llm.walls;
    let none = w.recompute == Recompute::None && s.llm.pp == 1;
    let k = w.offload_layers.min((w.layers as u32).saturating_sub(1));
    (none && k > 0).then_some(k)
}

/// The microbatch in sequences as `line(key, value)`, or a comment: with `mbs=0` the scenario
/// fixes `A` instead, which no tool's microbatch setting says.
fn micro_line(s: &Scenario, key: &str, line: impl Fn(&str, String) -> String) -> String {
    let l = &s.llm;
    if l.microbatch_sequences > 0 {
        line(key, l.microbatch_sequences.to_string())
    } else {
        trf!(
            "# {}: the scenario fixes A = {} instead (mbs=0)",
            "# {}：本场景改为固定 A = {}（mbs=0）",
            key,
            l.accumulation
        )
    }
}

/// The global batch in sequences of `sq` and the sequence length, as `line(key, value)`. A
/// batch that is not a whole number of microbatches of sequences goes as the nearest one,
/// after a comment saying so; one that is not a multiple of the microbatch times the
/// data-parallel ranks at `gpus` (the launchers refuse it) is said in a comment; without a
/// sequence length, a comment.
fn batch_lines(
    s: &Scenario,
    gpus: f64,
    batch: &str,
    seq: &str,
    line: impl Fn(&str, String) -> String,
) -> Vec<String> {
    let l = &s.llm;
    let (tokens, seq_len) = (l.global_batch_tokens, l.walls.seq_len);
    if seq_len <= 0.0 {
        return vec![trf!(
            "# {}: the scenario has no sequence length (sq); its batch is {} tokens",
            "# {}：本场景没有序列长度（sq）；其 batch 为 {} tokens",
            batch,
            tokens
        )];
    }
    let sequences = tokens / seq_len;
    let micro = f64::from(l.microbatch_sequences.max(1));
    let whole = ((sequences / micro).round() * micro).max(micro);
    let ranks = (gpus / f64::from(l.tp * l.pp * l.cp)).floor().max(1.0);
    let mut out = Vec::new();
    if whole != sequences {
        out.push(trf!(
            "# {}: {} tokens are {} sequences of {}; the nearest whole number of microbatches is written",
            "# {}：{} tokens 为 {} 条长 {} 的序列；写入最接近的 microbatch 整数倍",
            batch,
            tokens,
            (sequences * 1e3).round() / 1e3,
            seq_len
        ));
    }
    if (whole / (micro * ranks)).fract() != 0.0 {
        out.push(trf!(
            "# {}: not a multiple of the microbatch times the {} data-parallel ranks at {} GPUs, which the launcher requires",
            "# {}：不是 microbatch 乘以 {} 个数据并行 rank（{} 卡时）的整数倍，启动器要求如此",
            batch,
            ranks,
            gpus
        ));
    }
    out.push(line(batch, whole.to_string()));
    out.push(line(seq, seq_len.to_string()));
    out
}
