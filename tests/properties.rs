//! The property checks (`idempotency_playground::properties`): the naive and TOCTOU services fail
//! every property within 256 cases and shrink to a small case; the atomic, idempotent and
//! production services pass 256 cases; the judge reads what the world did; shrinking keeps the
//! failure and is deterministic; runs in slices equal runs at once.

// In the browser layer (wasm-pack test) the same tests run in headless Chrome: `#[test]` is
// rebound to `wasm_bindgen_test` there, so judging and shrinking are checked on the target the
// page runs on.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use idempotency_playground::limits::{
    InputError, DEFAULT_PROPERTY_CASES, MAX_PROPERTY_CASES, MAX_PROPERTY_SEED, MAX_SHRINK_ATTEMPTS,
    MAX_SHRINK_LOG,
};
use idempotency_playground::properties::*;
use idempotency_playground::{
    Fault, Input, Invariant, KeyFormat, PaymentResult, RequestSpec, Scenario, ServiceKind, World,
};

/// Seeds the fixed tests use (fewer in the browser, where the tests run unoptimised).
const SEEDS: &[u64] = if cfg!(target_arch = "wasm32") {
    &[1, 42]
} else {
    &[1, 2, 3, 42, 2026]
};

fn settings(property: Property, service: ServiceKind, seed: u64) -> Settings {
    Settings {
        property,
        service,
        cases: DEFAULT_PROPERTY_CASES,
        seed,
    }
}

fn run(property: Property, service: ServiceKind, seed: u64) -> PropertyRun {
    PropertyRun::new(settings(property, service, seed))
        .expect("valid settings")
        .run_to_end()
}

/// Every charge input's requests: (amount, fault) for each request.
fn requests(s: &Scenario) -> Vec<(i64, Fault)> {
    s.inputs
        .iter()
        .flat_map(|i| match i {
            Input::Request { amount, fault, .. } => vec![(*amount, *fault)],
            Input::Parallel { requests, .. } => {
                requests.iter().map(|r| (r.amount, r.fault)).collect()
            }
            _ => vec![],
        })
        .collect()
}

fn burst_sizes(s: &Scenario) -> Vec<usize> {
    s.inputs
        .iter()
        .filter_map(|i| match i {
            Input::Parallel { requests, .. } => Some(requests.len()),
            _ => None,
        })
        .collect()
}

fn request(key: &str, amount: i64, fault: Fault) -> Input {
    Input::Request {
        key: Some(key.into()),
        key_format: KeyFormat::V4,
        amount,
        description: "test".into(),
        fault,
    }
}

fn burst(key: &str, amount: i64, n: usize) -> Input {
    Input::Parallel {
        requests: vec![
            RequestSpec {
                key: Some(key.into()),
                key_format: KeyFormat::V4,
                amount,
                description: "test".into(),
                fault: Fault::None,
            };
            n
        ],
        same_key: true,
    }
}

/// A hand-made case: one service, a starting balance, inputs.
fn scenario(service: ServiceKind, balance: i64, inputs: Vec<Input>) -> Scenario {
    let mut s = case(Property::Replay, service, 0, 0);
    s.initial_balance = balance;
    s.inputs = inputs;
    s
}

fn world_of(s: &Scenario) -> World {
    let mut w = s.worlds().expect("valid").remove(0);
    w.run_until_idle();
    w
}

fn is_breach_of(property: Property, b: &Breach) -> bool {
    match property {
        Property::Replay => matches!(
            b,
            Breach::BalanceMoved { .. } | Breach::OperationCount { .. }
        ),
        Property::DistinctKeys => {
            matches!(b, Breach::NotChargedOnce { .. } | Breach::BalanceOff { .. })
        }
        Property::OneChargePerKey => matches!(b, Breach::ChargedTwice { .. }),
    }
}

// ---- the services' verdicts -------------------------------------------------------------------

