//! Scenario tests as data: a built-in scenario (or a variant of one) in, the expected final state
//! per service out. Each expectation names the invariants that must break and asserts that no
//! other one does, so both directions are checked: safe services stay clean, unsafe ones are caught.

use idempotency_playground::*;

// In the browser (wasm-pack test) the same tests run under wasm-bindgen-test.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
use Invariant::*;
use ServiceKind::*;

/// What one service's world must end with.
struct Expect {
    service: ServiceKind,
    balance: i64,
    violations: &'static [Invariant],
}

const fn ex(service: ServiceKind, balance: i64, violations: &'static [Invariant]) -> Expect {
    Expect {
        service,
        balance,
        violations,
    }
}

/// Runs `scenario` and compares each world against `expected` (same order as the services).
fn check(scenario: &Scenario, expected: &[Expect]) -> Vec<World> {
    let worlds = scenario.run().expect("scenario runs");
    assert_eq!(worlds.len(), expected.len(), "one expectation per service");
    for (w, e) in worlds.iter().zip(expected) {
        assert_eq!(w.config().service, e.service);
        assert!(w.halted().is_none());
        assert!(w.is_idle());
        assert_eq!(w.balance(), e.balance, "{:?} balance", e.service);
        let got: Vec<Invariant> = w.violations().iter().map(|v| v.invariant).collect();
        assert_eq!(got, e.violations, "{:?} violations", e.service);
    }
    worlds
}

fn builtin_scenario(id: &str) -> Scenario {
    builtin(id).unwrap_or_else(|| panic!("built-in {id}"))
}

fn outcome(w: &World, op: usize) -> &ClientOutcome {
    &w.client_results()[op].outcome
}

fn answered(w: &World, op: usize) -> &PaymentResult {
    match outcome(w, op) {
        ClientOutcome::Answered { result } => result,
        other => panic!("op {op} not answered: {other:?}"),
    }
}

#[test]
fn double_charge() {
    let w = check(
        &builtin_scenario("double-charge"),
        &[
            ex(Naive, 800, &[OneChargePerKey, OneChargePerOperation]),
            ex(Idempotent, 900, &[]),
            ex(Atomic, 900, &[]),
        ],
    );
    assert_eq!(answered(&w[0], 0), &PaymentResult::Success { balance: 800 });
    for safe in &w[1..] {
        assert!(answered(safe, 0).is_replay());
        assert_eq!(safe.ledger().len(), 1);
    }
}

#[test]
fn distinct_keys() {
    check(
        &builtin_scenario("distinct-keys"),
        &[
            ex(Idempotent, 400, &[]),
            ex(Atomic, 400, &[]),
            ex(Production, 400, &[]),
        ],
    );
}

#[test]
fn failure_cached() {
    let w = check(
        &builtin_scenario("failure-cached"),
        &[
            ex(Idempotent, 150, &[]),
            ex(Atomic, 150, &[]),
            ex(Production, 50, &[]),
        ],
    );
    let cached_failure = PaymentResult::DuplicateRequest {
        original_result: Box::new(PaymentResult::InsufficientFunds { balance: 50 }),
    };
    // The retry is the same operation (#1), answered a second time.
    assert_eq!(w[0].client_results().len(), 1);
    assert_eq!(w[0].client_results()[0].attempts, 2);
    assert_eq!(answered(&w[0], 0), &cached_failure);
    assert_eq!(answered(&w[1], 0), &cached_failure);
    assert_eq!(answered(&w[2], 0), &PaymentResult::Success { balance: 50 });
    // Every answer the client received is kept, not only the last: in production, two tries
    // with one key got two different answers; the article's services replayed the first.
    let seen = |w: &World| -> Vec<(u32, AttemptOutcome)> {
        w.client_results()[0]
            .seen
            .iter()
            .map(|s| (s.attempt, s.outcome.clone()))
            .collect()
    };
    let refused = PaymentResult::InsufficientFunds { balance: 50 };
    assert_eq!(
        seen(&w[2]),
        [
            (1, AttemptOutcome::Reply(refused.clone())),
            (
                2,
                AttemptOutcome::Reply(PaymentResult::Success { balance: 50 })
            )
        ]
    );
    assert_eq!(
        seen(&w[0]),
        [
            (1, AttemptOutcome::Reply(refused)),
            (2, AttemptOutcome::Reply(cached_failure))
        ]
    );
}

