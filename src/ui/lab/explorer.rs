//! The explorer panel: search every schedule of the current scenario (or a seeded sample), in
//! slices of about one frame each so the page stays responsive, with progress, cancel, the outcome
//! histogram and the fewest-switch double charge, loadable into the stepper.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::future::TimeoutFuture;
use yew::prelude::*;

use crate::sim::lab::{format_schedule, parse_integer};
use crate::sim::lab::{Explorer, LabError, LabScenario, NumberField, Report, Search};
use crate::sim::limits::{LAB_STEPS_PER_REQUEST, MAX_CACHED_REQUESTS, MAX_SAMPLES};
use crate::ui::i18n::{tr, Lang};
use crate::ui::text::lab_error;

use super::histogram::OutcomeHistogram;
use crate::ui::text::grouped;

/// Props of [`ExplorerPanel`].
#[derive(Properties, PartialEq)]
pub struct ExplorerPanelProps {
    /// Page language.
    pub lang: Lang,
    /// The scenario to search (a change cancels a running search).
    pub scenario: LabScenario,
    /// Seed for samples.
    pub seed: u64,
    /// Loads a schedule of a scenario into the stepper.
    pub on_load: Callback<(LabScenario, Vec<usize>)>,
    /// A search finished: its scenario and its report (a lab challenge may be won by it).
    #[prop_or_default]
    pub on_done: Callback<(LabScenario, Report)>,
}

/// Time the search may take per slice before it yields to the browser, in ms: well under a
/// 16 ms frame, so typing and scrolling stay smooth while it runs.
const SLICE_BUDGET_MS: f64 = 10.0;
/// Steps between clock reads within a slice.
const UNITS_PER_CHECK: u64 = 2_048;
/// Most clock checks per slice, in case the clock is unavailable and always reads 0.
const CHECKS_PER_SLICE_MAX: u32 = 64;
/// The sample size the form starts with: the 10,000.
const DEFAULT_SAMPLES: &str = "10000";

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Cached,
    Plain,
    Sample,
}

