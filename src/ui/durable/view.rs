//! The page's parts as view functions (no components of their own: each would cost the wasm
//! its lifecycle code): the lesson list, the lesson, challenge or free-run card with the
//! question, the controls and caption, one card per column (worker, balance, journal, effects,
//! replies, invariants, store), the workflow's source with the current lines, the sequence
//! timeline, the settings, the engines' documented behaviour, and share / import.

use yew::prelude::*;

use crate::sim::durable::{
    challenge, section, source_lines, Action, Answer, ClockMode, Config, ConflictPolicy,
    EffectKind, Engine, FaultKind, FlowKind, Invariant, KeyMode, Posed, RequestId, RestateTarget,
    ReusePolicy, World, AFTER_RETENTION_MS, CHALLENGE_IDS, DEFAULT_START_TO_CLOSE_MS, LESSON_IDS,
};
use crate::sim::limits::MAX_JSON_BYTES;
use crate::ui::i18n::{tr, Lang};
use crate::ui::playground::teach::Mark;
use crate::ui::run::Controls;
use crate::ui::text::durable as words;
use crate::ui::text::errors::input_error;
use crate::ui::text::fmt_ms;

use super::persist;
use super::state::{DurAction, DurUi, Mode, Notice, Setting};

type On = Callback<DurAction>;

/// The lesson list: lessons with ✓ when done, challenges with ★ when won, the free run.
pub fn lesson_list(l: Lang, mode: Mode) -> Html {
    let item = |href: String, title: &'static str, mark: Option<Mark>, current: bool| {
        let sign = match mark {
            Some(Mark::Done) => "✓ ",
            Some(Mark::Won) => "★ ",
            None => "",
        };
        html! {
            <li><a href={href} class={classes!(current.then_some("active"))}
                   aria-current={current.then_some("page")}>{ sign }{ title }</a></li>
        }
    };
    let lessons = LESSON_IDS.iter().map(|id| {
        let cur = mode == Mode::Lesson(id);
        item(
            format!("#/scenario/{id}"),
            words::lesson(l, id).title,
            persist::marked(id),
            cur,
        )
    });
    let challenges = CHALLENGE_IDS.iter().map(|id| {
        let cur = mode == Mode::Challenge(id);
        item(
            format!("#/durable/challenge/{id}"),
            words::challenge(l, id).0,
            persist::marked(id),
            cur,
        )
    });
    html! {
        <nav class="dur-lessons" aria-label={l.t("Lessons", "レッスン")} data-testid="lesson-list">
            <ol>{ for lessons }</ol>
            <p class="muted">{ l.t("Challenges", "チャレンジ") }</p>
            <ul>{ for challenges }
                { item("#/durable".into(), l.t("Free run: your own settings", "自由に動かす"), None, mode == Mode::Free) }
            </ul>
        </nav>
    }
}

/// The message above the run.
pub fn notice(l: Lang, n: &Notice) -> Html {
    let (class, text) = match n {
        Notice::BadLink(e) => (
            "error",
            format!(
                "{}{}",
                l.t(
                    "This link could not be read, so the page opens without it: ",
                    "このリンクは読めないので、リンクなしで開いている："
                ),
                input_error(l, e)
            ),
        ),
        Notice::BadSaved(e) => (
            "error",
            format!(
                "{}{}",
                l.t(
                    "The run saved in this browser could not be restored: ",
                    "このブラウザに保存された実行は復元できない："
                ),
                input_error(l, e)
            ),
        ),
        Notice::BadImport(e) => (
            "error",
            format!(
                "{}{}",
                l.t("Not imported: ", "読み込まなかった："),
                input_error(l, e)
            ),
        ),
        Notice::Imported => ("info", l.t("Run loaded.", "実行を読み込んだ。").to_string()),
        Notice::UnknownChallenge => (
            "error",
            l.t(
                "There is no challenge with this name on this page, so the free run is shown. The challenges are listed above.",
                "このページにこの名前のチャレンジはないので、自由な実行を表示する。チャレンジは上の一覧にある。",
            )
            .to_string(),
        ),
        Notice::Action(e) => ("error", words::action_error(l, *e)),
        Notice::RefusedPolicies(columns) => ("error", words::policy_notice(l, columns)),
        Notice::OlderModel => ("info", words::older_model(l).to_string()),
        Notice::NoMoreCrashes(n) => (
            "error",
            if *n == 1 {
                l.t(
                    "This challenge allows one crash, and it is used. Reset to try again.",
                    "このチャレンジで許されるクラッシュは1回で、もう使った。やり直すにはリセットする。",
                )
                .to_string()
            } else {
                tr!(
                    l,
                    "This challenge allows {n} crashes, and they are used. Reset to try again.",
                    "このチャレンジで許されるクラッシュは {n} 回で、もう使い切った。やり直すにはリセットする。"
                )
            },
        ),
    };
    html! { <p class={classes!("notice", class)} role="status" data-testid="dur-notice">{ text }</p> }
}

