//! Property checks, the article's proptest section in the world: a property is run over random
//! scenarios generated from a seed, each built for one service and run to its end; a failure is
//! shrunk to a minimal scenario that still fails, which the playground opens as it is.
//!
//! - `gen.rs`: the cases, one [`Scenario`] per (seed, index), drawn from the property's ranges
//!   (the article's, widened with the faults, retries and concurrent duplicates of the world).
//! - `check.rs`: runs one case and judges what the world did (its ledger, its answers, its
//!   balance at each step) against the property; a broken property is a [`Breach`], data only.
//! - `shrink.rs`: greedy, deterministic shrinking in bounded slices, and its log: each variant
//!   tried, the edit that made it and what it did, for the page to walk through.
//! - `runner.rs`: [`PropertyRun`], a resumable run (cases, then shrinking) in bounded slices,
//!   as `lab/explorer.rs` and `SessionBuild` are, so the page never blocks and can cancel.
//!
//! Like the rest of the core it reads no clock and no OS randomness: the seed is an input.

mod check;
mod gen;
mod runner;
mod shrink;

pub use check::{check, judge, run_case, Outcome};
pub use gen::{case, case_seed};
pub use runner::{Failure, Phase, PropertyRun};
pub use shrink::{ShrinkEdit, ShrinkStep, ShrinkVerdict, Shrinker, Touch};

use crate::sim::limits::{read_field, InputError, TypedField};
use crate::sim::scenario::Scenario;
use crate::sim::world::server::ServiceKind;

/// A property of a payment service, checked over generated scenarios.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Property {
    /// The article's `idempotent_retry_never_changes_balance`: after a key's first answer, any
    /// number of retries with the same key leaves the balance unchanged, and the key is charged
    /// at most once (`operation_count() <= 1`).
    #[default]
    Replay,
    /// The article's `unique_keys_process_independently`: N distinct keys, each retried until
    /// it gets through, charge exactly N times and the balance drops by their amounts.
    DistinctKeys,
    /// Ours: in any mix of keys, retries, concurrent duplicates, faults and deposits, no key is
    /// charged more than once.
    OneChargePerKey,
}

impl Property {
    /// Every property, in menu order.
    pub const ALL: [Property; 3] = [
        Property::Replay,
        Property::DistinctKeys,
        Property::OneChargePerKey,
    ];

    /// The stable name used in links.
    pub fn id(self) -> &'static str {
        match self {
            Self::Replay => "replay",
            Self::DistinctKeys => "distinct-keys",
            Self::OneChargePerKey => "one-charge-per-key",
        }
    }

    /// The property named `id` in a link.
    pub fn from_id(id: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.id() == id)
    }
}

/// What a run checks: one property of one service, over `cases` scenarios drawn from `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The property.
    pub property: Property,
    /// The service every case is built for.
    pub service: ServiceKind,
    /// Cases to check, `MIN_PROPERTY_CASES..=MAX_PROPERTY_CASES`.
    pub cases: u32,
    /// The run's seed, `0..=MAX_PROPERTY_SEED`; case i is drawn from (seed, i).
    pub seed: u64,
}

impl Settings {
    /// Checks the number of cases and the seed against their limits.
    pub fn validate(&self) -> Result<(), InputError> {
        parse_cases(&self.cases.to_string())?;
        parse_seed(&self.seed.to_string())?;
        Ok(())
    }
}

/// The service named `id` (its JSON and link name).
pub fn service_from_id(id: &str) -> Option<ServiceKind> {
    ServiceKind::ALL.into_iter().find(|k| k.id() == id)
}

/// Reads a typed number of cases: a whole number in `MIN_PROPERTY_CASES..=MAX_PROPERTY_CASES`.
pub fn parse_cases(text: &str) -> Result<u32, InputError> {
    read_field(TypedField::PropertyCases, text).map(|n| n as u32)
}

/// Reads a typed seed: a whole number in `0..=MAX_PROPERTY_SEED`.
pub fn parse_seed(text: &str) -> Result<u64, InputError> {
    read_field(TypedField::PropertySeed, text).map(|n| n as u64)
}

