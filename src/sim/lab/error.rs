//! The lab's one error type. Every limit a learner can hit has its own variant carrying the value
//! and the limit, so the page can explain it in either language instead of panicking.

use std::fmt;

use crate::sim::limits::{
    MAX_AMOUNT, MAX_BALANCE, MAX_CACHED_REQUESTS, MAX_EXPLORED_STATES, MAX_PARALLEL_REQUESTS,
    MAX_RAW_SCHEDULES, MAX_SAMPLES, MIN_AMOUNT, MIN_BALANCE, MIN_PARALLEL_REQUESTS,
};

/// What went wrong with a lab input or run. `Display` gives the English message;
/// [`LabError::message_ja`] the Japanese one.
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
    /// A number in a text field could not be read.
    NotANumber {
        /// Which field.
        field: NumberField,
        /// The text that was not a number.
        text: String,
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
    /// The service source (src/sim/article.rs) lacks a `// @lab` marker the lab needs.
    MissingMarker {
        /// The marker's name, e.g. `toctou.check`.
        marker: &'static str,
    },
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::RequestCount { requests } => write!(
                f,
                "{requests} requests: choose between {MIN_PARALLEL_REQUESTS} (one request is not concurrency) and {MAX_PARALLEL_REQUESTS}"
            ),
            LabError::AmountCount { given, requests } => write!(
                f,
                "{given} amounts for {requests} requests: give one amount for all, or one per request"
            ),
            LabError::Amount { request, amount } => write!(
                f,
                "request {}: amount {amount} is outside {MIN_AMOUNT}..={MAX_AMOUNT}",
                request + 1
            ),
            LabError::Balance { balance } => write!(
                f,
                "initial balance {balance} is outside {MIN_BALANCE}..={MAX_BALANCE}"
            ),
            LabError::NotANumber { field, text } => {
                write!(f, "{}: \"{text}\" is not a whole number", field.name_en())
            }
            LabError::ScheduleIndexOutOfRange {
                position,
                request,
                requests,
            } => write!(
                f,
                "schedule entry {}: there is no request {} (there are {requests})",
                position + 1,
                request + 1
            ),
            LabError::ScheduleBlocked {
                position,
                request,
                holder,
            } => write!(
                f,
                "schedule entry {}: request {} is blocked, request {} holds the lock",
                position + 1,
                request + 1,
                holder + 1
            ),
            LabError::ScheduleFinished { position, request } => write!(
                f,
                "schedule entry {}: request {} has already finished",
                position + 1,
                request + 1
            ),
            LabError::ScheduleTooLong { length, max } => write!(
                f,
                "the schedule has {length} entries but the requests have only {max} steps"
            ),
            LabError::NothingToUndo => write!(f, "nothing to step back: no step taken yet"),
            LabError::RunComplete => write!(f, "every request has finished"),
            LabError::OverRawBudget { schedules } => match schedules {
                Some(n) => write!(
                    f,
                    "{n} schedules is over the budget of {MAX_RAW_SCHEDULES} for search without caching: turn caching on or sample"
                ),
                None => write!(
                    f,
                    "the number of schedules does not fit in 128 bits, far over the budget of {MAX_RAW_SCHEDULES}: sample instead"
                ),
            },
            LabError::OverCachedBudget { requests } => write!(
                f,
                "{requests} requests is over the limit of {MAX_CACHED_REQUESTS} for exhaustive search: the distinct states grow about twentyfold per request and would not fit the page's memory; sample instead"
            ),
            LabError::StateBudgetExceeded { states } => write!(
                f,
                "stopped after {states} distinct states, the budget is {MAX_EXPLORED_STATES}: sample instead"
            ),
            LabError::SampleCount { samples } => {
                write!(f, "{samples} samples: choose between 1 and {MAX_SAMPLES}")
            }
            LabError::CountOverflow => write!(f, "a schedule count overflowed 128 bits"),
            LabError::MissingMarker { marker } => write!(
                f,
                "src/sim/article.rs has no `// @lab {marker}` marker: the lab cannot show that step's code"
            ),
        }
    }
}

