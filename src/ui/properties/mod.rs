//! The property-check page (`properties/`, its own wasm): the article's proptest section run in
//! the page. Pick a property, a service, the number of cases and the seed; the run checks its
//! cases in slices with a progress bar and Cancel, and a failure is shrunk to a minimal scenario
//! that opens in the playground. Every rule lives in `crate::sim::properties`; the page draws
//! its state and keeps its settings in the address (`#/properties?p=…&svc=…&n=…&seed=…`) and in
//! this browser.

mod page;
pub mod persist;
mod state;
mod view;

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
