//! The services on a real PostgreSQL: the variants as SQL (`program`), one request's control
//! flow over them (`request`), and the measured report (`report`): what `make pg-race` wrote,
//! committed as data and shown by the lab's "On a real database" page. The driver that talks to
//! the server is native and outside the core (`src/bin/pg_race/`); nothing here does I/O.

mod program;
mod report;
mod request;

pub use program::{
    program, Does, Params, Stmt, BALANCE, COUNT_CHARGES, COUNT_EVENTS, RESET, SCHEMA, SET_BALANCE,
};
pub use report::{ErrorCount, RaceRow, Report, ScheduleRow, REPORT_VERSION};
pub use request::{Reply, Request, ROLLBACK};

use super::lab::Model;

/// How many times a request of a retrying variant begins again after SQLSTATE 40001
/// (serialization failure) or 40P01 (deadlock), as a client told "retry" would.
pub const MAX_SERIALIZATION_RETRIES: u32 = 5;

/// One way to write the service in SQL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `NaivePaymentService`: the charge alone, no key.
    Naive,
    /// `TocTouVulnerableService`: check, charge and store as three autocommit statements.
    TocTou,
    /// One transaction at READ COMMITTED, check-then-insert, no constraint on the key.
    TxCheckInsert,
    /// The same with the key as the keys table's primary key.
    TxUnique,
    /// One transaction at REPEATABLE READ (retried on 40001), no constraint on the key.
    RepeatableRead,
    /// One transaction at SERIALIZABLE (retried on 40001), no constraint on the key.
    Serializable,
    /// READ COMMITTED, the account row locked `FOR UPDATE` before the check.
    ForUpdate,
    /// READ COMMITTED, a transaction-scoped advisory lock on the key before the check.
    AdvisoryLock,
    /// Claim the key first (`INSERT … ON CONFLICT DO NOTHING RETURNING`), charge, record the
    /// answer, one transaction: Brandur Leach's rocket-rides-atomic shape, with `locked_at`.
    ClaimFirst,
    /// `ClaimFirst` with the outbox row written in the same transaction as the charge.
    Outbox,
}

impl Variant {
    /// Every variant, in the order the page lists them.
    pub const ALL: [Variant; 10] = [
        Variant::Naive,
        Variant::TocTou,
        Variant::TxCheckInsert,
        Variant::TxUnique,
        Variant::RepeatableRead,
        Variant::Serializable,
        Variant::ForUpdate,
        Variant::AdvisoryLock,
        Variant::ClaimFirst,
        Variant::Outbox,
    ];

    /// A stable id (the report's JSON, the page's anchors).
    pub fn id(self) -> &'static str {
        match self {
            Variant::Naive => "naive",
            Variant::TocTou => "toctou",
            Variant::TxCheckInsert => "tx-check-insert",
            Variant::TxUnique => "tx-unique",
            Variant::RepeatableRead => "repeatable-read",
            Variant::Serializable => "serializable",
            Variant::ForUpdate => "for-update",
            Variant::AdvisoryLock => "advisory-lock",
            Variant::ClaimFirst => "claim-first",
            Variant::Outbox => "outbox",
        }
    }

    /// The variant with id `id`.
    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }

    /// Whether a request that gets 40001 or 40P01 begins again (the isolation levels that
    /// report conflicts instead of blocking them).
    pub fn retries_on_conflict(self) -> bool {
        matches!(self, Variant::RepeatableRead | Variant::Serializable)
    }

    /// The lab model the playground's lessons equate it with: the three-lock service for the
    /// three autocommit statements, and "one transaction is the atomic service's one lock" for
    /// every variant in one transaction. `None` for the naive service, which the lab has not.
    pub fn lab_model(self) -> Option<Model> {
        match self {
            Variant::Naive => None,
            Variant::TocTou => Some(Model::TocTou),
            _ => Some(Model::Atomic),
        }
    }

    /// Whether the playground's model of it promises at most one charge per key (the atomic
    /// service's guarantee); what PostgreSQL does is measured, not assumed.
    pub fn claimed_safe(self) -> bool {
        self.lab_model() == Some(Model::Atomic)
    }
}

/// What one request ended with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// It charged.
    Charged,
    /// It found the key and answered with the stored response.
    Replayed,
    /// It found the key claimed and not finished: 409 in flight.
    InFlight,
    /// Not enough balance.
    Declined,
    /// An error with this SQLSTATE (after any retries).
    Failed(String),
}

impl Outcome {
    /// A stable id.
    pub fn id(&self) -> &str {
        match self {
            Outcome::Charged => "charged",
            Outcome::Replayed => "replayed",
            Outcome::InFlight => "in-flight",
            Outcome::Declined => "declined",
            Outcome::Failed(code) => code,
        }
    }

    /// Reads an id back (anything else is a SQLSTATE).
    pub fn from_id(id: &str) -> Outcome {
        match id {
            "charged" => Outcome::Charged,
            "replayed" => Outcome::Replayed,
            "in-flight" => Outcome::InFlight,
            "declined" => Outcome::Declined,
            code => Outcome::Failed(code.to_string()),
        }
    }
}

/// The schedule both requests of a forced run follow: the lab's shortest double charge of the
/// three-lock service with two requests and one key, found by the lab's own explorer.
pub fn counterexample_schedule() -> Vec<usize> {
    use super::lab::{Explorer, KeyMode, LabScenario, Search};
    let scenario = LabScenario::new(Model::TocTou, 2, KeyMode::Same, &[100], 1000)
        .expect("two requests of 100 from 1000 are within the lab's limits");
    let mut explorer =
        Explorer::new(&scenario, Search::Exhaustive { caching: true }).expect("a small search");
    let report = explorer.run_to_end().expect("a small search finishes");
    report
        .counterexample
        .map(|c| c.schedule)
        .expect("the three-lock service double-charges on some schedule")
}

/// Every schedule of two requests of three steps each (20 of them), in lexicographic order.
pub fn all_two_request_schedules() -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for mask in 0u32..64 {
        if mask.count_ones() == 3 {
            out.push((0..6).map(|i| ((mask >> (5 - i)) & 1) as usize).collect());
        }
    }
    out
}

/// What the lab's model of `v` gives on `schedule`: its charges for the key, or `None` when
/// the variant has no lab model.
pub fn model_charges(v: Variant, schedule: &[usize]) -> Option<usize> {
    use super::lab::{adapt_schedule, KeyMode, LabScenario};
    let model = v.lab_model()?;
    let scenario = LabScenario::new(model, 2, KeyMode::Same, &[100], 1000).ok()?;
    let mut adapted = adapt_schedule(scenario, schedule).run;
    // Whatever the schedule left unfinished runs to its end, as the driver does on PostgreSQL.
    adapted.run_to_end(super::lab::Policy::RoundRobin).ok()?;
    Some(adapted.scenario().charges_per_key(adapted.state())[0] as usize)
}
