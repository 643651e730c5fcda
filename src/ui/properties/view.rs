//! The page's parts as view functions (each a plain function of the state, which costs the
//! wasm no component lifecycle code): the form, the progress of a run, its result, and a case
//! with its inputs in words.

use yew::prelude::*;

use crate::sim::limits::{
    check_url_len, MAX_PROPERTY_CASES, MAX_PROPERTY_SEED, MIN_PROPERTY_CASES,
};
use crate::sim::properties::{Counterexample, Failure, Phase, Property, PropertyRun};
use crate::sim::ServiceKind;
use crate::ui::app::href;
use crate::ui::i18n::{tr, Lang};
use crate::ui::route::Route;
use crate::ui::share;
use crate::ui::text::properties::{
    breach_text, input_text, money, property_claim, property_name, setting_error,
};
use crate::ui::text::{grouped, service_blurb, service_name};

use super::state::{PropUi, RunState, RunView};
use super::PropertiesSite;

/// What the form's controls do.
pub struct Handlers {
    /// A property was picked (its id).
    pub property: Callback<Event>,
    /// A service was picked (its id).
    pub service: Callback<Event>,
    /// The number of cases was typed.
    pub cases: Callback<InputEvent>,
    /// A seed was typed.
    pub seed: Callback<InputEvent>,
    /// A fresh seed was asked for.
    pub new_seed: Callback<MouseEvent>,
    /// Run was pressed.
    pub run: Callback<MouseEvent>,
    /// Cancel was pressed.
    pub cancel: Callback<MouseEvent>,
    /// The Run button, which takes the focus when Cancel (about to disappear) is pressed.
    pub run_ref: NodeRef,
}

fn count(n: u32) -> String {
    grouped(u128::from(n))
}

/// The settings form. Nothing in it is disabled while a run is under way (a disabled control
/// drops the keyboard's focus): Run starts again with the form's settings.
pub fn settings_form(l: Lang, ui: &PropUi, h: &Handlers) -> Html {
    let max_cases = count(MAX_PROPERTY_CASES);
    let max_seed = grouped(u128::from(MAX_PROPERTY_SEED));
    html! {
        <section class="card prop-form" aria-labelledby="prop-form-h">
            <h3 id="prop-form-h">{ l.t("What to check", "何を検査するか") }</h3>
            <div class="prop-fields">
                <label class="prop-wide">
                    { l.t("Property", "性質") }
                    <select onchange={h.property.clone()} data-testid="prop-property">
                        { for Property::ALL.into_iter().map(|p| html! {
                            <option value={p.id()} selected={p == ui.property}>{ property_name(l, p) }</option>
                        }) }
                    </select>
                </label>
                <label>
                    { l.t("Service", "サービス") }
                    <select onchange={h.service.clone()} data-testid="prop-service">
                        { for ServiceKind::ALL.into_iter().map(|k| html! {
                            <option value={k.id()} selected={k == ui.service}>{ service_name(l, k) }</option>
                        }) }
                    </select>
                </label>
                <label>
                    { tr!(l, "Cases ({MIN_PROPERTY_CASES}–{max_cases})", "ケース数（{MIN_PROPERTY_CASES}〜{max_cases}）") }
                    <input type="text" inputmode="numeric" value={ui.cases_text.clone()} oninput={h.cases.clone()}
                           data-testid="prop-cases"
                           aria-invalid={ui.cases_error.is_some().then_some("true")} />
                </label>
                <label>
                    { tr!(l, "Seed (0–{max_seed})", "シード（0〜{max_seed}）") }
                    <input type="text" inputmode="numeric" value={ui.seed_text.clone()} oninput={h.seed.clone()}
                           data-testid="prop-seed"
                           aria-invalid={ui.seed_error.is_some().then_some("true")} />
                </label>
                <button onclick={h.new_seed.clone()} data-testid="prop-new-seed">
                    { l.t("New seed", "新しいシード") }</button>
                <button class="primary" onclick={h.run.clone()} ref={h.run_ref.clone()} data-testid="prop-run">
                    { l.t("Run", "実行") }</button>
            </div>
            if let Some(e) = &ui.cases_error {
                <p class="field-error" role="alert" data-testid="prop-cases-error">{ setting_error(l, e) }</p>
            }
            if let Some(e) = &ui.seed_error {
                <p class="field-error" role="alert" data-testid="prop-seed-error">{ setting_error(l, e) }</p>
            }
            <p class="prop-claim">{ property_claim(l, ui.property) }</p>
            <p class="muted">{ service_blurb(l, ui.service) }</p>
        </section>
    }
}

