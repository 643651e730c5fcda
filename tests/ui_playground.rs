//! Yew component tests for the playground in headless Chromium: controls, timeline, panels,
//! and the page running the first lesson.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::playground::timeline::{
    Timeline, TimelineProps, TimelineRow, Tone,
};
use idempotency_playground::ui::playground::{Playground, PlaygroundProps};
use idempotency_playground::ui::route::Route;
use idempotency_playground::ui::run::{Control, Controls, ControlsProps};
use idempotency_playground::{Lane, LaneSet};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use yew::Callback;

mod page;
use page::{balance, click, root, text};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn controls_emit_what_their_buttons_say_and_disable_at_the_ends() {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let on = {
        let seen = seen.clone();
        Callback::from(move |c: Control| seen.borrow_mut().push(c))
    };
    let div = root();
    let props = ControlsProps {
        lang: Lang::En,
        position: 0,
        total: 5,
        playing: false,
        speed_ms: 600,
        on,
        limit: None,
        time_ms: None,
    };
    yew::Renderer::<Controls>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    click(&div, "[data-testid=step]");
    click(&div, "[data-testid=play]");
    click(&div, "[data-testid=run-to-end]");
    // At step 0 there is nothing to go back to: the buttons are disabled and emit nothing.
    click(&div, "[data-testid=back]");
    click(&div, "[data-testid=reset]");
    assert_eq!(
        *seen.borrow(),
        vec![Control::Step, Control::TogglePlay, Control::End]
    );
    assert_eq!(text(&div, "[data-testid=position]"), "Step 0 / 5");
    div.remove();
}

#[wasm_bindgen_test]
async fn timeline_draws_lost_messages_short_and_jumps_on_click() {
    let jumped = Rc::new(RefCell::new(None));
    let on_jump = {
        let jumped = jumped.clone();
        Callback::from(move |k: usize| *jumped.borrow_mut() = Some(k))
    };
    let row = |step, from, to: Option<usize>, lost, label: &str| TimelineRow {
        step,
        time_ms: step as u64 * 50,
        from,
        to,
        lost,
        label: label.to_string(),
        tone: if lost { Tone::Bad } else { Tone::Plain },
        replayed: None,
    };
    let rows = Rc::new(vec![
        row(1, 0, Some(1), false, "send"),
        row(2, 1, Some(2), false, "arrives"),
        row(3, 1, Some(0), true, "response lost"),
        row(4, 0, None, false, "timeout"),
    ]);
    let div = root();
    let props = TimelineProps {
        lang: Lang::En,
        rows,
        first: 0,
        total_rows: 4,
        prev_page: None,
        next_page: None,
        paged: false,
        on_page: Callback::noop(),
        current: 2,
        lanes: [Lane::Client, Lane::Network, Lane::Server]
            .into_iter()
            .fold(LaneSet::default(), LaneSet::with),
        on_jump,
    };
    yew::Renderer::<Timeline>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    assert_eq!(div.query_selector_all(".tl-row").unwrap().length(), 4);
    assert_eq!(
        div.query_selector_all(".tl-lost").unwrap().length(),
        1,
        "one lost arrow with a cross"
    );
    assert_eq!(
        div.query_selector_all(".tl-row.future").unwrap().length(),
        2,
        "steps after the current one are dimmed"
    );
    assert!(text(&div, ".tl-row.current").contains("arrives"));
    let lost = div.query_selector("[data-step='3']").unwrap().unwrap();
    lost.dispatch_event(&web_sys::MouseEvent::new("click").unwrap())
        .unwrap();
    assert_eq!(*jumped.borrow(), Some(3));
    // Rows are keyboard buttons too.
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Enter");
    init.set_bubbles(true);
    let first = div.query_selector("[data-step='1']").unwrap().unwrap();
    first
        .dispatch_event(
            &web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap(),
        )
        .unwrap();
    assert_eq!(*jumped.borrow(), Some(1));
    div.remove();
}

