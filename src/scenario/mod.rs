//! `Scenario`: every input of the page, validated, with defaults, presets and the `v=1` URL codec.
//!
//! Data flows one way: text (a number box, a URL, a CLI `--query`) → [`Scenario::set`] →
//! validated `Scenario` → model. The URL is one more serialisation: [`Scenario::to_query`]
//! writes the keys that differ from the base (the preset, or the defaults), and
//! [`decode`] reads any string at all into a usable scenario plus per-key errors.
//! Keys are documented in `docs/url.md`.
//!
//! | module | inputs |
//! |---|---|
//! | [`laws`] | the Laws panel: `f`, `fs`, `n`, `g`, `mk`, `m` |
//! | [`llm`] | the strong and weak panels: batch, layout, model, hardware, exposed time |
//! | [`plan`] | the Plan panel: critical batch, cap, levers, loss-curve evidence |
//! | [`walls`] | the strong-scaling walls: the model's shape, memory, kernels, traffic |
//! | [`presets`] | built-in scenarios (`preset=`) |

pub mod export;
pub mod import;
pub mod laws;
pub mod llm;
pub mod plan;
pub mod presets;
pub mod shapes;
pub mod walls;

/// The levers a plan may pull, an input of the scenario (`lv=`): the faces list and name them.
pub use crate::model::levers::Lever;
pub use laws::{LawsSettings, MAX_COMPARE_FRACTIONS};
pub use llm::LlmSettings;
pub use plan::PlanSettings;
pub use presets::Preset;

use crate::model::measured::MAX_PROCESSORS;
use crate::text::units::{
    canonical, clip, format_count, parse_fraction, parse_quantity, quote_number,
};
use std::fmt;

/// The URL format version this build writes and reads.
pub const URL_VERSION: &str = "1";
/// Queries longer than this are cut before decoding, so no link can make the page slow.
pub const MAX_QUERY_BYTES: usize = 16 * 1024;

/// Which panel the page shows (`view=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Laws,
    Strong,
    Weak,
    Plan,
    /// The definitions and exercises (`view=learn`): texts loaded when the view opens, live
    /// figures of the other panels' charts.
    Learn,
}

impl View {
    /// In tab order.
    pub const ALL: [View; 5] = [
        View::Laws,
        View::Strong,
        View::Weak,
        View::Plan,
        View::Learn,
    ];
    pub fn key(self) -> &'static str {
        match self {
            View::Laws => "laws",
            View::Strong => "strong",
            View::Weak => "weak",
            View::Plan => "plan",
            View::Learn => "learn",
        }
    }
    pub fn from_key(key: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.key() == key.trim())
    }
}

macro_rules! keys {
    ($( $variant:ident = $name:literal, $label:literal; )*) => {
        /// A URL / input key. The names are short and stable: they are the URL format.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Key { $( $variant, )* }

        impl Key {
            /// Every key in URL order (a mode key precedes the values it gives meaning to).
            pub const ALL: &'static [Key] = &[ $( Key::$variant, )* ];

            /// The key as written in the URL.
            pub fn name(self) -> &'static str {
                match self { $( Key::$variant => $name, )* }
            }

            /// What a reader calls this input (used in messages).
            pub fn label(self) -> &'static str {
                match self { $( Key::$variant => $label, )* }
            }
        }
    };
}

