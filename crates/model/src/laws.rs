//! The HPC speedup laws (MODEL.md §1; the seed's "HPC 的原始定义").
//!
//! `f` is the serial fraction, `N` the number of processors. All functions expect
//! `0 ≤ f ≤ 1` and `N ≥ 1` (the scenario layer, `scaling_core::scenario`, validates user input) and return
//! finite values on that domain.

/// Amdahl's law, strong scaling with fixed work (Amdahl 1967):
///
/// `S(N) = 1 / (f + (1 − f)/N)`
///
/// Bounded by the ceiling `1/f` whatever `N` is: `f = 5%` gives at most 20x.
pub fn amdahl_speedup(serial_fraction: f64, processors: f64) -> f64 {
    1.0 / (serial_fraction + (1.0 - serial_fraction) / processors)
}

/// Gustafson's law, weak scaling with work growing in proportion to `N` (Gustafson 1988):
///
/// `S(N) = f + (1 − f)·N`
///
/// Linear in `N`: it answers "how big a problem in the same time", not "how fast this problem".
pub fn gustafson_speedup(serial_fraction: f64, processors: f64) -> f64 {
    serial_fraction + (1.0 - serial_fraction) * processors
}

/// Sun–Ni memory-bounded speedup (Sun & Ni 1993) with the work growth `G(N) = N^g`:
///
/// `S(N) = (f + (1 − f)·G(N)) / (f + (1 − f)·G(N)/N)`
///
/// `g = 0` is Amdahl (fixed work), `g = 1` is Gustafson (work ∝ N); `g > 1` means the
/// problem grows faster than the machine, as when memory per node is the binding limit.
pub fn sun_ni_speedup(serial_fraction: f64, processors: f64, growth_exponent: f64) -> f64 {
    let growth = processors.powf(growth_exponent);
    let parallel = 1.0 - serial_fraction;
    (serial_fraction + parallel * growth) / (serial_fraction + parallel * growth / processors)
}

/// Parallel efficiency `E(N) = S(N)/N`.
pub fn efficiency(speedup: f64, processors: f64) -> f64 {
    speedup / processors
}

/// Amdahl's ceiling `lim N→∞ S(N) = 1/f`; `None` when `f = 0` (no ceiling: `S = N`).
pub fn amdahl_ceiling(serial_fraction: f64) -> Option<f64> {
    (serial_fraction > 0.0).then(|| 1.0 / serial_fraction)
}

/// The processor count at which Amdahl efficiency falls to 50%:
///
/// `E(N) = 1/2  ⇔  N·f + 1 − f = 2  ⇔  N = (1 + f)/f`
///
/// `None` when `f = 0` (efficiency stays 100%). `f = 1` gives `N = 2`.
pub fn amdahl_half_efficiency_processors(serial_fraction: f64) -> Option<f64> {
    (serial_fraction > 0.0).then(|| (1.0 + serial_fraction) / serial_fraction)
}

/// Shi's reconciliation (Shi 1996, "Reevaluating Amdahl's law and Gustafson's law"):
/// Gustafson's `f_G` is the serial share of the time of the `N`-processor run; Amdahl's `f_A` is
/// the serial share of the one-processor run of the same work. They are the same program when
///
/// `f_A = f_G / (f_G + (1 − f_G)·N)`
///
/// and then `amdahl_speedup(f_A, N) == gustafson_speedup(f_G, N)`.
pub fn shi_amdahl_from_gustafson(gustafson_fraction: f64, processors: f64) -> f64 {
    let denominator = gustafson_fraction + (1.0 - gustafson_fraction) * processors;
    gustafson_fraction / denominator
}

/// The inverse of [`shi_amdahl_from_gustafson`]:
///
/// `f_G = f_A·N / (1 + f_A·(N − 1))`
pub fn shi_gustafson_from_amdahl(amdahl_fraction: f64, processors: f64) -> f64 {
    amdahl_fraction * processors / (1.0 + amdahl_fraction * (processors - 1.0))
}

