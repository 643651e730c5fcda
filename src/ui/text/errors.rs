//! Words for what was refused: the simulation's input errors, the lab's errors, and why a saved
//! or linked lab was not restored. Each message says what to fix.

use crate::sim::lab::{LabError, NumberField};
use crate::sim::limits::{
    DurationField, InputError, NumberProblem, Quantity, TypedField, TypedNumberError, MAX_AMOUNT,
    MAX_BALANCE, MAX_CACHED_REQUESTS, MAX_EXPLORED_STATES, MAX_PARALLEL_REQUESTS,
    MAX_RAW_SCHEDULES, MAX_SAMPLES, MAX_URL_BYTES, MIN_AMOUNT, MIN_BALANCE, MIN_PARALLEL_REQUESTS,
};
use crate::sim::{Halt, Input, World};
use crate::ui::i18n::{tr, Lang};
use crate::ui::share::{Origin, RestoreError};

use super::grouped;

/// A count with its noun in English, singular for one ("1 request", "2 requests"); Japanese
/// has no plural, so its words are written beside the number in each message.
fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

/// A whole number for reading: thousands grouped, a minus sign for negatives.
pub fn signed(n: i128) -> String {
    // Limits and typed numbers past 64 bits are not quoted (see `number_error`).
    let digits = u64::try_from(n.unsigned_abs()).map_or_else(|_| "…".into(), grouped);
    if n < 0 {
        format!("−{digits}")
    } else {
        digits
    }
}

/// `n` as a grouped number (for the sizes and counts in messages).
fn g(n: impl TryInto<u64>) -> String {
    n.try_into().map(grouped).unwrap_or_default()
}

/// A character a key may not hold: itself in quotes and its code point (“é” (U+00E9)), or the
/// code point alone for an invisible one (a control character, a space that is not 0x20). In
/// Japanese the bare code point brings its own space (が U+0009, but が「é」).
pub fn key_char(lang: Lang, code: u32) -> String {
    // U+ and at least four hex digits, written out (cheaper in the wasm than `{:04X}`).
    let mut u = String::from("U+");
    let digits = (8 - code.leading_zeros().min(28) / 4).max(4);
    for i in (0..digits).rev() {
        u.push(
            char::from_digit((code >> (4 * i)) & 0xF, 16).map_or('0', |d| d.to_ascii_uppercase()),
        );
    }
    match char::from_u32(code) {
        Some(c) if !c.is_control() && !c.is_whitespace() => {
            let mut out = String::from(lang.t("“", "「"));
            out.push(c);
            out.push_str(lang.t("” (", "」（"));
            out.push_str(&u);
            out.push_str(lang.t(")", "）"));
            out
        }
        _ => lang.t("", " ").to_string() + &u,
    }
}

/// A refused typed number, as a message that names the field (`field`, as its label reads) and
/// the real problem: empty, not a whole number, negative, too small or too large, with the range.
pub fn number_error(lang: Lang, field: &str, e: &TypedNumberError) -> String {
    let (min, max) = (signed(e.min), signed(e.max));
    // The number as read (grouped); one beyond 64 bits has more digits than a message quotes.
    let quoted = e.value.filter(|v| v.unsigned_abs() <= u128::from(u64::MAX));
    let typed = quoted.map_or_else(
        || lang.t("the number typed", "入力した数").to_string(),
        signed,
    );
    // Japanese spaces a number from its particle, not a word.
    let sp = if quoted.is_some() { " " } else { "" };
    let text = &e.text;
    match e.problem {
        NumberProblem::Empty => tr!(
            lang,
            "{field} is empty: type a whole number from {min} to {max}.",
            "{field}が空。{min} から {max} までの整数を入力してください。"
        ),
        NumberProblem::NotANumber => tr!(
            lang,
            "{field}: “{text}” is not a whole number. Type digits only, from {min} to {max}.",
            "{field}：「{text}」は整数ではない。{min} から {max} までの整数を数字で入力してください。"
        ),
        NumberProblem::Negative => tr!(
            lang,
            "{field}: {typed} is negative. Use a whole number from {min} to {max}.",
            "{field}：{typed}{sp}は負の数。{min} から {max} までの整数にしてください。"
        ),
        NumberProblem::TooSmall => tr!(
            lang,
            "{field}: {typed} is too small. The range is {min} to {max}.",
            "{field}：{typed}{sp}は小さすぎる。範囲は {min} から {max}。"
        ),
        NumberProblem::TooLarge => tr!(
            lang,
            "{field}: {typed} is too large. The range is {min} to {max}.",
            "{field}：{typed}{sp}は大きすぎる。範囲は {min} から {max}。"
        ),
    }
}

