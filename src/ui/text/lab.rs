//! The lab's words: step names, models, results, what a step did, outcome groups, shared by its
//! components so a lane, the timeline and the explorer describe the same thing the same way; and
//! the English renderings of the Japanese comments in the article's code the lab shows.

use crate::sim::lab::{ChargeOutcome, LabResult, Model, OutcomeKey, StepAction, StepRecord};
use crate::ui::i18n::{tr, Lang};

/// The name of step `step` (0-based) of `model`.
pub fn step_name(lang: Lang, model: Model, step: usize) -> &'static str {
    match (model, step) {
        (Model::Atomic, 0) => lang.t("lock + check", "ロック＋チェック"),
        (_, 0) => lang.t("check", "チェック"),
        (_, 1) => lang.t("charge", "課金"),
        (Model::Atomic, 2) => lang.t("store + unlock", "保存＋アンロック"),
        (_, 2) => lang.t("store", "保存"),
        _ => lang.t("done", "完了"),
    }
}

/// A model's name as the page lists it.
pub fn model_name(lang: Lang, model: Model) -> &'static str {
    match model {
        Model::TocTou => lang.t(
            "TOCTOU: a lock per step (TocTouVulnerableService)",
            "TOCTOU：ステップごとのロック（TocTouVulnerableService）",
        ),
        Model::Atomic => lang.t(
            "Atomic: one lock around everything (AtomicIdempotentService)",
            "アトミック：全体を1つのロックで（AtomicIdempotentService）",
        ),
        Model::Unlocked => lang.t(
            "No lock: IdempotentPaymentService shared by threads",
            "ロックなし：スレッド間で共有した IdempotentPaymentService",
        ),
    }
}

/// A model's short name, for table headings.
pub fn model_short(lang: Lang, model: Model) -> &'static str {
    match model {
        Model::TocTou => "TOCTOU",
        Model::Atomic => lang.t("Atomic", "アトミック"),
        Model::Unlocked => lang.t("No lock", "ロックなし"),
    }
}

/// A stored or computed charge outcome, in the article's `PaymentResult` names.
pub fn charge_text(lang: Lang, c: ChargeOutcome) -> String {
    match c {
        ChargeOutcome::Success { balance } => {
            tr!(
                lang,
                "Success (balance {balance})",
                "Success（残高 {balance}）"
            )
        }
        ChargeOutcome::InsufficientFunds { balance } => tr!(
            lang,
            "InsufficientFunds (balance {balance})",
            "InsufficientFunds（残高 {balance}）"
        ),
    }
}

/// What a request returned.
pub fn result_text(lang: Lang, r: LabResult) -> String {
    match r {
        LabResult::Success { balance } => charge_text(lang, ChargeOutcome::Success { balance }),
        LabResult::InsufficientFunds { balance } => {
            charge_text(lang, ChargeOutcome::InsufficientFunds { balance })
        }
        LabResult::DuplicateRequest { original } => {
            let original = charge_text(lang, original);
            tr!(
                lang,
                "DuplicateRequest (replays {original})",
                "DuplicateRequest（{original}を再送）"
            )
        }
    }
}

/// What one step did, in a sentence.
pub fn action_text(lang: Lang, action: StepAction) -> String {
    match action {
        StepAction::CheckHit { original } => {
            let original = charge_text(lang, original);
            tr!(
                lang,
                "found {original} stored: returns DuplicateRequest",
                "保存済みの{original}を発見：DuplicateRequest を返す"
            )
        }
        StepAction::CheckMiss => lang
            .t(
                "nothing stored for the key: goes on to charge",
                "キーの記録なし：課金へ進む",
            )
            .to_string(),
        StepAction::Charged(c) => {
            let c = charge_text(lang, c);
            tr!(lang, "charged: {c}", "課金：{c}")
        }
        StepAction::Stored { result, replaced } => {
            let result = charge_text(lang, result);
            match replaced {
                Some(old) => {
                    let old = charge_text(lang, old);
                    tr!(
                        lang,
                        "stored {result}, overwriting {old}",
                        "{result}を保存（{old}を上書き）"
                    )
                }
                None => tr!(lang, "stored {result}", "{result}を保存"),
            }
        }
        StepAction::Idle => lang
            .t(
                "already returned: no code runs",
                "すでに return 済み：実行するコードなし",
            )
            .to_string(),
    }
}

