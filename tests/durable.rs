//! The durable-execution engine (`idempotency_playground::durable`): journal and replay, crash
//! points, retries, the three keys, the determinism rule per engine, workflow-id policies per
//! engine, sagas with keyed compensation, invariants naming their step, stepping back by replay,
//! the lessons' answers and the challenges' solutions; and the property the issue names: for
//! random crash points, derived keys charge exactly once, and without keys the invariant catches
//! every run whose charge step ran twice. Also compiled for the browser layer.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use idempotency_playground::durable::*;
use idempotency_playground::lesson::NotPosed;
use idempotency_playground::Rng;

fn run_to_end(config: Config) -> World {
    let mut w = World::new(config);
    while w.step() {}
    w
}

fn fault(step: StepName, kind: FaultKind) -> Config {
    Config::default().with_fault(step, Some(kind))
}

fn ran(w: &World, step: StepName) -> usize {
    w.trace()
        .iter()
        .filter(|e| matches!(e.kind, TraceKind::StepRan { step: s, .. } if s == step))
        .count()
}

#[test]
fn an_order_without_faults_journals_every_step_once_and_charges_once() {
    let w = run_to_end(Config::default());
    let run = w.current_run().unwrap();
    assert_eq!(run.status, RunStatus::Completed);
    let steps: Vec<StepName> = run.journal.iter().map(|e| e.step).collect();
    assert_eq!(
        steps,
        [
            StepName::Reserve,
            StepName::Charge,
            StepName::Clock,
            StepName::ShipExpress,
            StepName::Receipt
        ]
    );
    assert!(run
        .journal
        .iter()
        .all(|e| e.result.is_some() && !e.replayed));
    assert_eq!(w.count(EffectKind::Charged), 1);
    assert_eq!(w.balance(), INITIAL_BALANCE - AMOUNT);
    assert!(w.violations().is_empty());
    assert_eq!(w.store().len(), 1);
    assert_eq!(w.store()[0].0, "order-42/1/charge_card");
}

#[test]
fn after_a_crash_journaled_steps_are_replayed_and_only_the_unfinished_one_runs_again() {
    for engine in [Engine::Temporal, Engine::Restate, Engine::Dbos] {
        let w = run_to_end(Config {
            engine,
            ..fault(StepName::ShipExpress, FaultKind::CrashAfterEffect)
        });
        let run = w.current_run().unwrap();
        assert_eq!(run.status, RunStatus::Completed, "{engine:?}");
        let replayed: Vec<StepName> = run
            .journal
            .iter()
            .filter(|e| e.replayed)
            .map(|e| e.step)
            .collect();
        if engine == Engine::Temporal {
            // Temporal's server retries the shipment when its Start-To-Close timeout fires; the
            // new worker replays the history only once that result is in, and reads it back too.
            assert_eq!(
                replayed,
                [
                    StepName::Reserve,
                    StepName::Charge,
                    StepName::Clock,
                    StepName::ShipExpress
                ]
            );
        } else {
            assert_eq!(
                replayed,
                [StepName::Reserve, StepName::Charge, StepName::Clock]
            );
        }
        assert_eq!(ran(&w, StepName::Reserve), 1);
        assert_eq!(ran(&w, StepName::Charge), 1);
        assert_eq!(
            ran(&w, StepName::ShipExpress),
            2,
            "at-least-once: the unfinished step re-ran"
        );
        assert_eq!(w.count(EffectKind::ShippedExpress), 2);
        assert!(w.violation(Invariant::ReplayNeverReruns).is_none());
        assert_eq!(rerun_of(&w), RerunClass::OnlyUnfinished);
    }
    // Without durable execution nothing resumes: the run is lost, half done.
    let w = run_to_end(Config {
        engine: Engine::Plain,
        ..fault(StepName::ShipExpress, FaultKind::CrashAfterEffect)
    });
    assert_eq!(w.runs()[0].status, RunStatus::Lost);
    assert_eq!(w.count(EffectKind::Receipt), 0);
    let v = w.violation(Invariant::EndedKeptOrCompensated).unwrap();
    assert_eq!(v.step, StepName::Charge);
}

fn rerun_of(w: &World) -> RerunClass {
    let l = lesson("durable-resume").unwrap();
    let run = DurableRun::new(vec![w.config().clone()], Vec::new());
    match l.question.pose(&run).unwrap().choices[l.question.pose(&run).unwrap().answer] {
        Answer::Rerun(r) => r,
        other => panic!("{other:?}"),
    }
}

#[test]
fn crash_points_and_lost_replies_decide_whether_the_charge_runs_twice() {
    use FaultKind::*;
    // (fault, charge step executions, charges with no key, with a derived key)
    let cases = [
        (CrashBefore, 1, 1, 1),
        (CrashAfterEffect, 2, 2, 1),
        (CrashAfterJournal, 1, 1, 1),
        (ReplyLost, 2, 2, 1),
        (FailOnce, 1, 1, 1),
    ];
    for (kind, executions, none, derived) in cases {
        for (key, charges) in [(KeyMode::None, none), (KeyMode::Derived, derived)] {
            let w = run_to_end(Config {
                key,
                ..fault(StepName::Charge, kind)
            });
            assert_eq!(ran(&w, StepName::Charge), executions, "{kind:?} {key:?}");
            assert_eq!(w.count(EffectKind::Charged), charges, "{kind:?} {key:?}");
            assert_eq!(w.current_run().unwrap().status, RunStatus::Completed);
            assert_eq!(
                w.violation(Invariant::OneChargePerOrder).is_some(),
                charges > 1,
                "{kind:?} {key:?}"
            );
        }
    }
    // A random key minted inside the step is another key on the re-run: charged twice.
    let w = run_to_end(Config {
        key: KeyMode::Random,
        ..fault(StepName::Charge, CrashAfterEffect)
    });
    assert_eq!(w.count(EffectKind::Charged), 2);
    let keys: Vec<_> = w.effects().iter().filter_map(|e| e.key.clone()).collect();
    assert_eq!(keys.len(), 2);
    assert_ne!(keys[0], keys[1]);
    // The invariant names the step and the world step of the second charge.
    let v = w.violation(Invariant::OneChargePerOrder).unwrap();
    assert_eq!(v.step, StepName::Charge);
    let second = w
        .effects()
        .iter()
        .filter(|e| e.kind == EffectKind::Charged)
        .nth(1)
        .unwrap();
    assert_eq!(v.at, second.at);
    // With a derived key the payment service replays the first result.
    let w = run_to_end(fault(StepName::Charge, CrashAfterEffect));
    assert_eq!(w.count(EffectKind::ChargeReplayed), 1);
    // A transient failure is retried after the retry policy's first interval.
    let w = run_to_end(fault(StepName::Charge, FailOnce));
    assert_eq!(first_retry_gap_ms(&w), 1_000);
}

/// The time from the first transient failure to the charge's second attempt.
fn first_retry_gap_ms(w: &World) -> u64 {
    let failed = w
        .trace()
        .iter()
        .find(|e| {
            matches!(
                e.kind,
                TraceKind::StepFailed {
                    permanent: false,
                    ..
                }
            )
        })
        .unwrap();
    let retried = w
        .trace()
        .iter()
        .find(|e| {
            matches!(
                e.kind,
                TraceKind::StepRan {
                    step: StepName::Charge,
                    attempt: 2,
                    ..
                }
            )
        })
        .unwrap();
    retried.ms - failed.ms
}

