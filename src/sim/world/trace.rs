//! The trace: one entry per thing that happened, carrying data, never display text. The UI draws
//! each event as a mark on a lane or an arrow between two lanes and localizes it from the enum.

use super::intern::{KeyId, OpId};
use crate::sim::article::production::RecordState;
use crate::sim::article::PaymentResult;

/// A swim lane of the sequence diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lane {
    /// The clients (and the learner's own actions).
    Client,
    /// The network between clients and server.
    Network,
    /// The payment server.
    Server,
    /// The database: balance, ledger, idempotency records, outbox.
    Store,
    /// The outbox relay.
    Relay,
    /// The downstream event consumer.
    Consumer,
    /// The card processor the server calls (when it has a latency of its own).
    Processor,
}

impl Lane {
    /// Every lane, in column order.
    pub const ALL: [Lane; 7] = [
        Lane::Client,
        Lane::Network,
        Lane::Server,
        Lane::Store,
        Lane::Relay,
        Lane::Consumer,
        Lane::Processor,
    ];
}

/// A set of lanes: the lanes a trace has events on, so a diagram draws only those.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LaneSet(u8);

impl LaneSet {
    /// The set with `lane` added.
    pub fn with(self, lane: Lane) -> LaneSet {
        LaneSet(self.0 | 1 << (lane as u8))
    }

    /// The set with both lanes of `kind` added.
    pub fn with_event(self, kind: &EventKind) -> LaneSet {
        let (from, to) = kind.lanes();
        let set = self.with(from);
        to.map_or(set, |to| set.with(to))
    }

    /// Whether `lane` is in the set.
    pub fn contains(self, lane: Lane) -> bool {
        self.0 & (1 << (lane as u8)) != 0
    }
}

/// What a key lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckOutcome {
    /// A stored result: replay it.
    Hit,
    /// No record: execute.
    Miss,
    /// A request with the key is in flight: 409.
    Conflict,
    /// Same key, different parameters.
    Mismatch,
    /// Same key, "different" parameters, yet a retry of the very operation that stored the
    /// key: the fingerprint took in a field that changes between tries, and an honest retry is
    /// refused as if it were a client bug.
    RetryMismatch,
    /// The record had expired: execute again.
    Expired,
    /// The record was still in flight past its timeout (its holder crashed or is slow): this
    /// request takes the key over and executes, as Stripe and rocket-rides recover.
    LockExpired,
}

/// Where in the request a server crash happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrashPoint {
    /// Before the balance is touched.
    BeforeCharge,
    /// After the charge, before the idempotency record is written.
    AfterChargeBeforeRecord,
    /// After everything committed, before the reply leaves.
    AfterCommitBeforeReply,
    /// A request answered without a charge (a replay, a 409, a refusal) whose try was to crash:
    /// it dies before that answer leaves, since it never reaches the point its fault names.
    BeforeReply,
}

/// Why a charge did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeFailure {
    /// The balance was below the amount.
    InsufficientFunds {
        /// Balance at the check.
        balance: i64,
    },
    /// The upstream processor failed (transient).
    ProcessorError,
}

