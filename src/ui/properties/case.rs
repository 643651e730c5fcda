//! A case in words, as view functions: its starting balance, its inputs, how it broke the
//! property, and its run step by step, each step numbered as the breach and the playground
//! number them, so "step 5" in a sentence is a line the learner can find.

use yew::prelude::*;

use crate::sim::properties::{run_case, Breach, Counterexample};
use crate::sim::{Scenario, TraceEvent, World};
use crate::ui::i18n::Lang;
use crate::ui::text::events::LANE_NAMES;
use crate::ui::text::money;
use crate::ui::text::properties::{breach_text, input_text};
use crate::ui::text::{event_text, fmt_ms, input_error, view, Tone};

/// Most steps of one run the page lists (a generated case takes fewer than 250); the rest are
/// counted, and the playground shows them all.
pub const RUN_STEPS_SHOWN: usize = 400;

/// A counterexample: its starting balance, its inputs, how it broke the property and its run
/// (listed open when `open`). `testid` names its parts for the tests (`{testid}-inputs`, …).
pub fn case_body(l: Lang, c: &Counterexample, testid: &'static str, open: bool) -> Html {
    let balance = money(c.scenario.initial_balance);
    html! {
        <>
            <p>{ view::properties::starting_balance(l, &balance) }</p>
            <ol class="prop-inputs" data-testid={format!("{testid}-inputs")}>
                { for c.scenario.inputs.iter().map(|i| html! { <li>{ input_text(l, i) }</li> }) }
            </ol>
            <p class="prop-breach" data-testid={format!("{testid}-breach")}>{ breach_text(l, &c.breach) }</p>
            { run_steps(l, &c.scenario, Some(&c.breach), testid, open) }
        </>
    }
}

/// The steps of `breach` to point at: where the property broke, and where the key was first
/// answered when that is what the retry came after.
fn marked_steps(breach: Option<&Breach>) -> (Option<usize>, Option<usize>) {
    let answered = match breach {
        Some(Breach::BalanceMoved { answered_at, .. }) => Some(*answered_at),
        _ => None,
    };
    (breach.and_then(Breach::step), answered)
}

/// A case's run, step by step, in a `<details>` (open when `open`): each step's number, time
/// and events, the steps the breach names pointed at. At most [`RUN_STEPS_SHOWN`] steps.
pub fn run_steps(
    l: Lang,
    case: &Scenario,
    breach: Option<&Breach>,
    testid: &'static str,
    open: bool,
) -> Html {
    let world = match run_case(case) {
        Ok(Some(world)) => world,
        Ok(None) => return html! {},
        Err(e) => return html! { <p class="field-error">{ input_error(l, &e) }</p> },
    };
    let steps = world.steps_taken();
    let marks = marked_steps(breach);
    let mut events = world.trace().iter().peekable();
    let rows = (1..=steps.min(RUN_STEPS_SHOWN)).map(|step| {
        let mut of_step = Vec::new();
        while let Some(e) = events.next_if(|e| e.step == step) {
            of_step.push(e);
        }
        step_row(l, &world, step, &of_step, marks)
    });
    let rows: Vec<Html> = rows.collect();
    html! {
        <details class="prop-run" open={open} data-testid={format!("{testid}-run")}
                 data-steps={steps.to_string()}>
            <summary>{ view::properties::run_steps(l, steps) }</summary>
            <ol class="prop-steps">{ for rows }</ol>
            if steps > RUN_STEPS_SHOWN {
                <p class="muted">{ view::properties::more_steps(l, steps - RUN_STEPS_SHOWN) }</p>
            }
        </details>
    }
}

/// One step: "Step 5 · 12 ms", its events each with its lane, and a pointer when the breach
/// names it (`marks`: where it broke, where the key was first answered).
fn step_row(
    l: Lang,
    world: &World,
    step: usize,
    events: &[&TraceEvent],
    (broke, answered): (Option<usize>, Option<usize>),
) -> Html {
    let time = fmt_ms(l, events.first().map_or(0, |e| e.time_ms));
    let mark = if broke == Some(step) {
        Some(view::properties::BROKE_HERE.get(l))
    } else if answered == Some(step) {
        Some(view::properties::FIRST_ANSWER_HERE.get(l))
    } else {
        None
    };
    let event = |e: &&TraceEvent| {
        let (text, tone) = event_text(l, world, &e.kind);
        let lane = LANE_NAMES[e.kind.lanes().0 as usize].get(l);
        let (class, sign) = match tone {
            Tone::Bad => ("tone-bad", "✕ "),
            Tone::Good => ("tone-good", "✓ "),
            Tone::Plain => ("tone-plain", ""),
        };
        html! { <li class={class}>{ view::properties::event_line(l, lane, &format!("{sign}{text}")) }</li> }
    };
    html! {
        <li class={classes!("prop-step", mark.is_some().then_some("prop-step-marked"))}
            data-step={step.to_string()}>
            <span class="prop-step-n">{ view::properties::step_number(l, step, &time) }</span>
            if let Some(m) = mark {
                <strong class="prop-step-mark">{ m }</strong>
            }
            <ul class="prop-step-events">{ for events.iter().map(event) }</ul>
        </li>
    }
}
