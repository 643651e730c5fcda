//! The challenges' words, in English and Japanese: a title and what to do. Goals, moves and the
//! win are the core's (`crate::sim::teach`); nothing here says how to win.

use crate::ui::i18n::Lang;

use crate::ui::i18n::{pair, Pair};

/// (id, title, brief) for every challenge, the lab's included.
const WORDS: &[(&str, Pair, Pair)] = &[
    (
        "triple-charge",
        pair!("Charge one order three times", "1つの注文を3回課金する"),
        pair!("The naive service, one charge whose reply is lost. Using only retries, make it charge that order three times.", "素朴なサービスに、応答が失われた課金が1つ。リトライだけで、その注文を3回課金させる。"),
    ),
    (
        "new-key-double",
        pair!("Beat the atomic service", "アトミックなサービスを出し抜く"),
        pair!("The atomic service never charges one key twice. With a single retrying client, make it charge one order twice anyway.", "アトミックなサービスは1つのキーで2回課金しない。リトライするクライアント1つだけで、それでも1つの注文を2回課金させる。"),
    ),
    (
        "split-store-one-crash",
        pair!("One crash, two charges", "クラッシュ1回で2回の課金"),
        pair!("The service keeps its keys in a separate store. With one server crash, make it charge one key twice.", "このサービスはキーを別のストアに置く。サーバーのクラッシュ1回で、1つのキーを2回課金させる。"),
    ),
    (
        "get-a-409",
        pair!("Get a 409", "409 を受け取る"),
        pair!("The production service answers 409 when a request with the same key is still running. Make it say so, in one move.", "本番型サービスは、同じキーのリクエストが処理中なら409を返す。1手で、それを言わせる。"),
    ),
    (
        "expiry-twice",
        pair!("Outlive the key", "キーより長生きする"),
        pair!("The production service keeps every key for 24 hours. Make it charge one key twice.", "本番型サービスはどのキーも24時間保持する。1つのキーを2回課金させる。"),
    ),
    (
        "two-answers",
        pair!("Two answers for one key", "1つのキーに2つの答え"),
        pair!("The production service here stores only successful answers, and the balance is 50. Make one key get two different answers.", "ここでの本番型サービスは成功した答えだけを保存し、残高は50。1つのキーに2つの違う答えを返させる。"),
    ),
    (
        "lose-an-event",
        pair!("Lose an event", "イベントを失わせる"),
        pair!("The atomic service commits a charge, then publishes its event: a dual write. Make a committed charge whose event is never published.", "アトミックなサービスが課金をコミットしてからイベントを発行する（二重書き込み）。コミットされたのにイベントが発行されない課金を作る。"),
    ),
    (
        "another-receipt",
        pair!("Read another customer's receipt", "他の顧客の領収を読む"),
        pair!("This production service looks keys up by the key alone, and customer 1 has paid order-1. In one request, make another customer receive customer 1's answer.", "この本番型サービスはキーだけで引く。顧客1は order-1 を支払った。1回のリクエストで、別の顧客に顧客1の応答を受け取らせる。"),
    ),
    (
        "toctou-all-three",
        pair!("Lab: make TOCTOU charge all three", "ラボ：TOCTOU に3回とも課金させる"),
        pair!("Three requests with one key to the TOCTOU service. Be the scheduler: pick who moves so that every one of them charges.", "同じキーのリクエスト3つを TOCTOU サービスへ。スケジューラになって誰を進めるかを選び、3つすべてに課金させる。"),
    ),
    (
        "atomic-impossible",
        pair!("Lab: prove the atomic service safe", "ラボ：アトミックなサービスの安全を証明する"),
        pair!("Try the same on the atomic service, then let the explorer search every schedule and prove that none charges twice.", "同じことをアトミックなサービスで試し、探索器にすべてのスケジュールを調べさせて、どれも二重課金しないことを証明する。"),
    ),
    (
        "slow-lock-double",
        pair!("Charge twice with one key", "1つのキーで二重課金する"),
        pair!("Every request carries the same key and the production service is atomic; its in-flight lock lasts 5 s, the slow processor answers in 30 s. Make the card be charged twice.", "どのリクエストも同じキーを持ち、本番型サービスは原子的。処理中ロックは5秒、遅い決済代行の応答は30秒。それでもカードを2回課金させる。"),
    ),
];

/// A challenge's title.
pub fn title(lang: Lang, id: &str) -> &'static str {
    WORDS
        .iter()
        .find(|w| w.0 == id)
        .map_or("", |w| w.1.get(lang))
}

/// What a challenge asks.
pub fn brief(lang: Lang, id: &str) -> &'static str {
    WORDS
        .iter()
        .find(|w| w.0 == id)
        .map_or("", |w| w.2.get(lang))
}

#[cfg(test)]
mod tests {
    use crate::sim::teach::{CHALLENGE_IDS, LAB_CHALLENGE_IDS};
    use crate::ui::i18n::Lang;

    #[test]
    fn every_challenge_has_words_in_both_languages() {
        for id in CHALLENGE_IDS.iter().chain(LAB_CHALLENGE_IDS.iter()) {
            for l in [Lang::En, Lang::Ja] {
                assert!(
                    !super::title(l, id).is_empty() && !super::brief(l, id).is_empty(),
                    "{id}"
                );
            }
        }
    }
}
