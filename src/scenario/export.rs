//! The scenario's layout, batch and recomputation as another tool's launch settings: the
//! reverse of [`super::import`], for a reader who found a layout here (the explorer's rows)
//! and wants to run it. Only what the tool names is written — the shape, data and optimiser
//! settings stay the reader's — and what the tool cannot express is said in a comment.
//!
//! Megatron-LM (`megatron/training/arguments.py`): `--global-batch-size` counts sequences;
//! the interleaved schedule is `--num-layers-per-virtual-pipeline-stage L/(PP·v)`; ZeRO-1 is
//! `--use-distributed-optimizer`, ZeRO-2 and 3 Megatron-FSDP's `optim_grads` and
//! `optim_grads_params`; recomputing all layers is `--recompute-method uniform
//! --recompute-num-layers 1`, `k` of each stage's `block` with `k`.

use super::Scenario;
use crate::model::memory::Recompute;
use crate::model::step::PipelineSchedule;

/// The tools a layout is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Megatron,
}

/// The scenario's layout, batch and recomputation in `tool`'s words, one setting a line.
pub fn launch_settings(scenario: &Scenario, tool: Tool) -> String {
    match tool {
        Tool::Megatron => megatron(scenario),
    }
}

/// Megatron-LM flags, one a line (a script pastes them after `pretrain_gpt.py`).
fn megatron(s: &Scenario) -> String {
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
            out.push(format!(
                "# interleaved with {} chunks a stage: {} layers do not split evenly",
                l.chunks, w.layers
            ));
        }
    }
    if l.pp > 1 && l.schedule == PipelineSchedule::ZeroBubble {
        out.push("# zero-bubble schedule: Megatron-LM has no flag for it".to_string());
    }
    if l.cp > 1 {
        out.push(format!("--context-parallel-size {}", l.cp));
    }
    if w.ep > 1 {
        out.push(format!("--expert-model-parallel-size {}", w.ep));
    }
    if l.microbatch_sequences > 0 {
        out.push(format!("--micro-batch-size {}", l.microbatch_sequences));
    } else {
        out.push(format!(
            "# micro-batch: the scenario fixes A = {} instead (mbs=0)",
            l.accumulation
        ));
    }
    let sequences = l.global_batch_tokens / w.seq_len;
    if w.seq_len > 0.0 && sequences >= 1.0 && sequences.fract() == 0.0 {
        out.push(format!("--global-batch-size {sequences}"));
        out.push(format!("--seq-length {}", w.seq_len));
    } else {
        out.push(format!(
            "# global batch: {} tokens is not a whole number of sequences of sq = {}",
            l.global_batch_tokens, w.seq_len
        ));
    }
    if w.sequence_parallel {
        out.push("--sequence-parallel".to_string());
    }
    match w.zero {
        0 => {}
        1 => out.push("--use-distributed-optimizer".to_string()),
        z => out.push(format!(
            "--use-megatron-fsdp --data-parallel-sharding-strategy {}",
            if z == 2 {
                "optim_grads"
            } else {
                "optim_grads_params"
            }
        )),
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
    out.join("\n") + "\n"
}
