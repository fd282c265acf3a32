//! What a log prints about its run, wherever it prints it: the start-up argument dump
//! (`tensor_model_parallel_size ...... 8`), a YAML or `key: value` config echo, a Python
//! dict (`'seq_length': 4096`), launch flags (`--training.seq_len=128`), NeMo's DLL
//! `PARAMETER` line (`cfg/num_layers : 48`) and a few phrases frameworks print
//! (`global batch size:     8`, `world size`). The scanner reads every `name <sep> value`
//! of a line, the separator `:`, `=` or a run of dots, and keeps the names of [`FIELDS`].

/// What a printed value says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    Gpus,
    Nodes,
    GpusPerNode,
    Tp,
    Pp,
    Vpp,
    Cp,
    Ep,
    Etp,
    DpShard,
    DpReplicate,
    MicroBatch,
    GlobalBatch,
    SeqLen,
    GradAccum,
    Layers,
    Hidden,
    Ffn,
    MoeFfn,
    Heads,
    KvHeads,
    Experts,
    TopK,
    Vocab,
    LogInterval,
    TrainSteps,
}

impl Field {
    /// How many fields there are (the last variant's index plus one).
    pub const COUNT: usize = Field::TrainSteps as usize + 1;
}

/// The names each field is printed under, normalised (the last `.`/`/` segment, leading dashes
/// dropped, `-` as `_`, lower case).
const FIELDS: &[(&str, Field)] = &[
    ("world_size", Field::Gpus),
    ("dist_world_size", Field::Gpus),
    ("num_nodes", Field::Nodes),
    ("nnodes", Field::Nodes),
    ("devices", Field::GpusPerNode),
    ("nproc_per_node", Field::GpusPerNode),
    ("gpus_per_node", Field::GpusPerNode),
    ("tensor_model_parallel_size", Field::Tp),
    ("tensor_parallel_degree", Field::Tp),
    ("tp", Field::Tp),
    ("pipeline_model_parallel_size", Field::Pp),
    ("pipeline_parallel_degree", Field::Pp),
    ("pp", Field::Pp),
    ("virtual_pipeline_model_parallel_size", Field::Vpp),
    ("context_parallel_size", Field::Cp),
    ("context_parallel_degree", Field::Cp),
    ("cp", Field::Cp),
    ("expert_model_parallel_size", Field::Ep),
    ("expert_parallel_degree", Field::Ep),
    ("ep", Field::Ep),
    ("expert_tensor_parallel_size", Field::Etp),
    ("dp_shard", Field::DpShard),
    ("data_parallel_shard_degree", Field::DpShard),
    ("dp_replicate", Field::DpReplicate),
    ("data_parallel_replicate_degree", Field::DpReplicate),
    ("micro_batch_size", Field::MicroBatch),
    ("per_device_train_batch_size", Field::MicroBatch),
    ("local_batch_size", Field::MicroBatch),
    ("train_micro_batch_size_per_gpu", Field::MicroBatch),
    ("global_batch_size", Field::GlobalBatch),
    ("train_batch_size", Field::GlobalBatch),
    ("seq_length", Field::SeqLen),
    ("encoder_seq_length", Field::SeqLen),
    ("seq_len", Field::SeqLen),
    ("block_size", Field::SeqLen),
    ("max_sequence_length", Field::SeqLen),
    ("max_target_length", Field::SeqLen),
    ("gradient_accumulation_steps", Field::GradAccum),
    ("num_layers", Field::Layers),
    ("num_hidden_layers", Field::Layers),
    ("hidden_size", Field::Hidden),
    ("ffn_hidden_size", Field::Ffn),
    ("intermediate_size", Field::Ffn),
    ("moe_ffn_hidden_size", Field::MoeFfn),
    ("moe_intermediate_size", Field::MoeFfn),
    ("num_attention_heads", Field::Heads),
    ("num_query_groups", Field::KvHeads),
    ("num_key_value_heads", Field::KvHeads),
    ("num_moe_experts", Field::Experts),
    ("num_experts", Field::Experts),
    ("moe_router_topk", Field::TopK),
    ("num_experts_per_tok", Field::TopK),
    ("override_vocab_size", Field::Vocab),
    ("vocab_size", Field::Vocab),
    ("log_interval", Field::LogInterval),
    ("train_iters", Field::TrainSteps),
    ("max_steps", Field::TrainSteps),
];

/// Phrases printed with a value after them (`: 8`, `= 24`, ` 16`), and their field.
const PHRASES: &[(&str, Field)] = &[
    ("global batch size", Field::GlobalBatch),
    (
        "total train batch size (w. parallel, distributed & accumulation)",
        Field::GlobalBatch,
    ),
    ("instantaneous batch size per device", Field::MicroBatch),
    ("world size", Field::Gpus),
    ("nranks", Field::Gpus),
    ("padded vocab (size", Field::Vocab),
];

/// One value printed: its field, the name it was printed under, its value and line (from 1).
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    pub field: Field,
    pub name: String,
    pub value: u64,
    pub line: usize,
    /// How specific the name is: its place in `FIELDS`, then `PHRASES` (lower is surer:
    /// Megatron's `seq_length` over a tokenizer's `block_size`, `world_size` over NCCL's
    /// `nranks`, which a sub-communicator prints too).
    pub rank: usize,
}

