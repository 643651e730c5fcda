//! Simulated clients: they mint keys, send attempts, time out, and retry by policy, reusing the
//! key (right) or minting a new one per retry (the common bug).

use super::account::Caller;
use super::ctx::Ctx;
use super::fault::Fault;
use super::intern::{DescId, Interner, KeyId, OpId};
use super::network::Network;
use super::trace::EventKind;
use super::Micro;
use crate::sim::article::PaymentResult;
use crate::sim::base::pvec::PVec;
use crate::sim::base::rng::Rng;
use crate::sim::base::uuidgen::{mint, KeyFormat};
use crate::sim::kernel::TimerKey;
use crate::sim::limits::{check_duration, DurationField, InputError, MAX_RETRY_DELAY_MS};

/// When a client retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RetryPolicy {
    /// Never.
    #[default]
    None,
    /// At once.
    Immediate,
    /// After a fixed delay.
    Fixed {
        /// Delay in simulated ms.
        delay_ms: u64,
    },
    /// Exponential backoff with full jitter: uniform in 0..=min(cap, base * 2^(n-1)).
    ExponentialJitter {
        /// First backoff ceiling.
        base_ms: u64,
        /// Largest backoff ceiling.
        cap_ms: u64,
    },
}

/// Which retry policy, without its delays: what a scenario's JSON names in `kind` and what the
/// sandbox's select offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RetryKind {
    /// [`RetryPolicy::None`].
    #[default]
    None,
    /// [`RetryPolicy::Immediate`].
    Immediate,
    /// [`RetryPolicy::Fixed`].
    Fixed,
    /// [`RetryPolicy::ExponentialJitter`].
    ExponentialJitter,
}

impl RetryKind {
    /// Every kind, in the order the JSON format lists them.
    pub const ALL: [RetryKind; 4] = [
        RetryKind::None,
        RetryKind::Immediate,
        RetryKind::Fixed,
        RetryKind::ExponentialJitter,
    ];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Immediate => "immediate",
            Self::Fixed => "fixed",
            Self::ExponentialJitter => "exponential-jitter",
        }
    }
}

impl RetryPolicy {
    /// The policy's kind.
    pub fn kind(&self) -> RetryKind {
        match self {
            Self::None => RetryKind::None,
            Self::Immediate => RetryKind::Immediate,
            Self::Fixed { .. } => RetryKind::Fixed,
            Self::ExponentialJitter { .. } => RetryKind::ExponentialJitter,
        }
    }

    /// Checks the delays against `MAX_RETRY_DELAY_MS`.
    pub fn validate(&self) -> Result<(), InputError> {
        match *self {
            Self::None | Self::Immediate => Ok(()),
            Self::Fixed { delay_ms } => {
                check_duration(DurationField::RetryDelay, delay_ms, 0, MAX_RETRY_DELAY_MS)
                    .map(|_| ())
            }
            Self::ExponentialJitter { base_ms, cap_ms } => {
                check_duration(DurationField::RetryBase, base_ms, 1, MAX_RETRY_DELAY_MS)?;
                check_duration(DurationField::RetryCap, cap_ms, base_ms, MAX_RETRY_DELAY_MS)
                    .map(|_| ())
            }
        }
    }

    /// The delay before retry number `retry` (1 for the first retry); `None` for no retry.
    pub fn delay(&self, retry: u32, rng: &mut Rng) -> Option<u64> {
        match *self {
            Self::None => None,
            Self::Immediate => Some(0),
            Self::Fixed { delay_ms } => Some(delay_ms),
            Self::ExponentialJitter { base_ms, cap_ms } => {
                let shift = retry.saturating_sub(1).min(63);
                let ceiling = base_ms
                    .checked_mul(1u64 << shift)
                    .map_or(cap_ms, |c| c.min(cap_ms));
                Some(rng.below_inclusive(ceiling))
            }
        }
    }
}

/// Whether a retry sends the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyStrategy {
    /// One key per logical operation, reused on every retry.
    #[default]
    Reuse,
    /// A fresh key per attempt: every retry looks like a new payment to the server.
    NewPerRetry,
}

