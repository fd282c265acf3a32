//! NeMo 2.0 recipe overrides, `path=value` as nemo-run's command line takes them
//! (`trainer.strategy.tensor_model_parallel_size=8`, one a line or several on one command
//! line, or `recipe.` and spaces around `=` as a script assigns them): the layout, batch, recomputation and shape. The keys are NeMo's
//! (`MegatronStrategy`, the data module, `model.config`); `data.global_batch_size` counts
//! sequences of `data.seq_length`; `virtual_pipeline_model_parallel_size` is the interleaved
//! schedule's chunks per stage itself.

use super::{count, no_effect, unread, Entry, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;

/// One override: its path (without `recipe.`), its value and line.
pub(super) struct Override {
    pub(super) path: String,
    pub(super) value: String,
    pub(super) line: usize,
}

/// The overrides of `text`: `path=value` whose path has a dot, one a line (`recipe.` before
/// the path and spaces around `=`, as a script assigns them) or several on one line, as
/// NeMo-Run's command line takes them (`nemo llm pretrain --factory llama3_8b
/// trainer.strategy.tensor_model_parallel_size=2 data.micro_batch_size=1`): a line with more
/// than one `=`, or words before its `=`, is split into words at blanks outside quotes, and
/// the words that are assignments are read.
fn overrides(text: &str) -> Vec<Override> {
    text.lines()
        .enumerate()
        .flat_map(|(i, line)| {
            let line_text = line.split('#').next().unwrap_or("").trim();
            let several = line_text.matches('=').count() > 1
                || line_text
                    .split_once('=')
                    .is_some_and(|(left, _)| left.trim().contains(char::is_whitespace));
            let pieces: Vec<&str> = if several {
                words(line_text)
            } else {
                vec![line_text]
            };
            pieces
                .into_iter()
                .filter_map(|piece| assignment(piece, i + 1))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `path=value` of one assignment, if its path is a dotted name.
fn assignment(piece: &str, line: usize) -> Option<Override> {
    let (path, value) = piece.split_once('=')?;
    let path = path.trim().trim_start_matches("recipe.");
    let ok = path.contains('.')
        && path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    ok.then(|| Override {
        path: path.to_string(),
        value: value
            .trim()
            .trim_matches(|c| c == '"' || c == '\'')
            .to_string(),
        line,
    })
}

/// `line` split at blanks outside single or double quotes.
fn words(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quote) = (None, None);
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => {
                quote = Some(c);
                start.get_or_insert(i);
            }
            (None, c) if c.is_whitespace() => {
                if let Some(s) = start.take() {
                    out.push(&line[s..i]);
                }
            }
            (None, _) => {
                start.get_or_insert(i);
            }
        }
    }
    if let Some(s) = start {
        out.push(&line[s..]);
    }
    out
}

/// Whether `text` holds NeMo overrides of a path this reader maps.
pub fn has_overrides(text: &str) -> bool {
    overrides(text).iter().any(|o| {
        COUNTS.iter().any(|(p, _)| *p == o.path) || o.path.starts_with("trainer.strategy.")
    })
}

/// Paths that set a count one to one.
const COUNTS: [(&str, Key); 19] = [
    ("trainer.strategy.tensor_model_parallel_size", Key::Tp),
    ("trainer.strategy.pipeline_model_parallel_size", Key::Pp),
    ("trainer.strategy.context_parallel_size", Key::Cp),
    ("trainer.strategy.expert_model_parallel_size", Key::Ep),
    ("trainer.strategy.expert_tensor_parallel_size", Key::Etp),
    ("data.micro_batch_size", Key::Microbatch),
    ("data.seq_length", Key::SeqLen),
    ("model.config.seq_length", Key::SeqLen),
    ("model.config.num_layers", Key::Layers),
    ("model.config.hidden_size", Key::Hidden),
    ("model.config.num_attention_heads", Key::Heads),
    ("model.config.num_query_groups", Key::KvHeads),
    ("model.config.ffn_hidden_size", Key::Ffn),
    ("model.config.kv_channels", Key::HeadDim),
    ("model.config.num_moe_experts", Key::Experts),
    ("model.config.moe_router_topk", Key::ExpertsPerToken),
    ("model.config.vocab_size", Key::Vocab),
    ("model.config.recompute_num_layers", Key::RecomputeLayers),
    ("model.config.cpu_offloading_num_layers", Key::OffloadLayers),
];

/// `True`/`true`/`1` or `False`/`false`/`0`.
pub(super) fn boolean(value: &str) -> Option<bool> {
    match value.to_ascii_lowercase().as_str() {
        "true" | "1" => Some(true),
        "false" | "0" => Some(false),
        _ => None,
    }
}

pub(super) fn null(value: &str) -> bool {
    matches!(value, "None" | "null" | "none" | "")
}

/// Whether `text` is Python (a NeMo recipe's source): code, whose branches no reader of
/// settings can follow.
pub fn is_python(text: &str) -> bool {
    let lines = || text.lines().map(str::trim_start);
    lines().any(|l| l.starts_with("def "))
        && lines().any(|l| l.starts_with("import ") || l.starts_with("from "))
}

/// The last override of `path` (a later line overrides an earlier one).
pub(super) fn find<'a>(all: &'a [Override], path: &str) -> Option<&'a Override> {
    all.iter().rev().find(|o| o.path == path)
}

