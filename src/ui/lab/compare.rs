//! The same schedule through two services side by side: the stepper's model and the atomic one
//! (or TOCTOU, when the stepper already runs the atomic service). Where the lock makes a request
//! wait, the wait is listed, so the learner sees exactly what the lock changed.

use yew::prelude::*;

use crate::ui::text::money;

use crate::sim::lab::{adapt_schedule, Model, Stepper, Wait};
use crate::ui::i18n::Lang;
use crate::ui::text::lab::{model_short, result_text};
use crate::ui::text::view;

/// Props of [`ComparePanel`].
#[derive(Properties, PartialEq)]
pub struct ComparePanelProps {
    /// Page language.
    pub lang: Lang,
    /// The learner's run.
    pub stepper: Stepper,
}

struct WaitSpan {
    request: usize,
    holder: usize,
    first: usize,
    last: usize,
}

/// TOCTOU next to atomic on the same schedule.
#[component(ComparePanel)]
pub fn compare_panel(props: &ComparePanelProps) -> Html {
    let lang = props.lang;
    let run = &props.stepper;
    let scenario = run.scenario();
    let other_model = if scenario.model() == Model::Atomic {
        Model::TocTou
    } else {
        Model::Atomic
    };
    let adapted = adapt_schedule(scenario.with_model(other_model), run.schedule());
    let other = &adapted.run;
    let k = scenario.requests();
    let yes_no = |b: bool| view::lab::double_charged(lang, b);
    html! {
        <section class="lab-compare card" aria-labelledby="lab-compare-h">
            <h3 id="lab-compare-h">{ view::lab::COMPARE_HEADING.get(lang) }</h3>
            <div class="lab-table-wrap">
                <table class="lab-table" data-testid="lab-compare">
                    <thead><tr>
                        <th scope="col">{ "" }</th>
                        <th scope="col">{ model_short(lang, scenario.model()) }</th>
                        <th scope="col">{ model_short(lang, other_model) }</th>
                    </tr></thead>
                    <tbody>
                        { for (0..k).map(|r| html! {
                            <tr>
                                <th scope="row" class="lab-req">{ view::lab::request(lang, r + 1) }</th>
                                <td>{ cell(lang, run, r) }</td>
                                <td>{ cell(lang, other, r) }</td>
                            </tr>
                        }) }
                        <tr>
                            <th scope="row">{ view::lab::BALANCE.get(lang) }</th>
                            <td>{ money(run.state().balance()) }</td>
                            <td>{ money(other.state().balance()) }</td>
                        </tr>
                        <tr>
                            <th scope="row">{ view::lab::CHARGED_TWICE.get(lang) }</th>
                            <td>{ yes_no(run.double_charged()) }</td>
                            <td>{ yes_no(other.double_charged()) }</td>
                        </tr>
                    </tbody>
                </table>
            </div>
            if !adapted.waits.is_empty() || !adapted.waiting.is_empty() {
                { wait_list(lang, other_model, &adapted.waits, adapted.waiting.len()) }
            }
        </section>
    }
}

/// Request `r`'s result in a run, or the step it takes next.
fn cell(lang: Lang, s: &Stepper, r: usize) -> String {
    match s.state().result(r) {
        Some(result) => result_text(lang, result),
        None => view::lab::running_next(lang, s.state().pc(r) + 1),
    }
}

/// One line per wait, not per deferred step: consecutive deferred steps of one request behind
/// one holder are one wait.
fn merge_waits(deferred: &[Wait]) -> Vec<WaitSpan> {
    let mut waits: Vec<WaitSpan> = Vec::new();
    for w in deferred {
        match waits.last_mut() {
            Some(last) if last.request == w.request && last.holder == w.holder => {
                last.last = w.position;
            }
            _ => waits.push(WaitSpan {
                request: w.request,
                holder: w.holder,
                first: w.position,
                last: w.position,
            }),
        }
    }
    waits
}

/// The waits the lock of `other_model` caused, and how many steps still wait.
fn wait_list(lang: Lang, other_model: Model, deferred: &[Wait], still_waiting: usize) -> Html {
    let model = model_short(lang, other_model);
    html! {
        <ul class="lab-waits">
            { for merge_waits(deferred).iter().map(|w| {
                let steps = if w.first == w.last {
                    format!("{}", w.first + 1)
                } else {
                    format!("{}–{}", w.first + 1, w.last + 1)
                };
                let (r, h) = (w.request + 1, w.holder + 1);
                html! { <li>{ view::lab::lock_wait(lang, model, r, h, &steps) }</li> }
            }) }
            if still_waiting > 0 {
                <li>{ view::lab::still_waiting(lang, still_waiting) }</li>
            }
        </ul>
    }
}
