//! One request lane: its key and amount, where it stands (in words, so blocked is not colour
//! alone), the real source of its three steps with the next one marked, and its step button.

use yew::prelude::*;

use crate::sim::lab::{common_indent, dedent, SourceLine};
use crate::sim::lab::{step_source, LabResult, LabScenario, RequestStatus};
use crate::sim::limits::LAB_STEPS_PER_REQUEST;
use crate::ui::i18n::{tr, Lang};
use crate::ui::raw::Raw;
use crate::ui::text::{self, lab_error};

use crate::ui::text::lab::{english_gloss, result_text, step_name};

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
    let returned_early = matches!(
        props.status,
        RequestStatus::Returned {
            result: LabResult::DuplicateRequest { .. },
            ..
        } | RequestStatus::Finished {
            result: LabResult::DuplicateRequest { .. }
        }
    );
    let pc = match props.status {
        RequestStatus::Ready { step } | RequestStatus::Returned { step, .. } => step,
        RequestStatus::Blocked { .. } => 0,
        RequestStatus::Finished { .. } => LAB_STEPS_PER_REQUEST,
    };
    let (status_text, status_class) = match props.status {
        RequestStatus::Ready { step } => {
            let (n, name) = (step + 1, step_name(lang, model, step));
            let text = tr!(
                lang,
                "Ready: next is step {n} of {LAB_STEPS_PER_REQUEST}, {name}",
                "実行可能：次は {LAB_STEPS_PER_REQUEST} ステップ中の {n}（{name}）"
            );
            (text, "lab-ready")
        }
        RequestStatus::Blocked { holder } => {
            let h = holder + 1;
            let text = tr!(
                lang,
                "Blocked: waits for the state lock, held by request {h}",
                "ブロック中：state ロックを待っている（保持：リクエスト{h}）"
            );
            (text, "lab-blocked")
        }
        RequestStatus::Returned { step, result } => {
            let (n, result) = (step + 1, result_text(lang, result));
            let text = tr!(
                lang,
                "Returned {result}. Its step {n} runs no code.",
                "{result}を返した。ステップ {n} では何も実行しない。"
            );
            (text, "lab-returned")
        }
        RequestStatus::Finished { result } => {
            let returned = result_text(lang, result);
            let text = tr!(
                lang,
                "Finished: returned {returned}",
                "終了：{returned}を返した"
            );
            let class = if matches!(result, LabResult::Success { .. }) {
                "lab-finished lab-success"
            } else {
                "lab-finished"
            };
            (text, class)
        }
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
    let blocks = sources.into_iter().enumerate().map(|(step, source)| {
        let state = if step < pc {
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
        };
        let (mark, mark_text, class) = match state {
            BlockState::Done => ("✓", lang.t("done", "実行済み"), "lab-block-done"),
            BlockState::Next => ("▶", lang.t("next", "次"), "lab-block-next"),
            BlockState::Skipped => ("–", lang.t("not run (returned)", "実行されない（return済み）"), "lab-block-skipped"),
            BlockState::Later => ("", lang.t("later", "未実行"), "lab-block-later"),
        };
        let code = match source {
            // Text only, no handlers: written as one string (`ui/raw.rs`), which costs the page
            // a fraction of what an element per line costs to build (issue 16).
            Ok(lines) => {
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
                        r.open("span", &[("class", "lab-line lab-gloss"), ("data-testid", "lab-gloss")])
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
            Err(e) => html! { <p class="error">{ lab_error(lang, &e) }</p> },
        };
        let (n, name) = (step + 1, step_name(lang, model, step));
        html! {
            <li class={classes!("lab-block", class)} aria-current={(state == BlockState::Next).then_some("step")}>
                <p class="lab-block-head">
                    <span class="lab-mark" aria-hidden="true">{ mark }</span>
                    { tr!(lang, "Step {n}: {name}", "ステップ {n}：{name}") }
                    <span class="lab-block-state">{ text::aside(lang, mark_text) }</span>
                </p>
                { code }
            </li>
        }
    });

    let can_move = props.status.can_move();
    let n = i + 1;
    let button_text = match props.status {
        RequestStatus::Ready { step } => {
            let name = step_name(lang, model, step);
            tr!(
                lang,
                "Step request {n}: {name}",
                "リクエスト{n}を進める：{name}"
            )
        }
        RequestStatus::Returned { .. } => tr!(
            lang,
            "Step request {n} (returned, no code)",
            "リクエスト{n}を進める（return済み）"
        ),
        RequestStatus::Blocked { .. } => {
            tr!(lang, "Request {n} is blocked", "リクエスト{n}はブロック中")
        }
        RequestStatus::Finished { .. } => {
            tr!(lang, "Request {n} has finished", "リクエスト{n}は終了")
        }
    };
    let onclick = {
        let on_step = props.on_step.clone();
        Callback::from(move |_: MouseEvent| on_step.emit(i))
    };
    let heading_id = format!("lab-lane-{i}");
    html! {
        <article class={classes!("lab-lane", status_class, props.moved_last.then_some("lab-moved-last"))}
                 aria-labelledby={heading_id.clone()} data-testid={format!("lab-lane-{i}")}>
            <header class="lab-lane-head">
                <h4 id={heading_id}>{ tr!(lang, "Request {n}", "リクエスト{n}") }</h4>
                <span class="lab-lane-meta mono">{ tr!(
                    lang,
                    "key {key} · amount {amount}",
                    "キー {key} · 金額 {amount}",
                ) }</span>
            </header>
            <p class="lab-lane-status" data-testid={format!("lab-status-{i}")}>{ status_text }</p>
            <button class="lab-step-button primary" disabled={!can_move} onclick={onclick}
                    data-testid={format!("lab-step-{i}")}>{ button_text }</button>
            <ol class="lab-blocks">{ for blocks }</ol>
        </article>
    }
}
