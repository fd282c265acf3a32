//! Charts, written once and generic over plotters' `DrawingBackend`: the page draws them on a
//! canvas, the CLI writes them as SVG, and the tests read the SVG text.
//!
//! Every chart takes a [`ChartStyle`] (scale for HiDPI canvases, colours) and returns the
//! [`PlotArea`] it drew into, so the page can map a pointer position back to `N` for the
//! hover readout without knowing anything about the axes.

pub mod backend;
pub mod boxes;
pub mod laws;
pub mod line;
pub mod llm;
mod marks;
pub mod plan;
pub mod svg;
mod walls;

use plotters::prelude::*;
use plotters::style::RGBColor;

/// Okabe–Ito colour-blind-safe palette (Okabe & Ito 2008), without yellow (poor on white).
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0x00, 0x00, 0x00), // black
];

/// The charts' geometry in CSS pixels (font sizes in points), before [`ChartStyle::px`] and
/// [`ChartStyle::font`] scale it to the canvas: named once, so that the plot, its legend and
/// its labels agree, and the legend can tell how wide the plot is.
pub mod metrics {
    /// The chart's title.
    pub const TITLE_FONT: f64 = 15.0;
    /// The axes' descriptions.
    pub const AXIS_TITLE_FONT: f64 = 13.0;
    /// Tick labels, legend entries, markers' and callouts' labels, the shaded region's label.
    pub const LABEL_FONT: f64 = 12.0;
    /// The note a chart shows in place of curves it cannot draw.
    pub const NOTE_FONT: f64 = 13.0;
    /// Around the plot, each side.
    pub const MARGIN: f64 = 10.0;
    /// Below the plot: the x ticks and the axis description.
    pub const X_LABEL_AREA: f64 = 40.0;
    /// Left of the plot: the y ticks and the axis description.
    pub const Y_LABEL_AREA: f64 = 62.0;
    /// Inside the legend box, around its entries.
    pub const LEGEND_PAD: f64 = 6.0;
    /// One legend entry's height.
    pub const LEGEND_ROW: f64 = 16.0;
    /// A legend entry's swatch.
    pub const LEGEND_SWATCH: f64 = 22.0;
    /// The legend box's distance from the plot's corner.
    pub const LEGEND_INSET: f64 = 8.0;
    /// Between legend entries flowed in rows under a phone's chart.
    pub const LEGEND_GAP: f64 = 14.0;
    /// Curves' strokes: thin (areas' edges, dashed and dotted lines), thick (a solid line).
    pub const THIN_STROKE: f64 = 1.5;
    pub const THICK_STROKE: f64 = 2.5;
    /// A dashed line's dash and gap.
    pub const DASH: f64 = 6.0;
    pub const DASH_GAP: f64 = 4.0;
    /// The axes and the grid.
    pub const GRID_STROKE: f64 = 1.0;
    /// A table row's point.
    pub const POINT_RADIUS: f64 = 4.0;
    /// A callout's ring, its stroke, and its label's height above the point.
    pub const CALLOUT_RADIUS: f64 = 6.0;
    pub const CALLOUT_STROKE: f64 = 2.0;
    pub const CALLOUT_OFFSET: f64 = 8.0;
    /// Around a label's background.
    pub const LABEL_PAD: f64 = 2.0;
}

/// What a colour means across the LLM charts (the strong, weak and plan panels' and the
/// boxes figure), so that a reader learns it once.
pub mod colors {
    use super::PALETTE;
    use plotters::style::RGBColor;

    /// Compute time, and the batch split over GPUs in the boxes figure.
    pub const COMPUTE: RGBColor = PALETTE[0];
    /// Exposed (non-overlapped) time.
    pub const EXPOSED: RGBColor = PALETTE[1];
    /// The ideal (linear) line.
    pub const IDEAL: RGBColor = RGBColor(0x5F, 0x66, 0x6D);
    /// The table's rows drawn as points.
    pub const ROWS: RGBColor = PALETTE[6];
    /// The knee `N_max` and the shaded `T < T_crit` region.
    pub const KNEE: RGBColor = PALETTE[5];
    /// What still works: a whole batch per group, weak scaling's efficiency.
    pub const GOOD: RGBColor = PALETTE[2];
    /// Measured points.
    pub const MEASURED: RGBColor = PALETTE[3];
    /// The layout search's best layouts.
    pub const BEST: RGBColor = PALETTE[4];
}

/// Colours of the page background, text and grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub foreground: RGBColor,
    pub grid: RGBColor,
    pub muted: RGBColor,
}

impl Theme {
    /// The palette's black is "ink": drawn in the theme's text colour, so black markers stay
    /// visible on the dark background.
    pub fn ink(&self, color: RGBColor) -> RGBColor {
        if color == RGBColor(0, 0, 0) {
            self.foreground
        } else {
            color
        }
    }

    pub const LIGHT: Theme = Theme {
        background: RGBColor(0xFF, 0xFF, 0xFF),
        foreground: RGBColor(0x1F, 0x23, 0x28),
        grid: RGBColor(0xE4, 0xE7, 0xEB),
        muted: RGBColor(0x5F, 0x66, 0x6D),
    };
    /// Matches the page's dark theme (`www/style.css`); text and muted greys keep ≥ 4.5:1.
    pub const DARK: Theme = Theme {
        background: RGBColor(0x0D, 0x11, 0x17),
        foreground: RGBColor(0xE6, 0xED, 0xF3),
        grid: RGBColor(0x30, 0x36, 0x3D),
        muted: RGBColor(0x9D, 0xA7, 0xB3),
    };
}

/// How to draw: `scale` multiplies every font size, line width and margin, so a canvas sized
/// at `devicePixelRatio` × its CSS size stays sharp and keeps its proportions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartStyle {
    pub scale: f64,
    pub theme: Theme,
}

impl Default for ChartStyle {
    fn default() -> Self {
        ChartStyle {
            scale: 1.0,
            theme: Theme::LIGHT,
        }
    }
}

impl ChartStyle {
    /// A length in backend pixels for `css_px` CSS pixels.
    pub fn px(&self, css_px: f64) -> u32 {
        (css_px * self.scale).round().max(1.0) as u32
    }
    pub fn font(&self, css_px: f64) -> TextStyle<'static> {
        (FontFamily::SansSerif, css_px * self.scale)
            .into_font()
            .color(&self.theme.foreground)
    }
}

/// The rectangle a chart's data occupies, in backend pixels, with its log-scaled `x` range.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlotArea {
    pub left_px: i32,
    pub right_px: i32,
    pub top_px: i32,
    pub bottom_px: i32,
    pub x_min: f64,
    pub x_max: f64,
}

impl PlotArea {
    /// The `x` value (processors) under a backend pixel column, if it lies inside the plot.
    /// The axis is logarithmic: `x = x_min · (x_max/x_min)^t` for `t` the fraction across.
    pub fn x_at(&self, px: f64, py: f64) -> Option<f64> {
        let inside = px >= self.left_px as f64
            && px <= self.right_px as f64
            && py >= self.top_px as f64
            && py <= self.bottom_px as f64;
        if !inside || self.right_px <= self.left_px {
            return None;
        }
        let t = (px - self.left_px as f64) / (self.right_px - self.left_px) as f64;
        Some(self.x_min * (self.x_max / self.x_min).powf(t))
    }
}

/// A chart that could not be drawn (the backend failed, e.g. a detached canvas).
#[derive(Debug, Clone, PartialEq)]
pub struct ChartError(pub String);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chart could not be drawn: {}", self.0)
    }
}

impl std::error::Error for ChartError {}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for ChartError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        ChartError(e.to_string())
    }
}