#[test]
fn a_workflow_that_reads_the_clock_directly_breaks_on_replay_each_engine_its_own_way() {
    let direct = |engine| Config {
        engine,
        clock: ClockMode::Direct,
        ..fault(StepName::Receipt, FaultKind::CrashAfterEffect)
    };
    let expect = [
        (Engine::Temporal, Verdict::Blocked, RunStatus::Blocked),
        (Engine::Restate, Verdict::Paused, RunStatus::Paused),
        (Engine::Dbos, Verdict::Failed, RunStatus::Failed),
    ];
    for (engine, verdict, status) in expect {
        let w = run_to_end(direct(engine));
        assert_eq!(w.mismatch().map(|m| m.1), Some(verdict), "{engine:?}");
        let run = w.current_run().unwrap();
        assert_eq!(run.status, status);
        assert_eq!(
            run.mismatch,
            Some((2, StepName::ShipExpress, StepName::ShipStandard))
        );
        // Nothing ran after the engine stopped the run. Temporal's server retried the receipt
        // when its Start-To-Close timeout fired, before any workflow task replayed the code.
        assert_eq!(w.count(EffectKind::ShippedStandard), 0);
        // The engine's verdict is recorded once.
        let verdicts = w
            .trace()
            .iter()
            .filter(|e| matches!(e.kind, TraceKind::Mismatch { .. }))
            .count();
        assert_eq!(verdicts, 1, "{engine:?}");
        let receipts = if engine == Engine::Temporal { 2 } else { 1 };
        assert_eq!(ran(&w, StepName::Receipt), receipts, "{engine:?}");
        // Restate does not pause at the first mismatch: its SDK's default hands it to the retry
        // policy, each attempt replays from the top (reading the clock anew) and hits it again,
        // 1 s then 2 s apart; the pause comes when the attempts are spent.
        let retries: Vec<(u64, u32)> = w
            .trace()
            .iter()
            .filter_map(|e| match e.kind {
                TraceKind::MismatchRetried { attempt, .. } => Some((e.ms, attempt)),
                _ => None,
            })
            .collect();
        if engine == Engine::Restate {
            let attempts: Vec<u32> = retries.iter().map(|r| r.1).collect();
            assert_eq!(attempts, (1..RESTATE_ATTEMPTS).collect::<Vec<_>>());
            let paused = w
                .trace()
                .iter()
                .find(|e| matches!(e.kind, TraceKind::Mismatch { .. }))
                .unwrap();
            assert_eq!(retries[1].0 - retries[0].0, RETRY_INITIAL_MS);
            assert_eq!(paused.ms - retries[1].0, 2 * RETRY_INITIAL_MS);
        } else {
            assert!(retries.is_empty(), "{engine:?}");
        }
    }
    // Through the engine the time is journaled and replays the same: no mismatch.
    let w = run_to_end(Config {
        clock: ClockMode::Engine,
        ..direct(Engine::Temporal)
    });
    assert_eq!(w.mismatch(), None);
    assert_eq!(w.current_run().unwrap().status, RunStatus::Completed);
    // Without a crash the direct read is kept in the worker's memory: no mismatch either.
    let w = run_to_end(Config {
        faults: Vec::new(),
        ..direct(Engine::Temporal)
    });
    assert_eq!(w.current_run().unwrap().status, RunStatus::Completed);
}

/// The default order, started again at `at` ms under these policies.
fn start_again(engine: Engine, reuse: ReusePolicy, conflict: ConflictPolicy, at: u64) -> World {
    run_to_end(Config {
        engine,
        reuse,
        conflict,
        start_again_at_ms: Some(at),
        ..Config::default()
    })
}

#[test]
fn the_same_workflow_id_started_again_follows_each_engines_policy() {
    started_again_after_the_first_run_closed();
    started_again_while_it_runs();
    started_again_after_a_run_that_returned_an_error();
    restate_workflow_run_is_already_invoked();
    temporal_refuses_reject_duplicate_with_terminate_existing();
    // A terminated run's charge is neither kept nor compensated.
    let w = start_again(
        Engine::Temporal,
        ReusePolicy::AllowDuplicate,
        ConflictPolicy::TerminateExisting,
        550,
    );
    assert_eq!(w.runs()[0].status, RunStatus::Terminated);
    let v = w.violation(Invariant::EndedKeptOrCompensated).unwrap();
    assert_eq!((v.step, v.run), (StepName::Charge, 1));
}

/// After the first run closed.
fn started_again_after_the_first_run_closed() {
    use ConflictPolicy as C;
    use ReusePolicy as R;
    let cases = [
        (
            Engine::Temporal,
            R::AllowDuplicate,
            StartReply::Started(2),
            2,
        ),
        (
            Engine::Temporal,
            R::AllowDuplicateFailedOnly,
            StartReply::Rejected,
            1,
        ),
        (
            Engine::Temporal,
            R::RejectDuplicate,
            StartReply::Rejected,
            1,
        ),
        (
            Engine::Restate,
            R::AllowDuplicate,
            StartReply::SameResult(1),
            1,
        ),
        (
            Engine::Dbos,
            R::AllowDuplicate,
            StartReply::SameResult(1),
            1,
        ),
    ];
    for (engine, reuse, reply, charges) in cases {
        let w = start_again(engine, reuse, C::Fail, 5_000);
        assert_eq!(w.replies()[1], reply, "{engine:?} {reuse:?}");
        assert_eq!(
            w.count(EffectKind::Charged),
            charges,
            "{engine:?} {reuse:?}"
        );
    }
}

/// While it runs, just after its charge.
fn started_again_while_it_runs() {
    use ConflictPolicy as C;
    use ReusePolicy as R;
    let cases = [
        (Engine::Temporal, C::Fail, StartReply::Rejected, 1),
        (Engine::Temporal, C::UseExisting, StartReply::Attached(1), 1),
        (
            Engine::Temporal,
            C::TerminateExisting,
            StartReply::Replaced { old: 1, new: 2 },
            2,
        ),
        (Engine::Restate, C::Fail, StartReply::Attached(1), 1),
        (Engine::Dbos, C::Fail, StartReply::Attached(1), 1),
    ];
    for (engine, conflict, reply, charges) in cases {
        let w = start_again(engine, R::AllowDuplicate, conflict, 550);
        assert_eq!(w.replies()[1], reply, "{engine:?} {conflict:?}");
        assert_eq!(
            w.count(EffectKind::Charged),
            charges,
            "{engine:?} {conflict:?}"
        );
    }
}

/// A run whose workflow returned an error closed failed: AllowDuplicateFailedOnly lets the id
/// start again, RejectDuplicate does not. (The order workflow used to return a "failed" value,
/// which a real SDK closes as completed; it now returns the step's error.)
fn started_again_after_a_run_that_returned_an_error() {
    use ReusePolicy as R;
    for (reuse, reply) in [
        (R::AllowDuplicateFailedOnly, StartReply::Started(2)),
        (R::RejectDuplicate, StartReply::Rejected),
        (R::AllowDuplicate, StartReply::Started(2)),
    ] {
        let w = run_to_end(Config {
            reuse,
            start_again_at_ms: Some(5_000),
            ..fault(StepName::Receipt, FaultKind::FailPermanent)
        });
        assert_eq!(w.runs()[0].status, RunStatus::Failed, "{reuse:?}");
        assert_eq!(w.replies()[1], reply, "{reuse:?}");
    }
}

/// Restate's Workflow `run` is answered 409 "already invoked", running or ended: no second
/// run and no stored result (the idempotency key above attaches or answers with the result).
fn restate_workflow_run_is_already_invoked() {
    for at in [550, 5_000] {
        let w = run_to_end(Config {
            engine: Engine::Restate,
            restate: RestateTarget::WorkflowRun,
            start_again_at_ms: Some(at),
            ..Config::default()
        });
        assert_eq!(w.replies()[1], StartReply::AlreadyInvoked(1), "{at}");
        assert_eq!(w.count(EffectKind::Charged), 1);
    }
}

/// Temporal refuses RejectDuplicate with TerminateExisting on every start, the first one
/// included: nothing runs and nothing is charged. (The page used to terminate the open run
/// and charge twice.)
fn temporal_refuses_reject_duplicate_with_terminate_existing() {
    for at in [550, 5_000] {
        let w = start_again(
            Engine::Temporal,
            ReusePolicy::RejectDuplicate,
            ConflictPolicy::TerminateExisting,
            at,
        );
        let refused = StartReply::Invalid(PolicyError::RejectDuplicateWithTerminateExisting);
        assert_eq!(w.replies(), &[refused, refused]);
        assert!(w.runs().is_empty());
        assert_eq!(w.count(EffectKind::Charged), 0);
        assert!(w.violations().is_empty());
        // The second start is still a start "again": a question asked before it is posed.
        assert!(w
            .trace()
            .iter()
            .any(|e| e.kind == TraceKind::StartRequested { again: true }));
    }
}

