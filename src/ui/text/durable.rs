//! The durable-execution page's words for the core's data (`crate::sim::durable`): engines,
//! keys, clocks, steps, faults, policies, the worker, runs, replies, effects, invariants,
//! verdicts, trace events, answers, and the lessons' and challenges' own words, in both
//! languages.

use crate::sim::durable::{
    ActionError, Answer, Belief, ChargeAgain, ClockMode, ConflictPolicy, EffectKind, EndState,
    Engine, FaultKind, FlowKind, Invariant, KeyMode, NotPromised, PolicyError, ReplayEnd,
    RequestId, RerunClass, RestateTarget, ReusePolicy, RunStatus, StartReply, StepName, TraceEvent,
    TraceKind, Verdict, Violation, WorkerState, RESTATE_ATTEMPTS, RESTATE_RETENTION_MS,
};
use crate::sim::lesson::NotPosed;
use crate::ui::i18n::{pair, tr, Lang, Pair};
use crate::ui::text::fmt_ms;

/// The engine's name.
pub fn engine(l: Lang, e: Engine) -> &'static str {
    match e {
        Engine::Temporal => "Temporal",
        Engine::Restate => "Restate",
        Engine::Dbos => "DBOS",
        Engine::Plain => l.t("No durable execution", "永続実行なし"),
    }
}

/// What the page imitates of each engine, and where that is documented.
pub fn engine_rule(l: Lang, e: Engine) -> (&'static str, &'static str) {
    match e {
        Engine::Temporal => (
            l.t(
                "Event history replayed by a new worker; a replayed command that differs from the history is a non-determinism error and the run stays open, blocked; workflow.Now() is deterministic; the server does not see a worker crash: an activity whose attempt reports nothing is retried when its Start-To-Close timeout fires, after the retry policy's backoff (1 s, doubling), not when a worker restarts; a workflow that returns a value closes Completed, one that returns an error Failed; a start retried with the request id of the call that started the run is answered with that run, whatever the policies; Workflow Id Reuse and Conflict Policies (AllowDuplicateFailedOnly reuses the id only after Failed, Terminated, Canceled or Timed out; RejectDuplicate with TerminateExisting is refused on every start, InvalidArgument).",
                "新しいワーカーがイベント履歴をリプレイする。履歴と違うコマンドは非決定性エラーで、実行は開いたまま止まる。workflow.Now() は決定論的。サーバーにワーカーのクラッシュは見えない。試行が何も報告しないアクティビティは、ワーカーの再起動ではなく、Start-To-Close タイムアウトが発火してからリトライポリシーのバックオフ（1秒から倍々）の後にリトライされる。値を返したワークフローは Completed、エラーを返したものは Failed で閉じる。実行を開始した呼び出しの request id で再送された開始には、ポリシーによらずその実行を返す。Workflow Id の Reuse / Conflict Policy（AllowDuplicateFailedOnly が ID を再利用させるのは Failed・Terminated・Canceled・Timed out の後だけ。RejectDuplicate と TerminateExisting の組はどの開始も InvalidArgument で拒否される）。",
            ),
            "https://docs.temporal.io/workflow-execution/workflowid-runid",
        ),
        Engine::Restate => (
            l.t(
                "ctx.run results journaled and replayed instead of re-executed; ctx.date and ctx.rand deterministic; a journal mismatch follows the retry policy by default (each attempt replays and hits it again) and the invocation is paused when the attempts are spent (pausing at once is an opt-in SDK option); a handler called with an Idempotency-Key attaches to the running invocation or returns its stored response, while a Workflow's run called again with the same workflow id is answered 409 “the workflow method was already invoked”, without the result; both are kept 24 hours after the invocation completed, then purged, and the same key or id runs anew.",
                "ctx.run の結果はジャーナルに記録され、再実行せずリプレイされる。ctx.date と ctx.rand は決定論的。ジャーナル不一致は既定ではリトライポリシーに従い（試行のたびにリプレイして同じ不一致に当たる）、試行を使い切ると呼び出しは一時停止する（すぐ一時停止するのは SDK のオプトイン）。Idempotency-Key 付きで呼んだハンドラーは実行中の呼び出しに合流するか、保存済みの応答を返す。一方、Workflow の run を同じワークフロー ID でもう一度呼ぶと、結果ではなく 409「the workflow method was already invoked」が返る。どちらも呼び出しの完了から 24時間保持された後に削除され、同じキーや ID は新しく実行される。",
            ),
            "https://docs.restate.dev/services/invocation/http",
        ),
        Engine::Dbos => (
            l.t(
                "Input and each step's output checkpointed in Postgres; recovery re-runs the function from the top and skips steps with a stored output; a step whose name differs from the one recorded at its position is refused; the time is read in a step, so its output is stored; the workflow id is the idempotency key: started again, a workflow returns its handle, its recorded result or its recorded error, and does not run again.",
                "入力と各ステップの出力を Postgres にチェックポイントする。復旧は関数を先頭から再実行し、出力が保存済みのステップは飛ばす。記録と名前の違うステップは拒否される。時刻はステップの中で読むので、その出力が保存される。ワークフロー ID が冪等性キー：もう一度開始すると、ハンドル・記録済みの結果・記録済みのエラーのどれかが返り、再実行はされない。",
            ),
            "https://docs.dbos.dev/explanations/how-workflows-work",
        ),
        Engine::Plain => (
            l.t(
                "The same function in an ordinary process: its progress is in memory only; a crash loses the run, and nobody resumes it.",
                "同じ関数を普通のプロセスで動かす。進み具合はメモリにしかなく、クラッシュで実行は失われ、誰も再開しない。",
            ),
            "",
        ),
    }
}

/// A key mode.
pub fn key(l: Lang, k: KeyMode) -> &'static str {
    match k {
        KeyMode::Derived => l.t(
            "derived from the run and the step",
            "実行とステップから導出",
        ),
        KeyMode::None => l.t("no key", "キーなし"),
        KeyMode::Random => l.t("random, minted in the step", "ステップ内でランダムに生成"),
    }
}

/// A clock mode.
pub fn clock(l: Lang, c: ClockMode) -> &'static str {
    match c {
        ClockMode::Engine => l.t("through the engine", "エンジン経由"),
        ClockMode::Direct => l.t("read directly", "直接読む"),
    }
}

/// A workflow.
pub fn flow(l: Lang, f: FlowKind) -> &'static str {
    match f {
        FlowKind::Order => l.t("Place an order", "注文する"),
        FlowKind::Trip => l.t("Book a trip (saga)", "旅行を予約する（サガ）"),
    }
}

/// What a step does, in words (its id is the code's).
pub fn step(l: Lang, s: StepName) -> &'static str {
    match s {
        StepName::Reserve => l.t("reserve the item", "在庫を確保"),
        StepName::Charge => l.t("charge the card", "カードに課金"),
        StepName::Clock => l.t("read the time", "時刻を読む"),
        StepName::ShipExpress => l.t("ship today", "本日発送"),
        StepName::ShipStandard => l.t("ship tomorrow", "翌日発送"),
        StepName::Receipt => l.t("send the receipt", "領収書を送る"),
        StepName::BookFlight => l.t("book the flight", "航空券を予約"),
        StepName::ReserveHotel => l.t("reserve the hotel", "ホテルを予約"),
        StepName::CancelFlight => l.t("cancel the flight", "航空券を取消"),
        StepName::Refund => l.t("refund the card", "カードに返金"),
    }
}

/// A fault.
pub fn fault(l: Lang, f: FaultKind) -> &'static str {
    match f {
        FaultKind::CrashBefore => l.t(
            "crash before the step's effect",
            "ステップの副作用の前にクラッシュ",
        ),
        FaultKind::CrashAfterEffect => l.t(
            "crash after the effect, before the result is journaled",
            "副作用の後、結果の記録前にクラッシュ",
        ),
        FaultKind::CrashAfterJournal => l.t(
            "crash after the result is journaled",
            "結果の記録後にクラッシュ",
        ),
        FaultKind::ReplyLost => l.t(
            "the step's reply is lost (retried after the timeout)",
            "ステップの応答が消える（タイムアウト後にリトライ）",
        ),
        FaultKind::FailOnce => l.t("fails once (retried)", "一度失敗する（リトライ）"),
        FaultKind::FailPermanent => l.t("fails permanently", "恒久的に失敗する"),
    }
}

