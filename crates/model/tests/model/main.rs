//! The model crate's tests through its public API alone, one binary with a module per feature
//! (`cargo test -p scaling-model`).

// The root crate's named tolerances, one definition for both crates; each binary uses part.
#[allow(dead_code)]
#[path = "../../../../tests/common/tol.rs"]
mod tol;

mod seed;
mod steady;
