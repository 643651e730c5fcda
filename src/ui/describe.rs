//! Words for the core's data: every enum the simulation returns is turned into Japanese or English
//! text here, so the core never formats display strings.

use crate::sim::limits::{DurationField, InputError, Quantity};
use crate::sim::EmitMode;
use crate::sim::Fault;
use crate::sim::PaymentResult;
use crate::sim::ServiceKind;
use crate::sim::World;
use crate::sim::{ChargeFailure, CheckOutcome, CrashPoint, EventKind};
use crate::sim::{FailureCaching, MismatchStatus, RecordState};
use crate::sim::{Invariant, Violation, ViolationDetail};

use super::i18n::Lang;
use super::playground::timeline::Tone;

/// Shortens a long key (a UUID) for tables and the timeline; the full key is in a tooltip.
pub fn short_key(key: &str) -> String {
    if key.chars().count() <= 14 {
        key.to_string()
    } else {
        let head: String = key.chars().take(8).collect();
        format!("{head}…")
    }
}

/// A key's text in a world, shortened.
pub fn key_label(world: &World, id: crate::sim::KeyId) -> String {
    world
        .key_text(id)
        .map(|k| short_key(&k))
        .unwrap_or_else(|| "?".into())
}

/// The service's display name.
pub fn service_name(lang: Lang, kind: ServiceKind) -> &'static str {
    match kind {
        ServiceKind::Naive => lang.t("Naive", "素朴"),
        ServiceKind::Idempotent => lang.t("Idempotent", "冪等"),
        ServiceKind::TocTou => lang.t("TOCTOU-vulnerable", "TOCTOU脆弱"),
        ServiceKind::Atomic => lang.t("Atomic", "アトミック"),
        ServiceKind::SplitStore => lang.t("Keys in a separate store", "キーを別ストアに保存"),
        ServiceKind::Production => lang.t("Production (Stripe-style)", "本番型（Stripe風）"),
    }
}

/// A column's title: the service, and its event wiring when it has any, so two columns running
/// the same service (an outbox beside a dual write) can be told apart.
pub fn column_name(lang: Lang, cfg: &crate::sim::WorldConfig) -> String {
    let name = service_name(lang, cfg.service);
    if cfg.emit == EmitMode::None {
        return name.to_string();
    }
    let consumer = if cfg.consumer_dedupes {
        ""
    } else {
        lang.t(", naive consumer", "、素朴なコンシューマ")
    };
    format!("{name} · {}{consumer}", emit_name(lang, cfg.emit))
}

/// One line on how the service works.
pub fn service_blurb(lang: Lang, kind: ServiceKind) -> &'static str {
    match kind {
        ServiceKind::Naive => lang.t(
            "No key: every request charges.",
            "キーなし。要求のたびに課金する。",
        ),
        ServiceKind::Idempotent => lang.t(
            "Caches each key's result, failures too, and replays it.",
            "キーごとの結果を失敗も含めてキャッシュし、返し直す。",
        ),
        ServiceKind::TocTou => lang.t(
            "Check, charge and store in three separate critical sections.",
            "チェック・課金・保存を3つの別々のクリティカルセクションで行う。",
        ),
        ServiceKind::Atomic => lang.t(
            "Check, charge and store in one critical section (one transaction).",
            "チェック・課金・保存を1つのクリティカルセクション（1トランザクション）で行う。",
        ),
        ServiceKind::SplitStore => lang.t(
            "Commits the charge, then writes the key to a separate cache.",
            "課金をコミットしてから、別のキャッシュにキーを書く。",
        ),
        ServiceKind::Production => lang.t(
            "In-flight record, fingerprint, expiry and failure-caching policies.",
            "処理中レコード、フィンガープリント、有効期限、失敗キャッシュの方針を持つ。",
        ),
    }
}

/// How a service announces charges downstream.
pub fn emit_name(lang: Lang, emit: EmitMode) -> &'static str {
    match emit {
        EmitMode::None => lang.t("no events", "イベントなし"),
        EmitMode::Outbox => lang.t("transactional outbox", "トランザクショナル outbox"),
        EmitMode::DualWriteCommitThenPublish => lang.t(
            "dual write: commit, then publish",
            "二重書き込み：コミット後に発行",
        ),
        EmitMode::DualWritePublishThenCommit => lang.t(
            "dual write: publish, then commit",
            "二重書き込み：発行後にコミット",
        ),
    }
}

