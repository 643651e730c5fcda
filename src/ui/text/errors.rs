//! Words for what was refused: the simulation's input errors, the lab's errors, and why a saved
//! or linked lab was not restored. Each message says what to fix.

use crate::sim::lab::{LabError, NumberField};
use crate::sim::limits::{
    DurationField, InputError, Quantity, MAX_AMOUNT, MAX_BALANCE, MAX_CACHED_REQUESTS,
    MAX_EXPLORED_STATES, MAX_PARALLEL_REQUESTS, MAX_RAW_SCHEDULES, MAX_SAMPLES, MAX_URL_BYTES,
    MIN_AMOUNT, MIN_BALANCE, MIN_PARALLEL_REQUESTS,
};
use crate::sim::{Halt, Input, World};
use crate::ui::i18n::{tr, Lang};
use crate::ui::lab::persist::{Origin, RestoreError};

use super::grouped;

fn duration_field(lang: Lang, f: DurationField) -> &'static str {
    match f {
        DurationField::Latency => lang.t("latency", "遅延"),
        DurationField::Jitter => lang.t("jitter", "ゆらぎ"),
        DurationField::Timeout => lang.t("timeout", "タイムアウト"),
        DurationField::Advance => lang.t("time advance", "時間の進め幅"),
        DurationField::RetryDelay => lang.t("retry delay", "リトライ間隔"),
        DurationField::RetryBase => lang.t("backoff base", "バックオフの基準"),
        DurationField::RetryCap => lang.t("backoff cap", "バックオフの上限"),
        DurationField::Retention => lang.t("key retention", "キーの保持期間"),
        DurationField::InFlightTimeout => lang.t("in-flight timeout", "処理中の期限"),
    }
}

