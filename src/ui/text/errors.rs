//! Words for what was refused: the simulation's input errors. Each message says what to fix.

use crate::sim::limits::{DurationField, InputError, Quantity};
use crate::ui::i18n::{tr, Lang};

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
        E::KeyTooLong { len, max } => tr!(
            lang,
            "The key has {len} characters; at most {max} are allowed (Stripe's limit).",
            "キーが {len} 文字ある。上限は {max} 文字（Stripe の上限）。"
        ),
        E::DescriptionTooLong { len, max } => tr!(
            lang,
            "The description has {len} characters; at most {max} are allowed.",
            "説明が {len} 文字ある。上限は {max} 文字。"
        ),
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
