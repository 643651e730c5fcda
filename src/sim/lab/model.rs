//! The three services as step-wise programs over one shared state. Every request runs
//! check | charge | store; the models differ only in which locks a step takes and when it lets go:
//!
//! - [`Model::TocTou`]: `TocTouVulnerableService` — each step takes and releases its own lock, so
//!   another request can slip in between the check and the store (the TOCTOU window).
//! - [`Model::Atomic`]: `AtomicIdempotentService` — the first step takes the one state lock and the
//!   last releases it; a request that wants the lock while another holds it is blocked.
//! - [`Model::Unlocked`]: `IdempotentPaymentService` shared by several threads with no lock at all.
//!
//! A request whose check finds a stored result returns `DuplicateRequest` there; it still owns its
//! remaining steps, which run no code ("returned"). Keeping every request at exactly
//! [`LAB_STEPS_PER_REQUEST`] steps makes every schedule the same length, so the schedule count is the
//! textbook (kn)!/(n!)^k whatever the data does.

use super::error::LabError;
use crate::sim::limits::{
    LAB_STEPS_PER_REQUEST, MAX_AMOUNT, MAX_BALANCE, MAX_PARALLEL_REQUESTS, MIN_AMOUNT, MIN_BALANCE,
    MIN_PARALLEL_REQUESTS,
};

/// Which service the requests run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Model {
    /// `TocTouVulnerableService`: a separate lock around each step.
    TocTou,
    /// `AtomicIdempotentService`: one lock around check, charge and store.
    Atomic,
    /// `IdempotentPaymentService` from several threads, no lock.
    Unlocked,
}

impl Model {
    /// All models, in the order the page lists them.
    pub const ALL: [Model; 3] = [Model::TocTou, Model::Atomic, Model::Unlocked];

    /// The service's type name in src/sim/article/mod.rs (and the article).
    pub fn service_name(self) -> &'static str {
        match self {
            Model::TocTou => "TocTouVulnerableService",
            Model::Atomic => "AtomicIdempotentService",
            Model::Unlocked => "IdempotentPaymentService",
        }
    }

    /// A stable short id (for `<select>` values and share text).
    pub fn id(self) -> &'static str {
        match self {
            Model::TocTou => "toctou",
            Model::Atomic => "atomic",
            Model::Unlocked => "unlocked",
        }
    }

    /// The model with id `id`, if any.
    pub fn from_id(id: &str) -> Option<Model> {
        Model::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The `// @lab` markers whose source step `step` (0-based) executes.
    pub fn step_markers(self, step: usize) -> &'static [&'static str] {
        match (self, step) {
            (Model::TocTou, 0) => &["toctou.check"],
            (Model::TocTou, 1) => &["toctou.charge"],
            (Model::TocTou, 2) => &["toctou.store"],
            (Model::Atomic, 0) => &["atomic.lock", "atomic.check"],
            (Model::Atomic, 1) => &["atomic.charge"],
            (Model::Atomic, 2) => &["atomic.store"],
            (Model::Unlocked, 0) => &["unlocked.check"],
            (Model::Unlocked, 1) => &["unlocked.charge"],
            (Model::Unlocked, 2) => &["unlocked.store"],
            _ => &[],
        }
    }

    /// Whether a request holds a lock between its steps (only the atomic service does).
    pub fn holds_lock_across_steps(self) -> bool {
        self == Model::Atomic
    }
}

/// Whether the requests share one idempotency key (retries of one payment) or each has its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyMode {
    /// Every request carries the same key: at most one may charge.
    Same,
    /// Request i carries key i: every request may charge.
    Different,
}

impl KeyMode {
    /// Both modes.
    pub const ALL: [KeyMode; 2] = [KeyMode::Same, KeyMode::Different];

