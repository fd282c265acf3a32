//! The panel layer: what each panel of the page computes, shows, draws and reads out on hover,
//! written once for the page (`crate::web`), the CLI (`scaling_cli`, crates/cli), the JavaScript API and
//! the tests.
//!
//! A [`Panel`] is a scenario computed for one [`View`]: [`Panel::compute`] runs the sweeps the
//! panel needs (and only those). From it come
//! - [`Panel::shown`]: every text the panel shows — key figures, tables, chart summaries,
//!   notes, the reporting checklist — keyed by the DOM id it goes into;
//! - [`Panel::draw`]: one of the panel's charts ([`ChartId`]) on any plotters backend;
//! - [`Panel::readout`]: the hover text of a chart at a GPU / processor count;
//! - [`Panel::json`]: the document `scaling <panel> --format json` prints and
//!   `scalingExplorer.compute(query)` returns.
//!
//! DOM ids: a chart `<id>` draws into `#<id>-canvas`, reads out into `#<id>-readout`, is
//! described by `#<id>-summary`; a table `<id>` goes into `#<id>-table`; key figures into
//! `#<view>-figures`.

pub mod charts;
pub mod checklist;
pub mod exercise;
pub mod export_rows;
pub mod fit;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
pub mod inputs;
pub mod laws;
pub mod layouts;
pub mod llm;
pub mod machine_runs;
#[cfg(any(not(target_arch = "wasm32"), feature = "web-zh"))]
pub mod machines;
pub mod plan;
pub mod prerender;
pub mod published;
pub mod recompute_runs;
pub mod step_model;
pub mod table;
pub mod walls;

use crate::chart::line::{draw_line_chart, LineChart};
use crate::chart::llm as llm_chart;
use crate::chart::plan as plan_chart;
use crate::chart::{laws as laws_chart, ChartError, ChartStyle, PlotArea};
use crate::model::llm::LlmSweep;
use crate::model::plan::PlanSweep;
use crate::model::sweep::LawsSweep;
use crate::scenario::{Scenario, View};
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;
use table::Table;

pub use charts::{summary_id, ChartId, Drawing};

/// The sweeps a panel was computed from.
#[derive(Debug, Clone)]
enum Computed {
    Laws(LawsSweep),
    Llm(LlmSweep),
    Plan {
        llm: LlmSweep,
        plan: PlanSweep,
        levers: Vec<plan::LeverRow>,
    },
}

/// Every table id of the page, in page order (`#<id>-table` holds it).
pub const TABLE_IDS: [&str; 10] = [
    "laws-speedup",
    "laws-efficiency",
    "laws-measured",
    "strong",
    "strong-fit",
    "strong-layouts",
    "weak",
    "weak-fit",
    "plan",
    "levers",
];

/// A table the panel shows in `#<id>-table`; `None` empties the container (the Laws panel's
/// measured table before anything is measured).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableSlot {
    pub id: &'static str,
    pub table: Option<Table>,
}

