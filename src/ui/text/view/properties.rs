//! The properties views' words (see the parent module).

use crate::sim::limits::MIN_PROPERTY_CASES;
use crate::ui::i18n::{pair, tr, Lang, Pair};

// page.rs: the page's introduction and why it opened with other settings than asked.
pub const HEADING: Pair = pair!(
    "Property checks: proptest, in the page",
    "プロパティベーステスト：proptest をこのページで"
);
pub const INTRO: Pair = pair!(
    "Hand-written tests check the cases someone thought of; the article “Idempotency keys: the mechanism that keeps a retry from being processed twice” adds two properties, checked with proptest. A property is a claim about every case: the page draws random scenarios from a seed — balances, amounts, retries, lost requests and replies, crashes, requests with the same key at the same moment — runs each through the chosen service, and checks the claim against what the service did. When a case breaks it, the page shrinks the case to the smallest one that still breaks it, as proptest does, and opens it in the playground.",
    "手書きのテストが確かめるのは、誰かが思いついたケースだけ。記事「冪等性キー: リトライで二重処理を防ぐ仕組み」は、そこに proptest で確かめる2つのプロパティを加えている。プロパティはすべてのケースについての主張だ。このページはシードから乱数でシナリオを引き（残高、金額、リトライ、リクエストや応答の消失、クラッシュ、同じキーで同時に届くリクエスト）、それぞれを選んだサービスで実行し、サービスが実際にしたことに主張を照らす。あるケースが主張を破ると、proptest と同じように、まだ破れる最小のケースまで縮小し、プレイグラウンドで開けるようにする。"
);
pub const BAD_LINK: Pair = pair!(
    "This link's settings could not be used, so the page shows other settings: ",
    "このリンクの設定は使えないので、別の設定を表示している："
);
pub const BAD_SAVED: Pair = pair!(
    "The settings saved in this browser could not be used, so the defaults are shown: ",
    "このブラウザーに保存された設定は使えないので、既定の設定を表示している："
);

/// A link or the saved settings named a property `p` that does not exist.
pub fn no_such_property(l: Lang, p: &str) -> String {
    tr!(
        l,
        "there is no property “{p}”.",
        "プロパティ「{p}」はない。"
    )
}

/// A link or the saved settings named a service `s` that does not exist.
pub fn no_such_service(l: Lang, s: &str) -> String {
    tr!(l, "there is no service “{s}”.", "サービス「{s}」はない。")
}

// view.rs, the form: what to check.
pub const WHAT_TO_CHECK: Pair = pair!("What to check", "何を検査するか");
pub const PROPERTY: Pair = pair!("Property", "プロパティ");
pub const SERVICE: Pair = pair!("Service", "サービス");

/// The label of the number of cases, with its limits.
pub fn cases_label(l: Lang, max_cases: &str) -> String {
    tr!(
        l,
        "Cases ({MIN_PROPERTY_CASES}–{max_cases})",
        "ケース数（{MIN_PROPERTY_CASES}〜{max_cases}）"
    )
}

/// The label of the seed, with its limit.
pub fn seed_label(l: Lang, max_seed: &str) -> String {
    tr!(l, "Seed (0–{max_seed})", "シード（0〜{max_seed}）")
}
pub const NEW_SEED: Pair = pair!("New seed", "新しいシード");
pub const RUN: Pair = pair!("Run", "実行");

// view.rs, the status line: where the run stands.
pub const NOT_RUN_YET: Pair = pair!(
    "Not run yet: pick what to check and press Run.",
    "未実行。検査するものを選んで「実行」を押す。"
);

/// A case failed and is being shrunk: shrink steps taken and kept so far.
pub fn shrinking(l: Lang, tried: u32, kept: u32) -> String {
    tr!(
        l,
        "A case failed. Shrinking it: {tried} shrink steps, {kept} kept…",
        "ケースが失敗した。縮小中：縮小ステップ {tried}回、うち {kept}回を採用…"
    )
}

/// The run was cancelled while shrinking, after `tried` shrink steps.
pub fn cancelled_shrinking(l: Lang, tried: u32) -> String {
    tr!(
        l,
        "Cancelled while shrinking (after {tried} shrink steps): the smallest failing case so far is below.",
        "縮小中にキャンセルした（縮小ステップ {tried}回の後）。ここまでで最小の失敗ケースを下に示す。"
    )
}

/// Cases checked so far.
pub fn checking(l: Lang, checked: &str, cases: &str) -> String {
    tr!(
        l,
        "Checking: {checked} of {cases} cases…",
        "検査中：{cases}ケース中 {checked}…"
    )
}

/// The run was cancelled before any case failed.
pub fn cancelled_after(l: Lang, checked: &str, cases: &str) -> String {
    tr!(
        l,
        "Cancelled after {checked} of {cases} cases: no case failed before that.",
        "{cases}ケース中 {checked} でキャンセルした。それまでに失敗したケースはない。"
    )
}

