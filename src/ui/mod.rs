//! The Yew UI: the run loop that feeds the simulation inputs and draws its state.
//! It may import anything; the simulation core (`crate::sim`) must not import it.

pub mod app;
pub mod durable;
pub mod glossary;
pub mod i18n;
pub mod kafka;
pub mod lab;
pub mod playground;
pub mod properties;
pub mod question;
pub mod raw;
pub mod route;
pub mod run;
pub mod share;
pub mod text;
pub mod web;

/// Mounts page `S` of the site on `<body>`: `playground::PlaygroundSite` (src/main.rs),
/// `lab::LabSite` (src/bin/lab.rs), `properties::PropertiesSite` (src/bin/properties.rs),
/// `durable::DurableSite` (src/bin/durable.rs) or `kafka::KafkaSite` (src/bin/kafka.rs).
pub fn start<S: app::Site>() {
    yew::Renderer::<app::App<S>>::new().render();
}
