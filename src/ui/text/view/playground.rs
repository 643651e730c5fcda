//! The playground views' words (see the parent module), grouped by the file in
//! `src/ui/playground/` that shows them.

use crate::sim::limits::{
    InputError, MAX_ATTEMPTS, MAX_JSON_BYTES, MAX_PARALLEL_REQUESTS, MAX_URL_BYTES,
};
use crate::sim::{CheckOutcome, Consumer, Counters, EventKind};
use crate::ui::i18n::{pair, tr, Lang, Pair};
use crate::ui::share::ShareError;
use crate::ui::text::{grouped, input_error};

// page.rs

/// Under the run's controls: what one step is.
pub const PACE_NOTE: Pair = pair!(
    "Each step runs the next event in every column. A column with less to do finishes sooner, so compare columns by what happened, not by step number.",
    "1ステップで各列の次のイベントを1つずつ実行する。やることが少ない列は早く終わるので、列どうしはステップ番号ではなく起きたことで比べる。"
);

// state.rs: the messages of the page's state

/// An import built, and whether this browser keeps it.
pub fn imported(l: Lang, kept: bool) -> &'static str {
    if kept {
        l.t(
            "Imported. Step through it or press Play.",
            "読み込んだ。ステップで進めるか再生してください。",
        )
    } else {
        l.t(
            "Imported. This run is too large to keep in this browser, so a reload will not bring it back: use Download JSON to keep it.",
            "読み込んだ。ただしこの実行はこのブラウザーに保存するには大きすぎ、再読み込みで消える。残すには「JSON をダウンロード」を使う。",
        )
    }
}
/// A change made the run too large to keep.
pub const NOW_TOO_LARGE: Pair = pair!(
    "This run is now too large to keep in this browser, so a reload will not bring it back: use Download JSON to keep it.",
    "この実行はこのブラウザーに保存するには大きくなりすぎたので、再読み込みすると消える。残すには「JSON をダウンロード」を使ってください。"
);
/// Between a message and the note about a key no client could send.
pub const KEY_NOTE_SEP: Pair = pair!(" ", "");
/// A fork was made.
pub const RUN_FORKED: Pair = pair!(
    "The run is changed from here: step on to see what happens now.",
    "ここから実行が変わった。進めて何が起きるか見てください。"
);
/// Cancel while the page opened a run: the route's own scenario instead.
pub const CANCELLED_OPENED_SCENARIO: Pair = pair!(
    "Loading was cancelled, so the page opened the scenario as written instead.",
    "読み込みを取り消したので、代わりに元のシナリオを開いた。"
);
/// Cancel while the page opened a run, with no scenario to open instead.
pub const CANCELLED_NO_SCENARIO: Pair = pair!(
    "Loading was cancelled, and this address names no built-in scenario to open instead. Pick one above.",
    "読み込みを取り消した。このアドレスには代わりに開ける組み込みシナリオがない。上から選んでください。"
);
/// Cancel during an import.
pub const IMPORT_CANCELLED: Pair = pair!(
    "Import cancelled: the run on the page is unchanged.",
    "読み込みを取り消した。ページの実行は変わっていない。"
);
/// Cancel during a change.
pub const CHANGE_CANCELLED: Pair = pair!(
    "Cancelled: the change was not applied.",
    "取り消した。変更は適用していない。"
);

// open.rs: how the page opened

/// A share link that could not be read.
pub fn share_error(lang: Lang, e: &ShareError) -> String {
    match e {
        ShareError::LinkTooLong { bytes } => {
            let (bytes, max) = (grouped(*bytes as u64), grouped(MAX_URL_BYTES as u64));
            tr!(lang, "This link is too long ({bytes} bytes; at most {max} are read). Nothing was loaded from it.", "このリンクは長すぎる（{bytes}バイト、読めるのは {max}バイトまで）。何も読み込んでいない。")
        }
        ShareError::NotBase64 | ShareError::NotText | ShareError::Missing => lang.t(
            "This share link is damaged (its data is not readable), so the page opened the scenario without it.",
            "この共有リンクは壊れている（データが読めない）ので、リンクの内容なしでシナリオを開いた。").into(),
    }
}

/// A share link whose scenario cannot be used: a damaged link (bad JSON) or a scenario this page
/// refuses (another version, a value out of range), with the reason.
pub fn link_scenario_error(lang: Lang, e: &InputError) -> String {
    match e {
        InputError::JsonInvalid { .. } => lang.t(
            "This share link is damaged (its scenario is not readable JSON), so the page opened the scenario without it.",
            "この共有リンクは壊れている（シナリオが読める JSON ではない）ので、リンクの内容なしでシナリオを開いた。").into(),
        _ => tr!(lang, ["This share link's scenario cannot be opened: {} The page opened the scenario without it.", input_error(lang, e)], ["この共有リンクのシナリオは開けない：{} リンクの内容なしでシナリオを開いた。", input_error(lang, e)]),
    }
}

/// A share link's step that is not a whole number.
pub const STEP_UNREADABLE: Pair = pair!(
    "This share link's step number is not a whole number from 0 up, so the shared run opened at the start.",
    "この共有リンクのステップ番号が 0 以上の整数ではないので、共有された実行を最初から開いた。"
);
/// A share link opened.
pub const OPENED_SHARED: Pair = pair!(
    "Opened the shared run at the sender's step.",
    "共有された実行を送り手のステップで開いた。"
);

/// The property-check page's link opened its counterexample at `step` (0: no step broke it).
pub fn opened_counterexample(lang: Lang, step: usize) -> String {
    if step == 0 {
        lang.t(
            "Opened the counterexample from the property checks at its start.",
            "プロパティベーステストの反例を最初から開いた。",
        )
        .to_string()
    } else {
        tr!(
            lang,
            "Opened the counterexample from the property checks at step {step}, where the property broke.",
            "プロパティベーステストの反例を、プロパティが破れたステップ {step} で開いた。"
        )
    }
}

