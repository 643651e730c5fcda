//! The playground page: a built-in scenario or the sandbox, every chosen service fed the same
//! inputs side by side, with controls, live panels, a timeline, share links and import.
//!
//! All mutable page state sits in one `RefCell` (`PageState`) so long-lived closures (the
//! keyboard listener, the play timer) always see the current run; a render is requested with
//! `use_force_update` after each change.

pub mod controls;
pub mod lessons;
pub mod panel;
pub mod sandbox;
pub mod services;

pub mod share_panel;
pub mod timeline;

use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::sim::json::{self, Got, JsonError, ObjectWriter};
use crate::sim::limits::{InputError, MAX_JSON_BYTES};
use crate::sim::Scenario;
use crate::sim::Session;
use crate::sim::{builtin, builtin_ids};
use controls::{Control, Controls};
use timeline::{Timeline, TimelineRow};

use super::describe;
use super::i18n::Lang;
use super::route::Route;
use super::share::{self, ShareError};
use super::web::{self, Listener};

pub use super::web::LAST_RUN_KEY;

/// A message above the run: an error that says what to fix, or a confirmation.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Something the learner gave could not be used; nothing was lost.
    Error(String),
    /// Something worked.
    Info(String),
}

/// Everything the page changes.
pub struct PageState {
    /// The run, if a scenario could be loaded.
    pub session: Option<Session>,
    /// The scenario as JSON (for the share panel and storage), refreshed when the script changes.
    pub json: Rc<String>,
    /// Playing now.
    pub playing: bool,
    /// Milliseconds between steps while playing.
    pub speed_ms: u32,
    /// A message for the learner.
    pub notice: Option<Notice>,
    /// The outcome of the last import, shown next to the Import button (where the learner is
    /// looking), not at the top of the page.
    pub import_notice: Option<Notice>,
    /// Which service's timeline is shown.
    pub tab: usize,
}

impl PageState {
    /// Replaces the run, keeping the step when asked.
    pub fn set_session(&mut self, session: Session) {
        self.json = Rc::new(session.scenario().to_json());
        self.session = Some(session);
        self.tab = 0;
    }
}

/// The default sandbox: the three services of the first lesson plus the production one.
pub fn sandbox_scenario() -> Scenario {
    let mut s = builtin("double-charge").expect("the first lesson is built in");
    s.inputs.clear();
    s.services = [
        crate::sim::ServiceKind::Naive,
        crate::sim::ServiceKind::Idempotent,
        crate::sim::ServiceKind::Atomic,
        crate::sim::ServiceKind::Production,
    ]
    .map(Into::into)
    .to_vec();
    s
}

fn share_error(lang: Lang, e: &ShareError) -> String {
    match e {
        ShareError::LinkTooLong { bytes } => lang.f(
            format!("This link is too long ({bytes} bytes; at most {} are read). Nothing was loaded from it.", crate::sim::limits::MAX_URL_BYTES),
            format!("このリンクは長すぎる（{bytes} バイト、読めるのは {} バイトまで）。何も読み込んでいない。", crate::sim::limits::MAX_URL_BYTES)),
        ShareError::NotBase64 | ShareError::NotText | ShareError::Missing => lang.t(
            "This share link is damaged (its data is not readable), so the page opened the scenario without it.",
            "この共有リンクは壊れている（データが読めない）ので、リンクの内容なしでシナリオを開いた。").into(),
    }
}

/// A share link whose scenario cannot be used: a damaged link (bad JSON) or a scenario this page
/// refuses (another version, a value out of range), with the reason.
fn link_scenario_error(lang: Lang, e: &InputError) -> String {
    match e {
        InputError::JsonInvalid { .. } => lang.t(
            "This share link is damaged (its scenario is not readable JSON), so the page opened the scenario without it.",
            "この共有リンクは壊れている（シナリオが読める JSON ではない）ので、リンクの内容なしでシナリオを開いた。").into(),
        _ => lang.f(
            format!("This share link's scenario cannot be opened: {} The page opened the scenario without it.", describe::input_error(lang, e)),
            format!("この共有リンクのシナリオは開けない：{} リンクの内容なしでシナリオを開いた。", describe::input_error(lang, e))),
    }
}

