//! The tables of a service panel: the idempotency store, the ledger and the outbox with its
//! consumer. Each shows its newest rows, so a run with 10,000 keys renders as fast as one with ten.

use yew::prelude::*;

use crate::sim::pvec::{self, PVec};
use crate::sim::RecordState;
use crate::sim::ServiceKind;
use crate::sim::StoreRow;
use crate::sim::World;
use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::{self, key_label, result_text, short_key, view};

/// Rows shown per table (the newest ones).
pub const TABLE_ROWS: usize = 25;

fn tail<T>(v: &PVec<T>) -> (usize, pvec::Iter<'_, T>) {
    let start = v.len().saturating_sub(TABLE_ROWS);
    (start, v.range(start..))
}

/// "Newest n of m rows", when some are not shown.
pub fn more_note(lang: Lang, shown: usize, total: usize) -> Html {
    if shown < total {
        html! { <p class="muted">{ view::playground::newest_rows(lang, shown, total) }</p> }
    } else {
        html! {}
    }
}

/// A table's head row, opening its body (`data-testid` names the body for the tests).
fn head(r: &mut Raw, columns: &[&str], body: &str) {
    head_noted(r, columns, None, body);
}

/// [`head`], with a note under the first column's name (the store's "fingerprint").
fn head_noted(r: &mut Raw, columns: &[&str], first_note: Option<&str>, body: &str) {
    r.open("table", &[("class", "data")])
        .open("thead", &[])
        .open("tr", &[]);
    for (i, c) in columns.iter().enumerate() {
        match first_note.filter(|_| i == 0) {
            Some(note) => {
                r.open("th", &[])
                    .text(c)
                    .el("span", &[("class", "fingerprint")], note)
                    .close("th");
            }
            None => {
                r.el("th", &[], c);
            }
        }
    }
    r.close("tr")
        .close("thead")
        .open("tbody", &[("data-testid", body)]);
}

/// Closes the body and the table, as one node.
fn done(mut r: Raw) -> Html {
    r.close("tbody").close("table");
    r.html()
}

/// The idempotency store: key, fingerprint, state, cached result, expiry.
pub fn store_table(lang: Lang, world: &World) -> Html {
    let rows = world.store_rows();
    let (_, shown_rows) = tail(rows);
    // Expiry is told from the world's own simulated time, as the record's reader would see it.
    let now = world.now_ms();
    // The rows have no handlers, so the table is one string (`ui/raw.rs`): far less wasm, and
    // far less work per step, than an element per cell (issue 16). The `<details>` around it
    // stays a Yew element, so a table the learner opened or closed stays so.
    let mut r = Raw::default();
    head_noted(
        &mut r,
        &[
            view::playground::COL_KEY.get(lang),
            view::playground::COL_STATE.get(lang),
            view::playground::COL_CACHED_RESULT.get(lang),
            view::playground::COL_EXPIRES.get(lang),
        ],
        Some(view::playground::COL_FINGERPRINT.get(lang)),
        "store",
    );
    for row in shown_rows.clone() {
        store_row(&mut r, lang, world, row, now);
    }

    html! {
        <details open=true>
            <summary>{ view::playground::store_summary(lang, rows.len()) }</summary>
            <div class="tbl-wrap" tabindex="0">{ done(r) }</div>
            { more_note(lang, shown_rows.len(), rows.len()) }
            if world.config().service == ServiceKind::Naive {
                <p class="muted">{ view::playground::NAIVE_KEEPS_NO_KEYS.get(lang) }</p>
            }
        </details>
    }
}

