//! The browser glue: reads the URL, binds the inputs, redraws once per animation frame and
//! writes the URL back. It computes nothing itself: text goes into [`Scenario::set`], the
//! model and [`crate::report`] produce what is shown, [`crate::chart`] draws it.

mod canvas;
mod dom;
mod present;

use crate::chart::llm::{self as llm_chart, LlmChart};
use crate::chart::plan::{self as plan_chart, PlanChart};
use crate::chart::{laws as laws_chart, ChartError, ChartStyle, PlotArea};
use crate::checklist;
use crate::controls::{SliderSpec, SLIDERS};
use crate::model::levers::Lever;
use crate::model::llm::LlmSweep;
use crate::model::plan::PlanSweep;
use crate::model::sweep::LawsSweep;
use crate::report;
use crate::scenario::{decode, Key, Preset, Scenario, UrlError, View};
use dom::{by_id, document, render_figures, render_list, render_table, set_hidden, set_text};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Event, HtmlCanvasElement, HtmlElement, HtmlInputElement, HtmlSelectElement,
    HtmlTextAreaElement, MouseEvent,
};

/// The page's allocator. `AssumeSingleThreaded` is sound because wasm32-unknown-unknown
/// without the atomics feature has exactly one thread.
#[global_allocator]
#[allow(unsafe_code)]
static ALLOCATOR: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };

/// Minimum time between two `history.replaceState` calls while a slider moves (browsers
/// throttle faster callers); the last state is always written after the pause.
const URL_WRITE_INTERVAL_MS: f64 = 200.0;

/// The charts of the page: canvas id stem and how to draw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ChartId {
    Speedup,
    Efficiency,
    KarpFlatt,
    Llm(LlmChart),
    /// The boxes figure, drawn in the strong (`true`) or weak panel.
    Boxes(bool),
    Plan(PlanChart),
}

impl ChartId {
    const ALL: [ChartId; 14] = [
        ChartId::Speedup,
        ChartId::Efficiency,
        ChartId::KarpFlatt,
        ChartId::Llm(LlmChart::StrongStep),
        ChartId::Llm(LlmChart::StrongEfficiency),
        ChartId::Llm(LlmChart::StrongThroughput),
        ChartId::Boxes(true),
        ChartId::Llm(LlmChart::WeakStep),
        ChartId::Llm(LlmChart::WeakEfficiency),
        ChartId::Llm(LlmChart::WeakThroughput),
        ChartId::Llm(LlmChart::WeakSteps),
        ChartId::Boxes(false),
        ChartId::Plan(PlanChart::TimeToQuality),
        ChartId::Plan(PlanChart::GpuHours),
    ];

    fn stem(self) -> &'static str {
        match self {
            ChartId::Speedup => "laws-speedup",
            ChartId::Efficiency => "laws-efficiency",
            ChartId::KarpFlatt => "laws-karp-flatt",
            ChartId::Llm(c) => c.id(),
            ChartId::Boxes(true) => "strong-boxes",
            ChartId::Boxes(false) => "weak-boxes",
            ChartId::Plan(c) => c.id(),
        }
    }

    /// The panel the chart belongs to.
    fn view(self) -> View {
        match self {
            ChartId::Speedup | ChartId::Efficiency | ChartId::KarpFlatt => View::Laws,
            ChartId::Boxes(true) => View::Strong,
            ChartId::Boxes(false) => View::Weak,
            ChartId::Llm(c) if LlmChart::STRONG.contains(&c) => View::Strong,
            ChartId::Llm(_) => View::Weak,
            ChartId::Plan(_) => View::Plan,
        }
    }

    #[inline(never)]
    fn draw<DB: DrawingBackend>(
        self,
        root: &DrawingArea<DB, Shift>,
        sweeps: &Sweeps,
        style: &ChartStyle,
    ) -> Result<Option<PlotArea>, ChartError> {
        match (self, sweeps) {
            (ChartId::Speedup, Sweeps::Laws(s)) => {
                laws_chart::draw_speedup(root, s, style).map(Some)
            }
            (ChartId::Efficiency, Sweeps::Laws(s)) => {
                laws_chart::draw_efficiency(root, s, style).map(Some)
            }
            (ChartId::KarpFlatt, Sweeps::Laws(s)) => {
                laws_chart::draw_karp_flatt(root, s, style).map(Some)
            }
            (ChartId::Llm(c), Sweeps::Llm(s)) => llm_chart::draw(root, s, c, style).map(Some),
            (ChartId::Boxes(_), Sweeps::Llm(s)) => {
                llm_chart::draw_boxes(root, s, style).map(|_| None)
            }
            (ChartId::Plan(c), Sweeps::Plan(s, p)) => {
                plan_chart::draw(root, p, s.summary.n_max, c, style).map(Some)
            }
            _ => Ok(None),
        }
    }
}

