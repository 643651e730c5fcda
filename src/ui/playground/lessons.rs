//! Lesson text for the built-in scenarios, in English and Japanese, written for this page (the
//! article is the lesson plan; the words are ours). The scenarios themselves are data in
//! `crate::sim::scenarios`; this file only explains them.

use crate::ui::i18n::Lang;

/// The words around one built-in scenario.
pub struct Lesson {
    /// Stable scenario id (`#/scenario/<id>`).
    pub id: &'static str,
    /// Short title for the scenario picker.
    pub title: (&'static str, &'static str),
    /// What happens in this run.
    pub story: (&'static str, &'static str),
    /// What to watch while stepping.
    pub watch: (&'static str, &'static str),
    /// The one sentence to remember.
    pub takeaway: (&'static str, &'static str),
}

impl Lesson {
    /// Picks one of the pairs in the page language.
    pub fn pick(lang: Lang, pair: (&'static str, &'static str)) -> &'static str {
        lang.t(pair.0, pair.1)
    }
}

/// All lessons, in the order the picker shows them (the article's order).
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "double-charge",
        title: ("1. A retry charges twice", "1. リトライで二重課金"),
        story: (
            "A client charges 100 from a balance of 1000. The server does the work, but the reply is lost on the way back, so the client times out and sends the same charge again. The naive service has no way to know it already did this, and charges again. The idempotent and atomic services find the key in their store and replay the first answer.",
            "残高1000から100を課金する。サーバーは処理を終えたが、応答が帰り道で失われ、クライアントはタイムアウトして同じ課金をもう一度送る。素朴なサービスはすでに処理したことを知る手段がなく、もう一度引き落とす。冪等なサービスとアトミックなサービスはストアにキーを見つけ、最初の結果を返し直す。",
        ),
        watch: (
            "Step until the response is lost, then watch the retry: the naive balance drops to 800, the others stay at 900, and the naive panel's invariant badge turns to FAIL at the step of the second charge.",
            "応答が失われるところまで進め、リトライを見る。素朴なサービスの残高は800まで下がり、他は900のまま。素朴なサービスの不変条件バッジは、2回目の課金のステップでFAILになる。",
        ),
        takeaway: (
            "A timeout is not a failure: the work may have happened. Only a key the server remembers makes the retry safe.",
            "タイムアウトは失敗ではない。処理は終わっているかもしれない。サーバーが覚えているキーだけが、リトライを安全にする。",
        ),
    },
    Lesson {
        id: "distinct-keys",
        title: ("2. Different keys, different charges", "2. キーが違えば別の操作"),
        story: (
            "Three orders, three keys, three charges of 100, 200 and 300. Keys do not merge operations: each key is its own logical operation, and the balance goes from 1000 to 400.",
            "3つの注文、3つのキーで、100、200、300を課金する。キーは操作をまとめるものではない。キーごとに別の論理操作で、残高は1000から400になる。",
        ),
        watch: (
            "The store gets one row per key, and every service agrees on the final balance.",
            "ストアにはキーごとに1行ずつ増え、最終残高はすべてのサービスで一致する。",
        ),
        takeaway: (
            "Same key means retry; different key means a new operation. The client decides which, by choosing the key.",
            "同じキーならリトライ、違うキーなら新しい操作。どちらにするかは、キーを選ぶクライアントが決める。",
        ),
    },
    Lesson {
        id: "failure-cached",
        title: ("3. Failures are cached too", "3. 失敗もキャッシュする"),
        story: (
            "A charge of 100 against a balance of 50 fails with insufficient funds. Money arrives, and the client retries the same operation with the same key. The idempotent and atomic services, like the article's code, replay the cached failure. The production service here caches only successes, so it runs the charge again and it now succeeds: one operation, one key, two different answers.",
            "残高50に100を課金し、残高不足で失敗する。その後入金があり、クライアントは同じ操作を同じキーでリトライする。冪等なサービスとアトミックなサービスは記事のコードと同じく、キャッシュした失敗を返し直す。ここでの本番型サービスは成功だけをキャッシュするので課金を再実行し、今度は成功する。1つの操作、1つのキーに2つの異なる答えが出る。",
        ),
        watch: (
            "Compare what client #1 saw in each column (two tries, two answers in production) and the cached result column of each store.",
            "各列でクライアント #1 が見た結果（本番型では2回の試行に2つの答え）と、各ストアのキャッシュ結果の列を見比べる。",
        ),
        takeaway: (
            "Idempotent means the same answer every time, failures included. After the situation changes, send a new key.",
            "冪等とは、失敗も含めて毎回同じ答えを返すこと。状況が変わったら、新しいキーで送る。",
        ),
    },
    Lesson {
        id: "client-cannot-tell",
        title: ("4. Lost request, lost response, crash", "4. 要求の消失・応答の消失・クラッシュ"),
        story: (
            "Three charges, three different faults: the request never arrives; the request is processed but the reply is lost; the server crashes part-way. From the client's side all three look exactly the same: a timeout.",
            "3つの課金に、3種類の障害を入れる。要求が届かない。要求は処理されたが応答が失われる。サーバーが途中でクラッシュする。クライアントから見ると、3つとも同じタイムアウトにしか見えない。",
        ),
        watch: (
            "In the timeline the arrows stop short at different places, but the client lane shows the same timeout each time. Only the balance reveals which one charged.",
            "タイムラインでは矢印が途切れる場所がそれぞれ違うが、クライアントのレーンには毎回同じタイムアウトが並ぶ。どれが課金したかは残高にしか現れない。",
        ),
        takeaway: (
            "The client cannot tell what happened, so it must retry, and the server must make the retry harmless.",
            "クライアントには何が起きたか分からない。だからリトライするしかなく、サーバーがそのリトライを無害にしなければならない。",
        ),
    },
    Lesson {
        id: "new-key-per-retry",
        title: ("5. A new key on every retry", "5. リトライのたびに新しいキー"),
        story: (
            "The client generates a fresh UUID for each attempt instead of one per operation. Every retry looks like a new operation to the server, so even the atomic and the production services charge again.",
            "クライアントが操作ごとではなく、試行ごとに新しいUUIDを作る。サーバーには毎回のリトライが新しい操作に見えるため、アトミックなサービスも本番型サービスもまた課金してしまう。",
        ),
        watch: (
            "The store fills with keys that each charged once, and the \"one charge per operation\" invariant fails everywhere.",
            "ストアにはそれぞれ1回課金したキーが並び、「操作ごとに課金は最大1回」の不変条件がすべてのサービスでFAILになる。",
        ),
        takeaway: (
            "The key belongs to the logical operation, minted once by the client and reused on every retry.",
            "キーは論理操作のもの。クライアントが一度だけ作り、すべてのリトライで使い回す。",
        ),
    },
    Lesson {
        id: "split-store-crash",
        title: ("6. Keys in a separate store", "6. キーを別のストアに置く"),
        story: (
            "One service keeps its keys in a cache beside the database: it commits the charge, then records the key. The server crashes between those two writes. On retry the key is missing and the charge runs again; the TOCTOU service, with its separate transactions, fails the same way. The atomic service writes both in one transaction, so the crash rolls back the charge as well. The production service left an in-flight record behind: it answers 409 until that record's lock expires (90 s, as rocket-rides), then runs the charge once.",
            "あるサービスは、データベースとは別のキャッシュにキーを置く。課金をコミットしてからキーを記録する。その2つの書き込みの間でサーバーがクラッシュする。リトライ時にはキーがなく、課金がもう一度走る。トランザクションが分かれたTOCTOUサービスも同じように失敗する。アトミックなサービスは両方を1つのトランザクションで書くので、クラッシュで課金も巻き戻る。本番型サービスには処理中レコードが残り、そのロックが切れるまで（rocket-ridesと同じ90秒）409を返し、その後1回だけ課金する。",
        ),
        watch: (
            "Watch the commit and rollback events in the server lane around the crash.",
            "クラッシュの前後で、サーバーのレーンに出るコミットとロールバックを見る。",
        ),
        takeaway: (
            "The key and the effect must commit together. A key written afterwards is a promise a crash can break.",
            "キーと副作用は一緒にコミットしなければならない。後から書くキーは、クラッシュで破られうる約束にすぎない。",
        ),
    },
    Lesson {
        id: "concurrent-same-key",
        title: ("7. Two requests at once", "7. 同時に2つの要求"),
        story: (
            "Two requests with the same key arrive together. The TOCTOU service checks, charges and stores in three separate critical sections, so both checks pass before either stores. The atomic service does all three under one lock; the production service records the key as in-flight first and answers the second request 409 Conflict.",
            "同じキーの2つの要求が同時に届く。TOCTOUサービスはチェック・課金・保存を別々のクリティカルセクションで行うので、どちらかが保存する前に両方のチェックが通ってしまう。アトミックなサービスは3つを1つのロックの中で行い、本番型サービスはまずキーを処理中として記録し、2つ目の要求に409 Conflictを返す。",
        ),
        watch: (
            "In the TOCTOU timeline both checks miss before any store write. A third request with the key comes later: TOCTOU replays the second result, which differs from the first, so its replay invariant fails too. Then try the concurrency lab to see every interleaving.",
            "TOCTOUのタイムラインでは、保存より前に両方のチェックがミスする。後から同じキーの3つ目の要求が来ると、TOCTOUは2つ目の結果を返し直すが、それは1つ目と違うので再生の不変条件もFAILになる。並行性ラボではすべてのインターリーブを確かめられる。",
        ),
        takeaway: (
            "A lock around each step is not enough: check, charge and store must be one critical section.",
            "ステップごとのロックでは足りない。チェック・課金・保存を1つのクリティカルセクションにする。",
        ),
    },
    Lesson {
        id: "key-expiry",
        title: ("8. Keys expire", "8. キーの有効期限"),
        story: (
            "Stripe keeps keys for at least 24 hours, then may prune them. The production service here expires keys after 24 h; the atomic service, like the article's code, keeps them forever. A retry of the same operation 25 hours later finds no key in the production store and charges again.",
            "Stripeはキーを少なくとも24時間保持し、その後は削除しうる。ここでの本番型サービスは24時間でキーを期限切れにし、アトミックなサービスは記事のコードと同じく永久に保持する。同じ操作を25時間後にリトライすると、本番型のストアにはキーがなく、もう一度課金される。",
        ),
        watch: (
            "Watch the store row change from completed to expired when simulated time passes 24 h.",
            "シミュレーション時間が24時間を過ぎると、ストアの行が完了から期限切れに変わる。",
        ),
        takeaway: (
            "Retention is part of the contract: a retry after the window is not protected, and it charges again. Clients must retry within it.",
            "保持期間も契約の一部。期限を過ぎたリトライは守られず、もう一度課金される。クライアントは期限内にリトライしなければならない。",
        ),
    },
    Lesson {
        id: "param-mismatch",
        title: ("9. Same key, different amount", "9. 同じキーで違う金額"),
        story: (
            "A client reuses a key with a different amount. Replaying the cached answer would hide a client bug, so the production service refuses: 400 as Stripe, 422 as the IETF draft, or 409 as rocket-rides, depending on the policy.",
            "クライアントが同じキーを違う金額で使い回す。キャッシュした結果を返すとクライアントのバグが隠れるので、本番型サービスは拒否する。方針により、Stripeの400、IETFドラフトの422、rocket-ridesの409のいずれかになる。",
        ),
        watch: (
            "The production store's fingerprint column holds a hash of the first request's amount and description; the second request hashes differently, so the check reports a mismatch and nothing is stored for it.",
            "本番型ストアの指紋の列には、最初の要求の金額と説明のハッシュが入っている。2つ目の要求はハッシュが違うので、チェックは不一致を報告し、何も保存しない。",
        ),
        takeaway: (
            "A key names one request, parameters included. A mismatch is an error, never a replay.",
            "キーはパラメータも含めて1つの要求を指す。不一致はエラーであり、再生ではない。",
        ),
    },
    Lesson {
        id: "outbox-relay-crash",
        title: ("10. Outbox: delivered twice", "10. Outbox：2回届く"),
        story: (
            "Each charge and its event are written in one transaction, into the outbox. A relay publishes the events, then crashes before marking them published, so it publishes them again on restart. Both columns run the same atomic service; they differ only downstream. The deduplicating consumer remembers event ids and applies each once; the naive consumer sends a second receipt e-mail for every redelivery.",
            "課金とそのイベントは1つのトランザクションでoutboxに書かれる。リレーはイベントを発行し、発行済みの印を付ける前にクラッシュするので、再起動後にもう一度発行する。2つの列は同じアトミックなサービスで、違うのは下流だけ。重複排除するコンシューマはイベントIDを覚えていて各イベントを1回だけ適用し、素朴なコンシューマは再配送のたびに2通目の領収メールを送る。",
        ),
        watch: (
            "The outbox row's delivery count goes to 2; compare what each consumer applied.",
            "outboxの行の配送回数が2になる。それぞれのコンシューマが何を適用したかを比べる。",
        ),
        takeaway: (
            "The outbox makes delivery at-least-once; the consumer's inbox makes the effect happen once.",
            "outboxで配送は少なくとも1回になり、コンシューマの受信記録で効果は1回になる。",
        ),
    },
    Lesson {
        id: "dual-write",
        title: ("11. The dual write", "11. 二重書き込み"),
        story: (
            "Three copies of the atomic service get the same two requests. The first request crashes the server just after the commit, the second just after the charge but before the commit. With the outbox, the first charge's event is already in the committed row and the second rolls back with its charge. Commit-then-publish loses the first event. Publish-then-commit has already announced the second charge when the crash rolls it back.",
            "3つのアトミックなサービスに同じ2つの要求を送る。1つ目はコミット直後に、2つ目は課金後・コミット前にサーバーをクラッシュさせる。outboxでは、1つ目のイベントはコミット済みの行に入っていて、2つ目は課金と一緒に巻き戻る。コミット後に発行する方式は1つ目のイベントを失う。発行後にコミットする方式は、クラッシュで巻き戻る2つ目の課金をすでに知らせてしまっている。",
        ),
        watch: (
            "The \"one event per committed charge\" invariant fails in both dual-write services, in opposite directions.",
            "「コミットされた課金1件にイベント1件」の不変条件が、2つの二重書き込みサービスで逆向きにFAILになる。",
        ),
        takeaway: (
            "Write the fact that an event must be sent in the same transaction as the change; send it afterwards.",
            "イベントを送るべきという事実を、変更と同じトランザクションで書く。送るのはその後でよい。",
        ),
    },
];

/// The lesson for a scenario id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}
