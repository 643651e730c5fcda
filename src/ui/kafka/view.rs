//! The page as view functions over [`KafkaUi`] (no component of their own: each would cost its
//! lifecycle code in the wasm). Every control hands an [`Action`] to the page's reducer.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::sim::kafka::{
    BatchStatus, Belief, Choice, Config, Halt, Input, InstanceState, Invariant, RelayKind, Wire,
    CHALLENGE_IDS, LESSON_IDS, NUM_BATCHES_TO_RETAIN,
};
use crate::sim::lesson::Posed;
use crate::sim::limits::{KAFKA_MAX_IN_FLIGHT, KAFKA_MAX_RETRIES, KAFKA_MIN_IN_FLIGHT};
use crate::ui::glossary::page_linked;
use crate::ui::i18n::Lang;
use crate::ui::run::Controls;
use crate::ui::share::ShareError;
use crate::ui::text::kafka as words;
use crate::ui::text::view;
use crate::ui::web;

use super::persist::{self, LinkError};
use super::state::{Action, Answer, KafkaUi, Notice, Place};

/// How many of the latest steps the timeline lists.
const TIMELINE_ROWS: usize = 40;

/// The whole page.
pub fn page(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    html! {
        <div class="kafka" data-testid="kafka-page">
            { nav(l, ui) }
            { notice(l, ui, on) }
            { intro(l, ui, on) }
            { settings(l, ui, on) }
            { predict(l, ui, on) }
            { transfer_block(l, ui, on) }
            { next_after(l, ui) }
            <div class="run-bar">
                { controls(l, ui, on) }
                { caption(l, ui) }
            </div>
            { faults(l, ui, on) }
            <div class="kafka-grid">
                { producer(l, ui) }
                { network(l, ui) }
                { broker(l, ui) }
                { consumer(l, ui) }
            </div>
            { invariants(l, ui, on) }
            { timeline(l, ui, on) }
            { share(l, ui, on) }
            { leaves_out(l) }
        </div>
    }
}

/// "What this model leaves out": the simplifications, each also an ignored case in
/// tests/conformance/kafka.rs.
fn leaves_out(l: Lang) -> Html {
    html! {
        <details class="card leaves-out" data-testid="leaves-out">
            <summary><h3>{ view::kafka::LEAVES_OUT_HEADING.get(l) }</h3></summary>
            <p class="muted">{ view::kafka::LEAVES_OUT_INTRO.get(l) }</p>
            <ul>{ for words::LEAVES_OUT.iter().map(|w| html! { <li>{ w.get(l) }</li> }) }</ul>
        </details>
    }
}

fn nav(l: Lang, ui: &KafkaUi) -> Html {
    let item = |place: Place, label: String| {
        let active = ui.place == place;
        html! {
            <li><a href={place.route().to_hash()} class={classes!(active.then_some("active"))}
                   aria-current={active.then_some("page")}>{ label }</a></li>
        }
    };
    html! {
        <nav class="kafka-nav card" data-testid="kafka-nav" aria-label={view::kafka::NAV_LABEL.get(l)}>
            <ol>
                { for LESSON_IDS.iter().enumerate().map(|(i, id)| {
                    let title = words::lesson(id).map_or("", |w| w.title.get(l));
                    item(Place::Lesson(id), view::kafka::nav_lesson(l, i + 1, title))
                }) }
                { for CHALLENGE_IDS.iter().map(|id| {
                    let title = words::challenge(id).map_or("", |(t, _)| t.get(l));
                    item(Place::Challenge(id), view::kafka::nav_challenge(l, title))
                }) }
                { item(Place::Sandbox, view::kafka::SANDBOX.get(l).into()) }
            </ol>
            <p class="muted"><a href="../">{ view::kafka::BACK_TO_PATH.get(l) }</a></p>
        </nav>
    }
}

fn share_error(l: Lang, e: &ShareError) -> String {
    match e {
        ShareError::LinkTooLong { bytes } => view::kafka::link_too_long(l, *bytes),
        _ => view::kafka::LINK_DAMAGED.get(l).into(),
    }
}

fn link_error(l: Lang, e: &LinkError) -> String {
    match e {
        LinkError::Share(e) => share_error(l, e),
        LinkError::Json(e) => words::json_error(l, e),
    }
}

