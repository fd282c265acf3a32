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
//! - [`shape`]: the model's shape (layers, hidden, heads, experts) and the counts it implies.
//! - [`memory`]: memory per GPU: ZeRO's model states, FSDP's gathered weights, activations.
//! - [`kernel`]: kernels that shrink: Hockney's half-performance lengths of a GEMM.
//! - [`traffic`]: TP, CP and EP traffic per layer, and the latency of a collective.
//! - [`walls`]: the strong-scaling walls of one sweep point: memory, kernels, traffic.
//! - [`layouts`]: the search over parallel layouts at one GPU count, scored with the walls.
//! - [`stack`]: the software stack's `r∞`, for a compute rate from physics alone.

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
pub mod step;
pub mod sweep;
pub mod traffic;
pub mod walls;
