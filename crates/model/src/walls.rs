//! The strong-scaling walls of one point of a sweep, from the model's [`Shape`]: memory per GPU
//! ([`super::memory`]), the GEMM efficiency of kernels that shrink ([`super::kernel`]), the
//! TP/CP/EP traffic FSDP's `T_crit` leaves out ([`super::traffic`]) and tokens per expert.
//! A scenario without a shape has no walls: its sweep is the article's (constant `F_eff`,
//! FSDP traffic only).

use super::kernel::{gemm_efficiency, GemmSizes, HalfLengths};
use super::memory::{
    activation_bytes_per_layer, memory_per_gpu, params_per_gpu, Memory, MemorySettings, Placement,
};
use super::shape::Shape;
use super::step::{FsdpComm, Layout, PassShares};
use super::traffic::{
    collective_latency_s, cp_bytes_per_layer, ep_bytes_per_layer, pp_bytes_per_send,
    tp_bytes_per_layer, CP_COLLECTIVES_PER_LAYER, EP_COLLECTIVES_PER_LAYER,
    TP_COLLECTIVES_PER_LAYER,
};
use serde::Serialize;

/// GPUs that share one NVLink domain in an HGX H100/H200 node, the default of
/// [`Walls::nvlink_domain_gpus`] (URL key `nvd`; a GB200 NVL72 rack has 72).
pub const NVLINK_DOMAIN_GPUS: f64 = 8.0;

/// Bytes a parameter's optimizer step moves besides its gradient and optimizer state: the
/// fp32 master weight read again and the 2-byte weight written ([`Walls::optimizer_step_ms`]).
pub const OPTIMIZER_COPY_BYTES: f64 = 6.0;

/// The wall inputs of a scenario with a shape.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Walls {
    pub shape: Shape,
    pub memory: MemorySettings,
    /// EP degree (expert parallelism reuses data-parallel ranks; it does not enter `M`).
    pub expert_parallel: f64,
    /// `ETP`, the routed experts' TP degree: `0` splits them as the dense layers (ETP = TP,
    /// Megatron-Core's default for `expert_tensor_parallel_size`); `1` keeps each expert whole
    /// on its GPU, the EP group folded over the TP ranks (Megatron-Core's MoE parallel folding,
    /// which NVIDIA's MoE recipes use); a divisor of TP between them splits the experts that
    /// many ways. See [`Self::expert_tp`].
    pub expert_tensor_parallel: f64,
    /// Kernels shrink with the GEMMs when set (Hockney's half lengths); `None` keeps `F_eff`
    /// constant, as the article assumes.
    pub kernels: Option<HalfLengths>,
    /// NVLink bus bandwidth per GPU, bytes/s (the TP link).
    pub nvlink_bytes_per_s: f64,
    /// GPUs in one NVLink domain. TP, CP and EP groups that fit inside it (placed in that
    /// order) talk at [`Self::nvlink_bytes_per_s`]; larger ones at `B_eff`.
    pub nvlink_domain_gpus: f64,
    /// `φ`: the share of TP communication that overlaps with compute (Transformer Engine's
    /// userbuffers overlap each GEMM's all-gather or reduce-scatter with its chunks, and some
    /// of it stays exposed); `0` exposes all of it, `1` hides it behind the whole step.
    pub tp_overlap: f64,
    /// `α`: latency per step of a collective's tree, seconds.
    pub latency_s: f64,
    /// How context parallelism's K/V exchange overlaps with compute.
    pub cp_overlap: CpOverlap,
    /// The datasheet's HBM bandwidth, bytes/s (the machine's, `mach`): with
    /// [`Self::gemm_flops_per_s`] it adds the elementwise kernels' memory time
    /// ([`Self::memory_time_ratio`]); `0` leaves it out, as the article's model does.
    pub hbm_bytes_per_s: f64,
    /// The GPU's link to host memory, one direction, bytes/s (the machine's, `mach`): what
    /// offloaded activations move over ([`Self::offload_ms`]). `0` without a machine: then
    /// offloading frees the memory and charges no time.
    pub host_bytes_per_s: f64,
    /// `r∞·peak`, the rate of large GEMMs, FLOP/s: what the elementwise time is weighed
    /// against. Set by [`super::layouts::physics_inputs`]; `0` elsewhere (a measured `F_eff`
    /// already holds its run's elementwise time). Derived from `r∞` and `peak`, so not
    /// serialised.
    #[serde(skip)]
    pub gemm_flops_per_s: f64,
    /// HBM bytes a low-precision recipe moves for each GEMM operand it casts
    /// ([`Shape::quantized_elements_per_token_layer`]): read the 2-byte value (twice with
    /// per-tensor current scaling, once for its amax), write it row-wise and column-wise. `0`
    /// in BF16. Derived from the precision (`prec`) with a machine, so not serialised.
    #[serde(skip)]
    pub quantized_bytes_per_element: f64,
    /// Dropout on the attention scores and the residual branches: its masks' HBM traffic
    /// ([`Shape::dropout_bytes_per_token_layer`]) joins the elementwise time. The activation
    /// memory keeps Korthikanti et al.'s count, which holds the masks, either way.
    pub dropout: bool,
}

/// How context parallelism exchanges keys and values, and so what can hide its traffic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CpOverlap {
    /// Ring attention (Liu et al. 2023, arXiv:2310.01889; Megatron-Core's default `p2p`
    /// CP communication): each K/V block travels while the previous one's blockwise attention
    /// runs, so only the attention's share of the compute time can hide it
    /// ([`Walls::attention_time_share`]).
    Ring,
    /// All-gather of K and V before attention (Llama 3's context parallelism: "the all-gather
    /// communication latency is exposed in the critical path", Dubey et al. 2024, §3.3.2):
    /// nothing hides it.
    AllGather,
}

impl CpOverlap {
    pub fn key(self) -> &'static str {
        match self {
            CpOverlap::Ring => "ring",
            CpOverlap::AllGather => "allgather",
        }
    }
    pub fn from_key(key: &str) -> Option<Self> {
        [CpOverlap::Ring, CpOverlap::AllGather]
            .into_iter()
            .find(|m| m.key() == key.trim())
    }
}

/// Model-parallel communication left exposed per optimizer step, ms.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Traffic {
    pub tp_ms: f64,
    pub cp_ms: f64,
    pub ep_ms: f64,
    /// The pipeline's point-to-point sends during its fill and drain.
    pub pp_ms: f64,
    /// Offloaded activations' copies to host memory and back ([`Walls::offload_ms`]).
    pub offload_ms: f64,
}

impl Traffic {
    pub fn total_ms(&self) -> f64 {
        self.tp_ms + self.cp_ms + self.ep_ms + self.pp_ms + self.offload_ms
    }
}

/// The walls at one GPU count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WallPoint {
    /// The first pipeline stage's GPU.
    pub memory: Memory,
    /// `memory.total ≤` the GPU's memory.
    pub fits: bool,
    /// `memory.total −` the GPU's memory: above 0 by what does not fit.
    pub over_bytes: f64,
    /// Tokens one expert gets per microbatch (MoE only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_per_expert: Option<f64>,
    /// `η` of [`gemm_efficiency`] (1 when kernels do not shrink).
    pub gemm_efficiency: f64,
}

/// The share of the HBM datasheet bandwidth a transfer of `bytes` reaches: Calculon's
/// `mem1` `MB_efficiency` table for A100 and H100 (`systems/a100_80g.json`,
/// `systems/h100_80g_nvl8.json`, megabytes of 10^6 bytes): 0.9 from 100 MB, 0.75 from
/// 10 MB, 0.6 from 1 MB, 0.3 below.
pub fn hbm_efficiency(bytes: f64) -> f64 {
    match bytes {
        b if b >= 100e6 => 0.9,
        b if b >= 10e6 => 0.75,
        b if b >= 1e6 => 0.6,
        _ => 0.3,
    }
}

impl Walls {
    /// `ETP` at `layout`: the routed experts' TP degree, the layout's TP unless
    /// [`Self::expert_tensor_parallel`] sets one (`1` for whole experts; never above TP).
    pub fn expert_tp(&self, layout: &Layout) -> f64 {
        let tp = layout.tp as f64;
        if self.expert_tensor_parallel >= 1.0 {
            self.expert_tensor_parallel.min(tp)
        } else {
            tp
        }
    }

    /// Tokens one GPU dispatches per microbatch, before their `k` copies: its
    /// sequence-parallel shard `T/(CP·TP)`. Megatron-Core's all-to-all dispatcher routes each
    /// rank's own `S/TP·B` tokens ("num_local_tokens", `token_dispatcher.py`), then gathers
    /// what arrives over the experts' TP group.
    fn dispatched_tokens(&self, layout: &Layout, tokens_per_replica: f64) -> f64 {
        tokens_per_replica / (layout.cp as f64 * layout.tp as f64)
    }

    /// Tokens an ETP group's experts share per microbatch, before their `k` copies: the
    /// dispatched shards of its `ETP` ranks, `T/CP·ETP/TP` (all `T/CP` when the experts are
    /// split as the dense layers, `T/(CP·TP)` when they are whole).
    fn expert_tokens(&self, layout: &Layout, tokens_per_replica: f64) -> f64 {
        self.dispatched_tokens(layout, tokens_per_replica) * self.expert_tp(layout)
    }

    /// The GEMMs of one GPU at `T` tokens per replica per microbatch.
    fn gemm_sizes(&self, layout: &Layout, tokens_per_replica: f64) -> GemmSizes {
        GemmSizes {
            tokens: tokens_per_replica / layout.cp as f64,
            hidden_per_tp: self.shape.hidden / layout.tp as f64,
            hidden_per_etp: self.shape.hidden / self.expert_tp(layout),
            expert_share: self.shape.expert_flop_share(),
            tokens_per_expert: self
                .shape
                .tokens_per_expert(
                    self.expert_tokens(layout, tokens_per_replica),
                    self.expert_parallel,
                )
                .unwrap_or(0.0),
        }
    }

    /// `Ψ`: the parameters one GPU holds before ZeRO shards them ([`params_per_gpu`]).
    pub fn params_per_gpu(&self, layout: &Layout, total_params: f64) -> f64 {
        params_per_gpu(
            &self.shape,
            total_params,
            layout.weight_shards(),
            self.expert_tp(layout) * layout.pp as f64 * self.expert_parallel,
        )
    }

    /// `η` at `T` tokens per replica per microbatch; 1 when kernels do not shrink.
    pub fn gemm_efficiency(&self, layout: &Layout, tokens_per_replica: f64) -> f64 {
        self.kernels.map_or(1.0, |half| {
            gemm_efficiency(&self.gemm_sizes(layout, tokens_per_replica), &half)
        })
    }

    /// The rate a layout's compute runs at against the GEMMs' asymptote: `η` of its kernels
    /// ([`Self::gemm_efficiency`]) over its pipeline's slowest stage
    /// ([`Shape::slowest_stage_share`]), which every microbatch waits for. 1 when kernels do
    /// not shrink (a measured `F_eff` already holds its run's stages).
    ///
    /// With the elementwise memory time `μ` ([`Self::memory_time_ratio`]) a FLOP takes
    /// `stage·(1/(r∞·peak·η) + m)` seconds, `m` the HBM seconds a FLOP brings with it
    /// (Calculon's `no_overlap` processing mode: an operator's compute time plus its memory
    /// time), so the rate is `η / (stage·(1 + μ·η))` of `r∞·peak`.
    pub fn rate_efficiency(&self, layout: &Layout, tokens_per_replica: f64) -> f64 {
        if self.kernels.is_none() {
            return 1.0;
        }
        let eta = self.gemm_efficiency(layout, tokens_per_replica);
        let mu = self.memory_time_ratio(layout, tokens_per_replica);
        eta / (self.shape.slowest_stage_share(layout.pp) * (1.0 + mu * eta))
    }