/// The facts of one (cleaned) line.
pub fn scan(line: &str, number: usize, out: &mut Vec<Fact>) {
    if let Some(json) = line.find(":::MLLOG ").map(|at| &line[at + 9..]) {
        mllog(json, number, out);
        return;
    }
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts = is_name_byte(bytes[i]) && (i == 0 || !is_name_byte(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_name_byte(bytes[i]) {
            i += 1;
        }
        let name = normalise(&line[start..i]);
        if let Some((rank, &(_, field))) = FIELDS.iter().enumerate().find(|(_, (n, _))| *n == name)
        {
            if let Some(value) = value_after(&line[i..], true) {
                out.push(Fact {
                    field,
                    name: line[start..i].trim_start_matches('-').to_string(),
                    value,
                    line: number,
                    rank,
                });
            }
        }
    }
    let lower = line.to_ascii_lowercase();
    for (k, &(phrase, field)) in PHRASES.iter().enumerate() {
        let mut from = 0;
        while let Some(at) = lower[from..].find(phrase) {
            let end = from + at + phrase.len();
            if let Some(value) = value_after(&line[end..], false) {
                out.push(Fact {
                    field,
                    name: line[from + at..end].to_string(),
                    value,
                    line: number,
                    rank: FIELDS.len() + k,
                });
            }
            from = end;
        }
    }
    peers(&lower, number, out);
}

/// An MLPerf `:::MLLOG` line's hyper-parameter (`"key": "global_batch_size", "value": 16`),
/// and the system's GPUs from `submission_platform`: MLPerf names a system
/// `<nodes>x<system>` and the systems here name their GPUs `…x8B200…` (`1xXE9680Lx8B200-SXM-180GB`).
fn mllog(json: &str, number: usize, out: &mut Vec<Fact>) {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json.trim()) else {
        return;
    };
    let Some(key) = value["key"].as_str() else {
        return;
    };
    if let Some((rank, &(_, field))) = FIELDS.iter().enumerate().find(|(_, (n, _))| *n == key) {
        if let Some(v) = value["value"].as_u64().filter(|&v| v > 0) {
            out.push(Fact {
                field,
                name: key.to_string(),
                value: v,
                line: number,
                rank,
            });
        }
    }
    if key == "submission_platform" {
        if let Some(gpus) = value["value"].as_str().and_then(platform_gpus) {
            out.push(Fact {
                field: Field::Gpus,
                name: "submission_platform".to_string(),
                value: gpus,
                line: number,
                rank: 1,
            });
        }
    }
}

/// `2xXE9685Lx8B200-SXM-180GB` → 2 × 8: the leading `<nodes>x`, then the last `x<k>` followed
/// by a letter (the accelerator's name).
fn platform_gpus(name: &str) -> Option<u64> {
    let (nodes, system) = name.split_once('x')?;
    let nodes = nodes.parse::<u64>().ok()?;
    let per_node = system.match_indices('x').rev().find_map(|(at, _)| {
        let rest = &system[at + 1..];
        let digits = leading_digits(rest);
        let letter = rest[digits.len()..].chars().next()?;
        (letter.is_ascii_alphabetic() && !digits.is_empty()).then(|| digits.parse::<u64>().ok())?
    })?;
    (nodes > 0 && per_node > 0).then_some(nodes * per_node)
}

/// Gloo's `connected to 7 peer ranks` (Megatron-Bridge): the world is the peers and itself.
fn peers(lower: &str, number: usize, out: &mut Vec<Fact>) {
    let Some(at) = lower.find("connected to ") else {
        return;
    };
    let rest = &lower[at + "connected to ".len()..];
    let digits = leading_digits(rest);
    if rest[digits.len()..].starts_with(" peer ranks") {
        if let Ok(peers) = digits.parse::<u64>() {
            out.push(Fact {
                field: Field::Gpus,
                name: "connected to … peer ranks".to_string(),
                value: peers + 1,
                line: number,
                rank: FIELDS.len() + PHRASES.len(),
            });
        }
    }
}

/// The digits `text` starts with.
fn leading_digits(text: &str) -> &str {
    &text[..text.bytes().take_while(u8::is_ascii_digit).count()]
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'/')
}

/// `--training.seq_len` → `seq_len`; `cfg/num_layers` → `num_layers`.
fn normalise(name: &str) -> String {
    let last = name
        .trim_end_matches(['.', '-'])
        .rsplit(['.', '/'])
        .next()
        .unwrap_or(name);
    last.trim_start_matches('-')
        .replace('-', "_")
        .to_ascii_lowercase()
}

/// The whole number after a name: a closing quote, spaces, a separator (`:`, `=`, a run of
/// dots; or, after a phrase, only spaces), spaces, an opening quote, digits. `None` when what
/// follows is not a positive whole number (`None`, `null`, `0.5`, `${TP}`).
fn value_after(rest: &str, need_separator: bool) -> Option<u64> {
    let rest = rest.trim_start_matches(['\'', '"']).trim_start();
    let after = if let Some(r) = rest.strip_prefix([':', '=']) {
        r
    } else if rest.starts_with("..") {
        rest.trim_start_matches('.')
    } else if need_separator {
        return None;
    } else {
        rest
    };
    let after = after.trim_start().trim_start_matches(['\'', '"']);
    let digits = leading_digits(after);
    let tail = after[digits.len()..].chars().next();
    if digits.is_empty() || matches!(tail, Some('.' | 'e' | 'E' | '/' | 'x' | ':')) {
        return None;
    }
    digits.parse::<u64>().ok().filter(|&v| v > 0)
}
