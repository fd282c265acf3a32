//! The page's canvases: plotters-canvas's backend, with text measured by the canvas itself.
//!
//! plotters measures every label (axis ticks, legends) to lay the chart out. By default it asks
//! its web font module, which appends a styled `<span>` to `<body>` and reads its size: one
//! forced layout per label, and an inline `style` that a strict `style-src 'self'` CSP refuses.
//! [`Measured`] replaces only that call, with the 2D context's `measureText` in the font
//! plotters-canvas draws with; every drawing call is plotters-canvas's own.

use crate::chart::backend::{push_half_pixels, Either, Measured, TextMeasure};
use crate::chart::svg::Svg;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A canvas to draw a chart on.
pub type Canvas = Measured<Batched, CanvasText>;

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
        backend: Batched {
            inner: CanvasBackend::with_canvas_object(canvas.clone())?,
            context: context.clone(),
            open: None,
            path: String::new(),
        },
        measure: CanvasText {
            context,
            font: RefCell::new(String::new()),
        },
    })
}

/// plotters-canvas with its strokes batched. plotters draws a dashed series dash by dash and a
/// grid line by line, and plotters-canvas strokes each one on its own (a colour string parsed,
/// a path begun and rasterised per dash). Here consecutive lines and paths of one colour and
/// width become subpaths of one path, stroked once when the style changes or anything else is
/// drawn. The path is written as SVG path data and handed to the canvas as one `Path2D`: one
/// call instead of a `moveTo`/`lineTo` across the wasm–JS boundary per point (thousands per
/// update on the Laws panel). Every other call is plotters-canvas's own.
pub struct Batched {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The colour (as plotters-canvas writes it) and width of the open path.
    open: Option<(String, u32)>,
    /// The open path's data: `M x y L x y …`, coordinates in device pixels.
    path: String,
}

impl Batched {
    /// Continues the open path if it has `style`, else strokes it and begins one that does.
    fn path_for<S: BackendStyle>(&mut self, style: &S) {
        let (r, g, b) = style.color().rgb;
        let key = (
            format!("rgba({r},{g},{b},{})", style.color().alpha),
            style.stroke_width(),
        );
        if self.open.as_ref() != Some(&key) {
            self.flush();
            self.context.set_stroke_style_str(&key.0);
            self.context.set_line_width(key.1 as f64);
            self.open = Some(key);
        }
    }

    /// Adds a point to the open path: `M` begins a subpath, `L` continues it.
    fn point(&mut self, command: char, (x, y): (i64, i64)) {
        self.path.push(command);
        push_half_pixels(&mut self.path, x);
        push_half_pixels(&mut self.path, y);
    }

    /// Strokes the open path, if any.
    fn flush(&mut self) {
        if self.open.take().is_some() {
            if let Ok(path) = web_sys::Path2d::new_with_path_string(&self.path) {
                self.context.stroke_with_path(&path);
            }
        }
        self.path.clear();
    }
}

impl Drop for Batched {
    fn drop(&mut self) {
        self.flush();
    }
}

/// Calls plotters-canvas after stroking the open path.
macro_rules! flushed {
    ($self:ident . $call:ident ( $($arg:expr),* )) => {{
        $self.flush();
        $self.inner.$call($($arg),*)
    }};
}

impl DrawingBackend for Batched {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.ensure_prepared())
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.present())
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.draw_pixel(point, color))
    }
    /// As plotters-canvas draws a line (a horizontal or vertical one moved half a pixel, so it
    /// covers whole pixels), into the open path.
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        // In half pixels.
        let dx = i64::from(from.0 == to.0);
        let dy = i64::from(from.1 == to.1);
        let half = |(x, y): BackendCoord| (2 * i64::from(x) - dx, 2 * i64::from(y) - dy);
        self.path_for(style);
        self.point('M', half(from));
        self.point('L', half(to));
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.draw_rect(upper_left, bottom_right, style, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        let mut path = path.into_iter();
        if let Some(start) = path.next() {
            self.path_for(style);
            let half = |(x, y): BackendCoord| (2 * i64::from(x), 2 * i64::from(y));
            self.point('M', half(start));
            for next in path {
                self.point('L', half(next));
            }
        }
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.draw_circle(center, radius, style, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.fill_polygon(vert, style))
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.draw_text(text, style, pos))
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        flushed!(self.blit_bitmap(pos, size, src))
    }
}
