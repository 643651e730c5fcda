//! The small context every part of the world acts on: the clock, the step count, the random
//! source, the queue of micro-events and the trace. The parts (the clients, the server, the card
//! processor, the relay, the consumer) own their state and act on this; the other parts one of
//! them needs are passed to it explicitly, or borrowed together for one micro-event (the
//! server's `Reach`, the clients' `Outbound`).

use crate::sim::base::pvec::PVec;
use crate::sim::base::rng::Rng;
use crate::sim::kernel::{EventQueue, TimerKey};

use super::trace::{EventKind, LaneSet, TraceEvent};
use super::Micro;

/// Time, randomness, what is queued and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Ctx {
    /// Simulated time, ms.
    pub now: u64,
    /// Steps taken.
    pub steps: usize,
    /// The world's one random source, seeded by its settings.
    pub rng: Rng,
    /// Micro-events waiting, by (time, insertion).
    pub queue: EventQueue<Micro>,
    /// Every event so far.
    pub trace: PVec<TraceEvent>,
    /// The lanes the trace has events on (kept as events are added: the trace is long).
    pub lanes: LaneSet,
}

impl Ctx {
    /// At time 0, nothing queued, nothing traced.
    pub fn new(seed: u64) -> Ctx {
        Ctx {
            now: 0,
            steps: 0,
            rng: Rng::new(seed),
            queue: EventQueue::new(),
            trace: PVec::new(),
            lanes: LaneSet::default(),
        }
    }

    /// Queues a micro-event; returns its queue key so it can be cancelled.
    pub fn schedule(&mut self, at_ms: u64, micro: Micro) -> TimerKey {
        debug_assert!(at_ms >= self.now, "a micro-event scheduled in the past");
        self.queue.schedule(at_ms, micro)
    }

    /// Queues a micro-event `ms` from now.
    pub fn after(&mut self, ms: u64, micro: Micro) -> TimerKey {
        self.schedule(self.now.saturating_add(ms), micro)
    }

    /// Removes a queued micro-event (a timer that is no longer needed).
    pub fn cancel(&mut self, key: TimerKey) {
        self.queue.cancel(key);
    }

    /// Records an event of the step being taken.
    pub fn emit(&mut self, kind: EventKind) {
        self.lanes = self.lanes.with_event(&kind);
        self.trace.push(TraceEvent {
            step: self.steps.saturating_add(1),
            time_ms: self.now,
            kind,
        });
    }
}
