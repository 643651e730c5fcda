//! What must hold after every step, each remembered with the first step that broke it. All are
//! checked on every run, so a run shows which one its settings break; [`Invariant::promised`]
//! says whether the settings promise it at all (Kafka promises the first two only with
//! idempotence on and at most 5 in flight, within one producer session; the third needs a
//! `transactional.id`; the last holds only when the consumer keeps an inbox).

use super::broker::LogRecord;
use super::{Input, KafkaScenario, NUM_BATCHES_TO_RETAIN};

/// An invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invariant {
    /// The producer never writes one `send()` twice: no record appended twice by its own
    /// retries in one producer session (one instance: its id, and the epochs it bumps itself).
    /// The relay sending an event again after the producer reported a failure is a new
    /// `send()`, outside this promise.
    NoDuplicateInSession,
    /// Events reach the log in the order the application sent them.
    SendOrder,
    /// No write accepted from an epoch older than the coordinator's for its transactional id.
    NoFencedWrite,
    /// Downstream, each outbox event applied once.
    AppliedOnce,
}

impl Invariant {
    /// All of them, in the order the page lists them.
    pub const ALL: [Invariant; 4] = [
        Invariant::NoDuplicateInSession,
        Invariant::SendOrder,
        Invariant::NoFencedWrite,
        Invariant::AppliedOnce,
    ];

    /// Whether this run's settings promise it: where they do not, a page shows "not promised
    /// here" rather than a tick beside a duplicate. Kafka's idempotence holds only while the
    /// broker remembers the producer, so a run where it forgets them promises neither of the
    /// first two.
    pub fn promised(self, s: &KafkaScenario) -> bool {
        let c = &s.config;
        match self {
            Invariant::NoDuplicateInSession | Invariant::SendOrder => {
                c.idempotence
                    && usize::from(c.max_in_flight) <= NUM_BATCHES_TO_RETAIN
                    && !s.inputs.iter().any(|t| t.input == Input::ExpireProducers)
            }
            Invariant::NoFencedWrite => c.transactional_id,
            Invariant::AppliedOnce => c.inbox,
        }
    }
}

/// The first step that broke each invariant (`None`: it holds so far).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Violations {
    first: [Option<usize>; 4],
}

impl Violations {
    /// The step that first broke `inv`, if any.
    pub fn broken_at(&self, inv: Invariant) -> Option<usize> {
        self.first[inv as usize]
    }

    fn mark(&mut self, inv: Invariant, step: usize) {
        let slot = &mut self.first[inv as usize];
        if slot.is_none() {
            *slot = Some(step);
        }
    }

    /// Checks the record just appended (the last of `log`) at `step`; `coordinator_epoch` is
    /// the transaction coordinator's epoch for the record's producer id, if it has one.
    pub fn check_append(&mut self, log: &[LogRecord], step: usize, coordinator_epoch: Option<u16>) {
        let Some((last, before)) = log.split_last() else {
            return;
        };
        if before
            .iter()
            .any(|r| r.writer == last.writer && r.pid == last.pid && r.batch == last.batch)
        {
            self.mark(Invariant::NoDuplicateInSession, step);
        }
        let first_time = !before.iter().any(|r| r.event == last.event);
        if first_time && before.iter().any(|r| r.event > last.event) {
            self.mark(Invariant::SendOrder, step);
        }
        if coordinator_epoch.is_some_and(|e| last.epoch < e) {
            self.mark(Invariant::NoFencedWrite, step);
        }
    }

    /// Checks the consumer after it applied an event `times` times in all, at `step`.
    pub fn check_applied(&mut self, times: u32, step: usize) {
        if times > 1 {
            self.mark(Invariant::AppliedOnce, step);
        }
    }
}
