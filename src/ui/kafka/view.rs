//! The page as view functions over [`KafkaUi`] (no component of their own: each would cost its
//! lifecycle code in the wasm). Every control hands an [`Action`] to the page's reducer.

use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::sim::kafka::{
    BatchStatus, Config, Halt, Input, InstanceState, Invariant, RelayKind, Wire, CHALLENGE_IDS,
    LESSON_IDS, NUM_BATCHES_TO_RETAIN,
};
use crate::sim::limits::{KAFKA_MAX_IN_FLIGHT, KAFKA_MAX_RETRIES, KAFKA_MIN_IN_FLIGHT};
use crate::ui::i18n::{tr, Lang};
use crate::ui::run::Controls;
use crate::ui::share::ShareError;
use crate::ui::text::kafka as words;
use crate::ui::web;

use super::persist::{self, LinkError};
use super::state::{Action, Answer, KafkaUi, Notice, Place};

/// How many of the latest steps the timeline lists.
const TIMELINE_ROWS: usize = 40;

/// The whole page.
pub fn page(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    html! {
        <div class="kafka" data-testid="kafka-page">
            { nav(l, ui) }
            { notice(l, ui, on) }
            { intro(l, ui, on) }
            { settings(l, ui, on) }
            { predict(l, ui, on) }
            <div class="run-bar">
                { controls(l, ui, on) }
                { caption(l, ui) }
            </div>
            { faults(l, ui, on) }
            <div class="kafka-grid">
                { producer(l, ui) }
                { network(l, ui) }
                { broker(l, ui) }
                { consumer(l, ui) }
            </div>
            { invariants(l, ui, on) }
            { timeline(l, ui, on) }
            { share(l, ui, on) }
            { leaves_out(l) }
        </div>
    }
}

/// "What this model leaves out": the simplifications, each also an ignored case in
/// tests/conformance/kafka.rs.
fn leaves_out(l: Lang) -> Html {
    html! {
        <details class="card leaves-out" data-testid="leaves-out">
            <summary><h3>{ l.t("What this model leaves out", "このモデルが省いているもの") }</h3></summary>
            <p class="muted">{ l.t(
                "The rules above follow Apache Kafka's own code and are checked against its unit tests (tests/conformance/kafka.rs). These are simplified on purpose:",
                "上の規則は Apache Kafka のコードに従い、その単体テストと照らし合わせている（tests/conformance/kafka.rs）。次のものは意図して簡略化している：") }</p>
            <ul>{ for words::LEAVES_OUT.iter().map(|(en, ja)| html! { <li>{ l.t(en, ja) }</li> }) }</ul>
        </details>
    }
}

fn nav(l: Lang, ui: &KafkaUi) -> Html {
    let item = |place: Place, label: String| {
        let active = ui.place == place;
        html! {
            <li><a href={place.route().to_hash()} class={classes!(active.then_some("active"))}
                   aria-current={active.then_some("page")}>{ label }</a></li>
        }
    };
    html! {
        <nav class="kafka-nav card" data-testid="kafka-nav" aria-label={l.t("Kafka lessons", "Kafka のレッスン")}>
            <ol>
                { for LESSON_IDS.iter().enumerate().map(|(i, id)| {
                    let title = words::lesson(id).map_or("", |w| l.t(w.title.0, w.title.1));
                    let n = i + 1;
                    item(Place::Lesson(id), tr!(l, "{n}. {title}", "{n}. {title}"))
                }) }
                { for CHALLENGE_IDS.iter().map(|id| {
                    let title = words::challenge(id).map_or("", |(t, _)| l.t(t.0, t.1));
                    item(Place::Challenge(id), tr!(l, "★ {title}", "★ {title}"))
                }) }
                { item(Place::Sandbox, l.t("Sandbox", "サンドボックス").into()) }
            </ol>
            <p class="muted"><a href="../">{ l.t("← The playground's lesson path", "← プレイグラウンドのレッスン一覧") }</a></p>
        </nav>
    }
}

fn share_error(l: Lang, e: &ShareError) -> String {
    match e {
        ShareError::LinkTooLong { bytes } => {
            let b = *bytes;
            tr!(
                l,
                "The link is {b} bytes long: too long.",
                "リンクが {b} バイトで長すぎる。"
            )
        }
        _ => l
            .t(
                "The link is damaged (not a run this page wrote).",
                "リンクが壊れている（このページが書いた実行ではない）。",
            )
            .into(),
    }
}

fn link_error(l: Lang, e: &LinkError) -> String {
    match e {
        LinkError::Share(e) => share_error(l, e),
        LinkError::Json(e) => words::json_error(l, e),
    }
}

