//! The durable-execution page's views' words (see the parent module); the words for the
//! simulation's data are in `crate::ui::text::durable`.

use crate::sim::durable::{
    Config, Engine, FlowKind, RequestId, StepOutcome, DEFAULT_START_TO_CLOSE_MS,
};
use crate::ui::i18n::{pair, tr, Lang, Pair};
use crate::ui::text::durable as words;
use crate::ui::text::fmt_ms;

// header: the page's heading and what durable execution is.
pub const TITLE: Pair = pair!(
    "Durable execution: the engine journals, the worker replays",
    "永続実行（Durable Execution）：エンジンが記録し、ワーカーがリプレイする"
);
pub const INTRO: Pair = pair!(
    "Write an ordinary function; the engine journals each step's result. What happens when the worker crashes mid-step, when the code reads the clock, when a client starts the same workflow id twice? Each lesson asks you to predict it, then runs Temporal, Restate and DBOS as they document it.",
    "普通の関数を書けば、エンジンが各ステップの結果を記録する。ステップの途中でワーカーがクラッシュしたら、コードが時計を読んだら、クライアントが同じワークフロー ID を 2回開始したら、何が起きるか。各レッスンで予想してから、Temporal・Restate・DBOS を文書にある通りに動かす。"
);

// lesson_list: the lessons, the challenges, the free run.
pub const LESSONS: Pair = pair!("Lessons", "レッスン");
pub const CHALLENGES: Pair = pair!("Challenges", "チャレンジ");
pub const FREE_RUN_ITEM: Pair = pair!("Free run: your own settings", "自由に動かす");

// notice: the message above the run.
pub const IMPORTED: Pair = pair!("Run loaded.", "実行を読み込んだ。");
pub const UNKNOWN_CHALLENGE: Pair = pair!(
    "There is no challenge with this name on this page, so the free run is shown. The challenges are listed above.",
    "このページにこの名前のチャレンジはないので、自由な実行を表示する。チャレンジは上の一覧にある。"
);

/// After the page's last lesson, the path's next page: its number and title on the path
/// (`text::lessons::PATH`; a test holds them equal).
pub const AFTER_THE_PAGE: Pair = pair!(
    "14 Kafka's producer ids and sequence numbers",
    "14 Kafka のプロデューサー IDとシーケンス番号"
);
/// A link that could not be read, and why.
pub fn bad_link(l: Lang, why: &str) -> String {
    tr!(
        l,
        "This link could not be read, so the page opens without it: {why}",
        "このリンクは読めないので、リンクなしで開いている：{why}"
    )
}

/// A run kept in this browser that could not be restored, and why.
pub fn bad_saved(l: Lang, why: &str) -> String {
    tr!(
        l,
        "The run saved in this browser could not be restored: {why}",
        "このブラウザーに保存された実行は復元できない：{why}"
    )
}

/// An import refused, and why.
pub fn not_imported(l: Lang, why: &str) -> String {
    tr!(l, "Not imported: {why}", "読み込まなかった：{why}")
}

/// The challenge's crashes, all used.
pub fn no_more_crashes(l: Lang, n: usize) -> String {
    if n == 1 {
        l.t(
            "This challenge allows one crash, and it is used. Reset to try again.",
            "このチャレンジで許されるクラッシュは1回で、もう使った。やり直すにはリセットする。",
        )
        .to_string()
    } else {
        tr!(
            l,
            "This challenge allows {n} crashes, and they are used. Reset to try again.",
            "このチャレンジで許されるクラッシュは {n}回で、もう使い切った。やり直すにはリセットする。"
        )
    }
}

// predict: the lesson's question and its answer.
pub const PREDICT_LABEL: Pair = pair!("Predict: ", "予想：");
pub const WHY_CHANGED: Pair = pair!(
    "This run is not the lesson as built (its settings were changed, or the worker crashed by hand), so its explanation, written for the run as built, is not shown: the answer above is this run's. “Reset this lesson” brings back the run as built, and its explanation.",
    "この実行は組み込みのレッスンではない（設定が変わったか、手でワーカーを落とした）ので、組み込みの実行のために書いた説明は表示しない。上の答えはこの実行のもの。「このレッスンを最初に戻す」で組み込みの実行と説明に戻る。"
);
pub const ASK_AGAIN: Pair = pair!("Ask me again", "もう一度答える");

/// The verdict on a right answer.
pub fn right(l: Lang, shown: &str) -> String {
    tr!(l, "✓ Right: {shown}.", "✓ 正解：{shown}。")
}

/// The verdict on a wrong answer.
pub fn not_quite(l: Lang, picked: &str, shown: &str) -> String {
    tr!(
        l,
        "✕ Not quite: you said {picked}, the run gives {shown}.",
        "✕ はずれ：予想は「{picked}」、実行の答えは「{shown}」。"
    )
}

