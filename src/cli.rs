//! The `scaling` command: the page's scenario string in, tables / JSON / SVG out.
//!
//! It reads the same query string as the page through the same [`decode`], computes with the
//! same model and formats with the same [`crate::report`] functions, so it never disagrees
//! with the page. The logic lives here (testable); `src/bin/scaling.rs` only calls [`run`].

use crate::chart::llm::{self as llm_chart, LlmChart};
use crate::chart::plan::{self as plan_chart, PlanChart};
use crate::chart::{laws as laws_chart, ChartStyle};
use crate::checklist::report;
use crate::model::batch::deepseek_optimal_batch_tokens;
use crate::model::llm::LlmSweep;
use crate::model::plan::PlanSweep;
use crate::model::sweep::LawsSweep;
use crate::report::{
    activation_memory_note, laws_efficiency_table, laws_key_figures, laws_measured_table,
    laws_speedup_table, lever_rows, lever_table, plan_key_figures, plan_table, strong_key_figures,
    strong_table, weak_key_figures, weak_table, Table,
};

/// DeepSeek LLM's empirical optimal batch for this run's compute, `C = 6·P_a·E(B₀)` with
/// `E(B₀) = tb` the tokens the run needs (a reference, labelled as an empirical fit).
pub fn deepseek_reference(scenario: &Scenario) -> f64 {
    deepseek_optimal_batch_tokens(6.0 * scenario.llm.active_params * scenario.llm.token_budget)
}
use crate::scenario::{decode, Preset, Scenario};
use plotters::prelude::{IntoDrawingArea, SVGBackend};
use std::fmt;

pub const USAGE: &str = "\
scaling — weak vs strong scaling, the same model as the web page

USAGE:
    scaling laws   [--query 'v=1&f=0.05' | --preset NAME] [--format text|csv|md|json]
                   [--svg FILE [--chart speedup|efficiency|karp-flatt]]
    scaling strong [--query '…' | --preset NAME] [--format …]
                   [--svg FILE [--chart strong-step|strong-efficiency|strong-throughput|boxes]]
    scaling weak   [--query '…' | --preset NAME] [--format …]
                   [--svg FILE [--chart weak-step|weak-efficiency|weak-throughput|weak-steps|boxes]]
    scaling plan   [--query '…' | --preset NAME] [--format …]
                   [--svg FILE [--chart plan-ttq|plan-gpu-hours]]
    scaling report [--query '…' | --preset NAME] [--format text|json]
    scaling presets
    scaling --help

OPTIONS:
    --query Q     the page's query string (copy it from the address bar; a whole URL works)
    --preset NAME a built-in scenario (see `scaling presets`); --query keys override it
    --format F    text (default), csv, md (Markdown) or json
    --svg FILE    also write the chart as SVG (same chart code as the page's canvas)
    --chart C     which chart --svg writes (default: the panel's first chart)

EXAMPLES:
    scaling laws --query 'v=1&f=0.05' --format json
    scaling laws --preset karp-flatt --format md --svg karp.svg --chart karp-flatt
    scaling strong --preset seed-strong --format json
    scaling weak --preset seed-weak --svg weak.svg --chart weak-steps
    scaling plan --preset seed-weak --format json
    scaling report --query 'v=1&preset=seed-weak&lv=fp8'
";

/// Output formats of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Csv,
    Markdown,
    Json,
}

/// The panels the CLI prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Panel {
    Laws,
    Strong,
    Weak,
    Plan,
    Report,
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Help,
    Presets,
    Panel {
        panel: Panel,
        query: Option<String>,
        preset: Option<String>,
        format: Format,
        svg: Option<String>,
        chart: Option<String>,
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
    let mut chart: Option<String> = None;
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
            Long("chart") => chart = Some(parser.value().map_err(usage)?.string().map_err(usage)?),
            Value(v) if subcommand.is_none() => subcommand = Some(v.string().map_err(usage)?),
            other => return Err(usage(other.unexpected())),
        }
    }
    let panel = match subcommand.as_deref() {
        None => return Ok(Command::Help),
        Some("presets") => return Ok(Command::Presets),
        Some("laws") => Panel::Laws,
        Some("strong") => Panel::Strong,
        Some("weak") => Panel::Weak,
        Some("plan") => Panel::Plan,
        Some("report") => Panel::Report,
        Some(other) => {
            return Err(CliError::Usage(format!(
                "unknown command “{other}”: use laws, strong, weak, plan, report or presets"
            )))
        }
    };
    Ok(Command::Panel {
        panel,
        query,
        preset,
        format,
        svg,
        chart,
    })
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

