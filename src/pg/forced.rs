//! A forced interleaving: two (or more) requests, each on its own connection, move one lab step
//! at a time (check, charge, store: each a few statements) in the order a schedule gives. A step
//! that has not finished after [`BLOCK_WAIT`] is waiting for a lock; the schedule goes on with
//! the next entry, and the waiting request finishes its step when PostgreSQL lets it, as the
//! lab's scheduler defers a blocked step. After the schedule, what is left runs to its end.

use std::sync::mpsc;
use std::time::Duration;

use postgres::Client;

use crate::sim::postgres::{Outcome, Request, Variant};

use super::{exec, reset, tally};

/// How long a step may take before it counts as blocked on a lock (local statements take a
/// millisecond or two).
pub const BLOCK_WAIT: Duration = Duration::from_millis(250);

/// How long the end of a run waits for a request still blocked (PostgreSQL's own deadlock
/// detection answers after its `deadlock_timeout`, 1 s by default).
const FINISH_WAIT: Duration = Duration::from_secs(20);

/// What a forced run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedRun {
    /// The key's charges.
    pub charges: u64,
    /// Schedule entries at which the request was blocked and another went first.
    pub blocked_steps: u64,
    /// Each request's outcome.
    pub outcomes: Vec<Outcome>,
}

/// One lab step of `r`: at least one statement, then every following one of the same step.
fn run_step(client: &mut Client, r: &mut Request, amount: i64) {
    let Some(first) = r.next() else { return };
    let step = first.step;
    let mut stmt = first;
    loop {
        match exec(client, stmt, amount) {
            Ok(reply) => r.on_reply(reply),
            Err(code) => r.on_error(&code),
        }
        match r.next() {
            Some(next) if next.step == step => stmt = next,
            _ => return,
        }
    }
}

/// Runs `schedule` (0-based request per entry) for `variant` over `clients`, one request per
/// client, with `admin` resetting the tables first and counting after.
pub fn run_schedule(
    admin: &mut Client,
    clients: &mut [Client],
    variant: Variant,
    schedule: &[usize],
    balance: i64,
    amount: i64,
) -> Result<ForcedRun, String> {
    reset(admin, balance).map_err(|e| e.to_string())?;
    let n = clients.len();
    let (done_tx, done_rx) = mpsc::channel::<(usize, bool)>();
    let outcomes = std::thread::scope(|s| {
        let mut go = Vec::new();
        let mut handles = Vec::new();
        for (i, client) in clients.iter_mut().enumerate() {
            let (tx, rx) = mpsc::channel::<()>();
            go.push(tx);
            let done = done_tx.clone();
            handles.push(s.spawn(move || {
                let mut r = Request::new(variant);
                while rx.recv().is_ok() {
                    run_step(client, &mut r, amount);
                    let finished = r.next().is_none();
                    if done.send((i, finished)).is_err() || finished {
                        break;
                    }
                }
                (r.outcome().cloned(), r.retries())
            }));
        }
        let mut busy = vec![false; n];
        let mut finished = vec![false; n];
        let mut blocked_steps = 0u64;
        let note = |msg: (usize, bool), busy: &mut [bool], finished: &mut [bool]| {
            busy[msg.0] = false;
            finished[msg.0] |= msg.1;
        };
        // Waits up to `wait` for request r's step to finish; whether it did.
        let wait_for =
            |r: usize, wait: Duration, busy: &mut Vec<bool>, finished: &mut Vec<bool>| {
                let deadline = std::time::Instant::now() + wait;
                while busy[r] {
                    let left = deadline.saturating_duration_since(std::time::Instant::now());
                    match done_rx.recv_timeout(left) {
                        Ok(msg) => note(msg, busy, finished),
                        Err(_) => return false,
                    }
                }
                true
            };
        let mut result = Ok(());
        for &r in schedule {
            while let Ok(msg) = done_rx.try_recv() {
                note(msg, &mut busy, &mut finished);
            }
            if r >= n || finished[r] {
                continue;
            }
            if busy[r] && !wait_for(r, BLOCK_WAIT, &mut busy, &mut finished) {
                blocked_steps += 1;
                continue;
            }
            if finished[r] {
                continue;
            }
            busy[r] = go[r].send(()).is_ok();
            if !wait_for(r, BLOCK_WAIT, &mut busy, &mut finished) {
                blocked_steps += 1;
            }
        }
        // What the schedule left: a request that can move moves; when every unfinished one is
        // waiting for a lock, the next to be let go is waited for.
        while finished.iter().any(|f| !f) {
            while let Ok(msg) = done_rx.try_recv() {
                note(msg, &mut busy, &mut finished);
            }
            match (0..n).find(|&r| !finished[r] && !busy[r]) {
                Some(r) => {
                    busy[r] = go[r].send(()).is_ok();
                    if !busy[r] {
                        finished[r] = true;
                    } else {
                        wait_for(r, BLOCK_WAIT, &mut busy, &mut finished);
                    }
                }
                None => match done_rx.recv_timeout(FINISH_WAIT) {
                    Ok(msg) => note(msg, &mut busy, &mut finished),
                    Err(_) => {
                        result = Err(format!("every request still blocked after {FINISH_WAIT:?}"));
                        break;
                    }
                },
            }
        }
        drop(go);
        let outcomes: Vec<Outcome> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .ok()
                    .and_then(|(o, _)| o)
                    .unwrap_or(Outcome::Failed("08000".into()))
            })
            .collect();
        result.map(|()| (outcomes, blocked_steps))
    })?;
    let (charges, _, _) = tally(admin).map_err(|e| e.to_string())?;
    Ok(ForcedRun {
        charges,
        blocked_steps: outcomes.1,
        outcomes: outcomes.0,
    })
}
