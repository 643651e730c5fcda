//! The stepper: a run the learner drives one step at a time (or lets a policy drive), recorded as
//! a schedule so that stepping back is an exact replay of the schedule minus its last entry.

use super::error::LabError;
use super::model::{LabScenario, LabState, OutcomeKey, RequestStatus, StepRecord};
use crate::sim::base::rng::Rng;

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

/// A run of one scenario: the schedule so far, the state it led to, and what each step did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepper {
    scenario: LabScenario,
    state: LabState,
    schedule: Vec<usize>,
    trace: Vec<StepRecord>,
}

impl Stepper {
    /// A run with no step taken.
    pub fn new(scenario: LabScenario) -> Stepper {
        let state = scenario.initial_state();
        Stepper {
            scenario,
            state,
            schedule: Vec::new(),
            trace: Vec::new(),
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
        &self.scenario
    }

    /// The current state.
    pub fn state(&self) -> &LabState {
        &self.state
    }

    /// The requests moved so far, in order (0-based).
    pub fn schedule(&self) -> &[usize] {
        &self.schedule
    }

    /// What every step so far did.
    pub fn trace(&self) -> &[StepRecord] {
        &self.trace
    }

    /// Where request `r` stands.
    pub fn status(&self, r: usize) -> Option<RequestStatus> {
        self.scenario.status(&self.state, r)
    }

    /// Whether every request has taken all its steps.
    pub fn is_complete(&self) -> bool {
        self.scenario.is_complete(&self.state)
    }

    /// The grouped outcome once complete.
    pub fn outcome(&self) -> Option<OutcomeKey> {
        self.scenario.outcome(&self.state)
    }

    /// Whether some key has been charged twice so far.
    pub fn double_charged(&self) -> bool {
        self.scenario.double_charged(&self.state)
    }

    /// Moves request `r` (0-based) one step.
    pub fn step(&mut self, r: usize) -> Result<StepRecord, LabError> {
        let position = self.schedule.len();
        let record = self.scenario.step(&mut self.state, r, position)?;
        self.schedule.push(r);
        self.trace.push(record);
        Ok(record)
    }

    /// Undoes the last step by replaying the schedule without it from the initial state, so the
    /// state after a step back is exactly the state that prefix produces.
    pub fn step_back(&mut self) -> Result<(), LabError> {
        if self.schedule.is_empty() {
            return Err(LabError::NothingToUndo);
        }
        let mut prefix = std::mem::take(&mut self.schedule);
        prefix.pop();
        *self = Stepper::replay(self.scenario.clone(), &prefix)?;
        Ok(())
    }

    /// Back to the start of the same scenario.
    pub fn reset(&mut self) {
        *self = Stepper::new(self.scenario.clone());
    }

    /// The requests that can move now.
    pub fn movable(&self) -> Vec<usize> {
        (0..self.scenario.requests())
            .filter(|&r| self.scenario.can_move(&self.state, r))
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
                let start = self.schedule.last().map_or(0, |last| last + 1);
                let n = self.scenario.requests();
                (0..n)
                    .map(|i| (start + i) % n)
                    .find(|r| movable.contains(r))
            }
            Policy::Random { seed } => {
                let position = self.schedule.len() as u64;
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
        while taken <= self.scenario.total_steps() {
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
