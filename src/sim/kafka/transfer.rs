//! A second question after some lessons: the lesson's run with one thing changed, a case the
//! learner has not seen run (the service writes five events instead of six; the broker forgets
//! the producers before the zombie wakes). Whether the learner can carry what the run showed to
//! a case it did not show is what the lesson taught. The variation is a change to the lesson's
//! scenario; its answer and choices are measured on the varied run with the lesson's own
//! question, each wrong choice a belief whose model gives it, and the page can load that run
//! once it is answered.

use super::builtin::lesson;
use super::engine::Sim;
use super::question::{rank, Belief, Choice, Question};
use super::{Input, KafkaScenario, TimedInput};
use crate::sim::lesson::{variation_choices, NotPosed, Posed};

/// What a lesson's variation changes in its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variation {
    /// The service writes five events where the lesson writes six (still six in flight).
    FiveEvents,
    /// The broker forgets every producer (its `producer.id.expiration.ms` passes) just before
    /// the zombie wakes.
    ExpiredBeforeZombie,
}

/// A lesson's variation question: the lesson, the change, and the beliefs whose models give
/// its wrong choices (besides "as in the lesson", [`Belief::AsInTheLesson`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The lesson.
    pub lesson: &'static str,
    /// The change.
    pub variation: Variation,
    /// The beliefs whose models give the wrong choices on the varied run.
    pub beliefs: &'static [Belief],
}

/// The lessons with a variation question (a third of them), in the lessons' order.
pub const TRANSFER_IDS: [&str; 2] = ["kafka-in-flight", "kafka-restart"];

/// The variation question of lesson `id`, if it has one.
pub fn transfer(id: &str) -> Option<Transfer> {
    use Belief as B;
    let (variation, beliefs): (Variation, &'static [Belief]) = match id {
        "kafka-in-flight" => (Variation::FiveEvents, &[B::RetriesAppended]),
        "kafka-restart" => (
            Variation::ExpiredBeforeZombie,
            &[B::RemembersForever, B::RestartFences, B::RefusesForgotten],
        ),
        _ => return None,
    };
    let lesson = TRANSFER_IDS.into_iter().find(|l| *l == id)?;
    Some(Transfer {
        lesson,
        variation,
        beliefs,
    })
}

impl Variation {
    /// `s` with this change made.
    pub fn apply(self, mut s: KafkaScenario) -> KafkaScenario {
        match self {
            Variation::FiveEvents => {
                for t in &mut s.inputs {
                    if let Input::Send { count: 6 } = t.input {
                        t.input = Input::Send { count: 5 };
                    }
                }
            }
            Variation::ExpiredBeforeZombie => {
                if let Some(i) = s.inputs.iter().position(|t| t.input == Input::WakeZombie) {
                    let expire = TimedInput {
                        at_ms: s.inputs[i].at_ms,
                        input: Input::ExpireProducers,
                    };
                    s.inputs.insert(i, expire);
                }
            }
        }
        s
    }
}

/// The varied run, its question (the lesson's, posed on it), and the belief behind each choice
/// (`None` for the right one).
pub type Varied = (KafkaScenario, Posed<Choice>, Vec<Option<Belief>>);

impl Transfer {
    /// The lesson's scenario with the change made, and the lesson's question posed on it: the
    /// wrong choices are the beliefs' (the models run by the core) and the lesson's own answer,
    /// "it changes nothing", when the varied run gives another.
    pub fn pose(&self) -> Result<Varied, NotPosed> {
        let l = lesson(self.lesson).ok_or(NotPosed::NeverAsked)?;
        let (records, end) = Sim::run_all(&l.scenario);
        let seen = l.question.pose(&records, &end)?.answer_value();
        let varied = self.variation.apply(l.scenario);
        let (records, end) = Sim::run_all(&varied);
        let q = Question {
            ask: l.question.ask,
            beliefs: self.beliefs,
        };
        let (posed, beliefs) = q.pose_with_beliefs(&records, &end)?;
        let right = posed.answer_value();
        let held = posed.choices.iter().copied().zip(beliefs).collect();
        let held = variation_choices(held, right, Some(seen), Belief::AsInTheLesson, rank);
        let choices: Vec<Choice> = held.iter().map(|h| h.0).collect();
        let posed = Posed::new(0, 0, choices, right, posed.shows_at);
        Ok((varied, posed, held.into_iter().map(|h| h.1).collect()))
    }
}
