//! The HTTP exchange each attempt stands for (issue 26): the request a client sends and the
//! response the server sends back, as data (method, path, headers, status, body fields). The page
//! writes them out (`ui/text/http.rs`); nothing here is display text.
//!
//! What it imitates:
//! - every charge is `POST /charges`, its key in the IETF draft's `Idempotency-Key` header as an
//!   RFC 8941 sf-string, quoted (draft-ietf-httpapi-idempotency-key-header, 2.1 and section 8's
//!   `Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"`);
//! - a stored result returned again carries the first execution's status and body and Stripe's
//!   `Idempotent-Replayed: true` (stripe/stripe-ruby#905 and #907; docs.stripe.com/error-low-level);
//! - an error's body is problem details (RFC 9457, which replaced the draft's RFC 7807:
//!   `application/problem+json` with `type`, `title` and `detail`). The draft's three errors, a
//!   missing key (400), a request still outstanding (409) and a key reused with another payload
//!   (422, or the status the policy answers with), take the `type` of the draft's examples
//!   (section 2.7); so do the other answers about the key. The rest take `about:blank`, whose
//!   title is the status's reason phrase (RFC 9457, 4.2.1);
//! - `Retry-After` (RFC 9110, 10.2.3) on a fresh answer that asks for the same request again
//!   later: 409 for a request still in flight, and 503. The world's clients keep to their own
//!   retry policy and do not read it.

use super::client::{AttemptRec, Clients, Wire};
use super::intern::{Interner, OpId};
use crate::sim::article::key::sf_string;
use crate::sim::article::PaymentResult;
use crate::sim::limits::InputError;

/// The method of every charge.
pub const CHARGE_METHOD: &str = "POST";
/// The path of every charge.
pub const CHARGE_PATH: &str = "/charges";
/// The problem `type` of the draft's examples, for answers about the key.
pub const IDEMPOTENCY_PROBLEM: &str = "https://developer.example.com/idempotency";
/// RFC 9457's default problem `type`: the status says what happened.
pub const BLANK_PROBLEM: &str = "about:blank";
/// What `Retry-After` asks a client to wait, in seconds.
pub const RETRY_AFTER_SECONDS: u64 = 1;

/// A body's media type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaType {
    /// `application/json`.
    Json,
    /// `application/problem+json` (RFC 9457).
    ProblemJson,
}

impl MediaType {
    /// Its name in `Content-Type`.
    pub fn id(self) -> &'static str {
        match self {
            Self::Json => "application/json",
            Self::ProblemJson => "application/problem+json",
        }
    }
}

/// A header field of a request or a response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Header {
    /// `Idempotency-Key`: `value` is the key as an sf-string, quotes and escapes included.
    IdempotencyKey {
        /// The serialized value (`"8e03…"`).
        value: String,
    },
    /// A key that is not an sf-string (a run from an old link or file keeps such keys), so no
    /// real client could send it as `Idempotency-Key`; `error` says which character.
    KeyNotSendable {
        /// The key as the run holds it.
        key: String,
        /// The character that breaks the rule.
        error: InputError,
    },
    /// `Content-Type`.
    ContentType(MediaType),
    /// `Idempotent-Replayed: true` (Stripe): a stored result returned again.
    IdempotentReplayed,
    /// `Retry-After`, in seconds.
    RetryAfter {
        /// How long to wait.
        seconds: u64,
    },
}

impl Header {
    /// The field name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::IdempotencyKey { .. } | Self::KeyNotSendable { .. } => "Idempotency-Key",
            Self::ContentType(_) => "Content-Type",
            Self::IdempotentReplayed => "Idempotent-Replayed",
            Self::RetryAfter { .. } => "Retry-After",
        }
    }
}

/// A charge's JSON body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChargeBody {
    /// `amount`.
    pub amount: i64,
    /// `description`.
    pub description: String,
    /// `sent_at`: the client's send time, written in by a client that stamps its bodies.
    pub sent_at_ms: Option<u64>,
}

/// The request an attempt sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpRequest {
    /// [`CHARGE_METHOD`].
    pub method: &'static str,
    /// [`CHARGE_PATH`].
    pub path: &'static str,
    /// `Idempotency-Key` (unless the caller sends none), then `Content-Type`.
    pub headers: Vec<Header>,
    /// The charge.
    pub body: ChargeBody,
}

