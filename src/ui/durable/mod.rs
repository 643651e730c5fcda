//! The durable-execution page (`durable/`, its own wasm): a workflow engine in the page. Lessons
//! at `durable/#/scenario/<id>`, challenges at `durable/#/durable/challenge/<id>`, the free run
//! at `durable/#/durable`. Every rule lives in `crate::sim::durable`; the page draws the run at
//! its cursor (`view.rs`), holds it in one reducer (`state.rs`), and keeps it in links and this
//! browser (`persist.rs`); `page.rs` wires them.

mod page;
pub mod persist;
pub mod state;
mod view;

pub use page::{DurablePage, DurablePageProps};

use crate::ui::app::Site;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use yew::{html, Html};

/// The durable-execution page: draws its lessons, challenges and free run, and hands every
/// other route to the page that draws it.
pub struct DurableSite;

impl Site for DurableSite {
    const DIR: &'static str = "durable/";

    fn render(route: &Route, lang: Lang) -> Html {
        let key = route.to_hash();
        html! { <DurablePage lang={lang} route={route.clone()} key={key} /> }
    }

    fn home() -> Route {
        Route::Scenario(crate::sim::durable::LESSON_IDS[0].into())
    }
}
