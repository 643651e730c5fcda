//! The wrong choices of a lesson's question, each a belief developers really hold, and each
//! computed by running the lesson's own inputs under that belief's model: "nothing more happens
//! after this moment" is the run stopped at the question, "the key changes nothing" is the same
//! inputs run by the naive service, "committing first is as safe as an outbox" is the same
//! inputs with an outbox. No wrong choice is typed in: a belief whose model predicts the right
//! answer, or a value another belief already offered, is not offered.

use crate::sim::lesson::{Value, MAX_CHOICES};
use crate::sim::scenario::session::Session;
use crate::sim::world::outbox::EmitMode;
use crate::sim::world::server::ServiceKind;
use crate::sim::world::trace::EventKind;
use crate::sim::world::{World, WorldConfig};

use super::measure::Measure;

/// A misconception, named by the model that computes what it predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Belief {
    /// "What has happened when the question is asked is all that will happen": the measure at
    /// the question (a timeout ends the story; a lost reply means the work stopped).
    NothingMore,
    /// "A request that timed out or failed changed nothing": the measure before the first step.
    NothingHappened,
    /// "Every try the client sends is charged": the number of sends (for a count of charges).
    EveryTryCharges,
    /// "A key the server has seen before is refused": the number of sends whose key an earlier
    /// send carried (for a count of 409 answers: idempotency taken for duplicate rejection).
    RepeatsRefused,
    /// "The service asked about behaves like this one": the same inputs run by this service
    /// (the naive one: "the key changes nothing"; the atomic one: "checking the key is
    /// enough"; the production one: "the server catches this for me").
    LikeService(ServiceKind),
    /// The same belief of a service the page does not show (the learner may not have met it):
    /// its words hold the belief alone, without the name of the model that computes it.
    Unseen(ServiceKind),
    /// "Sending an Idempotency-Key is enough": the same inputs run by the atomic service, offered
    /// where the service asked about keeps no keys (the naive one), in place of "checking the
    /// key is enough", which there would name a check that service never makes.
    KeyAlone,
    /// "This wiring of events behaves like that one": the same inputs with this emit mode.
    LikeWiring(EmitMode),
    /// "The broker delivers each event exactly once": the same inputs with a consumer that
    /// keeps an inbox of the events it has applied.
    DeliveredOnce,
    /// "This change makes no difference": the lesson's own run, without the variation (for a
    /// variation question; see `transfer.rs`, which runs it).
    AsInTheLesson,
}

impl Belief {
    /// Every belief, in a fixed order: a one-language page reads a belief's words from its words
    /// file under its place here (`ui::text::teach::belief_text`).
    pub const ALL: [Belief; 22] = [
        Belief::NothingMore,
        Belief::NothingHappened,
        Belief::EveryTryCharges,
        Belief::RepeatsRefused,
        Belief::LikeService(ServiceKind::Naive),
        Belief::LikeService(ServiceKind::Atomic),
        Belief::LikeService(ServiceKind::Production),
        Belief::LikeService(ServiceKind::Idempotent),
        Belief::LikeService(ServiceKind::TocTou),
        Belief::LikeService(ServiceKind::SplitStore),
        Belief::Unseen(ServiceKind::Naive),
        Belief::Unseen(ServiceKind::Atomic),
        Belief::Unseen(ServiceKind::Production),
        Belief::Unseen(ServiceKind::Idempotent),
        Belief::Unseen(ServiceKind::TocTou),
        Belief::Unseen(ServiceKind::SplitStore),
        Belief::KeyAlone,
        Belief::LikeWiring(EmitMode::Outbox),
        Belief::LikeWiring(EmitMode::DualWritePublishThenCommit),
        Belief::LikeWiring(EmitMode::DualWriteCommitThenPublish),
        Belief::DeliveredOnce,
        Belief::AsInTheLesson,
    ];
}

/// One choice of a payments question: a value, and the belief that predicts it (`None` for
/// the run's own answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Guess {
    /// The value shown on the choice's button.
    pub value: Value,
    /// The belief whose model gives this value; `None` for the right one.
    pub belief: Option<Belief>,
}

/// The services a belief may compare with, in the order a learner is likeliest to hold them:
/// "the key changes nothing", then "checking the key is enough", then "the server catches it".
const LIKE: [ServiceKind; 6] = [
    ServiceKind::Naive,
    ServiceKind::Atomic,
    ServiceKind::Production,
    ServiceKind::Idempotent,
    ServiceKind::TocTou,
    ServiceKind::SplitStore,
];

/// The wirings a belief may compare with.
const WIRINGS: [EmitMode; 3] = [
    EmitMode::Outbox,
    EmitMode::DualWritePublishThenCommit,
    EmitMode::DualWriteCommitThenPublish,
];