/// The last run in this browser could not be restored.
pub fn restore_failed(lang: Lang, e: &InputError) -> String {
    tr!(
        lang,
        [
            "Your last run in this browser could not be restored: {} The page opened the scenario as written.",
            input_error(lang, e)
        ],
        [
            "このブラウザーに保存された前回の実行を復元できなかった：{} 元のシナリオを開いた。",
            input_error(lang, e)
        ]
    )
}

/// A route that names no built-in scenario.
pub const NO_SUCH_SCENARIO: Pair = pair!(
    "There is no built-in scenario with this name. Pick one from the list above.",
    "この名前の組み込みシナリオはない。上の一覧から選んでください。"
);

// scenario_nav.rs: the lesson list

/// A done lesson's mark.
pub const MARK_DONE: Pair = pair!("done", "済み");
/// A won challenge's mark.
pub const MARK_WON: Pair = pair!("won", "達成");
/// After a page of its own that is not built yet.
pub const NOT_BUILT_YET: Pair = pair!(" (not built yet)", "（未完成）");
/// The challenges' heading.
pub const CHALLENGES: Pair = pair!("Challenges", "チャレンジ");
/// The sandbox's link.
pub const SANDBOX_LINK: Pair = pair!("Sandbox: anything you like", "サンドボックス：自由に");
/// The list's name.
pub const LESSONS: Pair = pair!("Lessons", "レッスン");

/// The list's button: how far the learner has got.
pub fn toc_summary(
    l: Lang,
    done: usize,
    total: usize,
    won: usize,
    challenges_total: usize,
) -> String {
    tr!(
        l,
        "Lessons: {done} of {total} done · challenges: {won} of {challenges_total} won",
        "レッスン：{done}/{total} 完了・チャレンジ：{won}/{challenges_total} 達成"
    )
}

// notice.rs

/// The close button of the message above the run.
pub const DISMISS_MESSAGE: Pair = pair!("Dismiss message", "メッセージを閉じる");

// intro.rs: the card above the run

/// The sandbox card's heading.
pub const SANDBOX_HEADING: Pair = pair!("Sandbox", "サンドボックス");
/// What the sandbox is for.
pub const SANDBOX_INTRO: Pair = pair!(
    "Send charges with a key you choose, break the network or the server on purpose, retry with the same key or a new one, and watch every service take the same inputs.",
    "自分のキーで課金を送り、ネットワークやサーバーをわざと壊し、同じキーか新しいキーでリトライして、各サービスが同じ入力をどう扱うかを見る。"
);
/// Before the next lesson's number and title.
pub const NEXT_LESSON: Pair = pair!("Next: ", "次へ：");
/// While a one-language page fetches the lessons' words, and when it could not.
pub const WORDS_LOADING: Pair = pair!(
    "Loading the lesson's text…",
    "レッスンの本文を読み込んでいます…"
);
pub const WORDS_FAILED: Pair = pair!(
    "The lesson's text could not be loaded: check the connection and reload the page. The run below works without it.",
    "レッスンの本文を読み込めなかった。接続を確かめてページを再読み込みしよう。下の実行は本文なしでも動く。"
);
pub const VARIATION_QUESTION: Pair = pair!(
    "A question on a case you have not run",
    "まだ動かしていない場合の問い"
);
/// Before the pages of their own between a lesson and the next.
pub const ON_THE_WAY: Pair = pair!("On the way, pages of their own: ", "寄り道のページ：");
/// Between the labels of the events of one step, in the caption.
// The closing card, after the last lesson.
pub const CLOSING_HEADING: Pair = pair!(
    "The end of the path: what it taught",
    "コースの終わり：学んだこと"
);
pub const CLOSING_INTRO: Pair = pair!(
    "Every rule below is the takeaway of a lesson whose run you stepped through; the number opens it again. The card prints on its own.",
    "下の規則はどれも、実行を一歩ずつ確かめたレッスンのまとめ。番号からもう一度開ける。このカードだけを印刷できる。"
);
/// In the last lesson's card until its question is answered (the card's rules would give the
/// answer away).
pub const CLOSING_AFTER_ANSWER: Pair = pair!(
    "Once you have answered, the path's closing card follows here.",
    "答えると、ここにコースのまとめのカードが出る。"
);
pub const CLOSING_ONWARD: Pair = pair!("Where to go on", "この先へ");
pub const CLOSING_CHALLENGES: Pair = pair!(
    "The challenges: you are the adversary; find the inputs that charge twice.",
    "チャレンジ：攻撃者になって、二重課金させる入力を探す。"
);
pub const CLOSING_LAB: Pair = pair!(
    "The concurrency lab: play the scheduler, and see the services as SQL on PostgreSQL.",
    "並行性ラボ：スケジューラーを操り、サービスを PostgreSQL 上の SQL として見る。"
);
pub const CLOSING_DURABLE: Pair = pair!(
    "Durable execution: Temporal, Restate and DBOS, when one transaction is not enough.",
    "永続実行：トランザクション1つでは足りないときの Temporal・Restate・DBOS。"
);
pub const CLOSING_KAFKA: Pair = pair!(
    "Kafka's idempotent producer: producer ids and sequence numbers.",
    "Kafka の冪等プロデューサー：プロデューサー IDとシーケンス番号。"
);
pub const CLOSING_NEXT: Pair = pair!("Next: the challenges →", "次へ：チャレンジ →");
pub const CLOSING_PRINT: Pair = pair!("Print this card", "このカードを印刷する");
/// The glossary's heading, and the link to it beside each lesson's "Next" (its words are in the
/// words file: `text::glossary`).
pub const GLOSSARY: Pair = pair!("Glossary", "用語集");

