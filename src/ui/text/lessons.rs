//! The lesson path: one lesson per section of the article, in its order, in English and Japanese,
//! written for this page (the article is the lesson plan; the words are ours). The runs are data
//! in `crate::sim` (`builtin`), the questions and their answers are the core's
//! (`crate::sim::teach::question`): no text here states an outcome. `why` is shown after the
//! answer, with `{step}` replaced by the step that shows it.

pub use crate::ui::i18n::Pair;
use crate::ui::i18n::{pair, Lang};
use crate::ui::text::glossary::{self, find, lesson_label, Link, GLOSSARY};

/// A built-in scenario's lesson: its id and title (the lesson list, the card's heading).
pub struct Lesson {
    /// Stable scenario id (`#/scenario/<id>`).
    pub id: &'static str,
    /// Short title for the lesson list.
    pub title: Pair,
}

/// The words around one built-in scenario, in the lesson card.
pub struct Words {
    /// The lesson's id.
    pub id: &'static str,
    /// What happens in this run (never how it ends).
    pub story: Pair,
    /// The question asked before the decisive step.
    pub ask: Pair,
    /// Why the answer is what the run shows, after the answer; `{step}` is the step that shows it.
    pub why: Pair,
    /// The one sentence to remember, after the answer.
    pub takeaway: Pair,
}

impl Lesson {
    /// Picks one of the pairs in the page language.
    pub fn pick(lang: Lang, pair: Pair) -> &'static str {
        pair.get(lang)
    }
}

/// One entry of the lesson path: a lesson on this page, or a page of its own.
pub enum Item {
    /// A built-in lesson by id.
    Lesson(&'static str),
    /// Another page of the site: its `data-section` id, its address relative to the playground,
    /// its title, and whether it is built yet.
    Page {
        /// Stable id (`data-section`).
        id: &'static str,
        /// Address relative to the playground page.
        href: &'static str,
        /// Title.
        title: Pair,
        /// False while the page does not exist yet: listed, not linked.
        ready: bool,
    },
}

/// A section of the article, with its lessons.
pub struct Section {
    /// The section's title.
    pub title: Pair,
    /// Its entries.
    pub items: &'static [Item],
}

/// The lesson path, in the article's order.
pub const PATH: &[Section] = &[
    Section {
        title: pair!("The Idempotency-Key header", "Idempotency-Key ヘッダー"),
        items: &[Item::Lesson("the-header")],
    },
    Section {
        title: pair!("Why a retry is dangerous", "なぜリトライは危ないか"),
        items: &[
            Item::Lesson("timeout-ambiguity"),
            Item::Lesson("client-cannot-tell"),
        ],
    },
    Section {
        title: pair!("The naive service", "素朴なサービス"),
        items: &[Item::Lesson("double-charge")],
    },
    Section {
        title: pair!("Idempotency keys", "冪等性キー"),
        items: &[Item::Lesson("key-replays"), Item::Lesson("distinct-keys")],
    },
    Section {
        title: pair!("TOCTOU: three locks", "TOCTOU：3つのロック"),
        items: &[
            Item::Lesson("concurrent-same-key"),
            Item::Page {
                id: "lab",
                href: "lab/#/lab",
                title: pair!(
                    "Play the scheduler in the lab",
                    "ラボでスケジューラーを操る"
                ),
                ready: true,
            },
        ],
    },
    Section {
        title: pair!("The atomic service", "アトミックなサービス"),
        items: &[
            Item::Lesson("atomic-lock"),
            Item::Lesson("ten-threads"),
            Item::Page {
                id: "postgres",
                href: "lab/#/lab/postgres",
                title: pair!(
                    "On a real database: is one transaction enough?",
                    "本物のデータベースで：トランザクション1つで足りるか"
                ),
                ready: true,
            },
        ],
    },
    Section {
        title: pair!("Stripe's pattern", "Stripe のパターン"),
        items: &[Item::Lesson("stripe-in-flight")],
    },
    Section {
        title: pair!("Caching failures", "失敗もキャッシュする"),
        items: &[Item::Lesson("failure-cached")],
    },
    Section {
        title: pair!("Property-based checks", "プロパティベーステスト"),
        items: &[
            Item::Lesson("many-retries"),
            Item::Page {
                id: "properties",
                href: "properties/#/properties",
                title: pair!(
                    "Run a property over random cases",
                    "ランダムなケースでプロパティを検証"
                ),
                ready: true,
            },
        ],
    },
    Section {
        title: pair!("Keys as the foundation", "キーはすべての土台"),
        items: &[Item::Lesson("order-id-as-key")],
    },
    Section {
        title: pair!("Implementation notes", "実装上の注意点"),
        items: &[
            Item::Lesson("new-key-per-retry"),
            Item::Lesson("split-store-crash"),
            Item::Lesson("key-expiry"),
            Item::Lesson("param-mismatch"),
        ],
    },
    Section {
        title: pair!(
            "The transactional outbox",
            "トランザクショナル・アウトボックス"
        ),
        items: &[
            Item::Lesson("outbox-relay-crash"),
            Item::Lesson("dual-write"),
        ],
    },
    Section {
        title: pair!("Durable execution and sagas", "永続実行とサガ"),
        items: &[Item::Page {
            id: "durable",
            href: "durable/",
            title: pair!(
                "Durable steps in Temporal, Restate and DBOS",
                "Temporal・Restate・DBOS の永続ステップ"
            ),
            ready: true,
        }],
    },
    Section {
        title: pair!("Kafka's idempotent producer", "Kafka の冪等プロデューサー"),
        items: &[Item::Page {
            id: "kafka",
            href: "kafka/",
            title: pair!(
                "Kafka's producer ids and sequence numbers",
                "Kafka のプロデューサー IDとシーケンス番号"
            ),
            ready: true,
        }],
    },
    Section {
        title: pair!("The article's conclusion", "記事のまとめ"),
        items: &[Item::Lesson("effectively-once")],
    },
    Section {
        title: pair!(
            "Beyond “Idempotency keys”: downstream and the key store",
            "記事「冪等性キー」の先：下流とキーストア"
        ),
        items: &[
            Item::Lesson("slow-processor"),
            Item::Lesson("store-failures"),
        ],
    },
    Section {
        title: pair!("In production: who sends what", "本番では：誰が何を送るか"),
        items: &[
            Item::Lesson("key-scope"),
            Item::Lesson("fingerprint-fields"),
        ],
    },
];

/// The lessons that show the `Idempotency-Key` header (the first, on the header itself, and the
/// one on replays): their columns show each try as the HTTP request and response it stands for
/// (issue 26), as the sandbox's do.
pub const WIRE_LESSONS: [&str; 2] = ["the-header", "key-replays"];

/// All lessons: id and title.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "the-header",
        title: pair!("One header, one operation", "1つのヘッダー、1つの操作"),
    },
    Lesson {
        id: "timeout-ambiguity",
        title: pair!("A timeout is not an answer", "タイムアウトは答えではない"),
    },
    Lesson {
        id: "client-cannot-tell",
        title: pair!(
            "Three failures that look the same",
            "見分けのつかない3つの失敗"
        ),
    },
    Lesson {
        id: "double-charge",
        title: pair!(
            "A lost reply at the article's first handler",
            "記事の最初のハンドラーで応答が失われる"
        ),
    },
    Lesson {
        id: "key-replays",
        title: pair!("Three tries, one key", "1つのキーで3回試す"),
    },
    Lesson {
        id: "distinct-keys",
        title: pair!("Three orders in a row", "続けて3つの注文"),
    },
    Lesson {
        id: "concurrent-same-key",
        title: pair!(
            "Two requests, one key, three locks",
            "1つのキーに2つのリクエスト、3つのロック"
        ),
    },
    Lesson {
        id: "atomic-lock",
        title: pair!(
            "Three at once at the atomic service",
            "アトミックなサービスに3つ同時に"
        ),
    },
    Lesson {
        id: "ten-threads",
        title: pair!(
            "The concurrency test of “Idempotency keys”",
            "記事「冪等性キー」の並行テスト"
        ),
    },
    Lesson {
        id: "stripe-in-flight",
        title: pair!(
            "Stripe's pattern: 24 hours, 409 in flight",
            "Stripe のパターン：24時間、処理中は409"
        ),
    },
    Lesson {
        id: "failure-cached",
        title: pair!(
            "A failure, a deposit, a retry",
            "失敗、入金、そしてリトライ"
        ),
    },
    Lesson {
        id: "many-retries",
        title: pair!("Any number of retries", "何回リトライしても"),
    },
    Lesson {
        id: "order-id-as-key",
        title: pair!("The order id as the key", "注文IDをキーにする"),
    },
    Lesson {
        id: "new-key-per-retry",
        title: pair!("A new key per retry", "リトライのたびに新しいキー"),
    },
    Lesson {
        id: "split-store-crash",
        title: pair!(
            "A crash between the charge and the key",
            "課金とキーの間のクラッシュ"
        ),
    },
    Lesson {
        id: "key-expiry",
        title: pair!("A retry 25 hours later", "25時間後のリトライ"),
    },
    Lesson {
        id: "param-mismatch",
        title: pair!("Same key, different request", "同じキー、違うリクエスト"),
    },
    Lesson {
        id: "outbox-relay-crash",
        title: pair!(
            "The relay crashes after publishing",
            "発行の後でリレーがクラッシュする"
        ),
    },
    Lesson {
        id: "dual-write",
        title: pair!("Three ways to announce a charge", "課金を知らせる3つの方法"),
    },
    Lesson {
        id: "effectively-once",
        title: pair!(
            "A double click, then a retry",
            "ダブルクリック、そしてリトライ"
        ),
    },
    Lesson {
        id: "slow-processor",
        title: pair!(
            "The processor takes 120 seconds",
            "決済代行の応答に120秒かかる"
        ),
    },
    Lesson {
        id: "store-failures",
        title: pair!("When the key store fails", "キーストアが壊れるとき"),
    },
    Lesson {
        id: "key-scope",
        title: pair!("Whose key is it?", "そのキーは誰のもの？"),
    },
    Lesson {
        id: "fingerprint-fields",
        title: pair!(
            "What the fingerprint covers",
            "フィンガープリントが覆う範囲"
        ),
    },
];

