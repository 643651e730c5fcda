//! A column's client operations as HTTP on the wire (issue 26): every try of the operations the
//! panel lists, as the request it sent and the response that came back (`World::exchanges`, the
//! words in `ui/text/http.rs`). One collapsible per column, drawn by Yew so it stays open or
//! folded as the learner left it while the run steps; its contents are one string (`ui/raw.rs`).
//! Shown in the sandbox and in the lesson that introduces the header (`lessons::WIRE_LESSONS`).

use yew::prelude::*;

use crate::sim::{ClientResult, Reply, World};
use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::{http, view};

/// The tries of `ops` as requests and responses, in a collapsible opened at first if `open`.
pub fn wire_section<'a>(
    lang: Lang,
    world: &World,
    ops: impl Iterator<Item = &'a ClientResult>,
    open: bool,
) -> Html {
    let mut r = Raw::default();
    for c in ops {
        let n = (c.op.0 + 1).to_string();
        for x in world.exchanges(c.op) {
            let replayed =
                matches!(&x.reply, Reply::Sent { response, .. } if response.is_replayed());
            let mut head = String::from("#");
            head.push_str(&n);
            head.push_str(view::playground::WIRE_TRY.get(lang));
            head.push_str(&x.attempt.to_string());
            if let Some(note) = http::reply_note(lang, &x.reply) {
                head.push_str(view::playground::WIRE_NOTE_SEP.get(lang));
                head.push_str(note);
            }
            r.el("p", &[("class", "muted")], &head);
            let (text, note) = http::exchange_text(lang, &x);
            r.el(
                "pre",
                &[
                    ("data-testid", "wire-try"),
                    ("data-replayed", if replayed { "true" } else { "false" }),
                ],
                &text,
            );
            if let Some(note) = note {
                r.el("p", &[("class", "notice error")], &note);
            }
        }
    }
    html! {
        <details class="wire" data-testid="wire" {open}>
            <summary>{ view::playground::HTTP_ON_THE_WIRE.get(lang) }</summary>
            { r.html() }
        </details>
    }
}

/// "What this model leaves out" for HTTP: the simplifications tests/conformance/http.rs keeps
/// as ignored cases. The first page draws it (`Tools::LESSONS`), below the run.
pub fn leaves_out(lang: Lang) -> Html {
    let mut r = Raw::default();
    r.open(
        "details",
        &[("class", "card leaves-out"), ("data-testid", "leaves-out")],
    )
    .open("summary", &[])
    .el("h3", &[], view::playground::LEAVES_OUT_HEADING.get(lang))
    .close("summary")
    .el(
        "p",
        &[("class", "muted")],
        view::playground::LEAVES_OUT_INTRO.get(lang),
    )
    .open("ul", &[]);
    for words in http::LEAVES_OUT {
        r.el("li", &[], words.get(lang));
    }
    r.close("ul").close("details");
    r.html()
}
