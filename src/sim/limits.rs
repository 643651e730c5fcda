//! Every limit of the simulation, named once, and the one error type for input that breaks them.
//!
//! The UI translates errors by matching on [`InputError`]'s variants, so the variants carry the
//! offending value and the limit and must stay stable.

// serde only because the article's `PaymentResult` (article.rs) derives it and carries an
// `InputError`; the page never serializes one.
use serde::{Deserialize, Serialize};

/// Smallest chargeable amount (minor units).
pub const MIN_AMOUNT: i64 = 1;
/// Largest chargeable amount: Stripe caps amounts at 8 digits.
pub const MAX_AMOUNT: i64 = 99_999_999;
/// Smallest starting balance: an empty account still answers (with InsufficientFunds).
pub const MIN_BALANCE: i64 = 0;
/// Largest balance an account may hold (10^12 minor units).
pub const MAX_BALANCE: i64 = 1_000_000_000_000;
/// Longest idempotency key in characters, Stripe's limit.
pub const MAX_KEY_LEN: usize = 255;
/// The characters a key the learner types may hold (issue 26): the IETF draft's `Idempotency-Key`
/// is an RFC 8941 sf-string, printable ASCII from space (0x20) to `~` (0x7E); `"` and `\` travel
/// escaped (`article::key::check_key_chars`).
pub const KEY_CHARS: std::ops::RangeInclusive<char> = ' '..='~';
/// Fewest attempts a retrying client operation makes: the first one.
pub const MIN_ATTEMPTS: u32 = 1;
/// Most attempts one retrying client operation may make.
pub const MAX_ATTEMPTS: u32 = 20;
/// Fewest requests in one `Parallel` input: one request is not concurrency.
pub const MIN_PARALLEL_REQUESTS: usize = 2;
/// Most requests in one `Parallel` input.
pub const MAX_PARALLEL_REQUESTS: usize = 10;
/// The highest account number a caller may have (issue 13): 0 is the single account every
/// request had before accounts existed, 1..=`MAX_ACCOUNT` are further customers.
pub const MAX_ACCOUNT: u32 = 3;
/// How many accounts there are: 0..=`MAX_ACCOUNT`, each with a balance of its own.
pub const ACCOUNTS: usize = MAX_ACCOUNT as usize + 1;
/// Most inputs one world or scenario accepts.
pub const MAX_INPUTS: usize = 20_000;
/// Most inputs a run's branch (its forks: inputs pushed at a step) holds.
pub const MAX_BRANCH_INPUTS: usize = 100;
/// Most client operations a world can hold (every input a `Parallel` of the most requests): the
/// range of an operation number a fork names.
pub const MAX_OPERATIONS: usize = MAX_INPUTS * MAX_PARALLEL_REQUESTS;
/// Longest single `AdvanceTime` step: 30 days of simulated time.
pub const MAX_ADVANCE_MS: u64 = 30 * 24 * 60 * 60 * 1000;
/// Largest one-way network latency (and jitter) in simulated ms.
pub const MAX_LATENCY_MS: u64 = 60_000;
/// Largest client timeout in simulated ms.
pub const MAX_TIMEOUT_MS: u64 = 600_000;
/// Largest retry delay, backoff base or backoff cap in simulated ms.
pub const MAX_RETRY_DELAY_MS: u64 = 3_600_000;
/// Longest key retention: 30 days (Stripe keeps keys at least 24 h; some APIs keep 7 days).
pub const MAX_RETENTION_MS: u64 = MAX_ADVANCE_MS;
/// Shortest in-flight lock timeout: long enough that a live request (1 ms per phase) never
/// outlives its own lock, so only crashed requests' records expire.
pub const MIN_IN_FLIGHT_TIMEOUT_MS: u64 = 1_000;
/// Longest in-flight lock timeout: 1 h (rocket-rides uses 90 s).
pub const MAX_IN_FLIGHT_TIMEOUT_MS: u64 = 3_600_000;
/// Longest card-processor answer time, normal or slow: 10 min (rocket-rides' example of a slow
/// processor is 120 s, past its 90 s lock).
pub const MAX_PROCESSOR_MS: u64 = 600_000;
/// Most keys a size-limited key store holds (0 means no limit).
pub const MAX_STORE_CAPACITY: u32 = 10_000;
/// Longest charge description in characters; keeps shared scenarios small.
pub const MAX_DESCRIPTION_LEN: usize = 200;
/// Most trace events one world records before it halts; bounds memory.
pub const MAX_TRACE_EVENTS: usize = 500_000;
/// Longest shareable URL in bytes.
pub const MAX_URL_BYTES: usize = 8192;
/// Largest scenario JSON in bytes.
pub const MAX_JSON_BYTES: usize = 65_536;
/// Most arrays and objects open at once in JSON this page reads: far more than its formats need
/// (a scenario nests five deep), few enough that the recursive reader cannot exhaust the stack.
pub const MAX_JSON_DEPTH: usize = 128;
/// Fewest services a scenario compares.
pub const MIN_SERVICES: usize = 1;
/// Most services a scenario compares (one world each).
pub const MAX_SERVICES: usize = 6;
/// The only scenario format version this build reads.
pub const SCENARIO_VERSION: u32 = 1;

