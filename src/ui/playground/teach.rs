//! What the page teaches around the run: a lesson's question (posed by the core against the run
//! on the page, answered or skipped by the learner), a challenge (its goal checked after every
//! step), and the learner's progress as kept in this browser. Pure: `state.rs` holds a [`Teach`]
//! and calls it; `page.rs` loads and saves the progress.

use std::rc::Rc;

use crate::sim::lesson::Value;
use crate::sim::teach::{self as lesson, Challenge, NotPosed, Posed, Question};
use crate::sim::Session;
use crate::ui::route::Route;

/// Where a page finds what teaches on it: the lessons' questions and the challenges. Plain
/// function pointers, so a page that names only one of them (the first page the questions, the
/// sandbox page the challenges) links only that one's code into its wasm.
#[derive(Clone, Copy)]
pub struct Teachers {
    /// The question of a lesson, by id.
    pub question: fn(&str) -> Option<Question>,
    /// A challenge, by id.
    pub challenge: fn(&str) -> Option<Challenge>,
}

impl Teachers {
    /// The first page's: the lessons' questions.
    pub const LESSONS: Teachers = Teachers {
        question: lesson::question,
        challenge: |_| None,
    };
    /// The sandbox page's: the challenges.
    pub const CHALLENGES: Teachers = Teachers {
        question: |_| None,
        challenge: lesson::challenge,
    };
    /// Both (tests, and code that does not know its page).
    pub const ALL: Teachers = Teachers {
        question: lesson::question,
        challenge: lesson::challenge,
    };
}

/// Longest progress text read back from storage (ids are short; this holds every lesson and
/// challenge many times over).
pub const MAX_PROGRESS_BYTES: usize = 16_384;

/// What the learner did with a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Picked this value.
    Picked(Value),
    /// Skipped the question.
    Skipped,
}

/// A mark in the table of contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Predicted and stepped to the end of the run.
    Done,
    /// A challenge won.
    Won,
}

/// A small map by id, in insertion order (a few dozen entries at most; a `BTreeMap` would
/// cost the page's wasm several KB for nothing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ById<T>(Vec<(String, T)>);

impl<T> Default for ById<T> {
    fn default() -> Self {
        ById(Vec::new())
    }
}

impl<T: Copy> ById<T> {
    /// The entry for `id`.
    pub fn get(&self, id: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == id).map(|(_, v)| v)
    }

    /// Sets the entry for `id`.
    pub fn insert(&mut self, id: String, v: T) {
        match self.0.iter_mut().find(|(k, _)| *k == id) {
            Some(e) => e.1 = v,
            None => self.0.push((id, v)),
        }
    }

    /// Removes the entry for `id`.
    pub fn remove(&mut self, id: &str) {
        self.0.retain(|(k, _)| k != id);
    }

    /// Every entry.
    pub fn iter(&self) -> impl Iterator<Item = &(String, T)> {
        self.0.iter()
    }
}

/// The learner's progress in this browser: answers, done lessons and won challenges, by id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Marks by lesson or challenge id.
    pub marks: ById<Mark>,
    /// Answers by lesson id.
    pub answers: ById<Answer>,
}

impl Progress {
    /// Reads what [`Progress::to_text`] wrote; unreadable lines are ignored (another version may
    /// add some), and text over [`MAX_PROGRESS_BYTES`] is not read.
    pub fn from_text(text: &str) -> Progress {
        let mut p = Progress::default();
        if text.len() > MAX_PROGRESS_BYTES {
            return p;
        }
        for line in text.lines() {
            let mut parts = line.split(' ');
            match (parts.next(), parts.next(), parts.next(), parts.next()) {
                (Some("done"), Some(id), None, None) => {
                    p.marks.insert(id.into(), Mark::Done);
                }
                (Some("won"), Some(id), None, None) => {
                    p.marks.insert(id.into(), Mark::Won);
                }
                (Some("skip"), Some(id), None, None) => {
                    p.answers.insert(id.into(), Answer::Skipped);
                }
                (Some("pick"), Some(id), Some(v), None) => {
                    let value = match v {
                        "yes" => Some(Value::Bool(true)),
                        "no" => Some(Value::Bool(false)),
                        n => n.parse().ok().map(Value::Int),
                    };
                    if let Some(v) = value {
                        p.answers.insert(id.into(), Answer::Picked(v));
                    }
                }
                _ => {}
            }
        }
        p
    }

