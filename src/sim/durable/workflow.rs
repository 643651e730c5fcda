//! The workflows, as ordinary Rust code over the engine's context. This is the code the page
//! shows, cut at the `// @durable <name>` markers (`source.rs`), and the code the engine runs:
//! after a crash a new worker calls the function again from the top, and each step whose result
//! is in the journal returns that result without running again.
//!
//! A step is `ctx.step(name)?`: `?` hands the engine the first step the journal has no result
//! for (the workflow "suspends" there, as a Temporal workflow task ends with its commands), and
//! the step's result is `Ok` or `Err` (a permanent failure) once the engine has journaled it.
//! The workflow decides; the steps (run by the engine, `engine.rs`) talk to the world.

use super::{ClockMode, StepName, SHIP_CUTOFF_MS};

/// A journaled step's result, as the workflow sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StepOutcome {
    /// The step did its work.
    Done,
    /// The step failed permanently (a non-retryable error).
    Failed,
    /// The time read through the engine, in simulated ms.
    Time(u64),
}

/// How a workflow ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Every step done.
    Completed,
    /// A step failed and the done steps were undone, in reverse order.
    Compensated,
    /// The first step failed: nothing to undo.
    Failed,
}

/// Why the workflow function returned before its end. Not an error of the workflow: the engine
/// acts on it and calls the function again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suspend {
    /// The function wants step `step` at journal position `pos`, which has no result yet.
    Step {
        /// Position in the journal.
        pos: usize,
        /// The step.
        step: StepName,
    },
    /// The function reads the time through the engine at `pos`, not yet journaled.
    Clock {
        /// Position in the journal.
        pos: usize,
    },
    /// Replaying one journal entry per engine step: the next entry waits for the next step.
    ReplayPause,
    /// The function asked for `wanted` where the journal holds `journaled`: the code took
    /// another path than the run that wrote the journal.
    Mismatch {
        /// Position in the journal.
        pos: usize,
        /// What the journal holds there.
        journaled: StepName,
        /// What the code asked for.
        wanted: StepName,
    },
}

/// What a workflow function returns: its outcome, or where it stopped.
pub type Flow<T> = Result<T, Suspend>;

/// What the worker's own memory holds while it lives: the times the workflow read directly.
/// A crash loses it; the journal is the engine's and stays.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct WorkerMemory {
    /// Direct clock reads, in the order the code made them.
    pub clock_reads: Vec<u64>,
}

/// The engine's context for one call of a workflow function.
pub struct Ctx<'a> {
    journal: &'a [(StepName, Option<StepOutcome>)],
    cursor: usize,
    /// Replaying: how many journaled results this call may read (`None`: all of them).
    limit: Option<usize>,
    consumed: usize,
    clock: ClockMode,
    now_ms: u64,
    memory: &'a mut WorkerMemory,
    direct_reads: usize,
    new_direct_read: Option<u64>,
}

impl<'a> Ctx<'a> {
    /// A context over `journal` (each entry's step and its result, if journaled).
    pub fn new(
        journal: &'a [(StepName, Option<StepOutcome>)],
        limit: Option<usize>,
        clock: ClockMode,
        now_ms: u64,
        memory: &'a mut WorkerMemory,
    ) -> Self {
        Ctx {
            journal,
            cursor: 0,
            limit,
            consumed: 0,
            clock,
            now_ms,
            memory,
            direct_reads: 0,
            new_direct_read: None,
        }
    }

    /// How many journaled results this call read.
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// The time the call read directly from the worker's clock for the first time, if it did.
    pub fn new_direct_read(&self) -> Option<u64> {
        self.new_direct_read
    }

