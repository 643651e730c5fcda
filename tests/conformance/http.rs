//! Conformance: HTTP `Idempotency-Key` services. Each case is translated from a real source and
//! cites it; it asserts what that system does, on the crate's public API (the production service
//! used directly with explicit time, `ProductionService`, or the world a scenario runs).
//!
//! Sources (read for this file; quotes are from these versions):
//! - IETF: draft-ietf-httpapi-idempotency-key-header-07 (15 Oct 2025,
//!   <https://datatracker.ietf.org/doc/html/draft-ietf-httpapi-idempotency-key-header>); its
//!   source, github.com/ietf-wg-httpapi/idempotency `draft-ietf-httpapi-idempotency-key-header.md`
//!   at dab060c (draft 06, the same text in the sections cited).
//! - Stripe: <https://docs.stripe.com/api/idempotent_requests>,
//!   <https://docs.stripe.com/idempotency>; Stripe's Ruby client, github.com/stripe/stripe-ruby
//!   `lib/stripe/api_requestor.rb` (`should_retry?`) at d018a7b, and its issue #905 / PR #907
//!   (`Idempotent-Replayed`).
//! - rocket-rides-atomic: github.com/brandur/rocket-rides-atomic at 94b370d: `api.rb`,
//!   `spec/api_spec.rb`, `schema.sql`, `reaper.rb`, `completer.rb`, `README.md`; and its commit
//!   e19902b (2017), “Correct improper 429 to use "409 Conflict"”.
//! - HTTP itself: RFC 9110 (10.2.3 `Retry-After`), RFC 8941 (3.3.3 and 4.1.6, the sf-string),
//!   RFC 9457 (problem details, which replaced RFC 7807), for what an exchange carries.
//! - AWS Lambda Powertools (Python): github.com/aws-powertools/powertools-lambda-python
//!   `tests/functional/idempotency/test_idempotency.py` at 008aecf; the in-progress expiry of
//!   awslabs/aws-lambda-powertools-python#1387 (v1.26.7). Only where the playground imitates it
//!   (shared/guide/semantics.md): expiry, in-progress expiry, payload validation, a missing key,
//!   an exception that deletes the record.
//!
//! The model's own shape: a successful charge is `Success` (200), a decline `InsufficientFunds`
//! (402), a processor failure `ProcessorError` (503), a replay `DuplicateRequest` carrying the
//! first result (and its status). Each attempt of a world is also the HTTP request and response
//! it stands for (`World::exchanges`: headers, status, problem details).

use idempotency_playground::*;

const SECOND: u64 = 1_000;
const HOUR: u64 = 3_600 * SECOND;

// ---- helpers -------------------------------------------------------------------------------

fn service(policies: Policies) -> ProductionService {
    ProductionService::new(1_000, policies).expect("valid policies")
}

fn request(key: &str, amount: i64, description: &str, fault: Fault) -> Input {
    Input::Request {
        key: Some(key.into()),
        key_format: KeyFormat::V4,
        amount,
        description: description.into(),
        fault,
    }
}

fn retry(fault: Fault) -> Input {
    Input::Retry {
        new_key: false,
        fault,
    }
}

fn as_caller(account: u32, sends_key: bool, input: Input) -> Input {
    Input::As {
        caller: Caller {
            account,
            stamps_body: false,
            sends_key,
        },
        input: Box::new(input),
    }
}

/// One production world (`policies`, `requests`) running `inputs` on the article's network.
fn production(policies: Policies, requests: RequestPolicies, inputs: Vec<Input>) -> World {
    let mut s = builtin("double-charge").expect("built in");
    s.services = vec![ServiceKind::Production.into()];
    s.policies = policies;
    s.requests = requests;
    s.inputs = inputs;
    s.run().expect("valid scenario").remove(0)
}

fn answer(w: &World, op: usize) -> PaymentResult {
    match &w.client_results()[op].outcome {
        ClientOutcome::Answered { result } => result.clone(),
        other => panic!("op {op}: {other:?}"),
    }
}

/// Every reply the server sent, with its `Idempotent-Replayed` mark, in order.
fn replies(w: &World) -> Vec<(PaymentResult, bool)> {
    w.trace()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ResponseSent {
                result, replayed, ..
            } => Some((result.clone(), *replayed)),
            _ => None,
        })
        .collect()
}

fn count(w: &World, f: impl Fn(&EventKind) -> bool) -> usize {
    w.trace().iter().filter(|e| f(&e.kind)).count()
}

// ---- IETF draft-ietf-httpapi-idempotency-key-header ----------------------------------------

/// IETF draft, section 8 "Examples" and 2.2: `Idempotency-Key: "8e03978e-40d5-43e8-bc93-
/// 6894a57f9324"` (a UUID v4) and `Idempotency-Key: "clkyoesmbgybucifusbbtdsbohtyuuwz"` (a random
/// string) are keys; a first-time request with one "SHOULD" be processed normally (2.6).
#[test]
fn ietf_example_keys_are_accepted_and_a_first_request_is_processed_normally() {
    for key in [
        "8e03978e-40d5-43e8-bc93-6894a57f9324",
        "clkyoesmbgybucifusbbtdsbohtyuuwz",
    ] {
        assert_eq!(validate_key(key), Ok(()));
        let mut s = service(Policies::ietf_draft());
        assert_eq!(
            s.charge(key, 100, "order-1", 0),
            PaymentResult::Success { balance: 900 }
        );
        assert_eq!(s.operation_count(), 1);
    }
}