    /// Attention's share of the compute *time*, what ring attention's K/V exchange can hide
    /// behind ([`CpOverlap::Ring`]): its FLOP share `f` ([`Shape::attention_flop_share`]) runs
    /// at the GEMMs' rate, while the compute also holds the elementwise kernels' memory time,
    /// `μ·η` of the GEMMs' ([`Self::rate_efficiency`]), so `f/(1 + μ·η)`. `f` when kernels do
    /// not shrink (a measured `F_eff` holds no split of its time).
    pub fn attention_time_share(&self, layout: &Layout, tokens_per_replica: f64) -> f64 {
        let share = self.shape.attention_flop_share();
        if self.kernels.is_none() {
            return share;
        }
        let eta = self.gemm_efficiency(layout, tokens_per_replica);
        share / (1.0 + self.memory_time_ratio(layout, tokens_per_replica) * eta)
    }

    /// The three passes' shares of a microbatch's compute ([`PassShares`]), what the
    /// zero-bubble schedule's bubble weighs: attention's FLOP share `f`
    /// ([`Shape::attention_flop_share`]) and the elementwise kernels' share of the time,
    /// `ε = μ·η/(1 + μ·η)` ([`Self::rate_efficiency`]), 0 when kernels do not shrink.
    pub fn pass_shares(&self, layout: &Layout, tokens_per_replica: f64) -> PassShares {
        let elementwise = if self.kernels.is_none() {
            0.0
        } else {
            let eta = self.gemm_efficiency(layout, tokens_per_replica);
            let memory = self.memory_time_ratio(layout, tokens_per_replica) * eta;
            memory / (1.0 + memory)
        };
        PassShares::from_shares(self.shape.attention_flop_share(), elementwise)
    }

    /// `μ = r∞·peak · b / (B_HBM · e)`: the elementwise kernels' HBM time
    /// ([`Shape::elementwise_bytes_per_flop`], `b` bytes a FLOP on one GPU of the TP group,
    /// with the layout's sequence parallelism and flash attention) against the time of the
    /// same FLOPs at the large GEMMs' rate. `e` is the share of the datasheet's bandwidth a
    /// transfer reaches, by its size ([`hbm_efficiency`]), the tensor being one microbatch's
    /// residual stream on one GPU, `(T/CP)·h·2` bytes, split by TP with sequence parallelism.
    /// `0` when [`Self::hbm_bytes_per_s`] or [`Self::gemm_flops_per_s`] is unset.
    pub fn memory_time_ratio(&self, layout: &Layout, tokens_per_replica: f64) -> f64 {
        let activations = &self.memory.activations;
        let bytes_per_flop = self.shape.elementwise_bytes_per_flop(
            layout.tp as f64,
            activations.sequence_parallel,
            activations.flash_attention,
            self.dropout,
            self.quantized_bytes_per_element,
        );
        self.hbm_time_ratio(layout, tokens_per_replica, bytes_per_flop)
    }

    /// `r∞·peak · b / (B_HBM · e)` for `b` bytes a FLOP: [`Self::memory_time_ratio`]'s form,
    /// with its `e`.
    fn hbm_time_ratio(&self, layout: &Layout, tokens_per_replica: f64, bytes_per_flop: f64) -> f64 {
        if self.hbm_bytes_per_s <= 0.0 || self.gemm_flops_per_s <= 0.0 {
            return 0.0;
        }
        let split = if self.memory.activations.sequence_parallel {
            layout.tp as f64
        } else {
            1.0
        };
        let tensor_bytes = tokens_per_replica / layout.cp as f64 * self.shape.hidden / split
            * super::shape::ACTIVATION_BYTES;
        self.gemm_flops_per_s * bytes_per_flop
            / (self.hbm_bytes_per_s * hbm_efficiency(tensor_bytes))
    }

    /// The optimizer's step on one GPU, ms: memory-bound, so its bytes at the HBM's rate. Per
    /// parameter it steps, Megatron-LM's mixed-precision step (`megatron/core/optimizer`:
    /// `MixedPrecisionOptimizer.step`) reads the `G`-byte main gradient for the gradient norm
    /// (`clip_grad_norm_fp32`), runs Adam (Kingma & Ba 2015, Algorithm 1; apex's and
    /// Transformer Engine's `FusedAdam`), which reads the gradient and the `K` bytes of the
    /// fp32 master weight and moments and writes the latter, copies the master weight to the
    /// 2-byte weight (`_copy_main_params_to_model_params`: read 4, write 2) and zeroes the
    /// gradient buffer for the next step (write `G`): `3·G + 2·K + 6` bytes, 42 with fp32
    /// main gradients and Adam's 12; `3·G + 2·K` when the weights are the master
    /// ([`MemorySettings::master_in_weights`]: Adam updates them in place, nothing to copy). It
    /// steps `Ψ/N_d` parameters under ZeRO 1–3 (each rank its
    /// shard, [`MemorySettings::state_shards`]) and all `Ψ` under ZeRO 0. The bandwidth share
    /// is [`hbm_efficiency`]'s for the bytes moved. `0` without the HBM's bandwidth (no
    /// machine): a measured or typed `F_eff` holds no such split, and `fix` stands for it.
    pub fn optimizer_step_ms(&self, layout: &Layout, total_params: f64, gpus: f64) -> f64 {
        if self.hbm_bytes_per_s <= 0.0 {
            return 0.0;
        }
        let psi = self.params_per_gpu(layout, total_params);
        let stepped = if self.memory.zero >= 1 {
            psi / self.memory.state_shards(
                layout.tp as f64,
                layout.data_parallel(gpus),
                layout.cp as f64,
            )
        } else {
            psi
        };
        let copy = if self.memory.master_in_weights {
            0.0
        } else {
            OPTIMIZER_COPY_BYTES
        };
        let per_param = 3.0 * self.memory.gradient_bytes_per_param
            + 2.0 * self.memory.optimizer_bytes_per_param
            + copy;
        let bytes = per_param * stepped;
        bytes / (self.hbm_bytes_per_s * hbm_efficiency(bytes)) * 1e3
    }

    /// What selective recomputation adds to a layout's compute, as a share of it. The
    /// backward reruns the attention core's forward (Korthikanti et al. 2022, §4.3): `4·s·h`
    /// FLOPs a token and layer, `f_s` of the step's `6·P_a + 12·L·a·d_h·s` (`P_a` =
    /// `active_params`), and without flash attention the scores' forward traffic
    /// ([`Shape::selective_recompute_bytes_per_token_layer`], `b_s` a FLOP over the shape's
    /// FLOPs). The compute is `1 + μ·η` times its GEMMs' time ([`Self::rate_efficiency`]), so
    /// the share is `(f_s + μ_s·η)/(1 + μ·η)` with `μ_s = r∞·peak·b_s/(B_HBM·e)`; `f_s` alone
    /// when kernels do not shrink or the memory's rate is unknown. With flash attention the
    /// backward recomputes the scores anyway (Dao et al. 2022): 0. Korthikanti et al.'s Table
    /// 4 measures 7% for the 22B (20.3 against 19.0 ms a layer with sequence parallelism), and
    /// §6.2 2% for the 530B and 1T.
    pub fn selective_recompute_share(
        &self,
        layout: &Layout,
        tokens_per_replica: f64,
        active_params: f64,
    ) -> f64 {
        if self.memory.activations.flash_attention {
            return 0.0;
        }
        let s = &self.shape;
        let flops = 6.0 * active_params + s.attention_flops_per_token();
        let flop_share = 4.0 * s.seq_len * s.hidden * s.layers / flops;
        if self.kernels.is_none() {
            return flop_share;
        }
        let shape_flops = 6.0 * s.active_params() + s.attention_flops_per_token();
        let bytes_per_flop = if shape_flops > 0.0 {
            s.layers * s.selective_recompute_bytes_per_token_layer(self.dropout) / shape_flops
        } else {
            0.0
        };
        let eta = self.gemm_efficiency(layout, tokens_per_replica);
        let mu = self.memory_time_ratio(layout, tokens_per_replica);
        let mu_s = self.hbm_time_ratio(layout, tokens_per_replica, bytes_per_flop);
        (flop_share + mu_s * eta) / (1.0 + mu * eta)
    }

    /// The exposed time of activation offloading over a step, ms. Each offloaded layer's
    /// activations ([`super::memory::activation_bytes_per_layer`], `a` bytes a microbatch)
    /// go to host memory while the next layers' forward runs and come back while the later
    /// layers' backward runs (Transformer Engine's `CPUOffload` handler copies on its own
    /// stream), each way `a/B_host` seconds at the host link ([`Self::host_bytes_per_s`]).
    /// What hides a copy is one layer's pass: with `c` a layer's compute for one microbatch
    /// (`compute/(A·L)`), the forward's `c/3` and the backward's `2c/3`, so
    ///
    /// `exposed = A · k · (max(0, a/B_host − c/3) + max(0, a/B_host − 2c/3))`
    ///
    /// with `k` the offloaded layers ([`super::memory::ActivationSettings::offloaded_layers`]:
    /// none with a pipeline or recomputation). `0` without a host link (no machine).
    pub fn offload_ms(&self, layout: &Layout, tokens_per_replica: f64, compute_ms: f64) -> f64 {
        let layers = self.shape.layers_per_stage(layout.pp);
        let offloaded = self.memory.activations.offloaded_layers(layers, layout.pp);
        if offloaded <= 0.0 || self.host_bytes_per_s <= 0.0 || layers <= 0.0 {
            return 0.0;
        }
        let cp = layout.cp as f64;
        let bytes = activation_bytes_per_layer(
            tokens_per_replica / cp,
            self.shape.seq_len / cp,
            self.shape.hidden,
            self.shape.heads,
            self.shape.mlp_width(),
            layout.tp as f64,
            self.memory.activations,
        );
        let microbatches = layout.accumulation as f64;
        let copy_ms = bytes / self.host_bytes_per_s * 1e3;
        let layer_ms = compute_ms / (microbatches * layers);
        let exposed =
            (copy_ms - layer_ms / 3.0).max(0.0) + (copy_ms - 2.0 * layer_ms / 3.0).max(0.0);
        microbatches * offloaded * exposed
    }

    /// Memory, fit and tokens per expert at `gpus` GPUs and `T` tokens per replica.
    pub fn at(
        &self,
        layout: &Layout,
        comm: &FsdpComm,
        total_params: f64,
        gpus: f64,
        tokens_per_replica: f64,
    ) -> WallPoint {
        let placement = Placement {
            tp: layout.tp as f64,
            pp: layout.pp,
            cp: layout.cp as f64,
            ep: self.expert_parallel,
            expert_tp: self.expert_tp(layout),
            data_parallel: layout.data_parallel(gpus),
            accumulation: layout.accumulation,
            schedule: comm.schedule,
            chunks: comm.chunks,
            tokens_per_replica,
            no_reshard: comm.gathers <= 2.0,
        };
        let memory = memory_per_gpu(&self.shape, total_params, &self.memory, &placement);
        let over_bytes = memory.total - self.memory.usable_bytes();
        WallPoint {
            memory,
            fits: over_bytes <= 0.0,
            over_bytes,
            tokens_per_expert: self.shape.tokens_per_expert(
                self.expert_tokens(layout, tokens_per_replica),
                self.expert_parallel,
            ),
            gemm_efficiency: self.gemm_efficiency(layout, tokens_per_replica),
        }
    }

