//! localStorage at the edge: every read and write may fail (private mode, quota), and a failure
//! only means the state is not remembered, never a broken page.

/// Reads a value; `None` when absent or storage is unavailable.
pub fn load(key: &str) -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(key)
        .ok()?
}

/// Writes a value; returns false when storage is unavailable or full.
pub fn save(key: &str, value: &str) -> bool {
    let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) else {
        return false;
    };
    storage.set_item(key, value).is_ok()
}

/// Storage keys, named once.
pub const LANG_KEY: &str = "idempotency-playground.lang";
/// The concurrency lab's settings and schedule (see `crate::ui::lab`).
pub const LAB_KEY: &str = "idempotency-playground.lab";
