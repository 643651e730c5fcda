//! The run as text: `s=<base64url JSON>&k=<step>`, the query of share links and what this
//! browser keeps per route (`web::run_key`), so a reload or Back opens the same run at the same
//! step. This browser's copy also keeps the learner's answers to the lesson's questions
//! (`&a=<i>|skip&t=<i>` after the run: a reader of the run skips them, so a copy saved before
//! there were answers reads as it did, with none). Reading never panics; what cannot be used is
//! a [`LinkError`] the page explains, and answers that cannot be read are no answers.

use crate::sim::kafka::{
    from_json_versioned, to_json, KafkaJsonError, KafkaScenario, KAFKA_SCENARIO_VERSION,
};
use crate::ui::route::Route;
use crate::ui::share::{decode_query, encode_query, ShareError};
use crate::ui::web;

/// Why a link's (or the saved) run was not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// The link itself is damaged.
    Share(ShareError),
    /// Its scenario is not one this page reads.
    Json(KafkaJsonError),
}

/// The query for a scenario at a step.
pub fn to_query(s: &KafkaScenario, step: usize) -> String {
    encode_query(&to_json(s), step)
}

/// A run read from a link or from this browser: the scenario, the step, and whether an earlier
/// version of the page wrote it (its steps may differ from what its author saw).
pub type Opened = (KafkaScenario, usize, bool);

/// Reads a query into a scenario and a step.
pub fn from_query(query: &str) -> Result<Opened, LinkError> {
    let p = decode_query(query).map_err(LinkError::Share)?;
    let (s, version) = from_json_versioned(&p.json).map_err(LinkError::Json)?;
    Ok((s, p.step, version < KAFKA_SCENARIO_VERSION))
}

/// The run this browser keeps for `route`, if any.
pub fn load(route: &Route) -> Option<Result<Opened, LinkError>> {
    web::load(&web::run_key(&route.to_hash())).map(|q| from_query(&q))
}

/// Keeps the run for `route`, as [`to_saved`] wrote it.
pub fn save(route: &Route, query: &str) {
    web::save(&web::run_key(&route.to_hash()), query);
}

/// The learner's answers kept with a run (the lesson's and the variation question's).
pub use crate::sim::lesson::RunAnswers as Answers;
use crate::sim::lesson::{read_run_answers, run_answers_text};

/// The run as [`to_query`] writes it, with the answers after it (what this browser keeps).
pub fn to_saved(s: &KafkaScenario, step: usize, (answer, transfer): Answers) -> String {
    let mut q = to_query(s, step);
    let answers = run_answers_text((answer, transfer));
    if !answers.is_empty() {
        q.push('&');
        q.push_str(&answers);
    }
    q
}

/// The run of a saved query, without its answers: the link's part.
pub fn run_part(saved: &str) -> String {
    let run = saved
        .split('&')
        .filter(|p| !p.starts_with("a=") && !p.starts_with("t="));
    run.collect::<Vec<_>>().join("&")
}

/// The answers of a saved query; a part that cannot be read is no answer.
pub fn answers(saved: &str) -> Answers {
    read_run_answers(saved)
}

/// The answers this browser keeps for `route`, with the run `query` if one is given (a reload
/// reads the run from the address): none when it keeps another run, or none.
pub fn saved_answers(route: &Route, query: Option<&str>) -> Answers {
    match web::load(&web::run_key(&route.to_hash())) {
        Some(saved) if query.is_none_or(|q| run_part(&saved) == run_part(q)) => answers(&saved),
        _ => (None, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::kafka::lesson;

    /// The answers kept with a run read back as written, the run's part stays the link's, and a
    /// copy saved before there were answers reads with none.
    #[test]
    fn answers_ride_with_the_saved_run_and_old_copies_read_without() {
        let s = lesson("kafka-in-flight").unwrap().scenario;
        let link = to_query(&s, 7);
        for a in [(None, None), (Some(None), Some(1)), (Some(Some(2)), None)] {
            let saved = to_saved(&s, 7, a);
            assert_eq!(answers(&saved), a);
            assert_eq!(run_part(&saved), link);
            assert_eq!(from_query(&saved), Ok((s.clone(), 7, false)));
        }
        assert_eq!(
            to_saved(&s, 7, (None, None)),
            link,
            "no answers: the link's text"
        );
        assert_eq!(answers(&link), (None, None), "an old copy has none");
        assert_eq!(answers("s=x&a=&t=q"), (None, None));
    }
}
