//! The command line: the usage text, the commands and their options, and the errors.

use super::*;

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
    scaling keys   [--format text|json]
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
    /// `scaling keys [--format F]`: every URL key, its group, label and what it accepts; with
    /// `json`, the key table as `docs/keys.json` holds it.
    Keys {
        format: Format,
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
pub(crate) fn whole_number(text: &str, min: usize) -> Option<usize> {
    text.trim()
        .replace(',', "")
        .parse::<usize>()
        .ok()
        .filter(|&v| v >= min && v <= 1 << 30)
}

/// The value of the option just read, as text.
pub(crate) fn text(parser: &mut lexopt::Parser) -> Result<String, CliError> {
    use lexopt::ValueExt;
    let usage = |e: lexopt::Error| CliError::Usage(e.to_string());
    parser.value().map_err(usage)?.string().map_err(usage)
}

/// `--format`'s value.
pub(crate) fn parse_format(value: &str) -> Result<Format, CliError> {
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
            Some("keys") => return Ok(Command::Keys { format }),
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