/// Everything a panel shows as text, keyed by the DOM id it goes into.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shown {
    /// Key figures, `(label, value)`, shown in `#<view>-figures`.
    pub figures: Vec<(String, String)>,
    pub tables: Vec<TableSlot>,
    /// Chart summaries, notes and the checklist paragraphs: `(element id, text)`.
    pub texts: Vec<(&'static str, String)>,
    /// Lists (the checklist's warnings): `(element id, items)`.
    pub lists: Vec<(&'static str, Vec<String>)>,
    /// Links to another view of the page: `(element id, query)`; an empty query hides the
    /// link.
    pub links: Vec<(&'static str, String)>,
}

/// A scenario computed for one panel.
#[derive(Debug, Clone)]
pub struct Panel {
    pub view: View,
    pub scenario: Scenario,
    computed: Computed,
    /// The pinned scenario A computed for the same view (`pin=`).
    pinned: Option<Box<Panel>>,
    /// The layout explorer of the strong panel (`lx` GPUs), when asked for: every layout
    /// ranked, or why there is none.
    explorer: Option<Result<crate::model::layouts::Search, String>>,
}

impl Panel {
    /// Runs the sweeps `view` needs for `scenario` (the scenario's own `view` is not read, so
    /// the CLI can print any panel of a link).
    pub fn compute(scenario: &Scenario, view: View) -> Panel {
        Self::compute_with(scenario, view, None)
    }

    /// As [`Panel::compute`], but with `last`'s layout explorer, when it searched the same GPU
    /// count: the search, the heaviest part of a frame (every layout at `lx` GPUs), is left
    /// for later. The page's drag frames ([`crate::page::Frame::defers_search`]) show the
    /// explorer of the last whole frame, marked as pending, and the whole frame after the drag
    /// searches again. `None` when `last` has no such search to keep.
    pub fn compute_keeping_search(scenario: &Scenario, view: View, last: &Panel) -> Option<Panel> {
        (last.view == view
            && last.explorer.is_some()
            && last.scenario.llm.explorer_gpus == scenario.llm.explorer_gpus)
            .then(|| Self::compute_with(scenario, view, Some(last)))
    }

    fn compute_with(scenario: &Scenario, view: View, last: Option<&Panel>) -> Panel {
        let computed = match view {
            // The Learn view draws other panels' charts of its own links; asked for itself
            // (the API, the CLI's checks) it answers as the Laws panel with no charts.
            View::Laws | View::Learn => Computed::Laws(LawsSweep::compute(&scenario.laws_inputs())),
            View::Strong | View::Weak => {
                Computed::Llm(LlmSweep::compute(&scenario.llm_inputs_for(view)))
            }
            View::Plan => Computed::Plan {
                llm: LlmSweep::compute(&scenario.llm_inputs_for(view)),
                plan: PlanSweep::compute(&scenario.plan_inputs()),
                levers: plan::lever_rows(scenario),
            },
        };
        let explorer = match last {
            Some(l) => l.explorer.clone(),
            None => (view == View::Strong && scenario.llm.explorer_gpus > 0.0)
                .then(|| layouts::search_at(scenario, scenario.llm.explorer_gpus)),
        };
        Panel {
            view,
            scenario: scenario.clone(),
            computed,
            explorer,
            pinned: scenario
                .pinned
                .as_ref()
                .map(|a| Box::new(Panel::compute_with(a, view, last.and_then(Panel::pinned)))),
        }
    }

    /// The pinned scenario A's panel, when the scenario has one.
    pub fn pinned(&self) -> Option<&Panel> {
        self.pinned.as_deref()
    }

    /// The panel's charts, in page order.
    pub fn charts(&self) -> impl Iterator<Item = ChartId> {
        ChartId::of(self.view)
    }

    /// The laws sweep, for the Laws panel.
    pub fn laws(&self) -> Option<&LawsSweep> {
        match &self.computed {
            Computed::Laws(s) => Some(s),
            _ => None,
        }
    }

    /// The LLM sweep, for the strong, weak and Plan panels.
    pub fn llm(&self) -> Option<&LlmSweep> {
        match &self.computed {
            Computed::Llm(s) | Computed::Plan { llm: s, .. } => Some(s),
            Computed::Laws(_) => None,
        }
    }

    /// The planner's sweep, for the Plan panel.
    pub fn plan(&self) -> Option<&PlanSweep> {
        match &self.computed {
            Computed::Plan { plan, .. } => Some(plan),
            _ => None,
        }
    }

    /// The lever table's rows, for the Plan panel.
    pub fn levers(&self) -> &[plan::LeverRow] {
        match &self.computed {
            Computed::Plan { levers, .. } => levers,
            _ => &[],
        }
    }

    /// The id of the element holding the key figures.
    pub fn figures_id(&self) -> &'static str {
        match self.view {
            View::Laws => "laws-figures",
            View::Strong => "strong-figures",
            View::Weak => "weak-figures",
            View::Plan => "plan-figures",
            View::Learn => "learn-figures",
        }
    }

    /// The key figures above the charts; with a pinned A, "B's value (A: A's value)", A's
    /// figure matched by label, else by position.
    pub fn figures(&self) -> Vec<(String, String)> {
        let b = self.own_figures();
        let Some(a) = self.pinned().map(Panel::own_figures) else {
            return b;
        };
        b.iter()
            .enumerate()
            .map(|(i, (label, v))| {
                let av = a.iter().find(|f| f.0 == *label).or(a.get(i));
                let av = av.map_or("—", |f| f.1.as_str());
                (label.clone(), trf!("{} (A: {})", "{}（A：{}）", v, av))
            })
            .collect()
    }

    fn own_figures(&self) -> Vec<(String, String)> {
        match (&self.computed, self.view) {
            (Computed::Laws(s), _) => laws::key_figures(s, self.scenario.laws.measured_kind),
            (Computed::Llm(s), View::Strong) => {
                let l = &self.scenario.llm;
                let mut figures: Vec<_> = step_model::mfu_above_peak(s, l, false)
                    .into_iter()
                    .chain(llm::strong_key_figures(s))
                    .chain(step_model::step_model_figure(l))
                    .collect();
                figures.extend(fit::fit_figures(s, self.scenario.llm.peak_flops_per_gpu));
                // The explorer's answer, or why it has none (no shape, no layout divides `lx`).
                figures.extend(
                    self.explorer
                        .as_ref()
                        .map(|e| layouts::explorer_figures(e, l))
                        .into_iter()
                        .flatten(),
                );
                figures
            }
            (Computed::Llm(s), _) => {
                let l = &self.scenario.llm;
                let mut figures: Vec<_> = step_model::mfu_above_peak(s, l, true)
                    .into_iter()
                    .chain(llm::weak_key_figures(s))
                    .chain(step_model::step_model_figure(l))
                    .collect();
                if s.fit.as_ref().is_some_and(|f| f.per_doubling_of.is_some()) {
                    figures.extend(fit::fit_figures(s, self.scenario.llm.peak_flops_per_gpu));
                }
                figures
            }
            (Computed::Plan { llm, plan, .. }, _) => plan::key_figures(plan, llm),
        }
    }

    /// The panel's tables in page order; with a pinned A, each compared with A's
    /// ([`Table::compare`]).
    pub fn tables(&self) -> Vec<TableSlot> {
        let b = self.own_tables();
        let Some(a) = self.pinned().map(Panel::own_tables) else {
            return b;
        };
        b.into_iter()
            .map(|slot| {
                let other = a
                    .iter()
                    .find(|s| s.id == slot.id)
                    .and_then(|s| s.table.as_ref());
                TableSlot {
                    id: slot.id,
                    table: slot.table.map(|t| t.compare(other)),
                }
            })
            .collect()
    }

    fn own_tables(&self) -> Vec<TableSlot> {
        let slot = |id, table| TableSlot { id, table };
        match (&self.computed, self.view) {
            (Computed::Laws(s), _) => vec![
                slot("laws-speedup", Some(laws::speedup_table(s))),
                slot("laws-efficiency", Some(laws::efficiency_table(s))),
                slot("laws-measured", laws::measured_table(s)),
            ],
            (Computed::Llm(s), View::Strong) => {
                vec![
                    slot("strong", Some(llm::strong_table(s))),
                    slot("strong-fit", fit::fit_table(s, "strong-fit")),
                    // The layout explorer (`lx`).
                    slot(
                        "strong-layouts",
                        self.explorer
                            .as_ref()
                            .and_then(|e| e.as_ref().ok())
                            .map(|search| layouts::layouts_table(search, layouts::EXPLORER_ROWS)),
                    ),
                ]
            }
            (Computed::Llm(s), _) => vec![
                slot("weak", Some(llm::weak_table(s))),
                slot("weak-fit", fit::fit_table(s, "weak-fit")),
            ],
            (Computed::Plan { plan, levers, .. }, _) => vec![
                slot("plan", Some(plan::table(plan))),
                slot(
                    "levers",
                    Some(plan::lever_table(
                        levers,
                        Some(plan::memory_points(&self.scenario)),
                    )),
                ),
            ],
        }
    }

    /// The activation-memory note of the Plan panel.
    pub fn memory_note(&self) -> Option<String> {
        match &self.computed {
            Computed::Plan { llm, levers, .. } => {
                plan::activation_memory_note(llm, &self.scenario, levers)
            }
            _ => None,
        }
    }

    /// The reporting checklist, for the Plan panel.
    pub fn checklist(&self) -> Option<checklist::Report> {
        match &self.computed {
            Computed::Plan { llm, plan, .. } => Some(checklist::report(&self.scenario, llm, plan)),
            _ => None,
        }
    }

    /// The text alternative of one of the panel's LLM or Plan line charts: what that chart
    /// shows, so that a tab says each thing once. `None` for the boxes figure, which describes
    /// itself, and for the Laws charts, whose texts [`Panel::shown`] writes itself.
    fn chart_summary(&self, drawing: Drawing) -> Option<String> {
        match (&self.computed, drawing) {
            (Computed::Llm(s), Drawing::Llm(c)) if self.view == View::Strong => {
                Some(llm::strong_chart_summary(s, c, self.scenario.llm.pp))
            }
            (Computed::Llm(s), Drawing::Llm(c)) => Some(llm::weak_chart_summary(s, c)),
            (Computed::Plan { plan: p, .. }, Drawing::Plan(c)) => Some(plan::chart_summary(p, c)),
            _ => None,
        }
    }

    /// Everything the panel shows as text.
    pub fn shown(&self) -> Shown {
        let mut texts: Vec<(&'static str, String)> = Vec::new();
        let mut lists = Vec::new();
        let mut links = Vec::new();
        if let Some(s) = self.llm() {
            texts.push((
                "st-note",
                fit::step_below_compute_note(s).unwrap_or_default(),
            ));
            texts.extend(step_model::unused_notes(&self.scenario.llm));
        }
        // A measured preset cites its source on the panel it opens on (and the strong one).
        let source_id = match self.view {
            View::Strong => Some("strong-source"),
            View::Weak => Some("weak-source"),
            View::Plan => Some("plan-source"),
            _ => None,
        };
        if let Some(id) = source_id {
            let source = self.scenario.preset.and_then(|p| p.source());
            texts.push((
                id,
                source.map_or_else(String::new, |s| trf!("Source: {}", "来源：{}", s)),
            ));
        }
        // "What this means" (and the Laws panel's "Formulas and definitions"): the Learn view,
        // at the panel's definition, with this scenario kept, so the reader's inputs are there
        // when they come back to the panel.
        if let Some((id, anchor)) = match self.view {
            View::Strong => Some(("strong-learn", "#d-strong")),
            View::Weak => Some(("weak-learn", "#d-weak")),
            View::Plan => Some(("plan-learn", "#d-mixed")),
            View::Laws => Some(("laws-learn", "")),
            View::Learn => None,
        } {
            let mut learn = self.scenario.clone();
            learn.view = View::Learn;
            links.push((id, format!("{}{anchor}", learn.standalone_query())));
        }
        for chart in self.charts() {
            if let Some(text) = self.chart_summary(chart.drawing()) {
                texts.push((summary_id(chart), text));
            }
        }
        match &self.computed {
            Computed::Laws(s) => {
                texts.push((summary_id(ChartId::LawsSpeedup), laws::speedup_summary(s)));
                texts.push((
                    summary_id(ChartId::LawsEfficiency),
                    laws::efficiency_summary(s),
                ));
                texts.push((
                    summary_id(ChartId::LawsKarpFlatt),
                    laws::measured_summary(s),
                ));
            }
            Computed::Llm(s) if self.view == View::Strong => {
                texts.push(("strong-mode", llm::strong_badge(s)));
                links.push((
                    "strong-fit-laws",
                    fit::fit_laws_query(s).unwrap_or_default(),
                ));
                // The explorer's "use this layout" links.
                let uses = layouts::use_links(&self.scenario, self.explorer.as_ref());
                for (i, (text, query)) in uses.into_iter().enumerate() {
                    texts.push((layouts::USE_IDS[i], text));
                    links.push((layouts::USE_IDS[i], query));
                }
            }
            Computed::Llm(s) => {
                texts.push(("weak-mode", llm::weak_badge(s)));
            }
            Computed::Plan { plan: p, .. } => {
                texts.push(("plan-mode", plan::mode_badge(p)));
                texts.push(("plan-bopt", plan::deepseek_note(&self.scenario)));
                texts.push(("plan-memory", self.memory_note().unwrap_or_default()));
                if let Some(r) = self.checklist() {
                    texts.push(("report-en", r.en));
                    texts.push(("report-zh", r.zh));
                    let warnings = r
                        .warnings
                        .iter()
                        .map(|w| format!("{} / {}", w.en, w.zh))
                        .collect();
                    lists.push(("report-warnings", warnings));
                }
            }
        }
        Shown {
            figures: self.figures(),
            tables: self.tables(),
            texts,
            lists,
            links,
        }
    }

    /// Draws one of the panel's charts. Returns the plot area when the chart has a log-`N`
    /// axis to read out on hover; `Ok(None)` for the boxes figure and for a chart of another
    /// panel (nothing is drawn).
    #[inline(never)]
    pub fn draw<DB: DrawingBackend>(
        &self,
        chart: ChartId,
        root: &DrawingArea<DB, Shift>,
        style: &ChartStyle,
    ) -> Result<Option<PlotArea>, ChartError> {
        if chart.view() != self.view {
            return Ok(None);
        }
        match chart.drawing() {
            Drawing::Boxes => match self.llm() {
                Some(s) => {
                    let a = self.pinned().and_then(Panel::llm);
                    crate::chart::boxes::draw_boxes(root, s, a, style).map(|_| None)
                }
                None => Ok(None),
            },
            Drawing::LawsSpeedup
            | Drawing::LawsEfficiency
            | Drawing::KarpFlatt
            | Drawing::Llm(_)
            | Drawing::Plan(_) => match self.describe(chart) {
                Some(c) => draw_line_chart(root, &c, style).map(Some),
                None => Ok(None),
            },
        }
    }

    /// Whether `chart` has anything to plot: a line chart with at least one finite point (the
    /// memory chart without the model's shape has none, only its note); the boxes figure
    /// always. An embed of charts only leaves out the figures without data.
    pub fn has_data(&self, chart: ChartId) -> bool {
        match chart.drawing() {
            Drawing::Boxes => true,
            _ => self.describe(chart).is_some_and(|c| {
                c.series
                    .iter()
                    .any(|s| s.points.iter().any(|p| p.0.is_finite() && p.1.is_finite()))
            }),
        }
    }

    /// What a line chart of the panel shows (series, markers, ranges) before it is drawn;
    /// `None` for the boxes figure and for a chart of another panel. Tests read it. With a
    /// pinned A, A's series drawn faded under B's ([`LineChart::compare`]).
    pub fn describe(&self, chart: ChartId) -> Option<LineChart> {
        let b = self.own_describe(chart)?;
        Some(match self.pinned().and_then(|a| a.own_describe(chart)) {
            Some(a) => b.compare(a),
            None => b,
        })
    }

    fn own_describe(&self, chart: ChartId) -> Option<LineChart> {
        if chart.view() != self.view {
            return None;
        }
        match chart.drawing() {
            Drawing::LawsSpeedup => self.laws().map(laws_chart::describe_speedup),
            Drawing::LawsEfficiency => self.laws().map(laws_chart::describe_efficiency),
            Drawing::KarpFlatt => self.laws().map(laws_chart::describe_karp_flatt),
            Drawing::Llm(which) => self.llm().map(|s| llm_chart::describe(s, which)),
            Drawing::Boxes => None,
            Drawing::Plan(which) => match &self.computed {
                Computed::Plan { llm, plan, .. } => {
                    Some(plan_chart::describe(plan, llm.summary.n_max, which))
                }
                Computed::Laws(_) | Computed::Llm(_) => None,
            },
        }
    }

    /// The hover readout of `chart` at `x` (GPUs or processors).
    pub fn readout(&self, chart: ChartId, x: f64) -> Option<String> {
        if chart.view() != self.view || !x.is_finite() {
            return None;
        }
        match chart.drawing() {
            Drawing::KarpFlatt => laws::measured_readout(self.laws()?, x),
            Drawing::LawsSpeedup | Drawing::LawsEfficiency => laws::readout(self.laws()?, x),
            Drawing::Llm(_) | Drawing::Boxes if self.view == View::Strong => {
                llm::strong_readout(self.llm()?, x)
            }
            Drawing::Llm(_) | Drawing::Boxes => llm::weak_readout(self.llm()?, x),
            Drawing::Plan(_) => plan::readout(self.plan()?, x),
        }
    }

    /// The panel as one document: the query, the model's summary and rows, the key figures,
    /// the tables as shown and the `messages` about the link it was read from.
    /// `scaling <panel> --format json` prints it ([`Panel::json`]); the page's
    /// `scalingExplorer.compute(query)` returns it as a JavaScript object. A typed struct
    /// rather than a `serde_json::Value`, so the page serialises it straight to JavaScript and
    /// serde_json stays out of the WebAssembly bundle.
    pub fn doc<'a>(&'a self, messages: &'a [String]) -> Doc<'a> {
        let body = match &self.computed {
            Computed::Laws(sweep) => Body::Laws {
                summary: LawsSummary {
                    amdahl_ceiling: sweep.amdahl_ceiling,
                    fitted_serial_fraction: sweep
                        .measured
                        .as_ref()
                        .and_then(|m| m.fitted_serial_fraction),
                    half_efficiency_processors: sweep.half_efficiency_processors,
                    serial_fraction: sweep.serial_fraction,
                    shi: &sweep.shi,
                },
                rows: &sweep.rows,
                measured: sweep.measured.as_ref().map(|m| &m.rows[..]),
            },
            Computed::Llm(sweep) => Body::Llm {
                summary: &sweep.summary,
                fitted_exposed: sweep.fitted_exposed.as_deref(),
                fit: sweep.fit.as_ref(),
                rows: if self.view == View::Weak {
                    LlmRows::Weak(&sweep.weak)
                } else {
                    LlmRows::Strong(&sweep.strong)
                },
            },
            Computed::Plan { llm, plan, levers } => Body::Plan {
                summary: PlanSummary {
                    batch_cap_tokens: plan.batch_cap_tokens,
                    best_gpus_weak_then_strong: plan.best_gpus_weak_then_strong,
                    critical_batch_tokens: plan.critical_batch_tokens,
                    deepseek_reference_batch_tokens: plan::deepseek_reference(&self.scenario),
                    min_steps: plan.min_steps,
                    n_max: llm.summary.n_max,
                    switch_gpus: plan.switch_gpus,
                    t_crit_tokens: llm.summary.t_crit_tokens,
                },
                rows: &plan.rows,
                levers,
            },
        };
        Doc {
            body,
            compare: self.pinned().map(|a| Box::new(Compare { a: a.doc(&[]) })),
            figures: self
                .figures()
                .into_iter()
                .map(|(label, value)| Figure { label, value })
                .collect(),
            messages,
            panel: self.view.key(),
            query: self.scenario.to_query(),
            tables: self.tables().into_iter().filter_map(|t| t.table).collect(),
        }
    }

    /// [`Panel::doc`] as a JSON value (the CLI, the tests).
    pub fn json(&self, messages: &[String]) -> serde_json::Value {
        serde_json::to_value(self.doc(messages)).unwrap_or_default()
    }
}

/// [`Panel::doc`]: fields in alphabetical order, as the JSON has always listed them.
#[derive(Serialize)]
pub struct Doc<'a> {
    #[serde(flatten)]
    body: Body<'a>,
    /// The pinned scenario A's document, when one is pinned (`pin=`).
    #[serde(skip_serializing_if = "Option::is_none")]
    compare: Option<Box<Compare<'a>>>,
    figures: Vec<Figure>,
    messages: &'a [String],
    panel: &'static str,
    query: String,
    tables: Vec<Table>,
}

#[derive(Serialize)]
struct Compare<'a> {
    a: Doc<'a>,
}

