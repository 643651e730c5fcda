//! Properties over random sequences of charges, retries, faults, crashes, deposits, relay ticks
//! and time, pushed at random moments so requests overlap:
//! - every key-honouring service (idempotent, atomic, production): no invariant ever breaks;
//! - every service: money is conserved and a deduplicating consumer applies each event once;
//! - rewinding to any step by replay gives exactly the forward run's state;
//! - no input, config or JSON panics: each is accepted or refused with an `InputError`.

use idempotency_playground::*;

// In the browser (wasm-pack test) the same tests run under wasm-bindgen-test.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
use proptest::prelude::*;

fn fault() -> impl Strategy<Value = Fault> {
    prop::sample::select(Fault::ALL.to_vec())
}

/// A small pool so keys collide (retries, concurrent duplicates, mismatches).
fn key() -> impl Strategy<Value = Option<String>> {
    prop_oneof![Just(None), (0u8..3).prop_map(|i| Some(format!("key-{i}")))]
}

fn description() -> impl Strategy<Value = String> {
    prop::sample::select(vec![String::new(), "order".to_string()])
}

fn retry() -> impl Strategy<Value = RetryPolicy> {
    prop_oneof![
        Just(RetryPolicy::None),
        Just(RetryPolicy::Immediate),
        (0u64..3_000).prop_map(|delay_ms| RetryPolicy::Fixed { delay_ms }),
        (1u64..500, 500u64..60_000)
            .prop_map(|(base_ms, cap_ms)| RetryPolicy::ExponentialJitter { base_ms, cap_ms }),
    ]
}

fn request_spec() -> impl Strategy<Value = RequestSpec> {
    (key(), 1i64..400, description(), fault()).prop_map(|(key, amount, description, fault)| {
        RequestSpec {
            key,
            key_format: KeyFormat::V4,
            amount,
            description,
            fault,
        }
    })
}

/// Inputs a correct client sends: keys reused on retry. Time advances stay short enough (at most
/// 12 of at most 1 h) that no key reaches the 24 h retention.
fn honest_input() -> impl Strategy<Value = Input> {
    prop_oneof![
        3 => request_spec().prop_map(|r| Input::Request {
            key: r.key,
            key_format: KeyFormat::V7,
            amount: r.amount,
            description: r.description,
            fault: r.fault,
        }),
        3 => (1i64..400, description(), retry(), 1u32..=6, prop::collection::vec(fault(), 0..6))
            .prop_map(|(amount, description, retry, max_attempts, mut faults)| {
                faults.truncate(max_attempts as usize);
                Input::Operation {
                    amount,
                    description,
                    key_format: KeyFormat::V4,
                    key_strategy: KeyStrategy::Reuse,
                    retry,
                    max_attempts,
                    faults,
                }
            }),
        1 => (prop::collection::vec(request_spec(), 2..=4), any::<bool>())
            .prop_map(|(requests, same_key)| Input::Parallel { requests, same_key }),
        1 => (1i64..400).prop_map(|amount| Input::Deposit { amount }),
        1 => any::<bool>().prop_map(|crash_after_publish| Input::RelayTick { crash_after_publish }),
        1 => (1u64..3_600_000).prop_map(|ms| Input::AdvanceTime { ms }),
    ]
}

/// Anything a client might do, bugs included (new key per retry).
fn any_client_input() -> impl Strategy<Value = Input> {
    prop_oneof![
        4 => honest_input(),
        1 => (any::<bool>(), fault()).prop_map(|(new_key, fault)| Input::Retry { new_key, fault }),
        1 => (1i64..400, retry(), 1u32..=4, prop::collection::vec(fault(), 0..4)).prop_map(
            |(amount, retry, max_attempts, mut faults)| {
                faults.truncate(max_attempts as usize);
                Input::Operation {
                    amount,
                    description: String::new(),
                    key_format: KeyFormat::V4,
                    key_strategy: KeyStrategy::NewPerRetry,
                    retry,
                    max_attempts,
                    faults,
                }
            }
        ),
    ]
}

fn policies() -> impl Strategy<Value = Policies> {
    (
        prop::sample::select(vec![
            FailureCaching::CacheAll,
            FailureCaching::SuccessOnly,
            FailureCaching::AllButTransient,
        ]),
        prop::sample::select(vec![
            MismatchStatus::Stripe400,
            MismatchStatus::Ietf422,
            MismatchStatus::RocketRides409,
        ]),
        any::<bool>(),
        1_000u64..200_000,
    )
        .prop_map(
            |(failure_caching, mismatch, in_flight, in_flight_timeout_ms)| Policies {
                failure_caching,
                mismatch,
                in_flight,
                in_flight_timeout_ms,
                ..Policies::default()
            },
        )
}