keys! {
    // `embed` first: it also selects its panel, and a later `view` may still override that.
    Embed = "embed", "Embedded panel";
    View = "view", "Panel";
    Lang = "lang", "Language";
    Theme = "theme", "Theme";
    Show = "show", "What an embed shows";
    SerialFraction = "f", "Serial fraction f";
    CompareFractions = "fs", "Compare f values";
    MaxProcessors = "n", "Processors N (axis maximum)";
    GrowthExponent = "g", "Sun–Ni growth exponent g";
    MeasuredKind = "mk", "Measured values are";
    Measured = "m", "Measured points";
    GlobalBatch = "b", "Global batch B_global (tokens)";
    Accumulation = "a", "Gradient accumulation A";
    Microbatch = "mbs", "Microbatch size (sequences; 0 = A fixed)";
    LayoutExplorer = "lx", "Layout explorer at GPUs (0 = off)";
    LayoutSearch = "lay", "Layout at each GPU count";
    Tp = "tp", "Tensor parallel TP";
    Pp = "pp", "Pipeline parallel PP";
    Cp = "cp", "Context parallel CP";
    TotalParams = "p", "Total parameters P";
    ActiveParams = "pa", "Active parameters P_a";
    Flops = "feff", "Achieved FLOP/s per GPU F_eff";
    PeakFlops = "peak", "Peak FLOP/s per GPU (for MFU)";
    Bandwidth = "beff", "Bus bandwidth per GPU B_eff (bytes/s)";
    Gathers = "c", "Parameter transfers per microbatch c";
    WireBytes = "sw", "Bytes per parameter on the wire s_w";
    GradientBytes = "gw", "Gradient bytes per parameter (0 = as s_w)";
    ComputeMode = "cm", "Compute time from";
    Stack = "stack", "Software stack (sets r_inf)";
    LargeGemmFraction = "rinf", "Fraction of peak at large GEMMs r_inf (0 = the stack's)";
    ComputeMs = "tc", "Compute time at the baseline";
    BaselineGpus = "n0", "Baseline GPUs N₀";
    ExposedMode = "em", "Exposed time from";
    ExposedTable = "ex", "Exposed time table";
    StepTable = "st", "Measured step times";
    FitOn = "fp", "GPU counts the fit uses";
    FixedMs = "fix", "Fixed exposed time per step";
    Schedule = "sched", "Pipeline schedule";
    Chunks = "vc", "Interleaved chunks per stage v";
    Layers = "nl", "Layers L";
    Hidden = "hd", "Hidden size h";
    Heads = "nh", "Attention heads a";
    KvHeads = "kvh", "Key/value heads";
    Ffn = "ffn", "Gated MLP size (0 = 4h GELU MLP)";
    SeqLen = "sq", "Sequence length s";
    Vocab = "voc", "Vocabulary V";
    Experts = "ne", "Experts E";
    ExpertsPerToken = "ke", "Experts per token k";
    Ep = "ep", "Expert parallel EP";
    Hbm = "hbm", "GPU memory (bytes)";
    HbmReserve = "hres", "Memory reserved outside the tensors (bytes)";
    Zero = "zero", "ZeRO stage";
    Recompute = "ac", "Activation recomputation";
    RecomputeLayers = "acn", "Layers of each stage recomputed (0 = all)";
    SequenceParallel = "sp", "Sequence parallelism";
    FlashAttention = "fa", "Flash attention";
    OptimizerBytes = "ob", "Optimizer bytes per parameter K";
    KernelsShrink = "ks", "Kernels shrink with the GEMMs";
    HalfTokens = "nhalf", "Half-performance tokens m½";
    HalfHidden = "khalf", "Half-performance hidden k½";
    TpOverlap = "tpo", "Share of TP traffic that overlaps compute";
    CpOverlap = "cpm", "Context-parallel K/V exchange";
    Latency = "lat", "Latency per collective step α";
    NvlinkDomain = "nvd", "GPUs per NVLink domain";
    Gpus = "ns", "GPU counts in the tables";
    TokenBudget = "tb", "Token budget";
    CriticalBatch = "bcrit", "Critical batch B_crit (tokens)";
    BatchCap = "bcap", "Weak-scaling batch cap";
    Levers = "lv", "Levers";
    NvlinkBandwidth = "bnv", "NVLink bus bandwidth";
    LossCurve = "lc", "Loss–token curve available";
    Quiz = "q", "Exercises shown";
    // Last: scenario A's own query, compared with this one (docs/url.md, "Compare").
    Pin = "pin", "Pinned scenario A";
}

/// How many exercises the Learn view has (`q=1,4` picks some; `crate::panel::exercise`).
pub const EXERCISES: u8 = 14;

impl Key {
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Keys of the Laws panel.
    pub fn is_laws(self) -> bool {
        matches!(
            self,
            Key::SerialFraction
                | Key::CompareFractions
                | Key::MaxProcessors
                | Key::GrowthExponent
                | Key::MeasuredKind
                | Key::Measured
        )
    }

