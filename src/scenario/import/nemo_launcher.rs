//! NeMo's launcher YAML (NeMo 1.x, `NeMo-Framework-Launcher`'s `conf/training/<model>/*.yaml`
//! and NeMo's `megatron_gpt_config.yaml`): one training run as Hydra config, its model under
//! `model.` with Megatron-LM's argument names (`model.num_layers`,
//! `model.tensor_model_parallel_size`), the GPUs under `trainer.`. Read from the YAML's leaves
//! ([`super::yaml`]), so each key is reported on its line.
//!
//! What differs from the NeMo 2.0 overrides of [`super::nemo`]: the paths; the global batch
//! counts sequences of `model.encoder_seq_length`; `num_query_groups: null` is multi-head
//! attention (as many KV heads as heads); the MLP is gated by `model.activation`
//! (`*glu`), as Megatron-LM's `--swiglu`; recomputation is `activations_checkpoint_*`;
//! `optim.name` names the distributed optimizer (ZeRO-1); `ub_tp_comm_overlap` is
//! Transformer Engine's userbuffers overlap of TP, which the presets model as `tpo = 1 − 1/TP`
//! (docs/model/12-walls.md §12.4). T5 and BERT configs of the same launcher are refused: the
//! model describes decoder-only language models.

use super::nemo::{bad, boolean, entry, find, null, number, Override};
use super::{no_effect, unread, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;

/// Whether `leaves` are a NeMo launcher config: a `model` with Megatron-LM's argument names
/// and a `trainer`.
pub(super) fn is_launcher(all: &[Override]) -> bool {
    let has = |p: &str| all.iter().any(|o| o.path == p);
    (has("model.num_layers") || has("model.tensor_model_parallel_size"))
        && all.iter().any(|o| o.path.starts_with("trainer."))
}

/// Paths that set a count one to one.
const COUNTS: [(&str, Key); 14] = [
    ("model.num_layers", Key::Layers),
    ("model.hidden_size", Key::Hidden),
    ("model.num_attention_heads", Key::Heads),
    ("model.kv_channels", Key::HeadDim),
    ("model.encoder_seq_length", Key::SeqLen),
    ("model.micro_batch_size", Key::Microbatch),
    ("model.tensor_model_parallel_size", Key::Tp),
    ("model.pipeline_model_parallel_size", Key::Pp),
    ("model.context_parallel_size", Key::Cp),
    ("model.expert_model_parallel_size", Key::Ep),
    ("model.num_moe_experts", Key::Experts),
    ("model.moe_router_topk", Key::ExpertsPerToken),
    ("model.vocab_size", Key::Vocab),
    ("model.padded_vocab_size", Key::Vocab),
];

/// Reads a NeMo launcher config from its leaves, its interpolations resolved
/// ([`resolve`]).
pub(super) fn read(leaves: &[Override]) -> Result<Import, ImportError> {
    decoder_only(leaves)?;
    let resolved: Vec<Override> = leaves
        .iter()
        .map(|o| Override {
            path: o.path.clone(),
            value: resolve(leaves, &o.path, &o.value, 0).unwrap_or_else(|| o.value.clone()),
            line: o.line,
        })
        .collect();
    let all = resolved.as_slice();
    let mut r = Reader {
        all,
        entries: Vec::new(),
        read: Vec::new(),
    };
    for (path, key) in COUNTS {
        if let Some(o) = r.value(path) {
            let n = number(o)?;
            r.say(o, Outcome::Set(key, n.to_string()));
        }
    }
    r.gpus()?;
    r.data_sequence()?;
    r.heads()?;
    r.mlp()?;
    r.batch()?;
    r.schedule()?;
    r.switches()?;
    r.recomputation()?;
    r.defaults();
    for o in all {
        if !r.read.contains(&o.path.as_str()) {
            r.entries.push(entry(
                o,
                unread(&o.path, unread_reason(&o.path), |s| s.nemo),
            ));
        }
    }
    // In the text's order; the defaults of what it leaves out (line 0) last.
    r.entries
        .sort_by_key(|e| if e.line == 0 { usize::MAX } else { e.line });
    Ok(Import {
        format: Format::NemoLauncher,
        entries: r.entries,
    })
}

/// A value with OmegaConf's interpolations resolved, as Hydra resolves them when the
/// launcher starts: `${.hidden_size}` (a key beside this one), `${model.hidden_size}` or
/// `${training.model.hidden_size}` (from the root; the launcher nests the file under
/// `training`), and the launcher's resolver `${multiply:4, ${.hidden_size}}`. `None` for an
/// interpolation it cannot resolve (another resolver, a key the file does not hold, more
/// than eight levels deep).
fn resolve(all: &[Override], at: &str, value: &str, depth: usize) -> Option<String> {
    let value = value.trim();
    let Some(inner) = value.strip_prefix("${").and_then(|v| v.strip_suffix('}')) else {
        return (!value.contains("${")).then(|| value.to_string());
    };
    if depth > 8 {
        return None;
    }
    if let Some(args) = inner.strip_prefix("multiply:") {
        let mut product = 1.0;
        for arg in split_arguments(args) {
            product *= resolve(all, at, arg, depth + 1)?.parse::<f64>().ok()?;
        }
        return Some(product.to_string());
    }
    let path = match inner.strip_prefix('.') {
        Some(sibling) => match at.rsplit_once('.') {
            Some((parent, _)) => format!("{parent}.{sibling}"),
            None => sibling.to_string(),
        },
        None => inner.strip_prefix("training.").unwrap_or(inner).to_string(),
    };
    let target = find(all, &path)?;
    resolve(all, &target.path, &target.value, depth + 1)
}

/// A resolver's arguments, split at the commas outside `${…}`.
fn split_arguments(args: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in args.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&args[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&args[start..]);
    out
}

/// T5 (an encoder and a decoder under `model.`) and BERT (its binary head, token types) are
/// refused naming what they are.
fn decoder_only(all: &[Override]) -> Result<(), ImportError> {
    let has = |prefix: &str| all.iter().any(|o| o.path.starts_with(prefix));
    if has("model.encoder.") && has("model.decoder.") {
        return Err(ImportError::NotDecoder(tr(
            "an encoder–decoder model (T5, model.encoder and model.decoder)",
            "编码器–解码器模型（T5，含 model.encoder 与 model.decoder）",
        )));
    }
    if has("model.bert_binary_head") || has("model.num_tokentypes") {
        return Err(ImportError::NotDecoder(tr(
            "an encoder-only model (BERT, model.bert_binary_head)",
            "仅编码器模型（BERT，含 model.bert_binary_head）",
        )));
    }
    Ok(())
}

struct Reader<'a> {
    all: &'a [Override],
    entries: Vec<super::Entry>,
    read: Vec<&'a str>,
}

