//! The playground page: a built-in scenario or the sandbox, every chosen service fed the same
//! inputs side by side, with controls, live panels, a timeline, share links and import. Its state
//! is one reducer (`state.rs`); the address and localStorage are read once when it opens, and the
//! keyboard, the play timer and saving are effects (`hooks.rs`).

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::{Scenario, Session, World};
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::web::{self, LAST_RUN_KEY, PROGRESS_KEY};

use super::build_progress::{build_progress, BuildProgressProps};
use super::caption::caption;
use super::challenge_card::{challenge_card, ChallengeCard};
use super::fork::{fork_panel, ForkProps};
use super::hooks::{use_build_slices, use_remembered_run, use_saved_progress, use_whole_page};
use super::intro::{intro, lesson_card, ChallengeList, IntroProps, LessonCard};
use super::notice::{notice_bar, NoticeBarProps};
use super::panel::service_panel;
use super::predict::{predict_block, PredictBlock};
use super::sandbox::{Sandbox, SandboxProps};
use super::sandbox_form::Change;
use super::scenario_nav::{challenge_list, scenario_nav, ScenarioNavProps};
use super::services::service_picker;
use super::share_panel::SharePanel;
use super::state::{Action, PageState, Run};
use super::teach::{Progress, Teachers};
use super::timeline_section::{column_tabs, timeline_section, TimelineView};
use super::wire::leaves_out;
use crate::ui::run::{use_play_timer, use_run_keys, Control, Controls};
use crate::ui::text::{lessons, view};

/// Props of the playground page.
#[derive(Properties, PartialEq, Clone)]
pub struct PlaygroundProps {
    /// Page language.
    pub lang: Lang,
    /// Which scenario or the sandbox.
    pub route: Route,
    /// A scenario to open instead of the route's (embedding, tests and benchmarks); it is not
    /// subject to the import size limit because it never came from outside.
    #[prop_or_default]
    pub initial: Option<Rc<Scenario>>,
    /// The page's folder (`app::page_dir`): the lesson list's links are relative to it.
    #[prop_or_default]
    pub dir: &'static str,
    /// The parts this page draws (`Tools::LESSONS` on the first page, `Tools::SANDBOX` on the
    /// sandbox page).
    pub tools: Tools,
    /// Draw the page in two steps: first the lesson, the run's controls and the forms above the
    /// panels, then, in a task of its own right after, the panels, the timeline and the share
    /// panel below them (nothing drawn first moves when they come). The pages set it
    /// (issue 16: the controls answer sooner on a slow phone); tests that read the whole page
    /// right after one render leave it off.
    #[prop_or_default]
    pub staged: bool,
}

/// The parts only one of the two pages that draw the playground needs: the first page (the
/// lessons) has the lesson's question, the sandbox page (`sandbox/`) the sandbox form and the
/// challenge card. Each is a plain function pointer, so a binary that never names one (its page's
/// `Tools` leaves it out) leaves its code out of its wasm at link time.
#[derive(Clone, Copy)]
pub struct Tools {
    /// The sandbox form, with the run's balances again under it on a phone.
    pub sandbox: Option<fn(SandboxProps, &Session) -> Html>,
    /// The challenge card.
    pub challenge: Option<ChallengeCard>,
    /// The sandbox card's list of challenges.
    pub challenge_list: Option<ChallengeList>,
    /// On every route (lessons only): fetch the lessons' words once (then say whether they were
    /// read; see `text::lessons::LAZY`), and move focus from "Next" to the new lesson's heading.
    pub on_route: Option<fn(Callback<bool>)>,
    /// A lesson's question: predict, then reveal.
    pub predict: Option<PredictBlock>,
    /// Where the questions and the challenges come from.
    pub teachers: Teachers,
    /// A lesson's card (its story, question, the changed-run note, the next lesson's link).
    pub lesson: Option<LessonCard>,
    /// "What this model leaves out" for HTTP, below the run.
    pub leaves_out: Option<fn(Lang) -> Html>,
}

