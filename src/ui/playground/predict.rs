//! Predict, then reveal: the lesson's question with its choices (the core's), Skip, and once
//! answered, right or wrong, the run's own answer, why (tied to the step that shows it), what
//! every service ended with, and the lesson's takeaway.

use yew::prelude::*;

use crate::sim::lesson::Value;
use crate::sim::teach::{Guess, Measure};
use crate::sim::{Session, World};
use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::{self, teach::value_text, view};

use super::sandbox_form::Change;
use super::state::Action;
use super::teach::{Answer, Prediction};
use crate::ui::text::lessons::{self, Lesson, Words};

/// What every service ended with: its balance and its charges, from the finished run, and the
/// count the question asks about when it is another (e-mails, events, 409 answers).
fn outcome(l: Lang, s: &Session, asked: Measure) -> Html {
    let other = !matches!(asked, Measure::Balance | Measure::Charges);
    let parts = (0..s.worlds().len())
        .filter_map(|i| s.finished(i))
        .map(|w: &World| {
            let (name, n) = (text::column_name(l, w.config()), w.ledger().len());
            // Each customer's account when there are several (account 0's balance was shown).
            let parts = text::account_balances(l, w);
            let mut rest = view::playground::outcome_charges(l, n);
            if let (true, v @ Value::Int(_)) = (other, asked.of(w)) {
                rest = format!("{rest}{}{}", view::playground::OUTCOME_ACCOUNT_SEP.get(l), view::playground::outcome_count(l, asked, v));
            }
            if parts.is_empty() {
                let b = w.balance();
                return html! { <li>{ view::playground::outcome_balance(l, &name, b) }{ rest }</li> };
            }
            // In parentheses: the summary separates the services with "·" already.
            html! { <li>{ view::playground::outcome_balances_open(l, &name) }
                { super::panel::account_parts(parts, view::playground::OUTCOME_ACCOUNT_SEP.get(l)) }
                { view::playground::OUTCOME_BALANCES_CLOSE.get(l) }{ rest }</li> }
        });
    html! {
        <div class="outcome" data-testid="outcome">
            <span class="muted">{ view::playground::HOW_THE_RUN_ENDS.get(l) }</span>
            <ul>{ for parts }</ul>
        </div>
    }
}

/// Every choice with the belief that predicts it (the core's), the learner's pick marked
/// (`varied` for the variation's).
fn beliefs(l: Lang, choices: &[Guess], answer: Answer, varied: bool) -> Html {
    let picked = match answer {
        Answer::Picked(v) => Some(v),
        Answer::Skipped => None,
    };
    crate::ui::question::beliefs(
        l,
        choices.iter().map(|g| crate::ui::question::Held {
            label: value_text(l, g.value),
            belief: g.belief.map(|b| lessons::belief_text(l, b)),
            picked: picked == Some(g.value),
        }),
        varied,
    )
}

/// `why` (of lesson `id`) with its `{step}` as a link that moves the run there, and the
/// glossary terms it is the first on the path to use linked (`lessons::linked`).
fn why_with_step(l: Lang, id: &str, why: &str, at: (usize, usize), on: &Callback<Action>) -> Html {
    let (column, step) = at;
    let linked = lessons::linked(l, id, 2);
    let text = linked.unwrap_or(why);
    // The lesson's `{step}` (a char search: a `str` pattern costs the wasm a searcher).
    let (before, after) = match text.find('{') {
        Some(i) => (&text[..i], text.get(i + "{step}".len()..).unwrap_or("")),
        None => (text, ""),
    };
    let (mut b, mut a) = (Raw::default(), Raw::default());
    if linked.is_some() {
        b.trusted(before);
        a.trusted(after);
    } else {
        b.text(before);
        a.text(after);
    }
    // The step of the service the question asks about: its timeline tab too, not only the
    // cursor (the timeline may be showing another column); focusing the timeline brings it into
    // view (on a phone it sits screens below the answer).
    let on = on.clone();
    let jump = Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        on.emit(Action::Tab(column));
        on.emit(Action::Control(crate::ui::run::Control::Seek(step)));
        crate::ui::web::focus_after_render("[data-testid=timeline] .tl-scroll");
    });
    html! {
        <p class="why" data-testid="why">{ b.html() }
            <a href="#" onclick={jump} data-testid="why-step">{ step.to_string() }</a>{ a.html() }</p>
    }
}

/// The takeaway of lesson `id`, with the glossary terms it is the first to use linked.
fn takeaway(l: Lang, id: &str, text: &str) -> Html {
    let mut r = Raw::default();
    r.open("p", &[("class", "takeaway")]);
    crate::ui::glossary::write_linked(&mut r, l, id, 3, text);
    r.close("p");
    r.html()
}

/// [`predict_block`]'s type, as the first page hands it to the playground (`page::Tools`).
pub type PredictBlock = fn(Lang, &Words, &Prediction, &Session, &Callback<Action>) -> Html;

