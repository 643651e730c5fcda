//! One service's live state: balance, invariants, client outcomes, idempotency store, ledger,
//! outbox and consumer, counters. Long tables show their newest rows, so a run with 10,000 keys
//! renders as fast as one with ten.

use yew::prelude::*;

use crate::sim::pvec::{self, PVec};
use crate::sim::ClientOutcome;
use crate::sim::EmitMode;
use crate::sim::EventKind;
use crate::sim::Invariant;
use crate::sim::RecordState;
use crate::sim::ServiceKind;
use crate::sim::World;
use crate::ui::i18n::Lang;
use crate::ui::text::{self as describe, key_label, result_text, short_key};

/// Rows shown per table (the newest ones).
pub const TABLE_ROWS: usize = 25;
/// Client operations listed (the newest ones).
pub const CLIENT_ROWS: usize = 6;

fn tail<T>(v: &PVec<T>) -> (usize, pvec::Iter<'_, T>) {
    let start = v.len().saturating_sub(TABLE_ROWS);
    (start, v.range(start..))
}

fn more_note(lang: Lang, shown: usize, total: usize) -> Html {
    if shown < total {
        html! { <p class="muted">{ lang.f(format!("Newest {shown} of {total} rows."), format!("全 {total} 行のうち新しい {shown} 行。")) }</p> }
    } else {
        html! {}
    }
}

/// Balance change made by the last step, if any.
fn last_delta(world: &World) -> Option<i64> {
    let mut delta = 0;
    let mut any = false;
    for e in world.last_step_events() {
        match &e.kind {
            EventKind::Charge { amount, .. } => {
                delta -= amount;
                any = true;
            }
            EventKind::Deposit {
                amount,
                accepted: true,
            } => {
                delta += amount;
                any = true;
            }
            EventKind::Rollback { .. } => any = true,
            _ => {}
        }
    }
    any.then_some(delta)
}

