//! The properties views' words (see the parent module).

use crate::sim::limits::MIN_PROPERTY_CASES;
use crate::ui::i18n::{pair, tr, Lang, Pair};

// page.rs: the page's introduction and why it opened with other settings than asked.
pub const HEADING: Pair = pair!(
    "Property checks: the article's proptest, in the page",
    "プロパティベーステスト：記事の proptest をこのページで"
);
pub const INTRO: Pair = pair!(
    "Hand-written tests check the cases someone thought of. A property is a claim about every case: the page draws random scenarios from a seed — balances, amounts, retries, lost requests and replies, crashes, requests with the same key at the same moment — runs each through the chosen service, and checks the claim against what the service did. When a case breaks it, the page shrinks the case to the smallest one that still breaks it, as proptest does, and opens it in the playground.",
    "手書きのテストが確かめるのは、誰かが思いついたケースだけ。プロパティはすべてのケースについての主張だ。このページはシードから乱数でシナリオを引き（残高、金額、リトライ、リクエストや応答の消失、クラッシュ、同じキーで同時に届くリクエスト）、それぞれを選んだサービスで実行し、サービスが実際にしたことに主張を照らす。あるケースが主張を破ると、proptest と同じように、まだ破れる最小のケースまで縮小し、プレイグラウンドで開けるようにする。"
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

/// A case failed and is being shrunk: variants tried and kept so far.
pub fn shrinking(l: Lang, tried: u32, kept: u32) -> String {
    tr!(
        l,
        "A case failed. Shrinking it: {tried} smaller variants tried, {kept} kept…",
        "ケースが失敗した。縮小中：小さな変種を {tried} 個試し、{kept} 個採用…"
    )
}

/// The run was cancelled while shrinking, after `tried` variants.
pub fn cancelled_shrinking(l: Lang, tried: u32) -> String {
    tr!(
        l,
        "Cancelled while shrinking ({tried} variants tried): the smallest failing case so far is below.",
        "縮小中にキャンセルした（変種を {tried} 個試した）。ここまでで最小の失敗ケースを下に示す。"
    )
}

/// Cases checked so far.
pub fn checking(l: Lang, checked: &str, cases: &str) -> String {
    tr!(
        l,
        "Checking: {checked} of {cases} cases…",
        "検査中：{cases} ケース中 {checked}…"
    )
}

/// The run was cancelled before any case failed.
pub fn cancelled_after(l: Lang, checked: &str, cases: &str) -> String {
    tr!(
        l,
        "Cancelled after {checked} of {cases} cases: no case failed before that.",
        "{cases} ケース中 {checked} でキャンセルした。それまでに失敗したケースはない。"
    )
}

/// The run finished: page time taken and events simulated.
pub fn finished(l: Lang, ms: &str, events: &str) -> String {
    tr!(
        l,
        "Finished in {ms} ms of page time ({events} simulated events).",
        "ページ時間 {ms} ms で完了（シミュレートしたイベント {events} 個）。"
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
        "{service}サービスは、シード {seed} から引いた {cases} ケースすべてで「{property}」を守った。"
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
        "✕ {cases} ケース中 {n} 番目が失敗"
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
        l.t("1 input.", "入力 1 件だった。").to_string()
    } else {
        tr!(l, "{n} inputs.", "入力 {n} 件だった。")
    }
}
pub const AS_GENERATED: Pair = pair!(
    "The failing case as generated",
    "生成されたままの失敗ケース"
);

/// The minimal case's heading: shrinking finished, or was cancelled; variants tried and kept.
pub fn minimal_heading(l: Lang, shrinking_done: bool, tried: u32, kept: u32) -> String {
    if shrinking_done {
        tr!(
            l,
            "Shrunk to a minimal case ({tried} variants tried, {kept} kept)",
            "最小のケースに縮小した（変種を {tried} 個試し、{kept} 個採用）"
        )
    } else {
        tr!(
            l,
            "The smallest failing case found before Cancel ({tried} variants tried)",
            "キャンセルまでに見つかった最小の失敗ケース（変種を {tried} 個試した）"
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
pub const OPEN_IN_PLAYGROUND: Pair = pair!("Open in the playground", "プレイグラウンドで開く");
pub const OPEN_NOTE: Pair = pair!(
    " (the sandbox, at the step that broke the property)",
    "（サンドボックスで、プロパティが破れたステップを開く）"
);
