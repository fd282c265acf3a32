//! The held-out corpus of real configuration files (`../shared/fixtures/import`, beside the
//! project: 85 files from 30 public repositories with provenance in its `SOURCES.md`, and the
//! values a correct importer reads in its `expected.json`, read there by hand). Each Hugging
//! Face `config.json` is imported into a fresh scenario and its shape held against
//! `expected.json`; the files whose shape comes out otherwise are listed below with the
//! reason, so that a new miss fails the test and so does a fixed one still listed.
#![cfg(not(target_arch = "wasm32"))]

use crate::common::corpus::corpus_or_skip;
use scaling_core::scenario::import::{apply, read, ImportError, Outcome};
use scaling_core::scenario::{decode, Key, Scenario};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The corpus beside the project (`tests/common/corpus.rs`), or `None` after saying `what`
/// is skipped.
fn corpus(what: &str) -> Option<PathBuf> {
    corpus_or_skip(Path::new(env!("CARGO_MANIFEST_DIR")), what)
}

/// The corpus and its `expected.json`, or `None` after saying `what` is skipped.
fn corpus_and_expected(what: &str) -> Option<(PathBuf, Value)> {
    let dir = corpus(what)?;
    let text = std::fs::read_to_string(dir.join("expected.json")).unwrap();
    Some((dir, serde_json::from_str(&text).unwrap()))
}

/// The files whose shape the importer reads otherwise than `expected.json`, and why. Each is
/// a known gap of the model's shape or of the importer (docs/import.md).
const KNOWN_MISSES: [(&str, &str); 0] = [];

/// What `expected.json` says the model's shape keys should be: `(key, value)` for each value
/// it states. MoE models put the routed expert's width in `ffn` (the model's one MLP width);
/// `head_dim` is compared as the head width in force (`hdim`, or `h/a` when it is 0).
fn expected_keys(model: &Value) -> Vec<(Key, f64)> {
    let num = |k: &str| model.get(k).and_then(Value::as_f64);
    let moe = num("experts").is_some_and(|e| e > 1.0);
    let mut out = Vec::new();
    for (key, name) in [
        (Key::Layers, "layers"),
        (Key::Hidden, "hidden"),
        (Key::Heads, "heads"),
        (Key::KvHeads, "kv_heads"),
        (Key::Vocab, "vocab"),
    ] {
        if let Some(v) = num(name) {
            out.push((key, v));
        }
    }
    if let Some(f) = if moe { num("expert_ffn") } else { num("ffn") } {
        out.push((Key::Ffn, f));
    }
    if moe {
        out.push((Key::Experts, num("experts").unwrap_or(1.0)));
        if let Some(k) = num("experts_per_token") {
            out.push((Key::ExpertsPerToken, k));
        }
        out.push((Key::SharedExperts, num("shared_experts").unwrap_or(0.0)));
    }
    // Latent attention: its compressed widths, and heads as wide as `qk_nope_head_dim` (a
    // `head_dim` beside it is nominal: GLM-5's 64).
    let latent = num("kv_lora_rank").is_some_and(|r| r > 0.0);
    if latent {
        out.push((Key::KvLoraRank, num("kv_lora_rank").unwrap_or(0.0)));
        out.push((Key::QLoraRank, num("q_lora_rank").unwrap_or(0.0)));
        if let Some(d) = num("qk_nope_head_dim") {
            out.push((Key::HeadDim, d));
        }
        if let Some(d) = num("qk_rope_head_dim") {
            out.push((Key::RopeDim, d));
        }
    } else if let Some(d) = num("head_dim") {
        out.push((Key::HeadDim, d));
    }
    // An MoE's leading dense layers and their MLP (`ffn` is the dense width beside
    // `expert_ffn`).
    if moe {
        let dense = num("dense_layers").unwrap_or(0.0);
        out.push((Key::DenseLayers, dense));
        if dense > 0.0 {
            if let Some(f) = num("ffn") {
                out.push((Key::DenseFfn, f));
            }
        }
    }
    out
}

