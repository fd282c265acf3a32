//! Languages: every reader-facing string exists in English and Chinese (the source article is
//! Chinese, and many readers are).
//!
//! The current language is per thread (`set_lang`), so the page (single-threaded wasm), the
//! CLI (`--lang`) and tests running in parallel threads each see their own. Text is written
//! next to its translation with [`tr`], so a string and its translation are reviewed together.

use std::cell::Cell;

/// A UI language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub fn key(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// `en`, `zh`, or a browser language tag (`zh-CN`, `en-GB`, `zh-Hant-TW`).
    pub fn from_key(key: &str) -> Option<Lang> {
        let k = key.trim().to_ascii_lowercase();
        if k == "zh" || k.starts_with("zh-") {
            Some(Lang::Zh)
        } else if k == "en" || k.starts_with("en-") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The value of `<html lang>`.
    pub fn html_tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-Hans",
        }
    }
}

thread_local! {
    static LANG: Cell<Lang> = const { Cell::new(Lang::En) };
}

/// Sets this thread's language.
pub fn set_lang(lang: Lang) {
    LANG.with(|l| l.set(lang));
}

/// This thread's language.
pub fn lang() -> Lang {
    LANG.with(|l| l.get())
}

/// Whether this build carries the Chinese texts: always natively (CLI, tests); in the
/// WebAssembly bundle only with the `web-zh` feature. Without it (the default, because an
/// English reader would download them too) the page loads them on demand, for Chinese readers
/// only, as the catalogue `scripts/zh-catalogue.mjs` extracts from these same sources (see
/// [`install_catalogue`]).
pub const HAS_ZH: bool = cfg!(any(not(target_arch = "wasm32"), feature = "web-zh"));

/// `true` when this thread writes Chinese.
#[inline(always)]
pub fn zh() -> bool {
    lang() == Lang::Zh
}

/// The English or the Chinese text, whichever this thread writes. Inlined so that a build
/// without Chinese drops the Chinese literals and looks the English up in the catalogue.
#[inline(always)]
pub fn tr(en: &'static str, zh_text: &'static str) -> &'static str {
    if HAS_ZH && !catalogue_forced() {
        if zh() {
            zh_text
        } else {
            en
        }
    } else {
        translate(en)
    }
}

