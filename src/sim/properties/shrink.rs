//! Shrinking a failing case, greedily and deterministically: try one smaller variant after
//! another — half the inputs, one key's inputs, one input, one request of a burst, one fault,
//! a smaller amount, a smaller balance — and keep the first that still fails the same property,
//! then start over from the smaller case; stop at a fixed point (no variant fails any more) or
//! after `MAX_SHRINK_ATTEMPTS` variants. Each variant is one small world run to its end, so the
//! work is done in slices of a bounded number of trace events, like the cases themselves.
//!
//! Every variant tried is a step of the shrink log ([`ShrinkStep`]: the edit and what the
//! variant did), the first `MAX_SHRINK_LOG` of them kept, so the page can walk from the case as
//! generated to the minimal one. The log holds edits, not cases: a step's case is rebuilt by
//! making the kept edits before it on the original ([`Shrinker::case_before`]), which gives the
//! same case the shrinker tried, since an edit is a function of the case it is made on.

use super::check::{admits, check, script_keys};
use super::gen::{
    ANY_AMOUNT, ANY_BALANCE, DISTINCT_AMOUNT, DISTINCT_HEADROOM, REPLAY_AMOUNT, REPLAY_BALANCE,
};
use super::{Breach, Counterexample, Property};
use crate::sim::limits::{InputError, MAX_SHRINK_ATTEMPTS, MAX_SHRINK_LOG};
use crate::sim::scenario::Scenario;
use crate::sim::world::fault::Fault;
use crate::sim::world::input::Input;

/// One way to make a case smaller: what a shrink step tried. Input and request numbers count
/// from 0 in the case the edit is made on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShrinkEdit {
    /// Remove inputs `start..end`.
    Remove {
        /// The first input removed.
        start: usize,
        /// One past the last input removed.
        end: usize,
    },
    /// Remove every input naming this key.
    RemoveKey {
        /// The key.
        key: String,
    },
    /// Input `input`, a burst of `requests` sent at once: a burst of two becomes its first
    /// request alone; a larger burst loses its last request.
    Split {
        /// The burst's input.
        input: usize,
        /// Requests in the burst before the edit.
        requests: usize,
    },
    /// Input `input` (request `request` of a burst) without its fault.
    ClearFault {
        /// The input.
        input: usize,
        /// The request of a burst, or `None` for a single request.
        request: Option<usize>,
        /// The fault removed.
        fault: Fault,
    },
    /// Every charge of `key` for `to` instead of `from`.
    Amount {
        /// The key.
        key: String,
        /// Its amount before the edit.
        from: i64,
        /// Its amount after.
        to: i64,
    },
    /// The deposit at input `input`: `to` instead of `from`.
    Deposit {
        /// The deposit's input.
        input: usize,
        /// The amount before the edit.
        from: i64,
        /// The amount after.
        to: i64,
    },
    /// The starting balance: `to` instead of `from`.
    Balance {
        /// The balance before the edit.
        from: i64,
        /// The balance after.
        to: i64,
    },
}

/// How an edit touches one input of the case it is made on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// Left as it is.
    Same,
    /// Removed.
    Removed,
    /// Made smaller (fewer requests, no fault, a smaller amount).
    Changed,
}

impl ShrinkEdit {
    /// How this edit touches input `i` of `before`, the case it is made on.
    pub fn touches(&self, before: &Scenario, i: usize) -> Touch {
        let input = before.inputs.get(i);
        let hit = match self {
            ShrinkEdit::Remove { start, end } => return removed_if(*start <= i && i < *end),
            ShrinkEdit::RemoveKey { key } => {
                return removed_if(input.is_some_and(|x| names_key(x, key)))
            }
            ShrinkEdit::Split { input: at, .. }
            | ShrinkEdit::ClearFault { input: at, .. }
            | ShrinkEdit::Deposit { input: at, .. } => *at == i,
            ShrinkEdit::Amount { key, .. } => input.is_some_and(|x| names_key(x, key)),
            ShrinkEdit::Balance { .. } => false,
        };
        if hit {
            Touch::Changed
        } else {
            Touch::Same
        }
    }
}

fn removed_if(removed: bool) -> Touch {
    if removed {
        Touch::Removed
    } else {
        Touch::Same
    }
}

