//! The playground page: a built-in scenario or the sandbox, every chosen service fed the same
//! inputs side by side, with controls, live panels, a timeline, share links and import. Its state
//! is one reducer (`state.rs`); the address and localStorage are read once when it opens, and the
//! keyboard, the play timer and saving are effects (`hooks.rs`).

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::{builtin, Scenario, Session, World};
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::web::{self, LAST_RUN_KEY, PROGRESS_KEY};

use super::build_progress::{build_progress, BuildProgressProps};
use super::caption::caption;
use super::challenge_card::{challenge_card, ChallengeCard};
use super::fork::{fork_panel, ForkProps};
use super::hooks::{use_build_slices, use_remembered_run, use_saved_progress, use_whole_page};
use super::intro::{intro, lesson_card, IntroProps, LessonCard};
use super::notice::{notice_bar, NoticeBarProps};
use super::panel::service_panel;
use super::predict::{predict_block, PredictBlock};
use super::sandbox::{Change, Sandbox, SandboxProps};
use super::scenario_nav::{scenario_nav, ScenarioNavProps};
use super::services::ServicePicker;
use super::share_panel::SharePanel;
use super::state::{Action, PageState};
use super::teach::{Progress, Teachers};
use super::timeline_section::{timeline_section, TimelineView};
use super::wire::leaves_out;
use crate::ui::run::{use_play_timer, use_run_keys, Control, Controls};
use crate::ui::text::lessons;

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
    /// The sandbox form.
    pub sandbox: Option<fn(SandboxProps) -> Html>,
    /// The challenge card.
    pub challenge: Option<ChallengeCard>,
    /// A lesson's question: predict, then reveal.
    pub predict: Option<PredictBlock>,
    /// Where the questions and the challenges come from.
    pub teachers: Teachers,
    /// A lesson's card (its story, question, the changed-run note, the next lesson's link).
    pub lesson: Option<LessonCard>,
    /// "What this model leaves out" for HTTP, below the run.
    pub leaves_out: Option<fn(Lang) -> Html>,
}

