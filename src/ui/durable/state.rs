//! The page's state, one reducer: the core's `DurableRun` at its cursor, which column the code
//! follows, playing, the lesson's question and the learner's answer (which holds the run at the
//! question's step), the challenge, and the messages. `reduce` forwards to the core and does no
//! I/O; `page.rs` loads and saves.

use std::rc::Rc;

use yew::Reducible;

use crate::sim::durable::{
    challenge, lesson, transfer, Action, ActionError, ClockMode, Config, ConflictPolicy,
    DurableRun, Engine, FaultKind, FlowKind, KeyMode, RequestId, RestateTarget, ReusePolicy,
    SavedState, StepName, Varied, MAX_START_TO_CLOSE_MS, MIN_START_TO_CLOSE_MS,
};
use crate::sim::lesson::{NotPosed, Posed};
use crate::sim::limits::{InputError, MAX_DURABLE_COLUMNS};
use crate::ui::route::Route;
use crate::ui::run::{Control, DEFAULT_SPEED_MS};

/// What the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A lesson, by id.
    Lesson(&'static str),
    /// A challenge, by id.
    Challenge(&'static str),
    /// The free run.
    Free,
}

impl Mode {
    /// The mode of a route this page draws.
    pub fn of(route: &Route) -> Mode {
        match route {
            Route::Scenario(id) => crate::sim::durable::LESSON_IDS
                .into_iter()
                .find(|l| l == id)
                .map_or(Mode::Free, Mode::Lesson),
            Route::DurableChallenge(id) => crate::sim::durable::CHALLENGE_IDS
                .into_iter()
                .find(|c| c == id)
                .map_or(Mode::Free, Mode::Challenge),
            _ => Mode::Free,
        }
    }

    /// The route of this mode.
    pub fn route(self) -> Route {
        match self {
            Mode::Lesson(id) => Route::Scenario(id.into()),
            Mode::Challenge(id) => Route::DurableChallenge(id.into()),
            Mode::Free => Route::Durable,
        }
    }

    /// The columns this mode starts with.
    pub fn columns(self) -> Vec<Config> {
        match self {
            Mode::Lesson(id) => lesson(id).map(|l| l.columns),
            Mode::Challenge(id) => challenge(id).map(|c| vec![c.config]),
            Mode::Free => None,
        }
        .unwrap_or_else(|| vec![Config::default()])
    }
}

/// A message above the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A link could not be read; the page shows the mode without it.
    BadLink(InputError),
    /// The state saved in this browser could not be read.
    BadSaved(InputError),
    /// An import was refused.
    BadImport(InputError),
    /// An import was read.
    Imported,
    /// An action was refused.
    Action(ActionError),
    /// The challenge's rules refuse the action (the number of crashes).
    NoMoreCrashes(usize),
    /// The address names a challenge this page does not have; the free run is shown.
    UnknownChallenge,
    /// These columns (1-based) pair policies the engine refuses on every start (Temporal's
    /// RejectDuplicate with TerminateExisting): their runs start nothing, and the page says so
    /// rather than running silently.
    RefusedPolicies(Vec<usize>),
    /// The run was saved by an earlier version of the page whose Temporal ran a lost activity
    /// again otherwise (`durable::differs_from_version_1`): it opens as it runs now, and may
    /// differ from what was shared.
    OlderModel,
}

/// The columns (1-based) whose policies the engine refuses on every start, as a notice.
pub fn refused_policies(columns: &[Config]) -> Option<Notice> {
    let refused: Vec<usize> = columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.policy_error().is_some())
        .map(|(i, _)| i + 1)
        .collect();
    (!refused.is_empty()).then_some(Notice::RefusedPolicies(refused))
}