    /// Keys of the Plan panel.
    pub fn is_plan(self) -> bool {
        matches!(
            self,
            Key::CriticalBatch
                | Key::BatchCap
                | Key::Levers
                | Key::NvlinkBandwidth
                | Key::LossCurve
        )
    }

    /// Keys of the strong-scaling walls (shape, memory, kernels, traffic): LLM keys that
    /// [`walls::WallSettings`] holds.
    pub fn is_walls(self) -> bool {
        matches!(
            self,
            Key::Layers
                | Key::Hidden
                | Key::Heads
                | Key::KvHeads
                | Key::Ffn
                | Key::SeqLen
                | Key::Vocab
                | Key::Experts
                | Key::ExpertsPerToken
                | Key::Ep
                | Key::Hbm
                | Key::HbmReserve
                | Key::Zero
                | Key::Recompute
                | Key::RecomputeLayers
                | Key::SequenceParallel
                | Key::FlashAttention
                | Key::OptimizerBytes
                | Key::KernelsShrink
                | Key::HalfTokens
                | Key::HalfHidden
                | Key::TpOverlap
                | Key::CpOverlap
                | Key::Latency
                | Key::NvlinkDomain
        )
    }

    /// Keys of how the page looks, not what it computes.
    pub fn is_display(self) -> bool {
        matches!(
            self,
            Key::View | Key::Lang | Key::Theme | Key::Embed | Key::Show
        )
    }

    /// Keys of the LLM panels.
    pub fn is_llm(self) -> bool {
        !self.is_laws() && !self.is_plan() && !self.is_display() && self != Key::Pin
    }
}

/// Why one input was not accepted. The message names the input and the problem.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    pub key: Key,
    /// The text as given (clipped when shown).
    pub input: String,
    pub reason: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // In Chinese, the label the page shows next to the input.
        let label = if crate::i18n::zh() {
            crate::i18n::ui_zh(&format!("label-{}", self.key.name()))
        } else {
            None
        };
        write!(
            f,
            "{} ({}): {}",
            label.unwrap_or(self.key.label()),
            self.key.name(),
            self.reason
        )
    }
}

impl std::error::Error for InputError {}

/// A problem found while reading a URL.
#[derive(Debug, Clone, PartialEq)]
pub enum UrlError {
    Input(InputError),
    /// `v=` names a format this build does not know.
    UnknownVersion(String),
    /// `preset=` names no built-in scenario.
    UnknownPreset(String),
    /// The query was longer than [`MAX_QUERY_BYTES`] and was cut.
    TooLong {
        bytes: usize,
    },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Input(e) => write!(f, "{e}"),
            UrlError::UnknownVersion(v) => f.write_str(&trf!(
                "Link version “{0}”: this page reads v={1}; values were read as v={1}",
                "链接版本 “{0}”：本页读取 v={1}；各值已按 v={1} 读取",
                clip(v),
                URL_VERSION
            )),
            UrlError::UnknownPreset(p) => f.write_str(&trf!(
                "Preset “{}” does not exist (known: {}); using the defaults",
                "预设 “{}” 不存在（已有：{}）；改用默认值",
                clip(p),
                Preset::ALL
                    .iter()
                    .map(|p| p.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            UrlError::TooLong { bytes } => f.write_str(&trf!(
                "The link is {} bytes long; only the first {} were read",
                "链接长 {} 字节；只读取了前 {} 字节",
                bytes,
                MAX_QUERY_BYTES
            )),
        }
    }
}

/// A colour theme (`theme=`); without one the page follows `prefers-color-scheme`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeChoice {
    Light,
    Dark,
}

