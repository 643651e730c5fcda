//! The Kafka page's views' words (see the parent module); the words for the simulation's data
//! are in `crate::ui::text::kafka`.

use crate::ui::i18n::{pair, tr, Lang, Pair};

// nav: the lessons, the challenges and the sandbox.
pub const NAV_LABEL: Pair = pair!("Kafka lessons", "Kafka のレッスン");
pub const SANDBOX: Pair = pair!("Sandbox", "サンドボックス");
pub const BACK_TO_PATH: Pair = pair!(
    "← The playground's lesson path",
    "← プレイグラウンドのレッスン一覧"
);

/// After the page's last lesson, the path's next lesson: its number and title on the path
/// (`text::lessons::PATH`; a test holds them equal).
pub const AFTER_THE_PAGE: Pair = pair!(
    "15 A double click, then a retry",
    "15 ダブルクリック、そしてリトライ"
);
/// A lesson in the list: "1. Title".
pub fn nav_lesson(l: Lang, n: usize, title: &str) -> String {
    tr!(l, "{n}. {title}", "{n}. {title}")
}

/// A challenge in the list: "★ Title".
pub fn nav_challenge(l: Lang, title: &str) -> String {
    tr!(l, "★ {title}", "★ {title}")
}

// notice: the message above the run.
pub const LINK_DAMAGED: Pair = pair!(
    "The link is damaged (not a run this page wrote).",
    "リンクが壊れている（このページが書いた実行ではない）。"
);
pub const OLDER_MODEL: Pair = pair!(
    "This run was saved by an earlier version of this page, whose producer did not yet follow Kafka's own code in three ways: it renumbered batches still on their way after giving one up, it let a delayed request overtake later ones on the same connection, and it answered an older epoch as fenced. The run opens with the same settings and inputs, run as Kafka runs them, so its steps may differ from what was shared.",
    "この実行は以前の版のこのページで保存された。当時のプロデューサーは 3 点で Kafka のコードに従っていなかった：1つを諦めた後に途中のバッチを番号付けし直し、遅れたリクエストを同じ接続の後のリクエストに追い越させ、古いエポックをフェンスとして答えていた。同じ設定と入力のまま Kafka どおりに実行して開くので、共有されたときとステップが違うことがある。"
);
pub const UNKNOWN_CHALLENGE: Pair = pair!(
    "There is no challenge with this name on this page, so the sandbox is shown. The challenges are listed above.",
    "このページにこの名前のチャレンジはないので、サンドボックスを表示する。チャレンジは上の一覧にある。"
);
pub const IMPORTED: Pair = pair!(
    "Imported: the run starts at step 0.",
    "読み込んだ：実行はステップ 0 から。"
);
pub const STEP_LIMIT: Pair = pair!(
    "The run stopped at the step limit.",
    "実行はステップ上限で止まった。"
);
pub const DISMISS: Pair = pair!("Dismiss", "閉じる");

/// A link longer than a link may be.
pub fn link_too_long(l: Lang, bytes: usize) -> String {
    tr!(
        l,
        "The link is {bytes} bytes long: too long.",
        "リンクが {bytes}バイトで長すぎる。"
    )
}

/// A link whose run could not be opened, and why.
pub fn bad_link(l: Lang, why: &str) -> String {
    tr!(
        l,
        "This link's run could not be opened, so the built-in run is shown. {why}",
        "このリンクの実行は開けなかったので、組み込みの実行を表示する。{why}"
    )
}

/// A run kept in this browser that could not be restored, and why.
pub fn bad_saved(l: Lang, why: &str) -> String {
    tr!(
        l,
        "The run saved in this browser could not be restored, so the built-in run is shown. {why}",
        "このブラウザーに保存された実行は復元できなかったので、組み込みの実行を表示する。{why}"
    )
}

/// An import refused, and why.
pub fn not_imported(l: Lang, why: &str) -> String {
    tr!(
        l,
        "Not imported, nothing changed. {why}",
        "読み込まなかった。何も変えていない。{why}"
    )
}

/// An input refused by a limit, and why.
pub fn not_added(l: Lang, why: &str) -> String {
    tr!(
        l,
        "Not added, nothing changed: {why}",
        "追加しなかった。何も変えていない：{why}"
    )
}

