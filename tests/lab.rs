//! The concurrency lab's claims, reproduced natively: exact schedule counts, the TOCTOU double
//! charge and its minimal counterexample, the atomic service's one success in every schedule, and
//! typed errors for every bad input.

// In the browser layer (wasm-pack test) the same tests run in headless Chrome: `#[test]` is
// rebound to `wasm_bindgen_test` there, so the core is checked on the target the page runs on.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use idempotency_playground::lab::*;
use idempotency_playground::lab::{common_indent, dedent, parse_sections, section, MARKERS};
use idempotency_playground::lab::{
    format_schedule, parse_amounts, parse_integer, parse_schedule, parse_seed,
};
use idempotency_playground::limits::{
    LAB_STEPS_PER_REQUEST, MAX_CACHED_REQUESTS, MAX_PARALLEL_REQUESTS, MAX_RAW_SCHEDULES,
    MAX_SAMPLES,
};
use idempotency_playground::{
    AtomicIdempotentService, IdempotentPaymentService, PaymentResult, TocTouVulnerableService,
};

fn scenario(model: Model, k: usize, keys: KeyMode) -> LabScenario {
    LabScenario::new(model, k, keys, &[100], 1000).expect("valid scenario")
}

fn explore(s: &LabScenario, search: Search) -> Report {
    Explorer::new(s, search)
        .expect("within budget")
        .run_to_end()
        .expect("search finishes")
}

const CACHED: Search = Search::Exhaustive { caching: true };
const PLAIN: Search = Search::Exhaustive { caching: false };

// ---- counting ----

#[test]
fn raw_count_matches_the_textbook_formula() {
    // (kn)!/(n!)^k, from the guide's table.
    let cases: [(usize, usize, u128); 8] = [
        (2, 3, 20),
        (2, 5, 252),
        (3, 3, 1_680),
        (3, 4, 34_650),
        (3, 5, 756_756),
        (4, 3, 369_600),
        (4, 4, 63_063_000),
        (4, 5, 11_732_745_024),
    ];
    for (k, n, expected) in cases {
        assert_eq!(raw_schedule_count(k, n), Some(expected), "{k} x {n}");
    }
    assert_eq!(raw_schedule_count(1, 3), Some(1));
    assert_eq!(raw_schedule_count(0, 3), Some(1));
    // 10 requests of 3 steps: 30!/6^10 = 4,386,797,336,285,844,480,000,000 still fits in u128.
    assert_eq!(
        raw_schedule_count(10, 3),
        Some(4_386_797_336_285_844_480_000_000)
    );
    // 10 requests of 30 steps overflows u128: None, not a panic or a wrapped number.
    assert_eq!(raw_schedule_count(10, 30), None);
    assert_eq!(raw_schedule_count(usize::MAX, 3), None);
}

#[test]
fn exhaustive_counts_are_exact_for_every_model_without_locks_across_steps() {
    // TOCTOU and the unlocked service never block, so every interleaving is a complete schedule.
    for model in [Model::TocTou, Model::Unlocked] {
        for keys in [KeyMode::Same, KeyMode::Different] {
            for (k, expected) in [(2, 20u128), (3, 1_680)] {
                let s = scenario(model, k, keys);
                for search in [CACHED, PLAIN] {
                    let r = explore(&s, search);
                    assert!(r.finished);
                    assert_eq!(r.schedules, expected, "{model:?} {keys:?} k={k} {search:?}");
                    assert_eq!(r.raw_schedules, Some(expected));
                }
            }
        }
    }
    // 4 requests with caching: the exact 369,600 through memoised counts.
    let r = explore(&scenario(Model::TocTou, 4, KeyMode::Same), CACHED);
    assert_eq!(r.schedules, 369_600);
    assert_eq!(r.distinct_states, Some(5_876));
}

