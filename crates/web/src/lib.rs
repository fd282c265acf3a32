//! # scaling-explorer: the page
//!
//! The browser glue (WebAssembly, built by Trunk from `www/index.html`): reads the URL, binds
//! the inputs, redraws once per animation frame and writes the URL back. It computes nothing
//! itself: text goes into the core's `page::PageState`, its panel layer (`scaling_core::panel`)
//! computes what each panel shows and draws it; this crate puts it into the DOM. It depends on
//! the core, not on the model, so it cannot name a formula or run a sweep. Natively it is empty.
//!
//! Its modules are listed in the code map of `docs/architecture.md`.
//!
//! ## The first paint, before the model
//!
//! `www/index.html`'s first script (moved into `inline-<hash>.js` by the build) reads the link
//! only to choose what to show. The default inputs with `view=`/`embed=` one of the prerendered
//! panels: a `MutationObserver` marks that tab and un-hides that panel as the parser adds
//! them, before any paint, and `embed` puts `embedded` on `<html>`. On phones (and embeds
//! narrower than two columns, where the panel's first figure is laid out above the inputs)
//! `html.hold-inputs` keeps the inputs out of the layout until the panel's first figure is
//! parsed whole, so a paint between the two moves nothing. `view=learn`: the Learn texts are
//! fetched at once and put into `#learn-content` (`data-loaded`; `learn` then only activates
//! them), and the wasm is fetched after they are painted (`scaling:texts`). Anything else:
//! `<html class="swap">` hides the page until the start marks it ready.
//!
//! The loader (`scripts/post-build.mjs`) is an `async` module script with `blocking="render"`:
//! once the first contentful paint is on screen and one more frame has run (at once when the
//! page waits hidden), it fetches the wasm and compiles it as it streams in
//! (`WebAssembly.compileStreaming`), waits for the DOM, then imports the glue and instantiates
//! the compiled module. The first frame is drawn at boot, in the module's own task. A response the streaming compiler
//! refuses goes to wasm-bindgen as it is, whose fallback and error apply. The build fails on an
//! inline script that does not parse (`scripts/extract-loader.mjs`: the minifier joins its
//! lines, so a `//` comment would swallow the rest).
//!
//! The start then runs as a chain of short tasks (`next_task`): the start, the inputs, the
//! handlers, the texts, then one chart per task (`App::pending_charts`), so no task blocks
//! input for long. The Learn figures are drawn one per task as they come near the screen (an
//! `IntersectionObserver` with a one-screen margin; their prerendered charts stand in until
//! then), and `#learn-content[data-drawn]` is set once those near the screen at the start are
//! drawn. `body[data-ready]` comes after the last chart. Chinese text stays out of an English
//! reader's first layout (it would load a CJK font first): the language button's label is laid
//! out once `<body data-painted>` is set, a task after the first painted frame.

#![cfg(target_arch = "wasm32")]

// The core's layers, named at the root so that `crate::panel` etc. read as they did when
// this glue was the core's `web` module.
use scaling_core::{chart, controls, i18n, page, panel, scenario, trf};

mod api;
mod app;
mod canvas;
mod dom;
mod exports;
mod handover;
mod inputs;
#[cfg(feature = "full")]
mod learn;
mod offscreen;
mod present;
mod runs;
mod url;

use crate::chart::{ChartError, PlotArea};
use crate::page::PageState;
use crate::panel::{ChartId, Panel, Shown};
use crate::scenario::{decode, Decoded, UrlError, View};
use app::{function, with_app, App};
use dom::{by_id, document, render_figures, render_list, set_hidden, set_pending, set_text};
use plotters::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlElement, MouseEvent};

/// The page's allocator. `AssumeSingleThreaded` is sound because wasm32-unknown-unknown
/// without the atomics feature has exactly one thread.
#[global_allocator]
#[allow(unsafe_code)]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

