//! Pasted `(N, value)` pairs: the text of the measured-points and exposed/step-time boxes read
//! into numbers, and written back canonically. The model ([`crate::model::measured`]) only
//! sees the numbers.

use super::units::{canonical, parse_duration_ms, parse_quantity};
use crate::model::measured::{MeasuredError, MeasuredPoint, MAX_POINTS, MAX_PROCESSORS};

/// Whether a pasted item starts as a word of a header row ("GPUs", "step", "卡数", "μs"), not a
/// number: an ASCII letter or any character outside ASCII. `char::is_alphabetic` says the same
/// for every header people paste, but brings Unicode's letter tables into the page's wasm.
fn starts_as_a_word(item: &str) -> bool {
    item.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || !c.is_ascii())
}

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
        let is_header =
            line_index == 0 && !items.is_empty() && items.iter().all(|s| starts_as_a_word(s));
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

/// [`parse_pairs`] where a value may carry `@B`, the global batch in tokens it was measured at
/// (`128:8309@524288`): the points and each one's batch (`None`: the baseline batch).
pub fn parse_batched_pairs(
    text: &str,
) -> Result<(Vec<MeasuredPoint>, Vec<Option<f64>>), MeasuredError> {
    let (mut clean, mut marks) = (String::new(), Vec::new());
    for (i, line) in text.lines().enumerate() {
        let items: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '\t'))
            .filter(|s| !s.is_empty())
            .collect();
        let header = i == 0 && items.iter().all(|s| starts_as_a_word(s));
        for item in items {
            let (value, batch) = item
                .split_once('@')
                .map_or((item, None), |(v, b)| (v, Some(b)));
            if !header {
                marks.push((item, batch));
            }
            clean.push_str(value);
            clean.push(' ');
        }
        clean.push('\n');
    }
    let points = parse_pairs(&clean, true)?;
    let bad = |item: &str| MeasuredError::BadNumber {
        item: item.to_string(),
    };
    let mut batches = Vec::with_capacity(points.len());
    for pair in marks.chunks(2) {
        if pair[0].1.is_some() {
            return Err(bad(pair[0].0));
        }
        batches.push(match pair.get(1).and_then(|p| p.1) {
            Some(b) => Some(
                parse_quantity(b)
                    .ok()
                    .filter(|b| (1.0..=1e15).contains(b))
                    .ok_or_else(|| bad(b))?,
            ),
            None => None,
        });
    }
    Ok((points, batches))
}

/// The canonical text of batched points: `128:8309@524288,256:8408`.
pub fn format_batched(points: &[MeasuredPoint], batches: &[Option<f64>]) -> String {
    points
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let at = batches.get(i).copied().flatten();
            let at = at.map_or_else(String::new, |b| format!("@{}", canonical(b)));
            format!("{}:{}{at}", canonical(p.processors), canonical(p.value))
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The canonical text of points, as written to the URL and the text box: `1:100,2:52`.
pub fn format_points(points: &[MeasuredPoint]) -> String {
    points
        .iter()
        .map(|p| format!("{}:{}", canonical(p.processors), canonical(p.value)))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {

    /// A first line of words is a header in English or Chinese ("GPUs step", "卡数 单步 μs");
    /// one that starts with a digit, a sign or a bracket is data, and a bad one is refused.
    #[test]
    fn a_header_of_words_in_any_script_is_skipped() {
        for text in [
            "GPUs step\n1024 1000\n4096 380",
            "卡数 单步\n1024 1000\n4096 380",
        ] {
            let points = parse_pairs(text, false).unwrap();
            assert_eq!(points.len(), 2, "{text}");
            assert_eq!((points[0].processors, points[1].value), (1024.0, 380.0));
        }
        assert!(parse_pairs("(GPUs) (ms)\n1024 1000", false).is_err());
    }
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
    fn batched_pairs_round_trip_and_refuse_a_bad_batch() {
        let (p, b) = parse_batched_pairs("N,ms\n128 8309@524288\n256:8408").unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(b, vec![Some(524_288.0), None]);
        assert_eq!(format_batched(&p, &b), "128:8309@524288,256:8408");
        for bad in ["128:8309@", "128:8309@x", "128@4:8309", "128:8309@0"] {
            assert!(
                matches!(
                    parse_batched_pairs(bad),
                    Err(MeasuredError::BadNumber { .. })
                ),
                "{bad}"
            );
        }
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
}
