//! The share link of the lab: settings and schedule as `#/lab?s=<base64url JSON>`, shown in a
//! read-only field and copied on request. Opening the link restores the same lab.

use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::sim::limits::MAX_URL_BYTES;
use crate::ui::i18n::Lang;
use crate::ui::route::Route;
use crate::ui::text::view;
use crate::ui::web;

use super::persist::share_query;

/// Props of [`LabShare`].
#[derive(Properties, PartialEq)]
pub struct LabShareProps {
    /// Page language.
    pub lang: Lang,
    /// The lab as saved JSON.
    pub json: AttrValue,
}

/// Writes `text` to the clipboard when the browser offers it (a secure page that has the focus);
/// false otherwise. Looked up by name, so a browser without it is only a `false`.
async fn copy_to_clipboard(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let Ok(clipboard) = js_sys::Reflect::get(&window.navigator(), &JsValue::from_str("clipboard"))
    else {
        return false;
    };
    if !clipboard.is_object() {
        return false;
    }
    let Some(write) = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    else {
        return false;
    };
    let Some(promise) = write
        .call1(&clipboard, &JsValue::from_str(text))
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// The "copy link to this schedule" control.
#[component(LabShare)]
pub fn lab_share(props: &LabShareProps) -> Html {
    let lang = props.lang;
    let link = format!(
        "{}{}?{}",
        web::page_base(),
        Route::Lab.to_hash(),
        share_query(&props.json)
    );
    let bytes = link.len();
    let too_long = bytes > MAX_URL_BYTES;
    // None: not asked yet; Some(copied?) after the copy button.
    let copied = use_state(|| None::<bool>);
    {
        let copied = copied.clone();
        use_effect_with(link.clone(), move |_| copied.set(None));
    }
    let input_ref = use_node_ref();
    let on_copy = {
        let input_ref = input_ref.clone();
        let copied = copied.clone();
        let link = link.clone();
        Callback::from(move |_: MouseEvent| {
            // Selected either way, so Ctrl+C / ⌘C works where the clipboard is refused.
            if let Some(input) = input_ref.cast::<web_sys::HtmlInputElement>() {
                input.select();
            }
            let copied = copied.clone();
            let link = link.clone();
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(Some(copy_to_clipboard(&link).await));
            });
        })
    };
    html! {
        <section class="lab-share card" aria-labelledby="lab-share-h">
            <h3 id="lab-share-h">{ view::lab::SHARE_HEADING.get(lang) }</h3>
            <p class="muted">{ view::lab::SHARE_NOTE.get(lang) }</p>
            if too_long {
                <p class="field-error" role="alert">{ view::lab::link_too_long(lang, bytes) }</p>
            } else {
                <div class="lab-control-row">
                    <label class="lab-inline-label lab-share-label">
                        { view::lab::LINK.get(lang) }
                        <input type="text" readonly=true value={link} ref={input_ref} data-testid="lab-share-link"
                               onfocus={Callback::from(|e: FocusEvent| {
                                   e.target_unchecked_into::<web_sys::HtmlInputElement>().select();
                               })} />
                    </label>
                    <button type="button" onclick={on_copy} data-testid="lab-share-copy">
                        { view::lab::COPY_LINK.get(lang) }
                    </button>
                </div>
                { copy_status(lang, *copied) }
            }
        </section>
    }
}

/// Whether the copy button copied the link (`None` before it is pressed).
fn copy_status(lang: Lang, copied: Option<bool>) -> Html {
    match copied {
        Some(true) => html! {
            <p class="lab-note" role="status" data-testid="lab-share-status">{ view::lab::LINK_COPIED.get(lang) }</p>
        },
        Some(false) => html! {
            <p class="muted" role="status" data-testid="lab-share-status">{ view::lab::COPY_REFUSED.get(lang) }</p>
        },
        None => html! {},
    }
}