/// Temporal's reuse policy, by its name.
pub fn reuse(p: ReusePolicy) -> &'static str {
    match p {
        ReusePolicy::AllowDuplicate => "AllowDuplicate",
        ReusePolicy::AllowDuplicateFailedOnly => "AllowDuplicateFailedOnly",
        ReusePolicy::RejectDuplicate => "RejectDuplicate",
    }
}

/// Temporal's conflict policy, by its name.
pub fn conflict(p: ConflictPolicy) -> &'static str {
    match p {
        ConflictPolicy::Fail => "Fail",
        ConflictPolicy::UseExisting => "UseExisting",
        ConflictPolicy::TerminateExisting => "TerminateExisting",
    }
}

/// Which request id Temporal's later starts carry.
pub fn request_id(l: Lang, r: RequestId) -> &'static str {
    match r {
        RequestId::New => l.t(
            "a new call, with a new request id",
            "新しい呼び出し（新しい request id）",
        ),
        RequestId::Same => l.t(
            "the SDK retrying the first call, with its request id",
            "SDK による最初の呼び出しの再送（同じ request id）",
        ),
    }
}

/// How the client starts order-42 under Restate.
pub fn restate_target(l: Lang, t: RestateTarget) -> &'static str {
    match t {
        RestateTarget::IdempotencyKey => l.t(
            "a handler, with Idempotency-Key: order-42",
            "ハンドラーを Idempotency-Key: order-42 付きで呼ぶ",
        ),
        RestateTarget::WorkflowRun => l.t(
            "a Workflow's run, keyed by order-42",
            "Workflow の run を order-42 をキーに呼ぶ",
        ),
    }
}

/// A pair of policies the engine refuses on every start, and why, in plain words.
pub fn policy_error(l: Lang, e: PolicyError) -> &'static str {
    match e {
        PolicyError::RejectDuplicateWithTerminateExisting => l.t(
            "Temporal refuses every start that sends the reuse policy RejectDuplicate together with the conflict policy TerminateExisting (InvalidArgument), before it looks at the workflow id, so nothing runs in this column. Pick another pair in the settings.",
            "Temporal は、Reuse Policy の RejectDuplicate と Conflict Policy の TerminateExisting を一緒に送る開始を、ワークフロー ID を見る前にすべて拒否する（InvalidArgument）。そのため、この列では何も実行されない。設定で別の組を選ぶ。",
        ),
    }
}

/// The message shown when a link, a saved run, an import or a setting gives columns (1-based)
/// a pair of policies the engine refuses.
pub fn policy_notice(l: Lang, columns: &[usize]) -> String {
    let list = columns
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let rule = policy_error(l, PolicyError::RejectDuplicateWithTerminateExisting);
    tr!(l, "Column {list}: {rule}", "列 {list}：{rule}")
}

/// The message shown when a link, a saved run or an import was written by an earlier version of
/// the page and its run may differ now.
pub fn older_model(l: Lang) -> &'static str {
    l.t(
        "This run was saved by an earlier version of this page, whose Temporal ran an activity lost with a crashed worker again as soon as a new worker came up, and a lost reply's 2 s later. Temporal's server does not see a crash: it waits for the attempt's Start-To-Close timeout and the retry's backoff, and so does this page now. The run opens with the same settings and actions, run as Temporal runs them, so its steps may differ from what was shared.",
        "この実行はこのページの以前の版で保存された。その版の Temporal は、クラッシュしたワーカーで失われたアクティビティを新しいワーカーが起動するとすぐ、消えた応答のものは 2秒後に、もう一度実行していた。Temporal のサーバーにクラッシュは見えない。試行の Start-To-Close タイムアウトとリトライのバックオフを待つので、このページも今はそうする。実行は同じ設定と操作で、Temporal の動き方で開くので、共有されたときとステップが違うことがある。",
    )
}

/// The worker.
pub fn worker(l: Lang, w: WorkerState) -> &'static str {
    match w {
        WorkerState::Idle => l.t("idle", "待機中"),
        WorkerState::Running => l.t("running", "実行中"),
        WorkerState::Replaying => l.t("replaying", "リプレイ中"),
        WorkerState::Crashed => l.t("crashed", "クラッシュ"),
    }
}

/// A run's status.
pub fn run_status(l: Lang, s: RunStatus) -> &'static str {
    match s {
        RunStatus::Running => l.t("running", "実行中"),
        RunStatus::Completed => l.t("completed", "完了"),
        RunStatus::Failed => l.t("failed", "失敗"),
        RunStatus::Terminated => l.t("terminated", "強制終了"),
        RunStatus::Lost => l.t("lost with the worker", "ワーカーと共に消失"),
        RunStatus::Blocked => l.t("blocked (non-determinism error)", "停止（非決定性エラー）"),
        RunStatus::Paused => l.t(
            "paused (journal mismatch, retries spent)",
            "一時停止（ジャーナル不一致、リトライを使い切った）",
        ),
    }
}

/// The engine's answer to a start.
pub fn reply(l: Lang, r: StartReply) -> String {
    match r {
        StartReply::Started(n) => tr!(l, "started run {n}", "実行 {n} を開始"),
        StartReply::Attached(n) => tr!(l, "joined the running run {n}", "実行中の実行 {n} に合流"),
        StartReply::SameResult(n) => tr!(
            l,
            "answered with run {n}'s stored result (its error, if it failed), without running it again",
            "実行 {n} の保存済みの結果（失敗していればそのエラー）を返し、再実行しなかった"
        ),
        StartReply::SameRequest(n) => tr!(
            l,
            "answered with run {n}, the run this request id started; nothing new runs",
            "この request id が開始した実行 {n} を返した。新しく実行されるものはない"
        ),
        StartReply::Rejected => l
            .t(
                "rejected: the workflow id is taken",
                "拒否：このワークフロー ID は使用済み",
            )
            .to_string(),
        StartReply::AlreadyInvoked(n) => tr!(
            l,
            "answered 409 “the workflow method was already invoked” (run {n}), with no result",
            "409「the workflow method was already invoked」を返した（実行 {n}）。結果は返さない"
        ),
        StartReply::Invalid(_) => l
            .t(
                "refused the start: RejectDuplicate with TerminateExisting is InvalidArgument",
                "開始を拒否：RejectDuplicate と TerminateExisting の組は InvalidArgument",
            )
            .to_string(),
        StartReply::Replaced { old, new } => tr!(
            l,
            "terminated run {old}, started run {new}",
            "実行 {old} を強制終了し、実行 {new} を開始"
        ),
    }
}

/// A side effect.
pub fn effect(l: Lang, e: EffectKind) -> &'static str {
    match e {
        EffectKind::Reserved => l.t("items reserved", "在庫確保"),
        EffectKind::Charged => l.t("charges", "課金"),
        EffectKind::ChargeReplayed => {
            l.t("charges replayed by the key", "キーでリプレイされた課金")
        }
        EffectKind::Declined => l.t("declined", "拒否された課金"),
        EffectKind::ShippedExpress => l.t("shipped today", "本日発送"),
        EffectKind::ShippedStandard => l.t("shipped tomorrow", "翌日発送"),
        EffectKind::Receipt => l.t("receipts", "領収書"),
        EffectKind::FlightBooked => l.t("flights booked", "航空券予約"),
        EffectKind::HotelReserved => l.t("hotels reserved", "ホテル予約"),
        EffectKind::FlightCancelled => l.t("flights cancelled", "航空券取消"),
        EffectKind::Refunded => l.t("refunds", "返金"),
        EffectKind::RefundReplayed => {
            l.t("refunds replayed by the key", "キーでリプレイされた返金")
        }
    }
}

/// An invariant.
pub fn invariant(l: Lang, i: Invariant) -> &'static str {
    match i {
        Invariant::OneChargePerOrder => {
            l.t("at most one charge per order", "1 注文の課金は最大 1回")
        }
        Invariant::RefundPerCharge => l.t(
            "no refund without a charge, one per charge",
            "課金のない返金はなく、課金 1回に返金 1回まで",
        ),
        Invariant::EndedKeptOrCompensated => l.t(
            "an ended run keeps or compensates every done step",
            "終わった実行は完了したステップをすべて保つか補償する",
        ),
        Invariant::ReplayNeverReruns => l.t(
            "replay never re-runs a journaled step",
            "リプレイは記録済みのステップを再実行しない",
        ),
    }
}