/// A setting of the column the controls edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// The workflow.
    Flow(FlowKind),
    /// The engine.
    Engine(Engine),
    /// The key.
    Key(KeyMode),
    /// The clock.
    Clock(ClockMode),
    /// Temporal's reuse policy.
    Reuse(ReusePolicy),
    /// Temporal's conflict policy.
    Conflict(ConflictPolicy),
    /// How the client starts the workflow id under Restate.
    Restate(RestateTarget),
    /// Temporal's Start-To-Close timeout (ms).
    StartToClose(u64),
    /// The request id of Temporal's later starts.
    RequestId(RequestId),
    /// A fault on a step, or none.
    Fault(StepName, Option<FaultKind>),
    /// When the client starts again.
    StartAgain(Option<u64>),
    /// Whether a crashed worker is replaced by itself.
    AutoRestart(bool),
}

/// The page's actions.
#[derive(Clone, Debug, PartialEq)]
pub enum DurAction {
    /// One step forward (not past the question).
    Step,
    /// One step back, by replay.
    Back,
    /// To step k.
    Seek(usize),
    /// To the end (or the question).
    RunToEnd,
    /// Play or pause.
    TogglePlay,
    /// The play speed (ms between steps).
    Speed(u32),
    /// The play timer's tick.
    Tick,
    /// The learner acts.
    Act(Action),
    /// An answer to the question.
    Answer(usize),
    /// Skip the question.
    Skip,
    /// Ask the question again (from step 0).
    AskAgain,
    /// Which column the code and the timeline follow.
    Select(usize),
    /// Change a setting of the selected column (the run restarts at step 0).
    Set(Setting),
    /// Back to the mode's own columns, no actions, step 0, the answers dropped ("Start over",
    /// and a lesson's "Reset this lesson").
    Reset,
    /// An answer to the lesson's variation question (once).
    AnswerTransfer(usize),
    /// The variation's columns on the page, no actions, step 0, the answers kept.
    RunVariation,
    /// A state read from a link, the saved one or an import (`older`: written by an earlier
    /// version of the page, and its run may differ now).
    Load {
        /// The state.
        state: SavedState,
        /// Whether to say that its run may differ.
        older: bool,
    },
    /// An import's refusal, or another message.
    Notice(Notice),
}

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct DurUi {
    /// What the page shows.
    pub mode: Mode,
    /// The run.
    pub run: Rc<DurableRun>,
    /// The column the code, the timeline and the settings follow.
    pub selected: usize,
    /// Playing.
    pub playing: bool,
    /// The play speed: ms between steps.
    pub speed_ms: u32,
    /// The lesson's question against the run.
    pub posed: Option<Result<Posed<crate::sim::durable::Answer>, NotPosed>>,
    /// For each choice, the belief whose model gives it (`None` for the right one).
    pub beliefs: Vec<Option<crate::sim::durable::Belief>>,
    /// The learner's answer: `Some(None)` skipped.
    pub answer: Option<Option<usize>>,
    /// The lesson's variation question, if it has one: the varied columns, the question posed
    /// on their run, the belief behind each choice.
    pub transfer: Option<Rc<Varied>>,
    /// The learner's answer to it (the index of the choice picked).
    pub transfer_answer: Option<usize>,
    /// The message shown.
    pub notice: Option<Notice>,
    /// Bumped on every change worth saving.
    pub version: u64,
}

impl DurUi {
    /// The page in `mode` with `run`. A run opened from a link or this browser's storage whose
    /// policies the engine refuses says so, unless another message is shown.
    pub fn new(mode: Mode, run: DurableRun, notice: Option<Notice>) -> DurUi {
        let notice = notice.or_else(|| refused_policies(run.columns()));
        let mut ui = DurUi {
            mode,
            run: Rc::new(run),
            selected: 0,
            playing: false,
            speed_ms: DEFAULT_SPEED_MS,
            posed: None,
            beliefs: Vec::new(),
            answer: None,
            transfer: match mode {
                Mode::Lesson(id) => transfer(id).and_then(|t| t.pose().ok()).map(Rc::new),
                _ => None,
            },
            transfer_answer: None,
            notice,
            version: 0,
        };
        ui.pose();
        ui
    }