/// Every lesson's words, by id: only the first page's lesson card reads them (through
/// `playground::Tools::words`), so the sandbox page's wasm carries none of them.
pub const WORDS: &[Words] = &[
    Words {
        id: "the-header",
        story: pair!("The lessons follow the article “Idempotency keys: the mechanism that keeps a retry from being processed twice”, one section at a time. A payment API takes charges as HTTP requests (POST /charges). Before the first try the client mints a key, a random UUID, and sends it in an Idempotency-Key header: only the client knows which tries are one operation. Here the client charges 100 at the atomic service, the article's finished version, gets its answer, then sends the same request again with the same key. “HTTP on the wire” under the column shows each request.", "レッスンは記事「冪等性キー: リトライで二重処理を防ぐ仕組み」を節ごとにたどる。決済 API は課金を HTTP リクエスト（POST /charges）で受け付ける。クライアントは最初の試行の前にキー（ランダムな UUID）を作り、Idempotency-Key ヘッダーで送る。どの試行が1つの操作かを知るのはクライアントだけだから。ここではクライアントが、記事の完成版であるアトミックなサービスに100を課金して答えを受け取り、同じリクエストを同じキーでもう一度送る。列の下の「通信内容（HTTP）」に各リクエストが出る。"),
        ask: pair!("The same request arrives again with the same key. How many charges does the atomic service make in all?", "同じリクエストが同じキーでもう一度届く。アトミックなサービスの課金は全部で何回？"),
        why: pair!("At step {step} the second request found its key in the store and got the stored answer back without running the charge: the same status and body, marked Idempotent-Replayed. That is a replay. The atomic service keeps each key with its answer, in the balance's database and in the charge's transaction. The server never asks why the request came again; the key tells it that this is the same operation.", "ステップ {step} で2つ目のリクエストはストアにキーを見つけ、課金を実行せずに、保存された答え（同じステータスと本文に Idempotent-Replayed の印）を受け取った。これがリプレイ。アトミックなサービスはキーを答えと一緒に、残高と同じデータベース、課金と同じトランザクションで保存する。サーバーは、なぜリクエストがもう一度来たのかを問わない。同じ操作であることはキーが教える。"),
        takeaway: pair!("The client mints one key per operation and sends it in the Idempotency-Key header on every try; the server stores the key with its answer, and answers a repeat from the store: a replay.", "クライアントは操作ごとにキーを1つ作り、どの試行でも Idempotency-Key ヘッダーで送る。サーバーはキーを答えと一緒に保存し、繰り返しにはストアから答える。これがリプレイ。"),
    },
    Words {
        id: "timeout-ambiguity",
        story: pair!("A client asks the atomic service to charge 100, sending an Idempotency-Key header with the request. Something is lost on the network: the request on its way in, or the reply on its way out. The client cannot tell which; it waits, gives up, and is left with a timeout. A second later it sends the same request again, with the same key.", "クライアントがアトミックなサービスに100の課金を頼む。リクエストには Idempotency-Key ヘッダーを付ける。ネットワークで何かが失われる。行きのリクエストか、帰りの応答か。クライアントにはどちらか分からない。待ったあげく諦め、手元にはタイムアウトだけが残る。1秒後、同じリクエストを同じキーでもう一度送る。"),
        ask: pair!("The client saw only a timeout, then tried again. How many times is the card charged in all?", "クライアントが見たのはタイムアウトだけ。そしてもう一度送った。カードは全部で何回課金される？"),
        why: pair!("The server did the work (step {step}); only the reply was lost, so the timeout told the client nothing. The retry carried the same key, found it, and got the first answer back. Had the request been lost instead, the retry would have found no key and made the charge itself.", "サーバーは処理を終えていた（ステップ {step}）。失われたのは応答だけなので、タイムアウトはクライアントに何も教えなかった。リトライは同じキーを持っていたのでキーが見つかり、最初の答えが返った。失われたのがリクエストの方なら、リトライはキーを見つけず、自分で課金していた。"),
        takeaway: pair!("After a timeout the work may or may not have happened, and waiting will not tell the client which: only a retry with the same key is safe either way.", "タイムアウトの後、処理は済んだかもしれないし、済んでいないかもしれない。待っていてもクライアントには分からない。どちらでも安全なのは、同じキーでのリトライだけ。"),
    },
    Words {
        id: "client-cannot-tell",
        story: pair!("Three clients charge 100 each and each sees a timeout: the first request is lost on the way in, the second one's reply on the way out, and the third crashes the server after the charge, before anything else is written. Each client waits a second and retries once with its key. The naive service has no keys at all; the separate-store service keeps its keys outside the balance's transaction; the atomic service commits the charge and the key in one transaction.", "3つのクライアントがそれぞれ100を課金し、どれもタイムアウトを見る。1つ目はリクエストが行きで消え、2つ目は応答が帰りで消え、3つ目は課金の直後、他に何も書かないうちにサーバーがクラッシュする。どのクライアントも1秒待って、同じキーで1回リトライする。素朴なサービスにはキーがない。別ストアのサービスはキーを残高のトランザクションの外に置く。アトミックなサービスは課金とキーを1つのトランザクションでコミットする。"),
        ask: pair!("Each client retries once with its key. Where does the atomic service's balance end?", "各クライアントが同じキーで1回リトライする。アトミックなサービスの残高は最後にいくらになる？"),
        why: pair!("Step {step} is the atomic service's last charge. The lost request never charged, so its retry did; the lost reply's retry found the key and replayed; the crash rolled its charge back with the transaction, so its retry charged: one charge per client. The naive and separate-store services kept the crashed charge and charged its retry again.", "ステップ {step} がアトミックなサービスの最後の課金。消えたリクエストは課金されていないのでリトライが課金し、消えた応答のリトライはキーを見つけてリプレイし、クラッシュした課金はトランザクションごと巻き戻ったのでリトライが課金した。クライアントごとに1回。素朴なサービスと別ストアのサービスはクラッシュした課金を残したまま、そのリトライでもう一度課金した。"),
        takeaway: pair!("The client cannot tell the three apart, so it must retry; only a server that commits the charge and the key together makes every retry safe.", "クライアントには3つを見分けられないので、リトライするしかない。課金とキーを一緒にコミットするサーバーだけが、どのリトライも安全にする。"),
    },
    Words {
        id: "double-charge",
        story: pair!("A client charges 100 from a balance of 1,000. The reply is lost, the client times out and sends the same charge again with the same key. The naive service is the handler the article starts from: read the balance, subtract, write. The idempotent and atomic services are the versions the article builds from it.", "残高1,000から100を課金する。応答が失われ、クライアントはタイムアウトして同じ課金を同じキーでもう一度送る。素朴なサービスは記事が出発点にするハンドラーで、残高を読み、引き、書く。冪等なサービスとアトミックなサービスは、記事がそこから作っていく版。"),
        ask: pair!("The retry is about to reach the servers. Where does the naive balance end?", "リトライがサーバーに届く直前。素朴なサービスの残高は最後にいくらになる？"),
        why: pair!("At step {step} the naive service charges the retry as a new payment: it never reads the Idempotency-Key header. The others look the key up first, find it, and send the first answer back.", "ステップ {step} で素朴なサービスはリトライを新しい支払いとして課金する。Idempotency-Key ヘッダーを読まないから。他のサービスはまずキーを調べ、見つけて、最初の答えを返す。"),
        takeaway: pair!("A retry the server cannot recognise is a second payment.", "サーバーが見分けられないリトライは、2回目の支払いになる。"),
    },
    Words {
        id: "key-replays",
        story: pair!("One operation, one key, three tries: the first two replies are lost and the client retries after each timeout. The naive service's column receives the same three tries. Under each column, “HTTP on the wire” shows every try as it travels: the request with its Idempotency-Key header, and the response, if one came.", "1つの操作、1つのキーで3回試す。最初の2回は応答が失われ、クライアントはタイムアウトのたびにリトライする。素朴なサービスの列にも同じ3回が届く。各列の「通信内容（HTTP）」には、試行ごとに、Idempotency-Key ヘッダーを付けて送ったリクエストと、返ってきた応答（あれば）が出る。"),
        ask: pair!("The second try is arriving with the same key. How many times does the idempotent service charge in all?", "2回目の試行が同じキーで届く。冪等なサービスは全部で何回課金する？"),
        why: pair!("From step {step} every try finds the key and gets the first answer back; only the first try charged. The naive service charged every try.", "ステップ {step} からは、どの試行もキーを見つけて最初の答えを受け取る。課金したのは最初の試行だけ。素朴なサービスは試行のたびに課金した。"),
        takeaway: pair!("A key names the operation, not the request: every retry of it gets the first answer.", "キーが名付けるのはリクエストではなく操作。その操作のリトライは、どれも最初の答えを受け取る。"),
    },
    Words {
        id: "distinct-keys",
        story: pair!("Three orders, each with its own key: charges of 100, 200 and 300.", "3つの注文を、それぞれ別のキーで：100、200、300の課金。"),
        ask: pair!("The second order is arriving. How many charges does the idempotent service make in all?", "2つ目の注文が届く。冪等なサービスは全部で何回課金する？"),
        why: pair!("Each key is an operation of its own, so each one charges; the last at step {step}.", "キーごとに別の操作なので、どれも課金される。最後はステップ {step}。"),
        takeaway: pair!("Same key means a retry; a new key means a new operation. The client decides which by the key it sends.", "同じキーならリトライ、新しいキーなら新しい操作。どちらかを決めるのは、キーを送るクライアント。"),
    },
    Words {
        id: "concurrent-same-key",
        story: pair!("Two requests with the same key arrive at the same moment, and a third comes later. The TOCTOU service checks the key, charges and stores the result, each step under a lock of its own. The atomic and production services get the same requests.", "同じキーのリクエストが2つ同時に届き、3つ目が後から来る。TOCTOU サービスはキーの確認、課金、結果の保存をそれぞれ別のロックの下で行う。アトミックなサービスと本番型サービスにも同じリクエストが届く。"),
        ask: pair!("How many charges does the TOCTOU service make for that one key?", "TOCTOU サービスは、その1つのキーで何回課金する？"),
        why: pair!("Each step had a lock, but nothing held the key from check to store: both requests checked before either stored, so both found nothing and both charged; the last charge is step {step}. In the lab you can be the scheduler and find such an order yourself.", "どの段階にもロックはあったが、確認から保存までキーを押さえるものはなかった。どちらのリクエストも、相手が保存する前に確認したので、どちらも何も見つけずに課金した。最後の課金はステップ {step}。ラボでは自分がスケジューラーになって、こういう順序を探せる。"),
        takeaway: pair!("Check-then-act is a race unless the check and the act are one critical section.", "確認してから実行するのは、確認と実行が1つのクリティカルセクションでない限り競合になる。"),
    },
    Words {
        id: "atomic-lock",
        story: pair!("Three requests with one key arrive at the same moment, at the atomic service (one lock around check, charge and store) and at the TOCTOU service.", "同じキーのリクエストが3つ同時に、アトミックなサービス（確認・課金・保存を1つのロックで囲む）と TOCTOU サービスに届く。"),
        ask: pair!("How many times does the atomic service charge?", "アトミックなサービスは何回課金する？"),
        why: pair!("The first request holds the lock until its result is stored (its charge is step {step}); the others wait, then find the key and replay.", "最初のリクエストは結果を保存するまでロックを握る（その課金がステップ {step}）。他のリクエストは待ち、その後キーを見つけてリプレイする。"),
        takeaway: pair!("Check, charge and record belong in one critical section. In production that is one database transaction that also locks the key: claimed first under a unique constraint, or a row lock, or REPEATABLE READ and up. Measured on PostgreSQL, a plain check-then-insert at READ COMMITTED still charges twice.", "確認・課金・保存は1つのクリティカルセクションに入れる。本番ではキーのロックも兼ねた1つのデータベーストランザクション：一意制約の下で先にキーを確保するか、行ロックを取るか、REPEATABLE READ 以上にする。PostgreSQL で確かめると、READ COMMITTED の単純な「確認してから挿入」では、やはり2回課金される。"),
    },
    Words {
        id: "ten-threads",
        story: pair!("The concurrency test of the “Idempotency keys” article: ten requests with one key at once. Here the ten arrive at the same instant and the server interleaves their phases.", "記事「冪等性キー」の並行テスト：同じキーのリクエストを10個同時に。ここでは10個が同じ瞬間に届き、サーバーはそれぞれの段階を交互に進める。"),
        ask: pair!("How many times does the TOCTOU service charge the one key?", "TOCTOU サービスは、その1つのキーで何回課金する？"),
        why: pair!("Every request checked before any of them stored, so every one charged; the last at step {step}. The atomic service charged once.", "どのリクエストも、誰かが保存する前に確認したので、全員が課金した。最後はステップ {step}。アトミックなサービスは1回だけ課金した。"),
        takeaway: pair!("A test with one thread passes for both services; only a concurrent test tells them apart.", "1スレッドのテストはどちらのサービスでも通る。違いが分かるのは並行テストだけ。"),
    },
    Words {
        id: "stripe-in-flight",
        story: pair!("The production service follows the pattern Stripe documents: it keeps a key's result for 24 hours, answers 409 while a request with the same key is still running, and stores the result in the same transaction as the charge. Two requests with one key arrive at once (#1 and #2); two seconds later a third request with the same key follows (#3).", "本番型サービスは Stripe が公開しているパターンに従う。キーの結果を24時間保持し、同じキーのリクエストが処理中なら409を返し、結果を課金と同じトランザクションで保存する。同じキーのリクエストが2つ同時に届き（#1 と #2）、2秒後に同じキーで3つ目のリクエストが来る（#3）。"),
        ask: pair!("How many of these requests does the production service answer with “409: in flight”?", "本番型サービスは、このうちいくつのリクエストに「409：処理中」と答える？"),
        why: pair!("At step {step} the second request finds the first one's record still in flight and gets 409 instead of a charge; #3, two seconds later, finds the result stored and replays it.", "ステップ {step} で2つ目のリクエストは最初のリクエストのレコードが処理中なのを見つけ、課金ではなく409を受け取る。2秒後の #3 は保存された結果を見つけてリプレイする。"),
        takeaway: pair!("An in-flight record turns a race into an explicit answer: try again later, with the same key.", "処理中のレコードは、競合をはっきりした答えに変える。「後で同じキーでもう一度」。"),
    },
    Words {
        id: "failure-cached",
        story: pair!("A charge of 100 against a balance of 50 fails. Then 100 is deposited and the client retries with the same key. The idempotent and atomic services store every result like the code of the “Idempotency keys” article; this production service is set as AWS Powertools works, which deletes the record when the function fails.", "残高50に100を課金して失敗する。その後100が入金され、クライアントは同じキーでリトライする。冪等なサービスとアトミックなサービスは記事「冪等性キー」のコードと同じく、どの結果も保存する。この本番型サービスは AWS Powertools と同じ設定で、関数が失敗するとレコードを消す。"),
        ask: pair!("The retry reaches the production service. How many charges does it make in all?", "リトライが本番型サービスに届く。本番型サービスの課金は全部で何回？"),
        why: pair!("The production service stored no failure, so at step {step} it charged the retry: one key, two different answers. The others replayed the stored failure.", "本番型サービスは失敗を保存していないので、ステップ {step} でリトライを課金した。1つのキーに2つの違う答え。他のサービスは保存した失敗をリプレイした。"),
        takeaway: pair!("Replaying failures keeps one key to one answer; retrying them lets the answer change. Choose on purpose, and send a new key when the situation has changed.", "失敗もリプレイすれば1つのキーに答えは1つ。再実行すれば答えは変わりうる。どちらかを意図して選び、状況が変わったら新しいキーで送る。"),
    },
    Words {
        id: "many-retries",
        story: pair!("The “Idempotency keys” article tests its service with many retries of one operation. Here one operation meets every kind of fault in a row (lost replies, a lost request, a server crash) and retries with backoff, up to six tries.", "記事「冪等性キー」は、1つの操作を何度もリトライしてサービスを試す。ここでは1つの操作が、あらゆる障害（応答の消失、リクエストの消失、サーバーのクラッシュ）に続けて遭い、バックオフしながら最大6回まで試す。"),
        ask: pair!("The next try is arriving. Where does the idempotent service's balance end?", "次の試行が届く。冪等なサービスの残高は最後にいくらになる？"),
        why: pair!("Only one try charged; from step {step} the others replayed it or never reached the charge. The naive service charged every try that arrived.", "課金したのは1回だけ。ステップ {step} から先の試行はリプレイされたか、課金まで届かなかった。素朴なサービスは、届いた試行のたびに課金した。"),
        takeaway: pair!("One run is one case; a property claims it for every case. The properties page runs it over hundreds of random scenarios and shrinks a failure to the smallest one.", "1回の実行は1つのケースにすぎない。プロパティはすべてのケースについて主張する。プロパティのページでは、数百のランダムなシナリオで検証し、失敗を最小のケースまで縮める。"),
    },
    Words {
        id: "order-id-as-key",
        story: pair!("A client uses the order id as its idempotency key. It charges 100 for order-1, then 30 for the order's shipping, again with the key “order-1”.", "クライアントが注文IDを冪等性キーに使う。order-1 に100を課金し、続けて送料の30を、同じく「order-1」というキーで課金する。"),
        ask: pair!("The shipping charge arrives with the key “order-1”. How many charges does the idempotent service make?", "送料の課金が「order-1」というキーで届く。冪等なサービスは何回課金する？"),
        why: pair!("At step {step} the idempotent service found the key and replayed the first charge's answer: the shipping was never charged, and the client was told it succeeded. The production service compares a fingerprint of the request and refuses the mismatch instead.", "ステップ {step} で冪等なサービスはキーを見つけ、最初の課金の答えをリプレイした。送料は課金されず、クライアントには成功と伝わった。本番型サービスはリクエストのフィンガープリントを比べ、不一致を拒否する。"),
        takeaway: pair!("A key is not an order id. The IdempotencyKey newtype of the “Idempotency keys” article makes mixing them up a type error, and a result enum with DuplicateRequest makes every caller handle a replay.", "キーは注文IDではない。記事「冪等性キー」の IdempotencyKey という newtype なら取り違えは型エラーになり、DuplicateRequest を含む結果の列挙型なら、呼び出し側は必ずリプレイを扱うことになる。"),
    },
    Words {
        id: "new-key-per-retry",
        story: pair!("The client mints a fresh UUID on every try instead of once per operation, and tries up to three times, 200 ms after each timeout. The first try's reply is lost; the next try's request is lost on its way.", "クライアントが、操作ごとに1回ではなく、試行のたびに新しい UUID を作り、タイムアウトのたびに200ミリ秒後、最大3回まで試す。最初の試行は応答が失われ、次の試行はリクエストが途中で失われる。"),
        ask: pair!("The third try arrives with yet another key. How many times does the atomic service charge in all?", "3回目の試行が、また別のキーで届く。アトミックなサービスは全部で何回課金する？"),
        why: pair!("Every try that arrived carried its own key, so to the server each was a new operation: the first was charged, the third again at step {step}. The one in between never reached the server and charged nothing. No server can fix this: the key is the client's to keep.", "届いた試行はどれも自分のキーを持っていたので、サーバーにはそれぞれ新しい操作に見えた。最初の試行が課金され、3回目もステップ {step} でまた課金された。間の試行はサーバーに届かず、何も課金しなかった。これはどのサーバーにも直せない。キーを保つのはクライアントの役目。"),
        takeaway: pair!("Mint the key once per operation, before the first try (a UUID v4, or a v7 to keep keys in time order), and send it with every retry.", "キーは操作ごとに1回、最初の試行の前に作り（UUID v4、時刻順にしたいなら v7）、どのリトライでも同じものを送る。"),
    },
    Words {
        id: "split-store-crash",
        story: pair!("The server crashes after the charge, before the key's result is written; the client times out after 1 s and retries 30 s after each answer or timeout. The separate-store service commits the charge in one system and the key in another; TOCTOU writes them in separate steps; the atomic service commits both in one transaction; the production service first records the key as in flight, under a lock that expires after 90 s as rocket-rides' does, then commits the charge with the key's result.", "課金の後、キーの結果を書く前にサーバーがクラッシュする。クライアントは1秒でタイムアウトし、答えかタイムアウトのたびに30秒後にリトライする。別ストアのサービスは課金とキーを別々のシステムにコミットし、TOCTOU は別々のステップで書き、アトミックなサービスは両方を1つのトランザクションでコミットする。本番型サービスはまずキーを処理中として記録し（rocket-rides と同じく90秒で切れるロック）、それから課金とキーの結果を一緒にコミットする。"),
        ask: pair!("How many of the client's retries does the production service answer with “409: in flight”?", "本番型サービスは、クライアントのリトライのうちいくつに「409：処理中」と答える？"),
        why: pair!("The crash left the key's in-flight record behind, and no one was left to finish it: the retries at 31 s and 61 s found it and got 409, the second at step {step}. The one at 91 s found the lock expired, took the key over and charged once; the crashed charge had rolled back with its transaction. The separate-store service had committed the charge but never the key, so its retry charged again.", "クラッシュはキーの処理中レコードを残し、それを終わらせる者はもういない。31秒と61秒のリトライはそれを見つけて409を受け取った（2回目はステップ {step}）。91秒のリトライはロックが切れているのを見つけ、キーを引き継いで1回だけ課金した。クラッシュした課金はトランザクションごと巻き戻っていた。別ストアのサービスは課金をコミットしたがキーはしていなかったので、リトライでもう一度課金した。"),
        takeaway: pair!("Keep the key in the same transaction as the charge; a second store is a second commit that can fail on its own. A crashed request's key stays in flight until its lock expires: until then a retry gets 409.", "キーは課金と同じトランザクションに置く。別のストアは、単独で失敗しうる2つ目のコミットになる。クラッシュしたリクエストのキーは、ロックが切れるまで処理中のまま。それまでリトライには409が返る。"),
    },
    Words {
        id: "key-expiry",
        story: pair!("The production service keeps keys for 24 hours, as Stripe does. A charge succeeds; the client retries 25 hours later. The atomic service, asked the same, keeps keys forever.", "本番型サービスは Stripe と同じくキーを24時間保持する。課金が成功し、クライアントは25時間後にリトライする。同じ入力を受けるアトミックなサービスは、キーを永久に保持する。"),
        ask: pair!("The late retry arrives. How many charges does the production service make?", "遅れたリトライが届く。本番型サービスは何回課金する？"),
        why: pair!("The key had expired, so at step {step} the retry ran as a new charge. The atomic service still had the key.", "キーは期限切れだったので、ステップ {step} でリトライは新しい課金として実行された。アトミックなサービスにはキーがまだあった。"),
        takeaway: pair!("A key protects only while it is kept: retries must stop well inside the retention window.", "キーが守るのは保持されている間だけ。リトライは保持期間より十分前に打ち切る。"),
    },
    Words {
        id: "param-mismatch",
        story: pair!("A client bug: the same key is sent first with 100, then with 200, to the atomic service as the “Idempotency keys” article writes it and to the production service.", "クライアントのバグ：同じキーで、まず100、次に200が、記事「冪等性キー」のとおりのアトミックなサービスと本番型サービスに送られる。"),
        ask: pair!("The 200 arrives with the same key. How many different answers does the client get for that key from the production service? (A replay counts as the answer it repeats.)", "200が同じキーで届く。クライアントはそのキーについて、本番型サービスから何種類の答えを受け取る？（リプレイは、繰り返す元の答えと同じ1種類と数える。）"),
        why: pair!("At step {step} the client got the production service's answer: it had compared the request with the fingerprint stored with the key, found another amount and refused it with 400. Two answers, a receipt and an error the client cannot miss. The atomic service compared nothing and replayed the first receipt for a request it never ran: one answer, and a wrong one for the 200.", "ステップ {step} でクライアントは本番型サービスの答えを受け取った。本番型サービスはリクエストを、キーと一緒に保存したフィンガープリントと比べ、金額の違いを見つけて400で拒否していた。答えは領収書と、クライアントが見落とせないエラーの2種類。アトミックなサービスは何も比べず、実行していないリクエストに最初の領収書をリプレイした。答えは1種類で、200に対しては間違った答え。"),
        takeaway: pair!("Store a fingerprint of the request with the key and refuse a mismatch (Stripe answers 400, the IETF draft 422).", "キーと一緒にリクエストのフィンガープリントを保存し、不一致は拒否する（Stripe は400、IETF ドラフトは422）。"),
    },
    Words {
        id: "outbox-relay-crash",
        story: pair!("Two charges each write an event to the outbox, in the same transaction as the charge itself. The relay publishes them, crashes before marking them sent, and is started again. Each event asks a consumer to send the customer an e-mail; one consumer keeps an inbox of processed event ids, the other does not.", "2つの課金が、それぞれ課金と同じトランザクションでイベントをアウトボックスに書く。リレーはそれを発行し、送信済みの印を付ける前にクラッシュして、再起動される。イベントはどれも、顧客にメールを送るようコンシューマーに頼む。片方のコンシューマーは処理済みイベントIDの受信箱を持ち、もう片方は持たない。"),
        ask: pair!("How many e-mails does the consumer without an inbox send?", "受信箱を持たないコンシューマーは、メールを何通送る？"),
        why: pair!("The restarted relay found the events still unmarked and published them again: every event was delivered twice, and the consumer without an inbox acted on every delivery, the last at step {step}. The one with an inbox ignored the repeats.", "再起動したリレーは、印のないままのイベントを見つけてもう一度発行した。どのイベントも2回届き、受信箱のないコンシューマーは届くたびに処理した。最後はステップ {step}。受信箱のある方は繰り返しを無視した。"),
        takeaway: pair!("The outbox is at-least-once; the consumer's inbox makes it effectively once.", "アウトボックスは少なくとも1回。コンシューマーの受信箱が、それを実質1回にする。"),
    },
    Words {
        id: "dual-write",
        story: pair!("Two crashes, through three wirings: the outbox; commit, then publish; publish, then commit. The first request crashes right after its commit: before its reply and, in commit-then-publish, before it publishes. The second crashes after its charge, before its key, while its transaction is still open. A relay runs at the end. Neither client retries.", "2つのクラッシュを3つの配線で：アウトボックス、コミットしてから発行、発行してからコミット。1つ目のリクエストはコミットの直後、応答の前に（「コミットしてから発行」では発行の前にも）クラッシュする。2つ目は課金の後、キーの前に、トランザクションが開いたままクラッシュする。最後にリレーが動く。どちらのクライアントもリトライしない。"),
        ask: pair!("How many events does commit-then-publish publish?", "「コミットしてから発行」は、イベントをいくつ発行する？"),
        why: pair!("One charge committed, yet no event left: at step {step} the crash came after the commit and before the reply, and this wiring publishes in between: that event is lost for good. Publish-then-commit announced a charge that then rolled back; the outbox's relay published the committed one.", "課金は1つコミットされたのに、イベントは1つも出ていない。ステップ {step} でコミットの後、応答の前にクラッシュした。この配線はその間に発行するので、そのイベントは永久に失われる。「発行してからコミット」は後で巻き戻る課金を知らせ、アウトボックスのリレーはコミットされた課金を発行した。"),
        takeaway: pair!("An application cannot write two systems atomically: write the event into the database with the charge, and let a relay publish it.", "アプリケーションは2つのシステムに原子的には書けない。イベントは課金と一緒にデータベースへ書き、リレーに発行させる。"),
    },
    Words {
        id: "effectively-once",
        story: pair!("Everything at once: a double click sends two requests with one key at the same moment, and a retry follows. The naive, TOCTOU, atomic and production services take the same inputs.", "全部まとめて：ダブルクリックで同じキーのリクエストが2つ同時に送られ、その後リトライが続く。素朴・TOCTOU・アトミック・本番型のサービスが同じ入力を受ける。"),
        ask: pair!("The TOCTOU service has the key too. How many charges does it make for that key?", "TOCTOU サービスもキーを使う。そのキーで何回課金する？"),
        why: pair!("The TOCTOU service checked the key twice before storing it, so it charged twice; the last charge is step {step}. Only the atomic and production services charged once.", "TOCTOU サービスは保存する前にキーを2回確認したので、2回課金した。最後の課金はステップ {step}。1回だけ課金したのは、アトミックなサービスと本番型サービスだけ。"),
        takeaway: pair!("At-least-once delivery plus an idempotency key is effectively once, and only when the check, the charge and the record are atomic.", "少なくとも1回の配信に冪等性キーを足すと実質1回になる。ただし、確認・課金・保存が原子的なときに限る。"),
    },
    Words {
        id: "slow-processor",
        story: pair!("The production service locks the key for 90 s (rocket-rides) and calls a card processor. This time the processor takes 120 s to answer. The client times out and retries every 30 s with the same key.", "本番型サービスはキーを90秒ロックし（rocket-rides）、決済代行を呼ぶ。今回は決済代行の応答に120秒かかる。クライアントはタイムアウトし、同じキーで30秒ごとにリトライする。"),
        ask: pair!("The third retry is about to arrive, 90 s after the first try. How many times is the card charged in the end?", "3回目のリトライが、最初の試行から90秒後に届こうとしている。カードは最終的に何回課金される？"),
        why: pair!("The lock expired while its holder was only slow; the retry took the key over and the processor charged again (step {step}). Every request carried the key, but the processor never saw it.", "ロックを持つリクエストが遅いだけなのにロックが切れ、リトライがキーを引き継いで決済代行がもう一度課金した（ステップ {step}）。どのリクエストもキーを持っていたが、そのキーは決済代行に渡されていなかった。"),
        takeaway: pair!("Pass the key on to the processor (in the sandbox: “Pass the key on”): it then replays. Recovery points help after a crash, not with a slow holder.", "キーを決済代行にも渡す（サンドボックスの「キーを決済代行に渡す」）とリプレイされる。回復ポイントはクラッシュの後には効くが、ロックを持つリクエストが遅いだけのときには効かない。"),
    },
    Words {
        id: "store-failures",
        story: pair!("The separate key store has room for one key. The reply to order-1 is lost, order-2 is charged, and then the client sends order-1 again, as request #3. Then the store is unreachable for order-3: both services refuse with 503 (fail closed) and the retry succeeds.", "別のキーストアには1個分の場所しかない。order-1 の応答が消え、order-2 が課金され、その後クライアントが order-1 をリクエスト #3 として再送する。次に order-3 のときはキーストアに接続できず、両サービスとも503で拒否し（フェイルクローズ）、リトライが成功する。"),
        ask: pair!("The client's order-1 arrives again. How many times does the service with the separate key store charge for that one key?", "order-1 が再び届く。キーを別ストアに置くサービスは、その1つのキーで何回課金する？"),
        why: pair!("Writing order-2's key evicted order-1's, so order-1's retry looked new and was charged again (step {step}). The atomic service keeps keys beside the balance: nothing evicted them. Failing closed cost a 503 and a retry, not money.", "order-2 のキーを書いたとき order-1 のキーが追い出されたので、order-1 のリトライは新しく見え、もう一度課金された（ステップ {step}）。アトミックなサービスはキーを残高の隣に置くので追い出されない。フェイルクローズの代償は503とリトライで、お金ではない。"),
        takeaway: pair!("A key store that can forget or fail open charges twice; fail closed (503), and on a serialization failure answer 409 Conflict “retry with the same key”, as rocket-rides does.", "忘れるキーストアやフェイルオープンは二重課金する。フェイルクローズ（503）にし、直列化失敗には rocket-rides のように409 Conflict「同じキーでリトライ」と答える。"),
    },
    Words {
        id: "key-scope",
        story: pair!("Two shops, each with an account of its own on one payment API, both call their first order order-1. Shop A (account 1) charges 100 with key order-1; then shop B charges 100 from its own account with the same key. The atomic service is the one the “Idempotency keys” article writes; the production service is set up as Stripe, the IETF draft and rocket-rides are.", "1つの決済 API に2つの店がそれぞれ自分のアカウントを持ち、どちらも最初の注文を order-1 と呼ぶ。店A（アカウント1）がキー order-1 で100を課金し、次に店Bが自分のアカウントから同じキーで100を課金する。アトミックなサービスは記事「冪等性キー」のとおりのもの、本番型サービスは Stripe・IETF ドラフト・rocket-rides と同じ設定。"),
        ask: pair!("Shop B's request is arriving. How many charges does the production service make in all?", "店Bのリクエストが届く。本番型サービスの課金は全部で何回？"),
        why: pair!("The production service keeps each key under the account that sent it, as Stripe, the IETF draft and rocket-rides do, so shop B's order-1 (account 2) was a key of its own, charged at step {step}. The atomic service looked the key up alone and replayed shop A's receipt to shop B: shop B was never charged and read another shop's answer.", "本番型サービスは Stripe・IETF ドラフト・rocket-rides と同じく、キーを送ってきたアカウントごとに保存する。だから店Bの order-1（アカウント2）は別のキーで、ステップ {step} で課金された。アトミックなサービスはキーだけで引き、店Aの領収書を店Bにリプレイした。店Bは課金されず、他の店の応答を読んだ。"),
        takeaway: pair!("Look keys up by (account, key): a key is unique only within one account's requests.", "レコードは（アカウント、キー）の組で引く。キーが一意なのは、1つのアカウントのリクエストの中だけ。"),
    },
    Words {
        id: "fingerprint-fields",
        story: pair!("The client writes the time into every body it sends. Its first reply is lost and it retries with the same key. Here the production service fingerprints the whole body; the atomic service compares no parameters at all.", "クライアントは送る本文すべてに時刻を書き込む。最初の応答が失われ、同じキーでリトライする。ここでの本番型サービスは本文全体のフィンガープリントをとる。アトミックなサービスはパラメーターをまったく比べない。"),
        ask: pair!("The retry carries the same key and a new time in its body. Where does the production service's balance end?", "リトライは同じキーで、本文の時刻だけが違う。本番型サービスの残高は最後にいくらになる？"),
        why: pair!("At step {step} the first try charged; only its reply was lost. The stamped time made the retry's fingerprint differ, so the production service refused an honest retry as “same key, different request”: the client got a 400 for a charge that did happen, where a replay would have told it so. Over too few fields (the description only) a real change of amount would be replayed silently instead; try both in the sandbox.", "ステップ {step} で最初の試行は課金した。失われたのは応答だけ。書き込まれた時刻のせいでリトライのフィンガープリントが変わり、本番型サービスは正直なリトライを「同じキーで違うリクエスト」として拒否した。クライアントは実際に行われた課金に400を受け取った。リプレイなら課金済みだと伝わったはずなのに。逆に少なすぎる項目（説明だけ）だと、金額の本当の変更が黙ってリプレイされる。サンドボックスで両方を試そう。"),
        takeaway: pair!("Fingerprint the fields that define the request (amount, description), not the whole body and not fewer.", "フィンガープリントはリクエストを決める項目（金額、説明）にとる。本文全体でも、それより少なくてもいけない。"),
    },
];

