//! The explorer: every schedule of k requests (or a seeded random sample of them), grouped by
//! outcome, with the double-charging schedule that needs the fewest context switches.
//!
//! It runs in slices ([`Explorer::run_slice`]) on an explicit stack, never recursing, so the page
//! can interleave it with rendering, show progress and drop it to cancel.
//!
//! With state caching, a state reached by several schedule prefixes is explored once; its subtree
//! is summarised (number of complete schedules per outcome, fewest switches to a double charge)
//! and the summary is added to every parent that reaches it. So "schedules" stays the exact number
//! of complete schedules, while the work is proportional to the distinct states.

use super::count::raw_schedule_count;
use super::error::LabError;
use super::model::{context_switches, LabScenario, LabState, OutcomeKey};
use crate::sim::base::hash::FxHashMap;
use crate::sim::base::rng::Rng;
use crate::sim::limits::{
    LAB_STEPS_PER_REQUEST, MAX_CACHED_REQUESTS, MAX_EXPLORED_STATES, MAX_PARALLEL_REQUESTS,
    MAX_RAW_SCHEDULES, MAX_SAMPLES,
};

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Every schedule. With `caching`, equal states are explored once.
    Exhaustive {
        /// Explore each distinct state once (needed beyond about 3 requests).
        caching: bool,
    },
    /// `samples` random complete schedules drawn with a PRNG seeded with `seed`.
    Sample {
        /// Schedules to try.
        samples: u64,
        /// PRNG seed.
        seed: u64,
    },
}

/// The schedules that ended one way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutcomeGroup {
    /// How they ended.
    pub key: OutcomeKey,
    /// How many complete schedules (or samples) ended so.
    pub schedules: u128,
}

/// A double-charging schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// 0-based request indices, loadable with [`super::Stepper::replay`].
    pub schedule: Vec<usize>,
    /// Its context switches; the fewest possible after an exhaustive search.
    pub context_switches: usize,
}

/// What the search has found so far (everything is final once `finished`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The search that produced it.
    pub search: Search,
    /// (kn)!/(n!)^k for this scenario; `None` if it overflows `u128`.
    pub raw_schedules: Option<u128>,
    /// Complete schedules counted (exhaustive) or tried (sample).
    pub schedules: u128,
    /// Distinct states stored by the cached search (terminal states included).
    pub distinct_states: Option<usize>,
    /// Steps executed by the search (state transitions computed).
    pub steps_executed: u64,
    /// Outcome groups, fewest successes first.
    pub groups: Vec<OutcomeGroup>,
    /// Schedules in which some key was charged more than once.
    pub double_charge: u128,
    /// A double-charging schedule, the one with fewest context switches found.
    pub counterexample: Option<Counterexample>,
    /// Whether the search has finished.
    pub finished: bool,
}

/// How far a slice got.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Whether the search has finished.
    pub finished: bool,
    /// Estimated share done, 0.0..=1.0 (exact for samples; by position in the tree otherwise).
    pub fraction: f64,
    /// Steps executed by this slice.
    pub units: u64,
}

/// "No double charge reachable" in the switch counts below; real counts stay under
/// `LAB_STEPS_PER_REQUEST * MAX_PARALLEL_REQUESTS`, far below.
const NO_DOUBLE_CHARGE: u8 = u8::MAX;

/// A subtree's summary in the cached search.
#[derive(Clone, Debug)]
struct Summary {
    schedules: u128,
    outcomes: Vec<(OutcomeKey, u128)>,
    /// For a terminal state: whether it double-charged. `None` for inner states.
    terminal_double: Option<bool>,
    /// best[r]: fewest context switches in a completion from here that starts with request r and
    /// ends in a double charge.
    best: [u8; MAX_PARALLEL_REQUESTS],
}

impl Summary {
    fn empty() -> Summary {
        Summary {
            schedules: 0,
            outcomes: Vec::new(),
            terminal_double: None,
            best: [NO_DOUBLE_CHARGE; MAX_PARALLEL_REQUESTS],
        }
    }

    fn terminal(key: OutcomeKey) -> Summary {
        Summary {
            schedules: 1,
            outcomes: vec![(key, 1)],
            terminal_double: Some(key.double_charged),
            best: [NO_DOUBLE_CHARGE; MAX_PARALLEL_REQUESTS],
        }
    }

