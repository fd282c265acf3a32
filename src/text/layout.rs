//! A parallel layout in the notation (`TP8·PP4·CP2·EP8·DP128·A8`), for the layout
//! search's tables ([`crate::panel::layouts`]) and the labels on the charts' best-layout points.

use crate::model::layouts::Scored;
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