#[test]
fn a_saga_compensates_in_reverse_order_and_a_keyed_refund_runs_once() {
    let trip = |engine, key, faults: &[(StepName, FaultKind)]| {
        let mut c = Config {
            flow: FlowKind::Trip,
            engine,
            key,
            ..Config::default()
        };
        for (s, k) in faults {
            c = c.with_fault(*s, Some(*k));
        }
        run_to_end(c)
    };
    let hotel = (StepName::ReserveHotel, FaultKind::FailPermanent);
    let w = trip(Engine::Temporal, KeyMode::Derived, &[hotel]);
    let run = w.current_run().unwrap();
    // The saga undoes its steps and then returns the hotel's error, as Temporal's, Restate's and
    // DBOS's saga examples do, so the run closes failed (it used to be a "compensated" status of
    // its own, which no engine records: a workflow that returns a value closes completed, one
    // that returns an error failed).
    assert_eq!(run.status, RunStatus::Failed);
    let steps: Vec<StepName> = run.journal.iter().map(|e| e.step).collect();
    assert_eq!(
        steps,
        [
            StepName::Charge,
            StepName::BookFlight,
            StepName::ReserveHotel,
            StepName::CancelFlight,
            StepName::Refund
        ]
    );
    assert_eq!(w.balance(), INITIAL_BALANCE);
    assert!(w.violations().is_empty());
    // A crash after the refund went out, before it was journaled: the refund runs again.
    let refund = (StepName::Refund, FaultKind::CrashAfterEffect);
    let keyed = trip(Engine::Temporal, KeyMode::Derived, &[hotel, refund]);
    assert_eq!(ran(&keyed, StepName::Refund), 2);
    assert_eq!(keyed.count(EffectKind::Refunded), 1);
    assert_eq!(keyed.count(EffectKind::RefundReplayed), 1);
    assert_eq!(keyed.balance(), INITIAL_BALANCE);
    assert!(keyed.violations().is_empty());
    let unkeyed = trip(Engine::Temporal, KeyMode::None, &[hotel, refund]);
    assert_eq!(unkeyed.count(EffectKind::Refunded), 2);
    assert_eq!(unkeyed.balance(), INITIAL_BALANCE + AMOUNT);
    let v = unkeyed.violation(Invariant::RefundPerCharge).unwrap();
    assert_eq!(v.step, StepName::Refund);
    // Without durable execution a crash between the failure and its compensation leaves the
    // flight booked and the card charged.
    let plain = trip(
        Engine::Plain,
        KeyMode::Derived,
        &[hotel, (StepName::CancelFlight, FaultKind::CrashBefore)],
    );
    assert_eq!(plain.runs()[0].status, RunStatus::Lost);
    assert_eq!(plain.count(EffectKind::FlightCancelled), 0);
    assert_eq!(plain.balance(), INITIAL_BALANCE - AMOUNT);
    let v = plain.violation(Invariant::EndedKeptOrCompensated).unwrap();
    assert_eq!(v.step, StepName::BookFlight);
}

#[test]
fn stepping_back_replays_to_exactly_the_state_a_forward_run_had() {
    for id in LESSON_IDS {
        let l = lesson(id).unwrap();
        let mut run = DurableRun::new(
            l.columns.clone(),
            vec![(4, Action::Crash), (6, Action::Restart)],
        );
        let mut forward = vec![run.worlds().to_vec()];
        while run.step() {
            forward.push(run.worlds().to_vec());
        }
        assert_eq!(run.cursor(), run.end(), "{id}");
        assert!(run.end() < 200, "{id}: {}", run.end());
        for k in (0..forward.len()).rev() {
            run.seek(k);
            assert_eq!(run.cursor(), k);
            assert_eq!(run.worlds(), &forward[k][..], "{id} at {k}");
        }
        // Every world's step count is the run's cursor, so a trace's step is the run's.
        run.run_to_end();
        assert!(run.worlds().iter().all(|w| w.steps() == run.cursor()));
    }
}

#[test]
fn an_action_rewrites_the_future_and_is_refused_when_it_does_nothing() {
    let mut run = DurableRun::new(vec![Config::default()], Vec::new());
    assert_eq!(run.act(Action::Restart), Err(ActionError::NotApplicable));
    for _ in 0..3 {
        run.step();
    }
    run.act(Action::Crash).unwrap();
    assert_eq!(run.worlds()[0].worker(), WorkerState::Crashed);
    assert_eq!(run.act(Action::Crash), Err(ActionError::NotApplicable));
    run.act(Action::Restart).unwrap();
    assert_eq!(run.actions(), &[(3, Action::Crash), (4, Action::Restart)]);
    run.seek(2);
    run.step();
    run.act(Action::StartAgain).unwrap();
    assert_eq!(run.actions(), &[(3, Action::StartAgain)]);
    run.run_to_end();
    assert_eq!(run.worlds()[0].replies()[1], StartReply::Rejected);
}

#[test]
fn each_lesson_asks_before_its_decisive_step_and_its_answer_is_the_runs() {
    let expect = [
        ("durable-resume", Answer::Rerun(RerunClass::OnlyUnfinished)),
        ("durable-charge-key", Answer::Again(ChargeAgain::Charged)),
        (
            "durable-clock",
            Answer::Replay(ReplayEnd::Stopped(Verdict::Blocked)),
        ),
        ("durable-same-id", Answer::Reply(StartReply::Started(2))),
        (
            "durable-same-id-running",
            Answer::Reply(StartReply::Replaced { old: 1, new: 2 }),
        ),
        (
            "durable-request-id",
            Answer::Reply(StartReply::SameRequest(1)),
        ),
        ("durable-retention", Answer::Reply(StartReply::Started(2))),
        ("durable-saga", Answer::End(EndState::HalfDone)),
    ];
    for (id, want) in expect {
        let l = lesson(id).unwrap();
        let run = DurableRun::new(l.columns.clone(), Vec::new());
        let p = l.question.pose(&run).unwrap();
        assert_eq!(p.choices[p.answer], want, "{id}");
        assert!((2..=4).contains(&p.choices.len()));
        assert!(
            p.ask_at < p.shows_at,
            "{id}: asks at {} shows at {}",
            p.ask_at,
            p.shows_at
        );
        assert!(p.shows_at <= run.end(), "{id}");
    }
    lessons_side_by_side();
    questions_on_other_settings();
}

/// Side by side: the keys, the engines, the policies.
fn lessons_side_by_side() {
    let ends = |id| -> Vec<World> {
        DurableRun::new(lesson(id).unwrap().columns, Vec::new()).final_worlds()
    };
    let charges: Vec<usize> = ends("durable-charge-key")
        .iter()
        .map(|w| w.count(EffectKind::Charged))
        .collect();
    assert_eq!(charges, [1, 2, 2]);
    let verdicts: Vec<Option<Verdict>> = ends("durable-clock")
        .iter()
        .map(|w| w.mismatch().map(|m| m.1))
        .collect();
    assert_eq!(
        verdicts,
        [
            Some(Verdict::Blocked),
            Some(Verdict::Paused),
            Some(Verdict::Failed),
            None
        ]
    );
    let charges: Vec<usize> = ends("durable-same-id")
        .iter()
        .map(|w| w.count(EffectKind::Charged))
        .collect();
    assert_eq!(charges, [2, 1, 1, 1]);
    // A retried start (the first call's request id) is answered with run 1 under either
    // policy; a new call is a new request: terminated and charged again, or refused.
    let request = ends("durable-request-id");
    let replies: Vec<StartReply> = request.iter().map(|w| w.replies()[1]).collect();
    assert_eq!(
        replies,
        [
            StartReply::SameRequest(1),
            StartReply::SameRequest(1),
            StartReply::Replaced { old: 1, new: 2 },
            StartReply::Rejected
        ]
    );
    let charges: Vec<usize> = request
        .iter()
        .map(|w| w.count(EffectKind::Charged))
        .collect();
    assert_eq!(charges, [1, 1, 2, 1]);
    // Past Restate's retention the key and the Workflow's id run anew; within it, the stored
    // response comes back.
    let kept = ends("durable-retention");
    let replies: Vec<StartReply> = kept.iter().map(|w| w.replies()[1]).collect();
    assert_eq!(
        replies,
        [
            StartReply::Started(2),
            StartReply::SameResult(1),
            StartReply::Started(2)
        ]
    );
    let charges: Vec<usize> = kept.iter().map(|w| w.count(EffectKind::Charged)).collect();
    assert_eq!(charges, [2, 1, 2]);
}