/// Entry point, run by wasm-bindgen when the module loads.
#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    // A panic prints its message and source location in the console (then the module aborts
    // as before); the e2e suites treat any console error as a failure.
    console_error_panic_hook::set_once();
    // The page starts in the next task: this one is the module's instantiation, and with the
    // start in it, it would be a long task at phone speed.
    next_task(|| {
        if let Err(e) = begin() {
            wasm_bindgen::throw_val(e);
        }
    });
    Ok(())
}

/// Reads the link and boots in its language (the Chinese texts first, if they are needed).
fn begin() -> Result<(), JsValue> {
    let search = url::search();
    let decoded = decode(&search);
    let lang = present::choose_lang(&decoded.scenario);
    if lang == crate::i18n::Lang::Zh && !crate::i18n::HAS_ZH {
        // The Chinese texts are a separate download (src/i18n.rs); the page starts once they
        // are in, so a Chinese reader never sees the English first. The link is read again:
        // its messages are written in the language of the thread when it is decoded.
        // Without them (a 404, a time-out) the page is English, says so in #lang-status, and
        // tells the browser (`<html lang="en">`).
        present::load_catalogue(Box::new(move |loaded| {
            let lang = if loaded { lang } else { crate::i18n::Lang::En };
            crate::i18n::set_lang(lang);
            let _ = boot(decode(&search), lang);
            set_hidden("lang-status", loaded);
        }));
        return Ok(());
    }
    boot(decoded, lang)
}

/// A test hook for the browser suite: panics, so a test can see that the panic's message and
/// location reach the console (console_error_panic_hook). Never called by the page.
#[wasm_bindgen(js_name = scalingTestPanic)]
pub fn test_panic() {
    panic!("scaling-explorer test panic (scalingTestPanic)");
}

/// Everything after choosing the language: the page's first render and its event handlers.
fn boot(decoded: Decoded, lang: crate::i18n::Lang) -> Result<(), JsValue> {
    // A first view that handed the page over (`handover`) writes its scenario into the link
    // and retires now; the page is this module's from here. The link is read again, and the
    // start runs in this one task, so that no event falls between the two modules' listeners.
    #[cfg(feature = "full")]
    let (decoded, at_once) = match handover::start() {
        true => (decode(&url::search()), true),
        false => (decoded, false),
    };
    #[cfg(not(feature = "full"))]
    let at_once = false;
    let step = move |f: Box<dyn FnOnce()>| {
        if at_once {
            f();
        } else {
            next_task(f);
        }
    };
    // First: the theme below asks the state for the system's dark mode.
    app::install(App::new(PageState::new(decoded.scenario.clone())));
    present::apply_lang(lang);
    present::apply_theme(present::is_dark(&decoded.scenario));
    present::apply_embed(&decoded.scenario);
    // No frame is asked for until the first one below: it draws whatever the events change.
    with_app(|app| app.frame_requested = true);
    // The rest in tasks of their own, each short on a phone's CPU (in one task, the module's
    // start, the inputs, the handlers and the first frame would block input for long): the
    // inputs, the handlers, then the first frame. It is not left to the next animation frame:
    // the module runs once the document is parsed, so the layout the drawing reads is there,
    // and waiting for the vsync would only delay the first chart.
    step(Box::new(move || {
        inputs::init();
        show_link_messages(&decoded);
        step(Box::new(move || {
            let bound = inputs::bind_events()
                .and_then(|()| offscreen::observe())
                .and_then(|()| exports::add_buttons())
                .and_then(|()| runs::bind())
                .and_then(|()| api::install());
            if let Err(e) = bound {
                wasm_bindgen::throw_val(e);
            }
            step(Box::new(frame));
        }));
    }));
    Ok(())
}

/// A frame of the Learn view: its texts, figures and exercises (`learn`), no panel.
#[cfg(feature = "full")]
fn learn_frame(scenario: &crate::scenario::Scenario) {
    learn::show(scenario);
    set_hidden("app-status", true);
    let first = with_app(|app| !std::mem::replace(&mut app.ready, true));
    set_text("cli-command", "");
    url::show_print_scenario();
    url::write_url(false);
    if first == Some(true) {
        mark_ready();
    }
}

