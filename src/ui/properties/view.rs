//! The page's parts as view functions (each a plain function of the state, which costs the
//! wasm no component lifecycle code): the form, the progress of a run and its result (a case in
//! words is `case.rs`'s, the walk through its shrink steps `walk.rs`'s).

use yew::prelude::*;

use crate::sim::limits::{check_url_len, MAX_PROPERTY_CASES, MAX_PROPERTY_SEED};
use crate::sim::properties::{Counterexample, Failure, Phase, Property, PropertyRun};
use crate::sim::ServiceKind;
use crate::ui::app::href;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::share::{self, FROM_PROPERTIES};
use crate::ui::text::properties::{property_claim, property_name, setting_error};
use crate::ui::text::{grouped, input_error, service_blurb, service_name, view};

use super::case::case_body;
use super::state::{PropUi, RunState, RunView};
use super::walk::{self, WalkHandlers};
use super::PropertiesSite;

/// What the form's controls do.
pub struct FormHandlers {
    /// A property was picked (its id).
    pub property: Callback<Event>,
    /// A service was picked (its id).
    pub service: Callback<Event>,
    /// The number of cases was typed.
    pub cases: Callback<InputEvent>,
    /// A seed was typed.
    pub seed: Callback<InputEvent>,
    /// A fresh seed was asked for.
    pub new_seed: Callback<MouseEvent>,
    /// Run was pressed.
    pub run: Callback<MouseEvent>,
    /// Cancel was pressed.
    pub cancel: Callback<MouseEvent>,
    /// The Run button, which takes the focus when Cancel (about to disappear) is pressed.
    pub run_ref: NodeRef,
}

fn count(n: u32) -> String {
    grouped(n.into())
}

/// The settings form. Nothing in it is disabled while a run is under way (a disabled control
/// drops the keyboard's focus): Run starts again with the form's settings.
pub fn settings_form(l: Lang, ui: &PropUi, h: &FormHandlers) -> Html {
    let max_cases = count(MAX_PROPERTY_CASES);
    let max_seed = grouped(MAX_PROPERTY_SEED);
    html! {
        <section class="card prop-form" aria-labelledby="prop-form-h">
            <h3 id="prop-form-h">{ view::properties::WHAT_TO_CHECK.get(l) }</h3>
            <div class="prop-fields">
                <label class="prop-wide">
                    { view::properties::PROPERTY.get(l) }
                    <select onchange={h.property.clone()} data-testid="prop-property">
                        { for Property::ALL.into_iter().map(|p| html! {
                            <option value={p.id()} selected={p == ui.property}>{ property_name(l, p) }</option>
                        }) }
                    </select>
                </label>
                <label>
                    { view::properties::SERVICE.get(l) }
                    <select onchange={h.service.clone()} data-testid="prop-service">
                        { for ServiceKind::ALL.into_iter().map(|k| html! {
                            <option value={k.id()} selected={k == ui.service}>{ service_name(l, k) }</option>
                        }) }
                    </select>
                </label>
                <label>
                    { view::properties::cases_label(l, &max_cases) }
                    <input type="text" inputmode="numeric" value={ui.cases_text.clone()} oninput={h.cases.clone()}
                           data-testid="prop-cases"
                           aria-invalid={ui.cases_error.is_some().then_some("true")} />
                </label>
                <label>
                    { view::properties::seed_label(l, &max_seed) }
                    <input type="text" inputmode="numeric" value={ui.seed_text.clone()} oninput={h.seed.clone()}
                           data-testid="prop-seed"
                           aria-invalid={ui.seed_error.is_some().then_some("true")} />
                </label>
                <button onclick={h.new_seed.clone()} data-testid="prop-new-seed">
                    { view::properties::NEW_SEED.get(l) }</button>
                <button class="primary" onclick={h.run.clone()} ref={h.run_ref.clone()} data-testid="prop-run">
                    { view::properties::RUN.get(l) }</button>
            </div>
            if let Some(e) = &ui.cases_error {
                <p class="field-error" role="alert" data-testid="prop-cases-error">{ setting_error(l, e) }</p>
            }
            if let Some(e) = &ui.seed_error {
                <p class="field-error" role="alert" data-testid="prop-seed-error">{ setting_error(l, e) }</p>
            }
            <p class="prop-claim">{ property_claim(l, ui.property) }</p>
            <p class="muted">{ service_blurb(l, ui.service) }</p>
        </section>
    }
}

/// The status line, with the progress bar and Cancel while the run is under way.
pub fn status(l: Lang, run_view: Option<&RunView>, on_cancel: Callback<MouseEvent>) -> Html {
    let Some(v) = run_view else {
        return html! {
            <p class="prop-status" role="status" data-testid="prop-status" data-state="idle">
                { view::properties::NOT_RUN_YET.get(l) }</p>
        };
    };
    let (state, line) = status_line(l, v);
    let running = v.state == RunState::Running;
    html! {
        <div class="prop-progress">
            <p class="prop-status" role="status" data-testid="prop-status" data-state={state}>{ line }</p>
            if running {
                <progress max="1000" value={v.run.per_mille().to_string()}
                          aria-label={view::properties::PROGRESS.get(l)}></progress>
                <button onclick={on_cancel} data-testid="prop-cancel">{ view::properties::CANCEL.get(l) }</button>
            }
        </div>
    }
}

