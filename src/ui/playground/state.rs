//! The playground page's state and its actions. `reduce` forwards to the core's [`Session`] (step,
//! seek, a new input, a new scenario) and keeps what the page shows beside it (playing, speed,
//! messages, the timeline tab); it does no I/O. The play timer, the keyboard, the address and
//! localStorage are effects of the page (`hooks.rs`, `page.rs`) that dispatch actions or read the
//! state after them.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use yew::Reducible;

use crate::sim::{Scenario, Session, SessionBuild};
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::text::{self, view};

use super::sandbox_form::Change;
use super::saved_run::SavedRun;
use super::teach::{Answer, Teach};
use crate::ui::run::Control;

/// A message above the run: an error that says what to fix, or a confirmation.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// Something the learner gave could not be used; nothing was lost.
    Error(String),
    /// Something worked.
    Info(String),
}

/// The run on the page: the session and, made once per scenario, what the components are given.
#[derive(Clone)]
pub struct Run {
    /// Shared and moved in place, by `reduce` only: a `Session` holds the run's worlds and
    /// checkpoints, and copying them on every action would cost more than the step itself.
    session: Rc<RefCell<Session>>,
    /// The scenario being run (the sandbox and the service picker edit copies of it).
    pub scenario: Rc<Scenario>,
    /// The scenario as JSON (share panel, storage); a new `Rc` means a new script.
    pub json: Rc<String>,
}

impl Run {
    fn new(session: Session) -> Run {
        Run {
            scenario: Rc::new(session.scenario().clone()),
            json: Rc::new(session.scenario().to_json()),
            session: Rc::new(RefCell::new(session)),
        }
    }

    /// The session, to draw it.
    pub fn session(&self) -> Ref<'_, Session> {
        self.session.borrow()
    }
}

/// Trace events one slice of a build runs: some tens of milliseconds of a desktop's page, and
/// under about 100 ms on a phone several times slower, so no task blocks the page for longer.
pub const BUILD_SLICE_EVENTS: u64 = 40_000;
/// The first slice, run in the same task as the click or the page load that asked for the run
/// (which also reads and checks the scenario): small, yet enough for every lesson, so a lesson
/// opens at once and never flickers through a progress bar.
pub const FIRST_SLICE_EVENTS: u64 = 5_000;

/// A run being built a slice at a time between frames (the page shows its progress and a
/// Cancel button), and what becomes of it when it is done.
#[derive(Clone)]
pub struct Building {
    /// Taken out when the build is done; moved in place by `reduce` only.
    build: Rc<RefCell<Option<SessionBuild>>>,
    then: Then,
    /// Trace events recorded so far, and the most the run can record.
    pub progress: (u64, u64),
    /// Slices run so far: a new value asks for the next slice.
    pub slices: u64,
}

/// What a finished build becomes.
#[derive(Clone)]
enum Then {
    /// The page's opening run, at a step, with a message; `fallback` is opened instead if the
    /// learner cancels (the route's own scenario).
    Open {
        seek: usize,
        notice: Option<Notice>,
        fallback: Option<Rc<Scenario>>,
        lang: Lang,
    },
    /// An import; its message (under the Import button) is in `lang`.
    Import { lang: Lang },
    /// A sandbox or service change to the run, at the run's step; `play` plays the new input out;
    /// messages in `lang`.
    Change { seek: usize, play: bool, lang: Lang },
}

/// Everything the page changes.
#[derive(Clone)]
pub struct PageState {
    /// The run, if a scenario could be loaded.
    pub run: Option<Run>,
    /// A run being built (the page opening it, an import, a change); while it builds, the page
    /// shows its progress instead of the run.
    pub building: Option<Building>,
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
    /// The timeline's page, as the index of its first event, when the learner paged it with
    /// Earlier or Later; `None` follows the current step. Paging never moves the run; a move that
    /// leaves the page's events goes back to following.
    pub timeline_page: Option<usize>,
    /// Counts the changes the page remembers in this browser (the run's controls, the play timer,
    /// a sandbox change or an import once built); the page saves the run whenever it moves. A
    /// page just opened saves nothing until the learner acts.
    pub remembered: u64,
    /// The lesson's question or the challenge, and the learner's progress.
    pub teach: Teach,
    /// The lesson list is open (on a phone it is a menu).
    pub toc_open: bool,
    /// The outcome of the last fork, shown in the fork control.
    pub fork_notice: Option<Notice>,
    /// The fork control opens unfolded (the learner left it so; read once, when the page opens).
    pub fork_open: bool,
    /// The lessons' words could not be fetched (a one-language page reads them as it opens).
    pub words_failed: bool,
}

