//! A second question after some lessons: the same lesson with one thing changed, a variation
//! the learner has not seen run (the two requests come a second apart; the shipping charge gets
//! a key of its own; the processor answers inside the lock). No variation is a later lesson's
//! own case: a learner meets each case first where it is asked. Whether the learner can carry what
//! the run showed to a case it did not show is what the lesson taught. The variation is a
//! change to the lesson's scenario; its answer and choices are measured on the varied run, as
//! a lesson's question is on its own, and the page can load that run once it is answered.

use crate::sim::lesson::{NotPosed, Posed};
use crate::sim::scenario::builtin::builtin;
use crate::sim::scenario::session::Session;
use crate::sim::scenario::Scenario;
use crate::sim::world::client::KeyStrategy;
use crate::sim::world::fault::Fault;
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
    /// The client keeps one key for every try of an operation.
    OneKeyPerOperation,
    /// The second request gets a key of its own.
    SecondGetsOwnKey,
    /// Requests sent together are sent one after the other, a second apart.
    OneAfterAnother,
    /// The card processor answers a slow call in 60 s, inside the key's 90 s lock.
    ProcessorInsideTheLock,
    /// No deposit comes before the retry.
    NoDeposit,
    /// The key store holds two keys instead of one.
    StoreHoldsTwoKeys,
    /// The first try is refused by the card processor (a 503: nothing charged) instead of
    /// losing its reply.
    FirstTryRefused,
    /// The account holds 500 instead of 1,000: money for five charges of 100.
    MoneyForFive,
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
        "double-charge" => t("double-charge", FirstTryRefused, 0, Balance),
        "ten-threads" => t("ten-threads", MoneyForFive, 0, MostChargesForOneKey),
        "failure-cached" => t("failure-cached", NoDeposit, 2, Charges),
        "concurrent-same-key" => t("concurrent-same-key", OneAfterAnother, 0, Charges),
        "stripe-in-flight" => t("stripe-in-flight", OneAfterAnother, 0, Conflicts),
        "order-id-as-key" => t("order-id-as-key", SecondGetsOwnKey, 0, Charges),
        "new-key-per-retry" => t("new-key-per-retry", OneKeyPerOperation, 0, Charges),
        "slow-processor" => t("slow-processor", ProcessorInsideTheLock, 0, Charges),
        "store-failures" => t("store-failures", StoreHoldsTwoKeys, 0, MostChargesForOneKey),
        _ => return None,
    })
}

/// One second, in ms.
const SECOND_MS: u64 = 1_000;

impl Variation {
    /// `s` with this change made.
    pub fn apply(self, mut s: Scenario) -> Scenario {
        let inputs = std::mem::take(&mut s.inputs);
        for (i, input) in inputs.into_iter().enumerate() {
            match (self, input) {
                (Variation::OneAfterAnother, Input::Parallel { requests, .. }) => {
                    one_after_another(&mut s.inputs, requests);
                }
                (Variation::NoDeposit, Input::Deposit { .. }) => {}
                (_, input) => s.inputs.push(self.change(i, input)),
            }
        }
        if self == Variation::ProcessorInsideTheLock {
            s.downstream.slow_ms = 60 * SECOND_MS;
        }
        if self == Variation::StoreHoldsTwoKeys {
            s.downstream.store_capacity = 2;
        }
        if self == Variation::MoneyForFive {
            s.initial_balance = 500;
        }
        s
    }

    /// The `i`-th input with this change made.
    fn change(self, i: usize, mut input: Input) -> Input {
        match (self, &mut input) {
            (Variation::RetryWithNewKey, Input::Retry { new_key, .. }) => *new_key = true,
            (Variation::OneKeyPerOperation, Input::Operation { key_strategy, .. }) => {
                *key_strategy = KeyStrategy::Reuse;
            }
            (Variation::SecondGetsOwnKey, Input::Request { key, .. }) if i == 1 => {
                *key = Some("order-1-shipping".to_string());
            }
            (Variation::FirstTryRefused, Input::Operation { faults, .. }) => {
                if let Some(first) = faults.first_mut() {
                    *first = Fault::ProcessorError;
                }
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
