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
//! the frame forced a layout of what the input handler had just changed, and the frame laid
//! out again after the text was written: 0.6–0.9 ms of each update, issue 14's profile.) A
//! canvas that changed size during the drag (a scrollbar came) is redrawn at its new size by
//! the whole frame after it; a window resize asks for a whole frame at once.

use crate::scenario::Key;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, IntersectionObserverEntry};

/// How long the inputs must be still before the whole page is redrawn, ms: longer than the
/// gap between two events of a dragged slider, short enough to look immediate after it.
const IDLE_MS: f64 = 150.0;

/// The last input and when it came, whether the next frame may defer, and the timer of the
/// whole frame that follows a deferring one, with when that frame is due.
#[derive(Default)]
struct State {
    last_input: Option<(Key, f64)>,
    hurried: bool,
    idle_timer: Option<i32>,
    idle_due_ms: f64,
}

/// What the page last saw of an element, by id: whether the `IntersectionObserver` last put it
/// on screen, and (a canvas) its client size when a whole frame last read it. A few dozen
/// elements: a list is smaller in the bundle than a map.
type Seen = Vec<(String, bool, Option<(i32, i32)>)>;

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
    static SEEN: RefCell<Seen> = const { RefCell::new(Vec::new()) };
    static IDLE_CALLBACK: RefCell<Option<Closure<dyn FnMut()>>> = const { RefCell::new(None) };
}

fn now_ms() -> Option<f64> {
    Some(web_sys::window()?.performance()?.now())
}

/// An input changed `key`: the next frame may defer what is off screen if the same input
/// changed less than [`IDLE_MS`] before.
pub fn input(key: Key) {
    let Some(now) = now_ms() else {
        return;
    };
    STATE.with(|cell| {
        let mut state = cell.borrow_mut();
        let previous = state.last_input.replace((key, now));
        state.hurried = previous.is_some_and(|(k, t)| k == key && now - t < IDLE_MS);
    });
}

/// Called once per frame: whether this frame may leave what is off screen for later. A frame
/// that may is followed, once the inputs are still, by a whole one.
pub fn hurried() -> bool {
    let hurried = STATE.with(|cell| std::mem::take(&mut cell.borrow_mut().hurried));
    if hurried {
        redraw_when_idle();
    }
    hurried
}

/// The entry of element `id`, added if new (on screen, size unknown).
fn seen<R>(id: &str, f: impl FnOnce(&mut (String, bool, Option<(i32, i32)>)) -> R) -> R {
    SEEN.with(|cell| {
        let mut seen = cell.borrow_mut();
        let i = match seen.iter().position(|e| e.0 == id) {
            Some(i) => i,
            None => {
                seen.push((id.to_string(), true, None));
                seen.len() - 1
            }
        };
        f(&mut seen[i])
    })
}

/// Whether the element `id` was on screen when the browser last laid the page out (unknown:
/// yes).
pub fn on_screen(id: &str) -> bool {
    seen(id, |e| e.1)
}

/// The client size of `canvas`: read (which lays the page out if the DOM changed), or, in a
/// drag's frame (`remembered`), the size the last read found.
pub fn canvas_size(canvas: &web_sys::HtmlCanvasElement, remembered: bool) -> (i32, i32) {
    seen(&canvas.id(), |e| match e.2 {
        Some(size) if remembered => size,
        _ => *e.2.insert((canvas.client_width(), canvas.client_height())),
    })
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
    let mut shown = false;
    for entry in entries.iter() {
        let entry: IntersectionObserverEntry = entry.unchecked_into();
        let now = entry.is_intersecting();
        shown |= now;
        seen(&entry.target().id(), |e| e.1 = now);
    }
    if shown && STATE.with(|cell| cell.borrow().idle_timer.is_some()) {
        on_idle();
    }
}

/// Puts the whole frame that follows a drag [`IDLE_MS`] from now. One timer serves the whole
/// drag: each frame only moves the due time, and the timer, when it fires early, waits for
/// the rest (clearing and setting a timer every frame cost ~0.1 ms of each, issue 14).
fn redraw_when_idle() {
    let Some(now) = now_ms() else {
        return;
    };
    let running = STATE.with(|cell| {
        let mut state = cell.borrow_mut();
        state.idle_due_ms = now + IDLE_MS;
        state.idle_timer.is_some()
    });
    if !running {
        start_idle_timer(IDLE_MS);
    }
}

/// Sets the idle timer to fire in `wait_ms` (its one closure, made on first use).
fn start_idle_timer(wait_ms: f64) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let id = IDLE_CALLBACK.with(|cell| {
        let mut slot = cell.borrow_mut();
        let callback = slot.get_or_insert_with(|| Closure::new(on_idle_timer));
        window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                callback.as_ref().unchecked_ref(),
                wait_ms.ceil() as i32,
            )
            .ok()
    });
    STATE.with(|cell| cell.borrow_mut().idle_timer = id);
}

/// The idle timer fired: the whole frame if it is due, else the timer again for the rest.
fn on_idle_timer() {
    let due_ms = STATE.with(|cell| {
        let mut state = cell.borrow_mut();
        state.idle_timer = None;
        state.idle_due_ms
    });
    match now_ms() {
        Some(now) if due_ms - now >= 1.0 => start_idle_timer(due_ms - now),
        _ => on_idle(),
    }
}

/// The inputs have been still (or something came into view): one whole frame.
fn on_idle() {
    if let Some(id) = STATE.with(|cell| cell.borrow_mut().idle_timer.take()) {
        if let Some(window) = web_sys::window() {
            window.clear_timeout_with_handle(id);
        }
    }
    super::request_frame();
}