/// Why the run on screen is not the lesson as written: forked at a step (and nothing else
/// changed), or other services or an import.
pub fn lesson_changed(l: Lang, only_forked_at: Option<usize>) -> String {
    match only_forked_at {
        Some(k) => tr!(
            l,
            "You forked this run at step {k}: from there on it is not the lesson as written.",
            "ステップ {k} で分岐した。そこから先は書かれたとおりのレッスンではない。"
        ),
        // Other services or an import (the fork panel's own line says where it was forked).
        None => l
            .t(
                "The run below is not this lesson as written: its services were changed or a scenario was imported.",
                "下の実行は書かれたとおりのレッスンではない。サービスを変えたか、シナリオを読み込んだ。",
            )
            .to_string(),
    }
}

/// The button that brings the lesson back.
pub const RESTORE_LESSON: Pair = pair!("Restore the lesson as written", "レッスンを元に戻す");

// challenge_card.rs

/// Before the challenge's title.
pub const CHALLENGE_PREFIX: Pair = pair!("Challenge: ", "チャレンジ：");
/// The goal is met.
pub const CHALLENGE_WON: Pair = pair!(
    "★ Won! The goal is met at this step. ",
    "★ 達成！このステップで目標を満たした。"
);

/// The link to the learner's own solution.
pub const SOLUTION_LINK: Pair = pair!("Link to your solution", "自分の解答へのリンク");
/// Not met yet, with steps to go.
pub const CHALLENGE_OPEN: Pair = pair!(
    "Not yet: add moves below, then step through the run; the goal is checked after every step.",
    "まだ。下で操作して実行を進める。目標は1ステップごとに確かめる。"
);
/// Not met at the run's end.
pub const CHALLENGE_ENDED: Pair = pair!(
    "Not won: the run is over and the goal is not met at its end. “Clear all inputs” below takes your moves back; try others and step through the run again.",
    "未達成：実行は終わったが、目標を満たしていない。下の「入力をすべて消す」で操作を取り消し、別の操作で試そう。"
);
/// The solution's fold.
pub const STUCK: Pair = pair!("Stuck? A solution", "行き詰まったら：解答例");
/// The button that opens the solution.
pub const OPEN_SOLUTION: Pair = pair!(
    "Open a solution (it replaces your moves)",
    "解答例を開く（自分の操作は置き換わる）"
);
/// The debrief's heading, once won.
pub const DEBRIEF: Pair = pair!("Debrief", "振り返り");
/// Before why the moves work.
pub const DEBRIEF_WHY: Pair = pair!("Why it works", "なぜうまくいくのか");
/// Before the invariants the run broke.
pub const DEBRIEF_BROKE: Pair = pair!("Invariant broken", "破れた不変条件");
/// Before the real failure the challenge mirrors.
pub const DEBRIEF_MIRRORS: Pair = pair!("The real failure it mirrors", "現実の障害では");
/// No invariant broken.
pub const DEBRIEF_NONE_BROKEN: Pair = pair!(
    "None: every invariant the model checks holds.",
    "なし：モデルが検査する不変条件はすべて保たれている。"
);
/// An invariant the run broke by the cursor.
pub fn broken_at(l: Lang, name: &str, step: usize) -> String {
    tr!(
        l,
        "{name} (broken at step {step})",
        "{name}（ステップ {step} で破れた）"
    )
}

// predict.rs: predict, then reveal

/// A service's end without several accounts: "Naive: balance 800".
pub fn outcome_balance(l: Lang, name: &str, b: i64) -> String {
    let b = crate::ui::text::money(b);
    tr!(l, "{name}: balance {b}", "{name}：残高 {b}")
}
/// A service's end with several accounts, before them: "Naive: balances (".
pub fn outcome_balances_open(l: Lang, name: &str) -> String {
    tr!(l, "{name}: balances (", "{name}：残高（")
}
/// Between the accounts of [`outcome_balances_open`].
pub const OUTCOME_ACCOUNT_SEP: Pair = pair!(", ", "、");
/// After them.
pub const OUTCOME_BALANCES_CLOSE: Pair = pair!(")", "）");
/// After a service's charges: the count its question asks about, when that is another.
pub fn outcome_count(
    l: Lang,
    m: crate::sim::teach::Measure,
    v: crate::sim::lesson::Value,
) -> String {
    use crate::sim::teach::Measure as M;
    let n = match v {
        crate::sim::lesson::Value::Int(n) => n,
        crate::sim::lesson::Value::Bool(_) => 0,
    };
    let (en, ja) = match m {
        M::ConsumerApplied => ("receipt e-mails", "領収書のメール"),
        M::EventsPublished => ("events published", "発行したイベント"),
        M::Conflicts => ("answers “409: in flight”", "「409：処理中」の応答"),
        M::Mismatches => (
            "answers “same key, different request”",
            "「同じキーで違うリクエスト」の応答",
        ),
        M::MostAnswersForOneKey => ("most answers for one key", "1つのキーへの答えの種類"),
        M::MostChargesForOneOrder => (
            "most charges for one order",
            "1つの注文への課金回数（最多）",
        ),
        _ => ("most charges for one key", "1つのキーへの課金回数（最多）"),
    };
    tr!(l, "{en}: {n}", "{ja}：{n}")
}

