//! A production-grade idempotent service: key retention, request fingerprints, an in-flight
//! record, a failure-caching policy and counters. Each policy's documentation names the real
//! system it follows (see shared/guide/semantics.md); the page words those names.
//!
//! The policy decisions ([`classify`], [`FailureCaching::should_store`], [`fingerprint`]) are free
//! functions so the simulated world's server uses exactly the same rules as this service.

use super::key::validate_key;
use super::PaymentResult;
use crate::sim::base::hash::{fnv1a, FxHashMap, FNV_OFFSET};
use crate::sim::limits::{
    check_amount, check_description, check_duration, DurationField, InputError, Quantity,
    MAX_BALANCE, MAX_IN_FLIGHT_TIMEOUT_MS, MAX_RETENTION_MS, MIN_IN_FLIGHT_TIMEOUT_MS,
};

/// Stripe prunes keys once they are at least 24 h old.
pub const DEFAULT_RETENTION_MS: u64 = 86_400_000;
/// rocket-rides answers 409 while `locked_at` is under 90 s old.
pub const DEFAULT_IN_FLIGHT_TIMEOUT_MS: u64 = 90_000;

/// The status a same-key, different-parameters request gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MismatchStatus {
    /// 400 `idempotency_error`, as Stripe answers.
    #[default]
    Stripe400,
    /// 422 Unprocessable Content, as the IETF draft specifies.
    Ietf422,
    /// 409 Conflict, as rocket-rides-atomic answers.
    RocketRides409,
}

impl MismatchStatus {
    /// Every status.
    pub const ALL: [MismatchStatus; 3] = [
        MismatchStatus::Stripe400,
        MismatchStatus::Ietf422,
        MismatchStatus::RocketRides409,
    ];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::Stripe400 => "stripe-400",
            Self::Ietf422 => "ietf-422",
            Self::RocketRides409 => "rocket-rides-409",
        }
    }

    /// The HTTP status code.
    pub fn status(self) -> u16 {
        match self {
            Self::Stripe400 => 400,
            Self::Ietf422 => 422,
            Self::RocketRides409 => 409,
        }
    }
}

/// Which results are stored under the key and replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailureCaching {
    /// Store every result, failures and 5xx included.
    #[default]
    CacheAll,
    /// Store only successes; any failure may be tried again with the same key.
    SuccessOnly,
    /// Store successes and final failures; transient ones (5xx, and the 409s that ask for a retry
    /// with the same key) may be tried again, as APIs that do not cache 429 or 5xx answers.
    AllButTransient,
}

impl FailureCaching {
    /// Every policy.
    pub const ALL: [FailureCaching; 3] = [
        FailureCaching::CacheAll,
        FailureCaching::SuccessOnly,
        FailureCaching::AllButTransient,
    ];

    /// The stable name used in scenario JSON.
    pub fn id(self) -> &'static str {
        match self {
            Self::CacheAll => "cache-all",
            Self::SuccessOnly => "success-only",
            Self::AllButTransient => "all-but-transient",
        }
    }

    /// Whether `result` (a fresh execution's outcome) is stored under its key.
    pub fn should_store(self, result: &PaymentResult) -> bool {
        match self {
            Self::CacheAll => true,
            Self::SuccessOnly => result.is_success(),
            Self::AllButTransient => !result.is_retryable(),
        }
    }
}

/// The production service's policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policies {
    /// How long a completed key is kept, in simulated ms; an older key executes again.
    pub retention_ms: u64,
    /// Status for a same-key, different-parameters request.
    pub mismatch: MismatchStatus,
    /// Which results are stored.
    pub failure_caching: FailureCaching,
    /// Whether a request first records its key as in flight (own transaction), so a concurrent
    /// duplicate gets 409 instead of waiting for the charge's transaction.
    pub in_flight: bool,
    /// How long an in-flight record blocks its key; a crashed request's record then expires.
    pub in_flight_timeout_ms: u64,
}

impl Default for Policies {
    fn default() -> Self {
        Self::stripe()
    }
}

impl Policies {
    /// Stripe: 24 h retention, 400 on mismatch, replay everything, 409 while in flight.
    pub fn stripe() -> Self {
        Self {
            retention_ms: DEFAULT_RETENTION_MS,
            mismatch: MismatchStatus::Stripe400,
            failure_caching: FailureCaching::CacheAll,
            in_flight: true,
            in_flight_timeout_ms: DEFAULT_IN_FLIGHT_TIMEOUT_MS,
        }
    }

