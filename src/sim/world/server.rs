//! The payment server. A request is processed as a list of phases; each phase is one step, and
//! other requests' phases may run between two phases of one request. Where a service puts its
//! transaction boundaries decides what a crash or a concurrent duplicate can do:
//!
//! | service | phases |
//! | --- | --- |
//! | naive | charge+commit |
//! | idempotent, atomic | check+charge+record+commit (one transaction) |
//! | toctou | check · charge+commit · record+commit (three transactions) |
//! | split-store | check cache, charge+commit in the DB · write the key to the cache |
//! | production | check+in-flight record+commit · charge+complete record+commit (one transaction like atomic when `in_flight` is off) |
//!
//! A crash rolls back the open transaction and drops the reply; what an earlier phase committed
//! stays.

use super::account::{Caller, FingerprintFields, KeyScope, MissingKey, PayloadCheck};
use super::client::{Clients, Wire};
use super::ctx::Ctx;
use super::downstream::{evict_over_capacity, Call, OutagePolicy, ProcState, Processor};
use super::fault::Fault;
use super::intern::{DescId, Interner, KeyId, OpId};
use super::invariants::StepFacts;
use super::outbox::{publish_direct, ChargeEvent, EmitMode, OutboxRow};
use super::store::{Db, LedgerEntry, RecoveryPoint, StoreRow};
use super::trace::{ChargeFailure, CheckOutcome, CrashPoint, EventKind};
use super::{Micro, WorldConfig};
use crate::sim::article::production::{classify, fingerprint, Counters, Lookup, RecordState};
use crate::sim::article::PaymentResult;
use crate::sim::base::pvec::PVec;
use crate::sim::kernel::TimerKey;
use crate::sim::limits::InputError;

/// Simulated ms between two phases of one request.
pub const PHASE_MS: u64 = 1;

/// Which service the server runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ServiceKind {
    /// No idempotency: every request charges.
    Naive,
    /// The article's `IdempotentPaymentService`: check, charge, record in one step.
    Idempotent,
    /// The article's `TocTouVulnerableService`: three separate transactions.
    TocTou,
    /// The article's `AtomicIdempotentService`: one transaction.
    #[default]
    Atomic,
    /// Keys in a separate store (a cache) written after the balance commit.
    SplitStore,
    /// The production-grade service with policies.
    Production,
}

impl ServiceKind {
    /// Every service, in menu order.
    pub const ALL: [ServiceKind; 6] = [
        ServiceKind::Naive,
        ServiceKind::Idempotent,
        ServiceKind::TocTou,
        ServiceKind::Atomic,
        ServiceKind::SplitStore,
        ServiceKind::Production,
    ];

    /// True for the services that look keys up at all.
    pub fn honours_keys(self) -> bool {
        self != Self::Naive
    }

    /// True for the services that never double-charge a key, whatever the faults and
    /// interleavings (while keys are retained).
    pub fn is_safe(self) -> bool {
        matches!(self, Self::Idempotent | Self::Atomic | Self::Production)
    }

    /// The stable name used in JSON and URLs.
    pub fn id(self) -> &'static str {
        match self {
            Self::Naive => "naive",
            Self::Idempotent => "idempotent",
            Self::TocTou => "toctou",
            Self::Atomic => "atomic",
            Self::SplitStore => "split-store",
            Self::Production => "production",
        }
    }
}

/// One request being processed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Job {
    attempt: u32,
    pub(super) op: OpId,
    n: u32,
    pub(super) key: KeyId,
    /// The key as the operation's: (account, key), the ledger's and the invariants' key.
    pub(super) op_key: KeyId,
    pub(super) amount: i64,
    pub(super) desc: DescId,
    fingerprint: u64,
    pub(super) fault: Fault,
    phase: u8,
    result: Option<PaymentResult>,
    /// Event id of the charge this job committed (or the processor made).
    pub(super) committed: Option<u64>,
    /// Event id this job published directly (dual write).
    published: Option<u64>,
    /// The answer is a stored result returned again, not this request executed.
    replayed: bool,
    /// Where the job stands with the card processor (see `downstream.rs`).
    pub(super) proc: ProcState,
    /// The request carries no key (issue 13): `key` is the empty key that stands for none.
    keyless: bool,
    /// The account it charges: its caller's (`Caller::account`).
    account: u32,
    /// It replied or died: it will commit nothing more.
    pub(super) ended: bool,
}

/// The writes of the open transaction; applied only by `commit`.
#[derive(Debug, Default)]
struct Txn {
    charge: Option<u64>,
    row: Option<StoreRow>,
    release: bool,
    outbox: Option<u64>,
    /// The event id of a charge the processor already made (it has no debit to commit).
    external: Option<u64>,
}

impl Txn {
    fn is_empty(&self) -> bool {
        self.charge.is_none() && self.row.is_none() && !self.release && self.outbox.is_none()
    }
}

/// The server: its settings, its database, the requests it has taken (its jobs, each a worker
/// running the service's phases), the store counters its lookups and its reaper keep, and what
/// it notes in a step for the invariant checker. It acts on the parts it reaches, borrowed for
/// one micro-event ([`Reach`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Server {
    /// The world's settings, which the server runs by (service, policies, downstream, the
    /// network its replies cross).
    config: WorldConfig,
    /// The database (`store.rs`); the relay, the processor and deposits reach it through here.
    pub(super) db: Db,
    /// Every request taken, numbered as `Micro::Phase` and `Micro::ProcessorReply` name them.
    jobs: PVec<Job>,
    /// Store counters (hits, misses, conflicts, mismatches, expirations).
    pub(super) counters: Counters,
    /// What the step being taken did that its trace events do not say (cleared by `World::step`).
    pub(super) facts: StepFacts,
}

