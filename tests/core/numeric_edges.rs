//! Numerical edges: the ends of every range the page accepts. Each input either
//! gives defined, finite results — every row, curve, table cell, key figure and chart — or is
//! refused with a clear message that names its key. Charts are also drawn (SVG backend, the
//! same plotters code as the page's canvas) on a worker thread with a time limit, because a
//! chart that never finishes drawing freezes the reader's tab.
//!
//! The tests at the end pin down the inputs `tests/fuzz_decode.rs` found breaking the page.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use crate::common;

use common::tol;

use scaling_core::panel::{laws, plan};
use scaling_core::scenario::{decode, Key, Scenario, UrlError};
use scaling_model::llm::LlmSweep;
use scaling_model::plan::PlanSweep;
use scaling_model::sweep::LawsSweep;
use std::time::Duration;

/// What the page shows for a scenario, computed for every panel.
struct Shown {
    scenario: Scenario,
    laws: LawsSweep,
    llm: LlmSweep,
    plan: PlanSweep,
}

/// Decodes `query`, insisting that it is accepted without messages.
fn accepted(query: &str) -> Shown {
    let d = decode(query);
    let messages: Vec<String> = d.errors.iter().map(|e| e.to_string()).collect();
    assert!(
        messages.is_empty(),
        "{query}: expected no messages, got {messages:#?}"
    );
    shown(d.scenario)
}

fn shown(scenario: Scenario) -> Shown {
    let panels = common::panels(&scenario);
    let laws = panels[0].laws().expect("the laws panel").clone();
    let llm = panels[1].llm().expect("the strong panel").clone();
    let plan = panels[3].plan().expect("the plan panel").clone();
    Shown {
        scenario,
        laws,
        llm,
        plan,
    }
}

/// Decodes `query`, insisting that `key` is refused with a message naming it (and containing
/// `reason`), and that the scenario is still usable.
fn refused(query: &str, key: Key, reason: &str) -> Shown {
    let d = decode(query);
    let named: Vec<String> = d
        .errors
        .iter()
        .filter(|e| matches!(e, UrlError::Input(ie) if ie.key == key))
        .map(|e| e.to_string())
        .collect();
    assert!(
        !named.is_empty(),
        "{query}: expected a message for {} ({}); got {:#?}",
        key.label(),
        key.name(),
        d.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>()
    );
    for m in &named {
        assert!(
            m.contains(&format!("({})", key.name())),
            "{query}: message does not name the key: {m}"
        );
        assert!(
            m.contains(reason),
            "{query}: message {m:?} does not say {reason:?}"
        );
        assert!(m.chars().count() < 400, "{query}: message too long: {m}");
    }
    let s = shown(d.scenario);
    assert_finite(query, &s);
    s
}

/// The contract at the far ends of a range: either the link is refused with a message naming
/// `key` (and the page falls back to a usable scenario), or it is accepted and everything
/// shown is finite and every chart draws. Returns whether it was accepted.
fn finite_or_refused(query: &str, key: Key) -> bool {
    let d = decode(query);
    if d.errors.is_empty() {
        let s = shown(d.scenario);
        assert_finite(query, &s);
        assert_draws(query, &s.scenario);
        return true;
    }
    for e in &d.errors {
        let m = e.to_string();
        let UrlError::Input(ie) = e else {
            panic!("{query}: unexpected message {m}");
        };
        assert_eq!(ie.key, key, "{query}: the message names another key: {m}");
        assert!(
            m.contains(&format!("({})", key.name())),
            "{query}: message does not name the key: {m}"
        );
        assert!(m.chars().count() < 600, "{query}: message too long: {m}");
    }
    let s = shown(d.scenario);
    assert_finite(query, &s);
    assert_draws(query, &s.scenario);
    false
}

// ---- checks (the shared panel checker, tests/common) -------------------------------------

fn assert_finite(what: &str, s: &Shown) {
    let p: Vec<String> = common::check_scenario(&s.scenario)
        .into_iter()
        .map(|p| format!("{}: {}", p.kind, p.detail))
        .collect();
    assert!(
        p.is_empty(),
        "{what}: {} problem(s):\n  {}",
        p.len(),
        p.join("\n  ")
    );
}