/// After a service's balance: its charges.
pub fn outcome_charges(l: Lang, n: usize) -> String {
    let charges = if n == 1 { "charge" } else { "charges" };
    tr!(l, ", {n} {charges}", "、課金\u{a0}{n}\u{a0}回")
}
/// Before the services' ends.
pub const HOW_THE_RUN_ENDS: Pair = pair!("How the run ends: ", "この実行の結末：");
/// The learner picked the run's answer.
pub fn verdict_right(l: Lang, right: &str) -> String {
    tr!(l, "✓ Right: {right}.", "✓ 正解：{right}。")
}
/// The learner picked another value.
pub fn verdict_wrong(l: Lang, said: &str, right: &str) -> String {
    tr!(
        l,
        "✕ Not quite: you said {said}, the run gives {right}.",
        "✕ はずれ：予想は「{said}」、実行の答えは「{right}」。"
    )
}
/// The learner skipped the question.
pub fn verdict_skipped(l: Lang, right: &str) -> String {
    tr!(
        l,
        "Skipped. The run gives {right}.",
        "スキップした。実行の答えは「{right}」。"
    )
}
/// Before the question.
pub const PREDICT_PREFIX: Pair = pair!("Predict: ", "予想：");
/// The button that asks again.
/// The lesson's card while the run on the page is its variation's (loaded from the variation
/// question): the lesson's own question is about another run.
pub const ON_VARIATION: Pair = pair!(
    "This run is the variation, not the lesson as built: the question below is the one about it. “Reset this lesson” brings back the lesson's own run.",
    "この実行はレッスンの実行ではなく、条件を変えた版。これについての問いは下にある。「このレッスンを最初に戻す」でレッスン自身の実行に戻る。"
);
pub const ASK_AGAIN: Pair = pair!("Ask me again", "もう一度答える");

// build_progress.rs

/// How far a long run's build has got.
pub fn building_so_far(l: Lang, events: u64) -> String {
    let n = grouped(events);
    tr!(
        l,
        "Building the run: {n} events so far…",
        "実行を組み立て中：これまで {n} イベント…"
    )
}
/// The progress bar's name.
pub const BUILDING_THE_RUN: Pair = pair!("Building the run", "実行の組み立て");
/// The button that drops the build.
pub const CANCEL_BUILD: Pair = pair!("Cancel", "取り消す");

// caption.rs: the caption beside the controls

/// What a key check found, for the caption.
fn check_meaning(l: Lang, outcome: CheckOutcome) -> &'static str {
    match outcome {
        CheckOutcome::Hit => l.t(
            "The key is stored, so the server sends the first answer back instead of charging.",
            "キーが保存済みなので、サーバーは課金せずに最初の答えを返す。",
        ),
        CheckOutcome::Miss => l.t(
            "No record of this key: the server goes on to charge.",
            "このキーの記録はない。サーバーは課金に進む。",
        ),
        CheckOutcome::Conflict => l.t(
            "A request with this key is still running: 409, try again later.",
            "このキーのリクエストがまだ処理中：409、後でもう一度。",
        ),
        CheckOutcome::Mismatch => l.t(
            "This key was used for a different request: refused.",
            "このキーは別のリクエストに使われた：拒否。",
        ),
        CheckOutcome::RetryMismatch => l.t(
            "A retry of the same payment, refused: the fingerprint took in a field that changed between tries.",
            "同じ支払いのリトライなのに拒否された。フィンガープリントが試行ごとに変わる項目を含んでいた。",
        ),
        CheckOutcome::LockExpired => l.t(
            "The request that claimed this key never finished in time: its lock ran out, so this one takes the key over.",
            "このキーを確保したリクエストが時間内に終わらなかった。ロックが切れたので、このリクエストがキーを引き継ぐ。",
        ),
        CheckOutcome::Expired => l.t(
            "The key's record has expired, so this looks like a new payment.",
            "キーの記録が期限切れなので、新しい支払いに見える。",
        ),
    }
}

/// What an event means, for the events whose label alone does not say it.
pub fn step_meaning(l: Lang, e: &EventKind) -> Option<&'static str> {
    use EventKind as E;
    Some(match e {
        E::StoreCheck { outcome, .. } => check_meaning(l, *outcome),
        E::Charge { .. } | E::ProcessorCharge { .. } => {
            l.t("Money leaves the account.", "口座からお金が出ていく。")
        }
        E::Rollback { .. } => l.t(
            "The transaction is undone, its charge with it.",
            "トランザクションが取り消され、課金も消える。",
        ),
        E::ServerCrash { .. } => l.t(
            "The server dies mid-request: what it committed stays, the rest is gone.",
            "サーバーが処理の途中で落ちる。コミット済みのものは残り、残りは消える。",
        ),
        E::ResponseLost { .. } => l.t(
            "The work is done, but the client will never hear about it.",
            "処理は済んだが、クライアントはそれを知ることがない。",
        ),
        E::RequestLost { .. } => l.t(
            "The server never sees this request.",
            "サーバーはこのリクエストを見ることがない。",
        ),
        E::ClientTimeout { .. } => l.t(
            "No reply in time: the client cannot tell whether it was charged.",
            "時間内に応答がない。クライアントには課金されたか分からない。",
        ),
        E::ClientRetryScheduled { .. } => {
            l.t("The client will try again.", "クライアントはもう一度試す。")
        }
        E::RelayPublish { delivery, .. } if *delivery > 1 => l.t(
            "The relay sends an event it has sent before.",
            "リレーが、前にも送ったイベントをまた送る。",
        ),
        // A consumer without an inbox applies the event again: the second receipt.
        E::ConsumerDuplicate { applied: true, .. } => l.t(
            "The consumer keeps no inbox, so it acts on the same event again.",
            "コンシューマーは受信箱を持たないので、同じイベントでもう一度動く。",
        ),
        E::ConsumerDuplicate { applied: false, .. } => l.t(
            "The consumer's inbox has this event already: ignored.",
            "コンシューマーの受信箱にこのイベントがある：無視。",
        ),
        E::KeyExpired { .. } => l.t("The store forgets the key.", "ストアがキーを忘れる。"),
        _ => return None,
    })
}

