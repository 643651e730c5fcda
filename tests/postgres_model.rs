//! The PostgreSQL layer's core, without a server: each variant's control flow over its
//! statements, the lab schedules it is compared on, and the committed report (data/pg-race.json)
//! read back as the page reads it. tests/pg.rs runs the same variants on a real server.

use idempotency_playground::postgres::{
    all_two_request_schedules, counterexample_schedule, model_charges, program, Does, Outcome,
    Reply, Report, Request, Variant, MAX_SERIALIZATION_RETRIES,
};

const ROW: Reply = Reply {
    rows: 1,
    first_is_null: false,
};
const NONE: Reply = Reply {
    rows: 0,
    first_is_null: false,
};

/// Runs `r` to its end, replying with `answer(does)` to each statement; the statements sent.
fn drive(
    r: &mut Request,
    mut answer: impl FnMut(Does) -> Result<Reply, &'static str>,
) -> Vec<&'static str> {
    let mut sent = Vec::new();
    while let Some(stmt) = r.next() {
        assert!(sent.len() < 100, "runs away: {sent:?}");
        sent.push(stmt.sql);
        match answer(stmt.does) {
            Ok(reply) => r.on_reply(reply),
            Err(code) => r.on_error(code),
        }
    }
    sent
}

#[test]
fn a_found_key_replays_and_a_transaction_still_commits() {
    let mut r = Request::new(Variant::TxCheckInsert);
    let sent = drive(&mut r, |d| Ok(if d == Does::Check { ROW } else { NONE }));
    assert_eq!(
        sent,
        [
            "BEGIN",
            "SELECT response FROM idem_keys WHERE key = $1",
            "COMMIT"
        ]
    );
    assert_eq!(r.outcome(), Some(&Outcome::Replayed));
    // Without a transaction the replay ends at once.
    let mut r = Request::new(Variant::TocTou);
    assert_eq!(drive(&mut r, |_| Ok(ROW)).len(), 1);
    assert_eq!(r.outcome(), Some(&Outcome::Replayed));
}

#[test]
fn a_missing_key_charges_and_records() {
    for v in Variant::ALL {
        let mut r = Request::new(v);
        let sent = drive(&mut r, |d| {
            Ok(if matches!(d, Does::Charge | Does::Claim) {
                ROW
            } else {
                NONE
            })
        });
        assert_eq!(r.outcome(), Some(&Outcome::Charged), "{v:?}");
        // Every statement of the program except the read of a lost claim.
        let expected: Vec<_> = program(v)
            .iter()
            .filter(|s| s.does != Does::ReadClaimed)
            .map(|s| s.sql)
            .collect();
        assert_eq!(sent, expected, "{v:?}");
    }
}

#[test]
fn a_lost_claim_reads_the_holders_answer_or_is_in_flight() {
    for (null, expected) in [(true, Outcome::InFlight), (false, Outcome::Replayed)] {
        let mut r = Request::new(Variant::ClaimFirst);
        let sent = drive(&mut r, |d| match d {
            Does::Claim => Ok(NONE),
            Does::ReadClaimed => Ok(Reply {
                rows: 1,
                first_is_null: null,
            }),
            _ => Ok(NONE),
        });
        assert_eq!(r.outcome(), Some(&expected));
        assert!(
            !sent.iter().any(|s| s.contains("ledger")),
            "no charge after a lost claim"
        );
        assert_eq!(sent.last(), Some(&"COMMIT"));
    }
}

#[test]
fn an_error_in_a_transaction_rolls_back_and_the_conflict_levels_begin_again() {
    // The unique constraint: the store fails, the transaction is rolled back, the request fails.
    let mut r = Request::new(Variant::TxUnique);
    let sent = drive(&mut r, |d| match d {
        Does::Store => Err("23505"),
        Does::Charge => Ok(ROW),
        _ => Ok(NONE),
    });
    assert_eq!(sent.last(), Some(&"ROLLBACK"));
    assert_eq!(r.outcome(), Some(&Outcome::Failed("23505".into())));
    // REPEATABLE READ: a serialization failure begins again, and the retry finds the key.
    let mut failed = false;
    let mut r = Request::new(Variant::RepeatableRead);
    drive(&mut r, |d| match d {
        Does::Charge if !failed => {
            failed = true;
            Err("40001")
        }
        Does::Check if failed => Ok(ROW),
        _ => Ok(NONE),
    });
    assert_eq!((r.outcome(), r.retries()), (Some(&Outcome::Replayed), 1));
    // It gives up after its retries.
    let mut r = Request::new(Variant::Serializable);
    drive(&mut r, |d| {
        if d == Does::Commit {
            Err("40001")
        } else {
            Ok(NONE)
        }
    });
    assert_eq!(r.outcome(), Some(&Outcome::Failed("40001".into())));
    assert_eq!(r.retries(), MAX_SERIALIZATION_RETRIES);
    // READ COMMITTED does not retry.
    let mut r = Request::new(Variant::ForUpdate);
    drive(&mut r, |d| {
        if d == Does::Charge {
            Err("40001")
        } else {
            Ok(NONE)
        }
    });
    assert_eq!(
        (r.outcome(), r.retries()),
        (Some(&Outcome::Failed("40001".into())), 0)
    );
}

#[test]
fn the_schedules_come_from_the_lab() {
    let all = all_two_request_schedules();
    assert_eq!(all.len(), 20);
    assert!(all
        .iter()
        .all(|s| s.iter().filter(|&&r| r == 0).count() == 3));
    let counter = counterexample_schedule();
    assert!(all.contains(&counter));
    assert_eq!(model_charges(Variant::TocTou, &counter), Some(2));
    assert_eq!(model_charges(Variant::ClaimFirst, &counter), Some(1));
    assert_eq!(model_charges(Variant::Naive, &counter), None);
    // Every program's statements are in lab steps 0, 1, 2, in order.
    for v in Variant::ALL {
        let steps: Vec<usize> = program(v).iter().map(|s| s.step).collect();
        assert!(
            steps.windows(2).all(|w| w[0] <= w[1]) && steps.iter().all(|&s| s <= 2),
            "{v:?}"
        );
    }
}

#[test]
fn the_committed_report_reads_back_byte_for_byte() {
    let text = include_str!("../data/pg-race.json");
    let report = Report::from_json(text).expect("data/pg-race.json is a report");
    assert_eq!(report.to_json() + "\n", text);
    assert_eq!(report.races.len(), Variant::ALL.len());
    assert!(report.server.starts_with("PostgreSQL"));
    // What a changed or foreign file gets: an error naming the field.
    let bad = text.replacen("\"version\":1", "\"version\":2", 1);
    assert!(Report::from_json(&bad)
        .unwrap_err()
        .message
        .contains("version"));
    let bad = text.replacen("\"variant\":\"naive\"", "\"variant\":\"nosuch\"", 1);
    assert!(Report::from_json(&bad).is_err());
}
