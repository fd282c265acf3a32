//! Files of formats the importers do not read, recognised by their keys so that the refusal
//! says what the file is and what to do instead, rather than "no known format" or, worse, a
//! half-read model: DeepSeek's own inference config and Zamba2's (JSON that the Hugging Face
//! reader would otherwise take for a config with unknown keys), MaxText's, llm-foundry's and
//! OLMo's YAML.

use super::ImportError;
use crate::i18n::tr;

/// Why `text` is refused, if it is one of the formats above; by its keys, without parsing it.
pub(super) fn refusal(text: &str) -> Option<ImportError> {
    let quoted = |key: &str| text.contains(&format!("\"{key}\""));
    let line_key = |key: &str| {
        text.lines().any(|l| {
            l.trim_start()
                .strip_prefix(key)
                .is_some_and(|r| r.starts_with(':'))
        })
    };
    let foreign = |what: &'static str| ImportError::Foreign {
        what,
        instead: tr(
            "import the model's Hugging Face config.json, and type the layout (tp, pp, mbs, b)",
            "请导入该模型的 Hugging Face config.json，并输入布局（tp、pp、mbs、b）",
        ),
    };
    if quoted("num_mem_blocks") || quoted("layer_mapping") && quoted("state_size") {
        return Some(ImportError::NotDecoder(tr(
            "a hybrid of Mamba and attention layers (Zamba2: num_mem_blocks, layer_mapping)",
            "Mamba 层与注意力层的混合模型（Zamba2：num_mem_blocks、layer_mapping）",
        )));
    }
    if quoted("dim") && quoted("n_layers") && quoted("inter_dim") {
        return Some(foreign(tr(
            "DeepSeek's own inference config (dim, n_layers, inter_dim)",
            "DeepSeek 自己的推理配置（dim、n_layers、inter_dim）",
        )));
    }
    if line_key("base_emb_dim") || line_key("base_num_decoder_layers") || line_key("base_config") {
        return Some(foreign(tr(
            "a MaxText config (base_config, base_emb_dim, base_num_decoder_layers, ici_*_parallelism)",
            "MaxText 配置（base_config、base_emb_dim、base_num_decoder_layers、ici_*_parallelism）",
        )));
    }
    if line_key("d_model") && line_key("n_layers") {
        let foundry = text.contains("mpt_causal_lm") || line_key("fsdp_config");
        return Some(foreign(if foundry {
            tr(
                "an llm-foundry config (model.d_model, n_layers, global_train_batch_size)",
                "llm-foundry 配置（model.d_model、n_layers、global_train_batch_size）",
            )
        } else {
            tr(
                "an OLMo config (model.d_model, n_layers, global_train_batch_size)",
                "OLMo 配置（model.d_model、n_layers、global_train_batch_size）",
            )
        }));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_foreign_format_is_named() {
        let what = |text: &str| match refusal(text) {
            Some(ImportError::Foreign { what, .. } | ImportError::NotDecoder(what)) => what,
            other => panic!("{other:?}"),
        };
        assert!(
            what("{\"dim\": 7168, \"n_layers\": 61, \"inter_dim\": 18432}").starts_with("DeepSeek")
        );
        assert!(what("{\"num_layers\": 54, \"num_mem_blocks\": 2}").contains("Zamba2"));
        assert!(what("base_emb_dim: 2048\nbase_num_decoder_layers: 16\n").starts_with("a MaxText"));
        assert!(
            what("model:\n  name: mpt_causal_lm\n  d_model: 4096\n  n_layers: 32\n")
                .contains("llm-foundry")
        );
        assert!(what("model:\n  d_model: 2048\n  n_layers: 16\n").contains("OLMo"));
        assert!(refusal("{\"num_hidden_layers\": 32, \"hidden_size\": 4096}").is_none());
        assert!(refusal("--num-layers 32\n").is_none());
    }
}
