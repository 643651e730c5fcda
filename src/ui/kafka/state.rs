//! The page's state and its reducer: the scenario, its whole run (for the questions and the
//! step count), the run at the cursor (rebuilt by replay to go back), the lesson's question and
//! the learner's answer, playing, and the message above the run. `reduce` does no I/O.

use std::rc::Rc;

use yew::Reducible;

use crate::sim::kafka::{
    challenge, lesson, transfer, ChallengeGoal, Config, Halt, Input, KafkaJsonError, KafkaLimit,
    KafkaScenario, Sim, StepRecord, TimedInput, Varied, CHALLENGE_IDS, LESSON_IDS,
};
use crate::sim::kernel::Cursor;
use crate::sim::lesson::Posed;
use crate::ui::route::Route;
use crate::ui::run::{Control, DEFAULT_SPEED_MS};

use super::persist::LinkError;

/// Which part of the page is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A lesson by id.
    Lesson(&'static str),
    /// A challenge by id.
    Challenge(&'static str),
    /// The sandbox.
    Sandbox,
}

impl Place {
    /// The place a route opens (an unknown challenge id opens the sandbox).
    pub fn of(route: &Route) -> Place {
        match route {
            Route::Scenario(id) => LESSON_IDS
                .into_iter()
                .find(|l| *l == id)
                .map_or(Place::Sandbox, Place::Lesson),
            Route::KafkaChallenge(id) => CHALLENGE_IDS
                .into_iter()
                .find(|c| *c == id)
                .map_or(Place::Sandbox, Place::Challenge),
            _ => Place::Sandbox,
        }
    }

    /// Its route.
    pub fn route(self) -> Route {
        match self {
            Place::Lesson(id) => Route::Scenario(id.into()),
            Place::Challenge(id) => Route::KafkaChallenge(id.into()),
            Place::Sandbox => Route::Kafka,
        }
    }

    /// The scenario it starts with.
    pub fn builtin(self) -> KafkaScenario {
        match self {
            Place::Lesson(id) => lesson(id).map(|l| l.scenario),
            Place::Challenge(id) => challenge(id).map(|c| c.scenario),
            Place::Sandbox => None,
        }
        .unwrap_or_else(KafkaScenario::empty)
    }

    /// The challenge's goal, on a challenge.
    pub fn goal(self) -> Option<ChallengeGoal> {
        match self {
            Place::Challenge(id) => challenge(id).map(|c| c.goal),
            _ => None,
        }
    }
}

/// The learner's answer to the lesson's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Not answered: the run waits at the question.
    Open,
    /// Picked choice i.
    Picked(usize),
    /// Skipped.
    Skipped,
}

/// The message above the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The link could not be read; the built-in run is shown.
    BadLink(LinkError),
    /// The saved run could not be read; the built-in run is shown.
    BadSaved(LinkError),
    /// Imported.
    Imported,
    /// Not imported.
    ImportFailed(KafkaJsonError),
    /// A control would break a limit; nothing changed.
    Limit(KafkaLimit),
    /// The run reached the step limit (why, as the core found it).
    StepLimit(Halt),
    /// The address names a challenge this page does not have; the sandbox is shown.
    UnknownChallenge,
    /// The run was written by an earlier version of the page, whose model differed from Kafka's:
    /// the same settings and inputs run as Kafka runs them now.
    OlderModel,
}

/// The page's state.
#[derive(Clone, Debug)]
pub struct KafkaUi {
    /// Where.
    pub place: Place,
    /// The scenario.
    pub scenario: KafkaScenario,
    /// Every step of the whole run.
    pub records: Rc<Vec<StepRecord>>,
    /// The whole run at its end.
    pub end: Rc<Sim>,
    /// The run at the cursor.
    run: Cursor<Sim>,
    /// Playing.
    pub playing: bool,
    /// The lesson's question against this run.
    pub posed: Option<Posed<crate::sim::kafka::Choice>>,
    /// For each choice, the belief that gives it (`None` for the right one).
    pub beliefs: Vec<Option<crate::sim::kafka::Belief>>,
    /// The learner's answer.
    pub answer: Answer,
    /// The lesson's variation question, if it has one: the varied scenario, the question posed
    /// on its run, the belief behind each choice.
    pub transfer: Option<Rc<Varied>>,
    /// The learner's answer to it (the index of the choice picked).
    pub transfer_answer: Option<usize>,
    /// The message above the run.
    pub notice: Option<Notice>,
    /// The delay the "Delay next request" button adds, in ms.
    pub delay_ms: u32,
    /// The play speed: ms between steps.
    pub speed_ms: u32,
    /// The challenge's solution was opened.
    pub solution_shown: bool,
    /// The learner's own run, kept when the solution replaced it (to go back to).
    pub before_solution: Option<Rc<KafkaScenario>>,
}

