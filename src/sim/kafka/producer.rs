//! One producer instance, as Kafka's client runs it: its producer id and epoch, its batches (one
//! record each), the queue of batches waiting to be sent, the requests in flight on its one
//! connection, and how it reacts to the broker's answers, a broken connection and a batch whose
//! delivery timeout passes. It sends nothing itself: [`Instance::prepare`] and
//! [`Instance::next_to_send`] say which batch may go now, and the engine puts it on the wire.
//!
//! Translated from apache/kafka's client at commit 1eb76443 (clients/src/main/java/org/apache/
//! kafka/clients/producer/internals/: `Sender`, `TransactionManager`, `TxnPartitionEntry`,
//! `RecordAccumulator`); each rule names the method it follows:
//! - **Sequences are assigned when a batch is first drained** (`RecordAccumulator.drain`), and
//!   kept by its retries.
//! - **In flight** (`NetworkClient`, `max.in.flight.requests.per.connection`): at most that many
//!   requests unanswered on the connection. Answers come back in request order; a request
//!   timeout closes the connection and fails every request on it with `NETWORK_EXCEPTION`.
//! - **Retries go in sequence order, one at a time** (`shouldStopDrainBatchesForPartition`: a
//!   retried batch is drained only when it is the first in-flight sequence, "This effectively
//!   reduces our in flight request count to 1").
//! - **`Sender.canRetry`**: not past the delivery timeout, fewer than `retries` retries so far,
//!   and `TransactionManager.canRetry`: `OUT_OF_ORDER_SEQUENCE_NUMBER` for a batch that is not the
//!   next after the last acknowledged one is retried as it is; for the next one (a real gap), the
//!   idempotent producer requests an epoch bump and retries ("retry all
//!   OUT_OF_ORDER_SEQUENCE_NUMBER errors"). A network error and `NOT_ENOUGH_REPLICAS` are
//!   retriable; `INVALID_PRODUCER_EPOCH` is not; `PRODUCER_FENCED` is fatal.
//! - **A batch that runs out of retries** fails to the application without touching the
//!   sequences (`failBatch(batch, response, batch.attempts() < this.retries)`: "if it did, we
//!   don't know whether the sequence number was accepted or not"); one that fails for another
//!   reason with retries left requests an epoch bump (`handleFailedBatch`), and so does one that
//!   fails with `OUT_OF_ORDER_SEQUENCE_NUMBER`.
//! - **A batch whose delivery timeout passes** fails with a timeout, in flight or not
//!   (`Sender.getExpiredInflightBatches`); if it was being retried its sequence becomes
//!   *unresolved* (`markSequenceUnresolved`): no new batch is drained until nothing is in flight
//!   (`maybeResolveSequences`); then, if the last acknowledged sequence is the one before the
//!   next, the later batches succeeded and nothing changes, otherwise the epoch is bumped.
//! - **An epoch bump** (`bumpIdempotentProducerEpoch`, `startSequencesAtBeginning`) gives every
//!   unfinished batch that has a sequence a new one from 0 in the new epoch, including a batch
//!   whose request is still on the wire: its answer still completes it.
//! - **A transactional producer never bumps by itself** (`TransactionManager.canRetry` retries
//!   a real sequence gap only for the idempotent producer; `handleFailedBatch` makes the
//!   transaction abortable, and the abort's `InitProducerId` asks the coordinator once nothing
//!   is in flight): here it bumps where the idempotent one would, through the coordinator,
//!   which fences a stale epoch (see [`Instance::prepare_with`]).

use std::collections::VecDeque;

use super::broker::Verdict;
use super::{Config, Epoch, EventId, Pid, Seq};

/// Where an instance is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InstanceState {
    /// Sending.
    Running,
    /// Stopped (crashed or paused): answers to it are lost, its timers wait.
    Crashed,
    /// Woken up after a newer instance started: a zombie, running.
    Zombie,
    /// Told it is fenced: stopped for good.
    Fenced,
}

/// Why a batch failed to the application.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailReason {
    /// Its last retry got no answer (the connection timed out) and `retries` are spent.
    RetriesExhausted,
    /// `OUT_OF_ORDER_SEQUENCE_NUMBER` with `retries` spent.
    OutOfOrder,
    /// `NOT_ENOUGH_REPLICAS` with `retries` spent.
    NotEnoughReplicas,
    /// `INVALID_PRODUCER_EPOCH`: a newer epoch of this producer id has written (not retriable).
    InvalidEpoch,
    /// Its delivery timeout (`delivery.timeout.ms`) passed.
    Expired,
    /// The instance was fenced.
    Fenced,
}

