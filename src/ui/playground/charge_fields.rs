//! The sandbox's "one charge" fieldset: a key (typed or generated), an amount and a fault; send
//! it, or retry the last charge with the same key or a new one.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::sim::{Fault, KeyFormat};
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view};

use super::sandbox_form::{by_id, Edit, SandboxForm, Submit};

/// What [`charge_fields`] draws.
#[derive(PartialEq)]
pub struct ChargeFieldsProps {
    /// Page language.
    pub lang: Lang,
    /// The form's values.
    pub form: SandboxForm,
    /// The scenario's seed, which seeds generated keys.
    pub seed: u64,
    /// The key of the last client operation, for "retry with the same key".
    pub last_key: Option<String>,
    /// Field edits.
    pub on_edit: Callback<Edit>,
    /// Buttons.
    pub on_submit: Callback<Submit>,
}

/// A button that makes a move (`s`, sent to `on`), with, right under it when the challenge
/// refused that move, why (announced: `role="alert"`; the button is marked `aria-invalid` and
/// described by it). One function for every such button keeps the page's wasm small.
pub fn move_button(
    f: &SandboxForm,
    s: Submit,
    on: &Callback<Submit>,
    label: &'static str,
    testid: Option<&'static str>,
    (primary, disabled): (bool, bool),
) -> Html {
    const ID: &str = "move-refused";
    let refused = f.refused_at(s);
    html! { <>
        <button class={primary.then_some("primary")} onclick={on.reform(move |_: MouseEvent| s)} data-testid={testid} disabled={disabled}
                aria-invalid={refused.map(|_| "true")} aria-describedby={refused.map(|_| ID)}>{ label }</button>
        if let Some(why) = refused {
            <p class="field-error refused" role="alert" id={ID} data-testid="move-refused">{ why.to_string() }</p>
        }
    </> }
}

/// The "one charge" fieldset.
pub fn charge_fields(p: &ChargeFieldsProps) -> Html {
    let (l, f) = (p.lang, &p.form);
    let text = |edit: fn(String) -> Edit| {
        p.on_edit.reform(move |e: InputEvent| {
            edit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let gen = |format: KeyFormat| {
        let seed = p.seed;
        p.on_edit
            .reform(move |_: MouseEvent| Edit::Mint(format, seed))
    };
    let on_fault = {
        let on = p.on_edit.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(fault) = by_id(Fault::EVERY, Fault::id, &value) {
                on.emit(Edit::Fault(fault));
            }
        })
    };
    html! {
        <fieldset>
            <legend>{ view::playground::ONE_CHARGE.get(l) }</legend>
            // No `maxlength`: the field keeps whatever is typed or pasted, and a key over the
            // limit is refused with its real length, never silently cut.
            <label>{ view::playground::KEY_FIELD.get(l) }
                <input type="text" value={f.key.clone()} oninput={text(Edit::Key)} data-testid="key-input" size="38" /></label>
            <button onclick={gen(KeyFormat::V4)} data-testid="gen-v4">{ view::playground::NEW_UUID_V4.get(l) }</button>
            <button onclick={gen(KeyFormat::V7)} data-testid="gen-v7">{ view::playground::NEW_UUID_V7.get(l) }</button>
            <p class="note">{ view::playground::UUID_NOTE.get(l) }</p>
            <label>{ view::playground::AMOUNT.get(l) }<input type="text" inputmode="numeric" value={f.amount.clone()} oninput={text(Edit::Amount)} size="10" data-testid="amount-input" /></label>
            <label>{ view::playground::FAULT_FOR_ATTEMPT.get(l) }
                <select onchange={on_fault} data-testid="fault-select">
                    { for Fault::EVERY.iter().map(|x| html! { <option value={x.id()} selected={*x == f.fault}>{ text::fault_name(l, *x) }</option> }) }
                </select></label>
            { move_button(f, Submit::Charge, &p.on_submit, view::playground::SEND.get(l), Some("send"), (true, false)) }
            { move_button(f, Submit::Retry { new_key: false }, &p.on_submit, view::playground::RETRY_SAME_KEY.get(l), Some("retry-same"), (false, p.last_key.is_none())) }
            { move_button(f, Submit::Retry { new_key: true }, &p.on_submit, view::playground::RETRY_NEW_KEY.get(l), Some("retry-new"), (false, p.last_key.is_none())) }
            <p class="note" data-testid="last-key">{ view::playground::retry_note(l, p.last_key.as_deref()) }</p>
        </fieldset>
    }
}