/// Draws every chart of every panel through plotters (SVG), as the page does on its canvas.
/// Fails when drawing errs, panics, or does not finish within 10 s (a frozen tab).
fn assert_draws(what: &str, scenario: &Scenario) {
    let scenario = scenario.clone();
    let (tx, rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let (step_tx, step_rx) = std::sync::mpsc::channel::<&'static str>();
    std::thread::spawn(move || {
        let mut result = Ok(());
        for panel in common::panels(&scenario) {
            for chart in panel.charts() {
                let _ = step_tx.send(chart.id());
                if let Err(e) = common::draw_svg(&panel, chart) {
                    result = Err(format!("{}: {e}", chart.id()));
                }
            }
        }
        let _ = tx.send(result);
    });
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("{what}: a chart could not be drawn: {e}"),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            panic!(
                "{what}: drawing panicked (chart {:?})",
                step_rx.try_iter().last()
            )
        }
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => panic!(
            "{what}: chart {:?} still drawing after 10 s: this link would freeze the page",
            step_rx.try_iter().last()
        ),
    }
}

fn cell<'a>(t: &'a scaling_core::panel::table::Table, row: usize, header: &str) -> &'a str {
    let c = t
        .headers
        .iter()
        .position(|h| h.starts_with(header))
        .unwrap_or_else(|| panic!("no column {header:?} in {:?}", t.headers));
    &t.rows[row][c]
}

fn figure(figures: &[(String, String)], label: &str) -> String {
    figures
        .iter()
        .find(|(l, _)| l.contains(label))
        .unwrap_or_else(|| panic!("no key figure {label:?} in {figures:?}"))
        .1
        .clone()
}

// ---- Laws: f = 0, f = 1, N = 1, N = 2^30 ----------------------------------------------------

#[test]
fn f_zero_has_no_ceiling_and_linear_speedup() {
    let s = accepted("v=1&f=0");
    assert_finite("f=0", &s);
    assert_draws("f=0", &s.scenario);
    assert_eq!(s.laws.amdahl_ceiling, None);
    assert_eq!(s.laws.half_efficiency_processors, None);
    for r in &s.laws.rows {
        assert_eq!(r.amdahl_speedup, r.processors, "S = N at f = 0");
        assert_eq!(r.gustafson_speedup, r.processors);
        assert!((r.amdahl_efficiency - 1.0).abs() < tol::EXACT);
    }
    let figs = laws::key_figures(&s.laws, s.scenario.laws.measured_kind);
    assert_eq!(figure(&figs, "Amdahl ceiling"), "none (f = 0: S = N)");
    assert_eq!(figure(&figs, "falls to 50%"), "never (f = 0)");
    // With N at its maximum too, and Sun–Ni at g = 2 (N^g = 2^60).
    let s = accepted("v=1&f=0&n=1073741824&g=2&fs=0,1");
    assert_finite("f=0, N=2^30, g=2", &s);
    assert_draws("f=0, N=2^30, g=2", &s.scenario);
}

#[test]
fn f_one_gives_no_speedup_at_all() {
    let s = accepted("v=1&f=1");
    assert_finite("f=1", &s);
    assert_draws("f=1", &s.scenario);
    assert_eq!(s.laws.amdahl_ceiling, Some(1.0));
    assert_eq!(s.laws.half_efficiency_processors, Some(2.0));
    for r in &s.laws.rows {
        assert!((r.amdahl_speedup - 1.0).abs() < tol::EXACT, "{r:?}");
        assert!((r.gustafson_speedup - 1.0).abs() < tol::EXACT, "{r:?}");
        assert!((r.amdahl_efficiency - 1.0 / r.processors).abs() < tol::EXACT);
    }
    let t = laws::speedup_table(&s.laws);
    assert!(
        t.rows.iter().all(|r| r[1] == "1x" && r[2] == "1x"),
        "{:?}",
        t.rows
    );
    let figs = laws::key_figures(&s.laws, s.scenario.laws.measured_kind);
    assert_eq!(figure(&figs, "Amdahl ceiling"), "1x");
    // 100% is the same value written as a percentage; fs may hold both ends.
    let s = accepted("v=1&f=100%25&fs=0,1,0.5");
    assert_eq!(s.scenario.laws.serial_fraction, 1.0);
    assert_finite("f=100%, fs=0,1", &s);
}