/// An input error as a message that says what to fix.
pub fn input_error(lang: Lang, e: &InputError) -> String {
    use InputError as E;
    match e {
        E::AmountOutOfRange { amount, min, max } => tr!(
            lang,
            "The amount {amount} is out of range: use a whole number from {min} to {max}.",
            "金額 {amount} は範囲外。{min} から {max} までの整数にしてください。"
        ),
        E::BalanceOutOfRange { balance, max } => tr!(
            lang,
            "The balance {balance} is out of range: use 0 to {max}.",
            "残高 {balance} は範囲外。0 から {max} までにしてください。"
        ),
        E::BalanceLimit {
            balance,
            deposit,
            max,
        } => tr!(
            lang,
            "Depositing {deposit} onto {balance} would pass the balance limit of {max}.",
            "{balance} に {deposit} を入金すると残高上限 {max} を超える。"
        ),
        E::KeyEmpty => lang
            .t(
                "The idempotency key is empty: type one or generate a UUID.",
                "冪等性キーが空。入力するか UUID を生成してください。",
            )
            .into(),
        E::KeyTooLong { len, max } => {
            let len = grouped(*len as u128);
            tr!(
                lang,
                "The key has {len} characters; at most {max} are allowed (Stripe's limit).",
                "キーが {len} 文字ある。上限は {max} 文字（Stripe の上限）。"
            )
        }
        E::DescriptionTooLong { len, max } => {
            let len = grouped(*len as u128);
            tr!(
                lang,
                "The description has {len} characters; at most {max} are allowed.",
                "説明が {len} 文字ある。上限は {max} 文字。"
            )
        }
        E::AttemptsOutOfRange { attempts, min, max } => tr!(
            lang,
            "Max attempts {attempts} is out of range: use {min} to {max}.",
            "最大試行回数 {attempts} は範囲外。{min} から {max} にしてください。"
        ),
        E::TooManyFaults { faults, max } => tr!(
            lang,
            "{faults} faults were given for at most {max} attempts.",
            "最大 {max} 回の試行に {faults} 個の障害が指定された。"
        ),
        E::ParallelOutOfRange { count, min, max } => {
            let s = if *count == 1 { "" } else { "s" };
            tr!(
                lang,
                "{count} concurrent request{s}: use {min} to {max}.",
                "同時要求が {count} 件。{min} から {max} 件にしてください。"
            )
        }
        E::TooManyInputs { count, max } => tr!(
            lang,
            "{count} inputs: a run holds at most {max}. Reset or start a new sandbox.",
            "入力が {count} 件。1回の実行は最大 {max} 件。リセットするか新しいサンドボックスにしてください。"
        ),
        E::DurationOutOfRange {
            field,
            ms,
            min,
            max,
        } => {
            let f = duration_field(lang, *field);
            tr!(
                lang,
                "The {f} of {ms} ms is out of range: use {min} to {max} ms.",
                "{f} {ms} ms は範囲外。{min} から {max} ms にしてください。"
            )
        }
        E::ServicesOutOfRange { count, min, max } => tr!(
            lang,
            "{count} services chosen: pick {min} to {max}.",
            "サービスが {count} 個選ばれている。{min} から {max} 個にしてください。"
        ),
        E::RetryOverAttemptLimit { attempt, max } => tr!(
            lang,
            "This retry would be attempt {attempt} of the operation; an operation makes at most {max} attempts. Send a new charge instead.",
            "この再試行は操作の {attempt} 回目の試行になる。1つの操作の試行は最大 {max} 回。新しい請求を送ってください。"
        ),
        E::TooMuchWork { events, max } => tr!(
            lang,
            "These inputs could make a run of up to {events} events; one run records at most {max}. Remove some inputs (relay ticks after many charges cost the most).",
            "この入力では実行が最大 {events} イベントになりうる。1回の実行で記録できるのは {max} まで。入力を減らしてください（多数の請求の後のリレー実行が最も重い）。"
        ),
        E::TraceFull { max } => tr!(
            lang,
            "The run reached its limit of {max} events and stopped there.",
            "実行がイベント数の上限 {max} に達し、そこで止まった。"
        ),
        E::UrlTooLong { bytes, max } => tr!(
            lang,
            "The link is {bytes} bytes; links up to {max} bytes are accepted. Use JSON export instead.",
            "リンクが {bytes} バイトある。上限は {max} バイト。JSON の書き出しを使ってください。"
        ),
        E::JsonTooLarge { bytes, max } => tr!(
            lang,
            "The JSON is {bytes} bytes; at most {max} are accepted.",
            "JSON が {bytes} バイトある。上限は {max} バイト。"
        ),
        // `message` is the JSON reader's own English detail, in both languages.
        E::JsonInvalid {
            line,
            column,
            message,
        } => tr!(
            lang,
            "This is not a scenario this page can read (line {line}, column {column}: {message}).",
            "このページで読めるシナリオではない（{line} 行 {column} 列：{message}）。"
        ),
        E::UnsupportedVersion { version, supported } => tr!(
            lang,
            "This scenario is version {version}; this page reads version {supported}.",
            "このシナリオはバージョン {version}。このページが読めるのはバージョン {supported}。"
        ),
        E::NotAWholeNumber { text } => tr!(
            lang,
            "“{text}” is not a whole number: type digits only, like 100.",
            "「{text}」は整数ではない。100 のように数字だけを入力してください。"
        ),
        E::Overflow { quantity } => {
            let q = match quantity {
                Quantity::Time => lang.t("simulated time", "シミュレーション時間"),
                Quantity::Balance => lang.t("the balance", "残高"),
                _ => lang.t("a counter", "カウンタ"),
            };
            tr!(
                lang,
                "The run stopped: {q} would overflow.",
                "実行が止まった：{q}が桁あふれする。"
            )
        }
    }
}

/// What kind of input an input is, in a few words (for the message of a halted run).
pub fn input_kind(lang: Lang, input: &Input) -> &'static str {
    match input {
        Input::Request { .. } => lang.t("a charge", "請求"),
        Input::Operation { .. } => lang.t("a retrying client", "リトライするクライアント"),
        Input::Parallel { .. } => lang.t("concurrent requests", "同時リクエスト"),
        Input::Retry { .. } => lang.t("a retry by hand", "手動のリトライ"),
        Input::AdvanceTime { .. } => lang.t("time passing", "時間の経過"),
        Input::RelayTick { .. } => lang.t("a relay run", "リレーの実行"),
        Input::Deposit { .. } => lang.t("a deposit", "入金"),
    }
}