/// The run stopped at the step limit with its backlog congested.
pub fn congested(l: Lang, expired: u32, written: u32) -> String {
    tr!(
        l,
        "The run stopped at the step limit with its backlog congested: batches gave up at their delivery timeout {expired} times for {written} events, and the relay published each one again at the back. Each waits behind the others longer than the delivery timeout (it counts from send(), queueing included), so most give up again: the backlog drains slowly, or never (a metastable failure). A longer delivery timeout, or fewer events at once, lets it drain.",
        "実行はステップ上限で止まった。滞留が詰まっている：{written}件のイベントに対してバッチが配信タイムアウトで {expired}回諦め、リレーがそのたびに列の最後へ送り直した。どのバッチも他の後ろで配信タイムアウト（send() から数え、待ち時間も含む）より長く待つので、ほとんどがまた諦める：滞留はゆっくりとしか掃けないか、まったく掃けない（メタステーブルな障害）。配信タイムアウトを長くするか、一度に書くイベントを減らせば掃ける。"
    )
}

// intro: the challenge's status and solution, the sandbox.
pub const WON: Pair = pair!("★ Won at this step.", "★ このステップで達成。");
pub const NOT_WON: Pair = pair!(
    "Not won: the run is over and the goal is not met at its end. Change what you send or the settings, and run again.",
    "未達成：実行は終わったが、目標を満たしていない。送るものか設定を変えて、もう一度実行する。"
);
pub const NOT_YET: Pair = pair!("Not yet.", "まだ。");
pub const DELAY_NOTE: Pair = pair!(
    "A delay cannot reorder one producer's records: Kafka keeps a connection's requests in order (the broker handles one request of a connection at a time), so the later ones wait behind the slow one. Earlier versions of this page let them overtake; links made then open here but no longer win. Look for a request that fails while later ones succeed.",
    "遅延では 1つのプロデューサーのレコードの順序は入れ替わらない：Kafka は接続ごとにリクエストの順序を保つ（ブローカーは 1つの接続のリクエストを 1件ずつ処理する）ので、後のリクエストは遅いものの後ろで待つ。以前の版のこのページでは追い越せたので、その頃のリンクは開けるがもう達成しない。後のリクエストが成功する間に失敗するリクエストを探そう。"
);
pub const BACK_TO_MY_RUN: Pair = pair!("Back to my run", "自分の実行に戻る");
pub const SHOW_SOLUTION: Pair = pair!(
    "Stuck? Show a solution (your run is kept)",
    "行き詰まったら：解答例を開く（自分の実行は残る）"
);
pub const SANDBOX_TITLE: Pair = pair!("Sandbox: your own run", "サンドボックス：自分の実行");
pub const SANDBOX_STORY: Pair = pair!(
    "Choose the producer's settings, send events, lose or delay requests and acknowledgements, crash and restart the relay, wake the zombie, and watch the broker's log and window.",
    "プロデューサーの設定を選び、イベントを送り、リクエストや確認応答を失わせたり遅らせたりし、リレーを止めて再起動し、ゾンビを起こして、ブローカーのログとウィンドウを見る。"
);

// settings: the producer's settings.
pub const SETTINGS_HEADING: Pair = pair!(
    "Producer settings (acks=all)",
    "プロデューサーの設定（acks=all）"
);
pub const NO_DELIVERY_TIMEOUT: Pair = pair!("none (retries only)", "なし（retries のみ）");
pub const RELAY_LABEL: Pair = pair!("Relay ", "リレー ");
pub const CONSUMER_INBOX: Pair = pair!("consumer inbox", "コンシューマーの受信箱");

/// A duration offered in a list: "120 ms".
pub fn ms(l: Lang, ms: u32) -> String {
    tr!(l, "{ms} ms", "{ms} ms")
}