fn why_with_step(l: Lang, why: &str, step: usize, on: &On) -> Html {
    let (before, after) = match why.find('{') {
        Some(i) => (&why[..i], why.get(i + "{step}".len()..).unwrap_or("")),
        None => (why, ""),
    };
    let jump = on.reform(move |e: MouseEvent| {
        e.prevent_default();
        DurAction::Seek(step)
    });
    html! {
        <p class="why" data-testid="why">{ before }
            <a href="#" onclick={jump} data-testid="why-step">{ tr!(l, "{step}", "{step}") }</a>{ after }</p>
    }
}

fn predict(l: Lang, ui: &DurUi, id: &str, on: &On) -> Html {
    let w = words::lesson(l, id);
    let Some(posed) = &ui.posed else {
        return html! {};
    };
    let posed: &Posed = match posed {
        Ok(p) => p,
        Err(n) => {
            return html! {
                <div class="predict" data-testid="predict" data-state="not-applicable">
                    <p>{ words::not_posed(l, *n) }</p>
                </div>
            }
        }
    };
    let Some(answer) = ui.answer else {
        let labels = posed
            .choices
            .iter()
            .map(|a| words::answer(l, *a).to_string());
        let hint = crate::ui::question::wait_hint(l, ui.run.cursor(), posed.ask_at);
        return crate::ui::question::open_question(
            l,
            w.ask,
            labels,
            on.reform(DurAction::Answer),
            on.reform(|_| DurAction::Skip),
            &hint,
        );
    };
    let right: Answer = posed.choices[posed.answer];
    let changed = ui.run.columns() != ui.mode.columns().as_slice() || !ui.run.actions().is_empty();
    let (state, verdict) = match answer {
        Some(i) if i == posed.answer => (
            "right",
            tr!(
                l,
                ["✓ Right: {}.", words::answer(l, right)],
                ["✓ 正解：{}。", words::answer(l, right)]
            ),
        ),
        Some(i) => {
            let picked = posed.choices.get(i).copied().unwrap_or(right);
            (
                "wrong",
                tr!(
                    l,
                    [
                        "✕ Not quite: you said {}, the run gives {}.",
                        words::answer(l, picked),
                        words::answer(l, right)
                    ],
                    [
                        "✕ はずれ：予想は「{}」、実行の答えは「{}」。",
                        words::answer(l, picked),
                        words::answer(l, right)
                    ]
                ),
            )
        }
        None => (
            "skipped",
            tr!(
                l,
                ["Skipped. The run gives {}.", words::answer(l, right)],
                [
                    "スキップした。実行の答えは「{}」。",
                    words::answer(l, right)
                ]
            ),
        ),
    };
    html! {
        <div class="predict" data-testid="predict" data-state={state}>
            <p class="ask"><strong>{ l.t("Predict: ", "予想：") }</strong>{ w.ask }</p>
            <p class={classes!("verdict", state)} data-testid="verdict" role="status">{ verdict }</p>
            if changed {
                // The words explain the lesson as built; this run is another one.
                <p class="why muted" data-testid="why-changed">{ l.t(
                    "You changed this lesson's settings or crashed the worker by hand, so its explanation, written for the run as built, is not shown: the answer above is this run's. Reset to read it.",
                    "このレッスンの設定を変えたか、手でワーカーを落としたので、組み込みの実行のために書いた説明は表示しない。上の答えはこの実行のもの。説明を読むにはリセットする。") }</p>
            } else {
                { why_with_step(l, w.why, posed.shows_at, on) }
                <p class="takeaway">{ w.takeaway }</p>
            }
            <button class="again" data-testid="predict-again" onclick={on.reform(|_| DurAction::AskAgain)}>{ l.t("Ask me again", "もう一度問う") }</button>
        </div>
    }
}