/// The label of a playground field that takes a number, as the sandbox shows it.
pub fn typed_field(lang: Lang, f: TypedField) -> &'static str {
    match f {
        TypedField::Amount => lang.t("Amount", "金額"),
        TypedField::Deposit => lang.t("Deposit", "入金"),
        TypedField::ConcurrentRequests => lang.t("Requests at once", "同時に送る数"),
        TypedField::MaxAttempts => lang.t("Max attempts", "最大試行回数"),
        TypedField::PropertyCases => lang.t("Cases", "ケース数"),
        TypedField::PropertySeed => lang.t("Seed", "シード"),
    }
}

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
        DurationField::ProcessorLatency => lang.t("processor answer time", "決済代行の応答時間"),
        DurationField::ProcessorSlow => {
            lang.t("slow processor's answer time", "遅い決済代行の応答時間")
        }
    }
}

/// An input error as a message that says what to fix.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one message per input error"
)]
pub fn input_error(lang: Lang, e: &InputError) -> String {
    use InputError as E;
    match e {
        E::StoreCapacityOutOfRange { capacity, max } => {
            let (capacity, max) = (g(*capacity), g(*max));
            tr!(
                lang,
                "A key store of {capacity} keys is too large: use 0 (no limit) to {max}.",
                "キーストアの容量 {capacity} は大きすぎる。0（無制限）から {max} にしてください。"
            )
        }
        E::AmountOutOfRange { amount, min, max } => {
            let (amount, min, max) = (signed(i128::from(*amount)), g(*min), g(*max));
            tr!(
                lang,
                "The amount {amount} is out of range: use a whole number from {min} to {max}.",
                "金額 {amount} は範囲外。{min} から {max} までの整数にしてください。"
            )
        }
        E::BalanceOutOfRange { balance, max } => {
            let (balance, max) = (signed(i128::from(*balance)), g(*max));
            tr!(
                lang,
                "The balance {balance} is out of range: use 0 to {max}.",
                "残高 {balance} は範囲外。0 から {max} までにしてください。"
            )
        }
        E::BalanceLimit {
            balance,
            deposit,
            max,
        } => {
            let (balance, deposit, max) = (g(*balance), g(*deposit), g(*max));
            tr!(
                lang,
                "Depositing {deposit} onto {balance} would pass the balance limit of {max}.",
                "{balance} に {deposit} を入金すると残高上限 {max} を超える。"
            )
        }
        E::KeyEmpty => lang
            .t(
                "The idempotency key is empty: type one or generate a UUID.",
                "冪等性キーが空。入力するか UUID を生成してください。",
            )
            .into(),
        E::KeyTooLong { len, max } => {
            let len = grouped(*len as u64);
            tr!(
                lang,
                "The key has {len} characters; at most {max} are allowed (Stripe's limit).",
                "キーが {len}文字ある。上限は {max}文字（Stripe の上限）。"
            )
        }
        E::KeyNotSfString { at, code } => {
            let shown = key_char(lang, *code);
            tr!(
                lang,
                "Character {at} of the key is {shown}: an Idempotency-Key is an RFC 8941 sf-string, printable ASCII only (0x20–0x7E, space to ~).",
                "キーの {at}文字目が{shown}。Idempotency-Key は RFC 8941 の sf-string で、表示できる ASCII（0x20〜0x7E、空白から ~ まで）だけ。"
            )
        }
        E::DescriptionTooLong { len, max } => {
            let len = grouped(*len as u64);
            tr!(
                lang,
                "The description has {len} characters; at most {max} are allowed.",
                "説明が {len}文字ある。上限は {max}文字。"
            )
        }
        E::AttemptsOutOfRange { attempts, min, max } => tr!(
            lang,
            "Max attempts {attempts} is out of range: use {min} to {max}.",
            "最大試行回数 {attempts} は範囲外。{min} から {max} にしてください。"
        ),
        E::TooManyFaults { faults, max } => {
            let (given, attempts) = (count(*faults as u64, "fault was", "faults were"), count(*max as u64, "attempt", "attempts"));
            let (faults, max) = (g(*faults), g(*max));
            tr!(
                lang,
                "{given} given for at most {attempts}.",
                "最大 {max}回の試行に {faults}個の障害が指定された。"
            )
        }
        E::ParallelOutOfRange {
            count: n,
            min,
            max,
        } => {
            let requests = count(*n as u64, "concurrent request", "concurrent requests");
            let n = g(*n);
            tr!(
                lang,
                "{requests}: use {min} to {max}.",
                "同時リクエストが {n}件。{min} から {max}件にしてください。"
            )
        }
        E::TooManyInputs { count: n, max } => {
            let (inputs, n, max) = (count(*n as u64, "input", "inputs"), g(*n), g(*max));
            tr!(
                lang,
                "{inputs}: a run holds at most {max}. Clear the sandbox or remove some inputs.",
                "入力が {n}件。1回の実行は最大 {max}件。サンドボックスを空にするか、入力を減らしてください。"
            )
        }
        E::DurationOutOfRange {
            field,
            ms,
            min,
            max,
        } => {
            let f = duration_field(lang, *field);
            let (ms, min, max) = (g(*ms), g(*min), g(*max));
            tr!(
                lang,
                "The {f} of {ms} ms is out of range: use {min} to {max} ms.",
                "{f} {ms} ms は範囲外。{min} から {max} ms にしてください。"
            )
        }
        E::ServicesOutOfRange { count: n, min, max } => {
            let chosen = count(*n as u64, "service", "services");
            tr!(
                lang,
                "{chosen} chosen: pick {min} to {max}.",
                "サービスが {n}個選ばれている。{min} から {max}個にしてください。"
            )
        }
        E::NoSuchOperation { op, count } => {
            let (n, count) = (u64::from(*op) + 1, g(*count));
            tr!(
                lang,
                "There is no client #{n} at this step (there are {count}): pick one that has started.",
                "このステップにはクライアント #{n} がいない（{count}個ある）。始まっているものを選んでください。"
            )
        }
        E::NoSuchAttempt { op, attempt, max } => {
            let n = u64::from(*op) + 1;
            tr!(
                lang,
                "Client #{n} makes at most {max} attempts, so it has no attempt {attempt}.",
                "クライアント #{n} の試行は最大 {max}回なので、試行 {attempt} はない。"
            )
        }
        E::FaultTooLate { op, attempt } => {
            let n = u64::from(*op) + 1;
            tr!(
                lang,
                "Attempt {attempt} of #{n} already reached the server (or was lost) at this step: that part of the run is past. Step back to before it arrives, or pick a later attempt.",
                "#{n} の試行 {attempt} はこのステップではもうサーバーに届いている（または消えた）。その部分は過去。届く前まで戻るか、後の試行を選んでください。"
            )
        }
        E::BranchOnly => lang
            .t(
                "A fault change names an attempt at a step, so it can only be a fork (in “branch”), not a script input.",
                "障害の変更はあるステップの試行を指すので、フォーク（branch）にしか書けない。スクリプトの入力には使えない。",
            )
            .into(),
        E::BranchPastEnd { at_step, end } => tr!(
            lang,
            "A fork at step {at_step} was not made: the run ends at step {end}.",
            "ステップ {at_step} のフォークは行わなかった。実行はステップ {end} で終わる。"
        ),
        E::BranchOutOfOrder { at_step, previous } => tr!(
            lang,
            "The forks are out of order: step {at_step} comes after step {previous}.",
            "フォークの順序が違う：ステップ {at_step} がステップ {previous} の後にある。"
        ),
        E::RetryOverAttemptLimit { attempt, max } => tr!(
            lang,
            "This retry would be attempt {attempt} of the operation; an operation makes at most {max} attempts. Send a new charge instead.",
            "この再試行は操作の {attempt}回目の試行になる。1つの操作の試行は最大 {max}回。新しい請求を送ってください。"
        ),
        E::TooMuchWork { events, max } => {
            let (events, max) = (g(*events), g(*max));
            tr!(
            lang,
            "These inputs could make a run of up to {events} events; one run records at most {max}. Remove some inputs (relay ticks after many charges cost the most).",
            "この入力では実行が最大 {events} イベントになりうる。1回の実行で記録できるのは {max} まで。入力を減らしてください（多数の請求の後のリレー実行が最も重い）。"
        )
        }
        E::TraceFull { max } => {
            let max = g(*max);
            tr!(
                lang,
                "The run reached its limit of {max} events and stopped there.",
                "実行がイベント数の上限 {max} に達し、そこで止まった。"
            )
        }
        E::UrlTooLong { bytes, max } => {
            let (bytes, max) = (g(*bytes), g(*max));
            tr!(
                lang,
                "The link is {bytes} bytes; links up to {max} bytes are accepted. Use JSON export instead.",
                "リンクが {bytes}バイトある。上限は {max}バイト。JSON の書き出しを使ってください。"
            )
        }
        E::JsonTooLarge { bytes, max } => {
            let (bytes, max) = (g(*bytes), g(*max));
            tr!(
                lang,
                "The JSON is {bytes} bytes; at most {max} are accepted.",
                "JSON が {bytes}バイトある。上限は {max}バイト。"
            )
        }
        // `message` is the JSON reader's own English detail, in both languages.
        E::JsonInvalid {
            line,
            column,
            message,
        } => tr!(
            lang,
            "This is not a scenario this page can read (line {line}, column {column}: {message}).",
            "このページで読めるシナリオではない（{line}行 {column}列：{message}）。"
        ),
        E::UnsupportedVersion { version, supported } => tr!(
            lang,
            "This scenario is version {version}; this page reads version {supported}.",
            "このシナリオはバージョン {version}。このページが読めるのはバージョン {supported}。"
        ),
        E::BadNumber { field, number } => number_error(lang, typed_field(lang, *field), number),
        E::Overflow { quantity } => {
            let q = match quantity {
                Quantity::Time => lang.t("simulated time", "シミュレーション時間"),
                Quantity::Balance => lang.t("the balance", "残高"),
                _ => lang.t("a counter", "カウンター"),
            };
            tr!(
                lang,
                "The run stopped: {q} would overflow.",
                "実行が止まった：{q}が桁あふれする。"
            )
        }
        E::AccountOutOfRange { account, max } => tr!(
            lang,
            "Account {account} does not exist: use 0 to {max}.",
            "アカウント {account} はない。0 から {max} までにしてください。"
        ),
        E::CallerWrapsOnlyRequests => lang
            .t(
                "A caller sends one charge or one retrying client, nothing else.",
                "呼び出し元が送れるのは1件の請求か1つのリトライするクライアントだけ。",
            )
            .into(),
        E::KeyWithoutKeyHeader => lang
            .t(
                "A request sent without a key cannot carry one: clear the key field.",
                "キーなしで送るリクエストにキーは付けられない。キー欄を空にしてください。",
            )
            .into(),
        E::MissingKey => lang
            .t(
                "400: this resource requires an Idempotency-Key.",
                "400：このリソースには Idempotency-Key が必要。",
            )
            .into(),
    }
}