/// The notice's words, and whether it tells of an error.
fn notice_text(l: Lang, n: &Notice) -> (bool, String) {
    match n {
        Notice::BadLink(e) => (true, view::kafka::bad_link(l, &link_error(l, e))),
        Notice::BadSaved(e) => (true, view::kafka::bad_saved(l, &link_error(l, e))),
        Notice::OlderModel => (false, view::kafka::OLDER_MODEL.get(l).into()),
        Notice::UnknownChallenge => (true, view::kafka::UNKNOWN_CHALLENGE.get(l).into()),
        Notice::Imported => (false, view::kafka::IMPORTED.get(l).into()),
        Notice::ImportFailed(e) => (true, view::kafka::not_imported(l, &words::json_error(l, e))),
        Notice::Limit(e) => (true, view::kafka::not_added(l, &words::limit(l, *e))),
        Notice::StepLimit(Halt::StepLimit) => (true, view::kafka::STEP_LIMIT.get(l).into()),
        Notice::StepLimit(Halt::Congested { expired, written }) => {
            (true, view::kafka::congested(l, *expired, *written))
        }
    }
}

fn notice(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let Some(n) = &ui.notice else {
        return html! {};
    };
    let (error, text) = notice_text(l, n);
    html! {
        <div class={classes!("notice", error.then_some("error"))} data-testid="notice" role="status">
            { text }{ " " }
            <button onclick={on.reform(|_| Action::Dismiss)}>{ view::kafka::DISMISS.get(l) }</button>
        </div>
    }
}

/// In a lesson, the next lesson of the page, or after its last the path's next lesson.
fn next_after(l: Lang, ui: &KafkaUi) -> Html {
    let Place::Lesson(id) = ui.place else {
        return html! {};
    };
    let at = crate::sim::kafka::LESSON_IDS.iter().position(|x| *x == id);
    match crate::sim::kafka::LESSON_IDS.get(at.map_or(usize::MAX - 1, |a| a + 1)) {
        Some(next) => crate::ui::question::next_link(
            l,
            &format!("#/scenario/{next}"),
            words::lesson(next).map_or("", |w| w.title.get(l)),
        ),
        None => crate::ui::question::next_link(
            l,
            "../#/scenario/effectively-once",
            view::kafka::AFTER_THE_PAGE.get(l),
        ),
    }
}

fn intro(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    match ui.place {
        Place::Lesson(id) => {
            let Some(w) = words::lesson(id) else {
                return html! {};
            };
            html! {
                <section class="intro card lesson" data-testid="intro">
                    <h2 tabindex="-1">{ w.title.get(l) }</h2>
                    <p data-testid="story">{ page_linked(l, "kafka/", &w.story(l, ui.scenario.config.idempotence)) }</p>
                    <button class="reset-lesson" data-testid="reset-lesson" title={crate::ui::text::view::common::RESET_LESSON_TITLE.get(l)} onclick={on.reform(|_| Action::ResetLesson)}>{ crate::ui::text::view::common::RESET_LESSON.get(l) }</button>
                </section>
            }
        }
        Place::Challenge(id) => {
            let Some((title, goal)) = words::challenge(id) else {
                return html! {};
            };
            let won = ui.won();
            // At the run's last step with the goal not met, these settings and sends do not win.
            let ended = !won && ui.at_end();
            let solution = words::solution(id);
            let delay_note = !won && ui.place.goal().is_some_and(|g| g.delay_note(&ui.scenario));
            html! {
                <section class="intro card challenge" data-testid="challenge">
                    <h2>{ title.get(l) }</h2>
                    <p class="goal">{ goal.get(l) }</p>
                    <p class={classes!("status", won.then_some("won"), ended.then_some("failed"))} data-testid="challenge-status" data-won={won.to_string()} data-ended={ended.to_string()}>
                        { if won && crate::ui::run::counts_win(id) {
                            view::kafka::WON.get(l)
                        } else if won {
                            view::common::MET_BY_SOLUTION.get(l)
                        } else if ended {
                            view::kafka::NOT_WON.get(l)
                        } else {
                            view::kafka::NOT_YET.get(l)
                        } }
                    </p>
                    if delay_note {
                        <p class="kafka-refusal" data-testid="delay-note">{ view::kafka::DELAY_NOTE.get(l) }</p>
                    }
                    if won || ui.solution_shown {
                        { challenge_debrief(l, ui, id, solution) }
                    }
                    if ui.solution_shown {
                        if ui.before_solution.is_some() {
                            <button data-testid="restore-mine" onclick={on.reform(|_| Action::RestoreMine)}>{ view::kafka::BACK_TO_MY_RUN.get(l) }</button>
                        }
                    } else {
                        <button data-testid="show-solution" onclick={on.reform(move |_| {
                            crate::ui::run::note_solution(id);
                            Action::ShowSolution
                        })}>{ view::kafka::SHOW_SOLUTION.get(l) }</button>
                    }
                </section>
            }
        }
        Place::Sandbox => html! {
            <section class="intro card" data-testid="intro">
                <h2>{ view::kafka::SANDBOX_TITLE.get(l) }</h2>
                <p>{ view::kafka::SANDBOX_STORY.get(l) }</p>
            </section>
        },
    }
}

