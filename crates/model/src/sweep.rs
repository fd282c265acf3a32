//! Sweeps: the laws evaluated over `N`, as table rows (powers of two) and as dense curves for
//! the charts. Everything the Laws panel shows comes out of [`LawsSweep::compute`]; charts and
//! tables only read it.

use super::laws::{
    amdahl_ceiling, amdahl_half_efficiency_processors, amdahl_speedup, efficiency,
    gustafson_speedup, shi_amdahl_from_gustafson, sun_ni_speedup,
};
use super::measured::{analyse, MeasuredAnalysis, MeasuredKind, MeasuredPoint};
use serde::Serialize;

/// Samples per dense curve: smooth at any canvas width (about one per 12 px on a wide chart;
/// the curves are smooth in log N), cheap enough for every input event.
pub const CURVE_SAMPLES: usize = 96;

/// Validated inputs of the Laws panel (see `Scenario::laws_inputs` in the root crate).
#[derive(Debug, Clone, PartialEq)]
pub struct LawsInputs {
    /// The highlighted serial fraction `f`, `0 ≤ f ≤ 1`.
    pub serial_fraction: f64,
    /// Further serial fractions drawn for comparison (Amdahl only).
    pub compare_fractions: Vec<f64>,
    /// Largest processor count on the axis, `2 ≤ N_max ≤ 2^30`.
    pub max_processors: f64,
    /// Sun–Ni work-growth exponent `g` in `G(N) = N^g`.
    pub growth_exponent: f64,
    pub measured: Vec<MeasuredPoint>,
    pub measured_kind: MeasuredKind,
}

/// One table row: every law at one processor count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LawsRow {
    pub processors: f64,
    pub amdahl_speedup: f64,
    pub amdahl_efficiency: f64,
    pub gustafson_speedup: f64,
    pub gustafson_efficiency: f64,
    pub sun_ni_speedup: f64,
    pub sun_ni_efficiency: f64,
    /// Amdahl speedup for each comparison fraction, in the order of `compare_fractions`.
    pub compare_speedups: Vec<f64>,
}

/// A dense curve for a chart: `(N, value)` points, log-spaced in `N`.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Curve {
    pub points: Vec<(f64, f64)>,
}

/// Shi's conversion at the right edge of the sweep (MODEL.md §1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShiConversion {
    pub processors: f64,
    /// `f` read as Gustafson's (serial share of the `N`-processor run)…
    pub gustafson_fraction: f64,
    /// …is this Amdahl `f` for the same program…
    pub amdahl_fraction: f64,
    /// …and both laws then give this speedup.
    pub speedup: f64,
}

/// Everything the Laws panel shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LawsSweep {
    pub serial_fraction: f64,
    pub compare_fractions: Vec<f64>,
    pub max_processors: f64,
    pub growth_exponent: f64,
    /// `1/f`; `None` for `f = 0`.
    pub amdahl_ceiling: Option<f64>,
    /// `N = (1+f)/f`; `None` for `f = 0`.
    pub half_efficiency_processors: Option<f64>,
    pub shi: ShiConversion,
    pub rows: Vec<LawsRow>,
    pub curves: LawsCurves,
    pub measured: Option<MeasuredAnalysis>,
}

/// Dense curves for the charts (not part of the JSON rows).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LawsCurves {
    pub amdahl: Curve,
    pub gustafson: Curve,
    pub sun_ni: Curve,
    pub compare: Vec<Curve>,
    pub amdahl_efficiency: Curve,
    pub gustafson_efficiency: Curve,
    pub sun_ni_efficiency: Curve,
    pub compare_efficiency: Vec<Curve>,
}

/// Table rows at `1, 2, 4, …` up to `N_max`, plus `N_max` itself when it is not a power of two.
pub fn table_processors(max_processors: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut n = 1.0;
    while n <= max_processors {
        out.push(n);
        n *= 2.0;
    }
    if out.last().is_some_and(|&last| last < max_processors) {
        out.push(max_processors);
    }
    out
}

/// `samples` values log-spaced from 1 to `max` inclusive.
fn log_space(max: f64, samples: usize) -> impl Iterator<Item = f64> {
    let ln_max = max.ln();
    (0..samples).map(move |i| {
        if i + 1 == samples {
            max
        } else {
            (ln_max * i as f64 / (samples - 1) as f64).exp()
        }
    })
}

