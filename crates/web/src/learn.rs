//! The Learn view (`view=learn`): its texts are a separate file per language
//! (`learn-<lang>-<hash>.html`, from `www/learn/`), fetched the first time the view opens so
//! no other reader downloads them. Once in, the live figures (`figure.learn-fig` with
//! `data-chart` and `data-query`) are drawn by the panel layer like any chart, `q=` keeps only
//! the linked exercises, and an exercise's Reveal button (or Enter in its guess box) shows the
//! model's answer (`crate::panel::exercise`) and its chart.

use super::dom::listen;
use super::dom::{by_id, document, set_hidden};
use super::present;
use crate::i18n::{lang, Lang};
use crate::panel::{exercise, ChartId, Panel};
use crate::scenario::{decode, Scenario};
use crate::trf;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, Event, HtmlAnchorElement, HtmlCanvasElement, HtmlElement, HtmlInputElement,
    KeyboardEvent,
};

/// Shows the view for `scenario`: loads its texts the first time.
pub(super) fn show(scenario: &Scenario) {
    // `App::learn`: 0 not asked for, 1 loading, 2 in the page.
    let before = super::with_app(|app| {
        let before = app.learn;
        app.learn = before.max(1);
        before
    });
    if before != Some(0) {
        return;
    }
    let scenario = scenario.clone();
    // A link straight to the view: www/index.html's first script has put the texts in already.
    if let Some(root) =
        by_id::<HtmlElement>("learn-content").filter(|r| r.has_attribute("data-loaded"))
    {
        super::with_app(|app| app.learn = 2);
        super::dom::show_page();
        activate(&root, &scenario);
        return;
    }
    let meta = if lang() == Lang::Zh {
        "learn-zh"
    } else {
        "learn-en"
    };
    present::fetch_named(
        meta,
        Box::new(move |text| {
            let Some(root) = by_id::<HtmlElement>("learn-content") else {
                return;
            };
            set_hidden("learn-status", text.is_some());
            // The page waited hidden for the view's texts (or for the line saying they failed).
            super::dom::show_page();
            let Some(text) = text else {
                super::dom::set_text(
                    "learn-status",
                    &trf!(
                        "The definitions could not be loaded: {} is missing or blocked (a copy of the page needs every file of dist/); reload the page once it is there.",
                        "定义未能加载：{} 缺失或被拦截（页面的副本需要 dist/ 中的全部文件）；补齐后重新加载页面。",
                        present::named_file(meta)
                    ),
                );
                return;
            };
            // Our own file from our own origin (the CSP allows no other), not reader input.
            root.set_inner_html(&text);
            super::with_app(|app| app.learn = 2);
            activate(&root, &scenario);
        }),
    );
}

/// Every element of `root` matching `selector`.
fn all(root: &Element, selector: &str) -> Vec<Element> {
    let Ok(nodes) = root.query_selector_all(selector) else {
        return Vec::new();
    };
    (0..nodes.length())
        .filter_map(|i| nodes.item(i)?.dyn_into::<Element>().ok())
        .collect()
}

fn activate(root: &HtmlElement, scenario: &Scenario) {
    // A teacher's link (`q=3`, `q=1,4,7`) shows only those exercises.
    if !scenario.quiz.is_empty() {
        let linked: Vec<String> = scenario
            .quiz
            .iter()
            .map(|q| format!("[data-q='{q}']"))
            .collect();
        let linked = linked.join(",");
        for section in all(root, "section") {
            let keep = section.matches(&linked).unwrap_or(false)
                || section.query_selector(&linked).ok().flatten().is_some();
            let _ = section.toggle_attribute_with_force("hidden", !keep);
        }
    }
    // "All definitions and exercises" keeps the reader's language and theme.
    let all_query = Scenario {
        view: crate::scenario::View::Learn,
        lang: scenario.lang,
        theme: scenario.theme,
        ..Scenario::default()
    }
    .to_query();
    super::dom::set_link("learn-all", &all_query);
    set_hidden("learn-all", scenario.quiz.is_empty());
    // A teacher's set: its own lead, and no answer key for the students (www/style.css).
    let _ = root
        .class_list()
        .toggle_with_force("quiz", !scenario.quiz.is_empty());
    // On paper, "Link to this exercise" is followed by its full address (www/style.css).
    for a in all(root, "a.q-link") {
        if let Some(url) = a
            .dyn_ref::<HtmlAnchorElement>()
            .map(HtmlAnchorElement::href)
        {
            let _ = a.set_attribute("data-url", &url);
        }
    }
    observe_figures(root, scenario.clone());
    let on_reveal = |event: Event| {
        let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
        if let Some(t) = &target {
            for mode in ["print-sheet", "print-key"] {
                if t.class_list().contains(mode) {
                    print(mode, false);
                    return;
                }
                if t.class_list()
                    .contains(&format!("print-set-{}", &mode[6..]))
                {
                    print(mode, true);
                    return;
                }
            }
        }
        if let Some(section) = target
            .filter(|t| t.class_list().contains("reveal"))
            .and_then(|t| t.closest("[data-q]").ok().flatten())
        {
            reveal(&section);
        }
    };
    let _ = listen(root, "click", on_reveal);
    // Enter in a guess box does what its Reveal button does.
    let on_enter = |event: Event| {
        let enter = event
            .dyn_ref::<KeyboardEvent>()
            .is_some_and(|k| k.key() == "Enter" && !k.is_composing());
        if let Some(section) = event
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            .filter(|t| enter && t.closest(".guess").ok().flatten().is_some())
            .and_then(|t| t.closest("[data-q]").ok().flatten())
        {
            reveal(&section);
        }
    };
    let _ = listen(root, "keydown", on_enter);
    // A teacher ticks exercises into a set: its link (the scenario's own URL with `q=`), and
    // its sheet and key printed from here.
    let on_pick = move |event: Event| {
        let picked = event
            .target()
            .and_then(|t| t.dyn_into::<Element>().ok())
            .is_some_and(|t| t.closest(".q-pick").ok().flatten().is_some());
        if picked {
            update_set();
        }
    };
    let _ = listen(root, "change", on_pick);
    update_set();
    if let Some(hash) = web_sys::window().and_then(|w| w.location().hash().ok()) {
        if let Some(target) = hash
            .strip_prefix('#')
            .and_then(|id| document().get_element_by_id(id))
        {
            target.scroll_into_view();
        }
    }
}

