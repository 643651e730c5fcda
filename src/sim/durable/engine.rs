//! The engine: a world with one worker, the engine's journal (which outlives the worker), the
//! client that starts the workflow, and the services the steps call. One [`World::step`] runs
//! one event of the kernel's queue (`kernel::EventQueue`, by simulated ms, then the order scheduled); invariants are checked after
//! every step and name the step that broke them.
//!
//! What each engine does, as documented (the sources are cited at each rule below):
//! - all three journal a step's result and, after a crash, run the function again from the top,
//!   returning journaled results instead of running those steps; a step whose side effect
//!   happened but whose result was not journaled runs again (at-least-once);
//! - a workflow function that returns a value closes its run completed; one that returns an
//!   error closes it failed (`workflow.rs`);
//! - a replayed call asking for another step than the journal holds is caught by all three,
//!   and handled differently: Temporal fails the workflow task with a non-determinism error and
//!   the run stays open, blocked; Restate's SDK raises a journal mismatch that by default follows
//!   the retry policy, and the server pauses the invocation once the retries are spent; DBOS
//!   refuses the step and the workflow ends in error;
//! - a step whose attempt was lost (its worker crashed, or its reply never came): Temporal's server
//!   does not see a crash; it retries the activity when the attempt's Start-To-Close timeout fires,
//!   after the retry policy's backoff, on whichever worker is up then (not when a worker restarts);
//!   Restate and DBOS run it again when the new worker resumes the workflow;
//! - the same workflow id started again: Temporal answers a start that carries the request id of
//!   the call that started the current run with that run, then applies its reuse and conflict
//!   policies (and refuses one pair on every start); Restate's idempotency key at ingress (the
//!   same response, or attach to the running invocation) or a Workflow's `run` (409, already
//!   invoked), each until its retention ends, 24 h after the invocation completed, after which the
//!   id runs anew; DBOS (the workflow id is the idempotency key: the existing workflow's result or
//!   handle).

use crate::sim::article::{IdempotentPaymentService, NaivePaymentService, PaymentResult};
use crate::sim::base::rng::Rng;
use crate::sim::base::uuidgen::{mint, KeyFormat};
use crate::sim::kernel::EventQueue;
use crate::sim::limits::MAX_DURABLE_STEPS;

use super::workflow::WorkerMemory;
use super::workflow::{book_trip, place_order, Ctx, Flow, StepOutcome, Stop, Suspend};
use super::{
    Config, ConflictPolicy, Engine, FaultKind, FlowKind, KeyMode, PolicyError, RequestId,
    RestateTarget, ReusePolicy, StepName, AMOUNT, INITIAL_BALANCE, WORKFLOW_ID,
};

/// Simulated ms between two events of one step (journal, effect, reply).
pub const STEP_MS: u64 = 100;
/// How long a crashed worker takes to be replaced.
pub const RESTART_MS: u64 = 1_000;
/// How long Restate's and DBOS's steps wait for a lost reply before they run again (the step's own
/// call timeout). Temporal's activities use the column's Start-To-Close timeout instead
/// ([`Config::start_to_close_ms`]), followed by the retry's backoff.
pub const STEP_TIMEOUT_MS: u64 = 2_000;
/// The first retry's delay; each further retry doubles it, up to [`RETRY_MAX_MS`]. Temporal's
/// default retry policy: initial interval 1 s, backoff coefficient 2, maximum interval 100 times
/// the initial one (`DefaultDefaultRetrySettings`, temporalio/temporal
/// common/retrypolicy/retry_policy.go). The page gives Restate's `ctx.run` and DBOS's step
/// retries the same numbers.
pub const RETRY_INITIAL_MS: u64 = 1_000;
/// The longest retry delay: Temporal's default maximum interval, 100 × [`RETRY_INITIAL_MS`].
pub const RETRY_MAX_MS: u64 = 100 * RETRY_INITIAL_MS;
/// How long Restate keeps a completed invocation's status (the response an idempotency key
/// answers with, and a Workflow's result): 24 h after it completed, by default, for both
/// (`default_idempotency_retention` and `default_workflow_completion_retention`,
/// restatedev/restate crates/types/src/config/invocation.rs). Then the cleaner purges it
/// (crates/worker/src/partition/cleaner.rs `do_cleanup`: once the completion time plus the
/// retention has passed), the invocation id is free, and a request with the same key starts a
/// new invocation (crates/worker/src/partition/state_machine/mod.rs `handle_duplicated_requests`).
/// The cleaner sweeps once an hour; the page frees the key the moment the retention ends.
pub const RESTATE_RETENTION_MS: u64 = 24 * 3_600_000;

/// The delay before retry number `attempt` (1 for the first retry): Temporal's
/// `ExponentialBackoffAlgorithm`, initial × coefficient^(attempt − 1), capped at the maximum
/// interval (`nextBackoffInterval`, temporalio/temporal service/history/workflow/retry.go).
pub fn backoff_ms(attempt: u32) -> u64 {
    RETRY_INITIAL_MS
        .saturating_mul(1 << attempt.saturating_sub(1).min(16))
        .min(RETRY_MAX_MS)
}
/// Attempts Restate makes at an invocation whose replay hits a journal mismatch before it pauses
/// it. The SDK's default (`JournalMismatchRetryBehavior::FollowRetryPolicy`, restatedev/sdk-shared-core
/// src/lib.rs) hands the mismatch to the retry policy; the server's default policy makes 70
/// attempts and then pauses (`max-attempts`, `on-max-attempts = pause`, restatedev/restate
/// crates/types/src/config/invocation.rs). The page gives up after 3, so the pause comes within
/// the run (a simplification the page lists).
pub const RESTATE_ATTEMPTS: u32 = 3;

/// One journal entry: a step started, and its result once journaled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The step.
    pub step: StepName,
    /// Its result, once journaled.
    pub result: Option<StepOutcome>,
    /// Executions so far (a retry or a re-run after a crash adds one).
    pub attempts: u32,
    /// Whether a worker read this entry back on replay (instead of running the step).
    pub replayed: bool,
    /// The world step that journaled the start.
    pub started_at: usize,
}

/// Where a run (one execution of the workflow id) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RunStatus {
    /// Open: a worker runs it, or will after a restart.
    Running,
    /// Closed completed: the workflow function returned a value.
    Completed,
    /// Closed failed: the workflow function returned an error (a step's permanent failure, after
    /// compensating if it is a saga), or DBOS refused a step after a mismatch.
    Failed,
    /// Ended by the engine on a new start (Temporal's TerminateExisting).
    Terminated,
    /// Lost with the worker: no journal, nobody resumes it (no durable execution).
    Lost,
    /// Open but stuck: Temporal's workflow task fails on every attempt with a
    /// non-determinism error.
    Blocked,
    /// Open but paused: Restate paused the invocation once the retries of a journal mismatch
    /// were spent.
    Paused,
}

impl RunStatus {
    /// Whether the run has ended (nothing will run it again).
    pub fn ended(self) -> bool {
        !matches!(
            self,
            RunStatus::Running | RunStatus::Blocked | RunStatus::Paused
        )
    }
}

