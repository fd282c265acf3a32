//! What a run still lacks after an import: a `config.json` names no sequence length and a
//! Megatron script no vocabulary, so the shape stays incomplete and `P` keeps the page's
//! value until the reader types the rest. The report's first line says which inputs are
//! missing and, when the model-shape menu holds a model equal to the import on everything
//! else, its published values, as a link that sets them ([`Missing::completed`]).

use super::{Import, SHAPE_KEYS};
use crate::i18n::tr;
use crate::scenario::shapes::SHAPES;
use crate::scenario::{Key, Scenario};

/// The inputs the shape needs that an import left unset, and what would set them.
#[derive(Debug, Clone, PartialEq)]
pub struct Missing {
    /// The inputs still unset, in the shape's order.
    pub keys: Vec<Key>,
    /// A model of the shapes menu equal to the scenario on every other input: its name and
    /// its values of the missing inputs.
    pub suggestion: Option<(&'static str, Vec<(Key, String)>)>,
}

/// The inputs a shape needs ([`crate::scenario::walls::LlmWalls::has_shape`]).
const NEEDED: [Key; 5] = [
    Key::Layers,
    Key::Hidden,
    Key::Heads,
    Key::SeqLen,
    Key::Vocab,
];

/// What `scenario` still lacks after `import` set part of its shape; `None` when the import
/// set none of it or the shape is complete.
pub fn missing(import: &Import, scenario: &Scenario) -> Option<Missing> {
    let set_shape = import
        .values()
        .iter()
        .any(|(k, _)| SHAPE_KEYS.contains(k) || *k == Key::SeqLen);
    let keys: Vec<Key> = NEEDED
        .into_iter()
        .filter(|k| {
            scenario
                .get_text(*k)
                .parse::<f64>()
                .map_or(true, |v| v <= 0.0)
        })
        .collect();
    if !set_shape || keys.is_empty() {
        return None;
    }
    let suggestion = SHAPES
        .iter()
        .find(|s| {
            s.values()
                .iter()
                .all(|(k, v)| keys.contains(k) || scenario.get_text(*k) == *v)
        })
        .map(|s| {
            let values = s
                .values()
                .into_iter()
                .filter(|(k, _)| keys.contains(k))
                .collect();
            (s.name, values)
        });
    Some(Missing { keys, suggestion })
}

impl Missing {
    /// The report's first line: what to type, and the menu model's values when one matches.
    pub fn describe(&self) -> String {
        let names: Vec<&str> = self.keys.iter().map(|k| what(*k)).collect();
        let mut text = trf!(
            "Still to type: {}; P then follows the shape.",
            "还需输入：{}；之后 P 随形状而定。",
            names.join(tr(", ", "、"))
        );
        if let Some((name, values)) = &self.suggestion {
            text.push_str(tr(" ", ""));
            text.push_str(&trf!(
                "{}'s are {} (the model-shape menu).",
                "{} 的公布值为 {}（模型形状菜单）。",
                name,
                assignments(values)
            ));
        }
        text
    }

    /// `scenario` with the suggestion's values, `P` following the shape: the link a reader
    /// follows to complete the run; `None` without a suggestion or when the scenario
    /// refuses it.
    pub fn completed(&self, scenario: &Scenario) -> Option<Scenario> {
        let (_, values) = self.suggestion.as_ref()?;
        let mut next = scenario.with_values(values)?;
        next.follow_shape_params(scenario);
        Some(next)
    }

    /// The suggestion's values as `sq=8192, voc=128256`.
    pub fn assignments(&self) -> String {
        self.suggestion
            .as_ref()
            .map(|(_, values)| assignments(values))
            .unwrap_or_default()
    }
}

fn assignments(values: &[(Key, String)]) -> String {
    values
        .iter()
        .map(|(k, v)| format!("{}={v}", k.name()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A missing input, in words, with its key.
fn what(key: Key) -> &'static str {
    match key {
        Key::SeqLen => tr("the sequence length (sq)", "序列长度（sq）"),
        Key::Vocab => tr("the vocabulary (voc)", "词表大小（voc）"),
        Key::Layers => tr("the layers (nl)", "层数（nl）"),
        Key::Hidden => tr("the hidden width (hd)", "隐藏维度（hd）"),
        _ => tr("the attention heads (nh)", "注意力头数（nh）"),
    }
}
