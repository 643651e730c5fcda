//! A second question after some lessons: the same lesson with one thing changed, a variation
//! the learner has not seen run (the retry arrives 25 hours later; the shipping charge gets a
//! key of its own; the processor answers inside the lock). Whether the learner can carry what
//! the run showed to a case it did not show is what the lesson taught. The variation is a
//! change to the lesson's scenario; its answer and choices are measured on the varied run, as
//! a lesson's question is on its own, and the page can load that run once it is answered.

use crate::sim::lesson::{NotPosed, Posed};
use crate::sim::scenario::builtin::builtin;
use crate::sim::scenario::session::Session;
use crate::sim::scenario::Scenario;
use crate::sim::world::client::KeyStrategy;
use crate::sim::world::input::{Input, RequestSpec};
use crate::sim::world::server::ServiceKind;

use super::belief::{sort, Belief, Guess};
use super::measure::Measure;
use super::question::{pose_column, Ask};
use crate::sim::lesson::MAX_CHOICES;

/// What a lesson's variation changes in its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variation {
    /// The learner's retry carries a new key instead of the same one.
    RetryWithNewKey,
    /// The client mints a new key for every try of an operation.
    NewKeyPerTry,
    /// The client keeps one key for every try of an operation.
    OneKeyPerOperation,
    /// The second request is sent with the first one's key (a key reused for another order).
    SecondReusesFirstKey,
    /// The second request gets a key of its own.
    SecondGetsOwnKey,
    /// The wait before the last request becomes 25 hours.
    LastArrives25HoursLater,
    /// Requests sent together are sent one after the other, a second apart.
    OneAfterAnother,
    /// The card processor answers a slow call in 60 s, inside the key's 90 s lock.
    ProcessorInsideTheLock,
}

/// A lesson's variation question: which column and measure it asks about, on which change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The lesson (its built-in scenario id).
    pub lesson: &'static str,
    /// The change.
    pub variation: Variation,
    /// The column asked about, in the lesson's scenario as written.
    pub column: usize,
    /// What is asked.
    pub measure: Measure,
}

/// The variation question of a built-in lesson, if it has one (a third of them do).
pub fn transfer(lesson: &str) -> Option<Transfer> {
    use Measure::*;
    use Variation::*;
    let t = |lesson, variation, column, measure| Transfer {
        lesson,
        variation,
        column,
        measure,
    };
    Some(match lesson {
        "the-header" => t("the-header", RetryWithNewKey, 0, Charges),
        "key-replays" => t("key-replays", NewKeyPerTry, 1, Charges),
        "distinct-keys" => t("distinct-keys", SecondReusesFirstKey, 0, Charges),
        "concurrent-same-key" => t("concurrent-same-key", OneAfterAnother, 0, Charges),
        "stripe-in-flight" => t("stripe-in-flight", LastArrives25HoursLater, 0, Charges),
        "order-id-as-key" => t("order-id-as-key", SecondGetsOwnKey, 0, Charges),
        "new-key-per-retry" => t("new-key-per-retry", OneKeyPerOperation, 0, Charges),
        "slow-processor" => t("slow-processor", ProcessorInsideTheLock, 0, Charges),
        _ => return None,
    })
}

/// One second, and 25 hours, in ms.
const SECOND_MS: u64 = 1_000;
const HOURS_25_MS: u64 = 25 * 3_600 * SECOND_MS;

impl Variation {
    /// `s` with this change made.
    pub fn apply(self, mut s: Scenario) -> Scenario {
        let inputs = std::mem::take(&mut s.inputs);
        for (i, input) in inputs.into_iter().enumerate() {
            match (self, input) {
                (Variation::OneAfterAnother, Input::Parallel { requests, .. }) => {
                    one_after_another(&mut s.inputs, requests);
                }
                (_, input) => s.inputs.push(self.change(i, input)),
            }
        }
        if self == Variation::LastArrives25HoursLater {
            if let Some(Input::AdvanceTime { ms }) = s
                .inputs
                .iter_mut()
                .rev()
                .find(|i| matches!(i, Input::AdvanceTime { .. }))
            {
                *ms = HOURS_25_MS;
            }
        }
        if self == Variation::ProcessorInsideTheLock {
            s.downstream.slow_ms = 60 * SECOND_MS;
        }
        s
    }

    /// The `i`-th input with this change made.
    fn change(self, i: usize, mut input: Input) -> Input {
        match (self, &mut input) {
            (Variation::RetryWithNewKey, Input::Retry { new_key, .. }) => *new_key = true,
            (Variation::NewKeyPerTry, Input::Operation { key_strategy, .. }) => {
                *key_strategy = KeyStrategy::NewPerRetry;
            }
            (Variation::OneKeyPerOperation, Input::Operation { key_strategy, .. }) => {
                *key_strategy = KeyStrategy::Reuse;
            }
            (Variation::SecondReusesFirstKey, Input::Request { key, .. }) if i == 1 => {
                *key = Some("key-1".to_string());
            }
            (Variation::SecondGetsOwnKey, Input::Request { key, .. }) if i == 1 => {
                *key = Some("order-1-shipping".to_string());
            }
            _ => {}
        }
        input
    }
}

/// Requests sent together become requests sent one a second after the other.
fn one_after_another(out: &mut Vec<Input>, requests: Vec<RequestSpec>) {
    for (i, r) in requests.into_iter().enumerate() {
        if i > 0 {
            out.push(Input::AdvanceTime { ms: SECOND_MS });
        }
        out.push(Input::Request {
            key: r.key,
            key_format: r.key_format,
            amount: r.amount,
            description: r.description,
            fault: r.fault,
        });
    }
}

impl Transfer {
    /// The lesson's run as written with the change made, and the question posed on it (asked
    /// before the first step: the learner predicts the whole varied run).
    pub fn pose(&self) -> Result<(Scenario, Posed<Guess>), NotPosed<ServiceKind>> {
        let written = builtin(self.lesson).ok_or(NotPosed::NeverAsked)?;
        let varied = self.variation.apply(written);
        let session = Session::new(varied.clone()).map_err(|_| NotPosed::NeverAsked)?;
        let mut posed = pose_column(self.measure, Ask::Start, &session, self.column)?;
        // The first belief a variation meets: "it changes nothing", the lesson's own answer.
        let lesson = Session::new(builtin(self.lesson).ok_or(NotPosed::NeverAsked)?)
            .map_err(|_| NotPosed::NeverAsked)?;
        let seen = lesson.finished(self.column).map(|w| self.measure.of(w));
        if let Some(value) = seen.filter(|v| posed.choices.iter().all(|g| g.value != *v)) {
            let right = posed.answer_value();
            if posed.choices.len() == MAX_CHOICES {
                // The likeliest beliefs come first: the last offered gives its place.
                let last = posed.choices.iter().rposition(|g| g.belief.is_some());
                if let Some(i) = last {
                    posed.choices.remove(i);
                }
            }
            posed.choices.push(Guess {
                value,
                belief: Some(Belief::AsInTheLesson),
            });
            sort(self.measure, &mut posed.choices);
            posed.answer = posed.choices.iter().position(|g| *g == right).unwrap_or(0);
        }
        Ok((varied, posed))
    }
}
