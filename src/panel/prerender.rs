//! The first view written at build time: the default scenario's key
//! figures, tables, chart summaries and charts as HTML, so that the first paint is the real
//! page and a reader without JavaScript (or a crawler, or a print service) reads the numbers.
//! `scaling prerender` prints these fragments as JSON; `scripts/prerender.mjs` writes them
//! into `index.html` at the ids the page itself writes to, so the page's first frame replaces
//! them with the same content, and removes the charts' SVG once their canvases are drawn.
//!
//! The HTML mirrors what the page's glue builds (`crates/web/src/dom.rs`): the same elements,
//! attributes and classes, so nothing moves when the page takes over.

use super::export_rows::{chart_row, row_html, table_row};
use super::table::Table;
use super::{ChartId, Panel};
use crate::chart::svg::{render, SIZE};
use crate::chart::ChartStyle;
use crate::controls::SliderSpec;
use crate::scenario::{Key, Lever, Scenario, View};
use crate::text::html::escape;
use serde::Serialize;

/// The panels written into `index.html`, each with the scenario's values: the default view and
/// the two the article is about, so that a link to any of them (or an embed of one) with the
/// default inputs paints the real page before the model is in. `www/index.html`'s first
/// script names the same views. The Plan panel is left out for the size budget: the three fit
/// within `PRERENDER_BUDGET` of tests/e2e/size.test.mjs, and the Plan's would take them past it.
pub const PRERENDERED_VIEWS: [View; 3] = [View::Laws, View::Strong, View::Weak];

/// One piece of the first view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fragment {
    /// The element the piece belongs to.
    pub id: String,
    /// `inside`: the element's content (it is empty in `index.html`); `after`: inserted right
    /// after the element (a chart's SVG after its canvas).
    pub place: Place,
    pub html: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    Inside,
    After,
    /// At the end of the element's content.
    Append,
    /// The control's value (`html` is its text): a box's `value`, a menu's `selected` option,
    /// a checkbox `checked` for `1`; a text area's content, which must be empty.
    Value,
    /// A slider's `aria-valuetext`.
    ValueText,
}

/// The class of a prerendered chart: the page removes every element with it once it has
/// drawn, and the style sheet lays it over its canvas.
pub const PRERENDERED_CLASS: &str = "prerendered";

/// The key figures as the page writes them into `table#…-figures`: a body of rows, each a row
/// header and a value.
pub fn figures_html(figures: &[(String, String)]) -> String {
    let mut out = String::from("<tbody>");
    for (label, value) in figures {
        out.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td></tr>",
            escape(label),
            escape(value)
        ));
    }
    out.push_str("</tbody>");
    out
}

