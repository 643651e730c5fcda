//! One service's live state: balance, invariants, client outcomes, the tables (`panel_tables.rs`:
//! idempotency store, ledger, outbox and consumer) and counters. Long lists show their newest
//! rows, so a run with 10,000 keys renders as fast as one with ten.

use yew::prelude::*;

use crate::sim::pvec;
use crate::sim::AttemptOutcome;
use crate::sim::ClientResult;
use crate::sim::EmitMode;
use crate::sim::EventKind;
use crate::sim::Invariant;
use crate::sim::World;
use crate::sim::WorldConfig;
use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::{self, view};

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
        return html! { { text::money(world.balance()) } };
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
    (wire, selected): (Option<bool>, bool),
) -> Html {
    let cfg = world.config();
    let emits = cfg.emit != EmitMode::None;
    let halted = world.halted().map(|h| {
        html! { <p class="notice error" role="alert" data-testid="halted">{ text::halt_text(lang, world, h) }</p> }
    });
    let all_clients = world.client_results();
    let shown_clients = all_clients.range(all_clients.len().saturating_sub(CLIENT_ROWS)..);

    html! {
        <section class={if selected { "service selected" } else { "service" }} data-service={cfg.service.id()} aria-label={text::column_name(lang, cfg)}
                 data-emit={format!("{:?}", cfg.emit)} data-consumer-dedupes={cfg.consumer_dedupes.to_string()}>
            <h3>{ text::column_name(lang, cfg) }</h3>
            { what_it_is(lang, cfg) }
            { balance_row(lang, world) }
            { invariant_badges(lang, world, on_jump) }
            { for halted }
            if !all_clients.is_empty() {
                { client_list(lang, world, shown_clients.clone()) }
                { more_note(lang, shown_clients.len(), all_clients.len()) }
                if let Some(open) = wire { { wire_section(lang, world, shown_clients, open) } }
            }
            { store_table(lang, world) }
            { ledger_table(lang, world) }
            if emits { { outbox_table(lang, world) } }
            { store_counters(lang, world) }
        </section>
    }
}

/// What the service is, and how its events go downstream if it sends any.
fn what_it_is(lang: Lang, cfg: &WorldConfig) -> Html {
    let emits = cfg.emit != EmitMode::None;
    html! {
        <p class="what">{ text::service_blurb(lang, cfg.service) }
            if emits { <br/>{ view::playground::EVENTS_PREFIX.get(lang) }{ text::emit_name(lang, cfg.emit) }
                { view::playground::consumer_kind(lang, cfg.consumer_dedupes) } }
        </p>
    }
}

/// The balance, and what the last step did to it.
fn balance_row(lang: Lang, world: &World) -> Html {
    let delta = last_delta(world);
    html! {
        <div class="balance-row">
            <span class="muted">{ view::playground::BALANCE.get(lang) }</span>
            <span class={classes!("balance", delta.is_some().then_some("changed"), world.other_accounts_seen().then_some("accounts"))} data-testid="balance">{ balance_html(lang, world) }</span>
            { match delta {
                Some(d) if d < 0 => html! { <span class="delta neg" aria-live="polite">{ format!("−{}", -d) }</span> },
                Some(d) if d > 0 => html! { <span class="delta pos" aria-live="polite">{ format!("+{d}") }</span> },
                Some(_) => html! { <span class="delta" aria-live="polite">{ view::playground::ROLLED_BACK.get(lang) }</span> },
                None => html! {},
            } }
        </div>
    }
}

