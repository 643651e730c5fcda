//! The Kafka page's lessons and challenges, as data. Their outcomes are whatever the model does
//! with them; `tests/kafka.rs` pins them.

use super::engine::Sim;
use super::invariants::Invariant;
use super::question::{Ask, Belief, Question};
use super::{Config, Input, KafkaScenario, TimedInput};

/// The lessons' ids, in the order of the lesson path (`#/scenario/<id>` on the Kafka page).
pub const LESSON_IDS: [&str; 6] = [
    "kafka-lost-ack",
    "kafka-in-flight",
    "kafka-forgotten",
    "kafka-delivery-timeout",
    "kafka-restart",
    "kafka-outbox",
];

/// The challenges' ids (`#/kafka/challenge/<id>`).
pub const CHALLENGE_IDS: [&str; 2] = ["kafka-duplicate", "kafka-reorder"];

/// A lesson: its scenario and its question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// Its id.
    pub id: &'static str,
    /// Where it starts.
    pub scenario: KafkaScenario,
    /// What it asks.
    pub question: Question,
}

/// What a challenge asks for, checked on the run at the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeGoal {
    /// An event twice in the log from one producer id, with idempotence on and no crash or
    /// restart.
    DuplicateInSession,
    /// Two events in the log out of send order, with idempotence on and at most 5 in flight.
    Reorder,
}

impl ChallengeGoal {
    /// Whether the run at this step has reached the goal.
    pub fn won(self, sim: &Sim) -> bool {
        let c = sim.config();
        match self {
            ChallengeGoal::DuplicateInSession => {
                c.idempotence
                    && !sim.scenario().inputs.iter().any(|t| {
                        matches!(t.input, Input::Crash | Input::Restart | Input::WakeZombie)
                    })
                    && sim
                        .violations
                        .broken_at(Invariant::NoDuplicateInSession)
                        .is_some()
            }
            ChallengeGoal::Reorder => {
                c.idempotence
                    && c.max_in_flight <= 5
                    && sim.violations.broken_at(Invariant::SendOrder).is_some()
            }
        }
    }

    /// Whether to tell the learner why a delayed request no longer reorders: the reorder
    /// challenge was once won by delaying the first request so that later ones overtook it,
    /// which Kafka cannot do (a connection's requests reach the broker and are handled in
    /// order), so a link made then opens a run that does not win.
    pub fn delay_note(self, scenario: &KafkaScenario) -> bool {
        self == ChallengeGoal::Reorder
            && scenario
                .inputs
                .iter()
                .any(|t| matches!(t.input, Input::DelayNextRequest { .. }))
    }

    /// Whether the challenge lets the learner crash, restart and wake the producer.
    pub fn allows_restarts(self) -> bool {
        self == ChallengeGoal::Reorder
    }
}

/// A challenge: where it starts, its goal, and one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its id.
    pub id: &'static str,
    /// Where it starts.
    pub scenario: KafkaScenario,
    /// What wins.
    pub goal: ChallengeGoal,
    /// A scenario that wins.
    pub solution: KafkaScenario,
}

fn at(at_ms: u64, input: Input) -> TimedInput {
    TimedInput { at_ms, input }
}

fn send(count: u8) -> Input {
    Input::Send { count }
}

fn scenario(config: Config, inputs: Vec<TimedInput>) -> KafkaScenario {
    KafkaScenario {
        config,
        seed: 0,
        inputs,
    }
}

/// The lesson `id`, if there is one.
pub fn lesson(id: &str) -> Option<Lesson> {
    let (scenario, ask) = lesson_start(id)?;
    let id = LESSON_IDS.into_iter().find(|l| *l == id)?;
    Some(Lesson {
        id,
        scenario,
        question: Question {
            ask,
            beliefs: beliefs(id),
        },
    })
}

/// The beliefs whose models give the lesson `id`'s wrong choices.
fn beliefs(id: &str) -> &'static [Belief] {
    use Belief as B;
    match id {
        "kafka-lost-ack" => &[B::RetryDeduplicated, B::RetriesAppended, B::RefusesCopy],
        "kafka-in-flight" => &[B::AnyInFlight, B::RetriesAppended],
        "kafka-forgotten" => &[B::RemembersForever, B::RefusesForgotten],
        "kafka-delivery-timeout" => &[B::ResendIsRetry, B::RefusesCopy],
        "kafka-restart" => &[B::RestartFences, B::RestartForgets, B::RefusesCopy],
        _ => &[B::ExactlyOnceEndToEnd, B::RetriesAppended],
    }
}