    /// A stable short id (saved states, links, `<select>` values).
    pub fn id(self) -> &'static str {
        match self {
            KeyMode::Same => "same",
            KeyMode::Different => "different",
        }
    }

    /// The mode with id `id`, if any.
    pub fn from_id(id: &str) -> Option<KeyMode> {
        KeyMode::ALL.into_iter().find(|k| k.id() == id)
    }
}

/// A lock of the modelled services.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LockName {
    /// `TocTouVulnerableService::idempotency_store`.
    IdempotencyStore,
    /// `TocTouVulnerableService::balance`.
    Balance,
    /// `TocTouVulnerableService::operation_count`.
    OperationCount,
    /// `AtomicIdempotentService::state`, the one lock around everything.
    State,
}

impl LockName {
    /// The field name as in the source.
    pub fn field(self) -> &'static str {
        match self {
            LockName::IdempotencyStore => "idempotency_store",
            LockName::Balance => "balance",
            LockName::OperationCount => "operation_count",
            LockName::State => "state",
        }
    }
}

/// What the business logic decided (the value the store keeps).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChargeOutcome {
    /// The balance was charged; the balance after the charge.
    Success {
        /// Balance after the charge.
        balance: i64,
    },
    /// The balance was too low; the balance seen.
    InsufficientFunds {
        /// Balance seen by the charge.
        balance: i64,
    },
}

/// What a request returned, as `PaymentResult` in the article.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LabResult {
    /// `PaymentResult::Success`.
    Success {
        /// Balance after the charge.
        balance: i64,
    },
    /// `PaymentResult::InsufficientFunds`.
    InsufficientFunds {
        /// Balance seen by the charge.
        balance: i64,
    },
    /// `PaymentResult::DuplicateRequest`, carrying the stored original.
    DuplicateRequest {
        /// The stored result that was replayed.
        original: ChargeOutcome,
    },
}

impl From<ChargeOutcome> for LabResult {
    fn from(c: ChargeOutcome) -> Self {
        match c {
            ChargeOutcome::Success { balance } => LabResult::Success { balance },
            ChargeOutcome::InsufficientFunds { balance } => {
                LabResult::InsufficientFunds { balance }
            }
        }
    }
}

/// How far a request's function has got; what it carries from one step to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RequestProgress {
    /// Not yet run.
    #[default]
    NotStarted,
    /// The check found nothing stored: the request goes on to charge.
    CheckMissed,
    /// The charge decided `ChargeOutcome`; it is not stored yet.
    Charged(ChargeOutcome),
    /// The function has returned this result.
    Returned(LabResult),
}

/// The whole state of a run: every request's program counter and locals plus the shared service
/// state. Two runs in equal states behave the same from then on, which is what the explorer's
/// cache relies on. Entries beyond the scenario's request count stay at their defaults.
///
/// Locals and store entries are packed into one `u64` each (see [`pack_progress`]): the explorer
/// keeps every distinct state in memory, and packing makes a state 2.4 times smaller and faster to
/// hash than the enums it stands for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LabState {
    pcs: [u8; MAX_PARALLEL_REQUESTS],
    progress: [u64; MAX_PARALLEL_REQUESTS],
    balance: i64,
    operation_count: u8,
    store: [u64; MAX_PARALLEL_REQUESTS],
    lock_holder: Option<u8>,
}

// Packing. Balances are never negative (a charge only subtracts what the balance covers, from an
// initial balance of at least 0) and at most MAX_BALANCE < 2^40, so they fit above a few tag bits.
const TAG_NOT_STARTED: u64 = 0;
const TAG_CHECK_MISSED: u64 = 1;
const TAG_CHARGED: u64 = 2;
const TAG_RETURNED: u64 = 3;
const KIND_SUCCESS: u64 = 0;
const KIND_INSUFFICIENT: u64 = 1;
const KIND_DUPLICATE_OF_SUCCESS: u64 = 2;
const KIND_DUPLICATE_OF_INSUFFICIENT: u64 = 3;

