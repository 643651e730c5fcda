//! What a fork may change that no other input does: the fault of an attempt not yet past. A fork
//! is an input pushed at a step (the scenario's `branch`, run by `Session` at that step); this
//! file checks such a change against the clients' attempts and the queue at that step, and
//! applies it to the clients at once (`World::push_input`), so no event of the attempt can run
//! between the check and the change.

use super::client::Clients;
use super::ctx::Ctx;
use super::fault::Fault;
use super::Micro;
use crate::sim::limits::InputError;

impl Clients {
    /// Whether a fork may change the fault of attempt `attempt` of operation `op` now: it names
    /// an operation the clients have and an attempt whose request has not reached the server
    /// (still to be sent, or on its way in `ctx`'s queue).
    pub(super) fn check_fault_change(
        &self,
        ctx: &Ctx,
        op: u32,
        attempt: u32,
    ) -> Result<(), InputError> {
        let count = u32::try_from(self.results.len()).unwrap_or(u32::MAX);
        let (Some(result), Some(plan)) =
            (self.results.get(op as usize), self.plans.get(op as usize))
        else {
            return Err(InputError::NoSuchOperation { op, count });
        };
        if attempt > result.attempts {
            // Not sent yet: a later attempt the operation's client may still make.
            if attempt > plan.max_attempts {
                return Err(InputError::NoSuchAttempt {
                    op,
                    attempt,
                    max: plan.max_attempts,
                });
            }
            return Ok(());
        }
        match self.attempt_index(op, attempt) {
            Some(ix) if in_network(ctx, ix) => Ok(()),
            _ => Err(InputError::FaultTooLate { op, attempt }),
        }
    }

    /// Applies a fault change checked by [`Clients::check_fault_change`].
    pub(super) fn set_fault(&mut self, op: u32, attempt: u32, fault: Fault) {
        let sent = self
            .results
            .get(op as usize)
            .is_some_and(|r| attempt <= r.attempts);
        if sent {
            if let Some(ix) = self.attempt_index(op, attempt) {
                if let Some(rec) = self.attempts.get_mut(ix) {
                    rec.fault = fault;
                }
            }
        } else if let Some(plan) = self.plans.get_mut(op as usize) {
            let at = attempt.saturating_sub(1) as usize;
            if plan.faults.len() <= at {
                plan.faults.resize(at + 1, Fault::None);
            }
            plan.faults[at] = fault;
        }
    }

    /// The attempts whose request is on its way to the server now, as (operation, attempt,
    /// fault), in the order they will arrive: the attempts a fork can still change.
    pub(super) fn attempts_in_network(&self, ctx: &Ctx) -> Vec<(u32, u32, Fault)> {
        ctx.queue
            .iter()
            .map(|(_, m)| m)
            .filter_map(|m| match m {
                Micro::Arrive { attempt } => self.attempts.get(*attempt as usize),
                _ => None,
            })
            .map(|a| (a.op.0, a.n, a.fault))
            .collect()
    }

    /// The index of attempt `attempt` of operation `op` among every attempt sent.
    fn attempt_index(&self, op: u32, attempt: u32) -> Option<usize> {
        self.attempts
            .iter()
            .rposition(|a| a.op.0 == op && a.n == attempt)
    }
}

/// Whether attempt `ix`'s request is still on its way to the server.
fn in_network(ctx: &Ctx, ix: usize) -> bool {
    ctx.queue
        .iter()
        .any(|(_, m)| matches!(m, Micro::Arrive { attempt } if *attempt as usize == ix))
}