    /// The answers saved with this run (a reload): each kept where it names one of the choices.
    pub fn restore(&mut self, answer: Option<Option<usize>>, transfer_answer: Option<usize>) {
        self.answer = match (&self.posed, answer) {
            (Some(Ok(p)), Some(Some(i))) if i < p.choices.len() => answer,
            (Some(Ok(_)), Some(None)) => answer,
            _ => None,
        };
        let n = self.transfer.as_ref().map_or(0, |t| t.1.choices.len());
        self.transfer_answer = transfer_answer.filter(|i| *i < n);
    }

    /// The variation's columns on the page from step 0, the column it asks about followed; the
    /// answers are kept (the variation question's verdict stays beside its run).
    fn run_variation(&mut self) {
        let Some(t) = self.transfer.clone() else {
            return;
        };
        self.playing = false;
        self.run = Rc::new(DurableRun::new(t.0.clone(), Vec::new()));
        self.selected = t.1.column.min(t.0.len().saturating_sub(1));
        self.notice = refused_policies(self.run.columns());
        self.pose();
    }

    /// The page at the start of `mode`.
    pub fn fresh(mode: Mode) -> DurUi {
        DurUi::new(mode, DurableRun::new(mode.columns(), Vec::new()), None)
    }

    fn pose(&mut self) {
        let posed = match self.mode {
            Mode::Lesson(id) => lesson(id).map(|l| l.question.pose_with_beliefs(&self.run)),
            _ => None,
        };
        self.beliefs = match &posed {
            Some(Ok((_, b))) => b.clone(),
            _ => Vec::new(),
        };
        self.posed = posed.map(|p| p.map(|(p, _)| p));
    }

    /// The step the run waits at for the answer, if it waits.
    pub fn limit(&self) -> Option<usize> {
        match (&self.posed, self.answer) {
            (Some(Ok(p)), None) => Some(p.ask_at),
            _ => None,
        }
    }

    /// The state to save or share.
    pub fn saved(&self) -> SavedState {
        SavedState {
            columns: self.run.columns().to_vec(),
            actions: self.run.actions().to_vec(),
            cursor: self.run.cursor(),
        }
    }

    /// Whether the challenge is won at the cursor.
    pub fn won(&self) -> bool {
        match self.mode {
            Mode::Challenge(id) => challenge(id).is_some_and(|c| c.won(&self.run)),
            _ => false,
        }
    }

    /// The learner answers with choice `i` (once); as on every page, the run moves on to the
    /// step that shows the answer, in the column the question is about.
    fn answer_with(&mut self, i: usize) {
        let posed = match &self.posed {
            Some(Ok(p)) if i < p.choices.len() && self.answer.is_none() => Some(p),
            _ => None,
        };
        if let Some((column, shows)) = posed.map(|p| (p.column, p.shows_at)) {
            self.answer = Some(Some(i));
            self.selected = column;
            self.run_mut().seek(shows);
        }
    }

    fn run_mut(&mut self) -> &mut DurableRun {
        Rc::make_mut(&mut self.run)
    }

    fn step(&mut self) -> bool {
        if self.limit() == Some(self.run.cursor()) {
            return false;
        }
        self.run_mut().step()
    }

    /// The learner's action, unless the run waits at the question or the challenge's rules
    /// refuse it.
    fn act(&mut self, action: Action) {
        self.playing = false;
        if self.limit() == Some(self.run.cursor()) {
            return;
        }
        let rule = match self.mode {
            Mode::Challenge(id) => challenge(id),
            _ => None,
        };
        match rule {
            Some(c) if action == Action::Crash && c.crashes_used(&self.run) >= c.max_crashes => {
                self.notice = Some(Notice::NoMoreCrashes(c.max_crashes));
            }
            Some(c) if !c.allowed.contains(&action) => {
                self.notice = Some(Notice::Action(ActionError::NotApplicable));
            }
            _ => match self.run_mut().act(action) {
                Ok(()) => {
                    self.notice = None;
                    self.pose();
                }
                Err(e) => self.notice = Some(Notice::Action(e)),
            },
        }
    }

