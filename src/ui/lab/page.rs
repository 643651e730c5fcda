//! The lab page: settings, the stepper (lanes with their code, shared state, the same schedule
//! through a second service, the trace, the share link) and the explorer. State lives in one
//! reducer whose actions forward to the lab core; settings and schedule are saved in this browser
//! and restored on the next visit, or taken from a share link (see `persist`).

use yew::prelude::*;

use crate::sim::lab::{LabScenario, Model, Report};
use crate::sim::lesson::{lab_challenge, LabChallenge};
use crate::ui::i18n::{tr, Lang};
use crate::ui::text::lab::model_name;
use crate::ui::text::{lab_error, restore_message};
use crate::ui::web::{self, Listener};

use super::compare::ComparePanel;
use super::controls::StepperControls;
use super::explorer::ExplorerPanel;
use super::lane::RequestLane;
use super::persist;
use super::settings::LabSettings;
use super::share::LabShare;
use super::shared::SharedStatePanel;
use super::state::{LabAction, LabUi, Notice};
use super::timeline::ScheduleTimeline;

/// Props of [`LabPage`].
#[derive(Properties, PartialEq)]
pub struct LabPageProps {
    /// The page language.
    pub lang: Lang,
    /// The lab challenge on the page (`#/lab/challenge/<id>`), if any.
    #[prop_or_default]
    pub challenge: Option<String>,
}