pub(super) fn bad(o: &Override) -> ImportError {
    ImportError::BadValue {
        source: o.path.clone(),
        line: o.line,
        value: o.value.clone(),
    }
}

pub(super) fn number(o: &Override) -> Result<u64, ImportError> {
    o.value
        .parse::<f64>()
        .ok()
        .and_then(count)
        .ok_or_else(|| bad(o))
}

pub(super) fn entry(o: &Override, outcome: Outcome) -> Entry {
    Entry {
        source: o.path.clone(),
        line: o.line,
        outcome,
    }
}

/// Reads NeMo overrides.
pub fn read(text: &str) -> Result<Import, ImportError> {
    if is_python(text) {
        return Err(ImportError::RecipeCode);
    }
    let all = overrides(text);
    let mut entries = Vec::new();
    let mut read: Vec<&str> = Vec::new();
    for (path, key) in COUNTS {
        if let Some(o) = find(&all, path) {
            read.push(path);
            if key != Key::RecomputeLayers {
                entries.push(entry(o, Outcome::Set(key, number(o)?.to_string())));
            }
        }
    }
    if let Some(o) = find(
        &all,
        "trainer.strategy.virtual_pipeline_model_parallel_size",
    ) {
        read.push("trainer.strategy.virtual_pipeline_model_parallel_size");
        if null(&o.value) {
            entries.push(entry(o, Outcome::Set(Key::Schedule, "1f1b".into())));
        } else {
            let v = number(o)?;
            entries.push(entry(o, Outcome::Set(Key::Schedule, "interleaved".into())));
            entries.push(entry(o, Outcome::Set(Key::Chunks, v.to_string())));
        }
    }
    for (path, key) in [
        ("trainer.strategy.sequence_parallel", Key::SequenceParallel),
        ("optim.config.use_distributed_optimizer", Key::Zero),
    ] {
        if let Some(o) = find(&all, path) {
            read.push(path);
            let on = boolean(&o.value).ok_or_else(|| bad(o))?;
            entries.push(entry(o, Outcome::Set(key, u8::from(on).to_string())));
        }
    }
    if let Some(o) = find(&all, "data.global_batch_size") {
        read.push("data.global_batch_size");
        let g = number(o)?;
        let seq = find(&all, "data.seq_length").or_else(|| find(&all, "model.config.seq_length"));
        entries.push(entry(
            o,
            match seq.map(number).transpose()? {
                Some(s) => Outcome::Set(Key::GlobalBatch, (g * s).to_string()),
                None => Outcome::Ignored(tr(
                    "counts sequences; without data.seq_length the tokens are unknown",
                    "以序列计；没有 data.seq_length 无法换算为 tokens",
                )),
            },
        ));
    }
    read.extend(recomputation(&all, &mut entries)?);
    for o in &all {
        if !read.contains(&o.path.as_str()) {
            entries.push(entry(
                o,
                unread(&o.path, unread_reason(&o.path), |s| s.nemo),
            ));
        }
    }
    if entries.iter().all(|e| e.outcome.sets_nothing()) {
        return Err(ImportError::UnknownFormat);
    }
    entries.sort_by_key(|e| e.line);
    Ok(Import {
        format: Format::Nemo,
        entries,
    })
}

