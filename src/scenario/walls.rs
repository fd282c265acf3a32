//! The inputs of the strong-scaling walls (memory, shrinking kernels, TP/CP/EP traffic): the
//! model's shape, the GPU's memory, ZeRO and recomputation, expert parallelism. Without a
//! shape (`nl=0`, the default, as in the article) the LLM panels are the article's model.

use super::{parse_count, parse_in_range, Key};
use crate::model::kernel::HalfLengths;
use crate::model::memory::{ActivationSettings, MemorySettings, Recompute, GRADIENT_BYTES};
use crate::model::shape::Shape;
use crate::model::walls::{CpOverlap, Walls};
use crate::text::units::{
    canonical, canonical_si, clip, format_count, parse_duration_ms, parse_quantity, quote_number,
    GIB_BYTES,
};

/// Hockney half-lengths of H100 BF16 GEMMs, calibrated in `docs/model/12-walls.md` (§12.3,
/// "Kernels that shrink"): tokens per GEMM and hidden size per TP rank at half the asymptotic rate.
pub const N_HALF_TOKENS: f64 = HalfLengths::H100_BF16.tokens;
pub const N_HALF_HIDDEN: f64 = HalfLengths::H100_BF16.hidden;

/// `hres`'s default, 2.5 GiB: the larger of the two gaps between torchtitan's published peak
/// *reserved* memory and the model's count for the same runs (docs/model/12-walls.md §12.2: 82.4
/// against 79.9 GiB on 8 GPUs, 67.0 against 65.9 on 128). The gap also holds the logits the
/// model does not count, so it bounds the allocator's reserve of that stack from above.
pub const HBM_RESERVE_BYTES: f64 = 2.5 * GIB_BYTES;

/// The wall inputs, always valid alone (cross-input rules in [`WallSettings::check`]).
#[derive(Debug, Clone, PartialEq)]
pub struct WallSettings {
    /// `nl`: layers; `0` is "no shape".
    pub layers: f64,
    /// `hd`: hidden size.
    pub hidden: f64,
    /// `nh`: attention heads.
    pub heads: f64,
    /// `kvh`: key/value heads; `0` is "as many as `nh`".
    pub kv_heads: f64,
    /// `ffn`: gated MLP inner size; `0` is GPT's `4h` MLP.
    pub ffn: f64,
    /// `sq`: sequence length, tokens.
    pub seq_len: f64,
    /// `voc`: vocabulary.
    pub vocab: f64,
    /// `ne`: experts per MoE layer (1 = dense).
    pub experts: f64,
    /// `ke`: experts per token.
    pub experts_per_token: f64,
    /// `hdim`: the width of one attention head; `0` is `hd/nh`.
    pub head_dim: f64,
    /// `nse`: shared experts per MoE layer.
    pub shared_experts: f64,
    /// `ep`: expert-parallel degree.
    pub ep: u32,
    /// `hbm`: GPU memory, bytes.
    pub hbm_bytes: f64,
    /// `hres`: what the process holds outside the tensors the model counts, bytes
    /// ([`crate::model::memory::MemorySettings::reserve_bytes`]).
    pub hbm_reserve_bytes: f64,
    /// `zero`: ZeRO stage 0–3.
    pub zero: u8,
    /// `ac`: activation recomputation.
    pub recompute: Recompute,
    /// `acn`: with `ac=full`, the layers of each stage recomputed (0: all).
    pub recompute_layers: u32,
    /// `ofl`: layers whose activations are offloaded to host memory (0: none).
    pub offload_layers: u32,
    /// `sp`: sequence parallelism.
    pub sequence_parallel: bool,
    /// `fa`: flash attention.
    pub flash_attention: bool,
    /// `drop`: dropout on the attention scores and the residual branches.
    pub dropout: bool,
    /// `ob`: optimizer bytes per parameter.
    pub optimizer_bytes: f64,
    /// `mw`: the weights are the fp32 master (PyTorch FSDP), not a copy beside the optimizer's.
    pub master_in_weights: bool,
    /// `ks`: kernels shrink with the GEMMs.
    pub kernels_shrink: bool,
    /// `nhalf`: `m½`, tokens.
    pub n_half_tokens: f64,
    /// `khalf`: `k½`, hidden per TP rank.
    pub n_half_hidden: f64,
    /// `tpo`: the share of TP communication that overlaps with compute, 0 … 1.
    pub tp_overlap: f64,
    /// `cpm`: how context parallelism's K/V exchange overlaps with compute.
    pub cp_overlap: CpOverlap,
    /// `lat`: latency per tree step of a collective, ms.
    pub latency_ms: f64,
    /// `nvd`: GPUs per NVLink domain (8 in an HGX node, 72 in an NVL72 rack).
    pub nvlink_domain_gpus: u32,
}