impl Belief {
    /// What this belief predicts for `measure` on `world`'s run (the finished world of the
    /// question's column), asked at step `ask_at`; `None` where the belief says nothing (an
    /// amount for "every try charges", the column's own service or wiring).
    pub fn predicts(self, measure: Measure, world: &World, ask_at: usize) -> Option<Value> {
        let config = *world.config();
        let rerun = |c: WorldConfig| world.replay_as(c).ok().map(|w| measure.of(&w));
        match self {
            Belief::NothingMore => world.rewind(ask_at).ok().map(|w| measure.of(&w)),
            Belief::NothingHappened => world.rewind(0).ok().map(|w| measure.of(&w)),
            // Every send of the key sent most (for a count of one key's charges), or every send.
            Belief::EveryTryCharges => measure.counts_charges().then(|| {
                let sends = sends_per_key(world).into_iter();
                Value::Int(if measure == Measure::Charges {
                    sends.sum()
                } else {
                    sends.max().unwrap_or(0)
                })
            }),
            // Every send after the first of its key.
            Belief::RepeatsRefused => (measure == Measure::Conflicts)
                .then(|| Value::Int(sends_per_key(world).into_iter().map(|n| n - 1).sum())),
            Belief::LikeService(service) | Belief::Unseen(service) if service != config.service => {
                rerun(WorldConfig { service, ..config })
            }
            // One model with "checking the key is enough": only its words differ.
            Belief::KeyAlone if config.service == ServiceKind::Naive => {
                Belief::LikeService(ServiceKind::Atomic).predicts(measure, world, ask_at)
            }
            Belief::LikeWiring(emit) if emit != config.emit && config.emit != EmitMode::None => {
                rerun(WorldConfig { emit, ..config })
            }
            Belief::DeliveredOnce if !config.consumer_dedupes && config.emit != EmitMode::None => {
                rerun(WorldConfig {
                    consumer_dedupes: true,
                    ..config
                })
            }
            Belief::LikeService(_)
            | Belief::Unseen(_)
            | Belief::KeyAlone
            | Belief::LikeWiring(_)
            | Belief::DeliveredOnce
            | Belief::AsInTheLesson => None,
        }
    }
}

/// How many times the client sent each key, in the order the keys were first sent.
fn sends_per_key(world: &World) -> Vec<i64> {
    let mut sends: Vec<(_, i64)> = Vec::new();
    for e in world.trace() {
        if let EventKind::ClientSend { key, .. } = e.kind {
            match sends.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => sends.push((key, 1)),
            }
        }
    }
    sends.into_iter().map(|(_, n)| n).collect()
}

/// Every belief a question may offer, likeliest first: exactly-once delivery and the other
/// wirings (a question about events is about its delivery and its wiring), the other services
/// (those `on_page` first, by name; then the others, unnamed), the moment of the question, every
/// try, and nothing at all.
fn candidates(asked_at_start: bool, on_page: &[ServiceKind]) -> impl Iterator<Item = Belief> + '_ {
    let at_question = (!asked_at_start).then_some(Belief::NothingMore);
    let seen = LIKE.into_iter().filter(|s| on_page.contains(s));
    // Unseen, "the server catches this for me" loses the model that gives its number: one who
    // holds it predicts no duplicate at all, so the production service's own slip would read as
    // that belief's prediction (2.2's 800). Named on the page, it shows that even it slips.
    let unseen = LIKE
        .into_iter()
        .filter(|s| !on_page.contains(s) && *s != ServiceKind::Production);
    [Belief::DeliveredOnce]
        .into_iter()
        .chain(WIRINGS.into_iter().map(Belief::LikeWiring))
        .chain(seen.map(Belief::LikeService))
        .chain(unseen.map(Belief::Unseen))
        .chain(at_question)
        .chain([
            Belief::RepeatsRefused,
            Belief::EveryTryCharges,
            Belief::NothingHappened,
        ])
}

/// The choices of a question whose right answer is `answer`: up to three wrong values, each
/// the prediction of the likeliest belief that predicts it, and the answer; amounts from high
/// to low, counts and yes/no from low to high.
pub fn guesses(
    measure: Measure,
    answer: Value,
    session: &Session,
    column: usize,
    ask_at: usize,
) -> Vec<Guess> {
    let mut out = vec![Guess {
        value: answer,
        belief: None,
    }];
    if let Some(world) = session.finished(column) {
        // Of a service that keeps no keys, "checking the key is enough" is "the key alone is".
        let naive = world.config().service == ServiceKind::Naive;
        let relabel = |b| match b {
            Belief::LikeService(ServiceKind::Atomic) if naive => Belief::KeyAlone,
            b => b,
        };
        let on_page: Vec<ServiceKind> = (0..)
            .map_while(|c| session.finished(c))
            .map(|w| w.config().service)
            .collect();
        for belief in candidates(ask_at == 0, &on_page).map(relabel) {
            if out.len() == MAX_CHOICES {
                break;
            }
            let Some(value) = belief.predicts(measure, world, ask_at) else {
                continue;
            };
            let sensible = !matches!(value, Value::Int(n) if n < 0);
            if sensible && out.iter().all(|g| g.value != value) {
                out.push(Guess {
                    value,
                    belief: Some(belief),
                });
            }
        }
    }
    sort(measure, &mut out);
    out
}

/// Amounts from high to low, counts and yes/no from low to high: an insertion sort of four.
pub(super) fn sort(measure: Measure, guesses: &mut [Guess]) {
    let key = |g: &Guess| match g.value {
        Value::Int(n) if measure.is_count() => n,
        Value::Int(n) => -n,
        Value::Bool(b) => i64::from(b),
    };
    for i in 1..guesses.len() {
        let mut j = i;
        while j > 0 && key(&guesses[j - 1]) > key(&guesses[j]) {
            guesses.swap(j - 1, j);
            j -= 1;
        }
    }
}