/// The lessons' questions posed on settings other than the lessons' own.
fn questions_on_other_settings() {
    // The request-id question's choices hold the run's own answer when another engine gives
    // another one.
    let l = lesson("durable-request-id").unwrap();
    let mut columns = l.columns.clone();
    columns[0].engine = Engine::Restate;
    columns[0].restate = RestateTarget::WorkflowRun;
    let p = l
        .question
        .pose(&DurableRun::new(columns, Vec::new()))
        .unwrap();
    assert_eq!(
        p.choices[p.answer],
        Answer::Reply(StartReply::AlreadyInvoked(1))
    );
    // The run's own answer, and the beliefs' models that give another one.
    assert_eq!(p.choices.len(), 3);
    // A question whose moment never comes says so.
    let l = lesson("durable-same-id").unwrap();
    let mut columns = l.columns.clone();
    for c in &mut columns {
        c.start_again_at_ms = None;
    }
    assert_eq!(
        l.question.pose(&DurableRun::new(columns, Vec::new())),
        Err(NotPosed::NeverAsked)
    );
    assert!(lesson("nope").is_none());
}

/// The choices each lesson offers, with the belief that gives each wrong one.
type Beliefs = Vec<(Answer, Option<Belief>)>;

#[expect(
    clippy::too_many_lines,
    reason = "a table of data: one entry per lesson"
)]
fn expected_beliefs() -> Vec<(&'static str, Beliefs)> {
    use Belief as B;
    vec![
        (
            "durable-resume",
            vec![
                (
                    Answer::Rerun(RerunClass::Nothing),
                    Some(B::ExactlyOnceSteps),
                ),
                (Answer::Rerun(RerunClass::OnlyUnfinished), None),
                (
                    Answer::Rerun(RerunClass::FromTheTop),
                    Some(B::RestartRunsAll),
                ),
            ],
        ),
        (
            "durable-charge-key",
            vec![
                (
                    Answer::Again(ChargeAgain::NotRun),
                    Some(B::ExactlyOnceSteps),
                ),
                (
                    Answer::Again(ChargeAgain::Replayed),
                    Some(B::EngineKeysSteps),
                ),
                (Answer::Again(ChargeAgain::Charged), None),
            ],
        ),
        (
            "durable-clock",
            vec![
                (Answer::Replay(ReplayEnd::Completed), Some(B::ClockReplayed)),
                (Answer::Replay(ReplayEnd::Stopped(Verdict::Blocked)), None),
                (
                    Answer::Replay(ReplayEnd::Stopped(Verdict::Paused)),
                    Some(B::MismatchPauses),
                ),
                (
                    Answer::Replay(ReplayEnd::Stopped(Verdict::Failed)),
                    Some(B::MismatchFails),
                ),
            ],
        ),
        (
            "durable-same-id",
            vec![
                (Answer::Reply(StartReply::Started(2)), None),
                (
                    Answer::Reply(StartReply::SameResult(1)),
                    Some(B::IdReturnsResult),
                ),
                (Answer::Reply(StartReply::Rejected), Some(B::IdRefused)),
            ],
        ),
        (
            "durable-same-id-running",
            vec![
                (Answer::Reply(StartReply::Replaced { old: 1, new: 2 }), None),
                (Answer::Reply(StartReply::Attached(1)), Some(B::IdJoins)),
                (Answer::Reply(StartReply::Rejected), Some(B::IdRefused)),
            ],
        ),
        (
            "durable-request-id",
            vec![
                (
                    Answer::Reply(StartReply::Replaced { old: 1, new: 2 }),
                    Some(B::PolicyDecidesRetries),
                ),
                (Answer::Reply(StartReply::Attached(1)), Some(B::IdJoins)),
                (Answer::Reply(StartReply::SameRequest(1)), None),
                (Answer::Reply(StartReply::Rejected), Some(B::IdRefused)),
            ],
        ),
        (
            "durable-retention",
            vec![
                (Answer::Reply(StartReply::Started(2)), None),
                (
                    Answer::Reply(StartReply::SameResult(1)),
                    Some(B::KeyForever),
                ),
                (Answer::Reply(StartReply::Rejected), Some(B::IdRefused)),
            ],
        ),
        (
            "durable-saga",
            vec![
                (Answer::End(EndState::AllKept), Some(B::RetriedUntilDone)),
                (Answer::End(EndState::AllUndone), Some(B::SagaSurvivesCrash)),
                (Answer::End(EndState::HalfDone), None),
            ],
        ),
    ]
}

/// Each lesson's choices, as the core computes them: the right one, and for every wrong one the
/// belief whose model (the column run again under the belief) gives it.
#[test]
fn every_wrong_choice_is_a_belief_whose_model_gives_it() {
    let expect = expected_beliefs();
    for (id, want) in expect {
        let l = lesson(id).unwrap();
        let run = DurableRun::new(l.columns.clone(), Vec::new());
        let (p, beliefs) = l.question.pose_with_beliefs(&run).unwrap();
        let got: Vec<(Answer, Option<Belief>)> = p
            .choices
            .iter()
            .copied()
            .zip(beliefs.iter().copied())
            .collect();
        assert_eq!(got, want, "{id}");
        assert!(p.choices.len() >= 3, "{id}");
        // Each belief's model, run on its own, gives the choice it names.
        let c = &l.columns[l.question.column];
        let truth = &run.final_worlds()[l.question.column];
        for (a, b) in got.iter().filter_map(|(a, b)| Some((a, (*b)?))) {
            let m = b.model(c, truth).expect(id);
            let w = DurableRun::new(vec![m], Vec::new())
                .final_worlds()
                .remove(0);
            assert_eq!(l.question.measure.of(&w), Some(*a), "{id}: {b:?}");
        }
    }
}

#[test]
fn each_challenge_has_a_solution_found_by_the_core_and_no_moves_do_not_win() {
    for id in CHALLENGE_IDS {
        let c = challenge(id).unwrap();
        let mut idle = c.run();
        idle.run_to_end();
        assert!(!c.won(&idle), "{id} is won without a move");
        let actions = c.solution().expect(id);
        let mut run = DurableRun::new(vec![c.config.clone()], actions);
        run.run_to_end();
        assert!(c.won(&run), "{id}");
    }
    // The random key charges once only when the crash falls before the charge's effect.
    let c = challenge("durable-random-once").unwrap();
    let at = c.solution().unwrap()[0].0;
    let mut run = c.run();
    run.seek(at);
    let last = run.worlds()[0].trace().last().unwrap().kind;
    assert!(
        matches!(
            last,
            TraceKind::StepStarted {
                step: StepName::Charge,
                ..
            }
        ),
        "{last:?}"
    );
}

