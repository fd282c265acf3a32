//! Megatron-LM's `pretrain_gpt.py` flags, as a launch script holds them (NVIDIA/Megatron-LM,
//! `megatron/training/arguments.py`): the shape, the layout, the batch and recomputation.
//! A script's own shell variables (`TP=8`, `${TP:-8}`) are substituted; a flag whose value is
//! a variable the text does not set is reported, not guessed.
//!
//! Megatron's conventions, mapped: `--global-batch-size` counts sequences (`b` is tokens:
//! `G · --seq-length`); `--num-layers-per-virtual-pipeline-stage k` is the interleaved
//! schedule with `v = L/(PP·k)` chunks per stage; `--use-distributed-optimizer` shards the
//! optimizer state over data-parallel ranks (ZeRO-1); `--swiglu` without `--ffn-hidden-size`
//! takes Megatron's default width, `4h·2/3` rounded down to a multiple of 64.

use super::{count, line_of, no_effect, unread, Entry, Format, Import, ImportError, Outcome};
use crate::i18n::tr;
use crate::scenario::Key;
use std::collections::HashMap;

/// Flags whose presence marks a text as Megatron-LM's.
const MARKERS: [&str; 4] = [
    "--num-layers",
    "--tensor-model-parallel-size",
    "--pipeline-model-parallel-size",
    "--micro-batch-size",
];

/// Whether `text` holds one of Megatron-LM's flags this reader maps.
pub fn has_flags(text: &str) -> bool {
    tokens(text)
        .iter()
        .any(|t| MARKERS.contains(&t.text.as_str()))
}

/// A word of the text and the byte offset it starts at.
#[derive(Debug, Clone)]
struct Token {
    text: String,
    at: usize,
}

/// The text's words: split at whitespace, quotes and `(`/`)` (bash arrays), comments
/// dropped, `--flag=value` split in two.
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split(" #").next().unwrap_or(line);
        let code = if code.trim_start().starts_with('#') {
            ""
        } else {
            code
        };
        let mut start = None;
        for (i, c) in code.char_indices() {
            let boundary = c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '\\');
            match (boundary, start) {
                (true, Some(s)) => {
                    push(&mut out, &code[s..i], at + s);
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if let Some(s) = start {
            push(&mut out, &code[s..], at + s);
        }
        at += line.len();
    }
    out
}

fn push(out: &mut Vec<Token>, word: &str, at: usize) {
    match word.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => {
            out.push(Token {
                text: flag.to_string(),
                at,
            });
            out.push(Token {
                text: value.to_string(),
                at: at + flag.len() + 1,
            });
        }
        _ => out.push(Token {
            text: word.to_string(),
            at,
        }),
    }
}

/// The script's variable assignments, `NAME=value` or `export NAME=value`, with
/// `${NAME:-default}` read as its default (quotes and all), and `: "${NAME:=default}"`, which
/// sets `NAME` where the script has not ([`super::shell::assignment`]).
fn variables(text: &str) -> HashMap<String, String> {
    let mut vars = HashMap::new();
    for line in text.lines() {
        if let Some((name, value, if_unset)) = super::shell::assignment(line) {
            if !(if_unset && vars.contains_key(&name)) {
                vars.insert(name, value);
            }
        }
    }
    vars
}

/// `$NAME` or `${NAME}` of `vars`, else the word itself; `None` for a variable not set.
fn substitute(word: &str, vars: &HashMap<String, String>) -> Option<String> {
    let Some(name) = word.strip_prefix('$') else {
        return Some(word.to_string());
    };
    let name = name.trim_start_matches('{').trim_end_matches('}');
    let (name, default) = match name.split_once(":-").or_else(|| name.split_once(":=")) {
        Some((n, d)) => (n, Some(super::shell::unquote(d))),
        None => (name, None),
    };
    vars.get(name).cloned().or(default)
}

/// A flag, its value (none for a switch) and its line.
type Flag = (String, Option<String>, usize);

/// The flags of a text, each once (the last wins, as with argparse) with its value and
/// line, and what has been said of them.
struct Flags {
    flags: Vec<Flag>,
    entries: Vec<Entry>,
    mapped: Vec<&'static str>,
}

