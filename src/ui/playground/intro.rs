//! The text above the run: the lesson's story, what to watch and what to remember, or what the
//! sandbox is for.

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::route::Route;

use super::lessons;

/// What [`intro`] draws.
#[derive(PartialEq)]
pub struct IntroProps {
    /// Page language.
    pub lang: Lang,
    /// Where the page is.
    pub route: Route,
    /// The run on screen is not the lesson as written (other services, an import).
    pub changed: bool,
}

/// The lesson card or the sandbox card; nothing on other routes.
pub fn intro(p: &IntroProps) -> Html {
    let l = p.lang;
    let lesson = match &p.route {
        Route::Scenario(id) => lessons::lesson(id),
        _ => None,
    };
    html! { <>
        if let Some(ls) = lesson {
            <section class="lesson card" data-testid="lesson">
                <h2>{ lessons::Lesson::pick(l, ls.title) }</h2>
                <p>{ lessons::Lesson::pick(l, ls.story) }</p>
                <p class="watch">{ lessons::Lesson::pick(l, ls.watch) }</p>
                <p class="takeaway">{ lessons::Lesson::pick(l, ls.takeaway) }</p>
                if p.changed {
                    <p class="notice info" data-testid="lesson-changed">{ l.t(
                        "The run below is not this lesson as written (its services were changed or a scenario was imported), so this text may not describe it. “Restore the lesson as written” brings the lesson back.",
                        "下の実行は書かれたとおりのレッスンではない（サービスを変えたか、シナリオを読み込んだ）ので、この説明と合わないことがある。「レッスンを元に戻す」で元のレッスンに戻る。") }</p>
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
