//! One generic chart against a log `N` axis: lines, filled areas, row markers, a shaded
//! region and labelled vertical markers. The strong and weak panels describe their charts as
//! a [`LineChart`] and draw them with [`draw_line_chart`], on any backend.

use super::metrics::*;
use super::{ChartError, ChartStyle, PlotArea};
use crate::text::units::{canonical, format_si};

/// Tick labels for GPU counts on a power-of-two axis, the way the seed writes them:
/// `512`, `1k`, `2k`, `8k`, `16k` (binary thousands: 8,192 GPUs is "8k 卡").
pub fn gpu_tick_label(n: f64) -> String {
    let exact_binary = |unit: f64| n >= unit && (n / unit).fract() == 0.0;
    if exact_binary(1_048_576.0) {
        format!("{}M", canonical(n / 1_048_576.0))
    } else if exact_binary(1024.0) {
        format!("{}k", canonical(n / 1024.0))
    } else {
        format_si(n, 3)
    }
}
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SeriesKind {
    /// A thick line (the highlighted curve).
    Solid,
    /// A thin line (comparisons).
    Thin,
    Dashed,
    /// Short dashes, told apart from `Dashed` without colour.
    Dotted,
    /// A stacked band filled down to the next `Area` series in the list, or to the axis for
    /// the last one (list stacked areas tallest first).
    Area,
    /// Markers only (table rows, measurements).
    Points,
    /// A ✗ at each point: table rows that cannot run (over GPU memory).
    Crosses,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub label: String,
    pub color: RGBColor,
    pub kind: SeriesKind,
    pub points: Vec<(f64, f64)>,
}

/// A vertical line at `x` with a label (e.g. `N_max`).
#[derive(Debug, Clone, PartialEq)]
pub struct VMarker {
    pub x: f64,
    pub label: String,
    pub color: RGBColor,
}

/// A labelled point (e.g. the throughput peak).
#[derive(Debug, Clone, PartialEq)]
pub struct Callout {
    pub at: (f64, f64),
    pub label: String,
    pub color: RGBColor,
    /// The label ends at the point (a maximum: the curve is below on both sides); otherwise it
    /// starts there (a falling curve's point: the space above and to the right is empty).
    pub ends_at_point: bool,
}

#[derive(Debug, Clone)]
pub struct LineChart {
    pub title: String,
    pub x_desc: String,
    pub y_desc: String,
    pub x_range: (f64, f64),
    pub y_range: (f64, f64),
    /// Log scale on `y` (otherwise linear).
    pub y_log: bool,
    pub y_format: fn(f64) -> String,
    pub series: Vec<Series>,
    /// `x` from here to the right edge is shaded, with this label.
    pub shade_from: Option<(f64, String)>,
    pub markers: Vec<VMarker>,
    pub callouts: Vec<Callout>,
    pub legend_upper_left: bool,
    /// The first `faded` series are a pinned scenario A's: drawn thin, halfway to the
    /// background.
    pub faded: usize,
    /// A message in the middle of an empty chart.
    pub note: Option<String>,
}

impl LineChart {
    /// This chart (scenario B) over the same chart of a pinned scenario A: A's series first,
    /// faded, labelled " (A)" (A's areas as their top lines), B's labelled " (B)"; B's markers
    /// and callouts; ranges covering both.
    pub fn compare(mut self, a: LineChart) -> LineChart {
        let mut series = a.series;
        self.faded = series.len();
        for s in &mut series {
            s.label += " (A)";
            if s.kind == SeriesKind::Area {
                s.kind = SeriesKind::Thin;
            }
        }
        for s in &mut self.series {
            s.label += " (B)";
        }
        series.append(&mut self.series);
        self.series = series;
        self.x_range = (
            self.x_range.0.min(a.x_range.0),
            self.x_range.1.max(a.x_range.1),
        );
        self.y_range = (
            self.y_range.0.min(a.y_range.0),
            self.y_range.1.max(a.y_range.1),
        );
        self
    }

