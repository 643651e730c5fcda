//! The world's contract: determinism, rewind by replay, concurrency of pushed inputs, the trace's
//! shape, keys, limits and halting.

use idempotency_playground::*;

// In the browser (wasm-pack test) the same tests run under wasm-bindgen-test.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn config(service: ServiceKind) -> WorldConfig {
    WorldConfig {
        service,
        ..WorldConfig::default()
    }
}

fn request(key: Option<&str>, amount: i64, fault: Fault) -> Input {
    Input::Request {
        key: key.map(str::to_string),
        key_format: KeyFormat::V4,
        amount,
        description: String::new(),
        fault,
    }
}

fn retrying(faults: Vec<Fault>, retry: RetryPolicy, key_format: KeyFormat) -> Input {
    Input::Operation {
        amount: 100,
        description: "order".to_string(),
        key_format,
        key_strategy: KeyStrategy::Reuse,
        retry,
        max_attempts: 5,
        faults,
    }
}

/// A forward run's world after every step (index k = after step k).
fn forward(mut w: World) -> Vec<World> {
    let mut states = vec![w.clone()];
    while w.step().is_some() {
        states.push(w.clone());
    }
    states
}

#[test]
fn same_seed_and_inputs_give_the_identical_trace() {
    let script = vec![
        retrying(
            vec![Fault::RequestLost, Fault::ResponseLost],
            RetryPolicy::ExponentialJitter {
                base_ms: 100,
                cap_ms: 5000,
            },
            KeyFormat::V7,
        ),
        request(None, 50, Fault::None),
    ];
    let cfg = WorldConfig {
        jitter_ms: 40,
        seed: 99,
        ..config(ServiceKind::Production)
    };
    let run = |cfg: WorldConfig| {
        let mut w = World::with_script(cfg, script.clone()).expect("valid");
        w.run_until_idle();
        w
    };
    let a = run(cfg);
    let b = run(cfg);
    assert_eq!(a.trace(), b.trace());
    assert_eq!(a, b);
    assert!(a.trace().len() > 10);
    // Another seed: other keys, other jitter, other backoff.
    let c = run(WorldConfig { seed: 100, ..cfg });
    assert_ne!(a.trace(), c.trace());
    assert_eq!(a.balance(), c.balance());
}

#[test]
fn rewind_by_replay_equals_the_forward_run_at_every_step() {
    for id in builtin_ids() {
        let scenario = builtin(id).expect("built-in");
        for w in scenario.worlds().expect("worlds") {
            let states = forward(w);
            let last = states.last().expect("at least the start");
            for (k, state) in states.iter().enumerate() {
                let rewound = last.rewind(k).expect("replays");
                assert_eq!(rewound.steps_taken(), k, "{id}");
                assert_eq!(rewound.snapshot(), state.snapshot(), "{id} step {k}");
                assert_eq!(&rewound, state, "{id} step {k}");
            }
            // Past the end: the final state.
            assert_eq!(&last.rewind(usize::MAX).expect("replays"), last);
        }
    }
}

#[test]
fn clones_share_history_but_never_see_later_writes() {
    // Long enough to span many chunks of every table; expiry, key release and relay marks write
    // to old rows after the copies were taken.
    let mut script = Vec::new();
    for i in 0..600 {
        let fault = if i % 10 == 3 {
            Fault::ProcessorError
        } else {
            Fault::None
        };
        script.push(request(Some(&format!("k{}", i % 300)), 1, fault));
        if i % 100 == 99 {
            script.push(Input::AdvanceTime { ms: 90_000_000 });
            script.push(Input::RelayTick {
                crash_after_publish: i == 199,
            });
        }
    }
    let mut cfg = WorldConfig {
        emit: EmitMode::Outbox,
        initial_balance: 1_000_000,
        ..config(ServiceKind::Production)
    };
    cfg.policies.failure_caching = FailureCaching::SuccessOnly;
    let mut w = World::with_script(cfg, script).expect("valid");
    let mut copies = Vec::new();
    while w.step().is_some() {
        if w.steps_taken().is_multiple_of(11) {
            copies.push(w.clone());
        }
    }
    for kind in ["StoreRelease", "KeyExpired", "RelayMark"] {
        let seen = w
            .trace()
            .iter()
            .any(|e| format!("{:?}", e.kind).starts_with(kind));
        assert!(seen, "the run exercises {kind}");
    }
    assert!(w.store_rows().len() > 200 && w.trace().len() > 1000);
    for copy in &copies {
        let k = copy.steps_taken();
        let rewound = w.rewind(k).expect("replays");
        assert_eq!(copy.snapshot(), rewound.snapshot(), "step {k}");
        assert_eq!(copy, &rewound, "step {k}");
    }
    assert_eq!(&w.rewind(usize::MAX).expect("replays"), &w);
}