fn notice(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let Some(n) = &ui.notice else {
        return html! {};
    };
    let (error, text) = match n {
        Notice::BadLink(e) => {
            let why = link_error(l, e);
            (
                true,
                tr!(
                    l,
                    "This link's run could not be opened, so the built-in run is shown. {why}",
                    "このリンクの実行は開けなかったので、組み込みの実行を表示する。{why}"
                ),
            )
        }
        Notice::BadSaved(e) => {
            let why = link_error(l, e);
            (true, tr!(l, "The run saved in this browser could not be restored, so the built-in run is shown. {why}", "このブラウザに保存された実行は復元できなかったので、組み込みの実行を表示する。{why}"))
        }
        Notice::OlderModel => (
            false,
            l.t(
                "This run was saved by an earlier version of this page, whose producer did not yet follow Kafka's own code in three ways: it renumbered batches still on their way after giving one up, it let a delayed request overtake later ones on the same connection, and it answered an older epoch as fenced. The run opens with the same settings and inputs, run as Kafka runs them, so its steps may differ from what was shared.",
                "この実行は以前の版のこのページで保存された。当時のプロデューサは 3 点で Kafka のコードに従っていなかった：1 つを諦めた後に途中のバッチを番号付けし直し、遅れたリクエストを同じ接続の後のリクエストに追い越させ、古いエポックをフェンスとして答えていた。同じ設定と入力のまま Kafka どおりに実行して開くので、共有されたときとステップが違うことがある。",
            )
            .into(),
        ),
        Notice::UnknownChallenge => (
            true,
            l.t(
                "There is no challenge with this name on this page, so the sandbox is shown. The challenges are listed above.",
                "このページにこの名前のチャレンジはないので、サンドボックスを表示する。チャレンジは上の一覧にある。",
            )
            .into(),
        ),
        Notice::Imported => (
            false,
            l.t(
                "Imported: the run starts at step 0.",
                "読み込んだ：実行はステップ 0 から。",
            )
            .into(),
        ),
        Notice::ImportFailed(e) => {
            let why = words::json_error(l, e);
            (
                true,
                tr!(
                    l,
                    "Not imported, nothing changed. {why}",
                    "読み込まなかった。何も変えていない。{why}"
                ),
            )
        }
        Notice::Limit(e) => {
            let why = words::limit(l, *e);
            (
                true,
                tr!(
                    l,
                    "Not added, nothing changed: {why}",
                    "追加しなかった。何も変えていない：{why}"
                ),
            )
        }
        Notice::StepLimit(Halt::StepLimit) => (
            true,
            l.t(
                "The run stopped at the step limit.",
                "実行はステップ上限で止まった。",
            )
            .into(),
        ),
        Notice::StepLimit(Halt::Congested { expired, written }) => (
            true,
            tr!(
                l,
                "The run stopped at the step limit with its backlog congested: batches gave up at their delivery timeout {expired} times for {written} events, and the relay published each one again at the back. Each waits behind the others longer than the delivery timeout (it counts from send(), queueing included), so most give up again: the backlog drains slowly, or never (a metastable failure). A longer delivery timeout, or fewer events at once, lets it drain.",
                "実行はステップ上限で止まった。滞留が詰まっている：{written} 件のイベントに対してバッチが配信タイムアウトで {expired} 回諦め、リレーがそのたびに列の最後へ送り直した。どのバッチも他の後ろで配信タイムアウト（send() から数え、待ち時間も含む）より長く待つので、ほとんどがまた諦める：滞留はゆっくりとしか掃けないか、まったく掃けない（メタステーブルな障害）。配信タイムアウトを長くするか、一度に書くイベントを減らせば掃ける。"
            ),
        ),
    };
    html! {
        <div class={classes!("notice", error.then_some("error"))} data-testid="notice" role="status">
            { text }{ " " }
            <button onclick={on.reform(|_| Action::Dismiss)}>{ l.t("Dismiss", "閉じる") }</button>
        </div>
    }
}

