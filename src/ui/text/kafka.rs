//! The Kafka page's words: verdicts, the producer's reactions, inputs, a step in one line,
//! invariants and the promise behind each, Kafka's configuration refusals, limits and import
//! errors, the lessons' and challenges' words. The core (`crate::sim::kafka`) gives the data.

use crate::sim::kafka::Input;
use crate::sim::kafka::{
    BatchStatus, Belief, Choice, ConfigRefusal, Epoch, EventId, FailReason, Fate, InstanceState,
    Invariant, KafkaJsonError, KafkaLimit, Pid, Reaction, RelayKind, Sent, Seq, StepKind,
    StepRecord, Verdict,
};
use crate::sim::limits::{
    KAFKA_MAX_AT_MS, KAFKA_MAX_DELAY_MS, KAFKA_MAX_DELIVERY_TIMEOUT_MS, KAFKA_MAX_EVENTS,
    KAFKA_MAX_INPUTS, KAFKA_MAX_JITTER_MS, KAFKA_MAX_RETRIES, KAFKA_MAX_SEND, MAX_JSON_BYTES,
};
use crate::ui::i18n::{pair, tr, Lang, Pair};

/// What the Kafka model leaves out (the page's list; each is an ignored conformance case or a
/// documented choice).
pub const LEAVES_OUT: [Pair; 7] = [
    pair!("One partition and one broker: no replication, no leader changes; “not enough replicas” is a fault you arm, not a follower falling behind.", "パーティションもブローカーも 1つ：レプリケーションもリーダー交代もない。「レプリカ不足」は自分で仕掛ける障害で、遅れるフォロワーはいない。"),
    pair!("One record per batch, so a batch never splits and the sequence advances by one.", "1バッチに 1 レコード：バッチは分割されず、シーケンスは 1 ずつ進む。"),
    pair!("The broker forgets producers only when you say so, all at once; no log retention or DeleteRecords. (Brokers since KIP-360 accept any sequence from a producer they have no state for, as here, instead of answering UNKNOWN_PRODUCER_ID.)", "ブローカーがプロデューサーを忘れるのは指示したときだけで、すべてのプロデューサーを一度に。ログの保持期間も DeleteRecords もない。（KIP-360 以降のブローカーは、状態のないプロデューサーのシーケンスを UNKNOWN_PRODUCER_ID と答えずに何でも受け付ける。ここも同じ。）"),
    pair!("No transactions: a transactional.id only keeps the producer id across restarts and refuses older epochs; there is no commit, abort or read_committed. A zombie's refused write and its failed abort are one step. Where Kafka would abort after a failed batch, the producer here bumps its epoch through the coordinator (once nothing is in flight) as the idempotent producer would, and sends its unfinished batches again in the new epoch.", "トランザクションはない：transactional.id は再起動をまたいでプロデューサー ID を保ち、古いエポックを拒否するだけ。コミットもアボートも read_committed もない。ゾンビの書き込み拒否とアボートの失敗は 1ステップにまとめている。Kafka ならバッチの失敗後にアボートするところで、ここではべき等プロデューサーと同じ場面で（送信中がなくなってから）コーディネーターを通してエポックを上げ、未完了のバッチを新しいエポックで送り直す。"),
    pair!("Time is scaled down: 10 ms one way, a request timeout of 60 ms, no retry backoff and no linger.", "時間は縮めている：片道 10 ms、リクエストタイムアウト 60 ms、リトライのバックオフも linger もない。"),
    pair!("A step drains every batch that may go; Kafka's sender drains one batch per partition per loop and sends the next on the following loop.", "1ステップで送れるバッチをすべて送る。Kafka の sender はループごとにパーティションあたり 1バッチを送り、次は次のループで送る。"),
    pair!("Requests already on their way when the producer closes a connection still reach the broker (it has read them) and are written; their answers are lost.", "プロデューサーが接続を閉じた時に途中だったリクエストは、ブローカーに届いて（読み込み済みとして）書かれる。応答は失われる。"),
];

/// A producer instance's name: P1, P2, … in start order.
pub fn instance_name(inst: usize) -> String {
    format!("P{}", inst + 1)
}

/// An event's name: e0, e1, …
pub fn event_name(e: u32) -> String {
    format!("e{e}")
}

/// The broker's answer.
pub fn verdict(l: Lang, v: Verdict) -> String {
    match v {
        Verdict::Appended(o) => tr!(l, "appended at offset {o}", "オフセット {o} に追記"),
        Verdict::Duplicate(o) => tr!(
            l,
            "duplicate: acknowledged with its original offset {o}, not appended",
            "重複：元のオフセット {o} で応答し、追記しない"
        ),
        Verdict::OutOfOrder => l
            .t(
                "OutOfOrderSequenceException: refused",
                "OutOfOrderSequenceException：拒否",
            )
            .into(),
        Verdict::InvalidEpoch => l
            .t(
                "INVALID_PRODUCER_EPOCH: a newer epoch of this producer has written; refused",
                "INVALID_PRODUCER_EPOCH：このプロデューサーの新しいエポックが書き込み済み。拒否",
            )
            .into(),
        Verdict::Fenced => l
            .t(
                "PRODUCER_FENCED: the coordinator has a newer epoch",
                "PRODUCER_FENCED：コーディネーターに新しいエポックがある",
            )
            .into(),
        Verdict::NotEnoughReplicas => l
            .t(
                "NOT_ENOUGH_REPLICAS: not appended, may be retried",
                "NOT_ENOUGH_REPLICAS：追記せず。リトライできる",
            )
            .into(),
    }
}

fn fail_reason(l: Lang, r: FailReason) -> &'static str {
    match r {
        FailReason::RetriesExhausted => {
            l.t("no answer after its retries", "リトライしても応答なし")
        }
        FailReason::OutOfOrder => l.t("still out of order after its retries", "リトライ後も順序外"),
        FailReason::NotEnoughReplicas => l.t(
            "still not enough replicas after its retries",
            "リトライ後もレプリカ不足",
        ),
        FailReason::InvalidEpoch => l.t(
            "a newer epoch of this producer has written",
            "このプロデューサーの新しいエポックが書き込み済み",
        ),
        FailReason::Expired => l.t("its delivery timeout passed", "配信タイムアウトを過ぎた"),
        FailReason::Fenced => l.t("the producer is fenced", "プロデューサーがフェンスされた"),
    }
}

