//! The article's tests, unchanged, against the crate root (`use idempotency_playground::*;`).
//! The thread-free tests live in `article_shared/thread_free.rs` so that `article_wasm.rs` runs
//! the very same text in headless Chrome; the 10-thread test needs OS threads and stays native.
#![cfg(not(target_arch = "wasm32"))]

use idempotency_playground::*;

include!("article_shared/thread_free.rs");

#[test]
fn atomic_service_prevents_concurrent_double_charge() {
    use std::sync::{Arc, Barrier};
    use std::thread;

    let svc = AtomicIdempotentService::new(1000);
    let barrier = Arc::new(Barrier::new(10));
    let mut handles = Vec::new();

    // 10スレッドが全く同じキーで同時にcharge
    for _ in 0..10 {
        let svc = svc.clone();
        let barrier = Arc::clone(&barrier);
        handles.push(thread::spawn(move || {
            barrier.wait(); // 全スレッドの足並みを揃える
            svc.charge("same-key", 100)
        }));
    }

    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();

    let success_count = results
        .iter()
        .filter(|r| matches!(r, PaymentResult::Success { .. }))
        .count();
    let duplicate_count = results
        .iter()
        .filter(|r| matches!(r, PaymentResult::DuplicateRequest { .. }))
        .count();

    assert_eq!(success_count, 1, "exactly one should succeed");
    assert_eq!(duplicate_count, 9, "rest should be duplicates");
    assert_eq!(
        svc.balance(),
        900,
        "balance should reflect exactly one charge"
    );
    assert_eq!(svc.operation_count(), 1);
}
