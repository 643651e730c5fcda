//! Challenges: the learner as the adversary. A playground challenge is a starting run whose
//! services and settings are fixed, the moves (inputs) the learner may add, how many, and a goal
//! the core checks on the worlds at the cursor after every step. A lab challenge is a scenario
//! of the concurrency lab and a goal on the learner's schedule or on the explorer's report. Each
//! carries a solution, so the tests prove it can be won and the page can link to it.

use crate::sim::article::production::{FailureCaching, Policies};
use crate::sim::base::uuidgen::KeyFormat;
use crate::sim::lab::{KeyMode, LabScenario, Model, Report, Search, Stepper};
use crate::sim::scenario::builtin::{base, from_caller, slow_processor};
use crate::sim::scenario::session::Session;
use crate::sim::scenario::{Scenario, ServiceSpec};
use crate::sim::world::account::{KeyScope, RequestPolicies};
use crate::sim::world::client::{KeyStrategy, RetryPolicy};
use crate::sim::world::downstream::Downstream;
use crate::sim::world::fault::Fault;
use crate::sim::world::input::{Input, RequestSpec};
use crate::sim::world::invariants::Invariant;
use crate::sim::world::outbox::EmitMode;
use crate::sim::world::server::ServiceKind::{self, Atomic, Naive, Production, SplitStore};

use super::measure::Measure;
use crate::sim::lesson::{Judge, Value};

/// Ids of the playground's challenges, in the order the page lists them.
pub const CHALLENGE_IDS: [&str; 9] = [
    "triple-charge",
    "new-key-double",
    "split-store-one-crash",
    "get-a-409",
    "expiry-twice",
    "two-answers",
    "lose-an-event",
    "slow-lock-double",
    "another-receipt",
];

/// Ids of the lab's challenges.
pub const LAB_CHALLENGE_IDS: [&str; 2] = ["toctou-all-three", "atomic-impossible"];

/// The kinds of input a challenge may allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// One request (`Input::Request`).
    Request,
    /// A retrying client (`Input::Operation`).
    Operation,
    /// Requests at the same instant (`Input::Parallel`).
    Parallel,
    /// A retry by hand (`Input::Retry`).
    Retry,
    /// Time passing (`Input::AdvanceTime`).
    AdvanceTime,
    /// A run of the relay (`Input::RelayTick`).
    RelayTick,
    /// Money in (`Input::Deposit`).
    Deposit,
    /// A fork's fault change (`Input::SetFault`).
    SetFault,
    /// A fork's server crash (`Input::Crash`).
    Crash,
}

impl MoveKind {
    /// The kind of an input.
    pub fn of(input: &Input) -> MoveKind {
        match input {
            Input::Request { .. } => MoveKind::Request,
            Input::Operation { .. } => MoveKind::Operation,
            Input::Parallel { .. } => MoveKind::Parallel,
            Input::Retry { .. } => MoveKind::Retry,
            Input::AdvanceTime { .. } => MoveKind::AdvanceTime,
            Input::RelayTick { .. } => MoveKind::RelayTick,
            Input::Deposit { .. } => MoveKind::Deposit,
            Input::SetFault { .. } => MoveKind::SetFault,
            Input::Crash => MoveKind::Crash,
            // Another caller's request is still a request.
            Input::As { input, .. } => MoveKind::of(input),
        }
    }
}

/// A goal on one column of the run at the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goal {
    /// The column.
    pub column: usize,
    /// What is measured.
    pub measure: Measure,
    /// Won when the measure reaches this number, or equals this yes/no.
    pub target: Value,
}

impl Goal {
    /// Whether the world meets the goal.
    pub fn met_by(&self, world: &crate::sim::world::World) -> bool {
        match (self.measure.of(world), self.target) {
            (Value::Int(n), Value::Int(t)) => n >= t,
            (v, t) => v == t,
        }
    }
}

/// Why a move (or a linked run) is not allowed in a challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveRefused {
    /// This kind of input is not one of the challenge's moves.
    NotAllowed(MoveKind),
    /// Every move has been used.
    NoMovesLeft {
        /// Moves the challenge allows.
        max: u32,
    },
    /// More crashes than the challenge allows.
    TooManyCrashes {
        /// Crashes it allows.
        max: u32,
    },
    /// The services, settings or starting inputs are not the challenge's.
    NotThisChallenge,
}