#[test]
fn f_outside_zero_one_is_refused_by_name() {
    refused("v=1&f=1.0000001", Key::SerialFraction, "outside 0 … 1");
    refused("v=1&f=-0.01", Key::SerialFraction, "outside 0 … 1");
    refused("v=1&f=101%25", Key::SerialFraction, "outside 0 … 1");
    refused("v=1&f=NaN", Key::SerialFraction, "not a number");
    refused("v=1&f=inf", Key::SerialFraction, "not a number");
    refused("v=1&f=1e400", Key::SerialFraction, "not a finite number");
    refused("v=1&fs=0.1,2", Key::CompareFractions, "outside 0 … 1");
    // -0 is read as 0 and written back as 0.
    let s = accepted("v=1&f=-0");
    assert!(
        s.scenario.laws.serial_fraction == 0.0
            && s.scenario.laws.serial_fraction.is_sign_positive()
    );
    assert_eq!(s.scenario.to_query(), "v=1&f=0");
}

#[test]
fn one_processor_is_the_first_row_and_not_an_axis() {
    // Every table starts at N = 1, where every law gives S = 1.
    let s = accepted("v=1&f=0.3&n=2");
    assert_finite("n=2", &s);
    assert_draws("n=2", &s.scenario);
    assert_eq!(s.laws.rows.len(), 2);
    let first = &s.laws.rows[0];
    assert_eq!(first.processors, 1.0);
    for v in [
        first.amdahl_speedup,
        first.gustafson_speedup,
        first.sun_ni_speedup,
    ] {
        assert!((v - 1.0).abs() < tol::EXACT, "{first:?}");
    }
    // An axis of one processor is refused, naming n.
    let r = refused("v=1&n=1", Key::MaxProcessors, "outside 2 … 2^30");
    assert_eq!(
        r.scenario.laws.max_processors, 4096,
        "n falls back to the default"
    );
    refused("v=1&n=0", Key::MaxProcessors, "outside 2 … 2^30");
    refused("v=1&n=2.5", Key::MaxProcessors, "not a whole number");
    // A measurement on one processor only: no Karp–Flatt value, and the fit says why.
    let s = accepted("v=1&m=1:100");
    assert_finite("m=1:100", &s);
    assert_draws("m=1:100", &s.scenario);
    let t = laws::measured_table(&s.laws).expect("a measured table");
    assert_eq!(t.rows.len(), 1);
    assert_eq!(cell(&t, 0, "Karp–Flatt"), "–");
    let figs = laws::key_figures(&s.laws, s.scenario.laws.measured_kind);
    assert_eq!(
        figure(&figs, "Fitted serial fraction"),
        "needs a point with N > 1"
    );
}

#[test]
fn two_to_the_thirty_processors_is_the_largest_axis() {
    let s = accepted("v=1&n=1073741824");
    assert_finite("n=2^30", &s);
    assert_draws("n=2^30", &s.scenario);
    assert_eq!(s.laws.rows.len(), 31, "rows 1, 2, 4, …, 2^30");
    let last = s.laws.rows.last().unwrap();
    assert_eq!(last.processors, 1_073_741_824.0);
    assert!((last.amdahl_speedup - 20.0).abs() < tol::MILLI, "{last:?}");
    let t = laws::speedup_table(&s.laws);
    assert_eq!(t.rows.last().unwrap()[0], "1,073,741,824");
    refused("v=1&n=1073741825", Key::MaxProcessors, "outside 2 … 2^30");
    refused("v=1&n=1e12", Key::MaxProcessors, "outside 2 … 2^30");
    // Measured points at both ends of the range, and GPU counts too.
    let s = accepted("v=1&m=1:1000,1073741824:0.001");
    assert_finite("m up to 2^30", &s);
    assert_draws("m up to 2^30", &s.scenario);
    refused("v=1&m=1:10,1073741825:1", Key::Measured, "outside 1 … 2^30");
    let s = accepted("v=1&b=1P&ns=1,1073741824&n0=1&tb=1e18&bcap=1P");
    assert_finite("ns=1,2^30", &s);
    assert_draws("ns=1,2^30", &s.scenario);
}