impl KeyStrategy {
    /// Both strategies.
    pub const ALL: [KeyStrategy; 2] = [KeyStrategy::Reuse, KeyStrategy::NewPerRetry];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::Reuse => "reuse",
            Self::NewPerRetry => "new-per-retry",
        }
    }
}

/// What a client operation finally saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientOutcome {
    /// Still waiting or retrying.
    InProgress,
    /// Got this answer (possibly a retryable one, with no attempts left).
    Answered {
        /// The answer.
        result: PaymentResult,
    },
    /// Timed out on its last attempt: the client cannot tell what happened.
    TimedOut,
}

/// What one attempt of an operation came to, as its client saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// A reply in time: the client acted on it.
    Reply(PaymentResult),
    /// A reply after the client had timed out: received, and ignored.
    LateReply(PaymentResult),
    /// No reply before the client's timeout.
    TimedOut,
}

/// One thing a client saw of one of its attempts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeenAttempt {
    /// The attempt (1-based).
    pub attempt: u32,
    /// What came of it.
    pub outcome: AttemptOutcome,
}

/// A client operation as the UI shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientResult {
    /// The operation.
    pub op: OpId,
    /// Amount asked.
    pub amount: i64,
    /// Description.
    pub description: DescId,
    /// The key of the latest attempt.
    pub key: KeyId,
    /// Attempts sent so far.
    pub attempts: u32,
    /// Where it stands.
    pub outcome: ClientOutcome,
    /// Every reply and timeout the client saw, in order (at most two per attempt: a timeout,
    /// then a late reply), so two tries with two answers show both.
    pub seen: Vec<SeenAttempt>,
    /// `replayed[i]`: whether `seen[i]` was a stored result the server returned again rather
    /// than the request executed (Stripe's `Idempotent-Replayed: true`); false for a timeout.
    pub replayed: Vec<bool>,
}

/// The parts of an operation the UI does not need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OpPlan {
    pub(super) fingerprint: u64,
    pub(super) key_format: KeyFormat,
    pub(super) key_strategy: KeyStrategy,
    pub(super) retry: RetryPolicy,
    pub(super) max_attempts: u32,
    pub(super) faults: Vec<Fault>,
    /// Who sends it (issue 13).
    pub(super) caller: Caller,
}

/// One attempt in flight or done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AttemptRec {
    pub(super) op: OpId,
    pub(super) n: u32,
    pub(super) key: KeyId,
    pub(super) fault: Fault,
    /// The client is still waiting for this attempt.
    pub(super) live: bool,
    /// The reply on its way back.
    pub(super) response: Option<PaymentResult>,
    /// The reply on its way back is a replayed stored result.
    pub(super) replayed: bool,
    /// Queue key of the attempt's timeout, cancelled when the reply arrives in time.
    pub(super) timer: Option<TimerKey>,
    /// When the client sent it (a stamping client writes it into the body).
    pub(super) sent_at: u64,
    /// Where it stands on the wire, for its HTTP exchange (`exchange.rs`).
    pub(super) wire: Wire,
    /// The server's answer, kept once the reply has left (`response` is emptied on arrival).
    pub(super) answer: Option<PaymentResult>,
}

/// Where an attempt stands on the wire, for its HTTP exchange (`exchange.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Wire {
    /// The request is on its way to the server.
    #[default]
    Sent,
    /// The network dropped the request.
    RequestLost,
    /// The server has the request and has not answered yet.
    AtServer,
    /// The worker handling it died: no reply.
    Crashed,
    /// The reply is on its way back.
    Replied,
    /// The reply reached the client while it waited.
    Delivered,
    /// The reply reached the client after it had stopped waiting.
    Late,
    /// The network dropped the reply.
    ResponseLost,
}

/// Whether a reply invites a retry with the same key: 409 in flight, 409 after a serialization
/// failure, or 5xx. Judged by what the answer says, not by its status alone: rocket-rides also
/// answers a parameter mismatch with 409, which no retry can fix. rocket-rides-atomic's README
/// relies "on clients re-issuing the API request with the same `Idempotency-Key` header until
/// its results are definitive"; Stripe's own client retries a 409 and a 5xx with the same key
/// (stripe/stripe-ruby, `lib/stripe/api_requestor.rb`, `should_retry?`).
fn retryable(result: &PaymentResult) -> bool {
    matches!(
        result,
        PaymentResult::InFlightConflict | PaymentResult::RetryWithSameKey
    ) || result.http_status() >= 500
}