#[derive(Clone, PartialEq)]
enum RunState {
    Idle,
    Running { fraction: f64, report: Report },
    Done { report: Report, elapsed_ms: f64 },
    Cancelled { report: Report },
    Refused(LabError),
    Failed { error: LabError, report: Report },
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Runs `explorer` in slices between frames until it finishes, fails, or `generation` moves on
/// (cancel, a new scenario, or the page going away).
fn drive(
    mut explorer: Explorer,
    generation: Rc<RefCell<u64>>,
    mine: u64,
    state: UseStateHandle<RunState>,
) {
    wasm_bindgen_futures::spawn_local(async move {
        let started = now_ms();
        loop {
            let slice_start = now_ms();
            let mut outcome = Ok(false);
            for _ in 0..CHECKS_PER_SLICE_MAX {
                match explorer.run_slice(UNITS_PER_CHECK) {
                    Ok(p) if p.finished => {
                        outcome = Ok(true);
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        outcome = Err(e);
                        break;
                    }
                }
                if now_ms() - slice_start >= SLICE_BUDGET_MS {
                    break;
                }
            }
            if *generation.borrow() != mine {
                return;
            }
            match outcome {
                Ok(true) => {
                    state.set(RunState::Done {
                        report: explorer.report(),
                        elapsed_ms: now_ms() - started,
                    });
                    return;
                }
                Ok(false) => {
                    // `run_slice(0)` computes nothing; it only reads the progress estimate.
                    let fraction = explorer.run_slice(0).map_or(0.0, |p| p.fraction);
                    state.set(RunState::Running {
                        fraction,
                        report: explorer.report(),
                    });
                }
                Err(error) => {
                    state.set(RunState::Failed {
                        error,
                        report: explorer.report(),
                    });
                    return;
                }
            }
            // Yield to the browser: render the progress, handle a click on Cancel.
            TimeoutFuture::new(0).await;
            if *generation.borrow() != mine {
                return;
            }
        }
    });
}

/// The explorer.
#[component(ExplorerPanel)]
pub fn explorer_panel(props: &ExplorerPanelProps) -> Html {
    let lang = props.lang;
    let k = props.scenario.requests();
    let mode = use_state(|| Mode::Cached);
    let samples_text = use_state(|| DEFAULT_SAMPLES.to_string());
    let run = use_state(|| RunState::Idle);
    let generation = use_mut_ref(|| 0u64);
    {
        // A new scenario (or seed) makes the old results meaningless: stop and clear. The cleanup
        // also stops a running search when the page goes away.
        let run = run.clone();
        let generation = generation.clone();
        let mode = mode.clone();
        use_effect_with(
            (props.scenario.clone(), props.seed),
            move |(scenario, _)| {
                *generation.borrow_mut() += 1;
                run.set(RunState::Idle);
                // Beyond the exhaustive limit, offer what can run: a sample.
                if scenario.requests() > MAX_CACHED_REQUESTS {
                    mode.set(Mode::Sample);
                }
                move || {
                    *generation.borrow_mut() += 1;
                }
            },
        );
    }
    let on_mode = {
        let mode = mode.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            mode.set(match value.as_str() {
                "plain" => Mode::Plain,
                "sample" => Mode::Sample,
                _ => Mode::Cached,
            });
        })
    };
    let on_samples = {
        let samples_text = samples_text.clone();
        Callback::from(move |e: InputEvent| {
            samples_text.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            );
        })
    };
    let on_start = {
        let run = run.clone();
        let generation = generation.clone();
        let scenario = props.scenario.clone();
        let seed = props.seed;
        let mode = *mode;
        let samples_text = (*samples_text).clone();
        Callback::from(move |_: MouseEvent| {
            let search = match mode {
                Mode::Cached => Ok(Search::Exhaustive { caching: true }),
                Mode::Plain => Ok(Search::Exhaustive { caching: false }),
                Mode::Sample => parse_integer(NumberField::Samples, &samples_text).map(|n| {
                    Search::Sample {
                        // Read within 1..=MAX_SAMPLES, so it fits.
                        samples: n as u64,
                        seed,
                    }
                }),
            };
            // Budgets are checked here, before any work starts.
            match search.and_then(|search| Explorer::new(&scenario, search)) {
                Ok(explorer) => {
                    let mine = {
                        let mut g = generation.borrow_mut();
                        *g += 1;
                        *g
                    };
                    run.set(RunState::Running {
                        fraction: 0.0,
                        report: explorer.report(),
                    });
                    drive(explorer, generation.clone(), mine, run.clone());
                }
                Err(e) => run.set(RunState::Refused(e)),
            }
        })
    };
    let on_cancel = {
        let run = run.clone();
        let generation = generation.clone();
        Callback::from(move |_: MouseEvent| {
            *generation.borrow_mut() += 1;
            if let RunState::Running { report, .. } = &*run {
                run.set(RunState::Cancelled {
                    report: report.clone(),
                });
            }
        })
    };

    let running = matches!(*run, RunState::Running { .. });
    let state_name = match &*run {
        RunState::Idle => "idle",
        RunState::Running { .. } => "running",
        RunState::Done { .. } => "done",
        RunState::Cancelled { .. } => "cancelled",
        RunState::Refused(_) => "refused",
        RunState::Failed { .. } => "failed",
    };
    let status_line = match &*run {
        RunState::Idle => lang.t("Not started.", "未実行。").to_string(),
        RunState::Running { fraction, .. } => {
            let percent = fraction * 100.0;
            tr!(
                lang,
                "Searching… about {percent:.0} % done.",
                "探索中… 約 {percent:.0} % 完了。"
            )
        }
        RunState::Done { elapsed_ms, .. } => tr!(
            lang,
            "Finished in {elapsed_ms:.0} ms.",
            "{elapsed_ms:.0} ms で完了。"
        ),
        RunState::Cancelled { .. } => lang
            .t(
                "Cancelled: the numbers below are partial.",
                "キャンセル：以下は途中までの数。",
            )
            .to_string(),
        RunState::Refused(e) => {
            let why = lab_error(lang, e);
            tr!(
                lang,
                "Refused before starting: {why}",
                "開始前に拒否：{why}"
            )
        }
        RunState::Failed { error, .. } => {
            let why = lab_error(lang, error);
            tr!(lang, "Stopped: {why}", "停止：{why}")
        }
    };
    {
        let (on_done, scenario) = (props.on_done.clone(), props.scenario.clone());
        let done = match &*run {
            RunState::Done { report, .. } => Some(report.clone()),
            _ => None,
        };
        use_effect_with(done, move |done| {
            if let Some(report) = done {
                on_done.emit((scenario, report.clone()));
            }
        });
    }
    let report = match &*run {
        RunState::Running { report, .. }
        | RunState::Done { report, .. }
        | RunState::Cancelled { report }
        | RunState::Failed { report, .. } => Some(report.clone()),
        RunState::Idle | RunState::Refused(_) => None,
    };
    let progress = match &*run {
        RunState::Running { fraction, .. } => Some(*fraction),
        _ => None,
    };
    let total_steps = k * LAB_STEPS_PER_REQUEST;
    let formula = format!(
        "({k}·{LAB_STEPS_PER_REQUEST})! / ({LAB_STEPS_PER_REQUEST}!)^{k} = {total_steps}! / {}^{k}",
        (1..=LAB_STEPS_PER_REQUEST).product::<usize>()
    );

    html! {
        <section class="lab-explorer card" aria-labelledby="lab-explorer-h" data-testid="lab-explorer">
            <h3 id="lab-explorer-h">{ lang.t("Explorer: every schedule", "エクスプローラ：すべてのスケジュール") }</h3>
            <p class="muted">{ lang.t(
                "The article's 10-thread test can only say “this time it worked”. The explorer runs every order in which the requests' steps can interleave and counts how each ended.",
                "記事の10スレッドテストが言えるのは「今回はうまくいった」だけ。エクスプローラはリクエストのステップが交互に並ぶすべての順序を実行し、結果ごとに数える。") }</p>
            <div class="lab-control-row">
                <label class="lab-inline-label">
                    { lang.t("Search", "探索方法") }
                    <select onchange={on_mode} disabled={running} data-testid="explorer-mode">
                        <option value="cached" selected={*mode == Mode::Cached}>{ tr!(
                            lang,
                            "Every schedule, each state once (up to {MAX_CACHED_REQUESTS} requests)",
                            "全スケジュール・状態キャッシュあり（{MAX_CACHED_REQUESTS}件まで）") }</option>
                        <option value="plain" selected={*mode == Mode::Plain}>{ lang.t(
                            "Every schedule, one by one (no caching)",
                            "全スケジュールを1つずつ（キャッシュなし）") }</option>
                        <option value="sample" selected={*mode == Mode::Sample}>{ lang.t(
                            "Random sample (seeded)",
                            "ランダムサンプル（シード付き）") }</option>
                    </select>
                </label>
                if *mode == Mode::Sample {
                    <label class="lab-inline-label">
                        { tr!(lang, ["Schedules to try (1–{})", grouped(u128::from(MAX_SAMPLES))], ["試すスケジュール数（1〜{}）", grouped(u128::from(MAX_SAMPLES))]) }
                        <input type="text" inputmode="numeric" value={(*samples_text).clone()} oninput={on_samples}
                               disabled={running} data-testid="explorer-samples" />
                    </label>
                }
                <button class="primary" onclick={on_start} disabled={running} data-testid="explorer-start">
                    { lang.t("Start the search", "探索を開始") }
                </button>
                <button onclick={on_cancel} disabled={!running} data-testid="explorer-cancel">
                    { lang.t("Cancel", "キャンセル") }
                </button>
            </div>
            <p class="lab-explorer-status" role="status" data-testid="explorer-status" data-state={state_name}>{ status_line }</p>
            if let Some(fraction) = progress {
                <progress class="lab-progress" max="1" value={format!("{fraction:.4}")}
                          aria-label={lang.t("Search progress", "探索の進み具合")}></progress>
            }
            if let Some(report) = report {
                { results(lang, &props.scenario, &report, formula, props.on_load.clone()) }
            }
        </section>
    }
}

