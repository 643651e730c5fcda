//! Words for what teaches around the run: a question's values, why a question no longer
//! applies, a challenge's goal and moves, and why a move was refused.

use crate::sim::lesson::NotPosed;
use crate::sim::lesson::Value;
use crate::sim::teach::{Belief, Challenge, Goal, Measure, MoveKind, MoveRefused};
use crate::sim::ServiceKind;
use crate::ui::i18n::{tr, Lang};

use super::{invariant_name, money, service_name};

/// A value as a choice: a number, or yes/no.
pub fn value_text(lang: Lang, v: Value) -> String {
    match v {
        Value::Int(n) => money(n),
        Value::Bool(true) => lang.t("Yes", "はい").into(),
        Value::Bool(false) => lang.t("No", "いいえ").into(),
    }
}

/// Why the lesson's question does not fit the run on the page.
pub fn not_posed(lang: Lang, why: NotPosed<ServiceKind>) -> String {
    match why {
        NotPosed::NoSuchColumn(kind) => {
            let s = service_name(lang, kind);
            tr!(
                lang,
                "This lesson's question is about the {s} service, which the run on the page no longer has. “Restore the lesson as written” brings it back.",
                "このレッスンの問いは「{s}」サービスについてのものだが、ページの実行にはもうない。「レッスンを元に戻す」で戻せる。"
            )
        }
        NotPosed::NeverAsked => lang
            .t(
                "This lesson's question no longer applies: the moment it asks about does not happen in the run on the page.",
                "このレッスンの問いはもう当てはまらない。問いの場面が、ページの実行では起きない。",
            )
            .into(),
    }
}

/// What a measure counts, as the goal's noun phrase.
fn measure_goal(lang: Lang, m: Measure, target: Value) -> String {
    let n = match target {
        Value::Int(n) => n,
        Value::Bool(_) => 0,
    };
    match m {
        Measure::MostChargesForOneOrder => {
            tr!(lang, "one order charged {n} times", "1つの注文を {n}回課金")
        }
        Measure::MostChargesForOneKey => {
            tr!(lang, "one key charged {n} times", "1つのキーで {n}回課金")
        }
        Measure::Conflicts => {
            let answers = if n == 1 { "answer" } else { "answers" };
            tr!(
                lang,
                "{n} {answers} “409: in flight”",
                "「409：処理中」の応答を {n}回"
            )
        }
        Measure::MostAnswersForOneKey => tr!(
            lang,
            "{n} different answers for one key",
            "1つのキーに {n}種類の答え"
        ),
        Measure::EventLost => lang
            .t(
                "a committed charge whose event is never published",
                "コミットされたのにイベントが発行されない課金",
            )
            .into(),
        Measure::Charges => tr!(lang, "{n} charges", "{n}回の課金"),
        Measure::Balance => tr!(lang, "a balance of {n}", "残高 {n}"),
        Measure::ConsumerApplied => {
            tr!(lang, "{n} receipt e-mails sent", "領収書のメール {n}通")
        }
        Measure::Mismatches => tr!(
            lang,
            "{n} answers “same key, different request”",
            "「同じキーで違うリクエスト」の応答を {n}回"
        ),
        Measure::EventsPublished => tr!(lang, "{n} events published", "発行されたイベント {n}件"),
        Measure::Holds(inv) => tr!(
            lang,
            ["“{}” broken", invariant_name(lang, inv)],
            ["「{}」が破れる", invariant_name(lang, inv)]
        ),
    }
}

/// A challenge's goal, as one sentence.
pub fn goal_text(lang: Lang, c: &Challenge) -> String {
    let Goal {
        measure, target, ..
    } = c.goal;
    let what = measure_goal(lang, measure, target);
    tr!(lang, "Goal: {what}.", "目標：{what}。")
}

/// A kind of move.
pub fn move_name(lang: Lang, k: MoveKind) -> &'static str {
    match k {
        MoveKind::Request => lang.t("send a request", "リクエストを送る"),
        MoveKind::Operation => lang.t(
            "start a retrying client",
            "リトライするクライアントを始める",
        ),
        MoveKind::Parallel => lang.t("send requests at once", "同時にリクエストを送る"),
        MoveKind::Retry => lang.t("retry by hand", "手動でリトライ"),
        MoveKind::AdvanceTime => lang.t("let time pass", "時間を進める"),
        MoveKind::RelayTick => lang.t("run the relay", "リレーを動かす"),
        MoveKind::Deposit => lang.t("deposit", "入金"),
        MoveKind::SetFault => lang.t("change a fault", "障害を変える"),
        MoveKind::Crash => lang.t("crash the server", "サーバーをクラッシュさせる"),
    }
}

/// The moves a challenge allows and how many are left.
pub fn moves_text(lang: Lang, c: &Challenge, used: u32) -> String {
    let kinds: Vec<&str> = c.moves.iter().map(|k| move_name(lang, *k)).collect();
    let kinds = kinds.join(lang.t(", ", "、"));
    let (left, max) = (c.max_moves.saturating_sub(used), c.max_moves);
    let moves = if left == 1 { "move" } else { "moves" };
    let mut t = tr!(
        lang,
        "Allowed: {kinds}. {left} {moves} left of {max}.",
        "使える操作：{kinds}。残り {left}回（全 {max}回）。"
    );
    if let Some(max) = c.max_crashes {
        let crashes = if max == 1 { "crash" } else { "crashes" };
        t.push_str(&tr!(
            lang,
            " At most {max} server {crashes}.",
            "サーバーのクラッシュは {max}回まで。"
        ));
    }
    t
}