#[wasm_bindgen_test]
async fn first_lesson_runs_to_the_double_charge_and_steps_back() {
    // A clean slate: no remembered run.
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.clear().unwrap();
    let div = root();
    let props = PlaygroundProps {
        lang: Lang::En,
        route: Route::Scenario("double-charge".into()),
        initial: None,
        dir: "",
        tools: idempotency_playground::ui::playground::Tools::LESSONS,
        staged: false,
    };
    yew::Renderer::<Playground>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    assert_eq!(balance(&div, "naive"), 1000);
    // Run to end stops at the lesson's question: the retry is not charged yet.
    click(&div, "[data-testid=run-to-end]");
    yew::scheduler::flush().await;
    assert_eq!(balance(&div, "naive"), 900);
    answer_the_question_right(&div).await;
    assert_eq!(
        balance(&div, "naive"),
        800,
        "the answer shows the step of the double charge"
    );
    run_to_the_end_and_check_the_panels(&div).await;
    // The broken invariant links to its step; one step before it the naive balance is 900.
    click(
        &div,
        "section[data-service=naive] [data-testid=violation-step]",
    );
    yew::scheduler::flush().await;
    click(&div, "[data-testid=back]");
    yew::scheduler::flush().await;
    assert_eq!(balance(&div, "naive"), 900);
    // The run was remembered for a reload.
    let saved = storage
        .get_item(&idempotency_playground::ui::web::run_key(
            "#/scenario/double-charge",
        ))
        .unwrap()
        .unwrap();
    assert!(saved.contains("#/scenario/double-charge"), "{saved}");
    div.remove();
}

/// The lesson's question is open; the right answer (800) is chosen.
async fn answer_the_question_right(div: &web_sys::Element) {
    let predict = div
        .query_selector("[data-testid=predict]")
        .unwrap()
        .unwrap();
    assert_eq!(predict.get_attribute("data-state").as_deref(), Some("open"));
    // The choices are the core's; the right one is the run's own answer.
    let choices = div
        .query_selector_all("[data-testid=predict] button[data-choice]")
        .unwrap();
    let right = (0..choices.length())
        .map(|i| {
            choices
                .item(i)
                .unwrap()
                .dyn_into::<web_sys::HtmlElement>()
                .unwrap()
        })
        .find(|b| b.text_content().as_deref() == Some("800"))
        .expect("800 is a choice");
    right.click();
    yew::scheduler::flush().await;
    let predict = div
        .query_selector("[data-testid=predict]")
        .unwrap()
        .unwrap();
    assert_eq!(
        predict.get_attribute("data-state").as_deref(),
        Some("right")
    );
}

/// Run to the end: the balances, the atomic service's one stored key, and which panels show a
/// broken invariant.
async fn run_to_the_end_and_check_the_panels(div: &web_sys::Element) {
    click(div, "[data-testid=run-to-end]");
    yew::scheduler::flush().await;
    assert_eq!(balance(div, "naive"), 800);
    assert_eq!(balance(div, "idempotent"), 900);
    assert_eq!(balance(div, "atomic"), 900);
    assert_eq!(
        div.query_selector_all("section[data-service=atomic] [data-testid=store] tr[data-key]")
            .unwrap()
            .length(),
        1
    );
    assert!(div
        .query_selector("section[data-service=naive] [data-testid=invariants] .fail")
        .unwrap()
        .is_some());
    assert!(div
        .query_selector("section[data-service=atomic] [data-testid=invariants] .fail")
        .unwrap()
        .is_none());
}

#[wasm_bindgen_test]
async fn unknown_scenario_says_so_in_japanese_too() {
    let div = root();
    let props = PlaygroundProps {
        lang: Lang::Ja,
        route: Route::Scenario("no-such-lesson".into()),
        initial: None,
        dir: "",
        tools: idempotency_playground::ui::playground::Tools::LESSONS,
        staged: false,
    };
    yew::Renderer::<Playground>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    assert!(text(&div, "[data-testid=notice]").contains("組み込みシナリオはない"));
    assert!(div
        .query_selector("section[data-service]")
        .unwrap()
        .is_none());
    div.remove();
}

