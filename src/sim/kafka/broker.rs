//! The broker: one partition log, the producer state of each producer id (the metadata of its
//! last 5 batches), and the transaction coordinator's epoch for the one `transactional.id`.
//!
//! Every rule below follows the broker's code in apache/kafka (read at commit 1eb76443, Oct 2024):
//! - `storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateEntry.java`
//!   (`NUM_BATCHES_TO_RETAIN = 5`, `addBatchMetadata`, `maybeUpdateProducerEpoch`,
//!   `findDuplicateBatch`),
//! - `storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerAppendInfo.java`
//!   (`checkProducerEpoch`, `checkSequence`, `inSequence`),
//! - `storage/src/main/java/org/apache/kafka/storage/internals/log/ProducerStateManager.java`
//!   (`lastEntry`, `prepareUpdate`: a producer id without an entry is validated against
//!   `ProducerStateEntry.empty`, whose epoch is `NO_PRODUCER_EPOCH`),
//! - `core/src/main/scala/kafka/log/UnifiedLog.scala` (`analyzeAndValidateProducerState`: the
//!   duplicate check comes first and answers with the original batch's offset),
//! - `core/src/main/scala/kafka/coordinator/transaction/TransactionCoordinator.scala`
//!   (`handleInitProducerId`: a new producer id without a transactional id, an epoch bump with
//!   one; an older epoch is `PRODUCER_FENCED`; KIP-588,
//!   https://cwiki.apache.org/confluence/display/KAFKA/KIP-588:+Allow+producers+to+recover+gracefully+from+transaction+timeouts:
//!   "When a new producer with the same transactional id starts up … the coordinator will bump
//!   the epoch … when the older producer attempts to make progress, it shall be fenced").
//!
//! KIP-98 (https://cwiki.apache.org/confluence/display/KAFKA/KIP-98+-+Exactly+Once+Delivery+and+Transactional+Messaging)
//! designed them; KAFKA-5494 (https://issues.apache.org/jira/browse/KAFKA-5494, commit 5d242225)
//! raised the window from one batch to five so up to 5 requests may be in flight.

use std::collections::VecDeque;

use super::{Epoch, EventId, Pid, Seq};

/// `ProducerStateEntry.NUM_BATCHES_TO_RETAIN`: the broker remembers the last 5 batches of each
/// producer id.
pub const NUM_BATCHES_TO_RETAIN: usize = 5;

/// Sequences are non-negative Java ints: after `Integer.MAX_VALUE` the next is 0
/// (`DefaultRecordBatch.incrementSequence`; `ProducerAppendInfo.inSequence` accepts 0 after
/// `Integer.MAX_VALUE`).
pub const SEQ_MASK: Seq = i32::MAX as Seq;

/// The largest epoch (`Short.MAX_VALUE`); the coordinator hands out a new producer id rather
/// than go past it (`TransactionMetadata.isEpochExhausted`: `epoch >= Short.MAX_VALUE - 1`).
pub const MAX_EPOCH: Epoch = i16::MAX as Epoch;

/// What the broker keeps of one appended batch (`BatchMetadata`): its sequence and offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchMeta {
    /// The batch's sequence (first = last: one record per batch).
    pub seq: Seq,
    /// Where it was appended.
    pub offset: u32,
}

/// The broker's state for one producer id (`ProducerStateEntry`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducerEntry {
    /// The producer id.
    pub pid: Pid,
    /// The latest epoch seen from it.
    pub epoch: Epoch,
    /// Its last batches, oldest first, at most [`NUM_BATCHES_TO_RETAIN`].
    pub batches: VecDeque<BatchMeta>,
}

/// One record of the partition log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogRecord {
    /// Its offset.
    pub offset: u32,
    /// The producer id, if the producer is idempotent (an idempotent batch `hasProducerId`).
    pub pid: Option<Pid>,
    /// The producer epoch (0 without idempotence).
    pub epoch: Epoch,
    /// The sequence, if idempotent.
    pub seq: Option<Seq>,
    /// The outbox event it carries.
    pub event: EventId,
    /// The event was already in the log at a smaller offset: a duplicate.
    pub duplicate: bool,
    /// The step that appended it.
    pub step: usize,
    /// The producer instance that sent it (for the page and the invariants: the broker itself
    /// never looks at it).
    pub writer: usize,
    /// The writer's batch, i.e. the application's `send()` it carries (for the invariants).
    pub batch: usize,
}

