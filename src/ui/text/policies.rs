//! Words for what the learner chooses: the services, how a service announces its charges, the
//! faults, and the production service's policies.
//!
//! Each production policy imitates a real system, and its name on the page says which, once.
//! The sources behind those names, for review:
//! - mismatch status: Stripe API v1 answers 400 `idempotency_error`; the IETF draft
//!   draft-ietf-httpapi-idempotency-key-header specifies 422; rocket-rides-atomic (Brandur Leach)
//!   answers 409.
//! - failure caching: Stripe API v1 and the article replay the first result, 500s included; some
//!   payment APIs cache only 2xx results; others do not cache 429 or 5xx results.
//! - in-flight record: Stripe and the IETF draft answer 409 while the first request runs;
//!   rocket-rides locks with `locked_at`; AWS Lambda Powertools' `INPROGRESS` records expire.
//!   Without one, a concurrent duplicate waits for the charge's transaction.
//! - retention: Stripe prunes keys after at least 24 h; AWS Lambda Powertools'
//!   `expires_after_seconds` defaults to 3600 (1 h); some APIs keep keys 7 days.
//!
//! - Stripe API v2 (docs.stripe.com/api/idempotent_requests): "Stripe retries failed or
//!   partially failed work to completion", so a failed first attempt is not replayed: the
//!   success-only policy.
//! - key scope (issue 13): the IETF draft's security section asks for a composite key (the
//!   client's key with client-specific attributes); rocket-rides has a unique (user_id, key).
//! - fingerprint fields: Stripe compares the parameters; the IETF draft allows the whole payload;
//!   Powertools' `payload_validation_jmespath` picks fields (too few replay a real change).
//! - payload check: Powertools skipped validation on its conditional-write path (Python #3781,
//!   TypeScript #2058, Java #2260).
//! - missing key: Stripe's key is optional and Powertools only warns by default; the IETF draft
//!   answers 400; Powertools raises with `raise_on_no_idempotency_key`.
//!
//! The in-flight record and the retention are worded by the sandbox's form, next to their inputs.

use crate::sim::{
    EmitMode, FailureCaching, Fault, FingerprintFields, KeyScope, MismatchStatus, MissingKey,
    PayloadCheck, RetryKind, ServiceKind, WorldConfig,
};
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

/// The production service's name under a failure-caching policy: one that does not cache every
/// result is not Stripe v1's, so its name says whose policy it follows (lesson 7 showed
/// "Stripe-style" beside a success-only cache, in its column and in the service picker).
pub fn production_name(lang: Lang, caching: FailureCaching) -> &'static str {
    match caching {
        FailureCaching::SuccessOnly => lang.t(
            "Production (successes only, as Powertools)",
            "本番型（成功のみ保存、Powertools 風）",
        ),
        FailureCaching::AllButTransient => lang.t(
            "Production (transient failures not cached)",
            "本番型（一時的な失敗は保存しない）",
        ),
        FailureCaching::CacheAll => service_name(lang, ServiceKind::Production),
    }
}

/// A service's name where the run's failure-caching policy is known (its column, the service
/// picker): the production service's says whose policy it follows.
pub fn picker_name(lang: Lang, kind: ServiceKind, caching: FailureCaching) -> &'static str {
    match kind {
        ServiceKind::Production => production_name(lang, caching),
        kind => service_name(lang, kind),
    }
}

/// A column's title: the service, and its event wiring when it has any, so two columns running
/// the same service (an outbox beside a dual write) can be told apart.
pub fn column_name(lang: Lang, cfg: &WorldConfig) -> String {
    let name = picker_name(lang, cfg.service, cfg.policies.failure_caching);
    if cfg.emit == EmitMode::None {
        return name.to_string();
    }
    let consumer = if cfg.consumer_dedupes {
        ""
    } else {
        lang.t(", naive consumer", "、素朴なコンシューマー")
    };
    let sep = super::view::common::ITEM_SEP.get(lang);
    format!("{name}{sep}{}{consumer}", emit_name(lang, cfg.emit))
}

/// One line on how the service works.
pub fn service_blurb(lang: Lang, kind: ServiceKind) -> &'static str {
    match kind {
        ServiceKind::Naive => lang.t(
            "No key: every request charges.",
            "キーなし。リクエストのたびに課金する。",
        ),
        ServiceKind::Idempotent => lang.t(
            "Caches each key's result, failures too, and replays it.",
            "キーごとの結果を失敗も含めてキャッシュし、返し直す。",
        ),
        ServiceKind::TocTou => lang.t(
            "Check, charge and store in three separate critical sections.",
            "確認・課金・保存を3つの別々のクリティカルセクションで行う。",
        ),
        ServiceKind::Atomic => lang.t(
            "Check, charge and store in one critical section (one transaction).",
            "確認・課金・保存を1つのクリティカルセクション（1トランザクション）で行う。",
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
        EmitMode::Outbox => lang.t("transactional outbox", "トランザクショナル・アウトボックス"),
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
        Fault::RequestLost => lang.t("Request lost", "リクエストが消失"),
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
        Fault::ProcessorSlow => lang.t("Slow processor", "決済代行が遅い"),
        Fault::StoreUnreachable => lang.t("Key store unreachable", "キーストアに届かない"),
        Fault::SerializationFailure => lang.t(
            "Serialization failure (transaction aborts)",
            "直列化失敗（トランザクション中断）",
        ),
    }
}

