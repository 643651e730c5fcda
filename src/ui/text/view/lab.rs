//! The lab views' words (see the parent module).

use crate::sim::lab::Model;
use crate::sim::limits::{
    LAB_STEPS_PER_REQUEST, MAX_CACHED_REQUESTS, MAX_PARALLEL_REQUESTS, MAX_URL_BYTES,
    MIN_PARALLEL_REQUESTS,
};
use crate::sim::postgres::REPORT_VERSION;
use crate::ui::i18n::{pair, tr, Lang, Pair};

// Words several of the lab's views share.

/// A request by its number (1-based): "Request 2".
pub fn request(l: Lang, n: usize) -> String {
    tr!(l, "Request {n}", "リクエスト{n}")
}
/// Between the items of a list written in a sentence.
pub const LIST_SEP: Pair = pair!(", ", "、");
pub const BALANCE: Pair = pair!("Balance", "残高");
pub const INITIAL_BALANCE: Pair = pair!("Initial balance", "初期残高");

// page.rs: the lab's introduction, the notices after an action, the stepper's heading and the
// lab challenge's card.
pub const LAB_HEADING: Pair = pair!(
    "Concurrency lab: you are the scheduler",
    "並行性ラボ：あなたがスケジューラー"
);
pub const LAB_INTRO: Pair = pair!(
    "Several requests run a payment service of the article “Idempotency keys: the mechanism that keeps a retry from being processed twice” at once. Each request is three steps: check the idempotency store, charge, store the result. You decide which request moves next. A lock around each step is not enough: check, charge and store must be one critical section.",
    "複数のリクエストが、記事「冪等性キー: リトライで二重処理を防ぐ仕組み」の決済サービスを同時に実行する。各リクエストは3ステップ：冪等性ストアのチェック、課金、結果の保存。次にどのリクエストを進めるかはあなたが決める。ステップごとのロックでは足りない。確認・課金・保存は1つのクリティカルセクションでなければならない。"
);
pub const LAB_SAME_LENGTH: Pair = pair!(
    "A request that finds a stored result returns DuplicateRequest at once; its remaining steps run no code, so every request always takes three steps and every schedule has the same length.",
    "保存済みの結果を見つけたリクエストはすぐに DuplicateRequest を返す。残りのステップでは何も実行しないので、どのリクエストも常に3ステップで、どのスケジュールも同じ長さになる。"
);
pub const DATABASE_LINK: Pair = pair!(
    "On a real database: the same schedules on PostgreSQL →",
    "本物のデータベースで：同じスケジュールを PostgreSQL で →"
);
pub const NOTICE_LOADED: Pair = pair!(
    "The explorer's schedule is loaded: step back through it, or reset and try your own.",
    "エクスプローラーのスケジュールを読み込んだ。1ステップずつ戻って確かめるか、リセットして自分で試そう。"
);
pub const NOTICE_REPLAYED: Pair = pair!("Schedule replayed.", "スケジュールをリプレイした。");

/// The stepper's heading, with the model's name.
pub fn stepper_heading(l: Lang, model: &str) -> String {
    tr!(l, "Stepper — {model}", "ステッパー — {model}")
}

/// What to try with a model, under the stepper's heading.
pub fn model_lesson(l: Lang, model: Model) -> &'static str {
    match model {
        Model::TocTou => l.t(
            "Each step takes and releases its own lock. Try: step request 1 through its check, then request 2 through its check — both find nothing stored, and both charge.",
            "各ステップが自分のロックを取って離す。試そう：リクエスト1をチェックまで進め、次にリクエスト2もチェックまで進める。どちらも記録を見つけられず、両方が課金する。",
        ),
        Model::Atomic => l.t(
            "The first step takes the one state lock and the last releases it. While a request holds it, the others are blocked and their buttons are disabled.",
            "最初のステップで state ロックを1つ取り、最後のステップで離す。保持中は他のリクエストがブロックされ、ボタンは押せない。",
        ),
        Model::Unlocked => l.t(
            "No lock at all: the same race as TOCTOU. (In real Rust, &mut self would not even let two threads share it without a lock; this is what happens in a language that does.)",
            "ロックが一切ない：TOCTOUと同じ競合。（実際のRustでは &mut self のためロックなしでスレッド共有すらできない。これは共有できてしまう言語で起きること。）",
        ),
    }
}