    /// The IETF draft: 422 on mismatch; the draft leaves retention to the server (24 h here).
    pub fn ietf_draft() -> Self {
        Self {
            mismatch: MismatchStatus::Ietf422,
            ..Self::stripe()
        }
    }

    /// rocket-rides-atomic: 409 on mismatch, in-flight lock for 90 s, keys reaped after 72 h
    /// (`api.rb` `IDEMPOTENCY_KEY_REAP_TIMEOUT = 72 * 3600`, "72 hours gives enough time for the
    /// entire weekend to pass").
    pub fn rocket_rides() -> Self {
        Self {
            mismatch: MismatchStatus::RocketRides409,
            retention_ms: 72 * 60 * 60 * 1000,
            ..Self::stripe()
        }
    }

    /// Checks the durations against their limits.
    pub fn validate(&self) -> Result<(), InputError> {
        check_duration(
            DurationField::Retention,
            self.retention_ms,
            1,
            MAX_RETENTION_MS,
        )?;
        check_duration(
            DurationField::InFlightTimeout,
            self.in_flight_timeout_ms,
            MIN_IN_FLIGHT_TIMEOUT_MS,
            MAX_IN_FLIGHT_TIMEOUT_MS,
        )?;
        Ok(())
    }
}

/// A request fingerprint: FNV-1a over the amount and the description.
pub fn fingerprint(amount: i64, description: &str) -> u64 {
    let state = fnv1a(FNV_OFFSET, &amount.to_le_bytes());
    // A separator byte keeps (amount, description) pairs from colliding by concatenation.
    let state = fnv1a(state, &[0xff]);
    fnv1a(state, description.as_bytes())
}

/// The state of an idempotency record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordState {
    /// A request holding the key is running.
    InFlight,
    /// The first execution finished; its result is stored.
    Completed,
    /// Past its retention (or a crashed in-flight record past its timeout): as if absent.
    Expired,
}

/// What a lookup of a key found, under the policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// No record: execute.
    Miss,
    /// A record past its expiry: execute again, as for a new key.
    Expired,
    /// A completed record with the same fingerprint: replay it.
    Hit,
    /// A live in-flight record: 409, not stored.
    InFlight,
    /// A record with a different fingerprint: the policy's mismatch status, not stored.
    Mismatch,
}

/// Classifies a record found for a key. `record` is (state, fingerprint, expires_at_ms).
pub fn classify(
    record: Option<(RecordState, Option<u64>, Option<u64>)>,
    request_fingerprint: u64,
    now_ms: u64,
) -> Lookup {
    let Some((state, fp, expires_at)) = record else {
        return Lookup::Miss;
    };
    if state == RecordState::Expired || expires_at.is_some_and(|e| now_ms >= e) {
        return Lookup::Expired;
    }
    // rocket-rides checks parameters before the lock: a mismatch is a client bug either way.
    if fp.is_some_and(|fp| fp != request_fingerprint) {
        return Lookup::Mismatch;
    }
    match state {
        RecordState::InFlight => Lookup::InFlight,
        _ => Lookup::Hit,
    }
}

/// The production service's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counters {
    /// Replays of a stored result.
    pub hits: u64,
    /// First executions of a key.
    pub misses: u64,
    /// 409s for a key still in flight.
    pub conflicts: u64,
    /// Same key, different parameters.
    pub mismatches: u64,
    /// Records found or reaped past their retention or in-flight timeout.
    pub expirations: u64,
}

