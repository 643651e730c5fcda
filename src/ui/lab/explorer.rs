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
use crate::ui::i18n::Lang;
use crate::ui::text::{grouped, grouped_wide, lab_error, view};

use super::histogram::OutcomeHistogram;

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

impl RunState {
    /// What the search counted, as far as it got (none before it started).
    fn report(&self) -> Option<&Report> {
        match self {
            RunState::Running { report, .. }
            | RunState::Done { report, .. }
            | RunState::Cancelled { report }
            | RunState::Failed { report, .. } => Some(report),
            RunState::Idle | RunState::Refused(_) => None,
        }
    }
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
    let on_start = start_search(&run, &generation, props, *mode, &samples_text);
    let on_cancel = cancel_search(&run, &generation);
    let report = run.report().cloned();
    let progress = match &*run {
        RunState::Running { fraction, .. } => Some(*fraction),
        _ => None,
    };
    let formula = interleavings_formula(props.scenario.requests());
    html! {
        <section class="lab-explorer card" aria-labelledby="lab-explorer-h" data-testid="lab-explorer">
            <h3 id="lab-explorer-h">{ view::lab::EXPLORER_HEADING.get(lang) }</h3>
            <p class="muted">{ view::lab::EXPLORER_INTRO.get(lang) }</p>
            { search_form(lang, &mode, &samples_text, matches!(*run, RunState::Running { .. }), on_start, on_cancel) }
            <p class="lab-explorer-status" role="status" data-testid="explorer-status" data-state={state_name(&run)}>{ status_line(lang, &run) }</p>
            if let Some(fraction) = progress {
                <progress class="lab-progress" max="1" value={format!("{fraction:.4}")}
                          aria-label={view::lab::SEARCH_PROGRESS.get(lang)}></progress>
            }
            if let Some(report) = report {
                { results(lang, &props.scenario, &report, formula, props.on_load.clone()) }
            }
        </section>
    }
}

/// Starts a search of the form's kind; a search the budgets refuse says why instead.
fn start_search(
    run: &UseStateHandle<RunState>,
    generation: &Rc<RefCell<u64>>,
    props: &ExplorerPanelProps,
    mode: Mode,
    samples_text: &UseStateHandle<String>,
) -> Callback<MouseEvent> {
    let run = run.clone();
    let generation = generation.clone();
    let scenario = props.scenario.clone();
    let seed = props.seed;
    let samples_text = (**samples_text).clone();
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
}

/// Stops a running search, keeping what it counted.
fn cancel_search(
    run: &UseStateHandle<RunState>,
    generation: &Rc<RefCell<u64>>,
) -> Callback<MouseEvent> {
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
}

/// The kind of search, the sample size, Start and Cancel.
fn search_form(
    lang: Lang,
    mode: &UseStateHandle<Mode>,
    samples_text: &UseStateHandle<String>,
    running: bool,
    on_start: Callback<MouseEvent>,
    on_cancel: Callback<MouseEvent>,
) -> Html {
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
    let mode = **mode;
    html! {
        <div class="lab-control-row">
            <label class="lab-inline-label">
                { view::lab::SEARCH.get(lang) }
                <select onchange={on_mode} disabled={running} data-testid="explorer-mode">
                    <option value="cached" selected={mode == Mode::Cached}>{ view::lab::search_cached(lang) }</option>
                    <option value="plain" selected={mode == Mode::Plain}>{ view::lab::SEARCH_PLAIN.get(lang) }</option>
                    <option value="sample" selected={mode == Mode::Sample}>{ view::lab::SEARCH_SAMPLE.get(lang) }</option>
                </select>
            </label>
            if mode == Mode::Sample {
                <label class="lab-inline-label">
                    { view::lab::samples_label(lang, &grouped(MAX_SAMPLES)) }
                    <input type="text" inputmode="numeric" value={(**samples_text).clone()} oninput={on_samples}
                           disabled={running} data-testid="explorer-samples" />
                </label>
            }
            <button class="primary" onclick={on_start} disabled={running} data-testid="explorer-start">
                { view::lab::START_SEARCH.get(lang) }
            </button>
            <button onclick={on_cancel} disabled={!running} data-testid="explorer-cancel">
                { view::lab::CANCEL.get(lang) }
            </button>
        </div>
    }
}

/// The search's state, for the tests (`data-state`).
fn state_name(run: &RunState) -> &'static str {
    match run {
        RunState::Idle => "idle",
        RunState::Running { .. } => "running",
        RunState::Done { .. } => "done",
        RunState::Cancelled { .. } => "cancelled",
        RunState::Refused(_) => "refused",
        RunState::Failed { .. } => "failed",
    }
}

