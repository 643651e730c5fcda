//! Words for outcomes: what a payment request returned, the state of an idempotency record, the
//! invariants checked after every step, and what broke when one fails.

use crate::sim::{
    AttemptOutcome, ClientOutcome, Invariant, PaymentResult, RecordState, SeenAttempt, Violation,
    ViolationDetail, World,
};
use crate::ui::i18n::{tr, Lang};

use super::key_label;

/// Each account's balance, "account 1: 900", once customers of accounts other than 0 have sent
/// charges; empty while account 0's balance, `World::balance`, is the only one.
pub fn account_balances(lang: Lang, w: &World) -> Vec<String> {
    if !w.other_accounts_seen() {
        return Vec::new();
    }
    let seen = w.accounts_seen();
    (0..=crate::sim::limits::MAX_ACCOUNT)
        .filter(|a| seen & (1 << a) != 0)
        .map(|a| {
            let (label, b) = (account_label(lang, a), super::money(w.balance_of(a)));
            tr!(lang, "{label}: {b}", "{label}：{b}")
        })
        .collect()
}

/// An account as a short label, "account 2".
pub fn account_label(lang: Lang, a: u32) -> String {
    tr!(lang, "account {a}", "アカウント {a}")
}

/// A payment result as a short phrase.
pub fn result_text(lang: Lang, r: &PaymentResult) -> String {
    match r {
        PaymentResult::Success { balance } => {
            let balance = super::money(*balance);
            tr!(
                lang,
                "Success (balance {balance})",
                "成功（残高 {balance}）"
            )
        }
        PaymentResult::InsufficientFunds { balance } => {
            let balance = super::money(*balance);
            tr!(
                lang,
                "Insufficient funds (balance {balance})",
                "残高不足（残高 {balance}）"
            )
        }
        PaymentResult::DuplicateRequest { original_result } => {
            let inner = result_text(lang, original_result);
            tr!(lang, "Replay of: {inner}", "リプレイ：{inner}")
        }
        PaymentResult::InFlightConflict => lang
            .t("409 Conflict: still in flight", "409 Conflict：処理中")
            .into(),
        PaymentResult::ParameterMismatch { status } => tr!(
            lang,
            "{status}: parameters differ from the first request",
            "{status}：最初のリクエストとパラメーターが違う"
        ),
        PaymentResult::ProcessorError => {
            lang.t("503: processor error", "503：決済処理エラー").into()
        }
        PaymentResult::StoreUnavailable => lang
            .t(
                "503: store unreachable, retry later",
                "503：ストアに届かない、後でリトライ",
            )
            .into(),
        PaymentResult::RetryWithSameKey => lang
            .t(
                "409 Conflict: transaction aborted, retry with the same key",
                "409 Conflict：トランザクション中断、同じキーでリトライ",
            )
            .into(),
        other => {
            let status = other.http_status();
            tr!(
                lang,
                "{status} (invalid request)",
                "{status}（不正なリクエスト）"
            )
        }
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

/// Who sent a client operation (issue 13): its account, and a stamped body or no key.
pub fn caller_text(lang: Lang, c: crate::sim::Caller) -> String {
    let a = c.account;
    let mut t = tr!(lang, "account {a}", "アカウント {a}");
    if c.stamps_body {
        t.push_str(lang.t(", time in body", "、本文に時刻"));
    }
    if !c.sends_key {
        t.push_str(lang.t(", no key", "、キーなし"));
    }
    t
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
            lang.t("Replay returns the same result", "リプレイは同じ結果を返す")
        }
        Invariant::OneEventPerCharge => lang.t(
            "One event per committed charge",
            "コミットされた課金1件にイベント1件",
        ),
        Invariant::ConsumerAtMostOnce => lang.t(
            "Consumer applies each event once",
            "コンシューマーは各イベントを1回だけ適用",
        ),
        Invariant::OwnAccountAnswers => lang.t(
            "No client gets another account's answer",
            "他のアカウントの応答を受け取るクライアントはいない",
        ),
        Invariant::ReplayMatchesRequest => lang.t(
            "A replay answers only its own request",
            "リプレイは元と同じリクエストにだけ返す",
        ),
    }
}

