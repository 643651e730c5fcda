//! The durable-execution lessons and challenges, as data, and their questions judged on the
//! run: the choices and the answer are measured on the finished run of the columns on the page,
//! so a changed setting changes the answer, or the question says it no longer applies.

use super::engine::{
    EffectKind, Invariant, RunStatus, StartReply, TraceKind, Verdict, World, RESTART_MS,
    RESTATE_RETENTION_MS,
};
use super::run::{Action, DurableRun};
use super::{
    ClockMode, Config, ConflictPolicy, Engine, FaultKind, FaultSpec, FlowKind, KeyMode, RequestId,
    RestateTarget, ReusePolicy, StepName,
};
use std::collections::BTreeSet;

use crate::sim::lesson::{Judge, NotPosed, Pose, Posed, MAX_CHOICES};

/// When a question stops the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Before the first step.
    Start,
    /// Just before the first crash.
    BeforeCrash,
    /// Just before the first new worker comes up.
    BeforeRestart,
    /// Just before the client starts the workflow id again.
    BeforeStartAgain,
}

/// What is measured on the question's column at the end of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Which steps ran again after the first crash.
    Rerun,
    /// How many times the card was charged.
    Charges,
    /// How the replay after the crash ended.
    ReplayEnd,
    /// What the last run left in the world.
    EndState,
    /// How the engine answered the client's second start.
    SecondReply,
    /// What came of the charge step's second execution.
    ChargeAgain,
}

/// Which steps ran again after a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RerunClass {
    /// None: nothing resumed the workflow.
    Nothing,
    /// Only the step that was running when the worker crashed.
    OnlyUnfinished,
    /// Every step again, from the top.
    FromTheTop,
}

/// How a replay ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayEnd {
    /// It followed the journal and the workflow completed.
    Completed,
    /// The engine stopped it (what it did).
    Stopped(Verdict),
}

/// What a run left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndState {
    /// It completed: every step kept.
    AllKept,
    /// It failed and every done step was undone.
    AllUndone,
    /// It ended with done steps neither kept nor undone.
    HalfDone,
}

/// What came of the charge step's second execution.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChargeAgain {
    /// The step did not run again.
    NotRun,
    /// It ran again and the payment service replayed the first charge (the same key).
    Replayed,
    /// It ran again and the card was charged a second time.
    Charged,
}

/// A belief a developer may hold about durable execution, each predicting a wrong choice. Where
/// the belief can be modelled, the core runs the question's column under it ([`Belief::model`])
/// and the choice is the answer that run gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Belief {
    /// A step and its journal entry are written together, so each step runs exactly once.
    /// Model: the crash falls just after the journal entry instead of before it.
    ExactlyOnceSteps,
    /// After a crash the function runs again, every step. Model: no journal (a plain process),
    /// and the client starts it again a restart's time after the crash.
    RestartRunsAll,
    /// The engine gives each step an idempotency key of its own. Model: the key derived from
    /// the run and the step.
    EngineKeysSteps,
    /// A replay gives the workflow the time it read the first time. Model: the clock read
    /// through the engine.
    ClockReplayed,
    /// Every engine retries a mismatched replay, then pauses it (Restate's way). Model: Restate.
    MismatchPauses,
    /// Every engine fails the workflow on a mismatched replay (DBOS's way). Model: DBOS.
    MismatchFails,
    /// A workflow id, once used, refuses every later start. Model: Temporal with RejectDuplicate
    /// and Fail, the start a new call.
    IdRefused,
    /// Starting a used id returns the first run's result, as an idempotency key does. Model:
    /// DBOS.
    IdReturnsResult,
    /// A second start of a running id joins that run. Model: Temporal's UseExisting, the start
    /// a new call.
    IdJoins,
    /// The conflict policy decides every start, a retried call too. Model: the retry a new call,
    /// with a new request id.
    PolicyDecidesRetries,
    /// An idempotency key protects for ever. Model: the same call, a retention earlier.
    KeyForever,
    /// A saga's code undoes what it did, crash or not. Model: a durable engine (Temporal).
    SagaSurvivesCrash,
    /// A failed step is retried until it succeeds. Model: the permanent failure a passing one.
    RetriedUntilDone,
    /// A step the crash cut off is lost with the worker: nothing runs it again. Model: no
    /// durable execution (a plain process, which nobody resumes).
    CrashedStepLost,
    /// A variation's change changes nothing: the run ends as the lesson's did. Its choice is the
    /// lesson's own answer, on the lesson's run (`transfer.rs`); no model of its own.
    AsInTheLesson,
}