/// IETF draft 2.1 "Syntax": "`Idempotency-Key` is an Item Structured Header [RFC8941]. Its value
/// MUST be a String", and an RFC 8941 sf-string (section 3.3.3) holds printable ASCII (%x20-7E)
/// only, `"` and `\` escaped with a backslash when serialized (section 4.1.6). The key a learner
/// types is checked so (`validate_header_key`), and an exchange sends it quoted, as the draft's
/// examples do: `Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`.
#[test]
fn ietf_a_key_is_a_structured_field_string_of_printable_ascii() {
    assert_eq!(
        validate_header_key("鍵"),
        Err(InputError::KeyNotSfString {
            at: 1,
            code: '鍵' as u32
        }),
        "non-ASCII is not an sf-string"
    );
    assert_eq!(
        validate_header_key("a\tb"),
        Err(InputError::KeyNotSfString { at: 2, code: 9 }),
        "a control character"
    );
    assert_eq!(
        validate_header_key(" ~\"\\"),
        Ok(()),
        "space to ~, quote and backslash"
    );
    assert_eq!(
        sf_string("8e03978e-40d5-43e8-bc93-6894a57f9324").as_deref(),
        Ok("\"8e03978e-40d5-43e8-bc93-6894a57f9324\"")
    );
    assert_eq!(sf_string(r#"a"b\c"#).as_deref(), Ok(r#""a\"b\\c""#));
    let w = production(
        Policies::ietf_draft(),
        RequestPolicies::default(),
        vec![request(
            "clkyoesmbgybucifusbbtdsbohtyuuwz",
            100,
            "order-1",
            Fault::None,
        )],
    );
    assert_eq!(
        w.exchanges(OpId(0))[0].request.headers[0],
        Header::IdempotencyKey {
            value: "\"clkyoesmbgybucifusbbtdsbohtyuuwz\"".into()
        }
    );
}

/// IETF draft 2.6 "Idempotency Enforcement", Retry: "The request was retried after the original
/// request completed. The resource SHOULD respond with the result of the previously completed
/// operation, success or an error."
#[test]
fn ietf_a_retry_after_completion_gets_the_stored_result_success_or_error() {
    let mut s = service(Policies::ietf_draft());
    let first = s.charge("k-ok", 100, "order-1", 0);
    let again = s.charge("k-ok", 100, "order-1", 10 * SECOND);
    assert!(again.is_replay());
    assert_eq!(again.outcome(), &first);
    assert_eq!(again.http_status(), first.http_status());
    // An error is the stored result too: 402 replayed, not charged on retry.
    let declined = s.charge("k-big", 5_000, "order-2", 0);
    assert_eq!(declined.http_status(), 402);
    let again = s.charge("k-big", 5_000, "order-2", SECOND);
    assert!(again.is_replay());
    assert_eq!(again.http_status(), 402);
    assert_eq!(s.operation_count(), 1);
}

/// IETF draft 2.6, Concurrent Request: "The request was retried before the original request
/// completed. The resource SHOULD respond with a resource conflict error", and 2.7: "If the
/// request is retried, while the original request is still being processed, the resource SHOULD
/// reply with an HTTP `409` status code".
#[test]
fn ietf_a_concurrent_request_with_the_same_key_gets_409() {
    let mut s = service(Policies::ietf_draft());
    let ticket = s.begin("k", 100, "order-1", 0).expect("first request runs");
    let concurrent = s.begin("k", 100, "order-1", 1).expect_err("refused");
    assert_eq!(concurrent, PaymentResult::InFlightConflict);
    assert_eq!(concurrent.http_status(), 409);
    assert!(s.complete(ticket, true, 2).is_success());
    assert_eq!(s.operation_count(), 1);
}

/// IETF draft 2.7: "Clients MUST correct the requests (with the exception of 409 where no
/// correction is required) before performing a retry". In the world: two requests with one key
/// at the same instant (a double click), one answered 409; the same request sent again, unchanged,
/// once the first has completed, gets the first one's result.
#[test]
fn ietf_a_409_needs_no_correction_the_same_request_later_gets_the_result() {
    let double_click = Input::Parallel {
        requests: vec![
            RequestSpec {
                key: Some("k".into()),
                key_format: KeyFormat::V4,
                amount: 100,
                description: "order-1".into(),
                fault: Fault::None,
            };
            2
        ],
        same_key: true,
    };
    let w = production(
        Policies::ietf_draft(),
        RequestPolicies::default(),
        vec![double_click, retry(Fault::None)],
    );
    let answers: Vec<PaymentResult> = replies(&w).into_iter().map(|(r, _)| r).collect();
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert!(answers.contains(&PaymentResult::InFlightConflict));
    assert!(answers[2].is_replay(), "{answers:?}");
    assert_eq!(w.ledger().len(), 1);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

/// IETF draft 2.7 "Error Handling": "If the `Idempotency-Key` request header is missing for a
/// documented idempotent operation requiring this header, the resource SHOULD reply with an HTTP
/// `400` status code".
#[test]
fn ietf_a_missing_key_on_an_operation_that_requires_one_gets_400() {
    let requires = RequestPolicies {
        missing_key: MissingKey::Reject400,
        ..RequestPolicies::default()
    };
    let keyless = Input::Request {
        key: None,
        key_format: KeyFormat::V4,
        amount: 100,
        description: "order-1".into(),
        fault: Fault::None,
    };
    let w = production(
        Policies::ietf_draft(),
        requires,
        vec![as_caller(0, false, keyless)],
    );
    assert_eq!(
        answer(&w, 0),
        PaymentResult::invalid(InputError::MissingKey)
    );
    assert_eq!(answer(&w, 0).http_status(), 400);
    assert_eq!(w.ledger().len(), 0);
    assert!(w.store_rows().is_empty());
}

/// IETF draft 2.2: the key "MUST NOT be reused with another request with a different request
/// payload", and 2.7: "If there is an attempt to reuse an idempotency key with a different request
/// payload, the resource SHOULD reply with a HTTP `422` status code". The refusal runs nothing
/// and stores nothing: the original request still gets its result, and the uncorrected request
/// is refused again ("or the resource MUST fail the request and return one of the above errors").
#[test]
fn ietf_a_key_reused_with_another_payload_gets_422_and_nothing_runs() {
    let mut s = service(Policies::ietf_draft());
    assert!(s.charge("k", 100, "order-1", 0).is_success());
    for now in [SECOND, 2 * SECOND] {
        let reused = s.charge("k", 300, "order-1", now);
        assert_eq!(reused, PaymentResult::ParameterMismatch { status: 422 });
        assert_eq!(reused.http_status(), 422);
    }
    assert_eq!(s.balance(), 900);
    assert!(s.charge("k", 100, "order-1", 3 * SECOND).is_replay());
    assert_eq!(s.counters().mismatches, 2);
}

/// IETF draft 2.4 "Idempotency Fingerprint": a fingerprint "MAY use ... Checksum of the entire
/// request payload" or "Checksum of selected element(s) in the request payload". With a client
/// that writes its send time into every body: the whole payload differs on each retry (so an
/// honest retry is refused), the selected elements (amount, description) do not (so it replays).
#[test]
fn ietf_a_fingerprint_of_the_whole_payload_or_of_selected_elements() {
    let stamped_retry = Input::As {
        caller: Caller {
            account: 0,
            stamps_body: true,
            sends_key: true,
        },
        input: Box::new(Input::Operation {
            amount: 100,
            description: "order-1".into(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts: 2,
            faults: vec![Fault::ResponseLost],
        }),
    };
    let whole = RequestPolicies {
        fingerprint: FingerprintFields::WholeBody,
        ..RequestPolicies::default()
    };
    let w = production(Policies::ietf_draft(), whole, vec![stamped_retry.clone()]);
    assert_eq!(
        answer(&w, 0),
        PaymentResult::ParameterMismatch { status: 422 }
    );
    let w = production(
        Policies::ietf_draft(),
        RequestPolicies::default(),
        vec![stamped_retry],
    );
    assert!(answer(&w, 0).is_replay());
    assert_eq!(w.ledger().len(), 1);
}

/// IETF draft 2.3 "Idempotency Key Validity and Expiry": "The resource MAY require time based
/// idempotency keys to be able to purge or delete a key upon its expiry. The resource SHOULD
/// define such expiration policy". A purged key is a new key: the request runs again.
#[test]
fn ietf_a_key_past_the_published_expiry_is_purged_and_runs_again() {
    let mut s = service(Policies {
        retention_ms: 2 * HOUR,
        ..Policies::ietf_draft()
    });
    assert!(s.charge("k", 100, "order-1", 0).is_success());
    assert!(s.charge("k", 100, "order-1", 2 * HOUR - 1).is_replay());
    assert_eq!(
        s.charge("k", 100, "order-1", 2 * HOUR),
        PaymentResult::Success { balance: 800 }
    );
    assert_eq!(s.counters().expirations, 1);
}

/// IETF draft 6 "Security Considerations": low-entropy keys let "attackers ... fetch existing
/// idempotent cache entries, belonging to other clients"; the resource should "implement a unique
/// composite key as the idempotent cache lookup key", the client's key with "other client specific
/// attributes". rocket-rides-atomic's `schema.sql` has `UNIQUE INDEX ... (user_id,
/// idempotency_key)`; Stripe's keys are scoped to the account. Two clients sending `order-1` are
/// two requests, each charged and answered with its own result.
#[test]
fn ietf_rocket_rides_stripe_the_lookup_key_is_composite_per_client() {
    let w = production(
        Policies::ietf_draft(),
        RequestPolicies::default(),
        vec![
            as_caller(1, true, request("order-1", 100, "order-1", Fault::None)),
            as_caller(2, true, request("order-1", 100, "order-1", Fault::None)),
        ],
    );
    assert_eq!(w.ledger().len(), 2);
    assert!(!answer(&w, 1).is_replay());
    assert_eq!((w.balance_of(1), w.balance_of(2)), (900, 900));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

/// IETF draft 2.7: each error is described with RFC 7807 problem details
/// (`Content-Type: application/problem+json`, a `type` link to the documentation) or a `Link`
/// header with `rel="describedby"`. Its examples: `HTTP/1.1 400 Bad Request` "Idempotency-Key is
/// missing", `HTTP/1.1 422 Unprocessable Content` "Idempotency-Key is already used",
/// `HTTP/1.1 409 Conflict` "A request is outstanding for this Idempotency-Key", each with
/// `"type": "https://developer.example.com/idempotency"`. Here each answer of the world is the
/// response it stands for: the same three, as problem details of that type.
#[test]
fn ietf_errors_carry_problem_details_or_a_describedby_link() {
    let first_response = |w: &World, op: u32| -> HttpResponse {
        match &w.exchanges(OpId(op))[0].reply {
            Reply::Sent { response, .. } => response.clone(),
            other => panic!("op {op}: {other:?}"),
        }
    };
    let is_problem = |r: &HttpResponse, status: u16, kind: ProblemKind| {
        assert_eq!(r.status, status);
        assert_eq!(r.headers[0], Header::ContentType(MediaType::ProblemJson));
        assert_eq!(r.body, ResponseBody::Problem(kind.clone()));
        assert_eq!(kind.type_uri(), "https://developer.example.com/idempotency");
    };
    // 400: a required key missing.
    let requires = RequestPolicies {
        missing_key: MissingKey::Reject400,
        ..RequestPolicies::default()
    };
    let keyless = Input::Request {
        key: None,
        key_format: KeyFormat::V4,
        amount: 100,
        description: "order-1".into(),
        fault: Fault::None,
    };
    let w = production(
        Policies::ietf_draft(),
        requires,
        vec![as_caller(0, false, keyless)],
    );
    let r = first_response(&w, 0);
    is_problem(&r, 400, ProblemKind::MissingKey);
    assert!(
        !w.exchanges(OpId(0))[0]
            .request
            .headers
            .iter()
            .any(|h| h.name() == "Idempotency-Key"),
        "the request carried no key"
    );
    // 422: the key reused with another payload.
    let w = production(
        Policies::ietf_draft(),
        RequestPolicies::default(),
        vec![
            request("k", 100, "order-1", Fault::None),
            request("k", 300, "order-1", Fault::None),
        ],
    );
    is_problem(&first_response(&w, 1), 422, ProblemKind::KeyReused);
    // 409: a request still outstanding (two at once with one key).
    let double_click = Input::Parallel {
        requests: vec![
            RequestSpec {
                key: Some("k".into()),
                key_format: KeyFormat::V4,
                amount: 100,
                description: "order-1".into(),
                fault: Fault::None,
            };
            2
        ],
        same_key: true,
    };
    let w = production(
        Policies::ietf_draft(),
        RequestPolicies::default(),
        vec![double_click],
    );
    let conflict = (0..2)
        .map(|op| first_response(&w, op))
        .find(|r| r.status == 409)
        .expect("one of the two is refused");
    is_problem(&conflict, 409, ProblemKind::Outstanding);
}

// ---- Stripe ----------------------------------------------------------------------------------

/// Stripe (docs.stripe.com/api/idempotent_requests): "For API v1, Stripe saves the status code
/// and body of the first request made with a given idempotency key after endpoint execution
/// begins. Retries with the same key return the saved response, including `500` errors." Here
/// the first attempt's processor fails (503); the retry with the same key gets that 503 again and
/// nothing is charged.
#[test]
fn stripe_v1_replays_the_saved_status_and_body_including_server_errors() {
    let w = production(
        Policies::stripe(),
        RequestPolicies::default(),
        vec![
            request("k", 100, "order-1", Fault::ProcessorError),
            retry(Fault::None),
        ],
    );
    let sent = replies(&w);
    assert_eq!(sent.len(), 2);
    assert_eq!(sent[0].0, PaymentResult::ProcessorError);
    assert!(sent[1].0.is_replay());
    assert_eq!(sent[1].0.outcome(), &sent[0].0);
    assert_eq!(sent[1].0.http_status(), sent[0].0.http_status());
    assert_eq!(w.ledger().len(), 0);
}

/// Stripe: a response returned again for a key already seen carries `Idempotent-Replayed: true`
/// (the header stripe/stripe-ruby#905 asked to expose, citing stripe.com/docs/error-handling
/// #sending-idempotency-keys; PR #907 reads `http_headers["idempotent-replayed"] == "true"`); a
/// fresh execution does not.
#[test]
fn stripe_a_replayed_response_is_marked_idempotent_replayed() {
    let w = production(
        Policies::stripe(),
        RequestPolicies::default(),
        vec![
            request("k", 100, "order-1", Fault::ResponseLost),
            retry(Fault::None),
        ],
    );
    let marks: Vec<bool> = replies(&w).into_iter().map(|(_, m)| m).collect();
    assert_eq!(marks, [false, true]);
    let client = &w.client_results()[0];
    let replied: Vec<bool> = client
        .seen
        .iter()
        .zip(&client.replayed)
        .filter(|(s, _)| matches!(s.outcome, AttemptOutcome::Reply(_)))
        .map(|(_, r)| *r)
        .collect();
    assert_eq!(replied, [true], "the client sees the mark on the retry");
    assert_eq!(w.ledger().len(), 1);
    // On the wire: the same status and body twice, the header on the retry's response only.
    let responses: Vec<HttpResponse> = w
        .exchanges(OpId(0))
        .into_iter()
        .map(|x| match x.reply {
            Reply::Sent { response, .. } => response,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(responses.len(), 2);
    assert_eq!(responses[0].status, responses[1].status);
    assert_eq!(responses[0].body, responses[1].body);
    assert!(!responses[0].headers.contains(&Header::IdempotentReplayed));
    assert!(responses[1].headers.contains(&Header::IdempotentReplayed));
    assert_eq!(Header::IdempotentReplayed.name(), "Idempotent-Replayed");
}

/// RFC 9110 section 10.2.3: a server sends `Retry-After` "to indicate how long the user agent
/// ought to wait before making a follow-up request". The model's responses carry it on a 409 for
/// a request still in flight and on a 503, but its clients wait by their own retry policy.
#[test]
#[ignore = "simplification: clients follow their own retry policy and do not read Retry-After"]
fn rfc9110_a_client_waits_as_retry_after_says() {
    let w = production(
        Policies::stripe(),
        RequestPolicies::default(),
        vec![Input::Operation {
            amount: 100,
            description: "order-1".into(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts: 2,
            faults: vec![Fault::ProcessorError],
        }],
    );
    let sent: Vec<u64> = w
        .trace()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::ClientSend { .. }))
        .map(|e| e.time_ms)
        .collect();
    assert!(
        sent[1] - sent[0] >= RETRY_AFTER_SECONDS * SECOND,
        "{sent:?}"
    );
}

/// Stripe (docs.stripe.com/idempotency): "You can remove keys from the system automatically after
/// they're at least 24 hours old. We generate a new request if a key is reused after the original
/// is pruned." The model prunes at 24 h exactly, the earliest Stripe may; before then it replays.
#[test]
fn stripe_a_key_pruned_after_24_hours_makes_a_new_request() {
    let mut s = service(Policies::stripe());
    assert_eq!(Policies::stripe().retention_ms, 24 * HOUR);
    assert!(s.charge("k", 100, "order-1", 0).is_success());
    assert!(s.charge("k", 100, "order-1", 23 * HOUR).is_replay());
    assert_eq!(
        s.charge("k", 100, "order-1", 24 * HOUR + 1),
        PaymentResult::Success { balance: 800 }
    );
    assert_eq!(s.operation_count(), 2);
}

/// Stripe (docs.stripe.com/idempotency): "The idempotency layer compares incoming parameters to
/// those of the original request and errors if they're not the same to prevent accidental
/// misuse." The error is a 400 `idempotency_error`.
#[test]
fn stripe_other_parameters_under_a_key_are_an_error_400() {
    let mut s = service(Policies::stripe());
    assert!(s.charge("k", 100, "order-1", 0).is_success());
    let other_amount = s.charge("k", 200, "order-1", 1);
    let other_description = s.charge("k", 100, "order-2", 2);
    for r in [other_amount, other_description] {
        assert_eq!(r, PaymentResult::ParameterMismatch { status: 400 });
        assert!(r.is_refusal());
    }
    assert_eq!(s.balance(), 900);
}

/// Stripe (docs.stripe.com/idempotency): "We save results only after the execution of an endpoint
/// begins. If incoming parameters fail validation ... we don't save the idempotent result because
/// no API endpoint initiated the execution. You can retry these requests." A request refused by
/// validation leaves the key free: the corrected request with the same key runs.
#[test]
fn stripe_a_request_that_fails_validation_is_not_saved() {
    let mut s = service(Policies::stripe());
    let invalid = s.charge("k", 0, "order-1", 0);
    assert!(matches!(invalid, PaymentResult::InvalidRequest { .. }));
    assert_eq!(invalid.http_status(), 400);
    assert_eq!(
        s.charge("k", 100, "order-1", 1),
        PaymentResult::Success { balance: 900 }
    );
}

/// Stripe (docs.stripe.com/idempotency): "... or the request conflicts with another that's
/// executing concurrently, we don't save the idempotent result ... You can retry these requests."
/// The 409 is not what the key replays later: the first request's result is.
#[test]
fn stripe_a_concurrent_conflict_is_not_saved() {
    let mut s = service(Policies::stripe());
    let ticket = s.begin("k", 100, "order-1", 0).expect("runs");
    assert_eq!(
        s.begin("k", 100, "order-1", 1),
        Err(PaymentResult::InFlightConflict)
    );
    let first = s.complete(ticket, true, 2);
    let later = s.charge("k", 100, "order-1", 3);
    assert!(later.is_replay());
    assert_eq!(later.outcome(), &first);
}

/// Stripe (docs.stripe.com/idempotency): "Idempotency keys are up to 255 characters long."
#[test]
fn stripe_keys_are_up_to_255_characters() {
    assert_eq!(validate_key(&"k".repeat(255)), Ok(()));
    assert_eq!(
        validate_key(&"k".repeat(256)),
        Err(InputError::KeyTooLong { len: 256, max: 255 })
    );
    assert_eq!(validate_key(""), Err(InputError::KeyEmpty));
}

/// Stripe (docs.stripe.com/api/idempotent_requests): "With API v2, retries don't repeat
/// successful operations. Stripe retries failed or partially failed work to completion when
/// possible". The production service's success-only caching is v2: a failed first attempt is
/// not replayed, the retry with the same key completes it, once.
#[test]
fn stripe_v2_completes_failed_work_on_retry() {
    let v2 = Policies {
        failure_caching: FailureCaching::SuccessOnly,
        ..Policies::stripe()
    };
    let w = production(
        v2,
        RequestPolicies::default(),
        vec![
            request("k", 100, "order-1", Fault::ProcessorError),
            retry(Fault::None),
            retry(Fault::None),
        ],
    );
    let sent: Vec<PaymentResult> = replies(&w).into_iter().map(|(r, _)| r).collect();
    assert_eq!(sent[0], PaymentResult::ProcessorError);
    assert_eq!(sent[1], PaymentResult::Success { balance: 900 });
    assert!(sent[2].is_replay(), "a success is not repeated");
    assert_eq!(w.ledger().len(), 1);
}

/// Stripe's client, stripe-ruby `APIRequestor.should_retry?` (lib/stripe/api_requestor.rb):
/// `return true if error.http_status == 409` ("409 Conflict") and `true if error.http_status >=
/// 500`, retried with the same idempotency key. The world's retrying client does the same with a
/// 409 "retry with the same key" and a 5xx, and stops at an answer that is final.
#[test]
fn stripe_client_retries_409_and_5xx_with_the_same_key() {
    let operation = |faults: Vec<Fault>| Input::Operation {
        amount: 100,
        description: "order-1".into(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Immediate,
        max_attempts: 3,
        faults,
    };
    // A 409 after a serialization failure: retried, and the retry charges.
    let cache_transient = Policies {
        failure_caching: FailureCaching::AllButTransient,
        ..Policies::stripe()
    };
    for (policies, faults) in [
        (Policies::stripe(), vec![Fault::SerializationFailure]),
        (cache_transient, vec![Fault::ProcessorError]),
    ] {
        let w = production(
            policies,
            RequestPolicies::default(),
            vec![operation(faults)],
        );
        let client = &w.client_results()[0];
        assert_eq!(client.attempts, 2, "{:?}", client.seen);
        assert!(answer(&w, 0).is_success());
        let keys: Vec<KeyId> = w
            .trace()
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::RequestDelivered { key, .. } => Some(key),
                _ => None,
            })
            .collect();
        assert_eq!(keys.len(), 2);
        assert_eq!(keys[0], keys[1], "the same key on the retry");
    }
    // A final answer (a decline, 402) is not retried.
    let mut s = builtin("double-charge").expect("built in");
    s.services = vec![ServiceKind::Production.into()];
    s.initial_balance = 50;
    s.inputs = vec![operation(Vec::new())];
    let w = s.run().expect("runs").remove(0);
    assert_eq!(w.client_results()[0].attempts, 1);
    assert_eq!(answer(&w, 0).http_status(), 402);
}

// ---- rocket-rides-atomic ---------------------------------------------------------------------

/// rocket-rides-atomic `spec/api_spec.rb`, "passes for a new key": a new key runs the request
/// (201 and `Messages.ok`).
#[test]
fn rocket_rides_passes_for_a_new_key() {
    let mut s = service(Policies::rocket_rides());
    assert!(s
        .charge("k-new-0123456789abcdef", 100, "ride", 0)
        .is_success());
    assert_eq!(s.operation_count(), 1);
}

/// rocket-rides-atomic `api.rb`: a finished ride answers `Response.new(201, ...)`, "201 Created".
#[test]
#[ignore = "simplification: a successful charge answers 200 under every policy; rocket-rides creates a ride and answers 201 Created"]
fn rocket_rides_a_new_ride_answers_201_created() {
    let mut s = service(Policies::rocket_rides());
    assert_eq!(
        s.charge("k-new-0123456789abcdef", 100, "ride", 0)
            .http_status(),
        201
    );
}

/// rocket-rides-atomic `spec/api_spec.rb`, "returns a stored result": a key at recovery point
/// `finished` answers its stored `response_code` and `response_body`, nothing run again.
#[test]
fn rocket_rides_returns_a_stored_result() {
    let mut s = service(Policies::rocket_rides());
    let first = s.charge("k", 100, "ride", 0);
    let stored = s.charge("k", 100, "ride", 60 * SECOND);
    assert!(stored.is_replay());
    assert_eq!(stored.outcome(), &first);
    assert_eq!(s.operation_count(), 1);
}

/// rocket-rides-atomic `spec/api_spec.rb`, "stores results for a permanent failure": a declined
/// card (`Stripe::CardError`) is stored as a final 402 and answered again; `api.rb` also stores a
/// generic `Stripe::StripeError` as a final 503 (`Response.new(503, ...)`).
#[test]
fn rocket_rides_stores_a_decline_as_402_and_a_processor_error_as_503() {
    let mut s = service(Policies::rocket_rides());
    assert_eq!(s.charge("k-decline", 5_000, "ride", 0).http_status(), 402);
    let again = s.charge("k-decline", 5_000, "ride", SECOND);
    assert!(again.is_replay());
    assert_eq!(again.http_status(), 402);

    let ticket = s.begin("k-stripe-error", 100, "ride", 0).expect("runs");
    assert_eq!(s.complete(ticket, false, 1), PaymentResult::ProcessorError);
    let again = s.charge("k-stripe-error", 100, "ride", 2);
    assert!(again.is_replay());
    assert_eq!(again.http_status(), 503);
    assert_eq!(s.balance(), 1_000);
}

/// rocket-rides-atomic `spec/api_spec.rb`, "denies requests that have an equivalent in flight":
/// `locked_at` now → 409 `error_request_in_progress`; "passes for keys with a stale locked_at":
/// `locked_at` older than `IDEMPOTENCY_KEY_LOCK_TIMEOUT` (90 s) is taken over and the request runs.
/// The lock is the in-flight record of a request that died holding it (a dropped ticket).
#[test]
fn rocket_rides_a_lock_younger_than_90s_answers_409_and_an_older_one_is_taken_over() {
    let policies = Policies::rocket_rides();
    assert_eq!(policies.in_flight_timeout_ms, 90 * SECOND);
    let mut s = service(policies);
    drop(s.begin("k", 100, "ride", 0).expect("locks the key"));
    let young = s.charge("k", 100, "ride", 90 * SECOND - 1);
    assert_eq!(young, PaymentResult::InFlightConflict);
    assert_eq!(young.http_status(), 409);
    // api.rb: `if key.locked_at && key.locked_at > Time.now - IDEMPOTENCY_KEY_LOCK_TIMEOUT`.
    assert_eq!(
        s.charge("k", 100, "ride", 90 * SECOND),
        PaymentResult::Success { balance: 900 }
    );
}

/// rocket-rides-atomic `spec/api_spec.rb`, "denies requests where parameters don't match on an
/// existing key": 409 `error_params_mismatch`.
#[test]
fn rocket_rides_other_parameters_under_a_key_answer_409() {
    let mut s = service(Policies::rocket_rides());
    assert!(s.charge("k", 100, "ride", 0).is_success());
    let r = s.charge("k", 100, "ride to the moon", 1);
    assert_eq!(r, PaymentResult::ParameterMismatch { status: 409 });
    assert_eq!(r.http_status(), 409);
    assert!(
        !r.is_retryable(),
        "a mismatch is a client bug: retrying cannot fix it"
    );
}

/// rocket-rides-atomic `spec/api_spec.rb`, "denies requests that are missing a key": 400
/// `error_key_required` (`validate_idempotency_key`).
#[test]
fn rocket_rides_denies_a_request_without_a_key_with_400() {
    let requires = RequestPolicies {
        missing_key: MissingKey::Reject400,
        ..RequestPolicies::default()
    };
    let keyless = Input::Request {
        key: None,
        key_format: KeyFormat::V4,
        amount: 100,
        description: "ride".into(),
        fault: Fault::None,
    };
    let w = production(
        Policies::rocket_rides(),
        requires,
        vec![as_caller(0, false, keyless)],
    );
    assert_eq!(answer(&w, 0).http_status(), 400);
    assert_eq!(w.ledger().len(), 0);
}

/// rocket-rides-atomic `spec/api_spec.rb`, "denies requests that have a key that's too short":
/// `IDEMPOTENCY_KEY_MIN_LENGTH = 20` → 400 `error_key_too_short` (and `schema.sql` caps a key at
/// 100 characters).
#[test]
#[ignore = "simplification: every policy accepts keys of 1..=255 characters (Stripe's limit); rocket-rides requires at least 20"]
fn rocket_rides_denies_a_key_shorter_than_20_characters() {
    assert!(validate_key("xxx").is_err());
}

/// rocket-rides-atomic `spec/api_spec.rb`, "unlocks a key and returns 409 on a serialization
/// failure"; `api.rb` `atomic_phase`: `rescue Sequel::SerializationFailure` → `halt 409` with
/// `Messages.error_retry` ("Conflict detected with a concurrent request. Please retry with the
/// same Idmpotency-Key.", its spelling), and `ensure` sets `locked_at: nil`. 409 since commit
/// e19902b, “Correct improper 429 to use "409 Conflict"”. Unlocked, the retry with the same key
/// runs at once instead of waiting out the 90 s lock.
#[test]
fn rocket_rides_a_serialization_failure_answers_409_and_unlocks_the_key() {
    assert_eq!(PaymentResult::RetryWithSameKey.http_status(), 409);
    let w = production(
        Policies::rocket_rides(),
        RequestPolicies::default(),
        vec![Input::Operation {
            amount: 100,
            description: "ride".into(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts: 2,
            faults: vec![Fault::SerializationFailure],
        }],
    );
    let seen = &w.client_results()[0].seen;
    assert!(matches!(
        &seen[0].outcome,
        AttemptOutcome::Reply(PaymentResult::RetryWithSameKey)
    ));
    assert!(PaymentResult::RetryWithSameKey.is_refusal());
    assert_eq!(
        count(&w, |k| matches!(k, EventKind::StoreRelease { .. })),
        1,
        "the key is unlocked"
    );
    assert!(matches!(&seen[1].outcome, AttemptOutcome::Reply(r) if r.is_success()));
    let charged_at = w
        .trace()
        .iter()
        .find(|e| matches!(e.kind, EventKind::Charge { .. }))
        .map(|e| e.time_ms)
        .expect("charged");
    assert!(charged_at < 90 * SECOND, "charged at {charged_at} ms");
    assert_eq!(w.ledger().len(), 1);
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

/// rocket-rides-atomic `spec/api_spec.rb`, "unlocks a key and returns 500 on an internal error":
/// any other exception in an atomic phase answers 500 and unlocks the key, leaving its recovery
/// point for the retry.
#[test]
#[ignore = "simplification: no fault answers 500 and unlocks the key; a crash (the process dying) sends no reply and leaves the lock to expire"]
fn rocket_rides_an_internal_error_answers_500_and_unlocks_the_key() {
    // The closest fault the model has: the worker fails before touching the balance. rocket-rides
    // would answer it with 500 at once and unlock the key; the model's process dies silently.
    let w = production(
        Policies::rocket_rides(),
        RequestPolicies::default(),
        vec![request("k", 100, "ride", Fault::CrashBeforeCharge)],
    );
    let sent = replies(&w);
    assert_eq!(sent.len(), 1, "one reply to the failed request");
    assert_eq!(sent[0].0.http_status(), 500);
}

/// rocket-rides-atomic `spec/api_spec.rb`, "continues from charge_created": a key whose charge was
/// made (`stripe_charge_id` set, recovery point `charge_created`) goes on from there, and Stripe
/// is not called again. Here the worker dies after the card processor charged; the retry that
/// takes the expired lock over resumes from the recovery point: one charge, and the client gets
/// its answer.
#[test]
fn rocket_rides_continues_from_the_recovery_point_after_the_charge() {
    let mut s = builtin("slow-processor").expect("built in");
    s.downstream.recovery_points = true;
    s.inputs = vec![Input::Operation {
        amount: 100,
        description: "ride".into(),
        key_format: KeyFormat::V4,
        key_strategy: KeyStrategy::Reuse,
        retry: RetryPolicy::Fixed {
            delay_ms: 30 * SECOND,
        },
        max_attempts: 5,
        faults: vec![Fault::CrashAfterChargeBeforeRecord],
    }];
    let w = s.run().expect("runs").remove(0);
    assert_eq!(w.ledger().len(), 1);
    assert_eq!(count(&w, |k| matches!(k, EventKind::Resumed { .. })), 1);
    assert!(answer(&w, 0).is_success());
    assert!(w.violations().is_empty(), "{:?}", w.violations());
}

/// rocket-rides-atomic `api.rb`: `Stripe::Charge.create(..., { idempotency_key:
/// "rocket-rides-atomic-#{key.id}" })`, "so that we can guarantee uniqueness to Stripe": a second
/// call for the same key is answered by Stripe's replay, not a second charge. Here the lock
/// outlives a slow processor and a retry takes it over: with the key passed on, the processor
/// replays.
#[test]
fn rocket_rides_passes_its_own_key_on_to_stripe() {
    let mut s = builtin("slow-processor").expect("built in");
    let unpassed = s.run().expect("runs").remove(0);
    assert_eq!(unpassed.ledger().len(), 2, "the lesson's double charge");
    s.downstream.pass_key = true;
    let w = s.run().expect("runs").remove(0);
    assert_eq!(w.ledger().len(), 1);
    assert!(count(&w, |k| matches!(k, EventKind::ProcessorReplay { .. })) >= 1);
}

/// rocket-rides-atomic `spec/reaper_spec.rb` and `reaper.rb`: keys created more than
/// `IDEMPOTENCY_KEY_REAP_TIMEOUT` (72 h) ago are deleted ("pushes through an existing idempotency
/// key"), newer ones stay ("ignores keys not outside of reap threshold"). A reaped key is a new
/// key.
#[test]
fn rocket_rides_keys_are_reaped_after_72_hours() {
    let mut s = service(Policies {
        retention_ms: 72 * HOUR,
        ..Policies::rocket_rides()
    });
    assert!(s.charge("k", 100, "ride", 0).is_success());
    assert!(s.charge("k", 100, "ride", 72 * HOUR - 1).is_replay());
    assert!(!s.charge("k", 100, "ride", 72 * HOUR + 1).is_replay());
    assert_eq!(s.operation_count(), 2);
}

/// rocket-rides-atomic `api.rb`: `IDEMPOTENCY_KEY_REAP_TIMEOUT = 72 * 3600` ("72 hours gives
/// enough time for the entire weekend to pass"): the policies named after rocket-rides should keep
/// a key 72 h, as the reaper does.
#[test]
fn rocket_rides_policies_keep_keys_72_hours() {
    assert_eq!(Policies::rocket_rides().retention_ms, 72 * HOUR);
}

/// rocket-rides-atomic `completer.rb` and `spec/completer_spec.rb`: a completer process re-drives
/// keys left unfinished (not `finished`, last run over 60 s ago, unlocked) without the client.
#[test]
#[ignore = "simplification: there is no completer process; only a client's retry drives an unfinished key on"]
fn rocket_rides_the_completer_pushes_unfinished_keys_through() {
    // A key left after the charge and before its record, and no client retry: the completer
    // would finish it (one charge, a stored result) without the client.
    let w = production(
        Policies::rocket_rides(),
        RequestPolicies::default(),
        vec![request(
            "k",
            100,
            "ride",
            Fault::CrashAfterChargeBeforeRecord,
        )],
    );
    assert_eq!(w.ledger().len(), 1);
    assert_eq!(
        count(&w, |k| matches!(k, EventKind::Resumed { .. })),
        1,
        "the unfinished key pushed through"
    );
}

// ---- AWS Lambda Powertools idempotency (Python) ----------------------------------------------

/// Powertools `test_idempotent_lambda_in_progress`: a record `INPROGRESS` raises
/// `IdempotencyAlreadyInProgressError`; `test_handler_for_status_inprogress_data_record_
/// inconsistent` and PR #1387: an `INPROGRESS` record past its `in_progress_expiration` (the
/// invocation's remaining time) no longer blocks the key, "if a Lambda invocation times out, the
/// invocation will be tried again on the next retry".
#[test]
fn powertools_an_in_progress_record_blocks_until_it_expires() {
    let policies = Policies {
        in_flight_timeout_ms: 5 * SECOND,
        ..Policies::stripe()
    };
    let mut s = service(policies);
    drop(s.begin("k", 100, "order-1", 0).expect("INPROGRESS"));
    assert_eq!(
        s.charge("k", 100, "order-1", 5 * SECOND - 1),
        PaymentResult::InFlightConflict
    );
    assert!(s.charge("k", 100, "order-1", 5 * SECOND).is_success());
}

/// Powertools `test_idempotent_lambda_expired` and `IdempotencyConfig(expires_after_seconds=
/// 3600)`, the default: an event handled already but "outside of the expiry window" runs again;
/// inside it, `test_idempotent_lambda_already_completed` returns the stored response.
#[test]
fn powertools_a_completed_record_expires_after_an_hour_by_default() {
    let mut s = service(Policies {
        retention_ms: HOUR,
        ..Policies::stripe()
    });
    assert!(s.charge("k", 100, "order-1", 0).is_success());
    assert!(s.charge("k", 100, "order-1", HOUR - SECOND).is_replay());
    assert!(!s.charge("k", 100, "order-1", HOUR + SECOND).is_replay());
}

/// Powertools `test_idempotent_lambda_exception`: the handler "raises an exception which is
/// retryable" and the record is deleted (`delete_item`), so a retry runs again; a returned
/// response is stored. The production service that caches all but transient failures: a 503
/// from the processor frees the key, a decline (402) is stored.
#[test]
fn powertools_an_exception_deletes_the_record_and_a_returned_error_is_stored() {
    let mut s = service(Policies {
        failure_caching: FailureCaching::AllButTransient,
        ..Policies::stripe()
    });
    let ticket = s.begin("k", 100, "order-1", 0).expect("runs");
    assert_eq!(s.complete(ticket, false, 1), PaymentResult::ProcessorError);
    assert_eq!(
        s.charge("k", 100, "order-1", 2),
        PaymentResult::Success { balance: 900 }
    );
    assert_eq!(s.charge("k-big", 5_000, "order-2", 3).http_status(), 402);
    assert!(s.charge("k-big", 5_000, "order-2", 4).is_replay());
}

/// Powertools `test_idempotent_lambda_already_completed_with_validation_bad_payload`
/// (`payload_validation_jmespath`): the same key with an altered payload raises
/// `IdempotencyValidationError` instead of returning the stored response, on every path: after
/// the fixes of #3781 (Python), #2058 (TypeScript), #2260 (Java) also when the conditional write
/// that claims the key is what finds the record.
#[test]
fn powertools_payload_validation_refuses_an_altered_payload_on_every_path() {
    let inputs = vec![
        request("k", 100, "order-1", Fault::None),
        request("k", 300, "order-1", Fault::None),
    ];
    let w = production(
        Policies::stripe(),
        RequestPolicies::default(),
        inputs.clone(),
    );
    assert!(matches!(
        answer(&w, 1),
        PaymentResult::ParameterMismatch { .. }
    ));
    assert!(w.violations().is_empty(), "{:?}", w.violations());
    // The bug: checked only on the read path, the claim path replays another request.
    let buggy = RequestPolicies {
        payload_check: PayloadCheck::ReadPathOnly,
        ..RequestPolicies::default()
    };
    let w = production(Policies::stripe(), buggy, inputs);
    assert!(answer(&w, 1).is_replay());
    assert!(w
        .violations()
        .iter()
        .any(|v| v.invariant == Invariant::ReplayMatchesRequest));
}

/// Powertools `test_default_no_raise_on_missing_idempotency_key` (the handler runs, the key is
/// `None`, a warning only) and `test_handler_raise_idempotency_key_error`
/// (`raise_on_no_idempotency_key=True` raises `IdempotencyKeyError` and the handler never runs).
#[test]
fn powertools_a_missing_key_runs_unprotected_unless_told_to_raise() {
    let keyless = || {
        as_caller(
            0,
            false,
            Input::Request {
                key: None,
                key_format: KeyFormat::V4,
                amount: 100,
                description: "order-1".into(),
                fault: Fault::None,
            },
        )
    };
    let w = production(
        Policies::stripe(),
        RequestPolicies::default(),
        vec![keyless()],
    );
    assert!(answer(&w, 0).is_success());
    assert!(w.store_rows().is_empty(), "nothing recorded without a key");
    let raise = RequestPolicies {
        missing_key: MissingKey::Reject400,
        ..RequestPolicies::default()
    };
    let w = production(Policies::stripe(), raise, vec![keyless()]);
    assert_eq!(
        answer(&w, 0),
        PaymentResult::invalid(InputError::MissingKey)
    );
    assert_eq!(w.ledger().len(), 0);
}
