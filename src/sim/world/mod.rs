//! The world: a discrete-event simulation in the sans-I/O style. It advances only through
//! [`Input`]s and its own queue of micro-events, ordered by (simulated ms, sequence number); every
//! [`World::step`] runs one micro-event and appends its trace events. No clock, no OS randomness,
//! no callbacks: the same config and inputs give the same trace, and rewinding is replaying.

pub(super) mod account;
pub(super) mod budget;
pub(super) mod client;
mod ctx;
pub(super) mod downstream;
pub(super) mod exchange;
pub(super) mod fault;
mod fork;
pub(super) mod input;
pub(super) mod intern;
pub(super) mod invariants;
mod network;
pub(super) mod outbox;
pub(super) mod server;
pub(super) mod store;
pub(super) mod trace;

use crate::sim::article::production::{fingerprint, Counters, Policies};
use crate::sim::article::PaymentResult;
use crate::sim::base::pvec::{self, PVec};

use crate::sim::base::uuidgen::KeyFormat;

use crate::sim::limits::{
    check_balance, check_duration, DurationField, InputError, MAX_BALANCE, MAX_INPUTS,
    MAX_TIMEOUT_MS, MAX_TRACE_EVENTS,
};
use account::{Caller, RequestPolicies};
use budget::Budget;
use client::{ClientResult, Clients, KeyStrategy, OpPlan, Outbound, RetryPolicy};
use ctx::Ctx;
use downstream::{Downstream, Processor};
use fault::Fault;
use input::{Input, RequestSpec};
use intern::{DescId, Interner, KeyId};
use invariants::{Checker, StepView, Violation};
use network::Network;
use outbox::{Consumer, EmitMode, OutboxRow, Relay};
use server::{Reach, Server, ServiceKind};
use store::{LedgerEntry, StoreRow};
use trace::{EventKind, LaneSet, TraceEvent};

/// Everything a world is configured with, its one settings type (the server, the network, the
/// world beyond the server, who sends what); time and randomness come only from here and inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorldConfig {
    /// Seed of the world's RNG (keys, jitter, backoff).
    pub seed: u64,
    /// Starting balance, 0..=`MAX_BALANCE`.
    pub initial_balance: i64,
    /// The service the server runs.
    pub service: ServiceKind,
    /// How charges are announced downstream.
    pub emit: EmitMode,
    /// Whether the consumer keeps an inbox of processed event ids.
    pub consumer_dedupes: bool,
    /// The production service's policies (ignored by the other services).
    pub policies: Policies,
    /// One-way network latency.
    pub latency_ms: u64,
    /// Extra random latency per message.
    pub jitter_ms: u64,
    /// Client timeout per attempt.
    pub timeout_ms: u64,
    /// The world beyond the server (`downstream.rs`): the card processor and the key store's
    /// failures; the default is the article's.
    pub downstream: Downstream,
    /// The production service's policies for who sends what (issue 13); the other services
    /// ignore them.
    pub requests: RequestPolicies,
}

impl Default for WorldConfig {
    fn default() -> Self {
        Self {
            seed: 1,
            initial_balance: 1000,
            service: ServiceKind::Atomic,
            emit: EmitMode::None,
            consumer_dedupes: true,
            policies: Policies::default(),
            latency_ms: 50,
            jitter_ms: 0,
            timeout_ms: 1000,
            downstream: Downstream::default(),
            requests: RequestPolicies::default(),
        }
    }
}

impl WorldConfig {
    /// Checks every setting against its limit.
    pub fn validate(&self) -> Result<(), InputError> {
        check_balance(self.initial_balance)?;
        self.network().validate()?;
        check_duration(DurationField::Timeout, self.timeout_ms, 1, MAX_TIMEOUT_MS)?;
        self.policies.validate()?;
        self.downstream.validate()
    }

    fn network(&self) -> Network {
        Network {
            latency_ms: self.latency_ms,
            jitter_ms: self.jitter_ms,
        }
    }
}