/// Whether the lab challenge is won.
pub fn challenge_status(l: Lang, won: bool) -> &'static str {
    if won {
        l.t("★ Won! The lab has checked it.", "★ 達成！ラボが確かめた。")
    } else {
        l.t(
            "Not yet: the lab checks after every step and every finished search.",
            "まだ。ラボは1ステップごと、探索が終わるごとに確かめる。",
        )
    }
}
pub const BACK_TO_LESSONS: Pair = pair!("Back to the lessons", "レッスンに戻る");

// settings.rs: the scenario form.
pub const SCENARIO: Pair = pair!("Scenario", "シナリオ");
pub const SERVICE: Pair = pair!("Service", "サービス");

/// The label of the number of concurrent requests, with its limits.
pub fn concurrent_requests(l: Lang) -> String {
    tr!(
        l,
        "Concurrent requests ({MIN_PARALLEL_REQUESTS}–{MAX_PARALLEL_REQUESTS})",
        "同時リクエスト数（{MIN_PARALLEL_REQUESTS}〜{MAX_PARALLEL_REQUESTS}）"
    )
}
pub const IDEMPOTENCY_KEYS: Pair = pair!("Idempotency keys", "冪等性キー");
pub const SAME_KEY: Pair = pair!(
    "Same key (retries of one payment)",
    "同じキー（1つの支払いのリトライ）"
);
pub const KEY_PER_REQUEST: Pair = pair!(
    "A key per request (different payments)",
    "リクエストごとに別のキー（別々の支払い）"
);

/// The label of the amounts, with their limits.
pub fn amounts_label(l: Lang, min: &str, max: &str) -> String {
    tr!(
        l,
        "Amounts: one for all, or one per request ({min}–{max})",
        "金額：全体に1つ、またはリクエストごと（{min}〜{max}）",
    )
}
pub const SEED: Pair = pair!(
    "Seed (random runs and samples)",
    "シード（ランダム実行とサンプリング）"
);
pub const APPLY: Pair = pair!("Apply and reset the run", "適用して実行をリセット");

// controls.rs: the stepper's controls.
pub const STEPPER_CONTROLS: Pair = pair!("Stepper controls", "ステッパーの操作");
pub const SCHEDULER: Pair = pair!("Scheduler", "スケジューラー");

/// The seeded random scheduler, with its seed.
pub fn seeded_random(l: Lang, seed: u64) -> String {
    tr!(
        l,
        "Seeded random (seed {seed})",
        "シード付きランダム（シード {seed}）"
    )
}
pub const ROUND_ROBIN: Pair = pair!("Round robin", "ラウンドロビン");
pub const PICK_ONE_STEP: Pair = pair!("Let it pick one step", "次の1ステップを任せる");
pub const RUN_TO_END: Pair = pair!("Run to the end ▶▶", "最後まで実行 ▶▶");
pub const SCHEDULE_SO_FAR: Pair = pair!(
    "Schedule so far (request numbers): ",
    "これまでのスケジュール（リクエスト番号）："
);
/// The schedule so far, before the first step.
pub const NO_STEPS: Pair = pair!("(none)", "（なし）");
pub const REPLAY_LABEL: Pair = pair!(
    "Replay a schedule, e.g. 1 1 2 2 2 1",
    "スケジュールをリプレイ（例：1 1 2 2 2 1）"
);
pub const REPLAY: Pair = pair!("Replay", "リプレイ");

// lane.rs: a request's lane: where it stands, its step blocks and its step button.

/// A request ready to move: its next step.
pub fn lane_ready(l: Lang, n: usize, name: &str) -> String {
    tr!(
        l,
        "Ready: next is step {n} of {LAB_STEPS_PER_REQUEST}, {name}",
        "実行可能：次は {LAB_STEPS_PER_REQUEST}ステップ中の {n}（{name}）"
    )
}

/// A request waiting for the state lock request `h` holds.
pub fn lane_blocked(l: Lang, h: usize) -> String {
    tr!(
        l,
        "Blocked: waits for the state lock, held by request {h}",
        "ブロック中：state ロックを待っている（保持：リクエスト{h}）"
    )
}

/// A request that returned early: what it returned, and its next step (which runs no code).
pub fn lane_returned(l: Lang, result: &str, n: usize) -> String {
    tr!(
        l,
        "Returned {result}. Its step {n} runs no code.",
        "{result}を返した。ステップ {n} では何も実行しない。"
    )
}

