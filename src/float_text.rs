//! The one place where a number becomes its shortest round-tripping decimal text, so the
//! model's formatting (`model::units`) never calls Rust's float `Display`/`{:e}` in the browser.
//!
//! Why: Rust's float formatting (Grisu with a Dragon4 fallback, shortest and exact modes) is
//! ~20 KB of WebAssembly, and the page's size budget is 150 KB gzipped. The browser already has
//! an exact shortest formatter: ECMAScript's `Number::toString` (ECMA-262 §6.1.6.1.20, step 5)
//! returns the shortest digits that round-trip, nearest to the value — the same digits Rust's
//! `{:e}` prints. Natively (CLI, tests) Rust's own is used; tests/fuzz compare both forms
//! through `units::canonical`.

/// `value` (finite, > 0) as shortest round-tripping text: `1.2345e3` (Rust) or `1234.5` /
/// `1.5e+21` (JavaScript); `units::parse_digits` reads either.
#[cfg(not(target_arch = "wasm32"))]
pub fn shortest(value: f64) -> String {
    format!("{value:e}")
}

/// `value` (finite, > 0) as shortest round-tripping text, by the browser's `Number#toString`.
#[cfg(target_arch = "wasm32")]
pub fn shortest(value: f64) -> String {
    js_sys::Number::from(value)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}
