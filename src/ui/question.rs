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

/// One choice of an answered question, as [`beliefs`] lists it: its label, the wrong belief it
/// stands for (`None` for the right one), and whether the learner picked it.
pub struct Held {
    /// The choice as the buttons showed it.
    pub label: String,
    /// The misconception that predicts this choice, in words; `None` for the right choice.
    pub belief: Option<String>,
    /// The learner's pick.
    pub picked: bool,
}

/// After the answer: every choice with the belief that predicts it, the learner's own pick
/// first marked, so a wrong answer is named and each wrong choice is shown to be one.
pub fn beliefs(l: Lang, choices: impl Iterator<Item = Held>) -> Html {
    let rows = choices.map(|h| {
        let class = classes!(
            h.belief.is_none().then_some("right"),
            h.picked.then_some("picked")
        );
        let belief = match h.belief {
            Some(b) => b,
            None => words::WHAT_THE_RUN_SHOWS.get(l).to_string(),
        };
        html! {
            <li class={class} data-testid="belief" data-picked={h.picked.to_string()}>
                <strong>{ h.label }</strong>{ words::BELIEF_SEP.get(l) }{ belief }
                if h.picked { <span class="muted">{ words::YOUR_PICK.get(l) }</span> }
            </li>
        }
    });
    html! {
        <div class="beliefs" data-testid="beliefs">
            <span class="muted">{ words::EACH_CHOICE.get(l) }</span>
            <ul>{ for rows }</ul>
        </div>
    }
}
