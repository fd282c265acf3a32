//! The `scaling` command's tests, one binary: the command as a script or docs build runs it
//! (`command`), and every output byte for byte against `tests/snapshots/cli/` (`snapshots`).
#![cfg(not(target_arch = "wasm32"))] // native only

#[path = "../../../../tests/common/corpus.rs"]
mod corpus;

mod command;
mod snapshots;
