//! `make pg-race`: the article's services as SQL on a real PostgreSQL (scripts/pg-race.sh starts
//! a throwaway server and stops it). Runs the race matrix (N connections, one key, K trials per
//! variant) and the forced schedules (the lab's shortest double charge, and every schedule of two
//! requests), prints the table, and writes the report as JSON for the lab's "On a real database"
//! page.
//!
//!   pg-race --url "host=/path user=postgres dbname=postgres" [--connections 10] [--trials 200]
//!           [--out data/pg-race.json]
//!
//! `PG_RACE_URL` may give the connection string instead of `--url` (never a password in the
//! repository: use a socket with trust or peer authentication, or a ~/.pgpass).

use std::process::ExitCode;

use idempotency_playground::pg::{self, RaceConfig};
use idempotency_playground::postgres::{
    all_two_request_schedules, counterexample_schedule, model_charges, RaceRow, Report,
    ScheduleRow, Variant,
};

/// Most connections a race may open (the server's default `max_connections` is 100).
const MAX_CONNECTIONS: u64 = 64;
/// Most trials per variant.
const MAX_TRIALS: u64 = 100_000;

struct Args {
    url: String,
    connections: u64,
    trials: u64,
    out: Option<String>,
    date: String,
}

fn number(flag: &str, v: Option<String>, max: u64) -> Result<u64, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a number"))?;
    match v.parse::<u64>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{flag} must be a whole number from 1 to {max}, not `{v}`"
        )),
    }
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        url: std::env::var("PG_RACE_URL").unwrap_or_default(),
        connections: 10,
        trials: 200,
        out: None,
        date: std::env::var("PG_RACE_DATE").unwrap_or_default(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--url" => a.url = it.next().ok_or("--url needs a connection string")?,
            "--connections" => a.connections = number("--connections", it.next(), MAX_CONNECTIONS)?,
            "--trials" => a.trials = number("--trials", it.next(), MAX_TRIALS)?,
            "--out" => a.out = Some(it.next().ok_or("--out needs a file name")?),
            "--date" => a.date = it.next().ok_or("--date needs YYYY-MM-DD")?,
            other => {
                return Err(format!(
                    "unknown argument `{other}` (see the top of src/bin/pg_race/main.rs)"
                ))
            }
        }
    }
    if a.url.is_empty() {
        return Err("no server: pass --url or set PG_RACE_URL (scripts/pg-race.sh does)".into());
    }
    if a.date.is_empty() {
        return Err("pass --date YYYY-MM-DD or set PG_RACE_DATE (scripts/pg-race.sh does)".into());
    }
    Ok(a)
}

fn run(a: &Args) -> Result<Report, String> {
    let e = |e: postgres::Error| e.to_string();
    let mut admin = pg::connect(&a.url).map_err(e)?;
    let server = pg::server_version(&mut admin).map_err(e)?;
    pg::create_schema(&mut admin).map_err(e)?;
    let mut clients = (0..a.connections)
        .map(|_| pg::connect(&a.url))
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    let cfg = RaceConfig {
        trials: a.trials,
        balance: 1000,
        amount: 100,
    };
    println!(
        "{server}\nrace: {} connections, one key, {} trials per variant",
        a.connections, a.trials
    );
    let races = races(&mut admin, &mut clients, cfg)?;
    let mut two = clients.drain(..2).collect::<Vec<_>>();
    let schedules = forced_schedules(&mut admin, &mut two, cfg)?;
    Ok(Report {
        server,
        date: a.date.clone(),
        connections: a.connections,
        trials: a.trials,
        balance: cfg.balance,
        amount: cfg.amount,
        races,
        schedules,
    })
}

/// Every variant raced over all the connections, a row printed per variant.
fn races(
    admin: &mut postgres::Client,
    clients: &mut [postgres::Client],
    cfg: RaceConfig,
) -> Result<Vec<RaceRow>, String> {
    println!(
        "{:<16} {:>7} {:>8} {:>6} {:>8} {:>8} {:>9} {:>8}  errors",
        "variant", "double", "max/key", "charged", "replayed", "in-flight", "retries", "min bal"
    );
    let mut races = Vec::new();
    for v in Variant::ALL {
        let row = pg::race(admin, clients, v, cfg).map_err(|e| e.to_string())?;
        let errors: Vec<String> = row
            .errors
            .iter()
            .map(|x| format!("{} ×{}", x.sqlstate, x.count))
            .collect();
        println!(
            "{:<16} {:>7} {:>8} {:>6} {:>8} {:>8} {:>9} {:>8}  {}",
            v.id(),
            row.double_charged,
            row.max_charges,
            row.charged,
            row.replayed,
            row.in_flight,
            row.retries,
            row.min_balance,
            errors.join(", ")
        );
        races.push(row);
    }
    Ok(races)
}

/// Every variant under the lab's shortest double charge and then every schedule of two
/// requests, forced on two connections, beside the model's count.
fn forced_schedules(
    admin: &mut postgres::Client,
    two: &mut [postgres::Client],
    cfg: RaceConfig,
) -> Result<Vec<ScheduleRow>, String> {
    let counter = counterexample_schedule();
    println!("forced schedules: the lab's shortest double charge {counter:?}, then all 20 of two requests");
    let mut schedules = Vec::new();
    let mut plans = vec![counter.clone()];
    plans.extend(
        all_two_request_schedules()
            .into_iter()
            .filter(|s| *s != counter),
    );
    for v in Variant::ALL {
        for schedule in &plans {
            let run = pg::run_schedule(admin, two, v, schedule, cfg.balance, cfg.amount)?;
            let model = model_charges(v, schedule).map(|c| c as u64);
            if schedule == &counter {
                println!(
                    "{:<16} model {:>4} postgres {}  blocked {}",
                    v.id(),
                    model.map_or("-".into(), |m| m.to_string()),
                    run.charges,
                    run.blocked_steps
                );
            }
            schedules.push(ScheduleRow {
                variant: v,
                schedule: schedule.clone(),
                model_charges: model,
                pg_charges: run.charges,
                blocked_steps: run.blocked_steps,
                outcomes: run.outcomes,
            });
        }
    }
    Ok(schedules)
}

fn main() -> ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("pg-race: {msg}");
            return ExitCode::from(2);
        }
    };
    match run(&a) {
        Ok(report) => {
            if let Some(out) = &a.out {
                if let Err(err) = std::fs::write(out, report.to_json() + "\n") {
                    eprintln!("pg-race: cannot write {out}: {err}");
                    return ExitCode::FAILURE;
                }
                println!("wrote {out}");
            }
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("pg-race: {msg}");
            ExitCode::FAILURE
        }
    }
}
