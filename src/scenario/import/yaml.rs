//! A YAML document as its leaves: each scalar under its dotted path (`model.num_layers`),
//! with the line its key is on, so that the YAML formats ([`super::nemo_launcher`]) report
//! every key by its line as the other readers do. A list of scalars is one leaf
//! (`[0.9, 0.95]`); a mapping inside a list is read under the list's path and its index
//! (`defaults.0`). Aliases are not expanded (a leaf `*name`), so a text cannot grow by
//! referring to itself, and only the first document is read.
//!
//! The parsing is yaml-rust2's event parser (a pure-Rust YAML 1.2 parser, the maintained fork
//! of yaml-rust), which gives each event's line.

use super::ImportError;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;

/// One scalar of the document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Leaf {
    /// Its keys from the root, joined by `.`.
    pub path: String,
    /// The scalar as written (`null` for `~`, `null` or nothing).
    pub value: String,
    /// The line of its key (of the list, for a list), from 1.
    pub line: usize,
}

/// Where the receiver is: in a mapping (waiting for a key, or holding one) or in a list.
enum Frame {
    Map {
        path: String,
        key: Option<(String, usize)>,
    },
    List {
        path: String,
        line: usize,
        items: Vec<String>,
        /// Items read so far (scalars and nested collections), for a nested one's index.
        index: usize,
        /// It held a mapping or a list, whose own leaves stand for it.
        nested: bool,
    },
}

#[derive(Default)]
struct Receiver {
    stack: Vec<Frame>,
    leaves: Vec<Leaf>,
    /// The root was a mapping (a scalar or list document has no keys to read).
    mapping: bool,
    done: bool,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn null(value: String) -> String {
    if matches!(value.as_str(), "~" | "null" | "Null" | "NULL" | "") {
        "null".into()
    } else {
        value
    }
}

impl Receiver {
    /// The path of a collection that starts here, and its line; `None` at the root or under
    /// a key that is itself a collection (not read).
    fn open(&mut self, line: usize) -> Option<(String, usize)> {
        match self.stack.last_mut() {
            None => None,
            Some(Frame::Map { path, key }) => key.take().map(|(k, l)| (join(path, &k), l)),
            Some(Frame::List {
                path,
                index,
                nested,
                ..
            }) => {
                *nested = true;
                *index += 1;
                Some((join(path, &(*index - 1).to_string()), line))
            }
        }
    }

    fn scalar(&mut self, value: String, line: usize) {
        match self.stack.last_mut() {
            Some(Frame::Map { path, key }) => match key.take() {
                None => *key = Some((value, line)),
                Some((k, l)) => self.leaves.push(Leaf {
                    path: join(path, &k),
                    value: null(value),
                    line: l,
                }),
            },
            Some(Frame::List { items, index, .. }) => {
                items.push(value);
                *index += 1;
            }
            None => {}
        }
    }
}

impl MarkedEventReceiver for Receiver {
    fn on_event(&mut self, event: Event, mark: Marker) {
        if self.done {
            return;
        }
        let line = mark.line();
        match event {
            Event::MappingStart(..) if self.stack.is_empty() && !self.mapping => {
                self.mapping = true;
                self.stack.push(Frame::Map {
                    path: String::new(),
                    key: None,
                });
            }
            Event::MappingStart(..) => {
                let path = self.open(line).map_or_else(String::new, |(p, _)| p);
                self.stack.push(Frame::Map { path, key: None });
            }
            Event::SequenceStart(..) => {
                let (path, line) = self.open(line).unwrap_or_default();
                self.stack.push(Frame::List {
                    path,
                    line,
                    items: Vec::new(),
                    index: 0,
                    nested: false,
                });
            }
            Event::MappingEnd | Event::SequenceEnd => {
                if let Some(Frame::List {
                    path,
                    line,
                    items,
                    nested,
                    ..
                }) = self.stack.pop()
                {
                    if !path.is_empty() && (!nested || !items.is_empty()) {
                        self.leaves.push(Leaf {
                            path,
                            value: format!("[{}]", items.join(", ")),
                            line,
                        });
                    }
                }
                self.done = self.stack.is_empty();
            }
            Event::Scalar(value, ..) => self.scalar(value, line),
            Event::Alias(_) => self.scalar("*".into(), line),
            Event::DocumentEnd => self.done = true,
            _ => {}
        }
    }
}

/// The leaves of `text`'s first document, in the text's order; empty when its root is not a
/// mapping. A text that is not YAML is refused at the line and column where it stops being.
pub(crate) fn leaves(text: &str) -> Result<Vec<Leaf>, ImportError> {
    let mut receiver = Receiver::default();
    Parser::new_from_str(text)
        .load(&mut receiver, false)
        .map_err(|e| ImportError::Yaml {
            line: e.marker().line(),
            column: e.marker().col() + 1,
        })?;
    let mut leaves = receiver.leaves;
    leaves.sort_by_key(|l| l.line);
    Ok(leaves)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(text: &str) -> Vec<(String, String, usize)> {
        leaves(text)
            .unwrap()
            .into_iter()
            .map(|l| (l.path, l.value, l.line))
            .collect()
    }

    #[test]
    fn nested_keys_lists_and_nulls() {
        let text = "defaults:\n  - _self_\n  - optional tp_overlap@model.x: y\ntrainer:\n  num_nodes: 128 # nodes\n  devices: 8\nmodel:\n  kv_channels: null\n  empty:\n  betas:\n  - 0.9\n  - 0.95\n  optim:\n    name: 'mcore_distributed_optim'\n  list_of_maps:\n    - a: 1\n";
        assert_eq!(
            flat(text),
            vec![
                ("defaults".into(), "[_self_]".into(), 1),
                (
                    "defaults.1.optional tp_overlap@model.x".into(),
                    "y".into(),
                    3
                ),
                ("trainer.num_nodes".into(), "128".into(), 5),
                ("trainer.devices".into(), "8".into(), 6),
                ("model.kv_channels".into(), "null".into(), 8),
                ("model.empty".into(), "null".into(), 9),
                ("model.betas".into(), "[0.9, 0.95]".into(), 10),
                (
                    "model.optim.name".into(),
                    "mcore_distributed_optim".into(),
                    14
                ),
                ("model.list_of_maps.0.a".into(), "1".into(), 16),
            ]
        );
    }

    #[test]
    fn not_a_mapping_has_no_leaves_and_bad_yaml_names_its_line() {
        assert!(leaves("just a scalar").unwrap().is_empty());
        assert!(leaves("- a\n- b\n").unwrap().is_empty());
        assert_eq!(
            leaves("a: 1\nb: [1, 2\nc: 3\n"),
            Err(ImportError::Yaml { line: 3, column: 2 })
        );
    }

    #[test]
    fn aliases_are_not_expanded_and_only_the_first_document_is_read() {
        let text = "a: &x 1\nb: *x\n---\nc: 2\n";
        assert_eq!(
            flat(text),
            vec![("a".into(), "1".into(), 1), ("b".into(), "*".into(), 2)]
        );
    }
}
