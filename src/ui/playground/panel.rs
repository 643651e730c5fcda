//! One service's live state: balance, invariants, client outcomes, the tables (`panel_tables.rs`:
//! idempotency store, ledger, outbox and consumer) and counters. Long lists show their newest
//! rows, so a run with 10,000 keys renders as fast as one with ten.

use yew::prelude::*;

use crate::sim::AttemptOutcome;
use crate::sim::EmitMode;
use crate::sim::EventKind;
use crate::sim::Invariant;
use crate::sim::World;
use crate::ui::i18n::{tr, Lang};
use crate::ui::raw::Raw;
use crate::ui::text;

use super::panel_tables::{ledger_table, more_note, outbox_table, store_table};
use super::wire::wire_section;

/// Client operations listed (the newest ones).
pub const CLIENT_ROWS: usize = 6;

/// Balance change made by the last step, if any.
fn last_delta(world: &World) -> Option<i64> {
    let mut delta = 0;
    let mut any = false;
    for e in world.last_step_events() {
        match &e.kind {
            EventKind::Charge { amount, .. } | EventKind::ProcessorCharge { amount, .. } => {
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

/// A column's balance: account 0's, or each customer's account (`text::account_balances`).
pub fn balance_html(lang: Lang, world: &World) -> Html {
    let parts = text::account_balances(lang, world);
    if parts.is_empty() {
        return html! { { world.balance() } };
    }
    account_parts(parts, " · ")
}

/// Each account's part ("account 1: 900") between `sep`s, none broken inside ("アカウント 2：900"
/// broke anywhere in Japanese).
pub fn account_parts(parts: Vec<String>, sep: &'static str) -> Html {
    let sep = move |i: usize| if i > 0 { sep } else { "" };
    html! { <>{ for parts.into_iter().enumerate().map(|(i, p)| html! { <>{ sep(i) }<span class="acct">{ p }</span></> }) }</> }
}

/// Draws one service panel. `on_jump` moves the run to a step (a broken invariant's link);
/// `wire`, where the page shows HTTP on the wire, says whether its section starts open.
pub fn service_panel(
    lang: Lang,
    world: &World,
    on_jump: &Callback<usize>,
    wire: Option<bool>,
) -> Html {
    let cfg = world.config();
    let kind = cfg.service;
    let kind_attr = kind.id();
    let delta = last_delta(world);
    let emits = cfg.emit != EmitMode::None;
    // The invariants about callers (issue 13) show once a run has callers or request policies.
    let callers = world.uses_callers();
    let shown = |i: &Invariant| match i {
        Invariant::OneEventPerCharge | Invariant::ConsumerAtMostOnce => emits,
        Invariant::OwnAccountAnswers => callers,
        Invariant::ReplayMatchesRequest => callers && kind == crate::sim::ServiceKind::Production,
        _ => true,
    };

    let badges = Invariant::ALL
        .iter()
        .filter(|i| shown(i))
        .map(|inv| {
            let broken = world.violations().iter().find(|v| v.invariant == *inv);
            match broken {
                None => html! { <li class="badge pass">{ "✓ " }{ text::invariant_name(lang, *inv) }</li> },
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
                        <li class="badge fail" title={text::violation_text(lang, world, v)}>
                            { lang.t("✕ FAIL: ", "✕ 違反：") }{ text::invariant_name(lang, *inv) }{ " — " }
                            <a href="#" onclick={jump} data-testid="violation-step">
                                { tr!(lang, "step {step}", "ステップ {step}") }</a>
                            <span class="visually-detail">{ " · " }{ text::violation_text(lang, world, v) }</span>
                        </li>
                    }
                }
            }
        });

    let halted = world.halted().map(|h| {
        html! { <p class="notice error" role="alert" data-testid="halted">{ text::halt_text(lang, world, h) }</p> }
    });

    let all_clients = world.client_results();
    let shown_clients = all_clients.range(all_clients.len().saturating_sub(CLIENT_ROWS)..);
    // Every answer each client received, one element per answer (a retry with one key can get
    // two different ones), then where it stands if its answers do not say. No handlers: one
    // string (`ui/raw.rs`), like the tables.
    let mut list = Raw::default();
    list.open(
        "ul",
        &[
            ("class", "client-result"),
            (
                "aria-label",
                lang.t("What each client saw", "各クライアントが見た結果"),
            ),
        ],
    );
    for c in shown_clients.clone() {
        let n = c.op.0 + 1;
        let caller = callers.then(|| world.caller_of(c.op));
        let account = caller.map(|w| w.account.to_string());
        let account = account.as_deref().map_or(("", ""), |a| ("data-account", a));
        let amount = c.amount;
        list.open("li", &[("data-op", &n.to_string()), account])
            .text(&tr!(lang, "#{n} charge {amount}", "#{n} {amount} を課金"));
        if let Some(w) = caller {
            list.el(
                "span",
                &[("class", "muted"), ("data-testid", "caller")],
                &format!(" · {}", text::caller_text(lang, w)),
            );
        }
        // Each answer says whether the server executed it or replayed a stored one (Stripe's
        // `Idempotent-Replayed`), as the core marked the reply; a timeout is no answer.
        for (seen, &replayed) in c.seen.iter().zip(&c.replayed) {
            list.open(
                "span",
                &[
                    ("class", "answer"),
                    ("data-testid", "answer"),
                    ("data-attempt", &seen.attempt.to_string()),
                    ("data-replayed", if replayed { "true" } else { "false" }),
                ],
            )
            .text(" · ")
            .text(&text::attempt_outcome(lang, seen))
            .text(" ");
            let answered = match &seen.outcome {
                AttemptOutcome::Reply(r) | AttemptOutcome::LateReply(r) => Some(r),
                AttemptOutcome::TimedOut => None,
            };
            if let Some(result) = answered {
                let (class, title) = if replayed {
                    (
                        "replay-mark replayed",
                        ("title", "Idempotent-Replayed: true"),
                    )
                } else {
                    ("replay-mark", ("", ""))
                };
                list.el(
                    "span",
                    &[("class", class), title],
                    text::replay_mark(lang, replayed, result),
                );
            }
            list.close("span");
        }
        if let Some(o) = text::client_outcome(lang, &c.outcome) {
            list.el("span", &[("class", "muted")], &format!(" · {o}"));
        }
        list.close("li");
    }
    list.close("ul");

    let counters = world.counters();

    html! {
        <section class="service" data-service={kind_attr} aria-label={text::column_name(lang, cfg)}
                 data-emit={format!("{:?}", cfg.emit)} data-consumer-dedupes={cfg.consumer_dedupes.to_string()}>
            <h3>{ text::column_name(lang, cfg) }</h3>
            <p class="what">{ text::service_blurb(lang, kind) }
                if emits { <br/>{ lang.t("Events: ", "イベント：") }{ text::emit_name(lang, cfg.emit) }
                    { if cfg.consumer_dedupes { lang.t(", deduplicating consumer", "、重複排除するコンシューマ") } else { lang.t(", naive consumer", "、素朴なコンシューマ") } } }
            </p>
            <div class="balance-row">
                <span class="muted">{ lang.t("Balance", "残高") }</span>
                <span class={classes!("balance", delta.is_some().then_some("changed"), world.other_accounts_seen().then_some("accounts"))} data-testid="balance">{ balance_html(lang, world) }</span>
                { match delta {
                    Some(d) if d < 0 => html! { <span class="delta neg" aria-live="polite">{ format!("−{}", -d) }</span> },
                    Some(d) if d > 0 => html! { <span class="delta pos" aria-live="polite">{ format!("+{d}") }</span> },
                    Some(_) => html! { <span class="delta" aria-live="polite">{ lang.t("rolled back", "巻き戻し") }</span> },
                    None => html! {},
                } }
            </div>
            <ul class="badges" data-testid="invariants" aria-label={lang.t("Invariants", "不変条件")}
                data-failed={world.violations().len().to_string()}>{ for badges }</ul>
            { for halted }
            if !all_clients.is_empty() {
                { list.html() }
                { more_note(lang, shown_clients.len(), all_clients.len()) }
                if let Some(open) = wire { { wire_section(lang, world, shown_clients, open) } }
            }
            { store_table(lang, world) }
            { ledger_table(lang, world) }
            if emits { { outbox_table(lang, world) } }
            <p class="counters" data-testid="counters">
                <span>{ tr!(lang, ["hits {}", counters.hits], ["ヒット {}", counters.hits]) }</span>
                <span>{ tr!(lang, ["misses {}", counters.misses], ["ミス {}", counters.misses]) }</span>
                <span>{ tr!(lang, ["conflicts {}", counters.conflicts], ["衝突 {}", counters.conflicts]) }</span>
                <span>{ tr!(lang, ["mismatches {}", counters.mismatches], ["不一致 {}", counters.mismatches]) }</span>
                <span>{ tr!(lang, ["expirations {}", counters.expirations], ["期限切れ {}", counters.expirations]) }</span>
            </p>
        </section>
    }
}