impl Belief {
    /// The column's settings `c` under the belief, given the run as it went (`w`); `None` when
    /// the belief changes nothing here or has no model for this column.
    pub fn model(self, c: &Config, w: &World) -> Option<Config> {
        let mut m = c.clone();
        let swap = |m: &mut Config, from: FaultKind, to: FaultKind| {
            for f in m.faults.iter_mut().filter(|f| f.kind == from) {
                f.kind = to;
            }
        };
        match self {
            Belief::ExactlyOnceSteps => swap(
                &mut m,
                FaultKind::CrashAfterEffect,
                FaultKind::CrashAfterJournal,
            ),
            Belief::RestartRunsAll => {
                let crash = w
                    .trace()
                    .iter()
                    .find(|e| matches!(e.kind, TraceKind::Crashed { .. }))?;
                m.engine = Engine::Plain;
                m.start_again_at_ms = Some(crash.ms + RESTART_MS);
            }
            Belief::EngineKeysSteps => m.key = KeyMode::Derived,
            Belief::ClockReplayed => m.clock = ClockMode::Engine,
            Belief::MismatchPauses => m.engine = Engine::Restate,
            Belief::MismatchFails | Belief::IdReturnsResult => m.engine = Engine::Dbos,
            Belief::IdRefused | Belief::IdJoins => {
                m.engine = Engine::Temporal;
                m.request_id = RequestId::New;
                m.reuse = ReusePolicy::RejectDuplicate;
                m.conflict = ConflictPolicy::Fail;
                if self == Belief::IdJoins {
                    m.reuse = ReusePolicy::AllowDuplicate;
                    m.conflict = ConflictPolicy::UseExisting;
                }
            }
            Belief::PolicyDecidesRetries => m.request_id = RequestId::New,
            Belief::KeyForever => {
                let at = m.start_again_at_ms?;
                m.start_again_at_ms = Some(at.checked_sub(RESTATE_RETENTION_MS)?);
            }
            Belief::SagaSurvivesCrash => m.engine = Engine::Temporal,
            Belief::RetriedUntilDone => {
                swap(&mut m, FaultKind::FailPermanent, FaultKind::FailOnce);
            }
            Belief::CrashedStepLost => m.engine = Engine::Plain,
            Belief::AsInTheLesson => return None,
        }
        (m != *c).then_some(m)
    }
}

/// An answer, as data (the words are the UI's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// For [`Measure::Rerun`].
    Rerun(RerunClass),
    /// For [`Measure::Charges`].
    Count(usize),
    /// For [`Measure::ReplayEnd`].
    Replay(ReplayEnd),
    /// For [`Measure::EndState`].
    End(EndState),
    /// For [`Measure::SecondReply`].
    Reply(StartReply),
    /// For [`Measure::ChargeAgain`].
    Again(ChargeAgain),
}

/// A lesson's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Question {
    /// The column asked about.
    pub column: usize,
    /// What.
    pub measure: Measure,
    /// When the run stops for it.
    pub ask: Ask,
    /// The beliefs whose models give the wrong choices, in the order they name a choice.
    pub beliefs: &'static [Belief],
}

/// A lesson: its columns and its question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// Stable id (`durable/#/scenario/<id>`).
    pub id: &'static str,
    /// The worlds side by side.
    pub columns: Vec<Config>,
    /// What it asks.
    pub question: Question,
}

/// The lessons' ids, in the order of the page.
pub const LESSON_IDS: [&str; 8] = [
    "durable-resume",
    "durable-charge-key",
    "durable-clock",
    "durable-same-id",
    "durable-same-id-running",
    "durable-request-id",
    "durable-retention",
    "durable-saga",
];

/// When the retention lesson's client calls again: 25 h, an hour past Restate's 24 h retention.
pub const AFTER_RETENTION_MS: u64 = 25 * 3_600_000;

fn fault(step: StepName, kind: FaultKind) -> FaultSpec {
    FaultSpec { step, kind }
}

fn order(engine: Engine, faults: Vec<FaultSpec>) -> Config {
    Config {
        engine,
        faults,
        ..Config::default()
    }
}

