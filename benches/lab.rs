//! Explorer throughput, natively: schedules/s and states/s for same-key TOCTOU requests, with and
//! without state caching, plus a 10-request sample of the atomic service.
//!
//! Run: `cargo bench --bench lab` (prints a Markdown table for BENCHMARKS.md).
//! The same cases in headless Chrome: tests/wasm_bench_lab.rs.

use std::time::{Duration, Instant};

use idempotency_playground::lab::{Explorer, KeyMode, LabScenario, Model, Report, Search};
use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::text::lab_error;

struct Case {
    name: &'static str,
    model: Model,
    requests: usize,
    search: Search,
}

const CASES: [Case; 6] = [
    Case {
        name: "TOCTOU, 3 same-key requests, no caching",
        model: Model::TocTou,
        requests: 3,
        search: Search::Exhaustive { caching: false },
    },
    Case {
        name: "TOCTOU, 3 same-key requests, caching",
        model: Model::TocTou,
        requests: 3,
        search: Search::Exhaustive { caching: true },
    },
    Case {
        name: "TOCTOU, 4 same-key requests, no caching",
        model: Model::TocTou,
        requests: 4,
        search: Search::Exhaustive { caching: false },
    },
    Case {
        name: "TOCTOU, 4 same-key requests, caching",
        model: Model::TocTou,
        requests: 4,
        search: Search::Exhaustive { caching: true },
    },
    Case {
        name: "TOCTOU, 5 same-key requests, caching",
        model: Model::TocTou,
        requests: 5,
        search: Search::Exhaustive { caching: true },
    },
    Case {
        name: "Atomic, 10 same-key requests, 10,000 samples",
        model: Model::Atomic,
        requests: 10,
        search: Search::Sample {
            samples: 10_000,
            seed: 1,
        },
    },
];

/// Repeats a case until it has run `MIN_TOTAL` and at least `MIN_RUNS` times; reports the median.
const MIN_TOTAL: Duration = Duration::from_millis(500);
const MIN_RUNS: usize = 5;

fn run(case: &Case) -> Result<(Duration, Report), String> {
    let scenario = LabScenario::new(case.model, case.requests, KeyMode::Same, &[100], 1000)
        .map_err(|e| lab_error(Lang::En, &e))?;
    let mut times = Vec::new();
    let mut report = None;
    let started = Instant::now();
    while times.len() < MIN_RUNS || started.elapsed() < MIN_TOTAL {
        let t = Instant::now();
        let r = Explorer::new(&scenario, case.search)
            .and_then(|mut e| e.run_to_end())
            .map_err(|e| lab_error(Lang::En, &e))?;
        times.push(t.elapsed());
        report = Some(std::hint::black_box(r));
    }
    times.sort();
    let median = times[times.len() / 2];
    report
        .map(|r| (median, r))
        .ok_or_else(|| "no run".to_string())
}

fn per_second(count: f64, time: Duration) -> String {
    let rate = count / time.as_secs_f64().max(1e-9);
    if rate >= 1e9 {
        format!("{:.2} G", rate / 1e9)
    } else if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1} k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

fn main() {
    println!("| case | time (median) | schedules | schedules/s | distinct states | states/s | steps | steps/s |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for case in &CASES {
        match run(case) {
            Ok((time, r)) => {
                let (states, states_rate) = match r.distinct_states {
                    Some(n) => (n.to_string(), per_second(n as f64, time)),
                    None => ("–".to_string(), "–".to_string()),
                };
                println!(
                    "| {} | {:.3} ms | {} | {} | {} | {} | {} | {} |",
                    case.name,
                    time.as_secs_f64() * 1e3,
                    r.schedules,
                    per_second(r.schedules as f64, time),
                    states,
                    states_rate,
                    r.steps_executed,
                    per_second(r.steps_executed as f64, time),
                );
            }
            Err(e) => println!("| {} | failed: {e} | | | | | | |", case.name),
        }
    }
}
