//! The lab page in headless Chromium (`wasm-pack test --headless --chrome -- --test lab_ui`):
//! the learner clicks request lanes through the TOCTOU race and the page shows the double charge;
//! the atomic service blocks; the explorer counts 1,680 schedules and its counterexample loads;
//! settings and schedule survive a remount (localStorage), unreadable saved state and damaged share
//! links fall back to the default lab with a notice.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::lab::{LabPage, LabPageProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const LAB_KEY: &str = idempotency_playground::ui::web::LAB_KEY;

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

/// Sets the address bar's hash without a `hashchange` (as a link opened in a new tab would be).
fn set_hash(hash: &str) {
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash))
        .unwrap();
}

fn hash() -> String {
    web_sys::window().unwrap().location().hash().unwrap()
}

/// A fresh lab: nothing saved by an earlier test.
async fn mount(lang: Lang) -> web_sys::Element {
    storage().remove_item(LAB_KEY).unwrap();
    remount(lang).await
}

/// A new page on a new element, reading whatever this browser saved (as a reload does).
async fn remount(lang: Lang) -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<LabPage>::with_root_and_props(
        div.clone(),
        LabPageProps {
            lang,
            challenge: None,
        },
    )
    .render();
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

async fn type_into(root: &web_sys::Element, testid: &str, value: &str) {
    let input = get(root, testid)
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap();
    input.set_value(value);
    input
        .dispatch_event(&web_sys::InputEvent::new("input").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
}

fn value(root: &web_sys::Element, testid: &str) -> String {
    get(root, testid)
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap()
        .value()
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
    click(&root, "back").await;
    assert_eq!(text(&root, "lab-schedule"), "1 1 2 2 2 1 3 3");
    assert!(!disabled(&root, "lab-step-2"));
    click(&root, "reset").await;
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
    assert!(
        message.contains("同時リクエスト数：11 は大きすぎる。範囲は 2 から 10。"),
        "{message}"
    );
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
    assert_eq!(text(&root, "explorer-schedules"), "1,680");
    assert_eq!(text(&root, "explorer-double-charge"), "1,620");
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

#[wasm_bindgen_test]
async fn settings_and_schedule_survive_a_remount() {
    let root = mount(Lang::En).await;
    type_into(&root, "lab-requests", "4").await;
    type_into(&root, "lab-seed", "42").await;
    click(&root, "lab-apply").await;
    step_lanes(&root, &[1, 1, 2, 2, 4]).await;
    assert_eq!(text(&root, "lab-charges"), "2");
    assert_eq!(text(&root, "lab-balance"), "800");
    let saved = storage().get_item(LAB_KEY).unwrap().unwrap();
    assert!(saved.contains(r#""schedule":[0,0,1,1,3]"#), "{saved}");

    let again = remount(Lang::En).await;
    assert!(find(&again, "lab-restore-notice").is_none());
    assert_eq!(text(&again, "lab-schedule"), "1 1 2 2 4");
    assert_eq!(text(&again, "lab-charges"), "2");
    assert_eq!(text(&again, "lab-balance"), "800");
    assert!(find(&again, "lab-step-3").is_some());
    assert_eq!(value(&again, "lab-requests"), "4");
    assert_eq!(value(&again, "lab-seed"), "42");
    // The restored run goes on as before: finishing the race double-charges.
    step_lanes(&again, &[2, 1]).await;
    assert_eq!(text(&again, "lab-successes"), "2");
    // Step back is saved too.
    click(&again, "back").await;
    let third = remount(Lang::En).await;
    assert_eq!(text(&third, "lab-schedule"), "1 1 2 2 4 2");
}

#[wasm_bindgen_test]
async fn unreadable_saved_state_shows_the_default_lab_and_a_notice() {
    let default = mount(Lang::En).await;
    let default_schedule = text(&default, "lab-schedule");
    let cases = [
        "garbage {",
        r#"{"v":2,"model":"toctou"}"#,
        r#"{"v":1,"model":"toctou","k":11,"keys":"same","amounts":[100],"balance":1000,"seed":1,"schedule":[]}"#,
        r#"{"v":1,"model":"toctou","k":3,"keys":"same","amounts":[100],"balance":1000,"seed":1,"schedule":[0,0,0,0]}"#,
    ];
    for garbage in cases {
        storage().set_item(LAB_KEY, garbage).unwrap();
        let root = remount(Lang::En).await;
        let notice = text(&root, "lab-restore-notice");
        assert!(
            notice.contains("The saved lab could not be restored"),
            "{garbage}: {notice}"
        );
        assert_eq!(text(&root, "lab-schedule"), default_schedule, "{garbage}");
        assert!(find(&root, "lab-step-2").is_some() && find(&root, "lab-step-3").is_none());
        assert_eq!(value(&root, "lab-requests"), "3");
        // Nothing is overwritten until the learner changes something; then the notice goes.
        assert_eq!(
            storage().get_item(LAB_KEY).unwrap().as_deref(),
            Some(garbage)
        );
        step_lanes(&root, &[1]).await;
        assert!(find(&root, "lab-restore-notice").is_none());
        assert!(storage()
            .get_item(LAB_KEY)
            .unwrap()
            .unwrap()
            .contains(r#""schedule":[0]"#));
    }
    storage().set_item(LAB_KEY, "garbage {").unwrap();
    let ja = remount(Lang::Ja).await;
    assert!(text(&ja, "lab-restore-notice").contains("保存されたラボを復元できなかった"));
}

#[wasm_bindgen_test]
async fn a_share_link_wins_over_storage_and_a_damaged_one_says_so() {
    let root = mount(Lang::En).await;
    step_lanes(&root, &[1, 1, 2]).await;
    let link = value(&root, "lab-share-link");
    let at = link.find("#/lab?s=").expect("a lab link");
    // Something else is saved meanwhile; the link wins.
    click(&root, "reset").await;
    set_hash(&link[at..]);
    let opened = remount(Lang::En).await;
    assert_eq!(text(&opened, "lab-schedule"), "1 1 2");
    assert_eq!(hash(), "#/lab", "the read link leaves the address bar");
    assert!(storage()
        .get_item(LAB_KEY)
        .unwrap()
        .unwrap()
        .contains(r#""schedule":[0,0,1]"#));

    set_hash("#/lab?s=%%%");
    let damaged = remount(Lang::En).await;
    assert!(text(&damaged, "lab-restore-notice").contains("link is damaged"));
    assert_eq!(text(&damaged, "lab-schedule"), "(none)");
    assert_eq!(hash(), "#/lab");
    // The saved lab was not overwritten by the default.
    assert!(storage()
        .get_item(LAB_KEY)
        .unwrap()
        .unwrap()
        .contains(r#""schedule":[0,0,1]"#));

    // A link pasted into the address bar of an open lab (a `hashchange`, no remount) loads too.
    web_sys::window()
        .unwrap()
        .location()
        .set_hash(&link[at..])
        .unwrap();
    for _ in 0..100 {
        if hash() == "#/lab" {
            break;
        }
        gloo_timers::future::sleep(Duration::from_millis(10)).await;
    }
    yew::scheduler::flush().await;
    assert_eq!(text(&damaged, "lab-schedule"), "1 1 2");
    assert!(find(&damaged, "lab-restore-notice").is_none());
    assert_eq!(hash(), "#/lab");
    set_hash("");
}