/// The caption before the first step.
pub const NOTHING_YET: Pair = pair!(
    "Step 0: nothing has happened yet.",
    "ステップ 0：まだ何も起きていない。"
);
/// The caption when no column did anything at this step.
pub fn all_finished(l: Lang, at: usize) -> String {
    tr!(
        l,
        "Step {at}: every service has finished.",
        "ステップ {at}：どのサービスも終わっている。"
    )
}
/// The caption's head: the step and the column it tells about.
pub fn caption_head(l: Lang, at: usize, col: &str) -> String {
    tr!(l, "Step {at} · {col}: ", "ステップ {at}・{col}：")
}
/// A column's charges in the balance strip.
pub fn strip_charges(l: Lang, n: usize) -> String {
    let charges = if n == 1 { "charge" } else { "charges" };
    tr!(l, "{n} {charges}", "課金\u{a0}{n}\u{a0}回")
}
/// The balance strip's name.
pub const BALANCES: Pair = pair!("Balances", "残高");

// fork.rs: the fork control

/// Time jumps offered: a second, past the production service's 90 s in-flight lock, past a
/// day's retention.
pub const FORK_JUMPS: [(u64, Pair); 3] = [
    (1_000, pair!("+1 s", "+1秒")),
    (91_000, pair!("+91 s", "+91秒")),
    (25 * 3_600_000, pair!("+25 h", "+25時間")),
];
/// While the lesson's question waits.
pub const FORK_WAITING: Pair = pair!(
    "Answer or skip the question first: a fork runs the rest again, and would show its answer.",
    "先に問いに答えるかスキップしてください。分岐すると残りを実行し直すので答えが見えてしまう。"
);
/// An attempt on its way, whose fault can be changed: operation `n`'s try `attempt`.
pub fn fork_fault_label(l: Lang, n: u32, attempt: u32) -> String {
    tr!(
        l,
        "#{n} try {attempt} (on its way):",
        "#{n} 試行{attempt}（送信中）："
    )
}
/// What a fork does.
pub const FORK_INTRO: Pair = pair!(
    "Change what happens next: the steps up to here stay as they were, the rest runs again. Back shows the same past.",
    "この先に起きることを変える。ここまでのステップはそのままで、残りを実行し直す。戻るで同じ過去が見える。"
);
/// No attempt is on its way.
pub const NOTHING_ON_ITS_WAY: Pair = pair!(
    "No request is on its way to the server at this step.",
    "このステップでサーバーへ向かっているリクエストはない。"
);
/// Fork: a retry by hand.
pub const FORK_RETRY: Pair = pair!(
    "Retry the last client now (same key; its own retries stop)",
    "最後のクライアントを今リトライ（同じキー。自動のリトライは止まる）"
);
/// Fork: a crash.
pub const FORK_CRASH: Pair = pair!("Crash the server", "サーバーをクラッシュ");
/// What a jump in time does.
pub const FORK_TIME_NOTE: Pair = pair!(
    "A jump in time lets whatever falls due before then happen first: retries, timeouts, answers on their way.",
    "時間を進めると、その間に予定されていたこと（リトライ、タイムアウト、届く途中の応答）が先に起きる。"
);
/// The control's summary.
pub fn fork_summary(l: Lang, k: usize) -> String {
    tr!(l, "Fork the run at step {k}", "ステップ {k} で実行を分岐")
}
/// Where the run was forked.
pub fn forked_at(l: Lang, steps: &[String]) -> String {
    tr!(
        l,
        ["Forked at step {}.", steps.join(", ")],
        ["ステップ {} で分岐した。", steps.join("、")]
    )
}

// services.rs

/// The service picker's legend.
pub const SERVICES_LEGEND: Pair = pair!(
    "Services side by side (same inputs)",
    "並べるサービス（同じ入力）"
);

// sandbox.rs

/// The sandbox's heading.
pub const SEND_REQUESTS: Pair = pair!("Send requests", "リクエストを送る");
/// What Clear does.
pub const CLEAR_INPUTS_TITLE: Pair = pair!(
    "Remove every input sent so far; the services and settings stay",
    "これまでに送った入力をすべて消す。サービスと設定はそのまま"
);
/// The Clear button, with the inputs it would remove.
pub fn clear_inputs(l: Lang, inputs: usize) -> String {
    tr!(
        l,
        ["Clear all inputs ({})", inputs],
        ["入力をすべて消す（{}）", inputs]
    )
}

// caller_fields.rs: who sends it

/// The fieldset's legend.
pub const CALLER_LEGEND: Pair = pair!(
    "Who sends it (a charge or a client)",
    "送り手（課金またはクライアント）"
);
/// The account select's label.
pub const CUSTOMER_ACCOUNT: Pair = pair!("Customer account", "顧客アカウント");
/// An account in the select.
pub fn account_option(l: Lang, a: u32) -> String {
    tr!(l, "account {a}", "アカウント {a}")
}
/// The stamped-body box.
pub const STAMPS_BODY: Pair = pair!(
    "The client writes the time into every body",
    "クライアントが本文に毎回時刻を書く"
);
/// The no-key box.
pub const SEND_NO_KEY: Pair = pair!("Send no Idempotency-Key", "Idempotency-Key を送らない");

// charge_fields.rs: one charge

