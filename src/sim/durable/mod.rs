//! Durable execution (`idempotency_playground::durable::*`): a workflow engine in the core. A
//! workflow is ordinary Rust code over an engine context (`workflow.rs`); the engine
//! (`engine.rs`) keeps its journal, runs it on a worker that can crash, replays it from the top
//! after a restart (each step whose result is journaled returns that result without running
//! again), retries steps (Temporal's server when an attempt's Start-To-Close timeout fires, not
//! when a worker restarts), and behaves as Temporal, Restate or DBOS document when the replayed
//! code asks for another step than the journal holds, or when the same workflow id is started
//! again (Temporal's request id and policies, Restate's idempotency key or Workflow and their
//! 24 h retention, DBOS's workflow id; a workflow that returns an error closes failed, one that
//! returns a value completed).
//! Steps talk to the simulated world: the article's payment services (`article/`) charge
//! the card, with a key derived from the run and the step, no key, or a key minted at random
//! inside the step. Invariants are checked after every step and name the step that broke them.
//!
//! Sans I/O, as the rest of the core: time is a number, randomness comes from the seed, every
//! change comes from an event or a learner's action, and stepping back is replaying
//! (`run.rs`). The words are the UI's (`ui/text/durable.rs`); lessons and challenges are data
//! (`lessons.rs`), their questions judged on the run.
//!
//! Children: `workflow.rs` (the workflows and their context, with `// @durable` markers),
//! `source.rs` (the workflow's own source cut at those markers), `engine.rs` (`World`),
//! `run.rs` (`DurableRun`: columns at a cursor, learner actions, back by replay),
//! `lessons.rs` (lessons, questions, challenges), `transfer.rs` (a second question on a
//! variation of some lessons' run), `json.rs` (the saved and shared state),
//! `promise.rs` (which invariants a column's settings promise: `Invariant::promised`).

mod engine;
mod json;
mod lessons;
mod promise;
mod run;
mod source;
mod transfer;
mod workflow;

pub use engine::{
    backoff_ms, Effect, EffectKind, Entry, Invariant, RunRecord, RunStatus, StartReply, TraceEvent,
    TraceKind, Verdict, Violation, WorkerState, World, RESTART_MS, RESTATE_ATTEMPTS,
    RESTATE_RETENTION_MS, RETRY_INITIAL_MS, RETRY_MAX_MS, STEP_MS, STEP_TIMEOUT_MS,
};
pub use json::{
    differs_from_version_1, read_state, read_state_versioned, write_state, SavedState, StateError,
    STATE_VERSION,
};
pub use lessons::{
    challenge, challenge_ids, end_state, lesson, replay_end, rerun_class, Answer, Ask, Belief,
    Challenge, ChargeAgain, EndState, Goal, Lesson, Measure, Question, ReplayEnd, RerunClass,
    AFTER_RETENTION_MS, CHALLENGE_IDS, LESSON_IDS,
};
pub use promise::NotPromised;
pub use run::{Action, ActionError, DurableRun};
pub use source::{section, source_lines, SourceLine, WORKFLOW_SOURCE};
pub use transfer::{transfer, Transfer, Variation, Varied, TRANSFER_IDS, WITHIN_RETENTION_MS};
pub use workflow::{StepFailed, StepOutcome};

/// Which engine's documented behaviour the world imitates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// Temporal: event history, activities, workflow-id reuse and conflict policies.
    Temporal,
    /// Restate: the journal of `ctx.run`, idempotency keys at ingress.
    Restate,
    /// DBOS: step outputs checkpointed in PostgreSQL, the workflow id as idempotency key.
    Dbos,
    /// No durable execution: the same function in a plain process; its progress lives in
    /// memory and dies with the worker.
    Plain,
}

impl Engine {
    /// Every engine, in the order the page lists them.
    pub const ALL: [Engine; 4] = [
        Engine::Temporal,
        Engine::Restate,
        Engine::Dbos,
        Engine::Plain,
    ];

