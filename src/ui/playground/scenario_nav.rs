//! The list of built-in lessons and the sandbox, with the current one marked.

use yew::prelude::*;

use crate::sim::builtin_ids;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;

use super::lessons;

/// What [`scenario_nav`] draws.
#[derive(PartialEq)]
pub struct ScenarioNavProps {
    /// Page language.
    pub lang: Lang,
    /// Where the page is.
    pub route: Route,
}

/// Links to every lesson and to the sandbox.
pub fn scenario_nav(p: &ScenarioNavProps) -> Html {
    let (l, route) = (p.lang, &p.route);
    let picker = builtin_ids().iter().map(|id| {
        let title = lessons::lesson(id).map(|ls| lessons::Lesson::pick(l, ls.title).to_string()).unwrap_or_else(|| (*id).to_string());
        let active = matches!(route, Route::Scenario(r) if r == id);
        html! { <li><a href={Route::Scenario((*id).into()).to_hash()} class={classes!(active.then_some("active"))}
                       aria-current={active.then_some("page")}>{ title }</a></li> }
    });
    html! {
        <nav aria-label={l.t("Scenarios", "シナリオ")}><ul class="scenario-picker">{ for picker }
            <li><a href="#/sandbox" class={classes!(matches!(route, Route::Sandbox).then_some("active"))}>{ l.t("Sandbox", "サンドボックス") }</a></li>
        </ul></nav>
    }
}
