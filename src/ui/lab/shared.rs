//! The shared service state: balance, charges, the idempotency store, who holds which lock, who
//! is blocked, and a plain-words alert the moment one key is charged twice.

use yew::prelude::*;

use crate::sim::lab::{KeyMode, LabResult, Model, RequestStatus, Stepper};
use crate::ui::i18n::{tr, Lang};

use crate::ui::text;
use crate::ui::text::lab::{action_text, charge_text, locks_text, step_name};

/// Props of [`SharedStatePanel`].
#[derive(Properties, PartialEq)]
pub struct SharedStatePanelProps {
    /// Page language.
    pub lang: Lang,
    /// The run to show.
    pub stepper: Stepper,
}

/// The shared state of the service under the current schedule.
#[component(SharedStatePanel)]
pub fn shared_state_panel(props: &SharedStatePanelProps) -> Html {
    let lang = props.lang;
    let run = &props.stepper;
    let scenario = run.scenario();
    let state = run.state();
    let k = scenario.requests();

    let keys: Vec<usize> = match scenario.keys() {
        KeyMode::Same => vec![0],
        KeyMode::Different => (0..k).collect(),
    };
    let store_rows = keys.iter().map(|&key| {
        let label = scenario.key_label(key);
        let value = match state.stored(key) {
            Some(c) => charge_text(lang, c),
            None => lang.t("(nothing stored)", "（記録なし）").to_string(),
        };
        html! { <li><code>{ label }</code>{ " → " }{ value }</li> }
    });

    let lock_text = match scenario.model() {
        Model::Atomic => match state.lock_holder() {
            Some(h) => {
                let h = h + 1;
                tr!(
                    lang,
                    "state lock: held by request {h}",
                    "state ロック：リクエスト{h}が保持中"
                )
            }
            None => lang.t("state lock: free", "state ロック：空き").to_string(),
        },
        Model::TocTou => lang
            .t(
                "idempotency_store, balance, operation_count locks: each taken and released within one step, so none is held between steps",
                "idempotency_store・balance・operation_count の各ロック：1ステップの中で取得・解放されるため、ステップ間では誰も保持していない",
            )
            .to_string(),
        Model::Unlocked => lang
            .t("no locks: nothing stops two requests interleaving", "ロックなし：2つのリクエストの交互実行を止めるものはない")
            .to_string(),
    };
    let last_step = run.trace().last().map(|rec| {
        let locks = locks_text(lang, rec);
        let what = action_text(lang, rec.action);
        let (r, step) = (rec.request + 1, step_name(lang, scenario.model(), rec.step));
        let head = tr!(
            lang,
            "Last step: request {r}, {step}",
            "直前のステップ：リクエスト{r}の{step}"
        );
        let lock_note = if locks.is_empty() {
            String::new()
        } else {
            text::aside(lang, &locks)
        };
        let colon = lang.t(": ", "：");
        html! { <p class="lab-last-step">{ format!("{head}{colon}{what}{lock_note}") }</p> }
    });

    let blocked: Vec<Html> = (0..k)
        .filter_map(|r| match run.status(r) {
            Some(RequestStatus::Blocked { holder }) => {
                let (n, h) = (r + 1, holder + 1);
                Some(html! {
                    <li>{ tr!(
                        lang,
                        "Request {n} is blocked: it waits for the lock request {h} holds",
                        "リクエスト{n}はブロック中：リクエスト{h}が保持するロックを待っている",
                    ) }</li>
                })
            }
            _ => None,
        })
        .collect();

    let successes = (0..k)
        .filter(|&r| matches!(state.result(r), Some(LabResult::Success { .. })))
        .count();
    let charges = state.operation_count();
    let per_key = scenario.charges_per_key(state);
    let double_keys: Vec<String> = per_key
        .iter()
        .enumerate()
        .filter(|(_, n)| **n >= 2)
        .map(|(key, n)| format!("{} ×{n}", scenario.key_label(key)))
        .collect();

    let double_charge = match lang {
        Lang::En => {
            let keys = double_keys.join(", ");
            format!("one idempotency key was charged more than once ({keys}).")
        }
        Lang::Ja => {
            let keys = double_keys.join("、");
            format!("1つの冪等性キーで複数回課金された（{keys}）。")
        }
    };
    html! {
        <section class="lab-shared card" aria-labelledby="lab-shared-h">
            <h3 id="lab-shared-h">{ lang.t("Shared state", "共有状態") }</h3>
            <dl class="lab-facts">
                <dt>{ lang.t("Balance", "残高") }</dt>
                <dd data-testid="lab-balance">{ state.balance() }</dd>
                <dt>{ lang.t("Initial balance", "初期残高") }</dt>
                <dd>{ scenario.initial_balance() }</dd>
                <dt>{ lang.t("Charges (operation_count)", "課金回数（operation_count）") }</dt>
                <dd data-testid="lab-charges">{ charges }</dd>
                <dt>{ lang.t("Requests that returned Success", "成功（Success）を返したリクエスト") }</dt>
                <dd data-testid="lab-successes">{ successes }</dd>
            </dl>
            if !double_keys.is_empty() {
                <p class="lab-alert" role="alert" data-testid="lab-double-charge">
                    <strong>{ lang.t("Double charge: ", "二重課金：") }</strong>
                    { double_charge }
                </p>
            }
            <h4>{ lang.t("Idempotency store", "冪等性ストア") }</h4>
            <ul class="lab-store">{ for store_rows }</ul>
            <h4>{ lang.t("Locks", "ロック") }</h4>
            <p data-testid="lab-locks">{ lock_text }</p>
            if !blocked.is_empty() {
                <ul class="lab-blocked-list" data-testid="lab-blocked">{ for blocked }</ul>
            }
            { for last_step }
        </section>
    }
}