/// What the server reaches beyond its own state, borrowed for one micro-event: the context, the
/// clients' attempts (the wire its requests come in on and its replies go out on), the card
/// processor and the interner (keys scoped to accounts).
pub(super) struct Reach<'a> {
    pub ctx: &'a mut Ctx,
    pub clients: &'a mut Clients,
    pub processor: &'a mut Processor,
    pub interner: &'a mut Interner,
}

impl Server {
    /// A server with no requests yet, running by `config`, its every account holding the
    /// initial balance.
    pub(super) fn new(config: &WorldConfig) -> Server {
        Server {
            config: *config,
            db: Db::new(config.initial_balance),
            jobs: PVec::new(),
            counters: Counters::default(),
            facts: StepFacts::default(),
        }
    }

    /// Runs one of the server's micro-events: a request arrives, a job's next phase, or the
    /// processor's answer to a job (any other is not the server's). An error stops the run (too
    /// many scoped keys).
    pub(super) fn handle(
        &mut self,
        reach: &mut Reach<'_>,
        micro: &Micro,
    ) -> Result<(), InputError> {
        debug_assert!(
            matches!(
                micro,
                Micro::Arrive { .. } | Micro::Phase { .. } | Micro::ProcessorReply { .. }
            ),
            "only the server's micro-events reach the server"
        );
        match *micro {
            Micro::Arrive { attempt } => return self.receive(reach, attempt),
            Micro::Phase { job } => self.run_phase(reach, job),
            Micro::ProcessorReply { job } => self.processor_answer(reach, job as usize),
            _ => {}
        }
        Ok(())
    }

    /// A request reaches the server: phase 0 runs in the same step. An error stops the run
    /// (too many scoped keys).
    fn receive(&mut self, reach: &mut Reach<'_>, attempt: u32) -> Result<(), InputError> {
        let Some((op, n, key, fault)) = self.request_arrives(reach, attempt) else {
            return Ok(());
        };
        let Some(new) = self.new_job(reach, attempt)? else {
            return Ok(());
        };
        reach.ctx.emit(EventKind::RequestDelivered {
            op,
            attempt: n,
            key,
        });
        let Ok(job) = u32::try_from(self.jobs.len()) else {
            return Ok(());
        };
        self.jobs.push(new);
        if !self.store_unreachable_answers(reach, job, op, fault) {
            self.run_phase(reach, job);
        }
        Ok(())
    }

    /// Marks the attempt at the server, or lost on the way (noting it): its (operation,
    /// attempt number, key as sent, fault) when it arrived.
    fn request_arrives(
        &self,
        reach: &mut Reach<'_>,
        attempt: u32,
    ) -> Option<(OpId, u32, KeyId, Fault)> {
        let rec = reach.clients.attempts.get(attempt as usize)?;
        let (op, n, key, fault) = (rec.op, rec.n, rec.key, rec.fault);
        let lost = fault == Fault::RequestLost;
        if let Some(rec) = reach.clients.attempts.get_mut(attempt as usize) {
            rec.wire = if lost {
                Wire::RequestLost
            } else {
                Wire::AtServer
            };
        }
        if lost {
            reach.ctx.emit(EventKind::RequestLost { op, attempt: n });
            return None;
        }
        Some((op, n, key, fault))
    }

    /// The job for an arrived attempt, at phase 0; `None` when the attempt is unknown, an error
    /// when the run must halt (too many scoped keys).
    fn new_job(&self, reach: &mut Reach<'_>, attempt: u32) -> Result<Option<Job>, InputError> {
        let Some(rec) = reach.clients.attempts.get(attempt as usize) else {
            return Ok(None);
        };
        let (op, n, key, fault, sent_at) = (rec.op, rec.n, rec.key, rec.fault, rec.sent_at);
        let Some(client) = reach.clients.results.get(op.0 as usize) else {
            return Ok(None);
        };
        let (amount, desc) = (client.amount, client.description);
        let (chosen, caller) = reach
            .clients
            .plans
            .get(op.0 as usize)
            .map_or((0, Default::default()), |p| (p.fingerprint, p.caller));
        let fingerprint = self.request_fingerprint(reach, chosen, caller, desc, sent_at);
        let (op_key, store_key) = self.request_keys(reach, caller, key)?;
        Ok(Some(Job {
            attempt,
            op,
            n,
            key: store_key,
            op_key,
            amount,
            desc,
            fingerprint,
            fault,
            phase: 0,
            result: None,
            committed: None,
            published: None,
            replayed: false,
            proc: ProcState::Idle,
            keyless: !caller.sends_key,
            account: caller.account,
            ended: false,
        }))
    }

    /// The fingerprint the service computes: the production service's by the fields it
    /// covers, else the one the operation chose.
    fn request_fingerprint(
        &self,
        reach: &Reach<'_>,
        chosen: u64,
        caller: Caller,
        desc: DescId,
        sent_at: u64,
    ) -> u64 {
        let policies = self.config.requests;
        if self.config.service == ServiceKind::Production
            && policies.fingerprint != FingerprintFields::Chosen
        {
            let description = fingerprint(0, reach.interner.description_text(desc).unwrap_or(""));
            let stamp = caller.stamps_body.then_some(sent_at);
            policies.fingerprint.of(chosen, description, stamp)
        } else {
            chosen
        }
    }

