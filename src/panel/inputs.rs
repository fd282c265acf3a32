//! The page's input controls and `docs/url.md`'s key tables, written from the key table
//! (`crate::scenario::Key`): each input is declared once, and these two files show it; the
//! page's chart figures, written from the chart table (`super::charts::CHARTS`); and the docs'
//! machine and published-run tables ([`doc_tables`]).
//!
//! The files keep their prose by hand and mark the written parts, each between an opening
//! marker that names the part and where it is written from and a closing one that names it
//! again: `<!-- inputs:NAME (written from src/scenario/key.rs; edit there) -->` …
//! `<!-- /inputs:NAME -->` in `www/index.html` (a section of [`SECTIONS`]; the build strips
//! comments), `<!-- chart:ID … -->` … `<!-- /chart:ID -->` around each chart's figure there,
//! `<!-- keys:NAME … -->` … `<!-- /keys:NAME -->` in `docs/url.md` (a table of [`URL_TABLES`]),
//! `<!-- tables:NAME … -->` in the docs. The test of the core rewrites a file whose marked parts
//! (or markers) differ, as rust-analyzer's generated sources do, so an input added to the table
//! shows up in both. A new part needs only its two markers, `<!-- chart:ID -->` and
//! `<!-- /chart -->`: the test writes the rest.

use crate::panel::step_model::NOTE_IDS;
use crate::scenario::{Control, Group, Key, SECTIONS, SLIDERS};
use std::fmt::Write;

/// `docs/url.md`'s key tables: each marker's name, with the groups whose keys it lists (in
/// key order).
pub const URL_TABLES: &[(&str, &[Group])] = &[
    ("laws", &[Group::Laws]),
    ("llm", &[Group::Llm, Group::Walls]),
    ("plan", &[Group::Plan]),
    ("learn", &[Group::Learn]),
    ("pin", &[Group::Pin]),
    ("display", &[Group::Display]),
];

