//! What lies beyond the server: a card processor with a latency of its own, and the key store's
//! failures. Every setting defaults to the article's world (the charge is the database's debit,
//! inside the server's transaction; the store never fails), so every run made before these
//! settings existed gives the same trace.
//!
//! - **Processor latency** (`processor_ms` > 0): the charge is a call to a card processor. The
//!   processor moves the money when the call arrives, outside the server's transaction (a crash
//!   cannot roll it back), and its answer reaches the server `processor_ms` later (`slow_ms` for
//!   an attempt with `Fault::ProcessorSlow`). A production service's in-flight lock can expire
//!   meanwhile (rocket-rides' 90 s `IDEMPOTENCY_KEY_LOCK_TIMEOUT`,
//!   <https://github.com/brandur/rocket-rides-atomic/blob/master/api.rb>), and a retry that takes
//!   the key over calls the processor again.
//! - **Key passed on** (`pass_key`): the call carries the request's key and the processor
//!   replays the answer it saved for a key instead of charging again, as Stripe's API does for
//!   its own callers ("Retries with the same key return the saved response",
//!   <https://docs.stripe.com/api/idempotent_requests>).
//! - **Recovery points** (`recovery_points`, the production service): rocket-rides-atomic's
//!   atomic phases: once the processor has answered, the server commits that answer under the
//!   key (`RecoveryPoint.new(RECOVERY_POINT_CHARGE_CREATED)`), and a later request that takes the
//!   key over resumes from it instead of calling the processor again (api.rb's `loop do case
//!   key.recovery_point`). It fixes a worker that died after the charge; it cannot fix a worker
//!   that is only slow, whose answer is not recorded yet when the lock expires.
//! - **Key store capacity** (`store_capacity`, the split store): a cache holding at most that
//!   many keys evicts one when a write goes past it, before its time, as Redis does under
//!   `maxmemory` with `allkeys-lru` (<https://redis.io/docs/reference/eviction>); here the least
//!   recently written key goes.
//! - **Key store outage** (`Fault::StoreUnreachable`, `outage`): a split store's service fails
//!   open (charges without the check) or closed (503, retry later); a database that holds the
//!   keys and the balance together cannot be skipped, so those services answer 503.

use super::ctx::Ctx;
use super::intern::{DescId, KeyId, OpId};
use super::store::Db;
use super::trace::{ChargeFailure, EventKind};
use crate::sim::article::PaymentResult;
use crate::sim::base::pmap::PMap;
use crate::sim::limits::{
    check_duration, DurationField, InputError, MAX_AMOUNT, MAX_PROCESSOR_MS, MAX_STORE_CAPACITY,
    MIN_AMOUNT,
};

/// rocket-rides' example: a card processor that answers after 120 s, longer than the 90 s lock.
pub const DEFAULT_SLOW_MS: u64 = 120_000;

/// What a service with keys in a separate store does when the store cannot be reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutagePolicy {
    /// Refuse with 503 and let the client retry later: no charge without the check. AWS
    /// Lambda Powertools does this: a store it cannot write fails the invocation with
    /// `IdempotencyPersistenceLayerError` ("Failed to save in progress record to idempotency
    /// store", <https://github.com/aws-powertools/powertools-lambda-typescript/issues/2915>).
    #[default]
    FailClosed,
    /// Charge without the check (and without writing the key): availability first. No system
    /// cited here documents it as its default; it is the cache-aside shortcut the lesson warns of.
    FailOpen,
}

impl OutagePolicy {
    /// Both policies, in menu order.
    pub const ALL: [OutagePolicy; 2] = [OutagePolicy::FailClosed, OutagePolicy::FailOpen];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::FailClosed => "fail-closed",
            Self::FailOpen => "fail-open",
        }
    }
}

/// The world beyond the server (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Downstream {
    /// The processor's answer time; 0: no processor, the charge is the database's debit.
    pub processor_ms: u64,
    /// The answer time of a call whose attempt has `Fault::ProcessorSlow`.
    pub slow_ms: u64,
    /// The server passes the request's key on to the processor, which replays a known key.
    pub pass_key: bool,
    /// The production service commits a recovery point after the processor answers.
    pub recovery_points: bool,
    /// The split store's cache holds at most this many keys; 0: no limit.
    pub store_capacity: u32,
    /// What the split store's service does when its cache cannot be reached.
    pub outage: OutagePolicy,
}

impl Default for Downstream {
    fn default() -> Self {
        Self {
            processor_ms: 0,
            slow_ms: DEFAULT_SLOW_MS,
            pass_key: false,
            recovery_points: false,
            store_capacity: 0,
            outage: OutagePolicy::FailClosed,
        }
    }
}

impl Downstream {
    /// Checks every setting against its limit.
    pub fn validate(&self) -> Result<(), InputError> {
        check_duration(
            DurationField::ProcessorLatency,
            self.processor_ms,
            0,
            MAX_PROCESSOR_MS,
        )?;
        check_duration(
            DurationField::ProcessorSlow,
            self.slow_ms,
            1,
            MAX_PROCESSOR_MS,
        )?;
        if self.store_capacity > MAX_STORE_CAPACITY {
            return Err(InputError::StoreCapacityOutOfRange {
                capacity: self.store_capacity,
                max: MAX_STORE_CAPACITY,
            });
        }
        Ok(())
    }