/// One run of the workflow id.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RunRecord {
    /// 1 for the first run, 2 for the next under the same id.
    pub no: u32,
    /// Where it is.
    pub status: RunStatus,
    /// The engine's journal (for the plain process: its memory, gone at a crash).
    pub journal: Vec<Entry>,
    /// The replay mismatch that stopped it, if one did.
    pub mismatch: Option<(usize, StepName, StepName)>,
    /// When it ended (simulated ms), once it has.
    pub ended_ms: Option<u64>,
}

/// What the worker is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WorkerState {
    /// Up, nothing to run.
    Idle,
    /// Running the workflow.
    Running,
    /// Reading the journal back after a restart.
    Replaying,
    /// Down.
    Crashed,
}

/// How the engine answered a start of the workflow id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StartReply {
    /// A new run.
    Started(u32),
    /// The start joined the open run `n` (Temporal UseExisting, Restate attach, DBOS handle).
    Attached(u32),
    /// The engine answered with run `n`'s stored result, or its recorded error if it failed
    /// (Restate with an idempotency key, DBOS).
    SameResult(u32),
    /// Temporal: the start carried the request id of the call that started run `n`, so it is
    /// that call retried: the answer is run `n`, as to the first call (`Started` true, the same
    /// run id), whatever the policies, and nothing new runs.
    SameRequest(u32),
    /// Refused: the id is taken (Temporal's WorkflowExecutionAlreadyStarted: Fail while a run is
    /// open, RejectDuplicate, AllowDuplicateFailedOnly after a completed run).
    Rejected,
    /// Restate: 409 "the workflow method was already invoked"; a Workflow's `run` runs once per
    /// workflow id, and a second call gets neither a new run nor the result of run `n`.
    AlreadyInvoked(u32),
    /// Refused before the engine looks at the id: the policies sent with the start are a pair it
    /// never accepts (Temporal's InvalidArgument). Nothing runs.
    Invalid(PolicyError),
    /// Run `old` terminated and run `new` started (Temporal TerminateExisting).
    Replaced {
        /// The terminated run.
        old: u32,
        /// The new run.
        new: u32,
    },
}

/// The side effects in the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// The item reserved.
    Reserved,
    /// The card charged (money moved).
    Charged,
    /// The payment service recognised the key and replayed the first result (no money moved).
    ChargeReplayed,
    /// The card declined (insufficient funds).
    Declined,
    /// Shipped today.
    ShippedExpress,
    /// Shipped tomorrow.
    ShippedStandard,
    /// A receipt sent.
    Receipt,
    /// A flight booked.
    FlightBooked,
    /// A hotel reserved.
    HotelReserved,
    /// A flight cancelled.
    FlightCancelled,
    /// Money refunded.
    Refunded,
    /// A refund whose key was seen: nothing refunded again.
    RefundReplayed,
}

/// A side effect and who made it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    /// What.
    pub kind: EffectKind,
    /// The run whose step made it.
    pub run: u32,
    /// The world step.
    pub at: usize,
    /// The idempotency key the step passed, if any.
    pub key: Option<String>,
}

/// The invariants checked after every step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invariant {
    /// The card is charged at most once per order (workflow id).
    OneChargePerOrder,
    /// No refund without a charge, at most one per charge.
    RefundPerCharge,
    /// When a run has ended, every done step is kept (the run completed) or compensated.
    EndedKeptOrCompensated,
    /// Replay never runs a step whose result is journaled.
    ReplayNeverReruns,
}

impl Invariant {
    /// Every invariant, in the order the page lists them.
    pub const ALL: [Invariant; 4] = [
        Invariant::OneChargePerOrder,
        Invariant::RefundPerCharge,
        Invariant::EndedKeptOrCompensated,
        Invariant::ReplayNeverReruns,
    ];
}

/// A broken invariant: the world step that broke it and the workflow step it is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Violation {
    /// Which.
    pub invariant: Invariant,
    /// The world step (1-based) that broke it.
    pub at: usize,
    /// The workflow step it names: the second charge, the extra refund, the step left undone.
    pub step: StepName,
    /// The run.
    pub run: u32,
}

/// What the engine did in the end with a replay that went another way than the journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Temporal: non-determinism error, the run blocked.
    Blocked,
    /// Restate: journal mismatch, retried per the retry policy until the attempts were spent,
    /// then the invocation paused.
    Paused,
    /// DBOS: the step refused, the workflow ended in error.
    Failed,
}

/// What happened in one world step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceKind {
    /// The client asked to start the workflow id (`again`: not the first time).
    StartRequested {
        /// Whether an earlier start was made.
        again: bool,
    },
    /// The engine's answer.
    StartReplied(StartReply),
    /// The worker journaled a step as started.
    StepStarted {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
    },
    /// After a crash the step at `pos`, started but not journaled, is run again.
    StepRerun {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
    },
    /// The step ran (its side effect, if any, happened).
    StepRan {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
        /// Which execution (1-based).
        attempt: u32,
    },
    /// The step failed; `permanent` ones are journaled, others retried.
    StepFailed {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
        /// Non-retryable.
        permanent: bool,
    },
    /// The step's reply was lost; the engine retries after its timeout.
    ReplyLost {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
    },
    /// Temporal: the Start-To-Close timer of an attempt fired before the worker reported it
    /// (its worker crashed, or its reply was lost); the server retries the activity after the
    /// retry policy's backoff.
    TimedOut {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
        /// The attempt that timed out (1-based).
        attempt: u32,
        /// The Start-To-Close timeout.
        timeout_ms: u64,
        /// The backoff before the next attempt.
        retry_in_ms: u64,
    },
    /// Temporal: the new worker is up, but the activity at `pos` is still the server's to retry:
    /// nothing runs until `until_ms`, when its Start-To-Close timer fires (`timing_out`) or its
    /// retry's backoff ends.
    ActivityPending {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
        /// When the server acts on it.
        until_ms: u64,
        /// Whether the Start-To-Close timer is still running (else the backoff).
        timing_out: bool,
    },
    /// Restate: run `run`'s stored result, kept [`RESTATE_RETENTION_MS`] after it ended at
    /// `ended_ms`, has been purged; the workflow id is free again.
    Purged {
        /// When the run ended.
        ended_ms: u64,
    },
    /// The step's result was journaled.
    Journaled {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
    },
    /// The time read through the engine, journaled.
    ClockJournaled {
        /// Journal position.
        pos: usize,
        /// The time read.
        ms: u64,
    },
    /// The workflow read the worker's clock directly (not journaled).
    ClockReadDirect {
        /// The time read.
        ms: u64,
    },
    /// On replay, the journaled result at `pos` was returned instead of running the step.
    Replayed {
        /// Journal position.
        pos: usize,
        /// The step.
        step: StepName,
    },
    /// Restate: the replay of attempt `attempt` asked for `wanted` where the journal holds
    /// `journaled`; the mismatch follows the retry policy: another attempt after a backoff.
    MismatchRetried {
        /// Journal position.
        pos: usize,
        /// In the journal.
        journaled: StepName,
        /// Asked for.
        wanted: StepName,
        /// The attempt that hit it (1-based).
        attempt: u32,
    },
    /// The replayed code asked for `wanted` where the journal holds `journaled`, and the engine
    /// stopped the run (`verdict`).
    Mismatch {
        /// Journal position.
        pos: usize,
        /// In the journal.
        journaled: StepName,
        /// Asked for.
        wanted: StepName,
        /// What the engine did.
        verdict: Verdict,
    },
    /// The worker crashed (`by_learner`: the Crash button).
    Crashed {
        /// Whether the learner crashed it.
        by_learner: bool,
    },
    /// A new worker came up (`replays`: it runs the workflow function again from the top now;
    /// else it waits for a task, or has none).
    Restarted {
        /// Whether it replays the journal now.
        replays: bool,
    },
    /// A run ended.
    RunEnded {
        /// How.
        status: RunStatus,
    },
}

