//! The run as text: `s=<base64url JSON>&k=<step>`, the query of share links and what this
//! browser keeps per route (`web::run_key`), so a reload or Back opens the same run at the same
//! step. Reading never panics; what cannot be used is a [`LinkError`] the page explains.

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

/// Keeps the run for `route`, as [`to_query`] wrote it.
pub fn save(route: &Route, query: &str) {
    web::save(&web::run_key(&route.to_hash()), query);
}
