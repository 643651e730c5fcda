//! The words of the lab's "On a real database" view: each SQL variant's name and what it does,
//! and what a request ended with on PostgreSQL.

use crate::sim::postgres::{Outcome, Variant};
use crate::ui::i18n::{tr, Lang};

/// A variant's short name.
pub fn variant_name(l: Lang, v: Variant) -> &'static str {
    match v {
        Variant::Naive => l.t("Naive: the charge alone", "素朴：課金だけ"),
        Variant::TocTou => l.t(
            "TOCTOU: three autocommit statements",
            "TOCTOU：自動コミットの3文",
        ),
        Variant::TxCheckInsert => l.t(
            "One transaction, READ COMMITTED, no constraint",
            "1トランザクション、READ COMMITTED、制約なし",
        ),
        Variant::TxUnique => l.t(
            "One transaction, READ COMMITTED, key as primary key",
            "1トランザクション、READ COMMITTED、キーを主キーに",
        ),
        Variant::RepeatableRead => l.t(
            "One transaction, REPEATABLE READ, retried on 40001",
            "1トランザクション、REPEATABLE READ、40001で再試行",
        ),
        Variant::Serializable => l.t(
            "One transaction, SERIALIZABLE, retried on 40001",
            "1トランザクション、SERIALIZABLE、40001で再試行",
        ),
        Variant::ForUpdate => l.t(
            "READ COMMITTED, account row locked FOR UPDATE first",
            "READ COMMITTED、先に口座行を FOR UPDATE でロック",
        ),
        Variant::AdvisoryLock => l.t(
            "READ COMMITTED, advisory lock on the key first",
            "READ COMMITTED、先にキーのアドバイザリロック",
        ),
        Variant::ClaimFirst => l.t(
            "Claim the key first: INSERT … ON CONFLICT DO NOTHING",
            "先にキーを確保：INSERT … ON CONFLICT DO NOTHING",
        ),
        Variant::Outbox => l.t(
            "Claim first, with the outbox row in the same transaction",
            "先に確保し、アウトボックス行も同じトランザクションで",
        ),
    }
}

/// Why a variant behaves as it does on PostgreSQL (what the measurement shows is the data's).
pub fn variant_note(l: Lang, v: Variant) -> &'static str {
    match v {
        Variant::Naive => l.t(
            "No key at all: every request is a new charge.",
            "キーがまったくない。どのリクエストも新しい課金になる。",
        ),
        Variant::TocTou => l.t(
            "Each statement is its own transaction: the lab's three locks, exactly.",
            "各文がそれぞれ1つのトランザクション。ラボの3つのロックそのもの。",
        ),
        Variant::TxCheckInsert => l.t(
            "The SELECT finds no row and locks nothing, because there is no row yet to lock. The second UPDATE waits for the first transaction's row lock, then goes ahead on the new balance; nothing stops its INSERT.",
            "SELECT は行を見つけず、何もロックしない。ロックすべき行がまだないからだ。2つ目の UPDATE は1つ目のトランザクションの行ロックを待ち、その後に新しい残高で進む。その INSERT を止めるものはない。",
        ),
        Variant::TxUnique => l.t(
            "The second INSERT waits on the first one's key, then fails with a unique violation (23505): its charge is rolled back, but its client gets an error, not the stored answer.",
            "2つ目の INSERT は1つ目のキーを待ち、一意制約違反（23505）で失敗する。その課金はロールバックされるが、クライアントが受け取るのは保存済みの答えではなくエラーだ。",
        ),
        Variant::RepeatableRead => l.t(
            "Both write the account row: the second gets 40001 (could not serialize) and, retried, finds the key.",
            "両方が口座行に書く。2つ目は40001（直列化できない）を受け、再試行でキーを見つける。",
        ),
        Variant::Serializable => l.t(
            "As REPEATABLE READ here, and it would also catch conflicts that write different rows.",
            "ここでは REPEATABLE READ と同じ。異なる行に書く競合も検出する点が違う。",
        ),
        Variant::ForUpdate => l.t(
            "The second request waits at the row lock before its check, so its check sees the first one's key.",
            "2つ目のリクエストはチェックの前に行ロックで待つので、そのチェックは1つ目のキーを見る。",
        ),
        Variant::AdvisoryLock => l.t(
            "The same with a lock on the key instead of the row: requests with other keys do not wait.",
            "行の代わりにキーをロックする同じ方法。別のキーのリクエストは待たない。",
        ),
        Variant::ClaimFirst => l.t(
            "The key row comes first: the second INSERT waits for the first transaction, then does nothing, and the request reads the stored answer (or 409 while it is still in flight).",
            "キー行が最初に来る。2つ目の INSERT は1つ目のトランザクションを待ってから何もせず、リクエストは保存済みの答えを読む（まだ処理中なら409）。",
        ),
        Variant::Outbox => l.t(
            "The charge and its event commit together or not at all.",
            "課金とそのイベントは一緒にコミットされるか、どちらもされない。",
        ),
    }
}

/// What one request ended with.
pub fn outcome_text(l: Lang, o: &Outcome) -> String {
    match o {
        Outcome::Charged => l.t("charged", "課金").to_string(),
        Outcome::Replayed => l
            .t("replayed the stored answer", "保存済みの答えをリプレイ")
            .to_string(),
        Outcome::InFlight => l.t("409: in flight", "409：処理中").to_string(),
        Outcome::Declined => l.t("declined", "残高不足").to_string(),
        Outcome::Failed(code) => tr!(l, "error {code}", "エラー {code}"),
    }
}

/// The lab step a statement belongs to.
pub fn step_name(l: Lang, step: usize) -> &'static str {
    match step {
        0 => l.t("check", "チェック"),
        1 => l.t("charge", "課金"),
        _ => l.t("store", "保存"),
    }
}