/// `en`, or its catalogue translation when this thread writes Chinese. One out-of-line call
/// per `tr` site keeps the bundle small (an inlined lookup would be repeated at every site).
#[inline(never)]
fn translate(en: &'static str) -> &'static str {
    if zh() {
        lookup(en).unwrap_or(en)
    } else {
        en
    }
}

thread_local! {
    /// The loaded catalogue, sorted by key hash.
    static CATALOGUE: std::cell::RefCell<Vec<(u32, &'static str)>> =
        const { std::cell::RefCell::new(Vec::new()) };
    /// Tests only: make a native build translate through the catalogue like the page does.
    static FORCE_CATALOGUE: Cell<bool> = const { Cell::new(false) };
}

/// FNV-1a, 32 bits, of `text`'s UTF-8 bytes: the catalogue's key for an English text (or a
/// `data-i18n` key). `scripts/zh-catalogue.mjs` computes the same.
pub fn key_hash(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5, |h: u32, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// Installs a catalogue: lines `<key>\t<Chinese>`, with `\n` and `\\` escaped, sorted by
/// [`key_hash`] and each key written in hex as its difference from the previous line's (the
/// first line's from 0): the differences of sorted 32-bit hashes are short, which saves a
/// Chinese reader about a kilobyte gzipped against the full hashes. Returns the number of
/// entries read. A malformed line (no tab, no hex, a difference of 0 or one past `u32`)
/// drops the whole catalogue, since every later key depends on it: the page then stays in
/// English rather than showing a wrong text. The texts are leaked on purpose: loaded once per
/// page, they live as long as it.
pub fn install_catalogue(text: &str) -> usize {
    let mut key: Option<u32> = None;
    let mut entries: Vec<(u32, &'static str)> = Vec::new();
    for line in text.lines() {
        let next = line.split_once('\t').and_then(|(delta, zh)| {
            let delta = u32::from_str_radix(delta, 16).ok()?;
            let hash = match key {
                None => delta,
                Some(_) if delta == 0 => return None,
                Some(previous) => previous.checked_add(delta)?,
            };
            Some((hash, zh))
        });
        let Some((hash, zh)) = next else {
            entries.clear();
            break;
        };
        key = Some(hash);
        let mut out = String::with_capacity(zh.len());
        let mut chars = zh.chars();
        while let Some(c) = chars.next() {
            match (c, c == '\\') {
                (_, true) => match chars.next() {
                    Some('n') => out.push('\n'),
                    Some(other) => out.push(other),
                    None => {}
                },
                (c, false) => out.push(c),
            }
        }
        entries.push((hash, &*Box::leak(out.into_boxed_str())));
    }
    let count = entries.len();
    CATALOGUE.with(|c| *c.borrow_mut() = entries);
    count
}

/// Tests only: translate through the installed catalogue even though the build has the
/// Chinese texts compiled in (to prove the catalogue covers what the page shows).
pub fn force_catalogue(on: bool) {
    FORCE_CATALOGUE.with(|f| f.set(on));
}

pub(crate) fn catalogue_forced() -> bool {
    FORCE_CATALOGUE.with(|f| f.get())
}

/// The catalogue's Chinese for an English text or a `data-i18n` key.
#[inline(never)]
fn lookup(key: &str) -> Option<&'static str> {
    let hash = key_hash(key);
    CATALOGUE.with(|c| {
        let c = c.borrow();
        c.binary_search_by_key(&hash, |e| e.0).ok().map(|i| c[i].1)
    })
}

/// Fills `{}` (the next argument) and `{0}`, `{1}` … (by position) in `template`.
/// A placeholder without an argument is left as written; there is no other syntax.
pub fn fill(template: &str, args: &[&dyn std::fmt::Display]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut next = 0;
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) if after[..close].chars().all(|c| c.is_ascii_digit()) => {
                let index = if close == 0 {
                    next += 1;
                    next - 1
                } else {
                    after[..close].parse().unwrap_or(usize::MAX)
                };
                match args.get(index) {
                    Some(arg) => {
                        let _ = write!(out, "{arg}");
                    }
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The page's static texts in Chinese, keyed by the `data-i18n` attribute of the element that
/// shows them. The English is the markup itself (`www/index.html`), so it is not repeated here.
/// The inputs' labels, helps and menu options are in their rows of the key table
/// (`crate::scenario::page_zh`).
pub const UI: &[(&str, &str)] = if !HAS_ZH {
    &[]
} else {
    &[
    ("title", "弱扩展与强扩展"),
    ("lede", "固定总工作量、增加处理器（强扩展）：Amdahl 定律把加速比限制在 1/f（f 为串行比例）。让工作量随处理器一起增长（弱扩展）：Gustafson 定律让加速比保持线性。改动任何输入，所有图表、表格和地址栏都会随之更新，复制的链接就是当前场景。"),
    ("preset", "预设"),
    ("custom", "（自定义）"),
    ("all-columns", "显示所有列"),
    ("copy-link", "复制链接"),
    ("pin-a", "固定为 A"),
    ("unpin-a", "取消固定 A"),
    ("copy-en", "复制（英文）"),
    ("copy-cli", "复制命令"),
    ("print-link", "链接："),
    ("print-inputs", "输入："),
    ("full-page", "打开完整页面"),
    ("url-problems", "链接中的部分值无法使用，已改用默认值："),
    ("tab-laws", "Amdahl 与 Gustafson"),
    ("tab-strong", "强扩展（LLM）"),
    ("tab-weak", "弱扩展（LLM）"),
    ("tab-plan", "规划：time-to-quality"),
    ("tab-learn", "学习：定义与练习"),
    ("learn-status", "正在加载定义……"),
    ("learn-all", "全部定义与练习"),
    ("badge-learn", "这是什么意思"),
    ("tabs", "面板"),
    ("laws-title", "Amdahl 与 Gustafson（及 Sun–Ni）"),
    ("formulas", "公式与定义，附练习"),
    ("hover", "将鼠标移到图上读取数值。"),
    ("llm-title", "LLM 训练：输入"),
    ("llm-lede", "B_global = T × D_DP × A，N = D_DP × TP × PP × CP。固定 B_global 加卡：强扩展，T 下降。固定 T、增加 DP 副本：弱扩展，B_global 增大。默认值即原文表格。"),
    ("group-batch", "批量与并行"),
    ("group-model", "模型与硬件（决定 T_crit）"),
    ("group-step", "单步时间模型（计算与暴露时间）"),
    ("fit-laws-link", "在 Amdahl 与 Gustafson 面板中打开拟合得到的串行比例"),
    ("group-walls", "模型形状、显存与 kernel（强扩展之墙）"),
    ("group-runs", "你的训练：公开模型，或你的 config.json、启动参数或 TOML"),
    ("label-shape", "模型形状"),
    ("help-shape", "公开模型：设置形状、序列长度 s 与 P；并行布局不变"),
    ("label-import", "导入训练配置：粘贴 Hugging Face config.json、Megatron-LM 参数、torchtitan TOML、NeMo 覆盖项或训练日志，或拖入文件（同一模型在多个 GPU 数下的日志会被拟合）"),
    ("import", "导入"),
    ("import-file", "文件："),
    ("copy", "复制"),
    ("copy-as", "复制布局为"),
    ("copy-own", "复制本场景的布局"),
    ("copy-megatron", "Megatron-LM 参数"),
    ("copy-nemo", "NeMo 覆盖项"),
    ("strong-title", "强扩展：固定 global batch"),
    ("weak-title", "弱扩展：固定每副本 token 数"),
    ("plan-title", "规划：time-to-quality"),
    ("plan-lede", "弱扩展的效率是用算法预算换来的：超过临界批量 B_crit 后，每一步带来的进展变少（McCandlish 等 2018：S(B) = S_min(1 + B_crit/B)）。time-to-quality = S(B) × t_step。训练在基线 batch 下需要的 token 数即 token 预算。"),
    ("levers", "降低 T_crit 的手段（作用于所有 LLM 面板）"),
    ("lv-nvlink", "把 FSDP group 收进 NVLink 域"),
    ("lv-ep", "用 EP 搬 token，代替 FSDP 搬专家权重"),
    ("lv-noreshard", "reshard_after_forward=False（c: 3 → 2）"),
    ("lv-fp8", "FP8 参数通信（s_w = 1）"),
    ("lv-zb", "零气泡流水线调度"),
    ("report-title", "报告扩容结果时应该说清楚的事"),
    ("report-lede", "一条扩容结论要说清楚：固定的是什么、基线是多少、并行配置有没有变、有没有 loss–token 曲线。针对当前场景生成："),
    ("export", "导出"),
    ("footer", "在你的浏览器里计算（Rust → WebAssembly）。同一模型也可在命令行输出这些表格："),
    ("label-preset", "预设"),
    ("lang", "English"),
    ]
};

/// The Chinese text of a `data-i18n` key of `UI`, or any key of the loaded catalogue (the
/// inputs' texts included: `crate::scenario::page_zh` finds those in a build with Chinese).
pub fn ui_zh(key: &str) -> Option<&'static str> {
    if HAS_ZH && !catalogue_forced() {
        UI.iter().find(|(k, _)| *k == key).map(|(_, zh)| *zh)
    } else {
        lookup(key)
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_places_arguments_in_order_or_by_position() {
        assert_eq!(fill("{} of {}", &[&1, &"two"]), "1 of two");
        assert_eq!(fill("{1} 时 {0}", &[&"a", &"b"]), "b 时 a");
        assert_eq!(fill("{} {x} {", &[&7]), "7 {x} {");
        assert_eq!(fill("{} {}", &[&1]), "1 {}");
    }
}
