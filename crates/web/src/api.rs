//! The page's JavaScript API for the docs sites that host it (docs/embedding.md):
//!
//! - `window.scalingExplorer.computeAsync(query[, panel])` returns a promise of, for any query
//!   string the page accepts, the document `scaling <panel> --query … --format json` prints
//!   ([`crate::panel::document`]), as plain JavaScript objects (serde-wasm-bindgen);
//!   `compute(query[, panel])` returns the document itself, for the hosts written against it
//!   (docs/embedding.md: it is deprecated, as what a query needs may move to the full module).
//! - `window.scalingExplorer.import(text[, query])` reads a run's `config.json`, launch flags,
//!   torchtitan TOML or NeMo overrides over the link `query` (else the page's scenario) and
//!   returns a promise of what it made of it: `{kind: "imported", query, format, entries}`
//!   (each entry as `scaling import --format json` prints it) or `{kind: "refused", error}`.
//!   The page's scenario does not change. The first call loads the runs module (`runs`).
//! - `query()` returns the link of the scenario shown; `set(query)` shows another, as the
//!   bridge's `scaling:set` does.
//! - The `postMessage` bridge of an embedded page: a host sends
//!   `{type: "scaling:set", query}` to change the scenario (accepted from the parent window
//!   only); after every change the frame posts `{type: "scaling:changed", query, panel,
//!   figures}` to its parent, and `{type: "scaling:size", height}` whenever the height of its
//!   content changes (a `ResizeObserver` on the root element), so a host can size the iframe.

use super::dom::listen;
use super::{replace_scenario, with_app};
use crate::panel::Panel;
use crate::scenario::View;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// A message from the host page.
#[derive(Deserialize)]
struct HostMessage {
    #[serde(rename = "type")]
    kind: String,
    query: Option<String>,
}

/// A key figure as the host receives it.
#[derive(Serialize)]
struct Figure<'a> {
    label: &'a str,
    value: &'a str,
}

/// What the frame tells its host after every change.
#[derive(Serialize)]
struct Changed<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    query: &'a str,
    panel: &'static str,
    figures: Vec<Figure<'a>>,
}

/// Plain objects and arrays, as `JSON.parse` would give (not `Map`s).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(JsValue::from)
}

/// `compute(query, panel)`: `panel` is optional (`"laws"`, `"strong"`, `"weak"`, `"plan"`);
/// anything but a string query is a `TypeError`.
fn compute(query: JsValue, panel: JsValue) -> Result<JsValue, JsValue> {
    let Some(query) = query.as_string() else {
        return Err(js_sys::TypeError::new(
            "scalingExplorer.compute(query): query must be a string",
        )
        .into());
    };
    let view = match panel.as_string() {
        Some(name) => Some(View::from_key(&name).ok_or_else(|| {
            JsValue::from(js_sys::TypeError::new(
                "scalingExplorer.compute(query, panel): panel is laws, strong, weak or plan",
            ))
        })?),
        None if panel.is_undefined() || panel.is_null() => None,
        None => {
            return Err(js_sys::TypeError::new(
                "scalingExplorer.compute(query, panel): panel is laws, strong, weak or plan",
            )
            .into())
        }
    };
    let (panel, messages) = crate::panel::linked(&query, view);
    to_js(&panel.doc(&messages))
}

/// `computeAsync(query, panel)`: a promise of what `compute` returns (or of its `TypeError`).
/// Hosts call this one: the full module (`handover`) may hold what a query needs, which the
/// first view would load first.
fn compute_async(query: JsValue, panel: JsValue) -> js_sys::Promise {
    match compute(query, panel) {
        Ok(doc) => js_sys::Promise::resolve(&doc),
        Err(error) => js_sys::Promise::reject(&error),
    }
}

/// `query()`: the link of the scenario the page shows.
fn query() -> JsValue {
    with_app(|app| app.page.scenario.to_query())
        .unwrap_or_default()
        .into()
}

/// `set(query)`: shows the scenario of `query` as a host's `scaling:set` does (the frame's
/// display keys kept unless named); what the link gets wrong shows under its inputs.
fn set(query: JsValue) -> Result<JsValue, JsValue> {
    let query = query.as_string().ok_or_else(|| {
        JsValue::from(js_sys::TypeError::new(
            "scalingExplorer.set(query): query is a string",
        ))
    })?;
    if let Some(decoded) = with_app(|app| app.page.host_query(&query)) {
        replace_scenario(&decoded);
    }
    Ok(JsValue::UNDEFINED)
}

/// `import(text[, query])` until the runs module is in: loads it, then calls its `import`.
fn import(text: JsValue, query: JsValue) -> JsValue {
    super::runs::import_later(text, query).into()
}

