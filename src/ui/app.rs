//! The page shell: header with language switch and navigation, and the routed page below.
//!
//! The site is several pages, each its own wasm: the playground's lessons (`index.html`), the
//! sandbox and challenges (`sandbox/`), the concurrency lab (`lab/`), the property checks
//! (`properties/`), durable execution (`durable/`) and Kafka (`kafka/`). They share this shell
//! through [`Site`], so each binary links only its own page's code: the playground's download
//! carries no lab, and the lab's no playground. Which page draws which route is one
//! table, [`page_dir`]; a route another page draws is handed to it with a redirect that keeps
//! the hash, so old `#/lab?s=...` links still open.

use yew::prelude::*;

use super::i18n::Lang;
use super::route::Route;
use super::text::view::common as words;
use super::web::{self, Listener};

/// The language to start in: the one this build speaks (static/boot.js loaded the build of the
/// remembered choice, else of the browser's language), else that choice.
pub fn initial_lang() -> Lang {
    if let Some(built) = Lang::BUILT {
        return built;
    }
    if let Some(saved) = web::load(web::LANG_KEY) {
        return Lang::from_code(&saved);
    }
    Lang::from_code(&web::browser_language())
}

/// The page that draws a route, as its folder relative to the site's root (the playground is
/// the root). One line per page: a new page (durable/, kafka/) is its line here, its `Route`
/// and its `Site`.
pub fn page_dir(route: &Route) -> &'static str {
    match route {
        Route::Lab | Route::LabChallenge(_) | Route::LabDatabase => "lab/",
        Route::Properties => "properties/",
        Route::Kafka | Route::KafkaChallenge(_) => "kafka/",
        Route::Scenario(id) if crate::sim::kafka::LESSON_IDS.contains(&id.as_str()) => "kafka/",
        Route::Durable | Route::DurableChallenge(_) => "durable/",
        Route::Scenario(id) if crate::sim::durable::LESSON_IDS.contains(&id.as_str()) => "durable/",
        Route::Sandbox | Route::Challenge(_) => "sandbox/",
        Route::Scenario(_) | Route::NotFound(_) => "",
    }
}

/// One page of the site: where it lives and how it draws its routes; [`page_dir`] says which.
pub trait Site: 'static {
    /// This page's folder relative to the site's root, as [`page_dir`] names it.
    const DIR: &'static str;
    /// Whether this page draws `route`.
    fn draws(route: &Route) -> bool {
        page_dir(route) == Self::DIR
    }
    /// The page for a route it draws.
    fn render(route: &Route, lang: Lang) -> Html;
    /// The route a bare address (no hash) opens.
    fn home() -> Route;
}

/// The path from page `S` to the page that draws `route`: up to the root, then into its folder.
fn page_path<S: Site>(route: &Route) -> String {
    path_from(S::DIR, route)
}

/// The path from the page in folder `dir` up to the site's root.
pub fn up_from(dir: &str) -> String {
    "../".repeat(dir.matches('/').count())
}

fn path_from(dir: &str, route: &Route) -> String {
    format!("{}{}", up_from(dir), page_dir(route))
}

/// The address of `route` relative to page `S`.
pub fn href<S: Site>(route: &Route) -> String {
    href_from(S::DIR, route)
}

/// The address of `route` relative to the page in folder `dir` (as [`page_dir`] names it): its
/// hash alone when that page draws it.
pub fn href_from(dir: &str, route: &Route) -> String {
    if page_dir(route) == dir {
        route.to_hash()
    } else {
        format!("{}{}", path_from(dir, route), route.to_hash())
    }
}

/// "Nothing here", with a way back to the first scenario (drawn by the playground page).
pub fn not_found(route: &Route, lang: Lang) -> Html {
    let path = match route {
        Route::NotFound(path) => path.as_str(),
        _ => "",
    };
    html! {
        <section class="not-found">
            <h2>{ words::NOT_FOUND.get(lang) }</h2>
            <p>{ words::nothing_at(lang, path) }</p>
            <a href="#/">{ words::BACK_TO_FIRST.get(lang) }</a>
        </section>
    }
}

/// The skip link moves focus to the content without touching the address: the hash is the
/// route here, so `#main` in the address would be a page that does not exist after a reload.
fn skip_to_content(e: MouseEvent) {
    e.prevent_default();
    let main = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("main"))
        .and_then(|m| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(m).ok());
    if let Some(main) = main {
        let _ = main.focus();
        main.scroll_into_view();
    }
}