impl Flags {
    fn get(&self, flag: &str) -> Option<&Flag> {
        self.flags.iter().find(|(f, _, _)| f == flag)
    }

    /// `flag`'s count and line, if given.
    fn number(&self, flag: &str) -> Result<Option<(u64, usize)>, ImportError> {
        let Some((_, value, line)) = self.get(flag) else {
            return Ok(None);
        };
        let text = value.clone().unwrap_or_default();
        text.trim()
            .parse::<f64>()
            .ok()
            .and_then(count)
            .map(|n| Some((n, *line)))
            .ok_or(ImportError::BadValue {
                source: flag.to_string(),
                line: *line,
                value: text,
            })
    }

    fn set(&mut self, flag: &'static str, line: usize, key: Key, value: String) {
        self.entries.push(Entry {
            source: flag.to_string(),
            line,
            outcome: Outcome::Set(key, value),
        });
        self.mapped.push(flag);
    }

    fn say(&mut self, flag: &'static str, line: usize, outcome: Outcome) {
        self.entries.push(Entry {
            source: flag.to_string(),
            line,
            outcome,
        });
        self.mapped.push(flag);
    }
}

/// The flags of `text`, with the script's variables substituted, and the flags whose value
/// is a variable the text does not set.
fn collect(text: &str) -> (Vec<Flag>, Vec<(String, usize)>) {
    let vars = variables(text);
    let words = tokens(text);
    let mut flags: Vec<Flag> = Vec::new();
    let mut unresolved = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if !w.text.starts_with("--") || w.text.len() < 3 {
            i += 1;
            continue;
        }
        let line = line_of(text, w.at);
        let next = words.get(i + 1).filter(|v| !v.text.starts_with("--"));
        i += if next.is_some() { 2 } else { 1 };
        let value = match next {
            Some(v) => match substitute(&v.text, &vars) {
                Some(s) => Some(s),
                None => {
                    unresolved.push((w.text.clone(), line));
                    continue;
                }
            },
            None => None,
        };
        flags.retain(|(f, _, _)| *f != w.text);
        flags.push((w.text.clone(), value, line));
    }
    (flags, unresolved)
}

/// Reads the flags of a launch script.
pub fn read(text: &str) -> Result<Import, ImportError> {
    let text = &super::shell::active_text(text)?;
    let (flags, unresolved) = collect(text);
    let mut f = Flags {
        flags,
        entries: Vec::new(),
        mapped: Vec::new(),
    };
    counts(&mut f)?;
    mlp(&mut f)?;
    batch(&mut f)?;
    interleaving(&mut f)?;
    recomputation(&mut f)?;
    defaults(&mut f);
    for (flag, line) in &unresolved {
        f.entries.push(ignored(
            flag,
            *line,
            tr(
                "its value is a shell variable the text does not set",
                "其值是文本中没有赋值的 shell 变量",
            ),
        ));
    }
    let rest: Vec<(String, usize)> = f
        .flags
        .iter()
        .filter(|(flag, _, _)| !f.mapped.contains(&flag.as_str()))
        .map(|(flag, _, line)| (flag.clone(), *line))
        .collect();
    for (flag, line) in rest {
        f.entries.push(Entry {
            source: flag.clone(),
            line,
            outcome: unread(&flag, why_ignored(&flag), |s| s.megatron),
        });
    }
    // In the text's order; the defaults of what it leaves out (line 0) last.
    f.entries
        .sort_by_key(|e| if e.line == 0 { usize::MAX } else { e.line });
    Ok(Import {
        format: Format::Megatron,
        entries: f.entries,
    })
}