/// A broken invariant.
pub fn violation(l: Lang, v: &Violation) -> String {
    let (name, at, run, s) = (invariant(l, v.invariant), v.at, v.run, v.step.id());
    tr!(
        l,
        "✕ {name}: broken at step {at} by `{s}` (run {run})",
        "✕ {name}：ステップ {at} で `{s}` が破った（実行 {run}）"
    )
}

/// The break of an invariant the column's settings do not promise: said, without the ✕ of a
/// failure (the invariant's name is beside it).
pub fn unpromised_break(l: Lang, v: &Violation) -> String {
    let (at, run, s) = (v.at, v.run, v.step.id());
    tr!(
        l,
        "it broke at step {at} by `{s}` (run {run})",
        "ステップ {at} で `{s}` が破った（実行 {run}）"
    )
}

/// "Not promised here", beside an invariant the column's settings do not promise.
pub fn not_promised_here(l: Lang) -> &'static str {
    l.t("not promised here", "ここでは約束されない")
}

/// Why the column's settings do not promise an invariant, in a few words.
pub fn not_promised(l: Lang, why: NotPromised) -> &'static str {
    match why {
        NotPromised::NotDurable => l.t("no durable engine", "永続実行のエンジンがない"),
        NotPromised::NoKey => l.t(
            "the payment steps pass no key",
            "決済のステップがキーを渡さない",
        ),
        NotPromised::RandomKey => l.t("keys are random per attempt", "キーが試行ごとにランダム"),
        NotPromised::NewRun => l.t(
            "order-42 may start a second run, with keys of its own",
            "order-42 の 2回目の実行が始まりうる（キーはその実行のもの）",
        ),
        NotPromised::Terminated => l.t(
            "TerminateExisting may end a run half done",
            "TerminateExisting が実行を途中で終わらせうる",
        ),
        NotPromised::CompensationFails => {
            l.t("a compensation fails for good", "補償が恒久的に失敗する")
        }
        NotPromised::FailsAfterCharge => l.t(
            "a step after the charge fails for good, and the order has no compensation",
            "課金の後のステップが恒久的に失敗し、注文には補償がない",
        ),
        NotPromised::ReplayFails => l.t(
            "DBOS ends the order failed after the charge (the clock is read directly)",
            "DBOS が課金の後で注文を失敗で終える（時計を直接読むため）",
        ),
        NotPromised::BookingTwice => l.t(
            "`book_flight` has no key: a crash or a lost reply can book twice",
            "`book_flight` にキーがない：クラッシュや返答の消失で 2度予約しうる",
        ),
    }
}

/// When durable execution promises an invariant (the row's title).
pub fn promise(l: Lang, i: Invariant) -> &'static str {
    match i {
        Invariant::OneChargePerOrder => l.t(
            "Promised with a durable engine and derived keys, while order-42 runs once: a second run derives keys of its own.",
            "永続実行のエンジンと導出したキーがあり、order-42 の実行が 1回なら約束される。2回目の実行はその実行のキーを導出する。",
        ),
        Invariant::RefundPerCharge => l.t(
            "Promised with a durable engine and derived keys: a re-run refund carries the same key.",
            "永続実行のエンジンと導出したキーがあれば約束される。再実行された返金は同じキーを持つ。",
        ),
        Invariant::EndedKeptOrCompensated => l.t(
            "Promised with a durable engine and derived keys, when no run is terminated, no compensation (in the order, no step after the charge) fails for good, and no step without a key can run twice.",
            "永続実行のエンジンと導出したキーがあり、実行が打ち切られず、補償（注文では課金の後のステップ）が恒久的に失敗せず、キーのないステップが 2度実行されえなければ約束される。",
        ),
        Invariant::ReplayNeverReruns => l.t(
            "Always promised: the engine reads a journaled step's result back (a plain process has no journal to replay).",
            "常に約束される。エンジンは記録済みのステップの結果を読み戻す（普通のプロセスにはリプレイするジャーナルがない）。",
        ),
    }
}

/// What the engine did on a replay mismatch.
pub fn verdict(l: Lang, v: Verdict) -> &'static str {
    match v {
        Verdict::Blocked => l.t(
            "Temporal: non-determinism error — the workflow task fails on every retry; the run stays open and blocked until the code is fixed",
            "Temporal：非決定性エラー。ワークフロータスクはリトライのたびに失敗し、コードを直すまで実行は開いたまま止まる",
        ),
        Verdict::Paused => l.t(
            "Restate: journal mismatch — by default it follows the retry policy, so each attempt replays and hits it again; with the attempts spent, the invocation is paused",
            "Restate：ジャーナル不一致。既定ではリトライポリシーに従うので、試行のたびにリプレイして同じ不一致に当たる。試行を使い切ると、呼び出しは一時停止する",
        ),
        Verdict::Failed => l.t(
            "DBOS: the step is refused — its name differs from the one recorded; the workflow ends in error",
            "DBOS：ステップを拒否。記録された名前と違うため、ワークフローはエラーで終わる",
        ),
    }
}

/// One trace event, as the caption and the timeline say it.
pub fn event(l: Lang, e: &TraceEvent) -> String {
    match e.kind {
        TraceKind::StartRequested { again } => start_requested(l, again).into(),
        TraceKind::StartReplied(r) => {
            let r = reply(l, r);
            tr!(l, "The engine {r}.", "エンジンは{r}。")
        }
        TraceKind::StepStarted { pos, step: s } => step_started(l, pos, s),
        TraceKind::StepRerun { pos, step: s } => step_rerun(l, pos, s),
        TraceKind::StepRan {
            step: s, attempt, ..
        } => step_ran(l, s, attempt),
        TraceKind::StepFailed {
            step: s, permanent, ..
        } => step_failed(l, s, permanent),
        TraceKind::ReplyLost { step: s, .. } => reply_lost(l, s),
        TraceKind::Journaled { pos, step: s } => journaled(l, pos, s),
        TraceKind::ClockJournaled { pos, ms } => tr!(
            l,
            "Journal #{pos}: the time, {ms} ms, read through the engine and recorded.",
            "ジャーナル #{pos}：エンジン経由で時刻 {ms} ms を読み、記録。"
        ),
        TraceKind::ClockReadDirect { ms } => tr!(
            l,
            "The workflow reads the worker's clock directly: {ms} ms (not journaled).",
            "ワークフローがワーカーの時計を直接読む：{ms} ms（記録されない）。"
        ),
        TraceKind::Replayed { pos, step: s } => replayed(l, pos, s),
        TraceKind::Mismatch {
            pos,
            journaled,
            wanted,
            verdict: v,
        } => mismatch(l, pos, journaled, wanted, v),
        TraceKind::MismatchRetried {
            pos,
            journaled,
            wanted,
            attempt,
        } => mismatch_retried(l, pos, journaled, wanted, attempt),
        TraceKind::Crashed { by_learner } => crashed(l, by_learner).into(),
        TraceKind::Restarted { replays } => restarted(l, replays).into(),
        TraceKind::TimedOut {
            step: s,
            attempt,
            timeout_ms,
            retry_in_ms,
            ..
        } => timed_out(l, s, attempt, timeout_ms, retry_in_ms),
        TraceKind::ActivityPending {
            step: s,
            until_ms,
            timing_out,
            ..
        } => activity_pending(l, s, until_ms, timing_out),
        TraceKind::Purged { ended_ms } => purged(l, e.run, ended_ms),
        TraceKind::RunEnded { status } => {
            let (run, s) = (e.run, run_status(l, status));
            tr!(l, "Run {run} ends: {s}.", "実行 {run} が終わる：{s}。")
        }
    }
}

/// The client starting order-42: the first time, or again.
fn start_requested(l: Lang, again: bool) -> &'static str {
    if again {
        l.t(
            "The client timed out and starts workflow order-42 again, with the same id.",
            "クライアントはタイムアウトし、同じ ID でワークフロー order-42 をもう一度開始する。",
        )
    } else {
        l.t(
            "The client starts workflow order-42.",
            "クライアントがワークフロー order-42 を開始する。",
        )
    }
}

/// A step's start journaled at `pos`.
fn step_started(l: Lang, pos: usize, s: StepName) -> String {
    let (id, what) = (s.id(), step(l, s));
    tr!(
        l,
        "Journal #{pos}: `{id}` started ({what}).",
        "ジャーナル #{pos}：`{id}` 開始（{what}）。"
    )
}

