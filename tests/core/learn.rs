//! The Learn view's texts (`www/learn/en.html`, `www/learn/zh.html`): both files have
//! the same structure, every live figure and every link opens a scenario that decodes without a
//! message, every chart belongs to its scenario's view, the markup is safe under the page's strict
//! CSP, and the Chinese file holds no English sentence. Parsing is a small scanner over the
//! fragment (standard library only); it accepts the subset of HTML these files use and fails on
//! anything else, so a new construct has to be added here on purpose.
#![cfg(not(target_arch = "wasm32"))] // native only

use scaling_core::panel::exercise::EXERCISES;
use scaling_core::panel::ChartId;
use scaling_core::scenario::{decode, Key, View};

// ---------------------------------------------------------------------------------------------
// A minimal tokenizer for the fragments.

#[derive(Debug, Clone)]
struct Tag {
    name: String,
    attrs: Vec<(String, String)>,
    end: bool,
    /// Byte range of the tag in the source.
    start: usize,
    stop: usize,
}

impl Tag {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
    fn has_class(&self, class: &str) -> bool {
        self.attr("class")
            .is_some_and(|c| c.split_whitespace().any(|x| x == class))
    }
}

#[derive(Debug, Clone)]
enum Tok {
    Tag(Tag),
    Text(String),
}

/// Elements the fragments may use; anything else (script, style, img, iframe, math, svg, link…)
/// fails the test. An exercise's guess box is a text input and its Reveal a plain button.
const ELEMENTS: &[&str] = &[
    "article",
    "section",
    "h2",
    "h3",
    "p",
    "ul",
    "li",
    "dl",
    "dt",
    "dd",
    "figure",
    "figcaption",
    "canvas",
    "a",
    "var",
    "sub",
    "sup",
    "code",
    "em",
    "strong",
    "label",
    "input",
    "button",
    // The table of published runs (`d-published`), as the page's tables are written.
    "div",
    "table",
    "caption",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
];

/// Attributes the fragments may use. No `style`, no `on…` handlers, no `src`.
const ATTRIBUTES: &[&str] = &[
    "id",
    "class",
    "lang",
    "href",
    "data-chart",
    "data-query",
    "data-q",
    "width",
    "height",
    "role",
    "aria-label",
    "type",
    "inputmode",
    "autocomplete",
    "tabindex",
    "aria-labelledby",
    "scope",
];

/// Elements rendered inline inside a paragraph; they carry no structure of their own.
const INLINE: &[&str] = &[
    "var", "sub", "sup", "code", "em", "strong", "a", "label", "input", "button",
];

fn decode_entities(s: &str, file: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let end = rest
            .find(';')
            .unwrap_or_else(|| panic!("{file}: bare & in {s:?}"));
        let ent = &rest[1..end];
        let ch = match ent {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            "nbsp" => '\u{a0}',
            _ if ent.starts_with('#') => {
                let n = if let Some(hex) = ent.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16)
                } else {
                    ent[1..].parse()
                };
                n.ok()
                    .and_then(char::from_u32)
                    .unwrap_or_else(|| panic!("{file}: bad character reference &{ent};"))
            }
            _ => panic!("{file}: unknown or bare entity &{ent}; (write & as &amp;)"),
        };
        out.push(ch);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The end of a generated part's marker at byte `i` (`<!-- tables:NAME … -->` or
/// `<!-- /tables:NAME -->`, `panel::inputs::doc_tables`), the only comments a fragment holds.
fn generated_marker_end(src: &str, i: usize, file: &str) -> Option<usize> {
    let rest = &src[i..];
    if !(rest.starts_with("<!-- tables:") || rest.starts_with("<!-- /tables:")) {
        return None;
    }
    let close = rest
        .find("-->")
        .unwrap_or_else(|| panic!("{file}: unclosed comment at byte {i}"));
    Some(i + close + 3)
}

