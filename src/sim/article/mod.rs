//! The article's payment services, as written, made panic-free.
//!
//! Differences from the article, each for a reason:
//! - requests are validated first (amount, key, description) and rejected with
//!   [`PaymentResult::InvalidRequest`], not stored, as Stripe does for validation failures; this
//!   keeps the arithmetic in range, so no input can overflow or panic;
//! - a poisoned lock is recovered instead of `expect`ed, because no input may panic;
//! - maps use a fixed-seed hasher: std's default hasher seeds itself from the OS RNG, which the
//!   core never reads.
//!
//! The `// @lab ...` marker lines delimit the sections the concurrency lab shows verbatim (it
//! `include_str!`s this file); keep them on their own lines and keep their names stable.

pub(super) mod key;
pub(super) mod production;

use crate::sim::base::hash::FxHashMap;
use crate::sim::limits::{check_amount, check_description, InputError};
use key::validate_key;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, PoisonError};

/// The outcome of one charge request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum PaymentResult {
    /// The charge went through; the balance after it.
    Success {
        /// Balance after the charge.
        balance: i64,
    },
    /// The balance was too low; nothing was charged.
    InsufficientFunds {
        /// Balance at the time of the check.
        balance: i64,
    },
    /// The key was seen before: the first execution's result, replayed.
    DuplicateRequest {
        /// What the first execution returned.
        original_result: Box<PaymentResult>,
    },
    /// 409: a request with this key is still running. Not stored; retry with the same key.
    InFlightConflict,
    /// Same key, different parameters: a client bug. Not stored. `status` depends on the policy.
    ParameterMismatch {
        /// HTTP status the policy answers with (400 Stripe, 422 IETF draft, 409 rocket-rides).
        status: u16,
    },
    /// 503-like transient upstream failure (the card processor did not answer).
    ProcessorError,
    /// 400: the request broke a limit. Not stored, as Stripe does not store validation failures.
    InvalidRequest {
        /// Which limit was broken (boxed: keeps every other result 16 bytes on the hot path).
        error: Box<InputError>,
    },
    /// 503: the key store could not be reached and the service fails closed (charges nothing);
    /// not stored, retry later with the same key.
    StoreUnavailable,
    /// 409 Conflict: the database aborted the transaction (serialization failure); nothing
    /// committed, not stored: "retry with the same key", as rocket-rides-atomic answers
    /// (`api.rb`: `rescue Sequel::SerializationFailure` → `halt 409`; its commit e19902b,
    /// “Correct improper 429 to use "409 Conflict"”, 2017).
    RetryWithSameKey,
}

impl PaymentResult {
    /// A 400 answer for a request that broke `error`'s limit.
    pub fn invalid(error: InputError) -> Self {
        Self::InvalidRequest {
            error: Box::new(error),
        }
    }

    /// The HTTP status a real API would answer with; a replay answers with the original's status.
    pub fn http_status(&self) -> u16 {
        match self {
            Self::Success { .. } => 200,
            Self::InsufficientFunds { .. } => 402,
            Self::DuplicateRequest { original_result } => original_result.first_status(),
            Self::InFlightConflict => 409,
            Self::ParameterMismatch { status } => *status,
            Self::ProcessorError => 503,
            Self::InvalidRequest { .. } => 400,
            Self::StoreUnavailable => 503,
            Self::RetryWithSameKey => 409,
        }
    }

    // Iterative so a maliciously deep nesting of DuplicateRequest cannot overflow the stack.
    fn first_status(&self) -> u16 {
        let mut r = self;
        while let Self::DuplicateRequest { original_result } = r {
            r = original_result;
        }
        r.http_status()
    }

    /// The result with replay wrappers removed: what the first execution produced.
    pub fn outcome(&self) -> &PaymentResult {
        let mut r = self;
        while let Self::DuplicateRequest { original_result } = r {
            r = original_result;
        }
        r
    }

    /// True for a replayed result.
    pub fn is_replay(&self) -> bool {
        matches!(self, Self::DuplicateRequest { .. })
    }