    /// A setting of the selected column: the run starts again at step 0, keeping the actions.
    fn set(&mut self, setting: Setting) {
        self.playing = false;
        let mut columns = self.run.columns().to_vec();
        if let Some(c) = columns.get_mut(self.selected) {
            apply(c, setting);
        }
        // A pair of policies the engine refuses is said at once; the message goes when the pair
        // does.
        match refused_policies(&columns) {
            Some(n) => self.notice = Some(n),
            None if matches!(self.notice, Some(Notice::RefusedPolicies(_))) => self.notice = None,
            None => {}
        }
        let run = self.run.with_columns(columns);
        self.run = Rc::new(run);
        // Another run: its question is asked anew (its answer may differ).
        self.answer = None;
        self.pose();
    }

    /// A state read from a link, the saved one or an import, and the message that says so.
    fn load(&mut self, state: SavedState, older: bool) {
        let mut columns = state.columns;
        columns.truncate(MAX_DURABLE_COLUMNS);
        let mut run = DurableRun::new(columns, state.actions);
        run.seek(state.cursor);
        self.run = Rc::new(run);
        self.selected = 0;
        self.answer = None;
        self.pose();
        self.notice = refused_policies(self.run.columns())
            .or(older.then_some(Notice::OlderModel))
            .or(Some(Notice::Imported));
    }
}

/// Changes one setting of a column.
fn apply(c: &mut Config, setting: Setting) {
    match setting {
        Setting::Flow(f) => {
            c.flow = f;
            c.faults.retain(|x| f.steps().contains(&x.step));
        }
        Setting::Engine(e) => c.engine = e,
        Setting::Key(k) => c.key = k,
        Setting::Clock(k) => c.clock = k,
        Setting::Reuse(p) => c.reuse = p,
        Setting::Conflict(p) => c.conflict = p,
        Setting::Restate(t) => c.restate = t,
        Setting::StartToClose(ms) => {
            c.start_to_close_ms = ms.clamp(MIN_START_TO_CLOSE_MS, MAX_START_TO_CLOSE_MS);
        }
        Setting::RequestId(r) => c.request_id = r,
        Setting::Fault(step, kind) => *c = c.clone().with_fault(step, kind),
        Setting::StartAgain(at) => c.start_again_at_ms = at,
        Setting::AutoRestart(b) => c.auto_restart = b,
    }
}

impl From<Control> for DurAction {
    /// The shared run controls (`ui/run`), as this page's actions.
    fn from(c: Control) -> DurAction {
        match c {
            Control::Reset => DurAction::Seek(0),
            Control::Back => DurAction::Back,
            Control::TogglePlay => DurAction::TogglePlay,
            Control::Step => DurAction::Step,
            Control::End => DurAction::RunToEnd,
            Control::Seek(k) => DurAction::Seek(k),
            Control::Speed(ms) => DurAction::Speed(ms),
        }
    }
}

impl Reducible for DurUi {
    type Action = DurAction;