/// A payment result as a short phrase.
pub fn result_text(lang: Lang, r: &PaymentResult) -> String {
    match r {
        PaymentResult::Success { balance } => lang.f(
            format!("Success (balance {balance})"),
            format!("成功（残高 {balance}）"),
        ),
        PaymentResult::InsufficientFunds { balance } => lang.f(
            format!("Insufficient funds (balance {balance})"),
            format!("残高不足（残高 {balance}）"),
        ),
        PaymentResult::DuplicateRequest { original_result } => {
            let inner = result_text(lang, original_result);
            lang.f(format!("Replay of: {inner}"), format!("再生：{inner}"))
        }
        PaymentResult::InFlightConflict => lang
            .t("409 Conflict: still in flight", "409 Conflict：処理中")
            .into(),
        PaymentResult::ParameterMismatch { status } => lang.f(
            format!("{status}: parameters differ from the first request"),
            format!("{status}：最初の要求とパラメータが違う"),
        ),
        PaymentResult::ProcessorError => {
            lang.t("503: processor error", "503：決済処理エラー").into()
        }
        other => lang.f(
            format!("{} ({})", other.http_status(), "invalid request"),
            format!("{}（不正な要求）", other.http_status()),
        ),
    }
}

/// A fault's name.
pub fn fault_name(lang: Lang, f: Fault) -> &'static str {
    match f {
        Fault::None => lang.t("No fault", "障害なし"),
        Fault::RequestLost => lang.t("Request lost", "要求が消失"),
        Fault::ResponseLost => lang.t("Response lost", "応答が消失"),
        Fault::CrashBeforeCharge => lang.t("Crash before the charge", "課金前にクラッシュ"),
        Fault::CrashAfterChargeBeforeRecord => lang.t(
            "Crash after the charge, before the key is recorded",
            "課金後・キー記録前にクラッシュ",
        ),
        Fault::CrashAfterCommitBeforeReply => lang.t(
            "Crash after commit, before the reply",
            "コミット後・応答前にクラッシュ",
        ),
        Fault::ProcessorError => lang.t(
            "Processor error (transient 503)",
            "決済処理エラー（一時的な503）",
        ),
    }
}

/// A store record's state.
pub fn record_state(lang: Lang, s: RecordState) -> &'static str {
    match s {
        RecordState::InFlight => lang.t("in-flight", "処理中"),
        RecordState::Completed => lang.t("completed", "完了"),
        RecordState::Expired => lang.t("expired", "期限切れ"),
    }
}

/// An invariant's name.
pub fn invariant_name(lang: Lang, i: Invariant) -> &'static str {
    match i {
        Invariant::MoneyConserved => lang.t("Money conserved", "金額の保存"),
        Invariant::OneChargePerKey => {
            lang.t("At most one charge per key", "キーごとに課金は最大1回")
        }
        Invariant::OneChargePerOperation => lang.t(
            "At most one charge per operation",
            "操作ごとに課金は最大1回",
        ),
        Invariant::ReplayIdentical => {
            lang.t("Replay returns the same result", "再生は同じ結果を返す")
        }
        Invariant::OneEventPerCharge => lang.t(
            "One event per committed charge",
            "コミットされた課金1件にイベント1件",
        ),
        Invariant::ConsumerAtMostOnce => lang.t(
            "Consumer applies each event once",
            "コンシューマは各イベントを1回だけ適用",
        ),
    }
}

