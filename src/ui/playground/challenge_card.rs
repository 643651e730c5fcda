//! A challenge's card: what to do, the goal and the moves left (the core's), whether it is won
//! at the cursor, a link to the learner's own solution once won, a solution behind a click (it
//! opens at its end, won), and, once won, the debrief: why the moves work, the invariants the
//! run broke (the core's, measured at the cursor) and the real failure it mirrors.

use yew::prelude::*;

use crate::sim::teach::Challenge;
use crate::sim::{Scenario, Session};
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::share;
use crate::ui::text::invariant_name;
use crate::ui::text::teach::{goal_text, moves_text};
use crate::ui::text::view;

use super::sandbox_form::Change;
use super::state::Action;
use crate::ui::run::Control;
use crate::ui::text::challenges;

/// [`challenge_card`]'s type, as the sandbox page hands it to the playground (`page::Tools`).
pub type ChallengeCard =
    fn(Lang, &Challenge, &Scenario, Option<&Session>, Standing, &Callback<Action>) -> Html;

/// Where the run on the page stands against the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The goal is met at the cursor.
    Won,
    /// The goal is met at the cursor, after the learner opened the solution: not counted.
    WonBySolution,
    /// Not met, and the run has more steps.
    Open,
    /// Not met, and the run is at its end: these moves do not win.
    Ended,
}

/// The card of challenge `c`, with the run on the page (`scenario`, run by `session` once built).
#[inline(never)]
pub fn challenge_card(
    l: Lang,
    c: &Challenge,
    scenario: &Scenario,
    session: Option<&Session>,
    standing: Standing,
    on: &Callback<Action>,
) -> Html {
    let used = c.moves_used(scenario);
    let position = session.map_or(0, Session::position);
    let here = Route::Challenge(c.id.to_string()).to_hash();
    let yours = format!(
        "{here}?{}",
        share::encode_query(&scenario.to_json(), position)
    );
    let solved = c.solved();
    // The debrief: after a win (an opened solution is run to its end, where it wins).
    let won = matches!(standing, Standing::Won | Standing::WonBySolution);
    // After an opened solution the win is no star and the link to "your" solution is hidden
    // (app.css: `.status.seen`).
    let status = if standing == Standing::Won {
        "status won"
    } else {
        "status won seen"
    };
    let debriefed = session.filter(|_| won);
    let open_solution = {
        let on = on.clone();
        Callback::from(move |_: MouseEvent| {
            on.emit(Action::OpenSolution);
            on.emit(Action::Change(Change::Replace(solved.clone()), l));
            on.emit(Action::Control(Control::End));
        })
    };
    html! {
        <section class="lesson card challenge" data-testid="challenge" data-challenge={c.id}>
            <h2>{ view::playground::CHALLENGE_PREFIX.get(l) }{ challenges::title(l, c.id) }</h2>
            <p>{ challenges::brief(l, c.id) }</p>
            <p class="goal">{ goal_text(l, c) }</p>
            <p class="moves" data-testid="moves-left">{ moves_text(l, c, used) }</p>
            { match standing {
                Standing::Won | Standing::WonBySolution => html! {
                    <p class={status} data-testid="challenge-status" data-state="won" role="status">
                        { if standing == Standing::Won { view::playground::CHALLENGE_WON.get(l) } else { view::common::MET_BY_SOLUTION.get(l) } }
                        <a href={yours} data-testid="solution-link">{ view::playground::SOLUTION_LINK.get(l) }</a>
                    </p>
                },
                Standing::Open => html! {
                    <p class="status" data-testid="challenge-status" data-state="open" role="status">{ view::playground::CHALLENGE_OPEN.get(l) }</p>
                },
                Standing::Ended => html! {
                    <p class="status failed" data-testid="challenge-status" data-state="ended" role="status">{ view::playground::CHALLENGE_ENDED.get(l) }</p>
                },
            } }
            <details class="spoiler"><summary>{ view::playground::STUCK.get(l) }</summary>
                <button onclick={open_solution} data-testid="show-solution">{ view::playground::OPEN_SOLUTION.get(l) }</button>
            </details>
            if let Some(s) = debriefed { { debrief(l, c, s) } }
        </section>
    }
}

/// The debrief (`crate::ui::question::debrief`), with the invariants the run broke by the cursor.
fn debrief(l: Lang, c: &Challenge, session: &Session) -> Html {
    let broken: Vec<(&str, usize)> = c
        .broken(session)
        .into_iter()
        .map(|(i, step)| (invariant_name(l, i), step))
        .collect();
    let (why, mirrors) = challenges::debrief(l, c.id);
    crate::ui::question::debrief(l, why, &broken, mirrors)
}