fn tokenize(src: &str, file: &str) -> Vec<Tok> {
    let bytes = src.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut text_start = 0;
    while i < bytes.len() {
        if bytes[i] != b'<' {
            i += 1;
            continue;
        }
        if text_start < i {
            toks.push(Tok::Text(decode_entities(&src[text_start..i], file)));
        }
        let start = i;
        if let Some(end) = generated_marker_end(src, i, file) {
            i = end;
            text_start = i;
            continue;
        }
        assert!(
            !src[i..].starts_with("<!"),
            "{file}: comments and doctypes are not expected in a fragment (byte {i})"
        );
        i += 1;
        let end = bytes.get(i) == Some(&b'/');
        if end {
            i += 1;
        }
        let name_start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let name = src[name_start..i].to_string();
        assert!(!name.is_empty(), "{file}: bare < at byte {start}");
        assert_eq!(
            name,
            name.to_ascii_lowercase(),
            "{file}: write element names in lower case: <{name}>"
        );
        let mut attrs = Vec::new();
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            assert!(i < bytes.len(), "{file}: unterminated tag <{name}");
            if bytes[i] == b'>' {
                i += 1;
                break;
            }
            assert!(
                bytes[i] != b'/',
                "{file}: self-closing syntax is not HTML (<{name} … />)"
            );
            let a_start = i;
            while i < bytes.len()
                && !bytes[i].is_ascii_whitespace()
                && bytes[i] != b'='
                && bytes[i] != b'>'
            {
                i += 1;
            }
            let attr = src[a_start..i].to_string();
            assert!(!end, "{file}: attributes on an end tag </{name}>");
            let value = if bytes.get(i) == Some(&b'=') {
                i += 1;
                assert_eq!(
                    bytes.get(i),
                    Some(&b'"'),
                    "{file}: quote attribute values with \": <{name} {attr}=…"
                );
                i += 1;
                let v_start = i;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += 1;
                }
                assert!(i < bytes.len(), "{file}: unterminated value of {attr}");
                let v = decode_entities(&src[v_start..i], file);
                i += 1;
                v
            } else {
                String::new()
            };
            assert!(
                attrs.iter().all(|(k, _)| *k != attr),
                "{file}: duplicate attribute {attr} on <{name}>"
            );
            attrs.push((attr, value));
        }
        toks.push(Tok::Tag(Tag {
            name,
            attrs,
            end,
            start,
            stop: i,
        }));
        text_start = i;
    }
    if text_start < bytes.len() {
        toks.push(Tok::Text(decode_entities(&src[text_start..], file)));
    }
    toks
}

// ---------------------------------------------------------------------------------------------
// The parsed document: the element tree flattened into start tags with their extents.

#[derive(Debug, Clone)]
struct Element {
    tag: Tag,
    /// Index of the parent element in `Doc::elements`.
    parent: Option<usize>,
    /// Token range inside the element (exclusive of its own start and end tags).
    inner: (usize, usize),
    /// Byte range inside the element.
    inner_bytes: (usize, usize),
}

struct Doc {
    file: String,
    src: String,
    toks: Vec<Tok>,
    elements: Vec<Element>,
}

impl Doc {
    fn load(name: &str) -> Doc {
        let path = format!("{}/www/learn/{name}", env!("CARGO_MANIFEST_DIR"));
        let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        Doc::parse(name, &src)
    }

    fn parse(file: &str, src: &str) -> Doc {
        let toks = tokenize(src, file);
        let mut elements: Vec<Element> = Vec::new();
        let mut stack: Vec<usize> = Vec::new();
        for (ti, tok) in toks.iter().enumerate() {
            match tok {
                Tok::Tag(t) if !t.end => {
                    assert!(
                        ELEMENTS.contains(&t.name.as_str()),
                        "{file}: element <{}> is not allowed in a Learn fragment",
                        t.name
                    );
                    for (k, _) in &t.attrs {
                        assert!(
                            ATTRIBUTES.contains(&k.as_str()),
                            "{file}: attribute {k} on <{}> is not allowed (strict CSP: no style, no on… handlers, no src)",
                            t.name
                        );
                    }
                    assert!(
                        !stack.is_empty() || elements.is_empty(),
                        "{file}: more than one root element"
                    );
                    elements.push(Element {
                        tag: t.clone(),
                        parent: stack.last().copied(),
                        inner: (ti + 1, ti + 1),
                        inner_bytes: (t.stop, t.stop),
                    });
                    // <input> is a void element: it has no content and no end tag.
                    if t.name != "input" {
                        stack.push(elements.len() - 1);
                    }
                }
                Tok::Tag(t) => {
                    let open = stack
                        .pop()
                        .unwrap_or_else(|| panic!("{file}: stray </{}>", t.name));
                    assert_eq!(
                        elements[open].tag.name, t.name,
                        "{file}: <{}> closed by </{}> (byte {})",
                        elements[open].tag.name, t.name, t.start
                    );
                    elements[open].inner.1 = ti;
                    elements[open].inner_bytes.1 = t.start;
                }
                Tok::Text(s) => {
                    if stack.is_empty() {
                        assert!(s.trim().is_empty(), "{file}: text outside the root: {s:?}");
                    }
                }
            }
        }
        assert!(stack.is_empty(), "{file}: unclosed elements at the end");
        Doc {
            file: file.to_string(),
            src: src.to_string(),
            toks,
            elements,
        }
    }

    fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = (usize, &'a Element)> + 'a {
        self.elements
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.tag.name == name)
    }

