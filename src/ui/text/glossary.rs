//! The glossary (issue 28): the words the site uses that a newcomer may not know, each with a
//! short definition in both languages (ours, faithful to `../shared/guide/semantics.md`) and the
//! place where the site shows it running. The first page draws it at `#/glossary`, and the
//! first lesson that uses a term links that first use to its entry (`crate::ui::glossary`); the
//! durable and Kafka pages link their own terms with `crate::ui::glossary::page_linked`.
//!
//! In a one-language release page none of this is in the wasm: `src/bin/lesson_words.rs` writes
//! the glossary, as the markup the page shows ([`markup`], every word escaped by
//! `crate::ui::raw`), and each term's first use on the path ([`Link`]) into the words file
//! beside the lessons' words (`text::lessons::extras_text`); the page reads them from there.

use crate::ui::i18n::{pair, tr, Lang, Pair};
use crate::ui::raw::Raw;

/// One entry of the glossary.
pub struct Term {
    /// Stable id: the entry's anchor (`#/glossary/<id>`).
    pub id: &'static str,
    /// The term as the entry's heading.
    pub term: Pair,
    /// The forms the site writes it in, `|`-separated: on the lesson path, the first of them in
    /// its text is the first use, linked to this entry (a whole word where it is written in
    /// Latin letters).
    pub forms: Pair,
    /// The page whose words use it first, when that is not the lesson path: `durable/` or
    /// `kafka/`, which link it themselves (`crate::ui::glossary::page_linked`). Empty: the lessons.
    pub page: &'static str,
    /// What it means.
    pub means: Pair,
    /// Where the site shows it running, relative to the first page.
    pub href: &'static str,
    /// That place, as the link says it; empty for a lesson of the first page, which the link
    /// names by its number and title (`text::lessons::words_text`).
    pub shown: Pair,
}

/// A term's first use on the lesson path, where the lesson card links it to the glossary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// The term's id.
    pub term: &'static str,
    /// The lesson whose text uses it first.
    pub lesson: &'static str,
    /// Which of its texts: 0 the story, 1 the question, 2 why, 3 the takeaway.
    pub field: u8,
    /// Where in that text, as a byte range.
    pub start: usize,
    /// Where it ends.
    pub end: usize,
}

/// The address of the glossary's entry `id` from the page in folder `dir`, as `app::page_dir`
/// names it ("" for the first page, "durable/", "kafka/").
pub fn term_href(dir: &str, id: &str) -> String {
    format!("{}#/glossary/{id}", "../".repeat(dir.matches('/').count()))
}

/// Writes `text` as a link to the glossary's entry `id`, for the page in folder `dir`.
pub fn write_term(r: &mut Raw, dir: &str, id: &str, text: &str) {
    let href = term_href(dir, id);
    r.el(
        "a",
        &[("href", &href), ("class", "term"), ("data-term", id)],
        text,
    );
}

/// `text` as markup, its first uses of glossary terms (`links`, on this text, in its order) as
/// links to their entries: how the first page shows a lesson's text that first uses a term.
pub fn linked(text: &str, links: &[Link]) -> String {
    let mut r = Raw::default();
    let mut at = 0;
    for k in links {
        if k.start < at {
            continue;
        }
        r.text(&text[at..k.start]);
        write_term(&mut r, "", k.term, &text[k.start..k.end]);
        at = k.end;
    }
    r.text(&text[at..]);
    r.as_str().to_string()
}

/// Where one of `forms` (`|`-separated) first occurs in `text`, as a byte range: a form in
/// Latin letters only as a whole word ("replay", not the start of "replayed"); of two forms at
/// one place, the longer. (Compared a place at a time: a `str` pattern would cost the first
/// page's wasm a searcher.)
pub fn find(text: &str, forms: &str) -> Option<(usize, usize)> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    for (i, _) in text.char_indices() {
        if word(text[..i].chars().next_back()) {
            continue;
        }
        let rest = &text[i..];
        let fits = |f: &&str| {
            !f.is_empty() && rest.starts_with(*f) && !word(rest[f.len()..].chars().next())
        };
        if let Some(n) = forms.split('|').filter(fits).map(str::len).max() {
            return Some((i, i + n));
        }
    }
    None
}

/// How a glossary link names a lesson of the first page: "Lesson 4.1: …".
pub fn lesson_label(l: Lang, n: &str, title: &str) -> String {
    tr!(l, "Lesson {n}: {title}", "レッスン{n}：{title}")
}

