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
    /// The columns a narrow screen may fold away (ideal time, T/T_crit, the compute and
    /// exposed split…): the page marks their cells `minor` and, below the width at which the
    /// whole table fits, shows them only when the reader asks for every column. The terminal,
    /// CSV, Markdown and print show every column.
    #[serde(skip)]
    pub minor_columns: Vec<usize>,
    /// When the minor columns are folded away, words the reader still needs from them, row
    /// by row, shown in one key column's cells: the explorer's schedule, ZeRO stage and
    /// recomputation under each layout's name (rows of one name differ in them).
    #[serde(skip)]
    pub fold: Option<(usize, Vec<String>)>,
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

/// A signed difference in percentage points of two fractions: `+6 pts`, `-1.2 pts`, `0 pts`
/// (`个百分点` in Chinese): an efficiency or an MFU compared as B/A − 1 reads as a relative
/// change of a percentage ("+34.4%" for 17.5% → 23.6%), which a reader takes for points.
fn signed_points(b: f64, a: f64) -> String {
    let points = crate::text::units::format_sig((b - a) * 100.0, 3);
    let sign = if points.starts_with('-') || points == "0" {
        ""
    } else {
        "+"
    };
    trf!("{}{} pts", "{}{} 个百分点", sign, points)
}

impl Table {
    /// This table (scenario B) compared with the same table of a pinned scenario A: each row
    /// becomes B's row, A's row with the same first cell and a Δ row with B/A − 1 per number
    /// (the difference in points where both cells are percentages: efficiency, MFU),
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
        let mut folds = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            let k = a.and_then(|a| Some((a, a.rows.iter().position(|r| r[0] == row[0])?)));
            let (mut ra, mut rd) = (vec!["A".to_string()], vec!["Δ".to_string()]);
            for j in 0..row.len() {
                let (mut cell, mut d) = ("—".to_string(), "—".to_string());
                if let Some((a, k)) = k {
                    cell = a.rows[k][j].clone();
                    let (vb, va) = (value(self, i, j), value(a, k, j));
                    let r = vb / va - 1.0;
                    let percentages = cell.ends_with('%') && row[j].ends_with('%');
                    if percentages && (vb - va).is_finite() {
                        d = signed_points(vb, va);
                    } else if r.is_finite() {
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
            // Without A's table (A has no explorer, or another shape of table) its rows would
            // be dashes under every B row: B's rows alone say more.
            if a.is_some() {
                rows.extend([rb, ra, rd]);
                if let Some((_, f)) = &self.fold {
                    let of_a = k.and_then(|(a, k)| a.fold.as_ref()?.1.get(k).cloned());
                    folds.extend([f[i].clone(), of_a.unwrap_or_default(), String::new()]);
                }
            } else {
                rows.push(rb);
                if let Some((_, f)) = &self.fold {
                    folds.push(f[i].clone());
                }
            }
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
            minor_columns: self.minor_columns.iter().map(|c| c + 1).collect(),
            fold: self.fold.as_ref().map(|(c, _)| (c + 1, folds)),
            values: Vec::new(),
        }
    }

    /// The class of column `i`'s cells on the page: `text` for words and marks (aligned
    /// left), `minor` for a column a narrow screen folds away, both, or none.
    pub fn column_class(&self, i: usize) -> &'static str {
        match (
            self.text_columns.contains(&i),
            self.minor_columns.contains(&i),
        ) {
            (true, true) => "text minor",
            (true, false) => "text",
            (false, true) => "minor",
            (false, false) => "",
        }
    }

    /// The folded words of row `row` in column `column` ([`Table::fold`]), if any.
    pub fn folded(&self, row: usize, column: usize) -> Option<&str> {
        match &self.fold {
            Some((c, folds)) if *c == column => folds.get(row).map(String::as_str),
            _ => None,
        }
        .filter(|f| !f.is_empty())
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

/// A header in pieces that end where a line may break inside a word: after a `/` or a `→`
/// (`memory/` `GPU (GiB)`, `weak→` `strong: B`). The page puts a `<wbr>` between them, so
/// that a narrow column wraps its header there and never inside a word, which spaces alone
/// would leave too wide for the paper.
pub fn header_pieces(header: &str) -> Vec<&str> {
    // A loop, not `split_inclusive` with a pattern of two chars: that searcher made the
    // page's wasm larger.
    let mut pieces = Vec::new();
    let mut start = 0;
    for (i, c) in header.char_indices() {
        if c == '/' || c == '→' {
            let end = i + c.len_utf8();
            pieces.push(&header[start..end]);
            start = end;
        }
    }
    pieces.push(&header[start..]);
    pieces
}

/// One cell: the text shown and the number behind it (NaN for words, marks and "–"), which
/// the comparison's Δ rows are computed from.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub text: String,
    pub value: f64,
}

impl Cell {
    /// A number, shown by `format`.
    pub fn num(value: f64, format: impl FnOnce(f64) -> String) -> Cell {
        Cell {
            text: format(value),
            value,
        }
    }

