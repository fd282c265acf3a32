//! The input keys: each one's URL name, the label messages use, and its group (the part of
//! the scenario that parses it), declared once in the `keys!` table.

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

macro_rules! keys {
    ($( $variant:ident = $name:literal, $label:literal, $group:ident; )*) => {
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

            /// What a reader calls this input (used in messages).
            pub fn label(self) -> &'static str {
                match self { $( Key::$variant => $label, )* }
            }

            /// The part of the scenario the input belongs to.
            pub fn group(self) -> Group {
                // A table indexed by the variant (declared in order, from 0): a few bytes of
                // data where a `match` would be code in the page's wasm.
                const GROUPS: &[Group] = &[ $( Group::$group, )* ];
                GROUPS[self as usize]
            }
        }
    };
}

keys! {
    // `embed` first: it also selects its panel, and a later `view` may still override that.
    Embed = "embed", "Embedded panel", Display;
    View = "view", "Panel", Display;
    Lang = "lang", "Language", Display;
    Theme = "theme", "Theme", Display;
    Show = "show", "What an embed shows", Display;
    SerialFraction = "f", "Serial fraction f", Laws;
    CompareFractions = "fs", "Compare f values", Laws;
    MaxProcessors = "n", "Processors N (axis maximum)", Laws;
    GrowthExponent = "g", "Sun–Ni growth exponent g", Laws;
    MeasuredKind = "mk", "Measured values are", Laws;
    Measured = "m", "Measured points", Laws;
    GlobalBatch = "b", "Global batch B_global (tokens)", Llm;
    Accumulation = "a", "Gradient accumulation A", Llm;
    Microbatch = "mbs", "Microbatch size (sequences; 0 = A fixed)", Llm;
    LayoutExplorer = "lx", "Layout explorer at GPUs (0 = off)", Llm;
    LayoutSearch = "lay", "Layout at each GPU count", Llm;
    Tp = "tp", "Tensor parallel TP", Llm;
    Pp = "pp", "Pipeline parallel PP", Llm;
    Cp = "cp", "Context parallel CP", Llm;
    TotalParams = "p", "Total parameters P", Llm;
    ActiveParams = "pa", "Active parameters P_a", Llm;
    Flops = "feff", "Achieved FLOP/s per GPU F_eff", Llm;
    PeakFlops = "peak", "Peak FLOP/s per GPU (for MFU)", Llm;
    Bandwidth = "beff", "Bus bandwidth per GPU B_eff (bytes/s)", Llm;
    Gathers = "c", "Parameter transfers per microbatch c", Llm;
    WireBytes = "sw", "Bytes per parameter on the wire s_w", Llm;
    GradientBytes = "gw", "Gradient bytes per parameter (0 = as s_w)", Llm;
    ComputeMode = "cm", "Compute time from", Llm;
    Stack = "stack", "Software stack (sets r_inf)", Llm;
    LargeGemmFraction = "rinf", "Fraction of peak at large GEMMs r_inf (0 = the stack's)", Llm;
    ComputeMs = "tc", "Compute time at the baseline", Llm;
    BaselineGpus = "n0", "Baseline GPUs N₀", Llm;
    ExposedMode = "em", "Exposed time from", Llm;
    ExposedTable = "ex", "Exposed time table", Llm;
    StepTable = "st", "Measured step times", Llm;
    FitOn = "fp", "GPU counts the fit uses", Llm;
    FixedMs = "fix", "Fixed exposed time per step", Llm;
    Schedule = "sched", "Pipeline schedule", Llm;
    Chunks = "vc", "Interleaved chunks per stage v", Llm;
    Layers = "nl", "Layers L", Walls;
    Hidden = "hd", "Hidden size h", Walls;
    Heads = "nh", "Attention heads a", Walls;
    KvHeads = "kvh", "Key/value heads", Walls;
    Ffn = "ffn", "Gated MLP size (0 = 4h GELU MLP)", Walls;
    SeqLen = "sq", "Sequence length s", Walls;
    Vocab = "voc", "Vocabulary V", Walls;
    Experts = "ne", "Experts E", Walls;
    ExpertsPerToken = "ke", "Experts per token k", Walls;
    Ep = "ep", "Expert parallel EP", Walls;
    Hbm = "hbm", "GPU memory (bytes)", Walls;
    HbmReserve = "hres", "Memory reserved outside the tensors (bytes)", Walls;
    Zero = "zero", "ZeRO stage", Walls;
    Recompute = "ac", "Activation recomputation", Walls;
    RecomputeLayers = "acn", "Layers of each stage recomputed (0 = all)", Walls;
    SequenceParallel = "sp", "Sequence parallelism", Walls;
    FlashAttention = "fa", "Flash attention", Walls;
    OptimizerBytes = "ob", "Optimizer bytes per parameter K", Walls;
    KernelsShrink = "ks", "Kernels shrink with the GEMMs", Walls;
    HalfTokens = "nhalf", "Half-performance tokens m½", Walls;
    HalfHidden = "khalf", "Half-performance hidden k½", Walls;
    TpOverlap = "tpo", "Share of TP traffic that overlaps compute", Walls;
    CpOverlap = "cpm", "Context-parallel K/V exchange", Walls;
    Latency = "lat", "Latency per collective step α", Walls;
    NvlinkDomain = "nvd", "GPUs per NVLink domain", Walls;
    Gpus = "ns", "GPU counts in the tables", Llm;
    TokenBudget = "tb", "Token budget", Llm;
    CriticalBatch = "bcrit", "Critical batch B_crit (tokens)", Plan;
    BatchCap = "bcap", "Weak-scaling batch cap", Plan;
    Levers = "lv", "Levers", Plan;
    NvlinkBandwidth = "bnv", "NVLink bus bandwidth", Plan;
    LossCurve = "lc", "Loss–token curve available", Plan;
    Quiz = "q", "Exercises shown", Learn;
    // Last: scenario A's own query, compared with this one (docs/url.md, "Compare").
    Pin = "pin", "Pinned scenario A", Pin;
}

/// How many exercises the Learn view has (`q=1,4` picks some; `crate::panel::exercise`).
pub const EXERCISES: u8 = 14;

impl Key {
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

    /// Keys of how the page looks, not what it computes.
    pub fn is_display(self) -> bool {
        self.group() == Group::Display
    }

    /// Keys of the LLM panels, the walls' included.
    pub fn is_llm(self) -> bool {
        matches!(self.group(), Group::Llm | Group::Walls)
    }
}
