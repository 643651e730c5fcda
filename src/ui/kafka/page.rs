//! The page component: its reducer's wiring and its edge — what it opens with (a link, else the
//! run kept in this browser, else the built-in one), the keyboard, the play loop, and after each
//! change the address and this browser's copy of the run, and the lesson path's marks.

use yew::prelude::*;

use crate::sim::lesson::Mark;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::run::{counts_win, use_mark, use_play_timer, use_run_keys, use_save_changes};
use crate::ui::web;

use super::persist;
use super::state::{Action, Answer, KafkaUi, Notice, Place};
use super::view;

/// Props of [`KafkaPage`].
#[derive(Properties, PartialEq)]
pub struct KafkaPageProps {
    /// The page language.
    pub lang: Lang,
    /// The route it draws.
    pub route: Route,
}

fn opening(route: &Route) -> KafkaUi {
    let place = Place::of(route);
    if matches!(route, Route::KafkaChallenge(_)) && place == Place::Sandbox {
        return KafkaUi::open(place, place.builtin(), 0, Some(Notice::UnknownChallenge));
    }
    let hash = web::current_hash();
    if Route::parse(&hash) == *route {
        if let Some(q) = Route::query(&hash) {
            return match persist::from_query(q) {
                Ok((s, k, older)) => {
                    // A reload: this browser's copy of the same run keeps the answers.
                    let answers = persist::saved_answers(&place.route(), Some(q));
                    KafkaUi::reopen(place, s, k, older.then_some(Notice::OlderModel), answers)
                }
                Err(e) => KafkaUi::open(place, place.builtin(), 0, Some(Notice::BadLink(e))),
            };
        }
    }
    let answers = persist::saved_answers(&place.route(), None);
    match persist::load(&place.route()) {
        Some(Ok((s, k, older))) => {
            KafkaUi::reopen(place, s, k, older.then_some(Notice::OlderModel), answers)
        }
        Some(Err(e)) => KafkaUi::open(place, place.builtin(), 0, Some(Notice::BadSaved(e))),
        None => KafkaUi::open(place, place.builtin(), 0, None),
    }
}

/// The Kafka page.
#[function_component]
pub fn KafkaPage(p: &KafkaPageProps) -> Html {
    let route = p.route.clone();
    let ui = use_reducer(|| opening(&route));
    let dispatch = ui.dispatcher();

    // Keyboard (space, →, ←) and the play timer: the run edge every page shares.
    {
        let d = dispatch.clone();
        use_run_keys(Callback::from(move |c| d.dispatch(Action::from(c))));
        let d = dispatch.clone();
        let tick = Callback::from(move |()| d.dispatch(Action::Tick));
        use_play_timer(tick, ui.playing, ui.cursor(), ui.speed_ms);
    }
    // Stepping to a question hands focus to its choices, not to Back (walk-through of stop 42).
    crate::ui::run::use_kept_focus(ui.cursor());
    crate::ui::question::use_focus_after_next(ui.place.route().to_hash());

    // After each change: the address and this browser keep the run; the lesson path its marks.
    {
        let route = ui.place.route();
        let query = persist::to_saved(&ui.scenario, ui.cursor(), ui.answers());
        let done = match (ui.place, ui.answer) {
            (Place::Lesson(id), Answer::Picked(_) | Answer::Skipped) => Some((id, Mark::Done)),
            // A win after the solution was opened is no star, here or after a reload.
            (Place::Challenge(id), _) if ui.won() && counts_win(id) => Some((id, Mark::Won)),
            _ => None,
        };
        // Not the run the page opened with: a damaged link or a fresh lesson overwrites neither
        // the address nor the run this browser kept.
        use_save_changes(
            query,
            false,
            Box::new(move |query| {
                let hash = web::current_hash();
                if Route::parse(&hash) == route {
                    // The address holds the run; the answers stay in this browser.
                    let url = format!("{}?{}", route.to_hash(), persist::run_part(query));
                    if hash.trim_start_matches('#') != url.trim_start_matches('#') {
                        web::replace_history(&url);
                    }
                    persist::save(&route, query);
                }
            }),
        );
        use_mark(done);
    }

    let on = Callback::from(move |a: Action| dispatch.dispatch(a));
    view::page(p.lang, &ui, &on)
}