    /// Stable id for links and JSON.
    pub fn id(self) -> &'static str {
        match self {
            Engine::Temporal => "temporal",
            Engine::Restate => "restate",
            Engine::Dbos => "dbos",
            Engine::Plain => "plain",
        }
    }

    /// The engine with this id.
    pub fn from_id(id: &str) -> Option<Engine> {
        Engine::ALL.into_iter().find(|e| e.id() == id)
    }

    /// Whether the engine keeps a journal that outlives the worker.
    pub fn durable(self) -> bool {
        self != Engine::Plain
    }
}

/// The idempotency key the charge and refund steps pass to the payment service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyMode {
    /// Derived from the workflow id, the run and the step: the same on every re-run of the step.
    Derived,
    /// No key: the naive payment service charges on every call.
    None,
    /// A UUID minted inside the step, anew on every execution.
    Random,
}

impl KeyMode {
    /// Every mode.
    pub const ALL: [KeyMode; 3] = [KeyMode::Derived, KeyMode::None, KeyMode::Random];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            KeyMode::Derived => "derived",
            KeyMode::None => "none",
            KeyMode::Random => "random",
        }
    }

    /// The mode with this id.
    pub fn from_id(id: &str) -> Option<KeyMode> {
        KeyMode::ALL.into_iter().find(|k| k.id() == id)
    }
}

/// How the workflow reads the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockMode {
    /// Through the engine (`workflow.Now()`, `ctx.date.now()`, a DBOS step): journaled, the
    /// same on replay.
    Engine,
    /// The worker's own clock, read directly in workflow code: another value on replay.
    Direct,
}

impl ClockMode {
    /// Both modes.
    pub const ALL: [ClockMode; 2] = [ClockMode::Engine, ClockMode::Direct];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            ClockMode::Engine => "engine",
            ClockMode::Direct => "direct",
        }
    }

    /// The mode with this id.
    pub fn from_id(id: &str) -> Option<ClockMode> {
        ClockMode::ALL.into_iter().find(|c| c.id() == id)
    }
}

/// Which workflow runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlowKind {
    /// Place an order: reserve stock, charge the card, read the clock, ship, send a receipt.
    Order,
    /// Book a trip across three services, as a saga: charge, book a flight, reserve a hotel;
    /// on a permanent failure, undo what was done in reverse order.
    Trip,
}

impl FlowKind {
    /// Both workflows.
    pub const ALL: [FlowKind; 2] = [FlowKind::Order, FlowKind::Trip];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            FlowKind::Order => "order",
            FlowKind::Trip => "trip",
        }
    }

    /// The workflow with this id.
    pub fn from_id(id: &str) -> Option<FlowKind> {
        FlowKind::ALL.into_iter().find(|f| f.id() == id)
    }

    /// The steps this workflow can take, in source order.
    pub fn steps(self) -> &'static [StepName] {
        match self {
            FlowKind::Order => &[
                StepName::Reserve,
                StepName::Charge,
                StepName::Clock,
                StepName::ShipExpress,
                StepName::ShipStandard,
                StepName::Receipt,
            ],
            FlowKind::Trip => &[
                StepName::Charge,
                StepName::BookFlight,
                StepName::ReserveHotel,
                StepName::CancelFlight,
                StepName::Refund,
            ],
        }
    }
}

/// A step (an activity, a `ctx.run`, a DBOS step), or the clock read through the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StepName {
    /// Reserve the item in the stock service.
    Reserve,
    /// Charge the card through the payment service.
    Charge,
    /// The time, read through the engine (a journal entry of its own).
    Clock,
    /// Ship today (ordered before the cut-off).
    ShipExpress,
    /// Ship tomorrow (ordered after the cut-off).
    ShipStandard,
    /// Send the receipt.
    Receipt,
    /// Book the flight.
    BookFlight,
    /// Reserve the hotel.
    ReserveHotel,
    /// Cancel the flight (the compensation of `BookFlight`).
    CancelFlight,
    /// Refund the charge (the compensation of `Charge`).
    Refund,
}

impl StepName {
    /// Every step.
    pub const ALL: [StepName; 10] = [
        StepName::Reserve,
        StepName::Charge,
        StepName::Clock,
        StepName::ShipExpress,
        StepName::ShipStandard,
        StepName::Receipt,
        StepName::BookFlight,
        StepName::ReserveHotel,
        StepName::CancelFlight,
        StepName::Refund,
    ];