/// How a case broke its property: which rule, the key, the step that broke it, and the
/// balances or charge counts that show it. Values only; the page words them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Breach {
    /// Replay: a request with `key` was charged at `step`, after the key's first answer (at
    /// `answered_at`), so the balance did not stay at `before`: the run ends at `after`
    /// (deposits made after the answer left out).
    BalanceMoved {
        /// The key.
        key: String,
        /// The step of the key's first answer.
        answered_at: usize,
        /// The step of the charge after it.
        step: usize,
        /// The balance right after the first answer.
        before: i64,
        /// The balance at the end, less the deposits made after the first answer.
        after: i64,
    },
    /// Replay: the key was charged `charges` times (the article's `operation_count() <= 1`);
    /// `step` is the second charge's.
    OperationCount {
        /// The key.
        key: String,
        /// The step of the second charge.
        step: usize,
        /// Charges of the key by the end.
        charges: u32,
    },
    /// Distinct keys: `key` was charged `charges` times, not once; `step` is the second
    /// charge's when there was one.
    NotChargedOnce {
        /// The key.
        key: String,
        /// The step of the second charge, if any.
        step: Option<usize>,
        /// Charges of the key by the end.
        charges: u32,
    },
    /// Distinct keys: the balance ends at `actual`, not the starting balance less each key's
    /// amount once (`expected`).
    BalanceOff {
        /// Distinct keys in the case.
        keys: usize,
        /// What the balance should be.
        expected: i64,
        /// What it is.
        actual: i64,
    },
    /// One charge per key: `key` was charged again at `step` (`charges` times by the end).
    ChargedTwice {
        /// The key.
        key: String,
        /// The step of the second charge.
        step: usize,
        /// Charges of the key by the end.
        charges: u32,
    },
}

impl Breach {
    /// The step that broke the property, where there is one (the playground opens there).
    pub fn step(&self) -> Option<usize> {
        match self {
            Breach::BalanceMoved { step, .. }
            | Breach::OperationCount { step, .. }
            | Breach::ChargedTwice { step, .. } => Some(*step),
            Breach::NotChargedOnce { step, .. } => *step,
            Breach::BalanceOff { .. } => None,
        }
    }
}

/// A case and how it broke its property.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    /// The scenario, built for the run's service (open it in the playground as it is).
    pub scenario: Scenario,
    /// How it broke the property.
    pub breach: Breach,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::limits::{MAX_PROPERTY_CASES, MAX_PROPERTY_SEED};

    #[test]
    fn typed_numbers_say_what_is_wrong_with_them() {
        assert_eq!(parse_cases("256"), Ok(256));
        assert_eq!(parse_cases(" 1_000 "), Ok(1000));
        assert_eq!(parse_cases("10,000"), Ok(MAX_PROPERTY_CASES));
        use crate::sim::limits::NumberProblem::*;
        let problem = |r: Result<u64, InputError>| match r {
            Err(InputError::BadNumber { number, .. }) => Some(number.problem),
            _ => None,
        };
        let cases = |t: &str| problem(parse_cases(t).map(u64::from));
        assert_eq!(cases("abc"), Some(NotANumber));
        assert_eq!(cases(""), Some(Empty));
        assert_eq!(cases("2.5"), Some(NotANumber));
        assert_eq!(cases("-1"), Some(Negative));
        assert_eq!(cases("0"), Some(TooSmall));
        assert_eq!(cases("10001"), Some(TooLarge));
        assert_eq!(cases("99999999999999999999999"), Some(TooLarge));
        assert_eq!(parse_seed("0"), Ok(0));
        assert_eq!(parse_seed("9007199254740991"), Ok(MAX_PROPERTY_SEED));
        for typed in ["9007199254740992", "18446744073709551616"] {
            assert_eq!(problem(parse_seed(typed)), Some(TooLarge), "{typed}");
        }
        assert_eq!(problem(parse_seed("-1")), Some(Negative));
        assert_eq!(problem(parse_seed("x1")), Some(NotANumber));
    }

    #[test]
    fn settings_and_names() {
        let s = Settings {
            property: Property::Replay,
            service: ServiceKind::Naive,
            cases: 256,
            seed: 42,
        };
        assert_eq!(s.validate(), Ok(()));
        assert!(Settings { cases: 0, ..s }.validate().is_err());
        assert!(Settings {
            seed: MAX_PROPERTY_SEED + 1,
            ..s
        }
        .validate()
        .is_err());
        for p in Property::ALL {
            assert_eq!(Property::from_id(p.id()), Some(p));
        }
        for k in ServiceKind::ALL {
            assert_eq!(service_from_id(k.id()), Some(k));
        }
        assert_eq!(Property::from_id("nope"), None);
    }
}