/// What a problem details body reports; its `title` and `detail` are the page's words for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    /// The draft's 400: the operation requires an `Idempotency-Key` and none came.
    MissingKey,
    /// The draft's 422 (Stripe 400, rocket-rides 409): the key came before with another payload.
    KeyReused,
    /// The draft's 409: a request with the key is still being processed.
    Outstanding,
    /// 409 after a serialization failure (rocket-rides): nothing committed, retry with the key.
    RetryWithSameKey,
    /// 400: the request broke a limit.
    Invalid(InputError),
    /// 402: the balance was too low.
    InsufficientFunds {
        /// The balance at the check.
        balance: i64,
    },
    /// 503: the card processor failed.
    ProcessorError,
    /// 503: the key store could not be reached.
    StoreUnavailable,
}

impl ProblemKind {
    /// The problem's `type`: the draft's for an answer about the key, else `about:blank`.
    pub fn type_uri(&self) -> &'static str {
        match self {
            Self::MissingKey | Self::KeyReused | Self::Outstanding | Self::RetryWithSameKey => {
                IDEMPOTENCY_PROBLEM
            }
            Self::Invalid(
                InputError::KeyEmpty
                | InputError::KeyTooLong { .. }
                | InputError::KeyNotSfString { .. },
            ) => IDEMPOTENCY_PROBLEM,
            _ => BLANK_PROBLEM,
        }
    }
}

/// A response's body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseBody {
    /// The charge went through: `{"balance": …}`.
    Charge {
        /// The balance after it.
        balance: i64,
    },
    /// Problem details.
    Problem(ProblemKind),
}

impl ResponseBody {
    /// The body for a first execution's result: the charge, or the problem.
    fn of(outcome: &PaymentResult) -> ResponseBody {
        ResponseBody::Problem(match outcome {
            PaymentResult::Success { balance } => {
                return ResponseBody::Charge { balance: *balance }
            }
            // A replay's body is the first execution's (`PaymentResult::outcome` unwraps it).
            PaymentResult::DuplicateRequest { original_result } => {
                return ResponseBody::of(original_result.outcome())
            }
            PaymentResult::InsufficientFunds { balance } => {
                ProblemKind::InsufficientFunds { balance: *balance }
            }
            PaymentResult::InFlightConflict => ProblemKind::Outstanding,
            PaymentResult::ParameterMismatch { .. } => ProblemKind::KeyReused,
            PaymentResult::ProcessorError => ProblemKind::ProcessorError,
            PaymentResult::InvalidRequest { error }
                if matches!(**error, InputError::MissingKey) =>
            {
                ProblemKind::MissingKey
            }
            PaymentResult::InvalidRequest { error } => ProblemKind::Invalid((**error).clone()),
            PaymentResult::StoreUnavailable => ProblemKind::StoreUnavailable,
            PaymentResult::RetryWithSameKey => ProblemKind::RetryWithSameKey,
        })
    }
}

/// The response the server sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code (a replay's is the first execution's).
    pub status: u16,
    /// `Content-Type`, then `Idempotent-Replayed` and `Retry-After` where they apply.
    pub headers: Vec<Header>,
    /// The body (a replay's is the first execution's).
    pub body: ResponseBody,
}

impl HttpResponse {
    /// The response that stands for `result`; `replayed` when it is a stored result returned
    /// again.
    pub fn of(result: &PaymentResult, replayed: bool) -> HttpResponse {
        let body = ResponseBody::of(result.outcome());
        let media = match body {
            ResponseBody::Charge { .. } => MediaType::Json,
            ResponseBody::Problem(_) => MediaType::ProblemJson,
        };
        let mut headers = vec![Header::ContentType(media)];
        if replayed {
            headers.push(Header::IdempotentReplayed);
        } else if matches!(
            result,
            PaymentResult::InFlightConflict
                | PaymentResult::ProcessorError
                | PaymentResult::StoreUnavailable
        ) {
            headers.push(Header::RetryAfter {
                seconds: RETRY_AFTER_SECONDS,
            });
        }
        HttpResponse {
            status: result.http_status(),
            headers,
            body,
        }
    }

    /// Whether it carries `Idempotent-Replayed: true`.
    pub fn is_replayed(&self) -> bool {
        self.headers
            .iter()
            .any(|h| matches!(h, Header::IdempotentReplayed))
    }
}

/// What became of a response the server sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyFate {
    /// On its way back.
    OnItsWay,
    /// Reached the client while it waited.
    Delivered,
    /// Reached the client after it had stopped waiting: ignored.
    Late,
    /// Dropped by the network.
    Lost,
}