#[test]
fn pushed_inputs_run_concurrently_and_rewind_exactly() {
    let mut w = World::new(config(ServiceKind::TocTou)).expect("valid");
    let mut states = vec![w.clone()];
    w.push_input(request(Some("k"), 100, Fault::None))
        .expect("valid");
    // Let the first request reach the server and pass its check.
    for _ in 0..2 {
        w.step().expect("a step");
        states.push(w.clone());
    }
    w.push_input(request(Some("k"), 100, Fault::None))
        .expect("valid");
    for _ in 0..2 {
        w.step().expect("a step");
        states.push(w.clone());
    }
    w.push_input(Input::AdvanceTime { ms: 10 }).expect("valid");
    while w.step().is_some() {
        states.push(w.clone());
    }
    // The second request left after the first passed its check, but arrives after the first
    // stored its key: one charge.
    assert_eq!(w.ledger().len(), 1);
    assert_eq!(w.input_log().len(), 3);
    assert_eq!(w.input_log()[1].at_step, 2);
    for (k, state) in states.iter().enumerate() {
        let rewound = w.rewind(k).expect("replays");
        assert_eq!(rewound.snapshot(), state.snapshot(), "step {k}");
    }
    // Rewinding drops later pushes: the learner branches from there.
    let branch = w.rewind(1).expect("replays");
    assert_eq!(branch.input_log().len(), 1);
}

#[test]
fn two_pushed_requests_with_one_key_overlap_in_the_toctou_gap() {
    let mut w = World::new(config(ServiceKind::TocTou)).expect("valid");
    w.push_input(request(Some("k"), 100, Fault::None))
        .expect("valid");
    w.push_input(request(Some("k"), 100, Fault::None))
        .expect("valid");
    w.run_until_idle();
    assert_eq!(w.balance(), 800);
    assert_eq!(w.violations()[0].invariant, Invariant::OneChargePerKey);
    // The step that broke it is the second charge's.
    let step = w.violations()[0].step;
    assert!(w.trace().iter().any(|e| e.step == step
        && matches!(
            e.kind,
            EventKind::Charge {
                balance_after: 800,
                ..
            }
        )));

    let mut atomic = World::new(config(ServiceKind::Atomic)).expect("valid");
    atomic
        .push_input(request(Some("k"), 100, Fault::None))
        .expect("valid");
    atomic
        .push_input(request(Some("k"), 100, Fault::None))
        .expect("valid");
    atomic.run_until_idle();
    assert_eq!(atomic.balance(), 900);
    assert!(atomic.violations().is_empty());
}

#[test]
fn step_returns_the_first_event_of_each_step() {
    let mut w = World::with_script(
        config(ServiceKind::Atomic),
        vec![request(Some("k"), 100, Fault::None)],
    )
    .expect("valid");
    let first = w.step().cloned().expect("a step");
    assert!(matches!(first.kind, EventKind::ClientSend { .. }));
    assert_eq!(first.step, 1);
    let second = w.step().cloned().expect("a step");
    assert!(matches!(second.kind, EventKind::RequestDelivered { .. }));
    let kinds: Vec<_> = w.last_step_events().map(|e| &e.kind).collect();
    assert!(matches!(
        kinds[1],
        EventKind::StoreCheck {
            outcome: CheckOutcome::Miss,
            ..
        }
    ));
    assert!(matches!(kinds.last(), Some(EventKind::ResponseSent { .. })));
    assert!(w.last_step_events().all(|e| e.step == 2));
    w.run_until_idle();
    assert!(w.step().is_none());
    assert!(w.is_idle());
}

#[test]
fn trace_lanes_and_lost_arrows() {
    let mut w = World::with_script(
        config(ServiceKind::Atomic),
        vec![retrying(
            vec![Fault::RequestLost, Fault::ResponseLost],
            RetryPolicy::Immediate,
            KeyFormat::V4,
        )],
    )
    .expect("valid");
    w.run_until_idle();
    let lost: Vec<_> = w.trace().iter().filter(|e| e.is_lost()).collect();
    assert_eq!(lost.len(), 2);
    assert_eq!(lost[0].lanes(), (Lane::Network, Some(Lane::Server)));
    assert_eq!(lost[1].lanes(), (Lane::Network, Some(Lane::Client)));
    for e in w.trace() {
        let (from, to) = e.lanes();
        assert_ne!(Some(from), to, "{:?}", e.kind);
    }
    // The lanes in use are exactly those of the events: no outbox, so no relay or consumer.
    let used: Vec<Lane> = Lane::ALL
        .into_iter()
        .filter(|l| w.lanes_used().contains(*l))
        .collect();
    assert_eq!(
        used,
        [Lane::Client, Lane::Network, Lane::Server, Lane::Store]
    );
    let mut with_relay = w.clone();
    with_relay
        .push_input(Input::RelayTick {
            crash_after_publish: false,
        })
        .expect("valid");
    with_relay.run_until_idle();
    assert!(with_relay.lanes_used().contains(Lane::Relay));
    assert!(!with_relay.lanes_used().contains(Lane::Consumer));
    // Times never go backwards and steps are numbered 1, 2, 3, ...
    for pair in w.trace().to_vec().windows(2) {
        assert!(pair[0].time_ms <= pair[1].time_ms);
        assert!(pair[1].step == pair[0].step || pair[1].step == pair[0].step + 1);
    }
}