fn select_value(e: &Event) -> Option<String> {
    let t = e.target()?;
    if let Some(s) = t.dyn_ref::<web_sys::HtmlSelectElement>() {
        return Some(s.value());
    }
    None
}

/// The delivery timeouts offered (Kafka's default is 4 request timeouts: 120 s against 30 s;
/// here the request timeout is 60 ms). A scenario's own value is offered too.
const DELIVERY_TIMEOUTS: [u32; 4] = [120, 180, 240, 480];

fn settings(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let c = ui.scenario.config;
    let set = |f: fn(Config) -> Config| on.reform(move |_: Event| Action::Configure(f(c)));
    let number = |apply: fn(Config, u8) -> Config| {
        on.reform(move |e: Event| {
            let n = select_value(&e).and_then(|v| v.parse::<u8>().ok());
            Action::Configure(n.map_or(c, |n| apply(c, n)))
        })
    };
    let delivery = on.reform(move |e: Event| {
        let d = select_value(&e).and_then(|v| v.parse::<u32>().ok());
        Action::Configure(Config {
            delivery_timeout_ms: d,
            ..c
        })
    });
    let relay = on.reform(move |e: Event| {
        let r = match select_value(&e).as_deref() {
            Some("log") => RelayKind::Log,
            _ => RelayKind::Outbox,
        };
        Action::Configure(Config { relay: r, ..c })
    });
    let refusal = c.refusal().map(|r| words::refusal(l, r));
    html! {
        <section class="card kafka-settings" data-testid="settings" aria-labelledby="kafka-settings-h">
            <h3 id="kafka-settings-h">{ view::kafka::SETTINGS_HEADING.get(l) }</h3>
            <div class="kafka-fields">
                <label class="check"><input type="checkbox" data-testid="idempotence" checked={c.idempotence}
                    onchange={set(|c| Config { idempotence: !c.idempotence, ..c })} />
                    { "enable.idempotence" }</label>
                <label>{ "max.in.flight.requests.per.connection " }
                    <select data-testid="max-in-flight" onchange={number(|c, n| Config { max_in_flight: n, ..c })}>
                        { for (KAFKA_MIN_IN_FLIGHT..=KAFKA_MAX_IN_FLIGHT).map(|n| html! {
                            <option value={n.to_string()} selected={n == c.max_in_flight}>{ n }</option>
                        }) }
                    </select></label>
                <label>{ "retries " }
                    <select data-testid="retries" onchange={number(|c, n| Config { retries: n, ..c })}>
                        { for (0..=KAFKA_MAX_RETRIES).map(|n| html! {
                            <option value={n.to_string()} selected={n == c.retries}>{ n }</option>
                        }) }
                    </select></label>
                <label>{ "delivery.timeout.ms " }
                    <select data-testid="delivery-timeout" onchange={delivery}>
                        <option value="" selected={c.delivery_timeout_ms.is_none()}>{ view::kafka::NO_DELIVERY_TIMEOUT.get(l) }</option>
                        { for DELIVERY_TIMEOUTS.iter().chain(c.delivery_timeout_ms.filter(|d| !DELIVERY_TIMEOUTS.contains(d)).iter()).map(|&ms| html! {
                            <option value={ms.to_string()} selected={Some(ms) == c.delivery_timeout_ms}>{ view::kafka::ms(l, ms) }</option>
                        }) }
                    </select></label>
                <label class="check"><input type="checkbox" data-testid="transactional-id" checked={c.transactional_id}
                    onchange={set(|c| Config { transactional_id: !c.transactional_id, ..c })} />
                    { "transactional.id" }</label>
                <label>{ view::kafka::RELAY_LABEL.get(l) }
                    <select data-testid="relay" onchange={relay}>
                        { for RelayKind::ALL.iter().map(|r| html! {
                            <option value={r.id()} selected={*r == c.relay}>{ words::relay(l, *r) }</option>
                        }) }
                    </select></label>
                <label class="check"><input type="checkbox" data-testid="inbox" checked={c.inbox}
                    onchange={set(|c| Config { inbox: !c.inbox, ..c })} />
                    { view::kafka::CONSUMER_INBOX.get(l) }</label>
            </div>
            if let Some(r) = refusal {
                <p class="kafka-refusal" data-testid="refusal">{ r }</p>
            }
        </section>
    }
}

