//! The sandbox page's entry point (the sandbox and the challenges), built by Trunk from
//! sandbox/index.html. A wasm of its own, so the first page (the lessons) does not download the
//! sandbox form.

fn main() {
    idempotency_playground::ui::start::<idempotency_playground::ui::playground::SandboxSite>();
}
