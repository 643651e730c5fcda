//! The open question of a lesson, as every page with lessons draws it (the playground, the
//! durable-execution page, the Kafka page): the question, its choices and Skip, and a hint of
//! where the run waits. Each page computes the choices and the hint from its own core; the markup
//! and hooks (`[data-testid=predict][data-state=open]`, `button[data-choice]`, `predict-skip`)
//! are this one view's; so is a won challenge's debrief ([`debrief`]), on every page with
//! challenges.

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::view::common as words;

/// "Answer now, or step on …" while the run is before `ask_at`, else "The run waits here …".
pub fn wait_hint(l: Lang, cursor: usize, ask_at: usize) -> String {
    if cursor < ask_at {
        words::answer_or_step_on(l, ask_at)
    } else {
        words::WAITS_HERE.get(l).to_string()
    }
}

/// The open question: `ask` after `label`, one button per choice (its label; `answer(i)` when
/// pressed), Skip when there is `skip`, and `hint`; `testid` names the block (`predict`, or
/// `transfer` for a lesson's variation question).
pub struct Open<'a> {
    /// `predict` or `transfer`.
    pub testid: &'static str,
    /// Before the question ("Predict: ").
    pub label: &'static str,
    /// The question.
    pub ask: &'a str,
    /// Pressed choice `i`.
    pub answer: Callback<usize>,
    /// Skip, where the question may be skipped.
    pub skip: Option<Callback<MouseEvent>>,
    /// Where the run waits, if it does.
    pub hint: &'a str,
}

/// Draws an [`Open`] question with one button per label.
pub fn open_question(l: Lang, q: Open<'_>, labels: impl Iterator<Item = String>) -> Html {
    let answer = q.answer;
    // Once answered, focus goes to the verdict that replaces the choices.
    let verdict = if q.testid == "transfer" {
        "[data-testid=transfer] .verdict"
    } else {
        "[data-testid=predict] .verdict"
    };
    let choices = labels.enumerate().map(|(i, label)| {
        let answer = answer.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            answer.emit(i);
            crate::ui::web::focus_after_render(verdict);
        });
        html! { <button class="choice" data-choice={i.to_string()} {onclick}>{ label }</button> }
    });
    html! {
        <div class="predict" data-testid={q.testid} data-state="open" role="group" aria-label={words::PREDICT.get(l)}>
            <p class="ask"><strong>{ q.label }</strong>{ q.ask.to_string() }</p>
            <div class="choices">{ for choices }
                if let Some(skip) = q.skip {
                    <button class="skip" data-testid="predict-skip" onclick={skip}>{ words::SKIP.get(l) }</button>
                }
            </div>
            if !q.hint.is_empty() { <p class="muted hint">{ q.hint.to_string() }</p> }
        </div>
    }
}

/// One choice of an answered question, as [`beliefs`] lists it: its label, the wrong belief it
/// stands for (`None` for the right one), and whether the learner picked it.
pub struct Held {
    /// The choice as the buttons showed it.
    pub label: String,
    /// The misconception that predicts this choice, in words; `None` for the right choice.
    pub belief: Option<String>,
    /// The learner's pick.
    pub picked: bool,
}

/// Each of `choices` as [`beliefs`] lists it: `label`'s words for it, the words of the belief
/// behind it (`belief` of `held[i]`, `None` where no belief's model gives it; none for the right
/// one, `right`), and whether it is `picked`: how the durable and Kafka pages list theirs.
pub fn held<'a, C, B: Copy>(
    choices: &'a [C],
    right: usize,
    picked: Option<usize>,
    held: &'a [Option<B>],
    label: impl Fn(&C) -> String + 'a,
    belief: impl Fn(Option<B>) -> String + 'a,
) -> impl Iterator<Item = Held> + 'a {
    choices.iter().enumerate().map(move |(i, c)| Held {
        label: label(c),
        belief: (i != right).then(|| belief(held.get(i).copied().flatten())),
        picked: picked == Some(i),
    })
}