/// What the producer did.
pub fn reaction(l: Lang, r: Reaction) -> String {
    match r {
        Reaction::Acked(o) => tr!(
            l,
            "acknowledged (offset {o})",
            "確認応答済み（オフセット {o}）"
        ),
        Reaction::Retry(n) => tr!(
            l,
            "it will send it again (attempt {n})",
            "再送する（{n}回目）"
        ),
        Reaction::RetryNewEpoch(n) => tr!(
            l,
            "a real gap: it will send it again in a new epoch (attempt {n})",
            "本当の欠番：新しいエポックで再送する（{n}回目）"
        ),
        Reaction::Failed(why) => {
            let why = fail_reason(l, why);
            tr!(
                l,
                "it fails to the application ({why}); the relay publishes the event again",
                "アプリケーションへ失敗を返す（{why}）。リレーはイベントを再び発行する"
            )
        }
        Reaction::Stopped => l
            .t(
                "the producer is fenced and stops for good",
                "プロデューサーはフェンスされ、停止する",
            )
            .into(),
        Reaction::Ignored => l
            .t(
                "ignored (the batch has already failed, or the producer is down)",
                "無視（バッチは失敗済みか、プロデューサーが停止中）",
            )
            .into(),
    }
}

/// An input, as a button or a timeline line says it.
pub fn input(l: Lang, i: Input) -> String {
    match i {
        Input::Send { count } => tr!(
            l,
            "the service writes {count} event(s) to its outbox",
            "サービスがアウトボックスに {count}件のイベントを書く"
        ),
        Input::LoseNextRequest => l
            .t("the next request will be lost", "次のリクエストを失う")
            .into(),
        Input::LoseNextAck => l
            .t(
                "the next acknowledgement will be lost",
                "次の確認応答を失う",
            )
            .into(),
        Input::DelayNextRequest { ms } => {
            tr!(
                l,
                "the next request will be delayed {ms} ms",
                "次のリクエストを {ms} ms 遅らせる"
            )
        }
        Input::ExpireProducers => l
            .t(
                "the broker forgets its producers (producer.id.expiration.ms has passed)",
                "ブローカーがプロデューサーの状態を忘れる（producer.id.expiration.ms が過ぎた）",
            )
            .into(),
        Input::RefuseNextRequest => l
            .t(
                "the broker will answer the next request NOT_ENOUGH_REPLICAS",
                "ブローカーは次のリクエストに NOT_ENOUGH_REPLICAS と答える",
            )
            .into(),
        Input::Crash => l
            .t("the relay's process stops", "リレーのプロセスが止まる")
            .into(),
        Input::Restart => l
            .t(
                "a new relay process and producer start",
                "新しいリレープロセスとプロデューサーが起動する",
            )
            .into(),
        Input::WakeZombie => l
            .t(
                "the old process wakes up: a zombie",
                "古いプロセスが目を覚ます：ゾンビ",
            )
            .into(),
    }
}

fn seq_text(seq: Option<u32>) -> String {
    seq.map_or_else(|| "—".to_string(), |s| s.to_string())
}

/// A request put on the wire, in words.
pub fn sent(l: Lang, s: &Sent) -> String {
    let (p, e, seq, n, epoch) = (
        instance_name(s.inst),
        event_name(s.event),
        seq_text(s.seq),
        s.attempt,
        s.epoch,
    );
    let fate = match s.fate {
        Fate::Delivered => String::new(),
        Fate::Lost => l.t(" — lost", " — 消失").into(),
        Fate::Delayed(ms) => tr!(l, " — delayed {ms} ms", " — {ms} ms 遅延"),
    };
    tr!(
        l,
        "{p} sends {e} (epoch {epoch}, seq {seq}, attempt {n}){fate}",
        "{p} が {e} を送信（エポック {epoch}、seq {seq}、{n}回目）{fate}"
    )
}

/// One step in one line.
pub fn step(l: Lang, r: &StepRecord) -> String {
    let mut out = match r.kind {
        StepKind::Input(i) => input_step(l, i, r.started),
        StepKind::Arrived {
            inst,
            event,
            seq,
            epoch,
            verdict: v,
            ack_lost,
            ..
        } => arrived(l, inst, event, seq, epoch, v, ack_lost),
        StepKind::Answered {
            inst,
            event,
            reaction: re,
            ..
        } => {
            let (p, e, re) = (instance_name(inst), event_name(event), reaction(l, re));
            tr!(
                l,
                "{p} hears about {e}: {re}",
                "{p} が {e} の応答を受ける：{re}"
            )
        }
        StepKind::TimedOut {
            inst,
            event,
            attempt,
            reaction: re,
        } => {
            let (p, e, re) = (instance_name(inst), event_name(event), reaction(l, re));
            tr!(
                l,
                "{p}: no answer for {e} (attempt {attempt}) in time; it closes the connection: {re}",
                "{p}：{e}（{attempt}回目）の応答が時間内に来ない。接続を閉じる：{re}"
            )
        }
        StepKind::Expired {
            inst,
            event,
            unresolved,
        } => expired(l, inst, event, unresolved),
        StepKind::Consumed {
            offset,
            event,
            applied,
        } => consumed(l, offset, event, applied),
    };
    out.push_str(&aftermath(l, r));
    // Every line of the timeline starts with a capital, whichever phrase comes first.
    match out.chars().next() {
        Some(c) if c.is_ascii_lowercase() => c.to_ascii_uppercase().to_string() + &out[1..],
        _ => out,
    }
}

