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
use crate::ui::i18n::{tr, Lang};
use crate::ui::text;
use crate::ui::web;

use super::state::{Action, Notice};

/// Time jumps offered: a second, past the production service's 90 s in-flight lock, past a day's
/// retention.
const JUMPS: [(u64, &str, &str); 3] = [
    (1_000, "+1 s", "+1 秒"),
    (91_000, "+91 s", "+91 秒"),
    (25 * 3_600_000, "+25 h", "+25 時間"),
];

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
    let fork = |input: Input| {
        let on = p.on.clone();
        Callback::from(move |_: MouseEvent| on.emit(Action::Fork(input.clone(), l)))
    };
    let branch = &s.scenario().branch;
    let steps: Vec<String> = branch.iter().map(|b| b.at_step.to_string()).collect();
    let body = if p.waiting {
        html! { <p class="muted">{ l.t(
        "Answer or skip the question first: a fork runs the rest again, and would show its answer.",
        "先に問いに答えるかスキップしてください。分岐すると残りを実行し直すので答えが見えてしまう。") }</p> }
    } else {
        let pending = s.pending_attempts();
        let faults = pending.iter().map(|&(op, attempt, now)| {
            let on = p.on.clone();
            let onchange = Callback::from(move |e: Event| {
                let sel: HtmlSelectElement = e.target_unchecked_into();
                if let Some(&fault) = Fault::EVERY.iter().find(|f| f.id() == sel.value()) {
                    on.emit(Action::Fork(Input::SetFault { op, attempt, fault }, l));
                }
            });
            let n = op + 1;
            html! {
                <label class="fork-fault">{ tr!(l, "#{n} try {attempt} (on its way):", "#{n} 試行{attempt}（送信中）：") }
                    <select data-testid="fork-fault" data-op={n.to_string()} data-attempt={attempt.to_string()} {onchange}>
                        { for Fault::EVERY.iter().map(|f| html! {
                            <option value={f.id()} selected={*f == now}>{ text::fault_name(l, *f) }</option>
                        }) }
                    </select>
                </label>
            }
        });
        let clients = s
            .worlds()
            .first()
            .is_some_and(|w| !w.client_results().is_empty());
        html! { <>
            <p class="muted">{ l.t(
                "Change what happens next: the steps up to here stay as they were, the rest runs again. Back shows the same past.",
                "この先に起きることを変える。ここまでのステップはそのままで、残りを実行し直す。戻るで同じ過去が見える。") }</p>
            if pending.is_empty() {
                <p class="muted">{ l.t("No request is on its way to the server at this step.", "このステップでサーバーへ向かっているリクエストはない。") }</p>
            }
            { for faults }
            <div class="fork-actions">
                <button data-testid="fork-retry" disabled={!clients} onclick={fork(Input::Retry { new_key: false, fault: Fault::None })}>
                    { l.t("Retry the last client now (same key; its own retries stop)", "最後のクライアントを今リトライ（同じキー。自動のリトライは止まる）") }</button>
                <button data-testid="fork-crash" onclick={fork(Input::Crash)}>{ l.t("Crash the server", "サーバーをクラッシュ") }</button>
                { for JUMPS.iter().map(|&(ms, en, ja)| html! {
                    <button data-testid="fork-time" data-ms={ms.to_string()} onclick={fork(Input::AdvanceTime { ms })}>{ l.t(en, ja) }</button>
                }) }
            </div>
            <p class="muted" data-testid="fork-time-note">{ l.t(
                "A jump in time lets whatever falls due before then happen first: retries, timeouts, answers on their way.",
                "時間を進めると、その間に予定されていたこと（リトライ、タイムアウト、届く途中の応答）が先に起きる。") }</p>
        </> }
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
            <summary>{ tr!(l, "Fork the run at step {k}", "ステップ {k} で実行を分岐") }</summary>
            { body }
            if let Some(n) = p.notice {
                { match n {
                    Notice::Error(t) => html! { <p class="notice error" role="alert" data-testid="fork-notice">{ t.clone() }</p> },
                    Notice::Info(t) => html! { <p class="notice info" data-testid="fork-notice">{ t.clone() }</p> },
                } }
            }
            if !steps.is_empty() {
                <p class="muted" data-testid="fork-branch">{ tr!(l, ["Forked at step {}.", steps.join(", ")], ["ステップ {} で分岐した。", steps.join("、")]) }</p>
            }
        </details>
    }
}