/// An input the learner pushed, and the number of steps taken when it was pushed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedInput {
    /// `steps_taken()` at the push.
    pub at_step: usize,
    /// The input.
    pub input: Input,
}

/// Where an injected input lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InputRef {
    Script(usize),
    Pushed(usize),
}

/// One micro-event in the queue.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Micro {
    Input(InputRef),
    AdvanceTo(InputRef),
    Send { op: intern::OpId },
    Arrive { attempt: u32 },
    Phase { job: u32 },
    Reply { attempt: u32 },
    Timeout { attempt: u32 },
    Relay,
    Consume { id: u64 },
    ProcessorReply { job: u32 },
}

/// Observable state at one step; equal snapshots mean equal worlds for the learner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Simulated time.
    pub now_ms: u64,
    /// Steps taken.
    pub steps: usize,
    /// Balance.
    pub balance: i64,
    /// Committed charges.
    pub ledger: Vec<LedgerEntry>,
    /// Idempotency records.
    pub store_rows: Vec<StoreRow>,
    /// Outbox rows.
    pub outbox: Vec<OutboxRow>,
    /// Consumer state.
    pub consumer: Consumer,
    /// Store counters.
    pub counters: Counters,
    /// Violations so far.
    pub violations: Vec<Violation>,
    /// Client operations.
    pub client_results: Vec<ClientResult>,
    /// The whole trace.
    pub trace: Vec<TraceEvent>,
    /// Micro-events waiting.
    pub pending_events: usize,
}

/// A simulated payment system: clients, network, server, store, card processor, relay and
/// consumer. The world coordinates: it owns the parts and the context they act on, takes the
/// inputs, hands each micro-event to the part it is for, and checks the invariants after each
/// step. The tables that grow with the run are persistent ([`PVec`]): cloning a world (the
/// playground's checkpoints) copies pointers to shared chunks, not the run's history.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct World {
    config: WorldConfig,
    /// Time, randomness, the queue and the trace, which every part acts on.
    ctx: Ctx,
    /// Shared, never edited after construction: copying a world (the UI's checkpoints) must not
    /// copy thousands of inputs.
    script: std::rc::Rc<[Input]>,
    script_pos: usize,
    pushed: PVec<LoggedInput>,
    interner: Interner,
    /// The clients (`client.rs`): their operations, attempts and link.
    clients: Clients,
    /// The server (`server.rs`): its settings, its database, its jobs, its counters and its
    /// notes for the checker.
    server: Server,
    relay: Relay,
    consumer: Consumer,
    checker: Checker,
    violations: Vec<Violation>,
    budget: Budget,
    /// The input started last, numbered as [`World::input_at`] numbers them.
    current_input: Option<usize>,
    halted: Option<Halt>,
    /// The card processor (`downstream.rs`).
    processor: Processor,
}

/// Why a run stopped early, and at which input. Inputs are refused when added if they could
/// break a limit while running (see `budget.rs`), so this is a safety net, not a path a
/// learner should meet; when it is met, the page says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Halt {
    /// The step after which nothing more ran.
    pub after_step: usize,
    /// The input that was running, numbered as [`World::input_at`] numbers them.
    pub input: Option<usize>,
    /// What stopped it.
    pub reason: InputError,
}

impl World {
    /// A world with no inputs yet.
    pub fn new(config: WorldConfig) -> Result<World, InputError> {
        config.validate()?;
        Ok(World {
            config,
            ctx: Ctx::new(config.seed),
            script: std::rc::Rc::from(Vec::new()),
            script_pos: 0,
            pushed: PVec::new(),
            interner: Interner::default(),
            clients: Clients::new(config.network(), config.timeout_ms),
            server: Server::new(&config),
            relay: Relay::default(),
            consumer: Consumer::new(config.consumer_dedupes),
            checker: Checker::default(),
            violations: Vec::new(),
            budget: Budget::default(),
            current_input: None,
            halted: None,
            processor: Processor::default(),
        })
    }

    /// Checks what a script may cost (the same for every service): the most trace events it can
    /// cause, or why it is refused before it runs (see `budget.rs`).
    pub fn script_cost(script: &[Input]) -> Result<u64, InputError> {
        Budget::of(script).map(|b| b.events())
    }