    fn reduce(self: Rc<Self>, action: DurAction) -> Rc<Self> {
        let mut ui = (*self).clone();
        let before = (ui.run.cursor(), ui.run.actions().len());
        match action {
            DurAction::Step => {
                ui.playing = false;
                ui.step();
            }
            DurAction::Back => {
                ui.playing = false;
                ui.run_mut().back();
            }
            DurAction::Seek(k) => {
                ui.playing = false;
                let k = ui.limit().map_or(k, |lim| k.min(lim));
                ui.run_mut().seek(k);
            }
            DurAction::RunToEnd => {
                ui.playing = false;
                let k = ui.limit().unwrap_or(ui.run.end());
                ui.run_mut().seek(k);
            }
            DurAction::TogglePlay => ui.playing = !ui.playing && !ui.run.at_end(),
            DurAction::Speed(ms) => ui.speed_ms = ms,
            DurAction::Tick => {
                if ui.playing && !ui.step() {
                    ui.playing = false;
                }
            }
            DurAction::Act(action) => ui.act(action),
            DurAction::Answer(i) => ui.answer_with(i),
            DurAction::Skip => ui.answer = Some(None),
            DurAction::AskAgain => {
                ui.answer = None;
                ui.run_mut().seek(0);
                ui.pose();
            }
            DurAction::Select(i) => {
                if i < ui.run.columns().len() {
                    ui.selected = i;
                }
            }
            DurAction::Set(setting) => ui.set(setting),
            DurAction::Reset => {
                let mode = ui.mode;
                ui = DurUi::fresh(mode);
                ui.version = self.version + 1;
                return Rc::new(ui);
            }
            DurAction::AnswerTransfer(i) => {
                let n = ui.transfer.as_ref().map_or(0, |t| t.1.choices.len());
                if i < n && ui.transfer_answer.is_none() {
                    ui.transfer_answer = Some(i);
                }
            }
            DurAction::RunVariation => ui.run_variation(),
            DurAction::Load { state, older } => ui.load(state, older),
            DurAction::Notice(n) => ui.notice = Some(n),
        }
        // A move, another run or an answer: worth saving (the answers are kept with the run).
        if (ui.run.cursor(), ui.run.actions().len()) != before
            || ui.run.columns() != self.run.columns()
            || (ui.answer, ui.transfer_answer) != (self.answer, self.transfer_answer)
        {
            ui.version = self.version + 1;
        }
        Rc::new(ui)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run whose Temporal column pairs RejectDuplicate with TerminateExisting opens with a
    /// message naming the column (a link, this browser's storage, an import), and a setting that
    /// makes or unmakes the pair shows or drops it.
    #[test]
    fn a_refused_pair_of_policies_is_said_when_opened_imported_or_set() {
        let bad = Config {
            reuse: ReusePolicy::RejectDuplicate,
            conflict: ConflictPolicy::TerminateExisting,
            ..Config::default()
        };
        let columns = vec![Config::default(), bad.clone()];
        let ui = DurUi::new(
            Mode::Free,
            DurableRun::new(columns.clone(), Vec::new()),
            None,
        );
        assert_eq!(ui.notice, Some(Notice::RefusedPolicies(vec![2])));
        // The engine refuses the start: nothing runs there.
        let mut run = DurableRun::new(columns.clone(), Vec::new());
        run.run_to_end();
        assert!(run.worlds()[1].runs().is_empty());
        // An import says it too, instead of "Run loaded".
        let ui = Rc::new(DurUi::fresh(Mode::Free)).reduce(DurAction::Load {
            state: SavedState {
                columns,
                actions: Vec::new(),
                cursor: 0,
            },
            older: false,
        });
        assert_eq!(ui.notice, Some(Notice::RefusedPolicies(vec![2])));
        // Another engine does not read these policies.
        let restate = Config {
            engine: Engine::Restate,
            ..bad
        };
        assert_eq!(refused_policies(&[restate]), None);
        // Setting the pair by hand says so; unsetting it drops the message.
        let ui = Rc::new(DurUi::fresh(Mode::Free)).reduce(DurAction::Set(Setting::Conflict(
            ConflictPolicy::TerminateExisting,
        )));
        assert_eq!(ui.notice, None);
        let ui = ui.reduce(DurAction::Set(Setting::Reuse(ReusePolicy::RejectDuplicate)));
        assert_eq!(ui.notice, Some(Notice::RefusedPolicies(vec![1])));
        let ui = ui.reduce(DurAction::Set(Setting::Conflict(ConflictPolicy::Fail)));
        assert_eq!(ui.notice, None);
    }

    /// "Reset this lesson" (the lesson card's button, as "Start over"): after a changed setting,
    /// a crash by hand, a move and both answers, the lesson as built at step 0, no actions, its
    /// questions open, and a change to save (the reload then opens it so).
    #[test]
    fn reset_this_lesson_restores_the_lesson_as_built_and_drops_the_answers() {
        let mode = Mode::Lesson("durable-charge-key");
        let start = Rc::new(DurUi::fresh(mode));
        let ui = start
            .clone()
            .reduce(DurAction::Set(Setting::Key(KeyMode::Random)))
            .reduce(DurAction::Step)
            .reduce(DurAction::Act(Action::Crash))
            .reduce(DurAction::Answer(0))
            .reduce(DurAction::AnswerTransfer(1))
            .reduce(DurAction::RunToEnd);
        assert_ne!(ui.run.columns(), mode.columns().as_slice());
        assert!(!ui.run.actions().is_empty() && ui.run.cursor() > 0);
        assert_eq!((ui.answer, ui.transfer_answer), (Some(Some(0)), Some(1)));
        let version = ui.version;
        let ui = ui.reduce(DurAction::Reset);
        assert_eq!(ui.run.columns(), mode.columns().as_slice());
        assert!(ui.run.actions().is_empty());
        assert_eq!(ui.run.cursor(), 0);
        assert_eq!((ui.answer, ui.transfer_answer), (None, None));
        assert_eq!(ui.posed, start.posed, "its question asked again");
        assert!(
            ui.version > version,
            "saved, so a reload opens the lesson as built"
        );
        assert_eq!(ui.saved(), start.saved());
    }

    /// The variation question: open once the lesson's is answered, answered once (a second
    /// answer or a choice it does not have changes nothing), its run loaded from step 0 with the
    /// answers kept; the answers saved with a run come back where they name a choice.
    #[test]
    fn the_variation_is_answered_once_its_run_loads_and_the_answers_come_back() {
        let mode = Mode::Lesson("durable-resume");
        let ui = Rc::new(DurUi::fresh(mode));
        let t = ui.transfer.clone().expect("durable-resume has a variation");
        assert!(t.1.choices.len() >= 3);
        assert!(DurUi::fresh(Mode::Lesson("durable-clock"))
            .transfer
            .is_none());
        let ui = ui.reduce(DurAction::Answer(1));
        let v = ui.version;
        let ui = ui.reduce(DurAction::AnswerTransfer(9));
        assert_eq!(ui.transfer_answer, None);
        let ui = ui.reduce(DurAction::AnswerTransfer(0));
        assert_eq!(ui.transfer_answer, Some(0));
        assert!(ui.version > v, "an answer is saved");
        let ui = ui.reduce(DurAction::AnswerTransfer(2));
        assert_eq!(ui.transfer_answer, Some(0), "answered once");
        let ui = ui
            .reduce(DurAction::RunToEnd)
            .reduce(DurAction::RunVariation);
        assert_eq!(ui.run.columns(), t.0.as_slice());
        assert_eq!((ui.run.cursor(), ui.selected), (0, t.1.column));
        assert_eq!((ui.answer, ui.transfer_answer), (Some(Some(1)), Some(0)));
        // A reload: the saved answers, each where it names a choice.
        let mut back = DurUi::new(mode, DurableRun::new(mode.columns(), Vec::new()), None);
        back.restore(Some(Some(1)), Some(2));
        assert_eq!(
            (back.answer, back.transfer_answer),
            (Some(Some(1)), Some(2))
        );
        back.restore(Some(Some(7)), Some(7));
        assert_eq!((back.answer, back.transfer_answer), (None, None));
        back.restore(Some(None), None);
        assert_eq!(back.answer, Some(None));
        let mut free = DurUi::fresh(Mode::Free);
        free.restore(Some(Some(0)), Some(0));
        assert_eq!((free.answer, free.transfer_answer), (None, None));
    }
}