// predict: the lesson's question and its answer.
pub const PREDICT_LABEL: Pair = pair!("Predict: ", "予想：");
pub const NOT_APPLICABLE: Pair = pair!(
    "With these settings and inputs the run never gets there, so the question does not apply. “Reset this lesson” brings it back as built.",
    "この設定と入力では実行がそこまで行かないので、この問いは当てはまらない。「このレッスンを最初に戻す」で組み込みの状態に戻せる。"
);
pub const WAITS_HERE: Pair = pair!(
    "The run waits here for your answer.",
    "実行はあなたの答えをここで待っている。"
);
pub const STOPS_BEFORE: Pair = pair!(
    "Step or run: the run stops just before the step that answers it.",
    "ステップ実行か通し実行：答えが出る直前で止まる。"
);
pub const WHY_CHANGED: Pair = pair!(
    "You changed this lesson's settings or inputs, so its explanation, written for the run as built, is not shown: the answer above is this run's. “Reset this lesson” brings back the run as built, and its explanation.",
    "このレッスンの設定か入力を変えたので、組み込みの実行のために書いた説明は表示しない。上の答えはこの実行のもの。「このレッスンを最初に戻す」で組み込みの実行と説明に戻る。"
);
pub const ASK_AGAIN: Pair = pair!("Ask me again", "もう一度答える");

/// The verdict on a right answer.
pub fn right(l: Lang, shown: &str) -> String {
    tr!(l, "Right: {shown}.", "正解：{shown}。")
}

/// The verdict on a wrong answer.
pub fn not_quite(l: Lang, picked: &str, shown: &str) -> String {
    tr!(
        l,
        "Not quite: you said {picked}; the run gives {shown}.",
        "はずれ：予想は「{picked}」、実行の答えは「{shown}」。"
    )
}

/// The answer, after the question was skipped.
pub fn the_answer(l: Lang, shown: &str) -> String {
    tr!(l, "The answer: {shown}.", "答え：{shown}。")
}

/// The link to the step that shows the answer.
pub fn see_step(l: Lang, shows: usize) -> String {
    tr!(l, "See step {shows}", "ステップ {shows} を見る")
}

// caption: the step the run is at.
pub const NOTHING_YET: Pair = pair!(
    "Nothing to run yet: send events with the buttons below.",
    "まだ何もない：下のボタンでイベントを送る。"
);
pub const STEP_ZERO: Pair = pair!(
    "Step 0: press Step to begin.",
    "ステップ 0：「進む」で始める。"
);

/// "Step 3: …".
pub fn caption(l: Lang, k: usize, step: &str) -> String {
    tr!(l, "Step {k}: {step}", "ステップ {k}：{step}")
}

// faults: sending, and the faults to arm.
pub const INPUTS_HEADING: Pair = pair!(
    "Send, and break things (at the current step)",
    "送る、壊す（今のステップで）"
);
pub const SEND_1: Pair = pair!("Send 1 event", "イベントを 1件送る");
pub const SEND_5: Pair = pair!("Send 5", "5件送る");
pub const LOSE_REQUEST: Pair = pair!("Lose the next request", "次のリクエストを失う");
pub const LOSE_ACK: Pair = pair!("Lose the next ack", "次の確認応答を失う");
pub const EXPIRE_TITLE: Pair = pair!(
    "As when a producer is idle longer than producer.id.expiration.ms (a day by default)",
    "producer.id.expiration.ms（既定 1日）より長く何も送ってこないプロデューサーと同じ"
);
pub const EXPIRE: Pair = pair!(
    "The broker forgets its producers",
    "ブローカーがプロデューサーを忘れる"
);
pub const REFUSE_TITLE: Pair = pair!(
    "The broker answers NOT_ENOUGH_REPLICAS: a follower fell behind, acks=all cannot be met; nothing is appended",
    "ブローカーは NOT_ENOUGH_REPLICAS と答える：フォロワーが遅れ acks=all を満たせない。何も追記しない"
);
pub const REFUSE: Pair = pair!(
    "Refuse the next request (not enough replicas)",
    "次のリクエストを拒否（レプリカ不足）"
);
pub const DELAY: Pair = pair!("Delay the next request", "次のリクエストを遅らせる");
pub const DELAY_LABEL: Pair = pair!("Delay in ms", "遅延（ms）");
pub const CRASH: Pair = pair!("Crash the relay", "リレーを止める");
pub const RESTART: Pair = pair!("Restart it", "再起動する");
pub const WAKE_ZOMBIE: Pair = pair!("Wake the zombie", "ゾンビを起こす");
pub const NO_RESTARTS: Pair = pair!(
    "This challenge does not allow crashes or restarts.",
    "このチャレンジでは停止と再起動はできない。"
);