/// A produce request as the broker sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProduceBatch {
    /// Producer id, for an idempotent producer.
    pub pid: Option<Pid>,
    /// Producer epoch.
    pub epoch: Epoch,
    /// Sequence, for an idempotent producer.
    pub seq: Option<Seq>,
    /// Whether the producer is transactional.
    pub transactional: bool,
    /// The record's event.
    pub event: EventId,
    /// The producer instance that sent it (not on the wire in Kafka; kept for the page).
    pub writer: usize,
    /// The writer's batch index (not on the wire either; for the invariants).
    pub batch: usize,
}

/// The broker's answer to one batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Appended at this offset.
    Appended(u32),
    /// A retry of a batch among the retained ones: acknowledged with the original offset, not
    /// appended again.
    Duplicate(u32),
    /// `OUT_OF_ORDER_SEQUENCE_NUMBER`: a gap, or an old sequence outside the window.
    OutOfOrder,
    /// `INVALID_PRODUCER_EPOCH`: the partition has seen a newer epoch of this producer id
    /// (`ProducerAppendInfo.checkProducerEpoch`: "Starting from 2.7, we replaced ProducerFenced
    /// error with InvalidProducerEpoch in the producer send response callback to differentiate
    /// from the former fatal exception"). Not appended; the producer can recover.
    InvalidEpoch,
    /// `PRODUCER_FENCED`: the transaction coordinator has a newer epoch for the producer's
    /// `transactional.id` (fatal for the producer). The coordinator answers it (to the
    /// transactional producer's abort after an `INVALID_PRODUCER_EPOCH`); the partition never
    /// does.
    Fenced,
    /// `NOT_ENOUGH_REPLICAS`: with `acks=all`, fewer in-sync replicas than
    /// `min.insync.replicas` (`Partition.appendRecordsToLeader` checks this before appending).
    /// Not appended; retriable.
    NotEnoughReplicas,
}

/// The broker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Broker {
    /// The partition log.
    pub log: Vec<LogRecord>,
    /// Producer state, one entry per producer id that has appended.
    pub producers: Vec<ProducerEntry>,
    /// The transaction coordinator's producer id and epoch for the one `transactional.id`.
    pub txn: Option<(Pid, Epoch)>,
    /// The next producer id to hand out.
    next_pid: Pid,
}

impl Broker {
    /// An empty broker.
    pub fn new() -> Self {
        Broker {
            next_pid: 1,
            ..Broker::default()
        }
    }

    /// The state kept for `pid`, if it has appended.
    pub fn entry(&self, pid: Pid) -> Option<&ProducerEntry> {
        self.producers.iter().find(|e| e.pid == pid)
    }

    /// A broker whose coordinator already holds this producer id and epoch for the one
    /// `transactional.id` (for tests of the epoch's end).
    pub fn with_transactional(pid: Pid, epoch: Epoch) -> Self {
        Broker {
            txn: Some((pid, epoch)),
            next_pid: pid + 1,
            ..Broker::default()
        }
    }

    /// `InitProducerId`. Without a transactional id the coordinator "blindly" hands out a new
    /// producer id (epoch 0); with one it keeps the id and bumps the epoch
    /// (`TransactionMetadata.prepareIncrementProducerEpoch`), which fences the older instance;
    /// an exhausted epoch gets a new producer id at epoch 0 instead.
    pub fn init_producer_id(&mut self, transactional: bool) -> (Pid, Epoch) {
        if transactional {
            if let Some((pid, epoch)) = self.txn {
                if epoch < MAX_EPOCH - 1 {
                    let bumped = (pid, epoch + 1);
                    self.txn = Some(bumped);
                    return bumped;
                }
            }
        }
        let pid = self.next_pid;
        self.next_pid += 1;
        if transactional {
            self.txn = Some((pid, 0));
        }
        (pid, 0)
    }

    /// `InitProducerId` from a running transactional instance with its producer id and epoch,
    /// after it aborted (KIP-360): the coordinator bumps the epoch when they are its current
    /// ones (`prepareIncrementProducerEpoch`), and answers `PRODUCER_FENCED` (`None`) when a
    /// newer instance has taken the transactional id (`prepareInitProducerIdTransit`,
    /// TransactionCoordinatorTest `testInitProducerIdStaleCurrentEpochProvided`). An exhausted
    /// epoch, which a run never reaches, is refused too rather than given a new producer id.
    pub fn bump_epoch(&mut self, pid: Option<Pid>, epoch: Epoch) -> Option<Epoch> {
        match (self.txn, pid) {
            (Some((tpid, tepoch)), Some(pid))
                if tpid == pid && tepoch == epoch && epoch < MAX_EPOCH - 1 =>
            {
                self.txn = Some((pid, epoch + 1));
                Some(epoch + 1)
            }
            _ => None,
        }
    }