    /// True when the outcome (first execution) was a successful charge.
    pub fn is_success(&self) -> bool {
        matches!(self.outcome(), Self::Success { .. })
    }

    /// True for an answer that ran nothing: the service refused the request before charging or
    /// rolled its transaction back (409 in flight, a parameter mismatch, a broken limit, 503,
    /// 409 after a serialization failure). Neither executed nor replayed, so it carries no
    /// `Idempotent-Replayed` header.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            Self::InFlightConflict
                | Self::ParameterMismatch { .. }
                | Self::InvalidRequest { .. }
                | Self::StoreUnavailable
                | Self::RetryWithSameKey
        )
    }

    /// True when retrying with the same key may give a different answer (409 in flight, 409 after
    /// a serialization failure, 503).
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            Self::InFlightConflict
                | Self::ProcessorError
                | Self::StoreUnavailable
                | Self::RetryWithSameKey
        )
    }
}

/// Validates what every service checks before touching state.
fn validate(key: Option<&str>, amount: i64, description: &str) -> Result<(), InputError> {
    if let Some(key) = key {
        validate_key(key)?;
    }
    check_amount(amount)?;
    check_description(description)
}

/// The article's first service: no idempotency at all; every call charges.
#[derive(Debug, Clone, Default)]
pub struct NaivePaymentService {
    balance: i64,
    operations: Vec<(String, i64)>,
}

impl NaivePaymentService {
    /// A service holding `initial_balance`.
    pub fn new(initial_balance: i64) -> Self {
        Self {
            balance: initial_balance,
            operations: Vec::new(),
        }
    }

    /// Charges `amount`, every time it is called.
    pub fn charge(&mut self, amount: i64, description: &str) -> PaymentResult {
        if let Err(error) = validate(None, amount, description) {
            return PaymentResult::invalid(error);
        }
        if self.balance < amount {
            return PaymentResult::InsufficientFunds {
                balance: self.balance,
            };
        }
        // amount >= 1 and balance >= amount, so this cannot underflow.
        self.balance -= amount;
        self.operations.push((description.to_string(), amount));
        PaymentResult::Success {
            balance: self.balance,
        }
    }

    /// Current balance.
    pub fn balance(&self) -> i64 {
        self.balance
    }

    /// Number of charges executed.
    pub fn operation_count(&self) -> usize {
        self.operations.len()
    }
}

/// The article's idempotent service: a key's result is cached, failures included.
#[derive(Debug, Clone, Default)]
pub struct IdempotentPaymentService {
    balance: i64,
    operations: Vec<(String, i64)>,
    idempotency_store: FxHashMap<String, PaymentResult>,
}

impl IdempotentPaymentService {
    /// A service holding `initial_balance`.
    pub fn new(initial_balance: i64) -> Self {
        Self {
            balance: initial_balance,
            operations: Vec::new(),
            idempotency_store: FxHashMap::default(),
        }
    }

    /// Charges once per key; later calls with the key replay the first result.
    pub fn charge(
        &mut self,
        idempotency_key: &str,
        amount: i64,
        description: &str,
    ) -> PaymentResult {
        if let Err(error) = validate(Some(idempotency_key), amount, description) {
            return PaymentResult::invalid(error);
        }
        // @lab unlocked.check
        // 既に処理済みならキャッシュを返す
        if let Some(cached) = self.idempotency_store.get(idempotency_key) {
            return PaymentResult::DuplicateRequest {
                original_result: Box::new(cached.clone()),
            };
        }

        // @lab unlocked.charge
        // 本来のビジネスロジック
        let result = if self.balance < amount {
            PaymentResult::InsufficientFunds {
                balance: self.balance,
            }
        } else {
            self.balance -= amount;
            self.operations.push((description.to_string(), amount));
            PaymentResult::Success {
                balance: self.balance,
            }
        };

        // @lab unlocked.store
        // 結果をキャッシュ
        self.idempotency_store
            .insert(idempotency_key.to_string(), result.clone());

        result
        // @lab end
    }

    /// Current balance.
    pub fn balance(&self) -> i64 {
        self.balance
    }

