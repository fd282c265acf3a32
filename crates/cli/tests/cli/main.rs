//! The `scaling` command's tests, one binary: the command as a script or docs build runs it
//! (`command`), and every output byte for byte against `tests/snapshots/cli/` (`snapshots`).
#![cfg(not(target_arch = "wasm32"))] // native only

mod command;
mod snapshots;