    /// The next journal position's result for `step`, or where the function stops.
    fn next(&mut self, step: StepName) -> Flow<StepOutcome> {
        let pos = self.cursor;
        self.cursor += 1;
        match self.journal.get(pos) {
            // Temporal compares each replayed command with the event history, Restate each
            // journal entry, DBOS each step's recorded name; a different step is caught here.
            Some((journaled, _)) if *journaled != step => Err(Suspend::Mismatch {
                pos,
                journaled: *journaled,
                wanted: step,
            }),
            Some((_, Some(result))) => {
                if self.limit.is_some_and(|limit| self.consumed >= limit) {
                    return Err(Suspend::ReplayPause);
                }
                self.consumed += 1;
                Ok(*result)
            }
            _ if step == StepName::Clock => Err(Suspend::Clock { pos }),
            _ => Err(Suspend::Step { pos, step }),
        }
    }

    /// Runs a step: its journaled result, or a suspension that asks the engine to run it.
    pub fn step(&mut self, step: StepName) -> Flow<Result<(), ()>> {
        match self.next(step)? {
            StepOutcome::Failed => Ok(Err(())),
            StepOutcome::Done | StepOutcome::Time(_) => Ok(Ok(())),
        }
    }

    /// The time. Through the engine it is journaled and replays the same; read directly it is
    /// the worker's clock, kept only in the worker's memory.
    pub fn now(&mut self) -> Flow<u64> {
        match self.clock {
            ClockMode::Engine => match self.next(StepName::Clock)? {
                StepOutcome::Time(ms) => Ok(ms),
                StepOutcome::Done | StepOutcome::Failed => Ok(self.now_ms),
            },
            ClockMode::Direct => {
                let i = self.direct_reads;
                self.direct_reads += 1;
                if let Some(ms) = self.memory.clock_reads.get(i) {
                    return Ok(*ms);
                }
                self.memory.clock_reads.push(self.now_ms);
                self.new_direct_read = Some(self.now_ms);
                Ok(self.now_ms)
            }
        }
    }
}

// @durable order.start
/// Place an order: reserve the item, charge the card, ship, send the receipt.
pub fn place_order(ctx: &mut Ctx) -> Flow<Outcome> {
    // @durable order.reserve
    if ctx.step(StepName::Reserve)?.is_err() {
        return Ok(Outcome::Failed);
    }
    // @durable order.charge
    if ctx.step(StepName::Charge)?.is_err() {
        return Ok(Outcome::Failed);
    }
    // @durable order.clock
    let now = ctx.now()?;
    // @durable order.ship
    let ship = if now < SHIP_CUTOFF_MS {
        StepName::ShipExpress
    } else {
        StepName::ShipStandard
    };
    if ctx.step(ship)?.is_err() {
        return Ok(Outcome::Failed);
    }
    // @durable order.receipt
    if ctx.step(StepName::Receipt)?.is_err() {
        return Ok(Outcome::Failed);
    }
    Ok(Outcome::Completed)
}
// @durable end

// @durable trip.start
/// Book a trip across three services as a saga: each done step pushes its compensation, and
/// a permanent failure undoes them in reverse order.
pub fn book_trip(ctx: &mut Ctx) -> Flow<Outcome> {
    let mut undo = Vec::new();
    // @durable trip.charge
    if ctx.step(StepName::Charge)?.is_err() {
        return Ok(Outcome::Failed);
    }
    undo.push(StepName::Refund);
    // @durable trip.book
    if ctx.step(StepName::BookFlight)?.is_err() {
        return compensate(ctx, undo);
    }
    undo.push(StepName::CancelFlight);
    // @durable trip.reserve
    if ctx.step(StepName::ReserveHotel)?.is_err() {
        return compensate(ctx, undo);
    }
    Ok(Outcome::Completed)
}
// @durable end

// @durable trip.compensate
/// Runs the compensations, newest first; each is a step of its own, journaled and keyed.
fn compensate(ctx: &mut Ctx, undo: Vec<StepName>) -> Flow<Outcome> {
    for step in undo.into_iter().rev() {
        // A compensation's failure is its own result; the next one still runs.
        let _undone = ctx.step(step)?;
    }
    Ok(Outcome::Compensated)
}
// @durable end