/// One world step's event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TraceEvent {
    /// The world step (1-based).
    pub at: usize,
    /// Simulated ms.
    pub ms: u64,
    /// The run it is about (0: none).
    pub run: u32,
    /// What.
    pub kind: TraceKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Ev {
    Start,
    Task,
    Execute {
        pos: usize,
    },
    Record {
        pos: usize,
        outcome: StepOutcome,
    },
    Restart,
    /// Restate's next attempt at an invocation whose replay hit a journal mismatch.
    Retry,
    /// Temporal's Start-To-Close timer of attempt `attempt` of the activity at `pos`, set by the
    /// server when the attempt starts (`crashes`: the worker's crashes then); a crash does not
    /// clear it.
    Timeout {
        pos: usize,
        attempt: u32,
        crashes: u32,
    },
    /// Temporal hands the activity at `pos` to a worker again, its backoff over (`rerun`: the
    /// attempt before was lost with a crashed worker).
    Dispatch {
        pos: usize,
        rerun: bool,
    },
}

impl Ev {
    /// Events the worker holds in its memory (lost when it crashes).
    fn on_worker(self) -> bool {
        !matches!(
            self,
            Ev::Start | Ev::Restart | Ev::Timeout { .. } | Ev::Dispatch { .. }
        )
    }

    /// The server's timers of an activity of the open run (gone with the run).
    fn activity_timer(self) -> bool {
        matches!(self, Ev::Timeout { .. } | Ev::Dispatch { .. })
    }
}

/// The world: engine, worker, client and services.
#[derive(Clone, Debug)]
pub struct World {
    config: Config,
    now: u64,
    steps: usize,
    rng: Rng,
    queue: EventQueue<Ev>,
    runs: Vec<RunRecord>,
    active: Option<usize>,
    worker: WorkerState,
    memory: WorkerMemory,
    replay_pos: usize,
    fired: Vec<StepName>,
    naive: NaivePaymentService,
    keyed: IdempotentPaymentService,
    refunded: i64,
    refund_keys: Vec<String>,
    store: Vec<(String, PaymentResult)>,
    effects: Vec<Effect>,
    trace: Vec<TraceEvent>,
    replies: Vec<StartReply>,
    violations: Vec<Violation>,
    crashes: u32,
    mismatch_attempts: u32,
    replay_due: bool,
}

/// Two worlds are equal when everything in them is: the payment services by what they hold
/// (balance and charges; their stores are mirrored in `store`).
impl PartialEq for World {
    fn eq(&self, o: &World) -> bool {
        self.config == o.config
            && self.now == o.now
            && self.steps == o.steps
            && self.rng == o.rng
            && self.queue == o.queue
            && self.runs == o.runs
            && self.active == o.active
            && self.worker == o.worker
            && self.memory == o.memory
            && self.replay_pos == o.replay_pos
            && self.fired == o.fired
            && self.naive.balance() == o.naive.balance()
            && self.naive.operation_count() == o.naive.operation_count()
            && self.keyed.balance() == o.keyed.balance()
            && self.keyed.operation_count() == o.keyed.operation_count()
            && self.refunded == o.refunded
            && self.refund_keys == o.refund_keys
            && self.store == o.store
            && self.effects == o.effects
            && self.trace == o.trace
            && self.replies == o.replies
            && self.violations == o.violations
            && self.crashes == o.crashes
            && self.mismatch_attempts == o.mismatch_attempts
            && self.replay_due == o.replay_due
    }
}

impl Eq for World {}

impl World {
    /// A world at time 0 whose client starts the workflow id first thing (and again at
    /// `config.start_again_at_ms`, if set).
    pub fn new(config: Config) -> World {
        let mut w = World {
            rng: Rng::new(config.seed),
            now: 0,
            steps: 0,
            queue: EventQueue::new(),
            runs: Vec::new(),
            active: None,
            worker: WorkerState::Idle,
            memory: WorkerMemory::default(),
            replay_pos: 0,
            fired: Vec::new(),
            naive: NaivePaymentService::new(INITIAL_BALANCE),
            keyed: IdempotentPaymentService::new(INITIAL_BALANCE),
            refunded: 0,
            refund_keys: Vec::new(),
            store: Vec::new(),
            effects: Vec::new(),
            trace: Vec::new(),
            replies: Vec::new(),
            violations: Vec::new(),
            crashes: 0,
            mismatch_attempts: 0,
            replay_due: false,
            config,
        };
        w.schedule(0, Ev::Start);
        if let Some(at) = w.config.start_again_at_ms {
            w.schedule(at, Ev::Start);
        }
        w
    }

    fn schedule(&mut self, at: u64, ev: Ev) {
        debug_assert!(at >= self.now, "an event scheduled in the past");
        self.queue.schedule(at, ev);
    }

    fn after(&mut self, ms: u64, ev: Ev) {
        self.schedule(self.now.saturating_add(ms), ev);
    }

    fn record(&mut self, run: u32, kind: TraceKind) {
        self.trace.push(TraceEvent {
            at: self.steps,
            ms: self.now,
            run,
            kind,
        });
    }

    // ---- reading -------------------------------------------------------------------------

    /// The settings the world was built from.
    pub fn config(&self) -> &Config {
        &self.config
    }
    /// Simulated ms now.
    pub fn now_ms(&self) -> u64 {
        self.now
    }
    /// World steps taken.
    pub fn steps(&self) -> usize {
        self.steps
    }
    /// Every run of the workflow id, oldest first.
    pub fn runs(&self) -> &[RunRecord] {
        &self.runs
    }
    /// The run the worker works on (the open one), else the newest.
    pub fn current_run(&self) -> Option<&RunRecord> {
        self.active
            .and_then(|i| self.runs.get(i))
            .or(self.runs.last())
    }
    /// The worker.
    pub fn worker(&self) -> WorkerState {
        self.worker
    }
    /// The card's balance: the payment service's, plus refunds.
    pub fn balance(&self) -> i64 {
        let service = match self.config.key {
            KeyMode::None => self.naive.balance(),
            KeyMode::Derived | KeyMode::Random => self.keyed.balance(),
        };
        service + self.refunded
    }
    /// The payment service's idempotency store: each key's first result (empty without keys).
    pub fn store(&self) -> &[(String, PaymentResult)] {
        &self.store
    }

