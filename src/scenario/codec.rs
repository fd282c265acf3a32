//! How a key's text becomes the value of its field and back: one codec per kind of value,
//! named in the key's row of the `keys!` table (`field(llm.walls.ep; Whole::at_most(1, 65_536))`).
//! The table writes the key's parse and write arms from it, so a field and its range are
//! stated once; a key whose value is more than one field (a machine, a preset, a mode that
//! resets others) keeps an arm of its own.
//!
//! Every parse refuses with a message that quotes what was read and says what would be
//! accepted; nothing is changed on a refusal (the caller assigns only an `Ok`).

use super::llm::{ComputeMode, ExposedMode};
use super::parse_count;
use crate::i18n::tr;
use crate::text::units::{
    canonical, canonical_si, clip, format_count, parse_duration_ms, parse_quantity, quote_number,
    GIB_BYTES,
};

/// A value's text in a link and a box, both ways.
pub(crate) trait Codec: Copy {
    type Value;
    fn parse(self, text: &str) -> Result<Self::Value, String>;
    fn write(self, value: &Self::Value) -> String;
}

/// A size of the model's shape (`nl`, `hd`, `voc`, …): a whole number up to 2^30, `0` when not
/// given.
#[derive(Clone, Copy)]
pub(crate) struct Size;

impl Codec for Size {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        parse_count(text, 0.0)
    }
    fn write(self, value: &f64) -> String {
        canonical(*value)
    }
}

/// A whole count from `min` up to 2^30, held as a float (experts, experts per token).
#[derive(Clone, Copy)]
pub(crate) struct Count(pub f64);

impl Codec for Count {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        parse_count(text, self.0)
    }
    fn write(self, value: &f64) -> String {
        canonical(*value)
    }
}

/// A whole number from `min` up to `max` (at most 2^30), held as `u32`; `note` ends the
/// message of a value above `max`, as markup-free text in parentheses, or is empty.
#[derive(Clone, Copy)]
pub(crate) struct Whole {
    pub min: f64,
    pub max: f64,
    pub note: &'static str,
}

impl Whole {
    /// `min ..= 2^30`, the range of a processor count.
    pub const fn from(min: u32) -> Whole {
        Whole {
            min: min as f64,
            max: super::MAX_PROCESSORS,
            note: "",
        }
    }

    /// `min ..= max`.
    pub const fn at_most(min: u32, max: u32) -> Whole {
        Whole {
            min: min as f64,
            max: max as f64,
            note: "",
        }
    }

    /// With `note` (already translated, `tr(…)`) after the message of a value above `max`.
    pub const fn noting(self, note: &'static str) -> Whole {
        Whole { note, ..self }
    }
}

impl Codec for Whole {
    type Value = u32;
    fn parse(self, text: &str) -> Result<u32, String> {
        let v = parse_count(text, self.min)?;
        if v > self.max {
            let note = if self.note.is_empty() || crate::i18n::zh() {
                self.note.to_string()
            } else {
                format!(" {}", self.note)
            };
            return Err(trf!(
                "{} is above {}{}",
                "{} 大于 {}{}",
                format_count(v),
                format_count(self.max),
                note
            ));
        }
        Ok(v as u32)
    }
    fn write(self, value: &u32) -> String {
        value.to_string()
    }
}

/// An on/off input: `1`, `yes`, `true` or `0`, `no`, `false`, empty.
#[derive(Clone, Copy)]
pub(crate) struct Flag;

impl Codec for Flag {
    type Value = bool;
    fn parse(self, text: &str) -> Result<bool, String> {
        match text.trim() {
            "1" | "yes" | "true" => Ok(true),
            "0" | "no" | "false" | "" => Ok(false),
            other => Err(trf!(
                "“{}” is neither 1 nor 0",
                "“{}” 既不是 1 也不是 0",
                clip(other)
            )),
        }
    }
    fn write(self, value: &bool) -> String {
        if *value { "1" } else { "0" }.to_string()
    }
}

/// A number in `lo ..= hi` ([`super::parse_in_range`]); `hint` (already translated) explains
/// the range: a note in parentheses, or the unit of the bounds.
#[derive(Clone, Copy)]
pub(crate) struct Range {
    pub lo: f64,
    pub hi: f64,
    pub hint: &'static str,
}

