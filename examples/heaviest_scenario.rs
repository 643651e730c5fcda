//! Prints the heaviest scenario the limits accept (`workload::heaviest_accepted`) as scenario
//! JSON, for the page-load benchmark (`benches/longtask.mjs`, run by `make bench`), which
//! imports it into the page and reloads it.
fn main() {
    print!(
        "{}",
        idempotency_playground::workload::heaviest_accepted().to_json()
    );
}
