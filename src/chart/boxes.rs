//! The seed's "boxes" figure: one global batch split over more GPUs (strong scaling) against
//! one batch per group of GPUs (weak scaling), drawn from the current inputs.

use super::colors::{COMPUTE, GOOD};
use super::metrics::{LABEL_FONT, LEGEND_SWATCH, THIN_STROKE};
use super::{ChartError, ChartStyle};
use crate::i18n::tr;
use crate::model::llm::LlmSweep;
use crate::text::units::{format_count, format_si};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The boxes figure's own geometry (CSS pixels, font sizes in points): its padding, a row's
/// height, the boxes' labels and the figure's title.
const BOX_PAD: f64 = 12.0;
const BOX_LINE: f64 = 18.0;
const BOX_FONT: f64 = 13.0;
const BOX_TITLE_FONT: f64 = 14.0;

/// The seed's boxes figure, from the current inputs: strong scaling splits one global batch
/// over `k = N/N₀` groups; weak scaling gives each of the `k` groups a whole batch.
/// The larger GPU count shown is the strong table's last row. Every group gets a box while
/// the boxes stay wide enough for their label; past that the row shows the first groups, a
/// "…" gap and the last group, and the weak title says how many there are. A title wider than
/// the canvas breaks after its dash.
pub fn draw_boxes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    sweep: &LlmSweep,
    pinned: Option<&LlmSweep>,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    root.fill(&style.theme.background)?;
    let (width, height) = root.dim_in_pixel();
    let (w, h) = (width as i32, height as i32);
    let (n0, n1) = baseline_and_last_gpus(sweep);
    let batch = sweep.summary.global_batch_tokens;
    let groups = (n1 / n0).round().max(1.0);
    let px = |v: f64| style.px(v) as i32;
    let pad = px(BOX_PAD);
    let gap = pad / 3;
    let line = px(BOX_LINE);
    let font = style.font(BOX_FONT);
    let small = style.font(LABEL_FONT);
    let title = style.font(BOX_TITLE_FONT);
    let text_w = |text: &str, f: &TextStyle| {
        root.estimate_text_size(text, f)
            .map_or(0, |(tw, _)| tw as i32)
    };
    let (gpus0, gpus1) = (
        trf!("{} GPUs", "{} 卡", format_count(n0)),
        trf!("{} GPUs", "{} 卡", format_count(n1)),
    );
    let left = pad * 2 + text_w(&gpus0, &small).max(text_w(&gpus1, &small));
    let full_w = w - left - pad;
    let (part, whole) = (format_si(batch / groups, 3), format_si(batch, 3));
    // As many box slots as keep a label inside its box; at least three (first, gap, last).
    let min_box = text_w(&part, &font).max(text_w(&whole, &font)) + px(BOX_PAD);
    let slots = groups.min(((full_w + gap) / (min_box + gap)).max(3) as f64) as i32;
    let box_w = (full_w - (slots - 1) * gap) / slots;
    let weak_title = weak_boxes_title(batch, groups, (slots as f64) < groups);
    // One line, or two broken after the dash when one would run off the canvas.
    let cut = weak_title.rfind('—').map_or(0, |i| i + '—'.len_utf8());
    let weak_lines = if text_w(&weak_title, &title) > w - 2 * pad {
        vec![weak_title[..cut].trim(), weak_title[cut..].trim()]
    } else {
        vec![weak_title.as_str()]
    };
    let fixed = 6 * pad + line * (1 + weak_lines.len() as i32 + pinned.is_some() as i32);
    let rows = BoxRows {
        pad,
        left,
        gap,
        height: (h - fixed) / 4,
        groups,
        font: &font,
        small: &small,
        style,
    };
    // Strong: one batch, then the same batch split into `groups` parts.
    root.draw(&Text::new(
        tr(
            "Strong scaling: fixed global batch",
            "强扩展：固定 global batch",
        ),
        (pad, pad / 2),
        title.clone(),
    ))?;
    let y1 = pad + line;
    rows.label(root, y1, &gpus0)?;
    rows.draw(root, y1, 1, full_w, &format!("{whole} tokens"), COMPUTE)?;
    let y2 = y1 + rows.height + pad;
    rows.label(root, y2, &gpus1)?;
    rows.draw(root, y2, slots, box_w, &part, COMPUTE)?;
    // Weak: one batch per group.
    let mut y = y2 + rows.height + pad * 2;
    for text in &weak_lines {
        root.draw(&Text::new(*text, (pad, y), title.clone()))?;
        y += line;
    }
    let y4 = y + pad / 2;
    rows.label(root, y4, &gpus0)?;
    rows.draw(root, y4, 1, box_w, &whole, GOOD)?;
    let y5 = y4 + rows.height + pad;
    rows.label(root, y5, &gpus1)?;
    rows.draw(root, y5, slots, box_w, &whole, GOOD)?;
    if let Some(a) = pinned {
        draw_pinned_note(root, a, y5 + rows.height + line / 2, style)?;
    }
    root.present()?;
    Ok(())
}

