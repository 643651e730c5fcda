//! One run of a scenario across its services, with a cursor. Stepping back is replay from the
//! seed (exact, because the core is deterministic); checkpoints every `CHECKPOINT_EVERY` steps
//! keep a jump into a long run cheap.

use crate::sim::limits::InputError;
use crate::sim::scenario::Scenario;
use crate::sim::world::World;

/// Steps between saved copies of the worlds.
pub const CHECKPOINT_EVERY: usize = 512;

/// A scenario, its worlds at the cursor, and how far the run goes.
pub struct Session {
    scenario: Scenario,
    worlds: Vec<World>,
    position: usize,
    total: usize,
    /// `checkpoints[i]` holds the worlds after `i * CHECKPOINT_EVERY` steps.
    checkpoints: Vec<Vec<World>>,
    /// The worlds at the end of the run (the timeline draws the steps ahead from them).
    finished: Vec<World>,
}

impl Session {
    /// Builds the worlds and measures the run's length by running a copy to the end.
    pub fn new(scenario: Scenario) -> Result<Session, InputError> {
        let worlds = scenario.worlds()?;
        let mut s = Session {
            scenario,
            worlds: worlds.clone(),
            position: 0,
            total: 0,
            checkpoints: vec![worlds],
            finished: Vec::new(),
        };
        s.measure();
        Ok(s)
    }

    /// Runs a copy to the end, saving checkpoints on the way, to learn the total step count.
    fn measure(&mut self) {
        self.checkpoints.truncate(1);
        let mut worlds = self.checkpoints[0].clone();
        let mut steps = 0;
        loop {
            let mut moved = false;
            for w in &mut worlds {
                moved |= w.step().is_some();
            }
            if !moved {
                break;
            }
            steps += 1;
            if steps % CHECKPOINT_EVERY == 0 {
                self.checkpoints.push(worlds.clone());
            }
        }
        self.total = steps;
        self.finished = worlds;
    }

    /// World `i` at the end of the run.
    pub fn finished(&self, i: usize) -> Option<&World> {
        self.finished.get(i)
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The worlds at the cursor, one per service, in the scenario's order.
    pub fn worlds(&self) -> &[World] {
        &self.worlds
    }

    /// Steps applied so far.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Steps in the whole run.
    pub fn total(&self) -> usize {
        self.total
    }

    /// True at the end of the run.
    pub fn at_end(&self) -> bool {
        self.position >= self.total
    }

    /// One step forward in every world that still has work; false at the end.
    pub fn step(&mut self) -> bool {
        if self.at_end() {
            return false;
        }
        for w in &mut self.worlds {
            w.step();
        }
        self.position += 1;
        true
    }

    /// Moves the cursor to step `k` (clamped to the run): forward by stepping, backward by
    /// replaying from the nearest checkpoint.
    pub fn seek(&mut self, k: usize) {
        let k = k.min(self.total);
        if k < self.position || k - self.position > CHECKPOINT_EVERY {
            let cp = (k / CHECKPOINT_EVERY).min(self.checkpoints.len() - 1);
            self.worlds = self.checkpoints[cp].clone();
            self.position = cp * CHECKPOINT_EVERY;
        }
        while self.position < k {
            self.step();
        }
    }

    /// Appends an input to the script (the sandbox), keeping the cursor where it is. The input is
    /// validated against a scratch copy first, so a bad one changes nothing.
    pub fn push_input(&mut self, input: crate::sim::input::Input) -> Result<(), InputError> {
        let mut next = self.scenario.clone();
        next.inputs.push(input);
        let position = self.position;
        let fresh = Session::new(next)?;
        *self = fresh;
        self.seek(position);
        Ok(())
    }
}
