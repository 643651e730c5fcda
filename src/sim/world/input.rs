//! The closed set of inputs that drive a world. A world changes only through these (and the
//! passage of simulated time they cause), which is what makes a run replayable.

use super::account::Caller;
use super::client::{KeyStrategy, RetryPolicy};
use super::fault::Fault;
use crate::sim::article::key::validate_key;
use crate::sim::base::uuidgen::KeyFormat;
use crate::sim::limits::{
    check_amount, check_description, check_duration, DurationField, InputError, MAX_ADVANCE_MS,
    MAX_ATTEMPTS, MAX_OPERATIONS, MAX_PARALLEL_REQUESTS, MIN_PARALLEL_REQUESTS,
};

/// One request of a `Parallel` input: a single attempt, no retry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestSpec {
    /// The key to send; `None` mints one (see `Parallel::same_key`).
    pub key: Option<String>,
    /// Format of a minted key.
    pub key_format: KeyFormat,
    /// Amount to charge.
    pub amount: i64,
    /// Charge description (part of the request fingerprint).
    pub description: String,
    /// Fault for this request.
    pub fault: Fault,
}

impl RequestSpec {
    /// Checks the key, amount and description.
    pub fn validate(&self) -> Result<(), InputError> {
        if let Some(key) = &self.key {
            validate_key(key)?;
        }
        check_amount(self.amount)?;
        check_description(&self.description)
    }
}

/// Something the learner or a scenario script does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// One manual attempt (the sandbox's "send"). Requests pushed while others are in flight
    /// run concurrently with them.
    Request {
        /// The key to send; `None` mints a fresh one.
        key: Option<String>,
        /// Format of a minted key.
        key_format: KeyFormat,
        /// Amount to charge.
        amount: i64,
        /// Charge description.
        description: String,
        /// Fault for this attempt.
        fault: Fault,
    },
    /// A retrying client performing one logical operation.
    Operation {
        /// Amount to charge.
        amount: i64,
        /// Charge description.
        description: String,
        /// Format of the keys it mints.
        key_format: KeyFormat,
        /// Reuse the key on retry (right) or mint a new one (the common bug).
        key_strategy: KeyStrategy,
        /// When to retry.
        retry: RetryPolicy,
        /// Attempts at most, 1..=`MAX_ATTEMPTS`.
        max_attempts: u32,
        /// Fault of attempt i at index i; missing entries are `Fault::None`.
        faults: Vec<Fault>,
    },
    /// 2..=10 requests sent at the same instant.
    Parallel {
        /// The requests.
        requests: Vec<RequestSpec>,
        /// If true, the requests without a key share one minted key (a double click).
        same_key: bool,
    },
    /// The learner retries the most recent client operation by hand: the same logical operation
    /// (same amount and description), sent again with the same key or, with `new_key`, a freshly
    /// minted one (the common bug). Ignored when no operation exists yet.
    Retry {
        /// Mint a new key instead of reusing the operation's.
        new_key: bool,
        /// What happens to this attempt.
        fault: Fault,
    },
    /// Let simulated time pass (pending events fire on the way).
    AdvanceTime {
        /// How long, 1..=`MAX_ADVANCE_MS`.
        ms: u64,
    },
    /// One run of the outbox relay.
    RelayTick {
        /// Crash after publishing, before marking the rows published.
        crash_after_publish: bool,
    },
    /// Add money to the account.
    Deposit {
        /// Amount, within the charge limits.
        amount: i64,
    },
    /// A fork only (the scenario's `branch`): what happens to attempt `attempt` of operation
    /// `op` changes to `fault`. Allowed until the attempt's request reaches the server (an
    /// attempt not sent yet, or one still in the network); later, that part of the run is past
    /// and the push is refused (`InputError::FaultTooLate`).
    SetFault {
        /// The operation, from 0 in the order the run started them.
        op: u32,
        /// The attempt, from 1.
        attempt: u32,
        /// Its new fault.
        fault: Fault,
    },
    /// The server process crashes now and restarts at once: every request between two of its
    /// phases dies there (what an earlier phase committed stays; no reply leaves), as a crash
    /// fault would at that point. Requests that arrive later are served as usual.
    Crash,
    /// One request or one retrying client sent by a caller of its own (issue 13): another
    /// account, a body stamped with each attempt's send time, or no key at all.
    As {
        /// Who sends it.
        caller: Caller,
        /// A `Request` or an `Operation`.
        input: Box<Input>,
    },
}

impl Input {
    /// The account whose money this input moves when it runs: the caller's for `As`, account 0
    /// for the other charges and for a deposit, none for the rest (a retry is its operation's,
    /// already counted).
    pub fn account(&self) -> Option<u32> {
        match self {
            Self::As { caller, .. } => Some(caller.account),
            Self::Request { .. }
            | Self::Operation { .. }
            | Self::Parallel { .. }
            | Self::Deposit { .. } => Some(0),
            _ => None,
        }
    }

