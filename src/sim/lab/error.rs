//! The lab's one error type. Every limit a learner can hit has its own variant carrying the value
//! and the limit, so the page can explain it in either language instead of panicking.

use crate::sim::limits::{
    TypedNumberError, MAX_AMOUNT, MAX_BALANCE, MAX_PARALLEL_REQUESTS, MAX_SAMPLES, MAX_SEED,
    MIN_AMOUNT, MIN_BALANCE, MIN_PARALLEL_REQUESTS,
};

/// What went wrong with a lab input or run: values only; the page words it in either language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabError {
    /// The number of concurrent requests is outside `MIN_PARALLEL_REQUESTS..=MAX_PARALLEL_REQUESTS`.
    RequestCount {
        /// The number asked for.
        requests: usize,
    },
    /// The list of amounts has neither one entry (for all) nor one per request.
    AmountCount {
        /// Amounts given.
        given: usize,
        /// Requests configured.
        requests: usize,
    },
    /// An amount is outside `MIN_AMOUNT..=MAX_AMOUNT`.
    Amount {
        /// 0-based request index.
        request: usize,
        /// The amount given.
        amount: i64,
    },
    /// The initial balance is outside `MIN_BALANCE..=MAX_BALANCE`.
    Balance {
        /// The balance given.
        balance: i64,
    },
    /// A number typed into a field that the field refuses: empty, not a whole number,
    /// negative, too small or too large for its range ([`NumberField::range`]).
    BadNumber {
        /// Which field.
        field: NumberField,
        /// What is wrong, what was typed, and the field's range.
        number: TypedNumberError,
    },
    /// A schedule names a request that does not exist.
    ScheduleIndexOutOfRange {
        /// 0-based position in the schedule.
        position: usize,
        /// The 0-based request index given.
        request: usize,
        /// Requests configured.
        requests: usize,
    },
    /// A schedule moves a request that is waiting for a lock another request holds.
    ScheduleBlocked {
        /// 0-based position in the schedule.
        position: usize,
        /// 0-based request index.
        request: usize,
        /// The request holding the lock.
        holder: usize,
    },
    /// A schedule moves a request that has already taken all its steps.
    ScheduleFinished {
        /// 0-based position in the schedule.
        position: usize,
        /// 0-based request index.
        request: usize,
    },
    /// A schedule has more entries than all requests have steps.
    ScheduleTooLong {
        /// Entries given.
        length: usize,
        /// Steps available in total.
        max: usize,
    },
    /// Step back with nothing to undo.
    NothingToUndo,
    /// No request can move: the run is complete.
    RunComplete,
    /// Exhaustive search without caching would enumerate more schedules than the budget.
    OverRawBudget {
        /// The raw schedule count, `None` if it does not even fit in `u128`.
        schedules: Option<u128>,
    },
    /// Exhaustive search with caching is refused beyond `MAX_CACHED_REQUESTS` requests.
    OverCachedBudget {
        /// Requests configured.
        requests: usize,
    },
    /// The cached search met more distinct states than `MAX_EXPLORED_STATES` and stopped.
    StateBudgetExceeded {
        /// States stored when it stopped.
        states: usize,
    },
    /// A sample size outside `1..=MAX_SAMPLES`.
    SampleCount {
        /// The number asked for.
        samples: u64,
    },
    /// A counter overflowed `u128` (cannot happen within the budgets; reported, not panicked).
    CountOverflow,
    /// The service source (src/sim/article/mod.rs) lacks a `// @lab` marker the lab needs.
    MissingMarker {
        /// The marker's name, e.g. `toctou.check`.
        marker: &'static str,
    },
}

/// The text fields whose numbers the lab parses, named in errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberField {
    /// Number of concurrent requests.
    Requests,
    /// The amounts list.
    Amounts,
    /// Initial balance.
    Balance,
    /// PRNG seed.
    Seed,
    /// Sample size of the explorer.
    Samples,
    /// A recorded schedule.
    Schedule,
}

impl NumberField {
    /// The smallest and largest number the field takes (a schedule's entries are request
    /// numbers, from 1; whether that request exists is checked when the schedule runs).
    pub fn range(self) -> (i128, i128) {
        match self {
            Self::Requests => (MIN_PARALLEL_REQUESTS as i128, MAX_PARALLEL_REQUESTS as i128),
            Self::Amounts => (i128::from(MIN_AMOUNT), i128::from(MAX_AMOUNT)),
            Self::Balance => (i128::from(MIN_BALANCE), i128::from(MAX_BALANCE)),
            Self::Seed => (0, i128::from(MAX_SEED)),
            Self::Samples => (1, i128::from(MAX_SAMPLES)),
            Self::Schedule => (1, MAX_PARALLEL_REQUESTS as i128),
        }
    }
}
