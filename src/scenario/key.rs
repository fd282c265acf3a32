//! The input keys, each declared once in the `keys!` table: its URL name, group, its one
//! English label (the page's, and as text the messages'), its Chinese label, its slider, the
//! field it sets and the codec that reads it, how the page asks for it (help and control, in
//! both languages), its row of `docs/url.md` and the names other tools give it.
//!
//! The page's wasm holds only what it reads at run time: names, groups, labels and
//! sliders. The rest, the [`Spec`], is compiled where Chinese is (natively, and with
//! `web-zh`): `www/index.html`'s input controls and `docs/url.md`'s key tables are written
//! from it (`crate::panel::inputs`), and a test of the core rewrites them when they differ.
//! The same test writes `docs/keys.json`, the table as data, which the scripts read (the
//! catalogue's Chinese, the fuzzers' keys).

use super::Scenario;

/// Which part of the scenario an input belongs to: what parses it and which panels read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// How the page looks, not what it computes (`view`, `lang`, `theme`, `embed`, `show`).
    Display,
    /// The Laws panel.
    Laws,
    /// The LLM panels' batch, layout, model, hardware and step model.
    Llm,
    /// The strong-scaling walls: LLM inputs that `walls::WallSettings` holds.
    Walls,
    /// The Plan panel.
    Plan,
    /// The Learn view's exercises (`q`).
    Learn,
    /// Scenario A's own query (`pin`).
    Pin,
}

/// How the page asks for an input, beside its slider if it has one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Control {
    /// No control of its own is written from the table (`view`, `lv`, …: the page's markup
    /// has them where they belong).
    None,
    /// A box for a number, with a decimal keypad on phones.
    Decimal,
    /// A box for a whole number, with a numeric keypad on phones.
    Whole,
    /// A box for text: lists, tables, empty values.
    Text,
    /// A text area of four lines.
    Area,
    /// A menu: `(value, English, Chinese)` per option; an option without Chinese reads the
    /// same in both languages.
    Select(&'static [(&'static str, &'static str, &'static str)]),
}

/// What the page and the docs say of an input: everything but what the page's wasm reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    pub control: Control,
    /// The help under the box, as markup, and its Chinese; `("", "")` for an empty help line.
    pub help: (&'static str, &'static str),
    /// The control spans the panel's width.
    pub wide: bool,
    /// The box's placeholder.
    pub placeholder: &'static str,
    /// A menu drawn inside the help line (`mk` in `m`'s).
    pub in_help: Option<Key>,
    /// A second, live help line (`st-note`) the page writes.
    pub note: bool,
    /// Its row of `docs/url.md`: meaning, default, accepted values, and the model's section for
    /// the LLM and Plan keys.
    pub url: &'static [&'static str],
    /// The names a Megatron-LM launch gives it (flags), which `import::megatron` reads.
    pub megatron: &'static [&'static str],
    /// The names NeMo 2.0 overrides give it, which `import::nemo` reads.
    pub nemo: &'static [&'static str],
    /// The names a torchtitan TOML gives it (`table.key`), which `import::torchtitan` reads.
    pub torchtitan: &'static [&'static str],
    /// The names a Hugging Face `config.json` gives it (the first found is read), which
    /// `import::hf` reads.
    pub hf: &'static [&'static str],
}

// What `Key::spec` (built where it is) fills in for the fields a row leaves out.
#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
impl Spec {
    const NONE: Spec = Spec {
        control: Control::None,
        help: ("", ""),
        wide: false,
        placeholder: "",
        in_help: None,
        note: false,
        url: &[],
        megatron: &[],
        nemo: &[],
        torchtitan: &[],
        hf: &[],
    };
}

/// The mapping of one slider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SliderScale {
    /// Positions `1..=max` are log-spaced from `min` to `max_value`; position 0 is exactly 0
    /// when `zero` (the serial fraction), else `min` too.
    Log {
        min: f64,
        max_value: f64,
        zero: bool,
    },
    /// Position `p` is `2^p`.
    PowerOfTwo,
    /// Position `p` is `p · step`.
    Linear { step: f64 },
}

/// A slider bound to a scenario key.
#[derive(Debug, Clone, Copy)]
pub struct SliderSpec {
    pub key: Key,
    pub min_position: u32,
    pub max_position: u32,
    pub scale: SliderScale,
    /// Reads the slider's value from a scenario.
    pub get: fn(&Scenario) -> f64,
}

/// The positions and scale of a slider: `(min_position, max_position, scale)`.
pub type SliderRange = (u32, u32, SliderScale);

/// 600 log-spaced positions from `min` to `max_value`.
pub const fn log(min: f64, max_value: f64) -> SliderRange {
    (
        0,
        600,
        SliderScale::Log {
            min,
            max_value,
            zero: false,
        },
    )
}

/// Powers of two from 1 to `2^max_exp`.
pub const fn pow2(max_exp: u32) -> SliderRange {
    (0, max_exp, SliderScale::PowerOfTwo)
}

/// Positions `min_position ..= max_position`, each `step` apart.
pub const fn linear(min_position: u32, max_position: u32, step: f64) -> SliderRange {
    (min_position, max_position, SliderScale::Linear { step })
}

impl SliderSpec {
    pub const fn new(key: Key, range: SliderRange, get: fn(&Scenario) -> f64) -> SliderSpec {
        let (min_position, max_position, scale) = range;
        SliderSpec {
            key,
            min_position,
            max_position,
            scale,
            get,
        }
    }
}

/// The length of a label's markup as text ([`plain_label`]).
pub const fn plain_label_len(markup: &str) -> usize {
    plain_label::<0>(markup).1
}

/// A label's markup as text, at compile time: a subscript after `_` (`B<sub>global</sub>` →
/// `B_global`), a superscript after `^`, other tags dropped (labels hold no entities). The
/// bytes, and how many of them are the text (`N` for the array, 0 to only count).
pub const fn plain_label<const N: usize>(markup: &str) -> ([u8; N], usize) {
    let bytes = markup.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut n) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'<' {
            let mut end = i;
            while end < bytes.len() && bytes[end] != b'>' {
                end += 1;
            }
            // `<sub>` and `<sup>`: five bytes, `s`, `u`, then `b` or `p`.
            let mark = if end == i + 4 && bytes[i + 1] == b's' && bytes[i + 2] == b'u' {
                match bytes[i + 3] {
                    b'b' => Some(b'_'),
                    b'p' => Some(b'^'),
                    _ => None,
                }
            } else {
                None
            };
            if let Some(mark) = mark {
                if n < N {
                    out[n] = mark;
                }
                n += 1;
            }
            i = end + 1;
        } else {
            if n < N {
                out[n] = bytes[i];
            }
            n += 1;
            i += 1;
        }
    }
    (out, n)
}

macro_rules! keys {
    ($(
        $variant:ident = $name:literal, $group:ident, $label:literal, $label_zh:literal
        $(, slider($range:expr, $get:expr))?
        $(, field($($path:ident).+ ; $codec:expr))? { $($spec:tt)* };
    )*) => {
        /// A URL / input key. The names are short and stable: they are the URL format.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Key { $( $variant, )* }

        impl Key {
            /// Every key in URL order (a mode key precedes the values it gives meaning to).
            pub const ALL: &'static [Key] = &[ $( Key::$variant, )* ];

            /// The key as written in the URL.
            pub fn name(self) -> &'static str {
                match self { $( Key::$variant => $name, )* }
            }

            /// The input's one English label, as the page shows it: markup (`<var>`,
            /// `<sub>`, `<sup>`) for the symbols; its Chinese is [`Self::label_zh`].
            #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
            pub fn label_markup(self) -> &'static str {
                match self { $( Key::$variant => $label, )* }
            }

            /// What a reader calls this input in English messages: the page's label as
            /// text (`Global batch B_global (tokens)`), made from the markup at compile time
            /// (`plain_label`), so the page's wasm holds the text alone.
            pub fn label(self) -> &'static str {
                match self { $( Key::$variant => {
                    const LEN: usize = plain_label_len($label);
                    const BYTES: [u8; LEN] = plain_label::<LEN>($label).0;
                    const TEXT: &str = match std::str::from_utf8(&BYTES) {
                        Ok(text) => text,
                        Err(_) => panic!("a label's text is UTF-8"),
                    };
                    TEXT
                } )* }
            }

            /// The part of the scenario the input belongs to.
            pub fn group(self) -> Group {
                // A table indexed by the variant (declared in order, from 0): a few bytes of
                // data where a `match` would be code in the page's wasm.
                const GROUPS: &[Group] = &[ $( Group::$group, )* ];
                GROUPS[self as usize]
            }

            /// The label in Chinese, on the page and in messages (`label-<name>` in the
            /// catalogue of a bundle without Chinese).
            pub fn label_zh(self) -> Option<&'static str> {
                #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
                if !crate::i18n::catalogue_forced() {
                    const ZH: &[&str] = &[ $( $label_zh, )* ];
                    return Some(ZH[self as usize]).filter(|zh| !zh.is_empty());
                }
                crate::i18n::ui_zh(&format!("label-{}", self.name()))
            }

            /// How the page asks for the input and what `docs/url.md` says of it.
            #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
            pub fn spec(self) -> Spec {
                use Control::*;
                match self { $( Key::$variant => Spec { $($spec)* ..Spec::NONE }, )* }
            }
        }

        impl Key {
            /// Parses `text` into the field its row names, with its row's codec
            /// ([`super::codec`]); `None` for a key whose row names no field (its parse is an
            /// arm of its group's own). On a refusal the field keeps its value.
            pub(super) fn set_field(
                self,
                scenario: &mut Scenario,
                text: &str,
            ) -> Option<Result<(), String>> {
                #[allow(unused_imports)]
                use {super::codec::*, crate::i18n::tr};
                #[allow(unreachable_patterns)]
                match self {
                    $( $( Key::$variant => Some(
                        Codec::parse($codec, text).map(|v| scenario.$($path).+ = v)
                    ), )? )*
                    _ => None,
                }
            }

            /// The text of the field its row names, as its codec writes it; `None` for a key
            /// whose row names no field.
            pub(super) fn get_field(self, scenario: &Scenario) -> Option<String> {
                #[allow(unused_imports)]
                use {super::codec::*, crate::i18n::tr};
                #[allow(unreachable_patterns)]
                match self {
                    $( $( Key::$variant => Some(Codec::write($codec, &scenario.$($path).+)), )? )*
                    _ => None,
                }
            }
        }

        impl Key {
            /// What the codec of the key's row accepts, as its `docs/url.md` row begins;
            /// `None` for a key whose row names no field.
            #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
            pub fn bounds(self) -> Option<String> {
                #[allow(unused_imports)]
                use {super::codec::*, crate::i18n::tr};
                // The codec, its value's type taken from the field (`Choice::new()`'s enum).
                fn typed<C: Codec>(codec: C, _field: fn(&Scenario) -> &C::Value) -> C {
                    codec
                }
                #[allow(unreachable_patterns)]
                match self {
                    $( $( Key::$variant => Some(Bounds::bounds(typed(
                        $codec,
                        |scenario| &scenario.$($path).+,
                    ))), )? )*
                    _ => None,
                }
            }
        }

        /// Every slider of the page, in key order: its positions, scale and the scenario value
        /// it shows (`crate::controls`). The page sets each range from here at start.
        pub const SLIDERS: &[SliderSpec] = &[
            $( $( SliderSpec::new(Key::$variant, $range, $get), )? )*
        ];
    };
}