impl Tools {
    /// The first page's: the lessons.
    pub const LESSONS: Tools = Tools {
        sandbox: None,
        challenge: None,
        predict: Some(predict_block),
        teachers: Teachers::LESSONS,
        lesson: Some(lesson_card),
        leaves_out: Some(leaves_out),
    };
    /// The sandbox page's: the sandbox and the challenges.
    pub const SANDBOX: Tools = Tools {
        sandbox: Some(|p| html! { <Sandbox ..p /> }),
        challenge: Some(challenge_card),
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
    let (position, total) = state.run.as_ref().map_or((0, 0), |r| {
        let s = r.session();
        (s.position(), s.total())
    });
    {
        let d = dispatch.clone();
        use_run_keys(Callback::from(move |c| d.dispatch(Action::Control(c))));
        let d = dispatch.clone();
        let tick = Callback::from(move |()| d.dispatch(Action::Tick));
        use_play_timer(tick, state.playing, position, state.speed_ms);
    }
    use_remembered_run(state.clone(), route.clone());
    use_saved_progress(state.clone());
    use_build_slices(dispatch.clone(), state.building.as_ref().map(|b| b.slices));
    let whole = use_whole_page(props.staged);

    let on_control = {
        let d = dispatch.clone();
        Callback::from(move |c: Control| d.dispatch(Action::Control(c)))
    };
    let on_jump = on_control.reform(Control::Seek);
    let on_tab = {
        let d = dispatch.clone();
        Callback::from(move |i: usize| d.dispatch(Action::Tab(i)))
    };
    let on_page = {
        let d = dispatch.clone();
        Callback::from(move |first: Option<usize>| d.dispatch(Action::TimelinePage(first)))
    };
    let on_import = {
        let d = dispatch.clone();
        Callback::from(move |json: String| d.dispatch(Action::Import(json, l)))
    };
    // The sandbox and the service picker hand back a new input or scenario.
    let on_change = {
        let d = dispatch.clone();
        Callback::from(move |change: Change| d.dispatch(Action::Change(change, l)))
    };
    let on_cancel = {
        let d = dispatch.clone();
        Callback::from(move |()| d.dispatch(Action::CancelBuild(l)))
    };
    let on_action = {
        let d = dispatch.clone();
        Callback::from(move |a: Action| d.dispatch(a))
    };
    let on_toggle = {
        let d = dispatch.clone();
        let opening = !state.toc_open;
        Callback::from(move |()| {
            web::save(web::TOC_KEY, if opening { "open" } else { "closed" });
            d.dispatch(Action::ToggleToc)
        })
    };
    let on_dismiss = Callback::from(move |()| dispatch.dispatch(Action::Dismiss));

    let lesson = match &route {
        Route::Scenario(id) => lessons::lesson(id),
        _ => None,
    };
    // The lesson as written, when the run on screen is not it (other services, an import).
    let changed_lesson = lesson
        .and_then(|ls| builtin(ls.id))
        .filter(|b| state.run.as_ref().is_some_and(|r| *r.scenario != *b));
    let sandbox = matches!(route, Route::Sandbox);
    let challenge = state.teach.challenge.is_some();
    // HTTP on the wire (issue 26): folded in the sandbox, open in the lesson that introduces
    // the header.
    let wire = match &route {
        Route::Sandbox => Some(false),
        Route::Scenario(id) if id == lessons::WIRE_LESSON => Some(true),
        _ => None,
    };
    let session = state.run.as_ref().map(|r| r.session());

    html! {
        <div class="playground">
            { scenario_nav(&ScenarioNavProps { lang: l, dir: props.dir, route: &route, progress: &state.teach.progress, open: state.toc_open, on_toggle }) }
            if let Some(n) = state.notice.clone() { { notice_bar(&NoticeBarProps { lang: l, notice: n, on_dismiss }) } }
            { intro(&IntroProps { lang: l, tools: props.tools, route: &route, original: changed_lesson.as_ref(), on_change: &on_change, state: &state, session: session.as_deref(), on: &on_action }) }
            if let Some(b) = state.building.as_ref() {
                { build_progress(&BuildProgressProps { lang: l, progress: b.progress, on_cancel }) }
            } else if let Some(run) = state.run.as_ref() {
                <div class="run-bar">
                    <Controls lang={l} position={position} total={total} playing={state.playing} speed_ms={state.speed_ms} on={on_control} limit={state.limit()} />
                    { caption(l, &run.session(), state.tab) }
                </div>
                <p class="muted pace-note">{ l.t(
                    "Each step runs the next event in every column. A column with less to do finishes sooner, so compare columns by what happened, not by step number.",
                    "1ステップで各列の次のイベントを1つずつ実行する。やることが少ない列は早く終わるので、列どうしはステップ番号ではなく起きたことで比べる。") }</p>
                if !challenge {
                    { fork_panel(&ForkProps { lang: l, session: &run.session(), waiting: !state.teach.reveals_future(), notice: state.fork_notice.as_ref(), open: state.fork_open, on: &on_action }) }
                }
                <div class="picker-row" hidden={challenge}>
                    <ServicePicker lang={l} scenario={run.scenario.clone()} on_change={on_change.clone()} />
                </div>
                if let (true, Some(form)) = (sandbox || challenge, props.tools.sandbox) {
                    { form(SandboxProps { lang: l, scenario: run.scenario.clone(), last_key: run.session().finished(0).and_then(last_key), on_change, settings: !challenge, fixed_inputs: state.teach.challenge.as_ref().map_or(0, |c| c.start.inputs.len()) }) }
                }
                if !whole {
                    <div class="services-pending" aria-busy="true"></div>
                } else {
                <div class="services">
                    { for run.session().worlds().iter().map(|w| service_panel(l, w, &on_jump, wire)) }
                </div>
                <div class="pg-bottom">
                    { timeline_section(l, &run.session(), &TimelineView { tab: state.tab, page: state.timeline_page, reveal: state.teach.reveals_future(), on_tab: &on_tab, on_page: &on_page, on_jump: &on_jump }) }
                    <SharePanel lang={l} json={run.json.clone()} position={position} route_hash={route.to_hash()} on_import={on_import} import_notice={state.import_notice.clone()} />
                    if let Some(out) = props.tools.leaves_out { { out(l) } }
                </div>
                }
            }
        </div>
    }
}
