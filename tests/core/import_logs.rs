//! Training logs in: each log of `../shared/fixtures/logs` read as its hand-read
//! `expected.json` says (GPU count, layout, steady step time within the file's tolerance, the
//! crash), the scaling pairs as measured points, and bad logs refused naming the file and line.

use crate::common::corpus::logs_or_skip;
use scaling_core::scenario::import::log::{self, Field, LogError};
use scaling_core::scenario::import::{self, ImportError};
use scaling_core::scenario::{decode, Key};
use serde_json::Value;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The text a reader drops for `file`: the file, and for Megatron-LM's golden values the
/// test's `model_config.yaml` beside it (`==> NAME <==` before each).
fn dropped(dir: &Path, file: &str) -> String {
    let text = |f: &str| String::from_utf8_lossy(&std::fs::read(dir.join(f)).unwrap()).into_owned();
    if file.ends_with(".json") {
        let config = file.replace("golden_values_dev_dgx_h100.json", "model_config.yaml");
        format!(
            "==> {file} <==\n{}\n==> {config} <==\n{}",
            text(file),
            text(&config)
        )
    } else {
        text(file)
    }
}

const LAYOUT: [(&str, Field); 7] = [
    ("tp", Field::Tp),
    ("pp", Field::Pp),
    ("cp", Field::Cp),
    ("ep", Field::Ep),
    ("micro_batch", Field::MicroBatch),
    ("global_batch", Field::GlobalBatch),
    ("seq_len", Field::SeqLen),
];

#[test]
fn every_fixture_log_reads_as_its_expectations_say() {
    let Some(dir) = logs_or_skip(root(), "the training logs") else {
        return;
    };
    let expected: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap()).unwrap();
    let files = expected["files"].as_array().unwrap();
    assert_eq!(files.len(), 9);
    for e in files {
        let file = e["file"].as_str().unwrap();
        let logs = log::read(&dropped(&dir, file)).unwrap_or_else(|err| panic!("{file}: {err}"));
        assert_eq!(logs.len(), 1, "{file}");
        let run = &logs[0];
        let want = e["step_time_ms"]["median"].as_f64().unwrap();
        let tolerance = e["step_time_ms"]["tolerance_pct"].as_f64().unwrap();
        let off = (run.steady.median_ms / want - 1.0).abs() * 100.0;
        assert!(
            off <= tolerance,
            "{file}: median {} ms against {want} ({off:.2}% > {tolerance}%)",
            run.steady.median_ms
        );
        let gpus = run.gpus().map(|g| g.0);
        assert_eq!(gpus, e["gpus"].as_u64(), "{file}: GPUs");
        for (name, field) in LAYOUT {
            if let Some(v) = e["layout"][name].as_u64() {
                let got = run.get(field).map(|f| f.value);
                assert_eq!(got, Some(v), "{file}: {name}");
            }
        }
        if let (Some(dp), Some(g)) = (e["layout"]["dp"].as_u64(), gpus) {
            let degree = |f| run.get(f).map_or(1, |x| x.value);
            assert_eq!(
                g / (degree(Field::Tp) * degree(Field::Pp) * degree(Field::Cp)),
                dp,
                "{file}: dp"
            );
        }
        assert_eq!(run.crash.is_some(), !e["crash"].is_null(), "{file}: crash");
        // And the whole import applies: P follows the shape where the log prints one.
        let read = import::read(&dropped(&dir, file)).unwrap();
        import::apply(&decode("v=1").scenario, &read).unwrap_or_else(|err| panic!("{file}: {err}"));
    }
}

#[test]
fn the_crashed_run_names_its_last_step_and_the_line() {
    let Some(dir) = logs_or_skip(root(), "the crashed log") else {
        return;
    };
    let text = dropped(&dir, "megatron/megatron-deepspeed_gpt3-125m.log");
    let run = &log::read(&text).unwrap()[0];
    assert_eq!(run.records.last().unwrap().record.last_step, 470);
    assert_eq!(run.of_steps, Some(171_661));
    let (line, said) = run.crash.clone().unwrap();
    assert!(said.contains("Traceback"), "{said}");
    assert_eq!(
        text.lines().nth(line - 1).map(str::trim),
        Some(said.as_str())
    );
    // The eval windows are slow records, and the median is not moved by them.
    assert_eq!(run.steady.slow.len(), 4);
}

#[test]
fn a_clean_pair_is_a_strong_sweep_fitted_and_predicting_a_third_count() {
    let Some(dir) = logs_or_skip(root(), "the NeMo pair") else {
        return;
    };
    let text = format!(
        "==> a.log <==\n{}\n==> b.log <==\n{}",
        dropped(&dir, "nemo/qwen3-30b-a3b_b.log"),
        dropped(&dir, "nemo/qwen3-30b-a3b_a.log")
    );
    let read = import::read(&text).unwrap();
    let next = import::apply(&decode("v=1").scenario, &read).unwrap();
    let query = next.to_query();
    // Sorted by GPU count whatever the order dropped; one batch, so no per-point batch.
    assert!(query.contains("st=16:3931.1,32:2025.8"), "{query}");
    assert!(query.contains("em=fit"), "{query}");
    assert!(query.contains("ns=16,32,64"), "{query}");
    assert!(query.contains("n0=16"), "{query}");
    assert!(query.contains("m=16:3931.1,32:2025.8"), "{query}");
    // One batch: strong scaling, said by the panel the run opens on.
    assert!(query.contains("view=strong"), "{query}");
    assert_eq!(decode(&query).scenario.to_query(), query);
}

