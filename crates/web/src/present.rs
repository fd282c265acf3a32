//! How the page looks around the model: language, colour theme, embedding, downloads.
//! Nothing here computes a figure; texts come from [`crate::i18n`], tables from
//! [`crate::panel`], charts from [`crate::chart`].

use super::dom::document;
use crate::chart::{ChartStyle, Theme};
use crate::i18n::{self, Lang};
use crate::panel::ChartId;
use crate::scenario::{page_zh, Scenario, ThemeChoice};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
#[cfg(feature = "full")]
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// The language to show: `lang=` if given, else the browser's, else English.
pub fn choose_lang(scenario: &Scenario) -> Lang {
    scenario
        .lang
        .or_else(|| {
            web_sys::window()
                .and_then(|w| w.navigator().language())
                .and_then(|l| Lang::from_key(&l))
        })
        .unwrap_or_default()
}

/// Fetches the Chinese catalogue named by `<meta name="zh-catalogue">` (written by
/// scripts/zh-catalogue.mjs; a data: URL in the single-file build), installs it, then calls
/// `done` — exactly once, with whether the texts are in: `false` when there is no catalogue,
/// the fetch fails or takes over 4 s (the page then shows English rather than nothing).
pub fn load_catalogue(done: Box<dyn FnOnce(bool)>) {
    fetch_named(
        "zh-catalogue",
        Box::new(move |text| done(text.is_some_and(|text| i18n::install_catalogue(&text) > 0))),
    );
}

/// The file name that `<meta name="{meta}" content="./file">` names (`learn-en-<hash>.html`),
/// for a message that tells a host which file of `dist/` it did not copy; the meta's name when
/// the page has no such meta.
pub fn named_file(meta: &str) -> String {
    document()
        .query_selector(&format!("meta[name={meta}]"))
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"))
        .map(|url| url.rsplit('/').next().unwrap_or(&url).to_string())
        .unwrap_or_else(|| meta.to_string())
}

/// Fetches the file that `<meta name="{meta}" content="./file">` names (the post-build step
/// writes these for files with hashed names) and hands its text to `done` — `None` on a
/// missing meta, an HTTP error, a network error or after 4 s, whichever comes first.
pub fn fetch_named(meta: &str, done: Box<dyn FnOnce(Option<String>)>) {
    let url = document()
        .query_selector(&format!("meta[name={meta}]"))
        .ok()
        .flatten()
        .and_then(|m| m.get_attribute("content"));
    let (Some(url), Some(window)) = (url, web_sys::window()) else {
        done(None);
        return;
    };
    let pending = std::cell::RefCell::new(Some(done));
    let finish: std::rc::Rc<dyn Fn(Option<String>)> = std::rc::Rc::new(move |text| {
        let done = pending.borrow_mut().take();
        if let Some(done) = done {
            done(text);
        }
    });
    let fail = |finish: &std::rc::Rc<dyn Fn(Option<String>)>| {
        let finish = finish.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| finish(None))
    };
    let on_text = {
        let finish = finish.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |text: JsValue| finish(text.as_string()))
    };
    let on_text_error = fail(&finish);
    let on_response = {
        let finish = finish.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |response: JsValue| {
            match response
                .dyn_into::<web_sys::Response>()
                .ok()
                .filter(|r| r.ok())
                .and_then(|r| r.text().ok())
            {
                Some(text) => {
                    let _ = text.then(&on_text).catch(&on_text_error);
                }
                None => finish(None),
            }
        })
    };
    let on_fetch_error = fail(&finish);
    let _ = window
        .fetch_with_str(&url)
        .then(&on_response)
        .catch(&on_fetch_error);
    // Called at most once each, once per page: leaked rather than tracked.
    on_response.forget();
    on_fetch_error.forget();
    let timeout = Closure::once_into_js(move || finish(None));
    let _ =
        window.set_timeout_with_callback_and_timeout_and_arguments_0(timeout.unchecked_ref(), 4000);
}