/// A request that has taken all its steps.
pub fn lane_finished(l: Lang, returned: &str) -> String {
    tr!(
        l,
        "Finished: returned {returned}",
        "終了：{returned}を返した"
    )
}
pub const BLOCK_DONE: Pair = pair!("done", "実行済み");
pub const BLOCK_NEXT: Pair = pair!("next", "次");
pub const BLOCK_SKIPPED: Pair = pair!("not run (returned)", "実行されない（return済み）");
pub const BLOCK_LATER: Pair = pair!("later", "未実行");

/// A step block's heading.
pub fn step_heading(l: Lang, n: usize, name: &str) -> String {
    tr!(l, "Step {n}: {name}", "ステップ {n}：{name}")
}

/// The step button of request `n`, whose next step is `name`.
pub fn step_request(l: Lang, n: usize, name: &str) -> String {
    tr!(
        l,
        "Step request {n}: {name}",
        "リクエスト{n}を進める：{name}"
    )
}

/// The step button of request `n`, which returned early.
pub fn step_returned_request(l: Lang, n: usize) -> String {
    tr!(
        l,
        "Step request {n} (returned, no code)",
        "リクエスト{n}を進める（return済み）"
    )
}

/// The step button of request `n`, blocked.
pub fn request_is_blocked(l: Lang, n: usize) -> String {
    tr!(l, "Request {n} is blocked", "リクエスト{n}はブロック中")
}

/// The step button of request `n`, finished.
pub fn request_has_finished(l: Lang, n: usize) -> String {
    tr!(l, "Request {n} has finished", "リクエスト{n}は終了")
}

/// A lane's key and amount.
pub fn lane_meta(l: Lang, key: &str, amount: i64) -> String {
    tr!(
        l,
        "key {key} · amount {amount}",
        "キー {key} · 金額 {amount}",
    )
}

// shared.rs: the shared state: balance, counts, store, locks, who is blocked, the last step.
pub const SHARED_STATE: Pair = pair!("Shared state", "共有状態");
pub const CHARGES: Pair = pair!("Charges (operation_count)", "課金回数（operation_count）");
pub const SUCCESSES: Pair = pair!(
    "Requests that returned Success",
    "成功（Success）を返したリクエスト"
);
pub const DOUBLE_CHARGE: Pair = pair!("Double charge: ", "二重課金：");

/// Which keys were charged more than once, each as `key ×n`.
pub fn double_charged_keys(l: Lang, keys: &[String]) -> String {
    let keys = keys.join(LIST_SEP.get(l));
    tr!(
        l,
        "one idempotency key was charged more than once ({keys}).",
        "1つの冪等性キーで複数回課金された（{keys}）。"
    )
}
/// The outcome line under the lanes on a narrow screen: the balance and the charges.
pub fn outcome(l: Lang, balance: i64, charges: usize) -> String {
    let balance = crate::ui::text::money(balance);
    tr!(
        l,
        "Balance {balance} · charges {charges}",
        "残高 {balance}・課金 {charges}回"
    )
}
/// Its button, to the shared state.
pub const OUTCOME_DETAILS: Pair = pair!("Shared state ↓", "共有状態 ↓");
pub const IDEMPOTENCY_STORE: Pair = pair!("Idempotency store", "冪等性ストア");
pub const NOTHING_STORED: Pair = pair!("(nothing stored)", "（記録なし）");
pub const LOCKS: Pair = pair!("Locks", "ロック");

/// The locks of `model` now: under the atomic model, who holds the state lock (`holder`,
/// 1-based).
pub fn locks_now(l: Lang, model: Model, holder: Option<usize>) -> String {
    match (model, holder) {
        (Model::Atomic, Some(h)) => tr!(
            l,
            "state lock: held by request {h}",
            "state ロック：リクエスト{h}が保持中"
        ),
        (Model::Atomic, None) => l.t("state lock: free", "state ロック：空き").to_string(),
        (Model::TocTou, _) => l
            .t(
                "idempotency_store, balance, operation_count locks: each taken and released within one step, so none is held between steps",
                "idempotency_store・balance・operation_count の各ロック：1ステップの中で取得・解放されるため、ステップ間では誰も保持していない",
            )
            .to_string(),
        (Model::Unlocked, _) => l
            .t(
                "no locks: nothing stops two requests interleaving",
                "ロックなし：2つのリクエストの交互実行を止めるものはない",
            )
            .to_string(),
    }
}

