//! The page's parts as view functions (no components of their own: each would cost the wasm
//! its lifecycle code): the lesson list, the lesson, challenge or free-run card with the
//! question, the controls and caption, one card per column (worker, balance, journal, effects,
//! replies, invariants, store), the workflow's source with the current lines, the sequence
//! timeline, the settings, the engines' documented behaviour, and share / import.

use yew::prelude::*;

use crate::ui::text::money;

use crate::sim::durable::{
    challenge, section, source_lines, Action, Answer, Belief, ClockMode, Config, ConflictPolicy,
    EffectKind, Engine, FaultKind, FlowKind, Invariant, KeyMode, RequestId, RestateTarget,
    ReusePolicy, World, AFTER_RETENTION_MS, CHALLENGE_IDS, DEFAULT_START_TO_CLOSE_MS, LESSON_IDS,
};
use crate::sim::lesson::Posed;
use crate::sim::limits::MAX_JSON_BYTES;
use crate::ui::glossary::page_linked;
use crate::ui::i18n::Lang;
use crate::ui::playground::teach::Mark;
use crate::ui::run::Controls;
use crate::ui::text::durable as words;
use crate::ui::text::errors::input_error;
use crate::ui::text::fmt_ms;
use crate::ui::text::view;

use super::persist;
use super::state::{DurAction, DurUi, Mode, Notice, Setting};

type On = Callback<DurAction>;

/// The page's heading and what durable execution is, with the lesson list.
pub fn header(l: Lang, mode: Mode) -> Html {
    html! {
        <header class="card dur-intro">
            <h2 id="dur-h">{ view::durable::TITLE.get(l) }</h2>
            <p>{ view::durable::INTRO.get(l) }</p>
            { lesson_list(l, mode) }
        </header>
    }
}

/// The lesson list: lessons with ✓ when done, challenges with ★ when won, the free run.
fn lesson_list(l: Lang, mode: Mode) -> Html {
    let item = |href: String, title: &'static str, mark: Option<Mark>, current: bool| {
        let sign = match mark {
            Some(Mark::Done) => "✓ ",
            Some(Mark::Won) => "★ ",
            None => "",
        };
        html! {
            <li><a href={href} class={classes!(current.then_some("active"))}
                   aria-current={current.then_some("page")}>{ sign }{ title }</a></li>
        }
    };
    let lessons = LESSON_IDS.iter().map(|id| {
        let cur = mode == Mode::Lesson(id);
        item(
            format!("#/scenario/{id}"),
            words::lesson(l, id).title,
            crate::ui::run::marked(id),
            cur,
        )
    });
    let challenges = CHALLENGE_IDS.iter().map(|id| {
        let cur = mode == Mode::Challenge(id);
        item(
            format!("#/durable/challenge/{id}"),
            words::challenge(l, id).0,
            crate::ui::run::marked(id),
            cur,
        )
    });
    html! {
        <nav class="dur-lessons" aria-label={view::durable::LESSONS.get(l)} data-testid="lesson-list">
            <ol>{ for lessons }</ol>
            <p class="muted">{ view::durable::CHALLENGES.get(l) }</p>
            <ul>{ for challenges }
                { item("#/durable".into(), view::durable::FREE_RUN_ITEM.get(l), None, mode == Mode::Free) }
            </ul>
        </nav>
    }
}

/// The message above the run.
pub fn notice(l: Lang, n: &Notice) -> Html {
    let (class, text) = match n {
        Notice::BadLink(e) => ("error", view::durable::bad_link(l, &input_error(l, e))),
        Notice::BadSaved(e) => ("error", view::durable::bad_saved(l, &input_error(l, e))),
        Notice::BadImport(e) => ("error", view::durable::not_imported(l, &input_error(l, e))),
        Notice::Imported => ("info", view::durable::IMPORTED.get(l).to_string()),
        Notice::UnknownChallenge => ("error", view::durable::UNKNOWN_CHALLENGE.get(l).to_string()),
        Notice::Action(e) => ("error", words::action_error(l, *e)),
        Notice::RefusedPolicies(columns) => ("error", words::policy_notice(l, columns)),
        Notice::OlderModel => ("info", words::older_model(l).to_string()),
        Notice::NoMoreCrashes(n) => ("error", view::durable::no_more_crashes(l, *n)),
    };
    html! { <p class={classes!("notice", class)} role="status" data-testid="dur-notice">{ text }</p> }
}

/// `text` with its spans between backticks shown as code, without the backticks (the words
/// mark step ids so).
fn with_code(text: &str) -> Html {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            let part = part.to_string();
            if i % 2 == 1 {
                html! { <code>{ part }</code> }
            } else {
                Html::from(part)
            }
        })
        .collect()
}

fn why_with_step(why: &str, step: usize, on: &On) -> Html {
    let (before, after) = match why.find('{') {
        Some(i) => (&why[..i], why.get(i + "{step}".len()..).unwrap_or("")),
        None => (why, ""),
    };
    let jump = on.reform(move |e: MouseEvent| {
        e.prevent_default();
        crate::ui::web::scroll_after_render("[data-testid=caption]");
        DurAction::Seek(step)
    });
    html! {
        <p class="why" data-testid="why">{ with_code(before) }
            <a href="#" onclick={jump} data-testid="why-step">{ step }</a>{ with_code(after) }</p>
    }
}