/// A lesson's variation question (`crate::sim::teach::transfer`): the change, asked before it
/// is run, and why its run ends as it does (shown after the answer; no step: the run is not on
/// the page until the learner loads it).
pub struct Variation {
    /// The lesson's id.
    pub id: &'static str,
    /// The question about the varied run.
    pub ask: Pair,
    /// Why the varied run ends as it does.
    pub why: Pair,
}

/// The variation questions' words, by lesson id.
pub const VARIATIONS: &[Variation] = &[
    Variation {
        id: "the-header",
        ask: pair!("What if the second request carries a new key instead? How many charges would the atomic service make in all?", "2つ目のリクエストが新しいキーを持っていたら？アトミックなサービスの課金は全部で何回になる？"),
        why: pair!("A new key names a new operation: nothing tells the server it is the same payment.", "新しいキーは新しい操作。同じ支払いだとサーバーに伝えるものはない。"),
    },
    Variation {
        id: "double-charge",
        ask: pair!("What if the card processor refuses the first try instead (a 503: nothing was charged), and the client retries the same way? Where would the naive balance end?", "1回目の試行で応答が失われるのではなく、決済代行がそれを断ったら（503：何も課金されていない）？クライアントは同じようにリトライする。素朴なサービスの残高は最後にいくらになる？"),
        why: pair!("The 503 said plainly that nothing was charged, so the naive service's only charge is the retry's. The services with keys never charge at all: they kept the 503 under the key and replay it to the retry. A retry is dangerous after an answer that never came; after one that says what happened, the danger is a key that keeps the failure.", "503は何も課金していないとはっきり伝えたので、素朴なサービスの課金はリトライの分だけ。キーを持つサービスは一度も課金しない。503をキーの下に保存し、リトライにはそれをリプレイするから。リトライが危ないのは答えが来なかった後。何が起きたかを伝える答えの後なら、危ないのは失敗を保存し続けるキーのほう。"),
    },
    Variation {
        id: "concurrent-same-key",
        ask: pair!("What if the two requests with one key arrive a second apart instead of together? How many charges would the TOCTOU service make?", "同じキーの2つのリクエストが、同時ではなく1秒ずれて届いたら？TOCTOU サービスは何回課金する？"),
        why: pair!("The first stores its key before the second checks: the race needs both checks first.", "2つ目が確認する前に1つ目がキーを保存する。競合には、両方の確認が先に来る必要がある。"),
    },
    Variation {
        id: "ten-threads",
        ask: pair!("What if the account holds 500 instead of 1,000, and the ten requests of 100 race the same way? How many times would the TOCTOU service charge the one key?", "口座の残高が1,000ではなく500で、100の課金10個が同じように競合したら？TOCTOU サービスはその1つのキーで何回課金する？"),
        why: pair!("Every request still got past the key check, but each charge checks the balance under its own lock: the account ran dry and the rest were refused for insufficient funds. The balance check limited the damage; it caught no duplicate.", "どのリクエストもキーの確認はすり抜けたが、課金はそれぞれのロックの下で残高を確かめる。口座が空になると、残りは残高不足で断られた。残高の確認は被害を抑えただけで、重複は1つも見つけていない。"),
    },
    Variation {
        id: "stripe-in-flight",
        ask: pair!("What if the two requests with one key come a second apart instead of together? How many “409: in flight” answers would the production service give?", "同じキーの2つのリクエストが、同時ではなく1秒ずれて来たら？本番型サービスは「409：処理中」を何回返す？"),
        why: pair!("The first had finished and stored its result before the second came, and a finished key is replayed, not refused: 409 answers only a request whose key is still running.", "2つ目が来る前に1つ目は終わり、結果を保存していた。終わったキーは拒否されずにリプレイされる。409が返るのは、キーがまだ処理中のリクエストだけ。"),
    },
    Variation {
        id: "failure-cached",
        ask: pair!("What if no deposit comes before the retry? How many charges would the production service make?", "リトライの前に入金がなかったら？本番型サービスは何回課金する？"),
        why: pair!("It stored no failure, so it ran the retry again; with the balance still 50 the charge failed again: no charge at all.", "失敗を保存していないのでリトライをもう一度実行し、残高はまだ50なので課金はまた失敗する。課金は1回もない。"),
    },
    Variation {
        id: "order-id-as-key",
        ask: pair!("What if the shipping charge gets a key of its own? How many charges would the idempotent service make?", "送料の課金が自分専用のキーを持っていたら？冪等なサービスは何回課金する？"),
        why: pair!("Two keys, two operations: the shipping is charged.", "キーが2つなら操作も2つ。送料は課金される。"),
    },
    Variation {
        id: "new-key-per-retry",
        ask: pair!("What if the client keeps one key for every try? How many times would the atomic service charge?", "クライアントがどの試行でも同じキーを使ったら？アトミックなサービスは何回課金する？"),
        why: pair!("Every retry finds the first try's key and gets its answer back.", "どのリトライも最初の試行のキーを見つけ、その答えを受け取る。"),
    },
    Variation {
        id: "slow-processor",
        ask: pair!("What if the processor answers in 60 seconds, inside the key's 90-second lock? How many times would the card be charged?", "決済代行が60秒で答え、キーの90秒のロックが切れる前に終わったら？カードは何回課金される？"),
        why: pair!("The lock outlives the slow call: retries get 409, then a replay.", "ロックが遅い呼び出しより長く続く。リトライは409、その後リプレイ。"),
    },
    Variation {
        id: "store-failures",
        ask: pair!("What if the key store has room for two keys? How many times would the service with the separate key store charge order-1?", "キーストアに2個分の場所があったら？キーを別ストアに置くサービスは order-1 で何回課金する？"),
        why: pair!("Order-2's key fits beside order-1's, so nothing is evicted and order-1's repeat is replayed.", "order-2 のキーは order-1 のキーの隣に入るので、何も追い出されず、order-1 の再送はリプレイされる。"),
    },
];

