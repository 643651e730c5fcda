//! What the page teaches around the run: a lesson's question (posed by the core against the run
//! on the page, answered or skipped by the learner), a challenge (its goal checked after every
//! step), and the learner's progress as kept in this browser. Pure: `state.rs` holds a [`Teach`]
//! and calls it; `page.rs` loads and saves the progress.

use std::rc::Rc;

use crate::sim::lesson::{NotPosed, Posed};
use crate::sim::teach::{self as lesson, Challenge, Guess, Question};
use crate::sim::ServiceKind;
use crate::sim::{Scenario, Session};
use crate::ui::route::Route;

/// Where a page finds what teaches on it: the lessons' questions and the challenges. Plain
/// function pointers, so a page that names only one of them (the first page the questions, the
/// sandbox page the challenges) links only that one's code into its wasm.
#[derive(Clone, Copy)]
pub struct Teachers {
    /// The question of a lesson, by id.
    pub question: fn(&str) -> Option<Question>,
    /// A lesson's run as built in, by id (the sandbox page has none, so its download carries
    /// none of the lessons' runs).
    pub lesson: fn(&str) -> Option<Scenario>,
    /// How a question is posed against a run (the sandbox page's poses none, so its download
    /// carries none of the posing).
    pub pose: PoseFn,
    /// A challenge, by id.
    pub challenge: fn(&str) -> Option<Challenge>,
    /// A lesson's variation question posed on its varied run, by id (the sandbox page's has
    /// none, so its download carries none of them).
    /// With the answer to it this browser kept, if it is still one of its choices.
    pub transfer: fn(&str, &Progress) -> Option<Kept>,
    /// Whether a variation's run is the run on the page (the sandbox page's says no, so its
    /// download carries no comparison of whole scenarios).
    pub varied_here: VariedHere,
}

/// A variation question posed on its run: the varied scenario (the page can load it) and the
/// question on it.
pub type Varied = Rc<(Scenario, Posed<Guess>)>;

/// A variation question posed, with the index of the answer to it this browser kept.
pub type Kept = (Varied, Option<usize>);

/// The first page's: the variation of the lesson, posed, and the answer to it `progress` keeps
/// (if it is still one of the choices).
fn varied(id: &str, progress: &Progress) -> Option<Kept> {
    let t: Varied = lesson::transfer(id)?.pose().ok().map(Rc::new)?;
    let kept = match progress.answers.get(&variation_key(id)) {
        Some(Answer::Picked(Value::Int(i))) => usize::try_from(*i).ok(),
        _ => None,
    };
    let kept = kept.filter(|i| *i < t.1.choices.len());
    Some((t, kept))
}

/// A lesson's question against the run on the page, or why it does not apply.
pub type Posing = Result<Posed<Guess>, NotPosed<ServiceKind>>;

/// A question posed against a session, as a plain function pointer (see [`Teachers`]).
#[derive(Clone, Copy)]
pub struct PoseFn(pub fn(&Question, &Session) -> Posing);

/// Every page poses a question the same way: any two are equal.
impl PartialEq for PoseFn {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for PoseFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PoseFn")
    }
}

/// Whether a variation's run is the one in a session, as a plain function pointer (see
/// [`Teachers`]).
#[derive(Clone, Copy)]
pub struct VariedHere(pub fn(&Varied, &Session) -> bool);

/// Every page compares the same way: any two are equal.
impl PartialEq for VariedHere {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for VariedHere {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("VariedHere")
    }
}

/// The first page's: the session runs the variation's scenario.
const VARIED_HERE: VariedHere = VariedHere(|t, s| t.0 == *s.scenario());

/// Poses with the core's question.
const POSE: PoseFn = PoseFn(|q, s| q.pose(s));

