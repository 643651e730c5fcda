//! Property runs of 256 cases in headless Chrome, the same runs as benches/properties.rs:
//! `cargo test --release --target wasm32-unknown-unknown --features wasm-bench --test wasm_bench_props -- --nocapture`.
//! Prints a Markdown table with `console_log!`. The page's own time (slices between frames
//! included) is measured by benches/properties.mjs.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use idempotency_playground::limits::DEFAULT_PROPERTY_CASES;
use idempotency_playground::properties::{Phase, Property, PropertyRun, Settings};
use idempotency_playground::ServiceKind;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const SEEDS: [u64; 5] = [1, 2, 3, 42, 2026];

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

#[wasm_bindgen_test]
fn property_runs_in_the_browser() {
    console_log!("| property (256 cases, headless Chrome) | service | outcome | events (median) | time (median of 5 seeds) | events/s |");
    console_log!("| --- | --- | --- | ---: | ---: | ---: |");
    for property in Property::ALL {
        for service in [
            ServiceKind::Naive,
            ServiceKind::TocTou,
            ServiceKind::Atomic,
            ServiceKind::Production,
        ] {
            let mut rows: Vec<(f64, u64, Phase)> = SEEDS
                .iter()
                .map(|&seed| {
                    let settings = Settings {
                        property,
                        service,
                        cases: DEFAULT_PROPERTY_CASES,
                        seed,
                    };
                    let t = now_ms();
                    let run = PropertyRun::new(settings).expect("valid").run_to_end();
                    (now_ms() - t, run.events(), run.phase())
                })
                .collect();
            rows.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (ms, _, phase) = rows[rows.len() / 2].clone();
            let mut events: Vec<u64> = rows.iter().map(|r| r.1).collect();
            events.sort_unstable();
            let ev = events[events.len() / 2];
            let outcome = if phase == Phase::Passed {
                "pass"
            } else {
                "fail"
            };
            console_log!(
                "| {} | {} | {outcome} | {ev} | {ms:.2} ms | {:.2} M |",
                property.id(),
                service.id(),
                ev as f64 / (ms / 1e3).max(1e-9) / 1e6
            );
        }
    }
}