/// A batch's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchStatus {
    /// Waiting to be sent (first time or again).
    Queued,
    /// Sent; waiting for the answer to attempt `attempts`.
    InFlight,
    /// Acknowledged at this offset.
    Acked(u32),
    /// Given up.
    Failed(FailReason),
}

/// One batch: one record of one event, from one `send()` call of the application.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The event it carries.
    pub event: EventId,
    /// Its sequence, with idempotence, once first drained (rewritten by an epoch bump).
    pub seq: Option<Seq>,
    /// The epoch its sequence belongs to.
    pub epoch: Epoch,
    /// How many times it was sent.
    pub attempts: u8,
    /// Its state.
    pub status: BatchStatus,
    /// When the current attempt was sent.
    pub sent_at: u64,
    /// When the application handed it to the producer (its delivery timeout counts from here).
    pub created_at: u64,
    /// Its sequence was rewritten by an epoch bump (`sequenceHasBeenReset`).
    pub reset: bool,
}

impl Batch {
    fn open(&self) -> bool {
        matches!(self.status, BatchStatus::Queued | BatchStatus::InFlight)
    }
    /// In the transaction manager's in-flight set: unfinished with a sequence assigned.
    fn sequenced(&self) -> bool {
        self.open() && self.seq.is_some()
    }
}

/// What the broker (or the network) answered to one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The broker's verdict.
    Broker(Verdict),
    /// The connection closed before the answer came (`NETWORK_EXCEPTION`): a request timeout.
    Disconnected,
}

/// What an instance did with an answer or a timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    /// The batch is acknowledged at this offset.
    Acked(u32),
    /// It will be sent again (attempt number of the next send).
    Retry(u8),
    /// It will be sent again, and the epoch is bumped first (attempt number of the next send).
    RetryNewEpoch(u8),
    /// It failed to the application.
    Failed(FailReason),
    /// The instance is fenced and stops; its open batches fail.
    Stopped,
    /// The batch is already finished (its delivery timeout passed), or the instance is down:
    /// ignored.
    Ignored,
}

/// A request on the instance's connection, unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Its id (unique within the instance).
    pub id: u32,
    /// The batch it carries.
    pub batch: usize,
    /// The batch's attempt it is.
    pub attempt: u8,
    /// The epoch and sequence it was sent with (the batch's may be rewritten since).
    pub epoch: Epoch,
    /// Sequence on the wire.
    pub seq: Option<Seq>,
    /// When it was sent.
    pub sent_at: u64,
}

/// One producer instance (a relay process's producer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Producer id (with idempotence).
    pub pid: Option<Pid>,
    /// Epoch.
    pub epoch: Epoch,
    /// State.
    pub state: InstanceState,
    /// Every batch it made, by index.
    pub batches: Vec<Batch>,
    /// Batches waiting to be sent, in send order (retries first, in sequence order).
    pub queue: VecDeque<usize>,
    /// Requests unanswered on the current connection, oldest first.
    pub in_flight: VecDeque<Request>,
    /// The connection's number: a timeout closes it and the next request opens another.
    pub connection: u32,
    next_seq: Seq,
    last_acked: Option<Seq>,
    /// `partitionsWithUnresolvedSequences`: the sequence after an expired batch that was
    /// being retried.
    unresolved: Option<Seq>,
    bump_required: bool,
    next_request: u32,
}

impl Instance {
    /// A new instance with this producer id and epoch (`pid` `None` without idempotence).
    pub fn new(pid: Option<Pid>, epoch: Epoch) -> Self {
        Instance {
            pid,
            epoch,
            state: InstanceState::Running,
            batches: Vec::new(),
            queue: VecDeque::new(),
            in_flight: VecDeque::new(),
            connection: 0,
            next_seq: 0,
            last_acked: None,
            unresolved: None,
            bump_required: false,
            next_request: 0,
        }
    }

    /// Whether it sends and hears answers.
    pub fn live(&self) -> bool {
        matches!(self.state, InstanceState::Running | InstanceState::Zombie)
    }

    /// `TransactionManager.sequenceNumber`: the sequence the next new batch gets.
    pub fn sequence_number(&self) -> Seq {
        self.next_seq
    }

    /// `lastAckedSequence`.
    pub fn last_acked_sequence(&self) -> Option<Seq> {
        self.last_acked
    }

    /// `firstInFlightSequence`: the smallest sequence of an unfinished batch.
    pub fn first_in_flight_sequence(&self) -> Option<Seq> {
        self.batches
            .iter()
            .filter(|b| b.sequenced())
            .filter_map(|b| b.seq)
            .min()
    }