/// The answer, after the question was skipped.
pub fn skipped(l: Lang, shown: &str) -> String {
    tr!(
        l,
        "Skipped. The run gives {shown}.",
        "スキップした。実行の答えは「{shown}」。"
    )
}

// intro: the challenge's card, the free run's.
pub const WON: Pair = pair!(
    "★ Won: the goal holds at this step.",
    "★ 達成：このステップで目標を満たした。"
);
pub const GOAL_CHECKED: Pair = pair!(
    "The goal is checked after every step.",
    "目標は各ステップの後に確かめる。"
);
pub const STUCK: Pair = pair!("Stuck? A solution", "行き詰まったら：解答");
pub const OPEN_SOLUTION: Pair = pair!(
    "Open a run that wins (found by the core)",
    "達成する実行を開く（コアが見つけたもの）"
);
pub const FREE_RUN: Pair = pair!("Free run", "自由に動かす");
pub const FREE_RUN_STORY: Pair = pair!(
    "Pick the workflow, the engine, the key, the clock and the faults below; step through, crash the worker when you like, and start the workflow again with the same id.",
    "下でワークフロー、エンジン、キー、時計、障害を選び、一歩ずつ進め、好きなときにワーカーをクラッシュさせ、同じ ID でワークフローをもう一度開始する。"
);

/// The challenge's crashes used so far.
pub fn crashes_used(l: Lang, used: usize, max: usize) -> String {
    tr!(
        l,
        "Crashes used: {used} of {max}",
        "使ったクラッシュ：{used} / {max}"
    )
}

// controls: the learner's actions and the caption of the step.
pub const STEP_ZERO: Pair = pair!(
    "Step 0: nothing has happened yet. Press Step or Play.",
    "ステップ 0：まだ何も起きていない。進むか再生を押す。"
);
/// After [`STEP_ZERO`], only where there is a keyboard (app.css's `.kbd-hint`).
pub const STEP_ZERO_KEYS: Pair = pair!(
    " Keys: → steps, space plays.",
    "キー：→ で進む、スペースで再生。"
);
pub const WAITS_FOR_PREDICTION: Pair = pair!(
    "The run waits for your prediction above.",
    "実行は上の予想を待っている。"
);
pub const NOTHING_IN_COLUMN: Pair = pair!(
    "Nothing happens in this column at this step.",
    "この列ではこのステップに何も起きない。"
);
pub const CRASH_WORKER: Pair = pair!("Crash the worker now", "今ワーカーをクラッシュ");
pub const RESTART_WORKER: Pair = pair!("Restart it", "再起動する");
pub const START_AGAIN: Pair = pair!("Start again, same id", "同じ ID でもう一度開始");
pub const START_OVER: Pair = pair!("Start over", "最初からやり直す");

// column: a column's card (its heading, worker, balance, journal, starts, store, invariants).
pub const FOLLOWED: Pair = pair!(
    "The code and timeline follow this column",
    "コードとタイムラインはこの列"
);
pub const FOLLOW: Pair = pair!("Follow this column", "この列を追う");
/// The switcher between the columns on a narrow screen.
pub const COLUMNS: Pair = pair!("Columns", "列");
pub const WORKER: Pair = pair!("Worker: ", "ワーカー：");
pub const BALANCE: Pair = pair!("Balance ", "残高 ");
pub const STARTS: Pair = pair!("Starts of order-42", "order-42 の開始");
pub const STORE: Pair = pair!(
    "Payment service's idempotency store",
    "決済サービスの冪等性ストア"
);

/// The column's heading: its engine and key, and the settings that differ from the usual.
pub fn column_title(l: Lang, c: &Config) -> String {
    let e = words::engine(l, c.engine);
    // Without an engine there is no run to derive a key from: the process derives it from the
    // order and the step.
    let k = if c.engine.durable() || c.key != crate::sim::durable::KeyMode::Derived {
        words::key(l, c.key)
    } else {
        l.t(
            "derived from the order and the step",
            "注文とステップから導出",
        )
    };
    let mut title = tr!(l, "{e} · key: {k}", "{e} · キー：{k}");
    // Without an engine nothing reads the clock "through the engine": the title names no clock.
    if c.flow == FlowKind::Order && c.engine.durable() {
        let ck = words::clock(l, c.clock);
        title.push_str(&tr!(l, " · clock: {ck}", " · 時計：{ck}"));
    }
    if c.engine == Engine::Temporal && (c.start_again_at_ms.is_some() || c.policy_error().is_some())
    {
        title.push_str(" · ");
        title.push_str(words::reuse(c.reuse));
        title.push_str(" / ");
        title.push_str(words::conflict(c.conflict));
        if c.start_again_at_ms.is_some() && c.request_id == RequestId::Same {
            title.push_str(l.t(" · same request id", " · 同じ request id"));
        }
    }
    if c.engine == Engine::Temporal && c.start_to_close_ms != DEFAULT_START_TO_CLOSE_MS {
        let t = fmt_ms(l, c.start_to_close_ms);
        title.push_str(&tr!(l, " · Start-To-Close {t}", " · Start-To-Close {t}"));
    }
    if c.start_again_at_ms.is_some() && c.engine == Engine::Restate {
        title.push_str(" · ");
        title.push_str(words::restate_target(l, c.restate));
    }
    if let Some(ms) = c.start_again_at_ms {
        let t = fmt_ms(l, ms);
        title.push_str(&tr!(l, " · again at {t}", " · {t} に再び開始"));
    }
    title
}

