//! One producer instance: its producer id and epoch, its batches (one record each), the queue
//! of batches waiting to be sent, the in-flight window, and how it reacts to the broker's
//! answers and to timeouts. It sends nothing itself: [`Instance::next_to_send`] says which
//! batch may go now and the engine puts it on the wire.
//!
//! Rules, from apache/kafka's client (commit 1eb76443):
//! - In flight (`NetworkClient`, `max.in.flight.requests.per.connection`): responses on a
//!   connection come back in request order, so a slot is free only once the oldest unanswered
//!   request is answered: here a batch may be sent while it is fewer than `max_in_flight`
//!   places after the oldest unacknowledged one.
//! - Retries keep their sequence and go in sequence order
//!   (`RecordAccumulator.shouldStopDrainBatchesForPartition`: a retried batch is sent only when
//!   it is the first in-flight sequence, "This effectively reduces our in flight request count
//!   to 1").
//! - `TransactionManager.canRetry`: an `OUT_OF_ORDER_SEQUENCE_NUMBER` answer for a batch that is
//!   not the next after the last acknowledged one is retried (an earlier batch is still on its
//!   way).
//! - A batch that runs out of retries fails to the application; an idempotent producer then
//!   bumps its epoch and numbers its unfinished batches from 0 again (KIP-360,
//!   `requestEpochBumpForPartition`), and sends nothing of the new epoch while requests of the
//!   old one are still in flight (`hasStaleProducerIdAndEpoch`).
//! - `PRODUCER_FENCED` / `INVALID_PRODUCER_EPOCH` is fatal: the instance stops.

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
    /// No answer after `retries` retries.
    RetriesExhausted,
    /// Still `OUT_OF_ORDER_SEQUENCE_NUMBER` after `retries` retries.
    OutOfOrder,
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

/// One batch: one record of one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// The event it carries.
    pub event: EventId,
    /// Its place in the instance's send order (renumbered from 0 after an epoch bump).
    pub order: u32,
    /// Its sequence, with idempotence (= `order`).
    pub seq: Option<Seq>,
    /// The epoch it is numbered in.
    pub epoch: Epoch,
    /// How many times it was sent.
    pub attempts: u8,
    /// Its state.
    pub status: BatchStatus,
    /// When the current attempt was sent.
    pub sent_at: u64,
}

impl Batch {
    fn unresolved(&self) -> bool {
        matches!(self.status, BatchStatus::Queued | BatchStatus::InFlight) && self.attempts > 0
    }
    fn open(&self) -> bool {
        matches!(self.status, BatchStatus::Queued | BatchStatus::InFlight)
    }
}