impl Codec for Range {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        super::parse_in_range(text, self.lo, self.hi, self.hint)
    }
    fn write(self, value: &f64) -> String {
        canonical(*value)
    }
}

/// A share `0 … 1` that also reads `yes`/`true` as 1 and `no`/`false`/empty as 0.
#[derive(Clone, Copy)]
pub(crate) struct Share {
    pub hint: &'static str,
}

impl Codec for Share {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        match text.trim() {
            "yes" | "true" => Ok(1.0),
            "no" | "false" | "" => Ok(0.0),
            _ => super::parse_in_range(text, 0.0, 1.0, self.hint),
        }
    }
    fn write(self, value: &f64) -> String {
        canonical(*value)
    }
}

/// Bytes in `lo ..= hi` (`80Gi`, `141G`), written back in GiB or MiB when whole in them;
/// `example` (already translated) ends the message of a value outside.
#[derive(Clone, Copy)]
pub(crate) struct Bytes {
    pub lo: f64,
    pub hi: f64,
    pub example: &'static str,
    /// Rounded to whole bytes, so that the link writes back what it read.
    pub whole: bool,
}

impl Codec for Bytes {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        let v = parse_quantity(text).map_err(|e| e.to_string())?;
        if !(self.lo..=self.hi).contains(&v) {
            return Err(trf!(
                "{} bytes is outside {} … {} {}",
                "{} 字节超出 {} … {} 的范围{}",
                quote_number(v),
                canonical_si(self.lo),
                canonical_si(self.hi),
                self.example
            ));
        }
        Ok(if self.whole { v.round() } else { v })
    }
    fn write(self, value: &f64) -> String {
        gib_or_si(*value)
    }
}

/// Bytes as `…Gi` when a whole number of quarter GiB, `…Mi` when a whole number of MiB
/// (what a GPU reports: H100's 81,559 MiB is `81559Mi`, not `85.520809984G`), in decimal SI
/// otherwise.
pub(crate) fn gib_or_si(bytes: f64) -> String {
    let gib = bytes / GIB_BYTES;
    let mib = gib * 1024.0;
    if bytes == 0.0 {
        "0".to_string()
    } else if (gib * 4.0).fract() == 0.0 {
        format!("{gib}Gi")
    } else if mib.fract() == 0.0 && mib < 1e9 {
        format!("{mib}Mi")
    } else {
        canonical_si(bytes)
    }
}

/// A duration in ms from `0` to `max_ms` (`5us`, `2ms`), whose message names the bound as
/// `max` and ends with `example` (already translated).
#[derive(Clone, Copy)]
pub(crate) struct Duration {
    pub max_ms: f64,
    pub max: &'static str,
    pub example: &'static str,
}

impl Codec for Duration {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        let v = parse_duration_ms(text).map_err(|e| e.to_string())?;
        if !(0.0..=self.max_ms).contains(&v) {
            return Err(trf!(
                "{} ms is outside 0 … {} {}",
                "{} ms 超出 0 … {} 的范围{}",
                quote_number(v),
                self.max,
                self.example
            ));
        }
        Ok(v)
    }
    fn write(self, value: &f64) -> String {
        canonical(*value)
    }
}

/// A value named by its key (`ring`, `selective`): the enum's own names, listed in the
/// message of a name it does not know.
pub(crate) trait Named: Copy + 'static {
    const ALL: &'static [Self];
    fn key(self) -> &'static str;
    /// The value `name` (trimmed) stands for: its own key, or an alias or empty text the type
    /// accepts.
    fn named(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.key() == name)
    }
    /// What empty text stands for, if anything.
    const EMPTY: Option<Self> = None;
}

/// The codec of a [`Named`] enum.
#[derive(Clone, Copy)]
pub(crate) struct Choice<T>(std::marker::PhantomData<T>);

impl<T> Choice<T> {
    pub const fn new() -> Choice<T> {
        Choice(std::marker::PhantomData)
    }
}

