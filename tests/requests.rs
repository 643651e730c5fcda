//! Issue 13, sections 2 and 4: who sends a request and what its body carries. Callers with
//! accounts and the key scope; the fingerprint's fields with a client that stamps its bodies;
//! the parameter check on every path; requests without a key; Stripe API v1 and v2 on a failed
//! first attempt; the JSON of it all; and a property per new invariant (random cases under the
//! unsafe policy are flagged, under the safe one never).

use idempotency_playground::lesson::Value;
use idempotency_playground::limits::MAX_ACCOUNT;
use idempotency_playground::teach::{challenge, question, Measure};
use idempotency_playground::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;

// In the browser (wasm-pack test) the same tests run under wasm-bindgen-test.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use ServiceKind::{Atomic, Naive, Production};

fn req(key: Option<&str>, amount: i64, description: &str, fault: Fault) -> Input {
    Input::Request {
        key: key.map(str::to_string),
        key_format: KeyFormat::V4,
        amount,
        description: description.to_string(),
        fault,
    }
}

fn from(account: u32, stamps_body: bool, sends_key: bool, input: Input) -> Input {
    Input::As {
        caller: Caller {
            account,
            stamps_body,
            sends_key,
        },
        input: Box::new(input),
    }
}

/// A client retrying once at once after its first reply is lost.
fn retrying(amount: i64) -> Input {
    Input::Operation {
        amount,
        description: "order-5".into(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Immediate,
        max_attempts: 2,
        faults: vec![Fault::ResponseLost],
    }
}

fn scenario(services: &[ServiceKind], requests: RequestPolicies, inputs: Vec<Input>) -> Scenario {
    let mut s = builtin("double-charge").expect("built in");
    s.services = services.iter().map(|k| (*k).into()).collect();
    s.requests = requests;
    s.inputs = inputs;
    s
}

fn run(services: &[ServiceKind], requests: RequestPolicies, inputs: Vec<Input>) -> Vec<World> {
    scenario(services, requests, inputs).run().expect("runs")
}

fn holds(w: &World, inv: Invariant) -> bool {
    w.violations().iter().all(|v| v.invariant != inv)
}

fn answer(w: &World, op: usize) -> PaymentResult {
    match &w.client_results()[op].outcome {
        ClientOutcome::Answered { result } => result.clone(),
        other => panic!("op {op}: {other:?}"),
    }
}

fn policies(f: impl FnOnce(&mut RequestPolicies)) -> RequestPolicies {
    let mut p = RequestPolicies::default();
    f(&mut p);
    p
}

#[test]
fn a_default_caller_changes_nothing() {
    let plain = vec![req(Some("k"), 100, "o", Fault::ResponseLost), retrying(50)];
    let wrapped: Vec<Input> = plain
        .iter()
        .map(|i| from(0, false, true, i.clone()))
        .collect();
    for kind in ServiceKind::ALL {
        let a = run(&[kind], RequestPolicies::default(), plain.clone());
        let b = run(&[kind], RequestPolicies::default(), wrapped.clone());
        assert_eq!(a[0].trace().to_vec(), b[0].trace().to_vec(), "{kind:?}");
        assert_eq!(a[0].store_rows().to_vec(), b[0].store_rows().to_vec());
    }
}

#[test]
fn without_scoping_the_second_customer_gets_the_first_ones_receipt() {
    let inputs = vec![
        from(
            1,
            false,
            true,
            req(Some("order-1"), 100, "order-1", Fault::None),
        ),
        from(
            2,
            false,
            true,
            req(Some("order-1"), 100, "order-1", Fault::None),
        ),
    ];
    let global = policies(|p| p.scope = KeyScope::Global);
    for (kind, requests, charges) in [
        (Atomic, RequestPolicies::default(), 1),
        (Production, global, 1),
        (Production, RequestPolicies::default(), 2),
    ] {
        let w = &run(&[kind], requests, inputs.clone())[0];
        assert_eq!(w.ledger().len(), charges, "{kind:?} {requests:?}");
        let foreign = charges == 1;
        assert_eq!(holds(w, Invariant::OwnAccountAnswers), !foreign);
        assert_eq!(answer(w, 1).is_replay(), foreign);
        if foreign {
            let v = w
                .violations()
                .iter()
                .find(|v| v.invariant == Invariant::OwnAccountAnswers)
                .expect("flagged");
            assert!(matches!(
                v.detail,
                ViolationDetail::ForeignAnswer {
                    op: OpId(1),
                    producer: OpId(0),
                    ..
                }
            ));
            assert!(w.trace().iter().any(|e| v.is_evidence(e)));
            // The foreign answer itself, as client 2 receives it, is evidence too: the
            // timeline draws it as a failure, not as a good replay.
            assert!(w.trace().iter().any(|e| {
                matches!(e.kind, EventKind::ResponseDelivered { op: OpId(1), .. })
                    && v.is_evidence(e)
            }));
        } else {
            // Scoped: two records, both shown as order-1.
            assert_eq!(w.store_rows().len(), 2);
            for row in w.store_rows().iter() {
                assert_eq!(w.key_text(row.key).as_deref(), Some("order-1"));
            }
            assert_eq!(w.caller_of(OpId(1)).account, 2);
        }
    }
}

#[test]
fn the_fingerprint_covers_the_fields_that_define_the_request() {
    let stamped = vec![from(0, true, true, retrying(100))];
    let whole = policies(|p| p.fingerprint = FingerprintFields::WholeBody);
    // The whole body with a stamping client: the honest retry is refused (a false mismatch).
    let w = &run(&[Production], whole, stamped.clone())[0];
    assert_eq!(
        answer(w, 0),
        PaymentResult::ParameterMismatch { status: 400 }
    );
    assert_eq!((w.ledger().len(), w.counters().mismatches), (1, 1));
    // The chosen fields: the same retry is replayed.
    let w = &run(&[Production], RequestPolicies::default(), stamped.clone())[0];
    assert!(answer(w, 0).is_replay());
    // Without stamps the whole body is the chosen fields.
    let w = &run(&[Production], whole, vec![retrying(100)])[0];
    assert!(answer(w, 0).is_replay());

    // Too few fields: another amount under the same key is replayed silently.
    let changed = vec![
        req(Some("k"), 100, "order-5", Fault::None),
        req(Some("k"), 300, "order-5", Fault::None),
    ];
    let few = policies(|p| p.fingerprint = FingerprintFields::DescriptionOnly);
    let w = &run(&[Production], few, changed.clone())[0];
    assert!(answer(w, 1).is_replay());
    assert!(!holds(w, Invariant::ReplayMatchesRequest));
    let w = &run(&[Production], RequestPolicies::default(), changed)[0];
    assert_eq!(
        answer(w, 1),
        PaymentResult::ParameterMismatch { status: 400 }
    );
    assert!(holds(w, Invariant::ReplayMatchesRequest));
}

#[test]
fn a_check_only_on_the_read_path_replays_another_request_on_the_claim_path() {
    let changed = vec![
        req(Some("k"), 100, "order-5", Fault::None),
        req(Some("k"), 300, "order-5", Fault::None),
    ];
    let read_only = policies(|p| p.payload_check = PayloadCheck::ReadPathOnly);
    // With an in-flight record the lookup is the conditional write: unchecked, replayed.
    let mut s = scenario(&[Production], read_only, changed.clone());
    let w = &s.run().unwrap()[0];
    assert!(answer(w, 1).is_replay());
    let v = w
        .violations()
        .iter()
        .find(|v| v.invariant == Invariant::ReplayMatchesRequest)
        .expect("the invariant catches it");
    assert!(matches!(
        v.detail,
        ViolationDetail::OtherRequestReplayed { .. }
    ));
    // The same service reading the record (no in-flight claim) checks it.
    s.policies.in_flight = false;
    let w = &s.run().unwrap()[0];
    assert_eq!(
        answer(w, 1),
        PaymentResult::ParameterMismatch { status: 400 }
    );
    // Checked on every path: refused either way.
    let w = &run(&[Production], RequestPolicies::default(), changed)[0];
    assert_eq!(
        answer(w, 1),
        PaymentResult::ParameterMismatch { status: 400 }
    );
}

#[test]
fn a_request_without_a_key_runs_unprotected_or_gets_400() {
    let keyless = vec![from(0, false, false, retrying(100))];
    // Stripe, and every service but a production one that requires a key: the retry charges
    // again, and the invariant per operation says so.
    for kind in [Naive, Atomic, Production] {
        let w = &run(&[kind], RequestPolicies::default(), keyless.clone())[0];
        assert_eq!(w.ledger().len(), 2, "{kind:?}");
        assert!(w.ledger().iter().all(|e| e.key.is_none()));
        assert!(w.store_rows().is_empty());
        assert!(!holds(w, Invariant::OneChargePerOperation));
        assert_eq!(w.key_text(w.client_results()[0].key).as_deref(), Some(""));
    }
    // The IETF draft's 400 for a resource that requires a key (Powertools'
    // raise_on_no_idempotency_key).
    let strict = policies(|p| p.missing_key = MissingKey::Reject400);
    let w = &run(&[Production], strict, keyless)[0];
    assert_eq!(w.ledger().len(), 0);
    assert_eq!(answer(w, 0), PaymentResult::invalid(InputError::MissingKey));
    assert_eq!(answer(w, 0).http_status(), 400);
    // A caller without a key cannot be given one.
    let bad = from(0, false, false, req(Some("k"), 1, "", Fault::None));
    assert_eq!(bad.validate(), Err(InputError::KeyWithoutKeyHeader));
}

/// Stripe's docs (docs.stripe.com/api/idempotent_requests): API v1 saves the first result and
/// replays it, 500s included; with API v2, Stripe retries failed work to completion. The
/// production service's `CacheAll` is v1, `SuccessOnly` is v2.
#[test]
fn stripe_v1_replays_a_failed_first_attempt_and_v2_completes_it() {
    let failed_then_retried = vec![
        req(Some("k"), 100, "o", Fault::ProcessorError),
        Input::Retry {
            new_key: false,
            fault: Fault::None,
        },
    ];
    let mut s = scenario(
        &[Production],
        RequestPolicies::default(),
        failed_then_retried,
    );
    let v1 = &s.run().unwrap()[0];
    assert!(answer(v1, 0).is_replay(), "v1 replays the 503");
    assert_eq!(answer(v1, 0).http_status(), 503);
    assert_eq!(v1.ledger().len(), 0);
    s.policies.failure_caching = FailureCaching::SuccessOnly;
    let v2 = &s.run().unwrap()[0];
    assert_eq!(answer(v2, 0), PaymentResult::Success { balance: 900 });
    assert_eq!(v2.ledger().len(), 1);
}

#[test]
fn callers_and_request_policies_round_trip_and_old_json_is_untouched() {
    let old = builtin("double-charge").unwrap().to_json();
    assert!(!old.contains("requests\":{") && !old.contains("\"as\""));
    let s = scenario(
        &[Production],
        RequestPolicies {
            scope: KeyScope::Global,
            fingerprint: FingerprintFields::DescriptionOnly,
            payload_check: PayloadCheck::ReadPathOnly,
            missing_key: MissingKey::Reject400,
        },
        vec![
            from(3, true, false, retrying(5)),
            from(1, false, true, req(Some("x"), 7, "y", Fault::None)),
        ],
    );
    let json = s.to_json();
    assert!(json.ends_with(r#""requests":{"scope":"global","fingerprint":"description-only","payload_check":"read-path-only","missing_key":"reject-400"}}"#), "{json}");
    assert!(json.contains(r#"{"type":"as","account":3,"stamps_body":true,"sends_key":false,"input":{"type":"operation""#));
    assert_eq!(Scenario::from_json(&json), Ok(s.clone()));
    // Only what differs from the default is written.
    let mut one = s.clone();
    one.requests = policies(|p| p.scope = KeyScope::Global);
    assert!(one.to_json().ends_with(r#""requests":{"scope":"global"}}"#));
    // Limits, with a message each.
    let too_high = json.replace(
        r#""account":3"#,
        &format!(r#""account":{}"#, MAX_ACCOUNT + 1),
    );
    assert_eq!(
        Scenario::from_json(&too_high),
        Err(InputError::AccountOutOfRange {
            account: MAX_ACCOUNT + 1,
            max: MAX_ACCOUNT
        })
    );
    let deposit = json.replace(
        r#"{"type":"as","account":1,"input":{"type":"request","key":"x","key_format":"v4","amount":7,"description":"y","fault":"none"}}"#,
        r#"{"type":"as","account":1,"input":{"type":"deposit","amount":7}}"#,
    );
    assert_ne!(deposit, json);
    assert_eq!(
        Scenario::from_json(&deposit),
        Err(InputError::CallerWrapsOnlyRequests)
    );
    for bad in [
        json.replace(r#""scope":"global""#, r#""scope":"galaxy""#),
        json.replace(r#""account":3"#, r#""account":-1"#),
        json.replace(r#""missing_key":"reject-400""#, r#""nope":1"#),
    ] {
        assert!(
            matches!(
                Scenario::from_json(&bad),
                Err(InputError::JsonInvalid { .. })
            ),
            "{bad}"
        );
    }
}

#[test]
fn the_lessons_answer_from_their_runs_and_the_challenge_is_won_by_another_customer() {
    let answer_of = |id: &str, requests: Option<RequestPolicies>| {
        let mut s = builtin(id).unwrap();
        if let Some(r) = requests {
            s.requests = r;
        }
        let session = Session::new(s).unwrap();
        question(id)
            .unwrap()
            .pose(&session)
            .unwrap()
            .answer_value()
            .value
    };
    // The production service keeps each key under its account: both customers are charged.
    assert_eq!(answer_of("key-scope", None), Value::Int(2));
    // The honest retry is refused, yet its first try charged: the balance shows the charge the
    // client was told nothing of.
    assert_eq!(answer_of("fingerprint-fields", None), Value::Int(900));
    // The stamped time is a mismatch under the whole-body fingerprint; with the fields that
    // define the request (the default) the same retry is replayed.
    let mismatches = |requests: RequestPolicies| {
        let mut s = builtin("fingerprint-fields").unwrap();
        s.requests = requests;
        let session = Session::new(s).unwrap();
        Measure::Mismatches.of(session.finished(1).unwrap())
    };
    let whole = builtin("fingerprint-fields").unwrap().requests;
    assert_eq!(mismatches(whole), Value::Int(1));
    assert_eq!(mismatches(RequestPolicies::default()), Value::Int(0));
    let c = challenge("another-receipt").unwrap();
    let mut won = Session::new(c.solved()).unwrap();
    won.seek(won.total());
    assert!(c.won(&won));
    // The same move on a scoped service wins nothing.
    let mut scoped = c.solved();
    scoped.requests = RequestPolicies::default();
    let mut s = Session::new(scoped).unwrap();
    s.seek(s.total());
    assert!(!c.won(&s));
    // Another amount is a mismatch, not a receipt.
    let mut other = c.start.clone();
    other.inputs.push(from(
        2,
        false,
        true,
        req(Some("order-1"), 99, "order", Fault::None),
    ));
    let mut s = Session::new(other).unwrap();
    s.seek(s.total());
    assert!(!c.won(&s));
}

// ---- properties ----------------------------------------------------------------------------

/// A request from one of the accounts with a key from a small pool, so keys collide across
/// accounts, and one of two amounts, so some collide with other parameters.
fn caller_request() -> impl Strategy<Value = Input> {
    (
        0u32..=2,
        0u8..2,
        prop::sample::select(vec![100i64, 200]),
        any::<bool>(),
    )
        .prop_map(|(account, k, amount, lost)| {
            let fault = if lost {
                Fault::ResponseLost
            } else {
                Fault::None
            };
            let key = format!("order-{k}");
            from(account, false, true, req(Some(&key), amount, &key, fault))
        })
}

fn cases() -> impl Strategy<Value = Vec<Input>> {
    prop::collection::vec(caller_request(), 2..6)
}

fn flagged(
    services: ServiceKind,
    requests: RequestPolicies,
    inputs: &[Input],
    inv: Invariant,
) -> bool {
    let w = &run(&[services], requests, inputs.to_vec())[0];
    !holds(w, inv)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: if cfg!(target_arch = "wasm32") {
            24
        } else {
            200
        },
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Scoped by (account, key), no client ever receives another account's answer, on any mix of
    /// accounts, keys, amounts and lost replies.
    #[test]
    fn scoped_keys_never_answer_another_account(inputs in cases()) {
        prop_assert!(!flagged(Production, RequestPolicies::default(), &inputs, Invariant::OwnAccountAnswers));
    }

    /// Checked on every path over the chosen fields, a replay always answers its own request.
    #[test]
    fn a_checked_fingerprint_never_replays_another_request(inputs in cases()) {
        for in_flight in [true, false] {
            let mut s = scenario(&[Production], RequestPolicies::default(), inputs.clone());
            s.policies.in_flight = in_flight;
            let w = &s.run().unwrap()[0];
            prop_assert!(holds(w, Invariant::ReplayMatchesRequest));
        }
    }
}

/// The same random cases under the unsafe policies: each invariant flags some of them.
#[test]
fn the_unsafe_policies_are_flagged_on_random_cases() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = cases();
    let n = 64;
    let (mut global, mut few, mut read_only) = (0, 0, 0);
    for _ in 0..n {
        let inputs = strategy.new_tree(&mut runner).unwrap().current();
        let p = |f: fn(&mut RequestPolicies)| policies(f);
        global += flagged(
            Production,
            p(|p| p.scope = KeyScope::Global),
            &inputs,
            Invariant::OwnAccountAnswers,
        ) as u32;
        few += flagged(
            Production,
            p(|p| p.fingerprint = FingerprintFields::DescriptionOnly),
            &inputs,
            Invariant::ReplayMatchesRequest,
        ) as u32;
        read_only += flagged(
            Production,
            p(|p| p.payload_check = PayloadCheck::ReadPathOnly),
            &inputs,
            Invariant::ReplayMatchesRequest,
        ) as u32;
    }
    assert!(
        global > 0 && few > 0 && read_only > 0,
        "{global} {few} {read_only} of {n}"
    );
    // And the article's unscoped service too.
    let two = [
        from(
            1,
            false,
            true,
            req(Some("order-0"), 100, "order-0", Fault::None),
        ),
        from(
            2,
            false,
            true,
            req(Some("order-0"), 100, "order-0", Fault::None),
        ),
    ];
    assert!(flagged(
        Atomic,
        RequestPolicies::default(),
        &two,
        Invariant::OwnAccountAnswers
    ));
}

/// Found by a walk-through: two customers who each send `order-1` once are two operations,
/// under every service; the naive service charging each once broke "one charge per key". The
/// ledger carries the key as the operation's, (account, key), whatever the store looks up.
#[test]
fn two_customers_with_the_same_key_are_two_operations_under_every_service() {
    let inputs = vec![
        from(1, false, true, req(Some("order-1"), 100, "", Fault::None)),
        from(2, false, true, req(Some("order-1"), 100, "", Fault::None)),
    ];
    let worlds = run(
        &[Naive, Atomic, Production],
        RequestPolicies::default(),
        inputs.clone(),
    );
    // The article's atomic service keys globally: customer 2 reads customer 1's receipt.
    assert_eq!(worlds[1].ledger().len(), 1);
    assert!(!holds(&worlds[1], Invariant::OwnAccountAnswers));
    assert!(holds(&worlds[1], Invariant::OneChargePerKey));
    for w in [&worlds[0], &worlds[2]] {
        assert_eq!(w.ledger().len(), 2, "{:?}", w.config().service);
        assert!(
            w.violations().is_empty(),
            "{:?}: {:?}",
            w.config().service,
            w.violations()
        );
    }
    // Under one global scope the production service hands customer 2 customer 1's receipt:
    // one charge, and that is what is flagged, not a second charge of one key.
    let global = RequestPolicies {
        scope: KeyScope::Global,
        ..RequestPolicies::default()
    };
    let w = &run(&[Production], global, inputs)[0];
    assert_eq!(w.ledger().len(), 1);
    assert!(!holds(w, Invariant::OwnAccountAnswers));
    assert!(holds(w, Invariant::OneChargePerKey));
}

/// Found by a walk-through: each customer's charge comes out of that customer's own account.
/// Customer 2's receipt said "balance 800", customer 1's charge included. Every account starts
/// at the initial balance; money is conserved account by account; account 0, the article's
/// single account (and the one deposits go to), is untouched by the others.
#[test]
fn each_customer_is_charged_from_an_account_of_their_own() {
    let inputs = vec![
        from(1, false, true, req(Some("order-1"), 100, "", Fault::None)),
        from(2, false, true, req(Some("order-1"), 300, "", Fault::None)),
        Input::Deposit { amount: 50 },
        from(3, false, true, req(Some("big"), 1001, "", Fault::None)),
    ];
    let worlds = run(&[Naive, Production], RequestPolicies::default(), inputs);
    for w in &worlds {
        let kind = w.config().service;
        assert_eq!(w.balance_of(1), 900, "{kind:?}");
        assert_eq!(w.balance_of(2), 700, "{kind:?}");
        assert_eq!(w.balance_of(3), 1000, "{kind:?}");
        assert_eq!(
            w.balance(),
            1050,
            "{kind:?}: account 0 has the deposit and none of the charges"
        );
        assert_eq!(w.accounts_seen(), 0b1111, "{kind:?}");
        assert_eq!(
            answer(w, 0),
            PaymentResult::Success { balance: 900 },
            "{kind:?}"
        );
        assert_eq!(
            answer(w, 1),
            PaymentResult::Success { balance: 700 },
            "{kind:?}"
        );
        // 1001 is more than account 3 holds, whatever the others hold in all.
        assert_eq!(
            answer(w, 2),
            PaymentResult::InsufficientFunds { balance: 1000 },
            "{kind:?}"
        );
        let accounts: Vec<u32> = w.ledger().iter().map(|e| e.account).collect();
        assert_eq!(accounts, [1, 2], "{kind:?}");
        assert!(w.violations().is_empty(), "{kind:?}: {:?}", w.violations());
    }
    // The script's customers show from the start, before any of them has sent anything.
    let s = scenario(
        &[Production],
        RequestPolicies::default(),
        vec![
            from(1, false, true, req(Some("a"), 100, "", Fault::None)),
            from(2, false, true, req(Some("a"), 100, "", Fault::None)),
        ],
    );
    let worlds = s.worlds().expect("builds");
    assert_eq!(worlds[0].accounts_seen(), 0b110);
    // A run without callers of its own sees account 0 only.
    let w = &run(
        &[Naive],
        RequestPolicies::default(),
        vec![req(Some("a"), 100, "", Fault::None)],
    )[0];
    assert_eq!((w.balance(), w.accounts_seen()), (900, 1));
}