/// The lesson `id`.
#[expect(
    clippy::too_many_lines,
    reason = "a table of data: one entry per lesson"
)]
pub fn lesson(id: &str) -> Option<Lesson> {
    use Belief as B;
    let q = |column, measure, ask, beliefs| Question {
        column,
        measure,
        ask,
        beliefs,
    };
    let (columns, question) = match id {
        // The worker crashes while shipping: after the restart, which steps run again?
        "durable-resume" => {
            let f = vec![fault(StepName::ShipExpress, FaultKind::CrashAfterEffect)];
            (
                vec![order(Engine::Temporal, f.clone()), order(Engine::Plain, f)],
                q(
                    0,
                    Measure::Rerun,
                    Ask::BeforeRestart,
                    &[B::ExactlyOnceSteps, B::RestartRunsAll],
                ),
            )
        }
        // The crash falls between the charge and its journal entry: the step runs again.
        "durable-charge-key" => {
            let f = vec![fault(StepName::Charge, FaultKind::CrashAfterEffect)];
            let with = |key| Config {
                key,
                ..order(Engine::Temporal, f.clone())
            };
            (
                vec![
                    with(KeyMode::Derived),
                    with(KeyMode::None),
                    with(KeyMode::Random),
                ],
                q(
                    1,
                    Measure::ChargeAgain,
                    Ask::BeforeRestart,
                    &[B::ExactlyOnceSteps, B::EngineKeysSteps],
                ),
            )
        }
        // The workflow reads the clock directly to pick the shipping; the receipt step
        // crashes; the replay, a second later, is past the cut-off.
        "durable-clock" => {
            let f = vec![fault(StepName::Receipt, FaultKind::CrashAfterEffect)];
            let direct = |engine| Config {
                clock: ClockMode::Direct,
                ..order(engine, f.clone())
            };
            (
                vec![
                    direct(Engine::Temporal),
                    direct(Engine::Restate),
                    direct(Engine::Dbos),
                    order(Engine::Temporal, f.clone()),
                ],
                q(
                    0,
                    Measure::ReplayEnd,
                    Ask::BeforeRestart,
                    &[B::ClockReplayed, B::MismatchPauses, B::MismatchFails],
                ),
            )
        }
        // The client timed out and starts the same id again, after the first run closed.
        "durable-same-id" => {
            let again = |engine, reuse| Config {
                reuse,
                start_again_at_ms: Some(5_000),
                ..order(engine, Vec::new())
            };
            (
                vec![
                    again(Engine::Temporal, ReusePolicy::AllowDuplicate),
                    again(Engine::Temporal, ReusePolicy::RejectDuplicate),
                    again(Engine::Restate, ReusePolicy::AllowDuplicate),
                    again(Engine::Dbos, ReusePolicy::AllowDuplicate),
                ],
                q(
                    0,
                    Measure::SecondReply,
                    Ask::BeforeStartAgain,
                    &[B::IdRefused, B::IdReturnsResult],
                ),
            )
        }
        // ... and while the first run is still running, just after its charge.
        "durable-same-id-running" => {
            let again = |engine, conflict| Config {
                conflict,
                start_again_at_ms: Some(550),
                ..order(engine, Vec::new())
            };
            (
                vec![
                    again(Engine::Temporal, ConflictPolicy::Fail),
                    again(Engine::Temporal, ConflictPolicy::UseExisting),
                    again(Engine::Temporal, ConflictPolicy::TerminateExisting),
                    again(Engine::Restate, ConflictPolicy::Fail),
                ],
                q(
                    2,
                    Measure::SecondReply,
                    Ask::BeforeStartAgain,
                    &[B::IdJoins, B::IdRefused],
                ),
            )
        }
        // The client's start at 550 ms carries the first call's request id (the SDK retrying
        // it) or a new one (the application calling again), under TerminateExisting and Fail.
        "durable-request-id" => {
            let retry = |conflict, request_id| Config {
                conflict,
                request_id,
                start_again_at_ms: Some(550),
                ..order(Engine::Temporal, Vec::new())
            };
            (
                vec![
                    retry(ConflictPolicy::TerminateExisting, RequestId::Same),
                    retry(ConflictPolicy::Fail, RequestId::Same),
                    retry(ConflictPolicy::TerminateExisting, RequestId::New),
                    retry(ConflictPolicy::Fail, RequestId::New),
                ],
                q(
                    0,
                    Measure::SecondReply,
                    Ask::BeforeStartAgain,
                    &[B::PolicyDecidesRetries, B::IdJoins, B::IdRefused],
                ),
            )
        }
        // Restate: the same idempotency key 25 h later, past the 24 h retention; 5 s later,
        // within it; and a Workflow's run 25 h later.
        "durable-retention" => {
            let again = |restate, at| Config {
                restate,
                start_again_at_ms: Some(at),
                ..order(Engine::Restate, Vec::new())
            };
            (
                vec![
                    again(RestateTarget::IdempotencyKey, AFTER_RETENTION_MS),
                    again(RestateTarget::IdempotencyKey, 5_000),
                    again(RestateTarget::WorkflowRun, AFTER_RETENTION_MS),
                ],
                q(
                    0,
                    Measure::SecondReply,
                    Ask::BeforeStartAgain,
                    &[B::KeyForever, B::IdRefused],
                ),
            )
        }
        // The hotel fails for good: the saga undoes the flight and the charge. A crash hits
        // the refund; without durable execution, the crash falls before the compensation.
        "durable-saga" => {
            let trip = |engine, key, faults| Config {
                flow: FlowKind::Trip,
                engine,
                key,
                faults,
                ..Config::default()
            };
            let hotel = fault(StepName::ReserveHotel, FaultKind::FailPermanent);
            let refund = fault(StepName::Refund, FaultKind::CrashAfterEffect);
            let cancel = fault(StepName::CancelFlight, FaultKind::CrashBefore);
            (
                vec![
                    trip(Engine::Temporal, KeyMode::Derived, vec![hotel, refund]),
                    trip(Engine::Temporal, KeyMode::None, vec![hotel, refund]),
                    trip(Engine::Plain, KeyMode::Derived, vec![hotel, cancel]),
                ],
                q(
                    2,
                    Measure::EndState,
                    Ask::BeforeCrash,
                    &[B::SagaSurvivesCrash, B::RetriedUntilDone],
                ),
            )
        }
        _ => return None,
    };
    let id = LESSON_IDS.into_iter().find(|l| *l == id)?;
    Some(Lesson {
        id,
        columns,
        question,
    })
}

