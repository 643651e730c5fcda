//! The stepper's controls: step back, reset, let a policy move (one step or to the end), and
//! replay a typed schedule. The per-request step buttons live in the lanes.

use yew::prelude::*;

use crate::sim::lab::format_schedule;
use crate::sim::lab::Policy;
use crate::ui::i18n::{tr, Lang};

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
        let on_action = props.on_action.clone();
        let replay_text = replay_text.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            on_action.emit(LabAction::Replay((*replay_text).clone()));
        })
    };
    let seed = props.seed;
    let empty = props.schedule.is_empty();
    let schedule_text = format_schedule(&props.schedule);
    html! {
        <div class="lab-controls" role="group" aria-label={lang.t("Stepper controls", "ステッパーの操作")}>
            <div class="lab-control-row">
                <button onclick={send(LabAction::Back)} disabled={empty} data-testid="lab-back">
                    { lang.t("◀ Step back", "◀ 1ステップ戻る") }
                </button>
                <button onclick={send(LabAction::Reset)} disabled={empty} data-testid="lab-reset">
                    { lang.t("Reset", "リセット") }
                </button>
                <label class="lab-inline-label">
                    { lang.t("Scheduler", "スケジューラ") }
                    <select onchange={on_policy} data-testid="lab-policy">
                        <option value="random" selected={*choice == PolicyChoice::Random}>
                            { tr!(lang, "Seeded random (seed {seed})", "シード付きランダム（シード {seed}）") }
                        </option>
                        <option value="round-robin" selected={*choice == PolicyChoice::RoundRobin}>
                            { lang.t("Round robin", "ラウンドロビン") }
                        </option>
                    </select>
                </label>
                <button onclick={send(LabAction::StepWith(policy))} disabled={props.complete} data-testid="lab-auto-step">
                    { lang.t("Let it pick one step", "1ステップ選ばせる") }
                </button>
                <button onclick={send(LabAction::RunToEnd(policy))} disabled={props.complete} data-testid="lab-run">
                    { lang.t("Run to the end ▶▶", "最後まで実行 ▶▶") }
                </button>
            </div>
            <p class="lab-schedule">
                { lang.t("Schedule so far (request numbers): ", "これまでのスケジュール（リクエスト番号）：") }
                <code data-testid="lab-schedule">{ if empty { lang.t("(none)", "（なし）").to_string() } else { schedule_text } }</code>
            </p>
            <form class="lab-control-row" onsubmit={on_replay}>
                <label class="lab-inline-label">
                    { lang.t("Replay a schedule, e.g. 1 1 2 2 2 1", "スケジュールをリプレイ（例：1 1 2 2 2 1）") }
                    <input type="text" inputmode="numeric" value={(*replay_text).clone()} oninput={on_replay_input}
                           data-testid="lab-replay-input" />
                </label>
                <button type="submit" data-testid="lab-replay">{ lang.t("Replay", "リプレイ") }</button>
            </form>
        </div>
    }
}
