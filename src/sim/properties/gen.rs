//! The cases: one scenario per (seed, index), drawn from the property's ranges with the one
//! seeded PRNG. The article's ranges are kept (proptest's `1000i64..10000` and so on); what the
//! article's single-process test cannot have is added from the world: lost requests and
//! replies, crashes at each point, processor errors, and concurrent duplicates, because those are
//! what make the naive and TOCTOU services fail. Each range's low end is where shrinking heads.

use super::Property;
use crate::sim::base::rng::Rng;
use crate::sim::base::uuidgen::KeyFormat;
use crate::sim::scenario::builtin::base;
use crate::sim::scenario::Scenario;
use crate::sim::world::fault::Fault;
use crate::sim::world::input::{Input, RequestSpec};
use crate::sim::world::server::ServiceKind;
use std::ops::Range;

/// The article's `initial_balance in 1000i64..10000` (replay).
pub(super) const REPLAY_BALANCE: Range<i64> = 1000..10_000;
/// The article's `amount in 1i64..500` (replay).
pub(super) const REPLAY_AMOUNT: Range<i64> = 1..500;
/// The article's `num_retries in 1usize..50` (replay).
const REPLAY_RETRIES: Range<u64> = 1..50;
/// The article's replay key and description.
pub(super) const REPLAY_KEY: &str = "test-key";
const REPLAY_DESCRIPTION: &str = "test";

/// The article's `num_operations in 1usize..20` (distinct keys).
const DISTINCT_KEYS: Range<u64> = 1..20;
/// The article's `amount in 1i64..100` (distinct keys).
pub(super) const DISTINCT_AMOUNT: Range<i64> = 1..100;
/// The article's `initial = num_operations * amount + 1000`: enough for every key once.
pub(super) const DISTINCT_HEADROOM: i64 = 1000;
const DISTINCT_DESCRIPTION: &str = "op";
/// Attempts with a fault or a duplicate before a key's clean one (distinct keys).
const DISTINCT_EXTRA_ATTEMPTS: Range<u64> = 0..3;

/// Ours (one charge per key): a few keys, so that keys meet, and balances low enough for
/// insufficient funds and deposits to matter.
const ANY_KEYS: Range<u64> = 1..5;
pub(super) const ANY_BALANCE: Range<i64> = 0..10_000;
pub(super) const ANY_AMOUNT: Range<i64> = 1..500;
const ANY_ITEMS: Range<u64> = 1..17;
const ANY_DESCRIPTION: &str = "order";

/// Requests in one concurrent burst (the same key sent at once: a double click, two workers).
const BURST: Range<u64> = 2..4;

/// Every fault but none (the world's own list, in its order, without its first entry).
const FAULTS: &[Fault] = Fault::ALL.split_at(1).1;

/// The faults of the distinct-keys property: those after which a correct service still charges
/// the key's clean attempt exactly once. A crash before the record leaves the production
/// service's in-flight record until its timeout (its retries get 409), and a processor error
/// is a cached failure (its retries replay it): both are the service's documented answers, not
/// a double charge, so they belong to the other two properties.
const DISTINCT_FAULTS: [Fault; 3] = [
    Fault::RequestLost,
    Fault::ResponseLost,
    Fault::CrashAfterCommitBeforeReply,
];

/// Key of the i-th key of a case, as the article names them (`format!("key-{i}")`).
pub(super) fn key_name(i: u64) -> String {
    format!("key-{i}")
}

/// The seed of case `index` of a run seeded with `seed` (a case is reproduced from these two).
pub fn case_seed(seed: u64, index: u32) -> u64 {
    // SplitMix64's own step and mix: nearby (seed, index) pairs give unrelated case seeds.
    let golden = 0x9E37_79B9_7F4A_7C15u64;
    Rng::new(seed.wrapping_add(u64::from(index).wrapping_add(1).wrapping_mul(golden))).next_u64()
}

fn pick(rng: &mut Rng, range: Range<u64>) -> u64 {
    range.start + rng.below_inclusive(range.end - range.start - 1)
}

fn pick_i64(rng: &mut Rng, range: Range<i64>) -> i64 {
    // The ranges here are small and positive.
    let span = u64::try_from(range.end - range.start - 1).unwrap_or(0);
    range.start + i64::try_from(rng.below_inclusive(span)).unwrap_or(0)
}

/// True with probability 1 in `n`.
fn one_in(rng: &mut Rng, n: u64) -> bool {
    rng.below_inclusive(n - 1) == 0
}

fn request(key: &str, amount: i64, description: &str, fault: Fault) -> Input {
    Input::Request {
        key: Some(key.to_string()),
        key_format: KeyFormat::V4,
        amount,
        description: description.to_string(),
        fault,
    }
}

/// `n` requests with the same key sent at once, each with its own fault.
fn burst(key: &str, amount: i64, description: &str, faults: Vec<Fault>) -> Input {
    Input::Parallel {
        requests: faults
            .into_iter()
            .map(|fault| RequestSpec {
                key: Some(key.to_string()),
                key_format: KeyFormat::V4,
                amount,
                description: description.to_string(),
                fault,
            })
            .collect(),
        same_key: true,
    }
}

/// A fault from `faults` one time in `chance`, else none.
fn maybe_fault(rng: &mut Rng, chance: u64, faults: &[Fault]) -> Fault {
    if one_in(rng, chance) {
        faults[rng.below(faults.len())]
    } else {
        Fault::None
    }
}

/// One attempt with `key`: a single request, or (one time in `burst_chance`) a burst.
fn attempt(rng: &mut Rng, key: &str, amount: i64, description: &str, burst_chance: u64) -> Input {
    if one_in(rng, burst_chance) {
        let n = pick(rng, BURST);
        let faults = (0..n).map(|_| maybe_fault(rng, 3, FAULTS)).collect();
        burst(key, amount, description, faults)
    } else {
        let fault = maybe_fault(rng, 3, FAULTS);
        request(key, amount, description, fault)
    }
}