    /// A world with a script: each input is taken when the event queue runs empty.
    pub fn with_script(config: WorldConfig, script: Vec<Input>) -> Result<World, InputError> {
        if script.len() > MAX_INPUTS {
            return Err(InputError::TooManyInputs {
                count: script.len(),
                max: MAX_INPUTS,
            });
        }
        script.iter().try_for_each(Input::validate)?;
        if script.iter().any(|i| matches!(i, Input::SetFault { .. })) {
            // A fault change names an attempt at a step: only a fork (a push) can.
            return Err(InputError::BranchOnly);
        }
        let budget = Budget::of(&script)?;
        let mut w = World::new(config)?;
        w.budget = budget;
        // The script's customers are known from the start (the lesson's story names them), so
        // their accounts show from step 0, not from each one's first request.
        for account in script.iter().filter_map(Input::account) {
            w.clients.accounts_seen |= 1 << account;
        }
        w.script = script.into();
        Ok(w)
    }

    /// Validates an input and starts it now, concurrently with whatever is in flight.
    /// (`AdvanceTime` wakes the world `ms` from now; events due before then run first.)
    pub fn push_input(&mut self, input: Input) -> Result<(), InputError> {
        self.budget = self.admits(&input)?;
        if let Input::SetFault { op, attempt, fault } = input {
            // At once: an event of that attempt due now must not run before the change.
            self.clients.set_fault(op, attempt, fault);
        }
        self.pushed.push(LoggedInput {
            at_step: self.ctx.steps,
            input,
        });
        self.inject(InputRef::Pushed(self.pushed.len() - 1));
        Ok(())
    }

    /// Whether [`World::push_input`] would take `input` now, without pushing it: the limits,
    /// the budget, and for a fault change whether its attempt is still ahead.
    pub fn check_push(&self, input: &Input) -> Result<(), InputError> {
        self.admits(input).map(|_| ())
    }

    /// The budget with `input` counted in, or why `input` is refused now.
    fn admits(&self, input: &Input) -> Result<Budget, InputError> {
        input.validate()?;
        let count = self.script.len() + self.pushed.len() + 1;
        if count > MAX_INPUTS {
            return Err(InputError::TooManyInputs {
                count,
                max: MAX_INPUTS,
            });
        }
        if let Some(halt) = &self.halted {
            return Err(halt.reason.clone());
        }
        if self.ctx.trace.len() >= MAX_TRACE_EVENTS {
            return Err(InputError::TraceFull {
                max: MAX_TRACE_EVENTS,
            });
        }
        if let Input::SetFault { op, attempt, .. } = *input {
            // A fork's fault change names an attempt not yet past (`fork.rs`).
            self.clients.check_fault_change(&self.ctx, op, attempt)?;
        }
        let mut budget = self.budget;
        budget.admit(input)?;
        Ok(budget)
    }

    fn input(&self, r: InputRef) -> Option<&Input> {
        match r {
            InputRef::Script(i) => self.script.get(i),
            InputRef::Pushed(i) => self.pushed.get(i).map(|l| &l.input),
        }
    }

    fn inject(&mut self, r: InputRef) {
        match self.input(r) {
            Some(Input::AdvanceTime { ms }) => {
                let at = self.ctx.now.saturating_add(*ms);
                self.ctx.schedule(at, Micro::AdvanceTo(r));
            }
            Some(_) => {
                self.ctx.schedule(self.ctx.now, Micro::Input(r));
            }
            None => {}
        }
    }

