//! The property-check page in headless Chromium (`wasm-pack test --headless --chrome -- --test
//! properties_ui`): Run on the naive service fails and shrinks, its minimal case's link opens the
//! sandbox with a scenario the core reads back; the atomic service passes; bad numbers name their
//! limit and run nothing; settings survive a remount (localStorage) and an address with settings
//! runs them; Cancel stops a long run where it is.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use idempotency_playground::properties::{check, Property};
use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::properties::{PropertiesPage, PropertiesPageProps};
use idempotency_playground::ui::share::decode_query;
use idempotency_playground::{Scenario, ServiceKind};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const KEY: &str = idempotency_playground::ui::web::PROPERTIES_KEY;

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

/// A fresh page: nothing saved, a bare address.
async fn mount(lang: Lang) -> web_sys::Element {
    storage().remove_item(KEY).unwrap();
    set_hash("#/properties");
    remount(lang).await
}

/// A new page on a new element, reading the address and this browser's storage (as a reload).
async fn remount(lang: Lang) -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<PropertiesPage>::with_root_and_props(div.clone(), PropertiesPageProps { lang })
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

async fn click(root: &web_sys::Element, testid: &str) {
    get(root, testid)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    yew::scheduler::flush().await;
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

async fn select(root: &web_sys::Element, testid: &str, value: &str) {
    let el = get(root, testid)
        .dyn_into::<web_sys::HtmlSelectElement>()
        .unwrap();
    el.set_value(value);
    el.dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
}

fn field(root: &web_sys::Element, testid: &str) -> String {
    let el = get(root, testid);
    match el.dyn_ref::<web_sys::HtmlSelectElement>() {
        Some(s) => s.value(),
        None => el.dyn_into::<web_sys::HtmlInputElement>().unwrap().value(),
    }
}

/// Waits (slices run between frames) until the result is drawn; its `data-state`.
async fn result_state(root: &web_sys::Element) -> String {
    for _ in 0..3000 {
        if let Some(r) = find(root, "prop-result") {
            if find(root, "prop-cancel").is_none() {
                return r.get_attribute("data-state").unwrap_or_default();
            }
        }
        gloo_timers::future::sleep(Duration::from_millis(10)).await;
        yew::scheduler::flush().await;
    }
    panic!("no result: {}", text(root, "prop-status"));
}

#[wasm_bindgen_test]
async fn the_naive_service_fails_shrinks_and_its_minimal_case_opens_in_the_sandbox() {
    let root = mount(Lang::En).await;
    assert_eq!(
        get(&root, "prop-status")
            .get_attribute("data-state")
            .as_deref(),
        Some("idle")
    );
    assert_eq!(
        (field(&root, "prop-property"), field(&root, "prop-service")),
        ("replay".into(), "naive".into())
    );
    click(&root, "prop-run").await;
    assert!(
        find(&root, "prop-cancel").is_some(),
        "a progress bar and Cancel while it runs"
    );
    assert_eq!(result_state(&root).await, "fail");
    let minimal = get(&root, "prop-minimal");
    let inputs: usize = minimal
        .get_attribute("data-inputs")
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&inputs), "{inputs} inputs");
    let listed = minimal
        .query_selector_all("[data-testid=prop-minimal-inputs] li")
        .unwrap()
        .length();
    assert_eq!(listed as usize, inputs);
    assert!(text(&root, "prop-minimal-inputs").contains("Charge 1 with key “test-key”"));
    assert!(text(&root, "prop-minimal-breach").contains("charged again"));
    // The link: the sandbox page (sandbox/), a scenario the core reads, that still fails.
    let href = get(&root, "prop-open").get_attribute("href").unwrap();
    let query = href
        .strip_prefix("../sandbox/#/sandbox?")
        .unwrap_or_else(|| panic!("{href}"));
    let payload = decode_query(query).unwrap();
    assert!(payload.step > 0);
    let scenario = Scenario::from_json(&payload.json).unwrap();
    assert_eq!(scenario.services, vec![ServiceKind::Naive.into()]);
    assert_eq!(scenario.inputs.len(), inputs);
    assert!(check(Property::Replay, &scenario).unwrap().breach.is_some());
    // The run's settings are in the address, and saved.
    assert_eq!(hash(), "#/properties?p=replay&svc=naive&n=256&seed=42");
    assert_eq!(
        storage().get_item(KEY).unwrap().as_deref(),
        Some("p=replay&svc=naive&n=256&seed=42")
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn the_atomic_service_passes_every_case_in_japanese_too() {
    let root = mount(Lang::Ja).await;
    select(&root, "prop-service", "atomic").await;
    type_into(&root, "prop-cases", "64").await;
    click(&root, "prop-run").await;
    assert_eq!(result_state(&root).await, "pass");
    assert!(
        text(&root, "prop-result").contains("64 / 64"),
        "{}",
        text(&root, "prop-result")
    );
    assert!(find(&root, "prop-minimal").is_none());
    root.remove();
}

#[wasm_bindgen_test]
async fn bad_numbers_name_their_limit_and_run_nothing() {
    let root = mount(Lang::En).await;
    type_into(&root, "prop-cases", "-1").await;
    assert_eq!(
        text(&root, "prop-cases-error"),
        "Cases: −1 is negative. Use a whole number from 1 to 10,000."
    );
    type_into(&root, "prop-seed", "abc").await;
    assert!(text(&root, "prop-seed-error").contains("“abc” is not a whole number"));
    click(&root, "prop-run").await;
    assert!(find(&root, "prop-result").is_none() && find(&root, "prop-cancel").is_none());
    type_into(&root, "prop-seed", "9007199254740992").await;
    assert!(text(&root, "prop-seed-error").contains("0 to 9,007,199,254,740,991"));
    // Nothing unusable was saved or put in the address.
    assert_eq!(storage().get_item(KEY).unwrap(), None);
    assert_eq!(hash(), "#/properties");
    root.remove();
}

#[wasm_bindgen_test]
async fn settings_survive_a_remount_and_an_address_with_settings_runs_them() {
    let root = mount(Lang::En).await;
    select(&root, "prop-property", "one-charge-per-key").await;
    select(&root, "prop-service", "production").await;
    type_into(&root, "prop-seed", "7").await;
    root.remove();
    // The address now carries the edited settings; a bare address reads the saved ones.
    assert_eq!(
        hash(),
        "#/properties?p=one-charge-per-key&svc=production&n=256&seed=7"
    );
    set_hash("#/properties");
    let again = remount(Lang::En).await;
    assert_eq!(
        (
            field(&again, "prop-property"),
            field(&again, "prop-service"),
            field(&again, "prop-seed")
        ),
        ("one-charge-per-key".into(), "production".into(), "7".into())
    );
    assert!(
        find(&again, "prop-result").is_none(),
        "restored settings wait for Run"
    );
    again.remove();
    // An address with settings (a link, a reload, Back) runs them at once.
    set_hash("#/properties?p=distinct-keys&svc=toctou&n=300&seed=5");
    let linked = remount(Lang::En).await;
    assert_eq!(field(&linked, "prop-cases"), "300");
    assert_eq!(result_state(&linked).await, "fail");
    linked.remove();
    // A link the page cannot use says why and runs nothing.
    set_hash("#/properties?p=nope");
    let bad = remount(Lang::En).await;
    assert!(text(&bad, "prop-notice").contains("there is no property “nope”"));
    assert!(find(&bad, "prop-cancel").is_none());
    bad.remove();
}

#[wasm_bindgen_test]
async fn cancel_stops_a_long_run_where_it_is() {
    let root = mount(Lang::En).await;
    select(&root, "prop-service", "atomic").await;
    type_into(&root, "prop-cases", "10000").await;
    click(&root, "prop-run").await;
    gloo_timers::future::sleep(Duration::from_millis(30)).await;
    yew::scheduler::flush().await;
    click(&root, "prop-cancel").await;
    let status = get(&root, "prop-status");
    assert_eq!(
        status.get_attribute("data-state").as_deref(),
        Some("cancelled")
    );
    assert!(status.text_content().unwrap().contains("of 10,000 cases"));
    assert!(find(&root, "prop-result").is_none() && find(&root, "prop-cancel").is_none());
    root.remove();
}
