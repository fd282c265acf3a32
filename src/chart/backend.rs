//! [`Measured`]: any plotters backend with its text measurement replaced.
//!
//! plotters asks the backend for a label's size (`estimate_text_size`) to lay out axes and
//! legends. Its default asks the font module, which in the browser appends a styled `<span>`
//! to the document and reads its size: a forced layout per label, and blocked outright by a
//! strict `style-src 'self'` CSP. The page's canvas measures with the canvas's own
//! `measureText` instead (`scaling_explorer::canvas`, crates/web); SVG, which has no renderer to ask, uses
//! [`estimate_width`], so the page's SVG export and the CLI's `--svg` lay out identically.
//! Every other call goes to the wrapped backend unchanged.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};

/// How a [`Measured`] backend measures text: `(width, height)` in backend pixels of `text`
/// in `style` (whose `size()` is plotters' font size).
pub trait TextMeasure {
    fn measure<S: BackendTextStyle>(&self, text: &str, style: &S) -> (u32, u32);
}

/// The measure of renderer-less backends (SVG): average glyph advances of a sans-serif face,
/// 0.55 em for Latin letters and digits, 1 em for CJK and other wide characters. Deterministic,
/// so the same chart gives the same SVG in the browser and on the command line.
#[derive(Debug, Clone, Copy, Default)]
pub struct EstimatedText;

/// The width [`EstimatedText`] gives `text` at an `em` of 1.
pub fn estimate_width(text: &str) -> f64 {
    text.chars()
        .map(|c| match c {
            ' ' | '.' | ',' | ':' | ';' | '\'' | '|' | 'i' | 'l' | 'j' | '!' => 0.3,
            'm' | 'w' | 'M' | 'W' | '%' | '@' => 0.85,
            c if (c as u32) < 0x2E80 => 0.58,
            _ => 1.0,
        })
        .sum()
}

impl TextMeasure for EstimatedText {
    /// plotters' SVG backend writes `font-size` = size / 1.24; the height is a line of
    /// `line-height: normal` (1.2 em).
    fn measure<S: BackendTextStyle>(&self, text: &str, style: &S) -> (u32, u32) {
        let em = style.size() / 1.24;
        (
            (estimate_width(text) * em).round() as u32,
            (em * 1.2).round() as u32,
        )
    }
}

/// `backend` with text measured by `measure`.
pub struct Measured<B, M> {
    pub backend: B,
    pub measure: M,
}

impl<B: DrawingBackend, M: TextMeasure> DrawingBackend for Measured<B, M> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.backend.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.present()
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend
            .draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.fill_polygon(vert, style)
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.draw_text(text, style, pos)
    }
    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        Ok(self.measure.measure(text, style))
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.backend.blit_bitmap(pos, size, src)
    }
}

/// One of two backends. The page draws charts on its canvases and writes SVG exports; drawing
/// both through this one type compiles the chart code (and plotters' generic code under it)
/// once instead of once per backend, which is most of the chart code's size in the wasm.
pub enum Either<L, R> {
    Left(L),
    Right(R),
}

/// The error of an [`Either`] backend: the message of either side's error.
#[derive(Debug)]
pub struct EitherError(pub String);

impl std::fmt::Display for EitherError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EitherError {}

fn either_err<E: std::error::Error + Send + Sync>(
    e: DrawingErrorKind<E>,
) -> DrawingErrorKind<EitherError> {
    match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(EitherError(e.to_string()))
        }
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    }
}

/// The error of the right-hand backend, without its text. The page's right-hand backend is
/// the SVG export, which writes into a `String` and cannot fail; formatting its
/// `std::io::Error` anyway would keep the text of every I/O error kind in the WebAssembly
/// bundle for a message no one can see.
fn right_err<E: std::error::Error + Send + Sync>(
    e: DrawingErrorKind<E>,
) -> DrawingErrorKind<EitherError> {
    match e {
        DrawingErrorKind::DrawingError(_) => {
            DrawingErrorKind::DrawingError(EitherError("the SVG could not be written".into()))
        }
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    }
}

/// Calls the same method on whichever backend `$self` holds.
macro_rules! either {
    ($self:ident, $b:ident => $call:expr) => {
        match $self {
            Either::Left($b) => $call.map_err(either_err),
            Either::Right($b) => $call.map_err(right_err),
        }
    };
}

impl<L: DrawingBackend, R: DrawingBackend> DrawingBackend for Either<L, R> {
    type ErrorType = EitherError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            Either::Left(b) => b.get_size(),
            Either::Right(b) => b.get_size(),
        }
    }
    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.ensure_prepared())
    }
    fn present(&mut self) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.present())
    }
    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.draw_pixel(point, color))
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.draw_line(from, to, style))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.draw_path(path, style))
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.draw_circle(center, radius, style, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.fill_polygon(vert, style))
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.draw_text(text, style, pos))
    }
    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<EitherError>> {
        either!(self, b => b.estimate_text_size(text, style))
    }
    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        (iw, ih): (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<EitherError>> {
        either!(self, b => b.blit_bitmap(pos, (iw, ih), src))
    }
}

/// Appends `half_px / 2` to SVG path data, preceded by a space: whole or half pixels, the only
/// coordinates the page's canvas backend writes (plotters-canvas moves horizontal and vertical
/// lines half a pixel onto whole pixels). Written digit by digit instead of through `f64`
/// formatting, which would be slower per point and larger in the wasm
/// (`scaling_explorer::canvas::Batched`, crates/web, writes each stroked path this way).
pub fn push_half_pixels(path: &mut String, half_px: i64) {
    path.push(' ');
    if half_px < 0 {
        path.push('-');
    }
    let (whole, half) = (half_px.unsigned_abs() / 2, half_px.unsigned_abs() % 2 == 1);
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = whole;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    digits[at..].iter().for_each(|&d| path.push(d as char));
    if half {
        path.push_str(".5");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_characters_measure_wider() {
        assert!(estimate_width("加速比") > estimate_width("abc"));
        assert_eq!(estimate_width(""), 0.0);
        // plotters size 12.4 = a 10 px em; "100" = 3 × 0.58 em = 17.4 → 17 px; 1.2 em high.
        let style = plotters::style::TextStyle::from(("sans-serif", 12.4));
        assert_eq!(EstimatedText.measure("100", &style), (17, 12));
    }

    #[test]
    fn half_pixels_are_written_as_path_data() {
        // half_px / 2: 0 → 0; 1 → 0.5; 2 → 1; 2469 → 1234.5; −1 → −0.5; −4 → −2; 20 → 10.
        let mut path = String::from("M");
        for half_px in [0, 1, 2, 2469, -1, -4, 20] {
            push_half_pixels(&mut path, half_px);
        }
        assert_eq!(path, "M 0 0.5 1 1234.5 -0.5 -2 10");
        let mut big = String::new();
        push_half_pixels(&mut big, i64::MIN);
        assert_eq!(big, " -4611686018427387904");
    }
}
