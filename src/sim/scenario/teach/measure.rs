//! What a question or a goal reads off one world: a number or a yes/no, and which trace events
//! can change it (so the step that shows an answer is found without re-measuring every step).

use crate::sim::lesson::Value;
use crate::sim::world::invariants::{Invariant, ViolationDetail};
use crate::sim::world::trace::{CheckOutcome, EventKind};
use crate::sim::world::World;

/// Something measured on one world (one column of a run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Measure {
    /// The account's balance.
    Balance,
    /// Committed charges (ledger entries).
    Charges,
    /// The most charges committed for one description (one order).
    MostChargesForOneOrder,
    /// The most charges committed for one idempotency key.
    MostChargesForOneKey,
    /// Key checks that found the key in flight (409 answers).
    Conflicts,
    /// Effects the consumer applied (an e-mail per event; duplicates included).
    ConsumerApplied,
    /// Whether an invariant still holds.
    Holds(Invariant),
    /// Whether some event of a committed charge was lost (a dual write that never published).
    EventLost,
    /// The most different answers the clients received for one key (a replay counts as the
    /// answer it replays; a 409 or 503 "try again" counts as none).
    MostAnswersForOneKey,
    /// Key checks that found the key with other parameters (400/422/409 mismatch answers).
    Mismatches,
    /// Events published to the broker, by the server (a dual write) or by the outbox relay.
    EventsPublished,
}

impl Measure {
    /// Every measure, for tests and for reading saved ids.
    pub const ALL: [Measure; 18] = [
        Measure::Balance,
        Measure::Charges,
        Measure::MostChargesForOneOrder,
        Measure::MostChargesForOneKey,
        Measure::Conflicts,
        Measure::ConsumerApplied,
        Measure::Holds(Invariant::MoneyConserved),
        Measure::Holds(Invariant::OneChargePerKey),
        Measure::Holds(Invariant::OneChargePerOperation),
        Measure::Holds(Invariant::ReplayIdentical),
        Measure::Holds(Invariant::OneEventPerCharge),
        Measure::Holds(Invariant::ConsumerAtMostOnce),
        Measure::EventLost,
        Measure::MostAnswersForOneKey,
        Measure::Mismatches,
        Measure::Holds(Invariant::OwnAccountAnswers),
        Measure::Holds(Invariant::ReplayMatchesRequest),
        Measure::EventsPublished,
    ];

    /// The value on `world` as it stands.
    pub fn of(self, world: &World) -> Value {
        match self {
            Measure::Balance => Value::Int(world.balance()),
            Measure::Charges => Value::Int(world.ledger().len() as i64),
            Measure::MostChargesForOneOrder => {
                Value::Int(most(world.ledger().iter().map(|e| Some(e.description.0))))
            }
            Measure::MostChargesForOneKey => {
                Value::Int(most(world.ledger().iter().map(|e| e.key.map(|k| k.0))))
            }
            Measure::Conflicts => Value::Int(world.counters().conflicts as i64),
            Measure::ConsumerApplied => Value::Int(world.consumer().applied as i64),
            Measure::Holds(inv) => {
                Value::Bool(world.violations().iter().all(|v| v.invariant != inv))
            }
            Measure::EventLost => Value::Bool(
                world
                    .violations()
                    .iter()
                    .any(|v| matches!(v.detail, ViolationDetail::EventLost { .. })),
            ),
            Measure::MostAnswersForOneKey => Value::Int(most_answers_for_one_key(world)),
            Measure::Mismatches => Value::Int(world.counters().mismatches as i64),
            Measure::EventsPublished => Value::Int(
                world
                    .trace()
                    .iter()
                    .filter(|e| Measure::EventsPublished.moved_by(&e.kind))
                    .count() as i64,
            ),
        }
    }

    /// Whether this counts charges (of all, of one key, of one order).
    pub fn counts_charges(self) -> bool {
        matches!(
            self,
            Measure::Charges | Measure::MostChargesForOneKey | Measure::MostChargesForOneOrder
        )
    }

    /// Whether the event can change this measure.
    pub fn moved_by(self, e: &EventKind) -> bool {
        use EventKind as E;
        match self {
            Measure::Balance => matches!(
                e,
                E::Charge { .. }
                    | E::ProcessorCharge { .. }
                    | E::Deposit { accepted: true, .. }
                    | E::Rollback { .. }
            ),
            Measure::Charges | Measure::MostChargesForOneOrder | Measure::MostChargesForOneKey => {
                matches!(
                    e,
                    E::Charge { .. }
                        | E::ProcessorCharge { .. }
                        | E::Rollback { .. }
                        | E::Commit { .. }
                )
            }
            Measure::Conflicts => matches!(
                e,
                E::StoreCheck {
                    outcome: CheckOutcome::Conflict,
                    ..
                }
            ),
            Measure::ConsumerApplied => matches!(e, E::ConsumerApply { .. }),
            Measure::MostAnswersForOneKey => matches!(e, E::ResponseDelivered { late: false, .. }),
            Measure::Mismatches => matches!(
                e,
                E::StoreCheck {
                    outcome: CheckOutcome::Mismatch | CheckOutcome::RetryMismatch,
                    ..
                }
            ),
            Measure::EventsPublished => {
                matches!(e, E::EventPublish { .. } | E::RelayPublish { .. })
            }
            // A violation is found at the step that broke it; `Posed` reads that step directly.
            Measure::Holds(_) | Measure::EventLost => false,
        }
    }

    /// Whether the value is a count (choices are small whole numbers) rather than an amount.
    pub fn is_count(self) -> bool {
        !matches!(
            self,
            Measure::Balance | Measure::Holds(_) | Measure::EventLost
        )
    }
}

/// Adds one to `id`'s count (the lists are a lesson's or a challenge's few keys and orders: a
/// linear search keeps hash tables out of the page's wasm).
fn bump(counts: &mut Vec<(u32, i64)>, id: u32) -> i64 {
    match counts.iter_mut().find(|(k, _)| *k == id) {
        Some(e) => {
            e.1 += 1;
            e.1
        }
        None => {
            counts.push((id, 1));
            1
        }
    }
}

/// The largest number of times one `Some` id occurs.
fn most(ids: impl Iterator<Item = Option<u32>>) -> i64 {
    let mut counts = Vec::new();
    ids.flatten()
        .map(|id| bump(&mut counts, id))
        .max()
        .unwrap_or(0)
}

/// The most different answers delivered (in time, not late) for one key: the attempt's key is
/// read from its send, the answer from its delivery.
fn most_answers_for_one_key(world: &World) -> i64 {
    use EventKind as E;
    let mut key_of: Vec<((u32, u32), u32)> = Vec::new();
    let mut answers: Vec<(u32, &crate::sim::article::PaymentResult)> = Vec::new();
    let mut most = 0;
    for e in world.trace().iter() {
        match &e.kind {
            E::ClientSend {
                op, attempt, key, ..
            } => {
                key_of.push(((op.0, *attempt), key.0));
            }
            E::ResponseDelivered {
                op,
                attempt,
                result,
                late: false,
                ..
            } => {
                // A 409 or a 503 says "try again", not what happened: it is no answer.
                let key = key_of
                    .iter()
                    .find(|(a, _)| *a == (op.0, *attempt))
                    .map(|e| e.1);
                if let (Some(k), false) = (key, result.is_retryable()) {
                    let first = result.outcome();
                    if !answers.contains(&(k, first)) {
                        answers.push((k, first));
                        most = most.max(answers.iter().filter(|(x, _)| *x == k).count() as i64);
                    }
                }
            }
            _ => {}
        }
    }
    most
}