/// An input's step, with the producer id and epoch a restart started with.
fn input_step(l: Lang, i: Input, started: Option<(Option<Pid>, Epoch)>) -> String {
    let mut s = input(l, i);
    if let Some((pid, epoch)) = started {
        let pid = pid.map_or_else(|| "—".to_string(), |p| p.to_string());
        s.push_str(&tr!(
            l,
            " (producer id {pid}, epoch {epoch})",
            "（プロデューサー ID {pid}、エポック {epoch}）"
        ));
    }
    s
}

/// A request reaching the broker, and the broker's answer.
fn arrived(
    l: Lang,
    inst: usize,
    event: EventId,
    seq: Option<Seq>,
    epoch: Epoch,
    v: Verdict,
    ack_lost: bool,
) -> String {
    let (p, e, seq, v) = (
        instance_name(inst),
        event_name(event),
        seq_text(seq),
        verdict(l, v),
    );
    let lost = if ack_lost {
        l.t(" — the acknowledgement is lost", " — 確認応答は失われる")
    } else {
        ""
    };
    tr!(
        l,
        "The broker gets {e} from {p} (epoch {epoch}, seq {seq}): {v}{lost}",
        "ブローカーが {p} から {e} を受信（エポック {epoch}、seq {seq}）：{v}{lost}"
    )
}

/// A batch's delivery timeout passing.
fn expired(l: Lang, inst: usize, event: EventId, unresolved: bool) -> String {
    let (p, e) = (instance_name(inst), event_name(event));
    let mut s = tr!(
        l,
        "{p}: the delivery timeout of {e} passes; it fails to the application and the relay publishes it again",
        "{p}：{e} の配信タイムアウトが過ぎる。アプリケーションへ失敗を返し、リレーはイベントを再び発行する"
    );
    if unresolved {
        s.push_str(l.t(
            " — its sequence is unresolved: nothing new is sent until the batches in flight are answered",
            " — シーケンスは未解決：送信中のバッチの応答が揃うまで新しいものは送らない",
        ));
    }
    s
}

/// The consumer reading a record: applied, or skipped by its inbox.
fn consumed(l: Lang, offset: u32, event: EventId, applied: bool) -> String {
    let e = event_name(event);
    if applied {
        tr!(
            l,
            "The consumer applies {e} (offset {offset})",
            "コンシューマーが {e} を適用（オフセット {offset}）"
        )
    } else {
        tr!(
            l,
            "The consumer's inbox has {e} already: skipped (offset {offset})",
            "コンシューマーの受信箱に {e} がある：スキップ（オフセット {offset}）"
        )
    }
}

/// What else a step did, after what happened: the requests its closed connection failed, an
/// epoch bumped or refused, the requests it sent.
fn aftermath(l: Lang, r: &StepRecord) -> String {
    let mut out = String::new();
    for c in &r.closed {
        let (e, n, re) = (event_name(c.event), c.attempt, reaction(l, c.reaction));
        out.push_str(&tr!(
            l,
            "; on the closed connection {e} (attempt {n}) fails too: {re}",
            "。閉じた接続の {e}（{n}回目）も失敗：{re}"
        ));
    }
    if let Some((inst, epoch)) = r.bumped {
        let p = instance_name(inst);
        out.push_str(&tr!(
            l,
            "; {p} bumps its epoch to {epoch} and numbers its unfinished batches from 0",
            "。{p} はエポックを {epoch} に上げ、未完了のバッチを 0 から番号付けし直す"
        ));
    }
    if let Some(inst) = r.bump_fenced {
        let p = instance_name(inst);
        out.push_str(&tr!(
            l,
            "; {p} asks the coordinator for a new epoch and is told PRODUCER_FENCED (a newer instance has its transactional id): it stops",
            "。{p} はコーディネーターに新しいエポックを求め、PRODUCER_FENCED と返される（新しいインスタンスが同じ transactional.id を持つ）：停止する"
        ));
    }
    for s in &r.sent {
        out.push_str(l.t("; ", "。"));
        out.push_str(&sent(l, s));
    }
    out
}

/// An invariant's name.
pub fn invariant(l: Lang, i: Invariant) -> &'static str {
    match i {
        Invariant::NoDuplicateInSession => l.t(
            "The producer never writes one send twice",
            "プロデューサーは 1回の送信を 2度書かない",
        ),
        Invariant::SendOrder => l.t("The log keeps the send order", "ログが送信順を保つ"),
        Invariant::NoFencedWrite => l.t(
            "No write accepted from a fenced epoch",
            "フェンスされたエポックの書き込みを受け付けない",
        ),
        Invariant::AppliedOnce => l.t(
            "Each event applied once downstream",
            "各イベントは下流で 1度だけ適用",
        ),
    }
}

/// When Kafka (or the pipeline) promises it.
pub fn promise(l: Lang, i: Invariant) -> &'static str {
    match i {
        Invariant::NoDuplicateInSession => l.t(
            "Kafka promises it with idempotence on and at most 5 in flight, within one producer session, while the broker remembers the producer. An event the relay sends again after a failure is a new send, outside the promise.",
            "冪等性が有効で in-flight が 5 以下なら、1つのプロデューサーセッションの中で、ブローカーがプロデューサーを覚えている間は Kafka が保証する。失敗の後にリレーが送り直すイベントは新しい送信で、保証の外。",
        ),
        Invariant::SendOrder => l.t(
            "Kafka promises it with idempotence on and at most 5 in flight, while the broker remembers the producer.",
            "冪等性が有効で in-flight が 5 以下なら、ブローカーがプロデューサーを覚えている間は Kafka が保証する。",
        ),
        Invariant::NoFencedWrite => l.t("With a transactional.id, the coordinator's epoch check promises it.", "transactional.id があれば、コーディネーターのエポック検査が保証する。"),
        Invariant::AppliedOnce => l.t(
            "Only the consumer's inbox promises it: the broker does not see a relay's resend as a retry.",
            "保証するのはコンシューマーの受信箱だけ。リレーの再送をブローカーはリトライと見なせない。",
        ),
    }
}

