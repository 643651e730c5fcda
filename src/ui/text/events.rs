//! Words for the trace: one label per event of the world, with the tone the timeline draws it in,
//! and the words for what a key check found, where a server crashed and why a charge failed.

use super::{fmt_ms, Tone};
use crate::sim::{ChargeFailure, CheckOutcome, CrashPoint, EmitMode, EventKind, World};
use crate::ui::i18n::{pair, tr, Lang, Pair};

use super::key_label;
use super::results::{record_state, result_text};

/// What a key check found, and the tone of that finding.
fn check_outcome(lang: Lang, outcome: CheckOutcome) -> (&'static str, Tone) {
    match outcome {
        CheckOutcome::Hit => (lang.t("found: replay", "あり：リプレイ"), Tone::Good),
        CheckOutcome::Miss => (lang.t("not found: execute", "なし：実行"), Tone::Plain),
        CheckOutcome::Conflict => (lang.t("in flight: 409", "処理中：409"), Tone::Good),
        CheckOutcome::Mismatch => (
            lang.t("parameters differ", "パラメーター不一致"),
            Tone::Good,
        ),
        CheckOutcome::RetryMismatch => (
            lang.t(
                "parameters differ from its own first try",
                "初回の試行とパラメーター不一致",
            ),
            Tone::Bad,
        ),
        CheckOutcome::Expired => (
            lang.t("expired: execute again", "期限切れ：再実行"),
            Tone::Bad,
        ),
        CheckOutcome::LockExpired => (
            lang.t(
                "in flight too long: take over",
                "処理中のまま期限切れ：引き継ぐ",
            ),
            Tone::Plain,
        ),
    }
}

/// Where in a request the server crashed.
fn crash_point(lang: Lang, point: CrashPoint, keys: bool) -> &'static str {
    match point {
        CrashPoint::BeforeCharge => lang.t("before the charge", "課金前"),
        // The naive service keeps no keys: its crash comes after the charge, before the reply.
        CrashPoint::AfterChargeBeforeRecord if !keys => {
            lang.t("after the charge, before the reply", "課金後・応答前")
        }
        CrashPoint::AfterChargeBeforeRecord => {
            lang.t("after the charge, before the key", "課金後・キー記録前")
        }
        CrashPoint::AfterCommitBeforeReply => {
            lang.t("after commit, before the reply", "コミット後・応答前")
        }
        CrashPoint::BeforeReply => lang.t("before its reply", "応答前"),
    }
}

/// Why a charge did not happen.
fn charge_failure(lang: Lang, failure: ChargeFailure) -> String {
    match failure {
        ChargeFailure::InsufficientFunds { balance } => {
            let balance = super::money(balance);
            tr!(
                lang,
                "insufficient funds ({balance})",
                "残高不足（{balance}）"
            )
        }
        ChargeFailure::ProcessorError => lang.t("processor error", "決済処理エラー").to_string(),
    }
}

/// Lane names, in column order.
pub const LANE_NAMES: [Pair; 7] = [
    pair!("Client", "クライアント"),
    pair!("Network", "ネットワーク"),
    pair!("Server", "サーバー"),
    pair!("Store", "ストア"),
    pair!("Relay", "リレー"),
    pair!("Consumer", "コンシューマー"),
    pair!("Processor", "決済代行"),
];

/// One trace event: its label and tone.
pub fn event_text(lang: Lang, world: &World, e: &EventKind) -> (String, Tone) {
    use EventKind as E;
    // Every variant is named here, so a new one must be given words; each group's own function
    // words its variants.
    match e {
        E::ClientSend { .. }
        | E::RequestLost { .. }
        | E::RequestDelivered { .. }
        | E::ResponseLost { .. }
        | E::ResponseDelivered { .. }
        | E::ClientTimeout { .. }
        | E::ClientRetryScheduled { .. }
        | E::ClientGaveUp { .. } => client_event(lang, world, e),
        E::StoreCheck { .. }
        | E::Charge { .. }
        | E::ChargeFailed { .. }
        | E::StoreWrite { .. }
        | E::StoreRelease { .. }
        | E::OutboxWrite { .. }
        | E::Commit { .. }
        | E::Rollback { .. }
        | E::ServerCrash { .. }
        | E::EventPublish { .. }
        | E::ResponseSent { .. } => server_event(lang, world, e),
        E::RelayPoll { .. }
        | E::RelayBusy
        | E::RelayPublish { .. }
        | E::RelayCrash
        | E::RelayMark { .. }
        | E::ConsumerApply { .. }
        | E::ConsumerDuplicate { .. } => downstream_event(lang, world, e),
        E::TimeAdvanced { .. }
        | E::Deposit { .. }
        | E::KeyExpired { .. }
        | E::FaultChanged { .. }
        | E::ServerRestarted { .. } => world_event(lang, world, e),
        E::ProcessorCall { .. }
        | E::ProcessorCharge { .. }
        | E::ProcessorReplay { .. }
        | E::ProcessorReply { .. }
        | E::RecoveryPoint { .. }
        | E::Resumed { .. }
        | E::KeyEvicted { .. }
        | E::StoreUnreachable { .. }
        | E::SerializationAbort { .. } => super::downstream::event(lang, world, e),
    }
}

