//! The sequence diagram: one column per lane that has events (client, network, server, store,
//! relay, consumer), one row per trace event. A message is an arrow between lanes; a lost one
//! stops half-way with a cross. Only a window of rows is drawn, so a 10,000-event trace costs the
//! same to render as a 40-event one; the diagram is as wide as its labels, so none is cut.

use yew::prelude::*;

use crate::sim::{Lane, LaneSet};
use crate::ui::i18n::Lang;
use crate::ui::text::events::LANE_NAMES;
use crate::ui::text::view;
pub use crate::ui::text::{fmt_ms, Tone};

/// One drawn row, already localized.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineRow {
    /// Global step number of this event (1-based: the state after it is step `step`).
    pub step: usize,
    /// Simulated time in ms.
    pub time_ms: u64,
    /// Lane the event starts from.
    pub from: usize,
    /// Lane an arrow goes to, if it is a message.
    pub to: Option<usize>,
    /// The message never arrives.
    pub lost: bool,
    /// Localized description.
    pub label: String,
    /// Emphasis.
    pub tone: Tone,
    /// For a reply reaching a client: whether the server replayed it (`data-replayed`).
    pub replayed: Option<bool>,
}

/// Rows drawn at once.
pub const WINDOW: usize = 40;

/// Props of the timeline.
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// Page language.
    pub lang: Lang,
    /// The window of rows to draw (at most `WINDOW`), from the selected service's full trace.
    pub rows: std::rc::Rc<Vec<TimelineRow>>,
    /// Index in the full trace of the first drawn row.
    pub first: usize,
    /// Events in the full trace.
    pub total_rows: usize,
    /// The first event of the previous page of events, if any.
    pub prev_page: Option<usize>,
    /// The first event of the next page of events, if any.
    pub next_page: Option<usize>,
    /// The learner paged away from the current step's events (a button brings them back).
    pub paged: bool,
    /// Show another page of events (`None`: the current step's); the run does not move.
    pub on_page: Callback<Option<usize>>,
    /// The current step (number of events applied).
    pub current: usize,
    /// The lanes the whole trace has events on: only these are drawn.
    pub lanes: LaneSet,
    /// Jump to a step.
    pub on_jump: Callback<usize>,
}

// Whole SVG user units: integer coordinates keep float formatting out of the page's wasm.
const ROW_H: i64 = 26;
/// Narrow enough that the client, network and server lanes fit a 390 px phone.
const LANE_W: i64 = 96;
const LEFT: i64 = 64;
const TOP: i64 = 34;
/// Gap between a mark and its label, and at the diagram's right edge.
const PAD: i64 = 10;

/// About how wide a label is drawn at the timeline's 11 px (bold for a failure), in user units:
/// an ASCII character about 0.7 em, a wide one (Japanese, arrows, marks) a full em and a bit. An
/// overestimate leaves blank room at the right; an underestimate would cut the label.
pub fn label_width(text: &str) -> i64 {
    let tenths: i64 = text
        .chars()
        .map(|c| if c.is_ascii() { 78 } else { 120 })
        .sum();
    tenths / 10 + 1
}

/// The drawn columns: the lanes in `lanes`, in lane order, and for each lane its column.
fn columns(lanes: LaneSet) -> (Vec<usize>, [usize; Lane::ALL.len()]) {
    let mut drawn = Vec::new();
    let mut col = [0; Lane::ALL.len()];
    for lane in Lane::ALL {
        if lanes.contains(lane) {
            col[lane as usize] = drawn.len();
            drawn.push(lane as usize);
        }
    }
    (drawn, col)
}

/// The text mark before a label: a failure or a good outcome is never told by colour alone.
fn mark(tone: Tone) -> &'static str {
    match tone {
        Tone::Bad => "✕ ",
        Tone::Good => "✓ ",
        Tone::Plain => "",
    }
}

fn col_x(col: usize) -> i64 {
    LEFT + LANE_W * col as i64 + LANE_W / 2
}

