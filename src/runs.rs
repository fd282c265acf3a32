//! A reader's own run, in and out: what "Your run", the layout explorer's "Copy as" buttons
//! and `scalingExplorer.import` ask of the importer ([`crate::scenario::import`]), the
//! exporter ([`crate::scenario::export`]) and the model shapes ([`crate::scenario::shapes`]),
//! and what they get back. The page's first view does not link these parsers: they are in
//! the runs module (`crates/runs`), loaded when the reader first uses one of them
//! (docs/import.md, docs/architecture.md). [`answer`] is the whole of that module's work
//! apart from the DOM, and runs natively in the tests; its [`Answer`] is also what
//! `scalingExplorer.import` returns, serialised by serde-wasm-bindgen.
//!
//! Every scenario crosses as its link (`Scenario::to_query`), the one serialisation the page
//! and the module share: the module reads the page's link, changes it and hands the new one
//! back, which the page applies as it applies a preset.

use crate::scenario::export::{launch_settings, Tool};
use crate::scenario::import;
use crate::scenario::shapes::{ModelShape, SHAPES};
use crate::scenario::{decode, Scenario};
use serde::Serialize;

/// What the page asks.
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    /// Read `text` (a `config.json`, launch flags, a torchtitan TOML, NeMo overrides) over
    /// the scenario `query`.
    Import { text: String, query: String },
    /// The layout, batch and recomputation of `query` as `tool`'s launch settings.
    Export { query: String, tool: Tool },
    /// The model-shape menu's entries.
    Shapes,
    /// The shape `name` over the scenario `query`.
    Shape { name: String, query: String },
    /// Which of the menu's shapes `query` holds, if any.
    ShapeOf { query: String },
    /// A file of `bytes` the page did not read because the importer reads at most
    /// [`import::log::MAX_LOG_BYTES`] (a log; a config at most [`import::MAX_BYTES`]): the
    /// refusal, in the importer's words.
    TooLarge { bytes: u64 },
}

/// An answer, by what was asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Answer {
    /// The text read: the new scenario's link, the format's name and a line per key; what
    /// the run still lacks, if anything (`""` when nothing), and the link that completes it
    /// with the model-shape menu's values and their text (`""` when no menu model matches).
    Imported {
        query: String,
        format: String,
        entries: Vec<ImportedKey>,
        missing: String,
        completed: String,
        completion: String,
    },
    /// Launch settings, one a line.
    Exported { text: String },
    /// The menu's entries, in its order.
    Shapes { shapes: Vec<ShapeEntry> },
    /// The scenario with the shape chosen: its link, and the shape's source.
    Shaped { query: String, source: String },
    /// The shape the scenario holds (`""`: none of the menu's).
    ShapeOf { name: String, source: String },
    /// Refused, the scenario unchanged: why, naming the key or the input.
    Refused { error: String },
}

/// One key of an imported text, as `scaling import --format json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImportedKey {
    /// The key as the text names it.
    pub source: String,
    /// Its line, from 1.
    pub line: usize,
    /// `set`, `approximated`, `ignored` or `default` ([`import::Entry::kind`]).
    pub outcome: String,
    /// What became of it, in words ([`import::Entry::describe`]).
    pub text: String,
}

impl ImportedKey {
    /// The line the page's report shows: `line 17 · num_hidden_layers: sets Layers L (nl) =
    /// 80`; a key the text leaves out (line 0, a tool's default) has no line to name.
    pub fn report_line(&self) -> String {
        if self.line == 0 {
            return crate::trf!("{}: {}", "{}：{}", self.source, self.text);
        }
        crate::trf!(
            "line {} · {}: {}",
            "第 {} 行 · {}：{}",
            self.line,
            self.source,
            self.text
        )
    }
}

/// One entry of the model-shape menu.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShapeEntry {
    /// The option's value ([`ModelShape::name`]).
    pub name: String,
    /// Its text: the name and the card's parameter count.
    pub label: String,
}

/// `ask` answered, in the thread's language ([`crate::i18n::set_lang`]).
pub fn answer(ask: &Ask) -> Answer {
    match ask {
        Ask::Import { text, query } => imported(text, &decode(query).scenario),
        Ask::Export { query, tool } => {
            let scenario = decode(query).scenario;
            Answer::Exported {
                text: launch_settings(&scenario, *tool, export_gpus(&scenario)),
            }
        }
        Ask::Shapes => Answer::Shapes {
            shapes: SHAPES
                .iter()
                .map(|s| ShapeEntry {
                    name: s.name.to_string(),
                    label: s.label(),
                })
                .collect(),
        },
        Ask::Shape { name, query } => match ModelShape::by_name(name) {
            Some(shape) => match shape.try_apply(&decode(query).scenario) {
                Ok(next) => Answer::Shaped {
                    query: next.to_query(),
                    source: (shape.source)().to_string(),
                },
                Err(error) => Answer::Refused { error },
            },
            None => Answer::Refused {
                error: crate::trf!("no model shape “{}”", "没有模型形状“{}”", name),
            },
        },
        Ask::TooLarge { bytes } => Answer::Refused {
            error: import::ImportError::TooLarge {
                bytes: usize::try_from(*bytes).unwrap_or(usize::MAX),
                limit: import::log::MAX_LOG_BYTES,
            }
            .to_string(),
        },
        Ask::ShapeOf { query } => {
            let shape = ModelShape::of(&decode(query).scenario);
            Answer::ShapeOf {
                name: shape.map_or_else(String::new, |s| s.name.to_string()),
                source: shape.map_or_else(String::new, |s| (s.source)().to_string()),
            }
        }
    }
}

/// `text` read and applied over `scenario`, or why not.
fn imported(text: &str, scenario: &Scenario) -> Answer {
    let read = match import::read(text) {
        Ok(read) => read,
        Err(e) => {
            return Answer::Refused {
                error: e.to_string(),
            }
        }
    };
    match import::apply(scenario, &read) {
        Ok(next) => {
            let missing = import::missing(&read, &next);
            let completed = missing
                .as_ref()
                .and_then(|m| m.completed(&next))
                .map(|s| s.to_query());
            Answer::Imported {
                missing: missing
                    .as_ref()
                    .map(import::Missing::describe)
                    .unwrap_or_default(),
                completion: if completed.is_some() {
                    missing
                        .as_ref()
                        .map(import::Missing::assignments)
                        .unwrap_or_default()
                } else {
                    String::new()
                },
                completed: completed.unwrap_or_default(),
                query: next.to_query(),
                format: read.format.label().to_string(),
                entries: read
                    .entries
                    .iter()
                    .map(|e| ImportedKey {
                        source: e.source.clone(),
                        line: e.line,
                        outcome: e.kind().to_string(),
                        text: e.describe(),
                    })
                    .collect(),
            }
        }
        Err(e) => Answer::Refused {
            error: e.to_string(),
        },
    }
}

/// The GPU count a layout is exported at: the layout explorer's (`lx`, the count its rows
/// were searched at) when it is on, else the baseline `N₀` (torchtitan's per-rank batch
/// depends on the data-parallel degree there).
fn export_gpus(scenario: &Scenario) -> f64 {
    if scenario.llm.explorer_gpus > 0.0 {
        scenario.llm.explorer_gpus
    } else {
        scenario.llm.baseline_gpus
    }
}
