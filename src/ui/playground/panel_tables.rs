//! The tables of a service panel: the idempotency store, the ledger and the outbox with its
//! consumer. Each shows its newest rows, so a run with 10,000 keys renders as fast as one with ten.

use yew::prelude::*;

use crate::sim::pvec::{self, PVec};
use crate::sim::RecordState;
use crate::sim::ServiceKind;
use crate::sim::World;
use crate::ui::i18n::{tr, Lang};
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

/// The idempotency store: key, fingerprint, state, cached result, expiry.
pub fn store_table(lang: Lang, world: &World) -> Html {
    let rows = world.store_rows();
    let (_, shown_rows) = tail(rows);
    // Expiry is told from the world's own simulated time, as the record's reader would see it.
    let now = world.now_ms();
    let store_rows = shown_rows.clone().map(|r| {
        let full = world.key_text(r.key).unwrap_or_default();
        let state_class = match r.state {
            RecordState::InFlight => "state-inflight",
            RecordState::Completed => "state-completed",
            RecordState::Expired => "state-expired",
        };
        html! {
            <tr data-key={full.clone()} key={r.key.0}>
                // The fingerprint goes under its key, so the table fits three panels side by side.
                <td class="key mono" title={full.clone()}>{ short_key(&full) }
                    if let Some(f) = r.fingerprint { <span class="fingerprint">{ format!("{:08x}", f as u32) }</span> }</td>
                <td class={state_class}>{ text::record_state(lang, r.state) }</td>
                <td>{ r.result.as_ref().map(|res| result_text(lang, res)).unwrap_or_else(|| "—".into()) }</td>
                <td class="expiry">{ r.expires_at_ms.map(|at| text::expiry_text(lang, at, now)).unwrap_or_else(|| "—".into()) }</td>
            </tr>
        }
    });

    html! {
        <details open=true>
            <summary>{ tr!(lang, ["Idempotency store ({})", rows.len()], ["冪等性ストア（{}）", rows.len()]) }</summary>
            <div class="tbl-wrap"><table class="data">
                <thead><tr>
                    <th>{ lang.t("Key", "キー") }<span class="fingerprint">{ lang.t("fingerprint", "指紋") }</span></th>
                    <th>{ lang.t("State", "状態") }</th><th>{ lang.t("Cached result", "キャッシュ結果") }</th>
                    <th>{ lang.t("Expires", "期限") }</th>
                </tr></thead>
                <tbody data-testid="store">{ for store_rows }</tbody>
            </table></div>
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
    let ledger_rows = shown_ledger.clone().map(|e| {
        html! {
            <tr key={e.event_id}>
                <td>{ e.step }</td>
                <td>{ format!("#{}", e.op.0 + 1) }</td>
                <td class="key mono">{ e.key.map(|k| key_label(world, k)).unwrap_or_else(|| "—".into()) }</td>
                <td>{ e.amount }</td>
                <td>{ world.description_text(e.description).unwrap_or("") }</td>
            </tr>
        }
    });

    html! {
        <details>
            <summary>{ tr!(lang, ["Ledger: charges ({})", ledger.len()], ["台帳：課金（{}）", ledger.len()]) }</summary>
            <div class="tbl-wrap"><table class="data">
                <thead><tr><th>{ lang.t("Step", "ステップ") }</th><th>{ lang.t("Op", "操作") }</th><th>{ lang.t("Key", "キー") }</th><th>{ lang.t("Amount", "金額") }</th><th>{ lang.t("Description", "説明") }</th></tr></thead>
                <tbody data-testid="ledger">{ for ledger_rows }</tbody>
            </table></div>
            { more_note(lang, shown_ledger.len(), ledger.len()) }
        </details>
    }
}

/// The outbox (rows, published, deliveries) and what the consumer did with its events.
pub fn outbox_table(lang: Lang, world: &World) -> Html {
    let outbox = world.outbox();
    let (_, shown_outbox) = tail(outbox);
    let outbox_rows = shown_outbox.clone().map(|o| {
        html! {
            <tr key={o.id} data-id={o.id.to_string()}>
                <td>{ o.id }</td>
                <td>{ tr!(lang, ["charged {} (#{})", o.payload.amount, o.payload.op.0 + 1], ["{} を課金（#{}）", o.payload.amount, o.payload.op.0 + 1]) }</td>
                <td>{ if o.published { lang.t("yes", "済") } else { lang.t("no", "未") } }</td>
                <td class={classes!((o.deliveries > 1).then_some("delta neg"))}>{ o.deliveries }</td>
            </tr>
        }
    });
    let consumer = world.consumer();
    html! {
        <details open=true>
            <summary>{ tr!(lang, ["Outbox ({})", outbox.len()], ["Outbox（{}）", outbox.len()]) }</summary>
            <div class="tbl-wrap"><table class="data">
                <thead><tr><th>{ "id" }</th><th>{ lang.t("Payload", "内容") }</th><th>{ lang.t("Published", "発行") }</th><th>{ lang.t("Deliveries", "配送回数") }</th></tr></thead>
                <tbody data-testid="outbox">{ for outbox_rows }</tbody>
            </table></div>
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
