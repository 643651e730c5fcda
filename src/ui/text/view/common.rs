//! The common views' words (see the parent module).

#[allow(unused_imports)]
use crate::ui::i18n::{pair, tr, Lang, Pair};

// app.rs: the header, the footer, the page that is not found, the hand-over to another page.
pub const SKIP_TO_CONTENT: Pair = pair!("Skip to content", "本文へ移動");
pub const SITE_TITLE: Pair = pair!(
    "Idempotency keys playground",
    "冪等性キー・プレイグラウンド"
);
pub const TAGLINE: Pair = pair!(
    "Watch a timed-out retry charge a card twice, and see what really prevents it: keys, atomicity, outboxes. Everything runs in this page.",
    "タイムアウト後のリトライが二重課金を生む様子と、それを本当に防ぐもの（キー、原子性、アウトボックス）を、このページの中で動かして確かめる。"
);
pub const SECTIONS: Pair = pair!("Sections", "セクション");
pub const NAV_SCENARIOS: Pair = pair!("Scenarios", "シナリオ");
pub const NAV_SANDBOX: Pair = pair!("Sandbox", "サンドボックス");
pub const NAV_LAB: Pair = pair!("Concurrency lab", "並行性ラボ");
pub const NAV_PROPERTIES: Pair = pair!("Property checks", "プロパティテスト");
pub const NAV_DURABLE: Pair = pair!("Durable execution", "永続実行");
/// The language button's description: what it does.
pub const SWITCH_LANGUAGE: Pair = pair!("Switch the page to Japanese", "ページを英語に切り替える");
/// The language button's own `lang`: the language it names.
pub const OTHER_LANG_CODE: Pair = pair!("ja", "en");
/// The language button's visible text, in the language it names.
pub const OTHER_LANG_NAME: Pair = pair!("日本語", "English");
pub const FOOTER: Pair = pair!(
    "Deterministic simulation: the same seed and inputs give the same run, step for step.",
    "決定論的シミュレーション：同じシードと入力なら、一歩ずつ同じ実行になる。"
);
pub const NOT_FOUND: Pair = pair!("Page not found", "ページが見つからない");
pub const BACK_TO_FIRST: Pair = pair!("Back to the first scenario", "最初のシナリオへ戻る");
pub const OPENING: Pair = pair!("Opening… ", "開いています… ");
pub const CONTINUE: Pair = pair!("Continue", "続ける");

/// "There is nothing at …".
pub fn nothing_at(l: Lang, path: &str) -> String {
    tr!(
        l,
        "There is nothing at “{path}”.",
        "「{path}」には何もない。"
    )
}

// run/controls.rs: the run controls, the same words and order on every page.
pub const RUN_CONTROLS: Pair = pair!("Run controls", "実行の操作");
pub const RESET: Pair = pair!("« Reset", "« 最初へ");
pub const BACK_TITLE: Pair = pair!("Step back (←)", "1つ戻る（←）");
pub const BACK: Pair = pair!("◀ Back", "◀ 戻る");
pub const PLAY_TITLE: Pair = pair!("Play / pause (space)", "再生／一時停止（スペース）");
pub const PAUSE: Pair = pair!("❚❚ Pause", "❚❚ 一時停止");
pub const PLAY: Pair = pair!("▶ Play", "▶ 再生");
pub const STEP_TITLE: Pair = pair!("Step forward (→)", "1つ進む（→）");
pub const STEP: Pair = pair!("Step ▶", "進む ▶");
pub const RUN_TO_END: Pair = pair!("Run to end »", "最後まで »");
pub const SPEED: Pair = pair!("Speed", "速度");
pub const PLAY_SPEED: Pair = pair!("Play speed", "再生速度");
pub const SCRUBBER: Pair = pair!("Step", "ステップ");

/// "Step 3 / 20".
pub fn position(l: Lang, position: usize, total: usize) -> String {
    tr!(
        l,
        ["Step {} / {}", position, total],
        ["ステップ {} / {}", position, total]
    )
}

/// " · t = 120 ms", after the position when the run has a clock.
pub fn time_ms(l: Lang, t: u64) -> String {
    tr!(l, " · t = {t} ms", " · t = {t} ms")
}

// question.rs: the open question, as every page with lessons draws it.
pub const PREDICT: Pair = pair!("Predict", "予想する");
pub const PREDICT_LABEL: Pair = pair!("Predict: ", "予想：");
pub const SKIP: Pair = pair!("Skip", "スキップ");
pub const WAITS_HERE: Pair = pair!(
    "The run waits here for your answer.",
    "実行はここで答えを待っている。"
);

/// "Answer now, or step on …" while the run is before the question's step.
pub fn answer_or_step_on(l: Lang, ask_at: usize) -> String {
    tr!(
        l,
        "Answer now, or step on: the run waits for your answer at step {ask_at}.",
        "今答えるか、先へ進める。実行はステップ {ask_at} で答えを待つ。"
    )
}

// question.rs: after the answer, the belief behind each choice.
pub const EACH_CHOICE: Pair = pair!(
    "Each choice, and the belief that predicts it:",
    "それぞれの選択肢と、それを予想させる思い込み："
);
pub const WHAT_THE_RUN_SHOWS: Pair = pair!("what the run shows.", "実行が示す答え。");
/// A variation's right choice: its run is not the one on the page until the learner loads it.
pub const WHAT_THIS_CASE_SHOWS: Pair = pair!(
    "what this case gives when it runs (the run on the page is still the lesson's: “Run this case on the page” loads it).",
    "この場合を実行したときの答え（ページの実行はまだレッスンのもの。「この場合をページで動かす」で読み込める）。"
);

// A lesson's variation question, on every page.
pub const VARIATION_LABEL: Pair = pair!("Variation: ", "もしも：");
pub const RUN_VARIATION: Pair = pair!("Run this case on the page", "この場合をページで動かす");
pub const BELIEF_SEP: Pair = pair!(": ", "：");
/// Between two items on one line (a step's events, a service and its wiring, an answer and
/// whether it was replayed): a middle dot in English, ／ in Japanese.
pub const ITEM_SEP: Pair = pair!(" · ", "／");
pub const YOUR_PICK: Pair = pair!(" (your answer)", "（あなたの答え）");

/// Between a name and what follows it: full-width in Japanese.
pub const COLON: Pair = pair!(": ", "：");

// Every page with lessons: back to the lesson as built.
pub const RESET_LESSON: Pair = pair!("Reset this lesson", "このレッスンを最初に戻す");
pub const RESET_LESSON_TITLE: Pair = pair!(
    "Drops your changes to this lesson's settings and inputs, and its answer",
    "このレッスンの設定・入力への変更と答えを捨てる"
);

/// A challenge's goal met after the learner opened its solution, on every page: done (✓, as the
/// lists mark it), not won.
pub const MET_BY_SOLUTION: Pair = pair!(
    "✓ The goal is met at this step. The solution was opened first, so this counts as done, not won (no ★). ",
    "✓ このステップで目標を満たした。先に解答を開いたので、達成（★）ではなく完了として数える。"
);
