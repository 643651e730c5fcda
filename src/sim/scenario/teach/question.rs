//! The question a built-in lesson asks just before its decisive step, and that question against
//! the run on the page: the choices and the answer are measured on the finished run, so when the
//! learner changes the services or the inputs the question adapts, or says it no longer applies.

use crate::sim::scenario::builtin::builtin;
use crate::sim::scenario::session::Session;
use crate::sim::world::invariants::ViolationDetail;
use crate::sim::world::server::ServiceKind;
use crate::sim::world::trace::{EventKind, TraceEvent};
use crate::sim::world::World;

use super::belief::{guesses, Guess};
use super::measure::Measure;
use crate::sim::lesson::{NotPosed, Pose, Posed, Value};

/// When a question stops the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Before the first step.
    Start,
    /// Just before the n-th request (1-based) reaches the server of the question's column, or of
    /// any column that reaches it sooner.
    BeforeArrival(u32),
    /// Just before the outbox relay first runs in the question's column (or sooner in another).
    BeforeRelay,
}

/// What a built-in lesson asks: a measure of one of its columns, at the end of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// The lesson (its built-in scenario id).
    pub lesson: &'static str,
    /// The column of the lesson's scenario as written; in a changed run the column with the same
    /// service and wiring is asked about.
    pub column: usize,
    /// What is asked.
    pub measure: Measure,
    /// When.
    pub ask: Ask,
}

/// The question of a built-in lesson, if it has one.
pub fn question(lesson: &str) -> Option<Question> {
    use Ask::*;
    use Measure::*;
    let q = |lesson, column, measure, ask| Question {
        lesson,
        column,
        measure,
        ask,
    };
    Some(match lesson {
        "the-header" => q("the-header", 0, Charges, BeforeArrival(2)),
        "timeout-ambiguity" => q("timeout-ambiguity", 0, Charges, Start),
        "client-cannot-tell" => q("client-cannot-tell", 2, Balance, Start),
        "double-charge" => q("double-charge", 0, Balance, BeforeArrival(2)),
        "key-replays" => q("key-replays", 1, Charges, BeforeArrival(2)),
        "distinct-keys" => q("distinct-keys", 0, Charges, BeforeArrival(2)),
        "concurrent-same-key" => q("concurrent-same-key", 0, MostChargesForOneKey, Start),
        "atomic-lock" => q("atomic-lock", 0, Charges, Start),
        "ten-threads" => q("ten-threads", 0, MostChargesForOneKey, Start),
        "stripe-in-flight" => q("stripe-in-flight", 0, Conflicts, Start),
        "failure-cached" => q("failure-cached", 2, Charges, BeforeArrival(2)),
        "many-retries" => q("many-retries", 1, Balance, BeforeArrival(2)),
        "order-id-as-key" => q("order-id-as-key", 0, Charges, BeforeArrival(2)),
        "new-key-per-retry" => q("new-key-per-retry", 0, Charges, BeforeArrival(2)),
        "split-store-crash" => q("split-store-crash", 3, Conflicts, Start),
        "key-expiry" => q("key-expiry", 0, Charges, BeforeArrival(2)),
        "param-mismatch" => q("param-mismatch", 1, MostAnswersForOneKey, BeforeArrival(2)),
        "outbox-relay-crash" => q("outbox-relay-crash", 1, ConsumerApplied, BeforeRelay),
        "dual-write" => q("dual-write", 1, EventsPublished, Start),
        "effectively-once" => q("effectively-once", 1, MostChargesForOneKey, Start),
        "slow-processor" => q("slow-processor", 0, Charges, BeforeArrival(4)),
        "store-failures" => q("store-failures", 0, MostChargesForOneKey, BeforeArrival(3)),
        "key-scope" => q("key-scope", 1, Charges, BeforeArrival(2)),
        "fingerprint-fields" => q("fingerprint-fields", 1, Balance, Start),
        _ => return None,
    })
}

impl Question {
    /// This question against `session`'s run.
    pub fn pose(&self, session: &Session) -> Result<Posed<Guess>, NotPosed<ServiceKind>> {
        Pose::pose(self, session)
    }
}

impl Pose<Session> for Question {
    type Choice = Guess;
    type Column = ServiceKind;

    fn pose(&self, session: &Session) -> Result<Posed<Guess>, NotPosed<ServiceKind>> {
        let written = builtin(self.lesson).and_then(|s| s.services.get(self.column).copied());
        let Some(spec) = written else {
            return Err(NotPosed::NeverAsked);
        };
        let services = &session.scenario().services;
        let column = services
            .iter()
            .position(|s| *s == spec)
            .ok_or(NotPosed::NoSuchColumn(spec.kind()))?;
        pose_column(self.measure, self.ask, session, column)
    }
}

