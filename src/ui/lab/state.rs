//! The page's state and its actions. `reduce` only forwards to the lab core (`Stepper`) and keeps
//! the last error to show; it has no rules of its own.

use std::rc::Rc;

use yew::Reducible;

use crate::sim::lab::parse_schedule;
use crate::sim::lab::{LabError, LabScenario, Policy, Stepper};

use super::persist::{from_query, Origin, RestoreError, Restored, Start};

/// Default seed for random runs and samples.
pub const DEFAULT_SEED: u64 = 1;

/// What the learner did last that failed, or a note about the last action.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// An action was refused.
    Error(LabError),
    /// A counterexample was loaded into the stepper.
    Loaded,
    /// A schedule was replayed.
    Replayed,
    /// Saved or linked lab state was unreadable or refused; the default lab is shown instead.
    NotRestored(Origin, RestoreError),
}

/// The stepper's state.
#[derive(Clone, Debug, PartialEq)]
pub struct LabUi {
    /// The run the learner drives.
    pub stepper: Stepper,
    /// Seed for random runs and samples.
    pub seed: u64,
    /// The last action's error or note.
    pub notice: Option<Notice>,
}

impl Default for LabUi {
    fn default() -> Self {
        LabUi {
            stepper: Stepper::new(LabScenario::default()),
            seed: DEFAULT_SEED,
            notice: None,
        }
    }
}

impl LabUi {
    /// The lab read back from storage or a link (already checked by the core), or the default
    /// lab with a notice saying why it was not restored.
    pub fn restored(origin: Origin, result: Restored) -> LabUi {
        match result {
            Ok((stepper, seed)) => LabUi {
                stepper,
                seed,
                notice: None,
            },
            Err(e) => LabUi {
                notice: Some(Notice::NotRestored(origin, e)),
                ..LabUi::default()
            },
        }
    }

    /// The lab the page starts with: what was read at the start, or the default lab.
    pub fn at_start(start: &Start) -> LabUi {
        match &start.read {
            Some((origin, result)) => LabUi::restored(*origin, result.clone()),
            None => LabUi::default(),
        }
    }
}

/// What the page can ask of the stepper.
#[derive(Clone, Debug, PartialEq)]
pub enum LabAction {
    /// Move this request one step.
    Step(usize),
    /// Undo the last step (replay of the prefix).
    Back,
    /// Back to the start of the scenario.
    Reset,
    /// Let a policy move one request.
    StepWith(Policy),
    /// Let a policy run to the end.
    RunToEnd(Policy),
    /// New settings: a new scenario and seed, run reset.
    Apply(LabScenario, u64),
    /// Load a schedule of a scenario (the explorer's counterexample).
    Load(LabScenario, Vec<usize>),
    /// Replay a schedule typed by the learner (1-based).
    Replay(String),
    /// Replace the whole lab with the one in a share link's query (`s=...`), opened while on the
    /// page.
    OpenLink(String),
}

impl Reducible for LabUi {
    type Action = LabAction;

    fn reduce(self: Rc<Self>, action: LabAction) -> Rc<Self> {
        let mut next = (*self).clone();
        next.notice = None;
        let result = match action {
            LabAction::Step(r) => next.stepper.step(r).map(|_| ()),
            LabAction::Back => next.stepper.step_back(),
            LabAction::Reset => {
                next.stepper.reset();
                Ok(())
            }
            LabAction::StepWith(policy) => next.stepper.step_with(policy).map(|_| ()),
            LabAction::RunToEnd(policy) => next.stepper.run_to_end(policy).map(|_| ()),
            LabAction::Apply(scenario, seed) => {
                next.stepper = Stepper::new(scenario);
                next.seed = seed;
                Ok(())
            }
            LabAction::Load(scenario, schedule) => {
                Stepper::replay(scenario, &schedule).map(|run| {
                    next.stepper = run;
                    next.notice = Some(Notice::Loaded);
                })
            }
            LabAction::Replay(text) => parse_schedule(&text)
                .and_then(|schedule| Stepper::replay(next.stepper.scenario().clone(), &schedule))
                .map(|run| {
                    next.stepper = run;
                    next.notice = Some(Notice::Replayed);
                }),
            LabAction::OpenLink(query) => {
                // A refused link is not an error of the run: the default lab comes with its notice.
                next = LabUi::restored(Origin::Link, from_query(&query));
                Ok(())
            }
        };
        if let Err(e) = result {
            // A refused action leaves the run as it was and says why.
            let mut kept = (*self).clone();
            kept.notice = Some(Notice::Error(e));
            return Rc::new(kept);
        }
        Rc::new(next)
    }
}
