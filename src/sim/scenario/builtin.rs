//! The built-in scenarios, as data, with stable ids (they appear in URLs and lesson links).

use super::{Scenario, ServiceSpec};
use crate::sim::article::production::{FailureCaching, Policies};
use crate::sim::base::uuidgen::KeyFormat;
use crate::sim::limits::SCENARIO_VERSION;
use crate::sim::world::account::{Caller, FingerprintFields, RequestPolicies};
use crate::sim::world::client::{KeyStrategy, RetryPolicy};
use crate::sim::world::downstream::{Downstream, DEFAULT_SLOW_MS};
use crate::sim::world::fault::Fault;
use crate::sim::world::input::{Input, RequestSpec};
use crate::sim::world::outbox::EmitMode;
use crate::sim::world::server::ServiceKind::{
    self, Atomic, Idempotent, Naive, Production, SplitStore, TocTou,
};
use crate::sim::world::WorldConfig;

/// Ids of every built-in scenario, in lesson order.
/// The order follows the article's sections (the lesson path in `ui/text/lessons.rs`
/// groups them); ids never change, because links and saved runs name them.
pub const BUILTIN_IDS: [&str; 24] = [
    "the-header",
    "timeout-ambiguity",
    "client-cannot-tell",
    "double-charge",
    "key-replays",
    "distinct-keys",
    "concurrent-same-key",
    "atomic-lock",
    "ten-threads",
    "stripe-in-flight",
    "failure-cached",
    "many-retries",
    "order-id-as-key",
    "new-key-per-retry",
    "split-store-crash",
    "key-expiry",
    "param-mismatch",
    "outbox-relay-crash",
    "dual-write",
    "effectively-once",
    "slow-processor",
    "store-failures",
    "key-scope",
    "fingerprint-fields",
];

/// Ids of every built-in scenario, in lesson order.
pub fn builtin_ids() -> &'static [&'static str] {
    &BUILTIN_IDS
}

const HOUR_MS: u64 = 3_600_000;

pub(crate) fn base(services: &[ServiceKind], inputs: Vec<Input>) -> Scenario {
    // The lessons use the world's default settings; only the seed is the lessons' own.
    let d = WorldConfig::default();
    Scenario {
        version: SCENARIO_VERSION,
        seed: 42,
        initial_balance: d.initial_balance,
        services: services.iter().map(|k| (*k).into()).collect(),
        emit: d.emit,
        consumer_dedupes: d.consumer_dedupes,
        policies: d.policies,
        latency_ms: d.latency_ms,
        jitter_ms: d.jitter_ms,
        timeout_ms: d.timeout_ms,
        inputs,
        branch: Vec::new(),
        downstream: Default::default(),
        requests: Default::default(),
    }
}

/// The sandbox's start: the first lesson's settings and services plus the production one, no
/// inputs (a page without lessons builds it without the lessons' table).
pub fn sandbox_start() -> Scenario {
    base(&[Naive, Idempotent, Atomic, Production], Vec::new())
}

fn request(key: Option<&str>, amount: i64, description: &str, fault: Fault) -> Input {
    Input::Request {
        key: key.map(str::to_string),
        key_format: KeyFormat::V4,
        amount,
        description: description.to_string(),
        fault,
    }
}

/// The learner retries the last operation with the same key.
fn retry() -> Input {
    Input::Retry {
        new_key: false,
        fault: Fault::None,
    }
}

fn operation(
    amount: i64,
    key_strategy: KeyStrategy,
    retry: RetryPolicy,
    max_attempts: u32,
    faults: Vec<Fault>,
) -> Input {
    Input::Operation {
        amount,
        description: "order-123".to_string(),
        key_format: KeyFormat::V4,
        key_strategy,
        retry,
        max_attempts,
        faults,
    }
}

/// `n` requests of 100 with one key at the same instant (a double click, the article's threads).
fn parallel(key: &str, n: usize) -> Input {
    Input::Parallel {
        requests: vec![
            RequestSpec {
                key: Some(key.to_string()),
                key_format: KeyFormat::V4,
                amount: 100,
                description: key.to_string(),
                fault: Fault::None,
            };
            n
        ],
        same_key: true,
    }
}

