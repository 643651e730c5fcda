//! The concurrency lab: the article's services as step-wise programs, a scheduler the learner
//! plays, and an explorer that searches every schedule for a double charge.
//!
//! Architecture invariant: UI-free and deterministic. Nothing here imports a UI or browser crate
//! (scripts/check-core-imports.sh checks it), reads a clock or asks the OS for randomness; random
//! choices come from the core's seeded [`crate::sim::base::rng::Rng`].
//!
//! - `model`: [`LabScenario`], [`LabState`] and one step of each [`Model`].
//! - [`stepper`]: a run driven by the learner or a [`Policy`], with exact step back.
//! - [`explorer`]: exhaustive (optionally state-cached) or sampled search, in slices.
//! - [`source`]: the real source lines of each step, cut from src/sim/article/mod.rs.
//! - [`compare`]: one schedule run through another model.

mod compare;
mod count;
mod error;
mod explorer;
mod model;
mod schedule;
mod source;
mod stepper;

pub use compare::{adapt_schedule, Adapted, Wait};
pub use count::raw_schedule_count;
pub use error::{LabError, NumberField};
pub use explorer::{Counterexample, Explorer, OutcomeGroup, Progress, Report, Search};
pub use model::{
    context_switches, ChargeOutcome, KeyMode, LabResult, LabScenario, LabState, LockName, Model,
    OutcomeKey, RequestProgress, RequestStatus, StepAction, StepRecord,
};
pub use schedule::{format_schedule, parse_amounts, parse_integer, parse_schedule, parse_seed};
pub use source::{
    common_indent, dedent, parse_sections, section, Section, SourceLine, ARTICLE_SOURCE, MARKERS,
};
pub use stepper::{Policy, Stepper};

/// The source lines step `step` (0-based) of `model` executes, from every marker of that step in
/// order; names the first missing marker instead.
pub fn step_source(model: Model, step: usize) -> Result<Vec<source::SourceLine>, LabError> {
    let mut lines = Vec::new();
    for marker in model.step_markers(step) {
        lines.extend(source::section(marker)?);
    }
    Ok(lines)
}