#[test]
fn caching_changes_the_work_not_the_answer() {
    for model in Model::ALL {
        for keys in [KeyMode::Same, KeyMode::Different] {
            for k in 2..=4 {
                let s = scenario(model, k, keys);
                let cached = explore(&s, CACHED);
                let plain = explore(&s, PLAIN);
                assert_eq!(cached.schedules, plain.schedules, "{model:?} {keys:?} {k}");
                assert_eq!(cached.groups, plain.groups, "{model:?} {keys:?} {k}");
                assert_eq!(cached.double_charge, plain.double_charge);
                // The plain search is a brute-force minimum over every schedule.
                assert_eq!(
                    cached.counterexample.as_ref().map(|c| c.context_switches),
                    plain.counterexample.as_ref().map(|c| c.context_switches),
                    "{model:?} {keys:?} {k}"
                );
                let states = cached.distinct_states.expect("cached search counts states");
                // Every stored state but the root was reached by one computed step.
                assert!(states as u64 <= cached.steps_executed + 1);
                assert!(cached.steps_executed <= plain.steps_executed);
            }
        }
    }
}

#[test]
fn group_counts_for_three_same_key_toctou_requests() {
    let r = explore(&scenario(Model::TocTou, 3, KeyMode::Same), CACHED);
    let groups: Vec<(u8, u8, u128)> = r
        .groups
        .iter()
        .map(|g| (g.key.successes, g.key.duplicates, g.schedules))
        .collect();
    assert_eq!(groups, vec![(1, 2, 60), (2, 1, 324), (3, 0, 1_296)]);
    assert_eq!(r.double_charge, 324 + 1_296);
    assert_eq!(r.distinct_states, Some(341));
}

// ---- the article's claims ----

#[test]
fn atomic_service_gives_one_success_and_k_minus_1_duplicates_in_every_schedule() {
    for k in 2..=4 {
        let s = scenario(Model::Atomic, k, KeyMode::Same);
        for search in [CACHED, PLAIN] {
            let r = explore(&s, search);
            assert!(r.schedules > 0);
            assert_eq!(r.double_charge, 0);
            assert!(r.counterexample.is_none());
            assert_eq!(r.groups.len(), 1, "k={k}: {:?}", r.groups);
            let g = r.groups[0];
            assert_eq!((g.key.successes, g.key.duplicates), (1, k as u8 - 1));
            assert_eq!(g.schedules, r.schedules);
        }
    }
    // The lock makes others wait, so fewer schedules are possible than the raw count.
    let r = explore(&scenario(Model::Atomic, 3, KeyMode::Same), CACHED);
    assert_eq!(r.schedules, 60);
    assert!(r.schedules < r.raw_schedules.unwrap());
}

#[test]
fn atomic_service_holds_for_ten_requests_over_ten_thousand_sampled_schedules() {
    let s = scenario(Model::Atomic, 10, KeyMode::Same);
    let r = explore(
        &s,
        Search::Sample {
            samples: 10_000,
            seed: 42,
        },
    );
    assert_eq!(r.schedules, 10_000);
    assert_eq!(r.groups.len(), 1);
    assert_eq!(
        (r.groups[0].key.successes, r.groups[0].key.duplicates),
        (1, 9)
    );
    assert_eq!(r.groups[0].schedules, 10_000);
    assert_eq!(r.double_charge, 0);
}

#[test]
fn toctou_sampled_with_ten_requests_double_charges() {
    let s = scenario(Model::TocTou, 10, KeyMode::Same);
    let r = explore(
        &s,
        Search::Sample {
            samples: 2_000,
            seed: 7,
        },
    );
    assert_eq!(r.schedules, 2_000);
    assert!(r.double_charge > 0);
    let c = r.counterexample.expect("a sampled double charge");
    let run = Stepper::replay(s, &c.schedule).unwrap();
    assert!(run.double_charged());
    assert_eq!(context_switches(&c.schedule), c.context_switches);
}

