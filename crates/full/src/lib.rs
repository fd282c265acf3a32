//! # scaling-explorer-full: the page's full module
//!
//! The page's glue ([`scaling_explorer`], crates/web) with its feature `full`, as a cdylib of
//! its own (for the release profile's fat LTO, as crates/page). The first view's module
//! (crates/page) leaves out the Learn view and the exports; a link to the Learn view loads this
//! module instead of it, and the first view hands the page over to it through the link when a
//! reader opens the Learn view or exports (docs/architecture.md). No code of its own.

#![cfg(target_arch = "wasm32")]

pub use scaling_explorer::*;
