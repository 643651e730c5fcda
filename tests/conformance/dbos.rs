//! Conformance: DBOS, against the durable page's engine (`idempotency_playground::durable`).
//! Each case translates one test of dbos-inc/dbos-transact-py at commit 6bc3032f8bd3
//! (2.30.0-6-g6bc3032f), or a page of docs.dbos.dev, into the page's world: one client starting
//! workflow id `order-42` (`SetWorkflowID`), a second start at 550 ms (the workflow is PENDING)
//! or at 5 s (it has ended).

use idempotency_playground::durable::*;

fn run_to_end(config: Config) -> World {
    let mut w = World::new(config);
    while w.step() {}
    w
}

fn dbos(again_at: Option<u64>) -> Config {
    Config {
        engine: Engine::Dbos,
        start_again_at_ms: again_at,
        ..Config::default()
    }
}

fn ran(w: &World, step: StepName) -> usize {
    w.trace()
        .iter()
        .filter(|e| matches!(e.kind, TraceKind::StepRan { step: s, .. } if s == step))
        .count()
}

/// dbos-inc/dbos-transact-py@6bc3032f8bd3, tests/test_dbos.py `test_simple_workflow` ("Test
/// OAOO"; "Starting a completed workflow by ID returns its recorded result"): calling or starting
/// a workflow again under the id of a completed one returns its result; the workflow function
/// and its steps do not run again (`wf_counter`, `step_counter` unchanged).
#[test]
fn a_completed_workflow_id_started_again_returns_its_result_without_running() {
    let w = run_to_end(dbos(Some(5_000)));
    assert_eq!(w.runs()[0].status, RunStatus::Completed);
    assert_eq!(w.replies()[1], StartReply::SameResult(1));
    assert_eq!(w.runs().len(), 1);
    assert_eq!(ran(&w, StepName::Charge), 1);
    assert_eq!(w.count(EffectKind::Charged), 1);
}

/// dbos-inc/dbos-transact-py@6bc3032f8bd3, tests/test_dbos.py `test_exception_workflow`
/// ("Starting a failed workflow by ID surfaces its recorded error, not a new run"): a workflow
/// that raised is ERROR; started again under its id, its handle raises the recorded error and
/// the function does not run (`wf_counter == 2`).
#[test]
fn a_failed_workflow_id_started_again_returns_its_error_not_a_new_run() {
    let w =
        run_to_end(dbos(Some(5_000)).with_fault(StepName::Receipt, Some(FaultKind::FailPermanent)));
    assert_eq!(w.runs()[0].status, RunStatus::Failed);
    assert_eq!(w.replies()[1], StartReply::SameResult(1));
    assert_eq!(w.runs().len(), 1);
    assert_eq!(ran(&w, StepName::Charge), 1);
}

/// dbos-inc/dbos-transact-py@6bc3032f8bd3, tests/test_queue.py `test_duplicate_workflow_id` ("It's
/// okay to call the same workflow with the same ID again"): starting the same workflow function
/// under the id of a workflow still running returns a handle to it, not a second execution.
#[test]
fn a_running_workflow_id_started_again_returns_a_handle_to_it() {
    let w = run_to_end(dbos(Some(550)));
    assert_eq!(w.replies()[1], StartReply::Attached(1));
    assert_eq!(w.runs().len(), 1);
    assert_eq!(w.runs()[0].status, RunStatus::Completed);
    assert_eq!(w.count(EffectKind::Charged), 1);
}

/// dbos-inc/dbos-transact-py@6bc3032f8bd3, tests/test_dbos.py `test_recovery_workflow_step`:
/// recovering a PENDING workflow executes the workflow function again (`wf_counter == 2`) but not
/// a step whose output is recorded (`step_counter == 1`), and the workflow ends with its result.
#[test]
fn recovery_runs_the_function_again_and_skips_steps_with_recorded_output() {
    let w = run_to_end(dbos(None).with_fault(StepName::Charge, Some(FaultKind::CrashAfterJournal)));
    assert!(w
        .trace()
        .iter()
        .any(|e| matches!(e.kind, TraceKind::Restarted { .. })));
    let run = w.current_run().unwrap();
    assert_eq!(run.status, RunStatus::Completed);
    assert!(run
        .journal
        .iter()
        .any(|e| e.step == StepName::Charge && e.replayed));
    assert_eq!(ran(&w, StepName::Reserve), 1);
    assert_eq!(ran(&w, StepName::Charge), 1);
}