/// Why an exhaustive search ran fewer complete schedules than there are interleavings: a
/// request waiting for a lock cannot take a step, so the orders that would move it are not runs
/// at all. Said once the search has finished (the counts are final then).
fn ruled_out(lang: Lang, report: &Report) -> Html {
    let (Some(raw), false, true) = (
        report.raw_schedules,
        matches!(report.search, Search::Sample { .. }),
        report.finished,
    ) else {
        return html! {};
    };
    let (all, ran) = (grouped(raw), grouped(report.schedules));
    if report.schedules < raw {
        let other = grouped(raw - report.schedules);
        html! { <p class="lab-note" data-testid="explorer-ruled-out">{ tr!(
            lang,
            "The lock rules out the other {other}: while one request holds it, the others cannot take a step, so only {ran} of the {all} interleavings can happen.",
            "残りの {other} 通りはロックが排除している。1つのリクエストがロックを持つ間は他のリクエストが1ステップも進めないので、{all} 通りの交互実行のうち起こりうるのは {ran} 通りだけ。",
        ) }</p> }
    } else {
        html! { <p class="lab-note" data-testid="explorer-ruled-out">{ tr!(
            lang,
            "Every one of the {all} interleavings can happen: no lock is held across steps, so no request ever waits.",
            "{all} 通りの交互実行はすべて起こりうる。ステップをまたいで保持されるロックがないので、どのリクエストも待たない。",
        ) }</p> }
    }
}

