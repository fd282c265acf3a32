//! Published open models' shapes, to put a model on the page in one step: each sets only the
//! shape's inputs (`nl`, `hd`, `nh`, `kvh`, `hdim`, `kvr`, `qr`, `rope`, `ffn`, `voc`, `ne`, `ke`,
//! `nse`, `dl`, `dffn`) and the sequence length
//! it was pretrained at (`sq`), then `p` and `pa` from the shape, as importing its
//! `config.json` does ([`super::import`]); the layout, batch and hardware stay the reader's.
//! The shape keys are the model's Hugging Face `config.json` read by the importer (the
//! corpus's configs in ../shared/fixtures/import/hf, held equal by `tests/core/import.rs`);
//! the sequence length is the source's.

use super::{Key, Scenario};
use crate::i18n::tr;

/// One published model's shape.
#[derive(Debug, Clone, Copy)]
pub struct ModelShape {
    /// The menu's value and the name people use.
    pub name: &'static str,
    /// Total parameters as the model card gives them.
    pub card_params: &'static str,
    /// The shape's inputs and `sq`, as a query.
    pub query: &'static str,
    /// Where the shape and the sequence length come from, in this thread's language (a
    /// function, as a preset's source is, so each language's text is a `tr` pair).
    pub source: fn() -> &'static str,
}

