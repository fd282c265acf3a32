//! Every input from a source (`scenario::marks`): each key a measured preset, a published run
//! or a machine run sets has a mark — `source: …` or `fitted on …` — and the hardware keys of a
//! preset with a shape too. `assumed: …` is a teaching preset's own choice: none may feed the
//! published tables but the ones listed here, which no source gives.

use scaling_core::panel::machine_runs::MACHINE_RUNS;
use scaling_core::panel::published::PUBLISHED_RUNS;
use scaling_core::scenario::marks::{
    mark, preset_mark, Marks, MACHINE_RUN_MARKS, PUBLISHED_MARKS, RECOMPUTE_RUN_MARKS,
};
use scaling_core::scenario::{decode, Key, Preset, Scenario};

/// What a preset's shape puts in force even where it equals the default: the hardware.
const HARDWARE: [&str; 9] = [
    "peak", "beff", "bnv", "hbm", "hres", "nvd", "tpo", "gw", "sw",
];

/// Inputs that feed the published tables with no source to give: Llama 3's paper names no TP
/// communication overlap.
const KNOWN_ASSUMED: [(&str, &str); 1] = [("llama31-405b-h100", "tpo")];

fn kind_ok(m: &str) -> bool {
    (m.starts_with("source: ") || m.starts_with("fitted on ") || m.starts_with("assumed: "))
        && m.len() > 20
}

/// The keys `s` sets that the default does not, and the hardware when it has a shape.
fn keys_in_force(s: &Scenario) -> Vec<&'static str> {
    let d = Scenario::default();
    Key::ALL
        .iter()
        .filter(|&&k| !k.is_display())
        .filter(|&&k| {
            s.get_text(k) != d.get_text(k)
                || (s.llm.walls.layers > 0.0 && HARDWARE.contains(&k.name()))
        })
        .map(|k| k.name())
        .collect()
}

fn marks_of(table: &[(&str, Marks)], name: &str) -> Marks {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[], |&(_, m)| m)
}

#[test]
fn every_input_of_a_measured_preset_names_its_source() {
    let mut missing = Vec::new();
    for p in Preset::ALL.iter().filter(|p| p.source().is_some()) {
        for key in keys_in_force(&p.scenario()) {
            match preset_mark(p.name(), key) {
                Some(m) => assert!(kind_ok(m), "{}: {key}: “{m}”", p.name()),
                None => missing.push(format!("{}: {key}", p.name())),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "inputs without a mark:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_input_of_a_published_run_names_its_source() {
    let mut missing = Vec::new();
    let mut assumed = Vec::new();
    for run in PUBLISHED_RUNS {
        let s = decode(run.query).scenario;
        let preset = s.preset.map(|p| p.name());
        let own = marks_of(PUBLISHED_MARKS, run.label);
        let base = s.base();
        for key in keys_in_force(&s) {
            let set_by_run = s.get_text(Key::from_name(key).unwrap())
                != base.get_text(Key::from_name(key).unwrap());
            let m = if set_by_run {
                mark(own, key)
            } else {
                preset
                    .and_then(|name| preset_mark(name, key))
                    .or(mark(own, key))
            };
            match m {
                Some(m) if m.starts_with("assumed: ") => {
                    assumed.push((preset.unwrap_or(run.label), key))
                }
                Some(m) => assert!(kind_ok(m), "{}: {key}: “{m}”", run.label),
                None => missing.push(format!("{} ({}): {key}", run.label, run.gpus)),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "inputs without a mark:\n{}",
        missing.join("\n")
    );
    assumed.sort_unstable();
    assumed.dedup();
    assert_eq!(
        assumed,
        KNOWN_ASSUMED.to_vec(),
        "assumed inputs feeding the published table"
    );
}

#[test]
fn every_input_of_a_machine_run_names_its_source() {
    for run in MACHINE_RUNS.iter() {
        let query = run.query(0.5).unwrap();
        for pair in query.split('&').skip(1) {
            let key = pair.split('=').next().unwrap();
            let m = mark(MACHINE_RUN_MARKS, key)
                .unwrap_or_else(|| panic!("{} {}: {key} has no mark", run.release, run.model));
            assert!(kind_ok(m) && !m.starts_with("assumed: "), "{key}: “{m}”");
        }
    }
}

#[test]
fn every_input_of_korthikantis_table_names_its_source() {
    use scaling_core::panel::recompute_runs::TABLE5;
    for run in TABLE5.iter() {
        for pair in run.query(0.5).split('&').skip(1) {
            let key = pair.split('=').next().unwrap();
            let m = mark(RECOMPUTE_RUN_MARKS, key)
                .unwrap_or_else(|| panic!("{} {:?}: {key} has no mark", run.model, run.mode));
            assert!(kind_ok(m) && !m.starts_with("assumed: "), "{key}: “{m}”");
        }
    }
}