    /// The colour series `i` is drawn in.
    fn color(&self, i: usize, theme: &super::Theme) -> RGBColor {
        let c = theme.ink(self.series[i].color);
        if i < self.faded {
            fade(c, theme)
        } else {
            c
        }
    }
}

/// A colour mixed halfway to the background (a pinned scenario A).
pub fn fade(c: RGBColor, theme: &super::Theme) -> RGBColor {
    let b = theme.background;
    let m = |x: u8, y: u8| ((x as u16 + y as u16) / 2) as u8;
    RGBColor(m(c.0, b.0), m(c.1, b.1), m(c.2, b.2))
}

/// The `y` range covering every series, padded; at least `min_top` tall, from 0 unless log.
pub fn y_extent(series: &[Series], log: bool, min_top: f64) -> (f64, f64) {
    let values = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let (lo, hi) = values
        .filter(|v| v.is_finite() && (!log || *v > 0.0))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() || !hi.is_finite() {
        return if log {
            (1.0, 10.0)
        } else {
            (0.0, min_top.max(1.0))
        };
    }
    if log {
        (lo / 1.5, (hi * 1.5).max(lo * 10.0))
    } else {
        (0.0, (hi * 1.12).max(min_top))
    }
}

/// A linear `f64` axis whose tick labels only ever come from the chart's own formatters.
///
/// plotters' `f64` axis carries a default label formatter built on Rust's fixed-precision float
/// formatting (`{:.0}`); even unused, it keeps that float-to-decimal engine in the WebAssembly
/// bundle.
/// This axis delegates mapping and ticks to plotters' and has no default formatting.
struct Axis(plotters::coord::types::RangedCoordf64);

impl From<std::ops::Range<f64>> for Axis {
    fn from(range: std::ops::Range<f64>) -> Self {
        Axis(range.into())
    }
}

impl plotters::coord::ranged1d::Ranged for Axis {
    type FormatOption = plotters::coord::ranged1d::NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.0.map(value, limit)
    }

    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, hint: H) -> Vec<f64> {
        self.0.key_points(hint)
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.0.range()
    }
}

impl plotters::coord::ranged1d::ValueFormatter<f64> for Axis {
    /// Reached only if a label formatter were missing; every chart sets both.
    fn format(value: &f64) -> String {
        crate::text::units::format_sig(*value, 4)
    }
}

/// Draws `chart` filling `root`; returns the plot area for the hover readout.
pub fn draw_line_chart<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    root.fill(&style.theme.background)?;
    let font = style.font(LABEL_FONT);
    let widths: Vec<i32> = chart
        .series
        .iter()
        .map(|s| {
            root.estimate_text_size(&s.label, &font)
                .map_or(0, |(w, _)| w as i32)
        })
        .collect();
    let legend = legend_layout(&widths, root.dim_in_pixel().0 as i32, style);
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(&chart.title, style.font(TITLE_FONT))
        .margin(style.px(MARGIN))
        .margin_bottom(style.px(MARGIN) as i32 + legend.below.unwrap_or(0))
        .x_label_area_size(style.px(X_LABEL_AREA))
        .y_label_area_size(style.px(Y_LABEL_AREA));
    let (l0, l1) = (lx(chart.x_range.0), lx(chart.x_range.1));
    let (a0, a1) = (chart.ly(chart.y_range.0), chart.ly(chart.y_range.1));
    let mut ctx = builder.build_cartesian_2d(Axis::from(l0..l1), Axis::from(a0..a1))?;
    draw_mesh(&mut ctx, chart, style)?;
    let strokes = Strokes::new(style);
    draw_shade(&mut ctx, chart, style)?;
    for i in 0..chart.series.len() {
        draw_series(&mut ctx, chart, i, &strokes, style)?;
    }
    draw_note(&mut ctx, chart, style)?;
    draw_markers(&mut ctx, chart, &strokes, style)?;
    draw_callouts(&mut ctx, chart, style)?;
    let (x, y) = ctx.plotting_area().get_pixel_range();
    let area = PlotArea {
        left_px: x.start,
        right_px: x.end,
        top_px: y.start,
        bottom_px: y.end,
        x_min: chart.x_range.0,
        x_max: chart.x_range.1,
    };
    draw_legend(root, chart, &legend, &area, style)?;
    root.present()?;
    Ok(area)
}

