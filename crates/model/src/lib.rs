//! The model: pure maths, no browser. Every formula is in the doc comment of the item that
//! computes it, with its source.
//!
//! Its modules are listed in the code map of `docs/architecture.md`; the formulas, chapter by
//! chapter, are in `docs/model/`.

pub mod batch;
pub mod fit;
pub mod inputs;
pub mod kernel;
pub mod laws;
pub mod layouts;
pub mod levers;
pub mod llm;
pub mod measured;
pub mod memory;
pub mod mode;
pub mod plan;
pub mod shape;
pub mod stack;
pub mod steady;
pub mod step;
pub mod sweep;
pub mod traffic;
pub mod walls;