    /// Number of charges executed.
    pub fn operation_count(&self) -> usize {
        self.operations.len()
    }
}

/// The article's TOCTOU example: check, charge and store under three separate locks.
#[derive(Debug, Clone, Default)]
pub struct TocTouVulnerableService {
    balance: Arc<Mutex<i64>>,
    idempotency_store: Arc<Mutex<FxHashMap<String, PaymentResult>>>,
    operation_count: Arc<Mutex<usize>>,
}

impl TocTouVulnerableService {
    /// A service holding `initial_balance`; clones share the state.
    pub fn new(initial_balance: i64) -> Self {
        Self {
            balance: Arc::new(Mutex::new(initial_balance)),
            idempotency_store: Arc::new(Mutex::new(FxHashMap::default())),
            operation_count: Arc::new(Mutex::new(0)),
        }
    }

    /// Charges with a gap between check and store: concurrent callers with one key can both charge.
    pub fn charge_with_toctou_gap(&self, idempotency_key: &str, amount: i64) -> PaymentResult {
        if let Err(error) = validate(Some(idempotency_key), amount, "") {
            return PaymentResult::invalid(error);
        }
        // A poisoned lock only means another thread panicked; the data is still consistent
        // enough to teach with, and no input may panic here.
        // @lab toctou.check
        // ステップ1: 冪等性チェック（別のロック）
        {
            let store = self
                .idempotency_store
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(cached) = store.get(idempotency_key) {
                return PaymentResult::DuplicateRequest {
                    original_result: Box::new(cached.clone()),
                };
            }
        }
        // <-- ここがTOCTOUウィンドウ。別スレッドがチェックをすり抜ける

        // @lab toctou.charge
        // ステップ2: 決済処理（別のロック）
        let result = {
            let mut bal = self.balance.lock().unwrap_or_else(PoisonError::into_inner);
            if *bal < amount {
                PaymentResult::InsufficientFunds { balance: *bal }
            } else {
                *bal -= amount;
                let mut count = self
                    .operation_count
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                *count = count.saturating_add(1);
                PaymentResult::Success { balance: *bal }
            }
        };

        // @lab toctou.store
        // ステップ3: 結果キャッシュ（別のロック）
        {
            let mut store = self
                .idempotency_store
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            store.insert(idempotency_key.to_string(), result.clone());
        }

        result
        // @lab end
    }

    /// Current balance.
    pub fn balance(&self) -> i64 {
        *self.balance.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Number of charges executed.
    pub fn operation_count(&self) -> usize {
        *self
            .operation_count
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// One row of the article's transactional outbox.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboxEntry {
    /// Event id, unique per service.
    pub id: u64,
    /// The event to publish.
    pub payload: String,
    /// Whether a relay has published it.
    pub published: bool,
}

/// What `charge_and_emit` returns: the payment result and the outbox row written, if any.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboxResult {
    /// The payment outcome (a replayed success comes back as `DuplicateRequest`).
    pub result: PaymentResult,
    /// Id of the outbox entry written with this charge; `None` when nothing was charged.
    pub event_id: Option<u64>,
}

#[derive(Debug, Default)]
struct ServiceState {
    balance: i64,
    operation_count: usize,
    idempotency_store: FxHashMap<String, PaymentResult>,
    next_outbox_id: u64,
    outbox: Vec<OutboxEntry>,
}

/// The article's fix: check, charge and store under one lock (one transaction).
#[derive(Debug, Clone, Default)]
pub struct AtomicIdempotentService {
    state: Arc<Mutex<ServiceState>>,
}

impl AtomicIdempotentService {
    /// A service holding `initial_balance`; clones share the state.
    pub fn new(initial_balance: i64) -> Self {
        Self {
            state: Arc::new(Mutex::new(ServiceState {
                balance: initial_balance,
                next_outbox_id: 1,
                ..ServiceState::default()
            })),
        }
    }

    /// Charges once per key, atomically with the key's record.
    pub fn charge(&self, idempotency_key: &str, amount: i64) -> PaymentResult {
        if let Err(error) = validate(Some(idempotency_key), amount, "") {
            return PaymentResult::invalid(error);
        }
        // @lab atomic.lock
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);

