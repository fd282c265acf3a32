//! The levers that push the strong-scaling wall back by lowering `T_crit` (MODEL.md §3 table;
//! the seed's "怎么把 Strong Scaling 的墙往后推"). Each lever is a change of model inputs; its
//! effect follows from `T_crit = (c·s_w/6)·(F_eff/B_eff)·(P/P_a)·CP` and the step-time model.

use super::llm::LlmInputs;
use super::step::PipelineSchedule;
use crate::i18n::tr;
use serde::Serialize;

/// One lever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lever {
    /// FSDP group inside the NVLink domain / hierarchical AllGather: `B_eff` becomes the
    /// NVLink bus bandwidth.
    NvlinkDomain,
    /// Expert parallelism moves tokens instead of FSDP moving expert weights: FSDP moves only
    /// the parameters every token uses, `P → P_a` (an approximation: the dense part plus the
    /// experts a rank holds).
    ExpertParallel,
    /// `reshard_after_forward=False` / parameters kept unsharded across accumulation
    /// microbatches: one AllGather fewer, `c: 3 → 2`.
    NoReshard,
    /// fp8 parameter communication: `s_w → 1` byte (half of bf16).
    Fp8Comm,
    /// A zero-bubble pipeline schedule instead of 1F1B.
    ZeroBubble,
}

impl Lever {
    pub const ALL: [Lever; 5] = [
        Lever::NvlinkDomain,
        Lever::ExpertParallel,
        Lever::NoReshard,
        Lever::Fp8Comm,
        Lever::ZeroBubble,
    ];

    /// The lever's name in the URL (`lv=`) and on the CLI.
    pub fn key(self) -> &'static str {
        match self {
            Lever::NvlinkDomain => "nvlink",
            Lever::ExpertParallel => "ep",
            Lever::NoReshard => "noreshard",
            Lever::Fp8Comm => "fp8",
            Lever::ZeroBubble => "zb",
        }
    }

    pub fn from_key(key: &str) -> Option<Lever> {
        Lever::ALL.into_iter().find(|l| l.key() == key.trim())
    }

    pub fn label(self) -> &'static str {
        match self {
            Lever::NvlinkDomain => tr(
                "FSDP group inside the NVLink domain (hierarchical AllGather)",
                "FSDP group 收进 NVLink 域（层次化 AllGather）",
            ),
            Lever::ExpertParallel => tr(
                "EP moves tokens instead of FSDP moving expert weights",
                "用 EP 搬 token 代替 FSDP 搬 expert 权重",
            ),
            Lever::NoReshard => tr(
                "reshard_after_forward=False (params unsharded across microbatches)",
                "reshard_after_forward=False（参数跨 microbatch 保持 unshard）",
            ),
            Lever::Fp8Comm => tr("fp8 parameter communication", "FP8 参数通信"),
            Lever::ZeroBubble => tr("zero-bubble pipeline schedule", "零气泡流水线调度"),
        }
    }

    /// What the lever costs, in memory or otherwise (the seed: the last two rows trade peak
    /// memory for communication; strong scaling frees activation memory as `T` falls).
    pub fn cost(self) -> &'static str {
        match self {
            Lever::NvlinkDomain => tr(
                "parameters are sharded over the NVLink domain (e.g. 8 GPUs) instead of all DP ranks \
                 (HSDP), so each GPU holds P/8 of the weights and optimizer state rather than P/D",
                "参数只在 NVLink 域内（如 8 卡）分片（HSDP），每卡持有 P/8 而不是 P/D 的权重和优化器状态",
            ),
            Lever::ExpertParallel => tr(
                "each rank holds its experts unsharded (P_expert/EP), plus all-to-all token traffic \
                 that this model does not charge",
                "每个 rank 完整持有自己的 expert（P_expert/EP），另有本模型未计入的 all-to-all token 通信",
            ),
            Lever::NoReshard => tr(
                "the gathered parameters stay in memory from forward to backward: + s_param·P/(TP·PP) \
                 bytes per GPU (2 bytes per parameter in bf16)",
                "gather 后的参数从前向保留到反向：每卡多 s_param·P/(TP·PP) 字节（bf16 为每参数 2 字节）",
            ),
            Lever::Fp8Comm => tr(
                "no extra memory; fp8 casting and its numerical risk",
                "不额外占显存；需要 FP8 转换，有数值风险",
            ),
            Lever::ZeroBubble => tr(
                "more activations in flight (ZB-H2 keeps about twice 1F1B's peak activation memory)",
                "在途激活更多（ZB-H2 的峰值激活显存约为 1F1B 的两倍）",
            ),
        }
    }

    /// Applies levers to model inputs. With a tabulated or measured exposed time (which the
    /// levers' inputs do not enter), the exposed time is scaled by the levers' effect on
    /// communication time, `T_crit` after / before (see [`LlmInputs::exposed_scale`]).
    pub fn apply_all(levers: &[Lever], inputs: &mut LlmInputs, nvlink_bytes_per_s: f64) {
        let before = inputs.t_crit_tokens();
        for lever in levers {
            lever.apply(inputs, nvlink_bytes_per_s);
        }
        inputs.exposed_scale *= inputs.t_crit_tokens() / before;
    }

    /// Applies the lever to model inputs. `nvlink_bytes_per_s` is the NVLink bus bandwidth the
    /// NVLink-domain lever switches to.
    pub fn apply(self, inputs: &mut LlmInputs, nvlink_bytes_per_s: f64) {
        match self {
            Lever::NvlinkDomain => {
                inputs.comm.bus_bytes_per_s = inputs.comm.bus_bytes_per_s.max(nvlink_bytes_per_s)
            }
            Lever::ExpertParallel => inputs.total_params = inputs.active_params,
            Lever::NoReshard => inputs.comm.gathers = inputs.comm.gathers.min(2.0),
            Lever::Fp8Comm => {
                inputs.comm.wire_bytes_per_param = inputs.comm.wire_bytes_per_param.min(1.0)
            }
            Lever::ZeroBubble => inputs.comm.schedule = PipelineSchedule::ZeroBubble,
        }
    }
}