    /// The request's (operation key, store key). The operation's: two customers' `order-1`
    /// are two operations, in the ledger and for the invariants, under every service. The
    /// store's: the operation's when keys are scoped to the account, else the key as sent.
    fn request_keys(
        &self,
        reach: &mut Reach<'_>,
        caller: Caller,
        key: KeyId,
    ) -> Result<(KeyId, KeyId), InputError> {
        let op_key = if caller.sends_key {
            reach.interner.scoped(caller.account, key)?
        } else {
            key
        };
        let store_key = if self.config.service == ServiceKind::Production
            && self.config.requests.scope == KeyScope::Account
        {
            op_key
        } else {
            key
        };
        Ok((op_key, store_key))
    }

    /// A store fault before phase 0: keys kept beside the balance, nothing can run; a separate
    /// store, the outage policy decides. True when the job was answered (it must not run).
    fn store_unreachable_answers(
        &mut self,
        reach: &mut Reach<'_>,
        job: u32,
        op: OpId,
        fault: Fault,
    ) -> bool {
        let service = self.config.service;
        if fault != Fault::StoreUnreachable || !service.honours_keys() {
            return false;
        }
        let open = service == ServiceKind::SplitStore
            && self.config.downstream.outage == OutagePolicy::FailOpen;
        reach.ctx.emit(EventKind::StoreUnreachable {
            op,
            fail_open: open,
        });
        if !open {
            self.reply(reach, job as usize, PaymentResult::StoreUnavailable);
        }
        !open
    }

    /// Runs the job's current phase.
    fn run_phase(&mut self, reach: &mut Reach<'_>, job: u32) {
        let j = job as usize;
        let Some(phase) = self.jobs.get(j).map(|x| x.phase) else {
            return;
        };
        // Only the phased services have a phase past 0 to run (TOCTOU: check, charge, store;
        // separate store: charge, write; production: begin, complete).
        debug_assert!(
            phase <= 2,
            "job {job} at phase {phase}: no service has more than three"
        );
        let production_in_flight =
            self.config.service == ServiceKind::Production && self.config.policies.in_flight;
        if self.jobs.get(j).is_some_and(|x| x.keyless) && self.config.service.honours_keys() {
            // No key to look up: a production service that requires one answers 400; otherwise
            // the request runs without protection, as on the naive service.
            let rejects = self.config.service == ServiceKind::Production
                && self.config.requests.missing_key == MissingKey::Reject400;
            if rejects {
                return self.answer(reach, j, PaymentResult::invalid(InputError::MissingKey));
            }
            return self.naive(reach, j);
        }
        match (self.config.service, phase) {
            (ServiceKind::Naive, _) => self.naive(reach, j),
            (ServiceKind::Idempotent | ServiceKind::Atomic, _) => self.one_transaction(reach, j),
            (ServiceKind::Production, _) if !production_in_flight => self.one_transaction(reach, j),
            (ServiceKind::Production, 0) => self.production_begin(reach, j),
            (ServiceKind::Production, _) => self.production_complete(reach, j),
            (ServiceKind::TocTou, 0) => self.toctou_check(reach, j),
            (ServiceKind::TocTou, 1) => self.toctou_charge(reach, j),
            (ServiceKind::TocTou, _) => self.toctou_store(reach, j),
            (ServiceKind::SplitStore, 0) => self.split_charge(reach, j),
            (ServiceKind::SplitStore, _) => self.split_cache_write(reach, j),
        }
    }

    fn next_phase(&mut self, reach: &mut Reach<'_>, j: usize) {
        if let Some(job) = self.jobs.get_mut(j) {
            job.phase = job.phase.saturating_add(1);
            let at = reach.ctx.now.saturating_add(PHASE_MS);
            reach.ctx.schedule(at, Micro::Phase { job: j as u32 });
        }
    }

    fn crashes_at(&self, j: usize, point: CrashPoint) -> bool {
        // A job the processor has answered is past the charge: it cannot crash before it again.
        if point == CrashPoint::BeforeCharge && self.returned(j) {
            return false;
        }
        self.jobs
            .get(j)
            .is_some_and(|x| x.fault.crash_point() == Some(point))
    }

    /// Whether the processor has answered job `j` (so it goes on past the charge).
    fn returned(&self, j: usize) -> bool {
        self.jobs
            .get(j)
            .is_some_and(|x| matches!(x.proc, ProcState::Returned(_)))
    }

    /// Whether job `j` still holds its key's in-flight record.
    fn holds_key(&self, j: usize) -> bool {
        self.jobs.get(j).is_some_and(|job| {
            self.db
                .row(job.key)
                .is_some_and(|r| r.state == RecordState::InFlight && r.owner_job == Some(j as u32))
        })
    }

    /// The processor answered job `j`: commit the recovery point (rocket-rides' atomic phases),
    /// then go on where the job stopped.
    fn after_processor(&mut self, reach: &mut Reach<'_>, j: usize) {
        let phases = self.config.service == ServiceKind::Production
            && self.config.policies.in_flight
            && self.config.downstream.recovery_points;
        if phases && self.holds_key(j) {
            if let Some(job) = self.jobs.get(j) {
                let (op, key) = (job.op, job.key);
                let saved = match &job.proc {
                    ProcState::Returned(r) => Some(RecoveryPoint {
                        result: r.clone(),
                        charge: job.committed,
                    }),
                    _ => None,
                };
                if let Some(mut row) = self.db.row(key).cloned() {
                    row.recovery = saved;
                    self.db.upsert(row);
                    reach.ctx.emit(EventKind::RecoveryPoint { op, key });
                }
            }
        }
        self.run_phase(reach, j as u32);
    }

    // ---- the services -------------------------------------------------------------------

