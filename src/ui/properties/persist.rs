//! The page's settings as text: the query of a `#/properties?p=replay&svc=naive&n=256&seed=42`
//! link, which is also how this browser remembers them (localStorage, `web::PROPERTIES_KEY`).
//! Reading never panics: a field that cannot be used is a [`LinkError`] the page explains.

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