impl Default for WallSettings {
    /// No shape; an 80 GiB GPU (H100 SXM: `nvidia-smi` shows 81,559 MiB), FSDP (ZeRO-3, today's assumption), Adam with fp32
    /// master weights (`K = 12`), flash attention, no recomputation.
    fn default() -> Self {
        WallSettings {
            layers: 0.0,
            hidden: 0.0,
            heads: 0.0,
            kv_heads: 0.0,
            ffn: 0.0,
            seq_len: 0.0,
            vocab: 0.0,
            experts: 1.0,
            experts_per_token: 1.0,
            head_dim: 0.0,
            shared_experts: 0.0,
            ep: 1,
            hbm_bytes: 80.0 * GIB_BYTES,
            hbm_reserve_bytes: HBM_RESERVE_BYTES,
            zero: 3,
            recompute: Recompute::None,
            recompute_layers: 0,
            offload_layers: 0,
            sequence_parallel: false,
            flash_attention: true,
            dropout: false,
            optimizer_bytes: 12.0,
            master_in_weights: false,
            kernels_shrink: false,
            n_half_tokens: N_HALF_TOKENS,
            n_half_hidden: N_HALF_HIDDEN,
            tp_overlap: 0.0,
            cp_overlap: CpOverlap::Ring,
            latency_ms: 0.0,
            nvlink_domain_gpus: 8,
        }
    }
}

/// Bytes as `…Gi` when a whole number of quarter GiB, `…Mi` when a whole number of MiB
/// (what a GPU reports: H100's 81,559 MiB is `81559Mi`, not `85.520809984G`), in decimal SI
/// otherwise.
fn gib_or_si(bytes: f64) -> String {
    let gib = bytes / GIB_BYTES;
    let mib = gib * 1024.0;
    if bytes == 0.0 {
        "0".to_string()
    } else if (gib * 4.0).fract() == 0.0 {
        format!("{gib}Gi")
    } else if mib.fract() == 0.0 && mib < 1e9 {
        format!("{mib}Mi")
    } else {
        canonical_si(bytes)
    }
}

fn flag(on: bool) -> String {
    if on { "1" } else { "0" }.to_string()
}

fn parse_flag(text: &str) -> Result<bool, String> {
    match text.trim() {
        "1" | "yes" | "true" => Ok(true),
        "0" | "no" | "false" | "" => Ok(false),
        other => Err(trf!(
            "“{}” is neither 1 nor 0",
            "“{}” 既不是 1 也不是 0",
            clip(other)
        )),
    }
}

/// A size of the shape: a whole number, `0` allowed (not given).
fn parse_size(text: &str) -> Result<f64, String> {
    parse_count(text, 0.0)
}

impl WallSettings {
    /// Whether the shape is given: layers, hidden size, heads, sequence and vocabulary.
    pub fn has_shape(&self) -> bool {
        [
            self.layers,
            self.hidden,
            self.heads,
            self.seq_len,
            self.vocab,
        ]
        .iter()
        .all(|&v| v > 0.0)
    }

    /// The shape, when it is given.
    pub fn shape(&self) -> Option<Shape> {
        self.has_shape().then_some(Shape {
            layers: self.layers,
            hidden: self.hidden,
            heads: self.heads,
            kv_heads: if self.kv_heads > 0.0 {
                self.kv_heads
            } else {
                self.heads
            },
            ffn: self.ffn,
            seq_len: self.seq_len,
            vocab: self.vocab,
            experts: self.experts,
            experts_per_token: self.experts_per_token,
            head_dim: self.head_dim,
            shared_experts: self.shared_experts,
        })
    }