impl std::error::Error for LabError {}

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
    /// English name of the field.
    pub fn name_en(self) -> &'static str {
        match self {
            NumberField::Requests => "requests",
            NumberField::Amounts => "amounts",
            NumberField::Balance => "initial balance",
            NumberField::Seed => "seed",
            NumberField::Samples => "samples",
            NumberField::Schedule => "schedule",
        }
    }

    /// Japanese name of the field.
    pub fn name_ja(self) -> &'static str {
        match self {
            NumberField::Requests => "リクエスト数",
            NumberField::Amounts => "金額",
            NumberField::Balance => "初期残高",
            NumberField::Seed => "シード",
            NumberField::Samples => "サンプル数",
            NumberField::Schedule => "スケジュール",
        }
    }
}

impl LabError {
    /// The same message in Japanese.
    pub fn message_ja(&self) -> String {
        match self {
            LabError::RequestCount { requests } => format!(
                "リクエスト数 {requests}: {MIN_PARALLEL_REQUESTS}（1件では並行にならない）から {MAX_PARALLEL_REQUESTS} の間で選んでください"
            ),
            LabError::AmountCount { given, requests } => format!(
                "{requests}件のリクエストに金額が{given}個: 全体に1つ、またはリクエストごとに1つ指定してください"
            ),
            LabError::Amount { request, amount } => format!(
                "リクエスト{}: 金額 {amount} は {MIN_AMOUNT}..={MAX_AMOUNT} の範囲外です",
                request + 1
            ),
            LabError::Balance { balance } => format!(
                "初期残高 {balance} は {MIN_BALANCE}..={MAX_BALANCE} の範囲外です"
            ),
            LabError::NotANumber { field, text } => {
                format!("{}: 「{text}」は整数ではありません", field.name_ja())
            }
            LabError::ScheduleIndexOutOfRange {
                position,
                request,
                requests,
            } => format!(
                "スケジュールの{}番目: リクエスト{}は存在しません（{requests}件）",
                position + 1,
                request + 1
            ),
            LabError::ScheduleBlocked {
                position,
                request,
                holder,
            } => format!(
                "スケジュールの{}番目: リクエスト{}はブロック中です（ロックはリクエスト{}が保持）",
                position + 1,
                request + 1,
                holder + 1
            ),
            LabError::ScheduleFinished { position, request } => format!(
                "スケジュールの{}番目: リクエスト{}はすでに終了しています",
                position + 1,
                request + 1
            ),
            LabError::ScheduleTooLong { length, max } => format!(
                "スケジュールは{length}ステップですが、リクエストのステップは合計{max}しかありません"
            ),
            LabError::NothingToUndo => "戻るステップがありません（まだ1ステップも進めていません）".to_string(),
            LabError::RunComplete => "すべてのリクエストが終了しています".to_string(),
            LabError::OverRawBudget { schedules } => match schedules {
                Some(n) => format!(
                    "スケジュール数 {n} はキャッシュなし探索の上限 {MAX_RAW_SCHEDULES} を超えます。キャッシュを有効にするかサンプリングしてください"
                ),
                None => format!(
                    "スケジュール数が128ビットに収まらず、上限 {MAX_RAW_SCHEDULES} を大きく超えます。サンプリングしてください"
                ),
            },
            LabError::OverCachedBudget { requests } => format!(
                "リクエスト数 {requests} は全探索の上限 {MAX_CACHED_REQUESTS} を超えます。異なる状態の数がリクエスト1件ごとに約20倍になり、ページのメモリに収まりません。サンプリングしてください"
            ),
            LabError::StateBudgetExceeded { states } => format!(
                "異なる状態が{states}個に達したので停止しました（上限 {MAX_EXPLORED_STATES}）。サンプリングしてください"
            ),
            LabError::SampleCount { samples } => {
                format!("サンプル数 {samples}: 1 から {MAX_SAMPLES} の間で選んでください")
            }
            LabError::CountOverflow => "スケジュール数が128ビットを超えました".to_string(),
            LabError::MissingMarker { marker } => format!(
                "src/sim/article.rs に `// @lab {marker}` マーカーがないため、このステップのコードを表示できません"
            ),
        }
    }
}
