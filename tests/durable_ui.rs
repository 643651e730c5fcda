//! The durable-execution page in headless Chromium (`wasm-pack test --headless --chrome -- --test
//! durable_ui`): a lesson waits at its question and reveals the core's answer; the journal's rows
//! say which entries were read back on replay; Back is an exact replay; the learner's crash and
//! restart (Temporal's new worker waits for the lost activity's Start-To-Close timeout); a remount
//! (a reload) restores the run from this browser; a damaged link says so; a link whose policies
//! Temporal refuses, and a version-1 link whose Temporal run now goes otherwise, open with a plain
//! message, not a silent run; an invariant the column's settings do not promise reads "not
//! promised here", its break said without the ✕ of a failure.
#![cfg(target_arch = "wasm32")]

use idempotency_playground::durable::{
    lesson, Answer, Config, ConflictPolicy, DurableRun, RerunClass, ReusePolicy, SavedState,
};
use idempotency_playground::ui::durable::persist::to_query;
use idempotency_playground::ui::durable::{DurablePage, DurablePageProps};
use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::route::Route;
use idempotency_playground::ui::share::encode_query;
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

async fn mount(route: Route, lang: Lang) -> web_sys::Element {
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    yew::Renderer::<DurablePage>::with_root_and_props(
        div.clone(),
        DurablePageProps { lang, route },
    )
    .render();
    yew::scheduler::flush().await;
    div
}

fn all(root: &web_sys::Element, sel: &str) -> Vec<web_sys::Element> {
    let list = root.query_selector_all(sel).unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        .collect()
}

fn get(root: &web_sys::Element, testid: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid={testid}]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no [data-testid={testid}]"))
}

fn text(root: &web_sys::Element, testid: &str) -> String {
    get(root, testid).text_content().unwrap_or_default()
}

async fn click(el: &web_sys::Element) {
    el.clone()
        .dyn_into::<web_sys::HtmlElement>()
        .unwrap()
        .click();
    yew::scheduler::flush().await;
}

async fn click_id(root: &web_sys::Element, testid: &str) {
    click(&get(root, testid)).await;
}

fn disabled(root: &web_sys::Element, testid: &str) -> bool {
    get(root, testid).has_attribute("disabled")
}

#[wasm_bindgen_test]
async fn a_lesson_waits_for_the_prediction_and_reveals_the_runs_answer() {
    storage().clear().unwrap();
    set_hash("#/scenario/durable-resume");
    let root = mount(Route::Scenario("durable-resume".into()), Lang::En).await;
    let l = lesson("durable-resume").unwrap();
    let posed = l
        .question
        .pose(&DurableRun::new(l.columns, Vec::new()))
        .unwrap();
    click_id(&root, "run-to-end").await;
    assert!(text(&root, "position").starts_with(&format!("Step {} /", posed.ask_at)));
    assert!(disabled(&root, "step"), "the run waits for the answer");
    assert!(
        disabled(&root, "crash-worker"),
        "no action past the question either"
    );
    // The right choice is the core's.
    assert_eq!(
        posed.choices[posed.answer],
        Answer::Rerun(RerunClass::OnlyUnfinished)
    );
    let choices = all(&root, ".predict .choice");
    assert_eq!(choices.len(), posed.choices.len());
    click(&choices[posed.answer]).await;
    assert_eq!(
        get(&root, "predict").get_attribute("data-state").as_deref(),
        Some("right")
    );
    click_id(&root, "run-to-end").await;
    let rows = all(&root, "[data-column=\"0\"] [data-testid=journal] tr");
    let replayed: Vec<_> = rows
        .iter()
        .map(|r| r.get_attribute("data-replayed").unwrap())
        .collect();
    // Temporal retried the shipment at its Start-To-Close timeout; the new worker then replayed
    // the history, the shipment's result included.
    assert_eq!(replayed, ["true", "true", "true", "true", "false"]);
    // The current step's lines of the real source are marked.
    assert!(!all(&root, "[data-testid=source] [data-current=true]").is_empty());
    // Back is a replay: the same page one step earlier and again.
    let end = text(&root, "position");
    let journal = get(&root, "journal").inner_html();
    click_id(&root, "back").await;
    assert_ne!(text(&root, "position"), end);
    click_id(&root, "step").await;
    assert_eq!(text(&root, "position"), end);
    assert_eq!(get(&root, "journal").inner_html(), journal);
}

#[wasm_bindgen_test]
async fn a_crash_and_restart_by_hand_replay_and_a_remount_restores_the_run() {
    storage().clear().unwrap();
    set_hash("#/durable/challenge/durable-charge-twice");
    let route = Route::DurableChallenge("durable-charge-twice".into());
    let root = mount(route.clone(), Lang::Ja).await;
    for _ in 0..6 {
        click_id(&root, "step").await;
    }
    click_id(&root, "crash-worker").await;
    assert_eq!(
        get(&root, "worker").get_attribute("data-state").as_deref(),
        Some("crashed")
    );
    click_id(&root, "restart-worker").await;
    // The charge was running on the crashed worker: Temporal's server does not know, so the new
    // worker has nothing to do until the attempt's Start-To-Close timeout fires.
    assert_eq!(
        get(&root, "worker").get_attribute("data-state").as_deref(),
        Some("idle")
    );
    assert!(text(&root, "caption").contains("Start-To-Close"));
    click_id(&root, "run-to-end").await;
    assert_eq!(text(&root, "balance"), "800");
    assert_eq!(
        get(&root, "challenge").get_attribute("data-won").as_deref(),
        Some("true")
    );
    let position = text(&root, "position");
    // A remount reads the run this browser saved for the route.
    let again = mount(route.clone(), Lang::Ja).await;
    assert_eq!(text(&again, "position"), position);
    assert_eq!(text(&again, "balance"), "800");
    // A damaged link says so (in Japanese) and opens the challenge without it.
    set_hash("#/durable/challenge/durable-charge-twice?s=***");
    let damaged = mount(route, Lang::Ja).await;
    assert!(text(&damaged, "dur-notice").contains("このリンクは読めない"));
    assert!(text(&damaged, "position").starts_with("ステップ 0 /"));
}

