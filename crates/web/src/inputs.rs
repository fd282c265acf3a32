//! The inputs: number boxes, text areas, selects, sliders, the preset menu, lever checkboxes,
//! tabs and the language button. Text goes to [`crate::page::PageState`], which accepts or
//! refuses it; this module shows the outcome and asks for a redraw.

use super::dom::{by_id, document, listen, set_text};
use super::{clear_readout, on_pointer, request_frame, with_app};
use crate::controls::{SliderSpec, SLIDERS};
use crate::panel::ChartId;
use crate::scenario::Lever;
use crate::scenario::{Key, Preset, Scenario, View};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement,
    MouseEvent,
};

/// Fills the preset menu and the sliders' ranges, and writes every control from the scenario.
pub(super) fn init() {
    fill_preset_options();
    init_sliders();
    if let Some(scenario) = with_app(|app| app.page.scenario.clone()) {
        // The markup has no messages yet: nothing to clear.
        sync_all_controls(&scenario, false);
    }
}

fn input_id(key: Key) -> String {
    format!("{}-input", key.name())
}

fn fill_preset_options() {
    let Some(select) = by_id::<HtmlSelectElement>("preset-input") else {
        return;
    };
    // The name only, so the closed menu shows all of it; the description is the option's
    // tooltip, and the chosen preset's is written under the toolbar (`preset-about`). Once:
    // after a hand-over (`handover`) the first view's options are there.
    if select.length() > 1 {
        return;
    }
    for preset in Preset::ALL {
        if let Ok(option) = document().create_element("option") {
            let _ = option.set_attribute("value", preset.name());
            let _ = option.set_attribute("title", preset.description());
            option.set_text_content(Some(preset.name()));
            let _ = select.append_child(&option);
        }
    }
}

/// The `lv=` text of the lever checkboxes that are ticked.
fn checked_levers() -> String {
    Lever::ALL
        .iter()
        .filter(|l| {
            by_id::<HtmlInputElement>(&format!("lv-{}", l.key())).is_some_and(|c| c.checked())
        })
        .map(|l| l.key())
        .collect::<Vec<_>>()
        .join(",")
}

/// Writes every control from the scenario (on load and when a preset is chosen), clearing the
/// inputs' messages if `clear`. Only what differs is written: the build writes the default
/// scenario's values into the page (`panel::prerender::controls`), and writing a box's value,
/// even the same one, costs its editor's update (most of the start's task on a phone).
pub(super) fn sync_all_controls(scenario: &Scenario, clear: bool) {
    for lever in Lever::ALL {
        if let Some(check) = by_id::<HtmlInputElement>(&format!("lv-{}", lever.key())) {
            let on = scenario.plan.levers.contains(&lever);
            if check.checked() != on {
                check.set_checked(on);
            }
        }
    }
    for &key in Key::ALL {
        let text = scenario.get_text(key);
        let id = input_id(key);
        if let Some(input) = by_id::<HtmlInputElement>(&id) {
            if input.type_() == "checkbox" {
                if input.checked() != (text == "1") {
                    input.set_checked(text == "1");
                }
            } else if input.value() != text {
                input.set_value(&text);
            }
        } else if let Some(area) = by_id::<HtmlTextAreaElement>(&id) {
            let lines = text.replace(',', "\n").replace(':', " ");
            if area.value() != lines {
                area.set_value(&lines);
            }
        } else if let Some(select) = by_id::<HtmlSelectElement>(&id) {
            if select.value() != text {
                select.set_value(&text);
            }
        }
        if clear {
            clear_message(key);
        }
        sync_slider(scenario, key);
    }
    if let Some(select) = by_id::<HtmlSelectElement>("preset-input") {
        select.set_value(scenario.preset.map_or("", |p| p.name()));
    }
    set_text(
        "preset-about",
        scenario.preset.map_or("", |p| p.description()),
    );
}

/// Sets every slider's range from [`SLIDERS`], so the markup cannot drift from the mapping.
fn init_sliders() {
    for spec in SLIDERS.iter() {
        if let Some(range) = by_id::<HtmlInputElement>(&format!("{}-range", spec.key.name())) {
            range.set_min(&spec.min_position.to_string());
            range.set_max(&spec.max_position.to_string());
            range.set_step("1");
        }
    }
}