#[test]
fn failure_cached_with_cache_all_replays_the_failure_in_production() {
    let mut s = builtin_scenario("failure-cached");
    s.policies.failure_caching = FailureCaching::CacheAll;
    s.services = [Production].map(Into::into).to_vec();
    let w = check(&s, &[ex(Production, 150, &[])]);
    assert!(answered(&w[0], 0).is_replay());
}

#[test]
fn client_cannot_tell() {
    // Each operation retries once with its key: the lost request charges on the retry, the lost
    // reply replays, the crash after the charge keeps the charge where nothing rolls it back.
    let w = check(
        &builtin_scenario("client-cannot-tell"),
        &[
            ex(Naive, 500, &[OneChargePerKey, OneChargePerOperation]),
            ex(SplitStore, 600, &[OneChargePerKey, OneChargePerOperation]),
            ex(Atomic, 700, &[]),
        ],
    );
    for world in &w {
        // All three first tries end the same way for the client: a timeout one second after the
        // send, whatever happened at the server.
        let first_send = |op: u32| {
            world.trace().iter().find_map(|e| match e.kind {
                EventKind::ClientSend {
                    op: o, attempt: 1, ..
                } if o.0 == op => Some(e.time_ms),
                _ => None,
            })
        };
        let first_timeout = |op: u32| {
            world.trace().iter().find_map(|e| match e.kind {
                EventKind::ClientTimeout { op: o, attempt: 1 } if o.0 == op => Some(e.time_ms),
                _ => None,
            })
        };
        let gaps: Vec<u64> = (0..3)
            .map(|op| first_timeout(op).unwrap() - first_send(op).unwrap())
            .collect();
        assert_eq!(gaps, vec![1000, 1000, 1000]);
        for op in 0..3 {
            assert!(
                matches!(outcome(world, op), ClientOutcome::Answered { .. }),
                "the retry is answered"
            );
            // What the client saw first: a timeout, whatever happened at the server.
            assert_eq!(
                world.client_results()[op].seen[0],
                SeenAttempt {
                    attempt: 1,
                    outcome: AttemptOutcome::TimedOut
                }
            );
        }
    }
}

#[test]
fn new_key_per_retry_defeats_every_server() {
    let w = check(
        &builtin_scenario("new-key-per-retry"),
        &[
            ex(Atomic, 800, &[OneChargePerOperation]),
            ex(Production, 800, &[OneChargePerOperation]),
        ],
    );
    // Two different keys were charged once each: the per-key invariant cannot see the bug.
    let keys: Vec<_> = w[0].ledger().iter().map(|l| l.key).collect();
    assert_eq!(keys.len(), 2);
    assert_ne!(keys[0], keys[1]);
}

#[test]
fn reusing_the_key_is_safe_with_the_same_faults() {
    let mut s = builtin_scenario("new-key-per-retry");
    if let Input::Operation { key_strategy, .. } = &mut s.inputs[0] {
        *key_strategy = KeyStrategy::Reuse;
    }
    check(&s, &[ex(Atomic, 900, &[]), ex(Production, 900, &[])]);
}

#[test]
fn split_store_crash() {
    let w = check(
        &builtin_scenario("split-store-crash"),
        &[
            ex(SplitStore, 800, &[OneChargePerKey, OneChargePerOperation]),
            ex(TocTou, 800, &[OneChargePerKey, OneChargePerOperation]),
            ex(Atomic, 900, &[]),
            ex(Production, 900, &[]),
        ],
    );
    // Atomic rolled the crashed charge back, so the retry executes once.
    assert_eq!(answered(&w[2], 0), &PaymentResult::Success { balance: 900 });
    assert_eq!(w[2].client_results()[0].attempts, 2);
    // Production: 409 while the crashed request's in-flight record lives, then it expires.
    assert_eq!(answered(&w[3], 0), &PaymentResult::Success { balance: 900 });
    assert_eq!(w[3].client_results()[0].attempts, 4);
    let c = w[3].counters();
    assert_eq!((c.conflicts, c.expirations), (2, 1));
}