/// Request `n` waiting for the lock request `h` holds.
pub fn blocked_by(l: Lang, n: usize, h: usize) -> String {
    tr!(
        l,
        "Request {n} is blocked: it waits for the lock request {h} holds",
        "リクエスト{n}はブロック中：リクエスト{h}が保持するロックを待っている",
    )
}

/// The last step: who moved (`r`, 1-based) and which step.
pub fn last_step(l: Lang, r: usize, step: &str) -> String {
    tr!(
        l,
        "Last step: request {r}, {step}",
        "直前のステップ：リクエスト{r}の{step}"
    )
}
/// Between the last step and what it did.
pub const COLON: Pair = pair!(": ", "：");

// compare.rs: the same schedule through two services.
pub const COMPARE_HEADING: Pair = pair!(
    "Same schedule, two services",
    "同じスケジュールを2つのサービスで"
);
pub const CHARGED_TWICE: Pair = pair!("Charged twice for one key", "二重課金");

/// Whether a run charged one key twice.
pub fn double_charged(l: Lang, twice: bool) -> &'static str {
    if twice {
        l.t("yes — double charge", "あり")
    } else {
        l.t("no", "なし")
    }
}

/// A request still running, with its next step (1-based).
pub fn running_next(l: Lang, next: usize) -> String {
    tr!(
        l,
        "running (step {next} next)",
        "実行中（次はステップ {next}）"
    )
}

/// One wait of request `r` for the lock request `h` held, at these schedule steps.
pub fn lock_wait(l: Lang, model: &str, r: usize, h: usize, steps: &str) -> String {
    tr!(
        l,
        "{model}: request {r} waited for the lock request {h} held (schedule step {steps}).",
        "{model}：リクエスト{r}はリクエスト{h}が保持するロックを待った（スケジュールの{steps}番目）。",
    )
}

/// Steps of the schedule still waiting for the lock.
pub fn still_waiting(l: Lang, still_waiting: usize) -> String {
    tr!(
        l,
        "{still_waiting} step(s) still wait for the lock.",
        "{still_waiting}ステップがまだロックを待っている。",
    )
}

// timeline.rs: the steps taken.
pub const STEPS_TAKEN: Pair = pair!("Steps taken", "実行したステップ");
pub const NO_STEP_YET: Pair = pair!(
    "No step yet. Press a request's button to move it, or let the scheduler run.",
    "まだステップなし。リクエストのボタンで進めるか、スケジューラーに任せる。"
);

// share.rs: the share link.
pub const SHARE_HEADING: Pair = pair!("Share this schedule", "このスケジュールを共有");
pub const SHARE_NOTE: Pair = pair!(
    "The link holds the settings and the schedule so far; opening it shows this lab at this step. The lab is also kept in this browser.",
    "リンクには設定とここまでのスケジュールが入っていて、開くとこのラボがこのステップで表示される。ラボはこのブラウザーにも保存される。"
);

/// The lab's link is over the limit.
pub fn link_too_long(l: Lang, bytes: usize) -> String {
    tr!(
        l,
        "This lab is too long for a link ({bytes} bytes, limit {MAX_URL_BYTES}).",
        "このラボはリンクには長すぎる（{bytes}バイト、上限 {MAX_URL_BYTES}）。"
    )
}
pub const LINK: Pair = pair!("Link", "リンク");
pub const COPY_LINK: Pair = pair!(
    "Copy link to this schedule",
    "このスケジュールへのリンクをコピー"
);
pub const LINK_COPIED: Pair = pair!("Link copied.", "リンクをコピーした。");
pub const COPY_REFUSED: Pair = pair!(
    "This browser did not let the page copy: the link is selected, copy it with Ctrl+C (⌘C).",
    "このブラウザーではページからコピーできなかった。リンクを選択したので Ctrl+C（⌘C）でコピーしてください。"
);

// histogram.rs: the explorer's bars.
pub const DOUBLE_CHARGE_MARK: Pair = pair!(" — double charge", " — 二重課金");

// explorer.rs: the explorer's form, its status, and what a search found.
pub const EXPLORER_HEADING: Pair = pair!(
    "Explorer: every schedule",
    "エクスプローラー：すべてのスケジュール"
);
pub const EXPLORER_INTRO: Pair = pair!(
    "The article's 10-thread test can only say “this time it worked”. The explorer runs every order in which the requests' steps can interleave and counts how each ended.",
    "記事の10スレッドテストが言えるのは「今回はうまくいった」だけ。エクスプローラーはリクエストのステップが交互に並ぶすべての順序を実行し、結果ごとに数える。"
);
pub const SEARCH: Pair = pair!("Search", "探索方法");

