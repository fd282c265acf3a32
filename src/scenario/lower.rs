//! Lowering: the validated scenario as the model's inputs.

use super::llm::{ComputeMode, ExposedMode};
use super::*;
use crate::model::layouts::SearchSpace;
use crate::model::llm::{ComputeSource, ExposedSource, LlmInputs};
use crate::model::measured::MeasuredPoint;
use crate::model::step::{ExposedTable, FsdpComm};

impl Scenario {
    /// The Laws panel's model inputs.
    pub fn laws_inputs(&self) -> crate::model::sweep::LawsInputs {
        self.laws.inputs()
    }

    /// The LLM panels' model inputs, with the levers that are switched on applied.
    pub fn llm_inputs(&self) -> crate::model::llm::LlmInputs {
        let mut inputs = self.llm.inputs(self.plan.nvlink_bytes_per_s);
        crate::model::levers::Lever::apply_all(
            &self.plan.levers,
            &mut inputs,
            self.plan.nvlink_bytes_per_s,
        );
        inputs
    }

    /// The LLM inputs a panel computes: with `lay=best`, the search runs at the rows that
    /// panel shows (the strong sweep's on the Strong tab, the weak sweep's on the Weak tab,
    /// none on the others: the Plan tab does not show best layouts).
    pub fn llm_inputs_for(&self, view: View) -> LlmInputs {
        use crate::model::layouts::SearchedRows;
        let mut inputs = self.llm_inputs();
        match view {
            View::Strong => inputs
                .search
                .iter_mut()
                .for_each(|s| s.rows = SearchedRows::Strong),
            View::Weak => inputs
                .search
                .iter_mut()
                .for_each(|s| s.rows = SearchedRows::Weak),
            _ => inputs.search = None,
        }
        inputs
    }

    /// The global batch a search at `gpus` GPUs (the explorer, a published run's row) runs
    /// at: the strong sweep's, or the weak sweep's there when the scenario opens on the Weak
    /// panel.
    pub fn search_batch_tokens(&self, inputs: &LlmInputs, gpus: f64) -> f64 {
        if self.view == View::Weak {
            inputs.weak_batch(gpus)
        } else {
            inputs.global_batch_tokens
        }
    }

    /// The LLM inputs as typed, without levers (the baseline the lever table compares with).
    pub fn llm_inputs_without_levers(&self) -> crate::model::llm::LlmInputs {
        self.llm.inputs(self.plan.nvlink_bytes_per_s)
    }

    /// The planner's inputs.
    pub fn plan_inputs(&self) -> crate::model::plan::PlanInputs {
        plan_inputs_for(self.llm_inputs(), &self.plan, &self.llm)
    }
}

/// Planner inputs for given (possibly lever-modified) LLM inputs: the run needs `tb` tokens at
/// the baseline batch `b` (see [`crate::model::batch::CriticalBatch::from_reference`]).
pub fn plan_inputs_for(
    llm: crate::model::llm::LlmInputs,
    plan: &PlanSettings,
    settings: &LlmSettings,
) -> crate::model::plan::PlanInputs {
    crate::model::plan::PlanInputs {
        critical: crate::model::batch::CriticalBatch::from_reference(
            plan.critical_batch_tokens,
            settings.token_budget,
            settings.global_batch_tokens,
        ),
        batch_cap_tokens: plan.cap(),
        llm,
    }
}

