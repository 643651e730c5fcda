//! Property runs of 256 cases, natively: the time from the first case to the end of shrinking, and
//! the simulated events per second, for each property against the services that fail and pass it.
//!
//! Run: `cargo bench --bench properties` (prints a Markdown table for BENCHMARKS.md).
//! The same runs in headless Chrome: tests/wasm_bench_props.rs; in the page itself:
//! benches/properties.mjs.

use std::time::Instant;

use idempotency_playground::limits::DEFAULT_PROPERTY_CASES;
use idempotency_playground::properties::{Phase, Property, PropertyRun, Settings};
use idempotency_playground::ServiceKind;

/// The seeds each row is the median over.
const SEEDS: [u64; 5] = [1, 2, 3, 42, 2026];

fn main() {
    println!("| property (256 cases, native) | service | outcome | events (median) | time (median of 5 seeds) | events/s |");
    println!("| --- | --- | --- | ---: | ---: | ---: |");
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
                    let t = Instant::now();
                    let run = PropertyRun::new(settings).expect("valid").run_to_end();
                    (t.elapsed().as_secs_f64() * 1e3, run.events(), run.phase())
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
            println!(
                "| {} | {} | {outcome} | {ev} | {ms:.2} ms | {:.2} M |",
                property.id(),
                service.id(),
                ev as f64 / (ms / 1e3).max(1e-9) / 1e6
            );
        }
    }
}
