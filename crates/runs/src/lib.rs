//! The runs module: "Your run" (the model-shape menu; the Import control: a text pasted, a
//! file chosen or dropped), the layout explorer's "Copy as" buttons and
//! `scalingExplorer.import`. The page loads it on first use (`crates/web/src/runs.rs`), so its
//! parsers are not in the first view. It computes nothing: each action is a
//! [`scaling_core::runs::Ask`] answered by [`scaling_core::runs::answer`], and the answer goes
//! into the DOM. It reads and changes the scenario through the page's public API
//! (`scalingExplorer.query()`, `set(query)`), as a host page would: a new scenario arrives as
//! its link, applied as a preset is (every control follows, the page redraws, the address
//! updates). A refusal changes nothing and says why, naming the key or the input.
#![cfg(target_arch = "wasm32")]

use scaling_core::i18n::{set_lang, tr, Lang};
use scaling_core::runs::{answer, Answer, Ask};
use scaling_core::scenario::export::Tool;
use scaling_core::scenario::import::log::{bundle, MAX_LOG_BYTES};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Document, DragEvent, Event, File, FileReader, HtmlDetailsElement, HtmlElement,
    HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement,
};

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("the module runs in a page")
}

fn by_id<T: JsCast>(id: &str) -> Option<T> {
    document().get_element_by_id(id)?.dyn_into().ok()
}

fn set_text(id: &str, text: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        el.set_text_content(Some(text));
    }
}

fn listen(target: &web_sys::EventTarget, event: &str, handler: impl FnMut(Event) + 'static) {
    let closure = Closure::<dyn FnMut(Event)>::new(handler);
    let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    // Listeners live as long as the page.
    closure.forget();
}

/// `window.scalingExplorer`, the page's API.
fn api() -> Option<JsValue> {
    let window: JsValue = web_sys::window()?.into();
    js_sys::Reflect::get(&window, &"scalingExplorer".into()).ok()
}

fn call_api(name: &str, args: &[&JsValue]) -> Option<JsValue> {
    let api = api()?;
    let f: js_sys::Function = js_sys::Reflect::get(&api, &name.into())
        .ok()?
        .dyn_into()
        .ok()?;
    match args {
        [] => f.call0(&api),
        [a] => f.call1(&api, a),
        _ => return None,
    }
    .ok()
}

/// The link of the scenario the page shows.
fn current_query() -> String {
    call_api("query", &[])
        .and_then(|q| q.as_string())
        .unwrap_or_default()
}

/// Shows the scenario of `query` (the page's `set`).
fn show_scenario(query: &str) {
    let _ = call_api("set", &[&query.into()]);
}

/// `ask` answered in the page's language now (`<html lang>`, which the language button
/// changes).
fn ask(question: &Ask) -> Answer {
    let lang = document()
        .document_element()
        .and_then(|root| root.get_attribute("lang"))
        .and_then(|tag| Lang::from_key(&tag))
        .unwrap_or_default();
    set_lang(lang);
    answer(question)
}

/// Installs `scalingExplorer.runs` and `import`, and binds the controls, when the page adds
/// the module.
#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    console_error_panic_hook::set_once();
    let api = api().ok_or_else(|| JsValue::from_str("scalingExplorer is not installed"))?;
    let runs = Closure::<dyn Fn(JsValue, JsValue)>::new(|action: JsValue, value: JsValue| {
        run(
            &action.as_string().unwrap_or_default(),
            &value.as_string().unwrap_or_default(),
        );
    });
    js_sys::Reflect::set(&api, &"runs".into(), runs.as_ref())?;
    let import = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(import_api);
    js_sys::Reflect::set(&api, &"import".into(), import.as_ref())?;
    // Live as long as the page.
    runs.forget();
    import.forget();
    bind();
    // The page waits for this before it hands over the action that loaded the module.
    document().dispatch_event(&Event::new("scaling:runs-ready")?)?;
    Ok(())
}

/// What the page hands the module: the first use of a control (its id), or `changed` with
/// the scenario's new link.
fn run(action: &str, value: &str) {
    match action {
        "runs" => fill_shapes(),
        "changed" => show_shape_of(value),
        "copy-own" => copy(None),
        id => {
            if let Some(row) = id
                .strip_prefix("strong-layout-copy-")
                .and_then(|r| r.parse().ok())
            {
                copy(Some(row));
            }
        }
    }
}

fn bind() {
    if let Some(group) = by_id::<HtmlDetailsElement>("runs") {
        let el = group.clone();
        listen(&group, "toggle", move |_| {
            if el.open() {
                fill_shapes();
            }
        });
    }
    if let Some(select) = by_id::<HtmlSelectElement>("shape-input") {
        let el = select.clone();
        listen(&select, "change", move |_| choose_shape(&el.value()));
    }
    bind_import();
    if let Some(button) = by_id::<HtmlElement>("copy-own") {
        listen(&button, "click", |_| copy(None));
    }
    for row in 1..=5 {
        if let Some(button) = by_id::<HtmlElement>(&format!("strong-layout-copy-{row}")) {
            listen(&button, "click", move |_| copy(Some(row)));
        }
    }
}

