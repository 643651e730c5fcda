//! The pages' words for the simulation's data, in both languages, one file per domain. The core
//! returns enums and numbers, never display text; everything it says reaches the learner through
//! a function here, so one thing is worded once and the playground, the lab and the tests read
//! the same words.
//!
//! - [`events`]: trace events (with their check outcomes, crash points, charge failures).
//! - [`results`]: payment results, record states, invariants and their violations.
//! - [`errors`]: input errors, lab errors, why a saved or linked lab was not restored.
//! - [`policies`]: services, event wiring, faults, and the production policies with the real
//!   system each imitates.
//! - [`teach`]: a question's values and why it no longer applies, a challenge's goal and moves.
//! - [`lab`]: the lab's steps, models, results and actions, and the English renderings of the
//!   article's Japanese comments.
//! - [`postgres`]: the SQL variants of the lab's "On a real database" view and their outcomes.
//! - [`kafka`]: the Kafka page's verdicts, reactions, inputs, steps, invariants, refusals,
//!   limits, and its lessons' and challenges' words.
//! - [`downstream`]: the card processor and the key store's failures (issue 13): their
//!   events, faults, settings and the policy each imitates.
//! - [`http`]: an attempt as the HTTP request and response it stands for, the problem details'
//!   words, and what the HTTP model leaves out (issue 26).
//! - [`properties`]: the property-check page's properties, verdicts, the inputs of a case, and
//!   its settings' errors.
//! - [`glossary`]: the glossary's terms, what each means and where it runs; [`recipes`]: the
//!   closing card's verified production recipes, computed from the core (issue 28).
//!
//! A test (`ja_punctuation.rs`) reads the Japanese half of every pair in this folder and fails on
//! ASCII punctuation in a Japanese sentence (「課金: 1」 for 「課金：1」), with its exceptions listed.
//!
//! Text with values in it is written with `tr!` (see `crate::ui::i18n`), which formats only the
//! language shown. The helpers below are not words but how keys and large numbers are shown.

pub mod challenges;
pub mod downstream;
pub mod durable;
pub mod errors;
pub mod events;
pub mod glossary;
pub mod http;
#[cfg(test)]
mod ja_punctuation;
pub mod kafka;
pub mod lab;
pub mod lessons;
pub mod policies;
pub mod postgres;
pub mod properties;
pub mod recipes;
pub mod results;
pub mod teach;
pub mod view;

pub use errors::{
    fork_refused, halt_text, input_error, input_kind, lab_error, number_field, restore_message,
};
pub use events::event_text;
pub use policies::{
    caching_name, column_name, emit_name, fault_name, fingerprint_name, mismatch_name,
    missing_key_name, payload_check_name, retry_name, scope_name, service_blurb, service_name,
};
pub use results::{
    account_balances, account_label, attempt_outcome, caller_text, client_outcome, invariant_name,
    record_state, replay_mark, result_text, violation_text,
};
pub use teach::move_refused;

use crate::sim::{KeyId, World};

/// Shortens a long key (a UUID) for tables and the timeline; the full key is in a tooltip.
pub fn short_key(key: &str) -> String {
    if key.chars().count() <= 14 {
        key.to_string()
    } else {
        let head: String = key.chars().take(8).collect();
        format!("{head}…")
    }
}

/// A key's text in a world, shortened.
pub fn key_label(world: &World, id: KeyId) -> String {
    world
        .key_text(id)
        // The empty key stands for a request sent without one (issue 13).
        .map(|k| {
            if k.is_empty() {
                "—".into()
            } else {
                short_key(&k)
            }
        })
        .unwrap_or_else(|| "?".into())
}

/// A lesson's variation question on the durable and Kafka pages: what it asks (never its
/// answer), and why the varied run ends as it does.
pub struct VariationWords {
    /// The question.
    pub ask: crate::ui::i18n::Pair,
    /// Why, after the answer.
    pub why: crate::ui::i18n::Pair,
}

/// A number with thousands separators, for reading (test hooks show plain integers instead).
pub fn grouped(n: u64) -> String {
    group_digits(&n.to_string())
}

/// An amount or a balance, grouped as the lessons write it (1,000; a debt as −50).
pub fn money(n: i64) -> String {
    let digits = grouped(n.unsigned_abs());
    if n < 0 {
        format!("−{digits}")
    } else {
        digits
    }
}

/// [`grouped`] for the lab's counts of interleavings, which outgrow 64 bits (a page of its
/// own: the playground and the sandbox do not link the formatting of 128-bit numbers).
pub fn grouped_wide(n: u128) -> String {
    group_digits(&n.to_string())
}

fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How an event is coloured (always paired with a text mark, never colour alone).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Ordinary progress.
    Plain,
    /// Something that went right and matters (a replay, a dedupe).
    Good,
    /// A fault or a violation.
    Bad,
}

/// Formats simulated milliseconds compactly: 250 ms, 3.0 s, 2.5 min, 25.0 h; in Japanese
/// 250 ms, 3.0秒, 2.5分, 25.0時間 (as the lessons' own text writes them).
pub fn fmt_ms(lang: crate::ui::i18n::Lang, ms: u64) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms < 120_000 {
        tenths(ms, 1_000, lang.t(" s", "秒"))
    } else if ms < 7_200_000 {
        tenths(ms, 60_000, lang.t(" min", "分"))
    } else {
        tenths(ms, 3_600_000, lang.t(" h", "時間"))
    }
}

/// A remark after text, in the language's parentheses: " (remark)" or "（remark）".
pub fn aside(lang: crate::ui::i18n::Lang, remark: &str) -> String {
    use crate::ui::i18n::tr;
    tr!(lang, " ({remark})", "（{remark}）")
}

/// When an idempotency record expires, seen from the world's current simulated time `now_ms`:
/// "in 24.0 h", or "expired 1.0 h ago" once `now_ms` has reached it (a record is expired from
/// its expiry time on).
pub fn expiry_text(lang: crate::ui::i18n::Lang, expires_at_ms: u64, now_ms: u64) -> String {
    use crate::ui::i18n::tr;
    // A no-break space keeps "24.0 h" together when a narrow table cell wraps.
    let span = |ms: u64| fmt_ms(lang, ms).replace(' ', "\u{a0}");
    match expires_at_ms.checked_sub(now_ms).filter(|left| *left > 0) {
        Some(left) => {
            let left = span(left);
            tr!(lang, "in {left}", "あと {left}")
        }
        None if now_ms == expires_at_ms => lang.t("expired just now", "たった今期限切れ").into(),
        None => {
            let ago = span(now_ms - expires_at_ms);
            tr!(lang, "expired {ago} ago", "期限切れ（{ago}前）")
        }
    }
}

/// `ms` in `unit`s (of `per` ms each), rounded to one decimal, half up.
/// `unit` carries its own space where the language writes one (" s"; Japanese ties 秒 to its
/// number).
fn tenths(ms: u64, per: u64, unit: &str) -> String {
    // In 64 bits: the remainder times ten stays below ten `per`s, whatever `ms` is.
    let tenth = (ms % per * 10 + per / 2) / per;
    format!("{}.{}{unit}", ms / per + tenth / 10, tenth % 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::i18n::Lang;

    /// Expiry is told relative to the world's time, so an expired record never reads "24.0 h".
    #[test]
    fn expiry_is_relative_to_the_current_time() {
        const H: u64 = 3_600_000;
        let text = |lang, at, now| expiry_text(lang, at, now).replace('\u{a0}', " ");
        assert_eq!(text(Lang::En, 24 * H, 0), "in 24.0 h");
        assert_eq!(text(Lang::En, 24 * H + 50, 100), "in 24.0 h");
        assert_eq!(text(Lang::En, 24 * H, 23 * H), "in 60.0 min");
        assert_eq!(text(Lang::En, 24 * H, 24 * H), "expired just now");
        assert_eq!(text(Lang::En, 24 * H, 25 * H), "expired 60.0 min ago");
        assert_eq!(text(Lang::En, 24 * H, 50 * H), "expired 26.0 h ago");
        assert_eq!(text(Lang::Ja, 24 * H, 0), "あと 24.0時間");
        assert_eq!(text(Lang::Ja, 24 * H, 50 * H), "期限切れ（26.0時間前）");
        // The number and its unit stay on one line when a narrow cell wraps.
        assert_eq!(expiry_text(Lang::En, 24 * H, 0), "in 24.0\u{a0}h");
    }

    /// Tenths round half up and carry into the whole number; the largest time does not overflow.
    #[test]
    fn times_round_to_tenths() {
        assert_eq!(fmt_ms(Lang::En, 1_049), "1.0 s");
        assert_eq!(fmt_ms(Lang::En, 1_050), "1.1 s");
        assert_eq!(fmt_ms(Lang::En, 59_950), "60.0 s");
        assert_eq!(fmt_ms(Lang::Ja, 150_000), "2.5分");
        assert_eq!(fmt_ms(Lang::En, u64::MAX), "5124095576030.4 h");
    }

    /// Grouping by thousands, in 64 and in 128 bits.
    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(
            grouped_wide(u128::from(u64::MAX) + 1),
            "18,446,744,073,709,551,616"
        );
    }
}
