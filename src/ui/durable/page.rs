//! The page component: the reducer's wiring and its edge. The address and this browser's storage
//! are read once when it opens (a link's run first, else the run saved for this route with the
//! answers saved beside it, else the mode's own start); the play timer, the keyboard, saving and
//! the done / won marks are effects.

use yew::prelude::*;

use crate::sim::durable::DurableRun;
use crate::sim::lesson::Mark;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::run::{use_mark, use_play_timer, use_run_keys, use_save_changes};
use crate::ui::web::{self, Listener};

use super::persist;
use super::state::{DurAction, DurUi, Mode, Notice};
use super::view;

/// Props of [`DurablePage`].
#[derive(Properties, PartialEq)]
pub struct DurablePageProps {
    /// The page language.
    pub lang: Lang,
    /// The route drawn.
    pub route: Route,
}

/// How the page opens for `mode`.
fn opening(mode: Mode) -> DurUi {
    let route_hash = mode.route().to_hash();
    let hash = web::current_hash();
    if let Some(query) = Route::query(&hash).filter(|q| q.contains("s=")) {
        // The link has been read: the address goes back to the route, so a reload restores
        // the saved run (which is this one from now on).
        web::replace_history(&route_hash);
        return match persist::from_query_versioned(query) {
            Ok((s, older)) => {
                let mut run = DurableRun::new(s.columns, s.actions);
                run.seek(s.cursor);
                DurUi::new(mode, run, older.then_some(Notice::OlderModel))
            }
            Err(e) => DurUi::new(
                mode,
                DurableRun::new(mode.columns(), Vec::new()),
                Some(Notice::BadLink(e)),
            ),
        };
    }
    match persist::load_versioned(&route_hash) {
        Some(Ok((s, older))) => {
            let mut run = DurableRun::new(s.columns, s.actions);
            run.seek(s.cursor);
            let mut ui = DurUi::new(mode, run, older.then_some(Notice::OlderModel));
            // The answers saved with this run (none with a run saved before there were any).
            let (answer, transfer) = persist::load_answers(&route_hash);
            ui.restore(answer, transfer);
            ui
        }
        Some(Err(e)) => DurUi::new(
            mode,
            DurableRun::new(mode.columns(), Vec::new()),
            Some(Notice::BadSaved(e)),
        ),
        None => DurUi::fresh(mode),
    }
}

/// A link pasted or followed while the page is open (same route, another `?s=`): read it.
#[hook]
fn use_followed_links(d: UseReducerDispatcher<DurUi>, route_hash: String) {
    use_effect_with((), move |_| {
        let listener = Listener::on_window("hashchange", move |e: web_sys::Event| {
            let hash = web::event_hash(&e);
            if Route::parse(&hash).to_hash() != route_hash {
                return; // another route: the page drawn for it reads its link
            }
            let Some(query) = Route::query(&hash).filter(|q| q.contains("s=")) else {
                return;
            };
            web::replace_history(&route_hash);
            match persist::from_query_versioned(query) {
                Ok((state, older)) => d.dispatch(DurAction::Load { state, older }),
                Err(e) => d.dispatch(DurAction::Notice(Notice::BadLink(e))),
            }
        });
        move || drop(listener)
    });
}

/// Import: reads the text area's JSON into the run, or says why not.
fn on_import(import_ref: &NodeRef, d: UseReducerDispatcher<DurUi>) -> Callback<MouseEvent> {
    let import_ref = import_ref.clone();
    Callback::from(move |_: MouseEvent| {
        if let Some(area) = import_ref.cast::<web_sys::HtmlTextAreaElement>() {
            match persist::read_versioned(&area.value()) {
                Ok((state, older)) => d.dispatch(DurAction::Load { state, older }),
                Err(e) => d.dispatch(DurAction::Notice(Notice::BadImport(e))),
            }
        }
    })
}

/// The durable-execution page.
#[function_component(DurablePage)]
pub fn durable_page(p: &DurablePageProps) -> Html {
    let l = p.lang;
    let mode = Mode::of(&p.route);
    let route_hash = mode.route().to_hash();
    let unknown = matches!(p.route, Route::DurableChallenge(_)) && mode == Mode::Free;
    let ui = use_reducer(move || {
        if unknown {
            DurUi::new(
                mode,
                DurableRun::new(mode.columns(), Vec::new()),
                Some(Notice::UnknownChallenge),
            )
        } else {
            opening(mode)
        }
    });
    let on: Callback<DurAction> = {
        let d = ui.dispatcher();
        Callback::from(move |a| d.dispatch(a))
    };

    // Keyboard (space, →, ←) and the play timer: the run edge every page shares.
    {
        let d = ui.dispatcher();
        use_run_keys(Callback::from(move |c| d.dispatch(DurAction::from(c))));
        let d = ui.dispatcher();
        let tick = Callback::from(move |()| d.dispatch(DurAction::Tick));
        use_play_timer(tick, ui.playing, ui.run.cursor(), ui.speed_ms);
    }
    use_followed_links(ui.dispatcher(), route_hash.clone());
    crate::ui::question::use_focus_after_next(route_hash.clone());
    // Stepping to a question hands focus to its choices, not to Back (walk-through of stop 42).
    crate::ui::run::use_kept_focus(ui.run.cursor());
    // Saving the run and the answers, for a reload and for Back: after the first change.
    {
        let saved = ui.saved();
        let answers = (ui.answer, ui.transfer_answer);
        let key = route_hash.clone();
        use_save_changes(
            ui.version,
            false,
            Box::new(move |_| {
                persist::save(&key, &saved);
                persist::save_answers(&key, answers);
            }),
        );
    }
    // Done and won marks in the lesson path's progress.
    use_mark(match mode {
        Mode::Lesson(id) => ui.answer.is_some().then_some((id, Mark::Done)),
        // A win after the solution was opened is no star.
        Mode::Challenge(id) => {
            (ui.won() && crate::ui::run::counts_win(id)).then_some((id, Mark::Won))
        }
        Mode::Free => None,
    });
    let import_ref = use_node_ref();
    let on_import = on_import(&import_ref, ui.dispatcher());
    html! {
        <section class="durable" aria-labelledby="dur-h">
            { view::header(l, mode) }
            { for ui.notice.as_ref().map(|n| view::notice(l, n)) }
            { view::intro(l, &ui, &on) }
            { view::controls(l, &ui, &on) }
            { view::columns(l, &ui, &on) }
            <div class="dur-main">
                { view::source(l, &ui) }
                { view::timeline(l, &ui, &on) }
            </div>
            { view::settings(l, &ui, &on) }
            { view::engines(l) }
            { view::leaves_out(l) }
            { view::share(l, &ui, &route_hash, &import_ref, on_import) }
        </section>
    }
}
