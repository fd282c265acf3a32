//! `Scenario`: every input of the page, validated, with defaults, presets and the `v=1` URL codec.
//!
//! Data flows one way: text (a number box, a URL, a CLI `--query`) → [`Scenario::set`] →
//! validated `Scenario` → model. The URL is one more serialisation: [`Scenario::to_query`]
//! writes the keys that differ from the base (the preset, or the defaults), and
//! [`decode`] reads any string at all into a usable scenario plus per-key errors.
//! Keys are documented in `docs/url.md`.

use crate::model::measured::{
    format_points, parse_points, MeasuredKind, MeasuredPoint, MAX_PROCESSORS,
};
use crate::model::sweep::LawsInputs;
use crate::model::units::{canonical, clip, parse_fraction, parse_quantity};
use std::fmt;

/// The URL format version this build writes and reads.
pub const URL_VERSION: &str = "1";
/// At most this many comparison fractions (`fs`).
pub const MAX_COMPARE_FRACTIONS: usize = 8;
/// Queries longer than this are cut before decoding, so no link can make the page slow.
pub const MAX_QUERY_BYTES: usize = 16 * 1024;

/// A URL / input key. The names are short and stable: they are the URL format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    /// `f`: serial fraction.
    SerialFraction,
    /// `fs`: comparison serial fractions.
    CompareFractions,
    /// `n`: largest processor count on the axis.
    MaxProcessors,
    /// `g`: Sun–Ni growth exponent.
    GrowthExponent,
    /// `mk`: what measured values are (speedup or time).
    MeasuredKind,
    /// `m`: measured points.
    Measured,
}

impl Key {
    /// Every key in URL order. `mk` precedes `m` so values are read with the right meaning.
    pub const ALL: [Key; 6] = [
        Key::SerialFraction,
        Key::CompareFractions,
        Key::MaxProcessors,
        Key::GrowthExponent,
        Key::MeasuredKind,
        Key::Measured,
    ];

    /// The key as written in the URL.
    pub fn name(self) -> &'static str {
        match self {
            Key::SerialFraction => "f",
            Key::CompareFractions => "fs",
            Key::MaxProcessors => "n",
            Key::GrowthExponent => "g",
            Key::MeasuredKind => "mk",
            Key::Measured => "m",
        }
    }

    /// What a reader calls this input (used in messages).
    pub fn label(self) -> &'static str {
        match self {
            Key::SerialFraction => "Serial fraction f",
            Key::CompareFractions => "Compare f values",
            Key::MaxProcessors => "Processors N (axis maximum)",
            Key::GrowthExponent => "Sun–Ni growth exponent g",
            Key::MeasuredKind => "Measured values are",
            Key::Measured => "Measured points",
        }
    }

    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|k| k.name() == name)
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
        write!(
            f,
            "{} ({}): {}",
            self.key.label(),
            self.key.name(),
            self.reason
        )
    }
}

impl std::error::Error for InputError {}

/// A problem found while reading a URL that is not about one input key.
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
            UrlError::UnknownVersion(v) => write!(
                f,
                "Link version v={}: this page reads v={URL_VERSION}; values were read as v={URL_VERSION}",
                clip(v)
            ),
            UrlError::UnknownPreset(p) => write!(
                f,
                "Preset “{}” does not exist (known: {}); using the defaults",
                clip(p),
                Preset::ALL.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
            ),
            UrlError::TooLong { bytes } => write!(
                f,
                "The link is {bytes} bytes long; only the first {MAX_QUERY_BYTES} were read"
            ),
        }
    }
}

/// Built-in scenarios, named in the URL (`preset=`) and on the CLI (`--preset`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// The teaching default: f = 5% (the seed's 20x ceiling) against 1%, 10%, 25%.
    Classroom,
    /// An illustrative strong-scaling measurement whose Karp–Flatt `e(N)` rises with `N`.
    KarpFlatt,
}