#[test]
fn the_naive_service_fails_every_property_and_shrinks_to_two_plain_charges_of_one() {
    for &seed in SEEDS {
        for property in Property::ALL {
            let r = run(property, ServiceKind::Naive, seed);
            assert_eq!(r.phase(), Phase::Failed, "{property:?} seed {seed}");
            let f = r.failure().expect("a failure");
            assert!(f.index < DEFAULT_PROPERTY_CASES && r.checked() == f.index + 1);
            let m = f.minimal();
            assert!(is_breach_of(property, &m.breach), "{:?}", m.breach);
            assert!(
                m.scenario.inputs.len() <= 2,
                "{property:?} seed {seed}: {:?}",
                m.scenario.inputs
            );
            let reqs = requests(&m.scenario);
            assert_eq!(reqs.len(), 2, "two charges of one key: {reqs:?}");
            assert!(
                reqs.iter()
                    .all(|&(amount, fault)| amount == 1 && fault == Fault::None),
                "{reqs:?}"
            );
            match property {
                // The article's range starts at 1000: shrinking stays inside it, as proptest's.
                Property::Replay => assert_eq!(m.scenario.initial_balance, 1000),
                // Derived: each key's amount once, plus the article's 1000.
                Property::DistinctKeys => assert_eq!(m.scenario.initial_balance, 1001),
                // Enough for the two charges and no more.
                Property::OneChargePerKey => assert_eq!(m.scenario.initial_balance, 2),
            }
            assert!(f.shrinks_kept() > 0 && f.shrink_attempts() <= MAX_SHRINK_ATTEMPTS);
        }
    }
}

/// The two ways the TOCTOU service charges one key twice, each as small as it gets: two requests
/// in flight at once (both pass the check before either stores), or a crash between its charge
/// and its store (the charge is committed, the key never recorded) and one retry.
fn assert_small_toctou_case(property: Property, m: &Counterexample) {
    let reqs = requests(&m.scenario);
    assert!(reqs.len() <= 3, "{:?}", m.scenario.inputs);
    assert!(reqs.iter().all(|&(amount, _)| amount == 1));
    let faults: Vec<Fault> = reqs
        .iter()
        .map(|r| r.1)
        .filter(|f| *f != Fault::None)
        .collect();
    match burst_sizes(&m.scenario).as_slice() {
        // A burst, and for the distinct-keys property the key's clean last attempt (its premise).
        [2] => {
            assert!(faults.is_empty(), "{faults:?}");
            let (inputs, requests) = if property == Property::DistinctKeys {
                (2, 3)
            } else {
                (1, 2)
            };
            assert_eq!(
                (m.scenario.inputs.len(), reqs.len()),
                (inputs, requests),
                "{:?}",
                m.scenario.inputs
            );
        }
        [] => {
            assert_eq!(
                faults,
                vec![Fault::CrashAfterChargeBeforeRecord],
                "{:?}",
                m.scenario.inputs
            );
            assert_eq!(m.scenario.inputs.len(), 2);
        }
        other => panic!("bursts {other:?}: {:?}", m.scenario.inputs),
    }
    match &m.breach {
        Breach::OperationCount { charges, .. }
        | Breach::NotChargedOnce { charges, .. }
        | Breach::ChargedTwice { charges, .. } => assert_eq!(*charges, 2),
        other => panic!("TOCTOU charges twice before any answer: {other:?}"),
    }
}

#[test]
fn the_toctou_service_fails_every_property_and_shrinks_to_two_requests() {
    let mut races = 0;
    for &seed in SEEDS {
        for property in Property::ALL {
            let r = run(property, ServiceKind::TocTou, seed);
            assert_eq!(r.phase(), Phase::Failed, "{property:?} seed {seed}");
            let m = r.failure().expect("a failure").minimal();
            assert!(is_breach_of(property, &m.breach));
            assert_small_toctou_case(property, m);
            races += usize::from(!burst_sizes(&m.scenario).is_empty());
        }
    }
    assert!(races > 0, "the race itself is found");
}

#[test]
fn the_atomic_idempotent_and_production_services_pass_every_case() {
    for &seed in SEEDS {
        for property in Property::ALL {
            for service in [
                ServiceKind::Atomic,
                ServiceKind::Production,
                ServiceKind::Idempotent,
            ] {
                let r = run(property, service, seed);
                assert_eq!(
                    r.phase(),
                    Phase::Passed,
                    "{property:?} {service:?} seed {seed}: {:?}",
                    r.failure()
                );
                assert_eq!(r.checked(), DEFAULT_PROPERTY_CASES);
                assert!(r.failure().is_none());
                assert!(r.events() > u64::from(DEFAULT_PROPERTY_CASES));
            }
        }
    }
}