/// The current run's number and status, after the worker.
pub fn run_label(l: Lang, no: u32) -> String {
    tr!(l, " · run {no}: ", " · 実行 {no}：")
}

/// How many times the card was charged, after the balance.
pub fn charged(l: Lang, charges: usize) -> String {
    tr!(l, " · charged {charges}×", " · 課金 {charges}回")
}

/// A key in the payment service's store, after the key.
pub fn stored_charge(l: Lang, balance: i64) -> String {
    let balance = crate::ui::text::money(balance);
    tr!(
        l,
        " → charged, balance {balance}",
        " → 課金、残高 {balance}"
    )
}
pub const STORED_REFUND: Pair = pair!(" → refunded", " → 返金");

// journal: the run's journal (or its progress in memory).
pub const NO_RUN: Pair = pair!("No run yet.", "まだ実行はない。");
pub const JOURNAL: Pair = pair!("Journal", "ジャーナル");
pub const IN_MEMORY: Pair = pair!(
    "Progress in memory (lost at a crash)",
    "メモリ上の進み具合（クラッシュで消える）"
);
pub const REPLAYED: Pair = pair!("replayed", "リプレイ");
pub const RAN: Pair = pair!("ran", "実行");
pub const STEP: Pair = pair!("step", "ステップ");
pub const RESULT: Pair = pair!("result", "結果");
pub const RUNS: Pair = pair!("runs", "実行回数");
pub const READ: Pair = pair!("read", "読み方");

/// A journal entry's result.
pub fn journal_result(l: Lang, result: Option<StepOutcome>) -> String {
    match result {
        None => l.t("started, no result", "開始、結果なし").to_string(),
        Some(StepOutcome::Done) => l.t("done", "完了").to_string(),
        Some(StepOutcome::Failed) => l.t("failed", "失敗").to_string(),
        Some(StepOutcome::Time(ms)) => format!("{ms} ms"),
    }
}

/// The journal's caption, after its name.
pub fn run_no(l: Lang, no: u32) -> String {
    tr!(l, " — run {no}", " — 実行 {no}")
}

// invariant_row: an invariant not promised here, and its break.
/// Before "not promised here".
pub const NOT_PROMISED_DASH: Pair = pair!(" — ", "：");
/// Between "not promised here" and why.
pub const NOT_PROMISED_WHY: Pair = pair!(": ", "（");
/// After why.
pub const NOT_PROMISED_END: Pair = pair!("", "）");
/// Before the break of an invariant not promised.
pub const BREAK_SEP: Pair = pair!("; ", "。");

// source: the workflow's code.
pub const SOURCE_HEADING: Pair = pair!("The workflow's code", "ワークフローのコード");
pub const SOURCE_NOTE: Pair = pair!(
    "The real source the engine runs (src/sim/durable/workflow.rs); the highlighted lines take the step the worker is at. `?` hands the engine the first step without a journaled result, and returns a step's permanent failure as the workflow's error: a workflow that returns a value closes completed, one that returns an error failed.",
    "エンジンが実行する本物のソース（src/sim/durable/workflow.rs）。強調した行がワーカーのいるステップ。`?` は結果の記録されていない最初のステップをエンジンに渡し、ステップの恒久的な失敗はワークフローのエラーとして返す。値を返したワークフローは完了、エラーを返したものは失敗で閉じる。"
);

// timeline: the sequence of events.
pub const SEQUENCE: Pair = pair!("Sequence", "シーケンス");

