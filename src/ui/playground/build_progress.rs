//! A run being built: how far it has got, and a button that cancels it. A long run (an import or
//! a saved run of tens of thousands of events) is built a slice at a time between frames, so the
//! page answers clicks while it builds.

use yew::prelude::*;

use crate::ui::i18n::Lang;
use crate::ui::text::view;

/// What [`build_progress`] draws.
#[derive(PartialEq)]
pub struct BuildProgressProps {
    /// Page language.
    pub lang: Lang,
    /// Trace events recorded so far, and the most the run can record.
    pub progress: (u64, u64),
    /// Drops the build.
    pub on_cancel: Callback<()>,
}

/// The progress bar and its Cancel button.
pub fn build_progress(p: &BuildProgressProps) -> Html {
    let l = p.lang;
    let (done, bound) = p.progress;
    // The bound is what the inputs could cost at most; most runs end well before it, so the bar
    // runs ahead of a fraction and jumps to the end.
    let per_mille = done.saturating_mul(1000) / bound.max(1);
    html! {
        <div class="build-progress" role="status" data-testid="build-progress">
            <p>{ view::playground::building_so_far(l, done) }</p>
            <progress max="1000" value={per_mille.to_string()}
                      aria-label={view::playground::BUILDING_THE_RUN.get(l)}></progress>
            <button data-testid="build-cancel" onclick={p.on_cancel.reform(|_: MouseEvent| ())}>
                { view::playground::CANCEL_BUILD.get(l) }</button>
        </div>
    }
}