fn predict(l: Lang, ui: &DurUi, id: &str, on: &On) -> Html {
    let w = words::lesson(l, id);
    let Some(posed) = &ui.posed else {
        return html! {};
    };
    let posed: &Posed<Answer> = match posed {
        Ok(p) => p,
        Err(n) => {
            return html! {
                <div class="predict" data-testid="predict" data-state="not-applicable">
                    <p>{ words::not_posed(l, *n) }</p>
                </div>
            }
        }
    };
    let Some(answer) = ui.answer else {
        let labels = posed
            .choices
            .iter()
            .map(|a| words::answer(l, *a).to_string());
        let hint = crate::ui::question::wait_hint(l, ui.run.cursor(), posed.ask_at);
        let open = crate::ui::question::Open {
            testid: "predict",
            label: crate::ui::text::view::common::PREDICT_LABEL.get(l),
            ask: w.ask,
            answer: on.reform(DurAction::Answer),
            skip: Some(on.reform(|_| DurAction::Skip)),
            hint: &hint,
        };
        return crate::ui::question::open_question(l, open, labels);
    };
    answered(l, ui, &w, posed, answer, on)
}

/// The verdict on an answer (`None`: skipped): its state (`data-state`) and its words.
fn verdict(l: Lang, posed: &Posed<Answer>, answer: Option<usize>) -> (&'static str, String) {
    let right: Answer = posed.choices[posed.answer];
    let shown = words::answer(l, right);
    match answer {
        Some(i) if i == posed.answer => ("right", view::durable::right(l, &shown)),
        Some(i) => {
            let picked = posed.choices.get(i).copied().unwrap_or(right);
            let picked = words::answer(l, picked);
            ("wrong", view::durable::not_quite(l, &picked, &shown))
        }
        None => ("skipped", view::durable::skipped(l, &shown)),
    }
}

/// The question answered or skipped: the verdict, why (or that the run was changed), and the
/// takeaway.
fn answered(
    l: Lang,
    ui: &DurUi,
    w: &words::LessonWords,
    posed: &Posed<Answer>,
    answer: Option<usize>,
    on: &On,
) -> Html {
    let changed = ui.run.columns() != ui.mode.columns().as_slice() || !ui.run.actions().is_empty();
    let (state, verdict) = verdict(l, posed, answer);
    let held = held(posed, answer, &ui.beliefs, l);
    html! {
        <div class="predict" data-testid="predict" data-state={state}>
            <p class="ask"><strong>{ view::durable::PREDICT_LABEL.get(l) }</strong>{ w.ask }</p>
            <p class={classes!("verdict", state)} data-testid="verdict" role="status" tabindex="-1">{ verdict }</p>
            { crate::ui::question::beliefs(l, held, false) }
            if changed {
                // The words explain the lesson as built; this run is another one.
                <p class="why muted" data-testid="why-changed">{ view::durable::WHY_CHANGED.get(l) }</p>
            } else {
                { why_with_step(w.why, posed.shows_at, on) }
                <p class="takeaway">{ w.takeaway }</p>
            }
            <button class="again" data-testid="predict-again" onclick={on.reform(|_| DurAction::AskAgain)}>{ view::durable::ASK_AGAIN.get(l) }</button>
        </div>
    }
}

/// The lesson's variation question, once its own is answered: open, then judged, with why,
/// each choice's belief (the core's), and a button that loads the varied run from step 0.
fn transfer_block(l: Lang, ui: &DurUi, id: &str, on: &On) -> Html {
    let (Some(t), Some(w), Some(_)) = (&ui.transfer, words::variation(id), ui.answer) else {
        return html! {};
    };
    let (posed, ask) = (&t.1, w.ask.get(l));
    let Some(picked) = ui.transfer_answer.filter(|i| *i < posed.choices.len()) else {
        let open = crate::ui::question::Open {
            testid: "transfer",
            label: view::common::VARIATION_LABEL.get(l),
            ask,
            answer: on.reform(DurAction::AnswerTransfer),
            skip: None,
            hint: "",
        };
        let labels = posed.choices.iter().map(|a| words::answer(l, *a));
        return crate::ui::question::open_question(l, open, labels);
    };
    let (state, verdict) = verdict(l, posed, Some(picked));
    let held = held(posed, Some(picked), &t.2, l);
    html! {
        <div class="predict transfer" data-testid="transfer" data-state={state}>
            <p class="ask"><strong>{ view::common::VARIATION_LABEL.get(l) }</strong>{ ask }</p>
            <p class={classes!("verdict", state)} role="status" tabindex="-1">{ verdict }</p>
            <p class="why">{ w.why.get(l) }</p>
            { crate::ui::question::beliefs(l, held, true) }
            <button data-testid="run-variation" onclick={on.reform(|_| DurAction::RunVariation)}>{ view::common::RUN_VARIATION.get(l) }</button>
        </div>
    }
}

/// The choices of `posed` with their beliefs (`beliefs`) and the learner's pick, as the page
/// lists them after an answer.
fn held<'a>(
    posed: &'a Posed<Answer>,
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
        move |a| words::answer(l, *a),
        words,
    )
}