fn sync_slider(scenario: &Scenario, key: Key) {
    let Some(spec) = SliderSpec::for_key(key) else {
        return;
    };
    if let Some(range) = by_id::<HtmlInputElement>(&format!("{}-range", key.name())) {
        let position = spec.position_of(spec.current(scenario)).to_string();
        if range.value() != position {
            range.set_value(&position);
        }
    }
    update_valuetext(spec, scenario);
}

pub(super) fn show_message(key: Key, text: &str) {
    let id = input_id(key);
    set_text(&format!("{}-msg", key.name()), text);
    if let Some(el) = by_id::<HtmlElement>(&id) {
        let _ = el.set_attribute("aria-invalid", "true");
    }
}

fn clear_message(key: Key) {
    set_text(&format!("{}-msg", key.name()), "");
    if let Some(el) = by_id::<HtmlElement>(&input_id(key)) {
        let _ = el.remove_attribute("aria-invalid");
    }
}

/// A number box, text area or select changed: validate, keep the last valid value on error.
fn on_text(key: Key, text: &str) {
    apply_text(key, text, true);
}

/// Applies `text` to `key`. `sync` moves the key's slider to the new value; a change that
/// came from the slider itself must not, or a step whose value rounds back to the old one
/// would snap the slider back and keyboard users could never move it.
fn apply_text(key: Key, text: &str, sync: bool) {
    // Without a clock every keystroke continues the edit; Enter and leaving the box end it.
    let now_ms = web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now());
    let result = with_app(|app| {
        let outcome = app.page.apply_text(key, text, now_ms);
        (outcome, app.page.scenario.clone())
    });
    let Some((outcome, scenario)) = result else {
        return;
    };
    match outcome {
        Ok(()) => {
            super::offscreen::input(key);
            clear_message(key);
            if key.sets_other_inputs() {
                sync_all_controls(&scenario, false);
            }
            if sync {
                sync_slider(&scenario, key);
            } else if let Some(spec) = SliderSpec::for_key(key) {
                update_valuetext(spec, &scenario);
            }
            request_frame();
        }
        Err(refused) => {
            show_message(key, &refused.message);
            // A valid fragment typed earlier in this edit was undone: the page shows the
            // value from before the edit again (the box keeps the reader's text).
            if refused.restored {
                if sync {
                    sync_slider(&scenario, key);
                }
                request_frame();
            }
        }
    }
}

/// Enter, or leaving a box: what it holds is committed ([`crate::page::PageState::end_edit`]).
fn end_edit() {
    with_app(|app| app.page.end_edit());
}

/// A slider moved: its position becomes a value, the value becomes the box's text.
fn on_slider(spec: &SliderSpec, position: &str) {
    let Ok(position) = position.parse::<u32>() else {
        return;
    };
    let text = spec.text_at(position);
    if let Some(input) = by_id::<HtmlInputElement>(&input_id(spec.key)) {
        input.set_value(&text);
    }
    // A slider's value is complete: it ends any edit of its box, before and after.
    end_edit();
    apply_text(spec.key, &text, false);
    end_edit();
}

fn update_valuetext(spec: &SliderSpec, scenario: &Scenario) {
    if let Some(range) = by_id::<HtmlInputElement>(&format!("{}-range", spec.key.name())) {
        let text = spec.value_text(spec.current(scenario));
        if range.get_attribute("aria-valuetext").as_deref() != Some(text.as_str()) {
            let _ = range.set_attribute("aria-valuetext", &text);
        }
    }
}

fn on_preset(name: &str) {
    let Some(scenario) = with_app(|app| {
        app.page.choose_preset(name);
        app.page.scenario.clone()
    }) else {
        return;
    };
    sync_all_controls(&scenario, true);
    request_frame();
}

