//! A reader's own run, as the files they keep it in, into scenario inputs: a Hugging Face
//! `config.json` (the model's shape, [`hf`]) and Megatron-LM launch flags (shape, layout,
//! batch and recomputation, [`megatron`]). Each key of the text is mapped to the input it
//! sets, or reported as ignored or approximated, with why (docs/import.md has the tables).
//! Inputs the text does not set keep their values; the result is an ordinary scenario, so
//! the imported run is a link.
//!
//! A text is untrusted like a link: at most [`MAX_BYTES`], JSON nested at most serde_json's
//! 128 levels, every value checked before it reaches an input, a config that contradicts
//! itself refused naming both keys.

mod deepspeed;
mod foreign;
#[cfg(feature = "yaml")]
mod gpt_neox;
pub mod hf;
pub mod log;
pub mod megatron;
mod missing;
pub mod nemo;
#[cfg(feature = "yaml")]
mod nemo_launcher;
mod notes;
mod shell;
#[cfg(feature = "toml")]
pub mod torchtitan;
#[cfg(feature = "yaml")]
mod yaml;

pub use missing::{missing, Missing};

use super::{Key, Scenario};
use crate::i18n::tr;

/// The longest text read: a real `config.json` is a few KB, a launch script a few tens.
pub const MAX_BYTES: usize = 1 << 20;

/// The formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A Hugging Face `config.json`.
    HuggingFace,
    /// Megatron-LM's `pretrain_gpt.py` flags (a launch script or the flags alone).
    Megatron,
    /// A torchtitan job config (TOML), read where the `toml` feature is built (the CLI).
    Torchtitan,
    /// NeMo 2.0 recipe overrides (`trainer.strategy.tensor_model_parallel_size=8`).
    Nemo,
    /// NeMo's launcher YAML (NeMo 1.x Hydra training config: `model.num_layers: 80`), read
    /// where the `yaml` feature is built.
    NemoLauncher,
    /// A DeepSpeed config (`ds_config.json`): batch, ZeRO stage, AutoTP.
    DeepSpeed,
    /// A GPT-NeoX config (YAML as JSON with comments: model, layout and DeepSpeed's batch),
    /// read where the `yaml` feature is built.
    GptNeox,
    /// Training logs: step times, GPU count and layout ([`log`]).
    Logs,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::HuggingFace => "Hugging Face config.json",
            Format::Megatron => "Megatron-LM flags",
            Format::Torchtitan => "torchtitan TOML",
            Format::Nemo => "NeMo overrides",
            Format::NemoLauncher => "NeMo launcher YAML",
            Format::DeepSpeed => "DeepSpeed config",
            Format::GptNeox => "GPT-NeoX config",
            Format::Logs => "training logs",
        }
    }

    /// The name in the reader's language, for the page's and the CLI's report; [`Format::name`]
    /// stays the `format` value of the JSON.
    pub fn label(self) -> &'static str {
        match self {
            Format::Megatron => tr("Megatron-LM flags", "Megatron-LM 参数"),
            Format::Nemo => tr("NeMo overrides", "NeMo 覆盖项"),
            Format::DeepSpeed => tr("DeepSpeed config", "DeepSpeed 配置"),
            Format::GptNeox => tr("GPT-NeoX config", "GPT-NeoX 配置"),
            Format::Logs => tr("training logs", "训练日志"),
            Format::HuggingFace | Format::Torchtitan | Format::NemoLauncher => self.name(),
        }
    }
}

