//! A property run: its cases one after another until one fails (or all pass), then the shrinking
//! of that failure, in slices of a bounded number of trace events ([`PropertyRun::run_slice`]),
//! so a page can run it between frames with a progress bar and drop it to cancel. As proptest
//! does, the run stops at the first failing case.

use super::check::check;
use super::gen::{case, case_seed};
use super::shrink::{ShrinkStep, Shrinker};
use super::{Breach, Counterexample, Settings};
use crate::sim::limits::{InputError, MAX_SHRINK_ATTEMPTS};
use crate::sim::scenario::Scenario;

/// Where a run stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// Checking cases: `done` of the settings' cases so far.
    Checking {
        /// Cases checked.
        done: u32,
    },
    /// A case failed; shrinking it.
    Shrinking,
    /// Every case held.
    Passed,
    /// A case failed and shrinking has finished.
    Failed,
    /// A generated case was refused by the limits (a bug of the generator; reported, not
    /// panicked).
    Refused {
        /// The case's index.
        index: u32,
        /// The limit it broke.
        error: InputError,
    },
}

/// The first failing case of a run and its shrinking.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Its index in the run, from 0.
    pub index: u32,
    /// Its seed (the scenario's own), drawn from the run's seed and the index.
    pub case_seed: u64,
    /// The case as generated, and how it failed.
    pub original: Counterexample,
    shrinker: Shrinker,
}

impl Failure {
    /// The smallest failing case found so far (the original until shrinking keeps a variant).
    pub fn minimal(&self) -> &Counterexample {
        self.shrinker.best()
    }

    /// Variants the shrinker has tried.
    pub fn shrink_attempts(&self) -> u32 {
        self.shrinker.attempts()
    }

    /// Variants it kept, each smaller than the last.
    pub fn shrinks_kept(&self) -> u32 {
        self.shrinker.kept()
    }

    /// True once shrinking has finished.
    pub fn shrunk(&self) -> bool {
        self.shrinker.is_done()
    }

    /// The shrink steps so far, in order: one per variant tried, the first `MAX_SHRINK_LOG`
    /// of them ([`Failure::shrink_attempts`] counts them all).
    pub fn shrink_log(&self) -> &[ShrinkStep] {
        self.shrinker.log()
    }

    /// The case shrink step `i` was made on: the original for the first step, then the smallest
    /// failing case so far; `i == shrink_log().len()` gives where the logged steps ended.
    pub fn shrink_case_before(&self, i: usize) -> Option<Scenario> {
        self.shrinker.case_before(&self.original.scenario, i)
    }

    /// The variant shrink step `i` tried.
    pub fn shrink_candidate(&self, i: usize) -> Option<Scenario> {
        self.shrinker.candidate(&self.original.scenario, i)
    }
}

/// One run of a property over its cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PropertyRun {
    settings: Settings,
    checked: u32,
    events: u64,
    failure: Option<Failure>,
    refused: Option<(u32, InputError)>,
}

impl PropertyRun {
    /// A run of `settings`, refused if a setting is out of its limits.
    pub fn new(settings: Settings) -> Result<PropertyRun, InputError> {
        settings.validate()?;
        Ok(PropertyRun {
            settings,
            checked: 0,
            events: 0,
            failure: None,
            refused: None,
        })
    }

    /// What this run checks.
    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Cases checked so far (the failing one included).
    pub fn checked(&self) -> u32 {
        self.checked
    }

    /// Trace events recorded by every world this run has built (cases and shrink variants).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The first failing case, once one has failed.
    pub fn failure(&self) -> Option<&Failure> {
        self.failure.as_ref()
    }

    /// Where the run stands.
    pub fn phase(&self) -> Phase {
        if let Some((index, error)) = &self.refused {
            return Phase::Refused {
                index: *index,
                error: error.clone(),
            };
        }
        match &self.failure {
            Some(f) if f.shrunk() => Phase::Failed,
            Some(_) => Phase::Shrinking,
            None if self.checked >= self.settings.cases => Phase::Passed,
            None => Phase::Checking { done: self.checked },
        }
    }

    /// True once nothing is left to do.
    pub fn is_finished(&self) -> bool {
        matches!(
            self.phase(),
            Phase::Passed | Phase::Failed | Phase::Refused { .. }
        )
    }

    /// How far it has got, in thousandths: by cases while checking, then by shrink attempts
    /// (their bound: most shrinking ends well before it, and the bar jumps to the end).
    pub fn per_mille(&self) -> u32 {
        let part = |done: u32, of: u32| {
            u32::try_from(u64::from(done) * 1000 / u64::from(of.max(1))).unwrap_or(1000)
        };
        match self.phase() {
            Phase::Checking { done } => part(done, self.settings.cases),
            Phase::Shrinking => self
                .failure
                .as_ref()
                .map_or(0, |f| part(f.shrink_attempts(), MAX_SHRINK_ATTEMPTS)),
            _ => 1000,
        }
    }

    /// Checks cases, or shrinks, until about `max_events` trace events have been recorded or
    /// the run is finished; true once it is. (One case or variant is not cut short: the slice
    /// ends after the one that passes the budget.)
    pub fn run_slice(&mut self, max_events: u64) -> bool {
        let mut spent = 0u64;
        while !self.is_finished() && spent < max_events {
            if let Some(f) = &mut self.failure {
                let used = f.shrinker.run(max_events - spent);
                spent = spent.saturating_add(used.max(1));
                self.events = self.events.saturating_add(used);
                continue;
            }
            let s = self.settings;
            let index = self.checked;
            let scenario = case(s.property, s.service, s.seed, index);
            match check(s.property, &scenario) {
                Ok(outcome) => {
                    self.checked += 1;
                    spent = spent.saturating_add(outcome.events.max(1));
                    self.events = self.events.saturating_add(outcome.events);
                    if let Some(breach) = outcome.breach {
                        self.fail(index, scenario, breach);
                    }
                }
                Err(error) => self.refused = Some((index, error)),
            }
        }
        self.is_finished()
    }

    fn fail(&mut self, index: u32, scenario: Scenario, breach: Breach) {
        self.failure = Some(Failure {
            index,
            case_seed: case_seed(self.settings.seed, index),
            original: Counterexample {
                scenario: scenario.clone(),
                breach: breach.clone(),
            },
            shrinker: Shrinker::new(self.settings.property, scenario, breach),
        });
    }

    /// Runs to the end at once (tests and benchmarks; the page runs slices).
    pub fn run_to_end(mut self) -> PropertyRun {
        while !self.run_slice(u64::MAX) {}
        self
    }
}