    /// Appends one batch, or says why not, by the rules of `UnifiedLog` and
    /// `ProducerAppendInfo` in the order they apply.
    pub fn append(&mut self, batch: ProduceBatch, step: usize) -> Verdict {
        let (Some(pid), Some(seq)) = (batch.pid, batch.seq) else {
            // Without idempotence a batch has no producer id: nothing is validated.
            return Verdict::Appended(self.push(batch, step));
        };
        // A transactional producer's write is verified with the coordinator (KIP-890,
        // AddPartitionsToTxnManager): an epoch older than the coordinator's is fenced, and the
        // produce answer says INVALID_PRODUCER_EPOCH ("Producers expect to handle
        // INVALID_PRODUCER_EPOCH in this scenario").
        if batch.transactional {
            if let Some((tpid, tepoch)) = self.txn {
                if tpid == pid && batch.epoch < tepoch {
                    return Verdict::InvalidEpoch;
                }
            }
        }
        let entry = self.producers.iter().find(|e| e.pid == pid);
        if let Some(e) = entry {
            // 1. UnifiedLog.analyzeAndValidateProducerState: "there will be up to 5 batches which
            //    could have been duplicated. If we find a duplicate, we return the metadata of
            //    the appended batch" — ProducerStateEntry.findDuplicateBatch: same epoch and the
            //    same sequence range as a retained batch.
            if e.epoch == batch.epoch {
                if let Some(b) = e.batches.iter().find(|b| b.seq == seq) {
                    return Verdict::Duplicate(b.offset);
                }
            }
            // 2. ProducerAppendInfo.checkProducerEpoch: an epoch smaller than the last seen one
            //    is InvalidProducerEpochException.
            if batch.epoch < e.epoch {
                return Verdict::InvalidEpoch;
            }
            // 3. ProducerAppendInfo.checkSequence.
            let ok = if batch.epoch != e.epoch {
                // A new epoch must start at sequence 0.
                seq == 0
            } else {
                // Same epoch: the next sequence after the last retained batch
                // (inSequence: nextSeq == lastSeq + 1; NO_SEQUENCE = -1 when none is retained).
                match e.batches.back() {
                    Some(last) => seq == (last.seq.wrapping_add(1) & SEQ_MASK),
                    None => seq == 0,
                }
            };
            if !ok {
                return Verdict::OutOfOrder;
            }
        }
        // No entry: "If there is no current producer epoch (possibly because all producer
        // records have been deleted due to retention or the DeleteRecords API) accept writes
        // with any sequence number" (checkSequence).
        let offset = self.push(batch, step);
        let e = match self.producers.iter().position(|e| e.pid == pid) {
            Some(i) => &mut self.producers[i],
            None => {
                self.producers.push(ProducerEntry {
                    pid,
                    epoch: batch.epoch,
                    batches: VecDeque::new(),
                });
                self.producers.last_mut().expect("just pushed")
            }
        };
        // maybeUpdateProducerEpoch: a new epoch clears the retained batches.
        if e.epoch != batch.epoch {
            e.batches.clear();
            e.epoch = batch.epoch;
        }
        // addBatchMetadata: at capacity, the oldest goes.
        if e.batches.len() == NUM_BATCHES_TO_RETAIN {
            e.batches.pop_front();
        }
        e.batches.push_back(BatchMeta { seq, offset });
        Verdict::Appended(offset)
    }

    /// `ProducerStateManager.removeExpiredProducers`: a producer idle longer than
    /// `producer.id.expiration.ms` (1 day by default) is forgotten, and its next write is then
    /// checked against no state at all, so any sequence is accepted ([P]
    /// testPidExpirationTimeout). Here the time has passed for every producer; the transaction
    /// coordinator's `transactional.id` mapping is kept (it expires on its own, later).
    pub fn expire_producers(&mut self) {
        self.producers.clear();
    }

    fn push(&mut self, batch: ProduceBatch, step: usize) -> u32 {
        let offset = self.log.len() as u32;
        debug_assert!(
            self.log.last().is_none_or(|r| r.offset + 1 == offset),
            "offsets are contiguous"
        );
        let duplicate = self.log.iter().any(|r| r.event == batch.event);
        self.log.push(LogRecord {
            offset,
            pid: batch.pid,
            epoch: batch.epoch,
            seq: batch.seq,
            event: batch.event,
            duplicate,
            step,
            writer: batch.writer,
            batch: batch.batch,
        });
        offset
    }
}