#[derive(Serialize)]
struct Figure {
    label: String,
    value: String,
}

/// What differs between the panels' documents.
#[derive(Serialize)]
#[serde(untagged)]
enum Body<'a> {
    Laws {
        measured: Option<&'a [crate::model::measured::MeasuredRow]>,
        rows: &'a [crate::model::sweep::LawsRow],
        summary: LawsSummary<'a>,
    },
    Llm {
        fit: Option<&'a crate::model::fit::StepFit>,
        fitted_exposed: Option<&'a [(f64, f64)]>,
        rows: LlmRows<'a>,
        summary: &'a crate::model::llm::LlmSummary,
    },
    Plan {
        levers: &'a [plan::LeverRow],
        rows: &'a [crate::model::plan::PlanRow],
        summary: PlanSummary,
    },
}

#[derive(Serialize)]
#[serde(untagged)]
enum LlmRows<'a> {
    Strong(&'a [crate::model::llm::StrongRow]),
    Weak(&'a [crate::model::llm::WeakRow]),
}

#[derive(Serialize)]
struct LawsSummary<'a> {
    amdahl_ceiling: Option<f64>,
    fitted_serial_fraction: Option<f64>,
    half_efficiency_processors: Option<f64>,
    serial_fraction: f64,
    shi: &'a crate::model::sweep::ShiConversion,
}

