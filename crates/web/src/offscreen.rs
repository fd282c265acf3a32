//! Charts and tables below the fold while the reader drags a slider: when the same input
//! changes again within [`IDLE_MS`] (a dragged slider, a held arrow key, fast typing in one
//! box), the frame draws only the charts and writes only the tables on screen, so a drag costs
//! what the reader sees. Once the inputs have been still for [`IDLE_MS`], or as soon as
//! anything scrolls into view meanwhile, one whole frame brings everything up to date — so a
//! reader who scrolls, exports or prints finds everything current, and none of it delays a
//! frame of the drag. Any other change (a click, a tab, a first keystroke) redraws everything
//! in one frame, figures, tables and charts together.
//!
//! A drag's frame reads no geometry: which charts and tables are on screen comes from an
//! `IntersectionObserver`, told by the browser after its own layout, and each canvas is drawn
//! at the size the last whole frame read. (Reading `getBoundingClientRect` or `clientWidth` in
//! the frame would force a layout of what the input handler had just changed, and the frame
//! would lay out again after the text was written.) A canvas that changed size during the drag
//! (a scrollbar came) is redrawn at its new size by the whole frame after it; a window resize
//! asks for a whole frame at once.
//!
//! "What is on screen" covers the charts and the tables, texts and lists (chart summaries, the
//! Plan panel's report and warnings, the footer's command, the print-only scenario). The
//! address bar, too, is written by the whole frame after a drag and not during it (a
//! `history.replaceState` costs a frame noticeable CPU); one timer per drag schedules that
//! frame, and each frame of the drag only moves its due time. Nor does a drag's frame run the
//! layout explorer's search: it keeps the last whole frame's, marked `data-pending`, and the
//! frame after the drag searches (`Panel::compute_keeping_search`). `canvas::Batched` keeps the
//! drawing itself cheap: consecutive lines and paths of one colour and width are stroked as
//! one `Path2D` of SVG path data. `tests/e2e/offscreen.test.mjs` holds a dragged page against a
//! fresh load, and a chart scrolled into view during a drag against the drag's own frames.
//!
//! The decisions (which frames draw only what is on screen, when the address is written, when
//! the idle timer is set, set again or cancelled) are [`crate::page::Drag`]'s, and what is on
//! screen and each canvas's last size are kept by [`crate::page::Seen`], both natively tested;
//! this module reads the clock, the observer and the canvases, and sets the timer.
//!
//! [`IDLE_MS`]: crate::page::IDLE_MS

use super::app::{function, with_app};
use crate::page::{Frame, IdleTimer, InView, Redraw};
use crate::scenario::Key;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, IntersectionObserverEntry};

fn now_ms() -> Option<f64> {
    Some(web_sys::window()?.performance()?.now())
}

/// An input changed `key`: the next frame may defer what is off screen if the same input
/// changed less than [`IDLE_MS`] before.
pub fn input(key: Key) {
    let Some(now) = now_ms() else {
        return;
    };
    with_app(|app| app.drag.input(key, now));
}

/// Called once per frame (`first_shown`: its panel is new): what this frame draws and whether
/// it writes the address. A frame that leaves what is off screen for later is followed, once
/// the inputs are still, by a whole one: the idle timer is set here if none runs.
pub fn frame(first_shown: bool) -> Frame {
    // Without a clock no input hurries a frame (`input`), so the time does not matter then.
    let now = now_ms().unwrap_or(0.0);
    let frame = with_app(|app| app.drag.frame(now, first_shown)).unwrap_or(Frame {
        redraw: Redraw::Whole,
        writes_url: true,
        start_idle_timer: None,
    });
    if let Some(wait_ms) = frame.start_idle_timer {
        start_idle_timer(wait_ms);
    }
    frame
}

/// Whether the element `id` was on screen when the browser last laid the page out (unknown:
/// yes).
pub fn on_screen(id: &str) -> bool {
    with_app(|app| app.seen.on_screen(id)).unwrap_or(true)
}

/// The client size of `canvas`: read (which lays the page out if the DOM changed), or, in a
/// drag's frame (`remembered`), the size the last read found.
pub fn canvas_size(canvas: &web_sys::HtmlCanvasElement, remembered: bool) -> (i32, i32) {
    let id = canvas.id();
    if let Some(size) = with_app(|app| app.seen.size(&id, remembered)).flatten() {
        return size;
    }
    let size = (canvas.client_width(), canvas.client_height());
    with_app(|app| app.seen.read(&id, size));
    size
}

/// Watches the elements a drag's frame may leave for later (once, at boot): every panel's
/// canvases, tables and chart summaries, the Plan panel's report and its warnings, the
/// footer's command, the print-only scenario.
pub fn observe() -> Result<(), JsValue> {
    let targets = super::dom::document().query_selector_all(
        ".panel canvas, .table-wrap, figcaption, .report-text, .warnings, #cli-command, #print-inputs",
    )?;
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new(on_intersections);
    let observer = web_sys::IntersectionObserver::new(callback.as_ref().unchecked_ref())?;
    for i in 0..targets.length() {
        if let Some(element) = targets.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            observer.observe(&element);
        }
    }
    // Observes for the page's whole life.
    callback.forget();
    Ok(())
}

/// Elements entered or left the viewport. If one came into view while a drag's frames were
/// leaving what was off screen for later, the whole page is redrawn now rather than when the
/// inputs are still.
fn on_intersections(entries: js_sys::Array) {
    let entries: Vec<(String, bool)> = entries
        .iter()
        .map(|entry| {
            let entry: IntersectionObserverEntry = entry.unchecked_into();
            (entry.target().id(), entry.is_intersecting())
        })
        .collect();
    let shown = entries.iter().any(|e| e.1);
    let decision = with_app(|app| {
        for (id, on_screen) in &entries {
            app.seen.set_on_screen(id, *on_screen);
        }
        if shown {
            app.drag.came_into_view()
        } else {
            InView::Nothing
        }
    });
    if let Some(InView::RedrawNow { cancel }) = decision {
        if let Some(window) = web_sys::window() {
            window.clear_timeout_with_handle(cancel);
        }
        super::request_frame();
    }
}

/// Sets the idle timer to fire in `wait_ms` (its one closure, made on first use).
fn start_idle_timer(wait_ms: f64) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(callback) =
        with_app(|app| function(&mut app.idle_callback, || Closure::new(on_idle_timer)))
    else {
        return;
    };
    let handle = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(&callback, wait_ms.ceil() as i32)
        .ok();
    with_app(|app| app.drag.timer_started(handle));
}

/// The idle timer fired: the whole frame if it is due, else the timer again for the rest.
fn on_idle_timer() {
    // Without a clock the frame is due.
    let now = now_ms().unwrap_or(f64::INFINITY);
    match with_app(|app| app.drag.timer_fired(now)) {
        Some(IdleTimer::Again { wait_ms }) => start_idle_timer(wait_ms),
        Some(IdleTimer::Redraw) => super::request_frame(),
        None => {}
    }
}
