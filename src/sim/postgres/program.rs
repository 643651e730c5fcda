//! The article's services as SQL: each variant is a list of statements, each with what it does
//! for the request (so one interpreter, the native driver in `src/bin/pg_race/`, runs them all)
//! and the lab step it belongs to (check = 0, charge = 1, store = 2), so a lab schedule can be
//! run on PostgreSQL. The page shows these same strings.

use super::Variant;

/// What a statement does for the request, which decides what runs next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Does {
    /// `BEGIN` (with the variant's isolation level).
    Begin,
    /// Takes a lock before the check: the account row `FOR UPDATE`, or an advisory lock on the key.
    Lock,
    /// Looks the key up: a row means the key was used, and its stored answer is replayed.
    Check,
    /// Claims the key first (`INSERT … ON CONFLICT DO NOTHING RETURNING`): no row back means
    /// another request holds it, and the stored answer is read instead.
    Claim,
    /// Only after a lost claim: the holder's answer, or NULL while it is still in flight.
    ReadClaimed,
    /// Debits the balance and writes the ledger row, in one statement; no row back: declined.
    Charge,
    /// Writes the outbox row of the charge.
    Outbox,
    /// Records the key with its answer.
    Store,
    /// `COMMIT`.
    Commit,
}

/// What a statement's parameters are: `$1` the key (text), `$2` the amount (bigint).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Params {
    /// None.
    None,
    /// `$1` the key.
    Key,
    /// `$1` the key, `$2` the amount.
    KeyAmount,
}

/// One statement of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stmt {
    /// The SQL, as run.
    pub sql: &'static str,
    /// What it does for the request.
    pub does: Does,
    /// Its parameters.
    pub params: Params,
    /// The lab step it belongs to: 0 check, 1 charge, 2 store.
    pub step: usize,
}

/// The tables, created afresh by the driver. `idem_keys` has no constraint on the key (the
/// check-then-insert variants without one); `idem_keys_u` has it as its primary key.
pub const SCHEMA: &str = "\
DROP TABLE IF EXISTS account, ledger, idem_keys, idem_keys_u, outbox;
CREATE TABLE account (id int PRIMARY KEY, balance bigint NOT NULL CHECK (balance >= 0));
CREATE TABLE ledger (id bigserial PRIMARY KEY, key text NOT NULL, amount bigint NOT NULL);
CREATE TABLE idem_keys (key text NOT NULL, fingerprint text, status text NOT NULL, response text, locked_at timestamptz);
CREATE TABLE idem_keys_u (key text PRIMARY KEY, fingerprint text, status text NOT NULL, response text, locked_at timestamptz);
CREATE TABLE outbox (id bigserial PRIMARY KEY, key text NOT NULL, payload text NOT NULL);
INSERT INTO account VALUES (1, 0);";

/// Before each trial: no charges, no keys, no events, and the starting balance (`$1`).
pub const RESET: &str = "TRUNCATE ledger, idem_keys, idem_keys_u, outbox";
/// Sets the starting balance (`$1`, bigint).
pub const SET_BALANCE: &str = "UPDATE account SET balance = $1 WHERE id = 1";
/// After a trial: the ledger rows of a key (`$1`).
pub const COUNT_CHARGES: &str = "SELECT count(*) FROM ledger WHERE key = $1";
/// After a trial: the balance.
pub const BALANCE: &str = "SELECT balance FROM account WHERE id = 1";
/// After a trial: the outbox rows of a key (`$1`).
pub const COUNT_EVENTS: &str = "SELECT count(*) FROM outbox WHERE key = $1";

const fn s(sql: &'static str, does: Does, params: Params, step: usize) -> Stmt {
    Stmt {
        sql,
        does,
        params,
        step,
    }
}

