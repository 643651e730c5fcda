//! A durable-execution run at a cursor: one world per column (the same workflow under other
//! settings, side by side), the learner's actions (crash, restart, start again), each at the
//! step it was made, and stepping back by replay: the worlds are rebuilt from their settings
//! and stepped forward again, never patched backwards.

use crate::sim::limits::{MAX_DURABLE_ACTIONS, MAX_DURABLE_STEPS};

use super::engine::World;
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

/// Worlds at a cursor, with the learner's actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DurableRun {
    columns: Vec<Config>,
    actions: Vec<(usize, Action)>,
    cursor: usize,
    worlds: Vec<World>,
    end: usize,
}

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

fn build(columns: &[Config], actions: &[(usize, Action)], upto: usize) -> (Vec<World>, usize) {
    let mut worlds: Vec<World> = columns.iter().cloned().map(World::new).collect();
    let mut at = 0;
    while at < upto && at < MAX_DURABLE_STEPS && advance(&mut worlds, actions, at) {
        at += 1;
    }
    (worlds, at)
}

impl DurableRun {
    /// A run of `columns` (one at least; the caller keeps to [`crate::sim::limits::MAX_DURABLE_COLUMNS`])
    /// at step 0, with `actions` recorded at their steps.
    pub fn new(columns: Vec<Config>, actions: Vec<(usize, Action)>) -> DurableRun {
        let mut actions = actions;
        actions.sort_by_key(|(at, _)| *at);
        actions.dedup_by_key(|(at, _)| *at);
        actions.truncate(MAX_DURABLE_ACTIONS);
        let (worlds, _) = build(&columns, &actions, 0);
        let mut run = DurableRun {
            columns,
            actions,
            cursor: 0,
            worlds,
            end: 0,
        };
        run.end = run.measure_end();
        run
    }

    fn measure_end(&self) -> usize {
        let mut worlds = self.worlds.clone();
        let mut at = self.cursor;
        while at < MAX_DURABLE_STEPS && advance(&mut worlds, &self.actions, at) {
            at += 1;
        }
        at
    }

    /// The settings of each column.
    pub fn columns(&self) -> &[Config] {
        &self.columns
    }
    /// The learner's actions and the steps they were made at.
    pub fn actions(&self) -> &[(usize, Action)] {
        &self.actions
    }
    /// Steps taken.
    pub fn cursor(&self) -> usize {
        self.cursor
    }
    /// The step at which nothing more happens (with the actions as recorded).
    pub fn end(&self) -> usize {
        self.end
    }
    /// The worlds at the cursor.
    pub fn worlds(&self) -> &[World] {
        &self.worlds
    }
    /// Whether the cursor is at the end.
    pub fn at_end(&self) -> bool {
        self.cursor >= self.end
    }

    /// One step forward. False at the end.
    pub fn step(&mut self) -> bool {
        if advance(&mut self.worlds, &self.actions, self.cursor) {
            self.cursor += 1;
            true
        } else {
            false
        }
    }

    /// Moves to step `k` (clamped to the end): forward by stepping, backward by replaying
    /// from step 0.
    pub fn seek(&mut self, k: usize) {
        let k = k.min(self.end);
        if k < self.cursor {
            let (worlds, at) = build(&self.columns, &self.actions, k);
            self.worlds = worlds;
            self.cursor = at;
        }
        while self.cursor < k && self.step() {}
    }

    /// One step back, by replay.
    pub fn back(&mut self) {
        if self.cursor > 0 {
            self.seek(self.cursor - 1);
        }
    }

    /// Runs to the end.
    pub fn run_to_end(&mut self) {
        self.seek(self.end);
    }

    /// The learner acts now: the action is recorded at the cursor (the actions after it are
    /// dropped: the future is rewritten) and taken.
    pub fn act(&mut self, action: Action) -> Result<(), ActionError> {
        if self.cursor >= MAX_DURABLE_STEPS {
            return Err(ActionError::TooLong {
                max: MAX_DURABLE_STEPS,
            });
        }
        let kept: Vec<(usize, Action)> = self
            .actions
            .iter()
            .copied()
            .filter(|(at, _)| *at < self.cursor)
            .collect();
        if kept.len() >= MAX_DURABLE_ACTIONS {
            return Err(ActionError::TooMany {
                max: MAX_DURABLE_ACTIONS,
            });
        }
        if !self.can(action) {
            return Err(ActionError::NotApplicable);
        }
        let mut trial = self.worlds.clone();
        apply(&mut trial, action);
        let mut actions = kept;
        actions.push((self.cursor, action));
        self.actions = actions;
        self.worlds = trial;
        self.cursor += 1;
        self.end = self.measure_end();
        Ok(())
    }

    /// Whether `action` would do something now.
    pub fn can(&self, action: Action) -> bool {
        self.worlds.iter().any(|w| match action {
            Action::Crash => w.can_crash(),
            Action::Restart => w.can_restart(),
            Action::StartAgain => w.can_start(),
        })
    }

    /// The same run with other settings for its columns, at step 0, the actions kept.
    pub fn with_columns(&self, columns: Vec<Config>) -> DurableRun {
        DurableRun::new(columns, self.actions.clone())
    }

    /// The worlds at the end, without moving the cursor.
    pub fn final_worlds(&self) -> Vec<World> {
        let mut worlds = self.worlds.clone();
        let mut at = self.cursor;
        while at < MAX_DURABLE_STEPS && advance(&mut worlds, &self.actions, at) {
            at += 1;
        }
        worlds
    }
}