/// The card above the run: the lesson with its question, the challenge, or the free run.
pub fn intro(l: Lang, ui: &DurUi, on: &On) -> Html {
    match ui.mode {
        Mode::Lesson(id) => {
            let w = words::lesson(l, id);
            html! {
                <section class="card lesson" aria-labelledby="dur-lesson-h" data-testid="lesson">
                    <h2 id="dur-lesson-h">{ w.title }</h2>
                    <p>{ w.story }</p>
                    { predict(l, ui, id, on) }
                </section>
            }
        }
        Mode::Challenge(id) => {
            let (title, brief) = words::challenge(l, id);
            let c = challenge(id);
            let (used, max) = c
                .as_ref()
                .map_or((0, 0), |c| (c.crashes_used(&ui.run), c.max_crashes));
            let won = ui.won();
            let solution =
                c.as_ref()
                    .and_then(|c| c.solution().map(|a| (c, a)))
                    .map(|(c, actions)| {
                        let s = crate::sim::durable::SavedState {
                            columns: vec![c.config.clone()],
                            actions,
                            cursor: 0,
                        };
                        format!("#/durable/challenge/{id}?{}", persist::to_query(&s))
                    });
            html! {
                <section class="card challenge" aria-labelledby="dur-ch-h" data-testid="challenge" data-won={won.to_string()}>
                    <h2 id="dur-ch-h">{ title }</h2>
                    <p>{ brief }</p>
                    <p data-testid="crashes-left">{ tr!(l, ["Crashes used: {} of {}", used, max], ["使ったクラッシュ：{} / {}", used, max]) }</p>
                    if won {
                        <p class="verdict right" role="status" data-testid="won">{ l.t("★ Won: the goal holds at this step.", "★ 達成：このステップで目標を満たした。") }</p>
                    } else {
                        <p class="muted">{ l.t("The goal is checked after every step.", "目標は各ステップの後に確かめる。") }</p>
                    }
                    if let Some(href) = solution {
                        <details><summary>{ l.t("Stuck? A solution", "行き詰まったら：解答") }</summary>
                            <a href={href} data-testid="solution">{ l.t("Open a run that wins (found by the core)", "達成する実行を開く（コアが見つけたもの）") }</a>
                        </details>
                    }
                </section>
            }
        }
        Mode::Free => html! {
            <section class="card lesson" data-testid="free">
                <h2>{ l.t("Free run", "自由に動かす") }</h2>
                <p>{ l.t(
                    "Pick the workflow, the engine, the key, the clock and the faults below; step through, crash the worker when you like, and start the workflow again with the same id.",
                    "下でワークフロー、エンジン、キー、時計、障害を選び、一歩ずつ進め、好きなときにワーカーをクラッシュさせ、同じ ID でワークフローをもう一度開始する。") }</p>
            </section>
        },
    }
}

/// The controls and the caption of the step, in the sticky bar.
pub fn controls(l: Lang, ui: &DurUi, on: &On) -> Html {
    let run = &ui.run;
    let (k, end) = (run.cursor(), run.end());
    let held = ui.limit() == Some(k);
    let can = |a: Action| !held && run.can(a);
    let w = &run.worlds()[ui.selected.min(run.worlds().len() - 1)];
    let caption: Vec<String> = w
        .trace()
        .iter()
        .filter(|e| e.at == k && k > 0)
        .map(|e| words::event(l, e))
        .collect();
    let caption = if k == 0 {
        l.t(
            "Step 0: nothing has happened yet. Press Step (→) or Play (space).",
            "ステップ 0：まだ何も起きていない。進む（→）か再生（スペース）を押す。",
        )
        .to_string()
    } else if held {
        l.t(
            "The run waits for your prediction above.",
            "実行は上の予想を待っている。",
        )
        .to_string()
    } else if caption.is_empty() {
        l.t(
            "Nothing happens in this column at this step.",
            "この列ではこのステップに何も起きない。",
        )
        .to_string()
    } else {
        caption.join(" ")
    };
    html! {
        <div class="dur-bar" data-testid="controls">
            <Controls lang={l} position={k} total={end} playing={ui.playing} speed_ms={ui.speed_ms}
                      on={on.reform(DurAction::from)} limit={ui.limit()} />
            <div class="controls dur-actions">
                <button class="danger" onclick={on.reform(|_| DurAction::Act(Action::Crash))} disabled={!can(Action::Crash)} data-testid="crash-worker">{ l.t("Crash the worker now", "今ワーカーをクラッシュ") }</button>
                <button onclick={on.reform(|_| DurAction::Act(Action::Restart))} disabled={!can(Action::Restart)} data-testid="restart-worker">{ l.t("Restart it", "再起動する") }</button>
                <button onclick={on.reform(|_| DurAction::Act(Action::StartAgain))} disabled={!can(Action::StartAgain) || matches!(ui.mode, Mode::Challenge(_))} data-testid="start-again">{ l.t("Start again, same id", "同じ ID でもう一度開始") }</button>
                <button onclick={on.reform(|_| DurAction::Reset)} data-testid="start-over">{ l.t("Start over", "最初からやり直す") }</button>
            </div>
            <p class="caption" data-testid="caption" aria-live="polite">{ caption }</p>
        </div>
    }
}

fn column_title(l: Lang, c: &Config) -> String {
    let e = words::engine(l, c.engine);
    let k = words::key(l, c.key);
    let mut title = tr!(l, "{e} · key: {k}", "{e} · キー：{k}");
    if c.flow == FlowKind::Order {
        let ck = words::clock(l, c.clock);
        title.push_str(&tr!(l, " · clock: {ck}", " · 時計：{ck}"));
    }
    if c.engine == Engine::Temporal && (c.start_again_at_ms.is_some() || c.policy_error().is_some())
    {
        title.push_str(" · ");
        title.push_str(words::reuse(c.reuse));
        title.push_str(" / ");
        title.push_str(words::conflict(c.conflict));
        if c.start_again_at_ms.is_some() && c.request_id == RequestId::Same {
            title.push_str(l.t(" · same request id", " · 同じ request id"));
        }
    }
    if c.engine == Engine::Temporal && c.start_to_close_ms != DEFAULT_START_TO_CLOSE_MS {
        let t = fmt_ms(l, c.start_to_close_ms);
        title.push_str(&tr!(l, " · Start-To-Close {t}", " · Start-To-Close {t}"));
    }
    if c.start_again_at_ms.is_some() && c.engine == Engine::Restate {
        title.push_str(" · ");
        title.push_str(words::restate_target(l, c.restate));
    }
    if let Some(ms) = c.start_again_at_ms {
        let t = fmt_ms(l, ms);
        title.push_str(&tr!(l, " · again at {t}", " · {t} に再び開始"));
    }
    title
}

