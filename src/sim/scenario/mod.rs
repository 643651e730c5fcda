//! Scenarios: a versioned script of inputs plus the settings, as JSON, run against one or more
//! services side by side (one world each, same seed, same inputs).

pub(super) mod builtin;
mod json;
pub(super) mod session;
pub mod teach;
pub mod workload;

use self::json as scenario_json;
use crate::sim::article::key::check_key_chars;
use crate::sim::article::production::Policies;
use crate::sim::limits::{
    InputError, MAX_BRANCH_INPUTS, MAX_INPUTS, MAX_JSON_BYTES, MAX_SERVICES, MIN_SERVICES,
    SCENARIO_VERSION,
};
use crate::sim::world::account::RequestPolicies;
use crate::sim::world::downstream::Downstream;
use crate::sim::world::input::Input;
use crate::sim::world::outbox::EmitMode;
use crate::sim::world::server::ServiceKind;
use crate::sim::world::{LoggedInput, World, WorldConfig};

/// A script of inputs and the settings to run it with.
///
/// Its JSON (README.md, "Scenario JSON") is written and read by `scenario_json`: unknown fields
/// are errors; `emit`, `consumer_dedupes` (true), `policies` and `jitter_ms` may be left out.
#[derive(Clone, PartialEq, Eq)]
pub struct Scenario {
    /// Format version; this build reads `SCENARIO_VERSION` (1).
    pub version: u32,
    /// RNG seed shared by every world.
    pub seed: u64,
    /// Starting balance.
    pub initial_balance: i64,
    /// Services to compare, one world each.
    pub services: Vec<ServiceSpec>,
    /// How charges are announced downstream.
    pub emit: EmitMode,
    /// Whether the consumer keeps an inbox.
    pub consumer_dedupes: bool,
    /// The production service's policies.
    pub policies: Policies,
    /// One-way network latency.
    pub latency_ms: u64,
    /// Extra random latency.
    pub jitter_ms: u64,
    /// Client timeout.
    pub timeout_ms: u64,
    /// The script.
    pub inputs: Vec<Input>,
    /// The run's forks: inputs pushed at a step, after that step and before the next, in step
    /// order. As RaftScope's fork (`state.fork()` deletes the forward history from the current
    /// time, https://github.com/ongardie/raftscope/blob/master/state.js), what followed the step
    /// is discarded and rebuilt; here the script stays and the forks after the step are dropped. Empty for a run never forked,
    /// and then left out of the JSON, so links made before forks existed read and write as they
    /// did.
    pub branch: Vec<LoggedInput>,
    /// The card processor and the key store's failures (`world/downstream.rs`); the default,
    /// the article's world, is left out of the JSON.
    pub downstream: Downstream,
    /// The production service's request policies (issue 13): key scope, fingerprint fields,
    /// payload check, missing key. Left out of the JSON when all are the defaults.
    pub requests: RequestPolicies,
}

/// As derived, but `branch` is left out while empty, `downstream` while it is the article's world
/// and `requests` while they are the defaults: a scenario from before forks, the card processor
/// and the request policies existed prints as it did
/// (`tests/json_codec.rs` holds the reader to a record of such prints).
impl std::fmt::Debug for Scenario {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Scenario");
        d.field("version", &self.version)
            .field("seed", &self.seed)
            .field("initial_balance", &self.initial_balance)
            .field("services", &self.services)
            .field("emit", &self.emit)
            .field("consumer_dedupes", &self.consumer_dedupes)
            .field("policies", &self.policies)
            .field("latency_ms", &self.latency_ms)
            .field("jitter_ms", &self.jitter_ms)
            .field("timeout_ms", &self.timeout_ms)
            .field("inputs", &self.inputs);
        if !self.branch.is_empty() {
            d.field("branch", &self.branch);
        }
        if self.downstream != Downstream::default() {
            d.field("downstream", &self.downstream);
        }
        if !self.requests.is_default() {
            d.field("requests", &self.requests);
        }
        d.finish()
    }
}

