//! A second question after some lessons: the lesson's columns with one thing changed, a case the
//! learner has not seen run (the crash moved to just after the journal write, or before the
//! charge reaches the payment service; the plain process that does not crash; the same key 23
//! hours later). Whether the learner can carry what the run showed to a case it did not show is
//! what the lesson taught. The variation is a change to the lesson's columns; its answer and
//! choices are measured on the varied run by the lesson's measure, each wrong choice a belief
//! whose model gives it, and the page can load that run once it is answered.

use super::lessons::{lesson, rank, Answer, Ask, Belief, Measure, Question};
use super::run::DurableRun;
use super::{Config, FaultKind, FaultSpec};
use crate::sim::lesson::{variation_choices, NotPosed, Posed};

/// What a lesson's variation changes in its columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variation {
    /// The crash falls just after the engine journals the step's result, not before.
    CrashAfterJournal,
    /// The crash falls after the step started, before its side effect.
    CrashBeforeEffect,
    /// No crash: the faults that crash the worker are removed.
    NoCrash,
    /// The client calls again 23 hours after its first call where it called 25 hours after.
    Within24Hours,
}

/// A lesson's variation question: the lesson, the change, the column and measure asked about,
/// and the beliefs whose models give its wrong choices (besides "as in the lesson",
/// [`Belief::AsInTheLesson`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The lesson.
    pub lesson: &'static str,
    /// The change.
    pub variation: Variation,
    /// The column asked about.
    pub column: usize,
    /// What is measured on it.
    pub measure: Measure,
    /// The beliefs whose models give the wrong choices on the varied run.
    pub beliefs: &'static [Belief],
}

/// The lessons with a variation question (at least a third of them), in the lessons' order.
pub const TRANSFER_IDS: [&str; 4] = [
    "durable-resume",
    "durable-charge-key",
    "durable-retention",
    "durable-saga",
];

/// When the retention lesson's variation calls again: 23 h, within Restate's 24 h retention.
pub const WITHIN_RETENTION_MS: u64 = 23 * 3_600_000;

/// The variation question of lesson `id`, if it has one.
pub fn transfer(id: &str) -> Option<Transfer> {
    use Belief as B;
    use Variation as V;
    let (variation, column, measure, beliefs): (_, _, _, &'static [Belief]) = match id {
        "durable-resume" => (
            V::CrashAfterJournal,
            0,
            Measure::Rerun,
            &[B::RestartRunsAll],
        ),
        "durable-charge-key" => (
            V::CrashBeforeEffect,
            1,
            Measure::Charges,
            &[B::CrashedStepLost],
        ),
        "durable-retention" => (V::Within24Hours, 0, Measure::SecondReply, &[B::IdRefused]),
        "durable-saga" => (V::NoCrash, 2, Measure::EndState, &[B::RetriedUntilDone]),
        _ => return None,
    };
    let lesson = TRANSFER_IDS.into_iter().find(|l| *l == id)?;
    Some(Transfer {
        lesson,
        variation,
        column,
        measure,
        beliefs,
    })
}

impl Variation {
    /// Column `c` with this change made.
    pub fn apply(self, mut c: Config) -> Config {
        let crash = |f: &FaultSpec| f.kind.is_crash();
        let moved = |to: FaultKind| {
            move |f: FaultSpec| FaultSpec {
                kind: if f.kind == FaultKind::CrashAfterEffect {
                    to
                } else {
                    f.kind
                },
                ..f
            }
        };
        match self {
            Variation::CrashAfterJournal => {
                c.faults = c
                    .faults
                    .into_iter()
                    .map(moved(FaultKind::CrashAfterJournal))
                    .collect();
            }
            Variation::CrashBeforeEffect => {
                c.faults = c
                    .faults
                    .into_iter()
                    .map(moved(FaultKind::CrashBefore))
                    .collect();
            }
            Variation::NoCrash => c.faults.retain(|f| !crash(f)),
            Variation::Within24Hours => {
                if c.start_again_at_ms == Some(super::lessons::AFTER_RETENTION_MS) {
                    c.start_again_at_ms = Some(WITHIN_RETENTION_MS);
                }
            }
        }
        c
    }
}

/// The varied columns, the question posed on their run (before its first step: the learner
/// predicts the whole varied run), and the belief behind each choice (`None` for the right one).
pub type Varied = (Vec<Config>, Posed<Answer>, Vec<Option<Belief>>);

impl Transfer {
    /// The lesson's columns with the change made, and the question posed on their run: the
    /// wrong choices are the beliefs' (their models run by the core) and the lesson's own
    /// answer, "it changes nothing", when the varied run gives another.
    pub fn pose(&self) -> Result<Varied, NotPosed> {
        let l = lesson(self.lesson).ok_or(NotPosed::NeverAsked)?;
        let built = DurableRun::new(l.columns.clone(), Vec::new()).final_worlds();
        let seen = built.get(self.column).and_then(|w| self.measure.of(w));
        let varied: Vec<Config> = l
            .columns
            .into_iter()
            .map(|c| self.variation.apply(c))
            .collect();
        let mut q = Question {
            column: self.column,
            measure: self.measure,
            ask: l.question.ask,
            beliefs: self.beliefs,
        };
        let run = DurableRun::new(varied.clone(), Vec::new());
        // Asked where the lesson asks, for the step that shows the answer; from the start where
        // the varied run never comes there (no crash).
        let (posed, beliefs) = match q.pose_with_beliefs(&run) {
            Err(NotPosed::NeverAsked) => {
                q.ask = Ask::Start;
                q.pose_with_beliefs(&run)?
            }
            other => other?,
        };
        let right = posed.answer_value();
        let held = posed.choices.iter().copied().zip(beliefs).collect();
        let held = variation_choices(held, right, seen, Belief::AsInTheLesson, rank);
        let choices: Vec<Answer> = held.iter().map(|h| h.0).collect();
        let posed = Posed::new(self.column, 0, choices, right, posed.shows_at);
        Ok((varied, posed, held.into_iter().map(|h| h.1).collect()))
    }
}