/// What the page can ask of its state.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The control bar, the keyboard, or a jump from a panel or the timeline.
    Control(Control),
    /// The play timer: one step, and stop at the end.
    Tick,
    /// The sandbox, the service picker or "restore the lesson": a new input or scenario. Messages
    /// are written in `Lang`.
    Change(Change, Lang),
    /// JSON pasted into the import box.
    Import(String, Lang),
    /// Show this service's timeline.
    Tab(usize),
    /// Show the timeline's events from this index on (`None`: around the current step).
    TimelinePage(Option<usize>),
    /// Close the message above the run.
    Dismiss,
    /// Run the next slice of the build in progress.
    BuildSlice,
    /// Drop the build in progress (messages in `Lang`).
    CancelBuild(Lang),
    /// Answer the lesson's question with choice `i`; the run moves to the step that shows it.
    Answer(usize),
    /// Answer the lesson's variation question with choice `i`.
    AnswerTransfer(usize),
    /// The lessons' words arrived (true) or could not be read (false).
    WordsLoaded(bool),
    /// Skip the question.
    Skip,
    /// Ask the question again (the run goes back to where it is asked).
    AskAgain,
    /// Open or close the lesson list.
    ToggleToc,
    /// The challenge's solution is opened (it comes next, as a change): its win is no star.
    OpenSolution,
    /// Fork the run at the cursor with this input (messages in `Lang`).
    Fork(crate::sim::Input, Lang),
}

impl PageState {
    /// A page with nothing loaded yet.
    pub fn empty() -> PageState {
        PageState {
            run: None,
            building: None,
            playing: false,
            speed_ms: 600,
            notice: None,
            import_notice: None,
            tab: 0,
            timeline_page: None,
            remembered: 0,
            teach: Teach::default(),
            toc_open: false,
            fork_notice: None,
            fork_open: false,
            words_failed: false,
        }
    }

    /// Replaces the run; the timeline (and on a phone the one service shown) is the service the
    /// lesson's question asks about, else the first, around the current step.
    pub fn set_session(&mut self, session: Session) {
        self.teach.new_run(&session);
        self.run = Some(Run::new(session));
        self.tab = self.teach.asked_column().unwrap_or(0);
        self.timeline_page = None;
    }

    /// Keeps the timeline's page only while it shows an event of the current step, so a click
    /// on one of its rows leaves the page in place and stepping past it follows the run again.
    fn keep_timeline_page(&mut self) {
        let Some(first) = self.timeline_page else {
            return;
        };
        let holds = self.run.as_ref().is_some_and(|run| {
            let s = run.session();
            s.finished(self.tab).is_some_and(|w| {
                let step = s.position().max(1);
                let (from, to) = (
                    w.trace().partition_point(|e| e.step < step),
                    w.trace().partition_point(|e| e.step <= step),
                );
                from < first + super::timeline::WINDOW && to > first
            })
        });
        if !holds {
            self.timeline_page = None;
        }
    }

    /// The step the run may not pass now (a question is waiting there).
    pub fn limit(&self) -> Option<usize> {
        self.teach.limit()
    }

    /// Applies a control. Returns false when it changes nothing.
    fn control(&mut self, c: Control) -> bool {
        let Some(run) = &self.run else { return false };
        let mut s = run.session.borrow_mut();
        // A waiting question holds the run at its step: forward moves stop there.
        let limit = self.teach.limit().unwrap_or(usize::MAX);
        let held = s.position() >= limit;
        match c {
            Control::Reset => {
                self.playing = false;
                s.seek(0)
            }
            Control::Back => {
                self.playing = false;
                let p = s.position().saturating_sub(1);
                s.seek(p)
            }
            Control::Step => {
                if held {
                    return false;
                }
                s.step();
            }
            Control::End => {
                if held {
                    return false;
                }
                self.playing = false;
                let t = s.total().min(limit);
                s.seek(t)
            }
            Control::Seek(k) => {
                if held && k > s.position() {
                    return false;
                }
                self.playing = false;
                let to = k.min(limit.max(s.position()));
                s.seek(to)
            }
            Control::TogglePlay => {
                if (s.at_end() || held) && !self.playing {
                    return false;
                }
                self.playing = !self.playing
            }
            Control::Speed(ms) => self.speed_ms = ms.clamp(16, 5_000),
        }
        self.teach.moved(&s);
        true
    }

