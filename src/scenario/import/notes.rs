//! The reasons several formats give for the same key, written once: a GELU MLP's width, tied
//! embeddings, precision, the position limit, the tokenizer, vocabulary padding and the
//! accumulation steps; and the MLP width a format's `ffn` key sets.

use crate::i18n::tr;
#[cfg(feature = "yaml")]
use {super::Outcome, crate::scenario::Key};

pub(crate) fn gelu_width() -> &'static str {
    tr(
        "a GELU MLP of width w ≠ 4h: a gated MLP of 2w/3 has its weights and FLOPs",
        "宽度 w ≠ 4h 的 GELU MLP：按宽 2w/3 的门控 MLP 计，权重与 FLOPs 相同",
    )
}

pub(crate) fn tied() -> &'static str {
    tr(
        "input and output embeddings are one matrix; the shape counts V·h twice",
        "输入与输出 embedding 共用一个矩阵；形状按两份 V·h 计",
    )
}

pub(crate) fn precision() -> &'static str {
    tr(
        "precision: set peak and s_w for it",
        "未读取精度设置，请相应设置 peak 与 s_w",
    )
}

pub(crate) fn positions() -> &'static str {
    tr(
        "the longest position the model accepts, not the training sequence length",
        "模型可接受的最长位置，不是训练序列长度",
    )
}

pub(crate) fn tokenizer() -> &'static str {
    tr(
        "the tokenizer sets V: type voc, the model card's vocab_size (Llama 3 128,256, Mixtral 32,000, GPT-2 50,257)",
        "词表大小 V 由 tokenizer 决定：请输入 voc，即模型卡中的 vocab_size（Llama 3 为 128,256，Mixtral 为 32,000，GPT-2 为 50,257）",
    )
}

#[cfg(feature = "yaml")]
pub(crate) fn vocabulary_padding() -> &'static str {
    tr(
        "pads the vocabulary to a multiple of this (times TP); voc is the vocabulary as typed",
        "把词表补齐到它（乘以 TP）的整数倍；voc 取输入的词表大小",
    )
}

pub(crate) fn accumulation() -> &'static str {
    tr(
        "the accumulation steps follow from b, mbs and the data-parallel GPUs",
        "梯度累积步数由 b、mbs 与数据并行 GPU 数决定",
    )
}

/// What an MLP of width `w` sets: `ffn = w` when gated; a GELU MLP of `4h` is `ffn = 0`
/// (GPT's), and of another width a gated MLP of `2w/3` (the same weights and FLOPs).
#[cfg(feature = "yaml")]
pub(crate) fn mlp_width(w: u64, hidden: Option<u64>, gated: bool) -> Outcome {
    match hidden {
        _ if gated => Outcome::Set(Key::Ffn, w.to_string()),
        Some(h) if w == 4 * h => Outcome::Set(Key::Ffn, "0".into()),
        _ => Outcome::Approximated(Some(Key::Ffn), (2 * w / 3).to_string(), gelu_width()),
    }
}

#[cfg(all(test, feature = "yaml"))]
mod tests {
    use super::*;

    #[test]
    fn mlp_widths() {
        assert_eq!(
            mlp_width(28_672, Some(8_192), true),
            Outcome::Set(Key::Ffn, "28672".into())
        );
        assert_eq!(
            mlp_width(16_384, Some(4_096), false),
            Outcome::Set(Key::Ffn, "0".into())
        );
        assert_eq!(
            mlp_width(12_000, Some(4_096), false),
            Outcome::Approximated(Some(Key::Ffn), "8000".into(), gelu_width())
        );
        assert_eq!(
            mlp_width(12_000, None, false),
            Outcome::Approximated(Some(Key::Ffn), "8000".into(), gelu_width())
        );
    }
}