/// `measure` of `column` of `session`'s run, asked at `ask`: the choices (the answer and the
/// beliefs' predictions), the step to stop at and the step that shows the answer.
pub(super) fn pose_column(
    measure: Measure,
    ask: Ask,
    session: &Session,
    column: usize,
) -> Result<Posed<Guess>, NotPosed<ServiceKind>> {
    {
        let world = session.finished(column).ok_or(NotPosed::NeverAsked)?;
        let trace = world.trace();
        // Before the moment in whichever column reaches it first: a column that is quicker
        // than the one asked about must not show its outcome while the question waits.
        let first = |is: fn(&EventKind) -> bool, n: usize| {
            let own = nth_step(trace.iter(), n, is).ok_or(NotPosed::NeverAsked)?;
            // The asked column is one of them, so the earliest is at most its own.
            let columns = (0..).map_while(|i| session.finished(i));
            let earliest = columns.filter_map(|w| nth_step(w.trace().iter(), n, is));
            Ok(earliest.min().unwrap_or(own) - 1)
        };
        let ask_at = match ask {
            Ask::Start => 0,
            Ask::BeforeArrival(n) => first(
                |e| matches!(e, EventKind::RequestDelivered { .. }),
                n as usize,
            )?,
            Ask::BeforeRelay => first(
                |e| matches!(e, EventKind::RelayPoll { .. } | EventKind::RelayBusy),
                1,
            )?,
        };
        let answer = measure.of(world);
        // The value when the question is asked (one replay), for the choices and the step that
        // shows the answer; a yes/no question needs neither.
        let before = matches!(answer, Value::Int(_))
            .then(|| world.rewind(ask_at).ok().map(|w| measure.of(&w)))
            .flatten();
        let choices = guesses(measure, answer, session, column, ask_at);
        let shows_at = shows_at(measure, world, ask_at, answer, before);
        let right = Guess {
            value: answer,
            belief: None,
        };
        Ok(Posed::new(column, ask_at, choices, right, shows_at))
    }
}

/// The step of the n-th (1-based) event that `is` picks.
fn nth_step<'a>(
    trace: impl Iterator<Item = &'a TraceEvent>,
    n: usize,
    is: impl Fn(&EventKind) -> bool,
) -> Option<usize> {
    trace
        .filter(|e| is(&e.kind))
        .nth(n.checked_sub(1)?)
        .map(|e| e.step)
}

/// The step that shows the answer: where a broken invariant broke, else the last step that moved
/// the measure after the question was asked, else the decisive step itself.
fn shows_at(
    measure: Measure,
    world: &World,
    ask_at: usize,
    answer: Value,
    before: Option<Value>,
) -> usize {
    let decisive = (ask_at + 1).min(world.steps_taken().max(1));
    let broke = |pick: &dyn Fn(&crate::sim::world::invariants::Violation) -> bool| {
        world
            .violations()
            .iter()
            .filter(|v| pick(v))
            .map(|v| v.step)
            .min()
    };
    // A count only grows, so the step that shows it is the first at which it has its final
    // value: found by halving, each probe a replay. (The last event that can move a count is
    // not it: "most charges for one key" stays 2 when another key is charged later.)
    let value_at = |step: usize| world.rewind(step).ok().map(|w| measure.of(&w));
    let answer = Some(answer);
    let grew = measure.is_count() && before != answer;
    match measure {
        Measure::Holds(inv) => broke(&|v| v.invariant == inv).unwrap_or(world.steps_taken()),
        Measure::EventLost => broke(&|v| matches!(v.detail, ViolationDetail::EventLost { .. }))
            .unwrap_or(world.steps_taken()),
        // Events that never came: the step at which one was lost for good.
        Measure::EventsPublished if !grew => {
            broke(&|v| matches!(v.detail, ViolationDetail::EventLost { .. })).unwrap_or(decisive)
        }
        _ if grew => {
            let (mut lo, mut hi) = (ask_at + 1, world.steps_taken().max(ask_at + 1));
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if value_at(mid) == answer {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            lo
        }
        _ => world
            .trace()
            .iter()
            .filter(|e| e.step > ask_at && measure.moved_by(&e.kind))
            .map(|e| e.step)
            .max()
            .unwrap_or(decisive),
    }
}