// ---- LLM: fewer tokens than GPUs ---------------------------------------------------------------

#[test]
fn fewer_tokens_than_gpus_is_a_clear_message() {
    // 1,000 tokens over 16,384 GPUs: less than one token per GPU.
    let s = refused(
        "v=1&b=1000",
        Key::GlobalBatch,
        "less than one token per DP rank per microbatch at 16,384 GPUs",
    );
    assert_eq!(s.scenario.llm.global_batch_tokens, 32e6, "b falls back");
    // The same through a number box: refused, last valid value kept.
    let mut sc = Scenario::default();
    let e = sc
        .set(Key::GlobalBatch, "16383")
        .expect_err("16,383 tokens on 16,384 GPUs");
    assert!(
        e.to_string().contains("(b)") && e.reason.contains("less than one token"),
        "{e}"
    );
    assert_eq!(sc.llm.global_batch_tokens, 32e6);
    // Accumulation and the GPU list can break the same rule; the link's key is named.
    refused("v=1&a=65536", Key::Accumulation, "less than one token");
    refused("v=1&ns=1024,1073741824", Key::Gpus, "less than one token");
    refused(
        "v=1&n0=1073741824",
        Key::BaselineGpus,
        "less than one token",
    );
    // Exactly one token per GPU at the largest count is fine, and every plan row has a batch.
    let s = accepted("v=1&b=16384&tb=1e12");
    assert_finite("b=16384 (T = 1 at 16,384 GPUs)", &s);
    assert_draws("b=16384", &s.scenario);
    assert_eq!(s.llm.strong.last().unwrap().tokens_per_replica, 1.0);
    // A layout where T = B·M/(N·A) = 1 needs care with rounding: M = 3, A = 7, N = 3,000.
    let s = accepted("v=1&tp=3&a=7&b=7000&ns=30,300,3000&n0=30&tb=1e9");
    assert_finite("T = 1 with M = 3, A = 7", &s);
}

// ---- LLM: bandwidth ------------------------------------------------------------------------

#[test]
fn zero_bandwidth_is_refused_and_huge_bandwidth_is_finite() {
    refused("v=1&beff=0", Key::Bandwidth, "must be above 0");
    refused("v=1&beff=-1G", Key::Bandwidth, "must be above 0");
    assert!(
        !finite_or_refused("v=1&beff=1e16", Key::Bandwidth),
        "beff=1e16 is above 1P"
    );
    // 1 PB/s per GPU: T_crit = 3·2/6 · 370T/1P = 0.37 tokens, N_max ≈ 86 million GPUs.
    for q in [
        "v=1&beff=1e15",
        "v=1&beff=1P&em=fsdp&cm=flops",
        "v=1&beff=1P&view=plan&lv=nvlink,ep,noreshard,fp8,zb",
    ] {
        let s = accepted(q);
        assert_finite(q, &s);
        assert_draws(q, &s.scenario);
        let levers = !s.scenario.plan.levers.is_empty();
        // no-reshard makes c = 2 and fp8 all-gathers 1 byte per parameter while gradients stay
        // bf16: b_w = 1·1 + 2 = 3 bytes instead of 6, 0.37 · 3/6 tokens with every lever.
        let want = if levers { 0.37 * 3.0 / 6.0 } else { 0.37 };
        assert!(
            (s.llm.summary.t_crit_tokens - want).abs() < tol::CHAIN,
            "{q}: {}",
            s.llm.summary.t_crit_tokens
        );
        assert!(
            s.llm.summary.n_max > 8e7,
            "{q}: N_max = {}",
            s.llm.summary.n_max
        );
    }
    // 1 byte/s: T_crit = 3.7e14 tokens, N_max far below one GPU; FSDP exposed time is huge.
    // (or refused, naming beff, if the accepted range starts higher).
    for q in ["v=1&beff=1", "v=1&beff=1&em=fsdp&cm=flops&p=1P&pa=1P"] {
        finite_or_refused(q, Key::Bandwidth);
    }
}

