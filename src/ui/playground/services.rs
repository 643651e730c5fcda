//! Which services run the scenario, side by side: a checkbox per service, on every scenario page
//! and in the sandbox. A change re-runs the same inputs on the new set of columns.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::Scenario;
use crate::sim::ServiceKind;
use crate::ui::i18n::Lang;
use crate::ui::text::{self, view};

use super::sandbox_form::Change;

/// The scenario with `kind` added (in the usual column order) or, if present, removed.
pub fn toggled(scenario: &Scenario, kind: ServiceKind) -> Scenario {
    let mut s = scenario.clone();
    if s.services.iter().any(|c| c.kind() == kind) {
        s.services.retain(|c| c.kind() != kind);
    } else {
        s.services.push(kind.into());
        // A stable insertion sort by column order: a handful of columns, and std's stable sort
        // (driftsort) weighed about 2 KB of the gzipped wasm.
        let rank =
            |c: &crate::sim::ServiceSpec| ServiceKind::ALL.iter().position(|x| *x == c.kind());
        for i in 1..s.services.len() {
            let mut j = i;
            while j > 0 && rank(&s.services[j - 1]) > rank(&s.services[j]) {
                s.services.swap(j - 1, j);
                j -= 1;
            }
        }
    }
    s
}

/// A checkbox per service, for `scenario`; a change goes to `on_change` (a function, not a
/// component: it holds no state, and a component's machinery weighs on the sandbox's budget).
pub fn service_picker(l: Lang, scenario: &Rc<Scenario>, on_change: &Callback<Change>) -> Html {
    let boxes = ServiceKind::ALL.iter().map(|&kind| {
        let checked = scenario.services.iter().any(|c| c.kind() == kind);
        let (this, on) = (scenario.clone(), on_change.clone());
        let onchange = Callback::from(move |_| on.emit(Change::Replace(toggled(&this, kind))));
        html! {
            <label class="check" title={text::service_blurb(l, kind)}>
                <input type="checkbox" checked={checked} {onchange} data-testid={format!("pick-{kind:?}")} />
                { text::policies::picker_name(l, kind, scenario.policies.failure_caching) }
            </label>
        }
    });
    html! {
        <fieldset class="service-picker">
            <legend>{ view::playground::SERVICES_LEGEND.get(l) }</legend>
            { for boxes }
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toggling_adds_in_column_order_and_removes_every_column_of_a_kind() {
        let s = crate::sim::builtin("double-charge").unwrap();
        let with_toctou = toggled(&s, ServiceKind::TocTou);
        let kinds: Vec<ServiceKind> = with_toctou.services.iter().map(|c| c.kind()).collect();
        assert_eq!(
            kinds,
            [
                ServiceKind::Naive,
                ServiceKind::Idempotent,
                ServiceKind::TocTou,
                ServiceKind::Atomic
            ]
        );
        assert_eq!(toggled(&with_toctou, ServiceKind::TocTou), s);
        let outbox = crate::sim::builtin("outbox-relay-crash").unwrap();
        assert!(toggled(&outbox, ServiceKind::Atomic).services.is_empty());
    }
}