/// What a variant did when it was run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShrinkVerdict {
    /// It still breaks the property, as the breach says: kept, and shrinking starts again from it.
    Fails(Breach),
    /// It keeps the property: dropped, and the next edit is tried on the case before.
    Holds,
    /// The limits refuse it (it is no counterexample): dropped.
    Refused(InputError),
}

/// One step of shrinking: the edit tried on the smallest failing case so far, and what the
/// variant it made did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShrinkStep {
    /// The edit.
    pub edit: ShrinkEdit,
    /// What the variant did.
    pub verdict: ShrinkVerdict,
}

/// Smaller values to try for `value` on the way to `low`: the low end, halfway, one less.
fn smaller(value: i64, low: i64) -> Vec<i64> {
    let mut out = Vec::new();
    for v in [low, low + (value - low) / 2, value - 1] {
        if v >= low && v < value && !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Where shrinking heads for amounts and balances: the low end of the property's ranges.
fn amount_low(property: Property) -> i64 {
    match property {
        Property::Replay => REPLAY_AMOUNT.start,
        Property::DistinctKeys => DISTINCT_AMOUNT.start,
        Property::OneChargePerKey => ANY_AMOUNT.start,
    }
}

/// `None` when the balance follows from the rest (distinct keys: enough for each key once).
fn balance_low(property: Property) -> Option<i64> {
    match property {
        Property::Replay => Some(REPLAY_BALANCE.start),
        Property::DistinctKeys => None,
        Property::OneChargePerKey => Some(ANY_BALANCE.start),
    }
}

/// The amount of a key's first charge.
fn key_amount(case: &Scenario, key: &str) -> Option<i64> {
    case.inputs.iter().find_map(|i| match i {
        Input::Request {
            key: Some(k),
            amount,
            ..
        } if k == key => Some(*amount),
        Input::Parallel { requests, .. } => requests
            .iter()
            .find(|r| r.key.as_deref() == Some(key))
            .map(|r| r.amount),
        _ => None,
    })
}

fn names_key(input: &Input, key: &str) -> bool {
    match input {
        Input::Request { key: k, .. } => k.as_deref() == Some(key),
        Input::Parallel { requests, .. } => requests.iter().any(|r| r.key.as_deref() == Some(key)),
        _ => false,
    }
}

/// Every edit of `case`, in the order they are tried: the biggest cuts first.
fn edits(property: Property, case: &Scenario) -> Vec<ShrinkEdit> {
    let n = case.inputs.len();
    let keys = script_keys(case);
    let mut out = Vec::new();
    if n >= 4 {
        out.push(ShrinkEdit::Remove {
            start: n / 2,
            end: n,
        });
        out.push(ShrinkEdit::Remove {
            start: 0,
            end: n / 2,
        });
    }
    if keys.len() > 1 {
        out.extend(keys.iter().map(|k| ShrinkEdit::RemoveKey {
            key: (*k).to_string(),
        }));
    }
    out.extend((0..n).rev().map(|i| ShrinkEdit::Remove {
        start: i,
        end: i + 1,
    }));
    for (i, input) in case.inputs.iter().enumerate() {
        out.extend(input_edits(i, input));
    }
    let low = amount_low(property);
    for key in &keys {
        if let Some(from) = key_amount(case, key) {
            out.extend(smaller(from, low).into_iter().map(|to| ShrinkEdit::Amount {
                key: (*key).to_string(),
                from,
                to,
            }));
        }
    }
    for (i, input) in case.inputs.iter().enumerate() {
        if let Input::Deposit { amount } = input {
            out.extend(smaller(*amount, ANY_AMOUNT.start).into_iter().map(|to| {
                ShrinkEdit::Deposit {
                    input: i,
                    from: *amount,
                    to,
                }
            }));
        }
    }
    if let Some(low) = balance_low(property) {
        let from = case.initial_balance;
        out.extend(
            smaller(from, low)
                .into_iter()
                .map(|to| ShrinkEdit::Balance { from, to }),
        );
    }
    out
}

/// The edits of input `i` alone: a burst split, a fault cleared.
fn input_edits(i: usize, input: &Input) -> Vec<ShrinkEdit> {
    let mut out = Vec::new();
    match input {
        Input::Parallel { requests, .. } => {
            out.push(ShrinkEdit::Split {
                input: i,
                requests: requests.len(),
            });
            for (j, r) in requests.iter().enumerate() {
                if r.fault != Fault::None {
                    out.push(ShrinkEdit::ClearFault {
                        input: i,
                        request: Some(j),
                        fault: r.fault,
                    });
                }
            }
        }
        Input::Request { fault, .. } if *fault != Fault::None => {
            out.push(ShrinkEdit::ClearFault {
                input: i,
                request: None,
                fault: *fault,
            });
        }
        _ => {}
    }
    out
}

/// A burst of two becomes its first request alone; a larger burst loses its last request.
fn split(input: &mut Input) {
    let Input::Parallel { requests, .. } = input else {
        return;
    };
    if requests.len() > 2 {
        requests.pop();
    } else if let Some(first) = requests.first().cloned() {
        *input = Input::Request {
            key: first.key,
            key_format: first.key_format,
            amount: first.amount,
            description: first.description,
            fault: first.fault,
        };
    }
}

/// Every charge of `key` for `value`.
fn set_amount(inputs: &mut [Input], key: &str, value: i64) {
    for input in inputs.iter_mut() {
        match input {
            Input::Request {
                key: Some(k),
                amount,
                ..
            } if k == key => *amount = value,
            Input::Parallel { requests, .. } => {
                for r in requests
                    .iter_mut()
                    .filter(|r| r.key.as_deref() == Some(key))
                {
                    r.amount = value;
                }
            }
            _ => {}
        }
    }
}

/// `case` with `edit` made, its derived settings brought up to date.
fn apply(property: Property, case: &Scenario, edit: &ShrinkEdit) -> Scenario {
    let mut next = case.clone();
    let inputs = &mut next.inputs;
    match edit {
        ShrinkEdit::Remove { start, end } => {
            let end = (*end).min(inputs.len());
            inputs.drain((*start).min(end)..end);
        }
        ShrinkEdit::RemoveKey { key } => inputs.retain(|i| !names_key(i, key)),
        ShrinkEdit::Split { input, .. } => {
            if let Some(i) = inputs.get_mut(*input) {
                split(i);
            }
        }
        ShrinkEdit::ClearFault { input, request, .. } => match (inputs.get_mut(*input), request) {
            (Some(Input::Request { fault, .. }), None) => *fault = Fault::None,
            (Some(Input::Parallel { requests, .. }), Some(j)) => {
                if let Some(r) = requests.get_mut(*j) {
                    r.fault = Fault::None;
                }
            }
            _ => {}
        },
        ShrinkEdit::Amount { key, to, .. } => set_amount(inputs, key, *to),
        ShrinkEdit::Deposit { input, to, .. } => {
            if let Some(Input::Deposit { amount }) = inputs.get_mut(*input) {
                *amount = *to;
            }
        }
        ShrinkEdit::Balance { to, .. } => next.initial_balance = *to,
    }
    if balance_low(property).is_none() {
        // The article's `initial = num_operations * amount + 1000`, per key's own amount.
        let spent = script_keys(&next)
            .iter()
            .filter_map(|k| key_amount(&next, k))
            .fold(0i64, i64::saturating_add);
        next.initial_balance = spent.saturating_add(DISTINCT_HEADROOM);
    }
    next
}

/// A failing case being shrunk; [`Shrinker::run`] does a bounded slice of the work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shrinker {
    property: Property,
    best: Counterexample,
    /// The edits of `best`, and the next one to try.
    edits: Vec<ShrinkEdit>,
    next: usize,
    attempts: u32,
    kept: u32,
    /// The first `log_limit` steps (`MAX_SHRINK_LOG`; smaller in this file's tests).
    log: Vec<ShrinkStep>,
    log_limit: usize,
}

impl Shrinker {
    /// Starts shrinking `case`, which broke `property` as `breach` says.
    pub fn new(property: Property, case: Scenario, breach: Breach) -> Shrinker {
        Shrinker {
            property,
            edits: edits(property, &case),
            best: Counterexample {
                scenario: case,
                breach,
            },
            next: 0,
            attempts: 0,
            kept: 0,
            log: Vec::new(),
            log_limit: MAX_SHRINK_LOG,
        }
    }

    /// True once no smaller variant fails, or the attempts are spent.
    pub fn is_done(&self) -> bool {
        self.next >= self.edits.len() || self.attempts >= MAX_SHRINK_ATTEMPTS
    }

    /// The smallest failing case so far.
    pub fn best(&self) -> &Counterexample {
        &self.best
    }

    /// Variants tried so far.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Variants kept (each smaller than the one before).
    pub fn kept(&self) -> u32 {
        self.kept
    }

    /// The steps so far, one per variant tried, in order: the first `MAX_SHRINK_LOG` of them
    /// (`attempts()` counts them all).
    pub fn log(&self) -> &[ShrinkStep] {
        &self.log
    }

    /// The case step `i` of the log was made on: `original` (the case shrinking started from)
    /// with the kept edits of the steps before `i`; `i == log().len()` gives the case after the
    /// last logged step. `None` past that.
    pub fn case_before(&self, original: &Scenario, i: usize) -> Option<Scenario> {
        let mut case = original.clone();
        for step in self.log.get(..i)? {
            if matches!(step.verdict, ShrinkVerdict::Fails(_)) {
                case = apply(self.property, &case, &step.edit);
            }
        }
        Some(case)
    }

    /// The variant step `i` tried (see [`Shrinker::case_before`]).
    pub fn candidate(&self, original: &Scenario, i: usize) -> Option<Scenario> {
        let step = self.log.get(i)?;
        let before = self.case_before(original, i)?;
        Some(apply(self.property, &before, &step.edit))
    }

    /// Tries variants until their worlds have recorded `max_events` trace events or shrinking is
    /// done; returns the events recorded.
    pub fn run(&mut self, max_events: u64) -> u64 {
        let mut spent = 0u64;
        while !self.is_done() && spent < max_events {
            let edit = self.edits[self.next].clone();
            let candidate = apply(self.property, &self.best.scenario, &edit);
            self.next += 1;
            if candidate == self.best.scenario || !admits(self.property, &candidate) {
                continue;
            }
            self.attempts += 1;
            // A variant the limits refuse is no counterexample: it is dropped.
            let verdict = match check(self.property, &candidate) {
                Err(e) => ShrinkVerdict::Refused(e),
                Ok(outcome) => {
                    spent = spent.saturating_add(outcome.events.max(1));
                    outcome
                        .breach
                        .map_or(ShrinkVerdict::Holds, ShrinkVerdict::Fails)
                }
            };
            if let ShrinkVerdict::Fails(breach) = &verdict {
                self.edits = edits(self.property, &candidate);
                self.next = 0;
                self.kept += 1;
                self.best = Counterexample {
                    scenario: candidate,
                    breach: breach.clone(),
                };
            }
            if self.log.len() < self.log_limit {
                self.log.push(ShrinkStep { edit, verdict });
            }
        }
        spent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_values_head_for_the_low_end() {
        assert_eq!(smaller(100, 1), vec![1, 50, 99]);
        assert_eq!(smaller(2, 1), vec![1]);
        assert_eq!(smaller(1, 1), Vec::<i64>::new());
        assert_eq!(smaller(1003, 1000), vec![1000, 1001, 1002]);
    }

    fn failing_case() -> (Scenario, Breach) {
        use crate::sim::properties::case;
        use crate::sim::world::server::ServiceKind;
        (0..256)
            .find_map(|i| {
                let c = case(Property::OneChargePerKey, ServiceKind::Naive, 3, i);
                let breach = check(Property::OneChargePerKey, &c).ok()?.breach?;
                Some((c, breach))
            })
            .expect("the naive service fails within 256 cases")
    }

    #[test]
    fn the_log_keeps_its_first_steps_and_counts_the_rest() {
        let (case, breach) = failing_case();
        let mut full = Shrinker::new(Property::OneChargePerKey, case.clone(), breach.clone());
        while !full.is_done() {
            full.run(u64::MAX);
        }
        assert_eq!(full.log().len() as u32, full.attempts());
        assert!(full.attempts() > 4, "{} attempts", full.attempts());
        let mut short = Shrinker::new(Property::OneChargePerKey, case.clone(), breach);
        short.log_limit = 4;
        while !short.is_done() {
            short.run(1);
        }
        // A short log changes nothing but what is kept: the same steps, the same result.
        assert_eq!(short.log(), &full.log()[..4]);
        assert_eq!(
            (short.attempts(), short.best()),
            (full.attempts(), full.best())
        );
        assert_eq!(short.case_before(&case, 5), None);
        // The case after every logged step is where shrinking ended.
        let end = full.case_before(&case, full.log().len()).unwrap();
        assert_eq!(end, full.best().scenario);
        assert_eq!(full.case_before(&case, 0), Some(case));
    }
}
