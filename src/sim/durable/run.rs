//! A durable-execution run at a cursor: one world per column (the same workflow under other
//! settings, side by side), the learner's actions (crash, restart, start again), each at the
//! step it was made, and stepping back by replay: the worlds are rebuilt from their settings
//! and stepped forward again, never patched backwards.

use std::rc::Rc;

use crate::sim::kernel::{Cursor, Model};
use crate::sim::limits::{MAX_DURABLE_ACTIONS, MAX_DURABLE_STEPS};

use super::engine::{Violation, World};
use super::Config;

/// What the learner can do besides stepping.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Crash the worker now.
    Crash,
    /// Bring a new worker up now.
    Restart,
    /// The client starts the same workflow id again now.
    StartAgain,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 3] = [Action::Crash, Action::Restart, Action::StartAgain];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            Action::Crash => "crash",
            Action::Restart => "restart",
            Action::StartAgain => "start-again",
        }
    }

    /// The action with this id.
    pub fn from_id(id: &str) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.id() == id)
    }
}

/// Why an action was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// Crash: no worker is up. Restart: no worker is down.
    NotApplicable,
    /// The run holds [`MAX_DURABLE_ACTIONS`] already.
    TooMany {
        /// The limit.
        max: usize,
    },
    /// The worlds reached [`MAX_DURABLE_STEPS`].
    TooLong {
        /// The limit.
        max: usize,
    },
}

/// The columns' worlds stepped together, with the learner's actions as their script: the model
/// the kernel's cursor runs for a [`DurableRun`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct Columns {
    worlds: Vec<World>,
    /// Shared by the cursor's saved copies; replaced (not changed) when the learner acts.
    actions: Rc<[(usize, Action)]>,
    /// Steps taken.
    at: usize,
}

impl Model for Columns {
    type Checked = Vec<Vec<Violation>>;

    fn step(&mut self) -> bool {
        if self.at >= MAX_DURABLE_STEPS || !advance(&mut self.worlds, &self.actions, self.at) {
            return false;
        }
        self.at += 1;
        true
    }

    fn steps(&self) -> usize {
        self.at
    }

    fn checked(&self) -> Vec<Vec<Violation>> {
        self.worlds
            .iter()
            .map(|w| w.violations().to_vec())
            .collect()
    }
}

/// Worlds at a cursor, with the learner's actions.
#[derive(Clone, Debug)]
pub struct DurableRun {
    columns: Vec<Config>,
    run: Cursor<Columns>,
    end: usize,
}

/// Two runs are equal when they have the same columns, actions and cursor (the engine is
/// deterministic, so their worlds are equal too).
impl PartialEq for DurableRun {
    fn eq(&self, other: &Self) -> bool {
        self.columns == other.columns
            && self.actions() == other.actions()
            && self.cursor() == other.cursor()
    }
}
impl Eq for DurableRun {}

/// Takes `action` in every world it applies to; the others pass the step, so every world's
/// step count stays the run's cursor. False (and nothing changed) if it applies to none.
fn apply(worlds: &mut [World], action: Action) -> bool {
    let applies = |w: &World| match action {
        Action::Crash => w.can_crash(),
        Action::Restart => w.can_restart(),
        Action::StartAgain => w.can_start(),
    };
    if !worlds.iter().any(applies) {
        return false;
    }
    for w in worlds {
        let _taken = match action {
            Action::Crash => w.crash_now(),
            Action::Restart => w.restart_now(),
            Action::StartAgain => w.start_now(),
        } || w.pass();
    }
    true
}

/// Steps every world once: the action recorded at `index`, else each world's next event.
/// False when nothing changed.
fn advance(worlds: &mut [World], actions: &[(usize, Action)], index: usize) -> bool {
    if let Some((_, action)) = actions.iter().find(|(at, _)| *at == index) {
        if apply(worlds, *action) {
            return true;
        }
    }
    if !worlds.iter().any(World::can_progress) {
        return false;
    }
    for w in worlds.iter_mut() {
        w.step();
    }
    true
}

