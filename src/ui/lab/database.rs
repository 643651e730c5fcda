//! The lab's "On a real database" (`lab/#/lab/postgres`): the same services written as SQL and
//! measured on PostgreSQL by `make pg-race` (data/pg-race.json, committed as the command wrote
//! it). First the learner predicts what PostgreSQL charged on the lab's shortest double charge,
//! variant by variant, beside what the lab's model says; then the 10-connection race, every
//! schedule of two requests, and the SQL of each variant. Every figure is the report's.

use yew::prelude::*;

use crate::ui::text::money;

use crate::sim::postgres::{
    counterexample_schedule, program, RaceRow, Report, ScheduleRow, Variant,
};
use crate::ui::i18n::Lang;
use crate::ui::text::postgres::{outcome_text, step_name, variant_name, variant_note};
use crate::ui::text::view;
use crate::ui::web;

/// What `make pg-race` wrote.
const REPORT_JSON: &str = include_str!("../../../data/pg-race.json");

/// The learner's predictions, kept so a reload or a language switch keeps them:
/// `variant=charges;…`.
fn load_guesses() -> Vec<(Variant, u64)> {
    let text = web::load(web::PG_GUESSES_KEY).unwrap_or_default();
    text.split(';')
        .filter_map(|p| {
            let (v, n) = p.split_once('=')?;
            Some((Variant::from_id(v)?, n.parse().ok().filter(|n| *n <= 2)?))
        })
        .collect()
}

fn save_guesses(g: &[(Variant, u64)]) {
    let text: Vec<String> = g.iter().map(|(v, n)| format!("{}={n}", v.id())).collect();
    web::save(web::PG_GUESSES_KEY, &text.join(";"));
}

/// "A check, A charge, B check, …": a lab schedule as its steps.
fn schedule_text(l: Lang, schedule: &[usize]) -> String {
    let mut next = [0usize; 8];
    let parts: Vec<String> = schedule
        .iter()
        .map(|&r| {
            let step = next.get(r).copied().unwrap_or(0);
            if let Some(n) = next.get_mut(r) {
                *n += 1;
            }
            let who = char::from(b'A' + (r as u8).min(25));
            view::lab::db_step(l, who, step_name(l, step))
        })
        .collect();
    parts.join(view::lab::LIST_SEP.get(l))
}

/// Props of [`DatabasePage`].
#[derive(Properties, PartialEq)]
pub struct DatabaseProps {
    /// Page language.
    pub lang: Lang,
}

/// The learner's predictions on the page, with the state that keeps them.
type Guesses = UseStateHandle<Vec<(Variant, u64)>>;

/// The view.
#[function_component]
pub fn DatabasePage(props: &DatabaseProps) -> Html {
    let l = props.lang;
    let report = use_memo((), |_| Report::from_json(REPORT_JSON));
    // The lab's explorer finds it once, not on every redraw.
    let counter = use_memo((), |_| counterexample_schedule());
    let guesses = use_state(load_guesses);
    let report = match &*report {
        Ok(r) => r,
        Err(e) => {
            return html! {
                <section class="lab card" data-testid="db-error">
                    <p class="field-error" role="alert">{ view::lab::db_report_unreadable(l, &e.message) }</p>
                </section>
            };
        }
    };
    let on_counter: Vec<&ScheduleRow> = report
        .schedules
        .iter()
        .filter(|s| s.schedule == *counter)
        .collect();
    let revealed = on_counter
        .iter()
        .filter(|r| guess_of(&guesses, r.variant).is_some())
        .count();
    let all_revealed = revealed == on_counter.len();
    html! {
        <section class="lab db" aria-labelledby="db-h" data-testid="db">
            { intro(l, report) }
            { predict_section(l, &on_counter, &counter, &guesses) }
            if all_revealed {
                <section class="card" aria-labelledby="db-claims-h">
                    <h3 id="db-claims-h">{ view::lab::DB_EVERY_SCHEDULE.get(l) }</h3>
                    <ul data-testid="db-verdicts">{ for Variant::ALL.into_iter().map(|v| verdict(l, report, v)) }</ul>
                </section>
                { race_section(l, report) }
            }
            <section class="card" aria-labelledby="db-sql-h" data-testid="db-sql">
                <h3 id="db-sql-h">{ view::lab::DB_SQL_HEADING.get(l) }</h3>
                { for Variant::ALL.into_iter().map(|v| sql(l, v)) }
            </section>
        </section>
    }
}

/// The learner's guess for a variant: `Some(0)` when the answer was shown without a guess.
fn guess_of(guesses: &[(Variant, u64)], v: Variant) -> Option<u64> {
    guesses.iter().find(|(g, _)| *g == v).map(|(_, n)| *n)
}

