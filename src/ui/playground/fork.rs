//! The fork control (`[data-testid=fork]`): at the step on screen, change what happens next — the
//! fault of an attempt still on its way to the server, one more retry by hand, a crash of the
//! server, a jump in time — and the run branches there (RaftScope's fork: the steps so far stay,
//! what follows is run again; `Session::fork` checks the change against every column). A view
//! function, not a component: its choices are buttons and selects that act at once.
//!
//! In a lesson with a question still open, the control waits until it is answered or skipped:
//! a fork rebuilds the run, and the steps after the question would give the answer away.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::sim::{Fault, Input, Session};
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view};
use crate::ui::web;

use super::state::{Action, Notice};

/// What [`fork_panel`] draws.
pub struct ForkProps<'a> {
    /// Page language.
    pub lang: Lang,
    /// The run, at its cursor.
    pub session: &'a Session,
    /// A question waits: no fork until it is answered or skipped.
    pub waiting: bool,
    /// The outcome of the last fork.
    pub notice: Option<&'a Notice>,
    /// Drawn open: the learner left it open (`PageState::fork_open`). Opening or folding it
    /// saves the choice; the element keeps its own state until the page opens again.
    pub open: bool,
    /// Where a fork goes.
    pub on: &'a Callback<Action>,
}

/// The fork control.
#[inline(never)]
pub fn fork_panel(p: &ForkProps) -> Html {
    let l = p.lang;
    let s = p.session;
    let k = s.position();
    let branch = &s.scenario().branch;
    let steps: Vec<String> = branch.iter().map(|b| b.at_step.to_string()).collect();
    let body = if p.waiting {
        html! { <p class="muted">{ view::playground::FORK_WAITING.get(l) }</p> }
    } else {
        fork_choices(p)
    };
    // Open or folded as the learner left it, over a reload too.
    let open = p.open;
    let ontoggle = Callback::from(|e: Event| {
        let el: web_sys::Element = e.target_unchecked_into();
        web::save(
            web::FORK_KEY,
            if el.has_attribute("open") {
                "open"
            } else {
                "closed"
            },
        );
    });
    html! {
        <details class="fork card" data-testid="fork" data-forks={branch.len().to_string()} {open} {ontoggle}>
            <summary>{ view::playground::fork_summary(l, k) }</summary>
            { body }
            if let Some(n) = p.notice {
                { match n {
                    Notice::Error(t) => html! { <p class="notice error" role="alert" data-testid="fork-notice">{ t.clone() }</p> },
                    Notice::Info(t) => html! { <p class="notice info" data-testid="fork-notice">{ t.clone() }</p> },
                } }
            }
            if !steps.is_empty() {
                <p class="muted" data-testid="fork-branch">{ view::playground::forked_at(l, &steps) }</p>
            }
        </details>
    }
}

/// What the learner can change at the cursor: the fault of each attempt on its way, a retry by
/// hand, a crash, a jump in time.
fn fork_choices(p: &ForkProps) -> Html {
    let l = p.lang;
    let s = p.session;
    let fork = |input: Input| {
        let on = p.on.clone();
        Callback::from(move |_: MouseEvent| on.emit(Action::Fork(input.clone(), l)))
    };
    let pending = s.pending_attempts();
    let faults = pending
        .iter()
        .map(|&(op, attempt, now)| fault_select(p, op, attempt, now));
    let clients = s
        .worlds()
        .first()
        .is_some_and(|w| !w.client_results().is_empty());
    html! { <>
        <p class="muted">{ view::playground::FORK_INTRO.get(l) }</p>
        if pending.is_empty() {
            <p class="muted">{ view::playground::NOTHING_ON_ITS_WAY.get(l) }</p>
        }
        { for faults }
        <div class="fork-actions">
            <button data-testid="fork-retry" disabled={!clients} onclick={fork(Input::Retry { new_key: false, fault: Fault::None })}>
                { view::playground::FORK_RETRY.get(l) }</button>
            <button data-testid="fork-crash" onclick={fork(Input::Crash)}>{ view::playground::FORK_CRASH.get(l) }</button>
            { for view::playground::FORK_JUMPS.iter().map(|&(ms, words)| html! {
                <button data-testid="fork-time" data-ms={ms.to_string()} onclick={fork(Input::AdvanceTime { ms })}>{ words.get(l) }</button>
            }) }
        </div>
        <p class="muted" data-testid="fork-time-note">{ view::playground::FORK_TIME_NOTE.get(l) }</p>
    </> }
}

/// The fault of operation `op`'s attempt `attempt`, on its way (`now`: its fault so far).
fn fault_select(p: &ForkProps, op: u32, attempt: u32, now: Fault) -> Html {
    let l = p.lang;
    let on = p.on.clone();
    let onchange = Callback::from(move |e: Event| {
        let sel: HtmlSelectElement = e.target_unchecked_into();
        if let Some(&fault) = Fault::EVERY.iter().find(|f| f.id() == sel.value()) {
            on.emit(Action::Fork(Input::SetFault { op, attempt, fault }, l));
        }
    });
    let n = op + 1;
    html! {
        <label class="fork-fault">{ view::playground::fork_fault_label(l, n, attempt) }
            <select data-testid="fork-fault" data-op={n.to_string()} data-attempt={attempt.to_string()} {onchange}>
                { for Fault::EVERY.iter().map(|f| html! {
                    <option value={f.id()} selected={*f == now}>{ text::fault_name(l, *f) }</option>
                }) }
            </select>
        </label>
    }
}
