//! Why an input or a link was not accepted.

use super::*;

/// Why one input was not accepted. The message names the input and the problem.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    pub key: Key,
    /// The text as given (clipped when shown).
    pub input: String,
    pub reason: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // In Chinese, the label the page shows next to the input.
        let label = if crate::i18n::zh() {
            self.key.label_zh()
        } else {
            None
        };
        let name = label.unwrap_or(self.key.label());
        if crate::i18n::zh() {
            write!(f, "{}（{}）：{}", name, self.key.name(), self.reason)
        } else {
            write!(f, "{} ({}): {}", name, self.key.name(), self.reason)
        }
    }
}

impl std::error::Error for InputError {}

/// A problem found while reading a URL.
#[derive(Debug, Clone, PartialEq)]
pub enum UrlError {
    Input(InputError),
    /// `v=` names a format this build does not know.
    UnknownVersion(String),
    /// `preset=` names no built-in scenario.
    UnknownPreset(String),
    /// The query was longer than [`MAX_QUERY_BYTES`] and was cut.
    TooLong {
        bytes: usize,
    },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlError::Input(e) => write!(f, "{e}"),
            UrlError::UnknownVersion(v) => f.write_str(&trf!(
                "Link version “{0}”: this page reads v={1}; values were read as v={1}",
                "链接版本 “{0}”：本页读取 v={1}；各值已按 v={1} 读取",
                clip(v),
                URL_VERSION
            )),
            UrlError::UnknownPreset(p) => f.write_str(&trf!(
                "Preset “{}” does not exist (known: {}); using the defaults",
                "预设 “{}” 不存在（已有：{}）；改用默认值",
                clip(p),
                Preset::ALL
                    .iter()
                    .map(|p| p.name())
                    .collect::<Vec<_>>()
                    .join(crate::text::list_sep())
            )),
            UrlError::TooLong { bytes } => f.write_str(&trf!(
                "The link is {} bytes long; only the first {} were read",
                "链接长 {} 字节；只读取了前 {} 字节",
                bytes,
                MAX_QUERY_BYTES
            )),
        }
    }
}
