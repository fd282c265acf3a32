//! Output formats: a panel as text, CSV, Markdown or JSON, and a chart as SVG.

use super::*;

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

/// Formats a panel's output.
pub(crate) fn render(
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