fn balance_bits(balance: i64) -> u64 {
    u64::try_from(balance).unwrap_or(0)
}

fn bits_balance(bits: u64) -> i64 {
    i64::try_from(bits).unwrap_or(i64::MAX)
}

/// A charge outcome as (kind, balance bits).
fn pack_outcome(c: ChargeOutcome) -> (u64, u64) {
    match c {
        ChargeOutcome::Success { balance } => (KIND_SUCCESS, balance_bits(balance)),
        ChargeOutcome::InsufficientFunds { balance } => (KIND_INSUFFICIENT, balance_bits(balance)),
    }
}

fn unpack_outcome(kind: u64, balance: i64) -> ChargeOutcome {
    if kind & 1 == KIND_SUCCESS {
        ChargeOutcome::Success { balance }
    } else {
        ChargeOutcome::InsufficientFunds { balance }
    }
}

/// `RequestProgress` as `tag | kind << 2 | balance << 4`.
fn pack_progress(p: RequestProgress) -> u64 {
    let (tag, kind, balance) = match p {
        RequestProgress::NotStarted => (TAG_NOT_STARTED, 0, 0),
        RequestProgress::CheckMissed => (TAG_CHECK_MISSED, 0, 0),
        RequestProgress::Charged(c) => {
            let (kind, balance) = pack_outcome(c);
            (TAG_CHARGED, kind, balance)
        }
        RequestProgress::Returned(LabResult::Success { balance }) => {
            (TAG_RETURNED, KIND_SUCCESS, balance_bits(balance))
        }
        RequestProgress::Returned(LabResult::InsufficientFunds { balance }) => {
            (TAG_RETURNED, KIND_INSUFFICIENT, balance_bits(balance))
        }
        RequestProgress::Returned(LabResult::DuplicateRequest { original }) => {
            let (kind, balance) = pack_outcome(original);
            let kind = if kind == KIND_SUCCESS {
                KIND_DUPLICATE_OF_SUCCESS
            } else {
                KIND_DUPLICATE_OF_INSUFFICIENT
            };
            (TAG_RETURNED, kind, balance)
        }
    };
    tag | kind << 2 | balance << 4
}

fn unpack_progress(bits: u64) -> RequestProgress {
    let kind = (bits >> 2) & 3;
    let balance = bits_balance(bits >> 4);
    match bits & 3 {
        TAG_NOT_STARTED => RequestProgress::NotStarted,
        TAG_CHECK_MISSED => RequestProgress::CheckMissed,
        TAG_CHARGED => RequestProgress::Charged(unpack_outcome(kind, balance)),
        _ => RequestProgress::Returned(match kind {
            KIND_SUCCESS => LabResult::Success { balance },
            KIND_INSUFFICIENT => LabResult::InsufficientFunds { balance },
            _ => LabResult::DuplicateRequest {
                original: unpack_outcome(kind, balance),
            },
        }),
    }
}

/// A stored result as `present | kind << 1 | balance << 2`; 0 is "nothing stored".
fn pack_stored(c: Option<ChargeOutcome>) -> u64 {
    match c {
        None => 0,
        Some(c) => {
            let (kind, balance) = pack_outcome(c);
            1 | kind << 1 | balance << 2
        }
    }
}

fn unpack_stored(bits: u64) -> Option<ChargeOutcome> {
    (bits & 1 == 1).then(|| unpack_outcome((bits >> 1) & 1, bits_balance(bits >> 2)))
}

impl LabState {
    /// The next step (0-based) of request `r`; `LAB_STEPS_PER_REQUEST` once it has taken all.
    pub fn pc(&self, r: usize) -> usize {
        self.pcs
            .get(r)
            .map_or(LAB_STEPS_PER_REQUEST, |pc| usize::from(*pc))
    }

    /// What request `r` carries between steps.
    pub fn progress(&self, r: usize) -> RequestProgress {
        self.progress
            .get(r)
            .map_or(RequestProgress::NotStarted, |bits| unpack_progress(*bits))
    }

