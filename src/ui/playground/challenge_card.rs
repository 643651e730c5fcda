//! A challenge's card: what to do, the goal and the moves left (the core's), whether it is won
//! at the cursor, a link to the learner's own solution once won, and a solution behind a click.

use yew::prelude::*;

use crate::sim::lesson::Challenge;
use crate::sim::Scenario;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::share;
use crate::ui::text::teach::{goal_text, moves_text};

use super::sandbox::Change;
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
            <h2>{ l.t("Challenge: ", "チャレンジ：") }{ challenges::title(l, c.id) }</h2>
            <p>{ challenges::brief(l, c.id) }</p>
            <p class="goal">{ goal_text(l, c) }</p>
            <p class="moves" data-testid="moves-left">{ moves_text(l, c, used) }</p>
            { match standing {
                Standing::Won => html! {
                    <p class="status won" data-testid="challenge-status" data-state="won" role="status">
                        { l.t("★ Won! The goal is met at this step. ", "★ 達成！このステップで目標を満たした。") }
                        <a href={yours} data-testid="solution-link">{ l.t("Link to your solution", "自分の解答へのリンク") }</a>
                    </p>
                },
                Standing::Open => html! {
                    <p class="status" data-testid="challenge-status" data-state="open" role="status">{ l.t(
                        "Not yet: add moves below, then step through the run; the goal is checked after every step.",
                        "まだ。下で手を加えて実行を進める。目標は1ステップごとに確かめる。") }</p>
                },
                Standing::Ended => html! {
                    <p class="status failed" data-testid="challenge-status" data-state="ended" role="status">{ l.t(
                        "Not won: the run is over and the goal is not met at its end. “Clear all inputs” below takes your moves back; try others and step through the run again.",
                        "未達成：実行は終わり、最後のステップで目標を満たしていない。下の「入力をすべて消す」で自分の手を取り消し、別の手でもう一度実行を進める。") }</p>
                },
            } }
            <details class="spoiler"><summary>{ l.t("Stuck? A solution", "行き詰まったら：解答例") }</summary>
                <button onclick={open_solution} data-testid="show-solution">{ l.t("Open a solution (it replaces your moves)", "解答例を開く（自分の手は置き換わる）") }</button>
            </details>
        </section>
    }
}