keys! {
    // `embed` first: it also selects its panel, and a later `view` may still override that.
    Embed = "embed", Display, "Embedded panel", "嵌入的面板" {
        url: &["show one panel with minimal chrome, for an iframe; also selects that panel", "none", "`laws`, `strong`, `weak`, `plan`"],
    };
    View = "view", Display, "Panel", "面板",
        field(view; Choice::new()) {
        url: &["which panel is shown", "`laws` (the LLM presets set `strong` or `weak`; no preset sets `plan`)", "`learn` is the definitions and exercises"],
    };
    Lang = "lang", Display, "Language", "语言" {
        url: &["interface language; without it the browser's language decides", "browser", "`en`, `zh` (or `zh-CN`, `en-GB` …)"],
    };
    Theme = "theme", Display, "Theme", "配色主题" {
        url: &["colour theme; without it `prefers-color-scheme` decides", "system", "`light`, `dark`"],
    };
    Show = "show", Display, "What an embed shows", "嵌入时显示的内容" {
        url: &["with `embed`: `charts` shows the panel's charts (with their captions and readouts) and the link to the full page, nothing else — for an article that wants the figure", "everything", "`charts`"],
    };
    SerialFraction = "f", Laws, "Serial fraction <var>f</var>", "串行比例 f",
        slider((0, 1000, SliderScale::Log { min: 1e-4, max_value: 1.0, zero: true }), |s| s.laws.serial_fraction),
        field(laws.serial_fraction; Fraction) {
        control: Decimal,
        help: ("0 … 1, e.g. <code>0.05</code> or <code>5%</code>", "0 … 1，例如 0.05 或 5%"),
        url: &["serial fraction `f` (Amdahl's; Gustafson's for the Gustafson curve)", "`0.05`", "a value between 0 and `1e-12` is refused (write `0` for no serial part)"],
    };
    CompareFractions = "fs", Laws, "Compare <var>f</var> values", "对比的 f 值",
        field(laws.compare_fractions; Fractions { max: super::MAX_COMPARE_FRACTIONS }) {
        control: Text,
        help: ("up to 8 values, comma-separated: <code>1%, 10%, 0.25</code>", "最多 8 个，逗号分隔：1%, 10%, 0.25"),
        url: &["further `f` values drawn for comparison (Amdahl)", "`0.01,0.1,0.25`", ""],
    };
    MaxProcessors = "n", Laws, "Processors <var>N</var> (axis maximum)", "处理器数 N（横轴上限）",
        slider((1, 30, SliderScale::PowerOfTwo), |s| s.laws.max_processors as f64),
        field(laws.max_processors; Whole::from(2)) {
        control: Decimal,
        help: ("2 … 2<sup>30</sup>, e.g. <code>4096</code>, <code>4Ki</code>, <code>64k</code>", "2 … 2^30，例如 4096、4Ki、64k"),
        url: &["largest processor count `N` on the axis (rows at 1, 2, 4, … and `N`)", "`4096`", ""],
    };
    GrowthExponent = "g", Laws, "Sun–Ni growth exponent <var>g</var> in <var>G(N) = N<sup>g</sup></var>", "Sun–Ni 增长指数 g，G(N) = N^g",
        slider(linear(0, 200, 0.01), |s| s.laws.growth_exponent),
        field(laws.growth_exponent; Range { lo: 0.0, hi: super::laws::MAX_GROWTH_EXPONENT, hint: tr("(0 = Amdahl, 1 = Gustafson)", "（0 = Amdahl，1 = Gustafson）") }) {
        control: Decimal,
        help: ("0 = Amdahl (fixed work), 1 = Gustafson (work ∝ N)", "0 = Amdahl（工作量固定），1 = Gustafson（工作量 ∝ N）"),
        url: &["Sun–Ni growth exponent in `G(N) = N^g` (0 = Amdahl, 1 = Gustafson)", "`0.5`", ""],
    };
    MeasuredKind = "mk", Laws, "Measured values are", "实测数值类型" {
        control: Select(&[("time", "run times", "运行时间"), ("speedup", "speedups", "加速比")]),
        url: &["what measured values are", "`time`", "`time`, `speedup`"],
    };
    Measured = "m", Laws, "Measured points (Karp–Flatt)", "实测数据点（Karp–Flatt）",
        field(laws.measured; Points) {
        control: Area,
        in_help: Some(Key::MeasuredKind),
        help: ("Pairs of <var>N</var> and a value, one per line (or <code>1:100, 4:30</code>). The values are …", "每行一对 N 和数值（或写成 1:100,4:30）。数值是……"),
        wide: true,
        placeholder: "1  1000ms\n8  150ms\n64 52ms",
        url: &["measured points for Karp–Flatt, `N:value` pairs", "empty", "values `1e-9 … 10^15`; `1:100,2:52,4:28`; values may carry `ms`/`s` or `x`"],
    };
    GlobalBatch = "b", Llm, "Global batch <var>B</var><sub>global</sub> (tokens)", "global batch B_global（tokens）",
        slider(log(1e5, 1e10), |s| s.llm.global_batch_tokens) {
        control: Decimal,
        help: ("e.g. <code>32M</code>, <code>4Mi</code>", "例如 32M、4Mi"),
        megatron: &["--global-batch-size"],
        nemo: &["data.global_batch_size"],
        torchtitan: &["training.global_batch_size"],
        url: &["global batch `B_global`, tokens per optimizer step (fixed in the strong sweep; the weak sweep's baseline)", "`32M`", "`1 … 1P` (10^15) tokens: `32M`, `4Mi`, `32M tokens`; or whole sequences of `sq`, as a launch's `--global-batch-size` counts them: `2048 sequences`, `2048 seq` (refused without `sq`); written back in tokens", "§2"],
    };
    Accumulation = "a", Llm, "Gradient accumulation <var>A</var>", "梯度累积步数 A",
        slider(pow2(10), |s| s.llm.accumulation as f64),
        field(llm.accumulation; Degree { zero: false }) {
        control: Decimal,
        help: ("microbatches per step per DP rank", "每个 DP rank 每步的 microbatch 数"),
        url: &["gradient-accumulation steps `A` (microbatches per step per DP rank)", "`1`", "", "§2"],
    };
    Microbatch = "mbs", Llm, "Microbatch size (sequences; 0 = A fixed)", "microbatch 大小（序列数；0 = 固定 A）",
        field(llm.microbatch_sequences; Degree { zero: true }) {
        control: Decimal,
        help: ("sequences per microbatch, held as <var>N</var> grows: <var>A</var> falls instead (needs <code>sq</code>)", "每个 microbatch 的序列数，N 增大时保持不变，改为 A 减小（需要 sq）"),
        megatron: &["--micro-batch-size"],
        nemo: &["data.micro_batch_size"],
        torchtitan: &["training.local_batch_size", "training.batch_size", "parallelism.pipeline_parallel_microbatch_size"],
        url: &["microbatch size in sequences, held fixed as `N` grows (Megatron's `--micro-batch-size`): `A = ⌈B/(D · mbs · sq)⌉` at each GPU count, so `A` falls in strong scaling, and once `A = 1` the microbatch itself shrinks; `a` is then not used. `0` holds `a` fixed instead (the article's model, where `T` falls). Needs the shape's `sq`", "`0`", "with `sq=0`, refused (\"a microbatch of … sequences needs the sequence length sq\")", "§2, §12.8"],
    };
    LayoutExplorer = "lx", Llm, "Layout explorer at GPUs (0 = off)", "布局搜索的卡数（0 = 关闭）",
        field(llm.explorer_gpus; Count(0.0)) {
        control: Decimal,
        help: ("every layout at this GPU count, fastest first, each with why it loses; needs the shape", "该卡数下的所有布局，最快的在前，并说明每种为何落后；需要形状"),
        url: &["The layout explorer's GPU count (page: \"Layout explorer at GPUs\", on the Strong tab below the fit): the Strong panel and `scaling strong` show the ranking there (the table \"Layouts at … GPUs, fastest first\", the ten fastest and the scenario's own, each with why it loses), and on the page five links \"Use #k: …\" type the fastest ones in (`tp`, `pp`, `cp`, `ep`, `mbs`, `sched`, `vc`, `zero`, `ac`); `0` hides it. Needs the model's shape (else the explorer says so)", "`0`", "a count no layout divides is explained in the explorer (\"no layout divides … GPUs with at least one sequence per replica\")", "§14"],
    };
    LayoutSearch = "lay", Llm, "Layout at each GPU count", "每个卡数下的并行布局",
        field(llm.best_layout; Toggle { off: "fixed", on: "best" }) {
        control: Select(&[
            ("fixed", "fixed (this scenario's)", "固定（本场景的布局）"),
            ("best", "best (search every layout)", "最佳（搜索所有布局）"),
        ]),
        help: ("best: at each table row, every TP·PP·CP·EP·DP, microbatch, ZeRO and recomputation that fits; the fastest is drawn dotted; needs the shape", "最佳：在表格的每一行，搜索放得下的每种 TP·PP·CP·EP·DP、microbatch 大小、ZeRO 与重计算；最快者画成点线；需要形状"),
        url: &["The layout at each GPU count (page: \"Layout at each GPU count\", in the walls group): `fixed` keeps the scenario's own (`tp`, `pp`, `cp`, `ep`, `a`/`mbs`, `sched`, `vc`, `zero`, `ac`) at every row; `best` also searches every layout at each table row and adds the fastest that fits (\"best layout\", \"best step (ms)\", \"best MFU\"; JSON rows carry `best_layout`), a dotted \"best layout\" line on the step and throughput charts, and the throughput peak of the best layouts; on the Plan panel, weak-then-strong with the best layout at each row (a column, a dotted line on both charts, and the row where time to quality is least). Needs the model's shape", "`fixed`", "`best` without a shape is refused (\"the layout search needs the model's shape …\")", "§14"],
    };
    Tp = "tp", Llm, "Tensor parallel TP", "张量并行 TP",
        slider(pow2(6), |s| s.llm.tp as f64),
        field(llm.tp; Degree { zero: false }) {
        control: Decimal,
        help: ("powers of two are typical", "通常取 2 的幂"),
        megatron: &["--tensor-model-parallel-size"],
        nemo: &["trainer.strategy.tensor_model_parallel_size"],
        torchtitan: &["parallelism.tensor_parallel_degree", "training.tensor_parallel_degree", "training.sequence_parallel_degree"],
        url: &["tensor-parallel degree", "`1`", "", "§2"],
    };
    Pp = "pp", Llm, "Pipeline parallel PP", "流水线并行 PP",
        slider(pow2(6), |s| s.llm.pp as f64),
        field(llm.pp; Degree { zero: false }) {
        control: Decimal,
        help: ("stages; adds a bubble", "流水线 stage 数；会引入气泡"),
        megatron: &["--pipeline-model-parallel-size"],
        nemo: &["trainer.strategy.pipeline_model_parallel_size"],
        torchtitan: &["parallelism.pipeline_parallel_degree", "experimental.pipeline_parallel_degree", "training.pipeline_parallel_degree"],
        url: &["pipeline-parallel degree (stages `p`; adds a bubble with `em=fsdp`)", "`1`", "", "§2, §3.2(c)"],
    };
    Cp = "cp", Llm, "Context parallel CP", "上下文并行 CP",
        slider(pow2(6), |s| s.llm.cp as f64),
        field(llm.cp; Degree { zero: false }) {
        control: Decimal,
        megatron: &["--context-parallel-size"],
        nemo: &["trainer.strategy.context_parallel_size"],
        torchtitan: &["parallelism.context_parallel_degree", "experimental.context_parallel_degree"],
        url: &["context-parallel degree", "`1`", "", "§2"],
    };
    TotalParams = "p", Llm, "Total parameters <var>P</var>", "总参数量 P",
        slider(log(1e8, 1e13), |s| s.llm.total_params),
        field(llm.total_params; Si { min: 1e3, max: 1e15, params: true }) {
        control: Decimal,
        help: ("what FSDP moves, e.g. <code>8B</code>", "FSDP 搬运的参数量，例如 8B"),
        url: &["total parameters `P` (what FSDP moves)", "`1.776B`", "`8B`, `8.03G`, `46.7B`", "§3.2(c), §4"],
    };
    ActiveParams = "pa", Llm, "Active parameters <var>P</var><sub>a</sub>", "激活参数量 P_a",
        slider(log(1e8, 1e13), |s| s.llm.active_params),
        field(llm.active_params; Si { min: 1e3, max: 1e15, params: true }) {
        control: Decimal,
        help: ("per token; below <var>P</var> for MoE", "每个 token 激活的参数；MoE 时小于 P"),
        url: &["active parameters per token `P_a` (below `P` for MoE)", "`1.776B`", "at most `p`", "§3.1, §4"],
    };
    Machine = "mach", Llm, "Machine", "机型" {
        control: Select(&[
            ("", "custom: the values typed below", "自定义：下面输入的值"),
            ("a100", "A100 SXM 80GB", ""),
            ("h100", "H100 SXM", ""),
            ("h200", "H200 SXM", ""),
            ("b200", "B200 (DGX)", ""),
            ("b300", "B300 (DGX)", ""),
            ("gb200", "GB200 NVL72", ""),
            ("gb300", "GB300 NVL72", ""),
            ("mi300x", "MI300X", ""),
            ("mi325x", "MI325X", ""),
            ("mi355x", "MI355X", ""),
        ]),
        help: ("types its datasheet values into peak, GPU memory, NVLink domain and bandwidths; each stays editable (sources: <code>scaling machines</code>)", "把数据手册中的峰值、显存、NVLink 域和带宽填入下面各项，仍可逐项修改（各值来源见机型表）"),
        url: &["a machine from the datasheet table ([machines.md](machines.md)): choosing it sets `peak` (at `prec`), `hbm`, `nvd`, `bnv` and, where the platform fixes a NIC, `beff`, and gives `cm=physics` its HBM bandwidth for the elementwise kernels (§12.3); keys given after it in the link override its values, and the link writes only the values that differ from it", "empty (custom: the values as typed)", "`a100`, `h100`, `h200`, `b200`, `b300`, `gb200`, `gb300`, `mi300x`, `mi325x`, `mi355x`, or empty / `custom`; else refused (\"… is not a machine: a100, h100, … or custom\"); a machine without a peak at `prec` is refused (\"H100 SXM has no NVFP4 peak (its formats: BF16, FP8)\")", "§12.4, [machines.md](machines.md)"],
    };
    Precision = "prec", Llm, "GEMM precision", "GEMM 精度" {
        control: Select(&[
            ("bf16", "BF16", ""),
            ("fp8", "FP8 (per-tensor or blockwise scaling)", "FP8（按张量或分块缩放）"),
            ("mxfp8", "MXFP8", ""),
            ("nvfp4", "NVFP4", ""),
        ]),
        help: ("picks the machine's peak; the bytes on the wire stay <var>s</var><sub>w</sub>", "选择机型在该精度下的峰值；通信字节数仍由 s_w 决定"),
        url: &["the GEMMs' number format: with a machine (`mach`) it sets `peak` to that machine's peak at this format (MXFP8 at the FP8 rate on Blackwell and MI355X); the bytes the collectives move stay `sw` and `gw` (8-bit parameter gathers are the `fp8` lever)", "`bf16`", "`bf16`, `fp8`, `mxfp8`, `nvfp4`; else refused (\"… is not one of bf16, fp8, mxfp8, nvfp4\"); a format the machine lacks is refused (\"A100 SXM 80GB has no FP8 peak (its formats: BF16)\")", "§12.4, [machines.md](machines.md)"],
    };
    Flops = "feff", Llm, "Achieved FLOP/s per GPU <var>F</var><sub>eff</sub>", "单卡实际 FLOP/s F_eff",
        slider(log(1e13, 1e16), |s| s.llm.flops_per_gpu),
        field(llm.flops_per_gpu; Si { min: 1e9, max: 1e18, params: false }) {
        control: Decimal,
        help: ("e.g. <code>400T</code> (≈40% of H100's 989T bf16)", "例如 400T（约为 H100 bf16 989T 的 40%）"),
        url: &["achieved FLOP/s per GPU `F_eff`", "`370T`", "`400T`, `400 TFLOP/s`", "§3.1, §4"],
    };
    PeakFlops = "peak", Llm, "Peak FLOP/s per GPU (for MFU)", "单卡峰值 FLOP/s（用于 MFU）",
        field(llm.peak_flops_per_gpu; Si { min: 1e9, max: 1e18, params: false }) {
        control: Decimal,
        help: ("e.g. <code>989T</code> (H100 bf16 dense), <code>1979T</code> (fp8)", "例如 989T（H100 bf16 稠密），1979T（fp8）"),
        url: &["peak FLOP/s per GPU: the denominator of MFU, `F_tok·B/(N·t_step·peak)`, where `F_tok` counts attention's `12·L·h·s` FLOPs per token with a shape (PaLM's convention, as the published runs count it) and `6·P_a` without one (JSON `summary.mfu_convention`: `with-attention` or `weights-only`); also the MFU of a fit (`em=fit`) and the rate of `cm=physics`", "`989T` (H100 SXM dense bf16)", "`989T`, `1979T` (fp8)", "§3.2(d), §12"],
    };
    Bandwidth = "beff", Llm, "Bus bandwidth per GPU <var>B</var><sub>eff</sub> (bytes/s)", "单卡总线带宽 B_eff（字节/秒）",
        slider(log(1e9, 2e12), |s| s.llm.bus_bytes_per_s),
        field(llm.bus_bytes_per_s; Si { min: 1e6, max: 1e15, params: false }) {
        control: Decimal,
        help: ("<code>50G</code> = 400G InfiniBand; NVLink ≈ <code>400G</code>", "50G = 400G InfiniBand；NVLink ≈ 400G"),
        url: &["achieved bus bandwidth per GPU `B_eff`, **bytes**/s (400 Gb/s InfiniBand = `50G`)", "`100G`", "`50G`, `400 GB/s`", "§3.2(c), §4"],
    };
    Gathers = "c", Llm, "Parameter transfers per microbatch <var>c</var>", "每个 microbatch 的参数通信次数 c",
        slider(linear(1, 4, 1.0), |s| s.llm.gathers),
        field(llm.gathers; Range { lo: 1.0, hi: 4.0, hint: tr("(3 = FSDP default, 2 = reshard_after_forward=False)", "（3 = FSDP 默认，2 = reshard_after_forward=False）") }) {
        control: Decimal,
        help: ("3 = FSDP (2 gathers + reduce-scatter); 2 = no reshard after forward", "3 = FSDP（2 次 AllGather + ReduceScatter）；2 = 前向后不 reshard"),
        url: &["parameter transfers per microbatch (3 = FSDP's two AllGathers + ReduceScatter; 2 = `reshard_after_forward=False`)", "`3`", "", "§3.2(c), §4"],
    };
    WireBytes = "sw", Llm, "Bytes per parameter on the wire <var>s</var><sub>w</sub>", "通信中每个参数的字节数 s_w",
        field(llm.wire_bytes_per_param; Range { lo: 0.5, hi: 8.0, hint: tr("(4 fp32, 2 bf16, 1 fp8)", "（4 = FP32，2 = BF16，1 = FP8）") }) {
        control: Select(&[
            ("4", "4 — fp32", ""),
            ("2", "2 — bf16", ""),
            ("1", "1 — fp8", ""),
        ]),
        help: ("fp8 halves bf16's bytes", "FP8 字节数是 bf16 的一半"),
        url: &["bytes per parameter on the wire `s_w` (4 fp32, 2 bf16, 1 fp8)", "`2`", "the page's menu offers 4, 2, 1", "§3.2(c), §4"],
    };
    GradientBytes = "gw", Llm, "Gradient bytes per parameter", "每个参数的梯度字节数" {
        control: Select(&[
            ("0", "as on the wire, bf16 held", "与通信字节数 s_w 相同（显存中按 BF16 存）"),
            ("4", "4 — fp32", ""),
            ("2", "2 — bf16", ""),
        ]),
        help: ("fp32 main gradients: Megatron-LM's, and Llama 3's reduce-scatter", "fp32 主梯度：Megatron-LM 的做法，也是 Llama 3 的 reduce-scatter"),
        url: &["bytes per parameter of the gradients: their reduce-scatter on the wire (`sw` is then the weights' gathers) and, with a shape, the gradients held (4: Megatron-LM's fp32 main gradients, `6 + 12/d` bytes per parameter under its distributed optimizer; Llama 3 reduce-scatters in fp32)", "`0` (as `sw` on the wire, bf16 held)", "`0`, or `0.5 … 8` (the page's menu offers 4, 2); else refused", "§12.2, §12.5"],
    };
    ComputeMode = "cm", Llm, "Compute time from", "计算时间来自",
        field(llm.compute_mode; Choice::new()) {
        control: Select(&[
            ("auto", "auto: physics once the shape gives P, else time", "自动：有形状（可得出 P）时用物理推算，否则用 N₀ 时的实测时间"),
            ("time", "a measured time at N₀", "N₀ 时的实测时间"),
            ("flops", "(6·P_a + attention)·B/(N·F_eff)", "(6·P_a + 注意力)·B/(N·F_eff)"),
            ("physics", "physics: F_eff = r_inf·peak·η", "物理推算：F_eff = r_inf·峰值·η"),
        ]),
        url: &["where compute time comes from", "`auto`", "`auto` (= `physics` once the model's shape is complete and implies `P` within 10%, else `time`; the panels' figure \"Step model in force\" says which; a preset names its own mode), `time` (= `tc` at `n0`), `flops` (= `F_tok·B/(N·F_eff)`, `F_tok = 6·P_a`, plus attention's `12·L·h·s` with a shape), `physics` (the same with `F_eff = r∞ · peak · η(own layout at n0) / r(own recomputation)`, `r∞` from `stack` or `rinf`, the kernels shrinking with the shape; `r∞ · peak` without a shape; a fit, `em=fit`, keeps its own rate)", "§3.1, §14"],
    };
    Stack = "stack", Llm, "Software stack (sets r_inf)", "软件栈（决定 r_inf）",
        field(llm.stack; Choice::new()) {
        control: Select(&[
            ("megatron", "Megatron-Core / NeMo, BF16", "Megatron-Core / NeMo，BF16"),
            ("megatron-fp8", "Megatron-Core / NeMo, FP8", "Megatron-Core / NeMo，FP8"),
            ("meta", "Meta's Llama 3 stack", "Meta 的 Llama 3 训练栈"),
            ("torchtitan", "torchtitan (eager FSDP2)", "torchtitan（FSDP2，未编译）"),
            ("foundry", "llm-foundry (FSDP)", "llm-foundry（FSDP）"),
        ]),
        help: ("with compute from physics: each r_inf calibrated on one published run", "计算来自物理推算时使用：每个 r_inf 都在一次公布的训练上标定"),
        url: &["the software stack whose `r∞` sets the rate with `cm=physics`: `megatron` (0.6285, DGX Cloud GPT-3 BF16 at 128 GPUs), `megatron-fp8` (0.4695, the same in FP8), `meta` (0.5661, Llama 3.1 405B at 8,192 GPUs), `torchtitan` (0.3597, Llama 3.1 8B FSDP at 128), `foundry` (0.4283, MPT-13B at 8)", "`megatron`", "", "§14"],
    };
    LargeGemmFraction = "rinf", Llm, "Fraction of peak at large GEMMs <var>r</var><sub>inf</sub>", "大 GEMM 时达到的峰值比例 r_inf" {
        control: Decimal,
        help: ("0 = the stack's; at most 1", "0 = 用软件栈的值；至多为 1"),
        url: &["`r∞` itself: the fraction of `peak` a step reaches when its GEMMs are large (`cm=physics`)", "`0` (the stack's)", "`0 … 1`; else refused", "§14"],
    };
    ComputeMs = "tc", Llm, "Compute time at <var>N</var><sub>0</sub> (ms)", "N₀ 时的计算时间（ms）",
        slider(log(1.0, 1e5), |s| s.llm.compute_ms) {
        control: Decimal,
        help: ("e.g. <code>900ms</code>, <code>1.2s</code>", "例如 900ms、1.2s"),
        url: &["compute time per step at `n0` GPUs for batch `b` (used when `cm=time`)", "`900` (ms)", "a duration `1 µs … 1 h` (`0.001` … `3600000` ms): `900`, `900ms`, `1.2s`", "§3.1"],
    };
    BaselineGpus = "n0", Llm, "Baseline GPUs <var>N</var><sub>0</sub>", "基线 GPU 数 N₀",
        field(llm.baseline_gpus; Count(1.0)) {
        control: Text,
        help: ("efficiencies are relative to this count", "效率相对于此卡数计算"),
        url: &["baseline GPU count `N₀`: efficiencies, ideal times and the weak sweep's tokens per rank are relative to it", "`1024`", "a multiple of `tp×pp×cp`; need not be one of `ns`", "§3.3"],
    };
    ExposedMode = "em", Llm, "Exposed time from", "暴露时间来自",
        field(llm.exposed_mode; Choice::new()) {
        control: Select(&[
            ("auto", "auto: FSDP once the shape gives P, else table", "自动：有形状（可得出 P）时用 FSDP 模型，否则用暴露时间表"),
            ("table", "a table of exposed ms", "暴露时间表（ms）"),
            ("step", "measured step times", "实测单步时间"),
            ("fsdp", "the FSDP model", "FSDP 模型"),
            ("fit", "a fit of measured step times", "拟合实测单步时间"),
        ]),
        help: ("fit: paste step times at one global batch into <var>st</var>; the page fits <var>t</var>(<var>N</var>) = <var>W</var>/<var>N</var> + <var>K</var> and predicts every <var>N</var>", "fit：把同一 global batch 下的单步时间粘贴到 st；页面拟合 t(N) = W/N + K 并预测每个 N"),
        url: &["where exposed time comes from", "`auto`", "`auto` (= `fsdp` once the shape agrees with `P`, as `cm=auto`, else `table`), `table` (= `ex`), `step` (= `st`), `fsdp` (mechanistic), `fit` (`st` fitted to `t(N) = W/N + K`: compute and exposed time both from the fit)", "§3.2"],
    };
    ExposedTable = "ex", Llm, "Exposed time table (<var>N</var>:ms)", "暴露时间表（N:ms）",
        field(llm.exposed_table; Table) {
        control: Text,
        help: ("used when exposed time is from a table; interpolated in log <var>N</var>", "暴露时间取自表格时使用；按 log N 插值"),
        wide: true,
        url: &["exposed ms at some GPU counts, interpolated linearly in log `N` (used when `em=table`)", "`1024:100,4096:150,8192:220,16384:300`", "values `0` or `1e-9 … 10^15` ms (may carry `ms`/`s`)", "§3.2(a)"],
    };
    StepTable = "st", Llm, "Measured step times (<var>N</var>:ms)", "实测单步时间（N:ms）" {
        control: Text,
        help: ("step: exposed = step − compute at each <var>N</var>; fit: all of the step, same global batch", "step：每个 N 上，暴露 = 单步时间 − 计算；fit：拟合整个单步时间，同一 global batch"),
        wide: true,
        note: true,
        url: &["measured step ms at some GPU counts for batch `b` (`em=step`: exposed = step − compute; `em=fit`: at least two points, falling with `N`, fitted to `W/N + K ≥ 0`, else refused with a message naming `st`; a point may carry its global batch in tokens, `N:ms@B`, and points at one number of tokens per GPU (a weak sweep) are fitted to `W·(B/b)/N + κ·log₂(N/M)`, §3.2(d))", "`1024:1000,4096:375,8192:332.5,16384:356.25`", "as `ex`", "§3.2(b)"],
    };
    FitOn = "fp", Llm, "GPU counts the fit uses (<var>N</var>, …)", "拟合使用的卡数（N, …）",
        field(llm.fit_on; GpuList { empty: true }) {
        control: Text,
        help: ("em=fit: empty fits every st point; otherwise the other points are predictions, with their error", "em=fit：留空则拟合全部 st 点；否则其余点是预测值，并给出误差"),
        wide: true,
        url: &["the `st` GPU counts `em=fit` fits on; the other `st` points are predictions held against measurement", "empty (all points)", "the GPU counts `st` measures, at least two", "§3.2(d)"],
    };
    FixedMs = "fix", Llm, "Fixed exposed time per step (ms)", "每步固定暴露时间（ms）",
        slider(linear(0, 500, 1.0), |s| s.llm.fixed_ms) {
        control: Decimal,
        help: ("FSDP model: first gather / last reduce, and the optimizer unless a machine is chosen", "FSDP 模型：首次 gather / 末次 reduce，未选机器时还有优化器"),
        url: &["fixed exposed time per step: first gather / last reduce-scatter, and the optimizer unless a machine is chosen (with `mach` and a shape the model times the optimizer's step itself, §12.5) (used when `em=fsdp`)", "`0` (ms)", "a duration `0 … 1 h`", "§3.2(c), §12.5"],
    };
    Schedule = "sched", Llm, "Pipeline schedule", "流水线调度",
        field(llm.schedule; Choice::new()) {
        control: Select(&[
            ("1f1b", "1F1B", ""),
            ("interleaved", "interleaved", "交错式"),
            ("zero-bubble", "zero bubble", "零气泡"),
        ]),
        help: ("bubble (p−1)/m, (p−1)/(v·m) or ≈0", "气泡 (p−1)/m、(p−1)/(v·m) 或 ≈0"),
        megatron: &["--num-layers-per-virtual-pipeline-stage"],
        nemo: &["trainer.strategy.virtual_pipeline_model_parallel_size"],
        torchtitan: &["parallelism.pipeline_parallel_schedule"],
        url: &["pipeline schedule (used when `em=fsdp` and `pp > 1`)", "`1f1b`", "`zb` too, written back as `zero-bubble`", "§3.2(c)"],
    };
    Chunks = "vc", Llm, "Interleaved chunks per stage <var>v</var>", "每个 stage 的交错块数 v" {
        control: Text,
        megatron: &["--num-layers-per-virtual-pipeline-stage"],
        nemo: &["trainer.strategy.virtual_pipeline_model_parallel_size"],
        torchtitan: &["parallelism.pipeline_parallel_layers_per_stage"],
        url: &["virtual chunks per stage `v` (used when `sched=interleaved`)", "`2`", "whole number `1 … 64`; a fraction is refused, not rounded (`vc=2.5`: \"2.5 is not a whole number\")", "§3.2(c)"],
    };
    Layers = "nl", Walls, "Layers <var>L</var>", "层数 L",
        field(llm.walls.layers; Size) {
        control: Decimal,
        help: ("<code>0</code> = no shape: the article's model (constant <var>F</var><sub>eff</sub>)", "0 = 不给形状：原文模型（F_eff 不变）"),
        megatron: &["--num-layers"],
        nemo: &["model.config.num_layers"],
        hf: &["num_hidden_layers", "n_layer", "num_layers"],
        url: &["layers `L` of the model's shape. `0` means no shape: the article's model, with no memory, a constant `F_eff` and FSDP traffic only. The shape is complete when `nl`, `hd`, `nh`, `sq` and `voc` are all above 0; until then the memory charts say which keys they need (a partial shape is not an error)", "`0`", "PP must not exceed it (stages may be unequal: the busiest holds `⌈L/PP⌉` layers)", "§12.1"],
    };
    Hidden = "hd", Walls, "Hidden size <var>h</var>", "隐藏维度 h",
        field(llm.walls.hidden; Size) {
        control: Decimal,
        help: ("e.g. <code>12288</code> (GPT-3 175B)", "如 12288（GPT-3 175B）"),
        megatron: &["--hidden-size"],
        nemo: &["model.config.hidden_size"],
        hf: &["hidden_size", "n_embd", "n_embed", "d_model"],
        url: &["hidden size `h`", "`0`", "`12288`, `4096`", "§12.1"],
    };
    Heads = "nh", Walls, "Attention heads <var>a</var>", "注意力头数 a",
        field(llm.walls.heads; Size) {
        control: Decimal,
        help: ("TP must divide it", "TP 必须能整除它"),
        megatron: &["--num-attention-heads"],
        nemo: &["model.config.num_attention_heads"],
        hf: &["num_attention_heads", "n_head"],
        url: &["attention (query) heads `a`", "`0`", "TP must divide it", "§12.1, §12.2"],
    };
    KvHeads = "kvh", Walls, "Key/value heads", "KV 头数",
        field(llm.walls.kv_heads; Size) {
        control: Decimal,
        help: ("<code>0</code> = as many as the heads; <code>8</code> for Llama 3 (GQA)", "0 = 与注意力头数相同；Llama 3 为 8（GQA）"),
        megatron: &["--num-query-groups"],
        nemo: &["model.config.num_query_groups"],
        hf: &["num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num"],
        url: &["key/value heads (grouped-query attention; Llama 3: 8)", "`0` (= as many as `nh`: multi-head)", "must divide `nh`", "§12.1, §12.4"],
    };
    HeadDim = "hdim", Walls, "Head width <var>d<sub>h</sub></var>", "每个注意力头的宽度",
        field(llm.walls.head_dim; Size) {
        control: Decimal,
        help: ("<code>0</code> = <var>h</var>/heads; Qwen3: <code>128</code>", "0 = h/头数；Qwen3 为 128"),
        megatron: &["--kv-channels"],
        nemo: &["model.config.kv_channels"],
        hf: &["head_dim", "qk_nope_head_dim"],
        url: &["the width of one attention head `d_h`: attention weights `2·h·d_h·(nh + kvh)` per layer and attention FLOPs `12·L·nh·d_h·s` per token (Qwen3 and GPT-OSS give heads their own width)", "`0` (= `hd/nh`)", "`128`", "§12.1"],
    };
    KvLoraRank = "kvr", Walls, "Latent K/V width <var>r<sub>kv</sub></var>", "潜在注意力 K/V 压缩宽度 r_kv",
        field(llm.walls.kv_lora_rank; Size) {
        control: Decimal,
        help: ("multi-head latent attention; <code>0</code> = standard attention; DeepSeek-V3: <code>512</code>", "多头潜在注意力；0 = 标准注意力；DeepSeek-V3 为 512"),
        hf: &["kv_lora_rank"],
        url: &["multi-head latent attention's compressed key/value width `r_kv` (DeepSeek-V2 §2.1): with it `hdim` is each head's key and value width without RoPE, and the attention's weights and FLOPs are latent attention's", "`0` (standard attention)", "`512`", "§12.1"],
    };
    QLoraRank = "qr", Walls, "Latent query width <var>r<sub>q</sub></var>", "潜在注意力 Q 压缩宽度 r_q",
        field(llm.walls.q_lora_rank; Size) {
        control: Decimal,
        help: ("with <code>kvr</code>; <code>0</code> = queries straight from <var>h</var>; DeepSeek-V3: <code>1536</code>", "需 kvr；0 = Q 直接由 h 投影；DeepSeek-V3 为 1536"),
        hf: &["q_lora_rank"],
        url: &["latent attention's compressed query width `r_q`", "`0` (queries projected from `h`)", "needs `kvr > 0`", "§12.1"],
    };
    RopeDim = "rope", Walls, "Latent RoPE width <var>d<sub>R</sub></var>", "潜在注意力旋转位置编码宽度 d_R",
        field(llm.walls.rope_dim; Size) {
        control: Decimal,
        help: ("with <code>kvr</code>: added to each head's query and key; DeepSeek-V3: <code>64</code>", "需 kvr：加在每个头的 Q 与 K 上；DeepSeek-V3 为 64"),
        hf: &["qk_rope_head_dim"],
        url: &["latent attention's decoupled RoPE width `d_R`, per query head and one shared key: queries and keys are `hdim + rope` wide", "`0`", "needs `kvr > 0`", "§12.1"],
    };
    Ffn = "ffn", Walls, "Gated MLP size", "门控 MLP 宽度",
        field(llm.walls.ffn; Size) {
        control: Decimal,
        help: ("<code>0</code> = GPT's 4<var>h</var> MLP; Llama 3 8B: <code>14336</code>", "0 = GPT 的 4h MLP；Llama 3 8B：14336"),
        megatron: &["--ffn-hidden-size"],
        nemo: &["model.config.ffn_hidden_size"],
        hf: &["intermediate_size", "ffn_hidden_size", "n_inner", "moe_intermediate_size", "model_type"],
        url: &["inner width of a gated MLP (SwiGLU: `3·h·ffn` weights per layer)", "`0` (= GPT's `4h` MLP, `8h²`)", "`14336`", "§12.1"],
    };
    SeqLen = "sq", Walls, "Sequence length <var>s</var>", "序列长度 s",
        field(llm.walls.seq_len; Size) {
        control: Decimal,
        help: ("tokens per sequence; CP must divide it", "每条序列的 token 数；CP 必须能整除它"),
        megatron: &["--seq-length"],
        nemo: &["data.seq_length", "model.config.seq_length"],
        torchtitan: &["training.seq_len"],
        url: &["sequence length `s`, tokens (the attention term of the activations; CP splits it)", "`0`", "CP must divide it", "§12.2"],
    };
    Vocab = "voc", Walls, "Vocabulary <var>V</var>", "词表大小 V",
        field(llm.walls.vocab; Size) {
        control: Decimal,
        help: ("e.g. <code>128256</code> (Llama 3)", "如 128256（Llama 3）"),
        megatron: &["--vocab-size"],
        nemo: &["model.config.vocab_size"],
        hf: &["vocab_size", "padded_vocab_size"],
        url: &["vocabulary `V` (untied embeddings, `2·V·h`)", "`0`", "`50257`, `128256`", "§12.1"],
    };
    Experts = "ne", Walls, "Experts <var>E</var>", "专家数 E",
        field(llm.walls.experts; Count(1.0)) {
        control: Decimal,
        help: ("<code>1</code> = dense", "1 = 稠密"),
        megatron: &["--num-experts"],
        nemo: &["model.config.num_moe_experts"],
        hf: &["num_local_experts", "n_routed_experts", "num_experts"],
        url: &["experts per MoE layer `E` (with `ne > 1`, every layer is an MoE layer)", "`1` (dense)", "", "§12.1, §12.6"],
    };
    ExpertsPerToken = "ke", Walls, "Experts per token <var>k</var>", "每个 token 的专家数 k",
        field(llm.walls.experts_per_token; Count(1.0)) {
        control: Decimal,
        help: ("top-<var>k</var> routing", "top-k 路由"),
        megatron: &["--moe-router-topk"],
        nemo: &["model.config.moe_router_topk"],
        hf: &["num_experts_per_tok", "moe_topk", "top_k_experts", "experts_per_token"],
        url: &["experts each token is routed to, `k` (top-k)", "`1`", "at most `ne`", "§12.1, §12.6"],
    };
    SharedExperts = "nse", Walls, "Shared experts", "共享专家数",
        field(llm.walls.shared_experts; Size) {
        control: Decimal,
        help: ("MLPs every token passes beside its <var>k</var>; Llama 4 Scout: <code>1</code>", "每个 token 除 k 个路由专家外都经过的 MLP；Llama 4 Scout 为 1"),
        hf: &["n_shared_experts", "shared_expert_intermediate_size"],
        url: &["shared experts per MoE layer: MLPs of the experts' width that every token passes beside its `k` routed ones (in `P` and `P_a`; dense weights, not split by `ep`)", "`0`", "needs `ne > 1`", "§12.1, §12.6"],
    };
    DenseLayers = "dl", Walls, "Leading dense layers", "前置稠密层数",
        field(llm.walls.dense_layers; Size) {
        control: Decimal,
        help: ("of the <var>L</var> layers, the first ones without experts; DeepSeek-V3: <code>3</code>", "L 层中最前面不含专家的层数；DeepSeek-V3 为 3"),
        hf: &["first_k_dense_replace"],
        url: &["the first layers of an MoE that have one dense MLP (`dffn` wide) instead of experts: in `P`, `P_a` and the FLOPs, and no all-to-all", "`0`", "needs `ne > 1`, fewer than `nl`", "§12.1, §12.6"],
    };
    DenseFfn = "dffn", Walls, "Dense layers' MLP size", "稠密层的 MLP 宽度",
        field(llm.walls.dense_ffn; Size) {
        control: Decimal,
        help: ("gated MLP of the <code>dl</code> dense layers; <code>0</code> = the experts' <code>ffn</code>; DeepSeek-V3: <code>18432</code>", "dl 个稠密层的门控 MLP；0 = 专家的 ffn；DeepSeek-V3 为 18432"),
        url: &["inner width of the leading dense layers' gated MLP (`3·h·dffn` weights each)", "`0` (= `ffn`)", "`18432`", "§12.1"],
    };
    Ep = "ep", Walls, "Expert parallel EP", "专家并行 EP",
        field(llm.walls.ep; Whole::at_most(1, 65_536)) {
        control: Decimal,
        help: ("reuses data-parallel ranks; divides <var>E</var>", "复用数据并行 rank；需整除 E"),
        megatron: &["--expert-model-parallel-size"],
        nemo: &["trainer.strategy.expert_model_parallel_size"],
        torchtitan: &["parallelism.expert_parallel_degree"],
        url: &["expert-parallel degree. It reuses data-parallel ranks and is not in `M`; it splits the expert weights in memory and sets the all-to-all traffic and tokens per expert. It is separate from the `ep` lever", "`1`", "must divide `ne`", "§12.2, §12.4, §12.6"],
    };
    Etp = "etp", Walls, "Expert tensor parallel ETP", "专家张量并行 ETP",
        field(llm.walls.etp; Whole::at_most(0, 65_536)) {
        control: Decimal,
        help: ("<code>0</code> = split as TP; <code>1</code> = whole experts, the EP group folded over the TP ranks (NVIDIA's MoE recipes)", "0 = 与 TP 相同的切分；1 = 专家不切分，EP 组跨 TP rank 折叠（NVIDIA 的 MoE 训练配方）"),
        megatron: &["--expert-tensor-parallel-size"],
        nemo: &["trainer.strategy.expert_tensor_parallel_size"],
        torchtitan: &["parallelism.expert_tensor_parallel_degree"],
        url: &["the routed experts' tensor-parallel degree (Megatron-Core's `expert_tensor_parallel_size`). `0` splits them as `tp` splits the dense layers; `1` keeps each expert whole on its GPU, the EP group folded over the TP ranks: the experts' weights over `pp·ep` only, each GPU routes its sequence-parallel share of the tokens, the all-to-all spans `ep` GPUs, and an MoE layer without shared experts does no TP collective for its MLP; between the two, the experts' collectives run over `etp` ranks", "`0` (= `tp`)", "`0` or a divisor of `tp`", "§12.2, §12.4, §12.6"],
    };
    Hbm = "hbm", Walls, "GPU memory (bytes)", "单卡显存（字节）",
        field(llm.walls.hbm_bytes; Bytes { lo: 1e9, hi: 1e13, example: tr("(write 80Gi or 141G)", "（写 80Gi 或 141G）"), whole: false }) {
        control: Decimal,
        help: ("<code>80Gi</code> H100, <code>141G</code> H200", "H100 为 80Gi，H200 为 141G"),
        url: &["GPU memory, **bytes**. A row whose busiest GPU needs more is marked \"✗ over by …\"", "`80Gi` (H100 SXM)", "`80Gi`, `141G` (H200), `96G`", "§12.2"],
    };
    HbmReserve = "hres", Walls, "Memory reserved outside the tensors (bytes)", "预留显存（字节）",
        field(llm.walls.hbm_reserve_bytes; Bytes { lo: 0.0, hi: 1e12, example: tr("(write 2.5Gi, or 0 for none)", "（写 2.5Gi 或 0）"), whole: true }) {
        control: Decimal,
        help: ("NCCL buffers, fragmentation, the CUDA context: a layout fits below GPU memory less this", "NCCL 缓冲区、显存碎片、CUDA 上下文等；布局须放进“单卡显存减去此值”"),
        url: &["what the process holds outside the tensors the model counts (CUDA context, NCCL buffers, allocator fragmentation), **bytes**: a row or layout fits when its memory is at most `hbm − hres`; the memory chart's dashed line and the key figure show `hbm − hres`", "`2.5Gi` (the larger gap between torchtitan's published reserved peaks and the model's count, [the model §12.2](model/12-walls.md#122-memory-per-gpu))", "`2.5Gi`, `4Gi`, `0` for none", "§12.2"],
    };
    Zero = "zero", Walls, "ZeRO stage", "ZeRO 阶段" {
        control: Select(&[
            ("0", "0 — none (DDP)", "0 — 不分片（DDP）"),
            ("1", "1 — optimizer state", "1 — 优化器状态"),
            ("2", "2 — + gradients", "2 — + 梯度"),
            ("3", "3 — + weights (FSDP)", "3 — + 权重（FSDP）"),
        ]),
        megatron: &["--use-distributed-optimizer", "--use-megatron-fsdp"],
        nemo: &["optim.config.use_distributed_optimizer"],
        torchtitan: &["parallelism.data_parallel_shard_degree", "training.data_parallel_shard_degree"],
        url: &["ZeRO stage: what the data-parallel ranks shard (1: optimizer state; 2: + gradients; 3: + weights = FSDP). With `em=fsdp`, stages 0–2 also move the data-parallel traffic to once per step", "`3`", "`0`, `1`, `2`, `3`; anything else refused (\"… is not a ZeRO stage 0, 1, 2 or 3 (3 = FSDP)\")", "§12.2, §12.5"],
    };
    Recompute = "ac", Walls, "Activation recomputation", "激活重计算",
        field(llm.walls.recompute; Choice::new()) {
        control: Select(&[
            ("none", "none", "不重计算"),
            ("selective", "selective", "选择性重计算"),
            ("full", "full", "完全重计算"),
        ]),
        megatron: &["--recompute-granularity"],
        nemo: &["model.config.recompute_granularity"],
        torchtitan: &["activation_checkpoint.mode"],
        url: &["activation recomputation (memory only: the extra forward pass is not charged)", "`none`", "", "§12.2"],
    };
    RecomputeLayers = "acn", Walls, "Layers of each stage recomputed", "每个流水线 stage 重计算的层数（0 = 全部）",
        field(llm.walls.recompute_layers; Whole::from(0)) {
        control: Whole,
        help: ("with full recomputation; 0 = all (Megatron's <code>--recompute-num-layers</code>)", "用于完全重计算；0 = 全部层"),
        megatron: &["--recompute-num-layers"],
        nemo: &["model.config.recompute_num_layers"],
        url: &["with `ac=full`, how many of each pipeline stage's layers are recomputed (Megatron-LM's `--recompute-method block --recompute-num-layers`): those keep only their input, the rest keep everything; the search charges `1 + (k/L_s)/3` of the compute", "`0` (all of them)", "more than a stage's layers is all of them", "§12.2, §14"],
    };
    OffloadLayers = "ofl", Walls, "Layers offloaded to host memory", "激活卸载到主机内存的层数",
        field(llm.walls.offload_layers; Whole::from(0)) {
        control: Whole,
        help: ("their activations wait in the CPU's memory from forward to backward; no pipeline, no recomputation (Megatron-Core's <code>cpu_offloading_num_layers</code>)", "这些层的激活从前向到反向存放在主机内存中；仅限无流水线、无重计算（Megatron-Core 的 cpu_offloading_num_layers）"),
        megatron: &["--cpu-offloading-num-layers"],
        nemo: &["model.config.cpu_offloading_num_layers"],
        url: &["how many layers' activations Megatron-Core offloads to host memory between their forward and backward (`cpu_offloading_num_layers`): they leave the GPU's memory, and their copies, at the machine's host link (PCIe or NVLink-C2C), cost what the layer's own compute does not hide; counted only without a pipeline and without recomputation, at most all layers but one, as Megatron-Core allows", "`0`", "", "§12.2, §12.4"],
    };
    SequenceParallel = "sp", Walls, "Sequence parallelism", "序列并行",
        field(llm.walls.sequence_parallel; Flag) {
        control: Select(&[
            ("0", "off", "关"),
            ("1", "on", "开"),
        ]),
        megatron: &["--sequence-parallel"],
        nemo: &["trainer.strategy.sequence_parallel"],
        url: &["sequence parallelism (splits the norms' and dropouts' activations over the TP ranks)", "`0`", "", "§12.2"],
    };
    FlashAttention = "fa", Walls, "Flash attention", "FlashAttention（不存注意力矩阵）",
        field(llm.walls.flash_attention; Flag) {
        control: Select(&[
            ("1", "on", "开"),
            ("0", "off", "关"),
        ]),
        megatron: &["--use-flash-attn"],
        url: &["flash attention (the `s × s` scores are never stored)", "`1`", "", "§12.2"],
    };
    Dropout = "drop", Walls, "Dropout", "Dropout（随机失活）",
        field(llm.walls.dropout; Flag) {
        control: Select(&[
            ("0", "off", "关"),
            ("1", "on", "开"),
        ]),
        help: ("GPT-3's and Megatron-LM's 0.1 on the attention scores and the residual branches: their masks' memory traffic; today's LLM recipes train without", "GPT-3 与 Megatron-LM 在注意力分数和残差分支上的 0.1：其掩码的显存读写；如今的大模型训练配方不用"),
        url: &["dropout on the attention scores and the residual branches (GPT-3's and Megatron-LM's `--attention-dropout` and `--hidden-dropout` 0.1): the masks' HBM traffic joins the elementwise kernels' time with `cm=physics`; the activation memory keeps Korthikanti et al.'s count, masks included, either way", "`0`", "", "§12.3"],
    };
    OptimizerBytes = "ob", Walls, "Optimizer bytes per parameter <var>K</var>", "每个参数的优化器字节数 K",
        field(llm.walls.optimizer_bytes; Range { lo: 0.0, hi: 32.0, hint: tr("(12 = Adam with fp32 master weights, 8 without them)", "（12 = 带 fp32 主权重的 Adam，不带为 8）") }) {
        control: Decimal,
        help: ("<code>12</code> = Adam with fp32 master weights", "12 = 带 fp32 主权重的 Adam"),
        url: &["optimizer bytes per parameter `K`", "`12` (Adam with fp32 master weights)", "`12`, `8` (Adam without master weights)", "§12.2"],
    };
    MasterWeights = "mw", Walls, "Master weights", "主权重",
        field(llm.walls.master_in_weights; Flag) {
        control: Select(&[
            ("0", "beside 2-byte weights, in the optimizer (Megatron-LM, DeepSpeed)", "在优化器中，另存 2 字节权重（Megatron-LM、DeepSpeed）"),
            ("1", "the weights themselves, fp32 (PyTorch FSDP)", "就是权重本身，fp32（PyTorch FSDP）"),
        ]),
        help: ("where the fp32 master copy lives: PyTorch FSDP keeps the sharded weights in fp32 and casts them as it gathers", "fp32 主权重放在哪里：PyTorch FSDP 把分片后的权重保存为 fp32，all-gather 时再转换精度"),
        url: &["where the fp32 master weight lives: `0`, in the optimizer's `K` beside 2-byte weights (Megatron-LM, DeepSpeed: `2 + G + K` bytes a parameter); `1`, the weights themselves (PyTorch FSDP's mixed precision: `4 + G + (K − 4)`)", "`0`", "", "§12.2"],
    };
    KernelsShrink = "ks", Walls, "Kernels shrink with the GEMMs", "kernel 随 GEMM 变小而变慢",
        field(llm.walls.kernels_shrink; Flag) {
        control: Select(&[
            ("0", "off (constant F_eff)", "关（F_eff 不变）"),
            ("1", "on (Hockney n½)", "开（Hockney n½）"),
        ]),
        url: &["kernels shrink with the GEMMs (Hockney). `F_eff` is then the rate at `n0`, and other rows run at `F_eff·η(N)/η(N₀)`", "`0`", "", "§12.3"],
    };
    HalfTokens = "nhalf", Walls, "Half-performance tokens <var>m</var>½", "半性能 token 数 m½",
        field(llm.walls.n_half_tokens; Range { lo: 0.0, hi: 1e6, hint: "" }) {
        control: Decimal,
        help: ("tokens per GEMM at half the peak rate", "GEMM 达到一半峰值速率时的 token 数"),
        url: &["`m½`: tokens per GEMM at half the asymptotic rate (used when `ks=1`)", "`128`", "not necessarily whole; `0` turns the term off", "§12.3"],
    };
    HalfHidden = "khalf", Walls, "Half-performance hidden <var>k</var>½", "半性能隐藏维度 k½",
        field(llm.walls.n_half_hidden; Range { lo: 0.0, hi: 1e6, hint: "" }) {
        control: Decimal,
        help: ("hidden size per TP rank at half the rate", "GEMM 达到一半峰值速率时每个 TP rank 的隐藏维度"),
        url: &["`k½`: hidden size per TP rank at half the rate (used when `ks=1`)", "`128`", "as `nhalf`", "§12.3"],
    };
    TpOverlap = "tpo", Walls, "Share of TP traffic that overlaps compute", "与计算重叠的 TP 通信比例",
        field(llm.walls.tp_overlap; Share { hint: tr("(the share of TP traffic that overlaps: 0 exposed, 1 all)", "（TP 通信被掩盖的比例：0 = 全暴露，1 = 全掩盖）") }) {
        control: Decimal,
        help: ("0 = all exposed, 1 = hidden behind the whole step", "0 = 全部暴露，1 = 被整个单步的计算完全掩盖"),
        url: &["`φ`, the share of TP communication that overlaps with compute: `(1 − φ)·t_TP + max(0, φ·t_TP − t_compute)` is exposed", "`0` (TP fully exposed)", "", "§12.4"],
    };
    CpOverlap = "cpm", Walls, "Context-parallel K/V exchange", "上下文并行的 K/V 交换",
        field(llm.walls.cp_overlap; Choice::new()) {
        control: Select(&[
            ("ring", "ring (hides behind attention)", "环形（被注意力计算掩盖）"),
            ("allgather", "all-gather (exposed)", "AllGather（暴露）"),
        ]),
        help: ("ring attention hides K/V blocks behind the attention's share of compute only", "环形注意力只能用注意力那部分计算来掩盖 K/V 块的传输"),
        url: &["how context parallelism exchanges K and V: `ring` (ring attention, Megatron-Core's default) hides its traffic behind the attention's share of the compute only, `allgather` (Llama 3's) behind nothing", "`ring`", "", "§12.4"],
    };
    Latency = "lat", Walls, "Latency per collective step α", "集合通信每一轮的延迟 α",
        field(llm.walls.latency_ms; Duration { max_ms: 1000.0, max: "1 s", example: tr("(write 5us)", "（写 5us）") }) {
        control: Decimal,
        help: ("e.g. <code>5us</code>; paid ⌈log₂ ranks⌉ times", "如 5us；按 ⌈log₂ rank 数⌉ 次计"),
        url: &["latency `α` per step of a collective's tree; each TP, CP and EP collective pays `α·⌈log₂ ranks⌉`", "`0` (ms)", "`5us`, `0.005` (`lat=5us` comes back as `lat=0.005`)", "§12.4"],
    };
    NvlinkDomain = "nvd", Walls, "GPUs per NVLink domain", "每个 NVLink 域的卡数",
        field(llm.walls.nvlink_domain_gpus; Whole::at_most(1, 1024).noting(tr("(8 in an HGX node, 72 in an NVL72 rack)", "（HGX 节点为 8，NVL72 机柜为 72）"))) {
        control: Decimal,
        help: ("TP, CP and EP groups inside it use <code>bnv</code>; 8 in an HGX node, 72 in an NVL72 rack", "域内的 TP、CP、EP 组使用 bnv；HGX 节点为 8，NVL72 机柜为 72"),
        url: &["GPUs per NVLink domain: TP, CP and EP groups that fit inside it (placed in that order) talk at `bnv`, larger ones at `beff`. Groups are placed whole: a domain of `D` GPUs holds `⌊D/g⌋` groups of `g` GPUs (the group and what is placed inside it) and leaves `D mod g` of its GPUs to other jobs, as NVIDIA's GB200 runs use 64 GPUs of each 72-GPU rack; the HSDP lever shards over those `⌊D/g⌋` groups", "`8` (an HGX H100/H200 node)", "`72` for an NVL72 rack", "§12.4"],
    };
    Gpus = "ns", Llm, "GPU counts in the tables", "表格中的 GPU 数",
        field(llm.gpus; GpuList { empty: false }) {
        control: Text,
        help: ("increasing, comma-separated: <code>1024, 4096, 8192, 16384</code>", "递增，以逗号分隔，例如 1024,4096,8192,16384"),
        url: &["GPU counts of the table rows (the charts span them and `N_max`)", "`1024,4096,8192,16384`", "each a multiple of `tp×pp×cp`", "§3.3"],
    };
    TokenBudget = "tb", Llm, "Token budget", "Token 预算",
        slider(log(1e9, 1e14), |s| s.llm.token_budget),
        field(llm.token_budget; Si { min: 1.0, max: 1e18, params: false }) {
        control: Decimal,
        help: ("optimizer steps = budget / <var>B</var>", "optimizer step 数 = 预算 / B"),
        url: &["token budget. The weak table's optimizer steps are `tb / B` (a fixed budget); the Plan panel reads it as the tokens the run needs at batch `b` to reach its target, which sets `S_min`", "`1T`", "`1T`, `15T`; at least `b`", "§3.3, §8.2"],
    };
    CriticalBatch = "bcrit", Plan, "Critical batch <var>B</var><sub>crit</sub> (tokens)", "临界批量 B_crit（tokens）",
        slider(log(1e5, 1e10), |s| s.plan.critical_batch_tokens),
        field(plan.critical_batch_tokens; Tokens { what: tr("the critical batch B_crit", "临界批量 B_crit") }) {
        control: Decimal,
        url: &["critical batch `B_crit`, tokens (McCandlish et al. 2018): `S(B) = S_min·(1 + B_crit/B)`", "`32M`", "`32M`, `20M tokens`, `4Mi`", "§8"],
    };
    BatchCap = "bcap", Plan, "Weak-scaling batch cap", "弱扩展的 batch 上限",
        field(plan.batch_cap_tokens; Optional(Tokens { what: tr("the batch cap", "批量上限") })) {
        control: Text,
        help: ("empty = at <var>B</var><sub>crit</sub>; then strong scaling", "留空 = B_crit；之后转为强扩展"),
        placeholder: "B_crit",
        url: &["the batch at which weak-then-strong stops growing `B` and starts strong scaling", "empty (= `B_crit`)", "empty: `B_crit` caps it", "§9"],
    };
    Levers = "lv", Plan, "Levers", "降低 T_crit 的手段",
        field(plan.levers; Levers) {
        url: &["levers switched on", "empty (none)", "a repeated name counts once; written back in that order (`lv=fp8,nvlink` → `lv=nvlink,fp8`); an unknown name rejects the whole value", "§10"],
    };
    NvlinkBandwidth = "bnv", Plan, "NVLink bus bandwidth (bytes/s)", "NVLink 总线带宽（字节/秒）" {
        control: Text,
        help: ("used by the NVLink-domain lever; ≈ <code>400G</code> on H100", "NVLink 域手段使用；H100 约 400G"),
        url: &["NVLink bus bandwidth per GPU, bytes/s, that the `nvlink` lever switches `B_eff` to (it never lowers `B_eff`)", "`400G`", "`1G` … `10T` (10^9 … 10^13): `400G`, `800 GB/s`", "§10"],
    };
    LossCurve = "lc", Plan, "Loss–token curve available", "有 validation loss–token 曲线支撑这些数字",
        field(plan.loss_curve; Flag) {
        url: &["a validation loss–token curve backs the numbers (the reporting checklist's fourth point)", "`0`", "", "§11"],
    };
    Quiz = "q", Learn, "Exercises shown", "显示的练习",
        field(quiz; Quiz) {
        url: &["`view=learn` only: the exercises shown (a teacher's link; the definitions are hidden)", "empty (the whole view)", "`q=3`, `q=1,4,7`"],
    };
    // Last: scenario A's own query, compared with this one (docs/url.md, "Compare").
    Pin = "pin", Pin, "Pinned scenario A", "固定的场景 A" {
        url: &["scenario A: its own `v=1` query (as the page writes it), percent-encoded as one value (`&` → `%26`, `=` → `%3D`; a `%` inside A's values → `%25`)", "none", "a query; empty for none"],
    };
}