/// `input` sent by a caller of its own (issue 13).
pub(crate) fn from_caller(account: u32, stamps_body: bool, input: Input) -> Input {
    Input::As {
        caller: Caller {
            account,
            stamps_body,
            sends_key: true,
        },
        input: Box::new(input),
    }
}

/// A built-in scenario by id.
#[expect(
    clippy::too_many_lines,
    reason = "a table of data: one entry per built-in scenario"
)]
pub fn builtin(id: &str) -> Option<Scenario> {
    let s = match id {
        // The article's opening: a charge of 100 whose reply is lost, retried with the same key.
        "double-charge" => base(
            &[Naive, Idempotent, Atomic],
            vec![operation(
                100,
                KeyStrategy::Reuse,
                RetryPolicy::Immediate,
                2,
                vec![Fault::ResponseLost],
            )],
        ),
        // Different keys are different operations.
        "distinct-keys" => base(
            &[Idempotent, Atomic, Production],
            vec![
                request(Some("key-1"), 100, "order-1", Fault::None),
                request(Some("key-2"), 200, "order-2", Fault::None),
                request(Some("key-3"), 300, "order-3", Fault::None),
            ],
        ),
        // Insufficient funds is cached; after a deposit the same key still fails. Production
        // caching only successes runs it again.
        "failure-cached" => Scenario {
            initial_balance: 50,
            policies: Policies {
                failure_caching: FailureCaching::SuccessOnly,
                ..Policies::default()
            },
            ..base(
                &[Idempotent, Atomic, Production],
                vec![
                    request(Some("key-fail"), 100, "big-order", Fault::None),
                    Input::Deposit { amount: 100 },
                    retry(),
                ],
            )
        },
        // Request lost, response lost, crash mid-way: the client sees three identical timeouts,
        // so it retries each with its key; only the atomic service ends with one charge each.
        "client-cannot-tell" => base(
            &[Naive, SplitStore, Atomic],
            [
                Fault::RequestLost,
                Fault::ResponseLost,
                Fault::CrashAfterChargeBeforeRecord,
            ]
            .into_iter()
            .map(|f| {
                operation(
                    100,
                    KeyStrategy::Reuse,
                    RetryPolicy::Fixed { delay_ms: 1_000 },
                    2,
                    vec![f],
                )
            })
            .collect(),
        ),
        // The header itself: a charge with a minted key, answered; then the same request again
        // with the same key (a second tap on "Pay"), answered from the store.
        "the-header" => base(
            &[Atomic],
            vec![request(None, 100, "order-42", Fault::None), retry()],
        ),
        // One charge whose reply is lost: the client is left with a timeout and retries once
        // with the same key a second later.
        "timeout-ambiguity" => base(
            &[Atomic],
            vec![operation(
                100,
                KeyStrategy::Reuse,
                RetryPolicy::Fixed { delay_ms: 1_000 },
                2,
                vec![Fault::ResponseLost],
            )],
        ),
        // Two lost replies, three tries with one key: the key turns the retries into replays.
        "key-replays" => base(
            &[Naive, Idempotent],
            vec![operation(
                100,
                KeyStrategy::Reuse,
                RetryPolicy::Immediate,
                3,
                vec![Fault::ResponseLost, Fault::ResponseLost],
            )],
        ),
        // Three requests with one key at once: one lock around check, charge and store.
        "atomic-lock" => base(&[Atomic, TocTou], vec![parallel("order-5", 3)]),
        // The article's ten-thread test.
        "ten-threads" => base(&[TocTou, Atomic], vec![parallel("order-10", 10)]),
        // Stripe's pattern: a second request while the first runs gets 409; later retries replay.
        "stripe-in-flight" => base(
            &[Production, Atomic],
            vec![
                parallel("order-8", 2),
                Input::AdvanceTime { ms: 2_000 },
                request(Some("order-8"), 100, "order-8", Fault::None),
            ],
        ),
        // Any number of retries, through every kind of fault, with one key.
        "many-retries" => base(
            &[Naive, Idempotent, Atomic],
            vec![operation(
                100,
                KeyStrategy::Reuse,
                RetryPolicy::ExponentialJitter {
                    base_ms: 100,
                    cap_ms: 2_000,
                },
                6,
                vec![
                    Fault::ResponseLost,
                    Fault::RequestLost,
                    Fault::ResponseLost,
                    Fault::CrashBeforeCharge,
                    Fault::ResponseLost,
                ],
            )],
        ),
        // An order id used as the key: a second, different charge for the order is taken for a
        // retry of the first.
        "order-id-as-key" => base(
            &[Idempotent, Production],
            vec![
                request(Some("order-1"), 100, "order-1", Fault::None),
                request(Some("order-1"), 30, "order-1 shipping", Fault::None),
            ],
        ),
        // The conclusion: a double click and a retry through every service at once.
        "effectively-once" => base(
            &[Naive, TocTou, Atomic, Production],
            vec![
                parallel("order-99", 2),
                Input::AdvanceTime { ms: 2_000 },
                retry(),
            ],
        ),
        // The common bug: a fresh key per retry defeats every server. The first reply is lost,
        // then the retry's request: only the tries that arrive are charged.
        "new-key-per-retry" => base(
            &[Atomic, Production],
            vec![operation(
                100,
                KeyStrategy::NewPerRetry,
                RetryPolicy::Fixed { delay_ms: 200 },
                3,
                vec![Fault::ResponseLost, Fault::RequestLost],
            )],
        ),
        // A crash between the balance commit and the key write: where the key lives matters.
        // Production answers 409 until the crashed request's in-flight record expires (90 s).
        "split-store-crash" => base(
            &[SplitStore, TocTou, Atomic, Production],
            vec![operation(
                100,
                KeyStrategy::Reuse,
                RetryPolicy::Fixed { delay_ms: 30_000 },
                5,
                vec![Fault::CrashAfterChargeBeforeRecord],
            )],
        ),
        // Two requests with one key at the same instant, then a later retry of that key.
        "concurrent-same-key" => base(
            &[TocTou, Atomic, Production],
            vec![
                Input::Parallel {
                    requests: vec![
                        RequestSpec {
                            key: Some("order-42".to_string()),
                            key_format: KeyFormat::V4,
                            amount: 100,
                            description: "order-42".to_string(),
                            fault: Fault::None,
                        };
                        2
                    ],
                    same_key: true,
                },
                request(Some("order-42"), 100, "order-42", Fault::None),
            ],
        ),
        // A retry 25 h later: the key has expired (24 h retention) and the charge runs again.
        "key-expiry" => base(
            &[Production, Atomic],
            vec![
                request(Some("order-7"), 100, "order-7", Fault::None),
                Input::AdvanceTime { ms: 25 * HOUR_MS },
                retry(),
            ],
        ),
        // The same key with a different amount: a client bug the production service refuses.
        "param-mismatch" => base(
            &[Atomic, Production],
            vec![
                request(Some("order-9"), 100, "order-9", Fault::None),
                request(Some("order-9"), 200, "order-9", Fault::None),
            ],
        ),
        // The relay crashes after publishing, before marking: every row is delivered twice.
        // The relay crashes after publishing, before marking: every row is delivered twice. The
        // same service twice, differing only downstream: a consumer with an inbox, one without.
        "outbox-relay-crash" => base(
            &[],
            vec![
                request(None, 100, "order-1", Fault::None),
                request(None, 200, "order-2", Fault::None),
                Input::RelayTick {
                    crash_after_publish: true,
                },
                Input::RelayTick {
                    crash_after_publish: false,
                },
            ],
        )
        .with_services(vec![
            ServiceSpec::wired(Atomic, EmitMode::Outbox, true),
            ServiceSpec::wired(Atomic, EmitMode::Outbox, false),
        ]),
        // The outbox beside both dual writes, on the same two crashes: just after the commit
        // (commit-then-publish loses that event) and after the charge before the commit
        // (publish-then-commit has announced a charge that rolls back).
        "dual-write" => base(
            &[],
            vec![
                request(None, 100, "order-1", Fault::CrashAfterCommitBeforeReply),
                request(None, 200, "order-2", Fault::CrashAfterChargeBeforeRecord),
                Input::RelayTick {
                    crash_after_publish: false,
                },
            ],
        )
        .with_services(vec![
            ServiceSpec::wired(Atomic, EmitMode::Outbox, true),
            ServiceSpec::wired(Atomic, EmitMode::DualWriteCommitThenPublish, true),
            ServiceSpec::wired(Atomic, EmitMode::DualWritePublishThenCommit, true),
        ]),
        // Issue 13, section 1: every request carries the key and the production service locks
        // it, but the card processor answers after 120 s, past the 90 s lock: the retry that
        // takes the expired lock over charges again.
        "slow-processor" => Scenario {
            downstream: slow_processor(),
            ..base(
                &[Production],
                vec![operation(
                    100,
                    KeyStrategy::Reuse,
                    RetryPolicy::Fixed { delay_ms: 30_000 },
                    5,
                    vec![Fault::ProcessorSlow],
                )],
            )
        },
        // Issue 13, section 3: a key store that holds one key evicts order-1's key when order-2
        // is written, so order-1 sent again charges again; then the store is unreachable for
        // order-3 and both services refuse (503) until the retry. The atomic service keeps its
        // keys beside the balance, where nothing evicts them.
        "store-failures" => Scenario {
            downstream: Downstream {
                store_capacity: 1,
                ..Downstream::default()
            },
            ..base(
                &[SplitStore, Atomic],
                vec![
                    request(Some("order-1"), 100, "order-1", Fault::ResponseLost),
                    request(Some("order-2"), 100, "order-2", Fault::None),
                    request(Some("order-1"), 100, "order-1", Fault::None),
                    request(Some("order-3"), 100, "order-3", Fault::StoreUnreachable),
                    retry(),
                ],
            )
        },
        // Two customers whose shops both number their first order `order-1`: the article's
        // service looks keys up by the key alone, the production service by (account, key).
        "key-scope" => base(
            &[Atomic, Production],
            vec![
                from_caller(
                    1,
                    false,
                    request(Some("order-1"), 100, "order-1", Fault::None),
                ),
                from_caller(
                    2,
                    false,
                    request(Some("order-1"), 100, "order-1", Fault::None),
                ),
            ],
        ),
        // A client that writes the time into every body, retrying after a lost reply, against a
        // production service whose fingerprint covers the whole body.
        "fingerprint-fields" => Scenario {
            requests: RequestPolicies {
                fingerprint: FingerprintFields::WholeBody,
                ..RequestPolicies::default()
            },
            ..base(
                &[Atomic, Production],
                vec![from_caller(
                    0,
                    true,
                    operation(
                        100,
                        KeyStrategy::Reuse,
                        RetryPolicy::Immediate,
                        2,
                        vec![Fault::ResponseLost],
                    ),
                )],
            )
        },
        _ => return None,
    };
    Some(s)
}

/// A card processor that answers in 200 ms, and in 120 s when slow (rocket-rides' 90 s lock
/// expires first).
pub(crate) fn slow_processor() -> Downstream {
    Downstream {
        processor_ms: 200,
        slow_ms: DEFAULT_SLOW_MS,
        ..Downstream::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_builds_a_valid_scenario() {
        for id in builtin_ids() {
            let s = builtin(id).unwrap_or_else(|| panic!("{id} missing"));
            assert_eq!(s.validate(), Ok(()), "{id}");
            assert_eq!(Scenario::from_json(&s.to_json()), Ok(s), "{id} round trip");
        }
        assert!(builtin("nope").is_none());
    }
}