/// What the visible panel was computed from (only the visible panel is computed).
#[derive(Debug, Clone)]
enum Sweeps {
    Laws(LawsSweep),
    Llm(LlmSweep),
    Plan(LlmSweep, PlanSweep),
}

/// Everything the page remembers between events.
struct App {
    scenario: Scenario,
    sweeps: Option<Sweeps>,
    areas: Vec<(ChartId, PlotArea)>,
    frame_requested: bool,
    url_written: String,
    last_url_write_ms: f64,
    url_timer_pending: bool,
    ready: bool,
    /// The panel the last frame showed.
    shown_view: Option<View>,
}

/// A callback kept alive for the page's lifetime and reused for every request.
type Callback<Args> = RefCell<Option<Closure<Args>>>;

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
    static FRAME_CALLBACK: Callback<dyn FnMut(f64)> = const { RefCell::new(None) };
    static URL_CALLBACK: Callback<dyn FnMut()> = const { RefCell::new(None) };
    static TABLES: RefCell<Vec<(&'static str, crate::report::Table)>> = const { RefCell::new(Vec::new()) };
}

fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> Option<R> {
    APP.with(|cell| cell.try_borrow_mut().ok()?.as_mut().map(f))
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Entry point, run by wasm-bindgen when the module loads.
#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    // Panics abort (profile.release) and show as a RuntimeError in the console; the e2e
    // suites treat any such error as a failure.
    let search = web_sys::window()
        .map(|w| w.location())
        .and_then(|l| l.search().ok())
        .unwrap_or_default();
    let decoded = decode(&search);
    let lang = present::choose_lang(&decoded.scenario);
    if lang == crate::i18n::Lang::Zh && !crate::i18n::HAS_ZH {
        // The Chinese texts are a separate download (src/i18n.rs); the page starts once they
        // are in, so a Chinese reader never sees the English first.
        present::load_catalogue(Box::new(move || {
            // Read again now that the messages about the link can be written in Chinese.
            crate::i18n::set_lang(lang);
            let _ = boot(decode(&search), lang);
        }));
        return Ok(());
    }
    boot(decoded, lang)
}

