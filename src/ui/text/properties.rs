//! Words for the property-check page: the properties and what each claims, how a case broke
//! one, a case's inputs one by one, and the errors of its settings.

use crate::sim::limits::InputError;
use crate::sim::properties::{Breach, Property};
use crate::sim::{Fault, Input};
use crate::ui::i18n::{tr, Lang};

use super::{fault_name, grouped, input_kind};

/// An amount or balance with thousands separators.
pub fn money(n: i64) -> String {
    let digits = grouped(u128::from(n.unsigned_abs()));
    if n < 0 {
        format!("−{digits}")
    } else {
        digits
    }
}

/// A property's name.
pub fn property_name(lang: Lang, p: Property) -> &'static str {
    match p {
        Property::Replay => lang.t(
            "Retries with the same key never change the balance",
            "同じキーのリトライは残高を変えない",
        ),
        Property::DistinctKeys => lang.t(
            "N distinct keys charge N times",
            "N 個の異なるキーは N 回課金する",
        ),
        Property::OneChargePerKey => {
            lang.t("At most one charge per key", "キーごとの課金は高々1回")
        }
    }
}

/// What a property claims and where it comes from.
pub fn property_claim(lang: Lang, p: Property) -> &'static str {
    match p {
        Property::Replay => lang.t(
            "The article's idempotent_retry_never_changes_balance: a starting balance of 1,000–9,999, an amount of 1–499 and 1–49 retries with the same key; after the key's first answer the balance stays where it was, and the key is charged at most once (operation_count() ≤ 1). Here the retries also meet lost requests and replies, crashes and concurrent duplicates.",
            "記事の idempotent_retry_never_changes_balance：初期残高 1,000〜9,999、金額 1〜499、同じキーでのリトライ 1〜49 回。キーへの最初の応答の後、残高は変わらず、課金は高々1回（operation_count() ≤ 1）。ここではリトライがリクエストや応答の消失、クラッシュ、同時に届く重複にも出会う。",
        ),
        Property::DistinctKeys => lang.t(
            "The article's unique_keys_process_independently: 1–19 keys, an amount of 1–99 and a starting balance of keys × amount + 1,000; every key is charged exactly once and the balance drops by each key's amount. Here a key may first be lost, lose its reply or arrive twice at once before one clean attempt.",
            "記事の unique_keys_process_independently：キー 1〜19 個、金額 1〜99、初期残高はキー数 × 金額 + 1,000。どのキーもちょうど1回課金され、残高はキーごとの金額だけ減る。ここでは各キーが、最後のきれいな試行の前に、消失したり応答を失ったり同時に2回届いたりする。",
        ),
        Property::OneChargePerKey => lang.t(
            "Ours: 1–16 inputs over 1–4 keys in any order — charges with every fault, the same key sent two or three times at once, deposits — from a starting balance of 0–9,999, low enough for charges to be refused; no key is ever charged twice.",
            "独自のプロパティ：1〜4 個のキーに対する 1〜16 件の入力を任意の順で送る（あらゆる障害つきの課金、同じキーを2〜3件同時に送るリクエスト、入金）。初期残高は 0〜9,999 で、課金が断られるほど低いこともある。どのキーも2回課金されない。",
        ),
    }
}

