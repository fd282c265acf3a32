//! A table as shown under a chart, and its text forms: aligned text (terminal), CSV, Markdown.

use crate::i18n::tr;
use serde::Serialize;

/// A table as shown under a chart: headers and formatted cells.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Stable id (`laws-speedup`): the page shows it in `#<id>-table`; file names use it.
    pub id: &'static str,
    pub caption: String,
    pub headers: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The columns that hold words or marks (a lever's name, ✓, a cost), aligned left where
    /// every other column holds numbers, aligned right. Decided here, by whoever builds the
    /// table, so the page, Markdown and the terminal align alike.
    #[serde(skip)]
    pub text_columns: &'static [usize],
}

impl Table {
    /// Plain text with aligned columns (numbers right-aligned), for the terminal.
    pub fn to_text(&self) -> String {
        let columns = self.headers.len();
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate().take(columns) {
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let line = |cells: &[String]| {
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    if self.text_columns.contains(&i) {
                        format!("{:<w$}", c, w = widths[i])
                    } else {
                        format!("{:>w$}", c, w = widths[i])
                    }
                })
                .collect::<Vec<_>>()
                .join("  ")
        };
        let mut out = format!("{}\n{}\n", self.caption, line(&self.headers));
        out.push_str(
            &widths
                .iter()
                .map(|w| "-".repeat(*w))
                .collect::<Vec<_>>()
                .join("  "),
        );
        out.push('\n');
        for row in &self.rows {
            out.push_str(&line(row));
            out.push('\n');
        }
        out
    }

    /// RFC 4180 CSV (fields with `,`, `"` or newlines quoted).
    pub fn to_csv(&self) -> String {
        let field = |s: &String| {
            if s.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.clone()
            }
        };
        let mut out = String::new();
        for row in std::iter::once(&self.headers).chain(&self.rows) {
            out.push_str(&row.iter().map(field).collect::<Vec<_>>().join(","));
            out.push_str("\r\n");
        }
        out
    }

    /// A GitHub-flavoured Markdown table (pipes escaped).
    pub fn to_markdown(&self) -> String {
        let cell = |s: &String| s.replace('|', "\\|");
        let mut out = format!(
            "| {} |\n|{}|\n",
            self.headers
                .iter()
                .map(cell)
                .collect::<Vec<_>>()
                .join(" | "),
            self.headers
                .iter()
                .enumerate()
                .map(|(i, _)| if i == 0 || self.text_columns.contains(&i) {
                    "---"
                } else {
                    "---:"
                })
                .collect::<Vec<_>>()
                .join("|")
        );
        for row in &self.rows {
            out.push_str(&format!(
                "| {} |\n",
                row.iter().map(cell).collect::<Vec<_>>().join(" | ")
            ));
        }
        out
    }
}

/// Column headers in the thread's language.
pub(crate) fn tr_headers(pairs: &[(&'static str, &'static str)]) -> Vec<String> {
    pairs
        .iter()
        .map(|(en, zh)| tr(en, zh).to_string())
        .collect()
}