    /// The keys of the refunds the payment service made, in its idempotency store beside the
    /// charges' (a refund's key seen again is replayed, not refunded twice).
    pub fn refund_keys(&self) -> &[String] {
        &self.refund_keys
    }
    /// Every side effect, in order.
    pub fn effects(&self) -> &[Effect] {
        &self.effects
    }
    /// How many effects of `kind` happened.
    pub fn count(&self, kind: EffectKind) -> usize {
        self.effects.iter().filter(|e| e.kind == kind).count()
    }
    /// What happened, step by step.
    pub fn trace(&self) -> &[TraceEvent] {
        &self.trace
    }
    /// The engine's answers to the client's starts.
    pub fn replies(&self) -> &[StartReply] {
        &self.replies
    }
    /// Broken invariants, the first break of each.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }
    /// The break of `invariant`, if it broke.
    pub fn violation(&self, invariant: Invariant) -> Option<&Violation> {
        self.violations.iter().find(|v| v.invariant == invariant)
    }
    /// Crashes so far.
    pub fn crashes(&self) -> u32 {
        self.crashes
    }
    /// The replay mismatch that stopped a run, if one did: the run and what the engine did.
    pub fn mismatch(&self) -> Option<(u32, Verdict)> {
        self.trace.iter().find_map(|e| match e.kind {
            TraceKind::Mismatch { verdict, .. } => Some((e.run, verdict)),
            _ => None,
        })
    }
    /// Whether another step would change anything.
    pub fn can_progress(&self) -> bool {
        !self.queue.is_empty() && self.steps < MAX_DURABLE_STEPS
    }
    /// The journal position the worker is at (the step it runs or last ran), if any.
    pub fn current_entry(&self) -> Option<(usize, StepName)> {
        let run = self.current_run()?;
        if self.worker == WorkerState::Replaying {
            let pos = self.replay_pos.min(run.journal.len().saturating_sub(1));
            return run.journal.get(pos).map(|e| (pos, e.step));
        }
        run.journal
            .len()
            .checked_sub(1)
            .map(|p| (p, run.journal[p].step))
    }

    // ---- stepping ------------------------------------------------------------------------

    /// Runs the next event (or, with none left, an idle step). Returns whether anything
    /// happened.
    pub fn step(&mut self) -> bool {
        if self.steps >= MAX_DURABLE_STEPS {
            return false;
        }
        self.steps += 1;
        let Some((at, ev)) = self.queue.pop() else {
            return false;
        };
        debug_assert!(at >= self.now, "the queue gave an event from the past");
        self.now = self.now.max(at);
        match ev {
            Ev::Start => self.start(),
            Ev::Task => self.task(),
            Ev::Execute { pos } => self.execute(pos),
            Ev::Record { pos, outcome } => self.journal_result(pos, outcome),
            Ev::Restart => self.restart(),
            Ev::Retry => self.retry(),
            Ev::Timeout {
                pos,
                attempt,
                crashes,
            } => self.timed_out(pos, attempt, crashes),
            Ev::Dispatch { pos, rerun } => self.dispatch(pos, rerun),
        }
        self.check();
        debug_assert!(self.steps <= MAX_DURABLE_STEPS);
        true
    }

    /// Whether the learner's Crash would do something: the worker is up.
    pub fn can_crash(&self) -> bool {
        self.worker != WorkerState::Crashed && self.steps < MAX_DURABLE_STEPS
    }
    /// Whether the learner's Restart would do something: the worker is down.
    pub fn can_restart(&self) -> bool {
        self.worker == WorkerState::Crashed && self.steps < MAX_DURABLE_STEPS
    }
    /// Whether the client can start the workflow again (always, within the step limit).
    pub fn can_start(&self) -> bool {
        self.steps < MAX_DURABLE_STEPS
    }

    /// A step in which nothing happens here (another column acted). False at the step limit.
    pub fn pass(&mut self) -> bool {
        if self.steps >= MAX_DURABLE_STEPS {
            return false;
        }
        self.steps += 1;
        true
    }

    /// The learner's Crash: the worker goes down now. False if it is already down.
    pub fn crash_now(&mut self) -> bool {
        if !self.can_crash() {
            return false;
        }
        self.steps += 1;
        self.crash(true);
        self.check();
        true
    }

    /// The learner's Restart: a new worker now. False if the worker is up.
    pub fn restart_now(&mut self) -> bool {
        if !self.can_restart() {
            return false;
        }
        self.steps += 1;
        self.queue.retain(|_, ev| *ev != Ev::Restart);
        self.restart();
        self.check();
        true
    }

    /// The learner's "start again": the client starts the same workflow id now.
    pub fn start_now(&mut self) -> bool {
        if self.steps >= MAX_DURABLE_STEPS {
            return false;
        }
        self.steps += 1;
        self.start();
        self.check();
        true
    }

    fn active_run(&self) -> Option<(usize, u32)> {
        self.active.map(|i| (i, self.runs[i].no))
    }

    fn new_run(&mut self) -> u32 {
        let no = self.runs.len() as u32 + 1;
        self.runs.push(RunRecord {
            no,
            status: RunStatus::Running,
            journal: Vec::new(),
            mismatch: None,
            ended_ms: None,
        });
        self.active = Some(self.runs.len() - 1);
        self.memory = WorkerMemory::default();
        self.mismatch_attempts = 0;
        self.replay_due = false;
        if self.worker != WorkerState::Crashed {
            self.worker = WorkerState::Running;
            self.after(STEP_MS, Ev::Task);
        }
        no
    }

    fn reply(&mut self, reply: StartReply) {
        self.replies.push(reply);
        let run = match reply {
            StartReply::Started(n)
            | StartReply::Attached(n)
            | StartReply::SameResult(n)
            | StartReply::SameRequest(n)
            | StartReply::AlreadyInvoked(n) => n,
            StartReply::Replaced { new, .. } => new,
            StartReply::Rejected | StartReply::Invalid(_) => 0,
        };
        self.record(run, TraceKind::StartReplied(reply));
    }

