//! Explorer throughput in headless Chrome, the same cases as benches/lab.rs:
//! `wasm-pack test --headless --chrome --release --features wasm-bench -- --test wasm_bench_lab`.
//! Prints a Markdown table with `console_log!` (shown by wasm-bindgen-test-runner).
//! Also checks the page targets: 3 same-key TOCTOU requests exhaustively under 100 ms, 4 with
//! caching under 1 s (in the browser, as the page runs them).
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use idempotency_playground::lab::{Explorer, KeyMode, LabScenario, Model, Report, Search};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Median of `runs` runs, in ms, and the last report.
fn measure(model: Model, requests: usize, search: Search, runs: usize) -> (f64, Report) {
    let scenario = LabScenario::new(model, requests, KeyMode::Same, &[100], 1000).unwrap();
    let mut times = Vec::new();
    let mut report = None;
    for _ in 0..runs {
        let t = now_ms();
        let r = Explorer::new(&scenario, search)
            .unwrap()
            .run_to_end()
            .unwrap();
        times.push(now_ms() - t);
        report = Some(r);
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], report.unwrap())
}

fn rate(count: f64, ms: f64) -> String {
    let per_s = count / (ms / 1e3).max(1e-9);
    if per_s >= 1e6 {
        format!("{:.2} M", per_s / 1e6)
    } else if per_s >= 1e3 {
        format!("{:.1} k", per_s / 1e3)
    } else {
        format!("{per_s:.0}")
    }
}

/// The cases of benches/lab.rs: (name, model, requests, search, runs).
const CASES: [(&str, Model, usize, Search, usize); 6] = [
    (
        "TOCTOU, 3 same-key requests, no caching",
        Model::TocTou,
        3,
        Search::Exhaustive { caching: false },
        9,
    ),
    (
        "TOCTOU, 3 same-key requests, caching",
        Model::TocTou,
        3,
        Search::Exhaustive { caching: true },
        9,
    ),
    (
        "TOCTOU, 4 same-key requests, no caching",
        Model::TocTou,
        4,
        Search::Exhaustive { caching: false },
        3,
    ),
    (
        "TOCTOU, 4 same-key requests, caching",
        Model::TocTou,
        4,
        Search::Exhaustive { caching: true },
        5,
    ),
    (
        "TOCTOU, 5 same-key requests, caching",
        Model::TocTou,
        5,
        Search::Exhaustive { caching: true },
        3,
    ),
    (
        "Atomic, 10 same-key requests, 10,000 samples",
        Model::Atomic,
        10,
        Search::Sample {
            samples: 10_000,
            seed: 1,
        },
        3,
    ),
];

#[wasm_bindgen_test]
fn explorer_throughput_in_the_browser() {
    console_log!("| case (headless Chrome) | time (median) | schedules | schedules/s | distinct states | states/s | steps/s |");
    console_log!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut three: f64 = 0.0;
    let mut four_cached = f64::MAX;
    for (name, model, k, search, runs) in CASES {
        let (ms, r) = measure(model, k, search, runs);
        let (states, states_rate) = match r.distinct_states {
            Some(n) => (n.to_string(), rate(n as f64, ms)),
            None => ("–".into(), "–".into()),
        };
        console_log!(
            "| {name} | {ms:.2} ms | {} | {} | {states} | {states_rate} | {} |",
            r.schedules,
            rate(r.schedules as f64, ms),
            rate(r.steps_executed as f64, ms)
        );
        match (k, search) {
            // Both searches of 3 requests must meet the target, so keep the slower.
            (3, Search::Exhaustive { .. }) => three = three.max(ms),
            (4, Search::Exhaustive { caching: true }) => four_cached = ms,
            _ => {}
        }
    }
    // A benchmark reports against its targets; it does not fail a run on speed.
    console_log!(
        "lab-bench targets: 3 requests {three:.1} ms (target < 100 ms: {}), 4 requests cached {four_cached:.1} ms (target < 1000 ms: {})",
        if three < 100.0 { "met" } else { "MISSED" },
        if four_cached < 1000.0 { "met" } else { "MISSED" }
    );
}