#[test]
fn toctou_has_schedules_with_two_or_more_successes() {
    for model in [Model::TocTou, Model::Unlocked] {
        for k in 2..=4 {
            let r = explore(&scenario(model, k, KeyMode::Same), CACHED);
            assert!(r.double_charge > 0);
            let two_plus: u128 = r
                .groups
                .iter()
                .filter(|g| g.key.successes >= 2)
                .map(|g| g.schedules)
                .sum();
            assert_eq!(two_plus, r.double_charge, "{model:?} k={k}");
            // But some schedules still come out right (run one after another).
            assert!(r.groups.iter().any(|g| g.key.successes == 1));
        }
    }
}

#[test]
fn minimal_counterexample_replayed_in_the_stepper_double_charges() {
    for k in 2..=4 {
        let s = scenario(Model::TocTou, k, KeyMode::Same);
        let r = explore(&s, CACHED);
        let c = r.counterexample.expect("TOCTOU double-charges");
        assert_eq!(c.schedule.len(), k * LAB_STEPS_PER_REQUEST);
        assert_eq!(context_switches(&c.schedule), c.context_switches);
        let run = Stepper::replay(s.clone(), &c.schedule).expect("a valid schedule");
        assert!(run.is_complete());
        assert!(run.double_charged());
        let outcome = run.outcome().unwrap();
        assert!(outcome.successes >= 2);
        assert_eq!(
            run.state().balance(),
            1000 - 100 * i64::from(outcome.successes)
        );
        assert_eq!(
            run.state().operation_count(),
            usize::from(outcome.successes)
        );
    }
    // Two requests: one must be interrupted between its check and its store, and come back:
    // two switches is the least, e.g. 1 1 2 2 2 1.
    let r = explore(&scenario(Model::TocTou, 2, KeyMode::Same), CACHED);
    let c = r.counterexample.unwrap();
    assert_eq!(c.context_switches, 2);
    assert_eq!(c.schedule, vec![0, 0, 1, 1, 1, 0]);
}

#[test]
fn different_keys_never_count_as_double_charge() {
    for model in Model::ALL {
        let r = explore(&scenario(model, 3, KeyMode::Different), CACHED);
        assert_eq!(r.double_charge, 0, "{model:?}");
        assert!(r.groups.iter().all(|g| g.key.successes == 3));
    }
}

#[test]
fn insufficient_funds_is_a_group_of_its_own() {
    // 150 covers one charge of 100: the second request on another key is declined.
    let s = LabScenario::new(Model::Atomic, 2, KeyMode::Different, &[100], 150).unwrap();
    let r = explore(&s, CACHED);
    assert_eq!(r.groups.len(), 1);
    assert_eq!(
        (r.groups[0].key.successes, r.groups[0].key.insufficient),
        (1, 1)
    );
    // TOCTOU with one key and not enough for two: the race cannot double-charge past the balance.
    let s = LabScenario::new(Model::TocTou, 2, KeyMode::Same, &[100], 150).unwrap();
    let r = explore(&s, CACHED);
    assert_eq!(r.double_charge, 0);
    assert!(r
        .groups
        .iter()
        .any(|g| g.key.successes == 1 && g.key.insufficient == 1));
}

#[test]
fn sequential_runs_match_the_real_services() {
    // Run each request to completion before the next: the model must give exactly what the
    // crate's own services return when called one after another.
    let amounts = [300, 500, 400];
    for keys in [KeyMode::Same, KeyMode::Different] {
        for model in Model::ALL {
            let s = LabScenario::new(model, 3, keys, &amounts, 1000).unwrap();
            let schedule: Vec<usize> = (0..3)
                .flat_map(|r| std::iter::repeat_n(r, LAB_STEPS_PER_REQUEST))
                .collect();
            let run = Stepper::replay(s.clone(), &schedule).unwrap();
            let toctou = TocTouVulnerableService::new(1000);
            let atomic = AtomicIdempotentService::new(1000);
            let mut unlocked = IdempotentPaymentService::new(1000);
            for (r, amount) in amounts.iter().enumerate() {
                let key = s.key_label(s.key_index(r));
                let real = match model {
                    Model::TocTou => toctou.charge_with_toctou_gap(&key, *amount),
                    Model::Atomic => atomic.charge(&key, *amount),
                    Model::Unlocked => unlocked.charge(&key, *amount, "lab"),
                };
                assert_eq!(
                    to_payment_result(run.state().result(r).unwrap()),
                    real,
                    "{model:?} {keys:?} request {r}"
                );
            }
            let real_balance = match model {
                Model::TocTou => toctou.balance(),
                Model::Atomic => atomic.balance(),
                Model::Unlocked => unlocked.balance(),
            };
            assert_eq!(run.state().balance(), real_balance);
        }
    }
}