/// The work that holds efficiency `E` on `N` processors under Amdahl-type overhead
/// (Grama, Gupta & Kumar 1993, "Isoefficiency: measuring the scalability of parallel
/// algorithms and architectures"): with a fixed serial part `W_s` and the rest dividing
/// perfectly, the total overhead is `T_o = (N − 1)·W_s`, and `E = W/(W + T_o)` gives
///
/// `W = K·T_o = E/(1 − E)·(N − 1)·W_s`
///
/// — linear in `N`. `None` for `E` outside `(0, 1)`.
pub fn isoefficiency_work(efficiency: f64, processors: f64, serial_work: f64) -> Option<f64> {
    (efficiency > 0.0 && efficiency < 1.0)
        .then(|| efficiency / (1.0 - efficiency) * (processors - 1.0) * serial_work)
}

/// Karp–Flatt experimentally determined serial fraction (Karp & Flatt 1990):
///
/// `e(N) = (1/S − 1/N) / (1 − 1/N)` for a measured speedup `S` at `N > 1`.
///
/// For a program that follows Amdahl exactly, `e(N) = f` at every `N`; a rising `e` means
/// overhead that grows with `N` (communication, load imbalance). `None` at `N ≤ 1`, where the
/// formula is 0/0.
pub fn karp_flatt(speedup: f64, processors: f64) -> Option<f64> {
    let e = (1.0 / speedup - 1.0 / processors) / (1.0 - 1.0 / processors);
    (processors > 1.0 && speedup > 0.0 && e.is_finite()).then_some(e)
}