    /// Stable id (also the step's name as the engine records it).
    pub fn id(self) -> &'static str {
        match self {
            StepName::Reserve => "reserve_stock",
            StepName::Charge => "charge_card",
            StepName::Clock => "now",
            StepName::ShipExpress => "ship_express",
            StepName::ShipStandard => "ship_standard",
            StepName::Receipt => "send_receipt",
            StepName::BookFlight => "book_flight",
            StepName::ReserveHotel => "reserve_hotel",
            StepName::CancelFlight => "cancel_flight",
            StepName::Refund => "refund_card",
        }
    }

    /// The step with this id.
    pub fn from_id(id: &str) -> Option<StepName> {
        StepName::ALL.into_iter().find(|s| s.id() == id)
    }
}

/// A fault injected into the first execution of a step (of the workflow's first run).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// The worker crashes after the step is journaled as started, before its side effect.
    CrashBefore,
    /// The worker crashes after the side effect, before the result is journaled.
    CrashAfterEffect,
    /// The worker crashes right after the result is journaled.
    CrashAfterJournal,
    /// The side effect happens but its reply is lost: the step times out and is retried.
    ReplyLost,
    /// The step fails once with a transient error (no side effect) and is retried.
    FailOnce,
    /// The step fails permanently (a non-retryable error): the workflow sees the failure.
    FailPermanent,
}

impl FaultKind {
    /// Every fault.
    pub const ALL: [FaultKind; 6] = [
        FaultKind::CrashBefore,
        FaultKind::CrashAfterEffect,
        FaultKind::CrashAfterJournal,
        FaultKind::ReplyLost,
        FaultKind::FailOnce,
        FaultKind::FailPermanent,
    ];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            FaultKind::CrashBefore => "crash-before",
            FaultKind::CrashAfterEffect => "crash-after-effect",
            FaultKind::CrashAfterJournal => "crash-after-journal",
            FaultKind::ReplyLost => "reply-lost",
            FaultKind::FailOnce => "fail-once",
            FaultKind::FailPermanent => "fail-permanent",
        }
    }

    /// The fault with this id.
    pub fn from_id(id: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Whether the fault crashes the worker.
    pub fn is_crash(self) -> bool {
        matches!(
            self,
            FaultKind::CrashBefore | FaultKind::CrashAfterEffect | FaultKind::CrashAfterJournal
        )
    }
}

/// A fault on a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FaultSpec {
    /// The step whose first execution the fault hits.
    pub step: StepName,
    /// What happens.
    pub kind: FaultKind,
}

/// Temporal's Workflow Id Reuse Policy: may a closed run's id start a new run?
/// Source: https://docs.temporal.io/workflow-execution/workflowid-runid#workflow-id-reuse-policy;
/// the server's rule: `ResolveWorkflowIDReusePolicy` in temporalio/temporal
/// service/history/api/workflow_id_dedup.go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReusePolicy {
    /// A new run, whatever the last run's end (Temporal's default).
    AllowDuplicate,
    /// A new run only if the last run closed failed, terminated, cancelled or timed out
    /// (`consts.FailedWorkflowStatuses`); a run that returned a value closed completed, and a
    /// new start is refused.
    AllowDuplicateFailedOnly,
    /// Never: the start is rejected.
    RejectDuplicate,
}