    /// One line per mark and answer.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (id, m) in self.marks.iter() {
            let word = match m {
                Mark::Done => "done",
                Mark::Won => "won",
            };
            out.push_str(&format!("{word} {id}\n"));
        }
        for (id, a) in self.answers.iter() {
            match a {
                Answer::Skipped => out.push_str(&format!("skip {id}\n")),
                Answer::Picked(Value::Bool(b)) => {
                    out.push_str(&format!("pick {id} {}\n", if *b { "yes" } else { "no" }))
                }
                Answer::Picked(Value::Int(n)) => out.push_str(&format!("pick {id} {n}\n")),
            }
        }
        out
    }

    /// The mark of a lesson or challenge.
    pub fn mark(&self, id: &str) -> Option<Mark> {
        self.marks.get(id).copied()
    }
}

/// The question of the lesson on the page, against the run on the page.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    /// What the lesson asks.
    pub question: Question,
    /// It posed against the run, or why it does not apply.
    pub posed: Result<Posed, NotPosed>,
    /// The learner's answer, if any (for the run as it is: a change that moves the answer asks
    /// again).
    pub answer: Option<Answer>,
}

impl Prediction {
    /// Whether the learner picked the right value; `None` before an answer or after a skip.
    pub fn right(&self) -> Option<bool> {
        match (&self.posed, self.answer) {
            (Ok(p), Some(Answer::Picked(v))) => Some(p.answer_value() == v),
            _ => None,
        }
    }

    /// The step the run may not pass until the question is answered or skipped.
    pub fn limit(&self) -> Option<usize> {
        match (&self.posed, self.answer) {
            (Ok(p), None) => Some(p.ask_at),
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
            prediction: lesson.map(|question| Prediction {
                question,
                posed: Err(NotPosed::NeverAsked),
                answer: None,
            }),
            challenge,
            won: false,
            progress,
            progress_changed: 0,
        }
    }

    /// A new run (opened, changed, imported): the question is posed against it, and the answer
    /// remembered for this lesson counts only if it is one of the new choices; the challenge is
    /// checked again.
    pub fn new_run(&mut self, session: &Session) {
        if let Some(p) = &mut self.prediction {
            p.posed = p.question.pose(session);
            let saved = self.progress.answers.get(p.question.lesson).copied();
            p.answer = match (&p.posed, saved) {
                (Ok(posed), Some(Answer::Picked(v))) if posed.choices.contains(&v) => saved,
                (Ok(posed), _) if session.position() > posed.ask_at => Some(Answer::Skipped),
                (Ok(_), Some(Answer::Skipped)) => saved,
                _ => None,
            };
        }
        self.moved(session);
    }

    /// After every move of the cursor: the challenge's goal, and a lesson stepped to its end
    /// after its question.
    pub fn moved(&mut self, session: &Session) {
        if let Some(c) = &self.challenge {
            self.won = c.won(session);
            if self.won {
                let id = c.id;
                self.set_mark(id, Mark::Won);
            }
        }
        if let Some(p) = &self.prediction {
            if p.answer.is_some() && session.at_end() && p.posed.is_ok() {
                let id = p.question.lesson;
                if self.progress.mark(id).is_none() {
                    self.set_mark(id, Mark::Done);
                }
            }
        }
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
                self.progress
                    .answers
                    .insert(p.question.lesson.to_string(), answer);
                self.progress_changed += 1;
            }
        }
    }

    /// Asks the question again (the learner wants another try).
    pub fn ask_again(&mut self) {
        if let Some(p) = &mut self.prediction {
            if p.answer.take().is_some() {
                self.progress.answers.remove(p.question.lesson);
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

/// Marks challenge `id` as won in this browser's saved progress (the lab page, which keeps no
/// `Teach` of its own).
pub fn mark_won(id: &str) {
    let key = crate::ui::web::PROGRESS_KEY;
    let mut p = Progress::from_text(&crate::ui::web::load(key).unwrap_or_default());
    if p.mark(id) != Some(Mark::Won) {
        p.marks.insert(id.to_string(), Mark::Won);
        crate::ui::web::save(key, &p.to_text());
    }
}