/// What broke, in a sentence.
pub fn violation_text(lang: Lang, world: &World, v: &Violation) -> String {
    let what = match &v.detail {
        ViolationDetail::Money { expected, actual } => lang.f(
            format!("balance + ledger is {actual}, expected {expected}"),
            format!("残高＋台帳が {actual}、本来は {expected}"),
        ),
        ViolationDetail::KeyCharged { key, charges } => {
            let k = key_label(world, *key);
            lang.f(
                format!("key {k} charged {charges} times by this step"),
                format!("このステップまでにキー {k} で {charges} 回課金"),
            )
        }
        ViolationDetail::OperationCharged { op, charges } => lang.f(
            format!(
                "operation #{} charged {charges} times by this step",
                op.0 + 1
            ),
            format!("このステップまでに操作 #{} で {charges} 回課金", op.0 + 1),
        ),
        ViolationDetail::ReplayDiffers {
            key,
            first,
            replayed,
        } => {
            let k = key_label(world, *key);
            lang.f(
                format!(
                    "key {k} first answered “{}”, then “{}”",
                    result_text(lang, first),
                    result_text(lang, replayed)
                ),
                format!(
                    "キー {k} は最初「{}」、次に「{}」と答えた",
                    result_text(lang, first),
                    result_text(lang, replayed)
                ),
            )
        }
        ViolationDetail::OutboxMismatch { charges, rows } => lang.f(
            format!("{charges} charges but {rows} outbox rows"),
            format!("課金 {charges} 件に outbox 行 {rows} 件"),
        ),
        ViolationDetail::EventLost { id } => lang.f(
            format!("event {id} was never published: a committed charge nobody hears about"),
            format!("イベント {id} が発行されなかった：誰にも知らされない課金"),
        ),
        ViolationDetail::PhantomEvent { id } => lang.f(
            format!("event {id} was published for a charge that never committed"),
            format!("イベント {id} は、コミットされなかった課金について発行された"),
        ),
        ViolationDetail::AppliedTwice { id, applications } => lang.f(
            format!("event {id} applied {applications} times (receipt e-mails sent)"),
            format!("イベント {id} を {applications} 回適用（領収メールを送信）"),
        ),
    };
    what
}