#[test]
fn crash_after_commit_before_reply_is_safe_for_every_key_honouring_service() {
    let mut s = builtin_scenario("split-store-crash");
    s.services = [SplitStore, TocTou, Idempotent, Atomic, Production]
        .map(Into::into)
        .to_vec();
    s.inputs = vec![Input::Operation {
        amount: 100,
        description: String::new(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Immediate,
        max_attempts: 3,
        faults: vec![Fault::CrashAfterCommitBeforeReply],
    }];
    let w = check(
        &s,
        &[
            ex(SplitStore, 900, &[]),
            ex(TocTou, 900, &[]),
            ex(Idempotent, 900, &[]),
            ex(Atomic, 900, &[]),
            ex(Production, 900, &[]),
        ],
    );
    for world in &w {
        assert!(answered(world, 0).is_replay());
    }
}

#[test]
fn crash_before_charge_never_charges() {
    let mut s = builtin_scenario("client-cannot-tell");
    s.services = ServiceKind::ALL.map(Into::into).to_vec();
    s.inputs = vec![Input::Operation {
        amount: 100,
        description: String::new(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::None,
        max_attempts: 1,
        faults: vec![Fault::CrashBeforeCharge],
    }];
    let expected: Vec<Expect> = ServiceKind::ALL.iter().map(|k| ex(*k, 1000, &[])).collect();
    check(&s, &expected);
}

#[test]
fn concurrent_same_key() {
    let w = check(
        &builtin_scenario("concurrent-same-key"),
        &[
            // Two requests with one key are one operation (the key names it): charged twice.
            ex(
                TocTou,
                800,
                &[OneChargePerKey, OneChargePerOperation, ReplayIdentical],
            ),
            ex(Atomic, 900, &[]),
            ex(Production, 900, &[]),
        ],
    );
    // Both charge invariants break at the second charge, and name the two requests and the key.
    let second_charge = w[0].ledger()[1].step;
    let by = |inv: Invariant| {
        w[0].violations()
            .iter()
            .find(|v| v.invariant == inv)
            .unwrap()
    };
    assert_eq!(by(OneChargePerKey).step, second_charge);
    let op = by(OneChargePerOperation);
    assert_eq!(op.step, second_charge);
    let key = w[0].ledger()[0].key.unwrap();
    assert_eq!(
        op.detail,
        ViolationDetail::KeySharedCharged {
            key,
            first: OpId(0),
            op: OpId(1),
            charges: 2
        }
    );
    // The replay that differs is marked at its own step, and so is the client's receipt of it:
    // the timeline draws them as the failure the badge names, not as a good replay.
    assert_replay_marked(&w[0], by(ReplayIdentical));
    assert!(w[0]
        .trace()
        .iter()
        .filter(|e| e.step == second_charge)
        .any(|e| matches!(e.kind, EventKind::Charge { .. }) && op.is_evidence(e)));
    // A safe column marks nothing.
    assert!(w[1].violations().is_empty());
    assert!(answered(&w[1], 1).is_replay());
    assert_eq!(answered(&w[2], 1), &PaymentResult::InFlightConflict);
    assert_eq!(answered(&w[2], 1).http_status(), 409);
    assert_eq!(w[2].counters().conflicts, 1);
    // The 409 was not stored: the later retry replays the one success.
    assert_eq!(
        answered(&w[2], 2),
        &PaymentResult::DuplicateRequest {
            original_result: Box::new(PaymentResult::Success { balance: 900 })
        }
    );
}

/// The replay `replay` names is marked at its own step, and the client's receipt of it after.
fn assert_replay_marked(w: &World, replay: &Violation) {
    let marked: Vec<(usize, &EventKind)> = w
        .trace()
        .iter()
        .filter(|e| replay.is_evidence(e))
        .map(|e| (e.step, &e.kind))
        .collect();
    assert!(
        marked.iter().any(|(s, k)| *s == replay.step
            && matches!(
                k,
                EventKind::StoreCheck {
                    outcome: CheckOutcome::Hit,
                    ..
                }
            )),
        "{marked:?}"
    );
    assert!(
        marked
            .iter()
            .any(|(s, k)| *s > replay.step && matches!(k, EventKind::ResponseDelivered { .. })),
        "{marked:?}"
    );
}

#[test]
fn concurrent_same_key_naive_and_split_store_double_charge() {
    let mut s = builtin_scenario("concurrent-same-key");
    s.services = [Naive, SplitStore, Idempotent].map(Into::into).to_vec();
    check(
        &s,
        &[
            ex(Naive, 700, &[OneChargePerKey, OneChargePerOperation]),
            ex(
                SplitStore,
                800,
                &[OneChargePerKey, OneChargePerOperation, ReplayIdentical],
            ),
            ex(Idempotent, 900, &[]),
        ],
    );
}

#[test]
fn production_without_in_flight_serializes_in_one_transaction() {
    let mut s = builtin_scenario("concurrent-same-key");
    s.services = [Production].map(Into::into).to_vec();
    s.policies.in_flight = false;
    let w = check(&s, &[ex(Production, 900, &[])]);
    assert!(answered(&w[0], 1).is_replay());
}

#[test]
fn key_expiry() {
    let w = check(
        &builtin_scenario("key-expiry"),
        &[
            // A retry after the retention window is not protected: the same operation charges
            // again, which is what the lesson shows.
            ex(Production, 800, &[OneChargePerKey, OneChargePerOperation]),
            ex(Atomic, 900, &[]),
        ],
    );
    assert_eq!(w[0].counters().expirations, 1);
    assert!(w[0]
        .trace()
        .iter()
        .any(|e| matches!(e.kind, EventKind::KeyExpired { .. })));
    assert_eq!(answered(&w[0], 0), &PaymentResult::Success { balance: 800 });
}

#[test]
fn key_within_retention_is_replayed() {
    let mut s = builtin_scenario("key-expiry");
    s.inputs[1] = Input::AdvanceTime { ms: 23 * 3_600_000 };
    let w = check(&s, &[ex(Production, 900, &[]), ex(Atomic, 900, &[])]);
    assert!(answered(&w[0], 0).is_replay());
    assert_eq!(w[0].counters().expirations, 0);
}

#[test]
fn param_mismatch_status_per_policy() {
    for (policies, status) in [
        (Policies::stripe(), 400),
        (Policies::ietf_draft(), 422),
        (Policies::rocket_rides(), 409),
    ] {
        let mut s = builtin_scenario("param-mismatch");
        s.policies = policies;
        // The article's service replays the first result for a different amount: the caller
        // gets another request's answer, and the run says so.
        let w = check(
            &s,
            &[
                ex(Atomic, 900, &[ReplayMatchesRequest]),
                ex(Production, 900, &[]),
            ],
        );
        assert!(answered(&w[0], 1).is_replay());
        assert_eq!(
            answered(&w[1], 1),
            &PaymentResult::ParameterMismatch { status }
        );
        assert_eq!(w[1].counters().mismatches, 1);
    }
}

#[test]
fn outbox_relay_crash_inbox_vs_naive_consumer() {
    let w = check(
        &builtin_scenario("outbox-relay-crash"),
        &[ex(Atomic, 700, &[]), ex(Atomic, 700, &[ConsumerAtMostOnce])],
    );
    assert_eq!(w[0].config().emit, EmitMode::Outbox);
    assert!(w[0].config().consumer_dedupes && !w[1].config().consumer_dedupes);
    let c = w[0].consumer();
    assert_eq!((c.received, c.applied, c.duplicates_ignored), (4, 2, 2));
    assert_eq!(c.inbox, vec![1, 2]);
    assert!(w[0]
        .outbox()
        .iter()
        .all(|r| r.published && r.deliveries == 2));
    let naive = w[1].consumer();
    assert_eq!((naive.applied, naive.duplicates_applied), (4, 2));
    assert!(naive.inbox.is_empty());
}

/// Two plain requests and a relay tick; the second request's fault is set per case.
fn two_charges(emit: EmitMode, second: Fault) -> Scenario {
    let mut s = builtin_scenario("double-charge");
    s.emit = emit;
    s.services = ServiceKind::ALL.map(Into::into).to_vec();
    let req = |amount, fault| Input::Request {
        key: None,
        key_format: KeyFormat::V4,
        amount,
        description: String::new(),
        fault,
    };
    s.inputs = vec![
        req(100, Fault::None),
        req(200, second),
        Input::RelayTick {
            crash_after_publish: false,
        },
    ];
    s
}

#[test]
fn outbox_survives_every_crash() {
    for fault in [
        Fault::CrashAfterCommitBeforeReply,
        Fault::CrashAfterChargeBeforeRecord,
    ] {
        let s = two_charges(EmitMode::Outbox, fault);
        let atomic_balance = if fault == Fault::CrashAfterChargeBeforeRecord {
            900
        } else {
            700
        };
        check(
            &s,
            &[
                ex(Naive, 700, &[]),
                ex(Idempotent, atomic_balance, &[]),
                ex(TocTou, 700, &[]),
                ex(Atomic, atomic_balance, &[]),
                ex(SplitStore, 700, &[]),
                ex(Production, atomic_balance, &[]),
            ],
        );
    }
}

#[test]
fn dual_write_loses_an_event_and_emits_a_phantom_one() {
    let w = check(
        &builtin_scenario("dual-write"),
        &[
            ex(Atomic, 900, &[]),
            ex(Atomic, 900, &[OneEventPerCharge]),
            ex(Atomic, 900, &[OneEventPerCharge]),
        ],
    );
    let emits: Vec<EmitMode> = w.iter().map(|w| w.config().emit).collect();
    assert_eq!(
        emits,
        [
            EmitMode::Outbox,
            EmitMode::DualWriteCommitThenPublish,
            EmitMode::DualWritePublishThenCommit
        ]
    );
    // Outbox: the committed charge's event is delivered by the relay; the rolled-back one is not.
    assert_eq!(w[0].consumer().applied, 1);
    // Commit, then publish: the crash after the commit loses the first event.
    assert!(matches!(
        w[1].violations()[0].detail,
        ViolationDetail::EventLost { id: 1 }
    ));
    assert_eq!(w[1].consumer().applied, 0);
    // Publish, then commit: the consumer acted on a charge that was rolled back.
    assert!(matches!(
        w[2].violations()[0].detail,
        ViolationDetail::PhantomEvent { id: 2 }
    ));
    assert_eq!(w[2].consumer().applied, 2);
    assert_eq!(w[2].ledger().len(), 1);
}

#[test]
fn dual_write_without_faults_is_clean() {
    for emit in [
        EmitMode::DualWriteCommitThenPublish,
        EmitMode::DualWritePublishThenCommit,
    ] {
        let mut s = two_charges(emit, Fault::None);
        s.inputs.truncate(1);
        let expected: Vec<Expect> = ServiceKind::ALL.iter().map(|k| ex(*k, 900, &[])).collect();
        let w = check(&s, &expected);
        assert!(w.iter().all(|w| w.consumer().applied == 1));
    }
}

#[test]
fn a_wired_service_round_trips_through_json() {
    let s = builtin_scenario("dual-write");
    let json = s.to_json();
    assert!(
        json.contains(r#"{"kind":"atomic","emit":"outbox","consumer_dedupes":true}"#),
        "{json}"
    );
    assert_eq!(Scenario::from_json(&json).unwrap(), s);
    // A typo inside a wired service is an error, not silently the scenario's default.
    let typo = json.replacen("consumer_dedupes", "consumer_dedupe", 1);
    assert!(matches!(
        Scenario::from_json(&typo),
        Err(InputError::JsonInvalid { .. })
    ));
}

#[test]
fn processor_error_policies() {
    let base = Scenario {
        services: vec![Atomic.into(), Production.into()],
        inputs: vec![Input::Operation {
            amount: 100,
            description: String::new(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Fixed { delay_ms: 10 },
            max_attempts: 3,
            faults: vec![Fault::ProcessorError],
        }],
        ..builtin_scenario("double-charge")
    };
    // Cache everything: the 503 is replayed on every retry, as Stripe replays 500s.
    let w = check(&base, &[ex(Atomic, 1000, &[]), ex(Production, 1000, &[])]);
    for world in &w {
        assert_eq!(world.client_results()[0].attempts, 3);
        assert_eq!(answered(world, 0).http_status(), 503);
    }
    // Do not cache transient errors: the retry executes.
    for caching in [FailureCaching::AllButTransient, FailureCaching::SuccessOnly] {
        let mut s = base.clone();
        s.policies.failure_caching = caching;
        let w = check(&s, &[ex(Atomic, 1000, &[]), ex(Production, 900, &[])]);
        assert_eq!(answered(&w[1], 0), &PaymentResult::Success { balance: 900 });
    }
}

#[test]
fn every_builtin_is_deterministic() {
    for id in builtin_ids() {
        let s = builtin_scenario(id);
        let a = s.run().expect("runs");
        let b = s.run().expect("runs");
        assert_eq!(a, b, "{id}");
        for w in &a {
            assert!(w.steps_taken() > 0, "{id}");
        }
    }
}

/// The sandbox's hand-made retries: the same operation again, with the same key or a new one.
#[test]
fn hand_made_retries_are_judged_as_retries() {
    let mut s = builtin_scenario("double-charge");
    s.services = [Naive, Idempotent, Atomic, Production]
        .map(Into::into)
        .to_vec();
    let first = Input::Request {
        key: None,
        key_format: KeyFormat::V4,
        amount: 100,
        description: "order".into(),
        fault: Fault::ResponseLost,
    };
    let retry = |new_key| Input::Retry {
        new_key,
        fault: Fault::None,
    };
    s.inputs = vec![first.clone(), retry(false)];
    let w = check(
        &s,
        &[
            ex(Naive, 800, &[OneChargePerKey, OneChargePerOperation]),
            ex(Idempotent, 900, &[]),
            ex(Atomic, 900, &[]),
            ex(Production, 900, &[]),
        ],
    );
    assert_eq!(
        w[2].client_results().len(),
        1,
        "one operation, two attempts"
    );
    assert!(answered(&w[2], 0).is_replay());
    // A new key on the retry defeats every key-honouring service: the operation charges twice.
    s.inputs = vec![first, retry(true)];
    check(
        &s,
        &[
            ex(Naive, 800, &[OneChargePerOperation]),
            ex(Idempotent, 800, &[OneChargePerOperation]),
            ex(Atomic, 800, &[OneChargePerOperation]),
            ex(Production, 800, &[OneChargePerOperation]),
        ],
    );
    // With nothing to retry, a retry is ignored.
    s.inputs = vec![retry(false)];
    let w = check(
        &s,
        &[
            ex(Naive, 1000, &[]),
            ex(Idempotent, 1000, &[]),
            ex(Atomic, 1000, &[]),
            ex(Production, 1000, &[]),
        ],
    );
    assert!(w[0].trace().is_empty());
}

/// The key checks and crashes of a world, as (step, what) pairs, for the tests below.
fn checks(w: &World) -> Vec<(usize, CheckOutcome)> {
    w.trace()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::StoreCheck { outcome, .. } => Some((e.step, outcome)),
            _ => None,
        })
        .collect()
}

fn crashes(w: &World) -> Vec<(usize, CrashPoint)> {
    w.trace()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::ServerCrash { point, .. } => Some((e.step, point)),
            _ => None,
        })
        .collect()
}