/// Why Kafka's producer would refuse the settings.
pub fn refusal(l: Lang, r: ConfigRefusal) -> &'static str {
    match r {
        ConfigRefusal::MaxInFlightOver5 => l.t(
            "Kafka refuses this: “Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer” (ConfigException; from Kafka 4.0 always). The broker keeps only the last 5 batches per producer. The playground runs it anyway, to show why.",
            "Kafka はこの設定を拒否する：「Must set max.in.flight.requests.per.connection to at most 5 to use the idempotent producer」（ConfigException、Kafka 4.0 以降は常に）。ブローカーはプロデューサーごとに直近 5バッチしか覚えていない。理由を見せるため、ここではそのまま動かす。",
        ),
        ConfigRefusal::RetriesZero => l.t(
            "Kafka refuses this: “Must set retries to non-zero when using the idempotent producer”. The playground runs it anyway.",
            "Kafka はこの設定を拒否する：「Must set retries to non-zero when using the idempotent producer」。ここではそのまま動かす。",
        ),
        ConfigRefusal::DeliveryTimeoutBelowRequestTimeout => l.t(
            "Kafka refuses this: “delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms” (the request timeout is 60 ms here). The playground runs it anyway.",
            "Kafka はこの設定を拒否する：「delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms」（ここでのリクエストタイムアウトは 60 ms）。ここではそのまま動かす。",
        ),
        ConfigRefusal::TransactionalWithoutIdempotence => l.t(
            "Kafka refuses this: “Cannot set a transactional.id without also enabling idempotence”. Without idempotence the transactional id does nothing here.",
            "Kafka はこの設定を拒否する：「Cannot set a transactional.id without also enabling idempotence」。冪等性なしでは、ここでもトランザクショナルIDは効かない。",
        ),
    }
}

/// A producer instance's state.
pub fn instance_state(l: Lang, s: InstanceState) -> &'static str {
    match s {
        InstanceState::Running => l.t("running", "稼働中"),
        InstanceState::Crashed => l.t("stopped", "停止"),
        InstanceState::Zombie => l.t("zombie (woke up)", "ゾンビ（復帰）"),
        InstanceState::Fenced => l.t("fenced", "フェンス済み"),
    }
}

/// A batch's state.
pub fn batch_status(l: Lang, s: BatchStatus) -> String {
    match s {
        BatchStatus::Queued => l.t("waiting", "待機").into(),
        BatchStatus::InFlight => l.t("in flight", "送信中").into(),
        BatchStatus::Acked(o) => tr!(l, "acked @{o}", "応答済み @{o}"),
        BatchStatus::Failed(r) => {
            let r = fail_reason(l, r);
            tr!(l, "failed: {r}", "失敗：{r}")
        }
    }
}

/// A relay's name.
pub fn relay(l: Lang, r: RelayKind) -> &'static str {
    match r {
        RelayKind::Outbox => l.t(
            "Outbox relay (polls the table)",
            "アウトボックスのリレー（テーブルをポーリング）",
        ),
        RelayKind::Log => l.t(
            "Log-based relay (CDC, resumes from its position)",
            "ログベースのリレー（CDC、位置から再開）",
        ),
    }
}

/// A choice of a question.
pub fn choice(l: Lang, c: Choice) -> String {
    match c {
        Choice::Appended => l
            .t(
                "Appended again: one more copy",
                "もう一度追記（コピーが1つ増える）",
            )
            .into(),
        Choice::Duplicate => l
            .t(
                "Recognised: the original offset, not appended",
                "重複と判定：元のオフセットで応答し、追記しない",
            )
            .into(),
        Choice::OutOfOrder => l
            .t(
                "Refused: OutOfOrderSequenceException",
                "拒否：OutOfOrderSequenceException",
            )
            .into(),
        Choice::InvalidEpoch => l
            .t(
                "Refused: INVALID_PRODUCER_EPOCH (an older epoch)",
                "拒否：INVALID_PRODUCER_EPOCH（古いエポック）",
            )
            .into(),
        Choice::Fenced => l
            .t("Refused: PRODUCER_FENCED", "拒否：PRODUCER_FENCED")
            .into(),
        Choice::NotEnoughReplicas => l
            .t("Refused: NOT_ENOUGH_REPLICAS", "拒否：NOT_ENOUGH_REPLICAS")
            .into(),
        Choice::Times(1) => l.t("once", "1回").into(),
        Choice::Times(n) => tr!(l, "{n} times", "{n}回"),
        Choice::Events(0) => l.t("none", "0件").into(),
        Choice::Events(1) => l.t("one event", "1件").into(),
        Choice::Events(n) => tr!(l, "{n} events", "{n}件"),
    }
}

/// A wrong choice that no belief gives (offered only on a changed run, to make three).
pub const NO_MODEL: Pair = pair!(
    "a guess no model on this page gives",
    "このページのどのモデルも出さない推測"
);

/// A belief that predicts a wrong choice, as the card names it after the answer.
pub fn belief(b: Belief) -> Pair {
    match b {
        Belief::RetryDeduplicated => pair!(
            "the producer's retry is deduplicated without enable.idempotence",
            "enable.idempotence なしでもプロデューサーのリトライは重複排除される"
        ),
        Belief::RetriesAppended => pair!(
            "the producer's own retries reach the log as copies, idempotence or not",
            "冪等性があってもなくても、プロデューサー自身のリトライはコピーとしてログに入る"
        ),
        Belief::AnyInFlight => pair!(
            "idempotence removes every retry's copy, however many requests are in flight",
            "送信中のリクエストがいくつでも、冪等性はリトライのコピーをすべて取り除く"
        ),
        Belief::RemembersForever => pair!(
            "the broker remembers a producer for ever",
            "ブローカーはプロデューサーを永久に覚えている"
        ),
        Belief::RestartForgets => pair!(
            "a new producer instance makes the broker forget the old one",
            "新しいプロデューサーのインスタンスが起動すると、ブローカーは古いものを忘れる"
        ),
        Belief::RestartFences => pair!(
            "a restart fences the old instance, with or without a transactional.id",
            "transactional.id があってもなくても、再起動は古いインスタンスをフェンスする"
        ),
        Belief::ResendIsRetry => pair!(
            "the relay's new send() is the producer's own retry, deduplicated like the retries before it",
            "リレーの新しい send() はプロデューサー自身のリトライで、それまでのリトライと同じく重複排除される"
        ),
        Belief::RefusesCopy => pair!(
            "the broker refuses a record it has already written",
            "ブローカーは書き込み済みのレコードを拒否する"
        ),
        Belief::RefusesForgotten => pair!(
            "the broker refuses a producer it has forgotten",
            "ブローカーは忘れたプロデューサーを拒否する"
        ),
        Belief::ExactlyOnceEndToEnd => pair!(
            "the idempotent producer makes the whole pipeline exactly-once, a relay's restart included",
            "冪等なプロデューサーがパイプライン全体を exactly-once にする。リレーの再起動も含めて"
        ),
        Belief::AsInTheLesson => pair!(
            "the change makes no difference: the broker does what it did in the lesson",
            "この変更では何も変わらない。ブローカーはレッスンと同じことをする"
        ),
    }
}