/// After the answer: every choice with the belief that predicts it, the learner's own pick
/// marked, so a wrong answer is named and each wrong choice is shown to be one; `varied` for a
/// variation's, whose run is not on the page until loaded. Handler-free: one string
/// (`crate::ui::raw`).
pub fn beliefs(l: Lang, choices: impl Iterator<Item = Held>, varied: bool) -> Html {
    let right = if varied {
        words::WHAT_THIS_CASE_SHOWS
    } else {
        words::WHAT_THE_RUN_SHOWS
    };
    let mut r = crate::ui::raw::Raw::default();
    r.open("div", &[("class", "beliefs"), ("data-testid", "beliefs")])
        .el("span", &[("class", "muted")], words::EACH_CHOICE.get(l))
        .open("ul", &[]);
    for h in choices {
        let class = match (h.belief.is_none(), h.picked) {
            (true, true) => "right picked",
            (true, false) => "right",
            (false, true) => "picked",
            (false, false) => "",
        };
        let picked = if h.picked { "true" } else { "false" };
        r.open(
            "li",
            &[
                ("class", class),
                ("data-testid", "belief"),
                ("data-picked", picked),
            ],
        )
        .el("strong", &[], &h.label)
        .text(words::BELIEF_SEP.get(l))
        .text(h.belief.as_deref().unwrap_or(right.get(l)));
        if h.picked {
            r.el("span", &[("class", "muted")], words::YOUR_PICK.get(l));
        }
        r.close("li");
    }
    r.close("ul").close("div");
    r.html()
}

/// "Next: <label> →" at the end of a lesson, to `href` (the next lesson on the page, or the path
/// beyond the page after its last lesson); the page moves focus from it to the next lesson's
/// heading ([`use_focus_after_next`]).
pub fn next_link(l: Lang, href: &str, label: &str) -> Html {
    let mut r = Raw::default();
    let label = format!(
        "{}{label} →",
        crate::ui::text::view::playground::NEXT_LESSON.get(l)
    );
    r.open("p", &[("class", "next-lesson")])
        .el(
            "a",
            &[("href", href), ("data-testid", "next-lesson")],
            &label,
        )
        .close("p");
    r.html()
}

/// After "Next" opened another lesson of a page of its own: focus on the new lesson's heading,
/// so a second Enter does not skip one (the link stays where it was and names the lesson after).
#[hook]
pub fn use_focus_after_next(route: String) {
    use_effect_with(route, |_| {
        crate::ui::web::move_focus("[data-testid=next-lesson]", ".lesson h2");
    });
}

/// A challenge's debrief, once it is won or its solution is open: why the moves work, the
/// invariants the run broke by the cursor (each with the step that broke it, named by the page's
/// own words) and the real failure it mirrors. No handlers: one string of markup
/// (`crate::ui::raw`), so it costs each page's wasm little.
pub fn debrief(l: Lang, why: &str, broken: &[(&str, usize)], mirrors: &str) -> Html {
    use crate::ui::text::view::playground as w;
    let mut r = Raw::default();
    r.open(
        "section",
        &[
            ("class", "debrief"),
            ("data-testid", "debrief"),
            ("aria-labelledby", "debrief-h"),
        ],
    )
    .el("h3", &[("id", "debrief-h")], w::DEBRIEF.get(l))
    .open("dl", &[])
    .el("dt", &[], w::DEBRIEF_WHY.get(l))
    .el("dd", &[("data-testid", "debrief-why")], why)
    .el("dt", &[], w::DEBRIEF_BROKE.get(l))
    .open("dd", &[("data-testid", "debrief-broken")]);
    if broken.is_empty() {
        r.text(w::DEBRIEF_NONE_BROKEN.get(l));
    } else {
        r.open("ul", &[]);
        for &(name, step) in broken {
            r.el("li", &[], &w::broken_at(l, name, step));
        }
        r.close("ul");
    }
    r.close("dd")
        .el("dt", &[], w::DEBRIEF_MIRRORS.get(l))
        .el("dd", &[("data-testid", "debrief-mirrors")], mirrors)
        .close("dl")
        .close("section");
    r.html()
}
