//! Running one schedule through another model, for "TOCTOU next to atomic on the same schedule".
//! Where the other model makes a request wait for a lock, its step is deferred until the lock is
//! free and the wait is reported, so the learner sees what the lock changed.

use super::model::{LabScenario, RequestStatus};
use super::stepper::Stepper;

/// A step of the intended schedule that had to wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    /// 0-based position in the intended schedule.
    pub position: usize,
    /// The request that waited.
    pub request: usize,
    /// The request holding the lock then.
    pub holder: usize,
}

/// The intended schedule as the other model ran it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adapted {
    /// The run, its schedule the closest valid one to the intended schedule.
    pub run: Stepper,
    /// Steps that waited for a lock.
    pub waits: Vec<Wait>,
    /// Entries of the intended schedule that could not run at all (a request with no steps left).
    pub dropped: Vec<usize>,
    /// Entries still waiting for a lock when the intended schedule ends (its prefix is shorter
    /// than a complete run, and the holder has not released yet).
    pub waiting: Vec<usize>,
}

/// Runs `intended` (0-based) in `scenario`, deferring blocked steps until they can run.
pub fn adapt_schedule(scenario: LabScenario, intended: &[usize]) -> Adapted {
    let mut run = Stepper::new(scenario);
    let mut waits = Vec::new();
    let mut dropped = Vec::new();
    // (position in intended, request) of entries not yet run, in intended order.
    let mut pending: Vec<(usize, usize)> = Vec::new();
    let mut feed = intended.iter().copied().enumerate();
    loop {
        // Run the earliest pending entry that can move; repeat until none can.
        let mut progressed = true;
        while progressed {
            progressed = false;
            let mut i = 0;
            while i < pending.len() {
                let (position, r) = pending[i];
                match run.status(r) {
                    Some(RequestStatus::Ready { .. } | RequestStatus::Returned { .. }) => {
                        pending.remove(i);
                        // `status` said it can move, so this cannot fail; an error would only
                        // mean the entry is dropped.
                        if run.step(r).is_err() {
                            dropped.push(position);
                        }
                        progressed = true;
                        break;
                    }
                    Some(RequestStatus::Blocked { holder }) => {
                        if !waits.iter().any(|w: &Wait| w.position == position) {
                            waits.push(Wait {
                                position,
                                request: r,
                                holder,
                            });
                        }
                        i += 1;
                    }
                    Some(RequestStatus::Finished { .. }) | None => {
                        pending.remove(i);
                        dropped.push(position);
                    }
                }
            }
        }
        match feed.next() {
            Some(entry) => pending.push(entry),
            None => break,
        }
    }
    Adapted {
        run,
        waits,
        dropped,
        waiting: pending.iter().map(|(position, _)| *position).collect(),
    }
}