/// The concurrency lab (#/lab).
#[component(LabPage)]
pub fn lab_page(props: &LabPageProps) -> Html {
    let lang = props.lang;
    // A challenge opens its own scenario; otherwise a share link in the hash, else this
    // browser's saved lab, else the default (read once).
    let challenge = use_memo(props.challenge.clone(), |id| {
        id.as_deref().and_then(lab_challenge)
    });
    let start = use_memo((), |_| persist::start());
    let ui = {
        let (start, challenge) = (start.clone(), challenge.clone());
        use_reducer(move || match &*challenge {
            Some(c) => LabUi {
                stepper: crate::sim::lab::Stepper::new(c.scenario.clone()),
                ..LabUi::default()
            },
            None => LabUi::at_start(&start),
        })
    };
    let run = ui.stepper.clone();
    let scenario = run.scenario().clone();
    let json = AttrValue::from(persist::to_json(&run, ui.seed));

    // Every change of settings or schedule is saved. The first save waits for a change unless the
    // lab came from a good link, so a damaged link or unreadable storage overwrites nothing.
    // A challenge's runs are not saved over the learner's own lab.
    let skip_save = use_mut_ref(|| !start.save_now || challenge.is_some());
    let saves = challenge.is_none();
    use_effect_with(json.clone(), move |json| {
        // Every step changes the saved form: a request that finished disables its button (and
        // the last step the run's), so focus moves to the next request that can move, else to
        // Step back.
        web::restore_focus(&[".lab-step-button", "[data-testid=lab-back]", "#main"]);
        if !std::mem::replace(&mut *skip_save.borrow_mut(), !saves) {
            persist::save(json);
        }
    });
    // A challenge is won by the schedule on the page or by a finished search's proof.
    let proved = use_state(|| false);
    let on_done = {
        let (proved, challenge) = (proved.clone(), challenge.clone());
        Callback::from(move |(s, r): (LabScenario, Report)| {
            if challenge
                .as_ref()
                .as_ref()
                .is_some_and(|c| c.won_by_report(&s, &r))
            {
                proved.set(true);
            }
        })
    };
    let won = challenge
        .as_ref()
        .as_ref()
        .is_some_and(|c| c.won_by_stepper(&ui.stepper))
        || *proved;
    {
        let id = (*challenge).as_ref().map(|c| c.id);
        use_effect_with((won, id), move |&(won, id)| {
            if let (true, Some(id)) = (won, id) {
                crate::ui::playground::teach::mark_won(id);
            }
        });
    }
    // A link read at the start leaves the address bar; a link opened later on this page (pasted
    // into the address bar: same route, no remount) is read the same way.
    {
        let ui = ui.dispatcher();
        let from_link = start.from_link;
        use_effect_with((), move |_| {
            if from_link {
                persist::drop_link_query();
            }
            let listener = Listener::on_window("hashchange", move |e: web_sys::Event| {
                // The event's own new URL: the address bar may have changed again since.
                let hash = web::event_hash(&e);
                if let Some(query) = persist::link_query(&hash) {
                    ui.dispatch(LabAction::OpenLink(query.to_string()));
                    persist::drop_link_query();
                }
            });
            move || drop(listener)
        });
    }

    let on_action = {
        let ui = ui.dispatcher();
        Callback::from(move |a: LabAction| ui.dispatch(a))
    };
    let on_step = {
        let ui = ui.dispatcher();
        Callback::from(move |r: usize| ui.dispatch(LabAction::Step(r)))
    };
    let on_apply = {
        let ui = ui.dispatcher();
        Callback::from(move |(s, seed): (LabScenario, u64)| ui.dispatch(LabAction::Apply(s, seed)))
    };
    let on_load = {
        let ui = ui.dispatcher();
        Callback::from(move |(s, schedule): (LabScenario, Vec<usize>)| {
            ui.dispatch(LabAction::Load(s, schedule))
        })
    };

    // Loading the explorer's counterexample happens at the bottom of the page; bring the stepper
    // into view so the learner sees what was loaded.
    let stepper_ref = use_node_ref();
    {
        let stepper_ref = stepper_ref.clone();
        let loaded = matches!(ui.notice, Some(Notice::Loaded));
        use_effect_with((loaded, run.schedule().to_vec()), move |(loaded, _)| {
            if *loaded {
                if let Some(el) = stepper_ref.cast::<web_sys::Element>() {
                    el.scroll_into_view();
                }
            }
        });
    }
    let notice = match &ui.notice {
        Some(Notice::Error(e)) => html! {
            <p class="field-error" role="alert" data-testid="lab-error">{ lab_error(lang, e) }</p>
        },
        Some(Notice::Loaded) => html! {
            <p class="lab-note" role="status">{ lang.t(
                "The explorer's schedule is loaded: step back through it, or reset and try your own.",
                "エクスプローラのスケジュールを読み込んだ。1ステップずつ戻って確かめるか、リセットして自分で試そう。") }</p>
        },
        Some(Notice::Replayed) => html! {
            <p class="lab-note" role="status">{ lang.t("Schedule replayed.", "スケジュールをリプレイした。") }</p>
        },
        Some(Notice::NotRestored(origin, e)) => html! {
            <p class="field-error" role="alert" data-testid="lab-restore-notice">{ restore_message(lang, *origin, e) }</p>
        },
        None => html! {},
    };
    let last_mover = run.schedule().last().copied();
    let model = model_name(lang, scenario.model());
    let stepper_heading = tr!(lang, "Stepper — {model}", "ステッパー — {model}");
    let model_lesson = match scenario.model() {
        Model::TocTou => lang.t(
            "Each step takes and releases its own lock. Try: step request 1 through its check, then request 2 through its check — both find nothing stored, and both charge.",
            "各ステップが自分のロックを取って離す。試そう：リクエスト1をチェックまで進め、次にリクエスト2もチェックまで進める。どちらも記録を見つけられず、両方が課金する。",
        ),
        Model::Atomic => lang.t(
            "The first step takes the one state lock and the last releases it. While a request holds it, the others are blocked and their buttons are disabled.",
            "最初のステップで state ロックを1つ取り、最後のステップで離す。保持中は他のリクエストがブロックされ、ボタンは押せない。",
        ),
        Model::Unlocked => lang.t(
            "No lock at all: the same race as TOCTOU. (In real Rust, `&mut self` would not even let two threads share it without a lock; this is what happens in a language that does.)",
            "ロックが一切ない：TOCTOUと同じ競合。（実際のRustでは `&mut self` のためロックなしでスレッド共有すらできない。これは共有できてしまう言語で起きること。）",
        ),
    };

    html! {
        <section class="lab" aria-labelledby="lab-h">
            <header class="lab-intro">
                <h2 id="lab-h">{ lang.t("Concurrency lab: you are the scheduler", "並行性ラボ：あなたがスケジューラ") }</h2>
                <p>{ lang.t(
                    "Several requests run the article's payment service at once. Each request is three steps: check the idempotency store, charge, store the result. You decide which request moves next. A lock around each step is not enough: check, charge and store must be one critical section.",
                    "複数のリクエストが記事の決済サービスを同時に実行する。各リクエストは3ステップ：冪等性ストアのチェック、課金、結果の保存。次にどのリクエストを進めるかはあなたが決める。ステップごとのロックでは足りない。チェック・課金・保存は1つのクリティカルセクションでなければならない。") }</p>
                <p class="muted">{ lang.t(
                    "A request that finds a stored result returns DuplicateRequest at once; its remaining steps run no code, so every request always takes three steps and every schedule has the same length.",
                    "保存済みの結果を見つけたリクエストはすぐに DuplicateRequest を返す。残りのステップでは何も実行しないので、どのリクエストも常に3ステップで、どのスケジュールも同じ長さになる。") }</p>
                <p><a href="#/lab/postgres" data-testid="lab-db-link">{ lang.t(
                    "On a real database: the same schedules on PostgreSQL →",
                    "本物のデータベースで：同じスケジュールを PostgreSQL で →") }</a></p>
            </header>
            if let Some(c) = &*challenge { { challenge_card(lang, c, won) } }
            <LabSettings lang={lang} scenario={scenario.clone()} seed={ui.seed} on_apply={on_apply} />
            <section class="lab-stepper" aria-labelledby="lab-stepper-h" ref={stepper_ref}>
                <h3 id="lab-stepper-h">{ stepper_heading }</h3>
                <p class="lab-lesson">{ model_lesson }</p>
                <StepperControls lang={lang} schedule={run.schedule().to_vec()} complete={run.is_complete()}
                                 seed={ui.seed} on_action={on_action} />
                { notice }
                <div class="lab-board">
                    <div class="lab-lanes">
                        { for (0..scenario.requests()).filter_map(|r| run.status(r).map(|status| html! {
                            <RequestLane key={r} lang={lang} scenario={scenario.clone()} index={r} status={status}
                                         moved_last={last_mover == Some(r)} on_step={on_step.clone()} />
                        })) }
                    </div>
                    <div class="lab-side">
                        <SharedStatePanel lang={lang} stepper={run.clone()} />
                        <ComparePanel lang={lang} stepper={run.clone()} />
                    </div>
                </div>
                <ScheduleTimeline lang={lang} stepper={run.clone()} />
                <LabShare lang={lang} json={json} />
            </section>
            <ExplorerPanel lang={lang} scenario={scenario.clone()} seed={ui.seed} on_load={on_load} on_done={on_done} />
        </section>
    }
}

/// A lab challenge's card: what to do, whether it is won.
fn challenge_card(lang: Lang, c: &LabChallenge, won: bool) -> Html {
    use crate::ui::text::challenges;
    let state = if won { "won" } else { "open" };
    html! {
        <section class="lesson card challenge" data-testid="challenge" data-challenge={c.id}>
            <h2>{ challenges::title(lang, c.id) }</h2>
            <p>{ challenges::brief(lang, c.id) }</p>
            <p class={classes!("status", won.then_some("won"))} data-testid="challenge-status" data-state={state} role="status">
                { if won {
                    lang.t("★ Won! The lab has checked it.", "★ 達成！ラボが確かめた。")
                } else {
                    lang.t("Not yet: the lab checks after every step and every finished search.", "まだ。ラボは1ステップごと、探索が終わるごとに確かめる。")
                } }
            </p>
            <p><a href="../#/scenario/concurrent-same-key">{ lang.t("Back to the lessons", "レッスンに戻る") }</a></p>
        </section>
    }
}