/// The page's groups of input controls written from the table, each by the name of its
/// marker in `www/index.html` (`<!-- inputs:NAME -->`), with its inputs in page order.
#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
pub const SECTIONS: &[(&str, &[Key])] = {
    use Key::*;
    &[
        (
            "laws",
            &[
                SerialFraction,
                MaxProcessors,
                GrowthExponent,
                CompareFractions,
                Measured,
            ],
        ),
        (
            "batch",
            &[
                GlobalBatch,
                Gpus,
                BaselineGpus,
                Accumulation,
                Microbatch,
                Tp,
                Pp,
                Cp,
                TokenBudget,
            ],
        ),
        (
            "model",
            &[
                TotalParams,
                ActiveParams,
                Machine,
                Precision,
                Flops,
                PeakFlops,
                Bandwidth,
                Gathers,
                WireBytes,
                GradientBytes,
            ],
        ),
        (
            "walls",
            &[
                Layers,
                Hidden,
                Heads,
                KvHeads,
                HeadDim,
                KvLoraRank,
                QLoraRank,
                RopeDim,
                Ffn,
                SeqLen,
                Vocab,
                Experts,
                ExpertsPerToken,
                SharedExperts,
                DenseLayers,
                DenseFfn,
                Ep,
                Etp,
                Hbm,
                HbmReserve,
                Zero,
                Recompute,
                RecomputeLayers,
                OffloadLayers,
                SequenceParallel,
                FlashAttention,
                Dropout,
                OptimizerBytes,
                MasterWeights,
                KernelsShrink,
                HalfTokens,
                HalfHidden,
                TpOverlap,
                CpOverlap,
                Latency,
                NvlinkDomain,
                LayoutSearch,
            ],
        ),
        (
            "step",
            &[
                ComputeMode,
                Stack,
                LargeGemmFraction,
                ComputeMs,
                ExposedMode,
                ExposedTable,
                StepTable,
                FitOn,
                FixedMs,
                Schedule,
                Chunks,
            ],
        ),
        ("explorer", &[LayoutExplorer]),
        ("plan", &[CriticalBatch, BatchCap, NvlinkBandwidth]),
    ]
};

