//! Properties of the lab core over random scenarios and schedules: the books always balance, the
//! atomic service never double-charges and never lets two requests inside its lock, step back is
//! exact, and no input panics.
#![cfg(not(target_arch = "wasm32"))]

use idempotency_playground::lab::*;
use idempotency_playground::lab::{parse_amounts, parse_schedule};
use idempotency_playground::limits::{LAB_STEPS_PER_REQUEST, MAX_PARALLEL_REQUESTS};
use proptest::prelude::*;

fn model() -> impl Strategy<Value = Model> {
    prop_oneof![
        Just(Model::TocTou),
        Just(Model::Atomic),
        Just(Model::Unlocked)
    ]
}

fn keys() -> impl Strategy<Value = KeyMode> {
    prop_oneof![Just(KeyMode::Same), Just(KeyMode::Different)]
}

prop_compose! {
    fn scenario()(model in model(), keys in keys(), k in 2usize..=MAX_PARALLEL_REQUESTS)
        (amounts in proptest::collection::vec(1i64..=600, k), balance in 0i64..=2_000,
         model in Just(model), keys in Just(keys), k in Just(k)) -> LabScenario {
        LabScenario::new(model, k, keys, &amounts, balance).expect("generated within limits")
    }
}

/// Checks what must hold after every step of every model.
fn check_invariants(run: &Stepper) -> Result<(), TestCaseError> {
    let s = run.scenario();
    let state = run.state();
    let k = s.requests();
    let charged: Vec<usize> = (0..k)
        .filter(|&r| {
            matches!(
                state.progress(r),
                RequestProgress::Charged(ChargeOutcome::Success { .. })
                    | RequestProgress::Returned(LabResult::Success { .. })
            )
        })
        .collect();
    let spent: i64 = charged.iter().map(|&r| s.amounts()[r]).sum();
    prop_assert_eq!(state.balance(), s.initial_balance() - spent);
    prop_assert!(state.balance() >= 0);
    prop_assert_eq!(state.operation_count(), charged.len());
    let inside: Vec<usize> = (0..k)
        .filter(|&r| {
            matches!(
                state.progress(r),
                RequestProgress::CheckMissed | RequestProgress::Charged(_)
            )
        })
        .collect();
    match s.model() {
        Model::Atomic => {
            prop_assert!(!run.double_charged());
            // Mutual exclusion: at most one request between its check and its store, and it
            // is the lock holder.
            prop_assert!(inside.len() <= 1);
            prop_assert_eq!(inside.first().copied(), state.lock_holder());
        }
        Model::TocTou | Model::Unlocked => prop_assert_eq!(state.lock_holder(), None),
    }
    for r in 0..k {
        let status = run.status(r).expect("every request has a status");
        if let RequestStatus::Blocked { holder } = status {
            prop_assert_eq!(s.model(), Model::Atomic);
            prop_assert_eq!(Some(holder), state.lock_holder());
            prop_assert!(holder != r);
        }
    }
    prop_assert!(run.movable().len() + usize::from(run.is_complete()) >= 1);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_runs_keep_the_books_and_the_lock(s in scenario(), seed in any::<u64>()) {
        let mut run = Stepper::new(s.clone());
        check_invariants(&run)?;
        while run.step_with(Policy::Random { seed }).is_ok() {
            check_invariants(&run)?;
        }
        prop_assert!(run.is_complete());
        prop_assert_eq!(run.schedule().len(), s.total_steps());
        let outcome = run.outcome().expect("complete");
        prop_assert_eq!(
            usize::from(outcome.successes + outcome.duplicates + outcome.insufficient),
            s.requests()
        );
        if s.keys() == KeyMode::Different {
            prop_assert_eq!(outcome.duplicates, 0);
            prop_assert!(!outcome.double_charged);
        }
        // Replaying the recorded schedule reproduces the run exactly.
        prop_assert_eq!(Stepper::replay(s, run.schedule()).expect("valid"), run);
    }

    #[test]
    fn step_back_then_the_same_step_returns_to_the_same_state(
        s in scenario(), seed in any::<u64>(), cut in 0usize..=LAB_STEPS_PER_REQUEST * MAX_PARALLEL_REQUESTS
    ) {
        let mut run = Stepper::new(s);
        run.run_to_end(Policy::Random { seed }).expect("runs");
        let full = run.clone();
        let cut = cut.min(full.schedule().len());
        for _ in cut..full.schedule().len() {
            run.step_back().expect("steps back");
        }
        for &r in &full.schedule()[cut..] {
            run.step(r).expect("the recorded step is valid again");
        }
        prop_assert_eq!(run, full);
    }

    #[test]
    fn any_schedule_is_replayed_or_refused_with_a_position(
        s in scenario(), schedule in proptest::collection::vec(0usize..12, 0..40)
    ) {
        match Stepper::replay(s.clone(), &schedule) {
            Ok(run) => {
                prop_assert_eq!(run.schedule(), schedule.as_slice());
                check_invariants(&run)?;
            }
            Err(LabError::ScheduleTooLong { length, max }) => {
                prop_assert_eq!(length, schedule.len());
                prop_assert_eq!(max, s.total_steps());
            }
            Err(LabError::ScheduleIndexOutOfRange { position, request, .. }) => {
                prop_assert_eq!(schedule[position], request);
                prop_assert!(request >= s.requests());
            }
            Err(LabError::ScheduleBlocked { position, request, holder }) => {
                prop_assert_eq!(schedule[position], request);
                prop_assert_eq!(s.model(), Model::Atomic);
                prop_assert!(holder != request);
            }
            Err(LabError::ScheduleFinished { position, request }) => {
                prop_assert_eq!(schedule[position], request);
                let taken = schedule[..position].iter().filter(|&&r| r == request).count();
                prop_assert_eq!(taken, LAB_STEPS_PER_REQUEST);
            }
            Err(other) => prop_assert!(false, "unexpected error {other:?}"),
        }
    }

    #[test]
    fn the_atomic_service_never_double_charges_in_any_sample(
        k in 2usize..=MAX_PARALLEL_REQUESTS, seed in any::<u64>(), amount in 1i64..=1000
    ) {
        let s = LabScenario::new(Model::Atomic, k, KeyMode::Same, &[amount], 10_000).expect("valid");
        let report = Explorer::new(&s, Search::Sample { samples: 50, seed })
            .expect("valid")
            .run_to_end()
            .expect("finishes");
        prop_assert_eq!(report.double_charge, 0);
        prop_assert_eq!(report.groups.len(), 1);
        prop_assert_eq!(report.groups[0].key.successes, 1);
    }

    #[test]
    fn text_fields_never_panic(text in "\\PC{0,60}") {
        let _ = parse_schedule(&text);
        let _ = parse_amounts(&text);
        let _ = parse_integer(NumberField::Balance, &text);
        let _ = parse_seed(&text);
    }
}