/// What came back for a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// Nothing yet: the request is on its way or at the server.
    Pending,
    /// The network dropped the request; the server never saw it.
    RequestLost,
    /// The server died working on it: no response will come.
    NoReply,
    /// The server answered.
    Sent {
        /// The response.
        response: HttpResponse,
        /// What became of it.
        fate: ReplyFate,
    },
}

/// One attempt as the HTTP request and response it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// The attempt, from 1.
    pub attempt: u32,
    /// What the client sent.
    pub request: HttpRequest,
    /// What came back.
    pub reply: Reply,
}

impl Clients {
    /// Operation `op`'s attempts as HTTP exchanges, in the order sent (none for an unknown
    /// operation), their keys and descriptions read from `interner`. Reads only the attempts
    /// sent since the operation began.
    pub(super) fn exchanges(&self, interner: &Interner, op: OpId) -> Vec<Exchange> {
        let Some(result) = self.results.get(op.0 as usize) else {
            return Vec::new();
        };
        let caller = self.caller_of(op);
        let description = interner.description_text(result.description).unwrap_or("");
        let mut out = Vec::new();
        // Attempts are numbered in the order sent: walk back to this operation's first.
        for i in (0..self.attempts.len()).rev() {
            let Some(rec) = self.attempts.get(i).filter(|r| r.op == op) else {
                continue;
            };
            let mut headers = Vec::with_capacity(2);
            if caller.sends_key {
                let key = interner.key_text(rec.key).unwrap_or_default();
                headers.push(match sf_string(&key) {
                    Ok(value) => Header::IdempotencyKey { value },
                    Err(error) => Header::KeyNotSendable { key, error },
                });
            }
            headers.push(Header::ContentType(MediaType::Json));
            out.push(Exchange {
                attempt: rec.n,
                request: HttpRequest {
                    method: CHARGE_METHOD,
                    path: CHARGE_PATH,
                    headers,
                    body: ChargeBody {
                        amount: result.amount,
                        description: description.to_string(),
                        sent_at_ms: caller.stamps_body.then_some(rec.sent_at),
                    },
                },
                reply: reply(rec),
            });
            if rec.n <= 1 {
                break;
            }
        }
        out.reverse();
        out
    }
}