/// The client's and the network's events (the client lane and the arrows between).
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one arm per client and network event"
)]
fn client_event(lang: Lang, world: &World, e: &EventKind) -> (String, Tone) {
    use EventKind as E;
    match e {
        E::ClientSend {
            op,
            attempt,
            key,
            amount,
        } => {
            let (n, k) = (op.0 + 1, key_label(world, *key));
            let text = tr!(
                lang,
                "#{n} try {attempt}: charge {amount}, key {k}",
                "#{n} 試行{attempt}：{amount} を課金、キー {k}"
            );
            (text, Tone::Plain)
        }
        E::RequestLost { op, .. } => {
            let n = op.0 + 1;
            (
                tr!(lang, "#{n} request lost", "#{n} リクエストが消失"),
                Tone::Bad,
            )
        }
        E::RequestDelivered { op, .. } => {
            let n = op.0 + 1;
            (
                tr!(lang, "#{n} request arrives", "#{n} リクエストが到着"),
                Tone::Plain,
            )
        }
        E::ResponseLost { op, .. } => {
            let n = op.0 + 1;
            (
                tr!(lang, "#{n} response lost", "#{n} 応答が消失"),
                Tone::Bad,
            )
        }
        E::ResponseDelivered {
            op,
            result,
            late,
            replayed,
            ..
        } => {
            let (n, r) = (op.0 + 1, result_text(lang, result));
            let mark = super::results::replay_mark(lang, *replayed, result);
            let r = format!("{r}{}{mark}", super::view::common::ITEM_SEP.get(lang));
            let tone = if result.is_replay() {
                Tone::Good
            } else {
                Tone::Plain
            };
            let text = if *late {
                tr!(
                    lang,
                    "#{n} late reply ignored: {r}",
                    "#{n} 遅れた応答は無視：{r}"
                )
            } else {
                tr!(
                    lang,
                    "#{n} client gets: {r}",
                    "#{n} クライアントが受信：{r}"
                )
            };
            (text, tone)
        }
        E::ClientTimeout { op, attempt } => {
            let n = op.0 + 1;
            let text = tr!(
                lang,
                "#{n} try {attempt} timed out: did it charge?",
                "#{n} 試行{attempt}がタイムアウト：課金された？"
            );
            (text, Tone::Bad)
        }
        E::ClientRetryScheduled { op, at_ms, .. } => {
            let (n, t) = (op.0 + 1, fmt_ms(lang, *at_ms));
            (
                tr!(lang, "#{n} retry at {t}", "#{n} {t}にリトライ"),
                Tone::Plain,
            )
        }
        E::ClientGaveUp { op, attempts } => {
            let n = op.0 + 1;
            let tries = if *attempts == 1 { "try" } else { "tries" };
            let text = tr!(
                lang,
                "#{n} gives up after {attempts} {tries}",
                "#{n} {attempts}回で諦める"
            );
            (text, Tone::Bad)
        }
        // The other groups' variants never reach here (see `event_text`).
        _ => (String::new(), Tone::Plain),
    }
}