/// The cached search, with its limit.
pub fn search_cached(l: Lang) -> String {
    tr!(
        l,
        "Every schedule, each state once (up to {MAX_CACHED_REQUESTS} requests)",
        "全スケジュール・状態キャッシュあり（{MAX_CACHED_REQUESTS}件まで）"
    )
}
pub const SEARCH_PLAIN: Pair = pair!(
    "Every schedule, one by one (no caching)",
    "全スケジュールを1つずつ（キャッシュなし）"
);
pub const SEARCH_SAMPLE: Pair = pair!("Random sample (seeded)", "ランダムサンプル（シード付き）");

/// The label of the sample size, with its limit.
pub fn samples_label(l: Lang, max: &str) -> String {
    tr!(
        l,
        "Schedules to try (1–{max})",
        "試すスケジュール数（1〜{max}）"
    )
}
pub const START_SEARCH: Pair = pair!("Start the search", "探索を開始");
pub const CANCEL: Pair = pair!("Cancel", "キャンセル");
pub const SEARCH_PROGRESS: Pair = pair!("Search progress", "探索の進み具合");
pub const NOT_STARTED: Pair = pair!("Not started.", "未実行。");

/// A search under way, `percent` done.
pub fn searching(l: Lang, percent: f64) -> String {
    tr!(
        l,
        "Searching… about {percent:.0} % done.",
        "探索中… 約 {percent:.0} % 完了。"
    )
}

/// A search finished.
pub fn finished_in(l: Lang, elapsed_ms: f64) -> String {
    tr!(
        l,
        "Finished in {elapsed_ms:.0} ms.",
        "{elapsed_ms:.0} ms で完了。"
    )
}
pub const CANCELLED: Pair = pair!(
    "Cancelled: the numbers below are partial.",
    "キャンセル：以下は途中までの数。"
);

/// A search the lab refused to start, and why.
pub fn refused_before_starting(l: Lang, why: &str) -> String {
    tr!(l, "Refused before starting: {why}", "開始前に拒否：{why}")
}

/// A search that stopped on an error, and why.
pub fn stopped(l: Lang, why: &str) -> String {
    tr!(l, "Stopped: {why}", "停止：{why}")
}
pub const POSSIBLE_INTERLEAVINGS: Pair = pair!("Possible interleavings, ", "可能な交互実行の数：");
/// The number of interleavings, when it does not fit in 128 bits.
pub const MORE_THAN_2_128: Pair = pair!("more than 2^128", "2^128 超");

/// What the schedules counted are: a random sample's, or all complete ones.
pub fn schedules_counted(l: Lang, sampled: bool) -> &'static str {
    if sampled {
        l.t(
            "Schedules tried (random sample)",
            "試したスケジュール数（ランダムサンプル）",
        )
    } else {
        l.t(
            "Complete schedules explored",
            "探索した完全なスケジュール数",
        )
    }
}
pub const DOUBLE_CHARGE_SCHEDULES: Pair = pair!(
    "Schedules with 2 or more charges for one key",
    "同じキーで2回以上課金したスケジュール"
);
pub const DISTINCT_STATES: Pair = pair!(
    "Distinct states explored (each once)",
    "探索した異なる状態の数（各1回）"
);
pub const STEPS_COMPUTED: Pair = pair!("Steps computed", "計算したステップ数");
pub const HOW_SCHEDULES_ENDED: Pair = pair!("How the schedules ended", "スケジュールの結末");

/// Lock waits ruled out `other` of the `all` interleavings: only `ran` can happen.
pub fn ruled_out(l: Lang, other: &str, ran: &str, all: &str) -> String {
    tr!(
        l,
        "The lock rules out the other {other}: while one request holds it, the others cannot take a step, so only {ran} of the {all} interleavings can happen.",
        "残りの {other}通りはロックが排除している。1つのリクエストがロックを持つ間は他のリクエストが1ステップも進めないので、{all}通りの交互実行のうち起こりうるのは {ran}通りだけ。",
    )
}

