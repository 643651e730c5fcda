//! The lesson path's judging, natively and in the browser: every built-in lesson's question poses
//! against its run with the answer measured on that run, and adapts (or says it no longer
//! applies) when the run changes; every challenge starts unwon, refuses moves it does not allow,
//! and is won by its solution at the step the goal is met, not before.

use idempotency_playground::lab::{Explorer, Policy, Search, Stepper};
use idempotency_playground::lesson::{NotPosed, Value};
use idempotency_playground::teach::*;
use idempotency_playground::*;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn session(s: Scenario) -> Session {
    Session::new(s).expect("a valid scenario")
}

#[test]
fn every_lesson_asks_a_question_whose_answer_is_measured_on_its_run() {
    for id in builtin_ids() {
        let s = session(builtin(id).unwrap());
        let q = question(id).unwrap_or_else(|| panic!("{id} asks nothing"));
        let p = q.pose(&s).unwrap_or_else(|e| panic!("{id}: {e:?}"));
        // At least three choices, each wrong one a belief whose model predicts it.
        assert!((3..=4).contains(&p.choices.len()), "{id}: {:?}", p.choices);
        let world = s.finished(p.column).unwrap();
        for (i, g) in p.choices.iter().enumerate() {
            assert!(
                p.choices[..i].iter().all(|h| h.value != g.value),
                "{id}: choices repeat"
            );
            assert_eq!(g.belief.is_none(), i == p.answer, "{id}: {g:?}");
            if let Some(b) = g.belief {
                assert_eq!(
                    b.predicts(q.measure, world, p.ask_at),
                    Some(g.value),
                    "{id}: {b:?} does not predict {g:?}"
                );
            }
        }
        assert_eq!(
            p.answer_value().value,
            q.measure.of(world),
            "{id}: the answer is the run's"
        );
        assert!(p.ask_at < s.total(), "{id}: asked before the end");
        assert!(
            p.shows_at > p.ask_at && p.shows_at <= s.total(),
            "{id}: {p:?}"
        );
        // The value on the page when asked (after the first step) is among the choices: the
        // "nothing more happens" belief comes first.
        let before = q.measure.of(&world.rewind(p.ask_at).unwrap());
        assert!(
            p.ask_at == 0 || p.choices.iter().any(|g| g.value == before),
            "{id}: {before:?} not offered"
        );
        // The step the explanation names shows the answer: a count that grew has its final
        // value there and not one step earlier (not a later event of another key or order).
        if q.measure.is_count() && before != p.answer_value().value {
            let at = |k: usize| q.measure.of(&world.rewind(k).unwrap());
            assert_eq!(at(p.shows_at), p.answer_value().value, "{id}: {p:?}");
            assert_ne!(at(p.shows_at - 1), p.answer_value().value, "{id}: {p:?}");
        }
    }
}

/// Found by a walk-through: lesson 15.2's explanation named order 3's first charge (step 18),
/// not order 1's second (step 11), and 15.1's named the processor's answer after the charge.
#[test]
fn the_explanations_name_the_step_of_the_charge_that_decides() {
    for id in ["store-failures", "slow-processor"] {
        let s = session(builtin(id).unwrap());
        let p = question(id).unwrap().pose(&s).unwrap();
        let world = s.finished(p.column).unwrap();
        let charged_at: Vec<usize> = world
            .trace()
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Charge { .. } | EventKind::ProcessorCharge { .. }
                )
            })
            .map(|e| e.step)
            .collect();
        assert!(
            charged_at.contains(&p.shows_at),
            "{id}: {} not in {charged_at:?}",
            p.shows_at
        );
    }
}