fn journal(l: Lang, w: &World) -> Html {
    let Some(run) = w.current_run() else {
        return html! { <p class="muted">{ l.t("No run yet.", "まだ実行はない。") }</p> };
    };
    let current = w.current_entry().map(|(p, _)| p);
    let mismatch = run.mismatch.map(|(p, _, _)| p);
    let rows = run.journal.iter().enumerate().map(|(i, e)| {
        let result = match e.result {
            None => l.t("started, no result", "開始、結果なし").to_string(),
            Some(crate::sim::durable::StepOutcome::Done) => l.t("done", "完了").to_string(),
            Some(crate::sim::durable::StepOutcome::Failed) => l.t("failed", "失敗").to_string(),
            Some(crate::sim::durable::StepOutcome::Time(ms)) => format!("{ms} ms"),
        };
        let read = if e.replayed { l.t("replayed", "リプレイ") } else { l.t("ran", "実行") };
        html! {
            <tr data-replayed={e.replayed.to_string()} class={classes!(e.replayed.then_some("replayed"), (current == Some(i)).then_some("current"), (mismatch == Some(i)).then_some("mismatch"))}>
                <td>{ i }</td><td><code>{ e.step.id() }</code></td><td>{ result }</td><td>{ e.attempts }</td><td>{ read }</td>
            </tr>
        }
    });
    let store_label = if w.config().engine.durable() {
        l.t("Journal", "ジャーナル")
    } else {
        l.t(
            "Progress in memory (lost at a crash)",
            "メモリ上の進み具合（クラッシュで消える）",
        )
    };
    let no = run.no;
    html! {
        <div class="table-wrap">
            <table class="dur-journal">
                <caption>{ store_label }{ tr!(l, " — run {no}", " — 実行 {no}") }</caption>
                <thead><tr><th>{ "#" }</th><th>{ l.t("step", "ステップ") }</th><th>{ l.t("result", "結果") }</th><th>{ l.t("runs", "実行回数") }</th><th>{ l.t("read", "読み方") }</th></tr></thead>
                <tbody data-testid="journal">{ for rows }</tbody>
            </table>
        </div>
    }
}

/// The invariant's id in the page (`data-invariant`).
fn invariant_id(i: Invariant) -> &'static str {
    match i {
        Invariant::OneChargePerOrder => "one-charge-per-order",
        Invariant::RefundPerCharge => "refund-per-charge",
        Invariant::EndedKeptOrCompensated => "ended-kept-or-compensated",
        Invariant::ReplayNeverReruns => "replay-never-reruns",
    }
}

/// One invariant of a column: ✓ or ✕ where the column's settings and the learner's actions
/// promise it; where they do not, "not promised here" and why, and a break said without the ✕
/// of a failure (as the Kafka page does).
fn invariant_row(l: Lang, inv: Invariant, c: &Config, ui: &DurUi, w: &World, on: &On) -> Html {
    let why = inv.not_promised(c, ui.run.actions());
    let broken = w.violation(inv);
    let state = if broken.is_some() { "broken" } else { "holds" };
    let promised = why.is_none().to_string();
    let title = words::promise(l, inv);
    let seek = |at: usize| {
        on.reform(move |e: MouseEvent| {
            e.prevent_default();
            DurAction::Seek(at)
        })
    };
    match (why, broken) {
        (None, Some(v)) => html! {
            <li class="badge fail" data-testid="violation" data-invariant={invariant_id(inv)} data-state={state} data-promised={promised} title={title}>
                <a href="#" onclick={seek(v.at)}>{ words::violation(l, v) }</a>
            </li>
        },
        (None, None) => html! {
            <li class="badge pass" data-invariant={invariant_id(inv)} data-state={state} data-promised={promised} title={title}>
                { "✓ " }{ words::invariant(l, inv) }
            </li>
        },
        (Some(why), broken) => html! {
            <li class="badge na" data-testid={broken.map(|_| "violation")} data-invariant={invariant_id(inv)} data-state={state} data-promised={promised} title={title}>
                { "– " }{ words::invariant(l, inv) }
                <span data-testid="not-promised">{ l.t(" — ", "：") }{ words::not_promised_here(l) }{ l.t(": ", "（") }{ words::not_promised(l, why) }{ l.t("", "）") }</span>
                if let Some(v) = broken {
                    { l.t("; ", "。") }<a href="#" onclick={seek(v.at)}>{ words::unpromised_break(l, v) }</a>
                }
            </li>
        },
    }
}

