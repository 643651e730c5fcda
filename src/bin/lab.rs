//! The concurrency lab page's entry point, built by Trunk from lab/index.html. A wasm of its own,
//! so the playground page does not download the lab.

fn main() {
    idempotency_playground::ui::start::<idempotency_playground::ui::lab::LabSite>();
}