/// A step started before a crash, without a result: it runs again.
fn step_rerun(l: Lang, pos: usize, s: StepName) -> String {
    let id = s.id();
    tr!(
        l,
        "Journal #{pos} `{id}` started but has no result: the engine starts the step again.",
        "ジャーナル #{pos} `{id}` は開始済みで結果がない。エンジンはステップをもう一度開始する。"
    )
}

/// A step running: its first execution, or a later one.
fn step_ran(l: Lang, s: StepName, attempt: u32) -> String {
    let (id, what) = (s.id(), step(l, s));
    if attempt > 1 {
        tr!(
            l,
            "`{id}` runs (execution {attempt}): {what}.",
            "`{id}` を実行（{attempt}回目）：{what}。"
        )
    } else {
        tr!(l, "`{id}` runs: {what}.", "`{id}` を実行：{what}。")
    }
}

/// A step failing: for good, or to be retried.
fn step_failed(l: Lang, s: StepName, permanent: bool) -> String {
    let id = s.id();
    if permanent {
        tr!(
            l,
            "`{id}` fails permanently.",
            "`{id}` は恒久的に失敗する。"
        )
    } else {
        tr!(
            l,
            "`{id}` fails; the engine retries it after its backoff.",
            "`{id}` は失敗し、エンジンはバックオフ後にリトライする。"
        )
    }
}

/// A step's reply lost on its way to the engine.
fn reply_lost(l: Lang, s: StepName) -> String {
    let id = s.id();
    tr!(
        l,
        "`{id}`'s reply is lost: the engine waits for the timeout and runs it again.",
        "`{id}` の応答が消えた。エンジンはタイムアウトを待ってもう一度実行する。"
    )
}

/// A step's result journaled at `pos`.
fn journaled(l: Lang, pos: usize, s: StepName) -> String {
    let id = s.id();
    tr!(
        l,
        "Journal #{pos}: `{id}`'s result recorded.",
        "ジャーナル #{pos}：`{id}` の結果を記録。"
    )
}

/// A journaled step read back on replay instead of running.
fn replayed(l: Lang, pos: usize, s: StepName) -> String {
    let id = s.id();
    tr!(
        l,
        "Replay: journal #{pos} `{id}` returns its recorded result; the step does not run.",
        "リプレイ：ジャーナル #{pos} `{id}` は記録済みの結果を返す。ステップは実行されない。"
    )
}

/// A replay asking for another step than the journal holds, and what the engine did.
fn mismatch(l: Lang, pos: usize, journaled: StepName, wanted: StepName, v: Verdict) -> String {
    let (j, w, v) = (journaled.id(), wanted.id(), verdict(l, v));
    tr!(
        l,
        "Replay: the code asks for `{w}` where journal #{pos} holds `{j}`. {v}.",
        "リプレイ：ジャーナル #{pos} は `{j}` なのに、コードは `{w}` を求める。{v}。"
    )
}

/// Restate's journal mismatch on one attempt, tried again.
fn mismatch_retried(
    l: Lang,
    pos: usize,
    journaled: StepName,
    wanted: StepName,
    attempt: u32,
) -> String {
    let (j, w, max) = (journaled.id(), wanted.id(), RESTATE_ATTEMPTS);
    tr!(
        l,
        "Replay: the code asks for `{w}` where journal #{pos} holds `{j}`. Restate: journal mismatch on attempt {attempt} of {max}; it follows the retry policy, so the invocation is tried again from the top after a backoff.",
        "リプレイ：ジャーナル #{pos} は `{j}` なのに、コードは `{w}` を求める。Restate：{max}回中 {attempt}回目の試行でジャーナル不一致。リトライポリシーに従い、バックオフの後に呼び出しを先頭からもう一度試す。"
    )
}

/// The worker crashing: by the learner's hand, or by a fault.
fn crashed(l: Lang, by_learner: bool) -> &'static str {
    if by_learner {
        l.t(
            "You crash the worker.",
            "あなたがワーカーをクラッシュさせた。",
        )
    } else {
        l.t("The worker crashes.", "ワーカーがクラッシュする。")
    }
}

/// A new worker coming up: replaying the workflow, or waiting for tasks.
fn restarted(l: Lang, replays: bool) -> &'static str {
    if replays {
        l.t(
            "A new worker comes up and runs the workflow function again from the top.",
            "新しいワーカーが起動し、ワークフロー関数を先頭から実行し直す。",
        )
    } else {
        l.t(
            "A new worker comes up and polls for tasks.",
            "新しいワーカーが起動し、タスクを待ち受ける。",
        )
    }
}

/// Temporal's Start-To-Close timeout firing on an attempt that reported nothing.
fn timed_out(l: Lang, s: StepName, attempt: u32, timeout_ms: u64, retry_in_ms: u64) -> String {
    let (id, next, timeout, retry) = (
        s.id(),
        attempt + 1,
        fmt_ms(l, timeout_ms),
        fmt_ms(l, retry_in_ms),
    );
    tr!(
        l,
        "Temporal: `{id}`'s attempt {attempt} reached its Start-To-Close timeout ({timeout}) with no result reported; the server never saw what happened on the worker. It schedules attempt {next} in {retry} (the retry policy's backoff).",
        "Temporal：`{id}` の {attempt}回目の試行は、結果の報告がないまま Start-To-Close タイムアウト（{timeout}）に達した。サーバーにはワーカーで何が起きたか見えない。{retry} 後（リトライポリシーのバックオフ）に {next}回目の試行を予定する。"
    )
}

/// Temporal holding an activity: until its timeout fires, or until its backoff ends.
fn activity_pending(l: Lang, s: StepName, until_ms: u64, timing_out: bool) -> String {
    let (id, until) = (s.id(), fmt_ms(l, until_ms));
    if timing_out {
        tr!(
            l,
            "Temporal does not know the worker crashed: it still counts `{id}` as running there, so nothing runs until its Start-To-Close timeout fires at {until}.",
            "Temporal はワーカーのクラッシュを知らない。`{id}` はまだそこで実行中と見なしているので、{until} に Start-To-Close タイムアウトが発火するまで何も実行されない。"
        )
    } else {
        tr!(
            l,
            "Temporal holds `{id}`'s next attempt until its backoff ends at {until}; then this worker takes it.",
            "Temporal は `{id}` の次の試行を、バックオフの終わる {until} まで保留する。その後このワーカーが引き受ける。"
        )
    }
}

/// Restate's cleaner purging a completed run after its retention.
fn purged(l: Lang, run: u32, ended_ms: u64) -> String {
    let (ended, kept) = (fmt_ms(l, ended_ms), fmt_ms(l, RESTATE_RETENTION_MS));
    tr!(
        l,
        "Restate: run {run} completed at {ended} and its stored result is kept {kept}; by now the cleaner has purged it, so order-42 is free again.",
        "Restate：実行 {run} は {ended} に完了し、保存された結果の保持期間は {kept}。今はもうクリーナーが削除しているので、order-42 は再び空いている。"
    )
}

/// The timeline lane an event sits in: 0 client, 1 engine, 2 worker, 3 services.
pub fn lane(kind: &TraceKind) -> usize {
    match kind {
        TraceKind::StartRequested { .. } => 0,
        TraceKind::StartReplied(_)
        | TraceKind::RunEnded { .. }
        | TraceKind::ClockJournaled { .. }
        | TraceKind::Journaled { .. }
        | TraceKind::StepStarted { .. }
        | TraceKind::TimedOut { .. }
        | TraceKind::Purged { .. } => 1,
        TraceKind::StepRan { .. } | TraceKind::StepFailed { .. } | TraceKind::ReplyLost { .. } => 3,
        _ => 2,
    }
}

/// The lanes' names.
pub fn lanes(l: Lang) -> [&'static str; 4] {
    [
        l.t("client", "クライアント"),
        l.t("engine (journal)", "エンジン（ジャーナル）"),
        l.t("worker", "ワーカー"),
        l.t("services", "サービス"),
    ]
}