/// A broken limit.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one arm per limit, each naming its values"
)]
pub fn limit(l: Lang, e: KafkaLimit) -> String {
    match e {
        KafkaLimit::MaxInFlight(n) => tr!(
            l,
            "max_in_flight {n} is outside 1–10.",
            "max_in_flight {n} は 1〜10 の範囲外。"
        ),
        KafkaLimit::Retries(n) => {
            let max = KAFKA_MAX_RETRIES;
            tr!(
                l,
                "retries {n} is over {max}.",
                "retries {n} は {max} を超える。"
            )
        }
        KafkaLimit::Jitter(n) => {
            let max = KAFKA_MAX_JITTER_MS;
            tr!(
                l,
                "jitter_ms {n} is over {max}.",
                "jitter_ms {n} は {max} を超える。"
            )
        }
        KafkaLimit::DeliveryTimeout(n) => {
            let max = KAFKA_MAX_DELIVERY_TIMEOUT_MS;
            tr!(
                l,
                "delivery_timeout_ms {n} is outside 1–{max}.",
                "delivery_timeout_ms {n} は 1〜{max} の範囲外。"
            )
        }
        KafkaLimit::Inputs(n) => {
            let max = KAFKA_MAX_INPUTS;
            tr!(
                l,
                "{n} inputs: at most {max}.",
                "入力が {n}件：上限は {max}件。"
            )
        }
        KafkaLimit::At(i, at) => {
            let (i, max) = (i + 1, KAFKA_MAX_AT_MS);
            tr!(
                l,
                "Input {i}: at_ms {at} is over {max}.",
                "入力 {i}：at_ms {at} は {max} を超える。"
            )
        }
        KafkaLimit::Unordered(i) => {
            let i = i + 1;
            tr!(
                l,
                "Input {i} is earlier than the one before it: inputs go in time order.",
                "入力 {i} が前の入力より早い：入力は時刻順に並べる。"
            )
        }
        KafkaLimit::SendCount(i, n) => {
            let (i, max) = (i + 1, KAFKA_MAX_SEND);
            tr!(
                l,
                "Input {i}: count {n} is outside 1–{max}.",
                "入力 {i}：count {n} は 1〜{max} の範囲外。"
            )
        }
        KafkaLimit::Delay(i, ms) => {
            let (i, max) = (i + 1, KAFKA_MAX_DELAY_MS);
            tr!(
                l,
                "Input {i}: ms {ms} is outside 1–{max}.",
                "入力 {i}：ms {ms} は 1〜{max} の範囲外。"
            )
        }
        KafkaLimit::Events(n) => {
            let max = KAFKA_MAX_EVENTS;
            tr!(
                l,
                "{n} events in all: at most {max}.",
                "イベントが合計 {n}件：上限は {max}件。"
            )
        }
    }
}

/// Why an import or link was not read.
pub fn json_error(l: Lang, e: &KafkaJsonError) -> String {
    match e {
        KafkaJsonError::TooLong(n) => {
            let max = MAX_JSON_BYTES;
            tr!(
                l,
                "The JSON is {n} bytes: at most {max}.",
                "JSON が {n}バイト：上限は {max}バイト。"
            )
        }
        KafkaJsonError::Json(e) => super::input_error(l, e),
        KafkaJsonError::Limit(e) => limit(l, *e),
    }
}

/// The words of a lesson: title, story, question, why, takeaway.
pub struct LessonWords {
    /// Title.
    pub title: Pair,
    /// What happens in the run (never how it ends); `{idempotence}` is the run's
    /// `enable.idempotence` ([`LessonWords::story`]).
    pub story: Pair,
    /// The question.
    pub ask: Pair,
    /// Why, after the answer.
    pub why: Pair,
    /// What to try next.
    pub try_next: Pair,
}

impl LessonWords {
    /// The story, with the setting it names as the run has it (the learner may change it).
    pub fn story(&self, l: Lang, idempotence: bool) -> String {
        let on = if idempotence { "true" } else { "false" };
        let story = self.story.get(l);
        match story.split_once('{') {
            Some((before, rest)) => {
                let after = rest.strip_prefix("idempotence}").unwrap_or(rest);
                format!("{before}{on}{after}")
            }
            None => story.to_string(),
        }
    }
}