    /// The client starts the workflow id.
    fn start(&mut self) {
        let again = !self.replies.is_empty();
        self.record(0, TraceKind::StartRequested { again });
        // Temporal validates the request's policies before it looks at the id: this pair is
        // InvalidArgument on every start, the first one included ("Invalid WorkflowIDReusePolicy:
        // WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE cannot be used together with
        // WorkflowIdConflictPolicy WORKFLOW_ID_CONFLICT_POLICY_TERMINATE_EXISTING",
        // temporalio/temporal chasm/lib/workflow/validator.go; service/frontend/workflow_handler_test.go
        // TestStartWorkflowExecution_InvalidWorkflowIdReusePolicy_RejectDuplicate).
        if let Some(e) = self.config.policy_error() {
            self.reply(StartReply::Invalid(e));
            return;
        }
        let Some(last) = self.runs.last().map(|r| (r.no, r.status, r.ended_ms)) else {
            let no = self.new_run();
            self.reply(StartReply::Started(no));
            return;
        };
        let (no, status, ended_ms) = last;
        // Temporal first looks up the start's request id among the current run's: a retry of
        // the call that started it is answered with that run (`Started` true, the same run id),
        // open or closed, before either policy is read (`handleConflict`, temporalio/temporal
        // service/history/api/startworkflow/api.go; history_engine2_test.go
        // TestStartWorkflowExecution_Dedup_Running_SameRequestID, and TestStartWorkflowExecution_Dedup
        // "when workflow completed" / "ignore error when request ID is the same"). With
        // RequestId::Same every later start carries the first call's id, so the current run is
        // the one it started.
        if self.config.engine == Engine::Temporal
            && again
            && self.config.request_id == RequestId::Same
            && self.replies.first() == Some(&StartReply::Started(no))
        {
            self.reply(StartReply::SameRequest(no));
            return;
        }
        // Restate purges a completed invocation's status once its retention has passed; the id
        // is then free and the request starts a new invocation (RESTATE_RETENTION_MS).
        if let Some(ended) = ended_ms.filter(|_| self.config.engine == Engine::Restate) {
            if self.now >= ended.saturating_add(RESTATE_RETENTION_MS) {
                self.record(no, TraceKind::Purged { ended_ms: ended });
                let new = self.new_run();
                self.reply(StartReply::Started(new));
                return;
            }
        }
        let open = !status.ended();
        let reply = match self.config.engine {
            // https://docs.temporal.io/workflow-execution/workflowid-runid: at most one open
            // execution per Workflow Id; the Conflict Policy decides for an open one, the
            // Reuse Policy for a closed one (`ResolveDuplicateWorkflowID`,
            // service/history/api/workflow_id_dedup.go). AllowDuplicateFailedOnly reads the
            // closed run's status: FAILED, TERMINATED (CANCELED, TIMED_OUT) allow a new run,
            // COMPLETED does not (`consts.FailedWorkflowStatuses`).
            Engine::Temporal if open => match self.config.conflict {
                ConflictPolicy::Fail => StartReply::Rejected,
                ConflictPolicy::UseExisting => StartReply::Attached(no),
                ConflictPolicy::TerminateExisting => {
                    self.terminate_active();
                    let new = self.new_run();
                    StartReply::Replaced { old: no, new }
                }
            },
            Engine::Temporal => match self.config.reuse {
                ReusePolicy::AllowDuplicate => StartReply::Started(self.new_run()),
                ReusePolicy::AllowDuplicateFailedOnly
                    if matches!(status, RunStatus::Failed | RunStatus::Terminated) =>
                {
                    StartReply::Started(self.new_run())
                }
                ReusePolicy::AllowDuplicateFailedOnly | ReusePolicy::RejectDuplicate => {
                    StartReply::Rejected
                }
            },
            // Restate, a Workflow's `run`: a second call with the same workflow id is answered
            // with WORKFLOW_ALREADY_INVOKED_INVOCATION_ERROR (409 "the workflow method was
            // already invoked"), running or ended, and gets no result (restatedev/restate
            // crates/worker/src/partition/state_machine/mod.rs `handle_duplicated_requests`;
            // tests/workflow.rs `start_workflow_method`).
            Engine::Restate if self.config.restate == RestateTarget::WorkflowRun => {
                StartReply::AlreadyInvoked(no)
            }
            // Restate, a handler called with the same Idempotency-Key: the request attaches to
            // the running invocation, or gets the stored response of an ended one
            // (tests/idempotency.rs `attach_with_service_invocation_command_while_executing`,
            // `complete_already_completed_invocation`).
            // DBOS: the workflow id is the idempotency key; starting it again returns the
            // existing workflow's handle, its recorded result or its recorded error
            // (dbos-inc/dbos-transact-py tests/test_dbos.py `test_simple_workflow`,
            // `test_exception_workflow`).
            Engine::Restate | Engine::Dbos if open => StartReply::Attached(no),
            Engine::Restate | Engine::Dbos => StartReply::SameResult(no),
            // A plain process has no notion of the id: it runs the function again.
            Engine::Plain => {
                if open {
                    self.terminate_active();
                }
                StartReply::Started(self.new_run())
            }
        };
        self.reply(reply);
    }

    /// Ends the open run without running anything more of it (Temporal's termination: no
    /// compensation runs).
    fn terminate_active(&mut self) {
        if let Some((i, no)) = self.active_run() {
            let status = if self.config.engine == Engine::Plain {
                RunStatus::Lost
            } else {
                RunStatus::Terminated
            };
            self.runs[i].status = status;
            self.runs[i].ended_ms = Some(self.now);
            self.active = None;
            self.queue
                .retain(|_, ev| !ev.on_worker() && !ev.activity_timer());
            self.record(no, TraceKind::RunEnded { status });
        }
    }

    /// The worker calls the workflow function (from the top) against the journal.
    fn task(&mut self) {
        let Some((ri, no)) = self.active_run() else {
            return;
        };
        if self.runs[ri].status != RunStatus::Running {
            return;
        }
        if self.replay_due {
            // A worker that came up while an activity was the server's has no copy of the
            // workflow: its first workflow task replays the history from the top.
            self.replay_due = false;
            self.worker = WorkerState::Replaying;
            self.replay_pos = 0;
        }
        let replaying = self.worker == WorkerState::Replaying;
        let (result, consumed, direct) = self.call_workflow(ri, replaying);
        if let Some(ms) = direct {
            self.record(no, TraceKind::ClockReadDirect { ms });
        }
        if replaying {
            self.replayed_up_to(ri, no, consumed);
            if result != Err(Stop::Suspend(Suspend::ReplayPause)) {
                self.worker = WorkerState::Running;
            }
        }
        let suspend = match result {
            // The function returned a value: the run closes completed (Temporal's
            // CompleteWorkflowExecution, DBOS's SUCCESS).
            Ok(()) => return self.end_run(ri, RunStatus::Completed),
            // It returned an error: the run closes failed (FailWorkflowExecution, DBOS's ERROR).
            Err(Stop::Error(_)) => return self.end_run(ri, RunStatus::Failed),
            Err(Stop::Suspend(s)) => s,
        };
        match suspend {
            Suspend::ReplayPause => self.after(STEP_MS, Ev::Task),
            Suspend::Clock { pos } => self.journal_clock(ri, no, pos),
            Suspend::Step { pos, step } => self.step_wanted(ri, no, pos, step),
            Suspend::Mismatch {
                pos,
                journaled,
                wanted,
            } => self.journal_mismatch(ri, no, pos, (journaled, wanted)),
        }
    }

    /// Runs the workflow function of run `ri` once against its journal (while replaying, up to
    /// the next entry): (how it stopped, journal entries consumed, a clock read directly).
    fn call_workflow(&mut self, ri: usize, replaying: bool) -> (Flow<()>, usize, Option<u64>) {
        let view: Vec<(StepName, Option<StepOutcome>)> = self.runs[ri]
            .journal
            .iter()
            .map(|e| (e.step, e.result))
            .collect();
        let limit = replaying.then_some(self.replay_pos + 1);
        let mut memory = std::mem::take(&mut self.memory);
        let called = {
            let mut ctx = Ctx::new(&view, limit, self.config.clock, self.now, &mut memory);
            let result: Flow<()> = match self.config.flow {
                FlowKind::Order => place_order(&mut ctx),
                FlowKind::Trip => book_trip(&mut ctx),
            };
            (result, ctx.consumed(), ctx.new_direct_read())
        };
        self.memory = memory;
        called
    }

    /// Replaying: the journal's first `consumed` entries have been replayed (each noted once).
    fn replayed_up_to(&mut self, ri: usize, no: u32, consumed: usize) {
        for pos in 0..consumed {
            let e = &mut self.runs[ri].journal[pos];
            if !e.replayed {
                e.replayed = true;
                let step = e.step;
                self.record(no, TraceKind::Replayed { pos, step });
            }
        }
        self.replay_pos = consumed;
    }

