//! The page: its reducer's wiring and its edge. The address and this browser's storage are read
//! once when it opens; the run's slices, the address's history entries and saving are effects.
//!
//! The address mirrors the form (`#/properties?p=…&svc=…&n=…&seed=…`): an edit rewrites the
//! current history entry, or adds one if the current entry shows a run, so Back returns to the
//! settings (and the result) of the run before. Opening an address with settings — a link, a
//! reload, Back or Forward — runs them: a run is a function of its settings. The shrink step on
//! screen rides in the same entry (`&shrink=…`, rewritten in place as the learner walks), so a
//! reload, Back and Forward come back to it.

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::sim::limits::MAX_PROPERTY_SEED;
use crate::sim::properties::{service_from_id, Property, Settings};
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::run::use_save_changes;
use crate::ui::text::properties::setting_error;
use crate::ui::text::view;
use crate::ui::web::{self, Listener};

use super::persist::{self, LinkError};
use super::state::{default_settings, Notice, PropAction, PropUi};
use super::view::{result, settings_form, status, FormHandlers};
use super::walk::WalkHandlers;

/// Props of [`PropertiesPage`].
#[derive(Properties, PartialEq)]
pub struct PropertiesPageProps {
    /// The page language.
    pub lang: Lang,
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The settings in a `#/properties?…` address, over the defaults (so a link means the same run
/// in every browser); `None` when the address has none.
fn linked(hash: &str) -> Option<Result<Settings, LinkError>> {
    if Route::parse(hash) != Route::Properties {
        return None;
    }
    Route::query(hash).map(|q| persist::from_query(q, default_settings()))
}

/// The state the page opens with, and whether it opened from an address with settings (then
/// they run at once).
fn opening() -> (PropUi, bool) {
    let (saved, saved_notice) = match persist::load(default_settings()) {
        Some(Ok(s)) => (s, None),
        Some(Err(e)) => (default_settings(), Some(Notice::BadSaved(e))),
        None => (default_settings(), None),
    };
    let hash = web::current_hash();
    match linked(&hash) {
        Some(Ok(s)) => {
            let ui = Rc::new(PropUi::with(s, None));
            let ui = yew::Reducible::reduce(ui, PropAction::Open(s, now_ms()));
            let at = Route::query(&hash).map_or(0, persist::shrink_step);
            let ui = yew::Reducible::reduce(ui, PropAction::ShrinkTo(at));
            ((*ui).clone(), true)
        }
        Some(Err(e)) => (PropUi::with(saved, Some(Notice::BadLink(e))), false),
        None => (PropUi::with(saved, saved_notice), false),
    }
}

/// Makes the address show `query`: in place, or as a new history entry when the current one
/// shows a run (which Back should find again).
fn show_in_address(query: &str, entry_ran: &mut bool) {
    let hash = web::current_hash();
    if Route::query(&hash).map(persist::settings_part).as_deref() == Some(query) {
        return;
    }
    let url = format!("{}?{query}", Route::Properties.to_hash());
    if std::mem::replace(entry_ran, false) {
        web::push_history(&url);
    } else {
        web::replace_history(&url);
    }
}

/// A seed from the browser's randomness (the core never draws one): `Math.random` has 53 bits.
fn fresh_seed() -> u64 {
    let r = js_sys::Math::random() * (MAX_PROPERTY_SEED as f64 + 1.0);
    (r as u64).min(MAX_PROPERTY_SEED)
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<web_sys::HtmlSelectElement>()
        .value()
}

fn input_value(e: &InputEvent) -> String {
    e.target_unchecked_into::<web_sys::HtmlInputElement>()
        .value()
}

/// Shows shrink step `at` of the run of `settings` in the address, in place: only when the
/// current entry shows that run (a new run's entry is written by `keep_run`).
fn show_shrink_step(settings: Settings, at: usize) {
    let hash = web::current_hash();
    let Some(query) = Route::query(&hash).filter(|_| Route::parse(&hash) == Route::Properties)
    else {
        return;
    };
    let want = persist::to_address(&settings, at);
    if query != want && persist::settings_part(query) == persist::to_query(&settings) {
        web::replace_history(&format!("{}?{want}", Route::Properties.to_hash()));
    }
}

/// The property-check page (`#/properties`).
#[component(PropertiesPage)]
pub fn properties_page(props: &PropertiesPageProps) -> Html {
    let l = props.lang;
    let start = use_memo((), |_| opening());
    let ui = {
        let start = start.clone();
        use_reducer(move || start.0.clone())
    };
    let dispatch = ui.dispatcher();
    // Whether the address's current history entry shows a run (see `show_in_address`).
    let entry_ran = use_mut_ref(|| start.1);

    // The run: the next slice after the browser has had its turn (to draw the progress, to
    // take a click on Cancel).
    {
        let d = dispatch.clone();
        let pending = ui
            .running()
            .then(|| ui.run.as_ref().map_or(0, |r| r.slices));
        use_effect_with(pending, move |pending| {
            let timer =
                pending.map(|_| Timeout::new(0, move || d.dispatch(PropAction::Slice(now_ms()))));
            move || drop(timer)
        });
    }
    use_address(&ui, dispatch.clone(), entry_ran);
    let run_ref = use_node_ref();
    let handlers = handlers(&dispatch, run_ref);
    let walk_handlers = walk_handlers(&dispatch);
    let notice = ui.notice.as_ref().map(|n| notice(l, n));

    html! {
        <section class="properties" aria-labelledby="prop-h">
            <header class="prop-intro">
                <h2 id="prop-h">{ view::properties::HEADING.get(l) }</h2>
                <p>{ view::properties::INTRO.get(l) }</p>
            </header>
            { for notice }
            { settings_form(l, &ui, &handlers) }
            { status(l, ui.run.as_ref(), handlers.cancel.clone()) }
            if let Some(run_view) = &ui.run {
                { result(l, run_view, ui.walk(), &walk_handlers) }
            }
        </section>
    }
}

/// The page's address and this browser's storage: the form's settings and each run's are kept
/// in both, the shrink step on screen in the address; Back, Forward and a pasted address open
/// their settings. `entry_ran`: whether the current history entry shows a run.
#[hook]
fn use_address(ui: &PropUi, dispatch: UseReducerDispatcher<PropUi>, entry_ran: Rc<RefCell<bool>>) {
    // The form's settings, once both numbers read: saved in this browser and shown in the
    // address. Not when the page opens: nothing has changed yet.
    {
        let entry_ran = entry_ran.clone();
        let query = ui.settings().map(|s| persist::to_query(&s));
        use_save_changes(
            query,
            false,
            Box::new(move |query| {
                keep_settings(query.as_deref(), &entry_ran);
            }),
        );
    }
    // A run started: this browser and the address hold its settings, and this entry now shows
    // a run.
    {
        let entry_ran = entry_ran.clone();
        let query = ui
            .run
            .as_ref()
            .map(|r| persist::to_query(&r.run.settings()));
        use_effect_with(ui.runs, move |_| keep_run(query, &entry_ran));
    }
    // Back, Forward or a pasted address with settings: open them (and run them).
    {
        use_effect_with((), move |_| follow_addresses(dispatch, entry_ran));
    }
    // The shrink step on screen, in the address, once the run has steps to walk.
    {
        let shown = ui
            .walk()
            .zip(ui.run.as_ref())
            .map(|((at, _), r)| (r.run.settings(), at));
        use_effect_with(shown, |shown| {
            if let Some((settings, at)) = shown {
                show_shrink_step(*settings, *at);
            }
        });
    }
}

/// Saves the form's settings (`query`) in this browser and shows them in the address.
fn keep_settings(query: Option<&str>, entry_ran: &RefCell<bool>) {
    if let Some(q) = query {
        persist::save(q);
        show_in_address(q, &mut entry_ran.borrow_mut());
    }
}

/// Saves a started run's settings (`query`) in this browser and shows them in the address,
/// whose entry now shows a run.
fn keep_run(query: Option<String>, entry_ran: &RefCell<bool>) {
    if let Some(q) = query {
        persist::save(&q);
        let mut ran = entry_ran.borrow_mut();
        show_in_address(&q, &mut ran);
        *ran = true;
    }
}

/// Opens (and runs) the settings of every address Back, Forward or a paste brings; the returned
/// function stops listening.
fn follow_addresses(
    d: UseReducerDispatcher<PropUi>,
    entry_ran: Rc<RefCell<bool>>,
) -> impl FnOnce() {
    let listener = Listener::on_window("hashchange", move |e: web_sys::Event| {
        let hash = web::event_hash(&e);
        match linked(&hash) {
            Some(Ok(s)) => {
                *entry_ran.borrow_mut() = true;
                d.dispatch(PropAction::Open(s, now_ms()));
                let at = Route::query(&hash).map_or(0, persist::shrink_step);
                d.dispatch(PropAction::ShrinkTo(at));
            }
            Some(Err(e)) => d.dispatch(PropAction::Notice(Notice::BadLink(e))),
            None => {}
        }
    });
    move || drop(listener)
}

/// What the form's controls send to the page's state; Cancel gives the focus to Run (`run_ref`).
fn handlers(dispatch: &UseReducerDispatcher<PropUi>, run_ref: NodeRef) -> FormHandlers {
    let send = |action: fn(String) -> PropAction| {
        let d = dispatch.clone();
        Callback::from(move |e: InputEvent| d.dispatch(action(input_value(&e))))
    };
    FormHandlers {
        property: {
            let d = dispatch.clone();
            Callback::from(move |e: Event| {
                if let Some(p) = Property::from_id(&select_value(&e)) {
                    d.dispatch(PropAction::Property(p));
                }
            })
        },
        service: {
            let d = dispatch.clone();
            Callback::from(move |e: Event| {
                if let Some(s) = service_from_id(&select_value(&e)) {
                    d.dispatch(PropAction::Service(s));
                }
            })
        },
        cases: send(PropAction::Cases),
        seed: send(PropAction::Seed),
        new_seed: {
            let d = dispatch.clone();
            Callback::from(move |_: MouseEvent| {
                d.dispatch(PropAction::Seed(fresh_seed().to_string()))
            })
        },
        run: {
            let d = dispatch.clone();
            Callback::from(move |_: MouseEvent| d.dispatch(PropAction::Run(now_ms())))
        },
        cancel: {
            let d = dispatch.clone();
            let run_ref = run_ref.clone();
            Callback::from(move |_: MouseEvent| {
                d.dispatch(PropAction::Cancel);
                if let Some(run) = run_ref.cast::<web_sys::HtmlElement>() {
                    let _ = run.focus();
                }
            })
        },
        run_ref,
    }
}

/// What the shrink walk's controls send: a step, or the slider's value.
fn walk_handlers(dispatch: &UseReducerDispatcher<PropUi>) -> WalkHandlers {
    let d = dispatch.clone();
    let to = Callback::from(move |at: usize| d.dispatch(PropAction::ShrinkTo(at)));
    WalkHandlers {
        slider: to.reform(|e: InputEvent| input_value(&e).parse().unwrap_or(0)),
        to,
    }
}

fn notice(l: Lang, n: &Notice) -> Html {
    let (what, e) = match n {
        Notice::BadLink(e) => (view::properties::BAD_LINK.get(l), e),
        Notice::BadSaved(e) => (view::properties::BAD_SAVED.get(l), e),
    };
    let why = match e {
        LinkError::UnknownProperty(p) => view::properties::no_such_property(l, p),
        LinkError::UnknownService(s) => view::properties::no_such_service(l, s),
        LinkError::Value(e) => setting_error(l, e),
    };
    html! { <p class="field-error" role="alert" data-testid="prop-notice">{ what }{ why }</p> }
}
