//! Issue 13, sections 1 and 3: the card processor downstream (its latency, a slow answer that
//! outlives the in-flight lock, the key passed on, rocket-rides' recovery points) and the key
//! store's failures (eviction, an unreachable store failing open or closed, a serialization
//! failure answered "retry with the same key"). Each policy is tested beside the rule it
//! imitates; `tests/sim_props.rs`-style properties close the file.

use idempotency_playground::lesson::Value;
use idempotency_playground::teach::{challenge, question, Measure};
use idempotency_playground::*;
use proptest::prelude::*;

fn run(s: &Scenario) -> Vec<World> {
    s.run().expect("valid scenario")
}

fn charges_for_one_key(w: &World) -> i64 {
    match Measure::MostChargesForOneKey.of(w) {
        Value::Int(n) => n,
        other => panic!("{other:?}"),
    }
}

fn holds(w: &World, inv: Invariant) -> bool {
    w.violations().iter().all(|v| v.invariant != inv)
}

fn slow(mut s: Scenario, f: impl FnOnce(&mut Downstream)) -> Scenario {
    f(&mut s.downstream);
    s
}

#[test]
fn default_downstream_leaves_every_builtin_unchanged_in_json() {
    for id in builtin_ids() {
        let s = builtin(id).expect("built in");
        let json = s.to_json();
        if s.downstream == Downstream::default() {
            assert!(!json.contains("downstream"), "{id}: {json}");
        } else {
            assert!(json.contains("\"downstream\""), "{id}");
        }
        assert_eq!(Scenario::from_json(&json), Ok(s), "{id}");
    }
}

/// rocket-rides-atomic: a lock younger than 90 s answers 409; an older one is taken over
/// (api.rb, `IDEMPOTENCY_KEY_LOCK_TIMEOUT = 90`). A processor slower than that charges twice.
#[test]
fn a_slow_processor_outlives_the_lock_and_charges_twice() {
    let s = builtin("slow-processor").expect("lesson");
    let w = &run(&s)[0];
    assert_eq!(
        w.ledger().len(),
        2,
        "two charges although every try carries the key"
    );
    assert_eq!(charges_for_one_key(w), 2);
    assert!(!holds(w, Invariant::OneChargePerOperation));
    assert!(holds(w, Invariant::MoneyConserved));
    assert!(w.counters().conflicts >= 1, "409s while the lock was young");
    // The charges were made by the processor, and the second after the 90 s lock expired.
    let at: Vec<u64> = w
        .trace()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ProcessorCharge { .. }))
        .map(|e| e.time_ms)
        .collect();
    assert_eq!(at.len(), 2);
    assert!(at[1] >= at[0] + 90_000, "{at:?}");
    assert_eq!(w.balance(), 800);
}

/// Stripe: "Retries with the same key return the saved response" — a processor given the key
/// replays instead of charging again.
#[test]
fn passing_the_key_on_makes_the_processor_replay() {
    let s = slow(builtin("slow-processor").expect("lesson"), |d| {
        d.pass_key = true
    });
    let w = &run(&s)[0];
    assert_eq!(w.ledger().len(), 1);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    assert!(w
        .trace()
        .iter()
        .any(|e| matches!(e.kind, EventKind::ProcessorReplay { .. })));
    assert!(w.trace().iter().all(|e| !matches!(
        e.kind,
        EventKind::ProcessorCall {
            key_passed: false,
            ..
        }
    )));
}

/// rocket-rides' recovery points: they do not help a holder that is only slow (its answer is not
/// recorded when the lock expires) …
#[test]
fn recovery_points_do_not_fix_a_slow_holder() {
    let s = slow(builtin("slow-processor").expect("lesson"), |d| {
        d.recovery_points = true
    });
    let w = &run(&s)[0];
    assert_eq!(w.ledger().len(), 2);
    assert!(!holds(w, Invariant::OneChargePerOperation));
}

