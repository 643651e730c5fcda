//! The page's settings as text: the query of a `#/properties?p=replay&svc=naive&n=256&seed=42`
//! link, which is also how this browser remembers them (localStorage, `web::PROPERTIES_KEY`).
//! Reading never panics: a field that cannot be used is a [`LinkError`] the page explains.
//!
//! The address also says which shrink step the page shows (`&shrink=3`, written only when it is
//! not the case as generated, so every link and saved query from before reads as it did). It is
//! where the learner is, not what runs: a value that cannot be used shows the case as generated.

use crate::sim::limits::InputError;
use crate::sim::properties::{parse_cases, parse_seed, service_from_id, Property, Settings};
use crate::ui::web;

/// Why a link's (or the saved) settings were not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// `p=` names no property.
    UnknownProperty(String),
    /// `svc=` names no service.
    UnknownService(String),
    /// `n=` or `seed=` is out of its limits or no number.
    Value(InputError),
}

/// Longest field value a message quotes.
const SHOWN: usize = 40;

/// The query for `s`: `p=…&svc=…&n=…&seed=…`.
pub fn to_query(s: &Settings) -> String {
    format!(
        "p={}&svc={}&n={}&seed={}",
        s.property.id(),
        s.service.id(),
        s.cases,
        s.seed
    )
}

/// The query field of the shrink step shown.
const SHRINK: &str = "shrink";

/// The address's query for a run of `s` showing shrink step `shrink`: [`to_query`], and the
/// step when it is not 0.
pub fn to_address(s: &Settings, shrink: usize) -> String {
    let query = to_query(s);
    if shrink == 0 {
        query
    } else {
        format!("{query}&{SHRINK}={shrink}")
    }
}

/// The shrink step a query shows; 0 (the case as generated) when it names none or one that is
/// no whole number.
pub fn shrink_step(query: &str) -> usize {
    query
        .split('&')
        .filter_map(|part| part.strip_prefix(SHRINK)?.strip_prefix('='))
        .next_back()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// A query without its shrink step: the settings it names, as [`to_query`] writes them.
pub fn settings_part(query: &str) -> String {
    query
        .split('&')
        .filter(|part| part.split_once('=').map_or(*part, |(name, _)| name) != SHRINK)
        .collect::<Vec<_>>()
        .join("&")
}

/// Reads a query; fields it does not name keep their value in `base`, fields it does not know
/// are ignored (a link may carry more than this page reads).
pub fn from_query(query: &str, base: Settings) -> Result<Settings, LinkError> {
    let mut s = base;
    for part in query.split('&') {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        match name {
            "p" => {
                s.property = Property::from_id(value).ok_or_else(|| {
                    LinkError::UnknownProperty(value.chars().take(SHOWN).collect())
                })?
            }
            "svc" => {
                s.service = service_from_id(value)
                    .ok_or_else(|| LinkError::UnknownService(value.chars().take(SHOWN).collect()))?
            }
            "n" => s.cases = parse_cases(value).map_err(LinkError::Value)?,
            "seed" => s.seed = parse_seed(value).map_err(LinkError::Value)?,
            _ => {}
        }
    }
    Ok(s)
}

/// The settings this browser remembers, read over `base`; `None` if none are kept.
pub fn load(base: Settings) -> Option<Result<Settings, LinkError>> {
    web::load(web::PROPERTIES_KEY).map(|q| from_query(&q, base))
}

/// Remembers settings (as [`to_query`] writes them) in this browser.
pub fn save(query: &str) {
    web::save(web::PROPERTIES_KEY, query);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ServiceKind;

    fn base() -> Settings {
        Settings {
            property: Property::Replay,
            service: ServiceKind::Naive,
            cases: 256,
            seed: 42,
        }
    }

    #[test]
    fn queries_round_trip_and_bad_fields_are_named() {
        let s = Settings {
            property: Property::DistinctKeys,
            service: ServiceKind::Production,
            cases: 1000,
            seed: 7,
        };
        assert_eq!(to_query(&s), "p=distinct-keys&svc=production&n=1000&seed=7");
        assert_eq!(from_query(&to_query(&s), base()), Ok(s));
        assert_eq!(
            from_query("svc=atomic&x=1", base()),
            Ok(Settings {
                service: ServiceKind::Atomic,
                ..base()
            })
        );
        assert_eq!(
            from_query("p=nope", base()),
            Err(LinkError::UnknownProperty("nope".into()))
        );
        assert_eq!(
            from_query("svc=", base()),
            Err(LinkError::UnknownService(String::new()))
        );
        assert!(matches!(
            from_query("n=0", base()),
            Err(LinkError::Value(InputError::BadNumber { .. }))
        ));
        assert!(matches!(
            from_query("seed=-1", base()),
            Err(LinkError::Value(InputError::BadNumber { .. }))
        ));
        assert_eq!(from_query("", base()), Ok(base()));
    }

    #[test]
    fn the_shrink_step_rides_in_the_address_and_old_queries_read_as_before() {
        let s = base();
        assert_eq!(to_address(&s, 0), to_query(&s), "step 0 is not written");
        let q = to_address(&s, 7);
        assert_eq!(q, "p=replay&svc=naive&n=256&seed=42&shrink=7");
        assert_eq!(from_query(&q, base()), Ok(s), "the settings ignore it");
        assert_eq!((shrink_step(&q), settings_part(&q)), (7, to_query(&s)));
        // A query from before, and steps that cannot be used.
        assert_eq!(shrink_step("p=replay&svc=naive&n=256&seed=42"), 0);
        for bad in [
            "shrink=",
            "shrink=-1",
            "shrink=x",
            "shrink=99999999999999999999999",
            "shrinks=3",
        ] {
            assert_eq!(shrink_step(bad), 0, "{bad}");
        }
        assert_eq!(shrink_step("shrink=1&shrink=2"), 2);
        assert_eq!(settings_part("shrink=3&p=replay&shrink"), "p=replay");
        assert_eq!(settings_part("p=replay&shrinks=3"), "p=replay&shrinks=3");
    }

    #[test]
    fn no_query_makes_the_reader_panic() {
        let odd = [
            "&&&",
            "=",
            "p",
            "p=&svc=&n=&seed=",
            "n=１２",
            "seed=99999999999999999999999999999999999999999999",
            "n=%32%35%36",
            "svc=naive&svc=atomic",
            "p=replay=replay",
            "ñ=ü&é",
        ];
        for q in odd {
            let _ = from_query(q, base());
        }
        let long = "p=".to_string() + &"x".repeat(10_000);
        assert_eq!(
            from_query(&long, base()),
            Err(LinkError::UnknownProperty("x".repeat(SHOWN)))
        );
        // Full-width digits are read as the sandbox reads them.
        assert_eq!(from_query("n=１２", base()).map(|s| s.cases), Ok(12));
        assert!(matches!(
            from_query("n=1x", base()),
            Err(LinkError::Value(InputError::BadNumber { .. }))
        ));
        assert_eq!(
            from_query("svc=naive&svc=atomic", base()).map(|s| s.service),
            Ok(ServiceKind::Atomic)
        );
    }
}
