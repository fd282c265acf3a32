//! The `scaling` command as a script or docs build would run it.
#![cfg(not(target_arch = "wasm32"))] // native only; tests/web.rs runs in the browser

/// A chain of tens of operations compared with a literal written to full precision (the
/// root crate's `tests/common` tolerance of the same name).
const CHAIN: f64 = 1e-9;
/// A closed formula of a few operations: only the last bits of rounding differ.
const EXACT: f64 = 1e-12;
use std::process::Command;

fn scaling(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scaling"))
        .args(args)
        .output()
        .expect("run scaling");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn json_carries_the_rows_and_the_ceiling() {
    let (code, out, err) = scaling(&["laws", "--query", "v=1&f=0.05", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["summary"]["amdahl_ceiling"], 20.0);
    assert_eq!(v["summary"]["half_efficiency_processors"], 21.0);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 13);
    assert_eq!(rows[0]["processors"], 1.0);
    let last = &rows[12];
    assert_eq!(last["processors"], 4096.0);
    let s = last["amdahl_speedup"].as_f64().unwrap();
    assert!((s - 1.0 / (0.05 + 0.95 / 4096.0)).abs() < CHAIN);
    assert_eq!(v["tables"][0]["rows"][12][1], "19.9x");
}

#[test]
fn text_csv_and_markdown_show_the_same_cells() {
    let (_, text, _) = scaling(&["laws", "--query", "v=1&f=0.1"]);
    assert!(text.contains("Amdahl ceiling 1/f (f = 10%): 10x"));
    let (_, csv, _) = scaling(&["laws", "--query", "v=1&f=0.1", "--format", "csv"]);
    assert!(
        csv.contains("\r\n4,096,") || csv.contains("\"4,096\""),
        "{csv}"
    );
    let (_, md, _) = scaling(&["laws", "--query", "v=1&f=0.1", "--format", "md"]);
    assert!(md.contains("| 4,096 | 9.98x |"), "{md}");
}

#[test]
fn svg_export_uses_the_chart_code() {
    let path = std::env::temp_dir().join(format!("scaling-cli-{}.svg", std::process::id()));
    let p = path.to_str().unwrap();
    let (code, _, err) = scaling(&["laws", "--preset", "classroom", "--svg", p]);
    assert_eq!(code, 0, "{err}");
    let doc = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(doc.starts_with("<svg"));
    assert!(doc.contains("ceiling 1/f = 20x"));
}

#[test]
fn bad_input_fails_with_the_key_named() {
    let (code, out, err) = scaling(&["laws", "--query", "v=1&f=2"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(
        err.contains("Serial fraction f (f)") && err.contains("outside 0"),
        "{err}"
    );
    let (code, _, err) = scaling(&["laws", "--format", "xml"]);
    assert_eq!(code, 2);
    assert!(err.contains("--format"));
    let (code, _, err) = scaling(&["laws", "--preset", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("nope"));
}

#[test]
fn presets_are_listed() {
    let (code, out, _) = scaling(&["presets"]);
    assert_eq!(code, 0);
    assert!(out.contains("classroom") && out.contains("karp-flatt"));
    // Every description starts in the same column, past the longest name and two spaces.
    let starts: Vec<usize> = out
        .lines()
        .map(|l| {
            let name = l.split(' ').next().unwrap();
            name.chars().count() + l[name.len()..].chars().take_while(|c| *c == ' ').count()
        })
        .collect();
    assert!(starts.windows(2).all(|w| w[0] == w[1]), "{out}");
    let longest = out
        .lines()
        .map(|l| l.split(' ').next().unwrap().len())
        .max()
        .unwrap();
    assert_eq!(starts[0], longest + 2);
}

/// The CLI's `--chart` names are the page's chart ids (`#<id>-canvas`), every one of them
/// draws, and a chart of another panel is refused with the panel's own ids listed.
#[test]
fn chart_names_are_the_pages_chart_ids() {
    use scaling_cli::{panel_svg, usage};
    use scaling_core::panel::{ChartId, Panel};
    use scaling_core::scenario::{decode, View};
    let index =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/index.html"))
            .unwrap();
    let scenario = decode("v=1&preset=seed-weak").scenario;
    for chart in ChartId::ALL {
        assert!(
            index.contains(&format!("id=\"{}-canvas\"", chart.id())),
            "the page has no canvas for {}",
            chart.id()
        );
        assert!(
            usage().contains(chart.id()),
            "--help does not list {}",
            chart.id()
        );
        let panel = Panel::compute(&scenario, chart.view());
        let svg = panel_svg(&panel, Some(chart.id())).unwrap();
        assert!(svg.starts_with("<svg") && svg.len() > 500, "{}", chart.id());
    }
    let laws = Panel::compute(&scenario, View::Laws);
    let err = panel_svg(&laws, Some("strong-step"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("laws-speedup, laws-efficiency, laws-karp-flatt"),
        "{err}"
    );
    // Every canvas of the page is a chart the panel layer knows.
    let canvases = index.matches("-canvas\"").count();
    assert_eq!(canvases, ChartId::ALL.len());
}

/// `lang=zh` in the link, or `--lang zh`, prints the tables, figures and messages in Chinese.
#[test]
fn the_cli_speaks_the_links_language() {
    let (code, out, err) = scaling(&["strong", "--query", "v=1&preset=seed-strong&lang=zh"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("GPU 数") && out.contains("强扩展"), "{out}");
    let (code, out, _) = scaling(&["plan", "--preset", "seed-weak", "--lang", "zh"]);
    assert_eq!(code, 0);
    assert!(out.contains("显存：") && !out.contains("Memory:"), "{out}");
    assert!(out.starts_with("场景：?v=1&preset=seed-weak"), "{out}");
    let (code, out, _) = scaling(&["plan", "--query", "v=1&lang=zh&preset=moe-47b-h200"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("场景：") && out.contains("\n显存：强扩展"),
        "{out}"
    );
    let (code, out, _) = scaling(&["presets", "--lang", "zh"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("classroom") && out.contains("原文的强扩展表格"),
        "{out}"
    );
    assert!(!out.contains("The article's"), "presets --lang zh: {out}");
    let (code, out, _) = scaling(&["laws", "--query", "v=1&lang=zh", "--lang", "en"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Speedup S(N)"),
        "--lang overrides the link: {out}"
    );
    let (code, _, err) = scaling(&["laws", "--query", "v=1&lang=zh&f=2"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("串行比例"),
        "the message about the link is Chinese: {err}"
    );
    let (code, _, err) = scaling(&["laws", "--lang", "fr"]);
    assert_eq!(code, 2);
    assert!(err.contains("--lang"), "{err}");
}

/// `--compare Q`: Q is scenario B, the main scenario (`--preset`/`--query`) is A; the same
/// as a `--query` whose `pin=` carries A.
#[test]
fn compare_prints_b_against_a_in_every_format() {
    let args = |format: &'static str| {
        [
            "strong",
            "--preset",
            "seed-strong",
            "--compare",
            "v=1&preset=seed-strong&lv=fp8",
            "--format",
            format,
        ]
    };
    let (code, text, err) = scaling(&args("text"));
    assert_eq!(code, 0, "{err}");
    assert!(
        text.starts_with(
            "scenario: ?v=1&preset=seed-strong&lv=fp8&pin=v%3D1%26preset%3Dseed-strong\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("2.47k tokens per replica (A: 3.7k tokens per replica)"),
        "{text}"
    );
    assert!(text.contains("\nscenario    GPUs"), "{text}");
    assert!(text.contains("\nΔ         16,384"), "{text}");
    let (_, md, _) = scaling(&args("md"));
    assert!(md.contains("| B | 16,384 |"), "{md}");
    assert!(md.contains("| A | 16,384 |"), "{md}");
    assert!(md.contains("| Δ | 16,384 |"), "{md}");
    let (_, csv, _) = scaling(&args("csv"));
    assert!(csv.contains("\r\nΔ,\"16,384\","), "{csv}");
    let (_, json, _) = scaling(&args("json"));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["compare"]["a"]["query"], "v=1&preset=seed-strong");
    assert_eq!(v["compare"]["a"]["summary"]["t_crit_tokens"], 3700.0);
    assert_eq!(v["tables"][0]["rows"][11][0], "Δ");
    // The same through a pinned link.
    let (_, pinned, _) = scaling(&[
        "strong",
        "--query",
        "v=1&preset=seed-strong&lv=fp8&pin=v%3D1%26preset%3Dseed-strong",
        "--format",
        "md",
    ]);
    assert_eq!(pinned, md);
    // A bad value inside --compare (or inside pin=) is named and fails like any other.
    let (code, _, err) = scaling(&["strong", "--compare", "v=1&f=abc&lv=nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("(lv)"), "{err}");
    let (code, _, err) = scaling(&["laws", "--query", "v=1&pin=v%3D1%26f%3Dabc"]);
    assert_eq!(code, 2);
    assert!(err.contains("(pin): Serial fraction f (f)"), "{err}");
}

// What the subcommands print: JSON rows and summaries, SVG charts, the plan, layouts, imports.

#[test]
fn cli_json_carries_rows_and_summary() {
    let out = Command::new(env!("CARGO_BIN_EXE_scaling"))
        .args(["strong", "--preset", "seed-strong", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &v["rows"][2];
    for field in [
        "gpus",
        "tokens_per_replica",
        "compute_ms",
        "exposed_ms",
        "step_ms",
        "ideal_ms",
        "efficiency",
        "throughput_tokens_per_s",
    ] {
        assert!(row[field].is_number(), "{field}");
    }
    assert_eq!(row["gpus"], 8192.0);
    assert_eq!(row["step_ms"], 332.5);
    assert_eq!(v["summary"]["t_crit_tokens"], 3700.0);
    assert_eq!(v["summary"]["peak_throughput_gpus"], 8192.0);
    assert_eq!(v["summary"]["n_max"].as_f64().unwrap().round(), 8649.0);
    let weak = Command::new(env!("CARGO_BIN_EXE_scaling"))
        .args(["weak", "--preset", "seed-weak", "--format", "json"])
        .output()
        .unwrap();
    let w: serde_json::Value = serde_json::from_slice(&weak.stdout).unwrap();
    assert_eq!(w["rows"][1]["optimizer_steps"], 7812.5);
    assert_eq!(w["rows"][1]["global_batch_tokens"], 128e6);
}

#[test]
fn strong_svg_marks_the_knee_and_the_peak() {
    let path = std::env::temp_dir().join(format!("scaling-strong-{}.svg", std::process::id()));
    let p = path.to_str().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_scaling"))
        .args([
            "strong",
            "--preset",
            "seed-strong",
            "--svg",
            p,
            "--chart",
            "strong-throughput",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(doc.contains("N_max ≈ 8.6k"));
    assert!(doc.contains("peak 96.2M tok/s at 8,192"));
    assert!(
        doc.contains("T &lt; T_crit = 3.7k tokens") || doc.contains("T < T_crit = 3.7k tokens")
    );
    let boxes = Command::new(env!("CARGO_BIN_EXE_scaling"))
        .args([
            "weak",
            "--preset",
            "seed-weak",
            "--svg",
            p,
            "--chart",
            "weak-boxes",
        ])
        .output()
        .unwrap();
    assert!(boxes.status.success());
    let doc = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert!(doc.contains("32M → 128M"));
    let lines: Vec<&str> = doc.lines().map(str::trim).collect();
    assert_eq!(
        lines.iter().filter(|l| **l == "8M").count(),
        4,
        "the 32M batch split four ways"
    );
}

#[test]
fn cli_plan_and_report_carry_the_same_numbers() {
    let out = Command::new(env!("CARGO_BIN_EXE_scaling"))
        .args(["plan", "--preset", "seed-weak", "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let row = &v["rows"][1];
    assert_eq!(row["gpus"], 4096.0);
    assert!((row["weak_ttq_speedup"].as_f64().unwrap() - 1.5238095238095237).abs() < EXACT);
    assert!((row["vanity_weak_efficiency"].as_f64().unwrap() - 0.9523809523809523).abs() < EXACT);
    assert_eq!(v["summary"]["critical_batch_tokens"], 32e6);
    let report = Command::new(env!("CARGO_BIN_EXE_scaling"))
        .args(["report", "--preset", "seed-weak", "--format", "json"])
        .output()
        .unwrap();
    let r: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
    assert!(r["en"].as_str().unwrap().contains("38.1%"));
    assert!(r["zh"].as_str().unwrap().contains("38.1%"));
    assert!(!r["warnings"].as_array().unwrap().is_empty());
}

/// The walls' goldens hold in the CLI's JSON, each derived by hand from its source
/// (docs/model/12-walls.md): GPT-3 175B (s = 2,048, h = 12,288, a = 96, L = 96) on TP 8 · PP 8,
/// 1F1B with A = 64 ≥ PP, one sequence per microbatch (B = 2,048 · D 16 · A 64 at 1,024 GPUs).
#[test]
fn cli_json_carries_the_walls_goldens() {
    let gpt3 = "v=1&b=2097152&a=64&tp=8&pp=8&p=175G&pa=175G&n0=1024&ns=1024\
                &nl=96&hd=12288&nh=96&sq=2048&voc=50257&zero=1&sp=1&fa=0";
    let json = |query: &str| {
        let (code, out, err) = scaling(&["strong", "--query", query, "--format", "json"]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).unwrap()
    };
    let num = |v: &serde_json::Value| v.as_f64().unwrap();
    // Korthikanti et al. 2022, Table 2, SP + selective: 34·sbh/t per layer = 106,954,752 B;
    // the first stage holds PP microbatches of L/PP layers: 96 × that = 10.27 GB.
    let v = json(&format!("{gpt3}&ac=selective"));
    let row = &v["rows"][0];
    assert!((num(&row["memory"]["activations"]) - 10_267_656_192.0).abs() < 1.0);
    // ZeRO-1: 2Ψ weights + 2Ψ gradients + 12Ψ/16 optimizer, Ψ = 175e9/64.
    assert!((num(&row["memory"]["weights"]) - 5_468_750_000.0).abs() < 1.0);
    assert!((num(&row["memory"]["optimizer"]) - 2_050_781_250.0).abs() < 1.0);
    assert_eq!(row["fits"], true);
    // SP, neither recomputation nor flash attention: sbh(34/t + 5as/(ht)) × 96 = 34.43 GB.
    let v = json(&format!("{gpt3}&ac=none"));
    assert!((num(&v["rows"][0]["memory"]["activations"]) - 34_426_847_232.0).abs() < 1.0);
    // TP traffic 16·sbh·(t − 1)/t = 352,321,536 B per layer per microbatch, at 400 GB/s over
    // 64 microbatches × 12 layers: 676.457… ms, exposed.
    let v = json(&format!("{gpt3}&ac=selective&em=fsdp&cm=flops&bnv=400G"));
    let tp_ms = num(&v["rows"][0]["traffic"]["tp_ms"]);
    assert!(
        (tp_ms - 352_321_536.0 / 400e9 * 1e3 * 768.0).abs() < 1e-6,
        "{tp_ms}"
    );
    // ZeRO Fig. 1: Ψ = 7.5B on N_d = 64: 120 / 31.4 / 16.6 / 1.9 GB of model states.
    let zero = "v=1&b=131072&p=7.5G&pa=7.5G&n0=64&ns=64&nl=96&hd=12288&nh=96&sq=2048&voc=50257";
    for (stage, gb) in [(0, 120.0), (1, 31.40625), (2, 16.640625), (3, 1.875)] {
        let v = json(&format!("{zero}&zero={stage}"));
        let m = &v["rows"][0]["memory"];
        let states = num(&m["weights"]) + num(&m["grads"]) + num(&m["optimizer"]);
        assert!((states - gb * 1e9).abs() < 1.0, "stage {stage}: {states}");
    }
}

/// `--chart memory` names the panel's memory chart (the page's id without the panel's prefix).
#[test]
fn chart_names_without_the_panels_prefix() {
    let dir = std::env::temp_dir().join(format!("scaling-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = |command: &str, chart: &str| {
        let file = dir.join(format!("{command}-{chart}.svg"));
        let path = file.to_str().unwrap().to_string();
        let (code, _, err) = scaling(&[
            command,
            "--preset",
            "gpt3-175b-walls",
            "--svg",
            &path,
            "--chart",
            chart,
        ]);
        (
            code,
            std::fs::read_to_string(&file).unwrap_or_default(),
            err,
        )
    };
    let (code, short, err) = svg("strong", "memory");
    assert_eq!(code, 0, "{err}");
    let (_, long, _) = svg("strong", "strong-memory");
    assert_eq!(short, long);
    assert!(short.contains("memory per GPU"), "the memory chart's title");
    let (_, weak, _) = svg("weak", "memory");
    assert!(weak.contains("Weak scaling: memory per GPU"));
    let (code, _, err) = svg("weak", "mfu");
    assert_eq!(code, 2, "the weak panel has no MFU chart");
    assert!(err.contains("weak-memory"), "{err}");
}

/// `scaling layouts`: the JSON fields on every entry, the scenario's own layout marked
/// `current` with its rank, and a message naming the shape when there is none.
#[test]
fn layouts_json_and_errors() {
    let (code, out, err) = scaling(&[
        "layouts",
        "--preset",
        "llama31-405b-h100",
        "--n",
        "16384",
        "--top",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let layouts = v["layouts"].as_array().unwrap();
    assert_eq!(layouts.len(), 3);
    for l in layouts {
        for key in [
            "tp",
            "pp",
            "cp",
            "ep",
            "dp",
            "a",
            "zero",
            "ac",
            "sched",
            "step_ms",
            "mfu",
            "tokens_per_s",
            "fits",
            "why",
            "rank",
            "current",
        ] {
            assert!(l.get(key).is_some(), "{key} missing in {l}");
        }
        assert!(l["memory"]["total"].as_f64().unwrap() > 0.0);
    }
    assert_eq!(layouts[0]["rank"], 1);
    assert_eq!(layouts[0]["why"]["reason"], "best");
    let current = &v["current"];
    assert_eq!(current["current"], true);
    // Meta's layout: TP 8, PP 16, DP 128, one sequence per microbatch, A = 16.
    assert_eq!(
        (current["tp"].as_u64(), current["pp"].as_u64()),
        (Some(8), Some(16))
    );
    assert_eq!(
        (current["dp"].as_f64(), current["a"].as_u64()),
        (Some(128.0), Some(16))
    );
    assert!(current["rank"].as_u64().unwrap() >= 1);
    let (code, _, err) = scaling(&["layouts", "--n", "8"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs the model's shape"), "{err}");
    // The strong panel's explorer says why it has nothing to rank.
    let (code, out, _) = scaling(&["strong", "--query", "v=1&lx=64"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Layout explorer (lx): the layout search needs the model's shape"),
        "{out}"
    );
    let (code, out, _) = scaling(&[
        "strong",
        "--preset",
        "gpt3-175b-walls",
        "--query",
        "v=1&lx=1024",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Fastest layout that fits: ") && out.contains("Layouts at 1,024 GPUs"),
        "{out}"
    );
    let (code, _, err) = scaling(&["layouts", "--preset", "gpt3-175b-walls"]);
    assert_eq!(code, 2);
    assert!(err.contains("--n"), "{err}");
}

/// `scaling layouts --published`: one JSON entry per published run with its layout, rank,
/// the fastest layout and the model's MFU against the published one (`runs`), and each
/// machine run with its role, group `r∞`, published and modelled step (`machine_runs`), and
/// the software drift (`software_drift`); the text names the median errors; no `--n` needed.
#[test]
fn layouts_published() {
    let (code, out, err) = scaling(&["layouts", "--published", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let held = v["machine_runs"].as_array().unwrap();
    assert_eq!(held.len(), 91);
    assert_eq!(v["machine_runs_left_out"].as_array().unwrap().len(), 0);
    // Software drift: one spread per dense row that several releases publish, H100 Llama 3 8B
    // among them (14,451/14,079 − 1, machines-and-runs.md note 6).
    let drift = v["software_drift"].as_array().unwrap();
    assert!(drift.len() >= 10, "{drift:?}");
    assert!(drift
        .iter()
        .any(|s| (s.as_f64().unwrap() - 0.026_422_3).abs() < 1e-6));
    for r in held {
        let role = r["role"].as_str().unwrap();
        let error = r["step_error"].as_f64().unwrap();
        let (model, published) = (
            r["model_step_s"].as_f64().unwrap(),
            r["published_step_s"].as_f64().unwrap(),
        );
        assert!((model / published - 1.0 - error).abs() < 1e-12, "{r}");
        if role == "calibration" {
            assert!(error.abs() < 1e-6, "{r}");
        }
        assert!(r["query"].as_str().unwrap().contains("&rinf="), "{r}");
    }
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 16);
    for r in runs {
        for key in [
            "run",
            "gpus",
            "layout",
            "rank",
            "layouts",
            "fastest",
            "model_mfu",
            "published_mfu",
            "error",
        ] {
            assert!(!r[key].is_null(), "{key} in {r}");
        }
        let e = r["model_mfu"].as_f64().unwrap() - r["published_mfu"].as_f64().unwrap();
        assert!((e - r["error"].as_f64().unwrap()).abs() < 1e-12);
    }
    let (code, out, err) = scaling(&["layouts", "--published"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Median MFU error (runs that did not calibrate r∞)"),
        "{out}"
    );
    assert!(
        out.contains("Llama 3.1 405B") && out.contains("MLPerf v3.1"),
        "{out}"
    );
    assert!(
        out.contains("GB200 NVL72 · FP8 · MLPerf v5.0") && out.contains("another model"),
        "{out}"
    );
}

/// `scaling prerender --figure` (the Learn texts' build): a figure's chart for its query, and
/// a mistyped query refused with its key named, as `--query` is, not drawn as the default.
#[test]
fn prerender_figures_check_their_query() {
    let (code, out, err) = scaling(&["prerender", "--figure", "laws-speedup v=1&f=0.1"]);
    assert_eq!(code, 0, "{err}");
    let svgs: Vec<String> = serde_json::from_str(&out).unwrap();
    assert_eq!(svgs.len(), 1);
    assert!(
        svgs[0].starts_with("<svg class=\"prerendered\""),
        "{}",
        svgs[0]
    );
    assert!(svgs[0].contains("width=\"560\""), "{}", svgs[0]);
    let (code, out, err) = scaling(&["prerender", "--figure", "laws-speedup v=1&f=2"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("Serial fraction f (f)"), "{err}");
    let (code, _, err) = scaling(&["prerender", "--figure", "no-such-chart v=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-chart"), "{err}");
}

/// `scaling import` prints the link the files make and each key's outcome; `--import` on a
/// panel command prints that panel for the same scenario; a refused file names itself. The
/// config is the corpus's beside the project (tests/common/corpus.rs); without it only the
/// refusal is checked.
#[test]
fn import_prints_the_link_and_what_each_key_did() {
    // A refused file: exit 2, its name and the key in the message.
    let bad = std::env::temp_dir().join("scaling-import-bad.json");
    std::fs::write(&bad, "{\"num_hidden_layers\": \"eighty\"}").unwrap();
    let (code, _, err) = scaling(&["import", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("scaling-import-bad.json") && err.contains("num_hidden_layers"),
        "{err}"
    );
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let Some(corpus) = crate::corpus::corpus_or_skip(root, "importing a published config.json")
    else {
        return;
    };
    let config = corpus.join("hf/llama-3.1-70b.config.json");
    let config = config.to_str().unwrap();
    let (code, out, err) = scaling(&["import", config, "--query", "v=1&sq=8192&tp=8"]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("link: ?v=1&tp=8&p=70.552387584B"),
        "{first}"
    );
    assert!(
        out.contains("num_hidden_layers: sets Layers L (nl) = 80"),
        "{out}"
    );
    assert!(out.contains("rope_theta: ignored: "), "{out}");
    // The same scenario on the strong panel: the link's query is its first line.
    let link = first.trim_start_matches("link: ?");
    let (_, strong, _) = scaling(&["strong", "--import", config, "--query", "v=1&sq=8192&tp=8"]);
    assert!(
        strong.starts_with(&format!("scenario: ?{link}\n")),
        "{strong}"
    );
    // Two files, the second over the first: the script's layout and batch, the config's
    // vocabulary (the script names only a tokenizer file).
    let script = root.join("tests/import-scripts/gpt3_175b_flags.sh");
    let script = script.to_str().unwrap();
    let (code, out, err) = scaling(&["import", config, script, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let query = doc["query"].as_str().unwrap();
    for part in [
        "tp=8",
        "pp=16",
        "nl=96",
        "voc=128256",
        "sq=2048",
        "b=3.145728M",
    ] {
        assert!(query.split('&').any(|p| p == part), "{part} in {query}");
    }
    assert_eq!(doc["files"][1]["format"], "Megatron-LM flags");
}

/// `scaling import` with training logs: the golden values' JSON and the test's
/// `model_config.yaml` read as one run (the YAML joins the log, no config reader knowing it),
/// and two NeMo logs at 16 and 32 GPUs as measured points, fitted, 64 predicted on `strong`.
#[test]
fn import_reads_logs_together_after_the_configs() {
    let root = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let logs = root.join("../shared/fixtures/logs");
    if !logs.join("expected.json").is_file() {
        eprintln!(
            "skipped: the training logs: no {}/expected.json",
            logs.display()
        );
        return;
    }
    let at = |name: &str| logs.join(name).to_str().unwrap().to_string();
    let golden = at("megatron-golden/gpt3-moe-small.golden_values_dev_dgx_h100.json");
    let yaml = at("megatron-golden/gpt3-moe-small.model_config.yaml");
    let (code, out, err) = scaling(&["import", &golden, &yaml]);
    assert_eq!(code, 0, "{err}");
    for part in ["tp=4", "pp=2", "ep=2", "mbs=4", "sq=1024", "nl=12"] {
        assert!(
            out.lines()
                .next()
                .unwrap()
                .split(['&', '?'])
                .any(|p| p == part),
            "{part}: {out}"
        );
    }
    assert!(
        out.contains("median 818.63 ms per step over steps 3–100"),
        "{out}"
    );
    let (a, b) = (
        at("nemo/qwen3-30b-a3b_a.log"),
        at("nemo/qwen3-30b-a3b_b.log"),
    );
    let (code, out, err) = scaling(&["strong", "--import", &b, "--import", &a, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = doc["tables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "strong")
        .unwrap()["rows"]
        .as_array()
        .unwrap()
        .clone();
    let gpus: Vec<&str> = rows.iter().map(|r| r[0].as_str().unwrap()).collect();
    assert_eq!(gpus, ["16", "32", "64"]);
    // W/16 + K = 3931.1, W/32 + K = 2025.8 → K = 120.5, W/64 = 952.65: 1,073.15 ms at 64.
    assert!(
        rows[2].as_array().unwrap().iter().any(|c| c == "1073.15"),
        "{:?}",
        rows[2]
    );
}

/// `scaling shapes` lists the published models' shapes; `--shape` puts one over a link with
/// `p` and `pa` from it; an unknown name lists the known ones.
#[test]
fn shapes_are_listed_and_applied() {
    let (code, out, _) = scaling(&["shapes"]);
    assert_eq!(code, 0);
    assert!(out.contains("Llama 3.1 70B  (70.6B)"), "{out}");
    assert!(out.contains("DeepSeek-V3  (671B / 37B active)"), "{out}");
    let (code, out, err) = scaling(&[
        "strong",
        "--shape",
        "Llama 3.1 70B",
        "--query",
        "v=1&b=16M&mbs=1&tp=8&pp=4",
    ]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    for part in ["nl=80", "hd=8192", "sq=8192", "p=70.552387584B", "tp=8"] {
        assert!(
            first.split(['?', '&']).any(|p| p == part),
            "{part}: {first}"
        );
    }
    let (code, _, err) = scaling(&["strong", "--shape", "GPT-5"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("GPT-5") && err.contains("Mixtral 8x7B"),
        "{err}"
    );
}

/// `scaling keys` lists every URL key with what it accepts; its JSON is `docs/keys.json`, the
/// file the scripts read.
#[test]
fn keys_lists_the_key_table() {
    let (code, text, _) = scaling(&["keys"]);
    assert_eq!(code, 0);
    assert_eq!(text.lines().count(), 86, "{text}");
    assert!(
        text.lines()
            .any(|l| l == "ep     walls     Expert parallel EP: whole number `1 … 65,536`"),
        "{text}"
    );
    let (code, json, _) = scaling(&["keys", "--format", "json"]);
    assert_eq!(code, 0);
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/keys.json"))
            .expect("docs/keys.json");
    assert_eq!(json, docs);
}