/// An answer.
pub fn answer(l: Lang, a: Answer) -> String {
    match a {
        Answer::Rerun(RerunClass::Nothing) => l
            .t("nothing: no step runs again", "何も再実行されない")
            .into(),
        Answer::Rerun(RerunClass::OnlyUnfinished) => l
            .t("only the unfinished step", "終わっていなかったステップだけ")
            .into(),
        Answer::Rerun(RerunClass::FromTheTop) => l
            .t("every step, from the top", "先頭からすべてのステップ")
            .into(),
        Answer::Count(n) => tr!(l, "{n}×", "{n}回"),
        Answer::Replay(ReplayEnd::Completed) => l
            .t("it replays and completes", "リプレイして完了する")
            .into(),
        Answer::Replay(ReplayEnd::Stopped(Verdict::Blocked)) => l
            .t(
                "it stops with a non-determinism error, the run blocked",
                "非決定性エラーで止まり、実行は停止したまま",
            )
            .into(),
        Answer::Replay(ReplayEnd::Stopped(Verdict::Paused)) => l
            .t(
                "it retries the journal mismatch, then pauses",
                "ジャーナル不一致をリトライし、その後一時停止する",
            )
            .into(),
        Answer::Replay(ReplayEnd::Stopped(Verdict::Failed)) => l
            .t("the workflow ends in error", "ワークフローはエラーで終わる")
            .into(),
        Answer::End(EndState::AllKept) => l
            .t(
                "everything kept: the trip is booked",
                "すべて保たれる：旅行は予約済み",
            )
            .into(),
        Answer::End(EndState::AllUndone) => l
            .t(
                "everything undone: flight cancelled, card refunded",
                "すべて取り消される：航空券取消、返金済み",
            )
            .into(),
        Answer::End(EndState::HalfDone) => l
            .t(
                "half done: charged and booked, nothing undone",
                "中途半端：課金と予約が残り、何も取り消されない",
            )
            .into(),
        Answer::Reply(r) => reply(l, r),
        Answer::Again(ChargeAgain::NotRun) => l
            .t("the step does not run again", "ステップは再実行されない")
            .into(),
        Answer::Again(ChargeAgain::Replayed) => l
            .t(
                "it runs again; the service replays the first charge",
                "再実行され、サービスは最初の課金をリプレイする",
            )
            .into(),
        Answer::Again(ChargeAgain::Charged) => l
            .t(
                "it runs again and charges the card a second time",
                "再実行され、カードに 2回目の課金をする",
            )
            .into(),
    }
}

/// A wrong choice that no belief's model gives (offered only on a changed run, to make three).
pub const NO_MODEL: Pair = pair!(
    "a guess no model on this page gives",
    "このページのどのモデルも出さない推測"
);

/// A belief that predicts a wrong choice, as the card names it after the answer.
pub fn belief(b: Belief) -> Pair {
    match b {
        Belief::ExactlyOnceSteps => pair!(
            "durable execution runs each step exactly once: the effect and its journal entry are written together",
            "永続実行は各ステップをちょうど 1回実行する。副作用とジャーナルの記録は一緒に書かれる"
        ),
        Belief::RestartRunsAll => pair!(
            "after a crash the function runs again from the top, every step with it",
            "クラッシュの後、関数は先頭から実行し直され、すべてのステップがもう一度実行される"
        ),
        Belief::EngineKeysSteps => pair!(
            "the engine gives each step an idempotency key of its own",
            "エンジンが各ステップに専用の冪等性キーを付ける"
        ),
        Belief::ClockReplayed => pair!(
            "a replay hands the workflow the time it read the first time",
            "リプレイでは、ワークフローは最初に読んだ時刻をもう一度受け取る"
        ),
        Belief::MismatchPauses => pair!(
            "every engine meets a replay that takes another branch as Restate does: retries, then a pause",
            "どのエンジンも、別の分岐に進むリプレイを Restate と同じに扱う。リトライして一時停止する"
        ),
        Belief::MismatchFails => pair!(
            "every engine meets a replay that takes another branch as DBOS does: the workflow ends in error",
            "どのエンジンも、別の分岐に進むリプレイを DBOS と同じに扱う。ワークフローはエラーで終わる"
        ),
        Belief::IdRefused => pair!(
            "a workflow id, once used, refuses every later start",
            "一度使ったワークフロー ID は、後の開始をすべて拒否する"
        ),
        Belief::IdReturnsResult => pair!(
            "starting a used workflow id returns the first run's result, as an idempotency key would",
            "使用済みのワークフロー ID で開始すると、冪等性キーと同じく最初の実行の結果が返る"
        ),
        Belief::IdJoins => pair!(
            "a second start of a running workflow id joins that run, whatever the policy",
            "実行中のワークフロー ID をもう一度開始すると、ポリシーによらずその実行に合流する"
        ),
        Belief::PolicyDecidesRetries => pair!(
            "the conflict policy decides every start, the SDK's retry of the same call too",
            "Conflict Policy はすべての開始を決める。SDK による同じ呼び出しの再送も同じ"
        ),
        Belief::KeyForever => pair!(
            "an idempotency key protects for ever: a repeat always gets the stored response",
            "冪等性キーは永久に守る。繰り返しにはいつも保存済みの応答が返る"
        ),
        Belief::SagaSurvivesCrash => pair!(
            "the saga's code undoes what it did whatever happens: the compensation needs no engine",
            "サガのコードは何が起きても自分のしたことを取り消す。補償にエンジンは要らない"
        ),
        Belief::RetriedUntilDone => pair!(
            "a failed step is retried until it succeeds, so the trip ends booked",
            "失敗したステップは成功するまでリトライされるので、旅行は予約されて終わる"
        ),
        Belief::CrashedStepLost => pair!(
            "a step the crash cut off is lost with the worker: nothing runs it again",
            "クラッシュで中断したステップはワーカーとともに失われ、誰も再実行しない"
        ),
        Belief::AsInTheLesson => pair!(
            "the change makes no difference: the run ends as the lesson's did",
            "この変更では何も変わらない。実行はレッスンと同じに終わる"
        ),
    }
}

/// Why a question does not apply.
pub fn not_posed(l: Lang, n: NotPosed) -> &'static str {
    match n {
        NotPosed::NoSuchColumn(()) => l.t("This question is about a column the run no longer has.", "この問いは、この実行にはもうない列についてのものだ。"),
        NotPosed::NeverAsked => l.t(
            "With these settings the moment this question asks about never comes, so it is not asked. Reset the lesson to see it.",
            "この設定では、問いが尋ねる瞬間が来ないので問わない。レッスンをリセットすると見られる。",
        ),
    }
}

/// Why an action was not taken.
pub fn action_error(l: Lang, e: ActionError) -> String {
    match e {
        ActionError::NotApplicable => l
            .t(
                "Nothing to do: the worker is already in that state.",
                "何も起きない：ワーカーはすでにその状態だ。",
            )
            .into(),
        ActionError::TooMany { max } => tr!(
            l,
            "A run holds at most {max} actions.",
            "1回の実行で行える操作は最大 {max}回。"
        ),
        ActionError::TooLong { max } => tr!(
            l,
            "A run has at most {max} steps.",
            "1回の実行は最大 {max}ステップ。"
        ),
    }
}

/// A lesson's words: title, what happens, the question, why (with `{step}`), the takeaway.
pub struct LessonWords {
    /// Title.
    pub title: &'static str,
    /// What the lesson sets up.
    pub story: &'static str,
    /// The question.
    pub ask: &'static str,
    /// Why the answer is what it is; `{step}` is the step that shows it.
    pub why: &'static str,
    /// What to remember.
    pub takeaway: &'static str,
}