    /// Runs one micro-event; returns the first trace event of the step, or `None` when nothing
    /// is left to do (or the trace is full — see [`World::halted`]).
    pub fn step(&mut self) -> Option<&TraceEvent> {
        if self.halted.is_some() {
            return None;
        }
        debug_assert!(self.script_pos <= self.script.len());
        let start = self.ctx.trace.len();
        loop {
            if self.ctx.trace.len() >= MAX_TRACE_EVENTS && !self.is_idle() {
                self.halt(InputError::TraceFull {
                    max: MAX_TRACE_EVENTS,
                });
                break;
            }
            let Some((at, micro)) = self.ctx.queue.pop() else {
                if self.script_pos < self.script.len() {
                    self.script_pos += 1;
                    self.inject(InputRef::Script(self.script_pos - 1));
                    continue;
                }
                return None;
            };
            let before = self.ctx.now;
            debug_assert!(at >= before, "the queue gave a micro-event from the past");
            self.ctx.now = self.ctx.now.max(at);
            self.handle(micro);
            if self.ctx.trace.len() > start || self.halted.is_some() {
                break;
            }
            // Every live micro-event emits; one that did not changed nothing, so it is no step
            // and does not move the clock. (Timers are cancelled when answered, so this is a
            // safety net, not a path taken.)
            self.ctx.now = before;
        }
        if self.ctx.trace.len() == start {
            // Halted before this step did anything: it is no step.
            return None;
        }
        self.ctx.steps = self.ctx.steps.saturating_add(1);
        debug_assert!(
            self.ctx
                .trace
                .iter_from(start)
                .all(|e| e.step == self.ctx.steps && e.time_ms == self.ctx.now),
            "every event of a step carries its step and time"
        );
        if let Some(h) = &mut self.halted {
            // It halted during this step, after emitting: the step happened.
            h.after_step = self.ctx.steps;
        }
        let view = StepView {
            step: self.ctx.steps,
            time_ms: self.ctx.now,
            initial_balance: self.config.initial_balance,
            emit: self.config.emit,
            db: &self.server.db,
            events: self.ctx.trace.iter_from(start),
            facts: &self.server.facts,
            events_owed: self.server.events_owed(),
        };
        self.checker.check(&view, &mut self.violations);
        let facts = &mut self.server.facts;
        facts.lost_events.clear();
        facts.phantom_events.clear();
        facts.foreign_answers.clear();
        facts.other_request_replays.clear();
        self.ctx.trace.get(start)
    }

    /// Steps until nothing is left; returns the number of steps taken.
    pub fn run_until_idle(&mut self) -> usize {
        let before = self.ctx.steps;
        while self.step().is_some() {}
        self.ctx.steps - before
    }

    fn handle(&mut self, micro: Micro) {
        debug_assert!(
            match micro {
                Micro::Arrive { attempt }
                | Micro::Reply { attempt }
                | Micro::Timeout { attempt } => (attempt as usize) < self.clients.attempts.len(),
                Micro::Phase { job } | Micro::ProcessorReply { job } => self.server.has_job(job),
                _ => true,
            },
            "a micro-event names an attempt or a job that exists"
        );
        match micro {
            Micro::Input(r) => self.start_input(r),
            Micro::AdvanceTo(r) => {
                self.current_input = Some(self.input_number(r));
                self.ctx.emit(EventKind::TimeAdvanced {
                    to_ms: self.ctx.now,
                });
                self.server.reap(&mut self.ctx);
            }
            Micro::Send { op } => {
                let (clients, mut out) = self.outbound();
                // Only id overflow can fail here, and ids are bounded by MAX_INPUTS.
                if let Err(e) = clients.send_attempt(&mut out, op) {
                    self.halt(e);
                }
            }
            Micro::Arrive { .. } | Micro::Phase { .. } | Micro::ProcessorReply { .. } => {
                let (server, mut reach) = self.serving();
                // Only id overflow can fail here (too many scoped keys).
                if let Err(e) = server.handle(&mut reach, &micro) {
                    self.halt(e);
                }
            }
            Micro::Reply { attempt } => self.clients.receive(&mut self.ctx, attempt),
            Micro::Timeout { attempt } => self.clients.timeout(&mut self.ctx, attempt),
            Micro::Relay => self.relay.step(&mut self.ctx, &mut self.server.db),
            Micro::Consume { id } => self.consumer.consume(&mut self.ctx, id),
        }
    }

