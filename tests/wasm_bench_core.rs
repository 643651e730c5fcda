//! Simulated charges per second in headless Chrome, the same workloads as benches/core.rs
//! (src/sim/scenario/workload.rs):
//! `wasm-pack test --headless --chrome --release --features wasm-bench -- --test wasm_bench_core`.
//! Prints one line per workload with `console_log!` (shown by wasm-bindgen-test-runner).
//! Each run is one synchronous slice; the test yields to the event loop between runs, because
//! the WebDriver session gives up on a page that stays busy for 20 s.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use idempotency_playground::workload::{
    atomic_charges, atomic_charges_batched, distinct_keys, world_charges,
};
use idempotency_playground::ServiceKind;
use std::hint::black_box;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// Best of `runs`: charges per second for `work`, which returns how many charges it made.
async fn best_rate(runs: usize, mut work: impl FnMut() -> usize) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..runs {
        gloo_timers::future::TimeoutFuture::new(0).await;
        let start = now_ms();
        let charges = black_box(work());
        let ms = now_ms() - start;
        if charges > 0 && ms > 0.0 {
            best = best.max(charges as f64 / (ms / 1e3));
        }
    }
    best
}

#[wasm_bindgen_test]
async fn core_charges_per_second_in_the_browser() {
    const ATOMIC_N: usize = 1_000_000;
    const WORLD_N: usize = 200_000;
    const RUNS: usize = 5;

    let keys = distinct_keys(ATOMIC_N);
    let a = best_rate(RUNS, || atomic_charges(black_box(&keys))).await;
    console_log!("core/atomic-service-1M-keys     {ATOMIC_N:>9} charges  {a:>14.0} charges/s");
    let b = best_rate(RUNS, || atomic_charges_batched(black_box(&keys), 10_000)).await;
    console_log!("core/atomic-service-10k-keys    {ATOMIC_N:>9} charges  {b:>14.0} charges/s");
    assert!(a > 0.0 && b > 0.0);

    for (name, service) in [
        ("core/world-atomic", ServiceKind::Atomic),
        ("core/world-production", ServiceKind::Production),
    ] {
        let rate = best_rate(RUNS, || world_charges(WORLD_N, service).unwrap_or(0)).await;
        console_log!("{name:<31} {WORLD_N:>9} charges  {rate:>14.0} charges/s");
        assert!(rate > 0.0, "{name} made no charges");
    }
}