/// What became of one key of the text.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// It sets this input to this text.
    Set(Key, String),
    /// It sets this input, but the model's shape cannot say all the key says: why.
    Approximated(Option<Key>, String, &'static str),
    /// It sets nothing: why.
    Ignored(&'static str),
    /// It sets nothing, and the importer does not know it: it may change the model. The
    /// name the importer reads that it is likely a misspelling of, if one is close.
    Unknown(Option<&'static str>),
    /// Megatron-LM's `--num-layers-per-virtual-pipeline-stage k` without `--num-layers` in
    /// the text: the chunks per stage `vc = L/(PP·k)` of the scenario's layers, counted when
    /// the text is applied ([`apply`]).
    LayersPerChunk(u64),
    /// The text leaves it out, and the tool's default sets this input to this text (a
    /// launch script is the whole launch: what it omits is the tool's default).
    Default(Key, String),
    /// A multimodal model's vision encoder, not modelled: its weights by its own config
    /// (`layers · (4h² + 2·h·f)`), its layers and width.
    Encoder {
        params: f64,
        layers: u64,
        hidden: u64,
    },
    /// A training log's step times: what was used, the median and its spread.
    Steps(Box<log::StepReport>),
}

/// One key of the imported text and what became of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key as the file names it (`num_hidden_layers`, `--tensor-model-parallel-size`).
    pub source: String,
    /// Its line in the text, from 1.
    pub line: usize,
    pub outcome: Outcome,
}

/// A text read: its format and every key's outcome, in the text's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    pub format: Format,
    pub entries: Vec<Entry>,
}

impl Import {
    /// The inputs it sets, in order.
    pub fn values(&self) -> Vec<(Key, String)> {
        self.entries
            .iter()
            .filter_map(|e| match &e.outcome {
                Outcome::Set(key, value)
                | Outcome::Default(key, value)
                | Outcome::Approximated(Some(key), value, _) => Some((*key, value.clone())),
                _ => None,
            })
            .collect()
    }
}

impl Entry {
    /// What became of the key, in words: `sets nl = 80`, `approximated (sets ffn = 18432): …`,
    /// `ignored: …`.
    pub fn describe(&self) -> String {
        match &self.outcome {
            Outcome::Set(key, value) => trf!(
                "sets {} = {}",
                "设置 {}= {}",
                key.display_name(),
                shown(*key, value)
            ),
            Outcome::Approximated(Some(key), value, why) => trf!(
                "approximated, sets {} = {}: {}",
                "按近似处理，设置 {}= {}：{}",
                key.display_name(),
                shown(*key, value),
                why
            ),
            Outcome::Approximated(None, _, why) => {
                trf!("approximated: {}", "按近似处理：{}", why)
            }
            Outcome::Ignored(why) => trf!("ignored: {}", "忽略：{}", why),
            Outcome::Unknown(None) => trf!("ignored: {}", "忽略：{}", not_read()),
            Outcome::Unknown(Some(near)) => trf!(
                "ignored: not read: a key this importer does not know (did you mean {}?); it may change the model, so check it",
                "忽略：未读取：导入器不认识此键（是否想写 {}？）；它可能改变模型，请核对",
                near
            ),
            Outcome::LayersPerChunk(k) => trf!(
                "sets vc = L/(PP·{}) of the scenario's layers",
                "设置 vc = L/(PP·{})（按场景的层数）",
                k
            ),
            Outcome::Steps(report) => report.describe(),
            Outcome::Default(key, value) => trf!(
                "not in the file; the tool's default sets {} = {}",
                "未给出，按该工具默认值设置 {}= {}",
                key.display_name(),
                shown(*key, value)
            ),
            Outcome::Encoder {
                params,
                layers,
                hidden,
            } => trf!(
                "ignored: a vision encoder of {} parameters ({} layers of width {}), not modelled: only the language model is in the shape",
                "忽略：视觉编码器，{} 参数（{} 层，宽 {}），未建模：形状中只有语言模型",
                crate::text::units::format_si(*params, 3),
                layers,
                hidden
            ),
        }
    }

    /// `set`, `approximated` or `ignored`: the outcome's name in the JSON report.
    pub fn kind(&self) -> &'static str {
        match self.outcome {
            Outcome::Set(..) => "set",
            Outcome::Approximated(..) => "approximated",
            Outcome::Ignored(_) | Outcome::Unknown(_) | Outcome::Encoder { .. } => "ignored",
            Outcome::Default(..) => "default",
            Outcome::LayersPerChunk(_) => "set",
            Outcome::Steps(_) => "measured",
        }
    }
}

/// A value an import sets, as the report shows it: a global batch in tokens with separators
/// (`3,145,728 tokens`, not the link's `3145728`), anything else as the input takes it.
fn shown(key: Key, value: &str) -> String {
    match value.parse::<f64>() {
        Ok(tokens) if key == Key::GlobalBatch => {
            trf!(
                "{} tokens",
                "{} tokens",
                crate::text::units::format_count(tokens)
            )
        }
        _ => value.to_string(),
    }
}

