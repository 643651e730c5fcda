//! The HTTP exchange as a learner would see it on the wire (issue 26): an attempt's request and
//! response written out from the core's data (`crate::sim::Exchange`), the words of each problem
//! details body, what became of a request that got no response, and the page's "What this model
//! leaves out" for HTTP. Field names, media types and reason phrases are the protocol's own and
//! stay in English in both languages; titles, details and notes are the page's.

use crate::sim::json::write_str;
use std::borrow::Cow;

use crate::sim::{Exchange, Header, HttpResponse, InputError, ProblemKind, Reply, ReplyFate};
use crate::ui::i18n::{pair, Lang, Pair};

use super::errors::input_error;

/// RFC 9110's reason phrase for the statuses the services answer with.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        402 => "Payment Required",
        409 => "Conflict",
        422 => "Unprocessable Content",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// A problem's `title` and `detail`. The draft's three errors take its titles (section 2.7);
/// an `about:blank` problem takes the reason phrase as its title (RFC 9457, 4.2.1).
pub fn problem_words(
    lang: Lang,
    p: &ProblemKind,
    status: u16,
) -> (&'static str, Cow<'static, str>) {
    let (title, detail) = match p {
        ProblemKind::MissingKey => (
            lang.t("Idempotency-Key is missing", "Idempotency-Key がない"),
            lang.t(
                "This operation requires an Idempotency-Key.",
                "この操作には Idempotency-Key が必要。",
            ),
        ),
        ProblemKind::KeyReused => (
            lang.t(
                "Idempotency-Key is already used",
                "Idempotency-Key は使用済み",
            ),
            lang.t(
                "This key came before with another payload.",
                "このキーは別のペイロードで使用済み。",
            ),
        ),
        ProblemKind::Outstanding => (
            lang.t(
                "A request is outstanding for this Idempotency-Key",
                "この Idempotency-Key のリクエストが処理中",
            ),
            lang.t(
                "It is still being processed: send it again later, unchanged.",
                "まだ処理中。後でそのまま送り直す。",
            ),
        ),
        ProblemKind::RetryWithSameKey => (
            lang.t(
                "The request conflicted with a concurrent one",
                "並行するリクエストと衝突した",
            ),
            lang.t(
                "Rolled back, nothing charged: retry with the same key.",
                "巻き戻し済みで課金なし。同じキーで送り直す。",
            ),
        ),
        ProblemKind::Invalid(e) => {
            let title = match p.type_uri() {
                crate::sim::BLANK_PROBLEM => reason(status),
                _ => lang.t("Idempotency-Key is invalid", "Idempotency-Key が不正"),
            };
            return (title, input_error(lang, e).into());
        }
        ProblemKind::InsufficientFunds { .. } => (
            reason(status),
            lang.t("The balance is below the amount.", "残高が金額に足りない。"),
        ),
        ProblemKind::ProcessorError => (
            reason(status),
            lang.t("The card processor failed.", "決済代行が失敗した。"),
        ),
        ProblemKind::StoreUnavailable => (
            reason(status),
            lang.t(
                "The store that holds the keys is unreachable.",
                "キーを保持するストアに届かない。",
            ),
        ),
    };
    (title, detail.into())
}

/// One try as sent and answered: the request (request line, header fields, a blank line, the
/// JSON body), then, if the server answered, a blank line and the response (status line, header
/// fields, a blank line, the body). A key that is not an sf-string is left out of the fields and
/// explained in the note.
pub fn exchange_text(lang: Lang, x: &Exchange) -> (String, Option<String>) {
    let r = &x.request;
    let mut out = String::with_capacity(400);
    out.push_str(r.method);
    out.push(' ');
    out.push_str(r.path);
    out.push_str(" HTTP/1.1\n");
    let mut note = None;
    for h in &r.headers {
        match h {
            Header::KeyNotSendable { key, error } => {
                let mut n = String::from(lang.t(
                    "Not sent as a header: the key “",
                    "ヘッダーとして送れない：キー「",
                ));
                n.push_str(key);
                n.push_str(lang.t("” is not an sf-string. ", "」は sf-string ではない。"));
                n.push_str(&input_error(lang, error));
                note = Some(n);
            }
            h => field(&mut out, h),
        }
    }
    out.push_str("\n{\"amount\":");
    out.push_str(&r.body.amount.to_string());
    out.push_str(",\"description\":");
    write_str(&mut out, &r.body.description);
    if let Some(at) = r.body.sent_at_ms {
        out.push_str(",\"sent_at\":");
        out.push_str(&at.to_string());
    }
    out.push('}');
    if let Reply::Sent { response, .. } = &x.reply {
        out.push_str("\n\nHTTP/1.1 ");
        response_text(lang, &mut out, response);
    }
    (out, note)
}