    /// Checks every field against the limits.
    pub fn validate(&self) -> Result<(), InputError> {
        match self {
            Self::Request {
                key,
                amount,
                description,
                ..
            } => {
                if let Some(key) = key {
                    validate_key(key)?;
                }
                check_amount(*amount)?;
                check_description(description)
            }
            Self::Operation {
                amount,
                description,
                retry,
                max_attempts,
                faults,
                ..
            } => {
                check_amount(*amount)?;
                check_description(description)?;
                validate_attempts(*max_attempts, faults)?;
                retry.validate()
            }
            Self::Parallel { requests, .. } => validate_parallel(requests),
            Self::AdvanceTime { ms } => {
                check_duration(DurationField::Advance, *ms, 1, MAX_ADVANCE_MS).map(|_| ())
            }
            Self::RelayTick { .. } | Self::Retry { .. } | Self::Crash => Ok(()),
            Self::SetFault { op, attempt, .. } => validate_fault_target(*op, *attempt),
            Self::Deposit { amount } => check_amount(*amount).map(|_| ()),
            Self::As { caller, input } => validate_as(caller, input),
        }
    }
}

/// An operation's attempts, 1..=`MAX_ATTEMPTS`, and at most one fault per attempt.
fn validate_attempts(max_attempts: u32, faults: &[Fault]) -> Result<(), InputError> {
    if !(1..=MAX_ATTEMPTS).contains(&max_attempts) {
        return Err(InputError::AttemptsOutOfRange {
            attempts: max_attempts,
            min: 1,
            max: MAX_ATTEMPTS,
        });
    }
    let max = max_attempts as usize;
    if faults.len() > max {
        return Err(InputError::TooManyFaults {
            faults: faults.len(),
            max,
        });
    }
    Ok(())
}

/// A `Parallel` input: its number of requests, and each request.
fn validate_parallel(requests: &[RequestSpec]) -> Result<(), InputError> {
    let count = requests.len();
    if !(MIN_PARALLEL_REQUESTS..=MAX_PARALLEL_REQUESTS).contains(&count) {
        return Err(InputError::ParallelOutOfRange {
            count,
            min: MIN_PARALLEL_REQUESTS,
            max: MAX_PARALLEL_REQUESTS,
        });
    }
    requests.iter().try_for_each(RequestSpec::validate)
}

/// A `SetFault`'s target: an operation and an attempt that can exist.
fn validate_fault_target(op: u32, attempt: u32) -> Result<(), InputError> {
    if op as usize >= MAX_OPERATIONS {
        return Err(InputError::NoSuchOperation {
            op,
            count: MAX_OPERATIONS as u32,
        });
    }
    if !(1..=MAX_ATTEMPTS).contains(&attempt) {
        return Err(InputError::NoSuchAttempt {
            op,
            attempt,
            max: MAX_ATTEMPTS,
        });
    }
    Ok(())
}

/// An `As`: the caller, what it wraps (a request or an operation; no key without the key
/// header), and the wrapped input.
fn validate_as(caller: &Caller, input: &Input) -> Result<(), InputError> {
    caller.validate()?;
    match input {
        Input::Request { key: Some(_), .. } if !caller.sends_key => {
            return Err(InputError::KeyWithoutKeyHeader)
        }
        Input::Request { .. } | Input::Operation { .. } => {}
        _ => return Err(InputError::CallerWrapsOnlyRequests),
    }
    input.validate()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(max_attempts: u32, faults: Vec<Fault>) -> Input {
        Input::Operation {
            amount: 100,
            description: String::new(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts,
            faults,
        }
    }

    #[test]
    fn validation() {
        assert!(op(3, vec![Fault::RequestLost]).validate().is_ok());
        assert!(matches!(
            op(0, vec![]).validate(),
            Err(InputError::AttemptsOutOfRange { attempts: 0, .. })
        ));
        assert!(matches!(
            op(MAX_ATTEMPTS + 1, vec![]).validate(),
            Err(InputError::AttemptsOutOfRange { .. })
        ));
        assert!(matches!(
            op(1, vec![Fault::None, Fault::None]).validate(),
            Err(InputError::TooManyFaults { faults: 2, max: 1 })
        ));
        let spec = RequestSpec {
            key: None,
            key_format: KeyFormat::V4,
            amount: 1,
            description: String::new(),
            fault: Fault::None,
        };
        let one = Input::Parallel {
            requests: vec![spec.clone()],
            same_key: false,
        };
        assert!(matches!(
            one.validate(),
            Err(InputError::ParallelOutOfRange { count: 1, .. })
        ));
        let eleven = Input::Parallel {
            requests: vec![spec; 11],
            same_key: true,
        };
        assert!(eleven.validate().is_err());
        assert!(Input::AdvanceTime { ms: 0 }.validate().is_err());
        assert!(Input::AdvanceTime { ms: MAX_ADVANCE_MS }.validate().is_ok());
        assert!(Input::Deposit { amount: -5 }.validate().is_err());
        assert!(Input::Request {
            key: Some(String::new()),
            key_format: KeyFormat::V4,
            amount: 1,
            description: String::new(),
            fault: Fault::None
        }
        .validate()
        .is_err());
    }
}
