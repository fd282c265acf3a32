//! The text layer: numbers and typed errors from [`crate::model`] turned into what a reader
//! reads, and what a reader types turned into numbers. Beside [`crate::i18n`], which holds
//! the language; the model itself never formats, parses or translates.
//!
//! - [`decimal`]: decimal text to `f64`, correctly rounded, without std's tables.
//! - [`units`]: `32M`, `3.7k`, `4Mi`, `900ms` in and out; percentages, speedups, hours.
//! - [`pairs`]: pasted `(N, value)` pairs in and out.
//! - [`messages`]: the model's errors and lever names as sentences.
//! - [`layout`]: a parallel layout as `TP8·PP4·DP128·A8`.
//! - [`html`]: text escaped for HTML content and attribute values.

/// Between the items of a list in a sentence: `, ` in English, `、` in Chinese (a Chinese list
/// takes the enumeration comma, and an ASCII comma beside numbers written `2,048` is lost).
pub fn list_sep() -> &'static str {
    crate::i18n::tr(", ", "、")
}

/// Between the clauses of one sentence: `; ` in English, `；` in Chinese.
pub fn clause_sep() -> &'static str {
    crate::i18n::tr("; ", "；")
}

pub mod decimal;
pub mod html;
pub mod layout;
pub mod messages;
pub mod pairs;
pub mod units;