impl<T: Named> Codec for Choice<T> {
    type Value = T;
    fn parse(self, text: &str) -> Result<T, String> {
        let name = text.trim();
        if let (true, Some(empty)) = (name.is_empty(), T::EMPTY) {
            return Ok(empty);
        }
        T::named(name).ok_or_else(|| {
            let names: Vec<&str> = T::ALL.iter().map(|v| v.key()).collect();
            trf!(
                "“{}” is not one of {}",
                "“{}” 不是 {} 之一",
                clip(text),
                names.join(tr(", ", "、"))
            )
        })
    }
    fn write(self, value: &T) -> String {
        value.key().to_string()
    }
}

impl Named for crate::model::memory::Recompute {
    const ALL: &'static [Self] = &[Self::None, Self::Selective, Self::Full];
    fn key(self) -> &'static str {
        crate::model::memory::Recompute::key(self)
    }
}

impl Named for crate::model::walls::CpOverlap {
    const ALL: &'static [Self] = &[Self::Ring, Self::AllGather];
    fn key(self) -> &'static str {
        crate::model::walls::CpOverlap::key(self)
    }
}

impl Named for crate::model::step::PipelineSchedule {
    const ALL: &'static [Self] = &[Self::OneFOneB, Self::Interleaved, Self::ZeroBubble];
    fn key(self) -> &'static str {
        crate::model::step::PipelineSchedule::key(self)
    }
    /// `zb` too.
    fn named(name: &str) -> Option<Self> {
        Self::from_key(name)
    }
}

impl Named for crate::model::stack::Stack {
    const ALL: &'static [Self] = &crate::model::stack::Stack::ALL;
    fn key(self) -> &'static str {
        crate::model::stack::Stack::key(self)
    }
}

/// A parallel degree or a count of microbatches: a whole number `1 … 65,536`, or `0` (also
/// empty) when `zero` is allowed.
#[derive(Clone, Copy)]
pub(crate) struct Degree {
    pub zero: bool,
}

impl Codec for Degree {
    type Value = u32;
    fn parse(self, text: &str) -> Result<u32, String> {
        match text.trim() {
            "0" | "" if self.zero => Ok(0),
            other => super::parse::parse_degree(other),
        }
    }
    fn write(self, value: &u32) -> String {
        value.to_string()
    }
}

/// An input of two named states (`lay=fixed` or `best`), the first also written empty.
#[derive(Clone, Copy)]
pub(crate) struct Toggle {
    pub off: &'static str,
    pub on: &'static str,
}

impl Codec for Toggle {
    type Value = bool;
    fn parse(self, text: &str) -> Result<bool, String> {
        match text.trim() {
            t if t == self.on => Ok(true),
            t if t == self.off || t.is_empty() => Ok(false),
            other => Err(trf!(
                "“{}” is neither {} nor {}",
                "“{}” 既不是 {} 也不是 {}",
                clip(other),
                self.off,
                self.on
            )),
        }
    }
    fn write(self, value: &bool) -> String {
        if *value { self.on } else { self.off }.to_string()
    }
}

/// A positive quantity in `min ..= max`, written back in SI (`989T`, `50G`); as a parameter
/// count (`8B`) when `params`.
#[derive(Clone, Copy)]
pub(crate) struct Si {
    pub min: f64,
    pub max: f64,
    pub params: bool,
}

impl Codec for Si {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        super::parse::parse_positive(text, self.min, self.max)
    }
    fn write(self, value: &f64) -> String {
        if self.params {
            crate::text::units::canonical_params(*value)
        } else {
            canonical_si(*value)
        }
    }
}

impl Named for ComputeMode {
    const ALL: &'static [Self] = &[
        ComputeMode::Auto,
        ComputeMode::Time,
        ComputeMode::Flops,
        ComputeMode::Physics,
    ];
    fn key(self) -> &'static str {
        match self {
            ComputeMode::Auto => "auto",
            ComputeMode::Time => "time",
            ComputeMode::Flops => "flops",
            ComputeMode::Physics => "physics",
        }
    }
    const EMPTY: Option<Self> = Some(ComputeMode::Auto);
}