/// A mismatch status: the status, and the real system that answers with it.
pub fn mismatch_name(lang: Lang, m: MismatchStatus) -> &'static str {
    match m {
        // Stripe API v1: 400 `idempotency_error`.
        MismatchStatus::Stripe400 => lang.t("400, as Stripe", "400（Stripe）"),
        // draft-ietf-httpapi-idempotency-key-header: 422 Unprocessable Content.
        MismatchStatus::Ietf422 => lang.t("422, as the IETF draft", "422（IETF ドラフト）"),
        // rocket-rides-atomic, Brandur Leach: 409 Conflict.
        MismatchStatus::RocketRides409 => lang.t("409, as rocket-rides", "409（rocket-rides）"),
    }
}

/// A failure-caching policy: what is stored, and who stores that.
pub fn caching_name(lang: Lang, c: FailureCaching) -> &'static str {
    match c {
        // Stripe API v1 and the article: the first result is replayed, 500s included.
        FailureCaching::CacheAll => lang.t(
            "Cache every result (Stripe API v1)",
            "すべての結果をキャッシュ（Stripe API v1）",
        ),
        FailureCaching::SuccessOnly => lang.t(
            "Cache successes only (2xx; Stripe API v2 finishes failed work on retry)",
            "成功のみキャッシュ（2xx。Stripe API v2 はリトライで失敗した処理を完了）",
        ),
        FailureCaching::AllButTransient => lang.t(
            "Cache all but transient errors (no 429/5xx)",
            "一時的エラー以外をキャッシュ（429/5xx は除く）",
        ),
    }
}

/// What the production service looks a key up by.
pub fn scope_name(lang: Lang, s: KeyScope) -> &'static str {
    match s {
        KeyScope::Account => lang.t(
            "Per account: (account, key) (IETF draft, rocket-rides)",
            "アカウントごと：アカウントとキーの組（IETF ドラフト、rocket-rides）",
        ),
        KeyScope::Global => lang.t(
            "The key alone, whoever sends it",
            "送り手に関係なくキーだけ",
        ),
    }
}

/// Which fields the fingerprint covers.
pub fn fingerprint_name(lang: Lang, f: FingerprintFields) -> &'static str {
    match f {
        FingerprintFields::Chosen => lang.t(
            "Amount and description (Stripe's parameters)",
            "金額と説明（Stripe のパラメーター）",
        ),
        FingerprintFields::WholeBody => lang.t(
            "The whole body, time stamp included",
            "本文全体（時刻も含む）",
        ),
        FingerprintFields::DescriptionOnly => {
            lang.t("The description only (too few)", "説明だけ（少なすぎる）")
        }
    }
}

/// Where the parameters are compared.
pub fn payload_check_name(lang: Lang, c: PayloadCheck) -> &'static str {
    match c {
        PayloadCheck::EveryPath => lang.t("On every path", "すべての経路で"),
        PayloadCheck::ReadPathOnly => lang.t(
            "Only when the record is read (Powertools' bug)",
            "レコードを読むときだけ（Powertools のバグ）",
        ),
    }
}

/// What a request without a key gets.
pub fn missing_key_name(lang: Lang, m: MissingKey) -> &'static str {
    match m {
        MissingKey::RunUnprotected => lang.t(
            "Run it unprotected (Stripe, Powertools' default)",
            "保護なしで実行（Stripe、Powertools の既定）",
        ),
        MissingKey::Reject400 => lang.t(
            "400: a key is required (IETF draft, raise_on_no_idempotency_key)",
            "400：キー必須（IETF ドラフト、raise_on_no_idempotency_key）",
        ),
    }
}

/// A retrying client's policy, as the sandbox offers it.
pub fn retry_name(l: Lang, kind: RetryKind) -> &'static str {
    match kind {
        RetryKind::None => l.t("none", "なし"),
        RetryKind::Immediate => l.t("immediate", "即時"),
        RetryKind::Fixed => l.t("fixed 500 ms", "固定 500 ms"),
        RetryKind::ExponentialJitter => {
            l.t("exponential backoff + jitter", "指数バックオフ＋ジッター")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LANGS: [Lang; 2] = [Lang::En, Lang::Ja];

    #[test]
    fn the_production_service_is_named_stripe_style_only_when_it_caches_as_stripe_does() {
        for lang in LANGS {
            let stripe = production_name(lang, FailureCaching::CacheAll);
            assert!(stripe.contains("Stripe"), "{stripe}");
            let powertools = production_name(lang, FailureCaching::SuccessOnly);
            assert!(powertools.contains("Powertools") && !powertools.contains("Stripe"));
            let transient = production_name(lang, FailureCaching::AllButTransient);
            assert!(!transient.contains("Stripe"), "{transient}");
        }
    }

    #[test]
    fn every_policy_names_what_it_imitates_in_both_languages() {
        for m in MismatchStatus::ALL {
            let system = match m {
                MismatchStatus::Stripe400 => "Stripe",
                MismatchStatus::Ietf422 => "IETF",
                MismatchStatus::RocketRides409 => "rocket-rides",
            };
            for lang in LANGS {
                let name = mismatch_name(lang, m);
                assert!(name.contains(&m.status().to_string()), "{name}");
                assert!(name.contains(system), "{name}");
            }
        }
        for c in FailureCaching::ALL {
            let what = match c {
                FailureCaching::CacheAll => "Stripe",
                FailureCaching::SuccessOnly => "2xx",
                FailureCaching::AllButTransient => "429/5xx",
            };
            for lang in LANGS {
                assert!(caching_name(lang, c).contains(what), "{c:?} in {lang:?}");
            }
            assert_ne!(caching_name(Lang::En, c), caching_name(Lang::Ja, c));
        }
    }
}
