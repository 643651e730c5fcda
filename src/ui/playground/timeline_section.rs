//! The timeline section: a tab per service and the selected service's sequence diagram, drawn for
//! a window of events around the current step.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::Session;
use crate::ui::i18n::Lang;
use crate::ui::text;

use super::timeline::{self, Timeline, TimelineRow};

/// The timeline heading, its service tabs (`on_tab` picks one) and the timeline of service `tab`.
pub fn timeline_section(
    l: Lang,
    s: &Session,
    tab: usize,
    on_tab: &Callback<usize>,
    on_jump: &Callback<usize>,
) -> Html {
    html! {
        <section aria-labelledby="tl-h">
            <h2 id="tl-h">{ l.t("Timeline", "タイムライン") }</h2>
            <div class="tabs" role="group" aria-label={l.t("Timeline of which service", "どのサービスのタイムラインか")}>
                { for s.worlds().iter().enumerate().map(|(i, w)| {
                    let on_tab = on_tab.clone();
                    html! { <button aria-pressed={(i == tab).to_string()} onclick={Callback::from(move |_| on_tab.emit(i))}>
                        { text::column_name(l, w.config()) }</button> }
                }) }
            </div>
            { timeline_for(l, s, tab, on_jump) }
        </section>
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
            let broken = world.violations().iter().any(|v| v.is_evidence(e));
            let tone = if broken { text::Tone::Bad } else { tone };
            TimelineRow {
                step: e.step,
                time_ms: e.time_ms,
                from: from as usize,
                to: to.map(|l| l as usize),
                lost: e.is_lost(),
                label,
                tone,
            }
        })
        .collect()
}

/// The selected world's timeline. Rows come from the finished run's trace, so the steps ahead
/// show dimmed; only the window around the current step is localized and drawn.
fn timeline_for(l: Lang, s: &Session, tab: usize, on_jump: &Callback<usize>) -> Html {
    let Some(full) = s.finished(tab) else {
        return html! {};
    };
    let trace = full.trace();
    // A binary search: the trace holds tens of thousands of events on long runs.
    let at = trace.partition_point(|e| e.step < s.position().max(1));
    let first = timeline::window_start(trace.len(), at);
    let end = (first + timeline::WINDOW).min(trace.len());
    let rows = Rc::new(timeline_rows(l, full, trace.range(first..end)));
    let prev_step = (first > 0).then(|| trace[first.saturating_sub(timeline::WINDOW)].step);
    let next_step = (end < trace.len()).then(|| trace[end].step);
    html! { <Timeline lang={l} rows={rows} first={first} total_rows={trace.len()} prev_step={prev_step} next_step={next_step}
    current={s.position()} lanes={full.lanes_used()} on_jump={on_jump.clone()} /> }
}
