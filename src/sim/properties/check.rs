//! Judging one case: its world is run to the end, then what the world did — its ledger (every
//! committed charge with its key and step), the answers its server sent, the deposits it took —
//! is held against the property, as the article's `prop_assert!`s hold the service's balance and
//! operation count.

use super::{Breach, Property};
use crate::sim::article::PaymentResult;
use crate::sim::limits::InputError;
use crate::sim::scenario::Scenario;
use crate::sim::world::input::Input;
use crate::sim::world::trace::EventKind;
use crate::sim::world::World;
use std::collections::BTreeMap;

/// A case, run and judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// How it broke the property, or `None` if it held.
    pub breach: Option<Breach>,
    /// Trace events its world recorded (the work it cost).
    pub events: u64,
}

/// Runs the case's world (its first service) to the end and judges it; an invalid scenario is
/// refused with the limit it breaks.
pub fn check(property: Property, case: &Scenario) -> Result<Outcome, InputError> {
    let Some(world) = run_case(case)? else {
        // `validate` asks for at least one service; nothing to judge otherwise.
        return Ok(Outcome {
            breach: None,
            events: 0,
        });
    };
    Ok(Outcome {
        breach: judge(property, case, &world),
        events: world.trace().len() as u64,
    })
}

/// The world a case is judged on (its first service's), run to its end: its trace holds the
/// steps a breach names. `None` for a case without a service; an invalid case is refused.
pub fn run_case(case: &Scenario) -> Result<Option<World>, InputError> {
    let mut world = case.worlds()?.into_iter().next();
    if let Some(w) = &mut world {
        w.run_until_idle();
    }
    Ok(world)
}