/// The faults armed for what comes next.
pub fn armed(l: Lang, lr: u32, la: u32, ld: usize, lf: u32) -> String {
    tr!(
        l,
        "Armed for what comes next: {lr} lost request(s), {la} lost ack(s), {ld} delay(s), {lf} refused request(s).",
        "次に備えて設定済み：リクエスト消失 {lr}、確認応答消失 {la}、遅延 {ld}、拒否 {lf}。"
    )
}

// producer: its instances and their batches (the column headings shared with the broker's log).
pub const PRODUCER: Pair = pair!("Producer", "プロデューサー");
pub const THE_RELAYS: Pair = pair!(" (the relay's)", "（リレーが使用中）");
pub const EVENT: Pair = pair!("event", "イベント");
pub const EPOCH: Pair = pair!("epoch", "エポック");
pub const SENDS: Pair = pair!("sends", "送信");
pub const STATE: Pair = pair!("state", "状態");

/// An instance's heading.
pub fn instance_head(l: Lang, name: &str, pid: &str, epoch: u16, state: &str) -> String {
    tr!(
        l,
        "{name} · producer id {pid} · epoch {epoch} · {state}",
        "{name} · プロデューサー ID {pid} · エポック {epoch} · {state}"
    )
}

// network: what is on the wire.
pub const NETWORK: Pair = pair!("Network", "ネットワーク");
pub const NOTHING_ON_WIRE: Pair = pair!("Nothing on the wire.", "通信中のものはない。");

/// A request on its way to the broker.
pub fn wire_request(l: Lang, p: &str, e: &str, s: &str, attempt: u8, at_ms: u64) -> String {
    tr!(
        l,
        "→ {p} {e} (seq {s}, send {attempt}) reaches the broker at t = {at_ms}",
        "→ {p} {e}（seq {s}、{attempt}回目）t = {at_ms} にブローカーへ届く"
    )
}

/// An answer on its way back to a producer.
pub fn wire_answer(l: Lang, p: &str, e: &str, v: &str, at_ms: u64) -> String {
    tr!(
        l,
        "← to {p} about {e}: {v} (at t = {at_ms})",
        "← {p} へ {e} について：{v}（t = {at_ms}）"
    )
}

// broker: its log, its window per producer id, the coordinator.
pub const BROKER_HEADING: Pair = pair!("Broker: partition 0", "ブローカー：パーティション 0");
pub const OFFSET: Pair = pair!("offset", "オフセット");
pub const PRODUCER_ID: Pair = pair!("producer id", "プロデューサー ID");
pub const FROM: Pair = pair!("from", "送信元");
pub const DUPLICATE: Pair = pair!("⚠ duplicate", "⚠ 重複");
pub const LOG_EMPTY: Pair = pair!("The log is empty.", "ログは空。");

/// The transaction coordinator's line.
pub fn coordinator(l: Lang, pid: u32, epoch: u16) -> String {
    tr!(
        l,
        "Transaction coordinator: transactional.id → producer id {pid}, epoch {epoch}",
        "トランザクションコーディネーター：transactional.id → プロデューサー ID {pid}、エポック {epoch}"
    )
}

/// The heading of the windows.
pub fn remembers(l: Lang, window: usize) -> String {
    tr!(
        l,
        "What it remembers per producer id: the last {window} batches",
        "プロデューサー IDごとに覚えていること：直近 {window}バッチ"
    )
}

/// A producer id's window, before its slots.
pub fn window_head(l: Lang, pid: u32, epoch: u16) -> String {
    tr!(
        l,
        "producer id {pid}, epoch {epoch}: ",
        "プロデューサー ID {pid}、エポック {epoch}："
    )
}

/// A slot's tooltip: the offset of the batch it remembers.
pub fn slot_offset(l: Lang, offset: u32) -> String {
    tr!(l, "offset {offset}", "オフセット {offset}")
}

/// A slot: the sequence of the batch it remembers.
pub fn slot_seq(l: Lang, seq: u32) -> String {
    tr!(l, "seq {seq}", "seq {seq}")
}