fn predict(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let Place::Lesson(id) = ui.place else {
        return html! {};
    };
    let Some(w) = words::lesson(id) else {
        return html! {};
    };
    let ask = w.ask.get(l);
    let Some(p) = &ui.posed else {
        return html! {
            <div class="predict" data-testid="predict" data-state="not-applicable">
                <p class="ask"><strong>{ view::kafka::PREDICT_LABEL.get(l) }</strong>{ ask }</p>
                <p class="muted">{ view::kafka::NOT_APPLICABLE.get(l) }</p>
            </div>
        };
    };
    match ui.answer {
        Answer::Open => {
            let hint = if ui.at_question() {
                view::kafka::WAITS_HERE
            } else {
                view::kafka::STOPS_BEFORE
            };
            let open = crate::ui::question::Open {
                testid: "predict",
                label: crate::ui::text::view::common::PREDICT_LABEL.get(l),
                ask,
                answer: on.reform(Action::Answer),
                skip: Some(on.reform(|_| Action::Skip)),
                hint: hint.get(l),
            };
            let labels = p.choices.iter().map(|c| words::choice(l, *c).to_string());
            crate::ui::question::open_question(l, open, labels)
        }
        answer => answered(l, ui, &w, p, answer, on),
    }
}

/// The question answered or skipped: the verdict, why (or that the run was changed), and what
/// to try next.
fn answered(
    l: Lang,
    ui: &KafkaUi,
    w: &words::LessonWords,
    p: &Posed<crate::sim::kafka::Choice>,
    answer: Answer,
    on: &Callback<Action>,
) -> Html {
    let right = match answer {
        Answer::Picked(i) => Some(p.is_right(i)),
        _ => None,
    };
    let state = match right {
        Some(true) => "right",
        Some(false) => "wrong",
        None => "skipped",
    };
    let shown = words::choice(l, p.answer_value());
    let verdict = match right {
        Some(true) => view::kafka::right(l, &shown),
        Some(false) => {
            let picked = match answer {
                Answer::Picked(i) => p.choices.get(i).map(|c| words::choice(l, *c)),
                _ => None,
            }
            .unwrap_or_default();
            view::kafka::not_quite(l, &picked, &shown)
        }
        None => view::kafka::the_answer(l, &shown),
    };
    let shows = p.shows_at;
    let changed = ui.scenario != ui.place.builtin();
    let picked = match answer {
        Answer::Picked(i) => Some(i),
        _ => None,
    };
    let held = held(p, picked, &ui.beliefs, l);
    html! {
        <div class="predict" data-testid="predict" data-state={state}>
            <p class="ask"><strong>{ view::kafka::PREDICT_LABEL.get(l) }</strong>{ w.ask.get(l) }</p>
            <p class={classes!("verdict", state)} data-testid="verdict" role="status" tabindex="-1">{ verdict }</p>
            { crate::ui::question::beliefs(l, held, false) }
            if changed {
                // The words explain the lesson as built; this run is another one.
                <p class="why muted" data-testid="why-changed">{ view::kafka::WHY_CHANGED.get(l) }
                    { " " }<button class="linkish" data-testid="why-step" onclick={on.reform(move |_| show_step(shows))}>
                    { view::kafka::see_step(l, shows) }</button></p>
            } else {
                <p class="why" data-testid="why">{ page_linked(l, "kafka/", w.why.get(l)) }{ " " }
                    <button class="linkish" data-testid="why-step" onclick={on.reform(move |_| show_step(shows))}>
                        { view::kafka::see_step(l, shows) }</button></p>
                <p class="takeaway">{ page_linked(l, "kafka/", w.try_next.get(l)) }</p>
            }
            <button class="again" data-testid="predict-again" onclick={on.reform(|_| Action::AskAgain)}>{ view::kafka::ASK_AGAIN.get(l) }</button>
        </div>
    }
}