/// The variation question's words of a lesson, if it has one.
pub fn variation(id: &str) -> Option<&'static Variation> {
    let all: &'static [Variation] = if LAZY {
        LOADED.with(|l| l.get().variations)
    } else {
        VARIATIONS
    };
    all.iter().find(|v| v.id == id)
}

/// A misconception behind a wrong choice (`teach::belief_words`): in a one-language page, from
/// its words file (the words are there by the time a question is asked).
pub fn belief_text(l: Lang, b: crate::sim::teach::Belief) -> String {
    use crate::ui::text::teach::{belief_key, belief_words};
    if LAZY {
        let i = crate::sim::teach::Belief::ALL.iter().position(|x| *x == b);
        return text(l, &belief_key(i.unwrap_or(0))).into();
    }
    belief_words(l, b)
}

/// The closing card after the last lesson (issue 28), as markup the words file carries (none
/// of it in a one-language page's wasm): every lesson's takeaway, numbered and linked, as the
/// rules the path taught; the production recipes this project verified, exactly as they ran
/// (`text::recipes`); and where to go on. `playground::closing` adds its print button.
fn closing_markup(l: Lang) -> String {
    use crate::ui::text::view::playground as w;
    let mut r = crate::ui::raw::Raw::default();
    r.el("h3", &[], w::CLOSING_HEADING.get(l))
        .el("p", &[("class", "muted")], w::CLOSING_INTRO.get(l))
        .open("ol", &[("class", "rules")]);
    let whole_page = |sec: &Section| sec.items.iter().all(|i| matches!(i, Item::Page { .. }));
    for (n, section) in PATH.iter().enumerate() {
        for item in section.items {
            match item {
                // A section that is a page of its own keeps its number here too: no hole.
                Item::Page { href, title, .. } if whole_page(section) => {
                    r.open("li", &[("class", "page-rule")]).el(
                        "a",
                        &[("href", href)],
                        &format!("{}", n + 1),
                    );
                    r.text(" ")
                        .text(Lesson::pick(l, *title))
                        .text(" ↗")
                        .close("li");
                }
                Item::Page { .. } => {}
                Item::Lesson(id) => {
                    let (Some(num), Some(w)) = (number(id), words(id)) else {
                        continue;
                    };
                    let href = format!("#/scenario/{id}");
                    r.open("li", &[]).el("a", &[("href", &href)], &num);
                    r.text(" ").text(Lesson::pick(l, w.takeaway)).close("li");
                }
            }
        }
    }
    r.close("ol").trusted(&crate::ui::text::recipes::markup(l));
    r.el("h3", &[("class", "onward")], w::CLOSING_ONWARD.get(l))
        .open("ul", &[("class", "onward")]);
    let links = [
        ("sandbox/#/challenge/triple-charge", w::CLOSING_CHALLENGES),
        ("lab/#/lab", w::CLOSING_LAB),
        ("durable/", w::CLOSING_DURABLE),
        ("kafka/", w::CLOSING_KAFKA),
        ("#/glossary", w::GLOSSARY),
    ];
    for (href, words) in links {
        r.open("li", &[])
            .el("a", &[("href", href)], words.get(l))
            .close("li");
    }
    r.close("ul");
    // The path's last "Next": on to the challenges, as after every other lesson.
    r.open("p", &[("class", "next-lesson")])
        .el(
            "a",
            &[
                ("href", "sandbox/#/challenge/triple-charge"),
                ("data-testid", "next-lesson"),
            ],
            w::CLOSING_NEXT.get(l),
        )
        .close("p");
    r.as_str().to_string()
}

