//! The walk through a failure's shrink steps, as view functions: First, Previous, Next and Last
//! (buttons, the arrow keys, Home and End on them) and a slider for touch, from the case as
//! generated (0) to the last step. A step shows the edit it tried, whether the variant still
//! failed, the variant with what was removed struck through and what was made smaller marked,
//! and the variant's run step by step. The steps are the core's log (`Failure::shrink_log`);
//! each step's cases are rebuilt from it by the core.

use yew::prelude::*;

use crate::sim::properties::{Failure, ShrinkEdit, ShrinkStep, ShrinkVerdict, Touch};
use crate::sim::Scenario;
use crate::ui::i18n::Lang;
use crate::ui::text::money;
use crate::ui::text::properties::{breach_text, edit_text, input_text, verdict_text};
use crate::ui::text::view;

use super::case::{case_body, run_steps};

/// What the walk's controls do.
pub struct WalkHandlers {
    /// Show this shrink step (0: the case as generated).
    pub to: Callback<usize>,
    /// The slider moved (its value is the step).
    pub slider: Callback<InputEvent>,
}

/// The walk, at step `at` of `last` (see `PropUi::walk`).
pub fn walk(l: Lang, f: &Failure, (at, last): (usize, usize), h: &WalkHandlers) -> Html {
    let taken = f.shrink_attempts();
    let unlogged = u64::try_from(last).unwrap_or(u64::MAX) < u64::from(taken);
    let body = if at == 0 {
        html! {
            <div class="prop-walk-case" data-testid="prop-walk-case" data-verdict="start">
                { case_body(l, &f.original, "prop-original", false) }
            </div>
        }
    } else {
        step(l, f, at - 1)
    };
    html! {
        <section class="prop-walk" data-testid="prop-walk" data-at={at.to_string()}
                 data-last={last.to_string()} aria-labelledby="prop-walk-h">
            <h4 id="prop-walk-h">{ view::properties::WALK_HEADING.get(l) }</h4>
            <p class="muted">{ view::properties::WALK_INTRO.get(l) }</p>
            { nav(l, at, last, h) }
            <p class="prop-walk-pos" role="status" data-testid="prop-walk-pos">
                { view::properties::walk_position(l, at, last) }</p>
            if unlogged {
                <p class="muted" data-testid="prop-walk-unlogged">
                    { view::properties::walk_unlogged(l, last, taken) }</p>
            }
            { body }
            if at == last && at > 0 && f.shrunk() && !unlogged {
                <p class="muted" data-testid="prop-walk-end">{ view::properties::WALK_END.get(l) }</p>
            }
        </section>
    }
}

/// The buttons (the arrow keys, Home and End move too while one has the focus) and the slider.
/// A button at an end says so (`aria-disabled`) but keeps the focus a disabled one would drop.
fn nav(l: Lang, at: usize, last: usize, h: &WalkHandlers) -> Html {
    let (prev, next) = (at.saturating_sub(1), (at + 1).min(last));
    let onkeydown = {
        let to = h.to.clone();
        Callback::from(move |e: KeyboardEvent| {
            let step = match e.key().as_str() {
                "ArrowLeft" => prev,
                "ArrowRight" => next,
                "Home" => 0,
                "End" => last,
                _ => return,
            };
            e.prevent_default();
            to.emit(step);
        })
    };
    let button = |step: usize, end: bool, words: &'static str, testid: &'static str| {
        html! {
            <button onclick={h.to.reform(move |_: MouseEvent| step)} data-testid={testid}
                    aria-disabled={end.then_some("true")}>{ words }</button>
        }
    };
    html! {
        <div class="prop-walk-nav">
            <div class="prop-walk-buttons" role="group" onkeydown={onkeydown}
                 aria-label={view::properties::WALK_SLIDER.get(l)}>
                { button(0, at == 0, view::properties::FIRST.get(l), "prop-walk-first") }
                { button(prev, at == 0, view::properties::PREVIOUS.get(l), "prop-walk-prev") }
                { button(next, at == last, view::properties::NEXT.get(l), "prop-walk-next") }
                { button(last, at == last, view::properties::LAST.get(l), "prop-walk-last") }
            </div>
            <input type="range" min="0" max={last.to_string()} value={at.to_string()}
                   oninput={h.slider.clone()} data-testid="prop-walk-slider"
                   aria-label={view::properties::WALK_SLIDER.get(l)}
                   aria-valuetext={view::properties::walk_position(l, at, last)} />
            <p class="muted prop-keys kbd-hint">{ view::properties::WALK_KEYS.get(l) }</p>
        </div>
    }
}

/// Shrink step `i` of the log (from 0; the page numbers it `i + 1`).
fn step(l: Lang, f: &Failure, i: usize) -> Html {
    let (Some(s), Some(before), Some(tried)) = (
        f.shrink_log().get(i),
        f.shrink_case_before(i),
        f.shrink_candidate(i),
    ) else {
        return html! {};
    };
    let (verdict, breach) = match &s.verdict {
        ShrinkVerdict::Fails(b) => ("fail", Some(b)),
        ShrinkVerdict::Holds => ("pass", None),
        ShrinkVerdict::Refused(_) => ("refused", None),
    };
    html! {
        <div class="prop-walk-case" data-testid="prop-walk-case" data-verdict={verdict}>
            <p class="prop-edit" data-testid="prop-walk-edit">
                <strong>{ view::properties::TRIED.get(l) }</strong>{ edit_text(l, &s.edit) }</p>
            <p class={classes!("prop-verdict", verdict)} data-testid="prop-walk-verdict">
                { verdict_text(l, &s.verdict) }</p>
            { variant(l, s, &before, &tried) }
            if let Some(b) = breach {
                <p class="prop-breach" data-testid="prop-walk-breach">{ breach_text(l, b) }</p>
            }
            if verdict != "refused" {
                { run_steps(l, &tried, breach, "prop-walk", false) }
            }
        </div>
    }
}

/// The variant a step tried, drawn over the case it was made on: its starting balance, then
/// each input of that case, struck through when the edit removed it, marked (with what it was)
/// when the edit made it smaller.
fn variant(l: Lang, s: &ShrinkStep, before: &Scenario, tried: &Scenario) -> Html {
    let (from, to) = (before.initial_balance, tried.initial_balance);
    let balance = if from == to {
        view::properties::starting_balance(l, &money(to))
    } else {
        view::properties::starting_balance_changed(l, &money(from), &money(to))
    };
    let edit: &ShrinkEdit = &s.edit;
    let item = |(k, input): (usize, &crate::sim::Input)| {
        let text = input_text(l, input);
        match edit.touches(before, k) {
            Touch::Same => html! { <li>{ text }</li> },
            Touch::Removed => html! {
                <li class="prop-removed"><del>{ text }</del>{ view::properties::REMOVED.get(l) }</li>
            },
            Touch::Changed => {
                let now = tried.inputs.get(k).map(|i| input_text(l, i));
                html! {
                    <li class="prop-changed"><mark>{ now.unwrap_or_default() }</mark>
                        { view::properties::was(l, &text) }</li>
                }
            }
        }
    };
    html! {
        <>
            <p class={classes!((from != to).then_some("prop-changed"))}>{ balance }</p>
            <ol class="prop-inputs" data-testid="prop-walk-inputs">
                { for before.inputs.iter().enumerate().map(item) }
            </ol>
        </>
    }
}