/// https://docs.dbos.dev/rust/tutorials/step-tutorial ("Steps execute at least once: if a process
/// crashes after a step's side effects but before the step is checkpointed, the step re-executes
/// on recovery"), as of August 2026: a charge without a key is made twice.
#[test]
fn a_step_not_checkpointed_before_the_crash_runs_again_on_recovery() {
    let w = run_to_end(
        Config {
            key: KeyMode::None,
            ..dbos(None)
        }
        .with_fault(StepName::Charge, Some(FaultKind::CrashAfterEffect)),
    );
    assert_eq!(ran(&w, StepName::Charge), 2);
    assert_eq!(w.count(EffectKind::Charged), 2);
    assert_eq!(w.current_run().unwrap().status, RunStatus::Completed);
}

/// dbos-inc/dbos-transact-py@6bc3032f8bd3, tests/test_failures.py `test_nondeterministic_workflow`
/// (and dbos/_sys_db.py: "If the provided and recorded function name are different, throw an
/// exception"): a re-execution that calls another step than the one recorded at its position
/// raises DBOSUnexpectedStepError, and the workflow ends in that error.
#[test]
fn a_step_other_than_the_recorded_one_fails_the_workflow() {
    let w = run_to_end(
        Config {
            clock: ClockMode::Direct,
            ..dbos(None)
        }
        .with_fault(StepName::Receipt, Some(FaultKind::CrashAfterEffect)),
    );
    assert_eq!(w.mismatch().map(|m| m.1), Some(Verdict::Failed));
    let run = w.current_run().unwrap();
    assert_eq!(run.status, RunStatus::Failed);
    assert_eq!(
        run.mismatch,
        Some((2, StepName::ShipExpress, StepName::ShipStandard))
    );
    assert_eq!(ran(&w, StepName::ShipStandard), 0);
}

/// dbos-inc/dbos-transact-py@6bc3032f8bd3, dbos/_dbos.py `DBOS.step` (`retries_allowed: bool =
/// False`) and tests/test_failures.py `test_step_retries` (retries happen only with
/// `retries_allowed=True`): by default a step's exception is raised into the workflow at once,
/// so a workflow that does not catch it fails.
#[test]
#[ignore = "simplification: the page retries a step that fails once under every engine (1 s, then 2 s, …); a DBOS step retries only when declared with retries_allowed"]
fn a_step_without_retries_allowed_raises_its_first_failure() {
    let w = run_to_end(dbos(None).with_fault(StepName::Charge, Some(FaultKind::FailOnce)));
    assert_eq!(w.current_run().unwrap().status, RunStatus::Failed);
    assert_eq!(ran(&w, StepName::Charge), 0);
}

/// dbos-inc/dbos-transact-py@6bc3032f8bd3, tests/test_failures.py `test_recovery_attempts` (a
/// workflow recovered more times than its `max_recovery_attempts` is
/// MAX_RECOVERY_ATTEMPTS_EXCEEDED) and dbos/_registrations.py (`DEFAULT_MAX_RECOVERY_ATTEMPTS =
/// 100`): recovery stops; the workflow does not complete.
#[test]
#[ignore = "simplification: recovery never gives up in the page; DBOS stops after max_recovery_attempts (100 by default)"]
fn recovery_stops_after_max_recovery_attempts() {
    let mut w = World::new(Config {
        auto_restart: false,
        ..dbos(None)
    });
    w.step();
    for _ in 0..=100 {
        w.crash_now();
        w.restart_now();
    }
    while w.step() {}
    assert_ne!(w.current_run().unwrap().status, RunStatus::Completed);
}