    /// The model's wall inputs; `nvlink_bytes_per_s` is the Plan's `bnv`.
    pub fn walls(&self, nvlink_bytes_per_s: f64) -> Option<Walls> {
        self.shape().map(|shape| Walls {
            shape,
            memory: MemorySettings {
                zero: self.zero,
                optimizer_bytes_per_param: self.optimizer_bytes,
                gradient_bytes_per_param: GRADIENT_BYTES,
                master_in_weights: self.master_in_weights,
                activations: ActivationSettings {
                    recompute: self.recompute,
                    sequence_parallel: self.sequence_parallel,
                    flash_attention: self.flash_attention,
                    recompute_layers: self.recompute_layers,
                    offload_layers: self.offload_layers,
                },
                hbm_bytes: self.hbm_bytes,
                reserve_bytes: self.hbm_reserve_bytes,
                shard_group_gpus: None,
            },
            expert_parallel: self.ep as f64,
            kernels: self.kernels_shrink.then_some(HalfLengths {
                tokens: self.n_half_tokens,
                hidden: self.n_half_hidden,
            }),
            nvlink_bytes_per_s,
            tp_overlap: self.tp_overlap,
            cp_overlap: self.cp_overlap,
            latency_s: self.latency_ms / 1e3,
            nvlink_domain_gpus: self.nvlink_domain_gpus as f64,
            hbm_bytes_per_s: 0.0,
            host_bytes_per_s: 0.0,
            gemm_flops_per_s: 0.0,
            quantized_bytes_per_element: 0.0,
            dropout: self.dropout,
        })
    }

    pub(super) fn get_text(&self, key: Key) -> Option<String> {
        Some(match key {
            Key::Layers => canonical(self.layers),
            Key::Hidden => canonical(self.hidden),
            Key::Heads => canonical(self.heads),
            Key::KvHeads => canonical(self.kv_heads),
            Key::Ffn => canonical(self.ffn),
            Key::SeqLen => canonical(self.seq_len),
            Key::Vocab => canonical(self.vocab),
            Key::Experts => canonical(self.experts),
            Key::ExpertsPerToken => canonical(self.experts_per_token),
            Key::HeadDim => canonical(self.head_dim),
            Key::SharedExperts => canonical(self.shared_experts),
            Key::Ep => self.ep.to_string(),
            Key::Hbm => gib_or_si(self.hbm_bytes),
            Key::HbmReserve => gib_or_si(self.hbm_reserve_bytes),
            Key::Zero => self.zero.to_string(),
            Key::Recompute => self.recompute.key().to_string(),
            Key::RecomputeLayers => self.recompute_layers.to_string(),
            Key::OffloadLayers => self.offload_layers.to_string(),
            Key::SequenceParallel => flag(self.sequence_parallel),
            Key::FlashAttention => flag(self.flash_attention),
            Key::Dropout => flag(self.dropout),
            Key::OptimizerBytes => canonical(self.optimizer_bytes),
            Key::MasterWeights => flag(self.master_in_weights),
            Key::KernelsShrink => flag(self.kernels_shrink),
            Key::HalfTokens => canonical(self.n_half_tokens),
            Key::HalfHidden => canonical(self.n_half_hidden),
            Key::TpOverlap => canonical(self.tp_overlap),
            Key::CpOverlap => self.cp_overlap.key().to_string(),
            Key::Latency => canonical(self.latency_ms),
            Key::NvlinkDomain => self.nvlink_domain_gpus.to_string(),
            _ => return None,
        })
    }

    /// Parses one wall input (ranges only); `None` for a key that is not one.
    pub(super) fn set(&mut self, key: Key, text: &str) -> Option<Result<(), String>> {
        key.is_walls().then(|| self.set_wall(key, text))
    }

