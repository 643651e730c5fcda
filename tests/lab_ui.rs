//! The lab page in headless Chromium (`wasm-pack test --headless --chrome -- --test lab_ui`):
//! the learner clicks request lanes through the TOCTOU race and the page shows the double charge;
//! the atomic service blocks; the explorer counts 1,680 schedules and its counterexample loads.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::lab::{LabPage, LabPageProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

async fn mount(lang: Lang) -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<LabPage>::with_root_and_props(div.clone(), LabPageProps { lang }).render();
    yew::scheduler::flush().await;
    div
}

fn find(root: &web_sys::Element, testid: &str) -> Option<web_sys::Element> {
    root.query_selector(&format!("[data-testid={testid}]"))
        .unwrap()
}

fn get(root: &web_sys::Element, testid: &str) -> web_sys::Element {
    find(root, testid).unwrap_or_else(|| panic!("no [data-testid={testid}]"))
}

fn text(root: &web_sys::Element, testid: &str) -> String {
    get(root, testid).text_content().unwrap_or_default()
}

fn disabled(root: &web_sys::Element, testid: &str) -> bool {
    // Yew renders `disabled={true}` as the attribute; HtmlButtonElement is not a web-sys feature
    // this crate enables.
    get(root, testid).has_attribute("disabled")
}

async fn click(root: &web_sys::Element, testid: &str) {
    get(root, testid)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    yew::scheduler::flush().await;
}

/// Clicks the lane buttons of `schedule` (1-based request numbers, as the page shows them).
async fn step_lanes(root: &web_sys::Element, schedule: &[usize]) {
    for &r in schedule {
        let id = format!("lab-step-{}", r - 1);
        assert!(!disabled(root, &id), "{id} should be enabled");
        click(root, &id).await;
    }
}

async fn select(root: &web_sys::Element, testid: &str, value: &str) {
    let el = get(root, testid)
        .dyn_into::<web_sys::HtmlSelectElement>()
        .unwrap();
    el.set_value(value);
    let ev = web_sys::Event::new("change").unwrap();
    el.dispatch_event(&ev).unwrap();
    yew::scheduler::flush().await;
}

#[wasm_bindgen_test]
async fn clicking_lanes_through_the_toctou_race_shows_two_successes() {
    let root = mount(Lang::En).await;
    assert!(find(&root, "lab-double-charge").is_none());
    // Request 1 checks and charges; request 2 checks before request 1 stores: nothing stored,
    // so it charges too.
    step_lanes(&root, &[1, 1, 2, 2]).await;
    assert!(
        text(&root, "lab-double-charge").contains("charged more than once"),
        "the alert shows the moment the second charge happens"
    );
    step_lanes(&root, &[2, 1]).await;
    assert_eq!(text(&root, "lab-successes"), "2");
    assert_eq!(text(&root, "lab-charges"), "2");
    assert_eq!(text(&root, "lab-balance"), "800");
    assert!(text(&root, "lab-status-0").contains("Finished: returned Success"));
    assert!(text(&root, "lab-status-1").contains("Finished: returned Success"));
    assert!(disabled(&root, "lab-step-0"));
    // Request 3 comes late: it finds the stored result and returns a duplicate.
    step_lanes(&root, &[3]).await;
    assert!(text(&root, "lab-status-2").contains("DuplicateRequest"));
    step_lanes(&root, &[3, 3]).await;
    assert!(disabled(&root, "lab-step-2"));
    assert_eq!(text(&root, "lab-schedule"), "1 1 2 2 2 1 3 3 3");
    // The same schedule through the atomic service: one success, nobody charged twice.
    let compare = text(&root, "lab-compare");
    assert!(compare.contains("yes — double charge"), "{compare}");
    assert!(compare.contains("no"), "{compare}");
    // Step back undoes exactly one step.
    click(&root, "lab-back").await;
    assert_eq!(text(&root, "lab-schedule"), "1 1 2 2 2 1 3 3");
    assert!(!disabled(&root, "lab-step-2"));
    click(&root, "lab-reset").await;
    assert_eq!(text(&root, "lab-successes"), "0");
    assert!(find(&root, "lab-double-charge").is_none());
}