/// One input's control as `www/index.html` has it, each line indented by `indent`.
pub fn control_html(key: Key, indent: &str) -> String {
    let spec = key.spec();
    let k = key.name();
    let slider = SLIDERS.iter().find(|s| s.key == key);
    let unused = NOTE_IDS.iter().any(|(n, _)| *n == key);
    let mut lines: Vec<String> = Vec::new();
    let wide = if spec.wide { " control-wide" } else { "" };
    lines.push(format!(r#"<div class="control{wide}" data-key="{k}">"#));
    let label_id = if slider.is_some() {
        format!(r#" id="{k}-label""#)
    } else {
        String::new()
    };
    lines.push(format!(
        r#"  <label{label_id} for="{k}-input" data-i18n="label-{k}">{}</label>"#,
        key.label_markup()
    ));
    if let Some(s) = slider {
        lines.push(format!(
            r#"  <input type="range" id="{k}-range" min="{}" max="{}" step="1" aria-labelledby="{k}-label">"#,
            s.min_position, s.max_position
        ));
    }
    let described = if unused {
        format!("{k}-unused {k}-msg {k}-help")
    } else {
        format!("{k}-msg {k}-help")
    };
    let placeholder = if spec.placeholder.is_empty() {
        String::new()
    } else {
        format!(
            r#" placeholder="{}""#,
            spec.placeholder.replace('\n', "&#10;")
        )
    };
    match spec.control {
        Control::None => {}
        Control::Decimal | Control::Whole | Control::Text => {
            let mode = match spec.control {
                Control::Decimal => r#" inputmode="decimal""#,
                Control::Whole => r#" inputmode="numeric""#,
                _ => "",
            };
            lines.push(format!(
                r#"  <input type="text" id="{k}-input"{mode} autocomplete="off" spellcheck="false"{placeholder} aria-describedby="{described}">"#
            ));
        }
        Control::Area => lines.push(format!(
            r#"  <textarea id="{k}-input" rows="4" spellcheck="false"{placeholder} aria-describedby="{described}"></textarea>"#
        )),
        Control::Select(_) => lines.push(format!(
            r#"  <select id="{k}-input" aria-describedby="{described}">{}</select>"#,
            options_html(key)
        )),
    }
    let (help, _) = spec.help;
    match spec.in_help {
        Some(inner) => {
            lines.push(format!(r#"  <p class="help" id="{k}-help">"#));
            lines.push(format!(r#"    <span data-i18n="help-{k}">{help}</span>"#));
            let i = inner.name();
            lines.push(format!(
                r#"    <label class="inline visually-hidden" for="{i}-input" data-i18n="label-{i}">{}</label>"#,
                inner.label_markup()
            ));
            lines.push(format!(
                r#"    <select id="{i}-input">{}</select>"#,
                options_html(inner)
            ));
            lines.push("  </p>".into());
        }
        None if help.is_empty() => lines.push(format!(r#"  <p class="help" id="{k}-help"></p>"#)),
        None => lines.push(format!(
            r#"  <p class="help" id="{k}-help" data-i18n="help-{k}">{help}</p>"#
        )),
    }
    lines.push(format!(
        r#"  <p class="msg" id="{k}-msg" aria-live="polite"></p>"#
    ));
    if unused {
        lines.push(format!(r#"  <p class="unused" id="{k}-unused"></p>"#));
    }
    if spec.note {
        lines.push(format!(
            r#"  <p class="help" id="{k}-note" aria-live="polite"></p>"#
        ));
    }
    lines.push("</div>".into());
    let mut out = String::new();
    for line in lines {
        let _ = writeln!(out, "{indent}{line}");
    }
    out
}

/// A menu's options; an option with Chinese is keyed `<name>-<value>` for the catalogue.
fn options_html(key: Key) -> String {
    let Control::Select(options) = key.spec().control else {
        return String::new();
    };
    let mut out = String::new();
    for (value, en, zh) in options {
        let i18n = if zh.is_empty() {
            String::new()
        } else {
            format!(r#" data-i18n="{}-{value}""#, key.name())
        };
        let _ = write!(out, r#"<option value="{value}"{i18n}>{en}</option>"#);
    }
    out
}

/// A key table of `docs/url.md`: the keys of `groups`, in key order.
pub fn url_table(groups: &[Group]) -> String {
    let keys: Vec<Key> = Key::ALL
        .iter()
        .copied()
        .filter(|k| groups.contains(&k.group()))
        .collect();
    let columns = keys.iter().map(|k| k.spec().url.len()).max().unwrap_or(3);
    let tools = keys.iter().any(|k| !tool_names(*k).is_empty());
    let heads = ["meaning", "default", "accepted", "model §"];
    let mut out = format!("| key | {} |", heads[..columns].join(" | "));
    if tools {
        out.push_str(" in Megatron-LM, NeMo, torchtitan, Hugging Face |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---|".repeat(columns + usize::from(tools)));
    out.push('\n');
    for key in keys {
        let mut cells: Vec<String> = key.spec().url.iter().map(|c| c.to_string()).collect();
        // The accepted values begin with what the row's codec accepts.
        if let (Some(bounds), Some(accepted)) = (key.bounds(), cells.get_mut(2)) {
            *accepted = if accepted.is_empty() {
                bounds
            } else {
                format!("{bounds}; {accepted}")
            };
        }
        let _ = write!(out, "| `{}` | {}", key.name(), cells.join(" | "));
        out.push_str(&" | ".repeat(columns - cells.len()));
        if tools {
            let _ = write!(out, " | {}", tool_names(key));
        }
        out.push_str(" |\n");
    }
    out
}

/// The names other tools give an input, as a docs cell: `Megatron-LM \`--num-layers\`; …`.
fn tool_names(key: Key) -> String {
    let spec = key.spec();
    let tools = [
        ("Megatron-LM", spec.megatron),
        ("NeMo", spec.nemo),
        ("torchtitan", spec.torchtitan),
        ("HF", spec.hf),
    ];
    let cells: Vec<String> = tools
        .iter()
        .filter(|(_, names)| !names.is_empty())
        .map(|(tool, names)| {
            let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            format!("{tool} {}", names.join(", "))
        })
        .collect();
    cells.join("; ")
}

/// Why a file's marked parts could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkerError {
    /// A marker names no section or table.
    Unknown(String),
    /// A marker is not closed.
    Unclosed(String),
}

/// `text` with each part between `<!-- {tag}:NAME … -->` and `<!-- /{tag}:NAME -->` replaced by
/// `write(NAME, indent of the opening marker)`, or `None` for a name it does not know. The
/// markers are written anew: the opening one says where the part is written from
/// (`source(NAME)`), so a reader edits there, and the closing one names its part.
fn fill_markers(
    text: &str,
    tag: &str,
    source: impl Fn(&str) -> &'static str,
    write: impl Fn(&str, &str) -> Option<String>,
) -> Result<String, MarkerError> {
    let open = format!("<!-- {tag}:");
    let close = format!("<!-- /{tag}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&open) {
        let line_start = rest[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent = &rest[line_start..at];
        let header_end = rest[at..]
            .find(" -->")
            .ok_or_else(|| MarkerError::Unclosed(tag.into()))?;
        let header = &rest[at + open.len()..at + header_end];
        let name = header.split_whitespace().next().unwrap_or("");
        // The part starts on the line after the opening marker.
        let body_start = rest[at..]
            .find('\n')
            .map(|i| at + i + 1)
            .ok_or_else(|| MarkerError::Unclosed(name.into()))?;
        let end = rest[body_start..]
            .find(&close)
            .ok_or_else(|| MarkerError::Unclosed(name.into()))?;
        let close_end = rest[body_start + end..]
            .find("-->")
            .map(|i| body_start + end + i + 3)
            .ok_or_else(|| MarkerError::Unclosed(name.into()))?;
        let body = write(name, indent).ok_or_else(|| MarkerError::Unknown(name.into()))?;
        out.push_str(&rest[..at]);
        let _ = writeln!(
            out,
            "{open}{name} (written from {}; edit there) -->",
            source(name)
        );
        out.push_str(&body);
        let _ = write!(out, "{indent}{close}:{name} -->");
        rest = &rest[close_end..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A doc with its generated tables written, each between `<!-- tables:NAME … -->` and
/// `<!-- /tables:NAME -->`: `machines` (the machine table and its sources, `docs/machines.md`),
/// `published` and `machine-runs` (the published runs against their stacks' `r∞`, and per
/// machine: key figures and table), `recompute-runs` (Korthikanti et al.'s Table 5 beside
/// Calculon; both in docs/model/14-layout-search.md), `learn-runs` (the published runs per
/// machine as the Learn view's HTML table, in this thread's language, `www/learn/*.html`).
pub fn doc_tables(doc: &str) -> Result<String, MarkerError> {
    use super::{machine_runs, machines};
    let source = |name: &str| match name {
        "machines" => "src/scenario/machines.rs",
        "published" => "src/panel/published.rs",
        "machine-runs" | "learn-runs" => "src/panel/machine_runs.rs",
        _ => "src/panel/recompute_runs.rs",
    };
    fill_markers(doc, "tables", source, |name, _| match name {
        "machines" => Some(format!(
            "{}\n{}",
            machines::machines_table().to_markdown(),
            machines::machine_sources()
        )),
        "published" => {
            use super::published;
            let rows: Vec<_> = published::published_rows().into_iter().flatten().collect();
            Some(figures_then_table(
                published::published_figures(&rows),
                &published::published_table(&rows),
            ))
        }
        "machine-runs" => {
            let rows: Vec<_> = machine_runs::held_rows().into_iter().flatten().collect();
            let left_out = machine_runs::MACHINE_RUNS.len() - rows.len();
            Some(figures_then_table(
                machine_runs::held_figures(&rows, left_out),
                &machine_runs::held_table(&rows),
            ))
        }
        "learn-runs" => {
            let rows: Vec<_> = machine_runs::held_rows().into_iter().flatten().collect();
            Some(machine_runs::learn_runs_html(&rows))
        }
        "recompute-runs" => {
            use super::recompute_runs;
            let rows = recompute_runs::recompute_rows().ok()?;
            Some(figures_then_table(
                recompute_runs::recompute_figures(&rows),
                &recompute_runs::recompute_table(&rows),
            ))
        }
        _ => None,
    })
}

/// Key figures as a Markdown list, a blank line, then the table.
fn figures_then_table(figures: Vec<(String, String)>, table: &super::table::Table) -> String {
    let list: String = figures
        .into_iter()
        .map(|(label, value)| format!("- {label}: **{value}**\n"))
        .collect();
    format!("{list}\n{}", table.to_markdown())
}

/// `www/index.html` with its marked sections written from the key table.
pub fn index_html(template: &str) -> Result<String, MarkerError> {
    fill_markers(
        template,
        "inputs",
        |_| "src/scenario/key.rs",
        |name, indent| {
            let (_, keys) = SECTIONS.iter().find(|(n, _)| *n == name)?;
            Some(keys.iter().map(|&k| control_html(k, indent)).collect())
        },
    )
}

/// One chart's `<figure>` as `www/index.html` has it (the ids the glue and the tests address,
/// docs/dom-ids.md), each line indented by `indent`: its accessible name in English from
/// [`CHARTS`](super::charts::CHARTS), the canvas, the hover readout, the text alternative and,
/// under the Laws panel's charts, the table of their values.
pub fn figure_html(spec: &super::charts::ChartSpec, indent: &str) -> String {
    let id = spec.id;
    // The tables the Laws panel shows under a chart (`TABLE_IDS`): the points of each curve,
    // and the measured points under Karp–Flatt's.
    let table = match id {
        "laws-speedup" | "laws-efficiency" => Some(id),
        "laws-karp-flatt" => Some("laws-measured"),
        _ => None,
    };
    let mut lines = vec![
        format!(r#"<figure class="chart" id="{id}">"#),
        r#"  <div class="canvas-wrap">"#.to_string(),
        format!(
            r#"    <span id="{id}-name" data-i18n="chart-{id}" hidden>{}</span>"#,
            (spec.name)()
        ),
        format!(
            r#"    <canvas id="{id}-canvas" role="img" aria-labelledby="{id}-name" aria-describedby="{}"></canvas>"#,
            spec.summary_id
        ),
        r#"    <div class="crosshair" hidden></div>"#.to_string(),
        "  </div>".to_string(),
        format!(
            r#"  <p class="readout" id="{id}-readout" aria-live="off" data-i18n="hover">Hover over the chart to read values.</p>"#
        ),
        format!(r#"  <figcaption id="{}"></figcaption>"#, spec.summary_id),
    ];
    if let Some(table) = table {
        lines.push(format!(
            r#"  <div class="table-wrap" id="{table}-table"></div>"#
        ));
    }
    lines.push("</figure>".to_string());
    lines.iter().map(|l| format!("{indent}{l}\n")).collect()
}

/// `www/index.html` with its charts' figures written from the chart table, each between
/// `<!-- chart:ID … -->` and `<!-- /chart:ID -->`.
pub fn index_html_charts(template: &str) -> Result<String, MarkerError> {
    fill_markers(
        template,
        "chart",
        |_| "src/panel/charts.rs",
        |id, indent| {
            let spec = super::charts::CHARTS.iter().find(|c| c.id == id)?;
            Some(figure_html(spec, indent))
        },
    )
}

/// `docs/url.md` with its marked key tables written from the key table.
pub fn url_md(doc: &str) -> Result<String, MarkerError> {
    fill_markers(
        doc,
        "keys",
        |_| "src/scenario/key.rs",
        |name, _| {
            let (_, groups) = URL_TABLES.iter().find(|(n, _)| *n == name)?;
            Some(url_table(groups))
        },
    )
}

/// The key table as JSON (`docs/keys.json`, rewritten by `registry::`), what the scripts read
/// instead of the source: each key in URL order with its name, group, labels, control, help,
/// menu options, `docs/url.md` row, slider and the names the importers read.
pub fn keys_json() -> String {
    let keys: Vec<serde_json::Value> = Key::ALL
        .iter()
        .map(|&key| {
            let spec = key.spec();
            let (control, options): (&str, &[(&str, &str, &str)]) = match spec.control {
                Control::None => ("none", &[]),
                Control::Decimal => ("decimal", &[]),
                Control::Whole => ("whole", &[]),
                Control::Text => ("text", &[]),
                Control::Area => ("area", &[]),
                Control::Select(options) => ("select", options),
            };
            serde_json::json!({
                "name": key.name(),
                "group": format!("{:?}", key.group()).to_lowercase(),
                "label": key.label(),
                "label_zh": key.label_zh().unwrap_or(""),
                "control": control,
                "label_markup": key.label_markup(),
                "help": [spec.help.0, spec.help.1],
                "options": options.iter().map(|o| [o.0, o.1, o.2]).collect::<Vec<_>>(),
                "slider": SLIDERS.iter().any(|s| s.key == key),
                "url": spec.url,
                "bounds": key.bounds(),
                "megatron": spec.megatron,
                "nemo": spec.nemo,
                "torchtitan": spec.torchtitan,
                "hf": spec.hf,
            })
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&keys).expect("strings and flags serialise");
    text.push('\n');
    text
}
