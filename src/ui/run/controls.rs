//! Reset, step back, play/pause, step, run to the end, speed and a scrubber: the one control
//! bar of every page. Keyboard: space plays/pauses, → steps, ← steps back (`use_run_keys`,
//! on the document, so it works without focus here).

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::text::view::common as words;

/// Play speeds: milliseconds between steps.
pub const SPEEDS_MS: [(u32, &str); 4] = [(1200, "0.5×"), (600, "1×"), (250, "2.5×"), (80, "8×")];
/// The speed a page starts at (1×).
pub const DEFAULT_SPEED_MS: u32 = 600;

/// What the controls ask the page to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Back to step 0.
    Reset,
    /// One step back.
    Back,
    /// Start or stop playing.
    TogglePlay,
    /// One step forward.
    Step,
    /// Jump to the end of the run.
    End,
    /// Jump to a step.
    Seek(usize),
    /// Change the play interval (ms).
    Speed(u32),
}

/// Props of the controls.
#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    /// Page language.
    pub lang: Lang,
    /// Current step.
    pub position: usize,
    /// Steps in the run.
    pub total: usize,
    /// Playing now.
    pub playing: bool,
    /// Current play interval.
    pub speed_ms: u32,
    /// Where requests go.
    pub on: Callback<Control>,
    /// A question waits at this step: the run does not go past it until it is answered.
    #[prop_or_default]
    pub limit: Option<usize>,
    /// The simulated time at the cursor, shown beside the step (pages whose steps are timed).
    #[prop_or_default]
    pub time_ms: Option<u64>,
}

/// The control bar.
#[function_component(Controls)]
pub fn controls(p: &ControlsProps) -> Html {
    let l = p.lang;
    let send = |c: Control| {
        let on = p.on.clone();
        Callback::from(move |_: MouseEvent| on.emit(c))
    };
    let on_scrub = {
        let on = p.on.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(k) = input.value().parse::<usize>() {
                on.emit(Control::Seek(k));
            }
        })
    };
    let on_speed = {
        let on = p.on.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Ok(ms) = input.value().parse::<u32>() {
                on.emit(Control::Speed(ms));
            }
        })
    };
    let at_start = p.position == 0;
    // Where the run can go now: its end, or the step where a question waits.
    let reachable = p.total.min(p.limit.unwrap_or(usize::MAX));
    let at_end = p.position >= reachable;
    html! {
        <div class="controls" role="toolbar" aria-label={words::RUN_CONTROLS.get(l)}>
            <button onclick={send(Control::Reset)} disabled={at_start} data-testid="reset">{ words::RESET.get(l) }</button>
            <button onclick={send(Control::Back)} disabled={at_start} data-testid="back"
                    title={words::BACK_TITLE.get(l)}>{ words::BACK.get(l) }</button>
            <button class="primary" onclick={send(Control::TogglePlay)} disabled={at_end && !p.playing} data-testid="play"
                    aria-pressed={p.playing.to_string()} title={words::PLAY_TITLE.get(l)}>
                { if p.playing { words::PAUSE.get(l) } else { words::PLAY.get(l) } }
            </button>
            <button onclick={send(Control::Step)} disabled={at_end} data-testid="step"
                    title={words::STEP_TITLE.get(l)}>{ words::STEP.get(l) }</button>
            <button onclick={send(Control::End)} disabled={at_end} data-testid="run-to-end">{ words::RUN_TO_END.get(l) }</button>
            <label class="speed">{ words::SPEED.get(l) }
                <select onchange={on_speed} aria-label={words::PLAY_SPEED.get(l)}>
                    { for SPEEDS_MS.iter().map(|(ms, name)| html! {
                        <option value={ms.to_string()} selected={*ms == p.speed_ms}>{ *name }</option>
                    }) }
                </select>
            </label>
            <input type="range" min="0" max={reachable.to_string()} value={p.position.to_string()}
                   oninput={on_scrub} aria-label={words::SCRUBBER.get(l)} />
            <span class="position" data-testid="position" aria-live="polite">
                { words::position(l, p.position, p.total) }
                if let Some(t) = p.time_ms { { words::time_ms(l, t) } }
            </span>
        </div>
    }
}