/// The lesson with this id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

/// The lesson after this one on the path (the pages of their own in between are skipped: the
/// list links them), if there is one.
pub fn next(id: &str) -> Option<&'static str> {
    let mut ids = PATH
        .iter()
        .flat_map(|s| s.items.iter())
        .filter_map(|i| match i {
            Item::Lesson(l) => Some(*l),
            Item::Page { .. } => None,
        });
    ids.by_ref().find(|l| *l == id)?;
    ids.next()
}

/// The pages of their own between this lesson and the next on the path, with their section's
/// number: the path's numbering has no hole, so "Next: 15" after 12.2 names 13 and 14 too.
pub fn pages_after(id: &str) -> Vec<(usize, &'static Item)> {
    let items = PATH
        .iter()
        .enumerate()
        .flat_map(|(n, s)| s.items.iter().map(move |i| (n + 1, i)));
    items
        .skip_while(|(_, i)| !matches!(i, Item::Lesson(l) if *l == id))
        .skip(1)
        .take_while(|(_, i)| matches!(i, Item::Page { .. }))
        .collect()
}

/// Every lesson's takeaway, with the lesson's number (the closing card writes them section by
/// section in `closing_markup`; the tests read them back from here).
#[cfg(test)]
fn takeaways() -> impl Iterator<Item = (String, &'static Lesson, Pair)> {
    LESSONS.iter().filter_map(|ls| {
        let w = words(ls.id)?;
        Some((number(ls.id)?, ls, w.takeaway))
    })
}