/// Everything after choosing the language: the page's first render and its event handlers.
fn boot(decoded: crate::scenario::Decoded, lang: crate::i18n::Lang) -> Result<(), JsValue> {
    present::apply_lang(lang);
    present::apply_theme(present::is_dark(&decoded.scenario));
    present::apply_embed(&decoded.scenario);
    let url_messages: Vec<String> = decoded.errors.iter().map(|e| e.to_string()).collect();
    render_list("url-messages-list", &url_messages);
    set_hidden("url-messages", url_messages.is_empty());

    APP.with(|cell| {
        *cell.borrow_mut() = Some(App {
            scenario: decoded.scenario.clone(),
            sweeps: None,
            areas: Vec::new(),
            frame_requested: false,
            url_written: String::new(),
            last_url_write_ms: f64::NEG_INFINITY,
            url_timer_pending: false,
            ready: false,
            shown_view: None,
        })
    });
    fill_preset_options();
    init_sliders();
    sync_all_controls(&decoded.scenario);
    for e in &decoded.errors {
        if let UrlError::Input(input) = e {
            show_message(
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
    bind_events()?;
    add_exports()?;
    request_frame();
    Ok(())
}

/// The tables last shown, by container id, for the CSV and Markdown exports.
fn remember_table(container: &'static str, table: crate::report::Table) {
    TABLES.with(|t| {
        let mut tables = t.borrow_mut();
        tables.retain(|(id, _)| *id != container);
        tables.push((container, table));
    });
}

/// Renders a table into its container and remembers it for export.
fn show_table(container: &'static str, table: crate::report::Table) {
    TABLES.with(|t| {
        let tables = t.borrow();
        let previous = tables
            .iter()
            .find(|(id, _)| *id == container)
            .map(|(_, t)| t);
        render_table(container, &table, previous);
    });
    remember_table(container, table);
}

const TABLE_CONTAINERS: [&str; 7] = [
    "laws-speedup-table",
    "laws-efficiency-table",
    "laws-measured-table",
    "strong-table",
    "weak-table",
    "plan-table",
    "lever-table",
];

/// Adds the export buttons: PNG (2x) under every chart, CSV (UTF-8 with BOM, so Excel reads
/// Chinese headers) and Markdown under every table, text for the report. One delegated
/// listener serves them all (a closure per button would cost the size budget).
fn add_exports() -> Result<(), JsValue> {
    use crate::i18n::tr;
    let doc = document();
    let row_for =
        |anchor: &web_sys::Element, after: bool, label: &str| -> Option<web_sys::Element> {
            let row = doc.create_element("div").ok()?;
            let _ = row.set_attribute("class", "exports");
            let _ = row.set_attribute("role", "group");
            let _ = row.set_attribute("aria-label", label);
            if after {
                let parent = anchor.parent_node()?;
                let _ = parent.insert_before(&row, anchor.next_sibling().as_ref());
            } else {
                let _ = anchor.append_child(&row);
            }
            Some(row)
        };
    let button = |row: &web_sys::Element, text: &str, action: &str, title: &str| {
        if let Ok(b) = doc.create_element("button") {
            let _ = b.set_attribute("type", "button");
            let _ = b.set_attribute("class", "export");
            let _ = b.set_attribute("data-export", action);
            // A description, not the name: the name stays the visible text (WCAG 2.5.3).
            let _ = b.set_attribute("title", title);
            b.set_text_content(Some(text));
            let _ = row.append_child(&b);
        }
    };
    for chart in ChartId::ALL {
        if let Some(row) = doc
            .get_element_by_id(chart.stem())
            .and_then(|f| row_for(&f, false, tr("Export chart", "导出图表")))
        {
            let title = tr("Download the chart as PNG at 2x", "下载 2 倍分辨率 PNG");
            button(&row, "PNG 2x", &format!("png:{}", chart.stem()), title);
            let title = tr(
                "Download the chart as SVG (vector, drawn by the same chart code)",
                "下载 SVG 矢量图（与页面同一套绘图代码）",
            );
            button(&row, "SVG", &format!("svg:{}", chart.stem()), title);
        }
    }
    for container in TABLE_CONTAINERS {
        if let Some(row) = doc
            .get_element_by_id(container)
            .and_then(|t| row_for(&t, true, tr("Export table", "导出表格")))
        {
            button(
                &row,
                "CSV",
                &format!("csv:{container}"),
                tr("Download the table as CSV", "下载 CSV"),
            );
            button(
                &row,
                "Markdown",
                &format!("md:{container}"),
                tr("Download the table as Markdown", "下载 Markdown"),
            );
        }
    }
    if let Some(row) = doc
        .get_element_by_id("report-zh")
        .and_then(|r| row_for(&r, true, tr("Export report", "导出报告")))
    {
        for lang in ["en", "zh"] {
            button(
                &row,
                &format!("TXT ({lang})"),
                &format!("txt:{lang}"),
                tr("Download the report as text", "下载报告文本"),
            );
        }
    }
    listen(&doc, "click", |e| {
        let action = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-export]").ok().flatten())
            .and_then(|el| el.get_attribute("data-export"));
        let Some((kind, what)) = action.as_deref().and_then(|a| a.split_once(':')) else {
            return;
        };
        match kind {
            "png" | "svg" => {
                if let Some(chart) = ChartId::ALL.into_iter().find(|c| c.stem() == what) {
                    export_chart(chart, kind == "svg");
                }
            }
            "csv" | "md" => {
                if let Some(container) = TABLE_CONTAINERS.into_iter().find(|c| *c == what) {
                    export_table(container, kind == "md");
                }
            }
            "txt" => {
                let text = document()
                    .get_element_by_id(&format!("report-{what}"))
                    .and_then(|e| e.text_content())
                    .unwrap_or_default();
                present::download_text(
                    &format!("scaling-report-{what}.txt"),
                    "text/plain;charset=utf-8",
                    &text,
                );
            }
            _ => {}
        }
    })
}

fn export_table(container: &'static str, markdown: bool) {
    let Some(table) = TABLES.with(|t| {
        t.borrow()
            .iter()
            .find(|(id, _)| *id == container)
            .map(|(_, table)| table.clone())
    }) else {
        return;
    };
    if markdown {
        present::download_text(
            &format!("{}.md", table.id),
            "text/markdown;charset=utf-8",
            &table.to_markdown(),
        );
    } else {
        // The BOM makes Excel read the file as UTF-8 (Chinese headers).
        present::download_text(
            &format!("{}.csv", table.id),
            "text/csv;charset=utf-8",
            &format!("\u{feff}{}", table.to_csv()),
        );
    }
}

/// PNG: the chart redrawn at twice its on-screen size; SVG: the chart recorded as vector
/// shapes at its on-screen size. Both by the chart code the page draws with.
fn export_chart(chart: ChartId, svg: bool) {
    let Some(canvas) = by_id::<HtmlCanvasElement>(&format!("{}-canvas", chart.stem())) else {
        return;
    };
    let (w, h) = (
        canvas.client_width().max(320) as u32,
        canvas.client_height().max(200) as u32,
    );
    let Some((sweeps, scenario)) =
        with_app(|app| Some((app.sweeps.clone()?, app.scenario.clone()))).flatten()
    else {
        return;
    };
    let Some(off) = document()
        .create_element("canvas")
        .ok()
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
    else {
        return;
    };
    if svg {
        let out = std::rc::Rc::new(std::cell::RefCell::new(String::new()));
        let drawn = canvas::CanvasBackend::svg(&off, (w, h), out.clone())
            .map(|backend| draw_on(backend, chart, &sweeps, &scenario, 1.0));
        if let Some(Ok(_)) = drawn {
            present::download_text(
                &format!("{}.svg", chart.stem()),
                "image/svg+xml;charset=utf-8",
                &out.borrow(),
            );
        }
    } else if draw_into(off.clone(), w, h, 2.0, chart, &sweeps, &scenario).is_ok() {
        if let Ok(url) = off.to_data_url_with_type("image/png") {
            present::download_url(&format!("{}.png", chart.stem()), &url);
        }
    }
}

fn input_id(key: Key) -> String {
    format!("{}-input", key.name())
}

fn fill_preset_options() {
    let Some(select) = by_id::<HtmlSelectElement>("preset-input") else {
        return;
    };
    for preset in Preset::ALL {
        if let Ok(option) = document().create_element("option") {
            let _ = option.set_attribute("value", preset.name());
            option.set_text_content(Some(&format!(
                "{} — {}",
                preset.name(),
                preset.description()
            )));
            let _ = select.append_child(&option);
        }
    }
}

/// Writes every control from the scenario (on load and when a preset is chosen).
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

fn sync_all_controls(scenario: &Scenario) {
    for lever in Lever::ALL {
        if let Some(check) = by_id::<HtmlInputElement>(&format!("lv-{}", lever.key())) {
            check.set_checked(scenario.plan.levers.contains(&lever));
        }
    }
    for &key in Key::ALL {
        let text = scenario.get_text(key);
        let id = input_id(key);
        if let Some(input) = by_id::<HtmlInputElement>(&id) {
            if input.type_() == "checkbox" {
                input.set_checked(text == "1");
            } else {
                input.set_value(&text);
            }
        } else if let Some(area) = by_id::<HtmlTextAreaElement>(&id) {
            area.set_value(&text.replace(',', "\n").replace(':', " "));
        } else if let Some(select) = by_id::<HtmlSelectElement>(&id) {
            select.set_value(&text);
        }
        clear_message(key);
        sync_slider(scenario, key);
    }
    if let Some(select) = by_id::<HtmlSelectElement>("preset-input") {
        select.set_value(scenario.preset.map_or("", |p| p.name()));
    }
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
        range.set_value(&spec.position_of(spec.current(scenario)).to_string());
    }
    update_valuetext(spec, scenario);
}

fn show_message(key: Key, text: &str) {
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
    let result = with_app(|app| {
        let outcome = app.scenario.set(key, text);
        (outcome, app.scenario.clone())
    });
    let Some((outcome, scenario)) = result else {
        return;
    };
    match outcome {
        Ok(()) => {
            clear_message(key);
            if sync {
                sync_slider(&scenario, key);
            } else if let Some(spec) = SliderSpec::for_key(key) {
                update_valuetext(spec, &scenario);
            }
            request_frame();
        }
        Err(e) => show_message(
            key,
            &trf!(
                "{}; still using {}",
                "{}；仍使用 {}",
                e,
                scenario.get_text(key)
            ),
        ),
    }
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
    apply_text(spec.key, &text, false);
}

fn update_valuetext(spec: &SliderSpec, scenario: &Scenario) {
    if let Some(range) = by_id::<HtmlInputElement>(&format!("{}-range", spec.key.name())) {
        let _ = range.set_attribute("aria-valuetext", &spec.value_text(spec.current(scenario)));
    }
}

fn on_preset(name: &str) {
    let scenario = Preset::from_name(name).map(Preset::scenario).or_else(|| {
        // "(custom)": keep the values, forget the preset as the URL's base.
        with_app(|app| {
            let mut s = app.scenario.clone();
            s.preset = None;
            s
        })
    });
    let Some(scenario) = scenario else {
        return;
    };
    with_app(|app| app.scenario = scenario.clone());
    sync_all_controls(&scenario);
    request_frame();
}

fn listen<T: JsCast + AsRef<web_sys::EventTarget>>(
    target: &T,
    event: &str,
    handler: impl FnMut(Event) + 'static,
) -> Result<(), JsValue> {
    let closure = Closure::<dyn FnMut(Event)>::new(handler);
    AsRef::<web_sys::EventTarget>::as_ref(target)
        .add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())?;
    // The page lives as long as its listeners; leaking them is the intended lifetime.
    closure.forget();
    Ok(())
}