/// A world's settings: latency, jitter and timeout drawn so replies are sometimes late.
fn config(
    service: impl Strategy<Value = ServiceKind>,
    emit: impl Strategy<Value = EmitMode>,
) -> impl Strategy<Value = WorldConfig> {
    (
        any::<u64>(),
        0i64..2_000,
        service,
        emit,
        policies(),
        0u64..200,
        0u64..100,
        50u64..2_000,
    )
        .prop_map(
            |(
                seed,
                initial_balance,
                service,
                emit,
                policies,
                latency_ms,
                jitter_ms,
                timeout_ms,
            )| {
                WorldConfig {
                    seed,
                    initial_balance,
                    service,
                    emit,
                    consumer_dedupes: true,
                    policies,
                    latency_ms,
                    jitter_ms,
                    timeout_ms,
                    ..WorldConfig::default()
                }
            },
        )
}

/// Pushes each input, then takes the given number of steps (so later inputs overlap earlier
/// ones), then runs to the end. Returns the final world and a clone taken after step `k`.
fn run(cfg: WorldConfig, inputs: &[(Input, u8)], k: usize) -> (World, Option<World>) {
    let mut w = World::new(cfg).expect("valid config");
    let mut at_k = (k == 0).then(|| w.clone());
    let take = |w: &mut World, at_k: &mut Option<World>| {
        let stepped = w.step().is_some();
        if stepped && w.steps_taken() == k {
            *at_k = Some(w.clone());
        }
        stepped
    };
    for (input, steps) in inputs {
        w.push_input(input.clone()).expect("valid input");
        for _ in 0..*steps {
            if !take(&mut w, &mut at_k) {
                break;
            }
        }
    }
    while take(&mut w, &mut at_k) {}
    (w, at_k)
}

fn inputs(input: impl Strategy<Value = Input>) -> impl Strategy<Value = Vec<(Input, u8)>> {
    prop::collection::vec((input, 0u8..6), 1..12)
}

fn check_safe(cfg: WorldConfig, inputs: &[(Input, u8)], k: usize) -> Result<(), TestCaseError> {
    let (w, at_k) = run(cfg, inputs, k);
    prop_assert!(w.halted().is_none());
    // The article's services look a key up by the key alone and replay what it stored to any
    // request that carries it (the article's own code): a replay of another request's answer
    // is theirs by design, and the run shows it as broken (the lessons on reused keys). Only the
    // production service, which fingerprints the request, claims it.
    let claimed = |v: &&Violation| {
        cfg.service == ServiceKind::Production || v.invariant != Invariant::ReplayMatchesRequest
    };
    let broken: Vec<&Violation> = w.violations().iter().filter(claimed).collect();
    prop_assert_eq!(broken, Vec::<&Violation>::new());
    // The same properties, checked directly on the final state rather than by the checker.
    let deposits: i64 = w
        .trace()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Deposit {
                amount,
                accepted: true,
            } => Some(amount),
            _ => None,
        })
        .sum();
    let charged: i64 = w.ledger().iter().map(|l| l.amount).sum();
    prop_assert_eq!(cfg.initial_balance + deposits, w.balance() + charged);
    let mut keys: Vec<_> = w.ledger().iter().map(|l| l.key).collect();
    keys.sort();
    let before = keys.len();
    keys.dedup();
    prop_assert_eq!(before, keys.len(), "a key was charged twice");
    for e in w.trace() {
        if let EventKind::ResponseDelivered {
            op,
            result: PaymentResult::DuplicateRequest { original_result },
            ..
        } = &e.kind
        {
            // A replay never claims a success the ledger does not hold for that operation's key.
            if let PaymentResult::Success { .. } = **original_result {
                let key = w.client_results()[op.0 as usize].key;
                prop_assert!(w.ledger().iter().any(|l| l.key == Some(key)));
            }
        }
    }
    // Rewind = replay, exactly.
    let rewound = w.rewind(k).expect("replays");
    let expected = at_k.unwrap_or_else(|| w.clone());
    prop_assert_eq!(rewound.snapshot(), expected.snapshot());
    prop_assert!(rewound == expected);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn idempotent_service_keeps_every_invariant(
        cfg in config(Just(ServiceKind::Idempotent), prop::sample::select(vec![EmitMode::None, EmitMode::Outbox])),
        inputs in inputs(honest_input()),
        k in 0usize..120,
    ) {
        check_safe(cfg, &inputs, k)?;
    }

    #[test]
    fn atomic_service_keeps_every_invariant(
        cfg in config(Just(ServiceKind::Atomic), prop::sample::select(vec![EmitMode::None, EmitMode::Outbox])),
        inputs in inputs(honest_input()),
        k in 0usize..120,
    ) {
        check_safe(cfg, &inputs, k)?;
    }

    #[test]
    fn production_service_keeps_every_invariant(
        cfg in config(Just(ServiceKind::Production), prop::sample::select(vec![EmitMode::None, EmitMode::Outbox])),
        inputs in inputs(honest_input()),
        k in 0usize..120,
    ) {
        check_safe(cfg, &inputs, k)?;
    }

    #[test]
    fn every_service_conserves_money_and_a_deduplicating_consumer_applies_once(
        cfg in config(prop::sample::select(ServiceKind::ALL.to_vec()), prop::sample::select(vec![
            EmitMode::None,
            EmitMode::Outbox,
            EmitMode::DualWriteCommitThenPublish,
            EmitMode::DualWritePublishThenCommit,
        ])),
        inputs in inputs(any_client_input()),
        k in 0usize..120,
    ) {
        let (w, at_k) = run(cfg, &inputs, k);
        // The cost bound counted when each input was added holds for the run it made.
        prop_assert!(w.trace().len() as u64 <= w.event_bound(), "{} events, bound {}", w.trace().len(), w.event_bound());
        prop_assert!(w.halted().is_none());
        let broken: Vec<Invariant> = w.violations().iter().map(|v| v.invariant).collect();
        prop_assert!(!broken.contains(&Invariant::MoneyConserved));
        prop_assert!(!broken.contains(&Invariant::ConsumerAtMostOnce));
        if cfg.emit == EmitMode::Outbox {
            prop_assert!(!broken.contains(&Invariant::OneEventPerCharge));
        }
        let c = w.consumer();
        prop_assert_eq!(c.applied, c.inbox.len() as u64);
        let rewound = w.rewind(k).expect("replays");
        prop_assert!(rewound == at_k.unwrap_or_else(|| w.clone()));
    }
}