/// Why a world stopped part-way, naming the step and the input that was running. Inputs are
/// costed when they are added, so this is a safety net; when it is met, the learner is told.
pub fn halt_text(lang: Lang, world: &World, halt: &Halt) -> String {
    let step = halt.after_step;
    let reason = input_error(lang, &halt.reason);
    match halt.input.and_then(|n| world.input_at(n).map(|i| (n + 1, input_kind(lang, i)))) {
        Some((n, kind)) => tr!(
            lang,
            "This column stopped after step {step}, while input {n} ({kind}) ran: {reason} Nothing after it ran.",
            "この列はステップ {step} の後、入力 {n}（{kind}）の実行中に止まった：{reason} それ以降は何も実行していない。"
        ),
        None => tr!(
            lang,
            "This column stopped after step {step}: {reason} Nothing after it ran.",
            "この列はステップ {step} の後に止まった：{reason} それ以降は何も実行していない。"
        ),
    }
}

/// The name of a lab text field whose number could not be read.
pub fn number_field(lang: Lang, f: NumberField) -> &'static str {
    match f {
        NumberField::Requests => lang.t("requests", "リクエスト数"),
        NumberField::Amounts => lang.t("amounts", "金額"),
        NumberField::Balance => lang.t("initial balance", "初期残高"),
        NumberField::Seed => lang.t("seed", "シード"),
        NumberField::Samples => lang.t("samples", "サンプル数"),
        NumberField::Schedule => lang.t("schedule", "スケジュール"),
    }
}