        // @lab atomic.check
        // チェック + 処理 + キャッシュを単一のクリティカルセクション内で
        if let Some(cached) = state.idempotency_store.get(idempotency_key) {
            return PaymentResult::DuplicateRequest {
                original_result: Box::new(cached.clone()),
            };
        }

        // @lab atomic.charge
        let result = if state.balance < amount {
            PaymentResult::InsufficientFunds {
                balance: state.balance,
            }
        } else {
            state.balance -= amount;
            state.operation_count = state.operation_count.saturating_add(1);
            PaymentResult::Success {
                balance: state.balance,
            }
        };

        // @lab atomic.store
        state
            .idempotency_store
            .insert(idempotency_key.to_string(), result.clone());

        result
        // @lab end
    }

    /// Charges once per key and writes an outbox entry in the same critical section.
    pub fn charge_and_emit(
        &self,
        idempotency_key: &str,
        amount: i64,
        event_payload: &str,
    ) -> OutboxResult {
        if let Err(error) = validate(Some(idempotency_key), amount, event_payload) {
            return OutboxResult {
                result: PaymentResult::invalid(error),
                event_id: None,
            };
        }
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        // 冪等性チェック: Successなら Duplicate へ変換、失敗キャッシュはそのまま返す
        if let Some(cached) = state.idempotency_store.get(idempotency_key) {
            let result = match cached {
                PaymentResult::Success { .. } => PaymentResult::DuplicateRequest {
                    original_result: Box::new(cached.clone()),
                },
                other => other.clone(),
            };
            return OutboxResult {
                result,
                event_id: None,
            };
        }
        if state.balance < amount {
            let result = PaymentResult::InsufficientFunds {
                balance: state.balance,
            };
            state
                .idempotency_store
                .insert(idempotency_key.to_string(), result.clone());
            return OutboxResult {
                result,
                event_id: None,
            };
        }
        state.balance -= amount;
        state.operation_count = state.operation_count.saturating_add(1);
        // 残高更新と「同一ロック内で」outboxにイベントを書き込む
        let outbox_id = state.next_outbox_id;
        state.next_outbox_id = state.next_outbox_id.saturating_add(1);
        state.outbox.push(OutboxEntry {
            id: outbox_id,
            payload: event_payload.into(),
            published: false,
        });
        let result = PaymentResult::Success {
            balance: state.balance,
        };
        state
            .idempotency_store
            .insert(idempotency_key.to_string(), result.clone());
        OutboxResult {
            result,
            event_id: Some(outbox_id),
        }
    }

    /// A copy of the outbox, oldest first.
    pub fn outbox(&self) -> Vec<OutboxEntry> {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .outbox
            .clone()
    }