    /// Words, a mark or a dash: no number behind it.
    pub fn words(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            value: f64::NAN,
        }
    }
}

/// One column of a table, declared once: its header (English, Chinese), whether it holds
/// words (aligned left) or numbers (aligned right), and its cell for a row — so a table's
/// header, cells and comparison numbers cannot disagree.
///
/// The header's part is kept apart from the cell's, and is not generic: what the table makes
/// of the headers is then compiled once, not once per row type (the page's wasm size).
struct Head {
    header: String,
    words: bool,
    /// Folded away on a narrow screen ([`Table::minor_columns`]).
    minor: bool,
}

/// A column's cell for a row.
type CellFn<'a, R> = Box<dyn Fn(&R) -> Cell + 'a>;

/// A table's columns in order, for rows of type `R`, built one column at a time:
/// `Columns::new().column(("GPUs", "GPU 数"), |r| Cell::num(r.gpus, format_count))…`.
pub struct Columns<'a, R> {
    heads: Vec<Head>,
    cells: Vec<CellFn<'a, R>>,
    /// Whether the last call added a column (a `column_if` that was not shown did not), so
    /// that [`Columns::minor`] marks that column and no other.
    added: bool,
}

impl<'a, R> Columns<'a, R> {
    pub fn new() -> Self {
        Columns {
            heads: Vec::new(),
            cells: Vec::new(),
            added: false,
        }
    }

    /// Marks the column just added as minor ([`Table::minor_columns`]); after a `column_if`
    /// or `words_if` that was not shown, marks nothing.
    pub fn minor(mut self) -> Self {
        if self.added {
            if let Some(h) = self.heads.last_mut() {
                h.minor = true;
            }
        }
        self
    }

    /// A column of numbers (aligned right).
    pub fn column(
        self,
        (en, zh): (&'static str, &'static str),
        cell: impl Fn(&R) -> Cell + 'a,
    ) -> Self {
        self.push(tr(en, zh).to_string(), false, Box::new(cell))
    }

    /// A column of numbers under a header written for this table (one that shows an input,
    /// `Amdahl S (f=5%)`), already in the thread's language.
    pub fn titled(self, header: String, cell: impl Fn(&R) -> Cell + 'a) -> Self {
        self.push(header, false, Box::new(cell))
    }

    /// A column of numbers shown only when `shown` (the tokens-per-GPU column).
    pub fn column_if(
        self,
        shown: bool,
        header: (&'static str, &'static str),
        cell: impl Fn(&R) -> Cell + 'a,
    ) -> Self {
        if shown {
            self.column(header, cell)
        } else {
            self.skipped()
        }
    }

    /// A column of words or marks (aligned left).
    pub fn words(
        self,
        (en, zh): (&'static str, &'static str),
        cell: impl Fn(&R) -> Cell + 'a,
    ) -> Self {
        self.push(tr(en, zh).to_string(), true, Box::new(cell))
    }

    /// A column of words shown only when `shown`.
    pub fn words_if(
        self,
        shown: bool,
        header: (&'static str, &'static str),
        cell: impl Fn(&R) -> Cell + 'a,
    ) -> Self {
        // Written out, not through a shared helper taking a closure: that helper was
        // monomorphised per column, which made the page's wasm larger.
        if shown {
            self.words(header, cell)
        } else {
            self.skipped()
        }
    }

    fn skipped(mut self) -> Self {
        self.added = false;
        self
    }

    fn push(mut self, header: String, words: bool, cell: Box<dyn Fn(&R) -> Cell + 'a>) -> Self {
        self.heads.push(Head {
            header,
            words,
            minor: false,
        });
        self.cells.push(cell);
        self.added = true;
        self
    }
}

impl<R> Default for Columns<'_, R> {
    fn default() -> Self {
        Columns::new()
    }
}

impl Table {
    /// The table of `rows` in `columns`: headers in the thread's language, cells and the numbers
    /// behind them from each column's one declaration.
    pub fn from_columns<R>(
        id: &'static str,
        caption: String,
        columns: &Columns<'_, R>,
        rows: &[R],
    ) -> Table {
        let (mut cells, mut values) = (Vec::new(), Vec::new());
        for row in rows {
            let (texts, numbers): (Vec<String>, Vec<f64>) = columns
                .cells
                .iter()
                .map(|c| {
                    let cell = c(row);
                    (cell.text, cell.value)
                })
                .unzip();
            cells.push(texts);
            values.push(numbers);
        }
        Table::with_heads(id, caption, &columns.heads, cells, values)
    }

    fn with_heads(
        id: &'static str,
        caption: String,
        heads: &[Head],
        rows: Vec<Vec<String>>,
        values: Vec<Vec<f64>>,
    ) -> Table {
        Table {
            id,
            caption,
            headers: heads.iter().map(|h| h.header.clone()).collect(),
            rows,
            text_columns: (0..heads.len()).filter(|&i| heads[i].words).collect(),
            minor_columns: (0..heads.len()).filter(|&i| heads[i].minor).collect(),
            fold: None,
            values,
        }
    }
}