impl Named for ExposedMode {
    const ALL: &'static [Self] = &[
        ExposedMode::Auto,
        ExposedMode::Table,
        ExposedMode::Step,
        ExposedMode::Fsdp,
        ExposedMode::Fit,
    ];
    fn key(self) -> &'static str {
        match self {
            ExposedMode::Auto => "auto",
            ExposedMode::Table => "table",
            ExposedMode::Step => "step",
            ExposedMode::Fsdp => "fsdp",
            ExposedMode::Fit => "fit",
        }
    }
    const EMPTY: Option<Self> = Some(ExposedMode::Auto);
}

/// A serial fraction `0 … 1` (`0.05`, `5%`), [`super::parse_unit_fraction`].
#[derive(Clone, Copy)]
pub(crate) struct Fraction;

impl Codec for Fraction {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        super::parse_unit_fraction(text)
    }
    fn write(self, value: &f64) -> String {
        canonical(*value)
    }
}

/// Up to `max` fractions, each as [`Fraction`] reads it, separated by commas, semicolons or
/// spaces; empty for none.
#[derive(Clone, Copy)]
pub(crate) struct Fractions {
    pub max: usize,
}

impl Codec for Fractions {
    type Value = Vec<f64>;
    fn parse(self, text: &str) -> Result<Vec<f64>, String> {
        let items: Vec<&str> = text
            .split([',', ';', ' ', '\n', '\t'])
            .filter(|s| !s.trim().is_empty())
            .take(self.max + 1)
            .collect();
        if items.len() > self.max {
            return Err(trf!(
                "at most {} values can be compared",
                "最多比较 {} 个值",
                self.max
            ));
        }
        items.iter().map(|item| Fraction.parse(item)).collect()
    }
    fn write(self, value: &Vec<f64>) -> String {
        join_canonical(value)
    }
}

/// `1,8,64`: numbers as the link writes a list.
fn join_canonical(values: &[f64]) -> String {
    values
        .iter()
        .map(|&n| canonical(n))
        .collect::<Vec<_>>()
        .join(",")
}

/// GPU counts in increasing order (`ns`, `fp`); empty text is no counts when `empty`.
#[derive(Clone, Copy)]
pub(crate) struct GpuList {
    pub empty: bool,
}

impl Codec for GpuList {
    type Value = Vec<f64>;
    fn parse(self, text: &str) -> Result<Vec<f64>, String> {
        if self.empty && text.trim().is_empty() {
            return Ok(Vec::new());
        }
        super::llm::parse_gpu_list(text)
    }
    fn write(self, value: &Vec<f64>) -> String {
        join_canonical(value)
    }
}

/// `N:ms` points of a table the model interpolates (`ex`): at least two.
#[derive(Clone, Copy)]
pub(crate) struct Table;

impl Codec for Table {
    type Value = Vec<crate::model::measured::MeasuredPoint>;
    fn parse(self, text: &str) -> Result<Self::Value, String> {
        super::llm::parse_table(text)
    }
    fn write(self, value: &Self::Value) -> String {
        crate::text::pairs::format_points(value)
    }
}

/// Measured `N:value` points for Karp–Flatt (`m`).
#[derive(Clone, Copy)]
pub(crate) struct Points;

impl Codec for Points {
    type Value = Vec<crate::model::measured::MeasuredPoint>;
    fn parse(self, text: &str) -> Result<Self::Value, String> {
        crate::text::pairs::parse_points(text)
            .map_err(|e| crate::text::messages::measured_error(&e))
    }
    fn write(self, value: &Self::Value) -> String {
        crate::text::pairs::format_points(value)
    }
}

/// A batch in tokens, `1 … 10^15`, whose message names `what` (already translated).
#[derive(Clone, Copy)]
pub(crate) struct Tokens {
    pub what: &'static str,
}

impl Codec for Tokens {
    type Value = f64;
    fn parse(self, text: &str) -> Result<f64, String> {
        super::plan::parse_tokens(text, self.what)
    }
    fn write(self, value: &f64) -> String {
        canonical_si(*value)
    }
}

/// The Plan's levers (`lv`): their keys, each once, in any order, written in the table's.
#[derive(Clone, Copy)]
pub(crate) struct Levers;