    /// Fewest switches to a double charge from this state when the step into it was request `via`.
    fn best_after(&self, via: usize) -> u8 {
        match self.terminal_double {
            Some(true) => 0,
            Some(false) => NO_DOUBLE_CHARGE,
            None => self
                .best
                .iter()
                .enumerate()
                .map(|(r, b)| b.saturating_add(u8::from(r != via)))
                .min()
                .unwrap_or(NO_DOUBLE_CHARGE),
        }
    }
}

fn add_outcome(
    outcomes: &mut Vec<(OutcomeKey, u128)>,
    key: OutcomeKey,
    n: u128,
) -> Result<(), LabError> {
    match outcomes.iter_mut().find(|(k, _)| *k == key) {
        Some((_, count)) => *count = count.checked_add(n).ok_or(LabError::CountOverflow)?,
        None => outcomes.push((key, n)),
    }
    Ok(())
}

/// Adds child's summary (reached by moving request `via`) into parent's accumulator.
fn merge(parent: &mut Summary, via: usize, child: &Summary) -> Result<(), LabError> {
    parent.schedules = parent
        .schedules
        .checked_add(child.schedules)
        .ok_or(LabError::CountOverflow)?;
    for &(key, n) in &child.outcomes {
        add_outcome(&mut parent.outcomes, key, n)?;
    }
    if let Some(slot) = parent.best.get_mut(via) {
        *slot = (*slot).min(child.best_after(via));
    }
    Ok(())
}

struct CachedFrame {
    state: LabState,
    next: u8,
    via: u8,
    acc: Summary,
}

struct CachedSearch {
    memo: FxHashMap<LabState, Summary>,
    stack: Vec<CachedFrame>,
    root: Option<Summary>,
}

struct PlainFrame {
    state: LabState,
    next: u8,
    via: u8,
    switches: u8,
}

struct PlainSearch {
    stack: Vec<PlainFrame>,
    schedules: u128,
    outcomes: Vec<(OutcomeKey, u128)>,
    best: Option<Counterexample>,
}

struct Sampler {
    rng: Rng,
    target: u64,
    done: u64,
    current: Option<(LabState, Vec<usize>)>,
    outcomes: Vec<(OutcomeKey, u128)>,
    best: Option<Counterexample>,
}

enum Engine {
    Cached(CachedSearch),
    Plain(PlainSearch),
    Sample(Sampler),
}

/// A search over one scenario's schedules, run in slices.
pub struct Explorer {
    scenario: LabScenario,
    search: Search,
    raw_schedules: Option<u128>,
    engine: Engine,
    steps_executed: u64,
    error: Option<LabError>,
    finished: bool,
    counterexample: Option<Counterexample>,
}

impl Explorer {
    /// Prepares a search, or refuses it before any work if it is over its budget: more raw
    /// schedules than `MAX_RAW_SCHEDULES` without caching, more than `MAX_CACHED_REQUESTS`
    /// requests with caching, a sample size outside `1..=MAX_SAMPLES`.
    pub fn new(scenario: &LabScenario, search: Search) -> Result<Explorer, LabError> {
        let raw_schedules = raw_schedule_count(scenario.requests(), LAB_STEPS_PER_REQUEST);
        let root = scenario.initial_state();
        let engine = match search {
            Search::Exhaustive { caching: false } => {
                if raw_schedules.is_none_or(|n| n > MAX_RAW_SCHEDULES) {
                    return Err(LabError::OverRawBudget {
                        schedules: raw_schedules,
                    });
                }
                Engine::Plain(PlainSearch {
                    stack: vec![PlainFrame {
                        state: root,
                        next: 0,
                        via: 0,
                        switches: 0,
                    }],
                    schedules: 0,
                    outcomes: Vec::new(),
                    best: None,
                })
            }
            Search::Exhaustive { caching: true } => {
                if scenario.requests() > MAX_CACHED_REQUESTS {
                    return Err(LabError::OverCachedBudget {
                        requests: scenario.requests(),
                    });
                }
                Engine::Cached(CachedSearch {
                    memo: FxHashMap::default(),
                    stack: vec![CachedFrame {
                        state: root,
                        next: 0,
                        via: 0,
                        acc: Summary::empty(),
                    }],
                    root: None,
                })
            }
            Search::Sample { samples, seed } => {
                if !(1..=MAX_SAMPLES).contains(&samples) {
                    return Err(LabError::SampleCount { samples });
                }
                Engine::Sample(Sampler {
                    rng: Rng::new(seed),
                    target: samples,
                    done: 0,
                    current: None,
                    outcomes: Vec::new(),
                    best: None,
                })
            }
        };
        Ok(Explorer {
            scenario: scenario.clone(),
            search,
            raw_schedules,
            engine,
            steps_executed: 0,
            error: None,
            finished: false,
            counterexample: None,
        })
    }

