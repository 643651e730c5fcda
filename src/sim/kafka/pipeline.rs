//! Above and below the producer: the relay that publishes the service's outbox through it, and
//! the consumer that applies what the log holds.
//!
//! - The outbox relay (the playground's outbox lessons) publishes each unpublished row and marks
//!   it published once Kafka acknowledges it; a new relay process publishes every row still
//!   unmarked, so a row whose acknowledgement was lost goes again, as a new record.
//! - The log-based relay (Debezium-style change data capture) reads the database's log in order
//!   and commits its read position now and then, not after every event (Debezium's
//!   `OffsetCommitPolicy.periodic`, debezium-api/src/main/java/io/debezium/engine/spi/
//!   OffsetCommitPolicy.java in github.com/debezium/debezium, commits once
//!   `offset.flush.interval.ms` has passed; as Camel's Debezium component puts the Embedded
//!   Engine documentation, https://camel.apache.org/components/debezium-postgres-component.html,
//!   "in case of an application crash … the application will resume from the last recorded
//!   offset, which may result in receiving duplicate events"). Here the position is committed
//!   once the acknowledged prefix is [`LOG_COMMIT_EVERY`](super::LOG_COMMIT_EVERY) events past
//!   the last commit; a new process resumes from it, so events read after it are published again
//!   even when they were acknowledged.
//! - Both publish a failed record again (the row stays unpublished; the change is not committed).
//! - The consumer reads the log in offset order; with an inbox it remembers the event ids it
//!   applied (in the same transaction as its effect) and skips one it has seen.

use super::{EventId, LOG_COMMIT_EVERY};

/// Which relay publishes the outbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RelayKind {
    /// Polls the outbox table; marks rows published on acknowledgement.
    Outbox,
    /// Reads the database's log; commits its position now and then.
    Log,
}

impl RelayKind {
    /// Both, for the JSON reader and the page.
    pub const ALL: [RelayKind; 2] = [RelayKind::Outbox, RelayKind::Log];

    /// The name in the JSON.
    pub fn id(self) -> &'static str {
        match self {
            RelayKind::Outbox => "outbox",
            RelayKind::Log => "log",
        }
    }
}

/// The relay's state (it survives a restart only as the database's state: published marks,
/// the committed position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Relay {
    /// Which relay.
    pub kind: RelayKind,
    /// Events the service wrote to the outbox.
    pub written: u32,
    /// Outbox relay: rows marked published.
    pub published: Vec<bool>,
    /// Events acknowledged to the current process.
    pub acked: Vec<bool>,
    /// Log relay: the committed read position (events before it are not read again).
    pub committed: u32,
}

impl Relay {
    /// A relay over an empty outbox.
    pub fn new(kind: RelayKind) -> Self {
        Relay {
            kind,
            written: 0,
            published: Vec::new(),
            acked: Vec::new(),
            committed: 0,
        }
    }

    /// The service writes `count` events; the ids to publish now.
    pub fn write(&mut self, count: u8) -> Vec<EventId> {
        let first = self.written;
        self.written += u32::from(count);
        self.published.resize(self.written as usize, false);
        self.acked.resize(self.written as usize, false);
        (first..self.written).collect()
    }

    /// Kafka acknowledged `event` to the current process.
    pub fn acked(&mut self, event: EventId) {
        let e = event as usize;
        if e < self.acked.len() {
            self.acked[e] = true;
            self.published[e] = true;
        }
        if self.kind == RelayKind::Log {
            let prefix = self.acked.iter().take_while(|a| **a).count() as u32;
            if prefix >= self.committed + LOG_COMMIT_EVERY {
                self.committed = prefix;
            }
        }
    }

    /// A new process starts: what it publishes.
    pub fn restart(&mut self) -> Vec<EventId> {
        self.acked.iter_mut().for_each(|a| *a = false);
        match self.kind {
            RelayKind::Outbox => (0..self.written)
                .filter(|&e| !self.published[e as usize])
                .collect(),
            RelayKind::Log => (self.committed..self.written).collect(),
        }
    }
}

/// The consumer: what it applied, and its inbox.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Consumer {
    /// Whether it keeps an inbox.
    pub inbox: bool,
    /// The next offset to read.
    pub next_offset: u32,
    /// Times each event was applied.
    pub applied: Vec<u32>,
    /// Records the inbox skipped.
    pub skipped: u32,
}

impl Consumer {
    /// A consumer at offset 0.
    pub fn new(inbox: bool) -> Self {
        Consumer {
            inbox,
            ..Consumer::default()
        }
    }

    /// Reads the record of `event`; whether it applied it (false: the inbox skipped it).
    pub fn read(&mut self, event: EventId) -> bool {
        self.next_offset += 1;
        let e = event as usize;
        if self.applied.len() <= e {
            self.applied.resize(e + 1, 0);
        }
        if self.inbox && self.applied[e] > 0 {
            self.skipped += 1;
            return false;
        }
        self.applied[e] += 1;
        true
    }

    /// Times `event` was applied.
    pub fn times(&self, event: EventId) -> u32 {
        self.applied.get(event as usize).copied().unwrap_or(0)
    }
}
