//! Kafka's idempotent producer, as a model of its own (`idempotency_playground::kafka::*`): a
//! producer (idempotence on or off, `max.in.flight.requests.per.connection` 1–10, `retries`,
//! `acks=all`, a producer id and epoch, a sequence number per batch), one broker with one
//! partition log and, per producer id, the metadata of the last 5 batches, a transaction
//! coordinator for the one `transactional.id`, a faulty network (a request or an ack lost, a
//! request delayed), crashes, restarts and zombies, the outbox relay or a log-based relay above
//! the producer, and the consumer with or without an inbox.
//!
//! Sans I/O and deterministic: a [`KafkaScenario`] (settings, timed inputs, a seed for the
//! network's jitter) fully decides a run; [`Sim`] steps it one event at a time and checks the
//! invariants after every step; going back is replaying from the start ([`Sim::replay`]).
//!
//! The children, in the order they build on each other: `broker.rs` (the append rules, each
//! citing the Kafka code it follows), `producer.rs` (one producer instance: batches, the
//! in-flight window, retries in sequence order, reactions to the broker's answers),
//! `pipeline.rs` (the relays and the consumer), `invariants.rs`, `engine.rs` ([`Sim`]: the event
//! queue that runs them), `question.rs` (predict-then-reveal, computed on the run),
//! `builtin.rs` (the lessons and challenges as data), `transfer.rs` (a third of the lessons'
//! second question, on a variation of their run), `json.rs` (the scenario's JSON).

mod broker;
mod builtin;
mod engine;
mod invariants;
mod json;
mod pipeline;
mod producer;
mod question;
mod transfer;

pub use broker::{
    BatchMeta, Broker, LogRecord, ProduceBatch, ProducerEntry, Verdict, MAX_EPOCH,
    NUM_BATCHES_TO_RETAIN, SEQ_MASK,
};
pub use builtin::{
    challenge, challenge_ids, lesson, Challenge, ChallengeGoal, Lesson, CHALLENGE_IDS, LESSON_IDS,
};
pub use engine::{Closed, Fate, Halt, Sent, Sim, StepKind, StepRecord, Wire};
pub use invariants::{Invariant, Violations};
pub use json::{from_json, from_json_versioned, to_json, KafkaJsonError, KAFKA_SCENARIO_VERSION};
pub use pipeline::{Consumer, Relay, RelayKind};
pub use producer::{
    Answer, Batch, BatchStatus, Bump, FailReason, Instance, InstanceState, Reaction, Request,
};
pub use question::{Ask, Belief, Choice, Question};
pub use transfer::{transfer, Transfer, Variation, Varied, TRANSFER_IDS};

/// A producer id, as the broker hands them out (from 1).
pub type Pid = u32;
/// A producer epoch.
pub type Epoch = u16;
/// A sequence number (one per batch here: each batch holds one record).
pub type Seq = u32;
/// An event of the outbox (its id; the record's payload): numbered in the order the service
/// wrote them, which is the order the application sends them.
pub type EventId = u32;

/// One-way latency of a message, in simulated ms.
pub const LATENCY_MS: u64 = 10;
/// How long the producer waits for an answer before it retries (`request.timeout.ms`, scaled
/// down to the simulation's milliseconds).
pub const REQUEST_TIMEOUT_MS: u64 = 60;
/// The log-based relay commits its read position once the acknowledged prefix is this many
/// events past the last commit (Debezium commits offsets periodically, every
/// `offset.flush.interval.ms`, not after every event; see `pipeline.rs`).
pub const LOG_COMMIT_EVERY: u32 = 3;

/// The producer's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// `enable.idempotence`: batches carry the producer id, epoch and a sequence number.
    pub idempotence: bool,
    /// `max.in.flight.requests.per.connection`, 1–10 (Kafka accepts at most 5 with idempotence).
    pub max_in_flight: u8,
    /// `retries`: how many times one batch is sent again, 0–10.
    pub retries: u8,
    /// Whether the producer has a `transactional.id` (restarts keep the producer id and bump the
    /// epoch; the old instance is fenced).
    pub transactional_id: bool,
    /// The relay above the producer.
    pub relay: RelayKind,
    /// Whether the consumer keeps an inbox of the event ids it applied.
    pub inbox: bool,
    /// Random extra latency per message, 0..=jitter ms, drawn from the scenario's seed.
    pub jitter_ms: u32,
    /// `delivery.timeout.ms`: a batch not acknowledged this long after `send()` fails
    /// (`None`: no such bound, only `retries`).
    pub delivery_timeout_ms: Option<u32>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            idempotence: true,
            max_in_flight: 5,
            retries: 3,
            transactional_id: false,
            relay: RelayKind::Outbox,
            inbox: false,
            jitter_ms: 0,
            delivery_timeout_ms: None,
        }
    }
}

