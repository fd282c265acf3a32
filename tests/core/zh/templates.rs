//! A translated template binds its arguments by position: `{}` takes the next one, `{0}`,
//! `{1}` … the one named (`i18n::fill`). A Chinese sentence that puts its values in another
//! order than the English one must number its slots, or it prints one value where another
//! belongs ("与总参数 P = 0.4% 相差 8B"). This test reads every `trf!` pair in the sources
//! and, for each argument, the symbols and units written next to its slot — `P =`, `MFU`,
//! `FLOP/s`, `GiB` — in each language: a Chinese slot whose neighbour belongs to another
//! argument's slot in English (and not to its own) binds the wrong argument.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "target") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The Rust string literal starting at `text` (just after its opening quote), unescaped, and
/// what follows its closing quote. Handles `\"`, `\\`, `\n` and the line continuation `\`.
fn string_literal(text: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &text[i + 1..])),
            '\\' => match chars.next()?.1 {
                '\n' => {
                    // A continuation: the next line's leading whitespace is not in the string.
                    let rest = &text[i + 2..];
                    let skipped = rest.len() - rest.trim_start().len();
                    for _ in 0..skipped {
                        chars.next();
                    }
                }
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// `(file:line, English, Chinese)` of every `trf!("…", "…", …)` in `source`.
fn templates(file: &str, source: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (at, _) in source.match_indices("trf!(") {
        let rest = source[at + 5..].trim_start();
        let Some(rest) = rest.strip_prefix('"') else {
            continue; // the macro's own definition and doc comments
        };
        let Some((en, rest)) = string_literal(rest) else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix(',') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix('"') else {
            continue;
        };
        let Some((zh, _)) = string_literal(rest) else {
            continue;
        };
        let line = source[..at].matches('\n').count() + 1;
        out.push((format!("{file}:{line}"), en, zh));
    }
    out
}

/// Each slot of `template` in order: `(argument index, text before it, text after it)`, the
/// texts running to the neighbouring slots. `{}` takes the next index, `{n}` index `n`.
fn slots(template: &str) -> Vec<(usize, String, String)> {
    let mut pieces = Vec::new(); // (index, start, end) of each slot
    let mut next = 0;
    let mut from = 0;
    while let Some(open) = template[from..].find('{').map(|o| o + from) {
        let Some(close) = template[open..].find('}').map(|c| c + open) else {
            break;
        };
        let inside = &template[open + 1..close];
        if inside.chars().all(|c| c.is_ascii_digit()) {
            let index = if inside.is_empty() {
                next += 1;
                next - 1
            } else {
                inside.parse().unwrap_or(usize::MAX)
            };
            pieces.push((index, open, close + 1));
            from = close + 1;
        } else {
            from = open + 1;
        }
    }
    (0..pieces.len())
        .map(|i| {
            let (index, start, end) = pieces[i];
            let before_from = if i == 0 { 0 } else { pieces[i - 1].2 };
            let after_to = pieces.get(i + 1).map_or(template.len(), |p| p.1);
            (
                index,
                template[before_from..start].to_string(),
                template[end..after_to].to_string(),
            )
        })
        .collect()
}

/// What is written next to a slot: the ASCII words touching it on one side (up to two, as in
/// `P =`), kept only when they hold a letter or `=` — a symbol or a unit, not a space or a
/// comma.
fn anchor(side: &str, before: bool) -> Option<String> {
    let run: String = if before {
        let rev: String = side.chars().rev().take_while(char::is_ascii).collect();
        rev.chars().rev().collect()
    } else {
        side.chars().take_while(char::is_ascii).collect()
    };
    let words: Vec<&str> = run.split_whitespace().collect();
    let picked = if before {
        words[words.len().saturating_sub(2)..].join(" ")
    } else {
        words.first().map_or(String::new(), |w| w.to_string())
    };
    let picked = picked
        .trim_matches(|c: char| ",;:()[]".contains(c))
        .to_string();
    (picked.chars().any(|c| c.is_ascii_alphabetic() || c == '=')).then_some(picked)
}

/// `(argument, side, anchor)` of every anchored slot of `template`.
fn anchors(template: &str) -> BTreeSet<(usize, bool, String)> {
    let mut out = BTreeSet::new();
    for (index, before, after) in slots(template) {
        if let Some(a) = anchor(&before, true) {
            out.insert((index, true, a));
        }
        if let Some(a) = anchor(&after, false) {
            out.insert((index, false, a));
        }
    }
    out
}

/// The slots of `zh` whose neighbour is another argument's in `en`, and not their own.
fn misbound(en: &str, zh: &str) -> Vec<String> {
    let english = anchors(en);
    anchors(zh)
        .into_iter()
        .filter(|(index, side, a)| {
            !english.contains(&(*index, *side, a.clone()))
                && english
                    .iter()
                    .any(|(other, s, b)| other != index && s == side && b == a)
        })
        .map(|(index, side, a)| {
            let place = if side { "after" } else { "before" };
            format!("argument {index} {place} {a:?}")
        })
        .collect()
}

#[test]
fn no_chinese_template_binds_an_argument_where_english_puts_another() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    sources(&root.join("crates"), &mut files);
    let mut seen = 0;
    let mut wrong = Vec::new();
    for file in &files {
        let source = std::fs::read_to_string(file).unwrap();
        let name = file.strip_prefix(root).unwrap().display().to_string();
        for (at, en, zh) in templates(&name, &source) {
            seen += 1;
            for m in misbound(&en, &zh) {
                wrong.push(format!("{at}: {m}\n    en: {en}\n    zh: {zh}"));
            }
        }
    }
    // The sources hold about 180 translated templates; far fewer means the reader broke.
    assert!(seen > 150, "only {seen} trf! templates read");
    assert!(
        wrong.is_empty(),
        "Chinese templates binding an argument in another's place (number the slots, {{0}} {{1}} …):\n{}",
        wrong.join("\n")
    );
}

/// The checker itself, on the reordered templates it exists for, and on their fixes.
#[test]
fn the_checker_finds_a_reordered_slot_and_accepts_a_numbered_one() {
    let en = "{} — {} off the total parameters P = {}; check the shape or P";
    assert_eq!(
        misbound(en, "{}——与总参数 P = {} 相差 {}；请检查形状或 P"),
        vec!["argument 1 after \"P =\"".to_string()]
    );
    assert!(misbound(en, "{0}——与总参数 P = {2} 相差 {1}；请检查形状或 P").is_empty());
    let en = "{}FLOP/s per GPU = MFU {} of {}FLOP/s peak";
    assert_eq!(
        misbound(en, "每卡 {}FLOP/s，MFU 为峰值 {}FLOP/s 的 {}"),
        vec!["argument 1 before \"FLOP/s\"".to_string()]
    );
    assert!(misbound(en, "每卡 {0}FLOP/s，即峰值 {2}FLOP/s 的 {1}").is_empty());
    // The same unit next to every slot binds nothing wrongly.
    assert!(misbound("{} ms → {} ms", "{} 毫秒 → {} ms").is_empty());
    // A continuation line and an escaped quote are read as the compiler reads them.
    let source = "trf!(\n \"a \\\"{}\\\" \\\n    b {}\",\n \"甲 {} 乙 {}\", x, y)";
    assert_eq!(
        templates("f.rs", source),
        vec![(
            "f.rs:1".to_string(),
            "a \"{}\" b {}".to_string(),
            "甲 {} 乙 {}".to_string()
        )]
    );
}