/// The lesson's card: its title, story, "Reset this lesson", its question and the variation's.
fn lesson_card(l: Lang, ui: &DurUi, id: &str, on: &On) -> Html {
    use crate::ui::text::view::common::{RESET_LESSON, RESET_LESSON_TITLE};
    let w = words::lesson(l, id);
    html! {
        <section class="card lesson" aria-labelledby="dur-lesson-h" data-testid="lesson">
            <h2 id="dur-lesson-h" tabindex="-1">{ w.title }</h2>
            <p>{ page_linked(l, "durable/", w.story) }</p>
            <p class="reset-lesson">
                <button data-testid="reset-lesson" title={RESET_LESSON_TITLE.get(l)} onclick={on.reform(|_| DurAction::Reset)}>{ RESET_LESSON.get(l) }</button>
            </p>
            { predict(l, ui, id, on) }
            { transfer_block(l, ui, id, on) }
            { next_after(l, id) }
        </section>
    }
}

/// The next lesson of the page, or after its last the path's next page (Kafka's).
fn next_after(l: Lang, id: &str) -> Html {
    let at = LESSON_IDS.iter().position(|x| *x == id).unwrap_or(0);
    match LESSON_IDS.get(at + 1) {
        Some(next) => crate::ui::question::next_link(
            l,
            &format!("#/scenario/{next}"),
            words::lesson(l, next).title,
        ),
        None => {
            crate::ui::question::next_link(l, "../kafka/", view::durable::AFTER_THE_PAGE.get(l))
        }
    }
}

/// The card above the run: the lesson with its question, the challenge, or the free run.
pub fn intro(l: Lang, ui: &DurUi, on: &On) -> Html {
    match ui.mode {
        Mode::Lesson(id) => lesson_card(l, ui, id, on),
        Mode::Challenge(id) => {
            let (title, brief) = words::challenge(l, id);
            let c = challenge(id);
            let (used, max) = c
                .as_ref()
                .map_or((0, 0), |c| (c.crashes_used(&ui.run), c.max_crashes));
            let won = ui.won();
            let solution =
                c.as_ref()
                    .and_then(|c| c.solution().map(|a| (c, a)))
                    .map(|(c, actions)| {
                        let s = crate::sim::durable::SavedState {
                            columns: vec![c.config.clone()],
                            actions,
                            cursor: 0,
                        };
                        format!("#/durable/challenge/{id}?{}", persist::to_query(&s))
                    });
            html! {
                <section class="card challenge" aria-labelledby="dur-ch-h" data-testid="challenge" data-won={won.to_string()}>
                    <h2 id="dur-ch-h">{ title }</h2>
                    <p>{ brief }</p>
                    <p data-testid="crashes-left">{ view::durable::crashes_used(l, used, max) }</p>
                    if won {
                        <p class="verdict right" role="status" data-testid="won">{ if crate::ui::run::counts_win(id) { view::durable::WON.get(l) } else { view::common::MET_BY_SOLUTION.get(l) } }</p>
                        { challenge_debrief(l, ui, id) }
                    } else {
                        <p class="muted">{ view::durable::GOAL_CHECKED.get(l) }</p>
                    }
                    if let Some(href) = solution {
                        <details><summary>{ view::durable::STUCK.get(l) }</summary>
                            <a href={href} data-testid="solution" onclick={Callback::from(move |_: MouseEvent| crate::ui::run::note_solution(id))}>{ view::durable::OPEN_SOLUTION.get(l) }</a>
                        </details>
                    }
                </section>
            }
        }
        Mode::Free => html! {
            <section class="card lesson" data-testid="free">
                <h2>{ view::durable::FREE_RUN.get(l) }</h2>
                <p>{ view::durable::FREE_RUN_STORY.get(l) }</p>
            </section>
        },
    }
}

/// The controls and the caption of the step, in the sticky bar.
pub fn controls(l: Lang, ui: &DurUi, on: &On) -> Html {
    let run = &ui.run;
    let (k, end) = (run.cursor(), run.end());
    let held = ui.limit() == Some(k);
    let can = |a: Action| !held && run.can(a);
    let w = &run.worlds()[ui.selected.min(run.worlds().len() - 1)];
    let caption: Vec<String> = w
        .trace()
        .iter()
        .filter(|e| e.at == k && k > 0)
        .map(|e| words::event(l, e))
        .collect();
    let caption = if k == 0 {
        view::durable::STEP_ZERO.get(l).to_string()
    } else if held {
        view::durable::WAITS_FOR_PREDICTION.get(l).to_string()
    } else if caption.is_empty() {
        view::durable::NOTHING_IN_COLUMN.get(l).to_string()
    } else {
        caption.join(" ")
    };
    html! {
        <div class="dur-bar" data-testid="controls">
            <Controls lang={l} position={k} total={end} playing={ui.playing} speed_ms={ui.speed_ms}
                      on={on.reform(DurAction::from)} limit={ui.limit()} />
            <div class="controls dur-actions">
                <button class="danger" onclick={on.reform(|_| DurAction::Act(Action::Crash))} disabled={!can(Action::Crash)} data-testid="crash-worker">{ view::durable::CRASH_WORKER.get(l) }</button>
                <button onclick={on.reform(|_| DurAction::Act(Action::Restart))} disabled={!can(Action::Restart)} data-testid="restart-worker">{ view::durable::RESTART_WORKER.get(l) }</button>
                <button onclick={on.reform(|_| DurAction::Act(Action::StartAgain))} disabled={!can(Action::StartAgain) || matches!(ui.mode, Mode::Challenge(_))} data-testid="start-again">{ view::durable::START_AGAIN.get(l) }</button>
                <button onclick={on.reform(|_| DurAction::Reset)} data-testid="start-over">{ view::durable::START_OVER.get(l) }</button>
            </div>
            <p class="caption" data-testid="caption" aria-live="polite">{ with_code(&caption) }
                if k == 0 { <span class="kbd-hint">{ view::durable::STEP_ZERO_KEYS.get(l) }</span> }</p>
        </div>
    }
}