/// Issue 13: the key-scope lesson's question, its answer judged, and the caller invariant shown
/// and broken on the article's service only, with each client row's account.
#[wasm_bindgen_test]
async fn key_scope_lesson_shows_whose_receipt_was_replayed() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.clear().unwrap();
    let div = root();
    let props = PlaygroundProps::for_route(Lang::En, Route::Scenario("key-scope".into()));
    yew::Renderer::<Playground>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    click(&div, "[data-testid=run-to-end]");
    yew::scheduler::flush().await;
    let one = div
        .query_selector("[data-testid=predict] button[data-choice]")
        .unwrap();
    assert!(one.is_some(), "the question is open");
    let choices = div
        .query_selector_all("[data-testid=predict] button[data-choice]")
        .unwrap();
    let right = (0..choices.length())
        .map(|i| {
            choices
                .item(i)
                .unwrap()
                .dyn_into::<web_sys::HtmlElement>()
                .unwrap()
        })
        .find(|b| b.text_content().as_deref() == Some("2"))
        .expect("2 is a choice");
    // The production service keeps each key under its account: both customers are charged.
    right.click();
    yew::scheduler::flush().await;
    click(&div, "[data-testid=run-to-end]");
    yew::scheduler::flush().await;
    let state = div
        .query_selector("[data-testid=predict]")
        .unwrap()
        .unwrap()
        .get_attribute("data-state");
    assert_eq!(state.as_deref(), Some("right"));
    let failed = |service: &str| {
        div.query_selector(&format!(
            "section[data-service={service}] [data-testid=invariants]"
        ))
        .unwrap()
        .unwrap()
        .get_attribute("data-failed")
    };
    assert_eq!(failed("atomic").as_deref(), Some("1"));
    assert_eq!(failed("production").as_deref(), Some("0"));
    assert!(text(&div, "section[data-service=atomic] .badge.fail").contains("another account"));
    assert!(text(&div, "section[data-service=production] [data-op='2']").contains("account 2"));
    div.remove();
}

/// Issue 16: a staged page (as the pages draw it) shows the lesson and its controls first, and a
/// click on them works then; the panels, the timeline and the share panel follow in the next task.
#[wasm_bindgen_test]
async fn staged_page_draws_the_controls_first_and_the_panels_right_after() {
    let storage = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    storage.clear().unwrap();
    let div = root();
    let mut props = PlaygroundProps::for_route(Lang::En, Route::Scenario("double-charge".into()));
    props.staged = true;
    yew::Renderer::<Playground>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    assert!(div
        .query_selector("[data-testid=run-to-end]")
        .unwrap()
        .is_some());
    assert!(
        text(&div, "[data-testid=lesson]").contains("A lost reply at the article's first handler")
    );
    for part in [
        "section[data-service]",
        "[data-testid=timeline]",
        "[data-testid=share-link]",
    ] {
        assert!(
            div.query_selector(part).unwrap().is_none(),
            "{part} waits for the second step"
        );
    }
    // What sits above the panels is drawn at once, so nothing moves when they come.
    assert!(div.query_selector("[data-testid=fork]").unwrap().is_some());
    // The controls answer before the rest is drawn.
    click(&div, "[data-testid=step]");
    yew::scheduler::flush().await;
    assert!(
        text(&div, "[data-testid=position]").starts_with("Step 1 /"),
        "{}",
        text(&div, "[data-testid=position]")
    );
    // The next task draws the rest, at the step the learner is on.
    gloo_timers::future::TimeoutFuture::new(0).await;
    yew::scheduler::flush().await;
    for part in [
        "section[data-service=naive]",
        "[data-testid=timeline]",
        "[data-testid=share-link]",
    ] {
        assert!(
            div.query_selector(part).unwrap().is_some(),
            "{part} is drawn"
        );
    }
    assert_eq!(balance(&div, "naive"), 1000);
    div.remove();
    // The sandbox page's own control, Send, is in the first step too.
    let div = root();
    let mut props = PlaygroundProps::for_route(Lang::En, Route::Sandbox);
    props.staged = true;
    yew::Renderer::<Playground>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    assert!(div.query_selector("[data-testid=send]").unwrap().is_some());
    assert!(div
        .query_selector("section[data-service]")
        .unwrap()
        .is_none());
    div.remove();
}

