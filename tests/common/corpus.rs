//! The published configuration files the importer tests read, kept beside the project and
//! never in it: `../shared/fixtures/import` from the project root (its `SOURCES.md` gives each
//! file's repository, commit and path, its `expected.json` the values a correct importer
//! reads), or `$SCALING_FIXTURES/import`. A checkout without them skips what reads them and
//! says so on stderr (`skipped: …`); CI has them.
#![allow(dead_code)] // each test binary uses part of it

use std::path::{Path, PathBuf};

/// Where the corpus of the project at `root` would be.
fn corpus_path(root: &Path) -> PathBuf {
    std::env::var_os("SCALING_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/fixtures"))
        .join("import")
}

/// The corpus of the project at `root`, if it is there (its `expected.json` found).
pub fn corpus_dir(root: &Path) -> Option<PathBuf> {
    let dir = corpus_path(root);
    dir.join("expected.json").is_file().then_some(dir)
}

/// [`corpus_dir`], or `None` after saying on stderr that `what` is skipped.
pub fn corpus_or_skip(root: &Path, what: &str) -> Option<PathBuf> {
    let dir = corpus_dir(root);
    if dir.is_none() {
        eprintln!(
            "skipped: {what}: no {}/expected.json (the corpus beside the project; \
             SCALING_FIXTURES names another fixtures folder)",
            corpus_path(root).display()
        );
    }
    dir
}

/// The text of `name` in the corpus (`hf/llama-3.1-70b.config.json`), or `None` after saying
/// on stderr which test skips for want of it.
pub fn corpus_file(root: &Path, name: &str) -> Option<String> {
    let current = std::thread::current();
    let test = current.name().filter(|n| *n != "main").unwrap_or("a test");
    let dir = corpus_or_skip(root, &format!("{test} reads {name}"))?;
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(text)
}

/// The training logs beside the project (`../shared/fixtures/logs`, or
/// `$SCALING_FIXTURES/logs`) with their `expected.json`, or `None` after saying on stderr that
/// `what` is skipped.
pub fn logs_or_skip(root: &Path, what: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("SCALING_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../shared/fixtures"))
        .join("logs");
    if dir.join("expected.json").is_file() {
        Some(dir)
    } else {
        eprintln!("skipped: {what}: no {}/expected.json", dir.display());
        None
    }
}
