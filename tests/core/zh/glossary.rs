//! The Chinese texts against the glossary the native reviewers set (the seed article's words,
//! and one word per concept): a reviewer finds a wrong word once, it is fixed in one string,
//! and the next feature writes it again in another. So this test walks every Chinese text the
//! product has and fails on
//!
//! - a word the glossary rejects ([`WRONG`], each with the word to use and why), and
//! - an ASCII `,` `:` or `;` between two Chinese characters (spaces around it allowed): a
//!   Chinese sentence uses `，` `：` `；` (and `、` between list items), and an ASCII mark there
//!   is a template or a join written for English (`fits.join(", ")`, `"{label}: {value}"`).
//!
//! The texts walked: every Rust string literal with Chinese in it under `src/` and
//! `crates/*/src` (the key table's labels, help and options, `i18n::UI`, every `tr`/`trf!`
//! pair, the runs module's and the CLI's own texts; read with the catalogue extractor's
//! tokenizer, `scripts/zh-catalogue.mjs`), what every panel of every preset shows in Chinese
//! with the texts filled in (tables, figures, readouts, chart SVGs), the CLI's Chinese
//! snapshots (`crates/cli/tests/snapshots`, CSV left out: its commas are the format's), and the
//! Learn view's `www/learn/zh.html`.

use super::catalogue::{everything, node, preset_queries};
use scaling_core::i18n::{set_lang, Lang};
use std::path::{Path, PathBuf};

/// `(wrong, use instead, why)`. Matched as a substring of each text.
#[rustfmt::skip]
const WRONG: &[(&str, &str, &str)] = &[
    ("布局浏览器", "布局搜索", "浏览器 is a web browser; the feature searches and ranks"),
    ("全收集", "AllGather", "the seed, Learn and the UI say AllGather"),
    ("你的运行", "你的训练", "运行 as a noun for a training run is a calque"),
    ("导入运行", "导入训练配置", "运行 as a noun for a training run is a calque"),
    ("本运行", "本任务", "运行 as a noun for a training run is a calque"),
    ("标定运行", "标定任务", "运行 as a noun for a training run is a calque"),
    ("公布运行", "公布的训练任务", "运行 as a noun for a training run is a calque"),
    ("公布的运行", "公布的训练任务", "运行 as a noun for a training run is a calque"),
    ("同线上", "与通信字节数 s_w 相同", "线上 reads as \"online\""),
    ("线上字节", "通信字节数", "线上 reads as \"online\""),
    ("藏在", "被…掩盖", "之后 reads as \"after\" in time; the seed's verb is 掩盖"),
    ("已发表", "公布的", "one word for \"published\""),
    ("已发布", "公布的 / 公开模型", "one word for \"published\""),
    ("step 模型", "单步时间模型", "the group label and Learn say 单步时间模型"),
    ("step (ms)", "单步 (ms)", "titles and Learn say 单步时间"),
    ("最佳 step", "最佳单步", "titles and Learn say 单步时间"),
    ("step 中", "单步时间中", "titles and Learn say 单步时间"),
    ("每个阶段", "每个流水线 stage", "阶段 is the ZeRO stage; a pipeline stage is 流水线 stage"),
    ("第一阶段", "第一个流水线 stage", "阶段 is the ZeRO stage; a pipeline stage is 流水线 stage"),
    ("流水线级", "流水线 stage", "one name for a pipeline stage"),
    ("微批次", "microbatch", "the seed keeps microbatch in English"),
    ("激活检查点", "重计算", "one word for recomputation"),
    ("校准", "标定", "one word for calibrate"),
    ("优化器步", "optimizer step", "the seed keeps optimizer step in English"),
    ("全局 batch", "global batch", "the seed keeps global batch in English"),
    ("临界 batch", "临界批量", "the glossary's word for the critical batch"),
    ("key/value 头", "KV 头", "one name for the KV heads"),
    ("设得更少", "减少每个 microbatch 的序列数", "the verb has no object"),
    ("哪种 scaling", "哪种扩展", "the glossary's word for the mode"),
    ("DP 度", "数据并行度", "the glossary's word for a parallel degree"),
    ("dense 模型", "稠密模型", "one word for dense, as the inputs say"),
    ("机制化", "按机制推算", "机制化 is not a word a reader knows"),
    ("GPU 时：", "GPU 小时", "GPU-hours; GPU 时 reads as GPU time"),
];