/// The Chinese of a `data-i18n` key of the page: a row of `i18n::UI`, or an input's label,
/// help or menu option from its row of the key table (`label-<name>`, `help-<name>`,
/// `<name>-<option>`); from the catalogue in a bundle without Chinese.
pub fn page_zh(id: &str) -> Option<&'static str> {
    let found = crate::i18n::ui_zh(id);
    #[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
    if found.is_none() && !crate::i18n::catalogue_forced() {
        return input_zh(id);
    }
    found
}

/// The Chinese of an input's texts on the page, from its row of the key table:
/// `label-<name>`, `help-<name>` and `<name>-<option>`.
#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
fn input_zh(id: &str) -> Option<&'static str> {
    let zh = |s: &'static str| Some(s).filter(|s| !s.is_empty());
    Key::ALL.iter().find_map(|&key| {
        let name = key.name();
        if id.strip_prefix("label-") == Some(name) {
            return key.label_zh();
        }
        let spec = key.spec();
        if id.strip_prefix("help-") == Some(name) {
            return zh(spec.help.1);
        }
        let value = id.strip_prefix(name)?.strip_prefix('-')?;
        match spec.control {
            Control::Select(options) => options.iter().find(|o| o.0 == value).and_then(|o| zh(o.2)),
            _ => None,
        }
    })
}