    fn set_progress(&mut self, r: usize, p: RequestProgress) {
        if let Some(slot) = self.progress.get_mut(r) {
            *slot = pack_progress(p);
        }
    }

    /// The shared balance.
    pub fn balance(&self) -> i64 {
        self.balance
    }

    /// Charges made so far (`operation_count`).
    pub fn operation_count(&self) -> usize {
        usize::from(self.operation_count)
    }

    /// The stored result for key index `key`.
    pub fn stored(&self, key: usize) -> Option<ChargeOutcome> {
        self.store.get(key).and_then(|bits| unpack_stored(*bits))
    }

    /// Stores `c` under key index `key`; returns what was there.
    fn insert(&mut self, key: usize, c: ChargeOutcome) -> Option<ChargeOutcome> {
        let slot = self.store.get_mut(key)?;
        let replaced = unpack_stored(*slot);
        *slot = pack_stored(Some(c));
        replaced
    }

    /// The request holding the atomic service's state lock between steps.
    pub fn lock_holder(&self) -> Option<usize> {
        self.lock_holder.map(usize::from)
    }

    /// The result request `r` returned, once it has.
    pub fn result(&self, r: usize) -> Option<LabResult> {
        match self.progress(r) {
            RequestProgress::Returned(result) => Some(result),
            _ => None,
        }
    }
}

/// Where a request stands, as the lane shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestStatus {
    /// Can take step `step` (0-based) now.
    Ready {
        /// The step it will take.
        step: usize,
    },
    /// Wants the lock `holder` has; cannot be picked until it is released.
    Blocked {
        /// The request holding the lock.
        holder: usize,
    },
    /// Has returned early; its remaining steps run no code but are still its to take.
    Returned {
        /// The step it will take (an idle one).
        step: usize,
        /// What it returned.
        result: LabResult,
    },
    /// Has taken all its steps.
    Finished {
        /// What it returned.
        result: LabResult,
    },
}

impl RequestStatus {
    /// Whether the scheduler may pick this request now.
    pub fn can_move(self) -> bool {
        matches!(
            self,
            RequestStatus::Ready { .. } | RequestStatus::Returned { .. }
        )
    }
}

/// What one step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepAction {
    /// The check found a stored result: the request returned `DuplicateRequest`.
    CheckHit {
        /// The stored result it replayed.
        original: ChargeOutcome,
    },
    /// The check found nothing stored.
    CheckMiss,
    /// The charge ran and decided this.
    Charged(ChargeOutcome),
    /// The result was stored (overwriting `replaced`, if a result was already there) and returned.
    Stored {
        /// The stored and returned result.
        result: ChargeOutcome,
        /// What the insert overwrote.
        replaced: Option<ChargeOutcome>,
    },
    /// The request had already returned: no code ran.
    Idle,
}

/// One step as it happened: which request, which of its steps, what it did, which locks it used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepRecord {
    /// 0-based request index.
    pub request: usize,
    /// 0-based step of the request.
    pub step: usize,
    /// What happened.
    pub action: StepAction,
    /// Locks taken and released within this step.
    pub locks_within: &'static [LockName],
    /// Lock taken and still held when the step ends.
    pub acquired: Option<LockName>,
    /// Lock held from an earlier step and released by this one (or taken and released on an
    /// early return of the atomic service).
    pub released: Option<LockName>,
}

/// How a finished run turned out, as the explorer groups it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OutcomeKey {
    /// Requests that returned `Success`.
    pub successes: u8,
    /// Requests that returned `DuplicateRequest`.
    pub duplicates: u8,
    /// Requests that returned `InsufficientFunds`.
    pub insufficient: u8,
    /// Whether one idempotency key was charged more than once.
    pub double_charged: bool,
}