    fn start_input(&mut self, r: InputRef) {
        let Some(input) = self.input(r).cloned() else {
            return;
        };
        self.current_input = Some(self.input_number(r));
        if let Err(e) = self.apply_input(input) {
            self.halt(e);
        }
    }

    /// Input `r`'s number, as [`World::input_at`] numbers them.
    fn input_number(&self, r: InputRef) -> usize {
        match r {
            InputRef::Script(i) => i,
            InputRef::Pushed(i) => self.script.len() + i,
        }
    }

    /// Stops the run: nothing queued runs any more, and no input is taken. `after_step` is the
    /// last step that happened (`step` moves it on if the halting step had emitted events).
    fn halt(&mut self, reason: InputError) {
        if self.halted.is_none() {
            self.halted = Some(Halt {
                after_step: self.ctx.steps,
                input: self.current_input,
                reason,
            });
        }
    }

    fn apply_input(&mut self, input: Input) -> Result<(), InputError> {
        match input {
            Input::Request {
                key,
                key_format,
                amount,
                description,
                fault,
            } => {
                let key = key.map(|k| self.interner.text(&k)).transpose()?;
                self.start_single(key, key_format, amount, &description, fault)?;
            }
            Input::Retry { new_key, fault } => {
                let (clients, mut out) = self.outbound();
                clients.retry_last(&mut out, new_key, fault)?;
            }
            Input::Operation {
                amount,
                description,
                key_format,
                key_strategy,
                retry,
                max_attempts,
                faults,
            } => {
                let desc = self.interner.description(&description)?;
                let plan = OpPlan {
                    fingerprint: fingerprint(amount, &description),
                    key_format,
                    key_strategy,
                    retry,
                    max_attempts,
                    faults,
                    caller: self.clients.caller,
                };
                self.start_op(None, amount, desc, plan)?;
            }
            Input::Parallel { requests, same_key } => self.start_parallel(requests, same_key)?,
            Input::AdvanceTime { .. } => {
                // Injected as `Micro::AdvanceTo`, never as `Micro::Input`.
            }
            Input::RelayTick {
                crash_after_publish,
            } => self
                .relay
                .tick(&mut self.ctx, &mut self.server.db, crash_after_publish),
            Input::Deposit { amount } => self.deposit(amount),
            Input::SetFault { op, attempt, .. } => {
                // Applied when pushed (`push_input`); this is its mark in the trace.
                let input = self.current_input.unwrap_or_default();
                self.ctx.emit(EventKind::FaultChanged {
                    op: intern::OpId(op),
                    attempt,
                    input,
                });
            }
            Input::Crash => {
                let (server, mut reach) = self.serving();
                server.restart(&mut reach);
            }
            Input::As { caller, input } => self.apply_as(caller, *input)?,
        }
        Ok(())
    }

    /// A `Parallel` input: each request starts at once; those without a key share one minted
    /// key when `same_key` (a double click), else mint their own.
    fn start_parallel(
        &mut self,
        requests: Vec<RequestSpec>,
        same_key: bool,
    ) -> Result<(), InputError> {
        let mut shared: Option<KeyId> = None;
        for spec in requests {
            let key = match (&spec.key, same_key) {
                (Some(k), _) => Some(self.interner.text(k)?),
                (None, true) => match shared {
                    Some(k) => Some(k),
                    None => {
                        let k = self.outbound().1.mint_key(spec.key_format)?;
                        shared = Some(k);
                        Some(k)
                    }
                },
                (None, false) => None,
            };
            self.start_single(
                key,
                spec.key_format,
                spec.amount,
                &spec.description,
                spec.fault,
            )?;
        }
        Ok(())
    }

    /// An `As` input: the wrapped input, sent by `caller`.
    fn apply_as(&mut self, caller: Caller, input: Input) -> Result<(), InputError> {
        self.clients.callers_seen = true;
        let outer = std::mem::replace(&mut self.clients.caller, caller);
        let applied = self.apply_input(input);
        self.clients.caller = outer;
        applied
    }