fn journal(l: Lang, w: &World) -> Html {
    let Some(run) = w.current_run() else {
        return html! { <p class="muted">{ view::durable::NO_RUN.get(l) }</p> };
    };
    let current = w.current_entry().map(|(p, _)| p);
    let mismatch = run.mismatch.map(|(p, _, _)| p);
    let rows = run.journal.iter().enumerate().map(|(i, e)| {
        let result = view::durable::journal_result(l, e.result);
        let read = if e.replayed {
            view::durable::REPLAYED
        } else {
            view::durable::RAN
        }
        .get(l);
        html! {
            <tr data-replayed={e.replayed.to_string()} class={classes!(e.replayed.then_some("replayed"), (current == Some(i)).then_some("current"), (mismatch == Some(i)).then_some("mismatch"))}>
                <td>{ i }</td><td><code>{ e.step.id() }</code></td><td>{ result }</td><td>{ e.attempts }</td><td>{ read }</td>
            </tr>
        }
    });
    let store_label = if w.config().engine.durable() {
        view::durable::JOURNAL
    } else {
        view::durable::IN_MEMORY
    }
    .get(l);
    let no = run.no;
    html! {
        <div class="table-wrap" tabindex="0">
            <table class="dur-journal">
                <caption>{ store_label }{ view::durable::run_no(l, no) }</caption>
                <thead><tr><th>{ "#" }</th><th>{ view::durable::STEP.get(l) }</th><th>{ view::durable::RESULT.get(l) }</th><th>{ view::durable::RUNS.get(l) }</th><th>{ view::durable::READ.get(l) }</th></tr></thead>
                <tbody data-testid="journal">{ for rows }</tbody>
            </table>
        </div>
    }
}

/// The invariant's id in the page (`data-invariant`).
fn invariant_id(i: Invariant) -> &'static str {
    match i {
        Invariant::OneChargePerOrder => "one-charge-per-order",
        Invariant::RefundPerCharge => "refund-per-charge",
        Invariant::EndedKeptOrCompensated => "ended-kept-or-compensated",
        Invariant::ReplayNeverReruns => "replay-never-reruns",
    }
}

/// One invariant of a column: ✓ or ✕ where the column's settings and the learner's actions
/// promise it; where they do not, "not promised here" and why, and a break said without the ✕
/// of a failure (as the Kafka page does).
fn invariant_row(l: Lang, inv: Invariant, c: &Config, ui: &DurUi, w: &World, on: &On) -> Html {
    let why = inv.not_promised(c, ui.run.actions());
    let broken = w.violation(inv);
    let state = if broken.is_some() { "broken" } else { "holds" };
    let promised = why.is_none().to_string();
    let title = words::promise(l, inv);
    let seek = |at: usize| {
        on.reform(move |e: MouseEvent| {
            e.prevent_default();
            DurAction::Seek(at)
        })
    };
    match (why, broken) {
        (None, Some(v)) => html! {
            <li class="badge fail" data-testid="violation" data-invariant={invariant_id(inv)} data-state={state} data-promised={promised} title={title}>
                <a href="#" onclick={seek(v.at)}>{ with_code(&words::violation(l, v)) }</a>
            </li>
        },
        (None, None) => html! {
            <li class="badge pass" data-invariant={invariant_id(inv)} data-state={state} data-promised={promised} title={title}>
                { "✓ " }{ words::invariant(l, inv) }
            </li>
        },
        (Some(why), broken) => html! {
            <li class="badge na" data-testid={broken.map(|_| "violation")} data-invariant={invariant_id(inv)} data-state={state} data-promised={promised} title={title}>
                { "– " }{ words::invariant(l, inv) }
                <span data-testid="not-promised">{ view::durable::NOT_PROMISED_DASH.get(l) }{ words::not_promised_here(l) }{ view::durable::NOT_PROMISED_WHY.get(l) }{ with_code(words::not_promised(l, why)) }{ view::durable::NOT_PROMISED_END.get(l) }</span>
                if let Some(v) = broken {
                    { view::durable::BREAK_SEP.get(l) }<a href="#" onclick={seek(v.at)}>{ with_code(&words::unpromised_break(l, v)) }</a>
                }
            </li>
        },
    }
}