/// The words of the lesson with this id (in a one-language page, once loaded).
pub fn words(id: &str) -> Option<&'static Words> {
    let all: &'static [Words] = if LAZY {
        LOADED.with(|l| l.get().words)
    } else {
        WORDS
    };
    all.iter().find(|w| w.id == id)
}

/// Whether this build reads the lessons' words when the page opens instead of carrying them:
/// a one-language release page, whose words are a file beside it (`words-<lang>.txt`, written by
/// `src/bin/lesson_words.rs` from [`WORDS`] and [`VARIATIONS`] at build time), fetched as the
/// page starts, so the first download is the smaller (issue 28). Tests and `trunk serve` carry
/// them. The glossary and the closing card's recipes travel in the same file.
pub const LAZY: bool = crate::ui::i18n::Lang::BUILT.is_some();

/// The file of a one-language page's words.
pub fn words_file(l: Lang) -> String {
    format!("words-{}.txt", l.code())
}

/// What the words file holds besides the lessons' own words, in one language: markup by key
/// (written by `crate::ui::raw`, every word escaped): `glossary` (`text::glossary::markup`),
/// each term's entry on its own by the term's id (`text::glossary::entry_markup`), `recipes`
/// (`text::recipes::markup`), and for each lesson text that is the first on the path to use a
/// glossary term, that text with the term linked (`text::glossary::linked`), keyed by the
/// text's number (0 the story, 2 why, 3 the takeaway) and the lesson's id: `3dual-write`; and,
/// as plain text, the beliefs behind the questions' wrong choices (`text::teach::belief_key`).
#[derive(Clone, Copy, Default)]
pub struct Extras {
    /// Markup by key.
    pub texts: &'static [(&'static str, &'static str)],
}

/// Everything a words file holds, read.
#[derive(Clone, Copy)]
struct Loaded {
    words: &'static [Words],
    variations: &'static [Variation],
    extras: Extras,
}

thread_local! {
    /// The words read by [`load_words`]: read once per page, kept for its life.
    static LOADED: std::cell::Cell<Loaded> = const {
        std::cell::Cell::new(Loaded {
            words: &[],
            variations: &[],
            extras: Extras { texts: &[] },
        })
    };
    /// Where the words are built in: the extras of each language, computed once (English, then
    /// Japanese).
    static BUILT_IN: std::cell::Cell<[Option<Extras>; 2]> = const { std::cell::Cell::new([None, None]) };
}

/// The glossary's, the recipes' and the linked lesson texts' markup in `l`: in a one-language
/// page, from its words file once loaded (empty before); else computed from the tables and the
/// core, once per language.
pub fn extras(l: Lang) -> Extras {
    if LAZY {
        return LOADED.with(|x| x.get().extras);
    }
    let at = usize::from(l == Lang::Ja);
    if let Some(x) = BUILT_IN.with(|b| b.get()[at]) {
        return x;
    }
    let text: &'static str = Box::leak(extras_text(l).into_boxed_str());
    let x = parse_words(text).map(|p| p.extras).unwrap_or_default();
    BUILT_IN.with(|b| {
        let mut all = b.get();
        all[at] = Some(x);
        b.set(all);
    });
    x
}

/// Whether the lessons' words are here (built in, or read from the words file).
pub fn ready() -> bool {
    !LAZY || !LOADED.with(|l| l.get().words.is_empty())
}

/// The glossary's (`glossary`, or a term's id for its entry alone) or the recipes' (`recipes`)
/// markup, empty until read (or for a key it does not know).
pub fn text(l: Lang, key: &str) -> &'static str {
    let texts = extras(l).texts;
    texts.iter().find(|(k, _)| *k == key).map_or("", |(_, v)| v)
}

/// Lesson `id`'s text `field` (0 the story, 2 why, 3 the takeaway) as markup with the glossary
/// terms it is the first on the path to use linked to their entries, if it is such a text.
pub fn linked(l: Lang, id: &str, field: u8) -> Option<&'static str> {
    let texts = extras(l).texts.iter();
    let mut here = texts.filter(|(k, _)| k.as_bytes().first() == Some(&(b'0' + field)));
    here.find(|(k, _)| k.get(1..) == Some(id)).map(|(_, v)| *v)
}

/// Separates records and fields in the words file (neither occurs in any word).
const RECORD: char = '\u{1e}';
const FIELD: char = '\u{1f}';

fn record<'a>(out: &mut String, fields: impl IntoIterator<Item = &'a str>) {
    for f in fields {
        out.push_str(f);
        out.push(FIELD);
    }
    out.push(RECORD);
}

/// The lessons' words in one language, as the words file holds them, then the glossary, the
/// recipes and their words ([`extras_text`]).
pub fn words_text(l: Lang) -> String {
    let mut out = String::new();
    for w in WORDS {
        let fields = [w.story, w.ask, w.why, w.takeaway].map(|p| p.get(l));
        record(&mut out, std::iter::once(w.id).chain(fields));
    }
    for v in VARIATIONS {
        record(&mut out, ["variation", v.id, v.ask.get(l), v.why.get(l)]);
    }
    out + &extras_text(l)
}

/// The lesson texts that first use a glossary term with those terms linked, the glossary's and
/// the recipes' markup (the recipes computed from the core: `text::recipes`), in one language,
/// as the words file holds them.
pub fn extras_text(l: Lang) -> String {
    let mut out = String::new();
    let mut links = links(l);
    links.sort_by_key(|k| (k.lesson, k.field, k.start));
    for (i, k) in links.iter().enumerate() {
        if i > 0 && (links[i - 1].lesson, links[i - 1].field) == (k.lesson, k.field) {
            continue;
        }
        let same: Vec<Link> = links[i..]
            .iter()
            .take_while(|x| (x.lesson, x.field) == (k.lesson, k.field))
            .copied()
            .collect();
        let w = words(k.lesson).expect("a lesson on the path");
        let text = [w.story, w.ask, w.why, w.takeaway][usize::from(k.field)].get(l);
        let key = format!("{}{}", k.field, k.lesson);
        record(&mut out, ["text", &key, &glossary::linked(text, &same)]);
    }
    let mut entries = Vec::new();
    for t in GLOSSARY {
        let shown = match t.href.strip_prefix("#/scenario/").and_then(lesson) {
            Some(ls) if t.shown.get(l).is_empty() => {
                lesson_label(l, &number(ls.id).unwrap_or_default(), ls.title.get(l))
            }
            _ => t.shown.get(l).to_string(),
        };
        let first = links.iter().find(|k| k.term == t.id);
        let first = first.map(|k| (k.lesson, number(k.lesson).unwrap_or_default()));
        entries.push((t, shown, first));
    }
    for e in &entries {
        record(&mut out, ["text", e.0.id, &glossary::entry_markup(l, e)]);
    }
    record(
        &mut out,
        ["text", "glossary", &glossary::markup(l, &entries)],
    );
    // The beliefs behind the questions' wrong choices, as plain text.
    for (i, b) in crate::sim::teach::Belief::ALL.into_iter().enumerate() {
        let words = crate::ui::text::teach::belief_words(l, b);
        record(
            &mut out,
            ["text", &crate::ui::text::teach::belief_key(i), &words],
        );
    }
    record(&mut out, ["text", "closing", &closing_markup(l)]);
    out
}

/// Each glossary term of the lesson path with its first use there, in the glossary's order.
pub fn links(l: Lang) -> Vec<Link> {
    let on_path = GLOSSARY.iter().filter(|t| t.page.is_empty());
    let first = on_path.filter_map(|t| Some((t.id, first_use(l, t.forms.get(l))?)));
    first.map(|(term, k)| Link { term, ..k }).collect()
}

/// Where the path first writes one of `forms`, reading its lessons in order and each lesson's
/// story, question, why and takeaway.
pub fn first_use(l: Lang, forms: &str) -> Option<Link> {
    let ids = PATH.iter().flat_map(|s| s.items).filter_map(|i| match i {
        Item::Lesson(id) => Some(*id),
        Item::Page { .. } => None,
    });
    ids.filter_map(|id| WORDS.iter().find(|w| w.id == id))
        .find_map(|w| {
            let fields = [w.story, w.ask, w.why, w.takeaway];
            fields.iter().enumerate().find_map(|(field, p)| {
                let (start, end) = find(p.get(l), forms)?;
                Some(Link {
                    term: "",
                    lesson: w.id,
                    field: field as u8,
                    start,
                    end,
                })
            })
        })
}

/// A words file, read: the lessons' words, the variations' and the [`Extras`].
pub struct Parsed {
    /// The lessons' words.
    pub words: Vec<Words>,
    /// The variations' words.
    pub variations: Vec<Variation>,
    /// The glossary, the recipes and their words.
    pub extras: Extras,
}

