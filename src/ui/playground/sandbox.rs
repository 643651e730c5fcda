//! The sandbox form: send a charge with a key, an amount and a fault; retry with the same key or
//! a new one; send concurrent duplicates; run a retrying client; move time; run the relay; choose
//! services and the production service's policies. Every field is checked against the core's
//! limits before anything is sent, and a bad value only produces a message.

use std::rc::Rc;

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::sim::limits::{
    check_amount, parse_whole, InputError, MAX_ATTEMPTS, MAX_PARALLEL_REQUESTS,
};
use crate::sim::validate_key;
use crate::sim::EmitMode;
use crate::sim::Fault;
use crate::sim::Rng;
use crate::sim::Scenario;
use crate::sim::{mint, KeyFormat};
use crate::sim::{FailureCaching, MismatchStatus};
use crate::sim::{Input, RequestSpec};
use crate::sim::{KeyStrategy, RetryPolicy};
use crate::ui::i18n::Lang;
use crate::ui::text as describe;

/// What the sandbox asks the page to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Append an input to the script.
    Push(Input),
    /// Replace the scenario (services or policies changed); the step is kept.
    Replace(Scenario),
}

/// Props of the sandbox.
#[derive(Properties, PartialEq)]
pub struct SandboxProps {
    /// Page language.
    pub lang: Lang,
    /// The scenario being run.
    pub scenario: Rc<Scenario>,
    /// The key of the last client operation, for "retry with the same key".
    pub last_key: Option<String>,
    /// Where changes go.
    pub on_change: Callback<Change>,
}

const HOUR_MS: u64 = 3_600_000;

fn parse_amount(text: &str) -> Result<i64, InputError> {
    check_amount(parse_whole(text)?)
}

const FAULTS: [Fault; 7] = Fault::ALL;

fn fault_from(v: &str) -> Fault {
    v.parse::<usize>()
        .ok()
        .and_then(|i| FAULTS.get(i).copied())
        .unwrap_or(Fault::None)
}