/// The shapes, dense then mixture-of-experts, smaller first.
pub const SHAPES: [ModelShape; 13] = [
    ModelShape {
        name: "Llama 3.1 8B",
        card_params: "8.03B",
        query: "nl=32&hd=4096&nh=32&kvh=8&ffn=14336&voc=128256&ne=1&ke=1&sq=8192",
        source: || {
            tr(
                "meta-llama/Llama-3.1-8B config.json; 8,192-token pretraining sequences (Dubey et al. 2024, §3.4)",
                "来源：meta-llama/Llama-3.1-8B config.json；预训练序列 8,192 tokens（Dubey 等 2024，§3.4）",
            )
        },
    },
    ModelShape {
        name: "Qwen3 8B",
        card_params: "8.2B",
        query: "nl=36&hd=4096&nh=32&kvh=8&ffn=12288&voc=151936&ne=1&ke=1&sq=4096",
        source: || {
            tr(
                "Qwen/Qwen3-8B config.json; 4,096-token sequences in pretraining's general stage (Qwen3 technical report)",
                "来源：Qwen/Qwen3-8B config.json；预训练通用阶段的序列 4,096 tokens（Qwen3 技术报告）",
            )
        },
    },
    ModelShape {
        name: "GPT-NeoX 20B",
        card_params: "20.6B",
        query: "nl=44&hd=6144&nh=64&kvh=64&ffn=0&voc=50432&ne=1&ke=1&sq=2048",
        source: || {
            tr(
                "Black et al. 2022, \"GPT-NeoX-20B: An Open-Source Autoregressive Language Model\": 44 layers, 6,144 wide, 64 heads, 2,048 tokens, a GELU MLP of 4h, 50,432 padded vocabulary",
                "来源：Black 等 2022，“GPT-NeoX-20B: An Open-Source Autoregressive Language Model”：44 层，宽 6,144，64 个头，序列 2,048 tokens，GELU MLP 宽 4h，补齐后的词表 50,432",
            )
        },
    },
    ModelShape {
        name: "Qwen3 32B",
        card_params: "32.8B",
        query: "nl=64&hd=5120&nh=64&kvh=8&hdim=128&ffn=25600&voc=151936&ne=1&ke=1&sq=4096",
        source: || {
            tr(
                "Qwen/Qwen3-32B config.json; Qwen3 technical report",
                "来源：Qwen/Qwen3-32B config.json；Qwen3 技术报告",
            )
        },
    },
    ModelShape {
        name: "Llama 3.1 70B",
        card_params: "70.6B",
        query: "nl=80&hd=8192&nh=64&kvh=8&ffn=28672&voc=128256&ne=1&ke=1&sq=8192",
        source: || {
            tr(
                "meta-llama/Llama-3.1-70B config.json; Dubey et al. 2024, §3.4",
                "来源：meta-llama/Llama-3.1-70B config.json；Dubey 等 2024，§3.4",
            )
        },
    },
    ModelShape {
        name: "Llama 3.1 405B",
        card_params: "405B",
        query: "nl=126&hd=16384&nh=128&kvh=8&ffn=53248&voc=128256&ne=1&ke=1&sq=8192",
        source: || {
            tr(
                "meta-llama/Llama-3.1-405B config.json; Dubey et al. 2024, §3.4",
                "来源：meta-llama/Llama-3.1-405B config.json；Dubey 等 2024，§3.4",
            )
        },
    },
    ModelShape {
        name: "Qwen3 30B-A3B",
        card_params: "30.5B / 3.3B active",
        query: "nl=48&hd=2048&nh=32&kvh=4&hdim=128&ffn=768&voc=151936&ne=128&ke=8&sq=4096",
        source: || {
            tr(
                "Qwen/Qwen3-30B-A3B config.json; Qwen3 technical report",
                "来源：Qwen/Qwen3-30B-A3B config.json；Qwen3 技术报告",
            )
        },
    },
    ModelShape {
        name: "Llama 4 Scout",
        card_params: "109B / 17B active",
        query: "nl=48&hd=5120&nh=40&kvh=8&ffn=8192&voc=202048&ne=16&ke=1&nse=1&sq=8192",
        source: || {
            tr(
                "meta-llama/Llama-4-Scout-17B-16E config.json (text_config: 48 layers, 16 experts of 8,192, one routed a token); its shared expert (Llama4TextMoe's shared_expert in Hugging Face transformers); 8,192-token sequences, the length NVIDIA's performance summary trains it at; chunked attention over 8,192-token chunks is full attention at that length",
                "来源：meta-llama/Llama-4-Scout-17B-16E config.json（text_config：48 层，16 个宽 8,192 的专家，每个 token 路由到 1 个）；它的共享专家（Hugging Face transformers 中 Llama4TextMoe 的 shared_expert）；序列 8,192 tokens，即 NVIDIA 性能汇总中的训练长度；在这一长度下，按 8,192 tokens 分块的注意力就是完整注意力",
            )
        },
    },
    ModelShape {
        name: "Mixtral 8x7B",
        card_params: "46.7B / 12.9B active",
        query: "nl=32&hd=4096&nh=32&kvh=8&ffn=14336&voc=32000&ne=8&ke=2&sq=32768",
        source: || {
            tr(
                "mistralai/Mixtral-8x7B-v0.1 config.json; \"trained with a context size of 32k tokens\" (Jiang et al. 2024, \"Mixtral of Experts\")",
                "来源：mistralai/Mixtral-8x7B-v0.1 config.json；训练时的上下文长度为 32k tokens（Jiang 等 2024，“Mixtral of Experts”）",
            )
        },
    },
    ModelShape {
        name: "Mixtral 8x22B",
        card_params: "141B / 39B active",
        query: "nl=56&hd=6144&nh=48&kvh=8&ffn=16384&voc=32000&ne=8&ke=2&sq=65536",
        source: || {
            tr(
                "mistralai/Mixtral-8x22B-v0.1 config.json; its 64K-token context window (Mistral AI, \"Cheaper, Better, Faster, Stronger\", 2024)",
                "来源：mistralai/Mixtral-8x22B-v0.1 config.json；其上下文窗口为 64K tokens（Mistral AI，“Cheaper, Better, Faster, Stronger”，2024）",
            )
        },
    },
    ModelShape {
        name: "Qwen3 235B-A22B",
        card_params: "235B / 22B active",
        query: "nl=94&hd=4096&nh=64&kvh=4&hdim=128&ffn=1536&voc=151936&ne=128&ke=8&sq=4096",
        source: || {
            tr(
                "Qwen/Qwen3-235B-A22B config.json; Qwen3 technical report",
                "来源：Qwen/Qwen3-235B-A22B config.json；Qwen3 技术报告",
            )
        },
    },
    ModelShape {
        name: "DeepSeek-V3",
        card_params: "671B / 37B active",
        query: "nl=61&hd=7168&nh=128&kvh=128&hdim=128&kvr=512&qr=1536&rope=64&ffn=2048&voc=129280&ne=256&ke=8&nse=1&dl=3&dffn=18432&sq=4096",
        source: || {
            tr(
                "deepseek-ai/DeepSeek-V3 config.json (the multi-token-prediction module left out: docs/import.md); 4K-token pretraining sequences (DeepSeek-AI 2024, §4.2)",
                "来源：deepseek-ai/DeepSeek-V3 config.json（不含多 token 预测模块，见 docs/import.md）；预训练序列 4K tokens（DeepSeek-AI 2024，§4.2）",
            )
        },
    },
    ModelShape {
        name: "Kimi K2",
        card_params: "1.04T / 32B active",
        query: "nl=61&hd=7168&nh=64&kvh=64&hdim=128&kvr=512&qr=1536&rope=64&ffn=2048&voc=163840&ne=384&ke=8&nse=1&dl=1&dffn=18432&sq=4096",
        source: || {
            tr(
                "moonshotai/Kimi-K2-Instruct config.json; 4,096-token pretraining sequences (Kimi Team 2025, \"Kimi K2\" technical report)",
                "来源：moonshotai/Kimi-K2-Instruct config.json；预训练序列 4,096 tokens（Kimi Team 2025，“Kimi K2” 技术报告）",
            )
        },
    },
];