/// The JSON document of `scaling strong|weak --format json`.
pub fn llm_json(scenario: &Scenario, sweep: &LlmSweep, panel: Panel) -> serde_json::Value {
    let (rows, table) = match panel {
        Panel::Weak => (serde_json::to_value(&sweep.weak), weak_table(sweep)),
        _ => (serde_json::to_value(&sweep.strong), strong_table(sweep)),
    };
    serde_json::json!({
        "query": scenario.to_query(),
        "summary": sweep.summary,
        "fitted_exposed": sweep.fitted_exposed,
        "rows": rows.unwrap_or_default(),
        "tables": [table],
    })
}

/// Renders `draw` into an SVG document of the CLI's size.
fn svg_document(
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<SVGBackend, plotters::coord::Shift>,
    ) -> Result<(), crate::chart::ChartError>,
) -> Result<String, CliError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        draw(&root).map_err(|e| CliError::Chart(e.to_string()))?;
    }
    Ok(svg)
}

/// Renders one chart of a panel as SVG. `chart` defaults to the panel's first chart.
pub fn panel_svg(
    scenario: &Scenario,
    panel: Panel,
    chart: Option<&str>,
) -> Result<String, CliError> {
    let style = ChartStyle::default();
    let unknown = |c: &str, known: &str| {
        CliError::Usage(format!(
            "unknown --chart “{c}” for this command: use {known}"
        ))
    };
    match panel {
        Panel::Laws => {
            let sweep = LawsSweep::compute(&scenario.laws_inputs());
            let which = chart.unwrap_or("speedup");
            svg_document(|root| {
                match which {
                    "speedup" => laws_chart::draw_speedup(root, &sweep, &style),
                    "efficiency" => laws_chart::draw_efficiency(root, &sweep, &style),
                    "karp-flatt" => laws_chart::draw_karp_flatt(root, &sweep, &style),
                    _ => return Ok(()),
                }
                .map(|_| ())
            })
            .and_then(|doc| match which {
                "speedup" | "efficiency" | "karp-flatt" => Ok(doc),
                other => Err(unknown(other, "speedup, efficiency, karp-flatt")),
            })
        }
        Panel::Plan | Panel::Report => {
            let sweep = LlmSweep::compute(&scenario.llm_inputs());
            let plan = PlanSweep::compute(&scenario.plan_inputs());
            let which = match chart.unwrap_or("plan-ttq") {
                "plan-ttq" => PlanChart::TimeToQuality,
                "plan-gpu-hours" => PlanChart::GpuHours,
                other => return Err(unknown(other, "plan-ttq, plan-gpu-hours")),
            };
            svg_document(|root| {
                plan_chart::draw(root, &plan, sweep.summary.n_max, which, &style).map(|_| ())
            })
        }
        Panel::Strong | Panel::Weak => {
            let sweep = LlmSweep::compute(&scenario.llm_inputs());
            let charts = if panel == Panel::Strong {
                &LlmChart::STRONG[..]
            } else {
                &LlmChart::WEAK[..]
            };
            let name = chart.unwrap_or(charts[0].id());
            if name == "boxes" {
                return svg_document(|root| llm_chart::draw_boxes(root, &sweep, &style));
            }
            let known: Vec<&str> = charts.iter().map(|c| c.id()).chain(["boxes"]).collect();
            let which = LlmChart::from_id(name)
                .filter(|c| charts.contains(c))
                .ok_or_else(|| unknown(name, &known.join(", ")))?;
            svg_document(|root| llm_chart::draw(root, &sweep, which, &style).map(|_| ()))
        }
    }
}

