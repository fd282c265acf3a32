//! A parallel layout in the notation (`TP8·PP4·CP2·EP8·DP128·A8`), for the layout
//! search's tables ([`crate::panel::layouts`]) and the labels on the charts' best-layout points.

use crate::i18n::tr;
use crate::model::layouts::Scored;
use crate::model::memory::Recompute;
use crate::model::step::PipelineSchedule;
use crate::text::units::format_count;

/// `TP8·PP4·CP2·EP8·DP128·A8`: the degrees above 1 (TP and PP always), the data-parallel
/// degree and the accumulation steps (the notation; the microbatch is a column).
pub fn layout_name(s: &Scored) -> String {
    let c = &s.choice;
    let mut parts = vec![format!("TP{}", c.tp), format!("PP{}", c.pp)];
    if c.cp > 1 {
        parts.push(format!("CP{}", c.cp));
    }
    if c.ep > 1 {
        parts.push(format!("EP{}", c.ep));
    }
    parts.push(format!("DP{}", format_count(s.dp).replace(',', "")));
    parts.push(format!("A{}", s.accumulation));
    parts.join("·")
}

/// The schedule as the URL writes it, with its chunks (`interleaved×4`); "no pipeline" without
/// one.
pub fn schedule_name(s: &Scored) -> String {
    match s.choice.schedule {
        _ if s.choice.pp == 1 => tr("no pipeline", "无流水线").to_string(),
        PipelineSchedule::Interleaved => format!("interleaved×{}", s.choice.chunks),
        other => other.key().to_string(),
    }
}

/// The layout with its schedule (when it has a pipeline), ZeRO stage and recomputation:
/// `TP4·PP8·DP32·A16 (interleaved×4, ZeRO 1, none)`.
pub fn layout_summary(s: &Scored) -> String {
    let mut extra = Vec::new();
    if s.choice.pp > 1 {
        extra.push(schedule_name(s));
    }
    extra.push(format!("ZeRO {}", s.choice.zero));
    extra.push(recompute_text(s));
    format!("{} ({})", layout_name(s), extra.join(", "))
}

/// The recomputation of `s`: `none`, `selective`, `full`, or `full (4 layers)` for part of each
/// stage.
pub fn recompute_text(s: &Scored) -> String {
    match s.choice.recompute {
        Recompute::Full if s.choice.recompute_layers > 0 => trf!(
            "full ({} layers)",
            "full（{} 层）",
            s.choice.recompute_layers
        ),
        other => other.key().to_string(),
    }
}
