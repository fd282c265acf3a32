//! The model's shape: layers, hidden size, heads, sequence, vocabulary and, for a mixture of
//! experts, the experts. From it follow the parameter count (checked against the scenario's
//! `P`), what each GPU's GEMMs are cut to, the activations of a layer and the bytes that tensor,
//! context and expert parallelism move.

use serde::Serialize;

/// A decoder-only transformer (GPT, Llama, Mixtral, Grok-1 style). Sizes are counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Shape {
    /// `L`: transformer layers.
    pub layers: f64,
    /// `h`: hidden size.
    pub hidden: f64,
    /// `a`: attention (query) heads.
    pub heads: f64,
    /// Key/value heads (`= a` for multi-head attention, fewer with grouped-query attention).
    pub kv_heads: f64,
    /// Inner size of a gated MLP (SwiGLU: three `h × ffn` matrices); `0` for GPT's MLP of two
    /// `h × 4h` matrices.
    pub ffn: f64,
    /// `s`: sequence length, tokens.
    pub seq_len: f64,
    /// `V`: vocabulary.
    pub vocab: f64,
    /// `E`: experts per MoE layer; `1` for a dense model (every layer is an MoE layer when
    /// `E > 1`, as in Mixtral and Grok-1).
    pub experts: f64,
    /// `k`: experts each token is routed to.
    pub experts_per_token: f64,
    /// `d_h`: the width of one attention head; `0` is `h/a`. Qwen3 and GPT-OSS use heads of
    /// 128 and 64 whatever `h` is, so their attention is `a·d_h` wide, not `h`.
    pub head_dim: f64,
    /// Shared experts of each MoE layer: MLPs of the experts' width that every token passes,
    /// beside its `k` routed ones (Llama 4 Scout: 1; DeepSeek-V3: 1; Qwen3, Mixtral: 0).
    pub shared_experts: f64,
    /// `r_kv`: multi-head latent attention's compressed key/value width (DeepSeek-AI,
    /// "DeepSeek-V2", arXiv:2405.04434, 2024, §2.1.2; `kv_lora_rank`: DeepSeek-V3 and Kimi
    /// K2 512); `0` is standard attention. With it the heads' keys and queries are
    /// [`Self::head_width`] plus [`Self::rope_dim`] wide and their values
    /// [`Self::head_width`] (`qk_nope_head_dim`, `v_head_dim`: 128 in both).
    pub kv_lora_rank: f64,
    /// `r_q`: latent attention's compressed query width (`q_lora_rank`, DeepSeek-V3 1,536);
    /// `0` projects the queries from `h` directly (DeepSeek-V2-Lite).
    pub q_lora_rank: f64,
    /// `d_R`: latent attention's decoupled RoPE width, per query head and one shared key
    /// (`qk_rope_head_dim`, DeepSeek-V3 64); read only with [`Self::kv_lora_rank`].
    pub rope_dim: f64,
    /// Leading dense layers of an MoE (`first_k_dense_replace`: DeepSeek-V3 3, Kimi K2 1): of
    /// the `L` layers these have one MLP of [`Self::dense_ffn`] instead of experts.
    pub dense_layers: f64,
    /// The dense layers' gated MLP width (`intermediate_size`: DeepSeek-V3 18,432); `0` is the
    /// experts' [`Self::ffn`].
    pub dense_ffn: f64,
}

impl Shape {
    /// `E > 1`.
    pub fn is_moe(&self) -> bool {
        self.experts > 1.0
    }

    /// `d_h`: [`Self::head_dim`] when given, else `h/a`.
    pub fn head_width(&self) -> f64 {
        if self.head_dim > 0.0 {
            self.head_dim
        } else {
            self.hidden / self.heads
        }
    }

    /// The width of the attention's queries and outputs, `a·d_h` (`h` unless the heads have
    /// their own width).
    pub fn attention_width(&self) -> f64 {
        self.heads * self.head_width()
    }

    /// Latent attention ([`Self::kv_lora_rank`] `> 0`).
    pub fn is_latent(&self) -> bool {
        self.kv_lora_rank > 0.0
    }

    /// The width of one head's queries and keys: `d_h`, or `d_h + d_R` with latent attention
    /// (DeepSeek-V3: 128 + 64 = 192).
    pub fn qk_head_width(&self) -> f64 {
        if self.is_latent() {
            self.head_width() + self.rope_dim
        } else {
            self.head_width()
        }
    }

    /// Key and value elements a token holds for attention, averaged over the two:
    /// `kv·(d_qk + d_h)/2` (`kv·d_h` for standard attention). Latent attention's keys and
    /// values are expanded from its latent per head (`kv = a`), which is what a context-parallel
    /// rank exchanges.
    pub fn kv_width(&self) -> f64 {
        self.kv_heads * (self.qk_head_width() + self.head_width()) / 2.0
    }

    /// Attention weights of one layer: `W_Q` and `W_O` are `h × a·d_h`, `W_K` and `W_V` are
    /// `h × kv·d_h`: `2·h·d_h·(a + kv)`, which is `2h²·(1 + kv/a)` with `d_h = h/a`. With
    /// `kv = a` it is GPT's `4h²` (Narayanan et al. 2021, "Efficient Large-Scale Language
    /// Model Training on GPU Clusters Using Megatron-LM", §5.1: `12·l·h²` per layer for
    /// attention + MLP; biases and norms, `~13h` per layer, are left out).
    ///
    /// Latent attention (DeepSeek-V2 §2.1.2–2.1.3; `modeling_deepseek.py`'s `q_a_proj`,
    /// `q_b_proj`, `kv_a_proj_with_mqa`, `kv_b_proj`, `o_proj`): the queries down to `r_q`
    /// and up to `a·(d_h + d_R)` (or straight from `h` without `r_q`), keys and values down to
    /// `r_kv` plus the shared RoPE key's `d_R`, up to `a·(d_h + d_h)`, and the output from
    /// `a·d_h`: `h·r_q + r_q·a·d_qk + h·(r_kv + d_R) + r_kv·2a·d_h + a·d_h·h`. DeepSeek-V3:
    /// 11,010,048 + 37,748,736 + 4,128,768 + 16,777,216 + 117,440,512 = 187,105,280.
    pub fn attention_params_per_layer(&self) -> f64 {
        let (h, a, d) = (self.hidden, self.heads, self.head_width());
        if !self.is_latent() {
            return 2.0 * h * d * (a + self.kv_heads);
        }
        let queries = a * self.qk_head_width();
        let query = if self.q_lora_rank > 0.0 {
            h * self.q_lora_rank + self.q_lora_rank * queries
        } else {
            h * queries
        };
        let key_value = h * (self.kv_lora_rank + self.rope_dim) + self.kv_lora_rank * 2.0 * a * d;
        query + key_value + a * d * h
    }

    /// One MLP (one expert): GPT's `2 · h · 4h = 8h²`, or a gated MLP's `3 · h · ffn`
    /// (Shazeer 2020, "GLU Variants Improve Transformer"; Llama 3's SwiGLU).
    pub fn mlp_params(&self) -> f64 {
        if self.ffn > 0.0 {
            3.0 * self.hidden * self.ffn
        } else {
            8.0 * self.hidden * self.hidden
        }
    }

    /// The input embedding and the output projection, untied: `2·V·h` (Llama's; GPT-3 ties
    /// them, which makes this count 0.4% high for GPT-3 175B).
    pub fn embedding_params(&self) -> f64 {
        2.0 * self.vocab * self.hidden
    }

