//! Soak: many random fault, retry and concurrency cases run through every service and event
//! wiring, each a world run to idle with the invariant checker on, and a table of how often each
//! one broke which invariant; plus determinism checks (the same config and inputs, run twice from
//! scratch, give equal snapshots).
//!
//! `tests/sim_props.rs` already proves the properties (1,000 proptest cases each: safe services
//! keep every invariant, the unsafe ones are caught, rewinding is replaying). This adds scale, the
//! same cases side by side in every column (case `i` has one config and one input list, run by
//! each row below, so the fractions compare like with like) and the printed fractions.
//!
//! The inputs are those of a correct client (`sim_props.rs`'s `honest_input`, plus a hand-made
//! retry with the same key): keys reused on retry, time advances short of the 24 h retention.
//! So a safe row must never be flagged, and each unsafe row must be flagged at least once; the
//! test fails otherwise, or if a determinism check fails.
//!
//! `cargo test` runs [`DEFAULT_CASES`] cases per row and [`DEFAULT_DETERMINISM`] determinism
//! checks; `make soak` runs `SOAK_CASES=100000 SOAK_DETERMINISM=1000` in release. `SOAK_SEED=<s>`
//! runs another sequence.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::time::{Duration, Instant};

use common::{env_u64, Rng};
use idempotency_playground::{
    EmitMode, FailureCaching, Fault, Input, Invariant, KeyFormat, KeyStrategy, MismatchStatus,
    Policies, RequestSpec, RetryPolicy, ServiceKind, World, WorldConfig,
};

/// Cases per row in `cargo test`: about 1.5 s in a debug build on the 2-core VM, all rows. The
/// rarest catch (a consumer without inbox: two relay ticks, the first crashing after publishing,
/// after a charge) is about 1 % of cases, so 600 cases miss it with odds near 0.2 %.
const DEFAULT_CASES: u64 = 600;
const DEFAULT_DETERMINISM: u64 = 100;
const DEFAULT_SEED: u64 = 0x736f_616b_0000_0014;

/// One column of the soak: a service with an event wiring, and whether it must never break an
/// invariant (safe) or must be caught breaking one (unsafe).
struct Row {
    name: &'static str,
    service: ServiceKind,
    emit: EmitMode,
    consumer_dedupes: bool,
    safe: bool,
}

const ROWS: [Row; 11] = [
    Row {
        name: "naive",
        service: ServiceKind::Naive,
        emit: EmitMode::None,
        consumer_dedupes: true,
        safe: false,
    },
    Row {
        name: "idempotent",
        service: ServiceKind::Idempotent,
        emit: EmitMode::None,
        consumer_dedupes: true,
        safe: true,
    },
    Row {
        name: "toctou",
        service: ServiceKind::TocTou,
        emit: EmitMode::None,
        consumer_dedupes: true,
        safe: false,
    },
    Row {
        name: "atomic",
        service: ServiceKind::Atomic,
        emit: EmitMode::None,
        consumer_dedupes: true,
        safe: true,
    },
    Row {
        name: "split-store",
        service: ServiceKind::SplitStore,
        emit: EmitMode::None,
        consumer_dedupes: true,
        safe: false,
    },
    Row {
        name: "production",
        service: ServiceKind::Production,
        emit: EmitMode::None,
        consumer_dedupes: true,
        safe: true,
    },
    Row {
        name: "atomic + outbox + inbox",
        service: ServiceKind::Atomic,
        emit: EmitMode::Outbox,
        consumer_dedupes: true,
        safe: true,
    },
    Row {
        name: "production + outbox + inbox",
        service: ServiceKind::Production,
        emit: EmitMode::Outbox,
        consumer_dedupes: true,
        safe: true,
    },
    Row {
        name: "production + outbox, no inbox",
        service: ServiceKind::Production,
        emit: EmitMode::Outbox,
        consumer_dedupes: false,
        safe: false,
    },
    Row {
        name: "atomic + dual write, commit then publish",
        service: ServiceKind::Atomic,
        emit: EmitMode::DualWriteCommitThenPublish,
        consumer_dedupes: true,
        safe: false,
    },
    Row {
        name: "atomic + dual write, publish then commit",
        service: ServiceKind::Atomic,
        emit: EmitMode::DualWritePublishThenCommit,
        consumer_dedupes: true,
        safe: false,
    },
];

// ---- random cases (the distributions of sim_props.rs's `config` and `honest_input`) -----------

fn fault(rng: &mut Rng) -> Fault {
    *rng.pick(&Fault::ALL)
}

/// A small pool so keys collide (retries, concurrent duplicates, mismatches).
fn key(rng: &mut Rng) -> Option<String> {
    match rng.below(4) {
        0 => None,
        i => Some(format!("key-{}", i - 1)),
    }
}

fn description(rng: &mut Rng) -> String {
    if rng.chance(50) {
        String::new()
    } else {
        "order".into()
    }
}

fn amount(rng: &mut Rng) -> i64 {
    rng.range(1, 400) as i64
}