// ---- Plan: B_crit ----------------------------------------------------------------------------

#[test]
fn critical_batch_at_both_ends_with_a_valid_cap() {
    for q in [
        "v=1&view=plan&bcrit=1&bcap=32M",
        "v=1&view=plan&bcrit=1&bcap=16384",
        "v=1&view=plan&bcrit=1e15&bcap=1e15",
        "v=1&view=plan&bcrit=1e15&bcap=32M",
        "v=1&view=plan&bcrit=1e15",
        "v=1&view=plan&bcrit=1P&bcap=1P&b=1P&tb=1e18&ns=1,1073741824&n0=1",
    ] {
        let s = accepted(q);
        assert_finite(q, &s);
        assert_draws(q, &s.scenario);
        let t = plan::table(&s.plan);
        assert!(!t.rows.is_empty());
    }
    // Without a cap the cap is B_crit itself: 1 token cannot cover 16,384 GPUs.
    refused(
        "v=1&bcrit=1",
        Key::CriticalBatch,
        "less than one token per DP rank per microbatch",
    );
    refused(
        "v=1&bcap=100",
        Key::BatchCap,
        "less than one token per DP rank per microbatch",
    );
    refused("v=1&bcrit=0", Key::CriticalBatch, "1 … 10^15");
    refused("v=1&bcrit=1e16", Key::CriticalBatch, "1 … 10^15");
    refused("v=1&bcap=0.5", Key::BatchCap, "1 … 10^15");
}

// ---- Layout: tp = 64, pp = 64 ---------------------------------------------------------------

#[test]
fn tp64_pp64_with_matching_gpu_counts() {
    for q in [
        "v=1&tp=64&pp=64&ns=4096,8192,16384&n0=4096",
        "v=1&tp=64&pp=64&ns=4096,8192,16384&n0=4096&em=fsdp&cm=flops",
        "v=1&tp=64&pp=64&ns=4096,8192,16384&n0=4096&em=fsdp&cm=flops&sched=interleaved&vc=64&a=65536&b=1P&tb=1e18",
        "v=1&tp=64&pp=64&cp=64&ns=262144,1073741824&n0=262144&em=fsdp",
        "v=1&view=plan&tp=64&pp=64&ns=4096,8192,16384&n0=4096&lv=zb,nvlink&bcap=1G",
    ] {
        let s = accepted(q);
        assert_finite(q, &s);
        assert_draws(q, &s.scenario);
        assert_eq!(s.llm.summary.model_parallel, s.scenario.llm.model_parallel());
    }
    let s = accepted("v=1&tp=64&pp=64&ns=4096,8192,16384&n0=4096");
    assert_eq!(s.llm.summary.model_parallel, 4096.0);
    // 32M tokens over 16,384 GPUs in 4 data-parallel ranks: T = 8M tokens per rank.
    assert_eq!(s.llm.strong.last().unwrap().tokens_per_replica, 8e6);
    // Counts that are not multiples of TP×PP×CP = 4,096: the link's last such key is named.
    refused("v=1&tp=64&pp=64", Key::Pp, "not a multiple of TP×PP×CP");
    refused(
        "v=1&tp=64&pp=64&ns=4096,6000&n0=4096",
        Key::Gpus,
        "not a multiple of TP×PP×CP",
    );
    refused("v=1&tp=65537", Key::Tp, "above 65,536");
    refused("v=1&pp=0", Key::Pp, "outside 1 … 65,536");
}

// ---- Found by tests/fuzz_decode.rs ------------------------------------------------------------
// Each was accepted and broke the page before the fixes of a66a0af; now each must be refused
// with a message naming its key, or give finite results and charts that finish drawing.