    fn naive(&mut self, reach: &mut Reach<'_>, j: usize) {
        if self.crashed_at(reach, j, CrashPoint::BeforeCharge, false) {
            return;
        }
        let mut txn = Txn::default();
        let Some(result) = self.charge(reach, j, &mut txn) else {
            return;
        };
        self.write_outbox(reach, j, &mut txn);
        // Naive has no record: the charge commits on its own.
        self.commit(reach, j, txn);
        if self.crashed_at(reach, j, CrashPoint::AfterChargeBeforeRecord, false) {
            return;
        }
        self.after_commit(reach, j, result);
    }

    fn one_transaction(&mut self, reach: &mut Reach<'_>, j: usize) {
        if self.answered_by_lookup(reach, j) {
            return;
        }
        if self.crashed_at(reach, j, CrashPoint::BeforeCharge, false) {
            return;
        }
        let mut txn = Txn::default();
        let Some(result) = self.charge(reach, j, &mut txn) else {
            return;
        };
        if self.crashed_at(
            reach,
            j,
            CrashPoint::AfterChargeBeforeRecord,
            !txn.is_empty(),
        ) {
            return;
        }
        self.record(reach, j, &result, &mut txn);
        self.write_outbox(reach, j, &mut txn);
        self.commit(reach, j, txn);
        self.after_commit(reach, j, result);
    }

    fn toctou_check(&mut self, reach: &mut Reach<'_>, j: usize) {
        if !self.answered_by_lookup(reach, j) {
            self.next_phase(reach, j);
        }
    }

    fn toctou_charge(&mut self, reach: &mut Reach<'_>, j: usize) {
        self.charge_in_own_transaction(reach, j);
    }

    /// The charge (and its outbox row) committed on its own, before any key is recorded: the
    /// shape shared by the TOCTOU service and the keys-in-a-cache service.
    fn charge_in_own_transaction(&mut self, reach: &mut Reach<'_>, j: usize) {
        if self.crashed_at(reach, j, CrashPoint::BeforeCharge, false) {
            return;
        }
        let mut txn = Txn::default();
        let Some(result) = self.charge(reach, j, &mut txn) else {
            return;
        };
        self.write_outbox(reach, j, &mut txn);
        self.commit(reach, j, txn);
        if let Some(job) = self.jobs.get_mut(j) {
            job.result = Some(result);
        }
        self.next_phase(reach, j);
    }

    fn toctou_store(&mut self, reach: &mut Reach<'_>, j: usize) {
        if self.crashed_at(reach, j, CrashPoint::AfterChargeBeforeRecord, false) {
            return;
        }
        let result = self.job_result(j);
        let mut txn = Txn::default();
        self.record(reach, j, &result, &mut txn);
        self.commit(reach, j, txn);
        self.after_commit(reach, j, result);
    }

    fn split_charge(&mut self, reach: &mut Reach<'_>, j: usize) {
        // Failing open, an unreachable store is not asked.
        if !self.store_down(j) && self.answered_by_lookup(reach, j) {
            return;
        }
        self.charge_in_own_transaction(reach, j);
    }

    /// Whether job `j`'s attempt finds the key store unreachable.
    fn store_down(&self, j: usize) -> bool {
        self.jobs
            .get(j)
            .is_some_and(|x| x.fault == Fault::StoreUnreachable)
    }

    fn split_cache_write(&mut self, reach: &mut Reach<'_>, j: usize) {
        if self.crashed_at(reach, j, CrashPoint::AfterChargeBeforeRecord, false) {
            return;
        }
        let result = self.job_result(j);
        if self.store_down(j) {
            // Still unreachable: the key is never written, so a retry finds nothing.
            if let Some(op) = self.jobs.get(j).map(|x| x.op) {
                reach.ctx.emit(EventKind::StoreUnreachable {
                    op,
                    fail_open: true,
                });
            }
            return self.after_commit(reach, j, result);
        }
        // The cache is not transactional: the write lands at once, with no commit.
        let mut txn = Txn::default();
        self.record(reach, j, &result, &mut txn);
        if let Some(row) = txn.row.take() {
            self.db.upsert(row);
            evict_over_capacity(
                reach.ctx,
                &mut self.db,
                self.config.downstream.store_capacity,
            );
        }
        self.after_commit(reach, j, result);
    }

    fn production_begin(&mut self, reach: &mut Reach<'_>, j: usize) {
        if self.answered_by_lookup(reach, j) {
            return;
        }
        let Some(job) = self.jobs.get(j) else {
            return;
        };
        let (op, key, fp) = (job.op, job.key, job.fingerprint);
        // Taking an expired lock over keeps the recovery point the last holder committed.
        let recovery = self
            .db
            .row(key)
            .filter(|_| self.config.downstream.recovery_points)
            .and_then(|r| r.recovery.clone());
        let row = StoreRow {
            recovery,
            key,
            fingerprint: Some(fp),
            state: RecordState::InFlight,
            result: None,
            created_at_ms: Some(reach.ctx.now),
            expires_at_ms: Some(
                reach
                    .ctx
                    .now
                    .saturating_add(self.config.policies.in_flight_timeout_ms),
            ),
            holder: Some(op),
            owner_job: Some(j as u32),
        };
        reach.ctx.emit(EventKind::StoreWrite {
            op,
            key,
            state: RecordState::InFlight,
        });
        let txn = Txn {
            row: Some(row),
            ..Txn::default()
        };
        self.commit(reach, j, txn);
        self.next_phase(reach, j);
    }

