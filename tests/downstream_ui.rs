//! Issue 13 (downstream) in headless Chromium: the slow-processor lesson's question and answer
//! on the page, the processor's lane in the timeline, and the sandbox's downstream settings.
#![cfg(target_arch = "wasm32")]

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::route::Route;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod page;
use page::{el, mount};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn slow_processor_lesson_asks_then_shows_two_charges_on_the_processor_lane() {
    let div = mount(Route::Scenario("slow-processor".into()), Lang::En).await;
    el(&div, "[data-testid=run-to-end]").click();
    yew::scheduler::flush().await;
    let predict = el(&div, "[data-testid=predict]");
    assert_eq!(predict.get_attribute("data-state").as_deref(), Some("open"));
    let choices = div
        .query_selector_all("[data-testid=predict] button[data-choice]")
        .unwrap();
    let two = (0..choices.length())
        .map(|i| {
            choices
                .item(i)
                .unwrap()
                .dyn_into::<web_sys::HtmlElement>()
                .unwrap()
        })
        .find(|b| b.text_content().as_deref() == Some("2"))
        .expect("2 is a choice");
    two.click();
    yew::scheduler::flush().await;
    let predict = el(&div, "[data-testid=predict]");
    assert_eq!(
        predict.get_attribute("data-state").as_deref(),
        Some("right")
    );
    el(&div, "[data-testid=run-to-end]").click();
    yew::scheduler::flush().await;
    let balance = el(
        &div,
        "section[data-service=production] [data-testid=balance]",
    );
    assert_eq!(balance.text_content().as_deref(), Some("800"));
    let lanes = el(&div, "[data-testid=timeline]")
        .text_content()
        .unwrap_or_default();
    assert!(lanes.contains("Processor"), "{lanes}");
    div.remove();
}

#[wasm_bindgen_test]
async fn sandbox_offers_the_downstream_settings_in_japanese() {
    let div = mount(Route::Sandbox, Lang::Ja).await;
    let fields = el(&div, "[data-testid=downstream-fields]");
    let words = fields.text_content().unwrap_or_default();
    assert!(words.contains("決済代行"), "{words}");
    let pass: web_sys::HtmlInputElement = el(&div, "[data-testid=pass-key]").dyn_into().unwrap();
    assert!(!pass.checked());
    pass.click();
    yew::scheduler::flush().await;
    let pass: web_sys::HtmlInputElement = el(&div, "[data-testid=pass-key]").dyn_into().unwrap();
    assert!(pass.checked(), "the setting is the scenario's now");
    // The new faults are in the per-try menu.
    let faults = div.text_content().unwrap_or_default();
    assert!(faults.contains("キーストアに届かない"));
    div.remove();
}