/// Why a move was not taken.
pub fn move_refused(lang: Lang, c: &Challenge, r: MoveRefused) -> String {
    match r {
        MoveRefused::NotAllowed(k) => {
            let k = move_name(lang, k);
            let allowed = moves_text(lang, c, 0);
            tr!(lang, "This challenge does not allow “{k}”. {allowed}", "このチャレンジでは「{k}」は使えない。{allowed}")
        }
        MoveRefused::NoMovesLeft { max } => tr!(
            lang,
            "All {max} moves are used. Step through the run, or press Clear to start again.",
            "{max}回の操作をすべて使った。実行を進めて確かめるか、「クリア」でやり直す。"
        ),
        MoveRefused::TooManyCrashes { max } => tr!(
            lang,
            "This challenge allows at most {max} server crash among your moves.",
            "このチャレンジで使えるサーバーのクラッシュは {max}回まで。"
        ),
        MoveRefused::NotThisChallenge => lang
            .t(
                "This run is not a run of this challenge (its services, settings or starting inputs differ), so it was not opened here.",
                "この実行はこのチャレンジのものではない（サービス、設定、最初の入力が違う）ので、ここでは開かなかった。",
            )
            .into(),
    }
}

/// The words file's key of the belief at place `i` of `Belief::ALL`.
pub fn belief_key(i: usize) -> String {
    format!("belief{i}")
}

/// A misconception behind a wrong choice, as the belief a developer holds, and the model that
/// gave its value in parentheses (`text::lessons::belief_text` reads it where the page keeps it).
pub fn belief_words(lang: Lang, b: Belief) -> String {
    use crate::sim::EmitMode as E;
    match b {
        Belief::NothingMore => lang
            .t(
                "Nothing more happens after this moment.",
                "この先は何も起きない。",
            )
            .into(),
        Belief::NothingHappened => lang
            .t(
                "No request here goes through: the account ends as it began.",
                "どのリクエストも通らず、口座は始めのまま。",
            )
            .into(),
        Belief::EveryTryCharges => lang
            .t(
                "Every try the client sends is charged.",
                "送った試行はどれも課金される。",
            )
            .into(),
        Belief::RepeatsRefused => lang
            .t(
                "A key the server has already seen is refused: every repeat gets 409.",
                "一度見たキーは拒否される：繰り返しはどれも409になる。",
            )
            .into(),
        Belief::AsInTheLesson => lang
            .t(
                "The change makes no difference (the lesson's own run).",
                "この変更では何も変わらない（レッスンそのものの結果）。",
            )
            .into(),
        Belief::DeliveredOnce => lang
            .t(
                "Each event is delivered exactly once (a consumer with an inbox).",
                "どのイベントもちょうど1回届く（受信箱のあるコンシューマーの結果）。",
            )
            .into(),
        Belief::KeyAlone => key_alone(lang),
        Belief::LikeService(kind) => {
            let (s, belief) = (service_name(lang, kind), service_belief(lang, kind));
            tr!(
                lang,
                "{belief} (the same inputs on the {s} service).",
                "{belief}（同じ入力を「{s}」サービスで）。"
            )
        }
        Belief::Unseen(kind) => [service_belief(lang, kind), lang.t(".", "。")].concat(),
        Belief::LikeWiring(E::Outbox) => lang
            .t(
                "Writing the event after the commit is as safe as an outbox (the same inputs with an outbox).",
                "コミットの後でイベントを書けばアウトボックスと同じく安全（同じ入力をアウトボックスで）。",
            )
            .into(),
        Belief::LikeWiring(emit) => {
            let w = match emit {
                E::DualWritePublishThenCommit => {
                    lang.t("publish-then-commit", "「発行してからコミット」")
                }
                _ => lang.t("commit-then-publish", "「コミットしてから発行」"),
            };
            tr!(
                lang,
                "The order of the two writes does not matter (the same inputs with {w}).",
                "2つの書き込みの順序は関係ない（同じ入力を{w}で）。"
            )
        }
    }
}

/// "The key alone is enough", of a service that keeps no keys (computed by the atomic one).
fn key_alone(lang: Lang) -> String {
    let s = service_name(lang, ServiceKind::Atomic);
    tr!(
        lang,
        "Sending an Idempotency-Key is enough: the server will not charge the retry again (the same inputs on the {s} service).",
        "Idempotency-Key を送れば十分で、サーバーはリトライをもう一度課金しない（同じ入力を「{s}」サービスで）。"
    )
}

/// The belief that makes a learner expect a service's behaviour from another one.
fn service_belief(lang: Lang, kind: ServiceKind) -> &'static str {
    match kind {
        ServiceKind::Naive => lang.t(
            "The key changes nothing: every request that arrives is charged",
            "キーは何も変えず、届いたリクエストはどれも課金される",
        ),
        ServiceKind::Atomic => lang.t(
            "Looking the key up before charging makes any retry safe",
            "課金の前にキーを調べれば、どんなリトライも安全",
        ),
        ServiceKind::Production => lang.t(
            "The server catches this for you",
            "この重複はサーバーが防いでくれる",
        ),
        ServiceKind::Idempotent => lang.t(
            "A key checked and stored in one step is all it takes",
            "キーを1ステップで確認して保存すれば足りる",
        ),
        ServiceKind::TocTou => lang.t(
            "Checking, charging and storing may each take their own lock",
            "確認・課金・保存は別々のロックでよい",
        ),
        ServiceKind::SplitStore => lang.t(
            "The keys may live in a store of their own",
            "キーは別のストアに置いてよい",
        ),
    }
}
