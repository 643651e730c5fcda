//! The concurrency lab page (#/lab): the learner plays the scheduler over the article's services,
//! and the explorer searches every schedule. One component per file; every rule lives in
//! `crate::sim::lab`, the components only draw its state and send it the learner's choices.

mod compare;
mod controls;
mod database;
mod explorer;
mod histogram;
mod lane;
mod page;
pub mod persist;
mod settings;
mod share;
mod shared;
mod state;
mod timeline;

pub use page::{LabPage, LabPageProps};

use crate::ui::app::Site;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use yew::{html, Html};

/// The lab page (`lab/`, its own wasm): draws `#/lab` and hands every other route to the page
/// that draws it.
pub struct LabSite;

impl Site for LabSite {
    const DIR: &'static str = "lab/";

    fn render(route: &Route, lang: Lang) -> Html {
        if *route == Route::LabDatabase {
            return html! { <database::DatabasePage lang={lang} /> };
        }
        let challenge = match route {
            Route::LabChallenge(id) => Some(id.clone()),
            _ => None,
        };
        html! { <LabPage lang={lang} challenge={challenge.clone()} key={challenge.unwrap_or_default()} /> }
    }

    fn home() -> Route {
        Route::Lab
    }
}