    /// The function read the time through the engine at `pos`: the journal records it.
    fn journal_clock(&mut self, ri: usize, no: u32, pos: usize) {
        let ms = self.now;
        self.runs[ri].journal.push(Entry {
            step: StepName::Clock,
            result: Some(StepOutcome::Time(ms)),
            attempts: 1,
            replayed: false,
            started_at: self.steps,
        });
        self.record(no, TraceKind::ClockJournaled { pos, ms });
        self.after(STEP_MS, Ev::Task);
    }

    /// The function wants `step` at `pos`, which has no result: it starts (or runs again).
    fn step_wanted(&mut self, ri: usize, no: u32, pos: usize, step: StepName) {
        if pos < self.runs[ri].journal.len() {
            // Started before the crash, never journaled: it runs again.
            self.record(no, TraceKind::StepRerun { pos, step });
            self.after(STEP_MS, Ev::Execute { pos });
            return;
        }
        self.runs[ri].journal.push(Entry {
            step,
            result: None,
            attempts: 0,
            replayed: false,
            started_at: self.steps,
        });
        self.record(no, TraceKind::StepStarted { pos, step });
        if self.fire(step, FaultKind::CrashBefore) {
            self.crash(false);
        } else {
            self.after(STEP_MS, Ev::Execute { pos });
        }
    }

    /// The function asked for `wanted` where the journal holds `journaled`: Restate retries
    /// while it has attempts left; otherwise each engine's verdict ends or stalls the run.
    fn journal_mismatch(
        &mut self,
        ri: usize,
        no: u32,
        pos: usize,
        (journaled, wanted): (StepName, StepName),
    ) {
        self.runs[ri].mismatch = Some((pos, journaled, wanted));
        if self.config.engine == Engine::Restate
            && self.mismatch_retried(no, pos, journaled, wanted)
        {
            return;
        }
        let (verdict, status) = match self.config.engine {
            // Temporal: "[TMPRL1100] Nondeterminism error"; the workflow task fails
            // and is retried, so the run stays open and makes no progress
            // (https://docs.temporal.io/encyclopedia/event-history/event-history-go,
            // "Example of a Non-Deterministic Workflow"; sdk-go's default
            // WorkflowPanicPolicy BlockWorkflow, internal/worker.go).
            Engine::Temporal => (Verdict::Blocked, RunStatus::Blocked),
            // Restate: the retries spent, the server's default `on-max-attempts` pauses
            // the invocation (restatedev/restate crates/types/src/config/invocation.rs).
            Engine::Restate => (Verdict::Paused, RunStatus::Paused),
            // DBOS refuses a step whose name differs from the one recorded at its
            // position (https://docs.dbos.dev/rust/tutorials/step-tutorial); the error
            // ends the workflow.
            Engine::Dbos | Engine::Plain => (Verdict::Failed, RunStatus::Failed),
        };
        self.record(
            no,
            TraceKind::Mismatch {
                pos,
                journaled,
                wanted,
                verdict,
            },
        );
        if status.ended() {
            self.end_run(ri, status);
        } else {
            self.runs[ri].status = status;
            self.worker = WorkerState::Idle;
        }
    }

    /// Restate's SDK by default hands a journal mismatch to the retry policy
    /// (JournalMismatchRetryBehavior::FollowRetryPolicy, restatedev/sdk-shared-core
    /// src/lib.rs; src/tests/failures.rs
    /// `follow_retry_policy_keeps_retry_behavior_on_mismatch`): this attempt ends and another
    /// replays from the top after the backoff. Pausing at once is the opt-in
    /// JournalMismatchRetryBehavior::Pause. True when a retry was scheduled; false when the
    /// retries are spent.
    fn mismatch_retried(
        &mut self,
        no: u32,
        pos: usize,
        journaled: StepName,
        wanted: StepName,
    ) -> bool {
        self.mismatch_attempts += 1;
        let attempt = self.mismatch_attempts;
        if attempt >= RESTATE_ATTEMPTS {
            return false;
        }
        self.record(
            no,
            TraceKind::MismatchRetried {
                pos,
                journaled,
                wanted,
                attempt,
            },
        );
        self.worker = WorkerState::Idle;
        self.after(backoff_ms(attempt), Ev::Retry);
        true
    }

    fn end_run(&mut self, ri: usize, status: RunStatus) {
        self.runs[ri].status = status;
        self.runs[ri].ended_ms = Some(self.now);
        self.queue.retain(|_, ev| !ev.activity_timer());
        self.active = None;
        self.worker = WorkerState::Idle;
        let no = self.runs[ri].no;
        self.record(no, TraceKind::RunEnded { status });
    }

    /// Whether the fault `kind` is set on `step` and has not fired yet; marks it fired.
    fn fire(&mut self, step: StepName, kind: FaultKind) -> bool {
        if self.config.fault_on(step) == Some(kind) && !self.fired.contains(&step) {
            self.fired.push(step);
            true
        } else {
            false
        }
    }

    /// The engine runs the step at `pos` once (an execution: the first, a retry or a re-run).
    fn execute(&mut self, pos: usize) {
        let Some((ri, no)) = self.active_run() else {
            return;
        };
        let Some(entry) = self.runs[ri].journal.get_mut(pos) else {
            return;
        };
        let step = entry.step;
        if entry.result.is_some() {
            // Never reached by this engine; the invariant stands guard over it.
            self.violate(Invariant::ReplayNeverReruns, step, no);
            return;
        }
        entry.attempts += 1;
        let attempt = entry.attempts;
        debug_assert!(
            self.worker != WorkerState::Crashed,
            "a step runs on a worker that is up"
        );
        if self.config.engine == Engine::Temporal {
            self.start_to_close(pos, attempt);
        }
        if self.fire(step, FaultKind::FailOnce) {
            return self.fail_once(no, pos, step, attempt);
        }
        if self.config.fault_on(step) == Some(FaultKind::FailPermanent) {
            return self.fail_permanent(no, pos, step);
        }
        self.run_step(no, pos, step, attempt);
    }

    /// Temporal: the attempt starts and the server sets its Start-To-Close timer, StartedTime
    /// plus the timeout (`getActivityStartToCloseTimeout`, temporalio/temporal
    /// service/history/workflow/timer_sequence.go; timer_sequence_test.go
    /// TestGetActivityStartToCloseTimeout_WithTimeout_Started). A scheduled activity not yet
    /// started has none (…_WithTimeout_NotStarted).
    fn start_to_close(&mut self, pos: usize, attempt: u32) {
        let crashes = self.crashes;
        self.after(
            self.config.start_to_close_ms,
            Ev::Timeout {
                pos,
                attempt,
                crashes,
            },
        );
    }

    /// The step's attempt fails once: it is retried after the backoff.
    fn fail_once(&mut self, no: u32, pos: usize, step: StepName, attempt: u32) {
        self.record(
            no,
            TraceKind::StepFailed {
                pos,
                step,
                permanent: false,
            },
        );
        let delay = backoff_ms(attempt);
        if self.config.engine == Engine::Temporal {
            // The worker reports the failure; the server schedules the retry (its timer, not
            // the worker's: a crash meanwhile does not lose it).
            self.cancel_timeout(pos);
            self.after(delay, Ev::Dispatch { pos, rerun: false });
        } else {
            self.after(delay, Ev::Execute { pos });
        }
    }