fn to_payment_result(r: LabResult) -> PaymentResult {
    fn charge(c: ChargeOutcome) -> PaymentResult {
        match c {
            ChargeOutcome::Success { balance } => PaymentResult::Success { balance },
            ChargeOutcome::InsufficientFunds { balance } => {
                PaymentResult::InsufficientFunds { balance }
            }
        }
    }
    match r {
        LabResult::Success { balance } => PaymentResult::Success { balance },
        LabResult::InsufficientFunds { balance } => PaymentResult::InsufficientFunds { balance },
        LabResult::DuplicateRequest { original } => PaymentResult::DuplicateRequest {
            original_result: Box::new(charge(original)),
        },
    }
}

// ---- the stepper ----

#[test]
fn atomic_lock_blocks_others_until_released() {
    let s = scenario(Model::Atomic, 3, KeyMode::Same);
    let mut run = Stepper::new(s);
    let rec = run.step(1).unwrap();
    assert_eq!(rec.acquired, Some(LockName::State));
    assert_eq!(run.state().lock_holder(), Some(1));
    assert_eq!(run.status(0), Some(RequestStatus::Blocked { holder: 1 }));
    assert_eq!(run.status(2), Some(RequestStatus::Blocked { holder: 1 }));
    assert_eq!(run.movable(), vec![1]);
    assert_eq!(
        run.step(0),
        Err(LabError::ScheduleBlocked {
            position: 1,
            request: 0,
            holder: 1
        })
    );
    run.step(1).unwrap();
    let rec = run.step(1).unwrap();
    assert_eq!(rec.released, Some(LockName::State));
    assert_eq!(run.state().lock_holder(), None);
    // The next check finds the stored result and returns at once, releasing the lock it took.
    let rec = run.step(0).unwrap();
    assert!(matches!(rec.action, StepAction::CheckHit { .. }));
    assert_eq!(run.state().lock_holder(), None);
    assert!(matches!(
        run.status(0),
        Some(RequestStatus::Returned { step: 1, .. })
    ));
    assert_eq!(run.step(0).unwrap().action, StepAction::Idle);
}

#[test]
fn toctou_steps_take_and_release_their_own_locks() {
    let mut run = Stepper::new(scenario(Model::TocTou, 2, KeyMode::Same));
    let check = run.step(0).unwrap();
    assert_eq!(check.locks_within, &[LockName::IdempotencyStore]);
    assert_eq!(run.state().lock_holder(), None);
    // Nothing is held between steps, so the other request can check too: the TOCTOU window.
    assert_eq!(run.step(1).unwrap().action, StepAction::CheckMiss);
    let charge = run.step(0).unwrap();
    assert_eq!(
        charge.locks_within,
        &[LockName::Balance, LockName::OperationCount]
    );
    assert!(matches!(
        charge.action,
        StepAction::Charged(ChargeOutcome::Success { balance: 900 })
    ));
    run.step(1).unwrap();
    assert!(run.double_charged(), "both charged before either stored");
    run.step(0).unwrap();
    let store = run.step(1).unwrap();
    // The second store overwrites the first: the store remembers one result, the balance two.
    assert!(matches!(
        store.action,
        StepAction::Stored {
            replaced: Some(ChargeOutcome::Success { balance: 900 }),
            ..
        }
    ));
    assert_eq!(run.state().balance(), 800);
}