fn intro(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    match ui.place {
        Place::Lesson(id) => {
            let Some(w) = words::lesson(id) else {
                return html! {};
            };
            html! {
                <section class="intro card lesson" data-testid="intro">
                    <h2>{ l.t(w.title.0, w.title.1) }</h2>
                    <p>{ l.t(w.story.0, w.story.1) }</p>
                </section>
            }
        }
        Place::Challenge(id) => {
            let Some((title, goal)) = words::challenge(id) else {
                return html! {};
            };
            let won = ui.won();
            // At the run's last step with the goal not met, these settings and sends do not win.
            let ended = !won && ui.at_end();
            let solution = words::solution(id);
            let delay_note = !won && ui.place.goal().is_some_and(|g| g.delay_note(&ui.scenario));
            html! {
                <section class="intro card challenge" data-testid="challenge">
                    <h2>{ l.t(title.0, title.1) }</h2>
                    <p class="goal">{ l.t(goal.0, goal.1) }</p>
                    <p class={classes!("status", won.then_some("won"), ended.then_some("failed"))} data-testid="challenge-status" data-won={won.to_string()} data-ended={ended.to_string()}>
                        { if won {
                            l.t("★ Won at this step.", "★ このステップで達成。")
                        } else if ended {
                            l.t("Not won: the run is over and the goal is not met at its end. Change what you send or the settings, and run again.",
                                "未達成：実行は終わり、最後のステップで目標を満たしていない。送るものか設定を変えて、もう一度実行する。")
                        } else {
                            l.t("Not yet.", "まだ。")
                        } }
                    </p>
                    if delay_note {
                        <p class="kafka-refusal" data-testid="delay-note">{ l.t(
                            "A delay cannot reorder one producer's records: Kafka keeps a connection's requests in order (the broker handles one request of a connection at a time), so the later ones wait behind the slow one. Earlier versions of this page let them overtake; links made then open here but no longer win. Look for a request that fails while later ones succeed.",
                            "遅延では 1 つのプロデューサのレコードの順序は入れ替わらない：Kafka は接続ごとにリクエストの順序を保つ（ブローカーは 1 つの接続のリクエストを 1 件ずつ処理する）ので、後のリクエストは遅いものの後ろで待つ。以前の版のこのページでは追い越せたので、その頃のリンクは開けるがもう達成しない。後のリクエストが成功する間に失敗するリクエストを探そう。") }</p>
                    }
                    if ui.solution_shown {
                        <p class="muted">{ l.t(solution.0, solution.1) }</p>
                        if ui.before_solution.is_some() {
                            <button data-testid="restore-mine" onclick={on.reform(|_| Action::RestoreMine)}>{ l.t("Back to my run", "自分の実行に戻る") }</button>
                        }
                    } else {
                        <button data-testid="show-solution" onclick={on.reform(|_| Action::ShowSolution)}>{ l.t("Stuck? Show a solution (your run is kept)", "行き詰まったら：解答例を開く（自分の実行は残る）") }</button>
                    }
                </section>
            }
        }
        Place::Sandbox => html! {
            <section class="intro card" data-testid="intro">
                <h2>{ l.t("Sandbox: your own run", "サンドボックス：自分の実行") }</h2>
                <p>{ l.t(
                    "Choose the producer's settings, send events, lose or delay requests and acknowledgements, crash and restart the relay, wake the zombie, and watch the broker's log and window.",
                    "プロデューサの設定を選び、イベントを送り、リクエストや確認応答を失わせたり遅らせたりし、リレーを止めて再起動し、ゾンビを起こして、ブローカーのログとウィンドウを見る。") }</p>
            </section>
        },
    }
}

fn select_value(e: &Event) -> Option<String> {
    let t = e.target()?;
    if let Some(s) = t.dyn_ref::<web_sys::HtmlSelectElement>() {
        return Some(s.value());
    }
    None
}

/// The delivery timeouts offered (Kafka's default is 4 request timeouts: 120 s against 30 s;
/// here the request timeout is 60 ms). A scenario's own value is offered too.
const DELIVERY_TIMEOUTS: [u32; 4] = [120, 180, 240, 480];

fn settings(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let c = ui.scenario.config;
    let set = |f: fn(Config) -> Config| on.reform(move |_: Event| Action::Configure(f(c)));
    let number = |apply: fn(Config, u8) -> Config| {
        on.reform(move |e: Event| {
            let n = select_value(&e).and_then(|v| v.parse::<u8>().ok());
            Action::Configure(n.map_or(c, |n| apply(c, n)))
        })
    };
    let delivery = on.reform(move |e: Event| {
        let d = select_value(&e).and_then(|v| v.parse::<u32>().ok());
        Action::Configure(Config {
            delivery_timeout_ms: d,
            ..c
        })
    });
    let relay = on.reform(move |e: Event| {
        let r = match select_value(&e).as_deref() {
            Some("log") => RelayKind::Log,
            _ => RelayKind::Outbox,
        };
        Action::Configure(Config { relay: r, ..c })
    });
    let refusal = c.refusal().map(|r| words::refusal(l, r));
    html! {
        <section class="card kafka-settings" data-testid="settings" aria-labelledby="kafka-settings-h">
            <h3 id="kafka-settings-h">{ l.t("Producer settings (acks=all)", "プロデューサの設定（acks=all）") }</h3>
            <div class="kafka-fields">
                <label class="check"><input type="checkbox" data-testid="idempotence" checked={c.idempotence}
                    onchange={set(|c| Config { idempotence: !c.idempotence, ..c })} />
                    { "enable.idempotence" }</label>
                <label>{ "max.in.flight.requests.per.connection " }
                    <select data-testid="max-in-flight" onchange={number(|c, n| Config { max_in_flight: n, ..c })}>
                        { for (KAFKA_MIN_IN_FLIGHT..=KAFKA_MAX_IN_FLIGHT).map(|n| html! {
                            <option value={n.to_string()} selected={n == c.max_in_flight}>{ n }</option>
                        }) }
                    </select></label>
                <label>{ "retries " }
                    <select data-testid="retries" onchange={number(|c, n| Config { retries: n, ..c })}>
                        { for (0..=KAFKA_MAX_RETRIES).map(|n| html! {
                            <option value={n.to_string()} selected={n == c.retries}>{ n }</option>
                        }) }
                    </select></label>
                <label>{ "delivery.timeout.ms " }
                    <select data-testid="delivery-timeout" onchange={delivery}>
                        <option value="" selected={c.delivery_timeout_ms.is_none()}>{ l.t("none (retries only)", "なし（retries のみ）") }</option>
                        { for DELIVERY_TIMEOUTS.iter().chain(c.delivery_timeout_ms.filter(|d| !DELIVERY_TIMEOUTS.contains(d)).iter()).map(|&ms| html! {
                            <option value={ms.to_string()} selected={Some(ms) == c.delivery_timeout_ms}>{ tr!(l, "{ms} ms", "{ms} ms") }</option>
                        }) }
                    </select></label>
                <label class="check"><input type="checkbox" data-testid="transactional-id" checked={c.transactional_id}
                    onchange={set(|c| Config { transactional_id: !c.transactional_id, ..c })} />
                    { "transactional.id" }</label>
                <label>{ l.t("Relay ", "リレー ") }
                    <select data-testid="relay" onchange={relay}>
                        { for RelayKind::ALL.iter().map(|r| html! {
                            <option value={r.id()} selected={*r == c.relay}>{ words::relay(l, *r) }</option>
                        }) }
                    </select></label>
                <label class="check"><input type="checkbox" data-testid="inbox" checked={c.inbox}
                    onchange={set(|c| Config { inbox: !c.inbox, ..c })} />
                    { l.t("consumer inbox", "コンシューマの受信箱") }</label>
            </div>
            if let Some(r) = refusal {
                <p class="kafka-refusal" data-testid="refusal">{ r }</p>
            }
        </section>
    }
}

