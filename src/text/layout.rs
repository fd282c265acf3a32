//! A parallel layout in the notation (`TP8·PP4·CP2·EP8·DP128·A8`), for the layout
//! search's tables ([`crate::panel::layouts`]) and the labels on the charts' best-layout points.

use crate::i18n::{tr, zh};
use crate::model::layouts::Scored;
use crate::model::memory::Recompute;
use crate::model::step::PipelineSchedule;
use crate::text::units::format_count;

/// `TP8·PP4·CP2·EP8·DP128·A8`: the degrees above 1 (TP and PP always), the data-parallel
/// degree and the accumulation steps (the notation; the microbatch is a column); with
/// experts split less than TP, their degree after EP (`TP2·PP8·EP32·ETP1·DP16·A128`).
pub fn layout_name(s: &Scored) -> String {
    let c = &s.choice;
    let mut parts = vec![format!("TP{}", c.tp), format!("PP{}", c.pp)];
    if c.cp > 1 {
        parts.push(format!("CP{}", c.cp));
    }
    if c.ep > 1 {
        parts.push(format!("EP{}", c.ep));
    }
    if c.expert_tp > 0 {
        parts.push(format!("ETP{}", c.expert_tp));
    }
    parts.push(format!("DP{}", format_count(s.dp).replace(',', "")));
    parts.push(format!("A{}", s.accumulation));
    parts.join("·")
}

/// The schedule as the URL writes it, with its chunks (`interleaved×4`), in Chinese as the
/// `sched` menu names it (`交错式×4`); "no pipeline" without one.
pub fn schedule_name(s: &Scored) -> String {
    match s.choice.schedule {
        _ if s.choice.pp == 1 => tr("no pipeline", "无流水线").to_string(),
        PipelineSchedule::Interleaved => {
            trf!("interleaved×{}", "交错式×{}", s.choice.chunks)
        }
        PipelineSchedule::ZeroBubble => tr("zero-bubble", "零气泡").to_string(),
        // The menu's name; not a `tr` pair, as it holds no Chinese for the catalogue to find.
        PipelineSchedule::OneFOneB if zh() => "1F1B".to_string(),
        PipelineSchedule::OneFOneB => PipelineSchedule::OneFOneB.key().to_string(),
    }
}

/// The layout with its schedule (when it has a pipeline), ZeRO stage and recomputation:
/// `TP4·PP8·DP32·A16 (interleaved×4, ZeRO 1, none)`.
pub fn layout_summary(s: &Scored) -> String {
    trf!("{} ({})", "{}（{}）", layout_name(s), layout_choices(s))
}

/// What [`layout_summary`] adds to the layout's name: its schedule (when it has a pipeline),
/// ZeRO stage, recomputation and the layers offloaded to host memory when there are any,
/// `interleaved×4, ZeRO 1, none`, `ZeRO 3, none, 20 layers offloaded`.
pub fn layout_choices(s: &Scored) -> String {
    let mut extra = Vec::new();
    if s.choice.pp > 1 {
        extra.push(schedule_name(s));
    }
    extra.push(format!("ZeRO {}", s.choice.zero));
    extra.push(recompute_text(s));
    if s.choice.offload_layers > 0 {
        extra.push(trf!(
            "{} layers offloaded",
            "卸载 {} 层激活",
            s.choice.offload_layers
        ));
    }
    extra.join(tr(", ", "、"))
}

/// The recomputation of `s`: `none`, `selective`, `full`, or `full (4 layers)` for part of each
/// stage; in Chinese as the `ac` menu names them (`不重计算`, `选择性重计算`, `完全重计算（4 层）`).
pub fn recompute_text(s: &Scored) -> String {
    match s.choice.recompute {
        Recompute::Full if s.choice.recompute_layers > 0 => trf!(
            "full ({} layers)",
            "完全重计算（{} 层）",
            s.choice.recompute_layers
        ),
        Recompute::Full => tr("full", "完全重计算").to_string(),
        Recompute::Selective => tr("selective", "选择性重计算").to_string(),
        Recompute::None => tr("none", "不重计算").to_string(),
    }
}