/// One column of a scenario: a service, on its own (`"atomic"`) or with its own event wiring
/// (`{"kind": "atomic", "consumer_dedupes": false}`), so one run can set an outbox beside a dual
/// write, or a deduplicating consumer beside a naive one, on the same inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ServiceSpec {
    /// The service, with the scenario's emit mode and consumer.
    Kind(ServiceKind),
    /// The service with its own emit mode and/or consumer.
    Wired(WiredService),
}

/// A service with settings of its own; absent fields fall back to the scenario's (and are left
/// out of the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WiredService {
    /// The service.
    pub kind: ServiceKind,
    /// How this column announces charges.
    pub emit: Option<EmitMode>,
    /// Whether this column's consumer keeps an inbox.
    pub consumer_dedupes: Option<bool>,
}

impl ServiceSpec {
    /// The service this column runs.
    pub fn kind(&self) -> ServiceKind {
        match self {
            ServiceSpec::Kind(k) => *k,
            ServiceSpec::Wired(w) => w.kind,
        }
    }

    /// The service with its own emit mode and consumer.
    pub fn wired(kind: ServiceKind, emit: EmitMode, consumer_dedupes: bool) -> ServiceSpec {
        ServiceSpec::Wired(WiredService {
            kind,
            emit: Some(emit),
            consumer_dedupes: Some(consumer_dedupes),
        })
    }
}

impl From<ServiceKind> for ServiceSpec {
    fn from(kind: ServiceKind) -> Self {
        ServiceSpec::Kind(kind)
    }
}

impl Scenario {
    /// Parses and validates scenario JSON: the size limit first, then the version (read on its
    /// own, so a newer file gets "unsupported version" rather than a confusing unknown-field
    /// error), then the fields, then the limits.
    pub fn from_json(json: &str) -> Result<Scenario, InputError> {
        if json.len() > MAX_JSON_BYTES {
            return Err(InputError::JsonTooLarge {
                bytes: json.len(),
                max: MAX_JSON_BYTES,
            });
        }
        let s = scenario_json::read(json)?;
        s.validate()?;
        Ok(s)
    }

    /// Serializes to compact JSON.
    pub fn to_json(&self) -> String {
        scenario_json::write(self)
    }

    /// Checks the version, the settings, the services, every input and what they may cost.
    pub fn validate(&self) -> Result<(), InputError> {
        if self.version != SCENARIO_VERSION {
            return Err(InputError::UnsupportedVersion {
                version: self.version,
                supported: SCENARIO_VERSION,
            });
        }
        let count = self.services.len();
        if !(MIN_SERVICES..=MAX_SERVICES).contains(&count) {
            return Err(InputError::ServicesOutOfRange {
                count,
                min: MIN_SERVICES,
                max: MAX_SERVICES,
            });
        }
        if self.inputs.len() > MAX_INPUTS {
            return Err(InputError::TooManyInputs {
                count: self.inputs.len(),
                max: MAX_INPUTS,
            });
        }
        self.config(ServiceKind::Atomic).validate()?;
        self.downstream.validate()?;
        self.inputs.iter().try_for_each(Input::validate)?;
        if self
            .inputs
            .iter()
            .any(|i| matches!(i, Input::SetFault { .. }))
        {
            return Err(InputError::BranchOnly);
        }
        self.validate_branch()?;
        // What the inputs may cost is the same in every column: refused here, not part-way.
        // Forks are pushed after the whole script was counted, so they are counted after it.
        if self.branch.is_empty() {
            return World::script_cost(&self.inputs).map(|_| ());
        }
        let all: Vec<Input> = self
            .inputs
            .iter()
            .chain(self.branch.iter().map(|b| &b.input))
            .cloned()
            .collect();
        World::script_cost(&all).map(|_| ())
    }