/// The locks a step used, in a sentence ("" when none).
pub fn locks_text(lang: Lang, record: &StepRecord) -> String {
    let mut parts = Vec::new();
    if !record.locks_within.is_empty() {
        let names: Vec<&str> = record.locks_within.iter().map(|l| l.field()).collect();
        let names = names.join(lang.t(", ", "、"));
        parts.push(tr!(
            lang,
            "took and released {names}",
            "{names} を取得して解放"
        ));
    }
    if let Some(l) = record.acquired {
        let name = l.field();
        parts.push(tr!(lang, "took {name} and holds it", "{name} を取得し保持"));
    }
    if let Some(l) = record.released {
        let name = l.field();
        parts.push(tr!(lang, "released {name}", "{name} を解放"));
    }
    parts.join(lang.t("; ", "、"))
}

/// An outcome group's label: "1 success + 2 duplicates", ….
pub fn group_label(lang: Lang, key: OutcomeKey) -> String {
    let counts = [
        (key.successes, "success", "successes", "成功"),
        (key.duplicates, "duplicate", "duplicates", "重複"),
        (key.insufficient, "declined", "declined", "残高不足"),
    ];
    let parts: Vec<String> = counts
        .into_iter()
        .filter(|(n, ..)| *n > 0)
        .map(|(n, one, many, ja)| match lang {
            Lang::En if n == 1 => format!("{n} {one}"),
            Lang::En => format!("{n} {many}"),
            Lang::Ja => format!("{ja} {n}"),
        })
        .collect();
    parts.join(" + ")
}

/// A Japanese comment and its English rendering; the Japanese page's build keeps only the
/// comment (it shows no rendering), so the English words are not in its download.
macro_rules! gloss {
    ($ja:literal, $en:literal) => {
        ($ja, if cfg!(feature = "lang-ja") { "" } else { $en })
    };
}

/// The article's code comments are in Japanese, and the lab shows the code as written. For the
/// English page, each comment line inside a section has an English rendering, shown under it.
const GLOSSES: [(&str, &str); 8] = [
    gloss!(
        "// 既に処理済みならキャッシュを返す",
        "// Already processed? Return the cached result."
    ),
    gloss!("// 本来のビジネスロジック", "// The actual business logic."),
    gloss!("// 結果をキャッシュ", "// Cache the result."),
    gloss!(
        "// ステップ1: 冪等性チェック（別のロック）",
        "// Step 1: idempotency check (its own lock)."
    ),
    gloss!(
        "// <-- ここがTOCTOUウィンドウ。別スレッドがチェックをすり抜ける",
        "// <-- The TOCTOU window: another thread slips past the check here."
    ),
    gloss!(
        "// ステップ2: 決済処理（別のロック）",
        "// Step 2: the payment (its own lock)."
    ),
    gloss!(
        "// ステップ3: 結果キャッシュ（別のロック）",
        "// Step 3: cache the result (its own lock)."
    ),
    gloss!(
        "// チェック + 処理 + キャッシュを単一のクリティカルセクション内で",
        "// Check + process + cache, all in one critical section."
    ),
];

/// The English rendering of a Japanese comment line of a section, if `line` is one.
pub fn english_gloss(line: &str) -> Option<&'static str> {
    let line = line.trim();
    GLOSSES
        .iter()
        .find(|(ja, _)| *ja == line)
        .map(|(_, en)| *en)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::lab::{section, MARKERS};

    #[test]
    fn every_japanese_comment_the_lab_shows_has_an_english_rendering() {
        let mut glossed = 0;
        for marker in MARKERS {
            for line in section(marker).expect("marker exists") {
                let text = line.text.trim();
                if text.starts_with("//") && !text.is_ascii() {
                    let en = english_gloss(text)
                        .unwrap_or_else(|| panic!("line {} has no English: {text}", line.number));
                    assert!(en.starts_with("// ") && en.is_ascii(), "{en}");
                    glossed += 1;
                }
            }
        }
        assert_eq!(
            glossed, 8,
            "the article's sections hold 8 Japanese comments"
        );
        assert_eq!(english_gloss("let x = 1;"), None);
    }

    #[test]
    fn group_labels_count_in_both_languages() {
        let key = OutcomeKey {
            successes: 1,
            duplicates: 2,
            insufficient: 1,
            double_charged: false,
        };
        assert_eq!(
            group_label(Lang::En, key),
            "1 success + 2 duplicates + 1 declined"
        );
        assert_eq!(group_label(Lang::Ja, key), "成功 1 + 重複 2 + 残高不足 1");
    }
}