/// Every input of the page, always valid.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The preset the scenario started from; the URL omits keys equal to it.
    pub preset: Option<Preset>,
    pub view: View,
    /// `lang=`; `None` follows the browser's language.
    pub lang: Option<crate::i18n::Lang>,
    /// `theme=`; `None` follows `prefers-color-scheme`.
    pub theme: Option<ThemeChoice>,
    /// `embed=<panel>`: show only that panel with minimal chrome (for an iframe).
    pub embed: Option<View>,
    /// `show=charts`: an embed shows its charts only (for an article that wants the figure).
    pub charts_only: bool,
    /// `q=`: the exercises the Learn view shows (numbers `1 ..= EXERCISES`, as a teacher
    /// linked them); empty: the whole view.
    pub quiz: Vec<u8>,
    pub laws: LawsSettings,
    pub llm: LlmSettings,
    pub plan: PlanSettings,
    /// `pin=`: scenario A, drawn and tabulated next to this one (B). Its display keys are
    /// unset and it has no pin of its own ([`Scenario::as_pinned`]).
    pub pinned: Option<Box<Scenario>>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            preset: None,
            view: View::Laws,
            lang: None,
            theme: None,
            embed: None,
            charts_only: false,
            quiz: Vec::new(),
            laws: LawsSettings::default(),
            llm: LlmSettings::default(),
            plan: PlanSettings::default(),
            pinned: None,
        }
    }
}

/// `0 ≤ f ≤ 1`, written `0.05` or `5%`.
pub(crate) fn parse_unit_fraction(text: &str) -> Result<f64, String> {
    let value = parse_fraction(text).map_err(|e| e.to_string())?;
    if value > 0.0 && value < 1e-12 {
        // 1/f must stay finite (the ceiling); nothing this small is a measurable serial part.
        Err(trf!(
            "{} is below 1e-12; write 0 for no serial part",
            "{} 小于 1e-12；没有串行部分请写 0",
            quote_number(value)
        ))
    } else if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(trf!(
            "{} is outside 0 … 1 (write 0.05 or 5%)",
            "{} 超出 0 … 1 的范围（写 0.05 或 5%）",
            quote_number(value)
        ))
    }
}

/// A whole number of processors (or a parallel degree) in `min ..= 2^30`.
pub(crate) fn parse_count(text: &str, min: f64) -> Result<f64, String> {
    let value = parse_quantity(text).map_err(|e| e.to_string())?;
    if value.fract() != 0.0 {
        return Err(trf!(
            "{} is not a whole number",
            "{} 不是整数",
            quote_number(value)
        ));
    }
    if !(min..=MAX_PROCESSORS).contains(&value) {
        return Err(trf!(
            "{} is outside {} … 2^30 (1,073,741,824)",
            "{} 超出 {} … 2^30（1,073,741,824）的范围",
            quote_number(value),
            format_count(min)
        ));
    }
    Ok(value)
}

/// `q=`: exercise numbers, e.g. `3` or `1,4,7` (each once, in the teacher's order).
fn parse_quiz(text: &str) -> Result<Vec<u8>, String> {
    let mut numbers = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<u8>() {
            Ok(n) if (1..=EXERCISES).contains(&n) => {
                if !numbers.contains(&n) {
                    numbers.push(n);
                }
            }
            _ => {
                return Err(trf!(
                    "“{}” is not an exercise number 1 … {}",
                    "“{}” 不是练习编号 1 … {}",
                    clip(part),
                    EXERCISES
                ))
            }
        }
    }
    Ok(numbers)
}

/// A number in `lo ..= hi`; `hint` explains the range in the message: a note in parentheses,
/// or else the unit of the bounds (which Chinese writes before 的范围).
pub(crate) fn parse_in_range(text: &str, lo: f64, hi: f64, hint: &str) -> Result<f64, String> {
    let value = parse_quantity(text).map_err(|e| e.to_string())?;
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        let (unit, note) = if hint.starts_with(['(', '（']) {
            ("", hint)
        } else {
            (hint, "")
        };
        Err(trf!(
            "{} is outside {} … {} {}{}",
            "{} 超出 {} … {} {}的范围{}",
            quote_number(value),
            canonical(lo),
            canonical(hi),
            unit,
            note
        )
        .trim_end()
        .to_string())
    }
}