/// Follows `hashchange` so links, back/forward and share links all route.
#[hook]
fn use_hash() -> String {
    let hash = use_state(web::current_hash);
    {
        let hash = hash.clone();
        use_effect_with((), move |_| {
            let listener =
                Listener::on_window("hashchange", move |_| hash.set(web::current_hash()));
            move || drop(listener)
        });
    }
    (*hash).clone()
}

/// The root component of page `S`.
#[function_component]
pub fn App<S: Site>() -> Html {
    let lang = use_state(initial_lang);
    let hash = use_hash();
    let route = if hash.is_empty() {
        S::home()
    } else {
        Route::parse(&hash)
    };
    {
        let lang = *lang;
        use_effect_with(lang, move |lang| {
            web::set_document_lang(lang.code());
            web::save(web::LANG_KEY, lang.code());
        });
    }
    let l = *lang;
    let toggle = {
        let lang = lang.clone();
        Callback::from(move |_| {
            let other = match *lang {
                Lang::En => Lang::Ja,
                Lang::Ja => Lang::En,
            };
            if Lang::BUILT.is_some() {
                // The other language is the other build: remember the choice and load the page
                // again (the run, its step and the lesson's state are saved as they change).
                web::save(web::LANG_KEY, other.code());
                web::reload();
            } else {
                lang.set(other)
            }
        })
    };
    let nav_item = |r: Route, label: &'static str| {
        // A page of its own is one item whatever its route (the sandbox's challenges, the lab's
        // views); on the first page, the lessons' item is not lit for "not found".
        let active = page_dir(&r) == page_dir(&route)
            && (!page_dir(&r).is_empty()
                || std::mem::discriminant(&r) == std::mem::discriminant(&route));
        html! {
            <a href={href::<S>(&r)} class={classes!("nav-link", active.then_some("active"))}
               aria-current={active.then_some("page")}>{ label }</a>
        }
    };
    html! {
        <>
        <a class="skip-link" href="#main" onclick={Callback::from(skip_to_content)}>{ words::SKIP_TO_CONTENT.get(l) }</a>
        <header class="site-header">
            <div class="brand">
                <h1>{ words::SITE_TITLE.get(l) }</h1>
                <p class="tagline">{ words::TAGLINE.get(l) }</p>
            </div>
            <nav aria-label={words::SECTIONS.get(l)}>
                { nav_item(Route::Scenario(super::route::HOME_SCENARIO.into()), words::NAV_SCENARIOS.get(l)) }
                { nav_item(Route::Sandbox, words::NAV_SANDBOX.get(l)) }
                { nav_item(Route::Lab, words::NAV_LAB.get(l)) }
                { nav_item(Route::Properties, words::NAV_PROPERTIES.get(l)) }
                { nav_item(Route::Durable, words::NAV_DURABLE.get(l)) }
                { nav_item(Route::Scenario(crate::sim::kafka::LESSON_IDS[0].into()), "Kafka") }
            </nav>
            // Named by its visible text (so voice control can say "click 日本語"), spoken in
            // the language it names; what it does is its description.
            <button class="lang-toggle" onclick={toggle} data-testid="lang-toggle"
                    title={words::SWITCH_LANGUAGE.get(l)}>
                <span lang={words::OTHER_LANG_CODE.get(l)}>{ words::OTHER_LANG_NAME.get(l) }</span>
            </button>
        </header>
        <main id="main" tabindex="-1">
            { page::<S>(&route, &hash, l) }
        </main>
        <footer class="site-footer">
            <p>{ words::FOOTER.get(l) }</p>
        </footer>
        </>
    }
}