#[test]
fn keys_in_a_separate_store_fail_too() {
    for property in Property::ALL {
        assert_eq!(
            run(property, ServiceKind::SplitStore, 1).phase(),
            Phase::Failed,
            "{property:?}"
        );
    }
}

// ---- the judge reads what the world did -------------------------------------------------------

#[test]
fn a_naive_retry_after_the_answer_moves_the_balance() {
    let s = scenario(
        ServiceKind::Naive,
        1000,
        vec![
            request("k", 100, Fault::ResponseLost),
            request("k", 100, Fault::None),
        ],
    );
    let w = world_of(&s);
    let breach = judge(Property::Replay, &s, &w).expect("the retry charged again");
    let ledger: Vec<usize> = w.ledger().iter().map(|e| e.step).collect();
    assert_eq!(ledger.len(), 2);
    // The first answer is the server's reply, lost on the way or not.
    match breach {
        Breach::BalanceMoved {
            key,
            answered_at,
            step,
            before,
            after,
        } => {
            assert_eq!(key, "k");
            assert_eq!(step, ledger[1]);
            assert!(answered_at >= ledger[0] && answered_at < step);
            assert_eq!((before, after), (900, 800));
        }
        other => panic!("{other:?}"),
    }
    // The world's own invariant broke at the same step.
    let v = w
        .violations()
        .iter()
        .find(|v| v.invariant == Invariant::OneChargePerKey)
        .expect("flagged");
    assert_eq!(
        Some(v.step),
        judge(Property::OneChargePerKey, &s, &w).and_then(|b| b.step())
    );
    // The same inputs through the atomic service hold.
    let atomic = scenario(ServiceKind::Atomic, 1000, s.inputs.clone());
    assert_eq!(judge(Property::Replay, &atomic, &world_of(&atomic)), None);
}