fn first_at(w: &World, pred: impl Fn(&TraceKind) -> bool) -> Option<usize> {
    w.trace().iter().find(|e| pred(&e.kind)).map(|e| e.at)
}

/// Which steps ran again after the first crash, in `w`.
pub fn rerun_class(w: &World) -> RerunClass {
    let Some(crash) = first_at(w, |k| matches!(k, TraceKind::Crashed { .. })) else {
        return RerunClass::Nothing;
    };
    let ran = |after: bool| -> BTreeSet<StepName> {
        w.trace()
            .iter()
            .filter(|e| (e.at > crash) == after)
            .filter_map(|e| match e.kind {
                TraceKind::StepRan { step, .. } => Some(step),
                _ => None,
            })
            .collect()
    };
    let (before, after) = (ran(false), ran(true));
    let again: BTreeSet<StepName> = before.intersection(&after).copied().collect();
    let unfinished: BTreeSet<StepName> = w
        .trace()
        .iter()
        .filter(|e| e.at > crash)
        .filter_map(|e| match e.kind {
            TraceKind::StepRerun { step, .. } => Some(step),
            _ => None,
        })
        .collect();
    if again.is_empty() && unfinished.is_empty() {
        RerunClass::Nothing
    } else if again.is_subset(&unfinished) {
        RerunClass::OnlyUnfinished
    } else {
        RerunClass::FromTheTop
    }
}

/// How the replay ended in `w`.
pub fn replay_end(w: &World) -> ReplayEnd {
    match w.mismatch() {
        Some((_, verdict)) => ReplayEnd::Stopped(verdict),
        None => match w.current_run().map(|r| r.status) {
            Some(RunStatus::Completed) => ReplayEnd::Completed,
            _ => ReplayEnd::Stopped(Verdict::Failed),
        },
    }
}

/// What the last run left in `w`.
pub fn end_state(w: &World) -> EndState {
    if w.violation(Invariant::EndedKeptOrCompensated).is_some() {
        return EndState::HalfDone;
    }
    // A saga that compensated fails its run with the error that started the compensations
    // (`workflow.rs`): a failed run with nothing left undone has undone everything.
    match w.current_run().map(|r| r.status) {
        Some(RunStatus::Completed) => EndState::AllKept,
        Some(RunStatus::Failed) => EndState::AllUndone,
        _ => EndState::HalfDone,
    }
}