/// The keys a case's inputs name, in the order they first appear.
pub(super) fn script_keys(case: &Scenario) -> Vec<&str> {
    let mut keys: Vec<&str> = Vec::new();
    for input in &case.inputs {
        let named: Vec<&str> = match input {
            Input::Request { key, .. } => key.as_deref().into_iter().collect(),
            Input::Parallel { requests, .. } => {
                requests.iter().filter_map(|r| r.key.as_deref()).collect()
            }
            _ => Vec::new(),
        };
        for k in named {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    keys
}

/// What the world did, per key and over time.
struct Facts {
    initial: i64,
    /// Each key's charges: (step, amount), in commit order.
    charges: BTreeMap<String, Vec<(usize, i64)>>,
    /// Every charge: (step, amount).
    ledger: Vec<(usize, i64)>,
    /// Accepted deposits: (step, amount).
    deposits: Vec<(usize, i64)>,
    /// Each key's first answer: the step of the first reply that reports the outcome of a
    /// charge (a success, a refusal for funds, a processor error, or a replay of one). A 409
    /// for a request still in flight, a parameter mismatch and a refused request are no answer
    /// to the operation: they are not stored, and the client tries again.
    first_answer: BTreeMap<String, usize>,
    balance: i64,
}

impl Facts {
    fn of(world: &World) -> Facts {
        let name = |k| world.key_text(k).unwrap_or_default();
        let mut charges: BTreeMap<String, Vec<(usize, i64)>> = BTreeMap::new();
        let mut ledger = Vec::new();
        for e in world.ledger().iter() {
            ledger.push((e.step, e.amount));
            if let Some(k) = e.key {
                charges.entry(name(k)).or_default().push((e.step, e.amount));
            }
        }
        let mut deposits = Vec::new();
        let mut first_answer = BTreeMap::new();
        for e in world.trace().iter() {
            match &e.kind {
                EventKind::Deposit {
                    amount,
                    accepted: true,
                } => deposits.push((e.step, *amount)),
                EventKind::ResponseSent { key, result, .. } if answers(result) => {
                    first_answer.entry(name(*key)).or_insert(e.step);
                }
                _ => {}
            }
        }
        Facts {
            initial: world.config().initial_balance,
            charges,
            ledger,
            deposits,
            first_answer,
            balance: world.balance(),
        }
    }

    /// The balance right after `step`, from the ledger and the deposits (what the world's
    /// money-conservation invariant checks the server's balance against).
    fn balance_after(&self, step: usize) -> i64 {
        let sum = |rows: &[(usize, i64)]| -> i64 {
            rows.iter()
                .filter(|(s, _)| *s <= step)
                .map(|(_, a)| *a)
                .fold(0i64, i64::saturating_add)
        };
        self.initial
            .saturating_add(sum(&self.deposits))
            .saturating_sub(sum(&self.ledger))
    }

    fn deposits_after(&self, step: usize) -> i64 {
        self.deposits
            .iter()
            .filter(|(s, _)| *s > step)
            .map(|(_, a)| *a)
            .fold(0i64, i64::saturating_add)
    }

    fn charges_of(&self, key: &str) -> &[(usize, i64)] {
        self.charges.get(key).map_or(&[], Vec::as_slice)
    }
}

/// Whether a reply reports what became of a charge (see `Facts::first_answer`).
fn answers(result: &PaymentResult) -> bool {
    !matches!(
        result,
        PaymentResult::InFlightConflict
            | PaymentResult::ParameterMismatch { .. }
            | PaymentResult::InvalidRequest { .. }
    )
}

fn count(charges: &[(usize, i64)]) -> u32 {
    u32::try_from(charges.len()).unwrap_or(u32::MAX)
}

/// Judges a world that ran `case` to its end against `property`: the breach that shows the
/// property broken (the earliest, when several do), or `None`.
pub fn judge(property: Property, case: &Scenario, world: &World) -> Option<Breach> {
    let facts = Facts::of(world);
    match property {
        Property::Replay => replay(&facts),
        Property::DistinctKeys => distinct_keys(case, &facts),
        Property::OneChargePerKey => one_charge_per_key(&facts),
    }
}

/// After each key's first answer the balance stays where it was (checked first, as the
/// article's first assertion), and the key is charged at most once.
fn replay(facts: &Facts) -> Option<Breach> {
    let mut found: Vec<Breach> = Vec::new();
    for (key, charges) in &facts.charges {
        let late = facts.first_answer.get(key).and_then(|&answered_at| {
            charges
                .iter()
                .find(|(s, _)| *s > answered_at)
                .map(|c| (answered_at, c.0))
        });
        if let Some((answered_at, step)) = late {
            found.push(Breach::BalanceMoved {
                key: key.clone(),
                answered_at,
                step,
                before: facts.balance_after(answered_at),
                after: facts
                    .balance
                    .saturating_sub(facts.deposits_after(answered_at)),
            });
        } else if let Some(&(step, _)) = charges.get(1) {
            found.push(Breach::OperationCount {
                key: key.clone(),
                step,
                charges: count(charges),
            });
        }
    }
    found.into_iter().min_by_key(|b| b.step())
}

/// Every key the case names is charged exactly once, and the balance ends at the start less
/// each key's amount.
fn distinct_keys(case: &Scenario, facts: &Facts) -> Option<Breach> {
    let keys = script_keys(case);
    for key in &keys {
        let charges = facts.charges_of(key);
        if charges.len() != 1 {
            return Some(Breach::NotChargedOnce {
                key: (*key).to_string(),
                step: charges.get(1).map(|c| c.0),
                charges: count(charges),
            });
        }
    }
    // Each key was charged once: by its own amount (the world charges what was asked).
    let spent = keys
        .iter()
        .filter_map(|k| facts.charges_of(k).first().map(|c| c.1))
        .fold(0i64, i64::saturating_add);
    let deposits = facts.deposits_after(0);
    let expected = facts.initial.saturating_add(deposits).saturating_sub(spent);
    (facts.balance != expected).then_some(Breach::BalanceOff {
        keys: keys.len(),
        expected,
        actual: facts.balance,
    })
}

/// No key is charged twice.
fn one_charge_per_key(facts: &Facts) -> Option<Breach> {
    facts
        .charges
        .iter()
        .filter_map(|(key, charges)| {
            charges.get(1).map(|&(step, _)| Breach::ChargedTwice {
                key: key.clone(),
                step,
                charges: count(charges),
            })
        })
        .min_by_key(|b| b.step())
}

/// Whether `case` is one the property speaks of (proptest's `prop_assume!`): the distinct-keys
/// property is about keys that each end with a clean attempt, which a correct service charges
/// exactly once; a case whose key ends on a lost request is no counterexample. The shrinker
/// keeps only cases the property admits.
pub(super) fn admits(property: Property, case: &Scenario) -> bool {
    match property {
        Property::Replay | Property::OneChargePerKey => true,
        Property::DistinctKeys => script_keys(case).iter().all(|key| {
            let last = case.inputs.iter().rev().find(|i| match i {
                Input::Request { key: k, .. } => k.as_deref() == Some(*key),
                Input::Parallel { requests, .. } => {
                    requests.iter().any(|r| r.key.as_deref() == Some(*key))
                }
                _ => false,
            });
            matches!(
                last,
                Some(Input::Request {
                    fault: crate::sim::world::fault::Fault::None,
                    ..
                })
            )
        }),
    }
}