/// The sandbox form, and on a phone the balances again, pinned under it: what a send did, in
/// view of the button that sent it (the bar's copy is a screen away). Said once, by the bar.
fn sandbox_form(p: SandboxProps, s: &Session) -> Html {
    let l = p.lang;
    html! { <>
        <Sandbox ..p />
        <div class="form-result" aria-hidden="true">{ super::caption::strip(l, s) }</div>
    </> }
}

impl Tools {
    /// The first page's: the lessons.
    pub const LESSONS: Tools = Tools {
        sandbox: None,
        challenge: None,
        challenge_list: None,
        on_route: Some(super::hooks::lessons_on_route),
        predict: Some(predict_block),
        teachers: Teachers::LESSONS,
        lesson: Some(lesson_card),
        leaves_out: Some(leaves_out),
    };
    /// The sandbox page's: the sandbox and the challenges.
    pub const SANDBOX: Tools = Tools {
        sandbox: Some(sandbox_form),
        challenge: Some(challenge_card),
        challenge_list: Some(challenge_list),
        on_route: None,
        predict: None,
        teachers: Teachers::CHALLENGES,
        lesson: None,
        leaves_out: None,
    };
}

impl PlaygroundProps {
    /// The props the page that draws `route` would give (the sandbox page's tools for the sandbox
    /// and the challenges, the first page's for a lesson), for tests and embedding. The pages
    /// themselves name only their own `Tools`, so that each binary links only its own parts.
    pub fn for_route(lang: Lang, route: Route) -> PlaygroundProps {
        let sandbox = matches!(route, Route::Sandbox | Route::Challenge(_));
        PlaygroundProps {
            lang,
            route,
            initial: None,
            dir: if sandbox { "sandbox/" } else { "" },
            staged: false,
            tools: if sandbox {
                Tools::SANDBOX
            } else {
                Tools::LESSONS
            },
        }
    }
}