/// A playground challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct Challenge {
    /// Stable id (`#/challenge/<id>`).
    pub id: &'static str,
    /// The run it starts from.
    pub start: Scenario,
    /// The inputs the learner may add.
    pub moves: &'static [MoveKind],
    /// How many.
    pub max_moves: u32,
    /// Server crashes allowed among the added inputs' faults, if limited.
    pub max_crashes: Option<u32>,
    /// What wins.
    pub goal: Goal,
    /// Moves that win (tested).
    pub solution: Vec<Input>,
}

impl Challenge {
    /// Moves the learner has added to `scenario`.
    pub fn moves_used(&self, scenario: &Scenario) -> u32 {
        scenario
            .inputs
            .len()
            .saturating_sub(self.start.inputs.len()) as u32
    }

    /// Whether `input` may be added to `scenario` (a run of this challenge).
    pub fn check_move(&self, scenario: &Scenario, input: &Input) -> Result<(), MoveRefused> {
        let kind = MoveKind::of(input);
        if !self.moves.contains(&kind) {
            return Err(MoveRefused::NotAllowed(kind));
        }
        if self.moves_used(scenario) >= self.max_moves {
            return Err(MoveRefused::NoMovesLeft {
                max: self.max_moves,
            });
        }
        if let Some(max) = self.max_crashes {
            let added = &scenario.inputs[self.start.inputs.len().min(scenario.inputs.len())..];
            let crashes: u32 = added.iter().chain([input]).map(crashes_in).sum();
            if crashes > max {
                return Err(MoveRefused::TooManyCrashes { max });
            }
        }
        Ok(())
    }

    /// Whether `scenario` is a run of this challenge: its settings and starting inputs, then
    /// allowed moves only (a shared solution, an import, a saved run).
    pub fn accepts(&self, scenario: &Scenario) -> Result<(), MoveRefused> {
        let n = self.start.inputs.len();
        let same_settings = Scenario {
            inputs: self.start.inputs.clone(),
            ..scenario.clone()
        } == self.start;
        if !same_settings
            || scenario.inputs.len() < n
            || scenario.inputs[..n] != self.start.inputs[..]
        {
            return Err(MoveRefused::NotThisChallenge);
        }
        let mut run = self.start.clone();
        for input in &scenario.inputs[n..] {
            self.check_move(&run, input)?;
            run.inputs.push(input.clone());
        }
        Ok(())
    }

    /// Whether the run at its cursor meets the goal.
    pub fn won(&self, session: &Session) -> bool {
        session
            .worlds()
            .get(self.goal.column)
            .is_some_and(|w| self.goal.met_by(w))
    }

    /// The start with the solution's moves added.
    pub fn solved(&self) -> Scenario {
        let mut s = self.start.clone();
        s.inputs.extend(self.solution.iter().cloned());
        s
    }