    fn start_single(
        &mut self,
        key: Option<KeyId>,
        key_format: KeyFormat,
        amount: i64,
        description: &str,
        fault: Fault,
    ) -> Result<(), InputError> {
        let desc = self.interner.description(description)?;
        let plan = OpPlan {
            fingerprint: fingerprint(amount, description),
            key_format,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::None,
            max_attempts: 1,
            // No allocation for the common fault-free request.
            faults: if fault == Fault::None {
                Vec::new()
            } else {
                vec![fault]
            },
            caller: self.clients.caller,
        };
        self.start_op(key, amount, desc, plan)
    }

    /// The clients start an operation and send its first attempt.
    fn start_op(
        &mut self,
        key: Option<KeyId>,
        amount: i64,
        desc: DescId,
        plan: OpPlan,
    ) -> Result<(), InputError> {
        let (clients, mut out) = self.outbound();
        clients
            .start_op(&mut out, key, amount, desc, plan)
            .map(|_| ())
    }

    /// The server, and what it reaches.
    fn serving(&mut self) -> (&mut Server, Reach<'_>) {
        let reach = Reach {
            ctx: &mut self.ctx,
            clients: &mut self.clients,
            processor: &mut self.processor,
            interner: &mut self.interner,
        };
        (&mut self.server, reach)
    }

    /// The clients, and what their sending reaches.
    fn outbound(&mut self) -> (&mut Clients, Outbound<'_>) {
        let out = Outbound {
            ctx: &mut self.ctx,
            interner: &mut self.interner,
        };
        (&mut self.clients, out)
    }

    /// A deposit, into account 0 (`Input::As` wraps requests only).
    fn deposit(&mut self, amount: i64) {
        self.clients.accounts_seen |= 1;
        let next = self
            .server
            .db
            .balance(0)
            .checked_add(amount)
            .filter(|b| *b <= MAX_BALANCE);
        let accepted = match next {
            Some(b) => {
                self.server.db.set_balance(0, b);
                self.server.db.deposits = self.server.db.deposits.saturating_add(amount);
                true
            }
            None => false,
        };
        self.ctx.emit(EventKind::Deposit { amount, accepted });
    }

    // ---- accessors ----------------------------------------------------------------------

    /// The configuration.
    pub fn config(&self) -> &WorldConfig {
        &self.config
    }

    /// Steps taken so far.
    pub fn steps_taken(&self) -> usize {
        self.ctx.steps
    }

    /// Simulated time in ms.
    pub fn now_ms(&self) -> u64 {
        self.ctx.now
    }

    /// Every trace event so far.
    pub fn trace(&self) -> &PVec<TraceEvent> {
        &self.ctx.trace
    }

    /// The lanes the trace so far has events on.
    pub fn lanes_used(&self) -> LaneSet {
        self.ctx.lanes
    }