/// Why fork `i` (from 0) of a run's branch, from a link, a saved run or an import, was not made;
/// the run opened without it.
pub fn fork_refused(lang: Lang, i: usize, e: &InputError) -> String {
    let (n, why) = (i + 1, input_error(lang, e));
    tr!(
        lang,
        "Fork {n} of this run could not be made, so the run goes on without it: {why}",
        "この実行の分岐 {n} は行えなかったので、それなしで続ける：{why}"
    )
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
        Input::SetFault { .. } => lang.t("a fault change", "障害の変更"),
        Input::Crash => lang.t("a server crash", "サーバーのクラッシュ"),
        Input::As { input, .. } => input_kind(lang, input),
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

/// The label of a lab field that takes numbers, as the lab shows it.
pub fn number_field(lang: Lang, f: NumberField) -> &'static str {
    match f {
        NumberField::Requests => lang.t("Concurrent requests", "同時リクエスト数"),
        NumberField::Amounts => lang.t("Amounts", "金額"),
        NumberField::Balance => lang.t("Initial balance", "初期残高"),
        NumberField::Seed => lang.t("Seed", "シード"),
        NumberField::Samples => lang.t("Schedules to try", "試すスケジュール数"),
        NumberField::Schedule => lang.t(
            "Schedule (request numbers)",
            "スケジュール（リクエスト番号）",
        ),
    }
}