/// The words of lesson `id`.
#[expect(
    clippy::too_many_lines,
    reason = "a table of words: one arm per lesson"
)]
pub fn lesson(l: Lang, id: &str) -> LessonWords {
    let w = |title, story, ask, why, takeaway| LessonWords {
        title,
        story,
        ask,
        why,
        takeaway,
    };
    match id {
        "durable-resume" => w(
            l.t("The worker crashes mid-order", "注文の途中でワーカーが落ちる"),
            l.t(
                "The order workflow reserves the item, charges the card, reads the time and ships. The worker crashes right after shipping, before the engine journals the shipment. In one column Temporal keeps the journal; in the other the same function runs in a plain process.",
                "注文ワークフローは在庫を確保し、カードに課金し、時刻を読んで発送する。発送した直後、エンジンが発送を記録する前にワーカーがクラッシュする。一方の列では Temporal がジャーナルを持ち、もう一方の列では同じ関数を普通のプロセスで動かす。",
            ),
            l.t("After the restart, which steps run again in Temporal?", "再起動の後、Temporal ではどのステップがもう一度実行される？"),
            l.t(
                "Only the shipment, started and never journaled, runs again, at step {step}; it ships twice: at-least-once. Temporal never saw the crash: the new worker comes up with nothing to do, and the server retries the shipment when its Start-To-Close timeout fires (2 s after the attempt started, here) and the retry's 1 s backoff has passed. Then the new worker runs the function from the top, and every journaled step returns its recorded result (rows marked “replayed”), the shipment's too.",
                "もう一度実行されるのは、開始したが記録されなかった発送だけで、ステップ {step} で実行される。発送は 2回：at-least-once だ。Temporal にクラッシュは見えていない。新しいワーカーは起動してもすることがなく、サーバーは発送の Start-To-Close タイムアウト（ここでは試行開始の 2秒後）が発火し、リトライの 1秒のバックオフが過ぎてから発送をリトライする。その後、新しいワーカーが関数を先頭から実行し、記録済みのステップは発送も含めて記録された結果を返す（「リプレイ」の行）。",
            ),
            l.t(
                "Durable execution resumes where the journal ends, and re-runs the step in flight: every step must be safe to run twice.",
                "永続実行はジャーナルの終わりから再開し、途中だったステップを再実行する。どのステップも 2回実行されて平気でなければならない。",
            ),
        ),
        "durable-charge-key" => w(
            l.t("A crash between the charge and its journal entry", "課金とその記録のあいだのクラッシュ"),
            l.t(
                "The worker crashes after the payment service charged the card, before the charge was journaled. Three columns pass three keys: derived from the run and the step, none, and one minted at random inside the step.",
                "決済サービスが課金した後、その課金が記録される前にワーカーがクラッシュする。3つの列は 3種類のキーを渡す：実行とステップから導いたキー、キーなし、ステップ内でランダムに作るキー。",
            ),
            l.t("With no key, what comes of the charge step after the crash?", "キーなしでは、クラッシュの後に課金ステップはどうなる？"),
            l.t(
                "Temporal runs the charge step again when its Start-To-Close timeout fires. Without a key the naive payment service charges on every call: the re-run at step {step} is a second charge. A random key is new on every execution, so it charges twice too; the derived key is the same on the re-run and the service replays the first result.",
                "Temporal は Start-To-Close タイムアウトが発火すると課金ステップをもう一度実行する。キーがなければ素朴な決済サービスは呼ばれるたびに課金する。ステップ {step} の再実行は 2回目の課金だ。ランダムなキーは実行のたびに新しいので、やはり 2回課金される。導出したキーは再実行でも同じで、サービスは最初の結果をリプレイする。",
            ),
            l.t(
                "The engine gives at-least-once; the key derived from the workflow and the step turns it into exactly-once at the payment service.",
                "エンジンが与えるのは at-least-once。ワークフローとステップから導いたキーが、決済サービスでそれを exactly-once にする。",
            ),
        ),
        "durable-clock" => w(
            l.t("A workflow that reads the clock, replayed", "時計を読むワークフローのリプレイ"),
            l.t(
                "Orders read before 1,000 ms ship today, later ones tomorrow. Three columns read the worker's clock directly in workflow code; the fourth reads it through the engine. The worker crashes while sending the receipt; the replay runs later: with the new worker a second later under Restate and DBOS, and under Temporal once the receipt, retried at its Start-To-Close timeout, is done.",
                "1,000 ms より前に時刻を読んだ注文は本日発送、それ以降は翌日発送。3つの列はワークフローのコードでワーカーの時計を直接読み、4つ目はエンジン経由で読む。領収書の送信中にワーカーがクラッシュし、リプレイはその後に走る。Restate と DBOS では 1秒後の新しいワーカーで、Temporal では Start-To-Close タイムアウトでリトライされた領収書が済んでから。",
            ),
            l.t("What does Temporal do when it replays the first column?", "1列目をリプレイするとき、Temporal はどうする？"),
            l.t(
                "On replay the direct read gives a later time, so the code asks for `ship_standard` where the history holds `ship_express` (step {step}). Temporal stops with a non-determinism error; Restate retries the invocation, each attempt hitting the same journal mismatch, and pauses it when the attempts are spent; DBOS refuses the step. Read through the engine, the time is journaled and the replay takes the same branch.",
                "リプレイでは直接読んだ時刻が遅くなり、履歴が `ship_express` の位置でコードは `ship_standard` を求める（ステップ {step}）。Temporal は非決定性エラーで止まる。Restate は呼び出しをリトライし、試行のたびに同じジャーナル不一致に当たり、試行を使い切ると一時停止する。DBOS はステップを拒否する。エンジン経由で読めば時刻は記録され、リプレイは同じ分岐をたどる。",
            ),
            l.t(
                "Workflow code must be deterministic; steps need not be. Read time and randomness through the engine.",
                "ワークフローのコードは決定論的でなければならない。ステップはそうでなくてよい。時刻や乱数はエンジン経由で読む。",
            ),
        ),
        "durable-same-id" => w(
            l.t("The same workflow id, started again after the run closed", "同じワークフロー ID を、実行が閉じた後にもう一度開始する"),
            l.t(
                "The client did not hear back and starts order-42 again at 5 s, after the first run completed. Temporal with AllowDuplicate and with RejectDuplicate; Restate, where the client calls a handler with Idempotency-Key: order-42; DBOS.",
                "クライアントは応答を受け取れず、最初の実行が完了した後の 5秒に order-42 をもう一度開始する。Temporal（AllowDuplicate と RejectDuplicate）、Restate（クライアントはハンドラーを Idempotency-Key: order-42 付きで呼ぶ）、DBOS。",
            ),
            l.t("What does Temporal answer the second start under AllowDuplicate?", "AllowDuplicate のもとで、2回目の開始に Temporal は何と答える？"),
            l.t(
                "AllowDuplicate starts a second run at step {step}; its keys are derived from its own run, so the payment service sees a new key and charges again. RejectDuplicate refuses the start. Restate answers the idempotency key with the first call's stored response, and DBOS returns the first run's recorded result: the workflow id is the idempotency key. (Had the client called a Restate Workflow's run again, it would get 409 “already invoked”, not the result; it charges once either way.)",
                "AllowDuplicate はステップ {step} で 2つ目の実行を始める。そのキーは自分の実行から導かれるので、決済サービスには新しいキーに見え、もう一度課金する。RejectDuplicate は開始を拒否する。Restate は冪等性キーに対して最初の呼び出しの保存済みの応答を返し、DBOS は最初の実行の記録済みの結果を返す。ワークフロー ID が冪等性キーだ。（Restate の Workflow の run をもう一度呼んでいたら、結果ではなく 409「already invoked」が返る。どちらでも課金は 1回。）",
            ),
            l.t(
                "The workflow id plays the idempotency key only if the engine is told to refuse or reuse it: AllowDuplicate on a workflow that charges is a double charge.",
                "ワークフロー ID が冪等性キーの役を果たすのは、エンジンが拒否か再利用をする設定のときだけ。課金するワークフローに AllowDuplicate は二重課金だ。",
            ),
        ),
        "durable-same-id-running" => w(
            l.t("The same workflow id, started again while it runs", "同じワークフロー ID を、実行中にもう一度開始する"),
            l.t(
                "This time the client starts order-42 again at 550 ms, just after the card was charged. Temporal's conflict policies Fail, UseExisting and TerminateExisting, and Restate with Idempotency-Key: order-42.",
                "今度はクライアントが 550 ms、課金の直後に order-42 をもう一度開始する。Temporal の Conflict Policy（Fail、UseExisting、TerminateExisting）と、Idempotency-Key: order-42 付きの Restate。",
            ),
            l.t("What does Temporal answer the second start under TerminateExisting?", "TerminateExisting のもとで、2回目の開始に Temporal は何と答える？"),
            l.t(
                "TerminateExisting ends the first run after its charge (nothing compensates a terminated run) and starts a second one at step {step}, which charges again with its own key. Fail rejects the start; UseExisting and Restate's idempotency key join the running run (a Restate Workflow's run would answer 409 instead).",
                "TerminateExisting は課金を終えた最初の実行を終了させ（強制終了した実行は何も補償しない）、ステップ {step} で 2つ目の実行を始める。それは自分のキーでもう一度課金する。Fail は開始を拒否し、UseExisting と Restate の冪等性キーは実行中の実行に合流する（Restate の Workflow の run なら代わりに 409 を返す）。",
            ),
            l.t(
                "For a workflow that charges, a duplicate start should join the running run, not replace it.",
                "課金するワークフローでは、重複した開始は実行中の実行に合流すべきで、置き換えるべきではない。",
            ),
        ),
        "durable-request-id" => w(
            l.t("A start retried with its request id", "request id 付きで再送された開始"),
            l.t(
                "The client's call to start order-42 got no answer in time, and at 550 ms, just after the charge, the client tries again. In the first two columns the SDK retries the same call, so it carries the first call's request id, under the conflict policies TerminateExisting and Fail; in the last two the application calls ExecuteWorkflow again, and the SDK mints a new request id.",
                "order-42 を開始するクライアントの呼び出しは時間内に応答を得られず、課金直後の 550 ms にクライアントはもう一度試す。最初の 2列では SDK が同じ呼び出しを再送するので、最初の呼び出しの request id が付く（Conflict Policy は TerminateExisting と Fail）。後の 2列ではアプリケーションが ExecuteWorkflow をもう一度呼び、SDK は新しい request id を作る。",
            ),
            l.t("What does Temporal answer the SDK's retried call under TerminateExisting?", "TerminateExisting のもとで、SDK が再送した呼び出しに Temporal は何と答える？"),
            l.t(
                "Temporal first looks for the start's request id among the current run's: it is the call that started run 1, so the answer, at step {step}, is run 1, as the first call's was, before either policy is read. Nothing is terminated and the card is charged once; under Fail the retry is not refused either. A new call is another request: TerminateExisting ends run 1 after its charge and run 2 charges again, and Fail refuses it with “already started”.",
                "Temporal はまず、開始の request id を現在の実行のものと照らし合わせる。実行 1 を開始した呼び出しなので、どちらのポリシーを読むより先に、最初の呼び出しと同じく実行 1 を答える（ステップ {step}）。何も強制終了されず、課金は 1回。Fail でも再送は拒否されない。新しい呼び出しは別のリクエストだ。TerminateExisting は課金を終えた実行 1 を終了させて実行 2 がもう一度課金し、Fail は「already started」で拒否する。",
            ),
            l.t(
                "A request id is an idempotency key for the start call itself: retry a call with the id it was first sent with, and the engine answers it once, whatever the policy. Only a new call is a new request.",
                "request id は開始の呼び出しそのものの冪等性キーだ。呼び出しは最初に送ったときの id で再送すれば、ポリシーによらずエンジンは一度だけ答える。新しいリクエストになるのは新しい呼び出しだけ。",
            ),
        ),
        "durable-retention" => w(
            l.t("The same key, a day later", "同じキーを、1日後に"),
            l.t(
                "Under Restate, the client calls order-42 again 25 hours after its first call: in the first column a handler with Idempotency-Key: order-42, in the second the same key 5 seconds after the first call, in the third a Workflow's run keyed by order-42, 25 hours later.",
                "Restate で、クライアントは最初の呼び出しから 25時間後に order-42 をもう一度呼ぶ。1列目は Idempotency-Key: order-42 付きのハンドラー、2列目は同じキーを最初の呼び出しの 5秒後に、3列目は order-42 をキーにした Workflow の run を 25時間後に。",
            ),
            l.t("What does Restate answer when the same key comes back 25 hours later?", "同じキーが 25時間後に戻ってきたとき、Restate は何と答える？"),
            l.t(
                "Restate keeps a completed invocation's result 24 hours by default; then its cleaner purges it, and the key is free: the call at 25 h starts a new invocation, run 2, at step {step}, whose charge step derives a key of its own, and the payment service charges again. Five seconds later the stored response comes back instead; the Workflow's run, purged too, runs again rather than answering 409.",
                "Restate は完了した呼び出しの結果を既定で 24時間保持し、その後クリーナーが削除してキーは空く。25時間後の呼び出しはステップ {step} で新しい呼び出し（実行 2）を始め、その課金ステップは自分のキーを導き、決済サービスはもう一度課金する。5秒後なら代わりに保存済みの応答が返る。Workflow の run も削除されているので、409 を返さずにもう一度実行される。",
            ),
            l.t(
                "An idempotency key protects only while its record is kept: a retry after the retention is a new request. Keep keys longer than a client may retry; Stripe keeps its at least 24 hours.",
                "冪等性キーが守るのは、その記録が保持されている間だけ。保持期間の後の再送は新しいリクエストだ。クライアントが再送しうる期間より長くキーを保持する。Stripe はキーを少なくとも 24時間保持する。",
            ),
        ),
        "durable-saga" => w(
            l.t("A saga, a hotel that fails, and a crash", "サガ、失敗するホテル、そしてクラッシュ"),
            l.t(
                "Book a trip across three services: charge the card, book the flight, reserve the hotel. The hotel fails for good, so the saga cancels the flight and refunds the card, newest first, then fails the workflow with the hotel's error. A crash hits the refund in the Temporal columns (keyed and not); in the plain process the crash falls before the compensation.",
                "3つのサービスにまたがる旅行の予約：カードに課金、航空券を予約、ホテルを予約。ホテルは恒久的に失敗するので、サガは新しいものから順に航空券を取り消しカードに返金し、ホテルのエラーでワークフローを失敗させる。Temporal の列（キーありとなし）では返金中にクラッシュし、普通のプロセスでは補償の前にクラッシュする。",
            ),
            l.t("Without durable execution, what does the crash leave?", "永続実行なしでは、クラッシュの後に何が残る？"),
            l.t(
                "Nobody resumes the plain process: the card stays charged and the flight booked, and the invariant (not promised without durable execution) breaks at step {step}. With Temporal the compensation resumes after the crash; the keyed refund runs twice and refunds once, the unkeyed one refunds twice.",
                "普通のプロセスは誰も再開しない。カードは課金され、航空券は予約されたまま残り、不変条件（永続実行なしでは約束されない）はステップ {step} で破れる。Temporal では補償がクラッシュの後に再開する。キー付きの返金は 2回実行されても返金は 1回、キーなしは 2回返金する。",
            ),
            l.t(
                "Across services one transaction is not enough: a saga undoes in reverse order, and each compensation is itself a keyed, journaled step.",
                "サービスをまたぐと 1つのトランザクションでは足りない。サガは逆順に取り消し、補償自体もキー付きで記録されるステップだ。",
            ),
        ),
        _ => w("", "", "", "", ""),
    }
}

