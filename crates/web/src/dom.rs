//! Small DOM helpers. Everything user-controlled reaches the page through `textContent` or
//! input `value`s, never as markup: a shared link is untrusted input.

use super::app::with_app;
use crate::panel::table::{header_pieces, Table};
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

/// Shows a page that www/index.html's first script hid (`<html class="swap">`) because the
/// link asks for another view than the prerendered one: called once that view is drawn.
pub fn show_page() {
    if let Some(html) = document().document_element() {
        let _ = html.class_list().remove_1("swap");
    }
}

pub fn set_hidden(id: &str, hidden: bool) {
    if let Some(el) = by_id::<HtmlElement>(id) {
        el.set_hidden(hidden);
    }
}

/// Marks `id` as pending (`data-pending`, which the style dims): a drag's frame shows the last
/// search there. `toggleAttribute` changes nothing, and so invalidates no style, when the mark
/// is already as asked.
pub fn set_pending(id: &str, pending: bool) {
    if let Some(el) = by_id::<HtmlElement>(id) {
        let _ = el.toggle_attribute_with_force("data-pending", pending);
    }
}

/// Points the link `id` at `?query` on this page (same path), or hides it when `query` is
/// empty.
pub fn set_link(id: &str, query: &str) {
    if let Some(el) = by_id::<HtmlElement>(id) {
        if !query.is_empty() {
            let _ = el.set_attribute("href", &format!("?{query}"));
        }
        el.set_hidden(query.is_empty());
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
///
/// `previous` is what the container shows now (if known): an identical table costs nothing, and
/// one of the same shape only has its changed cells' text replaced, so a slider step does not
/// rebuild hundreds of elements (and the style and layout work that would follow).
pub fn render_table(id: &str, table: &Table, previous: Option<&Table>) {
    let Some(container) = document().get_element_by_id(id) else {
        return;
    };
    if let Some(old) = previous {
        if old == table {
            return;
        }
        // A folded cell holds more than its text (`Table::fold`): such a table (the explorer,
        // a dozen rows) is rebuilt rather than patched.
        if old.caption == table.caption && old.headers == table.headers && table.fold.is_none() {
            if let Some(tbody) = container.query_selector("tbody").ok().flatten() {
                if patch_rows(&tbody, &old.rows, &table.rows) {
                    return;
                }
            }
        }
    } else if table.fold.is_none() {
        let text = |selector: &str| {
            container
                .query_selector(selector)
                .ok()
                .flatten()
                .and_then(|e| e.text_content())
        };
        let headers: Vec<String> = container
            .query_selector("thead tr")
            .ok()
            .flatten()
            .map(|tr| rows_in_row(&tr))
            .unwrap_or_default();
        if text("caption").as_deref() == Some(table.caption.as_str())
            && headers == table.headers
            && patch_prerendered(
                container.query_selector("tbody").ok().flatten(),
                &table.rows,
            )
        {
            return;
        }
    }
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
    // Columns of words or marks are marked so the style sheet aligns them left, and minor
    // ones so that a narrow screen folds them away (the panel layer says which:
    // `Table::text_columns`, `Table::minor_columns`).
    let kind = |i: usize, el: Element| {
        let class = table.column_class(i);
        if !class.is_empty() {
            el.set_class_name(class);
        }
        el
    };
    let head_row = create("tr");
    for (i, h) in table.headers.iter().enumerate() {
        let th = cell("th", "", Some("col"));
        // Breaks allowed after `/` and `→` (`table::header_pieces`): the text is unchanged.
        for (k, piece) in header_pieces(h).into_iter().enumerate() {
            if k > 0 {
                let _ = th.append_child(&create("wbr"));
            }
            let _ = th.append_with_str_1(piece);
        }
        let _ = head_row.append_child(&kind(i, th));
    }
    let _ = thead.append_child(&head_row);
    let _ = el.append_child(&thead);
    let tbody = create("tbody");
    for (r, row) in table.rows.iter().enumerate() {
        let tr = create("tr");
        for (i, c) in row.iter().enumerate() {
            let td = if i == 0 {
                cell("th", c, Some("row"))
            } else {
                cell("td", c, None)
            };
            if let Some(folded) = table.folded(r, i) {
                let span = cell("span", folded, None);
                span.set_class_name("fold");
                let _ = td.append_child(&span);
            }
            let _ = tr.append_child(&kind(i, td));
        }
        let _ = tbody.append_child(&tr);
    }
    let _ = el.append_child(&tbody);
    let _ = region.append_child(&el);
    container.set_text_content(None);
    let _ = container.append_child(&region);
}

/// Sets the text of the cells of `tbody` (rows of element children) that differ between `old`
/// and `new`. Returns `false`, changing nothing, when the two differ in shape.
/// The text of every cell of `tbody`, row by row: what the build's prerendered first view
/// (`panel::prerender`) shows before the page has written anything itself.
fn rows_in(tbody: &Element) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut tr = tbody.first_element_child();
    while let Some(row) = tr {
        rows.push(rows_in_row(&row));
        tr = row.next_element_sibling();
    }
    rows
}

/// The text of the cells of one row.
fn rows_in_row(tr: &Element) -> Vec<String> {
    let mut cells = Vec::new();
    let mut td = tr.first_element_child();
    while let Some(cell) = td {
        cells.push(cell.text_content().unwrap_or_default());
        td = cell.next_element_sibling();
    }
    cells
}

/// The first frame over a prerendered table body: when the build wrote the same rows, only
/// the cells that differ are written (none, for the default scenario), so the page paints no
/// new text where the prerendered one already stands.
fn patch_prerendered<R: AsRef<[String]>>(tbody: Option<Element>, new: &[R]) -> bool {
    tbody.is_some_and(|tbody| patch_rows(&tbody, &rows_in(&tbody), new))
}

fn patch_rows<R: AsRef<[String]>, S: AsRef<[String]>>(
    tbody: &Element,
    old: &[S],
    new: &[R],
) -> bool {
    let same_shape = old.len() == new.len()
        && old
            .iter()
            .zip(new)
            .all(|(a, b)| a.as_ref().len() == b.as_ref().len());
    if !same_shape {
        return false;
    }
    let mut tr = tbody.first_element_child();
    for (a, b) in old.iter().zip(new) {
        let Some(row) = tr else {
            return false;
        };
        if a.as_ref() != b.as_ref() {
            let mut td = row.first_element_child();
            for (x, y) in a.as_ref().iter().zip(b.as_ref()) {
                let Some(cell) = td else {
                    break;
                };
                if x != y {
                    cell.set_text_content(Some(y));
                }
                td = cell.next_element_sibling();
            }
        }
        tr = row.next_element_sibling();
    }
    true
}

/// Fills the `<table>` `id` with label/value rows (patching the values in place when only
/// they changed).
pub fn render_figures(id: &str, figures: &[(String, String)]) {
    let Some(table) = document().get_element_by_id(id) else {
        return;
    };
    let new: Vec<[String; 2]> = figures
        .iter()
        .map(|(l, v)| [l.clone(), v.clone()])
        .collect();
    // What the table shows now (`App::figures`), taken out while the DOM is patched.
    let old = with_app(|app| {
        let i = app.figures.iter().position(|(k, _)| k == id)?;
        Some(app.figures.remove(i).1)
    })
    .flatten();
    let patched = match &old {
        Some(old) if *old == new => true,
        Some(old) => table
            .query_selector("tbody")
            .ok()
            .flatten()
            .is_some_and(|tbody| patch_rows(&tbody, old, &new)),
        None => patch_prerendered(table.query_selector("tbody").ok().flatten(), &new),
    };
    with_app(|app| app.figures.push((id.to_string(), new)));
    if patched {
        return;
    }
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
    // Unchanged (most frames of a drag): leave it, so nothing is laid out again.
    let children = list.child_nodes();
    let same = children.length() as usize == items.len()
        && items.iter().enumerate().all(|(i, item)| {
            children
                .item(i as u32)
                .and_then(|c| c.text_content())
                .is_some_and(|t| t == *item)
        });
    if same {
        return;
    }
    list.set_text_content(None);
    for item in items {
        let _ = list.append_child(&cell("li", item, None));
    }
}

/// Calls `handler` on each `event` at `target`, for the page's lifetime — while this module
/// runs the page: once it has handed the page over (`handover`), the full module's own
/// listener answers.
pub(super) fn listen<T: JsCast + AsRef<web_sys::EventTarget>>(
    target: &T,
    event: &str,
    mut handler: impl FnMut(web_sys::Event) + 'static,
) -> Result<(), wasm_bindgen::JsValue> {
    let closure = wasm_bindgen::closure::Closure::<dyn FnMut(web_sys::Event)>::new(
        move |e: web_sys::Event| {
            if super::app::live() {
                handler(e);
            }
        },
    );
    AsRef::<web_sys::EventTarget>::as_ref(target)
        .add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())?;
    // The page lives as long as its listeners; leaking them is the intended lifetime.
    closure.forget();
    Ok(())
}