/// How many exercises the Learn view has (`q=1,4` picks some; `crate::panel::exercise`).
pub const EXERCISES: u8 = 14;

impl Key {
    /// The input as a reader finds it in a sentence: the label the page shows beside its
    /// box without its parenthesised note, and its key: `Total parameters P (p)`,
    /// `Microbatch size (mbs)` (the box reads "Microbatch size (sequences; 0 = A fixed)"),
    /// `总参数量 P（p）`.
    pub fn display_name(self) -> String {
        let label = if crate::i18n::zh() {
            self.label_zh()
        } else {
            None
        };
        let label = label.unwrap_or(self.label());
        let short = label
            .find(" (")
            .or_else(|| label.find('（'))
            .map_or(label, |at| &label[..at]);
        crate::trf!("{} ({})", "{}（{}）", short, self.name())
    }

    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Keys of the Laws panel.
    pub fn is_laws(self) -> bool {
        self.group() == Group::Laws
    }

    /// Keys of the Plan panel.
    pub fn is_plan(self) -> bool {
        self.group() == Group::Plan
    }

    /// Keys of the strong-scaling walls (shape, memory, kernels, traffic): LLM keys that
    /// [`super::walls::WallSettings`] holds.
    pub fn is_walls(self) -> bool {
        self.group() == Group::Walls
    }

