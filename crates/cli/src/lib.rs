//! The `scaling` command: the page's scenario string in, tables / JSON / SVG out.
//!
//! It reads the same query string as the page through the same [`decode`], computes with the
//! same model and formats with the same panel layer ([`scaling_core::panel`]), so it never disagrees
//! with the page. The logic lives in this library (testable): the arguments in `args`, what
//! each command prints in `commands`, the output formats in `output`, and [`run`] here, which
//! dispatches; `src/main.rs` only calls it.

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

mod args;
mod commands;
mod output;

pub use args::{parse_args, usage, CliError, Command, Format, Panel};
use commands::*;
pub use commands::{import_files, scenario_from};
use output::*;
pub use output::{panel_svg, SVG_SIZE};

/// Runs a command and returns what goes to stdout.
pub fn run(command: &Command) -> Result<String, CliError> {
    match command {
        Command::Help => Ok(usage()),
        Command::Presets { lang } => Ok(presets(*lang)),
        Command::Shapes => Ok(shapes()),
        Command::Keys { format } => Ok(keys(*format)),
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
