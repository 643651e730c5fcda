// The article's thread-free tests and its two proptest properties, as written in the article.
// Included by tests/article.rs (native) and tests/article_wasm.rs (headless Chrome), so the same
// text runs on both targets. The only change is marked below.

#[test]
fn naive_service_double_charges_on_retry() {
    let mut svc = NaivePaymentService::new(1000);

    let r1 = svc.charge(100, "order-123");
    assert_eq!(r1, PaymentResult::Success { balance: 900 });

    // "ネットワークタイムアウト" -- クライアントが同じ操作をリトライ
    let r2 = svc.charge(100, "order-123");
    assert_eq!(r2, PaymentResult::Success { balance: 800 });

    // 残高が1000→800。本来は900であるべき
    assert_eq!(svc.balance(), 800);
    assert_eq!(svc.operation_count(), 2);
}

#[test]
fn idempotent_service_handles_retry() {
    let mut svc = IdempotentPaymentService::new(1000);

    let r1 = svc.charge("idem-key-001", 100, "order-123");
    assert_eq!(r1, PaymentResult::Success { balance: 900 });

    // 同じ冪等性キーでリトライ
    let r2 = svc.charge("idem-key-001", 100, "order-123");
    assert!(matches!(r2, PaymentResult::DuplicateRequest { .. }));

    // 残高は900のまま。二重課金なし
    assert_eq!(svc.balance(), 900);
    assert_eq!(svc.operation_count(), 1);
}

#[test]
fn different_idempotency_keys_are_independent() {
    let mut svc = IdempotentPaymentService::new(1000);

    svc.charge("key-1", 100, "order-1");
    svc.charge("key-2", 200, "order-2");
    svc.charge("key-3", 300, "order-3");

    assert_eq!(svc.balance(), 400);
    assert_eq!(svc.operation_count(), 3);
}

#[test]
fn idempotent_service_caches_failure_too() {
    let mut svc = IdempotentPaymentService::new(50);

    // 残高50に対して100の課金 → 残高不足
    let r1 = svc.charge("key-fail", 100, "big-order");
    assert!(matches!(r1, PaymentResult::InsufficientFunds { .. }));

    // 同じキーでリトライ → キャッシュされた失敗を返す
    let r2 = svc.charge("key-fail", 100, "big-order");
    assert!(matches!(r2, PaymentResult::DuplicateRequest { .. }));
    if let PaymentResult::DuplicateRequest { original_result } = r2 {
        assert!(matches!(
            *original_result,
            PaymentResult::InsufficientFunds { .. }
        ));
    }
}

use proptest::prelude::*;

proptest! {
    #[test]
    fn idempotent_retry_never_changes_balance(
        initial_balance in 1000i64..10000,
        amount in 1i64..500,
        num_retries in 1usize..50,
    ) {
        let mut svc = IdempotentPaymentService::new(initial_balance);

        let first = svc.charge("test-key", amount, "test");
        let expected_balance = match first {
            PaymentResult::Success { balance } => balance,
            PaymentResult::InsufficientFunds { balance } => balance,
            _ => panic!("first call should not be duplicate"),
        };

        for _ in 0..num_retries {
            svc.charge("test-key", amount, "test");
        }

        prop_assert_eq!(svc.balance(), expected_balance);
        prop_assert!(svc.operation_count() <= 1);
    }
}

proptest! {
    #[test]
    fn unique_keys_process_independently(
        num_operations in 1usize..20,
        amount in 1i64..100,
    ) {
        let initial = (num_operations as i64) * amount + 1000;
        let mut svc = IdempotentPaymentService::new(initial);

        for i in 0..num_operations {
            let key = format!("key-{i}");
            let result = svc.charge(&key, amount, "op");
            // The one change to the article: without a message, prop_assert! turns the expression
            // into a format string and the `{ .. }` in it does not compile; a message avoids that.
            prop_assert!(matches!(result, PaymentResult::Success { .. }), "not Success");
        }

        let expected = initial - (num_operations as i64) * amount;
        prop_assert_eq!(svc.balance(), expected);
        prop_assert_eq!(svc.operation_count(), num_operations);
    }
}