/// The scenario's value of `key`, with `hdim` as the head width in force.
fn value_of(s: &Scenario, key: Key) -> f64 {
    let w = &s.llm.walls;
    match key {
        Key::HeadDim if w.head_dim == 0.0 && w.heads > 0.0 => w.hidden / w.heads,
        Key::HeadDim => w.head_dim,
        // GPT's MLP (`ffn` 0) is `4h` wide.
        Key::Ffn if w.ffn == 0.0 => 4.0 * w.hidden,
        _ => s.get_text(key).parse().unwrap_or(f64::NAN),
    }
}

/// Each Hugging Face file imported: `Ok(mismatches)` (empty when right) or the refusal.
fn outcomes(
    dir: &Path,
    files: &serde_json::Map<String, Value>,
) -> Vec<(String, Result<Vec<String>, ImportError>)> {
    let base = decode("v=1&sq=4096").scenario;
    files
        .iter()
        .filter(|(_, f)| {
            f["format"]
                .as_str()
                .is_some_and(|s| s.starts_with("hf-config-json"))
        })
        .map(|(path, f)| {
            let text = std::fs::read_to_string(dir.join(path)).unwrap();
            let got = read(&text).and_then(|i| {
                let s = apply(&base, &i)?;
                let mut m: Vec<String> = expected_keys(&f["model"])
                    .into_iter()
                    .filter(|&(key, want)| value_of(&s, key) != want)
                    .map(|(key, want)| {
                        format!("{} {} (expected {want})", key.name(), value_of(&s, key))
                    })
                    .collect();
                // A count the shape cannot hold must be said: P off the file's own count by
                // more than 1% with no approximation in the report is a quiet misreading.
                let said = i
                    .entries
                    .iter()
                    .any(|e| matches!(e.outcome, Outcome::Approximated(..)));
                if let Some(implied) = f["implied"]["total"].as_f64() {
                    let off = s.llm.total_params / implied - 1.0;
                    if off.abs() > 0.01 && !said {
                        m.push(format!(
                            "P {:+.1}% off {implied} and nothing said",
                            100.0 * off
                        ));
                    }
                }
                Ok(m)
            });
            (path.clone(), got)
        })
        .collect()
}

#[test]
fn hugging_face_configs_import_as_the_model_they_describe() {
    let Some((dir, expected)) = corpus_and_expected("the corpus's Hugging Face configs") else {
        return;
    };
    let files = expected["files"].as_object().unwrap();
    let results = outcomes(&dir, files);
    let mut report = String::new();
    let mut misses = Vec::new();
    for (path, r) in &results {
        match r {
            Ok(m) if m.is_empty() => {}
            Ok(m) => {
                misses.push(path.clone());
                report.push_str(&format!("{path}: {}\n", m.join(", ")));
            }
            Err(e) => {
                misses.push(path.clone());
                report.push_str(&format!("{path}: refused: {e}\n"));
            }
        }
    }
    eprintln!(
        "{} of {} Hugging Face configs import as their model\n{report}",
        results.len() - misses.len(),
        results.len()
    );
    let known: Vec<&str> = KNOWN_MISSES.iter().map(|(p, _)| *p).collect();
    let new: Vec<&String> = misses
        .iter()
        .filter(|p| !known.contains(&p.as_str()))
        .collect();
    let fixed: Vec<&&str> = known
        .iter()
        .filter(|p| !misses.iter().any(|m| m == *p))
        .collect();
    assert!(new.is_empty(), "new misses: {new:?}\n{report}");
    assert!(
        fixed.is_empty(),
        "now right, take them off KNOWN_MISSES: {fixed:?}"
    );
}