/// The chart's coordinates: both axes are [`Axis`], `x` in log2 N and `y` as [`LineChart::ly`].
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<Axis, Axis>>;

/// A GPU count in the x axis space. The x axis is linear in log2 N, so ticks fall on powers
/// of two (1k, 2k, 4k …), the GPU counts people actually use.
fn lx(x: f64) -> f64 {
    x.log2()
}

impl LineChart {
    /// A value in the y axis space. A log y axis is drawn as a linear axis over log10 y, so
    /// one monomorphization of the (large, generic) drawing code serves both.
    fn ly(&self, y: f64) -> f64 {
        if self.y_log {
            y.max(f64::MIN_POSITIVE).log10()
        } else {
            y
        }
    }
}

/// Line widths and dash lengths, in backend pixels.
struct Strokes {
    thin: u32,
    thick: u32,
    dash: i32,
    gap: i32,
}

impl Strokes {
    fn new(style: &ChartStyle) -> Strokes {
        Strokes {
            thin: style.px(THIN_STROKE),
            thick: style.px(THICK_STROKE),
            dash: style.px(DASH) as i32,
            gap: style.px(DASH_GAP) as i32,
        }
    }
}

/// The axes, their tick labels and descriptions, and the grid at the labelled ticks.
fn draw_mesh<DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    chart: &LineChart,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let (l0, l1) = (lx(chart.x_range.0), lx(chart.x_range.1));
    let ticks = ((l1.floor() - l0.ceil()) as usize + 1).clamp(2, 12);
    let (y_format, y_log) = (chart.y_format, chart.y_log);
    let theme = style.theme;
    ctx.configure_mesh()
        .x_desc(chart.x_desc.as_str())
        .y_desc(chart.y_desc.as_str())
        .x_labels(ticks)
        .x_label_formatter(&|v: &f64| gpu_tick_label(2f64.powf(v.round())))
        .y_label_formatter(&|v: &f64| y_format(if y_log { 10f64.powf(*v) } else { *v }))
        .label_style(style.font(LABEL_FONT))
        .axis_desc_style(style.font(AXIS_TITLE_FONT))
        .bold_line_style(theme.grid.stroke_width(style.px(GRID_STROKE)))
        // No light grid lines at all (plotters would otherwise emit them, invisible).
        .max_light_lines(0)
        .axis_style(theme.muted.stroke_width(style.px(GRID_STROKE)))
        .draw()?;
    Ok(())
}

/// The shaded region from `shade_from` to the right edge, with its label in the corner.
fn draw_shade<DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    chart: &LineChart,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let (x0, x1) = chart.x_range;
    let Some((from, label)) = chart.shade_from.as_ref().filter(|(from, _)| *from < x1) else {
        return Ok(());
    };
    let l1 = lx(x1);
    let (a0, a1) = (chart.ly(chart.y_range.0), chart.ly(chart.y_range.1));
    let left = lx(from.max(x0));
    ctx.draw_series(std::iter::once(Rectangle::new(
        [(left, a0), (l1, a1)],
        style.theme.muted.mix(0.12).filled(),
    )))?;
    ctx.draw_series(std::iter::once(Text::new(
        label.clone(),
        (l1, a0),
        style
            .font(LABEL_FONT)
            .color(&style.theme.muted)
            .pos(Pos::new(HPos::Right, VPos::Bottom)),
    )))?;
    Ok(())
}