fn column(l: Lang, ui: &DurUi, i: usize, w: &World, on: &On) -> Html {
    let c = w.config();
    let selected = i == ui.selected;
    let balance = w.balance();
    let charges = w.count(EffectKind::Charged);
    let status = w
        .current_run()
        .map(|r| (r.no, words::run_status(l, r.status)));
    let worker = w.worker();
    let effects = [
        EffectKind::Reserved, EffectKind::Charged, EffectKind::ChargeReplayed, EffectKind::Declined,
        EffectKind::ShippedExpress, EffectKind::ShippedStandard, EffectKind::Receipt,
        EffectKind::FlightBooked, EffectKind::HotelReserved, EffectKind::FlightCancelled,
        EffectKind::Refunded, EffectKind::RefundReplayed,
    ]
    .into_iter()
    .filter_map(|k| {
        let n = w.count(k);
        (n > 0).then(|| html! { <li class={classes!((n > 1 && matches!(k, EffectKind::Charged | EffectKind::Refunded)).then_some("twice"))}>{ words::effect(l, k) }{ ": " }<strong>{ n }</strong></li> })
    });
    let replies = w
        .replies()
        .iter()
        .map(|r| html! { <li>{ words::reply(l, *r) }</li> });
    let badges = Invariant::ALL
        .iter()
        .map(|&inv| invariant_row(l, inv, c, ui, w, on));
    let store = w.store().iter().map(|(k, r)| {
        let b = match r.outcome() {
            crate::sim::PaymentResult::Success { balance } => *balance,
            _ => 0,
        };
        html! { <li><code>{ k.clone() }</code>{ tr!(l, " → charged, balance {b}", " → 課金、残高 {b}") }</li> }
    });
    let mismatch = w.mismatch().map(|(_, v)| html! {
        <p class="notice error" data-testid="nondeterminism" role="alert">{ words::verdict(l, v) }</p>
    });
    let refused = c.policy_error().map(|e| html! {
        <p class="notice error" data-testid="policy-error" role="alert">{ words::policy_error(l, e) }</p>
    });
    html! {
        <article class={classes!("card", "dur-col", selected.then_some("selected"))} data-column={i.to_string()} data-testid="column">
            <h3>{ column_title(l, c) }</h3>
            if ui.run.columns().len() > 1 {
                <button class="follow" aria-pressed={selected.to_string()} onclick={on.reform(move |_| DurAction::Select(i))} data-testid="follow">
                    { if selected { l.t("The code and timeline follow this column", "コードとタイムラインはこの列") } else { l.t("Follow this column", "この列を追う") } }
                </button>
            }
            <p class="dur-state">
                { l.t("Worker: ", "ワーカー：") }<span class={classes!("badge", "worker", format!("worker-{worker:?}").to_lowercase())} data-testid="worker" data-state={format!("{worker:?}").to_lowercase()}>{ words::worker(l, worker) }</span>
                if let Some((no, s)) = status { { tr!(l, " · run {no}: ", " · 実行 {no}：") }<span data-testid="run-status">{ s }</span> }
            </p>
            <p class="dur-balance">{ l.t("Balance ", "残高 ") }<strong data-testid="balance">{ balance }</strong>
                <span class={classes!("muted", (charges > 1).then_some("twice"))} data-testid="charges">{ tr!(l, " · charged {charges}×", " · 課金 {charges} 回") }</span></p>
            { for refused }
            { for mismatch }
            { journal(l, w) }
            <ul class="dur-effects" data-testid="effects">{ for effects }</ul>
            if !w.replies().is_empty() {
                <p class="muted dur-sub">{ l.t("Starts of order-42", "order-42 の開始") }</p>
                <ul class="dur-replies" data-testid="replies">{ for replies }</ul>
            }
            if !w.store().is_empty() {
                <p class="muted dur-sub">{ l.t("Payment service's idempotency store", "決済サービスの冪等性ストア") }</p>
                <ul class="dur-store" data-testid="store">{ for store }</ul>
            }
            <ul class="badges">{ for badges }</ul>
        </article>
    }
}

/// One card per column.
pub fn columns(l: Lang, ui: &DurUi, on: &On) -> Html {
    let cols = ui
        .run
        .worlds()
        .iter()
        .enumerate()
        .map(|(i, w)| column(l, ui, i, w, on));
    html! { <div class={classes!("dur-columns", format!("cols-{}", ui.run.worlds().len()))}>{ for cols }</div> }
}