/// Issue 26: the lesson that introduces the header shows each try as the HTTP exchange it stands
/// for, open at first: the same quoted `Idempotency-Key` on every try, the lost replies said so,
/// and the idempotent service's replays marked `Idempotent-Replayed: true`; stepping back keeps
/// the section open. The first page also lists what the HTTP model leaves out.
#[wasm_bindgen_test]
async fn key_replays_lesson_shows_each_try_on_the_wire() {
    let div = page::mount(Route::Scenario("key-replays".into()), Lang::En).await;
    click(&div, "[data-testid=predict-skip]");
    yew::scheduler::flush().await;
    click(&div, "[data-testid=run-to-end]");
    yew::scheduler::flush().await;
    let wire = "section[data-service=idempotent] [data-testid=wire]";
    assert!(page::any(&div, wire).has_attribute("open"));
    let tries = div
        .query_selector_all(&format!("{wire} [data-testid=wire-try]"))
        .unwrap();
    assert_eq!(tries.length(), 3);
    let marks: Vec<String> = (0..tries.length())
        .map(|i| {
            let e: web_sys::Element = tries.item(i).unwrap().dyn_into().unwrap();
            e.get_attribute("data-replayed").unwrap_or_default()
        })
        .collect();
    assert_eq!(marks, ["false", "true", "true"]);
    let all = text(&div, wire);
    assert!(all.contains("POST /charges HTTP/1.1"), "{all}");
    assert_eq!(all.matches("Idempotency-Key: \"").count(), 3, "{all}");
    assert_eq!(all.matches("Idempotent-Replayed: true").count(), 2, "{all}");
    assert_eq!(all.matches("response lost").count(), 2, "{all}");
    // The naive service executes every try: nothing is marked replayed.
    let naive = text(&div, "section[data-service=naive] [data-testid=wire]");
    assert!(!naive.contains("Idempotent-Replayed"), "{naive}");
    click(&div, "[data-testid=back]");
    yew::scheduler::flush().await;
    assert!(page::any(&div, wire).has_attribute("open"));
    assert!(
        div.query_selector_all("[data-testid=leaves-out] li")
            .unwrap()
            .length()
            >= 5
    );
    div.remove();
}

#[wasm_bindgen_test]
async fn a_challenge_refuses_a_move_under_its_button_and_debriefs_its_solution() {
    let div = page::mount(Route::Challenge("triple-charge".into()), Lang::Ja).await;
    assert!(div
        .query_selector("[data-testid=debrief]")
        .unwrap()
        .is_none());
    // +25 h is not one of this challenge's moves: refused under that button, which says so.
    click(&div, "[data-testid=advance-25h]");
    yew::scheduler::flush().await;
    let refused = page::any(&div, "[data-testid=move-refused]");
    assert_eq!(refused.get_attribute("role").as_deref(), Some("alert"));
    let why = refused.text_content().unwrap();
    assert!(why.starts_with("このチャレンジでは「"), "{why}");
    let button = page::any(&div, "[data-testid=advance-25h]");
    assert_eq!(
        button.get_attribute("aria-invalid").as_deref(),
        Some("true")
    );
    assert_eq!(
        button
            .next_element_sibling()
            .and_then(|e| e.get_attribute("data-testid"))
            .as_deref(),
        Some("move-refused")
    );
    assert!(div
        .query_selector("[data-testid=notice]")
        .unwrap()
        .is_none());
    // The solution, opened at its end, won: the debrief says why, what broke, and the real
    // failure it mirrors.
    click(&div, "[data-testid=show-solution]");
    yew::scheduler::flush().await;
    let status = page::any(&div, "[data-testid=challenge-status]");
    assert_eq!(status.get_attribute("data-state").as_deref(), Some("won"));
    // Won by the solution the learner opened: no star, and the link to "your" solution hidden
    // (app.css, on the class `seen`).
    let class = status.get_attribute("class").unwrap_or_default();
    assert!(class.split(' ').any(|c| c == "seen"), "{class}");
    // Its words say done, as the list's ✓ does, not won (found by a walk-through: "★ 達成"
    // beside a ✓).
    let said = status.text_content().unwrap_or_default();
    assert!(said.starts_with('✓') && said.contains("完了"), "{said}");
    let broken = text(&div, "[data-testid=debrief-broken]");
    assert!(
        broken.contains("キーごとに課金は最大1回（ステップ "),
        "{broken}"
    );
    assert!(!text(&div, "[data-testid=debrief-why]").is_empty());
    assert!(!text(&div, "[data-testid=debrief-mirrors]").is_empty());
    div.remove();
}
