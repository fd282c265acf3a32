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

use super::{count, line_of, no_effect, unread, Entry, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;
use serde_json::{Map, Value};

/// Architectures whose MLP is not gated (`intermediate_size` is the GELU MLP's width).
const UNGATED: [&str; 10] = [
    "gpt_neox",
    "gpt2",
    "gptj",
    "gpt_bigcode",
    "falcon",
    "RefinedWeb",
    "RefinedWebModel",
    "bloom",
    "opt",
    "phi",
];

/// Architectures whose config class ties the input and output embeddings when the file has
/// no `tie_word_embeddings`: transformers' `PretrainedConfig` default (`True`), kept by
/// GPT-2, BLOOM, Falcon (and its first `RefinedWeb` code), Gemma, OPT, GPT-Neo and
/// GPT-BigCode; Llama, Mistral, Qwen, DeepSeek, GPT-NeoX, GPT-J and Phi set `False`.
const TIED_BY_DEFAULT: [&str; 12] = [
    "gpt2",
    "bloom",
    "falcon",
    "RefinedWeb",
    "RefinedWebModel",
    "gemma",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "opt",
    "gpt_neo",
    "gpt_bigcode",
];

/// Keys known to change neither memory, traffic nor FLOPs: names, token ids and generation
/// settings, norms' epsilons, dropout and initialisation, position encodings, biases and
/// norms of the weights (the shape leaves them out, §12.1), routing losses and scales, and
/// kernels' switches (not the activation, which decides a gated MLP). Any other key the importer does not read is reported as not known.
const NO_EFFECT: [&str; 101] = [
    "_name_or_path",
    "architectures",
    "architecture",
    "auto_map",
    "model_type",
    "transformers_version",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "bos_token",
    "eos_token",
    "pad_token",
    "sep_token_id",
    "decoder_start_token_id",
    "use_cache",
    "return_dict",
    "output_attentions",
    "output_hidden_states",
    "torchscript",
    "id2label",
    "label2id",
    "initializer_range",
    "initializer_factor",
    "rms_norm_eps",
    "layer_norm_eps",
    "layer_norm_epsilon",
    "norm_eps",
    "attention_dropout",
    "hidden_dropout",
    "attn_pdrop",
    "resid_pdrop",
    "embd_pdrop",
    "emb_dropout_prob",
    "attn_dropout_prob",
    "hidden_dropout_prob",
    "rope_theta",
    "rope_scaling",
    "rope_parameters",
    "rope_interleave",
    "rotary_emb_base",
    "rope_local_base_freq",
    "partial_rotary_factor",
    "rotary_pct",
    "rotary_dim",
    "original_max_position_embeddings",
    "use_dynamic_ntk",
    "use_logn_attn",
    "router_aux_loss_coef",
    "aux_loss_alpha",
    "output_router_logits",
    "norm_topk_prob",
    "routed_scaling_factor",
    "scoring_func",
    "topk_method",
    "n_group",
    "topk_group",
    "seq_aux",
    "use_routing_bias",
    "router_z_loss_coef",
    "attention_bias",
    "mlp_bias",
    "bias",
    "use_bias",
    "no_bias",
    "qk_norm_type",
    "use_qk_norm",
    "attention_softmax_in_fp32",
    "masked_softmax_fusion",
    "slow_but_exact",
    "pretraining_tp",
    "residual_in_fp32",
    "use_flash_attn",
    "use_flash_attention",
    "flash_rotary",
    "fused_dense",
    "apply_residual_connection_post_layernorm",
    "parallel_attn",
    "use_parallel_residual",
    "logits_scaling",
    "embedding_multiplier",
    "attention_multiplier",
    "residual_multiplier",
    "final_logit_softcapping",
    "attn_logit_softcapping",
    "query_pre_attn_scalar",
    "swiglu_limit",
    "tokenizer_class",
    "tokenizer_model_max_length",
    "tokenizer_padding_side",
    "tokenizer_type",
    "use_bfloat16",
    "ignore_index",
    "tf_legacy_loss",
    "pruned_heads",
    "scale_attn_weights",
    "rescale_prenorm_residual",
    "num_logits_to_keep",
    "tie_encoder_decoder",
    "tie_word_embeddings",
    "use_mamba_kernels",
    "alibi",
];

/// Generation settings that `PretrainedConfig` writes into older configs: no effect on training.
const GENERATION: [&str; 20] = [
    "do_sample",
    "temperature",
    "top_k",
    "top_p",
    "typical_p",
    "num_beams",
    "num_beam_groups",
    "diversity_penalty",
    "length_penalty",
    "repetition_penalty",
    "no_repeat_ngram_size",
    "encoder_no_repeat_ngram_size",
    "early_stopping",
    "min_length",
    "max_length",
    "num_return_sequences",
    "remove_invalid_values",
    "return_dict_in_generate",
    "output_scores",
    "chunk_size_feed_forward",
];

/// Why a key left unread is left unread: no effect for a known one, `None` (not known)
/// otherwise.
fn unread_reason(key: &str) -> Option<&'static str> {
    Some(match key {
        "max_position_embeddings" | "n_positions" | "seq_length" => tr(
            "the longest context the model accepts, not the training sequence length (sq keeps its value)",
            "模型可接受的最长上下文，不是训练序列长度（sq 保持原值）",
        ),
        // The activation decides a gated MLP's third matrix, which is read from model_type.
        "hidden_act" | "hidden_activation" | "activation_function" | "mlp_hidden_act" => tr(
            "the MLP's gating is taken from model_type (GELU: two matrices, SwiGLU: three); check that it matches",
            "MLP 是否门控按 model_type 判断（GELU 两个矩阵，SwiGLU 三个）；请核对是否相符",
        ),
        "torch_dtype" | "dtype" | "bf16" | "fp16" | "fp32" | "quantization_config" => tr(
            "the weights' storage type; training precision is s_w and peak",
            "权重的存储类型；训练精度由 s_w 与 peak 决定",
        ),
        k if NO_EFFECT.contains(&k)
            || GENERATION.contains(&k)
            || k.ends_with("_token_id")
            || k.ends_with("_token_index") =>
        {
            no_effect()
        }
        k if k.contains("vision") || k.contains("audio") || k.starts_with("mm_") || k.contains("image") => tr(
            "part of the vision or audio encoder: only the language model is in the shape",
            "属于视觉或音频编码器：形状中只有语言模型",
        ),
        _ => return None,
    })
}

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

    /// A key not read: `why` if known, else unknown, with the name it may misspell.
    fn unknown(&mut self, source: &str, why: Option<&'static str>) {
        let line = self.line(source);
        self.entries.push(Entry {
            source: source.to_string(),
            line,
            outcome: unread(source, why, |s| s.hf),
        });
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
    let Value::Object(root) = value else {
        return Err(ImportError::UnknownFormat);
    };
    // A multimodal config (Llama 4, Qwen2-VL …) keeps the language model under text_config;
    // its own keys (the vision encoder's among them) are reported after the model's.
    let (config, outer) = match root.get("text_config") {
        Some(Value::Object(inner)) if !root.contains_key("num_hidden_layers") => {
            (inner, Some(&root))
        }
        _ => (&root, None),
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
    latent(&mut r, experts)?;
    approximations(&mut r);
    vision_encoder(&mut r, outer.unwrap_or(&root));
    // Every other key: said, not read.
    for (key, value) in config.iter() {
        if r.read.contains(key) || value.is_null() {
            continue;
        }
        r.unknown(key, unread_reason(key));
    }
    // A multimodal config's own keys beside its text_config: its encoders and settings.
    if let Some(outer) = outer {
        for (key, value) in outer.iter() {
            if key == "text_config" || value.is_null() || r.read.contains(key) {
                continue;
            }
            r.unknown(key, unread_reason(key));
        }
    }
    if r.entries.iter().all(|e| e.outcome.sets_nothing()) {
        return Err(ImportError::UnknownFormat);
    }
    Ok(Import {
        format: Format::HuggingFace,
        entries: r.entries,
    })
}

/// A multimodal config's `vision_config`: the encoder named with its weights, by its own
/// layers, width and MLP width (`num_hidden_layers` or `depth`, `hidden_size`,
/// `intermediate_size`, or Kimi's `vt_` names): `L·(4h² + 2·h·f)`, the attention's four
/// projections and the MLP's two (a ViT's; SigLIP so400m, 27 layers of 1,152 with 4,304:
/// 411,070,464). Reported whether it sits beside a `text_config` or the model's own keys.
fn vision_encoder(r: &mut Reader<'_>, root: &Map<String, Value>) {
    const KEY: &str = "vision_config";
    let Some(Value::Object(v)) = root.get(KEY) else {
        return;
    };
    let get = |names: &[&str]| {
        names
            .iter()
            .find_map(|n| v.get(*n).and_then(Value::as_f64))
            .and_then(count)
    };
    let (Some(layers), Some(h), Some(f)) = (
        get(&["num_hidden_layers", "depth", "vt_num_hidden_layers"]),
        get(&["hidden_size", "embed_dim", "vt_hidden_size"]),
        get(&["intermediate_size", "vt_intermediate_size"]),
    ) else {
        return;
    };
    let (hf, ff) = (h as f64, f as f64);
    let line = r.line(KEY);
    r.entries.push(Entry {
        source: KEY.to_string(),
        line,
        outcome: Outcome::Encoder {
            params: layers as f64 * (4.0 * hf * hf + 2.0 * hf * ff),
            layers,
            hidden: h,
        },
    });
    r.read.push(KEY.to_string());
}

/// Layers, hidden size, heads and key/value heads (absent: one per query head), checked
/// against each other; returns the hidden size.
fn attention(r: &mut Reader<'_>) -> Result<Option<u64>, ImportError> {
    let layers = r.first(&["num_hidden_layers", "n_layer", "num_layers"])?;
    let hidden = r.first(&["hidden_size", "n_embd", "n_embed", "d_model"])?;
    let heads = r.first(&["num_attention_heads", "n_head"])?;
    // Falcon's first configs (`RefinedWeb`) call them `n_head_kv`; ChatGLM's
    // `multi_query_group_num`.
    let kv_heads = r.first(&[
        "num_key_value_heads",
        "num_kv_heads",
        "n_head_kv",
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
        // Falcon 7B's multi-query attention: one K/V head.
        (None, Some(_)) if r.config.get("multi_query") == Some(&Value::Bool(true)) => {
            r.set("multi_query", Key::KvHeads, 1)
        }
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
        // Heads of their own width need not divide the hidden size (GPT-OSS: 2,880 and 64).
        if h % a != 0 && r.number("head_dim")?.is_none() {
            return Err(ImportError::Contradiction {
                first: h_name.to_string(),
                second: a_name.to_string(),
                line: r.line(h_name),
            });
        }
    }
    // Heads of their own width (Qwen3: 128 where h/a is 64 or 80) set `hdim`; without
    // `head_dim` (or with it equal to h/a) the heads are h/a wide, `hdim = 0`, read from the
    // heads' line as the key/value heads are.
    let own_width = r.number("head_dim")?;
    // Latent attention's heads are `qk_nope_head_dim` wide (keys and queries before their
    // RoPE part, and values: `latent`).
    if r.number("kv_lora_rank")?.is_some_and(|v| v > 0) {
        if let Some(d) = r.number("qk_nope_head_dim")? {
            r.set("qk_nope_head_dim", Key::HeadDim, d);
            if own_width.is_some() {
                r.ignore(
                    "head_dim",
                    tr(
                        "latent attention's heads are qk_nope_head_dim wide (hdim)",
                        "潜在注意力的头宽取 qk_nope_head_dim（hdim）",
                    ),
                );
            }
            return Ok(hidden.map(|(_, h)| h));
        }
    }
    match (own_width, hidden, heads) {
        (Some(d), Some((_, h)), Some((_, a))) if h % a == 0 && d == h / a => {
            r.set("head_dim", Key::HeadDim, 0)
        }
        (Some(d), _, _) => r.set("head_dim", Key::HeadDim, d),
        (None, _, Some((heads_name, _))) => {
            let line = r.line(heads_name);
            r.entries.push(Entry {
                source: heads_name.to_string(),
                line,
                outcome: Outcome::Set(Key::HeadDim, "0".to_string()),
            });
        }
        (None, _, None) => {}
    }
    Ok(hidden.map(|(_, h)| h))
}

/// Experts (Mixtral's `num_local_experts`, DeepSeek's `n_routed_experts`, Qwen's
/// `num_experts`) and experts per token (`num_experts_per_tok`; Hunyuan's `moe_topk`,
/// Gemma 4's `top_k_experts`, GPT-OSS's `experts_per_token`); returns whether there are
/// experts.
fn experts(r: &mut Reader<'_>) -> Result<bool, ImportError> {
    let experts = r.first(&["num_local_experts", "n_routed_experts", "num_experts"])?;
    if let Some((name, e)) = experts {
        r.set(name, Key::Experts, e);
    }
    if let Some((name, k)) = r.first(&[
        "num_experts_per_tok",
        "moe_topk",
        "top_k_experts",
        "experts_per_token",
    ])? {
        if experts.is_some() {
            r.set(name, Key::ExpertsPerToken, k);
        } else {
            r.ignore(name, no_effect());
        }
    }
    // Shared experts: DeepSeek's `n_shared_experts`; Llama 4's one (`Llama4TextMoe` always
    // has its `shared_expert`, which the config does not count); else none.
    let llama4 = r
        .config
        .get("model_type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.starts_with("llama4"));
    // Qwen2-MoE, Qwen3-Next and Qwen3.5 give their one shared expert by its width,
    // `shared_expert_intermediate_size`: as `k` experts' width it is `k` experts of the
    // routed width in weights and FLOPs (`3·h·k·w`).
    let shared_width = r
        .number("shared_expert_intermediate_size")?
        .filter(|&w| w > 0);
    let routed_width = r.number("moe_intermediate_size")?;
    match (experts, r.number("n_shared_experts")?, shared_width) {
        (Some(_), Some(shared), _) => r.set("n_shared_experts", Key::SharedExperts, shared),
        (Some(_), None, Some(w)) => match routed_width {
            Some(e) if e > 0 && w % e == 0 => {
                r.set("shared_expert_intermediate_size", Key::SharedExperts, w / e)
            }
            Some(e) if e > 0 => r.say(
                "shared_expert_intermediate_size",
                Some((Key::SharedExperts, (w as f64 / e as f64).round().max(1.0).to_string())),
                tr(
                    "one shared expert of this width, counted as the nearest whole number of routed experts",
                    "一个该宽度的共享专家，按最接近的整数个路由专家计",
                ),
            ),
            _ => r.set("shared_expert_intermediate_size", Key::SharedExperts, 1),
        },
        (Some(_), None, None) if llama4 => {
            let line = r.line("model_type");
            r.entries.push(Entry {
                source: "model_type".to_string(),
                line,
                outcome: Outcome::Set(Key::SharedExperts, "1".to_string()),
            });
        }
        (Some((name, _)), None, None) => {
            let line = r.line(name);
            r.entries.push(Entry {
                source: name.to_string(),
                line,
                outcome: Outcome::Set(Key::SharedExperts, "0".to_string()),
            });
        }
        (None, _, _) => {}
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
            let leading = r.number("first_k_dense_replace")?.is_some_and(|n| n > 0);
            match dense {
                // DeepSeek-V3's and Kimi K2's leading dense layers (`latent`).
                Some((name, d)) if leading => r.set(name, Key::DenseFfn, d),
                Some((name, _)) => r.ignore(
                    name,
                    tr(
                        "the dense layers' MLP; the shape's MLP is the experts' (moe_intermediate_size)",
                        "稠密层的 MLP；形状中的 MLP 取专家的宽度（moe_intermediate_size）",
                    ),
                ),
                None => {}
            }
        }
        // Qwen 1 (`model_type` qwen) counts both halves of its gated MLP in
        // `intermediate_size` (its `modeling_qwen.py`: `ff_dim_in = intermediate_size // 2`).
        (None, Some((name, w))) if model_type == "qwen" => r.set(name, Key::Ffn, w / 2),
        (None, Some((name, w))) if gated => r.set(name, Key::Ffn, w),
        (None, Some((name, w))) if hidden.is_some_and(|h| w == 4 * h) => r.set(name, Key::Ffn, 0),
        (None, Some((name, w))) => r.say(
            name,
            Some((Key::Ffn, (2 * w / 3).to_string())),
            super::notes::gelu_width(),
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

/// DeepSeek-V2/V3's and Kimi K2's multi-head latent attention (`kv_lora_rank`; `q_lora_rank`,
/// `null` when the queries come from `h`; `qk_rope_head_dim`; the heads' `qk_nope_head_dim`,
/// read with the heads) and an MoE's leading dense layers (`first_k_dense_replace`, every
/// `moe_layer_freq`-th layer after them an MoE layer; their MLP is `intermediate_size`, read
/// with the MLP). The shape gives values the keys' width: a `v_head_dim` that differs is
/// approximated.
fn latent(r: &mut Reader<'_>, experts: bool) -> Result<(), ImportError> {
    if let Some(kv) = r.number("kv_lora_rank")?.filter(|&v| v > 0) {
        r.set("kv_lora_rank", Key::KvLoraRank, kv);
        if let Some(q) = r.number("q_lora_rank")? {
            r.set("q_lora_rank", Key::QLoraRank, q);
        }
        if let Some(rope) = r.number("qk_rope_head_dim")? {
            r.set("qk_rope_head_dim", Key::RopeDim, rope);
        }
        match (r.number("v_head_dim")?, r.number("qk_nope_head_dim")?) {
            (Some(v), Some(k)) if v == k => r.ignore(
                "v_head_dim",
                tr(
                    "as wide as qk_nope_head_dim, the heads' width (hdim)",
                    "与 qk_nope_head_dim 相同，即每个头的宽度（hdim）",
                ),
            ),
            (Some(_), _) => r.say(
                "v_head_dim",
                None,
                tr(
                    "values of another width than the keys'; the shape takes qk_nope_head_dim for both",
                    "V 与 K 的宽度不同；形状两者都取 qk_nope_head_dim",
                ),
            ),
            (None, _) => {}
        }
    }
    if !experts {
        return Ok(());
    }
    if let Some(n) = r.number("first_k_dense_replace")? {
        r.set("first_k_dense_replace", Key::DenseLayers, n);
    }
    match r.number("moe_layer_freq")? {
        Some(1) => r.ignore(
            "moe_layer_freq",
            tr(
                "every layer after the dense ones has experts",
                "稠密层之后每一层都带专家",
            ),
        ),
        Some(_) => r.say(
            "moe_layer_freq",
            None,
            tr(
                "experts in every few layers only; the shape gives every layer after the dense ones experts",
                "只有每隔几层才带专家；形状让稠密层之后的每一层都带专家",
            ),
        ),
        None => {}
    }
    Ok(())
}

/// What the shape cannot hold exactly: tied embeddings, a sliding window and multi-token
/// prediction.
fn approximations(r: &mut Reader<'_>) {
    let on = |key: &str| match r.config.get(key) {
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|v| v > 0.0),
        _ => false,
    };
    let notes: [(&str, &'static str); 3] = [
        ("tie_word_embeddings", super::notes::tied()),
        (
            "sliding_window",
            tr(
                "attention sees a window; the shape's attention FLOPs span the whole sequence",
                "注意力只看一个窗口；形状的注意力 FLOPs 按整条序列计",
            ),
        ),
        (
            "num_nextn_predict_layers",
            tr(
                "multi-token-prediction layers are not in the shape",
                "多 token 预测（MTP）层不在形状中",
            ),
        ),
    ];
    let said: Vec<(&str, &'static str)> = notes.into_iter().filter(|(k, _)| on(k)).collect();
    for (key, why) in said {
        r.say(key, None, why);
    }
    let model_type = r.config.get("model_type").and_then(Value::as_str);
    if r.config.get("tie_word_embeddings").is_none()
        && model_type.is_some_and(|t| TIED_BY_DEFAULT.contains(&t))
    {
        r.say(
            "model_type",
            None,
            tr(
                "this architecture ties its input and output embeddings when the file does not say (no tie_word_embeddings); the shape counts V·h twice",
                "未写 tie_word_embeddings 时，该架构默认输入与输出 embedding 共用一个矩阵；形状按两份 V·h 计",
            ),
        );
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