/// The clients' side of the world: what each operation was told, its plan and its attempts,
/// who is sending, and the link they send on (the network, the timeout per attempt).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Clients {
    /// What each operation's client was finally told.
    pub results: PVec<ClientResult>,
    /// Each operation's plan: key, retries, faults.
    pub plans: PVec<OpPlan>,
    /// Every attempt sent.
    pub attempts: PVec<AttemptRec>,
    /// The caller of the input being applied (an `Input::As`'s, else the default one).
    pub caller: Caller,
    /// Whether any input came from a caller of its own.
    pub callers_seen: bool,
    /// The accounts whose customers sent a charge or a deposit, one bit each (bit 0: account 0).
    pub accounts_seen: u8,
    /// The network their requests cross.
    network: Network,
    /// How long a client waits for each attempt.
    timeout_ms: u64,
}

/// What sending reaches beyond the clients' own state: the context and the interner the keys
/// go into.
pub(super) struct Outbound<'a> {
    pub ctx: &'a mut Ctx,
    pub interner: &'a mut Interner,
}

impl Outbound<'_> {
    /// Mints a key from the seeded RNG.
    pub(super) fn mint_key(&mut self, format: KeyFormat) -> Result<KeyId, InputError> {
        let uuid = mint(&mut self.ctx.rng, format, self.ctx.now);
        self.interner.uuid(uuid)
    }
}

impl Clients {
    /// Clients with no operations yet, sending over `network` and waiting `timeout_ms` for each
    /// attempt.
    pub(super) fn new(network: Network, timeout_ms: u64) -> Clients {
        Clients {
            results: PVec::new(),
            plans: PVec::new(),
            attempts: PVec::new(),
            caller: Caller::default(),
            callers_seen: false,
            accounts_seen: 0,
            network,
            timeout_ms,
        }
    }

    /// Starts an operation: registers it and sends its first attempt.
    pub(super) fn start_op(
        &mut self,
        out: &mut Outbound<'_>,
        key: Option<KeyId>,
        amount: i64,
        description: DescId,
        plan: OpPlan,
    ) -> Result<OpId, InputError> {
        let op = OpId(
            u32::try_from(self.results.len()).map_err(|_| InputError::Overflow {
                quantity: crate::sim::limits::Quantity::Ids,
            })?,
        );
        let key = match key {
            Some(k) => k,
            // A request without a key: the empty key stands for "none" (it is never valid).
            None if !plan.caller.sends_key => out.interner.text("")?,
            None => out.mint_key(plan.key_format)?,
        };
        self.results.push(ClientResult {
            op,
            amount,
            description,
            key,
            attempts: 0,
            outcome: ClientOutcome::InProgress,
            seen: Vec::new(),
            replayed: Vec::new(),
        });
        self.accounts_seen |= 1 << plan.caller.account;
        self.plans.push(plan);
        self.send_attempt(out, op)?;
        Ok(op)
    }

    /// Sends the operation's next attempt.
    pub(super) fn send_attempt(
        &mut self,
        out: &mut Outbound<'_>,
        op: OpId,
    ) -> Result<(), InputError> {
        let ix = op.0 as usize;
        let (Some(result), Some(plan)) = (self.results.get(ix), self.plans.get(ix)) else {
            return Ok(());
        };
        let n = result.attempts.saturating_add(1);
        let fault = plan
            .faults
            .get(result.attempts as usize)
            .copied()
            .unwrap_or_default();
        let (format, strategy) = (plan.key_format, plan.key_strategy);
        let amount = result.amount;
        let key = if n > 1 && strategy == KeyStrategy::NewPerRetry && plan.caller.sends_key {
            let k = out.mint_key(format)?;
            self.results[ix].key = k;
            k
        } else {
            self.results[ix].key
        };
        self.results[ix].attempts = n;
        let attempt = u32::try_from(self.attempts.len()).map_err(|_| InputError::Overflow {
            quantity: crate::sim::limits::Quantity::Ids,
        })?;
        self.attempts.push(AttemptRec {
            op,
            n,
            key,
            fault,
            live: true,
            response: None,
            replayed: false,
            timer: None,
            sent_at: out.ctx.now,
            wire: Wire::Sent,
            answer: None,
        });
        out.ctx.emit(EventKind::ClientSend {
            op,
            attempt: n,
            key,
            amount,
        });
        let delay = self.network.delay(&mut out.ctx.rng);
        out.ctx
            .schedule(out.ctx.now.saturating_add(delay), Micro::Arrive { attempt });
        let timer = out.ctx.schedule(
            out.ctx.now.saturating_add(self.timeout_ms),
            Micro::Timeout { attempt },
        );
        if let Some(rec) = self.attempts.get_mut(attempt as usize) {
            rec.timer = Some(timer);
        }
        Ok(())
    }

