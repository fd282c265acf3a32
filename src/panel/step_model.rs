//! What the LLM panels say about the step model itself: which one is in force (`cm`, `em`,
//! `auto` resolved), an MFU above 100% traced to the inputs behind it, and the inputs the
//! model in force does not read. These keep a panel from showing numbers that contradict
//! each other without a word of why.

use crate::i18n::tr;
use crate::model::llm::LlmSweep;
use crate::model::shape::{params_mismatch, PARAMS_TOLERANCE};
use crate::scenario::llm::{ComputeMode, ExposedMode, LlmSettings};
use crate::scenario::Key;
use crate::text::units::{format_count, format_ms, format_params, format_percent, format_si};

/// How the compute time is found, in the words of the `cm` menu. With a shape the FLOPs per
/// token count attention's score and value products, `12·L·h·s`, beside the weights' `6·P_a`
/// (`LlmInputs::flops_per_token`), and the formula says so.
fn compute_text(mode: ComputeMode, with_shape: bool) -> &'static str {
    match mode {
        ComputeMode::Time | ComputeMode::Auto => {
            tr("a measured time at N₀ (tc)", "N₀ 时的实测时间（tc）")
        }
        ComputeMode::Flops if with_shape => "(6·P_a + 12·L·h·s)·B/(N·F_eff)",
        ComputeMode::Flops => "6·P_a·B/(N·F_eff)",
        ComputeMode::Physics => tr(
            "physics, F_eff = r_inf·peak·η",
            "物理推算，F_eff = r_inf·峰值·η",
        ),
    }
}

/// How the exposed time is found, in the words of the `em` menu.
fn exposed_text(mode: ExposedMode) -> &'static str {
    match mode {
        ExposedMode::Table | ExposedMode::Auto => tr("the ex table", "ex 表"),
        ExposedMode::Step => tr("measured step times (st)", "实测单步时间（st）"),
        ExposedMode::Fsdp => tr(
            "the FSDP model of the layout's traffic",
            "按并行布局计算通信量的 FSDP 模型",
        ),
        ExposedMode::Fit => tr("the fit of st", "st 的拟合"),
    }
}

/// The step model in force, once the shape is given (before it, the seed's measured time is
/// the only model the inputs support and the figure would only repeat the menu): what `auto`
/// chose and why, or, beside an explicit measured model, that the shape could predict it.
pub fn step_model_figure(l: &LlmSettings) -> Option<(String, String)> {
    if !l.walls.has_shape() {
        return None;
    }
    let (cm, em) = (l.compute_in_force(), l.exposed_in_force());
    let why = if l.exposed_mode == ExposedMode::Fit {
        ""
    } else if l.compute_mode == ComputeMode::Auto && cm == ComputeMode::Physics {
        tr(
            " (auto: the shape gives P)",
            "（auto：已由形状得出 P，故用物理推算）",
        )
    } else if l.compute_mode == ComputeMode::Auto {
        tr(
            " (auto: physics once the shape agrees with P)",
            "（auto：形状与 P 一致后改用物理推算）",
        )
    } else if cm != ComputeMode::Physics || em != ExposedMode::Fsdp {
        tr(
            "; with the shape given, cm=physics and em=fsdp predict both",
            "；已给出形状：设 cm=physics、em=fsdp 即可由模型推算计算与暴露两部分",
        )
    } else {
        ""
    };
    let compute = if l.exposed_mode == ExposedMode::Fit {
        exposed_text(ExposedMode::Fit)
    } else {
        compute_text(cm, true)
    };
    Some((
        tr("Step model in force", "当前使用的单步时间模型").to_string(),
        trf!(
            "compute from {}, exposed time from {}{}",
            "计算时间：{}；暴露时间：{}{}",
            compute,
            exposed_text(em),
            why
        ),
    ))
}