/// The shape menu's entries (once), then the shape the scenario holds.
fn fill_shapes() {
    let Some(select) = by_id::<HtmlSelectElement>("shape-input") else {
        return;
    };
    if select.length() <= 1 {
        if let Answer::Shapes { shapes } = ask(&Ask::Shapes) {
            for shape in shapes {
                if let Ok(option) = document().create_element("option") {
                    let _ = option.set_attribute("value", &shape.name);
                    option.set_text_content(Some(&shape.label));
                    let _ = select.append_child(&option);
                }
            }
        }
    }
    show_shape_of(&current_query());
}

/// The menu shows the shape `query` holds ("—" once an input of the shape changed), and its
/// source under it.
fn show_shape_of(query: &str) {
    let Some(select) = by_id::<HtmlSelectElement>("shape-input") else {
        return;
    };
    let question = Ask::ShapeOf {
        query: query.to_string(),
    };
    if let Answer::ShapeOf { name, source } = ask(&question) {
        if select.value() != name {
            select.set_value(&name);
        }
        set_text("shape-source", &source);
    }
}

/// A shape chosen from the menu: applied over the scenario, or refused with the rule it
/// breaks (the menu goes back to the shape the scenario holds).
fn choose_shape(name: &str) {
    set_text("shape-msg", "");
    if name.is_empty() {
        return;
    }
    let question = Ask::Shape {
        name: name.to_string(),
        query: current_query(),
    };
    match ask(&question) {
        Answer::Shaped { query, .. } => show_scenario(&query),
        Answer::Refused { error } => {
            set_text("shape-msg", &error);
            show_shape_of(&current_query());
        }
        _ => {}
    }
}

/// The Import button, the file input, and a file dropped onto the text area.
fn bind_import() {
    let Some(area) = by_id::<HtmlTextAreaElement>("import-text") else {
        return;
    };
    if let Some(button) = by_id::<HtmlElement>("import-button") {
        let el = area.clone();
        listen(&button, "click", move |_| import_text(el.value()));
    }
    if let Some(input) = by_id::<HtmlInputElement>("import-file") {
        let el = input.clone();
        listen(&input, "change", move |_| {
            if let Some(files) = el.files() {
                read_files(files);
            }
            // The same file chosen again is a change too.
            el.set_value("");
        });
    }
    // Without `dragover`'s default prevented, the browser opens a dropped file as a page.
    listen(&area, "dragover", |e| e.prevent_default());
    listen(&area, "drop", |e| {
        let files = e
            .dyn_ref::<DragEvent>()
            .and_then(DragEvent::data_transfer)
            .and_then(|t| t.files())
            .filter(|f| f.length() > 0);
        // Dropped text (not a file) goes into the text area as usual.
        if let Some(files) = files {
            e.prevent_default();
            read_files(files);
        }
    });
}

/// Reads `files` as UTF-8, in turn, into the text area (several as one text, each after
/// `==> NAME <==`: [`bundle`]), then imports it; files longer together than the importer
/// reads are refused unread.
fn read_files(files: web_sys::FileList) {
    let list: Vec<File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    let bytes: f64 = list.iter().map(|f| f.size()).sum();
    if bytes > MAX_LOG_BYTES as f64 {
        show_import(ask(&Ask::TooLarge {
            bytes: bytes as u64,
        }));
        return;
    }
    read_next(list, Vec::new());
}

