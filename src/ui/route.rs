//! Hash routes: `#/scenario/<id>`, `#/sandbox`, `#/challenge/<id>`, `#/lab`,
//! `#/lab/challenge/<id>`, `#/lab/postgres`, `#/properties`, `#/durable`, `#/durable/challenge/<id>`, `#/kafka`, `#/kafka/challenge/<id>`. Hash routing keeps `dist/` working from
//! any static host and sub-path, with no server rewrite rules.
//!
//! The first page's glossary, `#/glossary` and `#/glossary/<id>`, is a path no other page draws:
//! it parses as [`Route::NotFound`], which every page hands to the first page, and the first
//! page reads it with [`Route::glossary`]. So only the first page's wasm carries it (a variant of
//! its own would add its arms to every page's, and the sandbox page has no bytes to spare).

/// Where the page is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// A built-in scenario by its stable id; `#/` opens `double-charge`.
    Scenario(String),
    /// The free-form sandbox.
    Sandbox,
    /// A playground challenge by its stable id.
    Challenge(String),
    /// The concurrency lab.
    Lab,
    /// A challenge of the concurrency lab by its stable id (drawn by the lab's page).
    LabChallenge(String),
    /// The lab's "On a real database": the services as SQL, measured on PostgreSQL (drawn by
    /// the lab's page).
    LabDatabase,
    /// The property checks (settings in the query: `#/properties?p=replay&svc=naive&n=256&seed=42`).
    Properties,
    /// The Kafka page's sandbox (`#/kafka`, drawn by `kafka/`).
    Kafka,
    /// A challenge of the Kafka page by its stable id (`#/kafka/challenge/<id>`).
    KafkaChallenge(String),
    /// The durable-execution page's free run (`#/durable`; its lessons are `Scenario`s).
    Durable,
    /// A durable-execution challenge by its stable id (`#/durable/challenge/<id>`).
    DurableChallenge(String),
    /// Anything else: shown as "not found" with a way home, never a panic.
    NotFound(String),
}

/// The scenario a first-time visitor sees: the lesson path's first lesson (1.1), so the page
/// a bare address opens is the start of the path its list shows (a test in
/// `text::lessons` holds the two together).
pub const HOME_SCENARIO: &str = "the-header";

impl Route {
    /// Parses `location.hash` (with or without the leading `#`). A share-link payload after `?`
    /// is ignored here and read by the playground.
    pub fn parse(hash: &str) -> Route {
        let h = hash.trim_start_matches('#');
        let path = h.split('?').next().unwrap_or("");
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match parts.as_slice() {
            [] => Route::Scenario(HOME_SCENARIO.to_string()),
            ["sandbox"] => Route::Sandbox,
            ["lab"] => Route::Lab,
            ["challenge", id] if id.len() <= 64 => Route::Challenge((*id).to_string()),
            ["lab", "postgres"] => Route::LabDatabase,
            ["lab", "challenge", id] if id.len() <= 64 => Route::LabChallenge((*id).to_string()),
            ["properties"] => Route::Properties,
            ["kafka"] => Route::Kafka,
            ["kafka", "challenge", id] if id.len() <= 64 => {
                Route::KafkaChallenge((*id).to_string())
            }
            ["durable"] => Route::Durable,
            ["durable", "challenge", id] if id.len() <= 64 => {
                Route::DurableChallenge((*id).to_string())
            }
            ["scenario", id] if id.len() <= 64 => Route::Scenario((*id).to_string()),
            _ => Route::NotFound(path.chars().take(80).collect()),
        }
    }

    /// The hash for this route, for links.
    pub fn to_hash(&self) -> String {
        match self {
            Route::Scenario(id) => format!("#/scenario/{id}"),
            Route::Sandbox => "#/sandbox".to_string(),
            Route::Lab => "#/lab".to_string(),
            Route::Challenge(id) => format!("#/challenge/{id}"),
            Route::LabChallenge(id) => format!("#/lab/challenge/{id}"),
            Route::LabDatabase => "#/lab/postgres".to_string(),
            Route::Properties => "#/properties".to_string(),
            Route::Kafka => "#/kafka".to_string(),
            Route::KafkaChallenge(id) => format!("#/kafka/challenge/{id}"),
            Route::Durable => "#/durable".to_string(),
            Route::DurableChallenge(id) => format!("#/durable/challenge/{id}"),
            Route::NotFound(_) => "#/".to_string(),
        }
    }

    /// The glossary's entry this route names (`#/glossary/<id>`; empty for `#/glossary`), if it is
    /// the glossary's.
    pub fn glossary(&self) -> Option<&str> {
        let Route::NotFound(path) = self else {
            return None;
        };
        match path.strip_prefix("/glossary")? {
            "" => Some(""),
            rest => rest.strip_prefix('/').filter(|id| !id.contains('/')),
        }
    }

    /// The share payload after `?` in the hash, if any.
    pub fn query(hash: &str) -> Option<&str> {
        hash.split_once('?').map(|(_, q)| q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_routes() {
        let cases = [
            ("", Route::Scenario(HOME_SCENARIO.into())),
            ("#/", Route::Scenario(HOME_SCENARIO.into())),
            ("#/sandbox", Route::Sandbox),
            ("#/lab", Route::Lab),
            ("#/properties?p=replay&n=256", Route::Properties),
            ("#/lab/postgres", Route::LabDatabase),
            (
                "#/scenario/double-charge",
                Route::Scenario("double-charge".into()),
            ),
            ("#/scenario/outbox?s=abc", Route::Scenario("outbox".into())),
            (
                "#/nowhere/at/all",
                Route::NotFound("/nowhere/at/all".into()),
            ),
        ];
        for (hash, want) in cases {
            assert_eq!(Route::parse(hash), want, "{hash}");
        }
        assert_eq!(Route::query("#/sandbox?s=xyz"), Some("s=xyz"));
        assert_eq!(Route::query("#/sandbox"), None);
        assert_eq!(Route::parse(&Route::Lab.to_hash()), Route::Lab);
        for r in [
            Route::Challenge("triple-charge".into()),
            Route::LabChallenge("toctou-all-three".into()),
        ] {
            assert_eq!(Route::parse(&format!("{}?s=x", r.to_hash())), r);
        }
        assert_eq!(
            Route::parse(&Route::Properties.to_hash()),
            Route::Properties
        );
        assert_eq!(Route::parse("#/kafka?s=x"), Route::Kafka);
        let kc = Route::KafkaChallenge("kafka-reorder".into());
        assert_eq!(Route::parse(&kc.to_hash()), kc);
        // The first page's glossary: a path of its own, read from "not found".
        let glossary = |h: &str| Route::parse(h).glossary().map(str::to_string);
        assert_eq!(glossary("#/glossary").as_deref(), Some(""));
        assert_eq!(glossary("#/glossary/").as_deref(), Some(""));
        assert_eq!(glossary("#/glossary/toctou?x").as_deref(), Some("toctou"));
        assert_eq!(glossary("#/glossary/a/b"), None);
        assert_eq!(glossary("#/glossaryx"), None);
        assert_eq!(glossary("#/scenario/glossary"), None);
        for r in [
            Route::Durable,
            Route::DurableChallenge("durable-charge-twice".into()),
        ] {
            assert_eq!(Route::parse(&format!("{}?s=x", r.to_hash())), r);
        }
    }
}
