//! The shared panel checker: one walk over everything the panel layer computes and shows, used
//! by `fuzz_decode.rs`, `numeric_edges.rs` and `zh_catalogue.rs` instead of each listing the
//! panels, tables and charts by hand.
//!
//! - Every number: the sweeps, lever rows and shown texts are walked through serde
//!   (`serde-value`, which keeps NaN and ∞), so a field added to a row is checked without
//!   anyone adding it here.
//! - Every text a reader sees — key figures, table captions, headers and cells, summaries,
//!   notes, the checklist, chart titles, legends, markers and hover readouts — has no `NaN`,
//!   `inf`, `undefined` or a `–` standing in for a number (except the cells where `–` is the
//!   documented "no value": Karp–Flatt at N = 1, a plan strategy without a batch).
//! - Every line chart's ranges are finite and ordered, its points finite.
#![allow(dead_code)] // each test binary uses part of it

pub mod corpus;

use scaling_core::chart::line::LineChart;
use scaling_core::chart::{svg, ChartStyle};
use scaling_core::panel::table::Table;
use scaling_core::panel::{ChartId, Panel};
use scaling_core::scenario::{Scenario, View};
use serde::Serialize;
use serde_value::Value;

/// The scenario computed for each of the page's panels.
pub fn panels(scenario: &Scenario) -> Vec<Panel> {
    View::ALL
        .into_iter()
        .map(|v| Panel::compute(scenario, v))
        .collect()
}

/// A problem found: its kind (for grouping) and the details.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub kind: String,
    pub detail: String,
}

fn problem(kind: impl Into<String>, detail: impl Into<String>) -> Problem {
    Problem {
        kind: kind.into(),
        detail: detail.into(),
    }
}

/// Paths of the non-finite numbers in `value`, e.g. `rows[3].step_ms = NaN`.
pub fn non_finite(value: &impl Serialize) -> Vec<String> {
    let mut out = Vec::new();
    match serde_value::to_value(value) {
        Ok(v) => walk(&v, &mut String::new(), &mut out),
        Err(e) => out.push(format!("(not serialisable: {e})")),
    }
    out
}

