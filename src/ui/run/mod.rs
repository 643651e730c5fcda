//! The run edge every page shares: one run-controls component ([`Controls`]: the same words,
//! order and test ids on the playground, the Kafka page and the durable page), the keyboard
//! hook and the play timer, all speaking [`Control`]. A page maps a `Control` to its own action.

mod controls;

use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::sim::lesson::{Mark, Progress};
use crate::ui::web::{self, Listener};

pub use controls::{Control, Controls, ControlsProps, DEFAULT_SPEED_MS, SPEEDS_MS};

/// Keyboard: space plays or pauses, → steps, ← steps back; ignored while typing in a field.
#[hook]
pub fn use_run_keys(on: Callback<Control>) {
    use_effect_with((), move |_| {
        let listener = Listener::on_document("keydown", move |e: web_sys::Event| {
            if let Some(k) = web::key_of(&e) {
                on.emit(match k {
                    web::RunKey::TogglePlay => Control::TogglePlay,
                    web::RunKey::Step => Control::Step,
                    web::RunKey::Back => Control::Back,
                });
            }
        });
        move || drop(listener)
    });
}

/// Playing: `tick` once per `speed_ms`. The timer is set again whenever the step, the speed or
/// playing changes, and dropped (cancelled) with the old one.
/// After a render that took the focused control away (Step turned disabled at a question, Run
/// to end at the end), hands focus on: to a waiting question's first choice (Enter on Back
/// would step the learner away from it, issue 28), else Step, Play, Back or the page. `on` is
/// what changes when a control can go (the cursor, a remembered change).
#[hook]
pub fn use_kept_focus<T: PartialEq + 'static>(on: T) {
    use_effect_with(on, |_| {
        web::restore_focus(&[
            "[data-testid=predict][data-state=open] button[data-choice]",
            "[data-testid=step]",
            "[data-testid=play]",
            "[data-testid=back]",
            "#main",
        ]);
    });
}

#[hook]
pub fn use_play_timer(tick: Callback<()>, playing: bool, position: usize, speed_ms: u32) {
    use_effect_with(
        (playing, position, speed_ms),
        move |&(playing, _, speed)| {
            let timer = playing.then(|| Timeout::new(speed, move || tick.emit(())));
            move || drop(timer)
        },
    );
}

/// Saves after the first change, the same way on every page: `save(deps)` each time `deps`
/// changes after the page opened, never for the value it opened with (so a damaged link, a
/// fresh lesson or unreadable storage overwrites nothing), unless `keep_first` (the page opened
/// a good link, whose run is this route's from now on). `save` is boxed so that every use with
/// the same `deps` type shares one copy of the effect in the download.
#[hook]
pub fn use_save_changes<D>(deps: D, keep_first: bool, save: Box<dyn FnOnce(&D)>)
where
    D: PartialEq + 'static,
{
    let skip_next = use_mut_ref(|| !keep_first);
    use_effect_with(deps, move |deps| {
        if !std::mem::replace(&mut *skip_next.borrow_mut(), false) {
            save(deps);
        }
    });
}

/// Marks lesson or challenge `id` in this browser's progress, which every page reads (a won
/// challenge stays won).
pub fn mark(id: &str, mark: Mark) {
    let mut p = Progress::from_text(&web::load(web::PROGRESS_KEY).unwrap_or_default());
    if p.set_mark(id, mark) {
        web::save(web::PROGRESS_KEY, &p.to_text());
    }
}

/// Notes in this browser's progress that challenge `id`'s solution was opened: done, not won.
pub fn note_solution(id: &str) {
    mark(id, Mark::Done);
}

/// Whether a win of challenge `id` counts ([`Progress::counts_win`]), in this browser.
pub fn counts_win(id: &str) -> bool {
    Progress::from_text(&web::load(web::PROGRESS_KEY).unwrap_or_default()).counts_win(id)
}

/// The mark of lesson or challenge `id` in this browser's progress.
pub fn marked(id: &str) -> Option<Mark> {
    Progress::from_text(&web::load(web::PROGRESS_KEY).unwrap_or_default()).mark(id)
}

/// Marks `done` (a lesson done, a challenge won) when it comes.
#[hook]
pub fn use_mark(done: Option<(&'static str, Mark)>) {
    use_effect_with(done, move |done| {
        if let Some((id, m)) = done {
            mark(id, *m);
        }
    });
}
