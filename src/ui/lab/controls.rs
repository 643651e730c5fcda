//! The stepper's controls: step back, reset, let a policy move (one step or to the end), and
//! replay a typed schedule. The per-request step buttons live in the lanes.

use yew::prelude::*;

use crate::sim::lab::format_schedule;
use crate::sim::lab::Policy;
use crate::ui::i18n::Lang;
use crate::ui::text::view;

use super::state::LabAction;

/// Props of [`StepperControls`].
#[derive(Properties, PartialEq)]
pub struct StepperControlsProps {
    /// Page language.
    pub lang: Lang,
    /// The schedule so far (0-based).
    pub schedule: Vec<usize>,
    /// Whether every request has finished.
    pub complete: bool,
    /// Seed of the random policy.
    pub seed: u64,
    /// Sends an action to the page's state.
    pub on_action: Callback<LabAction>,
}

#[derive(Clone, Copy, PartialEq)]
enum PolicyChoice {
    RoundRobin,
    Random,
}

/// Step back, reset, run, replay.
#[component(StepperControls)]
pub fn stepper_controls(props: &StepperControlsProps) -> Html {
    let lang = props.lang;
    let choice = use_state(|| PolicyChoice::Random);
    let replay_text = use_state(String::new);
    let policy = match *choice {
        PolicyChoice::RoundRobin => Policy::RoundRobin,
        PolicyChoice::Random => Policy::Random { seed: props.seed },
    };
    let send = |action: LabAction| {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(action.clone()))
    };
    let on_policy = {
        let choice = choice.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            choice.set(if value == "round-robin" {
                PolicyChoice::RoundRobin
            } else {
                PolicyChoice::Random
            });
        })
    };
    let on_action = props.on_action.clone();
    let empty = props.schedule.is_empty();
    let schedule_text = format_schedule(&props.schedule);
    html! {
        <div class="lab-controls" role="group" aria-label={view::lab::STEPPER_CONTROLS.get(lang)}>
            <div class="lab-control-row">
                // Reset and Back as every page's run controls word and name them (`ui::run`).
                <button onclick={send(LabAction::Reset)} disabled={empty} data-testid="reset">
                    { view::common::RESET.get(lang) }
                </button>
                <button onclick={send(LabAction::Back)} disabled={empty} data-testid="back">
                    { view::common::BACK.get(lang) }
                </button>
                { policy_select(lang, props.seed, *choice, on_policy) }
                <button onclick={send(LabAction::StepWith(policy))} disabled={props.complete} data-testid="lab-auto-step">
                    { view::lab::PICK_ONE_STEP.get(lang) }
                </button>
                <button onclick={send(LabAction::RunToEnd(policy))} disabled={props.complete} data-testid="lab-run">
                    { view::lab::RUN_TO_END.get(lang) }
                </button>
            </div>
            <p class="lab-schedule">
                { view::lab::SCHEDULE_SO_FAR.get(lang) }
                <code data-testid="lab-schedule">{ if empty { view::lab::NO_STEPS.get(lang).to_string() } else { schedule_text } }</code>
            </p>
            { replay_form(lang, &replay_text, on_action) }
        </div>
    }
}

/// The scheduler a policy step or run uses.
fn policy_select(lang: Lang, seed: u64, choice: PolicyChoice, on_policy: Callback<Event>) -> Html {
    html! {
        <label class="lab-inline-label">
            { view::lab::SCHEDULER.get(lang) }
            <select onchange={on_policy} data-testid="lab-policy">
                <option value="random" selected={choice == PolicyChoice::Random}>
                    { view::lab::seeded_random(lang, seed) }
                </option>
                <option value="round-robin" selected={choice == PolicyChoice::RoundRobin}>
                    { view::lab::ROUND_ROBIN.get(lang) }
                </option>
            </select>
        </label>
    }
}

/// The form that replays a typed schedule.
fn replay_form(
    lang: Lang,
    replay_text: &UseStateHandle<String>,
    on_action: Callback<LabAction>,
) -> Html {
    let on_replay_input = {
        let replay_text = replay_text.clone();
        Callback::from(move |e: InputEvent| {
            replay_text.set(
                e.target_unchecked_into::<web_sys::HtmlInputElement>()
                    .value(),
            );
        })
    };
    let on_replay = {
        let replay_text = replay_text.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            on_action.emit(LabAction::Replay((*replay_text).clone()));
        })
    };
    html! {
        <form class="lab-control-row" onsubmit={on_replay}>
            <label class="lab-inline-label">
                { view::lab::REPLAY_LABEL.get(lang) }
                <input type="text" inputmode="numeric" value={(**replay_text).clone()} oninput={on_replay_input}
                       data-testid="lab-replay-input" />
            </label>
            <button type="submit" data-testid="lab-replay">{ view::lab::REPLAY.get(lang) }</button>
        </form>
    }
}
