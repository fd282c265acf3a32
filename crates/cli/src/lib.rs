//! The `scaling` command: the page's scenario string in, tables / JSON / SVG out.
//!
//! It reads the same query string as the page through the same [`decode`], computes with the
//! same model and formats with the same panel layer ([`scaling_core::panel`]), so it never disagrees
//! with the page. The logic lives here (testable); `src/main.rs` only calls [`run`].

use scaling_core::chart::{ChartStyle, Theme};
use scaling_core::i18n::{set_lang, tr, Lang};
use scaling_core::panel::charts::cli_choices;
use scaling_core::panel::table::Table;
use scaling_core::panel::{ChartId, Panel as PanelData};
use scaling_core::scenario::export::{self, Tool};
use scaling_core::scenario::import::{self, Import, ImportError};
use scaling_core::scenario::shapes::{ModelShape, SHAPES};
use scaling_core::scenario::{decode, Preset, Scenario, ThemeChoice, View};
use scaling_core::trf;
use std::fmt;

/// The usage text; `{laws}`, `{strong}`, `{weak}` and `{plan}` are the panels' `--chart`
/// choices, filled from the chart table by [`usage`].
const USAGE_TEMPLATE: &str = "\
scaling — weak vs strong scaling, the same model as the web page

USAGE:
    scaling laws   [--query 'v=1&f=0.05' | --preset NAME] [--format text|csv|md|json]
                   [--svg FILE [--chart {laws}]]
    scaling strong [--query '…' | --preset NAME] [--format …]
                   [--svg FILE [--chart {strong}]]
    scaling weak   [--query '…' | --preset NAME] [--format …]
                   [--svg FILE [--chart {weak}]]
    scaling plan   [--query '…' | --preset NAME] [--format …]
                   [--svg FILE [--chart {plan}]]
    scaling report [--query '…' | --preset NAME] [--format text|json]
    (every command above also takes --lang en|zh and --compare Q)
    scaling layouts --n N [--query '…' | --preset NAME] [--top K] [--format …]
    scaling layouts --published [--format …]
    scaling import FILE… [--query '…' | --preset NAME] [--format text|json]
    (strong, weak, plan, report and layouts also take --import FILE, repeated)
    scaling presets [--lang en|zh]
    scaling shapes
    scaling machines [--format text|csv|md|json] [--lang en|zh]
    (strong, weak, plan, report, layouts and import also take --shape NAME)
    scaling prerender [--query '…'] [--figure 'CHART QUERY' … [--lang en|zh]]
    scaling --help

