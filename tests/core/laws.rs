//! Golden values of MODEL.md §1 and the seed's "HPC 的原始定义", as a reader would check them.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use crate::common::tol;
use scaling_core::panel::laws;
use scaling_model::laws::*;
use scaling_model::measured::MeasuredKind;
use scaling_model::sweep::{LawsInputs, LawsSweep};

/// Closed-form results are exact up to a few ulps.
const EXACT: f64 = 1e-12;

fn sweep(f: f64, n: f64) -> LawsSweep {
    LawsSweep::compute(&LawsInputs {
        serial_fraction: f,
        compare_fractions: vec![],
        max_processors: n,
        growth_exponent: 0.5,
        measured: vec![],
        measured_kind: MeasuredKind::Time,
    })
}

#[test]
fn five_percent_serial_caps_speedup_at_twenty() {
    // Seed: 串行部分只占 5%，加速比上限就是 20 倍，跟买多少卡无关。
    assert_eq!(amdahl_ceiling(0.05), Some(20.0));
    for n in [1e3, 1e6, 1e9] {
        assert!(amdahl_speedup(0.05, n) < 20.0);
    }
    assert!((amdahl_speedup(0.05, 1e9) - 20.0).abs() < tol::PRINTED);
}

#[test]
fn textbook_table_values() {
    // S(N) = 1/(f + (1-f)/N)
    assert!((amdahl_speedup(0.05, 16.0) - 1.0 / (0.05 + 0.95 / 16.0)).abs() < EXACT);
    assert!((amdahl_speedup(0.05, 16.0) - 9.142857142857142).abs() < EXACT);
    assert!((gustafson_speedup(0.05, 16.0) - 15.25).abs() < EXACT);
    assert!((efficiency(gustafson_speedup(0.05, 16.0), 16.0) - 0.953125).abs() < EXACT);
    assert_eq!(amdahl_half_efficiency_processors(0.05), Some(21.0));
    assert_eq!(
        amdahl_half_efficiency_processors(0.1).map(|n| (n * 1e9).round() / 1e9),
        Some(11.0)
    );
    assert_eq!(amdahl_ceiling(0.0), None);
    assert_eq!(amdahl_speedup(0.0, 64.0), 64.0);
    assert_eq!(amdahl_speedup(1.0, 64.0), 1.0);
}

#[test]
fn the_page_shows_ten_x_for_f_ten_percent() {
    let figures = laws::key_figures(&sweep(0.1, 4096.0), MeasuredKind::Time);
    assert_eq!(figures[0].1, "10x");
    assert!(figures[0].0.contains("1/f"));
    let table = laws::speedup_table(&sweep(0.05, 1024.0));
    assert_eq!(table.rows[0][0], "1");
    assert_eq!(table.rows.last().unwrap()[0], "1,024");
    // Amdahl at N = 1024, f = 5%: 1/(0.05 + 0.95/1024) = 19.635…
    assert_eq!(table.rows.last().unwrap()[1], "19.6x");
    // Gustafson: 0.05 + 0.95·1024 = 972.85
    assert_eq!(table.rows.last().unwrap()[2], "973x");
}

#[test]
fn shi_makes_both_laws_agree_on_one_run() {
    for (f_g, n) in [(0.05, 1024.0), (0.5, 2.0), (0.01, 65536.0)] {
        let f_a = shi_amdahl_from_gustafson(f_g, n);
        let a = amdahl_speedup(f_a, n);
        let g = gustafson_speedup(f_g, n);
        assert!((a - g).abs() / g < EXACT, "{f_g} {n}: {a} vs {g}");
    }
}

#[test]
fn sun_ni_between_amdahl_and_gustafson() {
    for n in [2.0, 64.0, 4096.0] {
        let a = amdahl_speedup(0.05, n);
        let g = gustafson_speedup(0.05, n);
        let s = sun_ni_speedup(0.05, n, 0.5);
        assert!(a < s && s < g, "{a} < {s} < {g}");
    }
}

#[test]
fn karp_flatt_of_amdahl_data_is_f() {
    let points: Vec<(f64, f64)> = [2.0, 4.0, 8.0, 64.0]
        .iter()
        .map(|&n| (n, amdahl_speedup(0.04, n)))
        .collect();
    for &(n, s) in &points {
        assert!((karp_flatt(s, n).unwrap() - 0.04).abs() < EXACT);
    }
    assert!((fit_serial_fraction(&points).unwrap() - 0.04).abs() < EXACT);
}
