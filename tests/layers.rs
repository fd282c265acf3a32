//! The module rules of docs/architecture.md, checked on the source text so that breaking one
//! fails `make test` instead of waiting for a reviewer:
//!
//! - `src/model` is maths: no text, no translations, no browser (`i18n`, `text`, `scenario`,
//!   `panel`, `js_sys`, `wasm_bindgen`, `web_sys`, `tr(`/`trf!`, `format!`).
//! - `src/web` is glue: it never runs a sweep (`…Sweep::compute(`) nor evaluates a model formula;
//!   the panel layer does (`src/panel`).
//! - `src/chart` draws: it does not import the panel layer or the web glue.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Code lines of a file, without comments (doc comments may name other layers).
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("").to_string()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect()
}

fn violations(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut found = Vec::new();
    for file in rust_files(&root) {
        for (line_no, line) in code_lines(&file) {
            for pattern in forbidden {
                if line.contains(pattern) {
                    found.push(format!(
                        "{}:{line_no}: `{pattern}` in `{}`",
                        file.display(),
                        line.trim()
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn the_model_is_numbers_and_typed_errors_only() {
    let found = violations(
        "src/model",
        &[
            "i18n",
            "crate::text",
            "crate::scenario",
            "crate::panel",
            "crate::chart",
            "float_text",
            "js_sys",
            "wasm_bindgen",
            "web_sys",
            "tr(",
            "trf!",
            "format!",
            "impl fmt::Display",
            "impl std::fmt::Display",
        ],
    );
    assert!(
        found.is_empty(),
        "model rules broken:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_web_glue_computes_nothing() {
    let found = violations(
        "src/web",
        &[
            "Sweep::compute(",
            "crate::model::batch",
            "crate::model::laws",
            "crate::model::step",
            "crate::model::llm",
            "crate::model::plan",
            "crate::model::sweep",
            "crate::report",
        ],
    );
    assert!(found.is_empty(), "web rules broken:\n{}", found.join("\n"));
}

#[test]
fn charts_do_not_reach_up() {
    let found = violations("src/chart", &["crate::panel", "crate::web", "crate::cli"]);
    assert!(
        found.is_empty(),
        "chart rules broken:\n{}",
        found.join("\n")
    );
}

/// The rules above can fail: a planted line is found.
#[test]
fn the_checker_finds_a_planted_violation() {
    let dir = std::env::temp_dir().join(format!("layers-check-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("x.rs"),
        "// i18n in a comment is fine\nuse crate::i18n::tr;\n",
    )
    .unwrap();
    let lines: Vec<_> = code_lines(&dir.join("x.rs"));
    assert_eq!(lines.len(), 1);
    assert!(lines[0].1.contains("i18n"));
    fs::remove_dir_all(&dir).unwrap();
}