/// What an instance did with an answer or a timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    /// The batch is acknowledged at this offset.
    Acked(u32),
    /// It will be sent again (attempt number of the next send).
    Retry(u8),
    /// It failed to the application.
    Failed(FailReason),
    /// The instance is fenced and stops; its open batches fail.
    Stopped,
    /// The answer was for an earlier attempt, or the instance is down: ignored.
    Ignored,
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
    /// Batches waiting to be sent, in send order.
    pub queue: VecDeque<usize>,
    next_order: u32,
    last_acked: Option<Seq>,
    /// Requests of an older epoch still unanswered: (batch, attempt, epoch).
    stale: Vec<(usize, u8, Epoch)>,
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
            next_order: 0,
            last_acked: None,
            stale: Vec::new(),
        }
    }

    /// Whether it sends and hears answers.
    pub fn live(&self) -> bool {
        matches!(self.state, InstanceState::Running | InstanceState::Zombie)
    }

    /// Queues a new batch for `event`.
    pub fn enqueue(&mut self, event: EventId) {
        let order = self.next_order;
        self.next_order += 1;
        self.batches.push(Batch {
            event,
            order,
            seq: self.pid.map(|_| order),
            epoch: self.epoch,
            attempts: 0,
            status: BatchStatus::Queued,
            sent_at: 0,
        });
        self.queue.push_back(self.batches.len() - 1);
    }

    /// The batch that may be sent now, if any (it stays queued until [`Instance::sent`]).
    pub fn next_to_send(&self, config: &Config) -> Option<usize> {
        if !self.live() {
            return None;
        }
        let &head = self.queue.front()?;
        let b = &self.batches[head];
        // No batch of a new epoch while requests of an older one are in flight.
        if !self.stale.is_empty() {
            return None;
        }
        let oldest = self
            .batches
            .iter()
            .filter(|o| o.unresolved())
            .map(|o| o.order)
            .min();
        if let Some(oldest) = oldest {
            if b.order >= oldest + u32::from(config.max_in_flight) {
                return None;
            }
            // A retried batch goes only when it is the first in-flight sequence.
            if config.idempotence && b.attempts > 0 && b.order != oldest {
                return None;
            }
        }
        Some(head)
    }

    /// Marks batch `i` sent now (attempt `attempts + 1`).
    pub fn sent(&mut self, i: usize, now: u64) {
        self.queue.retain(|&q| q != i);
        let b = &mut self.batches[i];
        b.attempts += 1;
        b.status = BatchStatus::InFlight;
        b.sent_at = now;
    }

    /// Puts batch `i` back in the queue, in order before every later batch.
    fn requeue(&mut self, i: usize) {
        self.batches[i].status = BatchStatus::Queued;
        let order = self.batches[i].order;
        let at = self
            .queue
            .iter()
            .position(|&q| self.batches[q].order > order)
            .unwrap_or(self.queue.len());
        self.queue.insert(at, i);
    }

    /// Retry or fail batch `i` after a failed attempt; `reason` if it fails.
    fn retry_or_fail(&mut self, i: usize, config: &Config, reason: FailReason) -> Reaction {
        if self.batches[i].attempts > config.retries {
            self.fail(i, reason, config);
            Reaction::Failed(reason)
        } else {
            self.requeue(i);
            Reaction::Retry(self.batches[i].attempts + 1)
        }
    }

    /// Batch `i` fails; with idempotence the epoch is bumped and the open batches renumbered.
    fn fail(&mut self, i: usize, reason: FailReason, config: &Config) {
        self.batches[i].status = BatchStatus::Failed(reason);
        if config.idempotence && reason != FailReason::Fenced {
            self.epoch = self.epoch.saturating_add(1);
            self.last_acked = None;
            let mut open: Vec<usize> = (0..self.batches.len())
                .filter(|&j| self.batches[j].open())
                .collect();
            open.sort_by_key(|&j| self.batches[j].order);
            for (n, &j) in open.iter().enumerate() {
                let b = &mut self.batches[j];
                b.order = n as u32;
                b.seq = Some(n as u32);
                if b.status == BatchStatus::InFlight {
                    // Its answer (old epoch) will be ignored; it goes again in the new epoch.
                    self.stale.push((j, b.attempts, b.epoch));
                    b.status = BatchStatus::Queued;
                }
                b.attempts = 0;
                b.epoch = self.epoch;
            }
            self.next_order = open.len() as u32;
            let mut queue: Vec<usize> = open;
            queue.sort_by_key(|&j| self.batches[j].order);
            self.queue = queue.into();
        }
    }

    /// The broker's answer to attempt `attempt` of batch `i`, sent in epoch `epoch`.
    pub fn answer(
        &mut self,
        i: usize,
        attempt: u8,
        epoch: Epoch,
        verdict: Verdict,
        config: &Config,
    ) -> Reaction {
        if self.clear_stale(i, attempt, epoch) {
            return Reaction::Ignored;
        }
        let b = self.batches[i];
        if !self.live()
            || b.status != BatchStatus::InFlight
            || b.attempts != attempt
            || b.epoch != epoch
        {
            return Reaction::Ignored;
        }
        match verdict {
            Verdict::Appended(offset) | Verdict::Duplicate(offset) => {
                self.batches[i].status = BatchStatus::Acked(offset);
                if let Some(seq) = b.seq {
                    self.last_acked = Some(self.last_acked.map_or(seq, |l| l.max(seq)));
                }
                Reaction::Acked(offset)
            }
            Verdict::OutOfOrder => {
                let next = self.last_acked.map_or(0, |l| l + 1);
                if b.seq != Some(next) {
                    // An earlier batch is still on its way: retry (canRetry).
                    self.retry_or_fail(i, config, FailReason::OutOfOrder)
                } else {
                    // A real gap the broker will never fill: bump the epoch (canRetry).
                    self.fail(i, FailReason::OutOfOrder, config);
                    Reaction::Failed(FailReason::OutOfOrder)
                }
            }
            Verdict::Fenced => {
                self.state = InstanceState::Fenced;
                for b in self.batches.iter_mut().filter(|b| b.open()) {
                    b.status = BatchStatus::Failed(FailReason::Fenced);
                }
                self.queue.clear();
                Reaction::Stopped
            }
        }
    }

    /// The request timeout of attempt `attempt` of batch `i` passed without an answer.
    pub fn timeout(&mut self, i: usize, attempt: u8, epoch: Epoch, config: &Config) -> Reaction {
        if self.clear_stale(i, attempt, epoch) {
            return Reaction::Ignored;
        }
        let b = self.batches[i];
        if !self.live()
            || b.status != BatchStatus::InFlight
            || b.attempts != attempt
            || b.epoch != epoch
        {
            return Reaction::Ignored;
        }
        self.retry_or_fail(i, config, FailReason::RetriesExhausted)
    }

    /// Whether the timer of attempt `attempt` of batch `i` (sent in `epoch`) still means
    /// something: the batch waits for that answer, or it is an older epoch's request the
    /// instance is waiting out. Other timers pass without a step.
    pub fn timer_matters(&self, i: usize, attempt: u8, epoch: Epoch) -> bool {
        let b = &self.batches[i];
        self.stale.contains(&(i, attempt, epoch))
            || (self.live()
                && b.status == BatchStatus::InFlight
                && b.attempts == attempt
                && b.epoch == epoch)
    }

    /// Forgets a request of an older epoch once it is answered or timed out; whether it was one.
    fn clear_stale(&mut self, i: usize, attempt: u8, epoch: Epoch) -> bool {
        match self.stale.iter().position(|s| *s == (i, attempt, epoch)) {
            Some(at) => {
                self.stale.remove(at);
                true
            }
            None => false,
        }
    }

    /// Batches in flight whose timeout passed while the instance was down (it handles them when
    /// it wakes).
    pub fn overdue(&self, now: u64) -> Vec<usize> {
        (0..self.batches.len())
            .filter(|&i| {
                let b = &self.batches[i];
                b.status == BatchStatus::InFlight && b.sent_at + super::REQUEST_TIMEOUT_MS <= now
            })
            .collect()
    }
}