/// What broke, in a sentence.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one sentence per violation"
)]
pub fn violation_text(lang: Lang, world: &World, v: &Violation) -> String {
    match &v.detail {
        ViolationDetail::Money { expected, actual } => tr!(
            lang,
            "balance + ledger is {actual}, expected {expected}",
            "残高＋台帳が {actual}、本来は {expected}"
        ),
        ViolationDetail::KeyCharged { key, charges, .. } => {
            let k = key_label(world, *key);
            tr!(
                lang,
                "key {k} charged {charges} times by this step",
                "このステップまでにキー {k} で {charges}回課金"
            )
        }
        ViolationDetail::OperationCharged { op, charges } => {
            let n = op.0 + 1;
            tr!(
                lang,
                "operation #{n} charged {charges} times by this step",
                "このステップまでに操作 #{n} で {charges}回課金"
            )
        }
        ViolationDetail::KeySharedCharged {
            key,
            first,
            op,
            charges,
        } => {
            let (k, a, b) = (key_label(world, *key), first.0 + 1, op.0 + 1);
            tr!(
                lang,
                "#{a} and #{b} carry the same key {k}, so they are one operation: charged {charges} times by this step",
                "#{a} と #{b} は同じキー {k} を持つので1つの操作：このステップまでに {charges}回課金"
            )
        }
        ViolationDetail::ReplayDiffers {
            key,
            first,
            replayed,
            ..
        } => {
            let k = key_label(world, *key);
            let (first, replayed) = (result_text(lang, first), result_text(lang, replayed));
            tr!(
                lang,
                "key {k} first answered “{first}”, then “{replayed}”",
                "キー {k} は最初「{first}」、次に「{replayed}」と答えた"
            )
        }
        ViolationDetail::ForeignAnswer { key, op, producer } => {
            let (k, a, b) = (key_label(world, *key), op.0 + 1, producer.0 + 1);
            let (acc_a, acc_b) = (
                world.caller_of(*op).account,
                world.caller_of(*producer).account,
            );
            tr!(
                lang,
                "#{a} (account {acc_a}) got the answer #{b} (account {acc_b}) stored under key {k}",
                "#{a}（アカウント {acc_a}）が、#{b}（アカウント {acc_b}）のキー {k} の応答を受け取った"
            )
        }
        ViolationDetail::OtherRequestReplayed { key, op, producer } => {
            let (k, a, b) = (key_label(world, *key), op.0 + 1, producer.0 + 1);
            tr!(
                lang,
                "#{a} asked for something else than #{b}, yet got #{b}'s answer replayed under key {k}",
                "#{a} は #{b} と違う内容を求めたのに、キー {k} で #{b} の応答がリプレイされた"
            )
        }
        ViolationDetail::OutboxMismatch { charges, rows } => tr!(
            lang,
            "{charges} charges but {rows} outbox rows",
            "課金 {charges}件にアウトボックス行 {rows}件"
        ),
        ViolationDetail::EventLost { id } => tr!(
            lang,
            "event {id} was never published: a committed charge nobody hears about",
            "イベント {id} が発行されなかった：誰にも知らされない課金"
        ),
        ViolationDetail::PhantomEvent { id } => tr!(
            lang,
            "event {id} was published for a charge that never committed",
            "イベント {id} は、コミットされなかった課金について発行された"
        ),
        ViolationDetail::AppliedTwice { id, applications } => tr!(
            lang,
            "event {id} applied {applications} times (receipt e-mails sent)",
            "イベント {id} を {applications}回適用（領収メールを送信）"
        ),
    }
}

/// Where a client operation stands, when its answers so far do not say it: still waiting, or
/// given up with the outcome unknown (`None` once it has its final answer, the last one listed).
pub fn client_outcome(lang: Lang, outcome: &ClientOutcome) -> Option<&'static str> {
    match outcome {
        ClientOutcome::InProgress => Some(lang.t("waiting…", "待機中…")),
        ClientOutcome::TimedOut => {
            Some(lang.t("gave up: the outcome is unknown", "諦めた：結果は不明"))
        }
        ClientOutcome::Answered { .. } => None,
    }
}

/// Whether an answer was a stored result returned again (the server's `Idempotent-Replayed:
/// true`, as Stripe sends it), the request executed, or a refusal that ran nothing (409, 400,
/// 422, 503).
pub fn replay_mark(lang: Lang, replayed: bool, result: &PaymentResult) -> &'static str {
    if replayed {
        lang.t("replayed", "リプレイ")
    } else if result.is_refusal() {
        lang.t("refused", "拒否")
    } else {
        lang.t("executed", "実行")
    }
}

/// What one attempt came to, as its client saw it: "try 2: Success (balance 900)".
pub fn attempt_outcome(lang: Lang, seen: &SeenAttempt) -> String {
    let n = seen.attempt;
    match &seen.outcome {
        AttemptOutcome::Reply(r) => {
            let r = result_text(lang, r);
            tr!(lang, "try {n}: {r}", "試行{n}：{r}")
        }
        AttemptOutcome::LateReply(r) => {
            let r = result_text(lang, r);
            tr!(
                lang,
                "try {n}: late reply, ignored: {r}",
                "試行{n}：遅れた応答（無視）：{r}"
            )
        }
        AttemptOutcome::TimedOut => tr!(lang, "try {n}: timed out", "試行{n}：タイムアウト"),
    }
}