/// No lock ruled out any of the `all` interleavings.
pub fn none_ruled_out(l: Lang, all: &str) -> String {
    tr!(
        l,
        "Every one of the {all} interleavings can happen: no lock is held across steps, so no request ever waits.",
        "{all}通りの交互実行はすべて起こりうる。ステップをまたいで保持されるロックがないので、どのリクエストも待たない。",
    )
}

/// How far the fewest context switches of a double charge are known: so far (a sample, or a
/// search not finished), or of all schedules.
pub fn fewest_switches(l: Lang, so_far: bool) -> &'static str {
    if so_far {
        l.t(
            "fewest context switches found so far",
            "これまでに見つかった最少のコンテキストスイッチ",
        )
    } else {
        l.t(
            "fewest context switches of all schedules",
            "全スケジュール中で最少のコンテキストスイッチ",
        )
    }
}

/// A double-charging schedule found, before the schedule itself.
pub fn counterexample_found(l: Lang, switches: usize, qualifier: &str) -> String {
    tr!(
        l,
        "A double-charging schedule with {switches} context switches ({qualifier}): ",
        "二重課金するスケジュール（コンテキストスイッチ {switches}回、{qualifier}）：",
    )
}
pub const LOAD_INTO_STEPPER: Pair = pair!("Load into the stepper", "ステッパーに読み込む");
pub const SAFE_FOR_EVERY: Pair = pair!(
    "No schedule double-charges: the service is safe for every interleaving of these requests.",
    "二重課金するスケジュールはない：これらのリクエストのどの交互実行でも安全。"
);
pub const NONE_IN_SAMPLE: Pair = pair!(
    "No double charge in this sample (a sample cannot prove there is none).",
    "このサンプルに二重課金はない（サンプルでは「ない」ことは証明できない）。"
);

// database.rs: "On a real database".

/// data/pg-race.json could not be read as a report, and why.
pub fn db_report_unreadable(l: Lang, why: &str) -> String {
    tr!(
        l,
        "data/pg-race.json is not a report of version {REPORT_VERSION} ({why}): run make pg-race again.",
        "data/pg-race.json がバージョン {REPORT_VERSION} のレポートではない（{why}）。make pg-race をもう一度実行しよう。"
    )
}

/// One step of a schedule: who (A, B, …) and which step.
pub fn db_step(l: Lang, who: char, what: &str) -> String {
    tr!(l, "{who} {what}", "{who}{what}")
}
pub const DB_HEADING: Pair = pair!(
    "On a real database: is one transaction enough?",
    "本物のデータベースで：トランザクション1つで足りるか"
);
pub const DB_INTRO: Pair = pair!(
    "The lab's atomic service holds one lock around check, charge and store, and the article says that in production this lock is a database transaction. Here the same services are written as SQL and run on PostgreSQL with real connections. Whether one transaction stops the double charge depends on its isolation level, on a constraint, or on a lock taken before the check.",
    "ラボのアトミックなサービスは確認・課金・保存を1つのロックで囲み、記事は本番ではこのロックがデータベースのトランザクションだと言う。ここでは同じサービスを SQL で書き、本物の接続で PostgreSQL 上で動かした。トランザクション1つで二重課金が止まるかは、分離レベル、制約、チェック前に取るロックで決まる。"
);

/// When and where the report was measured: `n` connections per race, `k` races per variant.
pub fn db_measured(l: Lang, date: &str, server: &str, n: u64, k: u64) -> String {
    tr!(
        l,
        "Measured on {date} with {server}: {n} connections per race, {k} races per variant. make pg-race measures again on a throwaway server and rewrites data/pg-race.json.",
        "{date} に {server} で測定：1回の競合に {n}接続、各方式 {k}回。make pg-race が使い捨てのサーバーで測り直し、data/pg-race.json を書き換える。"
    )
}
pub const DB_BACK_TO_LAB: Pair = pair!("← Back to the lab", "← ラボに戻る");
pub const DB_PREDICT_HEADING: Pair = pair!(
    "Predict: the lab's shortest double charge, on PostgreSQL",
    "予想：ラボで最短の二重課金を PostgreSQL で"
);