/// Counts that map one to one, the key/value heads, and the switches.
fn counts(f: &mut Flags) -> Result<(), ImportError> {
    for (flag, key) in [
        ("--num-layers", Key::Layers),
        ("--hidden-size", Key::Hidden),
        ("--num-attention-heads", Key::Heads),
        ("--seq-length", Key::SeqLen),
        ("--num-experts", Key::Experts),
        ("--moe-router-topk", Key::ExpertsPerToken),
        ("--tensor-model-parallel-size", Key::Tp),
        ("--pipeline-model-parallel-size", Key::Pp),
        ("--context-parallel-size", Key::Cp),
        ("--expert-model-parallel-size", Key::Ep),
        ("--expert-tensor-parallel-size", Key::Etp),
        ("--micro-batch-size", Key::Microbatch),
        ("--vocab-size", Key::Vocab),
        ("--kv-channels", Key::HeadDim),
        // Megatron-LM turns `cpu_offloading` on when the count is above 0 (`arguments.py`).
        ("--cpu-offloading-num-layers", Key::OffloadLayers),
    ] {
        if let Some((n, line)) = f.number(flag)? {
            f.set(flag, line, key, n.to_string());
        }
    }
    let heads = f.number("--num-attention-heads")?;
    if let Some((groups, line)) = f.number("--num-query-groups")? {
        if heads.is_some_and(|(nh, _)| nh % groups != 0) {
            return Err(ImportError::Contradiction {
                first: "--num-attention-heads".to_string(),
                second: "--num-query-groups".to_string(),
                line,
            });
        }
        f.set("--num-query-groups", line, Key::KvHeads, groups.to_string());
    } else if let Some((nh, line)) = heads {
        f.set("--num-attention-heads", line, Key::KvHeads, nh.to_string());
    }
    let fsdp = f.get("--use-megatron-fsdp").is_some();
    for (flag, key) in [
        ("--sequence-parallel", Key::SequenceParallel),
        ("--use-distributed-optimizer", Key::Zero),
        ("--use-flash-attn", Key::FlashAttention),
    ] {
        match f.get(flag) {
            // Megatron-FSDP requires the distributed optimizer beside it; its sharding
            // strategy is the stage.
            Some(&(_, _, line)) if fsdp && key == Key::Zero => f.say(
                flag,
                line,
                Outcome::Ignored(tr(
                    "required by Megatron-FSDP, whose sharding strategy sets zero",
                    "Megatron-FSDP 要求此项；zero 由其分片策略决定",
                )),
            ),
            Some(&(_, _, line)) => f.set(flag, line, key, "1".to_string()),
            None => {}
        }
    }
    // Transformer Engine's userbuffers overlap of TP: a collective goes in TP chunks behind
    // its GEMM's and the first stays exposed, `tpo = 1 − 1/TP` (docs/model/12-walls.md §12.4).
    if let Some(&(_, _, line)) = f.get("--tp-comm-overlap") {
        let tp = f
            .number("--tensor-model-parallel-size")?
            .map_or(1, |(t, _)| t);
        let share = 1.0 - 1.0 / tp as f64;
        f.set("--tp-comm-overlap", line, Key::TpOverlap, share.to_string());
    }
    megatron_fsdp(f)
}

/// Megatron-FSDP's sharding strategy as a ZeRO stage: `no_shard` 0, `optim` 1,
/// `optim_grads` 2, `optim_grads_params` 3 (its default).
fn megatron_fsdp(f: &mut Flags) -> Result<(), ImportError> {
    const STRATEGY: &str = "--data-parallel-sharding-strategy";
    let Some(&(_, _, line)) = f.get("--use-megatron-fsdp") else {
        return Ok(());
    };
    let (strategy, line) = match f.get(STRATEGY) {
        Some((_, value, line)) => (value.clone().unwrap_or_default(), *line),
        None => ("optim_grads_params".to_string(), line),
    };
    let zero = match strategy.as_str() {
        "no_shard" => "0",
        "optim" => "1",
        "optim_grads" => "2",
        "optim_grads_params" => "3",
        other => {
            return Err(ImportError::NotOneOf {
                source: STRATEGY.into(),
                line,
                value: other.to_string(),
                choices: "no_shard, optim, optim_grads, optim_grads_params",
            })
        }
    };
    f.set("--use-megatron-fsdp", line, Key::Zero, zero.to_string());
    f.mapped.push(STRATEGY);
    Ok(())
}