/// Least-squares serial fraction for measured `(N, S)` points.
///
/// Amdahl rearranged is linear in `f`: `1/S − 1/N = f·(1 − 1/N)`. With `x = 1 − 1/N` and
/// `y = 1/S − 1/N`, the fit through the origin is `f = Σxy / Σx²` (it weights large `N`
/// more, where `f` matters most). Points at `N ≤ 1` carry no information (`x = 0`).
/// `None` if no point has `N > 1`. The result may be negative for super-linear speedups; it is
/// reported as measured, not clamped.
pub fn fit_serial_fraction(points: &[(f64, f64)]) -> Option<f64> {
    let (sum_xy, sum_xx) = points.iter().filter(|(n, s)| *n > 1.0 && *s > 0.0).fold(
        (0.0, 0.0),
        |(sxy, sxx), (n, s)| {
            let x = 1.0 - 1.0 / n;
            let y = 1.0 / s - 1.0 / n;
            (sxy + x * y, sxx + x * x)
        },
    );
    let f = sum_xy / sum_xx;
    (sum_xx > 0.0 && f.is_finite()).then_some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The least-squares serial fraction reads only points with `N > 1` and a positive speedup:
    /// one point (2, 1.6) gives x = 1/2, y = 0.625 − 0.5 = 0.125, f = 0.125·0.5/0.25 = 0.25,
    /// and points it cannot read leave that unchanged.
    #[test]
    fn the_fitted_serial_fraction_skips_unreadable_points() {
        assert_eq!(fit_serial_fraction(&[(2.0, 1.6)]), Some(0.25));
        assert_eq!(fit_serial_fraction(&[(2.0, 1.6), (4.0, -1.0)]), Some(0.25));
        assert_eq!(fit_serial_fraction(&[(2.0, 1.6), (4.0, 0.0)]), Some(0.25));
        assert_eq!(fit_serial_fraction(&[(0.5, 1.0), (2.0, 1.6)]), Some(0.25));
        assert_eq!(fit_serial_fraction(&[(1.0, 1.0)]), None);
    }

    /// Karp–Flatt is defined only for `N > 1` and a positive speedup: below one processor or
    /// for a negative speedup the formula gives a finite number that means nothing.
    #[test]
    fn karp_flatt_refuses_what_it_cannot_read() {
        // N = 0.5, S = 1: (1 − 2)/(1 − 2) = 1, finite, but N < 1.
        assert_eq!(karp_flatt(1.0, 0.5), None);
        // S = −1 at N = 2: (−1 − 0.5)/0.5 = −3, finite, but no speedup is negative.
        assert_eq!(karp_flatt(-1.0, 2.0), None);
        // N = 1: 0/0.
        assert_eq!(karp_flatt(1.0, 1.0), None);
        // S = 1.6 at N = 2: (0.625 − 0.5)/0.5 = 0.25.
        assert_eq!(karp_flatt(1.6, 2.0), Some(0.25));
    }

    const TOL: f64 = 1e-12;

    #[test]
    fn textbook_values() {
        assert!((amdahl_speedup(0.05, 1e12) - 20.0).abs() < 1e-9);
        assert_eq!(amdahl_ceiling(0.05), Some(20.0));
        assert!((amdahl_speedup(0.1, 10.0) - 1.0 / 0.19).abs() < TOL);
        assert!((gustafson_speedup(0.05, 1024.0) - 972.85).abs() < 1e-9);
        assert!((amdahl_half_efficiency_processors(0.05).unwrap() - 21.0).abs() < TOL);
        let n = amdahl_half_efficiency_processors(0.05).unwrap();
        assert!((efficiency(amdahl_speedup(0.05, n), n) - 0.5).abs() < TOL);
    }

    #[test]
    fn sun_ni_spans_amdahl_and_gustafson() {
        for n in [1.0, 2.0, 64.0, 4096.0] {
            assert!((sun_ni_speedup(0.05, n, 0.0) - amdahl_speedup(0.05, n)).abs() < 1e-9);
            assert!((sun_ni_speedup(0.05, n, 1.0) - gustafson_speedup(0.05, n)).abs() < 1e-9);
        }
    }

    #[test]
    fn isoefficiency_grows_the_work_linearly() {
        // E = 1/2 (K = 1) on 21 processors, W_s = 1: W = 1·20·1 = 20, and then
        // E = W/(W + T_o) = 20/(20 + 20) = 1/2.
        assert_eq!(isoefficiency_work(0.5, 21.0, 1.0), Some(20.0));
        // E = 80% (K = 4) on 64 processors, W_s = 2: 4·63·2 = 504.
        assert!((isoefficiency_work(0.8, 64.0, 2.0).unwrap() - 504.0).abs() < 1e-9);
        assert_eq!(isoefficiency_work(1.0, 64.0, 2.0), None);
        assert_eq!(isoefficiency_work(0.0, 64.0, 2.0), None);
    }

    #[test]
    fn shi_reconciles_the_two_laws() {
        let (f_g, n) = (0.05, 1024.0);
        let f_a = shi_amdahl_from_gustafson(f_g, n);
        assert!((amdahl_speedup(f_a, n) - gustafson_speedup(f_g, n)).abs() < 1e-9);
        assert!((shi_gustafson_from_amdahl(f_a, n) - f_g).abs() < TOL);
    }

    #[test]
    fn karp_flatt_recovers_amdahls_f() {
        for n in [2.0, 8.0, 1000.0] {
            let e = karp_flatt(amdahl_speedup(0.07, n), n).unwrap();
            assert!((e - 0.07).abs() < 1e-12);
        }
        assert_eq!(karp_flatt(1.0, 1.0), None);
        let pts: Vec<(f64, f64)> = [2.0, 4.0, 16.0]
            .iter()
            .map(|&n| (n, amdahl_speedup(0.03, n)))
            .collect();
        assert!((fit_serial_fraction(&pts).unwrap() - 0.03).abs() < 1e-12);
        assert_eq!(fit_serial_fraction(&[(1.0, 1.0)]), None);
    }
}