/// One record of the store, seen at simulated time `now`.
fn store_row(r: &mut Raw, lang: Lang, world: &World, row: &StoreRow, now: u64) {
    let full = world.key_text(row.key).unwrap_or_default();
    let state_class = match row.state {
        RecordState::InFlight => "state-inflight",
        RecordState::Completed => "state-completed",
        RecordState::Expired => "state-expired",
    };
    // The fingerprint goes under its key, so the table fits three panels side by side.
    r.open("tr", &[("data-key", &full)])
        .open("td", &[("class", "key mono"), ("title", &full)])
        .text(&short_key(&full));
    if let Some(f) = row.fingerprint {
        r.el(
            "span",
            &[("class", "fingerprint")],
            &format!("{:08x}", f as u32),
        );
    }
    // A key scoped to its customer's account says whose it is (two rows read "order-1").
    let account = world.key_account(row.key);
    if account > 0 {
        r.el(
            "span",
            &[("class", "fingerprint")],
            &text::account_label(lang, account),
        );
    }
    let result = match (&row.result, &row.recovery) {
        (Some(res), _) => Some(result_text(lang, res)),
        // rocket-rides' recovery point: the processor's answer, kept under a key in flight,
        // from which the request that takes the key over resumes.
        (None, Some(point)) => Some(view::playground::recovery_point(
            lang,
            &result_text(lang, &point.result),
        )),
        (None, None) => None,
    };
    let expiry = row.expires_at_ms.map(|at| text::expiry_text(lang, at, now));
    r.close("td")
        .el(
            "td",
            &[("class", state_class)],
            text::record_state(lang, row.state),
        )
        .el("td", &[], result.as_deref().unwrap_or("—"))
        .el(
            "td",
            &[("class", "expiry")],
            expiry.as_deref().unwrap_or("—"),
        )
        .close("tr");
}

/// The ledger: every charge, with the step, operation and key that made it.
pub fn ledger_table(lang: Lang, world: &World) -> Html {
    let ledger = world.ledger();
    let (_, shown_ledger) = tail(ledger);
    let mut r = Raw::default();
    head(
        &mut r,
        &[
            view::playground::COL_STEP.get(lang),
            view::playground::COL_OP.get(lang),
            view::playground::COL_KEY.get(lang),
            view::playground::COL_AMOUNT.get(lang),
            view::playground::COL_DESCRIPTION.get(lang),
        ],
        "ledger",
    );
    for e in shown_ledger.clone() {
        let key = e.key.map(|k| key_label(world, k));
        r.open("tr", &[])
            .el("td", &[], &e.step.to_string())
            .el("td", &[], &format!("#{}", e.op.0 + 1))
            .open("td", &[("class", "key mono")])
            .text(key.as_deref().unwrap_or("—"));
        // Whose account paid, once customers of other accounts are in the run.
        if world.other_accounts_seen() {
            r.el(
                "span",
                &[("class", "fingerprint")],
                &text::account_label(lang, e.account),
            );
        }
        r.close("td")
            .el("td", &[], &e.amount.to_string())
            .el(
                "td",
                &[],
                world.description_text(e.description).unwrap_or(""),
            )
            .close("tr");
    }

    html! {
        <details>
            <summary>{ view::playground::ledger_summary(lang, ledger.len()) }</summary>
            <div class="tbl-wrap" tabindex="0">{ done(r) }</div>
            { more_note(lang, shown_ledger.len(), ledger.len()) }
        </details>
    }
}

/// The outbox (rows, published, deliveries) and what the consumer did with its events.
pub fn outbox_table(lang: Lang, world: &World) -> Html {
    let outbox = world.outbox();
    let (_, shown_outbox) = tail(outbox);
    let mut r = Raw::default();
    head(
        &mut r,
        &[
            "id",
            view::playground::COL_PAYLOAD.get(lang),
            view::playground::COL_PUBLISHED.get(lang),
            view::playground::COL_DELIVERIES.get(lang),
        ],
        "outbox",
    );
    for o in shown_outbox.clone() {
        let id = o.id.to_string();
        let (amount, n) = (o.payload.amount, o.payload.op.0 + 1);
        let deliveries = if o.deliveries > 1 {
            ("class", "delta neg")
        } else {
            ("", "")
        };
        r.open("tr", &[("data-id", &id)])
            .el("td", &[], &id)
            .el(
                "td",
                &[],
                &view::playground::outbox_charged(lang, amount, n),
            )
            .el("td", &[], view::playground::published(lang, o.published))
            .el("td", &[deliveries], &o.deliveries.to_string())
            .close("tr");
    }
    let [received, applied, ignored, reapplied] =
        view::playground::consumer_counters(lang, world.consumer());
    html! {
        <details open=true>
            <summary>{ view::playground::outbox_summary(lang, outbox.len()) }</summary>
            <div class="tbl-wrap" tabindex="0">{ done(r) }</div>
            { more_note(lang, shown_outbox.len(), outbox.len()) }
            <p class="counters" data-testid="consumer">
                <span>{ received }</span>
                <span>{ applied }</span>
                <span>{ ignored }</span>
                <span>{ reapplied }</span>
            </p>
        </details>
    }
}