    /// The bandwidth of a group of `ranks` placed after `inner` GPUs of the node: NVLink if
    /// the group and what is inside it fit in the NVLink domain, `B_eff` otherwise.
    fn link_bytes_per_s(&self, inner: f64, ranks: f64, bus_bytes_per_s: f64) -> f64 {
        if inner * ranks <= self.nvlink_domain_gpus {
            self.nvlink_bytes_per_s
        } else {
            bus_bytes_per_s
        }
    }

    /// The bus bandwidth of the data-parallel group's collectives (the ZeRO or FSDP shards,
    /// `DP·CP` ranks). Megatron-Core numbers ranks TP first, then CP, EP and DP, PP last
    /// (`order = "tp-cp-ep-dp-pp"`, `parallel_state.initialize_model_parallel`), so the group
    /// and the TP groups inside it, `TP·CP·DP` GPUs, talk at NVLink when they fit in one
    /// domain (FSDP over 64 GPUs of an NVL72 rack, ZeRO-1 over an 8-GPU node), at `B_eff`
    /// otherwise (and never below it). `B_eff` stays what the seed makes it, a bus bandwidth per GPU: a group that
    /// spans domains gets no more for having several ranks in each (docs/model/12-walls.md
    /// §12.4 measures what that reading would change).
    pub fn data_parallel_bytes_per_s(
        &self,
        layout: &Layout,
        gpus: f64,
        bus_bytes_per_s: f64,
    ) -> f64 {
        self.link_bytes_per_s(
            layout.tp as f64,
            layout.cp as f64 * layout.data_parallel(gpus),
            bus_bytes_per_s,
        )
        .max(bus_bytes_per_s)
    }

    /// Data-parallel communication exposed per step under ZeRO stages 0–2, `None` under
    /// ZeRO-3 (whose per-microbatch gathers are the FSDP model of [`super::llm`]). Without
    /// sharded weights, the gradients cross the data-parallel group once per step, after the
    /// last microbatch: an all-reduce of the gradients (stage 0, `2·s_w`), or a reduce-scatter
    /// of the gradients and an all-gather of the updated weights (stages 1–2, Megatron-Core's
    /// distributed optimizer, `s_w + s_g`) — `(s_w + s_g) · Ψ · (N_d − 1)/N_d` bytes per GPU
    /// for the `Ψ` weights of its shard ([`params_per_gpu`]: with EP, the experts' share is
    /// `1/EP` of theirs; a ring all-reduce is a reduce-scatter plus an all-gather), `s_w` the
    /// gradients' bytes on the wire (Llama 3 reduce-scatters them in fp32, §3.3.2) and `s_g`
    /// the weights'. The gradients' reduce-scatter hides behind the step's last backward
    /// passes, the weights' all-gather behind the next step's first forwards (Megatron-Core's
    /// `overlap_grad_reduce` and `overlap_param_gather`) — but never all of it. The traffic
    /// goes in chunks, one per layer or per virtual stage, and the last chunk cannot start
    /// before the backward that produces it ends: NeMo's communication overlap "exposes only
    /// one DP communication chunk" (NeMo Framework user guide, "Communication Overlap"). So
    ///
    /// `exposed = max(t_DP/n, t_DP − W)`
    ///
    /// with `n` the chunks and `W` the compute that can hide them:
    ///
    /// - no pipeline: `n = L` layers, `W = compute/A`, the last microbatch's passes;
    /// - interleaved with `v` virtual stages: `n = v`, and the stage runs the microbatches in
    ///   groups of `p` through each chunk in turn (Narayanan et al. 2021, §2.2.2; Megatron-Core's
    ///   `get_model_chunk_id`), so the last group's backward through chunks `v − 1 … 1` and the
    ///   first group's forward through chunks `2 … v` run while the other chunks' traffic
    ///   goes: `W = min(p, A)·(v − 1)/v · compute/A` (the reduce-scatters and all-gathers
    ///   pooled against the forward and backward together, as without a pipeline);
    /// - a pipeline without interleaving: as without a pipeline, `n = ⌈L/p⌉` layers of the
    ///   stage and `W = compute/A`: Megatron-Core's DDP reduces the gradients in buckets during
    ///   the last microbatch's backward (`overlap_grad_reduce`; the other microbatches run under
    ///   `no_sync`), so a bucket goes as soon as its layers' backward is done
    ///   (`megatron/core/distributed/distributed_data_parallel.py`, the fidelity audit's reading;
    ///   Calculon is more optimistic still, one block exposed).
    ///
    /// ZeRO-2 shards the gradients, so they cannot accumulate over the `A` microbatches in a
    /// full local buffer: each microbatch's gradients are reduce-scattered after its backward
    /// (DeepSpeed's stage 2; FSDP's `SHARD_GRAD_OP`), `s_w · Ψ · (N_d − 1)/N_d` bytes each time.
    /// The first `A − 1` of them hide behind their own microbatch's compute, the last is the
    /// once-per-step traffic above:
    ///
    /// `exposed₂ = (A − 1)·max(0, t_RS − compute/A) + exposed`
    ///
    /// — ZeRO-1's time at `A = 1` or when the reduce-scatter hides, more otherwise: the time
    /// ZeRO-2 pays for its memory. ms.
    pub fn data_parallel_ms(
        &self,
        layout: &Layout,
        comm: &FsdpComm,
        total_params: f64,
        gpus: f64,
        compute_ms: f64,
    ) -> Option<f64> {
        if self.memory.zero >= 3 {
            return None;
        }
        let shards = layout.data_parallel(gpus) * layout.cp as f64;
        let ring = if shards > 1.0 {
            (shards - 1.0) / shards
        } else {
            0.0
        };
        let bytes_per_param = if self.memory.zero == 0 {
            2.0 * comm.wire_bytes_per_param
        } else {
            comm.wire_bytes_per_param + comm.gather_bytes_per_param
        };
        let bytes = bytes_per_param * self.params_per_gpu(layout, total_params) * ring;
        let link = self.data_parallel_bytes_per_s(layout, gpus, comm.bus_bytes_per_s);
        let comm_ms = bytes / link * 1e3;
        let hidden_by = compute_ms / layout.accumulation as f64;
        let (chunks, window) = if layout.pp <= 1 {
            (self.shape.layers.max(1.0), hidden_by)
        } else if comm.virtual_stages() <= 1 {
            (self.shape.layers_per_stage(layout.pp).max(1.0), hidden_by)
        } else {
            let v = comm.virtual_stages() as f64;
            let group = (layout.pp as f64).min(layout.accumulation as f64);
            (v, group * (v - 1.0) / v * hidden_by)
        };
        let once = (comm_ms / chunks).max(comm_ms - window);
        let per_microbatch = if self.memory.zero == 2 {
            let reduce_scatter_ms =
                comm.wire_bytes_per_param * self.params_per_gpu(layout, total_params) * ring / link
                    * 1e3;
            (layout.accumulation as f64 - 1.0) * (reduce_scatter_ms - hidden_by).max(0.0)
        } else {
            0.0
        };
        Some(once + per_microbatch)
    }