/// The first row of the window that shows the current step, in a trace of `len` events whose
/// current step starts at event `at` (several events can share a step).
pub fn window_start(len: usize, at: usize) -> usize {
    if len <= WINDOW {
        return 0;
    }
    (at / WINDOW * WINDOW).min(len - WINDOW)
}

/// The pages before and after the window that starts at event `first`, in a trace of `len`
/// events: the first event of each, on the same `WINDOW` boundaries the current step's window
/// uses (the last page ends with the last event).
pub fn neighbour_pages(len: usize, first: usize) -> (Option<usize>, Option<usize>) {
    let prev = (first > 0).then(|| (first - 1) / WINDOW * WINDOW);
    let next = (first + WINDOW < len).then(|| (first / WINDOW * WINDOW + WINDOW).min(len - WINDOW));
    (prev, next)
}

/// Where lane `lane` is drawn, given each lane's column (`columns`).
fn lane_x(col: &[usize; Lane::ALL.len()], lane: usize) -> i64 {
    col_x(col[lane.min(Lane::ALL.len() - 1)])
}

/// Each label of `rows`: where it starts, its anchor, and how far right it reaches. Arrows are
/// labelled from their left end; a mark on one of the last two of the `drawn` columns is
/// labelled to its left when the label fits there, else to its right.
fn place_labels(
    rows: &[TimelineRow],
    col: &[usize; Lane::ALL.len()],
    drawn: usize,
) -> Vec<(i64, &'static str, i64)> {
    rows.iter()
        .map(|row| {
            let w = label_width(mark(row.tone)) + label_width(&row.label);
            let x1 = lane_x(col, row.from);
            match row.to {
                Some(to) if to != row.from => {
                    let x = x1.min(lane_x(col, to)) + PAD;
                    (x, "start", x + w)
                }
                _ if col[row.from.min(Lane::ALL.len() - 1)] + 2 >= drawn
                    && x1 - PAD - w >= LEFT =>
                {
                    (x1 - PAD, "end", x1)
                }
                _ => (x1 + PAD, "start", x1 + PAD + w),
            }
        })
        .collect()
}