    /// The branch's own limits: how many forks, in step order, each input valid. Whether each
    /// fits the run at its step (an attempt already past, a step past the end) is known only
    /// once the run gets there: `Session::branch_error` says.
    fn validate_branch(&self) -> Result<(), InputError> {
        if self.branch.len() > MAX_BRANCH_INPUTS {
            return Err(InputError::TooManyInputs {
                count: self.branch.len(),
                max: MAX_BRANCH_INPUTS,
            });
        }
        let count = self.inputs.len() + self.branch.len();
        if count > MAX_INPUTS {
            return Err(InputError::TooManyInputs {
                count,
                max: MAX_INPUTS,
            });
        }
        let mut previous = 0;
        for b in &self.branch {
            if b.at_step < previous {
                return Err(InputError::BranchOutOfOrder {
                    at_step: b.at_step,
                    previous,
                });
            }
            previous = b.at_step;
            b.input.validate()?;
        }
        Ok(())
    }

    /// The first key the run holds that no real client could send as the IETF draft's
    /// `Idempotency-Key` (not an RFC 8941 sf-string: a character outside `KEY_CHARS`), with the
    /// input that holds it (from 1, the script's inputs first, then the forks) and the character.
    /// The reader accepts such keys, so a link or file made before typed keys were checked
    /// (issue 26) still opens as it was made; the page says what this finds.
    pub fn unsendable_key(&self) -> Option<(usize, InputError)> {
        fn first(input: &Input) -> Result<(), InputError> {
            match input {
                Input::Request { key: Some(k), .. } => check_key_chars(k),
                Input::Parallel { requests, .. } => requests
                    .iter()
                    .filter_map(|r| r.key.as_deref())
                    .try_for_each(check_key_chars),
                Input::As { input, .. } => first(input),
                _ => Ok(()),
            }
        }
        let mut n = 0;
        for input in self
            .inputs
            .iter()
            .chain(self.branch.iter().map(|b| &b.input))
        {
            n += 1;
            if let Err(e) = first(input) {
                return Some((n, e));
            }
        }
        None
    }

    /// This run forked at step `at_step` with `input`: the forks after that step are dropped
    /// (their future is discarded), the new one comes after any already made at that step.
    pub fn forked(&self, at_step: usize, input: Input) -> Scenario {
        let mut next = self.clone();
        next.branch.retain(|b| b.at_step <= at_step);
        next.branch.push(LoggedInput { at_step, input });
        next
    }

    /// The world settings for one service.
    pub fn config_for(&self, spec: ServiceSpec) -> WorldConfig {
        let mut cfg = self.config(spec.kind());
        if let ServiceSpec::Wired(w) = spec {
            cfg.emit = w.emit.unwrap_or(cfg.emit);
            cfg.consumer_dedupes = w.consumer_dedupes.unwrap_or(cfg.consumer_dedupes);
        }
        cfg
    }

    /// The same scenario comparing other columns.
    pub fn with_services(mut self, services: Vec<ServiceSpec>) -> Scenario {
        self.services = services;
        self
    }

    /// The world settings for one service, with the scenario's emit mode and consumer.
    pub fn config(&self, service: ServiceKind) -> WorldConfig {
        WorldConfig {
            seed: self.seed,
            initial_balance: self.initial_balance,
            service,
            emit: self.emit,
            consumer_dedupes: self.consumer_dedupes,
            policies: self.policies,
            latency_ms: self.latency_ms,
            jitter_ms: self.jitter_ms,
            timeout_ms: self.timeout_ms,
            downstream: self.downstream,
            requests: self.requests,
        }
    }

    /// One world per service, all with the same seed and script.
    pub fn worlds(&self) -> Result<Vec<World>, InputError> {
        self.validate()?;
        self.services
            .iter()
            .map(|s| World::with_script(self.config_for(*s), self.inputs.clone()))
            .collect()
    }

