//! A Hugging Face `config.json` (transformers' `PretrainedConfig`): the model's shape. The
//! keys and their meaning are transformers' (`LlamaConfig`, `MixtralConfig`, `Qwen2Config`,
//! `Qwen2MoeConfig`, `DeepseekV3Config`, `GPTNeoXConfig`, …); the shape is
//! [`crate::model::shape::Shape`]: `L` layers of attention (`a` heads of `h/a`, `kvh` key/value
//! heads) and an MLP (`E` experts of which `k` per token), and `2·V·h` embeddings.
//!
//! Approximated, with the reason in the report: a non-gated MLP of width `w ≠ 4h` (GELU,
//! `2·h·w` weights) becomes a gated one of `2w/3` (the same weights and FLOPs); tied input
//! and output embeddings (the shape counts `V·h` twice); a sliding attention window (the
//! shape's attention FLOPs span the whole sequence); a head size other than `h/a`;
//! DeepSeek-V3's multi-head latent attention (counted as standard attention of its heads),
//! shared experts and leading dense layers (not in the shape: `P` comes out lower).

use super::{count, line_of, no_effect, Entry, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;
use serde_json::{Map, Value};

/// Architectures whose MLP is not gated (`intermediate_size` is the GELU MLP's width).
const UNGATED: [&str; 8] = [
    "gpt_neox",
    "gpt2",
    "gptj",
    "gpt_bigcode",
    "falcon",
    "bloom",
    "opt",
    "phi",
];

/// The config being read and what has been said of it.
struct Reader<'a> {
    text: &'a str,
    config: &'a Map<String, Value>,
    entries: Vec<Entry>,
    /// The keys already reported (set, approximated or ignored with a particular reason).
    read: Vec<String>,
}

impl Reader<'_> {
    /// The line of `key`'s first mention.
    fn line(&self, key: &str) -> usize {
        self.text
            .find(&format!("\"{key}\""))
            .map_or(1, |at| line_of(self.text, at))
    }

    /// `key`'s count, if given (`null` is not given).
    fn number(&self, key: &str) -> Result<Option<u64>, ImportError> {
        match self.config.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .and_then(count)
                .map(Some)
                .ok_or_else(|| ImportError::BadValue {
                    source: key.to_string(),
                    line: self.line(key),
                    value: v.to_string(),
                }),
        }
    }

    /// The first of `keys` given, with its count.
    fn first(&self, keys: &[&'static str]) -> Result<Option<(&'static str, u64)>, ImportError> {
        for &k in keys {
            if let Some(n) = self.number(k)? {
                return Ok(Some((k, n)));
            }
        }
        Ok(None)
    }

    fn set(&mut self, source: &str, key: Key, value: u64) {
        self.entries.push(Entry {
            source: source.to_string(),
            line: self.line(source),
            outcome: Outcome::Set(key, value.to_string()),
        });
        self.read.push(source.to_string());
    }

    fn say(&mut self, source: &str, sets: Option<(Key, String)>, why: &'static str) {
        let line = self.line(source);
        self.entries.push(approximated(source, line, sets, why));
        self.read.push(source.to_string());
    }

    fn ignore(&mut self, source: &str, why: &'static str) {
        let line = self.line(source);
        self.entries.push(ignored(source, line, why));
        self.read.push(source.to_string());
    }
}

/// Reads a `config.json`.
pub fn read(text: &str) -> Result<Import, ImportError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ImportError::Json {
        line: e.line(),
        column: e.column(),
    })?;
    let Value::Object(config) = value else {
        return Err(ImportError::UnknownFormat);
    };
    // A multimodal config (Llama 4, Qwen2-VL …) keeps the language model under text_config.
    let config = match config.get("text_config") {
        Some(Value::Object(inner)) if !config.contains_key("num_hidden_layers") => inner,
        _ => &config,
    };
    let mut r = Reader {
        text,
        config,
        entries: Vec::new(),
        read: Vec::new(),
    };
    let hidden = attention(&mut r)?;
    let experts = experts(&mut r)?;
    mlp(&mut r, hidden, experts)?;
    if let Some((name, v)) = r.first(&["vocab_size", "padded_vocab_size"])? {
        r.set(name, Key::Vocab, v);
    }
    approximations(&mut r);
    // Every other key: said, not read.
    for (key, value) in config.iter() {
        if r.read.contains(key) || value.is_null() {
            continue;
        }
        let why = match key.as_str() {
            "max_position_embeddings" | "n_positions" | "seq_length" => tr(
                "the longest context the model accepts, not the training sequence length (sq keeps its value)",
                "模型可接受的最长上下文，不是训练序列长度（sq 保持原值）",
            ),
            "torch_dtype" => tr(
                "the weights' storage type; training precision is s_w and peak",
                "权重的存储类型；训练精度由 s_w 与 peak 决定",
            ),
            _ => no_effect(),
        };
        r.ignore(key, why);
    }
    if r.entries
        .iter()
        .all(|e| matches!(e.outcome, Outcome::Ignored(_)))
    {
        return Err(ImportError::UnknownFormat);
    }
    Ok(Import {
        format: Format::HuggingFace,
        entries: r.entries,
    })
}