impl Codec for Levers {
    type Value = Vec<crate::model::levers::Lever>;
    fn parse(self, text: &str) -> Result<Self::Value, String> {
        use crate::model::levers::Lever;
        let mut levers = Vec::new();
        for item in text
            .split([',', ' ', ';'])
            .filter(|s| !s.trim().is_empty())
            .take(16)
        {
            let lever = Lever::from_key(item).ok_or_else(|| {
                trf!(
                    "“{}” is not a lever (use {})",
                    "“{}” 不是可用的手段（可用 {}）",
                    clip(item),
                    Lever::ALL.map(|l| l.key()).join(crate::text::list_sep())
                )
            })?;
            if !levers.contains(&lever) {
                levers.push(lever);
            }
        }
        Ok(levers)
    }
    fn write(self, value: &Self::Value) -> String {
        crate::model::levers::Lever::ALL
            .iter()
            .filter(|l| value.contains(l))
            .map(|l| l.key())
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// What a codec accepts, as the accepted-values cell of its key's row in `docs/url.md` begins
/// (the row's own text follows it). Compiled where the docs are written.
#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
pub(crate) trait Bounds {
    fn bounds(self) -> String;
}

#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
mod bounds {
    use super::*;
    use crate::model::measured::MAX_POINTS;
    use crate::text::units::format_si;

    /// `2^30` for the processor bound, else the count with its thousands separated.
    fn count(n: f64) -> String {
        if n == super::super::MAX_PROCESSORS {
            "2^30".to_string()
        } else {
            format_count(n)
        }
    }

    fn whole(min: f64, max: f64) -> String {
        format!("whole number `{} … {}`", count(min), count(max))
    }

    /// `10^e` for a power of ten beyond SI's `P` (`10^18`), else the value in SI (`1k`, `1G`)
    /// or as it is.
    fn si_or_power(v: f64) -> String {
        match power_of_ten(v) {
            Some(e) if v >= 1e16 => format!("10^{e}"),
            _ if v >= 1e3 => format_si(v, 3),
            _ => canonical(v),
        }
    }

    fn power_of_ten(v: f64) -> Option<i32> {
        let e = v.log10().round() as i32;
        (v > 0.0 && 10f64.powi(e) == v).then_some(e)
    }

    /// ` (10^a … 10^b)` when both bounds are powers of ten from 10^3 up.
    fn powers(lo: f64, hi: f64) -> String {
        match (power_of_ten(lo), power_of_ten(hi)) {
            (Some(a), Some(b)) if a >= 3 => format!(" (10^{a} … 10^{b})"),
            _ => String::new(),
        }
    }

    /// `` `a`, `b` or `c` ``.
    fn either(names: &[&str]) -> String {
        let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        match quoted.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        }
    }

    impl Bounds for Size {
        fn bounds(self) -> String {
            format!("{} (`0`: not given)", whole(0.0, MAX))
        }
    }

    const MAX: f64 = super::super::MAX_PROCESSORS;

    impl Bounds for Count {
        fn bounds(self) -> String {
            whole(self.0, MAX)
        }
    }

    impl Bounds for Whole {
        fn bounds(self) -> String {
            whole(self.min, self.max)
        }
    }

    impl Bounds for Flag {
        fn bounds(self) -> String {
            "`1`, `yes`, `true`; `0`, `no`, `false`, empty; written back as `1` or `0`".into()
        }
    }

    impl Bounds for Range {
        fn bounds(self) -> String {
            let unit = if self.hint.is_empty() || self.hint.starts_with('(') {
                String::new()
            } else {
                format!(" {}", self.hint)
            };
            format!(
                "`{} … {}`{unit}",
                si_or_power(self.lo),
                si_or_power(self.hi)
            )
        }
    }

    impl Bounds for Share {
        fn bounds(self) -> String {
            "`0 … 1`; `yes`, `true` = 1; `no`, `false`, empty = 0".into()
        }
    }

    impl Bounds for Bytes {
        fn bounds(self) -> String {
            format!(
                "bytes, `{} … {}`{}, written back as `…Gi` or `…Mi` when whole in them",
                canonical_si(self.lo),
                canonical_si(self.hi),
                powers(self.lo, self.hi)
            )
        }
    }

    impl Bounds for Duration {
        fn bounds(self) -> String {
            format!("a duration `0 … {}`, written in ms", self.max)
        }
    }

    impl<T: Named> Bounds for Choice<T> {
        fn bounds(self) -> String {
            let names: Vec<&str> = T::ALL.iter().map(|v| v.key()).collect();
            match T::EMPTY {
                Some(empty) => format!("{} (empty: `{}`)", either(&names), empty.key()),
                None => either(&names),
            }
        }
    }

    impl Bounds for Degree {
        fn bounds(self) -> String {
            let degree = whole(1.0, super::super::parse::MAX_DEGREE);
            if self.zero {
                format!("`0` (also empty), or a {degree}")
            } else {
                degree
            }
        }
    }

    impl Bounds for Toggle {
        fn bounds(self) -> String {
            format!("`{}` (also empty) or `{}`", self.off, self.on)
        }
    }

    impl Bounds for Si {
        fn bounds(self) -> String {
            format!(
                "`{} … {}`{}",
                si_or_power(self.min),
                si_or_power(self.max),
                powers(self.min, self.max)
            )
        }
    }

    impl Bounds for Fraction {
        fn bounds(self) -> String {
            "`0`, or `1e-12 … 1` (`0% … 100%`)".into()
        }
    }

    impl Bounds for Fractions {
        fn bounds(self) -> String {
            format!(
                "up to {} fractions, each {}, separated by commas; empty for none",
                self.max,
                Fraction.bounds()
            )
        }
    }

    impl Bounds for GpuList {
        fn bounds(self) -> String {
            let list = format!(
                "1 … {} increasing GPU counts, each a {}, separated by commas",
                super::super::llm::MAX_ROWS,
                whole(1.0, MAX)
            );
            if self.empty {
                format!("{list}; empty for none")
            } else {
                list
            }
        }
    }

    impl Bounds for Table {
        fn bounds(self) -> String {
            format!("2 … {MAX_POINTS} `N:ms` pairs, `N` increasing in `1 … 2^30`")
        }
    }

    impl Bounds for Points {
        fn bounds(self) -> String {
            format!("up to {MAX_POINTS} `N:value` pairs, `N` increasing in `1 … 2^30`")
        }
    }

    impl Bounds for Tokens {
        fn bounds(self) -> String {
            "`1 … 10^15` tokens".into()
        }
    }

    impl Bounds for Quiz {
        fn bounds(self) -> String {
            format!(
                "exercise numbers `1 … {}`, separated by commas, each once; empty: the whole view",
                crate::scenario::EXERCISES
            )
        }
    }

    impl<C: Codec + Bounds> Bounds for Optional<C> {
        fn bounds(self) -> String {
            format!("{}, or empty", self.0.bounds())
        }
    }

    impl Bounds for Levers {
        fn bounds(self) -> String {
            let names: Vec<&str> = crate::model::levers::Lever::ALL
                .iter()
                .map(|l| l.key())
                .collect();
            format!("names from {}, separated by commas", either(&names))
        }
    }
}

impl Named for super::View {
    const ALL: &'static [Self] = &super::View::ALL;
    fn key(self) -> &'static str {
        super::View::key(self)
    }
}

