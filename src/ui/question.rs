//! The open question of a lesson, as every page with lessons draws it (the playground, the
//! durable-execution page, the Kafka page): the question, its choices and Skip, and a hint of
//! where the run waits. Each page computes the choices and the hint from its own core; the markup
//! and hooks (`[data-testid=predict][data-state=open]`, `button[data-choice]`, `predict-skip`)
//! are this one view's.

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::text::view::common as words;

/// "Answer now, or step on …" while the run is before `ask_at`, else "The run waits here …".
pub fn wait_hint(l: Lang, cursor: usize, ask_at: usize) -> String {
    if cursor < ask_at {
        words::answer_or_step_on(l, ask_at)
    } else {
        words::WAITS_HERE.get(l).to_string()
    }
}

/// The open question: `ask`, one button per choice (its label; `answer(i)` when pressed), Skip
/// (`skip`), and `hint`.
pub fn open_question(
    l: Lang,
    ask: &str,
    labels: impl Iterator<Item = String>,
    answer: Callback<usize>,
    skip: Callback<MouseEvent>,
    hint: &str,
) -> Html {
    let choices = labels.enumerate().map(|(i, label)| {
        html! { <button class="choice" data-choice={i.to_string()} onclick={answer.reform(move |_: MouseEvent| i)}>{ label }</button> }
    });
    html! {
        <div class="predict" data-testid="predict" data-state="open" role="group" aria-label={words::PREDICT.get(l)}>
            <p class="ask"><strong>{ words::PREDICT_LABEL.get(l) }</strong>{ ask.to_string() }</p>
            <div class="choices">{ for choices }
                <button class="skip" data-testid="predict-skip" onclick={skip}>{ words::SKIP.get(l) }</button>
            </div>
            <p class="muted hint">{ hint.to_string() }</p>
        </div>
    }
}