/// The page's header: what it shows, when and where it was measured.
fn intro(l: Lang, report: &Report) -> Html {
    let (server, date, n, k) = (
        &report.server,
        &report.date,
        report.connections,
        report.trials,
    );
    html! {
        <header class="lab-intro">
            <h2 id="db-h">{ view::lab::DB_HEADING.get(l) }</h2>
            <p>{ view::lab::DB_INTRO.get(l) }</p>
            <p class="muted" data-testid="db-measured">{ view::lab::db_measured(l, date, server, n, k) }</p>
            <p><a class="back" href="#/lab">{ view::lab::DB_BACK_TO_LAB.get(l) }</a></p>
        </header>
    }
}

/// The prediction: a row per variant on the lab's shortest double charge, the score, and the
/// button that shows every answer.
fn predict_section(
    l: Lang,
    on_counter: &[&ScheduleRow],
    counter: &[usize],
    guesses: &Guesses,
) -> Html {
    let answered = on_counter
        .iter()
        .filter(|r| guess_of(guesses, r.variant).is_some_and(|n| n > 0))
        .count();
    let right = on_counter
        .iter()
        .filter(|r| guess_of(guesses, r.variant) == Some(r.pg_charges))
        .count();
    let revealed = on_counter
        .iter()
        .filter(|r| guess_of(guesses, r.variant).is_some())
        .count();
    let plan = schedule_text(l, counter);
    html! {
        <section class="card" aria-labelledby="db-predict-h">
            <h3 id="db-predict-h">{ view::lab::DB_PREDICT_HEADING.get(l) }</h3>
            <p>{ view::lab::db_predict_intro(l, &plan) }</p>
            <div class="lab-table-wrap">
                <table class="lab-table cards" data-testid="db-predict">
                    <thead><tr>
                        <th scope="col">{ view::lab::DB_VARIANT.get(l) }</th>
                        <th scope="col">{ view::lab::DB_LAB_MODEL.get(l) }</th>
                        <th scope="col">{ view::lab::DB_YOUR_GUESS.get(l) }</th>
                        <th scope="col">{ view::lab::DB_POSTGRESQL.get(l) }</th>
                    </tr></thead>
                    <tbody>{ for on_counter.iter().map(|row| predict_row(l, row, guesses)) }</tbody>
                </table>
            </div>
            <p role="status" data-testid="db-score">{
                if revealed == on_counter.len() && answered > 0 {
                    view::lab::db_score(l, right, answered)
                } else {
                    view::lab::db_left_to_predict(l, on_counter.len() - revealed)
                }
            }</p>
            if revealed < on_counter.len() {
                <button onclick={reveal_all(guesses, on_counter)} data-testid="db-reveal-all">{ view::lab::DB_SHOW_EVERY_ANSWER.get(l) }</button>
            }
        </section>
    }
}

/// Keeps the learner's guess of `n` charges for `v`.
fn guess(guesses: &Guesses, v: Variant, n: u64) -> Callback<MouseEvent> {
    let guesses = guesses.clone();
    Callback::from(move |_: MouseEvent| {
        let mut g: Vec<(Variant, u64)> = guesses.iter().copied().filter(|(x, _)| *x != v).collect();
        g.push((v, n));
        save_guesses(&g);
        guesses.set(g);
    })
}

/// Shows the answer of every variant not guessed yet (as a guess of 0).
fn reveal_all(guesses: &Guesses, on_counter: &[&ScheduleRow]) -> Callback<MouseEvent> {
    let guesses = guesses.clone();
    let rows: Vec<Variant> = on_counter.iter().map(|r| r.variant).collect();
    Callback::from(move |_: MouseEvent| {
        let mut g: Vec<(Variant, u64)> = guesses.to_vec();
        for v in &rows {
            if !g.iter().any(|(x, _)| x == v) {
                g.push((*v, 0));
            }
        }
        save_guesses(&g);
        guesses.set(g);
    })
}

/// A variant's row of the prediction: the lab's model, the guess buttons, and PostgreSQL's
/// answer once guessed.
fn predict_row(l: Lang, row: &ScheduleRow, guesses: &Guesses) -> Html {
    let v = row.variant;
    let g = guess_of(guesses, v);
    let model = row.model_charges.map_or_else(
        || view::lab::DB_NO_MODEL.get(l).to_string(),
        |m| m.to_string(),
    );
    let pg = match g {
        None => html! { <span class="muted">{ "?" }</span> },
        Some(n) => {
            let mark = match n {
                0 => "",
                n if n == row.pg_charges => "✓ ",
                _ => "✗ ",
            };
            let outcomes: Vec<String> = row.outcomes.iter().map(|o| outcome_text(l, o)).collect();
            let who = outcomes.join(view::lab::DB_OUTCOME_SEP.get(l));
            let charges = row.pg_charges;
            html! { <><strong>{ mark }{ charges }</strong>{ " " }<span class="muted">{ view::lab::db_outcomes(l, &who) }</span></> }
        }
    };
    let buttons = (1..=2u64).map(|n| {
        let pressed = g == Some(n);
        html! { <button class={classes!(pressed.then_some("primary"))} aria-pressed={pressed.to_string()}
                        data-guess={n.to_string()} disabled={g.is_some()} onclick={guess(guesses, v, n)}>{ n }</button> }
    });
    html! {
        <tr data-variant={v.id()} data-revealed={g.is_some().to_string()}
            data-right={g.map(|n| (n == row.pg_charges).to_string())}>
            <th scope="row">{ variant_name(l, v) }</th>
            <td class="db-num" data-label={view::lab::DB_LAB_MODEL.get(l)}>{ model }</td>
            <td class="db-guess" data-label={view::lab::DB_YOUR_GUESS.get(l)}>{ for buttons }</td>
            <td data-testid="db-pg" data-label={view::lab::DB_POSTGRESQL.get(l)}>{ pg }</td>
        </tr>
    }
}

