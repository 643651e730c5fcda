//! Share link, JSON export and import. The page validates what comes back in; this panel only
//! moves text.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::sim::limits::MAX_URL_BYTES;
use crate::ui::i18n::Lang;
use crate::ui::share::b64url_encode;
use crate::ui::text::view;
use crate::ui::web;

/// Props of the share panel. Equality compares the JSON by pointer: it is replaced, never
/// edited, so a new `Rc` means a new script and comparing 60 KB of text each step is avoided.
#[derive(Properties)]
pub struct SharePanelProps {
    /// Page language.
    pub lang: Lang,
    /// The current scenario as JSON.
    pub json: std::rc::Rc<String>,
    /// The current step.
    pub position: usize,
    /// The route part of the hash, e.g. `#/sandbox`.
    pub route_hash: String,
    /// Called with pasted JSON when the learner imports.
    pub on_import: Callback<String>,
    /// The outcome of the last import, shown under the Import button.
    pub import_notice: Option<super::Notice>,
}

impl PartialEq for SharePanelProps {
    fn eq(&self, o: &Self) -> bool {
        self.lang == o.lang
            && std::rc::Rc::ptr_eq(&self.json, &o.json)
            && self.position == o.position
            && self.route_hash == o.route_hash
            && self.on_import == o.on_import
            && self.import_notice == o.import_notice
    }
}

/// The share / export / import panel.
#[function_component(SharePanel)]
pub fn share_panel(p: &SharePanelProps) -> Html {
    let l = p.lang;
    // Encoding a long run is the expensive part: do it once per script, not once per step.
    let json_id = std::rc::Rc::as_ptr(&p.json) as usize;
    let encoded = {
        let json = p.json.clone();
        use_memo(json_id, move |_| {
            let download = format!(
                "data:application/json;charset=utf-8,{}",
                String::from(js_sys::encode_uri_component(&json))
            );
            (
                AttrValue::from(b64url_encode(json.as_bytes())),
                AttrValue::from(download),
                AttrValue::from(json.to_string()),
            )
        })
    };
    let (b64, download, json_text) = (*encoded).clone();
    let base = web::page_base();
    let link_len = base.len() + p.route_hash.len() + b64.len() + 24;
    let too_long = link_len > MAX_URL_BYTES;
    let link = if too_long {
        String::new()
    } else {
        format!("{base}{}?s={b64}&k={}", p.route_hash, p.position)
    };
    let import_ref = use_node_ref();
    html! {
        <section class="card share" aria-labelledby="share-h">
            <h2 id="share-h">{ view::playground::SHARE_HEADING.get(l) }</h2>
            <p class="muted">{ view::playground::SHARE_NOTE.get(l) }</p>
            if too_long {
                <p class="notice error">{ view::playground::link_too_long(l, link_len) }</p>
            } else {
                <label>{ view::playground::SHARE_LINK.get(l) }
                    <input type="text" readonly=true value={link.clone()} data-testid="share-link"
                           onfocus={Callback::from(|e: FocusEvent| {
                               let i: web_sys::HtmlInputElement = e.target_unchecked_into();
                               i.select();
                           })} />
                </label>
                <p><a href={link} data-testid="share-open">{ view::playground::OPEN_LINK.get(l) }</a></p>
            }
            <p><a href={download} download="idempotency-scenario.json" data-testid="export">{ view::playground::DOWNLOAD_JSON.get(l) }</a></p>
            { import_fold(p, import_ref) }
            <details>
                <summary>{ view::playground::RUN_AS_JSON.get(l) }</summary>
                <textarea readonly=true value={json_text} aria-label={view::playground::SCENARIO_JSON.get(l)} />
            </details>
        </section>
    }
}

/// The import fold: a box to paste a scenario into, its button, and the last import's outcome.
/// The box is `import_ref`.
fn import_fold(p: &SharePanelProps, import_ref: NodeRef) -> Html {
    let l = p.lang;
    let on_import = {
        let import_ref = import_ref.clone();
        let cb = p.on_import.clone();
        Callback::from(move |_| {
            if let Some(area) = import_ref.cast::<HtmlTextAreaElement>() {
                cb.emit(area.value());
            }
        })
    };
    html! {
        // Kept open while it has something to say, so the message is not folded away.
        <details open={p.import_notice.is_some()}>
            <summary>{ view::playground::IMPORT_JSON.get(l) }</summary>
            <label>{ view::playground::paste_scenario(l) }
                <textarea ref={import_ref} data-testid="import-text" spellcheck="false" />
            </label>
            <button onclick={on_import} data-testid="import">{ view::playground::IMPORT.get(l) }</button>
            { for p.import_notice.as_ref().map(|n| match n {
                super::Notice::Error(t) => html! { <p class="notice error" role="alert" data-testid="import-notice">{ t.clone() }</p> },
                super::Notice::Info(t) => html! { <p class="notice info" role="status" data-testid="import-notice">{ t.clone() }</p> },
            }) }
        </details>
    }
}