/// How far right and left a placed label reaches (its start, its anchor, its right end).
fn label_span((row, p): (&TimelineRow, &(i64, &'static str, i64))) -> (i64, i64) {
    let w = label_width(mark(row.tone)) + label_width(&row.label);
    if p.1 == "end" {
        (p.0 - w, p.0)
    } else {
        (p.0, p.0 + w)
    }
}

/// Where a diagram is wider than its box (a phone), scrolls the box sideways so that `span`
/// (the current step's label) is in view, past the step column that stays at its left. Only a
/// new span moves it: a learner's own sideways scroll stays until the next step.
#[hook]
fn use_follow(span: Option<(i64, i64)>) -> NodeRef {
    let scroller = use_node_ref();
    let el = scroller.clone();
    use_effect_with(span, move |span| {
        if let (Some(el), Some((from, to))) = (el.cast::<web_sys::Element>(), *span) {
            let (left, seen) = (i64::from(el.scroll_left()), i64::from(el.client_width()));
            let target = if to + PAD > left + seen {
                (to + PAD - seen).min(from - LEFT - PAD)
            } else if from - PAD < left + LEFT {
                from - LEFT - PAD
            } else {
                left
            };
            if target != left {
                el.set_scroll_left(i32::try_from(target.max(0)).unwrap_or(0));
            }
        }
    });
    scroller
}

/// The sequence diagram.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let l = props.lang;
    let shown = &props.rows[..];
    let (drawn_lanes, col) = columns(props.lanes);
    let lanes_right = LEFT + LANE_W * drawn_lanes.len() as i64;
    let placed = place_labels(shown, &col, drawn_lanes.len());
    let width = placed.iter().map(|p| p.2).fold(lanes_right, i64::max) + PAD;
    let height = TOP + ROW_H * shown.len().max(1) as i64 + 8;
    let mut now = shown.iter().zip(&placed).rev();
    let scroller = use_follow(now.find(|(r, _)| r.step == props.current).map(label_span));
    let lanes = drawn_lanes.iter().map(|&lane| {
        let name = LANE_NAMES[lane].get(l);
        let x = lane_x(&col, lane);
        html! {
            <g class="tl-lane">
                <text x={x.to_string()} y="18" text-anchor="middle" class="tl-lane-name">{ name }</text>
                <line x1={x.to_string()} y1={(TOP - 8).to_string()} x2={x.to_string()} y2={height.to_string()} />
            </g>
        }
    });
    let drawn = shown
        .iter()
        .zip(&placed)
        .enumerate()
        .map(|(i, (row, &(label_x, anchor, _)))| {
            let y = TOP + ROW_H * i as i64 + ROW_H / 2;
            timeline_row(props, row, &col, y, (label_x, anchor), width)
        });
    html! {
        <div class="timeline" data-testid="timeline">
            { pager(props) }
            <div class="tl-scroll" tabindex="0" ref={scroller}>
                { step_column(props, height) }
                <svg class="tl-svg" viewBox={format!("0 0 {width} {height}")} width={width.to_string()} height={height.to_string()}
                     role="group" aria-label={view::playground::SEQUENCE_DIAGRAM.get(l)}>
                    { for lanes }
                    { for drawn }
                </svg>
            </div>
            if shown.is_empty() {
                <p class="muted">{ view::playground::NO_EVENTS_YET.get(l) }</p>
            }
        </div>
    }
}

/// The steps and times again, in a column that stays in view while a diagram wider than its
/// box scrolls sideways (a phone): drawn over the diagram's own, which name its rows' buttons
/// for a screen reader, so this copy is hidden from one, and a tap goes through it to the row.
fn step_column(props: &TimelineProps, height: i64) -> Html {
    let top = |i: usize| (TOP + ROW_H * i as i64).to_string();
    let (left, row_h) = (LEFT.to_string(), ROW_H.to_string());
    let mut r = crate::ui::raw::Raw::default();
    r.open(
        "svg",
        &[
            ("class", "tl-steps"),
            ("aria-hidden", "true"),
            ("width", &left),
            ("height", &height.to_string()),
        ],
    );
    for (i, row) in props.rows.iter().enumerate() {
        if row.step == props.current {
            let y = top(i);
            r.el(
                "rect",
                &[("y", &y), ("width", &left), ("height", &row_h)],
                "",
            );
        }
        let class = if row.step > props.current {
            "tl-step future"
        } else {
            "tl-step"
        };
        let y = (TOP + ROW_H * i as i64 + ROW_H / 2 + 4).to_string();
        r.el(
            "text",
            &[("class", class), ("x", "4"), ("y", &y)],
            &step_time(props.lang, row),
        );
    }
    r.close("svg");
    r.html()
}

/// A row's step and simulated time, as its first column shows them.
fn step_time(l: Lang, row: &TimelineRow) -> String {
    format!("{} · {}", row.step, fmt_ms(l, row.time_ms))
}

/// One row of the diagram at height `y`: a button that jumps to its step, with its step and
/// time, its arrow or dot, and its label (starting at `label.0`, anchored `label.1`), as wide
/// as the diagram.
fn timeline_row(
    props: &TimelineProps,
    row: &TimelineRow,
    col: &[usize; Lane::ALL.len()],
    y: i64,
    (label_x, anchor): (i64, &'static str),
    width: i64,
) -> Html {
    let l = props.lang;
    let current = row.step == props.current;
    let past = row.step <= props.current;
    let on_jump = props.on_jump.clone();
    let step = row.step;
    let onclick = {
        let on_jump = on_jump.clone();
        Callback::from(move |_| on_jump.emit(step))
    };
    // Rows are focusable buttons: Enter or space jumps too (and does not scroll the page).
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            e.stop_propagation();
            on_jump.emit(step);
        }
    });
    let tone = match row.tone {
        Tone::Plain => "tone-plain",
        Tone::Good => "tone-good",
        Tone::Bad => "tone-bad",
    };
    let shape = row_shape(row, col, y);
    html! {
        <g class={classes!("tl-row", tone, current.then_some("current"), (!past).then_some("future"))}
           key={row.step} data-step={row.step.to_string()} role="button" tabindex="0"
           data-replayed={row.replayed.map(|r| r.to_string())}
           aria-current={current.then_some("step")} {onclick} {onkeydown}>
            <rect class="tl-hit" x="0" y={(y - ROW_H / 2).to_string()} width={width.to_string()} height={ROW_H.to_string()} />
            <text class="tl-step" x="4" y={(y + 4).to_string()}>{ step_time(l, row) }</text>
            { shape }
            <text class="tl-label" x={label_x.to_string()} y={(y - 6).to_string()} text-anchor={anchor}>{ mark(row.tone) }{ &row.label }</text>
        </g>
    }
}