// ---- the concurrency lab -----------------------------------------------------------------
// A lab scenario is a `Parallel` input of the simulation: its request counts, amounts and
// balances are the limits above. What follows bounds the lab's own work.

/// Steps every lab request takes in every model: check | charge | store. A request that returned
/// early spends the rest of its steps returned, so every schedule has the same length.
pub const LAB_STEPS_PER_REQUEST: usize = 3;
/// Longest lab schedule: every step of the largest scenario (also the size of the lab state's
/// fixed arrays, through `MAX_PARALLEL_REQUESTS`).
pub const MAX_SCHEDULE_LEN: usize = MAX_PARALLEL_REQUESTS * LAB_STEPS_PER_REQUEST;
/// Most complete schedules an exhaustive search without state caching may enumerate. 5 million
/// schedules of up to 15 steps is a few seconds of page time; 4 requests of 3 steps (369,600) fit.
pub const MAX_RAW_SCHEDULES: u128 = 5_000_000;
/// Most requests an exhaustive search with state caching accepts. The distinct states grow about
/// twentyfold per request (same-key TOCTOU: 28, 341, 5,876, 124,877 for 2..=5 requests); 6 requests
/// pass 2 million states, too many for a page, while 5 stay far under [`MAX_EXPLORED_STATES`].
pub const MAX_CACHED_REQUESTS: usize = 5;
/// Most distinct states a cached search may store before it stops: about 200 bytes each plus the
/// summary, so this bounds the page's memory to a few hundred MB even if a model grows more states.
pub const MAX_EXPLORED_STATES: usize = 1_000_000;
/// Most random schedules one sample may try.
pub const MAX_SAMPLES: u64 = 1_000_000;
/// Largest seed a learner may type: any 64-bit seed (the PRNG's whole state space).
pub const MAX_SEED: u64 = u64::MAX;
/// Most characters of typed text an error message quotes back.
pub const MAX_QUOTED_CHARS: usize = 40;

// ---- property checks ------------------------------------------------------------------
// A property run (`crate::sim::properties`) checks generated scenarios, each within the limits
// above; what follows bounds the run itself and the numbers a learner types for it.

/// Fewest cases a property run checks.
pub const MIN_PROPERTY_CASES: u32 = 1;
/// Most cases one property run checks: forty times proptest's default, a few seconds of page
/// time for the heaviest property (BENCHMARKS.md), run in slices with Cancel.
pub const MAX_PROPERTY_CASES: u32 = 10_000;
/// Cases a run checks unless told otherwise: proptest's default (`Config::cases`).
pub const DEFAULT_PROPERTY_CASES: u32 = 256;
/// Largest property seed: 2^53 - 1, the largest whole number a JavaScript number holds
/// exactly, so the page's "new seed" (drawn from `Math.random`), its links and its tests all
/// read a seed back unchanged.
pub const MAX_PROPERTY_SEED: u64 = (1 << 53) - 1;
/// Most candidates the shrinker tries for one failure: proptest's default for 256 cases
/// (`max_shrink_iters` is 4 x cases). Each candidate is one small world run to its end.
pub const MAX_SHRINK_ATTEMPTS: u32 = 1_024;
/// Most shrink steps the log of one failure keeps for the page to walk through (an edit and
/// its verdict each; later steps are counted, not kept). Shrinking a generated case takes 8 to
/// 90 steps; the log's bound is the page's, not the shrinker's.
pub const MAX_SHRINK_LOG: usize = 256;
/// Most world steps one durable-execution world takes before it halts (a run without faults
/// takes about 20; the heaviest lesson fewer than 80).
pub const MAX_DURABLE_STEPS: usize = 400;
/// Most learner actions (crash, restart, start again) one durable-execution run holds.
pub const MAX_DURABLE_ACTIONS: usize = 40;
/// Most faults one durable-execution world carries (one per step of the workflow).
pub const MAX_DURABLE_FAULTS: usize = 6;
/// Most worlds one durable-execution page compares side by side.
pub const MAX_DURABLE_COLUMNS: usize = 4;
/// Latest time at which a durable-execution client may start the workflow again (simulated ms).
pub const MAX_DURABLE_START_MS: u64 = 60_000;

