//! "Compare": scenario A pinned inside the link (`pin=`), and what every table,
//! chart and key figure shows with it.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use scaling_core::panel::{ChartId, Panel};
use scaling_core::scenario::{decode, Key, Scenario, UrlError, View};

const A: &str = "v=1&preset=seed-strong";
/// B = the seed with fp8 parameter gathers, A = the seed, pinned.
const FP8_VS_SEED: &str = "v=1&preset=seed-strong&lv=fp8&pin=v%3D1%26preset%3Dseed-strong";

fn scenario(q: &str) -> Scenario {
    let d = decode(q);
    assert!(d.errors.is_empty(), "{q}: {:?}", d.errors);
    d.scenario
}

#[test]
fn a_pinned_scenario_is_written_last_as_one_encoded_value_and_read_back() {
    let mut b = scenario("v=1&preset=seed-strong&lv=fp8");
    b.pinned = Some(Box::new(scenario(A).as_pinned()));
    assert_eq!(b.to_query(), FP8_VS_SEED);
    assert_eq!(decode(&b.to_query()).scenario, b);
    // Values that need escaping inside A are escaped twice and come back as they were.
    let mut b = scenario("v=1&f=0.1&lang=zh");
    b.pinned = Some(Box::new(scenario("v=1&m=1:100,2:52&fs=").as_pinned()));
    let q = b.to_query();
    assert_eq!(q, "v=1&lang=zh&f=0.1&pin=v%3D1%26fs%3D%26m%3D1:100,2:52");
    assert_eq!(decode(&q).scenario, b);
    // A link without `pin` has no A, and writes none.
    assert_eq!(scenario(A).pinned, None);
    assert_eq!(scenario(A).to_query(), A);
}

#[test]
fn display_keys_and_a_nested_pin_inside_a_are_ignored() {
    let d = decode(
        "v=1&view=plan&pin=v%3D1%26preset%3Dseed-weak%26view%3Dlaws%26lang%3Dzh%26theme%3Ddark%26embed%3Dweak%26show%3Dcharts%26b%3D64M%26pin%3Dv%253D1%2526f%253Dx",
    );
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let a = d.scenario.pinned.expect("A");
    assert_eq!(
        a.view,
        View::Weak,
        "A's panel is its base's; view= inside is ignored"
    );
    assert_eq!(
        (a.lang, a.theme, a.embed, a.charts_only),
        (None, None, None, false)
    );
    assert_eq!(a.pinned, None);
    assert_eq!(a.llm.global_batch_tokens, 64e6);
    assert_eq!(d.scenario.view, View::Plan);
}

#[test]
fn bad_values_inside_pin_are_named_and_lose_nothing_else() {
    let d = decode("v=1&f=0.2&pin=v%3D1%26f%3Dabc%26n%3D1024&g=1");
    assert_eq!(d.errors.len(), 1, "{:?}", d.errors);
    let text = d.errors[0].to_string();
    assert!(text.starts_with("Pinned scenario A (pin): "), "{text}");
    assert!(text.contains("(f)") && text.contains("abc"), "{text}");
    assert_eq!(d.scenario.laws.serial_fraction, 0.2);
    assert_eq!(d.scenario.laws.growth_exponent, 1.0);
    let a = d
        .scenario
        .pinned
        .as_ref()
        .expect("A is kept with its good values");
    assert_eq!(a.laws.serial_fraction, 0.05);
    assert_eq!(a.laws.max_processors, 1024);
    // A broken cross-input rule inside A reverts A's key, not B's.
    let d = decode("v=1&tp=8&pin=v%3D1%26tp%3D3");
    assert_eq!(d.errors.len(), 1, "{:?}", d.errors);
    assert!(d.errors[0]
        .to_string()
        .contains("(pin): Tensor parallel TP (tp)"));
    assert_eq!(d.scenario.llm.tp, 8);
    assert_eq!(d.scenario.pinned.as_ref().unwrap().llm.tp, 1);
    // Not a query at all: reported and ignored; an empty pin is no pin.
    for q in ["v=1&f=0.2&pin=hello", "v=1&f=0.2&pin=%3Cscript%3E"] {
        let d = decode(q);
        assert_eq!(d.scenario.pinned, None);
        assert_eq!(d.scenario.laws.serial_fraction, 0.2);
        match d.errors.as_slice() {
            [UrlError::Input(e)] => assert_eq!(e.key, Key::Pin),
            other => panic!("{q}: {other:?}"),
        }
    }
    assert!(decode("v=1&pin=").errors.is_empty());
    // Hostile: a pin nested a thousand times, noise, a huge value. Never panics; bounded.
    let mut q = "v=1".to_string();
    for _ in 0..12 {
        q = format!(
            "v=1&pin={}",
            q.replace('%', "%25")
                .replace('&', "%26")
                .replace('=', "%3D")
        );
    }
    let d = decode(&q);
    assert!(d.scenario.pinned.is_some());
    assert!(d.scenario.pinned.unwrap().pinned.is_none());
    let _ = decode(&format!("v=1&pin={}", "%26f%3D".repeat(5000)));
    let _ = decode("v=1&pin=%%%=&&==%3D%26%3D");
    // Typed into the page (Scenario::set): refused whole on any problem.
    let mut s = Scenario::default();
    assert!(s.set(Key::Pin, "v=1&f=abc").is_err());
    assert!(s.set(Key::Pin, "nope").is_err());
    assert_eq!(s.pinned, None);
    s.set(Key::Pin, "v=1&f=0.3").unwrap();
    assert_eq!(s.pinned.as_ref().unwrap().laws.serial_fraction, 0.3);
}

