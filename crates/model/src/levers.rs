//! The levers that push the strong-scaling wall back by lowering `T_crit` (MODEL.md §3 table;
//! the seed's "怎么把 Strong Scaling 的墙往后推"). Each lever is a change of model inputs; its
//! effect follows from `T_crit = (b_w/6)·(F_eff/B_eff)·(P/P_a)·CP`, `b_w = (c − 1)·s_g + s_w`
//! bytes per parameter per microbatch, and the step-time model.

use super::llm::LlmInputs;
use super::step::PipelineSchedule;
use serde::Serialize;

/// One lever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lever {
    /// FSDP group inside the NVLink domain / hierarchical AllGather (HSDP): `B_eff` becomes the
    /// NVLink bus bandwidth, and with a shape the model states are sharded over the domain's
    /// `nvd/TP` data-parallel ranks only, so each GPU holds more of them.
    NvlinkDomain,
    /// Expert parallelism moves tokens instead of FSDP moving expert weights: FSDP moves only
    /// the parameters every token uses, `P → P_a` (an approximation: the dense part plus the
    /// experts a rank holds).
    ExpertParallel,
    /// `reshard_after_forward=False` / parameters kept unsharded across accumulation
    /// microbatches: one AllGather fewer, `c: 3 → 2`. The saving assumes the remaining
    /// transfers still overlap with compute across the forward and backward phases (the model
    /// charges communication against the whole microbatch's compute).
    NoReshard,
    /// fp8 parameter communication: the parameter all-gathers move 1 byte per parameter
    /// (`s_g → 1`); the gradients' reduce-scatter keeps `s_w`. At `c = 3`, bf16:
    /// `b_w = 2·1 + 2 = 4` instead of 6, `T_crit × 2/3` (× 1/2 only if gradients went fp8 too).
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
            // HSDP: the parameters' all-gather stays inside the NVLink domain, and so do
            // the shards: each GPU holds the model states of its domain's group, not of all
            // data-parallel ranks (with a shape; `MemorySettings::shard_group_gpus`).
            Lever::NvlinkDomain => {
                inputs.comm.bus_bytes_per_s = inputs.comm.bus_bytes_per_s.max(nvlink_bytes_per_s);
                if let Some(walls) = inputs.walls.as_mut() {
                    walls.memory.shard_group_gpus = Some(walls.nvlink_domain_gpus);
                }
            }
            // What FSDP moves, not what memory holds: every expert is still on some GPU.
            Lever::ExpertParallel => {
                inputs.held_params.get_or_insert(inputs.total_params);
                inputs.total_params = inputs.active_params
            }
            Lever::NoReshard => inputs.comm.gathers = inputs.comm.gathers.min(2.0),
            // Parameters are all-gathered in fp8; the gradients' reduce-scatter keeps its
            // precision (fp8 gradients are a different, riskier change).
            Lever::Fp8Comm => {
                inputs.comm.gather_bytes_per_param = inputs.comm.gather_bytes_per_param.min(1.0)
            }
            Lever::ZeroBubble => inputs.comm.schedule = PipelineSchedule::ZeroBubble,
        }
    }
}
