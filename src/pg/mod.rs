//! The PostgreSQL driver (feature `pg`, native only): runs the core's SQL variants
//! (`crate::sim::postgres`) on a real server over real connections. Two ways: a race (N
//! connections, a barrier, the same key, K trials) and a forced schedule (the requests' lab steps
//! in a given order across connections, a step that does not finish within [`BLOCK_WAIT`] counted
//! as blocked on a lock while the next one goes, as the lab's scheduler does). `make pg-race`
//! (src/bin/pg_race/) writes the report; tests/pg.rs checks the variants' claims.
//!
//! The core stays free of I/O: what runs next is `Request`'s decision; here is only the sending.

mod forced;
mod race;

pub use forced::{run_schedule, ForcedRun, BLOCK_WAIT};
pub use race::{race, RaceConfig};

use postgres::{Client, NoTls};

use crate::sim::postgres::{Does, Outcome, Params, Reply, Request, Stmt, Variant, SCHEMA};

/// The key every request of a trial carries (tables are emptied before each trial).
pub const KEY: &str = "order-1";

/// Connects with a libpq-style connection string (`host=/path/to/socket user=postgres`).
pub fn connect(url: &str) -> Result<Client, postgres::Error> {
    Client::connect(url, NoTls)
}

/// Creates the tables afresh.
pub fn create_schema(client: &mut Client) -> Result<(), postgres::Error> {
    client.batch_execute(SCHEMA)
}

/// `SELECT version()`.
pub fn server_version(client: &mut Client) -> Result<String, postgres::Error> {
    Ok(client.query_one("SELECT version()", &[])?.get(0))
}

/// The SQLSTATE of an error, or `08000` (connection exception) when the server sent none.
fn sqlstate(e: &postgres::Error) -> String {
    e.code()
        .map_or_else(|| "08000".to_string(), |c| c.code().to_string())
}

/// Sends one statement; its reply or its SQLSTATE.
pub fn exec(client: &mut Client, stmt: &Stmt, amount: i64) -> Result<Reply, String> {
    let rows = match stmt.params {
        Params::None => client.query(stmt.sql, &[]),
        Params::Key => client.query(stmt.sql, &[&KEY]),
        Params::KeyAmount => client.query(stmt.sql, &[&KEY, &amount]),
    }
    .map_err(|e| sqlstate(&e))?;
    let first_is_null = stmt.does == Does::ReadClaimed
        && rows
            .first()
            .is_some_and(|r| r.try_get::<_, Option<String>>(0).ok().flatten().is_none());
    Ok(Reply {
        rows: rows.len() as u64,
        first_is_null,
    })
}

/// Runs one request of `variant` to its outcome; also how often it began again.
pub fn run_request(client: &mut Client, variant: Variant, amount: i64) -> (Outcome, u32) {
    let mut r = Request::new(variant);
    while let Some(stmt) = r.next() {
        match exec(client, stmt, amount) {
            Ok(reply) => r.on_reply(reply),
            Err(code) => r.on_error(&code),
        }
    }
    let outcome = r
        .outcome()
        .cloned()
        .unwrap_or(Outcome::Failed("08000".into()));
    (outcome, r.retries())
}

/// Empties the tables and sets the starting balance.
pub fn reset(client: &mut Client, balance: i64) -> Result<(), postgres::Error> {
    client.batch_execute(crate::sim::postgres::RESET)?;
    client.execute(crate::sim::postgres::SET_BALANCE, &[&balance])?;
    Ok(())
}

/// After a trial: the key's charges, the balance, the key's outbox rows.
pub fn tally(client: &mut Client) -> Result<(u64, i64, u64), postgres::Error> {
    use crate::sim::postgres::{BALANCE, COUNT_CHARGES, COUNT_EVENTS};
    let charges: i64 = client.query_one(COUNT_CHARGES, &[&KEY])?.get(0);
    let balance: i64 = client.query_one(BALANCE, &[])?.get(0);
    let events: i64 = client.query_one(COUNT_EVENTS, &[&KEY])?.get(0);
    Ok((charges as u64, balance, events as u64))
}