impl Preset {
    pub const ALL: [Preset; 2] = [Preset::Classroom, Preset::KarpFlatt];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Classroom => "classroom",
            Preset::KarpFlatt => "karp-flatt",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            Preset::Classroom => {
                "Amdahl vs Gustafson at f = 5% (ceiling 20x), compared with 1%, 10%, 25%"
            }
            Preset::KarpFlatt => {
                "Illustrative measured run times on 1–64 processors; Karp–Flatt e(N) rises with N"
            }
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// The scenario the preset stands for (its `preset` field set to itself).
    pub fn scenario(self) -> Scenario {
        let mut s = Scenario {
            preset: Some(self),
            ..Scenario::default()
        };
        match self {
            Preset::Classroom => {}
            Preset::KarpFlatt => {
                s.serial_fraction = 0.02;
                s.compare_fractions = vec![];
                s.max_processors = 256;
                s.measured_kind = MeasuredKind::Time;
                s.measured = parse_points("1:1000, 2:515, 4:270, 8:150, 16:92, 32:64, 64:52")
                    .expect("preset points are valid");
            }
        }
        s
    }
}

/// Every input of the page, always valid.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The preset the scenario started from; the URL omits keys equal to it.
    pub preset: Option<Preset>,
    /// `f`, `0 ≤ f ≤ 1`.
    pub serial_fraction: f64,
    /// `fs`, each in `[0, 1]`, at most [`MAX_COMPARE_FRACTIONS`].
    pub compare_fractions: Vec<f64>,
    /// `n`, a whole number in `2 ..= 2^30`.
    pub max_processors: u64,
    /// `g`, `0 ≤ g ≤ 2`.
    pub growth_exponent: f64,
    pub measured_kind: MeasuredKind,
    /// `m`, at most 64 points with increasing `N`.
    pub measured: Vec<MeasuredPoint>,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            preset: None,
            serial_fraction: 0.05,
            compare_fractions: vec![0.01, 0.1, 0.25],
            max_processors: 4096,
            growth_exponent: 0.5,
            measured_kind: MeasuredKind::Time,
            measured: Vec::new(),
        }
    }
}

/// Upper bound of `g`: beyond it the memory-bounded curve is off any useful chart.
pub const MAX_GROWTH_EXPONENT: f64 = 2.0;

fn parse_unit_fraction(text: &str) -> Result<f64, String> {
    let value = parse_fraction(text).map_err(|e| e.to_string())?;
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{} is outside 0 … 1 (write 0.05 or 5%)",
            canonical(value)
        ))
    }
}

impl Scenario {
    /// The canonical text of one input, as written to the URL and shown in its number box.
    pub fn get_text(&self, key: Key) -> String {
        match key {
            Key::SerialFraction => canonical(self.serial_fraction),
            Key::CompareFractions => self
                .compare_fractions
                .iter()
                .map(|&f| canonical(f))
                .collect::<Vec<_>>()
                .join(","),
            Key::MaxProcessors => self.max_processors.to_string(),
            Key::GrowthExponent => canonical(self.growth_exponent),
            Key::MeasuredKind => self.measured_kind.key().to_string(),
            Key::Measured => format_points(&self.measured),
        }
    }