    fn children(&self, i: usize) -> impl Iterator<Item = (usize, &Element)> + '_ {
        self.elements
            .iter()
            .enumerate()
            .filter(move |(_, e)| e.parent == Some(i))
    }

    fn descendants(&self, i: usize) -> impl Iterator<Item = (usize, &Element)> + '_ {
        self.elements
            .iter()
            .enumerate()
            .filter(move |(j, _)| self.is_inside(*j, i))
    }

    fn is_inside(&self, mut j: usize, ancestor: usize) -> bool {
        while let Some(p) = self.elements[j].parent {
            if p == ancestor {
                return true;
            }
            j = p;
        }
        false
    }

    /// The element's text content, entity-decoded.
    fn text(&self, i: usize) -> String {
        let (a, b) = self.elements[i].inner;
        self.toks[a..b]
            .iter()
            .filter_map(|t| match t {
                Tok::Text(s) => Some(s.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The element's inner markup as written.
    fn inner_html(&self, i: usize) -> &str {
        let (a, b) = self.elements[i].inner_bytes;
        &self.src[a..b]
    }

    fn section_ids(&self) -> Vec<String> {
        self.all("section")
            .map(|(_, e)| {
                e.tag
                    .attr("id")
                    .unwrap_or_else(|| panic!("{}: a <section> without id", self.file))
                    .to_string()
            })
            .collect()
    }

    /// (data-chart, data-query) of every live figure, in order.
    fn figures(&self) -> Vec<(String, String)> {
        self.all("figure")
            .map(|(_, e)| {
                (
                    e.tag.attr("data-chart").unwrap_or("").to_string(),
                    e.tag.attr("data-query").unwrap_or("").to_string(),
                )
            })
            .collect()
    }

    fn hrefs(&self) -> Vec<String> {
        self.all("a")
            .map(|(_, e)| e.tag.attr("href").unwrap_or("").to_string())
            .collect()
    }

    /// The structure: every start tag that is not inline, with its attributes other than the
    /// language-dependent ones, plus the links.
    fn skeleton(&self) -> Vec<String> {
        self.elements
            .iter()
            .filter(|e| !INLINE.contains(&e.tag.name.as_str()) || e.tag.name == "a")
            .map(|e| {
                let attrs: Vec<String> = e
                    .tag
                    .attrs
                    .iter()
                    .filter(|(k, _)| k != "lang" && k != "aria-label")
                    // The Chinese links carry `&lang=zh` (compared in the hrefs' own check).
                    .map(|(k, v)| format!("{k}={:?}", v.trim_end_matches("&lang=zh")))
                    .collect();
                format!("<{} {}>", e.tag.name, attrs.join(" "))
            })
            .collect()
    }
}

fn en() -> Doc {
    Doc::load("en.html")
}
fn zh() -> Doc {
    Doc::load("zh.html")
}

// ---------------------------------------------------------------------------------------------
// Scenario checks.

/// Checks one scenario link or `data-query`: a full `v=1` query naming its view, only keys of
/// docs/url.md (unknown keys would be silently ignored by `decode`, so they are refused here),
/// decoding with no message. Returns the view the scenario opens.
fn check_query(file: &str, what: &str, query: &str) -> View {
    let q = query.strip_prefix('?').unwrap_or(query);
    assert!(
        q.starts_with("v=1&"),
        "{file}: {what} {query:?} must start with v=1&"
    );
    let mut view = None;
    let mut seen = Vec::new();
    for pair in q.split('&') {
        let (k, v) = pair
            .split_once('=')
            .unwrap_or_else(|| panic!("{file}: {what} {query:?}: {pair:?} has no ="));
        assert!(
            !seen.contains(&k),
            "{file}: {what} {query:?} repeats the key {k}"
        );
        seen.push(k);
        match k {
            "v" | "preset" => {}
            "view" => view = View::from_key(v),
            _ => {
                let key = Key::from_name(k).unwrap_or_else(|| {
                    panic!("{file}: {what} {query:?}: unknown key {k:?} (docs/url.md)")
                });
                // `lang=zh` keeps a Chinese reader's language; the rest are display keys.
                assert!(
                    !matches!(key, Key::Embed | Key::Theme | Key::Show)
                        && (key != Key::Lang || (v == "zh" && file == "zh.html")),
                    "{file}: {what} {query:?}: display key {k} does not belong in a scenario link"
                );
            }
        }
    }
    let view = view.unwrap_or_else(|| {
        panic!("{file}: {what} {query:?} must name its panel with a valid view=")
    });
    let decoded = decode(query);
    assert!(
        decoded.errors.is_empty(),
        "{file}: {what} {query:?} decodes with messages: {:?}",
        decoded
            .errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    assert_eq!(decoded.scenario.view, view, "{file}: {what} {query:?}");
    view
}

// ---------------------------------------------------------------------------------------------
// Language checks.

/// Phrases allowed in the Chinese text although they are three or more ASCII words: the names
/// of measured runs, and the article's own English term (kept beside its translation, as the
/// article writes it). Longer names first.
const ZH_WHITELIST: &[&str] = &[
    "Megatron-Core GPT 177B",
    "MLPerf Training v3.1",
    "MLPerf v3.1 GPT-3 175B",
    "MLPerf GPT-3 175B",
    "critical batch size",
];

/// Runs of three or more ASCII words separated only by spaces: an English phrase or sentence.
/// A word is a run of ASCII letters, digits and `.-_/+'` that holds at least one letter.
fn english_runs(text: &str) -> Vec<String> {
    let mut text = text.to_string();
    for w in ZH_WHITELIST {
        text = text.replace(w, "\u{2016}");
    }
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || ".-_/+'’".contains(c);
    let mut runs = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut gap_ok = true; // only spaces since the last word
    let flush = |current: &mut Vec<String>, runs: &mut Vec<String>| {
        if current.len() >= 3 {
            runs.push(current.join(" "));
        }
        current.clear();
    };
    for c in text.chars().chain(std::iter::once('\u{2016}')) {
        if is_word_char(c) {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            if word.chars().any(|c| c.is_ascii_alphabetic()) {
                if !gap_ok {
                    flush(&mut current, &mut runs);
                }
                current.push(std::mem::take(&mut word));
            } else {
                word.clear();
                flush(&mut current, &mut runs);
            }
            gap_ok = true;
        }
        if c == ' ' || c == '\n' || c == '\t' {
            continue;
        }
        gap_ok = false;
        flush(&mut current, &mut runs);
    }
    runs
}

/// The prose of a document: text outside formulas, `<var>` and `<code>`, with those replaced by a
/// separator, plus the canvases' `aria-label`s.
fn prose(doc: &Doc) -> Vec<String> {
    let mut skip_until: Option<usize> = None;
    let mut out = vec![String::new()];
    let mut starts: Vec<(usize, usize)> = Vec::new(); // (token index, element index)
    for (i, e) in doc.elements.iter().enumerate() {
        starts.push((e.inner.0 - 1, i));
    }
    for (ti, tok) in doc.toks.iter().enumerate() {
        if let Some(end) = skip_until {
            if ti <= end {
                continue;
            }
            skip_until = None;
        }
        match tok {
            Tok::Text(s) => out.last_mut().unwrap().push_str(s),
            Tok::Tag(t) if !t.end => {
                let (_, ei) = *starts.iter().find(|(s, _)| *s == ti).unwrap();
                let e = &doc.elements[ei];
                if let Some(label) = t.attr("aria-label") {
                    out.push(label.to_string());
                }
                if t.name == "var" || t.name == "code" || t.has_class("formula") {
                    skip_until = Some(e.inner.1);
                    out.last_mut().unwrap().push('\u{2016}');
                } else if !INLINE.contains(&t.name.as_str()) {
                    out.push(String::new());
                }
            }
            Tok::Tag(_) => {}
        }
    }
    out.into_iter().filter(|s| !s.trim().is_empty()).collect()
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3000..=0x303F | 0x3400..=0x9FFF | 0xFF00..=0xFFEF)
}

// ---------------------------------------------------------------------------------------------
// The tests.

const DEFINITIONS: &[&str] = &[
    "d-speedup",
    "d-efficiency",
    "d-strong",
    "d-weak",
    "d-amdahl",
    "d-gustafson",
    "d-shi",
    "d-sun-ni",
    "d-karp-flatt",
    "d-isoefficiency",
    "d-llm-batch",
    "d-two-ways",
    "d-step",
    "d-alpha-beta",
    "d-t-crit",
    "d-ttq",
    "d-scaling-laws",
    "d-mixed",
    "d-levers",
    "d-mistakes",
    "d-published",
];

#[test]
fn both_files_have_the_same_sections_figures_links_and_formulas() {
    let (en, zh) = (en(), zh());
    assert_eq!(en.section_ids(), zh.section_ids());
    assert_eq!(en.figures(), zh.figures());
    // The Chinese file's links keep the reader's language.
    let en_in_zh: Vec<String> = en.hrefs().iter().map(|h| format!("{h}&lang=zh")).collect();
    assert_eq!(en_in_zh, zh.hrefs());
    let skeleton = (en.skeleton(), zh.skeleton());
    for (i, (a, b)) in skeleton.0.iter().zip(&skeleton.1).enumerate() {
        assert_eq!(a, b, "element {i} differs between en.html and zh.html");
    }
    assert_eq!(skeleton.0.len(), skeleton.1.len());
    let formulas = |d: &Doc| -> Vec<String> {
        d.all("p")
            .filter(|(_, e)| e.tag.has_class("formula"))
            .map(|(i, _)| d.inner_html(i).to_string())
            .collect()
    };
    assert_eq!(formulas(&en), formulas(&zh), "formulas differ");
}

#[test]
fn roots_headings_ids_and_order() {
    for (doc, lang) in [(en(), "en"), (zh(), "zh-Hans")] {
        let f = &doc.file;
        let root = &doc.elements[0].tag;
        assert_eq!(root.name, "article", "{f}");
        assert!(root.has_class("learn"), "{f}: root class");
        assert_eq!(root.attr("lang"), Some(lang), "{f}: root lang");
        assert!(
            doc.src
                .trim_start()
                .starts_with(&format!("<article class=\"learn\" lang=\"{lang}\">")),
            "{f}: root tag as specified"
        );
        // The lead paragraph comes first.
        let first = doc.children(0).next().expect("content");
        assert!(
            first.1.tag.name == "p" && first.1.tag.has_class("learn-lead"),
            "{f}: the first element is <p class=\"learn-lead\">"
        );
        assert!(!doc.text(first.0).trim().is_empty());
        // Unique ids.
        let ids: Vec<&str> = doc
            .elements
            .iter()
            .filter_map(|e| e.tag.attr("id"))
            .collect();
        for (i, id) in ids.iter().enumerate() {
            assert!(!ids[..i].contains(id), "{f}: duplicate id {id}");
        }
        // The definitions in the brief's order, then the exercises.
        let sections = doc.section_ids();
        let defs: Vec<&str> = sections
            .iter()
            .map(String::as_str)
            .filter(|s| s.starts_with("d-"))
            .collect();
        assert_eq!(defs, DEFINITIONS, "{f}: definition sections");
        let qs: Vec<&str> = sections
            .iter()
            .map(String::as_str)
            .filter(|s| s.starts_with('q'))
            .collect();
        let expected: Vec<String> = (1..=EXERCISES.len()).map(|n| format!("q{n}")).collect();
        assert_eq!(qs, expected, "{f}: exercises");
        // Headings: h2 and h3 only, h2 first, and every section opens with its heading.
        let headings: Vec<&str> = doc
            .elements
            .iter()
            .map(|e| e.tag.name.as_str())
            .filter(|n| n.starts_with('h'))
            .collect();
        assert_eq!(headings.first(), Some(&"h2"), "{f}: headings start at h2");
        for (i, e) in doc.all("section") {
            let id = e.tag.attr("id").unwrap();
            let h = doc
                .children(i)
                .next()
                .unwrap_or_else(|| panic!("{f}: empty section {id}"));
            assert!(
                h.1.tag.name == "h2" || h.1.tag.name == "h3",
                "{f}: section {id} starts with <{}>, not a heading",
                h.1.tag.name
            );
            assert!(
                !doc.text(h.0).trim().is_empty(),
                "{f}: empty heading in {id}"
            );
            let nested = e
                .parent
                .is_some_and(|p| doc.elements[p].tag.name == "section");
            let want = if nested { "h3" } else { "h2" };
            assert_eq!(h.1.tag.name, want, "{f}: heading level of {id}");
        }
    }
}

#[test]
fn markup_is_safe_under_a_strict_csp() {
    for doc in [en(), zh()] {
        let f = &doc.file;
        let lower = doc.src.to_ascii_lowercase();
        assert!(!lower.contains("<script"), "{f}: <script>");
        assert!(!lower.contains("<style"), "{f}: <style>");
        assert!(!lower.contains("style="), "{f}: style= attribute");
        assert!(!lower.contains("javascript:"), "{f}: javascript: URL");
        assert!(
            !lower.contains("http:") && !lower.contains("https:"),
            "{f}: external URL"
        );
        for e in &doc.elements {
            for (k, _) in &e.tag.attrs {
                assert!(!k.starts_with("on"), "{f}: handler {k} on <{}>", e.tag.name);
            }
        }
        // Raw scan too, in case the tokenizer ever misses an attribute: ` on…=`.
        for (i, _) in lower.match_indices(" on") {
            let rest = &lower[i + 3..];
            let letters = rest.bytes().take_while(u8::is_ascii_lowercase).count();
            assert!(
                !(letters > 0 && rest[letters..].starts_with('=')),
                "{f}: on…= attribute at byte {i}"
            );
        }
    }
}

#[test]
fn figures_and_links_open_valid_scenarios() {
    for doc in [en(), zh()] {
        let f = doc.file.clone();
        for (i, e) in doc.all("figure") {
            let t = &e.tag;
            if t.has_class("q-fig") {
                // An exercise's chart: drawn from crate::panel::exercise on Reveal.
                continue;
            }
            assert!(
                t.has_class("learn-fig"),
                "{f}: figure without class learn-fig"
            );
            let chart_id = t.attr("data-chart").expect("data-chart");
            let query = t.attr("data-query").expect("data-query");
            let chart = ChartId::from_id(chart_id)
                .unwrap_or_else(|| panic!("{f}: unknown chart {chart_id:?}"));
            let view = check_query(&f, "data-query", query);
            assert_eq!(
                chart.view(),
                view,
                "{f}: chart {chart_id} is not on the {} panel ({query})",
                view.key()
            );
            let kids: Vec<&Element> = doc.children(i).map(|(_, e)| e).collect();
            assert_eq!(kids.len(), 2, "{f}: a figure holds a canvas and a caption");
            let c = &kids[0].tag;
            assert_eq!(c.name, "canvas", "{f}: figure {chart_id}");
            assert_eq!(c.attr("width"), Some("560"));
            assert_eq!(c.attr("height"), Some("320"));
            assert_eq!(c.attr("role"), Some("img"));
            assert!(
                c.attr("aria-label").is_some_and(|l| l.trim().len() > 10),
                "{f}: canvas of {chart_id} needs an aria-label"
            );
            let (ci, cap) = doc.children(i).nth(1).unwrap();
            assert_eq!(cap.tag.name, "figcaption", "{f}: figure {chart_id} caption");
            assert!(!doc.text(ci).trim().is_empty(), "{f}: empty caption");
        }
        for (i, e) in doc.all("a") {
            let href = e.tag.attr("href").expect("href");
            assert!(
                e.tag.has_class("learn-open")
                    || e.tag.has_class("q-link")
                    || e.tag.has_class("set-link"),
                "{f}: link {href} without learn-open (or q-link, an exercise's own link, or \
                 set-link, a teacher's set written as exercises are ticked)"
            );
            assert!(href.starts_with("?v=1&"), "{f}: {href} is not a ?v=1 query");
            check_query(&f, "href", href);
            assert!(!doc.text(i).trim().is_empty(), "{f}: empty link text");
        }
        for (_, e) in doc.all("section") {
            if let Some(q) = e.tag.attr("data-query") {
                check_query(&f, "exercise data-query", q);
            }
        }
        // Every definition is next to a live figure or a link that opens it.
        for (i, e) in doc.all("section") {
            let id = e.tag.attr("id").unwrap();
            if id.starts_with("d-") {
                let shown = doc
                    .descendants(i)
                    .any(|(_, d)| d.tag.name == "figure" || d.tag.name == "a");
                assert!(shown, "{f}: {id} has neither a figure nor a link");
            }
        }
    }
}

/// What each exercise's why must not say (its answer, in the forms a text would write it).
const ANSWERS: [&[&str]; 14] = [
    &["20×", "20 倍", "20x", "twenty", "二十"],
    &["21 ", "21。", "21,", "twenty-one"],
    &["972", "973"],
    &["3.57", "3.6%", "3.6 %"],
    &["4,096", "4096"],
    &["9,6", "9,7", "9.6", "9.7", "9,64"],
    &["1.74", "1.8×", "1.81"],
    &["2×", "×2", "2 倍", "twice", "doubles T", "翻倍"],
    &["4,324", "4.3k", "4,3"],
    &["1.52", "1.5×", "38%", "38.1"],
    &["0.111", "0.11%"],
    &["4.05", "4.0×", "255/63"],
    &["mixed", "混合"],
    &["18.3", "18%"],
];

#[test]
fn exercises_ask_for_one_number_and_keep_the_answer_out_of_the_why() {
    for doc in [en(), zh()] {
        let f = &doc.file;
        for (n, answers) in ANSWERS.iter().enumerate() {
            let id = format!("q{}", n + 1);
            let (i, e) = doc
                .all("section")
                .find(|(_, e)| e.tag.attr("id") == Some(id.as_str()))
                .unwrap_or_else(|| panic!("{f}: no exercise {id}"));
            assert!(e.tag.has_class("exercise"), "{f}: {id} class");
            assert_eq!(
                e.tag.attr("data-q"),
                Some(&*format!("{}", n + 1)),
                "{f}: {id} data-q"
            );
            let kids: Vec<(usize, &Element)> = doc.children(i).collect();
            assert_eq!(kids[0].1.tag.name, "h3", "{f}: {id} heading");
            let asks: Vec<usize> = kids
                .iter()
                .filter(|(_, e)| e.tag.name == "p" && e.tag.has_class("ask"))
                .map(|(i, _)| *i)
                .collect();
            let whys: Vec<usize> = kids
                .iter()
                .filter(|(_, e)| e.tag.name == "p" && e.tag.has_class("why"))
                .map(|(i, _)| *i)
                .collect();
            assert_eq!(
                (asks.len(), whys.len()),
                (1, 1),
                "{f}: {id} has one ask, one why"
            );
            let ask = doc.text(asks[0]);
            let ask = ask.trim();
            // The unit closes the question: "(×)", "(%)", "(ms)", "（倍）" …
            let unit = ask
                .strip_suffix(')')
                .and_then(|a| a.rsplit_once('('))
                .or_else(|| ask.strip_suffix('）').and_then(|a| a.rsplit_once('（')))
                .map(|(_, u)| u.trim().to_string());
            assert!(
                unit.as_deref().is_some_and(|u| !u.is_empty()),
                "{f}: {id}'s question must end with its unit in parentheses: {ask:?}"
            );
            let why = doc.text(whys[0]);
            for a in *answers {
                assert!(
                    !why.contains(a),
                    "{f}: {id}'s why gives the answer away ({a:?}): {why}"
                );
            }
        }
    }
}

/// `needle` in `text` as a whole number: not inside a longer number or word (`21` is not in
/// `2,621` or `21M`).
fn has_number(text: &str, needle: &str) -> bool {
    text.match_indices(needle).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let mut after = text[i + needle.len()..].chars();
        let next = after.next();
        let digit_after = after.next().is_some_and(|c| c.is_ascii_digit());
        !before.is_some_and(|c| c.is_alphanumeric() || c == '.' || c == ',')
            && !next.is_some_and(|c| c.is_alphanumeric() || ((c == '.' || c == ',') && digit_after))
    })
}

/// No exercise's answer appears anywhere in the view before its reveal (review D-34): the
/// model's answer, as the page writes it (and `… 倍` in Chinese), is nowhere in the texts,
/// captions, labels or asks — only a pick among choices the ask lists (q5's rows, q13's kinds)
/// is exempt. The whys are hidden until the reveal and checked above.
#[test]
fn no_answer_appears_before_its_reveal() {
    use scaling_core::panel::exercise::{format, Judge, Unit};
    assert!(has_number("at 21 processors", "21") && !has_number("2,621 and 21M", "21"));
    assert!(has_number("1.81×.", "1.81×") && !has_number("0.0108%", "0.010"));
    for doc in [en(), zh()] {
        let f = &doc.file;
        // Everything a reader sees before any reveal: the prose outside the whys.
        let whys: Vec<usize> = doc
            .all("p")
            .filter(|(_, e)| e.tag.has_class("why"))
            .map(|(i, _)| i)
            .collect();
        let hidden: Vec<String> = whys.iter().map(|&i| doc.text(i)).collect();
        let mut visible = doc.text(0);
        for h in &hidden {
            visible = visible.replacen(h.as_str(), "", 1);
        }
        for (n, e) in EXERCISES.iter().enumerate() {
            if e.judge == Judge::Exact {
                continue;
            }
            let answer = e.answer().expect("an answer");
            let written = format(e.unit, answer);
            let mut forms = vec![written.clone()];
            if e.unit == Unit::Times {
                forms.push(format!("{} 倍", written.trim_end_matches('×')));
            }
            for form in &forms {
                assert!(
                    !has_number(&visible, form),
                    "{f}: q{}'s answer {form:?} is in the view before its reveal",
                    n + 1
                );
            }
        }
    }
}

/// The numbers the texts quote, computed from their scenarios: `(section, as written)`.
// A table, one row per quoted number; splitting it would only scatter the rows.
#[allow(clippy::too_many_lines)]
fn quoted_numbers() -> Vec<(&'static str, String)> {
    use scaling_core::text::units::{
        format_count, format_decimals, format_percent, format_si, format_sig,
    };
    use scaling_model::laws::{amdahl_half_efficiency_processors, shi_amdahl_from_gustafson};
    use scaling_model::llm::LlmSweep;
    let sweep = |q: &str| LlmSweep::compute(&decode(q).scenario.llm_inputs());
    let seed = sweep("v=1&preset=seed-strong");
    let seed_weak = sweep("v=1&preset=seed-weak");
    let megatron = sweep("v=1&preset=megatron-177b-h100");
    let walls = sweep("v=1&preset=gpt3-175b-walls");
    let levers = sweep("v=1&preset=gpt3-175b-walls&lv=noreshard,zb");
    let mlperf = decode("v=1&preset=mlperf-gpt3-175b-h100").scenario;
    let gib = |s: &LlmSweep, n: f64| {
        let r = s.strong.iter().find(|r| r.gpus == n).unwrap();
        format_decimals(r.walls.unwrap().memory.total / (1u64 << 30) as f64, 1)
    };
    let row = |s: &LlmSweep, n: f64| s.strong.iter().find(|r| r.gpus == n).unwrap().clone();
    let step_at = |n: f64| {
        decode("v=1&preset=megatron-177b-h100")
            .scenario
            .llm
            .step_table
            .iter()
            .find(|p| p.processors == n)
            .unwrap()
            .value
    };
    let (drift_median, drift_largest) = {
        use scaling_core::panel::machine_runs::{release_spreads, MACHINE_RUNS};
        let mut spreads = release_spreads(&MACHINE_RUNS);
        let largest = spreads.iter().copied().fold(0.0, f64::max);
        (scaling_model::fit::median(&mut spreads), largest)
    };
    // (section, the number as the texts write it)
    let quotes: Vec<(&'static str, String)> = vec![
        ("d-published", format_percent(drift_median, 1)),
        ("d-published", format_percent(drift_largest, 1)),
        (
            "d-efficiency",
            format!(
                "{} ",
                format_count(amdahl_half_efficiency_processors(0.1).unwrap())
            ),
        ),
        ("d-shi", format_sig(0.1 + 0.9 * 1024.0, 4)),
        (
            "d-shi",
            format!(
                "{}%",
                format_sig(100.0 * shi_amdahl_from_gustafson(0.1, 1024.0), 3)
            ),
        ),
        ("d-t-crit", format_si(seed.summary.t_crit_tokens, 2)),
        (
            "d-step",
            format!("{} ms", format_count(row(&seed, 1024.0).compute_ms)),
        ),
        (
            "d-step",
            format!("{} ", format_count(row(&seed, 1024.0).exposed_ms)),
        ),
        (
            "d-step",
            format!("{} ms", format_count(row(&seed, 16384.0).exposed_ms)),
        ),
        (
            "d-two-ways",
            format!("{}%", format_decimals(100.0 * row(&megatron, 96.0).mfu, 0)),
        ),
        (
            "d-two-ways",
            format!(
                "{}%",
                format_decimals(100.0 * row(&megatron, 4608.0).mfu, 0)
            ),
        ),
        ("d-ttq", format_si(mlperf.llm.global_batch_tokens, 2)),
        ("d-ttq", format_si(2.0 * mlperf.llm.global_batch_tokens, 2)),
        ("d-ttq", format_si(mlperf.plan.critical_batch_tokens, 2)),
        (
            "d-ttq",
            format!(
                "{}%",
                format_decimals(100.0 * seed_weak.weak[1].efficiency, 0)
            ),
        ),
        ("d-levers", format_si(walls.summary.t_crit_tokens, 2)),
        ("d-levers", format_si(levers.summary.t_crit_tokens, 2)),
        ("d-levers", gib(&walls, 4096.0)),
        ("d-levers", gib(&levers, 4096.0)),
        (
            "q5",
            format!("{} ms", format_count(row(&seed, 1024.0).compute_ms)),
        ),
        ("q6", format!("{} ms", format_count(step_at(96.0)))),
        ("q6", format!("{} ms", format_count(step_at(4608.0)))),
        ("q7", format_si(mlperf.llm.global_batch_tokens, 2)),
        ("q7", format_si(mlperf.plan.critical_batch_tokens, 2)),
        ("q9", format_si(seed.summary.t_crit_tokens, 2)),
        (
            "q10",
            format!("{} ", format_count(seed_weak.weak[0].step_ms)),
        ),
        (
            "q10",
            format!("{} ms", format_count(seed_weak.weak[1].step_ms)),
        ),
        (
            "q10",
            format!(
                "{}%",
                format_decimals(100.0 * seed_weak.weak[1].efficiency, 0)
            ),
        ),
    ];
    // Which panels the levers fit on: every GPU count without them from 2,048, only 4,096 with.
    let fits = |s: &LlmSweep| -> Vec<f64> {
        s.strong
            .iter()
            .filter(|r| r.walls.unwrap().fits)
            .map(|r| r.gpus)
            .collect()
    };
    assert_eq!(fits(&walls), vec![2048.0, 4096.0]);
    assert_eq!(fits(&levers), vec![4096.0]);
    quotes
}

/// The numbers the prose and the asks quote are the model's on their scenarios (review D-35):
/// each is computed here from the scenario and looked for in the section that quotes it, in
/// both languages, so a preset edit cannot leave a text silently wrong. Changing one of them
/// in a text (tried: 41.4 → 41.5 GiB) fails this test.
#[test]
fn the_numbers_the_texts_quote_are_the_models() {
    let quotes = quoted_numbers();
    for doc in [en(), zh()] {
        let f = &doc.file;
        for (id, number) in &quotes {
            let (i, _) = doc
                .all("section")
                .find(|(_, e)| e.tag.attr("id") == Some(*id))
                .unwrap_or_else(|| panic!("{f}: no section {id}"));
            let text = doc.text(i);
            assert!(
                text.contains(number.as_str()),
                "{f}: {id} does not quote the model's {number:?}"
            );
        }
    }
}

#[test]
fn the_chinese_file_has_no_english_sentence() {
    // The checker itself can fail.
    assert_eq!(
        english_runs("这是 a plain English sentence。"),
        ["a plain English sentence"]
    );
    assert!(english_runs("固定 global batch 加卡，看 step time").is_empty());
    assert!(english_runs("Megatron-Core GPT 177B 在 H100 上").is_empty());
    assert_eq!(
        english_runs("效率 weak scaling efficiency 很高"),
        ["weak scaling efficiency"]
    );

    let zh = zh();
    let mut found = Vec::new();
    for text in prose(&zh) {
        for run in english_runs(&text) {
            found.push(format!("{run:?} in {text:?}"));
        }
    }
    assert!(
        found.is_empty(),
        "zh.html has English phrases:\n{}",
        found.join("\n")
    );

    // And the English file has no Chinese left in it.
    let en = en();
    for text in prose(&en) {
        assert!(!text.chars().any(is_cjk), "en.html has CJK text: {text:?}");
    }
    // Every Chinese paragraph is mostly Chinese: a paragraph translated by accident would show
    // here even if its English broke into short runs.
    for (i, e) in zh.all("p") {
        if e.tag.has_class("formula") || e.tag.has_class("answer") || e.tag.has_class("key") {
            continue; // an exercise's answer (and its key line) is written by the page
        }
        let t = zh.text(i);
        assert!(
            t.chars().any(is_cjk),
            "zh.html paragraph without Chinese: {t:?}"
        );
    }
}

#[test]
fn the_scanner_rejects_what_the_page_must_not_load() {
    let bad = [
        r#"<article class="learn" lang="en"><p onclick="x()">a</p></article>"#,
        r#"<article class="learn" lang="en"><p style="color:red">a</p></article>"#,
        r#"<article class="learn" lang="en"><script>1</script></article>"#,
        r#"<article class="learn" lang="en"><p>a</article>"#,
        r#"<article class="learn" lang="en"><a href="?v=1&view=laws">a</a></article>"#,
    ];
    for src in bad {
        let r = std::panic::catch_unwind(|| Doc::parse("sample", src));
        assert!(r.is_err(), "accepted: {src}");
    }
    // A link to an unknown preset, an unknown key or a chart of another panel fails.
    for q in [
        "?v=1&preset=seed-stong&view=strong",
        "?v=1&view=laws&ff=0.1",
        "?v=1&view=laws&f=2",
        "?v=1&f=0.1",
    ] {
        let r = std::panic::catch_unwind(|| check_query("sample", "href", q));
        assert!(r.is_err(), "accepted: {q}");
    }
    assert_eq!(
        ChartId::from_id("strong-step").unwrap().view(),
        View::Strong
    );
}