/// The fieldset's legend.
pub const ONE_CHARGE: Pair = pair!("One charge", "1回の課金");
/// The key field's label.
pub const KEY_FIELD: Pair = pair!(
    "Idempotency key (empty: the client mints a UUID)",
    "冪等性キー（空ならクライアントがUUIDを生成）"
);
/// Generate a v4 key.
pub const NEW_UUID_V4: Pair = pair!("New UUID v4", "UUID v4 を生成");
/// Generate a v7 key.
pub const NEW_UUID_V7: Pair = pair!("New UUID v7", "UUID v7 を生成");
/// v4 and v7.
pub const UUID_NOTE: Pair = pair!(
    "v4 is random. v7 puts the time first, so keys created later sort later and a database index on them stays compact.",
    "v4 はランダム。v7 は先頭に時刻が入るので後に作ったキーほど後ろに並び、データベースのインデックスがまとまる。"
);
/// The amount field's label.
pub const AMOUNT: Pair = pair!("Amount", "金額");
/// The fault select's label.
pub const FAULT_FOR_ATTEMPT: Pair = pair!("Fault for this attempt", "この試行の障害");
/// Send the charge.
pub const SEND: Pair = pair!("Send", "送信");
/// Retry with the same key.
pub const RETRY_SAME_KEY: Pair = pair!("Retry it with the same key", "同じキーでリトライ");
/// Retry with a new key.
pub const RETRY_NEW_KEY: Pair = pair!("Retry it with a new key", "新しいキーでリトライ");
/// What a retry resends, with the last operation's key if there is one.
pub fn retry_note(l: Lang, last_key: Option<&str>) -> String {
    match last_key {
        Some(k) => tr!(l, "A retry resends the last charge from the same customer with the same amount (the fault above applies to the retry); its key so far: {k}", "リトライは直前の課金を同じ顧客・同じ金額でもう一度送る（上の障害はリトライに効く）。これまでのキー：{k}"),
        None => l.t("Retries resend the last charge; send one first (its key is minted when the first step runs).", "リトライは直前の課金をもう一度送る。まず1回送ってください（キーは最初のステップで生成される）。").to_string(),
    }
}

// client_fields.rs: concurrent duplicates and a retrying client

/// The concurrent duplicates' legend.
pub const CONCURRENT_DUPLICATES: Pair = pair!("Concurrent duplicates", "同時の重複リクエスト");
/// How many at once, with the range.
pub fn requests_at_once(l: Lang) -> String {
    tr!(
        l,
        "Requests at once (2–{MAX_PARALLEL_REQUESTS})",
        "同時に送る数（2–{MAX_PARALLEL_REQUESTS}）"
    )
}
/// Send them.
pub const SEND_WITH_ONE_KEY: Pair = pair!("Send them with one key", "1つのキーで同時に送る");
/// The retrying client's legend.
pub const RETRYING_CLIENT: Pair = pair!("A retrying client", "リトライするクライアント");
/// The retry policy select's label.
pub const RETRY_POLICY: Pair = pair!("Retry policy", "リトライ方針");
/// The attempts field's label, with the range.
pub fn max_attempts(l: Lang) -> String {
    tr!(
        l,
        "Max attempts (1–{MAX_ATTEMPTS})",
        "最大試行回数（1–{MAX_ATTEMPTS}）"
    )
}
/// The new-key-per-retry box.
pub const NEW_KEY_PER_RETRY: Pair = pair!(
    "New key per retry (the common bug)",
    "リトライごとに新しいキー（よくあるバグ）"
);
/// Run the client.
pub const RUN_CLIENT: Pair = pair!(
    "Run the client (fault above on try 1)",
    "クライアントを実行（上の障害を1回目に）"
);

// world_fields.rs: time, money, relay

/// The fieldset's legend.
pub const TIME_MONEY_RELAY: Pair = pair!("Time, money, relay", "時間・入金・リレー");
/// A minute on.
pub const PLUS_1_MIN: Pair = pair!("+1 min", "+1分");
/// An hour on.
pub const PLUS_1_H: Pair = pair!("+1 h", "+1時間");
/// 25 hours on.
pub const PLUS_25_H: Pair = pair!("+25 h", "+25時間");
/// The deposit field's label.
pub const DEPOSIT_FIELD: Pair = pair!("Deposit (into account 0)", "入金（アカウント 0 へ）");
/// The deposit button.
pub const DEPOSIT: Pair = pair!("Deposit", "入金する");
/// The relay-crashes box.
pub const RELAY_CRASHES: Pair = pair!(
    "relay crashes after publishing",
    "リレーが発行後にクラッシュ"
);
/// Run the relay.
pub const RUN_RELAY: Pair = pair!("Run the relay", "リレーを動かす");

// scenario_settings.rs: events and the production service's policies

/// The events fieldset's legend.
pub const EVENTS_LEGEND: Pair = pair!(
    "Events downstream (every service)",
    "下流へのイベント（全サービス）"
);
/// The events select's label.
pub const EVENTS: Pair = pair!("Events", "イベント");
/// The consumer's inbox box.
pub const CONSUMER_DEDUPES: Pair = pair!(
    "Consumer deduplicates by event id (inbox)",
    "コンシューマーがイベントIDで重複排除（受信箱）"
);
/// The policies fieldset's legend.
pub const POLICIES_LEGEND: Pair = pair!("Production service policies", "本番型サービスの方針");
/// The retention select's label.
pub const KEY_RETENTION: Pair = pair!(
    "Key retention (Stripe: at least 24 h; Powertools: 1 h)",
    "キーの保持期間（Stripe：24時間以上、Powertools：1時間）"
);
/// A retention in the select.
pub fn retention_hours(l: Lang, h: u64) -> String {
    tr!(l, "{h} h", "{h}時間")
}
/// The mismatch select's label.
pub const SAME_KEY_DIFFERENT: Pair = pair!(
    "Same key, different parameters",
    "同じキーで違うパラメーター"
);
/// The failure caching select's label.
pub const FAILURE_CACHING: Pair = pair!("Failure caching", "失敗のキャッシュ");
/// The in-flight box.
pub const IN_FLIGHT: Pair = pair!(
    "In-flight record: a concurrent duplicate gets 409 (Stripe, IETF draft, rocket-rides)",
    "処理中レコード：同時の重複には409（Stripe、IETFドラフト、rocket-rides）"
);
/// The key scope select's label.
pub const SCOPE_LABEL: Pair = pair!("Keys are looked up by", "キーを引く単位");
/// The fingerprint select's label.
pub const FINGERPRINT_LABEL: Pair = pair!("The fingerprint covers", "フィンガープリントの範囲");
/// The payload check select's label.
pub const PAYLOAD_LABEL: Pair = pair!("Parameters are compared", "パラメーターを比べる場所");
/// The missing key select's label.
pub const MISSING_KEY_LABEL: Pair = pair!("A request without a key", "キーのないリクエスト");
/// Who wrote rocket-rides.
pub const ROCKET_RIDES_NOTE: Pair = pair!(
    "rocket-rides (rocket-rides-atomic) is Brandur Leach's reference implementation of Stripe-style idempotency keys on PostgreSQL.",
    "rocket-rides（rocket-rides-atomic）は、Brandur Leach による、PostgreSQL 上の Stripe 式冪等性キーの参照実装。"
);