    /// Model-parallel communication exposed per step at `T` tokens per replica, given the
    /// step's `compute_ms` (per GPU). Per microbatch and layer of the stage (`A · L/PP` of
    /// them), each collective costs `bytes/bandwidth + α·⌈log₂ ranks⌉`:
    ///
    /// - TP ([`tp_bytes_per_layer`], 4 collectives): the share `1 − φ` that does not overlap is
    ///   exposed, and of the overlapped share `φ` what exceeds the compute,
    ///   `(1 − φ)·t_TP + max(0, φ·t_TP − compute)` ([`Self::tp_overlap`]);
    /// - CP ([`cp_bytes_per_layer`], 3) hides only behind the attention's share of the
    ///   compute time with ring attention, `max(0, t_CP − share·compute)`
    ///   ([`Self::attention_time_share`]), and behind nothing when K and V are all-gathered
    ///   ([`CpOverlap`]);
    /// - EP ([`ep_bytes_per_layer`], 4 all-to-alls) is exposed: the tokens must arrive before
    ///   the experts can start;
    /// - PP: the sends of the pipeline's fill and drain are exposed, `2·(p·v − 1)` of them
    ///   (`v` the virtual stages of an interleaved schedule, else 1), each
    ///   `t₁ = `[`pp_bytes_per_send`]`/B_link + α`; the steady state's sends overlap with
    ///   compute (Megatron-Core's `--overlap-p2p-communication`, Llama 3's asynchronous
    ///   point-to-point, §3.3.2). `B_link` is NVLink when the whole pipeline's `TP·CP·PP`
    ///   GPUs fit in the NVLink domain, `B_eff` otherwise.
    pub fn traffic(
        &self,
        layout: &Layout,
        bus_bytes_per_s: f64,
        tokens_per_replica: f64,
        compute_ms: f64,
        virtual_stages: u32,
    ) -> Traffic {
        let (tp, cp) = (layout.tp as f64, layout.cp as f64);
        let tokens = tokens_per_replica / cp;
        let h = self.shape.hidden;
        let stage_layers = self.shape.layers_per_stage(layout.pp);
        let per_step = layout.accumulation as f64 * stage_layers;
        // Full recomputation runs a layer's forward again, and its forward collectives with
        // it (Korthikanti et al. 2022, §5; Calculon's `recomm` time): `forward` of a layer's
        // `collectives` are repeated on the share `r` of the stage's layers recomputed.
        let recomputed = if stage_layers > 0.0 {
            self.memory.activations.recomputed_layers(stage_layers) / stage_layers
        } else {
            0.0
        };
        let ms = |bytes: f64, bandwidth: f64, collectives: f64, forward: f64, ranks: f64| {
            let repeated = 1.0 + recomputed * forward / collectives;
            per_step
                * repeated
                * (bytes / bandwidth + collectives * collective_latency_s(self.latency_s, ranks))
                * 1e3
        };
        let ep = self.expert_parallel;
        let etp = self.expert_tp(layout);
        // An MoE's leading dense layers route nothing: the busiest stage's MoE layers are its
        // `⌈L/p⌉`, or all `L_moe` when they are fewer.
        let moe_share = if stage_layers > 0.0 {
            self.shape.moe_layers().min(stage_layers) / stage_layers
        } else {
            0.0
        };
        let tp_ms = ms(
            tp_bytes_per_layer(tokens, h, tp),
            self.link_bytes_per_s(1.0, tp, bus_bytes_per_s),
            TP_COLLECTIVES_PER_LAYER,
            2.0,
            tp,
        );
        // An MoE layer's MLP half (two of its four collectives) is the experts': after the
        // all-to-all each GPU gathers, over its ETP ranks, the `k` routed copies of the tokens
        // they share and reduce-scatters the outputs back (Megatron-Core's all-to-all
        // dispatcher): `k·T/CP·ETP/TP` tokens over ETP, `k` times a dense MLP's at ETP = TP,
        // nothing at ETP 1. A shared expert is a TP-split MLP and keeps the dense half.
        let tp_ms = {
            let experts = ms(
                tp_bytes_per_layer(
                    self.shape.experts_per_token * self.expert_tokens(layout, tokens_per_replica),
                    h,
                    etp,
                ),
                self.link_bytes_per_s(1.0, etp, bus_bytes_per_s),
                TP_COLLECTIVES_PER_LAYER,
                2.0,
                etp,
            );
            let kept = if self.shape.shared_experts > 0.0 {
                1.0
            } else {
                1.0 - moe_share / 2.0
            };
            kept * tp_ms + moe_share / 2.0 * experts
        };
        let cp_ms = ms(
            cp_bytes_per_layer(tokens, h, self.shape.kv_width() / h, cp),
            self.link_bytes_per_s(tp, cp, bus_bytes_per_s),
            CP_COLLECTIVES_PER_LAYER,
            1.0,
            cp,
        );
        // The expert group numbers ETP first, then EP (Megatron-Core's expert rank order
        // "tp-ep-dp"), so an EP group spans `ETP·EP` consecutive GPUs.
        let ep_ms = if self.shape.is_moe() {
            moe_share
                * ms(
                    ep_bytes_per_layer(
                        self.dispatched_tokens(layout, tokens_per_replica),
                        h,
                        self.shape.experts_per_token,
                        ep,
                    ),
                    self.link_bytes_per_s(etp, ep, bus_bytes_per_s),
                    EP_COLLECTIVES_PER_LAYER,
                    2.0,
                    ep,
                )
        } else {
            0.0
        };
        let pp_ms = if layout.pp > 1 {
            let sends = 2.0 * (layout.pp as f64 * virtual_stages.max(1) as f64 - 1.0);
            let link = self.link_bytes_per_s(tp * cp, layout.pp as f64, bus_bytes_per_s);
            sends * (pp_bytes_per_send(tokens, h, tp) / link + self.latency_s) * 1e3
        } else {
            0.0
        };
        let hidden = |t: f64| (t - compute_ms).max(0.0);
        Traffic {
            pp_ms,
            tp_ms: (1.0 - self.tp_overlap) * tp_ms + hidden(self.tp_overlap * tp_ms),
            cp_ms: match self.cp_overlap {
                CpOverlap::Ring => (cp_ms
                    - self.attention_time_share(layout, tokens_per_replica) * compute_ms)
                    .max(0.0),
                CpOverlap::AllGather => cp_ms,
            },
            ep_ms,
            offload_ms: self.offload_ms(layout, tokens_per_replica, compute_ms),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{ActivationSettings, Recompute};
    use crate::step::PipelineSchedule;

    fn gpt3() -> Walls {
        Walls {
            shape: crate::shape::GPT3,
            memory: MemorySettings {
                zero: 1,
                optimizer_bytes_per_param: 12.0,
                gradient_bytes_per_param: 2.0,
                master_in_weights: false,
                activations: ActivationSettings {
                    recompute: Recompute::Selective,
                    sequence_parallel: true,
                    flash_attention: false,
                    recompute_layers: 0,
                    offload_layers: 0,
                },
                hbm_bytes: 80e9,
                reserve_bytes: 0.0,
                shard_group_gpus: None,
            },
            expert_parallel: 1.0,
            expert_tensor_parallel: 0.0,
            kernels: None,
            nvlink_bytes_per_s: 400e9,
            tp_overlap: 0.0,
            latency_s: 0.0,
            nvlink_domain_gpus: NVLINK_DOMAIN_GPUS,
            hbm_bytes_per_s: 0.0,
            host_bytes_per_s: 0.0,
            gemm_flops_per_s: 0.0,
            quantized_bytes_per_element: 0.0,
            cp_overlap: CpOverlap::Ring,
            dropout: false,
        }
    }

    /// FSDP at 50 GB/s (400G InfiniBand), bf16, 1F1B.
    const COMM: FsdpComm = FsdpComm {
        gathers: 3.0,
        wire_bytes_per_param: 2.0,
        gather_bytes_per_param: 2.0,
        bus_bytes_per_s: 50e9,
        fixed_ms: 0.0,
        schedule: PipelineSchedule::OneFOneB,
        chunks: 1,
    };

    const LAYOUT: Layout = Layout {
        tp: 8,
        pp: 8,
        cp: 1,
        accumulation: 64,
    };

    /// TP 8 inside the node at 400 GB/s: 352,321,536 B per layer (traffic.rs) / 400e9 =
    /// 0.88080384 ms, × 64 microbatches × 12 layers = 676.457… ms per step.
    #[test]
    fn tp_traffic_per_step() {
        let w = gpt3();
        let t = w.traffic(&LAYOUT, 50e9, 2048.0, 1000.0, 1);
        assert!((t.tp_ms - 0.88080384 * 64.0 * 12.0).abs() < 1e-9);
        assert_eq!((t.cp_ms, t.ep_ms), (0.0, 0.0));
        // Overlapped: only what exceeds 600 ms of compute.
        let overlapped = Walls {
            tp_overlap: 1.0,
            ..w
        };
        let t = overlapped.traffic(&LAYOUT, 50e9, 2048.0, 600.0, 1);
        assert!((t.tp_ms - (0.88080384 * 768.0 - 600.0)).abs() < 1e-9);
        // 80% overlapped: a fifth of 676.45734912 ms stays, 135.291469824 ms, and the other
        // 541.165879296 ms hides behind 600 ms of compute; behind 500 ms, 41.165879296 more.
        let partly = Walls {
            tp_overlap: 0.8,
            ..w
        };
        let t = partly.traffic(&LAYOUT, 50e9, 2048.0, 600.0, 1);
        assert!((t.tp_ms - 135.291_469_824).abs() < 1e-9, "{}", t.tp_ms);
        let t = partly.traffic(&LAYOUT, 50e9, 2048.0, 500.0, 1);
        assert!((t.tp_ms - 176.457_349_12).abs() < 1e-9, "{}", t.tp_ms);
        // TP 16 leaves the node: B_eff.
        let wide = Layout { tp: 16, ..LAYOUT };
        let t = w.traffic(&wide, 50e9, 2048.0, 1000.0, 1);
        let bytes = 16.0 * 2048.0 * 12288.0 * 15.0 / 16.0;
        assert!((t.tp_ms - bytes / 50e9 * 1e3 * 64.0 * 12.0).abs() < 1e-6);
        // α = 5 µs, TP 8: 4 collectives × 3 doublings × 15 µs… per layer per microbatch.
        let slow = Walls {
            latency_s: 5e-6,
            ..w
        };
        let t = slow.traffic(&LAYOUT, 50e9, 2048.0, 1000.0, 1);
        assert!((t.tp_ms - (0.88080384 + 4.0 * 15e-3) * 768.0).abs() < 1e-9);
    }

    /// Full recomputation repeats each recomputed layer's forward collectives: TP's 2 of 4,
    /// so 676.45734912 ms × 6/4 = 1,014.68602368 ms with every layer recomputed, and with 6 of
    /// the stage's 12 layers × (1 + ½·2/4) = 845.5716864 ms; CP's 1 of 3 (the K/V gather),
    /// EP's 2 of 4 (dispatch and combine). Selective recomputation repeats no collective.
    #[test]
    fn full_recomputation_repeats_the_forward_collectives() {
        let with = |recompute, recompute_layers| {
            let mut w = gpt3();
            w.memory.activations.recompute = recompute;
            w.memory.activations.recompute_layers = recompute_layers;
            w
        };
        let tp = |w: &Walls| w.traffic(&LAYOUT, 50e9, 2048.0, 1000.0, 1).tp_ms;
        let base = 0.88080384 * 64.0 * 12.0;
        assert!((tp(&with(Recompute::Selective, 0)) - base).abs() < 1e-9);
        assert!((tp(&with(Recompute::Full, 0)) - 1_014.686_023_68).abs() < 1e-6);
        assert!((tp(&with(Recompute::Full, 6)) - 845.571_686_4).abs() < 1e-6);
        let cp_layout = Layout { cp: 2, ..LAYOUT };
        let cp = |w: &Walls| {
            let c = Walls {
                cp_overlap: CpOverlap::AllGather,
                ..*w
            };
            c.traffic(&cp_layout, 50e9, 4096.0, 1000.0, 1).cp_ms
        };
        let ratio = cp(&with(Recompute::Full, 0)) / cp(&with(Recompute::None, 0));
        assert!((ratio - 4.0 / 3.0).abs() < 1e-12, "{ratio}");
    }

    /// Calculon's bandwidth shares at each step of its table (10^6-byte megabytes).
    #[test]
    fn hbm_efficiency_by_transfer_size() {
        assert_eq!(hbm_efficiency(100e6), 0.9);
        assert_eq!(hbm_efficiency(99.9e6), 0.75);
        assert_eq!(hbm_efficiency(10e6), 0.75);
        assert_eq!(hbm_efficiency(9.9e6), 0.6);
        assert_eq!(hbm_efficiency(1e6), 0.6);
        assert_eq!(hbm_efficiency(0.9e6), 0.3);
    }

    /// GPT-3 175B's elementwise bytes: 96 layers × 1,130,496 = 108,527,616 a token (shape.rs)
    /// over 6·175,181,291,520 + 28,991,029,248 = 1,080,078,778,368 FLOPs. One microbatch of
    /// 2,048 tokens at TP 8 is a 2,048·1,536·2 = 6,291,456-byte tensor: 0.6 of the bandwidth.
    /// At 500 TFLOP/s of GEMMs and 3.35 TB/s, `μ = 500e12·b/(3.35e12·0.6)` (0.02500), and the
    /// rate `η/(stage·(1 + μ·η))` against `η/stage` without it.
    ///
    /// Without flash attention the scores add the softmax's `4·96·2,048` and the batched
    /// products' `4·96·(2,048 + 2·128)` elements, 1,671,168 (3,342,336 B) a layer: 96 ×
    /// 4,472,832 = 429,391,872 B a token. Without sequence parallelism at TP 8 the residual
    /// stream's 737,280 B count 8 times and the tensor is 2,048·12,288·2 = 50,331,648 B (0.75):
    /// 96 × (8·737,280 + 393,216) = 603,979,776 B.
    #[test]
    fn elementwise_memory_time_slows_the_rate() {
        let mut w = Walls {
            kernels: Some(HalfLengths::H100_BF16),
            ..gpt3()
        };
        w.memory.activations.flash_attention = true;
        assert_eq!(w.memory_time_ratio(&LAYOUT, 2048.0), 0.0);
        let with = Walls {
            hbm_bytes_per_s: 3.35e12,
            gemm_flops_per_s: 500e12,
            ..w
        };
        let b = 108_527_616.0 / 1_080_078_778_368.0;
        let mu = 500e12 * b / (3.35e12 * 0.6);
        assert!((with.memory_time_ratio(&LAYOUT, 2048.0) - mu).abs() < 1e-12);
        assert!((mu - 0.025).abs() < 1e-4);
        let eta = w.gemm_efficiency(&LAYOUT, 2048.0);
        let stage = crate::shape::GPT3.slowest_stage_share(8);
        let rate = with.rate_efficiency(&LAYOUT, 2048.0);
        assert!(
            (rate - eta / (stage * (1.0 + mu * eta))).abs() < 1e-12,
            "{rate}"
        );
        assert!((w.rate_efficiency(&LAYOUT, 2048.0) - eta / stage).abs() < 1e-12);
        // Either input unset leaves the time out.
        let no_rate = Walls {
            gemm_flops_per_s: 0.0,
            quantized_bytes_per_element: 0.0,
            ..with
        };
        assert_eq!(no_rate.memory_time_ratio(&LAYOUT, 2048.0), 0.0);
        let no_memory = Walls {
            hbm_bytes_per_s: 0.0,
            ..with
        };
        assert_eq!(no_memory.memory_time_ratio(&LAYOUT, 2048.0), 0.0);
        // TP 1 makes the tensor 50,331,648 bytes: 0.75 of the bandwidth.
        let tp1 = Layout { tp: 1, ..LAYOUT };
        let mu1 = 500e12 * b / (3.35e12 * 0.75);
        assert!((with.memory_time_ratio(&tp1, 2048.0) - mu1).abs() < 1e-12);
        let mut scores = with;
        scores.memory.activations.flash_attention = false;
        let b_scores = 429_391_872.0 / 1_080_078_778_368.0;
        let mu_scores = 500e12 * b_scores / (3.35e12 * 0.6);
        assert!((scores.memory_time_ratio(&LAYOUT, 2048.0) - mu_scores).abs() < 1e-12);
        // FP8 with current scaling, 6 bytes for each of GPT-3's 196,608 cast elements (forward
        // 12,288 + 12,288 + 12,288 + 49,152, backward 3·12,288 + 12,288 + 49,152 + 12,288):
        // 96 · (1,130,496 + 1,179,648) = 221,773,824 B a token.
        let fp8 = Walls {
            quantized_bytes_per_element: 6.0,
            ..with
        };
        let b_fp8 = 221_773_824.0 / 1_080_078_778_368.0;
        let mu_fp8 = 500e12 * b_fp8 / (3.35e12 * 0.6);
        assert!((fp8.memory_time_ratio(&LAYOUT, 2048.0) - mu_fp8).abs() < 1e-12);
        // Dropout's masks on the residual stream, 4·12,288 bytes a layer (flash attention keeps
        // the attention dropout in its kernel): 108,527,616 + 96·49,152 = 113,246,208 B a token.
        let dropout = Walls {
            dropout: true,
            ..with
        };
        let b_dropout = 113_246_208.0 / 1_080_078_778_368.0;
        let mu_dropout = 500e12 * b_dropout / (3.35e12 * 0.6);
        assert!((dropout.memory_time_ratio(&LAYOUT, 2048.0) - mu_dropout).abs() < 1e-12);
        let mut replicated = with;
        replicated.memory.activations.sequence_parallel = false;
        let b_replicated = 603_979_776.0 / 1_080_078_778_368.0;
        let mu_replicated = 500e12 * b_replicated / (3.35e12 * 0.75);
        assert!((replicated.memory_time_ratio(&LAYOUT, 2048.0) - mu_replicated).abs() < 1e-12);
    }

    /// The zero-bubble passes of GPT-3 175B at 2,048 tokens: attention's FLOP share is
    /// `f` = 12·96·12,288·2,048 / 1,080,078,778,368 = 28,991,029,248 / 1,080,078,778,368.
    /// Without kernels the elementwise share is 0: `W = (1 − f)/3`, `F = 1/3`,
    /// `B = (1 + f)/3`. With them and the machine of the test above, `ε = μ·η/(1 + μ·η)`, and
    /// `W = (1 − f)(1 − ε)/3`, `F = W + f(1 − ε)/3 + 2ε/5`, `B = W + 2f(1 − ε)/3 + 3ε/5`.
    #[test]
    fn zero_bubble_passes_from_the_shape() {
        let f = 28_991_029_248.0 / 1_080_078_778_368.0;
        let mut plain = gpt3();
        plain.memory.activations.flash_attention = true;
        let p = plain.pass_shares(&LAYOUT, 2048.0);
        assert!((p.weight_gradient - (1.0 - f) / 3.0).abs() < 1e-15);
        assert!((p.forward - 1.0 / 3.0).abs() < 1e-15);
        assert!((p.input_gradient - (1.0 + f) / 3.0).abs() < 1e-15);
        let with = Walls {
            kernels: Some(HalfLengths::H100_BF16),
            hbm_bytes_per_s: 3.35e12,
            gemm_flops_per_s: 500e12,
            ..plain
        };
        let mu = 500e12 * (108_527_616.0 / 1_080_078_778_368.0) / (3.35e12 * 0.6);
        let eta = with.gemm_efficiency(&LAYOUT, 2048.0);
        let e = mu * eta / (1.0 + mu * eta);
        let w = (1.0 - f) * (1.0 - e) / 3.0;
        let p = with.pass_shares(&LAYOUT, 2048.0);
        assert!((p.weight_gradient - w).abs() < 1e-15);
        assert!((p.forward - (w + f * (1.0 - e) / 3.0 + 0.4 * e)).abs() < 1e-15);
        assert!((p.input_gradient - (w + 2.0 * f * (1.0 - e) / 3.0 + 0.6 * e)).abs() < 1e-15);
        assert!(e > 0.02 && e < 0.03, "{e}");
    }

    /// ZeRO-1, P = 175B over TP 8 · PP 8 (Ψ = 2,734,375,000), D = 16, bf16 at 50 GB/s:
    /// 2 · 2 · Ψ · 15/16 = 10,253,906,250 B → 205.078125 ms. With 1F1B the stage's 12 layers'
    /// buckets go during the last microbatch's backward, 1,000/64 = 15.625 ms of compute:
    /// max(205.078125/12, 205.078125 − 15.625) = 189.453125 ms; interleaved ×4 with 64 microbatches of
    /// compute (15.625 ms a microbatch), the last group of p = 8 microbatches through three of
    /// the four chunks hides 8 · 3/4 · 15.625 = 93.75 ms of it: max(205.078125/4, 111.328125)
    /// = 111.328125 ms; with 20,000 ms (312.5 ms a microbatch) one chunk of four stays:
    /// 51.26953125 ms.
    #[test]
    fn data_parallel_once_per_step() {
        let w = gpt3();
        let comm = COMM;
        let t = w
            .data_parallel_ms(&LAYOUT, &comm, 175e9, 1024.0, 1000.0)
            .unwrap();
        assert!((t - 189.453125).abs() < 1e-9, "{t}");
        // With no compute to hide behind, all of it.
        let t = w
            .data_parallel_ms(&LAYOUT, &comm, 175e9, 1024.0, 0.0)
            .unwrap();
        assert!((t - 205.078125).abs() < 1e-9, "{t}");
        let interleaved = FsdpComm {
            schedule: PipelineSchedule::Interleaved,
            chunks: 4,
            ..comm
        };
        let t = w
            .data_parallel_ms(&LAYOUT, &interleaved, 175e9, 1024.0, 1000.0)
            .unwrap();
        assert!((t - 111.328125).abs() < 1e-9, "{t}");
        let t = w
            .data_parallel_ms(&LAYOUT, &interleaved, 175e9, 1024.0, 20_000.0)
            .unwrap();
        assert!((t - 51.269_531_25).abs() < 1e-9, "{t}");
        // Fewer microbatches than stages: the last group is all A = 4 of them, 100 ms of
        // compute (25 ms a microbatch) hides 4 · 3/4 · 25 = 75 ms: 130.078125 ms.
        let few = Layout {
            accumulation: 4,
            ..LAYOUT
        };
        let t = w
            .data_parallel_ms(&few, &interleaved, 175e9, 1024.0, 100.0)
            .unwrap();
        assert!((t - 130.078_125).abs() < 1e-9, "{t}");
        let fsdp = Walls {
            memory: MemorySettings {
                zero: 3,
                ..w.memory
            },
            ..w
        };
        assert_eq!(
            fsdp.data_parallel_ms(&LAYOUT, &comm, 175e9, 1024.0, 1000.0),
            None
        );
        // One replica: nothing to reduce.
        assert_eq!(
            w.data_parallel_ms(&LAYOUT, &comm, 175e9, 64.0, 1000.0),
            Some(0.0)
        );
    }

    /// ZeRO-2 reduce-scatters every microbatch's gradients, by hand: ZeRO-2 with GPT-3's
    /// TP 8 · PP 8, D = 16, A = 64, bf16 at 50 GB/s, interleaved ×4: the reduce-scatter is
    /// 2·Ψ·15/16 = 5,126,953,125 B → 102.5390625 ms a microbatch. With 1,000 ms of compute
    /// (15.625 ms a microbatch) 63 of them leave 63·86.9140625 = 5,475.5859375 ms exposed, on
    /// top of ZeRO-1's 111.328125: 5,586.9140625 ms. With 10,000 ms (156.25 ms a microbatch)
    /// they hide, and ZeRO-2 costs ZeRO-1's max(205.078125/4, 205.078125 − 8 · 3/4 · 156.25)
    /// = 51.26953125 ms.
    #[test]
    fn zero_2_reduce_scatters_every_microbatch() {
        let w = Walls {
            memory: MemorySettings {
                zero: 2,
                ..gpt3().memory
            },
            ..gpt3()
        };
        let interleaved = FsdpComm {
            schedule: PipelineSchedule::Interleaved,
            chunks: 4,
            ..COMM
        };
        let t = w
            .data_parallel_ms(&LAYOUT, &interleaved, 175e9, 1024.0, 1000.0)
            .unwrap();
        assert!((t - 5_586.914_062_5).abs() < 1e-9, "{t}");
        let t = w
            .data_parallel_ms(&LAYOUT, &interleaved, 175e9, 1024.0, 10_000.0)
            .unwrap();
        assert!((t - 51.269_531_25).abs() < 1e-9, "{t}");
    }

    /// The one chunk that stays exposed, by hand. Without a pipeline the chunks are the 96
    /// layers: TP 8 · PP 1, D = 128, Ψ = 175e9/8 = 21.875e9, 4·Ψ·127/128 B at 50 GB/s =
    /// 1,736.328125 ms, all hidden by 10⁶ ms of compute but one layer's 18.0867513020833… ms.
    /// Megatron-Core 177B as 1F1B (TP 8 · PP 6, ZeRO-1, D = 96 at 4,608 GPUs, 100 GB/s):
    /// 4·(177e9/48)·95/96 B = 145.963541666… ms, all but one of the stage's 16 layers' buckets
    /// hidden by 10⁶ ms of compute: 9.122721354… ms. Gradients in fp32 (`s_w = 4`, `s_g = 2`):
    /// 6·(177e9/48)·95/96 B = 218.9453125 ms, 13.684082031… exposed; ZeRO-0 all-reduces the
    /// fp32 gradients, 8·…: 291.927083… ms, 18.245442708…. With no compute, all of it.
    #[test]
    fn data_parallel_exposes_one_chunk() {
        let w = gpt3();
        let flat = Layout {
            tp: 8,
            pp: 1,
            cp: 1,
            accumulation: 64,
        };
        let t = w
            .data_parallel_ms(&flat, &COMM, 175e9, 1024.0, 1e6)
            .unwrap();
        assert!((t - 1736.328125 / 96.0).abs() < 1e-9, "{t}");
        let megatron = Layout {
            tp: 8,
            pp: 6,
            cp: 1,
            accumulation: 12,
        };
        let comm = FsdpComm {
            bus_bytes_per_s: 100e9,
            ..COMM
        };
        let t = w
            .data_parallel_ms(&megatron, &comm, 177e9, 4608.0, 1e6)
            .unwrap();
        assert!((t - 145.963_541_666_666_66 / 16.0).abs() < 1e-9, "{t}");
        let t = w
            .data_parallel_ms(&megatron, &comm, 177e9, 4608.0, 0.0)
            .unwrap();
        assert!((t - 145.963_541_666_666_66).abs() < 1e-9, "{t}");
        let fp32 = FsdpComm {
            wire_bytes_per_param: 4.0,
            ..comm
        };
        let t = w
            .data_parallel_ms(&megatron, &fp32, 177e9, 4608.0, 1e6)
            .unwrap();
        assert!((t - 218.945_312_5 / 16.0).abs() < 1e-9, "{t}");
        let zero0 = Walls {
            memory: MemorySettings {
                zero: 0,
                ..w.memory
            },
            ..w
        };
        let t = zero0
            .data_parallel_ms(&megatron, &fp32, 177e9, 4608.0, 1e6)
            .unwrap();
        assert!((t - 291.927_083_333_333_3 / 16.0).abs() < 1e-9, "{t}");
    }

    /// The Mixtral-like MoE of [`moe_kernels_and_traffic`] with whole experts (ETP 1, the EP
    /// group of 4 folded over the TP ranks), by hand:
    /// - the experts of a GPU share only its own dispatched tokens, `T/CP·ETP/TP` = 8,192/2 =
    ///   4,096, and an expert gets 4 · 4,096 · 2/8 = 4,096;
    /// - `φ` = 32·2·176,160,768 / 12,878,610,432 = 1,792/2,047 (`P_a` = 1,604,321,280 dense +
    ///   11,274,289,152 routed); with m½ = k½ = 1,024, η_m = 8/9, η_k = 2/3, η_e = η_ke =
    ///   4,096/5,120 = 4/5: η = (2/3) / ((255/2,047)·(9/8) + (1,792/2,047)·(2/3)/(4/5)/(4/5));
    /// - Ψ = 1,604,321,280/8 + 45,097,156,608/(1·4·4) = 3,019,112,448;
    /// - EP 4 · 2 · 4,096 · 4,096 · 2 · 3/4 = 201,326,592 B a layer, ETP·EP = 4: NVLink;
    /// - TP: the experts' half of each (MoE) layer gone, attention's 134,217,728 B left.
    ///
    /// ETP 2 on TP 2 is the default split, to the bit.
    #[test]
    fn whole_experts_fold_over_the_tp_ranks() {
        let split = Walls {
            shape: crate::shape::MIXTRAL,
            expert_parallel: 4.0,
            expert_tensor_parallel: 0.0,
            kernels: Some(HalfLengths {
                tokens: 1024.0,
                hidden: 1024.0,
            }),
            ..gpt3()
        };
        let whole = Walls {
            expert_tensor_parallel: 1.0,
            ..split
        };
        let layout = Layout {
            tp: 2,
            pp: 4,
            cp: 2,
            accumulation: 8,
        };
        assert_eq!(whole.expert_tp(&layout), 1.0);
        assert_eq!(split.expert_tp(&layout), 2.0);
        let p = whole.at(&layout, &COMM, 46_701_477_888.0, 256.0, 16384.0);
        assert_eq!(p.tokens_per_expert, Some(4096.0));
        let phi = 1792.0 / 2047.0;
        let eta = (2.0 / 3.0) / ((1.0 - phi) * 9.0 / 8.0 + phi * (2.0 / 3.0) / 0.8 / 0.8);
        assert!(
            (p.gemm_efficiency - eta).abs() < 1e-12,
            "{}",
            p.gemm_efficiency
        );
        assert!((p.gemm_efficiency - 0.633_684_821_5).abs() < 1e-9);
        assert!((whole.params_per_gpu(&layout, 46_701_477_888.0) - 3_019_112_448.0).abs() < 1e-3);
        let t = whole.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        let per_step = 64.0 * 1e3 / 400e9;
        assert!(
            (t.ep_ms - 201_326_592.0 * per_step).abs() < 1e-9,
            "{}",
            t.ep_ms
        );
        assert!(
            (t.tp_ms - 134_217_728.0 * per_step).abs() < 1e-9,
            "{}",
            t.tp_ms
        );
        // A shared expert is TP-split: its layer keeps TP's collectives.
        let shared = Walls {
            shape: Shape {
                shared_experts: 1.0,
                ..crate::shape::MIXTRAL
            },
            ..whole
        };
        let t = shared.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        assert!(
            (t.tp_ms - 268_435_456.0 * per_step).abs() < 1e-9,
            "{}",
            t.tp_ms
        );
        // Without CP each GPU dispatches T/TP = 8,192 tokens: EP 4·2·8,192·4,096·2·3/4.
        let no_cp = Layout { cp: 1, ..layout };
        let t = whole.traffic(&no_cp, 50e9, 16384.0, 0.0, 1);
        assert!(
            (t.ep_ms - 402_653_184.0 * per_step).abs() < 1e-9,
            "{}",
            t.ep_ms
        );
        // Past the NVLink domain only when ETP·EP leaves it: EP 16 at ETP 1 spans 16 GPUs.
        let wide = Walls {
            expert_parallel: 16.0,
            ..whole
        };
        let t = wide.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        let bytes = 4.0 * 2.0 * 4096.0 * 4096.0 * 2.0 * 15.0 / 16.0;
        assert!(
            (t.ep_ms - bytes * 64.0 * 1e3 / 50e9).abs() < 1e-9,
            "{}",
            t.ep_ms
        );
        let etp_2 = Walls {
            expert_tensor_parallel: 2.0,
            ..split
        };
        assert_eq!(
            etp_2.traffic(&layout, 50e9, 16384.0, 0.0, 1),
            split.traffic(&layout, 50e9, 16384.0, 0.0, 1)
        );
        assert_eq!(
            etp_2.at(&layout, &COMM, 46.7e9, 256.0, 16384.0),
            split.at(&layout, &COMM, 46.7e9, 256.0, 16384.0)
        );
    }

    /// A Mixtral-like MoE (32 layers, h = 4,096, 32 heads, 8 KV heads, 8 experts, top 2) on
    /// TP 2 · PP 4 · CP 2 with EP 4, A = 8, `T` = 16,384 tokens per replica: each GPU's GEMMs
    /// see `T/CP` = 8,192 tokens and `h/TP` = 2,048; each expert 4 · 8,192 · 2/8 = 8,192 tokens.
    /// With m½ = k½ = 1,024: η_m = η_e = 8,192/9,216 = 8/9, η_k = 2,048/3,072 = 2/3, so
    /// η = (2/3) / ((1 − φ)·9/8 + φ·9/8) = (2/3)·(8/9) = 16/27 whatever φ.
    /// Traffic per layer per microbatch (A 8 × 32/4 layers = 64 of them per step, α = 0):
    /// TP over NVLink (400 GB/s): attention's half of 16 · 8,192 · 4,096 · 1/2, 134,217,728 B,
    /// and the experts' half gathering the 2 routed copies, ½ · 16 · 16,384 · 4,096 · 1/2 =
    /// 268,435,456 B: 402,653,184 B;
    /// CP 3 · 1 · 2 · 8,192 · 4,096 · (8/32) · 2 = 100,663,296 B, TP·CP = 4 ≤ 8: NVLink;
    /// EP of each GPU's 8,192/2 dispatched tokens, 4 · 2 · 4,096 · 4,096 · 2 · 3/4 =
    /// 201,326,592 B, TP·EP = 8: NVLink.
    #[test]
    fn moe_kernels_and_traffic() {
        let w = Walls {
            shape: crate::shape::MIXTRAL,
            expert_parallel: 4.0,
            kernels: Some(HalfLengths {
                tokens: 1024.0,
                hidden: 1024.0,
            }),
            ..gpt3()
        };
        let layout = Layout {
            tp: 2,
            pp: 4,
            cp: 2,
            accumulation: 8,
        };
        assert!((w.gemm_efficiency(&layout, 16384.0) - 16.0 / 27.0).abs() < 1e-12);
        let p = w.at(&layout, &COMM, 46.7e9, 256.0, 16384.0);
        assert_eq!(p.tokens_per_expert, Some(8192.0));
        assert!((p.gemm_efficiency - 16.0 / 27.0).abs() < 1e-12);
        assert_eq!(
            p.memory.total,
            p.memory.weights + p.memory.grads + p.memory.optimizer + p.memory.activations
        );
        let t = w.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        let per_step = 64.0 * 1e3 / 400e9;
        assert!(
            (t.tp_ms - 402_653_184.0 * per_step).abs() < 1e-9,
            "{}",
            t.tp_ms
        );
        assert!(
            (t.cp_ms - 100_663_296.0 * per_step).abs() < 1e-9,
            "{}",
            t.cp_ms
        );
        assert!(
            (t.ep_ms - 201_326_592.0 * per_step).abs() < 1e-9,
            "{}",
            t.ep_ms
        );
        // The pipeline's fill and drain: TP·CP·PP = 16 GPUs, past the NVLink domain; 2·(4 − 1)
        // sends of 8,192 · 4,096 · 2/2 = 33,554,432 B at 50 GB/s.
        let pp = 6.0 * 33_554_432.0 / 50e9 * 1e3;
        assert!((t.pp_ms - pp).abs() < 1e-12, "{}", t.pp_ms);
        assert!(
            (t.total_ms() - (402_653_184.0 + 100_663_296.0 + 201_326_592.0) * per_step - pp).abs()
                < 1e-9
        );
        // CP hides behind the attention's share of the compute: with 1,000 ms of it, none is
        // left; TP (not overlapped) and EP stay.
        let hidden = w.traffic(&layout, 50e9, 16384.0, 1000.0, 1);
        assert_eq!(hidden.cp_ms, 0.0);
        assert_eq!((hidden.tp_ms, hidden.ep_ms), (t.tp_ms, t.ep_ms));
        // EP 8 on TP 2 leaves the node: B_eff for the experts' all-to-alls.
        let wide = Walls {
            expert_parallel: 8.0,
            ..w
        };
        let t = wide.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        let ep = 4.0 * 2.0 * 4096.0 * 4096.0 * 2.0 * 7.0 / 8.0;
        assert!((t.ep_ms - ep * 64.0 * 1e3 / 50e9).abs() < 1e-9);
        // In a 72-GPU NVL72 domain, which 16 does not divide, TP·EP = 16 and TP·CP·PP = 16
        // are placed whole (⌊72/16⌋ = 4 groups a rack) and talk at NVLink (400 GB/s); a 12-GPU
        // domain holds neither group, so both leave it at 50 GB/s.
        let rack = Walls {
            nvlink_domain_gpus: 72.0,
            ..wide
        };
        let t = rack.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        assert!((t.ep_ms - ep * 64.0 * 1e3 / 400e9).abs() < 1e-9);
        assert!((t.pp_ms - 6.0 * 33_554_432.0 / 400e9 * 1e3).abs() < 1e-12);
        let small = Walls {
            nvlink_domain_gpus: 12.0,
            ..wide
        };
        let t = small.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        assert!((t.ep_ms - ep * 64.0 * 1e3 / 50e9).abs() < 1e-9);
        assert!((t.pp_ms - 6.0 * 33_554_432.0 / 50e9 * 1e3).abs() < 1e-12);
        // ZeRO-1 data-parallel traffic over D · CP = 16 · 2 ranks (256 GPUs / 16 per replica),
        // of the GPU's own shard: Ψ = 1,604,321,280/8 dense + 45,097,156,608/(8·4) experts =
        // 1,609,826,304 (memory.rs's MoE test).
        let dp = w
            .data_parallel_ms(&layout, &COMM, 46_701_477_888.0, 256.0, 0.0)
            .unwrap();
        let bytes = 2.0 * 2.0 * 1_609_826_304.0 * 31.0 / 32.0;
        assert!((dp - bytes / 50e9 * 1e3).abs() < 1e-9, "{dp}");
        // The same group in a 72-GPU domain: TP·CP·DP = 2·2·16 = 64 GPUs fit, so NVLink
        // (400 GB/s): 4 · 1,609,826,304 · 31/32 = 6,238,076,928 B in 15.59519232 ms. In a
        // 32-GPU domain they do not: 50 GB/s, 124.76153856 ms.
        let in_rack = Walls {
            nvlink_domain_gpus: 72.0,
            ..w
        };
        let dp = in_rack
            .data_parallel_ms(&layout, &COMM, 46_701_477_888.0, 256.0, 0.0)
            .unwrap();
        assert!((dp - 15.595_192_32).abs() < 1e-9, "{dp}");
        let half_rack = Walls {
            nvlink_domain_gpus: 32.0,
            ..w
        };
        let dp = half_rack
            .data_parallel_ms(&layout, &COMM, 46_701_477_888.0, 256.0, 0.0)
            .unwrap();
        assert!((dp - 124.761_538_56).abs() < 1e-9, "{dp}");
        // A dense model has no expert traffic and no tokens per expert.
        let dense = gpt3();
        assert_eq!(dense.traffic(&LAYOUT, 50e9, 2048.0, 0.0, 1).ep_ms, 0.0);
        assert_eq!(
            dense
                .at(&LAYOUT, &COMM, 175e9, 1024.0, 2048.0)
                .tokens_per_expert,
            None
        );
    }

    /// Leading dense layers route nothing: Mixtral at EP 8 on TP 2 · PP 4 · CP 2 (the all-to-all
    /// of `moe_kernels_and_traffic`, `4·2·4,096·4,096·2·7/8` B a layer at 50 GB/s over 8
    /// microbatches). With 26 of its 32 layers dense the busiest stage (8 layers) has only the 6
    /// MoE layers left, 48 all-to-alls a step instead of 64; with 24 dense a stage of 8 MoE
    /// layers remains and paces the step as before.
    #[test]
    fn dense_layers_route_nothing() {
        let layout = Layout {
            tp: 2,
            pp: 4,
            cp: 2,
            accumulation: 8,
        };
        let wide = Walls {
            shape: crate::shape::MIXTRAL,
            expert_parallel: 8.0,
            expert_tensor_parallel: 0.0,
            ..gpt3()
        };
        let ep = 4.0 * 2.0 * 4096.0 * 4096.0 * 2.0 * 7.0 / 8.0;
        // TP: with 26 dense the stage's TP is 2/8 dense layers' and 6/8 MoE layers', whose
        // experts' half gathers the 2 routed copies: (1 − 6/16)·268,435,456 +
        // (6/16)·536,870,912 = 167,772,160 + 201,326,592 = 369,098,752 B over 64
        // layer-microbatches at NVLink (TP 2 in the node).
        let w = Walls {
            shape: crate::shape::Shape {
                dense_layers: 26.0,
                ..crate::shape::MIXTRAL
            },
            ..wide
        };
        let t = w.traffic(&layout, 50e9, 16384.0, 0.0, 1);
        assert!(
            (t.tp_ms - 369_098_752.0 * 64.0 * 1e3 / 400e9).abs() < 1e-9,
            "{}",
            t.tp_ms
        );
        // (dense layers, all-to-alls a step)
        for (dense_layers, all_to_alls) in [(26.0, 48.0), (24.0, 64.0)] {
            let w = Walls {
                shape: crate::shape::Shape {
                    dense_layers,
                    ..crate::shape::MIXTRAL
                },
                ..wide
            };
            let t = w.traffic(&layout, 50e9, 16384.0, 0.0, 1);
            let want = ep * all_to_alls * 1e3 / 50e9;
            assert!((t.ep_ms - want).abs() < 1e-9, "{dense_layers}: {}", t.ep_ms);
        }
    }

    /// A fit is `total ≤ memory − reserve`: exactly at the limit still fits.
    #[test]
    fn exactly_full_fits() {
        let w = gpt3();
        let total = w.at(&LAYOUT, &COMM, 175e9, 1024.0, 2048.0).memory.total;
        let full = Walls {
            memory: MemorySettings {
                hbm_bytes: total,
                ..w.memory
            },
            ..w
        };
        let p = full.at(&LAYOUT, &COMM, 175e9, 1024.0, 2048.0);
        assert!(p.fits);
        assert_eq!(p.over_bytes, 0.0);
        // A reserve comes off the GPU's memory: 1 GiB to spare against a 2 GiB reserve is
        // 1 GiB over (total − (total + 2³⁰ − 2³¹) = 2³⁰ B).
        let reserved = Walls {
            memory: MemorySettings {
                hbm_bytes: total + 1_073_741_824.0,
                reserve_bytes: 2_147_483_648.0,
                shard_group_gpus: None,
                ..w.memory
            },
            ..w
        };
        let p = reserved.at(&LAYOUT, &COMM, 175e9, 1024.0, 2048.0);
        assert!(!p.fits);
        assert_eq!(p.over_bytes, 1_073_741_824.0);
        // Without resharding (c = 2) under ZeRO-3 the whole stage's copy is gathered.
        let fsdp = Walls {
            memory: MemorySettings {
                zero: 3,
                ..w.memory
            },
            ..w
        };
        let two = FsdpComm {
            gathers: 2.0,
            ..COMM
        };
        let p = fsdp.at(&LAYOUT, &two, 175e9, 1024.0, 2048.0);
        assert!((p.memory.gathered - 2.0 * 175e9 / 64.0).abs() < 1e-3);
        let three = fsdp.at(&LAYOUT, &COMM, 175e9, 1024.0, 2048.0);
        assert!((three.memory.gathered - 4.0 * 175e9 / 64.0 / 12.0).abs() < 1e-3);
    }

    #[test]
    fn fit_and_over() {
        let w = gpt3();
        let comm = COMM;
        // 1,024 GPUs: D = 16 (memory.rs's gpt3_first_stage): 23,255,937,442 B.
        let p = w.at(&LAYOUT, &comm, 175e9, 1024.0, 2048.0);
        assert_eq!(p.memory.total, 23_255_937_442.0);
        assert!(p.fits);
        assert_eq!(p.over_bytes, 23_255_937_442.0 - 80e9);
        assert_eq!(p.gemm_efficiency, 1.0);
        let small = Walls {
            memory: MemorySettings {
                hbm_bytes: 20e9,
                ..w.memory
            },
            ..w
        };
        assert!(!small.at(&LAYOUT, &comm, 175e9, 1024.0, 2048.0).fits);
    }

    /// Context parallelism hides only behind attention (the review's golden): Llama 3 405B,
    /// TP 4 · PP 16 · CP 4, A = 32, one 8,192-token sequence a microbatch, 3,874 ms of
    /// compute, TP·CP = 16 GPUs past the 8-GPU NVLink domain, so CP talks at 50 GB/s.
    /// Per layer: 3·(4 − 1)·2·2,048·16,384·(8/128)·2 = 75,497,472 B; per step A·⌈126/16⌉ =
    /// 256 layers: 386.54705664 ms. f = 12·L·h·s/(6·P_a + 12·L·h·s) with 12·L·h·s =
    /// 202,937,204,736 and P_a = 126·(570,425,344 + 2,617,245,696) + 2·128,256·16,384 =
    /// 405,849,243,648: f = 0.0769274798237…; ring: 386.54705664 − f·3,874 = 88.529999803… ms
    /// exposed; all-gather: all 386.54705664 ms.
    #[test]
    fn cp_hides_only_behind_attention() {
        let llama = Walls {
            shape: crate::shape::LLAMA3_405B,
            ..gpt3()
        };
        assert!((llama.shape.attention_flop_share() - 0.076_927_479_823_7).abs() < 1e-12);
        let layout = Layout {
            tp: 4,
            pp: 16,
            cp: 4,
            accumulation: 32,
        };
        let ring = llama.traffic(&layout, 50e9, 8192.0, 3874.0, 1);
        assert!((ring.cp_ms - 88.529_999_803).abs() < 1e-8, "{}", ring.cp_ms);
        let gathered = Walls {
            cp_overlap: CpOverlap::AllGather,
            ..llama
        };
        let t = gathered.traffic(&layout, 50e9, 8192.0, 3874.0, 1);
        assert!((t.cp_ms - 386.547_056_64).abs() < 1e-9, "{}", t.cp_ms);
        assert_eq!(CpOverlap::from_key("allgather"), Some(CpOverlap::AllGather));
        assert_eq!(CpOverlap::from_key(" ring "), Some(CpOverlap::Ring));
        assert_eq!(CpOverlap::from_key("p2p"), None);
    }

    /// Ring CP hides behind attention's share of the compute *time*. GPT-3 175B on TP 8 · PP 8
    /// · CP 2, 2,048-token microbatches, with H100's half lengths, 500 TFLOP/s of GEMMs and
    /// 3.35 TB/s: `f` = 28,991,029,248 / 1,080,078,778,368 (the attention FLOPs of
    /// `elementwise_memory_time_slows_the_rate`'s count); `η` = 1,024/1,152 · 1,536/1,664 =
    /// 0.820513; the 1,024·1,536·2-byte tensor reaches 0.6 of the bandwidth, so `μ` is that
    /// test's; share `f/(1 + μ·η)` = 0.026302, against `f` = 0.026841 without kernels. With
    /// 10,000 ms of compute the ring exposes what the all-gather does less 263.02 ms.
    #[test]
    fn cp_hides_behind_attentions_time() {
        let mut with = Walls {
            kernels: Some(HalfLengths::H100_BF16),
            hbm_bytes_per_s: 3.35e12,
            gemm_flops_per_s: 500e12,
            ..gpt3()
        };
        with.memory.activations.flash_attention = true;
        let layout = Layout { cp: 2, ..LAYOUT };
        let f: f64 = 28_991_029_248.0 / 1_080_078_778_368.0;
        let mu = 500e12 * (108_527_616.0 / 1_080_078_778_368.0) / (3.35e12 * 0.6);
        let eta = 1024.0 / 1152.0 * (1536.0 / 1664.0);
        let share = f / (1.0 + mu * eta);
        assert!((share - 0.026_302).abs() < 5e-7, "{share}");
        assert!((with.attention_time_share(&layout, 2048.0) - share).abs() < 1e-15);
        let gathered = Walls {
            cp_overlap: CpOverlap::AllGather,
            ..with
        };
        let ring = with.traffic(&layout, 50e9, 2048.0, 10_000.0, 1).cp_ms;
        let all = gathered.traffic(&layout, 50e9, 2048.0, 10_000.0, 1).cp_ms;
        assert!((all - ring - share * 10_000.0).abs() < 1e-9, "{all} {ring}");
        // Without kernels the compute is a measured rate: the FLOP share.
        assert_eq!(gpt3().attention_time_share(&layout, 2048.0), f);
    }

    /// TP 8 and nothing else: Korthikanti et al.'s 22B layout, one microbatch.
    const TP8_ALONE: Layout = Layout {
        tp: 8,
        pp: 1,
        cp: 1,
        accumulation: 1,
    };

    /// Korthikanti et al.'s 22B (Table 3): 48 layers, 6,144 wide, 64 heads, GPT's MLP, 2,048
    /// tokens, a 51,200-token vocabulary.
    fn korthikanti_22b() -> Shape {
        Shape {
            layers: 48.0,
            hidden: 6144.0,
            heads: 64.0,
            kv_heads: 64.0,
            vocab: 51_200.0,
            ..crate::shape::GPT3
        }
    }

    /// Selective recomputation by hand, on Korthikanti et al.'s 22B of their Table 4 (L 48,
    /// h 6,144, a 64, GeLU, s 2,048, V 51,200; TP 8 with sequence parallelism, no flash
    /// attention, dropout; microbatch 4, 8,192 tokens) at 240 TFLOP/s of GEMMs and the A100's
    /// 2.039 TB/s: `P_a` = 22,372,417,536, FLOPs `6·P_a + 12·48·6,144·2,048` =
    /// 141,482,262,528 a token; `f_s = 4·2,048·6,144·48`/that = 0.0170758; the forward scores'
    /// bytes `2·(2·64·2,048 + 2·64·(2,048 + 192)) + 5·64·2,048` = 1,753,088 a layer, `b_s` =
    /// 0.00059476; all elementwise bytes 4,096,000 a layer (`b` = 0.00138963); the
    /// 12,582,912-byte tensor reaches 0.75 of the bandwidth: `μ` = 0.218088, `μ_s` = 0.0933417,
    /// `η` = 8,192/8,320 · 768/896 = 0.843956, share `(f_s + μ_s·η)/(1 + μ·η)` = **0.0809523**.
    /// The paper measures 20.3 against 19.0 ms a layer, 6.8% of a layer that also holds its TP
    /// collectives. Without kernels `f_s`; with flash attention 0.
    #[test]
    fn selective_recomputation_reruns_the_scores_traffic() {
        let shape = korthikanti_22b();
        let mut w = Walls {
            shape,
            kernels: Some(HalfLengths::H100_BF16),
            hbm_bytes_per_s: 2.039e12,
            gemm_flops_per_s: 240e12,
            dropout: true,
            ..gpt3()
        };
        w.memory.activations.flash_attention = false;
        w.memory.activations.sequence_parallel = true;
        let layout = TP8_ALONE;
        let p_a = 22_372_417_536.0;
        assert_eq!(shape.active_params(), p_a);
        let share = w.selective_recompute_share(&layout, 8192.0, p_a);
        assert!((share - 0.080_952_256_5).abs() < 1e-9, "{share}");
        let plain = Walls { kernels: None, ..w };
        let f_s = 4.0 * 2048.0 * 6144.0 * 48.0 / 141_482_262_528.0;
        assert!((plain.selective_recompute_share(&layout, 8192.0, p_a) - f_s).abs() < 1e-15);
        let mut flash = w;
        flash.memory.activations.flash_attention = true;
        assert_eq!(flash.selective_recompute_share(&layout, 8192.0, p_a), 0.0);
        // A shape with no layers and no vocabulary has no FLOPs of its own: no traffic, and
        // no NaN from the bytes a FLOP.
        let empty = Walls {
            shape: Shape {
                layers: 0.0,
                vocab: 0.0,
                ..shape
            },
            ..w
        };
        assert_eq!(empty.selective_recompute_share(&layout, 8192.0, p_a), 0.0);
    }

    /// The optimizer's step by hand: Korthikanti et al.'s 22B on TP 8 without data
    /// parallelism, `Ψ` = 22,372,417,536/8 = 2,796,552,192 parameters, each `3·4 + 2·12 + 6` =
    /// 42 bytes with fp32 main gradients: 117,455,192,064 B at 0.9 of 2.039 TB/s, 64.004791 ms.
    /// ZeRO 1 over 16 data-parallel ranks (128 GPUs) steps a sixteenth: 4.000299 ms; ZeRO 0
    /// steps all of it at any count. No machine, no time.
    #[test]
    fn optimizer_step_is_memory_bound() {
        let shape = korthikanti_22b();
        let mut w = Walls {
            shape,
            hbm_bytes_per_s: 2.039e12,
            ..gpt3()
        };
        w.memory.zero = 0;
        w.memory.gradient_bytes_per_param = 4.0;
        w.memory.optimizer_bytes_per_param = 12.0;
        let layout = TP8_ALONE;
        let p = 22_372_417_536.0;
        let ms = w.optimizer_step_ms(&layout, p, 8.0);
        assert!((ms - 64.004_791_054).abs() < 1e-8, "{ms}");
        assert!((w.optimizer_step_ms(&layout, p, 128.0) - ms).abs() < 1e-12);
        w.memory.zero = 1;
        let sharded = w.optimizer_step_ms(&layout, p, 128.0);
        assert!((sharded - 4.000_299_441).abs() < 1e-8, "{sharded}");
        // The weights the master (PyTorch FSDP): 3·4 + 2·12 = 36 bytes, 6/7 of the time.
        w.memory.master_in_weights = true;
        let in_place = w.optimizer_step_ms(&layout, p, 128.0);
        assert!(
            (in_place - 4.000_299_441 * 36.0 / 42.0).abs() < 1e-8,
            "{in_place}"
        );
        let none = Walls {
            hbm_bytes_per_s: 0.0,
            ..w
        };
        assert_eq!(none.optimizer_step_ms(&layout, p, 128.0), 0.0);
    }

    /// Pipeline sends of the fill and drain (the review's golden, Meta's layout): TP 8 ·
    /// PP 16, interleaved ×8, one 8,192-token sequence a microbatch; 128 GPUs a pipeline, past
    /// the NVLink domain, so 50 GB/s. t₁ = 8,192 · 16,384 · 2/8 B / 50e9 = 0.67108864 ms;
    /// 2·(16·8 − 1) = 254 sends: 170.45651456 ms. With α = 5 µs a send: + 254 · 0.005 ms.
    /// Without interleaving 2·(16 − 1) = 30 sends. GPT-3 on TP 2 · PP 4 (8 GPUs, inside the
    /// domain, 400 GB/s), 2,048 tokens: 2·3 sends of 2,048 · 12,288 · 2/2 B = 6 · 0.06291456
    /// = 0.37748736 ms.
    #[test]
    fn pipeline_sends_of_the_fill_and_drain() {
        let llama = Walls {
            shape: crate::shape::LLAMA3_405B,
            ..gpt3()
        };
        let meta = Layout {
            tp: 8,
            pp: 16,
            cp: 1,
            accumulation: 16,
        };
        let t = llama.traffic(&meta, 50e9, 8192.0, 5000.0, 8);
        assert!((t.pp_ms - 170.456_514_56).abs() < 1e-9, "{}", t.pp_ms);
        let t = llama.traffic(&meta, 50e9, 8192.0, 5000.0, 1);
        assert!((t.pp_ms - 30.0 * 0.671_088_64).abs() < 1e-9, "{}", t.pp_ms);
        let slow = Walls {
            latency_s: 5e-6,
            ..llama
        };
        let t = slow.traffic(&meta, 50e9, 8192.0, 5000.0, 8);
        assert!((t.pp_ms - (170.456_514_56 + 254.0 * 0.005)).abs() < 1e-9);
        let small = Layout {
            tp: 2,
            pp: 4,
            cp: 1,
            accumulation: 8,
        };
        let t = gpt3().traffic(&small, 50e9, 2048.0, 1000.0, 1);
        assert!((t.pp_ms - 0.377_487_36).abs() < 1e-12, "{}", t.pp_ms);
        assert!(gpt3().traffic(&LAYOUT, 50e9, 2048.0, 1000.0, 1).pp_ms > 0.0);
        let flat = Layout { pp: 1, ..small };
        assert_eq!(gpt3().traffic(&flat, 50e9, 2048.0, 1000.0, 4).pp_ms, 0.0);
    }

    /// Llama 3 70B (80 layers, `h` 8,192, SwiGLU 28,672), one 16,384-token microbatch, TP 1,
    /// no sequence parallelism, flash attention: a layer keeps `(18 + 4·28,672/8,192)·sbh =
    /// 32·16,384·8,192` = 4,294,967,296 B. Over NVLink-C2C at 368 GB/s a copy takes
    /// 11.671106783 ms. With 2,400 ms of compute a layer's pass is 30 ms: the forward's
    /// 10 ms leave 1.671106783 ms exposed, the backward's 20 hide the fetch; 20 layers
    /// offloaded: 33.422135652 ms. At 55.4 GB/s (PCIe 5) a copy is 77.526485487 ms, so
    /// 67.526485487 and 57.526485487 stay exposed: 125.052970975 ms a layer, 2,501.059419495
    /// ms for 20. A pipeline, full recomputation or no host link: none.
    #[test]
    fn offloaded_activations_cost_what_a_layer_does_not_hide() {
        let mut walls = gpt3();
        walls.shape = crate::shape::LLAMA3_70B;
        walls.memory.activations = ActivationSettings {
            recompute: Recompute::None,
            sequence_parallel: false,
            flash_attention: true,
            recompute_layers: 0,
            offload_layers: 20,
        };
        walls.host_bytes_per_s = 368e9;
        let one = Layout {
            tp: 1,
            pp: 1,
            cp: 1,
            accumulation: 1,
        };
        let close = |a: f64, b: f64| assert!((a - b).abs() < 1e-6, "{a} against {b}");
        close(walls.offload_ms(&one, 16384.0, 2400.0), 33.422135652);
        // Two microbatches of the same size: twice the copies, the same window each.
        let two = Layout {
            accumulation: 2,
            ..one
        };
        close(walls.offload_ms(&two, 16384.0, 4800.0), 2.0 * 33.422135652);
        walls.host_bytes_per_s = 55.4e9;
        close(walls.offload_ms(&one, 16384.0, 2400.0), 2501.059419495);
        // CP 2 halves a rank's tokens: 2,147,483,648 B, a 38.763242744 ms copy, 28.763242744
        // + 18.763242744 exposed, 950.529709748 ms for 20 layers.
        let halves = Layout { cp: 2, ..one };
        close(walls.offload_ms(&halves, 16384.0, 2400.0), 950.529709748);
        // Without flash attention a layer also keeps the scores, `5·a·s/h` with `s` the
        // rank's 4,096 tokens: sbh·(32 + 5·64·4,096/8,192) = 67,108,864 · 192 =
        // 12,884,901,888 B; at 368 GB/s 35.013320348 ms, 25.013320348 + 15.013320348
        // exposed, 800.532813913 ms.
        walls.host_bytes_per_s = 368e9;
        walls.memory.activations.flash_attention = false;
        close(walls.offload_ms(&halves, 16384.0, 2400.0), 800.532813913);
        walls.memory.activations.flash_attention = true;
        walls.host_bytes_per_s = 55.4e9;
        assert_eq!(
            walls.offload_ms(&Layout { pp: 2, ..one }, 16384.0, 2400.0),
            0.0
        );
        walls.host_bytes_per_s = 0.0;
        assert_eq!(walls.offload_ms(&one, 16384.0, 2400.0), 0.0);
        walls.host_bytes_per_s = 368e9;
        walls.memory.activations.recompute = Recompute::Full;
        assert_eq!(walls.offload_ms(&one, 16384.0, 2400.0), 0.0);
    }
}