/// What `expected.json` says a torchtitan TOML's layout is, as the scenario's keys: the
/// degrees, the sequence, the microbatch without a pipeline (with one it is the pipeline's
/// microbatch, which the file's local batch does not give), FSDP from the shard degree and the
/// recomputation.
fn expected_layout(training: &Value) -> Vec<(Key, String)> {
    let int = |k: &str| training.get(k).and_then(Value::as_i64);
    let mut out = Vec::new();
    for (key, name) in [
        (Key::Tp, "tp"),
        (Key::Pp, "pp"),
        (Key::Cp, "cp"),
        (Key::Ep, "ep"),
        (Key::SeqLen, "seq_len"),
    ] {
        if let Some(v) = int(name) {
            out.push((key, v.to_string()));
        }
    }
    if int("pp").unwrap_or(1) <= 1 {
        if let Some(m) = int("microbatch") {
            out.push((Key::Microbatch, m.to_string()));
        }
    }
    if let Some(shard) = int("dp_shard") {
        out.push((Key::Zero, if shard == 1 { "0" } else { "3" }.to_string()));
    }
    let recompute = training.get("recompute").and_then(Value::as_str);
    if let Some(ac) = match recompute {
        Some("full") => Some("full"),
        Some("none") => Some("none"),
        Some("selective (op)") => Some("selective"),
        _ => None,
    } {
        out.push((Key::Recompute, ac.to_string()));
    }
    out
}

/// torchtitan's TOMLs of every vintage (the degrees under `[parallelism]`, or under
/// `[training]` and `[experimental]` before mid-2025; `local_batch_size` or `batch_size`)
/// import as the layout they describe, over a scenario whose layout differs in every key.
#[test]
fn torchtitan_tomls_of_every_vintage_import_as_their_layout() {
    let Some((dir, expected)) = corpus_and_expected("the corpus's torchtitan TOMLs") else {
        return;
    };
    let base = decode("v=1&tp=2&pp=2&cp=2&mbs=3&sq=512&zero=1&ac=selective").scenario;
    let mut report = String::new();
    let mut n = 0;
    for (path, f) in expected["files"].as_object().unwrap() {
        if !f["format"]
            .as_str()
            .is_some_and(|s| s.starts_with("torchtitan"))
        {
            continue;
        }
        n += 1;
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        let s = match read(&text).and_then(|i| apply(&base, &i)) {
            Ok(s) => s,
            Err(e) => {
                report.push_str(&format!("{path}: refused: {e}\n"));
                continue;
            }
        };
        let wrong: Vec<String> = expected_layout(&f["training"])
            .into_iter()
            .filter(|(key, want)| s.get_text(*key) != *want)
            .map(|(key, want)| format!("{} {} (expected {want})", key.name(), s.get_text(key)))
            .collect();
        if !wrong.is_empty() {
            report.push_str(&format!("{path}: {}\n", wrong.join(", ")));
        }
    }
    assert_eq!(n, 12);
    assert!(report.is_empty(), "{report}");
}

/// What `expected.json` says a NeMo launcher config's run is, as the scenario's keys: the
/// degrees (an absent one is NeMo's default, 1), the schedule, sequence parallelism, the
/// microbatch, the sequence and the global batch in tokens, the recomputation in force and
/// the GPUs.
fn expected_run(t: &Value) -> Vec<(Key, String)> {
    let int = |k: &str| t.get(k).and_then(Value::as_u64);
    let mut out = Vec::new();
    for (key, name) in [
        (Key::Tp, "tp"),
        (Key::Pp, "pp"),
        (Key::Cp, "cp"),
        (Key::Ep, "ep"),
    ] {
        out.push((key, int(name).unwrap_or(1).to_string()));
    }
    match int("vpp") {
        Some(v) => {
            out.push((Key::Schedule, "interleaved".into()));
            out.push((Key::Chunks, v.to_string()));
        }
        None => out.push((Key::Schedule, "1f1b".into())),
    }
    if let Some(sp) = t["sequence_parallel"].as_bool() {
        out.push((Key::SequenceParallel, u8::from(sp).to_string()));
    }
    let (m, s, g) = (int("microbatch"), int("seq_len"), int("global_batch"));
    out.push((Key::Microbatch, m.unwrap().to_string()));
    out.push((Key::SeqLen, s.unwrap().to_string()));
    out.push((Key::GlobalBatch, (g.unwrap() * s.unwrap()).to_string()));
    let effective = t["recompute"]["effective"].as_str().unwrap();
    out.push((Key::Recompute, effective.to_string()));
    let gpus = int("nodes").unwrap() * int("gpus_per_node").unwrap();
    out.push((Key::BaselineGpus, gpus.to_string()));
    out
}