/// The last run, kept in localStorage as
/// `{"route":"#/...","position":3,"scenario":"<the scenario's JSON>"}`.
#[derive(Debug, PartialEq, Eq)]
struct SavedRun {
    route: String,
    position: usize,
    scenario: String,
}

impl SavedRun {
    fn to_json(&self) -> String {
        let mut out = String::new();
        let mut o = ObjectWriter::new(&mut out);
        o.str("route", &self.route);
        o.u64("position", self.position as u64);
        o.str("scenario", &self.scenario);
        o.end();
        out
    }

    /// Reads a saved run; `None` for anything else. Other fields are ignored (another version of
    /// the page may add some); a doubled field is refused.
    fn from_json(text: &str) -> Option<SavedRun> {
        let read = || -> Result<SavedRun, JsonError> {
            let doc = json::parse(text)?;
            let mut f = Got::new(&doc, "the saved run").fields("")?;
            Ok(SavedRun {
                route: f.req("route")?.string()?,
                position: f.req("position")?.usize()?,
                scenario: f.req("scenario")?.string()?,
            })
        };
        read().ok()
    }
}

fn load_initial(route: &Route, hash: &str, lang: Lang) -> PageState {
    let mut st = PageState {
        session: None,
        json: Rc::new(String::new()),
        playing: false,
        speed_ms: 600,
        notice: None,
        import_notice: None,
        tab: 0,
    };
    let route_hash = route.to_hash();
    // 1. A share link in the hash.
    if let Some(q) = Route::query(hash) {
        match share::decode_query(q) {
            Ok(p) => match Scenario::from_json(&p.json).and_then(Session::new) {
                Ok(mut s) => {
                    s.seek(p.step);
                    st.set_session(s);
                    st.notice = Some(if p.step_unreadable {
                        Notice::Error(lang.t(
                            "This share link's step number is not a whole number from 0 up, so the shared run opened at the start.",
                            "この共有リンクのステップ番号が 0 以上の整数ではないので、共有された実行を最初から開いた。",
                        ).into())
                    } else {
                        Notice::Info(
                            lang.t(
                                "Opened the shared run at the sender's step.",
                                "共有された実行を送り手のステップで開いた。",
                            )
                            .into(),
                        )
                    });
                    return st;
                }
                // The link decoded but its scenario does not read: say the link is damaged
                // (the parser's detail follows; advice like "write it as an escape" is for files).
                Err(e) => st.notice = Some(Notice::Error(link_scenario_error(lang, &e))),
            },
            Err(e) => st.notice = Some(Notice::Error(share_error(lang, &e))),
        }
    }
    // 2. The learner's last run on this route.
    if st.notice.is_none() {
        if let Some(saved) = web::load(LAST_RUN_KEY).and_then(|t| SavedRun::from_json(&t)) {
            if saved.route == route_hash {
                if let Ok(mut s) = Scenario::from_json(&saved.scenario).and_then(Session::new) {
                    s.seek(saved.position);
                    st.set_session(s);
                    return st;
                }
            }
        }
    }
    // 3. The built-in scenario or the default sandbox.
    let scenario = match route {
        Route::Sandbox => Some(sandbox_scenario()),
        Route::Scenario(id) => builtin(id),
        _ => None,
    };
    match scenario.map(Session::new) {
        Some(Ok(s)) => st.set_session(s),
        Some(Err(e)) => st.notice = Some(Notice::Error(describe::input_error(lang, &e))),
        None => {
            st.notice = Some(Notice::Error(
                lang.t(
                    "There is no built-in scenario with this name. Pick one below.",
                    "この名前の組み込みシナリオはない。下から選んでください。",
                )
                .into(),
            ))
        }
    }
    st
}