impl Question {
    /// The question against `run`: where it stops, its choices and answer, measured on the
    /// run's end.
    pub fn pose(&self, run: &DurableRun) -> Result<Posed<Answer>, NotPosed> {
        Pose::pose(self, run)
    }

    /// The step the run stops at in world `w`, if that moment comes.
    fn ask_at(&self, w: &World) -> Option<usize> {
        let crashed = |k: &TraceKind| matches!(k, TraceKind::Crashed { .. });
        let at = match self.ask {
            Ask::Start => Some(1),
            Ask::BeforeCrash => first_at(w, crashed),
            Ask::BeforeRestart => first_at(w, |k| matches!(k, TraceKind::Restarted { .. }))
                .or_else(|| first_at(w, crashed).map(|c| c + 1)),
            Ask::BeforeStartAgain => first_at(w, |k| {
                matches!(k, TraceKind::StartRequested { again: true })
            }),
        };
        at.map(|at| at.saturating_sub(1))
    }
}

impl Pose<DurableRun> for Question {
    type Choice = Answer;
    type Column = ();

    fn pose(&self, run: &DurableRun) -> Result<Posed<Answer>, NotPosed> {
        self.pose_with_beliefs(run).map(|(posed, _)| posed)
    }
}

impl Question {
    /// The question against `run` and, for each choice, the belief whose model gives it
    /// (`None` for the right choice, and for a choice offered only to make three).
    pub fn pose_with_beliefs(
        &self,
        run: &DurableRun,
    ) -> Result<(Posed<Answer>, Vec<Option<Belief>>), NotPosed> {
        if self.column >= run.columns().len() {
            return Err(NotPosed::NoSuchColumn(()));
        }
        let worlds = run.final_worlds();
        let w = &worlds[self.column];
        let ask_at = self.ask_at(w).ok_or(NotPosed::NeverAsked)?;
        let last_at = w.trace().last().map_or(ask_at + 1, |e| e.at);
        let (answer, usual, shows_at) = match self.measure {
            Measure::Rerun => rerun(w, ask_at, last_at),
            Measure::Charges => charges(w, ask_at, last_at),
            Measure::ReplayEnd => replay(w, last_at),
            Measure::EndState => end(w, last_at),
            Measure::SecondReply => second_reply(w, ask_at, last_at).ok_or(NotPosed::NeverAsked)?,
            Measure::ChargeAgain => charge_again(w, ask_at, last_at),
        };
        // Each belief's model, run with the learner's actions, and the answer it gives.
        let predicted: Vec<(Belief, Answer)> = self
            .beliefs
            .iter()
            .filter_map(|b| {
                let m = b.model(&run.columns()[self.column], w)?;
                let end = DurableRun::new(vec![m], run.actions().to_vec()).final_worlds();
                Some((*b, self.measure.of(&end[0])?))
            })
            .collect();
        let mut choices = vec![answer];
        let extra = predicted.iter().map(|(_, a)| *a);
        for a in extra.chain(usual) {
            if choices.len() >= MAX_CHOICES
                || (choices.len() >= 3 && !predicted.iter().any(|p| p.1 == a))
            {
                continue;
            }
            if !choices.contains(&a) {
                choices.push(a);
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
                let b = predicted.iter().find(|(_, a)| a == c && *c != answer);
                b.map(|(b, _)| *b)
            })
            .collect();
        Ok((
            Posed::new(self.column, ask_at, choices, answer, shows_at),
            beliefs,
        ))
    }
}

impl Measure {
    /// This measure's answer on world `w` at its end; `None` when it has none (no second
    /// start).
    pub fn of(self, w: &World) -> Option<Answer> {
        Some(match self {
            Measure::Rerun => Answer::Rerun(rerun_class(w)),
            Measure::Charges => Answer::Count(w.count(EffectKind::Charged)),
            Measure::ReplayEnd => Answer::Replay(replay_end(w)),
            Measure::EndState => Answer::End(end_state(w)),
            Measure::SecondReply => Answer::Reply(*w.replies().get(1)?),
            Measure::ChargeAgain => Answer::Again(charge_again_of(w)),
        })
    }
}

