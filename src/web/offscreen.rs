//! Charts and tables below the fold while the reader drags a slider: when the same input
//! changes again within [`IDLE_MS`] (a dragged slider, a held arrow key, fast typing in one
//! box), the frame draws only the charts and writes only the tables on screen, so a drag costs
//! what the reader sees. The others are left stale and brought up to date once the inputs have
//! been still for [`IDLE_MS`] — so a reader who scrolls, exports or prints finds everything
//! current, and none of it delays a frame of the drag. Any other change (a click, a tab, a
//! first keystroke) redraws everything in one frame, figures, tables and charts together.

use super::redraw_stale;
use crate::panel::{ChartId, TableSlot};
use crate::scenario::Key;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;

/// How long the inputs must be still before the stale charts are drawn, ms: longer than the
/// gap between two events of a dragged slider, short enough to look immediate after it.
const IDLE_MS: f64 = 150.0;

/// The last input and when it came, whether the next frame may defer, and what was deferred.
#[derive(Default)]
struct State {
    last_input: Option<(Key, f64)>,
    hurried: bool,
    stale: Vec<ChartId>,
    tables: Vec<TableSlot>,
    idle_timer: Option<i32>,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
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

/// Called once per frame: whether this frame may leave what is off screen for later.
pub fn hurried() -> bool {
    STATE.with(|cell| std::mem::take(&mut cell.borrow_mut().hurried))
}

/// Whether any of `element` is inside the viewport. Read before the frame writes to the DOM
/// (the charts are drawn before the text), beside the canvas size the drawing reads anyway.
pub fn on_screen(element: &Element) -> bool {
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok()?.as_f64())
        .unwrap_or(f64::INFINITY);
    let rect = element.get_bounding_client_rect();
    rect.bottom() > 0.0 && rect.top() < height
}

/// A frame computed a new panel and left `stale` charts undrawn and `tables` unwritten: bring
/// them up to date once the inputs have been still for [`IDLE_MS`] (a later frame replaces
/// both lists and the timer).
pub fn set_stale(stale: Vec<ChartId>, tables: Vec<TableSlot>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let waiting = !stale.is_empty() || !tables.is_empty();
    let previous = STATE.with(|cell| {
        let mut state = cell.borrow_mut();
        state.stale = stale;
        state.tables = tables;
        state.idle_timer.take()
    });
    if let Some(id) = previous {
        window.clear_timeout_with_handle(id);
    }
    if !waiting {
        return;
    }
    let id = IDLE_CALLBACK.with(|cell| {
        let mut slot = cell.borrow_mut();
        let callback = slot.get_or_insert_with(|| Closure::new(on_idle));
        window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                callback.as_ref().unchecked_ref(),
                IDLE_MS as i32,
            )
            .ok()
    });
    STATE.with(|cell| cell.borrow_mut().idle_timer = id);
}

/// The inputs have been still: draw every stale chart, write every stale table.
fn on_idle() {
    let (stale, tables) = STATE.with(|cell| {
        let mut state = cell.borrow_mut();
        state.idle_timer = None;
        (
            std::mem::take(&mut state.stale),
            std::mem::take(&mut state.tables),
        )
    });
    redraw_stale(&stale, &tables);
}