/// A Han character, or Chinese punctuation (CJK symbols, full-width forms).
fn chinese(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
}

/// The ASCII `,` `:` `;` in `text` with Chinese on both sides (spaces between allowed), each
/// with a little context.
fn ascii_marks_between_chinese(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if !matches!(c, ',' | ':' | ';') {
            continue;
        }
        let before = chars[..i].iter().rev().find(|c| **c != ' ');
        let after = chars[i + 1..].iter().find(|c| **c != ' ');
        if before.copied().is_some_and(chinese) && after.copied().is_some_and(chinese) {
            let from = i.saturating_sub(12);
            let to = (i + 12).min(chars.len());
            out.push(chars[from..to].iter().collect());
        }
    }
    out
}

/// Every `(where, text)` to check for one text: each wrong word and each ASCII mark.
fn problems(place: &str, text: &str) -> Vec<String> {
    let mut out: Vec<String> = WRONG
        .iter()
        .filter(|(wrong, _, _)| text.contains(wrong))
        .map(|(wrong, right, why)| format!("{place}: “{wrong}” → “{right}” ({why}): {text}"))
        .collect();
    out.extend(
        ascii_marks_between_chinese(text)
            .into_iter()
            .map(|at| format!("{place}: ASCII mark between Chinese: “{at}”")),
    );
    out.extend(
        numbers_listed_with_commas(text)
            .into_iter()
            .map(|at| format!("{place}: numbers listed with “, ”, “、” in Chinese: “{at}”")),
    );
    out.extend(
        multiples_with_x(text)
            .into_iter()
            .map(|at| format!("{place}: a multiple written “{at}”, “倍” in Chinese")),
    );
    out
}

/// Whether a Chinese character is within eight characters of `chars[i]`, either side: a mark
/// there belongs to a Chinese sentence, not to an English one beside it.
fn near_chinese(chars: &[char], i: usize) -> bool {
    chars[i.saturating_sub(8)..(i + 9).min(chars.len())]
        .iter()
        .any(|&c| chinese(c))
}

/// Numbers listed with an ASCII comma and a space (`2,048, 4,096 卡`) among Chinese (within
/// eight characters either side): the list's commas cannot be told from the numbers' own, and
/// Chinese lists with `、` (`2,048、4,096 卡`). A number's own comma has no space after it.
fn numbers_listed_with_commas(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let near_chinese = |i: usize| near_chinese(&chars, i);
    (1..chars.len().saturating_sub(2))
        .filter(|&i| {
            chars[i] == ','
                && chars[i - 1].is_ascii_digit()
                && chars[i + 1] == ' '
                && chars[i + 2].is_ascii_digit()
                && near_chinese(i)
        })
        .map(|i| {
            chars[i.saturating_sub(8)..(i + 8).min(chars.len())]
                .iter()
                .collect()
        })
        .collect()
}

/// Multiples written with a Latin `x` or `×` after the number (`10x`, `1.52x`, `20×`) among
/// Chinese (within eight characters either side), which Chinese writes `10 倍`; a shape's
/// name (`8x7B`) has a digit after it and is not one, and an English sentence beside a
/// Chinese one (the report's two paragraphs) is English.
fn multiples_with_x(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let near_chinese = |i: usize| near_chinese(&chars, i);
    (1..chars.len())
        .filter(|&i| {
            matches!(chars[i], 'x' | '×')
                && chars[i - 1].is_ascii_digit()
                && chars.get(i + 1).is_none_or(|c| !c.is_alphanumeric())
                && near_chinese(i)
        })
        .map(|i| chars[i.saturating_sub(6)..(i + 1)].iter().collect())
        .collect()
}

