//! Bilingual wording shared by the lab's components: step names, results, outcome groups. Kept in
//! one place so a lane, the timeline and the explorer describe the same thing the same way.

use crate::sim::lab::{ChargeOutcome, LabResult, Model, OutcomeKey, StepAction, StepRecord};
use crate::ui::i18n::Lang;

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
            "TOCTOU: ステップごとのロック（TocTouVulnerableService）",
        ),
        Model::Atomic => lang.t(
            "Atomic: one lock around everything (AtomicIdempotentService)",
            "アトミック: 全体を1つのロックで（AtomicIdempotentService）",
        ),
        Model::Unlocked => lang.t(
            "No lock: IdempotentPaymentService shared by threads",
            "ロックなし: スレッド間で共有したIdempotentPaymentService",
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

/// A number with thousands separators, for reading (test hooks show plain integers instead).
pub fn grouped(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A stored or computed charge outcome, in the article's `PaymentResult` names.
pub fn charge_text(lang: Lang, c: ChargeOutcome) -> String {
    match c {
        ChargeOutcome::Success { balance } => lang.f(
            format!("Success (balance {balance})"),
            format!("Success（残高 {balance}）"),
        ),
        ChargeOutcome::InsufficientFunds { balance } => lang.f(
            format!("InsufficientFunds (balance {balance})"),
            format!("InsufficientFunds（残高 {balance}）"),
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
            lang.f(
                format!("DuplicateRequest (replays {original})"),
                format!("DuplicateRequest（{original} を再送）"),
            )
        }
    }
}

/// What one step did, in a sentence.
pub fn action_text(lang: Lang, action: StepAction) -> String {
    match action {
        StepAction::CheckHit { original } => {
            let original = charge_text(lang, original);
            lang.f(
                format!("found {original} stored: returns DuplicateRequest"),
                format!("保存済みの {original} を発見: DuplicateRequest を返す"),
            )
        }
        StepAction::CheckMiss => lang
            .t(
                "nothing stored for the key: goes on to charge",
                "キーの記録なし: 課金へ進む",
            )
            .to_string(),
        StepAction::Charged(c) => {
            let c = charge_text(lang, c);
            lang.f(format!("charged: {c}"), format!("課金: {c}"))
        }
        StepAction::Stored { result, replaced } => {
            let result = charge_text(lang, result);
            match replaced {
                Some(old) => {
                    let old = charge_text(lang, old);
                    lang.f(
                        format!("stored {result}, overwriting {old}"),
                        format!("{result} を保存（{old} を上書き）"),
                    )
                }
                None => lang.f(format!("stored {result}"), format!("{result} を保存")),
            }
        }
        StepAction::Idle => lang
            .t(
                "already returned: no code runs",
                "すでに return 済み: 実行するコードなし",
            )
            .to_string(),
    }
}

/// The locks a step used, in a sentence ("" when none).
pub fn locks_text(lang: Lang, record: &StepRecord) -> String {
    let mut parts = Vec::new();
    if !record.locks_within.is_empty() {
        let names: Vec<&str> = record.locks_within.iter().map(|l| l.field()).collect();
        let names = names.join(", ");
        parts.push(lang.f(
            format!("took and released {names}"),
            format!("{names} を取得して解放"),
        ));
    }
    if let Some(l) = record.acquired {
        let name = l.field();
        parts.push(lang.f(
            format!("took {name} and holds it"),
            format!("{name} を取得し保持"),
        ));
    }
    if let Some(l) = record.released {
        let name = l.field();
        parts.push(lang.f(format!("released {name}"), format!("{name} を解放")));
    }
    parts.join("; ")
}

/// An outcome group's label: "1 success + 2 duplicates", ….
pub fn group_label(lang: Lang, key: OutcomeKey) -> String {
    let mut en = Vec::new();
    let mut ja = Vec::new();
    let plural = |n: u8, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    if key.successes > 0 {
        en.push(plural(key.successes, "success", "successes"));
        ja.push(format!("成功 {}", key.successes));
    }
    if key.duplicates > 0 {
        en.push(plural(key.duplicates, "duplicate", "duplicates"));
        ja.push(format!("重複 {}", key.duplicates));
    }
    if key.insufficient > 0 {
        en.push(plural(key.insufficient, "declined", "declined"));
        ja.push(format!("残高不足 {}", key.insufficient));
    }
    lang.f(en.join(" + "), ja.join(" + "))
}
