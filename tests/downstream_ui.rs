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
    // The retries that found the key in flight were refused (409): neither executed nor
    // replayed, and marked so; the charges were executed.
    let marks = div
        .query_selector_all("section[data-service=production] [data-testid=answer]")
        .unwrap();
    let marks: Vec<String> = (0..marks.length())
        .filter_map(|i| marks.item(i)?.text_content())
        .collect();
    assert!(
        marks
            .iter()
            .any(|m| m.contains("409") && m.ends_with("refused")),
        "{marks:?}"
    );
    assert!(
        marks
            .iter()
            .all(|m| !m.contains("Success") || m.ends_with("executed")),
        "{marks:?}"
    );
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

/// rocket-rides' recovery point is visible where it lives: under the key, in the store panel,
/// after the worker that made the charge died and before a retry resumes from it.
#[wasm_bindgen_test]
async fn the_store_panel_shows_a_recovery_point_under_its_key() {
    use idempotency_playground::*;
    let mut s = builtin("slow-processor").expect("lesson");
    s.downstream.recovery_points = true;
    s.inputs = vec![Input::Operation {
        amount: 100,
        description: "order-1".into(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Fixed { delay_ms: 30_000 },
        max_attempts: 5,
        faults: vec![Fault::CrashAfterChargeBeforeRecord],
    }];
    let world = &s.run().expect("valid")[0];
    let at = world
        .trace()
        .iter()
        .find(|e| matches!(e.kind, EventKind::ServerCrash { .. }))
        .expect("the worker dies")
        .step;
    let query = idempotency_playground::ui::share::encode_query(&s.to_json(), at);
    let window = web_sys::window().unwrap();
    let page = window.location().pathname().unwrap();
    let history = window.history().unwrap();
    let go =
        |url: &str| history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    go(&format!("#/sandbox?{query}")).unwrap();
    let div = mount(Route::Sandbox, Lang::En).await;
    yew::scheduler::flush().await;
    let position = el(&div, "[data-testid=position]")
        .text_content()
        .unwrap_or_default();
    let store = el(&div, "section[data-service=production] [data-testid=store]")
        .text_content()
        .unwrap_or_default();
    // The other tests mount on an address without a shared run.
    go(&page).unwrap();
    div.remove();
    assert!(store.contains("Recovery point: "), "{position}: {store}");
}