/// A row's arrow between two lanes (stopping half-way with a cross if it is lost), or its dot
/// on one lane.
fn row_shape(row: &TimelineRow, col: &[usize; Lane::ALL.len()], y: i64) -> Html {
    let x1 = lane_x(col, row.from);
    match row.to {
        Some(to) if to != row.from => {
            let x2 = lane_x(col, to);
            let end_x = if row.lost {
                x1 + (x2 - x1) * 11 / 20
            } else {
                x2 - 6 * (x2 - x1).signum()
            };
            let head = if row.lost {
                let (a, b) = (end_x, y);
                html! { <path class="tl-lost" d={format!("M{} {} L{} {} M{} {} L{} {}", a - 5, b - 5, a + 5, b + 5, a - 5, b + 5, a + 5, b - 5)} /> }
            } else {
                let dir = (x2 - x1).signum();
                html! { <path class="tl-head" d={format!("M{} {} L{} {} L{} {} Z", x2, y, x2 - 8 * dir, y - 5, x2 - 8 * dir, y + 5)} /> }
            };
            html! { <>
                <line class={classes!("tl-arrow", row.lost.then_some("lost"))} x1={x1.to_string()} y1={y.to_string()} x2={end_x.to_string()} y2={y.to_string()} />
                { head }
            </> }
        }
        _ => html! { <circle class="tl-dot" cx={x1.to_string()} cy={y.to_string()} r="5" /> },
    }
}