impl Scenario {
    /// The canonical text of one input, as written to the URL and shown in its number box.
    pub fn get_text(&self, key: Key) -> String {
        match key {
            Key::View => return self.view.key().to_string(),
            Key::Lang => return self.lang.map_or("", |l| l.key()).to_string(),
            Key::Theme => {
                return match self.theme {
                    None => "",
                    Some(ThemeChoice::Light) => "light",
                    Some(ThemeChoice::Dark) => "dark",
                }
                .to_string()
            }
            Key::Embed => return self.embed.map_or("", |v| v.key()).to_string(),
            Key::Show => return if self.charts_only { "charts" } else { "" }.to_string(),
            Key::Quiz => {
                let numbers: Vec<String> = self.quiz.iter().map(|n| n.to_string()).collect();
                return numbers.join(",");
            }
            Key::Pin => return self.pinned.as_ref().map_or(String::new(), |a| a.to_query()),
            _ => {}
        }
        self.laws
            .get_text(key)
            .or_else(|| self.llm.get_text(key))
            .or_else(|| self.plan.get_text(key))
            .unwrap_or_default()
    }

    /// Parses one input without the cross-input rules.
    fn set_unchecked(&mut self, key: Key, text: &str) -> Result<(), InputError> {
        let result = if key == Key::View {
            View::from_key(text).map(|v| self.view = v).ok_or_else(|| {
                trf!(
                    "“{}” is not one of laws, strong, weak, plan, learn",
                    "“{}” 不是 laws、strong、weak、plan、learn 之一",
                    clip(text)
                )
            })
        } else if key == Key::Lang {
            if text.trim().is_empty() {
                self.lang = None;
                Ok(())
            } else {
                crate::i18n::Lang::from_key(text)
                    .map(|l| self.lang = Some(l))
                    .ok_or_else(|| {
                        trf!(
                            "“{}” is neither en nor zh",
                            "“{}” 既不是 en 也不是 zh",
                            clip(text)
                        )
                    })
            }
        } else if key == Key::Theme {
            let theme = match text.trim() {
                "" => Ok(None),
                "light" => Ok(Some(ThemeChoice::Light)),
                "dark" => Ok(Some(ThemeChoice::Dark)),
                other => Err(trf!(
                    "“{}” is neither light nor dark",
                    "“{}” 既不是 light 也不是 dark",
                    clip(other)
                )),
            };
            theme.map(|t| self.theme = t)
        } else if key == Key::Show {
            match text.trim() {
                "" => Ok(false),
                "charts" => Ok(true),
                other => Err(trf!(
                    "“{}” is not charts (or empty: everything)",
                    "“{}” 不是 charts（留空则显示全部）",
                    clip(other)
                )),
            }
            .map(|c| self.charts_only = c)
        } else if key == Key::Quiz {
            parse_quiz(text).map(|q| self.quiz = q)
        } else if key == Key::Embed {
            if text.trim().is_empty() {
                self.embed = None;
                Ok(())
            } else {
                View::from_key(text)
                    .map(|v| {
                        self.embed = Some(v);
                        self.view = v;
                    })
                    .ok_or_else(|| {
                        trf!(
                            "“{}” is not one of laws, strong, weak, plan, learn",
                            "“{}” 不是 laws、strong、weak、plan、learn 之一",
                            clip(text)
                        )
                    })
            }
        } else if key == Key::Pin {
            pin(text).and_then(|(a, errors)| match errors.first() {
                Some(e) => Err(e.to_string()),
                None => {
                    self.pinned = a;
                    Ok(())
                }
            })
        } else if key.is_laws() {
            self.laws.set(key, text).unwrap_or(Ok(()))
        } else if key.is_plan() {
            self.plan.set(key, text).unwrap_or(Ok(()))
        } else {
            self.llm.set(key, text).unwrap_or(Ok(()))
        };
        result.map_err(|reason| InputError {
            key,
            input: text.to_string(),
            reason,
        })
    }

    /// Sets one input from text (a number box, a URL value). On error nothing changes: the
    /// last valid value stays in force and the error says what was wrong — including a value
    /// that is fine alone but breaks a rule with another input (e.g. `P_a > P`).
    pub fn set(&mut self, key: Key, text: &str) -> Result<(), InputError> {
        let before = self.clone();
        self.set_unchecked(key, text)?;
        if let Some((_, reason)) = self.check().into_iter().next() {
            *self = before;
            return Err(InputError {
                key,
                input: text.to_string(),
                reason,
            });
        }
        Ok(())
    }

