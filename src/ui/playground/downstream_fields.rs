//! The sandbox's settings beyond the server (issue 13): the card processor's answer time, a slow
//! answer's time, passing the key on, recovery points, the split store's capacity and what its
//! service does when the store is unreachable. Every control is a select or a checkbox over the
//! core's own values, so nothing typed can break a limit; an imported scenario is checked by the
//! core (`Downstream::validate`) and its message shown like any other.

use std::rc::Rc;

use yew::prelude::*;

use crate::sim::{OutagePolicy, Scenario};
use crate::ui::i18n::Lang;
use crate::ui::text::downstream::{labels, outage_name};
use crate::ui::text::view;

use super::sandbox_form::{by_id, Change};
use super::scenario_settings::{setting, toggle};

/// The processor answer times offered, in ms (0: no processor, the article's world).
const PROCESSOR_MS: [u64; 4] = [0, 200, 1_000, 5_000];
/// The slow answer times offered, in ms (120 s: past rocket-rides' 90 s lock).
const SLOW_MS: [u64; 3] = [30_000, 120_000, 300_000];
/// The key store capacities offered (0: no limit).
const CAPACITY: [u32; 4] = [0, 1, 2, 10];

/// A duration select's options: `values`, and `now` as itself if it is not one of them (a value
/// loaded from a link that the menu does not offer).
fn ms_options(l: Lang, values: &[u64], now: u64) -> Html {
    let mut all = values.to_vec();
    if !all.contains(&now) {
        all.push(now);
    }
    all.into_iter()
        .map(|v| html! { <option value={v.to_string()} selected={v == now}>{ view::playground::duration_option(l, v) }</option> })
        .collect::<Html>()
}

/// The fieldset; `scenario` is the run's, `on_change` takes the changed copy.
pub fn downstream_fields(l: Lang, scenario: &Rc<Scenario>, on_change: &Callback<Change>) -> Html {
    let t = labels(l);
    let d = scenario.downstream;
    let on_processor = setting(scenario, on_change, |s, v| {
        let ms = v.parse::<u64>().ok().filter(|m| PROCESSOR_MS.contains(m))?;
        s.downstream.processor_ms = ms;
        Some(())
    });
    let on_slow = setting(scenario, on_change, |s, v| {
        let ms = v.parse::<u64>().ok().filter(|m| SLOW_MS.contains(m))?;
        s.downstream.slow_ms = ms;
        Some(())
    });
    let on_capacity = setting(scenario, on_change, |s, v| {
        let n = v.parse::<u32>().ok().filter(|n| CAPACITY.contains(n))?;
        s.downstream.store_capacity = n;
        Some(())
    });
    let on_outage = setting(scenario, on_change, |s, v| {
        by_id(OutagePolicy::ALL, OutagePolicy::id, v).map(|o| s.downstream.outage = o)
    });
    let on_pass = toggle(scenario, on_change, |s| {
        s.downstream.pass_key = !s.downstream.pass_key
    });
    let on_recovery = toggle(scenario, on_change, |s| {
        s.downstream.recovery_points = !s.downstream.recovery_points
    });
    // A value loaded from a link that the menu does not offer is shown as itself.
    let mut capacities = CAPACITY.to_vec();
    if !capacities.contains(&d.store_capacity) {
        capacities.push(d.store_capacity);
    }
    html! {
        <fieldset data-testid="downstream-fields">
            <legend>{ t.legend }</legend>
            <label>{ t.processor_ms }
                <select onchange={on_processor} data-testid="processor-ms">{ ms_options(l, &PROCESSOR_MS, d.processor_ms) }</select></label>
            <label>{ t.slow_ms }
                <select onchange={on_slow} data-testid="slow-ms">{ ms_options(l, &SLOW_MS, d.slow_ms) }</select></label>
            <label class="check"><input type="checkbox" checked={d.pass_key} onchange={on_pass} data-testid="pass-key" />{ t.pass_key }</label>
            <label class="check"><input type="checkbox" checked={d.recovery_points} onchange={on_recovery} data-testid="recovery-points" />{ t.recovery_points }</label>
            <label>{ t.store_capacity }
                <select onchange={on_capacity} data-testid="store-capacity">
                    { for capacities.into_iter().map(|n| html! {
                        <option value={n.to_string()} selected={n == d.store_capacity}>{ n.to_string() }</option> }) }
                </select></label>
            <label>{ t.outage }
                <select onchange={on_outage} data-testid="outage">
                    { for OutagePolicy::ALL.iter().map(|o| html! {
                        <option value={o.id()} selected={*o == d.outage}>{ outage_name(l, *o) }</option> }) }
                </select></label>
            <p class="muted policy-note">{ t.hint }</p>
        </fieldset>
    }
}
