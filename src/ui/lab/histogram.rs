//! The explorer's outcome histogram: one bar per way the schedules ended, labelled in words and
//! numbers (the bar length repeats the number; colour marks double charges but the text says so).

use yew::prelude::*;

use crate::sim::lab::OutcomeGroup;
use crate::ui::i18n::Lang;
use crate::ui::text::lab::group_label;
use crate::ui::text::{grouped_wide, view};

/// Props of [`OutcomeHistogram`].
#[derive(Properties, PartialEq)]
pub struct OutcomeHistogramProps {
    /// Page language.
    pub lang: Lang,
    /// The groups to draw.
    pub groups: Vec<OutcomeGroup>,
    /// Schedules in total (the 100 % of the bars).
    pub total: u128,
}

/// Bars of schedules per outcome.
#[component(OutcomeHistogram)]
pub fn outcome_histogram(props: &OutcomeHistogramProps) -> Html {
    let lang = props.lang;
    let total = props.total.max(1);
    html! {
        <ul class="lab-histogram" data-testid="explorer-histogram">
            { for props.groups.iter().map(|g| {
                // Percent with one decimal, computed in integers so huge counts stay exact.
                let per_mille = g.schedules.saturating_mul(1000) / total;
                let percent = format!("{}.{}", per_mille / 10, per_mille % 10);
                let width = format!("width: {}%", (per_mille as f64 / 10.0).clamp(0.5, 100.0));
                html! {
                    <li class={classes!("lab-bar-row", g.key.double_charged.then_some("lab-bad"))}>
                        <span class="lab-bar-label">
                            { group_label(lang, g.key) }
                            if g.key.double_charged {
                                <strong>{ view::lab::DOUBLE_CHARGE_MARK.get(lang) }</strong>
                            }
                        </span>
                        <span class="lab-bar-track" aria-hidden="true"><span class="lab-bar" style={width}></span></span>
                        <span class="lab-bar-count">{ format!("{}{}", grouped_wide(g.schedules), crate::ui::text::aside(lang, &format!("{percent}%"))) }</span>
                    </li>
                }
            }) }
        </ul>
    }
}