#[test]
fn two_toctou_requests_at_once_both_charge_before_either_answers() {
    let s = scenario(ServiceKind::TocTou, 1000, vec![burst("k", 100, 2)]);
    let w = world_of(&s);
    assert_eq!(w.balance(), 800);
    match judge(Property::Replay, &s, &w) {
        Some(Breach::OperationCount {
            key,
            charges: 2,
            step,
        }) => {
            assert_eq!(key, "k");
            assert_eq!(step, w.ledger()[1].step);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_409_for_a_request_in_flight_is_no_answer() {
    // Production: the duplicate gets 409 while the first request holds the key, and the first
    // request's charge comes after it. The charge is the operation's one charge, not a retry's.
    let s = scenario(
        ServiceKind::Production,
        1000,
        vec![burst("k", 100, 2), request("k", 100, Fault::None)],
    );
    let w = world_of(&s);
    let first_reply = w.trace().iter().find_map(|e| match &e.kind {
        idempotency_playground::EventKind::ResponseSent { result, .. } => {
            Some((e.step, result.clone()))
        }
        _ => None,
    });
    let (conflict_at, result) = first_reply.expect("a reply");
    assert_eq!(result, PaymentResult::InFlightConflict);
    assert!(
        w.ledger()[0].step > conflict_at,
        "the charge comes after the 409"
    );
    assert_eq!(w.ledger().len(), 1);
    for property in [Property::Replay, Property::OneChargePerKey] {
        assert_eq!(judge(property, &s, &w), None, "{property:?}");
    }
}

#[test]
fn distinct_keys_are_each_charged_once_or_the_judge_says_which() {
    let keys = |inputs: Vec<Input>, service, balance| {
        let s = scenario(service, balance, inputs);
        let w = world_of(&s);
        (
            check(Property::DistinctKeys, &s).expect("valid").breach,
            judge(Property::DistinctKeys, &s, &w),
        )
    };
    let clean = vec![
        request("key-0", 10, Fault::None),
        request("key-1", 10, Fault::None),
    ];
    assert_eq!(keys(clean.clone(), ServiceKind::Naive, 1020), (None, None));
    // Too little money for the second key: charged 0 times, and there is no second charge.
    let (checked, judged) = keys(clean, ServiceKind::Atomic, 15);
    assert_eq!(checked, judged);
    assert_eq!(
        judged,
        Some(Breach::NotChargedOnce {
            key: "key-1".into(),
            step: None,
            charges: 0
        })
    );
    // A lost reply and a clean retry: naive charges twice.
    let retried = vec![
        request("key-0", 10, Fault::ResponseLost),
        request("key-0", 10, Fault::None),
    ];
    assert!(matches!(
        keys(retried.clone(), ServiceKind::Naive, 1010).1,
        Some(Breach::NotChargedOnce {
            charges: 2,
            step: Some(_),
            ..
        })
    ));
    assert_eq!(keys(retried, ServiceKind::Atomic, 1010).1, None);
}

#[test]
fn one_charge_per_key_agrees_with_the_worlds_own_invariant() {
    for service in ServiceKind::ALL {
        for index in 0..64 {
            let s = case(Property::OneChargePerKey, service, 9, index);
            let w = world_of(&s);
            let invariant = w
                .violations()
                .iter()
                .find(|v| v.invariant == Invariant::OneChargePerKey)
                .map(|v| v.step);
            let judged = judge(Property::OneChargePerKey, &s, &w);
            assert_eq!(
                judged.as_ref().and_then(Breach::step),
                invariant,
                "{service:?} #{index}: {judged:?}"
            );
        }
    }
}

// ---- shrinking --------------------------------------------------------------------------------

#[test]
fn the_minimal_case_still_fails_read_back_from_its_json_and_shrinking_is_deterministic() {
    for service in [
        ServiceKind::Naive,
        ServiceKind::TocTou,
        ServiceKind::SplitStore,
    ] {
        for property in Property::ALL {
            let r = run(property, service, 7);
            let f = r.failure().expect("fails");
            let m = f.minimal();
            // The original failed as reported, and so does the minimal one, also as the
            // playground reads it (from JSON).
            assert_eq!(
                check(property, &f.original.scenario).unwrap().breach,
                Some(f.original.breach.clone())
            );
            assert_eq!(
                check(property, &m.scenario).unwrap().breach,
                Some(m.breach.clone())
            );
            let back = Scenario::from_json(&m.scenario.to_json()).expect("readable");
            assert_eq!(back, m.scenario);
            assert_eq!(
                check(property, &back).unwrap().breach,
                Some(m.breach.clone())
            );
            // It is the case generated at that index, and smaller than it.
            assert_eq!(f.original.scenario, case(property, service, 7, f.index));
            assert!(m.scenario.inputs.len() <= f.original.scenario.inputs.len());
            // Same settings, same run; in slices or at once.
            assert_eq!(run(property, service, 7), r);
            let mut sliced = PropertyRun::new(settings(property, service, 7)).unwrap();
            let mut slices = 0;
            let mut last = 0;
            while !sliced.run_slice(200) {
                slices += 1;
                assert!(sliced.per_mille() >= last || matches!(sliced.phase(), Phase::Shrinking));
                last = sliced.per_mille();
                assert!(slices < 100_000);
            }
            assert_eq!(sliced.failure(), r.failure(), "{property:?} {service:?}");
            assert_eq!(sliced.phase(), Phase::Failed);
        }
    }
}

#[test]
fn a_shrinker_ends_at_a_fixed_point_no_single_edit_can_pass() {
    // The minimal naive case: drop either charge, or make its amount or balance smaller, and it
    // holds; so the shrinker has nothing left to keep.
    let r = run(Property::Replay, ServiceKind::Naive, 3);
    let m = r.failure().unwrap().minimal().clone();
    let mut again = Shrinker::new(Property::Replay, m.scenario.clone(), m.breach.clone());
    while !again.is_done() {
        again.run(u64::MAX);
    }
    assert_eq!(again.kept(), 0, "{:?}", again.best());
    assert_eq!(again.best(), &m);
    for i in 0..m.scenario.inputs.len() {
        let mut fewer = m.scenario.clone();
        fewer.inputs.remove(i);
        assert_eq!(check(Property::Replay, &fewer).unwrap().breach, None);
    }
}

/// Replays a failure's shrink log: each step's variant, rebuilt from the original and the kept
/// edits before it, does what the log says when it is run again; the kept ones chain from the
/// original to the minimal case.
fn assert_the_log_replays(property: Property, f: &Failure) {
    let log = f.shrink_log();
    assert_eq!(
        log.len() as u32,
        f.shrink_attempts().min(MAX_SHRINK_LOG as u32)
    );
    let kept = log
        .iter()
        .filter(|s| matches!(s.verdict, ShrinkVerdict::Fails(_)))
        .count();
    assert_eq!(kept as u32, f.shrinks_kept(), "every kept step is logged");
    assert_eq!(f.shrink_case_before(0).as_ref(), Some(&f.original.scenario));
    for (i, step) in log.iter().enumerate() {
        let before = f.shrink_case_before(i).unwrap();
        let tried = f.shrink_candidate(i).unwrap();
        assert_ne!(tried, before, "step {i} changes its case");
        let judged = check(property, &tried).map(|o| o.breach);
        match (&step.verdict, judged) {
            (ShrinkVerdict::Fails(b), Ok(Some(again))) => {
                assert_eq!(b, &again, "step {i}");
                assert_eq!(f.shrink_case_before(i + 1).as_ref(), Some(&tried));
            }
            (ShrinkVerdict::Holds, Ok(None)) => {
                assert_eq!(f.shrink_case_before(i + 1).as_ref(), Some(&before));
            }
            (ShrinkVerdict::Refused(e), Err(again)) => assert_eq!(e, &again),
            (v, j) => panic!("step {i}: logged {v:?}, run again {j:?}"),
        }
        // What the edit says it removed is what went.
        let removed = (0..before.inputs.len())
            .filter(|&k| step.edit.touches(&before, k) == Touch::Removed)
            .count();
        let changed = (0..before.inputs.len())
            .filter(|&k| step.edit.touches(&before, k) == Touch::Changed)
            .count();
        assert_eq!(
            before.inputs.len() - removed,
            tried.inputs.len(),
            "step {i}: {:?}",
            step.edit
        );
        match &step.edit {
            ShrinkEdit::Remove { .. } | ShrinkEdit::RemoveKey { .. } => {
                assert!(removed > 0 && changed == 0)
            }
            ShrinkEdit::Balance { from, to } => {
                assert_eq!(
                    (before.initial_balance, tried.initial_balance),
                    (*from, *to)
                );
                assert_eq!((removed, changed), (0, 0));
            }
            _ => assert!(removed == 0 && changed > 0, "step {i}: {:?}", step.edit),
        }
    }
    if f.shrunk() && log.len() as u32 == f.shrink_attempts() {
        assert_eq!(
            f.shrink_case_before(log.len()).as_ref(),
            Some(&f.minimal().scenario)
        );
    }
    assert_eq!(f.shrink_case_before(log.len() + 1), None);
    assert_eq!(f.shrink_candidate(log.len()), None);
}

#[test]
fn every_shrink_step_is_logged_and_replays_from_the_case_as_generated() {
    for service in [ServiceKind::Naive, ServiceKind::TocTou] {
        for property in Property::ALL {
            for &seed in SEEDS {
                let r = run(property, service, seed);
                let f = r.failure().expect("fails");
                assert!(
                    !f.shrink_log().is_empty(),
                    "{property:?} {service:?} {seed}"
                );
                assert_the_log_replays(property, f);
            }
        }
    }
    // A run cancelled part-way keeps the steps so far, which replay as well.
    let mut part =
        PropertyRun::new(settings(Property::OneChargePerKey, ServiceKind::Naive, 3)).unwrap();
    while part.failure().is_none_or(|f| f.shrink_attempts() < 5) {
        part.run_slice(1);
    }
    let f = part.failure().unwrap();
    assert!(!f.shrunk());
    assert_the_log_replays(Property::OneChargePerKey, f);
    assert_eq!(
        f.shrink_case_before(f.shrink_log().len()).as_ref(),
        Some(&f.minimal().scenario)
    );
}

// ---- the run ----------------------------------------------------------------------------------

#[test]
fn a_run_goes_from_checking_to_shrinking_to_failed_and_counts_its_work() {
    let mut r = PropertyRun::new(settings(Property::Replay, ServiceKind::Naive, 2)).unwrap();
    assert_eq!(r.phase(), Phase::Checking { done: 0 });
    assert_eq!(r.per_mille(), 0);
    let mut seen_shrinking = false;
    while !r.run_slice(30) {
        seen_shrinking |= r.phase() == Phase::Shrinking;
    }
    assert!(seen_shrinking);
    assert_eq!((r.phase(), r.per_mille()), (Phase::Failed, 1000));
    assert!(r.events() > 0);
    let passing = PropertyRun::new(Settings {
        cases: 3,
        ..settings(Property::Replay, ServiceKind::Atomic, 2)
    })
    .unwrap()
    .run_to_end();
    assert_eq!((passing.phase(), passing.checked()), (Phase::Passed, 3));
}

#[test]
fn settings_out_of_their_limits_are_refused_before_anything_runs() {
    let s = settings(Property::Replay, ServiceKind::Naive, 1);
    use idempotency_playground::limits::{NumberProblem, TypedField};
    let refused = |r: Result<PropertyRun, InputError>, f: TypedField, p: NumberProblem| matches!(r, Err(InputError::BadNumber { field, number }) if field == f && number.problem == p);
    assert!(refused(
        PropertyRun::new(Settings { cases: 0, ..s }),
        TypedField::PropertyCases,
        NumberProblem::TooSmall
    ));
    assert!(refused(
        PropertyRun::new(Settings {
            cases: MAX_PROPERTY_CASES + 1,
            ..s
        }),
        TypedField::PropertyCases,
        NumberProblem::TooLarge
    ));
    assert!(refused(
        PropertyRun::new(Settings {
            seed: MAX_PROPERTY_SEED + 1,
            ..s
        }),
        TypedField::PropertySeed,
        NumberProblem::TooLarge
    ));
    assert!(PropertyRun::new(Settings {
        cases: MAX_PROPERTY_CASES,
        seed: MAX_PROPERTY_SEED,
        ..s
    })
    .is_ok());
    assert!(matches!(
        parse_cases("-1"),
        Err(InputError::BadNumber { number, .. }) if number.problem == NumberProblem::Negative
    ));
    assert!(matches!(
        parse_seed("abc"),
        Err(InputError::BadNumber { number, .. }) if number.problem == NumberProblem::NotANumber
    ));
}

// ---- over many seeds (natively: proptest picks the seeds) ---------------------------------------

#[cfg(not(target_arch = "wasm32"))]
mod over_seeds {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        #[test]
        fn naive_and_toctou_fail_within_256_cases_for_any_seed(seed in 0..=MAX_PROPERTY_SEED) {
            for property in Property::ALL {
                let naive = run(property, ServiceKind::Naive, seed);
                prop_assert_eq!(naive.phase(), Phase::Failed, "{:?}", property);
                let m = naive.failure().unwrap().minimal();
                prop_assert!(m.scenario.inputs.len() <= 2);
                prop_assert_eq!(requests(&m.scenario).len(), 2);
                prop_assert!(requests(&m.scenario).iter().all(|&(a, f)| a == 1 && f == Fault::None));
                let toctou = run(property, ServiceKind::TocTou, seed);
                prop_assert_eq!(toctou.phase(), Phase::Failed, "{:?}", property);
                assert_small_toctou_case(property, toctou.failure().unwrap().minimal());
            }
        }

    }

    proptest! {
        // Each seed is 6 x 256 passing cases, the longest work here: fewer seeds.
        #![proptest_config(ProptestConfig::with_cases(12))]

        #[test]
        fn atomic_and_production_pass_for_any_seed(seed in 0..=MAX_PROPERTY_SEED) {
            for property in Property::ALL {
                for service in [ServiceKind::Atomic, ServiceKind::Production] {
                    let r = run(property, service, seed);
                    prop_assert_eq!(r.phase(), Phase::Passed, "{:?} {:?}: {:?}", property, service, r.failure());
                }
            }
        }
    }
}
