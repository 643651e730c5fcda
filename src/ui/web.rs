//! The DOM edge, in one place: the address (hash, history, the page's own URL), event listeners
//! that unregister themselves, localStorage, the document's language, and keeping keyboard focus
//! when the control that had it goes away. Both pages use it; the
//! components around it only draw and dispatch.
//!
//! Every call here may fail (no window in a test, private mode, a full storage): a failure is an
//! empty value or `false`, never a panic, and at worst means something is not remembered.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// localStorage key of the language choice.
pub const LANG_KEY: &str = "idempotency-playground.lang";
/// localStorage key of the concurrency lab's settings and schedule (see `crate::ui::lab`).
pub const LAB_KEY: &str = "idempotency-playground.lab";
/// localStorage key of the playground's last run on any route, as earlier versions kept it (one
/// run for the whole page); still read, so a run saved by them comes back once.
pub const LAST_RUN_KEY: &str = "idempotency-playground.last-run";
/// localStorage key of the property page's settings (see `crate::ui::properties`).
pub const PROPERTIES_KEY: &str = "idempotency-playground.properties";
/// localStorage key of the predictions made on the lab's "On a real database" view.
pub const PG_GUESSES_KEY: &str = "idempotency-playground.pg-guesses";
/// localStorage key of the learner's progress: answers, done lessons, won challenges (see
/// `crate::ui::playground::teach`), shared by the playground and the lab.
pub const PROGRESS_KEY: &str = "idempotency-playground.progress";

/// localStorage key of whether the lesson list is open ("open" or "closed"), once the learner
/// has opened or folded it.
pub const TOC_KEY: &str = "idempotency-playground.toc";
/// Whether the learner left the fork panel open ("open") or folded, so a reload keeps it.
pub const FORK_KEY: &str = "idempotency-playground.fork";
/// localStorage key of the playground's last run on the route `route_hash` (e.g.
/// `#/scenario/double-charge`): each lesson and the sandbox keep their own, so Back and a reload
/// both bring a lesson back at its step.
pub fn run_key(route_hash: &str) -> String {
    format!("{LAST_RUN_KEY}:{route_hash}")
}

/// The current `location.hash` (with its `#`), empty when there is none or no window.
pub fn current_hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// The hash a `hashchange` event went to (its `newURL`), else the current one.
pub fn event_hash(event: &web_sys::Event) -> String {
    js_sys::Reflect::get(event, &wasm_bindgen::JsValue::from_str("newURL"))
        .ok()
        .and_then(|url| url.as_string())
        .map(|url| {
            url.split_once('#')
                .map(|(_, h)| format!("#{h}"))
                .unwrap_or_default()
        })
        .unwrap_or_else(current_hash)
}

/// The page's address without its hash, the base of a share link.
pub fn page_base() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// Replaces the current history entry's address with `url` (a hash such as `#/lab`) without a
/// `hashchange` and without a new entry, so Back does not return to the old address.
pub fn replace_history(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Adds a history entry for `url` (a hash such as `#/properties?n=256`) without a `hashchange`,
/// so Back returns to the address before it.
pub fn push_history(url: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(url));
    }
}

/// Sends the browser to `url` without leaving a history entry (`location.replace`).
pub fn replace_location(url: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().replace(url);
    }
}

/// A key the run pages answer: space plays or pauses, → steps, ← steps back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunKey {
    /// Space.
    TogglePlay,
    /// →.
    Step,
    /// ←.
    Back,
}

/// The run key a `keydown` event is, with its default prevented; `None` while typing in a field,
/// with a modifier held, or for space on a button or link (which space keeps activating).
pub fn key_of(e: &web_sys::Event) -> Option<RunKey> {
    let e = e.dyn_ref::<web_sys::KeyboardEvent>()?;
    let tag = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| el.tag_name())
        .unwrap_or_default();
    let in_field = matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT");
    let activates = matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY");
    if in_field || e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let key = match e.key().as_str() {
        " " if !activates => RunKey::TogglePlay,
        "ArrowRight" => RunKey::Step,
        "ArrowLeft" => RunKey::Back,
        _ => return None,
    };
    e.prevent_default();
    Some(key)
}