/// The server's and its database's events.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one arm per server and database event"
)]
fn server_event(lang: Lang, world: &World, e: &EventKind) -> (String, Tone) {
    use EventKind as E;
    match e {
        E::StoreCheck { op, key, outcome } => {
            let (n, k) = (op.0 + 1, key_label(world, *key));
            let (found, tone) = check_outcome(lang, *outcome);
            let text = tr!(
                lang,
                "#{n} check key {k}: {found}",
                "#{n} キー {k} を確認：{found}"
            );
            (text, tone)
        }
        E::Charge {
            op,
            amount,
            balance_after,
        } => {
            let (n, balance_after) = (op.0 + 1, super::money(*balance_after));
            let text = tr!(
                lang,
                "#{n} charge {amount} → balance {balance_after}",
                "#{n} {amount} を課金 → 残高 {balance_after}"
            );
            (text, Tone::Plain)
        }
        E::ChargeFailed { op, failure } => {
            let (n, why) = (op.0 + 1, charge_failure(lang, *failure));
            let text = tr!(lang, "#{n} charge fails: {why}", "#{n} 課金失敗：{why}");
            (text, Tone::Bad)
        }
        E::StoreWrite { op, key, state } => {
            let (n, k) = (op.0 + 1, key_label(world, *key));
            let s = record_state(lang, *state);
            let text = tr!(
                lang,
                "#{n} store key {k} ({s})",
                "#{n} キー {k} を保存（{s}）"
            );
            (text, Tone::Plain)
        }
        E::StoreRelease { op, key } => {
            let (n, k) = (op.0 + 1, key_label(world, *key));
            let text = tr!(lang, "#{n} release key {k}", "#{n} キー {k} を解放");
            (text, Tone::Plain)
        }
        E::OutboxWrite { op, id } => {
            let n = op.0 + 1;
            (
                tr!(lang, "#{n} outbox row {id}", "#{n} アウトボックス行 {id}"),
                Tone::Plain,
            )
        }
        E::Commit { op } => {
            let n = op.0 + 1;
            (tr!(lang, "#{n} commit", "#{n} コミット"), Tone::Plain)
        }
        E::Rollback { op } => {
            let n = op.0 + 1;
            (tr!(lang, "#{n} rollback", "#{n} ロールバック"), Tone::Good)
        }
        E::ServerCrash { op, point } => {
            let keys = world.config().service != crate::sim::ServiceKind::Naive;
            let (n, at) = (op.0 + 1, crash_point(lang, *point, keys));
            let text = tr!(
                lang,
                "#{n} server crashes {at}",
                "#{n} サーバーが{at}にクラッシュ"
            );
            (text, Tone::Bad)
        }
        E::EventPublish { op, id } => {
            let n = op.0 + 1;
            let text = tr!(
                lang,
                "#{n} publish event {id} directly",
                "#{n} イベント {id} を直接発行"
            );
            (text, Tone::Plain)
        }
        E::ResponseSent { op, result, .. } => {
            let (n, r) = (op.0 + 1, result_text(lang, result));
            (tr!(lang, "#{n} reply: {r}", "#{n} 応答：{r}"), Tone::Plain)
        }
        // The other groups' variants never reach here (see `event_text`).
        _ => (String::new(), Tone::Plain),
    }
}

/// The outbox relay's and the consumer's events.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one arm per outbox, consumer and relay event"
)]
fn downstream_event(lang: Lang, world: &World, e: &EventKind) -> (String, Tone) {
    use EventKind as E;
    match e {
        // A relay tick in a wiring that writes no outbox finds nothing, and says why.
        E::RelayPoll { .. } if world.config().emit != EmitMode::Outbox => (
            lang.t(
                "relay: no outbox here",
                "リレー：ここにアウトボックスはない",
            )
            .into(),
            Tone::Plain,
        ),
        E::RelayPoll { unpublished } => {
            let text = tr!(
                lang,
                "relay: {unpublished} unpublished",
                "リレー：未発行 {unpublished}件"
            );
            (text, Tone::Plain)
        }
        E::RelayBusy => (lang.t("relay busy", "リレーは処理中").into(), Tone::Plain),
        E::RelayPublish { id, delivery } => {
            let tone = if *delivery > 1 {
                Tone::Bad
            } else {
                Tone::Plain
            };
            let text = tr!(
                lang,
                "publish event {id} (delivery {delivery})",
                "イベント {id} を発行（{delivery}回目）"
            );
            (text, tone)
        }
        E::RelayCrash => (
            lang.t(
                "relay crashes before marking",
                "印を付ける前にリレーがクラッシュ",
            )
            .into(),
            Tone::Bad,
        ),
        E::RelayMark { id } => {
            let text = tr!(
                lang,
                "mark event {id} published",
                "イベント {id} を発行済みにする"
            );
            (text, Tone::Plain)
        }
        E::ConsumerApply { id } => {
            let text = tr!(
                lang,
                "apply event {id}: send receipt",
                "イベント {id} を適用：領収メール送信"
            );
            (text, Tone::Plain)
        }
        E::ConsumerDuplicate { id, applied } => {
            if *applied {
                let text = tr!(
                    lang,
                    "event {id} again: second receipt sent",
                    "イベント {id} 再着：2通目の領収メール"
                );
                (text, Tone::Bad)
            } else {
                let text = tr!(
                    lang,
                    "event {id} again: already in inbox, skipped",
                    "イベント {id} 再着：受信済みなので無視"
                );
                (text, Tone::Good)
            }
        }
        // The other groups' variants never reach here (see `event_text`).
        _ => (String::new(), Tone::Plain),
    }
}

