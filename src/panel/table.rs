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
    pub text_columns: Vec<usize>,
    /// The numbers behind the cells, row by row (NaN for words, marks and "–"): what the
    /// comparison's Δ rows are computed from ([`Table::compare`]).
    #[serde(skip)]
    pub values: Vec<Vec<f64>>,
}

/// A signed percent: `+4.2%`, `-24.3%`, `0%`.
pub(crate) fn signed_percent(e: f64, digits: usize) -> String {
    let text = crate::text::units::format_percent(e, digits);
    if text.starts_with('-') || text == "0%" {
        text
    } else {
        format!("+{text}")
    }
}

impl Table {
    /// This table (scenario B) compared with the same table of a pinned scenario A: each row
    /// becomes B's row, A's row with the same first cell and a Δ row with B/A − 1 per number,
    /// under a first column saying B, A or Δ; "—" where A has no such row, or other columns
    /// (a different count of `fs` values, the tokens-per-GPU column of only one), or where a
    /// cell holds no number.
    pub fn compare(&self, a: Option<&Table>) -> Table {
        let a = a.filter(|a| a.headers.len() == self.headers.len());
        let value = |t: &Table, i: usize, j: usize| {
            t.values
                .get(i)
                .and_then(|r| r.get(j))
                .copied()
                .unwrap_or(f64::NAN)
        };
        let mut rows = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            let k = a.and_then(|a| Some((a, a.rows.iter().position(|r| r[0] == row[0])?)));
            let (mut ra, mut rd) = (vec!["A".to_string()], vec!["Δ".to_string()]);
            for j in 0..row.len() {
                let (mut cell, mut d) = ("—".to_string(), "—".to_string());
                if let Some((a, k)) = k {
                    cell = a.rows[k][j].clone();
                    let r = value(self, i, j) / value(a, k, j) - 1.0;
                    if r.is_finite() {
                        d = signed_percent(r, 1);
                    }
                }
                if j == 0 {
                    (cell, d) = (row[0].clone(), row[0].clone());
                }
                ra.push(cell);
                rd.push(d);
            }
            let mut rb = vec!["B".to_string()];
            rb.extend(row.iter().cloned());
            rows.extend([rb, ra, rd]);
        }
        let mut headers = vec![tr("scenario", "场景").to_string()];
        headers.extend(self.headers.iter().cloned());
        let mut text_columns = vec![0];
        text_columns.extend(self.text_columns.iter().map(|c| c + 1));
        Table {
            id: self.id,
            caption: self.caption.clone(),
            headers,
            rows,
            text_columns,
            values: Vec::new(),
        }
    }

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