#[test]
fn step_back_is_an_exact_replay_of_the_prefix() {
    let s = scenario(Model::TocTou, 3, KeyMode::Same);
    let mut run = Stepper::new(s.clone());
    run.run_to_end(Policy::Random { seed: 99 }).unwrap();
    let full = run.schedule().to_vec();
    assert_eq!(full.len(), 9);
    for cut in (0..full.len()).rev() {
        run.step_back().unwrap();
        let fresh = Stepper::replay(s.clone(), &full[..cut]).unwrap();
        assert_eq!(run, fresh, "after stepping back to {cut}");
    }
    assert_eq!(run.step_back(), Err(LabError::NothingToUndo));
    assert_eq!(run, Stepper::new(s));
}

#[test]
fn replay_rejects_bad_schedules_with_positions() {
    let s = scenario(Model::Atomic, 2, KeyMode::Same);
    assert_eq!(
        Stepper::replay(s.clone(), &[0, 5]).unwrap_err(),
        LabError::ScheduleIndexOutOfRange {
            position: 1,
            request: 5,
            requests: 2
        }
    );
    assert_eq!(
        Stepper::replay(s.clone(), &[0, 1]).unwrap_err(),
        LabError::ScheduleBlocked {
            position: 1,
            request: 1,
            holder: 0
        }
    );
    assert_eq!(
        Stepper::replay(s.clone(), &[0, 0, 0, 0]).unwrap_err(),
        LabError::ScheduleFinished {
            position: 3,
            request: 0
        }
    );
    assert_eq!(
        Stepper::replay(s.clone(), &[0; 7]).unwrap_err(),
        LabError::ScheduleTooLong { length: 7, max: 6 }
    );
    let mut done = Stepper::replay(s, &[0, 0, 0, 1, 1, 1]).unwrap();
    assert!(done.is_complete());
    assert_eq!(
        done.step_with(Policy::RoundRobin),
        Err(LabError::RunComplete)
    );
    assert_eq!(done.run_to_end(Policy::RoundRobin), Ok(0));
}

#[test]
fn round_robin_runs_every_check_before_any_store() {
    let s = scenario(Model::TocTou, 3, KeyMode::Same);
    let mut run = Stepper::new(s.clone());
    assert_eq!(run.run_to_end(Policy::RoundRobin), Ok(9));
    assert_eq!(run.schedule(), &[0, 1, 2, 0, 1, 2, 0, 1, 2]);
    assert_eq!(run.outcome().unwrap().successes, 3);
    assert_eq!(run.state().balance(), 700);
    // The atomic service under round robin: the lock forces one request through at a time.
    let mut run = Stepper::new(s.with_model(Model::Atomic));
    run.run_to_end(Policy::RoundRobin).unwrap();
    assert_eq!(run.outcome().unwrap().successes, 1);
    assert_eq!(run.state().balance(), 900);
}

#[test]
fn random_policy_is_reproducible_from_its_seed() {
    let s = scenario(Model::TocTou, 5, KeyMode::Same);
    let run_with = |seed| {
        let mut run = Stepper::new(s.clone());
        run.run_to_end(Policy::Random { seed }).unwrap();
        run.schedule().to_vec()
    };
    assert_eq!(run_with(1), run_with(1));
    let distinct: std::collections::BTreeSet<Vec<usize>> = (0..20).map(run_with).collect();
    assert!(distinct.len() > 10, "seeds should give different schedules");
    // Stepping with the policy one step at a time gives the same run as running to the end.
    let mut stepwise = Stepper::new(s.clone());
    while stepwise.step_with(Policy::Random { seed: 3 }).is_ok() {}
    assert_eq!(stepwise.schedule(), run_with(3).as_slice());
}

#[test]
fn sampling_is_reproducible_and_resumable_in_slices() {
    let s = scenario(Model::TocTou, 6, KeyMode::Same);
    let search = Search::Sample {
        samples: 500,
        seed: 11,
    };
    let whole = explore(&s, search);
    let mut sliced = Explorer::new(&s, search).unwrap();
    let mut slices = 0;
    loop {
        let p = sliced.run_slice(7).unwrap();
        slices += 1;
        assert!((0.0..=1.0).contains(&p.fraction));
        if p.finished {
            break;
        }
        assert!(p.units <= 7);
    }
    assert!(slices > 100);
    assert_eq!(sliced.report(), whole);
}