/// One trace event: its label and tone.
pub fn event_text(lang: Lang, world: &World, e: &EventKind) -> (String, Tone) {
    use EventKind as E;
    let op = |o: &crate::sim::OpId| o.0 + 1;
    match e {
        E::ClientSend {
            op: o,
            attempt,
            key,
            amount,
        } => {
            let k = key_label(world, *key);
            (
                lang.f(
                    format!("#{} try {attempt}: charge {amount}, key {k}", op(o)),
                    format!("#{} 試行{attempt}：{amount} を課金、キー {k}", op(o)),
                ),
                Tone::Plain,
            )
        }
        E::RequestLost { op: o, .. } => (
            lang.f(
                format!("#{} request lost", op(o)),
                format!("#{} 要求が消失", op(o)),
            ),
            Tone::Bad,
        ),
        E::RequestDelivered { op: o, .. } => (
            lang.f(
                format!("#{} request arrives", op(o)),
                format!("#{} 要求が到着", op(o)),
            ),
            Tone::Plain,
        ),
        E::StoreCheck {
            op: o,
            key,
            outcome,
        } => {
            let k = key_label(world, *key);
            let (en, ja, tone) = match outcome {
                CheckOutcome::Hit => ("found: replay", "あり：再生", Tone::Good),
                CheckOutcome::Miss => ("not found: execute", "なし：実行", Tone::Plain),
                CheckOutcome::Conflict => ("in flight: 409", "処理中：409", Tone::Good),
                CheckOutcome::Mismatch => ("parameters differ", "パラメータ不一致", Tone::Good),
                CheckOutcome::Expired => ("expired: execute again", "期限切れ：再実行", Tone::Bad),
            };
            (
                lang.f(
                    format!("#{} check key {k}: {en}", op(o)),
                    format!("#{} キー {k} を確認：{ja}", op(o)),
                ),
                tone,
            )
        }
        E::Charge {
            op: o,
            amount,
            balance_after,
        } => (
            lang.f(
                format!("#{} charge {amount} → balance {balance_after}", op(o)),
                format!("#{} {amount} を課金 → 残高 {balance_after}", op(o)),
            ),
            Tone::Plain,
        ),
        E::ChargeFailed { op: o, failure } => {
            let why = match failure {
                ChargeFailure::InsufficientFunds { balance } => lang.f(
                    format!("insufficient funds ({balance})"),
                    format!("残高不足（{balance}）"),
                ),
                ChargeFailure::ProcessorError => {
                    lang.t("processor error", "決済処理エラー").to_string()
                }
            };
            (
                lang.f(
                    format!("#{} charge fails: {why}", op(o)),
                    format!("#{} 課金失敗：{why}", op(o)),
                ),
                Tone::Bad,
            )
        }
        E::StoreWrite { op: o, key, state } => {
            let k = key_label(world, *key);
            let s = record_state(lang, *state);
            (
                lang.f(
                    format!("#{} store key {k} ({s})", op(o)),
                    format!("#{} キー {k} を保存（{s}）", op(o)),
                ),
                Tone::Plain,
            )
        }
        E::StoreRelease { op: o, key } => {
            let k = key_label(world, *key);
            (
                lang.f(
                    format!("#{} release key {k}", op(o)),
                    format!("#{} キー {k} を解放", op(o)),
                ),
                Tone::Plain,
            )
        }
        E::OutboxWrite { op: o, id } => (
            lang.f(
                format!("#{} outbox row {id}", op(o)),
                format!("#{} outbox 行 {id}", op(o)),
            ),
            Tone::Plain,
        ),
        E::Commit { op: o } => (
            lang.f(format!("#{} commit", op(o)), format!("#{} コミット", op(o))),
            Tone::Plain,
        ),
        E::Rollback { op: o } => (
            lang.f(
                format!("#{} rollback", op(o)),
                format!("#{} ロールバック", op(o)),
            ),
            Tone::Good,
        ),
        E::ServerCrash { op: o, point } => {
            let (en, ja) = match point {
                CrashPoint::BeforeCharge => ("before the charge", "課金前"),
                CrashPoint::AfterChargeBeforeRecord => {
                    ("after the charge, before the key", "課金後・キー記録前")
                }
                CrashPoint::AfterCommitBeforeReply => {
                    ("after commit, before the reply", "コミット後・応答前")
                }
            };
            (
                lang.f(
                    format!("#{} server crashes {en}", op(o)),
                    format!("#{} サーバーが{ja}にクラッシュ", op(o)),
                ),
                Tone::Bad,
            )
        }
        E::EventPublish { op: o, id } => (
            lang.f(
                format!("#{} publish event {id} directly", op(o)),
                format!("#{} イベント {id} を直接発行", op(o)),
            ),
            Tone::Plain,
        ),
        E::ResponseSent { op: o, result, .. } => {
            let r = result_text(lang, result);
            (
                lang.f(
                    format!("#{} reply: {r}", op(o)),
                    format!("#{} 応答：{r}", op(o)),
                ),
                Tone::Plain,
            )
        }
        E::ResponseLost { op: o, .. } => (
            lang.f(
                format!("#{} response lost", op(o)),
                format!("#{} 応答が消失", op(o)),
            ),
            Tone::Bad,
        ),
        E::ResponseDelivered {
            op: o,
            result,
            late,
            ..
        } => {
            let r = result_text(lang, result);
            let tone = if result.is_replay() {
                Tone::Good
            } else {
                Tone::Plain
            };
            if *late {
                (
                    lang.f(
                        format!("#{} late reply ignored: {r}", op(o)),
                        format!("#{} 遅れた応答は無視：{r}", op(o)),
                    ),
                    tone,
                )
            } else {
                (
                    lang.f(
                        format!("#{} client gets: {r}", op(o)),
                        format!("#{} クライアントが受信：{r}", op(o)),
                    ),
                    tone,
                )
            }
        }
        E::ClientTimeout { op: o, attempt } => (
            lang.f(
                format!("#{} try {attempt} timed out: did it charge?", op(o)),
                format!("#{} 試行{attempt}がタイムアウト：課金された？", op(o)),
            ),
            Tone::Bad,
        ),
        E::ClientRetryScheduled { op: o, at_ms, .. } => {
            let t = super::playground::timeline::fmt_ms(*at_ms);
            (
                lang.f(
                    format!("#{} retry at {t}", op(o)),
                    format!("#{} {t} にリトライ", op(o)),
                ),
                Tone::Plain,
            )
        }
        E::ClientGaveUp { op: o, attempts } => (
            lang.f(
                format!(
                    "#{} gives up after {attempts} {}",
                    op(o),
                    if *attempts == 1 { "try" } else { "tries" }
                ),
                format!("#{} {attempts} 回で諦める", op(o)),
            ),
            Tone::Bad,
        ),
        E::RelayPoll { unpublished } => (
            lang.f(
                format!("relay: {unpublished} unpublished"),
                format!("リレー：未発行 {unpublished} 件"),
            ),
            Tone::Plain,
        ),
        E::RelayBusy => (lang.t("relay busy", "リレーは処理中").into(), Tone::Plain),
        E::RelayPublish { id, delivery } => {
            let tone = if *delivery > 1 {
                Tone::Bad
            } else {
                Tone::Plain
            };
            (
                lang.f(
                    format!("publish event {id} (delivery {delivery})"),
                    format!("イベント {id} を発行（{delivery} 回目）"),
                ),
                tone,
            )
        }
        E::RelayCrash => (
            lang.t(
                "relay crashes before marking",
                "印を付ける前にリレーがクラッシュ",
            )
            .into(),
            Tone::Bad,
        ),
        E::RelayMark { id } => (
            lang.f(
                format!("mark event {id} published"),
                format!("イベント {id} を発行済みにする"),
            ),
            Tone::Plain,
        ),
        E::ConsumerApply { id } => (
            lang.f(
                format!("apply event {id}: send receipt"),
                format!("イベント {id} を適用：領収メール送信"),
            ),
            Tone::Plain,
        ),
        E::ConsumerDuplicate { id, applied } => {
            if *applied {
                (
                    lang.f(
                        format!("event {id} again: second receipt sent"),
                        format!("イベント {id} 再着：2通目の領収メール"),
                    ),
                    Tone::Bad,
                )
            } else {
                (
                    lang.f(
                        format!("event {id} again: already in inbox, skipped"),
                        format!("イベント {id} 再着：受信済みなので無視"),
                    ),
                    Tone::Good,
                )
            }
        }
        E::TimeAdvanced { to_ms } => {
            let t = super::playground::timeline::fmt_ms(*to_ms);
            (
                lang.f(
                    format!("time passes to {t}"),
                    format!("時間が {t} まで進む"),
                ),
                Tone::Plain,
            )
        }
        E::Deposit { amount, accepted } => {
            if *accepted {
                (
                    lang.f(format!("deposit {amount}"), format!("{amount} を入金")),
                    Tone::Plain,
                )
            } else {
                (
                    lang.f(
                        format!("deposit {amount} refused: balance limit"),
                        format!("{amount} の入金を拒否：残高上限"),
                    ),
                    Tone::Bad,
                )
            }
        }
        E::KeyExpired { key } => {
            let k = key_label(world, *key);
            (
                lang.f(format!("key {k} expires"), format!("キー {k} が期限切れ")),
                Tone::Bad,
            )
        }
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
    }
}

