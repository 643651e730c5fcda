//! Share link, JSON export and import. The page validates what comes back in; this panel only
//! moves text.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use crate::sim::limits::{MAX_JSON_BYTES, MAX_URL_BYTES};
use crate::ui::i18n::{tr, Lang};
use crate::ui::share::b64url_encode;
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
        <section class="card share" aria-labelledby="share-h">
            <h2 id="share-h">{ l.t("Share, save, import", "共有・保存・読み込み") }</h2>
            <p class="muted">{ l.t(
                "The link holds the seed and every input, and opens at this step. Your last run is also kept in this browser.",
                "リンクにはシードとすべての入力が入っていて、このステップで開く。直前の実行はこのブラウザにも保存される。") }</p>
            if too_long {
                <p class="notice error">{ tr!(l, "This run is too long for a link ({link_len} bytes, limit {MAX_URL_BYTES}). Export it as JSON instead.", "この実行はリンクには長すぎる（{link_len} バイト、上限 {MAX_URL_BYTES}）。JSONで書き出してください。") }</p>
            } else {
                <label>{ l.t("Share link", "共有リンク") }
                    <input type="text" readonly=true value={link.clone()} data-testid="share-link"
                           onfocus={Callback::from(|e: FocusEvent| {
                               let i: web_sys::HtmlInputElement = e.target_unchecked_into();
                               i.select();
                           })} />
                </label>
                <p><a href={link} data-testid="share-open">{ l.t("Open this link", "このリンクを開く") }</a></p>
            }
            <p><a href={download} download="idempotency-scenario.json" data-testid="export">{ l.t("Download JSON", "JSONをダウンロード") }</a></p>
            // Kept open while it has something to say, so the message is not folded away.
            <details open={p.import_notice.is_some()}>
                <summary>{ l.t("Import JSON", "JSONを読み込む") }</summary>
                <label>{ tr!(l, ["Paste a scenario (at most {} KB)", MAX_JSON_BYTES / 1024], ["シナリオを貼り付ける（最大 {} KB）", MAX_JSON_BYTES / 1024]) }
                    <textarea ref={import_ref} data-testid="import-text" spellcheck="false" />
                </label>
                <button onclick={on_import} data-testid="import">{ l.t("Import", "読み込む") }</button>
                { for p.import_notice.as_ref().map(|n| match n {
                    super::Notice::Error(t) => html! { <p class="notice error" role="alert" data-testid="import-notice">{ t.clone() }</p> },
                    super::Notice::Info(t) => html! { <p class="notice info" role="status" data-testid="import-notice">{ t.clone() }</p> },
                }) }
            </details>
            <details>
                <summary>{ l.t("This run as JSON", "この実行のJSON") }</summary>
                <textarea readonly=true value={json_text} aria-label={l.t("Scenario JSON", "シナリオのJSON")} />
            </details>
        </section>
    }
}