/// What the learner does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// One step forward.
    Step,
    /// One step back (a replay).
    Back,
    /// Play / pause.
    TogglePlay,
    /// The play loop's tick.
    Tick,
    /// To the end (or to the question).
    RunToEnd,
    /// To step 0.
    Reset,
    /// To step k.
    Goto(usize),
    /// An input at the cursor.
    Add(Input),
    /// New settings.
    Configure(Config),
    /// Picks choice i.
    Answer(usize),
    /// Skips the question.
    Skip,
    /// Asks again.
    AskAgain,
    /// Imports JSON.
    Import(String),
    /// Opens the challenge's solution (the learner's run is kept).
    ShowSolution,
    /// Goes back to the run the solution replaced.
    RestoreMine,
    /// The delay for the delay button.
    SetDelay(u32),
    /// The play speed (ms between steps).
    Speed(u32),
    /// Hides the notice.
    Dismiss,
    /// The lesson as built, at step 0, its questions open (the learner's changes and answers
    /// dropped).
    ResetLesson,
    /// Picks choice i of the variation question (once).
    AnswerTransfer(usize),
    /// The variation's scenario on the page, at step 0, the answers kept.
    RunVariation,
}

impl From<Control> for Action {
    /// The shared run controls (`ui/run`), as this page's actions.
    fn from(c: Control) -> Action {
        match c {
            Control::Reset => Action::Reset,
            Control::Back => Action::Back,
            Control::TogglePlay => Action::TogglePlay,
            Control::Step => Action::Step,
            Control::End => Action::RunToEnd,
            Control::Seek(k) => Action::Goto(k),
            Control::Speed(ms) => Action::Speed(ms),
        }
    }
}

impl KafkaUi {
    /// The page at `place` with `scenario` at `step` (clamped), and a notice.
    pub fn open(
        place: Place,
        scenario: KafkaScenario,
        step: usize,
        notice: Option<Notice>,
    ) -> Self {
        let (records, end) = Sim::run_all(&scenario);
        let (posed, beliefs) = match place {
            Place::Lesson(id) => lesson(id)
                .and_then(|l| l.question.pose_with_beliefs(&records, &end).ok())
                .map_or((None, Vec::new()), |(p, b)| (Some(p), b)),
            _ => (None, Vec::new()),
        };
        let notice = notice.or_else(|| end.halt().map(Notice::StepLimit));
        let mut ui = KafkaUi {
            place,
            run: Cursor::new(Sim::new(&scenario)),
            scenario,
            records: Rc::new(records),
            end: Rc::new(end),
            playing: false,
            posed,
            beliefs,
            answer: Answer::Open,
            transfer: match place {
                Place::Lesson(id) => transfer(id).and_then(|t| t.pose().ok()).map(Rc::new),
                _ => None,
            },
            transfer_answer: None,
            notice,
            delay_ms: 100,
            speed_ms: DEFAULT_SPEED_MS,
            solution_shown: false,
            before_solution: None,
        };
        let k = step.min(ui.max_step());
        ui.run.seek(k);
        ui
    }

    /// The page at `place` with `scenario` and the answers saved with it (a reload), at `step`:
    /// each answer kept where it names one of the choices.
    pub fn reopen(
        place: Place,
        scenario: KafkaScenario,
        step: usize,
        notice: Option<Notice>,
        (answer, transfer): (Option<Option<usize>>, Option<usize>),
    ) -> Self {
        let mut ui = KafkaUi::open(place, scenario, 0, notice);
        let n = ui.posed.as_ref().map_or(0, |p| p.choices.len());
        ui.answer = match answer {
            Some(Some(i)) if i < n => Answer::Picked(i),
            Some(None) if n > 0 => Answer::Skipped,
            _ => Answer::Open,
        };
        let n = ui.transfer.as_ref().map_or(0, |t| t.1.choices.len());
        ui.transfer_answer = transfer.filter(|i| *i < n);
        ui.goto(step);
        ui
    }

    /// The answers as the page saves them: the lesson's (`None` open, `Some(None)` skipped)
    /// and the variation question's.
    pub fn answers(&self) -> (Option<Option<usize>>, Option<usize>) {
        let answer = match self.answer {
            Answer::Open => None,
            Answer::Picked(i) => Some(Some(i)),
            Answer::Skipped => Some(None),
        };
        (answer, self.transfer_answer)
    }