impl<'a> Reader<'a> {
    /// The last leaf of `path` that is not `null`; the path counts as read either way.
    fn value(&mut self, path: &'static str) -> Option<&'a Override> {
        let o = find(self.all, path)?;
        self.read.push(path);
        (!null(&o.value)).then_some(o)
    }

    fn say(&mut self, o: &Override, outcome: Outcome) {
        self.entries.push(entry(o, outcome));
    }

    fn count(&mut self, path: &'static str) -> Result<Option<u64>, ImportError> {
        match find(self.all, path) {
            Some(o) if !null(&o.value) => number(o).map(Some),
            _ => Ok(None),
        }
    }

    /// The run's GPUs, `trainer.num_nodes × trainer.devices`: the baseline `N₀`, and the
    /// tables' counts from it, doubling three times (a layout that `N` holds holds them).
    fn gpus(&mut self) -> Result<(), ImportError> {
        let (Some(nodes), Some(devices)) = (
            self.value("trainer.num_nodes"),
            self.value("trainer.devices"),
        ) else {
            return Ok(());
        };
        let n = number(nodes)? * number(devices)?;
        self.say(nodes, Outcome::Set(Key::BaselineGpus, n.to_string()));
        let counts: Vec<String> = (0..4).map(|i| (n << i).to_string()).collect();
        self.say(devices, Outcome::Set(Key::Gpus, counts.join(",")));
        Ok(())
    }

    /// `model.data.seq_length`: the sequence length when `model.encoder_seq_length` is
    /// absent; beside it, the same (said as read) or another, said and left to the reader.
    fn data_sequence(&mut self) -> Result<(), ImportError> {
        let model = self.count("model.encoder_seq_length")?;
        let Some(o) = self.value("model.data.seq_length") else {
            return Ok(());
        };
        let data = number(o)?;
        let outcome = match model {
            Some(m) if m != data => Outcome::Ignored(tr(
                "differs from model.encoder_seq_length, which sets sq: check which length the run trains on",
                "与 model.encoder_seq_length 不同，sq 取后者：请核对训练实际使用的长度",
            )),
            _ => Outcome::Set(Key::SeqLen, data.to_string()),
        };
        self.say(o, outcome);
        Ok(())
    }

    /// `num_query_groups`, or as many KV heads as heads when it is `null` or absent.
    fn heads(&mut self) -> Result<(), ImportError> {
        let heads = self.count("model.num_attention_heads")?;
        match (self.value("model.num_query_groups"), heads) {
            (Some(o), _) => {
                let groups = number(o)?;
                if heads.is_some_and(|nh| nh % groups != 0) {
                    return Err(ImportError::Contradiction {
                        first: "model.num_attention_heads".into(),
                        second: "model.num_query_groups".into(),
                        line: o.line,
                    });
                }
                self.say(o, Outcome::Set(Key::KvHeads, groups.to_string()));
            }
            (None, Some(nh)) => {
                let o = find(self.all, "model.num_query_groups")
                    .or_else(|| find(self.all, "model.num_attention_heads"))
                    .expect("the heads were read");
                self.say(o, Outcome::Set(Key::KvHeads, nh.to_string()));
            }
            (None, None) => {}
        }
        Ok(())
    }

    /// The MLP: gated when `model.activation` is a GLU (`swiglu`, `fast-swiglu`, `geglu`,
    /// `reglu`), GELU's `4h` otherwise, as Megatron-LM's `--swiglu` decides.
    fn mlp(&mut self) -> Result<(), ImportError> {
        let gated = self
            .value("model.activation")
            .is_some_and(|o| o.value.ends_with("glu"));
        let hidden = self.count("model.hidden_size")?;
        let Some(o) = self.value("model.ffn_hidden_size") else {
            return Ok(());
        };
        let outcome = super::notes::mlp_width(number(o)?, hidden, gated);
        self.say(o, outcome);
        Ok(())
    }

    /// The global batch, in sequences of the sequence length, a multiple of the microbatch.
    fn batch(&mut self) -> Result<(), ImportError> {
        let Some(o) = self.value("model.global_batch_size") else {
            return Ok(());
        };
        let g = number(o)?;
        if self
            .count("model.micro_batch_size")?
            .is_some_and(|m| g % m != 0)
        {
            return Err(ImportError::Contradiction {
                first: "model.global_batch_size".into(),
                second: "model.micro_batch_size".into(),
                line: o.line,
            });
        }
        let seq = match self.count("model.encoder_seq_length")? {
            Some(s) => Some(s),
            None => self.count("model.data.seq_length")?,
        };
        let outcome = match seq {
            Some(s) => Outcome::Set(Key::GlobalBatch, (g * s).to_string()),
            None => Outcome::Ignored(tr(
                "counts sequences; without model.encoder_seq_length the tokens are unknown",
                "以序列计；没有 model.encoder_seq_length 无法换算为 tokens",
            )),
        };
        self.say(o, outcome);
        Ok(())
    }

    /// `virtual_pipeline_model_parallel_size`: the interleaved schedule's chunks per stage;
    /// `null` with a pipeline is 1F1B.
    fn schedule(&mut self) -> Result<(), ImportError> {
        const PATH: &str = "model.virtual_pipeline_model_parallel_size";
        let pp = self.count("model.pipeline_model_parallel_size")?;
        match (self.value(PATH), find(self.all, PATH)) {
            (Some(o), _) => {
                let v = number(o)?;
                if v > 1 {
                    self.say(o, Outcome::Set(Key::Schedule, "interleaved".into()));
                    self.say(o, Outcome::Set(Key::Chunks, v.to_string()));
                } else {
                    self.say(o, Outcome::Set(Key::Schedule, "1f1b".into()));
                }
            }
            (None, Some(o)) if pp.is_some_and(|p| p > 1) => {
                self.say(o, Outcome::Set(Key::Schedule, "1f1b".into()));
            }
            _ => {}
        }
        Ok(())
    }

    /// Sequence parallelism, flash attention, the distributed optimizer (ZeRO-1), tied
    /// embeddings (said) and TP overlap (`tpo = 1 − 1/TP` when on).
    fn switches(&mut self) -> Result<(), ImportError> {
        for (path, key) in [
            ("model.sequence_parallel", Key::SequenceParallel),
            ("model.use_flash_attention", Key::FlashAttention),
        ] {
            if let Some(o) = self.value(path) {
                let on = boolean(&o.value).ok_or_else(|| bad(o))?;
                self.say(o, Outcome::Set(key, u8::from(on).to_string()));
            }
        }
        if let Some(o) = self.value("model.optim.name") {
            let sharded = o.value.contains("distributed");
            self.say(o, Outcome::Set(Key::Zero, u8::from(sharded).to_string()));
        }
        if let Some(o) = self.value("model.share_embeddings_and_output_weights") {
            if boolean(&o.value).ok_or_else(|| bad(o))? {
                self.say(
                    o,
                    Outcome::Approximated(None, String::new(), super::notes::tied()),
                );
            }
        }
        if let Some(o) = self.value("model.ub_tp_comm_overlap") {
            let on = boolean(&o.value).ok_or_else(|| bad(o))?;
            let tp = self.count("model.tensor_model_parallel_size")?.unwrap_or(1);
            let share = if on && tp > 1 {
                1.0 - 1.0 / tp as f64
            } else {
                0.0
            };
            self.say(o, Outcome::Set(Key::TpOverlap, share.to_string()));
        }
        Ok(())
    }

    /// What the file leaves out is NeMo's default (NVIDIA/NeMo
    /// `examples/nlp/language_modeling/conf/megatron_gpt_config.yaml`, onto which the launcher
    /// merges the file), not the scenario's value: one tensor-, pipeline-, context-
    /// and expert-parallel rank, the 1F1B schedule, no recomputation, no sequence parallelism,
    /// `fused_adam` (ZeRO-0) and no TP overlap.
    fn defaults(&mut self) {
        let defaults: [(&'static str, Key, &'static str); 9] = [
            ("model.tensor_model_parallel_size", Key::Tp, "1"),
            ("model.pipeline_model_parallel_size", Key::Pp, "1"),
            ("model.context_parallel_size", Key::Cp, "1"),
            ("model.expert_model_parallel_size", Key::Ep, "1"),
            (
                "model.virtual_pipeline_model_parallel_size",
                Key::Schedule,
                "1f1b",
            ),
            (
                "model.activations_checkpoint_granularity",
                Key::Recompute,
                "none",
            ),
            ("model.sequence_parallel", Key::SequenceParallel, "0"),
            ("model.optim.name", Key::Zero, "0"),
            ("model.ub_tp_comm_overlap", Key::TpOverlap, "0"),
        ];
        for (path, key, value) in defaults {
            if find(self.all, path).is_none() {
                self.entries.push(super::Entry {
                    source: path.to_string(),
                    line: 0,
                    outcome: Outcome::Default(key, value.to_string()),
                });
            }
        }
    }

    /// `activations_checkpoint_granularity` (`selective`, `full` or `null`) and, with `full`,
    /// its method and layers: `block` recomputes that many layers a stage (none at 0),
    /// `uniform` every layer.
    fn recomputation(&mut self) -> Result<(), ImportError> {
        const GRANULARITY: &str = "model.activations_checkpoint_granularity";
        let method = self
            .value("model.activations_checkpoint_method")
            .map(|o| o.value.as_str());
        let layers = self.value("model.activations_checkpoint_num_layers");
        let Some(o) = find(self.all, GRANULARITY) else {
            return Ok(());
        };
        self.read.push(GRANULARITY);
        let granularity = if null(&o.value) {
            "none"
        } else {
            o.value.as_str()
        };
        match granularity {
            "none" | "selective" => self.say(o, Outcome::Set(Key::Recompute, granularity.into())),
            "full" => match (method, layers) {
                (Some("block"), Some(l)) if number(l)? == 0 => self.say(
                    o,
                    Outcome::Approximated(
                        Some(Key::Recompute),
                        "none".into(),
                        tr(
                            "full recomputation of 0 layers a stage (block) recomputes nothing",
                            "block 方式完全重计算每个 stage 的 0 层，即不重计算",
                        ),
                    ),
                ),
                (Some("block"), Some(l)) => {
                    let k = number(l)?;
                    self.say(o, Outcome::Set(Key::Recompute, "full".into()));
                    self.say(l, Outcome::Set(Key::RecomputeLayers, k.to_string()));
                }
                _ => {
                    self.say(o, Outcome::Set(Key::Recompute, "full".into()));
                    self.say(o, Outcome::Set(Key::RecomputeLayers, "0".into()));
                }
            },
            _ => {
                return Err(ImportError::NotOneOf {
                    source: o.path.clone(),
                    line: o.line,
                    value: o.value.clone(),
                    choices: "full, selective, null",
                })
            }
        }
        Ok(())
    }
}

/// Why a leaf left unread is left unread: what it is when known (precision,
/// the tokenizer, position limits, vocabulary padding) or that it changes neither memory,
/// traffic nor FLOPs (the run's name, Hydra, logging and checkpoints, the trainer's run
/// length and validation, the optimizer's constants and schedule, data loading, dropout,
/// initialisation and norms, kernel fusions, profiling); any other as not known.
fn unread_reason(path: &str) -> Option<&'static str> {
    const NO_EFFECT_PREFIXES: [&str; 37] = [
        "run.",
        "hydra.",
        "defaults",
        "name",
        "restore_from_path",
        "exp_manager.",
        "trainer.accelerator",
        "trainer.logger",
        "trainer.enable_checkpointing",
        "trainer.use_distributed_sampler",
        "trainer.max_",
        "trainer.log_every_n_steps",
        "trainer.val_check_interval",
        "trainer.limit_",
        "trainer.accumulate_grad_batches",
        "trainer.gradient_clip_val",
        "trainer.num_sanity_val_steps",
        "model.optim.",
        "model.data.",
        "model.seed",
        "model.init_method_std",
        "model.use_scaled_init_method",
        "model.hidden_dropout",
        "model.attention_dropout",
        "model.ffn_dropout",
        "model.layernorm_epsilon",
        "model.normalization",
        "model.position_embedding_type",
        "model.rotary_",
        "model.native_amp_",
        "model.hysteresis",
        "model.nsys_profile.",
        "model.gc_interval",
        "model.resume_from_checkpoint",
        "model.apex_transformer_log_level",
        "model.onnx_safe",
        "model.mcore_gpt",
    ];
    Some(match path {
        "trainer.precision" | "model.fp8" | "model.fp8_hybrid" | "model.fp8_e4m3" => {
            super::notes::precision()
        }
        "model.max_position_embeddings" => super::notes::positions(),
        "model.make_vocab_size_divisible_by" => super::notes::vocabulary_padding(),
        p if p.starts_with("model.tokenizer.") => super::notes::tokenizer(),
        p if p.ends_with("_fusion") => no_effect(),
        p if NO_EFFECT_PREFIXES.iter().any(|x| p.starts_with(x)) => no_effect(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaf(path: &str, value: &str) -> Override {
        Override {
            path: path.into(),
            value: value.into(),
            line: 1,
        }
    }

    #[test]
    fn interpolations_resolve_as_hydra_does() {
        let all = [
            leaf("model.hidden_size", "12288"),
            leaf("model.ffn_hidden_size", "${multiply:4, ${.hidden_size}}"),
            leaf("model.encoder_seq_length", "2048"),
            leaf(
                "model.data.seq_length",
                "${training.model.encoder_seq_length}",
            ),
            leaf("model.x", "${.y}"),
            leaf("model.y", "${.x}"),
            leaf("model.z", "${oc.env:HOME}"),
        ];
        let r = |i: usize| resolve(&all, &all[i].path, &all[i].value, 0);
        assert_eq!(r(1).as_deref(), Some("49152"));
        assert_eq!(r(3).as_deref(), Some("2048"));
        assert_eq!(r(4), None, "a loop stops");
        assert_eq!(r(6), None, "another resolver is not resolved");
        assert_eq!(r(0).as_deref(), Some("12288"));
        assert_eq!(split_arguments("4, ${a, b}"), vec!["4", " ${a, b}"]);
    }
}
