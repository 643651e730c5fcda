//! The lesson path as a table of contents: every section of the article with its lessons (a done
//! mark from this browser's progress), the pages of their own it links to, the sandbox and the
//! challenges (a won mark). A grid on a wide screen, a menu behind one button on a phone.

use yew::prelude::*;

use crate::sim::teach::{CHALLENGE_IDS, LAB_CHALLENGE_IDS};
use crate::ui::app::{href_from, up_from};
use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::route::Route;

use super::teach::{Mark, Progress};
use crate::ui::text::challenges;
use crate::ui::text::lessons::{self, Item, Lesson, PATH};
use crate::ui::text::view;

/// What [`scenario_nav`] draws.
pub struct ScenarioNavProps<'a> {
    /// Page language.
    pub lang: Lang,
    /// The page's folder (`app::page_dir`): every link is relative to it.
    pub dir: &'a str,
    /// Where the page is.
    pub route: &'a Route,
    /// Done and won marks.
    pub progress: &'a Progress,
    /// The list is shown (on a phone it is a menu).
    pub open: bool,
    /// Shows or hides the list.
    pub on_toggle: Callback<()>,
}

fn mark(r: &mut Raw, p: &Progress, l: Lang, id: &str) {
    match p.mark(id) {
        Some(Mark::Done) => r.el(
            "span",
            &[
                ("class", "mark done"),
                ("aria-label", view::playground::MARK_DONE.get(l)),
            ],
            "✓",
        ),
        Some(Mark::Won) => r.el(
            "span",
            &[
                ("class", "mark won"),
                ("aria-label", view::playground::MARK_WON.get(l)),
            ],
            "★",
        ),
        None => r.el("span", &[("class", "mark"), ("aria-hidden", "true")], "○"),
    };
}

/// One link of the list, with its mark; the page's own is marked as current.
fn link(r: &mut Raw, p: &Progress, l: Lang, href: &str, id: &str, label: Label, here: bool) {
    let current = if here {
        ("aria-current", "page")
    } else {
        ("", "")
    };
    let class = if here { "active" } else { "" };
    r.open("li", &[]).open(
        "a",
        &[
            ("href", href),
            ("data-section", id),
            ("class", class),
            current,
        ],
    );
    mark(r, p, l, id);
    let (num, title) = label;
    if !num.is_empty() {
        // Its own box, so "1 1つの…" never reads as "11つの…".
        r.el("span", &[("class", "num")], num).text(" ");
    }
    r.text(title).close("a").close("li");
}

/// A link's words: its number on the path ("" for none) and its title.
type Label<'a> = (&'a str, &'a str);

/// The list itself: static links, so it is written as one string (see `crate::ui::raw`).
fn list(l: Lang, dir: &str, route: &Route, p: &Progress) -> Html {
    let mut r = Raw::default();
    r.open("ol", &[("class", "toc-sections")]);
    for (n, s) in PATH.iter().enumerate() {
        r.open("li", &[("class", "toc-section")]);
        r.el(
            "span",
            &[("class", "toc-h")],
            &format!("{}. {}", n + 1, Lesson::pick(l, s.title)),
        );
        r.open("ul", &[]);
        for item in s.items {
            path_item(&mut r, l, dir, route, p, item);
        }
        r.close("ul").close("li");
    }
    r.close("ol");
    extra_links(&mut r, l, dir, route, p);
    r.html()
}

/// One item of a section of the lesson path: a lesson, or a page of its own (a link, or its
/// title if it is not built yet).
fn path_item(r: &mut Raw, l: Lang, dir: &str, route: &Route, p: &Progress, item: &Item) {
    match item {
        Item::Lesson(id) => {
            let title = lessons::lesson(id).map_or(*id, |ls| Lesson::pick(l, ls.title));
            let num = lessons::number(id).unwrap_or_default();
            let here = Route::Scenario((*id).into());
            link(
                r,
                p,
                l,
                &href_from(dir, &here),
                id,
                (&num, title),
                here == *route,
            );
        }
        Item::Page {
            id,
            href,
            title,
            ready: true,
        } => {
            let to = format!("{}{href}", up_from(dir));
            r.open("li", &[]).open(
                "a",
                &[("href", &to), ("data-section", id), ("class", "page-link")],
            );
            r.text(Lesson::pick(l, *title))
                .text(" ↗")
                .close("a")
                .close("li");
        }
        Item::Page { id, title, .. } => {
            let t = format!(
                "{}{}",
                Lesson::pick(l, *title),
                view::playground::NOT_BUILT_YET.get(l)
            );
            r.el("li", &[("class", "muted"), ("data-section", id)], &t);
        }
    }
}

