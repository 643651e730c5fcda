//! What a fork may change that no other input does: the fault of an attempt not yet past. A fork
//! is an input pushed at a step (the scenario's `branch`, run by `Session` at that step); this
//! file checks such a change against the world at that step and applies it at once, so no event
//! of the attempt can run between the check and the change.

use super::fault::Fault;
use super::input::Input;
use super::{Micro, World};
use crate::sim::limits::InputError;

impl World {
    /// Whether `input` can be pushed now, as far as the world's state decides: a fault change
    /// names an operation the world has and an attempt whose request has not reached the server.
    pub(super) fn check_fork(&self, input: &Input) -> Result<(), InputError> {
        let Input::SetFault { op, attempt, .. } = *input else {
            return Ok(());
        };
        let count = u32::try_from(self.clients.results.len()).unwrap_or(u32::MAX);
        let (Some(result), Some(plan)) = (
            self.clients.results.get(op as usize),
            self.clients.plans.get(op as usize),
        ) else {
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
            Some(ix) if self.in_network(ix) => Ok(()),
            _ => Err(InputError::FaultTooLate { op, attempt }),
        }
    }

    /// Applies a fault change checked by [`World::check_fork`].
    pub(super) fn set_fault(&mut self, op: u32, attempt: u32, fault: Fault) {
        let sent = self
            .clients
            .results
            .get(op as usize)
            .is_some_and(|r| attempt <= r.attempts);
        if sent {
            if let Some(ix) = self.attempt_index(op, attempt) {
                if let Some(rec) = self.clients.attempts.get_mut(ix) {
                    rec.fault = fault;
                }
            }
        } else if let Some(plan) = self.clients.plans.get_mut(op as usize) {
            let at = attempt.saturating_sub(1) as usize;
            if plan.faults.len() <= at {
                plan.faults.resize(at + 1, Fault::None);
            }
            plan.faults[at] = fault;
        }
    }

    /// The attempts whose request is on its way to the server now, as (operation, attempt,
    /// fault), in the order they will arrive: the attempts a fork can still change.
    pub fn attempts_in_network(&self) -> Vec<(u32, u32, Fault)> {
        self.ctx
            .queue
            .iter()
            .map(|(_, m)| m)
            .filter_map(|m| match m {
                Micro::Arrive { attempt } => self.clients.attempts.get(*attempt as usize),
                _ => None,
            })
            .map(|a| (a.op.0, a.n, a.fault))
            .collect()
    }

    /// The index of attempt `attempt` of operation `op` among every attempt sent.
    fn attempt_index(&self, op: u32, attempt: u32) -> Option<usize> {
        self.clients
            .attempts
            .iter()
            .rposition(|a| a.op.0 == op && a.n == attempt)
    }

    /// Whether attempt `ix`'s request is still on its way to the server.
    fn in_network(&self, ix: usize) -> bool {
        self.ctx
            .queue
            .iter()
            .any(|(_, m)| matches!(m, Micro::Arrive { attempt } if *attempt as usize == ix))
    }
}