/// The lesson's variation question, once its own is answered or skipped: open, then judged,
/// with why, each choice's belief (the core's), and a button that loads the varied run.
fn transfer_block(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let (Place::Lesson(id), Some(t)) = (ui.place, &ui.transfer) else {
        return html! {};
    };
    let Some(w) = words::variation(id).filter(|_| ui.answer != Answer::Open) else {
        return html! {};
    };
    let (p, ask) = (&t.1, w.ask.get(l));
    let Some(picked) = ui.transfer_answer.filter(|i| *i < p.choices.len()) else {
        let open = crate::ui::question::Open {
            testid: "transfer",
            label: view::common::VARIATION_LABEL.get(l),
            ask,
            answer: on.reform(Action::AnswerTransfer),
            skip: None,
            hint: "",
        };
        let labels = p.choices.iter().map(|c| words::choice(l, *c));
        return crate::ui::question::open_question(l, open, labels);
    };
    let shown = words::choice(l, p.answer_value());
    let (state, verdict) = if p.is_right(picked) {
        ("right", view::kafka::right(l, &shown))
    } else {
        let said = words::choice(l, p.choices[picked]);
        ("wrong", view::kafka::not_quite(l, &said, &shown))
    };
    let held = held(p, Some(picked), &t.2, l);
    html! {
        <div class="predict transfer" data-testid="transfer" data-state={state}>
            <p class="ask"><strong>{ view::common::VARIATION_LABEL.get(l) }</strong>{ ask }</p>
            <p class={classes!("verdict", state)} role="status" tabindex="-1">{ verdict }</p>
            <p class="why">{ w.why.get(l) }</p>
            { crate::ui::question::beliefs(l, held, true) }
            <button data-testid="run-variation" onclick={on.reform(|_| Action::RunVariation)}>{ view::common::RUN_VARIATION.get(l) }</button>
        </div>
    }
}

/// The choices of `posed` with their beliefs (`beliefs`) and the learner's pick, as the page
/// lists them after an answer.
fn held<'a>(
    posed: &'a Posed<Choice>,
    picked: Option<usize>,
    beliefs: &'a [Option<Belief>],
    l: Lang,
) -> impl Iterator<Item = crate::ui::question::Held> + 'a {
    let words =
        move |b: Option<Belief>| b.map_or(words::NO_MODEL, words::belief).get(l).to_string();
    crate::ui::question::held(
        &posed.choices,
        posed.answer,
        picked,
        beliefs,
        move |c| words::choice(l, *c),
        words,
    )
}

fn controls(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let limit = (ui.max_step() < ui.records.len()).then(|| ui.max_step());
    html! {
        <Controls lang={l} position={ui.cursor()} total={ui.records.len()} playing={ui.playing}
                  speed_ms={ui.speed_ms} on={on.reform(Action::from)} {limit}
                  time_ms={Some(ui.sim().now_ms())} />
    }
}

fn caption(l: Lang, ui: &KafkaUi) -> Html {
    let text = match &ui.sim().last {
        Some(r) => view::kafka::caption(l, ui.cursor(), &words::step(l, r)),
        None if ui.records.is_empty() => view::kafka::NOTHING_YET.get(l).into(),
        None => view::kafka::STEP_ZERO.get(l).into(),
    };
    html! { <p class="caption" data-testid="caption" aria-live="polite">{ text }</p> }
}

fn faults(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let restarts = ui.place.goal().is_none_or(|g| g.allows_restarts());
    let add = |i: Input| on.reform(move |_| Action::Add(i));
    let delay = ui.delay_ms;
    let set_delay = on.reform(move |e: Event| {
        Action::SetDelay(
            select_value(&e)
                .and_then(|v| v.parse().ok())
                .unwrap_or(delay),
        )
    });
    let (lr, la, ld, lf) = ui.sim().armed();
    let armed = (lr + la + lf > 0 || ld > 0).then(|| view::kafka::armed(l, lr, la, ld, lf));
    html! {
        <section class="card kafka-faults" data-testid="inputs" aria-labelledby="kafka-inputs-h">
            <h3 id="kafka-inputs-h">{ view::kafka::INPUTS_HEADING.get(l) }</h3>
            <div class="controls">
                <button data-testid="send" onclick={add(Input::Send { count: 1 })}>{ view::kafka::SEND_1.get(l) }</button>
                <button data-testid="send-5" onclick={add(Input::Send { count: 5 })}>{ view::kafka::SEND_5.get(l) }</button>
                <button data-testid="lose-request" onclick={add(Input::LoseNextRequest)}>{ view::kafka::LOSE_REQUEST.get(l) }</button>
                <button data-testid="lose-ack" onclick={add(Input::LoseNextAck)}>{ view::kafka::LOSE_ACK.get(l) }</button>
                <button data-testid="expire" title={view::kafka::EXPIRE_TITLE.get(l)} onclick={add(Input::ExpireProducers)}>{ view::kafka::EXPIRE.get(l) }</button>
                <button data-testid="refuse" title={view::kafka::REFUSE_TITLE.get(l)} onclick={add(Input::RefuseNextRequest)}>{ view::kafka::REFUSE.get(l) }</button>
                <span class="kafka-delay">
                    <button data-testid="delay" onclick={add(Input::DelayNextRequest { ms: delay })}>{ view::kafka::DELAY.get(l) }</button>
                    <select data-testid="delay-ms" aria-label={view::kafka::DELAY_LABEL.get(l)} onchange={set_delay}>
                        { for [20u32, 50, 100, 200, 500].iter().map(|ms| html! {
                            <option value={ms.to_string()} selected={*ms == delay}>{ view::kafka::ms(l, *ms) }</option>
                        }) }
                    </select>
                </span>
                <button data-testid="crash" disabled={!restarts} onclick={add(Input::Crash)}>{ view::kafka::CRASH.get(l) }</button>
                <button data-testid="restart" disabled={!restarts} onclick={add(Input::Restart)}>{ view::kafka::RESTART.get(l) }</button>
                <button data-testid="wake-zombie" disabled={!restarts} onclick={add(Input::WakeZombie)}>{ view::kafka::WAKE_ZOMBIE.get(l) }</button>
            </div>
            if let Some(a) = armed { <p class="muted" data-testid="armed">{ a }</p> }
            if !restarts { <p class="muted">{ view::kafka::NO_RESTARTS.get(l) }</p> }
        </section>
    }
}