    /// One step of play; playing stops at the end.
    fn tick(&mut self) {
        if let Some(run) = &self.run {
            let mut s = run.session.borrow_mut();
            let limit = self.teach.limit().unwrap_or(usize::MAX);
            if s.position() >= limit || !s.step() || s.at_end() || s.position() >= limit {
                self.playing = false;
            }
            self.teach.moved(&s);
        }
    }

    /// The learner answers, skips or asks again; an answer moves the run to the step that shows
    /// it, on the timeline of the service asked about; asking again moves it back to where the
    /// question is asked.
    fn predict(&mut self, action: &Action) -> bool {
        let Some(run) = &self.run else { return false };
        let Some(p) = self.teach.prediction.clone() else {
            return false;
        };
        let Ok(posed) = &p.posed else { return false };
        let mut s = run.session.borrow_mut();
        match action {
            Action::Answer(i) => {
                let Some(v) = posed.choices.get(*i) else {
                    return false;
                };
                if p.answer.is_some() {
                    return false;
                }
                self.teach.answer(Answer::Picked(v.value));
                s.seek(posed.shows_at);
                // The timeline opens on the service the answer is about, at the step it cites.
                self.tab = posed.column;
                self.timeline_page = None;
            }
            Action::Skip => {
                if p.answer.is_some() {
                    return false;
                }
                self.teach.answer(Answer::Skipped);
            }
            _ => {
                if p.answer.is_none() {
                    return false;
                }
                self.teach.ask_again();
                let back = s.position().min(posed.ask_at);
                s.seek(back);
            }
        }
        self.playing = false;
        self.teach.moved(&s);
        true
    }

    /// A new input or scenario from the sandbox, keeping the step and the tab (once it is
    /// built). Returns false when there is no run to change.
    fn change(&mut self, change: Change, lang: Lang) -> bool {
        let Some(run) = &self.run else {
            return false;
        };
        let pushed = matches!(change, Change::Push(_));
        let seek = run.session.borrow().position();
        // A challenge fixes its services and settings and counts its moves.
        if let Some(c) = &self.teach.challenge {
            let refused = match &change {
                Change::Push(input) => c.check_move(&run.scenario, input).err(),
                Change::Replace(s) => c.accepts(s).err(),
            };
            if let Some(r) = refused {
                self.notice = Some(Notice::Error(text::move_refused(lang, c, r)));
                return true;
            }
        }
        let build = match change {
            Change::Push(input) => run.session.borrow().with_input(input),
            Change::Replace(scenario) => SessionBuild::new(scenario),
        };
        match build {
            Ok(b) => self.start_build(
                b,
                Then::Change {
                    seek,
                    play: pushed,
                    lang,
                },
            ),
            Err(e) => self.notice = Some(Notice::Error(text::input_error(lang, &e))),
        }
        true
    }

    /// Forks the run at the cursor (`Session::fork`: checked against every column there); the
    /// run is rebuilt and stays at that step. Not while a question waits (the rebuilt run would
    /// show what comes next) nor in a challenge (its moves are counted).
    fn fork(&mut self, input: crate::sim::Input, lang: Lang) -> bool {
        let Some(run) = &self.run else { return false };
        if self.teach.challenge.is_some() || self.teach.limit().is_some() {
            return false;
        }
        let (seek, next) = {
            let s = run.session.borrow();
            (s.position(), s.fork(input))
        };
        match next.and_then(SessionBuild::new) {
            Ok(b) => {
                self.start_build(
                    b,
                    Then::Change {
                        seek,
                        play: false,
                        lang,
                    },
                );
                // The panel's own line says where the run was forked.
                self.fork_notice =
                    Some(Notice::Info(view::playground::RUN_FORKED.get(lang).into()));
            }
            Err(e) => self.fork_notice = Some(Notice::Error(text::input_error(lang, &e))),
        }
        true
    }

    /// The fork's "step on to see what happens now" has done its work once the run has moved
    /// from the step it was forked at (a step, Play, Run to end, Back): drop it then, so it
    /// never stands beside a run that has already shown what happens.
    fn drop_stale_fork_notice(&mut self, before: Option<usize>) {
        if self.run.as_ref().map(|r| r.session().position()) != before {
            self.fork_notice = None;
        }
    }

    /// Starts building a run; one that fits in one slice (every lesson) is done at once, so the
    /// page never flickers through a progress bar for it.
    fn start_build(&mut self, build: SessionBuild, then: Then) {
        self.playing = false;
        self.building = Some(Building {
            progress: build.progress(),
            build: Rc::new(RefCell::new(Some(build))),
            then,
            slices: 0,
        });
        self.build_slice(FIRST_SLICE_EVENTS);
    }

