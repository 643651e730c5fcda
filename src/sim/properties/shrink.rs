//! Shrinking a failing case, greedily and deterministically: try one smaller variant after
//! another — half the inputs, one key's inputs, one input, one request of a burst, one fault,
//! a smaller amount, a smaller balance — and keep the first that still fails the same property,
//! then start over from the smaller case; stop at a fixed point (no variant fails any more) or
//! after `MAX_SHRINK_ATTEMPTS` variants. Each variant is one small world run to its end, so the
//! work is done in slices of a bounded number of trace events, like the cases themselves.

use super::check::{admits, check, script_keys};
use super::gen::{
    ANY_AMOUNT, ANY_BALANCE, DISTINCT_AMOUNT, DISTINCT_HEADROOM, REPLAY_AMOUNT, REPLAY_BALANCE,
};
use super::{Breach, Counterexample, Property};
use crate::sim::limits::MAX_SHRINK_ATTEMPTS;
use crate::sim::scenario::Scenario;
use crate::sim::world::fault::Fault;
use crate::sim::world::input::Input;

/// One way to make a case smaller.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Edit {
    /// Remove inputs `start..end`.
    Remove(usize, usize),
    /// Remove every input naming this key.
    RemoveKey(String),
    /// A burst of two becomes its first request alone; a larger burst loses its last request.
    Split(usize),
    /// Input `i` (request `j` of a burst) without its fault.
    ClearFault(usize, Option<usize>),
    /// Every charge of this key for this amount.
    Amount(String, i64),
    /// Deposit `i` of this amount.
    Deposit(usize, i64),
    /// This starting balance.
    Balance(i64),
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
fn edits(property: Property, case: &Scenario) -> Vec<Edit> {
    let n = case.inputs.len();
    let keys = script_keys(case);
    let mut out = Vec::new();
    if n >= 4 {
        out.push(Edit::Remove(n / 2, n));
        out.push(Edit::Remove(0, n / 2));
    }
    if keys.len() > 1 {
        out.extend(keys.iter().map(|k| Edit::RemoveKey((*k).to_string())));
    }
    out.extend((0..n).rev().map(|i| Edit::Remove(i, i + 1)));
    for (i, input) in case.inputs.iter().enumerate() {
        match input {
            Input::Parallel { requests, .. } => {
                out.push(Edit::Split(i));
                for (j, r) in requests.iter().enumerate() {
                    if r.fault != Fault::None {
                        out.push(Edit::ClearFault(i, Some(j)));
                    }
                }
            }
            Input::Request { fault, .. } if *fault != Fault::None => {
                out.push(Edit::ClearFault(i, None));
            }
            _ => {}
        }
    }
    let low = amount_low(property);
    for key in &keys {
        if let Some(amount) = key_amount(case, key) {
            out.extend(
                smaller(amount, low)
                    .into_iter()
                    .map(|v| Edit::Amount((*key).to_string(), v)),
            );
        }
    }
    for (i, input) in case.inputs.iter().enumerate() {
        if let Input::Deposit { amount } = input {
            out.extend(
                smaller(*amount, ANY_AMOUNT.start)
                    .into_iter()
                    .map(|v| Edit::Deposit(i, v)),
            );
        }
    }
    if let Some(low) = balance_low(property) {
        out.extend(
            smaller(case.initial_balance, low)
                .into_iter()
                .map(Edit::Balance),
        );
    }
    out
}

/// `case` with `edit` made, its derived settings brought up to date.
fn apply(property: Property, case: &Scenario, edit: &Edit) -> Scenario {
    let mut next = case.clone();
    let inputs = &mut next.inputs;
    match edit {
        Edit::Remove(start, end) => {
            inputs.drain(*start..(*end).min(inputs.len()));
        }
        Edit::RemoveKey(key) => inputs.retain(|i| !names_key(i, key)),
        Edit::Split(i) => {
            if let Some(Input::Parallel { requests, .. }) = inputs.get_mut(*i) {
                if requests.len() > 2 {
                    requests.pop();
                } else if let Some(first) = requests.first().cloned() {
                    inputs[*i] = Input::Request {
                        key: first.key,
                        key_format: first.key_format,
                        amount: first.amount,
                        description: first.description,
                        fault: first.fault,
                    };
                }
            }
        }
        Edit::ClearFault(i, spec) => match (inputs.get_mut(*i), spec) {
            (Some(Input::Request { fault, .. }), None) => *fault = Fault::None,
            (Some(Input::Parallel { requests, .. }), Some(j)) => {
                if let Some(r) = requests.get_mut(*j) {
                    r.fault = Fault::None;
                }
            }
            _ => {}
        },
        Edit::Amount(key, value) => {
            for input in inputs.iter_mut() {
                match input {
                    Input::Request {
                        key: Some(k),
                        amount,
                        ..
                    } if k == key => *amount = *value,
                    Input::Parallel { requests, .. } => {
                        for r in requests
                            .iter_mut()
                            .filter(|r| r.key.as_deref() == Some(key))
                        {
                            r.amount = *value;
                        }
                    }
                    _ => {}
                }
            }
        }
        Edit::Deposit(i, value) => {
            if let Some(Input::Deposit { amount }) = inputs.get_mut(*i) {
                *amount = *value;
            }
        }
        Edit::Balance(b) => next.initial_balance = *b,
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
    edits: Vec<Edit>,
    next: usize,
    attempts: u32,
    kept: u32,
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

    /// Tries variants until their worlds have recorded `max_events` trace events or shrinking is
    /// done; returns the events recorded.
    pub fn run(&mut self, max_events: u64) -> u64 {
        let mut spent = 0u64;
        while !self.is_done() && spent < max_events {
            let candidate = apply(self.property, &self.best.scenario, &self.edits[self.next]);
            self.next += 1;
            if candidate == self.best.scenario || !admits(self.property, &candidate) {
                continue;
            }
            self.attempts += 1;
            // A variant the limits refuse is no counterexample: skip it.
            let Ok(outcome) = check(self.property, &candidate) else {
                continue;
            };
            spent = spent.saturating_add(outcome.events.max(1));
            if let Some(breach) = outcome.breach {
                self.edits = edits(self.property, &candidate);
                self.next = 0;
                self.kept += 1;
                self.best = Counterexample {
                    scenario: candidate,
                    breach,
                };
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
}
