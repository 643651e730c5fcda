//! Teaching on the payments world: the question each built-in lesson asks before its decisive
//! step, and the challenges' goals and move limits (the playground's and the concurrency lab's),
//! in the vocabulary of `crate::sim::lesson`. Everything is judged against what the core
//! computed for the run on the page, never against text: a question's choices and answer are
//! measured on the finished run, and a challenge's goal is checked on the worlds at the cursor
//! after every step.
//!
//! - `measure`: [`Measure`], a number or a yes/no read off one world, and which events move it.
//! - `belief`: [`Belief`], a misconception and the model that computes what it predicts; the
//!   wrong choices of a question are beliefs' predictions ([`Guess`]).
//! - `question`: [`Question`] (what a built-in lesson asks, of which column, when), posed
//!   against a [`Session`](super::session::Session) as a [`Posed`](crate::sim::lesson::Posed).
//! - `transfer`: [`Transfer`], a second question on a variation of the lesson's run that the
//!   learner has not seen run, its answer measured on the varied run.
//! - `challenge`: [`Challenge`] (a starting run, the moves allowed, a goal) for the playground,
//!   and [`LabChallenge`] for the concurrency lab.

mod belief;
mod challenge;
mod measure;
mod question;
mod transfer;

pub use belief::{Belief, Guess};
pub use challenge::{
    challenge, lab_challenge, Challenge, Goal, LabChallenge, LabGoal, MoveKind, MoveRefused,
    CHALLENGE_IDS, LAB_CHALLENGE_IDS,
};
pub use measure::Measure;
pub use question::{question, Ask, Question};
pub use transfer::{transfer, Transfer, Variation};
