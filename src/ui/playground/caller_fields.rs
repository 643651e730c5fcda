//! The sandbox's "who sends it" fieldset (issue 13): the account the next charge or retrying
//! client comes from, a client that writes the time into every body, and a request sent without
//! a key. The production service's policies for them are in `scenario_settings.rs`.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::sim::limits::MAX_ACCOUNT;
use crate::ui::i18n::Lang;
use crate::ui::text::view;

use super::sandbox_form::{Edit, SandboxForm};

/// The "who sends it" fieldset.
pub fn caller_fields(l: Lang, f: &SandboxForm, on_edit: &Callback<Edit>) -> Html {
    let on_account = on_edit.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        // The options carry 0..=MAX_ACCOUNT; anything else keeps the default account.
        Edit::Account(
            value
                .parse()
                .ok()
                .filter(|a| *a <= MAX_ACCOUNT)
                .unwrap_or(0),
        )
    });
    let c = f.caller;
    html! {
        <fieldset data-testid="caller-fields">
            <legend>{ view::playground::CALLER_LEGEND.get(l) }</legend>
            <label>{ view::playground::CUSTOMER_ACCOUNT.get(l) }
                <select onchange={on_account} data-testid="account-select">
                    { for (0..=MAX_ACCOUNT).map(|a| html! {
                        <option value={a.to_string()} selected={a == c.account}>{ view::playground::account_option(l, a) }</option> }) }
                </select></label>
            <label class="check"><input type="checkbox" checked={c.stamps_body} data-testid="stamp-box"
                    onchange={on_edit.reform(|_: Event| Edit::ToggleStamp)} />
                { view::playground::STAMPS_BODY.get(l) }</label>
            <label class="check"><input type="checkbox" checked={!c.sends_key} data-testid="no-key-box"
                    onchange={on_edit.reform(|_: Event| Edit::ToggleNoKey)} />
                { view::playground::SEND_NO_KEY.get(l) }</label>
        </fieldset>
    }
}