/// The selected column's workflow source, the lines of the current step marked.
pub fn source(l: Lang, ui: &DurUi) -> Html {
    let w = &ui.run.worlds()[ui.selected.min(ui.run.worlds().len() - 1)];
    let flow = w.config().flow;
    let current = w.current_entry().map(|(_, s)| section(flow, s));
    let lines = source_lines(flow).into_iter().map(|line| {
        let cur = Some(line.section) == current;
        html! {
            <div class={classes!("src-line", cur.then_some("current"))} data-current={cur.to_string()}>
                <span class="ln">{ line.number }</span><code>{ line.text }</code>
            </div>
        }
    });
    html! {
        <section class="card dur-source" aria-labelledby="dur-src-h">
            <h2 id="dur-src-h">{ l.t("The workflow's code", "ワークフローのコード") }</h2>
            <p class="muted">{ l.t(
                "The real source the engine runs (src/sim/durable/workflow.rs); the highlighted lines take the step the worker is at. `?` hands the engine the first step without a journaled result, and returns a step's permanent failure as the workflow's error: a workflow that returns a value closes completed, one that returns an error failed.",
                "エンジンが実行する本物のソース（src/sim/durable/workflow.rs）。強調した行がワーカーのいるステップ。`?` は結果の記録されていない最初のステップをエンジンに渡し、ステップの恒久的な失敗はワークフローのエラーとして返す。値を返したワークフローは完了、エラーを返したものは失敗で閉じる。") }</p>
            <pre class="src" data-testid="source">{ for lines }</pre>
        </section>
    }
}

/// The selected column's events up to the cursor, newest last, in lanes.
pub fn timeline(l: Lang, ui: &DurUi, on: &On) -> Html {
    let w = &ui.run.worlds()[ui.selected.min(ui.run.worlds().len() - 1)];
    let events = w.trace();
    let from = events.len().saturating_sub(14);
    let lanes = words::lanes(l);
    let rows = events[from..].iter().map(|e| {
        let lane = words::lane(&e.kind);
        let at = e.at;
        let dot = format!("tl-dot lane-{lane}");
        html! {
            <li class={classes!("tl-row", format!("lane-{lane}"), (at == ui.run.cursor()).then_some("now"))}>
                <a href="#" class="tl-step" title={format!("{} ms", e.ms)} onclick={on.reform(move |ev: MouseEvent| { ev.prevent_default(); DurAction::Seek(at) })}>{ at }</a>
                <span class={dot} aria-label={lanes[lane]}>{ "●" }</span>
                <span class="tl-text">{ words::event(l, e) }</span>
            </li>
        }
    });
    html! {
        <section class="card dur-timeline" aria-labelledby="dur-tl-h">
            <h2 id="dur-tl-h">{ l.t("Sequence", "シーケンス") }</h2>
            <ol class="tl" data-testid="timeline">
                <li class="tl-head" aria-hidden="true"><span>{ "#" }</span>{ for lanes.iter().map(|n| html! { <span>{ *n }</span> }) }</li>
                { for rows }
            </ol>
        </section>
    }
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlSelectElement>()
        .value()
}

fn options<T: Copy + PartialEq>(
    all: &[T],
    current: T,
    id: fn(T) -> &'static str,
    name: impl Fn(T) -> String,
) -> Html {
    all.iter()
        .map(|v| html! { <option value={id(*v)} selected={*v == current}>{ name(*v) }</option> })
        .collect::<Html>()
}

