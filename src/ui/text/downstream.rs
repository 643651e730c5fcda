//! Words for what lies beyond the server (issue 13, sections 1 and 3): the card processor's
//! events, the key store's failures, their settings, and the real system each policy imitates.

use super::results::result_text;
use super::{key_label, Tone};
use crate::sim::{EventKind, OutagePolicy, World};
use crate::ui::i18n::{tr, Lang};

/// One trace event of the processor or of a key-store failure.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one arm per processor and key-store event"
)]
pub fn event(lang: Lang, world: &World, e: &EventKind) -> (String, Tone) {
    use EventKind as E;
    match e {
        E::ProcessorCall { op, key_passed } => {
            let n = op.0 + 1;
            if *key_passed {
                let text = tr!(
                    lang,
                    "#{n} call the processor with the key",
                    "#{n} キーを付けて決済代行を呼ぶ"
                );
                (text, Tone::Good)
            } else {
                let text = tr!(
                    lang,
                    "#{n} call the processor (no key)",
                    "#{n} 決済代行を呼ぶ（キーなし）"
                );
                (text, Tone::Plain)
            }
        }
        E::ProcessorCharge {
            op,
            amount,
            balance_after,
        } => {
            let n = op.0 + 1;
            let text = tr!(
                lang,
                "#{n} processor charges {amount} → balance {balance_after}",
                "#{n} 決済代行が {amount} を課金 → 残高 {balance_after}"
            );
            (text, Tone::Plain)
        }
        E::ProcessorReplay { op } => {
            let n = op.0 + 1;
            let text = tr!(
                lang,
                "#{n} processor knows the key: replay, no charge",
                "#{n} 決済代行はキーを知っている：リプレイ、課金なし"
            );
            (text, Tone::Good)
        }
        E::ProcessorReply { op, result } => {
            let (n, r) = (op.0 + 1, result_text(lang, result));
            let text = tr!(
                lang,
                "#{n} processor answers: {r}",
                "#{n} 決済代行の応答：{r}"
            );
            (text, Tone::Plain)
        }
        E::RecoveryPoint { op, key } => {
            let (n, k) = (op.0 + 1, key_label(world, *key));
            let text = tr!(
                lang,
                "#{n} recovery point: charge recorded under {k}",
                "#{n}回復ポイント：{k} に課金済みを記録"
            );
            (text, Tone::Good)
        }
        E::Resumed { op, key } => {
            let (n, k) = (op.0 + 1, key_label(world, *key));
            let text = tr!(
                lang,
                "#{n} resume {k} from its recovery point: no new call",
                "#{n} {k} を回復ポイントから再開：再呼び出しなし"
            );
            (text, Tone::Good)
        }
        E::KeyEvicted { key } => {
            let k = key_label(world, *key);
            let text = tr!(
                lang,
                "key store full: key {k} evicted",
                "キーストアが満杯：キー {k} を追い出し"
            );
            (text, Tone::Bad)
        }
        E::StoreUnreachable { op, fail_open } => {
            let n = op.0 + 1;
            if *fail_open {
                let text = tr!(
                    lang,
                    "#{n} key store unreachable: fail open, no check",
                    "#{n} キーストアに届かない：フェイルオープン、確認なし"
                );
                (text, Tone::Bad)
            } else if world.config().service == crate::sim::ServiceKind::SplitStore {
                let text = tr!(
                    lang,
                    "#{n} key store unreachable: refuse (503)",
                    "#{n} キーストアに届かない：拒否（503）"
                );
                (text, Tone::Good)
            } else {
                // Keys kept beside the balance: the unreachable store is the database itself.
                let text = tr!(
                    lang,
                    "#{n} database (keys and balance) unreachable: refuse (503)",
                    "#{n} データベース（キーと残高）に届かない：拒否（503）"
                );
                (text, Tone::Good)
            }
        }
        E::SerializationAbort { op } => {
            let n = op.0 + 1;
            let text = tr!(
                lang,
                "#{n} serialization failure: transaction aborted",
                "#{n} 直列化失敗：トランザクション中断"
            );
            (text, Tone::Good)
        }
        _ => (String::new(), Tone::Plain),
    }
}

/// An outage policy's name, with the behaviour it chooses.
pub fn outage_name(lang: Lang, p: OutagePolicy) -> &'static str {
    match p {
        OutagePolicy::FailClosed => lang.t("Fail closed (503)", "フェイルクローズ（503）"),
        OutagePolicy::FailOpen => lang.t("Fail open (no check)", "フェイルオープン（確認なし）"),
    }
}

/// The sandbox's labels for the settings beyond the server, in the order they are drawn.
pub struct Labels {
    /// The fieldset's legend.
    pub legend: &'static str,
    /// Processor answer time.
    pub processor_ms: &'static str,
    /// Slow processor's answer time.
    pub slow_ms: &'static str,
    /// Pass the key on.
    pub pass_key: &'static str,
    /// Recovery points.
    pub recovery_points: &'static str,
    /// Key store capacity.
    pub store_capacity: &'static str,
    /// Outage policy.
    pub outage: &'static str,
    /// A line under the fieldset.
    pub hint: &'static str,
}

/// The labels of the settings beyond the server.
pub fn labels(lang: Lang) -> Labels {
    Labels {
        legend: lang.t("Downstream and key store", "下流とキーストア"),
        processor_ms: lang.t("Card processor answer time", "決済代行の応答時間"),
        slow_ms: lang.t("Slow processor answer time", "遅い決済代行の応答時間"),
        pass_key: lang.t(
            "Pass the key on to the processor (Stripe replays a key)",
            "キーを決済代行に渡す（Stripe はキーでリプレイ）",
        ),
        recovery_points: lang.t(
            "Recovery points (rocket-rides atomic phases)",
            "回復ポイント（rocket-rides の原子的フェーズ）",
        ),
        store_capacity: lang.t(
            "Split store capacity (keys, 0 = no limit)",
            "別ストアの容量（キー数、0 = 無制限）",
        ),
        outage: lang.t(
            "When the split store is unreachable",
            "別ストアに届かないとき",
        ),
        hint: lang.t(
            "Faults for one try: Slow processor (only with a card processor: pick its answer time above), Key store unreachable, Serialization failure.",
            "1回の試行の障害：決済代行が遅い（決済代行があるときだけ：上で応答時間を選ぶ）、キーストアに届かない、直列化失敗。",
        ),
    }
}
