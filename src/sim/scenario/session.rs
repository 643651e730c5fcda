//! One run of a scenario across its services, with a cursor. Stepping back is replay from the
//! seed (exact, because the core is deterministic); checkpoints every `CHECKPOINT_EVERY` steps
//! keep a jump into a long run cheap. [`SessionBuild`] builds one in bounded slices, so the page
//! never blocks on a long run.

use super::Scenario;
use crate::sim::limits::InputError;
use crate::sim::world::input::Input;
use crate::sim::world::{LoggedInput, World};

/// Steps between saved copies of the worlds, at first; the spacing doubles whenever more than
/// `MAX_CHECKPOINTS` would be kept, so memory and set-up time stay bounded on long runs.
pub const CHECKPOINT_EVERY: usize = 256;
/// Most copies kept.
pub const MAX_CHECKPOINTS: usize = 48;
/// Spacing of the extra copies kept near the cursor when stepping back.
pub const LOCAL_EVERY: usize = 32;
/// Most of those extra copies kept (the spacing widens past `LOCAL_EVERY` if a checkpoint
/// interval would need more).
pub const MAX_LOCAL: usize = 64;

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
    /// Copies made while replaying backwards, at multiples of the local spacing inside one
    /// checkpoint interval, in step order: a run of step-backs replays at most a few dozen steps
    /// each instead of up to `every`. Copies share their history (`PVec`), so each is small.
    local: Vec<(usize, Vec<World>)>,
    /// The worlds at the end of the run (the timeline draws the steps ahead from them).
    finished: Vec<World>,
    /// The first fork of the scenario's branch that could not be taken, and why.
    branch_error: Option<(usize, InputError)>,
}

/// Pushes the forks made at step `position` (after it, before the next) into every world. A
/// fork a world refuses is left out of that world (the build records why, once): the run is the
/// same whether built or replayed, as both push here.
fn push_forks(
    branch: &[LoggedInput],
    position: usize,
    worlds: &mut [World],
    mut refused: impl FnMut(usize, InputError),
) {
    let from = branch.partition_point(|b| b.at_step < position);
    for (i, fork) in branch.iter().enumerate().skip(from) {
        if fork.at_step != position {
            break;
        }
        for w in worlds.iter_mut() {
            if let Err(e) = w.push_input(fork.input.clone()) {
                refused(i, e);
            }
        }
    }
}

impl Session {
    /// Builds the worlds and measures the run's length by running a copy to the end, all at once.
    /// The page uses [`SessionBuild`] instead, a slice at a time.
    pub fn new(scenario: Scenario) -> Result<Session, InputError> {
        Ok(SessionBuild::new(scenario)?.finish())
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
        push_forks(
            &self.scenario.branch,
            self.position,
            &mut self.worlds,
            |_, _| {},
        );
        for w in &mut self.worlds {
            w.step();
        }
        self.position += 1;
        true
    }

    /// Moves the cursor to step `k` (clamped to the run): forward by stepping, backward by
    /// replaying from the nearest saved copy.
    pub fn seek(&mut self, k: usize) {
        let k = k.min(self.total);
        if k < self.position || k - self.position > self.every {
            let cp = (k / self.every).min(self.checkpoints.len() - 1);
            let block = cp * self.every;
            // Local copies belong to one checkpoint interval; moving to another drops them.
            self.local
                .retain(|(p, _)| *p > block && *p < block + self.every);
            let (start, from) = match self.local.iter().rev().find(|(p, _)| *p <= k) {
                Some((p, w)) => (*p, w),
                None => (block, &self.checkpoints[cp]),
            };
            self.worlds = from.clone();
            self.position = start;
            let spacing = (self.every / MAX_LOCAL).max(LOCAL_EVERY);
            while self.position < k {
                self.step();
                let p = self.position;
                if p.is_multiple_of(spacing) && p < block + self.every {
                    if let Err(at) = self.local.binary_search_by_key(&p, |(q, _)| *q) {
                        self.local.insert(at, (p, self.worlds.clone()));
                    }
                }
            }
        }
        while self.position < k {
            self.step();
        }
    }