impl DurableRun {
    /// A run of `columns` (one at least; the caller keeps to [`crate::sim::limits::MAX_DURABLE_COLUMNS`])
    /// at step 0, with `actions` recorded at their steps.
    pub fn new(columns: Vec<Config>, actions: Vec<(usize, Action)>) -> DurableRun {
        let mut actions = actions;
        actions.sort_by_key(|(at, _)| *at);
        actions.dedup_by_key(|(at, _)| *at);
        actions.truncate(MAX_DURABLE_ACTIONS);
        let start = Columns {
            worlds: columns.iter().cloned().map(World::new).collect(),
            actions: actions.into(),
            at: 0,
        };
        let mut run = DurableRun {
            columns,
            run: Cursor::new(start),
            end: 0,
        };
        run.end = run.measure_end();
        run
    }

    /// The step at which nothing more happens, measured on a copy.
    fn measure_end(&self) -> usize {
        let mut ahead = self.run.at().clone();
        while ahead.step() {}
        ahead.at
    }

    /// The settings of each column.
    pub fn columns(&self) -> &[Config] {
        &self.columns
    }
    /// The learner's actions and the steps they were made at.
    pub fn actions(&self) -> &[(usize, Action)] {
        &self.run.at().actions
    }
    /// Steps taken.
    pub fn cursor(&self) -> usize {
        self.run.position()
    }
    /// The step at which nothing more happens (with the actions as recorded).
    pub fn end(&self) -> usize {
        self.end
    }
    /// The worlds at the cursor.
    pub fn worlds(&self) -> &[World] {
        &self.run.at().worlds
    }
    /// Whether the cursor is at the end.
    pub fn at_end(&self) -> bool {
        self.cursor() >= self.end
    }

    /// One step forward. False at the end.
    pub fn step(&mut self) -> bool {
        self.run.step()
    }

    /// Moves to step `k` (clamped to the end): forward by stepping, backward by replaying
    /// from the nearest saved copy (the kernel's cursor).
    pub fn seek(&mut self, k: usize) {
        self.run.seek(k.min(self.end));
    }

    /// One step back, by replay.
    pub fn back(&mut self) {
        self.run.back();
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        self.seek(self.end);
    }

    /// The learner acts now: the action is recorded at the cursor (the actions after it are
    /// dropped: the future is rewritten) and taken.
    pub fn act(&mut self, action: Action) -> Result<(), ActionError> {
        let cursor = self.cursor();
        if cursor >= MAX_DURABLE_STEPS {
            return Err(ActionError::TooLong {
                max: MAX_DURABLE_STEPS,
            });
        }
        let mut actions: Vec<(usize, Action)> = self
            .actions()
            .iter()
            .copied()
            .filter(|(at, _)| *at < cursor)
            .collect();
        if actions.len() >= MAX_DURABLE_ACTIONS {
            return Err(ActionError::TooMany {
                max: MAX_DURABLE_ACTIONS,
            });
        }
        if !self.can(action) {
            return Err(ActionError::NotApplicable);
        }
        actions.push((cursor, action));
        let actions: Rc<[(usize, Action)]> = actions.into();
        self.run.rewrite(|m| m.actions = Rc::clone(&actions));
        let taken = self.run.step();
        debug_assert!(taken, "an action that can be taken is a step");
        self.end = self.measure_end();
        Ok(())
    }

    /// Whether `action` would do something now.
    pub fn can(&self, action: Action) -> bool {
        self.worlds().iter().any(|w| match action {
            Action::Crash => w.can_crash(),
            Action::Restart => w.can_restart(),
            Action::StartAgain => w.can_start(),
        })
    }

    /// The same run with other settings for its columns, at step 0, the actions kept.
    pub fn with_columns(&self, columns: Vec<Config>) -> DurableRun {
        DurableRun::new(columns, self.actions().to_vec())
    }

    /// The worlds at the end, without moving the cursor.
    pub fn final_worlds(&self) -> Vec<World> {
        let mut ahead = self.run.at().clone();
        while ahead.step() {}
        ahead.worlds
    }
}