/// A lesson's words.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one arm per lesson"
)]
pub fn lesson(id: &str) -> Option<LessonWords> {
    Some(match id {
        "kafka-lost-ack" => LessonWords {
            title: pair!("A lost acknowledgement, without and with idempotence", "失われた確認応答：冪等性なしとあり"),
            story: pair!(
                "The service writes three events; the relay publishes them through a producer with enable.idempotence={idempotence}. The broker writes the first one, but its acknowledgement is lost, so the producer times out and sends it again.",
                "サービスが 3件のイベントを書き、リレーが enable.idempotence={idempotence} のプロデューサーで発行する。ブローカーは 1件目を書くが確認応答が失われ、プロデューサーはタイムアウトして再送する。",
            ),
            ask: pair!("What does the broker do with the retried e0?", "再送された e0 をブローカーはどうする？"),
            why: pair!(
                "Without idempotence a batch carries no producer id and no sequence number, so the broker cannot tell a retry from a new record. With it, the retry carries the same (producer id, epoch, sequence) as a batch it still remembers, and it answers with that batch's offset.",
                "冪等性なしのバッチはプロデューサー ID もシーケンス番号も持たないので、ブローカーはリトライと新しいレコードを区別できない。冪等性ありなら、リトライは覚えているバッチと同じ（プロデューサー ID、エポック、シーケンス）を持ち、ブローカーはそのバッチのオフセットで応答する。",
            ),
            try_next: pair!("Turn idempotence on and replay: the same lost ack, one copy.", "冪等性を有効にして再実行する：同じ応答消失で、コピーは 1つ。"),
        },
        "kafka-in-flight" => LessonWords {
            title: pair!("Six in flight and the first ack lost", "in-flight 6 と最初の応答消失"),
            story: pair!(
                "Idempotence is on, with max.in.flight.requests.per.connection=6 (Kafka refuses this; the playground runs it). Six batches go at once and all six are written, but the first acknowledgement is lost and the ones behind it on the same connection never arrive. The producer times out, closes the connection and retries the six in order, one at a time, e0 first.",
                "冪等性は有効、max.in.flight.requests.per.connection=6（Kafka はこの設定を受け付けないが、ここでは動かす）。6バッチを一度に送り 6件とも書かれるが、最初の確認応答が失われ、同じ接続でその後ろの応答も届かない。プロデューサーはタイムアウトして接続を閉じ、6件を順に 1件ずつ再送する。最初は e0。",
            ),
            ask: pair!("What does the broker do with the retry of e0 (sequence 0)?", "e0（シーケンス 0）のリトライをブローカーはどうする？"),
            why: pair!(
                "The broker keeps the metadata of only the last 5 batches per producer. Five later batches pushed sequence 0 out, so the retry is neither a known duplicate nor the next sequence: OutOfOrderSequenceException. The producer has no acknowledgement at all, so to it sequence 0 is the next one and the error means a real gap: it bumps its epoch, numbers the six batches from 0 and sends them again. A new epoch starts a clean slate at the broker, which writes all six a second time.",
                "ブローカーはプロデューサーごとに直近 5バッチのメタデータしか保持しない。後の 5バッチがシーケンス 0 を押し出したので、リトライは既知の重複でも次のシーケンスでもなく OutOfOrderSequenceException になる。プロデューサーは確認応答を 1つも受けていないので、シーケンス 0 は次の番号で、この誤りは本当の欠番を意味する：エポックを上げ、6バッチを 0 から番号付けし直して再送する。新しいエポックはブローカーにとってまっさらなので、6件すべてがもう一度書かれる。",
            ),
            try_next: pair!("Set max in flight to 5 and replay: the retry is recognised.", "max in flight を 5 にして再実行する：リトライが重複と判定される。"),
        },
        "kafka-forgotten" => LessonWords {
            title: pair!("A retry after the broker forgot the producer", "ブローカーがプロデューサーを忘れた後のリトライ"),
            story: pair!(
                "Idempotence is on and one request is in flight at a time. The broker writes e0, but the acknowledgement is lost. Before the producer's retry, the broker expires the producer's state, as it does for a producer it has not heard from for producer.id.expiration.ms (a day by default; the page compresses the wait). The retry carries the same producer id, epoch and sequence as before.",
                "冪等性は有効で、送信中のリクエストは 1度に 1つ。ブローカーは e0 を書くが確認応答が失われる。プロデューサーのリトライの前に、ブローカーはそのプロデューサーの状態を期限切れにする（producer.id.expiration.ms の間、何も送ってこないプロデューサーに対して行うこと。既定は 1日で、ページでは待ち時間を縮めている）。リトライは前と同じプロデューサー ID、エポック、シーケンスを持つ。",
            ),
            ask: pair!("What does the broker do with the retried e0?", "再送された e0 をブローカーはどうする？"),
            why: pair!(
                "Deduplication lives in the broker's memory of the last five batches per producer. Once that memory is gone, the broker has nothing to compare the retry with, and Kafka accepts any sequence from a producer it has no state for, so the retry is written as a second copy. Idempotence removes duplicates only while the broker still remembers the producer.",
                "重複排除の根拠は、ブローカーがプロデューサーごとに覚えている直近 5バッチだけ。その記憶が消えると、リトライを比べる相手がない。Kafka は状態のないプロデューサーからのシーケンスを何でも受け付けるので、リトライは 2つ目のコピーとして書かれる。冪等性が重複を取り除けるのは、ブローカーがプロデューサーを覚えている間だけ。",
            ),
            try_next: pair!("Move the expiry after the retry, or remove it, and replay: the retry is recognised.", "期限切れをリトライの後に移すか消して再実行する：リトライが重複と判定される。"),
        },
        "kafka-delivery-timeout" => LessonWords {
            title: pair!("The delivery timeout gives up, the relay sends again", "配信タイムアウトで諦め、リレーが送り直す"),
            story: pair!(
                "Idempotence is on, one request in flight, retries=10 and delivery.timeout.ms=200 (Kafka's defaults are retries=2147483647 and 2 minutes; the page compresses time). The broker writes e0, but every acknowledgement is lost. The producer keeps retrying and the broker answers each retry as a duplicate, but no answer gets back. At 200 ms, with retries to spare, the delivery timeout fails e0 to the application. Its outbox row is still unpublished, so the relay publishes e0 again.",
                "冪等性は有効、送信中のリクエストは 1つ、retries=10、delivery.timeout.ms=200（Kafka の既定は retries=2147483647 と 2分。ページでは時間を縮めている）。ブローカーは e0 を書くが、確認応答はすべて失われる。プロデューサーはリトライを続け、ブローカーはどのリトライにも重複として答えるが、応答は 1つも戻らない。200 ms の時点で、リトライ回数を残したまま、配信タイムアウトが e0 をアプリケーションに失敗として返す。アウトボックスの行はまだ未発行なので、リレーは e0 をもう一度発行する。",
            ),
            ask: pair!("The relay publishes e0 again. What does the broker do with it?", "リレーが e0 をもう一度発行する。ブローカーはそれをどうする？"),
            why: pair!(
                "Idempotence covers the producer's own retries of one send(). When the delivery timeout fails a batch, the producer cannot know whether it was written; the relay's new send() is a new batch with a new sequence (here in a new epoch, because the failed batch's sequence was left unresolved), and the broker has nothing that ties it to the first. The log holds e0 twice, and the consumer applies it twice unless it keeps an inbox. What ends the retrying is time, not the retries setting.",
                "冪等性が守るのは、1回の send() に対するプロデューサー自身のリトライだけ。配信タイムアウトでバッチが失敗すると、プロデューサーには書かれたかどうか分からない。リレーの新しい send() は新しいシーケンス（失敗したバッチのシーケンスが未解決になったので、ここでは新しいエポック）を持つ新しいバッチで、ブローカーには最初のものと結びつける手がかりがない。ログには e0 が 2つ入り、受信箱がなければコンシューマーは 2度適用する。リトライを終わらせるのは retries の設定ではなく時間。",
            ),
            try_next: pair!(
                "Turn the inbox on and replay: e0 is in the log twice but applied once. Or raise the delivery timeout to 480 ms: a later retry is acknowledged in time.",
                "受信箱を有効にして再実行する：e0 はログに 2つあるが、適用は 1度。あるいは配信タイムアウトを 480 ms に上げる：後のリトライが期限内に確認応答される。",
            ),
        },
        "kafka-restart" => LessonWords {
            title: pair!("A restart, a transactional id, and the zombie", "再起動、トランザクショナルID、ゾンビ"),
            story: pair!(
                "e2's acknowledgement is lost and e3's request is lost; then the relay's process stops and a new one starts and publishes both again. Later the old process wakes up — a zombie — and retries e2 and e3 with its old producer id and epoch.",
                "e2 の確認応答と e3 のリクエストが失われ、リレーのプロセスが止まる。新しいプロセスが起動して両方を再び発行する。その後、古いプロセスが目を覚まし（ゾンビ）、古いプロデューサー ID とエポックで e2 と e3 を再送する。",
            ),
            ask: pair!("What does the broker do with the zombie's first retry?", "ゾンビの最初のリトライをブローカーはどうする？"),
            why: pair!(
                "Without a transactional.id the new instance got a new producer id, so its resend of e2 is a new record to the broker; the zombie still has its own producer id, its retry of e2 is found in its own window, and its e3 is written again. With a transactional.id the new instance kept the producer id with epoch + 1, and every write of the old epoch is refused (INVALID_PRODUCER_EPOCH), after which the old instance is fenced. Either way the new instance's resend is a new record: deduplication holds only within one producer session.",
                "transactional.id がないと新しいインスタンスは新しいプロデューサー ID を得るので、e2 の再送はブローカーにとって新しいレコード。ゾンビは自分のプロデューサー ID のままで、e2 のリトライは自分のウィンドウで重複と判定され、e3 はもう一度書かれる。transactional.id があると新しいインスタンスは同じプロデューサー ID でエポック + 1 になり、古いエポックの書き込みはすべて拒否され（INVALID_PRODUCER_EPOCH）、古いインスタンスはフェンスされる。どちらでも新しいインスタンスの再送は新しいレコード：重複排除は 1つのプロデューサーセッション内だけ。",
            ),
            try_next: pair!("Turn the transactional id on and replay: the zombie is fenced.", "トランザクショナルIDを有効にして再実行する：ゾンビがフェンスされる。"),
        },
        "kafka-outbox" => LessonWords {
            title: pair!("The outbox relay through Kafka, with and without an inbox", "Kafka を通るアウトボックスのリレー、受信箱あり・なし"),
            story: pair!(
                "The outbox relay publishes six events. The acknowledgements of the first three are lost (the connection's answers stop after e0's), so the producer retries them within its session; later e5's is lost too, and the relay's process stops before it retries. A new process publishes the rows still unpublished. The consumer applies what the log holds.",
                "アウトボックスのリレーが 6件のイベントを発行する。最初の 3件の確認応答が失われ（e0 の応答から接続の応答が止まる）、プロデューサーはセッション内でそれらを再送する。後に e5 の応答も失われ、リレーのプロセスはリトライ前に止まる。新しいプロセスが未発行の行を発行し、コンシューマーはログの内容を適用する。",
            ),
            ask: pair!("Of the six events, how many does the consumer apply more than once?", "6件のイベントのうち、コンシューマーが 2回以上適用するのは何件？"),
            why: pair!(
                "The broker removes duplicates of retries within one producer session (e0, e1 and e2 are written once). A relay that restarts re-reads and republishes as a new producer: that duplicate reaches the log, and only the consumer's inbox, which remembers the event ids it applied, removes it.",
                "ブローカーが取り除くのは 1つのプロデューサーセッション内のリトライの重複（e0、e1、e2 は 1度だけ書かれる）。再起動したリレーは読み直して新しいプロデューサーとして再発行する。その重複はログに入り、取り除けるのは適用済みイベントIDを覚えるコンシューマーの受信箱だけ。",
            ),
            try_next: pair!(
                "Turn the inbox on; then try the log-based relay, which resumes from its last committed position and republishes more.",
                "受信箱を有効にする。次にログベースのリレーを試す：最後にコミットした位置から再開し、もっと多く再発行する。",
            ),
        },
        _ => return None,
    })
}