fn predict(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let Place::Lesson(id) = ui.place else {
        return html! {};
    };
    let Some(w) = words::lesson(id) else {
        return html! {};
    };
    let ask = l.t(w.ask.0, w.ask.1);
    let Some(p) = &ui.posed else {
        return html! {
            <div class="predict" data-testid="predict" data-state="not-applicable">
                <p class="ask"><strong>{ l.t("Predict: ", "予想：") }</strong>{ ask }</p>
                <p class="muted">{ l.t(
                    "With these settings and inputs the run never gets there, so the question does not apply. Change them back, or open the lesson again from the list.",
                    "この設定と入力では実行がそこまで行かないので、この問いは当てはまらない。元に戻すか、一覧からレッスンを開き直す。") }</p>
            </div>
        };
    };
    match ui.answer {
        Answer::Open => {
            let hint = if ui.at_question() {
                l.t(
                    "The run waits here for your answer.",
                    "実行はあなたの答えをここで待っている。",
                )
            } else {
                l.t(
                    "Step or run: the run stops just before the step that answers it.",
                    "ステップ実行か通し実行：答えが出る直前で止まる。",
                )
            };
            crate::ui::question::open_question(
                l,
                ask,
                p.choices.iter().map(|c| words::choice(l, *c).to_string()),
                on.reform(Action::Answer),
                on.reform(|_| Action::Skip),
                hint,
            )
        }
        answer => {
            let right = match answer {
                Answer::Picked(i) => Some(p.choices.get(i) == Some(&p.answer)),
                _ => None,
            };
            let state = match right {
                Some(true) => "right",
                Some(false) => "wrong",
                None => "skipped",
            };
            let shown = words::choice(l, p.answer);
            let verdict = match right {
                Some(true) => tr!(l, "Right: {shown}.", "正解：{shown}。"),
                Some(false) => {
                    let picked = match answer {
                        Answer::Picked(i) => p.choices.get(i).map(|c| words::choice(l, *c)),
                        _ => None,
                    }
                    .unwrap_or_default();
                    tr!(
                        l,
                        "Not quite: you said {picked}; the run gives {shown}.",
                        "はずれ：予想は「{picked}」、実行の答えは「{shown}」。"
                    )
                }
                None => tr!(l, "The answer: {shown}.", "答え：{shown}。"),
            };
            let shows = p.shows;
            let changed = ui.scenario != ui.place.builtin();
            html! {
                <div class="predict" data-testid="predict" data-state={state}>
                    <p class="ask"><strong>{ l.t("Predict: ", "予想：") }</strong>{ ask }</p>
                    <p class={classes!("verdict", state)} data-testid="verdict" role="status">{ verdict }</p>
                    if changed {
                        // The words explain the lesson as built; this run is another one.
                        <p class="why muted" data-testid="why-changed">{ l.t(
                            "You changed this lesson's settings or inputs, so its explanation, written for the run as built, is not shown: the answer above is this run's. Open the lesson again from the list to read it.",
                            "このレッスンの設定か入力を変えたので、組み込みの実行のために書いた説明は表示しない。上の答えはこの実行のもの。説明を読むには一覧からレッスンを開き直す。") }
                            { " " }<button class="linkish" data-testid="why-step" onclick={on.reform(move |_| Action::Goto(shows))}>
                            { tr!(l, "See step {shows}", "ステップ {shows} を見る") }</button></p>
                    } else {
                        <p class="why" data-testid="why">{ l.t(w.why.0, w.why.1) }{ " " }
                            <button class="linkish" data-testid="why-step" onclick={on.reform(move |_| Action::Goto(shows))}>
                                { tr!(l, "See step {shows}", "ステップ {shows} を見る") }</button></p>
                        <p class="takeaway">{ l.t(w.try_next.0, w.try_next.1) }</p>
                    }
                    <button class="again" data-testid="predict-again" onclick={on.reform(|_| Action::AskAgain)}>{ l.t("Ask me again", "もう一度問う") }</button>
                </div>
            }
        }
    }
}

