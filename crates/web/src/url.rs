//! The address bar and the clipboard: the scenario mirrored into the URL (throttled by
//! [`crate::page::UrlThrottle`]), Copy link, copying text.

use super::app::{function, with_app};
use super::dom::set_text;
use crate::page::UrlWrite;
use crate::trf;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The link's query as the address bar has it now (`?…`, or empty).
pub(super) fn search() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The page's URL for the current scenario (same path, fragment kept for docs sites).
pub(super) fn current_url(query: &str) -> Option<String> {
    let location = web_sys::window()?.location();
    let path = location.pathname().ok()?;
    let hash = location.hash().ok().unwrap_or_default();
    Some(format!("{path}?{query}{hash}"))
}

/// Mirrors the scenario into the address bar with `history.replaceState`, as the throttle
/// decides; its timer calls back with `from_timer` to write the final state of a burst.
pub(super) fn write_url(from_timer: bool) {
    let Some((query, due)) = with_app(|app| {
        let query = app.page.scenario.to_query();
        let due = app.page.url.on_change(&query, now_ms(), from_timer);
        (query, due)
    }) else {
        return;
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    match due {
        UrlWrite::Now(_) => {
            if let (Ok(history), Some(url)) = (window.history(), current_url(&query)) {
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
            }
            super::runs::changed(&query);
        }
        UrlWrite::Later { wait_ms } => {
            let callback = with_app(|app| {
                function(&mut app.url_callback, || Closure::new(|| write_url(true)))
            });
            if let Some(callback) = callback {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                    &callback,
                    wait_ms.ceil() as i32,
                );
            }
        }
        UrlWrite::Nothing => {}
    }
}

/// The standalone URL of the current scenario: without `embed`, so it opens the whole page
/// even from an iframe.
fn standalone_url() -> Option<String> {
    let query = with_app(|app| app.page.scenario.standalone_query())?;
    let location = web_sys::window()?.location();
    Some(format!(
        "{}{}?{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default(),
        query
    ))
}

/// Copies the standalone URL of the current scenario; where the Clipboard API is missing
/// (not a secure context) the link is shown selected for Ctrl+C instead.
pub(super) fn copy_link() {
    if let Some(url) = standalone_url() {
        copy_text(
            &url,
            "copy-status",
            crate::i18n::tr("Link copied.", "链接已复制。"),
        );
    }
}

/// The lines only paper shows: the scenario's standalone link and its inputs.
pub(super) fn show_print_scenario() {
    if let Some(url) = standalone_url() {
        set_text("print-link", &url);
        if let Some(a) = super::dom::by_id::<web_sys::Element>("print-link") {
            let _ = a.set_attribute("href", &url);
        }
    }
    if let Some(inputs) = with_app(|app| app.page.print_inputs()) {
        set_text("print-inputs", &inputs);
    }
}

/// Copies `text` with the Clipboard API; where it is missing or refused (not a secure
/// context), the text is shown in `status_id` for the reader to copy by hand.
pub(super) fn copy_text(text: &str, status_id: &'static str, done: &'static str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let fallback = trf!("Copy this: {}", "请手动复制：{}", text);
    let navigator = window.navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .ok()
        .filter(|c| !c.is_undefined() && !c.is_null());
    let write = clipboard.as_ref().and_then(|c| {
        js_sys::Reflect::get(c, &JsValue::from_str("writeText"))
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()
    });
    match (clipboard, write) {
        (Some(c), Some(f)) => match f.call1(&c, &JsValue::from_str(text)) {
            Ok(promise) => {
                let promise = js_sys::Promise::from(promise);
                let ok = Closure::once(move |_: JsValue| set_text(status_id, done));
                let shown = fallback.clone();
                let err = Closure::once(move |_: JsValue| set_text(status_id, &shown));
                let _ = promise.then2(&ok, &err);
                ok.forget();
                err.forget();
            }
            Err(_) => set_text(status_id, &fallback),
        },
        _ => set_text(status_id, &fallback),
    }
}
