//! The lab page: settings, the stepper (lanes with their code, shared state, the same schedule
//! through a second service, the trace, the share link) and the explorer. State lives in one
//! reducer whose actions forward to the lab core; settings and schedule are saved in this browser
//! and restored on the next visit, or taken from a share link (see `persist`).

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::lab::{LabScenario, Report, Stepper};
use crate::sim::lesson::Mark;
use crate::sim::teach::{lab_challenge, LabChallenge};
use crate::ui::i18n::Lang;
use crate::ui::run::{use_mark, use_save_changes};
use crate::ui::text::lab::model_name;
use crate::ui::text::{lab_error, restore_message, view};
use crate::ui::web::{self, Listener};

use super::compare::ComparePanel;
use super::controls::StepperControls;
use super::explorer::ExplorerPanel;
use super::lane::RequestLane;
use super::persist;
use super::settings::LabSettings;
use super::share::LabShare;
use super::shared::{outcome_line, SharedStatePanel};
use super::state::{LabAction, LabUi, Notice};
use super::timeline::ScheduleTimeline;

/// Props of [`LabPage`].
#[derive(Properties, PartialEq)]
pub struct LabPageProps {
    /// The page language.
    pub lang: Lang,
    /// The lab challenge on the page (`#/lab/challenge/<id>`), if any.
    #[prop_or_default]
    pub challenge: Option<String>,
}

/// The concurrency lab (#/lab).
#[component(LabPage)]
pub fn lab_page(props: &LabPageProps) -> Html {
    let lang = props.lang;
    // A challenge opens its own scenario; otherwise a share link in the hash, else this
    // browser's saved lab, else the default (read once).
    let challenge = use_memo(props.challenge.clone(), |id| {
        id.as_deref().and_then(lab_challenge)
    });
    let start = use_memo((), |_| persist::start());
    let ui = {
        let (start, challenge) = (start.clone(), challenge.clone());
        use_reducer(move || match &*challenge {
            Some(c) => LabUi {
                stepper: Stepper::new(c.scenario.clone()),
                ..LabUi::default()
            },
            None => LabUi::at_start(&start),
        })
    };
    let run = ui.stepper.clone();
    let json = AttrValue::from(persist::to_json(&run, ui.seed));

    // Every change of settings or schedule is saved. The first save waits for a change unless the
    // lab came from a good link, so a damaged link or unreadable storage overwrites nothing.
    // A challenge's runs are not saved over the learner's own lab.
    let saves = challenge.is_none();
    use_effect_with(json.clone(), |_| keep_focus());
    use_save_changes(
        json.clone(),
        start.save_now && saves,
        Box::new(move |json| {
            if saves {
                persist::save(json);
            }
        }),
    );
    // A challenge is won by the schedule on the page or by a finished search's proof.
    let proved = use_state(|| false);
    let on_done = on_search_done(&proved, &challenge);
    let won = (*challenge)
        .as_ref()
        .is_some_and(|c| c.won_by_stepper(&ui.stepper))
        || *proved;
    let id = (*challenge).as_ref().map(|c| c.id);
    use_mark(id.filter(|_| won).map(|id| (id, Mark::Won)));
    // A link read at the start leaves the address bar; a link opened later on this page (pasted
    // into the address bar: same route, no remount) is read the same way.
    {
        let ui = ui.dispatcher();
        let from_link = start.from_link;
        use_effect_with((), move |_| follow_links(ui, from_link));
    }
    // Loading the explorer's counterexample happens at the bottom of the page; bring the stepper
    // into view so the learner sees what was loaded.
    let stepper_ref = use_node_ref();
    {
        let stepper_ref = stepper_ref.clone();
        let loaded = matches!(ui.notice, Some(Notice::Loaded));
        use_effect_with((loaded, run.schedule().to_vec()), move |(loaded, _)| {
            if let (true, Some(el)) = (*loaded, stepper_ref.cast::<web_sys::Element>()) {
                el.scroll_into_view();
            }
        });
    }
    html! {
        <section class="lab" aria-labelledby="lab-h">
            { intro(lang) }
            if let Some(c) = &*challenge { { challenge_card(lang, c, won) } }
            { stepper(lang, &ui, json, stepper_ref) }
            <ExplorerPanel lang={lang} scenario={run.scenario().clone()} seed={ui.seed} on_load={on_load(&ui)} on_done={on_done} />
        </section>
    }
}

