//! Mechanical hygiene of the tree, in the spirit of rust-analyzer's `xtask/src/tidy.rs`: code
//! comments carry no tracker numbers and no measured byte counts (both go stale; they belong in
//! commit bodies and docs/performance.md), every repo path a doc names exists, docs/url.md's key
//! tables list exactly the scenario's keys, no sibling modules import each other in a
//! cycle, and the tests carry no copied config (published ones are read from beside the
//! project, tests/common/corpus.rs) while each of the project's own test scripts says it is
//! its own. Each check is a function over text with unit tests that plant a violation; one test
//! per check then runs it over the real tree and prints every violation as `path:line`.

use scaling_core::scenario::Key;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

// ---- the tree ----------------------------------------------------------------------------

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Directories that are not the repository's: build output, installed packages, test runs.
const NOT_SOURCE: &[&str] = &[
    "target",
    "node_modules",
    "dist",
    "dist-single",
    ".git",
    "test-results",
    "mutants.out",
    "mutants.out.old",
];
/// Files whose comments are not checked: outputs.
const NOT_OURS: &[&str] = &["crates/cli/tests/snapshots"];

/// Every file under `dir` (relative to the root), as `/`-separated relative paths.
fn walk(dir: &str, out: &mut Vec<String>) {
    walk_skipping(dir, NOT_SOURCE, out);
}

fn walk_skipping(dir: &str, skip: &[&str], out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(root().join(dir)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let rel = if dir.is_empty() {
            name
        } else {
            format!("{dir}/{rel}", rel = name)
        };
        if skip.contains(&rel.as_str()) {
            continue;
        }
        match entry.file_type() {
            Ok(t) if t.is_dir() => walk_skipping(&rel, skip, out),
            Ok(t) if t.is_file() => out.push(rel),
            _ => {}
        }
    }
}

fn files_under(dirs: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for d in dirs {
        walk(d, &mut out);
    }
    out.sort();
    out
}

fn read(rel: &str) -> String {
    fs::read_to_string(root().join(rel)).unwrap_or_default()
}

/// The code directories whose comments are checked, and the root files beside them.
const CODE_DIRS: &[&str] = &[
    "src", "crates", "www", "bench", "scripts", "tests", ".cargo",
];
const CODE_FILES: &[&str] = &["Makefile", "Cargo.toml", "Trunk.toml"];

fn code_files() -> Vec<String> {
    let mut files: Vec<String> = files_under(CODE_DIRS)
        .into_iter()
        .filter(|f| !NOT_OURS.iter().any(|d| f.starts_with(&format!("{d}/"))))
        .collect();
    files.extend(
        CODE_FILES
            .iter()
            .filter(|f| root().join(f).is_file())
            .map(|f| f.to_string()),
    );
    files
}

// ---- comments ----------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Syntax {
    Rust,
    Js,
    Css,
    Html,
    Hash,
}

fn syntax_of(path: &str) -> Option<Syntax> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "rs" => Some(Syntax::Rust),
        "js" | "mjs" | "cjs" => Some(Syntax::Js),
        "css" => Some(Syntax::Css),
        "html" => Some(Syntax::Html),
        "sh" | "toml" | "yml" | "yaml" | "py" => Some(Syntax::Hash),
        _ if name == "Makefile" || name == "run" => Some(Syntax::Hash),
        _ => None,
    }
}

/// A file split into what is comment and what is code, line by line (1-based): string and
/// character literals are dropped from both, so text inside a string is neither.
#[derive(Default, Debug)]
struct Split {
    comments: BTreeMap<usize, String>,
    code: BTreeMap<usize, String>,
}

impl Split {
    fn push(map: &mut BTreeMap<usize, String>, line: usize, c: char) {
        map.entry(line).or_default().push(c);
    }
}

fn split(text: &str, syntax: Syntax) -> Split {
    match syntax {
        Syntax::Hash => split_hash(text),
        Syntax::Html => split_html(text),
        _ => split_c(text, syntax),
    }
}

/// `#` comments: a `#` outside quotes at the start of a line or after whitespace.
fn split_hash(text: &str) -> Split {
    let mut out = Split::default();
    for (i, line) in text.lines().enumerate() {
        let mut quote = None;
        let mut prev = ' ';
        for (at, c) in line.char_indices() {
            match quote {
                Some(q) if c == q && prev != '\\' => quote = None,
                Some(_) => {}
                None if c == '"' || c == '\'' => quote = Some(c),
                None if c == '#' && prev.is_whitespace() => {
                    out.comments.insert(i + 1, line[at + 1..].to_string());
                    break;
                }
                None => Split::push(&mut out.code, i + 1, c),
            }
            prev = c;
        }
    }
    out
}

/// `<!-- … -->` comments, and `/* … */` inside `<style>` (the CSS a page carries inline).
fn split_html(text: &str) -> Split {
    let mut out = Split::default();
    let mut line = 1;
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        line += rest[..start].matches('\n').count();
        let body = &rest[start + 4..];
        let end = body.find("-->").unwrap_or(body.len());
        for (k, l) in body[..end].split('\n').enumerate() {
            out.comments.insert(line + k, l.to_string());
        }
        line += body[..end].matches('\n').count();
        rest = &body[end..];
    }
    let mut offset_line = 1;
    let mut rest = text;
    while let Some(start) = rest.find("<style") {
        offset_line += rest[..start].matches('\n').count();
        let body = &rest[start..];
        let end = body.find("</style>").unwrap_or(body.len());
        let css = split_c(&body[..end], Syntax::Css);
        for (l, c) in css.comments {
            out.comments.insert(offset_line + l - 1, c);
        }
        offset_line += body[..end].matches('\n').count();
        rest = &body[end..];
    }
    out
}

