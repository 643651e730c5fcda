//! The shared state of the service: balance, operation count, the idempotency store, the lock, who
//! is blocked, and a plain-words alert the moment one key is charged twice.

use yew::prelude::*;

use crate::ui::text::money;

use crate::sim::lab::{KeyMode, LabResult, Model, RequestStatus, Stepper};
use crate::ui::i18n::Lang;
use crate::ui::text::lab::{action_text, charge_text, locks_text, step_name};
use crate::ui::text::{self, view};

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
    let lock_holder = match scenario.model() {
        Model::Atomic => state.lock_holder().map(|h| h + 1),
        Model::TocTou | Model::Unlocked => None,
    };
    let blocked = blocked_list(lang, run);
    html! {
        <section class="lab-shared card" aria-labelledby="lab-shared-h">
            <h3 id="lab-shared-h">{ view::lab::SHARED_STATE.get(lang) }</h3>
            <dl class="lab-facts">
                <dt>{ view::lab::BALANCE.get(lang) }</dt>
                <dd data-testid="lab-balance">{ money(state.balance()) }</dd>
                <dt>{ view::lab::INITIAL_BALANCE.get(lang) }</dt>
                <dd>{ money(scenario.initial_balance()) }</dd>
                <dt>{ view::lab::CHARGES.get(lang) }</dt>
                <dd data-testid="lab-charges">{ charges }</dd>
                <dt>{ view::lab::SUCCESSES.get(lang) }</dt>
                <dd data-testid="lab-successes">{ successes }</dd>
            </dl>
            if !double_keys.is_empty() {
                <p class="lab-alert" role="alert" data-testid="lab-double-charge">
                    <strong>{ view::lab::DOUBLE_CHARGE.get(lang) }</strong>
                    { view::lab::double_charged_keys(lang, &double_keys) }
                </p>
            }
            <h4>{ view::lab::IDEMPOTENCY_STORE.get(lang) }</h4>
            <ul class="lab-store">{ store_rows(lang, run) }</ul>
            <h4>{ view::lab::LOCKS.get(lang) }</h4>
            <p data-testid="lab-locks">{ view::lab::locks_now(lang, scenario.model(), lock_holder) }</p>
            if !blocked.is_empty() {
                <ul class="lab-blocked-list" data-testid="lab-blocked">{ for blocked }</ul>
            }
            { for last_step(lang, run) }
        </section>
    }
}

/// The run's outcome in one line (balance, charges, a double charge), drawn between the lanes and
/// the shared state: on a narrow screen it stays at the bottom of the screen while the lanes are
/// in view (lab.css), so the result of a step shows beside the button that took it; its button
/// scrolls to the shared state. Hidden where the shared state stands beside the lanes.
pub fn outcome_line(lang: Lang, run: &Stepper) -> Html {
    let scenario = run.scenario();
    let state = run.state();
    let double_keys: Vec<String> = scenario
        .charges_per_key(state)
        .iter()
        .enumerate()
        .filter(|(_, n)| **n >= 2)
        .map(|(key, n)| format!("{} ×{n}", scenario.key_label(key)))
        .collect();
    let bad = !double_keys.is_empty();
    let details = Callback::from(|_: MouseEvent| {
        let panel = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("lab-shared-h"));
        if let Some(el) = panel {
            el.scroll_into_view();
        }
    });
    html! {
        <p class={classes!("lab-outcome", bad.then_some("lab-outcome-bad"))} data-testid="lab-outcome"
           data-state={if bad { "double-charge" } else { "ok" }}>
            <span>
                { view::lab::outcome(lang, state.balance(), state.operation_count()) }
                if bad { <strong>{ view::lab::DOUBLE_CHARGE_MARK.get(lang) }</strong> }
            </span>
            <button onclick={details} data-testid="lab-outcome-details">{ view::lab::OUTCOME_DETAILS.get(lang) }</button>
        </p>
    }
}

/// What the idempotency store holds, a line per key.
fn store_rows(lang: Lang, run: &Stepper) -> Html {
    let scenario = run.scenario();
    let keys: Vec<usize> = match scenario.keys() {
        KeyMode::Same => vec![0],
        KeyMode::Different => (0..scenario.requests()).collect(),
    };
    keys.iter()
        .map(|&key| {
            let label = scenario.key_label(key);
            let value = match run.state().stored(key) {
                Some(c) => charge_text(lang, c),
                None => view::lab::NOTHING_STORED.get(lang).to_string(),
            };
            html! { <li><code>{ label }</code>{ " → " }{ value }</li> }
        })
        .collect()
}

/// A line per blocked request: whose lock it waits for.
fn blocked_list(lang: Lang, run: &Stepper) -> Vec<Html> {
    (0..run.scenario().requests())
        .filter_map(|r| match run.status(r) {
            Some(RequestStatus::Blocked { holder }) => Some(html! {
                <li>{ view::lab::blocked_by(lang, r + 1, holder + 1) }</li>
            }),
            _ => None,
        })
        .collect()
}

/// The last step: who moved, which step, what it did and which locks it used.
fn last_step(lang: Lang, run: &Stepper) -> Option<Html> {
    run.trace().last().map(|rec| {
        let locks = locks_text(lang, rec);
        let what = action_text(lang, rec.action);
        let step = step_name(lang, run.scenario().model(), rec.step);
        let head = view::lab::last_step(lang, rec.request + 1, step);
        let lock_note = if locks.is_empty() {
            String::new()
        } else {
            text::aside(lang, &locks)
        };
        let colon = view::lab::COLON.get(lang);
        html! { <p class="lab-last-step">{ format!("{head}{colon}{what}{lock_note}") }</p> }
    })
}