    /// The step fails for good: its failure is recorded as its result.
    fn fail_permanent(&mut self, no: u32, pos: usize, step: StepName) {
        self.record(
            no,
            TraceKind::StepFailed {
                pos,
                step,
                permanent: true,
            },
        );
        self.after(
            STEP_MS,
            Ev::Record {
                pos,
                outcome: StepOutcome::Failed,
            },
        );
    }

    /// The step's effect happens; then a crash, a lost reply, or its result recorded.
    fn run_step(&mut self, no: u32, pos: usize, step: StepName, attempt: u32) {
        self.effect(no, step);
        self.record(no, TraceKind::StepRan { pos, step, attempt });
        if self.fire(step, FaultKind::CrashAfterEffect) {
            self.crash(false);
        } else if self.fire(step, FaultKind::ReplyLost) {
            self.record(no, TraceKind::ReplyLost { pos, step });
            if self.config.engine != Engine::Temporal {
                self.after(STEP_TIMEOUT_MS, Ev::Execute { pos });
            }
            // Temporal: the attempt's Start-To-Close timer fires (`timed_out`).
        } else {
            self.after(
                STEP_MS,
                Ev::Record {
                    pos,
                    outcome: StepOutcome::Done,
                },
            );
        }
    }

    fn journal_result(&mut self, pos: usize, outcome: StepOutcome) {
        let Some((ri, no)) = self.active_run() else {
            return;
        };
        let Some(entry) = self.runs[ri].journal.get_mut(pos) else {
            return;
        };
        debug_assert!(entry.result.is_none(), "a step's result is journaled once");
        entry.result = Some(outcome);
        let step = entry.step;
        self.cancel_timeout(pos);
        self.record(no, TraceKind::Journaled { pos, step });
        if self.fire(step, FaultKind::CrashAfterJournal) {
            self.crash(false);
        } else {
            self.after(STEP_MS, Ev::Task);
        }
    }

    /// The key the payment steps pass. Derived: the workflow id, the run and the step, as
    /// Temporal suggests combining the Workflow Run Id and the Activity Id
    /// (https://docs.temporal.io/activity-definition#idempotency); the same on every re-run
    /// of the step. Random: minted inside the step, anew on every execution.
    fn key_for(&mut self, run: u32, step: StepName) -> Option<String> {
        match self.config.key {
            KeyMode::Derived => Some(format!("{WORKFLOW_ID}/{run}/{}", step.id())),
            KeyMode::None => None,
            KeyMode::Random => Some(mint(&mut self.rng, KeyFormat::V4, self.now).to_string()),
        }
    }

    /// The step's side effect in the world.
    fn effect(&mut self, run: u32, step: StepName) {
        let mut key = None;
        let kind = match step {
            StepName::Reserve => EffectKind::Reserved,
            StepName::Clock => return,
            StepName::Charge => {
                key = self.key_for(run, step);
                let result = match &key {
                    None => self.naive.charge(AMOUNT, WORKFLOW_ID),
                    Some(k) => self.keyed.charge(k, AMOUNT, WORKFLOW_ID),
                };
                if let Some(k) = &key {
                    if !result.is_replay() {
                        self.store.push((k.clone(), result.clone()));
                    }
                }
                if result.is_replay() {
                    EffectKind::ChargeReplayed
                } else if result.is_success() {
                    EffectKind::Charged
                } else {
                    EffectKind::Declined
                }
            }
            StepName::ShipExpress => EffectKind::ShippedExpress,
            StepName::ShipStandard => EffectKind::ShippedStandard,
            StepName::Receipt => EffectKind::Receipt,
            StepName::BookFlight => EffectKind::FlightBooked,
            StepName::ReserveHotel => EffectKind::HotelReserved,
            StepName::CancelFlight => EffectKind::FlightCancelled,
            StepName::Refund => {
                key = self.key_for(run, step);
                match &key {
                    Some(k) if self.refund_keys.contains(k) => EffectKind::RefundReplayed,
                    _ => {
                        if let Some(k) = &key {
                            self.refund_keys.push(k.clone());
                        }
                        self.refunded += AMOUNT;
                        EffectKind::Refunded
                    }
                }
            }
        };
        self.effects.push(Effect {
            kind,
            run,
            at: self.steps,
            key,
        });
    }

    /// The worker goes down: what it held in memory is gone; the journal stays.
    fn crash(&mut self, by_learner: bool) {
        self.worker = WorkerState::Crashed;
        self.crashes += 1;
        self.memory = WorkerMemory::default();
        self.queue.retain(|_, ev| !ev.on_worker());
        let run = self.active_run().map_or(0, |(_, no)| no);
        self.record(run, TraceKind::Crashed { by_learner });
        if !self.config.engine.durable() {
            // No journal: the run's progress was only in this process.
            if let Some((ri, _)) = self.active_run() {
                self.end_run(ri, RunStatus::Lost);
                self.worker = WorkerState::Crashed;
            }
        }
        if self.config.auto_restart {
            self.after(RESTART_MS, Ev::Restart);
        }
    }

    /// Restate's next attempt after a journal mismatch: a new attempt replays the open run's
    /// journal from the top (the worker's memory of the last attempt is gone).
    fn retry(&mut self) {
        let Some((ri, _)) = self.active_run() else {
            return;
        };
        if self.worker == WorkerState::Crashed || self.runs[ri].status != RunStatus::Running {
            return;
        }
        self.memory = WorkerMemory::default();
        self.replay_pos = 0;
        self.worker = WorkerState::Running;
        self.task();
    }

    /// A new worker: it replays the open run's journal from the top, if there is one. Under
    /// Temporal, an activity started and not reported is the server's: the new worker takes it
    /// when the server hands it out (at once if it never started, else when its timer has fired
    /// and its backoff ended) and replays the workflow only when the activity's result is in.
    fn restart(&mut self) {
        if self.worker != WorkerState::Crashed {
            return;
        }
        let run = self.active_run();
        let no = run.map_or(0, |(_, no)| no);
        self.replay_pos = 0;
        self.replay_due = false;
        let Some((ri, _)) = run.filter(|(ri, _)| self.runs[*ri].status == RunStatus::Running)
        else {
            self.record(no, TraceKind::Restarted { replays: false });
            self.worker = WorkerState::Idle;
            return;
        };
        if let Some((pos, step)) = self.unfinished_activity(ri) {
            self.record(no, TraceKind::Restarted { replays: false });
            self.replay_due = true;
            match self.server_timer(pos) {
                Some((until_ms, timing_out)) => {
                    self.worker = WorkerState::Idle;
                    self.record(
                        no,
                        TraceKind::ActivityPending {
                            pos,
                            step,
                            until_ms,
                            timing_out,
                        },
                    );
                }
                None => {
                    // Scheduled, never started (or its retry already due): the task waits in its
                    // queue and the first worker to poll takes it.
                    self.worker = WorkerState::Running;
                    self.record(no, TraceKind::StepRerun { pos, step });
                    self.after(STEP_MS, Ev::Execute { pos });
                }
            }
            return;
        }
        let replays = !self.runs[ri].journal.is_empty();
        self.record(no, TraceKind::Restarted { replays });
        self.worker = if replays {
            WorkerState::Replaying
        } else {
            WorkerState::Running
        };
        self.after(STEP_MS, Ev::Task);
    }