/// Where a run stands: its state for the tests (`data-state`) and in words.
fn status_line(l: Lang, v: &RunView) -> (&'static str, String) {
    let r = &v.run;
    let cases = count(r.settings().cases);
    let checked = count(r.checked());
    match (&v.state, r.phase()) {
        (RunState::Running, Phase::Shrinking) | (RunState::Cancelled, Phase::Shrinking) => {
            let (tried, kept) = r
                .failure()
                .map_or((0, 0), |f| (f.shrink_attempts(), f.shrinks_kept()));
            if v.state == RunState::Running {
                ("shrinking", view::properties::shrinking(l, tried, kept))
            } else {
                ("cancelled", view::properties::cancelled_shrinking(l, tried))
            }
        }
        (RunState::Running, _) => ("running", view::properties::checking(l, &checked, &cases)),
        (RunState::Cancelled, _) => (
            "cancelled",
            view::properties::cancelled_after(l, &checked, &cases),
        ),
        (RunState::Finished { elapsed_ms }, phase) => {
            let events = grouped(r.events());
            let ms = format!("{elapsed_ms:.0}");
            let state = match phase {
                Phase::Passed => "pass",
                Phase::Refused { .. } => "refused",
                _ => "fail",
            };
            (state, view::properties::finished(l, &ms, &events))
        }
    }
}

/// The outcome: every case held, or the failing case, its shrunk form and the walk through its
/// shrink steps (at `walk`, see `PropUi::walk`).
pub fn result(l: Lang, run_view: &RunView, walk: Option<(usize, usize)>, h: &WalkHandlers) -> Html {
    let r = &run_view.run;
    let s = r.settings();
    let (property, service) = (property_name(l, s.property), service_name(l, s.service));
    if let Phase::Refused { index, error } = r.phase() {
        let why = input_error(l, &error);
        return html! {
            <p class="field-error" role="alert" data-testid="prop-refused">{ view::properties::case_refused(l, index + 1, &why) }</p>
        };
    }
    match (r.failure(), &run_view.state) {
        (None, RunState::Finished { .. }) => {
            let cases = count(s.cases);
            html! {
                <section class="card prop-result pass" data-testid="prop-result" data-state="pass" aria-labelledby="prop-result-h">
                    <h3 id="prop-result-h">{ view::properties::every_case_held(l, &cases) }</h3>
                    <p>{ view::properties::kept_property(l, service, property, &cases, s.seed) }</p>
                    <p class="muted">{ view::properties::EVIDENCE_NOT_PROOF.get(l) }</p>
                </section>
            }
        }
        (Some(f), _) => {
            let walk = walk.map(|at| self::walk::walk(l, f, at, h));
            failed(l, run_view, f, (property, service), walk)
        }
        (None, _) => html! {},
    }
}

/// A failed run: which case, the minimal case it shrank to (with its run and the link to the
/// playground) once shrinking has finished or was cancelled, and `walk`, the shrink steps.
fn failed(
    l: Lang,
    run_view: &RunView,
    f: &Failure,
    (property, service): (&str, &str),
    walk: Option<Html>,
) -> Html {
    let r: &PropertyRun = &run_view.run;
    let n = f.index + 1;
    let cases = count(r.settings().cases);
    let shrinking_done = f.shrunk();
    let (tried, kept) = (f.shrink_attempts(), f.shrinks_kept());
    let inputs = view::properties::input_count(l, f.original.scenario.inputs.len());
    html! {
        <section class="card prop-result fail" data-testid="prop-result" data-state="fail" aria-labelledby="prop-result-h">
            <h3 id="prop-result-h">{ view::properties::case_failed(l, n, &cases) }</h3>
            <p>{ view::properties::broke_property(l, service, property) }</p>
            <p class="muted" data-testid="prop-failing-case">{ view::properties::failing_case(l, n, f.case_seed, &inputs) }</p>
            if shrinking_done || run_view.state == RunState::Cancelled {
                <div class="prop-minimal" data-testid="prop-minimal"
                     data-inputs={f.minimal().scenario.inputs.len().to_string()}>
                    <h4>{ view::properties::minimal_heading(l, shrinking_done, tried, kept) }</h4>
                    { case_body(l, f.minimal(), "prop-minimal", true) }
                    { open_link(l, f.minimal()) }
                </div>
            }
            { for walk }
        </section>
    }
}

/// "Open this case's run in the playground": the sandbox, at the step that broke the property,
/// with the case in the link's own address (marked `from=properties`, so the sandbox says where
/// the run came from rather than that someone shared it).
fn open_link(l: Lang, c: &Counterexample) -> Html {
    let step = c.breach.step();
    let query = share::encode_query(&c.scenario.to_json(), step.unwrap_or(0));
    let url = format!(
        "{}?{query}&{FROM_PROPERTIES}",
        href::<PropertiesSite>(&Route::Sandbox)
    );
    match check_url_len(&url) {
        Ok(()) => html! {
            <p><a class="button primary" href={url} data-testid="prop-open">
                { view::properties::OPEN_IN_PLAYGROUND.get(l) }</a>
            <span class="muted" data-testid="prop-open-note">{ view::properties::open_note(l, step) }</span></p>
        },
        Err(e) => html! {
            <p class="field-error" role="alert">{ input_error(l, &e) }</p>
        },
    }
}
