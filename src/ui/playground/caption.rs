//! The caption beside the sticky controls: one line that says what the step just did, in plain
//! words, and a strip with every service's balance and charges, so the narration and a double
//! charge stay in view while stepping, on a phone too.

use yew::prelude::*;

use crate::sim::{EventKind, Session, World};
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view, Tone};

/// The column the caption tells about: the column the lesson's question is about when it acted
/// at this step (so the step an answer cites is told of the service the answer names), else
/// one that broke an invariant, else the timeline's, else any that did something.
fn told(s: &Session, tab: usize, asked: Option<usize>) -> Option<usize> {
    let at = s.position();
    let acted = |w: &World| w.steps_taken() == at && at > 0;
    let broke = |w: &World| w.violations().iter().any(|v| v.step == at);
    let worlds = s.worlds();
    asked
        .filter(|&i| worlds.get(i).is_some_and(acted))
        .or_else(|| worlds.iter().position(broke))
        .or_else(|| worlds.get(tab).filter(|w| acted(w)).map(|_| tab))
        .or_else(|| worlds.iter().position(acted))
}

/// The caption line.
fn caption_line(l: Lang, s: &Session, tab: usize, asked: Option<usize>) -> Html {
    let at = s.position();
    let Some(i) = told(s, tab, asked) else {
        let line = if at == 0 {
            view::playground::NOTHING_YET.get(l).to_string()
        } else {
            view::playground::all_finished(l, at)
        };
        return html! { <p class="caption" data-testid="caption" aria-live="polite">{ line }</p> };
    };
    let w = &s.worlds()[i];
    let col = text::column_name(l, w.config());
    // Each event of the step in turn; what a step means follows the event it explains (a
    // check's "no record: the server goes on to charge" before the crash that ends the step).
    let (mut label, mut bad, mut told) = (String::new(), false, false);
    for (k, e) in w.last_step_events().enumerate() {
        if k > 0 {
            label.push_str(view::common::ITEM_SEP.get(l));
        }
        let (t, tone) = text::event_text(l, w, &e.kind);
        bad |= tone == Tone::Bad;
        label.push_str(&t);
        if let Some(m) = view::playground::step_meaning(l, &e.kind).filter(|_| !told) {
            label.push_str(" — ");
            label.push_str(m);
            told = true;
        }
    }
    let broke = w
        .violations()
        .iter()
        .find(|v| v.step == at)
        .map(|v| text::violation_text(l, w, v));
    html! {
        <p class={classes!("caption", bad.then_some("bad"), broke.is_some().then_some("broke"))} data-testid="caption" aria-live="polite">
            <strong>{ view::playground::caption_head(l, at, &col) }</strong>{ label }
            if let Some(b) = broke { <span class="caption-broke">{ " ✕ " }{ b }</span> }
        </p>
    }
}

/// Every column's balance and charges at the cursor; a column whose invariant broke is marked.
pub fn strip(l: Lang, s: &Session) -> Html {
    let at = s.position();
    let cells = s.worlds().iter().map(|w| {
        let name = text::column_name(l, w.config());
        let n = w.ledger().len();
        let changed = w.steps_taken() == at && w.last_step_events().any(|e| matches!(e.kind, EventKind::Charge { .. } | EventKind::ProcessorCharge { .. } | EventKind::Rollback { .. } | EventKind::Deposit { .. }));
        let failed = !w.violations().is_empty();
        html! {
            <li class={classes!(changed.then_some("changed"), failed.then_some("failed"))} data-service={w.config().service.id()}>
                // The ✕ marks the column (its broken invariant may be about e-mails or events),
                // not its count of charges.
                <span class="strip-name">{ name }{ if failed { " ✕" } else { "" } }</span>
                <b class="strip-balance">{ super::panel::balance_html(l, w) }</b>
                <span class="strip-charges">{ view::playground::strip_charges(l, n) }</span>
            </li>
        }
    });
    html! { <ul class="balance-strip" data-testid="balance-strip" aria-label={view::playground::BALANCES.get(l)}>{ for cells }</ul> }
}

/// The caption and the balance strip.
#[inline(never)]
pub fn caption(l: Lang, s: &Session, tab: usize, asked: Option<usize>) -> Html {
    html! { <div class="caption-bar">{ caption_line(l, s, tab, asked) }{ strip(l, s) }</div> }
}