/// Layers, hidden size, heads and key/value heads (absent: one per query head), checked
/// against each other; returns the hidden size.
fn attention(r: &mut Reader<'_>) -> Result<Option<u64>, ImportError> {
    let layers = r.first(&["num_hidden_layers", "n_layer", "num_layers"])?;
    let hidden = r.first(&["hidden_size", "n_embd", "d_model"])?;
    let heads = r.first(&["num_attention_heads", "n_head"])?;
    let kv_heads = r.first(&[
        "num_key_value_heads",
        "num_kv_heads",
        "multi_query_group_num",
    ])?;
    for (key, found) in [
        (Key::Layers, layers),
        (Key::Hidden, hidden),
        (Key::Heads, heads),
    ] {
        if let Some((name, n)) = found {
            r.set(name, key, n);
        }
    }
    match (kv_heads, heads) {
        (Some((name, kvh)), Some((heads_name, nh))) if nh % kvh != 0 => {
            return Err(ImportError::Contradiction {
                first: heads_name.to_string(),
                second: name.to_string(),
                line: r.line(name),
            })
        }
        (Some((name, kvh)), _) => r.set(name, Key::KvHeads, kvh),
        (None, Some((heads_name, nh))) => {
            let line = r.line(heads_name);
            r.entries.push(Entry {
                source: heads_name.to_string(),
                line,
                outcome: Outcome::Set(Key::KvHeads, nh.to_string()),
            });
        }
        (None, None) => {}
    }
    if let (Some((h_name, h)), Some((a_name, a))) = (hidden, heads) {
        if h % a != 0 {
            return Err(ImportError::Contradiction {
                first: h_name.to_string(),
                second: a_name.to_string(),
                line: r.line(h_name),
            });
        }
        if r.number("head_dim")?.is_some_and(|d| d != h / a) {
            r.say(
                "head_dim",
                None,
                tr(
                    "the shape's heads are h/a wide; attention weights and FLOPs scale with it",
                    "形状按每头宽 h/a 计（而非 head_dim），注意力的权重与 FLOPs 随之缩放",
                ),
            );
        }
    }
    Ok(hidden.map(|(_, h)| h))
}

/// Experts (Mixtral's `num_local_experts`, DeepSeek's `n_routed_experts`, Qwen's
/// `num_experts`) and experts per token; returns whether there are experts.
fn experts(r: &mut Reader<'_>) -> Result<bool, ImportError> {
    let experts = r.first(&["num_local_experts", "n_routed_experts", "num_experts"])?;
    if let Some((name, e)) = experts {
        r.set(name, Key::Experts, e);
    }
    if let Some((name, k)) = r.first(&["num_experts_per_tok", "moe_topk"])? {
        if experts.is_some() {
            r.set(name, Key::ExpertsPerToken, k);
        } else {
            r.ignore(name, no_effect());
        }
    }
    Ok(experts.is_some())
}