    /// A hand-made retry of the latest operation: one more attempt of the same operation, so the
    /// invariants judge it as what it is (a retry), with the same key or a newly minted one.
    pub(super) fn retry_last(
        &mut self,
        out: &mut Outbound<'_>,
        new_key: bool,
        fault: Fault,
    ) -> Result<(), InputError> {
        let Some(ix) = self.results.len().checked_sub(1) else {
            return Ok(());
        };
        let (Some(result), Some(plan)) = (self.results.get(ix), self.plans.get_mut(ix)) else {
            return Ok(());
        };
        let done = result.attempts;
        if done >= crate::sim::limits::MAX_ATTEMPTS {
            return Err(InputError::RetryOverAttemptLimit {
                attempt: done.saturating_add(1),
                max: crate::sim::limits::MAX_ATTEMPTS,
            });
        }
        // The plan's fault list is per attempt: pad the attempts already made, then this one.
        plan.faults.resize(done as usize, Fault::None);
        plan.faults.push(fault);
        plan.max_attempts = plan.max_attempts.max(done.saturating_add(1));
        // The learner is the retry policy now: no automatic retries on top.
        plan.retry = RetryPolicy::None;
        let format = plan.key_format;
        if new_key && plan.caller.sends_key {
            let k = out.mint_key(format)?;
            self.results[ix].key = k;
        }
        self.results[ix].outcome = ClientOutcome::InProgress;
        self.send_attempt(out, OpId(u32::try_from(ix).unwrap_or(u32::MAX)))
    }

    /// A reply reaches the client side of the network (or is lost there).
    pub(super) fn receive(&mut self, ctx: &mut Ctx, attempt: u32) {
        let Some(rec) = self.attempts.get_mut(attempt as usize) else {
            return;
        };
        let (op, n) = (rec.op, rec.n);
        let Some(result) = rec.response.take() else {
            return;
        };
        debug_assert!(
            rec.wire == Wire::Replied,
            "a reply comes back only for a request the server answered"
        );
        if rec.fault == Fault::ResponseLost {
            rec.wire = Wire::ResponseLost;
            ctx.emit(EventKind::ResponseLost { op, attempt: n });
            return;
        }
        let late = !rec.live;
        rec.wire = if late { Wire::Late } else { Wire::Delivered };
        let replayed = rec.replayed;
        rec.live = false;
        let timer = rec.timer;
        if let (false, Some(t)) = (late, timer) {
            ctx.cancel(t);
        }
        ctx.emit(EventKind::ResponseDelivered {
            op,
            attempt: n,
            result: result.clone(),
            late,
            replayed,
        });
        if let Some(r) = self.results.get_mut(op.0 as usize) {
            let outcome = if late {
                AttemptOutcome::LateReply(result.clone())
            } else {
                AttemptOutcome::Reply(result.clone())
            };
            r.seen.push(SeenAttempt {
                attempt: n,
                outcome,
            });
            r.replayed.push(replayed);
        }
        if late {
            return;
        }
        if retryable(&result) && self.schedule_retry(ctx, op) {
            return;
        }
        if let Some(r) = self.results.get_mut(op.0 as usize) {
            r.outcome = ClientOutcome::Answered { result };
        }
    }