/// Series `i` of `chart`, as its kind says; a pinned scenario's series are thin.
fn draw_series<DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    chart: &LineChart,
    i: usize,
    strokes: &Strokes,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let s = &chart.series[i];
    let color = chart.color(i, &style.theme);
    let thin = strokes.thin;
    let thick = if i < chart.faded { thin } else { strokes.thick };
    let y1 = chart.y_range.1;
    // Points above the frame are dropped, so a line leaves through the top edge.
    let pts = s
        .points
        .iter()
        .filter(|p| p.1.is_finite() && p.1 <= y1)
        .map(|&(x, y)| (lx(x), chart.ly(y)));
    match s.kind {
        SeriesKind::Solid => {
            ctx.draw_series(LineSeries::new(pts, color.stroke_width(thick)))?;
        }
        SeriesKind::Thin => {
            ctx.draw_series(LineSeries::new(pts, color.stroke_width(thin)))?;
        }
        SeriesKind::Dashed | SeriesKind::Dotted => {
            let (d, width) = if s.kind == SeriesKind::Dotted {
                (strokes.dash / 3, thick)
            } else {
                (strokes.dash, thin)
            };
            ctx.draw_series(DashedLineSeries::new(
                pts,
                d.max(1),
                strokes.gap,
                color.stroke_width(width),
            ))?;
        }
        SeriesKind::Area => draw_area(ctx, chart, i, color, thin)?,
        SeriesKind::Points => {
            ctx.draw_series(pts.map(|p| Circle::new(p, style.px(POINT_RADIUS), color.filled())))?;
        }
        SeriesKind::Crosses => {
            let size = style.px(POINT_RADIUS * 1.5);
            ctx.draw_series(pts.map(|p| Cross::new(p, size, color.stroke_width(thick))))?;
        }
    }
    Ok(())
}

/// Area series `i` as a stacked band: from it down to the next area series (or to the axis),
/// so bands never overlap and each shows its legend colour unblended.
fn draw_area<DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    chart: &LineChart,
    i: usize,
    color: RGBColor,
    thin: u32,
) -> Result<(), ChartError> {
    let s = &chart.series[i];
    let (y0, y1) = chart.y_range;
    let lower = chart.series[i + 1..]
        .iter()
        .find(|t| t.kind == SeriesKind::Area && t.points.len() == s.points.len());
    let band: Vec<((f64, f64), (f64, f64))> = s
        .points
        .iter()
        .enumerate()
        .map(|(k, &top)| (top, lower.map_or((top.0, y0), |t| t.points[k])))
        .filter(|(t, b)| t.1.is_finite() && b.1.is_finite())
        .map(|((x, yt), (_, yb))| ((lx(x), chart.ly(yt.min(y1))), (lx(x), chart.ly(yb.min(y1)))))
        .collect();
    let outline = band.iter().map(|b| b.0);
    ctx.draw_series(std::iter::once(Polygon::new(
        outline
            .clone()
            .chain(band.iter().rev().map(|b| b.1))
            .collect::<Vec<_>>(),
        color.mix(0.55).filled(),
    )))?;
    ctx.draw_series(LineSeries::new(outline, color.stroke_width(thin)))?;
    Ok(())
}

/// The message in the middle of an empty chart, if any.
fn draw_note<DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    chart: &LineChart,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let Some(note) = &chart.note else {
        return Ok(());
    };
    let (l0, l1) = (lx(chart.x_range.0), lx(chart.x_range.1));
    let (a0, a1) = (chart.ly(chart.y_range.0), chart.ly(chart.y_range.1));
    ctx.draw_series(std::iter::once(Text::new(
        note.clone(),
        ((l0 + l1) / 2.0, (a0 + a1) / 2.0),
        style
            .font(NOTE_FONT)
            .color(&style.theme.muted)
            .pos(Pos::new(HPos::Center, VPos::Center)),
    )))?;
    Ok(())
}