/// The run finished: page time taken and events simulated.
pub fn finished(l: Lang, ms: &str, events: &str) -> String {
    tr!(
        l,
        "Finished in {ms} ms of page time ({events} simulated events).",
        "ページ上の {ms} ms で完了（シミュレートしたイベント {events}個）。"
    )
}
pub const PROGRESS: Pair = pair!("Progress of the run", "実行の進み具合");
pub const CANCEL: Pair = pair!("Cancel", "キャンセル");

// view.rs, the result: every case held, or the failing case and its shrunk form.

/// Case `n` broke a limit while it was built, and why.
pub fn case_refused(l: Lang, n: u32, why: &str) -> String {
    tr!(
        l,
        "Case {n} could not be built: {why}",
        "ケース {n} を組み立てられなかった：{why}"
    )
}

/// Every case held.
pub fn every_case_held(l: Lang, cases: &str) -> String {
    tr!(
        l,
        "✓ Every case held: {cases} of {cases}",
        "✓ すべてのケースで成立：{cases} / {cases}"
    )
}

/// The service kept the property in every case drawn from the seed.
pub fn kept_property(l: Lang, service: &str, property: &str, cases: &str, seed: u64) -> String {
    tr!(
        l,
        "The {service} service kept “{property}” in all {cases} cases drawn from seed {seed}.",
        "{service}サービスは、シード {seed} から引いた {cases}ケースすべてで「{property}」を守った。"
    )
}
pub const EVIDENCE_NOT_PROOF: Pair = pair!(
    "Passing cases are evidence, not proof: another seed draws other cases. (The lab's explorer can prove a small case safe by trying every interleaving.)",
    "通ったケースは証拠であって証明ではない。別のシードは別のケースを引く。（小さなケースなら、ラボのエクスプローラーがすべての交互実行を試して安全を証明できる。）"
);

/// Case `n` of `cases` failed.
pub fn case_failed(l: Lang, n: u32, cases: &str) -> String {
    tr!(
        l,
        "✕ Case {n} of {cases} failed",
        "✕ {cases}ケース中 {n}番目が失敗"
    )
}

/// The service broke the property.
pub fn broke_property(l: Lang, service: &str, property: &str) -> String {
    tr!(
        l,
        "The {service} service broke “{property}”.",
        "{service}サービスは「{property}」を破った。"
    )
}

/// The failing case as generated: its scenario's seed and its inputs (see [`input_count`]).
pub fn failing_case(l: Lang, n: u32, case_seed: u64, inputs: &str) -> String {
    tr!(
        l,
        "Case {n} (its scenario's seed is {case_seed}) as generated had {inputs}",
        "生成されたままのケース {n}（シナリオのシードは {case_seed}）は{inputs}",
    )
}

/// How many inputs the failing case had, ending [`failing_case`].
pub fn input_count(l: Lang, n: usize) -> String {
    if n == 1 {
        l.t("1 input.", "入力 1件だった。").to_string()
    } else {
        tr!(l, "{n} inputs.", "入力 {n}件だった。")
    }
}
pub const AS_GENERATED: Pair = pair!(
    "The failing case as generated",
    "生成されたままの失敗ケース"
);

/// The minimal case's heading: shrinking finished, or was cancelled; shrink steps taken and kept.
pub fn minimal_heading(l: Lang, shrinking_done: bool, tried: u32, kept: u32) -> String {
    if shrinking_done {
        tr!(
            l,
            "Shrunk to a minimal case ({tried} shrink steps, {kept} kept)",
            "最小のケースに縮小した（縮小ステップ {tried}回、うち {kept}回を採用）"
        )
    } else {
        tr!(
            l,
            "The smallest failing case found before Cancel ({tried} shrink steps)",
            "キャンセルまでに見つかった最小の失敗ケース（縮小ステップ {tried}回）"
        )
    }
}

/// A case's starting balance, before its inputs.
pub fn starting_balance(l: Lang, balance: &str) -> String {
    tr!(
        l,
        "Starting balance {balance}, then:",
        "初期残高 {balance}、続いて："
    )
}

/// A shrink step's variant starts from another balance than the case before.
pub fn starting_balance_changed(l: Lang, from: &str, to: &str) -> String {
    tr!(
        l,
        "Starting balance {to} (was {from}), then:",
        "初期残高 {to}（変更前は {from}）、続いて："
    )
}

// view.rs, the link to the playground: what it opens, and that nothing leaves the page.
pub const OPEN_IN_PLAYGROUND: Pair = pair!(
    "Open this case's run in the playground",
    "このケースの実行をプレイグラウンドで開く"
);