/// Draws the page's route again, as after a `hashchange` (the app follows that event alone): for
/// a view with no state of its own whose words have just been read (the first page's glossary).
pub fn redraw_route() {
    let event = web_sys::Event::new("hashchange");
    if let (Some(w), Ok(e)) = (web_sys::window(), event) {
        let _ = w.dispatch_event(&e);
    }
}

/// Loads the page again (`location.reload`): the other language's build of a one-language page.
pub fn reload() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
}

/// Fetches a text file beside the page (same origin) and hands its text to `done`, or `None`
/// when it could not be fetched (offline on a first visit, a missing file).
pub fn fetch_text(url: &str, done: impl FnOnce(Option<String>) + 'static) {
    let Some(w) = web_sys::window() else {
        return done(None);
    };
    let promise = w.fetch_with_str(url);
    wasm_bindgen_futures::spawn_local(async move {
        let text = async {
            let response: web_sys::Response = wasm_bindgen_futures::JsFuture::from(promise)
                .await
                .ok()?
                .dyn_into()
                .ok()?;
            if !response.ok() {
                return None;
            }
            let text = wasm_bindgen_futures::JsFuture::from(response.text().ok()?)
                .await
                .ok()?;
            text.as_string()
        };
        done(text.await);
    });
}

/// Opens the browser's print dialog (`window.print`); the page's print style shows the card
/// being printed alone.
pub fn print() {
    if let Some(w) = web_sys::window() {
        let _ = w.print();
    }
}

/// The browser's preferred language (`navigator.language`), empty when unknown.
pub fn browser_language() -> String {
    web_sys::window()
        .and_then(|w| w.navigator().language())
        .unwrap_or_default()
}

/// Sets `<html lang>`, so screen readers and fonts follow the page's language.
pub fn set_document_lang(code: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", code);
    }
}

/// Reads a localStorage value; `None` when absent or storage is unavailable.
pub fn load(key: &str) -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(key)
        .ok()?
}

/// Writes a localStorage value; returns false when storage is unavailable or full.
pub fn save(key: &str, value: &str) -> bool {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return false;
    };
    storage.set_item(key, value).is_ok()
}

/// Deletes a localStorage value (nothing happens when storage is unavailable).
pub fn remove(key: &str) {
    if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = storage.remove_item(key);
    }
}

// ---- focus ----------------------------------------------------------------------------------
//
// A control the learner used can vanish or turn disabled in the render its action causes (Run
// to end at the end, a lab request that finished, "Restore the lesson", a lesson link whose
// page is drawn anew). The browser then drops focus to the body, and a keyboard user starts
// over from the top. The page remembers which control had focus and, after each render, puts
// focus back on it, or on the nearest control that still works.

thread_local! {
    /// How to find the control that had focus (`Some("")`: one with no stable name), cleared
    /// when the learner points somewhere, so a click on blank page is never undone.
    static FOCUSED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// The listeners that keep `FOCUSED`, registered by the first [`restore_focus`] (when a page
    /// first renders) and kept for the page's life.
    static TRACKING: std::cell::RefCell<Option<(Listener, Listener)>> = const { std::cell::RefCell::new(None) };
}

/// A selector that finds `el` again after a render: its test id, its link, or its id.
fn selector_of(el: &web_sys::Element) -> String {
    if let Some(id) = el.get_attribute("data-testid") {
        format!("[data-testid=\"{id}\"]")
    } else if let Some(href) = el.get_attribute("href").filter(|_| el.tag_name() == "A") {
        format!("a[href=\"{href}\"]")
    } else if !el.id().is_empty() {
        format!("#{}", el.id())
    } else {
        String::new()
    }
}

/// Follows which control has focus, for [`restore_focus`]; the listeners stop when dropped.
fn track_focus() -> Option<(Listener, Listener)> {
    let focusin = Listener::on_document("focusin", |e: web_sys::Event| {
        let el = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        FOCUSED.with(|f| *f.borrow_mut() = el.map(|el| selector_of(&el)));
    })?;
    // A press anywhere forgets it; a press on a control gives it focus again at once.
    let pointer =
        Listener::on_document("pointerdown", |_| FOCUSED.with(|f| *f.borrow_mut() = None))?;
    Some((focusin, pointer))
}

