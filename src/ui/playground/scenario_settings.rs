//! The sandbox's settings of the whole scenario: the events every service sends downstream, and
//! the production service's policies. A change re-runs the same inputs with the new settings.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::sim::{
    EmitMode, FailureCaching, FingerprintFields, KeyScope, MismatchStatus, MissingKey,
    PayloadCheck, Scenario,
};
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view};

use super::sandbox_form::{by_id, Change, HOUR_MS};

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

/// A select's `onchange`: `apply` sets the chosen value on a copy of `scenario`, which goes to
/// `on`; a value it does not know changes nothing. (The downstream fieldset's selects too.)
pub fn setting(
    scenario: &Rc<Scenario>,
    on: &Callback<Change>,
    apply: fn(&mut Scenario, &str) -> Option<()>,
) -> Callback<Event> {
    let (on, base) = (on.clone(), scenario.clone());
    Callback::from(move |e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        let mut s = (*base).clone();
        if apply(&mut s, &value).is_some() {
            on.emit(Change::Replace(s));
        }
    })
}

/// A checkbox's `onchange`: `apply` flips its setting on a copy of `scenario`, which goes to
/// `on`. (The downstream fieldset's checkboxes too.)
pub fn toggle(
    scenario: &Rc<Scenario>,
    on: &Callback<Change>,
    apply: fn(&mut Scenario),
) -> Callback<Event> {
    let (on, base) = (on.clone(), scenario.clone());
    Callback::from(move |_: Event| {
        let mut s = (*base).clone();
        apply(&mut s);
        on.emit(Change::Replace(s));
    })
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
    html! { <>
        { events_fieldset(p) }
        { policies_fieldset(p) }
    </> }
}

/// The events every service sends downstream, and whether the consumer deduplicates them.
fn events_fieldset(p: &ScenarioSettingsProps) -> Html {
    let l = p.lang;
    let (scenario, on) = (&p.scenario, &p.on_change);
    let on_emit = setting(scenario, on, |s, v| {
        by_id(EmitMode::ALL, EmitMode::id, v).map(|m| s.emit = m)
    });
    let on_dedupe = toggle(scenario, on, |s| s.consumer_dedupes = !s.consumer_dedupes);
    html! {
        <fieldset>
            <legend>{ view::playground::EVENTS_LEGEND.get(l) }</legend>
            <label>{ view::playground::EVENTS.get(l) }
                <select onchange={on_emit}>
                    { for EmitMode::ALL.iter().map(|m| html! {
                        <option value={m.id()} selected={*m == p.scenario.emit}>{ text::emit_name(l, *m) }</option> }) }
                </select></label>
            <label class="check"><input type="checkbox" checked={p.scenario.consumer_dedupes} onchange={on_dedupe} />
                { view::playground::CONSUMER_DEDUPES.get(l) }</label>
        </fieldset>
    }
}

/// The production service's policies: retention, mismatch, failure caching, the in-flight
/// record, and the request policies.
fn policies_fieldset(p: &ScenarioSettingsProps) -> Html {
    let l = p.lang;
    let (scenario, on) = (&p.scenario, &p.on_change);
    let on_retention = setting(scenario, on, |s, v| {
        let hours = v.parse::<u64>().ok()?;
        s.policies.retention_ms = hours.saturating_mul(HOUR_MS);
        Some(())
    });
    let on_mismatch = setting(scenario, on, |s, v| {
        by_id(MismatchStatus::ALL, MismatchStatus::id, v).map(|m| s.policies.mismatch = m)
    });
    let on_caching = setting(scenario, on, |s, v| {
        by_id(FailureCaching::ALL, FailureCaching::id, v).map(|c| s.policies.failure_caching = c)
    });
    let on_inflight = toggle(scenario, on, |s| {
        s.policies.in_flight = !s.policies.in_flight
    });
    let pol = p.scenario.policies;
    let retention_h = pol.retention_ms / HOUR_MS;
    let [scope, fingerprint, payload, missing] = request_selects(p);
    html! {
        <fieldset>
            <legend>{ view::playground::POLICIES_LEGEND.get(l) }</legend>
            <label>{ view::playground::KEY_RETENTION.get(l) }
                <select onchange={on_retention}>
                    { for [1u64, 24, 168].iter().map(|h| html! { <option value={h.to_string()} selected={*h == retention_h}>{ view::playground::retention_hours(l, *h) }</option> }) }
                </select></label>
            <label>{ view::playground::SAME_KEY_DIFFERENT.get(l) }
                <select onchange={on_mismatch}>
                    { for MismatchStatus::ALL.iter().map(|m| html! {
                        <option value={m.id()} selected={*m == pol.mismatch}>{ text::mismatch_name(l, *m) }</option> }) }
                </select></label>
            <label>{ view::playground::FAILURE_CACHING.get(l) }
                <select onchange={on_caching}>
                    { for FailureCaching::ALL.iter().map(|c| html! {
                        <option value={c.id()} selected={*c == pol.failure_caching}>{ text::caching_name(l, *c) }</option> }) }
                </select></label>
            <label class="check"><input type="checkbox" checked={pol.in_flight} onchange={on_inflight} />
                { view::playground::IN_FLIGHT.get(l) }</label>
            { scope }
            { fingerprint }
            { payload }
            { missing }
            <p class="muted policy-note" data-testid="rocket-rides-note">{ view::playground::ROCKET_RIDES_NOTE.get(l) }</p>

        </fieldset>
    }
}

/// The request policies' selects (issue 13: who sends what): the key's scope, what the
/// fingerprint covers, where parameters are compared, a request without a key.
fn request_selects(p: &ScenarioSettingsProps) -> [Html; 4] {
    let l = p.lang;
    let (scenario, on) = (&p.scenario, &p.on_change);
    let req = p.scenario.requests;
    let on_scope = setting(scenario, on, |s, v| {
        by_id(KeyScope::ALL, KeyScope::id, v).map(|x| s.requests.scope = x)
    });
    let on_fingerprint = setting(scenario, on, |s, v| {
        by_id(FingerprintFields::ALL, FingerprintFields::id, v).map(|x| s.requests.fingerprint = x)
    });
    let on_payload = setting(scenario, on, |s, v| {
        by_id(PayloadCheck::ALL, PayloadCheck::id, v).map(|x| s.requests.payload_check = x)
    });
    let on_missing = setting(scenario, on, |s, v| {
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
    [
        select(
            view::playground::SCOPE_LABEL.get(l),
            "scope-select",
            scopes.to_vec(),
            on_scope,
        ),
        select(
            view::playground::FINGERPRINT_LABEL.get(l),
            "fingerprint-select",
            prints.to_vec(),
            on_fingerprint,
        ),
        select(
            view::playground::PAYLOAD_LABEL.get(l),
            "payload-select",
            checks.to_vec(),
            on_payload,
        ),
        select(
            view::playground::MISSING_KEY_LABEL.get(l),
            "missing-key-select",
            missing.to_vec(),
            on_missing,
        ),
    ]
}
