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

/// The schedule's side of a forced run: one channel to let each request take its next step,
/// and what each request reported back (its step done, whether it finished).
struct Conductor {
    go: Vec<mpsc::Sender<()>>,
    done: mpsc::Receiver<(usize, bool)>,
    busy: Vec<bool>,
    finished: Vec<bool>,
    blocked_steps: u64,
}

impl Conductor {
    fn note(&mut self, (r, finished): (usize, bool)) {
        self.busy[r] = false;
        self.finished[r] |= finished;
    }

    /// Takes every report already sent.
    fn drain(&mut self) {
        while let Ok(msg) = self.done.try_recv() {
            self.note(msg);
        }
    }

    /// Waits up to `wait` for request r's step to finish; whether it did.
    fn wait_for(&mut self, r: usize, wait: Duration) -> bool {
        let deadline = std::time::Instant::now() + wait;
        while self.busy[r] {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.done.recv_timeout(left) {
                Ok(msg) => self.note(msg),
                Err(_) => return false,
            }
        }
        true
    }

    /// Lets request r take its next step; false if it has ended.
    fn let_go(&mut self, r: usize) -> bool {
        self.busy[r] = self.go[r].send(()).is_ok();
        self.busy[r]
    }

    /// One schedule entry: request r's next step, unless it has finished; a step still waiting
    /// for a lock after [`BLOCK_WAIT`] counts as blocked, and the schedule goes on.
    fn entry(&mut self, r: usize) {
        self.drain();
        if r >= self.go.len() || self.finished[r] {
            return;
        }
        if self.busy[r] && !self.wait_for(r, BLOCK_WAIT) {
            self.blocked_steps += 1;
            return;
        }
        if self.finished[r] {
            return;
        }
        self.let_go(r);
        if !self.wait_for(r, BLOCK_WAIT) {
            self.blocked_steps += 1;
        }
    }

    /// What the schedule left: a request that can move moves; when every unfinished one is
    /// waiting for a lock, the next to be let go is waited for.
    fn finish(&mut self) -> Result<(), String> {
        while self.finished.iter().any(|f| !f) {
            self.drain();
            let movable = (0..self.go.len()).find(|&r| !self.finished[r] && !self.busy[r]);
            match movable {
                Some(r) => {
                    if self.let_go(r) {
                        self.wait_for(r, BLOCK_WAIT);
                    } else {
                        self.finished[r] = true;
                    }
                }
                None => match self.done.recv_timeout(FINISH_WAIT) {
                    Ok(msg) => self.note(msg),
                    Err(_) => {
                        return Err(format!("every request still blocked after {FINISH_WAIT:?}"))
                    }
                },
            }
        }
        Ok(())
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
    let (outcomes, blocked_steps) = std::thread::scope(|s| {
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
        let mut c = Conductor {
            go,
            done: done_rx,
            busy: vec![false; n],
            finished: vec![false; n],
            blocked_steps: 0,
        };
        for &r in schedule {
            c.entry(r);
        }
        let result = c.finish();
        drop(c.go);
        let outcomes: Vec<Outcome> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .ok()
                    .and_then(|(o, _)| o)
                    .unwrap_or(Outcome::Failed("08000".into()))
            })
            .collect();
        result.map(|()| (outcomes, c.blocked_steps))
    })?;
    let (charges, _, _) = tally(admin).map_err(|e| e.to_string())?;
    Ok(ForcedRun {
        charges,
        blocked_steps,
        outcomes,
    })
}