    /// Keys whose value types values into other inputs (a machine, a precision): after one
    /// is set, the page writes every control again.
    pub fn sets_other_inputs(self) -> bool {
        matches!(self, Key::Machine | Key::Precision)
    }

    /// Keys of how the page looks, not what it computes.
    pub fn is_display(self) -> bool {
        self.group() == Group::Display
    }

    /// Keys of the LLM panels, the walls' included.
    pub fn is_llm(self) -> bool {
        matches!(self.group(), Group::Llm | Group::Walls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(markup: &'static str) -> String {
        let (bytes, len) = plain_label::<128>(markup);
        assert_eq!(len, plain_label_len(markup));
        String::from_utf8(bytes[..len].to_vec()).expect("UTF-8")
    }

    #[test]
    fn a_label_reads_as_text_in_messages() {
        assert_eq!(
            plain("Global batch <var>B</var><sub>global</sub> (tokens)"),
            "Global batch B_global (tokens)"
        );
        assert_eq!(
            plain("Sun–Ni <var>G(N) = N<sup>g</sup></var>"),
            "Sun–Ni G(N) = N^g"
        );
        assert_eq!(
            plain("Head width <var>d<sub>h</sub></var>"),
            "Head width d_h"
        );
        assert_eq!(plain("Tensor parallel TP"), "Tensor parallel TP");
        assert_eq!(plain("a <b"), "a ");
        assert_eq!(Key::GlobalBatch.label(), "Global batch B_global (tokens)");
        assert_eq!(Key::BaselineGpus.label(), "Baseline GPUs N_0");
        for key in Key::ALL {
            assert!(!key.label().contains(['<', '>']), "{}", key.label());
        }
    }
}