pub use super::VariationWords;

/// The words of lesson `id`'s variation question, if it has one
/// (`crate::sim::kafka::TRANSFER_IDS`).
pub fn variation(id: &str) -> Option<VariationWords> {
    let w = |ask, why| Some(VariationWords { ask, why });
    match id {
        "kafka-in-flight" => w(
            pair!(
                "What if the service writes five events instead of six, still with max.in.flight.requests.per.connection=6, and the first acknowledgement is lost the same way? What does the broker do with the retry of e0?",
                "max.in.flight.requests.per.connection=6 のまま、サービスが 6件ではなく 5件のイベントを書き、最初の確認応答が同じように失われたら？e0 のリトライをブローカーはどうする？"
            ),
            pair!(
                "The broker keeps the metadata of a producer's last five batches: with five sent, sequence 0 is still among them, so the retry is answered with its original offset. Six in flight break deduplication only once five later batches have pushed the lost one out; Kafka caps the setting at 5 so that a batch in flight is always still remembered.",
                "ブローカーはプロデューサーの直近 5バッチのメタデータを保持する。5件の送信ならシーケンス 0 はまだその中にあり、リトライには元のオフセットで応答する。in-flight 6 で重複排除が破れるのは、後の 5バッチが失われたバッチを押し出したときだけ。Kafka はこの設定を 5 までに制限し、送信中のバッチが必ず覚えられているようにしている。"
            ),
        ),
        "kafka-restart" => w(
            pair!(
                "What if the broker forgets every producer (producer.id.expiration.ms passes) just before the zombie wakes? What does the broker do with the zombie's first retry?",
                "ゾンビが目を覚ます直前に、ブローカーがすべてのプロデューサーを忘れたら（producer.id.expiration.ms が過ぎる）？ゾンビの最初のリトライをブローカーはどうする？"
            ),
            pair!(
                "The zombie's window lived only in the broker's memory of its producer id. Once that is forgotten, nothing ties its retry of e2 to the record already written, and Kafka accepts any sequence from a producer it has no state for: e2 is written once more. With a transactional.id the zombie is refused for its old epoch instead.",
                "ゾンビのウィンドウは、ブローカーがそのプロデューサー ID について覚えていることの中にしかなかった。それが忘れられると、e2 のリトライを書き込み済みのレコードと結びつけるものはなく、Kafka は状態のないプロデューサーからのシーケンスを何でも受け付ける。e2 はもう一度書かれる。transactional.id があれば、ゾンビは代わりに古いエポックとして拒否される。"
            ),
        ),
        _ => None,
    }
}