// downstream_fields.rs

/// A duration as the processor's selects show it.
pub fn duration_option(l: Lang, ms: u64) -> String {
    if ms == 0 {
        l.t("none", "なし").to_string()
    } else if ms < 1_000 {
        tr!(l, "{ms} ms", "{ms} ms")
    } else {
        let s = ms / 1_000;
        tr!(l, "{s} s", "{s}秒")
    }
}

// share_panel.rs

/// The panel's heading.
pub const SHARE_HEADING: Pair = pair!("Share, save, import", "共有・保存・読み込み");
/// What the link holds.
pub const SHARE_NOTE: Pair = pair!(
    "The link holds the seed and every input, and opens at this step. Your last run is also kept in this browser.",
    "リンクにはシードとすべての入力が入っていて、このステップで開く。直前の実行はこのブラウザーにも保存される。"
);
/// A run too long for a link.
pub fn link_too_long(l: Lang, link_len: usize) -> String {
    tr!(l, "This run is too long for a link ({link_len} bytes, limit {MAX_URL_BYTES}). Export it as JSON instead.", "この実行はリンクには長すぎる（{link_len}バイト、上限 {MAX_URL_BYTES}）。JSONで書き出してください。")
}
/// The link field's label.
pub const SHARE_LINK: Pair = pair!("Share link", "共有リンク");
/// Open the link.
pub const OPEN_LINK: Pair = pair!("Open this link", "このリンクを開く");
/// Download the scenario.
pub const DOWNLOAD_JSON: Pair = pair!("Download JSON", "JSONをダウンロード");
/// The import fold.
pub const IMPORT_JSON: Pair = pair!("Import JSON", "JSONを読み込む");
/// The import box's label, with the size limit.
pub fn paste_scenario(l: Lang) -> String {
    tr!(
        l,
        ["Paste a scenario (at most {} KB)", MAX_JSON_BYTES / 1024],
        ["シナリオを貼り付ける（最大 {} KB）", MAX_JSON_BYTES / 1024]
    )
}
/// The import button.
pub const IMPORT: Pair = pair!("Import", "読み込む");
/// The JSON fold.
pub const RUN_AS_JSON: Pair = pair!("This run as JSON", "この実行のJSON");
/// The JSON box's name.
pub const SCENARIO_JSON: Pair = pair!("Scenario JSON", "シナリオのJSON");

// timeline_section.rs and timeline.rs

/// The section's heading.
pub const TIMELINE: Pair = pair!("Timeline", "タイムライン");
/// The service tabs' name.
/// The tabs that choose the service the timeline shows (and a phone, where the columns would
/// stack, shows above them).
pub const SERVICE_TABS: Pair = pair!("Which service to show", "表示するサービス");
/// The events shown, of all.
pub fn events_shown(l: Lang, from: usize, to: usize, total: usize) -> String {
    tr!(
        l,
        ["Events {}–{} of {}", from, to, total],
        ["イベント {}–{} / {}", from, to, total]
    )
}
/// The previous page.
pub const EARLIER: Pair = pair!("Earlier", "前へ");
/// The next page.
pub const LATER: Pair = pair!("Later", "次へ");
/// Back to the current step's page.
pub fn back_to_step(l: Lang, step: usize) -> String {
    tr!(l, ["Back to step {}", step], ["ステップ {} に戻る", step])
}
/// The diagram's name.
pub const SEQUENCE_DIAGRAM: Pair = pair!("Sequence diagram of the run", "実行のシーケンス図");
/// An empty diagram.
pub const NO_EVENTS_YET: Pair = pair!(
    "No events yet: step forward or send a request.",
    "まだイベントはない。ステップを進めるか、リクエストを送る。"
);

// wire.rs: HTTP on the wire

/// Between an operation's number and its try's: "#1, try 2".
pub const WIRE_TRY: Pair = pair!(", try ", " 試行");
/// Before the note on a try's reply.
pub const WIRE_NOTE_SEP: Pair = pair!(": ", "：");
/// The fold's summary.
pub const HTTP_ON_THE_WIRE: Pair = pair!("HTTP on the wire", "通信内容（HTTP）");
/// "What this model leaves out": its heading.
pub const LEAVES_OUT_HEADING: Pair =
    pair!("What this model leaves out", "このモデルが省いていること");
/// Its introduction.
pub const LEAVES_OUT_INTRO: Pair = pair!(
    "The services answer as the IETF Idempotency-Key draft, Stripe and rocket-rides do, checked against their own documents and tests (tests/conformance/http.rs). These are simplified on purpose:",
    "サービスは IETF の Idempotency-Key ドラフト、Stripe、rocket-rides と同じように答え、それぞれの文書とテストと照らし合わせている（tests/conformance/http.rs）。次のものは意図して簡略化している："
);

// panel.rs: a service's panel