/// Installs `window.scalingExplorer` and the host bridge.
pub(super) fn install() -> Result<(), JsValue> {
    let Some(window) = web_sys::window() else {
        return Ok(());
    };
    // After a hand-over (`handover`) the first view's object is there: its entries are
    // replaced in place, so a host that kept the object keeps a working one, and the runs
    // module's entries, if it is in, stay (later changes go to it).
    let api: js_sys::Object = js_sys::Reflect::get(&window, &"scalingExplorer".into())?
        .dyn_into()
        .unwrap_or_else(|_| js_sys::Object::new());
    let runs_in = js_sys::Reflect::get(&api, &"runs".into())?.is_function();
    if runs_in {
        with_app(|app| app.runs_loaded = true);
    }
    let compute = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new(compute);
    js_sys::Reflect::set(&api, &"compute".into(), compute.as_ref())?;
    let compute_async = Closure::<dyn Fn(JsValue, JsValue) -> js_sys::Promise>::new(compute_async);
    js_sys::Reflect::set(&api, &"computeAsync".into(), compute_async.as_ref())?;
    let import = Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(import);
    if !runs_in {
        js_sys::Reflect::set(&api, &"import".into(), import.as_ref())?;
    }
    let query = Closure::<dyn Fn() -> JsValue>::new(query);
    js_sys::Reflect::set(&api, &"query".into(), query.as_ref())?;
    let set = Closure::<dyn Fn(JsValue) -> Result<JsValue, JsValue>>::new(set);
    js_sys::Reflect::set(&api, &"set".into(), set.as_ref())?;
    js_sys::Reflect::set(&api, &"version".into(), &env!("CARGO_PKG_VERSION").into())?;
    // Live as long as the page.
    compute.forget();
    compute_async.forget();
    import.forget();
    query.forget();
    set.forget();
    js_sys::Reflect::set(&window, &"scalingExplorer".into(), &api)?;
    watch_size()?;
    listen(&window, "message", on_message)
}

/// In a frame: posts the content height to the parent once drawn and whenever it changes —
/// a redraw, a message under an input, a `<details>` toggled, a hover readout that wraps, a new
/// width. (Posting after each redraw instead would be smaller but miss the changes that need
/// none.)
fn watch_size() -> Result<(), JsValue> {
    let (Some(_), Some(root)) = (parent(), super::dom::document().document_element()) else {
        return Ok(());
    };
    let callback = Closure::<dyn FnMut()>::new(post_size);
    web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref())?.observe(&root);
    // Observes the page for its whole life.
    callback.forget();
    Ok(())
}

/// `{type: "scaling:size", height}` to the parent, in CSS pixels, when the height changed.
fn post_size() {
    let (Some(parent), Some(root)) = (parent(), super::dom::document().document_element()) else {
        return;
    };
    let height = root.get_bounding_client_rect().height().ceil();
    // Nothing once the page is handed over: the full module's observer posts.
    if with_app(|app| std::mem::replace(&mut app.last_height, height)).is_none_or(|h| h == height) {
        return;
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &"scaling:size".into());
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
    // A height says nothing about the scenario: any parent origin may read it.
    let _ = parent.post_message(&message, "*");
}

/// The parent window, if this page is in a frame.
fn parent() -> Option<web_sys::Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok()??;
    (!js_sys::Object::is(&parent, &window)).then_some(parent)
}

fn on_message(event: web_sys::Event) {
    let Some(event) = event.dyn_ref::<web_sys::MessageEvent>() else {
        return;
    };
    // Only the page that embeds this one may change it (not other frames or windows).
    let from_parent = match (event.source(), parent()) {
        (Some(source), Some(parent)) => js_sys::Object::is(&source, &parent),
        _ => false,
    };
    if !from_parent {
        return;
    }
    let Ok(message) = serde_wasm_bindgen::from_value::<HostMessage>(event.data()) else {
        return; // not ours (hosts post other messages too)
    };
    if message.kind != "scaling:set" {
        return;
    }
    let Some(query) = message.query else {
        return;
    };
    if let Some(decoded) = with_app(|app| app.page.host_query(&query)) {
        replace_scenario(&decoded);
    }
}

/// Tells the host page what the reader now sees (after every redraw that changed it).
pub(super) fn notify_changed(panel: &Panel) {
    let Some(parent) = parent() else {
        return;
    };
    let query = panel.scenario.to_query();
    let key = format!("{}|{query}", panel.view.key());
    let changed = with_app(|app| (app.last_posted != key).then(|| app.last_posted = key));
    if changed.flatten().is_none() {
        return;
    }
    let figures = panel.figures();
    let message = Changed {
        kind: "scaling:changed",
        query: &query,
        panel: panel.view.key(),
        figures: figures
            .iter()
            .map(|(label, value)| Figure { label, value })
            .collect(),
    };
    if let Ok(data) = to_js(&message) {
        // The scenario is what the host put in the frame's link plus what its reader changed:
        // nothing secret, so any parent origin may read it (docs/embedding.md).
        let _ = parent.post_message(&data, "*");
    }
}
