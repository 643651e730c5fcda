//! The steps taken so far, in order, each in a sentence: who moved, which step, what it did and
//! which locks it used. Reading it top to bottom retells the race.

use yew::prelude::*;

use crate::sim::lab::Stepper;
use crate::ui::i18n::{tr, Lang};

use crate::ui::text;
use crate::ui::text::lab::{action_text, locks_text, step_name};

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
            <h3 id="lab-timeline-h">{ lang.t("Steps taken", "実行したステップ") }</h3>
            if trace.is_empty() {
                <p class="muted">{ lang.t(
                    "No step yet. Press a request's button to move it, or let the scheduler run.",
                    "まだステップなし。リクエストのボタンで進めるか、スケジューラに任せる。") }</p>
            } else {
                <ol class="lab-trace">
                    { for trace.iter().map(|rec| {
                        let locks = locks_text(lang, rec);
                        let r = rec.request + 1;
                        html! {
                            <li>
                                <strong>{ tr!(lang, "Request {r}", "リクエスト{r}") }</strong>
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