/// A value from the text in a message: in quotes, unless the text already quoted it
/// (a TOML or JSON string, `"28672"`).
fn quoted(value: &str) -> String {
    let value = super::clip(value);
    if value.starts_with(['"', '\'']) {
        value
    } else {
        format!("“{value}”")
    }
}

/// Why a text was refused: nothing of the scenario changes.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportError {
    /// Longer than the `limit` bytes read ([`MAX_BYTES`], or [`log::MAX_LOG_BYTES`] for logs).
    TooLarge { bytes: usize, limit: usize },
    /// None of the formats read.
    UnknownFormat,
    /// The JSON does not parse, at this line and column.
    Json { line: usize, column: usize },
    /// The TOML does not parse, at this line and column.
    Toml { line: usize, column: usize },
    /// The YAML does not parse, at this line and column.
    Yaml { line: usize, column: usize },
    /// Not a decoder-only language model: what it is.
    NotDecoder(&'static str),
    /// A format the importers do not read: what the file is, and what to do instead.
    Foreign {
        what: &'static str,
        instead: &'static str,
    },
    /// A format this build does not read (torchtitan's TOML on the page).
    NotHere(Format),
    /// A NeMo recipe's Python source: code, not settings.
    RecipeCode,
    /// A key's value is not what the key takes (a count that is not a positive whole number).
    BadValue {
        source: String,
        line: usize,
        value: String,
    },
    /// A key's value is not one of the words it takes.
    NotOneOf {
        source: String,
        line: usize,
        value: String,
        choices: &'static str,
    },
    /// Two keys that cannot both hold (`num_attention_heads` not a multiple of
    /// `num_key_value_heads`).
    Contradiction {
        first: String,
        second: String,
        line: usize,
    },
    /// The scenario refuses what the text sets (a rule of the scenario, named by its input).
    Refused(Vec<String>),
    /// A launch script sets a flag or a variable inside a branch (or loop) opened at
    /// `opened` whose way the text does not decide.
    Branch { line: usize, opened: usize },
    /// Training logs refused ([`log::LogError`]).
    Log(log::LogError),
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            ImportError::TooLarge { bytes, limit } => trf!(
                "the text has {} bytes; at most {} are read",
                "文本有 {} 字节；最多读取 {} 字节",
                bytes,
                limit
            ),
            ImportError::UnknownFormat => tr(
                "not a Hugging Face config.json, Megatron-LM flags, NeMo overrides, a torchtitan TOML, a DeepSpeed config, a NeMo launcher YAML, a GPT-NeoX config or a training log",
                "不是 Hugging Face config.json、Megatron-LM 参数、NeMo 覆盖项、torchtitan TOML、DeepSpeed 配置、NeMo launcher YAML、GPT-NeoX 配置或训练日志",
            )
            .to_string(),
            ImportError::Json { line, column } => trf!(
                "the JSON does not parse at line {}, column {}",
                "JSON 在第 {} 行第 {} 列无法解析",
                line,
                column
            ),
            ImportError::Toml { line, column } => trf!(
                "the TOML does not parse at line {}, column {}",
                "TOML 在第 {} 行第 {} 列无法解析",
                line,
                column
            ),
            ImportError::Yaml { line, column } => trf!(
                "the YAML does not parse at line {}, column {}",
                "YAML 在第 {} 行第 {} 列无法解析",
                line,
                column
            ),
            ImportError::NotDecoder(what) => trf!(
                "{}: the model describes decoder-only language models (GPT, Llama, Mixtral …)",
                "{}：本模型只描述仅解码器的语言模型（GPT、Llama、Mixtral …）",
                what
            ),
            ImportError::Foreign { what, instead } => trf!(
                "{}: this format is not read; {}",
                "{}：不读取这种格式；{}",
                what,
                instead
            ),
            ImportError::RecipeCode => tr(
                "a NeMo recipe's Python is code: paste the overrides it sets (trainer.strategy.tensor_model_parallel_size=4 …)",
                "NeMo recipe 的 Python 是代码：请粘贴它设置的覆盖项（trainer.strategy.tensor_model_parallel_size=4 …）",
            )
            .to_string(),
            ImportError::NotHere(format) => trf!(
                "a {} is read by the command line: scaling import FILE",
                "{} 由命令行读取：scaling import FILE",
                format.label()
            ),
            ImportError::BadValue {
                source,
                line,
                value,
            } => trf!(
                "line {}: {} = {} is not a positive whole number",
                "第 {} 行：{} = {} 不是正整数",
                line,
                source,
                quoted(value)
            ),
            ImportError::NotOneOf {
                source,
                line,
                value,
                choices,
            } => trf!(
                "line {}: {} = “{}” is not one of {}",
                "第 {} 行：{} = “{}” 不是 {} 之一",
                line,
                source,
                super::clip(value),
                choices
            ),
            ImportError::Contradiction {
                first,
                second,
                line,
            } => trf!(
                "line {}: {} is not a multiple of {}",
                "第 {} 行：{} 不是 {} 的整数倍",
                line,
                first,
                second
            ),
            ImportError::Refused(reasons) => reasons.join(crate::text::clause_sep()),
            ImportError::Log(e) => e.to_string(),
            ImportError::Branch { line, opened } => trf!(
                "line {}: a setting inside a branch the tool cannot decide (opened at line {}: a variable the script does not set, a command's status or a loop); give the flags of the run without it",
                "第 {} 行：设置位于工具无法判定的分支内（第 {} 行开始：脚本未赋值的变量、命令的退出状态或循环）；请给出不含该分支的运行参数",
                line,
                opened
            ),
        };
        f.write_str(&text)
    }
}