#[test]
fn minted_keys_are_uuids_of_the_chosen_version() {
    for (format, version) in [(KeyFormat::V4, 4), (KeyFormat::V7, 7)] {
        let mut w = World::with_script(
            config(ServiceKind::Atomic),
            vec![
                Input::AdvanceTime { ms: 5_000 },
                retrying(vec![], RetryPolicy::None, format),
            ],
        )
        .expect("valid");
        w.run_until_idle();
        let key = w.client_results()[0].key;
        let text = w.key_text(key).expect("interned");
        let uuid = uuid::Uuid::parse_str(&text).expect("a UUID");
        assert_eq!(uuid.get_version_num(), version);
        if format == KeyFormat::V7 {
            let (secs, nanos) = uuid.get_timestamp().expect("v7 timestamp").to_unix();
            assert_eq!(secs * 1000 + u64::from(nanos) / 1_000_000, 5_000);
        }
        // Pasting the minted key retries the same operation.
        w.push_input(Input::Request {
            key: Some(text),
            key_format: KeyFormat::V4,
            amount: 100,
            description: "order".to_string(),
            fault: Fault::None,
        })
        .expect("valid");
        w.run_until_idle();
        assert_eq!(w.balance(), 900);
        assert!(matches!(
            &w.client_results()[1].outcome,
            ClientOutcome::Answered { result } if result.is_replay()
        ));
    }
}

#[test]
fn invalid_config_and_inputs_are_typed_errors() {
    assert!(matches!(
        World::new(WorldConfig {
            initial_balance: -1,
            ..WorldConfig::default()
        }),
        Err(InputError::BalanceOutOfRange { balance: -1, .. })
    ));
    assert!(matches!(
        World::new(WorldConfig {
            timeout_ms: 0,
            ..WorldConfig::default()
        }),
        Err(InputError::DurationOutOfRange { .. })
    ));
    let mut w = World::new(WorldConfig::default()).expect("valid");
    assert!(matches!(
        w.push_input(request(None, 0, Fault::None)),
        Err(InputError::AmountOutOfRange { .. })
    ));
    assert!(matches!(
        w.push_input(request(Some(&"k".repeat(256)), 1, Fault::None)),
        Err(InputError::KeyTooLong { len: 256, max: 255 })
    ));
    assert!(matches!(
        w.push_input(Input::Deposit {
            amount: limits::MAX_AMOUNT + 1
        }),
        Err(InputError::AmountOutOfRange { .. })
    ));
    assert!(w.input_log().is_empty(), "rejected inputs are not logged");
    assert!(matches!(
        World::with_script(WorldConfig::default(), vec![Input::AdvanceTime { ms: 0 }]),
        Err(InputError::DurationOutOfRange { .. })
    ));
}

#[test]
fn deposits_above_the_balance_limit_are_refused() {
    let mut w = World::new(WorldConfig {
        initial_balance: limits::MAX_BALANCE,
        ..WorldConfig::default()
    })
    .expect("valid");
    w.push_input(Input::Deposit { amount: 1 }).expect("valid");
    w.run_until_idle();
    assert_eq!(w.balance(), limits::MAX_BALANCE);
    assert!(matches!(
        w.trace()[0].kind,
        EventKind::Deposit {
            accepted: false,
            ..
        }
    ));
    assert!(w.violations().is_empty());
}

