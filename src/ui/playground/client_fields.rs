//! The sandbox's client fieldsets: concurrent duplicates with one key, and a client that retries
//! by a policy (reusing its key, or with a new key per retry: the common bug).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::sim::limits::{MAX_ATTEMPTS, MAX_PARALLEL_REQUESTS};
use crate::sim::RetryKind;
use crate::ui::i18n::{tr, Lang};
use crate::ui::text;

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
            <legend>{ l.t("Concurrent duplicates", "同時の重複リクエスト") }</legend>
            <label>{ tr!(l, "Requests at once (2–{MAX_PARALLEL_REQUESTS})", "同時に送る数（2–{MAX_PARALLEL_REQUESTS}）") }
                <input type="text" inputmode="numeric" value={f.parallel.clone()} oninput={text(Edit::Parallel)} size="4" /></label>
            <button onclick={p.on_submit.reform(|_: MouseEvent| Submit::Parallel)} data-testid="send-parallel">{ l.t("Send them with one key", "1つのキーで同時に送る") }</button>
        </fieldset>
        <fieldset>
            <legend>{ l.t("A retrying client", "リトライするクライアント") }</legend>
            <label>{ l.t("Retry policy", "リトライ方針") }
                <select onchange={on_retry}>
                    { for RetryKind::ALL.iter().map(|k| html! { <option value={k.id()} selected={*k == f.retry}>{ text::retry_name(l, *k) }</option> }) }
                </select></label>
            <label>{ tr!(l, "Max attempts (1–{MAX_ATTEMPTS})", "最大試行回数（1–{MAX_ATTEMPTS}）") }
                <input type="text" inputmode="numeric" value={f.attempts.clone()} oninput={text(Edit::Attempts)} size="4" /></label>
            <label class="check"><input type="checkbox" checked={f.new_key_per_retry} onchange={p.on_edit.reform(|_: Event| Edit::ToggleNewKeyPerRetry)} />
                { l.t("New key per retry (the common bug)", "リトライごとに新しいキー（よくあるバグ）") }</label>
            <button onclick={p.on_submit.reform(|_: MouseEvent| Submit::Operation)} data-testid="send-operation">{ l.t("Run the client (fault above on try 1)", "クライアントを実行（上の障害を1回目に）") }</button>
        </fieldset>
    </> }
}
