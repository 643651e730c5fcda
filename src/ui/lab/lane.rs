//! One request lane: its key and amount, where it stands (in words, so blocked is not colour
//! alone), the real source of its three steps with the next one marked, and its step button.

use yew::prelude::*;

use crate::sim::lab::{common_indent, dedent, SourceLine};
use crate::sim::lab::{step_source, LabResult, LabScenario, RequestStatus};
use crate::sim::lab::{LabError, Model};
use crate::sim::limits::LAB_STEPS_PER_REQUEST;
use crate::ui::i18n::Lang;
use crate::ui::raw::Raw;
use crate::ui::text::lab::{english_gloss, result_text, step_name};
use crate::ui::text::{self, lab_error, view};

/// Props of [`RequestLane`].
#[derive(Properties, PartialEq)]
pub struct RequestLaneProps {
    /// Page language.
    pub lang: Lang,
    /// The scenario (model, key, amount of this request).
    pub scenario: LabScenario,
    /// 0-based request index.
    pub index: usize,
    /// Where the request stands.
    pub status: RequestStatus,
    /// Whether this request made the last step.
    pub moved_last: bool,
    /// Asks to move this request.
    pub on_step: Callback<usize>,
}

/// How a step block relates to the request's program counter.
#[derive(Clone, Copy, PartialEq)]
enum BlockState {
    Done,
    Next,
    Skipped,
    Later,
}

/// One request lane.
#[component(RequestLane)]
pub fn request_lane(props: &RequestLaneProps) -> Html {
    let lang = props.lang;
    let model = props.scenario.model();
    let i = props.index;
    let key = props.scenario.key_label(props.scenario.key_index(i));
    let amount = props.scenario.amounts().get(i).copied().unwrap_or_default();
    let (status_text, status_class) = status_line(lang, model, props.status);
    let onclick = {
        let on_step = props.on_step.clone();
        Callback::from(move |_: MouseEvent| on_step.emit(i))
    };
    let n = i + 1;
    let heading_id = format!("lab-lane-{i}");
    html! {
        <article class={classes!("lab-lane", status_class, props.moved_last.then_some("lab-moved-last"))}
                 aria-labelledby={heading_id.clone()} data-testid={format!("lab-lane-{i}")}>
            <header class="lab-lane-head">
                <h4 id={heading_id}>{ view::lab::request(lang, n) }</h4>
                <span class="lab-lane-meta mono">{ view::lab::lane_meta(lang, &key, amount) }</span>
            </header>
            <p class="lab-lane-status" data-testid={format!("lab-status-{i}")}>{ status_text }</p>
            <button class="lab-step-button primary" disabled={!props.status.can_move()} onclick={onclick}
                    data-testid={format!("lab-step-{i}")}>{ button_text(lang, model, n, props.status) }</button>
            <ol class="lab-blocks">{ blocks(lang, model, props.status) }</ol>
        </article>
    }
}

/// Where the request stands, in words, and the lane's class for it.
fn status_line(lang: Lang, model: Model, status: RequestStatus) -> (String, &'static str) {
    match status {
        RequestStatus::Ready { step } => (
            view::lab::lane_ready(lang, step + 1, step_name(lang, model, step)),
            "lab-ready",
        ),
        RequestStatus::Blocked { holder } => {
            (view::lab::lane_blocked(lang, holder + 1), "lab-blocked")
        }
        RequestStatus::Returned { step, result } => (
            view::lab::lane_returned(lang, &result_text(lang, result), step + 1),
            "lab-returned",
        ),
        RequestStatus::Finished { result } => {
            let text = view::lab::lane_finished(lang, &result_text(lang, result));
            let class = if matches!(result, LabResult::Success { .. }) {
                "lab-finished lab-success"
            } else {
                "lab-finished"
            };
            (text, class)
        }
    }
}

/// The step button's text for request `n`.
fn button_text(lang: Lang, model: Model, n: usize, status: RequestStatus) -> String {
    match status {
        RequestStatus::Ready { step } => {
            view::lab::step_request(lang, n, step_name(lang, model, step))
        }
        RequestStatus::Returned { .. } => view::lab::step_returned_request(lang, n),
        RequestStatus::Blocked { .. } => view::lab::request_is_blocked(lang, n),
        RequestStatus::Finished { .. } => view::lab::request_has_finished(lang, n),
    }
}

