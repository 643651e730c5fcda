//! The stepper: a run the learner drives one step at a time (or lets a policy drive), recorded as
//! a schedule so that stepping back is an exact replay of the schedule minus its last entry.

use std::rc::Rc;

use super::error::LabError;
use super::model::{LabScenario, LabState, OutcomeKey, RequestStatus, StepRecord};
use crate::sim::base::rng::Rng;
use crate::sim::kernel::{Cursor, Model};

/// Who picks the next request when the learner does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The request after the one that moved last, skipping any that cannot move.
    RoundRobin,
    /// A random movable request; the choice at schedule position p depends only on (seed, p),
    /// so a run, and any step back within it, is reproduced from the seed.
    Random {
        /// The seed shown in the page.
        seed: u64,
    },
}

/// A scenario's state with its schedule as the script: the model the kernel's cursor runs for a
/// [`Stepper`]. The script may run past the cursor (after a step back it still holds the steps
/// undone); the learner's next step rewrites it from the cursor on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Scheduled {
    scenario: Rc<LabScenario>,
    state: LabState,
    script: Rc<[usize]>,
    trace: Vec<StepRecord>,
}

impl Model for Scheduled {
    type Checked = bool;

    fn step(&mut self) -> bool {
        let position = self.trace.len();
        let Some(&r) = self.script.get(position) else {
            return false;
        };
        match self.scenario.step(&mut self.state, r, position) {
            Ok(record) => {
                self.trace.push(record);
                true
            }
            Err(_) => false,
        }
    }

    fn steps(&self) -> usize {
        self.trace.len()
    }

    /// Whether some key has been charged twice so far.
    fn checked(&self) -> bool {
        self.scenario.double_charged(&self.state)
    }
}

/// A run of one scenario: the schedule so far, the state it led to, and what each step did.
#[derive(Clone, Debug)]
pub struct Stepper {
    run: Cursor<Scheduled>,
}

/// Two runs are equal when they run the same scenario with the same schedule so far (the
/// model is deterministic, so their states and traces are equal too).
impl PartialEq for Stepper {
    fn eq(&self, other: &Self) -> bool {
        self.scenario() == other.scenario() && self.schedule() == other.schedule()
    }
}
impl Eq for Stepper {}

impl Stepper {
    /// A run with no step taken.
    pub fn new(scenario: LabScenario) -> Stepper {
        let state = scenario.initial_state();
        Stepper {
            run: Cursor::new(Scheduled {
                scenario: Rc::new(scenario),
                state,
                script: Rc::new([]),
                trace: Vec::new(),
            }),
        }
    }

    /// Replays `schedule` (0-based request indices) from the start. Every entry is checked: an
    /// index out of range, a blocked request or a finished one is an error naming the position.
    pub fn replay(scenario: LabScenario, schedule: &[usize]) -> Result<Stepper, LabError> {
        let max = scenario.total_steps();
        if schedule.len() > max {
            return Err(LabError::ScheduleTooLong {
                length: schedule.len(),
                max,
            });
        }
        let mut run = Stepper::new(scenario);
        for &r in schedule {
            run.step(r)?;
        }
        Ok(run)
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &LabScenario {
        &self.run.at().scenario
    }

    /// The current state.
    pub fn state(&self) -> &LabState {
        &self.run.at().state
    }

    /// The requests moved so far, in order (0-based).
    pub fn schedule(&self) -> &[usize] {
        &self.run.at().script[..self.run.position()]
    }

    /// What every step so far did.
    pub fn trace(&self) -> &[StepRecord] {
        &self.run.at().trace
    }

    /// Where request `r` stands.
    pub fn status(&self, r: usize) -> Option<RequestStatus> {
        self.scenario().status(self.state(), r)
    }

    /// Whether every request has taken all its steps.
    pub fn is_complete(&self) -> bool {
        self.scenario().is_complete(self.state())
    }

    /// The grouped outcome once complete.
    pub fn outcome(&self) -> Option<OutcomeKey> {
        self.scenario().outcome(self.state())
    }

    /// Whether some key has been charged twice so far.
    pub fn double_charged(&self) -> bool {
        self.scenario().double_charged(self.state())
    }

    /// Moves request `r` (0-based) one step: checked on a copy first (an error changes
    /// nothing), then written into the schedule at the cursor, replacing any steps undone.
    pub fn step(&mut self, r: usize) -> Result<StepRecord, LabError> {
        let position = self.run.position();
        let mut state = self.state().clone();
        let record = self.scenario().step(&mut state, r, position)?;
        let mut script = self.schedule().to_vec();
        script.push(r);
        let script: Rc<[usize]> = script.into();
        self.run.rewrite(|m| m.script = Rc::clone(&script));
        let taken = self.run.step();
        debug_assert!(
            taken && self.state() == &state,
            "a checked step replays alike"
        );
        Ok(record)
    }

    /// Undoes the last step by replay (the kernel's cursor), so the state after a step back is
    /// exactly the state the shorter schedule produces.
    pub fn step_back(&mut self) -> Result<(), LabError> {
        if self.run.position() == 0 {
            return Err(LabError::NothingToUndo);
        }
        self.run.back();
        Ok(())
    }

    /// Back to the start of the same scenario.
    pub fn reset(&mut self) {
        *self = Stepper::new(self.scenario().clone());
    }

    /// The requests that can move now.
    pub fn movable(&self) -> Vec<usize> {
        (0..self.scenario().requests())
            .filter(|&r| self.scenario().can_move(self.state(), r))
            .collect()
    }

    /// The request `policy` would move next, `None` when the run is complete.
    pub fn choose(&self, policy: Policy) -> Option<usize> {
        let movable = self.movable();
        if movable.is_empty() {
            return None;
        }
        match policy {
            Policy::RoundRobin => {
                let start = self.schedule().last().map_or(0, |last| last + 1);
                let n = self.scenario().requests();
                (0..n)
                    .map(|i| (start + i) % n)
                    .find(|r| movable.contains(r))
            }
            Policy::Random { seed } => {
                let position = self.run.position() as u64;
                let mut rng = Rng::new(seed ^ position.wrapping_mul(0xD1B5_4A32_D192_ED03));
                movable.get(rng.below(movable.len())).copied()
            }
        }
    }

    /// Lets `policy` move one request.
    pub fn step_with(&mut self, policy: Policy) -> Result<StepRecord, LabError> {
        match self.choose(policy) {
            Some(r) => self.step(r),
            None => Err(LabError::RunComplete),
        }
    }

    /// Lets `policy` move requests until every one has finished; returns the steps taken.
    pub fn run_to_end(&mut self, policy: Policy) -> Result<usize, LabError> {
        let mut taken = 0;
        // Bounded by the schedule length: every step advances one program counter.
        while taken <= self.scenario().total_steps() {
            match self.choose(policy) {
                Some(r) => {
                    self.step(r)?;
                    taken += 1;
                }
                None => return Ok(taken),
            }
        }
        Ok(taken)
    }
}