fn reply(rec: &AttemptRec) -> Reply {
    let fate = match rec.wire {
        Wire::Sent | Wire::AtServer => return Reply::Pending,
        Wire::RequestLost => return Reply::RequestLost,
        Wire::Crashed => return Reply::NoReply,
        Wire::Replied => ReplyFate::OnItsWay,
        Wire::Delivered => ReplyFate::Delivered,
        Wire::Late => ReplyFate::Late,
        Wire::ResponseLost => ReplyFate::Lost,
    };
    match &rec.answer {
        Some(result) => Reply::Sent {
            response: HttpResponse::of(result, rec.replayed),
            fate,
        },
        None => Reply::Pending,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::base::uuidgen::KeyFormat;
    use crate::sim::limits::MAX_AMOUNT;
    use crate::sim::world::account::Caller;
    use crate::sim::world::client::{KeyStrategy, RetryPolicy};
    use crate::sim::world::fault::Fault;
    use crate::sim::world::input::Input;
    use crate::sim::world::server::ServiceKind;
    use crate::sim::world::{World, WorldConfig};

    fn problem(r: &HttpResponse) -> (&ProblemKind, &'static str) {
        match &r.body {
            ResponseBody::Problem(p) => (p, p.type_uri()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_success_is_200_with_its_balance_and_no_problem() {
        let r = HttpResponse::of(&PaymentResult::Success { balance: 900 }, false);
        assert_eq!(r.status, 200);
        assert_eq!(r.headers, [Header::ContentType(MediaType::Json)]);
        assert_eq!(r.body, ResponseBody::Charge { balance: 900 });
        assert!(!r.is_replayed());
    }

    #[test]
    fn the_drafts_400_409_and_422_are_problem_details_of_its_type() {
        let missing = HttpResponse::of(&PaymentResult::invalid(InputError::MissingKey), false);
        assert_eq!(missing.status, 400);
        assert_eq!(
            missing.headers,
            [Header::ContentType(MediaType::ProblemJson)]
        );
        assert_eq!(
            problem(&missing),
            (&ProblemKind::MissingKey, IDEMPOTENCY_PROBLEM)
        );
        // A key reused with another payload: the draft's 422, Stripe's 400, rocket-rides' 409.
        for status in [422, 400, 409] {
            let reused = HttpResponse::of(&PaymentResult::ParameterMismatch { status }, false);
            assert_eq!(reused.status, status);
            assert_eq!(
                problem(&reused),
                (&ProblemKind::KeyReused, IDEMPOTENCY_PROBLEM)
            );
            assert!(
                !reused.headers.iter().any(|h| h.name() == "Retry-After"),
                "a reused key needs a correction, not a wait"
            );
        }
        let outstanding = HttpResponse::of(&PaymentResult::InFlightConflict, false);
        assert_eq!(outstanding.status, 409);
        assert_eq!(
            outstanding.headers,
            [
                Header::ContentType(MediaType::ProblemJson),
                Header::RetryAfter {
                    seconds: RETRY_AFTER_SECONDS
                }
            ]
        );
        assert_eq!(
            problem(&outstanding),
            (&ProblemKind::Outstanding, IDEMPOTENCY_PROBLEM)
        );
        assert_eq!(
            IDEMPOTENCY_PROBLEM,
            "https://developer.example.com/idempotency"
        );
    }

    #[test]
    fn the_other_answers_are_problems_too_and_503_asks_for_a_wait() {
        let retry = HttpResponse::of(&PaymentResult::RetryWithSameKey, false);
        assert_eq!(retry.status, 409);
        assert_eq!(
            problem(&retry),
            (&ProblemKind::RetryWithSameKey, IDEMPOTENCY_PROBLEM)
        );
        assert_eq!(
            retry.headers.len(),
            1,
            "retried at once: the key is unlocked"
        );
        let too_big = InputError::AmountOutOfRange {
            amount: MAX_AMOUNT + 1,
            min: 1,
            max: MAX_AMOUNT,
        };
        let invalid = HttpResponse::of(&PaymentResult::invalid(too_big.clone()), false);
        assert_eq!(invalid.status, 400);
        assert_eq!(
            problem(&invalid),
            (&ProblemKind::Invalid(too_big), BLANK_PROBLEM)
        );
        let long_key = InputError::KeyTooLong { len: 256, max: 255 };
        let invalid = HttpResponse::of(&PaymentResult::invalid(long_key), false);
        assert_eq!(problem(&invalid).1, IDEMPOTENCY_PROBLEM);
        let declined = HttpResponse::of(&PaymentResult::InsufficientFunds { balance: 50 }, false);
        assert_eq!(declined.status, 402);
        assert_eq!(
            problem(&declined),
            (
                &ProblemKind::InsufficientFunds { balance: 50 },
                BLANK_PROBLEM
            )
        );
        assert_eq!(declined.headers.len(), 1);
        for (result, kind) in [
            (PaymentResult::ProcessorError, ProblemKind::ProcessorError),
            (
                PaymentResult::StoreUnavailable,
                ProblemKind::StoreUnavailable,
            ),
        ] {
            let r = HttpResponse::of(&result, false);
            assert_eq!(r.status, 503);
            assert_eq!(problem(&r), (&kind, BLANK_PROBLEM));
            assert!(r.headers.contains(&Header::RetryAfter { seconds: 1 }));
        }
    }

    #[test]
    fn a_replay_is_the_first_status_and_body_marked_idempotent_replayed() {
        let replay = |first: PaymentResult| PaymentResult::DuplicateRequest {
            original_result: Box::new(first),
        };
        let r = HttpResponse::of(&replay(PaymentResult::Success { balance: 900 }), true);
        assert_eq!(r.status, 200);
        assert_eq!(
            r.headers,
            [
                Header::ContentType(MediaType::Json),
                Header::IdempotentReplayed
            ]
        );
        assert_eq!(r.body, ResponseBody::Charge { balance: 900 });
        assert!(r.is_replayed());
        // A stored 503 comes back as it was (Stripe v1), marked, without asking for a wait.
        let r = HttpResponse::of(&replay(PaymentResult::ProcessorError), true);
        assert_eq!(r.status, 503);
        assert_eq!(
            r.headers,
            [
                Header::ContentType(MediaType::ProblemJson),
                Header::IdempotentReplayed
            ]
        );
        assert_eq!(problem(&r).0, &ProblemKind::ProcessorError);
        assert_eq!(Header::IdempotentReplayed.name(), "Idempotent-Replayed");
    }

    fn run(service: ServiceKind, script: Vec<Input>) -> World {
        let config = WorldConfig {
            service,
            ..WorldConfig::default()
        };
        let mut w = World::with_script(config, script).expect("valid");
        w.run_until_idle();
        w
    }

    fn operation(max_attempts: u32, faults: Vec<Fault>) -> Input {
        Input::Operation {
            amount: 100,
            description: "order-1".into(),
            key_format: KeyFormat::V4,
            key_strategy: KeyStrategy::Reuse,
            retry: RetryPolicy::Immediate,
            max_attempts,
            faults,
        }
    }

    fn sent(x: &Exchange) -> (u16, bool, ReplyFate) {
        match &x.reply {
            Reply::Sent { response, fate } => (response.status, response.is_replayed(), *fate),
            other => panic!("attempt {}: {other:?}", x.attempt),
        }
    }

    #[test]
    fn each_try_sends_the_same_quoted_key_and_the_retries_are_replays() {
        // The key-replays lesson: two replies lost, three tries, one key.
        let w = run(
            ServiceKind::Atomic,
            vec![operation(3, vec![Fault::ResponseLost, Fault::ResponseLost])],
        );
        let xs = w.exchanges(OpId(0));
        assert_eq!(xs.iter().map(|x| x.attempt).collect::<Vec<_>>(), [1, 2, 3]);
        let key = w.key_text(w.client_results()[0].key).expect("a key");
        for x in &xs {
            assert_eq!((x.request.method, x.request.path), ("POST", "/charges"));
            assert_eq!(
                x.request.headers,
                [
                    Header::IdempotencyKey {
                        value: format!("\"{key}\"")
                    },
                    Header::ContentType(MediaType::Json)
                ]
            );
            assert_eq!(
                x.request.body,
                ChargeBody {
                    amount: 100,
                    description: "order-1".into(),
                    sent_at_ms: None
                }
            );
        }
        assert_eq!(sent(&xs[0]), (200, false, ReplyFate::Lost));
        assert_eq!(sent(&xs[1]), (200, true, ReplyFate::Lost));
        assert_eq!(sent(&xs[2]), (200, true, ReplyFate::Delivered));
        // The naive service executes every try: no mark.
        let w = run(
            ServiceKind::Naive,
            vec![operation(3, vec![Fault::ResponseLost, Fault::ResponseLost])],
        );
        let marks: Vec<bool> = w.exchanges(OpId(0)).iter().map(|x| sent(x).1).collect();
        assert_eq!(marks, [false, false, false]);
        assert!(w.exchanges(OpId(1)).is_empty(), "no such operation");
    }

    #[test]
    fn a_lost_request_a_crash_and_a_request_still_on_its_way() {
        let w = run(
            ServiceKind::Atomic,
            vec![operation(
                3,
                vec![Fault::RequestLost, Fault::CrashAfterCommitBeforeReply],
            )],
        );
        let xs = w.exchanges(OpId(0));
        assert_eq!(xs[0].reply, Reply::RequestLost);
        assert_eq!(xs[1].reply, Reply::NoReply);
        assert_eq!(sent(&xs[2]), (200, true, ReplyFate::Delivered));
        // Before any step the first request has only been sent.
        let config = WorldConfig::default();
        let mut w = World::with_script(config, vec![operation(1, vec![])]).expect("valid");
        w.step();
        assert_eq!(w.exchanges(OpId(0))[0].reply, Reply::Pending);
    }

    #[test]
    fn who_sends_decides_the_headers_and_the_body() {
        let keyless = Input::As {
            caller: Caller {
                account: 0,
                stamps_body: true,
                sends_key: false,
            },
            input: Box::new(operation(1, vec![])),
        };
        let w = run(ServiceKind::Atomic, vec![keyless]);
        let x = &w.exchanges(OpId(0))[0];
        assert_eq!(x.request.headers, [Header::ContentType(MediaType::Json)]);
        assert!(x.request.body.sent_at_ms.is_some());
        // A key that is not an sf-string (a run from an old link keeps it) cannot be sent.
        let old = Input::Request {
            key: Some("注文-1".into()),
            key_format: KeyFormat::V4,
            amount: 100,
            description: "order-1".into(),
            fault: Fault::None,
        };
        let w = run(ServiceKind::Atomic, vec![old]);
        assert_eq!(
            w.exchanges(OpId(0))[0].request.headers[0],
            Header::KeyNotSendable {
                key: "注文-1".into(),
                error: InputError::KeyNotSfString {
                    at: 1,
                    code: 0x6CE8
                }
            }
        );
    }
}