impl ReusePolicy {
    /// Every policy.
    pub const ALL: [ReusePolicy; 3] = [
        ReusePolicy::AllowDuplicate,
        ReusePolicy::AllowDuplicateFailedOnly,
        ReusePolicy::RejectDuplicate,
    ];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            ReusePolicy::AllowDuplicate => "allow-duplicate",
            ReusePolicy::AllowDuplicateFailedOnly => "allow-duplicate-failed-only",
            ReusePolicy::RejectDuplicate => "reject-duplicate",
        }
    }

    /// The policy with this id.
    pub fn from_id(id: &str) -> Option<ReusePolicy> {
        ReusePolicy::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// Temporal's Workflow Id Conflict Policy: what a start does while a run with the id is open.
/// Source: https://docs.temporal.io/workflow-execution/workflowid-runid#workflow-id-conflict-policy
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConflictPolicy {
    /// The start fails with "workflow execution already started".
    Fail,
    /// The start returns a handle to the running run.
    UseExisting,
    /// The running run is terminated and a new run starts.
    TerminateExisting,
}

impl ConflictPolicy {
    /// Every policy.
    pub const ALL: [ConflictPolicy; 3] = [
        ConflictPolicy::Fail,
        ConflictPolicy::UseExisting,
        ConflictPolicy::TerminateExisting,
    ];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            ConflictPolicy::Fail => "fail",
            ConflictPolicy::UseExisting => "use-existing",
            ConflictPolicy::TerminateExisting => "terminate-existing",
        }
    }

    /// The policy with this id.
    pub fn from_id(id: &str) -> Option<ConflictPolicy> {
        ConflictPolicy::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// A pair of Temporal policies the server refuses on every start, before it looks at the
/// workflow id's runs: the start fails with InvalidArgument, and nothing runs.
/// Source: `ValidateWorkflowIDReusePolicy` in temporalio/temporal chasm/lib/workflow/validator.go,
/// called by the frontend's `prepareStartWorkflowRequest` (service/frontend/workflow_handler.go).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolicyError {
    /// WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE together with
    /// WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING.
    RejectDuplicateWithTerminateExisting,
}

/// Which request id the client's later starts of the workflow id carry. Temporal only: its
/// StartWorkflowExecution request carries a request id, and the server answers a request id it
/// has already seen with the run that request started (`handleConflict` in temporalio/temporal
/// service/history/api/startworkflow/api.go), before it reads either policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestId {
    /// A new call: the application calls ExecuteWorkflow again, and sdk-go mints a new request id
    /// for each call (`createStartWorkflowRequest`, temporalio/sdk-go
    /// internal/internal_workflow_client.go: `uuid.NewString()` unless one is given).
    New,
    /// The SDK's retry of the first call: its gRPC retry sends the same request again, with the
    /// first call's request id (internal/common/retry/interceptor.go).
    Same,
}

impl RequestId {
    /// Both.
    pub const ALL: [RequestId; 2] = [RequestId::New, RequestId::Same];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            RequestId::New => "new",
            RequestId::Same => "same",
        }
    }

    /// The value with this id.
    pub fn from_id(id: &str) -> Option<RequestId> {
        RequestId::ALL.into_iter().find(|r| r.id() == id)
    }
}

/// How the client starts the workflow id under Restate. Both are Restate; they answer a second
/// start differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RestateTarget {
    /// A service handler called with the workflow id as its `Idempotency-Key`: a second call
    /// attaches to the running invocation, or gets the stored response once it has ended
    /// (restatedev/restate crates/worker/src/partition/state_machine/tests/idempotency.rs).
    IdempotencyKey,
    /// A Workflow's `run` handler, keyed by the workflow id: it runs once per id; calling it again
    /// is answered 409 "the workflow method was already invoked", running or ended, without the
    /// result (crates/worker/src/partition/state_machine/tests/workflow.rs,
    /// `start_workflow_method`); the result is read by attaching, which this client does not do.
    WorkflowRun,
}

impl RestateTarget {
    /// Both targets.
    pub const ALL: [RestateTarget; 2] = [RestateTarget::IdempotencyKey, RestateTarget::WorkflowRun];