/// The routed page, or a short note while the browser moves to the page that draws the route
/// (the hash, share payload included, goes along).
fn page<S: Site>(route: &Route, hash: &str, lang: Lang) -> Html {
    if S::draws(route) {
        return S::render(route, lang);
    }
    let url = format!("{}{hash}", page_path::<S>(route));
    // No history entry for the hand-over, so Back skips it.
    web::replace_location(&url);
    html! {
        <p class="handover" data-testid="handover">
            { words::OPENING.get(lang) }
            <a href={url}>{ words::CONTINUE.get(lang) }</a>
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::durable::DurableSite;
    use crate::ui::kafka::KafkaSite;
    use crate::ui::lab::LabSite;
    use crate::ui::playground::{PlaygroundSite, SandboxSite};
    use crate::ui::properties::PropertiesSite;

    #[test]
    fn each_page_links_to_the_other_for_the_routes_it_does_not_draw() {
        let scenario = Route::Scenario("dual-write".into());
        assert_eq!(href::<PlaygroundSite>(&scenario), "#/scenario/dual-write");
        assert_eq!(href::<PlaygroundSite>(&Route::Sandbox), "sandbox/#/sandbox");
        assert_eq!(href::<PlaygroundSite>(&Route::Lab), "lab/#/lab");
        assert_eq!(href::<LabSite>(&Route::Lab), "#/lab");
        assert_eq!(href::<LabSite>(&Route::Sandbox), "../sandbox/#/sandbox");
        // The sandbox page draws the sandbox and the challenges; the lessons are the first page's.
        let challenge = Route::Challenge("triple-charge".into());
        assert_eq!(href::<SandboxSite>(&Route::Sandbox), "#/sandbox");
        assert_eq!(href::<SandboxSite>(&challenge), "#/challenge/triple-charge");
        assert_eq!(href::<SandboxSite>(&scenario), "../#/scenario/dual-write");
        assert_eq!(
            href::<PlaygroundSite>(&challenge),
            "sandbox/#/challenge/triple-charge"
        );
        assert_eq!(up_from(SandboxSite::DIR), "../");
        assert_eq!(href::<LabSite>(&scenario), "../#/scenario/dual-write");
        // Unknown routes are the playground's to explain.
        let lost = Route::NotFound("/x".into());
        assert!(PlaygroundSite::draws(&lost) && !LabSite::draws(&lost));
        assert_eq!(PlaygroundSite::home(), Route::Scenario("the-header".into()));
        assert_eq!(LabSite::home(), Route::Lab);
    }

    #[test]
    fn every_page_hands_every_other_pages_routes_to_it() {
        let props = Route::Properties;
        assert_eq!(href::<PlaygroundSite>(&props), "properties/#/properties");
        assert_eq!(href::<LabSite>(&props), "../properties/#/properties");
        assert_eq!(href::<PropertiesSite>(&props), "#/properties");
        assert_eq!(href::<PropertiesSite>(&Route::Lab), "../lab/#/lab");
        assert_eq!(
            href::<PropertiesSite>(&Route::Sandbox),
            "../sandbox/#/sandbox"
        );
        // Each route is drawn by exactly one page.
        let routes = [
            Route::Sandbox,
            Route::Lab,
            Route::LabDatabase,
            Route::Kafka,
            Route::KafkaChallenge("kafka-reorder".into()),
            Route::Scenario("kafka-restart".into()),
            props,
            Route::Scenario("x".into()),
            Route::NotFound("/y".into()),
            Route::Durable,
            Route::DurableChallenge("durable-charge-twice".into()),
            Route::Scenario("durable-saga".into()),
            Route::Challenge("triple-charge".into()),
        ];
        for r in &routes {
            let drawn = [
                PlaygroundSite::draws(r),
                LabSite::draws(r),
                PropertiesSite::draws(r),
                KafkaSite::draws(r),
                DurableSite::draws(r),
                SandboxSite::draws(r),
            ];
            assert_eq!(drawn.iter().filter(|d| **d).count(), 1, "{r:?}");
        }
        assert_eq!(PropertiesSite::home(), Route::Properties);
        // A Kafka lesson is a scenario id drawn by the Kafka page, and handed over both ways.
        let kafka_lesson = Route::Scenario("kafka-lost-ack".into());
        assert_eq!(
            href::<PlaygroundSite>(&kafka_lesson),
            "kafka/#/scenario/kafka-lost-ack"
        );
        assert_eq!(
            href::<KafkaSite>(&Route::Scenario("double-charge".into())),
            "../#/scenario/double-charge"
        );
        assert_eq!(
            href::<KafkaSite>(&kafka_lesson),
            "#/scenario/kafka-lost-ack"
        );
        assert_eq!(href::<LabSite>(&Route::Kafka), "../kafka/#/kafka");
        // A durable lesson is a `#/scenario/<id>` the playground hands to durable/, and back.
        let saga = Route::Scenario("durable-saga".into());
        assert_eq!(
            href::<PlaygroundSite>(&saga),
            "durable/#/scenario/durable-saga"
        );
        assert_eq!(href::<DurableSite>(&saga), "#/scenario/durable-saga");
        assert_eq!(
            href::<DurableSite>(&Route::Scenario("double-charge".into())),
            "../#/scenario/double-charge"
        );
        assert_eq!(href::<LabSite>(&Route::Durable), "../durable/#/durable");
    }
}