#[test]
fn the_answers_are_what_the_article_says() {
    // Spot checks of the core's answers against the article's claims (the lessons never type
    // them): the naive retry charges twice, TOCTOU lets both concurrent requests charge, the
    // atomic lock lets one, ten threads on TOCTOU charge ten times.
    let answer = |id: &str| {
        let s = session(builtin(id).unwrap());
        question(id).unwrap().pose(&s).unwrap().answer_value().value
    };
    assert_eq!(answer("double-charge"), Value::Int(800));
    assert_eq!(answer("concurrent-same-key"), Value::Int(2));
    assert_eq!(answer("atomic-lock"), Value::Int(1));
    assert_eq!(answer("ten-threads"), Value::Int(10));
    // Commit-then-publish: the charge that committed before its crash is never published.
    assert_eq!(answer("dual-write"), Value::Int(0));
    assert_eq!(answer("timeout-ambiguity"), Value::Int(1));
}

#[test]
fn a_question_adapts_to_a_changed_run_or_says_it_no_longer_applies() {
    let q = question("double-charge").unwrap();
    // Another amount: the same question, another answer.
    let mut s = builtin("double-charge").unwrap();
    if let Input::Operation { amount, .. } = &mut s.inputs[0] {
        *amount = 50;
    }
    let p = q.pose(&session(s)).unwrap();
    assert_eq!(p.answer_value().value, Value::Int(900));
    // The naive column removed: the question is about a service the run no longer has.
    let mut s = builtin("double-charge").unwrap();
    s.services.remove(0);
    assert_eq!(
        q.pose(&session(s)),
        Err(NotPosed::NoSuchColumn(ServiceKind::Naive))
    );
    // The column moved: the question follows its service.
    let mut s = builtin("double-charge").unwrap();
    s.services.rotate_left(1);
    assert_eq!(q.pose(&session(s)).unwrap().column, 2);
    // No retry: the moment it asks at (the second arrival) never comes.
    let mut s = builtin("double-charge").unwrap();
    if let Input::Operation { max_attempts, .. } = &mut s.inputs[0] {
        *max_attempts = 1;
    }
    assert_eq!(q.pose(&session(s)), Err(NotPosed::NeverAsked));
}

fn at_end(mut s: Session) -> Session {
    let t = s.total();
    s.seek(t);
    s
}

#[test]
fn every_challenge_starts_open_and_its_solution_wins_at_the_step_that_meets_the_goal() {
    for id in CHALLENGE_IDS {
        let c = challenge(id).unwrap();
        assert!(
            !c.won(&at_end(session(c.start.clone()))),
            "{id} won at the start"
        );
        assert_eq!(c.accepts(&c.start), Ok(()));
        let solved = c.solved();
        assert_eq!(
            c.accepts(&solved),
            Ok(()),
            "{id}: its solution breaks its rules"
        );
        assert!(c.moves_used(&solved) <= c.max_moves);
        // Checked after every step: open up to some step, won from there on.
        let mut s = session(solved);
        let won_at = (0..=s.total()).find(|&k| {
            s.seek(k);
            c.won(&s)
        });
        let k = won_at.unwrap_or_else(|| panic!("{id}: the solution does not win"));
        assert!(k > 0, "{id}");
        for later in k..=s.total() {
            s.seek(later);
            assert!(c.won(&s), "{id}: a win does not go away at step {later}");
        }
    }
}

/// What each challenge's solution breaks when it wins (the invariants `World::violations` names),
/// and so what its debrief names: none for a 409 (the guard holding) or for two answers (only
/// successes are stored, so nothing is replayed).
fn breaks(id: &str) -> &'static [Invariant] {
    use Invariant::*;
    match id {
        "triple-charge" | "split-store-one-crash" | "expiry-twice" | "slow-lock-double" => {
            &[OneChargePerKey, OneChargePerOperation]
        }
        "new-key-double" => &[OneChargePerOperation],
        "lose-an-event" => &[OneEventPerCharge],
        "another-receipt" => &[OwnAccountAnswers],
        "get-a-409" | "two-answers" => &[],
        _ => panic!("{id}: say what its solution breaks"),
    }
}