    /// The first fork of the branch the run could not take (an attempt already past, a step
    /// past the run's end, a limit), numbered from 0, and why; the run went on without it.
    pub fn branch_error(&self) -> Option<&(usize, InputError)> {
        self.branch_error.as_ref()
    }

    /// This run forked at the cursor with `input` (RaftScope's fork: what follows is rebuilt,
    /// the steps up to the cursor stay as they were), or why `input` cannot happen here: it is
    /// checked against every world at the cursor, after the forks already made at this step.
    pub fn fork(&self, input: Input) -> Result<Scenario, InputError> {
        let mut worlds = self.worlds.clone();
        push_forks(&self.scenario.branch, self.position, &mut worlds, |_, _| {});
        for w in &worlds {
            w.check_push(&input)?;
        }
        let next = self.scenario.forked(self.position, input);
        next.validate()?;
        Ok(next)
    }

    /// The attempts a fork at the cursor can change the fault of, as (operation, attempt,
    /// fault now): on their way to the server in the first column, and pending in every column.
    pub fn pending_attempts(&self) -> Vec<(u32, u32, crate::sim::world::fault::Fault)> {
        let mut worlds = self.worlds.clone();
        push_forks(&self.scenario.branch, self.position, &mut worlds, |_, _| {});
        let Some(first) = worlds.first() else {
            return Vec::new();
        };
        first
            .attempts_in_network()
            .into_iter()
            .filter(|&(op, attempt, fault)| {
                let input = Input::SetFault { op, attempt, fault };
                worlds.iter().all(|w| w.check_push(&input).is_ok())
            })
            .collect()
    }

    /// The build of this session's scenario with `input` appended (the sandbox's next run),
    /// or why the input is refused; this session is left as it is.
    pub fn with_input(&self, input: Input) -> Result<SessionBuild, InputError> {
        let mut next = self.scenario.clone();
        next.inputs.push(input);
        SessionBuild::new(next)
    }
}

/// A session being built: its worlds run to the end to learn the run's length, saving
/// checkpoints on the way. [`SessionBuild::run`] does a bounded slice of that work, so a page can
/// build the longest run the limits accept between frames, with a progress bar, and drop it to
/// cancel.
pub struct SessionBuild {
    session: Session,
    running: Vec<World>,
    steps: usize,
    done: bool,
    /// The inputs' bound on trace events, summed over the worlds (the progress bar's 100 %).
    bound: u64,
}

impl SessionBuild {
    /// Checks the scenario and its cost (every limit, before anything runs) and starts the build.
    pub fn new(scenario: Scenario) -> Result<SessionBuild, InputError> {
        let worlds = scenario.worlds()?;
        let bound = worlds.iter().map(World::event_bound).sum();
        Ok(SessionBuild {
            running: worlds.clone(),
            session: Session {
                scenario,
                worlds: worlds.clone(),
                position: 0,
                total: 0,
                checkpoints: vec![worlds],
                every: CHECKPOINT_EVERY,
                local: Vec::new(),
                finished: Vec::new(),
                branch_error: None,
            },
            steps: 0,
            done: false,
            bound,
        })
    }

    /// Runs until `max_events` more trace events are recorded (across the worlds) or the run
    /// ends; true once it has ended.
    pub fn run(&mut self, max_events: u64) -> bool {
        let start = self.events();
        while !self.done && self.events() - start < max_events {
            let s = &mut self.session;
            let first = &mut s.branch_error;
            push_forks(&s.scenario.branch, self.steps, &mut self.running, |i, e| {
                first.get_or_insert((i, e));
            });
            let mut moved = false;
            for w in &mut self.running {
                moved |= w.step().is_some();
            }
            if !moved {
                self.done = true;
                let s = &mut self.session;
                let end = self.steps;
                if let Some(i) = s.scenario.branch.iter().position(|b| b.at_step > end) {
                    let at_step = s.scenario.branch[i].at_step;
                    s.branch_error
                        .get_or_insert((i, InputError::BranchPastEnd { at_step, end }));
                }
                break;
            }
            self.steps += 1;
            let s = &mut self.session;
            if self.steps.is_multiple_of(s.every) {
                if s.checkpoints.len() >= MAX_CHECKPOINTS {
                    // Keep every other copy (steps 0, 2e, 4e, ...) and double the spacing.
                    let kept: Vec<Vec<World>> = s.checkpoints.drain(..).step_by(2).collect();
                    s.checkpoints = kept;
                    s.every *= 2;
                }
                if self.steps.is_multiple_of(s.every) {
                    s.checkpoints.push(self.running.clone());
                }
            }
        }
        self.done
    }

