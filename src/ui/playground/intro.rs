//! The card above the run: a lesson (its number, title and story, then its question: predict,
//! then reveal), a challenge, or what the sandbox is for.

use yew::prelude::*;

use crate::sim::Session;
use crate::ui::i18n::{tr, Lang};
use crate::ui::route::Route;

use super::challenge_card::Standing;
use super::lessons::{self, Lesson};
use super::state::{Action, PageState};

/// What [`intro`] draws.
pub struct IntroProps<'a> {
    /// Page language.
    pub lang: Lang,
    /// The page's parts (the challenge card, the question).
    pub tools: super::page::Tools,
    /// Where the page is.
    pub route: &'a Route,
    /// The run on screen is not the lesson as written (other services, an import).
    pub changed: bool,
    /// The page's state (the question, the challenge).
    pub state: &'a PageState,
    /// The run, once built.
    pub session: Option<&'a Session>,
    /// Where the question's and the challenge's buttons go.
    pub on: &'a Callback<Action>,
}

/// The lesson card, the challenge card or the sandbox card; nothing on other routes.
#[inline(never)]
pub fn intro(p: &IntroProps) -> Html {
    let l = p.lang;
    let teach = &p.state.teach;
    if let (Some(c), Some(run), Some(card)) = (&teach.challenge, &p.state.run, p.tools.challenge) {
        let position = p.session.map_or(0, Session::position);
        // At the run's last step with the goal not met, these moves do not win.
        let standing = match (teach.won, p.session) {
            (true, _) => Standing::Won,
            (false, Some(s)) if s.at_end() && s.total() > 0 => Standing::Ended,
            _ => Standing::Open,
        };
        return card(l, c, &run.scenario, position, standing, p.on);
    }
    let lesson = match p.route {
        Route::Scenario(id) => lessons::lesson(id),
        _ => None,
    };
    // The first step this run was forked at, if it was.
    let forked = p
        .state
        .run
        .as_ref()
        .and_then(|r| r.scenario.branch.first().map(|b| b.at_step));
    html! { <>
        if let Some(ls) = lesson {
            <section class="lesson card" data-testid="lesson">
                <h2><span class="lesson-number">{ lessons::number(ls.id).unwrap_or_default() }</span>{ " " }{ Lesson::pick(l, ls.title) }</h2>
                if let Some(w) = p.tools.words.and_then(|words| words(ls.id)) {
                    <p>{ Lesson::pick(l, w.story) }</p>
                    if let (Some(pred), Some(s), Some(block)) = (&teach.prediction, p.session, p.tools.predict) {
                        { block(l, w, pred, s, p.on) }
                    }
                }
                if p.changed {
                    <p class="notice info" data-testid="lesson-changed" data-forked={forked.is_some().to_string()}>{ l.t(
                        "The run below is not this lesson as written (its services were changed or a scenario was imported): the question is asked of the run as it is now. “Restore the lesson as written” brings the lesson back.",
                        "下の実行は書かれたとおりのレッスンではない（サービスを変えたか、シナリオを読み込んだ）。問いは今の実行について問う。「レッスンを元に戻す」で元のレッスンに戻る。") }
                        if let Some(k) = forked { { " " }{ tr!(l, "It was forked at step {k}.", "ステップ {k} で分岐している。") } }</p>
                }
            </section>
        }
        if matches!(p.route, Route::Sandbox) {
            <section class="lesson card">
                <h2>{ l.t("Sandbox", "サンドボックス") }</h2>
                <p>{ l.t(
                    "Send charges with a key you choose, break the network or the server on purpose, retry with the same key or a new one, and watch every service take the same inputs.",
                    "自分で選んだキーで課金を送り、ネットワークやサーバーをわざと壊し、同じキーか新しいキーでリトライして、すべてのサービスが同じ入力をどう扱うかを見る。") }</p>
            </section>
        }
    </> }
}