    /// The run at the cursor.
    pub fn sim(&self) -> &Sim {
        self.run.at()
    }

    /// The step the cursor is at (steps taken).
    pub fn cursor(&self) -> usize {
        self.run.position()
    }

    /// The furthest the cursor may go now: the question's step while it is open.
    pub fn max_step(&self) -> usize {
        match (&self.posed, self.answer) {
            (Some(p), Answer::Open) => p.ask_at.min(self.records.len()),
            _ => self.records.len(),
        }
    }

    /// Whether the run waits at the open question.
    pub fn at_question(&self) -> bool {
        matches!((&self.posed, self.answer), (Some(p), Answer::Open) if self.cursor() >= p.ask_at)
    }

    /// Whether the cursor is at the run's last step, and the run has one.
    pub fn at_end(&self) -> bool {
        !self.records.is_empty() && self.cursor() >= self.records.len()
    }

    /// Whether the challenge is won at the cursor.
    pub fn won(&self) -> bool {
        self.place.goal().is_some_and(|g| g.won(self.sim()))
    }

    fn goto(&mut self, k: usize) {
        let k = k.min(self.max_step());
        self.run.seek(k);
    }

    /// The same place with another scenario, the cursor kept where it can be.
    fn rebuild(&mut self, scenario: KafkaScenario, keep_answer: bool) {
        if let Err(e) = scenario.check() {
            self.notice = Some(Notice::Limit(e));
            return;
        }
        let k = self.cursor();
        let answer = self.answer;
        let mut next = KafkaUi::open(self.place, scenario, 0, None);
        if keep_answer {
            next.answer = answer;
        }
        next.transfer_answer = self.transfer_answer;
        next.delay_ms = self.delay_ms;
        next.speed_ms = self.speed_ms;
        next.solution_shown = self.solution_shown;
        next.before_solution = self.before_solution.clone();
        next.goto(k);
        *self = next;
    }

    /// Becomes `next`, keeping the delay and the play speed the learner chose.
    fn replace(&mut self, mut next: KafkaUi) {
        next.delay_ms = self.delay_ms;
        next.speed_ms = self.speed_ms;
        *self = next;
    }

    /// The imported run at step 0, or why it was not imported.
    fn import(&mut self, text: &str) {
        match crate::sim::kafka::from_json(text) {
            Ok(s) => self.replace(KafkaUi::open(self.place, s, 0, Some(Notice::Imported))),
            Err(e) => self.notice = Some(Notice::ImportFailed(e)),
        }
    }

    /// The learner answers with choice `i` (once); as on every page, the run moves on to the
    /// step that shows the answer.
    fn answer_with(&mut self, i: usize) {
        let valid = self.posed.as_ref().filter(|p| i < p.choices.len());
        if let (Some(shows), Answer::Open) = (valid.map(|p| p.shows_at), self.answer) {
            self.answer = Answer::Picked(i);
            self.goto(shows);
        }
    }

    /// The challenge's solution at step 0, the learner's run kept to go back to.
    fn show_solution(&mut self) {
        if let Place::Challenge(id) = self.place {
            if let Some(c) = challenge(id) {
                let mine = Rc::new(self.scenario.clone());
                let mut next = KafkaUi::open(self.place, c.solution, 0, None);
                next.solution_shown = true;
                next.before_solution = Some(mine);
                self.replace(next);
            }
        }
    }

    /// Back to the learner's run the solution replaced, at step 0.
    fn restore_mine(&mut self) {
        if let Some(mine) = self.before_solution.take() {
            let mut next = KafkaUi::open(self.place, (*mine).clone(), 0, None);
            next.solution_shown = true;
            self.replace(next);
        }
    }
}

/// Inserts `input` at the cursor's time: at 0 before the first step, else 1 ms after now (so the
/// steps already taken stay as they were); after every input of that time or earlier.
pub fn with_input(s: &KafkaScenario, sim: &Sim, input: Input) -> KafkaScenario {
    let at_ms = if sim.steps() == 0 {
        0
    } else {
        sim.now_ms() + 1
    };
    let mut next = s.clone();
    let i = next
        .inputs
        .iter()
        .position(|t| t.at_ms > at_ms)
        .unwrap_or(next.inputs.len());
    next.inputs.insert(i, TimedInput { at_ms, input });
    next
}