pub use super::VariationWords;

/// The words of lesson `id`'s variation question, if it has one
/// (`crate::sim::durable::TRANSFER_IDS`).
pub fn variation(id: &str) -> Option<VariationWords> {
    let w = |ask, why| Some(VariationWords { ask, why });
    match id {
        "durable-resume" => w(
            pair!(
                "What if the worker crashes just after the engine journals the shipment, instead of just before? After the restart, which steps run again in Temporal?",
                "ワーカーが、エンジンが発送を記録する直前ではなく直後にクラッシュしたら？再起動の後、Temporal ではどのステップがもう一度実行される？"
            ),
            pair!(
                "The shipment's result is in the history, so the replay returns it without running the step, and no step runs twice; the receipt, never started before the crash, runs for the first time. Only a step whose effect happened and whose result was not journaled runs again.",
                "発送の結果は履歴にあるので、リプレイはステップを実行せずにその結果を返し、2回実行されるステップはない。クラッシュ前に始まっていなかった領収書は、初めて実行される。もう一度実行されるのは、副作用が起きたのに結果が記録されなかったステップだけ。"
            ),
        ),
        "durable-charge-key" => w(
            pair!(
                "What if the worker crashes after the charge step starts but before it calls the payment service? With no key, how many times is the card charged?",
                "課金ステップが始まった後、決済サービスを呼ぶ前にワーカーがクラッシュしたら？キーなしでは、カードは何回課金される？"
            ),
            pair!(
                "The crash left no charge behind: Temporal runs the step again at its Start-To-Close timeout, and that run is the only call the payment service sees. Without a key a re-run is a second charge only when the first call reached the service.",
                "クラッシュは課金を残していない。Temporal は Start-To-Close タイムアウトでステップをもう一度実行し、決済サービスが受ける呼び出しはその 1回だけ。キーなしの再実行が 2回目の課金になるのは、最初の呼び出しがサービスに届いていたときだけ。"
            ),
        ),
        "durable-retention" => w(
            pair!(
                "What if the same key comes back 23 hours after the first call, instead of 25? What does Restate answer?",
                "同じキーが、25時間後ではなく最初の呼び出しの 23時間後に戻ってきたら？Restate は何と答える？"
            ),
            pair!(
                "Restate keeps a completed invocation's result 24 hours by default: at 23 hours it is still kept, so the call gets the first call's response, and nothing runs or charges again. The key is free only once the cleaner has purged it.",
                "Restate は完了した呼び出しの結果を既定で 24時間保持する。23時間後ならまだ保持されているので、呼び出しは最初の呼び出しの応答を受け取り、何も実行も課金もやり直さない。キーが空くのは、クリーナーが削除した後だけ。"
            ),
        ),
        "durable-saga" => w(
            pair!(
                "What if the plain process does not crash? When the hotel fails, what does the saga leave without durable execution?",
                "普通のプロセスがクラッシュしなかったら？ホテルが失敗したとき、永続実行なしのサガは何を残す？"
            ),
            pair!(
                "The saga's own code cancels the flight and refunds the card when the hotel fails: that needs no engine. What durable execution adds is that a crash in the middle cannot stop the compensation halfway.",
                "ホテルが失敗すると、サガ自身のコードが航空券を取り消し、カードに返金する。そのためにエンジンは要らない。永続実行が加えるのは、途中のクラッシュで補償が半端に止まらないことだ。"
            ),
        ),
        _ => None,
    }
}

