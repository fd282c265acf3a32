//! The LLM panels: the model's goldens through the scenario, the seed's rows, the charts'
//! curves and axes, and the presets and messages through the URL.

mod curves;
mod golden;
mod scenario;
mod seed;