impl PartialEq for Tools {
    /// A page's tools never change while it is open.
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// The state the page opens with: `initial` if it runs, else what the address, this browser's
/// last run or the built-in scenario give (read here, at the edge, once).
fn opening(props: &PlaygroundProps) -> PageState {
    let progress = Progress::from_text(&web::load(PROGRESS_KEY).unwrap_or_default());
    let mut st = if let Some(Ok(s)) = props.initial.clone().map(|sc| Session::new((*sc).clone())) {
        let mut st = PageState::empty();
        st.teach = super::teach::Teach::for_route(&props.route, progress, props.tools.teachers);
        st.set_session(s);
        st
    } else {
        // This route's own last run, else the one run an earlier version kept (for any route:
        // `open` uses it only if it was saved on this route).
        let saved =
            web::load(&web::run_key(&props.route.to_hash())).or_else(|| web::load(LAST_RUN_KEY));
        PageState::open_with(
            &props.route,
            &web::current_hash(),
            saved.as_deref(),
            progress,
            props.lang,
            props.tools.teachers,
        )
    };
    // Open or folded as the learner last left it; at first folded, so the lesson is on the first
    // screen (open, the list of every lesson fills a wide one); open whenever there is no run to
    // show (an unknown lesson's message points to the list).
    st.toc_open = st.run.is_none() && st.building.is_none()
        || web::load(web::TOC_KEY).as_deref() == Some("open");
    st.fork_open = web::load(web::FORK_KEY).as_deref() == Some("open");
    st
}

fn last_key(w: &World) -> Option<String> {
    w.client_results().last().and_then(|c| w.key_text(c.key))
}

/// The page's callbacks, each dispatching an action.
struct Handlers {
    /// The control bar.
    control: Callback<Control>,
    /// A jump to a step (a panel's or the timeline's).
    jump: Callback<usize>,
    /// A timeline tab.
    tab: Callback<usize>,
    /// A page of the timeline.
    page: Callback<Option<usize>>,
    /// JSON to import.
    import: Callback<String>,
    /// A new input or scenario (the sandbox, the service picker, the lesson's restore button).
    change: Callback<Change>,
    /// Cancel the build in progress.
    cancel: Callback<()>,
    /// Any action (the question's, the challenge's and the fork's buttons).
    action: Callback<Action>,
    /// Open or close the lesson list, remembering which.
    toggle_toc: Callback<()>,
    /// Close the message above the run.
    dismiss: Callback<()>,
}

impl Handlers {
    /// The callbacks for a page in `l` whose lesson list is open if `toc_open`.
    fn new(dispatch: UseReducerDispatcher<PageState>, l: Lang, toc_open: bool) -> Handlers {
        let control = {
            let d = dispatch.clone();
            Callback::from(move |c: Control| d.dispatch(Action::Control(c)))
        };
        let jump = control.reform(Control::Seek);
        let tab = {
            let d = dispatch.clone();
            Callback::from(move |i: usize| d.dispatch(Action::Tab(i)))
        };
        let page = {
            let d = dispatch.clone();
            Callback::from(move |first: Option<usize>| d.dispatch(Action::TimelinePage(first)))
        };
        let import = {
            let d = dispatch.clone();
            Callback::from(move |json: String| d.dispatch(Action::Import(json, l)))
        };
        // The sandbox and the service picker hand back a new input or scenario.
        let change = {
            let d = dispatch.clone();
            Callback::from(move |change: Change| d.dispatch(Action::Change(change, l)))
        };
        let cancel = {
            let d = dispatch.clone();
            Callback::from(move |()| d.dispatch(Action::CancelBuild(l)))
        };
        let action = {
            let d = dispatch.clone();
            Callback::from(move |a: Action| d.dispatch(a))
        };
        let toggle_toc = {
            let d = dispatch.clone();
            let opening = !toc_open;
            Callback::from(move |()| {
                web::save(web::TOC_KEY, if opening { "open" } else { "closed" });
                d.dispatch(Action::ToggleToc)
            })
        };
        let dismiss = Callback::from(move |()| dispatch.dispatch(Action::Dismiss));
        Handlers {
            control,
            jump,
            tab,
            page,
            import,
            change,
            cancel,
            action,
            toggle_toc,
            dismiss,
        }
    }
}

/// The playground page.
#[function_component(Playground)]
pub fn playground(props: &PlaygroundProps) -> Html {
    let l = props.lang;
    let route = props.route.clone();
    let state = {
        let props = props.clone();
        use_reducer(move || opening(&props))
    };
    let dispatch = state.dispatcher();
    let position = state.run.as_ref().map_or(0, |r| r.session().position());
    {
        let d = dispatch.clone();
        use_run_keys(Callback::from(move |c| d.dispatch(Action::Control(c))));
        let d = dispatch.clone();
        let tick = Callback::from(move |()| d.dispatch(Action::Tick));
        use_play_timer(tick, state.playing, position, state.speed_ms);
    }
    // The route's edge first: after "Next" it moves focus to the new lesson's heading before
    // the focus keeping would hand a dropped focus to a waiting question's first choice.
    super::hooks::use_route_edge(route.clone(), dispatch.clone(), props.tools.on_route);
    use_remembered_run(state.clone(), route.clone());
    use_saved_progress(state.clone());
    use_build_slices(dispatch.clone(), state.building.as_ref().map(|b| b.slices));
    let whole = use_whole_page(props.staged);
    let on = Handlers::new(dispatch, l, state.toc_open);

    let lesson = match &route {
        Route::Scenario(id) => lessons::lesson(id),
        _ => None,
    };
    // The lesson as written, when the run on screen is not it (other services, an import).
    let changed_lesson = lesson
        .and_then(|ls| (props.tools.teachers.lesson)(ls.id))
        .filter(|b| state.run.as_ref().is_some_and(|r| *r.scenario != *b));
    let session = state.run.as_ref().map(|r| r.session());

    html! {
        <div class="playground">
            { scenario_nav(&ScenarioNavProps { lang: l, dir: props.dir, route: &route, progress: &state.teach.progress, open: state.toc_open, on_toggle: on.toggle_toc.clone() }) }
            if let Some(n) = state.notice.clone() { { notice_bar(&NoticeBarProps { lang: l, notice: n, on_dismiss: on.dismiss.clone() }) } }
            { intro(&IntroProps { lang: l, challenge: props.tools.challenge, challenge_list: props.tools.challenge_list, lesson: props.tools.lesson, predict: props.tools.predict, route: &route, original: changed_lesson.as_ref(), on_change: &on.change, state: &state, session: session.as_deref(), on: &on.action }) }
            if let Some(b) = state.building.as_ref() {
                { build_progress(&BuildProgressProps { lang: l, progress: b.progress, on_cancel: on.cancel.clone() }) }
            } else if let Some(run) = state.run.as_ref() {
                { run_view(props, &state, run, &on, whole) }
            }
        </div>
    }
}

/// The run once built: its controls and caption, the fork control, the service picker, the
/// sandbox form (on the sandbox and the challenges), then, once the whole page is drawn, the
/// panels and what is below them.
fn run_view(
    props: &PlaygroundProps,
    state: &PageState,
    run: &Run,
    on: &Handlers,
    whole: bool,
) -> Html {
    let l = props.lang;
    let (position, total) = {
        let s = run.session();
        (s.position(), s.total())
    };
    let sandbox = matches!(props.route, Route::Sandbox);
    let challenge = state.teach.challenge.is_some();
    html! { <>
        <div class="run-bar">
            <Controls lang={l} position={position} total={total} playing={state.playing} speed_ms={state.speed_ms} on={on.control.clone()} limit={state.limit()} />
            { caption(l, &run.session(), state.tab, state.teach.asked_column()) }
        </div>
        <p class="muted pace-note">{ view::playground::PACE_NOTE.get(l) }</p>
        if !challenge {
            { fork_panel(&ForkProps { lang: l, session: &run.session(), waiting: !state.teach.reveals_future(), notice: state.fork_notice.as_ref(), open: state.fork_open, on: &on.action }) }
        }
        <div class="picker-row" hidden={challenge}>
            { service_picker(l, &run.scenario, &on.change) }
        </div>
        if let (true, Some(form)) = (sandbox || challenge, props.tools.sandbox) {
            { form(SandboxProps { lang: l, scenario: run.scenario.clone(), last_key: run.session().finished(0).and_then(last_key), on_change: on.change.clone(), settings: !challenge, fixed_inputs: state.teach.challenge.as_ref().map_or(0, |c| c.start.inputs.len()), challenge: state.teach.challenge.clone() }, &run.session()) }
        }
        if !whole {
            <div class="services-pending" aria-busy="true"></div>
        } else {
            { below_run(props, state, run, on) }
        }
    </> }
}

/// Every service's panel, then the timeline, the share panel and what the model leaves out.
fn below_run(props: &PlaygroundProps, state: &PageState, run: &Run, on: &Handlers) -> Html {
    let l = props.lang;
    let route = &props.route;
    let position = run.session().position();
    // HTTP on the wire (issue 26): folded in the sandbox, open in the lessons that show the
    // header.
    let wire = match route {
        Route::Sandbox => Some(false),
        Route::Scenario(id) if lessons::WIRE_LESSONS.contains(&id.as_str()) => Some(true),
        _ => None,
    };
    // The column a phone shows (the one the caption and the timeline follow).
    let columns = run.session().worlds().len();
    let tab = state.tab.min(columns.saturating_sub(1));
    let tabs = column_tabs(l, &run.session(), tab, &on.tab);
    html! { <>
        if columns > 1 { <div class="service-tabs">{ tabs.clone() }</div> }
        <div class="services">
            { for run.session().worlds().iter().enumerate().map(|(i, w)| service_panel(l, w, &on.jump, (wire, i == tab))) }
        </div>
        <div class="pg-bottom">
            { timeline_section(l, &run.session(), &TimelineView { tab: state.tab, page: state.timeline_page, reveal: state.teach.reveals_future(), tabs: &tabs, on_page: &on.page, on_jump: &on.jump }) }
            <SharePanel lang={l} json={run.json.clone()} position={position} route_hash={route.to_hash()} on_import={on.import.clone()} import_notice={state.import_notice.clone()} />
            if let Some(out) = props.tools.leaves_out { { out(l) } }
        </div>
    </> }
}