/// A validated lab scenario: model, requests, keys, amounts and the initial balance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabScenario {
    model: Model,
    keys: KeyMode,
    amounts: Vec<i64>,
    initial_balance: i64,
}

impl Default for LabScenario {
    /// The article's race: three same-key retries of a 100 charge through the TOCTOU service,
    /// with 1000 in the account (enough for every request to charge, so a double charge shows).
    fn default() -> Self {
        LabScenario {
            model: Model::TocTou,
            keys: KeyMode::Same,
            amounts: vec![100; 3],
            initial_balance: 1000,
        }
    }
}

impl LabScenario {
    /// Checks every limit. `amounts` holds one amount for all requests or one per request.
    pub fn new(
        model: Model,
        requests: usize,
        keys: KeyMode,
        amounts: &[i64],
        initial_balance: i64,
    ) -> Result<LabScenario, LabError> {
        if !(MIN_PARALLEL_REQUESTS..=MAX_PARALLEL_REQUESTS).contains(&requests) {
            return Err(LabError::RequestCount { requests });
        }
        let amounts: Vec<i64> = match amounts.len() {
            1 => vec![amounts[0]; requests],
            n if n == requests => amounts.to_vec(),
            given => return Err(LabError::AmountCount { given, requests }),
        };
        if let Some((request, &amount)) = amounts
            .iter()
            .enumerate()
            .find(|(_, a)| !(MIN_AMOUNT..=MAX_AMOUNT).contains(*a))
        {
            return Err(LabError::Amount { request, amount });
        }
        if !(MIN_BALANCE..=MAX_BALANCE).contains(&initial_balance) {
            return Err(LabError::Balance {
                balance: initial_balance,
            });
        }
        Ok(LabScenario {
            model,
            keys,
            amounts,
            initial_balance,
        })
    }

    /// The same requests run by another model (for the side-by-side comparison).
    pub fn with_model(&self, model: Model) -> LabScenario {
        LabScenario {
            model,
            ..self.clone()
        }
    }

    /// The service the requests run.
    pub fn model(&self) -> Model {
        self.model
    }

    /// Number of concurrent requests.
    pub fn requests(&self) -> usize {
        self.amounts.len()
    }

    /// Same key or one key per request.
    pub fn keys(&self) -> KeyMode {
        self.keys
    }

    /// Amount of each request.
    pub fn amounts(&self) -> &[i64] {
        &self.amounts
    }

    /// Balance before any request runs.
    pub fn initial_balance(&self) -> i64 {
        self.initial_balance
    }

    /// Total steps of a complete schedule.
    pub fn total_steps(&self) -> usize {
        self.requests() * LAB_STEPS_PER_REQUEST
    }

    /// Index of request `r`'s key in the store.
    pub fn key_index(&self, r: usize) -> usize {
        match self.keys {
            KeyMode::Same => 0,
            KeyMode::Different => r,
        }
    }

    /// The idempotency key request `r` sends, as text.
    pub fn key_label(&self, key: usize) -> String {
        match self.keys {
            KeyMode::Same => "same-key".to_string(),
            KeyMode::Different => format!("key-{}", key + 1),
        }
    }

    /// The state before any step.
    pub fn initial_state(&self) -> LabState {
        LabState {
            pcs: [0; MAX_PARALLEL_REQUESTS],
            progress: [pack_progress(RequestProgress::NotStarted); MAX_PARALLEL_REQUESTS],
            balance: self.initial_balance,
            operation_count: 0,
            store: [pack_stored(None); MAX_PARALLEL_REQUESTS],
            lock_holder: None,
        }
    }