#[test]
fn store_rows_show_fingerprint_state_and_expiry() {
    let mut w = World::with_script(
        config(ServiceKind::Production),
        vec![request(Some("k"), 100, Fault::None)],
    )
    .expect("valid");
    w.run_until_idle();
    let row = &w.store_rows()[0];
    assert_eq!(row.state, RecordState::Completed);
    assert!(row.fingerprint.is_some());
    assert_eq!(row.result, Some(PaymentResult::Success { balance: 900 }));
    let created = row.created_at_ms.expect("created");
    assert_eq!(row.expires_at_ms, Some(created + 86_400_000));
    let entry = w.ledger()[0];
    assert_eq!(w.key_text(entry.key.expect("key")).as_deref(), Some("k"));
    assert_eq!(w.description_text(entry.description), Some(""));
    w.push_input(Input::AdvanceTime { ms: 86_400_000 })
        .expect("valid");
    w.run_until_idle();
    assert_eq!(w.store_rows()[0].state, RecordState::Expired);
    assert_eq!(w.counters().expirations, 1);
}

#[test]
fn a_run_that_could_fill_the_trace_is_refused_before_it_starts() {
    // Every attempt lost and retried at once. Before inputs were costed when added, 8,000 of
    // these ran until the trace was full and the world halted part-way, silently.
    let op = Input::Operation {
        amount: 1,
        description: String::new(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Immediate,
        max_attempts: limits::MAX_ATTEMPTS,
        faults: vec![Fault::RequestLost; limits::MAX_ATTEMPTS as usize],
    };
    let refused = World::with_script(WorldConfig::default(), vec![op.clone(); 8_000]);
    assert!(matches!(
        refused,
        Err(InputError::TooMuchWork { events, max })
            if max == limits::MAX_TRACE_EVENTS && events > max as u64
    ));
    // As many as the bound admits run to the end without halting, within the bound.
    let fit =
        limits::MAX_TRACE_EVENTS as u64 / (u64::from(limits::MAX_ATTEMPTS) * EVENTS_PER_ATTEMPT);
    let mut w = World::with_script(WorldConfig::default(), vec![op.clone(); fit as usize])
        .expect("within the bound");
    w.run_until_idle();
    assert!(w.halted().is_none());
    assert!(w.trace().len() as u64 <= w.event_bound());
    // One more, pushed, is refused with the same message and changes nothing.
    let before = w.clone();
    assert!(matches!(
        w.push_input(op),
        Err(InputError::TooMuchWork { .. })
    ));
    assert!(w == before);
    assert!(w.violations().is_empty());
}

#[test]
fn a_retry_past_the_attempt_limit_is_refused_when_it_is_added() {
    let mut w = World::new(WorldConfig::default()).expect("valid");
    w.push_input(Input::Operation {
        amount: 1,
        description: String::new(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Immediate,
        max_attempts: limits::MAX_ATTEMPTS,
        faults: vec![Fault::RequestLost; limits::MAX_ATTEMPTS as usize],
    })
    .expect("valid");
    w.run_until_idle();
    let retry = Input::Retry {
        new_key: false,
        fault: Fault::None,
    };
    // Before, this passed validation, then halted the world when it ran, and nothing said so.
    assert_eq!(
        w.push_input(retry.clone()),
        Err(InputError::RetryOverAttemptLimit {
            attempt: limits::MAX_ATTEMPTS + 1,
            max: limits::MAX_ATTEMPTS
        })
    );
    assert!(w.halted().is_none());
    // A new operation may be retried again.
    w.push_input(Input::Request {
        key: Some("k".into()),
        key_format: KeyFormat::V4,
        amount: 1,
        description: String::new(),
        fault: Fault::ResponseLost,
    })
    .expect("valid");
    w.push_input(retry).expect("attempt 2 of the new request");
    w.run_until_idle();
    assert!(w.halted().is_none());
    assert_eq!(w.client_results().last().map(|r| r.attempts), Some(2));
    // A scenario holding such a retry is refused as a whole, before it runs. (Without a retry
    // policy an operation makes one attempt, so a retry after it is attempt 2 and accepted.)
    let script = vec![
        Input::Operation {
            amount: 1,
            description: String::new(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts: limits::MAX_ATTEMPTS,
            faults: Vec::new(),
        },
        Input::Retry {
            new_key: true,
            fault: Fault::None,
        },
    ];
    assert!(matches!(
        World::with_script(WorldConfig::default(), script),
        Err(InputError::RetryOverAttemptLimit { .. })
    ));
}

#[test]
fn too_many_inputs_are_refused() {
    let script = vec![Input::Deposit { amount: 1 }; limits::MAX_INPUTS];
    let mut w = World::with_script(WorldConfig::default(), script.clone()).expect("at the limit");
    assert!(matches!(
        w.push_input(Input::Deposit { amount: 1 }),
        Err(InputError::TooManyInputs { .. })
    ));
    let mut over = script;
    over.push(Input::Deposit { amount: 1 });
    assert!(matches!(
        World::with_script(WorldConfig::default(), over),
        Err(InputError::TooManyInputs { .. })
    ));
}
