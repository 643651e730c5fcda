//! Benchmark workloads, shared by the native bench (`benches/core.rs`) and the browser benches
//! (`tests/wasm_bench_core.rs`, `tests/wasm_bench_ui.rs`) so both measure exactly the same work. No timing here: the core
//! never reads a clock; the callers time these functions.

use crate::sim::article::AtomicIdempotentService;
use crate::sim::base::uuidgen::KeyFormat;
use crate::sim::limits::{InputError, MAX_BALANCE, MAX_INPUTS};
use crate::sim::world::fault::Fault;
use crate::sim::world::input::Input;
use crate::sim::world::server::ServiceKind;
use crate::sim::world::{World, WorldConfig};

/// `n` distinct keys, built before timing so key formatting is not measured.
pub fn distinct_keys(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("key-{i}")).collect()
}

/// The article's `AtomicIdempotentService::charge`, once per key, on one service (its store
/// grows to `keys.len()` records); returns the successes.
pub fn atomic_charges(keys: &[String]) -> usize {
    atomic_charges_batched(keys, keys.len())
}

/// As [`atomic_charges`], with a fresh service every `per_service` keys, so the store stays
/// cache-sized and the measure is the charge path rather than a large hash table's misses.
pub fn atomic_charges_batched(keys: &[String], per_service: usize) -> usize {
    keys.chunks(per_service.max(1))
        .map(|chunk| {
            let svc = AtomicIdempotentService::new(MAX_BALANCE);
            chunk
                .iter()
                .filter(|k| svc.charge(k, 1).is_success())
                .count()
        })
        .sum()
}

/// Charges per world in [`world_charges`]: a world takes at most `MAX_INPUTS` inputs.
pub const CHARGES_PER_WORLD: usize = MAX_INPUTS;

/// `n` charges through clients, network, server and store, with minted UUID keys, the trace and
/// the invariant checks on: worlds of `CHARGES_PER_WORLD` requests each, run to the end.
/// Returns the charges committed (equal to `n` unless something is wrong).
pub fn world_charges(n: usize, service: ServiceKind) -> Result<usize, InputError> {
    let request = Input::Request {
        key: None,
        key_format: KeyFormat::V4,
        amount: 1,
        description: String::new(),
        fault: Fault::None,
    };
    let config = WorldConfig {
        service,
        initial_balance: MAX_BALANCE,
        ..WorldConfig::default()
    };
    let mut committed = 0;
    let mut left = n;
    while left > 0 {
        let batch = left.min(CHARGES_PER_WORLD);
        let mut world = World::with_script(config, vec![request.clone(); batch])?;
        world.run_until_idle();
        committed += world.ledger().len();
        if !world.violations().is_empty() || world.halted().is_some() {
            // A broken run must not pass for a fast one.
            return Ok(0);
        }
        left -= batch;
    }
    Ok(committed)
}

/// The playground benchmark's run: `n` charges of 1 with fresh UUID v4 keys through the naive,
/// idempotent and atomic services, from a balance of 1,000,000 (so none is refused).
pub fn many_charges(n: usize) -> super::Scenario {
    let inputs = (0..n)
        .map(|_| Input::Request {
            key: None,
            key_format: KeyFormat::V4,
            amount: 1,
            description: String::new(),
            fault: Fault::None,
        })
        .collect();
    let services = [
        ServiceKind::Naive,
        ServiceKind::Idempotent,
        ServiceKind::Atomic,
    ];
    let mut scenario = super::builtin::base(&services, inputs);
    scenario.initial_balance = 1_000_000;
    scenario
}

/// Charges in [`heaviest_accepted`].
pub const HEAVIEST_CHARGES: usize = 450;

/// About the most work a scenario the limits accept can ask for: six services with an outbox,
/// [`HEAVIEST_CHARGES`] charges, then as many relay ticks that crash after publishing as the
/// event bound lets in, each one publishing every row again: the bound is at the limit, and
/// every world records about 330,000 events (a crashing tick publishes and delivers each row,
/// marking none); its JSON is under `MAX_JSON_BYTES`. The hardening
/// benchmark loads it in the page.
pub fn heaviest_accepted() -> super::Scenario {
    let mut inputs: Vec<Input> = (0..HEAVIEST_CHARGES)
        .map(|_| Input::Request {
            key: None,
            key_format: KeyFormat::V4,
            amount: 1,
            description: String::new(),
            fault: Fault::None,
        })
        .collect();
    let mut scenario = super::builtin::base(&ServiceKind::ALL, Vec::new());
    scenario.initial_balance = MAX_BALANCE;
    scenario.emit = crate::sim::world::outbox::EmitMode::Outbox;
    let tick = Input::RelayTick {
        crash_after_publish: true,
    };
    // Add ticks while the scenario is still accepted (the bound is what refuses the next one).
    loop {
        inputs.push(tick.clone());
        scenario.inputs = inputs;
        if scenario.worlds().is_err() {
            inputs = std::mem::take(&mut scenario.inputs);
            inputs.pop();
            scenario.inputs = inputs;
            return scenario;
        }
        inputs = std::mem::take(&mut scenario.inputs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workloads_charge_what_they_claim() {
        let keys = distinct_keys(100);
        assert_eq!(atomic_charges(&keys), 100);
        assert_eq!(atomic_charges_batched(&keys, 7), 100);
        assert_eq!(world_charges(250, ServiceKind::Atomic), Ok(250));
        assert_eq!(world_charges(30, ServiceKind::Production), Ok(30));
    }

    #[test]
    fn the_heaviest_accepted_scenario_is_accepted_and_one_more_tick_is_not() {
        use crate::sim::limits::{MAX_JSON_BYTES, MAX_TRACE_EVENTS};
        let s = heaviest_accepted();
        let worlds = s.worlds().expect("accepted");
        for w in &worlds {
            assert!(w.event_bound() > (MAX_TRACE_EVENTS as u64) * 9 / 10);
        }
        assert!(
            s.to_json().len() < MAX_JSON_BYTES,
            "{} bytes",
            s.to_json().len()
        );
        let mut more = s.clone();
        more.inputs.push(Input::RelayTick {
            crash_after_publish: true,
        });
        assert!(matches!(
            more.worlds(),
            Err(InputError::TooMuchWork { max, .. }) if max == MAX_TRACE_EVENTS
        ));
        // The end-to-end test and the load benchmark import this copy.
        let fixture = include_str!("../../../tests/fixtures/heaviest_scenario.json");
        assert!(
            fixture == s.to_json(),
            "tests/fixtures/heaviest_scenario.json is stale: cargo run --example heaviest_scenario > tests/fixtures/heaviest_scenario.json"
        );
    }
}
