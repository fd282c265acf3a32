//! The page's canvases: plotters-canvas's backend, with text measured by the canvas itself.
//!
//! plotters measures every label (axis ticks, legends) to lay the chart out. By default it asks
//! its web font module, which appends a styled `<span>` to `<body>` and reads its size: one
//! forced layout per label, and an inline `style` that a strict `style-src 'self'` CSP refuses.
//! [`Measured`] replaces only that call, with the 2D context's `measureText` in the font
//! plotters-canvas draws with.
//!
//! The context's state (font, fill and stroke colour, line width, text alignment) is set only
//! when it changes ([`ContextState`]): plotters-canvas sets all of it before every label and
//! every filled shape, and each setter crosses the wasm–JS boundary, the font's string parsed
//! as CSS each time. Lines, paths, labels and filled rectangles are drawn here on that state;
//! circles, polygons, pixels and outlined rectangles are plotters-canvas's own.

use crate::chart::backend::{push_half_pixels, Either, Measured, TextMeasure};
use crate::chart::svg::Svg;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use plotters_canvas::CanvasBackend;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// A canvas to draw a chart on.
pub type Canvas = Measured<Batched, CanvasText>;

/// What the page draws charts on: a canvas, or an SVG export. One type, so the chart code is
/// compiled once for both ([`Either`]).
pub type PageBackend<'a> = Either<Canvas, Svg<'a>>;

/// What this module last set on a canvas's 2D context, shared by the measuring and the
/// drawing half of one backend (both set the font). An empty string, or a width of
/// `u32::MAX`, is "not known": plotters-canvas's own calls set colours behind its back, so
/// after one the colours are forgotten.
struct ContextState {
    context: CanvasRenderingContext2d,
    font: RefCell<String>,
    fill: RefCell<String>,
    stroke: RefCell<String>,
    line_width: Cell<u32>,
    baseline: Cell<&'static str>,
    align: Cell<&'static str>,
}

impl ContextState {
    fn new(context: CanvasRenderingContext2d) -> Self {
        ContextState {
            context,
            font: RefCell::default(),
            fill: RefCell::default(),
            stroke: RefCell::default(),
            line_width: Cell::new(u32::MAX),
            baseline: Cell::new(""),
            align: Cell::new(""),
        }
    }

    /// Sets `font` (a CSS font, as [`font_of`] writes it) unless it is set.
    fn font(&self, font: String) {
        if *self.font.borrow() != font {
            self.context.set_font(&font);
            *self.font.borrow_mut() = font;
        }
    }

    fn fill(&self, color: BackendColor) {
        let color = css_color(color);
        if *self.fill.borrow() != color {
            self.context.set_fill_style_str(&color);
            *self.fill.borrow_mut() = color;
        }
    }

    fn stroke(&self, color: &str, width: u32) {
        if *self.stroke.borrow() != color {
            self.context.set_stroke_style_str(color);
            *self.stroke.borrow_mut() = color.to_string();
        }
        if self.line_width.get() != width {
            self.context.set_line_width(f64::from(width));
            self.line_width.set(width);
        }
    }

    fn text_anchor(&self, baseline: &'static str, align: &'static str) {
        if self.baseline.get() != baseline {
            self.context.set_text_baseline(baseline);
            self.baseline.set(baseline);
        }
        if self.align.get() != align {
            self.context.set_text_align(align);
            self.align.set(align);
        }
    }

    /// Forgets the colours and width after a call of plotters-canvas's that sets them.
    fn forget_colours(&self) {
        self.fill.borrow_mut().clear();
        self.stroke.borrow_mut().clear();
        self.line_width.set(u32::MAX);
    }

    /// Forgets everything after plotters-canvas has drawn a label.
    fn forget_all(&self) {
        self.forget_colours();
        self.font.borrow_mut().clear();
        self.baseline.set("");
        self.align.set("");
    }
}

/// A colour as plotters-canvas writes it for the context.
fn css_color(color: BackendColor) -> String {
    let (r, g, b) = color.rgb;
    format!("rgba({r},{g},{b},{})", color.alpha)
}

