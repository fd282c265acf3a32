//! A plotters [`DrawingBackend`] over a 2D canvas context, written for this page instead of
//! `plotters-canvas` for three reasons measured in `make bench` and `tests/e2e/csp.test.mjs`:
//!
//! - **Text is measured with the canvas's own `measureText`.** plotters' web font module
//!   measures every label by appending a styled `<span>` to `<body>` and reading its offset size:
//!   one forced layout per label (a fifth of each redraw), and a `style` attribute that a strict
//!   `Content-Security-Policy` (`style-src 'self'`) refuses.
//! - **Strokes and fills are batched.** Grid lines, ticks and boxes arrive as hundreds of
//!   separate `draw_line`/`draw_rect` calls; consecutive ones with the same colour and width go
//!   into one path and one `stroke()`/`fill()` instead of one each.
//! - **Context state is set only when it changes** (colour strings, widths, fonts, alignment),
//!   so the browser does not re-parse the same CSS colour thousands of times per frame.
//!
//! The drawing itself is the same: integer backend coordinates, horizontal and vertical lines
//! moved half a pixel so they stay sharp (<https://stackoverflow.com/a/13879322>).
//!
//! The same backend also **records SVG** ([`CanvasBackend::svg`]): every path, rectangle,
//! circle and text becomes an SVG element instead of a canvas call. The SVG export therefore
//! runs the very chart code the page draws with — one compiled copy of it, where plotters'
//! own SVG backend would compile every chart a second time (~10 KB gzipped of the budget).

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle};
use plotters_backend::{DrawingBackend, DrawingErrorKind, FontTransform};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The canvas refused an operation (the message is the browser's).
#[derive(Debug)]
pub struct CanvasError(String);

impl fmt::Display for CanvasError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "canvas: {}", self.0)
    }
}

impl std::error::Error for CanvasError {}

type DrawResult = Result<(), DrawingErrorKind<CanvasError>>;

/// Colour plus stroke width: two operations with the same key can share one path.
#[derive(Clone, Copy, PartialEq)]
struct Paint {
    rgb: (u8, u8, u8),
    alpha: f64,
    width: u32,
}

impl Paint {
    fn of(color: BackendColor, width: u32) -> Self {
        Paint {
            rgb: color.rgb,
            alpha: color.alpha,
            width,
        }
    }

    /// `rgb(r,g,b)`: SVG gets the alpha separately, as an opacity.
    fn rgb_css(self) -> String {
        let (r, g, b) = self.rgb;
        format!("rgb({r},{g},{b})")
    }

    /// The alpha as a decimal (thousandths).
    fn opacity(self) -> String {
        crate::text::units::format_decimals(self.alpha.clamp(0.0, 1.0), 3)
    }

    fn css(self) -> String {
        let (r, g, b) = self.rgb;
        if self.alpha >= 1.0 {
            format!("rgb({r},{g},{b})")
        } else {
            // Alpha in thousandths with integer formatting (no float formatting in the bundle).
            let milli = (self.alpha.clamp(0.0, 1.0) * 1000.0).round() as u32;
            format!("rgba({r},{g},{b},0.{milli:03})")
        }
    }
}

/// The path being collected, waiting for its single `stroke()` or `fill()`.
#[derive(Clone, Copy, PartialEq)]
enum Pending {
    Nothing,
    Stroke(Paint),
    Fill(Paint),
}

/// Draws on one `<canvas>` (or records SVG); dropping it (or `present()`) paints whatever
/// path is pending.
pub struct CanvasBackend {
    /// Draws in canvas mode; measures text in both modes.
    context: CanvasRenderingContext2d,
    size: (u32, u32),
    /// SVG mode: the document being written (shared with whoever asked for it).
    svg: Option<Rc<RefCell<String>>>,
    pending: Pending,
    stroke: Option<Paint>,
    fill: Option<Paint>,
    font: String,
    /// textAlign and textBaseline.
    anchor: Option<(&'static str, &'static str)>,
}

