//! The same schedule through two services side by side: the stepper's model and the atomic one
//! (or TOCTOU, when the stepper already runs the atomic service). Where the lock makes a request
//! wait, the wait is listed, so the learner sees exactly what the lock changed.

use yew::prelude::*;

use crate::sim::lab::{adapt_schedule, Model, Stepper};
use crate::ui::i18n::{tr, Lang};

use crate::ui::text::lab::{model_short, result_text};

/// Props of [`ComparePanel`].
#[derive(Properties, PartialEq)]
pub struct ComparePanelProps {
    /// Page language.
    pub lang: Lang,
    /// The learner's run.
    pub stepper: Stepper,
}

struct WaitSpan {
    request: usize,
    holder: usize,
    first: usize,
    last: usize,
}

/// TOCTOU next to atomic on the same schedule.
#[component(ComparePanel)]
pub fn compare_panel(props: &ComparePanelProps) -> Html {
    let lang = props.lang;
    let run = &props.stepper;
    let scenario = run.scenario();
    let other_model = if scenario.model() == Model::Atomic {
        Model::TocTou
    } else {
        Model::Atomic
    };
    let adapted = adapt_schedule(scenario.with_model(other_model), run.schedule());
    let other = &adapted.run;
    let k = scenario.requests();
    let cell = |s: &Stepper, r: usize| match s.state().result(r) {
        Some(result) => result_text(lang, result),
        None => {
            let next = s.state().pc(r) + 1;
            tr!(
                lang,
                "running (step {next} next)",
                "実行中（次はステップ {next}）"
            )
        }
    };
    // One line per wait, not per deferred step: consecutive deferred steps of one request behind
    // one holder are one wait.
    let mut waits: Vec<WaitSpan> = Vec::new();
    for w in &adapted.waits {
        match waits.last_mut() {
            Some(last) if last.request == w.request && last.holder == w.holder => {
                last.last = w.position;
            }
            _ => waits.push(WaitSpan {
                request: w.request,
                holder: w.holder,
                first: w.position,
                last: w.position,
            }),
        }
    }
    let still_waiting = adapted.waiting.len();
    let yes_no = |b: bool| {
        if b {
            lang.t("yes — double charge", "あり")
        } else {
            lang.t("no", "なし")
        }
    };
    html! {
        <section class="lab-compare card" aria-labelledby="lab-compare-h">
            <h3 id="lab-compare-h">{ lang.t("Same schedule, two services", "同じスケジュールを2つのサービスで") }</h3>
            <div class="lab-table-wrap">
                <table class="lab-table" data-testid="lab-compare">
                    <thead><tr>
                        <th scope="col">{ "" }</th>
                        <th scope="col">{ model_short(lang, scenario.model()) }</th>
                        <th scope="col">{ model_short(lang, other_model) }</th>
                    </tr></thead>
                    <tbody>
                        { for (0..k).map(|r| {
                            let n = r + 1;
                            html! {
                                <tr>
                                    <th scope="row" class="lab-req">{ tr!(lang, "Request {n}", "リクエスト{n}") }</th>
                                    <td>{ cell(run, r) }</td>
                                    <td>{ cell(other, r) }</td>
                                </tr>
                            }
                        }) }
                        <tr>
                            <th scope="row">{ lang.t("Balance", "残高") }</th>
                            <td>{ run.state().balance() }</td>
                            <td>{ other.state().balance() }</td>
                        </tr>
                        <tr>
                            <th scope="row">{ lang.t("Charged twice for one key", "二重課金") }</th>
                            <td>{ yes_no(run.double_charged()) }</td>
                            <td>{ yes_no(other.double_charged()) }</td>
                        </tr>
                    </tbody>
                </table>
            </div>
            if !adapted.waits.is_empty() || !adapted.waiting.is_empty() {
                <ul class="lab-waits">
                    { for waits.iter().map(|w| {
                        let steps = if w.first == w.last {
                            format!("{}", w.first + 1)
                        } else {
                            format!("{}–{}", w.first + 1, w.last + 1)
                        };
                        let (model, r, h) = (model_short(lang, other_model), w.request + 1, w.holder + 1);
                        html! {
                            <li>{ tr!(
                                lang,
                                "{model}: request {r} waited for the lock request {h} held (schedule step {steps}).",
                                "{model}：リクエスト{r}はリクエスト{h}が保持するロックを待った（スケジュールの{steps}番目）。",
                            ) }</li>
                        }
                    }) }
                    if !adapted.waiting.is_empty() {
                        <li>{ tr!(
                            lang,
                            "{still_waiting} step(s) still wait for the lock.",
                            "{still_waiting}ステップがまだロックを待っている。",
                        ) }</li>
                    }
                </ul>
            }
        </section>
    }
}