    /// What the debrief names: the invariants the goal's column has broken at the cursor
    /// (`World::violations`, each once, with the step that first broke it). None when the goal
    /// breaks none (a 409 is the guard holding).
    pub fn broken(&self, session: &Session) -> Vec<(Invariant, usize)> {
        session
            .worlds()
            .get(self.goal.column)
            .map(|w| {
                w.violations()
                    .iter()
                    .map(|v| (v.invariant, v.step))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// Server crashes among an input's faults.
fn crashes_in(input: &Input) -> u32 {
    let is_crash = |f: &Fault| f.crash_point().is_some();
    match input {
        Input::Request { fault, .. } | Input::Retry { fault, .. } => is_crash(fault) as u32,
        Input::Operation { faults, .. } => faults.iter().filter(|f| is_crash(f)).count() as u32,
        Input::Parallel { requests, .. } => {
            requests.iter().filter(|r| is_crash(&r.fault)).count() as u32
        }
        Input::As { input, .. } => crashes_in(input),
        _ => 0,
    }
}

fn request(key: Option<&str>, amount: i64, order: &str, fault: Fault) -> Input {
    Input::Request {
        key: key.map(str::to_string),
        key_format: KeyFormat::V4,
        amount,
        description: order.to_string(),
        fault,
    }
}

fn operation(
    key_strategy: KeyStrategy,
    retry: RetryPolicy,
    attempts: u32,
    faults: Vec<Fault>,
) -> Input {
    Input::Operation {
        amount: 100,
        description: "order-1".to_string(),
        key_format: KeyFormat::V4,
        key_strategy,
        retry,
        max_attempts: attempts,
        faults,
    }
}

fn goal(measure: Measure, target: Value) -> Goal {
    Goal {
        column: 0,
        measure,
        target,
    }
}

const HOUR_MS: u64 = 3_600_000;

/// A playground challenge by id.
#[expect(
    clippy::too_many_lines,
    reason = "a table of data: one entry per challenge"
)]
pub fn challenge(id: &str) -> Option<Challenge> {
    use MoveKind::*;
    let one = |kind: ServiceKind| base(&[kind], Vec::new());
    let c = match id {
        // Every retry of the naive service is a new charge: two retries, three charges.
        "triple-charge" => Challenge {
            id: "triple-charge",
            start: base(
                &[Naive],
                vec![request(None, 100, "order-1", Fault::ResponseLost)],
            ),
            moves: &[Retry],
            max_moves: 2,
            max_crashes: None,
            goal: goal(Measure::MostChargesForOneOrder, Value::Int(3)),
            solution: vec![
                Input::Retry {
                    new_key: false,
                    fault: Fault::ResponseLost,
                },
                Input::Retry {
                    new_key: false,
                    fault: Fault::None,
                },
            ],
        },
        // The atomic service is safe only for the key it is given.
        "new-key-double" => Challenge {
            id: "new-key-double",
            start: one(Atomic),
            moves: &[Operation],
            max_moves: 1,
            max_crashes: None,
            goal: goal(Measure::MostChargesForOneOrder, Value::Int(2)),
            solution: vec![operation(
                KeyStrategy::NewPerRetry,
                RetryPolicy::Immediate,
                2,
                vec![Fault::ResponseLost],
            )],
        },
        // Keys in another store: a crash between the charge and the key's write.
        "split-store-one-crash" => Challenge {
            id: "split-store-one-crash",
            start: one(SplitStore),
            moves: &[Request, Operation, Retry],
            max_moves: 2,
            max_crashes: Some(1),
            goal: goal(Measure::MostChargesForOneKey, Value::Int(2)),
            solution: vec![operation(
                KeyStrategy::Reuse,
                RetryPolicy::Fixed { delay_ms: 1_000 },
                2,
                vec![Fault::CrashAfterChargeBeforeRecord],
            )],
        },
        // Two requests with one key while the first is still running.
        "get-a-409" => Challenge {
            id: "get-a-409",
            start: one(Production),
            moves: &[Request, Parallel, Retry],
            max_moves: 1,
            max_crashes: None,
            goal: goal(Measure::Conflicts, Value::Int(1)),
            solution: vec![Input::Parallel {
                requests: vec![
                    RequestSpec {
                        key: Some("order-1".to_string()),
                        key_format: KeyFormat::V4,
                        amount: 100,
                        description: "order-1".to_string(),
                        fault: Fault::None,
                    };
                    2
                ],
                same_key: true,
            }],
        },
        // Keys are kept for 24 hours: a retry after that runs the charge again.
        "expiry-twice" => Challenge {
            id: "expiry-twice",
            start: one(Production),
            moves: &[Request, Retry, AdvanceTime],
            max_moves: 3,
            max_crashes: None,
            goal: goal(Measure::MostChargesForOneKey, Value::Int(2)),
            solution: vec![
                request(Some("order-7"), 100, "order-7", Fault::None),
                Input::AdvanceTime { ms: 25 * HOUR_MS },
                Input::Retry {
                    new_key: false,
                    fault: Fault::None,
                },
            ],
        },
        // Caching only successes: a failure, money in, the same key succeeds.
        "two-answers" => Challenge {
            id: "two-answers",
            start: Scenario {
                initial_balance: 50,
                policies: Policies {
                    failure_caching: FailureCaching::SuccessOnly,
                    ..Policies::default()
                },
                ..one(Production)
            },
            moves: &[Request, Retry, Deposit],
            max_moves: 3,
            max_crashes: None,
            goal: goal(Measure::MostAnswersForOneKey, Value::Int(2)),
            solution: vec![
                request(Some("order-1"), 100, "order-1", Fault::None),
                Input::Deposit { amount: 100 },
                Input::Retry {
                    new_key: false,
                    fault: Fault::None,
                },
            ],
        },
        // Commit, then publish: a crash in between and the event is gone.
        "lose-an-event" => Challenge {
            id: "lose-an-event",
            start: base(&[], Vec::new()).with_services(vec![ServiceSpec::wired(
                Atomic,
                EmitMode::DualWriteCommitThenPublish,
                true,
            )]),
            moves: &[Request, RelayTick],
            max_moves: 2,
            max_crashes: Some(1),
            goal: goal(Measure::EventLost, Value::Bool(true)),
            solution: vec![request(
                None,
                100,
                "order-1",
                Fault::CrashAfterCommitBeforeReply,
            )],
        },
        // Issue 13: every request carries the same key and the service is atomic, yet a slow
        // card processor outlives the in-flight lock and a retry charges again.
        "slow-lock-double" => Challenge {
            id: "slow-lock-double",
            // The lock lasts 5 s, as a Powertools in-progress record that expires with a
            // function's remaining time ("If a second invocation happens after this timestamp,
            // and the record is marked as INPROGRESS, we will execute the invocation again",
            // https://github.com/aws-powertools/powertools-lambda-python/releases/tag/v1.26.7);
            // the slow processor answers in 30 s.
            start: Scenario {
                policies: Policies {
                    in_flight_timeout_ms: 5_000,
                    ..Policies::default()
                },
                downstream: Downstream {
                    slow_ms: 30_000,
                    ..slow_processor()
                },
                ..one(Production)
            },
            moves: &[Request, Operation, Retry, AdvanceTime],
            max_moves: 2,
            max_crashes: Some(0),
            goal: goal(Measure::MostChargesForOneKey, Value::Int(2)),
            solution: vec![operation(
                KeyStrategy::Reuse,
                RetryPolicy::Fixed { delay_ms: 500 },
                10,
                vec![Fault::ProcessorSlow],
            )],
        },
        // The production service with keys looked up by the key alone: customer 1 has paid
        // order-1. One request from another customer is enough to read that receipt.
        "another-receipt" => Challenge {
            id: "another-receipt",
            start: Scenario {
                requests: RequestPolicies {
                    scope: KeyScope::Global,
                    ..RequestPolicies::default()
                },
                ..base(
                    &[Production],
                    vec![from_caller(
                        1,
                        false,
                        // The sandbox's charge: its description is "order".
                        request(Some("order-1"), 100, "order", Fault::None),
                    )],
                )
            },
            moves: &[Request],
            max_moves: 1,
            max_crashes: None,
            goal: goal(
                Measure::Holds(Invariant::OwnAccountAnswers),
                Value::Bool(false),
            ),
            solution: vec![from_caller(
                2,
                false,
                request(Some("order-1"), 100, "order", Fault::None),
            )],
        },
        _ => return None,
    };
    Some(c)
}

/// What wins a lab challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabGoal {
    /// Schedule the requests so that every one of them charges.
    EveryRequestCharges,
    /// Have the explorer search every schedule and find no double charge.
    ProvedSafe,
}

/// A lab challenge.
#[derive(Clone, Debug, PartialEq)]
pub struct LabChallenge {
    /// Stable id (`lab/#/lab?challenge=<id>`).
    pub id: &'static str,
    /// The lab's settings for it.
    pub scenario: LabScenario,
    /// What wins.
    pub goal: LabGoal,
    /// A winning schedule (for `EveryRequestCharges`; empty when the explorer wins it).
    pub solution: Vec<usize>,
}

impl Judge<Session> for Challenge {
    fn won(&self, session: &Session) -> bool {
        Challenge::won(self, session)
    }
}

impl Judge<Stepper> for LabChallenge {
    fn won(&self, stepper: &Stepper) -> bool {
        self.won_by_stepper(stepper)
    }
}

impl LabChallenge {
    /// Whether the learner's schedule wins it.
    pub fn won_by_stepper(&self, stepper: &Stepper) -> bool {
        self.goal == LabGoal::EveryRequestCharges
            && *stepper.scenario() == self.scenario
            && stepper.is_complete()
            && stepper.state().operation_count() == self.scenario.requests()
    }

    /// Whether the explorer's report wins it: finished, every schedule, no double charge.
    pub fn won_by_report(&self, scenario: &LabScenario, report: &Report) -> bool {
        self.goal == LabGoal::ProvedSafe
            && *scenario == self.scenario
            && report.finished
            && matches!(report.search, Search::Exhaustive { .. })
            && report.double_charge == 0
    }
}

/// A lab challenge by id.
pub fn lab_challenge(id: &str) -> Option<LabChallenge> {
    let three = |model| LabScenario::new(model, 3, KeyMode::Same, &[100], 1000).ok();
    Some(match id {
        "toctou-all-three" => LabChallenge {
            id: "toctou-all-three",
            scenario: three(Model::TocTou)?,
            goal: LabGoal::EveryRequestCharges,
            // Every request checks before any stores: all three miss, all three charge.
            solution: vec![0, 1, 2, 0, 1, 2, 0, 1, 2],
        },
        "atomic-impossible" => LabChallenge {
            id: "atomic-impossible",
            scenario: three(Model::Atomic)?,
            goal: LabGoal::ProvedSafe,
            solution: Vec::new(),
        },
        _ => return None,
    })
}