    /// The routed experts' weights, `L_moe · E · mlp` for an MoE ([`Self::moe_layers`]): what
    /// expert parallelism splits (`0` for a dense model, whose MLPs are dense weights; shared
    /// experts are dense weights too, on every EP rank).
    pub fn expert_params(&self) -> f64 {
        self.moe_layers() * self.experts * self.mlp_params()
    }

    /// `L_moe`: the layers with experts, `L` less the leading dense ones
    /// ([`Self::dense_layers`]); `0` for a dense model.
    pub fn moe_layers(&self) -> f64 {
        if self.is_moe() {
            (self.layers - self.dense_layers).max(0.0)
        } else {
            0.0
        }
    }

    /// The dense MLPs of the model, `L − L_moe` of them: every layer of a dense model, an MoE's
    /// leading dense layers.
    fn dense_mlp_layers(&self) -> f64 {
        self.layers - self.moe_layers()
    }

    /// A dense layer's MLP: [`Self::mlp_params`] for a dense model; an MoE's leading dense
    /// layers' gated MLP of [`Self::dense_ffn`] (`3·h·f_dense`), the experts' when `0`.
    fn dense_mlp_params(&self) -> f64 {
        if self.is_moe() && self.dense_ffn > 0.0 {
            3.0 * self.hidden * self.dense_ffn
        } else {
            self.mlp_params()
        }
    }

    /// A dense layer's MLP inner width, as [`Self::dense_mlp_params`].
    fn dense_mlp_width(&self) -> f64 {
        if self.is_moe() && self.dense_ffn > 0.0 {
            self.dense_ffn
        } else {
            self.mlp_width()
        }
    }

    /// MLP weights over all layers when each MoE layer uses `experts` routed MLPs and its
    /// shared ones: `L_moe·(experts + shared)·mlp + (L − L_moe)·mlp_dense`.
    fn mlp_params_over_layers(&self, experts: f64) -> f64 {
        self.moe_layers() * (experts + self.shared_experts) * self.mlp_params()
            + self.dense_mlp_layers() * self.dense_mlp_params()
    }

    /// MLP inner elements a token passes through, averaged over the layers:
    /// `(L_moe·(k + shared)·f + (L − L_moe)·f_dense)/L` (`f` for a dense model).
    fn mlp_inner_per_layer(&self) -> f64 {
        if self.layers <= 0.0 {
            return 0.0;
        }
        (self.moe_layers() * (self.experts_per_token + self.shared_experts) * self.mlp_width()
            + self.dense_mlp_layers() * self.dense_mlp_width())
            / self.layers
    }

    /// `Σ (h + f)` and `Σ (fc1 out + h)` over the MLPs a token passes, averaged over the layers:
    /// what a low-precision recipe casts for them forward and backward
    /// ([`Self::quantized_elements_per_token_layer`]).
    fn mlp_quantized_per_layer(&self) -> (f64, f64) {
        if self.layers <= 0.0 {
            return (0.0, 0.0);
        }
        let h = self.hidden;
        let gated = |f: f64| if self.ffn > 0.0 { 2.0 * f } else { f };
        let mlps = self.moe_layers() * (self.experts_per_token + self.shared_experts);
        let (f, dense_f, dense) = (
            self.mlp_width(),
            self.dense_mlp_width(),
            self.dense_mlp_layers(),
        );
        let forward = mlps * (h + f) + dense * (h + dense_f);
        let backward = mlps * (gated(f) + h) + dense * (gated(dense_f) + h);
        (forward / self.layers, backward / self.layers)
    }

    /// Layers on the busiest pipeline stage: `⌈L / PP⌉`. Stages need not be equal: Llama 3
    /// 405B's 126 layers ran on 16 stages, the first and last with one layer fewer
    /// (Dubey et al., "The Llama 3 Herd of Models", arXiv:2407.21783, 2024, §3.3.2), so the
    /// busiest holds 8 (Megatron-Core: `--decoder-first-pipeline-num-layers`).
    pub fn layers_per_stage(&self, pp: u32) -> f64 {
        (self.layers / pp.max(1) as f64).ceil()
    }

    /// Layers on the first pipeline stage, whose GPU holds the most microbatches in flight
    /// ([`super::memory::microbatches_in_flight`]): `⌈L/PP⌉`, one fewer when the stages are
    /// uneven (`⌈L/PP⌉·PP > L`) and `⌈L/PP⌉ > 1`. Real runs put the short stages first and
    /// last, where the embedding and the output layer sit: Llama 3 405B's 126 layers on 16
    /// stages "reduce one Transformer layer each from the first and the last stages" (Dubey
    /// et al. 2024, §3.3.2; Megatron-Core's `--decoder-first-pipeline-num-layers`).
    pub fn first_stage_layers(&self, pp: u32) -> f64 {
        let busiest = self.layers_per_stage(pp);
        if pp > 1 && busiest * pp as f64 > self.layers && busiest > 1.0 {
            busiest - 1.0
        } else {
            busiest
        }
    }

    /// One layer's training FLOPs per token, averaged over the layers: its weights'
    /// `6·(attention + (k + shared)·mlp)` (one MLP for a dense model; an MoE's leading dense
    /// layers counted in the average) and its attention's `12·a·d_h·s`
    /// ([`Self::attention_flops_per_token`] over `L`).
    pub fn layer_flops_per_token(&self) -> f64 {
        if self.layers <= 0.0 {
            return 0.0;
        }
        (6.0 * (self.active_params() - self.embedding_params()) + self.attention_flops_per_token())
            / self.layers
    }

    /// The output layer's training FLOPs per token, `6·V·h`: the logits GEMM forward (`2·V·h`)
    /// and its two backward GEMMs. The input embedding is a lookup, no GEMM.
    pub fn head_flops_per_token(&self) -> f64 {
        6.0 * self.vocab * self.hidden
    }

    /// The pipeline's slowest stage against the average, `≥ 1`: the stage that sets the pace
    /// of every microbatch. Megatron-Core puts the output layer and the loss on the last stage
    /// (its default split; `--account-for-loss-in-pipeline-split` exists because of it), so
    /// with `w` a layer's FLOPs ([`Self::layer_flops_per_token`]) and `o` the output layer's
    /// ([`Self::head_flops_per_token`]):
    ///
    /// `slowest = max(⌈L/p⌉·w, L_last·w + o)`, `average = (L·w + o)/p`
    ///
    /// where `L_last` is [`Self::first_stage_layers`] (one layer fewer on the first and last
    /// stages when they are uneven, as Llama 3 405B's 126 layers on 16 stages, Dubey et al.
    /// 2024, §3.3.2). Megatron 177B's 131,072-token head is 0.84 of a layer's forward
    /// (Korthikanti-style counts, `2·V·h` against `2·P_layer + 4·h·s`), so on 6 stages of 16
    /// layers the last stage is 4.3% slower than the average; 1 without a pipeline.
    pub fn slowest_stage_share(&self, pp: u32) -> f64 {
        if pp <= 1 || self.layers <= 0.0 {
            return 1.0;
        }
        let (w, o) = (self.layer_flops_per_token(), self.head_flops_per_token());
        let slowest = (self.layers_per_stage(pp) * w).max(self.first_stage_layers(pp) * w + o);
        slowest / ((self.layers * w + o) / pp as f64)
    }

    /// The MLP's inner width: `ffn` for a gated MLP, GPT's `4h` otherwise.
    pub fn mlp_width(&self) -> f64 {
        if self.ffn > 0.0 {
            self.ffn
        } else {
            4.0 * self.hidden
        }
    }