/// The Learn view's exercises (`q=3` or `1,4,7`): numbers, each once, in the teacher's order.
#[derive(Clone, Copy)]
pub(crate) struct Quiz;

impl Codec for Quiz {
    type Value = Vec<u8>;
    fn parse(self, text: &str) -> Result<Vec<u8>, String> {
        super::parse_quiz(text)
    }
    fn write(self, value: &Vec<u8>) -> String {
        let numbers: Vec<String> = value.iter().map(|n| n.to_string()).collect();
        numbers.join(",")
    }
}

/// A value its codec `C` reads, or none when the text is empty (`bcap`: no cap).
#[derive(Clone, Copy)]
pub(crate) struct Optional<C>(pub C);

impl<C: Codec> Codec for Optional<C> {
    type Value = Option<C::Value>;
    fn parse(self, text: &str) -> Result<Self::Value, String> {
        if text.trim().is_empty() {
            Ok(None)
        } else {
            self.0.parse(text).map(Some)
        }
    }
    fn write(self, value: &Self::Value) -> String {
        value.as_ref().map(|v| self.0.write(v)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_reads_its_range_and_says_it() {
        let ep = Whole::at_most(1, 65_536);
        assert_eq!(ep.parse(" 64 "), Ok(64));
        assert_eq!(ep.parse("65536"), Ok(65_536));
        assert_eq!(ep.parse("65537").unwrap_err(), "65,537 is above 65,536");
        assert!(ep.parse("0").is_err() && ep.parse("2.5").is_err());
        assert_eq!(ep.write(&8), "8");
        let nvd = Whole::at_most(1, 1024).noting("(72 in a rack)");
        assert_eq!(
            nvd.parse("2048").unwrap_err(),
            "2,048 is above 1,024 (72 in a rack)"
        );
        assert_eq!(ep.bounds(), "whole number `1 … 65,536`");
        assert_eq!(Whole::from(0).bounds(), "whole number `0 … 2^30`");
    }

    #[test]
    fn flags_shares_and_toggles_read_their_words() {
        assert_eq!(Flag.parse("yes"), Ok(true));
        assert_eq!(Flag.parse(""), Ok(false));
        assert_eq!(Flag.parse("2").unwrap_err(), "“2” is neither 1 nor 0");
        assert_eq!(Flag.write(&true), "1");
        let share = Share { hint: "" };
        assert_eq!(share.parse("true"), Ok(1.0));
        assert_eq!(share.parse("0.75"), Ok(0.75));
        assert!(share.parse("1.5").is_err());
        let lay = Toggle {
            off: "fixed",
            on: "best",
        };
        assert_eq!(lay.parse("best"), Ok(true));
        assert_eq!(lay.parse(""), Ok(false));
        assert_eq!(lay.parse("x").unwrap_err(), "“x” is neither fixed nor best");
        assert_eq!(lay.write(&false), "fixed");
        assert_eq!(lay.bounds(), "`fixed` (also empty) or `best`");
    }

    #[test]
    fn choices_list_their_names() {
        use crate::model::step::PipelineSchedule;
        let sched = Choice::<PipelineSchedule>::new();
        assert_eq!(sched.parse("zb"), Ok(PipelineSchedule::ZeroBubble));
        assert_eq!(sched.write(&PipelineSchedule::ZeroBubble), "zero-bubble");
        assert_eq!(
            sched.parse("x").unwrap_err(),
            "“x” is not one of 1f1b, interleaved, zero-bubble"
        );
        assert_eq!(sched.bounds(), "`1f1b`, `interleaved` or `zero-bubble`");
        let cm = Choice::<ComputeMode>::new();
        assert_eq!(cm.parse(" "), Ok(ComputeMode::Auto));
        assert_eq!(
            cm.bounds(),
            "`auto`, `time`, `flops` or `physics` (empty: `auto`)"
        );
    }

    #[test]
    fn quantities_write_back_as_typed() {
        let hbm = Bytes {
            lo: 1e9,
            hi: 1e13,
            example: "(write 80Gi)",
            whole: false,
        };
        assert_eq!(hbm.parse("80Gi"), Ok(80.0 * GIB_BYTES));
        assert_eq!(hbm.write(&(80.0 * GIB_BYTES)), "80Gi");
        assert_eq!(hbm.write(&(189_471.0 * 1_048_576.0)), "189471Mi");
        assert_eq!(hbm.write(&141e9), "141G");
        assert_eq!(
            hbm.parse("5").unwrap_err(),
            "5 bytes is outside 1G … 10T (write 80Gi)"
        );
        assert_eq!(
            hbm.bounds(),
            "bytes, `1G … 10T` (10^9 … 10^13), written back as `…Gi` or `…Mi` when whole in them"
        );
        let feff = Si {
            min: 1e9,
            max: 1e18,
            params: false,
        };
        assert_eq!(feff.bounds(), "`1G … 10^18` (10^9 … 10^18)");
        let p = Si {
            min: 1e3,
            max: 1e15,
            params: true,
        };
        assert_eq!(p.write(&8e9), "8B");
        assert_eq!(
            Range {
                lo: 1e9,
                hi: 1e13,
                hint: "bytes/s"
            }
            .bounds(),
            "`1G … 10T` bytes/s"
        );
        assert_eq!(
            Degree { zero: true }.parse(""),
            Ok(0),
            "an empty microbatch is A held fixed"
        );
    }
}
