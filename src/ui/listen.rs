//! A DOM event listener that removes itself when dropped, so an effect's cleanup is just
//! dropping it (window `hashchange`, document `keydown`).

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// A registered listener; dropping it unregisters the callback.
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