fn save_run(route: &Route, st: &PageState) {
    if let Some(s) = &st.session {
        if st.json.len() <= MAX_JSON_BYTES {
            let saved = SavedRun {
                route: route.to_hash(),
                position: s.position(),
                scenario: (*st.json).clone(),
            };
            web::save(LAST_RUN_KEY, &saved.to_json());
        }
    }
}

/// Applies a control to the page state. Returns true when something changed.
pub fn apply(st: &mut PageState, c: Control) -> bool {
    let Some(s) = st.session.as_mut() else {
        return false;
    };
    match c {
        Control::Reset => {
            st.playing = false;
            s.seek(0)
        }
        Control::Back => {
            st.playing = false;
            let p = s.position().saturating_sub(1);
            s.seek(p)
        }
        Control::Step => {
            s.step();
        }
        Control::End => {
            st.playing = false;
            let t = s.total();
            s.seek(t)
        }
        Control::Seek(k) => {
            st.playing = false;
            s.seek(k)
        }
        Control::TogglePlay => {
            if s.at_end() && !st.playing {
                return false;
            }
            st.playing = !st.playing
        }
        Control::Speed(ms) => st.speed_ms = ms.clamp(16, 5_000),
    }
    true
}

/// Localized timeline rows for trace events.
pub fn timeline_rows<'a>(
    lang: Lang,
    world: &crate::sim::World,
    events: impl IntoIterator<Item = &'a crate::sim::TraceEvent>,
) -> Vec<TimelineRow> {
    events
        .into_iter()
        .map(|e| {
            let (from, to) = e.lanes();
            let (label, tone) = describe::event_text(lang, world, &e.kind);
            TimelineRow {
                step: e.step,
                time_ms: e.time_ms,
                from: from as usize,
                to: to.map(|l| l as usize),
                lost: e.is_lost(),
                label,
                tone,
            }
        })
        .collect()
}

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
}