/// Sets `<html lang>`, the title and every `data-i18n` text to `lang`. The markup is written
/// in English (with its `<var>`/`<sub>` formatting), so only Chinese replaces texts.
pub fn apply_lang(lang: Lang) {
    i18n::set_lang(lang);
    let doc = document();
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("lang", lang.html_tag());
    }
    if lang == Lang::Zh {
        doc.set_title("弱扩展与强扩展 — Amdahl 与 Gustafson，交互模型");
    }
    // The markup is English; in Chinese every keyed text is replaced (the language toggle then
    // reads "English"). An English page leaves them alone: walking them would delay its first
    // draw.
    let nodes = doc
        .query_selector_all("[data-i18n]")
        .ok()
        .filter(|_| lang == Lang::Zh);
    if let Some(nodes) = nodes {
        for i in 0..nodes.length() {
            let Some(el) = nodes
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            else {
                continue;
            };
            let Some(key) = el.get_attribute("data-i18n") else {
                continue;
            };
            // A chart's name comes from its row of the chart table, an input's texts from its row of
            // the key table, the rest from i18n::UI.
            let chart = key.strip_prefix("chart-").and_then(ChartId::from_id);
            if let Some(text) = chart.map(ChartId::name).or_else(|| page_zh(&key)) {
                el.set_text_content(Some(text));
            }
        }
    }
    if let Some(toggle) = doc.get_element_by_id("lang-toggle") {
        let other = if lang == Lang::Zh { "en" } else { "zh-Hans" };
        let _ = toggle.set_attribute("lang", other);
    }
}

/// Whether the page is dark: `theme=` if given, else `prefers-color-scheme`.
pub fn is_dark(scenario: &Scenario) -> bool {
    match scenario.theme {
        Some(ThemeChoice::Dark) => true,
        Some(ThemeChoice::Light) => false,
        None => super::with_app(|app| app.prefers_dark()).unwrap_or(false),
    }
}

/// Marks `<html data-theme>` so the style sheet and the charts agree.
pub fn apply_theme(dark: bool) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    }
}

/// The chart colours for the theme ([`is_dark`]), at `scale` device pixels per CSS pixel.
pub fn chart_style(dark: bool, scale: f64) -> ChartStyle {
    ChartStyle {
        scale,
        theme: if dark { Theme::DARK } else { Theme::LIGHT },
    }
}

/// `embed=<panel>`: the page shows one panel with minimal chrome (the style sheet hides the
/// header, tabs and footer of `html.embedded`; www/index.html's first script sets the class
/// before the first paint when the link embeds a prerendered panel).
pub fn apply_embed(scenario: &Scenario) {
    if let Some(root) = document().document_element() {
        let class = root.class_list();
        let _ = if scenario.embed.is_some() {
            class.add_1("embedded")
        } else {
            class.remove_1("embedded")
        };
        let _ = class.toggle_with_force(
            "charts-only",
            scenario.embed.is_some() && scenario.charts_only,
        );
    }
}

/// `embed=<panel>`: the "open the full page" link points at the scenario without `embed`.
pub fn full_page_link(scenario: &Scenario) {
    if scenario.embed.is_some() {
        super::dom::set_link("full-page", &scenario.standalone_query());
    }
}

/// Offers `bytes` (text) as a file download named `name`.
#[cfg(feature = "full")]
pub fn download_text(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    if let Ok(url) = Url::create_object_url_with_blob(&blob) {
        download_url(name, &url);
        let _ = Url::revoke_object_url(&url);
    }
}

/// Clicks a temporary `<a download>` for `url`.
#[cfg(feature = "full")]
pub fn download_url(name: &str, url: &str) {
    let Some(a) = document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return;
    };
    a.set_href(url);
    a.set_download(name);
    // Detached on purpose: attached, its click would bubble to the document's delegated click
    // listener that called us, re-entering that closure while it runs.
    a.click();
}