    /// The scenario with several inputs set at once, the rules checked only after the last
    /// (a layout's `tp` and `pp` may each break a rule alone that they keep together): `None`
    /// if a value is refused or the result breaks a rule.
    pub fn with_values(&self, values: &[(Key, String)]) -> Option<Scenario> {
        let mut next = self.clone();
        for (key, text) in values {
            next.set_unchecked(*key, text).ok()?;
        }
        next.check().is_empty().then_some(next)
    }

    /// Cross-input rules of the whole scenario; each violation names the inputs involved.
    pub fn check(&self) -> Vec<(Vec<Key>, String)> {
        let mut out = self.llm.check();
        if out.is_empty() {
            let largest = self
                .llm
                .gpus
                .iter()
                .copied()
                .fold(self.llm.baseline_gpus, f64::max);
            let min_batch = self.llm.min_batch(largest);
            if self.plan.cap() < min_batch {
                out.push((
                    vec![
                        Key::BatchCap,
                        Key::CriticalBatch,
                        Key::Gpus,
                        Key::BaselineGpus,
                        Key::Accumulation,
                        Key::Tp,
                        Key::Pp,
                        Key::Cp,
                    ],
                    trf!(
                        "the weak-scaling cap (bcap, or B_crit when unset) of {} tokens is less than one token per DP rank per microbatch at {} GPUs",
                        "弱扩展上限（bcap，未设时为 B_crit）{} tokens 在 {} 卡时每个 DP rank 每个 microbatch 不足一个 token",
                        crate::text::units::format_si(self.plan.cap(), 3),
                        format_count(largest)
                    ),
                ));
            }
        }
        out
    }

    /// The scenario that the URL's omitted keys fall back to.
    pub fn base(&self) -> Scenario {
        self.preset.map(Preset::scenario).unwrap_or_default()
    }

    /// This scenario as a pinned scenario A: no display keys (they come from the outer link),
    /// the base's panel, no pin of its own — what `pin=` reads back.
    pub fn as_pinned(&self) -> Scenario {
        let mut a = self.clone();
        a.view = a.base().view;
        (a.lang, a.theme, a.embed, a.charts_only, a.pinned) = (None, None, None, false, None);
        a
    }

    /// The standalone link ("Copy link"): the query without `embed`, so whoever opens it gets
    /// the whole page.
    pub fn standalone_query(&self) -> String {
        let mut s = self.clone();
        s.embed = None;
        s.charts_only = false;
        s.to_query()
    }

    /// The `v=1` query string (no leading `?`): the version, the preset, then only the keys
    /// whose value differs from the base.
    pub fn to_query(&self) -> String {
        let base = self.base();
        let mut parts = vec![format!("v={URL_VERSION}")];
        if let Some(p) = self.preset {
            parts.push(format!("preset={}", p.name()));
        }
        for &key in Key::ALL {
            let text = self.get_text(key);
            // `embed=` also selects its panel when read back, so `view` is written whenever it
            // differs from that panel rather than from the base's.
            let implied = match (key, self.embed) {
                (Key::View, Some(panel)) => panel.key().to_string(),
                _ => base.get_text(key),
            };
            if text != implied {
                parts.push(format!("{}={}", key.name(), escape(&text)));
            }
        }
        parts.join("&")
    }

    /// The Laws panel's model inputs.
    pub fn laws_inputs(&self) -> crate::model::sweep::LawsInputs {
        self.laws.inputs()
    }

    /// The LLM panels' model inputs, with the levers that are switched on applied.
    pub fn llm_inputs(&self) -> crate::model::llm::LlmInputs {
        let mut inputs = self.llm.inputs(self.plan.nvlink_bytes_per_s);
        crate::model::levers::Lever::apply_all(
            &self.plan.levers,
            &mut inputs,
            self.plan.nvlink_bytes_per_s,
        );
        inputs
    }

    /// The LLM inputs as typed, without levers (the baseline the lever table compares with).
    pub fn llm_inputs_without_levers(&self) -> crate::model::llm::LlmInputs {
        self.llm.inputs(self.plan.nvlink_bytes_per_s)
    }