/// Which format `text` is in, if any: a JSON object; a text holding Megatron-LM's
/// `--num-layers`, `--tensor-model-parallel-size` or another flag [`megatron`] reads; or a
/// text of NeMo overrides ([`nemo`]); or a TOML text with torchtitan's `[parallelism]` or
/// `[training]` table.
pub fn detect(text: &str) -> Option<Format> {
    if gpt_neox_text(text) {
        Some(Format::GptNeox)
    } else if text.trim_start().starts_with('{') {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(root)) if deepspeed::is_deepspeed(&root) => {
                Some(Format::DeepSpeed)
            }
            _ => Some(Format::HuggingFace),
        }
    } else if megatron::has_flags(text) {
        Some(Format::Megatron)
    } else if nemo::has_overrides(text) || nemo::is_python(text) {
        Some(Format::Nemo)
    } else if text
        .lines()
        .map(str::trim)
        .any(|l| l == "[parallelism]" || l == "[training]")
    {
        Some(Format::Torchtitan)
    } else if nemo_launcher_lines(text) {
        Some(Format::NemoLauncher)
    } else {
        None
    }
}

/// A GPT-NeoX config by its parallelism keys, quoted as GPT-NeoX writes them.
fn gpt_neox_text(text: &str) -> bool {
    text.contains("\"pipe_parallel_size\"") || text.contains("\"model_parallel_size\"")
}

/// A NeMo launcher YAML by its lines, without parsing it (the first view has no YAML parser):
/// top-level `model:` and `trainer:`, and Megatron-LM's `num_layers:` or
/// `tensor_model_parallel_size:` indented under one.
fn nemo_launcher_lines(text: &str) -> bool {
    let top = |name: &str| text.lines().any(|l| l.trim_end() == name);
    top("model:")
        && top("trainer:")
        && text.lines().any(|l| {
            l.starts_with(' ')
                && matches!(
                    l.trim_start().split(':').next(),
                    Some("num_layers" | "tensor_model_parallel_size")
                )
        })
}

/// Reads `text` in the format [`detect`] finds.
pub fn read(text: &str) -> Result<Import, ImportError> {
    if log::is_log(text) {
        if text.len() > log::MAX_LOG_BYTES {
            return Err(ImportError::TooLarge {
                bytes: text.len(),
                limit: log::MAX_LOG_BYTES,
            });
        }
        return match log::read(text) {
            // A config that only looks like a log (a `tflops:` key) is read as the config;
            // text in no format says what a log needs.
            Err(e @ log::LogError::NoSteps { .. }) => match read_config(text) {
                Err(ImportError::UnknownFormat) => Err(ImportError::Log(e)),
                config => config,
            },
            logs => log::import(logs?),
        };
    }
    read_config(text)
}