/// The status line, with the progress bar and Cancel while the run is under way.
pub fn status(l: Lang, view: Option<&RunView>, on_cancel: Callback<MouseEvent>) -> Html {
    let Some(v) = view else {
        return html! {
            <p class="prop-status" role="status" data-testid="prop-status" data-state="idle">
                { l.t("Not run yet: pick what to check and press Run.", "未実行。検査するものを選んで「実行」を押す。") }</p>
        };
    };
    let r = &v.run;
    let cases = count(r.settings().cases);
    let checked = count(r.checked());
    let (state, line) = match (&v.state, r.phase()) {
        (RunState::Running, Phase::Shrinking) | (RunState::Cancelled, Phase::Shrinking) => {
            let (tried, kept) = r
                .failure()
                .map_or((0, 0), |f| (f.shrink_attempts(), f.shrinks_kept()));
            let running = v.state == RunState::Running;
            (
                if running { "shrinking" } else { "cancelled" },
                if running {
                    tr!(
                        l,
                        "A case failed. Shrinking it: {tried} smaller variants tried, {kept} kept…",
                        "ケースが失敗した。縮小中：小さな変種を {tried} 個試し、{kept} 個採用…"
                    )
                } else {
                    tr!(l, "Cancelled while shrinking ({tried} variants tried): the smallest failing case so far is below.", "縮小中にキャンセルした（変種を {tried} 個試した）。ここまでで最小の失敗ケースを下に示す。")
                },
            )
        }
        (RunState::Running, _) => (
            "running",
            tr!(
                l,
                "Checking: {checked} of {cases} cases…",
                "検査中：{cases} ケース中 {checked}…"
            ),
        ),
        (RunState::Cancelled, _) => (
            "cancelled",
            tr!(
                l,
                "Cancelled after {checked} of {cases} cases: no case failed before that.",
                "{cases} ケース中 {checked} でキャンセルした。それまでに失敗したケースはない。"
            ),
        ),
        (RunState::Finished { elapsed_ms }, phase) => {
            let events = grouped(u128::from(r.events()));
            let ms = format!("{elapsed_ms:.0}");
            let state = match phase {
                Phase::Passed => "pass",
                Phase::Refused { .. } => "refused",
                _ => "fail",
            };
            (
                state,
                tr!(
                    l,
                    "Finished in {ms} ms of page time ({events} simulated events).",
                    "ページ時間 {ms} ms で完了（シミュレートしたイベント {events} 個）。"
                ),
            )
        }
    };
    let running = v.state == RunState::Running;
    html! {
        <div class="prop-progress">
            <p class="prop-status" role="status" data-testid="prop-status" data-state={state}>{ line }</p>
            if running {
                <progress max="1000" value={r.per_mille().to_string()}
                          aria-label={l.t("Progress of the run", "実行の進み具合")}></progress>
                <button onclick={on_cancel} data-testid="prop-cancel">{ l.t("Cancel", "キャンセル") }</button>
            }
        </div>
    }
}

/// The outcome: every case held, or the failing case and its shrunk form.
pub fn result(l: Lang, view: &RunView) -> Html {
    let r = &view.run;
    let s = r.settings();
    let (property, service) = (property_name(l, s.property), service_name(l, s.service));
    let seed = s.seed;
    if let Phase::Refused { index, error } = r.phase() {
        let why = crate::ui::text::input_error(l, &error);
        let n = index + 1;
        return html! {
            <p class="field-error" role="alert" data-testid="prop-refused">{ tr!(l, "Case {n} could not be built: {why}", "ケース {n} を組み立てられなかった：{why}") }</p>
        };
    }
    match (r.failure(), &view.state) {
        (None, RunState::Finished { .. }) => {
            let cases = count(s.cases);
            html! {
                <section class="card prop-result pass" data-testid="prop-result" data-state="pass" aria-labelledby="prop-result-h">
                    <h3 id="prop-result-h">{ tr!(l, "✓ Every case held: {cases} of {cases}", "✓ すべてのケースで成立：{cases} / {cases}") }</h3>
                    <p>{ tr!(l, "The {service} service kept “{property}” in all {cases} cases drawn from seed {seed}.", "{service}サービスは、シード {seed} から引いた {cases} ケースすべてで「{property}」を守った。") }</p>
                    <p class="muted">{ l.t(
                        "Passing cases are evidence, not proof: another seed draws other cases. (The lab's explorer can prove a small case safe by trying every interleaving.)",
                        "通ったケースは証拠であって証明ではない。別のシードは別のケースを引く。（小さなケースなら、ラボのエクスプローラがすべての交互実行を試して安全を証明できる。）") }</p>
                </section>
            }
        }
        (Some(f), _) => failed(l, view, f, property, service),
        (None, _) => html! {},
    }
}

