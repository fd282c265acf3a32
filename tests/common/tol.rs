//! Named tolerances for comparing a computed `f64` with a golden literal (as statrs's `prec`
//! module names its own), so each comparison says how exact it claims to be.

/// A closed formula of a few operations: only the last bits of rounding differ.
pub const EXACT: f64 = 1e-12;
/// A chain of tens of operations (sweeps, interpolation in log N, lever factors applied one
/// after another) compared with a literal written to full precision.
pub const CHAIN: f64 = 1e-9;
/// A literal written with six to nine significant digits, or a quantity of order 10^4–10^7
/// compared absolutely (N_max, tokens).
pub const PRINTED: f64 = 1e-6;
/// Throughputs of order 10^7–10^8 tokens/s, and limits approached numerically.
pub const MILLI: f64 = 1e-3;