/// One thing that happened, with its data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventKind {
    /// A client sent an attempt of an operation.
    ClientSend {
        /// Operation.
        op: OpId,
        /// Attempt number, from 1.
        attempt: u32,
        /// Key sent.
        key: KeyId,
        /// Amount asked.
        amount: i64,
    },
    /// The network dropped the request.
    RequestLost {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
    },
    /// The request reached the server.
    RequestDelivered {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
        /// Key carried.
        key: KeyId,
    },
    /// The server looked the key up.
    StoreCheck {
        /// Operation.
        op: OpId,
        /// Key.
        key: KeyId,
        /// What it found.
        outcome: CheckOutcome,
    },
    /// The balance was debited (inside a transaction until `Commit`).
    Charge {
        /// Operation.
        op: OpId,
        /// Amount debited.
        amount: i64,
        /// Balance after the debit.
        balance_after: i64,
    },
    /// The charge was refused.
    ChargeFailed {
        /// Operation.
        op: OpId,
        /// Why.
        failure: ChargeFailure,
    },
    /// An idempotency record was written.
    StoreWrite {
        /// Operation.
        op: OpId,
        /// Key.
        key: KeyId,
        /// State written.
        state: RecordState,
    },
    /// An idempotency record was deleted so the key can run again (result not cached).
    StoreRelease {
        /// Operation.
        op: OpId,
        /// Key.
        key: KeyId,
    },
    /// An outbox row was written in the charge's transaction.
    OutboxWrite {
        /// Operation.
        op: OpId,
        /// Event id.
        id: u64,
    },
    /// The transaction committed.
    Commit {
        /// Operation.
        op: OpId,
    },
    /// The transaction rolled back (crash before commit).
    Rollback {
        /// Operation.
        op: OpId,
    },
    /// The worker handling the request crashed; no reply.
    ServerCrash {
        /// Operation.
        op: OpId,
        /// Where.
        point: CrashPoint,
    },
    /// Dual write: the server published an event directly, outside the transaction.
    EventPublish {
        /// Operation.
        op: OpId,
        /// Event id.
        id: u64,
    },
    /// The server sent its reply.
    ResponseSent {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
        /// Key of the request.
        key: KeyId,
        /// The reply.
        result: PaymentResult,
        /// True when the reply is a stored result returned again, not the request executed
        /// (Stripe marks such a reply `Idempotent-Replayed: true`).
        replayed: bool,
    },
    /// The network dropped the reply.
    ResponseLost {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
    },
    /// The reply reached the client.
    ResponseDelivered {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
        /// The reply.
        result: PaymentResult,
        /// True if the client had already timed out and ignores it.
        late: bool,
        /// True when the server replayed a stored result (see `ResponseSent`).
        replayed: bool,
    },
    /// The client stopped waiting.
    ClientTimeout {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
    },
    /// The client will retry at `at_ms`.
    ClientRetryScheduled {
        /// Operation.
        op: OpId,
        /// The attempt number to come.
        attempt: u32,
        /// When.
        at_ms: u64,
    },
    /// The client ran out of attempts without an answer.
    ClientGaveUp {
        /// Operation.
        op: OpId,
        /// Attempts made.
        attempts: u32,
    },
    /// The relay read the outbox.
    RelayPoll {
        /// Unpublished rows found.
        unpublished: u32,
    },
    /// A relay tick arrived while the previous one was still running; it is skipped.
    RelayBusy,
    /// The relay published an outbox row.
    RelayPublish {
        /// Event id.
        id: u64,
        /// How many times this row has been published, this one included.
        delivery: u32,
    },
    /// The relay crashed after publishing, before marking: the rows stay unpublished.
    RelayCrash,
    /// The relay marked a row published.
    RelayMark {
        /// Event id.
        id: u64,
    },
    /// The consumer applied an event for the first time.
    ConsumerApply {
        /// Event id.
        id: u64,
    },
    /// The consumer received an event it had seen before.
    ConsumerDuplicate {
        /// Event id.
        id: u64,
        /// True if it applied it again (no inbox).
        applied: bool,
    },
    /// Simulated time jumped forward.
    TimeAdvanced {
        /// The new time.
        to_ms: u64,
    },
    /// Money was deposited.
    Deposit {
        /// Amount.
        amount: i64,
        /// False if refused (the balance limit).
        accepted: bool,
    },
    /// A record passed its retention (or a crashed in-flight record its timeout).
    KeyExpired {
        /// Key.
        key: KeyId,
    },
    /// A fork changed what happens to an attempt (`Input::SetFault`).
    FaultChanged {
        /// Operation.
        op: OpId,
        /// Attempt number.
        attempt: u32,
        /// The input that changed it, numbered as `World::input_at` numbers them (its fault).
        input: usize,
    },
    /// A fork crashed the server process (`Input::Crash`); it restarted at once.
    ServerRestarted {
        /// Requests that died between two of their phases.
        killed: u32,
    },
    /// The server called the card processor.
    ProcessorCall {
        /// Operation.
        op: OpId,
        /// Whether the call carries the request's idempotency key.
        key_passed: bool,
    },
    /// The card processor moved the money (outside the server's transaction: no rollback).
    ProcessorCharge {
        /// Operation.
        op: OpId,
        /// Amount charged.
        amount: i64,
        /// Balance after the charge.
        balance_after: i64,
    },
    /// The card processor knew the passed key and replayed its first answer: no money moved.
    ProcessorReplay {
        /// Operation.
        op: OpId,
    },
    /// The card processor's answer reached the server.
    ProcessorReply {
        /// Operation.
        op: OpId,
        /// What the processor answered.
        result: PaymentResult,
    },
    /// rocket-rides' recovery point: the processor's answer committed under the key.
    RecoveryPoint {
        /// Operation.
        op: OpId,
        /// Key.
        key: KeyId,
    },
    /// A request that took over an expired lock resumed from the key's recovery point instead
    /// of calling the processor again.
    Resumed {
        /// Operation.
        op: OpId,
        /// Key.
        key: KeyId,
    },
    /// The key store, full, evicted a key before its time (memory pressure).
    KeyEvicted {
        /// Key.
        key: KeyId,
    },
    /// The key store could not be reached.
    StoreUnreachable {
        /// Operation.
        op: OpId,
        /// Whether the service goes on without the check (fail open) or refuses (fail closed).
        fail_open: bool,
    },
    /// The database aborted the transaction: serialization failure (SQLSTATE 40001).
    SerializationAbort {
        /// Operation.
        op: OpId,
    },
}