impl LlmSettings {
    /// The model inputs. Call only on settings whose [`LlmSettings::check`] is empty (the
    /// scenario guarantees it); tables have ≥ 2 increasing points by construction.
    /// `nvlink_bytes_per_s` is the NVLink bandwidth TP traffic uses (the Plan's `bnv`).
    pub fn inputs(&self, nvlink_bytes_per_s: f64) -> LlmInputs {
        let table = |points: &[MeasuredPoint]| {
            ExposedTable::new(points.iter().map(|p| (p.processors, p.value)).collect())
                .unwrap_or_else(|_| ExposedTable::zero())
        };
        // em=fit: compute is the fit's W/N (at B₀, scaled with the batch like a measured
        // compute time), exposed its constant K, and F_eff the rate W implies (so T_crit and
        // N_max use the measured rate).
        let fit = self.step_fit().and_then(Result::ok);
        let mut inputs = LlmInputs {
            global_batch_tokens: self.global_batch_tokens,
            layout: self.layout(),
            microbatch_tokens: self.microbatch_tokens(),
            search: (self.best_layout && self.walls.has_shape()).then(|| self.search_space()),
            total_params: self.total_params,
            held_params: None,
            active_params: self.active_params,
            flops_per_gpu: self.flops_per_gpu,
            peak_flops_per_gpu: self.peak_flops_per_gpu,
            comm: FsdpComm {
                gathers: self.gathers,
                wire_bytes_per_param: if self.gradient_bytes_per_param > 0.0 {
                    self.gradient_bytes_per_param
                } else {
                    self.wire_bytes_per_param
                },
                gather_bytes_per_param: self.wire_bytes_per_param,
                bus_bytes_per_s: self.bus_bytes_per_s,
                fixed_ms: self.fixed_ms,
                schedule: self.schedule,
                chunks: self.chunks,
            },
            compute: match (&fit, self.compute_in_force()) {
                (Some(f), _) => ComputeSource::AtBaseline {
                    compute_ms: f.work_ms_gpus / self.baseline_gpus,
                },
                (None, ComputeMode::Time) => ComputeSource::AtBaseline {
                    compute_ms: self.compute_ms,
                },
                (None, ComputeMode::Flops | ComputeMode::Physics | ComputeMode::Auto) => {
                    ComputeSource::Flops
                }
            },
            exposed: match (&fit, self.exposed_in_force()) {
                (Some(f), _) => ExposedSource::Fitted {
                    constant_ms: f.constant_ms,
                    per_doubling_of: f.per_doubling_of,
                },
                (None, ExposedMode::Table | ExposedMode::Fit | ExposedMode::Auto) => {
                    ExposedSource::Table(table(&self.exposed_table))
                }
                (None, ExposedMode::Step) => ExposedSource::StepTimes(table(&self.step_table)),
                (None, ExposedMode::Fsdp) => ExposedSource::Fsdp,
            },
            baseline_gpus: self.baseline_gpus,
            gpus: self.gpus.clone(),
            token_budget: self.token_budget,
            exposed_scale: 1.0,
            fit,
            walls: self.walls.walls(nvlink_bytes_per_s).map(|mut w| {
                if self.gradient_bytes_per_param > 0.0 {
                    w.memory.gradient_bytes_per_param = self.gradient_bytes_per_param;
                }
                // The datasheet's HBM bandwidth comes with a machine (`mach`) only: the
                // elementwise kernels' memory time (§12.3) needs a known memory.
                w.hbm_bytes_per_s = self.machine.map_or(0.0, |m| m.hbm_bytes_per_s);
                w.host_bytes_per_s = self.machine.map_or(0.0, |m| m.host_bytes_per_s);
                if self.machine.is_some() {
                    w.quantized_bytes_per_element = self.precision.quantized_bytes_per_element();
                }
                w
            }),
        };
        // The fit's rate counts the same FLOPs per token as the compute it stands for.
        if let Some(f) = &inputs.fit {
            inputs.flops_per_gpu =
                f.flops_per_gpu(inputs.flops_per_token(), inputs.global_batch_tokens);
        }
        self.with_physics_rate(inputs)
    }

    /// With `cm=physics` (and no fit, which sets the rate itself): `F_eff = r∞ · peak ·
    /// η(own layout at N₀)`, the kernels shrinking with the shape's GEMMs; without a shape
    /// `η = 1`, `F_eff = r∞ · peak`.
    fn with_physics_rate(&self, mut inputs: LlmInputs) -> LlmInputs {
        if self.compute_in_force() != ComputeMode::Physics || inputs.fit.is_some() {
            return inputs;
        }
        let r_inf = self.large_gemm_fraction();
        match crate::model::layouts::physics_inputs(&inputs, r_inf) {
            Some(physics) => {
                inputs.flops_per_gpu = physics.flops_per_gpu;
                inputs.walls = physics.walls;
            }
            None => inputs.flops_per_gpu = r_inf * inputs.peak_flops_per_gpu,
        }
        inputs
    }

    /// The layout search's space: every layout the model enumerates, TP within the NVLink
    /// domain (`nvd`). The sweep's `lay=best` rows, the explorer and the published runs'
    /// rows all search this one space.
    pub fn search_space(&self) -> SearchSpace {
        SearchSpace {
            nvlink_domain_gpus: self.walls.nvlink_domain_gpus,
            offload: self.walls.offload_layers > 0,
            ..Default::default()
        }
    }
}