    /// `P` implied by the shape: `L · attention + L_moe · (E + shared) · mlp + (L − L_moe) ·
    /// mlp_dense + 2·V·h` (every layer's one MLP for a dense model; router weights, `h·E` per
    /// layer, are below 0.1% and left out). DeepSeek-V3 (61 layers, 3 dense of 18,432, 256
    /// routed and 1 shared expert of 2,048, latent attention): 11,413,422,080 +
    /// 656,463,101,952 + 1,189,085,184 + 1,853,358,080 = 670,918,967,296 (card: 671B without
    /// the multi-token-prediction module).
    pub fn total_params(&self) -> f64 {
        self.layers * self.attention_params_per_layer()
            + self.mlp_params_over_layers(self.experts)
            + self.embedding_params()
    }

    /// `P_a` implied by the shape: every token uses the attention, `k` routed and every shared
    /// expert's MLP (the dense MLP in a dense layer), and the embeddings: `L · attention +
    /// L_moe · (k + shared) · mlp + (L − L_moe) · mlp_dense + 2·V·h`. DeepSeek-V3:
    /// 37,444,845,568 (card: 37B).
    pub fn active_params(&self) -> f64 {
        self.layers * self.attention_params_per_layer()
            + self.mlp_params_over_layers(self.experts_per_token)
            + self.embedding_params()
    }

    /// The share of a token's weight FLOPs spent in routed expert MLPs (`0` for a dense
    /// model), `L_moe·k·mlp / P_a`: the part whose GEMMs see only the tokens routed to one
    /// expert. Shared experts and dense layers see every token, as the other weights do.
    pub fn expert_flop_share(&self) -> f64 {
        if self.is_moe() {
            self.moe_layers() * self.experts_per_token * self.mlp_params() / self.active_params()
        } else {
            0.0
        }
    }

    /// Attention's score and value products per token, forward and backward: `12·L·a·d_h·s`
    /// FLOPs, `12·L·h·s` when `d_h = h/a` (Chowdhery et al. 2022, "PaLM", Appendix B:
    /// `6N + 12·L·H·Q·T` per token, `H` heads of width `Q`). Not halved for a causal mask, as PaLM, Megatron-LM (Narayanan et al.
    /// 2021, §5.1: the `s/(6h)` term), torchtitan and llm-foundry count it; a causal kernel
    /// (FlashAttention-2) skips about half of these FLOPs, so at long sequences the compute
    /// time counts up to twice attention's real work, and the calibrated `r∞` absorbs the
    /// ratio at its run's sequence. At GPT-3 175B's 2,048 tokens the two counts differ by
    /// 0.7 points: DGX Cloud's 8.309 s step at 128 GPUs is 53.8% MFU with this count, 53.1%
    /// halved, against 53.5% published; Megatron-LM's formula is the unhalved one.
    ///
    /// Latent attention's scores run over `d_qk = d_h + d_R` and its values over `d_h`:
    /// `6·L·a·s·(d_qk + d_h)`, which is the same count with `d_qk = d_h` (DeepSeek-V3 at
    /// 4,096 tokens: `6·61·128·4,096·320` = 61,404,610,560).
    pub fn attention_flops_per_token(&self) -> f64 {
        6.0 * self.layers * self.heads * self.seq_len * (self.qk_head_width() + self.head_width())
    }

    /// `f`: the share of a step's FLOPs spent in attention's score and value products,
    /// `12·L·h·s / (6·P_a + 12·L·h·s)` ([`Self::attention_flops_per_token`] against `6·P_a`
    /// for the weights, [`Self::active_params`]). What ring attention's K/V exchange can hide
    /// behind ([`super::walls::CpOverlap::Ring`]) is attention's share of the step's *time*:
    /// a causal kernel runs about half these FLOPs at about half the weights' GEMM rate, so
    /// the unhalved FLOP share stands for it (docs/model/12-walls.md §12.4): 7.7% for Llama 3
    /// 405B at 8,192 tokens. With the elementwise kernels' memory time in the compute,
    /// [`super::walls::Walls::attention_time_share`] takes it out of the time.
    pub fn attention_flop_share(&self) -> f64 {
        let attention = self.attention_flops_per_token();
        attention / (6.0 * self.active_params() + attention)
    }

    /// Bytes one token's elementwise kernels move through HBM in one layer, forward and
    /// backward, with 2-byte activations: what runs at the memory's rate, not the GEMMs'.
    /// Counted as Calculon counts each operator's `*_mem_accessed` (Isaev et al., SC'23;
    /// `calculon-ai/calculon`, `calculon/llm/layers.py` and the block of `llm.py`), in
    /// elements of `h` per token:
    ///
    /// - two residual branch points (`Fork`: the backward reads the input and its two
    ///   users' gradients), `3h` each;
    /// - two norms (`LayerNorm`: forward in + out, backward twice activation + gradient),
    ///   `6h` each;
    /// - two residual adds (`ElementWise` of two `h` operands: forward 2 in + 1 out, backward
    ///   2 saved + 1 gradient), `6h` each;
    /// - the MLP's activation over its `f` inner elements (all `k + shared` MLPs of an MoE):
    ///   SwiGLU as an `ElementWise` of its two halves, `6f`; GPT's GeLU, `4f`;
    /// - for an MoE, the permute that copies the token to its `k` experts and the unpermute
    ///   that sums them back, each forward `h + k·h` and its backward the same:
    ///   `4·(k + 1)·h` (Megatron-Core's `moe_utils.permute` / `unpermute`; Calculon has no
    ///   MoE).
    ///
    /// Dropout (`p = 0` in every LLM recipe the model holds), RoPE and the attention's own
    /// softmax (inside a FlashAttention kernel) are left out, as are the GEMMs' own reads,
    /// which [`super::kernel`]'s half lengths hold. Llama 3 8B (`h` 4,096, SwiGLU 14,336):
    /// `30·4,096 + 6·14,336 = 208,896` elements, 417,792 bytes.
    pub fn elementwise_bytes_per_token_layer(&self) -> f64 {
        self.residual_stream_bytes_per_token_layer() + self.inner_bytes_per_token_layer()
    }

    /// The part of [`Self::elementwise_bytes_per_token_layer`] on the residual stream, outside
    /// the tensor-parallel region: the branch points, norms and residual adds, `30h` elements.
    /// Without sequence parallelism every TP rank runs them on the whole tensor (Korthikanti
    /// et al. 2022, §4.2.2; Calculon's `_activation_size` against `_seq_par_activation_size`).
    pub fn residual_stream_bytes_per_token_layer(&self) -> f64 {
        ACTIVATION_BYTES * (3.0 + 3.0 + 6.0 + 6.0 + 6.0 + 6.0) * self.hidden
    }

    /// The part inside the tensor-parallel region, which TP splits: the MLP's activation and an
    /// MoE's permute and unpermute.
    ///
    /// An MoE's leading dense layers ([`Self::dense_layers`]) route nothing and run their own
    /// MLP: both terms are averages over the `L` layers.
    pub fn inner_bytes_per_token_layer(&self) -> f64 {
        let h = self.hidden;
        let activation = if self.ffn > 0.0 { 6.0 } else { 4.0 } * self.mlp_inner_per_layer();
        let routing = if self.layers > 0.0 {
            4.0 * (self.experts_per_token + 1.0) * h * self.moe_layers() / self.layers
        } else {
            0.0
        };
        ACTIVATION_BYTES * (activation + routing)
    }

