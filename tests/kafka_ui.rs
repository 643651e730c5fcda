//! The Kafka page in headless Chromium (`wasm-pack test --headless --chrome -- --test kafka_ui`):
//! the first lesson waits at its question and the log shows one row per record with its
//! producer id, epoch, sequence and duplicate mark; idempotence on removes the duplicate; the run
//! survives a remount (this browser's copy) and opens from a share link; both languages draw.
#![cfg(target_arch = "wasm32")]

use idempotency_playground::kafka::{lesson, to_json};
use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::kafka::persist::to_query;
use idempotency_playground::ui::kafka::{KafkaPage, KafkaPageProps};
use idempotency_playground::ui::route::Route;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn storage() -> web_sys::Storage {
    web_sys::window().unwrap().local_storage().unwrap().unwrap()
}

fn set_hash(hash: &str) {
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash))
        .unwrap();
}

async fn mount(lang: Lang, route: Route) -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<KafkaPage>::with_root_and_props(div.clone(), KafkaPageProps { lang, route })
        .render();
    yew::scheduler::flush().await;
    div
}

fn all(root: &web_sys::Element, selector: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(selector).unwrap();
    (0..list.length())
        .filter_map(|i| {
            list.item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        })
        .collect()
}

fn get(root: &web_sys::Element, testid: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid={testid}]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no [data-testid={testid}]"))
}

async fn click(root: &web_sys::Element, testid: &str) {
    get(root, testid)
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    yew::scheduler::flush().await;
}

fn log_rows(root: &web_sys::Element) -> Vec<(String, String, String, String, String)> {
    all(root, "[data-testid=partition-log] tr")
        .iter()
        .map(|r| {
            let a = |n: &str| r.get_attribute(n).unwrap_or_default();
            (
                a("data-offset"),
                a("data-pid"),
                a("data-epoch"),
                a("data-seq"),
                a("data-duplicate"),
            )
        })
        .collect()
}

const ROUTE: &str = "#/scenario/kafka-lost-ack";

fn fresh() {
    storage().clear().unwrap();
    set_hash(ROUTE);
}

#[wasm_bindgen_test]
async fn the_lesson_waits_at_its_question_and_the_log_marks_the_duplicate() {
    fresh();
    let root = mount(Lang::En, Route::Scenario("kafka-lost-ack".into())).await;
    assert_eq!(
        get(&root, "predict").get_attribute("data-state").as_deref(),
        Some("open")
    );
    click(&root, "run-to-end").await;
    assert!(
        get(&root, "step").has_attribute("disabled"),
        "waits at the question"
    );
    assert_eq!(log_rows(&root).len(), 1);
    click(&root, "predict-skip").await;
    click(&root, "run-to-end").await;
    let rows = log_rows(&root);
    assert_eq!(rows.len(), 4);
    assert_eq!(
        rows[1],
        (
            "1".into(),
            "—".into(),
            "0".into(),
            "—".into(),
            "true".into()
        )
    );
    // Idempotence on: the retry is answered with offset 0; every row has producer id 1.
    click(&root, "idempotence").await;
    click(&root, "predict-skip").await;
    click(&root, "run-to-end").await;
    let rows = log_rows(&root);
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter().all(|r| r.1 == "1" && r.4 == "false"),
        "{rows:?}"
    );
    assert_eq!(rows[2].3, "2");
}

#[wasm_bindgen_test]
async fn the_run_survives_a_remount_and_opens_from_a_link() {
    fresh();
    let root = mount(Lang::En, Route::Scenario("kafka-lost-ack".into())).await;
    click(&root, "step").await;
    click(&root, "step").await;
    click(&root, "step").await;
    let at = get(&root, "position").text_content().unwrap();
    assert!(at.starts_with("Step 3 /"), "{at}");
    // A remount reads this browser's copy (set_hash keeps the route, without the query).
    set_hash(ROUTE);
    let again = mount(Lang::Ja, Route::Scenario("kafka-lost-ack".into())).await;
    let shown = get(&again, "position").text_content().unwrap();
    assert!(shown.starts_with("ステップ 3 /"), "{shown}");
    assert!(get(&again, "caption")
        .text_content()
        .unwrap()
        .contains("ステップ 3"));
    // A link with another run opens that run at its step.
    storage().clear().unwrap();
    let mut s = lesson("kafka-lost-ack").unwrap().scenario;
    s.config.idempotence = true;
    assert!(to_json(&s).contains("\"idempotence\":true"));
    set_hash(&format!("{ROUTE}?{}", to_query(&s, 100)));
    let linked = mount(Lang::En, Route::Scenario("kafka-lost-ack".into())).await;
    let input = get(&linked, "idempotence")
        .dyn_into::<web_sys::HtmlInputElement>()
        .unwrap();
    assert!(input.checked());
    // Step 100 is past the open question: the cursor waits at the question.
    assert!(get(&linked, "step").has_attribute("disabled"));
}