/// Before a broken invariant's name.
pub const FAIL_MARK: Pair = pair!("✕ FAIL: ", "✕ 違反：");
/// The link to the step where an invariant broke.
pub fn violation_step(l: Lang, step: usize) -> String {
    tr!(l, "step {step}", "ステップ {step}")
}
/// The client list's name.
pub const CLIENTS_SEEN: Pair = pair!("What each client saw", "各クライアントが見た結果");
/// A client operation in the list.
pub fn client_charge(l: Lang, n: u32, amount: i64) -> String {
    tr!(l, "#{n} charge {amount}", "#{n} {amount} を課金")
}
/// Before the events' wiring.
pub const EVENTS_PREFIX: Pair = pair!("Events: ", "イベント：");
/// The consumer, after the events' wiring.
pub fn consumer_kind(l: Lang, dedupes: bool) -> &'static str {
    if dedupes {
        l.t(", deduplicating consumer", "、重複排除するコンシューマー")
    } else {
        l.t(", naive consumer", "、素朴なコンシューマー")
    }
}
/// The balance's label.
pub const BALANCE: Pair = pair!("Balance", "残高");
/// A step that rolled a charge back.
pub const ROLLED_BACK: Pair = pair!("rolled back", "巻き戻し");
/// The invariant badges' name.
pub const INVARIANTS: Pair = pair!("Invariants", "不変条件");
/// The store's counters: hits, misses, conflicts, mismatches, expirations.
pub fn store_counters(l: Lang, c: &Counters) -> [String; 5] {
    [
        tr!(l, ["hits {}", c.hits], ["ヒット {}", c.hits]),
        tr!(l, ["misses {}", c.misses], ["ミス {}", c.misses]),
        tr!(l, ["conflicts {}", c.conflicts], ["衝突 {}", c.conflicts]),
        tr!(
            l,
            ["mismatches {}", c.mismatches],
            ["不一致 {}", c.mismatches]
        ),
        tr!(
            l,
            ["expirations {}", c.expirations],
            ["期限切れ {}", c.expirations]
        ),
    ]
}

// panel_tables.rs: the store, the ledger and the outbox

/// Under a table that shows only its newest rows.
pub fn newest_rows(l: Lang, shown: usize, total: usize) -> String {
    tr!(
        l,
        "Newest {shown} of {total} rows.",
        "全 {total}行のうち新しい {shown}行。"
    )
}
/// Column: the key.
pub const COL_KEY: Pair = pair!("Key", "キー");
/// Column: the record's state.
pub const COL_STATE: Pair = pair!("State", "状態");
/// Column: the cached result.
pub const COL_CACHED_RESULT: Pair = pair!("Cached result", "キャッシュ結果");
/// Column: the expiry.
pub const COL_EXPIRES: Pair = pair!("Expires", "期限");
/// Under the key column's name.
pub const COL_FINGERPRINT: Pair = pair!("fingerprint", "フィンガープリント");
/// A key in flight that kept the processor's answer.
pub fn recovery_point(l: Lang, result: &str) -> String {
    tr!(l, "Recovery point: {result}", "回復ポイント：{result}")
}
/// The store's summary, with its rows.
pub fn store_summary(l: Lang, rows: usize) -> String {
    tr!(l, "Idempotency store ({rows})", "冪等性ストア（{rows}）")
}
/// Under the naive service's empty store.
pub const NAIVE_KEEPS_NO_KEYS: Pair = pair!(
    "The naive service keeps no keys.",
    "素朴なサービスはキーを持たない。"
);
/// Column: the step.
pub const COL_STEP: Pair = pair!("Step", "ステップ");
/// Column: the operation.
pub const COL_OP: Pair = pair!("Op", "操作");
/// Column: the amount.
pub const COL_AMOUNT: Pair = pair!("Amount", "金額");
/// Column: the description.
pub const COL_DESCRIPTION: Pair = pair!("Description", "説明");
/// The ledger's summary, with its charges.
pub fn ledger_summary(l: Lang, rows: usize) -> String {
    tr!(l, "Ledger: charges ({rows})", "台帳：課金（{rows}）")
}
/// Column: the event's payload.
pub const COL_PAYLOAD: Pair = pair!("Payload", "内容");
/// Column: published or not.
pub const COL_PUBLISHED: Pair = pair!("Published", "発行");
/// Column: deliveries.
pub const COL_DELIVERIES: Pair = pair!("Deliveries", "配送回数");
/// An outbox row's payload: operation `n` charged `amount`.
pub fn outbox_charged(l: Lang, amount: i64, n: u32) -> String {
    tr!(l, "charged {amount} (#{n})", "{amount} を課金（#{n}）")
}
/// Whether an outbox row is published.
pub fn published(l: Lang, published: bool) -> &'static str {
    if published {
        l.t("yes", "済")
    } else {
        l.t("no", "未")
    }
}
/// The outbox's summary, with its rows.
pub fn outbox_summary(l: Lang, rows: usize) -> String {
    tr!(l, "Outbox ({rows})", "アウトボックス（{rows}）")
}
/// The consumer's counters: received, applied, duplicates skipped, duplicates applied.
pub fn consumer_counters(l: Lang, c: &Consumer) -> [String; 4] {
    [
        tr!(
            l,
            ["consumer received {}", c.received],
            ["コンシューマー受信 {}", c.received]
        ),
        tr!(l, ["applied {}", c.applied], ["適用 {}", c.applied]),
        tr!(
            l,
            ["duplicates skipped {}", c.duplicates_ignored],
            ["重複を無視 {}", c.duplicates_ignored]
        ),
        tr!(
            l,
            ["duplicates applied {}", c.duplicates_applied],
            ["重複を適用 {}", c.duplicates_applied]
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A redelivered event is told by what the consumer did with it: the naive consumer (no
    /// inbox) sent a second receipt, and its caption said the inbox had skipped the event.
    #[test]
    fn a_redelivery_is_told_by_what_the_consumer_did() {
        for (l, no_inbox, ignored) in [
            (Lang::En, "no inbox", "ignored"),
            (Lang::Ja, "受信箱を持たない", "無視"),
        ] {
            let again = |applied| step_meaning(l, &EventKind::ConsumerDuplicate { id: 1, applied });
            let (applied, skipped) = (again(true).unwrap(), again(false).unwrap());
            assert_ne!(applied, skipped);
            assert!(applied.contains(no_inbox), "{applied}");
            assert!(skipped.contains(ignored), "{skipped}");
        }
    }
}