    /// The planner's inputs.
    pub fn plan_inputs(&self) -> crate::model::plan::PlanInputs {
        plan_inputs_for(self.llm_inputs(), &self.plan, &self.llm)
    }
}

/// Planner inputs for given (possibly lever-modified) LLM inputs: the run needs `tb` tokens at
/// the baseline batch `b` (see [`crate::model::batch::CriticalBatch::from_reference`]).
pub fn plan_inputs_for(
    llm: crate::model::llm::LlmInputs,
    plan: &PlanSettings,
    settings: &LlmSettings,
) -> crate::model::plan::PlanInputs {
    crate::model::plan::PlanInputs {
        critical: crate::model::batch::CriticalBatch::from_reference(
            plan.critical_batch_tokens,
            settings.token_budget,
            settings.global_batch_tokens,
        ),
        batch_cap_tokens: plan.cap(),
        llm,
    }
}

/// Percent-encodes a value for the query, leaving `,` and `:` readable (RFC 3986 allows them
/// in a query), so `m=1:100,2:52` stays legible in a chat message.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b',' | b':' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Decodes `application/x-www-form-urlencoded` text: `+` is a space, `%XX` a byte; bytes that
/// are not UTF-8 become U+FFFD; a `%` without two hex digits stays as it is. (Written out
/// rather than a dependency: it is a dozen lines and the page's size budget is tight.)
fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The result of reading a URL: always a usable scenario, plus what could not be used.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    pub scenario: Scenario,
    pub errors: Vec<UrlError>,
}

/// Reads any string — a query with or without `?`, a whole URL, garbage — into a scenario.
/// Unknown keys are ignored; bad values are reported and replaced by the preset's or the
/// default value; when a key repeats, the last value wins. Values that break a rule together
/// (`pa` above `p`, a batch too small for the GPU counts) are reported on the link's keys
/// involved, which fall back to the base. Never panics.
pub fn decode(input: &str) -> Decoded {
    decode_at(input, true)
}

/// A `pin=` value: scenario A and the problems inside it, each named `pin` (and the inner
/// key); empty is no pin; text that is not a query at all is refused.
fn pin(text: &str) -> Result<(Option<Box<Scenario>>, Vec<UrlError>), String> {
    if text.trim().is_empty() {
        return Ok((None, Vec::new()));
    }
    if !text.contains('=') {
        return Err(trf!(
            "“{}” is not a link’s query (v=1&…)",
            "“{}” 不是链接的查询串（v=1&…）",
            clip(text)
        ));
    }
    let d = decode_at(text, false);
    let errors = d
        .errors
        .iter()
        .map(|e| {
            UrlError::Input(InputError {
                key: Key::Pin,
                input: text.to_string(),
                reason: e.to_string(),
            })
        })
        .collect();
    Ok((Some(Box::new(d.scenario.as_pinned())), errors))
}

