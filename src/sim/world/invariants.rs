//! Invariants, checked after every step from that step's trace events and the database. Each is
//! reported once, at the step that first broke it. The checks are incremental (O(events of the
//! step)), so they can stay on in the benchmark.

use super::intern::{KeyId, OpId};
use super::outbox::EmitMode;
use super::store::{Db, LedgerEntry};
use super::trace::{CheckOutcome, EventKind, TraceEvent};
use crate::sim::article::PaymentResult;
use crate::sim::base::pmap::PMap;
use crate::sim::base::pvec::{self, PVec};
use crate::sim::limits::ACCOUNTS;

/// The properties a correct payment system keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Invariant {
    /// initial balance + deposits = balance + sum of the ledger.
    MoneyConserved,
    /// At most one charge per idempotency key.
    OneChargePerKey,
    /// At most one charge per logical operation: a client operation with all its attempts, and
    /// every request that carries the same key (the key names the operation). Catches naive
    /// retries, new-key-per-retry, and concurrent duplicates of one key.
    OneChargePerOperation,
    /// A replay returns the result the key first stored.
    ReplayIdentical,
    /// Exactly one event per committed charge: an outbox row, or (dual write) one published
    /// event, none lost and none for a charge that never committed.
    OneEventPerCharge,
    /// The consumer's effect happens at most once per event.
    ConsumerAtMostOnce,
    /// A client never receives an answer produced for another account (issue 13).
    OwnAccountAnswers,
    /// A replay answers only the request that stored it: same amount, same description
    /// (production service; issue 13).
    ReplayMatchesRequest,
}

impl Invariant {
    /// Every invariant, in report order.
    pub const ALL: [Invariant; 8] = [
        Invariant::MoneyConserved,
        Invariant::OneChargePerKey,
        Invariant::OneChargePerOperation,
        Invariant::ReplayIdentical,
        Invariant::OneEventPerCharge,
        Invariant::ConsumerAtMostOnce,
        Invariant::OwnAccountAnswers,
        Invariant::ReplayMatchesRequest,
    ];

    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// What exactly broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ViolationDetail {
    /// The books do not balance.
    Money {
        /// initial + deposits - ledger.
        expected: i64,
        /// The balance found.
        actual: i64,
    },
    /// A key was charged more than once.
    KeyCharged {
        /// The key.
        key: KeyId,
        /// The operation whose charge was one too many.
        op: OpId,
        /// Charges so far.
        charges: u32,
    },
    /// An operation was charged more than once.
    OperationCharged {
        /// The operation.
        op: OpId,
        /// Charges so far.
        charges: u32,
    },
    /// Two client operations carry one key, so they are one logical operation, and both charged.
    KeySharedCharged {
        /// The key.
        key: KeyId,
        /// The operation that charged with the key first.
        first: OpId,
        /// The operation whose charge was one too many.
        op: OpId,
        /// Charges with the key so far.
        charges: u32,
    },
    /// A replay differs from the first stored result.
    ReplayDiffers {
        /// The key.
        key: KeyId,
        /// The operation that got the differing replay.
        op: OpId,
        /// Its attempt.
        attempt: u32,
        /// What was stored first.
        first: PaymentResult,
        /// What the replay returned.
        replayed: PaymentResult,
    },
    /// Outbox rows and committed charges differ in number.
    OutboxMismatch {
        /// Committed charges.
        charges: usize,
        /// Outbox rows.
        rows: usize,
    },
    /// Dual write: a committed charge whose event was never published.
    EventLost {
        /// The event id.
        id: u64,
    },
    /// Dual write: an event published for a charge that never committed.
    PhantomEvent {
        /// The event id.
        id: u64,
    },
    /// The consumer applied one event more than once.
    AppliedTwice {
        /// The event id.
        id: u64,
        /// Applications so far.
        applications: u32,
    },
    /// A client got the answer stored for another account's request.
    ForeignAnswer {
        /// The key (as the store holds it).
        key: KeyId,
        /// The operation that received it.
        op: OpId,
        /// The operation, of another account, whose answer it was.
        producer: OpId,
    },
    /// A request was answered with the replay of a different request (another amount or
    /// description) stored under its key.
    OtherRequestReplayed {
        /// The key.
        key: KeyId,
        /// The operation that received it.
        op: OpId,
        /// The operation whose answer it was.
        producer: OpId,
    },
}