/// `model.config.recompute_granularity` and, with `full`, its method and layers; the paths
/// it read.
fn recomputation(
    all: &[Override],
    entries: &mut Vec<Entry>,
) -> Result<Vec<&'static str>, ImportError> {
    let Some(o) = find(all, "model.config.recompute_granularity") else {
        return Ok(Vec::new());
    };
    let granularity = if null(&o.value) {
        "none"
    } else {
        o.value.as_str()
    };
    if !matches!(granularity, "none" | "full" | "selective") {
        return Err(ImportError::NotOneOf {
            source: o.path.clone(),
            line: o.line,
            value: o.value.clone(),
            choices: "full, selective, None",
        });
    }
    entries.push(entry(o, Outcome::Set(Key::Recompute, granularity.into())));
    let method = find(all, "model.config.recompute_method").map(|m| m.value.as_str());
    if let (Some(layers), "full") = (find(all, "model.config.recompute_num_layers"), granularity) {
        let outcome = match (method, number(layers)?) {
            (Some("block"), k) => Outcome::Set(Key::RecomputeLayers, k.to_string()),
            (_, 1) => Outcome::Set(Key::RecomputeLayers, "0".into()),
            _ => Outcome::Approximated(
                Some(Key::RecomputeLayers),
                "0".into(),
                tr(
                    "uniform: every layer is recomputed, in groups of this many",
                    "uniform：每一层都重计算，按这么多层一组",
                ),
            ),
        };
        entries.push(entry(layers, outcome));
    }
    Ok(vec![
        "model.config.recompute_granularity",
        "model.config.recompute_method",
    ])
}

/// Why an override left unread is left unread: the paths known to change neither memory,
/// traffic nor FLOPs (the optimizer's constants and schedule, logging, checkpoints and
/// resumption, the run's length and validation, data loading, dropout and initialisation),
/// any other as not known.
fn unread_reason(path: &str) -> Option<&'static str> {
    const NO_EFFECT_PREFIXES: [&str; 16] = [
        "optim.",
        "log.",
        "resume.",
        "trainer.max_steps",
        "trainer.val_check_interval",
        "trainer.log_every_n_steps",
        "trainer.limit_",
        "trainer.num_sanity_val_steps",
        "trainer.enable_checkpointing",
        "data.seed",
        "data.num_workers",
        "data.pin_memory",
        "model.config.init_method_std",
        "model.config.hidden_dropout",
        "model.config.attention_dropout",
        "model.config.layernorm_epsilon",
    ];
    NO_EFFECT_PREFIXES
        .iter()
        .any(|p| path.starts_with(p))
        .then(no_effect)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// NeMo-Run's one-line command, with a quoted value holding a blank.
    #[test]
    fn one_command_line_of_overrides() {
        let text = "nemo llm pretrain --factory llama3_8b trainer.strategy.tensor_model_parallel_size=2 \\\n  data.micro_batch_size=1 log.name=\"my run\" trainer.num_nodes=4";
        let all = overrides(text);
        let paths: Vec<(&str, &str, usize)> = all
            .iter()
            .map(|o| (o.path.as_str(), o.value.as_str(), o.line))
            .collect();
        assert_eq!(
            paths,
            vec![
                ("trainer.strategy.tensor_model_parallel_size", "2", 1),
                ("data.micro_batch_size", "1", 2),
                ("log.name", "my run", 2),
                ("trainer.num_nodes", "4", 2),
            ]
        );
        // One assignment a line, spaces around `=`, keeps its value whole.
        let one = overrides("recipe.trainer.strategy.tensor_model_parallel_size = 4\n");
        assert_eq!(one[0].path, "trainer.strategy.tensor_model_parallel_size");
        assert_eq!(one[0].value, "4");
        assert_eq!(words("a=1 b='x y'  c"), vec!["a=1", "b='x y'", "c"]);
    }
}
