//! The durable-execution page's entry point, built by Trunk from durable/index.html. A wasm of
//! its own, so the playground page does not download it.

fn main() {
    idempotency_playground::ui::start::<idempotency_playground::ui::durable::DurableSite>();
}
