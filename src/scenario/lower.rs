//! Lowering: the validated scenario as the model's inputs.

use super::*;

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
