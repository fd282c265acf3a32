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
//! | [`machines`] | the machines' datasheet values (`mach=`) and the GEMM precision (`prec=`) |
//! | `marks` | where each input of a measured preset or a published run comes from (native only) |
//!
//! | module | job |
//! |---|---|
//! | `key` | [`Key`]: every input's URL name, message label and panel |
//! | `parse` | parsers shared by several panels' inputs |
//! | `error` | [`InputError`], [`UrlError`] |
//! | `url` | the `v=1` codec: [`Scenario::to_query`], [`decode`] |
//! | `lower` | the scenario as the model's inputs ([`Scenario::llm_inputs`] and the others) |
//! | [`shapes`], [`import`], [`export`] | published model shapes; other tools' configs in and out |

mod codec;
mod error;
pub mod export;
pub mod import;
mod key;
pub mod laws;
pub mod llm;
mod lower;
pub mod machines;
#[cfg(not(target_arch = "wasm32"))]
pub mod marks;
mod parse;
pub mod plan;
pub mod presets;
pub mod shapes;
mod url;
pub mod walls;

/// The levers a plan may pull, an input of the scenario (`lv=`): the faces list and name them.
pub use crate::model::levers::Lever;
pub use laws::{LawsSettings, MAX_COMPARE_FRACTIONS};
pub use llm::LlmSettings;
pub use plan::PlanSettings;
pub use presets::Preset;

pub use error::{InputError, UrlError};
#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
pub use key::SECTIONS;
pub use key::{
    linear, log, page_zh, pow2, Control, Group, Key, SliderRange, SliderScale, SliderSpec, Spec,
    EXERCISES, SLIDERS,
};
pub use lower::plan_inputs_for;
use parse::parse_quiz;
pub(crate) use parse::{parse_count, parse_in_range, parse_unit_fraction};
use url::pin;
pub use url::{decode, Decoded, MAX_QUERY_BYTES, URL_VERSION};

use crate::model::measured::MAX_PROCESSORS;
use crate::text::units::{
    canonical, clip, format_count, parse_fraction, parse_quantity, quote_number,
};
use std::fmt;

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

impl Scenario {
    /// The canonical text of one input, as written to the URL and shown in its number box.
    pub fn get_text(&self, key: Key) -> String {
        match key {
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
            Key::Pin => return self.pinned.as_ref().map_or(String::new(), |a| a.to_query()),
            _ => {}
        }
        if let Some(text) = key.get_field(self) {
            return text;
        }
        self.laws
            .get_text(key)
            .or_else(|| self.llm.get_text(key))
            .or_else(|| self.plan.get_text(key))
            .unwrap_or_default()
    }

    /// Parses one input without the cross-input rules.
    fn set_unchecked(&mut self, key: Key, text: &str) -> Result<(), InputError> {
        let result = if key == Key::Lang {
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
        } else if matches!(key, Key::Machine | Key::Precision) {
            self.set_hardware(key, text)
        } else if let Some(result) = key.set_field(self, text) {
            result
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

    /// After a reader's import or typing turned `before` into `self`: `P` and `P_a` become the
    /// counts the shape implies when the change completed the shape (a config names no
    /// parameter count; the sequence length typed last completes it) or changed a shape whose
    /// counts `P` and `P_a` were (set by an import, the shapes menu or this rule). A `P` the
    /// reader typed after the shape is kept: it differs from the shape's count. A link is
    /// decoded without this rule, so its `p` stays what it says.
    pub fn follow_shape_params(&mut self, before: &Scenario) {
        let Some(shape) = self.llm.walls.shape() else {
            return;
        };
        let old = before.llm.walls.shape();
        let followed = old.is_some_and(|s| {
            s.total_params() == before.llm.total_params
                && s.active_params() == before.llm.active_params
        });
        if old != Some(shape) && (old.is_none() || followed) {
            self.llm.total_params = shape.total_params();
            self.llm.active_params = shape.active_params();
        }
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