/// Time, deposits and expiry.
fn world_event(lang: Lang, world: &World, e: &EventKind) -> (String, Tone) {
    use EventKind as E;
    match e {
        E::TimeAdvanced { to_ms } => {
            let t = fmt_ms(lang, *to_ms);
            (
                tr!(lang, "time passes to {t}", "時計が {t}まで進む"),
                Tone::Plain,
            )
        }
        E::Deposit { amount, accepted } => {
            if *accepted {
                (
                    tr!(lang, "deposit {amount}", "{amount} を入金"),
                    Tone::Plain,
                )
            } else {
                let text = tr!(
                    lang,
                    "deposit {amount} refused: balance limit",
                    "{amount} の入金を拒否：残高上限"
                );
                (text, Tone::Bad)
            }
        }
        E::KeyExpired { key } => {
            let k = key_label(world, *key);
            (
                tr!(lang, "key {k} expires", "キー {k} が期限切れ"),
                Tone::Bad,
            )
        }
        E::FaultChanged { op, attempt, input } => {
            let n = op.0 + 1;
            let f = match world.input_at(*input) {
                Some(crate::sim::Input::SetFault { fault, .. }) => {
                    super::policies::fault_name(lang, *fault)
                }
                _ => "",
            };
            (
                tr!(
                    lang,
                    "fork: #{n} try {attempt} will be: {f}",
                    "フォーク：#{n} の試行{attempt}は「{f}」になる"
                ),
                Tone::Plain,
            )
        }
        E::ServerRestarted { killed } => (
            tr!(
                lang,
                "fork: the server crashes and restarts (requests killed in progress: {killed})",
                "フォーク：サーバーがクラッシュして再起動（処理中の {killed}件が失われる）"
            ),
            Tone::Bad,
        ),

        // The other groups' variants never reach here (see `event_text`).
        _ => (String::new(), Tone::Plain),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{builtin, builtin_ids, Session, WorldConfig};

    /// Each group's function words every variant `event_text` sends it: no event of any lesson,
    /// under any of its services, is left without words in either language.
    #[test]
    fn the_naive_service_crashes_before_its_reply_not_before_a_key_it_does_not_have() {
        let s =
            crate::sim::Session::new(crate::sim::builtin("client-cannot-tell").unwrap()).unwrap();
        for i in 0..s.worlds().len() {
            let w = s.finished(i).unwrap();
            let crash = w
                .trace()
                .iter()
                .find(|e| matches!(e.kind, EventKind::ServerCrash { .. }))
                .expect("the third client's crash");
            let (text, _) = event_text(Lang::En, w, &crash.kind);
            let naive = w.config().service == crate::sim::ServiceKind::Naive;
            assert_eq!(text.contains("key"), !naive, "{text}");
        }
    }

    #[test]
    fn every_event_of_every_lesson_has_words_in_both_languages() {
        let mut kinds = std::collections::BTreeSet::new();
        for id in builtin_ids() {
            let session = Session::new(builtin(id).expect("built-in")).expect("valid");
            for i in 0..session.worlds().len() {
                let world = session.finished(i).expect("world");
                for e in world.trace() {
                    for lang in [Lang::En, Lang::Ja] {
                        let (text, _) = event_text(lang, world, &e.kind);
                        assert!(!text.is_empty(), "{id}: {:?} in {lang:?}", e.kind);
                    }
                    let name = format!("{:?}", e.kind);
                    kinds.insert(
                        name.split([' ', '{'])
                            .next()
                            .unwrap_or_default()
                            .to_string(),
                    );
                }
            }
        }
        // The lessons between them meet every kind of event but a busy relay, a processor's
        // replay, a recovery point, a resumed request and a serialization abort (38 kinds).
        assert_eq!(kinds.len(), 33, "{kinds:?}");
        let empty = World::new(WorldConfig::default()).expect("valid");
        let (busy, _) = event_text(Lang::Ja, &empty, &EventKind::RelayBusy);
        assert!(!busy.is_empty());
    }
}