/// The case `index` of a run of `property` against `service` seeded with `seed`.
pub fn case(property: Property, service: ServiceKind, seed: u64, index: u32) -> Scenario {
    let case_seed = case_seed(seed, index);
    let mut rng = Rng::new(case_seed);
    let (initial_balance, inputs) = match property {
        Property::Replay => replay(&mut rng),
        Property::DistinctKeys => distinct_keys(&mut rng),
        Property::OneChargePerKey => any_mix(&mut rng),
    };
    // The lessons' world (the world's default settings) with one service and this case's
    // seed, balance and inputs.
    Scenario {
        seed: case_seed,
        initial_balance,
        ..base(&[service], inputs)
    }
}

/// A first charge with the article's key, then 1..50 retries with the same key and amount.
fn replay(rng: &mut Rng) -> (i64, Vec<Input>) {
    let balance = pick_i64(rng, REPLAY_BALANCE);
    let amount = pick_i64(rng, REPLAY_AMOUNT);
    let retries = pick(rng, REPLAY_RETRIES);
    let mut inputs = vec![attempt(rng, REPLAY_KEY, amount, REPLAY_DESCRIPTION, 4)];
    for _ in 0..retries {
        inputs.push(attempt(rng, REPLAY_KEY, amount, REPLAY_DESCRIPTION, 8));
    }
    (balance, inputs)
}

/// 1..20 keys, each tried 0..=2 times with a fault or as a burst, then once cleanly.
fn distinct_keys(rng: &mut Rng) -> (i64, Vec<Input>) {
    let keys = pick(rng, DISTINCT_KEYS);
    let amount = pick_i64(rng, DISTINCT_AMOUNT);
    let mut inputs = Vec::new();
    for i in 0..keys {
        let key = key_name(i);
        for _ in 0..pick(rng, DISTINCT_EXTRA_ATTEMPTS) {
            if one_in(rng, 3) {
                let n = pick(rng, BURST) as usize;
                inputs.push(burst(
                    &key,
                    amount,
                    DISTINCT_DESCRIPTION,
                    vec![Fault::None; n],
                ));
            } else {
                let fault = DISTINCT_FAULTS[rng.below(DISTINCT_FAULTS.len())];
                inputs.push(request(&key, amount, DISTINCT_DESCRIPTION, fault));
            }
        }
        inputs.push(request(&key, amount, DISTINCT_DESCRIPTION, Fault::None));
    }
    // `keys` and `amount` are small (ranges above): no overflow.
    let balance = keys as i64 * amount + DISTINCT_HEADROOM;
    (balance, inputs)
}

/// 1..=16 attempts over 1..=4 keys (each with its own amount) in any order, with deposits.
fn any_mix(rng: &mut Rng) -> (i64, Vec<Input>) {
    let balance = pick_i64(rng, ANY_BALANCE);
    let keys: Vec<(String, i64)> = (0..pick(rng, ANY_KEYS))
        .map(|i| (key_name(i), pick_i64(rng, ANY_AMOUNT)))
        .collect();
    let mut inputs = Vec::new();
    for _ in 0..pick(rng, ANY_ITEMS) {
        if one_in(rng, 8) {
            inputs.push(Input::Deposit {
                amount: pick_i64(rng, ANY_AMOUNT),
            });
        } else {
            let (key, amount) = &keys[rng.below(keys.len())];
            inputs.push(attempt(rng, key, *amount, ANY_DESCRIPTION, 6));
        }
    }
    (balance, inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_reproducible_valid_and_within_their_ranges() {
        for property in Property::ALL {
            for index in 0..200 {
                let a = case(property, ServiceKind::Atomic, 7, index);
                assert_eq!(a, case(property, ServiceKind::Atomic, 7, index));
                assert_eq!(a.validate(), Ok(()), "{property:?} #{index}");
                assert!(!a.inputs.is_empty());
                match property {
                    Property::Replay => {
                        assert!(REPLAY_BALANCE.contains(&a.initial_balance));
                        assert!((2..=50).contains(&a.inputs.len()));
                    }
                    Property::DistinctKeys => assert!(a.initial_balance > DISTINCT_HEADROOM),
                    Property::OneChargePerKey => {
                        assert!(ANY_BALANCE.contains(&a.initial_balance));
                    }
                }
            }
        }
        assert_ne!(case_seed(7, 0), case_seed(7, 1));
        assert_ne!(case_seed(7, 0), case_seed(8, 0));
    }

    #[test]
    fn the_generator_makes_what_breaks_the_unsafe_services() {
        let replay: Vec<Scenario> = (0..256)
            .map(|i| case(Property::Replay, ServiceKind::Naive, 1, i))
            .collect();
        let bursts_first = replay
            .iter()
            .filter(|s| matches!(s.inputs[0], Input::Parallel { .. }))
            .count();
        assert!(
            bursts_first > 30,
            "{bursts_first} of 256 start with a burst"
        );
        let faults = |s: &Scenario| {
            s.inputs
                .iter()
                .filter(|i| matches!(i, Input::Request { fault, .. } if *fault != Fault::None))
                .count()
        };
        assert!(replay.iter().map(faults).sum::<usize>() > 256);
        let mixes: Vec<Scenario> = (0..256)
            .map(|i| case(Property::OneChargePerKey, ServiceKind::Naive, 1, i))
            .collect();
        assert!(mixes
            .iter()
            .any(|s| s.inputs.iter().any(|i| matches!(i, Input::Deposit { .. }))));
    }
}
