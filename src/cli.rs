//! The `scaling` command: the page's scenario string in, tables / JSON / SVG out.
//!
//! It reads the same query string as the page through the same [`decode`], computes with the
//! same model and formats with the same [`crate::report`] functions, so it never disagrees
//! with the page. The logic lives here (testable); `src/bin/scaling.rs` only calls [`run`].

use crate::chart::{laws as laws_chart, ChartStyle};
use crate::model::sweep::LawsSweep;
use crate::report::{
    laws_efficiency_table, laws_key_figures, laws_measured_table, laws_speedup_table, Table,
};
use crate::scenario::{decode, Preset, Scenario};
use plotters::prelude::{IntoDrawingArea, SVGBackend};
use std::fmt;

pub const USAGE: &str = "\
scaling — weak vs strong scaling, the same model as the web page

USAGE:
    scaling laws [--query 'v=1&f=0.05' | --preset NAME] [--format text|csv|md|json]
                 [--svg FILE [--chart speedup|efficiency|karp-flatt]]
    scaling presets
    scaling --help

OPTIONS:
    --query Q     the page's query string (copy it from the address bar; a whole URL works)
    --preset NAME a built-in scenario (see `scaling presets`); --query keys override it
    --format F    text (default), csv, md (Markdown) or json
    --svg FILE    also write the chart as SVG (same chart code as the page's canvas)
    --chart C     which chart --svg writes: speedup (default), efficiency, karp-flatt

EXAMPLES:
    scaling laws --query 'v=1&f=0.05' --format json
    scaling laws --preset karp-flatt --format md --svg karp.svg --chart karp-flatt
";

/// Output formats of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Csv,
    Markdown,
    Json,
}

/// Which chart `--svg` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    Speedup,
    Efficiency,
    KarpFlatt,
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Help,
    Presets,
    Laws {
        query: Option<String>,
        preset: Option<String>,
        format: Format,
        svg: Option<String>,
        chart: ChartKind,
    },
}

/// Why the command failed; printed to stderr with exit status 2.
#[derive(Debug, Clone, PartialEq)]
pub enum CliError {
    Usage(String),
    /// The scenario had bad values; each message names the key.
    Scenario(Vec<String>),
    Io(String),
    Chart(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) => write!(f, "{m}\n\nRun `scaling --help` for usage."),
            CliError::Scenario(errors) => {
                writeln!(f, "the scenario has values that cannot be used:")?;
                for e in errors {
                    writeln!(f, "  - {e}")?;
                }
                Ok(())
            }
            CliError::Io(m) => write!(f, "{m}"),
            CliError::Chart(m) => write!(f, "{m}"),
        }
    }
}

/// Parses the arguments after the program name.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Command, CliError> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let usage = |e: lexopt::Error| CliError::Usage(e.to_string());
    let mut subcommand: Option<String> = None;
    let (mut query, mut preset, mut svg) = (None, None, None);
    let mut format = Format::Text;
    let mut chart = ChartKind::Speedup;
    while let Some(arg) = parser.next().map_err(usage)? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Long("query") | Short('q') => {
                query = Some(parser.value().map_err(usage)?.string().map_err(usage)?)
            }
            Long("preset") | Short('p') => {
                preset = Some(parser.value().map_err(usage)?.string().map_err(usage)?)
            }
            Long("svg") => svg = Some(parser.value().map_err(usage)?.string().map_err(usage)?),
            Long("format") | Short('f') => {
                let value = parser.value().map_err(usage)?.string().map_err(usage)?;
                format = match value.as_str() {
                    "text" => Format::Text,
                    "csv" => Format::Csv,
                    "md" | "markdown" => Format::Markdown,
                    "json" => Format::Json,
                    other => {
                        return Err(CliError::Usage(format!(
                            "unknown --format “{other}”: use text, csv, md or json"
                        )))
                    }
                }
            }
            Long("chart") => {
                let value = parser.value().map_err(usage)?.string().map_err(usage)?;
                chart = match value.as_str() {
                    "speedup" => ChartKind::Speedup,
                    "efficiency" => ChartKind::Efficiency,
                    "karp-flatt" => ChartKind::KarpFlatt,
                    other => {
                        return Err(CliError::Usage(format!(
                            "unknown --chart “{other}”: use speedup, efficiency or karp-flatt"
                        )))
                    }
                }
            }
            Value(v) if subcommand.is_none() => subcommand = Some(v.string().map_err(usage)?),
            other => return Err(usage(other.unexpected())),
        }
    }
    match subcommand.as_deref() {
        None => Ok(Command::Help),
        Some("laws") => Ok(Command::Laws {
            query,
            preset,
            format,
            svg,
            chart,
        }),
        Some("presets") => Ok(Command::Presets),
        Some(other) => Err(CliError::Usage(format!(
            "unknown command “{other}”: use laws or presets"
        ))),
    }
}