    /// `hasUnresolvedSequence`.
    pub fn has_unresolved_sequence(&self) -> bool {
        self.unresolved.is_some()
    }

    /// `hasInflightBatches`: unfinished batches that have a sequence.
    pub fn has_inflight_batches(&self) -> bool {
        self.batches.iter().any(Batch::sequenced)
    }

    /// Queues a new batch for `event` (the application's `send()`), at `now`.
    pub fn enqueue(&mut self, event: EventId, now: u64) {
        self.batches.push(Batch {
            event,
            seq: None,
            epoch: self.epoch,
            attempts: 0,
            status: BatchStatus::Queued,
            sent_at: 0,
            created_at: now,
            reset: false,
        });
        self.queue.push_back(self.batches.len() - 1);
    }

    fn is_next_sequence(&self, seq: Seq) -> bool {
        seq == self.last_acked.map_or(0, |l| l + 1)
    }

    /// The start of `Sender.runOnce` for the idempotent producer: resolves an unresolved
    /// sequence once nothing is in flight (`maybeResolveSequences`), then bumps its own epoch if
    /// that was requested (`bumpIdempotentEpochAndResetIdIfNeeded`). True when it bumped.
    pub fn prepare(&mut self) -> bool {
        matches!(self.prepare_with(false, |_, e| Some(e)), Bump::To(_))
    }

    /// [`Instance::prepare`] for either producer. The idempotent producer bumps its own epoch.
    /// A transactional one cannot: in Kafka a failed batch makes its transaction abortable
    /// (`maybeTransitionToErrorState` sets `epochBumpRequired`), and the abort, sent once no
    /// batch is in flight (`nextRequest` holds `EndTxn` while batches are incomplete), ends with
    /// `InitProducerId` carrying its producer id and epoch (`TransactionManager.beginAbort`,
    /// KIP-360). Here, without transactions, it bumps when the idempotent producer would, but
    /// only once nothing is in flight, sending nothing meanwhile, and through `coordinator`,
    /// which answers that request: the new epoch, or `None` for `PRODUCER_FENCED` when a newer
    /// instance holds the transactional id (`TransactionCoordinator
    /// .prepareInitProducerIdTransit`); the instance is then fenced.
    pub fn prepare_with(
        &mut self,
        transactional: bool,
        coordinator: impl FnOnce(Option<Pid>, Epoch) -> Option<Epoch>,
    ) -> Bump {
        if !self.live() {
            return Bump::None;
        }
        if self.unresolved.is_some() && !self.has_inflight_batches() {
            if !self.is_next_sequence(self.next_seq) {
                // "all in flight batches were ultimately expired": bump.
                self.bump_required = true;
            }
            self.unresolved = None;
        }
        if !self.bump_required || (transactional && !self.in_flight.is_empty()) {
            return Bump::None;
        }
        self.bump_required = false;
        let epoch = if transactional {
            match coordinator(self.pid, self.epoch) {
                Some(e) => e,
                None => {
                    self.fence();
                    return Bump::Fenced;
                }
            }
        } else {
            // Past Short.MAX_VALUE Kafka asks for a new producer id; a run never gets near it.
            self.epoch.saturating_add(1)
        };
        self.epoch = epoch;
        let mut open: Vec<usize> = (0..self.batches.len())
            .filter(|&j| self.batches[j].sequenced())
            .collect();
        open.sort_by_key(|&j| self.batches[j].seq);
        for (n, &j) in open.iter().enumerate() {
            let b = &mut self.batches[j];
            b.seq = Some(n as Seq);
            b.epoch = self.epoch;
            b.reset = true;
        }
        self.next_seq = open.len() as Seq;
        self.last_acked = None;
        self.unresolved = None;
        Bump::To(epoch)
    }

    /// The batch that may be sent now, if any (it stays queued until [`Instance::sent`]).
    pub fn next_to_send(&self, config: &Config) -> Option<usize> {
        if !self.live() || self.in_flight.len() >= usize::from(config.max_in_flight) {
            return None;
        }
        // A transactional producer with an abortable error sends nothing until it has aborted
        // and bumped its epoch.
        if config.transactional_id && self.bump_required {
            return None;
        }
        let &head = self.queue.front()?;
        let b = &self.batches[head];
        if config.idempotence {
            // No new batch while an expired batch's fate is unknown.
            if b.seq.is_none() && self.unresolved.is_some() {
                return None;
            }
            // A retried batch goes only when it is the first in-flight sequence.
            if b.seq.is_some() && b.seq != self.first_in_flight_sequence() {
                return None;
            }
        }
        Some(head)
    }

