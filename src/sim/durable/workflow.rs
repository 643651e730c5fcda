//! The workflows, as ordinary Rust code over the engine's context. This is the code the page
//! shows, cut at the `// @durable <name>` markers (`source.rs`), and the code the engine runs:
//! after a crash a new worker calls the function again from the top, and each step whose result
//! is in the journal returns that result without running again.
//!
//! A step is `ctx.step(name)?`: `?` hands the engine the first step the journal has no result
//! for (the workflow "suspends" there, as a Temporal workflow task ends with its commands), and
//! once the engine has journaled the step's result, `?` passes a permanent failure up as the
//! workflow's own error. How the function ends is how the engine closes the run, as the real
//! SDKs do: returning a value closes it completed (Temporal's CompleteWorkflowExecution command,
//! DBOS's SUCCESS), whatever the value says; returning an error closes it failed
//! (FailWorkflowExecution, DBOS's ERROR). Source: temporalio/sdk-go internal/internal_task_handlers.go
//! (the close command chosen from the workflow's error), its tests
//! `TestWorkflowTask_WorkflowReturnsPanicError` and `TestGetWorkflowInfo`.
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

/// A step that failed for good, as the workflow code sees it: an error it may handle (the saga
/// compensates) or return (the run fails).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepFailed(pub StepName);

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

/// Why a workflow function returned without a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The engine's: the function stopped where the journal ends; the engine acts on it and
    /// calls the function again.
    Suspend(Suspend),
    /// The workflow's own: it returned this error, and the engine closes the run as failed.
    Error(StepFailed),
}

impl From<Suspend> for Stop {
    fn from(s: Suspend) -> Stop {
        Stop::Suspend(s)
    }
}

impl From<StepFailed> for Stop {
    fn from(e: StepFailed) -> Stop {
        Stop::Error(e)
    }
}

/// What a workflow function returns: its value, its error, or where it stopped.
pub type Flow<T> = Result<T, Stop>;

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
    fn next(&mut self, step: StepName) -> Result<StepOutcome, Suspend> {
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

    /// Runs a step: done, or its permanent failure as the workflow's error (`?` returns it), or
    /// a suspension that asks the engine to run it.
    pub fn step(&mut self, step: StepName) -> Flow<()> {
        self.try_step(step)?.map_err(Stop::Error)
    }

    /// Runs a step and hands its permanent failure to the code to handle (the outer `Result` is
    /// the suspension only).
    pub fn try_step(&mut self, step: StepName) -> Result<Result<(), StepFailed>, Suspend> {
        match self.next(step)? {
            StepOutcome::Failed => Ok(Err(StepFailed(step))),
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
/// Place an order: reserve the item, charge the card, ship, send the receipt. A step that fails
/// for good ends the function with its error (`?`), so the run fails; returning a value instead
/// would close it completed, whatever the value said.
pub fn place_order(ctx: &mut Ctx) -> Flow<()> {
    // @durable order.reserve
    ctx.step(StepName::Reserve)?;
    // @durable order.charge
    ctx.step(StepName::Charge)?;
    // @durable order.clock
    let now = ctx.now()?;
    // @durable order.ship
    let ship = if now < SHIP_CUTOFF_MS {
        StepName::ShipExpress
    } else {
        StepName::ShipStandard
    };
    ctx.step(ship)?;
    // @durable order.receipt
    ctx.step(StepName::Receipt)?;
    Ok(())
}
// @durable end

// @durable trip.start
/// Book a trip across three services as a saga: each done step pushes its compensation; a step
/// that fails for good has the done steps undone, newest first, and the workflow then fails with
/// that step's error.
pub fn book_trip(ctx: &mut Ctx) -> Flow<()> {
    let mut undo = Vec::new();
    // @durable trip.charge
    ctx.step(StepName::Charge)?;
    undo.push(StepName::Refund);
    // @durable trip.book
    if let Err(failed) = ctx.try_step(StepName::BookFlight)? {
        return compensate(ctx, undo, failed);
    }
    undo.push(StepName::CancelFlight);
    // @durable trip.reserve
    if let Err(failed) = ctx.try_step(StepName::ReserveHotel)? {
        return compensate(ctx, undo, failed);
    }
    Ok(())
}
// @durable end

// @durable trip.compensate
/// Runs the compensations, newest first, each a step of its own, journaled and keyed; then fails
/// the workflow with the error that started them.
fn compensate(ctx: &mut Ctx, undo: Vec<StepName>, failed: StepFailed) -> Flow<()> {
    for step in undo.into_iter().rev() {
        // A compensation's failure is its own result; the next one still runs.
        let _undone = ctx.try_step(step)?;
    }
    Err(failed.into())
}
// @durable end
