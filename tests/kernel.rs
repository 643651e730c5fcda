//! One test over every model the kernel runs (issue 27): for each, from many starts, the
//! generic [`Cursor`] seeking to a step k — forward, and back after reaching the end — gives
//! exactly the model that k plain steps from the start give, with the same invariant findings;
//! and the findings of a step never change when later steps are taken (they are checked after
//! every step, not at the end).

use idempotency_playground::durable;
use idempotency_playground::kafka;
use idempotency_playground::kernel::{Cursor, Model};
use idempotency_playground::lab;
use idempotency_playground::{builtin, builtin_ids};

mod common;
use common::Rng;

/// `k` plain steps from `start`.
fn forward<M: Model>(start: &M, k: usize) -> M {
    let mut m = start.clone();
    while m.steps() < k && m.step() {}
    m
}

/// The kernel's promise for one model from one start, at the steps `picks` draws.
fn check<M: Model + PartialEq + std::fmt::Debug>(name: &str, start: M, rng: &mut Rng) -> usize {
    let end = forward(&start, usize::MAX);
    let n = end.steps();
    // Checked after every step: what step k found is a prefix of what the end found.
    let mut history = Vec::with_capacity(n + 1);
    let mut m = start.clone();
    history.push(m.checked());
    while m.step() {
        history.push(m.checked());
    }
    assert_eq!(m, end, "{name}: two forward runs differ");
    let mut c = Cursor::with_spacing(start.clone(), 1 + rng.below(40));
    c.seek(usize::MAX);
    assert_eq!(c.at(), &end, "{name}: the cursor's end differs");
    for _ in 0..12 {
        let k = rng.below(n + 1);
        c.seek(k);
        let plain = forward(&start, k);
        assert_eq!(
            c.at(),
            &plain,
            "{name}: seek({k}) differs from {k} plain steps"
        );
        assert_eq!(c.at().checked(), history[k], "{name}: findings at {k}");
        if k > 0 {
            c.back();
            assert_eq!(c.position(), k - 1, "{name}");
        }
    }
    n
}

#[test]
fn every_model_seeks_and_steps_back_as_it_runs_forward() {
    let mut rng = Rng::new(27);
    let mut steps = [0usize; 3];
    // Kafka: every lesson and challenge solution, and random sends and faults.
    for id in kafka::LESSON_IDS {
        let s = kafka::lesson(id).expect("lesson").scenario;
        steps[0] += check(id, kafka::Sim::new(&s), &mut rng);
    }
    for id in kafka::CHALLENGE_IDS {
        let s = kafka::challenge(id).expect("challenge").solution;
        steps[0] += check(id, kafka::Sim::new(&s), &mut rng);
    }
    // Durable execution: each lesson's columns, one world each.
    for id in durable::LESSON_IDS {
        let l = durable::lesson(id).expect("lesson");
        for config in l.columns {
            steps[1] += check(id, durable::World::new(config), &mut rng);
        }
    }
    // The payments world: every built-in scenario's worlds.
    for id in builtin_ids() {
        let worlds = builtin(id).expect("scenario").worlds().expect("worlds");
        for world in worlds {
            steps[2] += check(id, world, &mut rng);
        }
    }
    // Not vacuous: each model ran real steps (Kafka, durable, the payments world).
    assert!(steps.iter().all(|&n| n > 100), "{steps:?}");
}

/// The two runs whose future the learner writes, on the same cursor: acting in a durable run
/// (crash, restart, start again) and moving a request in the lab. Wherever the learner acts
/// or steps back, the run equals a fresh run of the script as it now stands, replayed to the
/// same step; stepping back and forward again passes through the same states.
#[test]
fn runs_the_learner_rewrites_equal_a_fresh_run_of_their_script() {
    let mut rng = Rng::new(2_027);
    let mut acted = 0;
    for id in durable::LESSON_IDS {
        let columns = durable::lesson(id).expect("lesson").columns;
        let mut run = durable::DurableRun::new(columns.clone(), Vec::new());
        for _ in 0..40 {
            match rng.below(4) {
                0 => {
                    let k = rng.below(run.end() + 1);
                    run.seek(k);
                }
                1 => run.back(),
                _ => {
                    let action = durable::Action::ALL[rng.below(3)];
                    if run.act(action).is_ok() {
                        acted += 1;
                    }
                }
            }
            let mut fresh = durable::DurableRun::new(columns.clone(), run.actions().to_vec());
            fresh.seek(run.cursor());
            assert_eq!(fresh.worlds(), run.worlds(), "{id} at {}", run.cursor());
            assert_eq!(fresh.end(), run.end(), "{id}");
        }
    }
    assert!(acted > 20, "the learner acted {acted} times");

    let mut stepped = 0;
    for seed in 0..30 {
        let scenario = lab::LabScenario::default();
        let mut run = lab::Stepper::new(scenario.clone());
        for _ in 0..30 {
            if rng.below(3) == 0 {
                let _ = run.step_back();
            } else if run
                .step_with(lab::Policy::Random { seed: seed + 7 })
                .is_ok()
            {
                stepped += 1;
            }
            let fresh = lab::Stepper::replay(scenario.clone(), run.schedule()).expect("replays");
            assert_eq!(fresh.state(), run.state(), "seed {seed}");
            assert_eq!(fresh.trace(), run.trace(), "seed {seed}");
        }
    }
    assert!(stepped > 100, "{stepped} lab steps");
}