/// Whether each invariant is promised, per engine and key mode, in both workflows with no start
/// again, no fault and no action: a durable engine with derived keys promises all four; without
/// one, or with no key or a random one, only that replay never re-runs a journaled step.
#[test]
fn promised_for_each_engine_and_key_mode() {
    for flow in FlowKind::ALL {
        for engine in Engine::ALL {
            for key in KeyMode::ALL {
                let c = Config {
                    flow,
                    engine,
                    key,
                    ..Config::default()
                };
                let why = match (engine, key) {
                    (Engine::Plain, _) => Some(NotPromised::NotDurable),
                    (_, KeyMode::None) => Some(NotPromised::NoKey),
                    (_, KeyMode::Random) => Some(NotPromised::RandomKey),
                    (_, KeyMode::Derived) => None,
                };
                for inv in Invariant::ALL {
                    let want = if inv == Invariant::ReplayNeverReruns && engine != Engine::Plain {
                        None
                    } else {
                        why
                    };
                    assert_eq!(inv.not_promised(&c, &[]), want, "{inv:?} {c:?}");
                    assert_eq!(inv.promised(&c, &[]), want.is_none(), "{inv:?} {c:?}");
                }
                // The engine and the key come first: a start again or a fault adds no reason
                // to a column they already leave unpromised.
                let again = Config {
                    start_again_at_ms: Some(5_000),
                    ..c.clone()
                }
                .with_fault(StepName::Refund, Some(FaultKind::FailPermanent));
                if why.is_some() {
                    for inv in Invariant::ALL {
                        assert_eq!(
                            inv.not_promised(&again, &[(3, Action::Crash)]),
                            inv.not_promised(&c, &[]),
                            "{inv:?} {again:?}"
                        );
                    }
                }
            }
        }
    }
}

/// With a durable engine and derived keys: one charge is promised unless the client starts the
/// workflow id again and the engine's settings let that start begin a second run; an ended run
/// keeps or compensates unless Temporal terminates it, a step that must be undone (or, in the
/// order, one after the charge) fails for good, DBOS ends a direct clock read failed, or the
/// unkeyed booking can run twice; refunds are always promised. Whatever is promised holds.
#[test]
fn promised_follows_each_engines_starts_faults_and_the_learners_actions() {
    use ConflictPolicy::TerminateExisting;
    use NotPromised::*;
    use ReusePolicy::AllowDuplicate;
    let cases = [
        temporal_start_cases(),
        restate_and_dbos_start_cases(),
        order_cases(),
        trip_cases(),
    ]
    .concat();
    for (c, actions, one, ended) in cases {
        let why = |inv: Invariant| inv.not_promised(&c, &actions);
        assert_eq!(why(Invariant::OneChargePerOrder), one, "{c:?} {actions:?}");
        assert_eq!(
            why(Invariant::EndedKeptOrCompensated),
            ended,
            "{c:?} {actions:?}"
        );
        assert_eq!(why(Invariant::RefundPerCharge), None, "{c:?}");
        let journal = (!c.engine.durable()).then_some(NotDurable);
        assert_eq!(why(Invariant::ReplayNeverReruns), journal, "{c:?}");
        // Whatever is promised holds in the run.
        let mut run = DurableRun::new(vec![c.clone()], actions.clone());
        run.run_to_end();
        for inv in Invariant::ALL {
            if inv.promised(&c, &actions) {
                let v = run.worlds()[0].violation(inv);
                assert_eq!(v, None, "{inv:?} {c:?} {actions:?}");
            }
        }
    }
    // The learner's "start again" is a start as the scheduled one is.
    let by_hand = Config {
        start_again_at_ms: None,
        ..temporal(AllowDuplicate, TerminateExisting, RequestId::New)
    };
    let one = Invariant::OneChargePerOrder;
    let ended = Invariant::EndedKeptOrCompensated;
    assert!(one.promised(&by_hand, &crash(2)));
    assert!(ended.promised(&by_hand, &crash(2)));
    let start = [(9, Action::StartAgain)];
    assert_eq!(one.not_promised(&by_hand, &start), Some(NewRun));
    assert_eq!(ended.not_promised(&by_hand, &start), Some(Terminated));
}

/// Settings, the learner's actions, why one charge is not promised, why an ended run's steps
/// are not.
type PromiseCase = (
    Config,
    Vec<(usize, Action)>,
    Option<NotPromised>,
    Option<NotPromised>,
);

/// The order on `engine`, its workflow id started again at `at` ms.
fn again(engine: Engine, at: u64) -> Config {
    Config {
        engine,
        start_again_at_ms: Some(at),
        ..Config::default()
    }
}

/// The order on Temporal, started again at 550 ms under these policies.
fn temporal(reuse: ReusePolicy, conflict: ConflictPolicy, request_id: RequestId) -> Config {
    Config {
        reuse,
        conflict,
        request_id,
        ..again(Engine::Temporal, 550)
    }
}

/// The trip, with these faults.
fn trip(faults: &[(StepName, FaultKind)]) -> Config {
    faults.iter().fold(
        Config {
            flow: FlowKind::Trip,
            ..Config::default()
        },
        |c, (s, k)| c.with_fault(*s, Some(*k)),
    )
}

/// The learner crashes the worker at step `at`.
fn crash(at: usize) -> Vec<(usize, Action)> {
    vec![(at, Action::Crash)]
}

/// Started once, and Temporal's starts again.
fn temporal_start_cases() -> Vec<PromiseCase> {
    use ConflictPolicy::{Fail, TerminateExisting, UseExisting};
    use NotPromised::*;
    use ReusePolicy::{AllowDuplicate, AllowDuplicateFailedOnly, RejectDuplicate};
    vec![
        // Started once: nothing can begin a second run.
        (Config::default(), vec![], None, None),
        // Temporal: a closed run's id starts again unless RejectDuplicate; an open one is
        // replaced under TerminateExisting, ended where it is.
        (
            temporal(AllowDuplicate, TerminateExisting, RequestId::New),
            vec![],
            Some(NewRun),
            Some(Terminated),
        ),
        (
            temporal(AllowDuplicate, Fail, RequestId::New),
            vec![],
            Some(NewRun),
            None,
        ),
        (
            temporal(AllowDuplicateFailedOnly, UseExisting, RequestId::New),
            vec![],
            Some(NewRun),
            None,
        ),
        (
            temporal(RejectDuplicate, Fail, RequestId::New),
            vec![],
            None,
            None,
        ),
        (
            temporal(RejectDuplicate, UseExisting, RequestId::New),
            vec![],
            None,
            None,
        ),
        // The SDK's retry carries the first call's request id: answered with run 1 whatever
        // the policies.
        (
            temporal(AllowDuplicate, TerminateExisting, RequestId::Same),
            vec![],
            None,
            None,
        ),
        // Refused on every start: nothing runs at all.
        (
            temporal(RejectDuplicate, TerminateExisting, RequestId::New),
            vec![],
            None,
            None,
        ),
    ]
}

/// Restate's and DBOS's starts again.
fn restate_and_dbos_start_cases() -> Vec<PromiseCase> {
    use NotPromised::*;
    let restate_workflow = Config {
        restate: RestateTarget::WorkflowRun,
        ..again(Engine::Restate, AFTER_RETENTION_MS)
    };
    vec![
        // Restate: within the 24 h retention the key answers with the stored response; past it
        // the key runs anew, with either target.
        (again(Engine::Restate, 5_000), vec![], None, None),
        (
            again(Engine::Restate, AFTER_RETENTION_MS),
            vec![],
            Some(NewRun),
            None,
        ),
        (restate_workflow, vec![], Some(NewRun), None),
        // DBOS: the workflow id is the idempotency key.
        (again(Engine::Dbos, AFTER_RETENTION_MS), vec![], None, None),
    ]
}

