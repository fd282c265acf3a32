//! A torchtitan job config (TOML; `torchtitan/config/job_config.py`): the layout, batch and
//! recomputation, in the tables of today's configs (`[parallelism]`, `training.local_batch_size`)
//! or of those before mid-2025 (the degrees in `[training]`, pipeline and context parallelism in
//! `[experimental]`, `training.batch_size`). Read with the `toml` crate, which only the command line builds (cargo
//! feature `toml`): its bytes would not fit the page's size budget, so the page says to use
//! `scaling import`.
//!
//! torchtitan's conventions, mapped: `training.local_batch_size` is a data-parallel rank's
//! batch per forward pass, split into pipeline microbatches of
//! `parallelism.pipeline_parallel_microbatch_size` when `pipeline_parallel_degree > 1`;
//! `global_batch_size` counts sequences of `seq_len` (`-1`: local × data-parallel degree,
//! which depends on the GPU count); `data_parallel_shard_degree` other than 1 is FSDP
//! (ZeRO-3), 1 with a replicate degree is DDP (ZeRO-0); `pipeline_parallel_layers_per_stage`
//! gives the interleaved chunks `v = L/(PP·k)`.

use super::{line_of, no_effect, unread, Entry, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;
// toml's own parsed tree (no serde: its deserializer would double the parser's size in the
// runs module).
use toml::de::{DeTable as Table, DeValue as Value};

/// The config being read and what has been said of it.
struct Reader<'a> {
    text: &'a str,
    root: Table<'a>,
    entries: Vec<Entry>,
    read: Vec<String>,
}

impl<'a> Reader<'a> {
    fn value(&self, table: &str, key: &str) -> Option<&Value<'a>> {
        Some(
            self.root
                .get(table)?
                .get_ref()
                .as_table()?
                .get(key)?
                .get_ref(),
        )
    }

    /// The line of `key` inside `[table]`.
    fn line(&self, table: &str, key: &str) -> usize {
        let start = self.text.find(&format!("[{table}]")).unwrap_or(0);
        self.text[start..]
            .find(&format!("\n{key}"))
            .map_or(line_of(self.text, start), |at| {
                line_of(self.text, start + at + 1)
            })
    }

    /// `table.key` as an integer (negative allowed: torchtitan's `-1` means "the rest").
    fn int(&self, table: &str, key: &str) -> Result<Option<i64>, ImportError> {
        match self.value(table, key) {
            None => Ok(None),
            Some(v) => match v {
                Value::Integer(n) => i64::from_str_radix(n.as_str(), n.radix()).ok(),
                _ => None,
            }
            .map(Some)
            .ok_or_else(|| ImportError::BadValue {
                source: format!("{table}.{key}"),
                line: self.line(table, key),
                value: match v {
                    Value::String(s) => s.to_string(),
                    Value::Integer(n) => n.as_str().to_string(),
                    Value::Float(f) => f.as_str().to_string(),
                    Value::Boolean(b) => b.to_string(),
                    other => other.type_str().to_string(),
                },
            }),
        }
    }

    /// `table.key` as a count of at least 1.
    fn count(&self, table: &str, key: &str) -> Result<Option<u64>, ImportError> {
        match self.int(table, key)? {
            None => Ok(None),
            Some(n) if n >= 1 => Ok(Some(n as u64)),
            Some(n) => Err(ImportError::BadValue {
                source: format!("{table}.{key}"),
                line: self.line(table, key),
                value: n.to_string(),
            }),
        }
    }

    /// The table that holds a parallelism `key`: `[parallelism]` since mid-2025; before, the
    /// degrees sat in `[training]` and the pipeline and context parallelism in
    /// `[experimental]` (torchtitan's `train_configs/` of early 2025).
    fn par(&self, key: &str) -> &'static str {
        ["parallelism", "training", "experimental"]
            .into_iter()
            .find(|t| self.value(t, key).is_some())
            .unwrap_or("parallelism")
    }

    fn text_of(&self, table: &str, key: &str) -> Option<String> {
        self.value(table, key)
            .and_then(Value::as_str)
            .map(str::to_string)
    }

    fn push(&mut self, table: &str, key: &str, outcome: Outcome) {
        let line = self.line(table, key);
        self.entries.push(Entry {
            source: format!("{table}.{key}"),
            line,
            outcome,
        });
        self.read.push(format!("{table}.{key}"));
    }
}