impl Reducible for KafkaUi {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut ui = (*self).clone();
        match action {
            Action::Step | Action::Tick => {
                let k = ui.cursor() + 1;
                ui.goto(k);
                if ui.cursor() >= ui.max_step() {
                    ui.playing = false;
                }
            }
            Action::Back => {
                ui.playing = false;
                let k = ui.cursor().saturating_sub(1);
                ui.goto(k);
            }
            Action::TogglePlay => ui.playing = !ui.playing && ui.cursor() < ui.max_step(),
            Action::RunToEnd => {
                ui.playing = false;
                let k = ui.max_step();
                ui.goto(k);
            }
            Action::Reset => {
                ui.playing = false;
                ui.goto(0);
            }
            Action::Goto(k) => {
                ui.playing = false;
                ui.goto(k);
            }
            Action::Add(input) => {
                let s = with_input(&ui.scenario, ui.sim(), input);
                ui.rebuild(s, true);
            }
            Action::Configure(config) => {
                let mut s = ui.scenario.clone();
                s.config = config;
                ui.playing = false;
                ui.rebuild(s, false);
            }
            Action::Answer(i) => ui.answer_with(i),
            Action::Skip => ui.answer = Answer::Skipped,
            Action::AskAgain => {
                ui.answer = Answer::Open;
                let k = ui.cursor().min(ui.max_step());
                ui.run.seek(k);
            }
            Action::Import(text) => ui.import(&text),
            Action::ShowSolution => ui.show_solution(),
            Action::RestoreMine => ui.restore_mine(),
            Action::SetDelay(ms) => ui.delay_ms = ms,
            Action::Speed(ms) => ui.speed_ms = ms,
            Action::Dismiss => ui.notice = None,
            Action::ResetLesson => ui.replace(KafkaUi::open(ui.place, ui.place.builtin(), 0, None)),
            Action::AnswerTransfer(i) => {
                let n = ui.transfer.as_ref().map_or(0, |t| t.1.choices.len());
                if i < n && ui.transfer_answer.is_none() {
                    ui.transfer_answer = Some(i);
                }
            }
            Action::RunVariation => {
                if let Some(t) = ui.transfer.clone() {
                    ui.playing = false;
                    ui.rebuild(t.0.clone(), true);
                    ui.goto(0);
                }
            }
        }
        Rc::new(ui)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The variation question: answered once (a second answer or a choice it does not have
    /// changes nothing), its run loaded from step 0 with the answers kept; "Reset this lesson"
    /// drops both answers and the changes; the answers saved with a run come back where they
    /// name a choice.
    #[test]
    fn the_variation_is_answered_once_its_run_loads_and_reset_drops_the_answers() {
        let place = Place::Lesson("kafka-in-flight");
        let ui = Rc::new(KafkaUi::open(place, place.builtin(), 0, None));
        let t = ui
            .transfer
            .clone()
            .expect("kafka-in-flight has a variation");
        assert!(t.1.choices.len() >= 3);
        let lost = Place::Lesson("kafka-lost-ack");
        assert!(KafkaUi::open(lost, lost.builtin(), 0, None)
            .transfer
            .is_none());
        let ui = ui
            .reduce(Action::RunToEnd)
            .reduce(Action::Answer(2))
            .reduce(Action::AnswerTransfer(7));
        assert_eq!(ui.transfer_answer, None);
        let ui = ui
            .reduce(Action::AnswerTransfer(1))
            .reduce(Action::AnswerTransfer(0));
        assert_eq!(ui.answers(), (Some(Some(2)), Some(1)), "answered once");
        let ui = ui.reduce(Action::RunToEnd).reduce(Action::RunVariation);
        assert_eq!(ui.scenario, t.0);
        assert_eq!(ui.cursor(), 0);
        assert_eq!(ui.answers(), (Some(Some(2)), Some(1)));
        let ui = ui.reduce(Action::ResetLesson);
        assert_eq!(ui.scenario, place.builtin());
        assert_eq!((ui.cursor(), ui.answers()), (0, (None, None)));
        // A reload: the saved answers, each where it names a choice, at the saved step.
        let back = KafkaUi::reopen(place, place.builtin(), 99, None, (Some(Some(2)), Some(1)));
        assert_eq!(back.answers(), (Some(Some(2)), Some(1)));
        assert_eq!(
            back.cursor(),
            back.records.len(),
            "answered: the run is not held"
        );
        let back = KafkaUi::reopen(place, place.builtin(), 99, None, (Some(Some(9)), Some(9)));
        assert_eq!(back.answers(), (None, None));
        assert_eq!(back.cursor(), back.max_step(), "open: held at the question");
        let sandbox = KafkaUi::reopen(
            Place::Sandbox,
            place.builtin(),
            0,
            None,
            (Some(None), Some(0)),
        );
        assert_eq!(sandbox.answers(), (None, None));
    }
}