/// Moves focus to the first element `to` matches when the focused element matches `from`
/// (after "Next", to the new lesson's heading: the link stays where it was and now names the
/// lesson after, so a second Enter would skip one).
pub fn move_focus(from: &str, to: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // On `from`, or on nothing since a control of `from` had it and went (the last lesson has no
    // "Next": the link the learner pressed is gone, and a waiting question took focus instead).
    let active = doc.active_element();
    let on_from = active
        .as_ref()
        .is_some_and(|a| a.matches(from).unwrap_or(false));
    let had = FOCUSED.with(|f| f.borrow().as_deref().map(|s| s.replace('"', "")));
    let lost = active.is_none_or(|a| a.tag_name() == "BODY");
    let on_from = on_from || (lost && had.is_some_and(|h| from.split(", ").any(|f| f == h)));
    let target = doc.query_selector(to).ok().flatten();
    if let (true, Some(el)) = (
        on_from,
        target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()),
    ) {
        let _ = el.focus();
    }
}

/// Called after a render that may take a control away: if focus was dropped (nothing focused
/// but the body, or a disabled control), focuses the control that had it, found again by its
/// selector, else the first of `fallbacks` (selectors) that is there and enabled. Does nothing
/// when focus was not lost. The first call starts following focus.
pub fn restore_focus(fallbacks: &[&str]) {
    TRACKING.with(|t| {
        if t.borrow().is_none() {
            *t.borrow_mut() = track_focus();
        }
    });
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let lost = doc
        .active_element()
        .is_none_or(|a| a.tag_name() == "BODY" || a.has_attribute("disabled"));
    let Some(had) = FOCUSED.with(|f| f.borrow().clone()).filter(|_| lost) else {
        return;
    };
    let usable = |selector: &str| {
        doc.query_selector(&format!("{selector}:not([disabled])"))
            .ok()
            .flatten()
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
    };
    let target = std::iter::once(had.as_str())
        .filter(|s| !s.is_empty())
        .chain(fallbacks.iter().copied())
        .find_map(usable);
    if let Some(el) = target {
        let _ = el.focus();
    }
}

/// Focuses the first element `selector` matches once the page has drawn what the event being
/// handled changes (a task later, after the render and its effects): the verdict that replaces
/// an answered question's choices, where the learner is looking (the run's Step, which the
/// page's focus keeping would pick, sits further down and scrolled the verdict off a phone).
pub fn focus_after_render(selector: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(selector).ok().flatten())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(el) = el {
            let _ = el.focus();
        }
    })
    .forget();
}

/// Scrolls the first element `selector` matches to the middle of the screen once the page has
/// drawn what the event being handled changes: the step an answer's "why" links to, which on a
/// phone sits screens below the answer (its timeline row or caption).
pub fn scroll_after_render(selector: &'static str) {
    gloo_timers::callback::Timeout::new(0, move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(selector).ok().flatten());
        if let Some(el) = el {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Center);
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    })
    .forget();
}

/// A registered DOM event listener; dropping it unregisters the callback, so an effect's cleanup
/// is just dropping it (window `hashchange`, document `keydown`).
pub struct Listener {
    target: web_sys::EventTarget,
    event: &'static str,
    callback: Closure<dyn Fn(web_sys::Event)>,
}

impl Listener {
    /// Listens for `event` on `target`; `None` if the browser refused the registration.
    pub fn new(
        target: web_sys::EventTarget,
        event: &'static str,
        f: impl Fn(web_sys::Event) + 'static,
    ) -> Option<Listener> {
        let callback = Closure::<dyn Fn(web_sys::Event)>::new(f);
        target
            .add_event_listener_with_callback(event, callback.as_ref().unchecked_ref())
            .ok()?;
        Some(Listener {
            target,
            event,
            callback,
        })
    }

    /// Listens on `window`.
    pub fn on_window(
        event: &'static str,
        f: impl Fn(web_sys::Event) + 'static,
    ) -> Option<Listener> {
        Listener::new(web_sys::window()?.into(), event, f)
    }

    /// Listens on `document`.
    pub fn on_document(
        event: &'static str,
        f: impl Fn(web_sys::Event) + 'static,
    ) -> Option<Listener> {
        Listener::new(web_sys::window()?.document()?.into(), event, f)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = self.target.remove_event_listener_with_callback(
            self.event,
            self.callback.as_ref().unchecked_ref(),
        );
    }
}
