//! The input keys: each one's URL name, the label messages use, and its panel.

macro_rules! keys {
    ($( $variant:ident = $name:literal, $label:literal; )*) => {
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
        }
    };
}

keys! {
    // `embed` first: it also selects its panel, and a later `view` may still override that.
    Embed = "embed", "Embedded panel";
    View = "view", "Panel";
    Lang = "lang", "Language";
    Theme = "theme", "Theme";
    Show = "show", "What an embed shows";
    SerialFraction = "f", "Serial fraction f";
    CompareFractions = "fs", "Compare f values";
    MaxProcessors = "n", "Processors N (axis maximum)";
    GrowthExponent = "g", "Sun–Ni growth exponent g";
    MeasuredKind = "mk", "Measured values are";
    Measured = "m", "Measured points";
    GlobalBatch = "b", "Global batch B_global (tokens)";
    Accumulation = "a", "Gradient accumulation A";
    Microbatch = "mbs", "Microbatch size (sequences; 0 = A fixed)";
    LayoutExplorer = "lx", "Layout explorer at GPUs (0 = off)";
    LayoutSearch = "lay", "Layout at each GPU count";
    Tp = "tp", "Tensor parallel TP";
    Pp = "pp", "Pipeline parallel PP";
    Cp = "cp", "Context parallel CP";
    TotalParams = "p", "Total parameters P";
    ActiveParams = "pa", "Active parameters P_a";
    Flops = "feff", "Achieved FLOP/s per GPU F_eff";
    PeakFlops = "peak", "Peak FLOP/s per GPU (for MFU)";
    Bandwidth = "beff", "Bus bandwidth per GPU B_eff (bytes/s)";
    Gathers = "c", "Parameter transfers per microbatch c";
    WireBytes = "sw", "Bytes per parameter on the wire s_w";
    GradientBytes = "gw", "Gradient bytes per parameter (0 = as s_w)";
    ComputeMode = "cm", "Compute time from";
    Stack = "stack", "Software stack (sets r_inf)";
    LargeGemmFraction = "rinf", "Fraction of peak at large GEMMs r_inf (0 = the stack's)";
    ComputeMs = "tc", "Compute time at the baseline";
    BaselineGpus = "n0", "Baseline GPUs N₀";
    ExposedMode = "em", "Exposed time from";
    ExposedTable = "ex", "Exposed time table";
    StepTable = "st", "Measured step times";
    FitOn = "fp", "GPU counts the fit uses";
    FixedMs = "fix", "Fixed exposed time per step";
    Schedule = "sched", "Pipeline schedule";
    Chunks = "vc", "Interleaved chunks per stage v";
    Layers = "nl", "Layers L";
    Hidden = "hd", "Hidden size h";
    Heads = "nh", "Attention heads a";
    KvHeads = "kvh", "Key/value heads";
    Ffn = "ffn", "Gated MLP size (0 = 4h GELU MLP)";
    SeqLen = "sq", "Sequence length s";
    Vocab = "voc", "Vocabulary V";
    Experts = "ne", "Experts E";
    ExpertsPerToken = "ke", "Experts per token k";
    Ep = "ep", "Expert parallel EP";
    Hbm = "hbm", "GPU memory (bytes)";
    HbmReserve = "hres", "Memory reserved outside the tensors (bytes)";
    Zero = "zero", "ZeRO stage";
    Recompute = "ac", "Activation recomputation";
    RecomputeLayers = "acn", "Layers of each stage recomputed (0 = all)";
    SequenceParallel = "sp", "Sequence parallelism";
    FlashAttention = "fa", "Flash attention";
    OptimizerBytes = "ob", "Optimizer bytes per parameter K";
    KernelsShrink = "ks", "Kernels shrink with the GEMMs";
    HalfTokens = "nhalf", "Half-performance tokens m½";
    HalfHidden = "khalf", "Half-performance hidden k½";
    TpOverlap = "tpo", "Share of TP traffic that overlaps compute";
    CpOverlap = "cpm", "Context-parallel K/V exchange";
    Latency = "lat", "Latency per collective step α";
    NvlinkDomain = "nvd", "GPUs per NVLink domain";
    Gpus = "ns", "GPU counts in the tables";
    TokenBudget = "tb", "Token budget";
    CriticalBatch = "bcrit", "Critical batch B_crit (tokens)";
    BatchCap = "bcap", "Weak-scaling batch cap";
    Levers = "lv", "Levers";
    NvlinkBandwidth = "bnv", "NVLink bus bandwidth";
    LossCurve = "lc", "Loss–token curve available";
    Quiz = "q", "Exercises shown";
    // Last: scenario A's own query, compared with this one (docs/url.md, "Compare").
    Pin = "pin", "Pinned scenario A";
}

/// How many exercises the Learn view has (`q=1,4` picks some; `crate::panel::exercise`).
pub const EXERCISES: u8 = 14;

impl Key {
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// Keys of the Laws panel.
    pub fn is_laws(self) -> bool {
        matches!(
            self,
            Key::SerialFraction
                | Key::CompareFractions
                | Key::MaxProcessors
                | Key::GrowthExponent
                | Key::MeasuredKind
                | Key::Measured
        )
    }

    /// Keys of the Plan panel.
    pub fn is_plan(self) -> bool {
        matches!(
            self,
            Key::CriticalBatch
                | Key::BatchCap
                | Key::Levers
                | Key::NvlinkBandwidth
                | Key::LossCurve
        )
    }

    /// Keys of the strong-scaling walls (shape, memory, kernels, traffic): LLM keys that
    /// [`super::walls::WallSettings`] holds.
    pub fn is_walls(self) -> bool {
        matches!(
            self,
            Key::Layers
                | Key::Hidden
                | Key::Heads
                | Key::KvHeads
                | Key::Ffn
                | Key::SeqLen
                | Key::Vocab
                | Key::Experts
                | Key::ExpertsPerToken
                | Key::Ep
                | Key::Hbm
                | Key::HbmReserve
                | Key::Zero
                | Key::Recompute
                | Key::RecomputeLayers
                | Key::SequenceParallel
                | Key::FlashAttention
                | Key::OptimizerBytes
                | Key::KernelsShrink
                | Key::HalfTokens
                | Key::HalfHidden
                | Key::TpOverlap
                | Key::CpOverlap
                | Key::Latency
                | Key::NvlinkDomain
        )
    }

    /// Keys of how the page looks, not what it computes.
    pub fn is_display(self) -> bool {
        matches!(
            self,
            Key::View | Key::Lang | Key::Theme | Key::Embed | Key::Show
        )
    }

    /// Keys of the LLM panels.
    pub fn is_llm(self) -> bool {
        !self.is_laws() && !self.is_plan() && !self.is_display() && self != Key::Pin
    }
}
