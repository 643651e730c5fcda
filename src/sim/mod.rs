//! The simulation core: the article's payment services, a discrete-event world that runs them
//! behind a faulty network with retrying clients and an outbox, scenarios as data, and the
//! concurrency lab. Deterministic: time and a seed are inputs; rewinding is replaying.
//!
//! Code map (each folder's `mod.rs` says more):
//! - [`limits`]: every limit, named once, and the one input error type.
//! - `article/`: the article's services as written, the validated key, the production policies.
//! - `world/`: the discrete-event world (`World` in its `mod.rs`; inputs and their cost, clients,
//!   network, server, store, outbox, faults, trace and invariants as children).
//! - `scenario/`: a scenario (seed, settings, inputs), its JSON, the built-in lessons, workloads,
//!   and `Session`, a run at a cursor that steps back by replay (built in slices by
//!   `SessionBuild`).
//! - [`lab`]: the concurrency lab's step-wise models, stepper and explorer.
//! - [`lesson`]: what lessons ask and challenges check, judged on the run (never on text).
//! - [`properties`]: the article's proptest properties run over seeded random scenarios in the
//!   world, judged, and a failure shrunk (`idempotency_playground::properties::*`).
//! - [`postgres`]: the services as SQL for a real PostgreSQL, one request's control flow over
//!   them, and the measured report (`make pg-race`; the driver is native, in src/bin/pg_race/).
//! - [`durable`]: durable execution: a workflow engine (Temporal, Restate, DBOS behaviour) with a
//!   journal, crashes and replays, the determinism rule, workflow-id policies and sagas.
//! - [`json`]: the page's small JSON codec.
//! - [`kafka`]: Kafka's idempotent producer, broker, relays and consumer, a model of its own
//!   (`idempotency_playground::kafka::*`).
//! - [`kernel`]: what every simulation stands on: the event queue with cancellable timers, the
//!   `Model` trait and the generic `Cursor` (to any step, back by replay).
//! - `base/`: PRNG, hashing, UUIDs, persistent vectors and maps; nothing payment-specific.
//!
//! Architecture invariants (scripts/check-core-imports.sh enforces them): nothing here imports the
//! UI or a browser crate, reads a clock or asks the OS for randomness; `base` imports nothing of
//! ours, `article` only `base` and `limits`, `world` no `lab`; no two files of one folder import
//! each other.
//!
//! The modules are private; what the rest of the crate (and the tests) may use is the list below,
//! one path per item.

mod article;
mod base;
pub mod durable;
pub mod json;
pub mod kafka;
pub mod kernel;
pub mod lab;
pub mod lesson;
pub mod limits;
pub mod postgres;
pub mod properties;
mod scenario;
mod world;

pub use article::key::{
    check_key_chars, sf_string, validate_header_key, validate_key, IdempotencyKey,
};
pub use article::production::{
    Counters, FailureCaching, Lookup, MismatchStatus, Policies, ProductionService, RecordState,
};
pub use article::{
    AtomicIdempotentService, IdempotentPaymentService, NaivePaymentService, OutboxEntry,
    OutboxResult, PaymentResult, TocTouVulnerableService,
};
pub use base::pvec::{self, PVec};
pub use base::rng::Rng;
pub use base::uuidgen::{mint, KeyFormat};
pub use limits::InputError;
pub use scenario::builtin::{builtin, builtin_ids, sandbox_start};
pub use scenario::session::{Session, SessionBuild};
pub use scenario::teach;
pub use scenario::workload;
pub use scenario::{Scenario, ServiceSpec, WiredService};
pub use world::account::{
    Caller, FingerprintFields, KeyScope, MissingKey, PayloadCheck, RequestPolicies,
};
pub use world::budget::EVENTS_PER_ATTEMPT;
pub use world::client::{
    AttemptOutcome, ClientOutcome, ClientResult, KeyStrategy, RetryKind, RetryPolicy, SeenAttempt,
};
pub use world::downstream::{Downstream, OutagePolicy, DEFAULT_SLOW_MS};
pub use world::exchange::{
    ChargeBody, Exchange, Header, HttpRequest, HttpResponse, MediaType, ProblemKind, Reply,
    ReplyFate, ResponseBody, BLANK_PROBLEM, CHARGE_METHOD, CHARGE_PATH, IDEMPOTENCY_PROBLEM,
    RETRY_AFTER_SECONDS,
};
pub use world::fault::Fault;
pub use world::input::{Input, RequestSpec};
pub use world::intern::{DescId, KeyId, OpId};
pub use world::invariants::{Invariant, Violation, ViolationDetail};
pub use world::outbox::{ChargeEvent, Consumer, EmitMode, OutboxRow};
pub use world::server::{ServiceKind, PHASE_MS};
pub use world::store::{LedgerEntry, RecoveryPoint, StoreRow};
pub use world::trace::{
    ChargeFailure, CheckOutcome, CrashPoint, EventKind, Lane, LaneSet, TraceEvent,
};
pub use world::{replay, Halt, LoggedInput, Snapshot, World, WorldConfig};
