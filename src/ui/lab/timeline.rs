//! The steps taken so far, in order, each in a sentence: who moved, which step, what it did and
//! which locks it used. Reading it top to bottom retells the race.

use yew::prelude::*;

use crate::sim::lab::Stepper;
use crate::ui::i18n::Lang;
use crate::ui::text::lab::{action_text, locks_text, step_name};
use crate::ui::text::{self, view};

/// Props of [`ScheduleTimeline`].
#[derive(Properties, PartialEq)]
pub struct ScheduleTimelineProps {
    /// Page language.
    pub lang: Lang,
    /// The run to retell.
    pub stepper: Stepper,
}

/// The trace of the run so far.
#[component(ScheduleTimeline)]
pub fn schedule_timeline(props: &ScheduleTimelineProps) -> Html {
    let lang = props.lang;
    let model = props.stepper.scenario().model();
    let trace = props.stepper.trace();
    html! {
        <section class="lab-timeline card" aria-labelledby="lab-timeline-h">
            <h3 id="lab-timeline-h">{ view::lab::STEPS_TAKEN.get(lang) }</h3>
            if trace.is_empty() {
                <p class="muted">{ view::lab::NO_STEP_YET.get(lang) }</p>
            } else {
                <ol class="lab-trace">
                    { for trace.iter().map(|rec| {
                        let locks = locks_text(lang, rec);
                        html! {
                            <li>
                                <strong>{ view::lab::request(lang, rec.request + 1) }</strong>
                                { format!(" · {} — {}", step_name(lang, model, rec.step), action_text(lang, rec.action)) }
                                if !locks.is_empty() { <span class="muted">{ text::aside(lang, &locks) }</span> }
                            </li>
                        }
                    }) }
                </ol>
            }
        </section>
    }
}