/// A broken invariant and the step that broke it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The step.
    pub step: usize,
    /// Simulated time of the step.
    pub time_ms: u64,
    /// Which invariant.
    pub invariant: Invariant,
    /// The evidence.
    pub detail: ViolationDetail,
}

impl Violation {
    /// Whether trace event `e` is this violation's evidence: the charge one too many, the replay
    /// that differs (the server's check that found it, its reply, the client receiving it), the
    /// event published for nothing, the second application. A timeline marks these as the
    /// failure the badge names, whatever their usual tone (a replay is usually good news).
    pub fn is_evidence(&self, e: &TraceEvent) -> bool {
        let at_step = e.step == self.step;
        match (&self.detail, &e.kind) {
            (
                ViolationDetail::KeyCharged { op, .. }
                | ViolationDetail::OperationCharged { op, .. }
                | ViolationDetail::KeySharedCharged { op, .. },
                EventKind::Charge { op: charged, .. }
                | EventKind::ProcessorCharge { op: charged, .. },
            ) => at_step && op == charged,
            (
                ViolationDetail::ReplayDiffers { key, op, .. },
                EventKind::StoreCheck {
                    op: o,
                    key: k,
                    outcome: CheckOutcome::Hit,
                },
            ) => at_step && (o, k) == (op, key),
            (
                ViolationDetail::ReplayDiffers { op, attempt, .. },
                EventKind::ResponseSent {
                    op: o, attempt: a, ..
                }
                | EventKind::ResponseDelivered {
                    op: o, attempt: a, ..
                },
            ) => e.step >= self.step && (o, a) == (op, attempt),
            (
                ViolationDetail::ForeignAnswer { key, op, .. }
                | ViolationDetail::OtherRequestReplayed { key, op, .. },
                EventKind::StoreCheck {
                    op: o,
                    key: k,
                    outcome: CheckOutcome::Hit,
                },
            ) => at_step && (o, k) == (op, key),
            // The answer that went to the wrong account or request, on its way and received.
            (
                ViolationDetail::ForeignAnswer { op, .. }
                | ViolationDetail::OtherRequestReplayed { op, .. },
                EventKind::ResponseSent { op: o, .. } | EventKind::ResponseDelivered { op: o, .. },
            ) => e.step >= self.step && o == op,
            (ViolationDetail::PhantomEvent { id }, EventKind::EventPublish { id: i, .. }) => {
                id == i
            }
            (
                ViolationDetail::AppliedTwice { id, .. },
                EventKind::ConsumerApply { id: i } | EventKind::ConsumerDuplicate { id: i, .. },
            ) => at_step && id == i,
            _ => false,
        }
    }
}

/// Facts the server notes during a step for the checker (dual write: known at job end).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct StepFacts {
    pub(super) lost_events: Vec<u64>,
    pub(super) phantom_events: Vec<u64>,
    /// Replays this step sent to another account than the one whose request stored them:
    /// (key, the operation answered, the operation that stored it).
    pub(super) foreign_answers: Vec<(KeyId, OpId, OpId)>,
    /// Replays this step sent to a request whose amount or description differ from the one
    /// that stored them (production service): (key, answered, stored by).
    pub(super) other_request_replays: Vec<(KeyId, OpId, OpId)>,
}

/// The checker's running state; its tables grow with the run, so they are persistent too.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Checker {
    reported: u16,
    ledger_seen: usize,
    /// The ledger's charges summed per account.
    ledger_sums: [i64; ACCOUNTS],
    key_charges: PVec<u32>,
    /// The operation that first charged with each key, plus one (0: none yet).
    key_owner: PVec<u32>,
    op_charges: PVec<u32>,
    first_result: PVec<Option<PaymentResult>>,
    applications: PMap<u64, u32>,
}

fn bump(v: &mut PVec<u32>, ix: usize) -> u32 {
    if let Some(n) = v.get_mut(ix) {
        *n = n.saturating_add(1);
        return *n;
    }
    if v.len() < ix {
        v.resize(ix, 0);
    }
    v.push(1);
    1
}

/// What the checker needs to see of the world after a step.
pub(super) struct StepView<'a> {
    pub(super) step: usize,
    pub(super) time_ms: u64,
    pub(super) initial_balance: i64,
    pub(super) emit: EmitMode,
    pub(super) db: &'a Db,
    pub(super) events: pvec::Iter<'a, TraceEvent>,
    pub(super) facts: &'a StepFacts,
    /// The card processor's charges whose outbox row is on its way (`Server::events_owed`).
    pub(super) events_owed: usize,
}