fn retry(rng: &mut Rng) -> RetryPolicy {
    match rng.below(4) {
        0 => RetryPolicy::None,
        1 => RetryPolicy::Immediate,
        2 => RetryPolicy::Fixed {
            delay_ms: rng.range(0, 3_000),
        },
        _ => RetryPolicy::ExponentialJitter {
            base_ms: rng.range(1, 500),
            cap_ms: rng.range(500, 60_000),
        },
    }
}

fn request_spec(rng: &mut Rng) -> RequestSpec {
    RequestSpec {
        key: key(rng),
        key_format: KeyFormat::V4,
        amount: amount(rng),
        description: description(rng),
        fault: fault(rng),
    }
}

/// What a correct client sends: keys reused on retry, at most 12 time advances of at most 1 h.
fn honest_input(rng: &mut Rng) -> Input {
    match rng.below(11) {
        0..=2 => {
            let r = request_spec(rng);
            Input::Request {
                key: r.key,
                key_format: KeyFormat::V7,
                amount: r.amount,
                description: r.description,
                fault: r.fault,
            }
        }
        3..=5 => {
            let max_attempts = rng.range(1, 7) as u32;
            let faults = (0..rng.below(6).min(max_attempts as usize))
                .map(|_| fault(rng))
                .collect();
            Input::Operation {
                amount: amount(rng),
                description: description(rng),
                key_format: KeyFormat::V4,
                key_strategy: KeyStrategy::Reuse,
                retry: retry(rng),
                max_attempts,
                faults,
            }
        }
        6 => Input::Parallel {
            requests: (0..rng.range(2, 5)).map(|_| request_spec(rng)).collect(),
            same_key: rng.chance(50),
        },
        7 => Input::Deposit {
            amount: amount(rng),
        },
        8 => Input::RelayTick {
            crash_after_publish: rng.chance(50),
        },
        9 => Input::AdvanceTime {
            ms: rng.range(1, 3_600_000),
        },
        _ => Input::Retry {
            new_key: false,
            fault: fault(rng),
        },
    }
}

fn policies(rng: &mut Rng) -> Policies {
    Policies {
        failure_caching: *rng.pick(&[
            FailureCaching::CacheAll,
            FailureCaching::SuccessOnly,
            FailureCaching::AllButTransient,
        ]),
        mismatch: *rng.pick(&[
            MismatchStatus::Stripe400,
            MismatchStatus::Ietf422,
            MismatchStatus::RocketRides409,
        ]),
        in_flight: rng.chance(50),
        in_flight_timeout_ms: rng.range(1_000, 200_000),
        ..Policies::default()
    }
}

/// One case: settings (the row fills in service and wiring) and inputs, each with the number of
/// steps taken after pushing it, so later inputs overlap earlier ones.
#[derive(Clone, Debug)]
struct Case {
    config: WorldConfig,
    inputs: Vec<(Input, u8)>,
}

fn case(rng: &mut Rng) -> Case {
    let config = WorldConfig {
        seed: rng.next_u64(),
        initial_balance: rng.range(0, 2_000) as i64,
        policies: policies(rng),
        latency_ms: rng.range(0, 200),
        jitter_ms: rng.range(0, 100),
        timeout_ms: rng.range(50, 2_000),
        ..WorldConfig::default()
    };
    let n = rng.range(1, 12);
    let inputs = (0..n)
        .map(|_| (honest_input(rng), rng.below(6) as u8))
        .collect();
    Case { config, inputs }
}

fn run(case: &Case, row: &Row) -> World {
    let config = WorldConfig {
        service: row.service,
        emit: row.emit,
        consumer_dedupes: row.consumer_dedupes,
        ..case.config
    };
    let mut w = World::new(config).expect("valid config");
    for (input, steps) in &case.inputs {
        w.push_input(input.clone()).expect("valid input");
        for _ in 0..*steps {
            if w.step().is_none() {
                break;
            }
        }
    }
    w.run_until_idle();
    w
}

// ---- the soak --------------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    cases: u64,
    flagged: u64,
    by_invariant: [u64; Invariant::ALL.len()],
    halted: u64,
    steps: u64,
    time: Duration,
    first_flagged: Option<String>,
}

fn percent(n: u64, of: u64) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.1} %", 100.0 * n as f64 / of as f64)
    }
}

