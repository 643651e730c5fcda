//! The sandbox: send a charge with a key, an amount and a fault; retry with the same key or a new
//! one; send concurrent duplicates; run a retrying client; move time; run the relay; choose the
//! events and the production service's policies; clear every input. The form is one reducer
//! (`sandbox_form.rs`); each fieldset is a view function of its own.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::teach::Challenge;
use crate::sim::Scenario;
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view};

use super::caller_fields::caller_fields;
use super::charge_fields::{charge_fields, ChargeFieldsProps};
use super::client_fields::{client_fields, ClientFieldsProps};
use super::downstream_fields::downstream_fields;
use super::sandbox_form::{Change, Edit, SandboxForm, Submit};
use super::scenario_settings::{scenario_settings, ScenarioSettingsProps};
use super::world_fields::{world_fields, WorldFieldsProps};

/// Props of the sandbox.
#[derive(Properties, PartialEq)]
pub struct SandboxProps {
    /// Page language.
    pub lang: Lang,
    /// The scenario being run.
    pub scenario: Rc<Scenario>,
    /// The key of the last client operation, for "retry with the same key".
    pub last_key: Option<String>,
    /// Where changes go.
    pub on_change: Callback<Change>,
    /// Whether the services and settings can be changed (a challenge fixes them).
    #[prop_or(true)]
    pub settings: bool,
    /// The first inputs that are not the learner's to clear: a challenge's starting inputs.
    #[prop_or(0)]
    pub fixed_inputs: usize,
    /// The challenge on the page: a move it does not allow is refused under the button used.
    #[prop_or_default]
    pub challenge: Option<Rc<Challenge>>,
}

/// The sandbox form.
#[function_component(Sandbox)]
pub fn sandbox(p: &SandboxProps) -> Html {
    let l = p.lang;
    let form = use_reducer(SandboxForm::default);

    // A message appears where the learner can see it, whichever fieldset they used (on a phone
    // the sticky controls would otherwise cover the top of the card).
    let error_ref = use_node_ref();
    {
        let error_ref = error_ref.clone();
        use_effect_with(form.error.clone(), move |e| {
            if e.is_some() {
                if let Some(el) = error_ref.cast::<web_sys::Element>() {
                    el.scroll_into_view_with_bool(false);
                }
            }
        });
    }
    let on_edit = {
        let form = form.dispatcher();
        Callback::from(move |e: Edit| form.dispatch(e))
    };
    // A button: the input it makes of the form goes to the page, or its error under the heading;
    // a move the challenge does not allow is refused under the button itself.
    let on_submit = {
        let (form, on, last) = (form.clone(), p.on_change.clone(), p.last_key.clone());
        let (challenge, scenario) = (p.challenge.clone(), p.scenario.clone());
        Callback::from(
            move |submit: Submit| match form.input(submit, last.as_deref()) {
                Ok(input) => match challenge
                    .as_ref()
                    .map(|c| (c, c.check_move(&scenario, &input)))
                {
                    Some((c, Err(r))) => {
                        form.dispatch(Edit::Refused(submit, text::move_refused(l, c, r)))
                    }
                    _ => {
                        form.dispatch(Edit::Said(None));
                        on.emit(Change::Push(input));
                    }
                },
                Err(e) => form.dispatch(Edit::Said(Some(text::input_error(l, &e)))),
            },
        )
    };
    let form_now = (*form).clone();

    html! {
        <section class="sandbox card" aria-labelledby="sb-h" data-testid="sandbox">
            { sandbox_head(p, form.dispatcher()) }
            if let Some(e) = form_now.error.clone() { <p class="field-error" role="alert" data-testid="sandbox-error" ref={error_ref}>{ e }</p> }
            { caller_fields(l, &form_now, &on_edit) }
            { charge_fields(&ChargeFieldsProps { lang: l, form: form_now.clone(), seed: p.scenario.seed, last_key: p.last_key.clone(), on_edit: on_edit.clone(), on_submit: on_submit.clone() }) }
            { client_fields(&ClientFieldsProps { lang: l, form: form_now.clone(), on_edit: on_edit.clone(), on_submit: on_submit.clone() }) }
            { world_fields(&WorldFieldsProps { lang: l, form: form_now, on_edit, on_submit }) }
            if p.settings {
                { scenario_settings(&ScenarioSettingsProps { lang: l, scenario: p.scenario.clone(), on_change: p.on_change.clone() }) }
                { downstream_fields(l, &p.scenario, &p.on_change) }
            }
        </section>
    }
}

/// The heading and the Clear button. Clear: the same services and settings with no inputs of the
/// learner's (a challenge keeps its starting ones, so Clear starts it over); the page saves it
/// like any change, so a reload shows the empty sandbox too (Reset only rewinds).
fn sandbox_head(p: &SandboxProps, form: UseReducerDispatcher<SandboxForm>) -> Html {
    let l = p.lang;
    let fixed = p.fixed_inputs;
    let inputs = p.scenario.inputs.len().saturating_sub(fixed);
    let on_clear = {
        let (on, scenario) = (p.on_change.clone(), p.scenario.clone());
        Callback::from(move |_: MouseEvent| {
            let mut empty = (*scenario).clone();
            empty.inputs.truncate(fixed);
            empty.branch.clear();
            form.dispatch(Edit::Said(None));
            on.emit(Change::Replace(empty));
        })
    };
    html! {
        <div class="sandbox-head">
            <h2 id="sb-h">{ view::playground::SEND_REQUESTS.get(l) }</h2>
            <button onclick={on_clear} disabled={inputs == 0} data-testid="sandbox-clear"
                    title={view::playground::CLEAR_INPUTS_TITLE.get(l)}>
                { view::playground::clear_inputs(l, inputs) }</button>
        </div>
    }
}