/// Why Kafka's own producer would refuse these settings (`ProducerConfig`
/// `postProcessAndValidateIdempotenceConfigs`, apache/kafka
/// clients/src/main/java/org/apache/kafka/clients/producer/ProducerConfig.java): the playground
/// runs them anyway, to show why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfigRefusal {
    /// Idempotence with more than 5 in flight: "Must set max.in.flight.requests.per.connection
    /// to at most 5 to use the idempotent producer" (an error when idempotence is set
    /// explicitly; from Kafka 4.0 whenever it is on).
    MaxInFlightOver5,
    /// Idempotence with `retries=0`: "Must set retries to non-zero when using the idempotent
    /// producer".
    RetriesZero,
    /// A `transactional.id` without idempotence: "Cannot set a transactional.id without also
    /// enabling idempotence".
    TransactionalWithoutIdempotence,
    /// `delivery.timeout.ms` shorter than `request.timeout.ms` (`KafkaProducer
    /// .configureDeliveryTimeout`: "delivery.timeout.ms should be equal to or larger than
    /// linger.ms + request.timeout.ms").
    DeliveryTimeoutBelowRequestTimeout,
}

impl Config {
    /// What Kafka's producer would say of these settings; `None` when it accepts them.
    pub fn refusal(&self) -> Option<ConfigRefusal> {
        if self.transactional_id && !self.idempotence {
            return Some(ConfigRefusal::TransactionalWithoutIdempotence);
        }
        if self
            .delivery_timeout_ms
            .is_some_and(|d| u64::from(d) < REQUEST_TIMEOUT_MS)
        {
            return Some(ConfigRefusal::DeliveryTimeoutBelowRequestTimeout);
        }
        if !self.idempotence {
            return None;
        }
        if usize::from(self.max_in_flight) > NUM_BATCHES_TO_RETAIN {
            return Some(ConfigRefusal::MaxInFlightOver5);
        }
        if self.retries == 0 {
            return Some(ConfigRefusal::RetriesZero);
        }
        None
    }
}

/// What the learner (or a lesson) does, at a simulated time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// The service writes `count` events to its outbox (1–10); the relay publishes them.
    Send {
        /// How many events.
        count: u8,
    },
    /// The next produce request sent is lost on the way to the broker.
    LoseNextRequest,
    /// The broker's answer to the next request that reaches it is lost on the way back.
    LoseNextAck,
    /// The next produce request sent takes `ms` longer. The requests after it on the same
    /// connection wait behind it (one connection keeps its order); if the producer times out
    /// first, it retries while the slow request may still be written.
    DelayNextRequest {
        /// Extra delay in simulated ms.
        ms: u32,
    },
    /// The broker answers the next request that reaches it `NOT_ENOUGH_REPLICAS` (a follower
    /// fell behind and `acks=all` cannot be met): nothing appended, the producer may retry.
    RefuseNextRequest,
    /// The broker forgets every producer's state, as it does for a producer idle longer than
    /// `producer.id.expiration.ms` (a day by default; the page compresses the wait).
    ExpireProducers,
    /// The relay's process stops (a crash, or a long pause: it may wake up later as a zombie).
    Crash,
    /// A new relay process and producer instance start.
    Restart,
    /// The crashed process wakes up and carries on where it was: a zombie.
    WakeZombie,
}

impl Input {
    /// Every kind, for the JSON reader and the page's buttons.
    pub const KINDS: [&'static str; 9] = [
        "send",
        "lose-next-request",
        "lose-next-ack",
        "delay-next-request",
        "refuse-next-request",
        "expire-producers",
        "crash",
        "restart",
        "wake-zombie",
    ];