fn column(l: Lang, ui: &DurUi, i: usize, w: &World, on: &On) -> Html {
    let c = w.config();
    let selected = i == ui.selected;
    let balance = w.balance();
    let charges = w.count(EffectKind::Charged);
    let status = w
        .current_run()
        .map(|r| (r.no, words::run_status(l, r.status)));
    let worker = w.worker();
    let effects = [
        EffectKind::Reserved, EffectKind::Charged, EffectKind::ChargeReplayed, EffectKind::Declined,
        EffectKind::ShippedExpress, EffectKind::ShippedStandard, EffectKind::Receipt,
        EffectKind::FlightBooked, EffectKind::HotelReserved, EffectKind::FlightCancelled,
        EffectKind::Refunded, EffectKind::RefundReplayed,
    ]
    .into_iter()
    .filter_map(|k| {
        let n = w.count(k);
        (n > 0).then(|| html! { <li class={classes!((n > 1 && matches!(k, EffectKind::Charged | EffectKind::Refunded)).then_some("twice"))}>{ words::effect(l, k) }{ view::common::COLON.get(l) }<strong>{ n }</strong></li> })
    });
    let replies = w
        .replies()
        .iter()
        .map(|r| html! { <li>{ words::reply(l, *r) }</li> });
    let badges = Invariant::ALL
        .iter()
        .map(|&inv| invariant_row(l, inv, c, ui, w, on));
    let mismatch = w.mismatch().map(|(_, v)| html! {
        <p class="notice error" data-testid="nondeterminism" role="alert">{ words::verdict(l, v) }</p>
    });
    let refused = c.policy_error().map(|e| html! {
        <p class="notice error" data-testid="policy-error" role="alert">{ words::policy_error(l, e) }</p>
    });
    html! {
        <article class={classes!("card", "dur-col", selected.then_some("selected"))} data-column={i.to_string()} data-testid="column"
                 id={format!("dur-col-{i}")} role="tabpanel" aria-labelledby={format!("dur-tab-{i}")}>
            <h3>{ view::durable::column_title(l, c) }</h3>
            if ui.run.columns().len() > 1 {
                <button class="follow" aria-pressed={selected.to_string()} onclick={on.reform(move |_| DurAction::Select(i))} data-testid="follow">
                    { if selected { view::durable::FOLLOWED.get(l) } else { view::durable::FOLLOW.get(l) } }
                </button>
            }
            <p class="dur-state">
                { view::durable::WORKER.get(l) }<span class={classes!("badge", "worker", format!("worker-{worker:?}").to_lowercase())} data-testid="worker" data-state={format!("{worker:?}").to_lowercase()}>{ words::worker(l, worker) }</span>
                if let Some((no, s)) = status { { view::durable::run_label(l, no) }<span data-testid="run-status">{ s }</span> }
            </p>
            <p class="dur-balance">{ view::durable::BALANCE.get(l) }<strong data-testid="balance">{ money(balance) }</strong>
                <span class={classes!("muted", (charges > 1).then_some("twice"))} data-testid="charges">{ view::durable::charged(l, charges) }</span></p>
            { for refused }
            { for mismatch }
            { journal(l, w) }
            <ul class="dur-effects" data-testid="effects">{ for effects }</ul>
            if !w.replies().is_empty() {
                <p class="muted dur-sub">{ view::durable::STARTS.get(l) }</p>
                <ul class="dur-replies" data-testid="replies">{ for replies }</ul>
            }
            { store(l, w) }
            <ul class="badges">{ for badges }</ul>
        </article>
    }
}

/// The payment service's idempotency store: each charge's key and result, and each refund's key
/// (a refund's key seen again is replayed, not refunded twice); nothing without keys.
fn store(l: Lang, w: &World) -> Html {
    if w.store().is_empty() && w.refund_keys().is_empty() {
        return html! {};
    }
    let charges = w.store().iter().map(|(k, r)| {
        let b = match r.outcome() {
            crate::sim::PaymentResult::Success { balance } => *balance,
            _ => 0,
        };
        html! { <li><code>{ k.clone() }</code>{ view::durable::stored_charge(l, b) }</li> }
    });
    let refunds = w.refund_keys().iter().map(|k| {
        html! { <li><code>{ k.clone() }</code>{ view::durable::STORED_REFUND.get(l) }</li> }
    });
    html! {
        <>
            <p class="muted dur-sub">{ view::durable::STORE.get(l) }</p>
            <ul class="dur-store" data-testid="store">{ for charges }{ for refunds }</ul>
        </>
    }
}

/// One card per column, with the switcher that shows one at a time on a narrow screen.
pub fn columns(l: Lang, ui: &DurUi, on: &On) -> Html {
    let cols = ui
        .run
        .worlds()
        .iter()
        .enumerate()
        .map(|(i, w)| column(l, ui, i, w, on));
    html! {
        <>
            if ui.run.worlds().len() > 1 { { tabs(l, ui, on) } }
            <div class={classes!("dur-columns", format!("cols-{}", ui.run.worlds().len()))}>{ for cols }</div>
        </>
    }
}