#[test]
fn exhaustive_search_is_resumable_in_slices() {
    for search in [CACHED, PLAIN] {
        let s = scenario(Model::TocTou, 3, KeyMode::Same);
        let whole = explore(&s, search);
        let mut sliced = Explorer::new(&s, search).unwrap();
        let mut last_fraction = 0.0;
        let mut partial_seen = false;
        while !sliced.run_slice(5).unwrap().finished {
            let report = sliced.report();
            assert!(!report.finished);
            assert!(report.schedules <= whole.schedules);
            partial_seen |= report.schedules > 0;
            let p = sliced.run_slice(0).unwrap();
            assert!(
                p.fraction + 1e-9 >= last_fraction,
                "progress never goes back"
            );
            last_fraction = p.fraction;
        }
        assert!(partial_seen);
        assert_eq!(sliced.report(), whole);
        // A finished explorer stays finished.
        assert!(sliced.run_slice(10).unwrap().finished);
    }
}

// ---- comparison ----

#[test]
fn the_counterexample_run_through_the_atomic_service_waits_instead() {
    let s = scenario(Model::TocTou, 3, KeyMode::Same);
    let c = explore(&s, CACHED).counterexample.unwrap();
    let adapted = adapt_schedule(s.with_model(Model::Atomic), &c.schedule);
    assert!(adapted.run.is_complete());
    assert!(!adapted.run.double_charged());
    assert!(!adapted.waits.is_empty());
    assert!(adapted.dropped.is_empty() && adapted.waiting.is_empty());
    assert_eq!(adapted.run.outcome().unwrap().successes, 1);
    // Same steps per request, only reordered.
    let mut a = adapted.run.schedule().to_vec();
    let mut b = c.schedule.clone();
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
    // Run through TOCTOU itself, nothing waits and the schedule is kept.
    let same = adapt_schedule(s, &c.schedule);
    assert_eq!(same.run.schedule(), c.schedule.as_slice());
    assert!(same.waits.is_empty());
    // A prefix that ends while a request waits reports it as waiting.
    let prefix = adapt_schedule(scenario(Model::Atomic, 2, KeyMode::Same), &[0, 1]);
    assert_eq!(prefix.run.schedule(), &[0]);
    assert_eq!(prefix.waiting, vec![1]);
    // Entries for requests with no steps left are dropped, not run.
    let extra = adapt_schedule(scenario(Model::TocTou, 2, KeyMode::Same), &[0, 0, 0, 0, 9]);
    assert_eq!(extra.dropped, vec![3, 4]);
}

// ---- source lines ----

#[test]
fn every_marker_is_found_in_the_service_source() {
    for marker in MARKERS {
        let lines = section(marker).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(
            lines.iter().any(|l| !l.text.trim().is_empty()),
            "{marker} is empty"
        );
        assert!(lines.iter().all(|l| !l.text.contains("// @lab")));
    }
    for model in Model::ALL {
        for step in 0..LAB_STEPS_PER_REQUEST {
            assert!(!step_source(model, step).unwrap().is_empty());
        }
        assert!(model.step_markers(LAB_STEPS_PER_REQUEST).is_empty());
    }
    let has = |model, step, needle: &str| {
        step_source(model, step)
            .unwrap()
            .iter()
            .any(|l| l.text.contains(needle))
    };
    assert!(has(Model::TocTou, 0, "idempotency_store"));
    assert!(has(Model::TocTou, 1, "balance.lock()"));
    assert!(has(Model::TocTou, 2, ".insert("));
    assert!(has(Model::Atomic, 0, "self.state.lock()"));
    assert!(has(Model::Atomic, 0, "DuplicateRequest"));
    assert!(has(Model::Atomic, 1, "state.balance -= amount"));
    assert!(has(Model::Unlocked, 1, "self.balance -= amount"));
    assert!(!has(Model::Unlocked, 0, ".lock()"));
    assert_eq!(
        section("no.such.marker").unwrap_err(),
        LabError::MissingMarker {
            marker: "no.such.marker"
        }
    );
}

