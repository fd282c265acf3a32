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

/// Installs a catalogue: lines `<key_hash as 8 hex digits>\t<Chinese>`, with `\n` and `\\`
/// escaped. Returns the number of entries read; malformed lines are skipped. The texts are
/// leaked on purpose: loaded once per page, they live as long as it.
pub fn install_catalogue(text: &str) -> usize {
    let mut entries: Vec<(u32, &'static str)> = text
        .lines()
        .filter_map(|line| {
            let (hash, zh) = line.split_once('\t')?;
            let hash = u32::from_str_radix(hash, 16).ok()?;
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
            Some((hash, &*Box::leak(out.into_boxed_str())))
        })
        .collect();
    // scripts/zh-catalogue.mjs writes the lines sorted by hash, so lookups can bisect; a
    // catalogue that is not sorted is dropped rather than sorted here (a sort routine would
    // only grow the bundle).
    if !entries.windows(2).all(|w| w[0].0 < w[1].0) {
        entries.clear();
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

fn catalogue_forced() -> bool {
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
pub const UI: &[(&str, &str)] = if !HAS_ZH {
    &[]
} else {
    &[
    ("title", "弱扩展与强扩展"),
    ("lede", "固定总工作量、增加处理器（强扩展）：Amdahl 定律把加速比限制在 1/f（f 为串行比例）。让工作量随处理器一起增长（弱扩展）：Gustafson 定律让加速比保持线性。改动任何输入，所有图表、表格和地址栏都会随之更新，复制的链接就是当前场景。"),
    ("preset", "预设"),
    ("custom", "（自定义）"),
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
    ("label-f", "串行比例 f"),
    ("help-f", "0 … 1，例如 0.05 或 5%"),
    ("label-n", "处理器数 N（横轴上限）"),
    ("help-n", "2 … 2^30，例如 4096、4Ki、64k"),
    ("label-g", "Sun–Ni 增长指数 g，G(N) = N^g"),
    ("help-g", "0 = Amdahl（工作量固定），1 = Gustafson（工作量 ∝ N）"),
    ("label-fs", "对比的 f 值"),
    ("help-fs", "最多 8 个，逗号分隔：1%, 10%, 0.25"),
    ("label-m", "实测数据点（Karp–Flatt）"),
    ("help-m", "每行一对 N 和数值（或 1:100, 4:30）。数值是……"),
    ("mk-time", "运行时间"),
    ("mk-speedup", "加速比"),
    ("label-mk", "实测数值类型"),
    ("formulas", "公式与定义，附练习"),
    ("hover", "将鼠标移到图上读取数值。"),
    ("llm-title", "LLM 训练：输入"),
    ("llm-lede", "B_global = T × D_DP × A，N = D_DP × TP × PP × CP。固定 B_global 加卡：强扩展，T 下降。固定 T、增加 DP 副本：弱扩展，B_global 增大。默认值即原文表格。"),
    ("group-batch", "批量与并行"),
    ("group-model", "模型与硬件（决定 T_crit）"),
    ("group-step", "单步时间模型（计算与暴露时间）"),
    ("label-b", "global batch B_global（tokens）"),
    ("label-ns", "表格中的 GPU 数"),
    ("label-n0", "基线 GPU 数 N₀"),
    ("label-a", "梯度累积步数 A"),
    ("label-mbs", "microbatch 大小（序列数；0 = 固定 A）"),
    ("label-lay", "每个卡数下的并行布局"),
    ("label-lx", "布局浏览器的卡数（0 = 关闭）"),
    ("label-tp", "张量并行 TP"),
    ("label-pp", "流水线并行 PP"),
    ("label-cp", "上下文并行 CP"),
    ("label-tb", "Token 预算"),
    ("label-p", "总参数量 P"),
    ("label-pa", "激活参数量 P_a"),
    ("label-feff", "单卡实际 FLOP/s F_eff"),
    ("label-beff", "单卡总线带宽 B_eff（字节/秒）"),
    ("label-c", "每个 microbatch 的参数通信次数 c"),
    ("label-sw", "通信中每个参数的字节数 s_w"),
    ("label-cm", "计算时间来自"),
    ("cm-auto", "自动：形状给出 P 后按物理，否则按时间"),
    ("cm-time", "N₀ 时的实测时间"),
    ("cm-physics", "物理推算：F_eff = r_inf·峰值·η"),
    ("label-stack", "软件栈（决定 r_inf）"),
    ("stack-megatron", "Megatron-Core / NeMo，BF16"),
    ("stack-megatron-fp8", "Megatron-Core / NeMo，FP8"),
    ("stack-meta", "Meta 的 Llama 3 训练栈"),
    ("stack-torchtitan", "torchtitan（FSDP2，未编译）"),
    ("stack-foundry", "llm-foundry（FSDP）"),
    ("help-stack", "计算来自物理推算时使用：每个 r_inf 都在一次公布的运行上标定"),
    ("label-rinf", "大 GEMM 时达到的峰值比例 r_inf"),
    ("help-rinf", "0 = 用软件栈的值；至多为 1"),
    ("label-tc", "N₀ 时的计算时间（ms）"),
    ("label-em", "暴露时间来自"),
    ("em-auto", "自动：形状给出 P 后用 FSDP 模型，否则用表"),
    ("em-table", "暴露时间表（ms）"),
    ("em-step", "实测单步时间"),
    ("em-fsdp", "FSDP 模型"),
    ("em-fit", "拟合实测单步时间"),
    ("label-ex", "暴露时间表（N:ms）"),
    ("label-st", "实测单步时间（N:ms）"),
    ("label-peak", "单卡峰值 FLOP/s（用于 MFU）"),
    ("label-fp", "拟合使用的卡数（N, …）"),
    ("help-fp", "em=fit：留空则拟合全部 st 点；否则其余点是预测值，并给出误差"),
    ("fit-laws-link", "在 Amdahl 与 Gustafson 面板中打开拟合得到的串行比例"),
    ("label-fix", "每步固定暴露时间（ms）"),
    ("label-sched", "流水线调度"),
    ("sched-interleaved", "交错式"),
    ("sched-zb", "零气泡"),
    ("label-vc", "每个 stage 的交错块数 v"),
    ("group-walls", "模型形状、显存与 kernel（强扩展之墙）"),
    ("group-runs", "你的运行：已发布的模型，或你的 config.json、启动参数或 TOML"),
    ("label-shape", "模型形状"),
    ("help-shape", "已发布的模型：设置形状、s 与 P，布局不变"),
    ("label-import", "导入运行：粘贴 Hugging Face config.json、Megatron-LM 参数、torchtitan TOML 或 NeMo 覆盖项，或拖入文件"),
    ("import", "导入"),
    ("import-file", "文件："),
    ("copy", "复制"),
    ("copy-as", "复制布局为"),
    ("copy-own", "复制本场景的"),
    ("copy-megatron", "Megatron-LM 参数"),
    ("copy-nemo", "NeMo 覆盖项"),
    ("zero-0", "0 — 不分片（DDP）"),
    ("zero-1", "1 — 优化器状态"),
    ("zero-2", "2 — + 梯度"),
    ("zero-3", "3 — + 权重（FSDP）"),
    ("ac-none", "不重计算"),
    ("ac-selective", "选择性重计算"),
    ("ac-full", "完全重计算"),
    ("sp-0", "关"),
    ("sp-1", "开"),
    ("fa-1", "开"),
    ("fa-0", "关"),
    ("ks-0", "关（F_eff 不变）"),
    ("ks-1", "开（Hockney n½）"),
    ("help-tpo", "0 = 全部暴露，1 = 藏在整个 step 之后"),
    ("cpm-ring", "环形（藏在注意力之后）"),
    ("cpm-allgather", "全收集（暴露）"),
    ("help-cpm", "环形注意力只能把 K/V 块藏在计算中注意力所占的那部分之后"),
    ("help-nvd", "域内的 TP、CP、EP 组使用 bnv；HGX 节点为 8"),
    ("lay-fixed", "固定（本场景的布局）"),
    ("lay-best", "最佳（搜索所有布局）"),
    ("help-lay", "最佳：在表格的每一行，搜索放得下的每种 TP·PP·CP·EP·DP、微批次、ZeRO 与重计算；最快者画成点线；需要形状"),
    ("help-lx", "该卡数下的所有布局，最快的在前，并说明每种为何落后；需要形状"),
    ("help-nl", "0 = 不给形状：原文模型（F_eff 不变）"),
    ("label-nl", "层数 L"),
    ("help-hd", "如 12288（GPT-3 175B）"),
    ("label-hd", "隐藏维度 h"),
    ("help-nh", "TP 必须能整除它"),
    ("label-nh", "注意力头数 a"),
    ("help-kvh", "0 = 与注意力头数相同；Llama 3 为 8（GQA）"),
    ("label-kvh", "key/value 头数"),
    ("help-ffn", "0 = GPT 的 4h MLP；Llama 3 8B：14336"),
    ("label-ffn", "门控 MLP 宽度"),
    ("help-sq", "每条序列的 token 数；CP 必须能整除它"),
    ("label-sq", "序列长度 s"),
    ("help-voc", "如 128256（Llama 3）"),
    ("label-voc", "词表大小 V"),
    ("help-ne", "1 = 稠密"),
    ("label-ne", "专家数 E"),
    ("help-ke", "top-k 路由"),
    ("label-ke", "每个 token 的专家数 k"),
    ("help-ep", "复用数据并行 rank；需整除 E"),
    ("label-ep", "专家并行 EP"),
    ("help-hbm", "H100 为 80Gi，H200 为 141G"),
    ("label-hbm", "单卡显存（字节）"),
    ("help-hres", "NCCL 缓冲区、显存碎片等"),
    ("label-hres", "预留显存（字节）"),
    ("label-zero", "ZeRO 阶段"),
    ("label-ac", "激活重计算"),
    ("label-acn", "每个阶段重计算的层数"),
    ("help-acn", "用于完全重计算；0 = 全部层"),
    ("label-sp", "序列并行"),
    ("label-fa", "FlashAttention（不存注意力矩阵）"),
    ("help-ob", "12 = 带 fp32 主权重的 Adam"),
    ("label-ob", "每个参数的优化器字节数 K"),
    ("label-ks", "kernel 随 GEMM 变小而变慢"),
    ("help-nhalf", "GEMM 达到一半峰值速率时的 token 数"),
    ("label-nhalf", "半性能 token 数 m½"),
    ("help-khalf", "GEMM 达到一半峰值速率时每个 TP rank 的隐藏维度"),
    ("label-khalf", "半性能隐藏维度 k½"),
    ("label-tpo", "与计算重叠的 TP 通信比例"),
    ("label-cpm", "上下文并行的 K/V 交换"),
    ("help-lat", "如 5us；按 ⌈log₂ rank 数⌉ 次计"),
    ("label-lat", "集合通信每一轮的延迟 α"),
    ("label-nvd", "每个 NVLink 域的卡数"),
    ("strong-title", "强扩展：固定 global batch"),
    ("weak-title", "弱扩展：固定每副本 token 数"),
    ("plan-title", "规划：time-to-quality"),
    ("plan-lede", "弱扩展的效率是用算法预算换来的：超过临界批量 B_crit 后，每一步带来的进展变少（McCandlish 等 2018：S(B) = S_min(1 + B_crit/B)）。time-to-quality = S(B) × t_step。训练在基线 batch 下需要的 token 数即 token 预算。"),
    ("label-bcrit", "临界批量 B_crit（tokens）"),
    ("label-bcap", "弱扩展把 B 增大到此为止"),
    ("help-bcap", "留空 = B_crit；之后转为强扩展"),
    ("label-bnv", "NVLink 总线带宽（字节/秒）"),
    ("levers", "降低 T_crit 的手段（作用于所有 LLM 面板）"),
    ("lv-nvlink", "把 FSDP group 收进 NVLink 域"),
    ("lv-ep", "用 EP 搬 token，代替 FSDP 搬专家权重"),
    ("lv-noreshard", "reshard_after_forward=False（c: 3 → 2）"),
    ("lv-fp8", "FP8 参数通信（s_w = 1）"),
    ("lv-zb", "零气泡流水线调度"),
    ("label-lc", "有 validation loss–token 曲线支撑这些数字"),
    ("report-title", "报告扩容结果时应该说清楚的事"),
    ("report-lede", "一条扩容结论要说清楚：固定的是什么、基线是多少、并行配置有没有变、有没有 loss–token 曲线。针对当前场景生成："),
    ("export", "导出"),
    ("footer", "在你的浏览器里计算（Rust → WebAssembly）。同一模型也可在命令行输出这些表格："),
    ("label-preset", "预设"),
    ("help-b", "例如 32M、4Mi"),
    ("help-ns", "递增，逗号分隔：1024, 4096, 8192, 16384"),
    ("help-n0", "效率相对于此卡数计算"),
    ("help-a", "每个 DP rank 每步的 microbatch 数"),
    ("help-mbs", "每个 microbatch 的序列数，N 增大时保持不变，改为 A 减小（需要 sq）"),
    ("help-tp", "通常取 2 的幂"),
    ("help-pp", "流水线级数；会引入气泡"),
    ("help-tb", "optimizer step 数 = 预算 / B"),
    ("help-p", "FSDP 搬运的参数量，例如 8B"),
    ("help-pa", "每个 token 激活的参数；MoE 时小于 P"),
    ("help-feff", "例如 400T（约为 H100 bf16 989T 的 40%）"),
    ("help-beff", "50G = 400G InfiniBand；NVLink ≈ 400G"),
    ("help-c", "3 = FSDP（2 次 AllGather + ReduceScatter）；2 = 前向后不 reshard"),
    ("help-sw", "FP8 字节数是 bf16 的一半"),
    ("label-gw", "每个参数的梯度字节数"),
    ("gw-0", "同线上字节，显存中 bf16"),
    ("help-gw", "fp32 主梯度：Megatron-LM 的做法，也是 Llama 3 的 reduce-scatter"),
    ("help-tc", "例如 900ms、1.2s"),
    ("help-ex", "暴露时间取自表格时使用；按 log N 插值"),
    ("help-st", "step：每个 N 上 暴露 = step − 计算；fit：整个 step，同一 global batch"),
    ("help-em", "fit：把同一 global batch 下的单步时间粘贴到 st；页面拟合 t(N) = W/N + K 并预测每个 N"),
    ("help-peak", "例如 989T（H100 bf16 稠密），1979T（fp8）"),
    ("help-fix", "FSDP 模型：优化器、首次 gather / 末次 reduce"),
    ("help-sched", "气泡 (p−1)/m、(p−1)/(v·m) 或 ≈0"),
    ("help-bnv", "NVLink 域手段使用；H100 约 400G"),
    ("lang", "English"),
    // Labels of the URL keys that have no input box, for messages about a bad link
    // (scenario::InputError names the input by `label-<key>`).
    ("label-view", "面板"),
    ("label-embed", "嵌入的面板"),
    ("label-lang", "语言"),
    ("label-theme", "配色主题"),
    ("label-show", "嵌入时显示的内容"),
    ("label-q", "显示的练习"),
    ("label-lv", "降低 T_crit 的手段"),
    ("label-pin", "固定的场景 A"),
    ]
};

/// The Chinese text of a `data-i18n` key, if the key exists.
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