/// Draws the live figures as they come near the screen: an `IntersectionObserver` with a
/// margin of one screen hands them over, each is drawn in a task of its own, and until then
/// the build's prerendered chart (the same chart, in the reader's language) stands in. Drawing
/// every figure at load, one per task, would be most of a Learn link's blocking time on a
/// phone, for figures most readers never scroll to. The figures near the screen when the texts arrive come in
/// the observer's first report; once they are drawn the texts get `data-drawn` (tests and
/// hosts wait for it).
fn observe_figures(root: &HtmlElement, scenario: Scenario) {
    let figures = all(root, ".learn-fig[data-chart]");
    let mut first = true;
    let page = scenario.clone();
    let callback = Closure::<dyn FnMut(js_sys::Array, web_sys::IntersectionObserver)>::new(
        move |entries: js_sys::Array, observer: web_sys::IntersectionObserver| {
            let near: Vec<Element> = entries
                .iter()
                .map(|e| e.unchecked_into::<web_sys::IntersectionObserverEntry>())
                .filter(|e| e.is_intersecting())
                .map(|e| e.target())
                .collect();
            for figure in &near {
                observer.unobserve(figure);
            }
            let mark = std::mem::replace(&mut first, false);
            let scenario = page.clone();
            super::next_task(move || draw_figures(near, scenario, mark));
        },
    );
    let options = web_sys::IntersectionObserverInit::new();
    options.set_root_margin("100% 0px");
    match web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    ) {
        Ok(observer) if !figures.is_empty() => {
            for figure in &figures {
                observer.observe(figure);
            }
            // Observes until the page goes: a figure of a hidden section waits to be shown.
            callback.forget();
        }
        // No figure (or no observer: every figure now, as before).
        _ => super::next_task(move || draw_figures(figures, scenario, true)),
    }
}

/// Draws the first of `figures` now and the rest each in a task of its own; then, if `mark`,
/// marks the texts `data-drawn`.
fn draw_figures(mut figures: Vec<Element>, scenario: Scenario, mark: bool) {
    if figures.is_empty() {
        if let Some(root) = by_id::<HtmlElement>("learn-content").filter(|_| mark) {
            let _ = root.set_attribute("data-drawn", "");
        }
        return;
    }
    let figure = figures.remove(0);
    let query = figure.get_attribute("data-query").unwrap_or_default();
    let chart = figure.get_attribute("data-chart").unwrap_or_default();
    draw(&figure, &query, &chart, &scenario);
    super::next_task(move || draw_figures(figures, scenario, mark));
}