/// Below 900 px, where the columns would stack (durable.css), a tab per column shows one at a
/// time: the one the code and the timeline follow. ← → Home End move between the tabs (and do
/// not step the run, whose keys listen on the document).
fn tabs(l: Lang, ui: &DurUi, on: &On) -> Html {
    let worlds = ui.run.worlds();
    let n = worlds.len();
    let distinct = |same: fn(&Config, &Config) -> bool| {
        (0..n).all(|i| (i + 1..n).all(|j| !same(worlds[i].config(), worlds[j].config())))
    };
    let (by_engine, by_key) = (
        distinct(|a, b| a.engine == b.engine),
        distinct(|a, b| a.key == b.key),
    );
    let selected = ui.selected.min(n - 1);
    let onkeydown = {
        let on = on.clone();
        Callback::from(move |e: KeyboardEvent| {
            let to = match e.key().as_str() {
                "ArrowRight" => (selected + 1) % n,
                "ArrowLeft" => (selected + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            on.emit(DurAction::Select(to));
            focus_by_id(&format!("dur-tab-{to}"));
        })
    };
    let tab = |(i, w): (usize, &World)| {
        let c = w.config();
        let label = if by_engine {
            words::engine(l, c.engine).to_string()
        } else if by_key {
            words::key(l, c.key).to_string()
        } else {
            view::durable::column_title(l, c)
        };
        let on_tab = i == selected;
        html! {
            <button role="tab" id={format!("dur-tab-{i}")} aria-controls={format!("dur-col-{i}")}
                    aria-selected={on_tab.to_string()} tabindex={if on_tab { "0" } else { "-1" }}
                    onclick={on.reform(move |_| DurAction::Select(i))} data-testid="column-tab">{ label }</button>
        }
    };
    html! {
        <div class="dur-tabs" role="tablist" aria-label={view::durable::COLUMNS.get(l)} onkeydown={onkeydown}>
            { for worlds.iter().enumerate().map(tab) }
        </div>
    }
}

/// Focuses the element with this id (the tab an arrow key moved to).
fn focus_by_id(id: &str) {
    use wasm_bindgen::JsCast;
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = el {
        let _ = el.focus();
    }
}

/// The selected column's workflow source, the lines of the current step marked.
pub fn source(l: Lang, ui: &DurUi) -> Html {
    let w = &ui.run.worlds()[ui.selected.min(ui.run.worlds().len() - 1)];
    let flow = w.config().flow;
    let current = w.current_entry().map(|(_, s)| section(flow, s));
    let lines = source_lines(flow).into_iter().map(|line| {
        let cur = Some(line.section) == current;
        html! {
            <div class={classes!("src-line", cur.then_some("current"))} data-current={cur.to_string()}>
                <span class="ln">{ line.number }</span><code>{ line.text }</code>
            </div>
        }
    });
    html! {
        <section class="card dur-source" aria-labelledby="dur-src-h">
            <h2 id="dur-src-h">{ view::durable::SOURCE_HEADING.get(l) }</h2>
            <p class="muted">{ with_code(view::durable::SOURCE_NOTE.get(l)) }</p>
            <pre class="src" data-testid="source" tabindex="0">{ for lines }</pre>
        </section>
    }
}

/// The selected column's events up to the cursor, newest last, in lanes.
pub fn timeline(l: Lang, ui: &DurUi, on: &On) -> Html {
    let w = &ui.run.worlds()[ui.selected.min(ui.run.worlds().len() - 1)];
    let events = w.trace();
    let from = events.len().saturating_sub(14);
    let lanes = words::lanes(l);
    let rows = events[from..].iter().map(|e| {
        let lane = words::lane(&e.kind);
        let at = e.at;
        let dot = format!("tl-dot lane-{lane}");
        html! {
            <li class={classes!("tl-row", format!("lane-{lane}"), (at == ui.run.cursor()).then_some("now"))}>
                <a href="#" class="tl-step" title={format!("{} ms", e.ms)} onclick={on.reform(move |ev: MouseEvent| { ev.prevent_default(); DurAction::Seek(at) })}>{ at }</a>
                <span class={dot} aria-label={lanes[lane]}>{ "●" }</span>
                <span class="tl-text">{ with_code(&words::event(l, e)) }</span>
            </li>
        }
    });
    html! {
        <section class="card dur-timeline" aria-labelledby="dur-tl-h">
            <h2 id="dur-tl-h">{ view::durable::SEQUENCE.get(l) }</h2>
            <ol class="tl" data-testid="timeline">
                <li class="tl-head" aria-hidden="true"><span>{ "#" }</span>{ for lanes.iter().map(|n| html! { <span>{ *n }</span> }) }</li>
                { for rows }
            </ol>
        </section>
    }
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlSelectElement>()
        .value()
}

fn options<T: Copy + PartialEq>(
    all: &[T],
    current: T,
    id: fn(T) -> &'static str,
    name: impl Fn(T) -> String,
) -> Html {
    all.iter()
        .map(|v| html! { <option value={id(*v)} selected={*v == current}>{ name(*v) }</option> })
        .collect::<Html>()
}

/// The settings of the selected column (a change restarts the run at step 0, keeping your
/// actions).
pub fn settings(l: Lang, ui: &DurUi, on: &On) -> Html {
    let c = &ui.run.columns()[ui.selected.min(ui.run.columns().len() - 1)];
    let set = |f: fn(&str) -> Option<Setting>| {
        on.reform(move |e: Event| {
            f(&select_value(&e)).map_or(DurAction::Select(usize::MAX), DurAction::Set)
        })
    };
    let on_auto = on.reform(|e: Event| {
        let b = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .checked();
        DurAction::Set(Setting::AutoRestart(b))
    });
    let col = ui.selected + 1;
    html! {
        <section class="card dur-settings" aria-labelledby="dur-set-h">
            <h2 id="dur-set-h">{ view::durable::SETTINGS.get(l) }</h2>
            if ui.run.columns().len() > 1 {
                <p class="muted">{ view::durable::for_column(l, col) }</p>
            } else {
                <p class="muted">{ view::durable::CHANGE_RESTARTS.get(l) }</p>
            }
            <div class="dur-fields">
                <label>{ view::durable::WORKFLOW.get(l) }
                    <select onchange={set(|v| FlowKind::from_id(v).map(Setting::Flow))} data-testid="set-flow">{ options(&FlowKind::ALL, c.flow, FlowKind::id, |f| words::flow(l, f).to_string()) }</select></label>
                <label>{ view::durable::ENGINE.get(l) }
                    <select onchange={set(|v| Engine::from_id(v).map(Setting::Engine))} data-testid="set-engine">{ options(&Engine::ALL, c.engine, Engine::id, |e| words::engine(l, e).to_string()) }</select></label>
                <label>{ view::durable::KEY.get(l) }
                    <select onchange={set(|v| KeyMode::from_id(v).map(Setting::Key))} data-testid="set-key">{ options(&KeyMode::ALL, c.key, KeyMode::id, |k| words::key(l, k).to_string()) }</select></label>
                <label>{ view::durable::CLOCK.get(l) }
                    <select onchange={set(|v| ClockMode::from_id(v).map(Setting::Clock))} data-testid="set-clock">{ options(&ClockMode::ALL, c.clock, ClockMode::id, |k| words::clock(l, k).to_string()) }</select></label>
                { start_again(l, c, on) }
                <label>{ view::durable::REUSE.get(l) }
                    <select onchange={set(|v| ReusePolicy::from_id(v).map(Setting::Reuse))} data-testid="set-reuse">{ options(&ReusePolicy::ALL, c.reuse, ReusePolicy::id, |p| words::reuse(p).to_string()) }</select></label>
                <label>{ view::durable::CONFLICT.get(l) }
                    <select onchange={set(|v| ConflictPolicy::from_id(v).map(Setting::Conflict))} data-testid="set-conflict">{ options(&ConflictPolicy::ALL, c.conflict, ConflictPolicy::id, |p| words::conflict(p).to_string()) }</select></label>
                { start_to_close(l, c, on) }
                <label>{ view::durable::LATER_START.get(l) }
                    <select onchange={set(|v| RequestId::from_id(v).map(Setting::RequestId))} data-testid="set-request-id">{ options(&RequestId::ALL, c.request_id, RequestId::id, |r| words::request_id(l, r).to_string()) }</select></label>
                <label>{ view::durable::RESTATE_CALLS.get(l) }
                    <select onchange={set(|v| RestateTarget::from_id(v).map(Setting::Restate))} data-testid="set-restate">{ options(&RestateTarget::ALL, c.restate, RestateTarget::id, |t| words::restate_target(l, t).to_string()) }</select></label>
                <label class="check"><input type="checkbox" checked={c.auto_restart} onchange={on_auto} data-testid="set-auto-restart" />
                    { view::durable::AUTO_RESTART.get(l) }</label>
            </div>
            <fieldset class="dur-faults"><legend>{ view::durable::FAULTS.get(l) }</legend>{ faults(l, c, on) }</fieldset>
        </section>
    }
}

/// When the client starts order-42 again: never, or at a time (the column's own time too).
fn start_again(l: Lang, c: &Config, on: &On) -> Html {
    let again = c.start_again_at_ms;
    let mut again_options = vec![None, Some(550), Some(5_000), Some(AFTER_RETENTION_MS)];
    if !again_options.contains(&again) {
        again_options.push(again);
    }
    let on_again = on.reform(|e: Event| {
        let v = select_value(&e);
        DurAction::Set(Setting::StartAgain(v.parse().ok()))
    });
    html! {
        <label>{ view::durable::START_AGAIN_AT.get(l) }
            <select onchange={on_again} data-testid="set-start-again">
                { for again_options.iter().map(|o| {
                    let (v, text) = match o {
                        None => (String::new(), view::durable::NEVER.get(l).to_string()),
                        Some(ms) => {
                            let t = fmt_ms(l, *ms);
                            (ms.to_string(), view::durable::again_at(l, &t))
                        }
                    };
                    html! { <option value={v} selected={*o == again}>{ text }</option> }
                }) }
            </select></label>
    }
}

/// Temporal's Start-To-Close timeout: the usual ones, and the column's own.
fn start_to_close(l: Lang, c: &Config, on: &On) -> Html {
    let mut timeouts = vec![1_000, DEFAULT_START_TO_CLOSE_MS, 5_000, 10_000];
    if !timeouts.contains(&c.start_to_close_ms) {
        timeouts.push(c.start_to_close_ms);
    }
    let on_timeout = on.reform(|e: Event| match select_value(&e).parse() {
        Ok(ms) => DurAction::Set(Setting::StartToClose(ms)),
        Err(_) => DurAction::Select(usize::MAX),
    });
    html! {
        <label>{ view::durable::START_TO_CLOSE.get(l) }
            <select onchange={on_timeout} data-testid="set-start-to-close">
                { for timeouts.iter().map(|ms| {
                    let text = fmt_ms(l, *ms);
                    html! { <option value={ms.to_string()} selected={*ms == c.start_to_close_ms}>{ text }</option> }
                }) }
            </select></label>
    }
}

/// One fault select per step of the workflow.
fn faults(l: Lang, c: &Config, on: &On) -> Html {
    // The clock read is journaled by the engine itself: no step to fault.
    c.flow.steps().iter().filter(|s| **s != crate::sim::durable::StepName::Clock).map(|step| {
        let step = *step;
        let current = c.fault_on(step).map_or("none", |k| k.id());
        let onchange = on.reform(move |e: Event| DurAction::Set(Setting::Fault(step, FaultKind::from_id(&select_value(&e)))));
        html! {
            <label class="fault-row"><code>{ step.id() }</code>
                <select onchange={onchange} data-testid={format!("fault-{}", step.id())}>
                    <option value="none" selected={current == "none"}>{ view::durable::NO_FAULT.get(l) }</option>
                    { options(&FaultKind::ALL, c.fault_on(step).unwrap_or(FaultKind::CrashBefore), FaultKind::id, |k| words::fault(l, k).to_string()) }
                </select>
            </label>
        }
    })
    .collect::<Html>()
}

/// What the page imitates of each engine, with the documentation it follows.
pub fn engines(l: Lang) -> Html {
    let items = Engine::ALL.iter().map(|e| {
        let (rule, url) = words::engine_rule(l, *e);
        html! {
            <li><strong>{ words::engine(l, *e) }</strong>{ view::common::COLON.get(l) }{ rule }
                if !url.is_empty() { { " " }<a href={url} rel="noopener">{ view::durable::SOURCE_LINK.get(l) }</a> }
            </li>
        }
    });
    html! {
        <details class="card dur-engines leaves-out" data-testid="engines">
            <summary><h2 id="dur-eng-h">{ view::durable::ENGINES_HEADING.get(l) }</h2></summary>
            <ul>{ for items }</ul>
            <p class="muted">{ view::durable::ENGINES_NOTE.get(l) }</p>
        </details>
    }
}

/// What this model leaves out: the deliberate simplifications (each one an ignored case of the
/// conformance suites, tests/conformance/{temporal,restate,dbos}.rs).
pub fn leaves_out(l: Lang) -> Html {
    let items = words::leaves_out(l)
        .into_iter()
        .map(|item| html! { <li>{ item }</li> });
    html! {
        <details class="card dur-engines leaves-out" data-testid="leaves-out">
            <summary><h2 id="dur-out-h">{ view::durable::LEAVES_OUT_HEADING.get(l) }</h2></summary>
            <ul>{ for items }</ul>
        </details>
    }
}

/// Share link, download and import.
pub fn share(
    l: Lang,
    ui: &DurUi,
    route_hash: &str,
    import_ref: &NodeRef,
    on_import: Callback<MouseEvent>,
) -> Html {
    let saved = ui.saved();
    let json = crate::sim::durable::write_state(&saved);
    let link = format!(
        "{}{route_hash}?{}",
        crate::ui::web::page_base(),
        persist::to_query(&saved)
    );
    let download = format!(
        "data:application/json;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(&json))
    );
    html! {
        <section class="card share" aria-labelledby="dur-share-h">
            <h2 id="dur-share-h">{ view::durable::SHARE_HEADING.get(l) }</h2>
            <p class="muted">{ view::durable::SHARE_NOTE.get(l) }</p>
            <label>{ view::durable::SHARE_LINK.get(l) }
                <input type="text" readonly=true value={link.clone()} data-testid="share-link" /></label>
            <p><a href={link} data-testid="share-open">{ view::durable::OPEN_LINK.get(l) }</a>
               { " · " }<a href={download} download="durable-run.json" data-testid="export">{ view::durable::DOWNLOAD_JSON.get(l) }</a></p>
            <details>
                <summary>{ view::durable::IMPORT_JSON.get(l) }</summary>
                <label>{ view::durable::paste_run(l, MAX_JSON_BYTES / 1024) }
                    <textarea ref={import_ref.clone()} data-testid="import-text" spellcheck="false" /></label>
                <button onclick={on_import} data-testid="import">{ view::durable::IMPORT.get(l) }</button>
            </details>
            <details>
                <summary>{ view::durable::RUN_AS_JSON.get(l) }</summary>
                <textarea readonly=true value={json} aria-label={view::durable::RUN_JSON.get(l)} data-testid="json" />
            </details>
        </section>
    }
}

/// A won challenge's debrief: the invariants the run broke by the cursor, as the core checked
/// them.
fn challenge_debrief(l: Lang, ui: &DurUi, id: &str) -> Html {
    let (why, mirrors) = words::challenge_debrief(l, id);
    let broken: Vec<(&str, usize)> = ui
        .run
        .worlds()
        .first()
        .map(|w| {
            w.violations()
                .iter()
                .map(|v| (words::invariant(l, v.invariant), v.at))
                .collect()
        })
        .unwrap_or_default();
    crate::ui::question::debrief(l, why, &broken, mirrors)
}
