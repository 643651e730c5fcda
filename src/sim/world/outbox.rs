//! The transactional outbox, its relay and the downstream consumer, and the dual-write
//! anti-pattern beside them. The relay publishes then marks, so a crash between the two publishes
//! again (at-least-once); the consumer's inbox of processed ids makes the effect happen once.

use super::ctx::Ctx;
use super::intern::{KeyId, OpId};
use super::trace::EventKind;
use super::Micro;

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
    /// A consumer with no deliveries yet, keeping an inbox when `dedupes`.
    pub(super) fn new(dedupes: bool) -> Consumer {
        Consumer {
            dedupes,
            ..Consumer::default()
        }
    }

    fn has_seen(&self, id: u64) -> bool {
        self.seen.binary_search(&id).is_ok()
    }

    fn remember(&mut self, id: u64) {
        if let Err(pos) = self.seen.binary_search(&id) {
            self.seen.insert(pos, id);
        }
    }
}

/// What the relay sees of the database: the outbox table (the store implements it).
pub(super) trait OutboxTable {
    /// The ids of the unpublished rows, in commit order (what the relay polls).
    fn unpublished(&mut self) -> Vec<u64>;
    /// The row of event `id`, to update.
    fn row_mut(&mut self, id: u64) -> Option<&mut OutboxRow>;
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

impl Relay {
    /// A `RelayTick` input: read the unpublished rows and start publishing them.
    pub(super) fn tick(
        &mut self,
        ctx: &mut Ctx,
        table: &mut impl OutboxTable,
        crash_after_publish: bool,
    ) {
        if self.busy {
            ctx.emit(EventKind::RelayBusy);
            return;
        }
        let batch = table.unpublished();
        ctx.emit(EventKind::RelayPoll {
            unpublished: u32::try_from(batch.len()).unwrap_or(u32::MAX),
        });
        if !batch.is_empty() {
            *self = Relay {
                batch,
                pos: 0,
                crash: crash_after_publish,
                busy: true,
            };
            ctx.after(RELAY_MS, Micro::Relay);
        }
    }

    /// One relay action: publish a row, crash, or mark a row.
    pub(super) fn step(&mut self, ctx: &mut Ctx, table: &mut impl OutboxTable) {
        let len = self.batch.len();
        let pos = self.pos;
        debug_assert!(
            pos <= 2 * len,
            "the relay is at most one step past its marks"
        );
        if let Some(&id) = self.batch.get(pos) {
            let delivery = match table.row_mut(id) {
                Some(row) => {
                    row.deliveries = row.deliveries.saturating_add(1);
                    row.deliveries
                }
                None => 0,
            };
            ctx.emit(EventKind::RelayPublish { id, delivery });
            ctx.after(RELAY_MS, Micro::Consume { id });
        } else if self.crash {
            // Published but never marked: the next tick publishes these rows again.
            ctx.emit(EventKind::RelayCrash);
            *self = Relay::default();
            return;
        } else {
            let Some(&id) = self.batch.get(pos - len) else {
                // Only scheduled while a batch is in progress; nothing to do otherwise.
                *self = Relay::default();
                return;
            };
            if let Some(row) = table.row_mut(id) {
                row.published = true;
            }
            ctx.emit(EventKind::RelayMark { id });
        }
        self.pos = pos + 1;
        if self.pos < 2 * len {
            ctx.after(RELAY_MS, Micro::Relay);
        } else {
            *self = Relay::default();
        }
    }
}

impl Consumer {
    /// The consumer receives one delivery.
    pub(super) fn consume(&mut self, ctx: &mut Ctx, id: u64) {
        debug_assert!(
            self.applied <= self.received && self.inbox.len() <= self.seen.len(),
            "each effect follows a delivery, and the inbox holds only ids seen"
        );
        self.received = self.received.saturating_add(1);
        if !self.has_seen(id) {
            self.remember(id);
            self.applied = self.applied.saturating_add(1);
            if self.dedupes {
                self.inbox.push(id);
            }
            ctx.emit(EventKind::ConsumerApply { id });
        } else if self.dedupes {
            self.duplicates_ignored = self.duplicates_ignored.saturating_add(1);
            ctx.emit(EventKind::ConsumerDuplicate { id, applied: false });
        } else {
            self.applied = self.applied.saturating_add(1);
            self.duplicates_applied = self.duplicates_applied.saturating_add(1);
            ctx.emit(EventKind::ConsumerDuplicate { id, applied: true });
        }
    }
}

/// Dual write: the server publishes straight to the consumer.
pub(super) fn publish_direct(ctx: &mut Ctx, op: OpId, id: u64) {
    ctx.emit(EventKind::EventPublish { op, id });
    ctx.after(RELAY_MS, Micro::Consume { id });
}
