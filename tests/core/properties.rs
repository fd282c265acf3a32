//! Properties every input must keep (ENGINEERING.md's testing pyramid, level 2).
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use crate::common::tol;
use proptest::prelude::*;
use scaling_core::panel::laws;
use scaling_core::scenario::{decode, Key, Scenario};
use scaling_model::laws::*;
use scaling_model::sweep::LawsSweep;

proptest! {
    #[test]
    fn amdahl_is_bounded_and_monotone(f in 0.0f64..=1.0, n in 1.0f64..1e9) {
        let s = amdahl_speedup(f, n);
        prop_assert!(s.is_finite());
        prop_assert!(s >= 1.0 - tol::EXACT);
        let bound = if f > 0.0 { n.min(1.0 / f) } else { n };
        prop_assert!(s <= bound * (1.0 + tol::EXACT));
        prop_assert!(amdahl_speedup(f, n * 2.0) >= s * (1.0 - tol::EXACT));
    }

    #[test]
    fn laws_are_finite_on_the_whole_domain(f in 0.0f64..=1.0, n in 1.0f64..=1_073_741_824.0, g in 0.0f64..=2.0) {
        for v in [gustafson_speedup(f, n), sun_ni_speedup(f, n, g), shi_amdahl_from_gustafson(f, n)] {
            prop_assert!(v.is_finite());
        }
    }

    #[test]
    fn any_string_decodes_to_a_usable_scenario(s in ".{0,200}") {
        let d = decode(&s);
        let sweep = LawsSweep::compute(&d.scenario.laws_inputs());
        for row in &sweep.rows {
            prop_assert!(row.amdahl_speedup.is_finite() && row.gustafson_speedup.is_finite());
            prop_assert!(row.sun_ni_speedup.is_finite());
        }
        for e in &d.errors {
            prop_assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn query_like_garbage_never_panics(
        key in prop::sample::select(vec!["f", "fs", "n", "g", "m", "mk", "v", "preset", "zz"]),
        value in "[-+0-9.eE%kMGTi,:;a-z ]{0,40}",
    ) {
        let d = decode(&format!("v=1&{key}={value}"));
        let sweep = LawsSweep::compute(&d.scenario.laws_inputs());
        // Every cell a reader would see is a real number, never NaN or inf.
        for table in [laws::speedup_table(&sweep), laws::efficiency_table(&sweep)] {
            for row in &table.rows {
                for cell in row {
                    prop_assert!(!cell.contains("NaN") && !cell.contains("inf") && cell != "–", "{cell}");
                }
            }
        }
        for (_, v) in laws::key_figures(&sweep, d.scenario.laws.measured_kind) {
            prop_assert!(!v.contains("NaN") && !v.contains("inf"));
        }
    }

    #[test]
    fn valid_scenarios_round_trip_through_the_url(
        f in 0.0f64..=1.0,
        fs in prop::collection::vec(0.0f64..=1.0, 0..8),
        n in 2u64..=1_073_741_824,
        g in 0.0f64..=2.0,
        points in prop::collection::vec((1.0f64..1000.0, 0.001f64..1e6), 0..10),
        time in any::<bool>(),
    ) {
        let mut s = Scenario::default();
        s.set(Key::SerialFraction, &f.to_string()).unwrap();
        let fs_text: Vec<String> = fs.iter().map(|x| x.to_string()).collect();
        s.set(Key::CompareFractions, &fs_text.join(",")).unwrap();
        s.set(Key::MaxProcessors, &n.to_string()).unwrap();
        s.set(Key::GrowthExponent, &g.to_string()).unwrap();
        s.set(Key::MeasuredKind, if time { "time" } else { "speedup" }).unwrap();
        let mut processors = 0.0;
        let pts: Vec<String> = points.iter().map(|(dn, v)| { processors += dn.ceil(); format!("{processors}:{v}") }).collect();
        s.set(Key::Measured, &pts.join(",")).unwrap();
        let d = decode(&s.to_query());
        prop_assert!(d.errors.is_empty(), "{:?}", d.errors);
        prop_assert_eq!(d.scenario, s);
    }
}
