//! The one layer rule the compiler cannot check: inside the core crate, `src/chart` draws what
//! it is given and does not reach up into the panel layer (`src/panel`), which calls it.
//!
//! The other rules of docs/architecture.md are compiler facts since the workspace split them
//! into crates: the model (`crates/model`) depends on serde alone, so it knows no text, no
//! translations and no browser; the faces (`crates/web`, `crates/cli`) depend on the core but
//! not on the model, which the core does not re-export, so they cannot name a formula or run a
//! sweep; and nothing in the core can name a face. Splitting the charts into a crate of their
//! own would need the text and translation layers below them as a crate too; one test is
//! cheaper.

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

/// Every `use` item of a file as one line, comments dropped, so that a grouped import
/// spread over lines (`use crate::{\n model::{llm, plan},\n};`) is read whole.
fn use_items(path: &Path) -> Vec<String> {
    let code: Vec<String> = code_lines(path).into_iter().map(|(_, l)| l).collect();
    let joined = code.join(" ");
    joined
        .split(';')
        .filter_map(|item| {
            let item = item.trim();
            let at = item.find("use ")?;
            let head = &item[..at];
            // `use` at the start of an item, possibly after `pub` / `pub(crate)`.
            (head.trim().is_empty() || head.trim().starts_with("pub"))
                .then(|| item[at..].split_whitespace().collect::<Vec<_>>().join(" "))
        })
        .collect()
}

/// The words a `use` item names as path segments (`crate`, `model`, `llm`, …).
fn segments(item: &str) -> Vec<&str> {
    item.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

fn files_of(dir: &str) -> Vec<PathBuf> {
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir))
}

/// Charts draw what they are given: they do not reach up into the panel layer, by path or by
/// a grouped import.
#[test]
fn charts_do_not_reach_up() {
    let mut found = violations("src/chart", &["crate::panel"]);
    for file in files_of("src/chart") {
        for item in use_items(&file) {
            let words = segments(&item);
            if words.contains(&"crate") && words.contains(&"panel") {
                found.push(format!("{}: `{item}`", file.display()));
            }
        }
    }
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
    // A grouped import over several lines is read whole, and its modules are found.
    fs::write(
        dir.join("y.rs"),
        "use crate::{\n    // panel in a comment\n    model::{llm, plan},\n    text,\n};\nfn f() {}\n",
    )
    .unwrap();
    let items = use_items(&dir.join("y.rs"));
    assert_eq!(items, ["use crate::{ model::{llm, plan}, text, }"]);
    assert!(segments(&items[0]).contains(&"model"));
    assert!(!segments(&items[0]).contains(&"panel"));
    fs::remove_dir_all(&dir).unwrap();
}
