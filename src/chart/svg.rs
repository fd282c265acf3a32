//! The one SVG writer: plotters' SVG backend with [`super::backend::EstimatedText`] measuring
//! text. The CLI's `--svg` and the page's SVG export both come through [`render`], so the same
//! scenario gives the same SVG in both.

use super::backend::{EstimatedText, Measured};
use super::ChartError;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend};

/// The backend every SVG is drawn on.
pub type Svg<'a> = Measured<SVGBackend<'a>, EstimatedText>;

/// The size of an exported SVG, CSS pixels: the same for the page and the CLI, whatever the
/// size of the canvas on screen.
pub const SIZE: (u32, u32) = (900, 560);

/// Draws into a new SVG document of `size` and returns its text.
pub fn render(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<Svg<'_>, Shift>) -> Result<(), ChartError>,
) -> Result<String, ChartError> {
    let mut out = String::new();
    {
        let root = backend(&mut out, size).into_drawing_area();
        draw(&root)?;
        root.present()?;
    }
    Ok(out)
}

/// The SVG backend writing a document of `size` into `out` (for callers that draw through
/// their own backend type, as the page does).
pub fn backend(out: &mut String, size: (u32, u32)) -> Svg<'_> {
    Measured {
        backend: SVGBackend::with_string(out, size),
        measure: EstimatedText,
    }
}