    /// Stable id.
    pub fn id(self) -> &'static str {
        match self {
            RestateTarget::IdempotencyKey => "idempotency-key",
            RestateTarget::WorkflowRun => "workflow-run",
        }
    }

    /// The target with this id.
    pub fn from_id(id: &str) -> Option<RestateTarget> {
        RestateTarget::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// Everything one world is built from: with the learner's actions, the whole run.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// The workflow.
    pub flow: FlowKind,
    /// The engine imitated.
    pub engine: Engine,
    /// The key the payment steps pass.
    pub key: KeyMode,
    /// How the workflow reads the clock.
    pub clock: ClockMode,
    /// Temporal's reuse policy (used by Temporal only).
    pub reuse: ReusePolicy,
    /// Temporal's conflict policy (used by Temporal only).
    pub conflict: ConflictPolicy,
    /// How the client starts the workflow id under Restate (used by Restate only).
    pub restate: RestateTarget,
    /// Temporal's Start-To-Close timeout of every activity, in simulated ms (used by Temporal
    /// only), within [`MIN_START_TO_CLOSE_MS`]..=[`MAX_START_TO_CLOSE_MS`].
    pub start_to_close_ms: u64,
    /// The request id the client's later starts carry (used by Temporal only).
    pub request_id: RequestId,
    /// Faults, at most [`crate::sim::limits::MAX_DURABLE_FAULTS`], one per step.
    pub faults: Vec<FaultSpec>,
    /// When the client, having timed out, starts the same workflow id again (simulated ms, at
    /// most [`MAX_START_AGAIN_MS`]).
    pub start_again_at_ms: Option<u64>,
    /// Whether a crashed worker is replaced after [`RESTART_MS`] without the learner's Restart.
    pub auto_restart: bool,
    /// The seed of the world's random numbers (the random keys).
    pub seed: u64,
}

/// The workflow id every lesson's client starts.
pub const WORKFLOW_ID: &str = "order-42";
/// The customer's balance before the workflow (minor units).
pub const INITIAL_BALANCE: i64 = 1_000;
/// What the workflow charges.
pub const AMOUNT: i64 = 100;
/// Orders read before this simulated time ship express; later ones ship standard.
pub const SHIP_CUTOFF_MS: u64 = 1_000;
/// The page's Start-To-Close timeout unless set. Temporal has no default: sdk-go refuses an
/// activity with neither a Start-To-Close nor a Schedule-To-Close timeout ("at least one of
/// ScheduleToCloseTimeout and StartToCloseTimeout is required", temporalio/sdk-go
/// internal/internal_activity.go); an attempt here reports [`STEP_MS`] after it starts, so 2 s
/// leaves it twenty times that.
pub const DEFAULT_START_TO_CLOSE_MS: u64 = 2_000;
/// Shortest Start-To-Close timeout a column may set: well above [`STEP_MS`], so an attempt that is
/// not lost always reports before its timer fires.
pub const MIN_START_TO_CLOSE_MS: u64 = 500;
/// Longest Start-To-Close timeout a column may set.
pub const MAX_START_TO_CLOSE_MS: u64 = 60_000;
/// Latest time at which the client may start the workflow again (simulated ms): 48 h, past
/// Restate's 24 h retention ([`RESTATE_RETENTION_MS`]). It supersedes
/// `limits::MAX_DURABLE_START_MS` (60 s), which predates the retention.
pub const MAX_START_AGAIN_MS: u64 = 48 * 3_600_000;

impl Default for Config {
    fn default() -> Self {
        Config {
            flow: FlowKind::Order,
            engine: Engine::Temporal,
            key: KeyMode::Derived,
            clock: ClockMode::Engine,
            reuse: ReusePolicy::AllowDuplicate,
            conflict: ConflictPolicy::Fail,
            restate: RestateTarget::IdempotencyKey,
            start_to_close_ms: DEFAULT_START_TO_CLOSE_MS,
            request_id: RequestId::New,
            faults: Vec::new(),
            start_again_at_ms: None,
            auto_restart: true,
            seed: 42,
        }
    }
}

impl Config {
    /// The pair of policies the engine refuses every start with, if this config has one (Temporal
    /// only: the others do not read these policies).
    pub fn policy_error(&self) -> Option<PolicyError> {
        (self.engine == Engine::Temporal
            && self.reuse == ReusePolicy::RejectDuplicate
            && self.conflict == ConflictPolicy::TerminateExisting)
            .then_some(PolicyError::RejectDuplicateWithTerminateExisting)
    }

    /// The fault on `step`, if any.
    pub fn fault_on(&self, step: StepName) -> Option<FaultKind> {
        self.faults.iter().find(|f| f.step == step).map(|f| f.kind)
    }

    /// The config with `fault` on its step (replacing another fault on that step), or without a
    /// fault on the step when `kind` is `None`.
    pub fn with_fault(mut self, step: StepName, kind: Option<FaultKind>) -> Config {
        self.faults.retain(|f| f.step != step);
        if let Some(kind) = kind {
            self.faults.push(FaultSpec { step, kind });
        }
        self
    }
}
