//! The tables of a service panel: the idempotency store, the ledger and the outbox with its
//! consumer. Each shows its newest rows, so a run with 10,000 keys renders as fast as one with ten.

use yew::prelude::*;

use crate::sim::pvec::{self, PVec};
use crate::sim::RecordState;
use crate::sim::ServiceKind;
use crate::sim::World;
use crate::ui::i18n::{tr, Lang};
use crate::ui::raw::Raw;
use crate::ui::text::{self, key_label, result_text, short_key};

/// Rows shown per table (the newest ones).
pub const TABLE_ROWS: usize = 25;

fn tail<T>(v: &PVec<T>) -> (usize, pvec::Iter<'_, T>) {
    let start = v.len().saturating_sub(TABLE_ROWS);
    (start, v.range(start..))
}

/// "Newest n of m rows", when some are not shown.
pub fn more_note(lang: Lang, shown: usize, total: usize) -> Html {
    if shown < total {
        html! { <p class="muted">{ tr!(lang, "Newest {shown} of {total} rows.", "全 {total} 行のうち新しい {shown} 行。") }</p> }
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
            lang.t("Key", "キー"),
            lang.t("State", "状態"),
            lang.t("Cached result", "キャッシュ結果"),
            lang.t("Expires", "期限"),
        ],
        Some(lang.t("fingerprint", "フィンガープリント")),
        "store",
    );
    for row in shown_rows.clone() {
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
            (None, Some(point)) => {
                let res = result_text(lang, &point.result);
                Some(tr!(
                    lang,
                    ["Recovery point: {}", res],
                    ["回復ポイント：{}", res]
                ))
            }
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

    html! {
        <details open=true>
            <summary>{ tr!(lang, ["Idempotency store ({})", rows.len()], ["冪等性ストア（{}）", rows.len()]) }</summary>
            <div class="tbl-wrap">{ done(r) }</div>
            { more_note(lang, shown_rows.len(), rows.len()) }
            if world.config().service == ServiceKind::Naive {
                <p class="muted">{ lang.t("The naive service keeps no keys.", "素朴なサービスはキーを持たない。") }</p>
            }
        </details>
    }
}

/// The ledger: every charge, with the step, operation and key that made it.
pub fn ledger_table(lang: Lang, world: &World) -> Html {
    let ledger = world.ledger();
    let (_, shown_ledger) = tail(ledger);
    let mut r = Raw::default();
    head(
        &mut r,
        &[
            lang.t("Step", "ステップ"),
            lang.t("Op", "操作"),
            lang.t("Key", "キー"),
            lang.t("Amount", "金額"),
            lang.t("Description", "説明"),
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
            <summary>{ tr!(lang, ["Ledger: charges ({})", ledger.len()], ["台帳：課金（{}）", ledger.len()]) }</summary>
            <div class="tbl-wrap">{ done(r) }</div>
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
            lang.t("Payload", "内容"),
            lang.t("Published", "発行"),
            lang.t("Deliveries", "配送回数"),
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
                &tr!(lang, "charged {amount} (#{n})", "{amount} を課金（#{n}）"),
            )
            .el(
                "td",
                &[],
                if o.published {
                    lang.t("yes", "済")
                } else {
                    lang.t("no", "未")
                },
            )
            .el("td", &[deliveries], &o.deliveries.to_string())
            .close("tr");
    }
    let consumer = world.consumer();
    html! {
        <details open=true>
            <summary>{ tr!(lang, ["Outbox ({})", outbox.len()], ["アウトボックス（{}）", outbox.len()]) }</summary>
            <div class="tbl-wrap">{ done(r) }</div>
            { more_note(lang, shown_outbox.len(), outbox.len()) }
            <p class="counters" data-testid="consumer">
                <span>{ tr!(lang, ["consumer received {}", consumer.received], ["コンシューマ受信 {}", consumer.received]) }</span>
                <span>{ tr!(lang, ["applied {}", consumer.applied], ["適用 {}", consumer.applied]) }</span>
                <span>{ tr!(lang, ["duplicates skipped {}", consumer.duplicates_ignored], ["重複を無視 {}", consumer.duplicates_ignored]) }</span>
                <span>{ tr!(lang, ["duplicates applied {}", consumer.duplicates_applied], ["重複を適用 {}", consumer.duplicates_applied]) }</span>
            </p>
        </details>
    }
}
