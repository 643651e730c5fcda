//! The sandbox's "one charge" fieldset: a key (typed or generated), an amount and a fault; send
//! it, or retry the last charge with the same key or a new one.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::sim::{Fault, KeyFormat};
use crate::ui::i18n::{tr, Lang};
use crate::ui::text;

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

/// The "one charge" fieldset.
pub fn charge_fields(p: &ChargeFieldsProps) -> Html {
    let (l, f) = (p.lang, &p.form);
    let text = |edit: fn(String) -> Edit| {
        p.on_edit.reform(move |e: InputEvent| {
            edit(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let submit = |s: Submit| p.on_submit.reform(move |_: MouseEvent| s);
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
            <legend>{ l.t("One charge", "1回の課金") }</legend>
            // No `maxlength`: the field keeps whatever is typed or pasted, and a key over the
            // limit is refused with its real length, never silently cut.
            <label>{ l.t("Idempotency key (empty: the client mints a UUID)", "冪等性キー（空ならクライアントがUUIDを生成）") }
                <input type="text" value={f.key.clone()} oninput={text(Edit::Key)} data-testid="key-input" size="38" /></label>
            <button onclick={gen(KeyFormat::V4)} data-testid="gen-v4">{ l.t("New UUID v4", "UUID v4 を生成") }</button>
            <button onclick={gen(KeyFormat::V7)} data-testid="gen-v7">{ l.t("New UUID v7", "UUID v7 を生成") }</button>
            <p class="note">{ l.t(
                "v4 is random. v7 puts the time first, so keys created later sort later and a database index on them stays compact.",
                "v4 はランダム。v7 は先頭に時刻が入るので後に作ったキーほど後ろに並び、データベースのインデックスがまとまる。") }</p>
            <label>{ l.t("Amount", "金額") }<input type="text" inputmode="numeric" value={f.amount.clone()} oninput={text(Edit::Amount)} size="10" data-testid="amount-input" /></label>
            <label>{ l.t("Fault for this attempt", "この試行の障害") }
                <select onchange={on_fault} data-testid="fault-select">
                    { for Fault::EVERY.iter().map(|x| html! { <option value={x.id()} selected={*x == f.fault}>{ text::fault_name(l, *x) }</option> }) }
                </select></label>
            <button class="primary" onclick={submit(Submit::Charge)} data-testid="send">{ l.t("Send", "送信") }</button>
            <button onclick={submit(Submit::Retry { new_key: false })} data-testid="retry-same" disabled={p.last_key.is_none()}>{ l.t("Retry it with the same key", "同じキーでリトライ") }</button>
            <button onclick={submit(Submit::Retry { new_key: true })} data-testid="retry-new" disabled={p.last_key.is_none()}>{ l.t("Retry it with a new key", "新しいキーでリトライ") }</button>
            <p class="note" data-testid="last-key">{ match &p.last_key {
                Some(k) => tr!(l, "A retry resends the last charge from the same customer with the same amount (the fault above applies to the retry); its key so far: {k}", "リトライは直前の課金を同じ顧客・同じ金額でもう一度送る（上の障害はリトライに効く）。これまでのキー：{k}"),
                None => l.t("Retries resend the last charge; send one first (its key is minted when the first step runs).", "リトライは直前の課金をもう一度送る。まず1回送ってください（キーは最初のステップで生成される）。").to_string(),
            } }</p>
        </fieldset>
    }
}