    /// Sets one input from text (a number box, a URL value). On error nothing changes: the
    /// last valid value stays in force and the error says what was wrong.
    pub fn set(&mut self, key: Key, text: &str) -> Result<(), InputError> {
        let fail = |reason: String| InputError {
            key,
            input: text.to_string(),
            reason,
        };
        match key {
            Key::SerialFraction => {
                self.serial_fraction = parse_unit_fraction(text).map_err(fail)?
            }
            Key::CompareFractions => {
                let items: Vec<&str> = text
                    .split([',', ';', ' ', '\n', '\t'])
                    .filter(|s| !s.trim().is_empty())
                    .take(MAX_COMPARE_FRACTIONS + 1)
                    .collect();
                if items.len() > MAX_COMPARE_FRACTIONS {
                    return Err(fail(format!(
                        "at most {MAX_COMPARE_FRACTIONS} values can be compared"
                    )));
                }
                let values = items
                    .iter()
                    .map(|item| parse_unit_fraction(item))
                    .collect::<Result<Vec<f64>, String>>()
                    .map_err(fail)?;
                self.compare_fractions = values;
            }
            Key::MaxProcessors => {
                let value = parse_quantity(text).map_err(|e| fail(e.to_string()))?;
                if value.fract() != 0.0 {
                    return Err(fail(format!(
                        "{} is not a whole number of processors",
                        canonical(value)
                    )));
                }
                if !(2.0..=MAX_PROCESSORS).contains(&value) {
                    return Err(fail(format!(
                        "{} is outside 2 … 2^30 (1,073,741,824)",
                        canonical(value)
                    )));
                }
                self.max_processors = value as u64;
            }
            Key::GrowthExponent => {
                let value = parse_quantity(text).map_err(|e| fail(e.to_string()))?;
                if !(0.0..=MAX_GROWTH_EXPONENT).contains(&value) {
                    return Err(fail(format!(
                        "{} is outside 0 … {MAX_GROWTH_EXPONENT} (0 = Amdahl, 1 = Gustafson)",
                        canonical(value)
                    )));
                }
                self.growth_exponent = value;
            }
            Key::MeasuredKind => {
                self.measured_kind = MeasuredKind::from_key(text).ok_or_else(|| {
                    fail(format!("“{}” is neither “speedup” nor “time”", clip(text)))
                })?;
            }
            Key::Measured => {
                self.measured = parse_points(text).map_err(|e| fail(e.to_string()))?;
            }
        }
        Ok(())
    }

    /// The scenario that the URL's omitted keys fall back to.
    pub fn base(&self) -> Scenario {
        self.preset.map(Preset::scenario).unwrap_or_default()
    }

    /// The `v=1` query string (no leading `?`): the version, the preset, then only the keys
    /// whose value differs from the base.
    pub fn to_query(&self) -> String {
        let base = self.base();
        let mut parts = vec![format!("v={URL_VERSION}")];
        if let Some(p) = self.preset {
            parts.push(format!("preset={}", p.name()));
        }
        for key in Key::ALL {
            let text = self.get_text(key);
            if text != base.get_text(key) {
                parts.push(format!("{}={}", key.name(), escape(&text)));
            }
        }
        parts.join("&")
    }

    /// The Laws panel's model inputs.
    pub fn laws_inputs(&self) -> LawsInputs {
        LawsInputs {
            serial_fraction: self.serial_fraction,
            compare_fractions: self.compare_fractions.clone(),
            max_processors: self.max_processors as f64,
            growth_exponent: self.growth_exponent,
            measured: self.measured.clone(),
            measured_kind: self.measured_kind,
        }
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

/// The result of reading a URL: always a usable scenario, plus what could not be used.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    pub scenario: Scenario,
    pub errors: Vec<UrlError>,
}

/// Reads any string — a query with or without `?`, a whole URL, garbage — into a scenario.
/// Unknown keys are ignored; bad values are reported and replaced by the preset's or the
/// default value; when a key repeats, the last value wins. Never panics.
pub fn decode(input: &str) -> Decoded {
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
    let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
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
    let mut scenario = match last("preset") {
        Some(name) => match Preset::from_name(name) {
            Some(p) => p.scenario(),
            None => {
                errors.push(UrlError::UnknownPreset(name.to_string()));
                Scenario::default()
            }
        },
        None => Scenario::default(),
    };
    for key in Key::ALL {
        if let Some(value) = last(key.name()) {
            if let Err(e) = scenario.set(key, value) {
                errors.push(UrlError::Input(e));
            }
        }
    }
    Decoded { scenario, errors }
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
        assert_eq!(d.scenario.serial_fraction, 0.1);
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
        assert_eq!(d.scenario.measured.len(), 7);
        assert_eq!(d.scenario.to_query(), "v=1&preset=karp-flatt&f=0.03");
    }

    #[test]
    fn a_failed_set_keeps_the_last_valid_value() {
        let mut s = Scenario::default();
        s.set(Key::SerialFraction, "0.2").unwrap();
        assert!(s.set(Key::SerialFraction, "1.5").is_err());
        assert_eq!(s.serial_fraction, 0.2);
        assert!(s.set(Key::SerialFraction, "20%").is_ok());
        assert_eq!(s.serial_fraction, 0.2);
    }
}