/// A lab error as a message that says what to do instead. Requests and schedule entries are
/// numbered from 1, as the page shows them.
pub fn lab_error(lang: Lang, e: &LabError) -> String {
    match e {
        LabError::RequestCount { requests } => tr!(
            lang,
            "{requests} requests: choose between {MIN_PARALLEL_REQUESTS} (one request is not concurrency) and {MAX_PARALLEL_REQUESTS}",
            "リクエスト数 {requests}: {MIN_PARALLEL_REQUESTS}（1件では並行にならない）から {MAX_PARALLEL_REQUESTS} の間で選んでください"
        ),
        LabError::AmountCount { given, requests } => tr!(
            lang,
            "{given} amounts for {requests} requests: give one amount for all, or one per request",
            "{requests}件のリクエストに金額が{given}個: 全体に1つ、またはリクエストごとに1つ指定してください"
        ),
        LabError::Amount { request, amount } => {
            let r = request + 1;
            tr!(
                lang,
                "request {r}: amount {amount} is outside {MIN_AMOUNT}..={MAX_AMOUNT}",
                "リクエスト{r}: 金額 {amount} は {MIN_AMOUNT}..={MAX_AMOUNT} の範囲外です"
            )
        }
        LabError::Balance { balance } => tr!(
            lang,
            "initial balance {balance} is outside {MIN_BALANCE}..={MAX_BALANCE}",
            "初期残高 {balance} は {MIN_BALANCE}..={MAX_BALANCE} の範囲外です"
        ),
        LabError::NotANumber { field, text } => {
            let f = number_field(lang, *field);
            tr!(
                lang,
                "{f}: \"{text}\" is not a whole number",
                "{f}: 「{text}」は整数ではありません"
            )
        }
        LabError::ScheduleIndexOutOfRange {
            position,
            request,
            requests,
        } => {
            let (p, r) = (position + 1, request + 1);
            tr!(
                lang,
                "schedule entry {p}: there is no request {r} (there are {requests})",
                "スケジュールの{p}番目: リクエスト{r}は存在しません（{requests}件）"
            )
        }
        LabError::ScheduleBlocked {
            position,
            request,
            holder,
        } => {
            let (p, r, h) = (position + 1, request + 1, holder + 1);
            tr!(
                lang,
                "schedule entry {p}: request {r} is blocked, request {h} holds the lock",
                "スケジュールの{p}番目: リクエスト{r}はブロック中です（ロックはリクエスト{h}が保持）"
            )
        }
        LabError::ScheduleFinished { position, request } => {
            let (p, r) = (position + 1, request + 1);
            tr!(
                lang,
                "schedule entry {p}: request {r} has already finished",
                "スケジュールの{p}番目: リクエスト{r}はすでに終了しています"
            )
        }
        LabError::ScheduleTooLong { length, max } => tr!(
            lang,
            "the schedule has {length} entries but the requests have only {max} steps",
            "スケジュールは{length}ステップですが、リクエストのステップは合計{max}しかありません"
        ),
        LabError::NothingToUndo => lang
            .t(
                "nothing to step back: no step taken yet",
                "戻るステップがありません（まだ1ステップも進めていません）",
            )
            .to_string(),
        LabError::RunComplete => lang
            .t(
                "every request has finished",
                "すべてのリクエストが終了しています",
            )
            .to_string(),
        LabError::OverRawBudget { schedules: Some(n) } => tr!(
            lang,
            "{n} schedules is over the budget of {MAX_RAW_SCHEDULES} for search without caching: turn caching on or sample",
            "スケジュール数 {n} はキャッシュなし探索の上限 {MAX_RAW_SCHEDULES} を超えます。キャッシュを有効にするかサンプリングしてください"
        ),
        LabError::OverRawBudget { schedules: None } => tr!(
            lang,
            "the number of schedules does not fit in 128 bits, far over the budget of {MAX_RAW_SCHEDULES}: sample instead",
            "スケジュール数が128ビットに収まらず、上限 {MAX_RAW_SCHEDULES} を大きく超えます。サンプリングしてください"
        ),
        LabError::OverCachedBudget { requests } => tr!(
            lang,
            "{requests} requests is over the limit of {MAX_CACHED_REQUESTS} for exhaustive search: the distinct states grow about twentyfold per request and would not fit the page's memory; sample instead",
            "リクエスト数 {requests} は全探索の上限 {MAX_CACHED_REQUESTS} を超えます。異なる状態の数がリクエスト1件ごとに約20倍になり、ページのメモリに収まりません。サンプリングしてください"
        ),
        LabError::StateBudgetExceeded { states } => tr!(
            lang,
            "stopped after {states} distinct states, the budget is {MAX_EXPLORED_STATES}: sample instead",
            "異なる状態が{states}個に達したので停止しました（上限 {MAX_EXPLORED_STATES}）。サンプリングしてください"
        ),
        LabError::SampleCount { samples } => tr!(
            lang,
            "{samples} samples: choose between 1 and {MAX_SAMPLES}",
            "サンプル数 {samples}: 1 から {MAX_SAMPLES} の間で選んでください"
        ),
        LabError::CountOverflow => lang
            .t(
                "a schedule count overflowed 128 bits",
                "スケジュール数が128ビットを超えました",
            )
            .to_string(),
        LabError::MissingMarker { marker } => tr!(
            lang,
            "src/sim/article/mod.rs has no `// @lab {marker}` marker: the lab cannot show that step's code",
            "src/sim/article/mod.rs に `// @lab {marker}` マーカーがないため、このステップのコードを表示できません"
        ),
    }
}

