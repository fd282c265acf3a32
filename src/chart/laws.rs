//! The Laws panel's charts: speedup, efficiency and Karp–Flatt `e(N)` against `N` (log axis).
//!
//! Axes depend only on `N_max` and the measured points, never on `f`, so the frame stays
//! still while a reader drags the `f` slider and only the curves move.

use super::{count_label, ChartError, ChartStyle, PlotArea, PALETTE};
use crate::model::sweep::{Curve, LawsSweep};
use crate::model::units::{format_count, format_sig, format_speedup};
use crate::report::format_fraction;
use plotters::chart::SeriesAnno;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

const AMDAHL: RGBColor = PALETTE[0];
const GUSTAFSON: RGBColor = PALETTE[1];
const SUN_NI: RGBColor = PALETTE[2];
const MEASURED: RGBColor = PALETTE[6];
/// Colours for the comparison `f` curves (after the three laws' own colours).
const COMPARE: [RGBColor; 4] = [
    PALETTE[3],
    PALETTE[4],
    PALETTE[5],
    RGBColor(0x8A, 0x8A, 0x8A),
];

fn plot_area<DB: DrawingBackend, CT: plotters::coord::CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    x_min: f64,
    x_max: f64,
) -> PlotArea {
    let (x, y) = area.get_pixel_range();
    PlotArea {
        left_px: x.start,
        right_px: x.end,
        top_px: y.start,
        bottom_px: y.end,
        x_min,
        x_max,
    }
}

fn legend_line(color: RGBColor, width: u32) -> impl Fn((i32, i32)) -> PathElement<(i32, i32)> {
    move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], color.stroke_width(width))
}