// settings: the selected column's settings.
pub const SETTINGS: Pair = pair!("Settings", "設定");
pub const CHANGE_RESTARTS: Pair = pair!(
    "A change starts the run again at step 0; your crashes and restarts stay.",
    "変えると実行はステップ 0 からやり直す。クラッシュと再起動は残る。"
);
pub const WORKFLOW: Pair = pair!("Workflow", "ワークフロー");
pub const ENGINE: Pair = pair!("Engine", "エンジン");
pub const KEY: Pair = pair!("Key passed to the payment", "決済に渡すキー");
pub const CLOCK: Pair = pair!("Clock read", "時計の読み方");
pub const START_AGAIN_AT: Pair = pair!(
    "The client starts order-42 again",
    "クライアントが order-42 を再び開始"
);
pub const NEVER: Pair = pair!("never", "しない");
pub const REUSE: Pair = pair!(
    "Temporal: reuse policy (closed run)",
    "Temporal：Reuse Policy（閉じた実行）"
);
pub const CONFLICT: Pair = pair!(
    "Temporal: conflict policy (running)",
    "Temporal：Conflict Policy（実行中）"
);
pub const START_TO_CLOSE: Pair = pair!(
    "Temporal: an activity's Start-To-Close timeout",
    "Temporal：アクティビティの Start-To-Close タイムアウト"
);
pub const LATER_START: Pair = pair!("Temporal: a later start is", "Temporal：2回目以降の開始は");
pub const RESTATE_CALLS: Pair = pair!(
    "Restate: the client calls",
    "Restate：クライアントが呼ぶのは"
);
pub const AUTO_RESTART: Pair = pair!(
    "A crashed worker is replaced after 1 s",
    "クラッシュしたワーカーは 1秒後に置き換わる"
);
pub const FAULTS: Pair = pair!(
    "Faults (each on the step's first execution)",
    "障害（各ステップの最初の実行に）"
);
pub const NO_FAULT: Pair = pair!("no fault", "障害なし");

/// Which column the settings are for, when there are several.
pub fn for_column(l: Lang, col: usize) -> String {
    tr!(
        l,
        "For column {col} (pick the column with “Follow this column”). A change starts the run again at step 0; your crashes and restarts stay.",
        "列 {col} の設定（「この列を追う」で列を選ぶ）。変えると実行はステップ 0 からやり直す。クラッシュと再起動は残る。"
    )
}

/// When the client starts again: "at 5.0 s".
pub fn again_at(l: Lang, t: &str) -> String {
    tr!(l, "at {t}", "{t} に")
}

// engines: what each engine does here.
pub const ENGINES_HEADING: Pair = pair!(
    "What each engine does here, as documented",
    "各エンジンの振る舞い（文書にある通り）"
);
pub const SOURCE_LINK: Pair = pair!("(source)", "（出典）");
pub const ENGINES_NOTE: Pair = pair!(
    "Every engine retries a failed step after 1 s, then 2 s, … (Temporal's default retry policy). Temporal waits for an activity's Start-To-Close timeout (2 s unless set) before it retries one whose worker crashed or whose reply was lost; Restate and DBOS wait 2 s for a lost reply and run a crashed step again when the new worker resumes. The derived key is the workflow id, the run and the step: Temporal suggests the Workflow Run Id with the Activity Id.",
    "どのエンジンも失敗したステップを 1秒、2秒…の後にリトライする（Temporal の既定のリトライポリシー）。Temporal は、ワーカーがクラッシュしたか応答が消えたアクティビティを、Start-To-Close タイムアウト（設定しなければ 2秒）を待ってからリトライする。Restate と DBOS は消えた応答を 2秒待ち、クラッシュしたステップは新しいワーカーが再開するときにもう一度実行する。導出キーはワークフロー ID・実行・ステップ。Temporal は Workflow Run Id と Activity Id の組を勧めている。"
);

// leaves_out: what this model leaves out (the list is `crate::ui::text::durable::leaves_out`).
pub const LEAVES_OUT_HEADING: Pair =
    pair!("What this model leaves out", "このモデルが省いていること");

// share: the link, the download, the import.
pub const SHARE_HEADING: Pair = pair!("Share, save, import", "共有・保存・読み込み");
pub const SHARE_NOTE: Pair = pair!(
    "The link holds the settings, your crashes and restarts, and opens at this step. This browser also keeps your last run on each lesson.",
    "リンクには設定とクラッシュ・再起動が入っていて、このステップで開く。各レッスンの直前の実行はこのブラウザーにも保存される。"
);
pub const SHARE_LINK: Pair = pair!("Share link", "共有リンク");
pub const OPEN_LINK: Pair = pair!("Open this link", "このリンクを開く");
pub const DOWNLOAD_JSON: Pair = pair!("Download JSON", "JSONをダウンロード");
pub const IMPORT_JSON: Pair = pair!("Import JSON", "JSONを読み込む");
pub const IMPORT: Pair = pair!("Import", "読み込む");
pub const RUN_AS_JSON: Pair = pair!("This run as JSON", "この実行のJSON");
pub const RUN_JSON: Pair = pair!("The run's JSON", "実行のJSON");

/// The import's label, with its limit.
pub fn paste_run(l: Lang, max_kb: usize) -> String {
    tr!(
        l,
        "Paste a run (at most {max_kb} KB)",
        "実行を貼り付ける（最大 {max_kb} KB）"
    )
}
