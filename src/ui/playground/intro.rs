//! The card above the run: a lesson (its number, title and story, then its question: predict,
//! then reveal), a challenge, or what the sandbox is for.

use yew::prelude::*;

use crate::sim::Session;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;

use super::lessons::{self, Lesson};
use super::predict::predict_block;
use super::state::{Action, PageState};

/// What [`intro`] draws.
pub struct IntroProps<'a> {
    /// Page language.
    pub lang: Lang,
    /// The sandbox page's tools (the challenge card); none on the first page.
    pub tools: Option<super::page::Tools>,
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
    if let (Some(c), Some(run), Some(tools)) = (&teach.challenge, &p.state.run, p.tools) {
        let position = p.session.map_or(0, Session::position);
        return (tools.challenge)(l, c, &run.scenario, position, teach.won, p.on);
    }
    let lesson = match p.route {
        Route::Scenario(id) => lessons::lesson(id),
        _ => None,
    };
    html! { <>
        if let Some(ls) = lesson {
            <section class="lesson card" data-testid="lesson">
                <h2><span class="lesson-number">{ lessons::number(ls.id).unwrap_or_default() }</span>{ " " }{ Lesson::pick(l, ls.title) }</h2>
                <p>{ Lesson::pick(l, ls.story) }</p>
                if let (Some(pred), Some(s)) = (&teach.prediction, p.session) {
                    { predict_block(l, ls, pred, s, p.on) }
                }
                if p.changed {
                    <p class="notice info" data-testid="lesson-changed">{ l.t(
                        "The run below is not this lesson as written (its services were changed or a scenario was imported): the question is asked of the run as it is now. “Restore the lesson as written” brings the lesson back.",
                        "下の実行は書かれたとおりのレッスンではない（サービスを変えたか、シナリオを読み込んだ）。問いは今の実行について問う。「レッスンを元に戻す」で元のレッスンに戻る。") }</p>
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