impl ModelShape {
    pub fn by_name(name: &str) -> Option<ModelShape> {
        SHAPES.into_iter().find(|s| s.name == name.trim())
    }

    /// The shape's inputs and `sq` as `(key, text)`, from [`Self::query`], with `hdim`, `kvr`,
    /// `qr`, `rope`, `nse`, `dl` and `dffn` at `0` where the query leaves them out (heads `h/a`
    /// wide, standard attention, no shared expert or dense layer): a shape is every shape
    /// input, so choosing Llama after Qwen3 or DeepSeek-V3 does not keep their heads.
    pub fn values(&self) -> Vec<(Key, String)> {
        let mut values: Vec<(Key, String)> = self
            .query
            .split('&')
            .filter_map(|pair| {
                let (k, v) = pair.split_once('=')?;
                Some((Key::from_name(k)?, v.to_string()))
            })
            .collect();
        for key in [
            Key::HeadDim,
            Key::KvLoraRank,
            Key::QLoraRank,
            Key::RopeDim,
            Key::SharedExperts,
            Key::DenseLayers,
            Key::DenseFfn,
        ] {
            if !values.iter().any(|(k, _)| *k == key) {
                values.push((key, "0".to_string()));
            }
        }
        values
    }

    /// [`Self::query`] with `p` and `pa` from the shape: what the CLI's `--shape` appends to
    /// a link.
    pub fn query_with_params(&self) -> String {
        match self.apply(&super::decode("v=1").scenario) {
            Some(s) => format!(
                "{}&p={}&pa={}",
                self.query,
                s.get_text(Key::TotalParams),
                s.get_text(Key::ActiveParams)
            ),
            None => self.query.to_string(),
        }
    }

    /// `scenario` with this shape, and `p`, `pa` from it; `None` if a rule of the scenario
    /// refuses it (an EP or TP the new shape does not divide).
    pub fn apply(&self, scenario: &Scenario) -> Option<Scenario> {
        self.try_apply(scenario).ok()
    }

    /// [`Self::apply`], or why not: the rule the scenario with this shape breaks, as the
    /// scenario's own message, after the shape's name (the page's "Model shape" menu).
    pub fn try_apply(&self, scenario: &Scenario) -> Result<Scenario, String> {
        let why = |reason: String| trf!("{}: {}", "{}：{}", self.name, reason);
        let mut next = scenario.clone();
        for (key, text) in self.values() {
            next.set_unchecked(key, &text)
                .map_err(|e| why(e.to_string()))?;
        }
        let first_broken = |s: &Scenario| s.check().into_iter().next().map(|(_, m)| why(m));
        if let Some(message) = first_broken(&next) {
            return Err(message);
        }
        let shape = next.llm.walls.shape().ok_or_else(|| why(String::new()))?;
        next.llm.total_params = shape.total_params();
        next.llm.active_params = shape.active_params();
        first_broken(&next).map_or(Ok(next), Err)
    }

    /// The menu's text: the name and the card's parameter count, "Llama 3.1 70B (70.6B)".
    pub fn label(&self) -> String {
        let params = self
            .card_params
            .replace(" active", crate::i18n::tr(" active", " 激活"));
        format!("{} ({params})", self.name)
    }

    /// The shape `scenario` holds now (every shape input and `sq` as this shape sets them),
    /// if one of [`SHAPES`]: the menu shows it selected.
    pub fn of(scenario: &Scenario) -> Option<ModelShape> {
        SHAPES
            .into_iter()
            .find(|s| s.values().iter().all(|(k, v)| scenario.get_text(*k) == *v))
    }
}
