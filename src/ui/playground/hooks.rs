//! The playground's own edge, as hooks: slices of a long build, and the remembered run written
//! to localStorage after the actions that change it. (The keyboard and the play timer are every
//! page's: `ui/run`.)

use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::ui::route::Route;
use crate::ui::run::use_save_changes;
use crate::ui::web::{self, LAST_RUN_KEY};

use super::saved_run::SavedRun;
use super::state::{Action, PageState};

/// Building a long run: the next slice after the browser has had its turn (to draw the
/// progress, to take a click on Cancel). `slices` changes after each slice; `None` when no run
/// is being built.
#[hook]
pub fn use_build_slices(dispatch: UseReducerDispatcher<PageState>, slices: Option<u64>) {
    use_effect_with(slices, move |slices| {
        let timer = slices.map(|_| Timeout::new(0, move || dispatch.dispatch(Action::BuildSlice)));
        move || drop(timer)
    });
}

/// Keeps focus on a working control, and saves the run on `route` in this browser, under the
/// route's own key, each time the state counts a change to remember (not when the page opens: a damaged link or a fresh lesson
/// overwrites nothing). Each route keeps its own run, so leaving a lesson and coming back with
/// Back restores it just as a reload does.
#[hook]
pub fn use_remembered_run(state: UseReducerHandle<PageState>, route: Route) {
    // Every action that can take a control away is one the page remembers (or the page
    // opening: a lesson link drawn anew).
    crate::ui::run::use_kept_focus(state.remembered);
    use_save_changes(
        state.remembered,
        false,
        Box::new(move |_| {
            let key = web::run_key(&route.to_hash());
            match state.saved_run(&route) {
                Some(saved) => {
                    web::save(&key, &saved.to_json());
                    // A share link has done its work once the learner moves on: the address
                    // becomes the route's own, so a reload brings back this run (just saved),
                    // not the sender's (Restore after opening a forked link, then F5, brought
                    // the fork back).
                    if Route::query(&web::current_hash()).is_some() {
                        web::replace_history(&route.to_hash());
                    }
                }
                // Too large to keep (the page has said so): drop the older run rather than let a
                // reload bring back something else.
                None => web::remove(&key),
            }
            // A run an earlier version kept for this route is now older than this one.
            let legacy = web::load(LAST_RUN_KEY).and_then(|t| SavedRun::from_json(&t));
            if legacy.is_some_and(|l| l.route == route.to_hash()) {
                web::remove(LAST_RUN_KEY);
            }
        }),
    );
}

/// On every route (and as the page opens): the first page's `on_route` (`Tools`; the sandbox
/// has none), which fetches the lessons' words once and moves focus after "Next"; it tells the
/// page through `done` when the words are read.
#[hook]
pub fn use_route_edge(
    route: Route,
    dispatch: UseReducerDispatcher<PageState>,
    on_route: Option<fn(Callback<bool>)>,
) {
    use_effect_with(route, move |_| {
        if let Some(f) = on_route {
            f(Callback::from(move |ok| {
                dispatch.dispatch(Action::WordsLoaded(ok))
            }));
        }
    });
}

/// The first page's `on_route` (see [`use_route_edge`]): the lessons' words fetched once, and
/// focus moved from "Next" to the new lesson's heading.
pub fn lessons_on_route(words: Callback<bool>) {
    super::intro::load_words(words);
    web::move_focus(
        "[data-testid=next-lesson], [data-testid=on-the-way] a",
        "[data-testid=lesson] h2",
    );
}

/// Saves the learner's progress (answers, done and won marks) whenever it changes.
#[hook]
pub fn use_saved_progress(state: UseReducerHandle<PageState>) {
    use_save_changes(
        state.teach.progress_changed,
        false,
        Box::new(move |_| {
            web::save(web::PROGRESS_KEY, &state.teach.progress.to_text());
        }),
    );
}

/// Whether the whole page is drawn yet. Unless `staged`, at once; if `staged`, false for the
/// first render and true from a timer task queued right after it, so the lesson and the run's
/// controls reach the screen (and answer a click) before the panels and the timeline are built.
#[hook]
pub fn use_whole_page(staged: bool) -> bool {
    let whole = use_state_eq(|| !staged);
    {
        let whole = whole.clone();
        use_effect_with((), move |_| {
            let timer = (!*whole).then(|| Timeout::new(0, move || whole.set(true)));
            move || drop(timer)
        });
    }
    *whole
}