    /// The trace events of the most recent step.
    pub fn last_step_events(&self) -> pvec::Iter<'_, TraceEvent> {
        let step = self.ctx.steps;
        let start = self
            .ctx
            .trace
            .iter()
            .rposition(|e| e.step != step)
            .map_or(0, |i| i + 1);
        self.ctx.trace.iter_from(start)
    }

    /// The balance of account 0, the single account of the article's world (`balance_of` for
    /// another customer's).
    pub fn balance(&self) -> i64 {
        self.server.db.balance(0)
    }

    /// The balance of `account` (`Caller::account`); every account starts at the initial balance.
    pub fn balance_of(&self, account: u32) -> i64 {
        self.server.db.balance(account)
    }

    /// The accounts whose customers have sent a charge or a deposit so far, one bit each (bit 0:
    /// account 0). Only bit 0, or none, in a run without callers of their own.
    pub fn accounts_seen(&self) -> u8 {
        self.clients.accounts_seen
    }

    /// Whether customers of accounts other than 0 are in the run: the page then names accounts.
    pub fn other_accounts_seen(&self) -> bool {
        self.clients.accounts_seen & !1 != 0
    }

    /// Committed charges, in commit order.
    pub fn ledger(&self) -> &PVec<LedgerEntry> {
        &self.server.db.ledger
    }

    /// Whether the charge operation `op` committed at `step` is a repeat: the operation had
    /// been charged before (every double charge after the first, not only the one that broke
    /// an invariant).
    pub fn is_repeat_charge(&self, step: usize, op: intern::OpId) -> bool {
        let mut of_op = self.ledger().iter().filter(|c| c.op == op);
        of_op.next().is_some_and(|first| first.step < step) && of_op.any(|c| c.step == step)
    }

    /// Idempotency records, in insertion order.
    pub fn store_rows(&self) -> &PVec<StoreRow> {
        &self.server.db.rows
    }

    /// Outbox rows.
    pub fn outbox(&self) -> &PVec<OutboxRow> {
        self.server.db.outbox()
    }

    /// The consumer's state.
    pub fn consumer(&self) -> &Consumer {
        &self.consumer
    }

    /// Store counters (hits, misses, conflicts, mismatches, expirations).
    pub fn counters(&self) -> Counters {
        self.server.counters
    }

    /// The settings beyond the server.
    pub fn downstream(&self) -> &Downstream {
        &self.config.downstream
    }

    /// The processor's saved answer for `key`, if the key was passed on.
    pub fn processor_answer_for(&self, key: KeyId) -> Option<&PaymentResult> {
        self.processor.answer_for(key)
    }

    /// Broken invariants, each once, in the order they broke.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// What each client operation saw.
    pub fn client_results(&self) -> &PVec<ClientResult> {
        &self.clients.results
    }

    /// Operation `op`'s attempts as HTTP exchanges, in the order sent (none for an unknown
    /// operation).
    pub fn exchanges(&self, op: intern::OpId) -> Vec<exchange::Exchange> {
        self.clients.exchanges(&self.interner, op)
    }

    /// The attempts whose request is on its way to the server now, as (operation, attempt,
    /// fault), in the order they will arrive: the attempts a fork can still change.
    pub fn attempts_in_network(&self) -> Vec<(u32, u32, Fault)> {
        self.clients.attempts_in_network(&self.ctx)
    }

    /// The text of a key id.
    pub fn key_text(&self, id: KeyId) -> Option<String> {
        self.interner.key_text(id)
    }

    /// The account a store key belongs to when the service scopes keys to the account (issue
    /// 13); 0 for a key looked up by itself.
    pub fn key_account(&self, id: KeyId) -> u32 {
        self.interner.key_account(id)
    }

    /// The production service's request policies (issue 13).
    pub fn requests(&self) -> RequestPolicies {
        self.config.requests
    }

    /// The caller of a client operation (the default one for an unknown operation).
    pub fn caller_of(&self, op: intern::OpId) -> Caller {
        self.clients.caller_of(op)
    }

    /// Whether any input so far came from a caller of its own (another account, a stamped body,
    /// no key), or the request policies are not the defaults: the page then shows the
    /// invariants about callers.
    pub fn uses_callers(&self) -> bool {
        self.clients.callers_seen || !self.config.requests.is_default()
    }

    /// The text of a description id.
    pub fn description_text(&self, id: DescId) -> Option<&str> {
        self.interner.description_text(id)
    }

    /// True when nothing is queued and no script input is left.
    pub fn is_idle(&self) -> bool {
        self.ctx.queue.is_empty() && self.script_pos >= self.script.len()
    }

    /// Micro-events waiting in the queue.
    pub fn pending_events(&self) -> usize {
        self.ctx.queue.len()
    }

    /// Why the world stopped early, and at which input, if it did.
    pub fn halted(&self) -> Option<&Halt> {
        self.halted.as_ref()
    }

    /// Input `n` in the order a run numbers them: the script's inputs first, then the pushes.
    pub fn input_at(&self, n: usize) -> Option<&Input> {
        match n.checked_sub(self.script.len()) {
            None => self.script.get(n),
            Some(p) => self.pushed.get(p).map(|l| &l.input),
        }
    }

    /// The most trace events the inputs so far can cause (checked against
    /// `MAX_TRACE_EVENTS` as each is added).
    pub fn event_bound(&self) -> u64 {
        self.budget.events()
    }

    /// The script (scenario inputs).
    pub fn script(&self) -> &[Input] {
        &self.script
    }

    /// The inputs pushed so far, with the step count at each push.
    pub fn input_log(&self) -> &PVec<LoggedInput> {
        &self.pushed
    }

    /// The observable state.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            now_ms: self.ctx.now,
            steps: self.ctx.steps,
            balance: self.server.db.balance(0),
            ledger: self.server.db.ledger.to_vec(),
            store_rows: self.server.db.rows.to_vec(),
            outbox: self.server.db.outbox().to_vec(),
            consumer: self.consumer.clone(),
            counters: self.server.counters,
            violations: self.violations.clone(),
            client_results: self.clients.results.to_vec(),
            trace: self.ctx.trace.to_vec(),
            pending_events: self.ctx.queue.len(),
        }
    }

    /// The world as it was right after step `step`, rebuilt by replaying the same config, script
    /// and pushes from the start (so it is exact). Pushes made after that step are dropped: what
    /// the learner does next branches from there. A `step` past the end gives the final state.
    pub fn rewind(&self, step: usize) -> Result<World, InputError> {
        replay(self.config, self.script.to_vec(), &self.pushed, step)
    }

    /// The same inputs (script and pushes) run to the end under other settings: what a
    /// learner who believes the world works as `config` says predicts.
    pub fn replay_as(&self, config: WorldConfig) -> Result<World, InputError> {
        replay(config, self.script.to_vec(), &self.pushed, usize::MAX)
    }
}