/// Which events are shown, and the buttons that page through them. Paging shows other events;
/// it never moves the run.
fn pager(props: &TimelineProps) -> Html {
    let l = props.lang;
    let shown = &props.rows[..];
    let start = props.first;
    let end = start + shown.len();
    let page = |to: Option<usize>| {
        let on_page = props.on_page.clone();
        Callback::from(move |_| {
            if to.is_some() {
                on_page.emit(to)
            }
        })
    };
    let back_to_current = props.on_page.reform(|_: MouseEvent| None);
    html! {
        <div class="tl-pager">
            if !shown.is_empty() { <span>{ view::playground::events_shown(l, if shown.is_empty() { 0 } else { start + 1 }, end, props.total_rows) }</span> }
            <button onclick={page(props.prev_page)} disabled={props.prev_page.is_none()} data-testid="tl-earlier">{ view::playground::EARLIER.get(l) }</button>
            <button onclick={page(props.next_page)} disabled={props.next_page.is_none()} data-testid="tl-later">{ view::playground::LATER.get(l) }</button>
            if props.paged {
                <button onclick={back_to_current} data-testid="tl-current">{ view::playground::back_to_step(l, props.current) }</button>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window for step `current`, given the step number of every event.
    fn window_for(steps: &[usize], current: usize) -> usize {
        window_start(steps.len(), steps.partition_point(|s| *s < current.max(1)))
    }

    #[test]
    fn window_contains_current_step() {
        let one_per_step: Vec<usize> = (1..=100).collect();
        assert_eq!(window_for(&one_per_step[..10], 0), 0);
        assert_eq!(window_for(&one_per_step, 1), 0);
        assert_eq!(window_for(&one_per_step, 40), 0);
        assert_eq!(window_for(&one_per_step, 41), 40);
        assert_eq!(window_for(&one_per_step, 100), 60);
        // Several events per step: the window still holds the current step's first event.
        let bursty: Vec<usize> = (1..=3000).map(|i| i / 3 + 1).collect();
        for cur in 1..=1001 {
            let s = window_for(&bursty, cur);
            assert!(s + WINDOW <= bursty.len());
            let first = bursty.partition_point(|x| *x < cur);
            if first < bursty.len() {
                assert!(
                    s <= first && first < s + WINDOW,
                    "cur {cur} start {s} first {first}"
                );
            }
        }
    }

    /// Found by a walk-through: on the five lanes of lesson 16.1 the processor's labels were
    /// drawn to its right and cut at 1280 px; the processor lane (the seventh of `Lane::ALL`)
    /// was looked up as the sixth, which is not drawn.
    #[test]
    fn a_mark_on_the_last_lane_is_labelled_to_its_left_where_it_fits() {
        let lanes = [
            Lane::Client,
            Lane::Network,
            Lane::Server,
            Lane::Store,
            Lane::Processor,
        ]
        .into_iter()
        .fold(LaneSet::default(), LaneSet::with);
        let (drawn, col) = columns(lanes);
        let row = TimelineRow {
            step: 13,
            time_ms: 91_300,
            from: Lane::Processor as usize,
            to: None,
            lost: false,
            label: "#1 processor charges 100 → balance 800".into(),
            tone: Tone::Bad,
            replayed: None,
        };
        let placed = place_labels(std::slice::from_ref(&row), &col, drawn.len());
        let x = lane_x(&col, Lane::Processor as usize);
        assert_eq!(placed, vec![(x - PAD, "end", x)]);
        assert!(
            x <= LEFT + LANE_W * drawn.len() as i64,
            "nothing past the lanes"
        );
    }

    #[test]
    fn pages_step_through_the_trace_and_back() {
        // 100 events: pages at 0, 40 and 60 (the last ends with the last event).
        assert_eq!(neighbour_pages(100, 0), (None, Some(40)));
        assert_eq!(neighbour_pages(100, 40), (Some(0), Some(60)));
        assert_eq!(neighbour_pages(100, 60), (Some(40), None));
        assert_eq!(neighbour_pages(30, 0), (None, None));
        assert_eq!(neighbour_pages(80, 40), (Some(0), None));
        // Every page reached by Later is the current step's window for some step in it.
        let mut first = 0;
        while let (_, Some(next)) = neighbour_pages(1_000, first) {
            assert!(next > first && next + WINDOW <= 1_000);
            first = next;
        }
        assert_eq!(first, 1_000 - WINDOW);
    }

    #[test]
    fn formats_durations() {
        assert_eq!(fmt_ms(Lang::En, 250), "250 ms");
        assert_eq!(fmt_ms(Lang::En, 3_000), "3.0 s");
        assert_eq!(fmt_ms(Lang::En, 90_000_000), "25.0 h");
        assert_eq!(fmt_ms(Lang::En, 1_049), "1.0 s");
        assert_eq!(fmt_ms(Lang::En, 1_050), "1.1 s");
        assert_eq!(fmt_ms(Lang::En, 119_999), "120.0 s");
        assert_eq!(fmt_ms(Lang::En, 150_000), "2.5 min");
        assert_eq!(fmt_ms(Lang::En, u64::MAX), "5124095576030.4 h");
        // Japanese keeps ms and names the larger units as the lessons' text does.
        assert_eq!(fmt_ms(Lang::Ja, 250), "250 ms");
        assert_eq!(fmt_ms(Lang::Ja, 3_000), "3.0秒");
        assert_eq!(fmt_ms(Lang::Ja, 150_000), "2.5分");
        assert_eq!(fmt_ms(Lang::Ja, 90_000_000), "25.0時間");
    }
}