impl Teachers {
    /// The first page's: the lessons' questions.
    pub const LESSONS: Teachers = Teachers {
        question: lesson::question,
        lesson: crate::sim::builtin,
        pose: POSE,
        challenge: |_| None,
        transfer: varied,
        varied_here: VARIED_HERE,
    };
    /// The sandbox page's: the challenges.
    pub const CHALLENGES: Teachers = Teachers {
        question: |_| None,
        lesson: |_| None,
        pose: PoseFn(|_, _| Err(NotPosed::NeverAsked)),
        challenge: lesson::challenge,
        transfer: |_, _| None,
        varied_here: VariedHere(|_, _| false),
    };
    /// Both (tests, and code that does not know its page).
    pub const ALL: Teachers = Teachers {
        question: lesson::question,
        lesson: crate::sim::builtin,
        pose: POSE,
        challenge: lesson::challenge,
        transfer: varied,
        varied_here: VARIED_HERE,
    };
}

use crate::sim::lesson::{variation_key, Value};
pub use crate::sim::lesson::{Answer, Mark, Progress};

/// The question of the lesson on the page, against the run on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// What the lesson asks.
    pub question: Question,
    /// How it is posed (the page's).
    pub pose: PoseFn,
    /// It posed against the run, or why it does not apply.
    pub posed: Posing,
    /// The learner's answer, if any (for the run as it is: a change that moves the answer asks
    /// again).
    pub answer: Option<Answer>,
    /// The lesson's variation question, if it has one, posed on its varied run.
    pub transfer: Option<Varied>,
    /// The learner's answer to it (the index of the choice picked).
    pub transfer_answer: Option<usize>,
    /// The run on the page is the variation's (loaded from its question): the lesson's own
    /// question is about another run, so it neither waits nor judges here.
    pub on_variation: bool,
    /// How it tells (the page's).
    pub varied_here: VariedHere,
}

impl Prediction {
    /// Whether the learner picked the right value; `None` before an answer or after a skip.
    pub fn right(&self) -> Option<bool> {
        match (&self.posed, self.answer) {
            (Ok(p), Some(Answer::Picked(v))) => Some(p.answer_value().value == v),
            _ => None,
        }
    }

    /// The step the run may not pass until the question is answered or skipped.
    pub fn limit(&self) -> Option<usize> {
        match (&self.posed, self.answer) {
            (Ok(p), None) if !self.on_variation => Some(p.ask_at),
            _ => None,
        }
    }
}

/// Everything around the run that teaches.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Teach {
    /// The lesson's question, on a lesson route.
    pub prediction: Option<Prediction>,
    /// The challenge, on a challenge route.
    pub challenge: Option<Rc<Challenge>>,
    /// The challenge is won at the cursor.
    pub won: bool,
    /// What this browser remembers.
    pub progress: Progress,
    /// A mark or an answer changed since the progress was loaded: save it.
    pub progress_changed: u64,
}

impl Teach {
    /// What teaches on `route`, with the learner's `progress`, found in `teachers`.
    pub fn for_route(route: &Route, progress: Progress, teachers: Teachers) -> Teach {
        let (lesson, challenge) = match route {
            Route::Scenario(id) => ((teachers.question)(id), None),
            Route::Challenge(id) => (None, (teachers.challenge)(id).map(Rc::new)),
            _ => (None, None),
        };
        Teach {
            prediction: lesson.map(|question| {
                let (transfer, kept) = match (teachers.transfer)(question.lesson, &progress) {
                    Some((t, kept)) => (Some(t), kept),
                    None => (None, None),
                };
                Prediction {
                    question,
                    pose: teachers.pose,
                    posed: Err(NotPosed::NeverAsked),
                    answer: None,
                    transfer_answer: kept,
                    transfer,
                    on_variation: false,
                    varied_here: teachers.varied_here,
                }
            }),
            challenge,
            won: false,
            progress,
            progress_changed: 0,
        }
    }

    /// The column the lesson's question is about, when one is posed on the run.
    pub fn asked_column(&self) -> Option<usize> {
        let prediction = self.prediction.as_ref()?;
        prediction.posed.as_ref().ok().map(|p| p.column)
    }