/// The order's faults, the learner's crash, and a direct clock read.
fn order_cases() -> Vec<PromiseCase> {
    use NotPromised::*;
    let dbos_direct = Config {
        engine: Engine::Dbos,
        clock: ClockMode::Direct,
        ..Config::default()
    };
    let temporal_direct = Config {
        clock: ClockMode::Direct,
        ..Config::default()
    };
    vec![
        // The order has no compensation: nothing may fail for good after the charge; before
        // it, nothing is left to undo. A crash resumes.
        (
            fault(StepName::Receipt, FaultKind::FailPermanent),
            vec![],
            None,
            Some(FailsAfterCharge),
        ),
        (
            fault(StepName::ShipExpress, FaultKind::FailPermanent),
            vec![],
            None,
            Some(FailsAfterCharge),
        ),
        (
            fault(StepName::Reserve, FaultKind::FailPermanent),
            vec![],
            None,
            None,
        ),
        (
            fault(StepName::Charge, FaultKind::FailPermanent),
            vec![],
            None,
            None,
        ),
        (
            fault(StepName::Receipt, FaultKind::CrashAfterEffect),
            crash(4),
            None,
            None,
        ),
        // A direct clock read: DBOS ends the order failed after the charge; Temporal blocks the
        // run, open.
        (dbos_direct, vec![], None, Some(ReplayFails)),
        (temporal_direct, vec![], None, None),
    ]
}

/// The trip's faults and the learner's actions in it.
fn trip_cases() -> Vec<PromiseCase> {
    use NotPromised::*;
    vec![
        // The saga undoes what it did; a compensation that fails for good leaves it half done.
        (
            trip(&[(StepName::ReserveHotel, FaultKind::FailPermanent)]),
            vec![],
            None,
            None,
        ),
        (
            trip(&[
                (StepName::ReserveHotel, FaultKind::FailPermanent),
                (StepName::Refund, FaultKind::CrashAfterEffect),
            ]),
            vec![],
            None,
            None,
        ),
        (
            trip(&[
                (StepName::ReserveHotel, FaultKind::FailPermanent),
                (StepName::Refund, FaultKind::FailPermanent),
            ]),
            vec![],
            None,
            Some(CompensationFails),
        ),
        (
            trip(&[(StepName::CancelFlight, FaultKind::FailPermanent)]),
            vec![],
            None,
            Some(CompensationFails),
        ),
        // The booking carries no key: a crash after it (a fault or the learner's) or a lost
        // reply books again; a crash after its journal entry does not.
        (
            trip(&[(StepName::BookFlight, FaultKind::CrashAfterEffect)]),
            vec![],
            None,
            Some(BookingTwice),
        ),
        (
            trip(&[(StepName::BookFlight, FaultKind::ReplyLost)]),
            vec![],
            None,
            Some(BookingTwice),
        ),
        (
            trip(&[(StepName::BookFlight, FaultKind::CrashAfterJournal)]),
            vec![],
            None,
            None,
        ),
        (trip(&[]), crash(7), None, Some(BookingTwice)),
        (trip(&[]), vec![(7, Action::Restart)], None, None),
    ]
}

/// Where the page says an invariant is promised, it holds at every step of every built-in
/// lesson and of each challenge's solution; and the lessons show the invariants they teach as
/// not promised (and broken) where the settings do not promise them.
#[test]
fn every_promised_invariant_holds_in_the_lessons_and_the_challenges() {
    let mut seen = Vec::new();
    for (id, run) in lesson_and_challenge_runs() {
        seen.push((id, promises_at_every_step(id, run)));
    }
    assert_eq!(seen, expected_promises());
}

/// Per column, per invariant (in `Invariant::ALL`'s order): why it is not promised, and
/// whether it broke by the end.
type Row = [(Option<NotPromised>, bool); 4];

/// Every built-in lesson, and each challenge with its solution's actions.
fn lesson_and_challenge_runs() -> Vec<(&'static str, DurableRun)> {
    LESSON_IDS
        .iter()
        .map(|id| {
            (
                *id,
                DurableRun::new(lesson(id).unwrap().columns, Vec::new()),
            )
        })
        .chain(CHALLENGE_IDS.iter().map(|id| {
            let c = challenge(id).unwrap();
            (
                *id,
                DurableRun::new(vec![c.config.clone()], c.solution().unwrap()),
            )
        }))
        .collect()
}

/// Runs `run` to its end, checking at every step, as the page shows it, that what is promised
/// holds; then each column's row.
fn promises_at_every_step(id: &str, mut run: DurableRun) -> Vec<Row> {
    loop {
        for w in run.worlds() {
            for inv in Invariant::ALL {
                if inv.promised(w.config(), run.actions()) {
                    assert_eq!(w.violation(inv), None, "{id} at {}", run.cursor());
                }
            }
        }
        if !run.step() {
            break;
        }
    }
    run.worlds()
        .iter()
        .map(|w| {
            Invariant::ALL.map(|inv| {
                (
                    inv.not_promised(w.config(), run.actions()),
                    w.violation(inv).is_some(),
                )
            })
        })
        .collect()
}

/// The rows each lesson and challenge ends with.
#[expect(
    clippy::too_many_lines,
    reason = "a table of cases: the expected row of every column of every lesson and challenge"
)]
fn expected_promises() -> Vec<(&'static str, Vec<Row>)> {
    use NotPromised::*;
    let ok = (None, false);
    let row = |one, refund, ended| -> Row { [one, refund, ended, ok] };
    // Without an engine nothing is promised, not even about a journal it does not keep.
    let plain = |ended_broken| -> Row {
        [
            (Some(NotDurable), false),
            (Some(NotDurable), false),
            (Some(NotDurable), ended_broken),
            (Some(NotDurable), false),
        ]
    };
    let all_ok = row(ok, ok, ok);
    vec![
        ("durable-resume", vec![all_ok, plain(true)]),
        (
            "durable-charge-key",
            vec![
                all_ok,
                row(
                    (Some(NoKey), true),
                    (Some(NoKey), false),
                    (Some(NoKey), false),
                ),
                row(
                    (Some(RandomKey), true),
                    (Some(RandomKey), false),
                    (Some(RandomKey), false),
                ),
            ],
        ),
        (
            "durable-clock",
            vec![
                all_ok,
                all_ok,
                row(ok, ok, (Some(ReplayFails), true)),
                all_ok,
            ],
        ),
        (
            "durable-same-id",
            vec![row((Some(NewRun), true), ok, ok), all_ok, all_ok, all_ok],
        ),
        (
            "durable-same-id-running",
            vec![
                row((Some(NewRun), false), ok, ok),
                row((Some(NewRun), false), ok, ok),
                row((Some(NewRun), true), ok, (Some(Terminated), true)),
                all_ok,
            ],
        ),
        (
            "durable-request-id",
            vec![
                all_ok,
                all_ok,
                row((Some(NewRun), true), ok, (Some(Terminated), true)),
                row((Some(NewRun), false), ok, ok),
            ],
        ),
        (
            "durable-retention",
            vec![
                row((Some(NewRun), true), ok, ok),
                all_ok,
                row((Some(NewRun), true), ok, ok),
            ],
        ),
        (
            "durable-saga",
            vec![
                all_ok,
                row(
                    (Some(NoKey), false),
                    (Some(NoKey), true),
                    (Some(NoKey), false),
                ),
                plain(true),
            ],
        ),
        (
            "durable-charge-twice",
            vec![row(
                (Some(NoKey), true),
                (Some(NoKey), false),
                (Some(NoKey), false),
            )],
        ),
        (
            "durable-random-once",
            vec![row(
                (Some(RandomKey), false),
                (Some(RandomKey), false),
                (Some(RandomKey), false),
            )],
        ),
    ]
}