    /// Without flash attention the `a` heads' scores are a tensor of `a·s` elements a token,
    /// which the fused scale-mask-softmax reads and writes forward and backward (Calculon's
    /// `SoftMax`: in and out each way), `4·a·s` elements, and which the two batched products
    /// around it write and read: `Q·Kᵀ` reads `Q` and `K` and writes the scores, `P·V` reads
    /// the probabilities and `V` and writes the output, and each backward reads its inputs
    /// and the output's gradient (Calculon's `BatchMatMul`: forward inputs and output,
    /// backward activations and gradient), `2·(s + 2·d_h)` elements a head each, `4·a·(s +
    /// 2·d_h)` for both. TP splits the heads. These products run at the GEMMs' rate for their
    /// FLOPs and move their bytes at the memory's (Calculon's `no_overlap` mode); the weight
    /// GEMMs' own reads belong to the half lengths ([`super::kernel`]), which a `d_h`-wide
    /// product against the whole sequence does not follow. Flash attention keeps the scores
    /// on chip and reads `Q`, `K`, `V` once per tile (Dao et al. 2022): none of this.
    pub fn attention_scores_bytes_per_token_layer(&self) -> f64 {
        let a = self.heads;
        let s = self.seq_len;
        ACTIVATION_BYTES * (4.0 * a * s + 4.0 * a * (s + 2.0 * self.head_width()))
    }

    /// What selective recomputation moves again without flash attention, bytes a token and
    /// layer: the backward reruns the attention core's forward (Korthikanti et al. 2022, §4.3:
    /// `QKᵀ`, the softmax, the attention dropout and `·V`), so the forward half of the
    /// scores' traffic ([`Self::attention_scores_bytes_per_token_layer`]: the softmax's `2·a·s`
    /// elements and the products' `2·a·(s + 2·d_h)`) and, with `dropout`, of the attention
    /// dropout's (`5·a·s` bytes, [`Self::dropout_bytes_per_token_layer`]). Calculon charges the
    /// same: a recomputed layer's forward memory time again (`calculon/llm/llm.py`,
    /// `_compute_block_stats`).
    pub fn selective_recompute_bytes_per_token_layer(&self, dropout: bool) -> f64 {
        let (a, s) = (self.heads, self.seq_len);
        let scores = ACTIVATION_BYTES * (2.0 * a * s + 2.0 * a * (s + 2.0 * self.head_width()));
        scores + if dropout { 5.0 * a * s } else { 0.0 }
    }

    /// Elements a token's GEMMs in one layer take that a low-precision recipe casts before the
    /// GEMM: each GEMM's input in the forward and its output gradient in the backward
    /// (Transformer Engine quantizes both for the FP8 GEMMs of the forward, the data gradient
    /// and the weight gradient): forward `h` (QKV), `a·d_h` (the output projection), and per
    /// MLP `h` (fc1) and `f` (fc2); backward `a·d_h + 2·kv·d_h` (QKV), `h` (projection), and
    /// per MLP `2f` gated or `f` (fc1) and `h` (fc2). Llama 3 8B: 26,624 forward and 43,008
    /// backward, 69,632.
    ///
    /// Latent attention's five GEMMs instead of two: forward the inputs `h` (queries down, or
    /// up from `h` without `r_q`), `r_q` (queries up), `h` (keys and values down), `r_kv` (up)
    /// and `a·d_h` (output); backward the outputs' gradients `r_q`, `a·d_qk`, `r_kv + d_R`,
    /// `2a·d_h` and `h`. The MLP terms are averaged over the layers with an MoE's leading
    /// dense layers.
    pub fn quantized_elements_per_token_layer(&self) -> f64 {
        let h = self.hidden;
        let q = self.attention_width();
        let (mlp_forward, mlp_backward) = self.mlp_quantized_per_layer();
        let (attention_forward, attention_backward) = if self.is_latent() {
            let a = self.heads;
            let (r_q, r_kv) = (self.q_lora_rank, self.kv_lora_rank);
            let queries = a * self.qk_head_width();
            let (q_in, q_out) = if r_q > 0.0 {
                (h + r_q, r_q + queries)
            } else {
                (h, queries)
            };
            (
                q_in + h + r_kv + q,
                q_out + r_kv + self.rope_dim + 2.0 * q + h,
            )
        } else {
            let kv = self.kv_heads * self.head_width();
            (h + q, q + 2.0 * kv + h)
        };
        attention_forward + mlp_forward + attention_backward + mlp_backward
    }

    /// Dropout's HBM bytes a token and layer (GPT-3's and Megatron-LM's `--hidden-dropout`
    /// and `--attention-dropout`, 0.1; today's LLM recipes train without), as `(residual
    /// stream, attention)`. The two hidden dropouts are fused with their residual adds
    /// (Megatron-LM's `bias_dropout_add`), whose reads and writes
    /// [`Self::residual_stream_bytes_per_token_layer`] counts: they add a 1-byte mask of `h`,
    /// written forward and read backward, `2·2h = 4h`. Without flash attention the attention
    /// dropout over the `a·s` scores reads them and writes them and its 1-byte mask forward,
    /// and reads the gradient and the mask and writes the gradient backward:
    /// `(2 + 2 + 1 + 2 + 2 + 1)·a·s = 10·a·s` (the masks Korthikanti et al. 2022, §4.1, count in
    /// activation memory). Flash attention drops out inside its kernel, the mask regenerated
    /// from the random state (Dao et al. 2022): 0. GPT-3 175B: 49,152 and 1,966,080 bytes.
    pub fn dropout_bytes_per_token_layer(&self, flash: bool) -> (f64, f64) {
        let attention = if flash {
            0.0
        } else {
            10.0 * self.heads * self.seq_len
        };
        (4.0 * self.hidden, attention)
    }

    /// Elementwise HBM bytes per training FLOP on one GPU of a TP group of `tp`:
    /// `L·(r·t' + i + [no flash] a_s + q·n)` over `6·P_a + 12·L·a·d_h·s`
    /// ([`Self::active_params`], [`Self::attention_flops_per_token`]), with `r` the residual
    /// stream's bytes ([`Self::residual_stream_bytes_per_token_layer`], with `dropout` its
    /// masks' too), replicated on the `t' = tp` ranks without sequence parallelism (`t' = 1`
    /// with it), `i` the TP region's ([`Self::inner_bytes_per_token_layer`]), `a_s` the
    /// attention scores' without flash attention
    /// ([`Self::attention_scores_bytes_per_token_layer`], with `dropout` the attention
    /// dropout's too, [`Self::dropout_bytes_per_token_layer`]) and `q` bytes for each of the
    /// `n` elements a low-precision recipe casts ([`Self::quantized_elements_per_token_layer`]):
    /// TP splits the FLOPs and everything but the replicated stream alike. Llama 3 8B at 8,192
    /// tokens with sequence parallelism and flash attention: 13,369,344 bytes over
    /// 61,064,871,936 FLOPs, 0.000219; Qwen3 30B-A3B at 4,096: 16,515,072 over 29,705,109,504,
    /// 0.000556.
    pub fn elementwise_bytes_per_flop(
        &self,
        tp: f64,
        sequence_parallel: bool,
        flash: bool,
        dropout: bool,
        quantized_bytes: f64,
    ) -> f64 {
        let flops = 6.0 * self.active_params() + self.attention_flops_per_token();
        let replicated = if sequence_parallel { 1.0 } else { tp.max(1.0) };
        let scores = if flash {
            0.0
        } else {
            self.attention_scores_bytes_per_token_layer()
        };
        let (dropout_residual, dropout_scores) = if dropout {
            self.dropout_bytes_per_token_layer(flash)
        } else {
            (0.0, 0.0)
        };
        let bytes = (self.residual_stream_bytes_per_token_layer() + dropout_residual) * replicated
            + self.inner_bytes_per_token_layer()
            + scores
            + dropout_scores
            + quantized_bytes * self.quantized_elements_per_token_layer();
        if flops > 0.0 {
            self.layers * bytes / flops
        } else {
            0.0
        }
    }