/// A variant over every schedule of two requests: how often it charged twice, and whether the
/// lab's model agrees with PostgreSQL.
fn verdict(l: Lang, report: &Report, v: Variant) -> Html {
    let rows: Vec<&ScheduleRow> = report.schedules.iter().filter(|s| s.variant == v).collect();
    let total = rows.len();
    let double = rows.iter().filter(|s| s.pg_charges > 1).count();
    let agree = rows
        .iter()
        .filter(|s| s.model_charges == Some(s.pg_charges))
        .count();
    let name = variant_name(l, v);
    let verdict = match v.lab_model() {
        None => view::lab::db_verdict_no_model(l, name, double, total),
        Some(_) if agree == total => view::lab::db_verdict_agree(l, name, double, total),
        Some(_) => view::lab::db_verdict_wrong(l, name, double, total),
    };
    html! { <li data-variant={v.id()} data-agree={(agree == total).to_string()}>{ verdict }</li> }
}

/// The article's 10-thread test, a row per variant.
fn race_section(l: Lang, report: &Report) -> Html {
    let (n, k) = (report.connections, report.trials);
    html! {
        <section class="card" aria-labelledby="db-race-h">
            <h3 id="db-race-h">{ view::lab::db_race_heading(l, n, k) }</h3>
            <div class="lab-table-wrap">
                <table class="lab-table db-wide cards" data-testid="db-race">
                    <thead><tr>
                        <th scope="col">{ view::lab::DB_VARIANT.get(l) }</th>
                        <th scope="col">{ view::lab::DB_RACES_DOUBLE.get(l) }</th>
                        <th scope="col">{ view::lab::DB_MOST_CHARGES.get(l) }</th>
                        <th scope="col">{ view::lab::DB_CHARGED.get(l) }</th>
                        <th scope="col">{ view::lab::DB_REPLAYED.get(l) }</th>
                        <th scope="col">{ view::lab::DB_BEGAN_AGAIN.get(l) }</th>
                        <th scope="col">{ view::lab::DB_ERRORS.get(l) }</th>
                        <th scope="col">{ view::lab::DB_LOWEST_BALANCE.get(l) }</th>
                    </tr></thead>
                    <tbody>{ for report.races.iter().map(|r| race_row(l, r)) }</tbody>
                </table>
            </div>
        </section>
    }
}

/// A variant's row of the race.
fn race_row(l: Lang, r: &RaceRow) -> Html {
    let errors: Vec<String> = r
        .errors
        .iter()
        .map(|e| format!("{} ×{}", e.sqlstate, e.count))
        .collect();
    html! {
        <tr data-variant={r.variant.id()} data-double={r.double_charged.to_string()}>
            <th scope="row">{ variant_name(l, r.variant) }</th>
            <td class={classes!("db-num", (r.double_charged > 0).then_some("bad"))} data-label={view::lab::DB_RACES_DOUBLE.get(l)}>{ r.double_charged }</td>
            <td class="db-num" data-label={view::lab::DB_MOST_CHARGES.get(l)}>{ r.max_charges }</td>
            <td class="db-num" data-label={view::lab::DB_CHARGED.get(l)}>{ r.charged }</td>
            <td class="db-num" data-label={view::lab::DB_REPLAYED.get(l)}>{ r.replayed + r.in_flight }</td>
            <td class="db-num" data-label={view::lab::DB_BEGAN_AGAIN.get(l)}>{ r.retries }</td>
            <td data-label={view::lab::DB_ERRORS.get(l)}>{ errors.join(", ") }</td>
            <td class="db-num" data-label={view::lab::DB_LOWEST_BALANCE.get(l)}>{ money(r.min_balance) }</td>
        </tr>
    }
}

/// A variant's SQL, step by step.
fn sql(l: Lang, v: Variant) -> Html {
    let lines = program(v).iter().map(|s| {
        let step = step_name(l, s.step);
        html! { <><span class="muted">{ format!("-- {step}\n") }</span>{ format!("{};\n", s.sql) }</> }
    });
    html! {
        <details data-variant={v.id()}>
            <summary>{ variant_name(l, v) }</summary>
            <p>{ variant_note(l, v) }</p>
            <pre class="db-sql" tabindex="0"><code>{ for lines }</code></pre>
        </details>
    }
}