/// The article the lesson path follows, by its title (given whole once, in the first lesson and
/// the glossary's introduction; elsewhere the words say the short form, the “Idempotency
/// keys” article, 記事「冪等性キー」).
pub const ARTICLE: Pair = pair!(
    "“Idempotency keys: the mechanism that keeps a retry from being processed twice”",
    "「冪等性キー: リトライで二重処理を防ぐ仕組み」"
);

/// The glossary, in the order the lesson path first uses its terms; the terms of the durable
/// and Kafka pages last.
pub const GLOSSARY: &[Term] = &[
    Term {
        id: "idempotency-key",
        term: pair!("Idempotency key (the Idempotency-Key header)", "冪等性キー（Idempotency-Key ヘッダー）"),
        forms: pair!("Idempotency-Key", "Idempotency-Key"),
        page: "",
        means: pair!("A value the client mints once per operation (a random UUID) and sends with every try of it, in the Idempotency-Key header. The server stores it with the first answer, and a repeat of the key gets that answer instead of running again.", "クライアントが操作ごとに1回作り（ランダムな UUID）、その操作のどの試行にも Idempotency-Key ヘッダーで付ける値。サーバーはキーを最初の答えと一緒に保存し、同じキーが繰り返し届いたら、もう一度実行せずにその答えを返す。"),
        href: "#/scenario/the-header",
        shown: pair!("", ""),
    },
    Term {
        id: "atomic",
        term: pair!("Atomic service", "アトミックなサービス"),
        forms: pair!("atomic service", "アトミックなサービス"),
        page: "",
        means: pair!("The article's service that checks the key, charges and stores the answer as one critical section. In production that is one database transaction holding the balance and the key, so a crash undoes the charge and the key together.", "キーの確認・課金・答えの保存を1つのクリティカルセクションで行う、記事のサービス。本番では残高とキーを持つデータベースのトランザクション1つで、クラッシュすれば課金とキーが一緒に取り消される。"),
        href: "#/scenario/atomic-lock",
        shown: pair!("", ""),
    },
    Term {
        id: "replay",
        term: pair!("Replay", "リプレイ"),
        forms: pair!("replay", "リプレイ"),
        page: "",
        means: pair!("Answering a repeated key with the answer stored for it, as it was, without doing the work again: a replayed charge moves no money. A failure can be replayed too, if it was stored.", "繰り返し届いたキーに、処理をやり直さず、保存しておいた答えをそのまま返すこと。リプレイされた課金ではお金は動かない。保存してあれば失敗もリプレイされる。"),
        href: "#/scenario/the-header",
        shown: pair!("", ""),
    },
    Term {
        id: "toctou",
        term: pair!("TOCTOU (time of check to time of use)", "TOCTOU（time of check to time of use）"),
        forms: pair!("TOCTOU", "TOCTOU"),
        page: "",
        means: pair!("A race in which what was checked changes before it is acted on. Two requests with one key both check the store, both find nothing, and both charge, because the check and the store are not one critical section.", "確認した状態が、それに基づいて動く前に変わってしまう競合。同じキーの2つのリクエストがどちらもストアを確認し、どちらも何も見つけず、どちらも課金する。確認と保存が1つのクリティカルセクションでないから。"),
        href: "lab/#/lab",
        shown: pair!("The concurrency lab: be the scheduler", "並行性ラボ：スケジューラーになる"),
    },
    Term {
        id: "powertools",
        term: pair!("AWS Lambda Powertools (its idempotency utility)", "AWS Lambda Powertools（冪等性ユーティリティ）"),
        forms: pair!("AWS Powertools", "AWS Powertools"),
        page: "",
        means: pair!("A library for AWS Lambda functions. Its idempotency utility keeps one record per key in a table (DynamoDB, say): INPROGRESS while the function runs, COMPLETED with the return value once it returns. When the function raises an error it deletes the record, so a retry with the same key runs again: a failure is not replayed.", "AWS Lambda の関数向けのライブラリ。その冪等性ユーティリティは、キーごとに1つのレコードをテーブル（DynamoDB など）に持つ。関数の実行中は INPROGRESS、戻り値を返したら COMPLETED とその値。関数が例外を投げるとレコードを消すので、同じキーのリトライはもう一度実行される。失敗はリプレイされない。"),
        href: "#/scenario/failure-cached",
        shown: pair!("", ""),
    },
    Term {
        id: "fingerprint",
        term: pair!("Fingerprint (of a request)", "フィンガープリント（リクエストの）"),
        forms: pair!("fingerprint", "フィンガープリント"),
        page: "",
        means: pair!("A digest of a request's parameters, stored with its key. A repeat with the same key and another fingerprint is another request under a reused key, refused rather than replayed: Stripe answers 400, the IETF draft 422, rocket-rides 409. A service that compares keys only sends back the first answer.", "リクエストのパラメーターの要約で、キーと一緒に保存する。同じキーで別のフィンガープリントを持つ繰り返しは、使い回されたキーの下の別のリクエストなので、リプレイせずに拒否する。Stripe は 400、IETF ドラフトは 422、rocket-rides は 409 を返す。キーしか比べないサービスは最初の答えを返してしまう。"),
        href: "#/scenario/fingerprint-fields",
        shown: pair!("", ""),
    },
    Term {
        id: "newtype",
        term: pair!("Newtype", "newtype"),
        forms: pair!("newtype", "newtype"),
        page: "",
        means: pair!("A type of its own wrapped around a plain one, as the article's struct IdempotencyKey(String): the compiler then refuses an order id, or any other string, where a key is expected.", "素の型を包んだ専用の型。記事の struct IdempotencyKey(String) がそれで、キーが要る所に注文IDなどの文字列を渡すとコンパイラーが拒否する。"),
        href: "#/scenario/order-id-as-key",
        shown: pair!("", ""),
    },
    Term {
        id: "rocket-rides",
        term: pair!("rocket-rides", "rocket-rides"),
        forms: pair!("rocket-rides", "rocket-rides"),
        page: "",
        means: pair!("rocket-rides-atomic, Brandur Leach's example of Stripe-style idempotency keys on PostgreSQL: keys unique per user, a lock held 90 s (locked_at), 409 for a changed request, a held lock or a serialization failure, recovery points, and its own key passed on to Stripe.", "rocket-rides-atomic。Brandur Leach による、PostgreSQL 上の Stripe 流の冪等性キーの実装例。キーはユーザーごとに一意、ロックは90秒（locked_at）、リクエストの不一致・ロック中・直列化失敗には409、回復ポイント、そして自分のキーを Stripe にも渡す。"),
        href: "lab/#/lab/postgres",
        shown: pair!("On a real database: claim the key first, rocket-rides' shape", "本物のデータベースで：キーを先に確保する rocket-rides の形"),
    },
    Term {
        id: "outbox",
        term: pair!("Transactional outbox", "トランザクショナル・アウトボックス"),
        forms: pair!("outbox", "アウトボックス"),
        page: "",
        means: pair!("A table in the service's own database: the event is written there in the same transaction as the change it announces, and a relay publishes it afterwards. No event without its commit and none lost in a crash; a relay that crashes after publishing publishes again, so delivery is at-least-once.", "サービス自身のデータベースにある表。イベントは、それが知らせる変更と同じトランザクションでそこに書かれ、後でリレーが発行する。コミットのないイベントはなく、クラッシュで失われるものもない。発行の後でクラッシュしたリレーはもう一度発行するので、配信は少なくとも1回。"),
        href: "#/scenario/dual-write",
        shown: pair!("", ""),
    },
    Term {
        id: "inbox",
        term: pair!("Inbox", "受信箱（インボックス）"),
        forms: pair!("inbox", "受信箱"),
        page: "",
        means: pair!("The consumer's record of the event ids it has processed, written in the same transaction as its own effect: an event delivered again is found there and ignored.", "コンシューマーが処理済みのイベントIDを記録するもの。自分の処理と同じトランザクションで書くので、もう一度届いたイベントはそこで見つかり、無視される。"),
        href: "#/scenario/outbox-relay-crash",
        shown: pair!("", ""),
    },
    Term {
        id: "at-least-once",
        term: pair!("At-least-once", "少なくとも1回（at-least-once）"),
        forms: pair!("at-least-once|At-least-once", "少なくとも1回"),
        page: "",
        means: pair!("A delivery that is never lost but may repeat: the sender sends again until it is acknowledged, so a lost acknowledgement means a second copy. Retries, relays and message brokers deliver this way.", "失われはしないが、繰り返されうる配信。送り手は確認応答が来るまで送り直すので、確認応答が失われると2つ目の写しが届く。リトライもリレーもメッセージブローカーもこの配信になる。"),
        href: "#/scenario/outbox-relay-crash",
        shown: pair!("", ""),
    },
    Term {
        id: "effectively-once",
        term: pair!("Effectively once", "実質1回（effectively-once）"),
        forms: pair!("effectively once", "実質1回"),
        page: "",
        means: pair!("At-least-once delivery plus a receiver that recognises a repeat (an idempotency key, an inbox): each operation takes effect once, however many times it arrives. It is not exactly-once delivery, which no network gives.", "少なくとも1回の配信に、繰り返しを見分ける受け手（冪等性キー、受信箱）を足したもの。操作は何回届いても、効果は1回だけ。どのネットワークにもできない「ちょうど1回の配信」とは違う。"),
        href: "#/scenario/effectively-once",
        shown: pair!("", ""),
    },
    Term {
        id: "recovery-point",
        term: pair!("Recovery point", "回復ポイント"),
        forms: pair!("Recovery points|recovery points|Recovery point|recovery point", "回復ポイント"),
        page: "",
        means: pair!("In rocket-rides-atomic, a request walks through atomic phases (started, ride_created, charge_created, finished), each one SERIALIZABLE transaction that ends by recording the phase reached with the key: its recovery point. A retry after a crash resumes from there instead of starting over, so a charge already made is not made again.", "rocket-rides-atomic では、リクエストは原子的なフェーズ（started、ride_created、charge_created、finished）を順に進む。各フェーズは SERIALIZABLE トランザクション1つで、最後に到達したフェーズをキーと一緒に記録する。これが回復ポイント。クラッシュ後のリトライは最初からではなくそこから再開するので、済んだ課金を繰り返さない。"),
        href: "sandbox/#/sandbox",
        shown: pair!("The sandbox: Downstream and key store, Recovery points", "サンドボックス：下流とキーストアの「回復ポイント」"),
    },
    Term {
        id: "fail-open",
        term: pair!("Fail open, fail closed", "フェイルオープン、フェイルクローズ"),
        forms: pair!("fail open|fail closed", "フェイルオープン|フェイルクローズ"),
        page: "",
        means: pair!("What a service does when a check it depends on cannot be made. Failing open goes on without it: here the key store cannot be reached, the charge runs unchecked, and a retry can charge twice. Failing closed refuses instead: here 503, try again later. It costs availability and keeps the money safe.", "頼っている確認ができないときに、サービスがどうするか。フェイルオープンは確認なしで進む。ここではキーストアに届かないまま課金し、リトライが二重に課金しうる。フェイルクローズは代わりに断る。ここでは503で、後でやり直してもらう。可用性と引き換えに、お金を守る。"),
        href: "#/scenario/store-failures",
        shown: pair!("", ""),
    },
    Term {
        id: "serialization-failure",
        term: pair!("Serialization failure (SQLSTATE 40001)", "直列化失敗（SQLSTATE 40001）"),
        forms: pair!("serialization failure|Serialization failure", "直列化失敗"),
        page: "",
        means: pair!("PostgreSQL's answer when two transactions under REPEATABLE READ or SERIALIZABLE conflict: one of them is aborted with SQLSTATE 40001 and nothing of it commits. The client must run the whole transaction again; rocket-rides answers 409 Conflict, and its client retries with the same key.", "REPEATABLE READ か SERIALIZABLE の下で2つのトランザクションが衝突したときの PostgreSQL の答え。片方が SQLSTATE 40001 で中断され、その内容は何もコミットされない。クライアントはトランザクション全体をやり直す。rocket-rides は409 Conflict と答え、そのクライアントは同じキーでリトライする。"),
        href: "sandbox/#/sandbox",
        shown: pair!("The sandbox: the fault “Serialization failure”", "サンドボックス：障害「直列化失敗」"),
    },
    Term {
        id: "saga",
        term: pair!("Saga", "サガ"),
        forms: pair!("sagas|saga", "サガ"),
        page: "durable/",
        means: pair!("An operation across several services that no single transaction can hold: each step commits on its own and has a compensation, and when a later step fails, the steps already done are undone by their compensations, in reverse order.", "1つのトランザクションには収まらない、複数のサービスにまたがる操作。各ステップは単独でコミットし、それぞれに補償を持つ。後のステップが失敗したら、済んだステップを逆順に補償で取り消す。"),
        href: "durable/#/scenario/durable-saga",
        shown: pair!("The durable-execution page: book a trip", "永続実行のページ：旅行を予約する"),
    },
    Term {
        id: "compensation",
        term: pair!("Compensation", "補償"),
        forms: pair!("compensations|compensation|compensates", "補償"),
        page: "durable/",
        means: pair!("The step that undoes a committed step of a saga with a new action: a refund for a charge, a cancellation for a booking. It runs later and may fail or run twice, so it needs an idempotency key of its own.", "サガのコミット済みのステップを、新しい操作で取り消すステップ。課金には返金、予約にはキャンセル。後から走り、失敗も二度の実行もありうるので、自分の冪等性キーが要る。"),
        href: "durable/#/scenario/durable-saga",
        shown: pair!("The durable-execution page: book a trip", "永続実行のページ：旅行を予約する"),
    },
    Term {
        id: "fence",
        term: pair!("Fence (fencing)", "フェンス（締め出し）"),
        forms: pair!("fenced|fence|PRODUCER_FENCED", "フェンス"),
        page: "kafka/",
        means: pair!("Refusing the writes of an old incarnation once a newer one has started. Kafka does it with the producer epoch: a producer restarted with its transactional.id gets a higher epoch, and the broker refuses the old instance, a zombie, with PRODUCER_FENCED. A fencing token does the same for a lock's holder.", "新しい実体が動き出した後で、古い実体の書き込みを拒否すること。Kafka はプロデューサーエポックで行う。transactional.id を持って再起動したプロデューサーはより大きいエポックを得て、ブローカーは古いインスタンス（ゾンビ）を PRODUCER_FENCED で拒否する。ロックの持ち主には、フェンシングトークンが同じ役目を果たす。"),
        href: "kafka/#/scenario/kafka-restart",
        shown: pair!("The Kafka page: a restart and a zombie", "Kafka のページ：再起動とゾンビ"),
    },
];

