//! The page's two modules, and how the first hands the page to the second (docs/architecture.md).
//!
//! The first view's module (crates/page) is this glue without the Cargo feature `full`: no
//! Learn view and no exports (PNG, SVG, CSV, Markdown, text), which most readers never open
//! and which its size budget should not carry. The full module (crates/full) is the same glue
//! with them. A link to the Learn view loads the full module instead of the first view's (the
//! loader reads `view=learn`, scripts/post-build.mjs), so it downloads one module, as any
//! other link does.
//!
//! **The hand-over.** When a reader of the first view opens the Learn view or presses an
//! export button, [`hand_over`] marks what is still to do on `<html data-then="png:strong-step">`
//! (an export's `data-export`; the Learn view is in the scenario) and adds the full module's
//! loader, named by `<meta name="full-module">`, as a module script. Until the full module
//! starts, this one keeps answering the reader, so no key or click is lost while it downloads.
//! As it starts (its language chosen and, for a Chinese reader, the catalogue in), the full
//! module dispatches `scaling:full-starting` on the document; the first view then writes its
//! scenario into the address bar — the link is the one serialisation of the page's state, and
//! the full module starts from it as from any link — and retires ([`super::app::retire`]: every
//! listener, timer and observer of it goes through the page's state and does nothing from then
//! on). In the same task the full module reads the link, binds its own listeners to the same
//! elements and draws its first frame, so no key or click falls between the two; once that
//! frame is ready it does what `data-then` says ([`take_up`]). The inputs, the panel and the
//! scroll position are the page's own, so nothing the reader typed is lost. If the loader
//! cannot be loaded, the first view says so in `#app-status` and goes on (a browser keeps a
//! module it could not fetch as failed, so a reload is what tries again).

#[cfg(not(feature = "full"))]
pub(super) use first_view::hand_over;
#[cfg(feature = "full")]
pub(super) use full::{start, take_up};

/// Where the first view leaves what the full module is still to do.
const THEN: &str = "data-then";

/// What the full module dispatches on the document as it starts, before it reads the link: the
/// first view, if it is there, writes its scenario into the link, retires and says so on
/// `<html data-handed-over>`.
const STARTING: &str = "scaling:full-starting";

/// The first view has handed the page over (`<html data-handed-over>`, until the full module
/// has read it).
const HANDED: &str = "data-handed-over";

#[cfg(not(feature = "full"))]
mod first_view {
    use super::super::app::{retire, with_app};
    use super::super::dom::{document, listen, set_hidden, set_text};
    use super::{HANDED, STARTING, THEN};
    use crate::trf;
    use std::cell::Cell;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    thread_local! {
        /// The full module's loader is added and has not failed.
        static LOADING: Cell<bool> = const { Cell::new(false) };
    }

    /// Hands the page over to the full module, which then does `then` (an export's
    /// `data-export`, or nothing: the Learn view is in the link). Until the full module starts,
    /// this one keeps answering the reader.
    pub(in super::super) fn hand_over(then: Option<&str>) {
        let (Some(html), Some(body)) = (document().document_element(), document().body()) else {
            return;
        };
        if let Some(action) = then {
            let _ = html.set_attribute(THEN, action);
        }
        if LOADING.with(Cell::get) {
            return;
        }
        let Some(loader) = document()
            .query_selector("meta[name=full-module]")
            .ok()
            .flatten()
            .and_then(|m| m.get_attribute("content"))
        else {
            return;
        };
        let Ok(script) = document().create_element("script") else {
            return;
        };
        LOADING.with(|l| l.set(true));
        // The full module marks the body ready again once it has drawn.
        let _ = body.remove_attribute("data-ready");
        set_text("app-status", crate::i18n::tr("Loading…", "正在加载…"));
        set_hidden("app-status", false);
        let _ = listen(&document(), STARTING, |_| {
            write_link();
            retire();
            if let Some(html) = document().document_element() {
                let _ = html.set_attribute(HANDED, "");
            }
        });
        let _ = script.set_attribute("type", "module");
        let _ = script.set_attribute("src", &loader);
        let failed = Closure::once_into_js(move || {
            LOADING.with(|l| l.set(false));
            let _ = body.set_attribute("data-ready", "1");
            set_text(
                "app-status",
                &trf!(
                    "the Learn view and the exports could not be loaded: {} (or the full files beside it) is missing or blocked; a copy of the page needs every file of dist/",
                    "学习视图与导出未能加载：{}（或与它同名前缀的 full 文件）缺失或被拦截；页面的副本需要 dist/ 中的全部文件",
                    super::super::present::named_file("full-module")
                ),
            );
        });
        script
            .unchecked_ref::<web_sys::HtmlElement>()
            .set_onerror(Some(failed.unchecked_ref()));
        if let Some(body) = document().body() {
            let _ = body.append_child(&script);
        }
    }

    /// Writes the scenario into the address bar now (not when the throttle would): the full
    /// module reads it next.
    fn write_link() {
        let Some(query) = with_app(|app| app.page.scenario.to_query()) else {
            return;
        };
        if let (Some(window), Some(url)) =
            (web_sys::window(), super::super::url::current_url(&query))
        {
            if let Ok(history) = window.history() {
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
            }
        }
    }
}

#[cfg(feature = "full")]
mod full {
    use super::super::dom::document;
    use super::THEN;

    /// Tells the first view, if it is there, that this module starts (called before the link
    /// is read); `true` if it was there and has handed the page over.
    pub(in super::super) fn start() -> bool {
        if let Ok(event) = web_sys::Event::new(super::STARTING) {
            let _ = document().dispatch_event(&event);
        }
        let Some(html) = document().document_element() else {
            return false;
        };
        let handed = html.has_attribute(super::HANDED);
        let _ = html.remove_attribute(super::HANDED);
        handed
    }

    /// What the first view left on `<html data-then>` to do (an export's `data-export`),
    /// once: asked when the first frame is ready.
    pub(in super::super) fn take_up() -> Option<String> {
        let html = document().document_element()?;
        let action = html.get_attribute(THEN)?;
        let _ = html.remove_attribute(THEN);
        Some(action)
    }
}