#[test]
fn sections_run_to_the_next_marker_and_keep_line_numbers() {
    let text = "fn f() {\n    // @lab a.one\n    one();\n\n    // @lab a.two\n    two();\n    // @lab end\n    after();\n    // @lab a.tail\n    tail();\n}\n";
    let sections = parse_sections(text);
    let names: Vec<&str> = sections.iter().map(|s| s.name).collect();
    assert_eq!(names, ["a.one", "a.two", "a.tail"]);
    assert_eq!(sections[0].lines.len(), 2);
    assert_eq!(
        (sections[0].lines[0].number, sections[0].lines[0].text),
        (3, "    one();")
    );
    assert_eq!(
        (sections[1].lines[0].number, sections[1].lines[0].text),
        (6, "    two();")
    );
    // An unterminated section runs to the end of the text.
    assert_eq!(sections[2].lines.len(), 2);
    assert_eq!(common_indent(&sections[1].lines), 4);
    assert_eq!(dedent("    two();", 4), "two();");
    assert_eq!(dedent("  x", 4), "x");
    assert_eq!(dedent("\u{3000}全角", 4), "\u{3000}全角");
    // A line that merely mentions the marker in a string is not a marker.
    assert!(parse_sections("let s = \"// @lab x\";\n").is_empty());
}

// ---- bad input ----

#[test]
fn scenario_limits_are_typed_errors() {
    let new = |k, amounts: &[i64], balance| {
        LabScenario::new(Model::TocTou, k, KeyMode::Same, amounts, balance)
    };
    assert_eq!(
        new(1, &[100], 1000),
        Err(LabError::RequestCount { requests: 1 })
    );
    assert_eq!(
        new(11, &[100], 1000),
        Err(LabError::RequestCount { requests: 11 })
    );
    assert_eq!(
        new(3, &[100, 200], 1000),
        Err(LabError::AmountCount {
            given: 2,
            requests: 3
        })
    );
    assert_eq!(
        new(3, &[], 1000),
        Err(LabError::AmountCount {
            given: 0,
            requests: 3
        })
    );
    assert_eq!(
        new(2, &[100, 0], 1000),
        Err(LabError::Amount {
            request: 1,
            amount: 0
        })
    );
    assert_eq!(
        new(2, &[100_000_000], 1000),
        Err(LabError::Amount {
            request: 0,
            amount: 100_000_000
        })
    );
    assert_eq!(
        new(2, &[-5], 1000),
        Err(LabError::Amount {
            request: 0,
            amount: -5
        })
    );
    assert_eq!(new(2, &[100], -1), Err(LabError::Balance { balance: -1 }));
    assert_eq!(
        new(2, &[100], i64::MAX),
        Err(LabError::Balance { balance: i64::MAX })
    );
    // The default is the article's race and within every limit.
    assert_eq!(
        LabScenario::new(Model::TocTou, 3, KeyMode::Same, &[100], 1000),
        Ok(LabScenario::default())
    );
    let ok = new(10, &[99_999_999], 1_000_000_000_000).unwrap();
    assert_eq!(ok.requests(), 10);
    assert_eq!(ok.amounts(), &[99_999_999; 10]);
    assert!(new(2, &[1, 99_999_999], 0).is_ok());
}