/// Builds the world at `step` from its settings, a script and logged pushes: rewinding is
/// replaying.
pub fn replay(
    config: WorldConfig,
    script: Vec<Input>,
    pushes: &PVec<LoggedInput>,
    step: usize,
) -> Result<World, InputError> {
    let mut w = World::with_script(config, script)?;
    let mut next = 0;
    loop {
        // A push logged at step s happened after step s, before step s + 1.
        while let Some(p) = pushes.get(next) {
            if p.at_step != w.steps_taken() || p.at_step >= step {
                break;
            }
            w.push_input(p.input.clone())?;
            next += 1;
        }
        if w.steps_taken() >= step || w.step().is_none() {
            break;
        }
    }
    Ok(w)
}

impl crate::sim::kernel::Model for World {
    type Checked = Vec<Violation>;

    fn step(&mut self) -> bool {
        World::step(self).is_some()
    }

    fn steps(&self) -> usize {
        self.steps_taken()
    }

    fn checked(&self) -> Vec<Violation> {
        self.violations().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::limits::MAX_ATTEMPTS;

    /// The halt is a safety net the budget keeps out of reach; this reaches it by giving a world
    /// a script the budget never saw.
    #[test]
    fn a_halt_stops_at_once_and_names_the_input() {
        let op = Input::Operation {
            amount: 1,
            description: String::new(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts: MAX_ATTEMPTS,
            faults: vec![Fault::RequestLost; MAX_ATTEMPTS as usize],
        };
        let mut w = World::new(WorldConfig::default()).expect("valid");
        w.script = std::rc::Rc::from(vec![op; 8_000]);
        w.run_until_idle();
        let halt = w.halted().cloned().expect("halted");
        assert_eq!(
            halt.reason,
            InputError::TraceFull {
                max: MAX_TRACE_EVENTS
            }
        );
        assert_eq!(halt.after_step, w.steps_taken());
        let input = halt.input.expect("an input was running");
        assert!(w.input_at(input).is_some());
        assert!(w.trace().len() >= MAX_TRACE_EVENTS);
        assert!(w.trace().len() < MAX_TRACE_EVENTS + 10);
        // Nothing after the halt runs, not even part of a step.
        let (steps, events) = (w.steps_taken(), w.trace().len());
        assert!(w.step().is_none());
        assert_eq!((w.steps_taken(), w.trace().len()), (steps, events));
        assert!(matches!(
            w.push_input(Input::Deposit { amount: 1 }),
            Err(InputError::TraceFull { .. })
        ));
    }
}