// consumer: the relay's state, the inbox, what was applied.
pub const CONSUMER_HEADING: Pair = pair!("Relay and consumer", "リレーとコンシューマー");
pub const INBOX_ON: Pair = pair!(
    "The consumer keeps an inbox of applied event ids.",
    "コンシューマーは適用済みイベントIDの受信箱を持つ。"
);
pub const INBOX_OFF: Pair = pair!(
    "The consumer has no inbox: it applies every record it reads.",
    "コンシューマーに受信箱はない：読んだレコードをすべて適用する。"
);

/// The outbox relay's state.
pub fn outbox_line(l: Lang, written: u32, published: usize) -> String {
    tr!(
        l,
        "Outbox: {written} event(s) written, {published} marked published.",
        "アウトボックス：{written}件書き込み、{published}件が発行済み。"
    )
}

/// The log-based relay's state.
pub fn log_line(l: Lang, written: u32, pos: u32) -> String {
    tr!(
        l,
        "Database log: {written} event(s); the relay's committed position is {pos}.",
        "データベースのログ：{written}件。リレーのコミット位置は {pos}。"
    )
}

/// The events the inbox skipped.
pub fn skipped(l: Lang, skipped: u32) -> String {
    tr!(l, " Skipped: {skipped}.", " スキップ：{skipped}件。")
}

/// An event and how many times it was applied.
pub fn applied(l: Lang, name: &str, n: u32) -> String {
    tr!(l, "{name} ×{n}", "{name} ×{n}")
}

// invariants: each with its state.
pub const INVARIANTS_HEADING: Pair = pair!(
    "Invariants, checked after every step",
    "不変条件（毎ステップ検査）"
);
pub const NOT_PROMISED: Pair = pair!(
    " — not promised with these settings",
    "：この設定では保証されない"
);
/// Before the step link of an invariant not promised (the promised one has a plain space).
pub const BREAK_GAP: Pair = pair!(" ", "");

/// A promised invariant broken at step `k`.
pub fn broken_at(l: Lang, k: usize) -> String {
    tr!(l, "broken at step {k}", "ステップ {k} で破れた")
}

/// An invariant not promised, broken at step `k`.
pub fn happens_at(l: Lang, k: usize) -> String {
    tr!(l, "(it happens at step {k})", "（ステップ {k} で起きる）")
}

// timeline: the latest steps.
pub const TIMELINE_HEADING: Pair = pair!(
    "Timeline (up to the current step)",
    "タイムライン（今のステップまで）"
);

/// The steps before the ones listed.
pub fn earlier_steps(l: Lang, first: usize) -> String {
    if first == 1 {
        l.t("… 1 earlier step", "… それ以前に 1ステップ")
            .to_string()
    } else {
        tr!(l, "… {first} earlier steps", "… それ以前に {first}ステップ")
    }
}

/// A step's time, the link to it.
pub fn at_time(l: Lang, t: u64) -> String {
    tr!(l, "t = {t}", "t = {t}")
}

// share: the link, the download, the import.
pub const SHARE_HEADING: Pair = pair!("Share, save, import", "共有・保存・読み込み");
pub const SHARE_NOTE: Pair = pair!(
    "The link opens this run at this step. This browser also keeps it for a reload.",
    "このリンクはこの実行をこのステップで開く。再読み込みのため、このブラウザーにも保存している。"
);
pub const SHARE_LINK: Pair = pair!("Share link", "共有リンク");
pub const DOWNLOAD_JSON: Pair = pair!("Download JSON", "JSONをダウンロード");
pub const IMPORT_JSON: Pair = pair!("Import JSON", "JSONを読み込む");
pub const SCENARIO_JSON: Pair = pair!("Scenario JSON", "シナリオのJSON");
pub const IMPORT: Pair = pair!("Import", "読み込む");

// leaves_out: what this model leaves out (the list is `crate::ui::text::kafka::LEAVES_OUT`).
pub const LEAVES_OUT_HEADING: Pair =
    pair!("What this model leaves out", "このモデルが省いていること");
pub const LEAVES_OUT_INTRO: Pair = pair!(
    "The rules above follow Apache Kafka's own code and are checked against its unit tests (tests/conformance/kafka.rs). These are simplified on purpose:",
    "上の規則は Apache Kafka のコードに従い、その単体テストと照らし合わせている（tests/conformance/kafka.rs）。次のものは意図して簡略化している："
);
