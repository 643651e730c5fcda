//! Predict-then-reveal, computed on the run: a [`Question`] names what it asks about; posed
//! against a run's steps it gives the step to stop at, the choices, the answer and the step that
//! shows it, or `None` when the run no longer has what it asks about (the learner changed the
//! settings so that, say, nothing is ever retried).

use super::broker::Verdict;
use super::engine::{Sim, StepKind, StepRecord};
use super::{EventId, Input};
use crate::sim::lesson::{self, NotPosed, Pose, Posed};

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

impl Question {
    /// Poses the question against a whole run: its steps and its end.
    pub fn pose(&self, records: &[StepRecord], end: &Sim) -> Result<Posed<Choice>, NotPosed> {
        let (ask_at, choices, answer, shows_at) = match self.ask {
            Ask::RetryVerdict => retry_verdict(records),
            Ask::ZombieVerdict => zombie_verdict(records),
            Ask::ResendVerdict => resend_verdict(records),
            Ask::Applied(event) => applied(records, end, event),
        }
        .ok_or(NotPosed::NeverAsked)?;
        Ok(Posed::new(
            0,
            ask_at,
            offer(choices, answer),
            answer,
            shows_at,
        ))
    }
}

/// A whole run, as `Sim::run_all` returns it: its steps and its end.
impl Pose<(Vec<StepRecord>, Sim)> for Question {
    type Choice = Choice;
    type Column = ();

    fn pose(&self, (records, end): &(Vec<StepRecord>, Sim)) -> Result<Posed<Choice>, NotPosed> {
        Question::pose(self, records, end)
    }
}

/// Where the run stops, the choices, the right one, and the step (1-based) that shows it.
type Asked = (usize, Vec<Choice>, Choice, usize);

/// The choices with the right one among them: a changed run may answer with a verdict the
/// lesson did not offer (NOT_ENOUGH_REPLICAS, a fenced epoch), which then takes the last place.
fn offer(mut choices: Vec<Choice>, answer: Choice) -> Vec<Choice> {
    if !choices.contains(&answer) {
        if choices.len() >= lesson::MAX_CHOICES {
            choices.pop();
        }
        choices.push(answer);
    }
    choices
}

/// The verdicts a request can meet, as choices.
const VERDICTS: [Choice; 3] = [Choice::Appended, Choice::Duplicate, Choice::OutOfOrder];

/// What the broker does with the first retried request.
fn retry_verdict(records: &[StepRecord]) -> Option<Asked> {
    let j = records
        .iter()
        .position(|r| matches!(r.kind, StepKind::Arrived { attempt, .. } if attempt >= 2))?;
    let StepKind::Arrived { verdict, .. } = records[j].kind else {
        return None;
    };
    Some((j, VERDICTS.to_vec(), Choice::of(verdict), j + 1))
}

/// What the broker does with the first request of the woken-up zombie (an instance older than
/// the latest restart).
fn zombie_verdict(records: &[StepRecord]) -> Option<Asked> {
    let mut latest = 0;
    let mut woke = None;
    for (j, r) in records.iter().enumerate() {
        match r.kind {
            StepKind::Input(Input::Restart) => latest += 1,
            StepKind::Input(Input::WakeZombie) if woke.is_none() => woke = Some(j),
            StepKind::Arrived { inst, verdict, .. } if woke.is_some() && inst < latest => {
                let mut choices = VERDICTS.to_vec();
                choices.push(Choice::InvalidEpoch);
                return Some((woke.unwrap_or(j), choices, Choice::of(verdict), j + 1));
            }
            _ => {}
        }
    }
    None
}

/// What the broker does with the first request of an event published again after the
/// producer failed it at its delivery timeout (asked when it fails).
fn resend_verdict(records: &[StepRecord]) -> Option<Asked> {
    let (j, event) = records.iter().enumerate().find_map(|(j, r)| match r.kind {
        StepKind::Expired { event, .. } => Some((j, event)),
        _ => None,
    })?;
    let (k, verdict) = records
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
    Some((j + 1, VERDICTS.to_vec(), Choice::of(verdict), k + 1))
}

/// How many times the consumer applies `event` in the whole run (asked before the first
/// restart).
fn applied(records: &[StepRecord], end: &Sim, event: EventId) -> Option<Asked> {
    let restart = records
        .iter()
        .position(|r| matches!(r.kind, StepKind::Input(Input::Restart)))?;
    let shows = records
        .iter()
        .rposition(|r| matches!(r.kind, StepKind::Consumed { event: e, .. } if e == event))?;
    let times = end.consumer.times(event);
    let mut choices: Vec<Choice> = (1..=3).map(Choice::Times).collect();
    if times == 0 || times > 3 {
        choices.push(Choice::Times(times));
    }
    Some((restart, choices, Choice::Times(times), shows + 1))
}
