//! The page's state in one place: [`App`], in the one `thread_local` of the page's glue, reached
//! through [`with_app`]. The decisions about it are made by plain structs in
//! [`crate::page`] ([`PageState`], [`Drag`], [`Seen`]); this holds them and what only the
//! browser side needs (the panel last drawn, what the DOM shows, the callbacks it keeps).
//!
//! Borrows are short: a `with_app` closure reads or updates fields and returns, and calls
//! nothing that could call back into `with_app` (a listener run by a DOM event dispatched
//! synchronously, a callback). A callback kept in the App leaves it as a cloned
//! [`js_sys::Function`] ([`function`]), so the App is no longer borrowed when the browser
//! is handed it.

use crate::chart::PlotArea;
use crate::page::{Drag, PageState, Seen};
use crate::panel::table::Table;
use crate::panel::{ChartId, Panel};
use crate::scenario::View;
use std::cell::RefCell;
use wasm_bindgen::closure::WasmClosure;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Everything the page remembers between events.
pub(super) struct App {
    /// The reader's scenario and the address-bar throttle.
    pub page: PageState,
    /// The visible panel as last computed (readouts and exports read it).
    pub panel: Option<Panel>,
    /// The plot area of each chart drawn, for the hover readouts.
    pub areas: Vec<(ChartId, PlotArea)>,
    /// A frame is asked for and not drawn yet.
    pub frame_requested: bool,
    /// The first frame is computed and its text written (its charts may still be pending).
    pub ready: bool,
    /// The panel the last frame showed.
    pub shown_view: Option<View>,
    /// What a drag's frames leave for later (`offscreen` carries it out).
    pub drag: Drag,
    /// What is on screen, and the canvases' sizes as last read (`offscreen`).
    pub seen: Seen,
    /// The key figures each `dom::render_figures` target shows now.
    pub figures: Vec<(String, Vec<[String; 2]>)>,
    /// The tables last shown, for the CSV and Markdown exports and to patch cells
    /// (`exports`).
    pub tables: Vec<Table>,
    /// The last `scaling:changed` posted (panel and query), so a redraw that changed nothing
    /// (a resize) does not post again (`api`).
    pub last_posted: String,
    /// The last content height posted in a `scaling:size` (`api`).
    pub last_height: f64,
    /// The Learn view's texts: 0 not asked for, 1 loading, 2 in the page (`learn`).
    #[cfg(feature = "full")]
    pub learn: u8,
    /// How far `after_paint` has gone: 0 (asks for a frame), 1 (a task), 2 (marks the body).
    pub paint_step: u8,
    /// The first frame's charts not drawn yet: each is drawn in a task of its own
    /// (`draw_pending`), so loading the page is no single long task (blocking time). A later
    /// frame that draws one of them takes it off.
    pub pending_charts: Vec<ChartId>,
    /// `(prefers-color-scheme: dark)`, asked once ([`App::prefers_dark`]).
    prefers_dark: Option<Option<web_sys::MediaQueryList>>,
    /// The callbacks the browser is handed again and again, each made on first use and kept
    /// for the page's life: the frame (`requestAnimationFrame`), `after_paint`, the drag's idle
    /// timer, the address bar's throttle timer.
    pub frame_callback: Option<Closure<dyn FnMut(f64)>>,
    pub paint_callback: Option<Closure<dyn FnMut()>>,
    pub idle_callback: Option<Closure<dyn FnMut()>>,
    pub url_callback: Option<Closure<dyn FnMut()>>,
    /// The runs module's loader, once added (`runs`).
    pub runs_loading: Option<js_sys::Promise>,
    /// The runs module is in and has taken its first action: it answers events itself.
    pub runs_loaded: bool,
}

impl App {
    pub fn new(page: PageState) -> Self {
        App {
            page,
            panel: None,
            areas: Vec::new(),
            frame_requested: false,
            ready: false,
            shown_view: None,
            drag: Drag::default(),
            seen: Seen::default(),
            figures: Vec::new(),
            runs_loading: None,
            runs_loaded: false,
            tables: Vec::new(),
            last_posted: String::new(),
            last_height: -1.0,
            #[cfg(feature = "full")]
            learn: 0,
            paint_step: 0,
            pending_charts: Vec::new(),
            prefers_dark: None,
            frame_callback: None,
            paint_callback: None,
            idle_callback: None,
            url_callback: None,
        }
    }

    /// Whether the system asks for a dark page. The `MediaQueryList` is made on first use and
    /// kept: it follows the system's setting by itself, and `matchMedia` parses its query anew
    /// on every call, which a drag's frames would pay.
    pub fn prefers_dark(&mut self) -> bool {
        self.prefers_dark
            .get_or_insert_with(|| {
                web_sys::window()
                    .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            })
            .as_ref()
            .is_some_and(|m| m.matches())
    }
}

thread_local! {
    /// The page's state: `None` until boot.
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
    /// This module has handed the page over to the full one (`handover`).
    static RETIRED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Retires this module's state: the first view has handed the page over to the full module
/// (`handover`). From then on [`with_app`] gives `None` and [`live`] is `false`, so every
/// listener, timer and observer of this module does nothing.
#[cfg(not(feature = "full"))]
pub(super) fn retire() {
    RETIRED.with(|r| r.set(true));
}

/// This module runs the page (it has not handed it over).
pub(super) fn live() -> bool {
    RETIRED.with(|r| !r.get())
}

/// Installs the page's state (once, at boot).
pub(super) fn install(app: App) {
    APP.with(|cell| *cell.borrow_mut() = Some(app));
}

/// Runs `f` on the page's state: `None` before boot, once the page is handed over ([`retire`]),
/// or if the state is already borrowed (a `with_app` inside another, which the short borrows
/// above rule out).
pub(super) fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    if !live() {
        return None;
    }
    APP.with(|cell| cell.try_borrow_mut().ok()?.as_mut().map(f))
}

/// The function the browser calls for the callback in `slot` (made by `make` the first time
/// and kept there), as a handle of its own that outlives the borrow of the App.
pub(super) fn function<T: ?Sized + WasmClosure>(
    slot: &mut Option<Closure<T>>,
    make: impl FnOnce() -> Closure<T>,
) -> js_sys::Function {
    slot.get_or_insert_with(make)
        .as_ref()
        .unchecked_ref::<js_sys::Function>()
        .clone()
}