fn controls(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let limit = (ui.max_step() < ui.records.len()).then(|| ui.max_step());
    html! {
        <Controls lang={l} position={ui.cursor()} total={ui.records.len()} playing={ui.playing}
                  speed_ms={ui.speed_ms} on={on.reform(Action::from)} {limit}
                  time_ms={Some(ui.sim().now_ms())} />
    }
}

fn caption(l: Lang, ui: &KafkaUi) -> Html {
    let text = match &ui.sim().last {
        Some(r) => {
            let (k, s) = (ui.cursor(), words::step(l, r));
            tr!(l, "Step {k}: {s}", "ステップ {k}：{s}")
        }
        None if ui.records.is_empty() => l
            .t(
                "Nothing to run yet: send events with the buttons below.",
                "まだ何もない：下のボタンでイベントを送る。",
            )
            .into(),
        None => l
            .t(
                "Step 0: press Step to begin.",
                "ステップ 0：「進む」で始める。",
            )
            .into(),
    };
    html! { <p class="caption" data-testid="caption" aria-live="polite">{ text }</p> }
}

fn faults(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let restarts = ui.place.goal().is_none_or(|g| g.allows_restarts());
    let add = |i: Input| on.reform(move |_| Action::Add(i));
    let delay = ui.delay_ms;
    let set_delay = on.reform(move |e: Event| {
        Action::SetDelay(
            select_value(&e)
                .and_then(|v| v.parse().ok())
                .unwrap_or(delay),
        )
    });
    let (lr, la, ld, lf) = ui.sim().armed();
    let armed = (lr + la + lf > 0 || ld > 0).then(|| {
        tr!(
            l,
            "Armed for what comes next: {lr} lost request(s), {la} lost ack(s), {ld} delay(s), {lf} refused request(s).",
            "次に備えて設定済み：リクエスト消失 {lr}、確認応答消失 {la}、遅延 {ld}、拒否 {lf}。"
        )
    });
    html! {
        <section class="card kafka-faults" data-testid="inputs" aria-labelledby="kafka-inputs-h">
            <h3 id="kafka-inputs-h">{ l.t("Send, and break things (at the current step)", "送る、壊す（今のステップで）") }</h3>
            <div class="controls">
                <button data-testid="send" onclick={add(Input::Send { count: 1 })}>{ l.t("Send 1 event", "イベントを 1 件送る") }</button>
                <button data-testid="send-5" onclick={add(Input::Send { count: 5 })}>{ l.t("Send 5", "5 件送る") }</button>
                <button data-testid="lose-request" onclick={add(Input::LoseNextRequest)}>{ l.t("Lose the next request", "次のリクエストを失う") }</button>
                <button data-testid="lose-ack" onclick={add(Input::LoseNextAck)}>{ l.t("Lose the next ack", "次の確認応答を失う") }</button>
                <button data-testid="expire" title={l.t("As when a producer is idle longer than producer.id.expiration.ms (a day by default)", "producer.id.expiration.ms（既定 1 日）より長く何も送ってこないプロデューサと同じ")} onclick={add(Input::ExpireProducers)}>{ l.t("The broker forgets its producers", "ブローカーがプロデューサを忘れる") }</button>
                <button data-testid="refuse" title={l.t("The broker answers NOT_ENOUGH_REPLICAS: a follower fell behind, acks=all cannot be met; nothing is appended", "ブローカーは NOT_ENOUGH_REPLICAS と答える：フォロワーが遅れ acks=all を満たせない。何も追記しない")} onclick={add(Input::RefuseNextRequest)}>{ l.t("Refuse the next request (not enough replicas)", "次のリクエストを拒否（レプリカ不足）") }</button>
                <span class="kafka-delay">
                    <button data-testid="delay" onclick={add(Input::DelayNextRequest { ms: delay })}>{ l.t("Delay the next request", "次のリクエストを遅らせる") }</button>
                    <select data-testid="delay-ms" aria-label={l.t("Delay in ms", "遅延（ms）")} onchange={set_delay}>
                        { for [20u32, 50, 100, 200, 500].iter().map(|ms| html! {
                            <option value={ms.to_string()} selected={*ms == delay}>{ tr!(l, "{ms} ms", "{ms} ms") }</option>
                        }) }
                    </select>
                </span>
                <button data-testid="crash" disabled={!restarts} onclick={add(Input::Crash)}>{ l.t("Crash the relay", "リレーを止める") }</button>
                <button data-testid="restart" disabled={!restarts} onclick={add(Input::Restart)}>{ l.t("Restart it", "再起動する") }</button>
                <button data-testid="wake-zombie" disabled={!restarts} onclick={add(Input::WakeZombie)}>{ l.t("Wake the zombie", "ゾンビを起こす") }</button>
            </div>
            if let Some(a) = armed { <p class="muted" data-testid="armed">{ a }</p> }
            if !restarts { <p class="muted">{ l.t("This challenge does not allow crashes or restarts.", "このチャレンジでは停止と再起動はできない。") }</p> }
        </section>
    }
}