    fn production_complete(&mut self, reach: &mut Reach<'_>, j: usize) {
        if !self.returned(j) {
            if self.crashed_at(reach, j, CrashPoint::BeforeCharge, false) {
                // The in-flight record stays until its timeout: retries get 409 meanwhile.
                return;
            }
            if !self.holds_key(j) {
                // Our lock expired and another request took the key over: do not charge twice.
                return self.answer(reach, j, PaymentResult::InFlightConflict);
            }
            self.resume_from_recovery_point(reach, j);
        }
        let mut txn = Txn::default();
        let Some(result) = self.charge(reach, j, &mut txn) else {
            return;
        };
        if self.crashed_at(
            reach,
            j,
            CrashPoint::AfterChargeBeforeRecord,
            !txn.is_empty(),
        ) {
            return;
        }
        // A slow holder whose lock was taken over leaves the new holder's record alone.
        if self.holds_key(j) {
            self.record(reach, j, &result, &mut txn);
        }
        self.write_outbox(reach, j, &mut txn);
        self.commit(reach, j, txn);
        self.after_commit(reach, j, result);
    }

    /// rocket-rides' recovery point: a key taken over after the processor answered goes on
    /// from that answer instead of calling the processor again.
    fn resume_from_recovery_point(&mut self, reach: &mut Reach<'_>, j: usize) {
        if !self.config.downstream.recovery_points {
            return;
        }
        let Some((op, key)) = self.jobs.get(j).map(|x| (x.op, x.key)) else {
            return;
        };
        let Some(saved) = self.db.row(key).and_then(|r| r.recovery.clone()) else {
            return;
        };
        if let Some(job) = self.jobs.get_mut(j) {
            job.proc = ProcState::Returned(saved.result);
            // The charge is the dead worker's: this request commits its event, not a new charge.
            job.committed = saved.charge;
        }
        reach.ctx.emit(EventKind::Resumed { op, key });
    }

    // ---- building blocks ----------------------------------------------------------------

    /// Looks the key up; answers and ends the job unless the request must execute.
    fn answered_by_lookup(&mut self, reach: &mut Reach<'_>, j: usize) -> bool {
        let Some(job) = self.jobs.get(j) else {
            return true;
        };
        if matches!(job.proc, ProcState::Returned(_)) {
            // Back from the processor: the key was looked up before the call.
            return false;
        }
        let (op, key, fp) = (job.op, job.key, job.fingerprint);
        let request = (job.amount, job.desc);
        let (lookup, reaped, cached, producer) = self.look_up(reach, key, fp);
        if let Some(producer) = producer {
            self.note_replay_facts(reach, key, op, producer, request);
        }
        // A record the reaper already expired was counted then; count this as a plain miss.
        self.counters
            .count(if reaped { Lookup::Miss } else { lookup });
        let outcome = match lookup {
            Lookup::Miss => CheckOutcome::Miss,
            Lookup::Expired
                if self
                    .db
                    .row(key)
                    .is_some_and(|r| r.state == RecordState::InFlight) =>
            {
                CheckOutcome::LockExpired
            }
            Lookup::Expired => CheckOutcome::Expired,
            Lookup::Hit => CheckOutcome::Hit,
            Lookup::InFlight => CheckOutcome::Conflict,
            Lookup::Mismatch if self.db.row(key).and_then(|r| r.holder) == Some(op) => {
                CheckOutcome::RetryMismatch
            }
            Lookup::Mismatch => CheckOutcome::Mismatch,
        };
        reach.ctx.emit(EventKind::StoreCheck { op, key, outcome });
        let Some(answer) = self.lookup_answer(j, lookup, cached) else {
            return false;
        };
        self.answer(reach, j, answer);
        true
    }

    /// The store's verdict on `key` for a request with fingerprint `fp`: (lookup, the record
    /// was already reaped, the stored result on a hit, the operation that stored it).
    fn look_up(
        &self,
        reach: &Reach<'_>,
        key: KeyId,
        fp: u64,
    ) -> (Lookup, bool, Option<PaymentResult>, Option<OpId>) {
        let row = self.db.row(key);
        let production = self.config.service == ServiceKind::Production;
        // With an in-flight record the lookup is the conditional write that claims the key; a
        // service that checks the parameters only on the read path skips them here.
        let unchecked = production
            && self.config.policies.in_flight
            && self.config.requests.payload_check == PayloadCheck::ReadPathOnly;
        let (lookup, reaped) = if production {
            let lookup = classify(
                row.map(|r| {
                    let fp = r.fingerprint.filter(|_| !unchecked);
                    (r.state, fp, r.expires_at_ms)
                }),
                fp,
                reach.ctx.now,
            );
            (lookup, row.is_some_and(|r| r.state == RecordState::Expired))
        } else {
            // The article's services keep keys forever and do not fingerprint.
            (
                if row.is_some() {
                    Lookup::Hit
                } else {
                    Lookup::Miss
                },
                false,
            )
        };
        let cached = match lookup {
            Lookup::Hit => row.and_then(|r| r.result.clone()),
            _ => None,
        };
        let producer = row.and_then(|r| r.holder).filter(|_| cached.is_some());
        (lookup, reaped, cached, producer)
    }

    /// What the invariants about callers need of a replay to `op` of what `producer` stored:
    /// whose answer it is, and whether it was another request's (an amount or a description
    /// other than the one this request carries, under the same key).
    fn note_replay_facts(
        &mut self,
        reach: &mut Reach<'_>,
        key: KeyId,
        op: OpId,
        producer: OpId,
        request: (i64, DescId),
    ) {
        if reach.clients.caller_of(producer).account != reach.clients.caller_of(op).account {
            self.facts.foreign_answers.push((key, op, producer));
        }
        let stored = reach
            .clients
            .results
            .get(producer.0 as usize)
            .map(|c| (c.amount, c.description));
        if stored.is_some_and(|s| s != request) {
            self.facts.other_request_replays.push((key, op, producer));
        }
    }

