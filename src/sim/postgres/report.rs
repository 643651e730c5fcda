//! What `make pg-race` measured, as data: the race matrix and the forced schedules, with the
//! server's version, the date and the run's sizes. Written by the native driver as JSON
//! (`data/pg-race.json`, committed) and read back by the page, field by field.

use crate::sim::json::{self, Got, JsonError, ObjectWriter};

use super::{Outcome, Variant};

/// The report format's version (a page refuses another, saying so).
pub const REPORT_VERSION: u64 = 1;

/// Errors of one SQLSTATE, counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorCount {
    /// The SQLSTATE (`23505` unique violation, `40001` serialization failure, …).
    pub sqlstate: String,
    /// Requests that ended with it.
    pub count: u64,
}

/// One variant in the race: `connections` requests with one key at once, `trials` times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RaceRow {
    /// The variant.
    pub variant: Variant,
    /// Trials run.
    pub trials: u64,
    /// Trials in which the key was charged more than once.
    pub double_charged: u64,
    /// The most charges of the key in one trial.
    pub max_charges: u64,
    /// The lowest balance a trial ended with.
    pub min_balance: i64,
    /// Requests by outcome over all trials: charged, replayed, in flight, declined.
    pub charged: u64,
    /// Replayed answers.
    pub replayed: u64,
    /// 409 in flight.
    pub in_flight: u64,
    /// Declined for the balance.
    pub declined: u64,
    /// Requests that ended with an error, by SQLSTATE.
    pub errors: Vec<ErrorCount>,
    /// Times a request began again after 40001/40P01.
    pub retries: u64,
    /// Trials whose outbox rows differ from their charges (the outbox variant; 0 elsewhere).
    pub outbox_mismatches: u64,
}

/// One variant run on one forced schedule, beside the lab model's prediction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleRow {
    /// The variant.
    pub variant: Variant,
    /// The lab schedule (0-based request per step), as intended.
    pub schedule: Vec<usize>,
    /// The lab model's charges on it; `None` without a model.
    pub model_charges: Option<u64>,
    /// What PostgreSQL charged.
    pub pg_charges: u64,
    /// Steps of the schedule at which a request was blocked on a lock and another went first.
    pub blocked_steps: u64,
    /// Each request's outcome.
    pub outcomes: Vec<Outcome>,
}

/// The whole measurement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// `SELECT version()`.
    pub server: String,
    /// The day it ran (UTC, `YYYY-MM-DD`).
    pub date: String,
    /// Connections per trial (the article's 10 threads).
    pub connections: u64,
    /// Trials per variant.
    pub trials: u64,
    /// The starting balance and each request's amount.
    pub balance: i64,
    /// Each request's amount.
    pub amount: i64,
    /// The race matrix, one row per variant.
    pub races: Vec<RaceRow>,
    /// The forced schedules.
    pub schedules: Vec<ScheduleRow>,
}