/// After every change of the saved form: the focus kept on the page.
fn keep_focus() {
    // Every step changes the saved form: a request that finished disables its button (and the
    // last step the run's), so focus moves to the next request that can move, else to Step back.
    web::restore_focus(&[".lab-step-button", "[data-testid=back]", "#main"]);
}

/// A finished search proves a challenge won when its report shows what the challenge asks.
fn on_search_done(
    proved: &UseStateHandle<bool>,
    challenge: &Rc<Option<LabChallenge>>,
) -> Callback<(LabScenario, Report)> {
    let (proved, challenge) = (proved.clone(), challenge.clone());
    Callback::from(move |(s, r): (LabScenario, Report)| {
        if challenge
            .as_ref()
            .as_ref()
            .is_some_and(|c| c.won_by_report(&s, &r))
        {
            proved.set(true);
        }
    })
}

/// Takes a link read at the start off the address bar, and opens every lab link pasted into it
/// later; the returned function stops listening.
fn follow_links(ui: UseReducerDispatcher<LabUi>, from_link: bool) -> impl FnOnce() {
    if from_link {
        persist::drop_link_query();
    }
    let listener = Listener::on_window("hashchange", move |e: web_sys::Event| {
        // The event's own new URL: the address bar may have changed again since.
        let hash = web::event_hash(&e);
        if let Some(query) = persist::link_query(&hash) {
            ui.dispatch(LabAction::OpenLink(query.to_string()));
            persist::drop_link_query();
        }
    });
    move || drop(listener)
}

/// Loads the explorer's counterexample into the stepper.
fn on_load(ui: &UseReducerHandle<LabUi>) -> Callback<(LabScenario, Vec<usize>)> {
    let ui = ui.dispatcher();
    Callback::from(move |(s, schedule): (LabScenario, Vec<usize>)| {
        ui.dispatch(LabAction::Load(s, schedule))
    })
}

/// The page's introduction.
fn intro(lang: Lang) -> Html {
    html! {
        <header class="lab-intro">
            <h2 id="lab-h">{ view::lab::LAB_HEADING.get(lang) }</h2>
            <p>{ view::lab::LAB_INTRO.get(lang) }</p>
            <p class="muted">{ view::lab::LAB_SAME_LENGTH.get(lang) }</p>
            <p><a href="#/lab/postgres" data-testid="lab-db-link">{ view::lab::DATABASE_LINK.get(lang) }</a></p>
        </header>
    }
}