    /// The answer a lookup gives without executing; `None` when the request must execute.
    fn lookup_answer(
        &mut self,
        j: usize,
        lookup: Lookup,
        cached: Option<PaymentResult>,
    ) -> Option<PaymentResult> {
        Some(match lookup {
            Lookup::Miss | Lookup::Expired => return None,
            Lookup::Hit => match cached {
                Some(first) => {
                    // The one place a stored result is returned: the reply says it was replayed,
                    // as Stripe marks a response it returns for a key it has seen with
                    // `Idempotent-Replayed: true` (https://docs.stripe.com/error-low-level#sending-idempotency-keys;
                    // exposed by Stripe's own client, https://github.com/stripe/stripe-ruby/issues/905).
                    if let Some(job) = self.jobs.get_mut(j) {
                        job.replayed = true;
                    }
                    PaymentResult::DuplicateRequest {
                        original_result: Box::new(first),
                    }
                }
                // Only completed records are hits, and they hold a result; 409 is the safe
                // answer if that ever failed to hold.
                None => PaymentResult::InFlightConflict,
            },
            Lookup::InFlight => PaymentResult::InFlightConflict,
            Lookup::Mismatch => PaymentResult::ParameterMismatch {
                status: self.config.policies.mismatch.status(),
            },
        })
    }

    /// Answers without executing; a crash fault still crashes before the reply.
    fn answer(&mut self, reach: &mut Reach<'_>, j: usize, result: PaymentResult) {
        match self.jobs.get(j).and_then(|x| x.fault.crash_point()) {
            // The try was to crash; an answer without a charge ends before the point its fault
            // names, so the worker dies before this answer leaves (and is said to).
            Some(_) => self.crash(reach, j, CrashPoint::BeforeReply, false),
            None => self.reply(reach, j, result),
        }
    }

    /// Decides the charge and stages the debit; publishes first in publish-then-commit mode.
    /// With a card processor of its own latency, the first call sends the charge there and
    /// returns `None` (the job waits for the answer); the call after the answer returns it.
    fn charge(&mut self, reach: &mut Reach<'_>, j: usize, txn: &mut Txn) -> Option<PaymentResult> {
        let Some(job) = self.jobs.get(j) else {
            return Some(PaymentResult::ProcessorError);
        };
        let (op, amount, fault) = (job.op, job.amount, job.fault);
        if let ProcState::Returned(result) = &job.proc {
            let (result, made) = (result.clone(), job.committed);
            txn.external = made;
            if let (EmitMode::DualWritePublishThenCommit, Some(id)) = (self.config.emit, made) {
                publish_direct(reach.ctx, op, id);
                if let Some(job) = self.jobs.get_mut(j) {
                    job.published = Some(id);
                }
            }
            return Some(result);
        }
        if fault == Fault::SerializationFailure {
            // rocket-rides-atomic (api.rb, `atomic_phase`): `rescue Sequel::SerializationFailure`
            // → `halt 409`, `Messages.error_retry` "Please retry with the same ..." (429 until
            // its 2017 commit e19902b, “Correct improper 429 to use "409 Conflict"”).
            reach.ctx.emit(EventKind::SerializationAbort { op });
            return Some(PaymentResult::RetryWithSameKey);
        }
        if self.config.downstream.has_processor() {
            self.call_processor(reach, j);
            return None;
        }
        Some(self.debit(reach, j, txn, op, amount, fault))
    }

    /// The article's charge: the database's debit, staged in the open transaction.
    fn debit(
        &mut self,
        reach: &mut Reach<'_>,
        j: usize,
        txn: &mut Txn,
        op: OpId,
        amount: i64,
        fault: Fault,
    ) -> PaymentResult {
        if fault == Fault::ProcessorError {
            reach.ctx.emit(EventKind::ChargeFailed {
                op,
                failure: ChargeFailure::ProcessorError,
            });
            return PaymentResult::ProcessorError;
        }
        // The customer's own account: one customer's charge never moves another's balance.
        let account = self.jobs.get(j).map_or(0, |x| x.account);
        let balance = self.db.balance(account);
        let Some(after) = balance.checked_sub(amount).filter(|_| balance >= amount) else {
            reach.ctx.emit(EventKind::ChargeFailed {
                op,
                failure: ChargeFailure::InsufficientFunds { balance },
            });
            return PaymentResult::InsufficientFunds { balance };
        };
        let id = self.db.event_id();
        txn.charge = Some(id);
        reach.ctx.emit(EventKind::Charge {
            op,
            amount,
            balance_after: after,
        });
        if self.config.emit == EmitMode::DualWritePublishThenCommit {
            publish_direct(reach.ctx, op, id);
            if let Some(job) = self.jobs.get_mut(j) {
                job.published = Some(id);
            }
        }
        PaymentResult::Success { balance: after }
    }