/// Above the glossary's entries.
const INTRO: Pair = pair!("The words the lesson path uses, in the order it first uses them, each with the place where this site shows it running. The lessons follow the article “Idempotency keys: the mechanism that keeps a retry from being processed twice” section by section; the terms of the durable-execution and Kafka pages come last. The definitions are ours.", "レッスンで使う言葉を、初めて使う順に並べた。どれにも、このサイトで動く様子を見られる場所を添えた。レッスンは記事「冪等性キー: リトライで二重処理を防ぐ仕組み」を節の順にたどる。永続実行と Kafka のページの言葉は最後に置いた。定義はこのサイトのもの。");
/// Before an entry's place.
const SHOWN: Pair = pair!("See it run: ", "動く様子：");
/// Before the lesson that first uses it.
const FIRST: Pair = pair!("First used in lesson ", "初出のレッスン：");

/// After one entry shown on its own: the way to all of them.
const ALL: Pair = pair!("Every term of the glossary", "用語集のすべての言葉");

/// A glossary entry as the words file holds it: the term, the place it runs in words (`shown`)
/// and, for a term of the lesson path, the lesson that first uses it (its id and number).
pub type Entry<'a> = (&'a Term, String, Option<(&'a str, String)>);

/// The whole glossary as the page shows it at `#/glossary` (handler-free markup, every word
/// escaped): the introduction, then each entry, its heading a link to the entry on its own.
pub fn markup(l: Lang, entries: &[Entry]) -> String {
    let mut r = Raw::default();
    r.el("p", &[("class", "muted")], INTRO.get(l))
        .open("dl", &[("class", "terms")]);
    for e in entries {
        write_entry(&mut r, l, e);
    }
    r.close("dl");
    r.as_str().to_string()
}

/// One entry on its own, as the page shows it at `#/glossary/<id>`, where a term's first use
/// links: the entry, then the way to the whole glossary.
pub fn entry_markup(l: Lang, e: &Entry) -> String {
    let mut r = Raw::default();
    r.open("dl", &[("class", "terms one")]);
    write_entry(&mut r, l, e);
    r.close("dl")
        .open("p", &[])
        .el("a", &[("href", "#/glossary"), ("data-all", "")], ALL.get(l))
        .close("p");
    r.as_str().to_string()
}

/// An entry: its heading (`data-term`, a link to its own view), what it means, the place it
/// runs and the lesson that first uses it.
fn write_entry(r: &mut Raw, l: Lang, (t, shown, first): &Entry) {
    r.open("dt", &[("data-term", t.id)])
        .el("a", &[("href", &term_href("", t.id))], t.term.get(l))
        .close("dt")
        .open("dd", &[])
        .el("p", &[], t.means.get(l))
        .open("p", &[("class", "muted")])
        .text(SHOWN.get(l))
        .el("a", &[("href", t.href), ("data-shown", "")], shown);
    if let Some((id, n)) = first {
        let href = format!("#/scenario/{id}");
        r.text(" · ")
            .text(FIRST.get(l))
            .el("a", &[("href", &href), ("data-first", "")], n);
    }
    r.close("p").close("dd");
}