/// Runs `f` once in a task of its own (`setTimeout(f, 0)`).
fn next_task(f: impl FnOnce() + 'static) {
    if let Some(window) = web_sys::window() {
        let callback = Closure::once_into_js(f);
        let _ = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 0);
    }
}

/// The link's problems: the banner, and a message next to each input whose value in the link
/// was replaced.
fn show_link_messages(decoded: &Decoded) {
    let url_messages: Vec<String> = decoded.errors.iter().map(|e| e.to_string()).collect();
    render_list("url-messages-list", &url_messages);
    set_hidden("url-messages", url_messages.is_empty());
    for e in &decoded.errors {
        if let UrlError::Input(input) = e {
            inputs::show_message(
                input.key,
                &trf!(
                    "{}; the link's value was replaced by {}",
                    "{}；链接中的值已替换为 {}",
                    input,
                    decoded.scenario.get_text(input.key)
                ),
            );
        }
    }
}

/// A new scenario from outside the inputs (a preset, a host page's message): every control
/// follows it, then the page redraws.
fn replace_scenario(decoded: &Decoded) {
    with_app(|app| {
        app.page.scenario = decoded.scenario.clone();
        app.page.end_edit();
    });
    inputs::sync_all_controls(&decoded.scenario, true);
    show_link_messages(decoded);
    request_frame();
}

/// Asks for one redraw at the next animation frame; any number of input events in between
/// coalesce into that one redraw.
fn request_frame() {
    let callback = with_app(|app| {
        let already = std::mem::replace(&mut app.frame_requested, true);
        (!already).then(|| function(&mut app.frame_callback, || Closure::new(|_: f64| frame())))
    });
    if let (Some(Some(callback)), Some(window)) = (callback, web_sys::window()) {
        let _ = window.request_animation_frame(&callback);
    }
}

/// Shows the panel of `view` and marks its tab.
fn show_view(view: View) {
    for v in View::ALL {
        let selected = v == view;
        set_hidden(&format!("panel-{}", v.key()), !selected);
        if let Some(tab) = by_id::<HtmlElement>(&format!("tab-{}", v.key())) {
            let _ = tab.set_attribute("aria-selected", if selected { "true" } else { "false" });
            tab.set_tab_index(if selected { 0 } else { -1 });
        }
    }
    set_hidden("llm-controls", matches!(view, View::Laws | View::Learn));
}

/// Writes what a panel shows into the DOM: key figures, tables, summaries, lists — except the
/// tables, texts and lists whose element id `later` names (off screen during a drag).
fn render_text(figures_id: &str, shown: &Shown, later: &dyn Fn(&str) -> bool) {
    render_figures(figures_id, &shown.figures);
    for slot in &shown.tables {
        if !later(&format!("{}-table", slot.id)) {
            exports::show_table(slot);
        }
    }
    for (id, text) in shown.texts.iter().filter(|(id, _)| !later(id)) {
        set_text(id, text);
    }
    for (id, items) in shown.lists.iter().filter(|(id, _)| !later(id)) {
        render_list(id, items);
    }
    for (id, query) in &shown.links {
        dom::set_link(id, query);
    }
}

