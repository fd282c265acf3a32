//! Measured scaling points: parsing what a user pastes, and the Karp–Flatt analysis of them.
//!
//! A user pastes `(N, value)` pairs where the value is either a speedup or a run time. Times
//! are turned into speedups against the smallest `N` measured: `S(N) = N₀·t(N₀)/t(N)`, which
//! assumes the baseline itself scaled ideally when `N₀ > 1` (said in the summary).

use super::laws::{efficiency, fit_serial_fraction, karp_flatt};
use super::units::{clip, format_sig, parse_duration_ms, parse_quantity};
use serde::Serialize;
use std::fmt;

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

impl fmt::Display for MeasuredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeasuredError::BadNumber { item } => {
                f.write_str(&trf!("“{}” is not a number", "“{}” 不是数字", clip(item)))
            }
            MeasuredError::OddCount { count } => f.write_str(&trf!(
                "expected pairs “N value”, got {} numbers (an odd count)",
                "应为成对的 “N 值”，却得到 {} 个数（奇数个）",
                count
            )),
            MeasuredError::ProcessorsOutOfRange { processors } => f.write_str(&trf!(
                "N = {} is outside 1 … 2^30",
                "N = {} 超出 1 … 2^30 的范围",
                format_sig(*processors, 6)
            )),
            MeasuredError::NonPositiveValue { processors, value } => f.write_str(&trf!(
                "the value at N = {} must be 1e-9 … 1e15, got {}",
                "N = {} 处的值必须在 1e-9 … 1e15 之间，实际为 {}",
                format_sig(*processors, 6),
                format_sig(*value, 6)
            )),
            MeasuredError::NotIncreasing { processors } => f.write_str(&trf!(
                "N must increase from pair to pair; N = {} comes out of order or twice",
                "N 必须逐对递增；N = {} 顺序不对或重复",
                format_sig(*processors, 6)
            )),
            MeasuredError::TooMany { count } => f.write_str(&trf!(
                "{} pairs is more than the {} allowed",
                "{} 对超过允许的 {} 对",
                count,
                MAX_POINTS
            )),
        }
    }
}

impl std::error::Error for MeasuredError {}

/// Parses pasted pairs. Pairs may be separated by newlines, `;` or `,`; within a pair
/// `N` and the value by spaces, tabs, `:` or `,` (CSV). A first line with words is taken as a
/// header and skipped. Values accept unit suffixes (`32k`, `900ms`, `1.2s`).
///
/// `1:100, 2:52, 4:28` · `N,time\n1,100\n2,52` · `1 1.0; 2 1.9; 4 3.4` all parse.
pub fn parse_points(text: &str) -> Result<Vec<MeasuredPoint>, MeasuredError> {
    parse_pairs(text, false)
}

/// [`parse_points`] with the choice to accept zero values (an exposed time can be 0 ms;
/// a speedup or run time cannot).
pub fn parse_pairs(text: &str, allow_zero: bool) -> Result<Vec<MeasuredPoint>, MeasuredError> {
    let mut numbers = Vec::new();
    for (line_index, line) in text.lines().enumerate() {
        let items: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '\t'))
            .filter(|s| !s.is_empty())
            .collect();
        let is_header = line_index == 0
            && !items.is_empty()
            && items
                .iter()
                .all(|s| s.starts_with(|c: char| c.is_alphabetic()));
        if is_header {
            continue;
        }
        for item in items {
            if numbers.len() >= 2 * MAX_POINTS + 2 {
                // Stop reading early; the count error below names the problem.
                return Err(MeasuredError::TooMany {
                    count: text.split([',', ';', '\n']).count() / 2,
                });
            }
            numbers.push(item);
        }
    }
    if numbers.len() % 2 == 1 {
        return Err(MeasuredError::OddCount {
            count: numbers.len(),
        });
    }
    if numbers.len() / 2 > MAX_POINTS {
        return Err(MeasuredError::TooMany {
            count: numbers.len() / 2,
        });
    }
    let mut points: Vec<MeasuredPoint> = Vec::with_capacity(numbers.len() / 2);
    for pair in numbers.chunks(2) {
        let processors = parse_quantity(pair[0]).map_err(|_| MeasuredError::BadNumber {
            item: pair[0].to_string(),
        })?;
        // The kind only decides how values are read later, so switching it never
        // invalidates the text: `3.4x`, `32k`, `900ms` and `1.2s` all parse either way.
        let value = parse_quantity(pair[1].trim_end_matches(['x', '×']))
            .or_else(|_| parse_duration_ms(pair[1]))
            .map_err(|_| MeasuredError::BadNumber {
                item: pair[1].to_string(),
            })?;
        if !(1.0..=MAX_PROCESSORS).contains(&processors) {
            return Err(MeasuredError::ProcessorsOutOfRange { processors });
        }
        // Values below 1e-9 (a nanosecond in ms, a billionth of a speedup) are no measurement
        // and would overflow 1/S.
        if !(0.0..=1e15).contains(&value) || (value < 1e-9 && !(allow_zero && value == 0.0)) {
            return Err(MeasuredError::NonPositiveValue { processors, value });
        }
        if points.last().is_some_and(|p| p.processors >= processors) {
            return Err(MeasuredError::NotIncreasing { processors });
        }
        points.push(MeasuredPoint { processors, value });
    }
    Ok(points)
}

/// The canonical text of points, as written to the URL and the text box: `1:100,2:52`.
pub fn format_points(points: &[MeasuredPoint]) -> String {
    points
        .iter()
        .map(|p| {
            format!(
                "{}:{}",
                super::units::canonical(p.processors),
                super::units::canonical(p.value)
            )
        })
        .collect::<Vec<_>>()
        .join(",")
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
/// Expects points from [`parse_points`] (positive, increasing `N`).
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
    fn parses_common_pastes() {
        let a = parse_points("1:100, 2:52, 4:28").unwrap();
        let b = parse_points("N,time\n1,100\n2,52\n4,28").unwrap();
        let c = parse_points("1 100ms; 2 52ms; 4 0.028s").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.len(), 3);
        assert!((c[2].value - 28.0).abs() < 1e-9);
        assert_eq!(parse_points("").unwrap(), vec![]);
    }

    #[test]
    fn rejects_bad_pastes() {
        assert!(matches!(
            parse_points("1 2 3"),
            Err(MeasuredError::OddCount { count: 3 })
        ));
        assert!(matches!(
            parse_points("4 1; 2 1"),
            Err(MeasuredError::NotIncreasing { .. })
        ));
        assert!(matches!(
            parse_points("0 1"),
            Err(MeasuredError::ProcessorsOutOfRange { .. })
        ));
        assert!(matches!(
            parse_points("2 -1"),
            Err(MeasuredError::NonPositiveValue { .. })
        ));
        let many: String = (1..=100).map(|n| format!("{n}:{n},")).collect();
        assert!(matches!(
            parse_points(&many),
            Err(MeasuredError::TooMany { .. })
        ));
    }

    #[test]
    fn time_points_become_speedups_and_karp_flatt() {
        let pts = parse_points("1:100, 4:30").unwrap();
        let a = analyse(&pts, MeasuredKind::Time);
        assert!((a.rows[1].speedup - 100.0 / 30.0).abs() < 1e-12);
        // e = (0.3 - 0.25)/(0.75) = 1/15
        assert!((a.rows[1].karp_flatt.unwrap() - 1.0 / 15.0).abs() < 1e-12);
        assert_eq!(a.rows[0].karp_flatt, None);
        assert!((a.fitted_serial_fraction.unwrap() - 1.0 / 15.0).abs() < 1e-12);
    }
}
