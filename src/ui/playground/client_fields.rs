//! The sandbox's client fieldsets: concurrent duplicates with one key, and a client that retries
//! by a policy (reusing its key, or with a new key per retry: the common bug).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::sim::RetryKind;
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view};

use super::charge_fields::move_button;
use super::sandbox_form::{by_id, Edit, SandboxForm, Submit};

/// What [`client_fields`] draws.
#[derive(PartialEq)]
pub struct ClientFieldsProps {
    /// Page language.
    pub lang: Lang,
    /// The form's values.
    pub form: SandboxForm,
    /// Field edits.
    pub on_edit: Callback<Edit>,
    /// Buttons.
    pub on_submit: Callback<Submit>,
}

/// The concurrent-duplicates and retrying-client fieldsets.
pub fn client_fields(p: &ClientFieldsProps) -> Html {
    let (l, f) = (p.lang, &p.form);
    let text = |edit: fn(String) -> Edit| {
        p.on_edit.reform(move |e: InputEvent| {
            edit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_retry = {
        let on = p.on_edit.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(kind) = by_id(RetryKind::ALL, RetryKind::id, &value) {
                on.emit(Edit::Retry(kind));
            }
        })
    };
    html! { <>
        <fieldset>
            <legend>{ view::playground::CONCURRENT_DUPLICATES.get(l) }</legend>
            <label>{ view::playground::requests_at_once(l) }
                <input type="text" inputmode="numeric" value={f.parallel.clone()} oninput={text(Edit::Parallel)} size="4" /></label>
            { move_button(f, Submit::Parallel, &p.on_submit, view::playground::SEND_WITH_ONE_KEY.get(l), Some("send-parallel"), (false, false)) }
        </fieldset>
        <fieldset>
            <legend>{ view::playground::RETRYING_CLIENT.get(l) }</legend>
            <label>{ view::playground::RETRY_POLICY.get(l) }
                <select onchange={on_retry}>
                    { for RetryKind::ALL.iter().map(|k| html! { <option value={k.id()} selected={*k == f.retry}>{ text::retry_name(l, *k) }</option> }) }
                </select></label>
            <label>{ view::playground::max_attempts(l) }
                <input type="text" inputmode="numeric" value={f.attempts.clone()} oninput={text(Edit::Attempts)} size="4" /></label>
            <label class="check"><input type="checkbox" checked={f.new_key_per_retry} onchange={p.on_edit.reform(|_: Event| Edit::ToggleNewKeyPerRetry)} />
                { view::playground::NEW_KEY_PER_RETRY.get(l) }</label>
            { move_button(f, Submit::Operation, &p.on_submit, view::playground::RUN_CLIENT.get(l), Some("send-operation"), (false, false)) }
        </fieldset>
    </> }
}
