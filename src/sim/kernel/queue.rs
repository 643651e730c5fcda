//! An event queue ordered by (simulated ms, insertion order): two events due at the same time
//! run in the order they were scheduled, so a run is the same on every machine. A timer is
//! cancelled by the key [`EventQueue::schedule`] returned (the shape of quinn-proto's
//! `TimerTable`, grown to any number of timers).

use std::collections::BTreeMap;

/// The key of one scheduled event: its time and its insertion number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimerKey {
    /// When it is due, in simulated ms.
    pub at_ms: u64,
    /// Its insertion number (ties at one time run in this order).
    pub seq: u64,
}

/// Events waiting, earliest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventQueue<E> {
    events: BTreeMap<TimerKey, E>,
    inserted: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            events: BTreeMap::new(),
            inserted: 0,
        }
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules `event` at `at_ms`, after every event already due then; its key cancels it.
    pub fn schedule(&mut self, at_ms: u64, event: E) -> TimerKey {
        let key = TimerKey {
            at_ms,
            seq: self.inserted,
        };
        self.inserted += 1;
        self.events.insert(key, event);
        key
    }

    /// Removes the event of `key`, if it is still waiting.
    pub fn cancel(&mut self, key: TimerKey) -> Option<E> {
        self.events.remove(&key)
    }

    /// Takes the earliest event, with its time.
    pub fn pop(&mut self) -> Option<(u64, E)> {
        self.events.pop_first().map(|(k, e)| (k.at_ms, e))
    }

    /// The earliest event, without taking it.
    pub fn peek(&self) -> Option<(TimerKey, &E)> {
        self.events.first_key_value().map(|(k, e)| (*k, e))
    }

    /// Events waiting.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The events waiting, earliest first.
    pub fn iter(&self) -> impl Iterator<Item = (TimerKey, &E)> {
        self.events.iter().map(|(k, e)| (*k, e))
    }

    /// Keeps only the events for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(TimerKey, &E) -> bool) {
        self.events.retain(|k, e| keep(*k, e));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_ties_in_insertion_order_and_a_cancelled_timer_never_fires() {
        let mut q = EventQueue::new();
        q.schedule(20, "late");
        let a = q.schedule(10, "first");
        q.schedule(10, "second");
        let gone = q.schedule(15, "cancelled");
        assert_eq!(q.cancel(gone), Some("cancelled"));
        assert_eq!(q.cancel(gone), None);
        assert_eq!(q.peek().map(|(k, e)| (k, *e)), Some((a, "first")));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, [(10, "first"), (10, "second"), (20, "late")]);
        assert!(q.is_empty());
    }
}
