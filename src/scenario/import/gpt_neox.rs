//! A GPT-NeoX config (`configs/*.yml`: YAML written as JSON with comments, read through
//! [`super::yaml`]): the model and its run in one file, with Megatron-LM's names
//! (`num_layers`, `hidden_size`) and DeepSpeed's (`train_micro_batch_size_per_gpu`,
//! `zero_optimization.stage`). `model_parallel_size` is the TP degree and `pipe_parallel_size`
//! the pipeline's (0 and 1 both one stage); `checkpoint_activations` recomputes every layer;
//! `intermediate_size` of a SwiGLU MLP is three times one branch's width (GPT-NeoX takes
//! two thirds of it for the fused gate and value, half of that each), of a GELU MLP the width
//! itself (`4h` when absent).

use super::nemo::{bad, boolean, entry, find, null, number, Override};
use super::{no_effect, unread, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;

const COUNTS: [(&str, Key); 7] = [
    ("num_layers", Key::Layers),
    ("hidden_size", Key::Hidden),
    ("num_attention_heads", Key::Heads),
    ("seq_length", Key::SeqLen),
    ("model_parallel_size", Key::Tp),
    ("train_micro_batch_size_per_gpu", Key::Microbatch),
    ("padded_vocab_size", Key::Vocab),
];

/// Reads a GPT-NeoX config from its leaves.
pub(super) fn read(all: &[Override]) -> Result<Import, ImportError> {
    let mut entries = Vec::new();
    let mut read: Vec<&str> = Vec::new();
    let value = |path: &str| find(all, path).filter(|o| !null(&o.value));
    let count = |path: &str| value(path).map(number).transpose();
    for (path, key) in COUNTS {
        if let Some(o) = value(path) {
            read.push(path);
            entries.push(entry(o, Outcome::Set(key, number(o)?.to_string())));
        }
    }
    if let Some(o) = value("pipe_parallel_size") {
        read.push("pipe_parallel_size");
        let pp = o.value.trim().parse::<u64>().map_err(|_| bad(o))?.max(1);
        entries.push(entry(o, Outcome::Set(Key::Pp, pp.to_string())));
    }
    shape(all, &mut entries, &mut read)?;
    if let Some(o) = value("train_batch_size") {
        read.push("train_batch_size");
        let g = number(o)?;
        let tokens = count("seq_length")?.map(|s| g * s);
        entries.push(entry(
            o,
            Outcome::Set(
                Key::GlobalBatch,
                tokens.map_or_else(|| format!("{g} sequences"), |t| t.to_string()),
            ),
        ));
    }
    if let Some(o) = value("zero_optimization.stage") {
        read.push("zero_optimization.stage");
        let stage = o
            .value
            .trim()
            .parse::<u8>()
            .ok()
            .filter(|s| *s <= 3)
            .ok_or_else(|| bad(o))?;
        entries.push(entry(o, Outcome::Set(Key::Zero, stage.to_string())));
    }
    if let Some(o) = value("checkpoint_activations") {
        read.push("checkpoint_activations");
        let on = boolean(&o.value).ok_or_else(|| bad(o))?;
        entries.push(entry(
            o,
            Outcome::Set(Key::Recompute, if on { "full" } else { "none" }.into()),
        ));
        if on {
            entries.push(entry(o, Outcome::Set(Key::RecomputeLayers, "0".into())));
        }
    }
    if let Some(o) = value("no_weight_tying") {
        read.push("no_weight_tying");
        if !boolean(&o.value).ok_or_else(|| bad(o))? {
            entries.push(entry(
                o,
                Outcome::Approximated(None, String::new(), super::notes::tied()),
            ));
        }
    }
    for o in all {
        if !read.contains(&o.path.as_str()) {
            let why = unread_reason(&o.path, &o.value);
            entries.push(entry(o, unread(&o.path, why, |s| s.megatron)));
        }
    }
    entries.sort_by_key(|e| e.line);
    Ok(Import {
        format: Format::GptNeox,
        entries,
    })
}

/// The KV heads (`num_kv_heads`, or as many as heads) and the MLP's width.
fn shape(
    all: &[Override],
    entries: &mut Vec<super::Entry>,
    read: &mut Vec<&str>,
) -> Result<(), ImportError> {
    let value = |path: &str| find(all, path).filter(|o| !null(&o.value));
    let count = |path: &str| value(path).map(number).transpose();
    let heads = count("num_attention_heads")?;
    match (value("num_kv_heads"), heads) {
        (Some(o), _) => {
            read.push("num_kv_heads");
            let kv = number(o)?;
            if heads.is_some_and(|nh| nh % kv != 0) {
                return Err(ImportError::Contradiction {
                    first: "num_attention_heads".into(),
                    second: "num_kv_heads".into(),
                    line: o.line,
                });
            }
            entries.push(entry(o, Outcome::Set(Key::KvHeads, kv.to_string())));
        }
        (None, Some(nh)) => {
            let o = value("num_attention_heads").expect("the heads were read");
            entries.push(entry(o, Outcome::Set(Key::KvHeads, nh.to_string())));
        }
        (None, None) => {}
    }
    let gated = value("activation").is_some_and(|o| o.value.ends_with("glu"));
    read.push("activation");
    let hidden = count("hidden_size")?;
    match (value("intermediate_size"), hidden) {
        // GPT-NeoX's SwiGLU `intermediate_size` is three branch widths.
        (Some(o), _) => {
            let w = number(o)?;
            let w = if gated { w / 3 } else { w };
            entries.push(entry(o, super::notes::mlp_width(w, hidden, gated)));
        }
        (None, Some(_)) if !gated => {
            let o = value("hidden_size").expect("the width was read");
            entries.push(entry(o, Outcome::Set(Key::Ffn, "0".into())));
        }
        (None, _) => {}
    }
    read.push("intermediate_size");
    Ok(())
}

/// Why a key left unread is left unread: what it is when known, or that it changes neither
/// memory, traffic nor FLOPs (the optimizer, its schedule and clipping, dropout and
/// initialisation, norms and position encodings, kernel fusions, data, checkpoints, logging
/// and the run's length); any other as not known.
fn unread_reason(path: &str, value: &str) -> Option<&'static str> {
    const NO_EFFECT_PREFIXES: [&str; 32] = [
        "optimizer.",
        "min_lr",
        "lr_decay_",
        "warmup",
        "weight_decay",
        "gradient_clipping",
        "hidden_dropout",
        "attention_dropout",
        "init_method",
        "output_layer_init_method",
        "norm",
        "layernorm_epsilon",
        "rms_norm_epsilon",
        "pos_emb",
        "rotary_",
        "use_bias_in_",
        "data_",
        "split",
        "train_iters",
        "eval_",
        "save",
        "load",
        "checkpoint_factor",
        "extra_save_iters",
        "keep_last_n_checkpoints",
        "log_",
        "steps_per_print",
        "wall_clock_breakdown",
        "distributed_backend",
        "synchronize_each_layer",
        "output_layer_parallelism",
        "checkpoint_num_layers",
    ];
    Some(match path {
        "gradient_accumulation_steps" => super::notes::accumulation(),
        "max_position_embeddings" => super::notes::positions(),
        "make_vocab_size_divisible_by" => super::notes::vocabulary_padding(),
        "tokenizer_type" | "vocab_file" | "merge_file" => super::notes::tokenizer(),
        "partition_activations" => tr(
            "not modelled: checkpointed activations split across the TP ranks (less memory, an all-gather in the backward)",
            "未建模：检查点激活在 TP rank 间切分（省显存，反向时多一次 AllGather）",
        ),
        "gpt_j_residual" => tr(
            "not modelled: attention and MLP in parallel from one norm (GPT-J's residual), one TP all-reduce for both",
            "未建模：注意力与 MLP 由同一个 norm 并行计算（GPT-J 残差），二者共用一次 TP AllReduce",
        ),
        "precision" => super::notes::precision(),
        // DeepSpeed's own sections, as in a DeepSpeed config.
        p if ["fp16.", "bf16.", "zero_optimization."]
            .iter()
            .any(|x| p.starts_with(x)) =>
        {
            return super::deepspeed::unread_reason(p, value)
        }
        p if p.ends_with("_fusion") => no_effect(),
        p if NO_EFFECT_PREFIXES.iter().any(|x| p.starts_with(x)) => no_effect(),
        _ => return None,
    })
}