/// A label at `at` (plot coordinates), moved by `offset` pixels and anchored by `pos`, on a
/// patch of the chart's background: a curve the label crosses runs under it, not through it.
fn draw_label<'b, DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    at: (f64, f64),
    offset: (i32, i32),
    text: &str,
    font: TextStyle<'b>,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let (w, h) = ctx
        .plotting_area()
        .estimate_text_size(text, &font)
        .map(|(w, h)| (w as i32, h as i32))
        .unwrap_or((0, 0));
    let pad = style.px(LABEL_PAD) as i32;
    let x0 = offset.0
        - match font.pos.h_pos {
            HPos::Left => 0,
            HPos::Center => w / 2,
            HPos::Right => w,
        };
    let y0 = offset.1
        - match font.pos.v_pos {
            VPos::Top => 0,
            VPos::Center => h / 2,
            VPos::Bottom => h,
        };
    ctx.draw_series(std::iter::once(
        EmptyElement::at(at)
            + Rectangle::new(
                [(x0 - pad, y0 - pad), (x0 + w + pad, y0 + h + pad)],
                style.theme.background.mix(0.85).filled(),
            )
            + Text::new(text.to_string(), offset, font),
    ))?;
    Ok(())
}

/// The labelled vertical markers inside the x range.
fn draw_markers<DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    chart: &LineChart,
    strokes: &Strokes,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let (x0, x1) = chart.x_range;
    let (l0, l1) = (lx(x0), lx(x1));
    let (a0, a1) = (chart.ly(chart.y_range.0), chart.ly(chart.y_range.1));
    for m in chart.markers.iter().filter(|m| m.x >= x0 && m.x <= x1) {
        ctx.draw_series(DashedLineSeries::new(
            [(lx(m.x), a0), (lx(m.x), a1)],
            strokes.dash,
            strokes.gap,
            m.color.stroke_width(strokes.thin),
        ))?;
        // Right of the line, or left of it in the plot's right quarter, where the
        // label would run off a narrow canvas.
        let (text, h) = if lx(m.x) - l0 > 0.75 * (l1 - l0) {
            (format!("{} ", m.label.trim_start()), HPos::Right)
        } else {
            (m.label.clone(), HPos::Left)
        };
        draw_label(
            ctx,
            (lx(m.x), a1),
            (0, 0),
            &text,
            style
                .font(LABEL_FONT)
                .color(&m.color)
                .pos(Pos::new(h, VPos::Top)),
            style,
        )?;
    }
    Ok(())
}

/// The callouts: a ring on the point and its label, if any, above it.
fn draw_callouts<DB: DrawingBackend>(
    ctx: &mut Plot<'_, DB>,
    chart: &LineChart,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    for c in &chart.callouts {
        let at = (lx(c.at.0), chart.ly(c.at.1));
        ctx.draw_series(std::iter::once(Circle::new(
            at,
            style.px(CALLOUT_RADIUS),
            c.color.stroke_width(style.px(CALLOUT_STROKE)),
        )))?;
        if c.label.is_empty() {
            continue;
        }
        // Above the point, ending at it for a maximum (the throughput peak: the curve is below
        // and to both sides), starting at it on a falling curve.
        let h = if c.ends_at_point {
            HPos::Right
        } else {
            HPos::Left
        };
        draw_label(
            ctx,
            at,
            (0, -(style.px(CALLOUT_OFFSET) as i32)),
            &c.label,
            style
                .font(LABEL_FONT)
                .color(&c.color)
                .pos(Pos::new(h, VPos::Bottom)),
            style,
        )?;
    }
    Ok(())
}

/// Where the legend's entries go, in pixels.
struct LegendLayout {
    /// Each entry's left edge (from the box's left) and row.
    places: Vec<(i32, i32)>,
    /// The width of the box inside the plot (entries in one column).
    width: i32,
    /// `Some(height)`: the entries flow in rows under the chart, which gives up this height.
    below: Option<i32>,
}