/// A subnormal serial fraction: `1/f` overflowed and `format_sig` printed "infe-322%", so the
/// key figures read "Amdahl ceiling 1/f (f = infe-322%)" = "–".
#[test]
fn subnormal_serial_fraction() {
    finite_or_refused("v=1&f=5e-324", Key::SerialFraction);
    finite_or_refused("v=1&f=1e-310", Key::SerialFraction);
    finite_or_refused("v=1&fs=5e-324", Key::CompareFractions);
}

/// Near-zero bandwidth or FLOP/s: `F_eff/B_eff` overflowed, T_crit was ∞ (or 0) and
/// `Lever::apply_all` computed `exposed_scale *= ∞/∞ = NaN`: every LLM row was NaN.
#[test]
fn near_zero_bandwidth_or_flops() {
    finite_or_refused("v=1&beff=1e-300", Key::Bandwidth);
    finite_or_refused("v=1&feff=5e-324", Key::Flops);
    finite_or_refused("v=1&cm=flops&feff=5e-324", Key::Flops);
    finite_or_refused("v=1&p=1e15&pa=1e-300", Key::ActiveParams);
}

/// Measured values whose ratio overflows: the speedup was ∞, the speedup chart's y range
/// (…, ∞), and plotters never finished drawing it — the Laws panel (the default view) froze.
#[test]
fn measured_ratio_overflow() {
    finite_or_refused("v=1&m=1:1e300,2:1e-300", Key::Measured);
    finite_or_refused("v=1&m=1:1,2:5e-324", Key::Measured);
    finite_or_refused("v=1&mk=speedup&m=1:1,2:5e-324", Key::Measured);
    finite_or_refused("v=1&mk=speedup&m=1:5e-324,2:1", Key::Measured);
}

/// Exposed or step times near f64::MAX: interpolation overflowed to ∞, the step chart's y
/// range was (0, ∞) and drawing it never ended — the strong panel froze.
#[test]
fn huge_exposed_table() {
    finite_or_refused(
        "v=1&view=strong&ex=1024:1e308,4096:1.7e308",
        Key::ExposedTable,
    );
    finite_or_refused("v=1&ex=95:5e-324,96:1.7e308", Key::ExposedTable);
    finite_or_refused("v=1&em=step&st=1024:1e308,4096:1.7e308", Key::StepTable);
}

/// Compute time at the bottom of its range with no exposed time: the step is ~0 ms, so the
/// throughput B/t_step overflows ("– tok/s"), and at 5e-324 ms the efficiency is 0/0 = NaN.
#[test]
fn near_zero_step_time() {
    finite_or_refused("v=1&view=strong&tc=1e-300&ex=1:0,2:0", Key::ComputeMs);
    finite_or_refused("v=1&view=strong&tc=5e-324&ex=1:0,2:0", Key::ComputeMs);
    finite_or_refused(
        "v=1&view=strong&tc=5e-324&em=step&st=1:0,2:0",
        Key::ComputeMs,
    );
}

/// A link's written form must read back as itself: `embed=` also chooses the panel, and a
/// link with another `view=` (or a `view` tab clicked while embedded) was written without
/// `view`, which then read back as the embedded panel and rewrote itself.
#[test]
fn embed_and_view_round_trip() {
    for q in [
        "v=1&embed=plan&view=laws",
        "v=1&view=laws&embed=plan",
        "v=1&embed=weak&view=strong",
        "v=1&preset=seed-strong&embed=strong&view=laws",
    ] {
        let s = decode(q).scenario;
        let written = s.to_query();
        let again = decode(&written);
        assert!(
            again.errors.is_empty(),
            "{q} → {written}: {:?}",
            again.errors
        );
        assert_eq!(
            again.scenario.to_query(),
            written,
            "{q}: the written link {written} rewrites itself"
        );
        assert_eq!(again.scenario, s, "{q}: {written} reads back differently");
    }
}

