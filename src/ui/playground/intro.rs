//! The card above the run: a lesson (its number, title and story, then its question: predict,
//! then reveal), a challenge, or what the sandbox is for.

use yew::prelude::*;

use crate::sim::{Scenario, Session};
use crate::ui::i18n::Lang;
use crate::ui::route::Route;

use super::challenge_card::{ChallengeCard, Standing};
use super::predict::PredictBlock;
use super::sandbox_form::Change;
use super::state::{Action, PageState};
use super::teach::Progress;
use crate::ui::raw::Raw;
use crate::ui::text::lessons::{self, Lesson};
use crate::ui::text::view;

/// The sandbox card's list of challenges (`scenario_nav::challenge_list`), with the learner's
/// marks. In the sandbox page's `Tools` only.
pub type ChallengeList = fn(Lang, &Progress) -> Html;

/// The lesson card's drawing (see [`lesson_card`]): in the first page's `Tools` only.
pub type LessonCard = for<'a> fn(&IntroProps<'a>, &'static Lesson) -> Html;

/// What [`intro`] draws.
pub struct IntroProps<'a> {
    /// Page language.
    pub lang: Lang,
    /// The challenge card, from the page's parts (`page::Tools`).
    pub challenge: Option<ChallengeCard>,
    /// The sandbox card's list of challenges, from the page's parts.
    pub challenge_list: Option<ChallengeList>,
    /// The lesson card, from the page's parts.
    pub lesson: Option<LessonCard>,
    /// A lesson's question, from the page's parts.
    pub predict: Option<PredictBlock>,
    /// Where the page is.
    pub route: &'a Route,
    /// The lesson as written, when the run on screen is not it (a fork, other services, an
    /// import): the card then says which, with the button that brings it back.
    pub original: Option<&'a Scenario>,
    /// Where that button goes.
    pub on_change: &'a Callback<Change>,
    /// The page's state (the question, the challenge).
    pub state: &'a PageState,
    /// The run, once built.
    pub session: Option<&'a Session>,
    /// Where the question's and the challenge's buttons go.
    pub on: &'a Callback<Action>,
}

/// The lesson card, the challenge card or the sandbox card; nothing on other routes.
#[inline(never)]
pub fn intro(p: &IntroProps) -> Html {
    let l = p.lang;
    let teach = &p.state.teach;
    if let (Some(c), Some(run), Some(card)) = (&teach.challenge, &p.state.run, p.challenge) {
        // At the run's last step with the goal not met, these moves do not win (with no move of
        // the learner's yet, as after "Clear all inputs", there is nothing to judge).
        let moved = c.moves_used(&run.scenario) > 0;
        let standing = match (teach.won, p.session) {
            (true, _) if !teach.progress.counts_win(c.id) => Standing::WonBySolution,
            (true, _) => Standing::Won,
            (false, Some(s)) if moved && s.at_end() && s.total() > 0 => Standing::Ended,
            _ => Standing::Open,
        };
        return card(l, c, &run.scenario, p.session, standing, p.on);
    }
    let lesson = match p.route {
        Route::Scenario(id) => lessons::lesson(id),
        _ => None,
    };
    html! { <>
        if let (Some(ls), Some(card)) = (lesson, p.lesson) {
            { card(p, ls) }
        }
        if matches!(p.route, Route::Sandbox) {
            <section class="lesson card">
                <h2>{ view::playground::SANDBOX_HEADING.get(l) }</h2>
                <p>{ view::playground::SANDBOX_INTRO.get(l) }</p>
                if let Some(list) = p.challenge_list { { list(l, &teach.progress) } }
            </section>
        }
    </> }
}

/// A lesson's card: number, title and story, its question, a note when the run is not the
/// lesson as written, and the link to the next lesson. Only the first page's `Tools` names it,
/// so no other page's wasm carries it.
pub fn lesson_card(p: &IntroProps, ls: &'static Lesson) -> Html {
    let l = p.lang;
    let teach = &p.state.teach;
    let words = lessons::words(ls.id);
    // The static parts are handler-free markup, one string each (`crate::ui::raw`).
    let mut head = Raw::default();
    head.open("h2", &[("tabindex", "-1")])
        .el(
            "span",
            &[("class", "lesson-number")],
            &lessons::number(ls.id).unwrap_or_default(),
        )
        .text(" ")
        .text(Lesson::pick(l, ls.title))
        .close("h2");
    let state = match words {
        Some(w) => {
            head.open("p", &[]);
            crate::ui::glossary::write_linked(&mut head, l, ls.id, 0, Lesson::pick(l, w.story));
            head.close("p");
            "ready"
        }
        None if p.state.words_failed => {
            head.el(
                "p",
                &[("class", "notice error")],
                view::playground::WORDS_FAILED.get(l),
            );
            "failed"
        }
        None => {
            head.el(
                "p",
                &[("class", "muted")],
                view::playground::WORDS_LOADING.get(l),
            );
            "loading"
        }
    };
    let next = next_lesson_link(l, ls, words.is_some());
    // After the last lesson, the closing card: once its question is answered, for its rules
    // include the answer.
    let open = teach
        .prediction
        .as_ref()
        .is_some_and(|p| p.answer.is_none());
    let end = || {
        if open {
            let mut r = Raw::default();
            r.el(
                "p",
                &[("class", "muted"), ("data-testid", "closing-later")],
                view::playground::CLOSING_AFTER_ANSWER.get(l),
            );
            r.html()
        } else {
            super::closing::closing_card(l)
        }
    };
    html! {
        <section class="lesson card" data-testid="lesson" data-words={state}>
            { head.html() }
            if let (Some(w), Some(pred), Some(s), Some(block)) = (words, &teach.prediction, p.session, p.predict) {
                { block(l, w, pred, s, p.on) }
            }
            if let (Some(original), Some(run)) = (p.original, &p.state.run) {
                { changed_note(l, original, &run.scenario, p.on_change) }
            }
            { reset_lesson(l, ls.id, p.on) }
            { on_the_way(l, ls.id) }
            { next.unwrap_or_else(end) }
        </section>
    }
}