/// The MLP: gated with `--swiglu`, else GELU.
fn mlp(f: &mut Flags) -> Result<(), ImportError> {
    let hidden = f.number("--hidden-size")?;
    let swiglu = f.get("--swiglu").is_some();
    f.mapped.push("--swiglu");
    match (f.number("--ffn-hidden-size")?, hidden) {
        (Some((w, line)), _) if swiglu => f.set("--ffn-hidden-size", line, Key::Ffn, w.to_string()),
        (Some((w, line)), Some((h, _))) if w == 4 * h => {
            f.set("--ffn-hidden-size", line, Key::Ffn, "0".into())
        }
        (Some((w, line)), _) => f.say(
            "--ffn-hidden-size",
            line,
            Outcome::Approximated(
                Some(Key::Ffn),
                (2 * w / 3).to_string(),
                super::notes::gelu_width(),
            ),
        ),
        (None, Some((h, line))) if swiglu => f.set(
            "--swiglu",
            line,
            Key::Ffn,
            (4 * h * 2 / 3 / 64 * 64).to_string(),
        ),
        (None, Some((_, line))) => f.set("--hidden-size", line, Key::Ffn, "0".into()),
        (None, None) => {}
    }
    Ok(())
}

/// The global batch, in sequences of `--seq-length`, a multiple of the microbatch.
fn batch(f: &mut Flags) -> Result<(), ImportError> {
    let Some((g, line)) = f.number("--global-batch-size")? else {
        return Ok(());
    };
    if f.number("--micro-batch-size")?
        .is_some_and(|(m, _)| g % m != 0)
    {
        return Err(ImportError::Contradiction {
            first: "--global-batch-size".into(),
            second: "--micro-batch-size".into(),
            line,
        });
    }
    match f.number("--seq-length")? {
        Some((s, _)) => f.set(
            "--global-batch-size",
            line,
            Key::GlobalBatch,
            (g * s).to_string(),
        ),
        None => f.say(
            "--global-batch-size",
            line,
            Outcome::Ignored(tr(
                "counts sequences; without --seq-length the tokens are unknown",
                "以序列计；没有 --seq-length 无法换算为 tokens",
            )),
        ),
    }
    Ok(())
}

/// Interleaving: `k` layers per virtual stage is `v = L/(PP·k)` chunks per stage.
fn interleaving(f: &mut Flags) -> Result<(), ImportError> {
    const FLAG: &str = "--num-layers-per-virtual-pipeline-stage";
    let Some((k, line)) = f.number(FLAG)? else {
        return Ok(());
    };
    let pp = f
        .number("--pipeline-model-parallel-size")?
        .map_or(1, |(p, _)| p);
    match f.number("--num-layers")?.map(|(l, _)| l) {
        Some(l) if l % (pp * k) == 0 => {
            f.set(FLAG, line, Key::Schedule, "interleaved".into());
            f.set(FLAG, line, Key::Chunks, (l / (pp * k)).to_string());
        }
        Some(_) => {
            return Err(ImportError::Contradiction {
                first: "--num-layers".into(),
                second: format!("--pipeline-model-parallel-size × {FLAG}"),
                line,
            })
        }
        // The layers are the scenario's: counted when the text is applied.
        None => {
            f.set(FLAG, line, Key::Schedule, "interleaved".into());
            f.say(FLAG, line, Outcome::LayersPerChunk(k));
        }
    }
    Ok(())
}

/// The older spellings of recomputation, before `--recompute-granularity`: Megatron-LM's
/// `--recompute-activations` is `--recompute-granularity selective` (its `arguments.py`
/// sets the granularity from it, over any other), and `--checkpoint-activations` (Megatron-LM
/// before 2022, Megatron-DeepSpeed, BLOOM's launch) checkpoints every layer, one a group
/// unless `--checkpoint-num-layers` says more: `full`.
const OLD_RECOMPUTE_FLAGS: [&str; 2] = ["--recompute-activations", "--checkpoint-activations"];

