//! The playground page (`page.rs`): a built-in scenario or the sandbox, every chosen service fed
//! the same inputs side by side. Its state is one reducer (`state.rs`) whose actions forward to
//! the core's `Session`; how it opens is `open.rs`, what it remembers `saved_run.rs`, and saving
//! is an effect in `hooks.rs` (the keyboard and the play timer are every page's: `ui/run`). One
//! component per file.
//!
//! Two pages draw it: the lessons (`index.html`, [`PlaygroundSite`], with the glossary,
//! `glossary.rs`) and the sandbox with the
//! challenges (`sandbox/`, [`SandboxSite`]). Each hands it a [`Tools`] naming only its own
//! parts, as plain function pointers, so link-time optimisation leaves the sandbox form out of
//! the lessons' wasm and the lessons' words and questions out of the sandbox's.

mod build_progress;
mod caller_fields;
mod caption;
mod challenge_card;
mod charge_fields;
mod client_fields;
mod closing;
mod downstream_fields;
mod fork;
mod glossary;
mod hooks;
mod intro;
mod notice;
pub mod open;
mod page;
pub mod panel;
mod panel_tables;
mod predict;
pub mod sandbox;
pub mod sandbox_form;
pub mod saved_run;
mod scenario_nav;
mod scenario_settings;
pub mod services;
pub mod share_panel;
pub mod state;
pub mod teach;
pub mod timeline;
pub mod timeline_section;
mod wire;
mod world_fields;

use yew::prelude::*;

use crate::ui::app::{not_found, Site};
use crate::ui::i18n::Lang;
use crate::ui::route::Route;

pub use crate::ui::web::LAST_RUN_KEY;
pub use page::{Playground, PlaygroundProps, Tools};
pub use state::Notice;

/// The playground page (`index.html`, the first page a learner opens): the built-in lessons.
pub struct PlaygroundSite;

impl Site for PlaygroundSite {
    const DIR: &'static str = "";

    fn render(route: &Route, lang: Lang) -> Html {
        match route {
            Route::Scenario(id) => {
                let tools = Tools::LESSONS;
                html! { <Playground lang={lang} route={route.clone()} key={id.clone()} tools={tools} staged=true /> }
            }
            _ => match route.glossary() {
                Some(term) => glossary::glossary_page(lang, term),
                None => not_found(route, lang),
            },
        }
    }

    fn home() -> Route {
        Route::Scenario(crate::ui::route::HOME_SCENARIO.into())
    }
}

/// The sandbox page (`sandbox/`): the playground with its sandbox form and the challenges. A wasm
/// of its own, so the first page downloads none of the form's code (`playground::Tools`).
pub struct SandboxSite;

impl Site for SandboxSite {
    const DIR: &'static str = "sandbox/";

    fn render(route: &Route, lang: Lang) -> Html {
        let tools = Tools::SANDBOX;
        match route {
            Route::Sandbox => {
                html! { <Playground lang={lang} route={route.clone()} key="sandbox" dir={Self::DIR} tools={tools} staged=true /> }
            }
            Route::Challenge(id) => {
                html! { <Playground lang={lang} route={route.clone()} key={format!("challenge/{id}")} dir={Self::DIR} tools={tools} staged=true /> }
            }
            _ => not_found(route, lang),
        }
    }

    fn home() -> Route {
        Route::Sandbox
    }
}
