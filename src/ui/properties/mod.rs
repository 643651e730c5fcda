//! The property-check page (`properties/`, its own wasm): the article's proptest section run in
//! the page. Pick a property, a service, the number of cases and the seed; the run checks its
//! cases in slices with a progress bar and Cancel, and a failure is shrunk to a minimal scenario
//! that opens in the playground, each shrink step shown one at a time and each case's run step
//! by step. Every rule lives in `crate::sim::properties`; the page draws its state and keeps its
//! settings in the address (`#/properties?p=…&svc=…&n=…&seed=…`, and `&shrink=…` for the shrink
//! step shown) and in this browser.
//!
//! `state.rs` the reducer, `page.rs` the edge, `persist.rs` the address; views: `view.rs` (the
//! form, the progress, the result), `walk.rs` (the shrink steps), `case.rs` (a case and its run).

mod case;
mod page;
pub mod persist;
mod state;
mod view;
mod walk;

pub use page::{PropertiesPage, PropertiesPageProps};
pub use state::{default_settings, PropAction, PropUi, RunState, SLICE_EVENTS};

use crate::ui::app::Site;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use yew::{html, Html};

/// The property page: draws `#/properties` and hands every other route to the page that draws
/// it.
pub struct PropertiesSite;

impl Site for PropertiesSite {
    const DIR: &'static str = "properties/";

    fn render(_route: &Route, lang: Lang) -> Html {
        html! { <PropertiesPage lang={lang} /> }
    }

    fn home() -> Route {
        Route::Properties
    }
}