    /// Tokens each expert gets per microbatch with balanced routing:
    /// `EP · tokens · k / E` (MODEL.md, "tokens per expert"): the `tokens` a rank routes go
    /// out `k` times and are spread over `E` experts, of which the rank holds `E/EP`, each
    /// receiving from all `EP` ranks of its group. `None` for a dense model.
    pub fn tokens_per_expert(&self, tokens_per_rank: f64, expert_parallel: f64) -> Option<f64> {
        self.is_moe()
            .then(|| expert_parallel * tokens_per_rank * self.experts_per_token / self.experts)
    }
}

/// Bytes of one activation element (BF16), as Calculon's `bytes_per_element`.
pub const ACTIVATION_BYTES: f64 = 2.0;

/// A shape's parameter count is "reported, naming both" when it is off the scenario's by more
/// than this fraction.
pub const PARAMS_TOLERANCE: f64 = 0.10;

/// `|implied − given| / given`.
pub fn params_mismatch(implied: f64, given: f64) -> f64 {
    (implied - given).abs() / given
}

/// GPT-3 175B's shape (Brown et al. 2020, Table 2.1), for the model's unit tests.
#[cfg(test)]
pub(crate) const GPT3: Shape = Shape {
    layers: 96.0,
    hidden: 12288.0,
    heads: 96.0,
    kv_heads: 96.0,
    ffn: 0.0,
    seq_len: 2048.0,
    vocab: 50257.0,
    experts: 1.0,
    experts_per_token: 1.0,
    head_dim: 0.0,
    shared_experts: 0.0,
    kv_lora_rank: 0.0,
    q_lora_rank: 0.0,
    rope_dim: 0.0,
    dense_layers: 0.0,
    dense_ffn: 0.0,
};

/// Llama 3 70B's shape (meta-llama/Llama-3.1-70B config.json: 80 layers, 8,192 wide, 64 heads,
/// 8 KV heads, SwiGLU 28,672) at 8,192 tokens, for the unit tests.
#[cfg(test)]
pub(crate) const LLAMA3_70B: Shape = Shape {
    layers: 80.0,
    hidden: 8192.0,
    heads: 64.0,
    kv_heads: 8.0,
    ffn: 28672.0,
    seq_len: 8192.0,
    vocab: 128256.0,
    experts: 1.0,
    experts_per_token: 1.0,
    head_dim: 0.0,
    shared_experts: 0.0,
    kv_lora_rank: 0.0,
    q_lora_rank: 0.0,
    rope_dim: 0.0,
    dense_layers: 0.0,
    dense_ffn: 0.0,
};

/// Llama 3.1 405B's shape (Dubey et al. 2024, Table 3) at its 8,192-token pre-training
/// sequence, for the unit tests.
#[cfg(test)]
pub(crate) const LLAMA3_405B: Shape = Shape {
    layers: 126.0,
    hidden: 16384.0,
    heads: 128.0,
    kv_heads: 8.0,
    ffn: 53248.0,
    seq_len: 8192.0,
    vocab: 128_256.0,
    experts: 1.0,
    experts_per_token: 1.0,
    head_dim: 0.0,
    shared_experts: 0.0,
    kv_lora_rank: 0.0,
    q_lora_rank: 0.0,
    rope_dim: 0.0,
    dense_layers: 0.0,
    dense_ffn: 0.0,
};