/// Builds the scenario from `--preset` and `--query` exactly as the page does from its URL:
/// the preset is the base and the query's keys override it.
pub fn scenario_from(query: Option<&str>, preset: Option<&str>) -> Result<Scenario, CliError> {
    let mut full = query.unwrap_or("").to_string();
    if let Some(p) = preset {
        // `preset=` first so a `preset=` inside the query still wins, as on the page.
        full = format!("preset={}&{}", p, full.trim_start_matches('?'));
    }
    let decoded = decode(&full);
    if decoded.errors.is_empty() {
        Ok(decoded.scenario)
    } else {
        Err(CliError::Scenario(
            decoded.errors.iter().map(|e| e.to_string()).collect(),
        ))
    }
}

/// The Laws panel's tables for a sweep, in page order.
pub fn laws_tables(sweep: &LawsSweep) -> Vec<Table> {
    let mut tables = vec![laws_speedup_table(sweep), laws_efficiency_table(sweep)];
    tables.extend(laws_measured_table(sweep));
    tables
}

/// The JSON document of `scaling laws --format json`.
pub fn laws_json(scenario: &Scenario, sweep: &LawsSweep) -> serde_json::Value {
    serde_json::json!({
        "query": scenario.to_query(),
        "summary": {
            "serial_fraction": sweep.serial_fraction,
            "amdahl_ceiling": sweep.amdahl_ceiling,
            "half_efficiency_processors": sweep.half_efficiency_processors,
            "shi": sweep.shi,
            "fitted_serial_fraction": sweep.measured.as_ref().and_then(|m| m.fitted_serial_fraction),
        },
        "rows": sweep.rows,
        "measured": sweep.measured.as_ref().map(|m| &m.rows),
        "tables": laws_tables(sweep),
    })
}

/// Renders one chart of the sweep as an SVG document.
pub fn laws_svg(sweep: &LawsSweep, chart: ChartKind) -> Result<String, CliError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        let style = ChartStyle::default();
        let result = match chart {
            ChartKind::Speedup => laws_chart::draw_speedup(&root, sweep, &style),
            ChartKind::Efficiency => laws_chart::draw_efficiency(&root, sweep, &style),
            ChartKind::KarpFlatt => laws_chart::draw_karp_flatt(&root, sweep, &style),
        };
        result.map_err(|e| CliError::Chart(e.to_string()))?;
    }
    Ok(svg)
}

/// Runs a command and returns what goes to stdout.
pub fn run(command: &Command) -> Result<String, CliError> {
    match command {
        Command::Help => Ok(USAGE.to_string()),
        Command::Presets => Ok(Preset::ALL
            .iter()
            .map(|p| format!("{:<12} {}\n", p.name(), p.description()))
            .collect()),
        Command::Laws {
            query,
            preset,
            format,
            svg,
            chart,
        } => {
            let scenario = scenario_from(query.as_deref(), preset.as_deref())?;
            let sweep = LawsSweep::compute(&scenario.laws_inputs());
            if let Some(path) = svg {
                let doc = laws_svg(&sweep, *chart)?;
                std::fs::write(path, doc)
                    .map_err(|e| CliError::Io(format!("cannot write {path}: {e}")))?;
            }
            let tables = laws_tables(&sweep);
            Ok(match format {
                Format::Json => {
                    let mut s = serde_json::to_string_pretty(&laws_json(&scenario, &sweep))
                        .map_err(|e| CliError::Io(e.to_string()))?;
                    s.push('\n');
                    s
                }
                Format::Text => {
                    let mut out = format!("scenario: ?{}\n\n", scenario.to_query());
                    for (label, value) in laws_key_figures(&sweep, scenario.laws.measured_kind) {
                        out.push_str(&format!("{label}: {value}\n"));
                    }
                    for t in &tables {
                        out.push('\n');
                        out.push_str(&t.to_text());
                    }
                    out
                }
                Format::Markdown => tables
                    .iter()
                    .map(|t| format!("**{}**\n\n{}", t.caption, t.to_markdown()))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Format::Csv => tables
                    .iter()
                    .map(|t| format!("# {}\r\n{}", t.caption, t.to_csv()))
                    .collect::<Vec<_>>()
                    .join("\r\n"),
            })
        }
    }
}