/// Where a choice stands among the others: the choices are shown in this order, so the right
/// one has no place of its own.
pub(super) fn rank(a: &Answer) -> u64 {
    match *a {
        Answer::Rerun(r) => r as u64,
        Answer::Count(n) => n as u64,
        Answer::Replay(ReplayEnd::Completed) => 0,
        Answer::Replay(ReplayEnd::Stopped(v)) => 1 + v as u64,
        Answer::End(e) => e as u64,
        Answer::Again(g) => g as u64,
        Answer::Reply(r) => match r {
            StartReply::Started(_) | StartReply::Replaced { .. } => 0,
            StartReply::Attached(_) => 1,
            StartReply::SameResult(_) => 2,
            StartReply::SameRequest(_) => 3,
            StartReply::AlreadyInvoked(_) => 4,
            StartReply::Rejected => 5,
            StartReply::Invalid(_) => 6,
        },
    }
}

/// What came of the charge step's second execution in `w`.
fn charge_again_of(w: &World) -> ChargeAgain {
    if w.count(EffectKind::Charged) >= 2 {
        ChargeAgain::Charged
    } else if w.count(EffectKind::ChargeReplayed) >= 1 {
        ChargeAgain::Replayed
    } else {
        ChargeAgain::NotRun
    }
}

fn charge_again(w: &World, ask_at: usize, last_at: usize) -> Measured {
    let shows = w
        .effects()
        .iter()
        .filter(|e| matches!(e.kind, EffectKind::Charged | EffectKind::ChargeReplayed))
        .map(|e| e.at)
        .nth(1)
        .filter(|at| *at > ask_at)
        .unwrap_or(last_at);
    let choices = [
        ChargeAgain::NotRun,
        ChargeAgain::Replayed,
        ChargeAgain::Charged,
    ]
    .map(Answer::Again)
    .to_vec();
    (Answer::Again(charge_again_of(w)), choices, shows)
}

/// A measure's answer on a world, its choices, and the step that shows it.
type Measured = (Answer, Vec<Answer>, usize);

fn rerun(w: &World, ask_at: usize, last_at: usize) -> Measured {
    let shows = first_at(w, |k| {
        matches!(k, TraceKind::StepRerun { .. } | TraceKind::RunEnded { .. })
    })
    .filter(|at| *at > ask_at);
    let choices = [
        RerunClass::Nothing,
        RerunClass::OnlyUnfinished,
        RerunClass::FromTheTop,
    ]
    .map(Answer::Rerun)
    .to_vec();
    (
        Answer::Rerun(rerun_class(w)),
        choices,
        shows.unwrap_or(last_at),
    )
}

fn charges(w: &World, ask_at: usize, last_at: usize) -> Measured {
    let n = w.count(EffectKind::Charged);
    let shows = w
        .effects()
        .iter()
        .filter(|e| e.kind == EffectKind::Charged)
        .map(|e| e.at)
        .next_back()
        .filter(|at| *at > ask_at)
        .unwrap_or(last_at);
    let low = n.saturating_sub(1).clamp(0, 1);
    let choices = (low..low + 3).map(Answer::Count).collect();
    (Answer::Count(n), choices, shows)
}

fn replay(w: &World, last_at: usize) -> Measured {
    let shows = first_at(w, |k| {
        matches!(k, TraceKind::Mismatch { .. } | TraceKind::RunEnded { .. })
    })
    .unwrap_or(last_at);
    let choices = vec![
        Answer::Replay(ReplayEnd::Completed),
        Answer::Replay(ReplayEnd::Stopped(Verdict::Blocked)),
        Answer::Replay(ReplayEnd::Stopped(Verdict::Paused)),
        Answer::Replay(ReplayEnd::Stopped(Verdict::Failed)),
    ];
    (Answer::Replay(replay_end(w)), choices, shows)
}

fn end(w: &World, last_at: usize) -> Measured {
    let shows = w
        .violation(Invariant::EndedKeptOrCompensated)
        .map(|v| v.at)
        .or_else(|| first_at(w, |k| matches!(k, TraceKind::RunEnded { .. })))
        .unwrap_or(last_at);
    let choices = [EndState::AllKept, EndState::AllUndone, EndState::HalfDone]
        .map(Answer::End)
        .to_vec();
    (Answer::End(end_state(w)), choices, shows)
}

