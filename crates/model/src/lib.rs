//! The model: pure maths, no browser. Every formula is in the doc comment of the item that
//! computes it, with its source.
//!
//! - [`laws`]: Amdahl, Gustafson, Sun–Ni, efficiency, Shi's conversion, Karp–Flatt (MODEL.md §1).
//! - [`measured`]: measured `(N, value)` points, their parsing and Karp–Flatt analysis.
//! - [`sweep`]: the laws evaluated over `N` for tables and charts.
//! - [`fit`]: measured step times fitted to `t(N) = W/N + K` (calibrate, then predict).
//! - [`step`]: LLM step time: compute, exposed (tabulated or FSDP), `T_crit`, `N_max`.
//! - [`llm`]: strong and weak LLM sweeps (the seed's tables).
//! - [`batch`]: critical batch size and time-to-quality (McCandlish et al. 2018).
//! - [`levers`]: the changes that lower `T_crit` (NVLink domain, EP, no reshard, fp8, zero bubble).
//! - [`plan`]: the time-to-quality planner: weak, strong, weak-then-strong, best batch; levers.

pub mod batch;
pub mod fit;
pub mod laws;
pub mod levers;
pub mod llm;
pub mod measured;
pub mod plan;
pub mod step;
pub mod sweep;