/// Mixtral 8x7B's shape (Jiang et al. 2024) at a 4,096-token sequence, for the unit tests.
#[cfg(test)]
pub(crate) const MIXTRAL: Shape = Shape {
    layers: 32.0,
    hidden: 4096.0,
    heads: 32.0,
    kv_heads: 8.0,
    ffn: 14336.0,
    seq_len: 4096.0,
    vocab: 32000.0,
    experts: 8.0,
    experts_per_token: 2.0,
    head_dim: 0.0,
    shared_experts: 0.0,
    kv_lora_rank: 0.0,
    q_lora_rank: 0.0,
    rope_dim: 0.0,
    dense_layers: 0.0,
    dense_ffn: 0.0,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn llama_8b() -> Shape {
        // Llama 3.1 8B (Meta's config.json): 32 layers, 4,096 hidden, 32 heads, 8 KV heads,
        // FFN 14,336, vocabulary 128,256.
        Shape {
            layers: 32.0,
            hidden: 4096.0,
            heads: 32.0,
            kv_heads: 8.0,
            ffn: 14336.0,
            seq_len: 8192.0,
            vocab: 128_256.0,
            experts: 1.0,
            experts_per_token: 1.0,
            head_dim: 0.0,
            shared_experts: 0.0,
            kv_lora_rank: 0.0,
            q_lora_rank: 0.0,
            rope_dim: 0.0,
            dense_layers: 0.0,
            dense_ffn: 0.0,
        }
    }

    /// Hand count: attention 2·4096²·(1 + 8/32) = 41,943,040; MLP 3·4096·14,336 = 176,160,768;
    /// per layer 218,103,808, × 32 = 6,979,321,856; embeddings 2·128,256·4,096 = 1,050,673,152;
    /// total 8,029,995,008 (Meta: 8.03B).
    #[test]
    fn llama_8b_parameter_count() {
        let s = llama_8b();
        assert_eq!(s.attention_params_per_layer(), 41_943_040.0);
        assert_eq!(s.mlp_params(), 176_160_768.0);
        assert_eq!(s.total_params(), 8_029_995_008.0);
        assert_eq!(s.active_params(), 8_029_995_008.0);
        assert_eq!(s.expert_flop_share(), 0.0);
        assert_eq!(s.tokens_per_expert(8192.0, 1.0), None);
    }

    /// GPT-3 175B (Brown et al. 2020, Table 2.1): 96 layers, 12,288 hidden, 96 heads, GPT MLP,
    /// vocabulary 50,257. 12·96·12,288² = 173,946,175,488; 2·50,257·12,288 = 1,235,116,032;
    /// total 175,181,291,520.
    #[test]
    fn gpt3_parameter_count() {
        let s = GPT3;
        assert_eq!(s.total_params(), 175_181_291_520.0);
        assert!(params_mismatch(s.total_params(), 175e9) < 0.002);
    }

    /// Mixtral 8x7B (Jiang et al. 2024: 46.7B total, 12.9B active): 32 layers, 4,096 hidden,
    /// 32 heads, 8 KV heads, FFN 14,336, 8 experts, top 2, vocabulary 32,000.
    /// Per layer: attention 41,943,040 + 8 · 176,160,768 = 1,451,229,184, × 32 =
    /// 46,439,333,888; + 2·32,000·4,096 = 262,144,000: 46,701,477,888 total.
    /// Active: 32 · (41,943,040 + 2·176,160,768) + 262,144,000 = 12,878,610,432.
    /// Expert share: 32·2·176,160,768 / 12,878,610,432 = 11,274,289,152 / 12,878,610,432.
    /// Tokens per expert: EP 8 × 4,096 tokens × 2 / 8 = 8,192.
    #[test]
    fn mixtral_counts_and_tokens_per_expert() {
        let s = Shape {
            experts: 8.0,
            experts_per_token: 2.0,
            vocab: 32000.0,
            ..llama_8b()
        };
        assert_eq!(s.total_params(), 46_701_477_888.0);
        assert_eq!(s.active_params(), 12_878_610_432.0);
        assert_eq!(s.expert_params(), 45_097_156_608.0);
        assert!((s.expert_flop_share() - 11_274_289_152.0 / 12_878_610_432.0).abs() < 1e-15);
        assert_eq!(s.tokens_per_expert(4096.0, 8.0), Some(8192.0));
        assert_eq!(s.tokens_per_expert(4096.0, 1.0), Some(1024.0));
    }

    /// Attention's FLOPs per token, `12·L·h·s` (PaLM, Appendix B), by hand: Llama 3.1 8B at
    /// 8,192 tokens, 12·32·4,096·8,192 = 12,884,901,888, against 6·8,029,995,008 =
    /// 48,179,970,048 for the weights: a share of 12,884,901,888/61,064,871,936 = 21.1%.
    /// Llama 3 405B at 8,192: 12·126·16,384·8,192 = 202,937,204,736 against 6·405,849,243,648
    /// (its active parameters: 126·(2·16,384²·(1 + 8/128) + 3·16,384·53,248) + 2·128,256·16,384)
    /// = 2,435,095,461,888: 7.69%. A sixteenfold sequence, 131,072 tokens, is sixteen times the
    /// attention: 3,246,995,275,776, more than the weights' FLOPs.
    #[test]
    fn attention_flops_per_token_as_palm_counts_them() {
        let s = llama_8b();
        assert_eq!(s.attention_flops_per_token(), 12_884_901_888.0);
        assert!(
            (s.attention_flop_share() - 12_884_901_888.0 / 61_064_871_936.0).abs() < 1e-15,
            "{}",
            s.attention_flop_share()
        );
        assert_eq!(LLAMA3_405B.attention_flops_per_token(), 202_937_204_736.0);
        assert_eq!(LLAMA3_405B.active_params(), 405_849_243_648.0);
        let share = 202_937_204_736.0 / (2_435_095_461_888.0 + 202_937_204_736.0);
        assert!((LLAMA3_405B.attention_flop_share() - share).abs() < 1e-15);
        let long = Shape {
            seq_len: 131_072.0,
            ..LLAMA3_405B
        };
        assert_eq!(long.attention_flops_per_token(), 3_246_995_275_776.0);
    }

    /// The slowest stage, by hand. GPT-3 175B at 2,048 tokens: `w = 6·12h² + 12·h·s` =
    /// 6·1,811,939,328 + 12·12,288·2,048 = 10,871,635,968 + 301,989,888 = 11,173,625,856;
    /// `o = 6·50,257·12,288` = 3,705,348,096. On 8 stages of 12: slowest `12w + o` =
    /// 137,788,858,368, average `(96w + o)/8` = 134,546,678,784, share 1.024097…; on one
    /// stage 1. Llama 3 405B at 8,192 on 16 stages: `w = 6·(570,425,344 + 2,617,245,696) +
    /// 12·16,384·8,192` = 19,126,026,240 + 1,610,612,736 = 20,736,638,976, `o = 6·128,256·16,384`
    /// = 12,608,077,824; the middle stages' `8w` = 165,893,111,808 beat the last's `7w + o` =
    /// 157,764,550,656; average `(126w + o)/16` = 164,089,036,800 → 1.010994….
    #[test]
    fn the_slowest_stage_holds_the_output_layer() {
        assert_eq!(GPT3.layer_flops_per_token(), 11_173_625_856.0);
        assert_eq!(GPT3.head_flops_per_token(), 3_705_348_096.0);
        assert!(
            (GPT3.slowest_stage_share(8) - 137_788_858_368.0 / 134_546_678_784.0).abs() < 1e-12
        );
        assert!((GPT3.slowest_stage_share(8) - 1.024_097).abs() < 1e-6);
        assert_eq!(GPT3.slowest_stage_share(1), 1.0);
        assert_eq!(LLAMA3_405B.layer_flops_per_token(), 20_736_638_976.0);
        assert!(
            (LLAMA3_405B.slowest_stage_share(16) - 165_893_111_808.0 / 164_089_036_800.0).abs()
                < 1e-12
        );
    }

    /// The first stage's layers, by hand from `⌈L/PP⌉`, one fewer when `⌈L/PP⌉·PP > L` and
    /// `⌈L/PP⌉ > 1`: Llama 3 405B's 126 layers on 16 stages, ⌈126/16⌉ = 8, 8·16 = 128 > 126:
    /// 7; GPT-3's 96 on 8, 12·8 = 96 even: 12; on one stage all 96. Four layers on 8 stages:
    /// ⌈4/8⌉ = 1, 1·8 = 8 > 4 uneven, but a stage of one layer keeps it: 1, not 0.
    #[test]
    fn first_stage_layers_of_uneven_and_one_layer_stages() {
        assert_eq!(LLAMA3_405B.first_stage_layers(16), 7.0);
        assert_eq!(GPT3.first_stage_layers(8), 12.0);
        assert_eq!(GPT3.first_stage_layers(1), 96.0);
        let thin = Shape {
            layers: 4.0,
            ..GPT3
        };
        assert_eq!(thin.layers_per_stage(8), 1.0);
        assert_eq!(thin.first_stage_layers(8), 1.0);
    }

    #[test]
    fn mismatch_is_relative_to_the_given_count() {
        assert!((params_mismatch(110.0, 100.0) - 0.1).abs() < 1e-15);
        assert!((params_mismatch(90.0, 100.0) - 0.1).abs() < 1e-15);
    }

    /// Qwen3 32B (Qwen/Qwen3-32B config.json): 64 layers, h = 5,120, 64 heads of 128 (not
    /// h/a = 80), 8 KV heads, FFN 25,600, vocabulary 151,936. By hand: attention
    /// 2·5,120·128·(64 + 8) = 94,371,840 a layer, MLP 3·5,120·25,600 = 393,216,000; × 64 =
    /// 31,205,621,760; embeddings 2·151,936·5,120 = 1,555,824,640; P = 32,761,446,400 (card
    /// 32.8B). Attention FLOPs 12·64·(64·128)·4,096 = 25,769,803,776 a token at 4,096 tokens.
    #[test]
    fn heads_of_their_own_width() {
        let s = Shape {
            layers: 64.0,
            hidden: 5120.0,
            heads: 64.0,
            kv_heads: 8.0,
            ffn: 25600.0,
            seq_len: 4096.0,
            vocab: 151_936.0,
            experts: 1.0,
            experts_per_token: 1.0,
            head_dim: 128.0,
            shared_experts: 0.0,
            kv_lora_rank: 0.0,
            q_lora_rank: 0.0,
            rope_dim: 0.0,
            dense_layers: 0.0,
            dense_ffn: 0.0,
        };
        assert_eq!(s.attention_width(), 8192.0);
        assert_eq!(s.attention_params_per_layer(), 94_371_840.0);
        assert_eq!(s.total_params(), 32_761_446_400.0);
        assert_eq!(s.attention_flops_per_token(), 25_769_803_776.0);
        // Without its own width the heads are h/a = 80 wide: 2·5,120²·(1 + 8/64).
        let narrow = Shape { head_dim: 0.0, ..s };
        assert_eq!(narrow.attention_params_per_layer(), 58_982_400.0);
    }

    /// Elementwise HBM bytes by hand, `2·(30h + activation + routing)` a token and layer:
    /// - Llama 3 8B: 30·4,096 + 6·14,336 = 208,896 elements, 417,792 B; over 32 layers
    ///   13,369,344 B against 6·8,029,995,008 + 12·32·4,096·8,192 = 61,064,871,936 FLOPs;
    /// - GPT-3 175B, GeLU over 4h: 30·12,288 + 4·49,152 = 565,248 elements, 1,130,496 B;
    /// - Qwen3 30B-A3B (48 layers, h 2,048, 32 heads of 128, 4 KV heads, 128 experts of 768,
    ///   8 a token, vocabulary 151,936, 4,096 tokens): 61,440 + 6·8·768 + 4·9·2,048 =
    ///   172,032 elements, 344,064 B; P_a = 48·(18,874,368 + 8·4,718,592) + 2·151,936·2,048 =
    ///   3,340,238,848, FLOPs 6·P_a + 12·48·4,096·4,096 = 29,705,109,504;
    /// - Llama 4 Scout (one routed, one shared expert of 8,192): 153,600 + 6·2·8,192 +
    ///   4·2·5,120 = 292,864 elements, 585,728 B.
    ///
    /// Llama 3 8B by part: the residual stream `30·4,096` = 122,880 elements (245,760 B), the
    /// MLP's 86,016 (172,032 B), the scores without flash attention: the softmax's
    /// `4·32·8,192` = 1,048,576 and the two batched products' `4·32·(8,192 + 2·128)` =
    /// 1,081,344, 2,129,920 (4,259,840 B). Without sequence parallelism at TP 2 the stream
    /// counts twice: `(2·245,760 + 172,032)·32` = 21,233,664 B; without flash attention (with
    /// sequence parallelism) `(417,792 + 4,259,840)·32` = 149,684,224 B, over the same FLOPs.
    #[test]
    fn elementwise_bytes_by_operator() {
        let l8 = llama_8b();
        assert_eq!(l8.elementwise_bytes_per_token_layer(), 417_792.0);
        assert_eq!(l8.residual_stream_bytes_per_token_layer(), 245_760.0);
        assert_eq!(l8.inner_bytes_per_token_layer(), 172_032.0);
        assert_eq!(l8.attention_scores_bytes_per_token_layer(), 4_259_840.0);
        // Cast operands: forward 4,096 + 4,096 + (4,096 + 14,336), backward 4,096 + 2·1,024 +
        // 4,096 + (2·14,336 + 4,096).
        assert_eq!(l8.quantized_elements_per_token_layer(), 69_632.0);
        assert_eq!(
            l8.elementwise_bytes_per_flop(8.0, true, true, false, 6.0),
            (13_369_344.0 + 32.0 * 6.0 * 69_632.0) / 61_064_871_936.0
        );
        let flops = 61_064_871_936.0;
        assert_eq!(
            l8.elementwise_bytes_per_flop(8.0, true, true, false, 0.0),
            13_369_344.0 / flops
        );
        assert_eq!(
            l8.elementwise_bytes_per_flop(2.0, false, true, false, 0.0),
            21_233_664.0 / flops
        );
        assert_eq!(
            l8.elementwise_bytes_per_flop(8.0, true, false, false, 0.0),
            149_684_224.0 / flops
        );
        // Dropout (Llama 3 8B, 32 layers): the hidden dropouts' masks 4·4,096 = 16,384 bytes a
        // layer on the residual stream, and without flash attention the attention dropout's
        // 10·32·8,192 = 2,621,440: 149,684,224 + 32·(16,384 + 2,621,440) = 234,094,592; with
        // flash attention only the masks, 13,369,344 + 32·16,384 = 13,893,632, and without
        // sequence parallelism at TP 2 the masks twice, 21,233,664 + 2·32·16,384 = 22,282,240.
        assert_eq!(
            l8.elementwise_bytes_per_flop(8.0, true, false, true, 0.0),
            234_094_592.0 / flops
        );
        assert_eq!(
            l8.elementwise_bytes_per_flop(8.0, true, true, true, 0.0),
            13_893_632.0 / flops
        );
        assert_eq!(
            l8.elementwise_bytes_per_flop(2.0, false, true, true, 0.0),
            22_282_240.0 / flops
        );
        assert_eq!(
            GPT3.dropout_bytes_per_token_layer(false),
            (49_152.0, 1_966_080.0)
        );
        assert_eq!(GPT3.dropout_bytes_per_token_layer(true), (49_152.0, 0.0));
        assert_eq!(GPT3.elementwise_bytes_per_token_layer(), 1_130_496.0);
        let qwen = Shape {
            layers: 48.0,
            hidden: 2048.0,
            heads: 32.0,
            kv_heads: 4.0,
            ffn: 768.0,
            seq_len: 4096.0,
            vocab: 151_936.0,
            experts: 128.0,
            experts_per_token: 8.0,
            head_dim: 128.0,
            shared_experts: 0.0,
            kv_lora_rank: 0.0,
            q_lora_rank: 0.0,
            rope_dim: 0.0,
            dense_layers: 0.0,
            dense_ffn: 0.0,
        };
        assert_eq!(qwen.elementwise_bytes_per_token_layer(), 344_064.0);
        assert_eq!(qwen.active_params(), 3_340_238_848.0);
        // Forward 2,048 + 4,096 + 8·(2,048 + 768) = 28,672; backward 4,096 + 2·512 + 2,048 +
        // 8·(2·768 + 2,048) = 35,840.
        assert_eq!(qwen.quantized_elements_per_token_layer(), 64_512.0);
        assert_eq!(
            qwen.elementwise_bytes_per_flop(1.0, false, true, false, 0.0),
            48.0 * 344_064.0 / 29_705_109_504.0
        );
        let scout = llama4_scout();
        assert_eq!(scout.elementwise_bytes_per_token_layer(), 585_728.0);
        let empty = Shape {
            layers: 0.0,
            hidden: 0.0,
            ffn: 0.0,
            vocab: 0.0,
            ..l8
        };
        assert_eq!(
            empty.elementwise_bytes_per_flop(8.0, false, false, true, 6.0),
            0.0
        );
    }

    fn llama4_scout() -> Shape {
        Shape {
            layers: 48.0,
            hidden: 5120.0,
            heads: 40.0,
            kv_heads: 8.0,
            ffn: 8192.0,
            seq_len: 8192.0,
            vocab: 202_048.0,
            experts: 16.0,
            experts_per_token: 1.0,
            head_dim: 0.0,
            shared_experts: 1.0,
            kv_lora_rank: 0.0,
            q_lora_rank: 0.0,
            rope_dim: 0.0,
            dense_layers: 0.0,
            dense_ffn: 0.0,
        }
    }

    /// Llama 4 Scout (meta-llama/Llama-4-Scout-17B-16E, text_config): 48 layers, h = 5,120, 40
    /// heads (of 128 = h/a), 8 KV heads, 16 experts of 8,192, one routed a token, one shared
    /// expert, vocabulary 202,048. By hand: attention 2·5,120·128·48 = 62,914,560 a layer; one
    /// MLP 3·5,120·8,192 = 125,829,120; a layer holds 16 + 1 of them: 2,139,095,040, with
    /// attention 2,202,009,600, × 48 = 105,696,460,800; embeddings 2·202,048·5,120 =
    /// 2,068,971,520; P = 107,765,432,320 (card: 109B with the vision encoder). A token uses
    /// 1 + 1 MLPs: (62,914,560 + 251,658,240)·48 + 2,068,971,520 = P_a = 17,168,465,920 (card
    /// 17B). The routed experts EP splits: 48·16·125,829,120 = 96,636,764,160; the routed
    /// share of a token's FLOPs 48·125,829,120 / P_a.
    #[test]
    fn a_shared_expert_is_a_dense_mlp_in_every_moe_layer() {
        let s = llama4_scout();
        assert_eq!(s.total_params(), 107_765_432_320.0);
        assert_eq!(s.active_params(), 17_168_465_920.0);
        assert_eq!(s.expert_params(), 96_636_764_160.0);
        assert_eq!(s.expert_flop_share(), 6_039_797_760.0 / 17_168_465_920.0);
        // A layer's FLOPs: 6·(62,914,560 + 2·125,829,120) + 12·5,120·8,192.
        assert_eq!(
            s.layer_flops_per_token(),
            6.0 * 314_572_800.0 + 12.0 * 5120.0 * 8192.0
        );
    }

    /// DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json: 61 layers, h 7,168, 128 heads, latent
    /// attention with `q_lora_rank` 1,536, `kv_lora_rank` 512, `qk_nope_head_dim` and
    /// `v_head_dim` 128, `qk_rope_head_dim` 64; 256 routed experts of 2,048, 8 a token, 1
    /// shared; the first 3 layers dense of 18,432; vocabulary 129,280) at 4,096 tokens.
    fn deepseek_v3() -> Shape {
        Shape {
            layers: 61.0,
            hidden: 7168.0,
            heads: 128.0,
            kv_heads: 128.0,
            ffn: 2048.0,
            seq_len: 4096.0,
            vocab: 129_280.0,
            experts: 256.0,
            experts_per_token: 8.0,
            head_dim: 128.0,
            shared_experts: 1.0,
            kv_lora_rank: 512.0,
            q_lora_rank: 1536.0,
            rope_dim: 64.0,
            dense_layers: 3.0,
            dense_ffn: 18432.0,
        }
    }

    /// Latent attention by hand: `h·r_q` 11,010,048 + `r_q·a·(d_h + d_R)` 1,536·128·192 =
    /// 37,748,736 + `h·(r_kv + d_R)` 7,168·576 = 4,128,768 + `r_kv·2a·d_h` 512·32,768 =
    /// 16,777,216 + `a·d_h·h` 16,384·7,168 = 117,440,512: 187,105,280 a layer. The whole model:
    /// attention ·61 = 11,413,422,080; 58 MoE layers of 257 MLPs of 3·7,168·2,048 = 44,040,192:
    /// 656,463,101,952; 3 dense MLPs of 3·7,168·18,432 = 396,361,728: 1,189,085,184; embeddings
    /// 2·129,280·7,168 = 1,853,358,080; `P` 670,918,967,296. Active: 58·9 MLPs, 22,988,980,224,
    /// `P_a` 37,444,845,568. Routed experts 58·256·44,040,192 = 653,908,770,816; their FLOP
    /// share 58·8·44,040,192 = 20,434,649,088 over `P_a`. Attention at 4,096 tokens:
    /// 6·61·128·4,096·(192 + 128) = 61,404,610,560; K and V a token 128·(192 + 128)/2 = 20,480.
    /// Without `r_q` (DeepSeek-V2-Lite: h 2,048, 16 heads) the queries come from `h`:
    /// 2,048·16·192 + 2,048·576 + 512·2·16·128 + 16·128·2,048 = 13,762,560.
    #[test]
    fn latent_attention_and_leading_dense_layers() {
        let s = deepseek_v3();
        assert_eq!(s.attention_params_per_layer(), 187_105_280.0);
        assert_eq!(s.total_params(), 670_918_967_296.0);
        assert_eq!(s.active_params(), 37_444_845_568.0);
        assert_eq!(s.expert_params(), 653_908_770_816.0);
        assert_eq!(s.expert_flop_share(), 20_434_649_088.0 / 37_444_845_568.0);
        assert_eq!(s.attention_flops_per_token(), 61_404_610_560.0);
        assert_eq!(s.kv_width(), 20_480.0);
        assert_eq!(s.moe_layers(), 58.0);
        assert_eq!(
            s.layer_flops_per_token(),
            (6.0 * 35_591_487_488.0 + 61_404_610_560.0) / 61.0
        );
        let lite = Shape {
            hidden: 2048.0,
            heads: 16.0,
            kv_heads: 16.0,
            q_lora_rank: 0.0,
            ..s
        };
        assert_eq!(lite.attention_params_per_layer(), 13_762_560.0);
        // Without `dffn` the dense layers' MLP is the experts' 44,040,192: P less 3·(396,361,728
        // − 44,040,192), and their inner elements `(58·9 + 3)·2,048/61` for SwiGLU's `6·`.
        let narrow_dense = Shape {
            dense_ffn: 0.0,
            ..s
        };
        assert_eq!(narrow_dense.total_params(), 669_862_002_688.0);
        assert_eq!(
            narrow_dense.inner_bytes_per_token_layer(),
            2.0 * (6.0 * 525.0 * 2048.0 + 4.0 * 9.0 * 7168.0 * 58.0) / 61.0
        );
        // A dense model has no leading dense layers of their own width: `dffn` changes nothing.
        // Llama 3 70B keeps 80·(150,994,944 + 3·8,192·28,672) + 2·128,256·8,192 =
        // 70,552,387,584 and its MLP's `2·6·28,672` = 344,064 bytes a token and layer.
        let llama = Shape {
            dense_ffn: 18432.0,
            ..LLAMA3_70B
        };
        assert_eq!(llama.total_params(), 70_552_387_584.0);
        assert_eq!(llama.inner_bytes_per_token_layer(), 344_064.0);
        // Standard attention of the same heads: 2·7,168·128·(128 + 128).
        let standard = Shape {
            kv_lora_rank: 0.0,
            ..s
        };
        assert_eq!(standard.attention_params_per_layer(), 469_762_048.0);
        assert_eq!(standard.kv_width(), 16_384.0);
    }

    /// DeepSeek-V3's elementwise and cast elements by hand, averaged over its 61 layers:
    /// - MLP inner elements `(58·9·2,048 + 3·18,432)/61` = 1,124,352/61, SwiGLU `6·` that, and
    ///   the routing `4·9·7,168` on 58 of 61 layers: bytes `2·(6,746,112 + 14,966,784)/61` =
    ///   43,425,792/61;
    /// - cast: latent attention forward `(7,168 + 1,536) + 7,168 + 512 + 16,384` = 32,768,
    ///   backward `(1,536 + 24,576) + 512 + 64 + 32,768 + 7,168` = 66,624; MLPs forward
    ///   `522·9,216 + 3·25,600` = 4,887,552 and backward `522·11,264 + 3·44,032` = 6,011,904,
    ///   over 61.
    #[test]
    fn latent_attention_elementwise_and_cast_elements() {
        let s = deepseek_v3();
        assert_eq!(s.inner_bytes_per_token_layer(), 43_425_792.0 / 61.0);
        assert_eq!(
            s.quantized_elements_per_token_layer(),
            32_768.0 + 66_624.0 + 4_887_552.0 / 61.0 + 6_011_904.0 / 61.0
        );
    }
}