fn failed(l: Lang, view: &RunView, f: &Failure, property: &str, service: &str) -> Html {
    let r: &PropertyRun = &view.run;
    let n = f.index + 1;
    let cases = count(r.settings().cases);
    let case_seed = f.case_seed;
    let shrinking_done = f.shrunk();
    let (tried, kept) = (f.shrink_attempts(), f.shrinks_kept());
    let inputs = input_count(l, f.original.scenario.inputs.len());
    html! {
        <section class="card prop-result fail" data-testid="prop-result" data-state="fail" aria-labelledby="prop-result-h">
            <h3 id="prop-result-h">{ tr!(l, "✕ Case {n} of {cases} failed", "✕ {cases} ケース中 {n} 番目が失敗") }</h3>
            <p>{ tr!(l, "The {service} service broke “{property}”.", "{service}サービスは「{property}」を破った。") }</p>
            <p class="muted" data-testid="prop-failing-case">{ tr!(
                l,
                "Case {n} (its scenario's seed is {case_seed}) as generated had {inputs}",
                "生成されたままのケース {n}（シナリオのシードは {case_seed}）は{inputs}",
            ) }</p>
            <details class="prop-original">
                <summary>{ l.t("The failing case as generated", "生成されたままの失敗ケース") }</summary>
                { case_body(l, &f.original, "prop-original") }
            </details>
            if shrinking_done || view.state == RunState::Cancelled {
                <div class="prop-minimal" data-testid="prop-minimal"
                     data-inputs={f.minimal().scenario.inputs.len().to_string()}>
                    <h4>{ if shrinking_done {
                        tr!(l, "Shrunk to a minimal case ({tried} variants tried, {kept} kept)", "最小のケースに縮小した（変種を {tried} 個試し、{kept} 個採用）")
                    } else {
                        tr!(l, "The smallest failing case found before Cancel ({tried} variants tried)", "キャンセルまでに見つかった最小の失敗ケース（変種を {tried} 個試した）")
                    } }</h4>
                    { case_body(l, f.minimal(), "prop-minimal") }
                    { open_link(l, f.minimal()) }
                </div>
            }
        </section>
    }
}

fn input_count(l: Lang, n: usize) -> String {
    if n == 1 {
        l.t("1 input.", "入力 1 件だった。").to_string()
    } else {
        tr!(l, "{n} inputs.", "入力 {n} 件だった。")
    }
}

/// A case: its starting balance, its inputs in words, and how it broke the property.
fn case_body(l: Lang, c: &Counterexample, testid: &'static str) -> Html {
    let balance = money(c.scenario.initial_balance);
    html! {
        <>
            <p>{ tr!(l, "Starting balance {balance}, then:", "初期残高 {balance}、続いて：") }</p>
            <ol class="prop-inputs" data-testid={format!("{testid}-inputs")}>
                { for c.scenario.inputs.iter().map(|i| html! { <li>{ input_text(l, i) }</li> }) }
            </ol>
            <p class="prop-breach" data-testid={format!("{testid}-breach")}>{ breach_text(l, &c.breach) }</p>
        </>
    }
}

/// "Open in the playground": the case in the sandbox through a share link, at the step that broke
/// the property.
fn open_link(l: Lang, c: &Counterexample) -> Html {
    let query = share::encode_query(&c.scenario.to_json(), c.breach.step().unwrap_or(0));
    let url = format!("{}?{query}", href::<PropertiesSite>(&Route::Sandbox));
    match check_url_len(&url) {
        Ok(()) => html! {
            <p><a class="button primary" href={url} data-testid="prop-open">
                { l.t("Open in the playground", "プレイグラウンドで開く") }</a>
            <span class="muted">{ l.t(" (the sandbox, at the step that broke the property)", "（サンドボックスで、性質が破れたステップを開く）") }</span></p>
        },
        Err(e) => html! {
            <p class="field-error" role="alert">{ crate::ui::text::input_error(l, &e) }</p>
        },
    }
}