    /// Stages the idempotency record for `result` (or its release, by policy).
    fn record(&mut self, reach: &mut Reach<'_>, j: usize, result: &PaymentResult, txn: &mut Txn) {
        let Some(job) = self.jobs.get(j) else {
            return;
        };
        let (op, key, fp) = (job.op, job.key, job.fingerprint);
        let production = self.config.service == ServiceKind::Production;
        if matches!(result, PaymentResult::RetryWithSameKey) {
            // Nothing committed: rocket-rides unlocks the key so a retry runs at once.
            if self.db.row(key).is_some() {
                txn.release = true;
                reach.ctx.emit(EventKind::StoreRelease { op, key });
            }
            return;
        }
        if production && !self.config.policies.failure_caching.should_store(result) {
            // Not cached: free the key so a retry executes again.
            if self.db.row(key).is_some() {
                txn.release = true;
                reach.ctx.emit(EventKind::StoreRelease { op, key });
            }
            return;
        }
        txn.row = Some(StoreRow {
            key,
            fingerprint: production.then_some(fp),
            state: RecordState::Completed,
            result: Some(result.clone()),
            created_at_ms: Some(reach.ctx.now),
            expires_at_ms: production.then(|| {
                reach
                    .ctx
                    .now
                    .saturating_add(self.config.policies.retention_ms)
            }),
            holder: Some(op),
            owner_job: None,
            recovery: None,
        });
        reach.ctx.emit(EventKind::StoreWrite {
            op,
            key,
            state: RecordState::Completed,
        });
    }

    fn write_outbox(&mut self, reach: &mut Reach<'_>, j: usize, txn: &mut Txn) {
        if self.config.emit != EmitMode::Outbox {
            return;
        }
        if let (Some(id), Some(job)) = (txn.charge.or(txn.external), self.jobs.get(j)) {
            txn.outbox = Some(id);
            let op = job.op;
            reach.ctx.emit(EventKind::OutboxWrite { op, id });
        }
    }

    /// Applies the transaction's writes at once.
    fn commit(&mut self, reach: &mut Reach<'_>, j: usize, txn: Txn) {
        let Some(job) = self.jobs.get(j) else {
            return;
        };
        if txn.is_empty() {
            return;
        }
        // The ledger and the event carry the operation's key; the store's row is the store's.
        let (op, op_key, store_key, amount, desc) =
            (job.op, job.op_key, job.key, job.amount, job.desc);
        let (keyless, account) = (job.keyless, job.account);
        if let Some(id) = txn.charge {
            // The balance was checked against the amount in `charge`, in this same step.
            let after = self.db.balance(account).saturating_sub(amount);
            self.db.set_balance(account, after);
            self.db.ledger.push(LedgerEntry {
                account,
                step: reach.ctx.steps.saturating_add(1),
                key: (!keyless).then_some(op_key),
                op,
                amount,
                description: desc,
                event_id: id,
            });
            if let Some(job) = self.jobs.get_mut(j) {
                job.committed = Some(id);
            }
        }
        if let Some(id) = txn.outbox {
            self.db.push_outbox(OutboxRow {
                id,
                payload: ChargeEvent {
                    op,
                    key: (!keyless).then_some(op_key),
                    amount,
                },
                published: false,
                deliveries: 0,
            });
        }
        if txn.release {
            self.db.remove(store_key);
        }
        if let Some(row) = txn.row {
            self.db.upsert(row);
        }
        reach.ctx.emit(EventKind::Commit { op });
    }

    /// After the last commit: crash, or publish (commit-then-publish) and reply.
    fn after_commit(&mut self, reach: &mut Reach<'_>, j: usize, result: PaymentResult) {
        if self.crashed_at(reach, j, CrashPoint::AfterCommitBeforeReply, false) {
            return;
        }
        if self.config.emit == EmitMode::DualWriteCommitThenPublish {
            if let Some((op, Some(id))) = self.jobs.get(j).map(|x| (x.op, x.committed)) {
                publish_direct(reach.ctx, op, id);
                if let Some(job) = self.jobs.get_mut(j) {
                    job.published = Some(id);
                }
            }
        }
        self.reply(reach, j, result);
    }

    fn job_result(&self, j: usize) -> PaymentResult {
        self.jobs
            .get(j)
            .and_then(|x| x.result.clone())
            .unwrap_or(PaymentResult::ProcessorError)
    }

    /// Whether job `j`'s fault crashes it at `point`; if so, the worker dies there (`crash`).
    fn crashed_at(
        &mut self,
        reach: &mut Reach<'_>,
        j: usize,
        point: CrashPoint,
        open_writes: bool,
    ) -> bool {
        if !self.crashes_at(j, point) {
            return false;
        }
        self.crash(reach, j, point, open_writes);
        true
    }

    /// The worker dies: the open transaction rolls back (`open_writes`: it had writes) and no
    /// reply leaves.
    fn crash(&mut self, reach: &mut Reach<'_>, j: usize, point: CrashPoint, open_writes: bool) {
        let Some(op) = self.jobs.get(j).map(|x| x.op) else {
            return;
        };
        let attempt = self.jobs.get(j).map(|x| x.attempt as usize);
        if let Some(rec) = attempt.and_then(|a| reach.clients.attempts.get_mut(a)) {
            rec.wire = Wire::Crashed;
        }
        reach.ctx.emit(EventKind::ServerCrash { op, point });
        if open_writes {
            reach.ctx.emit(EventKind::Rollback { op });
        }
        self.end_job(j);
    }

    fn reply(&mut self, reach: &mut Reach<'_>, j: usize, result: PaymentResult) {
        let Some(job) = self.jobs.get(j) else {
            return;
        };
        let (attempt, op, n, key) = (job.attempt, job.op, job.n, job.key);
        let replayed = job.replayed;
        reach.ctx.emit(EventKind::ResponseSent {
            op,
            attempt: n,
            key,
            result: result.clone(),
            replayed,
        });
        if let Some(rec) = reach.clients.attempts.get_mut(attempt as usize) {
            rec.answer = Some(result.clone());
            rec.response = Some(result);
            rec.replayed = replayed;
            rec.wire = Wire::Replied;
        }
        let delay = self.config.network().delay(&mut reach.ctx.rng);
        reach.ctx.schedule(
            reach.ctx.now.saturating_add(delay),
            Micro::Reply { attempt },
        );
        self.end_job(j);
    }

