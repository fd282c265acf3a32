//! The root crate's tests, one binary with a module per feature (`cargo test --test core
//! layouts::` runs one). The decoder fuzzer is a binary of its own (`tests/fuzz_decode.rs`),
//! run in release by `make test-fuzz`; the model's own goldens are in `crates/model/tests/`.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

#[path = "../common/mod.rs"]
mod common;

mod charts_svg;
mod compare;
mod exercise;
mod fit;
mod import;
mod import_corpus;
mod import_logs;
mod laws;
mod layers;
mod layouts;
mod learn;
mod llm;
mod machines;
mod marks;
mod numeric_edges;
mod panel;
mod plan;
mod properties;
mod registry;
mod sentences;
mod tidy;
mod url_codec;
mod zh;