/// The question, with the schedule (`plan`) it ran.
pub fn db_predict_intro(l: Lang, plan: &str) -> String {
    tr!(
        l,
        "Two requests with the same key, each three steps, in the order the lab's explorer found for the three-lock service: {plan}. Each step ran on its own connection; a step that waited for a lock let the next one go first. How many times did PostgreSQL charge for each variant?",
        "同じキーの2つのリクエスト（各3ステップ）を、ラボのエクスプローラーが3ロックのサービスで見つけた順に動かした：{plan}。各ステップはそれぞれの接続で実行し、ロック待ちのステップがあれば次のステップを先に進めた。各方式で PostgreSQL は何回課金したか？"
    )
}
pub const DB_VARIANT: Pair = pair!("Variant", "方式");
pub const DB_LAB_MODEL: Pair = pair!("The lab's model", "ラボのモデル");
pub const DB_YOUR_GUESS: Pair = pair!("Your guess", "あなたの予想");
pub const DB_POSTGRESQL: Pair = pair!("PostgreSQL", "PostgreSQL");
/// The lab's model column, for a variant the lab has no model of.
pub const DB_NO_MODEL: Pair = pair!("no model", "モデルなし");
/// Between the outcomes of the requests of one schedule.
pub const DB_OUTCOME_SEP: Pair = pair!(" / ", "／");

/// The outcomes of the requests, after PostgreSQL's charges.
pub fn db_outcomes(l: Lang, who: &str) -> String {
    tr!(l, "({who})", "（{who}）")
}

/// The score, once every answer is shown.
pub fn db_score(l: Lang, right: usize, answered: usize) -> String {
    tr!(
        l,
        "You predicted {right} of {answered} right.",
        "{answered} 問中 {right} 問正解。"
    )
}

/// Predictions still to make.
pub fn db_left_to_predict(l: Lang, left: usize) -> String {
    tr!(l, "{left} left to predict.", "残り {left} 問。")
}
pub const DB_SHOW_EVERY_ANSWER: Pair = pair!("Show every answer", "すべての答えを見る");
pub const DB_EVERY_SCHEDULE: Pair = pair!(
    "Every schedule of two requests (20)",
    "2リクエストのすべてのスケジュール（20通り）"
);

/// A variant the lab has no model of: its double charges over all schedules.
pub fn db_verdict_no_model(l: Lang, name: &str, double: usize, total: usize) -> String {
    tr!(
        l,
        "{name}: charged twice on {double} of {total} schedules (the lab has no model of it).",
        "{name}：{total}通り中 {double}通りで2回課金（ラボにモデルはない）。"
    )
}

/// A variant on which the lab's model and PostgreSQL agree on every schedule.
pub fn db_verdict_agree(l: Lang, name: &str, double: usize, total: usize) -> String {
    tr!(
        l,
        "{name}: the lab's model and PostgreSQL agree on all {total} schedules; twice charged on {double}.",
        "{name}：{total}通りすべてでラボのモデルと PostgreSQL が一致。2回課金は {double}通り。"
    )
}

/// A variant on which the lab's model promised one charge and PostgreSQL charged twice.
pub fn db_verdict_wrong(l: Lang, name: &str, double: usize, total: usize) -> String {
    tr!(
        l,
        "{name}: the lab's model is wrong here. It promised one charge; PostgreSQL charged twice on {double} of {total} schedules.",
        "{name}：ここではラボのモデルが誤り。モデルは課金1回を約束したが、PostgreSQL は {total}通り中 {double}通りで2回課金した。"
    )
}

/// The race's heading: `n` connections, `k` races.
pub fn db_race_heading(l: Lang, n: u64, k: u64) -> String {
    tr!(
        l,
        "The article's 10-thread test: {n} connections, one key, {k} races",
        "記事の10スレッドテスト：{n}接続、1つのキー、{k}回"
    )
}
pub const DB_RACES_DOUBLE: Pair = pair!("Races with a double charge", "二重課金の回数");
pub const DB_MOST_CHARGES: Pair = pair!("Most charges per key", "1つのキーへの課金回数（最多）");
pub const DB_CHARGED: Pair = pair!("Charged", "課金");
pub const DB_REPLAYED: Pair = pair!("Replayed or 409", "リプレイ・409");
pub const DB_BEGAN_AGAIN: Pair = pair!("Began again (40001)", "再試行（40001）");
pub const DB_ERRORS: Pair = pair!("Errors (SQLSTATE)", "エラー（SQLSTATE）");
pub const DB_LOWEST_BALANCE: Pair = pair!("Lowest balance", "最低残高");
pub const DB_SQL_HEADING: Pair = pair!(
    "The SQL of each variant, as it ran",
    "各方式の SQL（実行したとおり）"
);