// The Kafka page's limits (`crate::sim::kafka`).
/// Fewest requests in flight: `max.in.flight.requests.per.connection` = 1.
pub const KAFKA_MIN_IN_FLIGHT: u8 = 1;
/// Most requests in flight the page offers: 10, twice what idempotence allows, to show why.
pub const KAFKA_MAX_IN_FLIGHT: u8 = 10;
/// Most `retries` per batch (Kafka's default is 2^31 − 1, bounded by `delivery.timeout.ms`).
pub const KAFKA_MAX_RETRIES: u8 = 10;
/// Most events one `send` input writes.
pub const KAFKA_MAX_SEND: u8 = 10;
/// Most inputs one Kafka scenario holds.
pub const KAFKA_MAX_INPUTS: usize = 100;
/// Most events one Kafka scenario writes in all.
pub const KAFKA_MAX_EVENTS: u32 = 200;
/// Longest delay of one request, in simulated ms.
pub const KAFKA_MAX_DELAY_MS: u32 = 1_000;
/// Latest time an input may be at, in simulated ms.
pub const KAFKA_MAX_AT_MS: u64 = 100_000;
/// Largest network jitter, in simulated ms.
pub const KAFKA_MAX_JITTER_MS: u32 = 20;
/// The Kafka page's `delivery_timeout_ms` (simulated ms; the request timeout is 60).
pub const KAFKA_MAX_DELIVERY_TIMEOUT_MS: u32 = 10_000;
/// Most steps one Kafka run takes (a run that would take more stops there and says so).
pub const KAFKA_MAX_STEPS: usize = 20_000;