    /// Sends batch `i` now (attempt `attempts + 1`), assigning its sequence on its first
    /// send; the request to put on the wire.
    pub fn sent(&mut self, i: usize, now: u64) -> Request {
        debug_assert!(self.live(), "a stopped instance sends nothing");
        debug_assert!(self.batches[i].open(), "only an unfinished batch is sent");
        self.queue.retain(|&q| q != i);
        if self.pid.is_some() && self.batches[i].seq.is_none() {
            self.batches[i].seq = Some(self.next_seq);
            self.batches[i].epoch = self.epoch;
            self.next_seq = self.next_seq.wrapping_add(1) & super::broker::SEQ_MASK;
        }
        let b = &mut self.batches[i];
        b.attempts += 1;
        b.status = BatchStatus::InFlight;
        b.sent_at = now;
        let req = Request {
            id: self.next_request,
            batch: i,
            attempt: b.attempts,
            epoch: b.epoch,
            seq: b.seq,
            sent_at: now,
        };
        self.next_request += 1;
        self.in_flight.push_back(req);
        req
    }

    /// Puts batch `i` back in the queue, before every batch with a later sequence or none
    /// (`RecordAccumulator.reenqueue` / `insertInSequenceOrder`).
    fn requeue(&mut self, i: usize) {
        self.batches[i].status = BatchStatus::Queued;
        let seq = self.batches[i].seq;
        let at = self
            .queue
            .iter()
            .position(|&q| match (self.batches[q].seq, seq) {
                (Some(s), Some(mine)) => s > mine,
                (None, _) => true,
                (Some(_), None) => false,
            })
            .unwrap_or(self.queue.len());
        self.queue.insert(at, i);
    }

    /// `Sender.canRetry` with `TransactionManager.canRetry` for an error answer.
    fn can_retry(&mut self, i: usize, error: Error, config: &Config) -> bool {
        let b = self.batches[i];
        if b.attempts > config.retries {
            return false;
        }
        if !config.idempotence {
            return error.retriable();
        }
        match error {
            Error::OutOfOrder => {
                let seq = b.seq.unwrap_or(0);
                if self.unresolved.is_none() && (b.reset || !self.is_next_sequence(seq)) {
                    return true;
                }
                if config.transactional_id {
                    // A real gap: only the idempotent producer retries it.
                    return false;
                }
                if self.unresolved.is_none() || self.unresolved == Some(seq) {
                    self.bump_required = true;
                }
                true
            }
            _ => error.retriable(),
        }
    }

    /// Batch `i` fails to the application; `adjust` as `failBatch`'s `adjustSequenceNumbers`.
    fn fail(&mut self, i: usize, reason: FailReason, adjust: bool, config: &Config) {
        self.batches[i].status = BatchStatus::Failed(reason);
        self.queue.retain(|&q| q != i);
        // `handleFailedBatch`: a bump after a gap or a failure with retries left. (Any failure
        // makes a transaction abortable, and Kafka's abort bumps; see `prepare_with`.)
        if config.idempotence && (reason == FailReason::OutOfOrder || adjust) {
            self.bump_required = true;
        }
    }

    /// The fatal `PRODUCER_FENCED`: every unfinished batch fails and the instance stops.
    fn fence(&mut self) {
        self.state = InstanceState::Fenced;
        for b in self.batches.iter_mut().filter(|b| b.open()) {
            b.status = BatchStatus::Failed(FailReason::Fenced);
        }
        self.queue.clear();
        self.in_flight.clear();
    }

    /// The answer to request `id` on connection `connection` (answers come in request order).
    pub fn answer(
        &mut self,
        connection: u32,
        id: u32,
        answer: Answer,
        config: &Config,
    ) -> Reaction {
        if !self.live() || connection != self.connection {
            return Reaction::Ignored;
        }
        let Some(at) = self.in_flight.iter().position(|r| r.id == id) else {
            return Reaction::Ignored;
        };
        let req = self.in_flight.remove(at).expect("position found");
        self.complete(req, answer, config)
    }

