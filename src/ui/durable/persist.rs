//! The page's state as text: `#/<route>?s=<base64url JSON>&k=<step>` links, this browser's
//! saved run (one per route, so a reload and Back bring each lesson back at its step), and the
//! learner's done and won marks in the progress the playground keeps; beside each saved run, the
//! learner's answers to its lesson's questions (a key of its own, `<prefix>.answers:<route>`, so a
//! run saved before there were answers reads as it did). Reading never panics: what cannot be used
//! is an `InputError` the page explains, and answers that cannot be read are no answers.

use crate::sim::durable::{
    differs_from_version_1, read_state, read_state_versioned, write_state, SavedState,
};
use crate::sim::limits::{InputError, MAX_URL_BYTES};
use crate::ui::share::{decode_query, encode_query, ShareError};
use crate::ui::web;

/// localStorage key prefix of the page's saved runs (`<prefix>:<route hash>`).
pub const SAVED_PREFIX: &str = "idempotency-playground.durable";

/// The share query for `s`: `s=<payload>&k=<step>`.
pub fn to_query(s: &SavedState) -> String {
    encode_query(&write_state(s), s.cursor)
}

/// Reads a share query; the step comes from `k=` when it reads, else from the payload.
pub fn from_query(query: &str) -> Result<SavedState, InputError> {
    from_query_versioned(query).map(|(s, _)| s)
}

/// Reads a share query, and whether its state was written by an earlier version of the page
/// whose run may differ now (`durable::differs_from_version_1`).
pub fn from_query_versioned(query: &str) -> Result<(SavedState, bool), InputError> {
    let p = decode_query(query).map_err(|e| match e {
        ShareError::LinkTooLong { bytes } => InputError::UrlTooLong {
            bytes,
            max: MAX_URL_BYTES,
        },
        ShareError::NotBase64 | ShareError::NotText | ShareError::Missing => {
            InputError::JsonInvalid {
                line: 0,
                column: 0,
                message: "the link's `s=` is not base64url text".into(),
            }
        }
    })?;
    let (mut s, older) = read_versioned(&p.json)?;
    if !p.step_unreadable && query.contains("k=") {
        s.cursor = p.step;
    }
    Ok((s, older))
}

/// Reads a state (a saved run, an import): the state, and whether it was written by an earlier
/// version of the page whose run may differ now.
pub fn read_versioned(text: &str) -> Result<(SavedState, bool), InputError> {
    let (s, version) = read_state_versioned(text)?;
    let older = version < 2 && differs_from_version_1(&s);
    Ok((s, older))
}

fn key(route_hash: &str) -> String {
    format!("{SAVED_PREFIX}:{route_hash}")
}

/// The run saved for `route_hash`, if any.
pub fn load(route_hash: &str) -> Option<Result<SavedState, InputError>> {
    web::load(&key(route_hash)).map(|t| read_state(&t))
}

/// The run saved for `route_hash`, if any, and whether it may run otherwise now.
pub fn load_versioned(route_hash: &str) -> Option<Result<(SavedState, bool), InputError>> {
    web::load(&key(route_hash)).map(|t| read_versioned(&t))
}

/// Saves the run for `route_hash`.
pub fn save(route_hash: &str, s: &SavedState) {
    web::save(&key(route_hash), &write_state(s));
}

/// The learner's answers kept with a run, as text ([`answers_text`]) and back ([`read_answers`]).
pub use crate::sim::lesson::{
    read_run_answers as read_answers, run_answers_text as answers_text, RunAnswers as Answers,
};

fn answers_key(route_hash: &str) -> String {
    format!("{SAVED_PREFIX}.answers:{route_hash}")
}

/// The answers saved with the run for `route_hash` (none before any were saved).
pub fn load_answers(route_hash: &str) -> Answers {
    web::load(&answers_key(route_hash)).map_or((None, None), |t| read_answers(&t))
}

/// Saves the answers kept with the run for `route_hash` (with [`save`], so they go together).
pub fn save_answers(route_hash: &str, answers: Answers) {
    web::save(&answers_key(route_hash), &answers_text(answers));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::durable::{lesson, Action};

    #[test]
    fn links_round_trip_and_bad_ones_are_errors() {
        let s = SavedState {
            columns: lesson("durable-saga").unwrap().columns,
            actions: vec![(2, Action::Crash)],
            cursor: 7,
        };
        assert_eq!(from_query(&to_query(&s)), Ok(s.clone()));
        assert!(matches!(
            from_query("s=***"),
            Err(InputError::JsonInvalid { .. })
        ));
        assert!(matches!(
            from_query("k=3"),
            Err(InputError::JsonInvalid { .. })
        ));
        let long = "s=".to_string() + &"A".repeat(MAX_URL_BYTES);
        assert!(matches!(
            from_query(&long),
            Err(InputError::UrlTooLong { .. })
        ));
        // A bad step keeps the run at the payload's step.
        let q = to_query(&s).replace("&k=7", "&k=x");
        assert_eq!(from_query(&q).map(|r| r.cursor), Ok(7));
        // A version-1 state whose Temporal column loses an activity says its run may differ;
        // one that cannot, and a state written now, do not.
        let v1 = r#"{"version":1,"columns":[{"faults":[{"step":"charge_card","kind":"crash-after-effect"}]}]}"#;
        assert_eq!(read_versioned(v1).map(|(_, older)| older), Ok(true));
        let plain = r#"{"version":1,"columns":[{"start_again_at_ms":550}]}"#;
        assert_eq!(read_versioned(plain).map(|(_, older)| older), Ok(false));
        let restate = r#"{"version":1,"columns":[{"engine":"restate","faults":[{"step":"charge_card","kind":"crash-after-effect"}]}]}"#;
        assert_eq!(read_versioned(restate).map(|(_, older)| older), Ok(false));
        let by_hand = r#"{"version":1,"columns":[{}],"actions":[{"at":6,"action":"crash"}]}"#;
        assert_eq!(read_versioned(by_hand).map(|(_, older)| older), Ok(true));
        let (now, _) = read_versioned(v1).unwrap();
        assert_eq!(
            read_versioned(&write_state(&now)).map(|(_, older)| older),
            Ok(false)
        );
    }

    /// The answers kept with a run read back as written; none, a skip, and text that cannot be
    /// read (another version's, damaged) are no answers, never a panic.
    #[test]
    fn answers_round_trip_and_unreadable_ones_are_none() {
        for a in [
            (None, None),
            (Some(None), None),
            (Some(Some(2)), None),
            (Some(Some(0)), Some(3)),
            (None, Some(1)),
        ] {
            assert_eq!(read_answers(&answers_text(a)), a);
        }
        assert_eq!(answers_text((None, None)), "");
        assert_eq!(read_answers("a=x&t=-1&zz=3"), (None, None));
        assert_eq!(read_answers("t=2&a=skip"), (Some(None), Some(2)));
    }
}