// The relations between the limits that the code relies on, checked when it compiles (as
// TigerBeetle's `constants.zig` does with `comptime { assert(...) }`): a change to one limit that
// breaks another's assumption does not build.
const _: () = {
    assert!(MIN_AMOUNT >= 1 && MIN_AMOUNT <= MAX_AMOUNT);
    // Every charge a run can make fits in the balance's type, however many there are.
    assert!(MAX_BALANCE
        .checked_add(MAX_AMOUNT * MAX_OPERATIONS as i64)
        .is_some());
    assert!(MIN_BALANCE >= 0 && MIN_BALANCE <= MAX_BALANCE);
    assert!(MIN_ATTEMPTS >= 1 && MIN_ATTEMPTS <= MAX_ATTEMPTS);
    assert!(MIN_PARALLEL_REQUESTS >= 2 && MIN_PARALLEL_REQUESTS <= MAX_PARALLEL_REQUESTS);
    assert!(MAX_BRANCH_INPUTS <= MAX_INPUTS);
    // The simulated clock in ms stays far inside u64 after every input has advanced it.
    assert!(MAX_ADVANCE_MS.checked_mul(MAX_INPUTS as u64).is_some());
    assert!(MIN_IN_FLIGHT_TIMEOUT_MS <= MAX_IN_FLIGHT_TIMEOUT_MS);
    assert!(MIN_SERVICES >= 1 && MIN_SERVICES <= MAX_SERVICES);
    // A key as long as allowed still fits in a share link.
    assert!(MAX_KEY_LEN * 4 < MAX_URL_BYTES);
    assert!(MAX_JSON_DEPTH >= 2 && MAX_URL_BYTES <= MAX_JSON_BYTES);
    assert!(MIN_PROPERTY_CASES >= 1);
    assert!(MIN_PROPERTY_CASES <= DEFAULT_PROPERTY_CASES);
    assert!(DEFAULT_PROPERTY_CASES <= MAX_PROPERTY_CASES);
    // A seed survives JavaScript's numbers (the page's inputs and JSON).
    assert!(MAX_PROPERTY_SEED < 1 << 53);
    assert!(MAX_SHRINK_LOG <= MAX_SHRINK_ATTEMPTS as usize);
    assert!(MAX_DURABLE_ACTIONS <= MAX_DURABLE_STEPS && MAX_DURABLE_FAULTS <= MAX_DURABLE_ACTIONS);
    assert!(MAX_DURABLE_COLUMNS >= 2);
    assert!(KAFKA_MIN_IN_FLIGHT >= 1 && KAFKA_MIN_IN_FLIGHT <= KAFKA_MAX_IN_FLIGHT);
    assert!(KAFKA_MAX_JITTER_MS < KAFKA_MAX_DELIVERY_TIMEOUT_MS);
    assert!(KAFKA_MAX_INPUTS <= KAFKA_MAX_STEPS);
    assert!(KAFKA_MAX_SEND as u32 <= KAFKA_MAX_EVENTS);
    // A charge is never larger than the largest balance; a key's retention fits in one advance
    // of the clock, so a retry past it can always be set.
    assert!(MAX_AMOUNT <= MAX_BALANCE);
    assert!(MAX_RETENTION_MS <= MAX_ADVANCE_MS);
    // The lab's schedule has room for every step of every request, and no more.
    assert!(MAX_SCHEDULE_LEN == MAX_PARALLEL_REQUESTS * LAB_STEPS_PER_REQUEST);
    assert!(MAX_JSON_BYTES <= MAX_URL_BYTES * 8);
};

/// Which duration setting an [`InputError::DurationOutOfRange`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DurationField {
    /// Network one-way latency.
    Latency,
    /// Network jitter added to the latency.
    Jitter,
    /// Client timeout.
    Timeout,
    /// One `AdvanceTime` input.
    Advance,
    /// Fixed retry delay.
    RetryDelay,
    /// Exponential backoff base.
    RetryBase,
    /// Exponential backoff cap.
    RetryCap,
    /// Idempotency key retention.
    Retention,
    /// In-flight record timeout.
    InFlightTimeout,
    /// The card processor's answer time.
    ProcessorLatency,
    /// A slow card processor's answer time.
    ProcessorSlow,
}

/// Which quantity overflowed in an [`InputError::Overflow`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quantity {
    /// The simulated clock.
    Time,
    /// The account balance.
    Balance,
    /// A sum of ledger amounts.
    Ledger,
    /// The number of interned keys, operations or events.
    Ids,
}

/// The playground's fields that take a typed number, each with its range (`range`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TypedField {
    /// The amount of a charge or an operation.
    Amount,
    /// The amount of a deposit.
    Deposit,
    /// How many concurrent duplicates to send.
    ConcurrentRequests,
    /// How many attempts a retrying client makes at most.
    MaxAttempts,
    /// How many cases a property run checks.
    PropertyCases,
    /// The seed of a property run.
    PropertySeed,
}

impl TypedField {
    /// The smallest and largest number the field takes.
    pub fn range(self) -> (i128, i128) {
        match self {
            Self::Amount | Self::Deposit => (i128::from(MIN_AMOUNT), i128::from(MAX_AMOUNT)),
            Self::ConcurrentRequests => {
                (MIN_PARALLEL_REQUESTS as i128, MAX_PARALLEL_REQUESTS as i128)
            }
            Self::MaxAttempts => (i128::from(MIN_ATTEMPTS), i128::from(MAX_ATTEMPTS)),
            Self::PropertyCases => (
                i128::from(MIN_PROPERTY_CASES),
                i128::from(MAX_PROPERTY_CASES),
            ),
            Self::PropertySeed => (0, i128::from(MAX_PROPERTY_SEED)),
        }
    }
}

