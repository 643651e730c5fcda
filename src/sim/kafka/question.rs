//! Predict-then-reveal, computed on the run: a [`Question`] names what it asks about; posed
//! against a run's steps it gives the step to stop at, the choices, the answer and the step that
//! shows it, or `None` when the run no longer has what it asks about (the learner changed the
//! settings so that, say, nothing is ever retried).

use super::broker::Verdict;
use super::engine::{Sim, StepKind, StepRecord};
use super::{EventId, Input, KafkaScenario, TimedInput};
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
    /// How many events the consumer applies more than once in the whole run (asked before the
    /// first restart).
    AppliedTwice,
}

/// A lesson's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// What it asks.
    pub ask: Ask,
    /// The beliefs that give the wrong choices, in the order they name a choice.
    pub beliefs: &'static [Belief],
}

/// A belief a developer may hold about Kafka's producer, each predicting a wrong choice. Where
/// the belief can be modelled, the core runs the lesson's inputs under it ([`Belief::model`])
/// and the choice is the answer that run gives; a belief no setting of the model can express
/// names its choice itself ([`Belief::fixed`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Belief {
    /// The producer's retry is deduplicated without `enable.idempotence`. Model: idempotence on.
    RetryDeduplicated,
    /// The producer's own retries reach the log as copies. Model: idempotence off.
    RetriesAppended,
    /// Idempotence removes every retry's copy, however many requests are in flight. Model: 5 in
    /// flight, Kafka's most with idempotence.
    AnyInFlight,
    /// The broker remembers a producer for ever. Model: the broker never expires it.
    RemembersForever,
    /// A new producer instance makes the broker forget the old one. Model: the broker expires
    /// the producers when the new instance starts.
    RestartForgets,
    /// A restart fences the old instance, `transactional.id` or not. Model: a
    /// `transactional.id`.
    RestartFences,
    /// The relay's new `send()` is the producer's own retry. Model: the verdict the producer's
    /// first retry got in this run.
    ResendIsRetry,
    /// The broker refuses a record it has already written (no setting gives it).
    RefusesCopy,
    /// The broker refuses a producer it has forgotten (no setting gives it here: Kafka accepts
    /// any sequence from a producer it has no state for).
    RefusesForgotten,
    /// The idempotent producer makes the whole pipeline exactly-once, a relay's restart
    /// included. Model: the relay never crashes.
    ExactlyOnceEndToEnd,
    /// A variation's change changes nothing: the broker does what it did in the lesson. Its
    /// choice is the lesson's own answer, on the lesson's run (`transfer.rs`).
    AsInTheLesson,
}

impl Belief {
    /// `scenario` under the belief; `None` when the belief changes nothing here or has no model.
    pub fn model(self, scenario: &KafkaScenario) -> Option<KafkaScenario> {
        let mut m = scenario.clone();
        let c = &mut m.config;
        match self {
            Belief::RetryDeduplicated => c.idempotence = true,
            Belief::RetriesAppended => c.idempotence = false,
            Belief::AnyInFlight => c.max_in_flight = c.max_in_flight.min(5),
            Belief::RemembersForever => m.inputs.retain(|t| t.input != Input::ExpireProducers),
            Belief::RestartForgets => {
                let i = m.inputs.iter().position(|t| t.input == Input::Restart)?;
                let at_ms = m.inputs[i].at_ms;
                let expire = TimedInput {
                    at_ms,
                    input: Input::ExpireProducers,
                };
                m.inputs.insert(i, expire);
            }
            Belief::RestartFences => c.transactional_id = true,
            Belief::ExactlyOnceEndToEnd => m
                .inputs
                .retain(|t| !matches!(t.input, Input::Crash | Input::Restart | Input::WakeZombie)),
            Belief::ResendIsRetry
            | Belief::RefusesCopy
            | Belief::RefusesForgotten
            | Belief::AsInTheLesson => return None,
        }
        (m != *scenario).then_some(m)
    }

    /// The choice of a belief that names it itself.
    pub fn fixed(self) -> Option<Choice> {
        match self {
            Belief::RefusesCopy | Belief::RefusesForgotten => Some(Choice::OutOfOrder),
            _ => None,
        }
    }