#[test]
fn every_challenge_debrief_names_the_invariants_its_solution_broke_at_the_cursor() {
    for id in CHALLENGE_IDS {
        let c = challenge(id).unwrap();
        let mut s = session(c.solved());
        // Before the first step: nothing broken yet.
        assert_eq!(c.broken(&s), [], "{id}");
        // At the win: what the goal's column has broken there, each with its step.
        let won_at = (0..=s.total())
            .find(|&k| {
                s.seek(k);
                c.won(&s)
            })
            .unwrap();
        let b = c.broken(&s);
        let names: Vec<_> = b.iter().map(|n| n.0).collect();
        assert_eq!(names, breaks(id), "{id}: at the win");
        let world = &s.worlds()[c.goal.column];
        for (n, v) in b.iter().zip(world.violations()) {
            assert_eq!(*n, (v.invariant, v.step), "{id}");
            assert!(n.1 <= won_at, "{id}: {n:?} after the win at {won_at}");
        }
        // At the end, where an opened solution stands: the same.
        let t = s.total();
        s.seek(t);
        assert_eq!(c.broken(&s), b, "{id}: at the end");
    }
}

#[test]
fn a_challenge_refuses_what_it_does_not_allow() {
    let c = challenge("triple-charge").unwrap();
    let deposit = Input::Deposit { amount: 5 };
    assert_eq!(
        c.check_move(&c.start, &deposit),
        Err(MoveRefused::NotAllowed(MoveKind::Deposit))
    );
    let solved = c.solved();
    let retry = Input::Retry {
        new_key: false,
        fault: Fault::None,
    };
    assert_eq!(
        c.check_move(&solved, &retry),
        Err(MoveRefused::NoMovesLeft { max: 2 })
    );
    // A linked run with another service, or one more move than allowed, is not this challenge.
    let mut other = solved.clone();
    other.services = vec![ServiceKind::Atomic.into()];
    assert_eq!(c.accepts(&other), Err(MoveRefused::NotThisChallenge));
    let mut over = solved.clone();
    over.inputs.push(retry);
    assert_eq!(c.accepts(&over), Err(MoveRefused::NoMovesLeft { max: 2 }));
    // One crash at most.
    let c = challenge("split-store-one-crash").unwrap();
    let crash = |fault| Input::Request {
        key: Some("k".into()),
        key_format: KeyFormat::V4,
        amount: 100,
        description: "order-1".into(),
        fault,
    };
    let mut one = c.start.clone();
    one.inputs.push(crash(Fault::CrashAfterChargeBeforeRecord));
    assert_eq!(
        c.check_move(&one, &crash(Fault::CrashBeforeCharge)),
        Err(MoveRefused::TooManyCrashes { max: 1 })
    );
    assert_eq!(c.check_move(&one, &crash(Fault::None)), Ok(()));
}

#[test]
fn the_lab_challenges_are_won_by_a_schedule_and_by_a_proof() {
    let all = lab_challenge("toctou-all-three").unwrap();
    let won = Stepper::replay(all.scenario.clone(), &all.solution).unwrap();
    assert!(all.won_by_stepper(&won));
    // Running one request to its end before the next never wins: the later ones replay.
    let serial = Stepper::replay(all.scenario.clone(), &[0, 0, 0, 1, 1, 1, 2, 2, 2]).unwrap();
    assert!(serial.is_complete() && !all.won_by_stepper(&serial));
    let mut turns = Stepper::new(all.scenario.clone());
    turns.run_to_end(Policy::RoundRobin).unwrap();
    assert!(turns.is_complete());

    let safe = lab_challenge("atomic-impossible").unwrap();
    let report = Explorer::new(&safe.scenario, Search::Exhaustive { caching: true })
        .unwrap()
        .run_to_end()
        .unwrap();
    assert!(safe.won_by_report(&safe.scenario, &report));
    // The same search on TOCTOU finds double charges: no proof, no win.
    let toctou = safe.scenario.with_model(lab::Model::TocTou);
    let report = Explorer::new(&toctou, Search::Exhaustive { caching: true })
        .unwrap()
        .run_to_end()
        .unwrap();
    assert!(report.double_charge > 0 && !safe.won_by_report(&toctou, &report));
    // A sample is not a proof.
    let sample = Explorer::new(
        &safe.scenario,
        Search::Sample {
            samples: 50,
            seed: 1,
        },
    )
    .unwrap()
    .run_to_end()
    .unwrap();
    assert!(!safe.won_by_report(&safe.scenario, &sample));
}