fn dash(v: Option<u32>) -> String {
    v.map_or_else(|| "—".into(), |v| v.to_string())
}

fn producer(l: Lang, ui: &KafkaUi) -> Html {
    let sim = ui.sim();
    html! {
        <section class="card kafka-producer" data-testid="producer" aria-labelledby="kafka-producer-h">
            <h3 id="kafka-producer-h">{ l.t("Producer", "プロデューサ") }</h3>
            { for sim.instances.iter().enumerate().map(|(i, inst)| {
                let name = words::instance_name(i);
                let pid = dash(inst.pid);
                let epoch = inst.epoch;
                let state = words::instance_state(l, inst.state);
                let current = sim.current == Some(i);
                let head = tr!(l, "{name} · producer id {pid} · epoch {epoch} · {state}", "{name} · プロデューサID {pid} · エポック {epoch} · {state}");
                html! {
                    <div class={classes!("kafka-instance", (inst.state == InstanceState::Fenced).then_some("fenced"))}
                         data-testid="instance" data-state={format!("{:?}", inst.state).to_lowercase()}>
                        <p><strong>{ head }</strong>{ if current { l.t(" (the relay's)", "（リレーが使用中）") } else { "" } }</p>
                        <div class="tbl-wrap"><table>
                            <thead><tr>
                                <th>{ l.t("event", "イベント") }</th><th>{ "seq" }</th><th>{ l.t("epoch", "エポック") }</th>
                                <th>{ l.t("sends", "送信") }</th><th>{ l.t("state", "状態") }</th>
                            </tr></thead>
                            <tbody>
                            { for inst.batches.iter().rev().take(12).map(|b| html! {
                                <tr data-testid="batch" class={classes!(matches!(b.status, BatchStatus::InFlight).then_some("in-flight"))}>
                                    <td>{ words::event_name(b.event) }</td><td>{ dash(b.seq) }</td><td>{ dash(b.seq.map(|_| u32::from(b.epoch))) }</td>
                                    <td>{ b.attempts }</td><td>{ words::batch_status(l, b.status) }</td>
                                </tr>
                            }) }
                            </tbody>
                        </table></div>
                    </div>
                }
            }) }
        </section>
    }
}

fn network(l: Lang, ui: &KafkaUi) -> Html {
    let wire = ui.sim().wire();
    html! {
        <section class="card kafka-network" data-testid="network" aria-labelledby="kafka-network-h">
            <h3 id="kafka-network-h">{ l.t("Network", "ネットワーク") }</h3>
            if wire.is_empty() {
                <p class="muted">{ l.t("Nothing on the wire.", "通信中のものはない。") }</p>
            }
            <ul class="kafka-wire">
            { for wire.iter().map(|w| match *w {
                Wire::Request { at_ms, inst, event, seq, attempt } => {
                    let (p, e, s) = (words::instance_name(inst), words::event_name(event), dash(seq));
                    html! { <li data-testid="wire-request">{ tr!(l, "→ {p} {e} (seq {s}, send {attempt}) reaches the broker at t = {at_ms}", "→ {p} {e}（seq {s}、{attempt} 回目）t = {at_ms} にブローカーへ届く") }</li> }
                }
                Wire::Answer { at_ms, inst, event, verdict } => {
                    let (p, e, v) = (words::instance_name(inst), words::event_name(event), words::verdict(l, verdict));
                    html! { <li data-testid="wire-answer">{ tr!(l, "← to {p} about {e}: {v} (at t = {at_ms})", "← {p} へ {e} について：{v}（t = {at_ms}）") }</li> }
                }
            }) }
            </ul>
        </section>
    }
}

