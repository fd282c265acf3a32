//! Measured scaling points and their Karp–Flatt analysis (the pasted text is read by
//! `scaling_core::text::pairs`; this module sees numbers only).
//!
//! A user pastes `(N, value)` pairs where the value is either a speedup or a run time. Times
//! are turned into speedups against the smallest `N` measured: `S(N) = N₀·t(N₀)/t(N)`, which
//! assumes the baseline itself scaled ideally when `N₀ > 1` (said in the summary).

use super::laws::{efficiency, fit_serial_fraction, karp_flatt};
use serde::Serialize;

/// At most this many measured points: a URL cannot make the page do unbounded work.
pub const MAX_POINTS: usize = 64;
/// Largest processor count accepted anywhere (2^30, enough for any machine and then some).
pub const MAX_PROCESSORS: f64 = 1_073_741_824.0;

/// What the second number of each pair means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MeasuredKind {
    /// Speedup relative to one processor.
    Speedup,
    /// Wall-clock time of the same work (any unit; ms when a suffix is given).
    Time,
}

impl MeasuredKind {
    pub fn key(self) -> &'static str {
        match self {
            MeasuredKind::Speedup => "speedup",
            MeasuredKind::Time => "time",
        }
    }
    pub fn from_key(key: &str) -> Option<Self> {
        match key.trim() {
            "speedup" | "s" => Some(MeasuredKind::Speedup),
            "time" | "t" => Some(MeasuredKind::Time),
            _ => None,
        }
    }
}

/// One measured `(N, value)` pair.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MeasuredPoint {
    pub processors: f64,
    pub value: f64,
}

/// Why pasted points cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub enum MeasuredError {
    /// An item is not a number.
    BadNumber { item: String },
    /// The numbers do not come in pairs.
    OddCount { count: usize },
    /// `N` below 1 or above 2^30, or not finite.
    ProcessorsOutOfRange { processors: f64 },
    /// A speedup or a time that is zero or negative.
    NonPositiveValue { processors: f64, value: f64 },
    /// The same `N` twice, or `N` not increasing.
    NotIncreasing { processors: f64 },
    /// More than [`MAX_POINTS`] pairs.
    TooMany { count: usize },
}

/// One analysed measurement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasuredRow {
    pub processors: f64,
    pub speedup: f64,
    pub efficiency: f64,
    /// Karp–Flatt `e(N)`; `None` at `N = 1`.
    pub karp_flatt: Option<f64>,
}

/// Karp–Flatt analysis of the measured points.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeasuredAnalysis {
    pub rows: Vec<MeasuredRow>,
    /// Least-squares Amdahl `f` over all points with `N > 1` ([`fit_serial_fraction`]).
    pub fitted_serial_fraction: Option<f64>,
    /// The `N` that times are relative to (1 for speedups).
    pub baseline_processors: f64,
}

/// Turns points into speedups, efficiencies and Karp–Flatt values.
/// Expects points as the text layer parses them (`scaling_core::text::pairs::parse_points`:
/// positive, increasing `N`).
pub fn analyse(points: &[MeasuredPoint], kind: MeasuredKind) -> MeasuredAnalysis {
    let baseline = points.first().copied();
    let baseline_processors = match kind {
        MeasuredKind::Speedup => 1.0,
        MeasuredKind::Time => baseline.map_or(1.0, |p| p.processors),
    };
    let rows: Vec<MeasuredRow> = points
        .iter()
        .map(|p| {
            let speedup = match (kind, baseline) {
                (MeasuredKind::Speedup, _) => p.value,
                (MeasuredKind::Time, Some(b)) => b.processors * b.value / p.value,
                (MeasuredKind::Time, None) => 1.0,
            };
            MeasuredRow {
                processors: p.processors,
                speedup,
                efficiency: efficiency(speedup, p.processors),
                karp_flatt: karp_flatt(speedup, p.processors),
            }
        })
        .collect();
    let pairs: Vec<(f64, f64)> = rows.iter().map(|r| (r.processors, r.speedup)).collect();
    MeasuredAnalysis {
        fitted_serial_fraction: fit_serial_fraction(&pairs),
        rows,
        baseline_processors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_points_become_speedups_and_karp_flatt() {
        let pts = [
            MeasuredPoint {
                processors: 1.0,
                value: 100.0,
            },
            MeasuredPoint {
                processors: 4.0,
                value: 30.0,
            },
        ];
        let a = analyse(&pts, MeasuredKind::Time);
        assert!((a.rows[1].speedup - 100.0 / 30.0).abs() < 1e-12);
        // e = (0.3 - 0.25)/(0.75) = 1/15
        assert!((a.rows[1].karp_flatt.unwrap() - 1.0 / 15.0).abs() < 1e-12);
        assert_eq!(a.rows[0].karp_flatt, None);
        assert!((a.fitted_serial_fraction.unwrap() - 1.0 / 15.0).abs() < 1e-12);
    }
}
