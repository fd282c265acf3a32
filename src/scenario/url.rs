//! The `v=1` URL codec: [`Scenario::to_query`] writes the keys that differ from the base,
//! [`decode`] reads any string at all into a usable scenario plus per-key errors.

use super::*;

/// The URL format version this build writes and reads.
pub const URL_VERSION: &str = "1";
/// Queries longer than this are cut before decoding, so no link can make the page slow.
pub const MAX_QUERY_BYTES: usize = 16 * 1024;

impl Scenario {
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
        // The hardware keys are written against the chosen machine's values.
        let hardware = self.hardware_base();
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
                (Key::Machine | Key::Precision, _) => base.get_text(key),
                _ => hardware.get_text(key),
            };
            if text != implied {
                parts.push(format!("{}={}", key.name(), escape(&text)));
            }
        }
        parts.join("&")
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
pub(super) fn pin(text: &str) -> Result<(Option<Box<Scenario>>, Vec<UrlError>), String> {
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
}
