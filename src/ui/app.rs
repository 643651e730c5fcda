//! The page shell: header with language switch and navigation, and the routed page below.

use yew::prelude::*;

use super::i18n::Lang;
use super::listen::Listener;
use super::route::Route;
use super::storage;

fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The language to start in: the remembered choice, else the browser's language.
pub fn initial_lang() -> Lang {
    if let Some(saved) = storage::load(storage::LANG_KEY) {
        return Lang::from_code(&saved);
    }
    let nav = web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default();
    Lang::from_code(&nav)
}

fn set_document_lang(lang: Lang) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", lang.code());
    }
}

/// Follows `hashchange` so links, back/forward and share links all route.
#[hook]
fn use_hash() -> String {
    let hash = use_state(current_hash);
    {
        let hash = hash.clone();
        use_effect_with((), move |_| {
            let listener = Listener::on_window("hashchange", move |_| hash.set(current_hash()));
            move || drop(listener)
        });
    }
    (*hash).clone()
}

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let lang = use_state(initial_lang);
    let hash = use_hash();
    let route = Route::parse(&hash);
    {
        let lang = *lang;
        use_effect_with(lang, move |lang| {
            set_document_lang(*lang);
            storage::save(storage::LANG_KEY, lang.code());
        });
    }
    let l = *lang;
    let toggle = {
        let lang = lang.clone();
        Callback::from(move |_| {
            lang.set(match *lang {
                Lang::En => Lang::Ja,
                Lang::Ja => Lang::En,
            })
        })
    };
    let nav_item = |r: Route, label: &'static str| {
        let active = std::mem::discriminant(&r) == std::mem::discriminant(&route);
        html! {
            <a href={r.to_hash()} class={classes!("nav-link", active.then_some("active"))}
               aria-current={active.then_some("page")}>{ label }</a>
        }
    };
    html! {
        <>
        <a class="skip-link" href="#main">{ l.t("Skip to content", "本文へ移動") }</a>
        <header class="site-header">
            <div class="brand">
                <h1>{ l.t("Idempotency keys playground", "冪等性キー・プレイグラウンド") }</h1>
                <p class="tagline">{ l.t(
                    "Watch a timed-out retry charge a card twice, and see what really prevents it: keys, atomicity, outboxes. Everything runs in this page.",
                    "タイムアウト後のリトライが二重課金を生む様子と、それを本当に防ぐもの（キー、原子性、outbox）を、このページの中で動かして確かめる。") }</p>
            </div>
            <nav aria-label={l.t("Sections", "セクション")}>
                { nav_item(Route::Scenario(super::route::HOME_SCENARIO.into()), l.t("Scenarios", "シナリオ")) }
                { nav_item(Route::Sandbox, l.t("Sandbox", "サンドボックス")) }
                { nav_item(Route::Lab, l.t("Concurrency lab", "並行性ラボ")) }
            </nav>
            <button class="lang-toggle" onclick={toggle} data-testid="lang-toggle"
                    aria-label={l.t("Switch language to Japanese", "言語を英語に切り替える")}>
                { l.t("日本語", "English") }
            </button>
        </header>
        <main id="main">
            { render_route(&route, l) }
        </main>
        <footer class="site-footer">
            <p>{ l.t(
                "Deterministic simulation: the same seed and inputs give the same run, step for step.",
                "決定論的シミュレーション：同じシードと入力なら、一歩ずつ同じ実行になる。") }</p>
        </footer>
        </>
    }
}

fn render_route(route: &Route, lang: Lang) -> Html {
    match route {
        Route::Lab => html! { <super::lab::LabPage lang={lang} /> },
        Route::Scenario(id) => {
            html! { <super::playground::Playground lang={lang} route={route.clone()} key={id.clone()} /> }
        }
        Route::Sandbox => {
            html! { <super::playground::Playground lang={lang} route={route.clone()} key="sandbox" /> }
        }
        Route::NotFound(path) => html! {
            <section class="not-found">
                <h2>{ lang.t("Page not found", "ページが見つからない") }</h2>
                <p>{ lang.f(format!("There is nothing at “{path}”."), format!("「{path}」には何もない。")) }</p>
                <a href="#/">{ lang.t("Back to the first scenario", "最初のシナリオへ戻る") }</a>
            </section>
        },
    }
}