impl CanvasBackend {
    /// A backend for `canvas`, or `None` when it has no 2D context.
    pub fn new(canvas: &HtmlCanvasElement) -> Option<Self> {
        Self::with_target(canvas, (canvas.width(), canvas.height()), None)
    }

    /// A backend recording a `width × height` SVG document into `out` (complete once the
    /// backend is dropped); `canvas` only measures text.
    pub fn svg(
        canvas: &HtmlCanvasElement,
        size: (u32, u32),
        out: Rc<RefCell<String>>,
    ) -> Option<Self> {
        let (w, h) = size;
        out.replace(format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n"
        ));
        Self::with_target(canvas, size, Some(out))
    }

    fn with_target(
        canvas: &HtmlCanvasElement,
        size: (u32, u32),
        svg: Option<Rc<RefCell<String>>>,
    ) -> Option<Self> {
        use wasm_bindgen::JsCast;
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(CanvasBackend {
            context,
            size,
            svg,
            pending: Pending::Nothing,
            stroke: None,
            fill: None,
            font: String::new(),
            anchor: None,
        })
    }

    /// Appends to the SVG document (SVG mode only).
    fn write(&self, text: &str) {
        if let Some(out) = &self.svg {
            out.borrow_mut().push_str(text);
        }
    }

    fn move_to(&self, x: f64, y: f64) {
        if self.svg.is_some() {
            self.write(&format!("M{} {}", num(x), num(y)));
        } else {
            self.context.move_to(x, y);
        }
    }

    fn line_to(&self, x: f64, y: f64) {
        if self.svg.is_some() {
            self.write(&format!("L{} {}", num(x), num(y)));
        } else {
            self.context.line_to(x, y);
        }
    }

    fn rect(&self, x: f64, y: f64, w: f64, h: f64) {
        if self.svg.is_some() {
            self.write(&format!(
                "M{} {}h{}v{}h-{}Z",
                num(x),
                num(y),
                num(w),
                num(h),
                num(w)
            ));
        } else {
            self.context.rect(x, y, w, h);
        }
    }

    fn close_path(&self) {
        if self.svg.is_some() {
            self.write("Z");
        } else {
            self.context.close_path();
        }
    }

    /// Paints the pending path, if any.
    fn flush(&mut self) {
        match std::mem::replace(&mut self.pending, Pending::Nothing) {
            Pending::Nothing => {}
            _ if self.svg.is_some() => self.write("\"/>\n"),
            Pending::Stroke(_) => self.context.stroke(),
            Pending::Fill(_) => self.context.fill(),
        }
    }

    /// Makes `want` the pending path: continues it when it already is, else paints the old
    /// one, sets the context's colour (and width) and begins a new path.
    fn begin(&mut self, want: Pending) {
        if self.pending == want {
            return;
        }
        self.flush();
        if self.svg.is_some() {
            match want {
                Pending::Stroke(paint) => self.write(&format!(
                    "<path fill=\"none\" stroke=\"{}\" stroke-opacity=\"{}\" stroke-width=\"{}\" d=\"",
                    paint.rgb_css(),
                    paint.opacity(),
                    paint.width
                )),
                Pending::Fill(paint) => self.write(&format!(
                    "<path fill=\"{}\" fill-opacity=\"{}\" d=\"",
                    paint.rgb_css(),
                    paint.opacity()
                )),
                Pending::Nothing => return,
            }
            self.pending = want;
            return;
        }
        match want {
            Pending::Stroke(paint) => self.set_stroke(paint),
            Pending::Fill(paint) => self.set_fill(paint),
            Pending::Nothing => return,
        }
        self.context.begin_path();
        self.pending = want;
    }

    fn set_stroke(&mut self, paint: Paint) {
        if self.stroke != Some(paint) {
            self.context.set_stroke_style_str(&paint.css());
            self.context.set_line_width(f64::from(paint.width));
            self.stroke = Some(paint);
        }
    }

    fn set_fill(&mut self, paint: Paint) {
        let paint = Paint { width: 0, ..paint };
        if self.fill != Some(paint) {
            self.context.set_fill_style_str(&paint.css());
            self.fill = Some(paint);
        }
    }

    fn set_font<S: BackendTextStyle>(&mut self, style: &S) {
        let font = css_font(style);
        if self.font != font {
            self.context.set_font(&font);
            self.font = font;
        }
    }

    fn trace<I: IntoIterator<Item = BackendCoord>>(&self, path: I) {
        let mut points = path.into_iter();
        if let Some((x, y)) = points.next() {
            self.move_to(f64::from(x), f64::from(y));
            for (x, y) in points {
                self.line_to(f64::from(x), f64::from(y));
            }
        }
    }
}

