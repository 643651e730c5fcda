//! The sandbox's "time, money, relay" fieldset: move simulated time, deposit, run the outbox relay
//! (optionally crashing after it publishes).

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::ui::i18n::Lang;

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
    let submit = |s: Submit| p.on_submit.reform(move |_: MouseEvent| s);
    let on_deposit_text = p.on_edit.reform(|e: InputEvent| {
        Edit::Deposit(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    html! {
        <fieldset>
            <legend>{ l.t("Time, money, relay", "時間・入金・リレー") }</legend>
            <button onclick={submit(Submit::Advance(60_000))}>{ l.t("+1 min", "+1分") }</button>
            <button onclick={submit(Submit::Advance(HOUR_MS))}>{ l.t("+1 h", "+1時間") }</button>
            <button onclick={submit(Submit::Advance(25 * HOUR_MS))} data-testid="advance-25h">{ l.t("+25 h", "+25時間") }</button>
            <label>{ l.t("Deposit (into account 0)", "入金（アカウント 0 へ）") }<input type="text" inputmode="numeric" value={f.deposit.clone()} oninput={on_deposit_text} size="8" /></label>
            <button onclick={submit(Submit::Deposit)}>{ l.t("Deposit", "入金する") }</button>
            <label class="check"><input type="checkbox" checked={f.crash_relay} onchange={p.on_edit.reform(|_: Event| Edit::ToggleCrashRelay)} />
                { l.t("relay crashes after publishing", "リレーが発行後にクラッシュ") }</label>
            <button onclick={submit(Submit::Relay)} data-testid="relay-tick">{ l.t("Run the relay", "リレーを動かす") }</button>
        </fieldset>
    }
}