/// The scenario's value of `key` as `expected_run` writes it (the batch in whole tokens).
fn run_value(s: &Scenario, key: Key) -> String {
    match key {
        Key::GlobalBatch => format!("{}", s.llm.global_batch_tokens),
        Key::BaselineGpus => format!("{}", s.llm.baseline_gpus),
        _ => s.get_text(key),
    }
}

/// NeMo's launcher YAML (NeMo 1.x Hydra configs): each decoder's model and run as
/// `expected.json` says, over a scenario whose layout differs in every key; T5 and BERT
/// refused as not decoder-only.
#[test]
fn nemo_launcher_configs_import_as_their_model_and_run() {
    let Some((dir, expected)) = corpus_and_expected("the corpus's NeMo launcher configs") else {
        return;
    };
    let base =
        decode("v=1&tp=2&pp=2&cp=2&ep=2&mbs=3&sq=512&zero=1&ac=selective&sp=1&voc=32000").scenario;
    let mut report = String::new();
    let (mut read_as_run, mut refused) = (0, 0);
    for (path, f) in expected["files"].as_object().unwrap() {
        if f["format"].as_str() != Some("nemo-launcher-yaml") {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        let name = f["model_name"].as_str().unwrap();
        if name.contains("T5") || name.contains("BERT") {
            match read(&text) {
                Err(ImportError::NotDecoder(_)) => refused += 1,
                other => report.push_str(&format!(
                    "{path}: not refused as not a decoder: {other:?}\n"
                )),
            }
            continue;
        }
        let s = match read(&text).and_then(|i| apply(&base, &i)) {
            Ok(s) => s,
            Err(e) => {
                report.push_str(&format!("{path}: refused: {e}\n"));
                continue;
            }
        };
        read_as_run += 1;
        let mut wrong: Vec<String> = expected_keys(&f["model"])
            .into_iter()
            .filter(|&(key, want)| value_of(&s, key) != want)
            .map(|(key, want)| format!("{} {} (expected {want})", key.name(), value_of(&s, key)))
            .collect();
        wrong.extend(
            expected_run(&f["training"])
                .into_iter()
                .filter(|(key, want)| run_value(&s, *key) != *want)
                .map(|(key, want)| {
                    format!("{} {} (expected {want})", key.name(), run_value(&s, key))
                }),
        );
        if !wrong.is_empty() {
            report.push_str(&format!("{path}: {}\n", wrong.join(", ")));
        }
    }
    assert_eq!((read_as_run, refused), (13, 2), "{report}");
    assert!(report.is_empty(), "{report}");
}

/// The corpus's other files: DeepSpeed configs (batch, ZeRO stage, AutoTP; `"auto"` sets
/// nothing) and GPT-NeoX configs (model and run) read as `expected.json` says; DeepSeek's and
/// Zamba2's own formats, MaxText, llm-foundry and OLMo refused naming what the file is.
#[test]
fn other_formats_are_read_or_refused_naming_what_they_are() {
    let Some((dir, expected)) =
        corpus_and_expected("the corpus's DeepSpeed, GPT-NeoX and other configs")
    else {
        return;
    };
    let base = decode("v=1&tp=2&pp=2&mbs=3&sq=2048&zero=1&ac=selective").scenario;
    let mut report = String::new();
    let mut counts = [0; 3];
    for (path, f) in expected["files"].as_object().unwrap() {
        let format = f["format"].as_str().unwrap();
        if !path.starts_with("other/") {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        let t = &f["training"];
        let int = |k: &str| t.get(k).and_then(Value::as_u64);
        let mut want: Vec<(Key, String)> = Vec::new();
        match format {
            "deepspeed-json" => {
                counts[0] += 1;
                // "auto" and absent keys keep the scenario's value.
                want.push((Key::Microbatch, int("microbatch").unwrap_or(3).to_string()));
                want.push((Key::Zero, int("zero_stage").unwrap_or(1).to_string()));
                want.push((Key::Tp, int("tp").unwrap_or(2).to_string()));
                if let Some(g) = int("global_batch") {
                    want.push((Key::GlobalBatch, (g * 2048).to_string()));
                }
            }
            "gpt-neox-yaml" => {
                counts[1] += 1;
                want.push((Key::Tp, int("tp").unwrap().to_string()));
                want.push((Key::Pp, int("pp").unwrap().to_string()));
                want.push((Key::SeqLen, int("seq_len").unwrap().to_string()));
                if let Some(m) = int("microbatch") {
                    want.push((Key::Microbatch, m.to_string()));
                }
                if let Some(z) = int("zero_stage") {
                    want.push((Key::Zero, z.to_string()));
                }
                if t["recompute"]
                    .as_str()
                    .is_some_and(|r| r.starts_with("full"))
                {
                    want.push((Key::Recompute, "full".into()));
                }
            }
            _ => {
                counts[2] += 1;
                match read(&text) {
                    Err(ImportError::Foreign { .. } | ImportError::NotDecoder(_)) => {}
                    other => report.push_str(&format!("{path}: not refused: {other:?}\n")),
                }
                continue;
            }
        }
        let s = match read(&text).and_then(|i| apply(&base, &i)) {
            Ok(s) => s,
            Err(e) => {
                report.push_str(&format!("{path}: refused: {e}\n"));
                continue;
            }
        };
        let mut wrong: Vec<String> = want
            .into_iter()
            .filter(|(key, v)| run_value(&s, *key) != *v)
            .map(|(key, v)| format!("{} {} (expected {v})", key.name(), run_value(&s, key)))
            .collect();
        if !f["model"].is_null() {
            wrong.extend(
                expected_keys(&f["model"])
                    .into_iter()
                    .filter(|&(key, v)| value_of(&s, key) != v)
                    .map(|(key, v)| format!("{} {} (expected {v})", key.name(), value_of(&s, key))),
            );
        }
        if !wrong.is_empty() {
            report.push_str(&format!("{path}: {}\n", wrong.join(", ")));
        }
    }
    assert_eq!(counts, [5, 2, 11], "{report}");
    assert!(report.is_empty(), "{report}");
}

/// Every corpus file that imports as a run (torchtitan, NeMo launcher, GPT-NeoX), exported as
/// each tool's settings at its own GPU count and read back over a scenario whose layout
/// differs in every key, is the same layout — but where the tool cannot run it, which the
/// export says in a comment (`inexpressible`), and the batch where the export moved it to a
/// whole number of microbatches, which it also says.
#[test]
fn corpus_runs_round_trip_through_every_tool() {
    use crate::import::{another_layout, inexpressible, layout_sent};
    use scaling_core::scenario::export::{launch_settings, Tool};
    let Some((dir, expected)) = corpus_and_expected("round trips of the corpus's runs") else {
        return;
    };
    let mut report = String::new();
    let (mut checked, mut cannot) = (0, 0);
    for (path, f) in expected["files"].as_object().unwrap() {
        let format = f["format"].as_str().unwrap();
        if !["torchtitan", "nemo-launcher-yaml", "gpt-neox-yaml"]
            .iter()
            .any(|p| format.starts_with(p))
        {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        let base = decode("v=1&sq=4096&b=8M&mbs=1").scenario;
        let Ok(once) = read(&text).and_then(|i| apply(&base, &i)) else {
            continue; // T5, BERT: refused, tested above.
        };
        for tool in [Tool::Megatron, Tool::Torchtitan, Tool::Nemo] {
            let settings = launch_settings(&once, tool, once.llm.baseline_gpus);
            if inexpressible(&settings) {
                cannot += 1;
                continue;
            }
            let other = another_layout(&once);
            match read(&settings).and_then(|i| apply(&other, &i)) {
                Ok(twice) if layout_sent(&twice, &settings) == layout_sent(&once, &settings) => {
                    checked += 1;
                }
                Ok(twice) => report.push_str(&format!(
                    "{path} as {tool:?}:\n{settings}{:?}\n{:?}\n",
                    layout_sent(&twice, &settings),
                    layout_sent(&once, &settings)
                )),
                Err(e) => report.push_str(&format!("{path} as {tool:?}: {e}\n{settings}\n")),
            }
        }
    }
    eprintln!("{checked} round trips, {cannot} the tool cannot run");
    assert!(report.is_empty(), "{report}");
    assert!(
        checked >= 50,
        "{checked} round trips, {cannot} the tool cannot run"
    );
}