/// Runs a command and returns what goes to stdout.
pub fn run(command: &Command) -> Result<String, CliError> {
    match command {
        Command::Help => Ok(USAGE.to_string()),
        Command::Presets => Ok(Preset::ALL
            .iter()
            .map(|p| format!("{:<14} {}\n", p.name(), p.description()))
            .collect()),
        Command::Panel {
            panel,
            query,
            preset,
            format,
            svg,
            chart,
        } => {
            let scenario = scenario_from(query.as_deref(), preset.as_deref())?;
            if let Some(path) = svg {
                let doc = panel_svg(&scenario, *panel, chart.as_deref())?;
                std::fs::write(path, doc)
                    .map_err(|e| CliError::Io(format!("cannot write {path}: {e}")))?;
            }
            let (json, figures, tables) = match panel {
                Panel::Laws => {
                    let sweep = LawsSweep::compute(&scenario.laws_inputs());
                    (
                        laws_json(&scenario, &sweep),
                        laws_key_figures(&sweep, scenario.laws.measured_kind),
                        laws_tables(&sweep),
                    )
                }
                Panel::Strong | Panel::Weak => {
                    let sweep = LlmSweep::compute(&scenario.llm_inputs());
                    let (figures, table) = if *panel == Panel::Strong {
                        (strong_key_figures(&sweep), strong_table(&sweep))
                    } else {
                        (weak_key_figures(&sweep), weak_table(&sweep))
                    };
                    (llm_json(&scenario, &sweep, *panel), figures, vec![table])
                }
                Panel::Plan => {
                    let sweep = LlmSweep::compute(&scenario.llm_inputs());
                    let plan = PlanSweep::compute(&scenario.plan_inputs());
                    let levers = lever_rows(&scenario);
                    let tables = vec![plan_table(&plan), lever_table(&levers)];
                    let mut figures = plan_key_figures(&plan, &sweep);
                    figures
                        .extend(activation_memory_note(&sweep).map(|n| ("Memory".to_string(), n)));
                    let json = serde_json::json!({
                        "query": scenario.to_query(),
                        "summary": {
                            "critical_batch_tokens": plan.critical_batch_tokens,
                            "min_steps": plan.min_steps,
                            "batch_cap_tokens": plan.batch_cap_tokens,
                            "switch_gpus": plan.switch_gpus,
                            "best_gpus_weak_then_strong": plan.best_gpus_weak_then_strong,
                            "t_crit_tokens": sweep.summary.t_crit_tokens,
                            "n_max": sweep.summary.n_max,
                            "deepseek_reference_batch_tokens": deepseek_reference(&scenario),
                        },
                        "rows": plan.rows,
                        "levers": levers,
                        "tables": tables,
                    });
                    (json, figures, tables)
                }
                Panel::Report => {
                    let sweep = LlmSweep::compute(&scenario.llm_inputs());
                    let plan = PlanSweep::compute(&scenario.plan_inputs());
                    let r = report(&scenario, &sweep, &plan);
                    let json = serde_json::to_value(&r).unwrap_or_default();
                    if *format != Format::Json {
                        let mut out = format!("{}\n\n{}\n", r.en, r.zh);
                        for w in &r.warnings {
                            out.push_str(&format!("\nwarning: {}\n警告：{}\n", w.en, w.zh));
                        }
                        return Ok(out);
                    }
                    (json, Vec::new(), Vec::new())
                }
            };
            Ok(render(&scenario, *format, &json, &figures, &tables))
        }
    }
}

/// Formats a panel's output.
fn render(
    scenario: &Scenario,
    format: Format,
    json: &serde_json::Value,
    figures: &[(String, String)],
    tables: &[Table],
) -> String {
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(json).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Text => {
            let mut out = format!("scenario: ?{}\n\n", scenario.to_query());
            for (label, value) in figures {
                out.push_str(&format!("{label}: {value}\n"));
            }
            for t in tables {
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
    }
}