#[test]
fn budgets_refuse_before_starting_with_a_reason() {
    let s5 = scenario(Model::TocTou, 5, KeyMode::Same);
    let e = Explorer::new(&s5, PLAIN).err().unwrap();
    assert_eq!(
        e,
        LabError::OverRawBudget {
            schedules: Some(168_168_000)
        }
    );
    const { assert!(168_168_000 > MAX_RAW_SCHEDULES) };
    let s = scenario(Model::TocTou, MAX_CACHED_REQUESTS + 1, KeyMode::Same);
    assert_eq!(
        Explorer::new(&s, CACHED).err(),
        Some(LabError::OverCachedBudget {
            requests: MAX_CACHED_REQUESTS + 1
        })
    );
    let s10 = scenario(Model::TocTou, MAX_PARALLEL_REQUESTS, KeyMode::Same);
    assert!(matches!(
        Explorer::new(&s10, PLAIN).err(),
        Some(LabError::OverRawBudget { schedules: Some(_) })
    ));
    for samples in [0, MAX_SAMPLES + 1] {
        assert_eq!(
            Explorer::new(&s10, Search::Sample { samples, seed: 1 }).err(),
            Some(LabError::SampleCount { samples })
        );
    }
    // 5 requests is the largest cached search and finishes (the page's worst case).
    let r = explore(
        &scenario(Model::TocTou, MAX_CACHED_REQUESTS, KeyMode::Same),
        CACHED,
    );
    assert_eq!(r.schedules, raw_schedule_count(5, 3).unwrap());
}

#[test]
fn text_fields_parse_or_say_why() {
    use idempotency_playground::limits::NumberProblem;
    let problem = |r: Result<Vec<usize>, LabError>| match r {
        Err(LabError::BadNumber { field, number }) => Some((field, number.problem)),
        _ => None,
    };
    assert_eq!(parse_schedule("1 2 1, 1\t2 2"), Ok(vec![0, 1, 0, 0, 1, 1]));
    assert_eq!(parse_schedule(""), Ok(vec![]));
    assert_eq!(format_schedule(&[0, 1, 0]), "1 2 1");
    // A request number is from 1: 0 is too small, -1 negative, x no number at all.
    assert_eq!(
        problem(parse_schedule("1 0")),
        Some((NumberField::Schedule, NumberProblem::TooSmall))
    );
    assert_eq!(
        problem(parse_schedule("1 x")),
        Some((NumberField::Schedule, NumberProblem::NotANumber))
    );
    assert_eq!(
        problem(parse_schedule("-1")),
        Some((NumberField::Schedule, NumberProblem::Negative))
    );
    let long = "1 ".repeat(31);
    assert_eq!(
        parse_schedule(&long),
        Err(LabError::ScheduleTooLong {
            length: 31,
            max: 30
        })
    );
    assert_eq!(parse_amounts("100, 200 300"), Ok(vec![100, 200, 300]));
    assert_eq!(parse_amounts("1_000"), Ok(vec![1000]));
    let amounts = |text: &str| match parse_amounts(text) {
        Err(LabError::BadNumber { number, .. }) => Some(number.problem),
        _ => None,
    };
    assert_eq!(amounts(" "), Some(NumberProblem::Empty));
    assert_eq!(amounts("1e3"), Some(NumberProblem::NotANumber));
    assert_eq!(amounts("100, 0"), Some(NumberProblem::TooSmall));
    assert_eq!(amounts("100000000"), Some(NumberProblem::TooLarge));
    assert_eq!(parse_integer(NumberField::Balance, " 42 "), Ok(42));
    assert!(parse_integer(NumberField::Balance, "99999999999999999999").is_err());
    assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
    // A negative seed is negative, not "not a whole number".
    assert!(matches!(
        parse_seed("-1"),
        Err(LabError::BadNumber { field: NumberField::Seed, number }) if number.problem == NumberProblem::Negative
    ));
    assert!(matches!(
        parse_seed("18446744073709551616"),
        Err(LabError::BadNumber { number, .. }) if number.problem == NumberProblem::TooLarge
    ));
}

#[test]
fn seeded_prng_is_deterministic_and_in_range() {
    let mut a = idempotency_playground::Rng::new(5);
    let mut b = idempotency_playground::Rng::new(5);
    for _ in 0..100 {
        assert_eq!(a.next_u64(), b.next_u64());
    }
    let mut r = idempotency_playground::Rng::new(0);
    let mut seen = [0u32; 10];
    for _ in 0..10_000 {
        seen[r.below(10)] += 1;
    }
    assert!(seen.iter().all(|n| (800..1200).contains(n)), "{seen:?}");
    assert_eq!(r.below(0), 0);
}