fn dash(v: Option<u32>) -> String {
    v.map_or_else(|| "—".into(), |v| v.to_string())
}

fn producer(l: Lang, ui: &KafkaUi) -> Html {
    let sim = ui.sim();
    html! {
        <section class="card kafka-producer" data-testid="producer" aria-labelledby="kafka-producer-h">
            <h3 id="kafka-producer-h">{ view::kafka::PRODUCER.get(l) }</h3>
            { for sim.instances.iter().enumerate().map(|(i, inst)| {
                let name = words::instance_name(i);
                let pid = dash(inst.pid);
                let epoch = inst.epoch;
                let state = words::instance_state(l, inst.state);
                let current = sim.current == Some(i);
                let head = view::kafka::instance_head(l, &name, &pid, epoch, state);
                html! {
                    <div class={classes!("kafka-instance", (inst.state == InstanceState::Fenced).then_some("fenced"))}
                         data-testid="instance" data-state={format!("{:?}", inst.state).to_lowercase()}>
                        <p><strong>{ head }</strong>{ if current { view::kafka::THE_RELAYS.get(l) } else { "" } }</p>
                        <div class="tbl-wrap" tabindex="0"><table>
                            <thead><tr>
                                <th>{ view::kafka::EVENT.get(l) }</th><th>{ "seq" }</th><th>{ view::kafka::EPOCH.get(l) }</th>
                                <th>{ view::kafka::SENDS.get(l) }</th><th>{ view::kafka::STATE.get(l) }</th>
                            </tr></thead>
                            <tbody>
                            { for inst.batches.iter().rev().take(12).map(|b| html! {
                                <tr data-testid="batch" class={classes!(matches!(b.status, BatchStatus::InFlight).then_some("in-flight"))}>
                                    <td>{ words::event_name(b.event) }</td><td>{ dash(b.seq) }</td><td>{ dash(b.seq.map(|_| u32::from(b.epoch))) }</td>
                                    <td>{ b.attempts }</td><td>{ words::batch_status(l, b.status) }</td>
                                </tr>
                            }) }
                            </tbody>
                        </table></div>
                    </div>
                }
            }) }
        </section>
    }
}

fn network(l: Lang, ui: &KafkaUi) -> Html {
    let wire = ui.sim().wire();
    html! {
        <section class="card kafka-network" data-testid="network" aria-labelledby="kafka-network-h">
            <h3 id="kafka-network-h">{ view::kafka::NETWORK.get(l) }</h3>
            if wire.is_empty() {
                <p class="muted">{ view::kafka::NOTHING_ON_WIRE.get(l) }</p>
            }
            <ul class="kafka-wire">
            { for wire.iter().map(|w| match *w {
                Wire::Request { at_ms, inst, event, seq, attempt } => {
                    let (p, e, s) = (words::instance_name(inst), words::event_name(event), dash(seq));
                    html! { <li data-testid="wire-request">{ view::kafka::wire_request(l, &p, &e, &s, attempt, at_ms) }</li> }
                }
                Wire::Answer { at_ms, inst, event, verdict } => {
                    let (p, e, v) = (words::instance_name(inst), words::event_name(event), words::verdict(l, verdict));
                    html! { <li data-testid="wire-answer">{ view::kafka::wire_answer(l, &p, &e, &v, at_ms) }</li> }
                }
            }) }
            </ul>
        </section>
    }
}