/// Reads a torchtitan TOML config.
pub fn read(text: &str) -> Result<Import, ImportError> {
    let root = Table::parse(text).map_err(|e: toml::de::Error| {
        let at = e.span().map_or(0, |s| s.start);
        ImportError::Toml {
            line: line_of(text, at),
            column: at - text[..at.min(text.len())].rfind('\n').map_or(0, |n| n + 1) + 1,
        }
    })?;
    let mut r = Reader {
        text,
        root: root.into_inner(),
        entries: Vec::new(),
        read: Vec::new(),
    };
    // The first configs (torchtrain, early 2024) called tensor parallelism, always with
    // sequence parallelism, `sequence_parallel_degree`.
    let tp_key = if r.value("training", "sequence_parallel_degree").is_some()
        && r.value(r.par("tensor_parallel_degree"), "tensor_parallel_degree")
            .is_none()
    {
        "sequence_parallel_degree"
    } else {
        "tensor_parallel_degree"
    };
    for (key, input) in [
        (tp_key, Key::Tp),
        ("pipeline_parallel_degree", Key::Pp),
        ("context_parallel_degree", Key::Cp),
        ("expert_parallel_degree", Key::Ep),
        ("expert_tensor_parallel_degree", Key::Etp),
    ] {
        if let Some(n) = r.count(r.par(key), key)? {
            r.push(r.par(key), key, Outcome::Set(input, n.to_string()));
        }
    }
    if let Some(s) = r.count("training", "seq_len")? {
        r.push(
            "training",
            "seq_len",
            Outcome::Set(Key::SeqLen, s.to_string()),
        );
    }
    batch(&mut r)?;
    data_parallel(&mut r)?;
    schedule(&mut r)?;
    recomputation(&mut r);
    // Every other key of every table: said, not read.
    let mut rest = Vec::new();
    for (table, value) in &r.root {
        if let Value::Table(t) = value.get_ref() {
            for key in t.keys() {
                let (table, key) = (table.get_ref(), key.get_ref());
                if !r.read.contains(&format!("{table}.{key}")) {
                    rest.push((table.to_string(), key.to_string()));
                }
            }
        }
    }
    for (table, key) in rest {
        let outcome = unread(
            &format!("{table}.{key}"),
            unread_reason(&table, &key),
            |s| s.torchtitan,
        );
        r.push(&table, &key, outcome);
    }
    if r.entries.iter().all(|e| e.outcome.sets_nothing()) {
        return Err(ImportError::UnknownFormat);
    }
    r.entries.sort_by_key(|e| e.line);
    Ok(Import {
        format: Format::Torchtitan,
        entries: r.entries,
    })
}

/// Why a key left unread is left unread: the tables and keys known to change neither
/// memory, traffic nor FLOPs (the job's bookkeeping, the learning rate and its schedule, the
/// data), the model named rather than shaped, and any other key as not known.
fn unread_reason(table: &str, key: &str) -> Option<&'static str> {
    Some(match (table, key) {
        ("model", "name" | "flavor") => tr(
            "the model by name: its shape comes from its config.json (import that too)",
            "按名称指定模型：形状来自其 config.json（请一并导入）",
        ),
        ("job" | "profiling" | "metrics" | "checkpoint" | "lr_scheduler" | "validation", _)
        | ("fault_tolerance" | "comm", _)
        | (
            "model",
            "tokenizer_path"
            | "hf_assets_path"
            | "norm_type"
            | "converters"
            | "print_after_conversion",
        )
        | (
            "optimizer",
            "lr"
            | "eps"
            | "weight_decay"
            | "beta1"
            | "beta2"
            | "implementation"
            | "early_step_in_backward",
        )
        | (
            "training",
            "dataset" | "dataset_path" | "steps" | "warmup_steps" | "max_norm" | "seed"
            | "deterministic" | "gc_freq" | "decay_ratio" | "decay_type" | "lr_min",
        ) => no_effect(),
        _ => return None,
    })
}