    /// The input's name in the JSON.
    pub fn id(self) -> &'static str {
        match self {
            Input::Send { .. } => "send",
            Input::LoseNextRequest => "lose-next-request",
            Input::LoseNextAck => "lose-next-ack",
            Input::DelayNextRequest { .. } => "delay-next-request",
            Input::RefuseNextRequest => "refuse-next-request",
            Input::ExpireProducers => "expire-producers",
            Input::Crash => "crash",
            Input::Restart => "restart",
            Input::WakeZombie => "wake-zombie",
        }
    }
}

/// An input at a simulated time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedInput {
    /// When, in simulated ms from the start.
    pub at_ms: u64,
    /// What.
    pub input: Input,
}

/// A run as data: settings, the seed of the network's jitter, and the inputs in time order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KafkaScenario {
    /// The settings.
    pub config: Config,
    /// The seed of the jitter.
    pub seed: u64,
    /// The inputs, by time (equal times in the order given).
    pub inputs: Vec<TimedInput>,
}

impl KafkaScenario {
    /// The default sandbox: the default settings and no input.
    pub fn empty() -> Self {
        KafkaScenario {
            config: Config::default(),
            seed: 0,
            inputs: Vec::new(),
        }
    }

    /// How many events the inputs write in all.
    pub fn events_written(&self) -> u32 {
        self.inputs
            .iter()
            .map(|t| match t.input {
                Input::Send { count } => u32::from(count),
                _ => 0,
            })
            .sum()
    }

    /// Checks every limit (the JSON reader and the page's controls both call it).
    pub fn check(&self) -> Result<(), KafkaLimit> {
        use crate::sim::limits::*;
        let c = &self.config;
        if !(KAFKA_MIN_IN_FLIGHT..=KAFKA_MAX_IN_FLIGHT).contains(&c.max_in_flight) {
            return Err(KafkaLimit::MaxInFlight(c.max_in_flight));
        }
        if c.retries > KAFKA_MAX_RETRIES {
            return Err(KafkaLimit::Retries(c.retries));
        }
        if c.jitter_ms > KAFKA_MAX_JITTER_MS {
            return Err(KafkaLimit::Jitter(c.jitter_ms));
        }
        if let Some(d) = c.delivery_timeout_ms {
            if !(1..=KAFKA_MAX_DELIVERY_TIMEOUT_MS).contains(&d) {
                return Err(KafkaLimit::DeliveryTimeout(d));
            }
        }
        if self.inputs.len() > KAFKA_MAX_INPUTS {
            return Err(KafkaLimit::Inputs(self.inputs.len()));
        }
        let mut last = 0;
        for (i, t) in self.inputs.iter().enumerate() {
            if t.at_ms > KAFKA_MAX_AT_MS {
                return Err(KafkaLimit::At(i, t.at_ms));
            }
            if t.at_ms < last {
                return Err(KafkaLimit::Unordered(i));
            }
            last = t.at_ms;
            match t.input {
                Input::Send { count } if !(1..=KAFKA_MAX_SEND).contains(&count) => {
                    return Err(KafkaLimit::SendCount(i, count));
                }
                Input::DelayNextRequest { ms } if !(1..=KAFKA_MAX_DELAY_MS).contains(&ms) => {
                    return Err(KafkaLimit::Delay(i, ms));
                }
                _ => {}
            }
        }
        if self.events_written() > KAFKA_MAX_EVENTS {
            return Err(KafkaLimit::Events(self.events_written()));
        }
        Ok(())
    }
}

/// A limit a scenario breaks (the limits are in `limits.rs`); the index is the input's, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KafkaLimit {
    /// `max_in_flight` outside 1..=10.
    MaxInFlight(u8),
    /// `retries` over 10.
    Retries(u8),
    /// `jitter_ms` over its limit.
    Jitter(u32),
    /// `delivery_timeout_ms` outside 1..=its limit.
    DeliveryTimeout(u32),
    /// More inputs than the limit.
    Inputs(usize),
    /// An input's time over the limit.
    At(usize, u64),
    /// An input earlier than the one before it.
    Unordered(usize),
    /// A `send` count outside 1..=10.
    SendCount(usize, u8),
    /// A delay outside 1..=limit ms.
    Delay(usize, u32),
    /// More events written in all than the limit.
    Events(u32),
}
