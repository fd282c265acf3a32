//! Downloads: every chart as PNG (2x) and SVG, every table as CSV (UTF-8 with BOM, so Excel
//! reads Chinese headers) and Markdown, the report as text. One delegated click listener
//! serves every button (a closure per button would cost size for nothing).

use super::dom::listen;
use super::dom::{by_id, document, render_table, set_text};
use super::with_app;
use crate::panel::{ChartId, TableSlot, TABLE_IDS};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
#[cfg(feature = "full")]
use {super::draw_into, super::present, web_sys::HtmlCanvasElement};

/// Shows a table in `#<id>-table` (patching only the cells that changed) and remembers it for
/// export; an empty slot empties the container.
pub(super) fn show_table(slot: &TableSlot) {
    let container = format!("{}-table", slot.id);
    // The table shown now (`App::tables`), taken out while the DOM is patched.
    let previous = with_app(|app| {
        let i = app.tables.iter().position(|t| t.id == slot.id)?;
        Some(app.tables.remove(i))
    })
    .flatten();
    match &slot.table {
        Some(table) => {
            render_table(&container, table, previous.as_ref());
            with_app(|app| app.tables.push(table.clone()));
        }
        None => set_text(&container, ""),
    }
    // The table's export buttons (the row after its container) only under a table: an empty
    // slot (no fit, no explorer) would otherwise show a second row under the table above it.
    if let Some(row) = by_id::<web_sys::HtmlElement>(&container)
        .and_then(|c| c.next_element_sibling())
        .filter(|r| r.class_name() == "exports")
        .and_then(|r| r.dyn_into::<web_sys::HtmlElement>().ok())
    {
        row.set_hidden(slot.table.is_none());
    }
}

/// Adds the export buttons: PNG (2x) under every chart, CSV (UTF-8 with BOM, so Excel reads
/// Chinese headers) and Markdown under every table, text for the report. One delegated
/// listener serves them all (a closure per button would cost the size budget).
pub(super) fn add_buttons() -> Result<(), JsValue> {
    use crate::panel::export_rows::{chart_row, report_row, table_row, ExportRow};
    let doc = document();
    // The build's first view has the rows of its own panel already (`panel::prerender`), in
    // English: they are replaced here, in the same task, so nothing is painted in between.
    if let Ok(old) = doc.query_selector_all(".exports") {
        for i in 0..old.length() {
            if let Some(e) = old
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                e.remove();
            }
        }
    }
    let add = |anchor: &web_sys::Element, after: bool, spec: &ExportRow| -> Option<()> {
        let row = doc.create_element("div").ok()?;
        let _ = row.set_attribute("class", "exports");
        let _ = row.set_attribute("role", "group");
        let _ = row.set_attribute("aria-label", spec.label);
        for b in &spec.buttons {
            let button = doc.create_element("button").ok()?;
            let _ = button.set_attribute("type", "button");
            let _ = button.set_attribute("class", "export");
            let _ = button.set_attribute("data-export", &b.action);
            // A description, not the name: the name stays the visible text (WCAG 2.5.3).
            let _ = button.set_attribute("title", b.title);
            button.set_text_content(Some(&b.text));
            let _ = row.append_child(&button);
        }
        if after {
            let parent = anchor.parent_node()?;
            let _ = parent.insert_before(&row, anchor.next_sibling().as_ref());
        } else {
            let _ = anchor.append_child(&row);
        }
        Some(())
    };
    for chart in ChartId::ALL {
        if let Some(figure) = doc.get_element_by_id(chart.id()) {
            add(&figure, false, &chart_row(chart));
        }
    }
    for id in TABLE_IDS {
        if let Some(container) = doc.get_element_by_id(&format!("{id}-table")) {
            add(&container, true, &table_row(id));
        }
    }
    if let Some(report) = doc.get_element_by_id("report-zh") {
        add(&report, true, &report_row());
    }
    listen(&doc, "click", on_click)
}

/// The one delegated listener: `data-export="kind:what"` on the clicked button (or its
/// ancestor) says what to export. The first view has no exports: it hands the page over to the
/// full module, which then exports (`handover`).
fn on_click(e: web_sys::Event) {
    let action = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|el| el.closest("[data-export]").ok().flatten())
        .and_then(|el| el.get_attribute("data-export"));
    if let Some(action) = action {
        #[cfg(not(feature = "full"))]
        super::handover::hand_over(Some(&action));
        #[cfg(feature = "full")]
        act(&action);
    }
}

/// Exports what `action` (a button's `data-export`) names.
#[cfg(feature = "full")]
pub(super) fn act(action: &str) {
    let Some((kind, what)) = action.split_once(':') else {
        return;
    };
    match kind {
        "png" | "svg" => {
            if let Some(chart) = ChartId::from_id(what) {
                export_chart(chart, kind == "svg");
            }
        }
        "csv" | "md" => {
            export_table(what, kind == "md");
        }
        "txt" => {
            let text = document()
                .get_element_by_id(&format!("report-{what}"))
                .and_then(|e| e.text_content())
                .unwrap_or_default();
            present::download_text(
                &format!("scaling-report-{what}.txt"),
                "text/plain;charset=utf-8",
                &text,
            );
        }
        _ => {}
    }
}

#[cfg(feature = "full")]
fn export_table(id: &str, markdown: bool) {
    let Some(table) = with_app(|app| app.tables.iter().find(|t| t.id == id).cloned()).flatten()
    else {
        return;
    };
    if markdown {
        present::download_text(
            &format!("{}.md", table.id),
            "text/markdown;charset=utf-8",
            &table.to_markdown(),
        );
    } else {
        // The BOM makes Excel read the file as UTF-8 (Chinese headers).
        present::download_text(
            &format!("{}.csv", table.id),
            "text/csv;charset=utf-8",
            &format!("\u{feff}{}", table.to_csv()),
        );
    }
}

/// PNG: the chart redrawn at twice its on-screen size by the page's canvas code. SVG: the
/// chart written by the one SVG writer ([`crate::chart::svg`]) at the CLI's size, so the file
/// equals `scaling <panel> --svg` for the same link.
#[cfg(feature = "full")]
fn export_chart(chart: ChartId, svg: bool) {
    let Some(panel) = with_app(|app| app.panel.clone()).flatten() else {
        return;
    };
    let dark = present::is_dark(&panel.scenario);
    if svg {
        let style = present::chart_style(dark, 1.0);
        // The CLI's `render`, drawn through the page's backend type (crates/web/src/canvas.rs).
        let mut text = String::new();
        let drawn = {
            let svg = crate::chart::svg::backend(&mut text, crate::chart::svg::SIZE);
            let root = plotters::drawing::IntoDrawingArea::into_drawing_area(
                super::canvas::PageBackend::Right(svg),
            );
            panel
                .draw(chart, &root, &style)
                .and_then(|_| Ok(root.present()?))
        };
        if drawn.is_ok() {
            present::download_text(
                &format!("{}.svg", chart.id()),
                "image/svg+xml;charset=utf-8",
                &text,
            );
        }
        return;
    }
    let Some(canvas) = by_id::<HtmlCanvasElement>(&format!("{}-canvas", chart.id())) else {
        return;
    };
    let size = (
        canvas.client_width().max(320) as u32,
        canvas.client_height().max(200) as u32,
    );
    let Some(off) = document()
        .create_element("canvas")
        .ok()
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    if draw_into(&off, size, &present::chart_style(dark, 2.0), chart, &panel).is_ok() {
        if let Ok(url) = off.to_data_url_with_type("image/png") {
            present::download_url(&format!("{}.png", chart.id()), &url);
        }
    }
}