/// What is wrong with a number as typed; told apart so that the message names the real problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NumberProblem {
    /// Nothing was typed.
    Empty,
    /// Not a whole number at all: letters, a decimal point, an exponent.
    NotANumber,
    /// A whole number below zero, in a field whose range starts at zero or above.
    Negative,
    /// A whole number below the field's smallest.
    TooSmall,
    /// A whole number above the field's largest (however many digits it has).
    TooLarge,
}

/// A typed number its field refuses: the problem, what was typed, and the field's range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypedNumberError {
    /// What is wrong.
    pub problem: NumberProblem,
    /// What was typed, trimmed, at most [`MAX_QUOTED_CHARS`] characters.
    pub text: String,
    /// The number read, when it is one that fits 128 bits.
    pub value: Option<i128>,
    /// Smallest the field takes.
    pub min: i128,
    /// Largest the field takes.
    pub max: i128,
}

/// Reads a whole number as typed into a field that takes `min..=max`: blanks around it, `_` and
/// `,` between digits, a sign (`+`, `-`, or the minus sign `−`), and full-width digits (as a
/// Japanese input method types them) are accepted. Anything else is refused with its problem:
/// empty, not a whole number, negative (when `min >= 0`), too small or too large.
pub fn read_number(text: &str, min: i128, max: i128) -> Result<i128, TypedNumberError> {
    let trimmed = text.trim();
    let refuse = |problem, value| TypedNumberError {
        problem,
        text: trimmed.chars().take(MAX_QUOTED_CHARS).collect(),
        value,
        min,
        max,
    };
    if trimmed.is_empty() {
        return Err(refuse(NumberProblem::Empty, None));
    }
    let mut chars = trimmed.chars().peekable();
    let negative = matches!(chars.peek(), Some('-' | '−' | '－'));
    if negative || matches!(chars.peek(), Some('+' | '＋')) {
        chars.next();
    }
    let v = digits(chars, negative).map_err(|p| refuse(p, None))?;
    in_range(v, negative, min, max).map_err(|p| refuse(p, v))
}

/// The digits after the sign: `Ok(None)` for a number too long for 128 bits, an error for
/// anything that is not digits.
fn digits(
    chars: impl Iterator<Item = char>,
    negative: bool,
) -> Result<Option<i128>, NumberProblem> {
    let mut value: Option<i128> = Some(0);
    let mut any = false;
    let mut last_was_separator = false;
    for c in chars {
        let d = match c {
            '0'..='9' => c as u32 - '0' as u32,
            '０'..='９' => c as u32 - '０' as u32,
            '_' | ',' | '，' if any && !last_was_separator => {
                last_was_separator = true;
                continue;
            }
            _ => return Err(NumberProblem::NotANumber),
        };
        any = true;
        last_was_separator = false;
        let d = i128::from(d);
        value = value.and_then(|v| v.checked_mul(10)).and_then(|v| {
            if negative {
                v.checked_sub(d)
            } else {
                v.checked_add(d)
            }
        });
    }
    if !any || last_was_separator {
        return Err(NumberProblem::NotANumber);
    }
    Ok(value)
}

/// A number read against its field's range; `None` is one too long for 128 bits, beyond any
/// range on the side of its sign.
fn in_range(
    value: Option<i128>,
    negative: bool,
    min: i128,
    max: i128,
) -> Result<i128, NumberProblem> {
    let v = match value {
        Some(v) => v,
        None if negative && min >= 0 => return Err(NumberProblem::Negative),
        None if negative => return Err(NumberProblem::TooSmall),
        None => return Err(NumberProblem::TooLarge),
    };
    if v < 0 && min >= 0 {
        Err(NumberProblem::Negative)
    } else if v < min {
        Err(NumberProblem::TooSmall)
    } else if v > max {
        Err(NumberProblem::TooLarge)
    } else {
        Ok(v)
    }
}

/// Reads what was typed into one of the playground's number fields (see [`read_number`]).
pub fn read_field(field: TypedField, text: &str) -> Result<i128, InputError> {
    let (min, max) = field.range();
    read_number(text, min, max).map_err(|number| InputError::BadNumber { field, number })
}