/// The exercises ticked into a set, in their order: each section marked `picked` (the print
/// style sheet keeps only those for a set), the set's link, which the model's URL codec
/// writes (`view=learn&q=…` with the reader's language and theme), and the set's print buttons
/// enabled once one is ticked.
fn update_set() {
    let Some(root) = by_id::<HtmlElement>("learn-content") else {
        return;
    };
    let mut quiz = Vec::new();
    for section in all(&root, "section[data-q]") {
        let ticked = section
            .query_selector(".q-pick input")
            .ok()
            .flatten()
            .and_then(|i| i.dyn_into::<HtmlInputElement>().ok())
            .is_some_and(|i| i.checked());
        let _ = section.class_list().toggle_with_force("picked", ticked);
        if let Some(q) = section
            .get_attribute("data-q")
            .and_then(|q| q.parse::<u8>().ok())
            .filter(|_| ticked)
        {
            quiz.push(q);
        }
    }
    let page = super::with_app(|app| app.page.scenario.clone()).unwrap_or_default();
    let query = Scenario {
        view: crate::scenario::View::Learn,
        lang: page.lang,
        theme: page.theme,
        quiz: quiz.clone(),
        ..Scenario::default()
    }
    .to_query();
    super::dom::set_link("learn-set-link", if quiz.is_empty() { "" } else { &query });
    // The link's whole address as its text, to copy into a course page or a message.
    if let Some(a) = by_id::<HtmlAnchorElement>("learn-set-link") {
        a.set_text_content(Some(&a.href()));
    }
    for el in all(&root, ".set-none") {
        let _ = el.toggle_attribute_with_force("hidden", !quiz.is_empty());
    }
    for selector in [".print-set-sheet", ".print-set-key"] {
        for el in all(&root, selector) {
            let _ = el.toggle_attribute_with_force("disabled", quiz.is_empty());
        }
    }
}

/// Prints the view for a class: `print-sheet` (the questions and figures, no answers, no
/// whys) or `print-key` (every exercise's answer from `exercise::key`, with its why and
/// chart), of every exercise or, with `set`, of those ticked into the set only. The mode is a
/// class on the view's root that the print style sheet reads; it stays until another button
/// is pressed, so a later Ctrl+P prints the same.
fn print(mode: &str, set: bool) {
    let Some(root) = by_id::<HtmlElement>("learn-content") else {
        return;
    };
    let classes = root.class_list();
    let _ = classes.remove_3("print-sheet", "print-key", "print-set");
    let _ = classes.add_1(mode);
    if set {
        let _ = classes.add_1("print-set");
    }
    if mode == "print-key" {
        let selector = if set { "[data-q].picked" } else { "[data-q]" };
        for section in all(&root, selector) {
            let number = section
                .get_attribute("data-q")
                .and_then(|q| q.parse::<u8>().ok());
            let (Some(number), Ok(Some(out))) = (number, section.query_selector(".key")) else {
                continue;
            };
            out.set_text_content(Some(exercise::key(number).as_deref().unwrap_or_else(|e| e)));
            if let (Some(e), Ok(Some(figure))) =
                (exercise::exercise(number), section.query_selector(".q-fig"))
            {
                let scenario = super::with_app(|app| app.page.scenario.clone()).unwrap_or_default();
                draw(&figure, e.query, e.chart.id(), &scenario);
            }
        }
    }
    if let Some(window) = web_sys::window() {
        let _ = window.print();
    }
}

/// The reader committed a guess: the answer, the why and the chart appear; a guess that is
/// not a number gets a message naming the box, and nothing is revealed.
fn reveal(section: &Element) {
    let Some(number) = section
        .get_attribute("data-q")
        .and_then(|q| q.parse::<u8>().ok())
    else {
        return;
    };
    let guess = section
        .query_selector(".guess input")
        .ok()
        .flatten()
        .and_then(|i| i.dyn_into::<HtmlInputElement>().ok())
        .map(|i| i.value())
        .unwrap_or_default();
    let result = exercise::reveal(number, &guess);
    if let Ok(Some(out)) = section.query_selector(".answer") {
        out.set_text_content(Some(result.as_deref().unwrap_or_else(|e| e)));
        let _ = out.class_list().toggle_with_force("error", result.is_err());
    }
    if result.is_ok() {
        let _ = section.class_list().add_1("revealed");
        if let (Some(e), Ok(Some(figure))) =
            (exercise::exercise(number), section.query_selector(".q-fig"))
        {
            let scenario = super::with_app(|app| app.page.scenario.clone()).unwrap_or_default();
            draw(&figure, e.query, e.chart.id(), &scenario);
        }
    }
}

/// Draws chart `chart` of the scenario `query` into the canvas of `figure`, in the page's
/// theme.
fn draw(figure: &Element, query: &str, chart: &str, page: &Scenario) {
    let canvas = figure
        .query_selector("canvas")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok());
    let (Some(canvas), Some(chart)) = (canvas, ChartId::from_id(chart)) else {
        return;
    };
    let mut scenario = decode(query).scenario;
    scenario.theme = page.theme;
    let panel = Panel::compute(&scenario, chart.view());
    // A figure hidden on screen (an answer key's chart, drawn before printing) has no layout
    // size: it is drawn at its canvas's own 560 × 320, the size the print style gives it.
    let (w, h) = match (canvas.client_width(), canvas.client_height()) {
        (w, h) if w > 0 && h > 0 => (w, h),
        _ => (canvas.width() as i32, canvas.height() as i32),
    };
    if w > 0 && h > 0 {
        let ratio = super::pixel_ratio();
        let style = super::present::chart_style(super::present::is_dark(&scenario), ratio);
        let _ = super::draw_into(&canvas, (w as u32, h as u32), &style, chart, &panel);
    }
}