/// What the link does: the sandbox opens the case at the step that broke the property (`step`,
/// or its start when the breach names none); the case goes in the link's own address.
pub fn open_note(l: Lang, step: Option<usize>) -> String {
    match step {
        Some(step) => tr!(
            l,
            " The sandbox opens it at step {step}, where the property broke. The case goes in the link's own address and stays in this browser.",
            "サンドボックスが、プロパティが破れたステップ {step} でこのケースを開く。ケースはリンクのアドレスに入っていて、このブラウザーの外には出ない。"
        ),
        None => l
            .t(
                " The sandbox opens it at its start. The case goes in the link's own address and stays in this browser.",
                "サンドボックスがこのケースを最初から開く。ケースはリンクのアドレスに入っていて、このブラウザーの外には出ない。",
            )
            .to_string(),
    }
}

// case.rs: a case's run, step by step, numbered as the breach and the playground number them.

/// The summary of a case's run: how many steps it took.
pub fn run_steps(l: Lang, steps: usize) -> String {
    tr!(
        l,
        "Its run, step by step ({steps} steps)",
        "この実行をステップごとに見る（{steps}ステップ）"
    )
}

/// A step's number and its simulated time.
pub fn step_number(l: Lang, step: usize, time: &str) -> String {
    tr!(l, "Step {step} · {time}", "ステップ {step}・{time}")
}
/// One event of a step, after the lane it happened on.
pub fn event_line(l: Lang, lane: &str, text: &str) -> String {
    tr!(l, "{lane}: {text}", "{lane}：{text}")
}
pub const BROKE_HERE: Pair = pair!("← the property broke here", "← ここでプロパティが破れた");
pub const FIRST_ANSWER_HERE: Pair = pair!("← the key's first answer", "← キーへの最初の応答");

/// The run has more steps than the page lists.
pub fn more_steps(l: Lang, more: usize) -> String {
    tr!(
        l,
        "… and {more} more steps: the playground shows them all.",
        "…ほかに {more}ステップある。すべてはプレイグラウンドで見られる。"
    )
}

/// The list marks of a shrink step's variant: an input the step removed or changed.
pub const REMOVED: Pair = pair!(" (removed)", "（削除）");

/// An input the step changed: what it was before.
pub fn was(l: Lang, before: &str) -> String {
    tr!(l, " (was: {before})", "（変更前：{before}）")
}

// walk.rs: the shrink steps, one at a time, from the case as generated to the minimal one.
pub const WALK_HEADING: Pair = pair!("How it shrank, step by step", "縮小の過程をステップごとに");
pub const WALK_INTRO: Pair = pair!(
    "Each shrink step makes one edit to the smallest failing case so far and runs the variant. If the variant still fails, it is kept and the next step starts from it; if it holds, it is dropped. Shrinking ends when no edit fails any more.",
    "縮小ステップは、ここまでで最小の失敗ケースに編集を1つ加えて、その変種を実行する。変種がまだ失敗すれば採用し、次のステップはそこから始まる。成立すれば不採用にする。どの編集でも失敗しなくなったら縮小は終わる。"
);
pub const FIRST: Pair = pair!("« First", "« 最初");
pub const PREVIOUS: Pair = pair!("‹ Previous", "‹ 前へ");
pub const NEXT: Pair = pair!("Next ›", "次へ ›");
pub const LAST: Pair = pair!("Last »", "最後 »");
pub const WALK_SLIDER: Pair = pair!("Shrink step", "縮小ステップ");
pub const WALK_KEYS: Pair = pair!(
    "Keys on these buttons: ← and → move one shrink step, Home and End go to the first and the last.",
    "ボタン上のキー操作：← と → で1ステップずつ、Home と End で最初と最後へ移る。"
);
pub const TRIED: Pair = pair!("Tried: ", "試した編集：");

/// Where the walk stands: the case as generated (0), or shrink step `at` of `of`.
pub fn walk_position(l: Lang, at: usize, of: usize) -> String {
    if at == 0 {
        tr!(
            l,
            "Start: the failing case as generated (shrink step 0 of {of})",
            "出発点：生成されたままの失敗ケース（縮小ステップ 0 / {of}）"
        )
    } else {
        tr!(l, "Shrink step {at} of {of}", "縮小ステップ {at} / {of}")
    }
}

pub const WALK_END: Pair = pair!(
    "This is the last shrink step: no edit of the case it was made on fails any more, so that case is the minimal one above.",
    "これが最後の縮小ステップだ。編集元のケースはどう編集してももう失敗しないので、そのケースが上の最小ケースになる。"
);

/// Shrinking took more steps than its log keeps (`MAX_SHRINK_LOG`).
pub fn walk_unlogged(l: Lang, kept: usize, taken: u32) -> String {
    tr!(
        l,
        "Shrinking took {taken} steps; the first {kept} are kept here. The minimal case above is where all of them led.",
        "縮小には {taken}ステップかかった。ここに残すのは最初の {kept}ステップだけだ。上の最小ケースが、すべてのステップの行き着いた先だ。"
    )
}