    /// Runs one slice of the build in progress (`events` trace events at most), and makes it the
    /// run when it is done.
    fn build_slice(&mut self, events: u64) {
        let Some(b) = &mut self.building else { return };
        let done = {
            let mut cell = b.build.borrow_mut();
            let Some(build) = cell.as_mut() else { return };
            let done = build.run(events);
            b.progress = build.progress();
            done
        };
        b.slices += 1;
        if !done {
            return;
        }
        let Some(built) = b.build.borrow_mut().take() else {
            return;
        };
        let then = b.then.clone();
        self.building = None;
        let mut session = built.finish();
        // A fork of a link or an import that could not be made: the run opens without it.
        let lang = match then {
            Then::Open { lang, .. } | Then::Import { lang } | Then::Change { lang, .. } => lang,
        };
        let refused = session
            .branch_error()
            .map(|(i, e)| text::fork_refused(lang, *i, e));
        match then {
            Then::Open { seek, notice, .. } => {
                session.seek(seek);
                self.set_session(session);
                self.notice = self.with_key_note(notice, lang);
            }
            Then::Import { lang } => {
                self.set_session(session);
                self.notice = None;
                let notice = view::playground::imported(lang, self.kept());
                self.import_notice = self.with_key_note(Some(Notice::Info(notice.into())), lang);
                self.remembered += 1;
            }
            Then::Change { seek, play, lang } => {
                session.seek(seek);
                let tab = self.tab;
                let at_end = session.at_end();
                self.set_session(session);
                self.tab = tab;
                self.notice = (!self.kept())
                    .then(|| Notice::Info(view::playground::NOW_TOO_LARGE.get(lang).into()));
                // A new request plays itself out; a settings change keeps the cursor still.
                self.playing = play && !at_end;
                self.remembered += 1;
            }
        }
        if let Some(t) = refused {
            self.notice = Some(Notice::Error(t));
        }
    }

    /// `notice`, and after it, when the run on the page holds a key no real client could send
    /// (a link, a saved run or a file made before typed keys were checked, issue 26), which and
    /// why: the run opens as it was made.
    fn with_key_note(&self, notice: Option<Notice>, lang: Lang) -> Option<Notice> {
        let Some((input, e)) = self.run.as_ref().and_then(|r| r.scenario.unsendable_key()) else {
            return notice;
        };
        let note = text::http::unsendable_key_note(lang, input, &e);
        let sep = view::playground::KEY_NOTE_SEP.get(lang);
        Some(match notice {
            Some(Notice::Error(t)) => Notice::Error(t + sep + &note),
            Some(Notice::Info(t)) => Notice::Info(t + sep + &note),
            None => Notice::Info(note),
        })
    }

    /// Whether this browser keeps the run on the page (the rule [`PageState::saved_run`]
    /// applies).
    fn kept(&self) -> bool {
        self.run.as_ref().is_none_or(|r| SavedRun::keeps(&r.json))
    }

    /// What to save of the page on `route`: its run at its step. A scenario longer than the
    /// reader accepts is not saved at all (an import says so when it loads).
    pub fn saved_run(&self, route: &Route) -> Option<SavedRun> {
        let run = self.run.as_ref()?;
        SavedRun::keeps(&run.json).then(|| SavedRun {
            route: route.to_hash(),
            position: run.session().position(),
            scenario: (*run.json).clone(),
        })
    }

    /// Drops the build in progress: a change or an import leaves the run as it was; an opening
    /// run gives way to the route's own scenario.
    fn cancel_build(&mut self, lang: Lang) {
        let Some(b) = self.building.take() else {
            return;
        };
        match b.then {
            Then::Open { fallback, .. } => {
                let opened = fallback.and_then(|f| Session::new((*f).clone()).ok());
                self.notice = Some(match opened {
                    Some(s) => {
                        self.set_session(s);
                        Notice::Info(view::playground::CANCELLED_OPENED_SCENARIO.get(lang).into())
                    }
                    None => Notice::Error(view::playground::CANCELLED_NO_SCENARIO.get(lang).into()),
                });
            }
            Then::Import { .. } => {
                self.import_notice = Some(Notice::Info(
                    view::playground::IMPORT_CANCELLED.get(lang).into(),
                ))
            }
            Then::Change { .. } => {
                self.notice = Some(Notice::Info(
                    view::playground::CHANGE_CANCELLED.get(lang).into(),
                ))
            }
        }
    }

