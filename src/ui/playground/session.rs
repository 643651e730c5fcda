//! One run of a scenario across its services, with a cursor. Stepping back is replay from the
//! seed (exact, because the core is deterministic); checkpoints every `CHECKPOINT_EVERY` steps
//! keep a jump into a long run cheap.

use crate::sim::limits::InputError;
use crate::sim::scenario::Scenario;
use crate::sim::world::World;

/// Steps between saved copies of the worlds, at first; the spacing doubles whenever more than
/// `MAX_CHECKPOINTS` would be kept, so memory and set-up time stay bounded on long runs.
pub const CHECKPOINT_EVERY: usize = 256;
/// Most copies kept.
pub const MAX_CHECKPOINTS: usize = 48;
/// Spacing of the extra copy kept near the cursor when stepping back.
pub const LOCAL_EVERY: usize = 32;

/// A scenario, its worlds at the cursor, and how far the run goes.
pub struct Session {
    scenario: Scenario,
    worlds: Vec<World>,
    position: usize,
    total: usize,
    /// `checkpoints[i]` holds the worlds after `i * every` steps.
    checkpoints: Vec<Vec<World>>,
    /// Steps between checkpoints.
    every: usize,
    /// A nearby copy made while replaying backwards (at a multiple of `LOCAL_EVERY`), so a run
    /// of step-backs replays a few dozen steps each instead of up to `every`.
    local: Option<(usize, Vec<World>)>,
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
            every: CHECKPOINT_EVERY,
            local: None,
            finished: Vec::new(),
        };
        s.measure();
        Ok(s)
    }

    /// Runs a copy to the end, saving checkpoints on the way, to learn the total step count.
    fn measure(&mut self) {
        self.checkpoints.truncate(1);
        self.every = CHECKPOINT_EVERY;
        self.local = None;
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
            if steps % self.every == 0 {
                if self.checkpoints.len() >= MAX_CHECKPOINTS {
                    // Keep every other copy (steps 0, 2e, 4e, ...) and double the spacing.
                    let kept: Vec<Vec<World>> = self.checkpoints.drain(..).step_by(2).collect();
                    self.checkpoints = kept;
                    self.every *= 2;
                }
                if steps % self.every == 0 {
                    self.checkpoints.push(worlds.clone());
                }
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
        if k < self.position || k - self.position > self.every {
            let cp = (k / self.every).min(self.checkpoints.len() - 1);
            let (start, from) = match &self.local {
                Some((p, w)) if *p <= k && *p > cp * self.every => (*p, w),
                _ => (cp * self.every, &self.checkpoints[cp]),
            };
            self.worlds = from.clone();
            self.position = start;
            let keep_at = k - k % LOCAL_EVERY;
            while self.position < k {
                self.step();
                if self.position == keep_at
                    && self.local.as_ref().is_none_or(|(p, _)| *p != keep_at)
                {
                    self.local = Some((keep_at, self.worlds.clone()));
                }
            }
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