/// How a case broke its property.
pub fn breach_text(lang: Lang, b: &Breach) -> String {
    match b {
        Breach::BalanceMoved {
            key,
            answered_at,
            step,
            before,
            after,
        } => {
            let (before, after) = (money(*before), money(*after));
            tr!(
                lang,
                "After the first answer for “{key}” (step {answered_at}) the balance was {before}; a retry with the same key charged again at step {step}, and the run ends at {after}.",
                "「{key}」への最初の応答（ステップ {answered_at}）の時点で残高は {before} だった。同じキーのリトライがステップ {step} で再び課金し、最後は {after} になった。"
            )
        }
        Breach::OperationCount { key, step, charges } => tr!(
            lang,
            "“{key}” was charged {charges} times (the second at step {step}); the property allows at most one (operation_count() ≤ 1).",
            "「{key}」が {charges} 回課金された（2回目はステップ {step}）。このプロパティが許すのは高々1回（operation_count() ≤ 1）。"
        ),
        Breach::NotChargedOnce {
            key,
            step: Some(step),
            charges,
        } => tr!(
            lang,
            "“{key}” was charged {charges} times (the second at step {step}); each distinct key must be charged exactly once.",
            "「{key}」が {charges} 回課金された（2回目はステップ {step}）。異なるキーはそれぞれちょうど1回課金されなければならない。"
        ),
        Breach::NotChargedOnce { key, charges, .. } => tr!(
            lang,
            "“{key}” was charged {charges} times, though its last attempt went through cleanly; each distinct key must be charged exactly once.",
            "「{key}」は最後の試行が問題なく届いたのに {charges} 回しか課金されていない。異なるキーはそれぞれちょうど1回課金されなければならない。"
        ),
        Breach::BalanceOff {
            keys,
            expected,
            actual,
        } => {
            let (expected, actual) = (money(*expected), money(*actual));
            tr!(
                lang,
                "The balance ends at {actual}, not {expected} (the start less each of the {keys} keys' amounts once).",
                "残高は {expected}（初期残高から {keys} 個のキーの金額を1回ずつ引いた額）ではなく {actual} で終わった。"
            )
        }
        Breach::ChargedTwice { key, step, charges } => tr!(
            lang,
            "“{key}” was charged {charges} times; the second charge was at step {step}.",
            "「{key}」が {charges} 回課金された。2回目の課金はステップ {step}。"
        ),
    }
}

fn key_words(lang: Lang, key: &Option<String>) -> String {
    match key {
        Some(k) => tr!(lang, "key “{k}”", "キー「{k}」"),
        None => lang.t("a new key", "新しいキー").to_string(),
    }
}

/// One input of a case, in words.
pub fn input_text(lang: Lang, input: &Input) -> String {
    match input {
        Input::Request {
            key, amount, fault, ..
        } => {
            let (k, a) = (key_words(lang, key), money(*amount));
            let base = tr!(lang, "Charge {a} with {k}", "{k}で {a} を課金");
            match fault {
                Fault::None => base,
                f => format!("{base} — {}", fault_name(lang, *f)),
            }
        }
        Input::Parallel { requests, .. } => {
            let n = requests.len();
            let first = requests.first();
            let k = key_words(lang, &first.and_then(|r| r.key.clone()));
            let a = money(first.map_or(0, |r| r.amount));
            let base = tr!(
                lang,
                "{n} charges of {a} with {k}, sent at once",
                "{k}で {a} の課金を {n} 件同時に送信"
            );
            let faults: Vec<String> = requests
                .iter()
                .enumerate()
                .filter(|(_, r)| r.fault != Fault::None)
                .map(|(i, r)| {
                    let (i, f) = (i + 1, fault_name(lang, r.fault));
                    tr!(lang, "request {i}: {f}", "リクエスト {i}：{f}")
                })
                .collect();
            if faults.is_empty() {
                base
            } else {
                format!("{base} — {}", faults.join(lang.t("; ", "、")))
            }
        }
        Input::Deposit { amount } => {
            let a = money(*amount);
            tr!(lang, "Deposit {a}", "{a} を入金")
        }
        other => input_kind(lang, other).to_string(),
    }
}

/// A setting of the property page that is out of its limits (the field and its range are
/// named by the same words as every typed number's).
pub fn setting_error(lang: Lang, e: &InputError) -> String {
    super::input_error(lang, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_errors_name_the_number_typed_and_the_limit() {
        use crate::sim::properties::{parse_cases, parse_seed};
        let e = parse_cases("-1").unwrap_err();
        let t = setting_error(Lang::En, &e);
        assert!(t.contains("Cases") && t.contains("10,000"), "{t}");
        let e = parse_seed("9007199254740992").unwrap_err();
        assert!(setting_error(Lang::En, &e).contains("9,007,199,254,740,991"));
        assert!(!setting_error(Lang::Ja, &e).is_empty());
        assert_eq!(money(-1500), "−1,500");
    }
}
