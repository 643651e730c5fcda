//! The challenges' words, in English and Japanese: a title and what to do, then the debrief shown
//! once a challenge is won or its solution opened (why the moves work, the real failure it
//! mirrors). Goals, moves, the win and the invariants broken are the core's
//! (`crate::sim::teach`); no brief says how to win.

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
        pair!("The production service answers 409 when a request with the same key is still running. Make it say so, in one move.", "本番型サービスは、同じキーのリクエストが処理中なら409を返す。1回の操作で、それを言わせる。"),
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
        pair!("Read another customer's receipt", "他の顧客の領収書を読む"),
        pair!("This production service looks keys up by the key alone, and customer 1 has paid order-1. In one request, make another customer receive customer 1's answer.", "この本番型サービスはキーだけで引く。顧客1は order-1 を支払った。1回のリクエストで、別の顧客に顧客1の応答を受け取らせる。"),
    ),
    (
        "toctou-all-three",
        pair!("Lab: make TOCTOU charge all three", "ラボ：TOCTOU に3回とも課金させる"),
        pair!("Three requests with one key to the TOCTOU service. Be the scheduler: pick who moves so that every one of them charges.", "同じキーのリクエスト3つを TOCTOU サービスへ。スケジューラーになって誰を進めるかを選び、3つすべてに課金させる。"),
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

/// (id, why the winning moves work, the real failure it mirrors): the debrief after a win or
/// after the solution is opened. The invariants it names are the core's, measured on the run.
const DEBRIEF: &[(&str, Pair, Pair)] = &[
    (
        "triple-charge",
        pair!("The naive service keeps no keys, so every retry charges.", "素朴なサービスはキーを持たないので、リトライのたびに課金する。"),
        pair!("A double-tap on Pay, or an SDK retrying a timed-out POST, to an API without keys.", "キーのない API への「支払う」の二度押しや、タイムアウトした POST をリトライする SDK。"),
    ),
    (
        "new-key-double",
        pair!("The retry carried a new key, and to the server a new key is a new payment.", "リトライに新しいキーを付けた。サーバーには新しい支払いに見える。"),
        pair!("A client that makes the Idempotency-Key inside its retry loop.", "Idempotency-Key をリトライのループの中で作るクライアント。"),
    ),
    (
        "split-store-one-crash",
        pair!("The crash fell between the charge's commit and the key's write, so the retry found no key.", "課金のコミットとキーの書き込みの間でクラッシュし、リトライはキーを見つけられなかった。"),
        pair!("Keys in Redis, payments in the database, and a deploy killing the process in between.", "キーは Redis、支払いはデータベース。その間でデプロイがプロセスを止める。"),
    ),
    (
        "get-a-409",
        pair!("The second request came while the first held the lock, and was refused with 409: the guard held.", "2つ目は1つ目がロックを持つ間に届き、409 で拒否された。ガードは働いた。"),
        pair!("A double-tap on Pay before the first answer: Stripe answers the second with 409.", "応答前の「支払う」の二度押し。Stripe は2回目に 409 を返す。"),
    ),
    (
        "expiry-twice",
        pair!("The key is gone after 24 hours, so a retry 25 hours later is a new request.", "キーは24時間で消え、25時間後のリトライは新しいリクエストになる。"),
        pair!("A dead-letter queue replayed the next day, past the keys' retention.", "キーの保持期間を過ぎて翌日に再実行されるデッドレターキュー。"),
    ),
    (
        "two-answers",
        pair!("The failure was not stored, so the retry after the deposit ran again and succeeded: no replay, yet two answers.", "失敗は保存されず、入金後のリトライは実行し直されて成功した。リプレイはないが、答えは2つ。"),
        pair!("A shop that says “payment declined”, then finds the order paid.", "「支払い拒否」と表示したのに注文が支払済みになるショップ。"),
    ),
    (
        "lose-an-event",
        pair!("The crash fell after the commit and before the publish; a dual write cannot make both happen.", "コミットの後、発行の前にクラッシュした。二重書き込みには両方を保証する仕組みがない。"),
        pair!("An order service killed between its database write and its Kafka publish: shipping never hears of it.", "データベースへの書き込みと Kafka への発行の間で落ちた注文サービス。配送は注文を知らない。"),
    ),
    (
        "slow-lock-double",
        pair!("The lock expired after 5 s while the processor was still charging, so the next retry charged again.", "決済代行の処理中にロックが5秒で切れ、次のリトライがもう一度課金した。"),
        pair!("A load balancer retrying a slow upstream once the in-progress record expired (AWS Lambda Powertools).", "処理中の記録が切れた後、遅いアップストリームへリトライするロードバランサー（AWS Lambda Powertools）。"),
    ),
    (
        "another-receipt",
        pair!("Keys are looked up by the key alone, so account 2 got account 1's answer.", "キーだけで引くので、アカウント1と同じキーを送ったアカウント2が、アカウント1の応答を受け取った。"),
        pair!("Keys from guessable order numbers, stored without the account: a data leak.", "推測できる注文番号をアカウントなしでキーにする情報漏洩。"),
    ),
];

/// Why a challenge's winning moves work, and the real failure it mirrors.
pub fn debrief(lang: Lang, id: &str) -> (&'static str, &'static str) {
    DEBRIEF
        .iter()
        .find(|w| w.0 == id)
        .map_or(("", ""), |w| (w.1.get(lang), w.2.get(lang)))
}

/// The lab challenges' debrief, as [`DEBRIEF`] (a table of its own, so the sandbox page does not
/// carry it).
const LAB_DEBRIEF: &[(&str, Pair, Pair)] = &[
    (
        "toctou-all-three",
        pair!("Each request checks the key, then stores it; scheduled so that all three check before any stores, all three find nothing and all three charge.", "各リクエストはキーを調べてから保存する。3つとも保存の前に調べるよう順番を組むと、3つとも何も見つけず、3つとも課金する。"),
        pair!("A SELECT, then an INSERT into an idempotency table without a unique constraint, under concurrent requests.", "一意制約のない冪等性テーブルに対する、同時リクエスト下の SELECT と、その後の INSERT。"),
    ),
    (
        "atomic-impossible",
        pair!("The atomic service claims the key and charges in one indivisible step, so no order of moves leaves a gap; the explorer tried every one.", "アトミックなサービスはキーの確保と課金を分けられない1ステップで行うので、どの順番でも隙間はない。探索器がすべての順番を試した。"),
        pair!("INSERT … ON CONFLICT DO NOTHING (or a unique constraint) as the claim: the database puts the requests in one order.", "確保に INSERT … ON CONFLICT DO NOTHING（または一意制約）を使う。データベースがリクエストを1つの順番に並べる。"),
    ),
];

/// Why a lab challenge's winning moves work, and the real failure it mirrors.
pub fn lab_debrief(lang: Lang, id: &str) -> (&'static str, &'static str) {
    LAB_DEBRIEF
        .iter()
        .find(|w| w.0 == id)
        .map_or(("", ""), |w| (w.1.get(lang), w.2.get(lang)))
}

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

    #[test]
    fn every_challenge_has_a_debrief_in_both_languages() {
        for l in [Lang::En, Lang::Ja] {
            for id in CHALLENGE_IDS {
                let (why, mirrors) = super::debrief(l, id);
                assert!(!why.is_empty() && !mirrors.is_empty(), "{id}");
            }
            for id in LAB_CHALLENGE_IDS {
                let (why, mirrors) = super::lab_debrief(l, id);
                assert!(!why.is_empty() && !mirrors.is_empty(), "{id}");
            }
        }
    }
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
