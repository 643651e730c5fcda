//! The caption beside the sticky controls: one line that says what the step just did, in plain
//! words, and a strip with every service's balance and charges, so the narration and a double
//! charge stay in view while stepping, on a phone too.

use yew::prelude::*;

use crate::sim::{CheckOutcome, EventKind, Session, World};
use crate::ui::i18n::{tr, Lang};
use crate::ui::text::{self, Tone};

/// What an event means, for the events whose label alone does not say it.
fn plain(l: Lang, e: &EventKind) -> Option<&'static str> {
    use EventKind as E;
    Some(match e {
        E::StoreCheck { outcome, .. } => match outcome {
            CheckOutcome::Hit => l.t(
                "The key is stored, so the server sends the first answer back instead of charging.",
                "キーが保存済みなので、サーバーは課金せずに最初の答えを返す。",
            ),
            CheckOutcome::Miss => l.t(
                "No record of this key: the server goes on to charge.",
                "このキーの記録はない。サーバーは課金に進む。",
            ),
            CheckOutcome::Conflict => l.t(
                "A request with this key is still running: 409, try again later.",
                "このキーのリクエストがまだ処理中：409、後でもう一度。",
            ),
            CheckOutcome::Mismatch => l.t(
                "This key was used for a different request: refused.",
                "このキーは別のリクエストに使われた：拒否。",
            ),
            CheckOutcome::Expired => l.t(
                "The key's record has expired, so this looks like a new payment.",
                "キーの記録が期限切れなので、新しい支払いに見える。",
            ),
        },
        E::Charge { .. } | E::ProcessorCharge { .. } => {
            l.t("Money leaves the account.", "口座からお金が出ていく。")
        }
        E::Rollback { .. } => l.t(
            "The transaction is undone, its charge with it.",
            "トランザクションが取り消され、課金も消える。",
        ),
        E::ServerCrash { .. } => l.t(
            "The server dies mid-request: what it committed stays, the rest is gone.",
            "サーバーが処理の途中で落ちる。コミット済みのものは残り、残りは消える。",
        ),
        E::ResponseLost { .. } => l.t(
            "The work is done, but the client will never hear about it.",
            "処理は済んだが、クライアントはそれを知ることがない。",
        ),
        E::RequestLost { .. } => l.t(
            "The server never sees this request.",
            "サーバーはこのリクエストを見ることがない。",
        ),
        E::ClientTimeout { .. } => l.t(
            "No reply in time: the client cannot tell whether it was charged.",
            "時間内に応答がない。クライアントには課金されたか分からない。",
        ),
        E::ClientRetryScheduled { .. } => {
            l.t("The client will try again.", "クライアントはもう一度試す。")
        }
        E::RelayPublish { delivery, .. } if *delivery > 1 => l.t(
            "The relay sends an event it has sent before.",
            "リレーが、前にも送ったイベントをまた送る。",
        ),
        // A consumer without an inbox applies the event again: the second receipt.
        E::ConsumerDuplicate { applied: true, .. } => l.t(
            "The consumer keeps no inbox, so it acts on the same event again.",
            "コンシューマは受信箱を持たないので、同じイベントでもう一度動く。",
        ),
        E::ConsumerDuplicate { applied: false, .. } => l.t(
            "The consumer's inbox has this event already: ignored.",
            "コンシューマの受信箱にこのイベントがある：無視。",
        ),
        E::KeyExpired { .. } => l.t("The store forgets the key.", "ストアがキーを忘れる。"),
        _ => return None,
    })
}

/// The column the caption tells about: the timeline's, unless it did nothing at this step and
/// another column broke an invariant or did something.
fn told(s: &Session, tab: usize) -> Option<usize> {
    let at = s.position();
    let acted = |w: &World| w.steps_taken() == at && at > 0;
    let broke = |w: &World| w.violations().iter().any(|v| v.step == at);
    let worlds = s.worlds();
    worlds
        .iter()
        .position(broke)
        .or_else(|| worlds.get(tab).filter(|w| acted(w)).map(|_| tab))
        .or_else(|| worlds.iter().position(acted))
}

