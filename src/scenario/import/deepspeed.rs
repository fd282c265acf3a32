//! A DeepSpeed config (`ds_config.json`): the run's batch, ZeRO stage and AutoTP degree, with
//! no model (the model is the training script's). `train_micro_batch_size_per_gpu` is the
//! microbatch in sequences, `train_batch_size` the global batch in sequences (of the
//! scenario's `sq`: the config has no sequence length), `zero_optimization.stage` the ZeRO
//! stage and `tensor_parallel.autotp_size` the TP degree. `"auto"` values are filled in by the
//! Hugging Face Trainer at launch, so they set nothing. Keys are reported by their dotted path
//! (`zero_optimization.stage`) on their line.

use super::nemo::Override;
use super::{count, line_of, no_effect, unread, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;
use serde_json::{Map, Value};

/// The top-level keys only a DeepSpeed config has (a model config has none of them).
const DEEPSPEED_KEYS: [&str; 4] = [
    "train_micro_batch_size_per_gpu",
    "train_batch_size",
    "gradient_accumulation_steps",
    "zero_optimization",
];

/// Whether `root` is a DeepSpeed config: a key of [`DEEPSPEED_KEYS`] and no model's layers.
pub(super) fn is_deepspeed(root: &Map<String, Value>) -> bool {
    DEEPSPEED_KEYS.iter().any(|k| root.contains_key(*k))
        && !["num_layers", "num_hidden_layers", "n_layers", "model_type"]
            .iter()
            .any(|k| root.contains_key(*k))
}

/// The leaves of `value` under `path`, each on the line of its key: found in `text` after its
/// parent's key, so `stage` is `zero_optimization`'s.
fn leaves(text: &str, value: &Value, path: &str, from: usize, out: &mut Vec<Override>) {
    let Value::Object(map) = value else {
        return;
    };
    for (key, v) in map {
        let child = if path.is_empty() {
            key.clone()
        } else {
            format!("{path}.{key}")
        };
        let at = text[from..]
            .find(&format!("\"{key}\""))
            .map_or(from, |i| from + i);
        match v {
            Value::Object(_) => leaves(text, v, &child, at, out),
            Value::String(s) => out.push(Override {
                path: child,
                value: s.clone(),
                line: line_of(text, at),
            }),
            other => out.push(Override {
                path: child,
                value: other.to_string(),
                line: line_of(text, at),
            }),
        }
    }
}

/// Reads a DeepSpeed config parsed as `root` from `text`.
pub(super) fn read(text: &str, root: &Map<String, Value>) -> Result<Import, ImportError> {
    let mut all = Vec::new();
    leaves(text, &Value::Object(root.clone()), "", 0, &mut all);
    let mut entries = Vec::new();
    for o in &all {
        let outcome = match o.path.as_str() {
            _ if o.value == "auto" => Outcome::Ignored(tr(
                "\"auto\": the Hugging Face Trainer fills it in at launch from its own arguments",
                "“auto”：由 Hugging Face Trainer 启动时按其参数填入",
            )),
            "train_micro_batch_size_per_gpu" => {
                Outcome::Set(Key::Microbatch, whole(o)?.to_string())
            }
            "train_batch_size" => {
                Outcome::Set(Key::GlobalBatch, format!("{} sequences", whole(o)?))
            }
            "zero_optimization.stage" => match whole_or_zero(o)? {
                stage @ 0..=3 => Outcome::Set(Key::Zero, stage.to_string()),
                _ => {
                    return Err(ImportError::NotOneOf {
                        source: o.path.clone(),
                        line: o.line,
                        value: o.value.clone(),
                        choices: "0, 1, 2, 3",
                    })
                }
            },
            "tensor_parallel.autotp_size" | "tensor_parallel.tp_size" => {
                Outcome::Set(Key::Tp, whole(o)?.to_string())
            }
            path => unread(path, unread_reason(path, &o.value), |_| &[]),
        };
        entries.push(super::Entry {
            source: o.path.clone(),
            line: o.line,
            outcome,
        });
    }
    entries.sort_by_key(|e| e.line);
    Ok(Import {
        format: Format::DeepSpeed,
        entries,
    })
}

fn whole(o: &Override) -> Result<u64, ImportError> {
    o.value
        .parse::<f64>()
        .ok()
        .and_then(count)
        .ok_or_else(|| super::nemo::bad(o))
}

/// A ZeRO stage: a whole number from 0.
fn whole_or_zero(o: &Override) -> Result<u64, ImportError> {
    if o.value.trim() == "0" {
        Ok(0)
    } else {
        whole(o)
    }
}

/// Why a key left unread is left unread: what it is when known, or that it changes neither
/// memory, traffic nor FLOPs (the optimizer's constants and schedule, clipping, logging and
/// profiling); any other as not known.
pub(super) fn unread_reason(path: &str, value: &str) -> Option<&'static str> {
    const NO_EFFECT_PREFIXES: [&str; 11] = [
        "optimizer.",
        "scheduler.",
        "gradient_clipping",
        "steps_per_print",
        "wall_clock_breakdown",
        "tensorboard.",
        "wandb.",
        "csv_monitor.",
        "flops_profiler.",
        "comms_logger.",
        "zero_optimization.gather_16bit_weights_on_model_save",
    ];
    let offload =
        path.starts_with("zero_optimization.offload_") || path == "zero_optimization.cpu_offload";
    Some(match path {
        "gradient_accumulation_steps" => super::notes::accumulation(),
        _ if offload && !matches!(value, "none" | "false") => tr(
            "not modelled: optimizer states or weights kept in CPU memory or NVMe, and their PCIe traffic",
            "未建模：放在 CPU 内存或 NVMe 上的优化器状态或权重，及其 PCIe 传输",
        ),
        _ if offload => no_effect(),
        p if p.starts_with("bf16.")
            || p.starts_with("fp16.")
            || p.starts_with("torch_autocast.") =>
        {
            super::notes::precision()
        }
        p if p.starts_with("activation_checkpointing.") => tr(
            "not modelled: DeepSpeed checkpoints the layers the training script wraps; set ac for them",
            "未建模：DeepSpeed 只对训练脚本包装的层做检查点；请相应设置 ac",
        ),
        p if p.starts_with("zero_optimization.") => tr(
            "not modelled: how ZeRO buckets and overlaps its traffic (the model overlaps it as Megatron-Core does)",
            "未建模：ZeRO 如何分桶与重叠通信（模型按 Megatron-Core 的方式重叠）",
        ),
        p if NO_EFFECT_PREFIXES.iter().any(|x| p.starts_with(x)) => no_effect(),
        _ => return None,
    })
}