pub(super) fn bind_events() -> Result<(), JsValue> {
    for &key in Key::ALL {
        let id = input_id(key);
        if let Some(input) = by_id::<HtmlInputElement>(&id).filter(|i| i.type_() == "checkbox") {
            let el = input.clone();
            listen(&input, "change", move |_| {
                on_text(key, if el.checked() { "1" } else { "0" })
            })?;
        } else if let Some(input) = by_id::<HtmlInputElement>(&id) {
            let el = input.clone();
            listen(&input, "input", move |_| on_text(key, &el.value()))?;
            // `change` fires on Enter and when the box is left with a new value.
            listen(&input, "change", move |_| end_edit())?;
        } else if let Some(area) = by_id::<HtmlTextAreaElement>(&id) {
            let el = area.clone();
            listen(&area, "input", move |_| on_text(key, &el.value()))?;
            listen(&area, "change", move |_| end_edit())?;
        } else if let Some(select) = by_id::<HtmlSelectElement>(&id) {
            let el = select.clone();
            listen(&select, "change", move |_| on_text(key, &el.value()))?;
        }
    }
    for spec in SLIDERS.iter() {
        if let Some(range) = by_id::<HtmlInputElement>(&format!("{}-range", spec.key.name())) {
            let el = range.clone();
            listen(&range, "input", move |_| on_slider(spec, &el.value()))?;
        }
    }
    if let Some(select) = by_id::<HtmlSelectElement>("preset-input") {
        let el = select.clone();
        listen(&select, "change", move |_| on_preset(&el.value()))?;
    }
    for lever in Lever::ALL {
        if let Some(check) = by_id::<HtmlInputElement>(&format!("lv-{}", lever.key())) {
            listen(&check, "change", move |_| {
                on_text(Key::Levers, &checked_levers())
            })?;
        }
    }
    // Copy buttons: the text of an element, as written.
    for (button, source, status) in [
        ("report-copy-en", "report-en", "report-status"),
        ("report-copy-zh", "report-zh", "report-status"),
        ("cli-copy", "cli-command", "cli-status"),
    ] {
        if let Some(b) = by_id::<HtmlElement>(button) {
            listen(&b, "click", move |_| {
                let text = document()
                    .get_element_by_id(source)
                    .and_then(|e| e.text_content())
                    .unwrap_or_default();
                super::url::copy_text(&text, status, crate::i18n::tr("Copied.", "已复制。"));
            })?;
        }
    }
    for view in View::ALL {
        if let Some(tab) = by_id::<HtmlElement>(&format!("tab-{}", view.key())) {
            listen(&tab, "click", move |_| on_text(Key::View, view.key()))?;
            listen(&tab, "keydown", move |e| {
                if let Some(k) = e.dyn_ref::<web_sys::KeyboardEvent>() {
                    on_tab_key(view, k)
                }
            })?;
        }
    }
    if let Some(button) = by_id::<HtmlElement>("lang-toggle") {
        listen(&button, "click", move |_| switch_language())?;
    }
    for (id, on) in [("pin-a", true), ("unpin-a", false)] {
        if let Some(button) = by_id::<HtmlElement>(id) {
            listen(&button, "click", move |_| {
                with_app(|app| app.page.pin(on));
                request_frame();
            })?;
        }
    }
    if let Some(button) = by_id::<HtmlElement>("copy-link") {
        listen(&button, "click", move |_| super::url::copy_link())?;
    }
    for chart in ChartId::ALL {
        if let Some(canvas) = by_id::<HtmlCanvasElement>(&format!("{}-canvas", chart.id())) {
            let el = canvas.clone();
            listen(&canvas, "mousemove", move |e| {
                if let Some(m) = e.dyn_ref::<MouseEvent>() {
                    on_pointer(chart, &el, m)
                }
            })?;
            listen(&canvas, "mouseleave", move |_| clear_readout(chart))?;
        }
    }
    if let Some(window) = web_sys::window() {
        listen(&window, "resize", move |_| request_frame())?;
    }
    Ok(())
}

/// Reloads the page in the other language (the markup is written once, in English).
fn switch_language() {
    let Some(mut scenario) = with_app(|app| app.page.scenario.clone()) else {
        return;
    };
    scenario.lang = Some(match crate::i18n::lang() {
        crate::i18n::Lang::Zh => crate::i18n::Lang::En,
        crate::i18n::Lang::En => crate::i18n::Lang::Zh,
    });
    if let (Some(window), Some(url)) = (
        web_sys::window(),
        super::url::current_url(&scenario.to_query()),
    ) {
        let _ = window.location().replace(&url);
    }
}

/// Arrow keys move between tabs (WAI-ARIA tabs pattern): the focused tab is selected.
fn on_tab_key(view: View, event: &web_sys::KeyboardEvent) {
    let i = View::ALL.iter().position(|v| *v == view).unwrap_or(0);
    let n = View::ALL.len();
    let next = match event.key().as_str() {
        "ArrowRight" => (i + 1) % n,
        "ArrowLeft" => (i + n - 1) % n,
        "Home" => 0,
        "End" => n - 1,
        _ => return,
    };
    event.prevent_default();
    let target = View::ALL[next];
    on_text(Key::View, target.key());
    if let Some(tab) = by_id::<HtmlElement>(&format!("tab-{}", target.key())) {
        let _ = tab.focus();
    }
}