/// Where the search stands, in words.
fn status_line(lang: Lang, run: &RunState) -> String {
    match run {
        RunState::Idle => view::lab::NOT_STARTED.get(lang).to_string(),
        RunState::Running { fraction, .. } => view::lab::searching(lang, fraction * 100.0),
        RunState::Done { elapsed_ms, .. } => view::lab::finished_in(lang, *elapsed_ms),
        RunState::Cancelled { .. } => view::lab::CANCELLED.get(lang).to_string(),
        RunState::Refused(e) => view::lab::refused_before_starting(lang, &lab_error(lang, e)),
        RunState::Failed { error, .. } => view::lab::stopped(lang, &lab_error(lang, error)),
    }
}

/// How many interleavings `k` requests have: (k·3)! / (3!)^k.
fn interleavings_formula(k: usize) -> String {
    let total_steps = k * LAB_STEPS_PER_REQUEST;
    format!(
        "({k}·{LAB_STEPS_PER_REQUEST})! / ({LAB_STEPS_PER_REQUEST}!)^{k} = {total_steps}! / {}^{k}",
        (1..=LAB_STEPS_PER_REQUEST).product::<usize>()
    )
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
    let (all, ran) = (grouped_wide(raw), grouped_wide(report.schedules));
    let text = if report.schedules < raw {
        let other = grouped_wide(raw - report.schedules);
        view::lab::ruled_out(lang, &other, &ran, &all)
    } else {
        view::lab::none_ruled_out(lang, &all)
    };
    html! { <p class="lab-note" data-testid="explorer-ruled-out">{ text }</p> }
}

/// What a search found: its counts, the outcome histogram and the double charge it found.
fn results(
    lang: Lang,
    scenario: &LabScenario,
    report: &Report,
    formula: String,
    on_load: Callback<(LabScenario, Vec<usize>)>,
) -> Html {
    let sampled = matches!(report.search, Search::Sample { .. });
    let raw = match report.raw_schedules {
        Some(n) => grouped_wide(n),
        None => view::lab::MORE_THAN_2_128.get(lang).to_string(),
    };
    html! {
        <div class="lab-results">
            <dl class="lab-facts">
                <dt>{ view::lab::POSSIBLE_INTERLEAVINGS.get(lang) }<span class="mono">{ formula }</span></dt>
                <dd data-testid="explorer-raw">{ raw }</dd>
                <dt>{ view::lab::schedules_counted(lang, sampled) }</dt>
                <dd data-testid="explorer-schedules">{ grouped_wide(report.schedules) }</dd>
                <dt>{ view::lab::DOUBLE_CHARGE_SCHEDULES.get(lang) }</dt>
                <dd data-testid="explorer-double-charge">{ grouped_wide(report.double_charge) }</dd>
                if let Some(states) = report.distinct_states {
                    <dt>{ view::lab::DISTINCT_STATES.get(lang) }</dt>
                    <dd data-testid="explorer-states">{ grouped(states as u64) }</dd>
                }
                <dt>{ view::lab::STEPS_COMPUTED.get(lang) }</dt>
                <dd data-testid="explorer-steps">{ grouped(report.steps_executed) }</dd>
            </dl>
            { ruled_out(lang, report) }
            <h4>{ view::lab::HOW_SCHEDULES_ENDED.get(lang) }</h4>
            <OutcomeHistogram lang={lang} groups={report.groups.clone()} total={report.schedules} />
            { counterexample(lang, scenario, report, on_load) }
        </div>
    }
}

/// The double-charging schedule with the fewest context switches, loadable into the stepper; or
/// that there is none (a finished exhaustive search), or none in the sample.
fn counterexample(
    lang: Lang,
    scenario: &LabScenario,
    report: &Report,
    on_load: Callback<(LabScenario, Vec<usize>)>,
) -> Html {
    let sampled = matches!(report.search, Search::Sample { .. });
    match &report.counterexample {
        Some(c) => {
            let schedule = c.schedule.clone();
            let scenario = scenario.clone();
            let onclick = Callback::from(move |_: MouseEvent| {
                on_load.emit((scenario.clone(), schedule.clone()))
            });
            let qualifier = view::lab::fewest_switches(lang, sampled || !report.finished);
            html! {
                <div class="lab-counterexample" data-testid="explorer-counterexample">
                    <p>
                        { view::lab::counterexample_found(lang, c.context_switches, qualifier) }
                        <code data-testid="explorer-counterexample-schedule">{ format_schedule(&c.schedule) }</code>
                    </p>
                    <button {onclick} data-testid="explorer-load">{ view::lab::LOAD_INTO_STEPPER.get(lang) }</button>
                </div>
            }
        }
        None if report.finished && !sampled => html! {
            <p class="lab-ok" data-testid="explorer-no-counterexample">{ view::lab::SAFE_FOR_EVERY.get(lang) }</p>
        },
        None if report.finished => html! {
            <p data-testid="explorer-no-counterexample">{ view::lab::NONE_IN_SAMPLE.get(lang) }</p>
        },
        None => html! {},
    }
}
