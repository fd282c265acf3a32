//! The model-parallel traffic that FSDP's `T_crit` leaves out (the seed's "通信暴露"): tensor
//! parallelism's per-layer all-reduces, context parallelism's key/value exchange and expert
//! parallelism's all-to-alls, each with a latency term per collective (α–β: Hockney 1994,
//! "The communication challenge for MPP"; a ring or tree collective over `n` ranks pays the
//! latency `⌈log₂ n⌉` times in the tree/double-binary-tree algorithms NCCL uses for small
//! messages).
//!
//! Bytes per GPU per transformer layer per microbatch, bf16 activations (2 bytes), `sb` the
//! microbatch's tokens on the GPU.

/// Bytes per bf16 activation.
pub const ACTIVATION_BYTES: f64 = 2.0;

/// Tensor parallelism (Shoeybi et al. 2019, "Megatron-LM", §3): two all-reduces of the `sbh`
/// activations in the forward pass of each layer and two in the backward; a ring all-reduce
/// moves `2(t − 1)/t` of the message per GPU, so
///
/// `16 · sbh · (t − 1)/t` bytes
///
/// (MODEL.md; the same with sequence parallelism's all-gather + reduce-scatter pairs,
/// Korthikanti et al. 2022, §4.2.2). `0` at `t = 1`.
pub fn tp_bytes_per_layer(tokens: f64, hidden: f64, tp: f64) -> f64 {
    4.0 * 2.0 * (tp - 1.0) / tp * ACTIVATION_BYTES * tokens * hidden
}

/// Collectives per layer per microbatch of tensor parallelism (2 forward, 2 backward).
pub const TP_COLLECTIVES_PER_LAYER: f64 = 4.0;

/// Context parallelism (Megatron-Core's ring attention; Liu et al. 2023, "Ring Attention"):
/// each GPU holds `1/CP` of the sequence and needs every other rank's keys and values. The
/// forward all-gathers K and V (`(cp − 1)` shards of `2 · sb · h · kv/a` values each); the
/// backward gathers them again and reduce-scatters their gradients:
///
/// `3 · (cp − 1) · 2 · sb · h · (kv/a) · 2` bytes, `sb` the GPU's own tokens.
pub fn cp_bytes_per_layer(tokens: f64, hidden: f64, kv_share: f64, cp: f64) -> f64 {
    3.0 * (cp - 1.0) * 2.0 * tokens * hidden * kv_share * ACTIVATION_BYTES
}

/// Collectives per layer per microbatch of context parallelism.
pub const CP_COLLECTIVES_PER_LAYER: f64 = 3.0;

/// Expert parallelism (Lepikhin et al. 2020, "GShard"; Fedus et al. 2021, "Switch
/// Transformer"): each MoE layer dispatches the `k` routed copies of every token to the
/// experts' ranks and combines them back, in forward and again in backward — four all-to-alls
/// of `k · sb · h` values, of which `(ep − 1)/ep` leave the GPU:
///
/// `4 · k · sb · h · 2 · (ep − 1)/ep` bytes.
pub fn ep_bytes_per_layer(tokens: f64, hidden: f64, experts_per_token: f64, ep: f64) -> f64 {
    4.0 * experts_per_token * tokens * hidden * ACTIVATION_BYTES * (ep - 1.0) / ep
}

/// Collectives per MoE layer per microbatch of expert parallelism.
pub const EP_COLLECTIVES_PER_LAYER: f64 = 4.0;

/// Pipeline parallelism (Narayanan et al. 2021, §2.2 and §4.1): each stage sends its
/// microbatch's output activations to the next stage and receives their gradients back.
/// With the scatter/gather optimisation each of the `t` TP ranks sends only its `1/t` share:
///
/// `sb · h · 2 / t` bytes per send, `sb` the GPU's tokens (after CP).
///
/// Interleaving multiplies the sends by `v` (§2.2.2: "the amount of communication also
/// increases by v").
pub fn pp_bytes_per_send(tokens: f64, hidden: f64, tp: f64) -> f64 {
    tokens * hidden * ACTIVATION_BYTES / tp
}

/// `α · ⌈log₂ n⌉`: the latency of one collective over `n` ranks, seconds (`0` for one rank).
pub fn collective_latency_s(alpha_s: f64, ranks: f64) -> f64 {
    if ranks <= 1.0 {
        0.0
    } else {
        alpha_s * ranks.log2().ceil()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// GPT-3 175B, one 2,048-token sequence, TP 8: 16 · 2,048 · 12,288 · 7/8 =
    /// 352,321,536 bytes per layer per microbatch.
    #[test]
    fn tp_traffic_gpt3() {
        assert_eq!(tp_bytes_per_layer(2048.0, 12288.0, 8.0), 352_321_536.0);
        assert_eq!(tp_bytes_per_layer(2048.0, 12288.0, 1.0), 0.0);
    }

    /// Llama 3.1 70B-like, 4,096 tokens per GPU, h = 8,192, kv/a = 8/64, CP 2:
    /// 3 · 1 · 2 · 4,096 · 8,192 · 0.125 · 2 = 50,331,648 bytes.
    #[test]
    fn cp_traffic() {
        assert_eq!(cp_bytes_per_layer(4096.0, 8192.0, 0.125, 2.0), 50_331_648.0);
        assert_eq!(cp_bytes_per_layer(4096.0, 8192.0, 0.125, 1.0), 0.0);
    }

    /// Top-2, 4,096 tokens, h = 4,096, EP 8: 4 · 2 · 4,096 · 4,096 · 2 · 7/8 = 234,881,024.
    #[test]
    fn ep_traffic() {
        assert_eq!(ep_bytes_per_layer(4096.0, 4096.0, 2.0, 8.0), 234_881_024.0);
        assert_eq!(ep_bytes_per_layer(4096.0, 4096.0, 2.0, 1.0), 0.0);
    }

    #[test]
    fn latency_per_doubling() {
        assert_eq!(collective_latency_s(10e-6, 1.0), 0.0);
        assert_eq!(collective_latency_s(10e-6, 2.0), 10e-6);
        assert!((collective_latency_s(10e-6, 8.0) - 30e-6).abs() < 1e-18);
        assert!((collective_latency_s(10e-6, 6.0) - 30e-6).abs() < 1e-18);
        assert!((collective_latency_s(10e-6, 9.0) - 40e-6).abs() < 1e-18);
    }
}
