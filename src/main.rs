//! The page's entry point, built by Trunk from index.html.

fn main() {
    idempotency_playground::ui::start();
}