impl Checker {
    fn report(
        &mut self,
        v: &StepView<'_>,
        invariant: Invariant,
        detail: ViolationDetail,
        out: &mut Vec<Violation>,
    ) {
        if self.reported & invariant.bit() == 0 {
            self.reported |= invariant.bit();
            out.push(Violation {
                step: v.step,
                time_ms: v.time_ms,
                invariant,
                detail,
            });
        }
    }

    /// Checks one step; appends new violations to `out`, in report order: the step's new
    /// charges, money, the step's trace events, answers to other requests, then emitted events.
    pub(super) fn check(&mut self, v: &StepView<'_>, out: &mut Vec<Violation>) {
        self.check_charges(v, out);
        self.check_money(v, out);
        for event in v.events.clone() {
            self.check_event(v, event, out);
        }
        self.check_answers(v, out);
        self.check_emitted(v, out);
    }

    /// The ledger's new entries: at most one charge per key and per logical operation.
    fn check_charges(&mut self, v: &StepView<'_>, out: &mut Vec<Violation>) {
        let ledger = &v.db.ledger;
        for entry in ledger.iter_from(self.ledger_seen) {
            self.check_charge(v, entry, out);
        }
        self.ledger_seen = ledger.len();
    }

    /// One new ledger entry: counts it per account, key and operation.
    fn check_charge(&mut self, v: &StepView<'_>, entry: &LedgerEntry, out: &mut Vec<Violation>) {
        if let Some(sum) = self.ledger_sums.get_mut(entry.account as usize) {
            *sum = sum.saturating_add(entry.amount);
        }
        let op = entry.op;
        // The key's charges and the operation that charged with it first.
        let shared = entry.key.map(|key| self.count_key_charge(key, op));
        if let Some((key, charges, _)) = shared.filter(|s| s.1 > 1) {
            self.report(
                v,
                Invariant::OneChargePerKey,
                ViolationDetail::KeyCharged { key, op, charges },
                out,
            );
        }
        // One logical operation is a client operation and every request with its key: a
        // second charge of either breaks it.
        let charges = bump(&mut self.op_charges, op.0 as usize);
        let detail = match shared {
            _ if charges > 1 => Some(ViolationDetail::OperationCharged { op, charges }),
            Some((key, charges, first)) if charges > 1 && first != op => {
                Some(ViolationDetail::KeySharedCharged {
                    key,
                    first,
                    op,
                    charges,
                })
            }
            _ => None,
        };
        if let Some(detail) = detail {
            self.report(v, Invariant::OneChargePerOperation, detail, out);
        }
    }

    /// Counts a charge with `key` by `op`: (key, the key's charges so far, the operation that
    /// charged with it first).
    fn count_key_charge(&mut self, key: KeyId, op: OpId) -> (KeyId, u32, OpId) {
        let charges = bump(&mut self.key_charges, key.0 as usize);
        let ix = key.0 as usize;
        if self.key_owner.len() <= ix {
            self.key_owner.resize(ix + 1, 0);
        }
        if self.key_owner[ix] == 0 {
            self.key_owner[ix] = op.0.saturating_add(1);
        }
        (key, charges, OpId(self.key_owner[ix] - 1))
    }

    /// Money is conserved: computed from the ledger entries, independently of how the server
    /// moved the balance: each account's own (the first account found wrong is reported).
    /// Deposits go to account 0.
    fn check_money(&mut self, v: &StepView<'_>, out: &mut Vec<Violation>) {
        let mut accounts = v.db.balances.iter().zip(&self.ledger_sums).enumerate();
        let wrong = accounts.find_map(|(a, (&actual, &charged))| {
            let deposits = if a == 0 { v.db.deposits } else { 0 };
            let expected = v
                .initial_balance
                .saturating_add(deposits)
                .saturating_sub(charged);
            (expected != actual).then_some((expected, actual))
        });
        if let Some((expected, actual)) = wrong {
            self.report(
                v,
                Invariant::MoneyConserved,
                ViolationDetail::Money { expected, actual },
                out,
            );
        }
    }

