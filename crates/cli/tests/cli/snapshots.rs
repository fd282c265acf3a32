//! Every output of the `scaling` command, byte for byte: each preset (and the default scenario)
//! on each panel command in each format and both languages, every chart as SVG, the preset
//! list and the usage text, and a few compared scenarios. The files under
//! `crates/cli/tests/snapshots/cli/` were written by the code before charts, presets and table
//! columns were declared once, so a change in what a reader sees fails here.
//!
//! A deliberate change of output (a new chart or preset, a changed text): run `make snapshots`,
//! then read the diff (`git diff crates/cli/tests/snapshots`) before committing it.
#![cfg(not(target_arch = "wasm32"))]

use scaling_cli::{parse_args, run};
use scaling_core::panel::ChartId;
use scaling_core::scenario::Preset;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const COMMANDS: [&str; 5] = ["laws", "strong", "weak", "plan", "report"];
const FORMATS: [(&str, &str); 4] = [
    ("text", "txt"),
    ("csv", "csv"),
    ("md", "md"),
    ("json", "json"),
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/cli")
}

fn cli(args: &[String]) -> String {
    let command = parse_args(args.iter().cloned()).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    run(&command).unwrap_or_else(|e| format!("error: {e}\n"))
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Compares `actual` with the snapshot `name` (or writes it); returns a line per difference.
fn check(name: &str, actual: &str, failures: &mut String) {
    let path = dir().join(name);
    if std::env::var("SNAPSHOTS").as_deref() == Ok("write") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    match std::fs::read_to_string(&path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
            let _ = writeln!(
                failures,
                "{name}: differs from line {} — expected {:?}, got {:?}",
                line + 1,
                expected.lines().nth(line).unwrap_or("<end>"),
                actual.lines().nth(line).unwrap_or("<end>"),
            );
        }
        Err(e) => {
            let _ = writeln!(failures, "{name}: no snapshot ({e})");
        }
    }
}

/// `(file stem, CLI arguments selecting the scenario)`: the default scenario and every preset.
fn scenarios() -> Vec<(String, Vec<String>)> {
    let mut out = vec![("default".to_string(), vec![])];
    for p in Preset::ALL {
        out.push((p.name().to_string(), args(&["--preset", p.name()])));
    }
    out
}

#[test]
fn every_panel_of_every_preset_prints_as_before() {
    let mut failures = String::new();
    for (stem, scenario) in scenarios() {
        for command in COMMANDS {
            for (format, ext) in FORMATS {
                if command == "report" && matches!(format, "csv" | "md") {
                    continue;
                }
                for lang in ["en", "zh"] {
                    let mut a = args(&[command, "--format", format, "--lang", lang]);
                    a.extend(scenario.iter().cloned());
                    check(
                        &format!("{stem}/{command}.{lang}.{ext}"),
                        &cli(&a),
                        &mut failures,
                    );
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures}");
}

#[test]
fn every_chart_of_every_preset_draws_as_before() {
    let mut failures = String::new();
    let tmp = std::env::temp_dir().join(format!("cli-snapshots-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for (stem, scenario) in scenarios() {
        for chart in ChartId::ALL {
            let command = chart.view().key();
            let svg = tmp.join(format!("{stem}-{}.svg", chart.id()));
            let svg_path = svg.to_str().unwrap().to_string();
            let mut a = args(&[command, "--chart", chart.id(), "--svg", &svg_path]);
            a.extend(scenario.iter().cloned());
            let out = cli(&a);
            let doc = std::fs::read_to_string(&svg).unwrap_or(out);
            check(&format!("{stem}/{}.svg", chart.id()), &doc, &mut failures);
        }
    }
    std::fs::remove_dir_all(&tmp).ok();
    assert!(failures.is_empty(), "{failures}");
}

#[test]
fn presets_usage_and_comparisons_print_as_before() {
    let mut failures = String::new();
    for lang in ["en", "zh"] {
        check(
            &format!("presets.{lang}.txt"),
            &cli(&args(&["presets", "--lang", lang])),
            &mut failures,
        );
    }
    check("usage.txt", &cli(&args(&["--help"])), &mut failures);
    for (format, ext) in [("text", "txt"), ("json", "json")] {
        check(
            &format!("machines.{ext}"),
            &cli(&args(&["machines", "--format", format])),
            &mut failures,
        );
    }
    let compared = [
        (
            "seed-strong-fp8",
            "strong",
            "seed-strong",
            "v=1&preset=seed-strong&lv=fp8",
        ),
        (
            "seed-weak-plan",
            "plan",
            "seed-weak",
            "v=1&preset=seed-weak&lv=fp8,nvlink",
        ),
        (
            "classroom-f10",
            "laws",
            "classroom",
            "v=1&f=0.1&mt=time&mp=1:100,8:20",
        ),
        (
            "megatron-b2",
            "strong",
            "megatron-177b-h100",
            "v=1&preset=megatron-177b-h100&b=9.4M",
        ),
    ];
    for (stem, command, preset, b) in compared {
        for (format, ext) in FORMATS {
            let a = args(&[
                command,
                "--preset",
                preset,
                "--compare",
                b,
                "--format",
                format,
            ]);
            check(&format!("compare/{stem}.{ext}"), &cli(&a), &mut failures);
        }
    }
    assert!(failures.is_empty(), "{failures}");
}