/// Draws the speedup chart: ideal `S = N`, Amdahl / Gustafson / Sun–Ni for `f`, Amdahl for
/// each comparison `f`, the `1/f` ceiling, the 50%-efficiency point and measured speedups.
pub fn draw_speedup<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LawsSweep,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    let theme = style.theme;
    root.fill(&theme.background)?;
    let n_max = sweep.max_processors;
    let measured = sweep.measured.as_ref().map_or(&[][..], |m| &m.rows[..]);
    let y_top = measured.iter().map(|r| r.speedup).fold(n_max, f64::max) * 1.15;
    let y_bottom = measured.iter().map(|r| r.speedup).fold(1.0, f64::min) * 0.9;
    let mut chart = ChartBuilder::on(root)
        .caption("Speedup S(N)", style.font(16.0))
        .margin(style.px(10.0))
        .x_label_area_size(style.px(40.0))
        .y_label_area_size(style.px(56.0))
        .build_cartesian_2d((1f64..n_max).log_scale(), (y_bottom..y_top).log_scale())?;
    chart
        .configure_mesh()
        .x_desc("Processors N (log scale)")
        .y_desc("Speedup (log scale)")
        .x_label_formatter(&count_label)
        .y_label_formatter(&count_label)
        .label_style(style.font(12.0))
        .axis_desc_style(style.font(13.0))
        .bold_line_style(theme.grid.stroke_width(style.px(1.0)))
        .light_line_style(theme.background.stroke_width(0))
        .axis_style(theme.muted.stroke_width(style.px(1.0)))
        .draw()?;

    let thin = style.px(1.5);
    let thick = style.px(2.5);
    let dash = style.px(6.0) as i32;
    let gap = style.px(4.0) as i32;

    chart
        .draw_series(DashedLineSeries::new(
            [(1.0, 1.0), (n_max, n_max)],
            dash,
            gap,
            theme.muted.stroke_width(thin),
        ))?
        .label("ideal S = N")
        .legend(legend_line(theme.muted, thin));

    for (i, (fc, curve)) in sweep
        .compare_fractions
        .iter()
        .zip(&sweep.curves.compare)
        .enumerate()
    {
        let color = COMPARE[i % COMPARE.len()];
        chart
            .draw_series(LineSeries::new(
                curve.points.iter().copied(),
                color.stroke_width(thin),
            ))?
            .label(format!("Amdahl f={}", format_fraction(*fc)))
            .legend(legend_line(color, thin));
    }

    let f = format_fraction(sweep.serial_fraction);
    draw_curve(
        &mut chart,
        &sweep.curves.sun_ni,
        SUN_NI,
        thick,
        Some((dash / 2, gap)),
    )?
    .label(format!(
        "Sun–Ni f={f}, g={}",
        format_sig(sweep.growth_exponent, 3)
    ))
    .legend(legend_line(SUN_NI, thick));
    draw_curve(
        &mut chart,
        &sweep.curves.gustafson,
        GUSTAFSON,
        thick,
        Some((dash, gap)),
    )?
    .label(format!("Gustafson f={f}"))
    .legend(legend_line(GUSTAFSON, thick));
    draw_curve(&mut chart, &sweep.curves.amdahl, AMDAHL, thick, None)?
        .label(format!("Amdahl f={f}"))
        .legend(legend_line(AMDAHL, thick));

    if let Some(ceiling) = sweep.amdahl_ceiling.filter(|c| *c <= y_top) {
        chart.draw_series(DashedLineSeries::new(
            [(1.0, ceiling), (n_max, ceiling)],
            dash,
            gap,
            AMDAHL.stroke_width(thin),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("ceiling 1/f = {}", format_speedup(ceiling)),
            (n_max, ceiling),
            style
                .font(13.0)
                .color(&AMDAHL)
                .pos(Pos::new(HPos::Right, VPos::Bottom)),
        )))?;
    }
    if let Some(n_half) = sweep.half_efficiency_processors.filter(|n| *n <= n_max) {
        let s_half = n_half / 2.0;
        chart.draw_series(std::iter::once(Circle::new(
            (n_half, s_half),
            style.px(5.0),
            AMDAHL.filled(),
        )))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("E = 50% at N = {}", format_sig(n_half, 4)),
            (n_half, s_half),
            style
                .font(12.0)
                .color(&AMDAHL)
                .pos(Pos::new(HPos::Left, VPos::Top)),
        )))?;
    }
    if !measured.is_empty() {
        chart
            .draw_series(measured.iter().map(|r| {
                Cross::new(
                    (r.processors, r.speedup),
                    style.px(5.0),
                    MEASURED.stroke_width(style.px(2.0)),
                )
            }))?
            .label("measured")
            .legend(move |(x, y)| Cross::new((x + 11, y), 5, MEASURED.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font(style.font(12.0))
        .background_style(theme.background.mix(0.9))
        .border_style(theme.grid)
        .draw()?;
    let area = plot_area(chart.plotting_area(), 1.0, n_max);
    root.present()?;
    Ok(area)
}

/// One law's curve, solid or dashed (`dash = Some((dash, gap))`).
fn draw_curve<
    'b,
    'a: 'b,
    DB: DrawingBackend + 'a,
    CT: plotters::coord::CoordTranslate<From = (f64, f64)>,
>(
    chart: &'b mut ChartContext<'a, DB, CT>,
    curve: &Curve,
    color: RGBColor,
    width: u32,
    dash: Option<(i32, i32)>,
) -> Result<&'b mut SeriesAnno<'a, DB>, ChartError> {
    let style = color.stroke_width(width);
    let points = curve.points.iter().copied();
    Ok(match dash {
        None => chart.draw_series(LineSeries::new(points, style))?,
        Some((d, g)) => chart.draw_series(DashedLineSeries::new(points, d, g, style))?,
    })
}

/// Draws the efficiency chart: `E(N) = S(N)/N` for every law, the 50% line and measured
/// efficiencies.
pub fn draw_efficiency<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LawsSweep,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    let theme = style.theme;
    root.fill(&theme.background)?;
    let n_max = sweep.max_processors;
    let measured = sweep.measured.as_ref().map_or(&[][..], |m| &m.rows[..]);
    let y_top = measured
        .iter()
        .map(|r| r.efficiency * 1.05)
        .fold(1.05, f64::max)
        .min(10.0);
    let mut chart = ChartBuilder::on(root)
        .caption("Parallel efficiency E(N) = S(N)/N", style.font(16.0))
        .margin(style.px(10.0))
        .x_label_area_size(style.px(40.0))
        .y_label_area_size(style.px(56.0))
        .build_cartesian_2d((1f64..n_max).log_scale(), 0f64..y_top)?;
    chart
        .configure_mesh()
        .x_desc("Processors N (log scale)")
        .y_desc("Efficiency")
        .x_label_formatter(&count_label)
        .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
        .label_style(style.font(12.0))
        .axis_desc_style(style.font(13.0))
        .bold_line_style(theme.grid.stroke_width(style.px(1.0)))
        .light_line_style(theme.background.stroke_width(0))
        .axis_style(theme.muted.stroke_width(style.px(1.0)))
        .draw()?;
    let thin = style.px(1.5);
    let thick = style.px(2.5);
    let dash = style.px(6.0) as i32;
    let gap = style.px(4.0) as i32;

    chart.draw_series(DashedLineSeries::new(
        [(1.0, 0.5), (n_max, 0.5)],
        dash,
        gap,
        theme.muted.stroke_width(thin),
    ))?;
    chart.draw_series(std::iter::once(Text::new(
        "50%",
        (n_max, 0.5),
        style
            .font(12.0)
            .color(&theme.muted)
            .pos(Pos::new(HPos::Right, VPos::Bottom)),
    )))?;
    for (i, (fc, curve)) in sweep
        .compare_fractions
        .iter()
        .zip(&sweep.curves.compare_efficiency)
        .enumerate()
    {
        let color = COMPARE[i % COMPARE.len()];
        chart
            .draw_series(LineSeries::new(
                curve.points.iter().copied(),
                color.stroke_width(thin),
            ))?
            .label(format!("Amdahl f={}", format_fraction(*fc)))
            .legend(legend_line(color, thin));
    }
    let f = format_fraction(sweep.serial_fraction);
    draw_curve(
        &mut chart,
        &sweep.curves.sun_ni_efficiency,
        SUN_NI,
        thick,
        Some((dash / 2, gap)),
    )?
    .label(format!(
        "Sun–Ni f={f}, g={}",
        format_sig(sweep.growth_exponent, 3)
    ))
    .legend(legend_line(SUN_NI, thick));
    draw_curve(
        &mut chart,
        &sweep.curves.gustafson_efficiency,
        GUSTAFSON,
        thick,
        Some((dash, gap)),
    )?
    .label(format!("Gustafson f={f}"))
    .legend(legend_line(GUSTAFSON, thick));
    draw_curve(
        &mut chart,
        &sweep.curves.amdahl_efficiency,
        AMDAHL,
        thick,
        None,
    )?
    .label(format!("Amdahl f={f}"))
    .legend(legend_line(AMDAHL, thick));
    if let Some(n_half) = sweep.half_efficiency_processors.filter(|n| *n <= n_max) {
        chart.draw_series(std::iter::once(Circle::new(
            (n_half, 0.5),
            style.px(5.0),
            AMDAHL.filled(),
        )))?;
    }
    if !measured.is_empty() {
        chart
            .draw_series(measured.iter().map(|r| {
                Cross::new(
                    (r.processors, r.efficiency),
                    style.px(5.0),
                    MEASURED.stroke_width(style.px(2.0)),
                )
            }))?
            .label("measured")
            .legend(move |(x, y)| Cross::new((x + 11, y), 5, MEASURED.stroke_width(2)));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerLeft)
        .label_font(style.font(12.0))
        .background_style(theme.background.mix(0.9))
        .border_style(theme.grid)
        .draw()?;
    let area = plot_area(chart.plotting_area(), 1.0, n_max);
    root.present()?;
    Ok(area)
}

/// Draws Karp–Flatt `e(N)` of the measured points and the fitted serial fraction. With no
/// measured points it draws an empty frame that says how to add some.
pub fn draw_karp_flatt<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LawsSweep,
    style: &ChartStyle,
) -> Result<PlotArea, ChartError> {
    let theme = style.theme;
    root.fill(&theme.background)?;
    let rows = sweep.measured.as_ref().map_or(&[][..], |m| &m.rows[..]);
    let fitted = sweep
        .measured
        .as_ref()
        .and_then(|m| m.fitted_serial_fraction);
    let values: Vec<(f64, f64)> = rows
        .iter()
        .filter_map(|r| r.karp_flatt.map(|e| (r.processors, e)))
        .collect();
    let x_max = rows.last().map_or(2.0, |r| r.processors.max(2.0)) * 1.5;
    let e_max = values
        .iter()
        .map(|v| v.1)
        .chain(fitted)
        .fold(0.01, f64::max);
    let e_min = values.iter().map(|v| v.1).chain(fitted).fold(0.0, f64::min);
    let span = e_max - e_min;
    let mut chart = ChartBuilder::on(root)
        .caption("Karp–Flatt serial fraction e(N)", style.font(16.0))
        .margin(style.px(10.0))
        .x_label_area_size(style.px(40.0))
        .y_label_area_size(style.px(56.0))
        .build_cartesian_2d(
            (1f64..x_max).log_scale(),
            (e_min - 0.05 * span)..(e_max + 0.25 * span),
        )?;
    chart
        .configure_mesh()
        .x_desc("Processors N (log scale)")
        .y_desc("e(N)")
        .x_label_formatter(&count_label)
        .y_label_formatter(&|v| format!("{}%", format_sig(v * 100.0, 3)))
        .label_style(style.font(12.0))
        .axis_desc_style(style.font(13.0))
        .bold_line_style(theme.grid.stroke_width(style.px(1.0)))
        .light_line_style(theme.background.stroke_width(0))
        .axis_style(theme.muted.stroke_width(style.px(1.0)))
        .draw()?;
    if values.is_empty() {
        chart.draw_series(std::iter::once(Text::new(
            "Paste measured points (N and time or speedup) to see e(N)",
            ((x_max).sqrt(), e_max / 2.0),
            style
                .font(13.0)
                .color(&theme.muted)
                .pos(Pos::new(HPos::Center, VPos::Center)),
        )))?;
    } else {
        let width = style.px(2.0);
        if let Some(f_fit) = fitted {
            chart
                .draw_series(DashedLineSeries::new(
                    [(1.0, f_fit), (x_max, f_fit)],
                    style.px(6.0) as i32,
                    style.px(4.0) as i32,
                    AMDAHL.stroke_width(style.px(1.5)),
                ))?
                .label(format!("fitted f = {}", format_fraction(f_fit)))
                .legend(legend_line(AMDAHL, style.px(1.5)));
        }
        chart
            .draw_series(LineSeries::new(
                values.iter().copied(),
                MEASURED.stroke_width(width),
            ))?
            .label("measured e(N)")
            .legend(legend_line(MEASURED, width));
        chart.draw_series(
            values
                .iter()
                .map(|&(n, e)| Circle::new((n, e), style.px(4.0), MEASURED.filled())),
        )?;
        if let Some(&(n, e)) = values.last() {
            chart.draw_series(std::iter::once(Text::new(
                format!("N = {}: {}", format_count(n), format_fraction(e)),
                (n, e),
                style.font(12.0).pos(Pos::new(HPos::Right, VPos::Bottom)),
            )))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(style.font(12.0))
            .background_style(theme.background.mix(0.9))
            .border_style(theme.grid)
            .draw()?;
    }
    let area = plot_area(chart.plotting_area(), 1.0, x_max);
    root.present()?;
    Ok(area)
}