/// A badge per invariant that applies to the service: passed, or failed with a link to the
/// step where it broke.
fn invariant_badges(lang: Lang, world: &World, on_jump: &Callback<usize>) -> Html {
    let cfg = world.config();
    let kind = cfg.service;
    let emits = cfg.emit != EmitMode::None;
    // The invariants about callers (issue 13) show once a run has callers or request policies.
    let callers = world.uses_callers();
    let shown = |i: &Invariant| match i {
        Invariant::OneEventPerCharge | Invariant::ConsumerAtMostOnce => emits,
        Invariant::OwnAccountAnswers => callers,
        // Only once a reply was replayed (or the rule broke): before, a green check would claim
        // nothing, and beside a failure and a success for one key (lesson 8) it read as a
        // contradiction. The naive service never replays.
        Invariant::ReplayIdentical => {
            world.trace().iter().any(|e| {
                matches!(
                    e.kind,
                    crate::sim::EventKind::ResponseSent { replayed: true, .. }
                )
            }) || world.violations().iter().any(|v| v.invariant == *i)
        }
        // Production claims it; the article's services break it where a key is reused for
        // another request (shown then, so no green check sits beside the lesson saying so).
        Invariant::ReplayMatchesRequest => {
            (callers && kind == crate::sim::ServiceKind::Production)
                || world.violations().iter().any(|v| v.invariant == *i)
        }
        _ => true,
    };

    let badges = Invariant::ALL
        .iter()
        .filter(|i| shown(i))
        .map(|inv| {
            let broken = world.violations().iter().find(|v| v.invariant == *inv);
            match broken {
                // Its mark is the style's: ✓ once the run is over, ○ "so far" before (a green
                // check mid-run sat beside a lesson's words about a later break: 2.2, 12.2;
                // `app.css`, by whether Run to end can still go on).
                None => html! { <li class="badge pass">{ text::invariant_name(lang, *inv) }</li> },
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
                            { view::playground::FAIL_MARK.get(lang) }{ text::invariant_name(lang, *inv) }{ " — " }
                            <a href="#" onclick={jump} data-testid="violation-step">
                                { view::playground::violation_step(lang, step) }</a>
                            <span class="visually-detail">{ " · " }{ text::violation_text(lang, world, v) }</span>
                        </li>
                    }
                }
            }
        });
    html! {
        <ul class="badges" data-testid="invariants" aria-label={view::playground::INVARIANTS.get(lang)}
            data-failed={world.violations().len().to_string()}>{ for badges }</ul>
    }
}

/// Every answer each client received, one element per answer (a retry with one key can get two
/// different ones), then where it stands if its answers do not say. No handlers: one string
/// (`ui/raw.rs`), like the tables.
fn client_list(lang: Lang, world: &World, clients: pvec::Iter<'_, ClientResult>) -> Html {
    let callers = world.uses_callers();
    let mut list = Raw::default();
    list.open(
        "ul",
        &[
            ("class", "client-result"),
            ("aria-label", view::playground::CLIENTS_SEEN.get(lang)),
        ],
    );
    for c in clients {
        let n = c.op.0 + 1;
        let caller = callers.then(|| world.caller_of(c.op));
        let account = caller.map(|w| w.account.to_string());
        let account = account.as_deref().map_or(("", ""), |a| ("data-account", a));
        list.open("li", &[("data-op", &n.to_string()), account])
            .text(&view::playground::client_charge(lang, n, c.amount));
        if let Some(w) = caller {
            list.el(
                "span",
                &[("class", "muted"), ("data-testid", "caller")],
                &format!(" · {}", text::caller_text(lang, w)),
            );
        }
        answers(&mut list, lang, c);
        if let Some(o) = text::client_outcome(lang, &c.outcome) {
            list.el("span", &[("class", "muted")], &format!(" · {o}"));
        }
        list.close("li");
    }
    list.close("ul");
    list.html()
}

/// Each answer client `c` received says whether the server executed it or replayed a stored
/// one (Stripe's `Idempotent-Replayed`), as the core marked the reply; a timeout is no answer.
fn answers(list: &mut Raw, lang: Lang, c: &ClientResult) {
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
}

/// The idempotency store's counters.
fn store_counters(lang: Lang, world: &World) -> Html {
    let [hits, misses, conflicts, mismatches, expirations] =
        view::playground::store_counters(lang, &world.counters());
    html! {
        <p class="counters" data-testid="counters">
            <span>{ hits }</span>
            <span>{ misses }</span>
            <span>{ conflicts }</span>
            <span>{ mismatches }</span>
            <span>{ expirations }</span>
        </p>
    }
}