/// The safe-service property is not vacuous: over the same inputs it finds a counterexample
/// for each service that can double-charge.
#[test]
fn the_safe_service_property_catches_the_unsafe_services() {
    use proptest::test_runner::{Config, TestRunner};
    for service in [
        ServiceKind::Naive,
        ServiceKind::TocTou,
        ServiceKind::SplitStore,
    ] {
        let mut runner = TestRunner::new(Config {
            cases: 1000,
            failure_persistence: None,
            ..Config::default()
        });
        let strategy = (
            config(Just(service), Just(EmitMode::None)),
            inputs(honest_input()),
            0usize..120,
        );
        let outcome = runner.run(&strategy, |(cfg, inputs, k)| check_safe(cfg, &inputs, k));
        assert!(
            outcome.is_err(),
            "{service:?} passed the safe-service property"
        );
    }
}

// ---- no input panics --------------------------------------------------------------------

fn garbage_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        ".{0,20}",
        (250usize..300).prop_map(|n| "k".repeat(n)),
        (60usize..300).prop_map(|n| "鍵".repeat(n)),
    ]
}

fn garbage_fault() -> impl Strategy<Value = Fault> {
    fault()
}

fn garbage_input() -> impl Strategy<Value = Input> {
    let amount = prop_oneof![any::<i64>(), -5i64..5, 99_999_990i64..100_000_010];
    prop_oneof![
        (
            prop::option::of(garbage_text()),
            amount.clone(),
            garbage_text(),
            garbage_fault()
        )
            .prop_map(|(key, amount, description, fault)| Input::Request {
                key,
                key_format: KeyFormat::V7,
                amount,
                description,
                fault,
            }),
        (
            amount.clone(),
            any::<u64>(),
            any::<u64>(),
            any::<u32>(),
            prop::collection::vec(garbage_fault(), 0..25),
            any::<bool>(),
        )
            .prop_map(
                |(amount, a, b, max_attempts, faults, new_key)| Input::Operation {
                    amount,
                    description: String::new(),
                    key_format: KeyFormat::V4,
                    key_strategy: if new_key {
                        KeyStrategy::NewPerRetry
                    } else {
                        KeyStrategy::Reuse
                    },
                    retry: if a % 2 == 0 {
                        RetryPolicy::Fixed { delay_ms: b }
                    } else {
                        RetryPolicy::ExponentialJitter {
                            base_ms: a,
                            cap_ms: b,
                        }
                    },
                    max_attempts: max_attempts % 25,
                    faults,
                }
            ),
        (
            prop::collection::vec((prop::option::of(garbage_text()), amount.clone()), 0..13),
            any::<bool>()
        )
            .prop_map(|(reqs, same_key)| Input::Parallel {
                requests: reqs
                    .into_iter()
                    .map(|(key, amount)| RequestSpec {
                        key,
                        key_format: KeyFormat::V4,
                        amount,
                        description: String::new(),
                        fault: Fault::None,
                    })
                    .collect(),
                same_key,
            }),
        any::<u64>().prop_map(|ms| Input::AdvanceTime { ms }),
        amount.prop_map(|amount| Input::Deposit { amount }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn no_input_panics(
        cfg in (any::<u64>(), any::<i64>(), any::<u64>(), any::<u64>(), any::<u64>(), any::<u64>(), any::<u64>()),
        service in prop::sample::select(ServiceKind::ALL.to_vec()),
        inputs in prop::collection::vec(garbage_input(), 0..8),
    ) {
        let (seed, initial_balance, latency_ms, jitter_ms, timeout_ms, retention_ms, in_flight_timeout_ms) = cfg;
        let cfg = WorldConfig {
            seed,
            initial_balance: initial_balance.rem_euclid(limits::MAX_BALANCE + 2) - 1,
            service,
            latency_ms: latency_ms % 70_000,
            jitter_ms: jitter_ms % 70_000,
            timeout_ms: timeout_ms % 700_000,
            policies: Policies {
                retention_ms: retention_ms % (limits::MAX_RETENTION_MS + 10),
                in_flight_timeout_ms: in_flight_timeout_ms % (limits::MAX_IN_FLIGHT_TIMEOUT_MS + 10),
                ..Policies::default()
            },
            ..WorldConfig::default()
        };
        let Ok(mut w) = World::new(cfg) else {
            // Refused with a typed error: that is the contract.
            return Ok(());
        };
        for input in inputs {
            let valid = input.validate();
            let pushed = w.push_input(input);
            prop_assert_eq!(valid.is_ok(), pushed.is_ok());
            for _ in 0..3 {
                w.step();
            }
        }
        // Bounded: every operation ends after at most MAX_ATTEMPTS attempts.
        w.run_until_idle();
        prop_assert!(w.is_idle() || w.halted().is_some());
        let broken: Vec<Invariant> = w.violations().iter().map(|v| v.invariant).collect();
        prop_assert!(!broken.contains(&Invariant::MoneyConserved));
    }

    #[test]
    fn arbitrary_json_is_parsed_or_refused(json in ".{0,300}") {
        // Either a scenario or a typed error; never a panic.
        let _ = Scenario::from_json(&json);
    }

    #[test]
    fn mutated_builtin_json_is_parsed_or_refused(
        index in 0usize..builtin_ids().len(),
        cut in any::<prop::sample::Index>(),
        pos in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let json = builtin(builtin_ids()[index]).expect("built-in").to_json();
        let mut bytes = json.into_bytes();
        let p = pos.index(bytes.len());
        bytes[p] = byte;
        bytes.truncate(cut.index(bytes.len() + 1).max(p));
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(s) = Scenario::from_json(&text) {
            // Whatever parses also runs (or is refused) without panicking.
            let _ = s.run();
        }
    }

    #[test]
    fn production_service_direct_charges_once_per_key(
        policies in policies(),
        calls in prop::collection::vec((0u8..4, 1i64..300, 0u64..100_000, any::<bool>()), 1..30),
    ) {
        let mut svc = ProductionService::new(5_000, policies).expect("valid");
        let mut now = 0u64;
        let mut charged: std::collections::BTreeMap<u8, i64> = Default::default();
        for (key, amount, dt, ok) in calls {
            now += dt;
            let k = format!("key-{key}");
            // Phase one, then (maybe) a crash: dropping the ticket.
            let r = match svc.begin(&k, amount, "", now) {
                Ok(ticket) if ok => svc.complete(ticket, true, now + 1),
                Ok(_) => continue,
                Err(answer) => answer,
            };
            if let PaymentResult::Success { .. } = r {
                let prior = charged.insert(key, amount);
                // A key charges again only once its record expired (retention or crash timeout).
                if prior.is_some() {
                    prop_assert!(svc.counters().expirations > 0);
                }
            }
        }
        let total: i64 = charged.values().sum();
        prop_assert!(svc.balance() <= 5_000);
        prop_assert!(svc.operation_count() >= charged.len());
        prop_assert!(total <= 5_000 - svc.balance());
    }
}
