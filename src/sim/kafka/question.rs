//! Predict-then-reveal, computed on the run: a [`Question`] names what it asks about; posed
//! against a run's steps it gives the step to stop at, the choices, the answer and the step that
//! shows it, or `None` when the run no longer has what it asks about (the learner changed the
//! settings so that, say, nothing is ever retried).

use super::broker::Verdict;
use super::engine::{Sim, StepKind, StepRecord};
use super::{EventId, Input};

/// What a lesson asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// What the broker does with the first retried request.
    RetryVerdict,
    /// What the broker does with the first request of the woken-up zombie.
    ZombieVerdict,
    /// What the broker does with the first request of an event the relay publishes again
    /// after the producer failed it at its delivery timeout (asked when it fails).
    ResendVerdict,
    /// How many times the consumer applies this event in the whole run (asked before the first
    /// restart).
    Applied(EventId),
}

/// A lesson's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// What it asks.
    pub ask: Ask,
}

/// An answer the learner may pick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Appended again: a second copy in the log.
    Appended,
    /// Acknowledged with the original offset; not appended.
    Duplicate,
    /// Refused: `OutOfOrderSequenceException`.
    OutOfOrder,
    /// Refused: `INVALID_PRODUCER_EPOCH` (a newer epoch of the producer id has written, or the
    /// coordinator has fenced it).
    InvalidEpoch,
    /// Refused: the epoch is fenced.
    Fenced,
    /// Refused: `NOT_ENOUGH_REPLICAS`.
    NotEnoughReplicas,
    /// This many times.
    Times(u32),
}

impl Choice {
    fn of(v: Verdict) -> Choice {
        match v {
            Verdict::Appended(_) => Choice::Appended,
            Verdict::Duplicate(_) => Choice::Duplicate,
            Verdict::OutOfOrder => Choice::OutOfOrder,
            Verdict::InvalidEpoch => Choice::InvalidEpoch,
            Verdict::Fenced => Choice::Fenced,
            Verdict::NotEnoughReplicas => Choice::NotEnoughReplicas,
        }
    }
}

/// A question posed against a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posed {
    /// The run waits here: this many steps taken, the next one decides.
    pub ask_at: usize,
    /// The choices offered.
    pub choices: Vec<Choice>,
    /// The right one, from the run.
    pub answer: Choice,
    /// The step (1-based) that shows the answer.
    pub shows: usize,
}

impl Question {
    /// Poses the question against a whole run: its steps and its end.
    pub fn pose(&self, records: &[StepRecord], end: &Sim) -> Option<Posed> {
        match self.ask {
            Ask::RetryVerdict => {
                let j = records.iter().position(
                    |r| matches!(r.kind, StepKind::Arrived { attempt, .. } if attempt >= 2),
                )?;
                let StepKind::Arrived { verdict, .. } = records[j].kind else {
                    return None;
                };
                Some(Posed {
                    ask_at: j,
                    choices: vec![Choice::Appended, Choice::Duplicate, Choice::OutOfOrder],
                    answer: Choice::of(verdict),
                    shows: j + 1,
                })
            }
            Ask::ZombieVerdict => {
                let mut latest = 0;
                let mut woke = None;
                for (j, r) in records.iter().enumerate() {
                    match r.kind {
                        StepKind::Input(Input::Restart) => latest += 1,
                        StepKind::Input(Input::WakeZombie) if woke.is_none() => woke = Some(j),
                        StepKind::Arrived { inst, verdict, .. }
                            if woke.is_some() && inst < latest =>
                        {
                            return Some(Posed {
                                ask_at: woke.unwrap_or(j),
                                choices: vec![
                                    Choice::Appended,
                                    Choice::Duplicate,
                                    Choice::OutOfOrder,
                                    Choice::InvalidEpoch,
                                ],
                                answer: Choice::of(verdict),
                                shows: j + 1,
                            });
                        }
                        _ => {}
                    }
                }
                None
            }
            Ask::ResendVerdict => {
                let (j, event) = records.iter().enumerate().find_map(|(j, r)| match r.kind {
                    StepKind::Expired { event, .. } => Some((j, event)),
                    _ => None,
                })?;
                let (k, verdict) =
                    records
                        .iter()
                        .enumerate()
                        .skip(j + 1)
                        .find_map(|(k, r)| match r.kind {
                            StepKind::Arrived {
                                event: e,
                                attempt: 1,
                                verdict,
                                ..
                            } if e == event => Some((k, verdict)),
                            _ => None,
                        })?;
                Some(Posed {
                    ask_at: j + 1,
                    choices: vec![Choice::Appended, Choice::Duplicate, Choice::OutOfOrder],
                    answer: Choice::of(verdict),
                    shows: k + 1,
                })
            }
            Ask::Applied(event) => {
                let restart = records
                    .iter()
                    .position(|r| matches!(r.kind, StepKind::Input(Input::Restart)))?;
                let shows = records.iter().rposition(
                    |r| matches!(r.kind, StepKind::Consumed { event: e, .. } if e == event),
                )?;
                let times = end.consumer.times(event);
                let mut choices: Vec<Choice> = (1..=3).map(Choice::Times).collect();
                if times == 0 || times > 3 {
                    choices.push(Choice::Times(times));
                }
                Some(Posed {
                    ask_at: restart,
                    choices,
                    answer: Choice::Times(times),
                    shows: shows + 1,
                })
            }
        }
    }
}