const CHARGE: Stmt = s(
    "WITH debit AS (UPDATE account SET balance = balance - $2 WHERE id = 1 AND balance >= $2 RETURNING id) \
     INSERT INTO ledger (key, amount) SELECT $1, $2 FROM debit RETURNING id",
    Does::Charge,
    Params::KeyAmount,
    1,
);
const CHECK: Stmt = s(
    "SELECT response FROM idem_keys WHERE key = $1",
    Does::Check,
    Params::Key,
    0,
);
const CHECK_U: Stmt = s(
    "SELECT response FROM idem_keys_u WHERE key = $1",
    Does::Check,
    Params::Key,
    0,
);
const STORE: Stmt = s(
    "INSERT INTO idem_keys (key, fingerprint, status, response) VALUES ($1, 'charge', 'done', 'charged')",
    Does::Store,
    Params::Key,
    2,
);
const STORE_U: Stmt = s(
    "INSERT INTO idem_keys_u (key, fingerprint, status, response) VALUES ($1, 'charge', 'done', 'charged')",
    Does::Store,
    Params::Key,
    2,
);
const BEGIN: Stmt = s("BEGIN", Does::Begin, Params::None, 0);
const COMMIT: Stmt = s("COMMIT", Does::Commit, Params::None, 2);
const CLAIM: Stmt = s(
    "INSERT INTO idem_keys_u (key, fingerprint, status, locked_at) VALUES ($1, 'charge', 'started', now()) \
     ON CONFLICT (key) DO NOTHING RETURNING key",
    Does::Claim,
    Params::Key,
    0,
);
const READ_CLAIMED: Stmt = s(
    "SELECT response FROM idem_keys_u WHERE key = $1",
    Does::ReadClaimed,
    Params::Key,
    0,
);
const FINISH_CLAIM: Stmt = s(
    "UPDATE idem_keys_u SET status = 'done', response = 'charged', locked_at = NULL WHERE key = $1",
    Does::Store,
    Params::Key,
    2,
);
const OUTBOX: Stmt = s(
    "INSERT INTO outbox (key, payload) VALUES ($1, 'charged ' || $2::bigint)",
    Does::Outbox,
    Params::KeyAmount,
    2,
);

const BEGIN_RR: Stmt = s(
    "BEGIN ISOLATION LEVEL REPEATABLE READ",
    Does::Begin,
    Params::None,
    0,
);
const BEGIN_SER: Stmt = s(
    "BEGIN ISOLATION LEVEL SERIALIZABLE",
    Does::Begin,
    Params::None,
    0,
);
const LOCK_ROW: Stmt = s(
    "SELECT balance FROM account WHERE id = 1 FOR UPDATE",
    Does::Lock,
    Params::None,
    0,
);
const LOCK_KEY: Stmt = s(
    "SELECT pg_advisory_xact_lock(hashtext($1))",
    Does::Lock,
    Params::Key,
    0,
);

/// The statements of `v`, in order.
pub fn program(v: Variant) -> &'static [Stmt] {
    match v {
        Variant::Naive => &[CHARGE],
        Variant::TocTou => &[CHECK, CHARGE, STORE],
        Variant::TxCheckInsert => &[BEGIN, CHECK, CHARGE, STORE, COMMIT],
        Variant::TxUnique => &[BEGIN, CHECK_U, CHARGE, STORE_U, COMMIT],
        Variant::RepeatableRead => &[BEGIN_RR, CHECK, CHARGE, STORE, COMMIT],
        Variant::Serializable => &[BEGIN_SER, CHECK, CHARGE, STORE, COMMIT],
        Variant::ForUpdate => &[BEGIN, LOCK_ROW, CHECK, CHARGE, STORE, COMMIT],
        Variant::AdvisoryLock => &[BEGIN, LOCK_KEY, CHECK, CHARGE, STORE, COMMIT],
        Variant::ClaimFirst => &[BEGIN, CLAIM, READ_CLAIMED, CHARGE, FINISH_CLAIM, COMMIT],
        Variant::Outbox => &[
            BEGIN,
            CLAIM,
            READ_CLAIMED,
            CHARGE,
            OUTBOX,
            FINISH_CLAIM,
            COMMIT,
        ],
    }
}