/// The caption line.
fn caption_line(l: Lang, s: &Session, tab: usize) -> Html {
    let at = s.position();
    let Some(i) = told(s, tab) else {
        let line = if at == 0 {
            l.t(
                "Step 0: nothing has happened yet.",
                "ステップ 0：まだ何も起きていない。",
            )
            .to_string()
        } else {
            tr!(
                l,
                "Step {at}: every service has finished.",
                "ステップ {at}：どのサービスも終わっている。"
            )
        };
        return html! { <p class="caption" data-testid="caption" aria-live="polite">{ line }</p> };
    };
    let w = &s.worlds()[i];
    let col = text::column_name(l, w.config());
    let events: Vec<(String, Tone)> = w
        .last_step_events()
        .map(|e| text::event_text(l, w, &e.kind))
        .collect();
    let label = events
        .iter()
        .map(|(t, _)| t.as_str())
        .collect::<Vec<_>>()
        .join(" · ");
    let bad = events.iter().any(|(_, t)| *t == Tone::Bad);
    let meaning = w.last_step_events().find_map(|e| plain(l, &e.kind));
    let broke = w
        .violations()
        .iter()
        .find(|v| v.step == at)
        .map(|v| text::violation_text(l, w, v));
    html! {
        <p class={classes!("caption", bad.then_some("bad"), broke.is_some().then_some("broke"))} data-testid="caption" aria-live="polite">
            <strong>{ tr!(l, "Step {at} · {col}: ", "ステップ {at}・{col}：") }</strong>{ label }
            if let Some(m) = meaning { { " — " }{ m } }
            if let Some(b) = broke { <span class="caption-broke">{ " ✕ " }{ b }</span> }
        </p>
    }
}

/// Every column's balance and charges at the cursor; a column whose invariant broke is marked.
fn strip(l: Lang, s: &Session) -> Html {
    let at = s.position();
    let cells = s.worlds().iter().map(|w| {
        let name = text::column_name(l, w.config());
        let n = w.ledger().len();
        let charges = if n == 1 { "charge" } else { "charges" };
        let changed = w.steps_taken() == at && w.last_step_events().any(|e| matches!(e.kind, EventKind::Charge { .. } | EventKind::ProcessorCharge { .. } | EventKind::Rollback { .. } | EventKind::Deposit { .. }));
        let failed = !w.violations().is_empty();
        html! {
            <li class={classes!(changed.then_some("changed"), failed.then_some("failed"))} data-service={w.config().service.id()}>
                <span class="strip-name">{ name }</span>
                <b class="strip-balance">{ super::panel::balance_html(l, w) }</b>
                <span class="strip-charges">{ tr!(l, "{n} {charges}", "課金 {n}") }{ if failed { " ✕" } else { "" } }</span>
            </li>
        }
    });
    html! { <ul class="balance-strip" data-testid="balance-strip" aria-label={l.t("Balances", "残高")}>{ for cells }</ul> }
}

/// The caption and the balance strip.
#[inline(never)]
pub fn caption(l: Lang, s: &Session, tab: usize) -> Html {
    html! { <div class="caption-bar">{ caption_line(l, s, tab) }{ strip(l, s) }</div> }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A redelivered event is told by what the consumer did with it: the naive consumer (no
    /// inbox) sent a second receipt, and its caption said the inbox had skipped the event.
    #[test]
    fn a_redelivery_is_told_by_what_the_consumer_did() {
        for l in [Lang::En, Lang::Ja] {
            let again = |applied| plain(l, &EventKind::ConsumerDuplicate { id: 1, applied });
            let (applied, skipped) = (again(true).unwrap(), again(false).unwrap());
            assert_ne!(applied, skipped);
            assert!(
                applied.contains(l.t("no inbox", "受信箱を持たない")),
                "{applied}"
            );
            assert!(skipped.contains(l.t("ignored", "無視")), "{skipped}");
        }
    }
}
