//! The timeline section: a tab per service and the selected service's sequence diagram, drawn for
//! a window of events around the current step.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::Session;
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view};

use super::timeline::{self, Timeline, TimelineRow};

/// Where the timeline is: which service's, and the page the learner paged to (`None`: around
/// the current step); `tabs` (`column_tabs`), `on_page` and `on_jump` change them or move the run.
pub struct TimelineView<'a> {
    /// Which service's timeline.
    pub tab: usize,
    /// The first event of the page shown, when paged.
    pub page: Option<usize>,
    /// Whether the steps ahead may be drawn (not while a question waits).
    pub reveal: bool,
    /// The tabs that pick the service (`column_tabs`, drawn once for this and the phone switcher).
    pub tabs: &'a Html,
    /// Shows another page of events.
    pub on_page: &'a Callback<Option<usize>>,
    /// Moves the run to a step.
    pub on_jump: &'a Callback<usize>,
}

/// The timeline heading, its service tabs and the timeline of the chosen service.
pub fn timeline_section(l: Lang, s: &Session, v: &TimelineView<'_>) -> Html {
    html! {
        <section aria-labelledby="tl-h">
            <h2 id="tl-h">{ view::playground::TIMELINE.get(l) }</h2>
            { v.tabs.clone() }
            { timeline_for(l, s, v) }
        </section>
    }
}

/// A button per column of `s`, the one at `tab` pressed; a press goes to `on_tab`. Drawn once
/// and shown twice: as the timeline's tabs and, on a phone, as the switcher above the services
/// (one node, so the first page and the sandbox, near their weight budgets, carry its code
/// once): both choose the column the caption and the timeline follow.
pub fn column_tabs(l: Lang, s: &Session, tab: usize, on_tab: &Callback<usize>) -> Html {
    html! {
        <div class="tabs" role="group" aria-label={view::playground::SERVICE_TABS.get(l)}>
            { for s.worlds().iter().enumerate().map(|(i, w)| {
                let on_tab = on_tab.clone();
                let pressed = if i == tab { "true" } else { "false" };
                html! { <button aria-pressed={pressed} onclick={Callback::from(move |_| on_tab.emit(i))}>
                    { text::column_name(l, w.config()) }</button> }
            }) }
        </div>
    }
}

/// Localized timeline rows for trace events.
pub fn timeline_rows<'a>(
    lang: Lang,
    world: &crate::sim::World,
    events: impl IntoIterator<Item = &'a crate::sim::TraceEvent>,
) -> Vec<TimelineRow> {
    events
        .into_iter()
        .map(|e| {
            let (from, to) = e.lanes();
            let (label, tone) = text::event_text(lang, world, &e.kind);
            // The evidence of a broken invariant is drawn as the failure its badge names, even
            // when the event is usually good news (a replay that differs from the first answer).
            let broken = world.violations().iter().any(|v| v.is_evidence(e))
                || matches!(e.kind, crate::sim::EventKind::Charge { op, .. } if world.is_repeat_charge(e.step, op));
            let tone = if broken { text::Tone::Bad } else { tone };
            TimelineRow {
                step: e.step,
                time_ms: e.time_ms,
                from: from as usize,
                to: to.map(|l| l as usize),
                lost: e.is_lost(),
                label,
                tone,
                replayed: match e.kind {
                    crate::sim::EventKind::ResponseDelivered { replayed, .. } => Some(replayed),
                    _ => None,
                },
            }
        })
        .collect()
}

/// The selected world's timeline. Rows come from the finished run's trace, so the steps ahead
/// show dimmed; only the window shown (around the current step, or the page the learner paged
/// to) is localized and drawn.
fn timeline_for(l: Lang, s: &Session, v: &TimelineView<'_>) -> Html {
    let Some(full) = s.finished(v.tab) else {
        return html! {};
    };
    let whole = full.trace();
    // The trace up to the cursor only, while the future must stay hidden.
    let shown = if v.reveal {
        whole.len()
    } else {
        whole.partition_point(|e| e.step <= s.position())
    };
    let trace = whole;
    // A binary search: the trace holds tens of thousands of events on long runs.
    let at = trace.partition_point(|e| e.step < s.position().max(1));
    let at = at.min(shown);
    let current = timeline::window_start(shown, at);
    let first = v
        .page
        .map_or(current, |p| p.min(shown.saturating_sub(timeline::WINDOW)));
    let end = (first + timeline::WINDOW).min(shown);
    let rows = Rc::new(timeline_rows(l, full, trace.range(first..end)));
    let (prev_page, next_page) = timeline::neighbour_pages(shown, first);
    let paged = !(first..end).contains(&at) && first != current;
    html! { <Timeline lang={l} rows={rows} first={first} total_rows={shown} prev_page={prev_page} next_page={next_page}
    paged={paged} on_page={v.on_page.clone()} current={s.position()} lanes={full.lanes_used()} on_jump={v.on_jump.clone()} /> }
}
