//! The charts as a reader sees them, drawn through the SVG backend (the same code draws the
//! page's canvas): titles, legends, the annotated ceiling and 50% point, measured points.
#![cfg(not(target_arch = "wasm32"))] // native only; crates/web/tests/web.rs runs in the browser

use crate::common::tol;
use plotters::prelude::*;
use scaling_core::chart::{laws, ChartStyle};
use scaling_core::scenario::decode;
use scaling_model::sweep::LawsSweep;

fn sweep(query: &str) -> LawsSweep {
    let d = decode(query);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    LawsSweep::compute(&d.scenario.laws_inputs())
}

fn svg(draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>)) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (900, 560)).into_drawing_area();
        draw(&root);
    }
    out
}

#[test]
fn speedup_chart_annotates_ceiling_and_half_point() {
    let s = sweep("v=1&f=0.1");
    let doc = svg(|root| {
        let area = laws::draw_speedup(root, &s, &ChartStyle::default()).unwrap();
        // The plot area maps its left edge to N = 1 and its right edge to N = 4096.
        assert!(
            (area.x_at(area.left_px as f64, area.top_px as f64).unwrap() - 1.0).abs() < tol::CHAIN
        );
        let right = area.x_at(area.right_px as f64, area.top_px as f64).unwrap();
        assert!((right - 4096.0).abs() < tol::PRINTED);
    });
    assert!(doc.contains("Speedup S(N)"));
    assert!(doc.contains("ceiling 1/f = 10x"), "ceiling label missing");
    assert!(doc.contains("E = 50% at N = 11"));
    for legend in [
        "Amdahl f=10%",
        "Gustafson f=10%",
        "Sun–Ni f=10%, g=0.5",
        "ideal S = N",
        "Amdahl f=1%",
        "Amdahl f=25%",
    ] {
        assert!(doc.contains(legend), "legend {legend} missing");
    }
    // Many polylines: ideal, 3 laws, 3 comparisons, ceiling.
    assert!(doc.matches("<polyline").count() + doc.matches("<path").count() >= 8);
}

#[test]
fn f_zero_has_no_ceiling_drawn() {
    let s = sweep("v=1&f=0");
    let doc = svg(|root| {
        laws::draw_speedup(root, &s, &ChartStyle::default()).unwrap();
    });
    assert!(!doc.contains("ceiling"));
    assert!(!doc.contains("NaN"));
}

#[test]
fn efficiency_chart_marks_fifty_percent() {
    let s = sweep("v=1");
    let doc = svg(|root| {
        laws::draw_efficiency(root, &s, &ChartStyle::default()).unwrap();
    });
    assert!(doc.contains("Parallel efficiency"));
    assert!(doc.contains("50%"));
    assert!(doc.contains("Gustafson f=5%"));
}

#[test]
fn karp_flatt_chart_shows_the_fit_and_measured_points() {
    let s = sweep("v=1&preset=karp-flatt");
    let doc = svg(|root| {
        laws::draw_karp_flatt(root, &s, &ChartStyle::default()).unwrap();
    });
    assert!(doc.contains("fitted f = 3.2%"), "fit missing");
    assert!(doc.contains("N = 64: 3.7%"));
    // One dot per N > 1, plus the ring of the labelled last point.
    assert_eq!(doc.matches("<circle").count(), 7);
    let empty = sweep("v=1");
    let doc = svg(|root| {
        laws::draw_karp_flatt(root, &empty, &ChartStyle::default()).unwrap();
    });
    assert!(doc.contains("Paste measured points"));
}

fn largest_font(doc: &str) -> f64 {
    doc.split("font-size=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next()?.parse::<f64>().ok())
        .fold(0.0, f64::max)
}

#[test]
fn hidpi_scale_enlarges_fonts() {
    let s = sweep("v=1");
    let at = |scale: f64| {
        svg(|root| {
            let style = ChartStyle {
                scale,
                ..ChartStyle::default()
            };
            laws::draw_speedup(root, &s, &style).unwrap();
        })
    };
    let ratio = largest_font(&at(2.0)) / largest_font(&at(1.0));
    assert!(
        (ratio - 2.0).abs() < tol::CHAIN,
        "title font grew by {ratio}"
    );
}

/// The `y` of the SVG text element whose text is `label`.
fn text_y(doc: &str, label: &str) -> f64 {
    let end = doc
        .find(&format!(">\n{label}\n</text>"))
        .unwrap_or_else(|| panic!("no text {label}"));
    let start = doc[..end].rfind("<text").unwrap();
    let attrs = &doc[start..end];
    let y = attrs.split(" y=\"").nth(1).unwrap();
    y[..y.find('"').unwrap()].parse().unwrap()
}

#[test]
fn on_a_narrow_canvas_the_legend_goes_under_the_plot() {
    use scaling_core::chart::svg;
    let s = sweep("v=1&f=0.1");
    for (size, below) in [((360, 400), true), (svg::SIZE, false)] {
        let mut bottom = 0;
        let doc = svg::render(size, |root| {
            bottom = laws::draw_speedup(root, &s, &ChartStyle::default())?.bottom_px;
            Ok(())
        })
        .unwrap();
        for legend in ["Amdahl f=10%", "ideal S = N", "Amdahl f=25%"] {
            let y = text_y(&doc, legend);
            // Under the x axis and its labels (40 px), or inside the plot.
            assert_eq!(
                y > (bottom + 40) as f64,
                below,
                "{size:?}: legend {legend} at y = {y}, plot bottom {bottom}"
            );
            assert!(
                y < size.1 as f64,
                "{size:?}: legend {legend} off the canvas"
            );
        }
    }
}