fn curve(max: f64, value_at: impl Fn(f64) -> f64) -> Curve {
    Curve {
        points: log_space(max, CURVE_SAMPLES)
            .map(|n| (n, value_at(n)))
            .collect(),
    }
}

impl LawsSweep {
    /// Evaluates every law of MODEL.md §1 for the inputs.
    pub fn compute(inputs: &LawsInputs) -> LawsSweep {
        let f = inputs.serial_fraction;
        let g = inputs.growth_exponent;
        // A comparison equal to the highlighted f would draw the same curve twice.
        let compare_fractions: Vec<f64> = inputs
            .compare_fractions
            .iter()
            .copied()
            .filter(|&fc| fc != f)
            .collect();
        let n_max = inputs.max_processors;
        let rows = table_processors(n_max)
            .into_iter()
            .map(|n| {
                let amdahl = amdahl_speedup(f, n);
                let gustafson = gustafson_speedup(f, n);
                let sun_ni = sun_ni_speedup(f, n, g);
                LawsRow {
                    processors: n,
                    amdahl_speedup: amdahl,
                    amdahl_efficiency: efficiency(amdahl, n),
                    gustafson_speedup: gustafson,
                    gustafson_efficiency: efficiency(gustafson, n),
                    sun_ni_speedup: sun_ni,
                    sun_ni_efficiency: efficiency(sun_ni, n),
                    compare_speedups: compare_fractions
                        .iter()
                        .map(|&fc| amdahl_speedup(fc, n))
                        .collect(),
                }
            })
            .collect();
        let curves = LawsCurves {
            amdahl: curve(n_max, |n| amdahl_speedup(f, n)),
            gustafson: curve(n_max, |n| gustafson_speedup(f, n)),
            sun_ni: curve(n_max, |n| sun_ni_speedup(f, n, g)),
            compare: compare_fractions
                .iter()
                .map(|&fc| curve(n_max, |n| amdahl_speedup(fc, n)))
                .collect(),
            amdahl_efficiency: curve(n_max, |n| efficiency(amdahl_speedup(f, n), n)),
            gustafson_efficiency: curve(n_max, |n| efficiency(gustafson_speedup(f, n), n)),
            sun_ni_efficiency: curve(n_max, |n| efficiency(sun_ni_speedup(f, n, g), n)),
            compare_efficiency: compare_fractions
                .iter()
                .map(|&fc| curve(n_max, |n| efficiency(amdahl_speedup(fc, n), n)))
                .collect(),
        };
        let shi_fraction = shi_amdahl_from_gustafson(f, n_max);
        LawsSweep {
            serial_fraction: f,
            compare_fractions,
            max_processors: n_max,
            growth_exponent: g,
            amdahl_ceiling: amdahl_ceiling(f),
            half_efficiency_processors: amdahl_half_efficiency_processors(f),
            shi: ShiConversion {
                processors: n_max,
                gustafson_fraction: f,
                amdahl_fraction: shi_fraction,
                speedup: gustafson_speedup(f, n_max),
            },
            rows,
            curves,
            measured: (!inputs.measured.is_empty())
                .then(|| analyse(&inputs.measured, inputs.measured_kind)),
        }
    }

    /// The table row nearest to `processors` on a log scale (for the hover readout).
    pub fn nearest_row(&self, processors: f64) -> Option<&LawsRow> {
        let target = processors.max(1.0).ln();
        self.rows.iter().min_by(|a, b| {
            let da = (a.processors.ln() - target).abs();
            let db = (b.processors.ln() - target).abs();
            da.total_cmp(&db)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_powers_of_two_then_the_maximum() {
        assert_eq!(table_processors(8.0), vec![1.0, 2.0, 4.0, 8.0]);
        assert_eq!(table_processors(10.0), vec![1.0, 2.0, 4.0, 8.0, 10.0]);
    }

    #[test]
    fn curves_end_exactly_at_the_maximum() {
        let s = LawsSweep::compute(&LawsInputs {
            serial_fraction: 0.05,
            compare_fractions: vec![0.1],
            max_processors: 4096.0,
            growth_exponent: 0.5,
            measured: vec![],
            measured_kind: MeasuredKind::Speedup,
        });
        assert_eq!(s.curves.amdahl.points.last().unwrap().0, 4096.0);
        assert_eq!(s.curves.amdahl.points.first().unwrap().0, 1.0);
        assert_eq!(s.rows.len(), 13);
        assert_eq!(s.nearest_row(1000.0).unwrap().processors, 1024.0);
    }
}
