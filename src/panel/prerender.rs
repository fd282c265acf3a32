//! The first view written at build time (issue 24, item 1): the default scenario's key
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
use crate::scenario::Scenario;
use serde::Serialize;

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
}

/// The class of a prerendered chart: the page removes every element with it once it has
/// drawn, and the style sheet lays it over its canvas.
pub const PRERENDERED_CLASS: &str = "prerendered";

/// Text for HTML content and attribute values: `&`, `<`, `>`, `"` escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

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
/// header; word columns carry `class="text"`.
pub fn table_html(id: &str, table: &Table) -> String {
    let kind = |i: usize| {
        if table.text_columns.contains(&i) {
            " class=\"text\""
        } else {
            ""
        }
    };
    let mut out = format!(
        "<div role=\"region\" tabindex=\"0\" aria-labelledby=\"{id}-caption\">\
         <table data-table=\"{}\"><caption id=\"{id}-caption\">{}</caption><thead><tr>",
        table.id,
        escape(&table.caption)
    );
    for (i, h) in table.headers.iter().enumerate() {
        out.push_str(&format!("<th scope=\"col\"{}>{}</th>", kind(i), escape(h)));
    }
    out.push_str("</tr></thead><tbody>");
    for row in &table.rows {
        out.push_str("<tr>");
        for (i, c) in row.iter().enumerate() {
            if i == 0 {
                out.push_str(&format!("<th scope=\"row\"{}>{}</th>", kind(i), escape(c)));
            } else {
                out.push_str(&format!("<td{}>{}</td>", kind(i), escape(c)));
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
    let svg = render(SIZE, |root| {
        panel.draw(chart, root, &ChartStyle::default()).map(|_| ())
    })
    .ok()?;
    // `opacity="1"` is SVG's default, on nearly every element plotters writes: dropped, it
    // saves ~350 B gzipped of the first view's HTML and draws the same.
    svg.strip_prefix("<svg ").map(|rest| {
        format!(
            "<svg class=\"{PRERENDERED_CLASS}\" aria-hidden=\"true\" focusable=\"false\" {}",
            merge_polylines(&rest.replace(" opacity=\"1\"", "")).trim_end()
        )
    })
}

/// Runs of `<polyline>`s that differ only in their points (a dashed curve is hundreds of
/// two-point polylines) as one `<path>` of as many subpaths: the same strokes, in the same
/// order, in about a third of the bytes.
fn merge_polylines(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    // The attributes of the run being merged, and its path data.
    let mut run: Option<(String, String)> = None;
    let flush = |out: &mut String, run: &mut Option<(String, String)>| {
        if let Some((attrs, d)) = run.take() {
            out.push_str(&format!("<path {attrs} d=\"{d}\"/>\n"));
        }
    };
    for line in svg.lines() {
        let polyline = line
            .strip_prefix("<polyline ")
            .and_then(|rest| rest.strip_suffix("\"/>"))
            .and_then(|rest| rest.split_once(" points=\""));
        match polyline {
            Some((attrs, points)) => {
                let mut d = String::new();
                for (i, p) in points.split_whitespace().enumerate() {
                    d.push(if i == 0 { 'M' } else { 'L' });
                    d.push_str(&p.replace(',', " "));
                }
                match &mut run {
                    Some((a, data)) if a == attrs => data.push_str(&d),
                    _ => {
                        flush(&mut out, &mut run);
                        run = Some((attrs.to_string(), d));
                    }
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
            "<svg>\n<path fill=\"none\" stroke=\"#000\" d=\"M1 2L3 4M5 6L7 8\"/>\n\
             <path fill=\"none\" stroke=\"#F00\" d=\"M0 0L1 1\"/>\n</svg>\n"
        );
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