impl Counters {
    /// Counts one lookup outcome.
    pub fn count(&mut self, lookup: Lookup) {
        let c = match lookup {
            Lookup::Miss => &mut self.misses,
            Lookup::Expired => {
                // An expired key is also executed afresh: count it as a miss too.
                self.misses = self.misses.saturating_add(1);
                &mut self.expirations
            }
            Lookup::Hit => &mut self.hits,
            Lookup::InFlight => &mut self.conflicts,
            Lookup::Mismatch => &mut self.mismatches,
        };
        *c = c.saturating_add(1);
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Record {
    state: RecordState,
    fingerprint: u64,
    result: Option<PaymentResult>,
    expires_at_ms: u64,
    ticket: u64,
}

/// Phase one's permission to charge: holds the key's in-flight record (if the policy uses one).
/// Dropping a ticket without [`ProductionService::complete`] is a crash between the phases.
#[derive(Debug, PartialEq, Eq)]
pub struct Ticket {
    key: String,
    amount: i64,
    fingerprint: u64,
    id: u64,
}

/// The production-grade service, usable directly with explicit simulated time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductionService {
    balance: i64,
    operation_count: usize,
    policies: Policies,
    records: FxHashMap<String, Record>,
    counters: Counters,
    next_ticket: u64,
}

impl ProductionService {
    /// A service holding `initial_balance` (0..=`MAX_BALANCE`) with `policies`.
    pub fn new(initial_balance: i64, policies: Policies) -> Result<Self, InputError> {
        crate::sim::limits::check_balance(initial_balance)?;
        policies.validate()?;
        Ok(Self {
            balance: initial_balance,
            operation_count: 0,
            policies,
            records: FxHashMap::default(),
            counters: Counters::default(),
            next_ticket: 1,
        })
    }

    /// Both phases in one call, with a healthy processor.
    pub fn charge(
        &mut self,
        key: &str,
        amount: i64,
        description: &str,
        now_ms: u64,
    ) -> PaymentResult {
        match self.begin(key, amount, description, now_ms) {
            Ok(ticket) => self.complete(ticket, true, now_ms),
            Err(answer) => answer,
        }
    }

    /// Phase one: validate, look the key up, and (with `in_flight`) record it as in flight.
    /// `Err` carries the answer when the request must not execute (replay, 409, mismatch, 400).
    pub fn begin(
        &mut self,
        key: &str,
        amount: i64,
        description: &str,
        now_ms: u64,
    ) -> Result<Ticket, PaymentResult> {
        let valid = validate_key(key)
            .and_then(|()| check_amount(amount).map(|_| ()))
            .and_then(|()| check_description(description));
        if let Err(error) = valid {
            return Err(PaymentResult::invalid(error));
        }
        let fp = fingerprint(amount, description);
        let lookup = self.lookup(key, fp, now_ms);
        self.counters.count(lookup);
        if let Some(answer) = self.answer_without_executing(key, lookup) {
            return Err(answer);
        }
        let id = self.next_ticket;
        self.next_ticket = self.next_ticket.saturating_add(1);
        if self.policies.in_flight {
            self.records.insert(
                key.to_string(),
                Record {
                    state: RecordState::InFlight,
                    fingerprint: fp,
                    result: None,
                    expires_at_ms: now_ms.saturating_add(self.policies.in_flight_timeout_ms),
                    ticket: id,
                },
            );
        }
        Ok(Ticket {
            key: key.to_string(),
            amount,
            fingerprint: fp,
            id,
        })
    }

    /// Phase two: charge (unless the processor fails) and complete or release the record, in one
    /// transaction.
    pub fn complete(&mut self, ticket: Ticket, processor_ok: bool, now_ms: u64) -> PaymentResult {
        if self.policies.in_flight {
            // Our in-flight record must still be ours: it may have expired and been taken over.
            let ours = self
                .records
                .get(&ticket.key)
                .is_some_and(|r| r.state == RecordState::InFlight && r.ticket == ticket.id);
            if !ours {
                return PaymentResult::InFlightConflict;
            }
        } else {
            // Without an in-flight record, phase two re-checks inside its own transaction;
            // otherwise two interleaved requests would both pass phase one (TOCTOU).
            let lookup = self.lookup(&ticket.key, ticket.fingerprint, now_ms);
            if lookup != Lookup::Miss && lookup != Lookup::Expired {
                self.counters.count(lookup);
                if let Some(answer) = self.answer_without_executing(&ticket.key, lookup) {
                    return answer;
                }
            }
        }
        let result = if !processor_ok {
            PaymentResult::ProcessorError
        } else if self.balance < ticket.amount {
            PaymentResult::InsufficientFunds {
                balance: self.balance,
            }
        } else {
            // amount >= 1 and balance >= amount: no underflow.
            self.balance -= ticket.amount;
            self.operation_count = self.operation_count.saturating_add(1);
            PaymentResult::Success {
                balance: self.balance,
            }
        };
        if self.policies.failure_caching.should_store(&result) {
            self.records.insert(
                ticket.key,
                Record {
                    state: RecordState::Completed,
                    fingerprint: ticket.fingerprint,
                    result: Some(result.clone()),
                    expires_at_ms: now_ms.saturating_add(self.policies.retention_ms),
                    ticket: ticket.id,
                },
            );
        } else {
            // Not stored: release the key so a retry executes again.
            self.records.remove(&ticket.key);
        }
        result
    }