/// The lesson `id`'s scenario and what it asks, if there is one.
#[expect(
    clippy::too_many_lines,
    reason = "a table of data: one entry per lesson"
)]
fn lesson_start(id: &str) -> Option<(KafkaScenario, Ask)> {
    let base = Config::default();
    Some(match id {
        // An acknowledgement lost, the producer retries: without idempotence a second copy.
        "kafka-lost-ack" => (
            scenario(
                Config {
                    idempotence: false,
                    max_in_flight: 1,
                    ..base
                },
                vec![at(0, Input::LoseNextAck), at(0, send(3))],
            ),
            Ask::RetryVerdict,
        ),
        // Six in flight, the first acknowledgement lost: by the retry, five later batches have
        // pushed the first out of the broker's window.
        "kafka-in-flight" => (
            scenario(
                Config {
                    max_in_flight: 6,
                    ..base
                },
                vec![at(0, Input::LoseNextAck), at(0, send(6))],
            ),
            Ask::RetryVerdict,
        ),
        // A restart after a lost ack and a lost request, then the old process wakes up.
        // The ack of e0 is lost; before the producer's retry, the broker forgets the producer.
        "kafka-forgotten" => (
            scenario(
                Config {
                    max_in_flight: 1,
                    ..base
                },
                vec![
                    at(0, Input::LoseNextAck),
                    at(0, send(2)),
                    at(30, Input::ExpireProducers),
                ],
            ),
            Ask::RetryVerdict,
        ),
        // Every ack of e0 lost, retries to spare: delivery.timeout.ms fails it, and the relay's
        // new send of e0 is a new record to the broker.
        "kafka-delivery-timeout" => (
            scenario(
                Config {
                    retries: 10,
                    max_in_flight: 1,
                    delivery_timeout_ms: Some(200),
                    ..base
                },
                vec![
                    at(0, Input::LoseNextAck),
                    at(0, send(1)),
                    at(61, Input::LoseNextAck),
                    at(122, Input::LoseNextAck),
                    at(183, Input::LoseNextAck),
                ],
            ),
            Ask::ResendVerdict,
        ),
        "kafka-restart" => (
            scenario(
                Config { retries: 5, ..base },
                vec![
                    at(0, send(2)),
                    at(30, Input::LoseNextAck),
                    at(30, send(1)),
                    at(31, Input::LoseNextRequest),
                    at(31, send(1)),
                    at(45, Input::Crash),
                    at(50, Input::Restart),
                    at(150, Input::WakeZombie),
                ],
            ),
            Ask::ZombieVerdict,
        ),
        // The outbox relay through Kafka to a consumer: a lost ack within the session (the
        // broker removes the retry), then a lost ack and a relay restart (only an inbox helps).
        "kafka-outbox" => (
            scenario(
                base,
                vec![
                    at(0, Input::LoseNextAck),
                    at(0, send(3)),
                    at(100, send(2)),
                    at(130, Input::LoseNextAck),
                    at(130, send(1)),
                    at(150, Input::Crash),
                    at(160, Input::Restart),
                ],
            ),
            Ask::AppliedTwice,
        ),
        _ => return None,
    })
}

/// The challenge `id`, if there is one.
pub fn challenge(id: &str) -> Option<Challenge> {
    let base = Config::default();
    let (start, goal, solution) = match id {
        "kafka-duplicate" => (
            scenario(base, vec![at(0, send(3))]),
            ChallengeGoal::DuplicateInSession,
            scenario(
                Config {
                    max_in_flight: 6,
                    ..base
                },
                vec![at(0, send(3)), at(30, Input::LoseNextAck), at(30, send(6))],
            ),
        ),
        // Starts empty: the learner arranges the first request's fate before the first send.
        // (Until the fidelity fix a delayed first request overtook the later ones; one
        // connection keeps its order in Kafka, see `ChallengeGoal::delay_note`.)
        "kafka-reorder" => (
            scenario(base, Vec::new()),
            ChallengeGoal::Reorder,
            scenario(base, vec![at(0, Input::RefuseNextRequest), at(0, send(3))]),
        ),
        _ => return None,
    };
    let id = CHALLENGE_IDS.into_iter().find(|c| *c == id)?;
    Some(Challenge {
        id,
        scenario: start,
        goal,
        solution,
    })
}

/// Every challenge id, for tests and the page's list.
pub fn challenge_ids() -> &'static [&'static str] {
    &CHALLENGE_IDS
}