fn bind_events() -> Result<(), JsValue> {
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
        } else if let Some(area) = by_id::<HtmlTextAreaElement>(&id) {
            let el = area.clone();
            listen(&area, "input", move |_| on_text(key, &el.value()))?;
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
    for (button, lang) in [("report-copy-en", "en"), ("report-copy-zh", "zh")] {
        if let Some(b) = by_id::<HtmlElement>(button) {
            listen(&b, "click", move |_| {
                let text = document()
                    .get_element_by_id(&format!("report-{lang}"))
                    .and_then(|e| e.text_content())
                    .unwrap_or_default();
                copy_text(&text, "report-status", "Copied.");
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
    if let Some(button) = by_id::<HtmlElement>("copy-link") {
        listen(&button, "click", move |_| copy_link())?;
    }
    for chart in ChartId::ALL {
        if let Some(canvas) = by_id::<HtmlCanvasElement>(&format!("{}-canvas", chart.stem())) {
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
    let Some(mut scenario) = with_app(|app| app.scenario.clone()) else {
        return;
    };
    scenario.lang = Some(match crate::i18n::lang() {
        crate::i18n::Lang::Zh => crate::i18n::Lang::En,
        crate::i18n::Lang::En => crate::i18n::Lang::Zh,
    });
    if let (Some(window), Some(url)) = (web_sys::window(), current_url(&scenario.to_query())) {
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

/// Asks for one redraw at the next animation frame; any number of input events in between
/// coalesce into that one redraw.
fn request_frame() {
    let already = with_app(|app| std::mem::replace(&mut app.frame_requested, true));
    if already != Some(false) {
        return;
    }
    FRAME_CALLBACK.with(|cell| {
        let mut slot = cell.borrow_mut();
        let callback = slot.get_or_insert_with(|| Closure::new(|_time: f64| frame()));
        if let Some(window) = web_sys::window() {
            let _ = window.request_animation_frame(callback.as_ref().unchecked_ref());
        }
    });
}

/// Sizes the canvas for the device pixel ratio and draws one chart into it.
fn draw_chart(
    chart: ChartId,
    sweeps: &Sweeps,
    scenario: &Scenario,
) -> Result<Option<PlotArea>, ChartError> {
    let Some(canvas) = by_id::<HtmlCanvasElement>(&format!("{}-canvas", chart.stem())) else {
        return Ok(None);
    };
    let (css_width, css_height) = (canvas.client_width(), canvas.client_height());
    if css_width <= 0 || css_height <= 0 {
        return Ok(None); // not displayed (embedded view, print, collapsed)
    }
    let ratio = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .clamp(1.0, 4.0);
    draw_into(
        canvas,
        css_width as u32,
        css_height as u32,
        ratio,
        chart,
        sweeps,
        scenario,
    )
}

/// Draws `chart` into `canvas` sized `css_width × css_height` CSS pixels at `scale` device
/// pixels each — the page's HiDPI canvases and the 2x PNG export share it. Never inlined:
/// two inlined copies of the chart code would cost kilobytes of the size budget.
#[inline(never)]
fn draw_into(
    canvas: HtmlCanvasElement,
    css_width: u32,
    css_height: u32,
    scale: f64,
    chart: ChartId,
    sweeps: &Sweeps,
    scenario: &Scenario,
) -> Result<Option<PlotArea>, ChartError> {
    let (width, height) = (
        (css_width as f64 * scale).round() as u32,
        (css_height as f64 * scale).round() as u32,
    );
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
    let backend = canvas::CanvasBackend::new(&canvas)
        .ok_or_else(|| ChartError("no 2D context".to_string()))?;
    draw_on(backend, chart, sweeps, scenario, scale)
}

/// The one call of the chart code: canvas and SVG export both come through here, so it is
/// compiled once.
#[inline(never)]
fn draw_on(
    backend: canvas::CanvasBackend,
    chart: ChartId,
    sweeps: &Sweeps,
    scenario: &Scenario,
    scale: f64,
) -> Result<Option<PlotArea>, ChartError> {
    let root = backend.into_drawing_area();
    chart.draw(&root, sweeps, &present::chart_style(scenario, scale))
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
    set_hidden("llm-controls", view == View::Laws);
}

/// Writes the Laws panel's text: key figures, tables, chart summaries.
fn render_laws(scenario: &Scenario, sweep: &LawsSweep) {
    render_figures(
        "laws-figures",
        &report::laws_key_figures(sweep, scenario.laws.measured_kind),
    );
    show_table("laws-speedup-table", report::laws_speedup_table(sweep));
    show_table(
        "laws-efficiency-table",
        report::laws_efficiency_table(sweep),
    );
    match report::laws_measured_table(sweep) {
        Some(table) => show_table("laws-measured-table", table),
        None => {
            set_text("laws-measured-table", "");
            TABLES.with(|t| {
                t.borrow_mut()
                    .retain(|(id, _)| *id != "laws-measured-table")
            });
        }
    }
    set_text("laws-speedup-summary", &report::laws_chart_summary(sweep));
    set_text(
        "laws-efficiency-summary",
        &report::laws_efficiency_summary(sweep),
    );
    set_text(
        "laws-karp-flatt-summary",
        &report::laws_measured_summary(sweep),
    );
}

/// Writes the strong or weak panel's text.
fn render_llm(view: View, sweep: &LlmSweep) {
    if view == View::Strong {
        render_figures("strong-figures", &report::strong_key_figures(sweep));
        show_table("strong-table", report::strong_table(sweep));
        let summary = report::strong_summary(sweep);
        for c in LlmChart::STRONG {
            set_text(&format!("{}-summary", c.id()), &summary);
        }
    } else {
        render_figures("weak-figures", &report::weak_key_figures(sweep));
        show_table("weak-table", report::weak_table(sweep));
        let summary = report::weak_summary(sweep);
        for c in LlmChart::WEAK {
            set_text(&format!("{}-summary", c.id()), &summary);
        }
    }
}

/// Writes the Plan panel's text: figures, tables, the reporting checklist.
fn render_plan(scenario: &Scenario, sweep: &LlmSweep, plan: &PlanSweep) {
    render_figures("plan-figures", &report::plan_key_figures(plan, sweep));
    set_text(
        "plan-bopt",
        &format!(
            "Reference: DeepSeek LLM's empirical fit B_opt ≈ 0.292·C^0.3271 gives {} tokens for this run's compute C = 6·P_a·(token budget); an empirical fit, and the critical batch grows during training, so treat B_crit as a range, not a constant.",
            crate::text::units::format_si(
                crate::model::batch::deepseek_optimal_batch_tokens(
                    6.0 * scenario.llm.active_params * scenario.llm.token_budget
                ),
                3
            )
        ),
    );
    show_table("plan-table", report::plan_table(plan));
    show_table(
        "lever-table",
        report::lever_table(&report::lever_rows(scenario)),
    );
    set_text(
        "plan-memory",
        &report::activation_memory_note(sweep).unwrap_or_default(),
    );
    let summary = report::plan_summary(plan);
    for c in PlanChart::ALL {
        set_text(&format!("{}-summary", c.id()), &summary);
    }
    let r = checklist::report(scenario, sweep, plan);
    set_text("report-en", &r.en);
    set_text("report-zh", &r.zh);
    let warnings: Vec<String> = r
        .warnings
        .iter()
        .map(|w| format!("{} / {}", w.en, w.zh))
        .collect();
    render_list("report-warnings", &warnings);
}

/// One redraw: model → rows → charts and tables → DOM, then the URL. Only the visible
/// panel is computed and drawn.
fn frame() {
    let Some(scenario) = with_app(|app| {
        app.frame_requested = false;
        app.scenario.clone()
    }) else {
        return;
    };
    let view = scenario.view;
    // Charts are drawn before the text is written, so reading the canvases' sizes finds a
    // clean layout instead of forcing one after the tables changed. Except when the panel
    // first appears: its tables may add a scrollbar that narrows the canvases.
    let text_first = with_app(|app| app.shown_view.replace(view) != Some(view)).unwrap_or(true);
    show_view(view);
    let sweeps = match view {
        View::Laws => Sweeps::Laws(LawsSweep::compute(&scenario.laws_inputs())),
        View::Strong | View::Weak => Sweeps::Llm(LlmSweep::compute(&scenario.llm_inputs())),
        View::Plan => Sweeps::Plan(
            LlmSweep::compute(&scenario.llm_inputs()),
            PlanSweep::compute(&scenario.plan_inputs()),
        ),
    };
    let render_text = || match &sweeps {
        Sweeps::Laws(sweep) => render_laws(&scenario, sweep),
        Sweeps::Llm(sweep) => render_llm(view, sweep),
        Sweeps::Plan(sweep, plan) => render_plan(&scenario, sweep, plan),
    };
    if text_first {
        render_text();
    }
    let mut areas = Vec::new();
    let mut failures = Vec::new();
    for chart in ChartId::ALL.into_iter().filter(|c| c.view() == view) {
        match draw_chart(chart, &sweeps, &scenario) {
            Ok(Some(area)) => areas.push((chart, area)),
            Ok(None) => {}
            Err(e) => failures.push(e.to_string()),
        }
    }
    if !text_first {
        render_text();
    }
    if failures.is_empty() {
        set_text("app-status", "");
        set_hidden("app-status", true);
    } else {
        set_hidden("app-status", false);
        set_text("app-status", &failures.join("; "));
    }
    let first = with_app(|app| {
        app.sweeps = Some(sweeps);
        app.areas = areas;
        !std::mem::replace(&mut app.ready, true)
    });
    write_url(false);
    if first == Some(true) {
        if let Some(body) = document().body() {
            let _ = body.set_attribute("data-ready", "1");
        }
    }
}

/// The page's URL for the current scenario (same path, fragment kept for docs sites).
fn current_url(query: &str) -> Option<String> {
    let location = web_sys::window()?.location();
    let path = location.pathname().ok()?;
    let hash = location.hash().ok().unwrap_or_default();
    Some(format!("{path}?{query}{hash}"))
}

/// Mirrors the scenario into the address bar with `history.replaceState`, at most every
/// [`URL_WRITE_INTERVAL_MS`]; a timer writes the final state after a burst of changes.
fn write_url(from_timer: bool) {
    let Some((query, due)) = with_app(|app| {
        if from_timer {
            app.url_timer_pending = false;
        }
        let query = app.scenario.to_query();
        if query == app.url_written {
            return (query, None);
        }
        let wait = app.last_url_write_ms + URL_WRITE_INTERVAL_MS - now_ms();
        if wait <= 0.0 {
            app.url_written = query.clone();
            app.last_url_write_ms = now_ms();
            (query, Some(0.0))
        } else if app.url_timer_pending {
            (query, None)
        } else {
            app.url_timer_pending = true;
            (query, Some(wait))
        }
    }) else {
        return;
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    match due {
        Some(wait) if wait <= 0.0 => {
            if let (Ok(history), Some(url)) = (window.history(), current_url(&query)) {
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
            }
        }
        Some(wait) => URL_CALLBACK.with(|cell| {
            let mut slot = cell.borrow_mut();
            let callback = slot.get_or_insert_with(|| Closure::new(|| write_url(true)));
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                callback.as_ref().unchecked_ref(),
                wait.ceil() as i32,
            );
        }),
        None => {}
    }
}

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
        let n = area.x_at(px, py)?;
        match (chart, app.sweeps.as_ref()?) {
            (ChartId::KarpFlatt, Sweeps::Laws(s)) => report::measured_readout(s, n),
            (_, Sweeps::Laws(s)) => report::laws_readout(s, n),
            (ChartId::Llm(c), Sweeps::Llm(s)) if LlmChart::STRONG.contains(&c) => {
                report::strong_readout(s, n)
            }
            (_, Sweeps::Llm(s)) => report::weak_readout(s, n),
            (_, Sweeps::Plan(_, p)) => report::plan_readout(p, n),
        }
    })
    .flatten();
    let crosshair = canvas
        .parent_element()
        .and_then(|p| p.query_selector(".crosshair").ok().flatten())
        .and_then(|c| c.dyn_into::<HtmlElement>().ok());
    match text {
        Some(text) => {
            set_text(&format!("{}-readout", chart.stem()), &text);
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
        &format!("{}-readout", chart.stem()),
        "Hover over the chart to read values.",
    );
    if let Some(c) = document()
        .query_selector(&format!("#{} .crosshair", chart.stem()))
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<HtmlElement>().ok())
    {
        c.set_hidden(true);
    }
}

/// Copies the standalone URL of the current scenario; where the Clipboard API is missing
/// (not a secure context) the link is shown selected for Ctrl+C instead.
fn copy_link() {
    // The standalone link: without `embed`, so it opens the whole page even from an iframe.
    let Some(query) = with_app(|app| app.scenario.standalone_query()) else {
        return;
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let url = format!(
        "{}{}?{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default(),
        query
    );
    copy_text(&url, "copy-status", "Link copied.");
}

/// Copies `text` with the Clipboard API; where it is missing or refused (not a secure
/// context), the text is shown in `status_id` for the reader to copy by hand.
fn copy_text(text: &str, status_id: &'static str, done: &'static str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let fallback = format!("Copy this: {text}");
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