/// The sandbox form.
#[function_component(Sandbox)]
pub fn sandbox(p: &SandboxProps) -> Html {
    let l = p.lang;
    let key = use_state(String::new);
    let amount = use_state(|| "100".to_string());
    let fault = use_state(|| Fault::None);
    let minted = use_state(|| 0u64);
    let error = use_state(|| None::<String>);
    let parallel = use_state(|| "2".to_string());
    let retry_kind = use_state(|| "fixed".to_string());
    let attempts = use_state(|| "3".to_string());
    let new_key_per_retry = use_state(|| false);
    let deposit = use_state(|| "500".to_string());
    let crash_relay = use_state(|| false);

    // A message appears where the learner can see it, whichever fieldset they used (on a phone
    // the sticky controls would otherwise cover the top of the card).
    let error_ref = use_node_ref();
    {
        let error_ref = error_ref.clone();
        use_effect_with((*error).clone(), move |e| {
            if e.is_some() {
                if let Some(el) = error_ref.cast::<web_sys::Element>() {
                    el.scroll_into_view_with_bool(false);
                }
            }
        });
    }
    let send = {
        let on = p.on_change.clone();
        let error = error.clone();
        move |r: Result<Input, InputError>| match r.and_then(|i| i.validate().map(|_| i)) {
            Ok(i) => {
                error.set(None);
                on.emit(Change::Push(i));
            }
            Err(e) => error.set(Some(describe::input_error(l, &e))),
        }
    };
    let text_input = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            state.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let typed_key = || -> Result<Option<String>, InputError> {
        let k = key.trim().to_string();
        if k.is_empty() {
            Ok(None)
        } else {
            validate_key(&k)?;
            Ok(Some(k))
        }
    };

    // Send, retry with the same key, retry with a new key: one request, three ways to pick its key.
    let request = |pick_key: Rc<dyn Fn() -> Result<Option<String>, InputError>>| {
        let send = send.clone();
        let (amount, fault) = (amount.clone(), fault.clone());
        Callback::from(move |_| {
            send(pick_key().and_then(|key| {
                Ok(Input::Request {
                    key,
                    key_format: KeyFormat::V4,
                    amount: parse_amount(&amount)?,
                    description: "order".into(),
                    fault: *fault,
                })
            }))
        })
    };
    let typed = typed_key();
    let on_send = request(Rc::new(move || typed.clone()));
    // A retry is the last operation again (same amount and description), judged as a retry.
    let retry = |new_key: bool| {
        let send = send.clone();
        let fault = fault.clone();
        Callback::from(move |_| {
            send(Ok(Input::Retry {
                new_key,
                fault: *fault,
            }))
        })
    };
    let on_retry_same = retry(false);
    let on_retry_new = retry(true);
    let on_parallel = {
        let send = send.clone();
        let (amount, parallel) = (amount.clone(), parallel.clone());
        let typed = typed_key();
        let last = p.last_key.clone();
        Callback::from(move |_| {
            let n = parallel.trim().parse::<usize>().unwrap_or(0);
            send(typed.clone().and_then(|key| {
                let a = parse_amount(&amount)?;
                let key = key
                    .or_else(|| last.clone())
                    .unwrap_or_else(|| "same-key".to_string());
                let spec = RequestSpec {
                    key: Some(key),
                    key_format: KeyFormat::V4,
                    amount: a,
                    description: "order".into(),
                    fault: Fault::None,
                };
                Ok(Input::Parallel {
                    requests: vec![spec; n],
                    same_key: true,
                })
            }))
        })
    };
    let on_operation = {
        let send = send.clone();
        let (amount, fault, attempts, retry_kind, nk) = (
            amount.clone(),
            fault.clone(),
            attempts.clone(),
            retry_kind.clone(),
            new_key_per_retry.clone(),
        );
        Callback::from(move |_| {
            let max_attempts = attempts.trim().parse::<u32>().unwrap_or(0);
            let retry = match retry_kind.as_str() {
                "none" => RetryPolicy::None,
                "immediate" => RetryPolicy::Immediate,
                "backoff" => RetryPolicy::ExponentialJitter {
                    base_ms: 200,
                    cap_ms: 5_000,
                },
                _ => RetryPolicy::Fixed { delay_ms: 500 },
            };
            send(parse_amount(&amount).map(|a| Input::Operation {
                amount: a,
                description: "order".into(),
                key_format: KeyFormat::V4,
                key_strategy: if *nk {
                    KeyStrategy::NewPerRetry
                } else {
                    KeyStrategy::Reuse
                },
                retry,
                max_attempts,
                faults: if *fault == Fault::None {
                    vec![]
                } else {
                    vec![*fault]
                },
            }))
        })
    };
    let gen = |format: KeyFormat| {
        let (key, minted) = (key.clone(), minted.clone());
        let seed = p.scenario.seed;
        Callback::from(move |_| {
            // Seeded like the simulation, so the same clicks give the same keys.
            let mut rng = Rng::new(seed ^ 0x5eed_0000_0000_0000 ^ *minted);
            let now = (*minted + 1) * 1000;
            key.set(mint(&mut rng, format, now).to_string());
            minted.set(*minted + 1);
        })
    };
    let advance = |ms: u64| {
        let send = send.clone();
        Callback::from(move |_| send(Ok(Input::AdvanceTime { ms })))
    };
    let on_relay = {
        let send = send.clone();
        let crash = crash_relay.clone();
        Callback::from(move |_| {
            send(Ok(Input::RelayTick {
                crash_after_publish: *crash,
            }))
        })
    };
    let on_deposit = {
        let send = send.clone();
        let deposit = deposit.clone();
        Callback::from(move |_| {
            send(parse_amount(&deposit).map(|amount| Input::Deposit { amount }))
        })
    };

    // Settings replace the scenario: each control applies its value to a copy of it.
    let setting = |apply: fn(&str, &mut Scenario)| {
        let (on, base) = (p.on_change.clone(), p.scenario.clone());
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut s = (*base).clone();
            apply(&value, &mut s);
            on.emit(Change::Replace(s));
        })
    };
    let toggle = |apply: fn(&mut Scenario)| {
        let (on, base) = (p.on_change.clone(), p.scenario.clone());
        Callback::from(move |_: Event| {
            let mut s = (*base).clone();
            apply(&mut s);
            on.emit(Change::Replace(s));
        })
    };
    let pol = p.scenario.policies;
    let on_mismatch = setting(|v, s| {
        s.policies.mismatch = match v {
            "422" => MismatchStatus::Ietf422,
            "409" => MismatchStatus::RocketRides409,
            _ => MismatchStatus::Stripe400,
        }
    });
    let on_caching = setting(|v, s| {
        s.policies.failure_caching = match v {
            "success" => FailureCaching::SuccessOnly,
            "nontransient" => FailureCaching::AllButTransient,
            _ => FailureCaching::CacheAll,
        }
    });
    let on_retention = setting(|v, s| {
        s.policies.retention_ms = v.parse::<u64>().unwrap_or(24).saturating_mul(HOUR_MS)
    });
    let on_emit = setting(|v, s| {
        s.emit = EmitMode::ALL
            .into_iter()
            .find(|m| m.id() == v)
            .unwrap_or_default()
    });
    let on_inflight = toggle(|s| s.policies.in_flight = !s.policies.in_flight);
    let on_dedupe = toggle(|s| s.consumer_dedupes = !s.consumer_dedupes);
    let on_fault = {
        let fault = fault.clone();
        Callback::from(move |e: Event| {
            fault.set(fault_from(
                &e.target_unchecked_into::<HtmlSelectElement>().value(),
            ))
        })
    };
    let retention_h = pol.retention_ms / HOUR_MS;

    html! {
        <section class="sandbox card" aria-labelledby="sb-h" data-testid="sandbox">
            <h2 id="sb-h">{ l.t("Send requests", "要求を送る") }</h2>
            if let Some(e) = (*error).clone() { <p class="field-error" role="alert" data-testid="sandbox-error" ref={error_ref.clone()}>{ e }</p> }
            <fieldset>
                <legend>{ l.t("One charge", "1回の課金") }</legend>
                <label>{ l.t("Idempotency key (empty: the client mints a UUID)", "冪等性キー（空ならクライアントがUUIDを生成）") }
                    <input type="text" value={(*key).clone()} oninput={text_input(&key)} maxlength="300" data-testid="key-input" size="38" /></label>
                <button onclick={gen(KeyFormat::V4)} data-testid="gen-v4">{ l.t("New UUID v4", "UUID v4 を生成") }</button>
                <button onclick={gen(KeyFormat::V7)} data-testid="gen-v7">{ l.t("New UUID v7", "UUID v7 を生成") }</button>
                <p class="note">{ l.t(
                    "v4 is random. v7 puts the time first, so keys created later sort later and a database index on them stays compact.",
                    "v4 はランダム。v7 は先頭に時刻が入るので後に作ったキーほど後ろに並び、データベースのインデックスがまとまる。") }</p>
                <label>{ l.t("Amount", "金額") }<input type="text" inputmode="numeric" value={(*amount).clone()} oninput={text_input(&amount)} size="10" data-testid="amount-input" /></label>
                <label>{ l.t("Fault for this attempt", "この試行の障害") }
                    <select onchange={on_fault} data-testid="fault-select">
                        { for FAULTS.iter().enumerate().map(|(i, f)| html! { <option value={i.to_string()} selected={*f == *fault}>{ describe::fault_name(l, *f) }</option> }) }
                    </select></label>
                <button class="primary" onclick={on_send} data-testid="send">{ l.t("Send", "送信") }</button>
                <button onclick={on_retry_same} data-testid="retry-same" disabled={p.last_key.is_none()}>{ l.t("Retry it with the same key", "同じキーでリトライ") }</button>
                <button onclick={on_retry_new} data-testid="retry-new" disabled={p.last_key.is_none()}>{ l.t("Retry it with a new key", "新しいキーでリトライ") }</button>
                <p class="note" data-testid="last-key">{ match &p.last_key {
                    Some(k) => l.f(format!("A retry resends the last charge (same amount); its key so far: {k}"), format!("リトライは直前の課金（同じ金額）をもう一度送る。これまでのキー：{k}")),
                    None => l.t("Retries resend the last charge; send one first (its key is minted when the first step runs).", "リトライは直前の課金をもう一度送る。まず1回送ってください（キーは最初のステップで生成される）。").to_string(),
                } }</p>
            </fieldset>
            <fieldset>
                <legend>{ l.t("Concurrent duplicates", "同時の重複要求") }</legend>
                <label>{ l.f(format!("Requests at once (2–{MAX_PARALLEL_REQUESTS})"), format!("同時に送る数（2–{MAX_PARALLEL_REQUESTS}）")) }
                    <input type="text" inputmode="numeric" value={(*parallel).clone()} oninput={text_input(&parallel)} size="4" /></label>
                <button onclick={on_parallel} data-testid="send-parallel">{ l.t("Send them with one key", "1つのキーで同時に送る") }</button>
            </fieldset>
            <fieldset>
                <legend>{ l.t("A retrying client", "リトライするクライアント") }</legend>
                <label>{ l.t("Retry policy", "リトライ方針") }
                    <select onchange={{ let r = retry_kind.clone(); Callback::from(move |e: Event| r.set(e.target_unchecked_into::<HtmlSelectElement>().value())) }}>
                        <option value="none" selected={*retry_kind == "none"}>{ l.t("none", "なし") }</option>
                        <option value="immediate" selected={*retry_kind == "immediate"}>{ l.t("immediate", "即時") }</option>
                        <option value="fixed" selected={*retry_kind == "fixed"}>{ l.t("fixed 500 ms", "固定 500 ms") }</option>
                        <option value="backoff" selected={*retry_kind == "backoff"}>{ l.t("exponential backoff + jitter", "指数バックオフ＋ジッター") }</option>
                    </select></label>
                <label>{ l.f(format!("Max attempts (1–{MAX_ATTEMPTS})"), format!("最大試行回数（1–{MAX_ATTEMPTS}）")) }
                    <input type="text" inputmode="numeric" value={(*attempts).clone()} oninput={text_input(&attempts)} size="4" /></label>
                <label class="check"><input type="checkbox" checked={*new_key_per_retry}
                    onchange={{ let n = new_key_per_retry.clone(); Callback::from(move |_| n.set(!*n)) }} />
                    { l.t("New key per retry (the common bug)", "リトライごとに新しいキー（よくあるバグ）") }</label>
                <button onclick={on_operation} data-testid="send-operation">{ l.t("Run the client (fault above on try 1)", "クライアントを実行（上の障害を1回目に）") }</button>
            </fieldset>
            <fieldset>
                <legend>{ l.t("Time, money, relay", "時間・入金・リレー") }</legend>
                <button onclick={advance(60_000)}>{ l.t("+1 min", "+1分") }</button>
                <button onclick={advance(HOUR_MS)}>{ l.t("+1 h", "+1時間") }</button>
                <button onclick={advance(25 * HOUR_MS)} data-testid="advance-25h">{ l.t("+25 h", "+25時間") }</button>
                <label>{ l.t("Deposit", "入金") }<input type="text" inputmode="numeric" value={(*deposit).clone()} oninput={text_input(&deposit)} size="8" /></label>
                <button onclick={on_deposit}>{ l.t("Deposit", "入金する") }</button>
                <label class="check"><input type="checkbox" checked={*crash_relay} onchange={{ let c = crash_relay.clone(); Callback::from(move |_| c.set(!*c)) }} />
                    { l.t("relay crashes after publishing", "リレーが発行後にクラッシュ") }</label>
                <button onclick={on_relay} data-testid="relay-tick">{ l.t("Run the relay", "リレーを動かす") }</button>
            </fieldset>
            <fieldset>
                <legend>{ l.t("Events downstream (every service)", "下流へのイベント（全サービス）") }</legend>
                <label>{ l.t("Events", "イベント") }
                    <select onchange={on_emit}>
                        { for EmitMode::ALL.iter().map(|m| html! {
                            <option value={m.id()} selected={*m == p.scenario.emit}>{ describe::emit_name(l, *m) }</option> }) }
                    </select></label>
                <label class="check"><input type="checkbox" checked={p.scenario.consumer_dedupes} onchange={on_dedupe} />
                    { l.t("Consumer deduplicates by event id (inbox)", "コンシューマがイベントIDで重複排除（受信記録）") }</label>
            </fieldset>
            <fieldset>
                <legend>{ l.t("Production service policies", "本番型サービスの方針") }</legend>
                <label>{ l.t("Key retention (Stripe: at least 24 h; Powertools: 1 h)", "キーの保持期間（Stripe：24時間以上、Powertools：1時間）") }
                    <select onchange={on_retention}>
                        { for [1u64, 24, 168].iter().map(|h| html! { <option value={h.to_string()} selected={*h == retention_h}>{ l.f(format!("{h} h"), format!("{h} 時間")) }</option> }) }
                    </select></label>
                <label>{ l.t("Same key, different parameters", "同じキーで違うパラメータ") }
                    <select onchange={on_mismatch}>
                        { for [MismatchStatus::Stripe400, MismatchStatus::Ietf422, MismatchStatus::RocketRides409].iter().map(|m| html! {
                            <option value={m.status().to_string()} selected={*m == pol.mismatch}>{ describe::mismatch_name(l, *m) }</option> }) }
                    </select></label>
                <label>{ l.t("Failure caching", "失敗のキャッシュ") }
                    <select onchange={on_caching}>
                        <option value="all" selected={pol.failure_caching == FailureCaching::CacheAll}>{ describe::caching_name(l, FailureCaching::CacheAll) }</option>
                        <option value="success" selected={pol.failure_caching == FailureCaching::SuccessOnly}>{ describe::caching_name(l, FailureCaching::SuccessOnly) }</option>
                        <option value="nontransient" selected={pol.failure_caching == FailureCaching::AllButTransient}>{ describe::caching_name(l, FailureCaching::AllButTransient) }</option>
                    </select></label>
                <label class="check"><input type="checkbox" checked={pol.in_flight} onchange={on_inflight} />
                    { l.t("In-flight record: a concurrent duplicate gets 409 (Stripe, IETF draft, rocket-rides)", "処理中レコード：同時の重複には409（Stripe、IETFドラフト、rocket-rides）") }</label>

            </fieldset>
        </section>
    }
}