fn crash_after_charge(d: Downstream) -> Scenario {
    let mut s = builtin("slow-processor").expect("lesson");
    s.downstream = d;
    s.inputs = vec![Input::Operation {
        amount: 100,
        description: "order-1".into(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Fixed { delay_ms: 30_000 },
        max_attempts: 5,
        faults: vec![Fault::CrashAfterChargeBeforeRecord],
    }];
    s
}

/// … but they fix a worker that died after the processor answered: the retry that takes the
/// expired lock over resumes from the recorded point (api.rb's `case key.recovery_point`).
#[test]
fn recovery_points_fix_a_crash_after_the_charge() {
    let without = &run(&crash_after_charge(slow_processor_settings()))[0];
    assert_eq!(without.ledger().len(), 2, "no recovery point: called again");
    let with = &run(&crash_after_charge(Downstream {
        recovery_points: true,
        ..slow_processor_settings()
    }))[0];
    assert_eq!(with.ledger().len(), 1);
    assert!(with.violations().is_empty(), "{:?}", with.violations());
    assert!(with
        .trace()
        .iter()
        .any(|e| matches!(e.kind, EventKind::Resumed { .. })));
    // The client gets the charge's answer in the end.
    let r = &with.client_results()[0];
    assert!(matches!(&r.outcome, ClientOutcome::Answered { result } if result.is_success()));
}

/// With the outbox on, the processor's charge comes before its outbox row (the row can only
/// follow the answer): the row is owed while the request runs, and "one event per charge" holds
/// at every step of a run without faults.
#[test]
fn a_processors_charge_owes_its_outbox_row_until_the_answer_commits_it() {
    let mut s = crash_after_charge(slow_processor_settings());
    if let Some(Input::Operation { faults, .. }) = s.inputs.first_mut() {
        faults.clear();
    }
    s.emit = EmitMode::Outbox;
    let w = &run(&s)[0];
    assert_eq!((w.ledger().len(), w.outbox().len()), (1, 1));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

/// With the outbox on, the request that resumes from the recovery point writes the event of the
/// charge the dead worker made (its transaction, outbox row included, died with it): one
/// charge, one outbox row, and "one event per charge" holds. Without recovery points the dead
/// worker's charge has no row, and the retry charges again.
#[test]
fn a_resumed_charge_writes_its_outbox_row_once() {
    let mut lost = crash_after_charge(slow_processor_settings());
    lost.emit = EmitMode::Outbox;
    let w = &run(&lost)[0];
    assert_eq!((w.ledger().len(), w.outbox().len()), (2, 1));
    assert!(!holds(w, Invariant::OneEventPerCharge));

    let mut s = crash_after_charge(Downstream {
        recovery_points: true,
        ..slow_processor_settings()
    });
    s.emit = EmitMode::Outbox;
    let w = &run(&s)[0];
    assert_eq!(w.ledger().len(), 1);
    assert_eq!(w.outbox().len(), 1, "one row for the one charge");
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    assert!(w
        .trace()
        .iter()
        .any(|e| matches!(e.kind, EventKind::Resumed { .. })));
}

fn slow_processor_settings() -> Downstream {
    builtin("slow-processor").expect("lesson").downstream
}

/// The processor's charge is outside the server's transaction: a crash does not roll it back.
#[test]
fn a_crash_cannot_roll_back_the_processors_charge() {
    let mut s = builtin("double-charge").expect("lesson");
    s.downstream.processor_ms = 100;
    s.inputs = vec![Input::Request {
        key: Some("order-1".into()),
        key_format: KeyFormat::V4,
        amount: 100,
        description: "order-1".into(),
        fault: Fault::CrashAfterChargeBeforeRecord,
    }];
    for w in run(&s.with_services(vec![ServiceKind::Atomic.into()])) {
        assert_eq!(w.balance(), 900);
        assert!(w
            .trace()
            .iter()
            .all(|e| !matches!(e.kind, EventKind::Rollback { .. })));
        assert!(w.violations().is_empty());
    }
}

/// The article's world is the default: a zero processor latency gives the old trace.
#[test]
fn no_processor_means_the_articles_trace() {
    for id in builtin_ids() {
        let s = builtin(id).expect("built in");
        if s.downstream != Downstream::default() {
            continue;
        }
        for w in run(&s) {
            assert!(w.trace().iter().all(|e| !matches!(
                e.kind,
                EventKind::ProcessorCall { .. } | EventKind::KeyEvicted { .. }
            )));
        }
    }
}

/// Redis under `maxmemory` with `allkeys-lru` evicts keys to make room: a full key store drops
/// order-1's key and order-1 sent again charges again; the atomic service's keys stay.
#[test]
fn an_evicted_key_charges_again() {
    let s = builtin("store-failures").expect("lesson");
    let ws = run(&s);
    assert_eq!(charges_for_one_key(&ws[0]), 2);
    assert!(!holds(&ws[0], Invariant::OneChargePerKey));
    assert!(ws[0]
        .trace()
        .iter()
        .any(|e| matches!(e.kind, EventKind::KeyEvicted { .. })));
    assert_eq!(charges_for_one_key(&ws[1]), 1);
    assert!(ws[1].violations().is_empty());
    // Without the limit the split store replays order-1.
    let roomy = slow(s, |d| d.store_capacity = 0);
    assert_eq!(charges_for_one_key(&run(&roomy)[0]), 1);
}

fn unreachable_then_retry(service: ServiceKind, outage: OutagePolicy) -> World {
    let mut s = builtin("store-failures").expect("lesson");
    s.downstream.outage = outage;
    s.inputs = vec![
        Input::Request {
            key: Some("order-3".into()),
            key_format: KeyFormat::V4,
            amount: 100,
            description: "order-3".into(),
            fault: Fault::StoreUnreachable,
        },
        Input::Retry {
            new_key: false,
            fault: Fault::None,
        },
    ];
    run(&s.with_services(vec![service.into()])).remove(0)
}

/// Failing closed costs a 503 and a retry; failing open charges without the check and writes no
/// key, so the retry charges again.
#[test]
fn an_unreachable_store_fails_open_or_closed() {
    let closed = unreachable_then_retry(ServiceKind::SplitStore, OutagePolicy::FailClosed);
    assert_eq!(closed.ledger().len(), 1);
    assert!(closed.violations().is_empty());
    let seen = &closed.client_results()[0].seen;
    assert!(matches!(
        &seen[0].outcome,
        AttemptOutcome::Reply(PaymentResult::StoreUnavailable)
    ));
    let open = unreachable_then_retry(ServiceKind::SplitStore, OutagePolicy::FailOpen);
    assert_eq!(open.ledger().len(), 2);
    assert!(!holds(&open, Invariant::OneChargePerOperation));
    // Keys beside the balance: the database is down, nothing runs, whatever the policy.
    let atomic = unreachable_then_retry(ServiceKind::Atomic, OutagePolicy::FailOpen);
    assert_eq!(atomic.ledger().len(), 1);
    assert!(atomic.violations().is_empty());
}

/// rocket-rides-atomic: `rescue Sequel::SerializationFailure` → 409 `Messages.error_retry`,
/// "Please retry with the same Idmpotency-Key" (sic; api.rb; 429 until its commit e19902b,
/// “Correct improper 429 to use "409 Conflict"”), and the key is unlocked so the retry runs at
/// once.
#[test]
fn a_serialization_failure_is_answered_retry_with_the_same_key() {
    for service in [ServiceKind::Atomic, ServiceKind::Production] {
        let mut s = builtin("double-charge").expect("lesson");
        s.inputs = vec![Input::Operation {
            amount: 100,
            description: "order-1".into(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts: 2,
            faults: vec![Fault::SerializationFailure],
        }];
        let w = run(&s.with_services(vec![service.into()])).remove(0);
        assert_eq!(PaymentResult::RetryWithSameKey.http_status(), 409);
        assert_eq!(w.ledger().len(), 1, "{service:?}");
        assert!(w.violations().is_empty());
        let seen = &w.client_results()[0].seen;
        assert!(matches!(
            &seen[0].outcome,
            AttemptOutcome::Reply(PaymentResult::RetryWithSameKey)
        ));
        assert!(matches!(&seen[1].outcome, AttemptOutcome::Reply(r) if r.is_success()));
    }
}

#[test]
fn the_lessons_questions_are_posed_on_the_run() {
    for (id, answer) in [("slow-processor", 2), ("store-failures", 2)] {
        let s = builtin(id).expect("lesson");
        let q = question(id).expect("question");
        let mut session = Session::new(s).expect("session");
        session.seek(session.total());
        let posed = q.pose(&session).expect("posed");
        assert_eq!(posed.answer_value().value, Value::Int(answer), "{id}");
        assert!((2..=4).contains(&posed.choices.len()));
        assert!(
            posed.ask_at > 0 && posed.shows_at > posed.ask_at,
            "{id}: {posed:?}"
        );
    }
    // With the key passed on, the same question's answer moves to one charge.
    let fixed = slow(builtin("slow-processor").expect("lesson"), |d| {
        d.pass_key = true
    });
    let mut session = Session::new(fixed).expect("session");
    session.seek(session.total());
    let posed = question("slow-processor")
        .expect("q")
        .pose(&session)
        .expect("posed");
    assert_eq!(posed.answer_value().value, Value::Int(1));
}

#[test]
fn the_slow_lock_challenge_is_won_by_its_solution_only() {
    let c = challenge("slow-lock-double").expect("challenge");
    let mut won = Session::new(c.solved()).expect("session");
    won.seek(won.total());
    assert!(c.won(&won));
    assert_eq!(c.accepts(&c.solved()), Ok(()));
    // The same moves with the key passed on are not this challenge, and do not win anyway.
    let mut fixed = c.solved();
    fixed.downstream.pass_key = true;
    assert!(c.accepts(&fixed).is_err());
    let mut s = Session::new(fixed).expect("session");
    s.seek(s.total());
    assert!(!c.won(&s));
    // A fast processor: the same client charges once.
    let mut fast = c.solved();
    if let Some(Input::Operation { faults, .. }) = fast.inputs.last_mut() {
        *faults = vec![Fault::None];
    }
    let mut s = Session::new(fast).expect("session");
    s.seek(s.total());
    assert!(!c.won(&s));
}

#[test]
fn settings_are_limited_with_their_messages() {
    let mut s = builtin("slow-processor").expect("lesson");
    s.downstream.processor_ms = limits::MAX_PROCESSOR_MS + 1;
    assert!(matches!(
        s.validate(),
        Err(InputError::DurationOutOfRange {
            field: limits::DurationField::ProcessorLatency,
            ..
        })
    ));
    s.downstream.processor_ms = 200;
    s.downstream.store_capacity = limits::MAX_STORE_CAPACITY + 1;
    assert!(matches!(
        s.validate(),
        Err(InputError::StoreCapacityOutOfRange { .. })
    ));
    let bad = r#"{"version":1,"seed":1,"initial_balance":10,"services":["atomic"],"latency_ms":1,"timeout_ms":10,"inputs":[],"downstream":{"outage":"sideways"}}"#;
    assert!(Scenario::from_json(bad).is_err());
    let unknown = r#"{"version":1,"seed":1,"initial_balance":10,"services":["atomic"],"latency_ms":1,"timeout_ms":10,"inputs":[],"downstream":{"speed":1}}"#;
    assert!(Scenario::from_json(unknown).is_err());
    let partial = r#"{"version":1,"seed":1,"initial_balance":10,"services":["atomic"],"latency_ms":1,"timeout_ms":10,"inputs":[],"downstream":{"pass_key":true}}"#;
    let s = Scenario::from_json(partial).expect("partial downstream");
    assert!(s.downstream.pass_key && s.downstream.processor_ms == 0);
}

#[test]
fn rewinding_a_downstream_run_is_replaying() {
    let s = builtin("slow-processor").expect("lesson");
    let end = run(&s).remove(0);
    for k in [0, 3, end.steps_taken() / 2, end.steps_taken()] {
        let back = end.rewind(k).expect("rewind");
        let mut forward = s.worlds().expect("worlds").remove(0);
        while forward.steps_taken() < k && forward.step().is_some() {}
        assert_eq!(back.snapshot(), forward.snapshot(), "step {k}");
    }
}

fn slow_case(pass_key: bool, recovery_points: bool) -> impl Strategy<Value = Scenario> {
    (
        1u64..400,
        90_001u64..200_000,
        prop::collection::vec(
            prop::sample::select(vec![Fault::None, Fault::ProcessorSlow, Fault::ResponseLost]),
            1..4,
        ),
        1_000u64..40_000,
        3u32..8,
    )
        .prop_map(move |(processor_ms, slow_ms, faults, delay_ms, attempts)| {
            let mut s = builtin("slow-processor").expect("lesson");
            s.downstream = Downstream {
                processor_ms,
                slow_ms,
                pass_key,
                recovery_points,
                ..Downstream::default()
            };
            s.inputs = vec![Input::Operation {
                amount: 100,
                description: "order-1".into(),
                key_format: KeyFormat::V4,
                key_strategy: KeyStrategy::Reuse,
                retry: RetryPolicy::Fixed { delay_ms },
                max_attempts: attempts,
                faults,
            }];
            s
        })
}

fn is_flagged(s: &Scenario) -> bool {
    !holds(&run(s)[0], Invariant::OneChargePerOperation)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// With the key passed on, no slow processor, lost reply or retry ever charges twice.
    #[test]
    fn key_passed_on_never_charges_twice(s in slow_case(true, false)) {
        let w = &run(&s)[0];
        prop_assert!(w.violations().is_empty(), "{:?}", w.violations());
        // The processor's events stay within what the inputs were allowed to cost.
        prop_assert!(w.trace().len() as u64 <= w.event_bound());
        prop_assert!(w.halted().is_none());
    }

    /// A key kept beside the balance with no capacity limit never double-charges, whatever the
    /// store's outage policy and serialization failures.
    #[test]
    fn store_faults_never_break_the_atomic_service(
        faults in prop::collection::vec(prop::sample::select(vec![
            Fault::None, Fault::StoreUnreachable, Fault::SerializationFailure, Fault::ResponseLost,
        ]), 1..5),
        open in any::<bool>(),
    ) {
        let mut s = builtin("store-failures").expect("lesson");
        s.downstream.outage = if open { OutagePolicy::FailOpen } else { OutagePolicy::FailClosed };
        s.inputs = vec![Input::Operation {
            amount: 100,
            description: "order-1".into(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Fixed { delay_ms: 500 },
            max_attempts: 6,
            faults,
        }];
        for w in run(&s.with_services(vec![ServiceKind::Atomic.into(), ServiceKind::Production.into()])) {
            prop_assert!(w.violations().is_empty(), "{:?}", w.violations());
        }
    }
}

/// Under the unsafe policy (the key not passed on) random slow-processor cases are flagged: at
/// least one in the 200 drawn, so the invariant sees the processor's charges.
#[test]
fn without_the_key_passed_on_random_slow_cases_are_flagged() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config::default());
    let strategy = slow_case(false, false);
    let flagged = (0..200)
        .filter(|_| is_flagged(&strategy.new_tree(&mut runner).expect("case").current()))
        .count();
    assert!(flagged >= 1, "no case flagged");
    // And the same with recovery points: they do not fix a slow holder.
    let strategy = slow_case(false, true);
    let flagged = (0..200)
        .filter(|_| is_flagged(&strategy.new_tree(&mut runner).expect("case").current()))
        .count();
    assert!(flagged >= 1);
}

/// Fail open and eviction: random cases under the unsafe choices are flagged, fail closed with
/// room for every key never.
#[test]
fn store_failures_flagged_only_under_the_unsafe_choice() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let strategy = (
        prop::collection::vec(
            prop::sample::select(vec![
                Fault::None,
                Fault::StoreUnreachable,
                Fault::ResponseLost,
            ]),
            1..5,
        ),
        1u32..3,
    );
    let mut runner = TestRunner::new(Config::default());
    let (mut unsafe_flagged, mut safe_flagged) = (0, 0);
    for _ in 0..200 {
        let (faults, others) = strategy.new_tree(&mut runner).expect("case").current();
        let mut inputs = vec![Input::Request {
            key: Some("order-1".into()),
            key_format: KeyFormat::V4,
            amount: 100,
            description: "order-1".into(),
            fault: faults[0],
        }];
        for i in 0..others {
            inputs.push(Input::Request {
                key: Some(format!("other-{i}")),
                key_format: KeyFormat::V4,
                amount: 10,
                description: "other".into(),
                fault: Fault::None,
            });
        }
        for f in &faults[1..] {
            inputs.push(Input::Request {
                key: Some("order-1".into()),
                key_format: KeyFormat::V4,
                amount: 100,
                description: "order-1".into(),
                fault: *f,
            });
        }
        let mut s = builtin("store-failures").expect("lesson");
        s.inputs = inputs;
        s.services = vec![ServiceKind::SplitStore.into()];
        s.downstream = Downstream {
            store_capacity: 1,
            outage: OutagePolicy::FailOpen,
            ..Downstream::default()
        };
        unsafe_flagged += !holds(&run(&s)[0], Invariant::OneChargePerKey) as u32;
        s.downstream = Downstream::default();
        safe_flagged += !holds(&run(&s)[0], Invariant::OneChargePerKey) as u32;
    }
    assert!(unsafe_flagged >= 1);
    assert_eq!(safe_flagged, 0);
}