impl Drop for CanvasBackend {
    fn drop(&mut self) {
        self.flush();
        self.write("</svg>\n");
    }
}

/// A coordinate for SVG: backend coordinates are integers or halves, written without float
/// formatting.
fn num(v: f64) -> String {
    crate::text::units::format_decimals(v, 1)
}

/// `text` with the five XML special characters escaped (labels may quote user input).
fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The CSS `font` of a plotters text style, e.g. `normal 24.5px sans-serif` (size to 0.1 px,
/// formatted without Rust's float formatting).
fn css_font<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        crate::text::units::format_decimals(style.size(), 1),
        style.family().as_str()
    )
}

fn visible<S: BackendStyle>(style: &S) -> bool {
    style.color().alpha > 0.0
}

fn js_error(e: wasm_bindgen::JsValue) -> DrawingErrorKind<CanvasError> {
    DrawingErrorKind::DrawingError(CanvasError(
        e.as_string().unwrap_or_else(|| "refused".to_string()),
    ))
}

impl DrawingBackend for CanvasBackend {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> DrawResult {
        Ok(())
    }

    fn present(&mut self) -> DrawResult {
        self.flush();
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> DrawResult {
        if color.alpha > 0.0 {
            self.begin(Pending::Fill(Paint::of(color, 0)));
            self.context
                .rect(f64::from(point.0), f64::from(point.1), 1.0, 1.0);
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> DrawResult {
        if visible(style) {
            self.begin(Pending::Stroke(Paint::of(
                style.color(),
                style.stroke_width(),
            )));
            let (mut from, mut to) = (
                (f64::from(from.0), f64::from(from.1)),
                (f64::from(to.0), f64::from(to.1)),
            );
            if from.0 == to.0 {
                from.0 -= 0.5;
                to.0 -= 0.5;
            }
            if from.1 == to.1 {
                from.1 -= 0.5;
                to.1 -= 0.5;
            }
            self.move_to(from.0, from.1);
            self.line_to(to.0, to.1);
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> DrawResult {
        if visible(style) {
            let width = if fill { 0 } else { style.stroke_width() };
            let paint = Paint::of(style.color(), width);
            self.begin(if fill {
                Pending::Fill(paint)
            } else {
                Pending::Stroke(paint)
            });
            // Normalised so every rectangle winds the same way and batched fills never cancel.
            let (x0, x1) = (
                upper_left.0.min(bottom_right.0),
                upper_left.0.max(bottom_right.0),
            );
            let (y0, y1) = (
                upper_left.1.min(bottom_right.1),
                upper_left.1.max(bottom_right.1),
            );
            self.rect(
                f64::from(x0),
                f64::from(y0),
                f64::from(x1 - x0),
                f64::from(y1 - y0),
            );
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> DrawResult {
        if visible(style) {
            self.begin(Pending::Stroke(Paint::of(
                style.color(),
                style.stroke_width(),
            )));
            self.trace(path);
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> DrawResult {
        if visible(style) {
            // A path of its own: polygons of opposite orientation sharing one path would cancel
            // out where they overlap under the non-zero winding rule.
            self.flush();
            self.begin(Pending::Fill(Paint::of(style.color(), 0)));
            self.trace(path);
            self.close_path();
            self.flush();
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> DrawResult {
        if !visible(style) {
            return Ok(());
        }
        let paint = Paint::of(style.color(), style.stroke_width());
        self.begin(if fill {
            Pending::Fill(paint)
        } else {
            Pending::Stroke(paint)
        });
        let (x, y, r) = (f64::from(center.0), f64::from(center.1), f64::from(radius));
        if self.svg.is_some() {
            // Two half arcs: an SVG arc cannot start and end at the same point.
            let (xs, ys, rs) = (num(x + r), num(y), num(r));
            self.write(&format!(
                "M{xs} {ys}A{rs} {rs} 0 1 0 {} {ys}A{rs} {rs} 0 1 0 {xs} {ys}Z",
                num(x - r)
            ));
            return Ok(());
        }
        self.context.move_to(x + r, y);
        self.context
            .arc(x, y, r, 0.0, std::f64::consts::TAU)
            .map_err(js_error)?;
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        // `&self`: the font cannot be cached here, so it is set directly; draw_text compares
        // against the cached string and sets it again when it differs.
        let font = css_font(style);
        if self.font != font {
            self.context.set_font(&font);
        }
        let width = self.context.measure_text(text).map_err(js_error)?.width();
        if self.font != font && !self.font.is_empty() {
            self.context.set_font(&self.font);
        }
        // Height as a `<span>` with `line-height: normal` would report it.
        let height = (style.size() * 1.2).round();
        Ok((width.ceil().max(0.0) as u32, height as u32))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> DrawResult {
        let color = style.color();
        if color.alpha <= 0.0 {
            return Ok(());
        }
        self.flush();
        self.set_fill(Paint::of(color, 0));
        self.set_font(style);
        let anchor = (
            match style.anchor().h_pos {
                HPos::Left => "start",
                HPos::Right => "end",
                HPos::Center => "center",
            },
            match style.anchor().v_pos {
                VPos::Top => "top",
                VPos::Center => "middle",
                VPos::Bottom => "bottom",
            },
        );
        if self.anchor != Some(anchor) {
            self.context.set_text_align(anchor.0);
            self.context.set_text_baseline(anchor.1);
            self.anchor = Some(anchor);
        }
        let degrees: f64 = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 90.0,
            FontTransform::Rotate180 => 180.0,
            FontTransform::Rotate270 => 270.0,
        };
        let (x, y) = (f64::from(pos.0), f64::from(pos.1));
        if self.svg.is_some() {
            let paint = Paint::of(color, 0);
            let rotate = if degrees == 0.0 {
                String::new()
            } else {
                format!(
                    " transform=\"rotate({} {} {})\"",
                    num(degrees),
                    num(x),
                    num(y)
                )
            };
            self.write(&format!(
                "<text x=\"{}\" y=\"{}\" fill=\"{}\" fill-opacity=\"{}\" font-family=\"{}\" font-size=\"{}\" font-style=\"{}\" text-anchor=\"{}\" dominant-baseline=\"{}\"{rotate}>{}</text>\n",
                num(x),
                num(y),
                paint.rgb_css(),
                paint.opacity(),
                xml_escape(style.family().as_str()),
                num(style.size()),
                style.style().as_str(),
                match anchor.0 {
                    "center" => "middle",
                    other => other,
                },
                match anchor.1 {
                    "top" => "hanging",
                    "middle" => "central",
                    _ => "text-after-edge",
                },
                xml_escape(text)
            ));
            return Ok(());
        }
        if degrees == 0.0 {
            return self.context.fill_text(text, x, y).map_err(js_error);
        }
        self.context.save();
        let drawn = self
            .context
            .translate(x, y)
            .and_then(|()| self.context.rotate(degrees.to_radians()))
            .and_then(|()| self.context.fill_text(text, 0.0, 0.0));
        self.context.restore();
        drawn.map_err(js_error)
    }
}