/// A table as the page writes it into its container `id` (`dom::render_table`): a focusable
/// region named by the caption, the header row, and body rows whose first cell is a row
/// header; cells carry their column's class ([`Table::column_class`]).
pub fn table_html(id: &str, table: &Table) -> String {
    let kind = |i: usize| match table.column_class(i) {
        "" => String::new(),
        class => format!(" class=\"{class}\""),
    };
    let mut out = format!(
        "<div role=\"region\" tabindex=\"0\" aria-labelledby=\"{id}-caption\">\
         <table data-table=\"{}\"><caption id=\"{id}-caption\">{}</caption><thead><tr>",
        table.id,
        escape(&table.caption)
    );
    for (i, h) in table.headers.iter().enumerate() {
        let pieces: Vec<String> = super::table::header_pieces(h)
            .into_iter()
            .map(escape)
            .collect();
        out.push_str(&format!(
            "<th scope=\"col\"{}>{}</th>",
            kind(i),
            pieces.join("<wbr>")
        ));
    }
    out.push_str("</tr></thead><tbody>");
    for (r, row) in table.rows.iter().enumerate() {
        out.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            let c = match table.folded(r, i) {
                Some(f) => format!("{}<span class=\"fold\">{}</span>", escape(c), escape(f)),
                None => escape(c),
            };
            if i == 0 {
                out.push_str(&format!("<th scope=\"row\"{}>{c}</th>", kind(i)));
            } else {
                out.push_str(&format!("<td{}>{c}</td>", kind(i)));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

/// A chart as the SVG the CLI and the page's export write, marked as prerendered and hidden
/// from assistive technology (its canvas carries the chart's name and summary).
pub fn chart_svg(panel: &Panel, chart: ChartId) -> Option<String> {
    sized_svg(panel, chart, SIZE)
}

/// The size of a Learn view figure's canvas (`www/learn/*.html`: `<canvas width="560"
/// height="320">`, laid out at 7:4).
pub const FIGURE_SIZE: (u32, u32) = (560, 320);

/// A Learn view figure (`figure.learn-fig`: its `data-chart` drawn for its `data-query`, as
/// the page's `learn::draw` does), prerendered at [`FIGURE_SIZE`] for the view's texts.
pub fn figure_svg(chart: ChartId, scenario: &Scenario) -> Option<String> {
    sized_svg(&Panel::compute(scenario, chart.view()), chart, FIGURE_SIZE)
}

fn sized_svg(panel: &Panel, chart: ChartId, size: (u32, u32)) -> Option<String> {
    let svg = render(size, |root| {
        panel.draw(chart, root, &ChartStyle::default()).map(|_| ())
    })
    .ok()?;
    // `opacity="1"` is SVG's default, on nearly every element plotters writes: dropped, it
    // makes the first view's HTML smaller and draws the same. So do the line breaks plotters
    // writes between elements and around each text's content: SVG ignores the first and strips
    // the second (`xml:space="default"`).
    svg.strip_prefix("<svg ").map(|rest| {
        let svg = merge_polylines(&short_font_sizes(&rest.replace(" opacity=\"1\"", "")));
        format!(
            "<svg class=\"{PRERENDERED_CLASS}\" aria-hidden=\"true\" focusable=\"false\" {}",
            svg.replace(">\n", ">").replace("\n<", "<").trim_end()
        )
    })
}

/// Font sizes to a tenth of a pixel (plotters writes `font-size="12.096774193548388"`, the
/// chart's scale times a point size): the same text within 0.05 px, in fewer bytes of the
/// first view's HTML.
fn short_font_sizes(svg: &str) -> String {
    const ATTR: &str = "font-size=\"";
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find(ATTR) {
        let (head, tail) = rest.split_at(at + ATTR.len());
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        match tail[..end].parse::<f64>() {
            Ok(px) => out.push_str(&format!("{}", (px * 10.0).round() / 10.0)),
            Err(_) => out.push_str(&tail[..end]),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// Runs of `<polyline>`s that differ only in their points (a dashed curve is hundreds of
/// two-point polylines) as one `<path>` of as many subpaths: the same strokes, in the same
/// order, in about a third of the bytes.
fn merge_polylines(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    // The attributes of the run being merged, and its path data.
    let mut run: Option<(String, String)> = None;
    // Where the run's path data left the pen: the next subpath moves from there.
    let mut pen: Option<(i64, i64)> = None;
    let flush = |out: &mut String, run: &mut Option<(String, String)>| {
        if let Some((attrs, d)) = run.take() {
            out.push_str(&format!("<path {attrs} d=\"{d}\"/>\n"));
        }
    };
    for line in svg.lines() {
        let polyline = line
            .strip_prefix("<polyline ")
            .and_then(|rest| rest.strip_suffix("\"/>"))
            .and_then(|rest| rest.split_once(" points=\""))
            .map(|(attrs, points)| (attrs.to_string(), points.to_string()))
            .or_else(|| as_polyline(line));
        match polyline {
            Some((attrs, points)) => {
                let (attrs, points) = (attrs.as_str(), points.as_str());
                if !matches!(&run, Some((a, _)) if a == attrs) {
                    flush(&mut out, &mut run);
                    run = Some((attrs.to_string(), String::new()));
                    pen = None;
                }
                if let Some((_, d)) = &mut run {
                    pen = path_data(d, points, pen);
                }
            }
            None => {
                flush(&mut out, &mut run);
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    flush(&mut out, &mut run);
    out
}

/// A `<line … x1="a" y1="b" x2="c" y2="d"/>` (a grid line, an axis tick) as the attributes
/// and points of the same stroke drawn as a polyline, so that runs of them merge too.
fn as_polyline(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix("<line ")?.strip_suffix("\"/>")?;
    let (attrs, coords) = rest.split_once(" x1=\"")?;
    let (x1, rest) = coords.split_once("\" y1=\"")?;
    let (y1, rest) = rest.split_once("\" x2=\"")?;
    let (x2, y2) = rest.split_once("\" y2=\"")?;
    Some((
        format!("fill=\"none\" {attrs}"),
        format!("{x1},{y1} {x2},{y2} "),
    ))
}

/// Appends a polyline's `points` ("x,y x,y …") to the path data `d`, whose pen is at `pen`
/// (`None`: a new path), and returns where the pen is then. Whole-pixel points (what plotters
/// writes) go as relative steps — `m` from the pen, then implicit `l`s, `M72 504l8-5 9-5` —
/// which repeat from point to point along a smooth curve, so they compress to a fraction of the
/// absolute ones (the first view's size budget); any other point is written absolute.
fn path_data(d: &mut String, points: &str, mut pen: Option<(i64, i64)>) -> Option<(i64, i64)> {
    // A number after a digit needs a space; a minus sign separates by itself.
    let number = |d: &mut String, n: i64| {
        if n >= 0 && d.ends_with(|c: char| c.is_ascii_digit()) {
            d.push(' ');
        }
        d.push_str(&n.to_string());
    };
    // After an absolute point the next relative step needs its own `l`.
    let mut absolute = false;
    for (i, point) in points.split_whitespace().enumerate() {
        let whole = point
            .split_once(',')
            .and_then(|(x, y)| Some((x.parse::<i64>().ok()?, y.parse::<i64>().ok()?)));
        match (whole, pen) {
            (Some((x, y)), Some((px, py))) => {
                if i == 0 {
                    d.push('m');
                } else if absolute {
                    d.push('l');
                }
                absolute = false;
                number(d, x - px);
                number(d, y - py);
                pen = Some((x, y));
            }
            _ => {
                d.push(if i == 0 { 'M' } else { 'L' });
                d.push_str(&point.replace(',', " "));
                pen = whole;
                absolute = true;
            }
        }
    }
    pen
}

/// Every piece of the first view: [`fragments`] of each of [`PRERENDERED_VIEWS`] with
/// `scenario`'s inputs, each element once (the Strong and Weak panels share a few texts), and
/// the inputs' values ([`controls`]).
pub fn first_view(scenario: &Scenario) -> Vec<Fragment> {
    let mut out: Vec<Fragment> = Vec::new();
    for view in PRERENDERED_VIEWS {
        let on_view = Scenario {
            view,
            ..scenario.clone()
        };
        for f in fragments(&on_view) {
            if !out.iter().any(|o| o.id == f.id && o.place == f.place) {
                out.push(f);
            }
        }
    }
    out.extend(controls(scenario));
    out
}

/// The inputs as the page writes them (`crates/web/src/inputs.rs`, `sync_all_controls`), so
/// that the first paint (and a reader without JavaScript) shows the scenario's values, not
/// empty boxes and sliders at their middles, and the page's start writes only what differs:
/// each key's link text into `#<key>-input`, each slider's position and spoken value, each
/// lever's checkbox.
pub fn controls(scenario: &Scenario) -> Vec<Fragment> {
    let value = |id: String, text: &str| Fragment {
        id,
        place: Place::Value,
        html: escape(text),
    };
    let mut out = Vec::new();
    for &key in Key::ALL {
        out.push(value(
            format!("{}-input", key.name()),
            &scenario.get_text(key),
        ));
        if let Some(spec) = SliderSpec::for_key(key) {
            let now = spec.current(scenario);
            let id = format!("{}-range", key.name());
            out.push(value(id.clone(), &spec.position_of(now).to_string()));
            out.push(Fragment {
                id,
                place: Place::ValueText,
                html: escape(&spec.value_text(now)),
            });
        }
    }
    for lever in Lever::ALL {
        let on = scenario.plan.levers.contains(&lever);
        out.push(value(
            format!("lv-{}", lever.key()),
            if on { "1" } else { "0" },
        ));
    }
    out
}

/// Every piece of `scenario`'s panel on its own view: figures, tables, texts and charts.
pub fn fragments(scenario: &Scenario) -> Vec<Fragment> {
    let panel = Panel::compute(scenario, scenario.view);
    let shown = panel.shown();
    let mut out = vec![Fragment {
        id: panel.figures_id().to_string(),
        place: Place::Inside,
        html: figures_html(&shown.figures),
    }];
    for slot in &shown.tables {
        if let Some(table) = &slot.table {
            // The page shows a table in `#<id>-table` (`exports::show_table`), its export
            // buttons right after it.
            let container = format!("{}-table", slot.id);
            out.push(Fragment {
                id: container.clone(),
                place: Place::After,
                html: row_html(&table_row(slot.id)),
            });
            out.push(Fragment {
                html: table_html(&container, table),
                id: container,
                place: Place::Inside,
            });
        }
    }
    for (id, text) in &shown.texts {
        out.push(Fragment {
            id: (*id).to_string(),
            place: Place::Inside,
            html: escape(text),
        });
    }
    for chart in panel.charts() {
        if let Some(svg) = chart_svg(&panel, chart) {
            out.push(Fragment {
                id: format!("{}-canvas", chart.id()),
                place: Place::After,
                html: svg,
            });
        }
        out.push(Fragment {
            id: chart.id().to_string(),
            place: Place::Append,
            html: row_html(&chart_row(chart)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polylines_that_differ_only_in_points_become_one_path() {
        let svg = "<svg>\n<polyline fill=\"none\" stroke=\"#000\" points=\"1,2 3,4 \"/>\n\
                   <polyline fill=\"none\" stroke=\"#000\" points=\"5,6 7,8 \"/>\n\
                   <polyline fill=\"none\" stroke=\"#F00\" points=\"0,0 1,1 \"/>\n</svg>";
        assert_eq!(
            merge_polylines(svg),
            "<svg>\n<path fill=\"none\" stroke=\"#000\" d=\"M1 2l2 2m2 2 2 2\"/>\n\
             <path fill=\"none\" stroke=\"#F00\" d=\"M0 0l1 1\"/>\n</svg>\n"
        );
    }

    #[test]
    fn lines_merge_like_polylines() {
        let svg = "<line stroke=\"#E4E7EB\" stroke-width=\"1\" x1=\"72\" y1=\"509\" x2=\"72\" y2=\"35\"/>\n\
                   <line stroke=\"#E4E7EB\" stroke-width=\"1\" x1=\"208\" y1=\"509\" x2=\"208\" y2=\"35\"/>";
        assert_eq!(
            merge_polylines(svg),
            "<path fill=\"none\" stroke=\"#E4E7EB\" stroke-width=\"1\" d=\"M72 509l0-474m136 474 0-474\"/>\n"
        );
    }

    #[test]
    fn path_steps_are_relative_between_whole_pixels_and_absolute_otherwise() {
        let mut d = String::new();
        let pen = path_data(&mut d, "10,20 18,15 27,15 ", None);
        assert_eq!((d.as_str(), pen), ("M10 20l8-5 9 0", Some((27, 15))));
        let pen = path_data(&mut d, "20,30 19,31 ", pen);
        assert_eq!(
            (d.as_str(), pen),
            ("M10 20l8-5 9 0m-7 15-1 1", Some((19, 31)))
        );
        let pen = path_data(&mut d, "1.5,2 3,4 ", pen);
        assert_eq!(d, "M10 20l8-5 9 0m-7 15-1 1M1.5 2L3 4");
        assert_eq!(pen, Some((3, 4)));
    }

    #[test]
    fn the_first_view_holds_the_three_panels_each_element_once() {
        let frags = first_view(&Scenario::default());
        for id in ["laws-figures", "strong-figures", "weak-figures"] {
            assert!(frags.iter().any(|f| f.id == id), "{id} is prerendered");
        }
        assert!(
            !frags.iter().any(|f| f.id == "plan-figures"),
            "the Plan waits hidden"
        );
        for (i, f) in frags.iter().enumerate() {
            assert!(
                !frags[..i]
                    .iter()
                    .any(|o| o.id == f.id && o.place == f.place),
                "{} {:?} written twice",
                f.id,
                f.place
            );
        }
        // Each chart of the three panels has its SVG after its canvas: Laws 3, Strong 6, Weak 6.
        let svgs = frags.iter().filter(|f| f.html.starts_with("<svg")).count();
        assert_eq!(svgs, 15);
    }

    #[test]
    fn the_inputs_are_written_with_the_scenario_s_values() {
        let frags = controls(&Scenario::default());
        let find = |id: &str, place: Place| {
            frags
                .iter()
                .find(|f| f.id == id && f.place == place)
                .map(|f| f.html.as_str())
        };
        // f = 0.05 (the default, as its link writes it): its box, and its slider on the log scale of 10^-4 … 1 over
        // positions 1 … 1000 (0 is f = 0): 1 + 999·ln(0.05/1e-4)/ln(1e4) = 675.07 → 675.
        assert_eq!(find("f-input", Place::Value), Some("0.05"));
        assert_eq!(find("f-range", Place::Value), Some("675"));
        assert_eq!(find("f-range", Place::ValueText), Some("f = 5%"));
        // Every key has its box, every slider its position and spoken value, every lever its
        // checkbox (none ticked by default).
        let sliders = Key::ALL
            .iter()
            .filter(|&&k| SliderSpec::for_key(k).is_some())
            .count();
        assert_eq!(frags.len(), Key::ALL.len() + 2 * sliders + Lever::ALL.len());
        for lever in Lever::ALL {
            assert_eq!(
                find(&format!("lv-{}", lever.key()), Place::Value),
                Some("0")
            );
        }
        let mut with_lever = Scenario::default();
        with_lever.plan.levers = vec![Lever::ALL[0]];
        let on = format!("lv-{}", Lever::ALL[0].key());
        assert!(controls(&with_lever)
            .iter()
            .any(|f| f.id == on && f.html == "1"));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape("a < b & \"c\" > d"),
            "a &lt; b &amp; &quot;c&quot; &gt; d"
        );
        assert_eq!(
            figures_html(&[("N <".into(), "1 & 2".into())]),
            "<tbody><tr><th scope=\"row\">N &lt;</th><td>1 &amp; 2</td></tr></tbody>"
        );
    }
}
