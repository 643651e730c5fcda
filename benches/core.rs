//! Simulated charges per second, natively: `cargo bench --bench core`.
//!
//! (a) the article's `AtomicIdempotentService::charge` with distinct keys (one service holding
//!     all 1 M keys, and a fresh service per 10 k keys);
//! (b) a `World` running requests through network, server and store, with the trace and the
//!     invariant checks on (atomic and production services);
//! (c) the playground's step-back cost with 10 k charges per world: one `World::clone()` at the
//!     end of the run, and `Session::seek(position - 1)` (copy a checkpoint, replay) 200 times.
//! The browser runs the same workloads (`src/sim/scenario/workload.rs`) in `tests/wasm_bench_core.rs`.
//! Timing lives here, never in the core.

use idempotency_playground::workload::{
    atomic_charges, atomic_charges_batched, distinct_keys, many_charges, world_charges,
};
use idempotency_playground::ServiceKind;
use idempotency_playground::Session;
use std::hint::black_box;
use std::time::{Duration, Instant};

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

/// Median and 95th percentile, in ms.
fn p50_p95(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize].as_secs_f64() * 1e3;
    (at(0.5), at(0.95))
}

/// (c): clone cost of a long-run world, and the playground's step back.
fn step_back(charges: usize) {
    let scenario = many_charges(charges);
    let mut session = Session::new(scenario).expect("valid scenario");
    session.seek(session.total());
    let world = session.worlds()[2].clone();
    let clones: Vec<Duration> = (0..200)
        .map(|_| {
            let start = Instant::now();
            black_box(black_box(&world).clone());
            start.elapsed()
        })
        .collect();
    let (p50, p95) = p50_p95(clones);
    println!(
        "core/world-clone-10k             {charges:>9} charges  p50 {p50:>8.4} ms  p95 {p95:>8.4} ms  ({} trace events)",
        world.trace().len()
    );
    let backs: Vec<Duration> = (0..200)
        .map(|_| {
            let start = Instant::now();
            session.seek(session.position() - 1);
            black_box(session.worlds());
            start.elapsed()
        })
        .collect();
    let (p50, p95) = p50_p95(backs);
    println!(
        "core/session-step-back-10k       {charges:>9} charges  p50 {p50:>8.4} ms  p95 {p95:>8.4} ms  (3 worlds, 200 steps back from the end)"
    );
}

fn main() {
    const ATOMIC_N: usize = 1_000_000;
    const WORLD_N: usize = 200_000;
    const RUNS: usize = 5;
    // `cargo bench --bench core -- step-back` runs only the cases whose name contains the word.
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let run = |name: &str| filter.as_deref().is_none_or(|f| name.contains(f));

    if run("core/atomic-service") {
        let keys = distinct_keys(ATOMIC_N);
        let a = best_rate(RUNS, || atomic_charges(black_box(&keys)));
        println!("core/atomic-service-1M-keys     {ATOMIC_N:>9} charges  {a:>14.0} charges/s");
        let b = best_rate(RUNS, || atomic_charges_batched(black_box(&keys), 10_000));
        println!("core/atomic-service-10k-keys    {ATOMIC_N:>9} charges  {b:>14.0} charges/s");
    }

    for (name, service) in [
        ("core/world-atomic", ServiceKind::Atomic),
        ("core/world-production", ServiceKind::Production),
    ] {
        if !run(name) {
            continue;
        }
        let rate = best_rate(RUNS, || world_charges(WORLD_N, service).unwrap_or(0));
        println!("{name:<31} {WORLD_N:>9} charges  {rate:>14.0} charges/s");
    }

    if run("core/world-clone core/session-step-back") {
        step_back(10_000);
    }
}