    /// Runs every world to the end.
    pub fn run(&self) -> Result<Vec<World>, InputError> {
        let mut worlds = self.worlds()?;
        for w in &mut worlds {
            w.run_until_idle();
        }
        Ok(worlds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> &'static str {
        r#"{"version":1,"seed":7,"initial_balance":1000,"services":["naive","split-store"],
            "latency_ms":50,"timeout_ms":1000,"inputs":[{"type":"request","amount":100}]}"#
    }

    #[test]
    fn parses_with_defaults_and_round_trips() {
        let s = Scenario::from_json(minimal()).expect("valid");
        assert!(s.consumer_dedupes);
        assert_eq!(s.emit, EmitMode::None);
        assert_eq!(
            s.services,
            vec![ServiceKind::Naive.into(), ServiceKind::SplitStore.into()]
        );
        let back = Scenario::from_json(&s.to_json()).expect("round trip");
        assert_eq!(back, s);
        assert_eq!(s.worlds().expect("worlds").len(), 2);
    }

    #[test]
    fn errors_are_typed() {
        assert!(matches!(
            Scenario::from_json(&minimal().replace("\"version\":1", "\"version\":2")),
            Err(InputError::UnsupportedVersion {
                version: 2,
                supported: 1
            })
        ));
        assert!(matches!(
            Scenario::from_json(&minimal().replace("\"seed\"", "\"extra\":1,\"seed\"")),
            Err(InputError::JsonInvalid { .. })
        ));
        assert!(matches!(
            Scenario::from_json("{"),
            Err(InputError::JsonInvalid { .. })
        ));
        assert!(matches!(
            Scenario::from_json(&" ".repeat(MAX_JSON_BYTES + 1)),
            Err(InputError::JsonTooLarge { .. })
        ));
        assert!(matches!(
            Scenario::from_json(&minimal().replace("[\"naive\",\"split-store\"]", "[]")),
            Err(InputError::ServicesOutOfRange { count: 0, .. })
        ));
        assert!(matches!(
            Scenario::from_json(&minimal().replace("\"amount\":100", "\"amount\":0")),
            Err(InputError::AmountOutOfRange { amount: 0, .. })
        ));
        assert!(matches!(
            Scenario::from_json(&minimal().replace("\"timeout_ms\":1000", "\"timeout_ms\":0")),
            Err(InputError::DurationOutOfRange { .. })
        ));
    }

    /// Issue 26: a key that is not an sf-string (typed before keys were checked) still reads,
    /// and the scenario names the input and the character, for the page to say so.
    #[test]
    fn a_key_that_is_not_an_sf_string_still_reads_and_is_found() {
        let s = Scenario::from_json(minimal()).expect("valid");
        assert_eq!(s.unsendable_key(), None, "a minted key is a UUID");
        let json = minimal().replace(
            r#"[{"type":"request","amount":100}]"#,
            r#"[{"type":"request","key":"order-1","amount":100},{"type":"as","sends_key":true,"input":{"type":"request","key":"order-é","amount":1}}]"#,
        );
        let s = Scenario::from_json(&json).expect("an old link opens");
        assert_eq!(
            s.unsendable_key(),
            Some((2, InputError::KeyNotSfString { at: 7, code: 0xE9 }))
        );
        assert!(s.run().is_ok());
    }

    /// Found by `make fuzz`: a scenario whose inputs read and validate one by one, but whose
    /// retry would be an operation's 21st attempt, was accepted by `from_json` and refused only
    /// when its worlds were built. What the inputs may cost is part of the scenario's checks now.
    #[test]
    fn a_scenario_whose_inputs_cost_too_much_is_refused_when_read() {
        let json = minimal().replace(
            r#"[{"type":"request","amount":100}]"#,
            r#"[{"type":"operation","amount":1,"retry":{"kind":"immediate"},"max_attempts":20},{"type":"retry"}]"#,
        );
        assert!(json.contains("max_attempts"));
        assert_eq!(
            Scenario::from_json(&json),
            Err(InputError::RetryOverAttemptLimit {
                attempt: 21,
                max: crate::sim::limits::MAX_ATTEMPTS
            })
        );
    }
}