fn broker(l: Lang, ui: &KafkaUi) -> Html {
    let b = &ui.sim().broker;
    let txn = b.txn.map(|(pid, epoch)| {
        tr!(l, "Transaction coordinator: transactional.id → producer id {pid}, epoch {epoch}", "トランザクションコーディネーター：transactional.id → プロデューサID {pid}、エポック {epoch}")
    });
    let window = NUM_BATCHES_TO_RETAIN;
    html! {
        <section class="card kafka-broker" data-testid="broker" aria-labelledby="kafka-broker-h">
            <h3 id="kafka-broker-h">{ l.t("Broker: partition 0", "ブローカー：パーティション 0") }</h3>
            <div class="tbl-wrap"><table class="kafka-log">
                <thead><tr>
                    <th>{ l.t("offset", "オフセット") }</th><th>{ l.t("producer id", "プロデューサID") }</th>
                    <th>{ l.t("epoch", "エポック") }</th><th>{ "seq" }</th><th>{ l.t("event", "イベント") }</th>
                    <th>{ l.t("from", "送信元") }</th><th></th>
                </tr></thead>
                <tbody data-testid="partition-log">
                { for b.log.iter().map(|r| html! {
                    <tr data-offset={r.offset.to_string()} data-pid={dash(r.pid)} data-epoch={r.epoch.to_string()}
                        data-seq={dash(r.seq)} data-duplicate={r.duplicate.to_string()} data-event={r.event.to_string()}
                        class={classes!(r.duplicate.then_some("dup"))}>
                        <td>{ r.offset }</td><td>{ dash(r.pid) }</td><td>{ r.epoch }</td><td>{ dash(r.seq) }</td>
                        // The mark also beside the event: on a phone the last columns scroll away.
                        <td>{ words::event_name(r.event) }{ if r.duplicate { " ⚠" } else { "" } }</td><td>{ words::instance_name(r.writer) }</td>
                        <td>{ if r.duplicate { l.t("⚠ duplicate", "⚠ 重複") } else { "" } }</td>
                    </tr>
                }) }
                </tbody>
            </table></div>
            if b.log.is_empty() { <p class="muted">{ l.t("The log is empty.", "ログは空。") }</p> }
            <h4>{ tr!(l, "What it remembers per producer id: the last {window} batches", "プロデューサIDごとに覚えていること：直近 {window} バッチ") }</h4>
            <ul class="kafka-windows">
            { for b.producers.iter().map(|e| {
                let (pid, epoch) = (e.pid, e.epoch);
                html! {
                    <li data-testid="window" data-pid={pid.to_string()}>
                        { tr!(l, "producer id {pid}, epoch {epoch}: ", "プロデューサID {pid}、エポック {epoch}：") }
                        { for e.batches.iter().map(|m| {
                            let (seq, offset) = (m.seq, m.offset);
                            html! {
                                <span class="kafka-slot" title={tr!(l, "offset {offset}", "オフセット {offset}")}>{ tr!(l, "seq {seq}", "seq {seq}") }</span>
                            }
                        }) }
                    </li>
                }
            }) }
            </ul>
            if let Some(t) = txn { <p class="muted" data-testid="coordinator">{ t }</p> }
        </section>
    }
}

fn consumer(l: Lang, ui: &KafkaUi) -> Html {
    let c = &ui.sim().consumer;
    let r = &ui.sim().relay;
    let (written, published) = (r.written, r.published.iter().filter(|p| **p).count());
    let relay_line = match r.kind {
        RelayKind::Outbox => tr!(
            l,
            "Outbox: {written} event(s) written, {published} marked published.",
            "アウトボックス：{written} 件書き込み、{published} 件が公開済み。"
        ),
        RelayKind::Log => {
            let pos = r.committed;
            tr!(
                l,
                "Database log: {written} event(s); the relay's committed position is {pos}.",
                "データベースのログ：{written} 件。リレーのコミット位置は {pos}。"
            )
        }
    };
    let skipped = c.skipped;
    html! {
        <section class="card kafka-consumer" data-testid="consumer" aria-labelledby="kafka-consumer-h">
            <h3 id="kafka-consumer-h">{ l.t("Relay and consumer", "リレーとコンシューマ") }</h3>
            <p data-testid="relay-state">{ relay_line }</p>
            <p>{ if c.inbox { l.t("The consumer keeps an inbox of applied event ids.", "コンシューマは適用済みイベントIDの受信箱を持つ。") } else { l.t("The consumer has no inbox: it applies every record it reads.", "コンシューマに受信箱はない：読んだレコードをすべて適用する。") } }
               { if c.inbox { tr!(l, " Skipped: {skipped}.", " スキップ：{skipped} 件。") } else { String::new() } }</p>
            <ul class="kafka-applied">
            { for c.applied.iter().enumerate().filter(|(_, n)| **n > 0).map(|(e, n)| {
                let name = words::event_name(e as u32);
                html! {
                    <li data-testid="applied" data-event={e.to_string()} data-times={n.to_string()} class={classes!((*n > 1).then_some("bad"))}>
                        { tr!(l, "{name} ×{n}", "{name} ×{n}") }
                    </li>
                }
            }) }
            </ul>
        </section>
    }
}

