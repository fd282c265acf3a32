//! Small DOM helpers. Everything user-controlled reaches the page through `textContent` or
//! input `value`s, never as markup: a shared link is untrusted input.

use crate::report::Table;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlElement};

pub fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the page has a document")
}

/// The element with `id`, cast to `T`; `None` if it is missing or of another type (a page
/// embedding only some panels simply lacks some ids).
pub fn by_id<T: JsCast>(id: &str) -> Option<T> {
    document().get_element_by_id(id)?.dyn_into::<T>().ok()
}

pub fn set_text(id: &str, text: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        if el.text_content().as_deref() != Some(text) {
            el.set_text_content(Some(text));
        }
    }
}

pub fn set_hidden(id: &str, hidden: bool) {
    if let Some(el) = by_id::<HtmlElement>(id) {
        el.set_hidden(hidden);
    }
}

fn create(tag: &str) -> Element {
    document()
        .create_element(tag)
        .expect("creating a standard element cannot fail")
}

fn cell(tag: &str, text: &str, scope: Option<&str>) -> Element {
    let el = create(tag);
    el.set_text_content(Some(text));
    if let Some(s) = scope {
        let _ = el.set_attribute("scope", s);
    }
    el
}

/// Replaces the content of the container `id` with `table` (caption, header row, body rows
/// whose first cell is a row header), inside a region that scrolls sideways when the table is
/// wider than the page: focusable, so the keyboard can scroll it, and named by the caption.
pub fn render_table(id: &str, table: &Table) {
    let Some(container) = document().get_element_by_id(id) else {
        return;
    };
    let region = create("div");
    let caption_id = format!("{id}-caption");
    let _ = region.set_attribute("role", "region");
    let _ = region.set_attribute("tabindex", "0");
    let _ = region.set_attribute("aria-labelledby", &caption_id);
    let el = create("table");
    let _ = el.set_attribute("data-table", table.id);
    let caption = cell("caption", &table.caption, None);
    let _ = caption.set_attribute("id", &caption_id);
    let _ = el.append_child(&caption);
    let thead = create("thead");
    let head_row = create("tr");
    for h in &table.headers {
        let _ = head_row.append_child(&cell("th", h, Some("col")));
    }
    let _ = thead.append_child(&head_row);
    let _ = el.append_child(&thead);
    let tbody = create("tbody");
    for row in &table.rows {
        let tr = create("tr");
        for (i, c) in row.iter().enumerate() {
            let td = if i == 0 {
                cell("th", c, Some("row"))
            } else {
                cell("td", c, None)
            };
            let _ = tr.append_child(&td);
        }
        let _ = tbody.append_child(&tr);
    }
    let _ = el.append_child(&tbody);
    let _ = region.append_child(&el);
    container.set_text_content(None);
    let _ = container.append_child(&region);
}

/// Fills the `<table>` `id` with label/value rows.
pub fn render_figures(id: &str, figures: &[(String, String)]) {
    let Some(table) = document().get_element_by_id(id) else {
        return;
    };
    let tbody = create("tbody");
    for (label, value) in figures {
        let tr = create("tr");
        let _ = tr.append_child(&cell("th", label, Some("row")));
        let _ = tr.append_child(&cell("td", value, None));
        let _ = tbody.append_child(&tr);
    }
    table.set_text_content(None);
    let _ = table.append_child(&tbody);
}

/// Replaces the items of the list `id` with one `<li>` per message.
pub fn render_list(id: &str, items: &[String]) {
    let Some(list) = document().get_element_by_id(id) else {
        return;
    };
    list.set_text_content(None);
    for item in items {
        let _ = list.append_child(&cell("li", item, None));
    }
}