/// The question block of a lesson.
#[inline(never)]
pub fn predict_block(
    l: Lang,
    lesson: &Words,
    p: &Prediction,
    s: &Session,
    on: &Callback<Action>,
) -> Html {
    let posed = match &p.posed {
        Ok(posed) => posed,
        Err(why) => {
            return html! {
                <div class="predict" data-testid="predict" data-state="not-applicable">
                    <p>{ text::teach::not_posed(l, *why) }</p>
                </div>
            }
        }
    };
    let ask = Lesson::pick(l, lesson.ask);
    // The variation's run, loaded from its question: the lesson's question is about another run
    // (judging its answer here would contradict the words); the variation's is the one to read.
    if p.on_variation {
        return html! { <>
            <div class="predict" data-testid="predict" data-state="variation">
                <p class="ask"><strong>{ view::playground::PREDICT_PREFIX.get(l) }</strong>{ ask }</p>
                <p class="muted" data-testid="on-variation">{ view::playground::ON_VARIATION.get(l) }</p>
                { outcome(l, s, p.question.measure) }
            </div>
            { transfer_block(l, p, on) }
        </> };
    }
    let Some(answer) = p.answer else {
        let labels = posed.choices.iter().map(|g| value_text(l, g.value));
        let hint = crate::ui::question::wait_hint(l, s.position(), posed.ask_at);
        let open = crate::ui::question::Open {
            testid: "predict",
            label: crate::ui::text::view::common::PREDICT_LABEL.get(l),
            ask,
            answer: on.reform(Action::Answer),
            skip: Some(on.reform(|_| Action::Skip)),
            hint: &hint,
        };
        return crate::ui::question::open_question(l, open, labels);
    };
    let right = posed.answer_value().value;
    let (state, verdict) = match answer {
        Answer::Picked(v) if v == right => (
            "right",
            view::playground::verdict_right(l, &value_text(l, right)),
        ),
        Answer::Picked(v) => (
            "wrong",
            view::playground::verdict_wrong(l, &value_text(l, v), &value_text(l, right)),
        ),
        Answer::Skipped => (
            "skipped",
            view::playground::verdict_skipped(l, &value_text(l, right)),
        ),
    };
    html! { <>
        <div class="predict" data-testid="predict" data-state={state}>
            <p class="ask"><strong>{ view::playground::PREDICT_PREFIX.get(l) }</strong>{ ask }</p>
            <p class={classes!("verdict", state)} data-testid="verdict" role="status" tabindex="-1">{ verdict }</p>
            { why_with_step(l, lesson.id, Lesson::pick(l, lesson.why), (posed.column, posed.shows_at), on) }
            { beliefs(l, &posed.choices, answer, false) }
            { outcome(l, s, p.question.measure) }
            { takeaway(l, lesson.id, Lesson::pick(l, lesson.takeaway)) }
            <button class="again" data-testid="predict-again" onclick={on.reform(|_| Action::AskAgain)}>{ view::playground::ASK_AGAIN.get(l) }</button>
        </div>
        { transfer_block(l, p, on) }
    </> }
}

/// The variation question, once the lesson's own is answered: open, then judged, with each
/// choice's belief and a button that loads the varied run from its first step.
fn transfer_block(l: Lang, p: &Prediction, on: &Callback<Action>) -> Html {
    use view::playground as w;
    let (Some(t), Some(words)) = (&p.transfer, lessons::variation(p.question.lesson)) else {
        return Html::default();
    };
    let posed = &t.1;
    let ask = Lesson::pick(l, words.ask);
    let Some(picked) = p.transfer_answer.and_then(|i| posed.choices.get(i)) else {
        let open = crate::ui::question::Open {
            testid: "transfer",
            label: view::common::VARIATION_LABEL.get(l),
            ask,
            answer: on.reform(Action::AnswerTransfer),
            skip: None,
            hint: "",
        };
        let labels = posed.choices.iter().map(|g| value_text(l, g.value));
        return crate::ui::question::open_question(l, open, labels);
    };
    let right = posed.answer_value().value;
    let (state, verdict) = if picked.value == right {
        ("right", w::verdict_right(l, &value_text(l, right)))
    } else {
        let said = value_text(l, picked.value);
        ("wrong", w::verdict_wrong(l, &said, &value_text(l, right)))
    };
    // Handler-free but for the button: one string (`crate::ui::raw`).
    let mut r = Raw::default();
    r.open("p", &[("class", "ask")])
        .el("strong", &[], view::common::VARIATION_LABEL.get(l))
        .text(ask)
        .close("p")
        .el(
            "p",
            &[
                ("class", &format!("verdict {state}")),
                ("role", "status"),
                ("tabindex", "-1"),
            ],
            &verdict,
        )
        .el("p", &[("class", "why")], Lesson::pick(l, words.why));
    let (varied, on) = (t.0.clone(), on.clone());
    let load = Callback::from(move |_: MouseEvent| {
        on.emit(Action::Change(Change::Replace(varied.clone()), l));
        on.emit(Action::Control(crate::ui::run::Control::Reset));
    });
    html! {
        <div class="predict transfer" data-testid="transfer" data-state={state}>
            { r.html() }
            { beliefs(l, &posed.choices, Answer::Picked(picked.value), true) }
            <button data-testid="run-variation" onclick={load}>{ view::common::RUN_VARIATION.get(l) }</button>
        </div>
    }
}
