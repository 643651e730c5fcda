//! The last run, remembered in this browser so a reload (or a return to the same route) opens
//! where the learner was.

use crate::sim::json::{self, Got, JsonError, ObjectWriter};
use crate::sim::limits::MAX_JSON_BYTES;

/// Longest scenario JSON a saved run keeps: what the reader of a restored run accepts.
pub const MAX_SAVED_SCENARIO_BYTES: usize = MAX_JSON_BYTES;

/// The last run, kept in localStorage as
/// `{"route":"#/...","position":3,"scenario":"<the scenario's JSON>"}`.
#[derive(Debug, PartialEq, Eq)]
pub struct SavedRun {
    /// The route's hash, e.g. `#/sandbox`: a run is restored only on its own route.
    pub route: String,
    /// The step the learner was at.
    pub position: usize,
    /// The scenario as JSON.
    pub scenario: String,
}

impl SavedRun {
    /// The saved form.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        let mut o = ObjectWriter::new(&mut out);
        o.str("route", &self.route);
        o.u64("position", self.position as u64);
        o.str("scenario", &self.scenario);
        o.end();
        out
    }

    /// Reads a saved run; `None` for anything else. Other fields are ignored (another version of
    /// the page may add some); a doubled field is refused.
    pub fn from_json(text: &str) -> Option<SavedRun> {
        let read = || -> Result<SavedRun, JsonError> {
            let doc = json::parse(text)?;
            let mut f = Got::new(&doc, "the saved run").fields("")?;
            Ok(SavedRun {
                route: f.req("route")?.string()?,
                position: f.req("position")?.usize()?,
                scenario: f.req("scenario")?.string()?,
            })
        };
        read().ok()
    }

    /// Whether a run with this scenario JSON is kept: the scenario as the page writes it (an
    /// import's own text may be shorter: defaults left out, no spaces) must fit the reader.
    pub fn keeps(scenario_json: &str) -> bool {
        scenario_json.len() <= MAX_SAVED_SCENARIO_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::builtin;

    #[test]
    fn saved_run_round_trips_as_serde_json_wrote_it() {
        let scenario = builtin("double-charge").expect("built in").to_json();
        let saved = SavedRun {
            route: "#/scenario/double-charge".into(),
            position: 3,
            scenario: scenario.clone(),
        };
        let json = saved.to_json();
        // The bytes serde_json wrote for the same struct.
        let escaped = scenario.replace('"', "\\\"");
        assert_eq!(
            json,
            format!(
                r##"{{"route":"#/scenario/double-charge","position":3,"scenario":"{escaped}"}}"##
            )
        );
        assert_eq!(SavedRun::from_json(&json), Some(saved));
    }

    /// What the serde_json build made of other text: extra fields ignored (even doubled), a
    /// doubled field, a missing one or a wrong type refused.
    #[test]
    fn saved_run_reads_what_it_read_before() {
        let s = "\"x\"";
        let read = |text: String| SavedRun::from_json(&text).map(|r| (r.route, r.position));
        let some = Some(("r".to_string(), 1));
        for (text, want) in [
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s}}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"scenario":{s},"position":1,"route":"r"}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s},"extra":[1,{{}}]}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s},"extra":1,"extra":2}}"#),
                some.clone(),
            ),
            (
                format!(r#"{{"route":"r","route":"r","position":1,"scenario":{s}}}"#),
                None,
            ),
            (format!(r#"{{"position":1,"scenario":{s}}}"#), None),
            (format!(r#"{{"route":"r","scenario":{s}}}"#), None),
            (r#"{"route":"r","position":1}"#.to_string(), None),
            (
                format!(r#"{{"route":"r","position":-1,"scenario":{s}}}"#),
                None,
            ),
            (
                format!(r#"{{"route":"r","position":1.0,"scenario":{s}}}"#),
                None,
            ),
            (
                format!(r#"{{"route":null,"position":1,"scenario":{s}}}"#),
                None,
            ),
            (
                r#"{"route":"r","position":1,"scenario":null}"#.to_string(),
                None,
            ),
            (
                format!(r#"{{"route":"r","position":1,"scenario":{s}}} x"#),
                None,
            ),
            ("{}".to_string(), None),
            (String::new(), None),
        ] {
            assert_eq!(read(text.clone()), want, "{text}");
        }
        // A position past usize (32 bits in the browser) is refused, not truncated.
        let big = format!(r#"{{"route":"r","position":4294967296,"scenario":{s}}}"#);
        assert_eq!(read(big).is_some(), usize::BITS > 32);
    }
}
