//! Words for the property-check page: the properties and what each claims, how a case broke
//! one, a case's inputs one by one, what a shrink step tried and what came of it, and the errors
//! of its settings.

use crate::sim::limits::InputError;
use crate::sim::properties::{Breach, Property, ShrinkEdit, ShrinkVerdict};
use crate::sim::{Fault, Input};
use crate::ui::i18n::{tr, Lang};

use super::{fault_name, input_kind, money};

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
            "記事の idempotent_retry_never_changes_balance：初期残高 1,000〜9,999、金額 1〜499、同じキーでのリトライ 1〜49回。キーへの最初の応答の後、残高は変わらず、課金は高々1回（operation_count() ≤ 1）。ここではリトライがリクエストや応答の消失、クラッシュ、同時に届く重複にも出会う。",
        ),
        Property::DistinctKeys => lang.t(
            "The article's unique_keys_process_independently: 1–19 keys, an amount of 1–99 and a starting balance of keys × amount + 1,000; every key is charged exactly once and the balance drops by each key's amount. Here a key may first be lost, lose its reply or arrive twice at once before one clean attempt.",
            "記事の unique_keys_process_independently：キー 1〜19個、金額 1〜99、初期残高はキー数 × 金額 + 1,000。どのキーもちょうど1回課金され、残高はキーごとの金額だけ減る。ここでは各キーが、最後のきれいな試行の前に、消失したり応答を失ったり同時に2回届いたりする。",
        ),
        Property::OneChargePerKey => lang.t(
            "Ours: 1–16 inputs over 1–4 keys in any order — charges with every fault, the same key sent two or three times at once, deposits — from a starting balance of 0–9,999, low enough for charges to be refused; no key is ever charged twice.",
            "独自のプロパティ：1〜4個のキーに対する 1〜16件の入力を任意の順で送る（あらゆる障害つきの課金、同じキーを2〜3件同時に送るリクエスト、入金）。初期残高は 0〜9,999 で、課金が断られるほど低いこともある。どのキーも2回課金されない。",
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
            "「{key}」が {charges}回課金された（2回目はステップ {step}）。このプロパティが許すのは高々1回（operation_count() ≤ 1）。"
        ),
        Breach::NotChargedOnce {
            key,
            step: Some(step),
            charges,
        } => tr!(
            lang,
            "“{key}” was charged {charges} times (the second at step {step}); each distinct key must be charged exactly once.",
            "「{key}」が {charges}回課金された（2回目はステップ {step}）。異なるキーはそれぞれちょうど1回課金されなければならない。"
        ),
        Breach::NotChargedOnce { key, charges, .. } => tr!(
            lang,
            "“{key}” was charged {charges} times, though its last attempt went through cleanly; each distinct key must be charged exactly once.",
            "「{key}」は最後の試行が問題なく届いたのに {charges}回しか課金されていない。異なるキーはそれぞれちょうど1回課金されなければならない。"
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
                "残高は {expected}（初期残高から {keys}個のキーの金額を1回ずつ引いた額）ではなく {actual} で終わった。"
            )
        }
        Breach::ChargedTwice { key, step, charges } => tr!(
            lang,
            "“{key}” was charged {charges} times; the second charge was at step {step}.",
            "「{key}」が {charges}回課金された。2回目の課金はステップ {step}。"
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
                "{k}で {a} の課金を {n}件同時に送信"
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

/// What a shrink step tried, as a sentence (inputs and requests numbered from 1, as the list
/// of the case numbers them).
pub fn edit_text(lang: Lang, edit: &ShrinkEdit) -> String {
    match edit {
        ShrinkEdit::Remove { start, end } if end - start == 1 => {
            let i = start + 1;
            tr!(lang, "Remove input {i}.", "入力 {i} を削除する。")
        }
        ShrinkEdit::Remove { start, end } => {
            let i = start + 1;
            tr!(
                lang,
                "Remove inputs {i}–{end}.",
                "入力 {i}〜{end} を削除する。"
            )
        }
        ShrinkEdit::RemoveKey { key } => tr!(
            lang,
            "Remove every input with key “{key}”.",
            "キー「{key}」の入力をすべて削除する。"
        ),
        ShrinkEdit::Split { input, requests } => {
            let (i, n, m) = (input + 1, requests, requests.saturating_sub(1));
            if *requests <= 2 {
                tr!(
                    lang,
                    "Input {i}: the {n} charges sent at once become one charge.",
                    "入力 {i}：同時に送る {n}件の課金を1件にする。"
                )
            } else {
                tr!(
                    lang,
                    "Input {i}: {n} charges sent at once become {m}.",
                    "入力 {i}：同時に送る課金を {n}件から {m}件にする。"
                )
            }
        }
        ShrinkEdit::ClearFault {
            input,
            request,
            fault,
        } => {
            let (i, f) = (input + 1, fault_name(lang, *fault));
            match request {
                None => tr!(
                    lang,
                    "Input {i} without its fault ({f}).",
                    "入力 {i} から障害（{f}）を外す。"
                ),
                Some(j) => {
                    let j = j + 1;
                    tr!(
                        lang,
                        "Input {i}, request {j}, without its fault ({f}).",
                        "入力 {i} のリクエスト {j} から障害（{f}）を外す。"
                    )
                }
            }
        }
        _ => value_edit_text(lang, edit),
    }
}

/// What a shrink step that made a value smaller tried (see [`edit_text`]).
fn value_edit_text(lang: Lang, edit: &ShrinkEdit) -> String {
    match edit {
        ShrinkEdit::Amount { key, from, to } => {
            let (from, to) = (money(*from), money(*to));
            tr!(
                lang,
                "Charge {to} instead of {from} with key “{key}”.",
                "キー「{key}」の課金額を {from} から {to} にする。"
            )
        }
        ShrinkEdit::Deposit { input, from, to } => {
            let (i, from, to) = (input + 1, money(*from), money(*to));
            tr!(
                lang,
                "Input {i}: deposit {to} instead of {from}.",
                "入力 {i}：入金額を {from} から {to} にする。"
            )
        }
        ShrinkEdit::Balance { from, to } => {
            let (from, to) = (money(*from), money(*to));
            tr!(
                lang,
                "Start with a balance of {to} instead of {from}.",
                "初期残高を {from} から {to} にする。"
            )
        }
        // The other edits remove or split: `edit_text` words them.
        _ => String::new(),
    }
}

/// What came of a shrink step's variant: still failing (kept), holding or refused (dropped).
pub fn verdict_text(lang: Lang, verdict: &ShrinkVerdict) -> String {
    match verdict {
        ShrinkVerdict::Fails(_) => lang
            .t(
                "✕ Still fails: kept. It is the smallest failing case so far, and the next step starts from it.",
                "✕ まだ失敗する：採用。これがここまでで最小の失敗ケースになり、次のステップはここから始まる。",
            )
            .to_string(),
        ShrinkVerdict::Holds => lang
            .t(
                "✓ The property held: dropped. The next step tries another edit on the case before.",
                "✓ プロパティが成立した：不採用。次のステップは、元のケースに別の編集を試す。",
            )
            .to_string(),
        ShrinkVerdict::Refused(e) => {
            let why = super::input_error(lang, e);
            tr!(
                lang,
                "The limits refuse this variant, so it is dropped: {why}",
                "この変種は上限に収まらないので不採用：{why}"
            )
        }
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

    #[test]
    fn every_shrink_edit_has_words_in_both_languages() {
        use crate::sim::properties::ShrinkEdit as E;
        let edits = [
            (E::Remove { start: 2, end: 3 }, "Remove input 3."),
            (E::Remove { start: 0, end: 13 }, "Remove inputs 1–13."),
            (
                E::RemoveKey {
                    key: "key-1".into(),
                },
                "Remove every input with key “key-1”.",
            ),
            (
                E::Split {
                    input: 0,
                    requests: 2,
                },
                "Input 1: the 2 charges sent at once become one charge.",
            ),
            (
                E::Split {
                    input: 4,
                    requests: 3,
                },
                "Input 5: 3 charges sent at once become 2.",
            ),
            (
                E::ClearFault {
                    input: 1,
                    request: None,
                    fault: Fault::RequestLost,
                },
                "Input 2 without its fault (Request lost).",
            ),
            (
                E::ClearFault {
                    input: 1,
                    request: Some(0),
                    fault: Fault::ResponseLost,
                },
                "Input 2, request 1, without its fault",
            ),
            (
                E::Amount {
                    key: "test-key".into(),
                    from: 250,
                    to: 1,
                },
                "Charge 1 instead of 250 with key “test-key”.",
            ),
            (
                E::Deposit {
                    input: 3,
                    from: 1200,
                    to: 600,
                },
                "Input 4: deposit 600 instead of 1,200.",
            ),
            (
                E::Balance {
                    from: 5000,
                    to: 1000,
                },
                "Start with a balance of 1,000 instead of 5,000.",
            ),
        ];
        for (edit, en) in edits {
            let (e, j) = (edit_text(Lang::En, &edit), edit_text(Lang::Ja, &edit));
            assert!(e.starts_with(en), "{e}");
            assert!(!j.is_empty() && j != e && j.ends_with('。'), "{j}");
        }
    }

    #[test]
    fn every_shrink_verdict_has_words_in_both_languages() {
        use crate::sim::properties::ShrinkVerdict as V;
        let breach = Breach::ChargedTwice {
            key: "k".into(),
            step: 5,
            charges: 2,
        };
        let refused = InputError::TraceFull { max: 1 };
        for v in [V::Fails(breach), V::Holds, V::Refused(refused)] {
            assert_ne!(verdict_text(Lang::En, &v), verdict_text(Lang::Ja, &v));
        }
    }
}
