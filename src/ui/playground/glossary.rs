//! The glossary (issue 28), drawn by the first page at `#/glossary` (every term) and
//! `#/glossary/<id>` (one): each term with what it means, where the site shows it running and
//! the lesson that first uses it. A one-language page reads them from the words file as the
//! lessons do (`intro::load_words`); until then it says the words are loading.

use std::cell::Cell;

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::lessons;
use crate::ui::text::view::playground as words;

thread_local! {
    /// The words file could not be read (the glossary asked for it first).
    static FAILED: Cell<bool> = const { Cell::new(false) };
}

/// The glossary page: the whole glossary at `#/glossary`, one entry at `#/glossary/<id>`
/// (`term`), where a term's first use in a lesson links (short: it is in view as it opens). A
/// view function, not a component (a component's code would not fit the first page's budget):
/// where the words are still to be read it asks for them and, once they are here, has the route
/// drawn again (`web::redraw_route`).
pub fn glossary_page(l: Lang, term: &str) -> Html {
    let (state, note) = if lessons::ready() {
        ("ready", "")
    } else if FAILED.with(Cell::get) {
        ("failed", words::WORDS_FAILED.get(l))
    } else {
        super::intro::load_words(Callback::from(|ok: bool| {
            FAILED.with(|f| f.set(!ok));
            crate::ui::web::redraw_route();
        }));
        ("loading", words::WORDS_LOADING.get(l))
    };
    let key = if term.is_empty() { "glossary" } else { term };
    // Its heading, then its entries as the words file holds them (markup written by
    // `text::glossary` with `crate::ui::raw`, every word escaped), or what keeps them away.
    let mut r = Raw::default();
    r.open(
        "section",
        &[
            ("class", "card glossary"),
            ("data-testid", "glossary"),
            ("data-words", state),
        ],
    )
    .el("h2", &[], words::GLOSSARY.get(l))
    .el("p", &[("class", "muted")], note)
    .trusted(lessons::text(l, key))
    .close("section");
    r.html()
}