/// The microbatch and the global batch in tokens.
fn batch(r: &mut Reader<'_>) -> Result<(), ImportError> {
    let pp = r
        .count(
            r.par("pipeline_parallel_degree"),
            "pipeline_parallel_degree",
        )?
        .unwrap_or(1);
    // `local_batch_size` was `batch_size` before mid-2025.
    let local_key = if r.value("training", "local_batch_size").is_some() {
        "local_batch_size"
    } else {
        "batch_size"
    };
    let local = r.count("training", local_key)?;
    if pp > 1 {
        let micro = r
            .count(
                r.par("pipeline_parallel_microbatch_size"),
                "pipeline_parallel_microbatch_size",
            )?
            .unwrap_or(1);
        r.push(
            r.par("pipeline_parallel_microbatch_size"),
            "pipeline_parallel_microbatch_size",
            Outcome::Set(Key::Microbatch, micro.to_string()),
        );
        if local.is_some() {
            r.push(
                "training",
                local_key,
                Outcome::Ignored(tr(
                    "with a pipeline, microbatches of pipeline_parallel_microbatch_size make it",
                    "有流水线时由 pipeline_parallel_microbatch_size 大小的 microbatch 组成",
                )),
            );
        }
    } else if let Some(l) = local {
        r.push(
            "training",
            local_key,
            Outcome::Set(Key::Microbatch, l.to_string()),
        );
    }
    match (r.int("training", "global_batch_size")?, r.count("training", "seq_len")?) {
        (Some(g), Some(s)) if g >= 1 => r.push(
            "training",
            "global_batch_size",
            Outcome::Set(Key::GlobalBatch, (g as u64 * s).to_string()),
        ),
        (Some(_), _) | (None, _) if r.value("training", local_key).is_some() => r.push(
            "training",
            "global_batch_size",
            Outcome::Ignored(tr(
                "-1 or absent: local batch × data-parallel degree, which depends on the GPU count (b keeps its value)",
                "-1 或未给出：本地 batch × 数据并行度，随卡数变化（b 保持原值）",
            )),
        ),
        _ => {}
    }
    Ok(())
}

/// FSDP (`data_parallel_shard_degree` other than 1) or DDP.
fn data_parallel(r: &mut Reader<'_>) -> Result<(), ImportError> {
    if let Some(shard) = r.int(
        r.par("data_parallel_shard_degree"),
        "data_parallel_shard_degree",
    )? {
        let zero = if shard == 1 { "0" } else { "3" };
        r.push(
            r.par("data_parallel_shard_degree"),
            "data_parallel_shard_degree",
            Outcome::Set(Key::Zero, zero.to_string()),
        );
    }
    // `data_parallel_degree` is the first configs' name for it.
    for key in ["data_parallel_replicate_degree", "data_parallel_degree"] {
        if r.value(r.par(key), key).is_some() {
            r.push(
                r.par(key),
                key,
                Outcome::Ignored(tr(
                    "the data-parallel degree follows from the GPU count",
                    "数据并行度由卡数决定",
                )),
            );
        }
    }
    Ok(())
}