    /// Where request `r` stands in `state`; `None` if there is no request `r`.
    pub fn status(&self, state: &LabState, r: usize) -> Option<RequestStatus> {
        if r >= self.requests() {
            return None;
        }
        let step = state.pc(r);
        let progress = state.progress(r);
        Some(match progress {
            RequestProgress::Returned(result) if step >= LAB_STEPS_PER_REQUEST => {
                RequestStatus::Finished { result }
            }
            RequestProgress::Returned(result) => RequestStatus::Returned { step, result },
            _ => match state.lock_holder() {
                Some(holder) if self.model == Model::Atomic && step == 0 && holder != r => {
                    RequestStatus::Blocked { holder }
                }
                _ => RequestStatus::Ready { step },
            },
        })
    }

    /// Whether request `r` can be picked now.
    pub fn can_move(&self, state: &LabState, r: usize) -> bool {
        self.status(state, r).is_some_and(RequestStatus::can_move)
    }

    /// Whether every request has taken all its steps.
    pub fn is_complete(&self, state: &LabState) -> bool {
        (0..self.requests()).all(|r| state.pc(r) >= LAB_STEPS_PER_REQUEST)
    }

    /// Moves request `r` one step, or says why it cannot move. `position` is only used to say
    /// where in a schedule the error is.
    pub fn step(
        &self,
        state: &mut LabState,
        r: usize,
        position: usize,
    ) -> Result<StepRecord, LabError> {
        match self.status(state, r) {
            None => Err(LabError::ScheduleIndexOutOfRange {
                position,
                request: r,
                requests: self.requests(),
            }),
            Some(RequestStatus::Blocked { holder }) => Err(LabError::ScheduleBlocked {
                position,
                request: r,
                holder,
            }),
            Some(RequestStatus::Finished { .. }) => Err(LabError::ScheduleFinished {
                position,
                request: r,
            }),
            Some(RequestStatus::Ready { .. } | RequestStatus::Returned { .. }) => {
                Ok(self.apply(state, r))
            }
        }
    }

    /// Moves request `r`, which the caller has checked can move. Kept separate from [`step`] so
    /// the explorer's inner loop does not re-derive the status.
    ///
    /// [`step`]: LabScenario::step
    pub(crate) fn apply(&self, state: &mut LabState, r: usize) -> StepRecord {
        let step = state.pc(r);
        // Cheap enough for the explorer's inner loop: the status itself is the caller's check.
        debug_assert!(
            step < LAB_STEPS_PER_REQUEST,
            "request {r} has steps left to take"
        );
        let key = self.key_index(r);
        let amount = self.amounts.get(r).copied().unwrap_or(MIN_AMOUNT);
        let mut record = StepRecord {
            request: r,
            step,
            action: StepAction::Idle,
            locks_within: &[],
            acquired: None,
            released: None,
        };
        let progress = state.progress(r);
        let next = match (step, progress) {
            (0, RequestProgress::NotStarted) => self.check_key(state, r, key, &mut record),
            (1, RequestProgress::CheckMissed) => self.charge_balance(state, amount, &mut record),
            (2, RequestProgress::Charged(result)) => {
                self.store_result(state, key, result, &mut record)
            }
            // Returned early: the remaining steps run no code. Any other pairing cannot be reached
            // through `step`; treating it as idle keeps this total instead of panicking.
            (_, other) => other,
        };
        state.set_progress(r, next);
        if let Some(pc) = state.pcs.get_mut(r) {
            *pc = pc.saturating_add(1);
        }
        record
    }

    /// Step 0 of request `r`: looks `key` up (the atomic service takes its lock first); a hit
    /// returns the stored result.
    fn check_key(
        &self,
        state: &mut LabState,
        r: usize,
        key: usize,
        record: &mut StepRecord,
    ) -> RequestProgress {
        let model = self.model;
        match model {
            Model::TocTou => record.locks_within = &[LockName::IdempotencyStore],
            Model::Atomic => {
                state.lock_holder = u8::try_from(r).ok();
                record.acquired = Some(LockName::State);
            }
            Model::Unlocked => {}
        }
        match state.stored(key) {
            Some(original) => {
                record.action = StepAction::CheckHit { original };
                if model == Model::Atomic {
                    // `return` inside the critical section drops the guard at once.
                    state.lock_holder = None;
                    record.acquired = None;
                    record.locks_within = &[LockName::State];
                }
                RequestProgress::Returned(LabResult::DuplicateRequest { original })
            }
            None => {
                record.action = StepAction::CheckMiss;
                RequestProgress::CheckMissed
            }
        }
    }