    fn complete(&mut self, req: Request, answer: Answer, config: &Config) -> Reaction {
        let i = req.batch;
        if !self.batches[i].open() {
            // Expired while its request was on the wire (`batch.isDone()`).
            return Reaction::Ignored;
        }
        let retries_left = self.batches[i].attempts <= config.retries;
        let error = match answer {
            Answer::Broker(Verdict::Appended(offset) | Verdict::Duplicate(offset)) => {
                self.batches[i].status = BatchStatus::Acked(offset);
                if let Some(seq) = self.batches[i].seq {
                    self.last_acked = Some(self.last_acked.map_or(seq, |l| l.max(seq)));
                }
                return Reaction::Acked(offset);
            }
            Answer::Broker(Verdict::Fenced) => {
                self.fence();
                return Reaction::Stopped;
            }
            // A transactional producer turns INVALID_PRODUCER_EPOCH into an abortable error
            // (`maybeTransitionToErrorState`); the abort it must then send is answered
            // PRODUCER_FENCED by the coordinator, which is fatal. The two steps are one here.
            Answer::Broker(Verdict::InvalidEpoch) if config.transactional_id => {
                self.fence();
                return Reaction::Stopped;
            }
            Answer::Broker(Verdict::OutOfOrder) => Error::OutOfOrder,
            Answer::Broker(Verdict::InvalidEpoch) => Error::InvalidEpoch,
            Answer::Broker(Verdict::NotEnoughReplicas) => Error::NotEnoughReplicas,
            Answer::Disconnected => Error::Network,
        };
        let bump_before = self.bump_required;
        if self.can_retry(i, error, config) {
            self.requeue(i);
            let next = self.batches[i].attempts + 1;
            return if self.bump_required && !bump_before {
                Reaction::RetryNewEpoch(next)
            } else {
                Reaction::Retry(next)
            };
        }
        let reason = error.reason();
        self.fail(i, reason, retries_left, config);
        Reaction::Failed(reason)
    }

    /// The request timeout of the oldest request passed: the connection closes and every
    /// request on it fails with a network error, oldest first. `None` when request `id` on
    /// `connection` is no longer waited for (answered, or an older connection's).
    pub fn timeout(
        &mut self,
        connection: u32,
        id: u32,
        config: &Config,
    ) -> Option<Vec<(usize, u8, Reaction)>> {
        if !self.timer_matters(connection, id) {
            return None;
        }
        self.connection += 1;
        let reqs: Vec<Request> = self.in_flight.drain(..).collect();
        let mut out = Vec::new();
        for req in reqs {
            let r = self.complete(req, Answer::Disconnected, config);
            out.push((req.batch, req.attempt, r));
        }
        Some(out)
    }

    /// Whether the timer of request `id` on `connection` still means something.
    pub fn timer_matters(&self, connection: u32, id: u32) -> bool {
        self.live() && connection == self.connection && self.in_flight.iter().any(|r| r.id == id)
    }

    /// Batch `i`'s delivery timeout passed (`getExpiredInflightBatches` / `expiredBatches`):
    /// it fails, and if it was being retried its sequence becomes unresolved. `None` if it had
    /// finished already.
    pub fn expire(&mut self, i: usize) -> Option<Reaction> {
        let b = self.batches[i];
        if !self.live() || !b.open() {
            return None;
        }
        self.batches[i].status = BatchStatus::Failed(FailReason::Expired);
        self.queue.retain(|&q| q != i);
        // inRetry: sent at least twice, or queued for a retry.
        let in_retry = b.attempts > 1 || (b.attempts == 1 && b.status == BatchStatus::Queued);
        if let (true, Some(seq)) = (in_retry, b.seq) {
            let next = seq + 1;
            self.unresolved = Some(self.unresolved.map_or(next, |u| u.max(next)));
        }
        Some(Reaction::Failed(FailReason::Expired))
    }

    /// The oldest request whose timeout passed while the instance was down (it handles it when
    /// it wakes).
    pub fn overdue(&self, now: u64) -> Option<Request> {
        self.in_flight
            .front()
            .filter(|r| r.sent_at + super::REQUEST_TIMEOUT_MS <= now)
            .copied()
    }
}

/// What [`Instance::prepare_with`] did to the epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bump {
    /// Nothing.
    None,
    /// Bumped to this epoch; unfinished batches renumbered from 0.
    To(Epoch),
    /// A transactional instance asked the coordinator for a new epoch and was told
    /// `PRODUCER_FENCED`: it stopped.
    Fenced,
}

/// An error answer, as the client classifies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Error {
    OutOfOrder,
    InvalidEpoch,
    NotEnoughReplicas,
    Network,
}

impl Error {
    /// `RetriableException` or not (`OutOfOrderSequenceException` and
    /// `InvalidProducerEpochException` are not).
    fn retriable(self) -> bool {
        matches!(self, Error::NotEnoughReplicas | Error::Network)
    }
    fn reason(self) -> FailReason {
        match self {
            Error::OutOfOrder => FailReason::OutOfOrder,
            Error::InvalidEpoch => FailReason::InvalidEpoch,
            Error::NotEnoughReplicas => FailReason::NotEnoughReplicas,
            Error::Network => FailReason::RetriesExhausted,
        }
    }
}
