//! The rows of export buttons under each chart (PNG, SVG), each table (CSV, Markdown) and the
//! report (text), declared once: the page's glue builds them as elements
//! (`crates/web/src/exports.rs`), the build's first view writes them as HTML
//! ([`super::prerender`]), so the prerendered page has them in the same place and nothing
//! moves when the page takes over. One delegated listener on the page serves them all, by
//! their `data-export="kind:what"`.

use super::ChartId;
use crate::i18n::tr;

/// One button: its visible text (the name, WCAG 2.5.3), what it exports and a description.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportButton {
    pub text: String,
    pub action: String,
    pub title: &'static str,
}

/// A row of buttons, a group named by `label`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportRow {
    pub label: &'static str,
    pub buttons: Vec<ExportButton>,
}

fn button(text: &str, action: String, title: &'static str) -> ExportButton {
    ExportButton {
        text: text.to_string(),
        action,
        title,
    }
}

/// The row at the end of chart `chart`'s figure: PNG at 2x and SVG.
pub fn chart_row(chart: ChartId) -> ExportRow {
    ExportRow {
        label: tr("Export chart", "导出图表"),
        buttons: vec![
            button(
                "PNG 2x",
                format!("png:{}", chart.id()),
                tr("Download the chart as PNG at 2x", "下载 2 倍分辨率 PNG"),
            ),
            button(
                "SVG",
                format!("svg:{}", chart.id()),
                tr(
                    "Download the chart as SVG (vector, drawn by the same chart code)",
                    "下载 SVG 矢量图（与页面同一套绘图代码）",
                ),
            ),
        ],
    }
}

/// The row right after table `id`'s container (`#<id>-table`): CSV and Markdown.
pub fn table_row(id: &str) -> ExportRow {
    ExportRow {
        label: tr("Export table", "导出表格"),
        buttons: vec![
            button(
                "CSV",
                format!("csv:{id}"),
                tr("Download the table as CSV", "下载 CSV"),
            ),
            button(
                "Markdown",
                format!("md:{id}"),
                tr("Download the table as Markdown", "下载 Markdown"),
            ),
        ],
    }
}

/// The row after the report: its text in each language.
pub fn report_row() -> ExportRow {
    ExportRow {
        label: tr("Export report", "导出报告"),
        buttons: ["en", "zh"]
            .into_iter()
            .map(|lang| {
                button(
                    &format!("TXT ({lang})"),
                    format!("txt:{lang}"),
                    tr("Download the report as text", "下载报告文本"),
                )
            })
            .collect(),
    }
}

/// `row` as the HTML the page's glue would build.
pub fn row_html(row: &ExportRow) -> String {
    use crate::text::html::escape;
    let mut out = format!(
        "<div class=\"exports\" role=\"group\" aria-label=\"{}\">",
        escape(row.label)
    );
    for b in &row.buttons {
        out.push_str(&format!(
            "<button type=\"button\" class=\"export\" data-export=\"{}\" title=\"{}\">{}</button>",
            escape(&b.action),
            escape(b.title),
            escape(&b.text)
        ));
    }
    out.push_str("</div>");
    out
}
