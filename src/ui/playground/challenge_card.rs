//! A challenge's card: what to do, the goal and the moves left (the core's), whether it is won
//! at the cursor, a link to the learner's own solution once won, and a solution behind a click.

use yew::prelude::*;

use crate::sim::teach::Challenge;
use crate::sim::Scenario;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::share;
use crate::ui::text::teach::{goal_text, moves_text};
use crate::ui::text::view;

use super::sandbox_form::Change;
use super::state::Action;
use crate::ui::text::challenges;

/// [`challenge_card`]'s type, as the sandbox page hands it to the playground (`page::Tools`).
pub type ChallengeCard =
    fn(Lang, &Challenge, &Scenario, usize, Standing, &Callback<Action>) -> Html;

/// Where the run on the page stands against the goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// The goal is met at the cursor.
    Won,
    /// Not met, and the run has more steps.
    Open,
    /// Not met, and the run is at its end: these moves do not win.
    Ended,
}

/// The card of challenge `c`, with the run on the page (`scenario`, at step `position`).
#[inline(never)]
pub fn challenge_card(
    l: Lang,
    c: &Challenge,
    scenario: &Scenario,
    position: usize,
    standing: Standing,
    on: &Callback<Action>,
) -> Html {
    let used = c.moves_used(scenario);
    let here = Route::Challenge(c.id.to_string()).to_hash();
    let yours = format!(
        "{here}?{}",
        share::encode_query(&scenario.to_json(), position)
    );
    let solved = c.solved();
    let open_solution = on.reform(move |_| Action::Change(Change::Replace(solved.clone()), l));
    html! {
        <section class="lesson card challenge" data-testid="challenge" data-challenge={c.id}>
            <h2>{ view::playground::CHALLENGE_PREFIX.get(l) }{ challenges::title(l, c.id) }</h2>
            <p>{ challenges::brief(l, c.id) }</p>
            <p class="goal">{ goal_text(l, c) }</p>
            <p class="moves" data-testid="moves-left">{ moves_text(l, c, used) }</p>
            { match standing {
                Standing::Won => html! {
                    <p class="status won" data-testid="challenge-status" data-state="won" role="status">
                        { view::playground::CHALLENGE_WON.get(l) }
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
        </section>
    }
}
