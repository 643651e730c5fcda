//! Issue 13, sections 5 and 6: replayed answers are marked by the server, and a run forks at any
//! step (the scenario's `branch`), with Back, links and old links unchanged.
#![cfg(not(target_arch = "wasm32"))]

use idempotency_playground::*;
use proptest::prelude::*;

fn lesson(id: &str) -> Scenario {
    builtin(id).expect("built in")
}

/// Every answer a client received, with its replay mark, from the trace and from the client.
fn answers(w: &World) -> Vec<(PaymentResult, bool)> {
    w.trace()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ResponseDelivered {
                result, replayed, ..
            } => Some((result.clone(), *replayed)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_replayed_answer_is_marked_and_an_executed_one_is_not() {
    // "A lost reply at the article's first handler": the first reply is lost, the retry with the same key is answered.
    let worlds = lesson("double-charge").run().expect("runs");
    for w in &worlds {
        let kind = w.config().service;
        let marks: Vec<bool> = answers(w).iter().map(|a| a.1).collect();
        // The article's keyed services answer the retry from the store; naive executes it.
        let expect_replay = kind.honours_keys();
        assert_eq!(marks.last().copied(), Some(expect_replay), "{kind:?}");
        assert!(
            marks.iter().filter(|m| **m).count() <= 1,
            "{kind:?}: {marks:?}"
        );
        // The client's list carries the same marks, one per answer it saw (timeouts: false).
        for r in w.client_results().iter() {
            assert_eq!(r.replayed.len(), r.seen.len());
            for (s, rep) in r.seen.iter().zip(&r.replayed) {
                if let AttemptOutcome::TimedOut = s.outcome {
                    assert!(!rep);
                }
            }
        }
    }
}

#[test]
fn the_mark_is_the_servers_decision_in_every_built_in_lesson() {
    for id in builtin_ids() {
        for w in lesson(id).run().expect("runs") {
            let mut sent = Vec::new();
            for e in w.trace().iter() {
                match &e.kind {
                    EventKind::ResponseSent {
                        op,
                        attempt,
                        result,
                        replayed,
                        ..
                    } => {
                        // Replayed exactly when the server returned a stored result.
                        assert_eq!(*replayed, result.is_replay(), "{id}");
                        sent.push(((*op, *attempt), *replayed));
                    }
                    EventKind::ResponseDelivered {
                        op,
                        attempt,
                        replayed,
                        ..
                    } => {
                        // Carried unchanged to the client.
                        let from = sent.iter().rev().find(|s| s.0 == (*op, *attempt));
                        assert_eq!(from.map(|s| s.1), Some(*replayed), "{id}");
                    }
                    _ => {}
                }
            }
        }
    }
}

fn snapshots(s: &Session) -> Vec<Snapshot> {
    s.worlds().iter().map(World::snapshot).collect()
}

fn session(s: Scenario) -> Session {
    Session::new(s).expect("valid")
}

#[test]
fn a_fork_keeps_the_past_and_rebuilds_the_future() {
    let original = session(lesson("double-charge"));
    let total = original.total();
    let mut at = |k: usize| {
        let mut s = session(lesson("double-charge"));
        s.seek(k);
        snapshots(&s)
    };
    let before: Vec<Vec<Snapshot>> = (0..=total).map(&mut at).collect();
    for k in 1..total {
        let mut s = session(lesson("double-charge"));
        s.seek(k);
        let forked = s
            .fork(Input::Crash)
            .expect("a crash can happen at any step");
        let mut f = session(forked.clone());
        f.seek(k);
        // At the fork's step and before it, the run is the original one, Back included.
        assert_eq!(snapshots(&f), before[k], "at the fork's step {k}");
        f.seek(k - 1);
        assert_eq!(snapshots(&f), before[k - 1], "one step back from {k}");
        f.seek(0);
        assert_eq!(snapshots(&f), before[0]);
        // What follows is the fork's: the server restarts in every column, after step k.
        for i in 0..f.scenario().services.len() {
            let w = f.finished(i).unwrap();
            let restart = w
                .trace()
                .iter()
                .find(|e| matches!(e.kind, EventKind::ServerRestarted { .. }))
                .map(|e| e.step);
            assert!(
                restart.is_some_and(|r| r > k.min(w.steps_taken())),
                "fork at {k}"
            );
        }
        assert!(f.branch_error().is_none());
        assert_eq!(
            forked.branch,
            vec![LoggedInput {
                at_step: k,
                input: Input::Crash
            }]
        );
    }
}

#[test]
fn a_fault_change_on_a_pending_attempt_changes_what_follows() {
    // Step 1 sends the first attempt, whose reply will be lost; while it is in the network, a
    // fork says it goes through: then no retry is needed and the naive service charges once.
    let mut s = session(lesson("double-charge"));
    s.seek(1);
    let fork = Input::SetFault {
        op: 0,
        attempt: 1,
        fault: Fault::None,
    };
    let f = s.fork(fork.clone()).expect("pending");
    let forked = Session::new(f.clone()).expect("valid");
    let original = session(lesson("double-charge"));
    let naive = |s: &Session| s.finished(0).expect("naive column").ledger().len();
    assert_eq!(original.scenario().services[0].kind(), ServiceKind::Naive);
    assert_eq!((naive(&original), naive(&forked)), (2, 1));
    // Once the request has reached the server, that attempt is past.
    let mut late = session(lesson("double-charge"));
    late.seek(original.total());
    assert_eq!(
        late.fork(fork),
        Err(InputError::FaultTooLate { op: 0, attempt: 1 })
    );
    assert!(matches!(
        late.fork(Input::SetFault {
            op: 7,
            attempt: 1,
            fault: Fault::None
        }),
        Err(InputError::NoSuchOperation { op: 7, .. })
    ));
    // A fault change is a fork's, never a script input.
    let mut bad = lesson("double-charge");
    bad.inputs.push(Input::SetFault {
        op: 0,
        attempt: 1,
        fault: Fault::None,
    });
    assert_eq!(bad.validate(), Err(InputError::BranchOnly));
}

/// `s` run as written, and forked with a server crash at the first step (of its first column)
/// whose event `pick` matches; the crash killed one request.
fn crash_at_first(s: Scenario, pick: fn(&EventKind) -> bool) -> (Session, Session) {
    let run = session(s.clone());
    let step = run
        .finished(0)
        .unwrap()
        .trace()
        .iter()
        .find(|e| pick(&e.kind))
        .expect("the event happens")
        .step;
    let mut at = session(s);
    at.seek(step);
    let forked = session(at.fork(Input::Crash).expect("valid"));
    assert!(forked
        .finished(0)
        .unwrap()
        .trace()
        .iter()
        .any(|e| matches!(e.kind, EventKind::ServerRestarted { killed: 1 })));
    (run, forked)
}

#[test]
fn a_crash_kills_the_requests_between_their_phases() {
    // TOCTOU runs a request as three transactions: after its check, a crash kills it before
    // the charge, and its client times out.
    let mut s = lesson("double-charge").with_services(vec![ServiceKind::TocTou.into()]);
    s.inputs = vec![Input::Request {
        key: Some("k".into()),
        key_format: KeyFormat::V4,
        amount: 100,
        description: String::new(),
        fault: Fault::None,
    }];
    let (run, f) = crash_at_first(s, |e| matches!(e, EventKind::StoreCheck { .. }));
    let w = f.finished(0).unwrap();
    assert_eq!(w.ledger().len(), 0, "killed before its charge");
    assert_eq!(run.finished(0).unwrap().ledger().len(), 1);
    assert_eq!(w.client_results()[0].outcome, ClientOutcome::TimedOut);
}

/// Found by a walk-through: a crash while a request waited for the card processor killed no one,
/// and the dead server still took the processor's answer and replied. The worker dies with the
/// server; the processor's charge stays.
#[test]
fn a_crash_kills_a_request_waiting_for_the_processor() {
    let (run, f) = crash_at_first(lesson("slow-processor"), |e| {
        matches!(e, EventKind::ProcessorCharge { .. })
    });
    let w = f.finished(0).unwrap();
    let op1 = w.client_results()[0].op;
    let first_try_answered = |w: &World| {
        w.trace().iter().any(
            |e| matches!(&e.kind, EventKind::ResponseSent { op, attempt: 1, .. } if *op == op1),
        )
    };
    assert!(
        first_try_answered(run.finished(0).unwrap()),
        "the slow holder answers at last"
    );
    assert!(!first_try_answered(w), "a dead worker answers nobody");
    assert!(!w.ledger().is_empty(), "the processor's charge stays");
}

#[test]
fn forks_after_the_step_are_dropped_and_forks_at_it_kept_in_order() {
    let s = lesson("double-charge");
    let a = s.forked(3, Input::AdvanceTime { ms: 10 });
    let b = a.forked(5, Input::Crash);
    let c = b.forked(
        3,
        Input::Retry {
            new_key: false,
            fault: Fault::None,
        },
    );
    let steps: Vec<usize> = c.branch.iter().map(|b| b.at_step).collect();
    assert_eq!(steps, [3, 3], "the fork at 5 was the future of step 3");
    assert!(matches!(c.branch[1].input, Input::Retry { .. }));
}

#[test]
fn the_branch_round_trips_and_old_json_is_unchanged() {
    for id in builtin_ids() {
        let json = lesson(id).to_json();
        assert!(!json.contains("branch"), "{id}: left out when empty");
        assert_eq!(Scenario::from_json(&json).expect("reads").to_json(), json);
    }
    let forked = lesson("double-charge")
        .forked(
            1,
            Input::SetFault {
                op: 0,
                attempt: 1,
                fault: Fault::CrashAfterCommitBeforeReply,
            },
        )
        .forked(1, Input::Crash)
        .forked(4, Input::AdvanceTime { ms: 90_000 });
    let json = forked.to_json();
    assert!(json.ends_with(
        r#""branch":[{"at_step":1,"input":{"type":"set-fault","op":0,"attempt":1,"fault":"crash-after-commit-before-reply"}},{"at_step":1,"input":{"type":"crash"}},{"at_step":4,"input":{"type":"advance-time","ms":90000}}]}"#
    ), "{json}");
    assert_eq!(Scenario::from_json(&json), Ok(forked));
}

#[test]
fn a_damaged_branch_is_refused_or_reported_with_its_step() {
    let base = lesson("double-charge").to_json();
    let with = |branch: &str| format!("{},\"branch\":{branch}}}", &base[..base.len() - 1]);
    assert!(matches!(
        Scenario::from_json(&with(r#"[{"at_step":1}]"#)),
        Err(InputError::JsonInvalid { .. })
    ));
    assert!(matches!(
        Scenario::from_json(&with(r#"[{"at_step":1,"input":{"type":"crash","x":1}}]"#)),
        Err(InputError::JsonInvalid { .. })
    ));
    assert_eq!(
        Scenario::from_json(&with(
            r#"[{"at_step":4,"input":{"type":"crash"}},{"at_step":2,"input":{"type":"crash"}}]"#
        )),
        Err(InputError::BranchOutOfOrder {
            at_step: 2,
            previous: 4
        })
    );
    let many = format!(
        "[{}]",
        vec![r#"{"at_step":1,"input":{"type":"crash"}}"#; 101].join(",")
    );
    assert!(matches!(
        Scenario::from_json(&with(&many)),
        Err(InputError::TooManyInputs { count: 101, .. })
    ));
    // Past the run's end, or an attempt already past: the run opens without it and says so.
    let past = Scenario::from_json(&with(r#"[{"at_step":9999,"input":{"type":"crash"}}]"#))
        .expect("reads");
    let s = session(past);
    let end = session(lesson("double-charge")).total();
    assert_eq!(
        s.branch_error(),
        Some(&(0, InputError::BranchPastEnd { at_step: 9999, end }))
    );
    assert_eq!(s.total(), end);
    let late = Scenario::from_json(&with(
        r#"[{"at_step":5,"input":{"type":"set-fault","op":0,"attempt":1,"fault":"none"}}]"#,
    ))
    .expect("reads");
    assert_eq!(
        session(late).branch_error(),
        Some(&(0, InputError::FaultTooLate { op: 0, attempt: 1 }))
    );
}

fn fork_input() -> impl Strategy<Value = Input> {
    prop_oneof![
        Just(Input::Crash),
        (1u64..200_000).prop_map(|ms| Input::AdvanceTime { ms }),
        (any::<bool>(), 0usize..Fault::ALL.len()).prop_map(|(new_key, f)| Input::Retry {
            new_key,
            fault: Fault::ALL[f]
        }),
        (0u32..3, 1u32..4, 0usize..Fault::ALL.len()).prop_map(|(op, attempt, f)| {
            Input::SetFault {
                op,
                attempt,
                fault: Fault::ALL[f],
            }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// For any lesson, step and fork the run accepts: every step up to the fork's is the
    /// original run's, and the forked run stepped back and forth is its own built run.
    #[test]
    fn forking_never_changes_the_past(lesson_ix in 0usize..64, k in 0usize..40, input in fork_input()) {
        let ids = builtin_ids();
        let id = ids[lesson_ix % ids.len()];
        let mut s = session(lesson(id));
        let k = k.min(s.total());
        s.seek(k);
        let Ok(forked) = s.fork(input) else { return Ok(()) };
        let mut f = session(forked);
        prop_assert!(f.branch_error().is_none());
        let mut orig = session(lesson(id));
        for j in (0..=k).rev() {
            f.seek(j);
            orig.seek(j);
            prop_assert_eq!(snapshots(&f), snapshots(&orig), "{} step {}", id, j);
        }
        // Forward to the end and back again by replay: the same states as stepping.
        f.seek(k);
        let mut steps = Vec::new();
        while f.step() {
            steps.push(snapshots(&f));
        }
        for (i, snap) in steps.iter().enumerate().rev() {
            f.seek(k + i + 1);
            prop_assert_eq!(&snapshots(&f), snap);
        }
    }
}