/// The MLP: the experts' width for an MoE that names it, else `intermediate_size`, gated
/// unless the architecture's MLP is GELU's ([`UNGATED`]).
fn mlp(r: &mut Reader<'_>, hidden: Option<u64>, experts: bool) -> Result<(), ImportError> {
    let model_type = r
        .config
        .get("model_type")
        .and_then(Value::as_str)
        .unwrap_or("");
    let gated = !UNGATED.contains(&model_type);
    let moe_width = r.number("moe_intermediate_size")?.filter(|_| experts);
    let width = r.first(&["intermediate_size", "ffn_hidden_size", "n_inner"])?;
    match (moe_width, width) {
        (Some(w), dense) => {
            r.set("moe_intermediate_size", Key::Ffn, w);
            if let Some((name, _)) = dense {
                r.ignore(
                    name,
                    tr(
                        "the dense layers' MLP; the shape's MLP is the experts' (moe_intermediate_size)",
                        "稠密层的 MLP；形状中的 MLP 取专家的宽度（moe_intermediate_size）",
                    ),
                );
            }
        }
        (None, Some((name, w))) if gated => r.set(name, Key::Ffn, w),
        (None, Some((name, w))) if hidden.is_some_and(|h| w == 4 * h) => r.set(name, Key::Ffn, 0),
        (None, Some((name, w))) => r.say(
            name,
            Some((Key::Ffn, (2 * w / 3).to_string())),
            tr(
                "a GELU MLP of width w ≠ 4h: a gated MLP of 2w/3 has its weights and FLOPs",
                "宽度 w ≠ 4h 的 GELU MLP：按宽 2w/3 的门控 MLP 计，权重与 FLOPs 相同",
            ),
        ),
        // GPT-2 style: no width (n_inner null) is 4h.
        (None, None) if !gated && hidden.is_some() => {
            let line = r.line("model_type");
            r.entries.push(Entry {
                source: "model_type".to_string(),
                line,
                outcome: Outcome::Set(Key::Ffn, "0".to_string()),
            });
        }
        (None, None) => {}
    }
    Ok(())
}

/// What the shape cannot hold exactly: tied embeddings, a sliding window, DeepSeek-V3's
/// latent attention, multi-token prediction, shared experts and leading dense layers.
fn approximations(r: &mut Reader<'_>) {
    let on = |key: &str| match r.config.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|v| v > 0.0),
        _ => false,
    };
    let notes: [(&str, &'static str); 6] = [
        (
            "tie_word_embeddings",
            tr(
                "input and output embeddings are one matrix; the shape counts V·h twice",
                "输入与输出 embedding 共用一个矩阵；形状按两份 V·h 计",
            ),
        ),
        (
            "sliding_window",
            tr(
                "attention sees a window; the shape's attention FLOPs span the whole sequence",
                "注意力只看一个窗口；形状的注意力 FLOPs 按整条序列计",
            ),
        ),
        (
            "kv_lora_rank",
            tr(
                "multi-head latent attention, counted as standard attention of its heads",
                "多头潜在注意力（MLA），按同样头数的标准注意力计",
            ),
        ),
        (
            "num_nextn_predict_layers",
            tr(
                "multi-token-prediction layers are not in the shape",
                "多 token 预测（MTP）层不在形状中",
            ),
        ),
        (
            "n_shared_experts",
            tr(
                "shared experts every token uses are not in the shape: P and P_a come out lower",
                "每个 token 都用的共享专家不在形状中：P 与 P_a 偏低",
            ),
        ),
        (
            "first_k_dense_replace",
            tr(
                "the first layers' dense MLPs are counted as MoE layers",
                "前几层的稠密 MLP 按 MoE 层计",
            ),
        ),
    ];
    let said: Vec<(&str, &'static str)> = notes.into_iter().filter(|(k, _)| on(k)).collect();
    let latent = on("kv_lora_rank");
    for (key, why) in said {
        r.say(key, None, why);
    }
    // The latent attention's own sizes belong to its approximation.
    if latent {
        for key in [
            "q_lora_rank",
            "qk_nope_head_dim",
            "qk_rope_head_dim",
            "v_head_dim",
        ] {
            r.read.push(key.to_string());
        }
    }
}

fn ignored(source: &str, line: usize, why: &'static str) -> Entry {
    Entry {
        source: source.to_string(),
        line,
        outcome: Outcome::Ignored(why),
    }
}

fn approximated(
    source: &str,
    line: usize,
    sets: Option<(Key, String)>,
    why: &'static str,
) -> Entry {
    let (key, value) = sets.map_or((None, String::new()), |(k, v)| (Some(k), v));
    Entry {
        source: source.to_string(),
        line,
        outcome: Outcome::Approximated(key, value, why),
    }
}