    /// The choice the belief predicts for `ask`, on the run `records` of `scenario`.
    fn predict(self, ask: Ask, scenario: &KafkaScenario, records: &[StepRecord]) -> Option<Choice> {
        if self == Belief::ResendIsRetry {
            return retry_verdict(records).map(|a| a.2);
        }
        if let Some(c) = self.fixed() {
            return Some(c);
        }
        let (records, end) = Sim::run_all(&self.model(scenario)?);
        match ask {
            // The count, whether or not the model's run restarts (where the question stops).
            Ask::Applied(event) => Some(Choice::Times(end.consumer.times(event))),
            Ask::AppliedTwice => Some(Choice::Events(twice(&end))),
            _ => asked(ask, &records, &end).map(|a| a.2),
        }
    }
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
    /// This many events.
    Events(u32),
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
        self.pose_with_beliefs(records, end).map(|(p, _)| p)
    }

    /// The question against a whole run and, for each choice, the belief that gives it (`None`
    /// for the right choice, and for a choice offered only to make three).
    pub fn pose_with_beliefs(
        &self,
        records: &[StepRecord],
        end: &Sim,
    ) -> Result<(Posed<Choice>, Vec<Option<Belief>>), NotPosed> {
        let (ask_at, usual, answer, shows_at) =
            asked(self.ask, records, end).ok_or(NotPosed::NeverAsked)?;
        let predicted: Vec<(Belief, Choice)> = self
            .beliefs
            .iter()
            .filter_map(|b| Some((*b, b.predict(self.ask, end.scenario(), records)?)))
            .collect();
        let mut choices = vec![answer];
        for c in predicted.iter().map(|p| p.1).chain(usual) {
            let room = if predicted.iter().any(|p| p.1 == c) {
                lesson::MAX_CHOICES
            } else {
                3
            };
            if choices.len() < room && !choices.contains(&c) {
                choices.push(c);
            }
        }
        // In `rank`'s order: an insertion sort of at most four (no sort routine in the wasm).
        for i in 1..choices.len() {
            let mut j = i;
            while j > 0 && rank(&choices[j - 1]) > rank(&choices[j]) {
                choices.swap(j - 1, j);
                j -= 1;
            }
        }
        let beliefs = choices
            .iter()
            .map(|c| {
                let b = predicted.iter().find(|(_, p)| p == c && *c != answer);
                b.map(|(b, _)| *b)
            })
            .collect();
        Ok((Posed::new(0, ask_at, choices, answer, shows_at), beliefs))
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

/// What `ask` finds in a run.
fn asked(ask: Ask, records: &[StepRecord], end: &Sim) -> Option<Asked> {
    match ask {
        Ask::RetryVerdict => retry_verdict(records),
        Ask::ZombieVerdict => zombie_verdict(records),
        Ask::ResendVerdict => resend_verdict(records),
        Ask::Applied(event) => applied(records, end, event),
        Ask::AppliedTwice => applied_twice(records, end),
    }
}

/// Where a choice stands among the others: the choices are shown in this order, so the right
/// one has no place of its own.
pub(super) fn rank(c: &Choice) -> u32 {
    match *c {
        Choice::Appended => 0,
        Choice::Duplicate => 1,
        Choice::OutOfOrder => 2,
        Choice::InvalidEpoch => 3,
        Choice::Fenced => 4,
        Choice::NotEnoughReplicas => 5,
        Choice::Times(n) | Choice::Events(n) => n,
    }
}

/// Where the run stops, the choices, the right one, and the step (1-based) that shows it.
type Asked = (usize, Vec<Choice>, Choice, usize);

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

/// How many of the events written the consumer applied more than once.
fn twice(end: &Sim) -> u32 {
    let n = end.scenario().events_written();
    (0..n)
        .filter(|e| end.consumer.times(*e) >= 2)
        .map(|_| 1)
        .sum()
}

/// How many events the consumer applies more than once in the whole run (asked before the first
/// restart); shown at the first second application.
fn applied_twice(records: &[StepRecord], end: &Sim) -> Option<Asked> {
    let restart = records
        .iter()
        .position(|r| matches!(r.kind, StepKind::Input(Input::Restart)))?;
    let mut seen = Vec::new();
    let second = records.iter().position(|r| match r.kind {
        StepKind::Consumed {
            event,
            applied: true,
            ..
        } => {
            let again = seen.contains(&event);
            seen.push(event);
            again
        }
        _ => false,
    });
    let last = records
        .iter()
        .rposition(|r| matches!(r.kind, StepKind::Consumed { .. }))?;
    let n = twice(end);
    let choices = (0..3).map(Choice::Events).collect();
    Some((
        restart,
        choices,
        Choice::Events(n),
        second.unwrap_or(last) + 1,
    ))
}
