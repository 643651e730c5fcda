//! The lesson path as a table of contents: every section of the article with its lessons (a done
//! mark from this browser's progress), the pages of their own it links to, the sandbox and the
//! challenges (a won mark). A grid on a wide screen, a menu behind one button on a phone.

use yew::prelude::*;

use crate::sim::lesson::{CHALLENGE_IDS, LAB_CHALLENGE_IDS};
use crate::ui::app::{href_from, up_from};
use crate::ui::i18n::{tr, Lang};
use crate::ui::raw::Raw;
use crate::ui::route::Route;

use super::teach::{Mark, Progress};
use crate::ui::text::challenges;
use crate::ui::text::lessons::{self, Item, Lesson, PATH};

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
            &[("class", "mark done"), ("aria-label", l.t("done", "済み"))],
            "✓",
        ),
        Some(Mark::Won) => r.el(
            "span",
            &[("class", "mark won"), ("aria-label", l.t("won", "達成"))],
            "★",
        ),
        None => r.el("span", &[("class", "mark"), ("aria-hidden", "true")], "○"),
    };
}

/// One link of the list, with its mark; the page's own is marked as current.
fn link(r: &mut Raw, p: &Progress, l: Lang, href: &str, id: &str, label: &str, here: bool) {
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
    r.text(label).close("a").close("li");
}

/// The list itself: static links, so it is written as one string (see `crate::ui::raw`).
fn list(l: Lang, dir: &str, route: &Route, p: &Progress) -> Html {
    let href = |to: &Route| href_from(dir, to);
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
            match item {
                Item::Lesson(id) => {
                    let title = lessons::lesson(id).map_or(*id, |ls| Lesson::pick(l, ls.title));
                    let num = lessons::number(id).unwrap_or_default();
                    let here = Route::Scenario((*id).into());
                    link(
                        &mut r,
                        p,
                        l,
                        &href(&here),
                        id,
                        &format!("{num} {title}"),
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
                        l.t(" (not built yet)", "（未完成）")
                    );
                    r.el("li", &[("class", "muted"), ("data-section", id)], &t);
                }
            }
        }
        r.close("ul").close("li");
    }
    r.close("ol").open("div", &[("class", "toc-extra")]);
    r.el(
        "span",
        &[("class", "toc-h")],
        l.t("Challenges", "チャレンジ"),
    )
    .open("ul", &[]);
    for id in CHALLENGE_IDS {
        let here = Route::Challenge(id.into());
        link(
            &mut r,
            p,
            l,
            &href(&here),
            id,
            challenges::title(l, id),
            here == *route,
        );
    }
    for id in LAB_CHALLENGE_IDS {
        link(
            &mut r,
            p,
            l,
            &href(&Route::LabChallenge(id.into())),
            id,
            &format!("{} ↗", challenges::title(l, id)),
            false,
        );
    }
    let sandbox = l.t("Sandbox: anything you like", "サンドボックス：自由に");
    link(
        &mut r,
        p,
        l,
        &href(&Route::Sandbox),
        "sandbox",
        sandbox,
        *route == Route::Sandbox,
    );
    r.close("ul").close("div");
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
        all().filter(|id| p.progress.mark(id).is_some()).count(),
    );
    let toggle = p.on_toggle.reform(|_: MouseEvent| ());
    html! {
        <nav class="lesson-toc" data-testid="lesson-toc" aria-label={l.t("Lessons", "レッスン")}>
            <button class="toc-toggle" onclick={toggle} aria-expanded={p.open.to_string()} aria-controls="toc-body" data-testid="toc-toggle">
                { if p.open { "▾ " } else { "▸ " } }
                { tr!(l, "Lessons: {done} of {total} done · challenges: {won} of {challenges_total} won", "レッスン：{total} 中 {done} 完了・チャレンジ：{challenges_total} 中 {won} 達成") }
            </button>
            <div id="toc-body" class="toc-body" hidden={!p.open}>{ list(l, p.dir, p.route, p.progress) }</div>
        </nav>
    }
}