/// Input that breaks a limit or cannot be understood; every variant names the value and the limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "kebab-case")]
pub enum InputError {
    /// An amount outside `min..=max`.
    AmountOutOfRange {
        /// The amount given.
        amount: i64,
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A starting balance outside `0..=max`.
    BalanceOutOfRange {
        /// The balance given.
        balance: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A deposit that would lift the balance above `max`.
    BalanceLimit {
        /// The balance before the deposit.
        balance: i64,
        /// The deposit asked for.
        deposit: i64,
        /// Largest balance allowed.
        max: i64,
    },
    /// An empty idempotency key.
    KeyEmpty,
    /// An idempotency key longer than `max` characters.
    KeyTooLong {
        /// Length in characters.
        len: usize,
        /// Longest allowed.
        max: usize,
    },
    /// A key with a character outside [`KEY_CHARS`]: not an RFC 8941 sf-string, so it cannot be
    /// sent as the IETF draft's `Idempotency-Key` header.
    KeyNotSfString {
        /// Which character, from 1.
        at: usize,
        /// Its Unicode code point.
        code: u32,
    },
    /// A description longer than `max` characters.
    DescriptionTooLong {
        /// Length in characters.
        len: usize,
        /// Longest allowed.
        max: usize,
    },
    /// A maximum-attempts setting outside `min..=max`.
    AttemptsOutOfRange {
        /// The value given.
        attempts: u32,
        /// Smallest allowed.
        min: u32,
        /// Largest allowed.
        max: u32,
    },
    /// More per-attempt faults than attempts.
    TooManyFaults {
        /// Number of faults given.
        faults: usize,
        /// Attempts allowed by the operation.
        max: usize,
    },
    /// A `Parallel` input with a request count outside `min..=max`.
    ParallelOutOfRange {
        /// Requests given.
        count: usize,
        /// Fewest allowed.
        min: usize,
        /// Most allowed.
        max: usize,
    },
    /// More inputs than one world accepts.
    TooManyInputs {
        /// Inputs given (or that would be held after this one).
        count: usize,
        /// Most allowed.
        max: usize,
    },
    /// A duration setting outside `min..=max` simulated ms.
    DurationOutOfRange {
        /// Which setting.
        field: DurationField,
        /// The value given.
        ms: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A scenario comparing a number of services outside `min..=max`.
    ServicesOutOfRange {
        /// Services given.
        count: usize,
        /// Fewest allowed.
        min: usize,
        /// Most allowed.
        max: usize,
    },
    /// A hand-made retry that would be attempt `attempt` of its operation, past `max`.
    RetryOverAttemptLimit {
        /// The attempt the retry would be.
        attempt: u32,
        /// Most attempts allowed.
        max: u32,
    },
    /// Inputs that could make one world record more than `max` trace events: refused before
    /// the run starts (see `world/budget.rs` for how the bound is counted).
    TooMuchWork {
        /// The bound of the inputs' trace events.
        events: u64,
        /// Most trace events one world records.
        max: usize,
    },
    /// The trace reached its cap; the world halts rather than grow without bound.
    TraceFull {
        /// The cap.
        max: usize,
    },
    /// A shared URL longer than `max` bytes.
    UrlTooLong {
        /// Length in bytes.
        bytes: usize,
        /// Longest allowed.
        max: usize,
    },
    /// Scenario JSON larger than `max` bytes.
    JsonTooLarge {
        /// Size in bytes.
        bytes: usize,
        /// Largest allowed.
        max: usize,
    },
    /// Scenario JSON that does not parse or does not match the format.
    JsonInvalid {
        /// 1-based line of the error (0 if unknown).
        line: usize,
        /// 1-based column of the error, in characters (0 if unknown).
        column: usize,
        /// The reader's English message (what was expected, naming the field), shown as a
        /// detail.
        message: String,
    },
    /// A scenario version this build does not read.
    UnsupportedVersion {
        /// Version found.
        version: u32,
        /// Version supported.
        supported: u32,
    },
    /// A number typed into a field that the field refuses: empty, not a whole number,
    /// negative, too small or too large for its range.
    BadNumber {
        /// Which field.
        field: TypedField,
        /// What is wrong, what was typed, and the field's range.
        number: TypedNumberError,
    },
    /// Checked arithmetic overflowed; the input is refused rather than wrapped.
    Overflow {
        /// What overflowed.
        quantity: Quantity,
    },
    /// A fork names an operation the run does not have (yet) at its step.
    NoSuchOperation {
        /// The operation, from 0.
        op: u32,
        /// Operations the run has at that step.
        count: u32,
    },
    /// A fork names an attempt the operation will not make (past its attempts at most).
    NoSuchAttempt {
        /// The operation, from 0.
        op: u32,
        /// The attempt, from 1.
        attempt: u32,
        /// The operation's attempts at most.
        max: u32,
    },
    /// A fork changes the fault of an attempt whose request already reached the server (or was
    /// lost): that part of the run is past.
    FaultTooLate {
        /// The operation, from 0.
        op: u32,
        /// The attempt, from 1.
        attempt: u32,
    },
    /// An input that only a fork (the scenario's `branch`) may hold, in the script's `inputs`.
    BranchOnly,
    /// A fork at a step the run never reaches.
    BranchPastEnd {
        /// The fork's step.
        at_step: usize,
        /// The run's last step.
        end: usize,
    },
    /// The branch's forks are not in step order.
    BranchOutOfOrder {
        /// The fork's step.
        at_step: usize,
        /// The step of the fork before it.
        previous: usize,
    },
    /// A key store capacity above `max` keys.
    StoreCapacityOutOfRange {
        /// The capacity given.
        capacity: u32,
        /// Largest allowed.
        max: u32,
    },
    /// A caller's account outside `0..=max`.
    AccountOutOfRange {
        /// The account given.
        account: u32,
        /// Highest allowed.
        max: u32,
    },
    /// A caller input wrapping something other than one request or one retrying client.
    CallerWrapsOnlyRequests,
    /// A key given to a caller that sends no key.
    KeyWithoutKeyHeader,
    /// The answer of a service that requires a key to a request without one (the IETF draft's
    /// 400).
    MissingKey,
}

/// Checks an amount against `MIN_AMOUNT..=MAX_AMOUNT`.
pub fn check_amount(amount: i64) -> Result<i64, InputError> {
    if (MIN_AMOUNT..=MAX_AMOUNT).contains(&amount) {
        Ok(amount)
    } else {
        Err(InputError::AmountOutOfRange {
            amount,
            min: MIN_AMOUNT,
            max: MAX_AMOUNT,
        })
    }
}

/// Checks a starting balance against `0..=MAX_BALANCE`.
pub fn check_balance(balance: i64) -> Result<i64, InputError> {
    if (MIN_BALANCE..=MAX_BALANCE).contains(&balance) {
        Ok(balance)
    } else {
        Err(InputError::BalanceOutOfRange {
            balance,
            max: MAX_BALANCE,
        })
    }
}

/// Checks a description's length in characters.
pub fn check_description(description: &str) -> Result<(), InputError> {
    // Bytes bound characters from above, so the count is skipped for short strings.
    if description.len() <= MAX_DESCRIPTION_LEN {
        return Ok(());
    }
    let len = description.chars().count();
    if len <= MAX_DESCRIPTION_LEN {
        Ok(())
    } else {
        Err(InputError::DescriptionTooLong {
            len,
            max: MAX_DESCRIPTION_LEN,
        })
    }
}

/// Checks a duration setting against `min..=max`.
pub fn check_duration(
    field: DurationField,
    ms: u64,
    min: u64,
    max: u64,
) -> Result<u64, InputError> {
    if (min..=max).contains(&ms) {
        Ok(ms)
    } else {
        Err(InputError::DurationOutOfRange {
            field,
            ms,
            min,
            max,
        })
    }
}

/// Checks a shared URL's length in bytes.
pub fn check_url_len(url: &str) -> Result<(), InputError> {
    if url.len() <= MAX_URL_BYTES {
        Ok(())
    } else {
        Err(InputError::UrlTooLong {
            bytes: url.len(),
            max: MAX_URL_BYTES,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amount_bounds_are_inclusive() {
        assert_eq!(check_amount(MIN_AMOUNT), Ok(MIN_AMOUNT));
        assert_eq!(check_amount(MAX_AMOUNT), Ok(MAX_AMOUNT));
        assert!(matches!(
            check_amount(0),
            Err(InputError::AmountOutOfRange { amount: 0, .. })
        ));
        assert!(check_amount(MAX_AMOUNT + 1).is_err());
        assert!(check_amount(i64::MIN).is_err());
    }

    #[test]
    fn balance_bounds() {
        assert!(check_balance(0).is_ok());
        assert!(check_balance(MAX_BALANCE).is_ok());
        assert!(check_balance(-1).is_err());
        assert!(check_balance(MAX_BALANCE + 1).is_err());
    }

    #[test]
    fn description_counts_characters_not_bytes() {
        let ok = "円".repeat(MAX_DESCRIPTION_LEN);
        assert!(ok.len() > MAX_DESCRIPTION_LEN);
        assert_eq!(check_description(&ok), Ok(()));
        let long = "a".repeat(MAX_DESCRIPTION_LEN + 1);
        assert_eq!(
            check_description(&long),
            Err(InputError::DescriptionTooLong {
                len: MAX_DESCRIPTION_LEN + 1,
                max: MAX_DESCRIPTION_LEN
            })
        );
    }

    #[test]
    fn typed_numbers_name_their_real_problem() {
        use NumberProblem::*;
        let problem = |text: &str| read_number(text, 1, 99_999_999).map_err(|e| e.problem);
        assert_eq!(problem(" 1_000 "), Ok(1000));
        assert_eq!(problem("1,000,000"), Ok(1_000_000));
        assert_eq!(
            problem("+５００"),
            Ok(500),
            "full-width digits, as an IME types them"
        );
        assert_eq!(problem(""), Err(Empty));
        assert_eq!(problem("   "), Err(Empty));
        for text in [
            "abc", "1.5", "1e3", "-", "+", "1__0", "_1", "1,", "0x10", "1 0", "--1",
        ] {
            assert_eq!(problem(text), Err(NotANumber), "{text:?}");
        }
        // Below zero in a field that starts at 1 is "negative", not "out of range" or "0".
        assert_eq!(problem("-100"), Err(Negative));
        assert_eq!(problem("−100"), Err(Negative), "the minus sign");
        assert_eq!(
            problem("-99999999999999999999999999999999999999999"),
            Err(Negative)
        );
        assert_eq!(problem("0"), Err(TooSmall));
        assert_eq!(problem("100000000"), Err(TooLarge));
        assert_eq!(
            problem("99999999999999999999999999999999999999999"),
            Err(TooLarge)
        );
        // A field whose range goes below zero says "too small" for a value under it.
        assert_eq!(
            read_number("-11", -10, 10).map_err(|e| e.problem),
            Err(TooSmall)
        );
        assert_eq!(read_number("-10", -10, 10), Ok(-10));
        // The error keeps what was typed (bounded), the value read and the range.
        let e = read_number(&format!("-{}", "1".repeat(60)), 0, 5).unwrap_err();
        assert_eq!(
            (e.text.chars().count(), e.value, e.min, e.max),
            (MAX_QUOTED_CHARS, None, 0, 5)
        );
        let e = read_number(" 12 ", 0, 5).unwrap_err();
        assert_eq!((e.text.as_str(), e.value), ("12", Some(12)));
        // The sandbox's fields, each with its range.
        assert_eq!(read_field(TypedField::ConcurrentRequests, "3"), Ok(3));
        assert!(matches!(
            read_field(TypedField::ConcurrentRequests, "-1"),
            Err(InputError::BadNumber { field: TypedField::ConcurrentRequests, number }) if number.problem == Negative
        ));
        assert!(matches!(
            read_field(TypedField::MaxAttempts, "abc"),
            Err(InputError::BadNumber { number, .. }) if number.problem == NotANumber
        ));
        let seed_max = read_number(&MAX_SEED.to_string(), 0, i128::from(MAX_SEED));
        assert_eq!(seed_max, Ok(i128::from(u64::MAX)));
    }

    #[test]
    fn url_limit() {
        assert!(check_url_len(&"x".repeat(MAX_URL_BYTES)).is_ok());
        assert_eq!(
            check_url_len(&"x".repeat(MAX_URL_BYTES + 1)),
            Err(InputError::UrlTooLong {
                bytes: MAX_URL_BYTES + 1,
                max: MAX_URL_BYTES
            })
        );
    }
}
