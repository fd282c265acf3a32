//! The inputs of the strong-scaling walls (memory, shrinking kernels, TP/CP/EP traffic): the
//! model's shape, the GPU's memory, ZeRO and recomputation, expert parallelism. Without a
//! shape (`nl=0`, the default, as in the article) the LLM panels are the article's model.

use super::Key;
use crate::model::kernel::HalfLengths;
use crate::model::memory::{ActivationSettings, MemorySettings, Recompute, GRADIENT_BYTES};
use crate::model::shape::Shape;
use crate::model::walls::{CpOverlap, Walls};
use crate::text::units::{clip, format_count, GIB_BYTES};

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
    /// `kvr`: latent attention's compressed key/value width; `0` is standard attention.
    pub kv_lora_rank: f64,
    /// `qr`: latent attention's compressed query width; `0` projects queries from `h`.
    pub q_lora_rank: f64,
    /// `rope`: latent attention's decoupled RoPE width.
    pub rope_dim: f64,
    /// `dl`: an MoE's leading dense layers.
    pub dense_layers: f64,
    /// `dffn`: their gated MLP width; `0` is `ffn`.
    pub dense_ffn: f64,
    /// `ep`: expert-parallel degree.
    pub ep: u32,
    /// `etp`: the routed experts' TP degree; `0` is "as `tp`".
    pub etp: u32,
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
            kv_lora_rank: 0.0,
            q_lora_rank: 0.0,
            rope_dim: 0.0,
            dense_layers: 0.0,
            dense_ffn: 0.0,
            ep: 1,
            etp: 0,
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
            kv_lora_rank: self.kv_lora_rank,
            q_lora_rank: self.q_lora_rank,
            rope_dim: self.rope_dim,
            dense_layers: self.dense_layers,
            dense_ffn: self.dense_ffn,
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
            expert_tensor_parallel: self.etp as f64,
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

    /// The text of a wall input whose row in the key table names no field.
    pub(super) fn get_text(&self, key: Key) -> Option<String> {
        match key {
            Key::Zero => Some(self.zero.to_string()),
            _ => None,
        }
    }

    /// Parses one wall input (ranges only); `None` for a key that is not one.
    pub(super) fn set(&mut self, key: Key, text: &str) -> Option<Result<(), String>> {
        key.is_walls().then(|| self.set_wall(key, text))
    }

    // The wall inputs whose row in the key table names no field: the ZeRO stage, whose
    // message says what each stage is.
    fn set_wall(&mut self, key: Key, text: &str) -> Result<(), String> {
        match key {
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
            _ => return Err(format!("{} is not a wall input", key.name())),
        }
        Ok(())
    }

    /// The rules of the shape's rarer parts: leading dense layers need experts and must leave
    /// some, latent attention's widths need its `kvr`.
    fn shape_part_rules(&self, out: &mut Vec<(Vec<Key>, String)>) {
        if self.dense_layers > 0.0 && self.experts <= 1.0 {
            out.push((
                vec![Key::DenseLayers, Key::Experts],
                trf!(
                    "{} leading dense layers in a dense model (ne = 1): every layer is dense",
                    "稠密模型（ne = 1）的每一层都是稠密层，无需前置稠密层数 {}",
                    format_count(self.dense_layers)
                ),
            ));
        }
        if self.layers > 0.0 && self.dense_layers >= self.layers {
            out.push((
                vec![Key::DenseLayers, Key::Layers],
                trf!(
                    "{} leading dense layers leave none of the {} layers with experts",
                    "前置稠密层 {} 层，{} 层中没有一层带专家",
                    format_count(self.dense_layers),
                    format_count(self.layers)
                ),
            ));
        }
        if self.kv_lora_rank <= 0.0 && (self.q_lora_rank > 0.0 || self.rope_dim > 0.0) {
            out.push((
                vec![Key::KvLoraRank, Key::QLoraRank, Key::RopeDim],
                crate::i18n::tr(
                    "latent attention's query and RoPE widths need its compressed K/V width: give kvr",
                    "潜在注意力的 Q 压缩宽度与旋转位置编码宽度需要先给出其 K/V 压缩宽度 kvr",
                )
                .to_string(),
            ));
        }
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
        self.shape_part_rules(&mut out);
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
        if self.etp > 0 && !tp.is_multiple_of(self.etp) {
            out.push((
                vec![Key::Etp, Key::Tp],
                trf!(
                    "ETP {} does not divide the TP degree {}: the experts are split within the TP group",
                    "ETP {} 不能整除 TP 并行度 {}：专家在 TP 组内切分",
                    self.etp,
                    tp
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