    /// Step 1: charges `amount` if the balance covers it.
    fn charge_balance(
        &self,
        state: &mut LabState,
        amount: i64,
        record: &mut StepRecord,
    ) -> RequestProgress {
        let toctou = self.model == Model::TocTou;
        let outcome = if state.balance < amount {
            if toctou {
                record.locks_within = &[LockName::Balance];
            }
            ChargeOutcome::InsufficientFunds {
                balance: state.balance,
            }
        } else {
            if toctou {
                record.locks_within = &[LockName::Balance, LockName::OperationCount];
            }
            state.balance -= amount;
            state.operation_count = state.operation_count.saturating_add(1);
            ChargeOutcome::Success {
                balance: state.balance,
            }
        };
        record.action = StepAction::Charged(outcome);
        RequestProgress::Charged(outcome)
    }

    /// Step 2: stores `result` under `key` (the atomic service then releases its lock) and
    /// returns it.
    fn store_result(
        &self,
        state: &mut LabState,
        key: usize,
        result: ChargeOutcome,
        record: &mut StepRecord,
    ) -> RequestProgress {
        match self.model {
            Model::TocTou => record.locks_within = &[LockName::IdempotencyStore],
            Model::Atomic => {
                state.lock_holder = None;
                record.released = Some(LockName::State);
            }
            Model::Unlocked => {}
        }
        let replaced = state.insert(key, result);
        record.action = StepAction::Stored { result, replaced };
        RequestProgress::Returned(result.into())
    }

    /// Requests that returned or are about to return `Success`, per key: a key with two or more is
    /// charged twice. Counted from `Charged` too, so the page can flag the double charge the moment
    /// the second charge happens.
    pub fn charges_per_key(&self, state: &LabState) -> [u8; MAX_PARALLEL_REQUESTS] {
        let mut per_key = [0u8; MAX_PARALLEL_REQUESTS];
        for r in 0..self.requests() {
            let charged = matches!(
                state.progress(r),
                RequestProgress::Charged(ChargeOutcome::Success { .. })
                    | RequestProgress::Returned(LabResult::Success { .. })
            );
            if charged {
                if let Some(n) = per_key.get_mut(self.key_index(r)) {
                    *n = n.saturating_add(1);
                }
            }
        }
        per_key
    }

    /// Whether some key has been charged more than once so far.
    pub fn double_charged(&self, state: &LabState) -> bool {
        self.charges_per_key(state).iter().any(|n| *n >= 2)
    }

    /// The outcome of a complete run, `None` while some request has steps left.
    pub fn outcome(&self, state: &LabState) -> Option<OutcomeKey> {
        if !self.is_complete(state) {
            return None;
        }
        Some(self.outcome_unchecked(state))
    }

    pub(crate) fn outcome_unchecked(&self, state: &LabState) -> OutcomeKey {
        let mut key = OutcomeKey {
            successes: 0,
            duplicates: 0,
            insufficient: 0,
            double_charged: self.double_charged(state),
        };
        for r in 0..self.requests() {
            match state.result(r) {
                Some(LabResult::Success { .. }) => key.successes += 1,
                Some(LabResult::DuplicateRequest { .. }) => key.duplicates += 1,
                Some(LabResult::InsufficientFunds { .. }) => key.insufficient += 1,
                None => {}
            }
        }
        key
    }
}

/// Number of context switches in `schedule`: places where the next step belongs to another
/// request than the one before.
pub fn context_switches(schedule: &[usize]) -> usize {
    schedule.windows(2).filter(|w| w[0] != w[1]).count()
}