/// The stepper: settings, controls, lanes, shared state, the comparison, the trace and the
/// share link.
fn stepper(
    lang: Lang,
    ui: &UseReducerHandle<LabUi>,
    json: AttrValue,
    stepper_ref: NodeRef,
) -> Html {
    let dispatch = ui.dispatcher();
    let on_action = {
        let ui = dispatch.clone();
        Callback::from(move |a: LabAction| ui.dispatch(a))
    };
    let on_step = {
        let ui = dispatch.clone();
        Callback::from(move |r: usize| ui.dispatch(LabAction::Step(r)))
    };
    let on_apply = {
        let ui = dispatch;
        Callback::from(move |(s, seed): (LabScenario, u64)| ui.dispatch(LabAction::Apply(s, seed)))
    };
    let run = ui.stepper.clone();
    let scenario = run.scenario().clone();
    let last_mover = run.schedule().last().copied();
    let stepper_heading = view::lab::stepper_heading(lang, model_name(lang, scenario.model()));
    html! {
        <>
            <LabSettings lang={lang} scenario={scenario.clone()} seed={ui.seed} on_apply={on_apply} />
            <section class="lab-stepper" aria-labelledby="lab-stepper-h" ref={stepper_ref}>
                <h3 id="lab-stepper-h">{ stepper_heading }</h3>
                <p class="lab-lesson">{ view::lab::model_lesson(lang, scenario.model()) }</p>
                <StepperControls lang={lang} schedule={run.schedule().to_vec()} complete={run.is_complete()}
                                 seed={ui.seed} on_action={on_action} />
                { notice(lang, ui.notice.as_ref()) }
                <div class="lab-board">
                    <div class="lab-lanes">
                        { for (0..scenario.requests()).filter_map(|r| run.status(r).map(|status| html! {
                            <RequestLane key={r} lang={lang} scenario={scenario.clone()} index={r} status={status}
                                         moved_last={last_mover == Some(r)} on_step={on_step.clone()} />
                        })) }
                    </div>
                    { outcome_line(lang, &run) }
                    <div class="lab-side">
                        <SharedStatePanel lang={lang} stepper={run.clone()} />
                        <ComparePanel lang={lang} stepper={run.clone()} />
                    </div>
                </div>
                <ScheduleTimeline lang={lang} stepper={run.clone()} />
                <LabShare lang={lang} json={json} />
            </section>
        </>
    }
}

/// What the last action did, when it says something: an error, a load, a replay, or why the
/// saved or linked lab was not restored.
fn notice(lang: Lang, notice: Option<&Notice>) -> Html {
    match notice {
        Some(Notice::Error(e)) => html! {
            <p class="field-error" role="alert" data-testid="lab-error">{ lab_error(lang, e) }</p>
        },
        Some(Notice::Loaded) => html! {
            <p class="lab-note" role="status">{ view::lab::NOTICE_LOADED.get(lang) }</p>
        },
        Some(Notice::Replayed) => html! {
            <p class="lab-note" role="status">{ view::lab::NOTICE_REPLAYED.get(lang) }</p>
        },
        Some(Notice::NotRestored(origin, e)) => html! {
            <p class="field-error" role="alert" data-testid="lab-restore-notice">{ restore_message(lang, *origin, e) }</p>
        },
        None => html! {},
    }
}

/// A won lab challenge's debrief: why it works and the real failure it mirrors (the
/// playground's debrief also names the invariants its run broke; the lab's does not yet).
fn lab_debrief(lang: Lang, id: &str) -> Html {
    use crate::ui::text::{challenges, view::playground as words};
    let (why, mirrors) = challenges::lab_debrief(lang, id);
    html! {
        <section class="debrief" data-testid="debrief" aria-labelledby="debrief-h">
            <h3 id="debrief-h">{ words::DEBRIEF.get(lang) }</h3>
            <dl>
                <dt>{ words::DEBRIEF_WHY.get(lang) }</dt><dd data-testid="debrief-why">{ why }</dd>
                <dt>{ words::DEBRIEF_MIRRORS.get(lang) }</dt><dd data-testid="debrief-mirrors">{ mirrors }</dd>
            </dl>
        </section>
    }
}

/// A lab challenge's card: what to do, whether it is won.
fn challenge_card(lang: Lang, c: &LabChallenge, won: bool) -> Html {
    use crate::ui::text::challenges;
    let state = if won { "won" } else { "open" };
    html! {
        <section class="lesson card challenge" data-testid="challenge" data-challenge={c.id}>
            <h2>{ challenges::title(lang, c.id) }</h2>
            <p>{ challenges::brief(lang, c.id) }</p>
            <p class={classes!("status", won.then_some("won"))} data-testid="challenge-status" data-state={state} role="status">
                { view::lab::challenge_status(lang, won) }
            </p>
            if won { { lab_debrief(lang, c.id) } }
            <p><a href="../#/scenario/concurrent-same-key">{ view::lab::BACK_TO_LESSONS.get(lang) }</a></p>
        </section>
    }
}