    /// One trace event of the step: keys' first results, replays, and the consumer.
    fn check_event(&mut self, v: &StepView<'_>, event: &TraceEvent, out: &mut Vec<Violation>) {
        match &event.kind {
            EventKind::StoreWrite { key, state, .. }
                if *state == crate::sim::article::production::RecordState::Completed =>
            {
                self.note_first_result(v, *key);
            }
            EventKind::StoreCheck {
                key,
                outcome: CheckOutcome::Expired | CheckOutcome::LockExpired,
                ..
            }
            | EventKind::KeyExpired { key } => {
                // An expired key starts a new life: its next result is a new "first".
                if let Some(slot) = self.first_result.get_mut(key.0 as usize) {
                    *slot = None;
                }
            }
            EventKind::ResponseSent {
                op,
                attempt,
                key,
                result: PaymentResult::DuplicateRequest { original_result },
                ..
            } => self.check_replay(v, (*key, *op, *attempt), original_result, out),
            EventKind::ConsumerApply { id }
            | EventKind::ConsumerDuplicate { id, applied: true } => {
                self.check_application(v, *id, out);
            }
            _ => {}
        }
    }

    /// A completed write: the key's first result, unless it already has one.
    fn note_first_result(&mut self, v: &StepView<'_>, key: KeyId) {
        let ix = key.0 as usize;
        if self.first_result.len() <= ix {
            self.first_result.resize(ix + 1, None);
        }
        if self.first_result[ix].is_none() {
            self.first_result[ix] = v.db.row(key).and_then(|r| r.result.clone());
        }
    }

    /// A replay sent to (key, op, attempt) must equal the key's first result.
    fn check_replay(
        &mut self,
        v: &StepView<'_>,
        (key, op, attempt): (KeyId, OpId, u32),
        original_result: &PaymentResult,
        out: &mut Vec<Violation>,
    ) {
        let first = self
            .first_result
            .get(key.0 as usize)
            .and_then(|f| f.as_ref());
        if let Some(first) = first {
            if *original_result != *first {
                let detail = ViolationDetail::ReplayDiffers {
                    key,
                    op,
                    attempt,
                    first: first.clone(),
                    replayed: original_result.clone(),
                };
                self.report(v, Invariant::ReplayIdentical, detail, out);
            }
        }
    }

    /// The consumer applied event `id`: at most once.
    fn check_application(&mut self, v: &StepView<'_>, id: u64, out: &mut Vec<Violation>) {
        let applications = self
            .applications
            .get(&id)
            .map_or(1, |n| n.saturating_add(1));
        self.applications.insert(id, applications);
        if applications > 1 {
            let detail = ViolationDetail::AppliedTwice { id, applications };
            self.report(v, Invariant::ConsumerAtMostOnce, detail, out);
        }
    }

    /// Replays answered to another account, or to another request, noted by the server.
    fn check_answers(&mut self, v: &StepView<'_>, out: &mut Vec<Violation>) {
        if let Some(&(key, op, producer)) = v.facts.foreign_answers.first() {
            let detail = ViolationDetail::ForeignAnswer { key, op, producer };
            self.report(v, Invariant::OwnAccountAnswers, detail, out);
        }
        if let Some(&(key, op, producer)) = v.facts.other_request_replays.first() {
            let detail = ViolationDetail::OtherRequestReplayed { key, op, producer };
            self.report(v, Invariant::ReplayMatchesRequest, detail, out);
        }
    }

    /// One event per charge: by outbox rows, or (dual write) none lost and none phantom.
    fn check_emitted(&mut self, v: &StepView<'_>, out: &mut Vec<Violation>) {
        match v.emit {
            EmitMode::None => {}
            EmitMode::Outbox => {
                let (charges, rows) = (v.db.ledger.len(), v.db.outbox().len());
                if charges != rows.saturating_add(v.events_owed) {
                    self.report(
                        v,
                        Invariant::OneEventPerCharge,
                        ViolationDetail::OutboxMismatch { charges, rows },
                        out,
                    );
                }
            }
            EmitMode::DualWriteCommitThenPublish | EmitMode::DualWritePublishThenCommit => {
                if let Some(&id) = v.facts.lost_events.first() {
                    self.report(
                        v,
                        Invariant::OneEventPerCharge,
                        ViolationDetail::EventLost { id },
                        out,
                    );
                }
                if let Some(&id) = v.facts.phantom_events.first() {
                    self.report(
                        v,
                        Invariant::OneEventPerCharge,
                        ViolationDetail::PhantomEvent { id },
                        out,
                    );
                }
            }
        }
    }
}
