//! Words for what the learner chooses: the services, how a service announces its charges, the
//! faults, and the production service's policies.

use crate::sim::{EmitMode, FailureCaching, Fault, MismatchStatus, ServiceKind, WorldConfig};
use crate::ui::i18n::Lang;

/// The service's display name.
pub fn service_name(lang: Lang, kind: ServiceKind) -> &'static str {
    match kind {
        ServiceKind::Naive => lang.t("Naive", "素朴"),
        ServiceKind::Idempotent => lang.t("Idempotent", "冪等"),
        ServiceKind::TocTou => lang.t("TOCTOU-vulnerable", "TOCTOU脆弱"),
        ServiceKind::Atomic => lang.t("Atomic", "アトミック"),
        ServiceKind::SplitStore => lang.t("Keys in a separate store", "キーを別ストアに保存"),
        ServiceKind::Production => lang.t("Production (Stripe-style)", "本番型（Stripe風）"),
    }
}

/// A column's title: the service, and its event wiring when it has any, so two columns running
/// the same service (an outbox beside a dual write) can be told apart.
pub fn column_name(lang: Lang, cfg: &WorldConfig) -> String {
    let name = service_name(lang, cfg.service);
    if cfg.emit == EmitMode::None {
        return name.to_string();
    }
    let consumer = if cfg.consumer_dedupes {
        ""
    } else {
        lang.t(", naive consumer", "、素朴なコンシューマ")
    };
    format!("{name} · {}{consumer}", emit_name(lang, cfg.emit))
}

/// One line on how the service works.
pub fn service_blurb(lang: Lang, kind: ServiceKind) -> &'static str {
    match kind {
        ServiceKind::Naive => lang.t(
            "No key: every request charges.",
            "キーなし。要求のたびに課金する。",
        ),
        ServiceKind::Idempotent => lang.t(
            "Caches each key's result, failures too, and replays it.",
            "キーごとの結果を失敗も含めてキャッシュし、返し直す。",
        ),
        ServiceKind::TocTou => lang.t(
            "Check, charge and store in three separate critical sections.",
            "チェック・課金・保存を3つの別々のクリティカルセクションで行う。",
        ),
        ServiceKind::Atomic => lang.t(
            "Check, charge and store in one critical section (one transaction).",
            "チェック・課金・保存を1つのクリティカルセクション（1トランザクション）で行う。",
        ),
        ServiceKind::SplitStore => lang.t(
            "Commits the charge, then writes the key to a separate cache.",
            "課金をコミットしてから、別のキャッシュにキーを書く。",
        ),
        ServiceKind::Production => lang.t(
            "In-flight record, fingerprint, expiry and failure-caching policies.",
            "処理中レコード、フィンガープリント、有効期限、失敗キャッシュの方針を持つ。",
        ),
    }
}

/// How a service announces charges downstream.
pub fn emit_name(lang: Lang, emit: EmitMode) -> &'static str {
    match emit {
        EmitMode::None => lang.t("no events", "イベントなし"),
        EmitMode::Outbox => lang.t("transactional outbox", "トランザクショナル outbox"),
        EmitMode::DualWriteCommitThenPublish => lang.t(
            "dual write: commit, then publish",
            "二重書き込み：コミット後に発行",
        ),
        EmitMode::DualWritePublishThenCommit => lang.t(
            "dual write: publish, then commit",
            "二重書き込み：発行後にコミット",
        ),
    }
}

/// A fault's name.
pub fn fault_name(lang: Lang, f: Fault) -> &'static str {
    match f {
        Fault::None => lang.t("No fault", "障害なし"),
        Fault::RequestLost => lang.t("Request lost", "要求が消失"),
        Fault::ResponseLost => lang.t("Response lost", "応答が消失"),
        Fault::CrashBeforeCharge => lang.t("Crash before the charge", "課金前にクラッシュ"),
        Fault::CrashAfterChargeBeforeRecord => lang.t(
            "Crash after the charge, before the key is recorded",
            "課金後・キー記録前にクラッシュ",
        ),
        Fault::CrashAfterCommitBeforeReply => lang.t(
            "Crash after commit, before the reply",
            "コミット後・応答前にクラッシュ",
        ),
        Fault::ProcessorError => lang.t(
            "Processor error (transient 503)",
            "決済処理エラー（一時的な503）",
        ),
    }
}

/// The real system a mismatch status imitates, localized.
pub fn mismatch_name(lang: Lang, m: MismatchStatus) -> &'static str {
    match m {
        MismatchStatus::Stripe400 => lang.t("400, as Stripe", "400（Stripe）"),
        MismatchStatus::Ietf422 => lang.t("422, as the IETF draft", "422（IETF ドラフト）"),
        MismatchStatus::RocketRides409 => lang.t("409, as rocket-rides", "409（rocket-rides）"),
    }
}

/// The real system a failure-caching policy imitates, localized.
pub fn caching_name(lang: Lang, c: FailureCaching) -> &'static str {
    match c {
        FailureCaching::CacheAll => lang.t(
            "Cache every result (the article, Stripe)",
            "すべての結果をキャッシュ（記事、Stripe）",
        ),
        FailureCaching::SuccessOnly => lang.t(
            "Cache successes only (APIs caching only 2xx)",
            "成功のみキャッシュ（2xx だけをキャッシュする API）",
        ),
        FailureCaching::AllButTransient => lang.t(
            "Cache all but transient errors (no 429/5xx)",
            "一時的エラー以外をキャッシュ（429/5xx は除く）",
        ),
    }
}