fn broker(l: Lang, ui: &KafkaUi) -> Html {
    let b = &ui.sim().broker;
    let txn = b
        .txn
        .map(|(pid, epoch)| view::kafka::coordinator(l, pid, epoch));
    let window = NUM_BATCHES_TO_RETAIN;
    html! {
        <section class="card kafka-broker" data-testid="broker" aria-labelledby="kafka-broker-h">
            <h3 id="kafka-broker-h">{ view::kafka::BROKER_HEADING.get(l) }</h3>
            <div class="tbl-wrap" tabindex="0"><table class="kafka-log">
                <thead><tr>
                    // What was written and whether twice first: on a phone the producer id, epoch
                    // and sequence (a dash without idempotence) are what scrolls away.
                    <th>{ view::kafka::OFFSET.get(l) }</th><th>{ view::kafka::EVENT.get(l) }</th>
                    <th>{ view::kafka::FROM.get(l) }</th><th></th><th>{ view::kafka::PRODUCER_ID.get(l) }</th>
                    <th>{ view::kafka::EPOCH.get(l) }</th><th>{ "seq" }</th>
                </tr></thead>
                <tbody data-testid="partition-log">
                { for b.log.iter().map(|r| html! {
                    <tr data-offset={r.offset.to_string()} data-pid={dash(r.pid)} data-epoch={r.epoch.to_string()}
                        data-seq={dash(r.seq)} data-duplicate={r.duplicate.to_string()} data-event={r.event.to_string()}
                        class={classes!(r.duplicate.then_some("dup"))}>
                        <td>{ r.offset }</td>
                        <td>{ words::event_name(r.event) }{ if r.duplicate { " ⚠" } else { "" } }</td><td>{ words::instance_name(r.writer) }</td>
                        <td>{ if r.duplicate { view::kafka::DUPLICATE.get(l) } else { "" } }</td>
                        <td>{ dash(r.pid) }</td><td>{ r.epoch }</td><td>{ dash(r.seq) }</td>
                    </tr>
                }) }
                </tbody>
            </table></div>
            if b.log.is_empty() { <p class="muted">{ view::kafka::LOG_EMPTY.get(l) }</p> }
            <h4>{ view::kafka::remembers(l, window) }</h4>
            <ul class="kafka-windows">
            { for b.producers.iter().map(|e| {
                let (pid, epoch) = (e.pid, e.epoch);
                html! {
                    <li data-testid="window" data-pid={pid.to_string()}>
                        { view::kafka::window_head(l, pid, epoch) }
                        { for e.batches.iter().map(|m| {
                            let (seq, offset) = (m.seq, m.offset);
                            html! {
                                <span class="kafka-slot" title={view::kafka::slot_offset(l, offset)}>{ view::kafka::slot_seq(l, seq) }</span>
                            }
                        }) }
                    </li>
                }
            }) }
            </ul>
            if let Some(t) = txn { <p class="muted" data-testid="coordinator">{ t }</p> }
        </section>
    }
}

fn consumer(l: Lang, ui: &KafkaUi) -> Html {
    let c = &ui.sim().consumer;
    let r = &ui.sim().relay;
    let (written, published) = (r.written, r.published.iter().filter(|p| **p).count());
    let relay_line = match r.kind {
        RelayKind::Outbox => view::kafka::outbox_line(l, written, published),
        RelayKind::Log => view::kafka::log_line(l, written, r.committed),
    };
    let skipped = c.skipped;
    html! {
        <section class="card kafka-consumer" data-testid="consumer" aria-labelledby="kafka-consumer-h">
            <h3 id="kafka-consumer-h">{ view::kafka::CONSUMER_HEADING.get(l) }</h3>
            <p data-testid="relay-state">{ relay_line }</p>
            <p>{ if c.inbox { view::kafka::INBOX_ON.get(l) } else { view::kafka::INBOX_OFF.get(l) } }
               { if c.inbox { view::kafka::skipped(l, skipped) } else { String::new() } }</p>
            <ul class="kafka-applied">
            { for c.applied.iter().enumerate().filter(|(_, n)| **n > 0).map(|(e, n)| {
                let name = words::event_name(e as u32);
                html! {
                    <li data-testid="applied" data-event={e.to_string()} data-times={n.to_string()} class={classes!((*n > 1).then_some("bad"))}>
                        { view::kafka::applied(l, &name, *n) }
                    </li>
                }
            }) }
            </ul>
        </section>
    }
}

fn invariant_id(i: Invariant) -> &'static str {
    match i {
        Invariant::NoDuplicateInSession => "no-duplicate-in-session",
        Invariant::SendOrder => "send-order",
        Invariant::NoFencedWrite => "no-fenced-write",
        Invariant::AppliedOnce => "applied-once",
    }
}

