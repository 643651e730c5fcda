//! The playground page's state and its actions. `reduce` forwards to the core's [`Session`] (step,
//! seek, a new input, a new scenario) and keeps what the page shows beside it (playing, speed,
//! messages, the timeline tab); it does no I/O. The play timer, the keyboard, the address and
//! localStorage are effects of the page (`hooks.rs`, `page.rs`) that dispatch actions or read the
//! state after them.

use std::cell::{Ref, RefCell};
use std::rc::Rc;

use yew::Reducible;

use crate::sim::{Scenario, Session};
use crate::ui::i18n::Lang;
use crate::ui::text;

use super::controls::Control;
use super::sandbox::Change;

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

    /// Takes the scenario and its JSON from the session again, after its script changed.
    fn refresh(&mut self) {
        let s = self.session.borrow();
        self.scenario = Rc::new(s.scenario().clone());
        self.json = Rc::new(s.scenario().to_json());
    }

    /// The session, to draw it.
    pub fn session(&self) -> Ref<'_, Session> {
        self.session.borrow()
    }
}

/// Everything the page changes.
#[derive(Clone)]
pub struct PageState {
    /// The run, if a scenario could be loaded.
    pub run: Option<Run>,
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
    /// Counts the changes the page remembers in this browser (the run's controls, the play timer,
    /// the sandbox); the page saves the run whenever it moves. An import is saved with its first
    /// step, and a page just opened saves nothing until the learner acts.
    pub remembered: u64,
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
    /// Close the message above the run.
    Dismiss,
}

impl PageState {
    /// A page with nothing loaded yet.
    pub fn empty() -> PageState {
        PageState {
            run: None,
            playing: false,
            speed_ms: 600,
            notice: None,
            import_notice: None,
            tab: 0,
            remembered: 0,
        }
    }

    /// Replaces the run; the timeline shows the first service.
    pub fn set_session(&mut self, session: Session) {
        self.run = Some(Run::new(session));
        self.tab = 0;
    }

    /// Applies a control. Returns false when it changes nothing.
    fn control(&mut self, c: Control) -> bool {
        let Some(run) = &self.run else { return false };
        let mut s = run.session.borrow_mut();
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
                s.step();
            }
            Control::End => {
                self.playing = false;
                let t = s.total();
                s.seek(t)
            }
            Control::Seek(k) => {
                self.playing = false;
                s.seek(k)
            }
            Control::TogglePlay => {
                if s.at_end() && !self.playing {
                    return false;
                }
                self.playing = !self.playing
            }
            Control::Speed(ms) => self.speed_ms = ms.clamp(16, 5_000),
        }
        true
    }

    /// One step of play; playing stops at the end.
    fn tick(&mut self) {
        if let Some(run) = &self.run {
            let mut s = run.session.borrow_mut();
            if !s.step() || s.at_end() {
                self.playing = false;
            }
        }
    }

    /// A new input or scenario from the sandbox, keeping the step and the tab. Returns false when
    /// there is no run to change.
    fn change(&mut self, change: Change, lang: Lang) -> bool {
        let Some(run) = &mut self.run else {
            return false;
        };
        let pushed = matches!(change, Change::Push(_));
        let result = match change {
            Change::Push(input) => run.session.borrow_mut().push_input(input),
            Change::Replace(scenario) => Session::new(scenario).map(|mut fresh| {
                fresh.seek(run.session.borrow().position());
                run.session = Rc::new(RefCell::new(fresh));
            }),
        };
        match result {
            Ok(()) => {
                run.refresh();
                self.notice = None;
                // A new request plays itself out; a settings change keeps the cursor still.
                self.playing = pushed && !run.session.borrow().at_end();
            }
            Err(e) => self.notice = Some(Notice::Error(text::input_error(lang, &e))),
        }
        true
    }

    /// A scenario pasted as JSON: a new run, or a message under the Import button.
    fn import(&mut self, json: &str, lang: Lang) {
        match Scenario::from_json(json.trim()).and_then(Session::new) {
            Ok(s) => {
                self.playing = false;
                self.set_session(s);
                self.notice = None;
                self.import_notice = Some(Notice::Info(
                    lang.t(
                        "Imported. Step through it or press Play.",
                        "読み込んだ。ステップで進めるか再生してください。",
                    )
                    .into(),
                ));
            }
            Err(e) => self.import_notice = Some(Notice::Error(text::input_error(lang, &e))),
        }
    }
}

impl Reducible for PageState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        let remember = match action {
            Action::Control(c) => {
                if !next.control(c) {
                    return self;
                }
                true
            }
            Action::Tick => {
                next.tick();
                true
            }
            Action::Change(change, lang) => {
                if !next.change(change, lang) {
                    return self;
                }
                true
            }
            Action::Import(json, lang) => {
                next.import(&json, lang);
                false
            }
            Action::Tab(i) => {
                next.tab = i;
                false
            }
            Action::Dismiss => {
                next.notice = None;
                false
            }
        };
        if remember {
            next.remembered += 1;
        }
        Rc::new(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{builtin, Input};

    fn lesson() -> Rc<PageState> {
        let mut st = PageState::empty();
        st.set_session(Session::new(builtin("double-charge").unwrap()).unwrap());
        Rc::new(st)
    }

    fn position(st: &PageState) -> usize {
        st.run.as_ref().unwrap().session().position()
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
}