/// Rust, JavaScript and CSS: `//` (not CSS) and `/* */` comments (nested in Rust), strings
/// (`"…"`, Rust raw strings, JavaScript `'…'` and template literals), Rust character literals
/// and JavaScript regular expression literals. One loop over the characters: its cases are the
/// lexer's states and read best side by side.
#[allow(clippy::too_many_lines)]
fn split_c(text: &str, syntax: Syntax) -> Split {
    let mut out = Split::default();
    let cs: Vec<char> = text.chars().collect();
    let mut line = 1;
    let mut i = 0;
    // The last code character that is not whitespace (to tell a JS regex from a division).
    let mut last = '\n';
    let at = |k: usize| cs.get(k).copied().unwrap_or('\0');
    while i < cs.len() {
        let c = cs[i];
        if c == '\n' {
            line += 1;
            i += 1;
            continue;
        }
        // Line comment.
        if c == '/' && at(i + 1) == '/' && syntax != Syntax::Css {
            i += 2;
            while i < cs.len() && cs[i] != '\n' {
                Split::push(&mut out.comments, line, cs[i]);
                i += 1;
            }
            out.comments.entry(line).or_default();
            continue;
        }
        // Block comment.
        if c == '/' && at(i + 1) == '*' {
            let mut depth = 1;
            i += 2;
            while i < cs.len() && depth > 0 {
                if cs[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    continue;
                }
                if syntax == Syntax::Rust && cs[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                    continue;
                }
                if cs[i] == '\n' {
                    line += 1;
                } else {
                    Split::push(&mut out.comments, line, cs[i]);
                }
                i += 1;
            }
            continue;
        }
        let ident_before = i > 0 && (cs[i - 1].is_alphanumeric() || cs[i - 1] == '_');
        // Rust raw strings: r"…", r#"…"#, br"…".
        if syntax == Syntax::Rust && c == 'r' && (!ident_before || (i == 1 || cs[i - 1] == 'b')) {
            let mut k = i + 1;
            while at(k) == '#' {
                k += 1;
            }
            if at(k) == '"' && (!ident_before || cs[i - 1] == 'b') {
                let hashes = k - i - 1;
                i = k + 1;
                while i < cs.len() {
                    if cs[i] == '"' && (0..hashes).all(|h| at(i + 1 + h) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    if cs[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                Split::push(&mut out.code, line, '"');
                last = '"';
                continue;
            }
        }
        // Strings.
        let js_quote = syntax != Syntax::Rust && (c == '\'' || c == '`');
        if c == '"' || js_quote {
            i += 1;
            while i < cs.len() && cs[i] != c {
                if cs[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                    // An unterminated '…' or "…" in JavaScript or CSS ends at the line's end.
                    if syntax != Syntax::Rust && c != '`' {
                        break;
                    }
                }
                i += 1;
            }
            i += 1;
            Split::push(&mut out.code, line, '"');
            last = '"';
            continue;
        }
        // Rust character literals (a lifetime is left alone).
        if syntax == Syntax::Rust && c == '\'' {
            if at(i + 1) == '\\' {
                let mut k = i + 2;
                while k < cs.len() && cs[k] != '\'' && cs[k] != '\n' {
                    k += 1;
                }
                i = k + 1;
                continue;
            }
            if at(i + 2) == '\'' {
                i += 3;
                continue;
            }
        }
        // JavaScript regular expression literals.
        if syntax == Syntax::Js && c == '/' && "(,=:[!&|?{};+-*%<>~^\n".contains(last) {
            let mut k = i + 1;
            let mut class = false;
            while k < cs.len() && cs[k] != '\n' {
                match cs[k] {
                    '\\' => k += 1,
                    '[' => class = true,
                    ']' => class = false,
                    '/' if !class => break,
                    _ => {}
                }
                k += 1;
            }
            if at(k) == '/' {
                i = k + 1;
                last = '/';
                continue;
            }
        }
        Split::push(&mut out.code, line, c);
        if !c.is_whitespace() {
            last = c;
        }
        i += 1;
    }
    out
}

// ---- check a: tracker numbers in comments ------------------------------------------------

/// A tracker reference: the word "issue" or "issues" (any case), an optional `#`, a number.
fn issue_reference(comment: &str) -> Option<String> {
    let lower = comment.to_lowercase();
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(k) = lower[from..].find("issue") {
        let start = from + k;
        from = start + 5;
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let mut j = start + 5;
        if bytes.get(j) == Some(&b's') {
            j += 1;
        }
        while bytes.get(j) == Some(&b' ') {
            j += 1;
        }
        if bytes.get(j) == Some(&b'#') {
            j += 1;
        }
        if bytes.get(j).is_some_and(u8::is_ascii_digit) {
            let end = (j..bytes.len())
                .find(|&e| !bytes[e].is_ascii_digit())
                .unwrap_or(bytes.len());
            return Some(comment[start..end].to_string());
        }
    }
    None
}

/// Every tracker number in the comments of `text` (a file at `path`), as `path:line: …`.
fn issue_numbers(path: &str, text: &str) -> Vec<String> {
    let Some(syntax) = syntax_of(path) else {
        return Vec::new();
    };
    split(text, syntax)
        .comments
        .iter()
        .filter_map(|(line, c)| {
            issue_reference(c).map(|found| format!("{path}:{line}: \"{found}\" in a comment"))
        })
        .collect()
}

// ---- check b: measured byte counts in comments -------------------------------------------

/// Words that make a size in a comment the size of something built or shipped (what a
/// measurement would quote), as against a formula's bytes per layer or an input limit.
const SIZE_CONTEXT: &[&str] = &[
    "gzip",
    "brotli",
    "wasm",
    "webassembly",
    "bundle",
    "minif",
    "download",
];

/// Byte counts in `comment`: a number (`240,318`, `3.1`, `~8`) then `B`, `bytes`, `kB`, `KB`,
/// `KiB`, `MB` or `MiB` (`B` after a space only: `175B` is a parameter count).
fn byte_counts(comment: &str) -> Vec<String> {
    let cs: Vec<char> = comment.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let digit_start = cs[i].is_ascii_digit()
            && (i == 0 || !(cs[i - 1].is_alphanumeric() || cs[i - 1] == '_'));
        if !digit_start {
            i += 1;
            continue;
        }
        let start = i;
        while i < cs.len()
            && (cs[i].is_ascii_digit()
                || (matches!(cs[i], ',' | '.' | '_')
                    && cs.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            i += 1;
        }
        let number_end = i;
        let mut j = i;
        let spaced = matches!(cs.get(j), Some(' ' | '\u{a0}' | '\u{202f}' | '\u{2009}'));
        if spaced {
            j += 1;
        }
        let word_end = (j..cs.len())
            .find(|&e| !cs[e].is_ascii_alphabetic())
            .unwrap_or(cs.len());
        let unit: String = cs[j..word_end].iter().collect();
        let rate = cs.get(word_end) == Some(&'/');
        let is_unit = match unit.as_str() {
            "B" => spaced,
            "bytes" | "kB" | "KB" | "KiB" | "MB" | "MiB" => true,
            _ => false,
        };
        if is_unit && !rate {
            let number: String = cs[start..number_end].iter().collect();
            out.push(format!("{number} {unit}"));
        }
        i = word_end.max(i + 1);
    }
    out
}

/// Byte counts in comment paragraphs (consecutive comment lines) that speak of a built or
/// shipped size, as `path:line: …`.
fn measured_sizes(path: &str, text: &str) -> Vec<String> {
    let Some(syntax) = syntax_of(path) else {
        return Vec::new();
    };
    let comments = split(text, syntax).comments;
    let mut paragraphs: Vec<Vec<(usize, &String)>> = Vec::new();
    for (&line, c) in &comments {
        match paragraphs.last_mut() {
            Some(p) if p.last().is_some_and(|(l, _)| l + 1 == line) => p.push((line, c)),
            _ => paragraphs.push(vec![(line, c)]),
        }
    }
    let mut out = Vec::new();
    for p in paragraphs {
        let all: String = p.iter().map(|(_, c)| c.to_lowercase() + " ").collect();
        if !SIZE_CONTEXT.iter().any(|w| all.contains(w)) {
            continue;
        }
        for (line, c) in p {
            for found in byte_counts(c) {
                out.push(format!("{path}:{line}: \"{found}\" in a comment"));
            }
        }
    }
    out
}

// ---- check c: paths named by docs --------------------------------------------------------

const PATH_PREFIXES: &[&str] = &[
    "src/", "crates/", "tests/", "www/", "docs/", "bench/", "scripts/", ".ci/", ".cargo/",
];
const PATH_SUFFIXES: &[&str] = &[".rs", ".md", ".mjs", ".toml", ".html"];

/// `a/{b,c}/d` → `a/b/d`, `a/c/d` (one level of braces at a time, repeatedly).
fn expand_braces(pattern: &str) -> Vec<String> {
    let (Some(open), Some(close)) = (pattern.find('{'), pattern.find('}')) else {
        return vec![pattern.to_string()];
    };
    if close < open {
        return vec![pattern.to_string()];
    }
    pattern[open + 1..close]
        .split(',')
        .flat_map(|alt| {
            expand_braces(&format!(
                "{}{alt}{}",
                &pattern[..open],
                &pattern[close + 1..]
            ))
        })
        .collect()
}

/// Shell-style match of one path against a pattern with `*` (within a segment), `**` (any
/// segments) and `?`.
fn glob_match(pattern: &str, path: &str) -> bool {
    fn m(p: &[u8], s: &[u8]) -> bool {
        match (p.first(), s.first()) {
            (None, None) => true,
            (Some(b'*'), _) if p.get(1) == Some(&b'*') => {
                (0..=s.len()).any(|k| m(&p[2..], &s[k..]))
            }
            (Some(b'*'), _) => (0..=s.len())
                .take_while(|&k| k == 0 || s[k - 1] != b'/')
                .any(|k| m(&p[1..], &s[k..])),
            (Some(b'?'), Some(&c)) if c != b'/' => m(&p[1..], &s[1..]),
            (Some(a), Some(b)) if a == b => m(&p[1..], &s[1..]),
            _ => false,
        }
    }
    m(pattern.as_bytes(), path.as_bytes())
}

/// Whether `path` (a file, a directory with or without its `/`, or a glob) names something in
/// `files` (every file of the tree, relative and `/`-separated).
fn exists(path: &str, files: &BTreeSet<String>) -> bool {
    expand_braces(path).iter().all(|p| {
        let p = p.trim_end_matches('/');
        if p.contains('*') || p.contains('?') {
            return files.iter().any(|f| glob_match(p, f));
        }
        if files.contains(p) {
            return true;
        }
        let dir = format!("{p}/");
        files
            .range(dir.clone()..)
            .next()
            .is_some_and(|f| f.starts_with(&dir))
    })
}

/// `./a/../b` → `b`.
fn normalise(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let mut out = parts.join("/");
    if path.ends_with('/') && !out.is_empty() {
        out.push('/');
    }
    out
}

/// A word of a code span cut to the path it names: no `path:line`, `path::item` or `#anchor`
/// suffix, no surrounding punctuation. `None` when the word does not look like a repo path.
fn path_in(word: &str, in_fence: bool) -> Option<String> {
    if word.contains(['<', '>', '$', '@', '…']) || word.contains("://") {
        return None;
    }
    let w = word.trim_matches(|c: char| "()[],;\"'`".contains(c));
    let w = w.split("::").next()?;
    let w = w.split(['#', '?', ':']).next()?;
    let w = w.trim_end_matches(['.', ',']);
    let w = w.strip_prefix("./").unwrap_or(w);
    let prefixed = PATH_PREFIXES.iter().any(|p| w.starts_with(p));
    let bare =
        !w.contains('/') && PATH_SUFFIXES.iter().any(|s| w.ends_with(s)) && !w.starts_with('.');
    if prefixed || (bare && !in_fence) {
        Some(w.to_string())
    } else {
        None
    }
}

/// Docs that show another project's tree (a reader's own site around the embedded page); the
/// paths under these prefixes there are the reader's, not this repository's.
const OTHER_TREES: &[(&str, &[&str])] = &[(
    "docs/embedding.md",
    &["src/scaling/", "src/guide/", "src/css/", "docs/"],
)];

/// Paths in a markdown document: the words of its code spans and fenced blocks that look like
/// repo paths, and the targets of its relative links, each with its line.
fn doc_paths(doc: &str, text: &str) -> Vec<(usize, String)> {
    let dir = doc.rsplit_once('/').map_or("", |(d, _)| d);
    let mut out = Vec::new();
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            out.extend(
                line.split_whitespace()
                    .filter_map(|w| path_in(w, true))
                    .map(|p| (n, p)),
            );
            continue;
        }
        // Code spans.
        let mut rest = line;
        while let Some(open) = rest.find('`') {
            let ticks = rest[open..].chars().take_while(|&c| c == '`').count();
            let body = &rest[open + ticks..];
            let Some(close) = body.find(&"`".repeat(ticks)) else {
                break;
            };
            for w in body[..close].split_whitespace() {
                if let Some(p) = path_in(w, false) {
                    out.push((n, p));
                }
            }
            rest = &body[close + ticks..];
        }
        // Relative links `[text](target)`, outside code spans.
        let no_code: String = line
            .split('`')
            .enumerate()
            .filter(|(k, _)| k % 2 == 0)
            .map(|(_, s)| s)
            .collect();
        let mut rest = no_code.as_str();
        while let Some(k) = rest.find("](") {
            let body = &rest[k + 2..];
            let end = body.find(')').unwrap_or(body.len());
            let target = body[..end].split_whitespace().next().unwrap_or("");
            let target = target.split('#').next().unwrap_or("");
            if !target.is_empty() && !target.contains(':') {
                let joined = if dir.is_empty() {
                    target.to_string()
                } else {
                    format!("{dir}/{target}")
                };
                out.push((n, format!("./{}", normalise(&joined))));
            }
            rest = &body[end..];
        }
    }
    out
}

/// Every path `text` (the doc at `doc`) names that is not in `files`, as `doc:line: …`. A code
/// span's path is read from the root, then from the doc's directory; a bare file name (no `/`)
/// names a file of that name anywhere; a path a crate's row names may be read from that crate
/// (`tests/web.rs` of crates/web); a link is read from the doc's directory.
fn stale_paths(doc: &str, text: &str, files: &BTreeSet<String>) -> Vec<String> {
    let dir = doc.rsplit_once('/').map_or("", |(d, _)| d);
    doc_paths(doc, text)
        .into_iter()
        .filter(|(_, p)| {
            if let Some(link) = p.strip_prefix("./") {
                return !exists(link, files);
            }
            if !p.contains('/') {
                let bare = format!("/{p}");
                return !files.iter().any(|f| f == p || f.ends_with(&bare)) && !p.contains('*');
            }
            let foreign = OTHER_TREES
                .iter()
                .any(|(d, prefixes)| *d == doc && prefixes.iter().any(|x| p.starts_with(x)));
            let crates: BTreeSet<&str> = files
                .iter()
                .filter_map(|f| f.strip_prefix("crates/")?.split_once('/').map(|(c, _)| c))
                .collect();
            !foreign
                && !exists(p, files)
                && !exists(&normalise(&format!("{dir}/{p}")), files)
                && !crates
                    .iter()
                    .any(|c| exists(&format!("crates/{c}/{p}"), files))
        })
        .map(|(n, p)| format!("{doc}:{n}: `{}` does not exist", p.trim_start_matches("./")))
        .collect()
}

/// The docs whose paths are checked (the changelog is a record of past changes, left out).
fn docs() -> Vec<String> {
    let mut docs: Vec<String> = ["README.md", "ENGINEERING.md", "PRODUCT.md"]
        .iter()
        .filter(|f| root().join(f).is_file())
        .map(|f| f.to_string())
        .collect();
    docs.extend(
        files_under(&["docs"])
            .into_iter()
            .filter(|f| f.ends_with(".md")),
    );
    docs
}

// ---- check d: docs/url.md's key tables ---------------------------------------------------

/// The keys of every table whose header's first cell is `key`: the backticked names of each
/// row's first cell.
fn url_key_rows(md: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_key_table = false;
    for (i, line) in md.lines().enumerate() {
        let t = line.trim();
        if !t.starts_with('|') {
            in_key_table = false;
            continue;
        }
        let first = t[1..].split('|').next().unwrap_or("").trim();
        if first == "key" {
            in_key_table = true;
            continue;
        }
        if !in_key_table || first.starts_with("---") {
            continue;
        }
        for (k, part) in first.split('`').enumerate() {
            if k % 2 == 1 && !part.is_empty() {
                out.push((i + 1, part.to_string()));
            }
        }
    }
    out
}

/// Where the key tables differ from `keys`: a key with no row, a row with no key, a key listed
/// twice.
fn key_table_problems(rows: &[(usize, String)], keys: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for (line, name) in rows {
        if let Some(first) = seen.insert(name.as_str(), *line) {
            out.push(format!(
                "docs/url.md:{line}: `{name}` listed again (first at line {first})"
            ));
        }
        if !keys.contains(&name.as_str()) {
            out.push(format!(
                "docs/url.md:{line}: `{name}` is not a key of the scenario"
            ));
        }
    }
    for key in keys {
        if !seen.contains_key(key) {
            out.push(format!("docs/url.md: the key `{key}` has no row"));
        }
    }
    out
}

// ---- check e: module cycles among siblings -----------------------------------------------

/// A crate's module files: `(path, module path from the crate root)`. `lib.rs` (or `main.rs`
/// when there is no `lib.rs`) is the root; `a.rs` and `a/mod.rs` are module `a`.
fn module_paths(src: &str, files: &[String]) -> Vec<(String, Vec<String>)> {
    let has_lib = files.iter().any(|f| *f == format!("{src}/lib.rs"));
    files
        .iter()
        .filter_map(|f| {
            let rel = f.strip_prefix(&format!("{src}/"))?.strip_suffix(".rs")?;
            let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
            if segs.len() == 1 && (segs[0] == "lib" || (segs[0] == "main" && !has_lib)) {
                return Some((f.clone(), Vec::new()));
            }
            if segs.len() == 1 && segs[0] == "main" {
                return None; // a binary beside the library: a crate of its own
            }
            if segs.last().is_some_and(|s| s == "mod") {
                segs.pop();
            }
            Some((f.clone(), segs))
        })
        .collect()
}

/// The paths a piece of code names through `crate::`, `super::` and `self::` (with `{…}`
/// groups expanded), resolved to absolute module paths, each with its line. `module` is the
/// file's module path; inline `mod name { … }` blocks are followed, and `mod tests` blocks
/// (unit tests) are skipped.
fn named_paths(code: &BTreeMap<usize, String>, module: &[String]) -> Vec<(usize, Vec<String>)> {
    // The code as one token stream of (line, token).
    let mut tokens: Vec<(usize, String)> = Vec::new();
    for (&line, text) in code {
        let mut cur = String::new();
        for c in text.chars() {
            if c.is_alphanumeric() || c == '_' || c == '$' {
                cur.push(c);
            } else {
                if !cur.is_empty() {
                    tokens.push((line, std::mem::take(&mut cur)));
                }
                if !c.is_whitespace() {
                    tokens.push((line, c.to_string()));
                }
            }
        }
        if !cur.is_empty() {
            tokens.push((line, cur));
        }
    }
    let tok = |k: usize| tokens.get(k).map_or("", |t| t.1.as_str());
    let mut out = Vec::new();
    // Inline modules: (name, brace depth at which it closes); None marks a skipped `tests`.
    let mut inline: Vec<(Option<String>, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut k = 0;
    while k < tokens.len() {
        let t = tok(k);
        if t == "{" {
            depth += 1;
        } else if t == "}" {
            depth = depth.saturating_sub(1);
            if inline.last().is_some_and(|(_, d)| *d == depth) {
                inline.pop();
            }
        } else if t == "mod" && tok(k + 2) == "{" {
            let name = tok(k + 1).to_string();
            inline.push(((name != "tests").then_some(name), depth));
        }
        let skipped = inline.iter().any(|(n, _)| n.is_none());
        let starts = matches!(t, "crate" | "super" | "self")
            && tok(k + 1) == ":"
            && tok(k + 2) == ":"
            && (k == 0
                || (tok(k - 1) != "$" && !(tok(k - 1) == ":" && tok(k.wrapping_sub(2)) == ":")));
        if starts && !skipped {
            let mut here: Vec<String> = module.to_vec();
            here.extend(inline.iter().filter_map(|(n, _)| n.clone()));
            // Resolve the prefix chain (`super::super::…`).
            let mut base = if t == "crate" {
                Vec::new()
            } else {
                here.clone()
            };
            let mut j = k;
            while matches!(tok(j), "super" | "self" | "crate")
                && tok(j + 1) == ":"
                && tok(j + 2) == ":"
            {
                if tok(j) == "super" {
                    base.pop();
                }
                j += 3;
            }
            let line = tokens[k].0;
            for tail in path_tails(&tokens, j) {
                let mut p = base.clone();
                p.extend(tail);
                out.push((line, p));
            }
            k = j;
            continue;
        }
        k += 1;
    }
    out
}

/// The segments after a path's prefix, starting at token `j`: `a::b` → `[a, b]`, `{a, b::c}` →
/// `[a]`, `[b, c]`, `a::{b, c}` → `[a, b]`, `[a, c]` (a group's own groups are expanded too).
fn path_tails(tokens: &[(usize, String)], mut j: usize) -> Vec<Vec<String>> {
    let tok = |k: usize| tokens.get(k).map_or("", |t| t.1.as_str());
    let mut segs = Vec::new();
    loop {
        let t = tok(j);
        if t == "{" {
            // Split the group at top-level commas.
            let mut tails = Vec::new();
            let mut level = 0;
            let mut start = j + 1;
            let mut k = j + 1;
            while k < tokens.len() {
                match tok(k) {
                    "{" => level += 1,
                    "}" if level == 0 => break,
                    "}" => level -= 1,
                    "," if level == 0 => {
                        tails.extend(path_tails(tokens, start));
                        start = k + 1;
                    }
                    _ => {}
                }
                k += 1;
            }
            if start < k {
                tails.extend(path_tails(tokens, start));
            }
            return tails
                .into_iter()
                .map(|t| segs.iter().cloned().chain(t).collect())
                .collect();
        }
        if t.is_empty() || !(t.chars().all(|c| c.is_alphanumeric() || c == '_')) {
            break;
        }
        segs.push(t.to_string());
        if tok(j + 1) == ":" && tok(j + 2) == ":" {
            j += 3;
        } else {
            break;
        }
    }
    if segs.is_empty() {
        Vec::new()
    } else {
        vec![segs]
    }
}

/// Cycles among sibling modules of the crates in `files` (`(path, text)` of every `.rs` file
/// under each `src` in `srcs`): for each module directory, the graph "a names sibling b"
/// (anything inside `a`, its submodules included, naming `b` or anything inside it) and every
/// strongly connected part of more than one module, with the line of each edge.
fn module_cycles(srcs: &[&str], files: &[(String, String)]) -> Vec<String> {
    let paths: Vec<String> = files.iter().map(|(p, _)| p.clone()).collect();
    let mut out = Vec::new();
    for src in srcs {
        let modules = module_paths(src, &paths);
        let known: BTreeSet<Vec<String>> = modules.iter().map(|(_, m)| m.clone()).collect();
        // (parent module, from, to) → first place it is named.
        let mut edges: BTreeMap<(Vec<String>, String, String), String> = BTreeMap::new();
        for (path, module) in &modules {
            let text = &files.iter().find(|(p, _)| p == path).unwrap().1;
            let code = split_c(text, Syntax::Rust).code;
            for (line, target) in named_paths(&code, module) {
                for depth in 0..module.len() {
                    let parent = &module[..depth];
                    if target.len() <= depth || target[..depth] != *parent {
                        break;
                    }
                    let (from, to) = (&module[depth], &target[depth]);
                    let mut sibling = parent.to_vec();
                    sibling.push(to.clone());
                    if from != to && known.contains(&sibling) {
                        edges
                            .entry((parent.to_vec(), from.clone(), to.clone()))
                            .or_insert_with(|| format!("{path}:{line}"));
                    }
                }
            }
        }
        let parents: BTreeSet<&Vec<String>> = edges.keys().map(|(p, _, _)| p).collect();
        for parent in parents {
            let graph: BTreeMap<&str, Vec<&str>> = edges
                .keys()
                .filter(|(p, _, _)| p == parent)
                .fold(BTreeMap::new(), |mut g, (_, a, b)| {
                    g.entry(a.as_str()).or_default().push(b.as_str());
                    g
                });
            for cycle in cycles(&graph) {
                let mut shown = Vec::new();
                for w in cycle.windows(2) {
                    let at = &edges[&(parent.clone(), w[0].to_string(), w[1].to_string())];
                    shown.push(format!("{} -> {} ({at})", w[0], w[1]));
                }
                let dir = if parent.is_empty() {
                    src.to_string()
                } else {
                    format!("{src}/{}", parent.join("/"))
                };
                out.push(format!("{dir}: {}", shown.join(", ")));
            }
        }
    }
    out
}

/// One cycle (first node repeated at the end) per strongly connected part of more than one
/// node (Tarjan's algorithm, then a path back to the part's first node).
fn cycles<'a>(graph: &BTreeMap<&'a str, Vec<&'a str>>) -> Vec<Vec<&'a str>> {
    struct T<'a, 'g> {
        graph: &'g BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        parts: Vec<Vec<&'a str>>,
    }
    fn visit<'a>(t: &mut T<'a, '_>, v: &'a str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        for &w in t.graph.get(v).map_or(&[][..], |x| x.as_slice()) {
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.stack.contains(&w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut part = Vec::new();
            while let Some(w) = t.stack.pop() {
                part.push(w);
                if w == v {
                    break;
                }
            }
            if part.len() > 1 {
                t.parts.push(part);
            }
        }
    }
    let mut t = T {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        parts: Vec::new(),
    };
    for &v in graph.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    // In each part, a breadth-first path from its least node back to itself.
    t.parts
        .into_iter()
        .map(|part| {
            let start = *part.iter().min().unwrap();
            let mut prev: BTreeMap<&str, &str> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            'search: while let Some(v) = queue.pop_front() {
                for &w in graph.get(v).map_or(&[][..], |x| x.as_slice()) {
                    if !part.contains(&w) {
                        continue;
                    }
                    if w == start {
                        prev.insert("\0end", v);
                        break 'search;
                    }
                    if let std::collections::btree_map::Entry::Vacant(e) = prev.entry(w) {
                        e.insert(v);
                        queue.push_back(w);
                    }
                }
            }
            let mut path = vec![start];
            let mut v = prev["\0end"];
            while v != start {
                path.push(v);
                v = prev[v];
            }
            path.push(start);
            path.reverse();
            path
        })
        .collect()
}

// ---- check f: copied files among the tests -----------------------------------------------

/// The project's own launch scripts and recipe, test input for the importers.
const IMPORT_SCRIPTS: &str = "tests/import-scripts";

/// Files among the tests that look copied: anything under a `tests/fixtures` folder, and any
/// configuration file (`.json`, `.toml`, `.yaml`, `.yml`) under `tests/`. Published configs
/// are read from the corpus beside the project, never carried in it.
fn carried_copies(files: &[String]) -> Vec<String> {
    files
        .iter()
        .filter(|f| {
            f.starts_with("tests/")
                && (f.starts_with("tests/fixtures/")
                    || [".json", ".toml", ".yaml", ".yml"]
                        .iter()
                        .any(|e| f.ends_with(e)))
        })
        .map(|f| {
            format!(
                "{f}: a copied file (published configs are read from ../shared/fixtures/import)"
            )
        })
        .collect()
}

/// A test script whose opening comment (the lines starting `#`, a shebang included) does not
/// say it is the project's own test input.
fn not_own_test_input(path: &str, text: &str) -> Option<String> {
    let head = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches(['#', '!']).trim())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    (!head.contains("the project's own test input"))
        .then(|| format!("{path}:1: no opening comment saying it is the project's own test input"))
}

