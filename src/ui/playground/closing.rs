//! The closing card, after the last lesson (issue 28): the rules the path taught (every lesson's
//! takeaway, numbered and linked), the production recipes this project verified, exactly as they
//! ran (`text::recipes`: the safe SQL variants measured on PostgreSQL, the Kafka producer's
//! settings, the durable step's key, each linked to the page that shows it), and where to go on.
//! It prints on one page (`@media print` in app.css), the recipes open.

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::route::Route;
use crate::ui::text::lessons::{self, Lesson};
use crate::ui::text::view;

/// The closing card: handler-free markup (`crate::ui::raw`) but for its print button.
pub fn closing_card(l: Lang) -> Html {
    use view::playground as w;
    let mut r = Raw::default();
    r.el("h3", &[], w::CLOSING_HEADING.get(l))
        .el("p", &[("class", "muted")], w::CLOSING_INTRO.get(l))
        .open("ol", &[("class", "rules")]);
    for (n, ls, takeaway) in lessons::takeaways() {
        let href = Route::Scenario(ls.id.into()).to_hash();
        r.open("li", &[]).el("a", &[("href", &href)], &n);
        r.text(" ").text(Lesson::pick(l, takeaway)).close("li");
    }
    // The recipes: markup the words file holds (`text::recipes::markup`, every word escaped).
    r.close("ol").trusted(lessons::text(l, "recipes"));
    r.el("h3", &[("class", "onward")], w::CLOSING_ONWARD.get(l))
        .open("ul", &[("class", "onward")]);
    let links = [
        (
            "sandbox/#/challenge/triple-charge",
            w::CLOSING_CHALLENGES.get(l),
        ),
        ("lab/#/lab", w::CLOSING_LAB.get(l)),
        ("durable/", w::CLOSING_DURABLE.get(l)),
        ("kafka/", w::CLOSING_KAFKA.get(l)),
        ("#/glossary", w::GLOSSARY.get(l)),
    ];
    for (href, words) in links {
        r.open("li", &[])
            .el("a", &[("href", href)], words)
            .close("li");
    }
    r.close("ul");
    let print = Callback::from(|_: MouseEvent| crate::ui::web::print());
    html! {
        <div class="closing" data-testid="closing">
            { r.html() }
            <button class="print" data-testid="print-closing" onclick={print}>{ w::CLOSING_PRINT.get(l) }</button>
        </div>
    }
}