#[wasm_bindgen_test]
async fn a_link_with_a_pair_of_policies_temporal_refuses_opens_with_a_plain_message() {
    storage().clear().unwrap();
    let s = SavedState {
        columns: vec![Config {
            reuse: ReusePolicy::RejectDuplicate,
            conflict: ConflictPolicy::TerminateExisting,
            start_again_at_ms: Some(550),
            ..Config::default()
        }],
        actions: Vec::new(),
        cursor: 0,
    };
    set_hash(&format!("#/durable?{}", to_query(&s)));
    let root = mount(Route::Durable, Lang::En).await;
    let notice = text(&root, "dur-notice");
    assert!(notice.contains("RejectDuplicate"), "{notice}");
    assert!(notice.contains("TerminateExisting"), "{notice}");
    assert!(text(&root, "policy-error").contains("InvalidArgument"));
    // The engine refuses the start: nothing runs and nothing is charged.
    click_id(&root, "run-to-end").await;
    assert!(text(&root, "replies").contains("refused the start"));
    assert_eq!(text(&root, "balance"), "1,000");
}

#[wasm_bindgen_test]
async fn a_version_1_link_whose_temporal_run_now_goes_otherwise_says_so() {
    storage().clear().unwrap();
    let v1 = r#"{"version":1,"columns":[{"faults":[{"step":"charge_card","kind":"crash-after-effect"}]}],"cursor":0}"#;
    set_hash(&format!("#/durable?{}", encode_query(v1, 0)));
    let root = mount(Route::Durable, Lang::En).await;
    assert!(text(&root, "dur-notice").contains("earlier version"));
    assert_eq!(
        get(&root, "set-start-to-close")
            .dyn_into::<web_sys::HtmlSelectElement>()
            .unwrap()
            .value(),
        "2000"
    );
    // A link written now opens without it.
    let s = SavedState {
        columns: vec![Config::default()],
        actions: Vec::new(),
        cursor: 0,
    };
    set_hash(&format!("#/durable?{}", to_query(&s)));
    let again = mount(Route::Durable, Lang::En).await;
    assert!(all(&again, "[data-testid=dur-notice]").is_empty());
}

#[wasm_bindgen_test]
async fn an_invariant_the_settings_do_not_promise_reads_not_promised_here() {
    storage().clear().unwrap();
    set_hash("#/scenario/durable-charge-key");
    let root = mount(Route::Scenario("durable-charge-key".into()), Lang::En).await;
    let row = |col: usize, inv: &str| {
        root.query_selector(&format!("[data-column=\"{col}\"] [data-invariant={inv}]"))
            .unwrap()
            .unwrap_or_else(|| panic!("no {inv} in column {col}"))
    };
    let attr = |e: &web_sys::Element, name: &str| e.get_attribute(name).unwrap_or_default();
    let has_class =
        |e: &web_sys::Element, class: &str| attr(e, "class").split_whitespace().any(|c| c == class);
    // The promise is the settings' (derived, no key, random key), from the first step.
    assert_eq!(
        attr(&row(0, "one-charge-per-order"), "data-promised"),
        "true"
    );
    let none = row(1, "one-charge-per-order");
    assert_eq!(attr(&none, "data-promised"), "false");
    assert_eq!(attr(&none, "data-state"), "holds");
    assert!(none.text_content().unwrap().contains("not promised here"));
    assert!(none.text_content().unwrap().contains("no key"));
    let random = row(2, "one-charge-per-order").text_content().unwrap();
    assert!(random.contains("keys are random per attempt"), "{random}");
    // Every column replays without re-running a journaled step: promised everywhere.
    for col in 0..3 {
        assert_eq!(
            attr(&row(col, "replay-never-reruns"), "data-promised"),
            "true"
        );
    }
    click_id(&root, "run-to-end").await;
    click_id(&root, "predict-skip").await;
    click_id(&root, "run-to-end").await;
    // The derived key charged once: ✓.
    let derived = row(0, "one-charge-per-order");
    assert_eq!(attr(&derived, "data-state"), "holds");
    assert!(has_class(&derived, "pass"));
    assert!(derived.text_content().unwrap().starts_with('✓'));
    // Without a key the card was charged twice: the page says it broke, as "not promised here",
    // not as a failure.
    let none = row(1, "one-charge-per-order");
    assert_eq!(attr(&none, "data-state"), "broken");
    assert_eq!(attr(&none, "data-promised"), "false");
    assert!(has_class(&none, "na"));
    assert!(!has_class(&none, "fail"));
    let said = none.text_content().unwrap();
    assert!(!said.contains('✕'), "{said}");
    assert!(said.contains("it broke at step"), "{said}");
    // The step's name as code, without Markdown's backticks (issue 28).
    assert!(
        said.contains("charge_card") && !said.contains('`'),
        "{said}"
    );
    // Its link moves to the step that broke it.
    let step: usize = said
        .split("it broke at step ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    click(&none.query_selector("a").unwrap().unwrap()).await;
    assert!(text(&root, "position").starts_with(&format!("Step {step} /")));
    // No promised invariant broke in this lesson.
    assert!(all(&root, ".badge.fail").is_empty());
}
