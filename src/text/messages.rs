//! The model's typed errors and named choices as text in the thread's language. The model
//! returns numbers and enums; these turn them into what a reader sees, at display time.

use super::units::{clip, format_sig};
use crate::i18n::tr;
use crate::model::fit::FitError;
use crate::model::levers::Lever;
use crate::model::measured::{MeasuredError, MAX_POINTS};
use crate::model::step::StepError;

/// A measured-points error (`mp=`, `st=`) as a sentence in the thread's language.
pub fn measured_error(error: &MeasuredError) -> String {
    {
        match error {
            MeasuredError::BadNumber { item } => {
                trf!("“{}” is not a number", "“{}” 不是数字", clip(item))
            }
            MeasuredError::OddCount { count } => trf!(
                "expected pairs “N value”, got {} numbers (an odd count)",
                "应为成对的 “N 值”，却得到 {} 个数（奇数个）",
                count
            ),
            MeasuredError::ProcessorsOutOfRange { processors } => trf!(
                "N = {} is outside 1 … 2^30",
                "N = {} 超出 1 … 2^30 的范围",
                format_sig(*processors, 6)
            ),
            MeasuredError::NonPositiveValue { processors, value } => trf!(
                "the value at N = {} must be 1e-9 … 1e15, got {}",
                "N = {} 处的值必须在 1e-9 … 1e15 之间，实际为 {}",
                format_sig(*processors, 6),
                format_sig(*value, 6)
            ),
            MeasuredError::NotIncreasing { processors } => trf!(
                "N must increase from pair to pair; N = {} comes out of order or twice",
                "N 必须逐对递增；N = {} 顺序不对或重复",
                format_sig(*processors, 6)
            ),
            MeasuredError::TooMany { count } => trf!(
                "{} pairs is more than the {} allowed",
                "{} 对超过允许的 {} 对",
                count,
                MAX_POINTS
            ),
        }
    }
}

/// A step-table error as a sentence in the thread's language.
pub fn step_error(error: &StepError) -> String {
    {
        match error {
            StepError::TooFewPoints => tr(
                "needs at least two points to interpolate",
                "至少需要两个点才能插值",
            )
            .to_string(),
            StepError::Unsorted { gpus } => {
                format!(
                    "N must increase from point to point; N = {} is out of order",
                    format_sig(*gpus, 6)
                )
            }
        }
    }
}

/// The lever's name in the thread's language.
pub fn lever_label(lever: Lever) -> &'static str {
    match lever {
        Lever::NvlinkDomain => tr(
            "FSDP group inside the NVLink domain (hierarchical AllGather)",
            "FSDP group 收进 NVLink 域（层次化 AllGather）",
        ),
        Lever::ExpertParallel => tr(
            "EP moves tokens instead of FSDP moving expert weights",
            "用 EP 搬 token，代替 FSDP 搬专家权重",
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
pub fn lever_cost(lever: Lever) -> &'static str {
    match lever {
            Lever::NvlinkDomain => tr(
                "parameters are sharded over the NVLink domain's nvd/TP data-parallel ranks instead of \
                 all D (HSDP), so each GPU holds TP/nvd of its weights and optimizer state, not 1/D",
                "参数只在 NVLink 域内的 nvd/TP 个数据并行 rank 上分片（HSDP），每卡持有权重和优化器状态的 TP/nvd 而不是 1/D",
            ),
            Lever::ExpertParallel => tr(
                "each rank holds its experts unsharded (P_expert/EP), plus all-to-all token traffic \
                 that this model does not charge",
                "每个 rank 完整持有自己的专家（P_expert/EP），另有本模型未计入的 all-to-all token 通信",
            ),
            Lever::NoReshard => tr(
                "the gathered parameters stay in memory from forward to backward: + s_param·P/(TP·PP) \
                 bytes per GPU (2 bytes per parameter in bf16); the saving assumes the remaining \
                 transfers still overlap with compute across the forward and backward phases",
                "已 gather 的权重从前向保留到反向：每卡多 s_param·P/(TP·PP) 字节（bf16 为每参数 2 字节）；\
                 这一收益假设剩下的通信仍能跨前向和反向阶段与计算重叠",
            ),
            Lever::Fp8Comm => tr(
                "parameters are all-gathered in fp8, gradients still reduce-scattered in bf16: \
                 T_crit × 2/3 at c = 3 (× 1/2 only if gradients went fp8 too); no extra memory; \
                 fp8 casting and its numerical risk",
                "参数以 FP8 做 all-gather，梯度仍以 BF16 做 reduce-scatter：c = 3 时 T_crit × 2/3\
                 （只有梯度也用 FP8 才是 × 1/2）；不额外占显存；需要 FP8 转换，有数值风险",
            ),
            Lever::ZeroBubble => tr(
                "more activations in flight (ZB-H2 keeps about twice 1F1B's peak activation memory)",
                "在途激活更多（ZB-H2 的峰值激活显存约为 1F1B 的两倍）",
            ),
        }
}

/// Why `em=fit` cannot fit, as a sentence in the thread's language.
pub fn fit_error(error: &FitError) -> String {
    {
        match error {
            FitError::TooFewPoints { count } => trf!(
                "em=fit needs at least two measured (N, step ms) points at the same global batch; st has {}",
                "em=fit 至少需要两个同一 global batch 下实测的 (N, step ms) 点；st 只有 {} 个",
                count
            ),
            FitError::NotFalling { gpus } => trf!(
                "em=fit needs step times that fall as N grows; at N = {} the step time does not fall",
                "em=fit 要求单步时间随 N 增大而下降；在 N = {} 处没有下降",
                format_sig(*gpus, 6)
            ),
            FitError::NegativeWork => tr(
                "em=fit: the points give no part of the step that shrinks with N",
                "em=fit：这些点里没有随 N 缩小的部分",
            ).to_string(),
            FitError::NegativeConstant { constant_ms } => trf!(
                "em=fit: the points fall faster than 1/N (the constant part K would be {} ms, below 0); check that they share one global batch",
                "em=fit：这些点下降得比 1/N 还快（常数部分 K 将为 {} ms，小于 0）；请确认它们使用同一个 global batch",
                format_sig(*constant_ms, 4)
            ),
            FitError::WeakStepFalls { per_doubling_ms } => trf!(
                "em=fit: at the same tokens per GPU (st with @B) the step time falls as GPUs are added (exposed time per doubling of replicas would be {} ms, below 0)",
                "em=fit：每卡 tokens 相同时（st 带 @B），单步时间随卡数增加而下降（每翻倍副本的暴露时间将为 {} ms，小于 0）",
                format_sig(*per_doubling_ms, 4)
            ),
        }
    }
}
