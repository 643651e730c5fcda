//! What a world's inputs may cost, counted when each input is added (a scenario's script at
//! construction, then each push), so that no accepted run can outgrow its limits while it runs:
//! a run that would be refused part-way is refused before it starts, with the limit named.
//!
//! The bound is on trace events (every step emits at least one, so it bounds steps too), summed
//! from what each input can do at most: every attempt emits at most [`EVENTS_PER_ATTEMPT`]
//! events, and a relay tick publishes, delivers and marks at most every row committed (at most
//! one per attempt of the world, whenever that attempt runs). `tests/sim_props.rs` checks the bound against
//! random runs of every service.

use super::client::RetryPolicy;
use super::input::Input;
use crate::sim::limits::{InputError, MAX_ATTEMPTS, MAX_TRACE_EVENTS};

/// Most trace events one attempt can cause, everywhere it goes: the client's send, the
/// network's delivery or loss both ways, the server's check, charge, record writes, commits or
/// rollback, crash, a dual write's publish and its consumer's delivery, the client's timeout and
/// its retry or surrender, and the key's later expiry. Counted from `EventKind`: about 15 at
/// most (writes and commits come more than once in the TOCTOU service's three critical sections
/// and the production service's in-flight record); 24 leaves a margin that `tests/sim_props.rs`
/// checks against random runs.
pub const EVENTS_PER_ATTEMPT: u64 = 24;
/// Events of one relay tick besides its rows: the poll (or "busy") and a crash.
const RELAY_TICK_EVENTS: u64 = 2;
/// Events per outbox row in one relay tick: publish, the consumer's delivery, mark.
const RELAY_ROW_EVENTS: u64 = 3;

/// The running bound of a world's inputs, in the order they were added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Budget {
    /// Trace events the inputs so far can cause at most, relay ticks' rows apart.
    events: u64,
    /// Attempts the inputs so far can make at most.
    attempts: u64,
    /// Relay ticks so far. Each is costed against every attempt of the world, before or after
    /// it: a world given a script and pushes runs a push at once, ahead of script inputs added
    /// earlier, so the order inputs were added in is not the order they run in.
    ticks: u64,
    /// Attempts the latest operation can make at most, hand-made retries included (a retry
    /// applies to the latest operation); `None` before the first.
    latest_op_attempts: Option<u32>,
}

impl Budget {
    /// Counts `input` in, or refuses it (leaving the budget as it was) when it would let the
    /// run exceed a limit: a hand-made retry past `MAX_ATTEMPTS`, or more than
    /// `MAX_TRACE_EVENTS` events.
    pub(super) fn admit(&mut self, input: &Input) -> Result<(), InputError> {
        let mut next = *self;
        let attempts = match input {
            Input::Request { .. } => {
                next.latest_op_attempts = Some(1);
                1
            }
            Input::Operation {
                max_attempts,
                retry,
                ..
            } => {
                // Without a retry policy the client gives up after its first attempt.
                let n = if *retry == RetryPolicy::None {
                    1
                } else {
                    *max_attempts
                };
                next.latest_op_attempts = Some(n);
                u64::from(n)
            }
            Input::Parallel { requests, .. } => {
                next.latest_op_attempts = Some(1);
                requests.len() as u64
            }
            Input::Retry { .. } => match self.latest_op_attempts {
                // Ignored when no operation exists yet.
                None => 0,
                Some(n) if n >= MAX_ATTEMPTS => {
                    return Err(InputError::RetryOverAttemptLimit {
                        attempt: n.saturating_add(1),
                        max: MAX_ATTEMPTS,
                    })
                }
                Some(n) => {
                    next.latest_op_attempts = Some(n + 1);
                    1
                }
            },
            // A fork's fault change and crash emit one event of their own; a killed request's
            // crash stands in for what it would have done next, within its attempt's share.
            Input::AdvanceTime { .. }
            | Input::Deposit { .. }
            | Input::SetFault { .. }
            | Input::Crash => {
                next.events = next.events.saturating_add(1);
                0
            }
            Input::RelayTick { .. } => {
                next.ticks = next.ticks.saturating_add(1);
                next.events = next.events.saturating_add(RELAY_TICK_EVENTS);
                0
            }
        };
        next.attempts = next.attempts.saturating_add(attempts);
        next.events = next
            .events
            .saturating_add(attempts.saturating_mul(EVENTS_PER_ATTEMPT));
        let events = next.events();
        if events > MAX_TRACE_EVENTS as u64 {
            return Err(InputError::TooMuchWork {
                events,
                max: MAX_TRACE_EVENTS,
            });
        }
        *self = next;
        Ok(())
    }