fn results(
    lang: Lang,
    scenario: &LabScenario,
    report: &Report,
    formula: String,
    on_load: Callback<(LabScenario, Vec<usize>)>,
) -> Html {
    let sampled = matches!(report.search, Search::Sample { .. });
    let raw = match report.raw_schedules {
        Some(n) => grouped(n),
        None => lang.t("more than 2^128", "2^128 超").to_string(),
    };
    let counterexample = match &report.counterexample {
        Some(c) => {
            let schedule = c.schedule.clone();
            let scenario = scenario.clone();
            let onclick = Callback::from(move |_: MouseEvent| {
                on_load.emit((scenario.clone(), schedule.clone()))
            });
            let qualifier = if sampled || !report.finished {
                lang.t(
                    "fewest context switches found so far",
                    "これまでに見つかった最少のコンテキストスイッチ",
                )
            } else {
                lang.t(
                    "fewest context switches of all schedules",
                    "全スケジュール中で最少のコンテキストスイッチ",
                )
            };
            let switches = c.context_switches;
            html! {
                <div class="lab-counterexample" data-testid="explorer-counterexample">
                    <p>
                        { tr!(
                            lang,
                            "A double-charging schedule with {switches} context switches ({qualifier}): ",
                            "二重課金するスケジュール（コンテキストスイッチ {switches} 回、{qualifier}）：",
                        ) }
                        <code data-testid="explorer-counterexample-schedule">{ format_schedule(&c.schedule) }</code>
                    </p>
                    <button {onclick} data-testid="explorer-load">{ lang.t("Load into the stepper", "ステッパーに読み込む") }</button>
                </div>
            }
        }
        None if report.finished && !sampled => html! {
            <p class="lab-ok" data-testid="explorer-no-counterexample">{ lang.t(
                "No schedule double-charges: the service is safe for every interleaving of these requests.",
                "二重課金するスケジュールはない：これらのリクエストのどの交互実行でも安全。") }</p>
        },
        None if report.finished => html! {
            <p data-testid="explorer-no-counterexample">{ lang.t(
                "No double charge in this sample (a sample cannot prove there is none).",
                "このサンプルに二重課金はない（サンプルでは「ない」ことは証明できない）。") }</p>
        },
        None => html! {},
    };
    html! {
        <div class="lab-results">
            <dl class="lab-facts">
                <dt>{ lang.t("Possible interleavings, ", "可能な交互実行の数 ") }<span class="mono">{ formula }</span></dt>
                <dd data-testid="explorer-raw">{ raw }</dd>
                <dt>{ if sampled {
                    lang.t("Schedules tried (random sample)", "試したスケジュール数（ランダムサンプル）")
                } else {
                    lang.t("Complete schedules explored", "探索した完全なスケジュール数")
                } }</dt>
                <dd data-testid="explorer-schedules">{ report.schedules.to_string() }</dd>
                <dt>{ lang.t("Schedules with 2 or more charges for one key", "同じキーで2回以上課金したスケジュール") }</dt>
                <dd data-testid="explorer-double-charge">{ report.double_charge.to_string() }</dd>
                if let Some(states) = report.distinct_states {
                    <dt>{ lang.t("Distinct states explored (each once)", "探索した異なる状態の数（各1回）") }</dt>
                    <dd data-testid="explorer-states">{ grouped(states as u128) }</dd>
                }
                <dt>{ lang.t("Steps computed", "計算したステップ数") }</dt>
                <dd data-testid="explorer-steps">{ grouped(u128::from(report.steps_executed)) }</dd>
            </dl>
            { ruled_out(lang, report) }
            <h4>{ lang.t("How the schedules ended", "スケジュールの結末") }</h4>
            <OutcomeHistogram lang={lang} groups={report.groups.clone()} total={report.schedules} />
            { counterexample }
        </div>
    }
}