#[test]
fn every_service_and_wiring_at_scale() {
    let seed = env_u64("SOAK_SEED").unwrap_or(DEFAULT_SEED);
    let cases = env_u64("SOAK_CASES").unwrap_or(DEFAULT_CASES);
    let determinism = env_u64("SOAK_DETERMINISM").unwrap_or(DEFAULT_DETERMINISM);
    println!(
        "soak: seed {seed} (SOAK_SEED={seed} repeats this run), {cases} cases per row, \
         {determinism} determinism checks"
    );
    let started = Instant::now();
    let tallies = run_every_row(seed, cases);
    // Determinism: the same config and inputs, twice from scratch, in every row in turn.
    let nondeterministic = nondeterministic_checks(seed, determinism);
    let elapsed = started.elapsed();
    let mut failures = print_table(&tallies);
    println!(
        "determinism: {} of {determinism} checks gave equal snapshots; {} worlds in {:.2} s",
        determinism - nondeterministic.len() as u64,
        cases * ROWS.len() as u64 + 2 * determinism,
        elapsed.as_secs_f64()
    );
    failures.extend(nondeterministic.into_iter().take(5));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `cases` random cases, each run in every row: per row, what they did.
fn run_every_row(seed: u64, cases: u64) -> Vec<Tally> {
    let mut tallies: Vec<Tally> = ROWS.iter().map(|_| Tally::default()).collect();
    for i in 0..cases {
        let c = case(&mut Rng::for_case(seed, i));
        for (row, tally) in ROWS.iter().zip(&mut tallies) {
            let t = Instant::now();
            let w = run(&c, row);
            tally.time += t.elapsed();
            tally.cases += 1;
            tally.steps += w.steps_taken() as u64;
            tally.halted += u64::from(w.halted().is_some());
            // The article's services look a key up by the key alone and replay what it stored
            // to any request that carries it: a client that reuses a key for another request
            // gets another request's answer, and the run flags it, but only the production
            // service (which fingerprints the request) claims to prevent it.
            let claimed: Vec<&idempotency_playground::Violation> = w
                .violations()
                .iter()
                .filter(|v| {
                    row.service == ServiceKind::Production
                        || v.invariant != Invariant::ReplayMatchesRequest
                })
                .collect();
            if !claimed.is_empty() {
                tally.flagged += 1;
                for (k, inv) in Invariant::ALL.iter().enumerate() {
                    if claimed.iter().any(|v| v.invariant == *inv) {
                        tally.by_invariant[k] += 1;
                    }
                }
                if tally.first_flagged.is_none() {
                    tally.first_flagged = Some(format!("case {i}: {claimed:?}\n  {c:?}"));
                }
            }
        }
    }
    tallies
}

/// `determinism` cases, each run twice from scratch in one row (every row in turn): those whose
/// two runs differ.
fn nondeterministic_checks(seed: u64, determinism: u64) -> Vec<String> {
    let mut nondeterministic = Vec::new();
    for i in 0..determinism {
        let c = case(&mut Rng::for_case(seed ^ 0x0de7_e121_0000_0000, i));
        let row = &ROWS[(i % ROWS.len() as u64) as usize];
        let (a, b) = (run(&c, row), run(&c, row));
        if a.snapshot() != b.snapshot() || a != b {
            nondeterministic.push(format!("check {i} ({}): {c:?}", row.name));
        }
    }
    nondeterministic
}

/// Prints the table, a row per service and wiring, and returns the failures: a safe row flagged,
/// an unsafe row never flagged.
fn print_table(tallies: &[Tally]) -> Vec<String> {
    // One heading per invariant, in `Invariant::ALL`'s order (the match names each, so a new
    // invariant needs a heading before the table can print).
    let short = |inv: Invariant| match inv {
        Invariant::MoneyConserved => "money",
        Invariant::OneChargePerKey => "1/key",
        Invariant::OneChargePerOperation => "1/op",
        Invariant::ReplayIdentical => "replay",
        Invariant::OneEventPerCharge => "1 event",
        Invariant::ConsumerAtMostOnce => "consumer",
        Invariant::OwnAccountAnswers => "own acct",
        Invariant::ReplayMatchesRequest => "same req",
    };
    print!(
        "{:<42} {:>6} {:>7} {:>8}",
        "service + wiring (safe rows marked *)", "cases", "flagged", "fraction"
    );
    for inv in Invariant::ALL {
        print!(" {:>8}", short(inv));
    }
    println!(" {:>9} {:>7}", "steps", "time");
    let mut failures = Vec::new();
    for (row, t) in ROWS.iter().zip(tallies) {
        let name = format!("{}{}", row.name, if row.safe { " *" } else { "" });
        print!(
            "{name:<42} {:>6} {:>7} {:>8}",
            t.cases,
            t.flagged,
            percent(t.flagged, t.cases)
        );
        for n in t.by_invariant {
            print!(" {:>8}", percent(n, t.cases));
        }
        println!(" {:>9} {:>6.2}s", t.steps, t.time.as_secs_f64());
        if t.halted > 0 {
            println!("    {} runs halted at the trace limit", t.halted);
        }
        if row.safe && t.flagged > 0 {
            failures.push(format!(
                "{} is safe but was flagged in {} of {} cases; first: {}",
                row.name,
                t.flagged,
                t.cases,
                t.first_flagged.as_deref().unwrap_or("")
            ));
        }
        if !row.safe && t.flagged == 0 && t.cases > 0 {
            failures.push(format!(
                "{} is unsafe but was never flagged in {} cases",
                row.name, t.cases
            ));
        }
    }
    failures
}