/// The issue's property: for random crash points (scripted faults on random steps and crashes
/// by hand at random moments, any engine), a workflow with derived keys charges exactly once,
/// and a workflow without keys is caught by the invariant exactly when its charge step ran
/// (its side effect happened) more than once.
#[test]
fn property_derived_keys_charge_once_and_no_keys_are_caught_whenever_the_charge_reran() {
    let cases = if cfg!(target_arch = "wasm32") {
        60
    } else {
        600
    };
    let faults = [
        FaultKind::CrashBefore,
        FaultKind::CrashAfterEffect,
        FaultKind::CrashAfterJournal,
        FaultKind::ReplyLost,
        FaultKind::FailOnce,
    ];
    let mut rng = Rng::new(2026);
    let mut caught = 0;
    for case in 0..cases {
        let engine = [Engine::Temporal, Engine::Restate, Engine::Dbos][rng.below(3)];
        let mut config = Config {
            engine,
            seed: case,
            ..Config::default()
        };
        for _ in 0..rng.below(3) {
            let step = FlowKind::Order.steps()[rng.below(6)];
            config = config.with_fault(step, Some(faults[rng.below(faults.len())]));
        }
        let mut actions = Vec::new();
        let mut at = 0;
        for _ in 0..rng.below(3) {
            at += 1 + rng.below(12);
            actions.push((at, Action::Crash));
        }
        for key in [KeyMode::Derived, KeyMode::None] {
            let c = Config {
                key,
                ..config.clone()
            };
            let mut run = DurableRun::new(vec![c.clone()], actions.clone());
            run.run_to_end();
            let w = &run.worlds()[0];
            assert_eq!(
                w.current_run().unwrap().status,
                RunStatus::Completed,
                "case {case} {c:?}"
            );
            let reran = ran(w, StepName::Charge) > 1;
            match key {
                KeyMode::Derived => {
                    assert_eq!(w.count(EffectKind::Charged), 1, "case {case} {c:?}");
                    assert!(
                        w.violations().is_empty(),
                        "case {case}: {:?}",
                        w.violations()
                    );
                }
                _ => {
                    let v = w.violation(Invariant::OneChargePerOrder);
                    assert_eq!(v.is_some(), reran, "case {case} {c:?} {actions:?}");
                    if let Some(v) = v {
                        assert_eq!(v.step, StepName::Charge);
                        caught += 1;
                    }
                }
            }
        }
    }
    // The random cases do reach the interesting crash point.
    assert!(
        caught > cases / 20,
        "only {caught} re-runs in {cases} cases"
    );
}