/// A challenge's title and goal.
pub fn challenge(id: &str) -> Option<(Pair, Pair)> {
    Some(match id {
        "kafka-duplicate" => (
            pair!("Get a duplicate past idempotence", "冪等性をすり抜けて重複を入れる"),
            pair!(
                "With idempotence on and without crashing or restarting the producer, get the producer to write one send twice by its own retries (the relay sending an event again after a failure does not count). You may change every setting and add any fault.",
                "冪等性を有効にしたまま、プロデューサーを止めたり再起動したりせずに、プロデューサー自身のリトライで 1回の送信を 2度書かせる（失敗の後にリレーがイベントを送り直すのは数えない）。設定はすべて変えてよく、どの障害も加えてよい。",
            ),
        ),
        "kafka-reorder" => (
            pair!("Reorder two records", "2つのレコードの順序を入れ替える"),
            pair!(
                "With idempotence on and at most 5 in flight, get an event into the log before one the service wrote earlier. Delaying a request will not do it: a connection keeps its requests in order.",
                "冪等性を有効にし in-flight を 5 以下にしたまま、サービスが先に書いたイベントより後のイベントを先にログへ入れる。リクエストを遅らせても無理：接続はリクエストの順序を保つ。",
            ),
        ),
        _ => return None,
    })
}

/// The real failure a challenge mirrors, in its debrief.
pub fn mirrors(id: &str) -> Pair {
    match id {
        "kafka-duplicate" => pair!(
            "More than five requests in flight with idempotence: the broker remembers only each producer's last five batches, which is why Kafka's producer refuses max.in.flight.requests.per.connection above 5 with enable.idempotence; a client that allows it can write a retried batch twice.",
            "冪等性を有効にしたまま送信中のリクエストが5件を超える場合。ブローカーが覚えるのはプロデューサーごとに最新の5バッチだけなので、Kafka のプロデューサーは enable.idempotence で max.in.flight.requests.per.connection が5を超える設定を拒否する。それを許すクライアントでは、リトライしたバッチが2回書かれうる。",
        ),
        _ => pair!(
            "A broker that has no state for the producer (its state expired after producer.id.expiration.ms, or the partition is new) accepts any first sequence: a refused first batch lets the later ones in first, and a consumer sees an update before the record it updates.",
            "プロデューサーの状態を持たないブローカー（producer.id.expiration.ms で期限切れになった、または新しいパーティション）は、最初のシーケンスを何でも受け付ける。最初のバッチが拒否されると後のバッチが先に入り、コンシューマーは更新対象のレコードより先に更新を見る。",
        ),
    }
}

/// The solution's explanation, shown with "Show a solution".
pub fn solution(id: &str) -> Pair {
    match id {
        "kafka-duplicate" => pair!(
            "With six batches in flight, a lost ack of the first is retried only after five later batches have pushed it out of the broker's window: the broker no longer knows the batch, and writes it again.",
            "6件を送信中のとき、最初のバッチの応答が失われると、そのリトライの時点では後の 5バッチがそれをブローカーのウィンドウから押し出している。ブローカーはもうそのバッチを知らず、もう一度書く。",
        ),
        _ => pair!(
            "When the broker refuses the very first request (not enough replicas), nothing is appended, and the broker accepts any first sequence from a producer id it has no state for, so the second and third batches are written first. The retried first batch is now out of order for good; it fails to the application, and the relay's resend lands after them.",
            "ブローカーが最初のリクエストを拒否すると（レプリカ不足）、何も追記されず、ブローカーは状態を持たないプロデューサー ID の最初のシーケンスを何でも受け付けるので、2つ目と 3つ目のバッチが先に書かれる。リトライした最初のバッチはもう順序外のまま。アプリケーションへ失敗が返り、リレーの再送はそれらの後に入る。",
        ),
    }
}