/// A third of the lessons ask a second question on a variation they did not run; its answer is
/// measured on the varied run, which differs from the lesson's own in what it changed, and its
/// wrong choices are beliefs as a lesson's are.
#[test]
fn a_third_of_the_lessons_ask_about_a_variation_measured_on_its_own_run() {
    let with: Vec<&str> = builtin_ids()
        .iter()
        .copied()
        .filter(|id| transfer(id).is_some())
        .collect();
    assert!(with.len() * 3 >= builtin_ids().len(), "{with:?}");
    for id in with {
        let t = transfer(id).unwrap();
        let (varied, p) = t.pose().unwrap_or_else(|e| panic!("{id}: {e:?}"));
        assert_ne!(
            varied,
            builtin(id).unwrap(),
            "{id}: the variation changes the run"
        );
        assert!((3..=4).contains(&p.choices.len()), "{id}: {:?}", p.choices);
        let s = session(varied);
        let world = s.finished(t.column).unwrap();
        assert_eq!(p.answer_value().value, t.measure.of(world), "{id}");
        let seen = t
            .measure
            .of(session(builtin(id).unwrap()).finished(t.column).unwrap());
        for g in p.choices.iter() {
            match g.belief {
                None => assert_eq!(g.value, p.answer_value().value),
                Some(Belief::AsInTheLesson) => assert_eq!(g.value, seen, "{id}"),
                Some(b) => assert_eq!(b.predicts(t.measure, world, 0), Some(g.value), "{id}"),
            }
        }
        eprintln!("{id}: {:?}", p.choices);
    }
    // Spot checks: the cases the issue names.
    let answer = |id: &str| transfer(id).unwrap().pose().unwrap().1.answer_value().value;
    for (id, right, why) in [
        (
            "stripe-in-flight",
            0,
            "a finished key is replayed, not refused",
        ),
        (
            "double-charge",
            900,
            "a 503 that charged nothing is safe to retry, even without a key",
        ),
        (
            "ten-threads",
            5,
            "the balance check stops the race only when the money runs out",
        ),
        (
            "store-failures",
            1,
            "with room for two keys nothing is evicted",
        ),
        (
            "failure-cached",
            0,
            "without the deposit the retried failure fails again",
        ),
        ("slow-processor", 1, "inside the lock, one charge"),
    ] {
        assert_eq!(answer(id), Value::Int(right), "{id}: {why}");
    }
}

/// Found by a walk-through: of the naive service, which never looks a key up, the wrong choice
/// read "looking the key up before charging makes any retry safe". There the belief is that the
/// key alone is enough, computed by the same model (the atomic service).
#[test]
fn of_a_service_that_keeps_no_keys_the_belief_is_the_key_alone() {
    let mut offered = 0;
    for id in builtin_ids() {
        let s = session(builtin(id).unwrap());
        let q = question(id).unwrap();
        let posed = q.pose(&s).unwrap();
        let naive = s.scenario().services[posed.column].kind() == ServiceKind::Naive;
        for g in posed.choices {
            match g.belief {
                Some(Belief::LikeService(ServiceKind::Atomic)) => assert!(!naive, "{id}"),
                Some(Belief::KeyAlone) => {
                    assert!(naive, "{id}");
                    offered += 1;
                }
                _ => {}
            }
        }
    }
    assert!(offered > 0, "some lesson about the naive service offers it");
}

