//! Browser benchmark (make bench): step latency of the playground page, from dispatch to the DOM
//! being updated, with 10,000 store rows and 10,000+ trace events per service. Not part of
//! `make test`: it measures, it does not assert a speed.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use std::rc::Rc;

use idempotency_playground::ui::i18n::Lang;
use idempotency_playground::ui::playground::{Playground, PlaygroundProps};
use idempotency_playground::ui::route::Route;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now() -> f64 {
    web_sys::window().unwrap().performance().unwrap().now()
}

fn click(root: &web_sys::Element, selector: &str) {
    let el: web_sys::HtmlElement = root
        .query_selector(selector)
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    el.click();
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let ix = ((v.len() as f64 - 1.0) * p).round() as usize;
    v[ix]
}

/// The 12 slowest of `v`, slowest first, each with its index.
fn slowest(v: &[f64]) -> String {
    let mut ix: Vec<usize> = (0..v.len()).collect();
    ix.sort_by(|a, b| v[*b].partial_cmp(&v[*a]).unwrap());
    ix.iter()
        .take(12)
        .map(|i| format!("#{i} {:.1}", v[*i]))
        .collect::<Vec<_>>()
        .join(", ")
}

#[wasm_bindgen_test]
async fn step_latency_with_10k_rows() {
    const CHARGES: usize = 10_000;
    let scenario = idempotency_playground::workload::many_charges(CHARGES);
    let doc = web_sys::window().unwrap().document().unwrap();
    let div = doc.create_element("div").unwrap();
    doc.body().unwrap().append_child(&div).unwrap();
    let t0 = now();
    let props = PlaygroundProps {
        lang: Lang::En,
        route: Route::Sandbox,
        initial: Some(Rc::new(scenario)),
        dir: "sandbox/",
        tools: idempotency_playground::ui::playground::Tools::SANDBOX,
        staged: false,
    };
    yew::Renderer::<Playground>::with_root_and_props(div.clone(), props).render();
    yew::scheduler::flush().await;
    let load_ms = now() - t0;
    click(&div, "[data-testid=run-to-end]");
    yew::scheduler::flush().await;
    let rows = div
        .query_selector_all("section[data-service=atomic] [data-testid=store] tr[data-key]")
        .unwrap()
        .length();
    let position = div
        .query_selector("[data-testid=position]")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    // Step back 200 times from the end (replay from a checkpoint), then forward 200 times.
    let mut back = Vec::new();
    for _ in 0..200 {
        let t = now();
        click(&div, "[data-testid=back]");
        yew::scheduler::flush().await;
        back.push(now() - t);
    }
    let mut fwd = Vec::new();
    for _ in 0..200 {
        let t = now();
        click(&div, "[data-testid=step]");
        yew::scheduler::flush().await;
        fwd.push(now() - t);
    }
    let after = div
        .query_selector("[data-testid=position]")
        .unwrap()
        .unwrap()
        .text_content()
        .unwrap();
    assert_eq!(after, position, "200 back + 200 forward returns to the end");
    console_log!(
        "ui-bench: slowest step-backs (index from the end, ms): {}",
        slowest(&back)
    );
    console_log!("ui-bench: slowest step-forwards: {}", slowest(&fwd));
    console_log!(
        "ui-bench: {CHARGES} charges x 3 services, {position}; first render {load_ms:.0} ms; {rows} store rows drawn (newest); \
         step forward p50 {:.2} ms p95 {:.2} ms max {:.2} ms; step back p50 {:.2} ms p95 {:.2} ms max {:.2} ms",
        percentile(&mut fwd.clone(), 0.5), percentile(&mut fwd.clone(), 0.95), percentile(&mut fwd, 1.0),
        percentile(&mut back.clone(), 0.5), percentile(&mut back.clone(), 0.95), percentile(&mut back, 1.0)
    );
    div.remove();
}
