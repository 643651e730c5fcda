//! Scenario settings: model, number of requests, same or different keys, amounts, initial balance
//! and seed. Typed text is checked by the lab core; a refusal is shown in both languages and the
//! running scenario is kept.

use yew::prelude::*;

use crate::sim::lab::{parse_amounts, parse_integer, parse_seed};
use crate::sim::lab::{KeyMode, LabError, LabScenario, Model, NumberField};
use crate::sim::limits::{MAX_AMOUNT, MAX_PARALLEL_REQUESTS, MIN_AMOUNT, MIN_PARALLEL_REQUESTS};
use crate::ui::i18n::Lang;
use crate::ui::text::lab::model_name;
use crate::ui::text::{grouped, lab_error, view};

/// Props of [`LabSettings`].
#[derive(Properties, PartialEq)]
pub struct LabSettingsProps {
    /// Page language.
    pub lang: Lang,
    /// The scenario in use (the form starts from it).
    pub scenario: LabScenario,
    /// The seed in use.
    pub seed: u64,
    /// Called with a valid scenario and seed.
    pub on_apply: Callback<(LabScenario, u64)>,
}

#[derive(Clone, PartialEq)]
struct Draft {
    model: Model,
    requests: String,
    keys: KeyMode,
    amounts: String,
    balance: String,
    seed: String,
}

impl Draft {
    fn from(scenario: &LabScenario, seed: u64) -> Draft {
        let amounts = scenario.amounts();
        let amounts = if amounts.windows(2).all(|w| w[0] == w[1]) {
            amounts.first().map(|a| a.to_string()).unwrap_or_default()
        } else {
            amounts
                .iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        Draft {
            model: scenario.model(),
            requests: scenario.requests().to_string(),
            keys: scenario.keys(),
            amounts,
            balance: scenario.initial_balance().to_string(),
            seed: seed.to_string(),
        }
    }

    fn validate(&self) -> Result<(LabScenario, u64), LabError> {
        // Each number is read within its field's range, so the casts cannot truncate.
        let requests = parse_integer(NumberField::Requests, &self.requests)? as usize;
        let amounts = parse_amounts(&self.amounts)?;
        let balance = parse_integer(NumberField::Balance, &self.balance)? as i64;
        let seed = parse_seed(&self.seed)?;
        let scenario = LabScenario::new(self.model, requests, self.keys, &amounts, balance)?;
        Ok((scenario, seed))
    }
}

/// The scenario form.
#[component(LabSettings)]
pub fn lab_settings(props: &LabSettingsProps) -> Html {
    let lang = props.lang;
    let draft = use_state(|| Draft::from(&props.scenario, props.seed));
    let error = use_state(|| None::<LabError>);
    {
        // A scenario loaded from elsewhere (the explorer) restarts the form from it.
        let draft = draft.clone();
        let error = error.clone();
        use_effect_with(
            (props.scenario.clone(), props.seed),
            move |(scenario, seed)| {
                draft.set(Draft::from(scenario, *seed));
                error.set(None);
            },
        );
    }
    let on_submit = {
        let draft = draft.clone();
        let error = error.clone();
        let on_apply = props.on_apply.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            match draft.validate() {
                Ok(applied) => {
                    error.set(None);
                    on_apply.emit(applied);
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    // `novalidate`: the browser's own range bubble would block the submit in one language only;
    // the lab core's message says the same in both.
    html! {
        <form class="lab-settings card" onsubmit={on_submit} novalidate={true} aria-labelledby="lab-settings-h" data-testid="lab-settings">
            <h3 id="lab-settings-h">{ view::lab::SCENARIO.get(lang) }</h3>
            { fields(lang, &draft) }
            if let Some(e) = &*error {
                <p class="field-error" role="alert" data-testid="lab-settings-error">{ lab_error(lang, e) }</p>
            }
            <button type="submit" class="primary" data-testid="lab-apply">{ view::lab::APPLY.get(lang) }</button>
        </form>
    }
}

/// A draft edited by a select's new value, when `pick` reads it.
fn on_select<T: 'static>(
    draft: &UseStateHandle<Draft>,
    pick: fn(&str) -> Option<T>,
    set: fn(&mut Draft, T),
) -> Callback<Event> {
    let draft = draft.clone();
    Callback::from(move |e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        if let Some(v) = pick(&value) {
            let mut d = (*draft).clone();
            set(&mut d, v);
            draft.set(d);
        }
    })
}

/// The form's fields: service, requests, keys, amounts, balance and seed.
fn fields(lang: Lang, draft: &UseStateHandle<Draft>) -> Html {
    let edit = |f: fn(&mut Draft, String)| {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let mut d = (*draft).clone();
            f(
                &mut d,
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            );
            draft.set(d);
        })
    };
    let on_model = on_select(draft, Model::from_id, |d, model| d.model = model);
    let on_keys = on_select(draft, KeyMode::from_id, |d, keys| d.keys = keys);
    let d = (**draft).clone();
    let (min, max) = (grouped(MIN_AMOUNT as u64), grouped(MAX_AMOUNT as u64));
    html! {
        <div class="lab-fields">
            <label class="wide">
                { view::lab::SERVICE.get(lang) }
                <select onchange={on_model} data-testid="lab-model">
                    { for Model::ALL.iter().map(|m| html! {
                        <option value={m.id()} selected={d.model == *m}>{ model_name(lang, *m) }</option>
                    }) }
                </select>
            </label>
            <label>
                { view::lab::concurrent_requests(lang) }
                <input type="number" min={MIN_PARALLEL_REQUESTS.to_string()} max={MAX_PARALLEL_REQUESTS.to_string()} value={d.requests.clone()}
                       oninput={edit(|d, v| d.requests = v)} data-testid="lab-requests" />
            </label>
            <label class="wide">
                { view::lab::IDEMPOTENCY_KEYS.get(lang) }
                <select onchange={on_keys} data-testid="lab-keys">
                    <option value={KeyMode::Same.id()} selected={d.keys == KeyMode::Same}>{ view::lab::SAME_KEY.get(lang) }</option>
                    <option value={KeyMode::Different.id()} selected={d.keys == KeyMode::Different}>{ view::lab::KEY_PER_REQUEST.get(lang) }</option>
                </select>
            </label>
            <label>
                { view::lab::amounts_label(lang, &min, &max) }
                <input type="text" inputmode="numeric" value={d.amounts.clone()} oninput={edit(|d, v| d.amounts = v)} data-testid="lab-amounts" />
            </label>
            <label>
                { view::lab::INITIAL_BALANCE.get(lang) }
                <input type="text" inputmode="numeric" value={d.balance.clone()} oninput={edit(|d, v| d.balance = v)} data-testid="lab-balance-input" />
            </label>
            <label>
                { view::lab::SEED.get(lang) }
                <input type="text" inputmode="numeric" value={d.seed.clone()} oninput={edit(|d, v| d.seed = v)} data-testid="lab-seed" />
            </label>
        </div>
    }
}