/// A try set to crash before the charge that is answered by a replay never reaches the charge:
/// it dies before its reply, and the trace says so (lesson "many-retries", step 13).
#[test]
fn a_replayed_try_set_to_crash_dies_before_its_reply() {
    let worlds = builtin_scenario("many-retries").run().expect("runs");
    assert_eq!(crashes(&worlds[0]), [(13, CrashPoint::BeforeCharge)]);
    for w in &worlds[1..] {
        assert_eq!(crashes(w), [(13, CrashPoint::BeforeReply)]);
        assert!(checks(w).contains(&(13, CheckOutcome::Hit)));
    }
}

/// The naive service's every charge of the operation after its first is a repeat, not only the
/// one that broke the invariant (steps 9, 16 and 20 of "many-retries").
#[test]
fn every_repeat_charge_of_an_operation_is_known() {
    let w = &builtin_scenario("many-retries").run().expect("runs")[0];
    let op = w.ledger()[0].op;
    let steps: Vec<usize> = w.ledger().iter().map(|c| c.step).collect();
    assert_eq!(steps, [2, 9, 16, 20]);
    let repeats: Vec<usize> = steps
        .iter()
        .copied()
        .filter(|&s| w.is_repeat_charge(s, op))
        .collect();
    assert_eq!(repeats, [9, 16, 20]);
    assert!(!w.is_repeat_charge(13, op), "no charge at the crash");
}