/// One redraw: the visible panel computed, its charts drawn, its text written, then the URL.
fn frame() {
    let Some(scenario) = with_app(|app| {
        app.frame_requested = false;
        app.page.scenario.clone()
    }) else {
        return;
    };
    let view = scenario.view;
    // Charts are drawn before the text is written, so reading the canvases' sizes finds a
    // clean layout instead of forcing one after the tables changed. Except when the panel
    // first appears: its tables may add a scrollbar that narrows the canvases.
    let text_first = with_app(|app| app.shown_view.replace(view) != Some(view)).unwrap_or(true);
    if text_first {
        // Only when the panel changes: rewriting the same attributes every frame invalidates
        // style, and the geometry read below would then force a layout.
        show_view(view);
    }
    if view == View::Learn {
        // The first view has no Learn view: the full module shows it (`handover`).
        #[cfg(not(feature = "full"))]
        handover::hand_over(None);
        #[cfg(feature = "full")]
        learn_frame(&scenario);
        return;
    }
    // During a drag only the charts, tables and texts on screen; the others in one whole
    // frame once the inputs are still or something comes into view (`page::Drag`, carried
    // out by offscreen.rs). A panel shown for the first time is drawn whole. What is
    // on screen comes from an observer and the canvases keep their last sizes: the frame of a
    // drag reads no geometry, so it forces no layout. Nor does it search the layouts again:
    // the explorer stays the last whole frame's, marked pending, until the inputs are still.
    let decided = offscreen::frame(text_first);
    let kept = decided
        .defers_search()
        .then(|| {
            with_app(|app| {
                app.panel
                    .as_ref()
                    .and_then(|last| Panel::compute_keeping_search(&scenario, view, last))
            })
        })
        .flatten()
        .flatten();
    let search_kept = kept.is_some();
    let panel = kept.unwrap_or_else(|| Panel::compute(&scenario, view));
    set_pending("strong-layouts-table", search_kept);
    let shown = panel.shown();
    if text_first {
        render_text(panel.figures_id(), &shown, &|_| false);
    }
    let later = |id: &str| !decided.draws(|| offscreen::on_screen(id));
    let mut drawn: Vec<ChartId> = panel
        .charts()
        .filter(|&chart| !later(&format!("{}-canvas", chart.id())))
        .collect();
    // The first frame leaves its charts to a task each (`draw_pending`): on a phone the
    // module's start, the texts and every chart in one task would all be blocking time. The prerendered SVGs stand in for them meanwhile.
    let first_frame = with_app(|app| !app.ready).unwrap_or(false);
    with_app(|app| {
        if first_frame {
            app.pending_charts = std::mem::take(&mut drawn);
        } else {
            app.pending_charts.retain(|c| !drawn.contains(c));
        }
    });
    let (areas, failures) = draw_charts(&drawn, &panel, decided.remembers_sizes());
    if !text_first {
        render_text(panel.figures_id(), &shown, &later);
    }
    set_hidden("app-status", failures.is_empty());
    set_text("app-status", &failures.join("; "));
    // The host hears of the frame after the drag, whose search is the scenario's.
    if !search_kept {
        api::notify_changed(&panel);
    }
    present::full_page_link(&scenario);
    if let Some((command, pin)) = with_app(|app| (app.page.cli_command(), app.page.pin_status())) {
        if !later("cli-command") {
            set_text("cli-command", &command);
        }
        set_text("pin-status", &pin);
        set_hidden("pin-status", pin.is_empty());
        set_hidden("unpin-a", pin.is_empty());
    }
    if !later("print-inputs") {
        url::show_print_scenario();
    }
    let first = with_app(|app| {
        app.panel = Some(panel);
        // A drag's frame keeps the plot areas of the charts it left as they were.
        app.areas
            .retain(|(c, _)| decided.remembers_sizes() && !drawn.contains(c));
        app.areas.extend(areas);
        !std::mem::replace(&mut app.ready, true)
    });
    // The address bar too is written by the whole frame after a drag, not during it: a frame
    // that calls `history.replaceState` costs noticeably more CPU (the browser's side of it
    // included).
    if decided.writes_url {
        url::write_url(false);
    }
    if first == Some(true) {
        pending_task();
    }
}

/// Asks for a task that draws the next pending chart (so the browser can paint and handle
/// input in between), or marks the page ready if none is left.
fn pending_task() {
    if with_app(|app| !app.pending_charts.is_empty()).unwrap_or(false) {
        next_task(draw_pending);
    } else {
        mark_ready();
    }
}

