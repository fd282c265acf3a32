//! The page's canvases: plotters-canvas's backend, with text measured by the canvas itself.
//!
//! plotters measures every label (axis ticks, legends) to lay the chart out. By default it asks
//! its web font module, which appends a styled `<span>` to `<body>` and reads its size: one
//! forced layout per label, and an inline `style` that a strict `style-src 'self'` CSP refuses.
//! [`Measured`] replaces only that call, with the 2D context's `measureText` in the font
//! plotters-canvas draws with; every drawing call is plotters-canvas's own.

use crate::chart::backend::{Either, Measured, TextMeasure};
use crate::chart::svg::Svg;
use plotters_backend::BackendTextStyle;
use plotters_canvas::CanvasBackend;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A canvas to draw a chart on.
pub type Canvas = Measured<CanvasBackend, CanvasText>;

/// What the page draws charts on: a canvas, or an SVG export. One type, so the chart code is
/// compiled once for both ([`Either`]).
pub type PageBackend<'a> = Either<Canvas, Svg<'a>>;

/// `measureText` of the canvas's 2D context.
pub struct CanvasText {
    context: CanvasRenderingContext2d,
    /// The font last set on the context, so it is set only when it changes.
    font: RefCell<String>,
}

impl TextMeasure for CanvasText {
    fn measure<S: BackendTextStyle>(&self, text: &str, style: &S) -> (u32, u32) {
        // The font string plotters-canvas's draw_text sets.
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        );
        if *self.font.borrow() != font {
            self.context.set_font(&font);
            *self.font.borrow_mut() = font;
        }
        let width = self
            .context
            .measure_text(text)
            .map_or(0.0, |m| m.width())
            .ceil()
            .max(0.0);
        // Height as a `<span>` with `line-height: normal` would report it.
        (width as u32, (style.size() * 1.2).round() as u32)
    }
}

/// The backend for `canvas`, or `None` without a 2D context.
pub fn backend(canvas: &HtmlCanvasElement) -> Option<Canvas> {
    let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    Some(Measured {
        backend: CanvasBackend::with_canvas_object(canvas.clone())?,
        measure: CanvasText {
            context,
            font: RefCell::new(String::new()),
        },
    })
}