/// An input error as a message that says what to fix.
pub fn input_error(lang: Lang, e: &InputError) -> String {
    use InputError as E;
    match e {
        E::AmountOutOfRange { amount, min, max } => lang.f(
            format!("The amount {amount} is out of range: use a whole number from {min} to {max}."),
            format!("金額 {amount} は範囲外。{min} から {max} までの整数にしてください。")),
        E::BalanceOutOfRange { balance, max } => lang.f(
            format!("The balance {balance} is out of range: use 0 to {max}."),
            format!("残高 {balance} は範囲外。0 から {max} までにしてください。")),
        E::BalanceLimit { balance, deposit, max } => lang.f(
            format!("Depositing {deposit} onto {balance} would pass the balance limit of {max}."),
            format!("{balance} に {deposit} を入金すると残高上限 {max} を超える。")),
        E::KeyEmpty => lang.t("The idempotency key is empty: type one or generate a UUID.", "冪等性キーが空。入力するか UUID を生成してください。").into(),
        E::KeyTooLong { len, max } => lang.f(
            format!("The key has {len} characters; at most {max} are allowed (Stripe's limit)."),
            format!("キーが {len} 文字ある。上限は {max} 文字（Stripe の上限）。")),
        E::DescriptionTooLong { len, max } => lang.f(
            format!("The description has {len} characters; at most {max} are allowed."),
            format!("説明が {len} 文字ある。上限は {max} 文字。")),
        E::AttemptsOutOfRange { attempts, min, max } => lang.f(
            format!("Max attempts {attempts} is out of range: use {min} to {max}."),
            format!("最大試行回数 {attempts} は範囲外。{min} から {max} にしてください。")),
        E::TooManyFaults { faults, max } => lang.f(
            format!("{faults} faults were given for at most {max} attempts."),
            format!("最大 {max} 回の試行に {faults} 個の障害が指定された。")),
        E::ParallelOutOfRange { count, min, max } => lang.f(
            format!("{count} concurrent request{}: use {min} to {max}.", if *count == 1 { "" } else { "s" }),
            format!("同時要求が {count} 件。{min} から {max} 件にしてください。")),
        E::TooManyInputs { count, max } => lang.f(
            format!("{count} inputs: a run holds at most {max}. Reset or start a new sandbox."),
            format!("入力が {count} 件。1回の実行は最大 {max} 件。リセットするか新しいサンドボックスにしてください。")),
        E::DurationOutOfRange { field, ms, min, max } => {
            let f = duration_field(lang, *field);
            lang.f(format!("The {f} of {ms} ms is out of range: use {min} to {max} ms."), format!("{f} {ms} ms は範囲外。{min} から {max} ms にしてください。"))
        }
        E::ServicesOutOfRange { count, min, max } => lang.f(
            format!("{count} services chosen: pick {min} to {max}."),
            format!("サービスが {count} 個選ばれている。{min} から {max} 個にしてください。")),
        E::RetryOverAttemptLimit { attempt, max } => lang.f(
            format!("This retry would be attempt {attempt} of the operation; an operation makes at most {max} attempts. Send a new charge instead."),
            format!("この再試行は操作の {attempt} 回目の試行になる。1つの操作の試行は最大 {max} 回。新しい請求を送ってください。")),
        E::TooMuchWork { events, max } => lang.f(
            format!("These inputs could make a run of up to {events} events; one run records at most {max}. Remove some inputs (relay ticks after many charges cost the most)."),
            format!("この入力では実行が最大 {events} イベントになりうる。1回の実行で記録できるのは {max} まで。入力を減らしてください（多数の請求の後のリレー実行が最も重い）。")),
        E::TraceFull { max } => lang.f(
            format!("The run reached its limit of {max} events and stopped there."),
            format!("実行がイベント数の上限 {max} に達し、そこで止まった。")),
        E::UrlTooLong { bytes, max } => lang.f(
            format!("The link is {bytes} bytes; links up to {max} bytes are accepted. Use JSON export instead."),
            format!("リンクが {bytes} バイトある。上限は {max} バイト。JSON の書き出しを使ってください。")),
        E::JsonTooLarge { bytes, max } => lang.f(
            format!("The JSON is {bytes} bytes; at most {max} are accepted."),
            format!("JSON が {bytes} バイトある。上限は {max} バイト。")),
        E::JsonInvalid { line, column, message } => lang.f(
            format!("This is not a scenario this page can read (line {line}, column {column}: {message})."),
            format!("このページで読めるシナリオではない（{line} 行 {column} 列：{message}）。")),
        E::UnsupportedVersion { version, supported } => lang.f(
            format!("This scenario is version {version}; this page reads version {supported}."),
            format!("このシナリオはバージョン {version}。このページが読めるのはバージョン {supported}。")),
        E::NotAWholeNumber { text } => lang.f(
            format!("“{text}” is not a whole number: type digits only, like 100."),
            format!("「{text}」は整数ではない。100 のように数字だけを入力してください。"),
        ),
        E::Overflow { quantity } => {
            let q = match quantity {
                Quantity::Time => lang.t("simulated time", "シミュレーション時間"),
                Quantity::Balance => lang.t("the balance", "残高"),
                _ => lang.t("a counter", "カウンタ"),
            };
            lang.f(format!("The run stopped: {q} would overflow."), format!("実行が止まった：{q}が桁あふれする。"))
        }
    }
}

/// The real system a mismatch status imitates, localized.
pub fn mismatch_name(lang: Lang, m: MismatchStatus) -> &'static str {
    match m {
        MismatchStatus::Stripe400 => lang.t("400, as Stripe", "400（Stripe）"),
        MismatchStatus::Ietf422 => lang.t("422, as the IETF draft", "422（IETF ドラフト）"),
        MismatchStatus::RocketRides409 => lang.t("409, as rocket-rides", "409（rocket-rides）"),
    }
}

/// The real system a failure-caching policy imitates, localized.
pub fn caching_name(lang: Lang, c: FailureCaching) -> &'static str {
    match c {
        FailureCaching::CacheAll => lang.t(
            "Cache every result (the article, Stripe)",
            "すべての結果をキャッシュ（記事、Stripe）",
        ),
        FailureCaching::SuccessOnly => lang.t(
            "Cache successes only (APIs caching only 2xx)",
            "成功のみキャッシュ（2xx だけをキャッシュする API）",
        ),
        FailureCaching::AllButTransient => lang.t(
            "Cache all but transient errors (no 429/5xx)",
            "一時的エラー以外をキャッシュ（429/5xx は除く）",
        ),
    }
}