    /// A new run (opened, changed, imported): the question is posed against it, and the answer
    /// remembered for this lesson counts only if it is one of the new choices; the challenge is
    /// checked again.
    pub fn new_run(&mut self, session: &Session) {
        if let Some(p) = &mut self.prediction {
            p.on_variation = p
                .transfer
                .as_ref()
                .is_some_and(|t| t.0 == *session.scenario());
            p.posed = (p.pose.0)(&p.question, session);
            let saved = self.progress.answers.get(p.question.lesson).copied();
            p.answer = match (&p.posed, saved) {
                (Ok(posed), Some(Answer::Picked(v)))
                    if posed.choices.iter().any(|g| g.value == v) =>
                {
                    saved
                }
                (Ok(posed), _) if session.position() > posed.ask_at => Some(Answer::Skipped),
                (Ok(_), Some(Answer::Skipped)) => saved,
                _ => None,
            };
        }
        self.moved(session);
    }

    /// After every move of the cursor: the challenge's goal, and a lesson whose question is
    /// answered or skipped (done, on every page alike: the answer is what the lesson asks).
    pub fn moved(&mut self, session: &Session) {
        if let Some(c) = &self.challenge {
            self.won = c.won(session);
            if self.won && self.progress.counts_win(c.id) {
                let id = c.id;
                self.set_mark(id, Mark::Won);
            }
        }
        if let Some(p) = &self.prediction {
            if p.answer.is_some() && p.posed.is_ok() {
                let id = p.question.lesson;
                if self.progress.mark(id).is_none() {
                    self.set_mark(id, Mark::Done);
                }
            }
        }
    }

    /// The learner opens the challenge's solution: noted in the progress, so its win is not
    /// counted, here or after a reload.
    pub fn open_solution(&mut self) -> bool {
        let Some(c) = &self.challenge else {
            return false;
        };
        // Marked done, not won (a challenge won before stays won).
        if self.progress.set_mark(c.id, Mark::Done) {
            self.progress_changed += 1;
        }
        true
    }

    fn set_mark(&mut self, id: &str, mark: Mark) {
        if self.progress.mark(id) != Some(mark) {
            self.progress.marks.insert(id.to_string(), mark);
            self.progress_changed += 1;
        }
    }

    /// The learner answers (or skips) the question.
    pub fn answer(&mut self, answer: Answer) {
        if let Some(p) = &mut self.prediction {
            if p.posed.is_ok() && p.answer.is_none() {
                p.answer = Some(answer);
                let id = p.question.lesson;
                self.progress.answers.insert(id.to_string(), answer);
                self.progress_changed += 1;
            }
        }
    }

    /// Answers the variation question with choice `i` (once), kept in the progress so a reload
    /// or a later visit shows it answered.
    pub fn answer_transfer(&mut self, i: usize) {
        if let Some(p) = &mut self.prediction {
            let fits = p.transfer.as_ref().is_some_and(|t| i < t.1.choices.len());
            if fits && p.transfer_answer.is_none() {
                p.transfer_answer = Some(i);
                let key = variation_key(p.question.lesson);
                let value = Value::Int(i64::try_from(i).unwrap_or(i64::MAX));
                self.progress.answers.insert(key, Answer::Picked(value));
                self.progress_changed += 1;
            }
        }
    }

    /// Asks the question again (the learner wants another try); its variation question, which
    /// follows it, too.
    pub fn ask_again(&mut self) {
        if let Some(p) = &mut self.prediction {
            if p.answer.take().is_some() {
                self.progress.answers.remove(p.question.lesson);
                self.progress_changed += 1;
            }
            if p.transfer_answer.take().is_some() {
                self.progress
                    .answers
                    .remove(&variation_key(p.question.lesson));
                self.progress_changed += 1;
            }
        }
    }

    /// The step the run may not pass now.
    pub fn limit(&self) -> Option<usize> {
        self.prediction.as_ref().and_then(Prediction::limit)
    }

