//! Simulated charges per second, natively: `cargo bench --bench core`.
//!
//! (a) the article's `AtomicIdempotentService::charge` with distinct keys (one service holding
//!     all 1 M keys, and a fresh service per 10 k keys);
//! (b) a `World` running requests through network, server and store, with the trace and the
//!     invariant checks on (atomic and production services).
//! The browser runs the same workloads (`src/sim/workload.rs`) in `tests/wasm_bench_core.rs`.
//! Timing lives here, never in the core.

use idempotency_playground::sim::workload::{
    atomic_charges, atomic_charges_batched, distinct_keys, world_charges,
};
use idempotency_playground::ServiceKind;
use std::hint::black_box;
use std::time::Instant;

/// Best of `runs`: charges per second for `work`, which returns how many charges it made.
fn best_rate(runs: usize, mut work: impl FnMut() -> usize) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..runs {
        let start = Instant::now();
        let charges = black_box(work());
        let secs = start.elapsed().as_secs_f64();
        if charges > 0 && secs > 0.0 {
            best = best.max(charges as f64 / secs);
        }
    }
    best
}

fn main() {
    const ATOMIC_N: usize = 1_000_000;
    const WORLD_N: usize = 200_000;
    const RUNS: usize = 5;

    let keys = distinct_keys(ATOMIC_N);
    let a = best_rate(RUNS, || atomic_charges(black_box(&keys)));
    println!("core/atomic-service-1M-keys     {ATOMIC_N:>9} charges  {a:>14.0} charges/s");
    let b = best_rate(RUNS, || atomic_charges_batched(black_box(&keys), 10_000));
    println!("core/atomic-service-10k-keys    {ATOMIC_N:>9} charges  {b:>14.0} charges/s");

    for (name, service) in [
        ("core/world-atomic", ServiceKind::Atomic),
        ("core/world-production", ServiceKind::Production),
    ] {
        let rate = best_rate(RUNS, || world_charges(WORLD_N, service).unwrap_or(0));
        println!("{name:<31} {WORLD_N:>9} charges  {rate:>14.0} charges/s");
    }
}