/// Reads `text` as a config, in the format [`detect`] finds.
fn read_config(text: &str) -> Result<Import, ImportError> {
    if text.len() > MAX_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            limit: MAX_BYTES,
        });
    }
    if let Some(refusal) = foreign::refusal(text) {
        return Err(refusal);
    }
    match detect(text) {
        Some(Format::HuggingFace) => hf::read(text),
        Some(Format::DeepSpeed) => match serde_json::from_str(text) {
            Ok(serde_json::Value::Object(root)) => deepspeed::read(text, &root),
            _ => Err(ImportError::UnknownFormat),
        },
        Some(Format::Megatron) => megatron::read(text),
        Some(Format::Nemo) => nemo::read(text),
        #[cfg(feature = "toml")]
        Some(Format::Torchtitan) => torchtitan::read(text),
        #[cfg(not(feature = "toml"))]
        Some(Format::Torchtitan) => Err(ImportError::NotHere(Format::Torchtitan)),
        #[cfg(feature = "yaml")]
        Some(Format::NemoLauncher) => {
            let leaves = yaml_leaves(text)?;
            if nemo_launcher::is_launcher(&leaves) {
                nemo_launcher::read(&leaves)
            } else {
                Err(ImportError::UnknownFormat)
            }
        }
        #[cfg(feature = "yaml")]
        Some(Format::GptNeox) => gpt_neox::read(&yaml_leaves(text)?),
        #[cfg(not(feature = "yaml"))]
        Some(format @ (Format::NemoLauncher | Format::GptNeox)) => {
            Err(ImportError::NotHere(format))
        }
        Some(Format::Logs) => log::import(log::read(text)?),
        None => Err(ImportError::UnknownFormat),
    }
}

/// The leaves of a YAML text ([`yaml::leaves`]) as the overrides the YAML readers take.
#[cfg(feature = "yaml")]
fn yaml_leaves(text: &str) -> Result<Vec<nemo::Override>, ImportError> {
    Ok(yaml::leaves(text)?
        .into_iter()
        .map(|l| nemo::Override {
            path: l.path,
            value: l.value,
            line: l.line,
        })
        .collect())
}

/// `scenario` with what `import` sets, the scenario's rules checked after the last value.
/// When the shape is complete afterwards and the text set some of it, or completed it (a
/// TOML's sequence length after a config), `P` and `P_a` become the counts the shape implies
/// (a config file names no parameter count; [`Scenario::follow_shape_params`]): the step
/// model then runs from the shape ([`super::llm::ComputeMode::Auto`]). Refused as a whole, with
/// every reason, if the scenario refuses a value or a rule breaks.
pub fn apply(scenario: &Scenario, import: &Import) -> Result<Scenario, ImportError> {
    let mut next = scenario.clone();
    let mut refused = Vec::new();
    for (key, value) in import.values() {
        if let Err(e) = next.set_unchecked(key, &value) {
            refused.push(e.to_string());
        }
    }
    // Layers per virtual stage, counted against the layers and stages now in force.
    for entry in &import.entries {
        if let Outcome::LayersPerChunk(k) = entry.outcome {
            let stages = f64::from(next.llm.pp) * k as f64;
            let chunks = next.llm.walls.layers / stages;
            if chunks >= 1.0 && chunks.fract() == 0.0 {
                if let Err(e) = next.set_unchecked(Key::Chunks, &chunks.to_string()) {
                    refused.push(e.to_string());
                }
            } else {
                refused.push(trf!(
                    "line {}: {} layers are not a multiple of PP × {} = {}",
                    "第 {} 行：{} 层不是 PP × {} = {} 的整数倍",
                    entry.line,
                    next.llm.walls.layers,
                    entry.source,
                    stages
                ));
            }
        }
    }
    let values = import.values();
    let sets_shape = values.iter().any(|(key, _)| SHAPE_KEYS.contains(key));
    // A shape's parts that few models have are off unless the file gives them: a Llama
    // config after DeepSeek-V3 keeps no experts, latent attention or dense layers.
    if sets_shape {
        for (key, off) in SHAPE_EXTRAS {
            if !values.iter().any(|(k, _)| *k == key) {
                if let Err(e) = next.set_unchecked(key, off) {
                    refused.push(e.to_string());
                }
            }
        }
    }
    match (sets_shape, next.llm.walls.shape()) {
        (true, Some(shape)) => {
            next.llm.total_params = shape.total_params();
            next.llm.active_params = shape.active_params();
        }
        // A torchtitan TOML's `seq_len` completing a config's shape.
        _ => next.follow_shape_params(scenario),
    }
    refused.extend(next.check().into_iter().map(|(_, reason)| reason));
    if refused.is_empty() {
        Ok(next)
    } else {
        Err(ImportError::Refused(refused))
    }
}