/// The baseline GPU count `N₀` and the largest one shown (the strong table's last row).
fn baseline_and_last_gpus(sweep: &LlmSweep) -> (f64, f64) {
    let n0 = sweep.summary.baseline_gpus;
    (n0, sweep.strong.last().map_or(n0, |r| r.gpus).max(n0))
}

/// The weak half's title: how the global batch grows, and the number of groups when not
/// every group gets a box (`elided`).
fn weak_boxes_title(batch: f64, groups: f64, elided: bool) -> String {
    let more = if elided {
        trf!(" (×{} groups)", "（×{} 组）", format_count(groups))
    } else {
        String::new()
    };
    trf!(
        "Weak scaling: fixed tokens per replica — global batch {} → {}{}",
        "弱扩展：固定每副本 tokens——global batch {} → {}{}",
        format_si(batch, 3),
        format_si(batch * groups, 3),
        more
    )
}

/// The geometry shared by the boxes figure's four rows.
struct BoxRows<'a> {
    pad: i32,
    /// Where the boxes start, right of the rows' GPU-count labels.
    left: i32,
    gap: i32,
    height: i32,
    groups: f64,
    font: &'a TextStyle<'a>,
    small: &'a TextStyle<'a>,
    style: &'a ChartStyle,
}

impl BoxRows<'_> {
    /// `n` boxes of width `box_w` labelled `text`; when the row holds fewer boxes than groups,
    /// the one before last is a "…".
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        y: i32,
        n: i32,
        box_w: i32,
        text: &str,
        color: RGBColor,
    ) -> Result<(), ChartError> {
        let centered = self.font.pos(Pos::new(HPos::Center, VPos::Center));
        for i in 0..n {
            let x = self.left + i * (box_w + self.gap);
            let at = (x + box_w / 2, y + self.height / 2);
            if n > 2 && n < self.groups as i32 && i == n - 2 {
                root.draw(&Text::new("…", at, centered.clone()))?;
                continue;
            }
            let corners = [(x, y), (x + box_w, y + self.height)];
            root.draw(&Rectangle::new(corners, color.mix(0.25).filled()))?;
            root.draw(&Rectangle::new(
                corners,
                color.stroke_width(self.style.px(THIN_STROKE)),
            ))?;
            root.draw(&Text::new(text, at, centered.clone()))?;
        }
        Ok(())
    }

    /// A row's GPU count, left of its boxes.
    fn label<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        y: i32,
        text: &str,
    ) -> Result<(), ChartError> {
        root.draw(&Text::new(
            text,
            (self.pad, y + self.height / 2),
            self.small.pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
        Ok(())
    }
}

/// A pinned scenario A under the boxes: its batch and GPU counts beside a faded swatch.
fn draw_pinned_note<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    a: &LlmSweep,
    y: i32,
    style: &ChartStyle,
) -> Result<(), ChartError> {
    let px = |v: f64| style.px(v) as i32;
    let pad = px(BOX_PAD);
    let (n0, n1) = baseline_and_last_gpus(a);
    let faded = super::line::fade(COMPUTE, &style.theme);
    root.draw(&Rectangle::new(
        [(pad, y - px(5.0)), (pad + px(LEGEND_SWATCH), y + px(5.0))],
        faded.filled(),
    ))?;
    root.draw(&Text::new(
        trf!(
            "A: B_global {} tokens, {} → {} GPUs",
            "A：B_global {} tokens，{} → {} 卡",
            format_si(a.summary.global_batch_tokens, 3),
            format_count(n0),
            format_count(n1)
        ),
        (pad * 2 + px(LEGEND_SWATCH), y),
        style
            .font(LABEL_FONT)
            .color(&style.theme.muted)
            .pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
}