    fn lookup(&self, key: &str, fp: u64, now_ms: u64) -> Lookup {
        let record = self
            .records
            .get(key)
            .map(|r| (r.state, Some(r.fingerprint), Some(r.expires_at_ms)));
        classify(record, fp, now_ms)
    }

    fn answer_without_executing(&self, key: &str, lookup: Lookup) -> Option<PaymentResult> {
        match lookup {
            Lookup::Miss | Lookup::Expired => None,
            Lookup::InFlight => Some(PaymentResult::InFlightConflict),
            Lookup::Mismatch => Some(PaymentResult::ParameterMismatch {
                status: self.policies.mismatch.status(),
            }),
            Lookup::Hit => {
                let cached = self.records.get(key).and_then(|r| r.result.clone());
                // A completed record always has a result; an absent one answers 409 rather than
                // executing twice.
                Some(match cached {
                    Some(r) => PaymentResult::DuplicateRequest {
                        original_result: Box::new(r),
                    },
                    None => PaymentResult::InFlightConflict,
                })
            }
        }
    }

    /// Adds money to the account; refused above `MAX_BALANCE`.
    pub fn deposit(&mut self, amount: i64) -> Result<i64, InputError> {
        check_amount(amount)?;
        let next = self
            .balance
            .checked_add(amount)
            .ok_or(InputError::Overflow {
                quantity: Quantity::Balance,
            })?;
        if next > MAX_BALANCE {
            return Err(InputError::BalanceLimit {
                balance: self.balance,
                deposit: amount,
                max: MAX_BALANCE,
            });
        }
        self.balance = next;
        Ok(next)
    }

    /// Current balance.
    pub fn balance(&self) -> i64 {
        self.balance
    }

    /// Number of charges executed.
    pub fn operation_count(&self) -> usize {
        self.operation_count
    }

