//! The playground page's entry point (scenarios and the sandbox), built by Trunk from index.html.

fn main() {
    idempotency_playground::ui::start::<idempotency_playground::ui::playground::PlaygroundSite>();
}