/// The answer the second start got; `None` when there was no second start.
fn second_reply(w: &World, ask_at: usize, last_at: usize) -> Option<Measured> {
    let reply = *w.replies().get(1)?;
    let shows = w
        .trace()
        .iter()
        .find(|e| e.at > ask_at && matches!(e.kind, TraceKind::StartReplied(_)))
        .map_or(last_at, |e| e.at);
    // The answers a start of an open run can get from Temporal; the run's own answer
    // takes the third place if it is none of them (another engine, a closed run).
    let first = match w.replies().first() {
        Some(StartReply::Started(n)) => *n,
        _ => 1,
    };
    let mut choices = vec![
        StartReply::Replaced {
            old: first,
            new: first + 1,
        },
        StartReply::Rejected,
        StartReply::Attached(first),
        StartReply::SameRequest(first),
    ];
    if !choices.contains(&reply) {
        choices[2] = reply;
    }
    Some((
        Answer::Reply(reply),
        choices.into_iter().map(Answer::Reply).collect(),
        shows,
    ))
}

/// What a challenge asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The card charged twice for the one order.
    ChargeTwice,
    /// The charge step ran again after a crash, the card was charged once, the order
    /// completed.
    RerunChargedOnce,
}

impl Goal {
    /// Whether `w` meets the goal.
    pub fn met(self, w: &World) -> bool {
        match self {
            Goal::ChargeTwice => w.count(EffectKind::Charged) >= 2,
            Goal::RerunChargedOnce => {
                w.count(EffectKind::Charged) == 1
                    && w.trace().iter().any(|e| {
                        matches!(
                            e.kind,
                            TraceKind::StepRerun {
                                step: StepName::Charge,
                                ..
                            }
                        )
                    })
                    && w.current_run().map(|r| r.status) == Some(RunStatus::Completed)
            }
        }
    }
}

/// A challenge: one world, the learner's moves limited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Stable id (`durable/#/durable/challenge/<id>`).
    pub id: &'static str,
    /// The world.
    pub config: Config,
    /// The actions the learner may take.
    pub allowed: &'static [Action],
    /// How many crashes the learner may make.
    pub max_crashes: usize,
    /// What wins.
    pub goal: Goal,
}

/// The challenges' ids.
pub const CHALLENGE_IDS: [&str; 2] = ["durable-charge-twice", "durable-random-once"];

/// The challenges' ids (as a function, for symmetry with the playground).
pub fn challenge_ids() -> &'static [&'static str] {
    &CHALLENGE_IDS
}

/// The challenge `id`.
pub fn challenge(id: &str) -> Option<Challenge> {
    match id {
        "durable-charge-twice" => Some(Challenge {
            id: CHALLENGE_IDS[0],
            config: Config {
                key: KeyMode::None,
                ..Config::default()
            },
            allowed: &[Action::Crash, Action::Restart],
            max_crashes: 3,
            goal: Goal::ChargeTwice,
        }),
        "durable-random-once" => Some(Challenge {
            id: CHALLENGE_IDS[1],
            config: Config {
                key: KeyMode::Random,
                ..Config::default()
            },
            allowed: &[Action::Crash, Action::Restart],
            max_crashes: 1,
            goal: Goal::RerunChargedOnce,
        }),
        _ => None,
    }
}

impl Judge<DurableRun> for Challenge {
    fn won(&self, run: &DurableRun) -> bool {
        Challenge::won(self, run)
    }
}

impl Challenge {
    /// The run the challenge starts from.
    pub fn run(&self) -> DurableRun {
        DurableRun::new(vec![self.config.clone()], Vec::new())
    }

    /// Crashes the learner made in `run`.
    pub fn crashes_used(&self, run: &DurableRun) -> usize {
        run.actions()
            .iter()
            .filter(|(at, a)| *a == Action::Crash && *at < run.cursor())
            .count()
    }

    /// Whether `run` wins at its cursor (within the rules).
    pub fn won(&self, run: &DurableRun) -> bool {
        self.crashes_used(run) <= self.max_crashes
            && run.actions().iter().all(|(_, a)| self.allowed.contains(a))
            && run.worlds().first().is_some_and(|w| self.goal.met(w))
    }

    /// A solution, found by the core: the first step at which one crash wins, as the actions
    /// to record.
    pub fn solution(&self) -> Option<Vec<(usize, Action)>> {
        let plain = self.run();
        (0..plain.end()).find_map(|k| {
            let actions = vec![(k, Action::Crash)];
            let mut run = DurableRun::new(vec![self.config.clone()], actions.clone());
            run.run_to_end();
            self.won(&run).then_some(actions)
        })
    }
}