    /// Under Temporal, the open run's activity that has no result yet (the journal's last entry),
    /// if there is one: the server, not the worker, decides when it runs again.
    fn unfinished_activity(&self, ri: usize) -> Option<(usize, StepName)> {
        if self.config.engine != Engine::Temporal {
            return None;
        }
        let journal = &self.runs[ri].journal;
        let pos = journal.len().checked_sub(1)?;
        let e = &journal[pos];
        (e.result.is_none() && e.step != StepName::Clock).then_some((pos, e.step))
    }

    /// The server's pending timer of the activity at `pos`: when it fires, and whether it is the
    /// Start-To-Close timer (else the retry's backoff).
    fn server_timer(&self, pos: usize) -> Option<(u64, bool)> {
        self.queue
            .iter()
            .filter_map(|(k, ev)| match *ev {
                Ev::Timeout { pos: p, .. } if p == pos => Some((k.at_ms, true)),
                Ev::Dispatch { pos: p, .. } if p == pos => Some((k.at_ms, false)),
                _ => None,
            })
            .min()
    }

    /// The server got the attempt's result (or its failure): its Start-To-Close timer goes. A
    /// timer task of an activity that completed does nothing (timer_queue_active_task_executor_test.go
    /// TestProcessActivityTimeout_RetryPolicy_Noop); the page drops it rather than spend a step.
    fn cancel_timeout(&mut self, pos: usize) {
        self.queue
            .retain(|_, ev| !matches!(*ev, Ev::Timeout { pos: p, .. } if p == pos));
    }

    /// Temporal: the Start-To-Close timer of attempt `attempt` at `pos` fires with no result
    /// reported. A timed-out attempt is a retryable failure (`IsRetryableFailure`,
    /// temporalio/temporal common/retrypolicy/retry_policy.go: START_TO_CLOSE timeouts retry), so
    /// `RetryActivity` schedules the next attempt after the backoff
    /// (service/history/timer_queue_active_task_executor.go `processSingleActivityTimeoutTask`;
    /// timer_queue_active_task_executor_test.go TestProcessActivityTimeout_RetryPolicy_Retry). A
    /// timer of an earlier attempt does nothing.
    fn timed_out(&mut self, pos: usize, attempt: u32, crashes: u32) {
        let Some((ri, no)) = self.active_run() else {
            return;
        };
        let Some(entry) = self.runs[ri].journal.get(pos) else {
            return;
        };
        if entry.result.is_some() || entry.attempts != attempt {
            return;
        }
        let step = entry.step;
        let retry_in_ms = backoff_ms(attempt);
        self.record(
            no,
            TraceKind::TimedOut {
                pos,
                step,
                attempt,
                timeout_ms: self.config.start_to_close_ms,
                retry_in_ms,
            },
        );
        let rerun = crashes != self.crashes;
        self.after(retry_in_ms, Ev::Dispatch { pos, rerun });
    }

    /// Temporal hands the activity at `pos` to a worker for its next attempt. With the worker
    /// down, the task waits in its queue for the next worker (`restart`).
    fn dispatch(&mut self, pos: usize, rerun: bool) {
        let Some((ri, no)) = self.active_run() else {
            return;
        };
        let Some(entry) = self.runs[ri].journal.get(pos) else {
            return;
        };
        if entry.result.is_some()
            || self.runs[ri].status != RunStatus::Running
            || self.worker == WorkerState::Crashed
        {
            return;
        }
        let step = entry.step;
        self.worker = WorkerState::Running;
        if rerun {
            self.record(no, TraceKind::StepRerun { pos, step });
            self.after(STEP_MS, Ev::Execute { pos });
        } else {
            self.execute(pos);
        }
    }

    // ---- invariants ----------------------------------------------------------------------

    fn violate(&mut self, invariant: Invariant, step: StepName, run: u32) {
        if self.violation(invariant).is_none() {
            self.violations.push(Violation {
                invariant,
                at: self.steps,
                step,
                run,
            });
        }
    }

    fn effects_of(&self, run: u32, kind: EffectKind) -> usize {
        self.effects
            .iter()
            .filter(|e| e.run == run && e.kind == kind)
            .count()
    }

    fn check(&mut self) {
        let charges = self.count(EffectKind::Charged);
        if charges > 1 {
            let run = self
                .effects
                .iter()
                .rev()
                .find(|e| e.kind == EffectKind::Charged)
                .map_or(0, |e| e.run);
            self.violate(Invariant::OneChargePerOrder, StepName::Charge, run);
        }
        if self.count(EffectKind::Refunded) > charges {
            let run = self
                .effects
                .iter()
                .rev()
                .find(|e| e.kind == EffectKind::Refunded)
                .map_or(0, |e| e.run);
            self.violate(Invariant::RefundPerCharge, StepName::Refund, run);
        }
        let mut undone = None;
        for r in &self.runs {
            if !r.status.ended() || r.status == RunStatus::Completed {
                continue;
            }
            let charged = self.effects_of(r.no, EffectKind::Charged);
            let refunded = self.effects_of(r.no, EffectKind::Refunded);
            let booked = self.effects_of(r.no, EffectKind::FlightBooked);
            let cancelled = self.effects_of(r.no, EffectKind::FlightCancelled);
            if booked > cancelled {
                undone = Some((StepName::BookFlight, r.no));
            } else if charged > refunded {
                undone = Some((StepName::Charge, r.no));
            }
            if undone.is_some() {
                break;
            }
        }
        if let Some((step, run)) = undone {
            self.violate(Invariant::EndedKeptOrCompensated, step, run);
        }
    }
}

impl crate::sim::kernel::Model for World {
    type Checked = Vec<Violation>;

    /// One event; unlike [`World::step`], no idle step when nothing is left (a column of a
    /// run passes idle steps to keep in line with the others: `run.rs`).
    fn step(&mut self) -> bool {
        self.can_progress() && World::step(self)
    }

    fn steps(&self) -> usize {
        World::steps(self)
    }

    fn checked(&self) -> Vec<Violation> {
        self.violations().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine never runs a journaled step; the invariant that guards it fires when an
    /// execution of a journaled position is forced in.
    #[test]
    fn the_replay_invariant_catches_a_journaled_step_run_again() {
        let mut w = World::new(Config::default());
        while w.step() {}
        assert!(w.violations().is_empty());
        // A finished run has no active run: reopen it as the worker would see it.
        w.active = Some(0);
        w.runs[0].status = RunStatus::Running;
        w.schedule(w.now, Ev::Execute { pos: 1 });
        w.step();
        let v = w.violation(Invariant::ReplayNeverReruns).expect("caught");
        assert_eq!((v.step, v.run, v.at), (StepName::Charge, 1, w.steps()));
        // Nothing was charged again.
        assert_eq!(w.count(EffectKind::Charged), 1);
    }
}