/// A won challenge's debrief: why the moves work, and the real failure it mirrors.
pub fn challenge_debrief(l: Lang, id: &str) -> (&'static str, &'static str) {
    match id {
        "durable-charge-twice" => (
            l.t(
                "The charge step passes no key, so the payment service cannot tell the engine's second run of the step from a new charge. A crash after the charge and before the engine recorded its result makes the engine run the step again, and the card is charged again.",
                "課金ステップはキーを渡さないので、決済サービスにはエンジンによるステップの再実行と新しい課金の区別がつかない。課金の後、エンジンが結果を記録する前のクラッシュで、エンジンはステップをもう一度実行し、カードはもう一度課金される。",
            ),
            l.t(
                "An activity or step that calls a payment API without an idempotency key: the engine retries it after a worker dies mid-call (at-least-once), and the customer pays twice.",
                "冪等性キーなしで決済 API を呼ぶアクティビティやステップ。呼び出し中にワーカーが落ちるとエンジンはそれをリトライし（at-least-once）、顧客は2回支払う。",
            ),
        ),
        "durable-random-once" => (
            l.t(
                "The crash came after the engine had started the charge step and before the step ran: the engine starts it again, and its one run mints the random key and charges once (the journal counts the step's runs: one). A crash after the charge would have charged twice: a key minted inside the step is new on every run of it.",
                "クラッシュは、エンジンが課金ステップを開始した後、ステップが実行される前だった。エンジンはステップをもう一度開始し、その1回の実行がランダムなキーを作って1回だけ課金する（ジャーナルの実行回数は1）。課金の後のクラッシュなら2回課金されていた。ステップ内で作るキーは、ステップを実行するたびに新しい。",
            ),
            l.t(
                "uuid4() called inside a retried step: it dedupes the HTTP client's own retries of one call, not the engine's run of the step again after a crash. Derive the key from the workflow and the step instead (Temporal suggests the Workflow Run Id with the Activity Id).",
                "リトライされるステップの中で呼ぶ uuid4()。1回の呼び出しに対する HTTP クライアント自身のリトライは重複排除できても、クラッシュ後にエンジンがステップを実行し直すことは防げない。キーはワークフローとステップから導く（Temporal は Workflow Run Id と Activity Id の組を勧めている）。",
            ),
        ),
        _ => ("", ""),
    }
}

/// A challenge's title and brief.
pub fn challenge(l: Lang, id: &str) -> (&'static str, &'static str) {
    match id {
        "durable-charge-twice" => (
            l.t("Charge twice using only crashes", "クラッシュだけで 2回課金させる"),
            l.t(
                "The charge step passes no key. Using only Crash worker (and Restart), make the payment service charge the order twice. At most 3 crashes.",
                "課金ステップはキーを渡さない。「ワーカーをクラッシュ」（と再起動）だけで、決済サービスにこの注文を 2回課金させる。クラッシュは最大 3回。",
            ),
        ),
        "durable-random-once" => (
            l.t("The one crash point where a random key still charges once", "ランダムなキーでも 1回だけ課金されるクラッシュの位置"),
            l.t(
                "The charge step mints a random key. Crash the worker once so that the engine has to start the charge step again, yet the card is charged once and the order completes.",
                "課金ステップはランダムなキーを作る。ワーカーを 1回だけクラッシュさせ、エンジンが課金ステップをもう一度開始しなければならないのに、課金は 1回で注文が完了するようにする。",
            ),
        ),
        _ => ("", ""),
    }
}

/// The page's "What this model leaves out": the deliberate simplifications, each one line (the
/// conformance suites hold an ignored case for each, naming it).
pub fn leaves_out(l: Lang) -> [&'static str; 8] {
    [
        l.t(
            "One client, one workflow id, one worker.",
            "クライアント・ワークフロー ID・ワーカーはそれぞれ 1つ。",
        ),
        l.t(
            "Temporal's worker keeps the default panic policy, BlockWorkflow: a non-determinism error blocks the run. FailWorkflow, which fails the run instead, is not a setting.",
            "Temporal のワーカーは既定のパニックポリシー BlockWorkflow のまま：非決定性エラーは実行を止める。代わりに実行を失敗させる FailWorkflow は設定にない。",
        ),
        l.t(
            "Restate gives up a journal mismatch after 3 attempts here; the server's default is 70 attempts with backoff up to a minute, then pause. The SDK's opt-in Pause and FailTerminally on mismatch are not settings.",
            "ここでは Restate はジャーナル不一致を 3回の試行であきらめる。サーバーの既定は最大 1分のバックオフで 70回試行し、その後一時停止する。不一致ですぐ一時停止する・失敗させる SDK のオプトイン（Pause、FailTerminally）は設定にない。",
        ),
        l.t(
            "The Restate client only calls and waits; a one-way send of the same workflow id would be answered “Previously accepted”.",
            "Restate のクライアントは呼んで待つだけ。同じワークフロー ID への一方向の send には「Previously accepted」が返る。",
        ),
        l.t(
            "Here a Restate key is free the moment its 24 hours end; Restate's cleaner purges at its next sweep, once an hour, so a call just after may still get the stored response. Temporal keeps a closed run for the namespace's retention; here Temporal's closed runs and DBOS's workflows are kept for good.",
            "ここでは Restate のキーは 24時間が終わった瞬間に空く。Restate のクリーナーは 1時間ごとの掃除で削除するので、直後の呼び出しにはまだ保存済みの応答が返ることがある。Temporal は閉じた実行を名前空間の保持期間だけ保持するが、ここでは Temporal の閉じた実行も DBOS のワークフローもずっと保持する。",
        ),
        l.t(
            "Temporal's activities have a Start-To-Close timeout only, and retry without end; Schedule-To-Close, Schedule-To-Start and heartbeat timeouts, and a retry policy's maximum attempts, are not settings.",
            "Temporal のアクティビティのタイムアウトは Start-To-Close だけで、リトライは終わらない。Schedule-To-Close・Schedule-To-Start・ハートビートのタイムアウトやリトライポリシーの最大試行回数は設定にない。",
        ),
        l.t(
            "Every engine retries a step that fails once, after 1 s, 2 s, …; a DBOS step retries only when declared with retries_allowed (off by default), and Restate's server backs off from 0.5 s.",
            "どのエンジンも一度失敗したステップを 1秒、2秒…の後にリトライする。DBOS のステップは retries_allowed を宣言したときだけリトライし（既定は無効）、Restate のサーバーのバックオフは 0.5秒から始まる。",
        ),
        l.t(
            "Recovery never gives up: DBOS stops recovering a workflow after max_recovery_attempts (100 by default) and marks it MAX_RECOVERY_ATTEMPTS_EXCEEDED.",
            "復旧はあきらめない。DBOS は max_recovery_attempts（既定 100）回を超えたワークフローの復旧をやめ、MAX_RECOVERY_ATTEMPTS_EXCEEDED とする。",
        ),
    ]
}