    /// Marks the job ended and notes, for the invariant checker, a dual-write job that committed
    /// without publishing (lost event) or published without committing (phantom event).
    fn end_job(&mut self, j: usize) {
        if let Some(job) = self.jobs.get_mut(j) {
            job.ended = true;
        }
        if !self.config.emit.is_dual_write() {
            return;
        }
        if let Some(job) = self.jobs.get(j) {
            match (job.committed, job.published) {
                (Some(id), None) => self.facts.lost_events.push(id),
                (None, Some(id)) => self.facts.phantom_events.push(id),
                _ => {}
            }
        }
    }

    /// The server process dies and restarts (a fork's `Input::Crash`): every job waiting for
    /// its next phase or for the processor's answer dies where it stands, as the crash fault of
    /// that point would (a job that has passed its charge phase dies after the charge, before
    /// the record; any other before the charge). Jobs run a phase per step, so no transaction
    /// is open between two steps.
    pub(super) fn restart(&mut self, reach: &mut Reach<'_>) {
        let waiting: Vec<(TimerKey, u32)> = reach
            .ctx
            .queue
            .iter()
            .filter_map(|(at, m)| match m {
                // A worker waiting for its next phase, or for the card processor's answer (the
                // answer then reaches nobody; the processor's charge stays).
                Micro::Phase { job } | Micro::ProcessorReply { job } => Some((at, *job)),
                _ => None,
            })
            .collect();
        reach.ctx.emit(EventKind::ServerRestarted {
            killed: u32::try_from(waiting.len()).unwrap_or(u32::MAX),
        });
        for (at, job) in waiting {
            reach.ctx.cancel(at);
            let j = job as usize;
            let charged = self
                .jobs
                .get(j)
                .is_some_and(|x| x.committed.is_some() || x.result.is_some());
            let point = if charged {
                CrashPoint::AfterChargeBeforeRecord
            } else {
                CrashPoint::BeforeCharge
            };
            self.crash(reach, j, point, false);
        }
    }

    /// Marks records past their expiry as expired (the reaper), production only.
    pub(super) fn reap(&mut self, ctx: &mut Ctx) {
        if self.config.service != ServiceKind::Production {
            return;
        }
        let mut expired = Vec::new();
        self.db.reap(ctx.now, &mut expired);
        for key in expired {
            self.counters.expirations = self.counters.expirations.saturating_add(1);
            ctx.emit(EventKind::KeyExpired { key });
        }
    }

    /// Whether job `job` exists (a micro-event names it).
    pub(super) fn has_job(&self, job: u32) -> bool {
        (job as usize) < self.jobs.len()
    }

    /// The processor's charges whose outbox row is still owed, not lost. The processor charges
    /// outside the server's transaction, so the row can only follow its answer: a charge is on
    /// its way to a row while the request that asked for it still runs, or while a recovery
    /// point under a key not yet completed holds it (the request that resumes writes the row).
    /// A charge whose request ended without a row and that no recovery point holds is lost, and
    /// "one event per charge" says so.
    pub(super) fn events_owed(&self) -> usize {
        if !self.config.downstream.has_processor() || self.config.emit != EmitMode::Outbox {
            return 0;
        }
        let running = self
            .jobs
            .iter()
            .filter(|job| !job.ended && job.proc != ProcState::Idle)
            .filter_map(|job| job.committed);
        let saved = self
            .db
            .rows
            .iter()
            .filter(|row| row.state != RecordState::Completed)
            .filter_map(|row| row.recovery.as_ref()?.charge);
        // A handful of ids (the requests running at once): no sort is worth its code here.
        let mut owed: Vec<u64> = Vec::new();
        for id in running.chain(saved) {
            if !self.db.has_outbox_row(id) && !owed.contains(&id) {
                owed.push(id);
            }
        }
        owed.len()
    }

    /// Job `j` calls the processor: the money moves (or a passed key replays, or the processor
    /// fails), and the answer is scheduled back.
    fn call_processor(&mut self, reach: &mut Reach<'_>, j: usize) {
        let Some(job) = self.jobs.get(j) else {
            return;
        };
        let call = Call {
            op: job.op,
            key: job.key,
            op_key: job.op_key,
            fault: job.fault,
            amount: job.amount,
            desc: job.desc,
            account: job.account,
        };
        let settings = self.config.downstream;
        let (result, committed) = reach
            .processor
            .charge(reach.ctx, &mut self.db, &settings, call);
        let delay = if call.fault == Fault::ProcessorSlow {
            settings.slow_ms
        } else {
            settings.processor_ms
        };
        if let Some(job) = self.jobs.get_mut(j) {
            job.proc = ProcState::Waiting(result);
            job.committed = committed.or(job.committed);
        }
        reach
            .ctx
            .after(delay, Micro::ProcessorReply { job: j as u32 });
    }

    /// The processor's answer reaches job `j`'s worker, which goes on where it stopped.
    fn processor_answer(&mut self, reach: &mut Reach<'_>, j: usize) {
        let Some(job) = self.jobs.get_mut(j) else {
            return;
        };
        let ProcState::Waiting(result) = std::mem::take(&mut job.proc) else {
            return;
        };
        job.proc = ProcState::Returned(result.clone());
        let op = job.op;
        reach.ctx.emit(EventKind::ProcessorReply { op, result });
        self.after_processor(reach, j);
    }
}