fn walk(v: &Value, path: &mut String, out: &mut Vec<String>) {
    let len = path.len();
    match v {
        Value::F64(x) if !x.is_finite() => out.push(format!("{path} = {x}")),
        Value::F32(x) if !x.is_finite() => out.push(format!("{path} = {x}")),
        Value::Option(Some(inner)) | Value::Newtype(inner) => walk(inner, path, out),
        Value::Seq(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push_str(&format!("[{i}]"));
                walk(item, path, out);
                path.truncate(len);
            }
        }
        Value::Map(map) => {
            for (k, item) in map {
                match k {
                    Value::String(k) => path.push_str(&format!(".{k}")),
                    other => path.push_str(&format!(".{other:?}")),
                }
                walk(item, path, out);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Compound words that legitimately hold an en dash.
pub fn strip_words(text: &str) -> String {
    let mut t = text.to_string();
    for w in ["Sun–Ni", "Karp–Flatt", "loss–token", "Loss–token", "r_inf"] {
        t = t.replace(w, "");
    }
    t
}

/// Text that shows a broken number.
pub fn bad_text(text: &str) -> bool {
    let t = strip_words(text);
    t.contains("NaN")
        || t.contains("inf")
        || t.contains("Infinity")
        || t.contains("undefined")
        || t.contains('∞')
        || t.contains('–')
}

/// The `x` values at which each chart's hover readout is read: the ends of the panel's range
/// and a point inside.
fn readout_points(panel: &Panel) -> Vec<f64> {
    let mut xs = vec![1.0, 3.0];
    if let Some(s) = panel.laws() {
        xs.push(s.max_processors);
    }
    if let Some(s) = panel.llm() {
        xs.extend([s.summary.baseline_gpus, s.gpu_range.1]);
    }
    if let Some(p) = panel.plan() {
        xs.push(p.gpu_range.1);
    }
    xs
}

/// Every text the panel shows or reads out, each with where it is shown.
pub fn texts(panel: &Panel) -> Vec<(String, String)> {
    let view = panel.view.key();
    let shown = panel.shown();
    let mut out = Vec::new();
    for (label, value) in &shown.figures {
        out.push((format!("{view} key figure"), format!("{label}: {value}")));
    }
    for slot in &shown.tables {
        if let Some(t) = &slot.table {
            out.push((format!("table {} caption", t.id), t.caption.clone()));
            for h in &t.headers {
                out.push((format!("table {} header", t.id), h.clone()));
            }
            for row in &t.rows {
                for (c, cell) in row.iter().enumerate() {
                    let header = t.headers.get(c).map_or("?", |h| h.as_str());
                    out.push((format!("table {} column {header:?}", t.id), cell.clone()));
                }
            }
        }
    }
    for (id, text) in &shown.texts {
        out.push((format!("#{id}"), text.clone()));
    }
    for (id, items) in &shown.lists {
        for item in items {
            out.push((format!("#{id} item"), item.clone()));
        }
    }
    for chart in panel.charts() {
        for x in readout_points(panel) {
            if let Some(t) = panel.readout(chart, x) {
                out.push((format!("{} readout", chart.id()), t));
            }
        }
        if let Some(c) = panel.describe(chart) {
            out.push((format!("{} title", chart.id()), c.title.clone()));
            for s in &c.series {
                out.push((format!("{} legend", chart.id()), s.label.clone()));
            }
            for m in &c.markers {
                out.push((format!("{} marker", chart.id()), m.label.clone()));
            }
            for co in &c.callouts {
                out.push((format!("{} callout", chart.id()), co.label.clone()));
            }
            if let Some((_, label)) = &c.shade_from {
                out.push((format!("{} shade", chart.id()), label.clone()));
            }
        }
    }
    out
}

/// Where a `–` in a table cell is the documented "no value" rather than a broken number.
fn dash_allowed(panel: &Panel, table: &Table, row: usize, column: usize) -> bool {
    match table.id {
        // Karp–Flatt is undefined at N = 1 (and only there).
        "laws-measured" => {
            column == 3
                && panel
                    .laws()
                    .and_then(|s| s.measured.as_ref())
                    .is_some_and(|m| m.rows[row].processors == 1.0)
        }
        // The fit table: no leave-one-out error for a point the fit did not use (or with two
        // fit points), no Karp–Flatt value for the first point.
        "strong-fit" | "weak-fit" => matches!(column, 5 | 6),
        // The best-batch search may find no batch at a GPU count; with lay=best, a row where
        // no layout fits has no time to quality with the best layout.
        "plan" => {
            let plan_row = panel.plan().map(|p| &p.rows[row]);
            (matches!(column, 9 | 10) && plan_row.is_some_and(|r| r.best.is_none()))
                || (table.headers[column] == "weak→strong, best layout: time to quality"
                    && plan_row
                        .and_then(|r| r.weak_then_strong_best)
                        .is_some_and(|b| b.point.is_none()))
        }
        // With lay=best, a row where no layout fits has no best step time or MFU.
        "strong" | "weak" => {
            matches!(
                table.headers[column].as_str(),
                "best step (ms)" | "best MFU"
            ) && panel.llm().is_some_and(|s| {
                let best = if table.id == "strong" {
                    s.strong.get(row).and_then(|r| r.best_layout)
                } else {
                    s.weak.get(row).and_then(|r| r.best_layout)
                };
                best.is_some_and(|b| b.layout().is_none())
            })
        }
        _ => false,
    }
}

/// A panel with a pinned A (`pin=`): B alone and A alone pass every check; the B / A / Δ
/// tables are whole (B's rows alone where A has no such table) and their Δ cells are signed
/// percents, signed points or "—"; the merged charts' ranges and points are finite.
fn check_compared(panel: &Panel, a: &Panel) -> Vec<Problem> {
    let mut b = panel.scenario.clone();
    b.pinned = None;
    let mut out = check(&Panel::compute(&b, panel.view));
    out.extend(check(a));
    for t in panel.tables().into_iter().filter_map(|s| s.table) {
        let b_only = t.rows.iter().all(|row| row[0] == "B");
        for (r, row) in t.rows.iter().enumerate() {
            let delta_ok = |c: &String| {
                !bad_text(c) && (c == "—" || c == "0%" || c == "0 pts" || c.starts_with(['+', '-']))
            };
            let expected = if b_only { "B" } else { ["B", "A", "Δ"][r % 3] };
            if row.len() != t.headers.len()
                || row[0] != expected
                || (row[0] == "Δ" && !row[2..].iter().all(delta_ok))
            {
                out.push(problem(
                    format!("bad comparison row in table {}", t.id),
                    format!("row {r}: {row:?}"),
                ));
            }
        }
    }
    for chart in panel.charts() {
        if let Some(c) = panel.describe(chart) {
            check_chart(&mut out, chart.id(), &c);
        }
    }
    out
}

fn check_chart(out: &mut Vec<Problem>, id: &str, c: &LineChart) {
    let (x0, x1) = c.x_range;
    let (y0, y1) = c.y_range;
    if !(x0.is_finite() && x1.is_finite() && 0.0 < x0 && x0 < x1) {
        out.push(problem(
            format!("bad x range in chart {id}"),
            format!("x_range = {:?}", c.x_range),
        ));
    }
    if !(y0.is_finite() && y1.is_finite() && y0 < y1 && (!c.y_log || y0 > 0.0)) {
        out.push(problem(
            format!("bad y range in chart {id}"),
            format!("y_range = {:?} (log: {})", c.y_range, c.y_log),
        ));
    }
    for s in &c.series {
        if let Some(p) = s
            .points
            .iter()
            .find(|p| !p.0.is_finite() || !p.1.is_finite())
        {
            out.push(problem(
                format!("non-finite point in chart {id}"),
                format!("series {:?} has point {p:?}", s.label),
            ));
        }
    }
    for m in &c.markers {
        if !m.x.is_finite() {
            out.push(problem(
                format!("non-finite marker in chart {id}"),
                format!("{:?} at {}", m.label, m.x),
            ));
        }
    }
    for co in &c.callouts {
        if !co.at.0.is_finite() || !co.at.1.is_finite() {
            out.push(problem(
                format!("non-finite callout in chart {id}"),
                format!("{:?} at {:?}", co.label, co.at),
            ));
        }
    }
    if let Some((from, label)) = &c.shade_from {
        if !from.is_finite() {
            out.push(problem(
                format!("non-finite shade in chart {id}"),
                format!("{label:?} from {from}"),
            ));
        }
    }
}

/// Everything wrong with what `panel` computes and shows.
pub fn check(panel: &Panel) -> Vec<Problem> {
    if let Some(a) = panel.pinned() {
        return check_compared(panel, a);
    }
    let view = panel.view.key();
    let mut out = Vec::new();
    let mut numbers = |what: &str, paths: Vec<String>| {
        for p in paths {
            out.push(problem(format!("non-finite {what}"), p));
        }
    };
    if let Some(s) = panel.laws() {
        numbers("laws sweep", non_finite(s));
    }
    if let Some(s) = panel.llm() {
        numbers("llm sweep", non_finite(s));
    }
    if let Some(p) = panel.plan() {
        numbers("plan sweep", non_finite(p));
    }
    numbers("lever row", non_finite(&panel.levers()));
    let shown = panel.shown();
    numbers("shown", non_finite(&shown));
    // The page says nothing about numbers it cannot show: the JSON of the CLI and the JS API.
    if serde_json::to_string(&panel.json(&[])).is_err() {
        out.push(problem(format!("{view} JSON"), "not serialisable"));
    }
    for slot in &shown.tables {
        let Some(t) = &slot.table else { continue };
        for (r, row) in t.rows.iter().enumerate() {
            if row.len() != t.headers.len() {
                out.push(problem(
                    format!("ragged table {}", t.id),
                    format!(
                        "row {r} has {} cells, {} headers",
                        row.len(),
                        t.headers.len()
                    ),
                ));
            }
            for (c, cell) in row.iter().enumerate() {
                // The lever table's "on" and "cost" columns are blank by design.
                // The lever table's "on" and "cost" columns and the fit table's "in the fit" are
                // blank by design.
                let may_be_blank =
                    (t.id == "levers" && (c == 1 || c == 5)) || (t.id.ends_with("-fit") && c == 1);
                if cell.trim().is_empty() && !may_be_blank {
                    out.push(problem(
                        format!("empty cell in table {} column {:?}", t.id, t.headers.get(c)),
                        format!("row {r}"),
                    ));
                }
                if cell == "–" && dash_allowed(panel, t, r, c) {
                    continue;
                }
                if bad_text(cell) {
                    out.push(problem(
                        format!("bad text in table {} column {:?}", t.id, t.headers.get(c)),
                        format!("row {r}: {cell:?}"),
                    ));
                }
            }
        }
    }
    for (what, text) in texts(panel) {
        if what.starts_with("table ") && what.contains(" column ") {
            continue; // cells were checked above, with their dash rules
        }
        // N = 1 has no Karp–Flatt value; the readout says so with a dash.
        let text = text.replace("e(N) = –", "e(N) = n/a");
        if bad_text(&text) {
            out.push(problem(format!("bad text in {what}"), format!("{text:?}")));
        }
    }
    for chart in panel.charts() {
        if let Some(c) = panel.describe(chart) {
            check_chart(&mut out, chart.id(), &c);
        }
    }
    out.extend(contradictions(panel, &shown));
    if let Some(p) = panel.plan() {
        // The cross-input rules promise at least one token per DP rank per microbatch at every
        // table row, so weak, strong and weak→strong always have a batch there.
        for r in &p.rows {
            for (name, point) in [
                ("weak", r.weak),
                ("strong", r.strong),
                ("weak_then_strong", r.weak_then_strong),
            ] {
                if point.is_none() {
                    out.push(problem(
                        format!("plan row without a {name} point"),
                        format!("{} GPUs: {name} is None (shown as “–”)", r.gpus),
                    ));
                }
            }
        }
    }
    out
}

/// Numbers a panel shows that contradict each other or the inputs, with no word of why:
/// an MFU above 100% (more FLOPs than the GPUs' peak) without a figure naming the inputs
/// behind it (`tc` and `cm`, `feff`, or the measured `st`); a table whose `A` is not the `A`
/// box's value while the box is not marked as unused.
fn contradictions(panel: &Panel, shown: &scaling_core::panel::Shown) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(s) = panel.llm() else {
        return out;
    };
    let (rows_mfu, curve, rows_a): (Vec<(f64, f64)>, _, Vec<u32>) = match panel.view {
        View::Weak => (
            s.weak.iter().map(|r| (r.gpus, r.mfu)).collect(),
            &s.weak_curves.mfu,
            s.weak.iter().map(|r| r.accumulation).collect(),
        ),
        _ => (
            s.strong.iter().map(|r| (r.gpus, r.mfu)).collect(),
            &s.strong_curves.mfu,
            s.strong.iter().map(|r| r.accumulation).collect(),
        ),
    };
    let shows_mfu = matches!(panel.view, View::Strong | View::Weak);
    if let Some(&(n, mfu)) = rows_mfu
        .iter()
        .chain(curve.iter())
        .find(|(_, mfu)| *mfu > 1.0)
        .filter(|_| shows_mfu)
    {
        let named = |v: &str| {
            (v.contains("tc") && v.contains("cm")) || v.contains("feff") || v.contains("st")
        };
        if !panel
            .figures()
            .iter()
            .any(|(_, v)| v.contains('%') && named(v))
        {
            out.push(problem(
                format!("{} shows MFU above 100% unexplained", panel.view.key()),
                format!("{:.1}% at {n} GPUs", mfu * 100.0),
            ));
        }
    }
    let box_a = panel.scenario.llm.accumulation;
    let note = shown
        .texts
        .iter()
        .find(|(id, _)| *id == "a-unused")
        .map_or("", |(_, t)| t.as_str());
    if let Some(a) = rows_a.iter().find(|&&a| a != box_a) {
        if note.is_empty() {
            out.push(problem(
                format!("{}: the A box contradicts the table", panel.view.key()),
                format!("box {box_a}, table {a}, and the box is not marked unused"),
            ));
        }
    }
    out
}

/// Every problem of every panel of `scenario`.
pub fn check_scenario(scenario: &Scenario) -> Vec<Problem> {
    panels(scenario).iter().flat_map(check).collect()
}

/// Draws one chart of a panel as the page's SVG export does.
pub fn draw_svg(panel: &Panel, chart: ChartId) -> Result<String, String> {
    svg::render(svg::SIZE, |root| {
        panel.draw(chart, root, &ChartStyle::default()).map(|_| ())
    })
    .map_err(|e| e.to_string())
}

/// Named tolerances (tests/common/tol.rs, shared with crates/model's tests).
pub mod tol;