/// The largest MFU a sweep shows, in its table rows or on its chart, with its GPU count.
fn highest_mfu(sweep: &LlmSweep, weak: bool) -> Option<(f64, f64)> {
    let rows: Vec<(f64, f64)> = if weak {
        sweep.weak.iter().map(|r| (r.gpus, r.mfu)).collect()
    } else {
        sweep.strong.iter().map(|r| (r.gpus, r.mfu)).collect()
    };
    let curve = if weak {
        &sweep.weak_curves.mfu
    } else {
        &sweep.strong_curves.mfu
    };
    rows.into_iter()
        .chain(curve.iter().copied())
        .filter(|(_, mfu)| mfu.is_finite())
        .reduce(|a, b| if b.1 > a.1 { b } else { a })
}

/// An MFU above 100% cannot be: the GPUs would do more FLOPs than their peak. When a panel
/// would show one (tables, chart, JSON), this figure says where and names the inputs behind
/// it and what to change — the compute time `tc` with `cm=time`, `F_eff` against the peak
/// otherwise, the measured `st` with a fit.
pub fn mfu_above_peak(sweep: &LlmSweep, l: &LlmSettings, weak: bool) -> Option<(String, String)> {
    let (gpus, mfu) = highest_mfu(sweep, weak).filter(|&(_, mfu)| mfu > 1.0)?;
    let why = if sweep.fit.is_some() {
        tr(
            "the step times st imply more FLOP/s than the peak; check st, B_global, P_a and peak",
            "按 st 的单步时间推算，每卡 FLOP/s 超过峰值；请检查 st、B_global、P_a 与 peak",
        )
        .to_string()
    } else if let Some(implied) = l
        .walls
        .shape()
        .map(|s| s.total_params())
        .filter(|&p| params_mismatch(p, l.total_params) > PARAMS_TOLERANCE)
    {
        // The step's FLOPs count P_a while the shape says the model is another size: the
        // inputs disagree before any rate does (a config imported, P left at the default).
        trf!(
            "P = {} is not the {} the model's shape implies; set P and P_a to the shape's counts first, then look at tc and cm",
            "P = {} 与模型形状推出的 {} 不符；请先把 P 与 P_a 设为形状的参数量，再看 tc 与 cm",
            format_params(l.total_params),
            format_params(implied)
        )
    } else if l.compute_in_force() == ComputeMode::Time {
        trf!(
            "tc = {} ms at N₀ = {} is shorter than these FLOPs take at the peak; raise tc, or set cm to physics",
            "N₀ = {1} 时 tc = {0} ms，比按峰值算力完成这些 FLOPs 所需的时间还短；请调大 tc，或把 cm 设为 physics",
            format_ms(l.compute_ms),
            format_count(l.baseline_gpus)
        )
    } else {
        trf!(
            "F_eff = {}FLOP/s (feff) is above the peak {}FLOP/s; lower feff or raise peak",
            "F_eff = {}FLOP/s（feff）高于峰值 {}FLOP/s；请调低 feff 或调高 peak",
            format_si(l.flops_per_gpu, 3),
            format_si(l.peak_flops_per_gpu, 3)
        )
    };
    Some((
        tr("MFU above 100%", "MFU 超过 100%").to_string(),
        trf!(
            "{} at {} GPUs: {}",
            "{1} 卡时 {0}：{2}",
            format_percent(mfu, 1),
            format_count(gpus),
            why
        ),
    ))
}

/// Why an input is not read by the model in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unused {
    /// `a`: the fixed microbatch (`mbs`) sets `A` at each GPU count.
    SetByMicrobatch,
    /// Compute comes from elsewhere than `tc` (`cm` in force), with or without the model's
    /// shape (then the FLOPs per token count attention).
    ComputeFrom(ComputeMode, bool),
    /// The fit of `st` sets compute and exposed time (`em=fit`).
    SetByFit,
    /// `F_eff` is `r_inf · peak · η` (`cm=physics`).
    RateFromPhysics,
    /// `stack` and `rinf` set the rate only with `cm=physics`.
    NotPhysics,
    /// The exposed time comes from elsewhere (`em` in force).
    ExposedFrom(ExposedMode),
    /// `vc` counts chunks of the interleaved schedule only.
    NotInterleaved,
}