    /// Marks an outbox entry published (what a relay does after publishing); false if unknown.
    pub fn mark_published(&self, id: u64) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match state.outbox.iter_mut().find(|e| e.id == id) {
            Some(entry) => {
                entry.published = true;
                true
            }
            None => false,
        }
    }

    /// Current balance.
    pub fn balance(&self) -> i64 {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .balance
    }

    /// Number of charges executed.
    pub fn operation_count(&self) -> usize {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .operation_count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::limits::MAX_KEY_LEN;

    #[test]
    fn invalid_requests_are_rejected_and_not_stored() {
        let mut svc = IdempotentPaymentService::new(1000);
        let r = svc.charge("k", 0, "x");
        assert!(matches!(
            &r,
            PaymentResult::InvalidRequest { error }
                if matches!(**error, InputError::AmountOutOfRange { amount: 0, .. })
        ));
        assert_eq!(r.http_status(), 400);
        // Not stored: a valid retry with the same key executes.
        assert_eq!(
            svc.charge("k", 100, "x"),
            PaymentResult::Success { balance: 900 }
        );
        let r = svc.charge(&"k".repeat(MAX_KEY_LEN + 1), 1, "x");
        assert!(matches!(
            &r,
            PaymentResult::InvalidRequest { error }
                if matches!(**error, InputError::KeyTooLong { .. })
        ));
        assert_eq!(
            svc.charge("", 1, "x"),
            PaymentResult::invalid(InputError::KeyEmpty)
        );
    }

    #[test]
    fn extreme_amounts_do_not_overflow() {
        let mut naive = NaivePaymentService::new(i64::MIN);
        assert!(matches!(
            naive.charge(i64::MAX, "x"),
            PaymentResult::InvalidRequest { .. }
        ));
        assert!(matches!(
            naive.charge(i64::MIN, "x"),
            PaymentResult::InvalidRequest { .. }
        ));
        assert!(matches!(
            naive.charge(1, "x"),
            PaymentResult::InsufficientFunds { .. }
        ));
        let atomic = AtomicIdempotentService::new(i64::MAX);
        assert!(atomic.charge("k", 1).is_success());
        let toctou = TocTouVulnerableService::new(i64::MIN);
        assert!(matches!(
            toctou.charge_with_toctou_gap("k", 1),
            PaymentResult::InsufficientFunds { .. }
        ));
    }

    #[test]
    fn charge_and_emit_writes_outbox_in_same_section() {
        let svc = AtomicIdempotentService::new(1000);
        let r = svc.charge_and_emit("k1", 100, "charged");
        assert_eq!(r.result, PaymentResult::Success { balance: 900 });
        assert_eq!(r.event_id, Some(1));
        let replay = svc.charge_and_emit("k1", 100, "charged");
        assert!(replay.result.is_replay());
        assert_eq!(replay.event_id, None);
        let fail = svc.charge_and_emit("k2", 5000, "big");
        assert!(matches!(
            fail.result,
            PaymentResult::InsufficientFunds { .. }
        ));
        // A cached failure comes back as-is, not wrapped.
        let fail2 = svc.charge_and_emit("k2", 5000, "big");
        assert_eq!(fail2.result, fail.result);
        let outbox = svc.outbox();
        assert_eq!(outbox.len(), 1);
        assert!(!outbox[0].published);
        assert!(svc.mark_published(1));
        assert!(!svc.mark_published(2));
        assert!(svc.outbox()[0].published);
        assert_eq!(svc.balance(), 900);
        assert_eq!(svc.operation_count(), 1);
    }

    #[test]
    fn statuses_and_outcomes() {
        let dup = PaymentResult::DuplicateRequest {
            original_result: Box::new(PaymentResult::InsufficientFunds { balance: 5 }),
        };
        assert_eq!(dup.http_status(), 402);
        assert!(!dup.is_success());
        assert!(dup.is_replay());
        assert_eq!(
            PaymentResult::ParameterMismatch { status: 422 }.http_status(),
            422
        );
        assert!(PaymentResult::InFlightConflict.is_retryable());
        assert!(PaymentResult::ProcessorError.is_retryable());
        assert!(!PaymentResult::Success { balance: 1 }.is_retryable());
    }

    #[test]
    fn serde_round_trip() {
        let r = PaymentResult::DuplicateRequest {
            original_result: Box::new(PaymentResult::Success { balance: 900 }),
        };
        let json = serde_json::to_string(&r).expect("serializes");
        let back: PaymentResult = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, r);
    }

    #[test]
    fn lab_markers_are_present_in_order() {
        let src = include_str!("mod.rs");
        let markers = [
            "// @lab unlocked.check",
            "// @lab unlocked.charge",
            "// @lab unlocked.store",
            "// @lab toctou.check",
            "// @lab toctou.charge",
            "// @lab toctou.store",
            "// @lab atomic.lock",
            "// @lab atomic.check",
            "// @lab atomic.charge",
            "// @lab atomic.store",
        ];
        let mut last = 0;
        for m in markers {
            let line = format!("\n        {m}\n");
            let pos = src.find(&line).unwrap_or(usize::MAX);
            assert!(
                pos != usize::MAX && pos > last,
                "marker {m} missing or out of order"
            );
            last = pos;
        }
        assert_eq!(src.matches("\n        // @lab end\n").count(), 3);
    }
}