/// [`decode`]; `outer` is false inside `pin=`, where the display keys and `pin` are ignored.
fn decode_at(input: &str, outer: bool) -> Decoded {
    let mut errors = Vec::new();
    let mut query = match input.find('?') {
        Some(i) => &input[i + 1..],
        None => input,
    };
    if let Some(i) = query.find('#') {
        query = &query[..i];
    }
    if query.len() > MAX_QUERY_BYTES {
        errors.push(UrlError::TooLong { bytes: query.len() });
        let mut cut = MAX_QUERY_BYTES;
        while !query.is_char_boundary(cut) {
            cut -= 1;
        }
        query = &query[..cut];
    }
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (unescape(k), unescape(v))
        })
        .collect();
    let last = |name: &str| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    if let Some(v) = last("v") {
        if v.trim() != URL_VERSION {
            errors.push(UrlError::UnknownVersion(v.to_string()));
        }
    }
    let base = match last("preset") {
        Some(name) => match Preset::from_name(name) {
            Some(p) => p.scenario(),
            None => {
                errors.push(UrlError::UnknownPreset(name.to_string()));
                Scenario::default()
            }
        },
        None => Scenario::default(),
    };
    let mut scenario = base.clone();
    let mut from_link: Vec<(Key, String)> = Vec::new();
    for &key in Key::ALL {
        if !outer && (key.is_display() || key == Key::Pin) {
            continue;
        }
        if let Some(value) = last(key.name()) {
            if key == Key::Pin {
                match pin(value) {
                    Ok((a, e)) => {
                        scenario.pinned = a;
                        errors.extend(e);
                    }
                    Err(reason) => errors.push(UrlError::Input(InputError {
                        key,
                        input: value.to_string(),
                        reason,
                    })),
                }
                continue;
            }
            match scenario.set_unchecked(key, value) {
                Ok(()) => from_link.push((key, value.to_string())),
                Err(e) => errors.push(UrlError::Input(e)),
            }
        }
    }
    // Cross-input rules: revert the link's keys involved in each broken rule to the base.
    // Each pass reverts at least one key, so this ends; the base itself is always valid.
    loop {
        let violations = scenario.check();
        let Some((involved, reason)) = violations.into_iter().next() else {
            break;
        };
        let culprits: Vec<(Key, String)> = from_link
            .iter()
            .filter(|(k, _)| involved.contains(k))
            .cloned()
            .collect();
        if culprits.is_empty() {
            scenario.llm = base.llm.clone();
            scenario.plan = base.plan.clone();
            break;
        }
        // Revert one key per pass (the link's last one involved) to keep as much as possible.
        if let Some((key, value)) = culprits.last() {
            let _ = scenario.set_unchecked(*key, &base.get_text(*key));
            from_link.retain(|(k, _)| k != key);
            errors.push(UrlError::Input(InputError {
                key: *key,
                input: value.clone(),
                reason,
            }));
        }
    }
    Decoded { scenario, errors }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescape_is_form_decoding() {
        assert_eq!(unescape("a+b%20c%2C%E4%B8%AD"), "a b c,中");
        assert_eq!(unescape("100%"), "100%");
        assert_eq!(unescape("%zz%4"), "%zz%4");
        assert_eq!(unescape("%FF"), "\u{fffd}");
    }

    #[test]
    fn defaults_encode_to_just_the_version() {
        assert_eq!(Scenario::default().to_query(), "v=1");
        assert_eq!(decode("v=1").scenario, Scenario::default());
        assert_eq!(decode("").scenario, Scenario::default());
    }

    #[test]
    fn keys_round_trip() {
        let d = decode("?v=1&f=0.1&fs=0.02,0.3&n=65536&g=1&m=1:100,4:30");
        assert!(d.errors.is_empty(), "{:?}", d.errors);
        assert_eq!(d.scenario.laws.serial_fraction, 0.1);
        assert_eq!(
            d.scenario.to_query(),
            "v=1&f=0.1&fs=0.02,0.3&n=65536&g=1&m=1:100,4:30"
        );
        assert_eq!(decode(&d.scenario.to_query()).scenario, d.scenario);
    }

    #[test]
    fn bad_values_fall_back_and_are_named() {
        let d = decode("v=1&f=abc&n=1&zz=3");
        assert_eq!(d.scenario, Scenario::default());
        assert_eq!(d.errors.len(), 2);
        let text = d.errors[0].to_string();
        assert!(text.contains("Serial fraction f"), "{text}");
        assert!(text.contains("abc"), "{text}");
    }

    #[test]
    fn presets_are_the_base_of_the_url() {
        let d = decode("v=1&preset=karp-flatt&f=0.03");
        assert!(d.errors.is_empty());
        assert_eq!(d.scenario.laws.measured.len(), 7);
        assert_eq!(d.scenario.to_query(), "v=1&preset=karp-flatt&f=0.03");
    }

    #[test]
    fn a_failed_set_keeps_the_last_valid_value() {
        let mut s = Scenario::default();
        s.set(Key::SerialFraction, "0.2").unwrap();
        assert!(s.set(Key::SerialFraction, "1.5").is_err());
        assert_eq!(s.laws.serial_fraction, 0.2);
        assert!(s.set(Key::SerialFraction, "20%").is_ok());
        assert_eq!(s.laws.serial_fraction, 0.2);
    }
}