/// The pipeline schedule and, for a looped one, its chunks per stage.
fn schedule(r: &mut Reader<'_>) -> Result<(), ImportError> {
    let Some(name) = r.text_of(
        r.par("pipeline_parallel_schedule"),
        "pipeline_parallel_schedule",
    ) else {
        return Ok(());
    };
    const KEY: &str = "pipeline_parallel_schedule";
    if r.count(
        r.par("pipeline_parallel_degree"),
        "pipeline_parallel_degree",
    )?
    .unwrap_or(1)
        <= 1
    {
        r.push(
            r.par(KEY),
            KEY,
            Outcome::Ignored(tr(
                "no pipeline (pipeline_parallel_degree = 1)",
                "没有流水线（pipeline_parallel_degree = 1）",
            )),
        );
        let table = r.par("pipeline_parallel_layers_per_stage");
        r.read
            .push(format!("{table}.pipeline_parallel_layers_per_stage"));
        return Ok(());
    }
    match name.as_str() {
        "1F1B" => r.push(r.par(KEY), KEY, Outcome::Set(Key::Schedule, "1f1b".into())),
        "GPipe" => r.push(
            r.par(KEY),
            KEY,
            Outcome::Approximated(
                Some(Key::Schedule),
                "1f1b".into(),
                tr(
                    "GPipe has 1F1B's bubble and keeps every microbatch's activations",
                    "GPipe 的气泡与 1F1B 相同，但保留所有 microbatch 的激活",
                ),
            ),
        ),
        "Interleaved1F1B" | "LoopedBFS" => {
            r.push(
                r.par(KEY),
                KEY,
                Outcome::Set(Key::Schedule, "interleaved".into()),
            );
            match r.count(r.par("pipeline_parallel_layers_per_stage"), "pipeline_parallel_layers_per_stage")? {
                Some(k) => r.push(r.par("pipeline_parallel_layers_per_stage"), "pipeline_parallel_layers_per_stage",
                    Outcome::LayersPerChunk(k),
                ),
                None => r.push(r.par(KEY), KEY,
                    Outcome::Approximated(
                        Some(Key::Chunks),
                        "2".into(),
                        tr(
                            "torchtitan infers the stages from the model; two a rank assumed (set pipeline_parallel_layers_per_stage)",
                            "torchtitan 按模型推断 stage 数；按每个 rank 两个计（请设置 pipeline_parallel_layers_per_stage）",
                        ),
                    ),
                ),
            }
        }
        "InterleavedZeroBubble" | "ZBVZeroBubble" => {
            r.push(r.par(KEY), KEY, Outcome::Set(Key::Schedule, "zb".into()))
        }
        other => {
            return Err(ImportError::NotOneOf {
                source: format!("{}.{KEY}", r.par(KEY)),
                line: r.line(r.par(KEY), KEY),
                value: other.to_string(),
                choices:
                    "1F1B, GPipe, Interleaved1F1B, LoopedBFS, InterleavedZeroBubble, ZBVZeroBubble",
            })
        }
    }
    Ok(())
}

/// `activation_checkpoint.mode`.
fn recomputation(r: &mut Reader<'_>) {
    let Some(mode) = r.text_of("activation_checkpoint", "mode") else {
        return;
    };
    let option = r
        .value("activation_checkpoint", "selective_ac_option")
        .cloned();
    let outcome = match (mode.as_str(), option) {
        ("none", _) => Outcome::Set(Key::Recompute, "none".into()),
        ("full", _) => Outcome::Set(Key::Recompute, "full".into()),
        ("selective", Some(Value::String(o))) if o.as_ref() == "op" => {
            Outcome::Set(Key::Recompute, "selective".into())
        }
        ("selective", _) => Outcome::Approximated(
            Some(Key::Recompute),
            "selective".into(),
            tr(
                "every n-th layer recomputed whole (selective_ac_option = n): counted as selective",
                "每 n 层完整重计算一层（selective_ac_option = n）：按选择性重计算计",
            ),
        ),
        _ => Outcome::Ignored(tr(
            "memory_budget: the recomputation depends on the budget",
            "memory_budget：重计算量取决于预算",
        )),
    };
    r.push("activation_checkpoint", "mode", outcome);
    r.read
        .push("activation_checkpoint.selective_ac_option".into());
}