/// The link to the lesson after `ls` (none after the last: the closing card stands there once
/// its question is answered), with
/// the glossary beside it once the words it is made of are here.
fn next_lesson_link(l: Lang, ls: &Lesson, words_ready: bool) -> Option<Html> {
    lessons::next(ls.id).and_then(lessons::lesson).map(|next| {
        let mut r = Raw::default();
        let label = format!(
            "{}{} {} →",
            view::playground::NEXT_LESSON.get(l),
            lessons::number(next.id).unwrap_or_default(),
            Lesson::pick(l, next.title)
        );
        let href = Route::Scenario(next.id.into()).to_hash();
        r.open("p", &[("class", "next-lesson")]).el(
            "a",
            &[("href", &href), ("data-testid", "next-lesson")],
            &label,
        );
        // The glossary, once the words it is made of are here: an item of its own beside the
        // link (no separator to strand at a line's end or start when the line wraps).
        if words_ready {
            r.el(
                "a",
                &[("href", "#/glossary"), ("data-testid", "glossary-link")],
                view::playground::GLOSSARY.get(l),
            );
        }
        r.close("p");
        r.html()
    })
}

/// Fetches the lessons' words of a one-language page (nothing to fetch where the words are
/// built in), then says whether they were read. The first view that asks (a lesson, or the
/// glossary) fetches them and is told; the glossary's link is drawn once they are here.
pub fn load_words(done: Callback<bool>) {
    // Once per page: the first route asks, later ones find them asked for.
    thread_local!(static ASKED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });
    let Some(l) = Lang::BUILT.filter(|_| lessons::LAZY && !ASKED.with(|a| a.replace(true))) else {
        return;
    };
    crate::ui::web::fetch_text(&lessons::words_file(l), move |text| {
        done.emit(text.is_some_and(lessons::load_words));
    });
}

/// "Reset this lesson": the run as built, at step 0, its question asked again.
fn reset_lesson(l: Lang, id: &'static str, on: &Callback<Action>) -> Html {
    use crate::ui::text::view::common as words;
    let on = on.clone();
    let reset = Callback::from(move |_: MouseEvent| {
        if let Some(built) = crate::sim::builtin(id) {
            on.emit(Action::Change(Change::Replace(built), l));
        }
        on.emit(Action::AskAgain);
        on.emit(Action::Control(crate::ui::run::Control::Reset));
    });
    html! {
        <p class="reset-lesson">
            <button data-testid="reset-lesson" title={words::RESET_LESSON_TITLE.get(l)} onclick={reset}>{ words::RESET_LESSON.get(l) }</button>
        </p>
    }
}

/// The pages of their own between this lesson and the next, numbered as the path numbers them
/// (handler-free: one string, `crate::ui::raw`).
fn on_the_way(l: Lang, id: &str) -> Html {
    let pages = lessons::pages_after(id);
    if pages.is_empty() {
        return Html::default();
    }
    let mut r = Raw::default();
    r.open(
        "p",
        &[
            ("class", "next-lesson on-the-way"),
            ("data-testid", "on-the-way"),
        ],
    )
    .text(view::playground::ON_THE_WAY.get(l));
    let mut sep = "";
    for (n, item) in pages {
        if let lessons::Item::Page {
            id,
            href,
            title,
            ready: true,
        } = item
        {
            let label = format!("{n} {} ↗", Lesson::pick(l, *title));
            // One page from the next: a dot between them, tied to the link before it by a
            // no-break space, so a wrapped line never leaves it alone.
            r.text(sep)
                .el("a", &[("href", href), ("data-section", id)], &label);
            sep = "\u{a0}· ";
        }
    }
    r.close("p");
    r.html()
}

/// Why the run on screen is not the lesson as written, and the button that restores it. A run
/// that is the lesson but for its forks says where it was forked; one with other services or an
/// imported scenario says that (and where it was forked too, if it was).
fn changed_note(l: Lang, original: &Scenario, run: &Scenario, on: &Callback<Change>) -> Html {
    let forked = run.branch.first().map(|b| b.at_step);
    let only_forked = forked.is_some() && {
        let mut unforked = run.clone();
        unforked.branch.clear();
        unforked == *original
    };
    let why = view::playground::lesson_changed(l, forked.filter(|_| only_forked));
    let original = original.clone();
    let restore = on.reform(move |_: MouseEvent| Change::Replace(original.clone()));
    html! {
        <p class="notice info" data-testid="lesson-changed" data-forked={forked.is_some().to_string()}>
            { why }{ " " }
            <button data-testid="restore-lesson" onclick={restore}>{ view::playground::RESTORE_LESSON.get(l) }</button>
        </p>
    }
}
