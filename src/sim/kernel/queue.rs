//! An event queue ordered by (simulated ms, insertion order): two events due at the same time
//! run in the order they were scheduled, so a run is the same on every machine. A timer is
//! cancelled by the key [`EventQueue::schedule`] returned (the shape of quinn-proto's
//! `TimerTable`, grown to any number of timers).
//!
//! The events wait in a `VecDeque` kept sorted by key: the earliest leaves from the front, and a
//! new event, almost always due later than those waiting, goes in near the back after a binary
//! search. A `BTreeMap` did the same with more code: 4.5 KB gzip on the durable page, which has
//! no other, and a share of every page's download.

use std::collections::VecDeque;

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
    /// Sorted by key, earliest first; keys are unique (each has its own `seq`).
    events: VecDeque<(TimerKey, E)>,
    inserted: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            events: VecDeque::new(),
            inserted: 0,
        }
    }
}

impl<E> EventQueue<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Where `key` is, or would go.
    fn find(&self, key: TimerKey) -> Result<usize, usize> {
        self.events.binary_search_by(|(k, _)| k.cmp(&key))
    }

    /// Schedules `event` at `at_ms`, after every event already due then; its key cancels it.
    pub fn schedule(&mut self, at_ms: u64, event: E) -> TimerKey {
        let key = TimerKey {
            at_ms,
            seq: self.inserted,
        };
        self.inserted += 1;
        // A new key's seq is the largest yet, so it is never found: `Err` is its place.
        let at = self.find(key).unwrap_or_else(|i| i);
        debug_assert!(self.events.get(at).is_none_or(|(k, _)| *k > key));
        self.events.insert(at, (key, event));
        key
    }

    /// Removes the event of `key`, if it is still waiting.
    pub fn cancel(&mut self, key: TimerKey) -> Option<E> {
        let i = self.find(key).ok()?;
        self.events.remove(i).map(|(_, e)| e)
    }

    /// Takes the earliest event, with its time.
    pub fn pop(&mut self) -> Option<(u64, E)> {
        self.events.pop_front().map(|(k, e)| (k.at_ms, e))
    }

    /// The earliest event, without taking it.
    pub fn peek(&self) -> Option<(TimerKey, &E)> {
        self.events.front().map(|(k, e)| (*k, e))
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
        self.events.retain(|(k, e)| keep(*k, e));
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

    /// The order a `BTreeMap` by key gives (what the queue was before), over a seeded mix of
    /// schedules at past-the-front, tied and later times, cancels and pops.
    #[test]
    fn a_long_mix_of_schedules_cancels_and_pops_keeps_the_order_of_a_sorted_map() {
        use std::collections::BTreeMap;
        let mut rng = crate::sim::base::rng::Rng::new(7);
        let (mut q, mut model) = (EventQueue::new(), BTreeMap::new());
        let (mut now, mut keys) = (0u64, Vec::new());
        for n in 0..5_000u32 {
            match rng.below_inclusive(9) {
                0..=4 => {
                    let at = now + rng.below_inclusive(50);
                    let k = q.schedule(at, n);
                    model.insert(k, n);
                    keys.push(k);
                }
                5 if !keys.is_empty() => {
                    let k = keys.swap_remove(rng.below_inclusive(keys.len() as u64 - 1) as usize);
                    assert_eq!(q.cancel(k), model.remove(&k));
                }
                6 => q.retain(|k, e| {
                    let keep = e % 7 != 0;
                    if !keep {
                        model.remove(&k);
                    }
                    keep
                }),
                _ => {
                    let want = model.pop_first().map(|(k, e)| (k.at_ms, e));
                    let got = q.pop();
                    assert_eq!(got, want);
                    if let Some((at, _)) = got {
                        now = at;
                    }
                }
            }
            assert_eq!(q.len(), model.len());
            assert_eq!(
                q.peek().map(|(k, e)| (k, *e)),
                model.first_key_value().map(|(k, e)| (*k, *e))
            );
        }
        assert!(q.iter().map(|(k, e)| (k, *e)).eq(model.into_iter()));
    }
}