    /// The client's timer for an attempt fires.
    pub(super) fn timeout(&mut self, ctx: &mut Ctx, attempt: u32) {
        let Some(rec) = self.attempts.get_mut(attempt as usize) else {
            return;
        };
        if !rec.live {
            // Answered in time: the timer is stale and nothing happens (not a step).
            return;
        }
        debug_assert!(
            rec.timer.is_some(),
            "a live attempt's timeout is its own timer"
        );
        rec.live = false;
        let (op, n) = (rec.op, rec.n);
        ctx.emit(EventKind::ClientTimeout { op, attempt: n });
        if let Some(r) = self.results.get_mut(op.0 as usize) {
            r.seen.push(SeenAttempt {
                attempt: n,
                outcome: AttemptOutcome::TimedOut,
            });
            r.replayed.push(false);
        }
        if !self.schedule_retry(ctx, op) {
            ctx.emit(EventKind::ClientGaveUp { op, attempts: n });
            if let Some(r) = self.results.get_mut(op.0 as usize) {
                r.outcome = ClientOutcome::TimedOut;
            }
        }
    }

    /// Schedules the next attempt if the policy and the attempt budget allow; false otherwise.
    fn schedule_retry(&mut self, ctx: &mut Ctx, op: OpId) -> bool {
        let ix = op.0 as usize;
        let (Some(result), Some(plan)) = (self.results.get(ix), self.plans.get(ix)) else {
            return false;
        };
        if result.attempts >= plan.max_attempts {
            return false;
        }
        let retry_no = result.attempts;
        let Some(delay) = plan.retry.delay(retry_no, &mut ctx.rng) else {
            return false;
        };
        let at_ms = ctx.now.saturating_add(delay);
        ctx.emit(EventKind::ClientRetryScheduled {
            op,
            attempt: retry_no.saturating_add(1),
            at_ms,
        });
        ctx.schedule(at_ms, Micro::Send { op });
        true
    }

    /// The caller of operation `op` (the default one for an unknown operation).
    pub(super) fn caller_of(&self, op: OpId) -> Caller {
        self.plans
            .get(op.0 as usize)
            .map_or_else(Caller::default, |p| p.caller)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_is_capped_and_jittered() {
        let p = RetryPolicy::ExponentialJitter {
            base_ms: 100,
            cap_ms: 1000,
        };
        let mut r = Rng::new(3);
        for retry in 1..=30 {
            let d = p.delay(retry, &mut r).expect("retries");
            let ceiling = (100u64 << (retry - 1).min(20)).min(1000);
            assert!(d <= ceiling, "retry {retry}: {d} > {ceiling}");
        }
        assert_eq!(RetryPolicy::None.delay(1, &mut r), None);
        assert_eq!(RetryPolicy::Immediate.delay(1, &mut r), Some(0));
        assert_eq!(RetryPolicy::Fixed { delay_ms: 7 }.delay(9, &mut r), Some(7));
    }

    #[test]
    fn validation() {
        assert!(RetryPolicy::ExponentialJitter {
            base_ms: 10,
            cap_ms: 5
        }
        .validate()
        .is_err());
        assert!(RetryPolicy::ExponentialJitter {
            base_ms: 0,
            cap_ms: 5
        }
        .validate()
        .is_err());
        assert!(RetryPolicy::Fixed {
            delay_ms: MAX_RETRY_DELAY_MS + 1
        }
        .validate()
        .is_err());
        assert!(RetryPolicy::Fixed { delay_ms: 0 }.validate().is_ok());
    }

    #[test]
    fn every_policy_has_its_kind_and_each_kind_its_json_name() {
        let policies = [
            RetryPolicy::None,
            RetryPolicy::Immediate,
            RetryPolicy::Fixed { delay_ms: 1 },
            RetryPolicy::ExponentialJitter {
                base_ms: 1,
                cap_ms: 2,
            },
        ];
        assert_eq!(policies.map(|p| p.kind()), RetryKind::ALL);
        assert_eq!(
            RetryKind::ALL.map(RetryKind::id),
            ["none", "immediate", "fixed", "exponential-jitter"]
        );
    }

    #[test]
    fn retryable_statuses() {
        assert!(retryable(&PaymentResult::InFlightConflict));
        assert!(retryable(&PaymentResult::ProcessorError));
        assert!(!retryable(&PaymentResult::ParameterMismatch {
            status: 409
        }));
        assert!(!retryable(&PaymentResult::Success { balance: 1 }));
    }
}