fn invariant_id(i: Invariant) -> &'static str {
    match i {
        Invariant::NoDuplicateInSession => "no-duplicate-in-session",
        Invariant::SendOrder => "send-order",
        Invariant::NoFencedWrite => "no-fenced-write",
        Invariant::AppliedOnce => "applied-once",
    }
}

fn invariants(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    html! {
        <section class="card" data-testid="invariants" aria-labelledby="kafka-inv-h">
            <h3 id="kafka-inv-h">{ l.t("Invariants, checked after every step", "不変条件（毎ステップ検査）") }</h3>
            <ul class="kafka-invariants">
            { for Invariant::ALL.iter().map(|&i| {
                let broken = ui.sim().violations.broken_at(i);
                let promised = i.promised(&ui.scenario);
                let name = words::invariant(l, i);
                let (class, mark) = match (promised, broken.is_some()) {
                    (false, _) => ("na", "– "),
                    (true, true) => ("fail", "✕ "),
                    (true, false) => ("pass", "✓ "),
                };
                html! {
                    <li data-invariant={invariant_id(i)} data-state={if broken.is_some() { "broken" } else { "holds" }} data-promised={promised.to_string()}>
                        <span class={classes!("badge", class)}>{ mark }{ name }</span>
                        if !promised {
                            <span data-testid="not-promised">{ l.t(" — not promised with these settings", "：この設定では保証されない") }</span>
                        }
                        { match broken {
                            Some(k) => html! { <>{ if promised { " " } else { l.t(" ", "") } }<button class="linkish" onclick={on.reform(move |_| Action::Goto(k))}>
                                { if promised { tr!(l, "broken at step {k}", "ステップ {k} で破れた") } else { tr!(l, "(it happens at step {k})", "（ステップ {k} で起きる）") } }</button></> },
                            None => html! {},
                        } }
                        <span class="muted">{ " " }{ words::promise(l, i) }</span>
                    </li>
                }
            }) }
            </ul>
        </section>
    }
}

fn timeline(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let k = ui.cursor();
    let first = k.saturating_sub(TIMELINE_ROWS);
    html! {
        <section class="card kafka-timeline" data-testid="timeline" aria-labelledby="kafka-tl-h">
            <h3 id="kafka-tl-h">{ l.t("Timeline (up to the current step)", "タイムライン（今のステップまで）") }</h3>
            if first > 0 { <p class="muted">{ if first == 1 { l.t("… 1 earlier step", "… それ以前に 1 ステップ").to_string() } else { tr!(l, "… {first} earlier steps", "… それ以前に {first} ステップ") } }</p> }
            <ol start={(first + 1).to_string()}>
            { for ui.records[first..k.min(ui.records.len())].iter().enumerate().map(|(j, r)| {
                let n = first + j + 1;
                let t = r.at_ms;
                let text = words::step(l, r);
                html! {
                    <li class={classes!("tl-step", (n == k).then_some("current"))} data-step={n.to_string()}>
                        <button class="linkish" onclick={on.reform(move |_| Action::Goto(n))}>{ tr!(l, "t = {t}", "t = {t}") }</button>
                        { " " }{ text }
                    </li>
                }
            }) }
            </ol>
        </section>
    }
}

fn import_text() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("kafka-import"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
        .map(|t| t.value())
        .unwrap_or_default()
}

fn share(l: Lang, ui: &KafkaUi, on: &Callback<Action>) -> Html {
    let query = persist::to_query(&ui.scenario, ui.cursor());
    let link = format!("{}{}?{query}", web::page_base(), ui.place.route().to_hash());
    let json = crate::sim::kafka::to_json(&ui.scenario);
    let download = format!(
        "data:application/json;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(&json))
    );
    html! {
        <section class="card share" data-testid="share" aria-labelledby="kafka-share-h">
            <h3 id="kafka-share-h">{ l.t("Share, save, import", "共有・保存・読み込み") }</h3>
            <p class="muted">{ l.t("The link opens this run at this step. This browser also keeps it for a reload.", "このリンクはこの実行をこのステップで開く。再読み込みのため、このブラウザにも保存している。") }</p>
            <input class="kafka-link" readonly=true value={link} data-testid="share-link" aria-label={l.t("Share link", "共有リンク")} />
            <p><a href={download} download="kafka-scenario.json" data-testid="export">{ l.t("Download JSON", "JSONをダウンロード") }</a></p>
            <details>
                <summary>{ l.t("Import JSON", "JSONを読み込む") }</summary>
                <textarea id="kafka-import" data-testid="import-text" aria-label={l.t("Scenario JSON", "シナリオのJSON")} />
                <button data-testid="import" onclick={on.reform(|_| Action::Import(import_text()))}>{ l.t("Import", "読み込む") }</button>
            </details>
        </section>
    }
}