    // One arm per URL key, each a parse and a range (as `LlmSettings::set_llm`).
    #[allow(clippy::too_many_lines)]
    fn set_wall(&mut self, key: Key, text: &str) -> Result<(), String> {
        match key {
            Key::Layers => self.layers = parse_size(text)?,
            Key::Hidden => self.hidden = parse_size(text)?,
            Key::Heads => self.heads = parse_size(text)?,
            Key::KvHeads => self.kv_heads = parse_size(text)?,
            Key::Ffn => self.ffn = parse_size(text)?,
            Key::SeqLen => self.seq_len = parse_size(text)?,
            Key::Vocab => self.vocab = parse_size(text)?,
            Key::Experts => self.experts = parse_count(text, 1.0)?,
            Key::ExpertsPerToken => self.experts_per_token = parse_count(text, 1.0)?,
            Key::HeadDim => self.head_dim = parse_size(text)?,
            Key::SharedExperts => self.shared_experts = parse_size(text)?,
            Key::Ep => {
                let v = parse_count(text, 1.0)?;
                if v > 65_536.0 {
                    return Err(trf!(
                        "{} is above 65,536",
                        "{} 大于 65,536",
                        format_count(v)
                    ));
                }
                self.ep = v as u32;
            }
            Key::Hbm => {
                let v = parse_quantity(text).map_err(|e| e.to_string())?;
                if !(1e9..=1e13).contains(&v) {
                    return Err(trf!(
                        "{} bytes is outside 1G … 10T (write 80Gi or 141G)",
                        "{} 字节超出 1G … 10T 的范围（写 80Gi 或 141G）",
                        quote_number(v)
                    ));
                }
                self.hbm_bytes = v;
            }
            Key::HbmReserve => {
                let v = parse_quantity(text).map_err(|e| e.to_string())?;
                if !(0.0..=1e12).contains(&v) {
                    return Err(trf!(
                        "{} bytes is outside 0 … 1T (write 2.5Gi, or 0 for none)",
                        "{} 字节超出 0 … 1T（写 2.5Gi 或 0）",
                        quote_number(v)
                    ));
                }
                // Whole bytes, so that the link writes back what it read.
                self.hbm_reserve_bytes = v.round();
            }
            Key::Zero => {
                self.zero = match text.trim() {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    "3" => 3,
                    other => {
                        return Err(trf!(
                            "“{}” is not a ZeRO stage 0, 1, 2 or 3 (3 = FSDP)",
                            "“{}” 不是 ZeRO 阶段 0、1、2 或 3（3 = FSDP）",
                            clip(other)
                        ))
                    }
                }
            }
            Key::Recompute => {
                self.recompute = Recompute::from_key(text).ok_or_else(|| {
                    trf!(
                        "“{}” is not one of none, selective, full",
                        "“{}” 不是 none、selective、full 之一",
                        clip(text)
                    )
                })?
            }
            Key::RecomputeLayers => {
                self.recompute_layers = parse_count(text, 0.0)?.min(u32::MAX as f64) as u32;
            }
            Key::OffloadLayers => {
                self.offload_layers = parse_count(text, 0.0)?.min(u32::MAX as f64) as u32;
            }
            Key::SequenceParallel => self.sequence_parallel = parse_flag(text)?,
            Key::FlashAttention => self.flash_attention = parse_flag(text)?,
            Key::Dropout => self.dropout = parse_flag(text)?,
            Key::OptimizerBytes => {
                self.optimizer_bytes = parse_in_range(
                    text,
                    0.0,
                    32.0,
                    crate::i18n::tr(
                        "(12 = Adam with fp32 master weights, 8 without them)",
                        "（12 = 带 fp32 主权重的 Adam，不带为 8）",
                    ),
                )?
            }
            Key::MasterWeights => self.master_in_weights = parse_flag(text)?,
            Key::KernelsShrink => self.kernels_shrink = parse_flag(text)?,
            Key::HalfTokens => self.n_half_tokens = parse_in_range(text, 0.0, 1e6, "")?,
            Key::HalfHidden => self.n_half_hidden = parse_in_range(text, 0.0, 1e6, "")?,
            Key::TpOverlap => {
                self.tp_overlap = match text.trim() {
                    "yes" | "true" => 1.0,
                    "no" | "false" | "" => 0.0,
                    _ => parse_in_range(
                        text,
                        0.0,
                        1.0,
                        crate::i18n::tr(
                            "(the share of TP traffic that overlaps: 0 exposed, 1 all)",
                            "（TP 通信被掩盖的比例：0 = 全暴露，1 = 全掩盖）",
                        ),
                    )?,
                }
            }
            Key::CpOverlap => {
                self.cp_overlap = CpOverlap::from_key(text).ok_or_else(|| {
                    trf!(
                        "“{}” is not one of ring, allgather",
                        "“{}” 不是 ring、allgather 之一",
                        clip(text)
                    )
                })?
            }
            Key::Latency => {
                let v = parse_duration_ms(text).map_err(|e| e.to_string())?;
                if !(0.0..=1000.0).contains(&v) {
                    return Err(trf!(
                        "{} ms is outside 0 … 1 s (write 5us)",
                        "{} ms 超出 0 … 1 s 的范围（写 5us）",
                        quote_number(v)
                    ));
                }
                self.latency_ms = v;
            }
            Key::NvlinkDomain => {
                let v = parse_count(text, 1.0)?;
                if v > 1024.0 {
                    return Err(trf!(
                        "{} is above 1,024 (8 in an HGX node, 72 in an NVL72 rack)",
                        "{} 大于 1,024（HGX 节点为 8，NVL72 机柜为 72）",
                        format_count(v)
                    ));
                }
                self.nvlink_domain_gpus = v as u32;
            }
            _ => return Err(format!("{} is not a wall input", key.name())),
        }
        Ok(())
    }