/// The playground page.
#[function_component(Playground)]
pub fn playground(props: &PlaygroundProps) -> Html {
    let l = props.lang;
    let route = props.route.clone();
    let state = {
        let route = route.clone();
        let initial = props.initial.clone();
        use_mut_ref(move || {
            if let Some(Ok(s)) = initial.map(|sc| Session::new((*sc).clone())) {
                let mut st = load_initial(&Route::NotFound(String::new()), "", l);
                st.notice = None;
                st.set_session(s);
                return st;
            }
            load_initial(&route, &web::current_hash(), l)
        })
    };
    let force = use_force_update();

    // One entry point for every change: apply, save, re-render.
    let control: Callback<Control> = {
        let state = state.clone();
        let force = force.clone();
        let route = route.clone();
        Callback::from(move |c: Control| {
            let changed = apply(&mut state.borrow_mut(), c);
            if changed {
                save_run(&route, &state.borrow());
                force.force_update();
            }
        })
    };

    // Keyboard: space play/pause, arrows step; ignored while typing in a field.
    {
        let control = control.clone();
        use_effect_with((), move |_| {
            let listener = Listener::on_document("keydown", move |e: web_sys::Event| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                let tag = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .map(|el| el.tag_name())
                    .unwrap_or_default();
                // Fields keep their own keys; on a button or link, space keeps activating it.
                let in_field = matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT");
                let activates = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
                if in_field || e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let c = match e.key().as_str() {
                    " " if !activates => Control::TogglePlay,
                    "ArrowRight" => Control::Step,
                    "ArrowLeft" => Control::Back,
                    _ => return,
                };
                e.prevent_default();
                control.emit(c);
            });
            move || drop(listener)
        });
    }

    // Playing: one step per tick; the timer is dropped (cancelled) on every re-render.
    let (playing, speed_ms, position) = {
        let st = state.borrow();
        (
            st.playing,
            st.speed_ms,
            st.session.as_ref().map(|s| s.position()).unwrap_or(0),
        )
    };
    {
        let state = state.clone();
        let force = force.clone();
        let route = route.clone();
        use_effect_with(
            (playing, position, speed_ms),
            move |&(playing, _, speed)| {
                let timer = playing.then(|| {
                    Timeout::new(speed, move || {
                        {
                            let mut st = state.borrow_mut();
                            if let Some(s) = st.session.as_mut() {
                                if !s.step() || s.at_end() {
                                    st.playing = false;
                                }
                            }
                        }
                        save_run(&route, &state.borrow());
                        force.force_update();
                    })
                });
                move || drop(timer)
            },
        );
    }

    let on_jump = control.reform(Control::Seek);
    let on_tab = {
        let state = state.clone();
        let force = force.clone();
        Callback::from(move |i: usize| {
            state.borrow_mut().tab = i;
            force.force_update();
        })
    };
    let on_import = {
        let state = state.clone();
        let force = force.clone();
        Callback::from(move |json: String| {
            let result = Scenario::from_json(json.trim()).and_then(Session::new);
            let mut st = state.borrow_mut();
            match result {
                Ok(s) => {
                    st.playing = false;
                    st.set_session(s);
                    st.notice = None;
                    st.import_notice = Some(Notice::Info(
                        l.t(
                            "Imported. Step through it or press Play.",
                            "読み込んだ。ステップで進めるか再生してください。",
                        )
                        .into(),
                    ));
                }
                Err(e) => st.import_notice = Some(Notice::Error(describe::input_error(l, &e))),
            }
            force.force_update();
        })
    };
    // The sandbox hands back a new scenario (inputs or settings changed) or an error.
    let on_sandbox = {
        let state = state.clone();
        let force = force.clone();
        let route = route.clone();
        Callback::from(move |change: sandbox::Change| {
            {
                let mut st = state.borrow_mut();
                let Some(s) = st.session.as_mut() else { return };
                let pushed = matches!(change, sandbox::Change::Push(_));
                let result = match change {
                    sandbox::Change::Push(input) => s.push_input(input).map(|_| true),
                    sandbox::Change::Replace(scenario) => {
                        Session::new(scenario).map(|mut fresh| {
                            let p = s.position();
                            fresh.seek(p);
                            *s = fresh;
                            true
                        })
                    }
                };
                match result {
                    Ok(_) => {
                        let s = st.session.take().expect("checked above");
                        let tab = st.tab;
                        st.set_session(s);
                        st.tab = tab;
                        st.notice = None;
                        // A new request plays itself out; a settings change keeps the cursor still.
                        st.playing = pushed && st.session.as_ref().is_some_and(|s| !s.at_end());
                    }
                    Err(e) => st.notice = Some(Notice::Error(describe::input_error(l, &e))),
                }
            }
            save_run(&route, &state.borrow());
            force.force_update();
        })
    };
    let dismiss = {
        let state = state.clone();
        let force = force.clone();
        Callback::from(move |_| {
            state.borrow_mut().notice = None;
            force.force_update();
        })
    };

    let st = state.borrow();
    let lesson = match &route {
        Route::Scenario(id) => lessons::lesson(id),
        _ => None,
    };
    // The lesson as written, when the run on screen is not it (other services, an import).
    let changed_lesson = lesson
        .and_then(|ls| builtin(ls.id))
        .filter(|b| st.session.as_ref().is_some_and(|s| s.scenario() != b));
    let picker = builtin_ids().iter().map(|id| {
        let title = lessons::lesson(id).map(|ls| lessons::Lesson::pick(l, ls.title).to_string()).unwrap_or_else(|| (*id).to_string());
        let active = matches!(&route, Route::Scenario(r) if r == id);
        html! { <li><a href={Route::Scenario((*id).into()).to_hash()} class={classes!(active.then_some("active"))}
                       aria-current={active.then_some("page")}>{ title }</a></li> }
    });
    let notice = st.notice.as_ref().map(|n| {
        let (class, text) = match n {
            Notice::Error(t) => ("notice error", t.clone()),
            Notice::Info(t) => ("notice info", t.clone()),
        };
        html! { <div class={class} role={if class.contains("error") { "alert" } else { "status" }} data-testid="notice">
            { text }{ " " }<button onclick={dismiss.clone()} aria-label={l.t("Dismiss message", "メッセージを閉じる")}>{ "×" }</button>
        </div> }
    });

    html! {
        <div class="playground">
            <nav aria-label={l.t("Scenarios", "シナリオ")}><ul class="scenario-picker">{ for picker }
                <li><a href="#/sandbox" class={classes!(matches!(route, Route::Sandbox).then_some("active"))}>{ l.t("Sandbox", "サンドボックス") }</a></li>
            </ul></nav>
            { for notice }
            if let Some(ls) = lesson {
                <section class="lesson card" data-testid="lesson">
                    <h2>{ lessons::Lesson::pick(l, ls.title) }</h2>
                    <p>{ lessons::Lesson::pick(l, ls.story) }</p>
                    <p class="watch">{ lessons::Lesson::pick(l, ls.watch) }</p>
                    <p class="takeaway">{ lessons::Lesson::pick(l, ls.takeaway) }</p>
                    if changed_lesson.is_some() {
                        <p class="notice info" data-testid="lesson-changed">{ l.t(
                            "The run below is not this lesson as written (its services were changed or a scenario was imported), so this text may not describe it. “Restore the lesson as written” brings the lesson back.",
                            "下の実行は書かれたとおりのレッスンではない（サービスを変えたか、シナリオを読み込んだ）ので、この説明と合わないことがある。「レッスンを元に戻す」で元のレッスンに戻る。") }</p>
                    }
                </section>
            }
            if matches!(route, Route::Sandbox) {
                <section class="lesson card">
                    <h2>{ l.t("Sandbox", "サンドボックス") }</h2>
                    <p>{ l.t(
                        "Send charges with a key you choose, break the network or the server on purpose, retry with the same key or a new one, and watch every service take the same inputs.",
                        "自分で選んだキーで課金を送り、ネットワークやサーバーをわざと壊し、同じキーか新しいキーでリトライして、すべてのサービスが同じ入力をどう扱うかを見る。") }</p>
                </section>
            }
            if let Some(s) = st.session.as_ref() {
                <Controls lang={l} position={s.position()} total={s.total()} playing={st.playing} speed_ms={st.speed_ms} on={control.clone()} />
                <p class="muted pace-note">{ l.t(
                    "Each step runs the next event in every column. A column with less to do finishes sooner, so compare columns by what happened, not by step number.",
                    "1ステップで各列の次のイベントを1つずつ実行する。やることが少ない列は早く終わるので、列どうしはステップ番号ではなく起きたことで比べる。") }</p>
                <div class="picker-row">
                    <services::ServicePicker lang={l} scenario={Rc::new(s.scenario().clone())} on_change={on_sandbox.clone()} />
                    if let Some(original) = changed_lesson.clone() {
                        <button data-testid="restore-lesson" onclick={on_sandbox.reform(move |_| sandbox::Change::Replace(original.clone()))}>
                            { l.t("Restore the lesson as written", "レッスンを元に戻す") }</button>
                    }
                </div>
                if matches!(route, Route::Sandbox) {
                    <sandbox::Sandbox lang={l} scenario={Rc::new(s.scenario().clone())} last_key={s.worlds().first().and_then(last_key)} on_change={on_sandbox.clone()} />
                }
                <div class="services">
                    { for s.worlds().iter().map(|w| panel::service_panel(l, w, &on_jump)) }
                </div>
                <div class="pg-bottom">
                    <section aria-labelledby="tl-h">
                        <h2 id="tl-h">{ l.t("Timeline", "タイムライン") }</h2>
                        <div class="tabs" role="group" aria-label={l.t("Timeline of which service", "どのサービスのタイムラインか")}>
                            { for s.worlds().iter().enumerate().map(|(i, w)| {
                                let on_tab = on_tab.clone();
                                html! { <button aria-pressed={(i == st.tab).to_string()} onclick={Callback::from(move |_| on_tab.emit(i))}>
                                    { describe::column_name(l, w.config()) }</button> }
                            }) }
                        </div>
                        { timeline_for(l, s, st.tab, &on_jump) }
                    </section>
                    <share_panel::SharePanel lang={l} json={st.json.clone()} position={s.position()} route_hash={route.to_hash()} on_import={on_import} import_notice={st.import_notice.clone()} />
                </div>
            }
        </div>
    }
}