/// The settings of the selected column (a change restarts the run at step 0, keeping your
/// actions).
pub fn settings(l: Lang, ui: &DurUi, on: &On) -> Html {
    let c = &ui.run.columns()[ui.selected.min(ui.run.columns().len() - 1)];
    let set = |f: fn(&str) -> Option<Setting>| {
        on.reform(move |e: Event| {
            f(&select_value(&e)).map_or(DurAction::Select(usize::MAX), DurAction::Set)
        })
    };
    // The clock read is journaled by the engine itself: no step to fault.
    let faults = c.flow.steps().iter().filter(|s| **s != crate::sim::durable::StepName::Clock).map(|step| {
        let step = *step;
        let current = c.fault_on(step).map_or("none", |k| k.id());
        let onchange = on.reform(move |e: Event| DurAction::Set(Setting::Fault(step, FaultKind::from_id(&select_value(&e)))));
        html! {
            <label class="fault-row"><code>{ step.id() }</code>
                <select onchange={onchange} data-testid={format!("fault-{}", step.id())}>
                    <option value="none" selected={current == "none"}>{ l.t("no fault", "障害なし") }</option>
                    { options(&FaultKind::ALL, c.fault_on(step).unwrap_or(FaultKind::CrashBefore), FaultKind::id, |k| words::fault(l, k).to_string()) }
                </select>
            </label>
        }
    });
    let again = c.start_again_at_ms;
    let mut again_options = vec![None, Some(550), Some(5_000), Some(AFTER_RETENTION_MS)];
    if !again_options.contains(&again) {
        again_options.push(again);
    }
    let mut timeouts = vec![1_000, DEFAULT_START_TO_CLOSE_MS, 5_000, 10_000];
    if !timeouts.contains(&c.start_to_close_ms) {
        timeouts.push(c.start_to_close_ms);
    }
    let on_timeout = on.reform(|e: Event| match select_value(&e).parse() {
        Ok(ms) => DurAction::Set(Setting::StartToClose(ms)),
        Err(_) => DurAction::Select(usize::MAX),
    });
    let on_again = on.reform(|e: Event| {
        let v = select_value(&e);
        DurAction::Set(Setting::StartAgain(v.parse().ok()))
    });
    let on_auto = on.reform(|e: Event| {
        let b = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .checked();
        DurAction::Set(Setting::AutoRestart(b))
    });
    let col = ui.selected + 1;
    html! {
        <section class="card dur-settings" aria-labelledby="dur-set-h">
            <h2 id="dur-set-h">{ l.t("Settings", "設定") }</h2>
            if ui.run.columns().len() > 1 {
                <p class="muted">{ tr!(l, "For column {col} (pick the column with “Follow this column”). A change starts the run again at step 0; your crashes and restarts stay.", "列 {col} の設定（「この列を追う」で列を選ぶ）。変えると実行はステップ 0 からやり直す。クラッシュと再起動は残る。") }</p>
            } else {
                <p class="muted">{ l.t("A change starts the run again at step 0; your crashes and restarts stay.", "変えると実行はステップ 0 からやり直す。クラッシュと再起動は残る。") }</p>
            }
            <div class="dur-fields">
                <label>{ l.t("Workflow", "ワークフロー") }
                    <select onchange={set(|v| FlowKind::from_id(v).map(Setting::Flow))} data-testid="set-flow">{ options(&FlowKind::ALL, c.flow, FlowKind::id, |f| words::flow(l, f).to_string()) }</select></label>
                <label>{ l.t("Engine", "エンジン") }
                    <select onchange={set(|v| Engine::from_id(v).map(Setting::Engine))} data-testid="set-engine">{ options(&Engine::ALL, c.engine, Engine::id, |e| words::engine(l, e).to_string()) }</select></label>
                <label>{ l.t("Key passed to the payment", "決済に渡すキー") }
                    <select onchange={set(|v| KeyMode::from_id(v).map(Setting::Key))} data-testid="set-key">{ options(&KeyMode::ALL, c.key, KeyMode::id, |k| words::key(l, k).to_string()) }</select></label>
                <label>{ l.t("Clock read", "時計の読み方") }
                    <select onchange={set(|v| ClockMode::from_id(v).map(Setting::Clock))} data-testid="set-clock">{ options(&ClockMode::ALL, c.clock, ClockMode::id, |k| words::clock(l, k).to_string()) }</select></label>
                <label>{ l.t("The client starts order-42 again", "クライアントが order-42 を再び開始") }
                    <select onchange={on_again} data-testid="set-start-again">
                        { for again_options.iter().map(|o| {
                            let (v, text) = match o {
                                None => (String::new(), l.t("never", "しない").to_string()),
                                Some(ms) => {
                                    let t = fmt_ms(l, *ms);
                                    (ms.to_string(), tr!(l, "at {t}", "{t} に"))
                                }
                            };
                            html! { <option value={v} selected={*o == again}>{ text }</option> }
                        }) }
                    </select></label>
                <label>{ l.t("Temporal: reuse policy (closed run)", "Temporal：Reuse Policy（閉じた実行）") }
                    <select onchange={set(|v| ReusePolicy::from_id(v).map(Setting::Reuse))} data-testid="set-reuse">{ options(&ReusePolicy::ALL, c.reuse, ReusePolicy::id, |p| words::reuse(p).to_string()) }</select></label>
                <label>{ l.t("Temporal: conflict policy (running)", "Temporal：Conflict Policy（実行中）") }
                    <select onchange={set(|v| ConflictPolicy::from_id(v).map(Setting::Conflict))} data-testid="set-conflict">{ options(&ConflictPolicy::ALL, c.conflict, ConflictPolicy::id, |p| words::conflict(p).to_string()) }</select></label>
                <label>{ l.t("Temporal: an activity's Start-To-Close timeout", "Temporal：アクティビティの Start-To-Close タイムアウト") }
                    <select onchange={on_timeout} data-testid="set-start-to-close">
                        { for timeouts.iter().map(|ms| {
                            let text = fmt_ms(l, *ms);
                            html! { <option value={ms.to_string()} selected={*ms == c.start_to_close_ms}>{ text }</option> }
                        }) }
                    </select></label>
                <label>{ l.t("Temporal: a later start is", "Temporal：2 回目以降の開始は") }
                    <select onchange={set(|v| RequestId::from_id(v).map(Setting::RequestId))} data-testid="set-request-id">{ options(&RequestId::ALL, c.request_id, RequestId::id, |r| words::request_id(l, r).to_string()) }</select></label>
                <label>{ l.t("Restate: the client calls", "Restate：クライアントが呼ぶのは") }
                    <select onchange={set(|v| RestateTarget::from_id(v).map(Setting::Restate))} data-testid="set-restate">{ options(&RestateTarget::ALL, c.restate, RestateTarget::id, |t| words::restate_target(l, t).to_string()) }</select></label>
                <label class="check"><input type="checkbox" checked={c.auto_restart} onchange={on_auto} data-testid="set-auto-restart" />
                    { l.t("A crashed worker is replaced after 1 s", "クラッシュしたワーカーは 1 秒後に置き換わる") }</label>
            </div>
            <fieldset class="dur-faults"><legend>{ l.t("Faults (each on the step's first execution)", "障害（各ステップの最初の実行に）") }</legend>{ for faults }</fieldset>
        </section>
    }
}

