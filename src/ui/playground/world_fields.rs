//! The sandbox's "time, money, relay" fieldset: move simulated time, deposit, run the outbox relay
//! (optionally crashing after it publishes).

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::text::view;

use super::charge_fields::move_button;
use super::sandbox_form::{Edit, SandboxForm, Submit, HOUR_MS};

/// What [`world_fields`] draws.
#[derive(PartialEq)]
pub struct WorldFieldsProps {
    /// Page language.
    pub lang: Lang,
    /// The form's values.
    pub form: SandboxForm,
    /// Field edits.
    pub on_edit: Callback<Edit>,
    /// Buttons.
    pub on_submit: Callback<Submit>,
}

/// The "time, money, relay" fieldset.
pub fn world_fields(p: &WorldFieldsProps) -> Html {
    let (l, f) = (p.lang, &p.form);
    let button = |s: Submit, label: &'static str, testid: Option<&'static str>| {
        move_button(f, s, &p.on_submit, label, testid, (false, false))
    };
    let on_deposit_text = p.on_edit.reform(|e: InputEvent| {
        Edit::Deposit(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    html! {
        <fieldset>
            <legend>{ view::playground::TIME_MONEY_RELAY.get(l) }</legend>
            { button(Submit::Advance(60_000), view::playground::PLUS_1_MIN.get(l), None) }
            { button(Submit::Advance(HOUR_MS), view::playground::PLUS_1_H.get(l), None) }
            { button(Submit::Advance(25 * HOUR_MS), view::playground::PLUS_25_H.get(l), Some("advance-25h")) }
            <label>{ view::playground::DEPOSIT_FIELD.get(l) }<input type="text" inputmode="numeric" value={f.deposit.clone()} oninput={on_deposit_text} size="8" /></label>
            { button(Submit::Deposit, view::playground::DEPOSIT.get(l), Some("deposit")) }
            <label class="check"><input type="checkbox" checked={f.crash_relay} onchange={p.on_edit.reform(|_: Event| Edit::ToggleCrashRelay)} />
                { view::playground::RELAY_CRASHES.get(l) }</label>
            { button(Submit::Relay, view::playground::RUN_RELAY.get(l), Some("relay-tick")) }
        </fieldset>
    }
}