/// Says that the lab saved in this browser, or a lab link, was not restored, and why.
pub fn restore_message(lang: Lang, origin: Origin, error: &RestoreError) -> String {
    let shown = match origin {
        Origin::Storage => lang.t(
            "The saved lab could not be restored, so the default lab is shown.",
            "保存されたラボを復元できなかったので、既定のラボを表示している。",
        ),
        Origin::Link => lang.t(
            "This lab link is damaged, so the default lab is shown.",
            "このラボのリンクは壊れているので、既定のラボを表示している。",
        ),
    };
    let why = match error {
        RestoreError::TooLong { bytes } => tr!(
            lang,
            "It is too long ({bytes} bytes; at most {MAX_URL_BYTES} are read).",
            "長すぎる（{bytes} バイト、読めるのは {MAX_URL_BYTES} バイトまで）。"
        ),
        RestoreError::Unreadable => return shown.to_string(),
        RestoreError::UnknownVersion { version } => tr!(
            lang,
            "It was written in another format (version {version}).",
            "別の形式（バージョン {version}）で書かれている。"
        ),
        RestoreError::Invalid(e) => lab_error(lang, e),
    };
    // English puts a space between sentences; Japanese does not.
    tr!(lang, "{shown} {why}", "{shown}{why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_errors_say_what_to_fix_in_both_languages() {
        let e = InputError::KeyTooLong { len: 300, max: 255 };
        assert_eq!(
            input_error(Lang::En, &e),
            "The key has 300 characters; at most 255 are allowed (Stripe's limit)."
        );
        assert_eq!(
            input_error(Lang::Ja, &e),
            "キーが 300 文字ある。上限は 255 文字（Stripe の上限）。"
        );
        // The real length, grouped, however long the key is.
        let e = InputError::KeyTooLong {
            len: 5000,
            max: 255,
        };
        assert_eq!(
            input_error(Lang::En, &e),
            "The key has 5,000 characters; at most 255 are allowed (Stripe's limit)."
        );
        let e = InputError::UnsupportedVersion {
            version: 9,
            supported: 1,
        };
        assert!(input_error(Lang::En, &e).contains("version 9"));
        assert!(input_error(Lang::Ja, &e).contains("バージョン 9"));
        let one = InputError::ParallelOutOfRange {
            count: 1,
            min: 2,
            max: 10,
        };
        assert_eq!(
            input_error(Lang::En, &one),
            "1 concurrent request: use 2 to 10."
        );
    }

    #[test]
    fn every_lab_error_has_both_messages() {
        let errors = [
            LabError::RequestCount { requests: 1 },
            LabError::AmountCount {
                given: 2,
                requests: 3,
            },
            LabError::Amount {
                request: 0,
                amount: 0,
            },
            LabError::Balance { balance: -1 },
            LabError::NotANumber {
                field: NumberField::Seed,
                text: "x".into(),
            },
            LabError::ScheduleIndexOutOfRange {
                position: 0,
                request: 4,
                requests: 2,
            },
            LabError::ScheduleBlocked {
                position: 1,
                request: 1,
                holder: 0,
            },
            LabError::ScheduleFinished {
                position: 3,
                request: 0,
            },
            LabError::ScheduleTooLong { length: 7, max: 6 },
            LabError::NothingToUndo,
            LabError::RunComplete,
            LabError::OverRawBudget { schedules: Some(1) },
            LabError::OverRawBudget { schedules: None },
            LabError::OverCachedBudget { requests: 6 },
            LabError::StateBudgetExceeded { states: 1 },
            LabError::SampleCount { samples: 0 },
            LabError::CountOverflow,
            LabError::MissingMarker { marker: "x" },
        ];
        for e in errors {
            let en = lab_error(Lang::En, &e);
            let ja = lab_error(Lang::Ja, &e);
            assert!(!en.is_empty() && !ja.is_empty());
            assert_ne!(en, ja);
            assert!(!ja.is_ascii(), "{ja}");
        }
        let over = LabError::OverRawBudget {
            schedules: Some(168_168_000),
        };
        assert!(lab_error(Lang::En, &over).contains("over the budget"));
        let seed = LabError::NotANumber {
            field: NumberField::Seed,
            text: "x".into(),
        };
        assert_eq!(
            lab_error(Lang::En, &seed),
            "seed: \"x\" is not a whole number"
        );
        assert_eq!(
            lab_error(Lang::Ja, &seed),
            "シード: 「x」は整数ではありません"
        );
    }

    #[test]
    fn restore_messages_are_in_both_languages() {
        let e = RestoreError::Invalid(LabError::RequestCount { requests: 11 });
        let en = restore_message(Lang::En, Origin::Storage, &e);
        let ja = restore_message(Lang::Ja, Origin::Storage, &e);
        assert!(
            en.starts_with("The saved lab could not be restored"),
            "{en}"
        );
        assert!(ja.starts_with("保存されたラボを復元できなかった"), "{ja}");
        assert!(ja.contains("11"), "{ja}");
        let link = restore_message(Lang::En, Origin::Link, &RestoreError::Unreadable);
        assert_eq!(
            link,
            "This lab link is damaged, so the default lab is shown."
        );
        let long = restore_message(Lang::En, Origin::Link, &RestoreError::TooLong { bytes: 9 });
        assert_eq!(
            long,
            format!("This lab link is damaged, so the default lab is shown. It is too long (9 bytes; at most {MAX_URL_BYTES} are read).")
        );
    }
}