/// The inputs that make the model's parameter count (the sequence length does not).
pub const SHAPE_KEYS: [Key; 15] = [
    Key::Layers,
    Key::Hidden,
    Key::Heads,
    Key::KvHeads,
    Key::HeadDim,
    Key::KvLoraRank,
    Key::QLoraRank,
    Key::RopeDim,
    Key::Ffn,
    Key::Vocab,
    Key::Experts,
    Key::ExpertsPerToken,
    Key::SharedExperts,
    Key::DenseLayers,
    Key::DenseFfn,
];

/// Shape inputs that only some models have, and their value without: what an import that sets
/// the shape without them leaves ([`apply`]).
const SHAPE_EXTRAS: [(Key, &str); 8] = [
    (Key::Experts, "1"),
    (Key::ExpertsPerToken, "1"),
    (Key::SharedExperts, "0"),
    (Key::KvLoraRank, "0"),
    (Key::QLoraRank, "0"),
    (Key::RopeDim, "0"),
    (Key::DenseLayers, "0"),
    (Key::DenseFfn, "0"),
];

/// Why a key is ignored, shared by the formats.
pub(crate) fn no_effect() -> &'static str {
    tr(
        "changes neither memory, traffic nor FLOPs",
        "不影响显存、通信或 FLOPs",
    )
}

/// Why a key the importer does not know is not read: it may change the model, and the
/// report must not say it does not ([`no_effect`] is for the keys known to change nothing).
pub(crate) fn not_read() -> &'static str {
    tr(
        "not read: a key this importer does not know; it may change the model, so check it",
        "未读取：导入器不认识此键；它可能改变模型，请核对",
    )
}

impl Outcome {
    /// It sets no input (ignored, whether known or not).
    pub fn sets_nothing(&self) -> bool {
        matches!(
            self,
            Outcome::Ignored(_) | Outcome::Unknown(_) | Outcome::Encoder { .. }
        )
    }
}

/// A key the importer does not read, said truthfully: `why` when it is known
/// (`Some`, [`no_effect`] or another reason), else [`Outcome::Unknown`] with the name among
/// `names` (what the importer reads, from the key table's `names`) it is likely a misspelling
/// of: within two edits (one for names under eight characters), case aside.
pub(crate) fn unread(
    name: &str,
    why: Option<&'static str>,
    names: fn(crate::scenario::Spec) -> &'static [&'static str],
) -> Outcome {
    match why {
        Some(why) => Outcome::Ignored(why),
        // The candidates come from the key table's specs, whose texts would add some 20 KB
        // to the page's runs module: the suggestion is the command line's.
        #[cfg(target_arch = "wasm32")]
        None => {
            let _ = (name, names);
            Outcome::Unknown(None)
        }
        #[cfg(not(target_arch = "wasm32"))]
        None => {
            let lower = name.to_ascii_lowercase();
            let limit = if name.len() < 8 { 1 } else { 2 };
            let near = Key::ALL
                .iter()
                .flat_map(|k| names(k.spec()).iter().copied())
                .map(|n| (strsim::levenshtein(&lower, &n.to_ascii_lowercase()), n))
                .filter(|&(d, n)| d > 0 && d <= limit && n != name)
                .min_by_key(|&(d, _)| d)
                .map(|(_, n)| n);
            Outcome::Unknown(near)
        }
    }
}

/// The line (from 1) of byte offset `at` in `text`.
pub(crate) fn line_of(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// A count: a positive whole number below `2^53`, written as JSON or flag text.
pub(crate) fn count(value: f64) -> Option<u64> {
    (value.is_finite() && value >= 1.0 && value.fract() == 0.0 && value < 9.007_199_254_740_992e15)
        .then_some(value as u64)
}