fn last_key(w: &crate::sim::World) -> Option<String> {
    w.client_results().last().and_then(|c| w.key_text(c.key))
}

/// The selected world's timeline. Rows come from the finished run's trace, so the steps ahead
/// show dimmed; only the window around the current step is localized and drawn.
fn timeline_for(l: Lang, s: &Session, tab: usize, on_jump: &Callback<usize>) -> Html {
    let Some(full) = s.finished(tab) else {
        return html! {};
    };
    let trace = full.trace();
    // A binary search: the trace holds tens of thousands of events on long runs.
    let at = trace.partition_point(|e| e.step < s.position().max(1));
    let first = timeline::window_start(trace.len(), at);
    let end = (first + timeline::WINDOW).min(trace.len());
    let rows = Rc::new(timeline_rows(l, full, trace.range(first..end)));
    let prev_step = (first > 0).then(|| trace[first.saturating_sub(timeline::WINDOW)].step);
    let next_step = (end < trace.len()).then(|| trace[end].step);
    html! { <Timeline lang={l} rows={rows} first={first} total_rows={trace.len()} prev_step={prev_step} next_step={next_step}
    current={s.position()} on_jump={on_jump.clone()} /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saved_run_round_trips_and_reads_what_it_read_before() {
        let scenario = builtin("double-charge").expect("built in").to_json();
        let saved = SavedRun {
            route: "#/scenario/double-charge".into(),
            position: 3,
            scenario: scenario.clone(),
        };
        let json = saved.to_json();
        // The bytes serde_json wrote for the same struct.
        let escaped = scenario.replace('"', "\\\"");
        assert_eq!(
            json,
            format!(
                r##"{{"route":"#/scenario/double-charge","position":3,"scenario":"{escaped}"}}"##
            )
        );
        assert_eq!(SavedRun::from_json(&json), Some(saved));
        // What the serde_json build made of other text: extra fields ignored (even doubled), a
        // doubled field, a missing one or a wrong type refused.
        let s = "\"x\"";
        let read = |text: String| SavedRun::from_json(&text).map(|r| (r.route, r.position));
        let some = Some(("r".to_string(), 1));
        for (text, want) in [
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s}}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"scenario":{s},"position":1,"route":"r"}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s},"extra":[1,{{}}]}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s},"extra":1,"extra":2}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"route":"r","route":"r","position":1,"scenario":{s}}}"#),
                None,
            ),
            (format!(r#"{{"position":1,"scenario":{s}}}"#), None),
            (format!(r#"{{"route":"r","scenario":{s}}}"#), None),
            (r#"{"route":"r","position":1}"#.to_string(), None),
            (
                format!(r#"{{"route":"r","position":-1,"scenario":{s}}}"#),
                None,
            ),
            (
                format!(r#"{{"route":"r","position":1.0,"scenario":{s}}}"#),
                None,
            ),
            (
                format!(r#"{{"route":null,"position":1,"scenario":{s}}}"#),
                None,
            ),
            (
                r#"{"route":"r","position":1,"scenario":null}"#.to_string(),
                None,
            ),
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s}}} x"#),
                None,
            ),
            ("{}".to_string(), None),
            (String::new(), None),
        ] {
            assert_eq!(read(text.clone()), want, "{text}");
        }
        // A position past usize (32 bits in the browser) is refused, not truncated.
        let big = format!(r#"{{"route":"r","position":4294967296,"scenario":{s}}}"#);
        assert_eq!(read(big).is_some(), usize::BITS > 32);
    }
}