/// Found by a walk-through: lesson 2.2's wrong choice 800 read "the server catches this for you
/// (the same inputs on the production service)", a service the lesson never shows. A belief
/// names the service whose model computed it only when that service is a column on the page;
/// a service off the page gives the belief alone (`Unseen`), and those on the page come first.
#[test]
fn a_wrong_choice_names_only_a_service_the_lesson_shows() {
    let (mut named, mut unnamed) = (0, 0);
    for id in builtin_ids() {
        let s = session(builtin(id).unwrap());
        let shown: Vec<ServiceKind> = s.scenario().services.iter().map(|c| c.kind()).collect();
        for g in question(id).unwrap().pose(&s).unwrap().choices {
            match g.belief {
                Some(Belief::LikeService(k)) => {
                    assert!(shown.contains(&k), "{id}: {k:?} is not on the page");
                    named += 1;
                }
                Some(Belief::Unseen(k)) => {
                    assert!(!shown.contains(&k), "{id}: {k:?} is on the page, by name");
                    unnamed += 1;
                }
                _ => {}
            }
        }
    }
    assert!(named > 0 && unnamed > 0, "{named} named, {unnamed} unnamed");
    // 2.2's 600 is the separate-store service's, a column of that lesson, not TOCTOU's.
    let s = session(builtin("client-cannot-tell").unwrap());
    let choices = question("client-cannot-tell")
        .unwrap()
        .pose(&s)
        .unwrap()
        .choices;
    let of = |v: i64| {
        choices
            .iter()
            .find(|g| g.value == Value::Int(v))
            .and_then(|g| g.belief)
    };
    assert_eq!(of(600), Some(Belief::LikeService(ServiceKind::SplitStore)));
    // Its 800 was "the server catches this for you", unnamed: the production service's own
    // slip, which one who holds that belief would not predict. Now the choice is not offered.
    assert_eq!(of(800), None);
    assert!(choices.len() >= 3, "{choices:?}");
}

/// Found by a walk-through: beside a count of 409 answers, choice 3 was "every try the client
/// sends is charged". A belief about charges speaks only to counts of charges; the 409
/// question's "2" is the learner who takes idempotency for refusing every repeat.
#[test]
fn every_wrong_choice_is_a_belief_about_what_the_question_counts() {
    for id in builtin_ids() {
        let s = session(builtin(id).unwrap());
        let q = question(id).unwrap();
        for g in q.pose(&s).unwrap().choices {
            match g.belief {
                Some(Belief::EveryTryCharges) => assert!(q.measure.counts_charges(), "{id}"),
                Some(Belief::RepeatsRefused) => assert_eq!(q.measure, Measure::Conflicts, "{id}"),
                _ => {}
            }
        }
    }
    let s = session(builtin("stripe-in-flight").unwrap());
    let choices = question("stripe-in-flight")
        .unwrap()
        .pose(&s)
        .unwrap()
        .choices;
    assert!(choices.contains(&Guess {
        value: Value::Int(2),
        belief: Some(Belief::RepeatsRefused)
    }));
}

/// A question stops the run before any column reaches the moment it asks about, not only the
/// column asked: a quicker column would otherwise show its outcome (a red badge, a second
/// answer) while the learner is still predicting (the walk-through found it in 11.4 and 17.1).
#[test]
fn no_column_passes_the_moment_a_question_waits_for() {
    for id in builtin_ids() {
        let Some(q) = question(id) else { continue };
        let n = match q.ask {
            Ask::BeforeArrival(n) => n as usize,
            _ => continue,
        };
        let s = session(builtin(id).unwrap());
        let p = q.pose(&s).unwrap();
        for column in 0..s.scenario().services.len() {
            let at = s.finished(column).unwrap().rewind(p.ask_at).unwrap();
            let delivered = at
                .trace()
                .iter()
                .filter(|e| matches!(e.kind, EventKind::RequestDelivered { .. }))
                .count();
            assert!(
                delivered < n,
                "{id}: column {column} has had {delivered} requests at the question's step {}",
                p.ask_at
            );
            assert!(
                at.violations().is_empty(),
                "{id}: column {column} already shows a broken invariant while the question waits"
            );
        }
    }
}