/// What the page imitates of each engine, with the documentation it follows.
pub fn engines(l: Lang) -> Html {
    let items = Engine::ALL.iter().map(|e| {
        let (rule, url) = words::engine_rule(l, *e);
        html! {
            <li><strong>{ words::engine(l, *e) }</strong>{ ": " }{ rule }
                if !url.is_empty() { { " " }<a href={url} rel="noopener">{ l.t("(source)", "（出典）") }</a> }
            </li>
        }
    });
    html! {
        <section class="card dur-engines" aria-labelledby="dur-eng-h">
            <h2 id="dur-eng-h">{ l.t("What each engine does here, as documented", "各エンジンの振る舞い（文書にある通り）") }</h2>
            <ul>{ for items }</ul>
            <p class="muted">{ l.t(
                "Every engine retries a failed step after 1 s, then 2 s, … (Temporal's default retry policy). Temporal waits for an activity's Start-To-Close timeout (2 s unless set) before it retries one whose worker crashed or whose reply was lost; Restate and DBOS wait 2 s for a lost reply and run a crashed step again when the new worker resumes. The derived key is the workflow id, the run and the step: Temporal suggests the Workflow Run Id with the Activity Id.",
                "どのエンジンも失敗したステップを 1 秒、2 秒…の後にリトライする（Temporal の既定のリトライポリシー）。Temporal は、ワーカーがクラッシュしたか応答が消えたアクティビティを、Start-To-Close タイムアウト（設定しなければ 2 秒）を待ってからリトライする。Restate と DBOS は消えた応答を 2 秒待ち、クラッシュしたステップは新しいワーカーが再開するときにもう一度実行する。導出キーはワークフロー ID・実行・ステップ。Temporal は Workflow Run Id と Activity Id の組を勧めている。") }</p>
        </section>
    }
}

/// What this model leaves out: the deliberate simplifications (each one an ignored case of the
/// conformance suites, tests/conformance/{temporal,restate,dbos}.rs).
pub fn leaves_out(l: Lang) -> Html {
    let items = words::leaves_out(l)
        .into_iter()
        .map(|item| html! { <li>{ item }</li> });
    html! {
        <section class="card dur-engines" aria-labelledby="dur-out-h" data-testid="leaves-out">
            <h2 id="dur-out-h">{ l.t("What this model leaves out", "このモデルが省いていること") }</h2>
            <ul>{ for items }</ul>
        </section>
    }
}

/// Share link, download and import.
pub fn share(
    l: Lang,
    ui: &DurUi,
    route_hash: &str,
    import_ref: &NodeRef,
    on_import: Callback<MouseEvent>,
) -> Html {
    let saved = ui.saved();
    let json = crate::sim::durable::write_state(&saved);
    let link = format!(
        "{}{route_hash}?{}",
        crate::ui::web::page_base(),
        persist::to_query(&saved)
    );
    let download = format!(
        "data:application/json;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(&json))
    );
    html! {
        <section class="card share" aria-labelledby="dur-share-h">
            <h2 id="dur-share-h">{ l.t("Share, save, import", "共有・保存・読み込み") }</h2>
            <p class="muted">{ l.t(
                "The link holds the settings, your crashes and restarts, and opens at this step. This browser also keeps your last run on each lesson.",
                "リンクには設定とクラッシュ・再起動が入っていて、このステップで開く。各レッスンの直前の実行はこのブラウザにも保存される。") }</p>
            <label>{ l.t("Share link", "共有リンク") }
                <input type="text" readonly=true value={link.clone()} data-testid="share-link" /></label>
            <p><a href={link} data-testid="share-open">{ l.t("Open this link", "このリンクを開く") }</a>
               { " · " }<a href={download} download="durable-run.json" data-testid="export">{ l.t("Download JSON", "JSONをダウンロード") }</a></p>
            <details>
                <summary>{ l.t("Import JSON", "JSONを読み込む") }</summary>
                <label>{ tr!(l, ["Paste a run (at most {} KB)", MAX_JSON_BYTES / 1024], ["実行を貼り付ける（最大 {} KB）", MAX_JSON_BYTES / 1024]) }
                    <textarea ref={import_ref.clone()} data-testid="import-text" spellcheck="false" /></label>
                <button onclick={on_import} data-testid="import">{ l.t("Import", "読み込む") }</button>
            </details>
            <details>
                <summary>{ l.t("This run as JSON", "この実行のJSON") }</summary>
                <textarea readonly=true value={json} aria-label={l.t("The run's JSON", "実行のJSON")} data-testid="json" />
            </details>
        </section>
    }
}