/// How step `step` relates to the request's program counter `pc`; once a request returned
/// early, its later steps run no code.
fn block_state(step: usize, pc: usize, returned_early: bool) -> BlockState {
    if step < pc {
        if returned_early && step > 0 {
            BlockState::Skipped
        } else {
            BlockState::Done
        }
    } else if step == pc {
        if returned_early {
            BlockState::Skipped
        } else {
            BlockState::Next
        }
    } else if returned_early {
        BlockState::Skipped
    } else {
        BlockState::Later
    }
}

/// The request's three steps, each with its source and whether it ran.
fn blocks(lang: Lang, model: Model, status: RequestStatus) -> Html {
    let returned_early = matches!(
        status,
        RequestStatus::Returned {
            result: LabResult::DuplicateRequest { .. },
            ..
        } | RequestStatus::Finished {
            result: LabResult::DuplicateRequest { .. }
        }
    );
    let pc = match status {
        RequestStatus::Ready { step } | RequestStatus::Returned { step, .. } => step,
        RequestStatus::Blocked { .. } => 0,
        RequestStatus::Finished { .. } => LAB_STEPS_PER_REQUEST,
    };
    let sources: Vec<Result<Vec<SourceLine>, _>> = (0..LAB_STEPS_PER_REQUEST)
        .map(|step| step_source(model, step))
        .collect();
    let indent = {
        let all: Vec<SourceLine> = sources
            .iter()
            .filter_map(|s| s.as_ref().ok())
            .flatten()
            .copied()
            .collect();
        common_indent(&all)
    };
    sources
        .into_iter()
        .enumerate()
        .map(|(step, source)| {
            let state = block_state(step, pc, returned_early);
            step_block(lang, model, step, state, code(lang, source, indent))
        })
        .collect()
}

/// One step's block: its heading, whether it ran, and its code.
fn step_block(lang: Lang, model: Model, step: usize, state: BlockState, code: Html) -> Html {
    let (mark, mark_text, class) = match state {
        BlockState::Done => ("✓", view::lab::BLOCK_DONE.get(lang), "lab-block-done"),
        BlockState::Next => ("▶", view::lab::BLOCK_NEXT.get(lang), "lab-block-next"),
        BlockState::Skipped => ("–", view::lab::BLOCK_SKIPPED.get(lang), "lab-block-skipped"),
        BlockState::Later => ("", view::lab::BLOCK_LATER.get(lang), "lab-block-later"),
    };
    let (n, name) = (step + 1, step_name(lang, model, step));
    html! {
        <li class={classes!("lab-block", class)} aria-current={(state == BlockState::Next).then_some("step")}>
            <p class="lab-block-head">
                <span class="lab-mark" aria-hidden="true">{ mark }</span>
                { view::lab::step_heading(lang, n, name) }
                <span class="lab-block-state">{ text::aside(lang, mark_text) }</span>
            </p>
            { code }
        </li>
    }
}

/// A step's source, `indent` columns taken off every line; on the English page each of the
/// article's Japanese comments is followed by its English rendering.
fn code(lang: Lang, source: Result<Vec<SourceLine>, LabError>, indent: usize) -> Html {
    let lines = match source {
        Ok(lines) => lines,
        Err(e) => return html! { <p class="error">{ lab_error(lang, &e) }</p> },
    };
    // Text only, no handlers: written as one string (`ui/raw.rs`), which costs the page a
    // fraction of what an element per line costs to build (issue 16).
    let mut r = Raw::default();
    r.open("pre", &[("class", "lab-code")]).open("code", &[]);
    for l in &lines {
        // The article's comments are Japanese; the English page adds a rendering.
        let japanese = english_gloss(l.text);
        let gloss = japanese.filter(|_| lang == Lang::En);
        let text = dedent(l.text, indent);
        let pad = &text[..text.len() - text.trim_start().len()];
        let line = if japanese.is_some() {
            [("class", "lab-line lab-comment"), ("lang", "ja")]
        } else {
            [("class", "lab-line"), ("", "")]
        };
        let number = [("class", "lab-ln"), ("aria-hidden", "true")];
        r.open("span", &line)
            .el("span", &number, &l.number.to_string())
            .text(text)
            .text("\n")
            .close("span");
        if let Some(en) = gloss {
            r.open(
                "span",
                &[
                    ("class", "lab-line lab-gloss"),
                    ("data-testid", "lab-gloss"),
                ],
            )
            .el("span", &number, "")
            .text(pad)
            .text(en)
            .text("\n")
            .close("span");
        }
    }
    r.close("code").close("pre");
    r.html()
}