/// Draws one service panel. `on_jump` moves the run to a step (a broken invariant's link).
pub fn service_panel(lang: Lang, world: &World, on_jump: &Callback<usize>) -> Html {
    let cfg = world.config();
    let kind = cfg.service;
    let kind_attr = kind.id();
    let balance = world.balance();
    let delta = last_delta(world);
    let emits = cfg.emit != EmitMode::None;

    let badges = Invariant::ALL
        .iter()
        .filter(|i| emits || !matches!(i, Invariant::OneEventPerCharge | Invariant::ConsumerAtMostOnce))
        .map(|inv| {
            let broken = world.violations().iter().find(|v| v.invariant == *inv);
            match broken {
                None => html! { <li class="badge pass">{ "✓ " }{ describe::invariant_name(lang, *inv) }</li> },
                Some(v) => {
                    let step = v.step;
                    let jump = {
                        let on_jump = on_jump.clone();
                        Callback::from(move |e: MouseEvent| {
                            e.prevent_default();
                            on_jump.emit(step)
                        })
                    };
                    html! {
                        <li class="badge fail" title={describe::violation_text(lang, world, v)}>
                            { "✕ FAIL: " }{ describe::invariant_name(lang, *inv) }{ " — " }
                            <a href="#" onclick={jump} data-testid="violation-step">
                                { lang.f(format!("step {step}"), format!("ステップ {step}")) }</a>
                            <span class="visually-detail">{ " · " }{ describe::violation_text(lang, world, v) }</span>
                        </li>
                    }
                }
            }
        });

    let all_clients = world.client_results();
    let shown_clients = all_clients.range(all_clients.len().saturating_sub(CLIENT_ROWS)..);
    let clients = shown_clients.clone().map(|c| {
        let outcome = match &c.outcome {
            ClientOutcome::InProgress => lang.t("waiting…", "待機中…").to_string(),
            ClientOutcome::TimedOut => lang.t("timed out: unknown outcome", "タイムアウト：結果不明").to_string(),
            ClientOutcome::Answered { result } => result_text(lang, result),
        };
        html! {
            <li>{ lang.f(
                format!("#{} charge {} · {} {} · {}", c.op.0 + 1, c.amount, c.attempts, if c.attempts == 1 { "try" } else { "tries" }, outcome),
                format!("#{} {} を課金 · 試行 {} 回 · {}", c.op.0 + 1, c.amount, c.attempts, outcome)) }</li>
        }
    });

    let rows = world.store_rows();
    let (_, shown_rows) = tail(rows);
    let store_rows = shown_rows.clone().map(|r| {
        let full = world.key_text(r.key).unwrap_or_default();
        let state_class = match r.state {
            RecordState::InFlight => "state-inflight",
            RecordState::Completed => "state-completed",
            RecordState::Expired => "state-expired",
        };
        html! {
            <tr data-key={full.clone()} key={r.key.0}>
                <td class="key mono" title={full.clone()}>{ short_key(&full) }</td>
                <td class="mono">{ r.fingerprint.map(|f| format!("{:08x}", f as u32)).unwrap_or_else(|| "—".into()) }</td>
                <td class={state_class}>{ describe::record_state(lang, r.state) }</td>
                <td>{ r.result.as_ref().map(|res| result_text(lang, res)).unwrap_or_else(|| "—".into()) }</td>
                <td>{ r.expires_at_ms.map(crate::ui::playground::timeline::fmt_ms).unwrap_or_else(|| "—".into()) }</td>
            </tr>
        }
    });

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

    let outbox = world.outbox();
    let (_, shown_outbox) = tail(outbox);
    let outbox_rows = shown_outbox.clone().map(|o| {
        html! {
            <tr key={o.id} data-id={o.id.to_string()}>
                <td>{ o.id }</td>
                <td>{ lang.f(format!("charged {} (#{})", o.payload.amount, o.payload.op.0 + 1), format!("{} を課金（#{}）", o.payload.amount, o.payload.op.0 + 1)) }</td>
                <td>{ if o.published { lang.t("yes", "済") } else { lang.t("no", "未") } }</td>
                <td class={classes!((o.deliveries > 1).then_some("delta neg"))}>{ o.deliveries }</td>
            </tr>
        }
    });
    let consumer = world.consumer();
    let counters = world.counters();

    html! {
        <section class="service" data-service={kind_attr} aria-label={describe::column_name(lang, cfg)}
                 data-emit={format!("{:?}", cfg.emit)} data-consumer-dedupes={cfg.consumer_dedupes.to_string()}>
            <h3>{ describe::column_name(lang, cfg) }</h3>
            <p class="what">{ describe::service_blurb(lang, kind) }
                if emits { <br/>{ lang.t("Events: ", "イベント：") }{ describe::emit_name(lang, cfg.emit) }
                    { if cfg.consumer_dedupes { lang.t(", deduplicating consumer", "、重複排除するコンシューマ") } else { lang.t(", naive consumer", "、素朴なコンシューマ") } } }
            </p>
            <div class="balance-row">
                <span class="muted">{ lang.t("Balance", "残高") }</span>
                <span class={classes!("balance", delta.is_some().then_some("changed"))} data-testid="balance">{ balance }</span>
                { match delta {
                    Some(d) if d < 0 => html! { <span class="delta neg" aria-live="polite">{ format!("−{}", -d) }</span> },
                    Some(d) if d > 0 => html! { <span class="delta pos" aria-live="polite">{ format!("+{d}") }</span> },
                    Some(_) => html! { <span class="delta" aria-live="polite">{ lang.t("rolled back", "巻き戻し") }</span> },
                    None => html! {},
                } }
            </div>
            <ul class="badges" data-testid="invariants" aria-label={lang.t("Invariants", "不変条件")}
                data-failed={world.violations().len().to_string()}>{ for badges }</ul>
            if !all_clients.is_empty() {
                <ul class="client-result" aria-label={lang.t("What each client saw", "各クライアントが見た結果")}>{ for clients }</ul>
                { more_note(lang, shown_clients.len(), all_clients.len()) }
            }
            <details open=true>
                <summary>{ lang.f(format!("Idempotency store ({})", rows.len()), format!("冪等性ストア（{}）", rows.len())) }</summary>
                <div class="tbl-wrap"><table class="data">
                    <thead><tr>
                        <th>{ lang.t("Key", "キー") }</th><th>{ lang.t("Fingerprint", "指紋") }</th>
                        <th>{ lang.t("State", "状態") }</th><th>{ lang.t("Cached result", "キャッシュ結果") }</th>
                        <th>{ lang.t("Expires", "期限") }</th>
                    </tr></thead>
                    <tbody data-testid="store">{ for store_rows }</tbody>
                </table></div>
                { more_note(lang, shown_rows.len(), rows.len()) }
                if kind == ServiceKind::Naive {
                    <p class="muted">{ lang.t("The naive service keeps no keys.", "素朴なサービスはキーを持たない。") }</p>
                }
            </details>
            <details>
                <summary>{ lang.f(format!("Ledger: charges ({})", ledger.len()), format!("台帳：課金（{}）", ledger.len())) }</summary>
                <div class="tbl-wrap"><table class="data">
                    <thead><tr><th>{ lang.t("Step", "ステップ") }</th><th>{ lang.t("Op", "操作") }</th><th>{ lang.t("Key", "キー") }</th><th>{ lang.t("Amount", "金額") }</th><th>{ lang.t("Description", "説明") }</th></tr></thead>
                    <tbody data-testid="ledger">{ for ledger_rows }</tbody>
                </table></div>
                { more_note(lang, shown_ledger.len(), ledger.len()) }
            </details>
            if emits {
                <details open=true>
                    <summary>{ lang.f(format!("Outbox ({})", outbox.len()), format!("Outbox（{}）", outbox.len())) }</summary>
                    <div class="tbl-wrap"><table class="data">
                        <thead><tr><th>{ "id" }</th><th>{ lang.t("Payload", "内容") }</th><th>{ lang.t("Published", "発行") }</th><th>{ lang.t("Deliveries", "配送回数") }</th></tr></thead>
                        <tbody data-testid="outbox">{ for outbox_rows }</tbody>
                    </table></div>
                    { more_note(lang, shown_outbox.len(), outbox.len()) }
                    <p class="counters" data-testid="consumer">
                        <span>{ lang.f(format!("consumer received {}", consumer.received), format!("コンシューマ受信 {}", consumer.received)) }</span>
                        <span>{ lang.f(format!("applied {}", consumer.applied), format!("適用 {}", consumer.applied)) }</span>
                        <span>{ lang.f(format!("duplicates skipped {}", consumer.duplicates_ignored), format!("重複を無視 {}", consumer.duplicates_ignored)) }</span>
                        <span>{ lang.f(format!("duplicates applied {}", consumer.duplicates_applied), format!("重複を適用 {}", consumer.duplicates_applied)) }</span>
                    </p>
                </details>
            }
            <p class="counters" data-testid="counters">
                <span>{ lang.f(format!("hits {}", counters.hits), format!("ヒット {}", counters.hits)) }</span>
                <span>{ lang.f(format!("misses {}", counters.misses), format!("ミス {}", counters.misses)) }</span>
                <span>{ lang.f(format!("conflicts {}", counters.conflicts), format!("衝突 {}", counters.conflicts)) }</span>
                <span>{ lang.f(format!("mismatches {}", counters.mismatches), format!("不一致 {}", counters.mismatches)) }</span>
                <span>{ lang.f(format!("expirations {}", counters.expirations), format!("期限切れ {}", counters.expirations)) }</span>
            </p>
        </section>
    }
}