    /// Whether the charge is a call to a processor with a latency of its own.
    pub fn has_processor(&self) -> bool {
        self.processor_ms > 0
    }
}

/// Where a job stands with the processor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) enum ProcState {
    /// Not called.
    #[default]
    Idle,
    /// Called; its answer is on the way.
    Waiting(PaymentResult),
    /// Its answer reached the server (or the job resumed from a recovery point).
    Returned(PaymentResult),
}

/// Evicts the least recently written keys while the cache holds more than `capacity` keys (0:
/// no limit).
pub(super) fn evict_over_capacity(ctx: &mut Ctx, db: &mut Db, capacity: u32) {
    let cap = capacity as usize;
    if cap == 0 {
        return;
    }
    while db.rows.len() > cap {
        let Some(key) = db.rows.get(0).map(|r| r.key) else {
            return;
        };
        db.remove(key);
        ctx.emit(EventKind::KeyEvicted { key });
    }
}

/// One charge a job asks of the processor.
#[derive(Clone, Copy)]
pub(super) struct Call {
    pub op: OpId,
    pub key: KeyId,
    pub op_key: KeyId,
    pub fault: super::fault::Fault,
    pub amount: i64,
    pub desc: DescId,
    /// The account the charge debits.
    pub account: u32,
}

/// The card processor: its saved answers by key id, for keys passed on to it (Stripe's own
/// idempotency on its side of the wire).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Processor {
    keys: PMap<u32, PaymentResult>,
}

impl Processor {
    /// Its saved answer for `key`, if the key was passed on.
    pub(super) fn answer_for(&self, key: KeyId) -> Option<&PaymentResult> {
        self.keys.get(&key.0)
    }

    /// Charges `call`: the saved answer of a passed key, a processor error, or the money moved
    /// (the balance and the ledger in `db`); with the event id of a committed charge.
    pub(super) fn charge(
        &mut self,
        ctx: &mut Ctx,
        db: &mut Db,
        settings: &Downstream,
        call: Call,
    ) -> (PaymentResult, Option<u64>) {
        debug_assert!(
            (MIN_AMOUNT..=MAX_AMOUNT).contains(&call.amount),
            "the processor is asked to charge a valid amount"
        );
        let pass = settings.pass_key;
        ctx.emit(EventKind::ProcessorCall {
            op: call.op,
            key_passed: pass,
        });
        let saved = if pass {
            self.keys.get(&call.key.0).cloned()
        } else {
            None
        };
        let (result, committed) = if let Some(first) = saved {
            ctx.emit(EventKind::ProcessorReplay { op: call.op });
            (first, None)
        } else if call.fault == super::fault::Fault::ProcessorError {
            ctx.emit(EventKind::ChargeFailed {
                op: call.op,
                failure: ChargeFailure::ProcessorError,
            });
            (PaymentResult::ProcessorError, None)
        } else {
            debit(ctx, db, call)
        };
        if pass {
            self.keys.insert(call.key.0, result.clone());
        }
        (result, committed)
    }
}

/// The processor charges `call.account` `call.amount` for `call.desc`: the balance moves and the
/// ledger records it, unless the funds are short.
fn debit(ctx: &mut Ctx, db: &mut Db, call: Call) -> (PaymentResult, Option<u64>) {
    let balance = db.balance(call.account);
    match balance
        .checked_sub(call.amount)
        .filter(|_| balance >= call.amount)
    {
        None => {
            ctx.emit(EventKind::ChargeFailed {
                op: call.op,
                failure: ChargeFailure::InsufficientFunds { balance },
            });
            (PaymentResult::InsufficientFunds { balance }, None)
        }
        Some(after) => {
            let id = db.event_id();
            db.set_balance(call.account, after);
            db.ledger.push(super::store::LedgerEntry {
                account: call.account,
                step: ctx.steps.saturating_add(1),
                key: Some(call.op_key),
                op: call.op,
                amount: call.amount,
                description: call.desc,
                event_id: id,
            });
            ctx.emit(EventKind::ProcessorCharge {
                op: call.op,
                amount: call.amount,
                balance_after: after,
            });
            (PaymentResult::Success { balance: after }, Some(id))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_article_and_limits_hold() {
        let d = Downstream::default();
        assert!(!d.has_processor());
        assert_eq!(d.validate(), Ok(()));
        assert!(Downstream {
            processor_ms: MAX_PROCESSOR_MS + 1,
            ..d
        }
        .validate()
        .is_err());
        assert!(Downstream { slow_ms: 0, ..d }.validate().is_err());
        assert_eq!(
            Downstream {
                store_capacity: MAX_STORE_CAPACITY + 1,
                ..d
            }
            .validate(),
            Err(InputError::StoreCapacityOutOfRange {
                capacity: MAX_STORE_CAPACITY + 1,
                max: MAX_STORE_CAPACITY
            })
        );
        assert_eq!(
            OutagePolicy::ALL.map(OutagePolicy::id),
            ["fail-closed", "fail-open"]
        );
    }
}
