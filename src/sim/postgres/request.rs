//! One request running a variant's statements: which statement runs next, given what the
//! previous ones returned. The driver (src/bin/pg_race/) sends the SQL to PostgreSQL and reports
//! each reply or error here; nothing here does I/O, so the control flow is tested without a server.

use super::program::{program, Does, Params, Stmt};
use super::{Outcome, Variant, MAX_SERIALIZATION_RETRIES};

/// `ROLLBACK`, after an error inside a transaction.
pub const ROLLBACK: Stmt = Stmt {
    sql: "ROLLBACK",
    does: Does::Commit,
    params: Params::None,
    step: 2,
};

/// What a statement returned: its row count, and whether the first row's first column is NULL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// Rows returned (or affected, for a statement without `RETURNING`).
    pub rows: u64,
    /// The first row's first column is NULL (no row: false).
    pub first_is_null: bool,
}

/// A request's progress through its variant's statements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    variant: Variant,
    pc: usize,
    in_tx: bool,
    declined: bool,
    /// Set when the answer is known; statements may still follow (the `COMMIT` of a replay).
    answer: Option<Outcome>,
    /// An error inside a transaction: `ROLLBACK` comes next, then this.
    rolling_back: Option<String>,
    retries: u32,
    done: bool,
}

impl Request {
    /// A request about to send its first statement.
    pub fn new(variant: Variant) -> Request {
        Request {
            variant,
            pc: 0,
            in_tx: false,
            declined: false,
            answer: None,
            rolling_back: None,
            retries: 0,
            done: false,
        }
    }

    /// The statement to send next, or `None` when the request has its outcome.
    pub fn next(&self) -> Option<&'static Stmt> {
        if self.done {
            return None;
        }
        if self.rolling_back.is_some() {
            return Some(&ROLLBACK);
        }
        program(self.variant).get(self.pc)
    }

    /// How many times it began again after a serialization failure or a deadlock.
    pub fn retries(&self) -> u32 {
        self.retries
    }

    /// The outcome, once the request is done.
    pub fn outcome(&self) -> Option<&Outcome> {
        if self.done {
            self.answer.as_ref()
        } else {
            None
        }
    }

    fn commit_index(&self) -> Option<usize> {
        program(self.variant)
            .iter()
            .position(|s| s.does == Does::Commit)
    }

    /// Ends with `answer`: at the `COMMIT` if a transaction is open, else now.
    fn answer_now(&mut self, answer: Outcome) {
        self.answer = Some(answer);
        match self.commit_index() {
            Some(i) if self.in_tx => self.pc = i,
            _ => self.done = true,
        }
    }

    /// The statement `next` gave succeeded with `reply`.
    pub fn on_reply(&mut self, reply: Reply) {
        if let Some(code) = self.rolling_back.take() {
            self.in_tx = false;
            self.after_failure(code);
            return;
        }
        let Some(stmt) = self.next() else { return };
        match stmt.does {
            Does::Begin => {
                self.in_tx = true;
                self.pc += 1;
            }
            Does::Check if reply.rows > 0 => self.answer_now(Outcome::Replayed),
            Does::Claim if reply.rows > 0 => self.pc += 2,
            Does::ReadClaimed => self.answer_now(if reply.first_is_null {
                Outcome::InFlight
            } else {
                Outcome::Replayed
            }),
            Does::Charge => {
                self.declined = reply.rows == 0;
                self.pc += 1;
            }
            Does::Commit => {
                self.in_tx = false;
                self.pc += 1;
            }
            Does::Lock | Does::Check | Does::Claim | Does::Outbox | Does::Store => self.pc += 1,
        }
        if !self.done && self.pc >= program(self.variant).len() {
            self.done = true;
            if self.answer.is_none() {
                self.answer = Some(if self.declined {
                    Outcome::Declined
                } else {
                    Outcome::Charged
                });
            }
        }
    }

    /// The statement `next` gave failed with SQLSTATE `code`.
    pub fn on_error(&mut self, code: &str) {
        if self.rolling_back.is_some() {
            // ROLLBACK itself failed (the connection is gone): the first error stands.
            let first = self.rolling_back.take().unwrap_or_default();
            self.in_tx = false;
            self.fail(first);
            return;
        }
        // A failed COMMIT has already ended the transaction; any other failure inside one leaves
        // it aborted until ROLLBACK.
        let failed_commit = self.next().is_some_and(|s| s.does == Does::Commit);
        if self.in_tx && !failed_commit {
            self.rolling_back = Some(code.to_string());
        } else {
            self.in_tx = false;
            self.after_failure(code.to_string());
        }
    }

    fn after_failure(&mut self, code: String) {
        let retryable = code == "40001" || code == "40P01";
        if retryable
            && self.variant.retries_on_conflict()
            && self.retries < MAX_SERIALIZATION_RETRIES
        {
            self.retries += 1;
            self.pc = 0;
            self.declined = false;
            self.answer = None;
        } else {
            self.fail(code);
        }
    }

    fn fail(&mut self, code: String) {
        self.answer = Some(Outcome::Failed(code));
        self.done = true;
    }
}