    /// The counters so far.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The policies in force.
    pub fn policies(&self) -> Policies {
        self.policies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: u64 = 3_600_000;

    fn svc(p: Policies) -> ProductionService {
        ProductionService::new(1000, p).expect("valid")
    }

    #[test]
    fn replays_within_retention_and_executes_after() {
        let mut s = svc(Policies::stripe());
        assert!(s.charge("k", 100, "o", 0).is_success());
        let r = s.charge("k", 100, "o", 23 * H);
        assert!(r.is_replay());
        assert_eq!(s.balance(), 900);
        let r = s.charge("k", 100, "o", 25 * H);
        assert_eq!(r, PaymentResult::Success { balance: 800 });
        let c = s.counters();
        assert_eq!((c.hits, c.misses, c.expirations), (1, 2, 1));
    }

    #[test]
    fn mismatch_status_follows_policy_and_is_not_stored() {
        for (p, status) in [
            (Policies::stripe(), 400),
            (Policies::ietf_draft(), 422),
            (Policies::rocket_rides(), 409),
        ] {
            let mut s = svc(p);
            s.charge("k", 100, "o", 0);
            assert_eq!(
                s.charge("k", 200, "o", 1),
                PaymentResult::ParameterMismatch { status }
            );
            assert_eq!(
                s.charge("k", 100, "other", 1),
                PaymentResult::ParameterMismatch { status }
            );
            // The original is still replayed.
            assert!(s.charge("k", 100, "o", 2).is_replay());
            assert_eq!(s.counters().mismatches, 2);
        }
    }

    #[test]
    fn in_flight_duplicate_gets_409_until_the_first_completes() {
        let mut s = svc(Policies::stripe());
        let t = s.begin("k", 100, "o", 0).expect("first executes");
        assert_eq!(
            s.begin("k", 100, "o", 1),
            Err(PaymentResult::InFlightConflict)
        );
        assert!(s.complete(t, true, 2).is_success());
        assert!(matches!(s.begin("k", 100, "o", 3), Err(r) if r.is_replay()));
        assert_eq!(s.counters().conflicts, 1);
    }

    #[test]
    fn crashed_in_flight_record_expires() {
        let mut s = svc(Policies::stripe());
        let t = s.begin("k", 100, "o", 0).expect("first executes");
        drop(t); // crash between the phases
        assert_eq!(
            s.charge("k", 100, "o", DEFAULT_IN_FLIGHT_TIMEOUT_MS - 1),
            PaymentResult::InFlightConflict
        );
        assert!(s
            .charge("k", 100, "o", DEFAULT_IN_FLIGHT_TIMEOUT_MS)
            .is_success());
        assert_eq!(s.balance(), 900);
    }

    #[test]
    fn taken_over_ticket_cannot_charge() {
        let mut s = svc(Policies::stripe());
        let old = s.begin("k", 100, "o", 0).expect("first");
        let new = s
            .begin("k", 100, "o", DEFAULT_IN_FLIGHT_TIMEOUT_MS)
            .expect("expired lock taken over");
        assert_eq!(
            s.complete(old, true, 100_001),
            PaymentResult::InFlightConflict
        );
        assert!(s.complete(new, true, 100_002).is_success());
        assert_eq!(s.operation_count(), 1);
    }

    #[test]
    fn without_in_flight_phase_two_rechecks() {
        let p = Policies {
            in_flight: false,
            ..Policies::stripe()
        };
        let mut s = svc(p);
        let a = s.begin("k", 100, "o", 0).expect("a");
        let b = s.begin("k", 100, "o", 0).expect("b also passes phase one");
        assert!(s.complete(a, true, 1).is_success());
        assert!(s.complete(b, true, 1).is_replay());
        assert_eq!(s.balance(), 900);
    }

    #[test]
    fn failure_caching_policies() {
        // CacheAll: the 503 is replayed.
        let mut s = svc(Policies::stripe());
        let t = s.begin("k", 100, "o", 0).expect("t");
        assert_eq!(s.complete(t, false, 0), PaymentResult::ProcessorError);
        assert!(s.charge("k", 100, "o", 1).is_replay());
        // AllButTransient: the 503 is not stored, a 402 is.
        let mut s = svc(Policies {
            failure_caching: FailureCaching::AllButTransient,
            ..Policies::stripe()
        });
        let t = s.begin("k", 100, "o", 0).expect("t");
        s.complete(t, false, 0);
        assert!(s.charge("k", 100, "o", 1).is_success());
        assert!(matches!(
            s.charge("big", 5000, "o", 2),
            PaymentResult::InsufficientFunds { .. }
        ));
        s.deposit(10_000).expect("deposit");
        assert!(s.charge("big", 5000, "o", 3).is_replay());
        // SuccessOnly: after a deposit the same key succeeds.
        let mut s = svc(Policies {
            failure_caching: FailureCaching::SuccessOnly,
            ..Policies::stripe()
        });
        assert!(!s.charge("big", 5000, "o", 0).is_success());
        s.deposit(10_000).expect("deposit");
        assert!(s.charge("big", 5000, "o", 1).is_success());
    }

    #[test]
    fn invalid_policies_and_inputs_are_errors() {
        let bad = Policies {
            in_flight_timeout_ms: 0,
            ..Policies::stripe()
        };
        assert!(matches!(
            ProductionService::new(0, bad),
            Err(InputError::DurationOutOfRange {
                field: DurationField::InFlightTimeout,
                ..
            })
        ));
        assert!(ProductionService::new(-1, Policies::stripe()).is_err());
        let mut s = svc(Policies::stripe());
        assert!(matches!(
            s.charge("", 1, "o", 0),
            PaymentResult::InvalidRequest { .. }
        ));
        assert!(s.deposit(i64::MAX).is_err());
        let mut full = ProductionService::new(MAX_BALANCE, Policies::stripe()).expect("max");
        assert!(matches!(
            full.deposit(1),
            Err(InputError::BalanceLimit { .. })
        ));
    }

    #[test]
    fn fingerprint_separates_fields() {
        assert_ne!(fingerprint(1, "0"), fingerprint(10, ""));
        assert_eq!(fingerprint(5, "x"), fingerprint(5, "x"));
    }
}
