//! Shared by the playground's browser tests (`tests/ui_playground.rs`, `tests/downstream_ui.rs`,
//! `tests/fork_ui.rs`): a fresh element to mount the page into, and the page read by CSS selector.
//! A selector that matches nothing fails the test with the selector in the message.
//!
//! Each test file uses a part of this module.
#![allow(dead_code)]

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::playground::{Playground, PlaygroundProps};
use idempotency_playground::ui::route::Route;
use wasm_bindgen::JsCast;

/// A new `<div>` at the end of the document's body.
pub fn root() -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    div
}

/// The playground on `route`, as the page that draws it would mount it (its `Tools`), with no
/// remembered run or progress, rendered.
pub async fn mount(route: Route, lang: Lang) -> web_sys::Element {
    web_sys::window()
        .unwrap()
        .local_storage()
        .unwrap()
        .unwrap()
        .clear()
        .unwrap();
    let div = root();
    let props = PlaygroundProps::for_route(lang, route);
    yew::Renderer::<Playground>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    div
}

/// The first element under `root` that `selector` matches.
pub fn el(root: &web_sys::Element, selector: &str) -> web_sys::HtmlElement {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
        .dyn_into()
        .unwrap()
}

/// Clicks that element.
pub fn click(root: &web_sys::Element, selector: &str) {
    el(root, selector).click();
}

/// The first element (HTML or SVG) under `root` that `selector` matches.
pub fn any(root: &web_sys::Element, selector: &str) -> web_sys::Element {
    root.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("{selector} not found"))
}

/// Its text.
pub fn text(root: &web_sys::Element, selector: &str) -> String {
    any(root, selector).text_content().unwrap_or_default()
}

/// One of its attributes.
pub fn attr(root: &web_sys::Element, selector: &str, name: &str) -> Option<String> {
    any(root, selector).get_attribute(name)
}

/// The balance a service's panel shows, read back from its grouped digits (1,000).
pub fn balance(root: &web_sys::Element, service: &str) -> i64 {
    let selector = format!("section[data-service={service}] [data-testid=balance]");
    text(root, &selector)
        .replace(',', "")
        .parse()
        .unwrap_or_else(|e| panic!("{selector}: {e}"))
}