/// Every string literal with Chinese in it under `src/` and `crates/*/src`, as
/// `(file, literal)`, read with the catalogue extractor's tokenizer (comments and char
/// literals skipped, escapes and line continuations resolved).
fn chinese_literals() -> Vec<(String, String)> {
    let script = r#"
import { tokens } from './scripts/zh-catalogue.mjs';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
const files = (d) => readdirSync(d).flatMap((n) => {
  const p = path.join(d, n);
  return statSync(p).isDirectory() ? files(p) : n.endsWith('.rs') ? [p] : [];
});
const dirs = ['src', ...readdirSync('crates').map((c) => path.join('crates', c, 'src'))];
const out = [];
for (const f of dirs.flatMap((d) => { try { return files(d); } catch { return []; } })) {
  for (const t of tokens(readFileSync(f, 'utf8'))) {
    if (t.str !== undefined && /[\u3400-\u9fff]/.test(t.str)) out.push([f, t.str]);
  }
}
process.stdout.write(JSON.stringify(out));
"#;
    serde_json::from_slice(&node(&["--input-type=module", "-e", script]))
        .expect("a JSON list of [file, literal]")
}

/// Every file under `dir` whose name holds `.zh.`.
fn zh_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            zh_files(&path, out);
        } else if path.to_string_lossy().contains(".zh.") {
            out.push(path);
        }
    }
}

/// The Learn view's Chinese page as text: tags dropped, one line per line.
fn learn_text(root: &Path) -> String {
    let html = std::fs::read_to_string(root.join("www/learn/zh.html")).expect("www/learn/zh.html");
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text
}

#[test]
fn every_chinese_text_keeps_to_the_glossary() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let literals = chinese_literals();
    assert!(literals.len() > 800, "{} Chinese literals", literals.len());
    for (file, text) in &literals {
        found.extend(problems(file, text));
    }
    set_lang(Lang::Zh);
    // Every preset, and the layout explorer, the best layouts and an MFU above 100% shown.
    let more = [
        "v=1&preset=llama31-405b-h100&lx=8192",
        "v=1&preset=mixtral-8x7b-walls&lx=64&lay=best",
        "v=1&preset=gpt3-175b-walls&cm=time&tc=50ms",
    ];
    for q in preset_queries().iter().map(String::as_str).chain(more) {
        // A key figure comes as "<view> key figure: <label>: <value>", the page's two cells
        // joined by the shared checker; the join is not the page's text.
        for text in everything(q)
            .into_iter()
            .map(|t| match t.split_once(" key figure: ") {
                Some((_, figure)) => figure.replacen(": ", "\n", 1),
                None => t,
            })
        {
            found.extend(problems(q, &text));
        }
    }
    set_lang(Lang::En);
    let mut snapshots = Vec::new();
    zh_files(&root.join("crates/cli/tests/snapshots"), &mut snapshots);
    assert!(snapshots.len() > 50, "{} zh snapshots", snapshots.len());
    for path in snapshots
        .iter()
        .filter(|p| p.extension().is_none_or(|e| e != "csv"))
    {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        for line in text.lines() {
            found.extend(problems(&path.display().to_string(), line));
        }
    }
    for line in learn_text(root).lines() {
        found.extend(problems("www/learn/zh.html", line));
    }
    found.sort();
    found.dedup();
    assert!(
        found.is_empty(),
        "{} Chinese texts break the glossary (tests/core/zh/glossary.rs):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_checks_find_a_wrong_word_and_an_ascii_mark() {
    assert_eq!(problems("x", "布局浏览器（lx）").len(), 1);
    assert_eq!(problems("x", "放得下：2,048、4,096").len(), 0);
    assert_eq!(
        ascii_marks_between_chinese("吞吐最高的表格行: 卡数"),
        ["吞吐最高的表格行: 卡数"]
    );
    assert!(ascii_marks_between_chinese("TP 8, PP 4; 卡数: 16,384").is_empty());
    assert_eq!(problems("x", "上限 1/f = 10x；加速比 1.52x").len(), 2);
    assert_eq!(problems("x", "答案：20×。").len(), 1);
    assert!(problems("x", "Mixtral 8x7B 的上限 1/f = 10 倍").is_empty());
    assert!(problems("x", "per step, 16× the critical batch. 弱扩展").is_empty());
    assert_eq!(ascii_marks_between_chinese("计算时间（ms）, 暴露").len(), 1);
}