/// [`OLD_RECOMPUTE_FLAGS`], if the text uses one: `true` when it set the recomputation.
fn older_recomputation(f: &mut Flags) -> Result<bool, ImportError> {
    if let Some((_, _, line)) = f.get("--recompute-activations").cloned() {
        f.set(
            "--recompute-activations",
            line,
            Key::Recompute,
            "selective".into(),
        );
        if let Some((_, _, line)) = f.get("--recompute-granularity").cloned() {
            f.say(
                "--recompute-granularity",
                line,
                Outcome::Ignored(tr(
                    "--recompute-activations makes it selective, as Megatron-LM does",
                    "--recompute-activations 使其为 selective，与 Megatron-LM 一致",
                )),
            );
        }
        return Ok(true);
    }
    if f.get("--recompute-granularity").is_none() {
        if let Some((_, _, line)) = f.get("--checkpoint-activations").cloned() {
            f.set(
                "--checkpoint-activations",
                line,
                Key::Recompute,
                "full".into(),
            );
            match f.number("--checkpoint-num-layers")? {
                Some((n, line)) if n > 1 => f.say(
                    "--checkpoint-num-layers",
                    line,
                    Outcome::Approximated(
                        Some(Key::RecomputeLayers),
                        "0".into(),
                        tr(
                            "every layer is recomputed, in groups of this many",
                            "每一层都重计算，按这么多层一组",
                        ),
                    ),
                ),
                Some((_, line)) => f.set(
                    "--checkpoint-num-layers",
                    line,
                    Key::RecomputeLayers,
                    "0".into(),
                ),
                None => {}
            }
            return Ok(true);
        }
    }
    Ok(false)
}

/// Recomputation: the granularity, and with `full` the method and layers.
fn recomputation(f: &mut Flags) -> Result<(), ImportError> {
    if older_recomputation(f)? {
        return Ok(());
    }
    let Some((_, Some(granularity), line)) = f.get("--recompute-granularity").cloned() else {
        return Ok(());
    };
    if !matches!(granularity.as_str(), "full" | "selective") {
        return Err(ImportError::NotOneOf {
            source: "--recompute-granularity".into(),
            line,
            value: granularity,
            choices: "full, selective",
        });
    }
    f.set(
        "--recompute-granularity",
        line,
        Key::Recompute,
        granularity.clone(),
    );
    if granularity != "full" {
        return Ok(());
    }
    let method = f.get("--recompute-method").and_then(|(_, v, _)| v.clone());
    f.mapped.push("--recompute-method");
    match (method.as_deref(), f.number("--recompute-num-layers")?) {
        (Some("block"), Some((n, line))) => f.set(
            "--recompute-num-layers",
            line,
            Key::RecomputeLayers,
            n.to_string(),
        ),
        // Every layer, one a group: the whole stage recomputed.
        (Some("uniform"), Some((1, line))) => f.set(
            "--recompute-num-layers",
            line,
            Key::RecomputeLayers,
            "0".into(),
        ),
        (_, Some((_, line))) => f.say(
            "--recompute-num-layers",
            line,
            Outcome::Approximated(
                Some(Key::RecomputeLayers),
                "0".into(),
                tr(
                    "uniform: every layer is recomputed, in groups of this many",
                    "uniform：每一层都重计算，按这么多层一组",
                ),
            ),
        ),
        _ => {}
    }
    Ok(())
}

/// The flags that make a launch's layout: a text with one of them is a whole launch, and
/// what it leaves out takes Megatron-LM's default ([`defaults`]).
const LAYOUT_FLAGS: [&str; 6] = [
    "--tensor-model-parallel-size",
    "--pipeline-model-parallel-size",
    "--context-parallel-size",
    "--expert-model-parallel-size",
    "--micro-batch-size",
    "--global-batch-size",
];

