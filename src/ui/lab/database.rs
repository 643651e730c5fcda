//! The lab's "On a real database" (`lab/#/lab/postgres`): the same services written as SQL and
//! measured on PostgreSQL by `make pg-race` (data/pg-race.json, committed as the command wrote
//! it). First the learner predicts what PostgreSQL charged on the lab's shortest double charge,
//! variant by variant, beside what the lab's model says; then the 10-connection race, every
//! schedule of two requests, and the SQL of each variant. Every figure is the report's.

use yew::prelude::*;

use crate::sim::postgres::{
    counterexample_schedule, program, Report, ScheduleRow, Variant, REPORT_VERSION,
};
use crate::ui::i18n::{tr, Lang};
use crate::ui::text::postgres::{outcome_text, step_name, variant_name, variant_note};
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
            let what = step_name(l, step);
            tr!(l, "{who} {what}", "{who}{what}")
        })
        .collect();
    parts.join(l.t(", ", "、"))
}

/// Props of [`DatabasePage`].
#[derive(Properties, PartialEq)]
pub struct DatabaseProps {
    /// Page language.
    pub lang: Lang,
}

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
            let why = &e.message;
            return html! {
                <section class="lab card" data-testid="db-error">
                    <p class="field-error" role="alert">{ tr!(l,
                        "data/pg-race.json is not a report of version {REPORT_VERSION} ({why}): run `make pg-race` again.",
                        "data/pg-race.json がバージョン {REPORT_VERSION} のレポートではない（{why}）。`make pg-race` をもう一度実行しよう。") }</p>
                </section>
            };
        }
    };
    let on_counter: Vec<&ScheduleRow> = report
        .schedules
        .iter()
        .filter(|s| s.schedule == *counter)
        .collect();
    let guess_of = |v: Variant| guesses.iter().find(|(g, _)| *g == v).map(|(_, n)| *n);
    let guess = |v: Variant, n: u64| {
        let guesses = guesses.clone();
        Callback::from(move |_: MouseEvent| {
            let mut g: Vec<(Variant, u64)> =
                guesses.iter().copied().filter(|(x, _)| *x != v).collect();
            g.push((v, n));
            save_guesses(&g);
            guesses.set(g);
        })
    };
    let reveal_all = {
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
    };
    let answered = on_counter
        .iter()
        .filter(|r| guess_of(r.variant).is_some_and(|n| n > 0))
        .count();
    let right = on_counter
        .iter()
        .filter(|r| guess_of(r.variant) == Some(r.pg_charges))
        .count();
    let revealed = on_counter
        .iter()
        .filter(|r| guess_of(r.variant).is_some())
        .count();
    let predict_rows = on_counter.iter().map(|row| {
        let v = row.variant;
        let g = guess_of(v);
        let model = row.model_charges.map_or_else(|| l.t("no model", "モデルなし").to_string(), |m| m.to_string());
        let pg = match g {
            None => html! { <span class="muted">{ "?" }</span> },
            Some(n) => {
                let mark = match n {
                    0 => "",
                    n if n == row.pg_charges => "✓ ",
                    _ => "✗ ",
                };
                let outcomes: Vec<String> = row.outcomes.iter().map(|o| outcome_text(l, o)).collect();
                let who = outcomes.join(l.t(" / ", "／"));
                let charges = row.pg_charges;
                html! { <><strong>{ mark }{ charges }</strong>{ " " }<span class="muted">{ tr!(l, "({who})", "（{who}）") }</span></> }
            }
        };
        let buttons = (1..=2u64).map(|n| {
            let pressed = g == Some(n);
            html! { <button class={classes!(pressed.then_some("primary"))} aria-pressed={pressed.to_string()}
                            data-guess={n.to_string()} disabled={g.is_some()} onclick={guess(v, n)}>{ n }</button> }
        });
        html! {
            <tr data-variant={v.id()} data-revealed={g.is_some().to_string()}
                data-right={g.map(|n| (n == row.pg_charges).to_string())}>
                <th scope="row">{ variant_name(l, v) }</th>
                <td class="db-num">{ model }</td>
                <td class="db-guess">{ for buttons }</td>
                <td data-testid="db-pg">{ pg }</td>
            </tr>
        }
    });
    let race_rows = report.races.iter().map(|r| {
        let errors: Vec<String> = r.errors.iter().map(|e| format!("{} ×{}", e.sqlstate, e.count)).collect();
        html! {
            <tr data-variant={r.variant.id()} data-double={r.double_charged.to_string()}>
                <th scope="row">{ variant_name(l, r.variant) }</th>
                <td class={classes!("db-num", (r.double_charged > 0).then_some("bad"))}>{ r.double_charged }</td>
                <td class="db-num">{ r.max_charges }</td>
                <td class="db-num">{ r.charged }</td>
                <td class="db-num">{ r.replayed + r.in_flight }</td>
                <td class="db-num">{ r.retries }</td>
                <td>{ errors.join(", ") }</td>
                <td class="db-num">{ r.min_balance }</td>
            </tr>
        }
    });
    let verdicts = Variant::ALL.into_iter().map(|v| {
        let rows: Vec<&ScheduleRow> = report.schedules.iter().filter(|s| s.variant == v).collect();
        let total = rows.len();
        let double = rows.iter().filter(|s| s.pg_charges > 1).count();
        let agree = rows.iter().filter(|s| s.model_charges == Some(s.pg_charges)).count();
        let name = variant_name(l, v);
        let verdict = match v.lab_model() {
            None => tr!(l, "{name}: charged twice on {double} of {total} schedules (the lab has no model of it).",
                           "{name}：{total} 通り中 {double} 通りで2回課金（ラボにモデルはない）。"),
            Some(_) if agree == total => tr!(l, "{name}: the lab's model and PostgreSQL agree on all {total} schedules; twice charged on {double}.",
                                            "{name}：{total} 通りすべてでラボのモデルと PostgreSQL が一致。2回課金は {double} 通り。"),
            Some(_) => tr!(l, "{name}: the lab's model is wrong here. It promised one charge; PostgreSQL charged twice on {double} of {total} schedules.",
                              "{name}：ここではラボのモデルが誤り。モデルは課金1回を約束したが、PostgreSQL は {total} 通り中 {double} 通りで2回課金した。"),
        };
        html! { <li data-variant={v.id()} data-agree={(agree == total).to_string()}>{ verdict }</li> }
    });
    let sql = Variant::ALL.into_iter().map(|v| {
        let lines = program(v).iter().map(|s| {
            let step = step_name(l, s.step);
            html! { <><span class="muted">{ format!("-- {step}\n") }</span>{ format!("{};\n", s.sql) }</> }
        });
        html! {
            <details data-variant={v.id()}>
                <summary>{ variant_name(l, v) }</summary>
                <p>{ variant_note(l, v) }</p>
                <pre class="db-sql"><code>{ for lines }</code></pre>
            </details>
        }
    });
    let (server, date, n, k) = (
        &report.server,
        &report.date,
        report.connections,
        report.trials,
    );
    let plan = schedule_text(l, &counter);
    html! {
        <section class="lab db" aria-labelledby="db-h" data-testid="db">
            <header class="lab-intro">
                <h2 id="db-h">{ l.t("On a real database: is one transaction enough?", "本物のデータベースで：トランザクション1つで足りるか") }</h2>
                <p>{ l.t(
                    "The lab's atomic service holds one lock around check, charge and store, and the article says that in production this lock is a database transaction. Here the same services are written as SQL and run on PostgreSQL with real connections. Whether one transaction stops the double charge depends on its isolation level, on a constraint, or on a lock taken before the check.",
                    "ラボのアトミックなサービスはチェック・課金・保存を1つのロックで囲み、記事は本番ではこのロックがデータベースのトランザクションだと言う。ここでは同じサービスを SQL で書き、本物の接続で PostgreSQL 上で動かした。トランザクション1つで二重課金が止まるかは、分離レベル、制約、チェック前に取るロックで決まる。") }</p>
                <p class="muted" data-testid="db-measured">{ tr!(l,
                    "Measured on {date} with {server}: {n} connections per race, {k} races per variant. `make pg-race` measures again on a throwaway server and rewrites data/pg-race.json.",
                    "{date} に {server} で測定：1回の競合に {n} 接続、各方式 {k} 回。`make pg-race` が使い捨てのサーバーで測り直し、data/pg-race.json を書き換える。") }</p>
                <p><a href="#/lab">{ l.t("← Back to the lab", "← ラボに戻る") }</a></p>
            </header>
            <section class="card" aria-labelledby="db-predict-h">
                <h3 id="db-predict-h">{ l.t("Predict: the lab's shortest double charge, on PostgreSQL", "予想：ラボで最短の二重課金を PostgreSQL で") }</h3>
                <p>{ tr!(l,
                    "Two requests with the same key, each three steps, in the order the lab's explorer found for the three-lock service: {plan}. Each step ran on its own connection; a step that waited for a lock let the next one go first. How many times did PostgreSQL charge for each variant?",
                    "同じキーの2つのリクエスト（各3ステップ）を、ラボのエクスプローラが3ロックのサービスで見つけた順に動かした：{plan}。各ステップはそれぞれの接続で実行し、ロック待ちのステップがあれば次のステップを先に進めた。各方式で PostgreSQL は何回課金したか？") }</p>
                <div class="lab-table-wrap">
                    <table class="lab-table" data-testid="db-predict">
                        <thead><tr>
                            <th scope="col">{ l.t("Variant", "方式") }</th>
                            <th scope="col">{ l.t("The lab's model", "ラボのモデル") }</th>
                            <th scope="col">{ l.t("Your guess", "あなたの予想") }</th>
                            <th scope="col">{ l.t("PostgreSQL", "PostgreSQL") }</th>
                        </tr></thead>
                        <tbody>{ for predict_rows }</tbody>
                    </table>
                </div>
                <p role="status" data-testid="db-score">{
                    if revealed == on_counter.len() && answered > 0 {
                        tr!(l, "You predicted {right} of {answered} right.", "{answered} 問中 {right} 問正解。")
                    } else {
                        let left = on_counter.len() - revealed;
                        tr!(l, "{left} left to predict.", "残り {left} 問。")
                    }
                }</p>
                if revealed < on_counter.len() {
                    <button onclick={reveal_all} data-testid="db-reveal-all">{ l.t("Show every answer", "すべての答えを見る") }</button>
                }
            </section>
            if revealed == on_counter.len() {
                <section class="card" aria-labelledby="db-claims-h">
                    <h3 id="db-claims-h">{ l.t("Every schedule of two requests (20)", "2リクエストのすべてのスケジュール（20通り）") }</h3>
                    <ul data-testid="db-verdicts">{ for verdicts }</ul>
                </section>
                <section class="card" aria-labelledby="db-race-h">
                    <h3 id="db-race-h">{ tr!(l, "The article's 10-thread test: {n} connections, one key, {k} races", "記事の10スレッドテスト：{n} 接続、1つのキー、{k} 回") }</h3>
                    <div class="lab-table-wrap">
                        <table class="lab-table db-wide" data-testid="db-race">
                            <thead><tr>
                                <th scope="col">{ l.t("Variant", "方式") }</th>
                                <th scope="col">{ l.t("Races with a double charge", "二重課金の回数") }</th>
                                <th scope="col">{ l.t("Most charges per key", "1キーの最多課金") }</th>
                                <th scope="col">{ l.t("Charged", "課金") }</th>
                                <th scope="col">{ l.t("Replayed or 409", "リプレイ・409") }</th>
                                <th scope="col">{ l.t("Began again (40001)", "再試行（40001）") }</th>
                                <th scope="col">{ l.t("Errors (SQLSTATE)", "エラー（SQLSTATE）") }</th>
                                <th scope="col">{ l.t("Lowest balance", "最低残高") }</th>
                            </tr></thead>
                            <tbody>{ for race_rows }</tbody>
                        </table>
                    </div>
                </section>
            }
            <section class="card" aria-labelledby="db-sql-h" data-testid="db-sql">
                <h3 id="db-sql-h">{ l.t("The SQL of each variant, as it ran", "各方式の SQL（実行したとおり）") }</h3>
                { for sql }
            </section>
        </section>
    }
}