/// The state keeps Temporal's Start-To-Close timeout and request id; a version-1 state reads
/// with the defaults, and the timeout is bounded.
#[test]
fn a_state_keeps_the_timeout_and_the_request_id_and_a_version_1_state_reads_with_defaults() {
    let s = SavedState {
        columns: vec![Config {
            start_to_close_ms: 10_000,
            request_id: RequestId::Same,
            start_again_at_ms: Some(AFTER_RETENTION_MS),
            ..Config::default()
        }],
        actions: vec![(6, Action::Crash)],
        cursor: 3,
    };
    let text = write_state(&s);
    assert_eq!(read_state_versioned(&text), Ok((s, STATE_VERSION)));
    let (old, version) =
        read_state_versioned(r#"{"version":1,"columns":[{"start_again_at_ms":550}]}"#).unwrap();
    assert_eq!(version, 1);
    assert_eq!(old.columns[0].start_to_close_ms, DEFAULT_START_TO_CLOSE_MS);
    assert_eq!(old.columns[0].request_id, RequestId::New);
    assert!(!differs_from_version_1(&old));
    for (ms, ok) in [
        (MIN_START_TO_CLOSE_MS - 1, false),
        (MIN_START_TO_CLOSE_MS, true),
        (MAX_START_TO_CLOSE_MS, true),
        (MAX_START_TO_CLOSE_MS + 1, false),
    ] {
        let text = format!(r#"{{"version":2,"columns":[{{"start_to_close_ms":{ms}}}]}}"#);
        assert_eq!(read_state(&text).is_ok(), ok, "{ms}");
    }
}

/// The state keeps how Restate is called; a state written before that field existed reads as the
/// idempotency key. A state whose Temporal column pairs RejectDuplicate with TerminateExisting is
/// read (the page says so when it opens it, `ui::durable::state`), and its run starts nothing.
#[test]
fn a_state_keeps_the_restate_target_and_a_refused_pair_reads_but_starts_nothing() {
    let s = SavedState {
        columns: vec![Config {
            engine: Engine::Restate,
            restate: RestateTarget::WorkflowRun,
            ..Config::default()
        }],
        actions: Vec::new(),
        cursor: 0,
    };
    assert_eq!(read_state(&write_state(&s)), Ok(s));
    let old = read_state(r#"{"version":1,"columns":[{"engine":"restate"}]}"#).unwrap();
    assert_eq!(old.columns[0].restate, RestateTarget::IdempotencyKey);
    assert!(read_state(r#"{"version":1,"columns":[{"restate":"send"}]}"#).is_err());
    let pair = read_state(
        r#"{"version":1,"columns":[{"reuse":"reject-duplicate","conflict":"terminate-existing"}]}"#,
    )
    .unwrap();
    assert_eq!(
        pair.columns[0].policy_error(),
        Some(PolicyError::RejectDuplicateWithTerminateExisting)
    );
    let mut run = DurableRun::new(pair.columns, pair.actions);
    run.run_to_end();
    assert!(run.worlds()[0].runs().is_empty());
    assert_eq!(run.worlds()[0].balance(), INITIAL_BALANCE);
}

/// Damaged states (truncated, bytes flipped, fields swapped for others) are refused with an
/// error or read and run; never a panic, and what is read stays within the limits.
#[test]
fn damaged_states_are_refused_or_run_never_a_panic() {
    use idempotency_playground::limits::{
        MAX_DURABLE_ACTIONS, MAX_DURABLE_COLUMNS, MAX_DURABLE_STEPS,
    };
    let cases = if cfg!(target_arch = "wasm32") {
        300
    } else {
        3_000
    };
    let mut texts = Vec::new();
    for id in LESSON_IDS {
        let l = lesson(id).unwrap();
        texts.push(write_state(&SavedState {
            columns: l.columns,
            actions: vec![
                (2, Action::Crash),
                (5, Action::Restart),
                (7, Action::StartAgain),
            ],
            cursor: 9,
        }));
    }
    let swaps = [
        ("temporal", "restate"),
        ("derived", "random"),
        ("crash", "restart"),
        ("9", "400"),
        ("\"cursor\":9", "\"cursor\":401"),
        ("true", "1"),
        ("null", "99999"),
        ("[", "[["),
        ("charge_card", "refund_card"),
        ("42", "-1"),
    ];
    let mut rng = Rng::new(7);
    let (mut read, mut refused) = (0, 0);
    for _ in 0..cases {
        let mut t = texts[rng.below(texts.len())].clone().into_bytes();
        match rng.below(3) {
            0 => t.truncate(rng.below(t.len())),
            1 => {
                let i = rng.below(t.len());
                t[i] = b" {}[],:\"0a-"[rng.below(11)];
            }
            _ => {
                let (a, b) = swaps[rng.below(swaps.len())];
                t = String::from_utf8(t).unwrap().replacen(a, b, 1).into_bytes();
            }
        }
        let Ok(text) = String::from_utf8(t) else {
            continue;
        };
        match read_state(&text) {
            Ok(s) => {
                read += 1;
                assert!((1..=MAX_DURABLE_COLUMNS).contains(&s.columns.len()));
                assert!(s.actions.len() <= MAX_DURABLE_ACTIONS && s.cursor <= MAX_DURABLE_STEPS);
                let mut run = DurableRun::new(s.columns, s.actions);
                run.seek(s.cursor);
                run.run_to_end();
                assert!(run.end() <= MAX_DURABLE_STEPS);
            }
            Err(_) => refused += 1,
        }
    }
    assert!(read > 0 && refused > 0, "read {read}, refused {refused}");
}

/// The words before a label's first colon or semicolon (the label's verdict, "half done" of
/// "half done: charged and booked, …").
fn head(label: &str) -> &str {
    label
        .split([':', '：', ';', '；'])
        .next()
        .unwrap_or(label)
        .trim()
}

/// No text shown before a question (the page's introduction, the lesson's title, its story and
/// the question itself) states its answer: neither the right choice's label as the page prints
/// it nor its verdict, in either language.
#[test]
fn no_title_introduction_story_or_question_states_the_answer() {
    use idempotency_playground::ui::i18n::Lang;
    use idempotency_playground::ui::text::{durable as words, view};
    for id in LESSON_IDS {
        let l = lesson(id).unwrap();
        let p = l
            .question
            .pose(&DurableRun::new(l.columns.clone(), Vec::new()))
            .unwrap();
        for lang in [Lang::En, Lang::Ja] {
            let w = words::lesson(lang, id);
            let before = [view::durable::INTRO.get(lang), w.title, w.story, w.ask]
                .join("\n")
                .to_lowercase();
            let right = words::answer(lang, p.answer_value()).to_lowercase();
            for said in [right.as_str(), head(&right)] {
                assert!(!before.contains(said), "{id} ({lang:?}) states «{said}»");
            }
        }
    }
}

/// The random-key challenge's words and its run agree: the engine starts the charge step again
/// after the crash, and the journal shows the step ran once, as the payment service did.
#[test]
fn the_random_key_challenge_starts_the_charge_again_and_it_runs_once() {
    let c = challenge("durable-random-once").unwrap();
    let mut run = DurableRun::new(vec![c.config.clone()], c.solution().unwrap());
    run.run_to_end();
    let w = &run.worlds()[0];
    assert!(c.won(&run));
    let rerun = w.trace().iter().any(|e| {
        matches!(
            e.kind,
            TraceKind::StepRerun {
                step: StepName::Charge,
                ..
            }
        )
    });
    assert!(rerun);
    assert_eq!(ran(w, StepName::Charge), 1);
    let entry = w.current_run().unwrap().journal.iter();
    let charge: Vec<u32> = entry
        .filter(|e| e.step == StepName::Charge)
        .map(|e| e.attempts)
        .collect();
    assert_eq!(charge, [1]);
}

/// The saga's keyed refund is in the payment service's idempotency store, beside the charge.
#[test]
fn the_sagas_keyed_refund_is_in_the_idempotency_store() {
    let l = lesson("durable-saga").unwrap();
    let w = &DurableRun::new(l.columns.clone(), Vec::new()).final_worlds()[0];
    assert_eq!(w.count(EffectKind::Refunded), 1);
    assert_eq!(w.refund_keys(), ["order-42/1/refund_card"]);
    let unkeyed = &DurableRun::new(l.columns, Vec::new()).final_worlds()[1];
    assert!(unkeyed.refund_keys().is_empty());
}

/// A column without durable execution claims no engine: its title names no clock "through the
/// engine"; a durable column's still names its clock.
#[test]
fn a_plain_columns_title_claims_no_engine() {
    use idempotency_playground::ui::i18n::Lang;
    use idempotency_playground::ui::text::{durable as words, view::durable::column_title};
    let columns = lesson("durable-resume").unwrap().columns;
    for l in [Lang::En, Lang::Ja] {
        let engine = words::clock(l, ClockMode::Engine);
        assert_eq!(columns[1].engine, Engine::Plain);
        assert!(!column_title(l, &columns[1]).contains(engine));
        assert!(column_title(l, &columns[0]).contains(engine));
        // Nor a run to derive its key from: the durable column's key words are not the plain one's.
        let derived = words::key(l, KeyMode::Derived);
        assert_eq!(columns[1].key, KeyMode::Derived);
        assert!(column_title(l, &columns[0]).contains(derived));
        assert!(!column_title(l, &columns[1]).contains(derived));
    }
}

/// At least a third of the lessons ask a second question, on a variation of their columns; the
/// others have none, and each that has one has its words.
#[test]
fn a_third_of_the_lessons_ask_a_variation_and_each_has_its_words() {
    use idempotency_playground::ui::text::durable as words;
    assert!(TRANSFER_IDS.len() * 3 >= LESSON_IDS.len());
    for id in LESSON_IDS {
        let has = TRANSFER_IDS.contains(&id);
        assert_eq!(transfer(id).is_some(), has, "{id}");
        assert_eq!(words::variation(id).is_some(), has, "{id}");
    }
}

/// Each variation's choices, as the core computes them: the right one, and for every wrong one
/// the belief that gives it.
fn expected_transfers() -> Vec<(&'static str, Beliefs)> {
    use Belief as B;
    vec![
        (
            "durable-resume",
            vec![
                (Answer::Rerun(RerunClass::Nothing), None),
                (
                    Answer::Rerun(RerunClass::OnlyUnfinished),
                    Some(B::AsInTheLesson),
                ),
                (
                    Answer::Rerun(RerunClass::FromTheTop),
                    Some(B::RestartRunsAll),
                ),
            ],
        ),
        (
            "durable-charge-key",
            vec![
                (Answer::Count(0), Some(B::CrashedStepLost)),
                (Answer::Count(1), None),
                (Answer::Count(2), Some(B::AsInTheLesson)),
            ],
        ),
        (
            "durable-retention",
            vec![
                (
                    Answer::Reply(StartReply::Started(2)),
                    Some(B::AsInTheLesson),
                ),
                (Answer::Reply(StartReply::SameResult(1)), None),
                (Answer::Reply(StartReply::Rejected), Some(B::IdRefused)),
            ],
        ),
        (
            "durable-saga",
            vec![
                (Answer::End(EndState::AllKept), Some(B::RetriedUntilDone)),
                (Answer::End(EndState::AllUndone), None),
                (Answer::End(EndState::HalfDone), Some(B::AsInTheLesson)),
            ],
        ),
    ]
}

/// Each variation is a real question: its answer, measured on the varied run, differs from what
/// the lesson's own run gives; it offers at least three choices, the right one with no belief
/// and every wrong one a named belief: "as in the lesson" giving the lesson's run's measure, and
/// every other the answer its model gives (the varied column run again under the belief).
#[test]
fn each_variation_is_measured_on_its_run_and_every_wrong_choice_is_a_named_belief() {
    let want = expected_transfers();
    assert_eq!(want.len(), TRANSFER_IDS.len());
    for (id, want) in want {
        let t = transfer(id).unwrap();
        let l = lesson(id).unwrap();
        let (varied, p, beliefs) = t.pose().unwrap();
        let applied: Vec<Config> = l
            .columns
            .iter()
            .map(|c| t.variation.apply(c.clone()))
            .collect();
        assert_eq!(varied, applied, "{id}");
        assert_ne!(varied, l.columns, "{id}: the variation changes the run");
        let got: Vec<(Answer, Option<Belief>)> = p.choices.iter().copied().zip(beliefs).collect();
        assert_eq!(got, want, "{id}");
        let own = DurableRun::new(l.columns.clone(), Vec::new()).final_worlds();
        let own = t.measure.of(&own[t.column]).unwrap();
        assert_ne!(
            p.answer_value(),
            own,
            "{id}: the variation changes the answer"
        );
        let run = DurableRun::new(varied.clone(), Vec::new());
        let truth = &run.final_worlds()[t.column];
        assert_eq!(t.measure.of(truth), Some(p.answer_value()), "{id}");
        for (a, b) in got.iter().filter_map(|(a, b)| Some((*a, (*b)?))) {
            let predicted = if b == Belief::AsInTheLesson {
                own
            } else {
                let m = b.model(&varied[t.column], truth).expect(id);
                let w = DurableRun::new(vec![m], Vec::new()).final_worlds();
                t.measure.of(&w[0]).unwrap()
            };
            assert_eq!(predicted, a, "{id}: {b:?}");
        }
    }
}

/// No variation's question states its answer: neither the right choice's label as the page
/// prints it nor its verdict, in either language.
#[test]
fn no_variation_question_states_its_answer() {
    use idempotency_playground::ui::i18n::Lang;
    use idempotency_playground::ui::text::durable as words;
    for id in TRANSFER_IDS {
        let (_, p, _) = transfer(id).unwrap().pose().unwrap();
        let w = words::variation(id).unwrap();
        for lang in [Lang::En, Lang::Ja] {
            let ask = w.ask.get(lang).to_lowercase();
            let right = words::answer(lang, p.answer_value()).to_lowercase();
            for said in [right.as_str(), head(&right)] {
                assert!(!ask.contains(said), "{id} ({lang:?}) states «{said}»");
            }
        }
    }
}
