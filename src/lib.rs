//! # scaling-core
//!
//! An interactive model of weak vs strong scaling. Amdahl's law says a fixed problem on `N`
//! processors speeds up at most `1/f` for a serial fraction `f` (strong scaling, a systems
//! wall); Gustafson's law says a problem that grows with `N` keeps speeding up linearly (weak
//! scaling), which in LLM training means a growing global batch and an algorithmic wall.
//! The crate computes both, draws them, and runs the same way in the browser (WebAssembly)
//! and on the command line (`scaling`).
//!
//! Data flows one way: text → [`scenario::Scenario`] (validated) → the model → [`panel`]
//! (rows, text, charts) → the DOM (the page, `crates/web`) or terminal/SVG/JSON (the CLI,
//! `crates/cli`).
//!
//! Its modules are listed in the code map of `docs/architecture.md`.

/// `format!` in the thread's language: `trf!("{} GPUs", "{} 卡", n)`. Placeholders are
/// `{}` (next argument) or `{0}`, `{1}` … (so a translation can reorder them). Filled at run
/// time by [`i18n::fill`], so each call site costs one call, not two `format!` expansions
/// (which matters for the WebAssembly size budget).
#[macro_export]
macro_rules! trf {
    ($en:literal, $zh:literal $(, $arg:expr)* $(,)?) => {
        $crate::i18n::fill(
            $crate::i18n::tr($en, $zh),
            &[$(&$arg as &dyn ::core::fmt::Display),*],
        )
    };
}

pub mod chart;
pub mod controls;
pub mod i18n;
/// The formulas: the `scaling-model` crate (crates/model), which depends on serde alone. Named
/// `crate::model` here and not re-exported, so the faces (`crates/web`, `crates/cli`), which do
/// not depend on it, cannot name a formula or run a sweep: they read the panel layer.
use scaling_model as model;
pub mod page;
pub mod panel;
pub mod runs;
pub mod scenario;
pub mod text;
