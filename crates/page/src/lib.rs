//! # scaling-explorer-page: the module the page loads
//!
//! The page's glue ([`scaling_explorer`], crates/web) as a cdylib of its own. crates/web is
//! also an rlib (its browser tests link it), and Cargo builds a package whose crate types
//! include an rlib without `-C lto`; linked here, the whole page gets the release profile's fat
//! LTO (docs/architecture.md, the table of crates). No code of its own: linking the glue exports its
//! wasm-bindgen `start` and test hook.

#![cfg(target_arch = "wasm32")]

pub use scaling_explorer::*;