#[test]
fn a_pair_at_two_batches_carries_each_batch_and_no_karp_flatt() {
    let Some(dir) = logs_or_skip(root(), "the MLPerf pair") else {
        return;
    };
    let text = format!(
        "==> a <==\n{}\n==> b <==\n{}",
        dropped(&dir, "mlperf/llama31-8b_a.result_0.txt"),
        dropped(&dir, "mlperf/llama31-8b_b.result_0.txt")
    );
    let read = import::read(&text).unwrap();
    let st = read
        .values()
        .into_iter()
        .find(|(k, _)| *k == Key::StepTable)
        .unwrap()
        .1;
    // 16 × 8192 and 32 × 8192 tokens: the same tokens per GPU, a weak pair.
    assert_eq!(st, "8:450.4@131072,16:573.2@262144");
    assert!(read.values().iter().all(|(k, _)| *k != Key::Measured));
    // 131,072 / 8 = 262,144 / 16 tokens per GPU: weak scaling, the Weak panel.
    assert!(read.values().contains(&(Key::View, "weak".to_string())));
    // Batches that grow but not with the GPUs are neither: the view is the reader's.
    let mixed = text.replacen(
        "\"global_batch_size\", \"value\": 32",
        "\"global_batch_size\", \"value\": 64",
        1,
    );
    let read = import::read(&mixed).unwrap();
    assert!(
        read.values().iter().all(|(k, _)| *k != Key::View),
        "{:?}",
        read.values()
    );
}

/// A small Megatron-LM log of `gpus` GPUs and `layers` layers, step `ms` from step 3.
fn small_log(gpus: u64, layers: u64, ms: f64) -> String {
    let mut text = format!(
        "  num_layers ...................................... {layers}\n  world_size ...................................... {gpus}\n  global_batch_size ............................... 64\n  micro_batch_size ................................ 1\n  seq_length ...................................... 4096\n"
    );
    for i in 1..=6 {
        let t = if i <= 2 { ms * 5.0 } else { ms };
        text.push_str(&format!(
            " iteration        {i}/      10 | consumed samples: {} | elapsed time per iteration (ms): {t:.1} | global batch size:    64 |\n",
            i * 64
        ));
    }
    text
}

#[test]
fn bad_logs_are_refused_naming_the_file_and_line() {
    let refused = |text: &str| match import::read(text) {
        Err(ImportError::Log(e)) => e,
        other => panic!("not refused as logs: {other:?}"),
    };
    let two = |a: &str, b: &str| format!("==> a.log <==\n{a}==> b.log <==\n{b}");
    // Two models mixed: the layers differ, both lines named.
    let e = refused(&two(&small_log(8, 32, 500.0), &small_log(16, 80, 300.0)));
    assert_eq!(
        e,
        LogError::Mixed {
            field: "layers".into(),
            first: ("a.log".into(), 1, 32),
            second: ("b.log".into(), 1, 80),
        }
    );
    assert!(e.to_string().contains("a.log line 1"), "{e}");
    // One GPU count twice.
    let e = refused(&two(&small_log(8, 32, 500.0), &small_log(8, 32, 300.0)));
    assert!(matches!(e, LogError::SameGpus { gpus: 8, .. }), "{e:?}");
    // A GPU count the layout cannot fill: 8 GPUs and a batch of 64 at micro-batch 1 is fine,
    // TP 3 is not.
    let bad = small_log(8, 32, 500.0).replace(
        "  seq_length",
        "  tensor_model_parallel_size ...... 3\n  seq_length",
    );
    let e = refused(&bad);
    assert_eq!(
        e.to_string(),
        "the log line 2: 8 GPUs are not a multiple of TP·PP·CP = 3"
    );
    // Several logs, one without a GPU count.
    let e = refused(&two(
        &small_log(8, 32, 500.0),
        &small_log(16, 32, 300.0).replace("world_size", "size"),
    ));
    assert_eq!(
        e,
        LogError::NoGpus {
            name: "b.log".into()
        }
    );
    // Only warm-up.
    let short = " iteration        1/      10 | elapsed time per iteration (ms): 900.0 |\n iteration        2/      10 | elapsed time per iteration (ms): 400.0 |\n";
    assert_eq!(
        refused(short),
        LogError::OnlyWarmup {
            name: String::new(),
            last_step: 2
        }
    );
    // A part with lines but no step times, when no other part has any.
    assert!(!log::is_log("world_size: 8\n"));
    // Nothing applied: the scenario is untouched by a refusal (apply is never reached).
}