fn invariants(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    html! {
        <section class="card" data-testid="invariants" aria-labelledby="kafka-inv-h">
            <h3 id="kafka-inv-h">{ view::kafka::INVARIANTS_HEADING.get(l) }</h3>
            <ul class="kafka-invariants">
            { for Invariant::ALL.iter().map(|&i| {
                let broken = ui.sim().violations.broken_at(i);
                let promised = i.promised(&ui.scenario);
                let name = words::invariant(l, i);
                let (class, mark) = match (promised, broken.is_some()) {
                    (false, _) => ("na", "– "),
                    (true, true) => ("fail", "✕ "),
                    (true, false) => ("pass", "✓ "),
                };
                html! {
                    <li data-invariant={invariant_id(i)} data-state={if broken.is_some() { "broken" } else { "holds" }} data-promised={promised.to_string()}>
                        <span class={classes!("badge", class)}>{ mark }{ name }</span>
                        if !promised {
                            <span data-testid="not-promised">{ view::kafka::NOT_PROMISED.get(l) }</span>
                        }
                        { match broken {
                            Some(k) => html! { <>{ if promised { " " } else { view::kafka::BREAK_GAP.get(l) } }<button class="linkish" onclick={on.reform(move |_| Action::Goto(k))}>
                                { if promised { view::kafka::broken_at(l, k) } else { view::kafka::happens_at(l, k) } }</button></> },
                            None => html! {},
                        } }
                        <span class="muted">{ " " }{ words::promise(l, i) }</span>
                    </li>
                }
            }) }
            </ul>
        </section>
    }
}

fn timeline(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let k = ui.cursor();
    let first = k.saturating_sub(TIMELINE_ROWS);
    html! {
        <section class="card kafka-timeline" data-testid="timeline" aria-labelledby="kafka-tl-h">
            <h3 id="kafka-tl-h">{ view::kafka::TIMELINE_HEADING.get(l) }</h3>
            if first > 0 { <p class="muted">{ view::kafka::earlier_steps(l, first) }</p> }
            <ol start={(first + 1).to_string()}>
            { for ui.records[first..k.min(ui.records.len())].iter().enumerate().map(|(j, r)| {
                let n = first + j + 1;
                let t = r.at_ms;
                let text = words::step(l, r);
                html! {
                    <li class={classes!("tl-step", (n == k).then_some("current"))} data-step={n.to_string()}>
                        <button class="linkish" onclick={on.reform(move |_| Action::Goto(n))}>{ view::kafka::at_time(l, t) }</button>
                        { " " }{ text }
                    </li>
                }
            }) }
            </ol>
        </section>
    }
}

fn import_text() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("kafka-import"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        .map(|t| t.value())
        .unwrap_or_default()
}

fn share(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let query = persist::to_query(&ui.scenario, ui.cursor());
    let link = format!("{}{}?{query}", web::page_base(), ui.place.route().to_hash());
    let json = crate::sim::kafka::to_json(&ui.scenario);
    let download = format!(
        "data:application/json;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(&json))
    );
    html! {
        <section class="card share" data-testid="share" aria-labelledby="kafka-share-h">
            <h3 id="kafka-share-h">{ view::kafka::SHARE_HEADING.get(l) }</h3>
            <p class="muted">{ view::kafka::SHARE_NOTE.get(l) }</p>
            <input class="kafka-link" readonly=true value={link} data-testid="share-link" aria-label={view::kafka::SHARE_LINK.get(l)} />
            <p><a href={download} download="kafka-scenario.json" data-testid="export">{ view::kafka::DOWNLOAD_JSON.get(l) }</a></p>
            <details>
                <summary>{ view::kafka::IMPORT_JSON.get(l) }</summary>
                <textarea id="kafka-import" data-testid="import-text" aria-label={view::kafka::SCENARIO_JSON.get(l)} />
                <button data-testid="import" onclick={on.reform(|_| Action::Import(import_text()))}>{ view::kafka::IMPORT.get(l) }</button>
            </details>
        </section>
    }
}

/// The debrief once the challenge is won or its solution is shown: why the solution works, the
/// invariants the run broke by the cursor, the real failure it mirrors.
fn challenge_debrief(l: Lang, ui: &KafkaUi, id: &str, why: crate::ui::i18n::Pair) -> Html {
    let sim = ui.sim();
    let broken: Vec<(&str, usize)> = Invariant::ALL
        .iter()
        .filter_map(|&i| Some((words::invariant(l, i), sim.violations.broken_at(i)?)))
        .collect();
    crate::ui::question::debrief(l, why.get(l), &broken, words::mirrors(id).get(l))
}

/// Goes to the step an answer's "why" names, and brings its timeline row into view (on a phone
/// it sits screens below the answer).
fn show_step(k: usize) -> Action {
    web::scroll_after_render("li.tl-step.current");
    Action::Goto(k)
}