    /// Whether the steps ahead may be drawn (no question is waiting).
    pub fn reveals_future(&self) -> bool {
        self.limit().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lesson is done once its question is answered (as on the durable and Kafka pages), and
    /// the variation's answer comes back with the progress: after a reload, on a later visit.
    #[test]
    fn an_answer_marks_the_lesson_done_and_the_variations_answer_is_kept() {
        let id = "the-header";
        let route = Route::Scenario(id.into());
        let session = Session::new(crate::sim::builtin(id).expect("a lesson")).expect("valid");
        let mut t = Teach::for_route(&route, Progress::default(), Teachers::LESSONS);
        t.new_run(&session);
        assert_eq!(t.progress.mark(id), None);
        t.answer(Answer::Skipped);
        // The page's reducer calls `moved` after every answer.
        t.moved(&session);
        assert_eq!(
            t.progress.mark(id),
            Some(Mark::Done),
            "done before the run's end"
        );
        t.answer_transfer(1);
        let text = t.progress.to_text();
        let again = Teach::for_route(&route, Progress::from_text(&text), Teachers::LESSONS);
        let p = again.prediction.expect("the lesson's question");
        assert_eq!(p.transfer_answer, Some(1));
        // A kept answer that is no longer one of the choices is not shown as one.
        let mut old = Progress::from_text(&text);
        old.answers
            .insert(variation_key(id), Answer::Picked(Value::Int(99)));
        let p = Teach::for_route(&route, old, Teachers::LESSONS).prediction;
        assert_eq!(p.expect("the question").transfer_answer, None);
        // The variation's run loaded on the page: the lesson's question neither waits nor judges.
        let varied = t
            .prediction
            .as_ref()
            .and_then(|p| p.transfer.clone())
            .expect("varied");
        t.new_run(&Session::new(varied.0.clone()).expect("valid"));
        let p = t.prediction.as_ref().expect("the question");
        assert!(p.on_variation && t.limit().is_none());
        t.new_run(&session);
        assert!(!t.prediction.as_ref().expect("the question").on_variation);
        // Asking again asks both.
        t.ask_again();
        assert_eq!(t.progress.answers.get(&variation_key(id)), None);
        assert_eq!(t.progress.answers.get(id), None);
    }

    /// Found by a walk-through: an opened solution, run to its end, counted as a win (a star
    /// in the lesson list). It still wins on the page, and is debriefed, but marks nothing, nor
    /// does a win after it, after a reload too; the same moves found by the learner do.
    #[test]
    fn an_opened_solution_wins_without_a_star() {
        let id = "triple-charge";
        let route = Route::Challenge(id.into());
        let mut t = Teach::for_route(&route, Progress::default(), Teachers::CHALLENGES);
        let solved = t.challenge.as_ref().expect("a challenge").solved();
        assert_eq!(t.progress.mark(id), None);
        let at_end = |s: Scenario| {
            let mut s = Session::new(s).expect("valid");
            s.seek(s.total());
            s
        };
        let solution = at_end(solved.clone());
        assert!(t.open_solution());
        t.new_run(&solution);
        assert!(t.won && !t.progress.counts_win(id));
        assert_eq!(
            t.progress.mark(id),
            Some(Mark::Done),
            "done, no star, for the solution"
        );
        // After a reload the progress still knows the solution was opened.
        let mut again = Teach::for_route(
            &route,
            Progress::from_text(&t.progress.to_text()),
            Teachers::CHALLENGES,
        );
        again.new_run(&solution);
        assert!(again.won && !again.progress.counts_win(id));
        assert_eq!(again.progress.mark(id), Some(Mark::Done));
        // Never opened: the solution's moves, found by the learner, count.
        let mut fresh = Teach::for_route(&route, Progress::default(), Teachers::CHALLENGES);
        fresh.new_run(&solution);
        assert_eq!(fresh.progress.mark(id), Some(Mark::Won));
    }
}