/// Reads the first of `rest`, then the others; with none left, imports what was read.
fn read_next(mut rest: Vec<File>, mut done: Vec<(String, String)>) {
    if rest.is_empty() {
        let text = bundle(&done);
        if let Some(area) = by_id::<HtmlTextAreaElement>("import-text") {
            area.set_value(&text);
        }
        import_text(text);
        return;
    }
    let file = rest.remove(0);
    let name = file.name();
    let Ok(reader) = FileReader::new() else {
        return;
    };
    let result = reader.clone();
    let onload = Closure::once_into_js(move || {
        let Some(text) = result.result().ok().and_then(|v| v.as_string()) else {
            return;
        };
        done.push((name, text));
        read_next(rest, done);
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

/// Imports `text` over the scenario.
fn import_text(text: String) {
    let query = current_query();
    show_import(ask(&Ask::Import { text, query }));
}

/// The imported scenario shown and the report under the control: the format and a line per
/// key, each marked by its outcome (a class: `set`, `approximated`, `ignored`, `default`); or
/// the reason it was refused, the scenario unchanged.
fn show_import(answer: Answer) {
    let (message, format, entries, missing) = match answer {
        Answer::Imported {
            query,
            format,
            entries,
            missing,
            completed,
            completion,
        } => {
            show_scenario(&query);
            (
                String::new(),
                format,
                entries,
                (missing, completed, completion),
            )
        }
        Answer::Refused { error } => (error, String::new(), Vec::new(), Default::default()),
        _ => return,
    };
    set_text("import-msg", &message);
    set_text("import-format", &format);
    if let Some(area) = by_id::<HtmlElement>("import-text") {
        let _ = if message.is_empty() {
            area.remove_attribute("aria-invalid")
        } else {
            area.set_attribute("aria-invalid", "true")
        };
    }
    let Some(list) = document().get_element_by_id("import-list") else {
        return;
    };
    list.set_text_content(None);
    show_missing(&list, missing);
    for entry in &entries {
        if let Ok(item) = document().create_element("li") {
            item.set_class_name(&entry.outcome);
            item.set_text_content(Some(&entry.report_line()));
            let _ = list.append_child(&item);
        }
    }
}

/// The report's first line when the run still lacks part of its shape: what to type and,
/// when the model-shape menu holds the model, a button that sets its values (`completed`,
/// the link with them).
fn show_missing(
    list: &web_sys::Element,
    (missing, completed, completion): (String, String, String),
) {
    if missing.is_empty() {
        return;
    }
    let Ok(item) = document().create_element("li") else {
        return;
    };
    item.set_class_name("missing");
    item.set_text_content(Some(&format!("{missing} ")));
    if !completed.is_empty() {
        if let Ok(button) = document().create_element("button") {
            let _ = button.set_attribute("type", "button");
            button.set_text_content(Some(&scaling_core::trf!("Set {}", "设置 {}", completion)));
            if let Ok(button) = button.dyn_into::<HtmlElement>() {
                let click = Closure::once_into_js(move || show_scenario(&completed));
                button.set_onclick(Some(click.unchecked_ref()));
                let _ = item.append_child(&button);
            }
        }
    }
    let _ = list.append_child(&item);
}

/// A "Copy" button: the scenario's own layout (`row` = `None`) or the explorer's row `row`
/// (its "Use" link's scenario) as the launch settings of the tool the menu names; shown under
/// the buttons and copied.
fn copy(row: Option<usize>) {
    let query = match row {
        None => current_query(),
        Some(row) => match by_id::<HtmlElement>(&format!("strong-layout-use-{row}"))
            .filter(|a| !a.hidden())
            .and_then(|a| a.get_attribute("href"))
        {
            Some(href) => href.trim_start_matches('?').to_string(),
            None => return,
        },
    };
    let tool = by_id::<HtmlSelectElement>("copy-tool")
        .and_then(|s| serde_wasm_bindgen::from_value::<Tool>(JsValue::from_str(&s.value())).ok())
        .unwrap_or(Tool::Megatron);
    match ask(&Ask::Export { query, tool }) {
        Answer::Exported { text } => {
            set_text("layout-copy-text", &text);
            to_clipboard(&text);
        }
        Answer::Refused { error } => set_text("layout-copy-status", &error),
        _ => {}
    }
}

/// Copies `text`; where the clipboard refuses (not a secure context, no permission) the
/// status says to copy it from the text shown.
fn to_clipboard(text: &str) {
    let done = |id: &'static str, en: &'static str, zh: &'static str| {
        Closure::once(move |_: JsValue| set_text(id, tr(en, zh)))
    };
    let ok = done("layout-copy-status", "Copied.", "已复制。");
    let failed = done(
        "layout-copy-status",
        "Not copied: select the text below and copy it.",
        "未能复制：请选中下面的文本复制。",
    );
    let clipboard = web_sys::window().map(|w| w.navigator().clipboard());
    match clipboard {
        Some(clipboard) => {
            let _ = clipboard.write_text(text).then2(&ok, &failed);
        }
        None => set_text(
            "layout-copy-status",
            tr(
                "Not copied: select the text below and copy it.",
                "未能复制：请选中下面的文本复制。",
            ),
        ),
    }
    ok.forget();
    failed.forget();
}

/// `scalingExplorer.import(text[, query])`: a promise of what `text` makes of the link `query`
/// (else the page's scenario), as a plain object; the page's scenario does not change.
fn import_api(text: JsValue, query: JsValue) -> Result<JsValue, JsValue> {
    let usage = || {
        JsValue::from(js_sys::TypeError::new(
            "scalingExplorer.import(text, query): text and query are strings",
        ))
    };
    let text = text.as_string().ok_or_else(usage)?;
    let query = match query.as_string() {
        Some(query) => query,
        None if query.is_undefined() || query.is_null() => current_query(),
        None => return Err(usage()),
    };
    let answer = ask(&Ask::Import { text, query });
    // A promise, as before the module was in (crates/web/src/runs.rs, `import_later`).
    let value = serde_wasm_bindgen::to_value(&answer).map_err(JsValue::from)?;
    Ok(js_sys::Promise::resolve(&value).into())
}