fn field(out: &mut String, h: &Header) {
    out.push_str(h.name());
    out.push_str(": ");
    match h {
        Header::IdempotencyKey { value } => out.push_str(value),
        Header::ContentType(m) => out.push_str(m.id()),
        Header::IdempotentReplayed => out.push_str("true"),
        Header::RetryAfter { seconds } => out.push_str(&seconds.to_string()),
        Header::KeyNotSendable { key, .. } => out.push_str(key),
    }
    out.push('\n');
}

/// The response after `HTTP/1.1 `: status and reason, header fields, a blank line, the body.
fn response_text(lang: Lang, out: &mut String, r: &HttpResponse) {
    out.push_str(&u32::from(r.status).to_string());
    out.push(' ');
    out.push_str(reason(r.status));
    out.push('\n');
    for h in &r.headers {
        field(out, h);
    }
    out.push('\n');
    match &r.body {
        crate::sim::ResponseBody::Charge { balance } => {
            out.push_str("{\"balance\":");
            out.push_str(&balance.to_string());
            out.push('}');
        }
        crate::sim::ResponseBody::Problem(p) => {
            let (title, detail) = problem_words(lang, p, r.status);
            for (name, value) in [
                ("{\n  \"type\": ", p.type_uri()),
                (",\n  \"title\": ", title),
                (",\n  \"detail\": ", &detail),
            ] {
                out.push_str(name);
                write_str(out, value);
            }
            out.push_str("\n}");
        }
    }
}

/// What became of the request, beside its try number; `None` for a response the client read.
pub fn reply_note(lang: Lang, reply: &Reply) -> Option<&'static str> {
    Some(match reply {
        Reply::Pending => lang.t("no response yet", "応答待ち"),
        Reply::RequestLost => lang.t(
            "request lost: the server never saw it",
            "リクエストが消えた。サーバーには届いていない",
        ),
        Reply::NoReply => lang.t(
            "no response: the server crashed",
            "応答なし。サーバーがクラッシュした",
        ),
        Reply::Sent { fate, .. } => match fate {
            ReplyFate::Delivered => return None,
            ReplyFate::OnItsWay => lang.t("response on its way back", "応答は返送中"),
            ReplyFate::Late => lang.t("response too late: ignored", "応答が遅すぎて無視された"),
            ReplyFate::Lost => lang.t(
                "response lost: the client never saw it",
                "応答が消えた。クライアントには届いていない",
            ),
        },
    })
}

/// Said when a run from a link, a saved run or a file holds a key no client could send: the run
/// opens as it was made.
pub fn unsendable_key_note(lang: Lang, input: usize, e: &InputError) -> String {
    let mut out = String::from(lang.t("Input ", "入力 "));
    out.push_str(&input.to_string());
    out.push_str(lang.t(
        "'s key predates the key check, and no real client could send it: ",
        " のキーは検査の導入前のもので、実際のクライアントには送れない：",
    ));
    out.push_str(&input_error(lang, e));
    out.push_str(lang.t(" The run is as it was made.", "実行は作られたときのまま。"));
    out
}