/// Draws the first of the first frame's charts still pending, with the panel last computed,
/// then asks for the next task ([`pending_task`]).
fn draw_pending() {
    let Some((chart, panel)) = with_app(|app| {
        let chart = (!app.pending_charts.is_empty()).then(|| app.pending_charts.remove(0));
        (chart, app.panel.take())
    }) else {
        return;
    };
    if let (Some(chart), Some(panel)) = (chart, panel.as_ref()) {
        match draw_chart(chart, panel, present::is_dark(&panel.scenario), false) {
            Ok(Some(area)) => {
                with_app(|app| app.areas.push((chart, area)));
            }
            Ok(None) => {}
            Err(e) => {
                set_hidden("app-status", false);
                set_text("app-status", &e.to_string());
            }
        }
    }
    with_app(|app| {
        if app.panel.is_none() {
            app.panel = panel;
        }
    });
    pending_task();
}

/// `<body data-ready="1">`: the first frame is drawn, its charts too (tests and hosts wait
/// for it). Then, once it is on screen, `data-painted`: the style sheet lays out the language
/// button's Chinese label only then, so the first frame does not wait for a CJK font
/// (www/style.css).
fn mark_ready() {
    if let Some(body) = document().body() {
        let _ = body.set_attribute("data-ready", "1");
    }
    // A link to another view than the prerendered one kept the page hidden until now
    // (www/index.html's first script); the Learn view waits for its texts (learn.rs).
    let learn = with_app(|app| app.page.scenario.view == View::Learn).unwrap_or(false);
    if !learn {
        dom::show_page();
    }
    after_paint();
    // What the first view left to do when it handed the page over (an export).
    #[cfg(feature = "full")]
    if let Some(action) = handover::take_up() {
        exports::act(&action);
    }
}

/// Sets `<body data-painted>` after the next frame is painted: called at once, it asks for that
/// frame; in the frame, for a task (which runs after its paint); in the task, it marks the body.
fn after_paint() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some((step, callback)) = with_app(|app| {
        let step = app.paint_step;
        app.paint_step += 1;
        (
            step,
            function(&mut app.paint_callback, || Closure::new(after_paint)),
        )
    }) else {
        return;
    };
    match step {
        0 => drop(window.request_animation_frame(&callback)),
        1 => drop(window.set_timeout_with_callback_and_timeout_and_arguments_0(&callback, 0)),
        _ => {
            if let Some(body) = document().body() {
                let _ = body.set_attribute("data-painted", "");
            }
        }
    }
}

/// Draws `charts` of `panel`: the plot areas to read out on hover, and the failures. With
/// `remembered_sizes` (a drag's frame), each canvas is drawn at the size the last whole frame
/// read, so no layout is forced ([`offscreen::canvas_size`]).
fn draw_charts(
    charts: &[ChartId],
    panel: &Panel,
    remembered_sizes: bool,
) -> (Vec<(ChartId, PlotArea)>, Vec<String>) {
    let mut areas = Vec::new();
    let mut failures = Vec::new();
    // Once per frame: every chart of it has the same theme.
    let dark = present::is_dark(&panel.scenario);
    // An embed of charts only (an article's figure) leaves out a chart with nothing to plot
    // (www/style.css hides `figure[data-empty]` there).
    if panel.scenario.embed.is_some() && panel.scenario.charts_only {
        for &chart in charts {
            if let Some(figure) = by_id::<HtmlElement>(chart.id()) {
                let _ = figure.toggle_attribute_with_force("data-empty", !panel.has_data(chart));
            }
        }
    }
    for &chart in charts {
        match draw_chart(chart, panel, dark, remembered_sizes) {
            Ok(Some(area)) => areas.push((chart, area)),
            Ok(None) => {}
            Err(e) => failures.push(e.to_string()),
        }
    }
    (areas, failures)
}