    /// Opens `scenario` as the page's run at step `seek` with `notice` (built in slices if it is
    /// long); `fallback` is what a Cancel opens instead.
    pub fn open_scenario(
        &mut self,
        scenario: Scenario,
        seek: usize,
        notice: Option<Notice>,
        fallback: Option<Scenario>,
        lang: Lang,
    ) -> Result<(), crate::sim::limits::InputError> {
        let build = SessionBuild::new(scenario)?;
        let fallback = fallback.map(Rc::new);
        self.start_build(
            build,
            Then::Open {
                seek,
                notice,
                fallback,
                lang,
            },
        );
        Ok(())
    }

    /// A scenario pasted as JSON: a new run (built in slices if it is long), or a message
    /// under the Import button. A run too large to keep in this browser says so once built.
    fn import(&mut self, json: &str, lang: Lang) {
        if let (Some(c), Ok(s)) = (&self.teach.challenge, Scenario::from_json(json.trim())) {
            if let Err(r) = c.accepts(&s) {
                self.import_notice = Some(Notice::Error(text::move_refused(lang, c, r)));
                return;
            }
        }
        match Scenario::from_json(json.trim()).and_then(SessionBuild::new) {
            Ok(build) => {
                self.start_build(build, Then::Import { lang });
            }
            Err(e) => self.import_notice = Some(Notice::Error(text::input_error(lang, &e))),
        }
    }
}

impl Action {
    /// Whether the action moves or changes the run (nothing does while a run is being built).
    fn moves_run(&self) -> bool {
        matches!(
            self,
            Action::Control(_)
                | Action::Tick
                | Action::Change(..)
                | Action::Fork(..)
                | Action::Import(..)
                | Action::Answer(_)
                | Action::Skip
                | Action::AskAgain
        )
    }
}

impl PageState {
    /// Applies `action`; `at` is the run's step before it. `None` when it changes nothing (the
    /// page keeps the state it had: no render, nothing saved), else whether the page remembers
    /// the change in this browser.
    fn apply(&mut self, action: Action, at: Option<usize>) -> Option<bool> {
        match action {
            Action::Control(c) => {
                if !self.control(c) {
                    return None;
                }
                self.drop_stale_fork_notice(at);
                Some(true)
            }
            Action::Tick => {
                self.tick();
                self.drop_stale_fork_notice(at);
                Some(true)
            }
            Action::Change(change, lang) => {
                if !self.change(change, lang) {
                    return None;
                }
                self.fork_notice = None;
                Some(true)
            }
            Action::Import(json, lang) => {
                self.import(&json, lang);
                Some(false)
            }
            Action::Answer(_) | Action::Skip | Action::AskAgain => {
                self.predict(&action).then_some(true)
            }
            Action::Fork(input, lang) => self.fork(input, lang).then_some(true),
            other => self.apply_to_page(other).then_some(false),
        }
    }

    /// Applies an action that leaves the run as it is (a tab, a page of the timeline, a message,
    /// the lesson list, a build's slice or its cancel); false when it changes nothing.
    fn apply_to_page(&mut self, action: Action) -> bool {
        match action {
            Action::Tab(i) => {
                self.tab = i;
                self.timeline_page = None;
            }
            Action::TimelinePage(first) => {
                if self.timeline_page == first {
                    return false;
                }
                self.timeline_page = first;
            }
            Action::Dismiss => self.notice = None,
            Action::BuildSlice => {
                if self.building.is_none() {
                    return false;
                }
                self.build_slice(BUILD_SLICE_EVENTS);
            }
            Action::CancelBuild(lang) => {
                if self.building.is_none() {
                    return false;
                }
                self.cancel_build(lang);
            }
            Action::ToggleToc => self.toc_open = !self.toc_open,
            Action::OpenSolution => return self.teach.open_solution(),
            Action::WordsLoaded(ok) => self.words_failed = !ok,
            Action::AnswerTransfer(i) => {
                let before = self
                    .teach
                    .prediction
                    .as_ref()
                    .and_then(|p| p.transfer_answer);
                self.teach.answer_transfer(i);
                let after = self
                    .teach
                    .prediction
                    .as_ref()
                    .and_then(|p| p.transfer_answer);
                return before != after;
            }
            // The run's own moves are `apply`'s.
            Action::Control(_)
            | Action::Tick
            | Action::Change(..)
            | Action::Import(..)
            | Action::Answer(_)
            | Action::Skip
            | Action::AskAgain
            | Action::Fork(..) => return false,
        }
        true
    }
}

