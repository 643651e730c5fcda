//! The page's state as text: `#/<route>?s=<base64url JSON>&k=<step>` links, this browser's
//! saved run (one per route, so a reload and Back bring each lesson back at its step), and the
//! learner's done and won marks in the progress the playground keeps. Reading never panics: what
//! cannot be used is an `InputError` the page explains.

use crate::sim::durable::{read_state, write_state, SavedState};
use crate::sim::limits::{InputError, MAX_URL_BYTES};
use crate::ui::playground::teach::{Mark, Progress};
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
    let mut s = read_state(&p.json)?;
    if !p.step_unreadable && query.contains("k=") {
        s.cursor = p.step;
    }
    Ok(s)
}

fn key(route_hash: &str) -> String {
    format!("{SAVED_PREFIX}:{route_hash}")
}

/// The run saved for `route_hash`, if any.
pub fn load(route_hash: &str) -> Option<Result<SavedState, InputError>> {
    web::load(&key(route_hash)).map(|t| read_state(&t))
}

/// Saves the run for `route_hash`.
pub fn save(route_hash: &str, s: &SavedState) {
    web::save(&key(route_hash), &write_state(s));
}

/// Marks lesson or challenge `id` in the progress the lesson path shows.
pub fn mark(id: &str, mark: Mark) {
    let mut p = Progress::from_text(&web::load(web::PROGRESS_KEY).unwrap_or_default());
    if p.mark(id) != Some(Mark::Won) && p.mark(id) != Some(mark) {
        p.marks.insert(id.to_string(), mark);
        web::save(web::PROGRESS_KEY, &p.to_text());
    }
}

/// Whether `id` is marked.
pub fn marked(id: &str) -> Option<Mark> {
    Progress::from_text(&web::load(web::PROGRESS_KEY).unwrap_or_default()).mark(id)
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
    }
}
