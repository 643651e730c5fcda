//! The services as SQL on a real PostgreSQL (feature `pg`; `scripts/test.sh pg` starts a
//! throwaway server with scripts/pg.sh and runs this file one test at a time). What the lessons
//! say about databases, checked on one: which variants double-charge on the lab's counterexample
//! schedule, which never do on any schedule of two requests, and the article's 10-thread race.

use idempotency_playground::pg::{self, RaceConfig};
use idempotency_playground::postgres::{
    all_two_request_schedules, counterexample_schedule, model_charges, Outcome, Variant,
};
use postgres::Client;

fn url() -> String {
    std::env::var("PG_RACE_URL").expect(
        "PG_RACE_URL is not set: run these tests through `scripts/test.sh pg` (or set it to a scratch database)",
    )
}

/// An admin connection (schema created afresh) and `n` request connections.
fn server(n: usize) -> (Client, Vec<Client>) {
    let mut admin = pg::connect(&url()).expect("connect");
    pg::create_schema(&mut admin).expect("schema");
    let clients = (0..n)
        .map(|_| pg::connect(&url()).expect("connect"))
        .collect();
    (admin, clients)
}

const UNSAFE: [Variant; 3] = [Variant::Naive, Variant::TocTou, Variant::TxCheckInsert];

#[test]
fn the_unsafe_variants_double_charge_on_the_labs_counterexample() {
    let (mut admin, mut two) = server(2);
    let schedule = counterexample_schedule();
    for v in UNSAFE {
        let run = pg::run_schedule(&mut admin, &mut two, v, &schedule, 1000, 100).unwrap();
        assert_eq!(run.charges, 2, "{v:?} on {schedule:?}: {run:?}");
        assert_eq!(
            run.outcomes,
            vec![Outcome::Charged, Outcome::Charged],
            "{v:?}"
        );
    }
}

#[test]
fn one_transaction_at_read_committed_is_not_the_models_one_lock() {
    // The lab equates one transaction with the atomic service's lock and predicts one charge;
    // READ COMMITTED with check-then-insert and no constraint charges twice.
    let (mut admin, mut two) = server(2);
    let schedule = counterexample_schedule();
    assert_eq!(model_charges(Variant::TxCheckInsert, &schedule), Some(1));
    let run = pg::run_schedule(
        &mut admin,
        &mut two,
        Variant::TxCheckInsert,
        &schedule,
        1000,
        100,
    )
    .unwrap();
    assert_eq!(run.charges, 2);
    assert!(
        run.blocked_steps > 0,
        "the second charge waited for the first one's row lock"
    );
}

#[test]
fn the_safe_variants_never_double_charge_on_any_schedule_of_two_requests() {
    let (mut admin, mut two) = server(2);
    for v in Variant::ALL.into_iter().filter(|v| !UNSAFE.contains(v)) {
        for schedule in all_two_request_schedules() {
            let run = pg::run_schedule(&mut admin, &mut two, v, &schedule, 1000, 100).unwrap();
            assert_eq!(run.charges, 1, "{v:?} on {schedule:?}: {run:?}");
            // Exactly one request charged; the other replayed, or (the unique constraint's
            // way) failed with 23505 after its own charge was rolled back.
            let charged = run
                .outcomes
                .iter()
                .filter(|o| **o == Outcome::Charged)
                .count();
            assert_eq!(charged, 1, "{v:?} on {schedule:?}: {:?}", run.outcomes);
        }
    }
}

#[test]
fn the_three_lock_model_predicts_postgres_on_every_schedule() {
    let (mut admin, mut two) = server(2);
    for schedule in all_two_request_schedules() {
        let run =
            pg::run_schedule(&mut admin, &mut two, Variant::TocTou, &schedule, 1000, 100).unwrap();
        assert_eq!(
            Some(run.charges as usize),
            model_charges(Variant::TocTou, &schedule),
            "{schedule:?}"
        );
    }
}

#[test]
fn ten_connections_race_the_same_key() {
    let (mut admin, mut ten) = server(10);
    let cfg = RaceConfig {
        trials: 10,
        balance: 1000,
        amount: 100,
    };
    let naive = pg::race(&mut admin, &mut ten, Variant::Naive, cfg).unwrap();
    assert_eq!(
        (naive.double_charged, naive.max_charges, naive.min_balance),
        (10, 10, 0)
    );
    for v in Variant::ALL.into_iter().filter(|v| !UNSAFE.contains(v)) {
        let row = pg::race(&mut admin, &mut ten, v, cfg).unwrap();
        assert_eq!(row.double_charged, 0, "{v:?}: {row:?}");
        assert_eq!(row.charged, 10, "{v:?}: one charge per trial");
        assert_eq!(row.min_balance, 900, "{v:?}");
        assert_eq!(row.outbox_mismatches, 0, "{v:?}");
    }
    let unique = pg::race(&mut admin, &mut ten, Variant::TxUnique, cfg).unwrap();
    assert!(
        unique.errors.iter().all(|e| e.sqlstate == "23505"),
        "the unique constraint's losers get a unique violation, not the stored answer: {unique:?}"
    );
}