    /// The scenario being built.
    pub fn scenario(&self) -> &Scenario {
        &self.session.scenario
    }

    /// Trace events recorded so far, and the bound they cannot pass: the build's progress.
    pub fn progress(&self) -> (u64, u64) {
        (self.events(), self.bound.max(self.events()))
    }

    fn events(&self) -> u64 {
        self.running.iter().map(|w| w.trace().len() as u64).sum()
    }

    /// The session, built to the end (running whatever work is left).
    pub fn finish(mut self) -> Session {
        while !self.run(u64::MAX) {}
        self.session.total = self.steps;
        self.session.finished = self.running;
        self.session
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 300 charges through three services: several checkpoint intervals long.
    fn long_session() -> Session {
        Session::new(crate::sim::scenario::workload::many_charges(300)).expect("valid")
    }

    #[test]
    fn stepping_back_from_the_end_gives_exactly_the_forward_states() {
        let mut s = long_session();
        assert!(s.total() > 2 * CHECKPOINT_EVERY, "{} steps", s.total());
        let mut forward = vec![s.worlds().to_vec()];
        while s.step() {
            forward.push(s.worlds().to_vec());
        }
        for k in (0..s.total()).rev() {
            s.seek(k);
            assert_eq!(s.position(), k);
            assert!(
                s.worlds() == forward[k].as_slice(),
                "state differs at step {k}"
            );
            assert!(s.local.len() <= MAX_LOCAL);
        }
        // A jump forward past a checkpoint and back again is exact too.
        s.seek(s.total() - 3);
        assert!(s.worlds() == forward[s.total() - 3].as_slice());
        s.seek(5);
        assert!(s.worlds() == forward[5].as_slice());
    }

    #[test]
    fn a_build_in_slices_gives_the_session_built_at_once() {
        let scenario = crate::sim::scenario::workload::many_charges(300);
        let whole = Session::new(scenario.clone()).expect("valid");
        let mut build = SessionBuild::new(scenario).expect("valid");
        let (_, bound) = build.progress();
        let mut slices = 0;
        let mut last = 0;
        while !build.run(1_000) {
            let (done, b) = build.progress();
            assert!(done > last && done <= b && b == bound, "{done} of {b}");
            last = done;
            slices += 1;
        }
        assert!(slices > 5, "{slices} slices");
        let sliced = build.finish();
        assert_eq!(sliced.total(), whole.total());
        assert_eq!(sliced.every, whole.every);
        assert!(sliced.checkpoints == whole.checkpoints);
        assert!(sliced.finished == whole.finished);
        assert!(sliced.worlds == whole.worlds);
    }

    #[test]
    fn copies_near_the_cursor_stay_inside_one_checkpoint_interval() {
        let mut s = long_session();
        s.seek(s.total());
        s.seek(s.total() - 1);
        let block = (s.total() - 1) / CHECKPOINT_EVERY * CHECKPOINT_EVERY;
        let expected = (s.total() - 1 - block) / LOCAL_EVERY;
        assert_eq!(s.local.len(), expected);
        // Stepping back within the interval reuses them; leaving it drops them.
        s.seek(block + 1);
        assert_eq!(s.local.len(), expected);
        s.seek(block - 1);
        assert_eq!(s.local.len(), (CHECKPOINT_EVERY - 1) / LOCAL_EVERY);
    }
}
