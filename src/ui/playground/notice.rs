//! The message above the run, with a button that closes it.

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::text::view;

use super::state::Notice;

/// What [`notice_bar`] draws.
#[derive(PartialEq)]
pub struct NoticeBarProps {
    /// Page language.
    pub lang: Lang,
    /// The message.
    pub notice: Notice,
    /// Closes it.
    pub on_dismiss: Callback<()>,
}

/// An error (an alert) or a confirmation (a status).
pub fn notice_bar(p: &NoticeBarProps) -> Html {
    let l = p.lang;
    let (class, text) = match &p.notice {
        Notice::Error(t) => ("notice error", t.clone()),
        Notice::Info(t) => ("notice info", t.clone()),
    };
    let dismiss = p.on_dismiss.reform(|_: MouseEvent| ());
    html! { <div class={class} role={if class.contains("error") { "alert" } else { "status" }} data-testid="notice">
        { text }{ " " }<button onclick={dismiss} aria-label={view::playground::DISMISS_MESSAGE.get(l)}>{ "×" }</button>
    </div> }
}
