//! The one teaching vocabulary every simulation's lessons speak: a question posed against a
//! run ([`Pose`], [`Posed`], [`NotPosed`]), the value a question may be answered with
//! ([`Value`]), a challenge's verdict on a run ([`Judge`]), and the learner's progress as this
//! browser keeps it ([`Progress`]). Generic over the model: the payments world
//! (`scenario::teach`), durable execution (`durable::lessons`) and Kafka (`kafka::question`)
//! each implement it for their runs, and the pages draw any of them the same way.
//!
//! Nothing here knows a model; it imports nothing of ours, so every model may use it.
//!
//! - `posed`: a question against one run (where it stops, the choices, the answer, the step
//!   that shows it), or why it does not apply.
//! - `progress`: answers, done lessons and won challenges, as the text the pages store.
//! - `transfer`: a variation question's choices from its varied run's.

mod posed;
mod progress;
mod transfer;

pub use posed::{Judge, NotPosed, Pose, Posed, MAX_CHOICES};
pub use progress::{
    read_run_answers, run_answers_text, variation_key, Answer, ById, Mark, Progress, RunAnswers,
    MAX_PROGRESS_BYTES,
};
pub use transfer::variation_choices;

/// A value a question is answered with: a number (a balance, a count) or yes/no.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A number: a balance, a count.
    Int(i64),
    /// Yes or no.
    Bool(bool),
}