fn rust_sources() -> (Vec<String>, Vec<(String, String)>) {
    let mut srcs = vec!["src".to_string()];
    srcs.extend(
        files_under(&["crates"])
            .into_iter()
            .filter_map(|f| {
                f.strip_suffix("/src/lib.rs")
                    .or(f.strip_suffix("/src/main.rs"))
                    .map(|c| format!("{c}/src"))
            })
            .collect::<BTreeSet<_>>(),
    );
    let files = files_under(&["src", "crates"])
        .into_iter()
        .filter(|f| f.ends_with(".rs") && srcs.iter().any(|s| f.starts_with(&format!("{s}/"))))
        .map(|f| {
            let text = read(&f);
            (f, text)
        })
        .collect();
    (srcs, files)
}

// ---- the real tree -----------------------------------------------------------------------

fn fail_on(what: &str, found: Vec<String>) {
    assert!(
        found.is_empty(),
        "{what}: {} found\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn no_tracker_numbers_in_code_comments() {
    let found = code_files()
        .iter()
        .flat_map(|f| issue_numbers(f, &read(f)))
        .collect();
    fail_on(
        "tracker numbers in code comments (the history goes in the commit body)",
        found,
    );
}

#[test]
fn no_measured_sizes_in_code_comments() {
    let found = code_files()
        .iter()
        .flat_map(|f| measured_sizes(f, &read(f)))
        .collect();
    fail_on(
        "measured sizes in code comments (they go stale; docs/performance.md has the latest)",
        found,
    );
}

#[test]
fn every_path_a_doc_names_exists() {
    let files: BTreeSet<String> = files_under(&[""]).into_iter().collect();
    assert!(files.contains("tests/import-scripts/gpt3_175b_flags.sh"));
    let found = docs()
        .iter()
        .flat_map(|d| stale_paths(d, &read(d), &files))
        .collect();
    fail_on("paths named by docs that do not exist", found);
}

#[test]
fn url_md_lists_every_key_once() {
    // `v` (the format version) and `preset` (the base scenario) are read by `decode` before
    // the keys of `Key::ALL`, which a link's values set.
    let mut keys: Vec<&str> = vec!["v", "preset"];
    keys.extend(Key::ALL.iter().map(|k| k.name()));
    let rows = url_key_rows(&read("docs/url.md"));
    fail_on(
        "docs/url.md's key tables against Key::ALL",
        key_table_problems(&rows, &keys),
    );
}

#[test]
fn no_module_cycles_among_siblings() {
    let (srcs, files) = rust_sources();
    let srcs: Vec<&str> = srcs.iter().map(String::as_str).collect();
    fail_on(
        "sibling modules that import each other",
        module_cycles(&srcs, &files),
    );
}

#[test]
fn the_tests_carry_no_copied_config_and_their_scripts_are_the_projects() {
    fail_on(
        "copied files among the tests",
        carried_copies(&files_under(&["tests"])),
    );
    let scripts = files_under(&[IMPORT_SCRIPTS]);
    assert!(scripts.len() >= 5, "{scripts:?}");
    fail_on(
        "test scripts that do not say they are the project's own",
        scripts
            .iter()
            .filter_map(|f| not_own_test_input(f, &read(f)))
            .collect(),
    );
}

// ---- the checks catch what they look for -------------------------------------------------

#[test]
fn copied_configs_and_unmarked_scripts_are_found() {
    let files: Vec<String> = [
        "tests/fixtures/import/SOURCES.md",
        "tests/core/llama.config.json",
        "tests/e2e/launcher.yaml",
        "tests/core/import.rs",
        "tests/import-scripts/a.sh",
        "crates/cli/tests/snapshots/cli/machines.json",
    ]
    .map(String::from)
    .to_vec();
    assert_eq!(
        carried_copies(&files)
            .iter()
            .map(|p| p.split(':').next().unwrap())
            .collect::<Vec<_>>(),
        [
            "tests/fixtures/import/SOURCES.md",
            "tests/core/llama.config.json",
            "tests/e2e/launcher.yaml"
        ]
    );
    let own =
        "#!/bin/bash\n# The project's own test input, written for\n# its tests.\n--num-layers 8\n";
    assert_eq!(not_own_test_input("a.sh", own), None);
    let py = "# The project's own\n# test input.\nfrom x import y\n";
    assert_eq!(not_own_test_input("a.py", py), None);
    // Said below the code, or not at all: not an opening comment.
    for text in [
        "#!/bin/bash\n--num-layers 8\n# The project's own test input\n",
        "# Copyright NVIDIA\n--num-layers 8\n",
        "",
    ] {
        assert_eq!(
            not_own_test_input("a.sh", text).as_deref(),
            Some("a.sh:1: no opening comment saying it is the project's own test input"),
            "{text}"
        );
    }
}

#[test]
fn tracker_numbers_are_found_in_every_comment_syntax() {
    let planted = [
        ("a.rs", "fn f() {} // see issue 12\n"),
        ("a.rs", "/// Issues 22 and 23 moved this.\nfn f() {}\n"),
        ("a.rs", "/* outer /* issue #5 */ */ fn f() {}\n"),
        ("a.mjs", "const x = 1; // issue 7\n"),
        ("a.mjs", "/*\n * since issue 3\n */\n"),
        ("a.css", "a { color: red; } /* issue 9 */\n"),
        ("a.html", "<p>x</p>\n<!-- issue 4 -->\n"),
        ("Makefile", "test:\n\techo hi # issue 8\n"),
        ("a.toml", "# issue 2\nx = 1\n"),
    ];
    for (path, text) in planted {
        assert_eq!(issue_numbers(path, text).len(), 1, "{path}: {text}");
    }
    assert_eq!(
        issue_numbers("a.rs", "//! x\n// y\n/// see issue 41\nfn f() {}\n"),
        ["a.rs:3: \"issue 41\" in a comment"]
    );
    let clean = [
        (
            "a.rs",
            "fn f() { let s = \"// issue 12\"; } // an issue, not a number\n",
        ),
        (
            "a.rs",
            "let r = r#\"// issue 12 \"inside\"\"#; // tissue 3\n",
        ),
        ("a.rs", "let c = '\"'; let s = \"issue 1\"; // ok\n"),
        (
            "a.mjs",
            "const s = 'issue 12'; const t = `// issue 3`; // fine\n",
        ),
        ("a.mjs", "const re = /\"/; // the issues list\n"),
        ("a.sh", "echo \"# issue 5\"\n"),
        (
            "a.rs",
            "fn lifetime<'a>(x: &'a str) {} // a issue-free comment\n",
        ),
    ];
    for (path, text) in clean {
        assert_eq!(
            issue_numbers(path, text),
            Vec::<String>::new(),
            "{path}: {text}"
        );
    }
}

#[test]
fn measured_sizes_are_found_and_formula_bytes_are_not() {
    let planted = "// The wasm is 240,318 B gzipped,\n// 12 KB more than before.\nfn f() {}\n";
    assert_eq!(
        measured_sizes("a.rs", planted),
        [
            "a.rs:1: \"240,318 B\" in a comment",
            "a.rs:2: \"12 KB\" in a comment"
        ]
    );
    assert_eq!(measured_sizes("a.mjs", "// bundle: 3.1 KiB\n").len(), 1);
    assert_eq!(
        measured_sizes("a.toml", "# 189178 bytes of wasm\n").len(),
        1
    );
    let clean = [
        "/// TP traffic: 352,321,536 B per layer per microbatch.\n",
        "// 50 GB/s over the network; 175B parameters.\n",
        "// The decoder reads 16 KiB of the query.\n",
        "let s = \"the wasm is 240,318 B gzipped\";\n",
    ];
    for text in clean {
        assert_eq!(measured_sizes("a.rs", text), Vec::<String>::new(), "{text}");
    }
}

#[test]
fn stale_paths_are_found_in_code_spans_fences_and_links() {
    let files: BTreeSet<String> = [
        "src/lib.rs",
        "src/panel/mod.rs",
        "crates/model/src/step.rs",
        "docs/url.md",
        "docs/model/laws.md",
        "tests/core/main.rs",
        "www/learn/en.html",
        "www/learn/zh.html",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let doc = "\
See `src/lib.rs:12`, `src/panel/` and `crates/model/src/*.rs`, `www/learn/{en,zh}.html`,
`tests/core/main.rs::layers` and [the URL](url.md#keys), [up](../docs/url.md).
Bare names: `step.rs`, `url.md`; commands: `cargo test --test core layouts::`.
```sh
cargo test -p scaling-model   # crates/model/src/step.rs
```
";
    assert_eq!(stale_paths("docs/a.md", doc, &files), Vec::<String>::new());
    let planted = "\
The checklist is `src/checklist.rs`; the glue `src/web/*`; `tests/layers.rs::x`.
Also [a chapter](model/missing.md) and `gone.rs`.
```sh
node scripts/missing.mjs
```
";
    assert_eq!(
        stale_paths("docs/a.md", planted, &files),
        [
            "docs/a.md:1: `src/checklist.rs` does not exist",
            "docs/a.md:1: `src/web/*` does not exist",
            "docs/a.md:1: `tests/layers.rs` does not exist",
            "docs/a.md:2: `gone.rs` does not exist",
            "docs/a.md:2: `docs/model/missing.md` does not exist",
            "docs/a.md:4: `scripts/missing.mjs` does not exist",
        ]
    );
}

#[test]
fn url_key_tables_are_compared_with_the_keys() {
    let md = "\
| key | meaning |
|---|---|
| `v` | version |
| `f` | serial fraction |

Text.

| key | meaning | model.md |
|---|---|---|
| `b` | batch | §2 |
| `f` | again | |
| `zz` | no such key | |
";
    let rows = url_key_rows(md);
    assert_eq!(rows.len(), 5);
    assert_eq!(
        key_table_problems(&rows, &["v", "f", "b", "n"]),
        [
            "docs/url.md:11: `f` listed again (first at line 4)",
            "docs/url.md:12: `zz` is not a key of the scenario",
            "docs/url.md: the key `n` has no row",
        ]
    );
    let clean = url_key_rows("| key | x |\n|---|---|\n| `v` | y |\n| `f` | z |\n");
    assert!(key_table_problems(&clean, &["v", "f"]).is_empty());
}

#[test]
fn sibling_cycles_are_found_with_their_lines() {
    let f = |p: &str, t: &str| (p.to_string(), t.to_string());
    let files = vec![
        f("src/lib.rs", "pub mod model;\npub mod panel;\n"),
        f("src/model/mod.rs", "mod llm;\nmod layouts;\nmod walls;\n"),
        f("src/model/llm.rs", "use super::{walls, layouts::Search};\n"),
        f("src/model/layouts.rs", "// crate::model::walls in a comment is not a use\nfn f() {\n    crate::model::llm::g();\n}\n"),
        f("src/model/walls.rs", "pub fn w() {}\n#[cfg(test)]\nmod tests {\n    use super::super::llm;\n}\n"),
        f("src/panel/mod.rs", "use crate::model::walls::w;\n"),
    ];
    assert_eq!(
        module_cycles(&["src"], &files),
        ["src/model: layouts -> llm (src/model/layouts.rs:3), llm -> layouts (src/model/llm.rs:1)"]
    );
    // Without layouts → llm the graph has no cycle; the unit test's use does not count.
    let mut acyclic = files.clone();
    acyclic[3].1 = "fn f() {}\n".to_string();
    assert!(module_cycles(&["src"], &acyclic).is_empty());
    // A submodule's use counts for its parent: panel/x.rs → model, model/llm.rs → panel.
    let files = vec![
        f("src/lib.rs", "mod model;\nmod panel;\n"),
        f("src/model.rs", "mod llm;\n"),
        f("src/model/llm.rs", "use crate::panel::x;\n"),
        f("src/panel/mod.rs", "mod x;\n"),
        f("src/panel/x.rs", "use crate::{model::llm::f, text};\n"),
    ];
    assert_eq!(
        module_cycles(&["src"], &files),
        ["src: model -> panel (src/model/llm.rs:1), panel -> model (src/panel/x.rs:1)"]
    );
}