    /// The scenario searched (load counterexamples into a stepper of this scenario).
    pub fn scenario(&self) -> &LabScenario {
        &self.scenario
    }

    /// Whether the search has finished.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Runs at most `max_units` steps of the search. An error (state budget, overflow) stops the
    /// search for good; later calls return it again.
    pub fn run_slice(&mut self, max_units: u64) -> Result<Progress, LabError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        if self.finished {
            return Ok(Progress {
                finished: true,
                fraction: 1.0,
                units: 0,
            });
        }
        let before = self.steps_executed;
        let result = match &mut self.engine {
            Engine::Cached(search) => {
                search.run(&self.scenario, max_units, &mut self.steps_executed)
            }
            Engine::Plain(search) => {
                search.run(&self.scenario, max_units, &mut self.steps_executed)
            }
            Engine::Sample(sampler) => {
                sampler.run(&self.scenario, max_units, &mut self.steps_executed)
            }
        };
        match result {
            Ok(finished) => {
                if finished {
                    self.finish();
                }
                Ok(Progress {
                    finished: self.finished,
                    fraction: self.fraction(),
                    units: self.steps_executed - before,
                })
            }
            Err(e) => {
                self.error = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Runs the search to the end (for tests and benchmarks; the page uses slices).
    pub fn run_to_end(&mut self) -> Result<Report, LabError> {
        while !self.run_slice(1 << 20)?.finished {}
        Ok(self.report())
    }

    fn finish(&mut self) {
        self.finished = true;
        self.counterexample = match &self.engine {
            Engine::Cached(search) => search.counterexample(&self.scenario),
            Engine::Plain(search) => search.best.clone(),
            Engine::Sample(sampler) => sampler.best.clone(),
        };
    }

    fn fraction(&self) -> f64 {
        if self.finished {
            return 1.0;
        }
        match &self.engine {
            Engine::Cached(search) => tree_fraction(
                &self.scenario,
                search.stack.iter().map(|f| (&f.state, f.next)),
            ),
            Engine::Plain(search) => tree_fraction(
                &self.scenario,
                search.stack.iter().map(|f| (&f.state, f.next)),
            ),
            Engine::Sample(sampler) => sampler.done as f64 / sampler.target.max(1) as f64,
        }
    }

    /// What has been found so far; final once the search has finished.
    pub fn report(&self) -> Report {
        let (schedules, outcomes, distinct_states, counterexample) = match &self.engine {
            Engine::Cached(search) => {
                let (schedules, outcomes) = match &search.root {
                    Some(root) => (root.schedules, root.outcomes.clone()),
                    None => {
                        // Partial: the completed subtrees still on the stack's accumulators.
                        let mut total: u128 = 0;
                        let mut outcomes = Vec::new();
                        for frame in &search.stack {
                            total = total.saturating_add(frame.acc.schedules);
                            for &(key, n) in &frame.acc.outcomes {
                                // Saturates only past u128, which the budgets rule out.
                                let _ = add_outcome(&mut outcomes, key, n);
                            }
                        }
                        (total, outcomes)
                    }
                };
                (
                    schedules,
                    outcomes,
                    Some(search.memo.len()),
                    self.counterexample.clone(),
                )
            }
            Engine::Plain(search) => (
                search.schedules,
                search.outcomes.clone(),
                None,
                search.best.clone(),
            ),
            Engine::Sample(sampler) => (
                u128::from(sampler.done),
                sampler.outcomes.clone(),
                None,
                sampler.best.clone(),
            ),
        };
        let mut groups: Vec<OutcomeGroup> = outcomes
            .into_iter()
            .map(|(key, schedules)| OutcomeGroup { key, schedules })
            .collect();
        groups.sort_by(|a, b| {
            (a.key.successes, a.key.insufficient, a.key.double_charged).cmp(&(
                b.key.successes,
                b.key.insufficient,
                b.key.double_charged,
            ))
        });
        let double_charge = groups
            .iter()
            .filter(|g| g.key.double_charged)
            .fold(0u128, |acc, g| acc.saturating_add(g.schedules));
        Report {
            search: self.search,
            raw_schedules: self.raw_schedules,
            schedules,
            distinct_states,
            steps_executed: self.steps_executed,
            groups,
            double_charge,
            counterexample,
            finished: self.finished,
        }
    }
}

/// Share of the schedule tree done, estimated from the DFS stack: each frame contributes its
/// completed children, weighted by the share of the tree its subtree is.
fn tree_fraction<'a>(
    scenario: &LabScenario,
    frames: impl ExactSizeIterator<Item = (&'a LabState, u8)>,
) -> f64 {
    let depth = frames.len();
    let mut fraction = 0.0;
    let mut weight = 1.0;
    for (i, (state, next)) in frames.enumerate() {
        let movable: Vec<usize> = (0..scenario.requests())
            .filter(|&r| scenario.can_move(state, r))
            .collect();
        if movable.is_empty() {
            break;
        }
        let started = movable.iter().filter(|&&r| r < usize::from(next)).count();
        // The child being explored (the next frame) is started but not completed.
        let completed = started.saturating_sub(usize::from(i + 1 < depth));
        fraction += weight * completed as f64 / movable.len() as f64;
        weight /= movable.len() as f64;
    }
    fraction.clamp(0.0, 1.0)
}

/// The first request at or after `from` that can move in `state`.
fn next_movable(scenario: &LabScenario, state: &LabState, from: u8) -> Option<usize> {
    (usize::from(from)..scenario.requests()).find(|&r| scenario.can_move(state, r))
}

/// Request indices fit in u8 (at most `MAX_PARALLEL_REQUESTS`).
fn index_u8(r: usize) -> u8 {
    u8::try_from(r).unwrap_or(u8::MAX)
}

impl CachedSearch {
    /// Returns whether the search has finished.
    fn run(
        &mut self,
        scenario: &LabScenario,
        max_units: u64,
        steps_executed: &mut u64,
    ) -> Result<bool, LabError> {
        let mut units = 0;
        while units < max_units {
            let Some(top) = self.stack.last_mut() else {
                return Ok(true);
            };
            match next_movable(scenario, &top.state, top.next) {
                Some(r) => {
                    top.next = index_u8(r + 1);
                    let mut child = top.state.clone();
                    scenario.apply(&mut child, r);
                    units += 1;
                    *steps_executed += 1;
                    if let Some(summary) = self.memo.get(&child) {
                        merge(&mut top.acc, r, summary)?;
                    } else if scenario.is_complete(&child) {
                        let summary = Summary::terminal(scenario.outcome_unchecked(&child));
                        merge(&mut top.acc, r, &summary)?;
                        if self.memo.len() >= MAX_EXPLORED_STATES {
                            return Err(LabError::StateBudgetExceeded {
                                states: self.memo.len(),
                            });
                        }
                        self.memo.insert(child, summary);
                    } else {
                        self.stack.push(CachedFrame {
                            state: child,
                            next: 0,
                            via: index_u8(r),
                            acc: Summary::empty(),
                        });
                    }
                }
                None => {
                    let Some(frame) = self.stack.pop() else {
                        return Ok(true);
                    };
                    match self.stack.last_mut() {
                        Some(parent) => merge(&mut parent.acc, usize::from(frame.via), &frame.acc)?,
                        None => self.root = Some(frame.acc.clone()),
                    }
                    if self.memo.len() >= MAX_EXPLORED_STATES {
                        return Err(LabError::StateBudgetExceeded {
                            states: self.memo.len(),
                        });
                    }
                    self.memo.insert(frame.state, frame.acc);
                }
            }
        }
        Ok(self.stack.is_empty())
    }

    /// Walks from the root along the fewest-switch choices recorded in the summaries.
    fn counterexample(&self, scenario: &LabScenario) -> Option<Counterexample> {
        let mut state = scenario.initial_state();
        let mut schedule = Vec::new();
        let mut previous: Option<usize> = None;
        while !scenario.is_complete(&state) {
            let summary = self.memo.get(&state)?;
            let (r, cost) = summary
                .best
                .iter()
                .enumerate()
                .map(|(r, b)| {
                    (
                        r,
                        b.saturating_add(u8::from(previous.is_some_and(|p| p != r))),
                    )
                })
                .min_by_key(|&(r, cost)| (cost, r))?;
            if cost == NO_DOUBLE_CHARGE || !scenario.can_move(&state, r) {
                return None;
            }
            scenario.apply(&mut state, r);
            schedule.push(r);
            previous = Some(r);
        }
        if !scenario.double_charged(&state) {
            return None;
        }
        Some(Counterexample {
            context_switches: context_switches(&schedule),
            schedule,
        })
    }
}

impl PlainSearch {
    fn run(
        &mut self,
        scenario: &LabScenario,
        max_units: u64,
        steps_executed: &mut u64,
    ) -> Result<bool, LabError> {
        let mut units = 0;
        while units < max_units {
            let depth = self.stack.len();
            let Some(top) = self.stack.last_mut() else {
                return Ok(true);
            };
            match next_movable(scenario, &top.state, top.next) {
                Some(r) => {
                    top.next = index_u8(r + 1);
                    let mut child = top.state.clone();
                    scenario.apply(&mut child, r);
                    units += 1;
                    *steps_executed += 1;
                    // The root frame has no `via`: its children start without a switch.
                    let switches = top
                        .switches
                        .saturating_add(u8::from(depth > 1 && usize::from(top.via) != r));
                    if scenario.is_complete(&child) {
                        let key = scenario.outcome_unchecked(&child);
                        self.schedules = self
                            .schedules
                            .checked_add(1)
                            .ok_or(LabError::CountOverflow)?;
                        add_outcome(&mut self.outcomes, key, 1)?;
                        let better = self
                            .best
                            .as_ref()
                            .is_none_or(|b| usize::from(switches) < b.context_switches);
                        if key.double_charged && better {
                            let mut schedule: Vec<usize> =
                                self.stack[1..].iter().map(|f| usize::from(f.via)).collect();
                            schedule.push(r);
                            self.best = Some(Counterexample {
                                context_switches: usize::from(switches),
                                schedule,
                            });
                        }
                    } else {
                        self.stack.push(PlainFrame {
                            state: child,
                            next: 0,
                            via: index_u8(r),
                            switches,
                        });
                    }
                }
                None => {
                    self.stack.pop();
                }
            }
        }
        Ok(self.stack.is_empty())
    }
}

impl Sampler {
    fn run(
        &mut self,
        scenario: &LabScenario,
        max_units: u64,
        steps_executed: &mut u64,
    ) -> Result<bool, LabError> {
        let mut units = 0;
        let mut movable = Vec::with_capacity(MAX_PARALLEL_REQUESTS);
        while units < max_units {
            if self.done >= self.target {
                return Ok(true);
            }
            let (state, schedule) = self
                .current
                .get_or_insert_with(|| (scenario.initial_state(), Vec::new()));
            movable.clear();
            movable.extend((0..scenario.requests()).filter(|&r| scenario.can_move(state, r)));
            let Some(&r) = movable.get(self.rng.below(movable.len())) else {
                // Every request finished without the completion check below seeing it; start over.
                self.current = None;
                continue;
            };
            scenario.apply(state, r);
            schedule.push(r);
            units += 1;
            *steps_executed += 1;
            if scenario.is_complete(state) {
                let key = scenario.outcome_unchecked(state);
                add_outcome(&mut self.outcomes, key, 1)?;
                if key.double_charged {
                    let switches = context_switches(schedule);
                    if self
                        .best
                        .as_ref()
                        .is_none_or(|b| switches < b.context_switches)
                    {
                        self.best = Some(Counterexample {
                            schedule: schedule.clone(),
                            context_switches: switches,
                        });
                    }
                }
                self.done += 1;
                self.current = None;
            }
        }
        Ok(self.done >= self.target)
    }
}