/// What the HTTP model leaves out: each is an ignored case in tests/conformance/http.rs, named
/// by its reason there.
pub const LEAVES_OUT: [Pair; 5] = [
    pair!("A successful charge answers 200 under every policy; rocket-rides creates a ride and answers 201 Created.", "課金の成功はどのポリシーでも 200。rocket-rides は乗車を作って 201 Created を返す。"),
    pair!("Every policy takes keys of 1 to 255 characters (Stripe's limit); rocket-rides requires at least 20.", "どのポリシーもキーは 1〜255文字（Stripe の上限）。rocket-rides は 20文字以上を求める。"),
    pair!("No fault answers 500 and unlocks the key: a crash sends nothing back and its lock waits out its timeout.", "500 を返してキーのロックを外す障害はない。クラッシュは何も返さず、ロックはタイムアウトまで残る。"),
    pair!("No completer process: only the client's retry moves an unfinished key on, where rocket-rides also re-drives keys left for 60 s.", "コンプリーターのプロセスはない。終わっていないキーを進めるのはクライアントのリトライだけ。rocket-rides は 60秒放置されたキーも自分で進める。"),
    pair!("Clients follow their own retry policy and do not read Retry-After.", "クライアントは自分のリトライポリシーに従い、Retry-After は読まない。"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{
        ChargeBody, HttpRequest, MediaType, PaymentResult, ReplyFate, CHARGE_METHOD, CHARGE_PATH,
    };

    fn exchange(headers: Vec<Header>, reply: Reply) -> Exchange {
        Exchange {
            attempt: 1,
            request: HttpRequest {
                method: CHARGE_METHOD,
                path: CHARGE_PATH,
                headers,
                body: ChargeBody {
                    amount: 100,
                    description: "order \"1\"".into(),
                    sent_at_ms: Some(1050),
                },
            },
            reply,
        }
    }

    fn answered(result: PaymentResult, replayed: bool) -> String {
        let x = exchange(
            vec![],
            Reply::Sent {
                response: HttpResponse::of(&result, replayed),
                fate: ReplyFate::Delivered,
            },
        );
        let (text, _) = exchange_text(Lang::En, &x);
        text.split_once("\n\nHTTP/1.1 ")
            .map(|(_, r)| format!("HTTP/1.1 {r}"))
            .expect("a response")
    }

    #[test]
    fn a_request_is_its_line_its_quoted_key_and_its_body() {
        let key = Header::IdempotencyKey {
            value: "\"8e03978e-40d5-43e8-bc93-6894a57f9324\"".into(),
        };
        let x = exchange(
            vec![key, Header::ContentType(MediaType::Json)],
            Reply::Pending,
        );
        assert_eq!(
            exchange_text(Lang::En, &x),
            (
                "POST /charges HTTP/1.1\nIdempotency-Key: \"8e03978e-40d5-43e8-bc93-6894a57f9324\"\nContent-Type: application/json\n\n{\"amount\":100,\"description\":\"order \\\"1\\\"\",\"sent_at\":1050}".into(),
                None
            )
        );
        let old = exchange(
            vec![Header::KeyNotSendable {
                key: "注文".into(),
                error: InputError::KeyNotSfString {
                    at: 1,
                    code: 0x6CE8,
                },
            }],
            Reply::RequestLost,
        );
        let (text, note) = exchange_text(Lang::Ja, &old);
        assert!(!text.contains("Idempotency-Key"), "{text}");
        let note = note.expect("said why");
        assert!(note.starts_with("ヘッダーとして送れない：キー「注文」は sf-string ではない。キーの 1文字目が「注」（U+6CE8）。"), "{note}");
    }

    #[test]
    fn a_response_is_its_status_line_headers_and_problem_details() {
        assert_eq!(
            answered(PaymentResult::InFlightConflict, false),
            "HTTP/1.1 409 Conflict\nContent-Type: application/problem+json\nRetry-After: 1\n\n{\n  \"type\": \"https://developer.example.com/idempotency\",\n  \"title\": \"A request is outstanding for this Idempotency-Key\",\n  \"detail\": \"It is still being processed: send it again later, unchanged.\"\n}"
        );
        let text = answered(PaymentResult::ParameterMismatch { status: 422 }, false);
        assert!(
            text.starts_with("HTTP/1.1 422 Unprocessable Content\n"),
            "{text}"
        );
        assert!(
            text.contains("\"title\": \"Idempotency-Key is already used\""),
            "{text}"
        );
        let text = answered(PaymentResult::invalid(InputError::MissingKey), false);
        assert!(text.starts_with("HTTP/1.1 400 Bad Request\n"), "{text}");
        assert!(
            text.contains("\"title\": \"Idempotency-Key is missing\""),
            "{text}"
        );
        let (ja, _) = problem_words(Lang::Ja, &ProblemKind::MissingKey, 400);
        assert_eq!(ja, "Idempotency-Key がない");
        let replay = PaymentResult::DuplicateRequest {
            original_result: Box::new(PaymentResult::Success { balance: 900 }),
        };
        assert_eq!(
            answered(replay, true),
            "HTTP/1.1 200 OK\nContent-Type: application/json\nIdempotent-Replayed: true\n\n{\"balance\":900}"
        );
        let text = answered(PaymentResult::InsufficientFunds { balance: 50 }, false);
        assert!(
            text.contains("\"type\": \"about:blank\",\n  \"title\": \"Payment Required\""),
            "{text}"
        );
    }

    /// The page's list and the suite's ignored cases name the same simplifications.
    #[test]
    fn the_list_has_a_line_per_ignored_conformance_case() {
        let suite = include_str!("../../../tests/conformance/http.rs");
        assert_eq!(
            suite.matches("#[ignore = \"simplification: ").count(),
            LEAVES_OUT.len()
        );
    }

    #[test]
    fn every_answer_has_a_reason_phrase_and_every_fate_but_delivery_a_note() {
        for status in [200, 400, 402, 409, 422, 503] {
            assert!(!reason(status).is_empty(), "{status}");
        }
        let sent = |fate| Reply::Sent {
            response: HttpResponse::of(&PaymentResult::Success { balance: 1 }, false),
            fate,
        };
        assert_eq!(reply_note(Lang::En, &sent(ReplyFate::Delivered)), None);
        for r in [
            Reply::Pending,
            Reply::RequestLost,
            Reply::NoReply,
            sent(ReplyFate::OnItsWay),
            sent(ReplyFate::Late),
            sent(ReplyFate::Lost),
        ] {
            assert!(reply_note(Lang::Ja, &r).is_some(), "{r:?}");
        }
    }
}