/// What a launch leaves out is Megatron-LM's default, not the scenario's value: one
/// tensor-, pipeline-, context- and expert-parallel rank, the 1F1B schedule, no
/// recomputation, no sequence parallelism, no TP overlap, plain data parallelism (ZeRO-0).
/// Only for a text
/// that names part of the layout: flags for the shape alone leave the layout as it was.
fn defaults(f: &mut Flags) {
    if !LAYOUT_FLAGS.iter().any(|flag| f.get(flag).is_some()) {
        return;
    }
    let absent = |f: &Flags, flags: &[&str]| flags.iter().all(|flag| f.get(flag).is_none());
    let mut set: Vec<(&'static str, Key, &'static str)> = Vec::new();
    for (flag, key) in [
        ("--tensor-model-parallel-size", Key::Tp),
        ("--pipeline-model-parallel-size", Key::Pp),
        ("--context-parallel-size", Key::Cp),
        ("--expert-model-parallel-size", Key::Ep),
    ] {
        if absent(f, &[flag]) {
            set.push((flag, key, "1"));
        }
    }
    if absent(f, &["--num-layers-per-virtual-pipeline-stage"]) {
        set.push((
            "--num-layers-per-virtual-pipeline-stage",
            Key::Schedule,
            "1f1b",
        ));
    }
    if absent(f, &["--recompute-granularity"]) && absent(f, &OLD_RECOMPUTE_FLAGS) {
        set.push(("--recompute-granularity", Key::Recompute, "none"));
        set.push(("--recompute-num-layers", Key::RecomputeLayers, "0"));
    }
    if absent(f, &["--sequence-parallel"]) {
        set.push(("--sequence-parallel", Key::SequenceParallel, "0"));
    }
    if absent(f, &["--tp-comm-overlap"]) {
        set.push(("--tp-comm-overlap", Key::TpOverlap, "0"));
    }
    if absent(f, &["--use-distributed-optimizer", "--use-megatron-fsdp"]) {
        set.push(("--use-distributed-optimizer", Key::Zero, "0"));
    }
    for (flag, key, value) in set {
        f.entries.push(Entry {
            source: flag.to_string(),
            line: 0,
            outcome: Outcome::Default(key, value.to_string()),
        });
    }
}

/// Why a flag this reader does not map is ignored; `None` for a flag it does not know.
fn why_ignored(flag: &str) -> Option<&'static str> {
    Some(match flag {
        "--max-position-embeddings" => super::notes::positions(),
        "--bf16" | "--fp16" | "--fp8-format" | "--fp8-hybrid" => super::notes::precision(),
        "--vocab-file" | "--tokenizer-model" | "--tokenizer-type" => super::notes::tokenizer(),
        "--rampup-batch-size" | "--step-batch-size-schedule" => tr(
            "a batch-size ramp: b is the global batch it ramps to",
            "global batch 逐步增大（rampup）：b 取增大后的值",
        ),
        f if NO_EFFECT_PREFIXES.iter().any(|p| f.starts_with(p)) => no_effect(),
        _ => return None,
    })
}

/// Flags known to change neither memory, traffic nor FLOPs, by prefix: the learning rate and
/// its schedule, the optimizer's constants, initialisation, dropout and norms, position
/// encodings, biases (the shape leaves them out), kernel fusions, data, checkpoints, logging
/// and the run's length. Any other flag the reader does not map is reported as not known.
const NO_EFFECT_PREFIXES: [&str; 50] = [
    "--lr",
    "--min-lr",
    "--override-opt",
    "--weight-decay",
    "--start-weight-decay",
    "--end-weight-decay",
    "--clip-grad",
    "--adam-",
    "--sgd-momentum",
    "--loss-scale",
    "--initial-loss-scale",
    "--min-loss-scale",
    "--hysteresis",
    "--init-method",
    "--attention-dropout",
    "--hidden-dropout",
    "--norm-epsilon",
    "--layernorm-epsilon",
    "--normalization",
    "--apply-layernorm-1p",
    "--position-embedding-type",
    "--use-rotary-position-embeddings",
    "--rotary-",
    "--no-position-embedding",
    "--disable-bias-linear",
    "--add-bias-linear",
    "--add-qkv-bias",
    "--attention-softmax-in-fp32",
    "--apply-query-key-layer-scaling",
    "--no-masked-softmax-fusion",
    "--no-bias-",
    "--no-gradient-accumulation-fusion",
    "--no-rope-fusion",
    "--data-",
    "--split",
    "--train-iters",
    "--train-samples",
    "--eval-",
    "--exit-",
    "--save",
    "--load",
    "--no-load-",
    "--no-save-",
    "--ckpt-",
    "--log-",
    "--tensorboard",
    "--wandb-",
    "--timing-log",
    "--seed",
    "--num-workers",
];

fn ignored(source: &str, line: usize, why: &'static str) -> Entry {
    Entry {
        source: source.to_string(),
        line,
        outcome: Outcome::Ignored(why),
    }
}
