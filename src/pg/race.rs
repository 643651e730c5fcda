//! The article's 10-thread test on real connections: every connection sends the same request
//! (same key) after a barrier, `trials` times per variant.

use std::sync::Barrier;

use postgres::Client;

use crate::sim::postgres::{ErrorCount, Outcome, RaceRow, Variant};

use super::{reset, run_request, tally};

/// The race's sizes.
#[derive(Clone, Copy, Debug)]
pub struct RaceConfig {
    /// Trials per variant.
    pub trials: u64,
    /// The starting balance.
    pub balance: i64,
    /// Each request's amount.
    pub amount: i64,
}

/// Runs `variant` `trials` times over `clients` (one request per connection per trial), with
/// `admin` resetting and counting between trials.
pub fn race(
    admin: &mut Client,
    clients: &mut [Client],
    variant: Variant,
    cfg: RaceConfig,
) -> Result<RaceRow, postgres::Error> {
    let mut row = RaceRow {
        variant,
        trials: cfg.trials,
        double_charged: 0,
        max_charges: 0,
        min_balance: cfg.balance,
        charged: 0,
        replayed: 0,
        in_flight: 0,
        declined: 0,
        errors: Vec::new(),
        retries: 0,
        outbox_mismatches: 0,
    };
    for _ in 0..cfg.trials {
        reset(admin, cfg.balance)?;
        let barrier = Barrier::new(clients.len());
        let results: Vec<(Outcome, u32)> = std::thread::scope(|s| {
            let handles: Vec<_> = clients
                .iter_mut()
                .map(|c| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        barrier.wait();
                        run_request(c, variant, cfg.amount)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or((Outcome::Failed("08000".into()), 0)))
                .collect()
        });
        let (charges, balance, events) = tally(admin)?;
        row.double_charged += u64::from(charges > 1);
        row.max_charges = row.max_charges.max(charges);
        row.min_balance = row.min_balance.min(balance);
        if variant == Variant::Outbox && events != charges {
            row.outbox_mismatches += 1;
        }
        for (outcome, retries) in results {
            row.retries += u64::from(retries);
            match outcome {
                Outcome::Charged => row.charged += 1,
                Outcome::Replayed => row.replayed += 1,
                Outcome::InFlight => row.in_flight += 1,
                Outcome::Declined => row.declined += 1,
                Outcome::Failed(code) => match row.errors.iter_mut().find(|e| e.sqlstate == code) {
                    Some(e) => e.count += 1,
                    None => row.errors.push(ErrorCount {
                        sqlstate: code,
                        count: 1,
                    }),
                },
            }
        }
    }
    row.errors.sort_by(|a, b| a.sqlstate.cmp(&b.sqlstate));
    Ok(row)
}
