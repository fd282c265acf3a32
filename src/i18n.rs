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

/// `true` when this thread writes Chinese.
pub fn zh() -> bool {
    lang() == Lang::Zh
}

/// The English or the Chinese text, whichever this thread writes.
pub fn tr(en: &'static str, zh_text: &'static str) -> &'static str {
    if zh() {
        zh_text
    } else {
        en
    }
}

/// The page's static texts, keyed by the `data-i18n` attribute of the element that shows them:
/// `(key, English, Chinese)`. The English matches `www/index.html`.
pub const UI: &[(&str, &str, &str)] = &[
    ("title", "Weak vs strong scaling", "弱扩展与强扩展"),
    (
        "lede",
        "Fix the work and add processors (strong scaling): Amdahl's law caps the speedup at 1/f for a serial fraction f. Grow the work with the processors (weak scaling): Gustafson's law keeps the speedup linear. Move any input; every chart, table and the address bar follow, so the link you copy is the scenario.",
        "固定总工作量、增加处理器（强扩展）：Amdahl 定律把加速比限制在 1/f（f 为串行比例）。让工作量随处理器一起增长（弱扩展）：Gustafson 定律让加速比保持线性。改动任何输入，所有图表、表格和地址栏都会随之更新，复制的链接就是当前场景。",
    ),
    ("preset", "Preset", "预设"),
    ("custom", "(custom)", "（自定义）"),
    ("copy-link", "Copy link", "复制链接"),
    ("url-problems", "Some values in this link could not be used; defaults were used instead:", "链接中的部分值无法使用，已改用默认值："),
    ("tab-laws", "Amdahl vs Gustafson", "Amdahl 与 Gustafson"),
    ("tab-strong", "Strong scaling (LLM)", "强扩展（LLM）"),
    ("tab-weak", "Weak scaling (LLM)", "弱扩展（LLM）"),
    ("tab-plan", "Plan: time to quality", "规划：time-to-quality"),
    ("laws-title", "Amdahl vs Gustafson (and Sun–Ni)", "Amdahl 与 Gustafson（及 Sun–Ni）"),
    ("label-f", "Serial fraction f", "串行比例 f"),
    ("help-f", "0 … 1, e.g. 0.05 or 5%", "0 … 1，例如 0.05 或 5%"),
    ("label-n", "Processors N (axis maximum)", "处理器数 N（横轴上限）"),
    ("help-n", "2 … 2^30, e.g. 4096, 4Ki, 64k", "2 … 2^30，例如 4096、4Ki、64k"),
    ("label-g", "Sun–Ni growth g in G(N) = N^g", "Sun–Ni 增长指数 g，G(N) = N^g"),
    ("help-g", "0 = Amdahl (fixed work), 1 = Gustafson (work ∝ N)", "0 = Amdahl（工作量固定），1 = Gustafson（工作量 ∝ N）"),
    ("label-fs", "Compare with f =", "对比的 f 值"),
    ("help-fs", "up to 8 values, comma-separated: 1%, 10%, 0.25", "最多 8 个，逗号分隔：1%, 10%, 0.25"),
    ("label-m", "Measured points (Karp–Flatt)", "实测数据点（Karp–Flatt）"),
    ("help-m", "Pairs of N and a value, one per line (or 1:100, 4:30). The values are …", "每行一对 N 和数值（或 1:100, 4:30）。数值是……"),
    ("mk-time", "run times", "运行时间"),
    ("mk-speedup", "speedups", "加速比"),
    ("formulas", "Formulas", "公式"),
    ("hover", "Hover over the chart to read values.", "将鼠标移到图上读取数值。"),
    ("llm-title", "LLM training: inputs", "LLM 训练：输入"),
    (
        "llm-lede",
        "B_global = T × D_DP × A and N = D_DP × TP × PP × CP. Fix B_global and add GPUs: strong scaling, T falls. Fix T and add data-parallel replicas: weak scaling, B_global grows. The defaults are the article's table.",
        "B_global = T × D_DP × A，N = D_DP × TP × PP × CP。固定 B_global 加卡：强扩展，T 下降。固定 T、增加 DP 副本：弱扩展，B_global 增大。默认值即原文表格。",
    ),
    ("group-batch", "Batch and parallelism", "批量与并行"),
    ("group-model", "Model and hardware (sets T_crit)", "模型与硬件（决定 T_crit）"),
    ("group-step", "Step-time model (compute and exposed time)", "Step time 模型（计算与暴露时间）"),
    ("label-b", "Global batch B_global (tokens)", "全局批量 B_global（tokens）"),
    ("label-ns", "GPU counts in the tables", "表格中的 GPU 数"),
    ("label-n0", "Baseline GPUs N₀", "基线 GPU 数 N₀"),
    ("label-a", "Gradient accumulation A", "梯度累积步数 A"),
    ("label-tp", "Tensor parallel TP", "张量并行 TP"),
    ("label-pp", "Pipeline parallel PP", "流水线并行 PP"),
    ("label-cp", "Context parallel CP", "上下文并行 CP"),
    ("label-tb", "Token budget", "Token 预算"),
    ("label-p", "Total parameters P", "总参数量 P"),
    ("label-pa", "Active parameters P_a", "激活参数量 P_a"),
    ("label-feff", "Achieved FLOP/s per GPU F_eff", "单卡实际 FLOP/s F_eff"),
    ("label-beff", "Bus bandwidth per GPU B_eff (bytes/s)", "单卡总线带宽 B_eff（字节/秒）"),
    ("label-c", "Parameter transfers per microbatch c", "每个 microbatch 的参数通信次数 c"),
    ("label-sw", "Parameter bytes on the wire s_w", "通信中每个参数的字节数 s_w"),
    ("label-cm", "Compute time from", "计算时间来自"),
    ("label-tc", "Compute time at N₀ (ms)", "N₀ 时的计算时间（ms）"),
    ("label-em", "Exposed time from", "暴露时间来自"),
    ("label-ex", "Exposed time table (N:ms)", "暴露时间表（N:ms）"),
    ("label-st", "Measured step times (N:ms)", "实测 step time（N:ms）"),
    ("label-fix", "Fixed exposed time per step (ms)", "每步固定暴露时间（ms）"),
    ("label-sched", "Pipeline schedule", "流水线调度"),
    ("label-vc", "Interleaved chunks per stage v", "每个 stage 的交错块数 v"),
    ("strong-title", "Strong scaling: fixed global batch", "强扩展：固定 global batch"),
    ("weak-title", "Weak scaling: fixed tokens per GPU", "弱扩展：固定每卡 token 数"),
    ("plan-title", "Plan: time to quality", "规划：达到目标 loss 的时间"),
    (
        "plan-lede",
        "Weak scaling's efficiency is bought with algorithmic budget: past the critical batch B_crit a step buys less progress (McCandlish et al. 2018: S(B) = S_min(1 + B_crit/B)). Time to quality is S(B) × t_step. The run needs the token budget at the baseline batch.",
        "弱扩展的效率是用算法预算换来的：超过临界批量 B_crit 后，每一步带来的进展变少（McCandlish 等 2018：S(B) = S_min(1 + B_crit/B)）。time-to-quality = S(B) × t_step。训练在基线 batch 下需要的 token 数即 token 预算。",
    ),
    ("label-bcrit", "Critical batch B_crit (tokens)", "临界批量 B_crit（tokens）"),
    ("label-bcap", "Weak scaling stops growing B at", "弱扩展把 B 增大到此为止"),
    ("help-bcap", "empty = at B_crit; then strong scaling", "留空 = B_crit；之后转为强扩展"),
    ("label-bnv", "NVLink bus bandwidth (bytes/s)", "NVLink 总线带宽（字节/秒）"),
    ("levers", "Levers that lower T_crit (apply to every LLM panel)", "降低 T_crit 的手段（作用于所有 LLM 面板）"),
    ("lv-nvlink", "FSDP group inside the NVLink domain", "把 FSDP group 收进 NVLink 域"),
    ("lv-ep", "EP instead of FSDP for experts", "用 EP 代替 FSDP 搬运 expert 权重"),
    ("lv-noreshard", "reshard_after_forward=False (c: 3 → 2)", "reshard_after_forward=False（c: 3 → 2）"),
    ("lv-fp8", "fp8 parameter communication (s_w = 1)", "FP8 参数通信（s_w = 1）"),
    ("lv-zb", "zero-bubble pipeline schedule", "零气泡流水线调度"),
    ("label-lc", "A validation loss–token curve backs these numbers", "有 validation loss–token 曲线支撑这些数字"),
    ("report-title", "Reporting checklist", "报告扩容结果时应该说清楚的事"),
    (
        "report-lede",
        "What a scaling claim must say: what is fixed, the baseline, whether the parallel configuration changed, and whether a loss–token curve backs it. Generated for this scenario:",
        "一条扩容结论要说清楚：固定的是什么、基线是多少、并行配置有没有变、有没有 loss–token 曲线。针对当前场景生成：",
    ),
    ("export", "Export", "导出"),
    ("footer", "Computed in your browser (Rust → WebAssembly). The same model prints these tables on the command line: scaling laws --query '…'.", "在你的浏览器里计算（Rust → WebAssembly）。同一模型也可在命令行输出这些表格：scaling laws --query '…'。"),
    ("lang", "中文", "English"),
];

/// The text of a `data-i18n` key in `lang`, if the key exists.
pub fn ui(key: &str, lang: Lang) -> Option<&'static str> {
    UI.iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, en, zh)| if lang == Lang::Zh { *zh } else { *en })
}