    /// Cross-input rules with the layout (`tp`, `pp`, `cp`); each names the keys involved.
    pub fn check(&self, tp: u32, pp: u32, cp: u32) -> Vec<(Vec<Key>, String)> {
        let mut out = Vec::new();
        if self.experts_per_token > self.experts {
            out.push((
                vec![Key::ExpertsPerToken, Key::Experts],
                trf!(
                    "{} experts per token is more than the {} experts",
                    "每个 token {} 个专家，多于专家总数 {}",
                    format_count(self.experts_per_token),
                    format_count(self.experts)
                ),
            ));
        }
        if self.shared_experts > 0.0 && self.experts <= 1.0 {
            out.push((
                vec![Key::SharedExperts, Key::Experts],
                trf!(
                    "{} shared experts in a dense model (ne = 1): give the routed experts too",
                    "稠密模型（ne = 1）没有共享专家 {}：请同时给出路由专家数",
                    format_count(self.shared_experts)
                ),
            ));
        }
        if self.ep > 1 && (self.experts % self.ep as f64 != 0.0) {
            out.push((
                vec![Key::Ep, Key::Experts],
                trf!(
                    "EP degree {} does not divide the {} experts",
                    "EP 并行度 {} 不能整除专家数 {}",
                    self.ep,
                    format_count(self.experts)
                ),
            ));
        }
        if self.heads > 0.0 && self.heads % tp as f64 != 0.0 {
            out.push((
                vec![Key::Tp, Key::Heads],
                trf!(
                    "TP degree {} does not divide the {} attention heads",
                    "TP 并行度 {} 不能整除 {} 个注意力头",
                    tp,
                    format_count(self.heads)
                ),
            ));
        }
        if self.kv_heads > 0.0 && self.heads > 0.0 && self.heads % self.kv_heads != 0.0 {
            out.push((
                vec![Key::KvHeads, Key::Heads],
                trf!(
                    "{} key/value heads do not divide the {} attention heads",
                    "{} 个 KV 头不能整除 {} 个注意力头",
                    format_count(self.kv_heads),
                    format_count(self.heads)
                ),
            ));
        }
        if self.seq_len > 0.0 && self.seq_len % cp as f64 != 0.0 {
            out.push((
                vec![Key::Cp, Key::SeqLen],
                trf!(
                    "CP degree {} does not divide the sequence of {} tokens",
                    "CP 并行度 {} 不能整除 {} tokens 的序列",
                    cp,
                    format_count(self.seq_len)
                ),
            ));
        }
        // Stages may be unequal (the busiest holds ⌈L/PP⌉ layers), but each needs one.
        if self.layers > 0.0 && pp as f64 > self.layers {
            out.push((
                vec![Key::Pp, Key::Layers],
                trf!(
                    "PP degree {} is more than the {} layers",
                    "PP 并行度 {} 多于 {} 层",
                    pp,
                    format_count(self.layers)
                ),
            ));
        }
        out
    }
}
