//! The levers that push the strong-scaling wall back by lowering `T_crit` (MODEL.md §3 table;
//! the seed's "怎么把 Strong Scaling 的墙往后推"). Each lever is a change of model inputs; its
//! effect follows from `T_crit = (c·s_w/6)·(F_eff/B_eff)·(P/P_a)·CP` and the step-time model.

use super::llm::LlmInputs;
use super::step::PipelineSchedule;
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
