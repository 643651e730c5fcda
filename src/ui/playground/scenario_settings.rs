//! The sandbox's settings of the whole scenario: the events every service sends downstream, and
//! the production service's policies. A change re-runs the same inputs with the new settings.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::sim::{
    EmitMode, FailureCaching, FingerprintFields, KeyScope, MismatchStatus, MissingKey,
    PayloadCheck, Scenario,
};
use crate::ui::i18n::{tr, Lang};
use crate::ui::text;

use super::sandbox::Change;
use super::sandbox_form::{by_id, HOUR_MS};

/// What [`scenario_settings`] draws.
#[derive(PartialEq)]
pub struct ScenarioSettingsProps {
    /// Page language.
    pub lang: Lang,
    /// The scenario being run.
    pub scenario: Rc<Scenario>,
    /// Where the changed scenario goes.
    pub on_change: Callback<Change>,
}

/// One labelled select: (value, words, selected) per option. Not generic, so the four request
/// policies share one copy of it in the wasm.
fn select(
    label: &str,
    testid: &'static str,
    options: Vec<(&'static str, &'static str, bool)>,
    on: Callback<Event>,
) -> Html {
    html! {
        <label>{ label }
            <select onchange={on} data-testid={testid}>
                { for options.into_iter().map(|(v, words, selected)| html! { <option value={v} selected={selected}>{ words }</option> }) }
            </select></label>
    }
}

/// The events and production-policy fieldsets.
pub fn scenario_settings(p: &ScenarioSettingsProps) -> Html {
    let l = p.lang;
    // Each control applies its value to a copy of the scenario; a value it does not know changes
    // nothing.
    let setting = |apply: fn(&mut Scenario, &str) -> Option<()>| {
        let (on, base) = (p.on_change.clone(), p.scenario.clone());
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            let mut s = (*base).clone();
            if apply(&mut s, &value).is_some() {
                on.emit(Change::Replace(s));
            }
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
    let on_emit = setting(|s, v| by_id(EmitMode::ALL, EmitMode::id, v).map(|m| s.emit = m));
    let on_dedupe = toggle(|s| s.consumer_dedupes = !s.consumer_dedupes);
    let on_retention = setting(|s, v| {
        let hours = v.parse::<u64>().ok()?;
        s.policies.retention_ms = hours.saturating_mul(HOUR_MS);
        Some(())
    });
    let on_mismatch = setting(|s, v| {
        by_id(MismatchStatus::ALL, MismatchStatus::id, v).map(|m| s.policies.mismatch = m)
    });
    let on_caching = setting(|s, v| {
        by_id(FailureCaching::ALL, FailureCaching::id, v).map(|c| s.policies.failure_caching = c)
    });
    let on_inflight = toggle(|s| s.policies.in_flight = !s.policies.in_flight);
    let pol = p.scenario.policies;
    let retention_h = pol.retention_ms / HOUR_MS;
    // Issue 13: who sends what.
    let req = p.scenario.requests;
    let on_scope =
        setting(|s, v| by_id(KeyScope::ALL, KeyScope::id, v).map(|x| s.requests.scope = x));
    let on_fingerprint = setting(|s, v| {
        by_id(FingerprintFields::ALL, FingerprintFields::id, v).map(|x| s.requests.fingerprint = x)
    });
    let on_payload = setting(|s, v| {
        by_id(PayloadCheck::ALL, PayloadCheck::id, v).map(|x| s.requests.payload_check = x)
    });
    let on_missing = setting(|s, v| {
        by_id(MissingKey::ALL, MissingKey::id, v).map(|x| s.requests.missing_key = x)
    });
    let scopes = KeyScope::ALL.map(|x| (x.id(), text::scope_name(l, x), x == req.scope));
    let prints = FingerprintFields::ALL
        .map(|x| (x.id(), text::fingerprint_name(l, x), x == req.fingerprint));
    let checks = PayloadCheck::ALL.map(|x| {
        (
            x.id(),
            text::payload_check_name(l, x),
            x == req.payload_check,
        )
    });
    let missing =
        MissingKey::ALL.map(|x| (x.id(), text::missing_key_name(l, x), x == req.missing_key));

    html! { <>
        <fieldset>
            <legend>{ l.t("Events downstream (every service)", "下流へのイベント（全サービス）") }</legend>
            <label>{ l.t("Events", "イベント") }
                <select onchange={on_emit}>
                    { for EmitMode::ALL.iter().map(|m| html! {
                        <option value={m.id()} selected={*m == p.scenario.emit}>{ text::emit_name(l, *m) }</option> }) }
                </select></label>
            <label class="check"><input type="checkbox" checked={p.scenario.consumer_dedupes} onchange={on_dedupe} />
                { l.t("Consumer deduplicates by event id (inbox)", "コンシューマがイベントIDで重複排除（受信箱）") }</label>
        </fieldset>
        <fieldset>
            <legend>{ l.t("Production service policies", "本番型サービスの方針") }</legend>
            <label>{ l.t("Key retention (Stripe: at least 24 h; Powertools: 1 h)", "キーの保持期間（Stripe：24時間以上、Powertools：1時間）") }
                <select onchange={on_retention}>
                    { for [1u64, 24, 168].iter().map(|h| html! { <option value={h.to_string()} selected={*h == retention_h}>{ tr!(l, "{h} h", "{h} 時間") }</option> }) }
                </select></label>
            <label>{ l.t("Same key, different parameters", "同じキーで違うパラメータ") }
                <select onchange={on_mismatch}>
                    { for MismatchStatus::ALL.iter().map(|m| html! {
                        <option value={m.id()} selected={*m == pol.mismatch}>{ text::mismatch_name(l, *m) }</option> }) }
                </select></label>
            <label>{ l.t("Failure caching", "失敗のキャッシュ") }
                <select onchange={on_caching}>
                    { for FailureCaching::ALL.iter().map(|c| html! {
                        <option value={c.id()} selected={*c == pol.failure_caching}>{ text::caching_name(l, *c) }</option> }) }
                </select></label>
            <label class="check"><input type="checkbox" checked={pol.in_flight} onchange={on_inflight} />
                { l.t("In-flight record: a concurrent duplicate gets 409 (Stripe, IETF draft, rocket-rides)", "処理中レコード：同時の重複には409（Stripe、IETFドラフト、rocket-rides）") }</label>
            { select(l.t("Keys are looked up by", "キーを引く単位"), "scope-select", scopes.to_vec(), on_scope) }
            { select(l.t("The fingerprint covers", "フィンガープリントの範囲"), "fingerprint-select", prints.to_vec(), on_fingerprint) }
            { select(l.t("Parameters are compared", "パラメータを比べる場所"), "payload-select", checks.to_vec(), on_payload) }
            { select(l.t("A request without a key", "キーのないリクエスト"), "missing-key-select", missing.to_vec(), on_missing) }
            <p class="muted policy-note" data-testid="rocket-rides-note">{ l.t(
                "rocket-rides (rocket-rides-atomic) is Brandur Leach's reference implementation of Stripe-style idempotency keys on PostgreSQL.",
                "rocket-rides（rocket-rides-atomic）は、Brandur Leach による、PostgreSQL 上の Stripe 式冪等性キーの参照実装。") }</p>

        </fieldset>
    </> }
}