impl Report {
    /// The report as JSON.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let mut o = ObjectWriter::new(&mut out);
        o.u64("version", REPORT_VERSION);
        o.str("server", &self.server);
        o.str("date", &self.date);
        o.u64("connections", self.connections);
        o.u64("trials", self.trials);
        o.i64("balance", self.balance);
        o.i64("amount", self.amount);
        o.array("races", &self.races, |out, r| {
            let mut o = ObjectWriter::new(out);
            o.str("variant", r.variant.id());
            o.u64("trials", r.trials);
            o.u64("double_charged", r.double_charged);
            o.u64("max_charges", r.max_charges);
            o.i64("min_balance", r.min_balance);
            o.u64("charged", r.charged);
            o.u64("replayed", r.replayed);
            o.u64("in_flight", r.in_flight);
            o.u64("declined", r.declined);
            o.array("errors", &r.errors, |out, e| {
                let mut o = ObjectWriter::new(out);
                o.str("sqlstate", &e.sqlstate);
                o.u64("count", e.count);
                o.end();
            });
            o.u64("retries", r.retries);
            o.u64("outbox_mismatches", r.outbox_mismatches);
            o.end();
        });
        o.array("schedules", &self.schedules, |out, r| {
            let mut o = ObjectWriter::new(out);
            o.str("variant", r.variant.id());
            o.array("schedule", &r.schedule, |out, step| {
                out.push_str(&step.to_string())
            });
            if let Some(m) = r.model_charges {
                o.u64("model_charges", m);
            }
            o.u64("pg_charges", r.pg_charges);
            o.u64("blocked_steps", r.blocked_steps);
            o.array("outcomes", &r.outcomes, |out, x| {
                json::write_str(out, x.id())
            });
            o.end();
        });
        o.end();
        out
    }

    /// Reads a report; the error names the field.
    pub fn from_json(text: &str) -> Result<Report, JsonError> {
        let tree = json::parse(text)?;
        let root = Got::new(&tree, "report");
        let mut f = root.fields("report")?;
        let version = f.req("version")?;
        if version.u64()? != REPORT_VERSION {
            return Err(version.expected("version 1"));
        }
        let races = f
            .req("races")?
            .items()?
            .map(read_race)
            .collect::<Result<Vec<_>, JsonError>>()?;
        let schedules = f
            .req("schedules")?
            .items()?
            .map(read_schedule)
            .collect::<Result<Vec<_>, JsonError>>()?;
        Ok(Report {
            server: f.req("server")?.string()?,
            date: f.req("date")?.string()?,
            connections: f.req("connections")?.u64()?,
            trials: f.req("trials")?.u64()?,
            balance: f.req("balance")?.i64()?,
            amount: f.req("amount")?.i64()?,
            races,
            schedules,
        })
    }
}

fn read_variant(g: Got) -> Result<Variant, JsonError> {
    Variant::from_id(g.str()?).ok_or_else(|| g.expected("a variant id"))
}

/// A row of the race matrix.
fn read_race(g: Got) -> Result<RaceRow, JsonError> {
    let mut r = g.fields("race")?;
    let errors = r
        .req("errors")?
        .items()?
        .map(read_error_count)
        .collect::<Result<Vec<_>, JsonError>>()?;
    let row = RaceRow {
        variant: read_variant(r.req("variant")?)?,
        trials: r.req("trials")?.u64()?,
        double_charged: r.req("double_charged")?.u64()?,
        max_charges: r.req("max_charges")?.u64()?,
        min_balance: r.req("min_balance")?.i64()?,
        charged: r.req("charged")?.u64()?,
        replayed: r.req("replayed")?.u64()?,
        in_flight: r.req("in_flight")?.u64()?,
        declined: r.req("declined")?.u64()?,
        errors,
        retries: r.req("retries")?.u64()?,
        outbox_mismatches: r.req("outbox_mismatches")?.u64()?,
    };
    Ok(row)
}

/// A race row's errors of one SQLSTATE.
fn read_error_count(g: Got) -> Result<ErrorCount, JsonError> {
    let mut e = g.fields("error")?;
    let row = ErrorCount {
        sqlstate: e.req("sqlstate")?.string()?,
        count: e.req("count")?.u64()?,
    };
    e.deny_unknown(&["sqlstate", "count"])?;
    Ok(row)
}

/// A forced schedule's row.
fn read_schedule(g: Got) -> Result<ScheduleRow, JsonError> {
    let mut r = g.fields("schedule")?;
    let row = ScheduleRow {
        variant: read_variant(r.req("variant")?)?,
        schedule: r
            .req("schedule")?
            .items()?
            .map(|g| g.usize())
            .collect::<Result<_, _>>()?,
        model_charges: r.opt("model_charges")?.map(|g| g.u64()).transpose()?,
        pg_charges: r.req("pg_charges")?.u64()?,
        blocked_steps: r.req("blocked_steps")?.u64()?,
        outcomes: r
            .req("outcomes")?
            .items()?
            .map(|g| g.str().map(Outcome::from_id))
            .collect::<Result<_, _>>()?,
    };
    Ok(row)
}
