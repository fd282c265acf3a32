//! Loads the runs module (`crates/runs`) on first use: "Your run" (the model-shape menu, the
//! Import control), the layout explorer's "Copy as" buttons and `scalingExplorer.import` live
//! there, with the importers and exporters they call, so that a reader who uses none of them
//! downloads none of it. This side only starts it: the first time "Your run" opens, a "Copy"
//! button is pressed or `import` is called, it adds the module's loader (named by
//! `<meta name="runs-module">`, written by scripts/post-build.mjs) as a module script, then
//! hands the module what the reader asked for through `scalingExplorer.runs(action)`, which
//! the module installs. Later events go to the module's own listeners.
//!
//! The module reads and changes the scenario through the public API (`scalingExplorer.query()`
//! and `set(query)`, [`super::api`]), as a host page would.

use super::app::with_app;
use super::dom::listen;
use super::dom::{by_id, document, set_text};
use crate::trf;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlDetailsElement, HtmlElement};

/// The controls whose first use loads the module, and the action each hands it.
const TRIGGERS: [&str; 7] = [
    "runs",
    "copy-own",
    "strong-layout-copy-1",
    "strong-layout-copy-2",
    "strong-layout-copy-3",
    "strong-layout-copy-4",
    "strong-layout-copy-5",
];

/// What the module dispatches on the document once it has installed its entries
/// (crates/runs).
const READY: &str = "scaling:runs-ready";

/// Listens for the first use of each trigger.
pub(super) fn bind() -> Result<(), JsValue> {
    if let Some(group) = by_id::<HtmlDetailsElement>("runs") {
        let el = group.clone();
        listen(&group, "toggle", move |_| {
            if el.open() {
                first_use("runs");
            }
        })?;
    }
    for id in &TRIGGERS[1..] {
        if let Some(button) = by_id::<HtmlElement>(id) {
            listen(&button, "click", move |_| first_use(id))?;
        }
    }
    Ok(())
}

/// `scalingExplorer.runs`, once the module has installed it.
fn entry(name: &str) -> Option<js_sys::Function> {
    let window: JsValue = web_sys::window()?.into();
    let api = js_sys::Reflect::get(&window, &"scalingExplorer".into()).ok()?;
    js_sys::Reflect::get(&api, &name.into())
        .ok()?
        .dyn_into()
        .ok()
}

/// Before the module is in, an action starts loading it and runs once it is; after, the
/// module's own listeners answered the event and this does nothing.
fn first_use(action: &'static str) {
    if with_app(|app| app.runs_loaded).unwrap_or(true) {
        return;
    }
    let run = Closure::once(move |_: JsValue| {
        with_app(|app| app.runs_loaded = true);
        if let Some(runs) = entry("runs") {
            let _ = runs.call1(&JsValue::NULL, &action.into());
        }
    });
    let failed = not_loaded();
    let _ = load().then2(&run, &failed);
    // Each runs at most once; the page keeps them (a few bytes) rather than track the promise.
    run.forget();
    failed.forget();
}

/// The module's loader as a module script, added once; the promise resolves when the module
/// says it has started (the event `scaling:runs-ready` on the document: a module script's
/// `load` may come before its top-level `await` of the wasm is done) and rejects when the
/// script fails to load.
pub(super) fn load() -> js_sys::Promise {
    if let Some(loading) = with_app(|app| app.runs_loading.clone()).flatten() {
        return loading;
    }
    let src = document()
        .query_selector("meta[name=runs-module]")
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"));
    let loading = js_sys::Promise::new(&mut |resolve, reject| {
        let script = src.as_ref().and_then(|src| {
            let script = document().create_element("script").ok()?;
            script.set_attribute("type", "module").ok()?;
            script.set_attribute("src", src).ok()?;
            Some(script.unchecked_into::<HtmlElement>())
        });
        match (script, document().body()) {
            (Some(script), Some(body)) => {
                let _ = document().add_event_listener_with_callback(READY, &resolve);
                script.set_onerror(Some(&reject));
                let _ = body.append_child(&script);
            }
            _ => {
                let _ = reject.call0(&JsValue::NULL);
            }
        }
    });
    with_app(|app| app.runs_loading = Some(loading.clone()));
    loading
}

/// Shown where "Your run" and "Copy as" report when the module cannot be loaded (a blocked or
/// missing file); the next use tries again.
fn not_loaded() -> Closure<dyn FnMut(JsValue)> {
    Closure::once(|_: JsValue| {
        with_app(|app| app.runs_loading = None);
        let loader = super::present::named_file("runs-module");
        let message = trf!(
            "the importer could not be loaded: {} (or the runs files beside it) is missing or blocked; a copy of the page needs every file of dist/",
            "导入器未能加载：{}（或与它同名前缀的 runs 文件）缺失或被拦截；页面的副本需要 dist/ 中的全部文件",
            loader
        );
        set_text("import-msg", &message);
        set_text("layout-copy-status", &message);
    })
}

/// `scalingExplorer.import(text[, query])` before the module is in: loads it, then calls the
/// `import` it installs in place of this one.
pub(super) fn import_later(text: JsValue, query: JsValue) -> js_sys::Promise {
    let mut args = Some((text, query));
    js_sys::Promise::new(&mut |resolve, reject| {
        let Some((text, query)) = args.take() else {
            return;
        };
        let refuse = reject.clone();
        let call = Closure::once(move |_: JsValue| {
            with_app(|app| app.runs_loaded = true);
            let answer = match entry("import") {
                Some(import) => import.call2(&JsValue::NULL, &text, &query),
                None => Ok(JsValue::UNDEFINED),
            };
            let _ = match answer {
                Ok(answer) => resolve.call1(&JsValue::NULL, &answer),
                Err(error) => refuse.call1(&JsValue::NULL, &error),
            };
        });
        let failed = Closure::once(move |error: JsValue| {
            let _ = reject.call1(&JsValue::NULL, &error);
        });
        let _ = load().then2(&call, &failed);
        call.forget();
        failed.forget();
    })
}

/// The scenario changed (its link is written): the module, if in, updates what it shows.
pub(super) fn changed(query: &str) {
    if with_app(|app| app.runs_loaded) != Some(true) {
        return;
    }
    if let Some(runs) = entry("runs") {
        let _ = runs.call2(&JsValue::NULL, &"changed".into(), &query.into());
    }
}
