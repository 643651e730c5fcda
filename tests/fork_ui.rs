//! Issue 13 in headless Chromium: the playground's answers carry their replay mark, and the fork
//! control (`[data-testid=fork]`) branches the lesson's run once its question is answered.
#![cfg(target_arch = "wasm32")]

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::route::Route;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

mod page;
use page::{attr, balance, el, mount};

wasm_bindgen_test_configure!(run_in_browser);

/// `data-replayed` of every answer listed in a service's panel, in order.
fn marks(div: &web_sys::Element, service: &str) -> Vec<String> {
    let list = div
        .query_selector_all(&format!(
            "section[data-service={service}] [data-testid=answer]"
        ))
        .unwrap();
    (0..list.length())
        .map(|i| {
            list.item(i)
                .unwrap()
                .dyn_into::<web_sys::Element>()
                .unwrap()
                .get_attribute("data-replayed")
                .expect("every answer carries data-replayed")
        })
        .collect()
}

/// The double-charge lesson, mounted as the first page draws it, with nothing remembered.
async fn lesson() -> web_sys::Element {
    mount(Route::Scenario("double-charge".into()), Lang::En).await
}

#[wasm_bindgen_test]
async fn answers_say_whether_they_were_replayed() {
    let div = lesson().await;
    el(&div, "[data-testid=predict-skip]").click();
    yew::scheduler::flush().await;
    el(&div, "[data-testid=run-to-end]").click();
    yew::scheduler::flush().await;
    // Try 1 timed out (its reply was lost); try 2 was executed again by the naive service and
    // replayed by the keyed ones.
    assert_eq!(marks(&div, "naive"), ["false", "false"]);
    assert_eq!(marks(&div, "atomic"), ["false", "true"]);
    let tag = el(
        &div,
        "section[data-service=atomic] [data-replayed=true] .replay-mark",
    );
    assert_eq!(tag.text_content().as_deref(), Some("replayed"));
    // The timeline's row of that reply carries the same mark.
    let rows = div
        .query_selector_all("[data-testid=timeline] .tl-row[data-replayed]")
        .unwrap();
    assert!(rows.length() >= 1);
    div.remove();
}

#[wasm_bindgen_test]
async fn a_fork_waits_for_the_question_then_branches_the_run() {
    let div = lesson().await;
    // While the question is open the control offers nothing that would rebuild the run.
    assert!(div.query_selector("[data-testid=fork]").unwrap().is_some());
    assert!(div
        .query_selector("[data-testid=fork] [data-testid=fork-crash]")
        .unwrap()
        .is_none());
    el(&div, "[data-testid=predict-skip]").click();
    yew::scheduler::flush().await;
    fork_the_first_attempt_to_no_fault(&div).await;
    assert_forked_at_step_1(&div);
    el(&div, "[data-testid=run-to-end]").click();
    yew::scheduler::flush().await;
    assert_eq!(balance(&div, "naive"), 900);
    // The fork's notice goes once the run has moved on from the forked step.
    assert!(div
        .query_selector("[data-testid=fork-notice]")
        .unwrap()
        .is_none());
    assert_eq!(marks(&div, "naive"), ["false"]);
    // Back to before the fork: the same past as the lesson's.
    el(&div, "[data-testid=reset]").click();
    yew::scheduler::flush().await;
    assert_eq!(balance(&div, "naive"), 1000);
    // Restoring the lesson drops the fork.
    el(&div, "[data-testid=restore-lesson]").click();
    yew::scheduler::flush().await;
    assert_eq!(
        attr(&div, "[data-testid=fork]", "data-forks").as_deref(),
        Some("0")
    );
    div.remove();
}

/// Step 1: the first attempt is on its way, with the lesson's fault (its reply will be lost);
/// the fork control sets it to none.
async fn fork_the_first_attempt_to_no_fault(div: &web_sys::Element) {
    el(div, "[data-testid=reset]").click();
    yew::scheduler::flush().await;
    el(div, "[data-testid=step]").click();
    yew::scheduler::flush().await;
    let select: web_sys::HtmlSelectElement = el(
        div,
        "[data-testid=fork-fault][data-op='1'][data-attempt='1']",
    )
    .dyn_into()
    .unwrap();
    assert_eq!(select.value(), "response-lost");
    select.set_value("none");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
}

/// The fork is counted and said once, the run stays at its step, and the lesson can be restored.
fn assert_forked_at_step_1(div: &web_sys::Element) {
    assert_eq!(
        attr(div, "[data-testid=fork]", "data-forks").as_deref(),
        Some("1")
    );
    assert_eq!(
        attr(div, "[data-testid=lesson-changed]", "data-forked").as_deref(),
        Some("true")
    );
    // The step is said once, in the panel's line, not again in the notice.
    assert_eq!(
        el(div, "[data-testid=fork-branch]")
            .text_content()
            .as_deref(),
        Some("Forked at step 1.")
    );
    assert!(el(div, "[data-testid=fork-notice]")
        .text_content()
        .unwrap()
        .contains("changed from here"));
    // The run stays at the fork's step; the future is the fork's: one charge, no retry.
    assert_eq!(
        el(div, "[data-testid=position]")
            .text_content()
            .unwrap()
            .split_whitespace()
            .nth(1),
        Some("1")
    );
    let note = el(div, "[data-testid=lesson-changed]");
    assert!(note
        .text_content()
        .unwrap()
        .starts_with("You forked this run at step 1:"));
    assert!(note
        .query_selector("[data-testid=restore-lesson]")
        .unwrap()
        .is_some());
}