/// A lab error as a message that says what to do instead. Requests and schedule entries are
/// numbered from 1, as the page shows them.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one message per lab error"
)]
pub fn lab_error(lang: Lang, e: &LabError) -> String {
    match e {
        LabError::RequestCount { requests } => {
            let n = count(*requests as u64, "request", "requests");
            let k = g(*requests);
            tr!(
                lang,
                "{n}: choose between {MIN_PARALLEL_REQUESTS} (one request is not concurrency) and {MAX_PARALLEL_REQUESTS}",
                "リクエスト数 {k}：{MIN_PARALLEL_REQUESTS}（1件では並行にならない）から {MAX_PARALLEL_REQUESTS} の間で選んでください"
            )
        }
        LabError::AmountCount { given, requests } => {
            let (amounts, for_requests) = (
                count(*given as u64, "amount", "amounts"),
                count(*requests as u64, "request", "requests"),
            );
            tr!(
                lang,
                "{amounts} for {for_requests}: give one amount for all, or one per request",
                "{requests}件のリクエストに金額が{given}個：全体に1つ、またはリクエストごとに1つ指定してください"
            )
        }
        LabError::Amount { request, amount } => {
            let r = request + 1;
            let (amount, min, max) = (signed(i128::from(*amount)), g(MIN_AMOUNT), g(MAX_AMOUNT));
            tr!(
                lang,
                "request {r}: amount {amount} is out of range: use {min} to {max}",
                "リクエスト{r}：金額 {amount} は範囲外です。{min} から {max} にしてください"
            )
        }
        LabError::Balance { balance } => {
            let (balance, min, max) = (signed(i128::from(*balance)), g(MIN_BALANCE), g(MAX_BALANCE));
            tr!(
                lang,
                "initial balance {balance} is out of range: use {min} to {max}",
                "初期残高 {balance} は範囲外です。{min} から {max} にしてください"
            )
        }
        LabError::BadNumber { field, number } => number_error(lang, number_field(lang, *field), number),
        LabError::ScheduleIndexOutOfRange {
            position,
            request,
            requests,
        } => {
            let (p, r) = (position + 1, request + 1);
            tr!(
                lang,
                "schedule entry {p}: there is no request {r} (there are {requests})",
                "スケジュールの{p}番目：リクエスト{r}は存在しません（{requests}件）"
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
                "スケジュールの{p}番目：リクエスト{r}はブロック中です（ロックはリクエスト{h}が保持）"
            )
        }
        LabError::ScheduleFinished { position, request } => {
            let (p, r) = (position + 1, request + 1);
            tr!(
                lang,
                "schedule entry {p}: request {r} has already finished",
                "スケジュールの{p}番目：リクエスト{r}はすでに終了しています"
            )
        }
        LabError::ScheduleTooLong { length, max } => {
            let (entries, steps) = (count(*length as u64, "entry", "entries"), count(*max as u64, "step", "steps"));
            tr!(
            lang,
            "the schedule has {entries} but the requests have only {steps}",
            "スケジュールは{length}ステップですが、リクエストのステップは合計{max}しかありません"
        )
        }
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
        LabError::OverRawBudget { schedules: Some(n) } => {
            let (n, budget) = (g(*n), g(MAX_RAW_SCHEDULES));
            tr!(
                lang,
                "{n} schedules: over the budget of {budget} for search without caching. Turn caching on or sample",
                "スケジュール数 {n} はキャッシュなし探索の上限 {budget} を超えます。キャッシュを有効にするかサンプリングしてください"
            )
        }
        LabError::OverRawBudget { schedules: None } => {
            let budget = g(MAX_RAW_SCHEDULES);
            tr!(
                lang,
                "the number of schedules does not fit in 128 bits, far over the budget of {budget}: sample instead",
                "スケジュール数が128ビットに収まらず、上限 {budget} を大きく超えます。サンプリングしてください"
            )
        }
        LabError::OverCachedBudget { requests } => {
            let n = count(*requests as u64, "request", "requests");
            tr!(
                lang,
                "{n}: over the limit of {MAX_CACHED_REQUESTS} for exhaustive search. The distinct states grow about twentyfold per request and would not fit the page's memory; sample instead",
                "リクエスト数 {requests} は全探索の上限 {MAX_CACHED_REQUESTS} を超えます。異なる状態の数がリクエスト1件ごとに約20倍になり、ページのメモリに収まりません。サンプリングしてください"
            )
        }
        LabError::StateBudgetExceeded { states } => {
            let (states, budget) = (g(*states), g(MAX_EXPLORED_STATES));
            tr!(
                lang,
                "stopped after {states} distinct states, the budget is {budget}: sample instead",
                "異なる状態が{states}個に達したので停止しました（上限 {budget}）。サンプリングしてください"
            )
        }
        LabError::SampleCount { samples } => {
            let (n, max) = (g(*samples), g(MAX_SAMPLES));
            tr!(
                lang,
                "{n} samples: choose between 1 and {max}",
                "サンプル数 {n}：1 から {max} の間で選んでください"
            )
        }
        LabError::CountOverflow => lang
            .t(
                "a schedule count overflowed 128 bits",
                "スケジュール数が128ビットを超えました",
            )
            .to_string(),
        LabError::MissingMarker { marker } => tr!(
            lang,
            "src/sim/article/mod.rs has no “// @lab {marker}” marker: the lab cannot show that step's code",
            "src/sim/article/mod.rs に「// @lab {marker}」マーカーがないため、このステップのコードを表示できません"
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
        RestoreError::TooLong { bytes } => {
            let (bytes, max) = (g(*bytes), g(MAX_URL_BYTES));
            tr!(
                lang,
                "It is too long ({bytes} bytes; at most {max} are read).",
                "長すぎる（{bytes}バイト、読めるのは {max}バイトまで）。"
            )
        }
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
            "キーが 300文字ある。上限は 255文字（Stripe の上限）。"
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
    #[expect(
        clippy::too_many_lines,
        reason = "a table of cases: one of each lab error"
    )]
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
            LabError::BadNumber {
                field: NumberField::Seed,
                number: crate::sim::lab::parse_seed("x")
                    .map(|_| ())
                    .map_err(|e| match e {
                        LabError::BadNumber { number, .. } => number,
                        other => panic!("{other:?}"),
                    })
                    .unwrap_err(),
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
        let plural = LabError::RequestCount { requests: 1 };
        assert!(
            lab_error(Lang::En, &plural).starts_with("1 request: "),
            "{}",
            lab_error(Lang::En, &plural)
        );
        let amount = LabError::Amount {
            request: 0,
            amount: 0,
        };
        assert_eq!(
            lab_error(Lang::En, &amount),
            "request 1: amount 0 is out of range: use 1 to 99,999,999"
        );
    }

    fn lab_number(field: NumberField, text: &str) -> (String, String) {
        let e = match field {
            NumberField::Seed => crate::sim::lab::parse_seed(text).map(|_| ()),
            NumberField::Amounts => crate::sim::lab::parse_amounts(text).map(|_| ()),
            NumberField::Schedule => crate::sim::lab::parse_schedule(text).map(|_| ()),
            f => crate::sim::lab::parse_integer(f, text).map(|_| ()),
        }
        .unwrap_err();
        (lab_error(Lang::En, &e), lab_error(Lang::Ja, &e))
    }

    fn sandbox_number(field: TypedField, text: &str) -> (String, String) {
        let e = crate::sim::limits::read_field(field, text).unwrap_err();
        (input_error(Lang::En, &e), input_error(Lang::Ja, &e))
    }

    /// The walk's cases (issue 10, defect 7): each number error names its real problem, the
    /// field, and the range as people write it (grouped, "A to B", never a Rust range).
    #[test]
    #[expect(
        clippy::too_many_lines,
        reason = "a table of cases: each number error and its two messages"
    )]
    fn number_errors_name_the_real_problem_and_the_range() {
        use NumberField as L;
        use TypedField as S;
        let cases = [
            (
                sandbox_number(S::ConcurrentRequests, "-1"),
                "Requests at once: −1 is negative. Use a whole number from 2 to 10.",
                "同時に送る数：−1 は負の数。2 から 10 までの整数にしてください。",
            ),
            (
                sandbox_number(S::ConcurrentRequests, "abc"),
                "Requests at once: “abc” is not a whole number. Type digits only, from 2 to 10.",
                "同時に送る数：「abc」は整数ではない。2 から 10 までの整数を数字で入力してください。",
            ),
            (
                sandbox_number(S::ConcurrentRequests, "1"),
                "Requests at once: 1 is too small. The range is 2 to 10.",
                "同時に送る数：1 は小さすぎる。範囲は 2 から 10。",
            ),
            (
                sandbox_number(S::MaxAttempts, "abc"),
                "Max attempts: “abc” is not a whole number. Type digits only, from 1 to 20.",
                "最大試行回数：「abc」は整数ではない。1 から 20 までの整数を数字で入力してください。",
            ),
            (
                sandbox_number(S::Deposit, "-100"),
                "Deposit: −100 is negative. Use a whole number from 1 to 99,999,999.",
                "入金：−100 は負の数。1 から 99,999,999 までの整数にしてください。",
            ),
            (
                sandbox_number(S::Amount, "100000000"),
                "Amount: 100,000,000 is too large. The range is 1 to 99,999,999.",
                "金額：100,000,000 は大きすぎる。範囲は 1 から 99,999,999。",
            ),
            (
                sandbox_number(S::Amount, " "),
                "Amount is empty: type a whole number from 1 to 99,999,999.",
                "金額が空。1 から 99,999,999 までの整数を入力してください。",
            ),
            (
                lab_number(L::Seed, "-1"),
                "Seed: −1 is negative. Use a whole number from 0 to 18,446,744,073,709,551,615.",
                "シード：−1 は負の数。0 から 18,446,744,073,709,551,615 までの整数にしてください。",
            ),
            (
                lab_number(L::Requests, "1"),
                "Concurrent requests: 1 is too small. The range is 2 to 10.",
                "同時リクエスト数：1 は小さすぎる。範囲は 2 から 10。",
            ),
            (
                lab_number(L::Amounts, "100, 0"),
                "Amounts: 0 is too small. The range is 1 to 99,999,999.",
                "金額：0 は小さすぎる。範囲は 1 から 99,999,999。",
            ),
            (
                lab_number(L::Balance, "99999999999999999999999999999999999999999"),
                "Initial balance: the number typed is too large. The range is 0 to 1,000,000,000,000.",
                "初期残高：入力した数は大きすぎる。範囲は 0 から 1,000,000,000,000。",
            ),
            (
                lab_number(L::Samples, "2000000"),
                "Schedules to try: 2,000,000 is too large. The range is 1 to 1,000,000.",
                "試すスケジュール数：2,000,000 は大きすぎる。範囲は 1 から 1,000,000。",
            ),
            (
                lab_number(L::Schedule, "1 0"),
                "Schedule (request numbers): 0 is too small. The range is 1 to 10.",
                "スケジュール（リクエスト番号）：0 は小さすぎる。範囲は 1 から 10。",
            ),
        ];
        for ((en, ja), want_en, want_ja) in cases {
            assert_eq!(en, want_en);
            assert_eq!(ja, want_ja);
        }
        // Big counts are grouped, and a count of one is singular.
        let e = InputError::JsonTooLarge {
            bytes: 70_000,
            max: 65_536,
        };
        assert_eq!(
            input_error(Lang::En, &e),
            "The JSON is 70,000 bytes; at most 65,536 are accepted."
        );
        let faults = InputError::TooManyFaults { faults: 2, max: 1 };
        assert_eq!(
            input_error(Lang::En, &faults),
            "2 faults were given for at most 1 attempt."
        );
        let over = LabError::OverRawBudget {
            schedules: Some(168_168_000),
        };
        assert_eq!(
            lab_error(Lang::En, &over),
            "168,168,000 schedules: over the budget of 5,000,000 for search without caching. Turn caching on or sample"
        );
        // No message anywhere keeps a Rust range.
        for e in [
            LabError::Amount {
                request: 0,
                amount: 0,
            },
            LabError::Balance { balance: -1 },
        ] {
            for lang in [Lang::En, Lang::Ja] {
                assert!(
                    !lab_error(lang, &e).contains("..="),
                    "{}",
                    lab_error(lang, &e)
                );
            }
        }
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
            "This lab link is damaged, so the default lab is shown. It is too long (9 bytes; at most 8,192 are read)."
        );
    }
}