/// Reads [`words_text`]'s output (or [`extras_text`]'s alone): `None` when a record is of no
/// kind it knows or names no lesson (the file is of another version, or damaged), or when the
/// lessons' words, the glossary's or the recipes' are not all there. Lesson ids come from
/// [`LESSONS`].
pub fn parse_words(text: &'static str) -> Option<Parsed> {
    let (mut words, mut variations) = (Vec::new(), Vec::new());
    let mut texts = Vec::new();
    for record in text.split(RECORD).filter(|r| !r.is_empty()) {
        let f: Vec<&'static str> = record.split(FIELD).collect();
        match f.as_slice() {
            ["variation", id, ask, why, ""] => variations.push(Variation {
                id: lesson(id)?.id,
                ask: Pair::same(ask),
                why: Pair::same(why),
            }),
            ["text", key, markup, ""] => texts.push((*key, *markup)),
            [id, story, ask, why, takeaway, ""] => words.push(Words {
                id: lesson(id)?.id,
                story: Pair::same(story),
                ask: Pair::same(ask),
                why: Pair::same(why),
                takeaway: Pair::same(takeaway),
            }),
            _ => return None,
        }
    }
    // The closing card's markup comes last: a file cut short has none. A file of the version before
    // the beliefs moved here has none of theirs: it is refused, not shown as empty choices.
    let whole = words.is_empty() || words.len() == LESSONS.len();
    let whole = whole && texts.iter().any(|t: &(&str, &str)| t.0 == "belief0");
    let whole = whole
        && texts
            .last()
            .is_some_and(|t: &(&str, &str)| t.0 == "closing");
    whole.then(|| Parsed {
        words,
        variations,
        extras: Extras {
            texts: Box::leak(texts.into_boxed_slice()),
        },
    })
}

/// Keeps the words fetched as a one-language page opened; false if they could not be read (a
/// lesson's words or any of the extras missing).
pub fn load_words(text: String) -> bool {
    let text: &'static str = Box::leak(text.into_boxed_str());
    let Some(p) = parse_words(text).filter(|p| !p.words.is_empty()) else {
        return false;
    };
    let loaded = Loaded {
        words: Box::leak(p.words.into_boxed_slice()),
        variations: Box::leak(p.variations.into_boxed_slice()),
        extras: p.extras,
    };
    LOADED.with(|l| l.set(loaded));
    true
}