/// Inside the plot's upper or lower left corner, one entry a row, unless that box would cover
/// more than 40% of the plot's width (a phone's canvas): then the entries flow left to right
/// in rows under the chart, outside the plot, so no curve is hidden behind them.
fn legend_layout(widths: &[i32], root_w: i32, style: &ChartStyle) -> LegendLayout {
    let px = |v: f64| style.px(v) as i32;
    let (pad, row, swatch_w) = (px(LEGEND_PAD), px(LEGEND_ROW), px(LEGEND_SWATCH));
    let width = pad * 3 + swatch_w + widths.iter().copied().max().unwrap_or(0);
    // The plot is the canvas less the y labels and the margins.
    let plot_w = root_w - px(Y_LABEL_AREA + 2.0 * MARGIN);
    if widths.is_empty() || width * 5 <= plot_w * 2 {
        let places = (0..widths.len() as i32).map(|i| (pad, i)).collect();
        return LegendLayout {
            places,
            width,
            below: None,
        };
    }
    let (mut x, mut r) = (0, 0);
    let mut places = Vec::new();
    for &w in widths {
        let entry = swatch_w + pad + w + px(LEGEND_GAP);
        if x > 0 && x + entry > root_w - px(2.0 * MARGIN) {
            (x, r) = (0, r + 1);
        }
        places.push((x, r));
        x += entry;
    }
    LegendLayout {
        places,
        width,
        below: Some(pad * 2 + row * (r + 1)),
    }
}

/// The legend, drawn in pixels where [`legend_layout`] put it. (Drawn here rather than with
/// plotters' series labels, whose default font lookup pulls Unicode case tables into the
/// WebAssembly bundle.)
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    layout: &LegendLayout,
    area: &PlotArea,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    if chart.series.is_empty() {
        return Ok(());
    }
    let font = style.font(LABEL_FONT);
    let px = |v: f64| style.px(v) as i32;
    let (pad, row, swatch_w) = (px(LEGEND_PAD), px(LEGEND_ROW), px(LEGEND_SWATCH));
    let theme = style.theme;
    let (left, top) = if let Some(h) = layout.below {
        (px(MARGIN), root.dim_in_pixel().1 as i32 - h)
    } else {
        let (w, h) = (layout.width, pad * 2 + row * chart.series.len() as i32);
        let left = area.left_px + px(LEGEND_INSET);
        let top = if chart.legend_upper_left {
            area.top_px + px(LEGEND_INSET)
        } else {
            area.bottom_px - px(LEGEND_INSET) - h
        };
        root.draw(&Rectangle::new(
            [(left, top), (left + w, top + h)],
            theme.background.mix(0.9).filled(),
        ))?;
        root.draw(&Rectangle::new(
            [(left, top), (left + w, top + h)],
            theme.grid,
        ))?;
        (left, top)
    };
    for (i, (s, &(dx, r))) in chart.series.iter().zip(&layout.places).enumerate() {
        let y = top + pad + row * r + row / 2;
        let x = left + dx;
        // A bar for areas, a dot for points, a line for lines.
        let color = chart.color(i, &theme);
        let (half_h, half_w, swatch) = match s.kind {
            SeriesKind::Area => (px(5.0), swatch_w / 2, color.mix(0.55).filled()),
            SeriesKind::Points => (px(4.0), px(4.0), color.filled()),
            SeriesKind::Solid => (px(1.5), swatch_w / 2, color.filled()),
            _ => (px(1.0), swatch_w / 2, color.filled()),
        };
        let cx = x + swatch_w / 2;
        // Dashed and dotted lines keep their pattern in the legend, so a reader can tell
        // them from a solid line of the same colour (dash and gap in pixels).
        let pattern = match s.kind {
            SeriesKind::Dashed => Some((px(7.0), px(4.0), half_h)),
            SeriesKind::Dotted => Some((px(2.5), px(2.5), px(1.5))),
            _ => None,
        };
        if s.kind == SeriesKind::Crosses {
            root.draw(&Cross::new(
                (cx, y),
                px(4.0),
                color.stroke_width(style.px(2.0)),
            ))?;
        } else if let Some((dash, gap, half_h)) = pattern {
            let mut from = x;
            while from < x + swatch_w {
                let to = (from + dash).min(x + swatch_w);
                root.draw(&Rectangle::new(
                    [(from, y - half_h), (to, y + half_h)],
                    swatch,
                ))?;
                from = to + gap.max(1);
            }
        } else {
            root.draw(&Rectangle::new(
                [(cx - half_w, y - half_h), (cx + half_w, y + half_h)],
                swatch,
            ))?;
        }
        root.draw(&Text::new(
            s.label.clone(),
            (x + swatch_w + pad, y),
            font.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}