impl EventKind {
    /// The lanes of the event: from, and to when it is an arrow.
    pub fn lanes(&self) -> (Lane, Option<Lane>) {
        use EventKind as E;
        use Lane as L;
        match self {
            E::ClientSend { .. } => (L::Client, Some(L::Network)),
            E::RequestLost { .. } | E::RequestDelivered { .. } => (L::Network, Some(L::Server)),
            E::StoreCheck { .. }
            | E::Charge { .. }
            | E::StoreWrite { .. }
            | E::StoreRelease { .. }
            | E::OutboxWrite { .. }
            | E::Commit { .. }
            | E::Rollback { .. }
            | E::Deposit { .. } => (L::Server, Some(L::Store)),
            E::ChargeFailed { .. } | E::ServerCrash { .. } => (L::Server, None),
            E::EventPublish { .. } => (L::Server, Some(L::Consumer)),
            E::ResponseSent { .. } => (L::Server, Some(L::Network)),
            E::ResponseLost { .. } | E::ResponseDelivered { .. } => (L::Network, Some(L::Client)),
            E::ClientTimeout { .. }
            | E::ClientRetryScheduled { .. }
            | E::ClientGaveUp { .. }
            | E::TimeAdvanced { .. }
            | E::FaultChanged { .. } => (L::Client, None),
            E::ServerRestarted { .. } => (L::Server, None),
            E::RelayPoll { .. } | E::RelayMark { .. } => (L::Relay, Some(L::Store)),
            E::RelayPublish { .. } => (L::Relay, Some(L::Consumer)),
            E::RelayBusy | E::RelayCrash => (L::Relay, None),
            E::ConsumerApply { .. } | E::ConsumerDuplicate { .. } => (L::Consumer, None),
            E::KeyExpired { .. } | E::KeyEvicted { .. } => (L::Store, None),
            E::ProcessorCall { .. } => (L::Server, Some(L::Processor)),
            E::ProcessorCharge { .. } | E::ProcessorReplay { .. } => (L::Processor, None),
            E::ProcessorReply { .. } => (L::Processor, Some(L::Server)),
            E::RecoveryPoint { .. }
            | E::Resumed { .. }
            | E::StoreUnreachable { .. }
            | E::SerializationAbort { .. } => (L::Server, Some(L::Store)),
        }
    }

    /// True for arrows that stop short: the message was lost on the way.
    pub fn is_lost(&self) -> bool {
        matches!(self, Self::RequestLost { .. } | Self::ResponseLost { .. })
    }

    /// The client operation the event belongs to, if any (for colouring).
    pub fn op(&self) -> Option<OpId> {
        use EventKind as E;
        match self {
            E::ClientSend { op, .. }
            | E::RequestLost { op, .. }
            | E::RequestDelivered { op, .. }
            | E::StoreCheck { op, .. }
            | E::Charge { op, .. }
            | E::ChargeFailed { op, .. }
            | E::StoreWrite { op, .. }
            | E::StoreRelease { op, .. }
            | E::OutboxWrite { op, .. }
            | E::Commit { op }
            | E::Rollback { op }
            | E::ServerCrash { op, .. }
            | E::EventPublish { op, .. }
            | E::ResponseSent { op, .. }
            | E::ResponseLost { op, .. }
            | E::ResponseDelivered { op, .. }
            | E::ClientTimeout { op, .. }
            | E::ClientRetryScheduled { op, .. }
            | E::ClientGaveUp { op, .. }
            | E::FaultChanged { op, .. }
            | E::ProcessorCall { op, .. }
            | E::ProcessorCharge { op, .. }
            | E::ProcessorReplay { op }
            | E::ProcessorReply { op, .. }
            | E::RecoveryPoint { op, .. }
            | E::Resumed { op, .. }
            | E::StoreUnreachable { op, .. }
            | E::SerializationAbort { op } => Some(*op),
            _ => None,
        }
    }
}

/// One trace entry. Several entries may share a step: a step is one micro-event (one phase of a
/// request, one message arrival, ...), and a phase may read, charge, write and commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceEvent {
    /// The step (from 1) that produced the event.
    pub step: usize,
    /// Simulated time in ms.
    pub time_ms: u64,
    /// What happened.
    pub kind: EventKind,
}

impl TraceEvent {
    /// The lanes of the event: from, and to when it is an arrow.
    pub fn lanes(&self) -> (Lane, Option<Lane>) {
        self.kind.lanes()
    }

    /// True for arrows that stop short.
    pub fn is_lost(&self) -> bool {
        self.kind.is_lost()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lost_arrows_stop_short() {
        let lost = EventKind::RequestLost {
            op: OpId(0),
            attempt: 1,
        };
        assert!(lost.is_lost());
        assert_eq!(lost.lanes(), (Lane::Network, Some(Lane::Server)));
        let sent = EventKind::ClientSend {
            op: OpId(0),
            attempt: 1,
            key: KeyId(0),
            amount: 1,
        };
        assert!(!sent.is_lost());
        assert_eq!(sent.op(), Some(OpId(0)));
        assert_eq!(EventKind::RelayCrash.lanes(), (Lane::Relay, None));
        assert_eq!(EventKind::RelayCrash.op(), None);
    }
}