OPTIONS:
    --query Q     the page's query string (copy it from the address bar; a whole URL works)
    --preset NAME a built-in scenario (see `scaling presets`); --query keys override it
    --format F    text (default), csv, md (Markdown), json, or megatron / torchtitan / nemo:
                  the layout, batch and recomputation as Megatron-LM flags, a torchtitan TOML
                  or NeMo recipe overrides
                  (with layouts, each ranked layout's; on a panel, at the baseline N₀)
    --svg FILE    also write the chart as SVG (same chart code as the page's canvas)
    --chart C     which chart --svg writes, by the page's chart id, with or without the
                  panel's prefix (--chart memory on strong is strong-memory; default: the
                  panel's first chart)
    --n N         layouts: the GPU count to search at (the batch is the strong sweep's B,
                  or the weak sweep's batch at N when the link's view is weak)
    --top K       layouts: how many of the fastest to print (default 10); the scenario's own
                  layout is always printed, marked current, with its rank
    --published   layouts: the published runs' layouts from physics alone (F_eff = r∞ · peak
                  · η), each with its rank in the search, the fastest layout, and the model's
                  MFU against the published one (docs/model/14-layout-search.md)
    prerender     the page's first view for the build (scripts/prerender.mjs): the Laws,
                  Strong and Weak panels with the link's inputs (default: the default
                  scenario's) as JSON HTML fragments, each an element id, where it goes and
                  its HTML; with --figure (repeated), each figure's chart for its query as
                  the Learn view shows it (scripts/learn-files.mjs), a JSON list of SVGs
    import        read a run's config files (Hugging Face config.json, Megatron-LM flags, …)
                  and training logs (docs/import.md) into the scenario: print the link, and
                  what each key of each file set, approximated or ignored (configs apply in
                  order, each over the last; then the logs, together: several logs of one
                  model at different GPU counts are measured points, fitted)
    --import FILE on a panel or layouts command: the same files, then print that panel
    machines      the machines mach= takes: the datasheet values it sets (peak per precision,
                  hbm, nvd, bnv, beff) and each value's source (docs/machines.md)
    --shape NAME  a published model's shape and pretraining sequence length (see `scaling
                  shapes`), over the link or preset; the layout and batch stay as they are
    --lang L      en or zh: the language of tables, figures, messages and charts (default:
                  the link's lang=, else English)
    --compare Q   print scenario B = Q against the scenario above (A) as the page does with
                  A pinned: tables in B / A / Δ rows, figures \"B (A: a)\", charts with A faded;
                  json is B's document with A's inside as \"compare\": {\"a\": …}. A --query
                  with pin= compares the same way.

EXAMPLES:
    scaling laws --query 'v=1&f=0.05' --format json
    scaling laws --preset karp-flatt --format md --svg karp.svg --chart laws-karp-flatt
    scaling strong --preset seed-strong --format json
    scaling weak --preset seed-weak --svg weak.svg --chart weak-steps
    scaling plan --preset seed-weak --format json
    scaling report --query 'v=1&preset=seed-weak&lv=fp8'
    scaling strong --preset seed-strong --compare 'v=1&preset=seed-strong&lv=fp8' --format md
    scaling layouts --preset gpt3-175b-walls --n 1024 --top 5
    scaling layouts --published --format md
    scaling strong --query 'v=1&preset=gpt3-175b-walls&mach=gb200&prec=fp8'
    scaling machines --format md
    scaling import config.json --query 'v=1&b=16M&tp=8&pp=4&mbs=1'
    scaling import run-16gpu.log run-32gpu.log
    scaling strong --import config.json --import train.sh
";

/// `scaling --help`: the usage text with each panel's charts listed from the chart table.
pub fn usage() -> String {
    [View::Laws, View::Strong, View::Weak, View::Plan]
        .into_iter()
        .fold(USAGE_TEMPLATE.to_string(), |text, view| {
            text.replace(&format!("{{{}}}", view.key()), &cli_choices(view))
        })
}

/// Output formats of the tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Csv,
    Markdown,
    Json,
    /// The scenario's layout, batch and recomputation as Megatron-LM flags
    /// (`scaling_core::scenario::export`); with `layouts`, each ranked layout's.
    Megatron,
    /// The same as a torchtitan job config's tables.
    Torchtitan,
    /// The same as NeMo 2.0 recipe overrides.
    Nemo,
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
    /// `scaling presets [--lang en|zh]`.
    Presets {
        lang: Option<Lang>,
    },
    /// `scaling shapes`: the published models' shapes `--shape` takes.
    Shapes,
    /// `scaling machines [--format F]`: the machines `mach=` takes, their datasheet values
    /// and sources.
    Machines {
        format: Format,
        lang: Option<Lang>,
    },
    /// `scaling prerender [--query Q]`: the first view's HTML fragments, as JSON; with
    /// `--figure 'CHART QUERY'` (repeated, and `--lang`), the Learn view's figures' SVGs.
    Prerender {
        query: Option<String>,
        figures: Vec<String>,
        lang: Option<Lang>,
    },
    /// `scaling layouts --published`: the published runs' layouts from physics alone.
    Published {
        format: Format,
        lang: Option<Lang>,
    },
    /// `scaling import FILE…`: the files read into the scenario, its link and the report.
    Import {
        files: Vec<String>,
        query: Option<String>,
        preset: Option<String>,
        format: Format,
        lang: Option<Lang>,
    },
    /// `scaling layouts --n N …`: every parallel layout at `N` GPUs, fastest first.
    Layouts {
        query: Option<String>,
        preset: Option<String>,
        /// `--import FILE`, in order.
        imports: Vec<String>,
        gpus: f64,
        top: usize,
        format: Format,
        lang: Option<Lang>,
    },
    Panel {
        panel: Panel,
        query: Option<String>,
        preset: Option<String>,
        /// `--import FILE`, in order.
        imports: Vec<String>,
        format: Format,
        svg: Option<String>,
        chart: Option<String>,
        lang: Option<Lang>,
        /// `--compare Q`: scenario B, printed against the main scenario as A.
        compare: Option<String>,
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
                writeln!(
                    f,
                    "{}",
                    tr(
                        "the scenario has values that cannot be used:",
                        "场景中有无法使用的值："
                    )
                )?;
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

/// A whole number of at least `min` (`1,024` and `1024` alike), for `--n` and `--top`.
fn whole_number(text: &str, min: usize) -> Option<usize> {
    text.trim()
        .replace(',', "")
        .parse::<usize>()
        .ok()
        .filter(|&v| v >= min && v <= 1 << 30)
}

/// The value of the option just read, as text.
fn text(parser: &mut lexopt::Parser) -> Result<String, CliError> {
    use lexopt::ValueExt;
    let usage = |e: lexopt::Error| CliError::Usage(e.to_string());
    parser.value().map_err(usage)?.string().map_err(usage)
}

/// `--format`'s value.
fn parse_format(value: &str) -> Result<Format, CliError> {
    Ok(match value {
        "text" => Format::Text,
        "csv" => Format::Csv,
        "md" | "markdown" => Format::Markdown,
        "json" => Format::Json,
        "megatron" => Format::Megatron,
        "torchtitan" => Format::Torchtitan,
        "nemo" => Format::Nemo,
        other => {
            return Err(CliError::Usage(format!(
                "unknown --format “{other}”: use text, csv, md, json, megatron, torchtitan or nemo"
            )))
        }
    })
}

/// Parses the arguments after the program name.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Command, CliError> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let usage = |e: lexopt::Error| CliError::Usage(e.to_string());
    let mut a = Args {
        top: 10,
        ..Args::default()
    };
    while let Some(arg) = parser.next().map_err(usage)? {
        match arg {
            Short('h') | Long("help") => return Ok(Command::Help),
            Long("query") | Short('q') => a.query = Some(text(&mut parser)?),
            Long("preset") | Short('p') => a.preset = Some(text(&mut parser)?),
            Long("svg") => a.svg = Some(text(&mut parser)?),
            Long("format") | Short('f') => a.format = parse_format(&text(&mut parser)?)?,
            Long("compare") => a.compare = Some(text(&mut parser)?),
            Long("chart") => a.chart = Some(text(&mut parser)?),
            Long("n") => {
                let value = text(&mut parser)?;
                a.gpus =
                    Some(whole_number(&value, 1).ok_or_else(|| {
                        CliError::Usage(format!("--n “{value}” is not a GPU count"))
                    })? as f64);
            }
            Long("published") => a.published = true,
            Long("figure") => a.figures.push(text(&mut parser)?),
            Long("import") => a.imports.push(text(&mut parser)?),
            Long("shape") => a.shape = Some(text(&mut parser)?),
            Long("top") => {
                let value = text(&mut parser)?;
                a.top = whole_number(&value, 1)
                    .ok_or_else(|| CliError::Usage(format!("--top “{value}” is not a count")))?;
            }
            Long("lang") => {
                let value = text(&mut parser)?;
                a.lang = Some(Lang::from_key(&value).ok_or_else(|| {
                    CliError::Usage(format!("unknown --lang “{value}”: use en or zh"))
                })?);
            }
            Value(v) if a.subcommand.is_none() => a.subcommand = Some(v.string().map_err(usage)?),
            Value(v) if a.subcommand.as_deref() == Some("import") => {
                a.files.push(v.string().map_err(usage)?)
            }
            other => return Err(usage(other.unexpected())),
        }
    }
    a.into_command()
}

/// The arguments as read, before they make a [`Command`].
#[derive(Default)]
struct Args {
    subcommand: Option<String>,
    query: Option<String>,
    preset: Option<String>,
    svg: Option<String>,
    format: Format,
    chart: Option<String>,
    lang: Option<Lang>,
    compare: Option<String>,
    gpus: Option<f64>,
    top: usize,
    published: bool,
    figures: Vec<String>,
    imports: Vec<String>,
    files: Vec<String>,
    shape: Option<String>,
}

impl Args {
    fn into_command(self) -> Result<Command, CliError> {
        let Args {
            subcommand,
            query,
            preset,
            svg,
            format,
            chart,
            lang,
            compare,
            gpus,
            top,
            published,
            figures,
            imports,
            files,
            shape,
        } = self;
        // A shape is the first thing read over the link: `--import` files come after it.
        let (query, shape_error) = match shape.as_deref().map(shape_query) {
            Some(Ok(q)) => (Some(format!("{}&{q}", query.unwrap_or_default())), None),
            Some(Err(e)) => (query, Some(e)),
            None => (query, None),
        };
        if let Some(e) = shape_error {
            return Err(e);
        }
        let panel = match subcommand.as_deref() {
            None => return Ok(Command::Help),
            Some("presets") => return Ok(Command::Presets { lang }),
            Some("shapes") => return Ok(Command::Shapes),
            Some("machines") => return Ok(Command::Machines { format, lang }),
            Some("prerender") => {
                return Ok(Command::Prerender {
                    query,
                    figures,
                    lang,
                })
            }
            Some("layouts") if published => return Ok(Command::Published { format, lang }),
            Some("import") if files.is_empty() => {
                return Err(CliError::Usage("import needs a FILE to read".into()))
            }
            Some("import") => {
                return Ok(Command::Import {
                    files,
                    query,
                    preset,
                    format,
                    lang,
                })
            }
            Some("layouts") => {
                return Ok(Command::Layouts {
                    query,
                    preset,
                    imports,
                    gpus: gpus.ok_or_else(|| {
                        CliError::Usage("layouts needs --n N (a GPU count)".into())
                    })?,
                    top,
                    format,
                    lang,
                })
            }
            Some("laws") => Panel::Laws,
            Some("strong") => Panel::Strong,
            Some("weak") => Panel::Weak,
            Some("plan") => Panel::Plan,
            Some("report") => Panel::Report,
            Some(other) => {
                return Err(CliError::Usage(format!(
                "unknown command “{other}”: use laws, strong, weak, plan, report, layouts, import, presets, machines or prerender"
            )))
            }
        };
        Ok(Command::Panel {
            panel,
            query,
            preset,
            imports,
            format,
            svg,
            chart,
            lang,
            compare,
        })
    }
}

/// `--shape NAME`'s inputs as a query, or why the name is unknown.
fn shape_query(name: &str) -> Result<String, CliError> {
    ModelShape::by_name(name)
        .map(|m| m.query_with_params())
        .ok_or_else(|| {
            let names: Vec<&str> = SHAPES.iter().map(|m| m.name).collect();
            CliError::Usage(format!(
                "unknown --shape “{name}”: use one of {}",
                names.join(", ")
            ))
        })
}

/// Reads `files` in order into `scenario` (each over the last): the scenario and, per file,
/// its name and what was read; a file that cannot be read or is refused names itself. The
/// training logs among them are read last, as one text (`==> FILE <==` before each, as
/// `tail` writes several files), so that they make one sweep; a file no importer reads
/// joins them when there are logs (a test's `model_config.yaml` beside its golden values).
pub fn import_files(
    mut scenario: Scenario,
    files: &[String],
) -> Result<(Scenario, Vec<(String, Import)>), CliError> {
    let mut texts = Vec::new();
    for path in files {
        let bytes =
            std::fs::read(path).map_err(|e| CliError::Io(format!("cannot read {path}: {e}")))?;
        texts.push((path, String::from_utf8_lossy(&bytes).into_owned()));
    }
    let any_log = texts.iter().any(|(_, t)| import::log::is_log(t));
    let mut read = Vec::new();
    let mut bundled: Vec<(String, String)> = Vec::new();
    for (path, text) in &texts {
        let refused = |e: ImportError| CliError::Scenario(vec![format!("{path}: {e}")]);
        if import::log::is_log(text) {
            bundled.push(((*path).clone(), text.clone()));
            continue;
        }
        match import::read(text) {
            Err(ImportError::UnknownFormat) if any_log => {
                bundled.push(((*path).clone(), text.clone()));
            }
            Err(e) => return Err(refused(e)),
            Ok(import) => {
                scenario = import::apply(&scenario, &import).map_err(refused)?;
                read.push(((*path).clone(), import));
            }
        }
    }
    if !bundled.is_empty() {
        let name = bundled
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(" + ");
        let refused = |e: ImportError| CliError::Scenario(vec![format!("{name}: {e}")]);
        let import = import::read(&import::log::bundle(&bundled)).map_err(refused)?;
        scenario = import::apply(&scenario, &import).map_err(refused)?;
        read.push((name, import));
    }
    Ok((scenario, read))
}

/// `scaling import`'s report: the link, what the run still lacks, then each file's format and
/// each key's outcome.
fn import_report(scenario: &Scenario, read: &[(String, Import)], format: Format) -> String {
    // What the run still lacks once every file is read: the last file that set part of the
    // shape decides (a TOML after a config can complete it).
    let missing = read
        .iter()
        .rev()
        .find_map(|(_, import)| import::missing(import, scenario));
    if format == Format::Json {
        let files: Vec<serde_json::Value> = read
            .iter()
            .map(|(path, import)| {
                serde_json::json!({
                    "file": path,
                    "format": import.format.name(),
                    "entries": import.entries.iter().map(|e| serde_json::json!({
                        "source": e.source,
                        "line": e.line,
                        "outcome": e.kind(),
                        "text": e.describe(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        let doc = serde_json::json!({
            "query": scenario.to_query(),
            "missing": missing.as_ref().map(import::Missing::describe),
            "files": files,
        });
        return serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n";
    }
    let mut out = trf!("link: ?{}\n", "链接：?{}\n", scenario.to_query());
    if let Some(m) = &missing {
        out.push_str(&m.describe());
        out.push('\n');
    }
    for (path, import) in read {
        out.push_str(&format!(
            "\n{path}{}\n",
            trf!(" ({})", "（{}）", import.format.label())
        ));
        for e in &import.entries {
            // A key the text leaves out (a tool's default) has no line.
            let line = if e.line == 0 {
                String::new()
            } else {
                e.line.to_string()
            };
            out.push_str(&format!("  {:>4}  {}: {}\n", line, e.source, e.describe()));
        }
    }
    out
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

impl Panel {
    /// The page's panel this command prints (`report` is the Plan panel's checklist).
    pub fn view(self) -> View {
        match self {
            Panel::Laws => View::Laws,
            Panel::Strong => View::Strong,
            Panel::Weak => View::Weak,
            Panel::Plan | Panel::Report => View::Plan,
        }
    }
}

/// The size of the SVG the CLI writes (and the page's SVG export), CSS pixels.
pub const SVG_SIZE: (u32, u32) = scaling_core::chart::svg::SIZE;

/// Renders one chart of a panel as SVG. `chart` is a chart id of the page, or the id without
/// its panel's prefix (`scaling strong --chart memory` is `strong-memory`); it defaults to the
/// panel's first chart.
pub fn panel_svg(panel: &PanelData, chart: Option<&str>) -> Result<String, CliError> {
    let which = match chart {
        None => panel.charts().next(),
        Some(id) => panel.charts().find(|c| {
            c.id() == id || c.id().strip_prefix(panel.view.key()) == Some(&format!("-{id}"))
        }),
    };
    let Some(which) = which else {
        let known: Vec<&str> = panel.charts().map(ChartId::id).collect();
        return Err(CliError::Usage(format!(
            "unknown --chart “{}” for this command: use {}",
            chart.unwrap_or(""),
            known.join(", ")
        )));
    };
    // `theme=dark` in the link draws the dark chart, as the page's SVG export does.
    let style = ChartStyle {
        theme: if panel.scenario.theme == Some(ThemeChoice::Dark) {
            Theme::DARK
        } else {
            Theme::LIGHT
        },
        ..ChartStyle::default()
    };
    scaling_core::chart::svg::render(SVG_SIZE, |root| panel.draw(which, root, &style).map(|_| ()))
        .map_err(|e| CliError::Chart(e.to_string()))
}

/// `scaling prerender`: the first view's fragments (`panel::prerender`) as JSON, in English
/// (the language of the page's HTML).
fn prerender(
    query: Option<&str>,
    figures: &[String],
    lang: Option<Lang>,
) -> Result<String, CliError> {
    let json = if figures.is_empty() {
        set_lang(Lang::En);
        let scenario = scenario_from(query, None)?;
        serde_json::to_string_pretty(&scaling_core::panel::prerender::first_view(&scenario))
    } else {
        set_lang(lang.unwrap_or(Lang::En));
        let svgs = figures
            .iter()
            .map(|figure| {
                let (chart, query) = figure.split_once(' ').unwrap_or((figure, ""));
                let chart = ChartId::from_id(chart)
                    .ok_or_else(|| CliError::Usage(format!("--figure: unknown chart “{chart}”")))?;
                // A figure's query is checked as `--query` is: a build must not draw a
                // default chart in place of a mistyped one without a word.
                let scenario = scenario_from(Some(query), None)?;
                scaling_core::panel::prerender::figure_svg(chart, &scenario)
                    .ok_or_else(|| CliError::Chart(format!("--figure: {chart:?} drew nothing")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        serde_json::to_string_pretty(&svgs)
    };
    json.map(|json| json + "\n")
        .map_err(|e| CliError::Io(e.to_string()))
}

/// `scaling presets`: each name and its description.
fn presets(lang: Option<Lang>) -> String {
    set_lang(lang.unwrap_or_default());
    // One column as wide as the longest name (`megatron-177b-h100` and longer would push their
    // descriptions out of line).
    let width = Preset::ALL
        .iter()
        .map(|p| p.name().len())
        .max()
        .unwrap_or(0);
    Preset::ALL
        .iter()
        .map(|p| format!("{:<width$}  {}\n", p.name(), p.description()))
        .collect()
}

/// `scaling layouts --published`: the sixteen published runs against their stacks' `r∞`,
/// then the published runs per machine, each group calibrated on its first row.
fn published(format: Format) -> Result<String, CliError> {
    use scaling_core::panel::machine_runs::{self, MACHINE_RUNS};
    use scaling_core::panel::{published, recompute_runs};
    let rows: Vec<published::PublishedRow> = published::published_rows()
        .into_iter()
        .collect::<Result<_, _>>()
        .map_err(|e| CliError::Scenario(vec![e]))?;
    let scenario = decode("v=1").scenario;
    let (held, left_out): (Vec<_>, Vec<_>) = machine_runs::held_rows()
        .into_iter()
        .partition(Result::is_ok);
    let held: Vec<machine_runs::HeldRow> = held.into_iter().flatten().collect();
    let recompute = recompute_runs::recompute_rows().map_err(|e| CliError::Scenario(vec![e]))?;
    let json = serde_json::json!({
        "runs": published::published_json(&rows),
        "machine_runs": machine_runs::held_json(&held),
        "machine_runs_left_out": left_out.into_iter().filter_map(Result::err).collect::<Vec<_>>(),
        "korthikanti_table5": recompute_runs::recompute_json(&recompute),
    });
    let mut figures = published::published_figures(&rows);
    figures.extend(machine_runs::held_figures(
        &held,
        MACHINE_RUNS.len() - held.len(),
    ));
    figures.extend(recompute_runs::recompute_figures(&recompute));
    let tables = [
        published::published_table(&rows),
        machine_runs::held_table(&held),
        recompute_runs::recompute_table(&recompute),
    ];
    Ok(render(&scenario, format, &json, &figures, &tables))
}

/// `scaling shapes`: each published shape, the query it stands for and its source.
fn shapes() -> String {
    SHAPES
        .iter()
        .map(|m| {
            format!(
                "{}  ({})\n  --shape '{}'  →  {}\n  {}\n",
                m.name,
                m.card_params,
                m.name,
                m.query,
                (m.source)()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `scaling machines`: the table, then each machine's sources (text and Markdown), or the
/// JSON with every number in SI units.
fn machines(format: Format) -> String {
    use scaling_core::panel::machines::{machine_sources, machines_json, machines_table};
    let table = machines_table();
    let sources = machine_sources;
    match format {
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&machines_json()).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Csv => table.to_csv(),
        Format::Markdown => format!("{}\n{}", table.to_markdown(), sources()),
        _ => format!("{}\n{}", table.to_text(), sources()),
    }
}

/// Runs a command and returns what goes to stdout.
pub fn run(command: &Command) -> Result<String, CliError> {
    match command {
        Command::Help => Ok(usage()),
        Command::Presets { lang } => Ok(presets(*lang)),
        Command::Shapes => Ok(shapes()),
        Command::Machines { format, lang } => {
            set_lang(lang.unwrap_or_default());
            Ok(machines(*format))
        }
        Command::Prerender {
            query,
            figures,
            lang,
        } => prerender(query.as_deref(), figures, *lang),
        Command::Published { format, lang } => {
            set_lang(lang.unwrap_or_default());
            published(*format)
        }
        Command::Import {
            files,
            query,
            preset,
            format,
            lang,
        } => {
            let link_lang = query.as_deref().and_then(|q| decode(q).scenario.lang);
            set_lang(lang.or(link_lang).unwrap_or_default());
            let scenario = scenario_from(query.as_deref(), preset.as_deref())?;
            let (scenario, read) = import_files(scenario, files)?;
            Ok(import_report(&scenario, &read, *format))
        }
        Command::Layouts {
            query,
            preset,
            imports,
            gpus,
            top,
            format,
            lang,
        } => {
            let link_lang = query.as_deref().and_then(|q| decode(q).scenario.lang);
            set_lang(lang.or(link_lang).unwrap_or_default());
            let scenario = scenario_from(query.as_deref(), preset.as_deref())?;
            let (scenario, _) = import_files(scenario, imports)?;
            let search = scaling_core::panel::layouts::search_at(&scenario, *gpus)
                .map_err(|e| CliError::Scenario(vec![e]))?;
            let json = scaling_core::panel::layouts::layouts_json(&search, *top);
            let figures: Vec<_> = scaling_core::panel::layouts::layouts_figures(&search)
                .into_iter()
                .chain(scaling_core::panel::layouts::ranking_basis(&scenario.llm))
                .collect();
            let tool = match format {
                Format::Megatron => Some(Tool::Megatron),
                Format::Torchtitan => Some(Tool::Torchtitan),
                Format::Nemo => Some(Tool::Nemo),
                _ => None,
            };
            if let Some(tool) = tool {
                return Ok(scaling_core::panel::layouts::rows_launch_settings(
                    &scenario, &search, *top, tool,
                ));
            }
            let table = scaling_core::panel::layouts::layouts_table(&search, *top);
            Ok(render(&scenario, *format, &json, &figures, &[table]))
        }
        Command::Panel {
            panel,
            query,
            preset,
            imports,
            format,
            svg,
            chart,
            lang,
            compare,
        } => panel_output(
            *panel,
            query.as_deref(),
            preset.as_deref(),
            imports,
            *format,
            svg.as_deref(),
            chart.as_deref(),
            *lang,
            compare.as_deref(),
        ),
    }
}

/// `scaling laws|strong|weak|plan|report`: the panel of the scenario the options make.
#[allow(clippy::too_many_arguments)] // one per option of the command, as `Command::Panel` holds them
fn panel_output(
    panel: Panel,
    query: Option<&str>,
    preset: Option<&str>,
    imports: &[String],
    format: Format,
    svg: Option<&str>,
    chart: Option<&str>,
    lang: Option<Lang>,
    compare: Option<&str>,
) -> Result<String, CliError> {
    // The language first, so messages about a bad link are in it too: --lang, else
    // the link's lang=, else English.
    let link_lang = [query, compare]
        .into_iter()
        .flatten()
        .find_map(|q| decode(q).scenario.lang);
    set_lang(lang.or(link_lang).unwrap_or_default());
    let (mut scenario, _) = import_files(scenario_from(query, preset)?, imports)?;
    if let Some(q) = compare {
        let a = scenario.as_pinned();
        scenario = scenario_from(Some(q), None)?;
        scenario.pinned = Some(Box::new(a));
    }
    let data = PanelData::compute(&scenario, panel.view());
    if let Some(path) = svg {
        let doc = panel_svg(&data, chart)?;
        std::fs::write(path, doc).map_err(|e| CliError::Io(format!("cannot write {path}: {e}")))?;
    }
    if panel == Panel::Report {
        let r = data.checklist().unwrap_or_default();
        if format == Format::Json {
            let json = serde_json::to_value(&r).unwrap_or_default();
            return Ok(render(&scenario, format, &json, &[], &[]));
        }
        let mut out = format!("{}\n\n{}\n", r.en, r.zh);
        for w in &r.warnings {
            out.push_str(&format!("\nwarning: {}\n警告：{}\n", w.en, w.zh));
        }
        return Ok(out);
    }
    let mut figures = data.figures();
    figures.extend(
        data.memory_note()
            .map(|n| (tr("Memory", "显存").to_string(), n)),
    );
    let tables: Vec<Table> = data.tables().into_iter().filter_map(|t| t.table).collect();
    Ok(render(
        &scenario,
        format,
        &data.json(&[]),
        &figures,
        &tables,
    ))
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
            let mut out = trf!("scenario: ?{}\n\n", "场景：?{}\n\n", scenario.to_query());
            for (label, value) in figures {
                out.push_str(&trf!("{}: {}\n", "{}：{}\n", label, value));
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
        Format::Megatron => {
            export::launch_settings(scenario, Tool::Megatron, scenario.llm.baseline_gpus)
        }
        Format::Torchtitan => {
            export::launch_settings(scenario, Tool::Torchtitan, scenario.llm.baseline_gpus)
        }
        Format::Nemo => export::launch_settings(scenario, Tool::Nemo, scenario.llm.baseline_gpus),
        Format::Csv => tables
            .iter()
            .map(|t| format!("# {}\r\n{}", t.caption, t.to_csv()))
            .collect::<Vec<_>>()
            .join("\r\n"),
    }
}