/// The lesson's number on the path ("3.2"): its section and its place in it.
pub fn number(id: &str) -> Option<String> {
    PATH.iter().enumerate().find_map(|(s, sec)| {
        let lessons = sec.items.iter().filter(|i| matches!(i, Item::Lesson(_)));
        let many = lessons.clone().count() > 1;
        lessons.enumerate().find_map(|(k, i)| match i {
            Item::Lesson(l) if *l == id => Some(if many {
                format!("{}.{}", s + 1, k + 1)
            } else {
                format!("{}", s + 1)
            }),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_lesson_but_the_last_leads_to_the_next_on_the_path() {
        assert_eq!(next("the-header"), Some("timeout-ambiguity"));
        assert_eq!(next("timeout-ambiguity"), Some("client-cannot-tell"));
        // Across a section, and past the pages of their own.
        assert_eq!(next("client-cannot-tell"), Some("double-charge"));
        let last = LESSONS.iter().map(|l| l.id).filter(|id| next(id).is_none());
        assert_eq!(last.count(), 1, "one lesson ends the path");
        assert_eq!(next("no-such-lesson"), None);
        // Following next from the first lesson meets every lesson once.
        let mut seen = vec![crate::ui::route::HOME_SCENARIO];
        while let Some(n) = next(seen[seen.len() - 1]) {
            seen.push(n);
        }
        assert_eq!(seen.len(), LESSONS.len());
    }

    /// The durable and Kafka pages end their last lesson with the path's next item, named as the
    /// path names it.
    #[test]
    fn the_pages_of_their_own_lead_on_to_the_path() {
        use crate::ui::text::view;
        let kafka = PATH
            .iter()
            .position(|s| matches!(s.items, [Item::Page { id: "kafka", .. }]))
            .expect("the Kafka page on the path");
        let [Item::Page { title, .. }] = PATH[kafka].items else {
            panic!("one page")
        };
        let [Item::Lesson(after)] = PATH[kafka + 1].items else {
            panic!("one lesson after the Kafka page")
        };
        assert_eq!(*after, "effectively-once", "the Kafka page links it");
        for l in [Lang::En, Lang::Ja] {
            let page = format!("{} {}", kafka + 1, Lesson::pick(l, *title));
            assert_eq!(view::durable::AFTER_THE_PAGE.get(l), page);
            let next = format!(
                "{} {}",
                number(after).unwrap(),
                lesson(after).unwrap().title.get(l)
            );
            assert_eq!(view::kafka::AFTER_THE_PAGE.get(l), next);
        }
    }

    #[test]
    fn the_words_file_reads_back_as_the_words_in_each_language() {
        for l in [Lang::En, Lang::Ja] {
            let text: &'static str = Box::leak(words_text(l).into_boxed_str());
            let p = parse_words(text).expect("read back");
            let (words, variations) = (p.words, p.variations);
            assert_eq!(words.len(), WORDS.len());
            assert_eq!(variations.len(), VARIATIONS.len());
            for (a, b) in words.iter().zip(WORDS) {
                assert_eq!(a.id, b.id);
                assert_eq!(a.story.get(l), b.story.get(l));
                assert_eq!(a.takeaway.get(l), b.takeaway.get(l));
            }
            assert_eq!(variations[0].why.get(l), VARIATIONS[0].why.get(l));
        }
        // The glossary's links and markup and the recipes' come back too, in the language
        // written, as a page that carries its words computes them.
        for l in [Lang::En, Lang::Ja] {
            let text: &'static str = Box::leak(words_text(l).into_boxed_str());
            let read = parse_words(text).expect("read back").extras;
            assert_eq!(read.texts, extras(l).texts);
            for k in links(l) {
                let key = format!("{}{}", k.field, k.lesson);
                let markup = read.texts.iter().find(|(other, _)| *other == key);
                assert!(markup.is_some_and(|m| m.1.contains(&format!("data-term=\"{}\"", k.term))));
            }
            let glossary = text_in(read, "glossary");
            for t in GLOSSARY {
                assert!(glossary.contains(&format!("<dt data-term=\"{}\">", t.id)));
                assert!(glossary.contains(&escaped(t.means.get(l))));
                assert!(text_in(read, t.id).contains(&escaped(t.means.get(l))));
            }
            // Each belief behind a wrong choice, once, its words as written.
            let all = crate::sim::teach::Belief::ALL;
            for (i, b) in all.into_iter().enumerate() {
                assert!(!all[..i].contains(&b), "{b:?} twice");
                let words = crate::ui::text::teach::belief_words(l, b);
                assert_eq!(text_in(read, &crate::ui::text::teach::belief_key(i)), words);
            }
            let recipes = text_in(read, "closing");
            for (n, ls, _) in takeaways() {
                assert!(recipes.contains(&format!("<a href=\"#/scenario/{}\">{n}</a>", ls.id)));
            }
            // Its rules number every section of the path, pages of their own included, in
            // order: the card has no hole where the path has none (12.2, then 13, not 15).
            let mut seen: Vec<usize> = recipes
                .split("<li")
                .filter_map(|li| {
                    let link = li.split("<a href=\"").nth(1)?.split("\">").nth(1)?;
                    link.split(['.', '<']).next()?.parse().ok()
                })
                .collect();
            seen.dedup();
            assert_eq!(seen, (1..=PATH.len()).collect::<Vec<_>>(), "{l:?}");
            for r in crate::ui::text::recipes::records(l) {
                assert!(recipes.contains(&format!("data-recipe=\"{}\"", r[0])));
                assert!(recipes.contains(&escaped(&r[3])), "{}", r[0]);
            }
            // A file of the version before the glossary (the lessons' words alone) is refused.
            let old: String = text
                .split(RECORD)
                .filter(|r| !r.starts_with("text\u{1f}"))
                .flat_map(|r| [r, "\u{1e}"])
                .collect();
            assert!(parse_words(Box::leak(old.into_boxed_str())).is_none());
            // So is one of the version before the beliefs moved into it.
            let old: String = text
                .split(RECORD)
                .filter(|r| !r.starts_with("text\u{1f}belief"))
                .flat_map(|r| [r, "\u{1e}"])
                .collect();
            assert!(parse_words(Box::leak(old.into_boxed_str())).is_none());
        }
        // Another file, or a damaged one, is not read.
        assert!(parse_words("timeout-ambiguity\u{1f}x\u{1e}").is_none());
        assert!(parse_words("no-such-lesson\u{1f}a\u{1f}b\u{1f}c\u{1f}d\u{1f}\u{1e}").is_none());
        assert!(parse_words("").is_none());
    }

    /// The words file is outside text (fetched): cut anywhere, or with its separators moved, it
    /// is read or refused, never a panic.
    #[test]
    fn a_damaged_words_file_is_refused_without_panicking() {
        let text = words_text(Lang::Ja);
        let cuts: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(97).collect();
        for &at in &cuts {
            let cut: &'static str = Box::leak(text[..at].to_string().into_boxed_str());
            // Cut before the last lesson's words: a lesson is missing.
            if at < text.len() / 2 {
                assert!(parse_words(cut).is_none(), "cut at {at}");
            }
            let moved = text[..at].replace(FIELD, "") + &text[at..];
            let moved: &'static str = Box::leak(moved.into_boxed_str());
            let _ = parse_words(moved);
        }
    }

    #[test]
    fn the_pages_between_two_lessons_are_named_with_their_numbers() {
        let between: Vec<(usize, &str)> = pages_after("effectively-once")
            .into_iter()
            .chain(pages_after("dual-write"))
            .map(|(n, i)| match i {
                Item::Page { id, .. } => (n, *id),
                Item::Lesson(id) => (n, *id),
            })
            .collect();
        // The outbox's last lesson is followed by the durable (13) and Kafka (14) pages; the
        // conclusion (15) by none.
        assert_eq!(between, [(13, "durable"), (14, "kafka")]);
        assert!(pages_after("fingerprint-fields").is_empty());
        assert_eq!(takeaways().count(), LESSONS.len());
    }

    #[test]
    fn a_bare_address_opens_the_first_lesson_of_the_path() {
        assert_eq!(
            PATH[0].items.first().and_then(|i| match i {
                Item::Lesson(id) => Some(*id),
                Item::Page { .. } => None,
            }),
            Some(crate::ui::route::HOME_SCENARIO)
        );
        assert_eq!(
            number(crate::ui::route::HOME_SCENARIO).as_deref(),
            Some("1")
        );
    }

    #[test]
    fn the_path_holds_every_built_in_lesson_once_with_its_words_and_question() {
        let on_path: Vec<&str> = PATH
            .iter()
            .flat_map(|s| s.items.iter())
            .filter_map(|i| match i {
                Item::Lesson(id) => Some(*id),
                Item::Page { .. } => None,
            })
            .collect();
        assert_eq!(
            on_path,
            crate::sim::builtin_ids().to_vec(),
            "in the article's order"
        );
        for id in on_path {
            assert!(lesson(id).is_some(), "{id} has no title");
            let l = words(id).unwrap_or_else(|| panic!("{id} has no words"));
            assert!(
                l.why.en.contains("{step}") && l.why.ja.contains("{step}"),
                "{id}"
            );
            assert!(
                crate::sim::teach::question(id).is_some(),
                "{id} asks nothing"
            );
            assert!(number(id).is_some());
        }
        assert_eq!(WORDS.len(), LESSONS.len(), "one set of words per lesson");
        assert_eq!(
            LESSONS
                .iter()
                .filter(|l| l.id == "timeout-ambiguity")
                .count(),
            1
        );
        assert_eq!(number("the-header").as_deref(), Some("1"));
        assert_eq!(number("timeout-ambiguity").as_deref(), Some("2.1"));
        assert_eq!(number("double-charge").as_deref(), Some("3"));
    }

    /// The words a count is said with, in both languages, besides its digits.
    fn said(n: i64) -> &'static [&'static str] {
        match n {
            0 => &[
                "no charge",
                "never charged",
                "not charged",
                "nothing",
                "課金されない",
                "0回",
            ],
            1 => &["once", "one charge", "1回"],
            2 => &["twice", "two charges", "charges again", "2回", "二重"],
            3 => &["three times", "3回"],
            _ => &[],
        }
    }

    /// What follows a number that counts something other than a lesson's answer.
    const UNITS: &[&str] = &[
        "秒",
        "時間",
        "分",
        "日",
        "つ",
        "人",
        "個",
        "番",
        "件",
        " s",
        " ms",
        " h",
        " second",
        " hour",
        " minute",
        " day",
        " request",
        " order",
        " customer",
        " shop",
        " client",
        " tr",
        " key",
    ];

    /// What precedes a number that names something ("customer 1", "顧客1", the timeline's
    /// request "#1").
    const NAMES: &[&str] = &[
        "#",
        "customer ",
        "Customer ",
        "顧客",
        "order ",
        "step ",
        "ステップ ",
    ];

    /// Whether `text` holds the number `n` as a number of its own (not part of "order-1",
    /// "1000" or "v4").
    fn holds_number(text: &str, n: i64) -> bool {
        let digits = n.to_string();
        text.match_indices(&digits).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + digits.len()..].chars().next();
            let part_of = |c: Option<char>| {
                c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.' || c == ',')
            };
            // A duration, a thing counted that is not the answer's ("1秒", "2つのリクエスト",
            // "30 s"), is not the answer either.
            let rest = &text[i + digits.len()..];
            let unit = UNITS.iter().any(|u| rest.starts_with(u));
            let named = NAMES.iter().any(|n| text[..i].ends_with(n));
            !part_of(before) && !part_of(after) && !unit && !named
        })
    }

    /// The rule: what is shown before the question (the section's and the lesson's
    /// titles, the story, the question itself) never states the answer. The answer is the
    /// core's, measured on the lesson's run; the test fails when the text holds it as a
    /// number or says it in words ("twice", "2回").
    #[test]
    fn nothing_shown_before_the_question_states_its_answer() {
        use crate::sim::lesson::Value;
        let mut gives = Vec::new();
        for section in PATH {
            for item in section.items {
                let Item::Lesson(id) = item else { continue };
                let s = crate::sim::Session::new(crate::sim::builtin(id).unwrap()).unwrap();
                let q = crate::sim::teach::question(id).unwrap();
                let posed = q.pose(&s).unwrap();
                let Value::Int(n) = posed.answer_value().value else {
                    continue;
                };
                // An amount is said through the charges that made it ("charges twice").
                let balance = q.measure == crate::sim::teach::Measure::Balance;
                let charges = s
                    .finished(posed.column)
                    .filter(|_| balance)
                    .map_or(-1, |w| w.ledger().len() as i64);
                let (title, w) = (lesson(id).unwrap().title, words(id).unwrap());
                for l in [Lang::En, Lang::Ja] {
                    for text in [section.title, title, w.story, w.ask].map(|p| p.get(l)) {
                        // "At once" is a moment, not a count.
                        let low = text.to_lowercase().replace("at once", "");
                        if holds_number(text, n) {
                            gives.push(format!("{id}: “{text}” gives {n}"));
                        }
                        let words = said(n).iter().chain(said(charges));
                        for word in words.filter(|w| low.contains(*w)) {
                            gives.push(format!("{id}: “{text}” says {word}"));
                        }
                    }
                }
            }
        }
        assert!(gives.is_empty(), "{}", gives.join("\n"));
    }

    fn escaped(s: &str) -> String {
        let mut out = String::new();
        crate::ui::raw::esc(&mut out, s);
        out
    }

    fn text_in(read: Extras, key: &str) -> &'static str {
        let mut texts = read.texts.iter();
        texts.find(|(k, _)| *k == key).map_or("", |(_, v)| v)
    }

    /// The lesson path's texts in the order a learner reads them: each lesson's story, question,
    /// why and takeaway, with the markup the page draws for them (the question is drawn as it
    /// is: no link).
    fn path_markup(l: Lang) -> Vec<(&'static str, u8, &'static str, String)> {
        let mut out = Vec::new();
        for section in PATH {
            for item in section.items {
                let Item::Lesson(id) = item else { continue };
                let w = words(id).unwrap();
                for (field, text) in [w.story, w.ask, w.why, w.takeaway].into_iter().enumerate() {
                    let (field, text) = (field as u8, text.get(l));
                    let mut r = crate::ui::raw::Raw::default();
                    if field == 1 {
                        r.text(text);
                    } else {
                        crate::ui::glossary::write_linked(&mut r, l, id, field, text);
                    }
                    out.push((*id, field, text, r.as_str().to_string()));
                }
            }
        }
        out
    }

    /// The rule for the glossary: reading the path in order, every glossary term that
    /// appears in a lesson's text is a link to its entry at its first appearance, and nowhere
    /// after; every term of the glossary is used by some page (the lessons, or the durable or
    /// Kafka page's words); the glossary lists the path's terms in the order they first appear.
    #[test]
    fn each_glossary_term_is_linked_at_its_first_use_and_every_term_is_used() {
        for l in [Lang::En, Lang::Ja] {
            let texts = path_markup(l);
            let mut last = (0, 0, 0);
            for (k, t) in GLOSSARY.iter().enumerate() {
                let link = format!("data-term=\"{}\">", t.id);
                let links: Vec<usize> = (0..texts.len())
                    .filter(|&i| texts[i].3.contains(&link))
                    .collect();
                let forms: Vec<&str> = t.forms.get(l).split('|').collect();
                let first = texts
                    .iter()
                    .position(|x| forms.iter().any(|f| find(x.2, f).is_some()));
                if !t.page.is_empty() {
                    assert!(links.is_empty(), "{}: its page links it", t.id);
                    let page = match t.page {
                        "durable/" => [include_str!("durable.rs"), include_str!("view/durable.rs")],
                        _ => [include_str!("kafka.rs"), include_str!("view/kafka.rs")],
                    };
                    let used = page.iter().any(|src| find(src, t.forms.get(l)).is_some());
                    assert!(used, "{} ({l:?}): no page uses it", t.id);
                    continue;
                }
                let first = first.unwrap_or_else(|| panic!("{} ({l:?}): no page uses it", t.id));
                assert_eq!(
                    links,
                    [first],
                    "{} ({l:?}) is linked once, where first used",
                    t.id
                );
                let (id, field, text, markup) = &texts[first];
                assert_ne!(
                    *field, 1,
                    "{}: first used in {id}'s question, which links nothing",
                    t.id
                );
                // The link is on the first occurrence, and says it as the text does.
                let (a, b) = find(text, t.forms.get(l)).unwrap();
                let at = markup.find(&link).unwrap();
                assert!(markup[at..].starts_with(&format!("{link}{}</a>", &text[a..b])));
                // In the glossary's order.
                let place = (first, a, k);
                assert!(place >= last, "{} is out of the path's order", t.id);
                last = place;
            }
        }
    }

    #[test]
    fn a_number_of_its_own_is_told_from_part_of_a_name() {
        assert!(holds_number("charges 2 times", 2));
        assert!(holds_number("（2）", 2));
        assert!(!holds_number("order-2", 2));
        assert!(!holds_number("1000", 1));
        assert!(!holds_number("v4", 4));
    }

    /// The runs of four digits or more in `text` that are not grouped ("1000", not "1,000" or
    /// "order-1000"), except codes a reader types as they are (SQLSTATEs, RFC numbers).
    fn ungrouped(text: &str) -> Vec<&str> {
        const CODES: &[&str] = &["40001", "23505", "9110", "9457", "8941"];
        let mut found = Vec::new();
        let mut rest = text;
        while let Some(i) = rest.find(|c: char| c.is_ascii_digit()) {
            let before = rest[..i].chars().next_back();
            let n = rest[i..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(rest.len(), |n| i + n);
            let (digits, after) = (&rest[i..n], rest[n..].chars().next());
            let joined = |c: Option<char>| {
                c.is_some_and(|c| c.is_ascii_alphanumeric() || "-_.,/{".contains(c))
            };
            // "1000." ends a sentence; "1000.5" and "1000,5" go on.
            let goes_on = after.is_some_and(|c| ".,".contains(c))
                && rest[n + 1..].starts_with(|c: char| c.is_ascii_digit());
            let after = after.filter(|c| !".,".contains(*c));
            if digits.len() >= 4
                && !joined(before)
                && !joined(after)
                && !goes_on
                && !CODES.contains(&digits)
            {
                found.push(digits);
            }
            rest = &rest[n..];
        }
        found
    }

    #[test]
    fn the_lessons_write_a_number_of_thousands_one_way_as_the_page_shows_it() {
        // The state panel and the choices group digits (`text::grouped`: 1,000): so do the words.
        assert_eq!(
            ungrouped("of 1000. Then 1,000; order-1000; 1000.5; SQLSTATE 40001"),
            ["1000"]
        );
        let mut found = Vec::new();
        for w in WORDS {
            for l in [Lang::En, Lang::Ja] {
                for text in [w.story, w.ask, w.why, w.takeaway] {
                    let t = Lesson::pick(l, text);
                    found.extend(
                        ungrouped(t)
                            .into_iter()
                            .map(|d| format!("{} ({l:?}): {d}", w.id)),
                    );
                }
            }
        }
        for v in VARIATIONS {
            for l in [Lang::En, Lang::Ja] {
                for text in [v.ask, v.why] {
                    found.extend(
                        ungrouped(Lesson::pick(l, text))
                            .into_iter()
                            .map(|d| format!("{}: {d}", v.id)),
                    );
                }
            }
        }
        assert!(found.is_empty(), "{found:?}");
    }
}
