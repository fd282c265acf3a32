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
    if let Some(d) = num("head_dim") {
        out.push((Key::HeadDim, d));
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
    let Some(dir) = corpus("the corpus's Hugging Face configs") else {
        return;
    };
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
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
    let Some(dir) = corpus("the corpus's torchtitan TOMLs") else {
        return;
    };
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
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