/// The panel of a compared link computes A's own sweep beside B's, by hand at 1,024 and 16,384
/// GPUs (the derivation under `every_table_row_becomes_b_a_and_delta`): compute 900 ms and
/// 900 · 1,024 / 16,384 = 56.25 ms in both; exposed 100 and 300 ms in A (the seed's table), and
/// in B fp8 scales them by 2/3 to 66.67 and 200 ms; step 1,000 and 356.25 ms in A, 966.67 and
/// 256.25 ms in B. A is not compared again, and a link without `pin` has no A.
#[test]
fn panels_compute_a_too() {
    let p = Panel::compute(&scenario(FP8_VS_SEED), View::Strong);
    let a = p.pinned().expect("a pinned link computes A's panel");
    assert!(a.pinned().is_none());
    assert_eq!(a.view, View::Strong);
    let row = |panel: &Panel, gpus: f64| {
        let sweep = panel.llm().expect("an LLM sweep");
        sweep
            .strong
            .iter()
            .find(|r| r.gpus == gpus)
            .cloned()
            .unwrap()
    };
    let close = |got: f64, want: f64| (got - want).abs() <= 1e-9 * want;
    for (gpus, compute, exposed_a, step_a) in [
        (1024.0, 900.0, 100.0, 1000.0),
        (16384.0, 56.25, 300.0, 356.25),
    ] {
        let (rb, ra) = (row(&p, gpus), row(a, gpus));
        let exposed_b = exposed_a * 2.0 / 3.0;
        assert!(
            close(ra.compute_ms, compute) && close(rb.compute_ms, compute),
            "{gpus}"
        );
        assert!(
            close(ra.exposed_ms, exposed_a),
            "{gpus}: A {}",
            ra.exposed_ms
        );
        assert!(close(ra.step_ms, step_a), "{gpus}: A {}", ra.step_ms);
        assert!(
            close(rb.exposed_ms, exposed_b),
            "{gpus}: B {}",
            rb.exposed_ms
        );
        assert!(
            close(rb.step_ms, compute + exposed_b),
            "{gpus}: B {}",
            rb.step_ms
        );
    }
    assert!(Panel::compute(&scenario(A), View::Strong)
        .pinned()
        .is_none());
}

/// seed-strong with `lv=fp8` (B) against the seed (A) at 16,384 GPUs, by hand:
/// compute = 900 ms · 1,024 / 16,384 = 56.25 ms in both; exposed 300 ms in A, and fp8 scales
/// the tabulated exposed time by T_crit after/before = 2/3: 200 ms in B (Δ −33.3%); step
/// 356.25 → 256.25 ms (Δ 256.25/356.25 − 1 = −28.1%); efficiency = step(N₀)·N₀/N / step:
/// A (900+100)/16/356.25 = 17.544%, B (900+66.67)/16/256.25 = 23.577% (Δ in points:
/// +6.03 pts, not the relative +34.4% a reader would take for points);
/// throughput = B/step: Δ 356.25/256.25 − 1 = +39.0%.
#[test]
fn every_table_row_becomes_b_a_and_delta() {
    let p = Panel::compute(&scenario(FP8_VS_SEED), View::Strong);
    let t = p.tables().into_iter().find_map(|s| s.table).unwrap();
    assert_eq!(t.id, "strong");
    assert_eq!(t.headers[0], "scenario");
    assert_eq!(t.headers[1], "GPUs");
    assert_eq!(t.rows.len(), 3 * 4);
    assert_eq!(t.text_columns, &[0]);
    let col = |name: &str| t.headers.iter().position(|h| h == name).unwrap();
    let last = &t.rows[9..12];
    assert_eq!(last[0][..2], ["B", "16,384"]);
    assert_eq!(last[1][..2], ["A", "16,384"]);
    assert_eq!(last[2][..2], ["Δ", "16,384"]);
    assert_eq!(last[0][col("exposed (ms)")], "200");
    assert_eq!(last[1][col("exposed (ms)")], "300");
    assert_eq!(last[2][col("exposed (ms)")], "-33.3%");
    assert_eq!(last[2][col("compute (ms)")], "0%");
    assert_eq!(last[0][col("step (ms)")], "256.25");
    assert_eq!(last[1][col("step (ms)")], "356.25");
    assert_eq!(last[2][col("step (ms)")], "-28.1%");
    assert_eq!(last[0][col("efficiency")], "23.6%");
    assert_eq!(last[1][col("efficiency")], "17.5%");
    assert_eq!(last[2][col("efficiency")], "+6.03 pts");
    assert_eq!(last[2][col("throughput (tok/s)")], "+39%");
    // A row A does not have: B's GPU counts reach 32,768, A's stop at 16,384.
    let mut b = scenario("v=1&preset=seed-strong&ns=1024,32768");
    b.pinned = Some(Box::new(scenario(A).as_pinned()));
    let t = Panel::compute(&b, View::Strong)
        .tables()
        .remove(0)
        .table
        .unwrap();
    assert_eq!(t.rows.len(), 6);
    assert_eq!(t.rows[4][1..3], ["32,768", "—"]);
    assert!(t.rows[5][2..].iter().all(|c| c == "—"), "{:?}", t.rows[5]);
    // Every table of every panel is tripled, and the text forms carry the new column.
    for view in View::ALL {
        let plain = Panel::compute(&scenario(A), view).tables();
        let p = Panel::compute(&scenario(FP8_VS_SEED), view);
        for (slot, plain) in p.tables().into_iter().zip(plain) {
            let (Some(t), Some(plain)) = (slot.table, plain.table) else {
                continue;
            };
            assert_eq!(t.rows.len(), 3 * plain.rows.len(), "{}", t.id);
            assert_eq!(t.headers.len(), plain.headers.len() + 1, "{}", t.id);
            assert!(t.to_markdown().contains("| Δ |"), "{}", t.id);
            assert!(t.to_csv().contains("\r\nA,"), "{}", t.id);
        }
    }
}

