//! Browser tests (wasm-bindgen-test in headless Chromium): the page's glue against a real DOM.
//! Run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web`.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// How long a condition may take to come true: generous, since a 2-core machine running
/// cargo beside the browser can hold the page's start (one task per step, one per chart) for
/// seconds. A passing run waits only as long as the page takes.
const DEADLINE_MS: f64 = 20_000.0;

/// Resolves after `ms` milliseconds: the poll interval of [`wait_until`], never a wait for the
/// page itself.
async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Polls `condition` every 20 ms until it holds; after [`DEADLINE_MS`] it panics with `what`
/// (the thing that never happened) and `state()` (what the page showed instead).
async fn wait_until(what: &str, condition: impl Fn() -> bool, state: impl Fn() -> String) {
    let performance = web_sys::window().unwrap().performance().unwrap();
    let start = performance.now();
    while !condition() {
        if performance.now() - start > DEADLINE_MS {
            panic!(
                "waited {DEADLINE_MS} ms for {what}; the page shows: {}",
                state()
            );
        }
        sleep(20).await;
    }
}

/// The page's own ready signal: `<body data-ready="1">` once its first frame and every chart
/// of it are drawn (crates/web/src/lib.rs `mark_ready`; the e2e harness waits for the same).
fn page_ready() -> bool {
    document()
        .body()
        .and_then(|b| b.get_attribute("data-ready"))
        .as_deref()
        == Some("1")
}

/// The part of www/index.html the Laws panel needs, built with DOM calls.
fn build_page() {
    let doc = document();
    let body = doc.body().unwrap();
    let add = |tag: &str, id: &str| {
        let el = doc.create_element(tag).unwrap();
        el.set_id(id);
        body.append_child(&el).unwrap();
        el
    };
    for key in ["f", "n", "g"] {
        let range = add("input", &format!("{key}-range"));
        range.set_attribute("type", "range").unwrap();
        add("input", &format!("{key}-input"));
        add("p", &format!("{key}-msg"));
    }
    add("input", "fs-input");
    add("p", "fs-msg");
    add("table", "laws-figures");
    add("div", "url-messages");
    add("ul", "url-messages-list");
    let canvas = add("canvas", "laws-speedup-canvas");
    canvas
        .set_attribute("style", "display:block;width:600px;height:400px")
        .unwrap();
    add("div", "laws-speedup-table");
}

fn non_background_pixels(id: &str) -> usize {
    let canvas: HtmlCanvasElement = document()
        .get_element_by_id(id)
        .unwrap()
        .dyn_into()
        .unwrap();
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let (w, h) = (canvas.width(), canvas.height());
    let data = ctx
        .get_image_data(0.0, 0.0, w as f64, h as f64)
        .unwrap()
        .data();
    let bg = [data[0], data[1], data[2]];
    data.chunks(4)
        .filter(|p| p[0] != bg[0] || p[1] != bg[1] || p[2] != bg[2])
        .count()
}

fn text_of(id: &str) -> String {
    document()
        .get_element_by_id(id)
        .unwrap()
        .text_content()
        .unwrap_or_default()
}

fn input(id: &str) -> HtmlInputElement {
    document()
        .get_element_by_id(id)
        .unwrap()
        .dyn_into()
        .unwrap()
}

#[wasm_bindgen_test]
async fn the_url_restores_the_scenario_and_input_writes_it_back() {
    build_page();
    let window = web_sys::window().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some("?v=1&f=0.1&n=1024"))
        .unwrap();
    scaling_explorer::start().unwrap();
    wait_until("body[data-ready=\"1\"] after start()", page_ready, || {
        format!("laws-figures = {:?}", text_of("laws-figures"))
    })
    .await;

    // Restored: the box shows the link's f, the table and key figures follow it.
    assert_eq!(input("f-input").value(), "0.1");
    assert_eq!(input("n-input").value(), "1024");
    assert!(
        text_of("laws-figures").contains("10x"),
        "{}",
        text_of("laws-figures")
    );
    assert!(text_of("laws-speedup-table").contains("9.91x"));
    // Drawn: a real chart covers a good share of the canvas.
    let drawn = non_background_pixels("laws-speedup-canvas");
    assert!(drawn > 600 * 400 / 50, "only {drawn} pixels drawn");

    // Typing a new f redraws and the address bar follows.
    let f = input("f-input");
    f.set_value("0.2");
    f.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    // The redraw runs in the next animation frame; the address bar follows on a throttle.
    let search = || window.location().search().unwrap_or_default();
    wait_until(
        "the address bar to hold f=0.2",
        || search().contains("f=0.2"),
        search,
    )
    .await;
    wait_until(
        "the laws figures to show 5x for f = 0.2",
        || text_of("laws-figures").contains("5x"),
        || text_of("laws-figures"),
    )
    .await;
    assert_ne!(non_background_pixels("laws-speedup-canvas"), 0);

    // Bad text after Enter (`change`) committed 0.2: a message naming the input; 0.2 stays
    // in force.
    f.dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    f.set_value("abc");
    f.dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
    wait_until(
        "#f-msg to explain why \"abc\" is refused",
        || text_of("f-msg").contains("still using"),
        || text_of("f-msg"),
    )
    .await;
    let msg = text_of("f-msg");
    assert!(
        msg.contains("Serial fraction") && msg.contains("still using 0.2"),
        "{msg}"
    );
    assert!(window.location().search().unwrap().contains("f=0.2"));
}
