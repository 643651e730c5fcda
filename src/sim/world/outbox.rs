//! The transactional outbox, its relay and the downstream consumer, and the dual-write
//! anti-pattern beside them. The relay publishes then marks, so a crash between the two publishes
//! again (at-least-once); the consumer's inbox of processed ids makes the effect happen once.

use super::intern::{KeyId, OpId};
use super::trace::EventKind;
use super::{Micro, World};

/// Simulated ms each relay or consumer action takes; keeps the timeline readable.
const RELAY_MS: u64 = 1;

/// How the server emits the "charged" event downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EmitMode {
    /// No events.
    #[default]
    None,
    /// An outbox row in the charge's transaction; a relay publishes it.
    Outbox,
    /// Dual write: commit, then publish outside the transaction (a crash loses the event).
    DualWriteCommitThenPublish,
    /// Dual write: publish, then commit (a crash emits an event for a charge never committed).
    DualWritePublishThenCommit,
}

impl EmitMode {
    /// Every mode.
    pub const ALL: [EmitMode; 4] = [
        EmitMode::None,
        EmitMode::Outbox,
        EmitMode::DualWriteCommitThenPublish,
        EmitMode::DualWritePublishThenCommit,
    ];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Outbox => "outbox",
            Self::DualWriteCommitThenPublish => "dual-write-commit-then-publish",
            Self::DualWritePublishThenCommit => "dual-write-publish-then-commit",
        }
    }

    /// True for the two dual-write modes.
    pub fn is_dual_write(self) -> bool {
        matches!(
            self,
            Self::DualWriteCommitThenPublish | Self::DualWritePublishThenCommit
        )
    }
}

/// The event a charge emits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChargeEvent {
    /// The operation charged.
    pub op: OpId,
    /// Its key.
    pub key: Option<KeyId>,
    /// Amount charged.
    pub amount: i64,
}

/// One outbox row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutboxRow {
    /// Event id.
    pub id: u64,
    /// The event.
    pub payload: ChargeEvent,
    /// Marked published by the relay.
    pub published: bool,
    /// Times the relay has published it.
    pub deliveries: u32,
}

/// The consumer's state. With `dedupes` it keeps an inbox of processed ids; without, it applies
/// every delivery (two receipt e-mails for one charge).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Consumer {
    /// Whether it deduplicates by event id.
    pub dedupes: bool,
    /// Deliveries received.
    pub received: u64,
    /// Effects applied (e-mails sent), duplicates included.
    pub applied: u64,
    /// Redeliveries the inbox caught.
    pub duplicates_ignored: u64,
    /// Redeliveries applied again.
    pub duplicates_applied: u64,
    /// Processed event ids, in order (the inbox table; empty for a naive consumer).
    pub inbox: Vec<u64>,
    // Every id ever applied, known to the world even when the consumer keeps no inbox.
    seen: Vec<u64>,
}

impl Consumer {
    fn has_seen(&self, id: u64) -> bool {
        self.seen.binary_search(&id).is_ok()
    }

    fn remember(&mut self, id: u64) {
        if let Err(pos) = self.seen.binary_search(&id) {
            self.seen.insert(pos, id);
        }
    }
}

/// The relay's progress through one tick.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Relay {
    batch: Vec<u64>,
    // 0..len: publish batch[pos]; then crash, or len..2len: mark batch[pos - len].
    pos: usize,
    crash: bool,
    busy: bool,
}

impl World {
    /// A `RelayTick` input: read the unpublished rows and start publishing them.
    pub(super) fn relay_tick(&mut self, crash_after_publish: bool) {
        if self.relay.busy {
            self.emit(EventKind::RelayBusy);
            return;
        }
        let batch = self.db.unpublished();
        self.emit(EventKind::RelayPoll {
            unpublished: u32::try_from(batch.len()).unwrap_or(u32::MAX),
        });
        if !batch.is_empty() {
            self.relay = Relay {
                batch,
                pos: 0,
                crash: crash_after_publish,
                busy: true,
            };
            self.schedule(self.now.saturating_add(RELAY_MS), Micro::Relay);
        }
    }

    /// One relay action: publish a row, crash, or mark a row.
    pub(super) fn relay_step(&mut self) {
        let len = self.relay.batch.len();
        let pos = self.relay.pos;
        if let Some(&id) = self.relay.batch.get(pos) {
            let delivery = match self.db.outbox_row_mut(id) {
                Some(row) => {
                    row.deliveries = row.deliveries.saturating_add(1);
                    row.deliveries
                }
                None => 0,
            };
            self.emit(EventKind::RelayPublish { id, delivery });
            self.schedule(self.now.saturating_add(RELAY_MS), Micro::Consume { id });
        } else if self.relay.crash {
            // Published but never marked: the next tick publishes these rows again.
            self.emit(EventKind::RelayCrash);
            self.relay = Relay::default();
            return;
        } else {
            let Some(&id) = self.relay.batch.get(pos - len) else {
                // Only scheduled while a batch is in progress; nothing to do otherwise.
                self.relay = Relay::default();
                return;
            };
            if let Some(row) = self.db.outbox_row_mut(id) {
                row.published = true;
            }
            self.emit(EventKind::RelayMark { id });
        }
        self.relay.pos = pos + 1;
        if self.relay.pos < 2 * len {
            self.schedule(self.now.saturating_add(RELAY_MS), Micro::Relay);
        } else {
            self.relay = Relay::default();
        }
    }

    /// Dual write: the server publishes straight to the consumer.
    pub(super) fn publish_direct(&mut self, op: OpId, id: u64) {
        self.emit(EventKind::EventPublish { op, id });
        self.schedule(self.now.saturating_add(RELAY_MS), Micro::Consume { id });
    }

    /// The consumer receives one delivery.
    pub(super) fn consume(&mut self, id: u64) {
        let c = &mut self.consumer;
        c.received = c.received.saturating_add(1);
        if !c.has_seen(id) {
            c.remember(id);
            c.applied = c.applied.saturating_add(1);
            if c.dedupes {
                c.inbox.push(id);
            }
            self.emit(EventKind::ConsumerApply { id });
        } else if c.dedupes {
            c.duplicates_ignored = c.duplicates_ignored.saturating_add(1);
            self.emit(EventKind::ConsumerDuplicate { id, applied: false });
        } else {
            c.applied = c.applied.saturating_add(1);
            c.duplicates_applied = c.duplicates_applied.saturating_add(1);
            self.emit(EventKind::ConsumerDuplicate { id, applied: true });
        }
    }

    /// A consumer configured from the world's settings.
    pub(super) fn new_consumer(dedupes: bool) -> Consumer {
        Consumer {
            dedupes,
            ..Consumer::default()
        }
    }
}
