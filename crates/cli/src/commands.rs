//! What each command prints: the panels, imports, presets, shapes, machines, the published
//! runs and the prerendered first view.

use super::*;

/// `--shape NAME`'s inputs as a query, or why the name is unknown.
pub(crate) fn shape_query(name: &str) -> Result<String, CliError> {
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
pub(crate) fn import_report(
    scenario: &Scenario,
    read: &[(String, Import)],
    format: Format,
) -> String {
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

/// `scaling prerender`: the first view's fragments (`panel::prerender`) as JSON, in English
/// (the language of the page's HTML).
pub(crate) fn prerender(
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
pub(crate) fn presets(lang: Option<Lang>) -> String {
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
/// then the published runs per machine, each group calibrated on its first row (the JSON's
/// `software_drift`: each dense row's spread across the releases that publish it).
pub(crate) fn published(format: Format) -> Result<String, CliError> {
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
        "software_drift": machine_runs::release_spreads(&MACHINE_RUNS),
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
pub(crate) fn shapes() -> String {
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

/// `scaling keys`: one line per URL key in URL order (its name, group, label and what it
/// accepts), or with `--format json` the key table as `docs/keys.json` holds it.
pub(crate) fn keys(format: Format) -> String {
    use scaling_core::scenario::Key;
    if format == Format::Json {
        return scaling_core::panel::inputs::keys_json();
    }
    let width = Key::ALL.iter().map(|k| k.name().len()).max().unwrap_or(0);
    Key::ALL
        .iter()
        .map(|k| {
            let accepted = k
                .bounds()
                .or_else(|| k.spec().url.get(2).map(|a| a.to_string()))
                .unwrap_or_default();
            let group = format!("{:?}", k.group()).to_lowercase();
            format!(
                "{:width$}  {group:8}  {}: {accepted}\n",
                k.name(),
                k.label()
            )
        })
        .collect()
}

/// `scaling machines`: the table, then each machine's sources (text and Markdown), or the
/// JSON with every number in SI units.
pub(crate) fn machines(format: Format) -> String {
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

/// `scaling laws|strong|weak|plan|report`: the panel of the scenario the options make.
#[allow(clippy::too_many_arguments)] // one per option of the command, as `Command::Panel` holds them
pub(crate) fn panel_output(
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