/// An honest retry refused for a fingerprint field that changed is not the client bug a
/// mismatch usually is; a lock that outlived its holder is taken over, not an expired key.
#[test]
fn a_retry_refused_and_a_lock_taken_over_are_their_own_outcomes() {
    let fp = builtin_scenario("fingerprint-fields").run().expect("runs");
    let production = fp
        .iter()
        .find(|w| w.config().service == Production)
        .expect("production");
    assert!(checks(production).contains(&(7, CheckOutcome::RetryMismatch)));
    let pm = builtin_scenario("param-mismatch").run().expect("runs");
    let production = pm
        .iter()
        .find(|w| w.config().service == Production)
        .expect("production");
    assert!(checks(production)
        .iter()
        .any(|(_, o)| *o == CheckOutcome::Mismatch));
    let split = builtin_scenario("split-store-crash").run().expect("runs");
    let production = split
        .iter()
        .find(|w| w.config().service == Production)
        .expect("production");
    assert!(checks(production).contains(&(12, CheckOutcome::LockExpired)));
    let expiry = builtin_scenario("key-expiry").run().expect("runs");
    let production = expiry
        .iter()
        .find(|w| w.config().service == Production)
        .expect("production");
    assert!(checks(production)
        .iter()
        .any(|(_, o)| *o == CheckOutcome::Expired));
}