/// The CSS font plotters-canvas's `draw_text` sets for `style`.
fn font_of<S: BackendTextStyle>(style: &S) -> String {
    format!(
        "{} {}px {}",
        style.style().as_str(),
        style.size(),
        style.family().as_str()
    )
}

/// `measureText` of the canvas's 2D context.
pub struct CanvasText {
    state: Rc<ContextState>,
}

impl TextMeasure for CanvasText {
    fn measure<S: BackendTextStyle>(&self, text: &str, style: &S) -> (u32, u32) {
        self.state.font(font_of(style));
        let width = self
            .state
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
    let state = Rc::new(ContextState::new(context));
    Some(Measured {
        backend: Batched {
            inner: CanvasBackend::with_canvas_object(canvas.clone())?,
            state: Rc::clone(&state),
            open: None,
            path: String::new(),
        },
        measure: CanvasText { state },
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
    state: Rc<ContextState>,
    /// The colour (as plotters-canvas writes it) and width of the open path.
    open: Option<(String, u32)>,
    /// The open path's data: `M x y L x y …`, coordinates in device pixels.
    path: String,
}

impl Batched {
    /// Continues the open path if it has `style`, else strokes it and begins one that does.
    fn path_for<S: BackendStyle>(&mut self, style: &S) {
        let key = (css_color(style.color()), style.stroke_width());
        if self.open.as_ref() != Some(&key) {
            self.flush();
            self.state.stroke(&key.0, key.1);
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
                self.state.context.stroke_with_path(&path);
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

/// [`flushed!`] for a call of plotters-canvas's that sets colours: they are forgotten after it.
macro_rules! colouring {
    ($self:ident . $call:ident ( $($arg:expr),* )) => {{
        let drawn = flushed!($self.$call($($arg),*));
        $self.state.forget_colours();
        drawn
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
        colouring!(self.draw_pixel(point, color))
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
        if !fill {
            return colouring!(self.draw_rect(upper_left, bottom_right, style, fill));
        }
        if style.color().alpha == 0.0 {
            return Ok(());
        }
        // As plotters-canvas fills it, on the cached state.
        self.flush();
        self.state.fill(style.color());
        let (x0, y0) = (f64::from(upper_left.0), f64::from(upper_left.1));
        let (x1, y1) = (f64::from(bottom_right.0), f64::from(bottom_right.1));
        self.state.context.fill_rect(x0, y0, x1 - x0, y1 - y0);
        Ok(())
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
        colouring!(self.draw_circle(center, radius, style, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        colouring!(self.fill_polygon(vert, style))
    }
    /// As plotters-canvas draws a label, on the cached state. The state is set before a rotated
    /// label's `save`, so its `restore` keeps it.
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        self.flush();
        let baseline = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        self.state.text_anchor(baseline, align);
        self.state.fill(color);
        self.state.font(font_of(style));
        let quarter_turns = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 1.0,
            FontTransform::Rotate180 => 2.0,
            FontTransform::Rotate270 => 3.0,
        };
        let context = &self.state.context;
        let (x, y) = (f64::from(pos.0), f64::from(pos.1));
        let drawn = if quarter_turns == 0.0 {
            context.fill_text(text, x, y)
        } else {
            context.save();
            let drawn = context
                .translate(x, y)
                .and_then(|()| context.rotate(quarter_turns * std::f64::consts::FRAC_PI_2))
                .and_then(|()| context.fill_text(text, 0.0, 0.0));
            context.restore();
            drawn
        };
        if drawn.is_ok() {
            return Ok(());
        }
        // plotters-canvas's error type is its own to make: its draw_text reports the failure
        // (and sets the whole state, forgotten after it).
        let drawn = self.inner.draw_text(text, style, pos);
        self.state.forget_all();
        drawn
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

/// The cached state draws what plotters-canvas draws: the same calls on two canvases, one
/// through [`backend`] and one through plotters-canvas alone, give the same pixels. The order
/// makes each cache go stale once: a circle and an outlined rectangle set colours behind it.
#[cfg(all(test, target_arch = "wasm32"))]
mod tests {
    use super::*;
    use plotters::style::{IntoFont, ShapeStyle, TextStyle, BLUE, GREEN, RED, WHITE};
    use plotters_backend::text_anchor::Pos;
    use wasm_bindgen_test::*;

    wasm_bindgen_test_configure!(run_in_browser);

    fn new_canvas() -> HtmlCanvasElement {
        let document = web_sys::window().unwrap().document().unwrap();
        let canvas: HtmlCanvasElement = document
            .create_element("canvas")
            .unwrap()
            .dyn_into()
            .unwrap();
        canvas.set_width(240);
        canvas.set_height(120);
        document.body().unwrap().append_child(&canvas).unwrap();
        canvas
    }

    fn draw<B: DrawingBackend>(b: &mut B) {
        let red = ShapeStyle::from(&RED).filled();
        let blue = ShapeStyle::from(&BLUE).filled();
        let green = ShapeStyle::from(&GREEN).stroke_width(2);
        let black = TextStyle::from(("sans-serif", 12).into_font());
        let anchored = |s: TextStyle<'static>, h, v| s.pos(Pos::new(h, v));
        let rotated =
            anchored(black.clone(), HPos::Center, VPos::Center).transform(FontTransform::Rotate90);
        let large = anchored(
            TextStyle::from(("serif", 16).into_font()).color(&GREEN),
            HPos::Right,
            VPos::Bottom,
        );
        b.draw_rect((0, 0), (240, 120), &ShapeStyle::from(&WHITE).filled(), true)
            .unwrap();
        b.draw_text(
            "Ag 12",
            &anchored(black.clone(), HPos::Left, VPos::Top),
            (10, 10),
        )
        .unwrap();
        b.draw_rect((4, 24), (60, 40), &red, true).unwrap();
        b.draw_circle((90, 30), 12, &blue, true).unwrap();
        b.draw_rect((150, 50), (190, 90), &red, true).unwrap();
        b.draw_text("Ag 12", &rotated, (120, 60)).unwrap();
        b.draw_line((10, 100), (200, 100), &green).unwrap();
        b.draw_text("wide", &large, (230, 110)).unwrap();
        b.draw_text("Ag 12", &anchored(black, HPos::Left, VPos::Top), (10, 50))
            .unwrap();
        b.draw_rect(
            (20, 60),
            (80, 90),
            &ShapeStyle::from(&BLUE).stroke_width(1),
            false,
        )
        .unwrap();
        b.draw_line((100, 20), (100, 110), &green).unwrap();
        b.present().unwrap();
    }

    fn pixels(canvas: &HtmlCanvasElement) -> Vec<u8> {
        let context: CanvasRenderingContext2d = canvas
            .get_context("2d")
            .unwrap()
            .unwrap()
            .dyn_into()
            .unwrap();
        context
            .get_image_data(0.0, 0.0, 240.0, 120.0)
            .unwrap()
            .data()
            .to_vec()
    }

    #[wasm_bindgen_test]
    fn the_cached_state_draws_what_plotters_canvas_draws() {
        let (ours, theirs) = (new_canvas(), new_canvas());
        {
            let mut b = backend(&ours).unwrap();
            draw(&mut b.backend);
            // A label measured after one drawn in another font measures in its own.
            let small = TextStyle::from(("sans-serif", 12).into_font());
            let wide = TextStyle::from(("sans-serif", 40).into_font());
            assert!(b.measure.measure("Ag 12", &wide).0 > 2 * b.measure.measure("Ag 12", &small).0);
        }
        draw(&mut CanvasBackend::with_canvas_object(theirs.clone()).unwrap());
        let (a, b) = (pixels(&ours), pixels(&theirs));
        let differ = a.iter().zip(&b).filter(|(x, y)| x != y).count();
        assert_eq!(differ, 0, "{differ} channel values differ");
        // Something was drawn in each colour.
        let has = |rgb: [u8; 3]| a.chunks(4).any(|p| p[..3] == rgb);
        assert!(has([255, 0, 0]) && has([0, 0, 255]) && has([0, 255, 0]) && has([0, 0, 0]));
    }
}