#[test]
fn a_single_log_sets_its_layout_and_counts_but_no_points() {
    let read = import::read(&small_log(8, 32, 500.0)).unwrap();
    let next = import::apply(&decode("v=1").scenario, &read).unwrap();
    let q = next.to_query();
    assert!(
        q.contains("n0=8") && q.contains("ns=8,16,32,64") && q.contains("nl=32"),
        "{q}"
    );
    assert!(!q.contains("st="), "{q}");
    // The report names the line of the first record used (step 3: line 8).
    assert_eq!(read.entries[0].line, 8);
    let text = read.entries[0].describe();
    assert!(
        text.contains("median 500 ms per step over steps 3–6 (4 records"),
        "{text}"
    );
}

#[test]
fn hostile_logs_are_refused_or_read_in_linear_time() {
    // Past the logs' limit: refused by size, unread.
    let huge = format!("elapsed time per iteration (ms)\n{}", "x".repeat(16 << 20));
    assert!(
        matches!(import::read(&huge), Err(ImportError::TooLarge { limit, .. }) if limit == 16 << 20)
    );
    // Thousands of side parts beside one log: each adds its value once, no rescans.
    let mut text = small_log(8, 32, 500.0);
    for i in 0..20_000 {
        text.push_str(&format!("==> side{i} <==\nnum_layers: {}\n", i + 1));
    }
    let logs = log::read(&format!("==> run.log <==\n{text}")).unwrap();
    assert_eq!(
        logs[0].get(Field::Layers).map(|f| f.value),
        Some(32),
        "the log's own value first"
    );
    // More logs than a sweep takes.
    let many: String = (1..=65)
        .map(|i| format!("==> {i} <==\n{}", small_log(8 * i, 32, 500.0)))
        .collect();
    assert_eq!(
        import::read(&many).unwrap_err().to_string(),
        "65 logs; a sweep takes at most 64"
    );
    // A golden-values file of many steps, its keys out of order: every step read, linearly.
    let values: Vec<String> = (1..=50_000)
        .rev()
        .map(|s| format!("\"{s}\": 0.5"))
        .collect();
    let golden = format!(
        "{{\"iteration-time\": {{\"values\": {{{}}}}}}}",
        values.join(", ")
    );
    let logs = log::read(&golden).unwrap();
    assert_eq!(logs[0].records.len(), 50_000);
    assert_eq!(logs[0].steady.median_ms, 500.0);
}

#[test]
fn a_config_that_only_looks_like_a_log_is_read_as_the_config() {
    // A log's word in a launch script without a step line: the script's flags.
    let read = import::read(
        "# tflops: see the run's log\n--num-layers 32 --tensor-model-parallel-size 4\n",
    )
    .unwrap();
    assert_eq!(read.format, import::Format::Megatron);
    // And text in no format that looks like a log says what a log needs.
    let e = import::read("tflops: high\n").unwrap_err();
    assert!(e.to_string().starts_with("the log: no step times"), "{e}");
}

#[test]
fn maxtext_and_torchtitan_without_a_batch_read_their_own_lines() {
    // MaxText counts steps from 0: steps 1–2 are warm-up, 3–6 give 1150, 1160, 1150, 1140 ms
    // → sorted 1140, 1150, 1150, 1160, median 1150; the printed rates are medians too.
    let seconds = [10.0, 3.0, 1.15, 1.16, 1.15, 1.14];
    let maxtext: String = seconds
        .iter()
        .enumerate()
        .map(|(step, s)| {
            format!("completed step: {step}, seconds: {s:.3}, TFLOP/s/device: {}.000, Tokens/s/device: {}.000, total_weights: 1000, loss: 3.2\n", 460 + step, 56990 + step)
        })
        .collect();
    let run = &log::read(&maxtext).unwrap()[0];
    assert_eq!(run.framework, log::Framework::Maxtext);
    assert_eq!(run.steady.median_ms, 1150.0);
    assert_eq!(
        (run.records[0].record.first_step, run.records[5].line),
        (1, 6)
    );
    let report = import::read(&maxtext).unwrap().entries[0].describe();
    // Printed over steps 3–6 (indices 2–5): 462…465 → median 463.5; 56,992…56,995 → 56,993.5,
    // rounded half away from zero to 56,994.
    assert!(
        report.contains("the log prints 56,994 tokens/s per GPU (median)"),
        "{report}"
    );
    assert!(
        report.contains("the log prints 463.5 TFLOP/s per GPU (median)"),
        "{report}"
    );
    // torchtitan without its batch in the log: the time between step lines, 1500 (step 2,
    // warm-up), 1100, 1100, 1200 ms → median 1100.
    let stamps = [
        "03:18:46,574",
        "03:18:48,074",
        "03:18:49,174",
        "03:18:50,274",
        "03:18:51,474",
    ];
    let titan: String = stamps
        .iter()
        .enumerate()
        .map(|(i, t)| format!("[rank0]:[titan] 2026-05-20 {t} - root - INFO - step: {:2}  loss:  3.1  tps: 9,000  tflops: 700.5  mfu: 30%\n", i + 1))
        .collect();
    let run = &log::read(&titan).unwrap()[0];
    assert_eq!(run.framework, log::Framework::Torchtitan);
    assert_eq!(run.steady.median_ms, 1100.0);
    assert_eq!(run.steady.used.len(), 3);
}
