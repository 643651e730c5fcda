//! Yew component tests for the page shell, in headless Chromium (wasm-pack test --headless --chrome).
#![cfg(target_arch = "wasm32")]

use idempotency_playground::ui::app::App;
use idempotency_playground::ui::playground::PlaygroundSite;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn mount() -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<App<PlaygroundSite>>::with_root(div.clone()).render();
    div
}

fn heading(root: &web_sys::Element) -> String {
    root.query_selector("h1")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap()
}

#[wasm_bindgen_test]
async fn language_button_switches_every_header_string() {
    let root = mount();
    yew::scheduler::flush().await;
    let before = heading(&root);
    let button: web_sys::HtmlElement = root
        .query_selector("[data-testid=lang-toggle]")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    button.click();
    yew::scheduler::flush().await;
    let after = heading(&root);
    assert_ne!(before, after);
    assert!(
        [before.as_str(), after.as_str()].contains(&"冪等性キー・プレイグラウンド"),
        "one of {before:?} / {after:?} must be the Japanese title"
    );
    assert!([before.as_str(), after.as_str()].contains(&"Idempotency keys playground"));
    root.remove();
}