    /// The bound so far: every relay tick publishes, delivers and marks at most one row per
    /// attempt of the world.
    pub(super) fn events(&self) -> u64 {
        let rows = self.attempts.saturating_mul(RELAY_ROW_EVENTS);
        self.events.saturating_add(self.ticks.saturating_mul(rows))
    }

    /// The budget of `inputs` added in order, or the first refusal.
    pub(super) fn of(inputs: &[Input]) -> Result<Budget, InputError> {
        let mut b = Budget::default();
        inputs.iter().try_for_each(|i| b.admit(i))?;
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::world::fault::Fault;

    fn retry() -> Input {
        Input::Retry {
            new_key: false,
            fault: Fault::None,
        }
    }

    #[test]
    fn a_retry_past_the_attempt_limit_is_refused_when_added() {
        let mut b = Budget::default();
        b.admit(&retry()).expect("no operation yet: ignored");
        b.admit(&Input::Deposit { amount: 5 }).unwrap();
        b.admit(&Input::Operation {
            amount: 1,
            description: String::new(),
            key_format: Default::default(),
            key_strategy: Default::default(),
            retry: RetryPolicy::Immediate,
            max_attempts: MAX_ATTEMPTS - 1,
            faults: Vec::new(),
        })
        .unwrap();
        b.admit(&retry()).expect("attempt 20");
        let before = b;
        assert_eq!(
            b.admit(&retry()),
            Err(InputError::RetryOverAttemptLimit {
                attempt: MAX_ATTEMPTS + 1,
                max: MAX_ATTEMPTS
            })
        );
        assert_eq!(b, before, "a refused input leaves the budget as it was");
    }

    #[test]
    fn relay_ticks_count_every_row_so_far() {
        let mut b = Budget::default();
        let tick = Input::RelayTick {
            crash_after_publish: true,
        };
        b.admit(&tick).unwrap();
        assert_eq!(b.events(), RELAY_TICK_EVENTS);
        b.admit(&retry()).unwrap();
        assert_eq!(
            b.events(),
            RELAY_TICK_EVENTS,
            "a retry of nothing costs nothing"
        );
        let parallel = Input::Parallel {
            requests: vec![
                crate::sim::world::input::RequestSpec {
                    key: None,
                    key_format: Default::default(),
                    amount: 1,
                    description: String::new(),
                    fault: Fault::None,
                };
                3
            ],
            same_key: true,
        };
        b.admit(&parallel).unwrap();
        // The tick added before the requests may run after them (a pushed input runs at once),
        // so it is costed against them too.
        let after_requests = RELAY_TICK_EVENTS + 3 * EVENTS_PER_ATTEMPT + 3 * RELAY_ROW_EVENTS;
        assert_eq!(b.events(), after_requests);
        b.admit(&tick).unwrap();
        assert_eq!(
            b.events(),
            after_requests + RELAY_TICK_EVENTS + 3 * RELAY_ROW_EVENTS
        );
    }

    #[test]
    fn an_operation_without_retries_makes_one_attempt() {
        let op = |retry| Input::Operation {
            amount: 1,
            description: String::new(),
            key_format: Default::default(),
            key_strategy: Default::default(),
            retry,
            max_attempts: MAX_ATTEMPTS,
            faults: Vec::new(),
        };
        let mut b = Budget::default();
        b.admit(&op(RetryPolicy::None)).unwrap();
        assert_eq!(b.events(), EVENTS_PER_ATTEMPT);
        b.admit(&retry()).expect("attempt 2, not 21");
        let mut b = Budget::default();
        b.admit(&op(RetryPolicy::Immediate)).unwrap();
        assert!(b.admit(&retry()).is_err());
    }

    #[test]
    fn a_run_that_could_outgrow_the_trace_is_refused_before_it_starts() {
        let mut b = Budget::default();
        let op = Input::Operation {
            amount: 1,
            description: String::new(),
            key_format: Default::default(),
            key_strategy: Default::default(),
            retry: RetryPolicy::Immediate,
            max_attempts: MAX_ATTEMPTS,
            faults: Vec::new(),
        };
        let per_op = u64::from(MAX_ATTEMPTS) * EVENTS_PER_ATTEMPT;
        let fit = MAX_TRACE_EVENTS as u64 / per_op;
        for _ in 0..fit {
            b.admit(&op).unwrap();
        }
        assert_eq!(
            b.admit(&op),
            Err(InputError::TooMuchWork {
                events: (fit + 1) * per_op,
                max: MAX_TRACE_EVENTS
            })
        );
    }
}
