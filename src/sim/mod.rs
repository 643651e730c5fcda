//! The simulation core: the article's payment services, a simulated network with faults, retrying
//! clients, the outbox, and the concurrency lab. Deterministic: time and a seed are inputs.
//! Architecture invariant: nothing here imports the UI or browser crates
//! (scripts/check-core-imports.sh enforces it), reads a clock or asks the OS for randomness.
//!
//! Code map: [`article`] (the article's services), [`production`] (policies), [`world`] (the
//! discrete-event simulation) with [`client`], [`network`], [`server`], [`store`], [`outbox`],
//! [`invariants`] and [`trace`]; [`scenario`] and [`scenarios`] (scripts as data); [`limits`]
//! (every limit and the one input error type).

pub mod article;
pub mod client;
pub mod fault;
pub mod hash;
pub mod input;
pub mod intern;
pub mod invariants;
pub mod json;
pub mod key;
pub mod lab;
pub mod limits;
pub mod network;
pub mod outbox;
pub(crate) mod pmap;
pub mod production;
pub mod pvec;
pub mod rng;
pub mod scenario;
mod scenario_json;
pub mod scenarios;
pub mod server;
pub mod store;
pub mod trace;
pub mod uuidgen;
pub mod workload;
pub mod world;

pub use article::{
    AtomicIdempotentService, IdempotentPaymentService, NaivePaymentService, OutboxEntry,
    OutboxResult, PaymentResult, TocTouVulnerableService,
};
pub use client::{ClientOutcome, ClientResult, KeyStrategy, RetryPolicy};
pub use fault::Fault;
pub use input::{Input, RequestSpec};
pub use intern::{DescId, KeyId, OpId};
pub use invariants::{Invariant, Violation, ViolationDetail};
pub use key::IdempotencyKey;
pub use limits::InputError;
pub use outbox::{ChargeEvent, Consumer, EmitMode, OutboxRow};
pub use production::{
    Counters, FailureCaching, Lookup, MismatchStatus, Policies, ProductionService, RecordState,
};
pub use pvec::PVec;
pub use rng::Rng;
pub use scenario::{Scenario, ServiceSpec, WiredService};
pub use scenarios::{builtin, builtin_ids};
pub use server::ServiceKind;
pub use store::{LedgerEntry, StoreRow};
pub use trace::{ChargeFailure, CheckOutcome, CrashPoint, EventKind, Lane, TraceEvent};
pub use uuidgen::KeyFormat;
pub use world::{replay, LoggedInput, Snapshot, World, WorldConfig};