/// The inputs the step model in force does not read, each with why: the page marks their
/// boxes, so a value that changes nothing does not look like one that does.
pub fn unused_inputs(l: &LlmSettings) -> Vec<(Key, Unused)> {
    let (cm, em) = (l.compute_in_force(), l.exposed_in_force());
    let fit = em == ExposedMode::Fit;
    let mut out = Vec::new();
    if l.microbatch_tokens().is_some() {
        out.push((Key::Accumulation, Unused::SetByMicrobatch));
    }
    if fit {
        out.extend([Key::ComputeMs, Key::Flops].map(|k| (k, Unused::SetByFit)));
    } else if cm != ComputeMode::Time {
        let with_shape = l.walls.has_shape();
        out.push((Key::ComputeMs, Unused::ComputeFrom(cm, with_shape)));
    }
    if cm == ComputeMode::Physics && !fit {
        out.push((Key::Flops, Unused::RateFromPhysics));
    } else {
        out.extend([Key::Stack, Key::LargeGemmFraction].map(|k| (k, Unused::NotPhysics)));
    }
    if em != ExposedMode::Table {
        out.push((Key::ExposedTable, Unused::ExposedFrom(em)));
    }
    if !matches!(em, ExposedMode::Step | ExposedMode::Fit) {
        out.push((Key::StepTable, Unused::ExposedFrom(em)));
    }
    if !fit {
        out.push((Key::FitOn, Unused::ExposedFrom(em)));
    }
    if em != ExposedMode::Fsdp {
        out.push((Key::FixedMs, Unused::ExposedFrom(em)));
    }
    if l.schedule != crate::model::step::PipelineSchedule::Interleaved {
        out.push((Key::Chunks, Unused::NotInterleaved));
    }
    out
}

/// What a marked box says.
pub fn unused_text(why: Unused) -> String {
    let reason = match why {
        Unused::SetByMicrobatch => tr(
            "mbs sets A at each GPU count (the table's A column)",
            "A 由 mbs 按卡数决定（见表中 A 列）",
        )
        .to_string(),
        Unused::ComputeFrom(mode, with_shape) => {
            trf!(
                "compute from {}",
                "计算时间取自{}",
                compute_text(mode, with_shape)
            )
        }
        Unused::SetByFit => tr("the fit of st sets it", "由 st 的拟合决定").to_string(),
        Unused::RateFromPhysics => tr(
            "F_eff = r_inf·peak·η (cm=physics)",
            "F_eff = r_inf·峰值·η（cm=physics）",
        )
        .to_string(),
        Unused::NotPhysics => tr("read with cm=physics only", "仅在 cm=physics 时读取").to_string(),
        Unused::ExposedFrom(mode) => {
            trf!("exposed time from {}", "暴露时间取自{}", exposed_text(mode))
        }
        Unused::NotInterleaved => tr(
            "read with the interleaved schedule only",
            "仅用于交错式调度",
        )
        .to_string(),
    };
    trf!("Not used now: {}.", "当前未使用：{}。", reason)
}

/// The keys [`unused_inputs`] can name, with the id of the note under each box
/// (`www/index.html`): every one is written each frame, empty when the input is read.
pub const NOTE_IDS: [(Key, &str); 10] = [
    (Key::Accumulation, "a-unused"),
    (Key::ComputeMs, "tc-unused"),
    (Key::Flops, "feff-unused"),
    (Key::Stack, "stack-unused"),
    (Key::LargeGemmFraction, "rinf-unused"),
    (Key::ExposedTable, "ex-unused"),
    (Key::StepTable, "st-unused"),
    (Key::FitOn, "fp-unused"),
    (Key::FixedMs, "fix-unused"),
    (Key::Chunks, "vc-unused"),
];

/// The notes under the boxes, `(element id, text)`, one per [`NOTE_IDS`] entry.
pub fn unused_notes(l: &LlmSettings) -> Vec<(&'static str, String)> {
    let unused = unused_inputs(l);
    NOTE_IDS
        .iter()
        .map(|&(key, id)| {
            let text = unused
                .iter()
                .find(|(k, _)| *k == key)
                .map_or_else(String::new, |&(_, why)| unused_text(why));
            (id, text)
        })
        .collect()
}