/// After the path: the challenges (the lab's open its page) and the sandbox.
fn extra_links(r: &mut Raw, l: Lang, dir: &str, route: &Route, p: &Progress) {
    let href = |to: &Route| href_from(dir, to);
    r.open("div", &[("class", "toc-extra")]);
    r.el(
        "span",
        &[("class", "toc-h")],
        view::playground::CHALLENGES.get(l),
    )
    .open("ul", &[]);
    for id in CHALLENGE_IDS {
        let here = Route::Challenge(id.into());
        link(
            r,
            p,
            l,
            &href(&here),
            id,
            ("", challenges::title(l, id)),
            here == *route,
        );
    }
    for id in LAB_CHALLENGE_IDS {
        link(
            r,
            p,
            l,
            &href(&Route::LabChallenge(id.into())),
            id,
            ("", &format!("{} ↗", challenges::title(l, id))),
            false,
        );
    }
    let sandbox = view::playground::SANDBOX_LINK.get(l);
    link(
        r,
        p,
        l,
        &href(&Route::Sandbox),
        "sandbox",
        ("", sandbox),
        *route == Route::Sandbox,
    );
    r.close("ul").close("div");
}

/// The sandbox card's list of challenges (the lab's open its page), shown at once, not behind
/// the table of contents' button. Only the sandbox page's `Tools` names it.
pub fn challenge_list(l: Lang, p: &Progress) -> Html {
    let dir = crate::ui::app::page_dir(&Route::Sandbox);
    let mut r = Raw::default();
    r.el(
        "h3",
        &[("id", "ch-list-h")],
        view::playground::CHALLENGES.get(l),
    )
    .open(
        "ul",
        &[
            ("class", "challenge-list"),
            ("data-testid", "challenge-list"),
            ("aria-labelledby", "ch-list-h"),
        ],
    );
    for id in CHALLENGE_IDS {
        let href = href_from(dir, &Route::Challenge(id.into()));
        link(
            &mut r,
            p,
            l,
            &href,
            id,
            ("", challenges::title(l, id)),
            false,
        );
    }
    for id in LAB_CHALLENGE_IDS {
        let href = href_from(dir, &Route::LabChallenge(id.into()));
        let title = format!("{} ↗", challenges::title(l, id));
        link(&mut r, p, l, &href, id, ("", &title), false);
    }
    r.close("ul");
    r.html()
}

/// The table of contents.
pub fn scenario_nav(p: &ScenarioNavProps) -> Html {
    let l = p.lang;
    let ids = crate::sim::builtin_ids();
    let (total, done) = (
        ids.len(),
        ids.iter()
            .filter(|id| p.progress.mark(id).is_some())
            .count(),
    );
    let all = || CHALLENGE_IDS.iter().chain(LAB_CHALLENGE_IDS.iter());
    let (challenges_total, won) = (
        all().count(),
        all()
            .filter(|id| p.progress.mark(id) == Some(Mark::Won))
            .count(),
    );
    let toggle = p.on_toggle.reform(|_: MouseEvent| ());
    html! {
        <nav class="lesson-toc" data-testid="lesson-toc" aria-label={view::playground::LESSONS.get(l)}>
            <button class="toc-toggle" onclick={toggle} aria-expanded={p.open.to_string()} aria-controls="toc-body" data-testid="toc-toggle">
                { if p.open { "▾ " } else { "▸ " } }
                { view::playground::toc_summary(l, done, total, won, challenges_total) }
            </button>
            <div id="toc-body" class="toc-body" hidden={!p.open}>{ list(l, p.dir, p.route, p.progress) }</div>
        </nav>
    }
}
