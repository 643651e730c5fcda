//! Which invariants a column's settings promise. Every invariant is checked on every run, so a
//! run shows which one it breaks; [`Invariant::promised`] says whether the settings promise it
//! at all, and the page shows "not promised here" (neither ✓ nor ✕) for the others, as the
//! Kafka page does.
//!
//! The promise is read off the column's [`Config`] and the learner's actions alone, never off how
//! the run turns out: it is the same at every step of the run (stepping back does not change
//! it), and it gives away no answer a lesson asks for. Where the engine may or may not do
//! something depending on timing (start a second run, book a flight twice), the promise is
//! withheld whenever the settings allow it. `tests/soak_engines.rs` checks on random cases that a
//! promised invariant never breaks, and that each invariant but the last does break somewhere it
//! is not promised (its module doc lists the promises).

use super::engine::Invariant;
use super::run::Action;
use super::{
    ClockMode, Config, ConflictPolicy, Engine, FaultKind, FlowKind, KeyMode, RequestId,
    ReusePolicy, StepName, RESTATE_RETENTION_MS,
};

/// Why a column's settings do not promise an invariant (the words are the UI's). The variants
/// are listed in the order they are looked for: a column has the first that applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotPromised {
    /// No durable engine: the plain process keeps its progress in memory, and nobody resumes or
    /// compensates a run its worker lost.
    NotDurable,
    /// The payment steps pass no key: a re-run charges (or refunds) again.
    NoKey,
    /// The key is minted at random inside the step, anew on every execution.
    RandomKey,
    /// The client starts the workflow id again and these settings let the engine start a new run
    /// for it (Temporal's reuse or conflict policy with a new request id; Restate past its 24 h
    /// retention): the new run derives keys of its own and charges again.
    NewRun,
    /// Temporal's TerminateExisting on a second start ends the open run where it is, without
    /// compensating.
    Terminated,
    /// A compensation (cancel the flight, refund the card) fails for good: the saga ends with a
    /// step neither kept nor undone.
    CompensationFails,
    /// A step after the charge fails for good, and the order has no compensation.
    FailsAfterCharge,
    /// DBOS refuses the replayed step after a direct clock read and ends the order failed, after
    /// the charge.
    ReplayFails,
    /// `book_flight` carries no key: a crash after the booking (a fault or the learner's) or a
    /// lost reply books a second flight, and the saga undoes one booking of two.
    BookingTwice,
}

impl Invariant {
    /// Why the column with settings `c`, under the learner's `actions` (all of them, those
    /// after the cursor too), does not promise this invariant; `None` when it does.
    pub fn not_promised(self, c: &Config, actions: &[(usize, Action)]) -> Option<NotPromised> {
        // The plain process keeps no journal: it promises nothing about one (a ✓ there read as
        // a claim it keeps one, walk-through of stop 42).
        if !c.engine.durable() {
            return Some(NotPromised::NotDurable);
        }
        if self == Invariant::ReplayNeverReruns {
            // Every engine reads a journaled step's result back, whatever its key.
            return None;
        }
        match c.key {
            KeyMode::None => return Some(NotPromised::NoKey),
            KeyMode::Random => return Some(NotPromised::RandomKey),
            KeyMode::Derived => {}
        }
        match self {
            Invariant::ReplayNeverReruns | Invariant::RefundPerCharge => None,
            Invariant::OneChargePerOrder => {
                may_run_again(c, actions).then_some(NotPromised::NewRun)
            }
            Invariant::EndedKeptOrCompensated => ended_undone(c, actions),
        }
    }

    /// Whether the column with settings `c`, under the learner's `actions`, promises this
    /// invariant: where it does not, the page shows "not promised here" rather than ✓ or ✕.
    pub fn promised(self, c: &Config, actions: &[(usize, Action)]) -> bool {
        self.not_promised(c, actions).is_none()
    }
}

/// Whether the client starts the workflow id more than once: at its scheduled time, or by the
/// learner's hand.
fn starts_again(c: &Config, actions: &[(usize, Action)]) -> bool {
    c.start_again_at_ms.is_some() || actions.iter().any(|(_, a)| *a == Action::StartAgain)
}

/// Whether a later start of Temporal's may find the request id the first call carried: then the
/// engine answers it with that run, before it reads either policy (`World::start`).
fn temporal_reads_policies(c: &Config) -> bool {
    c.policy_error().is_none() && c.request_id == RequestId::New
}

/// Whether these settings let a later start begin a second run of the workflow id (what
/// `World::start` does, withheld whenever timing could decide it).
fn may_run_again(c: &Config, actions: &[(usize, Action)]) -> bool {
    if !starts_again(c, actions) {
        return false;
    }
    match c.engine {
        // A closed run's id may start again unless RejectDuplicate (AllowDuplicateFailedOnly
        // does after a failed run); an open one is replaced under TerminateExisting.
        Engine::Temporal => {
            temporal_reads_policies(c)
                && (c.reuse != ReusePolicy::RejectDuplicate
                    || c.conflict == ConflictPolicy::TerminateExisting)
        }
        // Only once the ended invocation's retention has passed, which needs a start at least
        // 24 h after the run ended. Only the scheduled start comes that late: every other event
        // is due at most `RETRY_MAX_MS` after the one that scheduled it, and
        // `MAX_DURABLE_STEPS` of them stay well short of a day.
        Engine::Restate => c
            .start_again_at_ms
            .is_some_and(|t| t >= RESTATE_RETENTION_MS),
        // The workflow id is the idempotency key.
        Engine::Dbos => false,
        // It runs the function again on every start.
        Engine::Plain => true,
    }
}

/// Why an ended run may leave a done step neither kept nor compensated under these settings.
fn ended_undone(c: &Config, actions: &[(usize, Action)]) -> Option<NotPromised> {
    let permanent = |s: StepName| c.fault_on(s) == Some(FaultKind::FailPermanent);
    if c.engine == Engine::Temporal
        && c.conflict == ConflictPolicy::TerminateExisting
        && temporal_reads_policies(c)
        && starts_again(c, actions)
    {
        return Some(NotPromised::Terminated);
    }
    match c.flow {
        // The saga undoes what it did, unless a compensation itself fails for good; and the
        // booking carries no key, so a re-run of it books again.
        FlowKind::Trip => {
            if permanent(StepName::CancelFlight) || permanent(StepName::Refund) {
                Some(NotPromised::CompensationFails)
            } else if matches!(
                c.fault_on(StepName::BookFlight),
                Some(FaultKind::CrashAfterEffect | FaultKind::ReplyLost)
            ) || actions.iter().any(|(_, a)| *a == Action::Crash)
            {
                Some(NotPromised::BookingTwice)
            } else {
                None
            }
        }
        // The order has no compensation: nothing may fail for good after the charge.
        FlowKind::Order => {
            if [
                StepName::Clock,
                StepName::ShipExpress,
                StepName::ShipStandard,
                StepName::Receipt,
            ]
            .into_iter()
            .any(permanent)
            {
                Some(NotPromised::FailsAfterCharge)
            } else if c.engine == Engine::Dbos && c.clock == ClockMode::Direct {
                Some(NotPromised::ReplayFails)
            } else {
                None
            }
        }
    }
}