/// Sizes the canvas for the device pixel ratio and draws one chart into it.
fn draw_chart(
    chart: ChartId,
    panel: &Panel,
    dark: bool,
    remembered_size: bool,
) -> Result<Option<PlotArea>, ChartError> {
    let Some(canvas) = by_id::<HtmlCanvasElement>(&format!("{}-canvas", chart.id())) else {
        return Ok(None);
    };
    let (css_width, css_height) = offscreen::canvas_size(&canvas, remembered_size);
    if css_width <= 0 || css_height <= 0 {
        return Ok(None); // not displayed (embedded view, print, collapsed)
    }
    let ratio = pixel_ratio();
    draw_into(
        &canvas,
        (css_width as u32, css_height as u32),
        &present::chart_style(dark, ratio),
        chart,
        panel,
    )
}

/// Gives `canvas` `scale` device pixels per CSS pixel of `css_size` (a new size clears it).
fn size_canvas(canvas: &HtmlCanvasElement, css_size: (u32, u32), scale: f64) {
    let (width, height) = (
        (css_size.0 as f64 * scale).round() as u32,
        (css_size.1 as f64 * scale).round() as u32,
    );
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
}

/// The device pixel ratio the page draws at.
fn pixel_ratio() -> f64 {
    web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0)
}

/// Draws `chart` into `canvas` sized `css_size` CSS pixels at `style.scale` device pixels
/// each — the page's HiDPI canvases and the 2x PNG export share it.
pub(crate) fn draw_into(
    canvas: &HtmlCanvasElement,
    css_size: (u32, u32),
    style: &crate::chart::ChartStyle,
    chart: ChartId,
    panel: &Panel,
) -> Result<Option<PlotArea>, ChartError> {
    size_canvas(canvas, css_size, style.scale);
    let backend = canvas::backend(canvas).ok_or_else(|| ChartError("no 2D context".to_string()))?;
    let root = canvas::PageBackend::Left(backend).into_drawing_area();
    let area = panel.draw(chart, &root, style)?;
    root.present()?;
    // The build's prerendered SVG of this chart (`panel::prerender`), laid over the canvas
    // until now: the canvas takes its place at the same size.
    if let Some(svg) = canvas
        .next_element_sibling()
        .filter(|e| e.class_list().contains("prerendered"))
    {
        svg.remove();
    }
    Ok(area)
}

/// The pointer moved over a chart: the readout and the crosshair follow it.
fn on_pointer(chart: ChartId, canvas: &HtmlCanvasElement, event: &MouseEvent) {
    let rect = canvas.get_bounding_client_rect();
    if rect.width() <= 0.0 || rect.height() <= 0.0 {
        return;
    }
    let css_x = event.client_x() as f64 - rect.left();
    let css_y = event.client_y() as f64 - rect.top();
    let px = css_x * canvas.width() as f64 / rect.width();
    let py = css_y * canvas.height() as f64 / rect.height();
    let text = with_app(|app| {
        let area = app.areas.iter().find(|(c, _)| *c == chart)?.1;
        app.panel.as_ref()?.readout(chart, area.x_at(px, py)?)
    })
    .flatten();
    let crosshair = canvas
        .parent_element()
        .and_then(|p| p.query_selector(".crosshair").ok().flatten())
        .and_then(|c| c.dyn_into::<HtmlElement>().ok());
    match text {
        Some(text) => {
            set_text(&format!("{}-readout", chart.id()), &text);
            if let Some(c) = crosshair {
                let _ = c
                    .style()
                    .set_property("left", &format!("{}px", css_x.round() as i32));
                c.set_hidden(false);
            }
        }
        None => clear_readout(chart),
    }
}

fn clear_readout(chart: ChartId) {
    set_text(
        &format!("{}-readout", chart.id()),
        crate::i18n::tr(
            "Hover over the chart to read values.",
            "将鼠标移到图上读取数值。",
        ),
    );
    if let Some(c) = document()
        .query_selector(&format!("#{} .crosshair", chart.id()))
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<HtmlElement>().ok())
    {
        c.set_hidden(true);
    }
}