#[wasm_bindgen_test]
async fn the_atomic_service_blocks_the_others_while_one_holds_the_lock() {
    let root = mount(Lang::En).await;
    select(&root, "lab-model", "atomic").await;
    click(&root, "lab-apply").await;
    step_lanes(&root, &[2]).await;
    assert!(disabled(&root, "lab-step-0"));
    assert!(disabled(&root, "lab-step-2"));
    assert!(text(&root, "lab-status-0").contains("Blocked"));
    assert!(text(&root, "lab-locks").contains("held by request 2"));
    step_lanes(&root, &[2, 2]).await;
    assert!(!disabled(&root, "lab-step-0"));
    click(&root, "lab-run").await;
    assert_eq!(text(&root, "lab-successes"), "1");
    assert_eq!(text(&root, "lab-balance"), "900");
    assert!(find(&root, "lab-double-charge").is_none());
}

#[wasm_bindgen_test]
async fn bad_settings_show_a_message_instead_of_panicking() {
    let root = mount(Lang::Ja).await;
    let input = get(&root, "lab-requests")
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap();
    input.set_value("11");
    input
        .dispatch_event(&web_sys::InputEvent::new("input").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    click(&root, "lab-apply").await;
    let message = text(&root, "lab-settings-error");
    assert!(message.contains("リクエスト数 11"), "{message}");
    // The running scenario is kept.
    assert!(find(&root, "lab-step-2").is_some());
    assert!(find(&root, "lab-step-3").is_none());
}

#[wasm_bindgen_test]
async fn the_explorer_counts_every_schedule_and_its_counterexample_loads() {
    let root = mount(Lang::En).await;
    click(&root, "explorer-start").await;
    for _ in 0..500 {
        if get(&root, "explorer-status")
            .get_attribute("data-state")
            .as_deref()
            == Some("done")
        {
            break;
        }
        gloo_timers::future::sleep(Duration::from_millis(10)).await;
        yew::scheduler::flush().await;
    }
    assert_eq!(
        get(&root, "explorer-status")
            .get_attribute("data-state")
            .as_deref(),
        Some("done")
    );
    assert_eq!(text(&root, "explorer-schedules"), "1680");
    assert_eq!(text(&root, "explorer-double-charge"), "1620");
    assert_eq!(text(&root, "explorer-raw"), "1,680");
    assert_eq!(
        text(&root, "explorer-counterexample-schedule"),
        "1 1 2 2 2 1 3 3 3"
    );
    click(&root, "explorer-load").await;
    assert_eq!(text(&root, "lab-schedule"), "1 1 2 2 2 1 3 3 3");
    assert_eq!(text(&root, "lab-successes"), "2");
    assert!(find(&root, "lab-double-charge").is_some());
    // A long search (5 requests) can be cancelled; the page says so.
    let input = get(&root, "lab-requests")
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap();
    input.set_value("5");
    input
        .dispatch_event(&web_sys::InputEvent::new("input").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    click(&root, "lab-apply").await;
    click(&root, "explorer-start").await;
    assert_eq!(
        get(&root, "explorer-status")
            .get_attribute("data-state")
            .as_deref(),
        Some("running")
    );
    click(&root, "explorer-cancel").await;
    gloo_timers::future::sleep(Duration::from_millis(50)).await;
    yew::scheduler::flush().await;
    assert_eq!(
        get(&root, "explorer-status")
            .get_attribute("data-state")
            .as_deref(),
        Some("cancelled")
    );
    // Over budget: refused before starting, with the reason.
    select(&root, "explorer-mode", "plain").await;
    click(&root, "explorer-start").await;
    assert_eq!(
        get(&root, "explorer-status")
            .get_attribute("data-state")
            .as_deref(),
        Some("refused")
    );
    assert!(text(&root, "explorer-status").contains("over the budget"));
}