impl Reducible for PageState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        // Read before the action: the session is shared with `next`, so it moves both.
        let at = self.run.as_ref().map(|r| r.session().position());
        // While a run is being built the page shows its progress, not the run: nothing moves it.
        if self.building.is_some() && action.moves_run() {
            return self;
        }
        let Some(remember) = next.apply(action, at) else {
            return self;
        };
        if remember {
            next.remembered += 1;
            next.keep_timeline_page();
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{builtin, Input, World};

    fn lesson() -> Rc<PageState> {
        let mut st = PageState::empty();
        st.set_session(Session::new(builtin("double-charge").unwrap()).unwrap());
        Rc::new(st)
    }

    fn position(st: &PageState) -> usize {
        st.run.as_ref().unwrap().session().position()
    }

    /// Walk-through of stop 42: after an answer the timeline stayed on another service than
    /// the one the answer is about (lesson 2.2 showed the naive column at the atomic's step).
    #[test]
    fn an_answer_opens_the_timeline_of_the_service_asked_about() {
        let id = "client-cannot-tell";
        let mut st = PageState::empty();
        st.teach = Teach::for_route(
            &Route::Scenario(id.into()),
            Default::default(),
            super::super::teach::Teachers::LESSONS,
        );
        st.set_session(Session::new(builtin(id).unwrap()).unwrap());
        let posed = st
            .teach
            .prediction
            .as_ref()
            .and_then(|p| p.posed.clone().ok());
        let posed = posed.expect("the question is posed at the start");
        assert_ne!(
            posed.column, 0,
            "the question is not about the first column"
        );
        // At the question, the timeline and a phone's one service are the one asked about.
        assert_eq!(st.tab, posed.column);
        let mut st = Rc::new(st).reduce(Action::Tab(0));
        assert_eq!(st.tab, 0);
        st = st.reduce(Action::Answer(0));
        assert_eq!((st.tab, position(&st)), (posed.column, posed.shows_at));
    }

    #[test]
    fn the_fork_notice_goes_once_the_run_moves_from_the_forked_step() {
        let st = lesson().reduce(Action::Control(Control::Seek(1)));
        let forked = st.reduce(Action::Fork(Input::Crash, Lang::En));
        assert!(matches!(forked.fork_notice, Some(Notice::Info(_))));
        assert_eq!(position(&forked), 1);
        // Nothing that leaves the cursor where it is drops it (the speed, a seek to here).
        let kept = forked
            .clone()
            .reduce(Action::Control(Control::Speed(100)))
            .reduce(Action::Control(Control::Seek(1)));
        assert!(kept.fork_notice.is_some());
        for moved in [Control::Step, Control::End, Control::Back, Control::Reset] {
            let st = forked.clone().reduce(Action::Control(moved));
            assert_ne!(position(&st), 1, "{moved:?}");
            assert_eq!(st.fork_notice, None, "{moved:?}");
        }
    }

    #[test]
    fn controls_move_the_session_and_what_changes_nothing_keeps_the_state() {
        let st = lesson().reduce(Action::Control(Control::End));
        let total = st.run.as_ref().unwrap().session().total();
        assert_eq!((position(&st), st.remembered), (total, 1));
        // Play at the end is refused: the same state, so no render and nothing saved.
        let same = st.clone().reduce(Action::Control(Control::TogglePlay));
        assert!(Rc::ptr_eq(&same, &st));
        let st = st.reduce(Action::Control(Control::Back));
        assert_eq!(position(&st), total - 1);
        let st = st.reduce(Action::Control(Control::Speed(1)));
        assert_eq!(st.speed_ms, 16, "clamped");
        // The timer plays the last step and stops.
        let st = st.reduce(Action::Control(Control::TogglePlay));
        assert!(st.playing);
        let st = st.reduce(Action::Tick);
        assert_eq!(
            (position(&st), st.playing, st.remembered),
            (total, false, 5)
        );
        // Tabs and messages are not remembered.
        let st = st.reduce(Action::Tab(2)).reduce(Action::Dismiss);
        assert_eq!((st.tab, st.remembered), (2, 5));
        let empty = Rc::new(PageState::empty());
        assert!(Rc::ptr_eq(
            &empty.clone().reduce(Action::Control(Control::Step)),
            &empty
        ));
    }

    /// Earlier and Later page the timeline's events; they never move the run (issue 10,
    /// defect 1: Later used to seek to the next page's first step).
    #[test]
    fn paging_the_timeline_leaves_the_run_where_it_is() {
        use super::super::timeline::WINDOW;
        let mut scenario = builtin("distinct-keys").unwrap();
        scenario.inputs = (0..6).flat_map(|_| scenario.inputs.clone()).collect();
        let mut st = PageState::empty();
        st.set_session(Session::new(scenario).unwrap());
        let events = |st: &PageState| {
            st.run
                .as_ref()
                .unwrap()
                .session()
                .finished(0)
                .unwrap()
                .trace()
                .len()
        };
        assert!(events(&st) > 2 * WINDOW, "{} events", events(&st));
        let st = Rc::new(st).reduce(Action::Control(Control::Seek(5)));
        let balances = |st: &PageState| -> Vec<i64> {
            st.run
                .as_ref()
                .unwrap()
                .session()
                .worlds()
                .iter()
                .map(World::balance)
                .collect()
        };
        let before = (position(&st), balances(&st), st.remembered);
        let st = st.reduce(Action::TimelinePage(Some(WINDOW)));
        assert_eq!(st.timeline_page, Some(WINDOW));
        assert_eq!(
            (position(&st), balances(&st), st.remembered),
            before,
            "the run did not move"
        );
        let st = st.reduce(Action::TimelinePage(Some(2 * WINDOW)));
        assert_eq!((st.timeline_page, position(&st)), (Some(2 * WINDOW), 5));
        // A click on a row of the page keeps the page; a step past it follows the run again.
        let on_page = {
            let run = st.run.as_ref().unwrap();
            let s = run.session();
            s.finished(0).unwrap().trace()[2 * WINDOW].step
        };
        let st = st.reduce(Action::Control(Control::Seek(on_page)));
        assert_eq!(
            (st.timeline_page, position(&st)),
            (Some(2 * WINDOW), on_page)
        );
        let st = st.reduce(Action::Control(Control::Reset));
        assert_eq!((st.timeline_page, position(&st)), (None, 0));
        // Back to the current step; and another tab starts around the current step.
        let st = st
            .reduce(Action::TimelinePage(Some(WINDOW)))
            .reduce(Action::TimelinePage(None));
        assert_eq!(st.timeline_page, None);
        let st = st
            .reduce(Action::TimelinePage(Some(WINDOW)))
            .reduce(Action::Tab(1));
        assert_eq!(st.timeline_page, None);
    }

    #[test]
    fn a_sandbox_change_keeps_step_and_tab_and_a_refused_one_keeps_the_run() {
        let st = lesson()
            .reduce(Action::Control(Control::Seek(3)))
            .reduce(Action::Tab(1));
        let json = st.run.as_ref().unwrap().json.clone();
        let deposit = Change::Push(Input::Deposit { amount: 5 });
        let st = st.reduce(Action::Change(deposit, Lang::En));
        let run = st.run.as_ref().unwrap();
        assert_eq!((position(&st), st.tab), (3, 1));
        assert!(run.json.contains("deposit") && !json.contains("deposit"));
        assert!(st.playing, "a new input plays itself out");
        let mut none = (*run.scenario).clone();
        none.services.clear();
        let st = st.reduce(Action::Change(Change::Replace(none), Lang::En));
        assert!(matches!(&st.notice, Some(Notice::Error(t)) if t.contains("0 services")));
        assert_eq!(st.run.as_ref().unwrap().scenario.services.len(), 3);
        assert_eq!(position(&st), 3);
    }

    #[test]
    fn an_import_replaces_the_run_or_says_why_not_under_the_button() {
        let st = lesson().reduce(Action::Import("{".into(), Lang::En));
        assert!(matches!(st.import_notice, Some(Notice::Error(_))));
        assert_eq!(st.remembered, 0, "an import is saved with its first step");
        let json = builtin("dual-write").unwrap().to_json();
        let st = st
            .reduce(Action::Tab(2))
            .reduce(Action::Import(format!(" {json}\n"), Lang::Ja));
        assert_eq!(*st.run.as_ref().unwrap().json, json);
        assert_eq!((st.tab, position(&st)), (0, 0));
        assert!(matches!(&st.import_notice, Some(Notice::Info(t)) if t.starts_with("読み込んだ")));
    }

    /// Runs the build in progress to its end, a slice per call as the page does; returns the
    /// slices it took.
    fn build_out(mut st: Rc<PageState>) -> (Rc<PageState>, u64) {
        let mut last = 0;
        let mut slices = 0;
        while let Some(b) = &st.building {
            assert!(b.progress.0 >= last && b.progress.0 <= b.progress.1);
            last = b.progress.0;
            st = st.reduce(Action::BuildSlice);
            slices += 1;
            assert!(slices < 1_000, "the build must end");
        }
        (st, slices)
    }

    #[test]
    fn a_long_import_builds_in_slices_and_nothing_moves_the_run_meanwhile() {
        let heavy = crate::sim::workload::heaviest_accepted();
        let whole = Session::new(heavy.clone()).unwrap();
        let st = lesson()
            .reduce(Action::Control(Control::Seek(2)))
            .reduce(Action::Import(heavy.to_json(), Lang::En));
        let b = st.building.as_ref().expect("too long for one slice");
        assert!(b.progress.0 > 0 && b.progress.0 < b.progress.1);
        // The lesson stays as it was while the import builds; controls wait.
        assert_eq!(position(&st), 2);
        let same = st.clone().reduce(Action::Control(Control::End));
        assert!(Rc::ptr_eq(&same, &st));
        let (st, slices) = build_out(st);
        assert!(slices > 10, "{slices} slices");
        let run = st.run.as_ref().unwrap();
        assert_eq!(*run.scenario, heavy);
        assert_eq!(run.session().total(), whole.total());
        assert_eq!(position(&st), 0);
        assert!(
            matches!(&st.import_notice, Some(Notice::Info(t)) if t == "Imported. Step through it or press Play.")
        );
        assert_eq!(st.remembered, 2, "an import is remembered once it is built");
    }

    #[test]
    fn cancel_leaves_the_run_as_it_was() {
        let heavy = crate::sim::workload::heaviest_accepted().to_json();
        let st = lesson().reduce(Action::Import(heavy, Lang::En));
        assert!(st.building.is_some());
        let st = st.reduce(Action::CancelBuild(Lang::En));
        assert!(st.building.is_none());
        assert_eq!(
            *st.run.as_ref().unwrap().scenario,
            builtin("double-charge").unwrap()
        );
        assert!(matches!(&st.import_notice, Some(Notice::Info(t)) if t.contains("cancelled")));
        let again = st.clone().reduce(Action::CancelBuild(Lang::En));
        assert!(Rc::ptr_eq(&again, &st), "nothing to cancel");
    }

    #[test]
    fn an_import_too_large_to_keep_says_so_when_it_loads() {
        use super::super::saved_run::MAX_SAVED_SCENARIO_BYTES;
        use crate::sim::limits::MAX_JSON_BYTES;
        // Requests written as briefly as the format allows: the page writes each one out in
        // full (key format, description, fault), so the scenario it would keep is larger than
        // the text imported. Before, this imported with "Imported." and was silently not kept.
        let request = r#"{"type":"request","amount":1},"#;
        let mut json = builtin("double-charge").unwrap().to_json();
        let n = (MAX_JSON_BYTES - json.len()) / request.len();
        let at = json.find(r#""inputs":["#).unwrap() + r#""inputs":["#.len();
        json.insert_str(at, &request.repeat(n));
        assert!(json.len() <= MAX_JSON_BYTES);
        let (st, _) = build_out(lesson().reduce(Action::Import(json, Lang::En)));
        let run = st.run.as_ref().expect("imported");
        assert!(run.json.len() > MAX_SAVED_SCENARIO_BYTES);
        assert!(matches!(&st.import_notice, Some(Notice::Info(t))
            if t.contains("too large to keep") && t.contains("Download JSON")));
        let route = Route::Sandbox;
        assert!(st.saved_run(&route).is_none(), "and indeed it is not kept");
    }

    #[test]
    fn a_long_saved_run_opens_as_a_build_and_cancel_opens_the_lesson() {
        let route = Route::Scenario("double-charge".into());
        let mut heavy = crate::sim::workload::heaviest_accepted();
        heavy.seed = 7;
        let saved = SavedRun {
            route: route.to_hash(),
            position: 5,
            scenario: heavy.to_json(),
        }
        .to_json();
        let st = Rc::new(PageState::open(
            &route,
            &route.to_hash(),
            Some(&saved),
            Lang::En,
        ));
        assert!(
            st.run.is_none() && st.building.is_some(),
            "the page shows at once"
        );
        let (built, _) = build_out(st.clone());
        assert_eq!(built.run.as_ref().unwrap().scenario.seed, 7);
        assert_eq!(position(&built), 5);
        let cancelled = st.reduce(Action::CancelBuild(Lang::En));
        assert_eq!(
            *cancelled.run.as_ref().unwrap().scenario,
            builtin("double-charge").unwrap()
        );
        assert!(matches!(&cancelled.notice, Some(Notice::Info(t)) if t.contains("cancelled")));
    }

    #[test]
    fn every_lesson_and_the_sandbox_open_at_once_without_a_progress_bar() {
        let routes = crate::sim::builtin_ids()
            .iter()
            .map(|id| Route::Scenario((*id).to_string()))
            .chain([Route::Sandbox]);
        for route in routes {
            let st = PageState::open(&route, &route.to_hash(), None, Lang::En);
            assert!(st.building.is_none() && st.run.is_some(), "{route:?}");
        }
    }
}