#[derive(Serialize)]
struct PlanSummary {
    batch_cap_tokens: f64,
    best_gpus_weak_then_strong: f64,
    critical_batch_tokens: f64,
    deepseek_reference_batch_tokens: f64,
    min_steps: f64,
    n_max: f64,
    switch_gpus: f64,
    t_crit_tokens: f64,
}

/// The document of [`Panel::doc`] for a link (`?v=1&…` or a whole URL): decoded as the page
/// decodes it, computed for `view` (default: the link's own panel), with the link's problems
/// as `messages` (the page's banner texts). Any string gives a panel.
pub fn linked(query: &str, view: Option<View>) -> (Panel, Vec<String>) {
    let decoded = crate::scenario::decode(query);
    let messages: Vec<String> = decoded.errors.iter().map(|e| e.to_string()).collect();
    let view = view.unwrap_or(decoded.scenario.view);
    (Panel::compute(&decoded.scenario, view), messages)
}

/// [`linked`] as a JSON value (the CLI's `--format json`, the tests).
pub fn document(query: &str, view: Option<View>) -> serde_json::Value {
    let (panel, messages) = linked(query, view);
    panel.json(&messages)
}

/// The row nearest `x` on a log axis (hover readouts).
fn nearest<T>(rows: &[T], x: f64, key: impl Fn(&T) -> f64) -> Option<&T> {
    let target = x.max(1.0).ln();
    rows.iter().min_by(|a, b| {
        (key(a).ln() - target)
            .abs()
            .total_cmp(&(key(b).ln() - target).abs())
    })
}