#[test]
fn key_figures_show_both() {
    let p = Panel::compute(&scenario(FP8_VS_SEED), View::Strong);
    let f = p.figures();
    assert!(f[0].0.starts_with("Overlap threshold T_crit"), "{f:?}");
    assert_eq!(
        f[0].1,
        "2.47k tokens per replica (A: 3.7k tokens per replica)"
    );
    let plain = Panel::compute(&scenario(A), View::Strong).figures();
    assert_eq!(f.len(), plain.len());
}

#[test]
fn every_line_chart_draws_a_faded_under_b() {
    let b = Panel::compute(&scenario(FP8_VS_SEED), View::Strong);
    let plain = Panel::compute(&scenario("v=1&preset=seed-strong&lv=fp8"), View::Strong);
    let a = Panel::compute(&scenario(A), View::Strong);
    for view in View::ALL {
        let b = Panel::compute(&scenario(FP8_VS_SEED), view);
        for chart in b.charts() {
            let Some(c) = b.describe(chart) else {
                assert!(matches!(chart, ChartId::StrongBoxes | ChartId::WeakBoxes));
                continue;
            };
            let n = c.series.len();
            assert_eq!(c.faded * 2, n, "{}", chart.id());
            assert!(c.series[..c.faded]
                .iter()
                .all(|s| s.label.ends_with(" (A)")));
            assert!(c.series[c.faded..]
                .iter()
                .all(|s| s.label.ends_with(" (B)")));
        }
    }
    let c = b.describe(ChartId::StrongStep).unwrap();
    let (cb, ca) = (
        plain.describe(ChartId::StrongStep).unwrap(),
        a.describe(ChartId::StrongStep).unwrap(),
    );
    assert_eq!(c.series.len(), cb.series.len() + ca.series.len());
    assert_eq!(c.series[0].label, format!("{} (A)", ca.series[0].label));
    assert_eq!(c.series[c.faded].points, cb.series[0].points);
    assert_eq!(c.markers, cb.markers);
    assert_eq!(c.y_range.1, cb.y_range.1.max(ca.y_range.1));
    // Drawn: the SVG has the A and B labels; the boxes name A under them.
    for chart in [ChartId::StrongStep, ChartId::StrongBoxes] {
        let svg = scaling_core::chart::svg::render(scaling_core::chart::svg::SIZE, |root| {
            b.draw(chart, root, &Default::default()).map(|_| ())
        })
        .unwrap();
        assert!(
            svg.contains(if chart == ChartId::StrongBoxes {
                "A: B_global 32M"
            } else {
                " (A)"
            }),
            "{}",
            chart.id()
        );
    }
}

#[test]
fn the_json_carries_a_inside() {
    let doc = scaling_core::panel::document(FP8_VS_SEED, None);
    assert_eq!(doc["panel"], "strong");
    assert_eq!(doc["query"], FP8_VS_SEED);
    assert_eq!(doc["compare"]["a"]["query"], A);
    assert_eq!(doc["compare"]["a"]["summary"]["t_crit_tokens"], 3700.0);
}