/// The shared checker can fail: a NaN planted in any field of a row is found by its path
/// through serde, and a broken number in a text is found.
#[test]
fn the_shared_checker_finds_planted_faults() {
    #[derive(serde::Serialize)]
    struct Row {
        gpus: f64,
        step_ms: Option<f64>,
    }
    #[derive(serde::Serialize)]
    struct Sweep {
        rows: Vec<Row>,
    }
    let sweep = Sweep {
        rows: vec![
            Row {
                gpus: 1.0,
                step_ms: Some(2.0),
            },
            Row {
                gpus: 2.0,
                step_ms: Some(f64::NAN),
            },
        ],
    };
    assert_eq!(common::non_finite(&sweep), vec![".rows[1].step_ms = NaN"]);
    assert!(common::bad_text("step NaN ms"));
    assert!(common::bad_text("efficiency –"));
    assert!(!common::bad_text("Sun–Ni speedup 3.2x"));
    assert!(common::check_scenario(&decode("v=1&preset=seed-weak").scenario).is_empty());
}

/// The walls' cross-input rules each name the link's key (docs/url.md, "Cross-input rules"),
/// and what they allow draws finite numbers: unequal pipeline stages, a fixed microbatch that
/// leaves `A = 1` at the largest count.
#[test]
fn the_walls_rules_name_their_keys() {
    let shape = "nl=32&hd=4096&nh=32&sq=4096&voc=32000";
    // nh comes after tp in key order, so nh is the key reported.
    refused(
        &format!("v=1&{shape}&nh=24&tp=16"),
        Key::Heads,
        "does not divide the 24 attention heads",
    );
    refused(
        &format!("v=1&{shape}&kvh=5"),
        Key::KvHeads,
        "do not divide the 32 attention",
    );
    refused(
        "v=1&cp=2&nl=32&hd=4096&nh=32&sq=4001&voc=32000",
        Key::SeqLen,
        "does not divide the sequence",
    );
    refused(
        &format!("v=1&pp=64&{shape}"),
        Key::Layers,
        "is more than the 32 layers",
    );
    // etp comes after tp in key order: the experts' TP degree must divide TP's.
    refused(
        &format!("v=1&tp=4&{shape}&ne=8&ke=2&ep=2&etp=3"),
        Key::Etp,
        "ETP 3 does not divide the TP degree 4",
    );
    refused(
        &format!("v=1&{shape}&ne=8&ke=9"),
        Key::ExpertsPerToken,
        "more than the 8",
    );
    refused(
        &format!("v=1&{shape}&ne=8&ep=3"),
        Key::Ep,
        "does not divide the 8 experts",
    );
    refused(
        &format!("v=1&{shape}&dl=3"),
        Key::DenseLayers,
        "3 leading dense layers in a dense model",
    );
    refused(
        &format!("v=1&{shape}&ne=8&ke=2&dl=32"),
        Key::DenseLayers,
        "leave none of the 32 layers with experts",
    );
    refused(
        &format!("v=1&{shape}&qr=1536"),
        Key::QLoraRank,
        "query and RoPE widths need its compressed K/V width: give kvr",
    );
    accepted(&format!("v=1&{shape}&ne=8&ke=2&dl=31&kvr=512&rope=64"));
    refused("v=1&mbs=2", Key::Microbatch, "needs the sequence length sq");
    refused("v=1&mbs=x", Key::Microbatch, "");
    // 30 layers on 4 stages: the busiest holds 8.
    accepted("v=1&nl=30&hd=4096&nh=32&sq=4096&voc=32000&pp=4");
    // One sequence per microbatch with the seed's batch on up to 16,384 GPUs: A = 1 at
    // 16,384 (D = 16,384 > 7,812.5 sequences), where T = 32M/16,384 = 1,953.125 tokens.
    let s = accepted(&format!("v=1&{shape}&mbs=1"));
    let sweep = scaling_model::llm::LlmSweep::compute(&s.scenario.llm_inputs());
    let last = sweep.strong.last().unwrap();
    assert_eq!((last.gpus, last.accumulation), (16384.0, 1));
    assert_eq!(last.tokens_per_replica, 32e6 / 16384.0);
    let first = &sweep.strong[0];
    // 1,024 GPUs: 32M/(1,024 · 4,096) = 7.63 → A = 8, T = 3,906.25.
    assert_eq!((first.accumulation, first.tokens_per_replica), (8, 3906.25));
}
